/**
 * The consumer's own tools that run commands, where the person sees them and approves them under their own rules:
 * Copilot Chat's `run_in_terminal` (VS Code's terminal, its "Run command?" confirmation and
 * `chat.tools.terminal.autoApprove`), Roo Code's and older Cline's `execute_command`, Cline 4's `run_commands`.
 * Offered one, an agent runs its commands through it over the bridge's MCP server, with its own shell off
 * (session/edit-tools.ts). Their siblings (Copilot's `get_terminal_output`, `kill_terminal`, …) are offered with
 * them and reach the agent as every offered tool does.
 */
export const COMMAND_TOOLS: readonly string[] = ['run_in_terminal', 'execute_command', 'run_commands'];

/** Whether the consumer offers a tool with which the agent can run any command. */
export function offersCommandTool(offered: readonly string[]): boolean {
  return offered.some((name) => COMMAND_TOOLS.includes(name));
}
