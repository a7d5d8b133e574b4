import { offersCommandTool } from '../../src/tools/consumer-commands.js';
import { toolsThroughConsumer } from '../../src/agents/acp/session/edit-tools.js';

/** The tool names of requests as the consumers send them (test/fixtures/copilot, cline, roo). */
const COPILOT_AGENT = ['create_file', 'replace_string_in_file', 'get_terminal_output', 'kill_terminal', 'run_in_terminal', 'send_to_terminal', 'symposium-agent-action'];
const COPILOT_ASK = ['read_file', 'vscode_askQuestions'];
const CLINE = ['read_files', 'search_codebase', 'editor', 'ask_question', 'run_commands'];
const ROO = ['apply_diff', 'execute_command', 'write_to_file', 'ask_followup_question'];

const disallowed = (offered: readonly string[], use: { edits: boolean; commands: boolean }): unknown =>
  (toolsThroughConsumer(offered, use)?._meta.claudeCode as { options: { disallowedTools: string[] } } | undefined)?.options.disallowedTools;

test("the consumers' command tools are recognized: Copilot's run_in_terminal, Cline's run_commands, Roo's execute_command; Ask mode has none", () => {
  expect([COPILOT_AGENT, CLINE, ROO, COPILOT_ASK].map(offersCommandTool)).toEqual([true, true, true, false]);
  // A sibling alone runs no new command.
  expect(offersCommandTool(['get_terminal_output', 'kill_terminal'])).toBe(false);
});

test("Claude Code's shell tools are off where a command tool is offered and commands go through the consumer; its write tools where edit tools are", () => {
  const shell = ['Bash', 'PowerShell', 'Monitor', 'TaskOutput', 'TaskStop'];
  const writes = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'];
  expect(disallowed(COPILOT_AGENT, { edits: true, commands: true })).toEqual([...writes, ...shell]);
  expect(disallowed(COPILOT_AGENT, { edits: true, commands: false })).toEqual(writes);
  expect(disallowed(COPILOT_AGENT, { edits: false, commands: true })).toEqual(shell);
  expect(disallowed(CLINE, { edits: true, commands: true })).toEqual(shell);
  expect(disallowed(ROO, { edits: true, commands: true })).toEqual([...writes, ...shell]);
  // Nothing offered that replaces them: nothing said, the agent keeps its own tools.
  expect(toolsThroughConsumer(COPILOT_ASK, { edits: true, commands: true })).toBeUndefined();
  expect(toolsThroughConsumer(COPILOT_AGENT, { edits: false, commands: false })).toBeUndefined();
});
