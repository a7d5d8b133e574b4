import type * as t from 'io-ts';
import { CancellationTokenSource, ErrorCodes, ResponseError, type CancellationToken } from 'vscode-jsonrpc/node.js';
import type { Logger } from '../log/logger.js';
import { decodeOrThrow } from '../protocol/decode.js';
import { AskQuestionsResult, DocumentTextResult, OpenUrlResult, type AskQuestionsParams, type DocumentTextParams, type OpenUrlParams } from '../protocol/messages.js';
import { Methods } from '../protocol/methods.js';
import type { AskPerson } from '../tools/consumer-questions.js';
import type { OpenUrl } from '../agents/acp/session/client-requests.js';

/** Where the bridge's requests of its client go: a connection, or (the agent host) the window a workspace last heard from. */
export interface ClientRequester {
  sendRequest(method: string, params: unknown, token?: CancellationToken): Promise<unknown>;
}

/**
 * What the client's editor shows of a file (`symposium/documentText`): undefined when no editor has it open,
 * or when the client cannot say (the CLI does not serve the method); the disk is read then.
 */
export function documentTextOf(connection: ClientRequester, log: Logger): (path: string) => Promise<string | undefined> {
  const ask = optionalRequest(connection, log, Methods.documentText, DocumentTextResult, ({ path }: DocumentTextParams) => `say what its editor shows of ${path}: it is read from disk`);
  return async (path) => (await ask({ path }))?.text ?? undefined;
}

/**
 * Questions asked through the client's own prompts (`symposium/askQuestions`: the extension's quick picks),
 * for chats that cannot show them (Cline). Undefined when the client cannot; a withdrawn question is
 * cancelled in the client too.
 */
export function askQuestionsOf(connection: ClientRequester, log: Logger): AskPerson {
  const ask = optionalRequest(connection, log, Methods.askQuestions, AskQuestionsResult, ({ agent }: AskQuestionsParams) => `ask the person ${agent}'s questions`);
  return async (agent, questions, signal) => {
    const answers = await withdrawable(signal, (token) => ask({ agent, questions: [...questions] }, token));
    return answers === undefined ? undefined : JSON.stringify(answers);
  };
}

/**
 * A web page an agent names, opened by the client once the person agrees (`symposium/openUrl`: the extension's
 * dialog, then the browser). Undefined when the client cannot ask; a withdrawn request is cancelled in the client too.
 */
export function openUrlOf(connection: ClientRequester, log: Logger): OpenUrl {
  const open = optionalRequest(connection, log, Methods.openUrl, OpenUrlResult, ({ agent }: OpenUrlParams) => `offer the person a web page ${agent} names`);
  return async (agent, message, url, signal) => (await withdrawable(signal, (token) => open({ agent, message, url }, token)))?.opened;
}

/** A request of the client that `signal` withdraws (a JSON-RPC cancellation); never sent once withdrawn. */
async function withdrawable<R>(signal: AbortSignal, send: (token: CancellationToken) => Promise<R | undefined>): Promise<R | undefined> {
  if (signal.aborted) return undefined;
  const cancel = new CancellationTokenSource();
  const withdraw = () => cancel.cancel();
  signal.addEventListener('abort', withdraw, { once: true });
  try {
    return await send(cancel.token);
  } finally {
    signal.removeEventListener('abort', withdraw);
    cancel.dispose();
  }
}

/**
 * A request of the bridge that a client may not serve: after the first "method not found" (the CLI) it is not
 * sent again. Resolves with the decoded result, or undefined when the client did not answer one; a failure
 * other than a cancellation is logged with `what` the client could not do.
 */
function optionalRequest<P, R>(
  connection: ClientRequester,
  log: Logger,
  method: string,
  result: t.Type<R, unknown, unknown>,
  what: (params: P) => string,
): (params: P, token?: CancellationToken) => Promise<R | undefined> {
  let served = true;
  return async (params, token) => {
    if (!served) return undefined;
    try {
      const raw: unknown = await connection.sendRequest(method, params, token);
      return decodeOrThrow(result, raw, 'result');
    } catch (error) {
      if (error instanceof ResponseError && error.code === ErrorCodes.MethodNotFound) served = false;
      else if (token?.isCancellationRequested !== true) log.warn(`the client could not ${what(params)} (${error instanceof Error ? error.message : String(error)})`);
      return undefined;
    }
  };
}
