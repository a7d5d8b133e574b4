/**
 * Bad data from agents (issue 17, points 11 and 12), against the BUILT bridge and the scripted agent: the
 * bridge never sends the consumer what it would refuse to read back, and a malformed answer fails with a
 * message naming the agent, the method and the field, never a raw JavaScript error or an empty reply.
 */
import { textOfParts } from '../../src/client/lm-client.js';
import { AGENT_ACTION_TOOL } from '../../src/protocol/methods.js';
import type { AgentDefinition, ToolDefinition } from '../../src/protocol/messages.js';
import { AGENT_ACTION, AgentBridge, SCRIPTED_AGENT, approvals, rejection, replied, sleep, toolCallsOf, user } from '../integration/agent-bridge.js';

const agent = (...flags: string[]): AgentDefinition => ({ mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, ...flags], env: [] } });
const TOOLS: ToolDefinition[] = [{ name: 'lookup', description: 'Looks a tag up', inputSchema: { type: 'object', properties: {} } }];
const deep = (levels: number): string => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;

let bridge: AgentBridge;
beforeEach(() => (bridge = new AgentBridge()));
afterEach(() => bridge.close());

describe('input nested deeper than the bridge reads back', () => {
  test('a permission whose raw input nests 70 levels: approving it continues the chat', async () => {
    const scripted = agent();
    const history = [user('permission-deep 70')];
    const asked = await bridge.chat(history, scripted, [AGENT_ACTION]);
    const [call] = toolCallsOf(asked);
    expect(call?.toolName).toBe(AGENT_ACTION_TOOL);
    const next = await bridge.chat([...history, replied(asked), approvals(call!)], scripted, [AGENT_ACTION]);
    expect(textOfParts(next)).toContain('permission deep: allow_once');
  });

  test('an agent calling a VS Code tool with arguments nested 70 levels gets an error; VS Code never sees the call', async () => {
    const scripted = agent('--mcp-http');
    const parts = await bridge.chat([user(`mcp-call lookup ${deep(70)}`)], scripted, TOOLS);
    expect(toolCallsOf(parts)).toEqual([]);
    expect(textOfParts(parts)).toMatch(/^error lookup: The arguments of lookup are nested deeper than 64 levels/);
  });

  test('Eliza asked to use a tool with input nested 70 levels says it cannot', async () => {
    const eliza: AgentDefinition = { eliza: { deterministic: true } };
    const parts = await bridge.chat([user(`use tool lookup with ${deep(70)}`)], eliza, TOOLS);
    expect(toolCallsOf(parts)).toEqual([]);
    expect(textOfParts(parts)).toMatch(/nested deeper than 64 levels/);
  });
});

describe('malformed answers name the agent and the fault', () => {
  const cases: [string, RegExp][] = [
    ['initialize-null', /^Agent "scripted" gave a malformed answer to initialize: answer: /],
    ['protocol-version-string', /^Agent "scripted" gave a malformed answer to initialize: answer\.protocolVersion: expected Int, got "1"/],
    ['session-new-empty', /^Agent "scripted" gave a malformed answer to session\/new: answer\.sessionId: .*missing/],
    ['session-new-numeric', /^Agent "scripted" gave a malformed answer to session\/new: answer\.sessionId: .*got 7/],
    ['config-options-object', /^Agent "scripted" gave a malformed answer to session\/new: answer\.configOptions/],
  ];
  test('--malformed load-other-session: a load that names another session is no resume; the conversation goes on in a new session told its history', async () => {
    await bridge.close();
    bridge = new AgentBridge(['--session-idle-ms', '100']);
    const scripted = agent('--load-session', '--malformed', 'load-other-session');
    const chat = [user('say the first words')];
    chat.push(replied(await bridge.chat(chat, scripted)));
    // Its session closes unused; the next turn loads it, and the agent answers naming another session.
    await sleep(400);
    chat.push(user('echo'));
    const told = textOfParts(await bridge.chat(chat, scripted));
    expect(bridge.stderr()).toMatch(/answered session\/load of session \S+ with another session, "\S+-other"/);
    expect(told).toContain('say the first words');
  });

  test.each(cases)('--malformed %s', async (kind, message) => {
    const failed = await rejection(bridge.chat([user('say hello')], agent('--malformed', kind)));
    expect(failed.code).toBe(-32001);
    expect(failed.message).toMatch(message);
    expect(failed.message).not.toMatch(/Cannot read properties|is not a function|this bridge speaks version/);
  });
});
