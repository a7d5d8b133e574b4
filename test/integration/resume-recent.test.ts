/**
 * After a window reload the bridge starts afresh: the conversations used last in the workspace resume their
 * ACP sessions ahead of their next message (`symposium/resumeRecent`), bounded by count, recency and room in the
 * session pool, each with the tools its agent was last offered there. Against the built bridge and the scripted
 * agent, whose `session/load` takes a second.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { textOfParts } from '../../src/client/lm-client.js';
import type { AgentDefinition, Message } from '../../src/protocol/messages.js';
import { AgentBridge, RUN_IN_TERMINAL, SCRIPTED_AGENT, replied, user } from './agent-bridge.js';
import { LOOKUP } from '../fixtures/tools.js';

const loads = (log: string): string[] => [...log.matchAll(/scripted-agent: session\/load (\S+) \(/g)].map((m) => m[1]!);

let dirs: string[] = [];
let bridges: AgentBridge[] = [];
const tmp = (): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'symposium-resume-recent-'));
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

/** Three conversations, A then B then C, with a bridge that then ends (a window reload). */
async function usedThree(stateDir: string, scripted: AgentDefinition): Promise<Record<'a' | 'b' | 'c', Message[]>> {
  const before = start(['--state-dir', stateDir]);
  const chats = { a: [user('say a1')], b: [user('say b1')], c: [user('say c1')] };
  for (const chat of Object.values(chats)) chat.push(replied(await before.chat(chat, scripted, [LOOKUP])));
  await before.close();
  return chats;
}

test('the latest conversations resume ahead with their tools; the next message goes on without a load; one not covered loads on demand', async () => {
  const stateDir = tmp();
  const scripted: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, '--mcp-http', '--load-session', '--state-dir', tmp(), '--load-delay', '1000'], env: [] } };
  const { a, b, c } = await usedThree(stateDir, scripted);

  const bridge = start(['--state-dir', stateDir]);
  bridge.client.resumeRecent({ agents: [scripted], sessions: 2, withinHours: 1 });
  const log = await bridge.logged(/resumed ahead of its next turn[\s\S]*resumed ahead of its next turn/, 20_000);
  expect(log).toMatch(/2 conversation\(s\) of the last 1 h in \S+ resume ahead/);
  const ahead = loads(log);
  expect(ahead).toHaveLength(2);

  // C, used last: its session was loaded ahead, with the tools it was offered before.
  c.push(user('mcp-list'));
  const listed = await bridge.chat(c, scripted, [LOOKUP]);
  expect(textOfParts(listed)).toBe('lookup');
  c.push(replied(listed), user('history'));
  expect(textOfParts(await bridge.chat(c, scripted, [LOOKUP]))).toContain('say c1');
  // B likewise.
  b.push(user('say b2'));
  expect(textOfParts(await bridge.chat(b, scripted, [LOOKUP]))).toBe('b2');
  expect(loads(bridge.stderr())).toEqual(ahead);
  expect(bridge.stderr()).toMatch(/is ACP session \S+, resumed ahead/);

  // A was not covered (two at most): its session loads when its message comes.
  a.push(user('say a2'));
  expect(textOfParts(await bridge.chat(a, scripted, [LOOKUP]))).toBe('a2');
  expect(loads(bridge.stderr())).toHaveLength(3);

  // A new chat finds a spare session opened after the resumes, offering the tools of before.
  await bridge.logged(/spare session \S+ is ready/, 10_000);
  expect(textOfParts(await bridge.chat([user('say new')], scripted, [LOOKUP]))).toBe('new');
  expect(bridge.stderr()).toMatch(/is ACP session \S+, opened ahead as a spare/);
}, 60_000);

test("the latest chat's first message goes while the older chats' resumes and the spare wait; they follow", async () => {
  const stateDir = tmp();
  const scripted: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, '--mcp-http', '--load-session', '--state-dir', tmp(), '--load-delay', '300'], env: [] } };
  const { b, c } = await usedThree(stateDir, scripted);

  const bridge = start(['--state-dir', stateDir]);
  bridge.client.resumeRecent({ agents: [scripted], sessions: 2, withinHours: 1 });
  await bridge.logged(/resumed ahead of its next turn/, 20_000);
  // The person answers the restored chat at once: nothing else is opened in the agent while it is answered.
  c.push(user('say c2'));
  expect(textOfParts(await bridge.chat(c, scripted, [LOOKUP]))).toBe('c2');
  expect(loads(bridge.stderr())).toHaveLength(1);
  expect(bridge.stderr()).not.toMatch(/spare session \S+ is ready/);
  // After the person's reading, B resumes ahead all the same, and then the spare opens.
  const log = await bridge.logged(/resumed ahead of its next turn[\s\S]*resumed ahead of its next turn[\s\S]*spare session \S+ is ready/, 30_000);
  expect(loads(log)).toHaveLength(2);
  b.push(user('say b2'));
  expect(textOfParts(await bridge.chat(b, scripted, [LOOKUP]))).toBe('b2');
  expect(loads(bridge.stderr())).toHaveLength(2);
}, 60_000);

