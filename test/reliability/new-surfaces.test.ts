/**
 * The surfaces built beside issue 39 under the same hostility (its last point): the resume of recent conversations
 * ahead (`symposium/resumeRecent`) flooded, and with an agent that dies while it resumes; a consumer's completion
 * tool (Roo Code's `attempt_completion`) with a flooding agent, and with one that dies mid-turn.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { textOfParts } from '../../src/client/lm-client.js';
import type { AgentDefinition, Message, ToolDefinition } from '../../src/protocol/messages.js';
import { AgentBridge, SCRIPTED_AGENT, replied, rejection, sleep, toolCallsOf, user } from '../integration/agent-bridge.js';

const ATTEMPT_COMPLETION: ToolDefinition = { name: 'attempt_completion', description: 'Completes the task', inputSchema: { type: 'object', properties: { result: { type: 'string' } }, required: ['result'] } };
const loads = (log: string): number => (log.match(/scripted-agent: session\/load \S+ \(/g) ?? []).length;

let bridges: AgentBridge[] = [];
let dirs: string[] = [];
const tmp = (): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'symposium-surfaces-'));
  dirs.push(dir);
  return dir;
};
const start = (args: string[] = []): AgentBridge => {
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

/** Conversations used in one bridge that then ends (a window reload); their histories. */
async function used(stateDir: string, agent: AgentDefinition, count: number): Promise<Message[][]> {
  const before = start(['--state-dir', stateDir]);
  const chats: Message[][] = [];
  for (let i = 0; i < count; i++) {
    const chat = [user(`say chat ${i}`)];
    chat.push(replied(await before.chat(chat, agent)));
    chats.push(chat);
  }
  await before.close();
  return chats;
}

describe('resumeRecent', () => {
  test('200 of them at once resume each conversation once, within the session pool, and the bridge goes on', async () => {
    const stateDir = tmp();
    const agent: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, '--load-session', '--state-dir', tmp()], env: [] } };
    const chats = await used(stateDir, agent, 4);
    const bridge = start(['--state-dir', stateDir, '--max-sessions', '3']);
    for (let i = 0; i < 200; i++) bridge.client.resumeRecent({ agents: [agent, agent], sessions: 32, withinHours: 1 });
    await bridge.logged(/(resumed ahead of its next turn[\s\S]*){3}/, 20_000);
    await sleep(300);
    expect(loads(bridge.stderr())).toBe(3);
    // Every conversation goes on, latest first, the one the pool had no room for too.
    for (const [i, chat] of [...chats.entries()].reverse()) {
      chat.push(user(`say more ${i}`));
      expect(textOfParts(await bridge.chat(chat, agent))).toBe(`more ${i}`);
    }
    expect(loads(bridge.stderr())).toBe(4);
  }, 60_000);

  test('an agent that dies while it resumes ahead: the next message starts it again and is answered', async () => {
    const stateDir = tmp();
    const agent: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, '--load-session', '--state-dir', tmp(), '--load-delay', '1500'], env: [] } };
    const [chat] = await used(stateDir, agent, 1);
    const bridge = start(['--state-dir', stateDir]);
    bridge.client.resumeRecent({ agents: [agent], sessions: 3, withinHours: 1 });
    await bridge.logged(/session\/load \S+ \(/, 10_000);
    for (const pid of execFileSync('pgrep', ['-P', String(bridge.child.pid)], { encoding: 'utf8' }).trim().split('\n')) process.kill(Number(pid), 'SIGKILL');
    expect(await bridge.logged(/not resumed ahead/, 10_000)).toMatch(/not resumed ahead/);
    chat!.push(user('say after the crash'));
    expect(textOfParts(await bridge.chat(chat!, agent))).toBe('after the crash');
  }, 60_000);
});

describe("a consumer's completion tool", () => {
  test('an agent flooding 20,000 chunks still ends the task with one completion, after all of them', async () => {
    const bridge = start();
    const agent: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT], env: [] } };
    const parts = await bridge.chat([user('flood 20000')], agent, [ATTEMPT_COMPLETION]);
    const calls = toolCallsOf(parts);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.toolName).toBe('attempt_completion');
    expect(parts.at(-1)).toBe(calls[0]);
    expect(textOfParts(parts)).toContain('f20000 ');
  }, 60_000);

  test('an agent that dies mid-turn: the request fails naming it, no task is said to be completed', async () => {
    const bridge = start();
    const agent: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT], env: [] } };
    const error = await rejection(bridge.chat([user('say half an answer', 'crash 7')], agent, [ATTEMPT_COMPLETION]));
    expect(error.message).toMatch(/exited with code 7/);
  }, 60_000);
});
