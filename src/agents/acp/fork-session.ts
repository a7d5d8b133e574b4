import type * as acp from '@agentclientprotocol/sdk';
import type { Logger } from '../../log/logger.js';
import type { GoingBack } from '../../history/conversations.js';
import type { AgentSessionIndex } from '../../state/conversation-store.js';
import type { AgentProcess } from './process/agent-process.js';
import { checkNewSession } from './answers/agent-answers.js';
import { isAuthFailure } from './answers/auth-failure.js';
import { forkPointMeta } from './session/answer-ends.js';

/** `session/fork` (unstable in ACP; the SDK's stable methods do not list it yet). */
const SESSION_FORK = 'session/fork';

/**
 * The agents known to fork at the point `_meta.jetbrains.air.fork` names (JetBrains AIR's fork point, no part of
 * ACP): claude-agent-acp 0.100 (`dist/fork-session.js`: up to that message) and codex-acp 2.6 (`resolveForkTurnId`:
 * through the turn of that message). OpenCode 1.18 declares `fork` too but forks the whole session
 * (`session.fork({sessionID})`, the point ignored), which would hold what the person took back: an agent not
 * known to read the point is told the transcript instead.
 */
const FORKS_AT_THE_POINT: ReadonlySet<string> = new Set(['@agentclientprotocol/claude-agent-acp', '@agentclientprotocol/codex-acp']);

/** What forking needs of the agent it runs on. */
export interface ForkHost {
  readonly name: string;
  readonly log: Logger;
  readonly agentSessions: AgentSessionIndex;
  /** Sends an opening request as its startup steps are sent: failing clearly when the agent exits or does not answer. */
  step<T>(process: AgentProcess, step: string, request: Promise<T>): Promise<T>;
}

/**
 * Going back (a restored checkpoint, an edited or retried request): the conversation that went back to the point
 * after another's answer opens its ACP session as a fork of that one's, cut after that answer, so that the agent
 * keeps its own context of the turns before (files read, tool results, thinking) and nothing after. It forks where
 * the agent declares `sessionCapabilities.fork` and the point is known (the agent named its messages, see
 * session/answer-ends.ts); ACP offers no resume or load at a point. Otherwise, or when the agent refuses, this is
 * undefined and the reason logged: the conversation opens a new session, told the transcript up to that point.
 */
export async function forkAtPoint(
  host: ForkHost,
  conversationId: string,
  goesBack: GoingBack,
  process: AgentProcess,
  init: acp.InitializeResponse,
  params: { readonly cwd: string; readonly mcpServers: acp.McpServer[]; readonly _meta?: Record<string, unknown> },
): Promise<acp.NewSessionResponse | undefined> {
  const told = (why: string): undefined => {
    host.log.info(`agent ${host.name}: conversation ${conversationId} went back (${goesBack.why}) to a point of conversation ${goesBack.conversationId}, but ${why}: it goes on in a new session, told the conversation up to that point`);
    return undefined;
  };
  // Not in the SDK's stable types yet: read as what the agent sent.
  const capabilities = init.agentCapabilities?.sessionCapabilities as Record<string, unknown> | null | undefined;
  if (capabilities?.['fork'] == null) return told('the agent cannot fork sessions');
  if (!FORKS_AT_THE_POINT.has(init.agentInfo?.name ?? '')) return told(`the agent (${init.agentInfo?.name ?? 'unnamed'}) is not known to fork at a point, only its whole session`);
  const point = host.agentSessions.forkPointOf(goesBack.conversationId, goesBack.turnKey);
  if (point === undefined) return told('the agent named no point after that answer (it sent no message ids, or the point is too old)');
  try {
    const request = process.connection.agent.request(SESSION_FORK, { sessionId: point.session, ...params, _meta: { ...params._meta, ...forkPointMeta(point) } });
    const response = await host.step(process, SESSION_FORK, request.then((raw: unknown) => checkNewSession(host.name, raw)));
    host.log.info(`agent ${host.name}: conversation ${conversationId} went back (${goesBack.why}): ACP session ${response.sessionId}, forked from ${point.session} after message ${point.message}`);
    return response;
  } catch (error) {
    if (!process.alive || isAuthFailure(error)) throw error;
    return told(`session/fork of ${point.session} failed (${error instanceof Error ? error.message : String(error)})`);
  }
}
