import { CancellationTokenSource, ErrorCodes, ResponseError, type MessageConnection } from 'vscode-jsonrpc/node.js';
import type { Logger } from '../log/logger.js';
import { decodeOrThrow } from '../protocol/decode.js';
import { AskQuestionsResult, type AskQuestionsParams } from '../protocol/messages.js';
import type { AskPerson } from '../tools/consumer-questions.js';
import { Methods } from '../protocol/methods.js';

/**
 * Questions asked through the client's own prompts (`symposium/askQuestions`: the extension's quick picks),
 * for chats that cannot ask (Ask mode, Cline). Undefined when the client cannot (the CLI does not serve the
 * method; it is not asked again) or fails; a withdrawn question is cancelled in the client too.
 */
export function askQuestionsOf(connection: MessageConnection, log: Logger): AskPerson {
  let served = true;
  return async (agent, questions, signal) => {
    if (!served || signal.aborted) return undefined;
    const cancel = new CancellationTokenSource();
    const withdraw = () => cancel.cancel();
    signal.addEventListener('abort', withdraw, { once: true });
    try {
      const raw: unknown = await connection.sendRequest(Methods.askQuestions, { agent, questions: [...questions] } satisfies AskQuestionsParams, cancel.token);
      return JSON.stringify(decodeOrThrow(AskQuestionsResult, raw, 'result'));
    } catch (error) {
      if (error instanceof ResponseError && error.code === ErrorCodes.MethodNotFound) served = false;
      else if (!signal.aborted) log.warn(`the client could not ask the person ${agent}'s questions (${error instanceof Error ? error.message : String(error)})`);
      return undefined;
    } finally {
      signal.removeEventListener('abort', withdraw);
      cancel.dispose();
    }
  };
}
