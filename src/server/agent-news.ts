import type { MessageConnection } from 'vscode-jsonrpc/node.js';

/** Agents a host keeps news of: a few are in use at a time (the registry keeps as many definitions' keys). */
const AGENTS_KEPT = 64;

/**
 * What the bridge learned of each agent, told to every window that listens and again to each window that joins
 * later: an agent's process outlives the window that started it (a reload), and serves windows that came after
 * it (another folder's), and says what it learned only when that changes, so a window that came after would never
 * hear it. Windows listen as long as their connection is open.
 */
export class AgentNews {
  /** The latest notification of each kind for each agent, by kind and agent key, oldest first. */
  private readonly latest = new Map<string, { readonly method: string; readonly params: object }>();
  private readonly windows = new Set<MessageConnection>();

  tell(method: string, agentKey: string, params: object): void {
    const key = `${method}\n${agentKey}`;
    this.latest.delete(key);
    this.latest.set(key, { method, params });
    if (this.latest.size > AGENTS_KEPT * 2) this.latest.delete(this.latest.keys().next().value!);
    for (const connection of this.windows) void connection.sendNotification(method, params);
  }

  /** A window listens from now on, told first everything learned so far. */
  join(connection: MessageConnection): void {
    for (const { method, params } of this.latest.values()) void connection.sendNotification(method, params);
    this.windows.add(connection);
    connection.onClose(() => this.windows.delete(connection));
  }
}
