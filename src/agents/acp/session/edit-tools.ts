import { offersEditTools } from '../../../tools/consumer-edits.js';
import { offersCommandTool } from '../../../tools/consumer-commands.js';

/** Claude Code's own tools that write files: they write the disk directly, out of VS Code's sight. */
const CLAUDE_CODE_WRITE_TOOLS = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'];

/**
 * Claude Code's own tools that run commands out of VS Code's sight (the names of claude-agent-acp 0.100's Claude):
 * Bash (PowerShell on Windows), Monitor (a command whose output lines are events), and those that read and stop
 * what they run in the background (TaskOutput, once BashOutput; TaskStop, once KillShell).
 */
const CLAUDE_CODE_SHELL_TOOLS = ['Bash', 'PowerShell', 'Monitor', 'TaskOutput', 'TaskStop'];

/** Which of the agent's own tools give way to the consumer's, where the consumer offers them. */
export interface ThroughConsumer {
  /** Writes through the consumer's edit tools (the bridge offers the agent the client's files). */
  readonly edits: boolean;
  /** Commands through the consumer's command tool (`--consumer-terminal`). */
  readonly commands: boolean;
}

/**
 * What a new session is told so that an agent that writes files or runs commands by itself does it through the
 * consumer's tools instead, where the consumer offers them (they reach it over the bridge's MCP server): Claude
 * Code takes `_meta.claudeCode.options.disallowedTools` in `session/new` and adds them to its own list.
 * Other agents ignore another agent's `_meta` key.
 */
export function toolsThroughConsumer(offered: readonly string[], use: ThroughConsumer): { readonly _meta: Record<string, unknown> } | undefined {
  const off = [...(use.edits && offersEditTools(offered) ? CLAUDE_CODE_WRITE_TOOLS : []), ...(use.commands && offersCommandTool(offered) ? CLAUDE_CODE_SHELL_TOOLS : [])];
  return off.length === 0 ? undefined : { _meta: { claudeCode: { options: { disallowedTools: off } } } };
}
