/**
 * A workspace of several folders: the first is every session's `cwd`, the others reach the agent as ACP's
 * `additionalDirectories` where it declares `sessionCapabilities.additionalDirectories`, in `session/new` and when a
 * session resumes after a restart; an agent that does not is given the first, and the log says once which folders it
 * cannot see. Against the built bridge and the scripted agent, whose `dirs` answers what its session was given.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { textOfParts } from '../../src/client/lm-client.js';
import type { AgentDefinition } from '../../src/protocol/messages.js';
import { AgentBridge, SCRIPTED_AGENT, replied, user } from './agent-bridge.js';

let dirs: string[] = [];
let bridges: AgentBridge[] = [];
const tmp = (name: string): string => {
  const dir = mkdtempSync(path.join(tmpdir(), `symposium-${name}-`));
  dirs.push(dir);
  return dir;
};
const start = (args: string[]): AgentBridge => {
  const bridge = new AgentBridge(args);
  bridges.push(bridge);
  return bridge;
};
afterEach(async () => {
  for (const bridge of bridges) await bridge.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  bridges = [];
  dirs = [];
});

const agent = (flags: string[]): AgentDefinition => ({ mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, ...flags], env: [] } });
const given = (text: string): { cwd: string; additionalDirectories: string[] | null } => JSON.parse(text) as { cwd: string; additionalDirectories: string[] | null };

test("an agent that takes additionalDirectories gets the workspace's other folders, in a new session and when it resumes after a restart", async () => {
  const [first, second, third, stateDir] = [tmp('first'), tmp('second é'), tmp('third'), tmp('state')];
  const folders = ['--cwd', first, '--add-dir', second, '--add-dir', third, '--state-dir', stateDir];
  const scripted = agent(['--additional-directories', '--resume-session', '--state-dir', tmp('agent')]);
  const before = start(folders);
  const chat = [user('dirs')];
  const asked = await before.chat(chat, scripted);
  expect(given(textOfParts(asked))).toEqual({ cwd: first, additionalDirectories: [second, third] });
  await before.close();

  // A window reload: the chat's next message resumes its session with the folders again.
  const after = start(folders);
  const resumed = await after.chat([...chat, replied(asked), user('dirs')], scripted);
  expect(after.stderr()).toMatch(/scripted-agent: session\/resume \S+/);
  expect(given(textOfParts(resumed))).toEqual({ cwd: first, additionalDirectories: [second, third] });
});

test('an agent that does not take them sees the first folder, and the log says once which it cannot see', async () => {
  const [first, second] = [tmp('first'), tmp('second')];
  const bridge = start(['--cwd', first, '--add-dir', second]);
  const scripted = agent([]);
  for (const chat of ['dirs', 'dirs\nsay again']) {
    const parts = await bridge.chat([user(chat)], scripted);
    expect(given(textOfParts(parts).replace(/again$/, ''))).toEqual({ cwd: first, additionalDirectories: null });
  }
  const told = bridge.stderr().match(/takes no additionalDirectories: it sees \S+, not the workspace's other folders \S+/g) ?? [];
  expect(told).toEqual([`takes no additionalDirectories: it sees ${first}, not the workspace's other folders ${second}`]);
});

test('a single folder: no additionalDirectories, nothing said', async () => {
  const first = tmp('first');
  const bridge = start(['--cwd', first]);
  const parts = await bridge.chat([user('dirs')], agent(['--additional-directories']));
  expect(given(textOfParts(parts))).toEqual({ cwd: first, additionalDirectories: null });
  expect(bridge.stderr()).not.toMatch(/additionalDirectories/);
});
