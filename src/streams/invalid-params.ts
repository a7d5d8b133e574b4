import { ErrorCodes, ResponseError } from 'vscode-jsonrpc/node.js';
import { DecodeError } from '../protocol/decode.js';

/** Runs a decode, turning a DecodeError into the JSON-RPC InvalidParams error that names the field. */
export function invalidParams<A>(decode: () => A): A {
  try {
    return decode();
  } catch (error) {
    if (error instanceof DecodeError) throw new ResponseError(ErrorCodes.InvalidParams, `Invalid params: ${error.message}`);
    throw error;
  }
}
