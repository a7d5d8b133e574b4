/**
 * Agents that misbehave (issue 17, points 4 and 7), against the BUILT bridge and the scripted agent: what
 * happened is said to the user, naming the agent, and the agent is usable again with the next request.
 */
import { textOfParts } from '../../src/client/lm-client.js';
import type { AgentDefinition } from '../../src/protocol/messages.js';
import { AgentBridge, SCRIPTED_AGENT, rejection, user } from '../integration/agent-bridge.js';

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
