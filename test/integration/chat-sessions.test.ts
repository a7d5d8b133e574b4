/**
 * `symposium/chatSessions`: the agent session of each chat used lately in the workspace, latest first, with the chat's
 * first words, so that the extension can hand a chat to the agent's own CLI. Against the built bridge and the scripted
 * agent; the index survives the bridge (a window reload).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ProtocolErrorCodes } from '../../src/protocol/errors.js';
import type { AgentDefinition, Message } from '../../src/protocol/messages.js';
import { AgentBridge, SCRIPTED_AGENT, rejection, replied, user } from './agent-bridge.js';

let dirs: string[] = [];
let bridges: AgentBridge[] = [];
const tmp = (): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'symposium-chat-sessions-'));
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

/** The ACP session the bridge's log says a conversation's first words opened, by the order sessions were opened. */
const sessionsOpened = (log: string): string[] => [...log.matchAll(/conversation \S+ is ACP session (\S+)$/gm)].map((m) => m[1]!);

test('the chats used last, latest first, each with its agent, its session, its folder and its first words; across a restart', async () => {
  const stateDir = tmp();
  const workspace = tmp();
  const scripted: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, '--load-session', '--state-dir', tmp()], env: [] } };
  const other: AgentDefinition = { mcp_server: { name: 'other', command: process.execPath, args: [SCRIPTED_AGENT, '--state-dir', tmp()], env: [] } };
  const eliza: AgentDefinition = { eliza: { deterministic: true } };
  const bridge = start(['--state-dir', stateDir, '--cwd', workspace]);
  const a: Message[] = [user('<context>today</context><userRequest>say a1</userRequest>')];
  a.push(replied(await bridge.chat(a, scripted)));
  const b: Message[] = [user('say b1')];
  b.push(replied(await bridge.chat(b, other)));
  const c: Message[] = [user('hello eliza')];
  c.push(replied(await bridge.chat(c, eliza)));
  // A goes on after B: it is the chat used last.
  a.push(user('say a2'));
  await bridge.chat(a, scripted);
  const [sessionA, sessionB] = sessionsOpened(bridge.stderr());

  const { sessions } = await bridge.client.chatSessions({ agents: [eliza, other, scripted], limit: 10 });
  expect(sessions.map(({ agent, session, cwd, title }) => ({ agent, session, cwd, title }))).toEqual([
    { agent: 2, session: sessionA, cwd: workspace, title: 'say a1' },
    { agent: 1, session: sessionB, cwd: workspace, title: 'say b1' },
  ]);
  expect(sessions[0]!.usedAt).toBeGreaterThanOrEqual(sessions[1]!.usedAt);
  expect((await bridge.client.chatSessions({ agents: [scripted], limit: 1 })).sessions.map((s) => s.session)).toEqual([sessionA]);
  await bridge.close();

  // The index keeps the chat's first words and nothing more of it.
  const index = readFileSync(path.join(stateDir, 'conversations.json'), 'utf8');
  expect(index).toContain('"title":"say a1"');
  expect(index).not.toContain('say a2');
  expect(index).not.toContain('today');

  const after = start(['--state-dir', stateDir, '--cwd', workspace]);
  expect((await after.client.chatSessions({ agents: [scripted, other], limit: 10 })).sessions.map((s) => [s.agent, s.session])).toEqual([
    [0, sessionA],
    [1, sessionB],
  ]);
  // Another workspace's window lists none of them.
  const elsewhere = start(['--state-dir', stateDir, '--cwd', tmp()]);
  expect((await elsewhere.client.chatSessions({ agents: [scripted, other], limit: 10 })).sessions).toEqual([]);
}, 60_000);

test('bad params are refused with -32602 naming the field, and the bridge keeps serving', async () => {
  const bridge = start([]);
  const refused = async (params: unknown): Promise<string> => {
    const error = await rejection(bridge.client.chatSessions(params as never));
    expect(error.code).toBe(ProtocolErrorCodes.InvalidParams);
    return error.message;
  };
  expect(await refused({ agents: [], limit: 0 })).toMatch(/^Invalid params: params\.limit: .*an integer from 1 to 50/);
  expect(await refused({ agents: [{ mcp_server: { name: 'x' } }], limit: 1 })).toMatch(/^Invalid params: params\.agents\[0\]\.mcp_server\.command/);
  expect(await refused({ limit: 1 })).toMatch(/^Invalid params: params\.agents/);
  expect((await bridge.client.chatSessions({ agents: [], limit: 1 })).sessions).toEqual([]);
}, 30_000);
