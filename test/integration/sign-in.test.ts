/**
 * Sign-in (issue 15): an agent that answers `auth_required` makes the bridge report `signIn.needed` with the
 * agent's methods (symposium/agentInfo) before the request fails; `symposium/authenticate` runs ACP
 * `authenticate`, reports the sign-in done, and the next request answers. Against the built bridge and the
 * scripted agent with `--auth-required` (methods `api-key` and `oauth`).
 */
import { textOfParts } from '../../src/client/lm-client.js';
import { ProtocolErrorCodes } from '../../src/protocol/errors.js';
import type { AgentDefinition, AgentInfoParams } from '../../src/protocol/messages.js';
import { AgentBridge, SCRIPTED_AGENT, rejection, user } from './agent-bridge.js';

const agent: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, '--auth-required'], env: [] } };

let bridge: AgentBridge;
afterEach(async () => bridge.close());

test('auth_required: the sign-in methods are reported, authenticate signs in, the retried request answers', async () => {
  bridge = new AgentBridge();
  const infos: AgentInfoParams[] = [];
  bridge.client.onAgentInfo((params) => infos.push(params));

  const error = await rejection(bridge.chat([user('say hi')], agent));
  expect(error.code).toBe(ProtocolErrorCodes.AgentFailed);
  expect(error.message).toMatch(/needs authentication \(API key, Sign in\)/);
  // Reported before the request failed: the extension knows why when the error reaches it.
  expect(infos.at(-1)).toEqual({ agent, info: { imageInput: false, signIn: { needed: true, methods: [{ id: 'api-key', name: 'API key' }, { id: 'oauth', name: 'Sign in' }] } } });

  await bridge.client.authenticate({ agent, methodId: 'oauth' });
  expect(infos.at(-1)?.info.signIn).toEqual({ needed: false, methods: [{ id: 'api-key', name: 'API key' }, { id: 'oauth', name: 'Sign in' }] });
  expect(await bridge.logged(/authenticated with oauth/)).toMatch(/scripted-agent: authenticated with oauth/);

  expect(textOfParts(await bridge.chat([user('say hi')], agent))).toBe('hi');
});

test('authenticate with a method the agent does not offer fails naming it; with no agent running it starts one', async () => {
  bridge = new AgentBridge();
  const error = await rejection(bridge.client.authenticate({ agent, methodId: 'password' }));
  expect(error.code).toBe(ProtocolErrorCodes.AgentFailed);
  expect(error.message).toBe('Agent "scripted" offers no sign-in method "password".');
  const invalid = await rejection(bridge.client.authenticate({ agent, methodId: 7 } as unknown as { agent: AgentDefinition; methodId: string }));
  expect(invalid.code).toBe(ProtocolErrorCodes.InvalidParams);
  expect(invalid.message).toMatch(/params\.methodId/);
});

test('an agent that never needed a sign-in reports none', async () => {
  bridge = new AgentBridge();
  const infos: AgentInfoParams[] = [];
  bridge.client.onAgentInfo((params) => infos.push(params));
  const plain: AgentDefinition = { mcp_server: { ...agent.mcp_server, args: [SCRIPTED_AGENT] } };
  expect(textOfParts(await bridge.chat([user('say hi')], plain))).toBe('hi');
  expect(infos.every((p) => p.info.signIn === undefined)).toBe(true);
});

test('a prompt refused with auth_required (claude-agent-acp without its key) marks the agent as needing a sign-in; with the key it answers', async () => {
  bridge = new AgentBridge();
  const infos: AgentInfoParams[] = [];
  bridge.client.onAgentInfo((params) => infos.push(params));
  // session/new succeeds; the prompt is refused while SYMPOSIUM_TEST_KEY is not in the agent's environment.
  const needsKey: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, '--needs-env', 'SYMPOSIUM_TEST_KEY'], env: [] } };
  const error = await rejection(bridge.chat([user('say hi')], needsKey));
  expect(error.code).toBe(ProtocolErrorCodes.AgentFailed);
  expect(error.message).toBe('Agent "scripted" needs authentication. Sign in with the agent\'s own command line, then try again.');
  expect(infos.at(-1)).toEqual({ agent: needsKey, info: { imageInput: false, signIn: { needed: true, methods: [] } } });
  // The spare session that opens after the prompt says nothing of a sign-in: the agent still needs one.
  expect(await bridge.logged(/agent scripted: spare session \S+ is ready/)).toMatch(/agent scripted: spare session \S+ is ready/);
  expect(infos.filter((p) => JSON.stringify(p.agent) === JSON.stringify(needsKey)).at(-1)?.info.signIn?.needed).toBe(true);
  // The key, as the extension adds it to the definition: the bridge starts the agent afresh with it.
  const keyed: AgentDefinition = { mcp_server: { ...needsKey.mcp_server, env: [{ name: 'SYMPOSIUM_TEST_KEY', value: 'sk-test' }] } };
  expect(textOfParts(await bridge.chat([user('say hi')], keyed))).toBe('hi');
  expect(await bridge.logged(/prompt refused: SYMPOSIUM_TEST_KEY is not set/)).toBeTruthy();
});

test("an error plainly about authentication, or an answer that is only one, marks the agent as needing a sign-in", async () => {
  bridge = new AgentBridge();
  const infos: AgentInfoParams[] = [];
  bridge.client.onAgentInfo((params) => infos.push(params));
  const named = (name: string): AgentDefinition => ({ mcp_server: { name, command: process.execPath, args: [SCRIPTED_AGENT], env: [] } });

  // A model API's 401 passed on as an internal error (-32603).
  const failed = await rejection(bridge.chat([user('error 401 Unauthorized')], named('erring')));
  expect(failed.message).toBe('Agent "erring" needs authentication. Sign in with the agent\'s own command line, then try again.');
  expect(infos.at(-1)).toEqual({ agent: named('erring'), info: { imageInput: false, signIn: { needed: true, methods: [] } } });

  // An answer that is nothing but the failure (as Claude Code's CLI prints it).
  const answered = await rejection(bridge.chat([user('say Invalid API key · Please run /login')], named('saying')));
  expect(answered.message).toBe('Agent "saying" needs authentication. Sign in with the agent\'s own command line, then try again.');
  expect(infos.at(-1)).toEqual({ agent: named('saying'), info: { imageInput: false, signIn: { needed: true, methods: [] } } });

  // An answer that mentions a key is an answer.
  expect(textOfParts(await bridge.chat([user('say The API key is missing from config.ts')], named('saying')))).toBe('The API key is missing from config.ts');
});
