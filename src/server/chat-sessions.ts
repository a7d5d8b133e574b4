import type { AgentDefinition, ChatSession, ChatSessionsParams } from '../protocol/messages.js';
import type { RecentAgentSession } from '../state/conversation-store.js';

/**
 * `symposium/chatSessions`: of the conversations used in the workspace (latest first, as the index gives them), those
 * of one of `params.agents`, each named by its agent's place in that list, at most `params.limit`.
 */
export function chatSessionsOf(params: ChatSessionsParams, recent: readonly RecentAgentSession[], cwd: string, indexKeysOf: (agent: AgentDefinition) => readonly string[]): ChatSession[] {
  const agentOfKey = new Map<string, number>();
  params.agents.forEach((agent, index) => {
    for (const key of indexKeysOf(agent)) if (!agentOfKey.has(key)) agentOfKey.set(key, index);
  });
  const sessions: ChatSession[] = [];
  for (const conversation of recent) {
    if (sessions.length >= params.limit) break;
    const agent = agentOfKey.get(conversation.agent);
    if (agent === undefined) continue;
    sessions.push({ agent, session: conversation.agentSession, cwd, usedAt: conversation.usedAt, ...(conversation.title === undefined ? {} : { title: conversation.title }) });
  }
  return sessions;
}
