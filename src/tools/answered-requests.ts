import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isJSONRPCErrorResponse, isJSONRPCResultResponse } from '@modelcontextprotocol/sdk/types.js';

/** What of the SDK's web-standard transport this reads: its map of open responses, and which request each answers. */
interface TransportInternals {
  readonly _streamMapping: Map<string, { readonly resolveJson?: unknown; cleanup(): void }>;
  readonly _requestToStreamMapping: Map<string | number, string>;
}

/**
 * Lets go of each request's response once it is answered. The MCP SDK (1.32, in JSON response mode) keeps
 * every answered POST's entry in the transport's map of open responses, with the resolved Response and its
 * body, until the MCP session closes (modelcontextprotocol/typescript-sdk#2559): every tool result an agent
 * was sent stayed on the bridge's heap, a command's 50 MB output among them. Once a response settles its
 * request (the SDK then forgets which stream the request's id answers on), its entry is cleaned up as the
 * SDK's own SSE path does. Where the SDK's internals are not as read here, nothing is changed.
 */
export function releaseAnsweredRequests(transport: StreamableHTTPServerTransport): void {
  const internals = internalsOf(transport);
  if (internals === undefined) return;
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    const id = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message) ? message.id : undefined;
    const streamId = id === undefined ? undefined : internals._requestToStreamMapping.get(id);
    await send(message, options);
    if (id === undefined || streamId === undefined || internals._requestToStreamMapping.has(id)) return;
    const entry = internals._streamMapping.get(streamId);
    if (entry?.resolveJson !== undefined) entry.cleanup();
  };
}

function internalsOf(transport: StreamableHTTPServerTransport): TransportInternals | undefined {
  const inner: unknown = (transport as unknown as { _webStandardTransport?: unknown })._webStandardTransport;
  if (typeof inner !== 'object' || inner === null) return undefined;
  const { _streamMapping, _requestToStreamMapping } = inner as Partial<Record<keyof TransportInternals, unknown>>;
  return _streamMapping instanceof Map && _requestToStreamMapping instanceof Map ? (inner as TransportInternals) : undefined;
}
