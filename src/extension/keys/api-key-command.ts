/**
 * The command *Symposium: Set Agent API Key*: pick a configured agent, pick the environment variable (the
 * ones its catalogue entry names, the ones already stored, or another), type the value in a password box.
 * The value goes to SecretStorage (`agent-secrets.ts`), never to settings or the log; an empty value removes
 * it. The flow is a plain function over a small UI interface, for the tests.
 */
import type * as vscode from 'vscode';
import { BUILTIN_AGENTS } from '../agents/agent-catalog.js';
import type { CatalogEntry } from '../agents/registry.js';
import { ENV_NAME, type AgentSecrets } from './agent-secrets.js';
import { persistenceWarning, type SecretPersistence } from './secret-persistence.js';
import { parseAgentSettings } from '../agents/models.js';

export interface ApiKeyChoice {
  readonly label: string;
  readonly description?: string;
  /** The agent id or the variable name chosen; undefined for "another variable". */
  readonly value: string | undefined;
}

/** The part of VS Code the command uses. */
export interface ApiKeyUi {
  pick(title: string, placeHolder: string, items: readonly ApiKeyChoice[]): Promise<ApiKeyChoice | undefined>;
  /** A variable name typed by the user; `validate` says what is wrong with one, or undefined. */
  askName(validate: (name: string) => string | undefined): Promise<string | undefined>;
  /** The secret, typed in a password box; undefined when the user cancelled. */
  askSecret(prompt: string): Promise<string | undefined>;
  info(message: string): void;
  error(message: string): void;
}

/** An agent a key can be set for: a configured one, with the variables its catalogue entry names. */
export interface KeyedAgent {
  readonly id: string;
  readonly name: string;
  readonly keyNames: readonly string[];
}

/** The configured agents of `symposium.agents` (valid entries, whether or not they can run here). */
export function keyedAgents(raw: unknown, catalog: readonly CatalogEntry[] = BUILTIN_AGENTS): KeyedAgent[] {
  return parseAgentSettings(raw, catalog).agents.map((configured) => {
    const entry = configured.kind === 'builtin' ? configured.entry : catalog.find((e) => e.id === configured.id);
    const name = configured.name ?? entry?.name ?? configured.id;
    return { id: configured.id, name, keyNames: entry?.apiKeys ?? [] };
  });
}

/**
 * Runs the command; `agentId` skips the choice of agent (from *Manage Agents*). `persistence`: whether this VS Code
 * keeps secrets beyond this window, which the confirmation says where it may not, and what the agent host
 * (`sharedHost`) keeps of them meanwhile.
 */
export async function setAgentApiKey(ui: ApiKeyUi, agents: readonly KeyedAgent[], secrets: AgentSecrets, agentId?: string, persistence: SecretPersistence = 'persisted', sharedHost = false): Promise<void> {
  if (agents.length === 0) {
    ui.info('No agent is configured yet: add one with "Symposium: Manage Agents", then set its API key.');
    return;
  }
  const agent = agentId === undefined ? await pickAgent(ui, agents, secrets) : agents.find((a) => a.id === agentId);
  if (agent === undefined) return;
  const stored = secrets.namesOf(agent.id);
  const names = [...new Set([...agent.keyNames, ...stored])];
  const choices: ApiKeyChoice[] = [
    ...names.map((name) => ({ label: name, description: stored.includes(name) ? 'set (change or remove it)' : 'not set', value: name })),
    { label: '$(add) Another environment variable…', value: undefined },
  ];
  const chosen = await ui.pick(`API key for ${agent.name}`, 'The environment variable the agent reads its key from', choices);
  if (chosen === undefined) return;
  const name = chosen.value ?? (await ui.askName((typed) => (ENV_NAME.test(typed) ? undefined : 'Letters, digits and "_", not starting with a digit.')));
  if (name === undefined) return;
  const value = await ui.askSecret(
    `${name} for ${agent.name}: kept in VS Code's secret storage and given only to the agent's process.${stored.includes(name) ? ' Leave it empty to remove it.' : ''}`,
  );
  if (value === undefined) return;
  try {
    if (value === '') {
      if (!stored.includes(name)) return;
      await secrets.remove(agent.id, name);
      ui.info(`Removed ${name} of ${agent.name} from VS Code's secret storage.`);
      return;
    }
    await secrets.set(agent.id, name, value);
    ui.info(`${name} of ${agent.name} is in VS Code's secret storage: the agent gets it from its next request.${persistenceWarning(persistence, sharedHost)}`);
  } catch (error) {
    ui.error(`Could not store ${name} of ${agent.name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function pickAgent(ui: ApiKeyUi, agents: readonly KeyedAgent[], secrets: AgentSecrets): Promise<KeyedAgent | undefined> {
  const choices = agents.map((agent) => {
    const stored = secrets.namesOf(agent.id);
    return { label: agent.name, description: stored.length === 0 ? agent.id : `${agent.id} · set: ${stored.join(', ')}`, value: agent.id };
  });
  const chosen = await ui.pick('Symposium: Set Agent API Key', 'The agent whose key to set', choices);
  return agents.find((agent) => agent.id === chosen?.value);
}

/** The command, bound to VS Code's API; `sharedHost`: whether the bridge is the person's agent host. */
export function runSetAgentApiKey(vs: typeof vscode, secrets: AgentSecrets, catalog: readonly CatalogEntry[], persistence: SecretPersistence, sharedHost: boolean, agentId?: string): Promise<void> {
  type Pickable = vscode.QuickPickItem & { readonly choice: ApiKeyChoice };
  const ui: ApiKeyUi = {
    async pick(title, placeHolder, items) {
      const pickable = items.map((choice): Pickable => ({ label: choice.label, description: choice.description, choice }));
      return (await vs.window.showQuickPick(pickable, { title, placeHolder, ignoreFocusOut: true }))?.choice;
    },
    askName: async (validate) => vs.window.showInputBox({ title: 'Environment variable', prompt: 'Its name, e.g. MY_AGENT_API_KEY', validateInput: validate, ignoreFocusOut: true }),
    askSecret: async (prompt) => vs.window.showInputBox({ title: 'API key', prompt, password: true, ignoreFocusOut: true }),
    info: (message) => void vs.window.showInformationMessage(message),
    error: (message) => void vs.window.showErrorMessage(message),
  };
  return setAgentApiKey(ui, keyedAgents(vs.workspace.getConfiguration('symposium').get('agents'), catalog), secrets, agentId, persistence, sharedHost);
}
