/** The "Manage Agents" command: its quick pick items and what choosing one does. */
import type { Env, ResolveContext } from '../../src/extension/agents/agent-catalog.js';
import type { CatalogEntry } from '../../src/extension/agents/registry.js';
import { addedMessage, manageAgents, manageItems, type ManageAction, type ManageAgentsUi, type ManageItem } from '../../src/extension/agents/manage-agents.js';

const catalog: CatalogEntry[] = [
  {
    id: 'npm-agent',
    name: 'Npm Agent',
    description: 'An agent from npm',
    distribution: { kind: 'npx', package: '@scope/npm-agent', version: '1.0.0', bin: 'npm-agent', args: [] },
    auth: 'Set NPM_AGENT_KEY.',
  },
  {
    id: 'bin-agent',
    name: 'Bin Agent',
    description: 'An agent on PATH',
    distribution: { kind: 'binary', executable: 'bin-agent', args: ['acp'] },
    auth: 'Run `bin-agent login`.',
    install: 'get it from example.org',
  },
  {
    id: 'other',
    name: 'Other',
    description: 'Another agent on PATH',
    distribution: { kind: 'binary', executable: 'other', args: [] },
    auth: 'None.',
  },
];

function machine(...onPath: string[]): ResolveContext {
  return { which: (executable: string, _env: Env) => (onPath.includes(executable) ? `/bin/${executable}` : undefined), env: { PATH: '/bin' } };
}

const labels = (items: ManageItem[]) => items.map((i) => (i.kind === 'separator' ? `-- ${i.label}` : i.label));

describe('manageItems', () => {
  test('nothing configured: every built-in to add, then editing the setting', () => {
    const items = manageItems(undefined, machine('npx', 'other'), catalog);
    expect(labels(items)).toEqual(['-- Built-in agents', '$(add) Add Npm Agent', '$(add) Add Bin Agent', '$(add) Add Other', '-- ', '$(settings-gear) Edit symposium.agents in settings.json']);
    const [, npm, bin] = items;
    expect(npm).toEqual({ kind: 'item', label: '$(add) Add Npm Agent', description: 'npx @scope/npm-agent', detail: 'An agent from npm. Set NPM_AGENT_KEY.', action: { type: 'add', id: 'npm-agent' } });
    // A built-in that cannot run here is still offered, saying what is missing.
    expect(bin).toMatchObject({ description: 'bin-agent on PATH', detail: 'Not available here yet: `bin-agent` was not found on PATH: get it from example.org. Run `bin-agent login`.' });
    expect(items.at(-1)).toMatchObject({ action: { type: 'edit' } });
  });

  test('configured agents first with their state; configured built-ins are not offered again', () => {
    const raw = [{ id: 'npm-agent' }, { id: 'bin-agent' }, { id: 'mine', name: 'Mine', command: 'my-agent', args: ['--acp'] }];
    const items = manageItems(raw, machine('npx'), catalog);
    expect(labels(items)).toEqual([
      '-- Configured agents',
      '$(check) Npm Agent',
      '$(warning) Bin Agent',
      '$(warning) Mine',
      '-- Built-in agents',
      '$(add) Add Other',
      '-- ',
      "$(history) Continue an agent's session…",
      "$(key) Set an agent's API key",
      '$(settings-gear) Edit symposium.agents in settings.json',
    ]);
    expect(items.find((i) => i.label === "$(key) Set an agent's API key")).toMatchObject({ action: { type: 'setKey' } });
    expect(items.find((i) => i.label === "$(history) Continue an agent's session…")).toMatchObject({ action: { type: 'continue' } });
    expect(items[1]).toEqual({ kind: 'item', label: '$(check) Npm Agent', description: 'ready', detail: 'npx --yes --package=@scope/npm-agent@1.0.0 -- npm-agent', action: { type: 'edit' } });
    expect(items[2]).toMatchObject({ description: 'not available: `bin-agent` was not found on PATH: get it from example.org', detail: 'bin-agent acp' });
    expect(items[3]).toMatchObject({ description: '`my-agent` not found on PATH', detail: 'my-agent --acp' });
  });

  test('a full entry with the id of a built-in replaces it, and says so', () => {
    const items = manageItems([{ id: 'bin-agent', name: 'My Bin', command: '/opt/bin-agent' }], { which: (e) => (e === '/opt/bin-agent' ? e : undefined), env: {} }, catalog);
    expect(labels(items)).toContain('$(check) My Bin');
    expect(labels(items)).not.toContain('$(add) Add Bin Agent');
    expect(items.find((i) => i.label === '$(check) My Bin')).toMatchObject({ description: 'ready (your command replaces the built-in)' });
  });

  test('entries that are skipped are listed with the reason', () => {
    const items = manageItems([{ id: 'nope' }, { id: 'other' }], machine('other'), catalog);
    expect(labels(items).slice(0, 3)).toEqual(['-- Configured agents', '$(check) Other', '$(error) An entry is skipped']);
    expect(items[2]).toMatchObject({ description: 'symposium.agents[0]: invalid command (or an id of a built-in agent: npm-agent, bin-agent, other): skipped', action: { type: 'edit' } });
  });
});

