import type { EventQueue } from '../updates/event-queue.js';
import type { AcpTurnEvent } from '../updates/turn-events.js';
import type { AuthFailureAnswer } from '../answers/auth-failure.js';
import type { BridgedCallArrivals } from './bridged-call-arrivals.js';
import type { OpenedSession } from './opened-session.js';
import type { VsCodeAnswers } from './vscode-answers.js';

/** One `session/prompt` and what it is waiting on. */
export interface Prompt {
  readonly events: EventQueue<AcpTurnEvent>;
  readonly pending: VsCodeAnswers;
  /** Its bridged tool calls the agent announced, and how many arrived. */
  readonly arrivals: BridgedCallArrivals;
  readonly opened: OpenedSession;
  /** running: a response is streaming it; paused: waiting on VS Code for permissions; cancelling: told to stop. */
  state: 'running' | 'paused' | 'cancelling';
  /**
   * The agent answered the prompt. It stays the session's prompt until a response has read its stop: one that ended
   * on the agent's plan (a call nothing of the agent waits for) leaves what came after it to the next.
   */
  finished: boolean;
  /** The last response put its stop back, with what came after its plan. */
  stopHeld: boolean;
  /** The permission requests and tool calls the last response put back: VS Code has not been shown them yet. */
  readonly heldBack: Set<string>;
  /** Settles when the agent answered the prompt (or the process died). */
  readonly ended: Promise<void>;
  /** Aborted when the bridge tells the agent to stop: what it asks of the person outside the response is withdrawn. */
  readonly stopping: AbortController;
  /** Its answer, as far as it could be only a failed sign-in. */
  readonly answer: AuthFailureAnswer;
}
