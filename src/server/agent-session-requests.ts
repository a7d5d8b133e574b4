import { randomUUID } from 'node:crypto';
import { ResponseError, type MessageConnection } from 'vscode-jsonrpc/node.js';
import type { AgentRegistry } from '../agents/registry/agent-registry.js';
import type { AgentSessions } from '../agents/agent-sessions.js';
import type { Logger } from '../log/logger.js';
import { decodeOrThrow } from '../protocol/decode.js';
import { ProtocolErrorCodes } from '../protocol/errors.js';
import { Methods } from '../protocol/methods.js';
import type { AgentDefinition } from '../protocol/messages.js';
import {
  ContinueAgentSessionParams,
  DeleteAgentSessionParams,
  ListAgentSessionsParams,
  type ContinueAgentSessionResult,
  type ListAgentSessionsResult,
} from '../protocol/agent-sessions.js';
import type { ConversationStore } from '../state/conversation-store.js';
import { invalidParams } from '../streams/invalid-params.js';
import { shownExchanges } from '../history/shown-exchanges.js';
import { shownHistoryLinks } from '../history/shown-history.js';

/**
 * Serves the client's requests for an agent's own sessions: the list, a delete, and continuing one in a new chat.
 * Continuing records a new conversation in the index as bound to that session and ending where the chat that shows
 * the answered exchanges ends: the chat's next request is found there, like a conversation's after a restart, and
 * its agent resumes the session (see AcpAgent.open). An agent's failure is an AgentFailed error whose message is a
 * sentence for the person. The session then resumes ahead of the chat's first message (`AcpAgent.resumeAhead`), with
 * the tools the agent was last offered in this workspace.
 */
export function serveAgentSessions(connection: MessageConnection, agents: AgentRegistry, store: ConversationStore, log: Logger): void {
  connection.onRequest(Methods.listAgentSessions, async (raw: unknown): Promise<ListAgentSessionsResult> => {
    const { agent } = invalidParams(() => decodeOrThrow(ListAgentSessionsParams, raw));
    const sessions = agents.sessionsOf(agent);
    if (sessions === undefined) return { listed: false, deletes: false, sessions: [], why: `${nameOf(agent)} keeps no sessions of its own.` };
    return agentFailure(() => sessions.list());
  });
  connection.onRequest(Methods.deleteAgentSession, async (raw: unknown): Promise<Record<string, never>> => {
    const { agent, sessionId } = invalidParams(() => decodeOrThrow(DeleteAgentSessionParams, raw));
    await agentFailure(() => ownSessions(agent).delete(sessionId));
    return {};
  });
  connection.onRequest(Methods.continueAgentSession, async (raw: unknown): Promise<ContinueAgentSessionResult> => {
    const { agent, sessionId } = invalidParams(() => decodeOrThrow(ContinueAgentSessionParams, raw));
    const continued = await agentFailure(() => ownSessions(agent).continue(sessionId));
    const exchanges = shownExchanges(nameOf(agent), continued.exchanges);
    const links = shownHistoryLinks(agents.keyOf(agent), exchanges);
    if (links === undefined) throw new ResponseError(ProtocolErrorCodes.AgentFailed, `This session of ${nameOf(agent)} holds no exchange a chat can show: start a new chat instead.`);
    const conversationId = randomUUID();
    store.rememberAgentSession(conversationId, continued.indexKey, sessionId, continued.workspace);
    store.rememberLink(conversationId, links.end);
    const point = continued.forkPoint(links.lastTurnKey);
    if (point !== undefined) store.rememberForkPoint(conversationId, point);
    log.info(`conversation ${conversationId} continues ACP session ${sessionId} of ${nameOf(agent)} in a new chat (${exchanges.length} exchange(s) shown)`);
    // While the person reads the chat, its session resumes ahead of its first message, as a restored chat's does.
    agents.resumeRecent([agent], [{ conversationId, agent: continued.indexKey, agentSession: sessionId, usedAt: Date.now() }], 1);
    return { exchanges };
  });

  function ownSessions(agent: AgentDefinition): AgentSessions {
    const sessions = agents.sessionsOf(agent);
    if (sessions === undefined) throw new ResponseError(ProtocolErrorCodes.AgentFailed, `${nameOf(agent)} keeps no sessions of its own.`);
    return sessions;
  }
}

function nameOf(agent: AgentDefinition): string {
  return 'eliza' in agent ? 'Eliza' : agent.mcp_server.name;
}

async function agentFailure<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ResponseError) throw error;
    throw new ResponseError(ProtocolErrorCodes.AgentFailed, error instanceof Error ? error.message : String(error));
  }
}
