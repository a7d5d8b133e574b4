import type { ToolCallUpdate } from '@agentclientprotocol/sdk';

/** What the bridge knows of a permission request: its tool call, the request's `_meta`, and the `tool_call` update that announced it. */
export interface PermissionEvidence {
  readonly toolCall: ToolCallUpdate;
  readonly requestMeta?: Record<string, unknown> | null;
  readonly announced?: ToolCallUpdate;
}

/**
 * Whether a permission request is for a tool of the bridged VS Code tools server: `offered`, one it offers now;
 * `not offered`, one it no longer offers. Both are approved without asking: VS Code confirms its own tools when
 * the call reaches it, and asking twice is wrong; and a tool no longer offered could only be refused, which the
 * server does itself, in words the agent's model reads (a rejected permission reads to it as the person refusing).
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
export function bridgedToolPermission(evidence: PermissionEvidence, server: string, offered: readonly string[]): 'offered' | 'not offered' | undefined {
  if (isServerPermission(evidence, server, offered)) return 'offered';
  return isServerPermission(evidence, server, 'any') ? 'not offered' : undefined;
}

function isServerPermission(evidence: PermissionEvidence, server: string, tools: ToolNames): boolean {
  const { toolCall, announced } = evidence;
  if (namesBridgedTool(toolCall, server, tools) || (announced !== undefined && namesBridgedTool(announced, server, tools))) return true;
  return evidence.requestMeta?.is_mcp_tool_approval === true && announced !== undefined && isCodexBridgedCall(announced, server, tools);
}

/**
 * Whether a `tool_call` update announces a call of a bridged VS Code tool: by the same fields as above,
 * Codex's being the announcement's own marks. Agents announce a call before (or as) they make it, so
 * the bridge knows how many of the calls it is about to receive are on their way.
 */
export function announcesBridgedCall(announcement: ToolCallUpdate, server: string, offered: readonly string[]): boolean {
  return namesBridgedTool(announcement, server, offered) || isCodexBridgedCall(announcement, server, offered);
}

/**
 * Whether a `tool_call` update announces a call of any tool of the bridged tools server, offered now or
 * not, by the same fields: a call that goes to VS Code, which shows it itself.
 */
export function announcesServerCall(announcement: ToolCallUpdate, server: string): boolean {
  return namesBridgedTool(announcement, server, 'any') || isCodexBridgedCall(announcement, server, 'any');
}

/** The names of the offered tools, or 'any' for every tool of the server. */
type ToolNames = readonly string[] | 'any';

const names = (tools: ToolNames, tool: string): boolean => tools === 'any' || tools.includes(tool);

/** Claude Code's and Qwen Code's tool name in `_meta`, or Gemini CLI's tool call id, names an offered tool of the server. */
function namesBridgedTool(call: ToolCallUpdate, server: string, offered: ToolNames): boolean {
  const mcpName = `mcp__${server}__`;
  const meta = record(call._meta);
  for (const name of [record(meta?.claudeCode)?.toolName, meta?.toolName]) {
    if (typeof name === 'string' && name.startsWith(mcpName) && name.length > mcpName.length && names(offered, name.slice(mcpName.length))) return true;
  }
  const geminiPrefix = `mcp_${server}_`;
  if (!call.toolCallId.startsWith(geminiPrefix)) return false;
  const rest = call.toolCallId.slice(geminiPrefix.length);
  return offered === 'any' ? rest !== '' : offered.some((tool) => rest.startsWith(`${tool}_`));
}

/** Codex's announcement of an MCP tool call (`_meta.is_mcp_tool_call`, `rawInput: {server, tool, arguments}`) of an offered tool of the server. */
function isCodexBridgedCall(announced: ToolCallUpdate, server: string, offered: ToolNames): boolean {
  if (record(announced._meta)?.is_mcp_tool_call !== true) return false;
  const input = record(announced.rawInput);
  return input?.server === server && typeof input.tool === 'string' && names(offered, input.tool);
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