/** A fake VS Code: records what the command did; `choose` picks from the offered items. */
function fakeUi(options: { agents?: unknown; userAgents?: unknown; choose: (items: readonly ManageItem[]) => ManageAction | undefined; enabled?: boolean; failUpdate?: boolean }) {
  const did: string[] = [];
  let userAgents = options.userAgents;
  const ui: ManageAgentsUi = {
    pick: async (items) => options.choose(items),
    agents: () => options.agents ?? userAgents,
    userAgents: () => userAgents,
    setUserAgents: async (value) => {
      if (options.failUpdate === true) throw new Error('settings.json has errors');
      userAgents = value;
      did.push(`update ${JSON.stringify(value)}`);
    },
    openSettingsJson: async () => void did.push('open settings.json'),
    setApiKey: async () => void did.push('set an API key'),
    continueSession: async () => void did.push('continue a session'),
    prefetch: (entry, command) => void did.push(`prefetch ${entry.id}: ${command.command} ${command.args.join(' ')}`),
    download: (entry, download) => void did.push(`download ${entry.id}: ${download.url} into ${download.dir}`),
    modelsEnabled: () => options.enabled ?? true,
    info: (message) => void did.push(`info ${message}`),
    error: (message) => void did.push(`error ${message}`),
  };
  return { ui, did, userAgents: () => userAgents };
}

const chooseAdd = (id: string) => (items: readonly ManageItem[]) => {
  const item = items.find((i) => i.kind === 'item' && i.action.type === 'add' && i.action.id === id);
  if (item === undefined || item.kind !== 'item') throw new Error(`no item adds ${id}`);
  return item.action;
};

