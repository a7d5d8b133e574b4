import type * as acp from '@agentclientprotocol/sdk';
import type { SessionSettings } from './session-settings.js';
import type { Steer } from './steering.js';

/** An ACP session opened on a running agent process. */
export interface OpenedSession {
  readonly sessionId: string;
  /** A new ACP session, which has seen none of the conversation (not one resumed). */
  readonly fresh: boolean;
  /** The session's settings (its model, its mode, …), as far as the bridge tracks them. */
  readonly settings: SessionSettings;
  readonly agent: acp.ClientContext;
  /** `session/prompt` with these blocks; the agent knows a prompt runs in the session until it settles. */
  prompt(blocks: acp.ContentBlock[]): Promise<unknown>;
  /** Words into the prompt that runs, where the agent can be steered (steering.ts). */
  readonly steer?: Steer;
  /** The agent accepts image blocks. */
  readonly images: boolean;
  /** The agent accepts embedded resources (`resource` blocks with their text). */
  readonly embeddedContext: boolean;
  /** A readable account of a failed request: the agent's exit and stderr when it died. */
  explain(error: unknown): Promise<Error>;
}
