import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../log/logger.js';
import { sameJson } from '../../protocol/canonical-json.js';
import type { ToolDefinition } from '../../protocol/messages.js';
import { BridgedToolsServer, type BridgedCall } from '../../tools/bridged-tools-server.js';

/** An ACP session opened as for a new conversation, not yet any conversation's. */
export interface NewAgentSession {
  readonly sessionId: string;
  /** The agent's process still runs it. */
  alive(): boolean;
  /** Closes it (`session/close`, where the agent supports it). */
  close(): void;
}

/** Room a spare holds in the session pool, given back with `free`. */
export interface SpareRoom {
  free(): void;
}

/** What a spare needs from its agent. */
export interface SpareHost<S extends NewAgentSession> {
  readonly name: string;
  readonly log: Logger;
  /** Opens an ACP session with this tool server, as for a new conversation (`session/new`). */
  newSession(tools: BridgedToolsServer): Promise<S>;
  /** Room in the session pool, while there is any; `evict` gives it back when a conversation needs it. */
  hold(evict: () => void): SpareRoom | undefined;
  /** Where a call of a spare's tool goes before a conversation took it (no prompt runs in the spare). */
  toolCallOutsideTurns(call: BridgedCall): Promise<CallToolResult>;
}

/** A spare taken by a conversation: its tool server from now on, and the ACP session opening or open on it. */
export interface TakenSpare<S extends NewAgentSession> {
  readonly tools: BridgedToolsServer;
  readonly session: Promise<S | undefined>;
}

interface Spare<S extends NewAgentSession> {
  readonly tools: Promise<BridgedToolsServer>;
  readonly offered: readonly ToolDefinition[];
  /** Where calls of its tools go: to the conversation that took it; before that, where the host says. */
  onCall: (call: BridgedCall) => Promise<CallToolResult>;
  readonly session: Promise<S | undefined>;
  readonly slot: SpareRoom;
}

/**
 * One ACP session an agent keeps open ahead of need, so that a new conversation (a new chat, a new task)
 * does not wait for the agent to open one: seconds for Claude Code or OpenCode. It is opened exactly as a
 * new conversation's session would be (the workspace folder, a tool server offering the tools the last new
 * conversation was offered), so neither the agent nor the person can tell it from one opened on demand; a
 * new conversation offered other tools opens its own (agents such as Codex read a tool list only when a
 * session opens). It holds room in the session pool, and goes first when a conversation needs that room.
 */
export class SpareSession<S extends NewAgentSession> {
  private spare: Spare<S> | undefined;
  /** The tools the last new conversation was offered: what the next spare offers. */
  private offered: readonly ToolDefinition[] | undefined;

  constructor(private readonly host: SpareHost<S>) {}

  /** A new conversation offered these tools begins: it takes the spare if that offers the same. */
  take(offered: readonly ToolDefinition[], onCall: (call: BridgedCall) => Promise<CallToolResult>): Promise<TakenSpare<S>> | undefined {
    this.offered = offered;
    const spare = this.spare;
    if (spare === undefined) return undefined;
    if (!sameTools(spare.offered, offered)) {
      this.host.log.debug(`agent ${this.host.name}: the spare session offers other tools than the new conversation (${spare.offered.length} against ${offered.length}); it opens its own`);
      return undefined;
    }
    this.spare = undefined;
    spare.slot.free();
    spare.onCall = onCall;
    return spare.tools.then((tools) => ({ tools, session: spare.session.then((s) => (s?.alive() === true ? s : undefined)) }));
  }

  /**
   * Before any new conversation began here (a window just started): the tools one was offered earlier, which the
   * next spare offers. A new conversation's own tools, once one began, win.
   */
  expect(offered: readonly ToolDefinition[]): void {
    this.offered ??= offered;
  }

  /** Opens a spare with the tools of the last new conversation, unless one is open or none began yet. */
  open(): void {
    const offered = this.offered;
    if (this.spare !== undefined || offered === undefined) return;
    const slot = this.host.hold(() => this.drop('the session pool needed its room'));
    if (slot === undefined) return;
    const tools = BridgedToolsServer.start((call) => spare.onCall(call), this.host.log).then((server) => {
      server.setTools(offered);
      return server;
    });
    const spare: Spare<S> = {
      tools,
      offered,
      onCall: (call) => this.host.toolCallOutsideTurns(call),
      session: tools.then((server) => this.host.newSession(server)).then(
        (session) => {
          this.host.log.info(`agent ${this.host.name}: spare session ${session.sessionId} is ready for the next new conversation`);
          return session;
        },
        (error: unknown) => {
          this.host.log.info(`agent ${this.host.name}: no spare session (${error instanceof Error ? error.message : String(error)}); new conversations open their own`);
          if (this.spare === spare) this.drop();
          return undefined;
        },
      ),
      slot,
    };
    this.spare = spare;
  }

  /** Closes the spare, if there is one (the agent stops, or its process ended). */
  drop(why?: string): void {
    const spare = this.spare;
    if (spare === undefined) return;
    this.spare = undefined;
    spare.slot.free();
    if (why !== undefined) this.host.log.debug(`agent ${this.host.name}: spare session closed: ${why}`);
    void spare.session.then((session) => session?.close());
    void spare.tools.then((tools) => tools.close(), () => {});
  }
}

/** The same tools, in whatever order (a consumer may list them in another; the agent lists them by name). */
function sameTools(a: readonly ToolDefinition[], b: readonly ToolDefinition[]): boolean {
  if (a.length !== b.length) return false;
  const byName = (tools: readonly ToolDefinition[]) => [...tools].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return sameJson(byName(a), byName(b));
}
