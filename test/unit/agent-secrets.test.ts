/**
 * API keys in VS Code's SecretStorage (`src/extension/keys/agent-secrets.ts`, `api-key-command.ts`): stored per
 * agent and variable, added to the agent's environment, and nowhere else: not in settings, the log, the
 * state dir, or any process's argv. The last test runs the extension's BridgeProcess with the built bridge
 * and a real agent process.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AgentSecrets, secretKey, secretLookingNames, withSecrets, type SecretStore } from '../../src/extension/keys/agent-secrets.js';
import { keyedAgents, setAgentApiKey, type ApiKeyChoice, type ApiKeyUi } from '../../src/extension/keys/api-key-command.js';
import { secretPersistence, type MarkStore } from '../../src/extension/keys/secret-persistence.js';
import { SharedSecrets } from '../../src/extension/keys/shared-secrets.js';
import { BridgeProcess } from '../../src/extension/provider/bridge-process.js';
import { manageAgents, type ManageAgentsUi } from '../../src/extension/agents/manage-agents.js';
import { agentsOfSettings, modelsOf, type AgentSetting } from '../../src/extension/agents/models.js';
import { textOfParts } from '../../src/client/lm-client.js';
import type { ResponsePart } from '../../src/protocol/messages.js';
import { CLI } from '../integration/agent-bridge.js';

const SECRET = `sk-test-${Math.random().toString(36).slice(2)}-secret`;

/** VS Code's SecretStorage, in memory. */
function memoryStore(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  const store: SecretStore = {
    keys: async () => [...values.keys()],
    get: async (key) => values.get(key),
    store: async (key, value) => void values.set(key, value),
    delete: async (key) => void values.delete(key),
  };
  return { store, values };
}

/** A UI that answers from a script and records what it was shown. */
function scriptedUi(answers: { pick?: (title: string, items: readonly ApiKeyChoice[]) => ApiKeyChoice | undefined; name?: string; secret?: string }) {
  const shown: string[] = [];
  const ui: ApiKeyUi = {
    pick: async (title, placeHolder, items) => {
      shown.push(`pick ${title} | ${placeHolder} | ${items.map((i) => `${i.label} (${i.description ?? ''})`).join('; ')}`);
      return answers.pick?.(title, items);
    },
    askName: async (validate) => {
      shown.push(`name? ${validate('1BAD') ?? 'ok'}`);
      return answers.name;
    },
    askSecret: async (prompt) => {
      shown.push(`secret? ${prompt}`);
      return answers.secret;
    },
    info: (message) => void shown.push(`info ${message}`),
    error: (message) => void shown.push(`error ${message}`),
  };
  return { ui, shown };
}

const byLabel = (label: string) => (_title: string, items: readonly ApiKeyChoice[]) => items.find((i) => i.label === label);

describe('AgentSecrets', () => {
  test('one secret per agent and variable, read back after a reload; other keys are not ours', async () => {
    const { store, values } = memoryStore({ 'other.extension/key': 'x', 'symposium.agentEnv/bad': 'y' });
    const secrets = new AgentSecrets(store);
    await secrets.set('claude-code', 'ANTHROPIC_API_KEY', SECRET);
    expect(values.get(secretKey('claude-code', 'ANTHROPIC_API_KEY'))).toBe(SECRET);
    const reloaded = new AgentSecrets(store);
    await reloaded.load();
    expect(reloaded.envOf('claude-code')).toEqual({ ANTHROPIC_API_KEY: SECRET });
    expect(reloaded.namesOf('claude-code')).toEqual(['ANTHROPIC_API_KEY']);
    expect(reloaded.envOf('codex')).toEqual({});
    await reloaded.remove('claude-code', 'ANTHROPIC_API_KEY');
    expect(values.has(secretKey('claude-code', 'ANTHROPIC_API_KEY'))).toBe(false);
    expect(reloaded.envOf('claude-code')).toEqual({});
  });

  test('refuses a name that is no environment variable', async () => {
    await expect(new AgentSecrets(memoryStore().store).set('a', 'NOT-A-NAME', 'v')).rejects.toThrow(/not an environment variable name/);
  });

  test("withSecrets adds an agent's secrets to its env, over the same name in settings", () => {
    const agents: AgentSetting[] = [
      { id: 'a', name: 'A', command: 'a', args: [], env: { ANTHROPIC_API_KEY: 'from-settings', OTHER: '1' } },
      { id: 'b', name: 'B', command: 'b', args: [], env: {} },
    ];
    const env = (id: string): Record<string, string> => (id === 'a' ? { ANTHROPIC_API_KEY: SECRET } : {});
    expect(withSecrets(agents, env).map((a) => a.env)).toEqual([{ ANTHROPIC_API_KEY: SECRET, OTHER: '1' }, {}]);
  });

  test('variables in settings that look like secrets are named for a warning', () => {
    expect(secretLookingNames({ OPENAI_API_KEY: 'x', GH_TOKEN: 'y', DB_PASSWORD: 'z', NODE_OPTIONS: '', DEBUG: '1' })).toEqual(['OPENAI_API_KEY', 'GH_TOKEN', 'DB_PASSWORD']);
  });
});

