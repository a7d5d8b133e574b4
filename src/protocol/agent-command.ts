/**
 * How a person reaches an agent's slash command whose name the consumer takes for one of its own (Copilot
 * Chat's `/compact`, `/explain`, …; Cline's `/newtask`): typed with two slashes, `//compact`, which no
 * consumer reads as its command, and which the bridge hands the agent as `/compact`. The Chat view's
 * `/mcp.agent.<name>` prompts and *Symposium: Agent Commands…* put commands into the input so.
 */
export const AGENT_COMMAND_ESCAPE = '//';

const ESCAPED_COMMAND = /^\s*\/\/([\p{L}\p{N}_][\p{L}\p{N}_:.-]*)(?=\s|$)/u;

/** What a person types to give the agent its command `name` with these arguments. */
export function escapedCommand(name: string, args = ''): string {
  const rest = args.trim();
  return `${AGENT_COMMAND_ESCAPE}${name}${rest === '' ? '' : ` ${rest}`}`;
}

/** The person's words as the agent gets them: `//name …` at their start is the agent's `/name …`; other words are left as they are. */
export function unescapeCommand(text: string): string {
  return text.replace(ESCAPED_COMMAND, '/$1');
}
