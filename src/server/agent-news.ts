import type { MessageConnection } from 'vscode-jsonrpc/node.js';

/** Agents a host keeps news of: a few are in use at a time (the registry keeps as many definitions' keys). */
const AGENTS_KEPT = 64;

/**
 * What the bridge learned of each agent (its information, its slash commands), told to every window served and
 * again to each window that joins later: an agent's process outlives the window that started it (a reload), and says
 * what it learned only when that changes, so a window that came after would never hear it.
 */
export class AgentNews {
  /** The latest notification of each kind for each agent, by kind and agent key, oldest first. */
  private readonly latest = new Map<string, { readonly method: string; readonly params: object }>();

  tell(method: string, agentKey: string, params: object, to: Iterable<MessageConnection>): void {
    const key = `${method}\n${agentKey}`;
    this.latest.delete(key);
    this.latest.set(key, { method, params });
    if (this.latest.size > AGENTS_KEPT * 2) this.latest.delete(this.latest.keys().next().value!);
    for (const connection of to) void connection.sendNotification(method, params);
  }

  /** Everything learned so far, to a window that joined. */
  replay(connection: MessageConnection): void {
    for (const { method, params } of this.latest.values()) void connection.sendNotification(method, params);
  }
}
