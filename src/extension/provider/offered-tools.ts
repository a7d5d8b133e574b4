/**
 * Which of the consumer's tools reach an agent (setting `symposium.consumerTools`). Copilot offers its
 * own file and shell tools; an ACP agent has its own, and two of each make it pick between twins. The
 * confirmation tool always stays: it is how the person is asked.
 */
import { AGENT_ACTION_TOOL } from '../../protocol/agent-action.js';

export const CONSUMER_TOOLS_CHOICES = ['all', 'withoutFilesAndShell', 'none'] as const;
export type ConsumerToolsChoice = (typeof CONSUMER_TOOLS_CHOICES)[number];

export function isConsumerToolsChoice(value: string): value is ConsumerToolsChoice {
  return (CONSUMER_TOOLS_CHOICES as readonly string[]).includes(value);
}

/** Copilot Chat 0.67's tools that read or write files, or run commands: what an agent already does itself. */
export const FILE_AND_SHELL_TOOLS: ReadonlySet<string> = new Set([
  'apply_patch',
  'create_and_run_task',
  'create_directory',
  'create_file',
  'edit_notebook_file',
  'file_search',
  'get_task_output',
  'get_terminal_output',
  'grep_search',
  'insert_edit_into_file',
  'kill_terminal',
  'list_dir',
  'multi_replace_string_in_file',
  'read_file',
  'replace_string_in_file',
  'run_in_terminal',
  'send_to_terminal',
  'terminal_last_command',
  'terminal_selection',
  'view_image',
]);

export function offeredTools<T extends { readonly name: string }>(tools: readonly T[], choice: ConsumerToolsChoice): T[] {
  switch (choice) {
    case 'all':
      return [...tools];
    case 'withoutFilesAndShell':
      return tools.filter((t) => t.name === AGENT_ACTION_TOOL || !FILE_AND_SHELL_TOOLS.has(t.name));
    case 'none':
      return tools.filter((t) => t.name === AGENT_ACTION_TOOL);
  }
}