describe('the command Set Agent API Key', () => {
  const settings = [{ id: 'claude-code' }, { id: 'mine', name: 'Mine', command: 'my-agent' }];

  test('agents from settings, with the variables their catalogue entry reads', () => {
    expect(keyedAgents(settings)).toEqual([
      { id: 'claude-code', name: 'Claude Code', keyNames: ['ANTHROPIC_API_KEY'] },
      { id: 'mine', name: 'Mine', keyNames: [] },
    ]);
  });

  test('picks the agent and the suggested variable, stores the typed value; no message holds the value', async () => {
    const { store, values } = memoryStore();
    const secrets = new AgentSecrets(store);
    const { ui, shown } = scriptedUi({ pick: (title, items) => (title.startsWith('Symposium') ? items[0] : items.find((i) => i.label === 'ANTHROPIC_API_KEY')), secret: SECRET });
    await setAgentApiKey(ui, keyedAgents(settings), secrets);
    expect(values.get('symposium.agentEnv/claude-code/ANTHROPIC_API_KEY')).toBe(SECRET);
    expect(shown[1]).toContain('ANTHROPIC_API_KEY (not set)');
    expect(shown.at(-1)).toBe("info ANTHROPIC_API_KEY of Claude Code is in VS Code's secret storage: the agent gets it from its next request.");
    expect(shown.join('\n')).not.toContain(SECRET);
  });

  test('another variable, by name; an empty value removes a stored one; cancelling changes nothing', async () => {
    const { store, values } = memoryStore();
    const secrets = new AgentSecrets(store);
    const agents = keyedAgents(settings);
    await setAgentApiKey(scriptedUi({ pick: byLabel('$(add) Another environment variable…'), name: 'MINE_KEY', secret: SECRET }).ui, agents, secrets, 'mine');
    expect(secrets.envOf('mine')).toEqual({ MINE_KEY: SECRET });
    const removal = scriptedUi({ pick: byLabel('MINE_KEY'), secret: '' });
    await setAgentApiKey(removal.ui, agents, secrets, 'mine');
    expect(removal.shown[0]).toContain('MINE_KEY (set (change or remove it))');
    expect(removal.shown.at(-1)).toBe("info Removed MINE_KEY of Mine from VS Code's secret storage.");
    expect(values.size).toBe(0);
    await setAgentApiKey(scriptedUi({ pick: byLabel('ANTHROPIC_API_KEY'), secret: undefined }).ui, agents, secrets, 'claude-code');
    expect(values.size).toBe(0);
  });

  test('where VS Code keeps secrets for this window only, the confirmation says so (issue 60)', async () => {
    const secrets = new AgentSecrets(memoryStore().store);
    const { ui, shown } = scriptedUi({ pick: byLabel('ANTHROPIC_API_KEY'), secret: SECRET });
    await setAgentApiKey(ui, keyedAgents(settings), secrets, 'claude-code', 'window');
    expect(shown.at(-1)).toBe(
      "info ANTHROPIC_API_KEY of Claude Code is in VS Code's secret storage: the agent gets it from its next request. This VS Code keeps secrets for this window only (it has no encryption service): another window, or this one after a reload, does not have it.",
    );
    expect(shown.join('\n')).not.toContain(SECRET);
  });

  test("with the person's agent host, the confirmation says the host keeps the key for every window while it runs", async () => {
    const secrets = new AgentSecrets(memoryStore().store);
    const { ui, shown } = scriptedUi({ pick: byLabel('ANTHROPIC_API_KEY'), secret: SECRET });
    await setAgentApiKey(ui, keyedAgents(settings), secrets, 'claude-code', 'unknown-web', true);
    expect(shown.at(-1)).toBe(
      "info ANTHROPIC_API_KEY of Claude Code is in VS Code's secret storage: the agent gets it from its next request. This VS Code may keep secrets for this window only (VS Code for the web without an encryption service): your agent host gives the key to your agents in every window while it runs; once it has ended (after your last window closed), set it again.",
    );
  });

  test('with no agent configured it says how to add one', async () => {
    const { ui, shown } = scriptedUi({});
    await setAgentApiKey(ui, [], new AgentSecrets(memoryStore().store));
    expect(shown).toEqual(['info No agent is configured yet: add one with "Symposium: Manage Agents", then set its API key.']);
  });

  test('Manage Agents offers it and never writes a key to settings', async () => {
    const did: string[] = [];
    const ui: ManageAgentsUi = {
      pick: async (items) => items.flatMap((i) => (i.kind === 'item' && i.action.type === 'setKey' ? [i.action] : []))[0],
      agents: () => settings,
      userAgents: () => settings,
      setUserAgents: async (value) => void did.push(`settings ${JSON.stringify(value)}`),
      openSettingsJson: async () => void did.push('open settings.json'),
      setApiKey: async () => void did.push('set an API key'),
      continueSession: async () => {},
      prefetch: () => void did.push('prefetch'),
      download: () => void did.push('download'),
      modelsEnabled: () => true,
      info: (message) => void did.push(`info ${message}`),
      error: (message) => void did.push(`error ${message}`),
    };
    await manageAgents(ui, { which: () => '/bin/npx', env: {} });
    expect(did).toEqual(['set an API key']);
  });
});

