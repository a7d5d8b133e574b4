/**
 * The requests through which a client lists an agent's own sessions (ACP `session/list`), deletes one, and
 * continues one in a new chat: io-ts codecs, as the rest of the wire protocol (messages.ts).
 */
import * as t from 'io-ts';
import { AgentDefinition } from './messages.js';

/** A session id as an agent gives it: a non-empty string of bounded length. */
const SessionId = t.refinement(t.string, (s) => s.length > 0 && s.length <= 512, 'a session id (1 to 512 characters)');

/** `symposium/listAgentSessions`: the agent's sessions in the workspace's folders, newest first. */
export const ListAgentSessionsParams = t.type({ agent: AgentDefinition }, 'ListAgentSessionsParams');
export type ListAgentSessionsParams = t.TypeOf<typeof ListAgentSessionsParams>;

/** One of an agent's sessions as `session/list` gave it (`updatedAt` ISO 8601, as the agent wrote it). */
export const AgentSessionInfo = t.intersection(
  [t.type({ sessionId: t.string, cwd: t.string }), t.partial({ title: t.string, updatedAt: t.string })],
  'AgentSessionInfo',
);
export type AgentSessionInfo = t.TypeOf<typeof AgentSessionInfo>;

/**
 * `listed` false: the agent cannot list its sessions (`why` says so in a sentence). `cut`: a sentence saying why
 * the list stops short (the agent did not finish listing within its timeout). `deletes`: the agent offers `session/delete`.
 */
export const ListAgentSessionsResult = t.intersection(
  [t.type({ listed: t.boolean, deletes: t.boolean, sessions: t.array(AgentSessionInfo) }), t.partial({ why: t.string, cut: t.string })],
  'ListAgentSessionsResult',
);
export type ListAgentSessionsResult = t.TypeOf<typeof ListAgentSessionsResult>;

/** `symposium/deleteAgentSession`: ACP `session/delete` of one of the agent's sessions. */
export const DeleteAgentSessionParams = t.type({ agent: AgentDefinition, sessionId: SessionId }, 'DeleteAgentSessionParams');
export type DeleteAgentSessionParams = t.TypeOf<typeof DeleteAgentSessionParams>;

/**
 * `symposium/continueAgentSession`: the bridge opens the session in its agent and answers the exchanges a new chat
 * shows of it; the next request of a chat that shows exactly those (then new words) goes on in that session.
 */
export const ContinueAgentSessionParams = t.type({ agent: AgentDefinition, sessionId: SessionId }, 'ContinueAgentSessionParams');
export type ContinueAgentSessionParams = t.TypeOf<typeof ContinueAgentSessionParams>;

/** One request of the person and the agent's answer to it, as the chat shows them (VS Code's `previousRequests`). */
export const ShownExchange = t.type({ request: t.string, response: t.string }, 'ShownExchange');
export type ShownExchange = t.TypeOf<typeof ShownExchange>;

export const ContinueAgentSessionResult = t.type({ exchanges: t.array(ShownExchange) }, 'ContinueAgentSessionResult');
export type ContinueAgentSessionResult = t.TypeOf<typeof ContinueAgentSessionResult>;
