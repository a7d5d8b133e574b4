import { defer, finalize, type Observable } from 'rxjs';
import type { ResponsePart } from '../../protocol/messages.js';
import type { AgentSession, TurnInput } from '../agent-stream.js';

export interface SessionPoolOptions {
  /** An agent session unused this long is closed; its conversation reopens one when it goes on. */
  readonly idleMs: number;
  /** At most this many agent sessions are open; opening one more closes the least recently used idle one. */
  readonly maxOpen: number;
  /** Told when an agent has no open session left, and when it has one again. */
  readonly onAgentIdle?: (agentKey: string, idle: boolean) => void;
}

/** Room held in the pool for a session opened ahead of need (a spare): given back with `free`. */
export interface SpareSlot {
  free(): void;
}

/**
 * Bounds what conversations hold. Each conversation gets a session that opens an agent session on its
 * first turn and closes it after `idleMs` without turns, or sooner when `maxOpen` sessions are open
 * and it is the least recently used idle one. A session that is answering or streaming is never closed
 * under it, nor (for want of room) one whose agent waits on the consumer; the idle close still applies.
 * Spare sessions (opened before a new conversation needs one) count against `maxOpen` too, and are the
 * first to go when a conversation needs room.
 */
export class SessionPool {
  /** Open sessions, least recently used first. */
  private readonly open = new Set<PooledSession>();
  private readonly openByAgent = new Map<string, number>();
  /** The spares holding room, each with its agent and how to close it (and, resumed ahead, its conversation). */
  private readonly spares = new Set<HeldRoom>();

  constructor(private readonly options: SessionPoolOptions) {}

  /** A conversation's session: `openAgentSession` is called each time an agent session is needed. */
  session(agentKey: string, openAgentSession: () => AgentSession, conversationId?: string): AgentSession {
    return new PooledSession(this, agentKey, openAgentSession, conversationId);
  }

  get openCount(): number {
    return this.open.size;
  }

  /** How many sessions of this agent are open. */
  openOf(agentKey: string): number {
    return this.openByAgent.get(agentKey) ?? 0;
  }

  get spareCount(): number {
    return this.spares.size;
  }

  /**
   * Room for a conversation's session resumed ahead of its next turn (after a window reload), held as a spare's
   * is (and the first to go when a conversation needs room); and, as an idle session, it keeps its agent in use
   * and is closed after `idleMs` unless its conversation took it first (`free`). Its own conversation's turn takes
   * it, and with it its room: that turn evicts nothing.
   */
  holdAhead(agentKey: string, conversationId: string, evict: () => void): SpareSlot | undefined {
    let timer: NodeJS.Timeout | undefined;
    let held = true;
    const letGo = (): boolean => {
      if (!held) return false;
      held = false;
      clearTimeout(timer);
      this.used(agentKey, -1);
      return true;
    };
    const slot = this.holdSpare(
      agentKey,
      () => {
        if (letGo()) evict();
      },
      conversationId,
    );
    if (slot === undefined) return undefined;
    this.used(agentKey, +1);
    timer = setTimeout(() => {
      slot.free();
      if (letGo()) evict();
    }, this.options.idleMs).unref();
    return {
      free: () => {
        slot.free();
        letGo();
      },
    };
  }

  /**
   * Room for one spare session of an agent; `evict` closes the spare when a conversation needs the room. A
   * full pool makes room as for a new conversation, by closing its least recently used idle session (whose
   * conversation resumes it when it goes on), never a busy one or another agent's spare: undefined when it
   * cannot. A spare keeps no agent in use: it goes with its agent when the agent idles out.
   */
  holdSpare(agentKey: string, evict: () => void, conversationId?: string): SpareSlot | undefined {
    this.releaseIdle();
    if (this.full()) return undefined;
    const held: HeldRoom = { agentKey, evict, conversationId };
    this.spares.add(held);
    return { free: () => this.spares.delete(held) };
  }

