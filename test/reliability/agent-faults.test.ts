/**
 * Agents that misbehave (issue 17, points 4 and 7), against the BUILT bridge and the scripted agent: what
 * happened is said to the user, naming the agent, and the agent is usable again with the next request.
 */
import { textOfParts } from '../../src/client/lm-client.js';
import type { AgentDefinition } from '../../src/protocol/messages.js';
import { AGENT_ACTION, AgentBridge, SCRIPTED_AGENT, approvals, rejection, toolCallsOf, user } from '../integration/agent-bridge.js';

const agent = (...flags: string[]): AgentDefinition => ({ mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, ...flags], env: [] } });

let bridge: AgentBridge;
beforeEach(() => (bridge = new AgentBridge()));
afterEach(() => bridge.close());

test('an agent message over 32 MB: the turn fails saying so, and the restarted agent answers the next request', async () => {
  const scripted = agent();
  const failed = await rejection(bridge.chat([user('huge-message 40')], scripted));
  expect(failed.code).toBe(-32001);
  expect(failed.message).toMatch(/^Agent "scripted" sent a message larger than 32 MB \(ACP's limit\), so the bridge stopped it/);
  expect(failed.message).not.toMatch(/EPIPE|broken pipe|Incoming ACP data/i);
  expect(textOfParts(await bridge.chat([user('say again')], scripted))).toBe('again');
  expect(textOfParts(await bridge.chat([user('say and again')], scripted))).toBe('and again');
}, 60000);

test('an agent that exits while the user decides its permission: the answer fails naming the exit code and stderr', async () => {
  const scripted = agent();
  const history = [user('exit-during-permission 9')];
  const asked = await bridge.chat(history, scripted, [AGENT_ACTION]);
  const [call] = toolCallsOf(asked);
  expect(call?.toolName).toBe('symposium-agent-action');
  await bridge.logged(/agent scripted exited with code 9/, 10000);
  const continued = [...history, { role: 'assistant' as const, content: asked }, approvals(call!)];
  const failed = await rejection(bridge.chat(continued, scripted, [AGENT_ACTION]));
  expect(failed.code).toBe(-32001);
  expect(failed.message).toMatch(/^Agent "scripted" exited with code 9/);
  expect(failed.message).toContain('scripted-agent: exiting while asked');
  expect(failed.message).toContain('while it waited for your answer');
  // Sent again, the conversation goes on with the restarted agent.
  expect(textOfParts(await bridge.chat([...continued, { role: 'user', content: [{ type: 'text', value: 'say still here' }] }], scripted, [AGENT_ACTION]))).toContain('still here');
}, 60000);
