import type { ToolCallUpdate } from '@agentclientprotocol/sdk';
import { BRIDGED_TOOLS_SERVER_NAME } from './bridged-tools-server.js';

const PREFIX = `mcp__${BRIDGED_TOOLS_SERVER_NAME}__`;

/**
 * Whether a permission request is for one of the bridged VS Code tools offered now. Those are approved
 * without asking: VS Code confirms its own tools when the call reaches it, and asking twice is wrong.
 * Anything not clearly one of them (another server, an unknown tool) still goes to the user.
 */
export function isBridgedToolPermission(toolCall: ToolCallUpdate, offered: readonly string[]): boolean {
  const meta = (toolCall._meta as { claudeCode?: { toolName?: unknown } } | null | undefined)?.claudeCode;
  const toolName = typeof meta?.toolName === 'string' ? meta.toolName : (toolCall.title ?? '');
  return toolName.startsWith(PREFIX) && offered.includes(toolName.slice(PREFIX.length));
}
