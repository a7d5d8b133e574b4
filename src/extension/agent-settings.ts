/**
 * The agents the models stand for: the catalogue (built-in, or a newer registry the user points at), the
 * `symposium.agents` setting resolved against it, and their API keys from the secret storage.
 */
import os from 'node:os';
import { readFileSync, statSync } from 'node:fs';
import type * as vscode from 'vscode';
import type { ExtensionLog } from '../log/extension-log.js';
import type { AgentInfo } from '../protocol/messages.js';
import { BUILTIN_AGENTS, expandHome, hostResolveContext } from './agents/agent-catalog.js';
import { archiveDirUnder } from './agents/archive-progress.js';
import { agentsOfSettings, type ModelSettings } from './agents/models.js';
import { platformTarget, type CatalogEntry } from './agents/registry.js';
import { UserRegistry } from './agents/user-registry.js';
import { AgentSecrets, secretLookingNames, withSecrets } from './keys/agent-secrets.js';
import { secretPersistence, type SecretPersistence } from './keys/secret-persistence.js';
import { config } from './settings.js';

export class AgentSettings {
  /** API keys: they join the agents' env in the requests to the bridge. */
  readonly secrets: AgentSecrets;
  /** Agents the registry distributes as downloads live in the extension's global storage. */
  readonly archiveDir: ReturnType<typeof archiveDirUnder>;
  /** Whether this VS Code keeps the keys beyond this window (known once the secrets were first read). */
  secretPersistence: SecretPersistence = 'unknown';
  private readonly registry: UserRegistry;
  private persistenceRead: Promise<void> | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: ExtensionLog,
    /** The catalogue or the keys changed: the model list may have. */
    private readonly onChange: () => void,
  ) {
    this.secrets = new AgentSecrets(context.secrets);
    this.archiveDir = archiveDirUnder(context.globalStorageUri.fsPath);
    this.registry = new UserRegistry({
      builtin: BUILTIN_AGENTS,
      target: platformTarget(process.platform, process.arch),
      log,
      readFile: (file) => readFileSync(file, 'utf8'),
      mtime: (file) => {
        try {
          return statSync(file).mtimeMs;
        } catch {
          return undefined;
        }
      },
      expandHome: (file) => expandHome(file, os.homedir()),
      onChange,
    });
  }

  catalog(): readonly CatalogEntry[] {
    return this.registry.catalog(config().get<string>('registry', ''));
  }

  /** Reads the API keys again (at start, and when another window changed one); the first time, whether they persist. */
  loadSecrets(web = false): Promise<void> {
    this.persistenceRead ??= secretPersistence(this.context.secrets, this.context.globalState, web).then(
      (persistence) => {
        this.secretPersistence = persistence;
        if (persistence !== 'persisted') this.log.info(`VS Code's secret storage here: ${persistence === 'window' ? 'this window only (no encryption service)' : persistence === 'unknown-web' ? 'VS Code for the web, perhaps this window only' : 'not known yet'}`);
      },
      (error: unknown) => this.log.warn(`could not tell whether VS Code keeps secrets beyond this window: ${String(error)}`),
    );
    return this.secrets.load().then(
      () => this.onChange(),
      (error: unknown) => this.log.error(`could not read the agents' API keys from the secret storage: ${String(error)}`),
    );
  }

  /** The agents of the settings that can run here; with `report`, why the others cannot goes to the log. */
  agents(report: boolean): ModelSettings['agents'] {
    const { agents, problems } = agentsOfSettings(config().get('agents'), hostResolveContext(this.archiveDir), this.catalog());
    if (report) {
      for (const problem of problems) this.log.warn(problem);
      for (const agent of agents) {
        const names = secretLookingNames(agent.env);
        if (names.length > 0) {
          this.log.warn(`symposium.agents: ${agent.name} has ${names.join(', ')} in settings.json, which is synced and often committed; "Symposium: Set Agent API Key" keeps it in VS Code's secret storage instead`);
        }
      }
    }
    return agents;
  }

  /** What the model list is made of, with the keys in the agents' env and what the bridge learned about them. */
  modelSettings(learned: ReadonlyMap<string, AgentInfo>): ModelSettings {
    return {
      agents: withSecrets(this.agents(false), (id) => this.secrets.envOf(id)),
      elizaDeterministic: config().get<boolean>('eliza.deterministic', false),
      learned,
    };
  }
}
