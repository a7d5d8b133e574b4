import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

import { RELAY_AUTHORIZATION_ENV, RELAY_URL_ENV } from './relay-env.js';

/**
 * `symposium-lm mcp-relay`: for agents that speak MCP only over stdio, relays every message between
 * stdin/stdout and the bridge's synthetic HTTP server. Ends when either side closes.
 */
export async function runRelay(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const url = env[RELAY_URL_ENV];
  const authorization = env[RELAY_AUTHORIZATION_ENV];
  if (url === undefined || authorization === undefined) {
    process.stderr.write(`symposium-lm mcp-relay: ${RELAY_URL_ENV} and ${RELAY_AUTHORIZATION_ENV} must be set (the bridge sets them)\n`);
    return 2;
  }
  const upstream = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: authorization } } });
  const local = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    local.onclose = resolve;
    upstream.onclose = resolve;
    // The SDK's stdio transport never notices stdin ending: an agent that exits would leave us behind.
    process.stdin.once('end', resolve);
  });
  const fail = (error: unknown) => process.stderr.write(`symposium-lm mcp-relay: ${String(error)}\n`);
  // A request that cannot be relayed is answered with an error, so the agent does not wait for it.
  local.onmessage = (message) =>
    void upstream.send(message).catch((error: unknown) => {
      fail(error);
      if ('id' in message && 'method' in message) {
        void local.send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: `The bridge's tool server cannot be reached: ${String(error)}` } }).catch(fail);
      }
    });
  upstream.onmessage = (message) => void local.send(message).catch(fail);
  local.onerror = fail;
  upstream.onerror = fail;
  await upstream.start();
  await local.start();
  await closed;
  await upstream.terminateSession().catch(() => {});
  await Promise.allSettled([local.close(), upstream.close()]);
  return 0;
}
