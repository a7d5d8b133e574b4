import * as acp from '@agentclientprotocol/sdk';
import { MalformedAnswerError } from '../answers/agent-answers.js';
import type { AgentProcess } from './agent-process.js';

/**
 * A startup request (`initialize`, `session/new`, a resume) that fails clearly when the agent exits or does not
 * answer within `timeoutMs`: then the process is ended, as an agent that hangs while starting is of no use.
 */
export function startupStep<T>(name: string, timeoutMs: number, process: AgentProcess, step: string, request: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      process.kill();
      reject(new Error(`Agent "${name}" did not answer ${step} within ${timeoutMs / 1000} s.`));
    }, timeoutMs);
  });
  const answered = request.catch(async (error: unknown): Promise<never> => {
    throw error instanceof acp.RequestError || error instanceof MalformedAnswerError ? error : await process.explain(error, step);
  });
  const exit = process.ended.then((how): never => {
    throw new Error(`Agent "${name}" ${process.describe(how, step)}`);
  });
  return Promise.race([answered, timeout, exit]).finally(() => clearTimeout(timer));
}
