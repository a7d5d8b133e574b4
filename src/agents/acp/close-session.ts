import * as acp from '@agentclientprotocol/sdk';
import type { Logger } from '../../log/logger.js';
import type { AgentProcess } from './process/agent-process.js';

/**
 * `session/close` of `sessionId`, where the agent supports it; settles after `timeoutMs` at most: an agent that never
 * answers must not keep the session from opening again. A failure is only logged.
 */
export async function closeSessionRequest(agentName: string, log: Logger, sessionId: string, process: AgentProcess, init: acp.InitializeResponse, timeoutMs: number): Promise<void> {
  if (init.agentCapabilities?.sessionCapabilities?.close == null || !process.alive) return;
  let timer: NodeJS.Timeout | undefined;
  const unanswered = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs).unref()));
  const closed = process.connection.agent.request(acp.methods.agent.session.close, { sessionId }).then(
    () => {},
    (error: unknown) => log.debug(`agent ${agentName}: session/close of ${sessionId} failed: ${String(error)}`),
  );
  await Promise.race([closed, unanswered]).finally(() => clearTimeout(timer));
}