describe('a stored key on its way to the agent (the extension\'s BridgeProcess, the built bridge, a real agent process)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'agent-secrets-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('the agent gets it in its environment; the log (trace), the state dir and every argv never hold it', async () => {
    const secrets = new AgentSecrets(memoryStore().store);
    await secrets.set('reporter', 'MY_API_KEY', SECRET);
    const report = path.join(dir, 'env.json');
    const stateDir = path.join(dir, 'state');
    const raw = [
      {
        id: 'reporter',
        name: 'Reporter',
        command: process.execPath,
        args: [path.resolve('dist/test/fixtures/env-reporting-agent.js')],
        env: { SYMPOSIUM_TEST_REPORT_FILE: report, SYMPOSIUM_TEST_REPORT_VARS: 'MY_API_KEY', NODE_OPTIONS: '' },
      },
    ];
    const agents = withSecrets(agentsOfSettings(raw, { which: () => undefined, env: {} }).agents, (id) => secrets.envOf(id));
    const [, model] = modelsOf({ agents, elizaDeterministic: true });
    const logged: string[] = [];
    const note = (line: string): void => void logged.push(line);
    const extension = new BridgeProcess({
      bridgePath: CLI,
      launch: () => ({ cwd: process.cwd(), logLevel: 'trace', stateDir }),
      log: { error: note, warn: note, info: note, debug: note, trace: note, bridgeLine: note },
    });
    try {
      const parts: ResponsePart[] = [];
      await extension.provideChatResponse({ modelId: model!.model.id, messages: [{ role: 'user', content: [{ type: 'text', value: 'say hi' }] }], agent: model!.agent }, (p) => parts.push(p));
      expect(textOfParts(parts)).toBe('hi');
      expect(JSON.parse(readFileSync(report, 'utf8'))).toEqual({ MY_API_KEY: SECRET });
      // Every process's command line, the bridge's and the agent's among them.
      const commandLines = execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' });
      expect(commandLines).toContain('env-reporting-agent.js');
      expect(commandLines).not.toContain(SECRET);
    } finally {
      await extension.dispose();
    }
    expect(logged.join('\n')).toMatch(/agent Reporter/);
    expect(logged.join('\n')).not.toContain(SECRET);
    for (const file of readdirSync(stateDir, { recursive: true, encoding: 'utf8' })) {
      const at = path.join(stateDir, file);
      if (statSync(at).isFile()) expect(readFileSync(at, 'utf8')).not.toContain(SECRET);
    }
    expect(readdirSync(stateDir)).toContain('conversations.json');
  });

  test('a key set in one window reaches the agent of another window\'s request through the bridge that serves both (issue 60); no log holds it', async () => {
    const report = path.join(dir, 'env-shared.json');
    const raw = [{ id: 'reporter', name: 'Reporter', command: process.execPath, args: [path.resolve('dist/test/fixtures/env-reporting-agent.js')], env: { SYMPOSIUM_TEST_REPORT_FILE: report, SYMPOSIUM_TEST_REPORT_VARS: 'MY_API_KEY', NODE_OPTIONS: '' } }];
    const settings = agentsOfSettings(raw, { which: () => undefined, env: {} }).agents;
    // The first window's VS Code has the key; the second's (its secrets are its window's only) has none.
    const first = new AgentSecrets(memoryStore().store);
    await first.set('reporter', 'MY_API_KEY', SECRET);
    const [, keyed] = modelsOf({ agents: withSecrets(settings, (id) => first.envOf(id)), elizaDeterministic: true });
    const [, keyless] = modelsOf({ agents: settings, elizaDeterministic: true });
    const shared = new SharedSecrets();
    const told = shared.update([{ id: 'reporter', agent: keyed!.agent, names: first.namesOf('reporter') }]);
    expect(told.map((t) => [t.names, t.removed])).toEqual([[['MY_API_KEY'], []]]);
    const logged: string[] = [];
    const note = (line: string): void => void logged.push(line);
    const bridge = new BridgeProcess({ bridgePath: CLI, launch: () => ({ cwd: process.cwd(), logLevel: 'trace' }), log: { error: note, warn: note, info: note, debug: note, trace: note, bridgeLine: note }, secrets: () => shared.all() });
    try {
      const parts: ResponsePart[] = [];
      // The second window's request: its definition has no key; the bridge was told the first window's when it started.
      await bridge.provideChatResponse({ modelId: keyless!.model.id, messages: [{ role: 'user', content: [{ type: 'text', value: 'say hi' }] }], agent: keyless!.agent }, (p) => parts.push(p));
      expect(textOfParts(parts)).toBe('hi');
      expect(JSON.parse(readFileSync(report, 'utf8'))).toEqual({ MY_API_KEY: SECRET });
    } finally {
      await bridge.dispose();
    }
    expect(logged.join('\n')).toMatch(/agent Reporter/);
    expect(logged.join('\n')).not.toContain(SECRET);
    // Removed in the first window: told as removed, and nothing is held any more.
    expect(shared.update([{ id: 'reporter', agent: keyless!.agent, names: [] }]).map((t) => [t.names, t.removed])).toEqual([[[], ['MY_API_KEY']]]);
    expect(shared.all()).toEqual([]);
  });
});

describe('whether VS Code keeps secrets beyond this window (issue 60)', () => {
  /** The global state, which VS Code keeps on disk in every host. */
  const marks = (): MarkStore => {
    const values = new Map<string, unknown>();
    return { get: (key) => values.get(key), update: async (key, value) => void values.set(key, value) };
  };

  test('a later window that finds the probe secret: persisted; one that finds only the mark: this window only', async () => {
    const state = marks();
    const keychain = memoryStore();
    expect(await secretPersistence(keychain.store, state, false)).toBe('unknown');
    expect(await secretPersistence(keychain.store, state, false)).toBe('persisted');
    // code-server without an encryption service: each window's secrets are its own, the global state is shared.
    const web = marks();
    expect(await secretPersistence(memoryStore().store, web, true)).toBe('unknown-web');
    expect(await secretPersistence(memoryStore().store, web, true)).toBe('window');
  });
});
