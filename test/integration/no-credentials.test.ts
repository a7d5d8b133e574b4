/**
 * Agents without credentials (issue 60): each real agent of the catalogue, in an empty HOME, with no key and no
 * sign-in, its model API's base URL at a mock on 127.0.0.1, is sent a first message through the built bridge. Each
 * must end it within seconds saying it needs a sign-in (and report `signIn.needed` with its methods before the
 * request fails), with no request reaching a model API: never the spinner the person saw. Each request is bounded
 * (`BOUND_MS`), so a hang fails the test with the bridge's log rather than timing it out.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ProtocolErrorCodes } from '../../src/protocol/errors.js';
import type { AgentDefinition, AgentInfoParams } from '../../src/protocol/messages.js';
import { AnthropicMock } from '../fixtures/anthropic-mock.js';
import { INSTALL_TIMEOUT_MS } from '../fixtures/agent-install.js';
import { textReply } from '../fixtures/model-api-mock.js';
import { OpenAiChatMock, OpenAiResponsesMock } from '../fixtures/openai-mocks.js';
import { AgentBridge, rejection, user } from './agent-bridge.js';
import { definitionOf } from './catalog-agents.js';

/** SYMPOSIUM_CLAUDE_AGENT_ACP points at another build (the catalogue's next version, say). */
const CLAUDE_AGENT_ACP = path.resolve(process.env.SYMPOSIUM_CLAUDE_AGENT_ACP ?? 'node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js');
/** How long a first message may take before it counts as hanging: the agent's first start included, on a loaded machine (OpenCode's initialize took 15 s beside a real-host run). */
const BOUND_MS = 45_000;
const TEST_MS = BOUND_MS * 3;
/** What an OpenAI-compatible API answers a request without a key (401), word for word. */
const NO_KEY = "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).";

let root: string;
let home: string;
let workspace: string;
let bridge: AgentBridge | undefined;
const infos: AgentInfoParams[] = [];
const closing: (() => Promise<void>)[] = [];

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'no-credentials-')));
  home = path.join(root, 'home');
  workspace = path.join(root, 'workspace');
  mkdirSync(home);
  mkdirSync(workspace);
  infos.length = 0;
});

afterEach(async () => {
  await bridge?.close();
  bridge = undefined;
  for (const close of closing.splice(0)) await close();
  rmSync(root, { recursive: true, force: true });
});

function startBridge(): AgentBridge {
  bridge = new AgentBridge(['--cwd', workspace, '--agent-timeout-ms', String(BOUND_MS)]);
  bridge.client.onAgentInfo((params) => infos.push(params));
  return bridge;
}

/** The first message to `agent`, which must fail within BOUND_MS (a hang fails with the bridge's log). */
async function firstMessageFails(agent: AgentDefinition): Promise<{ code: number; message: string }> {
  const b = bridge ?? startBridge();
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the first message had no end within ${BOUND_MS} ms; the bridge's log ends with:\n${b.stderr().split('\n').slice(-30).join('\n')}`)), BOUND_MS);
  });
  try {
    return await Promise.race([rejection(b.chat([user('Hello, are you there?')], agent)), bound]);
  } finally {
    clearTimeout(timer);
  }
}

/** What the bridge last reported of `agent`'s sign-in. */
const signInOf = (agent: AgentDefinition) => infos.filter((p) => JSON.stringify(p.agent) === JSON.stringify(agent)).at(-1)?.info.signIn;

const env = (vars: Record<string, string>) => Object.entries(vars).map(([name, value]) => ({ name, value }));

