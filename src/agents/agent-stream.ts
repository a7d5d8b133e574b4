import type { Observable } from 'rxjs';
import type { ResponsePart, SessionConfig, ToolDefinition } from '../protocol/messages.js';
import type { ForwardedMessage } from '../history/context-policy.js';
import type { RecentAgentSession } from '../state/conversation-store.js';
import type { ConsumerMode } from '../history/consumer-mode.js';
import type { GoingBack } from '../history/conversations.js';
import type { AgentSessions } from './agent-sessions.js';

/** What one request asks of a conversation's agent session. */
export interface TurnInput {
  /**
   * Messages the session has not seen, as the context policy lets them reach the agent: the first turn of a
   * conversation carries its whole history, unless the conversation went back to a point of another (`goesBack`):
   * then what follows that point, the history before it being `history`'s.
   */
  readonly newMessages: readonly ForwardedMessage[];
  /**
   * The request's whole history, which `newMessages` ends. A session that has not seen what comes
   * before `newMessages` (a new session for a conversation that started elsewhere or earlier) is told it.
   */
  readonly history: readonly ForwardedMessage[];
  /** The consumer discarded the previous provisional exchange: forget it (and stop any work on it). */
  readonly canceled: boolean;
  /** With `canceled`: only the reply was discarded; the user messages it answered are still said. */
  readonly askedKept: boolean;
  /** Tools the consumer offers in this request. */
  readonly tools: readonly ToolDefinition[];
  /** Session config options to set first, by config id (the model picked). */
  readonly config: SessionConfig;
  /** The mode of the consumer's chat (Copilot's Ask and Plan), which an agent with modes of its own follows. */
  readonly mode: ConsumerMode;
  /** Where this turn was asked (a digest of the history): the agent keeps where it can be forked after its answer under it. */
  readonly turnKey: string;
  /** The conversation went back to the point after another one's answer (see TurnPlan): its session starts from there. */
  readonly goesBack: GoingBack | undefined;
}

/**
 * One conversation's session with an agent. `turn` returns the parts of the response to one request:
 * subscribing starts (or resumes) the work, completion ends this response, and unsubscribing before
 * completion cancels whatever the agent is doing for it. This is the whole contract between the
 * pipeline and an agent, so alternate agents plug in without touching the operators.
 */
export interface AgentSession {
  turn(input: TurnInput): Observable<ResponsePart>;
  /** Ends the session for good, releasing what it holds. */
  close(): void;
  /** The agent's turn waits on the consumer (a permission, a tool call shown in the last response). */
  readonly awaitingConsumer?: boolean;
}

/** Opens sessions of one kind of agent; one instance serves all conversations with that agent. */
export interface AgentStream {
  openSession(conversationId: string): AgentSession;
  /**
   * Gets the agent ready before its first conversation (its model was picked): starts it, and opens a
   * spare session where it can. Agents with nothing to prepare do not have it.
   */
  prepare?(): void;
  /**
   * These conversations, used lately (latest first), will likely go on soon (a window was reloaded): the agent
   * starts and resumes their sessions ahead, as far as there is room. Agents with nothing to resume do not have it.
   */
  resumeAhead?(conversations: readonly RecentAgentSession[]): void;
  /** ACP `authenticate` with one of the agent's methods; agents without sign-in do not have it. */
  authenticate?(methodId: string): Promise<void>;
  /** The agent's own sessions, to list, delete, continue; agents that keep none do not have them. */
  readonly sessions?: AgentSessions;
  /** Ends every session and whatever process backs them. */
  dispose(): void;
}
