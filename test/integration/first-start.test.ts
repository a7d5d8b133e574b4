/**
 * First start (issue 15): a response that waits for its agent to start (npx downloading it, say) begins
 * with a notice saying so, and cancelling the request stops the wait; a response from an agent that is
 * running says nothing of the kind. Against the built bridge and the scripted agent (`--hang-on initialize`
 * plays an agent that takes long to start).
 */
import { CancellationTokenSource } from 'vscode-jsonrpc/node.js';
import { textOfParts } from '../../src/client/lm-client.js';
import { startingAgentOf, startingNotice } from '../../src/protocol/starting-notice.js';
import { ProtocolErrorCodes } from '../../src/protocol/errors.js';
import type { AgentDefinition, ResponsePart } from '../../src/protocol/messages.js';
import { AgentBridge, SCRIPTED_AGENT, rejection, replied, sleep, user } from './agent-bridge.js';

const agent = (flags: string[] = []): AgentDefinition => ({ mcp_server: { name: 'Slow agent', command: process.execPath, args: [SCRIPTED_AGENT, ...flags], env: [] } });

let bridge: AgentBridge;
afterEach(async () => bridge.close());

test('an agent slow to start: the notice comes first, then the start-up error', async () => {
  bridge = new AgentBridge(['--start-notice-ms', '200', '--agent-timeout-ms', '3000']);
  const parts: ResponsePart[] = [];
  const done = bridge.client.provideChatResponse({ modelId: 'm', messages: [user('say hi')], agent: agent(['--hang-on', 'initialize']), options: {} }, (p) => parts.push(p));
  const error = await rejection(done);
  expect(error.code).toBe(ProtocolErrorCodes.AgentFailed);
  expect(error.message).toMatch(/did not answer initialize within 3 s/);
  expect(parts).toEqual([{ type: 'text', value: '*Starting Slow agent…*\n\n' }]);
});

test('cancelling a request that waits for the start cancels it', async () => {
  bridge = new AgentBridge(['--start-notice-ms', '100', '--agent-timeout-ms', '30000']);
  const parts: ResponsePart[] = [];
  const token = new CancellationTokenSource();
  const done = bridge.client.provideChatResponse({ modelId: 'm', messages: [user('say hi')], agent: agent(['--hang-on', 'initialize']), options: {} }, (p) => parts.push(p), token.token);
  for (let waited = 0; parts.length === 0 && waited < 10_000; waited += 50) await sleep(50);
  expect(parts).toHaveLength(1);
  token.cancel();
  expect((await rejection(done)).code).toBe(ProtocolErrorCodes.RequestCancelled);
  token.dispose();
});

test('an agent that is running: no notice, whatever its first answer takes', async () => {
  bridge = new AgentBridge(['--start-notice-ms', '0']);
  const first = [user('say one')];
  // The first request starts the agent: with a due time of 0 it is announced.
  const started = await bridge.chat(first, agent());
  expect(textOfParts(started)).toBe('*Starting Slow agent…*\n\none');
  const next = await bridge.chat([...first, replied(started), user('say two')], agent());
  expect(textOfParts(next)).toBe('two');
});

test('agents run through npx are said to download on their first start', () => {
  expect(startingNotice('Claude Code', 'npx')).toBe('*Starting Claude Code… Its first start downloads it, which can take a minute.*\n\n');
  expect(startingNotice('Claude Code', 'C:\\Program Files\\nodejs\\npx.cmd')).toMatch(/downloads it/);
  expect(startingNotice('Goose', 'goose')).toBe('*Starting Goose…*\n\n');
  // The extension recognises it (to show a progress notification) and nothing else.
  expect(startingAgentOf(startingNotice('Claude Code', 'npx'))).toBe('Claude Code');
  expect(startingAgentOf('*Starting the engine…* said the agent')).toBeUndefined();
  expect(startingAgentOf('Starting Goose…')).toBeUndefined();
});
