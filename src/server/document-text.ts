import { ErrorCodes, ResponseError, type MessageConnection } from 'vscode-jsonrpc/node.js';
import type { Logger } from '../log/logger.js';
import { decodeOrThrow } from '../protocol/decode.js';
import { DocumentTextResult, type DocumentTextParams } from '../protocol/messages.js';
import { Methods } from '../protocol/methods.js';

/**
 * What the client's editor shows of a file (`symposium/documentText`): undefined when no editor has it open,
 * or when the client does not serve the method (the CLI), after which it is not asked again.
 */
export function documentTextOf(connection: MessageConnection, log: Logger): (path: string) => Promise<string | undefined> {
  let served = true;
  return async (path) => {
    if (!served) return undefined;
    try {
      const raw: unknown = await connection.sendRequest(Methods.documentText, { path } satisfies DocumentTextParams);
      return decodeOrThrow(DocumentTextResult, raw, 'result').text ?? undefined;
    } catch (error) {
      if (error instanceof ResponseError && error.code === ErrorCodes.MethodNotFound) served = false;
      else log.warn(`the client could not say what its editor shows of ${path} (${error instanceof Error ? error.message : String(error)}): it is read from disk`);
      return undefined;
    }
  };
}
