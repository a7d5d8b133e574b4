/**
 * API keys and other secrets of agents, kept in VS Code's SecretStorage (the OS keychain) instead of
 * `symposium.agents[].env` in settings.json, which is synced and often committed. One secret per agent and
 * environment variable, under `symposium.agentEnv/<agent id>/<VARIABLE>`.
 *
 * How a secret reaches its agent: the extension adds it to the agent's definition (its `env`) in each
 * request to the bridge, over the bridge's stdin, and the bridge adds it to the agent's environment when it
 * spawns it. It never goes into settings, the bridge's or the agent's argv, the state dir, VS Code's global
 * state (learned information is keyed without env values: `agentKey`) or the log (the bridge logs no
 * definition; `test/reliability/security.test.ts` checks the env values of a definition never reach it).
 * No `vscode` here: the adapter hands in its SecretStorage.
 */
import type { AgentSetting } from '../agents/models.js';

/** The part of VS Code's SecretStorage used here. */
export interface SecretStore {
  keys(): PromiseLike<readonly string[]>;
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

const PREFIX = 'symposium.agentEnv/';
/** What an environment variable's name may be (as POSIX shells and Windows accept it). */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function secretKey(agentId: string, name: string): string {
  return `${PREFIX}${agentId}/${name}`;
}

function parseKey(key: string): { agentId: string; name: string } | undefined {
  if (!key.startsWith(PREFIX)) return undefined;
  const rest = key.slice(PREFIX.length);
  const slash = rest.lastIndexOf('/');
  if (slash <= 0) return undefined;
  const name = rest.slice(slash + 1);
  return ENV_NAME.test(name) ? { agentId: rest.slice(0, slash), name } : undefined;
}

/** The agents' secrets, read once from the store and kept in memory, so that the model list stays synchronous. */
export class AgentSecrets {
  private readonly byAgent = new Map<string, Map<string, string>>();

  constructor(private readonly store: SecretStore) {}

  /** (Re)reads every secret of every agent: at activation, and when the store says they changed. */
  async load(): Promise<void> {
    const entries: [string, string, string][] = [];
    for (const key of await this.store.keys()) {
      const parsed = parseKey(key);
      if (parsed === undefined) continue;
      const value = await this.store.get(key);
      if (value !== undefined) entries.push([parsed.agentId, parsed.name, value]);
    }
    this.byAgent.clear();
    for (const [agentId, name, value] of entries) this.variables(agentId).set(name, value);
  }

  /** The environment variables set for this agent. */
  envOf(agentId: string): Readonly<Record<string, string>> {
    return Object.fromEntries(this.byAgent.get(agentId) ?? []);
  }

  /** The names of the variables set for this agent (never their values). */
  namesOf(agentId: string): string[] {
    return [...(this.byAgent.get(agentId)?.keys() ?? [])].sort();
  }

  async set(agentId: string, name: string, value: string): Promise<void> {
    if (!ENV_NAME.test(name)) throw new Error(`"${name}" is not an environment variable name`);
    await this.store.store(secretKey(agentId, name), value);
    this.variables(agentId).set(name, value);
  }

  async remove(agentId: string, name: string): Promise<void> {
    await this.store.delete(secretKey(agentId, name));
    this.byAgent.get(agentId)?.delete(name);
  }

  private variables(agentId: string): Map<string, string> {
    let variables = this.byAgent.get(agentId);
    if (variables === undefined) this.byAgent.set(agentId, (variables = new Map()));
    return variables;
  }
}

/** The agents with their secrets added to their environment (a secret wins over the same name in settings). */
export function withSecrets(agents: readonly AgentSetting[], envOf: (agentId: string) => Readonly<Record<string, string>>): AgentSetting[] {
  return agents.map((agent) => {
    const secrets = envOf(agent.id);
    return Object.keys(secrets).length === 0 ? agent : { ...agent, env: { ...agent.env, ...secrets } };
  });
}

/** Variables in settings that look like secrets, for a warning that points to the command. */
export function secretLookingNames(env: Readonly<Record<string, string>>): string[] {
  return Object.keys(env).filter((name) => /(KEY|TOKEN|SECRET|PASSWORD)/i.test(name));
}
