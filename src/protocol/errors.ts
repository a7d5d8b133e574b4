import { ErrorCodes } from 'vscode-jsonrpc/node.js';

/** JSON-RPC error codes of the protocol. `RequestCancelled` is LSP's code for a request the client cancelled. */
export const ProtocolErrorCodes = {
  ParseError: ErrorCodes.ParseError,
  InvalidParams: ErrorCodes.InvalidParams,
  InvalidRequest: ErrorCodes.InvalidRequest,
  InternalError: ErrorCodes.InternalError,
  RequestCancelled: -32800,
  /** The agent behind the model failed: it could not start, crashed, or answered with an error. */
  AgentFailed: -32001,
  /** The request named a tool list (`options.toolListId`) without its tools, and the bridge does not keep it. */
  UnknownToolList: -32002,
} as const;
