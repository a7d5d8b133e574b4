/**
 * `bridgedToolPermission`: which of an agent's permission requests are for a bridged VS Code tool
 * offered now (approved by the bridge, since VS Code confirms its own tools), which for one of the bridge's
 * tool server no longer offered (let through to the server, which refuses it), and which go to the user,
 * for each way a real agent marks them (Claude Code, Gemini CLI, Codex, Qwen Code, as observed at the
 * catalogue's versions), and the imitations that must not pass. `announcesBridgedCall`: which
 * `tool_call` announcements are of such a call, by the same marks; `announcesServerCall`: of any tool
 * of the bridge's server.
 */
import type { ToolCallUpdate } from '@agentclientprotocol/sdk';
import { announcesBridgedCall, announcesServerCall, bridgedToolPermission, type PermissionEvidence } from '../../src/tools/bridged-permission.js';

const SERVER = 'vscode-tools-a1b2c3';
const OFFERED = ['search_workspace', 'read_file'];
const bridged = (evidence: PermissionEvidence, offered = OFFERED): ReturnType<typeof bridgedToolPermission> => bridgedToolPermission(evidence, SERVER, offered);

/** Claude Code: the MCP tool's full name in `_meta.claudeCode.toolName`. */
const claude = (toolName: string, title = 'Search the workspace'): PermissionEvidence => ({ toolCall: { toolCallId: 'toolu_1', title, _meta: { claudeCode: { toolName } } } });
/** Qwen Code 0.24: kind other, the arguments as the title, the name in `_meta.toolName`. */
const qwen = (toolName: string): PermissionEvidence => ({ toolCall: { toolCallId: 'c1', kind: 'other', title: '{"query":"x"}', rawInput: { query: 'x' }, _meta: { toolName } } });
/** Gemini CLI 0.61: the tool call id `mcp_<server>_<tool>_…`, kind other, raw_input null. */
const gemini = (toolCallId: string, title = `search_workspace (${SERVER} MCP Server)`): PermissionEvidence => ({ toolCall: { toolCallId, kind: 'other', title, rawInput: null } });
/** codex-acp 2.6: `_meta.is_mcp_tool_approval` on the request, the tool only in the announcing `tool_call`. */
const codex = (announced: ToolCallUpdate | undefined, requestMeta: Record<string, unknown> | null = { is_mcp_tool_approval: true }): PermissionEvidence => ({
  toolCall: { toolCallId: 'c1', kind: 'execute', status: 'pending' },
  requestMeta,
  announced,
});
const codexAnnounced = (server: string, tool: string, meta: Record<string, unknown> = { is_mcp_tool_call: true }): ToolCallUpdate => ({
  toolCallId: 'c1',
  title: `mcp.${server}.${tool}`,
  kind: 'execute',
  rawInput: { server, tool, arguments: { query: 'x' } },
  _meta: meta,
});

describe('bridgedToolPermission', () => {
  test('Claude Code: an offered bridged tool named in _meta.claudeCode.toolName', () => {
    expect(bridged(claude(`mcp__${SERVER}__search_workspace`))).toBe('offered');
    expect(bridged(claude(`mcp__${SERVER}__read_file`))).toBe('offered');
    // The meta name wins over a title that looks bridged.
    expect(bridged(claude('Bash', `mcp__${SERVER}__search_workspace`))).toBe(undefined);
  });

  test('Qwen Code: _meta.toolName, whatever the title', () => {
    expect(bridged(qwen(`mcp__${SERVER}__search_workspace`))).toBe('offered');
    expect(bridged(qwen('run_shell_command'))).toBe(undefined);
  });

  test('Gemini CLI: the tool call id it builds from the server and tool', () => {
    expect(bridged(gemini(`mcp_${SERVER}_search_workspace__mcp_${SERVER}_search_workspace_1795477209507_0`))).toBe('offered');
    expect(bridged(gemini(`mcp_${SERVER}_delete_everything__x_1`))).toBe('not offered');
    // Its shell tool, whatever the command says.
    expect(bridged(gemini('run_shell_command__run_shell_command_1_0', `echo mcp_${SERVER}_search_workspace_`))).toBe(undefined);
  });

  test('Codex: the approval marked as an MCP one, and the announcing tool call naming the server and tool', () => {
    expect(bridged(codex(codexAnnounced(SERVER, 'search_workspace')))).toBe('offered');
    expect(bridged(codex(codexAnnounced(SERVER, 'delete_everything')))).toBe('not offered');
    expect(bridged(codex(codexAnnounced('other-server', 'search_workspace')))).toBe(undefined);
    // Without the approval's mark, its announcement or the announcement's mark, it goes to the user.
    expect(bridged(codex(codexAnnounced(SERVER, 'search_workspace'), null))).toBe(undefined);
    expect(bridged(codex(undefined))).toBe(undefined);
    expect(bridged(codex(codexAnnounced(SERVER, 'search_workspace'), { is_mcp_tool_approval: 'yes' }))).toBe(undefined);
    expect(bridged(codex(codexAnnounced(SERVER, 'search_workspace', {})))).toBe(undefined);
  });

  test('a title alone never counts: it is free text that anything may imitate', () => {
    expect(bridged({ toolCall: { toolCallId: 't', title: `mcp__${SERVER}__search_workspace` } })).toBe(undefined);
    expect(bridged({ toolCall: { toolCallId: 't', title: `mcp.${SERVER}.search_workspace`, _meta: null } })).toBe(undefined);
    expect(bridged({ toolCall: { toolCallId: 't', title: `search_workspace (${SERVER} MCP Server)` } })).toBe(undefined);
    expect(bridged({ toolCall: { toolCallId: 't', title: 'x', _meta: { claudeCode: { toolName: 42 } } } })).toBe(undefined);
    expect(bridged({ toolCall: { toolCallId: 't' } })).toBe(undefined);
  });

  test('a tool of another MCP server goes to the user, even with the same tool name or a name like ours', () => {
    expect(bridged(claude('mcp__other-server__search_workspace'))).toBe(undefined);
    expect(bridged(claude(`mcp__${SERVER}-evil__search_workspace`))).toBe(undefined);
    expect(bridged(claude('mcp__vscode-tools__search_workspace'))).toBe(undefined);
    expect(bridged(qwen('search_workspace'))).toBe(undefined);
    expect(bridged(gemini('mcp_vscode-tools_search_workspace__1'))).toBe(undefined);
  });

  test('a tool of the server not offered now is told apart (never asked of the user: the server refuses it)', () => {
    expect(bridged(claude(`mcp__${SERVER}__delete_everything`))).toBe('not offered');
    expect(bridged(claude(`mcp__${SERVER}__search_workspace`), [])).toBe('not offered');
    // A prefix of an offered name is not that tool; a name with no tool names none.
    expect(bridged(claude(`mcp__${SERVER}__search`))).toBe('not offered');
    expect(bridged(claude(`mcp__${SERVER}__`))).toBe(undefined);
  });
});

