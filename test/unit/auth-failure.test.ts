/** What counts as an agent saying it needs a sign-in (`src/agents/acp/answers/auth-failure.ts`), wherever it says it. */
import * as acp from '@agentclientprotocol/sdk';
import { AuthFailureAnswer, isAuthFailure, isAuthFailureText } from '../../src/agents/acp/answers/auth-failure.js';
import { signedInOf } from '../../src/agents/acp/process/agent-process.js';

test("ACP's auth_required, from any method, is a sign-in needed", () => {
  // claude-agent-acp 0.100 refuses a prompt without a key so; Gemini CLI refuses session/new so.
  expect(isAuthFailure(acp.RequestError.authRequired())).toBe(true);
  expect(isAuthFailure(new acp.RequestError(-32000, 'Authentication required'))).toBe(true);
});

test("an error whose data offers sign-in methods (Qwen Code's) or whose words are plainly an auth failure is one", () => {
  expect(isAuthFailure(new acp.RequestError(-32603, 'Internal error', { authMethods: [{ id: 'openai', name: 'OpenAI' }] }))).toBe(true);
  expect(isAuthFailure(acp.RequestError.internalError(undefined, '401 Unauthorized'))).toBe(true);
  expect(isAuthFailure(acp.RequestError.internalError({ details: 'API key not valid. Please pass a valid API key.' }))).toBe(true);
  expect(isAuthFailure(acp.RequestError.internalError(undefined, 'Invalid API key · Please run /login'))).toBe(true);
  // OpenCode passes on the words of an OpenAI-compatible API's 401 to a request without a key (issue 60).
  expect(isAuthFailure(new acp.RequestError(-32603, "Internal error: You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth."))).toBe(true);
});

test('other failures are not', () => {
  expect(isAuthFailure(acp.RequestError.internalError(undefined, 'model overloaded'))).toBe(false);
  expect(isAuthFailure(acp.RequestError.invalidParams({ sessionId: 'x' }))).toBe(false);
  expect(isAuthFailure(new Error('Authentication required'))).toBe(false);
  expect(isAuthFailure(acp.RequestError.internalError(undefined, 'error 4011 in the build'))).toBe(false);
});

test('a whole answer is an auth failure only when it is short and begins as one', () => {
  expect(isAuthFailureText('Invalid API key · Please run /login')).toBe(true);
  expect(isAuthFailureText('API Error: 401 {"type":"error","error":{"type":"authentication_error"}}')).toBe(true);
  expect(isAuthFailureText('  Not logged in · Please run /login\n')).toBe(true);
  expect(isAuthFailureText('Your .env has no API key set for the mailer; add MAILER_KEY.')).toBe(false);
  expect(isAuthFailureText('The API key is missing from config.ts, so the client fails.')).toBe(false);
  expect(isAuthFailureText(`Invalid API key ${'x'.repeat(400)}`)).toBe(false);
  expect(isAuthFailureText('')).toBe(false);
});

test("a prompt's answer is only an auth failure while nothing but such text came", () => {
  const chunk = (text: string): acp.SessionUpdate => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
  const failed = new AuthFailureAnswer();
  failed.hear(chunk('Invalid API key'));
  failed.hear(chunk(' · Please run /login'));
  expect(failed.isAuthFailure).toBe(true);

  const acted = new AuthFailureAnswer();
  acted.hear({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'ls' });
  acted.hear(chunk('Invalid API key'));
  expect(acted.isAuthFailure).toBe(false);

  const long = new AuthFailureAnswer();
  long.hear(chunk('Invalid API key'));
  long.hear(chunk(' and more'.repeat(50)));
  expect(long.isAuthFailure).toBe(false);
});

test("claude-agent-acp's own report of its sign-in (_auth/status_update): kind none is not signed in (issue 60)", () => {
  expect(signedInOf({ authStatus: { kind: 'none', label: 'Not logged in' } })).toBe(false);
  expect(signedInOf({ authStatus: { kind: 'api_key', label: 'API key', detail: 'ANTHROPIC_API_KEY' } })).toBe(true);
  expect(signedInOf({ authStatus: {} })).toBeUndefined();
  expect(signedInOf(null)).toBeUndefined();
});
