/**
 * The `symposium-agent-action` tool's texts. The bridge turns an ACP agent's permission request into a
 * call of this tool with `{kind, title, raw_input}`; VS Code asks the user to confirm it, and rejecting
 * cancels the chat turn (which the bridge reads as a rejection). Pure: the adapter wraps it in a tool.
 */
export { AGENT_ACTION_TOOL } from '../protocol/methods.js';

export const CONFIRMATION_TITLE = 'Allow agent action?';
export const APPROVAL_TEXT = 'The user approved this action.';

/** The tool's input as the bridge sends it; anything else is tolerated. */
export interface AgentActionInput {
  readonly kind?: unknown;
  readonly title?: unknown;
  readonly raw_input?: unknown;
}

/**
 * The question shown to the user: "Allow the agent to run `touch x`?" when the raw input holds a
 * command (a string, or an argv array), else "Allow the agent to <title>?", with the kind in brackets
 * when there is one and it says something ("other" does not).
 */
export function confirmationMessage(input: AgentActionInput | undefined): string {
  const command = commandOf(input?.raw_input);
  const title = typeof input?.title === 'string' && input.title.trim() !== '' ? input.title.trim() : undefined;
  const kind = typeof input?.kind === 'string' && input.kind !== '' && input.kind !== 'other' ? input.kind : undefined;
  if (command !== undefined) return `Allow the agent to run ${inlineCode(command)}?`;
  const question = title !== undefined ? `Allow the agent to ${lowerFirst(title)}?` : 'Allow the agent to act?';
  return kind !== undefined ? `${question} (${kind})` : question;
}

function commandOf(rawInput: unknown): string | undefined {
  if (typeof rawInput !== 'object' || rawInput === null) return undefined;
  const command = (rawInput as { command?: unknown }).command;
  if (typeof command === 'string' && command.trim() !== '') return command.trim();
  if (Array.isArray(command) && command.length > 0 && command.every((c) => typeof c === 'string')) return command.join(' ');
  return undefined;
}

/** Markdown inline code that survives backticks in the command. */
function inlineCode(text: string): string {
  const longestRun = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = longestRun > 0 ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** "Write foo.txt" → "write foo.txt", but "README edits" and "npm" stay as they are. */
function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}