describe('Claude Code (claude-agent-acp, the devDependency)', () => {
  let mock: AnthropicMock;
  let claude: AgentDefinition;

  beforeEach(async () => {
    mock = await AnthropicMock.start({ respond: () => textReply('Answered without a key?') });
    closing.push(() => mock.close());
    // The mock's environment without its key and without a config folder: HOME is empty.
    const vars = Object.fromEntries(mock.claudeEnv({ home, configDir: path.join(home, '.claude') }).map((v) => [v.name, v.value]));
    const { ANTHROPIC_API_KEY: _key, CLAUDE_CONFIG_DIR: _config, ...keyless } = vars;
    claude = { mcp_server: { name: 'Claude Code', command: process.execPath, args: [CLAUDE_AGENT_ACP], env: env(keyless) } };
  });

  test(
    'no key, no sign-in, an empty HOME: the first message is refused within seconds as needing a sign-in, naming its methods; no model request',
    async () => {
      const error = await firstMessageFails(claude);
      expect(error.code).toBe(ProtocolErrorCodes.AgentFailed);
      expect(error.message).toBe('Agent "Claude Code" needs authentication (Claude Subscription, Anthropic Console). Sign in with the agent\'s own command line, then try again.');
      expect(signInOf(claude)).toMatchObject({ needed: true, methods: [{ id: 'claude-ai-login' }, { id: 'console-login' }] });
      expect(mock.requests).toEqual([]);
    },
    TEST_MS,
  );

  test(
    'after its model was picked (the agent started ahead), its own report says it is not signed in before any message; the first message is refused the same',
    async () => {
      const b = startBridge();
      b.client.prepareAgent({ agent: claude });
      expect(await b.logged(/agent Claude Code takes in a prompt/, BOUND_MS)).toMatch(/agent Claude Code takes in a prompt/);
      // Before any message: its own report (`_auth/status_update`, "Not logged in") makes the picker say so.
      for (let waited = 0; waited < BOUND_MS && signInOf(claude)?.needed !== true; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(signInOf(claude)).toMatchObject({ needed: true, methods: [{ id: 'claude-ai-login' }, { id: 'console-login' }] });
      const error = await firstMessageFails(claude);
      expect(error.message).toMatch(/^Agent "Claude Code" needs authentication/);
      expect(signInOf(claude)?.needed).toBe(true);
      expect(mock.requests).toEqual([]);
    },
    TEST_MS,
  );
});

describe.each([
  {
    id: 'codex',
    bin: 'codex-acp',
    /** Its own sign-in state (CODEX_HOME) is empty: codex-acp refuses `session/new` with auth_required and its methods. */
    start: async () => {
      const mock = await OpenAiResponsesMock.start({ respond: () => textReply('Answered without a key?'), refuse: () => ({ status: 401, message: NO_KEY }) });
      mkdirSync(path.join(home, '.codex'));
      return { mock, vars: { HOME: home, CODEX_HOME: path.join(home, '.codex'), OPENAI_BASE_URL: `${mock.url}/v1` } };
    },
    methods: ['api-key', 'chat-gpt', 'chat-gpt-device-code'],
  },
  {
    id: 'gemini',
    bin: 'gemini',
    /**
     * No auth chosen and no key: Gemini CLI refuses `session/new` with auth_required. (Its base URL is not set: with
     * GOOGLE_GEMINI_BASE_URL it takes the gateway as its sign-in and asks the API without a key.)
     */
    start: async () => {
      const mock = await OpenAiChatMock.start({ respond: () => textReply('Answered without a key?'), refuse: () => ({ status: 401, message: NO_KEY }) });
      return { mock, vars: { HOME: home, GEMINI_CLI_NO_RELAUNCH: 'true' } };
    },
    methods: ['oauth-personal', 'gemini-api-key', 'vertex-ai', 'gateway'],
  },
  {
    id: 'qwen-code',
    bin: 'qwen',
    start: async () => {
      const mock = await OpenAiChatMock.start({ respond: () => textReply('Answered without a key?'), refuse: () => ({ status: 401, message: NO_KEY }) });
      return { mock, vars: { HOME: home, OPENAI_BASE_URL: `${mock.url}/v1` } };
    },
    methods: ['openai'],
  },
  {
    id: 'opencode',
    bin: 'opencode',
    /**
     * No provider signed in: OpenCode picks its own free models (OpenCode Zen), whose API is pointed at the mock here
     * (the `opencode` provider's baseURL), which answers as an API does without a key. No sign-in methods.
     */
    start: async () => {
      const mock = await OpenAiChatMock.start({ respond: () => textReply('Answered without a key?'), refuse: () => ({ status: 401, message: NO_KEY }) });
      const xdg = (dir: string) => path.join(home, dir);
      return {
        mock,
        vars: {
          HOME: home,
          XDG_CONFIG_HOME: xdg('.config'),
          XDG_DATA_HOME: xdg('.local/share'),
          XDG_CACHE_HOME: xdg('.cache'),
          XDG_STATE_HOME: xdg('.local/state'),
          OPENCODE_DISABLE_AUTOUPDATE: '1',
          OPENCODE_DISABLE_MODELS_FETCH: '1',
          OPENCODE_CONFIG_CONTENT: JSON.stringify({ autoupdate: false, share: 'disabled', provider: { opencode: { options: { baseURL: `${mock.url}/v1` } } } }),
        },
      };
    },
    methods: undefined,
  },
])('$id without credentials', ({ id, bin, start, methods }) => {
  test(
    'the first message is refused within seconds as needing a sign-in, and the agent is reported as needing one',
    async () => {
      const { mock, vars } = await start();
      closing.push(() => mock.close());
      const agent = await definitionOf(id, bin, vars);
      const error = await firstMessageFails(agent);
      expect(error.code).toBe(ProtocolErrorCodes.AgentFailed);
      expect(error.message).toMatch(/^Agent "[^"]+" needs authentication/);
      const signIn = signInOf(agent);
      expect(signIn?.needed).toBe(true);
      if (methods !== undefined) expect(signIn?.methods.map((m) => m.id)).toEqual(methods);
      // The agents with sign-in methods refuse before asking their API; OpenCode asks, and is refused.
      if (methods !== undefined) expect(mock.requests).toEqual([]);
      else expect(mock.requests.length).toBeGreaterThan(0);
    },
    INSTALL_TIMEOUT_MS + TEST_MS,
  );
});
