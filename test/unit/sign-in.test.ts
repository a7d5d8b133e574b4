/** The sign-in flow of `src/extension/keys/sign-in.ts`: a terminal method runs the agent itself; others are ACP `authenticate`. */
import type { AgentDefinition, AuthenticateParams, SignInMethod } from '../../src/protocol/messages.js';
import { SET_API_KEY, notSignedInSentence, signIn, signInNeeded, type SignInTarget, type SignInUi } from '../../src/extension/keys/sign-in.js';

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
    info: (message) => void did.push(`info ${message}`),
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

test('the answer of an agent not signed in says so and every way to sign it in, from its catalogue entry', () => {
  const claude = { name: 'Claude Code', signIn: { keyNames: ['ANTHROPIC_API_KEY'], ownSignIn: 'run `claude` in a terminal, then `/login`' } };
  const methods = [
    { id: 'claude-ai-login', name: 'Claude Subscription' },
    { id: 'console-login', name: 'Anthropic Console' },
  ];
  expect(notSignedInSentence(claude, methods)).toBe(
    'Claude Code is not signed in. Set ANTHROPIC_API_KEY with "Symposium: Set Agent API Key", sign in with "Claude Subscription" or "Anthropic Console", or run `claude` in a terminal, then `/login`. Then send your message again.',
  );
  expect(notSignedInSentence({ name: 'Codex', signIn: { keyNames: ['CODEX_API_KEY', 'OPENAI_API_KEY'] } }, [])).toBe(
    'Codex is not signed in. Set CODEX_API_KEY or OPENAI_API_KEY with "Symposium: Set Agent API Key". Then send your message again.',
  );
  expect(notSignedInSentence({ name: 'Scripted' }, [])).toBe('Scripted is not signed in. Set its API key with "Symposium: Set Agent API Key". Then send your message again.');
});

describe('a request whose agent needs a sign-in (issue 60)', () => {
  test('ends at once, saying what to do, while the sign-in waits for the person (the toast VS Code hides after 12 s)', async () => {
    const { ui, did } = fakeUi(undefined);
    const unanswered: SignInUi = { ...ui, choose: async (agentName, methods) => (did.push(`choose for ${agentName}: ${methods.map((m) => m.name).join(', ')}`), new Promise(() => undefined)) };
    const error = signInNeeded(unanswered, recorder().authenticate, target, [oauth]);
    expect(error.message).toBe('Agent is not signed in. Set its API key with "Symposium: Set Agent API Key", or sign in with "Sign in with a browser". Then send your message again.');
    // The sign-in is offered beside the answer.
    expect(did).toEqual(['choose for Agent: Sign in with a browser']);
  });

  test('signed in from the notification, the person is told to send the message again; declined, nothing more', async () => {
    const signed = fakeUi(oauth);
    signInNeeded(signed.ui, recorder().authenticate, target, [oauth]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(signed.did.at(-1)).toBe('info Agent is signed in: send your message again.');
    const declined = fakeUi(undefined);
    signInNeeded(declined.ui, recorder().authenticate, target, [oauth]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(declined.did).toEqual(['choose for Agent: Sign in with a browser']);
  });
});