  /**
   * `session` starts a turn: it becomes the most recently used, making room for it if it was closed. The
   * room comes from other agents' spares first, then from the least recently used idle sessions, and last
   * from its own agent's spare, which a new conversation takes rather than opening a session.
   */
  admit(session: PooledSession, wasOpen: boolean): void {
    this.open.delete(session);
    if (!wasOpen) {
      // A conversation whose session was resumed ahead brings its room along: its turn takes that session.
      const resumedAhead = session.conversationId !== undefined && [...this.spares].some((spare) => spare.conversationId === session.conversationId);
      if (!resumedAhead) {
        this.evictSpares((spare) => spare.agentKey !== session.agentKey);
        this.releaseIdle();
        this.evictSpares(() => true);
      }
      this.used(session.agentKey, +1);
    }
    this.open.add(session);
  }

  /** One more (or one less) session keeps the agent in use; the agent is told when it has none, or one again. */
  private used(agentKey: string, change: 1 | -1): void {
    const count = (this.openByAgent.get(agentKey) ?? 0) + change;
    if (count > 0) this.openByAgent.set(agentKey, count);
    else this.openByAgent.delete(agentKey);
    if (change === 1 && count === 1) this.options.onAgentIdle?.(agentKey, false);
    if (change === -1 && count === 0) this.options.onAgentIdle?.(agentKey, true);
  }

  /** Closes the least recently used idle sessions while one more would be over `maxOpen`. */
  private releaseIdle(): void {
    for (const candidate of this.open) {
      if (!this.full()) return;
      // A turn paused on the consumer (a tool call or permission just shown) is the conversation's open exchange.
      if (!candidate.busy && !candidate.awaitingConsumer) candidate.release();
    }
  }

  /** One more session would be over `maxOpen`. */
  private full(): boolean {
    return this.open.size + this.spares.size >= this.options.maxOpen;
  }

  private evictSpares(which: (spare: HeldRoom) => boolean): void {
    for (const spare of [...this.spares]) {
      if (!this.full()) return;
      if (!which(spare)) continue;
      this.spares.delete(spare);
      spare.evict();
    }
  }

  /** `session` closed its agent session. */
  released(session: PooledSession): void {
    if (this.open.delete(session)) this.used(session.agentKey, -1);
  }

  get idleMs(): number {
    return this.options.idleMs;
  }
}

/** Room a session opened ahead holds: a spare's, or a conversation's resumed ahead. */
interface HeldRoom {
  readonly agentKey: string;
  readonly evict: () => void;
  readonly conversationId: string | undefined;
}

class PooledSession implements AgentSession {
  private inner: AgentSession | undefined;
  private turns = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: SessionPool,
    readonly agentKey: string,
    private readonly openAgentSession: () => AgentSession,
    readonly conversationId: string | undefined,
  ) {}

  get busy(): boolean {
    return this.turns > 0;
  }

  get awaitingConsumer(): boolean {
    return this.inner?.awaitingConsumer === true;
  }

  turn(input: TurnInput): Observable<ResponsePart> {
    return defer(() => {
      clearTimeout(this.idleTimer);
      this.pool.admit(this, this.inner !== undefined);
      const inner = (this.inner ??= this.openAgentSession());
      this.turns++;
      return inner.turn(input).pipe(finalize(() => this.turnEnded()));
    });
  }

  /**
   * Once its last turn ended the session idles, closed after the pool's idle time. The timer is made here:
   * a closure made in `turn` would hold the turn's input, its whole history, for as long as it waits.
   */
  private turnEnded(): void {
    if (--this.turns > 0) return;
    this.idleTimer = setTimeout(() => this.release(), this.pool.idleMs);
    this.idleTimer.unref();
  }

  /** Closes the agent session; the next turn opens another. */
  release(): void {
    clearTimeout(this.idleTimer);
    const inner = this.inner;
    if (inner === undefined) return;
    this.inner = undefined;
    inner.close();
    this.pool.released(this);
  }

  close(): void {
    this.release();
  }
}
