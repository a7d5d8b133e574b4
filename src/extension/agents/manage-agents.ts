/**
 * The command *Symposium: Manage Agents* (the provider's management command): a quick pick of the
 * configured agents with their state, the built-in agents not configured yet (choosing one adds `{id}` to
 * the user's `symposium.agents`), and a way to edit the setting by hand. The model list follows the
 * setting through the adapter's onDidChangeConfiguration handler.
 *
 * The items and the flow are plain functions over a small UI interface, for the tests; `runManageAgents`
 * binds them to the `vscode` API it is handed (only its types are imported here).
 */
import type { ArchiveDownload } from './archive-install.js';
import { ensureAgentInstalled } from './archive-progress.js';
import type * as vscode from 'vscode';
import {
  BUILTIN_AGENTS,
  commandLine,
  distributionLabel,
  findBuiltin,
  hostResolveContext,
  prefetchOf,
  resolveBuiltin,
  type LaunchCommand,
  type ResolveContext,
} from './agent-catalog.js';
import type { CatalogEntry } from './registry.js';
import { agentModelId, parseAgentSettings, resolveAgent, type AgentStatus } from './models.js';

export const AGENTS_SETTING = 'symposium.agents';

export type ManageAction = { readonly type: 'add'; readonly id: string } | { readonly type: 'edit' } | { readonly type: 'setKey' } | { readonly type: 'continue' };

export type ManageItem =
  | { readonly kind: 'separator'; readonly label: string }
  | { readonly kind: 'item'; readonly label: string; readonly description?: string; readonly detail?: string; readonly action: ManageAction };

const EDIT: ManageItem = { kind: 'item', label: `$(settings-gear) Edit ${AGENTS_SETTING} in settings.json`, action: { type: 'edit' } };
const CONTINUE: ManageItem = {
  kind: 'item',
  label: "$(history) Continue an agent's session…",
  description: 'begun in its own CLI or elsewhere, in a new chat',
  action: { type: 'continue' },
};
const SET_KEY: ManageItem = {
  kind: 'item',
  label: "$(key) Set an agent's API key",
  description: "kept in VS Code's secret storage, not in settings",
  action: { type: 'setKey' },
};

/** What the quick pick shows for these settings (`raw`: the value of `symposium.agents`). */
export function manageItems(raw: unknown, ctx: ResolveContext, catalog: readonly CatalogEntry[] = BUILTIN_AGENTS): ManageItem[] {
  const { agents: configured, problems } = parseAgentSettings(raw, catalog);
  const items: ManageItem[] = [];
  if (configured.length > 0 || problems.length > 0) items.push({ kind: 'separator', label: 'Configured agents' });
  for (const status of configured.map((c) => resolveAgent(c, ctx))) items.push(configuredItem(status, catalog));
  for (const problem of problems) items.push({ kind: 'item', label: '$(error) An entry is skipped', description: problem, action: { type: 'edit' } });
  const taken = new Set(configured.map((c) => c.id));
  const addable = catalog.filter((entry) => !taken.has(entry.id));
  if (addable.length > 0) items.push({ kind: 'separator', label: 'Built-in agents' });
  for (const entry of addable) items.push(addItem(entry, ctx));
  items.push({ kind: 'separator', label: '' }, ...(configured.length > 0 ? [CONTINUE, SET_KEY] : []), EDIT);
  return items;
}

function configuredItem(status: AgentStatus, catalog: readonly CatalogEntry[]): ManageItem {
  const { configured, agent } = status;
  const line = commandLine(agent);
  const overrides = configured.kind === 'command' && findBuiltin(configured.id, catalog) !== undefined ? ' (your command replaces the built-in)' : '';
  if (!status.ok) {
    return { kind: 'item', label: `$(warning) ${agent.name}`, description: `not available: ${status.reason}`, detail: line, action: { type: 'edit' } };
  }
  if (status.location === undefined) {
    // A full entry whose command is not found: still a model (its requests fail naming the command).
    return { kind: 'item', label: `$(warning) ${agent.name}`, description: `\`${agent.command}\` not found on PATH${overrides}`, detail: line, action: { type: 'edit' } };
  }
  return { kind: 'item', label: `$(check) ${agent.name}`, description: `ready${overrides}`, detail: line, action: { type: 'edit' } };
}

function addItem(entry: CatalogEntry, ctx: ResolveContext): ManageItem {
  const resolution = resolveBuiltin(entry, {}, ctx);
  const detail = resolution.ok ? `${entry.description}. ${entry.auth}` : `Not available here yet: ${resolution.reason}. ${entry.auth}`;
  return { kind: 'item', label: `$(add) Add ${entry.name}`, description: distributionLabel(entry), detail, action: { type: 'add', id: entry.id } };
}

