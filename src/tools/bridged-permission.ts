import type { ToolCallUpdate } from '@agentclientprotocol/sdk';
import { BRIDGED_TOOLS_SERVER_NAME } from './bridged-tools-server.js';

const PREFIX = `mcp__${BRIDGED_TOOLS_SERVER_NAME}__`;

/**
 * Whether a permission request is for one of the bridged VS Code tools offered now. Those are approved
 * without asking: VS Code confirms its own tools when the call reaches it, and asking twice is wrong.
 * Only the agent's structured tool name counts (`_meta.claudeCode.toolName`); a title is free text that
 * anything may imitate. Anything not clearly one of them still goes to the user.
 */
export function isBridgedToolPermission(toolCall: ToolCallUpdate, offered: readonly string[]): boolean {
  const meta = (toolCall._meta as { claudeCode?: { toolName?: unknown } } | null | undefined)?.claudeCode;
  const toolName = meta?.toolName;
  return typeof toolName === 'string' && toolName.startsWith(PREFIX) && offered.includes(toolName.slice(PREFIX.length));
}
