/** The sign-in flow of `src/extension/keys/sign-in.ts`: a terminal method runs the agent itself; others are ACP `authenticate`. */
import type { AgentDefinition, AuthenticateParams, SignInMethod } from '../../src/protocol/messages.js';
import { SET_API_KEY, signIn, signInSentence, type SignInTarget, type SignInUi } from '../../src/extension/keys/sign-in.js';

const definition: AgentDefinition = { mcp_server: { name: 'Agent', command: 'npx', args: ['agent'], env: [{ name: 'K', value: 'v' }] } };
const target: SignInTarget = { setting: { id: 'a', name: 'Agent', command: 'npx', args: ['agent'], env: { K: 'v' } }, definition };
const terminal: SignInMethod = { id: 'login', name: 'Log in', terminal: { args: ['--login'], env: { MODE: 'tui' } } };
const oauth: SignInMethod = { id: 'oauth', name: 'Sign in with a browser' };

function fakeUi(choice: SignInMethod | typeof SET_API_KEY | undefined, exitCode?: number, keyStored = true) {
  const did: string[] = [];
  const ui: SignInUi = {
    choose: async (agentName, methods) => {
      did.push(`choose for ${agentName}: ${methods.map((m) => m.name).join(', ')}`);
      return choice;
    },
    setApiKey: async (agentId) => {
      did.push(`set API key of ${agentId}`);
      return keyStored;
    },
    runInTerminal: async (title, command, args, env) => {
      did.push(`terminal "${title}": ${command} ${args.join(' ')} ${JSON.stringify(env)}`);
      return exitCode;
    },
    error: (message) => void did.push(`error ${message}`),
  };
  return { ui, did };
}

function recorder(fail?: string) {
  const calls: AuthenticateParams[] = [];
  const authenticate = async (params: AuthenticateParams) => {
    calls.push(params);
    if (fail !== undefined) throw new Error(fail);
  };
  return { calls, authenticate };
}

test('a terminal method runs the agent\'s own command with the method\'s args and env; exit 0 is signed in', async () => {
  const { ui, did } = fakeUi(terminal, 0);
  const { calls, authenticate } = recorder();
  expect(await signIn(ui, authenticate, target, [terminal, oauth])).toBe(true);
  expect(did).toEqual(['choose for Agent: Log in, Sign in with a browser', 'terminal "Sign in: Agent": npx agent --login {"K":"v","MODE":"tui"}']);
  expect(calls).toEqual([]);
});

test('a terminal sign-in that fails says so and is not retried', async () => {
  const { ui, did } = fakeUi(terminal, 1);
  expect(await signIn(ui, recorder().authenticate, target, [terminal])).toBe(false);
  expect(did.at(-1)).toBe('error Agent: the sign-in "Log in" ended with exit code 1; the agent is not signed in.');
});

test('another method is ACP authenticate through the bridge, with the agent\'s definition', async () => {
  const { ui } = fakeUi(oauth);
  const { calls, authenticate } = recorder();
  expect(await signIn(ui, authenticate, target, [terminal, oauth])).toBe(true);
  expect(calls).toEqual([{ agent: definition, methodId: 'oauth' }]);
});

test('authenticate failing says why; declining does nothing', async () => {
  const failing = fakeUi(oauth);
  expect(await signIn(failing.ui, recorder('Agent "Agent" could not sign in').authenticate, target, [oauth])).toBe(false);
  expect(failing.did.at(-1)).toBe('error Agent: the sign-in "Sign in with a browser" failed: Agent "Agent" could not sign in');
  const declined = fakeUi(undefined);
  const { calls, authenticate } = recorder();
  expect(await signIn(declined.ui, authenticate, target, [oauth])).toBe(false);
  expect(calls).toEqual([]);
  expect(declined.did).toHaveLength(1);
});

test('Set API Key runs the key command for the agent: signed in once it stored a key, never through authenticate', async () => {
  const stored = fakeUi(SET_API_KEY);
  const { calls, authenticate } = recorder();
  expect(await signIn(stored.ui, authenticate, target, [terminal, oauth])).toBe(true);
  expect(stored.did).toEqual(['choose for Agent: Log in, Sign in with a browser', 'set API key of a']);
  const cancelled = fakeUi(SET_API_KEY, undefined, false);
  expect(await signIn(cancelled.ui, authenticate, target, [oauth])).toBe(false);
  expect(calls).toEqual([]);
});

test('the answer of an agent not signed in says what to do, in one sentence', () => {
  expect(signInSentence('Claude Code', [{ id: 'claude-login', name: 'Claude Subscription' }])).toBe(
    'Claude Code needs you to sign in: set its API key with "Symposium: Set Agent API Key" or sign in with "Claude Subscription", then send your message again.',
  );
  expect(signInSentence('Scripted', [])).toBe('Scripted needs you to sign in: set its API key with "Symposium: Set Agent API Key", then send your message again.');
});