describe('announcesBridgedCall', () => {
  const announces = (call: ToolCallUpdate, offered = OFFERED): boolean => announcesBridgedCall(call, SERVER, offered);

  test("each agent's announcement of an offered bridged tool counts", () => {
    expect(announces(claude(`mcp__${SERVER}__search_workspace`).toolCall)).toBe(true);
    expect(announces(qwen(`mcp__${SERVER}__read_file`).toolCall)).toBe(true);
    expect(announces(gemini(`mcp_${SERVER}_search_workspace__mcp_${SERVER}_search_workspace_1795477209507_0`).toolCall)).toBe(true);
    // Codex marks the announcement itself; no permission request is involved.
    expect(announces(codexAnnounced(SERVER, 'search_workspace'))).toBe(true);
  });

  test("the agent's own tools, other servers, tools not offered and titles do not", () => {
    expect(announces(claude('Bash').toolCall)).toBe(false);
    expect(announces(claude(`mcp__${SERVER}__delete_everything`).toolCall)).toBe(false);
    expect(announces(claude('mcp__other-server__search_workspace').toolCall)).toBe(false);
    expect(announces(codexAnnounced('other-server', 'search_workspace'))).toBe(false);
    expect(announces(codexAnnounced(SERVER, 'search_workspace', {}))).toBe(false);
    expect(announces({ toolCallId: 't', title: `mcp__${SERVER}__search_workspace` })).toBe(false);
    expect(announces(claude(`mcp__${SERVER}__search_workspace`).toolCall, [])).toBe(false);
  });
});

describe('announcesServerCall', () => {
  const announces = (call: ToolCallUpdate): boolean => announcesServerCall(call, SERVER);

  test("each agent's announcement of a tool of the bridge's server counts, offered now or not", () => {
    expect(announces(claude(`mcp__${SERVER}__search_workspace`).toolCall)).toBe(true);
    expect(announces(claude(`mcp__${SERVER}__a_tool_offered_before`).toolCall)).toBe(true);
    expect(announces(qwen(`mcp__${SERVER}__read_file`).toolCall)).toBe(true);
    expect(announces(gemini(`mcp_${SERVER}_search_workspace__mcp_${SERVER}_search_workspace_1795477209507_0`).toolCall)).toBe(true);
    expect(announces(codexAnnounced(SERVER, 'search_workspace'))).toBe(true);
  });

  test("the agent's own tools, other servers, bare prefixes and titles do not", () => {
    expect(announces(claude('Bash').toolCall)).toBe(false);
    expect(announces(claude('mcp__other-server__search_workspace').toolCall)).toBe(false);
    expect(announces(claude(`mcp__${SERVER}__`).toolCall)).toBe(false);
    expect(announces(gemini(`mcp_${SERVER}_`).toolCall)).toBe(false);
    expect(announces(codexAnnounced('other-server', 'search_workspace'))).toBe(false);
    expect(announces(codexAnnounced(SERVER, 'search_workspace', {}))).toBe(false);
    expect(announces({ toolCallId: 't', title: `mcp__${SERVER}__search_workspace` })).toBe(false);
  });
});
