/**
 * Spare sessions through the built bridge and the scripted ACP agent: once a conversation on an agent began, the
 * agent keeps one ACP session open ahead of the next new conversation, so that a new chat does not wait for
 * `session/new` (the agent here takes 1.5 s to answer it, `--new-session-delay`); and `symposium/prepareAgent`
 * (the model was picked) starts the agent before the first request.
 */
import { textOfParts } from '../../src/client/lm-client.js';
import type { AgentDefinition, ResponsePart, ToolDefinition } from '../../src/protocol/messages.js';
import { AgentBridge, SCRIPTED_AGENT, replied, resultOf, toolCallsOf, user } from './agent-bridge.js';

const SLOW: AgentDefinition = { mcp_server: { name: 'slow', command: process.execPath, args: [SCRIPTED_AGENT, '--mcp-http', '--close-session', '--new-session-delay', '1500'], env: [] } };
/** An agent that holds MCP servers per workspace, as OpenCode does, whose spare (its second session/new) is slow to open. */
const PER_WORKSPACE: AgentDefinition = {
  mcp_server: { name: 'per-workspace', command: process.execPath, args: [SCRIPTED_AGENT, '--mcp-http', '--close-session', '--resume-session', '--mcp-per-workspace', '--new-session-delay', '0,2500,0'], env: [] },
};
const SEARCH: ToolDefinition = { name: 'search_workspace', description: 'Searches the workspace', inputSchema: { type: 'object', properties: { query: { type: 'string' } } } };

/** What the `history` command answers: the prompts this ACP session received before. */
const seen = (parts: readonly ResponsePart[]): string[] => JSON.parse(textOfParts(parts)) as string[];
const count = (text: string, pattern: RegExp): number => text.match(new RegExp(pattern.source, 'g'))?.length ?? 0;

let bridge: AgentBridge;
afterEach(async () => {
  await bridge.close();
  expect(bridge.stderr()).not.toContain('OVERLAPPING PROMPT');
});

test('a new conversation takes the session its agent opened ahead: one it has seen nothing in, and the next spare opens', async () => {
  bridge = new AgentBridge();
  const first = [user('say one')];
  const one = await bridge.chat(first, SLOW, [SEARCH]);
  expect(textOfParts(one)).toBe('one');
  await bridge.logged(/is ready for the next new conversation/, 10_000);
  expect(bridge.stderr()).toMatch(/is ready for the next new conversation/);

  // A new chat with the same tools: its session was opened before it asked, and has seen nothing.
  const two = await bridge.chat([user('history')], SLOW, [SEARCH]);
  expect(seen(two)).toEqual([]);
  expect(count(bridge.stderr(), /opened ahead as a spare/)).toBe(1);
  // The first conversation goes on in its own session.
  expect(seen(await bridge.chat([...first, replied(one), user('history')], SLOW, [SEARCH]))).toEqual(['say one']);
  // The next spare opened meanwhile: a third new chat takes it too.
  await bridge.logged(/ready for the next new conversation[\s\S]*ready for the next new conversation/, 10_000);
  expect(seen(await bridge.chat([user('history')], SLOW, [SEARCH]))).toEqual([]);
  expect(count(bridge.stderr(), /opened ahead as a spare/)).toBe(2);
}, 30_000);

test('a new conversation offered other tools opens its own session; the spare stays for one offered the same', async () => {
  bridge = new AgentBridge();
  await bridge.chat([user('say one')], SLOW, [SEARCH]);
  await bridge.logged(/is ready for the next new conversation/, 10_000);
  // The agent reads its MCP server's tools when the session opens: a spare offering others would show it the wrong ones.
  expect(textOfParts(await bridge.chat([user('mcp-list')], SLOW, []))).toBe('');
  expect(count(bridge.stderr(), /opened ahead as a spare/)).toBe(0);
  expect(textOfParts(await bridge.chat([user('mcp-list')], SLOW, [SEARCH]))).toBe('search_workspace');
  expect(count(bridge.stderr(), /opened ahead as a spare/)).toBe(1);
}, 30_000);

