import { offersEditTools } from '../../../tools/consumer-edits.js';

/** Claude Code's own tools that write files: they write the disk directly, out of VS Code's sight. */
const CLAUDE_CODE_WRITE_TOOLS = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'];

/**
 * What a new session is told so that an agent that writes files by itself edits through the consumer's
 * edit tools instead, where the consumer offers them (they reach it over the bridge's MCP server): Claude
 * Code takes `_meta.claudeCode.options.disallowedTools` in `session/new` and adds them to its own list.
 * Other agents ignore another agent's `_meta` key.
 */
export function editsThroughConsumer(offered: readonly string[]): { readonly _meta: Record<string, unknown> } | undefined {
  return offersEditTools(offered) ? { _meta: { claudeCode: { options: { disallowedTools: CLAUDE_CODE_WRITE_TOOLS } } } } : undefined;
}
