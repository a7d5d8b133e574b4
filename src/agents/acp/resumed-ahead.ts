import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../log/logger.js';
import type { ToolDefinition } from '../../protocol/messages.js';
import { BridgedToolsServer, type BridgedCall } from '../../tools/bridged-tools-server.js';
import type { NewAgentSession, SpareRoom, TakenSpare } from './spare-session.js';

/** What sessions resumed ahead need from their agent. */
export interface AheadHost<S extends NewAgentSession> {
  readonly name: string;
  readonly log: Logger;
  /** Resumes (or loads) the conversation's ACP session `agentSession` with this tool server. */
  resume(conversationId: string, agentSession: string, tools: BridgedToolsServer): Promise<S>;
  /** Room in the session pool for the conversation's session, while there is any; `evict` gives it back (room needed, or idle too long). */
  hold(conversationId: string, evict: () => void): SpareRoom | undefined;
  /** Where a call of its tools goes before its conversation took it (no prompt runs in it). */
  toolCallOutsideTurns(call: BridgedCall): Promise<CallToolResult>;
}

interface Ahead<S extends NewAgentSession> {
  readonly tools: Promise<BridgedToolsServer>;
  /** Where calls of its tools go: to its conversation once it took it; before that, where the host says. */
  onCall: (call: BridgedCall) => Promise<CallToolResult>;
  readonly session: Promise<S | undefined>;
  readonly slot: SpareRoom;
  /** Closed (its room needed, the agent gone) before its turn in the queue came: it is not resumed. */
  dropped: boolean;
}

/** A conversation that took its session but never prompted holds the other resumes back this long at most. */
const QUIET_MS = 30_000;

/**
 * The ACP sessions of conversations used lately, resumed before they go on: after a window reload the bridge
 * and its agents start afresh, and the first message of a restored chat would wait for the agent to start and
 * load its session. Each opens with the tools its agent was last offered in this workspace, holds room in the
 * session pool (idle ones close as any idle session), and is taken by its conversation's next turn.
 */
export class SessionsResumedAhead<S extends NewAgentSession> {
  private readonly ahead = new Map<string, Ahead<S>>();
  /** The resume asked last: each waits for the one before, so that the latest conversation's competes with none. */
  private queue: Promise<unknown> = Promise.resolve();
  /** What resumes not yet begun wait for: the first prompts of conversations that took theirs. */
  private quiet: Promise<void> = Promise.resolve();

  constructor(private readonly host: AheadHost<S>) {}

  /**
   * Resumes `agentSession` for `conversationId` ahead, offering `offered`, after the resumes asked before it, unless
   * it is ahead already or the pool is full.
   */
  resume(conversationId: string, agentSession: string, offered: readonly ToolDefinition[]): boolean {
    if (this.ahead.has(conversationId)) return false;
    const slot = this.host.hold(conversationId, () => this.drop(conversationId, 'the session pool needed its room, or it stayed unused'));
    if (slot === undefined) return false;
    const before = this.queue;
    const tools = BridgedToolsServer.start((call) => ahead.onCall(call), this.host.log).then((server) => {
      server.setTools(offered);
      return server;
    });
    const ahead: Ahead<S> = {
      tools,
      onCall: (call) => this.host.toolCallOutsideTurns(call),
      session: Promise.all([tools, before])
        .then(async ([server]) => {
          await this.quiet;
          if (ahead.dropped) throw new Error('closed before its turn to resume came');
          return this.host.resume(conversationId, agentSession, server);
        })
        .then(
          (session) => {
            this.host.log.info(`agent ${this.host.name}: conversation ${conversationId} resumed ahead of its next turn (ACP session ${session.sessionId})`);
            return session;
          },
          (error: unknown) => {
            this.host.log.info(`agent ${this.host.name}: conversation ${conversationId} not resumed ahead (${error instanceof Error ? error.message : String(error)})`);
            if (this.ahead.get(conversationId) === ahead) this.drop(conversationId);
            return undefined;
          },
        ),
      slot,
      dropped: false,
    };
    this.ahead.set(conversationId, ahead);
    this.queue = ahead.session;
    return true;
  }

  /**
   * A conversation took its session and prompts in it: the resumes not yet begun wait until `prompted` settles
   * (at most QUIET_MS), not to compete with that prompt for the agent.
   */
  quietWhile(prompted: Promise<void>): void {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, QUIET_MS).unref()));
    const over = Promise.race([prompted, late]).finally(() => clearTimeout(timer));
    this.quiet = Promise.all([this.quiet, over]).then(() => {});
  }

  /** Settles once every resume asked so far has ended, resumed or not. */
  settled(): Promise<void> {
    return this.queue.then(
      () => {},
      () => {},
    );
  }

  /** The conversation's next turn: it takes its session resumed ahead, if there is one, with `offered` on its tool server. */
  take(conversationId: string, offered: readonly ToolDefinition[], onCall: (call: BridgedCall) => Promise<CallToolResult>): Promise<TakenSpare<S>> | undefined {
    const ahead = this.ahead.get(conversationId);
    if (ahead === undefined) return undefined;
    this.ahead.delete(conversationId);
    ahead.slot.free();
    ahead.onCall = onCall;
    return ahead.tools.then((tools) => {
      tools.setTools(offered);
      return { tools, session: ahead.session.then((s) => (s?.alive() === true ? s : undefined)) };
    });
  }

  /** Closes the conversation's session resumed ahead, or every one (the agent stops, or its process ended). */
  drop(conversationId?: string, why?: string): void {
    for (const [id, ahead] of [...this.ahead]) {
      if (conversationId !== undefined && id !== conversationId) continue;
      this.ahead.delete(id);
      ahead.dropped = true;
      ahead.slot.free();
      if (why !== undefined) this.host.log.debug(`agent ${this.host.name}: the session of conversation ${id} resumed ahead closed: ${why}`);
      void ahead.session.then((session) => session?.close());
      void ahead.tools.then((tools) => tools.close(), () => {});
    }
  }
}
