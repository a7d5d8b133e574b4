/**
 * `isBridgedToolPermission`: which of an agent's permission requests are for a bridged VS Code tool
 * offered now (approved by the bridge, since VS Code confirms its own tools) and which go to the user.
 */
import type { ToolCallUpdate } from '@agentclientprotocol/sdk';
import { isBridgedToolPermission } from '../../src/tools/bridged-permission.js';

const OFFERED = ['search_workspace', 'read_file'];

/** A permission request's tool call as Claude Code sends it: the MCP tool's full name in `_meta`. */
const claudeCall = (toolName: string, title = 'Search the workspace'): ToolCallUpdate => ({
  toolCallId: 'toolu_1',
  title,
  _meta: { claudeCode: { toolName } },
});

describe('isBridgedToolPermission', () => {
  test('a call of an offered bridged tool, named in _meta.claudeCode.toolName', () => {
    expect(isBridgedToolPermission(claudeCall('mcp__vscode-tools__search_workspace'), OFFERED)).toBe(true);
    expect(isBridgedToolPermission(claudeCall('mcp__vscode-tools__read_file'), OFFERED)).toBe(true);
  });

  test('the meta name wins over a title that looks bridged', () => {
    expect(isBridgedToolPermission(claudeCall('Bash', 'mcp__vscode-tools__search_workspace'), OFFERED)).toBe(false);
  });

  test('a title alone never counts: it is free text that anything may imitate', () => {
    expect(isBridgedToolPermission({ toolCallId: 't', title: 'mcp__vscode-tools__search_workspace' }, OFFERED)).toBe(false);
    expect(isBridgedToolPermission({ toolCallId: 't', title: 'mcp__vscode-tools__search_workspace', _meta: null }, OFFERED)).toBe(false);
    expect(isBridgedToolPermission({ toolCallId: 't', title: 'mcp__vscode-tools__search_workspace', _meta: { claudeCode: { toolName: 42 } } }, OFFERED)).toBe(false);
    expect(isBridgedToolPermission({ toolCallId: 't', title: 'Run rm -rf build' }, OFFERED)).toBe(false);
    expect(isBridgedToolPermission({ toolCallId: 't' }, OFFERED)).toBe(false);
  });

  test('a tool of another MCP server goes to the user, even with the same tool name', () => {
    expect(isBridgedToolPermission(claudeCall('mcp__other-server__search_workspace'), OFFERED)).toBe(false);
    expect(isBridgedToolPermission(claudeCall('mcp__vscode-tools-evil__search_workspace'), OFFERED)).toBe(false);
    expect(isBridgedToolPermission(claudeCall('search_workspace'), OFFERED)).toBe(false);
  });

  test('a bridged tool not offered now goes to the user', () => {
    expect(isBridgedToolPermission(claudeCall('mcp__vscode-tools__delete_everything'), OFFERED)).toBe(false);
    expect(isBridgedToolPermission(claudeCall('mcp__vscode-tools__search_workspace'), [])).toBe(false);
    // A prefix of an offered name is not that tool.
    expect(isBridgedToolPermission(claudeCall('mcp__vscode-tools__search'), OFFERED)).toBe(false);
    expect(isBridgedToolPermission(claudeCall('mcp__vscode-tools__'), OFFERED)).toBe(false);
  });
});
