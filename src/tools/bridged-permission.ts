import type { ToolCallUpdate } from '@agentclientprotocol/sdk';

/** What the bridge knows of a permission request: its tool call, the request's `_meta`, and the `tool_call` update that announced it. */
export interface PermissionEvidence {
  readonly toolCall: ToolCallUpdate;
  readonly requestMeta?: Record<string, unknown> | null;
  readonly announced?: ToolCallUpdate;
}

/**
 * Whether a permission request is for one of the bridged VS Code tools offered now. Those are approved
 * without asking: VS Code confirms its own tools when the call reaches it, and asking twice is wrong.
 *
 * The bridge's MCP server has a name unique to the bridge process (`server`), which no other MCP
 * server and no tool of the agent's own carries; a request counts only when a field the agent builds
 * from the tool's identity (never the model's free text, such as a title or a command) names that
 * server and an offered tool:
 *
 * - Claude Code: `_meta.claudeCode.toolName` `mcp__<server>__<tool>`;
 * - Qwen Code: `_meta.toolName` `mcp__<server>__<tool>` (its title is the tool's arguments);
 * - Gemini CLI: the tool call id `mcp_<server>_<tool>_<call>` (kind `other`, title `<tool> (<server> MCP Server)`);
 * - Codex: the request's `_meta.is_mcp_tool_approval`, and the `tool_call` update that announced the
 *   call marked `_meta.is_mcp_tool_call` with `rawInput: {server, tool, arguments}`.
 *
 * Anything not clearly one of them goes to the user.
 */
export function isBridgedToolPermission(evidence: PermissionEvidence, server: string, offered: readonly string[]): boolean {
  const isOffered = (tool: unknown): boolean => typeof tool === 'string' && offered.includes(tool);
  const { toolCall, announced } = evidence;
  const calls = announced === undefined ? [toolCall] : [toolCall, announced];
  const mcpName = `mcp__${server}__`;
  for (const call of calls) {
    const meta = record(call._meta);
    for (const name of [record(meta?.claudeCode)?.toolName, meta?.toolName]) {
      if (typeof name === 'string' && name.startsWith(mcpName) && isOffered(name.slice(mcpName.length))) return true;
    }
  }
  const geminiPrefix = `mcp_${server}_`;
  if (toolCall.toolCallId.startsWith(geminiPrefix)) {
    const rest = toolCall.toolCallId.slice(geminiPrefix.length);
    if (offered.some((tool) => rest.startsWith(`${tool}_`))) return true;
  }
  if (evidence.requestMeta?.is_mcp_tool_approval === true && announced !== undefined && record(announced._meta)?.is_mcp_tool_call === true) {
    const input = record(announced.rawInput);
    if (input?.server === server && isOffered(input.tool)) return true;
  }
  return false;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
