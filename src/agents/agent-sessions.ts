import type { ListAgentSessionsResult } from '../protocol/agent-sessions.js';
import type { ForkPoint } from '../state/conversation-store.js';

/** One request of the person and the agent's answer, as an agent's session holds them (its replay). */
export interface SessionExchange {
  readonly request: string;
  readonly response: string;
}

/** An agent's own session, opened so that a new chat goes on in it. */
export interface ContinuedSession {
  /** Every exchange the session holds, oldest first. */
  readonly exchanges: readonly SessionExchange[];
  /** Which agent it is in the index of conversations, and the folder its sessions run in. */
  readonly indexKey: string;
  readonly workspace: string;
  /** Where the session can be forked after its last answer (to go back to it), that turn being `turnKey`; none if the agent names no messages. */
  forkPoint(turnKey: string): ForkPoint | undefined;
}

/** An agent's own sessions (ACP `session/list`, `delete`, `load`): agents that keep none do not have them. */
export interface AgentSessions {
  list(): Promise<ListAgentSessionsResult>;
  delete(sessionId: string): Promise<void>;
  /** Opens the session to continue it: fails with a sentence for the person when the agent no longer has it. */
  continue(sessionId: string): Promise<ContinuedSession>;
}
