import type * as acp from '@agentclientprotocol/sdk';

/**
 * Whether the agent holds MCP servers per workspace folder rather than per session, as ACP means them.
 * OpenCode (1.18) adds a session's servers to its instance for the folder by name (`mcp.add`): the session
 * opened or loaded last replaces the server of that name for every session in the folder. The bridge's tool
 * server of one conversation (or of a spare) then serves all of them, so the tools each model sees are those
 * of the conversation that opened last, and a call reaches that conversation's server whoever made it.
 */
export function holdsMcpServersPerWorkspace(init: acp.InitializeResponse): boolean {
  return init.agentInfo?.name === 'OpenCode';
}
