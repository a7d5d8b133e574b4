import type * as acp from '@agentclientprotocol/sdk';
import { BRIDGED_TOOLS_SERVER_NAME, type BridgedToolsServer } from '../../tools/bridged-tools-server.js';
import { RELAY_AUTHORIZATION_ENV, RELAY_URL_ENV } from '../../tools/relay-env.js';

/**
 * The bridged tools as the agent can reach them: over HTTP if it can, else through our stdio relay (`relay`, run
 * with `mcp-relay`), a process of its own, which is worth starting only once there are tools to offer.
 */
export function bridgedMcpServer(tools: BridgedToolsServer, init: acp.InitializeResponse, relay: { readonly command: string; readonly args: readonly string[] }): acp.McpServer | undefined {
  if (init.agentCapabilities?.mcpCapabilities?.http === true) {
    return { type: 'http', name: BRIDGED_TOOLS_SERVER_NAME, url: tools.url, headers: [{ name: 'Authorization', value: tools.authorization }] };
  }
  if (tools.toolNames.length === 0) return undefined;
  const { command, args } = relay;
  const env = [
    { name: RELAY_URL_ENV, value: tools.url },
    { name: RELAY_AUTHORIZATION_ENV, value: tools.authorization },
  ];
  // In desktop VS Code our runtime is Electron, which runs as Node only when told so.
  if (process.versions.electron !== undefined) env.push({ name: 'ELECTRON_RUN_AS_NODE', value: '1' });
  return { name: BRIDGED_TOOLS_SERVER_NAME, command, args: [...args, 'mcp-relay'], env };
}
