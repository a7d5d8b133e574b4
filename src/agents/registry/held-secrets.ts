import type { AgentDefinition } from '../../protocol/messages.js';
import { canonicalJson } from '../../protocol/canonical-json.js';

/**
 * The API keys the person set for each agent, as any window of theirs gave them (`symposium/agentSecrets`), held in
 * memory only: never on disk, in the state dir or a log. A VS Code without an encryption service keeps secrets per
 * window (issue 60), so a key set in one window is missing from another's requests: with one bridge serving a
 * person's windows, a request whose definition lacks a key held for that agent gets it, and so reaches the agent
 * the key's window started. An agent is its definition without those keys; a key the request carries wins.
 */
export class HeldSecrets {
  /** By the canonical JSON of the definition without its held keys: the keys' values by name. */
  private readonly byAgent = new Map<string, Map<string, string>>();
  /** How many times a window's keys were heard: what a definition completed before is to be completed again. */
  private heard = 0;

  get version(): number {
    return this.heard;
  }

  hold(agent: AgentDefinition, names: readonly string[], removed: readonly string[]): void {
    this.heard++;
    if (!('mcp_server' in agent)) return;
    const env = agent.mcp_server.env;
    const key = keyWithout(agent, new Set([...names, ...removed, ...(this.namesHeld(agent) ?? [])]));
    const held = this.byAgent.get(key) ?? new Map<string, string>();
    for (const name of removed) held.delete(name);
    for (const name of names) {
      const value = env.find((v) => v.name === name)?.value;
      if (value !== undefined && value !== '') held.set(name, value);
    }
    if (held.size === 0) this.byAgent.delete(key);
    else this.byAgent.set(key, held);
  }

  /** `agent` with the keys held for it that it lacks, at the end of its env. */
  complete(agent: AgentDefinition): AgentDefinition {
    if (!('mcp_server' in agent) || this.byAgent.size === 0) return agent;
    for (const [key, held] of this.byAgent) {
      if (keyWithout(agent, new Set(held.keys())) !== key) continue;
      const missing = [...held].filter(([name]) => !agent.mcp_server.env.some((v) => v.name === name));
      if (missing.length === 0) return agent;
      return { mcp_server: { ...agent.mcp_server, env: [...agent.mcp_server.env, ...missing.map(([name, value]) => ({ name, value }))] } };
    }
    return agent;
  }

  /** The names held for the agent `agent` is, if any (so a window's later report keys it the same way). */
  private namesHeld(agent: AgentDefinition): readonly string[] | undefined {
    for (const [key, held] of this.byAgent) if (keyWithout(agent, new Set(held.keys())) === key) return [...held.keys()];
    return undefined;
  }
}

function keyWithout(agent: AgentDefinition, names: ReadonlySet<string>): string {
  if (!('mcp_server' in agent)) return canonicalJson(agent);
  return canonicalJson({ mcp_server: { ...agent.mcp_server, env: agent.mcp_server.env.filter((v) => !names.has(v.name)) } });
}
