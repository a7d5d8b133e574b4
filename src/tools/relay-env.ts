/** Environment through which the bridge hands `mcp-relay` its server; kept out of argv, which `ps` shows. */
export const RELAY_URL_ENV = 'SYMPOSIUM_MCP_URL';
export const RELAY_AUTHORIZATION_ENV = 'SYMPOSIUM_MCP_AUTHORIZATION';