describe('manageAgents', () => {
  test("continuing an agent's session runs Symposium: Continue Agent Session…", async () => {
    const { ui, did } = fakeUi({ userAgents: [{ id: 'npm-agent' }], choose: (items) => items.flatMap((i) => (i.kind === 'item' && i.action.type === 'continue' ? [i.action] : []))[0] });
    await manageAgents(ui, machine('npx'), catalog);
    expect(did).toEqual(['continue a session']);
  });

  test('adding a built-in appends {id} to the user setting, keeping what was there', async () => {
    const mine = { id: 'mine', name: 'Mine', command: 'my-agent' };
    const { ui, did, userAgents } = fakeUi({ userAgents: [mine], choose: chooseAdd('npm-agent') });
    await manageAgents(ui, machine('npx'), catalog);
    expect(userAgents()).toEqual([mine, { id: 'npm-agent' }]);
    expect(did).toEqual([
      `update ${JSON.stringify([mine, { id: 'npm-agent' }])}`,
      'info Added Npm Agent to symposium.agents: the model "Npm Agent" (symposium-agent-npm-agent) is in the model picker. Set NPM_AGENT_KEY.',
      // Fetched now, so that its first start does not wait for the download.
      'prefetch npm-agent: npx --yes --package=@scope/npm-agent@1.0.0 -- node -e ',
    ]);
  });

  test('an agent that cannot run here yet, or is no npm package, is not fetched', async () => {
    const noNpx = fakeUi({ userAgents: [], choose: chooseAdd('npm-agent') });
    await manageAgents(noNpx.ui, machine(), catalog);
    expect(noNpx.did.filter((d) => d.startsWith('prefetch'))).toEqual([]);
    const binary = fakeUi({ userAgents: [], choose: chooseAdd('bin-agent') });
    await manageAgents(binary.ui, machine('bin-agent'), catalog);
    expect(binary.did.filter((d) => d.startsWith('prefetch'))).toEqual([]);
  });

  test('an agent the registry distributes as a download is downloaded when added, into its storage folder', async () => {
    const packed: CatalogEntry = { id: 'packed', name: 'Packed', description: 'A download', distribution: { kind: 'archive', url: 'https://example.org/packed.tar.gz', cmd: './packed', args: [], version: '2.0.0' }, auth: 'None.' };
    const { ui, did } = fakeUi({ userAgents: [], choose: chooseAdd('packed') });
    await manageAgents(ui, { ...machine(), archiveDir: (entry) => `/storage/agents/${entry.id}/${entry.distribution.version ?? ''}` }, [...catalog, packed]);
    expect(did.filter((d) => d.startsWith('download') || d.startsWith('prefetch'))).toEqual(['download packed: https://example.org/packed.tar.gz into /storage/agents/packed/2.0.0']);
    // Without a storage folder (no VS Code), it is not offered to run: nothing to download.
    const nowhere = fakeUi({ userAgents: [], choose: chooseAdd('packed') });
    await manageAgents(nowhere.ui, machine(), [...catalog, packed]);
    expect(nowhere.did.filter((d) => d.startsWith('download'))).toEqual([]);
  });

  test('the first agent added to empty user settings', async () => {
    const { ui, userAgents } = fakeUi({ userAgents: undefined, choose: chooseAdd('other') });
    await manageAgents(ui, machine('other'), catalog);
    expect(userAgents()).toEqual([{ id: 'other' }]);
  });

  test('only the user settings change, not what a workspace adds', async () => {
    const { ui, userAgents } = fakeUi({ agents: [{ id: 'npm-agent' }], userAgents: [], choose: chooseAdd('other') });
    await manageAgents(ui, machine('other'), catalog);
    expect(userAgents()).toEqual([{ id: 'other' }]);
  });

  test('editing opens settings.json; dismissing does nothing', async () => {
    const edit = fakeUi({ choose: (items) => (items.at(-1) as Extract<ManageItem, { kind: 'item' }>).action });
    await manageAgents(edit.ui, machine(), catalog);
    expect(edit.did).toEqual(['open settings.json']);
    const dismissed = fakeUi({ userAgents: [], choose: () => undefined });
    await manageAgents(dismissed.ui, machine(), catalog);
    expect(dismissed.did).toEqual([]);
  });

  test('a user setting that is not an array is not overwritten', async () => {
    const { ui, did, userAgents } = fakeUi({ agents: [], userAgents: { id: 'x' }, choose: chooseAdd('other') });
    await manageAgents(ui, machine('other'), catalog);
    expect(userAgents()).toEqual({ id: 'x' });
    expect(did).toEqual(['error symposium.agents in your user settings is not an array: fix it in settings.json, then add Other again.', 'open settings.json']);
  });

  test('a failed update is reported', async () => {
    const { ui, did } = fakeUi({ userAgents: [], choose: chooseAdd('other'), failUpdate: true });
    await manageAgents(ui, machine('other'), catalog);
    expect(did).toEqual(['error Could not add Other to symposium.agents: settings.json has errors']);
  });
});

describe('addedMessage', () => {
  const [npm, bin] = catalog;
  test('says where the model is, what is missing, and how the agent signs in', () => {
    expect(addedMessage(bin!, machine(), true)).toBe('Added Bin Agent to symposium.agents, but it is not available yet: `bin-agent` was not found on PATH: get it from example.org. Run `bin-agent login`.');
    expect(addedMessage(npm!, machine('npx'), false)).toBe('Added Npm Agent to symposium.agents. Turn on symposium.enableExperimentalLM to offer it as a model. Set NPM_AGENT_KEY.');
  });
});
