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
  /** Its conversation took it before its resume began: it begins now, waiting for nothing else. */
  readonly wanted: () => void;
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
 * After the latest conversation's session resumed, the person reads that chat for about this long before its
 * first message: the other resumes and the spare session wait it out. Each makes the agent start a session (Claude
 * Code: a process of its own, about a second of CPU), which the first message would otherwise compete with (the
 * first answer after a reload came 100–250 ms later on two cores: issue 48).
 */
export const READING_MS = 5_000;

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
  /** The person's reading after the first resume asked (the latest conversation's) ended: what the others wait for, and the spare. */
  private reading: Promise<void> | undefined;

  /** `readingMs`: see READING_MS. */
  constructor(
    private readonly host: AheadHost<S>,
    private readonly readingMs = READING_MS,
  ) {}

  /**
   * Resumes `agentSession` for `conversationId` ahead, offering `offered`, unless it is ahead already or the pool is
   * full. The first asked begins at once; each other one after the one asked before it, once the person read a while
   * (`readingMs` after the first resumed) and no conversation's first prompt in a session it took runs, or at once
   * when its conversation takes it.
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
    const reading = this.reading;
    let wanted: () => void = () => {};
    const taken = new Promise<void>((resolve) => (wanted = resolve));
    const turn = reading === undefined ? Promise.resolve() : before.then(() => reading).then(() => this.quiet);
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
    this.queue = ahead.session;
    this.reading ??= ahead.session.then(() => delay(this.readingMs));
    return true;
  }

  /**
   * A conversation took its session and prompts in it: the resumes not yet begun wait until `prompted` settles
   * (at most QUIET_MS), not to compete with that prompt for the agent.
   */
  private quietWhile(prompted: Promise<void>): void {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, QUIET_MS).unref()));
    const over = Promise.race([prompted, late]).finally(() => clearTimeout(timer));
    this.quiet = Promise.all([this.quiet, over]).then(() => {});
  }

  /**
   * Settles once every resume asked so far has ended, resumed or not, and the person's reading after the first is
   * over, with no conversation's first prompt running: when the agent may open a spare without competing with either.
   */
  settled(): Promise<void> {
    return this.queue
      .then(() => this.reading)
      .then(() => this.quiet)
      .then(
        () => {},
        () => {},
      );
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
    this.quietWhile(prompted());
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

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