/** The part of VS Code the command uses. */
export interface ManageAgentsUi {
  pick(items: readonly ManageItem[]): Promise<ManageAction | undefined>;
  /** `symposium.agents` as it applies (user, workspace and folder settings merged). */
  agents(): unknown;
  /** `symposium.agents` of the user settings alone: the one the command changes. */
  userAgents(): unknown;
  setUserAgents(value: readonly unknown[]): Promise<void>;
  openSettingsJson(): Promise<void>;
  /** Runs *Set Agent API Key*. */
  setApiKey(): Promise<void>;
  /** Runs *Continue Agent Session…*. */
  continueSession(): Promise<void>;
  /** Fetches an npm agent now (in the background, with a progress notification), so its first start is quick. */
  prefetch(entry: CatalogEntry, command: LaunchCommand): void;
  /** Downloads an agent the registry distributes as an archive now (with a progress notification), likewise. */
  download(entry: CatalogEntry, download: ArchiveDownload): void;
  /** Whether `symposium.enableExperimentalLM` is on. */
  modelsEnabled(): boolean;
  info(message: string): void;
  error(message: string): void;
}

export async function manageAgents(ui: ManageAgentsUi, ctx: ResolveContext, catalog: readonly CatalogEntry[] = BUILTIN_AGENTS): Promise<void> {
  const action = await ui.pick(manageItems(ui.agents(), ctx, catalog));
  if (action === undefined) return;
  if (action.type === 'edit') return ui.openSettingsJson();
  if (action.type === 'setKey') return ui.setApiKey();
  if (action.type === 'continue') return ui.continueSession();
  const entry = findBuiltin(action.id, catalog);
  if (entry === undefined) return;
  const current = ui.userAgents() ?? [];
  if (!Array.isArray(current)) {
    ui.error(`${AGENTS_SETTING} in your user settings is not an array: fix it in settings.json, then add ${entry.name} again.`);
    return ui.openSettingsJson();
  }
  try {
    await ui.setUserAgents([...current, { id: entry.id }]);
  } catch (error) {
    ui.error(`Could not add ${entry.name} to ${AGENTS_SETTING}: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  ui.info(addedMessage(entry, ctx, ui.modelsEnabled()));
  const resolution = resolveBuiltin(entry, {}, ctx);
  if (!resolution.ok) return;
  const prefetch = prefetchOf(entry);
  if (prefetch !== undefined) ui.prefetch(entry, prefetch);
  if (resolution.download !== undefined) ui.download(entry, resolution.download);
}

/** What the user is told after adding a built-in agent. */
export function addedMessage(entry: CatalogEntry, ctx: ResolveContext, modelsEnabled: boolean): string {
  const resolution = resolveBuiltin(entry, {}, ctx);
  const added = `Added ${entry.name} to ${AGENTS_SETTING}`;
  const head = !resolution.ok
    ? `${added}, but it is not available yet: ${resolution.reason}.`
    : modelsEnabled
      ? `${added}: the model "${entry.name}" (${agentModelId(entry)}) is in the model picker.`
      : `${added}. Turn on symposium.enableExperimentalLM to offer it as a model.`;
  return `${head} ${entry.auth}`;
}

/** The command, bound to VS Code's API and this machine's PATH. */
export function runManageAgents(
  vs: typeof vscode,
  catalog: readonly CatalogEntry[],
  setApiKey: () => Promise<void>,
  prefetch: (entry: CatalogEntry, command: LaunchCommand) => void,
  archiveDir?: ResolveContext['archiveDir'],
): Promise<void> {
  const config = () => vs.workspace.getConfiguration('symposium');
  type Pickable = vscode.QuickPickItem & { readonly action?: ManageAction };
  const ui: ManageAgentsUi = {
    async pick(items) {
      const pickable = items.map((item): Pickable =>
        item.kind === 'separator'
          ? { label: item.label, kind: vs.QuickPickItemKind.Separator }
          : { label: item.label, description: item.description, detail: item.detail, action: item.action },
      );
      const chosen = await vs.window.showQuickPick(pickable, { title: 'Symposium: Manage Agents', placeHolder: 'Add a built-in agent, or edit symposium.agents', matchOnDescription: true });
      return chosen?.action;
    },
    agents: () => config().get('agents'),
    userAgents: () => config().inspect('agents')?.globalValue,
    setUserAgents: async (value) => config().update('agents', value, vs.ConfigurationTarget.Global),
    openSettingsJson: async () => {
      await vs.commands.executeCommand('workbench.action.openSettingsJson', { revealSetting: { key: AGENTS_SETTING, edit: true } });
    },
    setApiKey,
    continueSession: async () => {
      await vs.commands.executeCommand('symposium.continueAgentSession');
    },
    prefetch,
    download: (entry, download) => {
      const cancel = new vs.CancellationTokenSource();
      ensureAgentInstalled(vs, { name: entry.name, download }, cancel.token).then(
        () => cancel.dispose(),
        (error: unknown) => {
          cancel.dispose();
          // It is downloaded on its first request instead.
          if (!(error instanceof vs.CancellationError)) void vs.window.showErrorMessage(error instanceof Error ? error.message : String(error));
        },
      );
    },
    modelsEnabled: () => config().get<boolean>('enableExperimentalLM', false),
    info: (message) => void vs.window.showInformationMessage(message),
    error: (message) => void vs.window.showErrorMessage(message),
  };
  return manageAgents(ui, hostResolveContext(archiveDir), catalog);
}
