import { canonicalJson } from '../../protocol/canonical-json.js';
import type { AgentCommandsParams, AgentDefinition, AgentSlashCommand } from '../../protocol/messages.js';

/** One agent's slash commands, as it last listed them. */
export interface AgentCommandList {
  /** The agent's name (its `symposium.agents` entry's). */
  readonly agent: string;
  readonly commands: readonly AgentSlashCommand[];
}

/**
 * The slash commands of each agent (the bridge's `symposium/agentCommands`), and which agent is the person's now:
 * the one whose model was last used or picked, in any consumer. Its commands are those offered first.
 */
export class AgentCommandLists {
  private readonly lists = new Map<string, AgentCommandList>();
  private current: string | undefined;
  private readonly listeners = new Set<() => void>();

  /** An agent listed its commands. */
  learn({ agent, commands }: AgentCommandsParams): void {
    const key = canonicalJson(agent);
    this.lists.set(key, { agent: nameOf(agent), commands });
    if (key === this.current) this.fire();
  }

  /** The agent's model was used (a request) or picked: its commands are the current ones. */
  used(agent: AgentDefinition): void {
    const key = canonicalJson(agent);
    if (key === this.current) return;
    this.current = key;
    this.fire();
  }

  /** The current agent's commands (none before one was used, or while it listed none). */
  get currentCommands(): readonly AgentSlashCommand[] {
    return this.current === undefined ? [] : (this.lists.get(this.current)?.commands ?? []);
  }

  /** Every agent's list that has commands, the current agent's first. */
  ordered(): AgentCommandList[] {
    const current = this.current === undefined ? undefined : this.lists.get(this.current);
    const others = [...this.lists.entries()].filter(([key]) => key !== this.current).map(([, list]) => list);
    return [...(current === undefined ? [] : [current]), ...others].filter((list) => list.commands.length > 0);
  }

  /** Hears a change of the current commands (another agent used, or the current one listed others). */
  onDidChangeCurrent(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private fire(): void {
    for (const listener of this.listeners) listener();
  }
}

function nameOf(agent: AgentDefinition): string {
  return 'mcp_server' in agent ? agent.mcp_server.name : 'Eliza';
}
