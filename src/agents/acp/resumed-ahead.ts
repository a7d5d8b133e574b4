import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../log/logger.js';
import type { ToolDefinition } from '../../protocol/messages.js';
import { BridgedToolsServer, type BridgedCall } from '../../tools/bridged-tools-server.js';
import { ResumeSchedule } from './resume-schedule.js';
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
  /** Its conversation took it before its resume began: it begins now, waiting for nothing else. */
  readonly wanted: () => void;
  /** Where calls of its tools go: to its conversation once it took it; before that, where the host says. */
  onCall: (call: BridgedCall) => Promise<CallToolResult>;
  readonly session: Promise<S | undefined>;
  readonly slot: SpareRoom;
  /** Closed (its room needed, the agent gone) before its turn in the queue came: it is not resumed. */
  dropped: boolean;
}

/**
 * The ACP sessions of conversations used lately, resumed before they go on: after a window reload the bridge
 * and its agents start afresh, and the first message of a restored chat would wait for the agent to start and
 * load its session. Each opens with the tools its agent was last offered in this workspace, holds room in the
 * session pool (idle ones close as any idle session), and is taken by its conversation's next turn.
 */
export class SessionsResumedAhead<S extends NewAgentSession> {
  private readonly ahead = new Map<string, Ahead<S>>();

  /** `schedule`: when each resume begins (see ResumeSchedule); shared by the processes of one agent. */
  constructor(
    private readonly host: AheadHost<S>,
    private readonly schedule = new ResumeSchedule(),
  ) {}

  /**
   * Resumes `agentSession` for `conversationId` ahead, offering `offered`, unless it is ahead already or the pool is
   * full. It begins when the schedule says, or at once when its conversation takes it.
   */
  resume(conversationId: string, agentSession: string, offered: readonly ToolDefinition[]): boolean {
    if (this.ahead.has(conversationId)) return false;
    const slot = this.host.hold(conversationId, () => this.drop(conversationId, 'the session pool needed its room, or it stayed unused'));
    if (slot === undefined) return false;
    const tools = BridgedToolsServer.start((call) => ahead.onCall(call), this.host.log).then((server) => {
      server.setTools(offered);
      return server;
    });
    let wanted: () => void = () => {};
    const taken = new Promise<void>((resolve) => (wanted = resolve));
    const turn = this.schedule.turn();
    const ahead: Ahead<S> = {
      tools,
      wanted,
      onCall: (call) => this.host.toolCallOutsideTurns(call),
      session: Promise.all([tools, Promise.race([turn, taken])])
        .then(([server]) => {
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
            if (this.ahead.get(conversationId) === ahead) void this.drop(conversationId);
            return undefined;
          },
        ),
      slot,
      dropped: false,
    };
    this.ahead.set(conversationId, ahead);
    this.schedule.asked(ahead.session);
    return true;
  }

  /** Settles once the resumes asked so far ended and the person read (see ResumeSchedule.settled). */
  settled(): Promise<void> {
    return this.schedule.settled();
  }

  /**
   * The conversation's next turn: it takes its session resumed ahead, if there is one, with `offered` on its tool
   * server; its resume begins now if it had not. Until `prompted()` settles (its first prompt there ended), the
   * resumes not yet begun wait: from the take on, so that none begins between the take and the prompt.
   */
  take(conversationId: string, offered: readonly ToolDefinition[], onCall: (call: BridgedCall) => Promise<CallToolResult>, prompted: () => Promise<void>): Promise<TakenSpare<S>> | undefined {
    const ahead = this.ahead.get(conversationId);
    if (ahead === undefined) return undefined;
    this.ahead.delete(conversationId);
    ahead.slot.free();
    ahead.onCall = onCall;
    ahead.wanted();
    this.schedule.quietWhile(prompted());
    return ahead.tools.then((tools) => {
      tools.setTools(offered);
      return { tools, session: ahead.session.then((s) => (s?.alive() === true ? s : undefined)) };
    });
  }

  /**
   * Closes the conversation's session resumed ahead, or every one (the agent stops, or its process ended); settles
   * once their tool servers closed.
   */
  drop(conversationId?: string, why?: string): Promise<void> {
    const closed: Promise<void>[] = [];
    for (const [id, ahead] of [...this.ahead]) {
      if (conversationId !== undefined && id !== conversationId) continue;
      this.ahead.delete(id);
      ahead.dropped = true;
      ahead.slot.free();
      if (why !== undefined) this.host.log.debug(`agent ${this.host.name}: the session of conversation ${id} resumed ahead closed: ${why}`);
      void ahead.session.then((session) => session?.close());
      closed.push(ahead.tools.then((tools) => tools.close(), () => {}));
    }
    return Promise.all(closed).then(() => {});
  }
}