test("an agent holding MCP servers per workspace: the conversation that opened last is served its own tools though a spare opened slower; one going on is given its own again", async () => {
  bridge = new AgentBridge();
  const TIME: ToolDefinition = { name: 'get_time', description: 'Tells the time' };
  // Its first prompt over, the first conversation makes the agent open a spare, which takes 2.5 s.
  const first = [user('say one')];
  const one = await bridge.chat(first, PER_WORKSPACE, [SEARCH]);
  // A new conversation offered other tools opens its own session meanwhile: after the spare's, so last.
  const second = [user('mcp-list')];
  const listed = await bridge.chat(second, PER_WORKSPACE, [SEARCH, TIME]);
  expect(textOfParts(listed)).toBe('search_workspace,get_time');
  await bridge.logged(/is ready for the next new conversation/, 10_000);
  expect(textOfParts(await bridge.chat([...second, replied(listed), user('mcp-list')], PER_WORKSPACE, [SEARCH, TIME]))).toBe('search_workspace,get_time');

  // The first conversation goes on: the agent is given its tool server again, and lists its tools.
  const ask = [...first, replied(one), user('mcp-list', 'mcp-call search_workspace {"query":"x"}')];
  const asked = await bridge.chat(ask, PER_WORKSPACE, [SEARCH]);
  expect(textOfParts(asked)).toBe('search_workspace');
  const [call] = toolCallsOf(asked);
  expect(call).toEqual({ type: 'tool_call', toolCallId: expect.any(String), toolName: 'search_workspace', parameters: { query: 'x' } });
  const rest = await bridge.chat([...ask, replied(asked), resultOf(call!.toolCallId, '3 matches')], PER_WORKSPACE, [SEARCH]);
  expect(textOfParts(rest)).toBe('result search_workspace: 3 matches');
  expect(count(bridge.stderr(), /scripted-agent: session\/resume/)).toBe(1);
}, 30_000);

test('an agent holding MCP servers per workspace: a call that reaches the tool server of a conversation in no turn goes to the one in a turn', async () => {
  // Without session/resume the agent cannot be given a conversation's tool server again: calls go where it holds.
  const NO_RESUME: AgentDefinition = { mcp_server: { ...PER_WORKSPACE.mcp_server, args: [SCRIPTED_AGENT, '--mcp-http', '--mcp-per-workspace'] } };
  bridge = new AgentBridge();
  const first = [user('say one')];
  const one = await bridge.chat(first, NO_RESUME, [SEARCH]);
  await bridge.logged(/is ready for the next new conversation/, 10_000);
  const ask = [...first, replied(one), user('mcp-call search_workspace {"query":"x"}')];
  const asked = await bridge.chat(ask, NO_RESUME, [SEARCH]);
  const [call] = toolCallsOf(asked);
  expect(call).toEqual({ type: 'tool_call', toolCallId: expect.any(String), toolName: 'search_workspace', parameters: { query: 'x' } });
  const rest = await bridge.chat([...ask, replied(asked), resultOf(call!.toolCallId, '3 matches')], NO_RESUME, [SEARCH]);
  expect(textOfParts(rest)).toBe('result search_workspace: 3 matches');
}, 30_000);

test('symposium/prepareAgent starts the agent before the first request; no spare before a conversation began', async () => {
  bridge = new AgentBridge();
  bridge.client.prepareAgent({ agent: SLOW });
  await bridge.logged(/scripted-agent: initialize/, 10_000);
  expect(bridge.stderr()).toMatch(/scripted-agent: initialize/);
  expect(bridge.stderr()).not.toMatch(/session\/new/);
  expect(textOfParts(await bridge.chat([user('say first')], SLOW, [SEARCH]))).toBe('first');
  // One process served both: the notification started it.
  expect(count(bridge.stderr(), /scripted-agent: initialize/)).toBe(1);
}, 30_000);

test('a prepareAgent notification that cannot be read is logged, naming the field; the bridge keeps serving', async () => {
  bridge = new AgentBridge();
  bridge.client.prepareAgent({ agent: { mcp_server: { name: 'x', command: 7 } } } as never);
  await bridge.logged(/ignored a symposium\/prepareAgent notification/);
  expect(bridge.stderr()).toMatch(/ignored a symposium\/prepareAgent notification: params\.agent\.mcp_server\.command/);
  expect(textOfParts(await bridge.chat([user('say still here')], SLOW))).toBe('still here');
}, 30_000);

test('without room in the session pool no spare opens', async () => {
  bridge = new AgentBridge(['--max-sessions', '1']);
  await bridge.chat([user('say one')], SLOW, [SEARCH]);
  await bridge.chat([user('say two')], SLOW, [SEARCH]);
  expect(bridge.stderr()).not.toMatch(/spare session/);
}, 30_000);

test('the spare goes with its agent when the agent idles out', async () => {
  bridge = new AgentBridge(['--session-idle-ms', '300', '--agent-idle-ms', '3000']);
  await bridge.chat([user('say one')], SLOW, [SEARCH]);
  await bridge.logged(/is ready for the next new conversation/, 10_000);
  // The conversation's session idles out: a spare keeps no agent in use, so the agent stops, and the spare with it.
  const log = await bridge.logged(/spare session closed: the agent stops[\s\S]*killed by SIGTERM/, 10_000);
  expect(log).toMatch(/has had no open session for 3000 ms: it stops[\s\S]*spare session closed: the agent stops[\s\S]*killed by SIGTERM/);
}, 30_000);
