/**
 * Long-lived conversations (issue 6) through the built bridge and the scripted agent: idle sessions are
 * closed and resumed, conversations survive a bridge restart through the index in --state-dir (with
 * session/load, session/resume, or a transcript for agents that can do neither), idle agents exit, and
 * the agent's models reach the client and are selected per request.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { textOfParts } from '../../src/client/lm-client.js';
import type { AgentDefinition, AgentInfoParams, Message, ToolCallPart, ToolDefinition } from '../../src/protocol/messages.js';
import { AgentBridge, SCRIPTED_AGENT, replied, sleep, user } from './agent-bridge.js';

const dirs: string[] = [];
const bridges: AgentBridge[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'symposium-resume-'));
  dirs.push(dir);
  return dir;
}
function startBridge(args: string[]): AgentBridge {
  const bridge = new AgentBridge(args);
  bridges.push(bridge);
  return bridge;
}
afterEach(async () => {
  await Promise.all(bridges.splice(0).map((b) => b.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const scripted = (...flags: string[]): AgentDefinition => ({ mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, ...flags], env: [] } });

/**
 * `say one` on one bridge, which is then closed; then, on a new bridge with the same arguments, the same
 * chat goes on with `next` (`history` or `echo`).
 */
async function acrossRestart(bridgeArgs: string[], agent: AgentDefinition, next: string): Promise<{ text: string; log: string }> {
  const first = startBridge(bridgeArgs);
  const one = await first.chat([user('say one')], agent);
  expect(textOfParts(one)).toBe('one');
  await first.close();
  const second = startBridge(bridgeArgs);
  const text = textOfParts(await second.chat([user('say one'), replied(one), user(next)], agent));
  return { text, log: second.stderr() };
}

describe('across a bridge restart, through the index in --state-dir', () => {
  test('an agent that can load sessions goes on in the same session (session/load)', async () => {
    const { text, log } = await acrossRestart(['--state-dir', tempDir()], scripted('--load-session', '--state-dir', tempDir()), 'history');
    expect(JSON.parse(text)).toEqual(['say one']);
    expect(log).toMatch(/resumed ACP session \S+ \(session\/load\)/);
  });

  test('an agent that can resume sessions is resumed, which it prefers (session/resume)', async () => {
    const { text, log } = await acrossRestart(['--state-dir', tempDir()], scripted('--load-session', '--resume-session', '--state-dir', tempDir()), 'history');
    expect(JSON.parse(text)).toEqual(['say one']);
    expect(log).toMatch(/resumed ACP session \S+ \(session\/resume\)/);
  });

  test("a loaded session's replayed history never reaches the next response, however long", async () => {
    const [state, agentState] = [tempDir(), tempDir()];
    const agent = scripted('--load-session', '--state-dir', agentState);
    const first = startBridge(['--state-dir', state]);
    const flood = await first.chat([user('flood 3000')], agent);
    await first.close();
    const second = startBridge(['--state-dir', state]);
    const next = await second.chat([user('flood 3000'), replied(flood), user('say two')], agent);
    expect(textOfParts(next)).toBe('two');
    expect(second.stderr()).toMatch(/resumed ACP session \S+ \(session\/load\)/);
  });

  test('an agent that can do neither gets a new session told the conversation so far', async () => {
    const { text, log } = await acrossRestart(['--state-dir', tempDir()], scripted(), 'echo');
    expect(text).toContain('This conversation began before this session');
    expect(text).toContain('User: say one\\nAssistant: one');
    expect(log).toMatch(/cannot resume sessions/);
  });

  test('a session the agent no longer has: a new session, told the conversation so far', async () => {
    const agentState = tempDir();
    const agent = scripted('--load-session', '--state-dir', agentState);
    const state = tempDir();
    const first = startBridge(['--state-dir', state]);
    const one = await first.chat([user('say one')], agent);
    await first.close();
    rmSync(agentState, { recursive: true });
    const second = startBridge(['--state-dir', state]);
    const echoed = textOfParts(await second.chat([user('say one'), replied(one), user('echo')], agent));
    expect(echoed).toContain('User: say one\\nAssistant: one');
    expect(second.stderr()).toMatch(/session\/load of \S+ failed/);
  });

  test('without --state-dir a restarted bridge starts the conversation afresh, with the transcript', async () => {
    const { text, log } = await acrossRestart([], scripted('--load-session', '--state-dir', tempDir()), 'echo');
    expect(text).toContain('User: say one\\nAssistant: one');
    expect(log).not.toMatch(/resumed ACP session/);
  });
});