test('an agent whose shell is off per process: each conversation resumes ahead in the process its session was of, the one with the shell off started for it', async () => {
  const stateDir = tmp();
  // The scripted agent ignores the variable; the second process is told apart by it, and by the bridge's log.
  const scripted: AgentDefinition = {
    mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, '--mcp-http', '--load-session', '--state-dir', tmp()], env: [], shellOff: { json: { SCRIPTED_SHELL: { off: true } } } },
  };
  const before = start(['--state-dir', stateDir]);
  const inTerminal = [user('say t1')];
  inTerminal.push(replied(await before.chat(inTerminal, scripted, [RUN_IN_TERMINAL])));
  const plain = [user('say p1')];
  plain.push(replied(await before.chat(plain, scripted, [LOOKUP])));
  expect(before.stderr().match(/a second process, with its own shell off/g)).toHaveLength(1);
  await before.close();

  const bridge = start(['--state-dir', stateDir]);
  bridge.client.resumeRecent({ agents: [scripted], sessions: 2, withinHours: 1 });
  const log = await bridge.logged(/resumed ahead of its next turn[\s\S]*resumed ahead of its next turn/, 20_000);
  expect(log).toMatch(/2 conversation\(s\) of the last 1 h in \S+ resume ahead/);
  expect(log).toMatch(/a second process, with its own shell off/);
  expect(loads(log)).toHaveLength(2);
  // Each goes on in the session resumed for it, in its own process: no other load.
  inTerminal.push(user('say t2'));
  expect(textOfParts(await bridge.chat(inTerminal, scripted, [RUN_IN_TERMINAL]))).toBe('t2');
  plain.push(user('say p2'));
  expect(textOfParts(await bridge.chat(plain, scripted, [LOOKUP]))).toBe('p2');
  expect(loads(bridge.stderr())).toHaveLength(2);
}, 60_000);

test("an agent whose shell is off per process: the latest chat's first message goes while the other process's resume and the spares wait; they follow", async () => {
  const stateDir = tmp();
  const scripted: AgentDefinition = {
    mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, '--mcp-http', '--load-session', '--state-dir', tmp(), '--load-delay', '300'], env: [], shellOff: { json: { SCRIPTED_SHELL: { off: true } } } },
  };
  const before = start(['--state-dir', stateDir]);
  const plain = [user('say p1')];
  plain.push(replied(await before.chat(plain, scripted, [LOOKUP])));
  // Used last: in the process with its shell off.
  const inTerminal = [user('say t1')];
  inTerminal.push(replied(await before.chat(inTerminal, scripted, [RUN_IN_TERMINAL])));
  await before.close();

  const bridge = start(['--state-dir', stateDir]);
  bridge.client.resumeRecent({ agents: [scripted], sessions: 2, withinHours: 1 });
  await bridge.logged(/resumed ahead of its next turn/, 20_000);
  // The person answers the restored chat at once: the agent's other process has nothing opened meanwhile.
  inTerminal.push(user('say t2'));
  expect(textOfParts(await bridge.chat(inTerminal, scripted, [RUN_IN_TERMINAL]))).toBe('t2');
  expect(loads(bridge.stderr())).toHaveLength(1);
  expect(bridge.stderr()).not.toMatch(/spare session \S+ is ready/);
  // After the person's reading, the older chat resumes ahead in the agent's own process all the same.
  const log = await bridge.logged(/resumed ahead of its next turn[\s\S]*resumed ahead of its next turn[\s\S]*spare session \S+ is ready/, 30_000);
  expect(loads(log)).toHaveLength(2);
  plain.push(user('say p2'));
  expect(textOfParts(await bridge.chat(plain, scripted, [LOOKUP]))).toBe('p2');
  expect(loads(bridge.stderr())).toHaveLength(2);
}, 60_000);

test('nothing resumes ahead for another workspace, for agents not named, or with no room in the session pool', async () => {
  const stateDir = tmp();
  const scripted: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, '--load-session', '--state-dir', tmp()], env: [] } };
  const other: AgentDefinition = { mcp_server: { name: 'other', command: process.execPath, args: [SCRIPTED_AGENT, '--load-session'], env: [] } };
  await usedThree(stateDir, scripted);

  const elsewhere = start(['--state-dir', stateDir, '--cwd', tmp()]);
  elsewhere.client.resumeRecent({ agents: [scripted], sessions: 3, withinHours: 1 });
  expect(await elsewhere.logged(/resume ahead/)).toMatch(/0 conversation\(s\) of the last 1 h/);
  await elsewhere.close();

  const notNamed = start(['--state-dir', stateDir]);
  notNamed.client.resumeRecent({ agents: [other], sessions: 3, withinHours: 1 });
  expect(await notNamed.logged(/resume ahead/)).toMatch(/0 conversation\(s\) of the last 1 h/);
  await notNamed.close();

  const small = start(['--state-dir', stateDir, '--max-sessions', '1']);
  small.client.resumeRecent({ agents: [scripted], sessions: 3, withinHours: 1 });
  const log = await small.logged(/resumed ahead of its next turn/, 20_000);
  expect(log).toMatch(/3 conversation\(s\) of the last 1 h/);
  expect(loads(log)).toHaveLength(1);
  expect(log).toMatch(/is not resumed ahead \(resumed already, or no room in the session pool\)/);
}, 60_000);

test('a bad resumeRecent is ignored, naming the field, and the bridge goes on', async () => {
  const bridge = start([]);
  bridge.client.resumeRecent({ agents: [], sessions: -1, withinHours: 1 });
  expect(await bridge.logged(/ignored a symposium\/resumeRecent/)).toMatch(/params\.sessions/);
  const reply = await bridge.client.collectChatResponse({ modelId: 'eliza', messages: [user('I feel fine')], agent: { eliza: { deterministic: true } } });
  expect(textOfParts(reply)).not.toBe('');
});
