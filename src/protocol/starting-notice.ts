/**
 * The first words of a response that waits for its agent to start (`vscodelm --start-notice-ms`): text the
 * user reads, and the sign by which the extension shows a progress notification while the agent starts.
 */
const PREFIX = '*Starting ';

export function startingNotice(name: string, command: string): string {
  const why = /(^|[\\/])npx(\.cmd)?$/i.test(command) ? ' Its first start downloads it, which can take a minute.' : '';
  return `${PREFIX}${name}…${why}*\n\n`;
}

/** The agent's name when `text` is a starting notice. */
export function startingAgentOf(text: string): string | undefined {
  if (!text.startsWith(PREFIX) || !text.endsWith('*\n\n')) return undefined;
  return /^\*Starting (.*?)…/.exec(text)?.[1];
}
