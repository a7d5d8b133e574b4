/**
 * What the bridge is told of the person's API keys (`symposium/agentSecrets`), so that it holds them for every window
 * it serves: a VS Code without an encryption service keeps secrets per window (issue 60), and a key set in one window
 * is then missing from another's requests. Per agent: its definition as the requests carry it (with the keys) and the
 * names of the variables that are keys; a name told before and gone since is told as removed. Values go only into
 * the definition, as in every request, never into a log.
 */
import type { AgentDefinition, AgentSecretsParams } from '../../protocol/messages.js';

export class SharedSecrets {
  /** What was told last, by agent id. */
  private readonly told = new Map<string, AgentSecretsParams>();

  /** The agents' keys now (`agents`: id, definition, key names): what changed since last told, which is told from now on. */
  update(agents: readonly { readonly id: string; readonly agent: AgentDefinition; readonly names: readonly string[] }[]): AgentSecretsParams[] {
    const changed: AgentSecretsParams[] = [];
    for (const { id, agent, names } of agents) {
      const before = this.told.get(id);
      if (before === undefined && names.length === 0) continue;
      const removed = (before?.names ?? []).filter((name) => !names.includes(name));
      const params: AgentSecretsParams = { agent, names: [...names], removed };
      if (before !== undefined && removed.length === 0 && JSON.stringify(before.agent) === JSON.stringify(agent) && before.names.join() === names.join()) continue;
      changed.push(params);
      if (names.length === 0) this.told.delete(id);
      else this.told.set(id, { agent, names: [...names], removed: [] });
    }
    return changed;
  }

  /** Everything held now, for a bridge that starts. */
  all(): AgentSecretsParams[] {
    return [...this.told.values()];
  }
}