describe('idle sessions and agents', () => {
  test('an idle session is closed (session/close) and resumed by its next turn', async () => {
    const agent = scripted('--resume-session', '--close-session', '--state-dir', tempDir());
    const bridge = startBridge(['--session-idle-ms', '200']);
    const one = await bridge.chat([user('say one')], agent);
    expect(await bridge.logged(/session\/close scripted-session/, 5000)).toMatch(/session\/close scripted-session/);
    const seen = await bridge.chat([user('say one'), replied(one), user('history')], agent);
    expect(JSON.parse(textOfParts(seen))).toEqual(['say one']);
    expect(bridge.stderr()).toMatch(/resumed ACP session \S+ \(session\/resume\)/);
  });

  test('a tool result that comes after its session closed is told to the new session, with the conversation so far', async () => {
    const agent = scripted('--mcp-http');
    const bridge = startBridge(['--session-idle-ms', '200']);
    const tools: ToolDefinition[] = [{ name: 'lookup', description: 'Looks a word up', inputSchema: { type: 'object' } }];
    const asked: Message[] = [user('mcp-call lookup {"word":"pelican"}')];
    const called = await bridge.chat(asked, agent, tools);
    const call = called.find((p): p is ToolCallPart => p.type === 'tool_call');
    expect(call?.toolName).toBe('lookup');
    // The user takes a while: the session (and the agent's call waiting on it) is closed meanwhile; the
    // transcript below shows the next turn ran in a new one.
    await sleep(600);
    const answer: Message = {
      role: 'user',
      content: [
        { type: 'tool_result', toolCallId: call!.toolCallId, result: [{ type: 'text', value: 'a large bird' }] },
        { type: 'text', value: 'echo' },
      ],
    };
    const blocks = JSON.parse(textOfParts(await bridge.chat([...asked, replied(called), answer], agent, tools))) as { text: string }[];
    expect(blocks.map((b) => b.text.split('\n')[0])).toEqual([
      'This conversation began before this session. What was said so far:',
      'Results of tool calls from earlier in this conversation:',
      'echo',
    ]);
    expect(blocks[1]!.text).toContain(`${call!.toolCallId}: a large bird`);
  });

  test('beyond --max-sessions the least recently used idle session is closed', async () => {
    const agent = scripted('--close-session');
    const bridge = startBridge(['--max-sessions', '1']);
    await bridge.chat([user('say a')], agent);
    expect(bridge.stderr()).not.toMatch(/session\/close/);
    await bridge.chat([user('say b')], agent);
    expect(await bridge.logged(/session\/close scripted-session-\S*1\b/)).toMatch(/session\/close scripted-session-\S*1\b/);
  });

  test('an agent with no open session exits after --agent-idle-ms and starts again when needed', async () => {
    const agent = scripted();
    const bridge = startBridge(['--session-idle-ms', '100', '--agent-idle-ms', '100']);
    expect(textOfParts(await bridge.chat([user('say a')], agent))).toBe('a');
    expect(await bridge.logged(/agent scripted was killed by SIGTERM/, 5000)).toMatch(/no open session for 100 ms[^]*agent scripted was killed by SIGTERM/);
    expect(textOfParts(await bridge.chat([user('say b')], agent))).toBe('b');
  });
});

describe("the agent's models", () => {
  test('are reported to the client, and a request selects one with session/set_config_option', async () => {
    const agent = scripted('--models', 'fast,deep');
    const bridge = startBridge([]);
    const infos: AgentInfoParams[] = [];
    bridge.client.onAgentInfo((params) => infos.push(params));
    expect(textOfParts(await bridge.chat([user('model')], agent))).toBe('fast');
    for (let waited = 0; infos.length < 2 && waited < 2000; waited += 20) await sleep(20);
    expect(infos.at(-1)).toEqual({
      agent,
      info: { imageInput: false, models: { configId: 'model', current: 'fast', choices: [{ value: 'fast', name: 'Model fast' }, { value: 'deep', name: 'Model deep' }] }, options: [] },
    });
    const asked: Message[] = [user('say hi')];
    const hi = await bridge.client.collectChatResponse({ modelId: 'm', messages: asked, agent, config: { model: 'deep' } });
    const now = await bridge.client.collectChatResponse({ modelId: 'm', messages: [...asked, replied(hi), user('model')], agent, config: { model: 'deep' } });
    expect(textOfParts(now)).toBe('deep');
    expect(await bridge.logged(/set_config_option model=deep/)).toMatch(/set_config_option model=deep/);
  });

  test("its other options (a mode) are reported too, and a request's config sets them", async () => {
    const agent = scripted('--models', 'fast,deep', '--modes', 'ask,code');
    const bridge = startBridge([]);
    const infos: AgentInfoParams[] = [];
    bridge.client.onAgentInfo((params) => infos.push(params));
    expect(textOfParts(await bridge.chat([user('mode')], agent))).toBe('ask');
    for (let waited = 0; infos.length < 2 && waited < 2000; waited += 20) await sleep(20);
    expect(infos.at(-1)?.info.options).toEqual([{ configId: 'mode', name: 'Mode', current: 'ask', choices: [{ value: 'ask', name: 'Mode ask' }, { value: 'code', name: 'Mode code' }] }]);
    const asked: Message[] = [user('say hi')];
    const hi = await bridge.client.collectChatResponse({ modelId: 'm', messages: asked, agent, config: { model: 'fast', mode: 'code' } });
    const now = await bridge.client.collectChatResponse({ modelId: 'm', messages: [...asked, replied(hi), user('mode')], agent, config: { model: 'fast', mode: 'code' } });
    expect(textOfParts(now)).toBe('code');
    expect(await bridge.logged(/set_config_option mode=code/)).toMatch(/set_config_option mode=code/);
  });

  test('a model the agent refuses fails the turn, saying so', async () => {
    const agent = scripted('--models', 'fast,deep');
    const bridge = startBridge([]);
    await expect(bridge.client.collectChatResponse({ modelId: 'm', messages: [user('say hi')], agent, config: { model: 'nope' } })).rejects.toThrow(
      /could not switch model to "nope"/,
    );
    expect(textOfParts(await bridge.chat([user('say next')], agent))).toBe('next');
  });
});
