import type { AgentSlashCommand } from '../../../protocol/messages.js';

/**
 * What an agent's command list may cost: it is the agent's to send as often and as large as it likes
 * (`available_commands_update`), and each one reported reaches VS Code. Longer lists are cut, entries past
 * the scanned ones are not read, a name that is no command name is skipped (a cut one would not be the
 * agent's command), and texts are cut.
 */
export const MAX_COMMANDS = 200;
const MAX_SCANNED = 4 * MAX_COMMANDS;
export const MAX_NAME_CHARS = 64;
export const MAX_DESCRIPTION_CHARS = 300;
export const MAX_HINT_CHARS = 120;
/** A changed list is reported this long after it came, with whatever came meanwhile: a flood costs one report. */
export const COMMANDS_REPORT_MS = 200;

/** A name an agent's command can have and a person can type after `/`: no spaces, no `/`. */
const COMMAND_NAME = /^[\p{L}\p{N}_][\p{L}\p{N}_:.-]*$/u;

/**
 * The commands of an `available_commands_update` (`{name, description, input?: {hint}}[]`), bounded, in the
 * agent's order; entries that are not commands are skipped, and of two with one name the first counts.
 */
export function slashCommandsOf(available: unknown): AgentSlashCommand[] {
  if (!Array.isArray(available)) return [];
  const commands: AgentSlashCommand[] = [];
  const names = new Set<string>();
  const scanned = Math.min(available.length, MAX_SCANNED);
  for (let i = 0; i < scanned && commands.length < MAX_COMMANDS; i++) {
    const entry: unknown = available[i];
    if (typeof entry !== 'object' || entry === null) continue;
    const { name, description, input } = entry as { name?: unknown; description?: unknown; input?: unknown };
    if (typeof name !== 'string' || name.length > MAX_NAME_CHARS + 1) continue;
    const bare = name.startsWith('/') ? name.slice(1) : name;
    if (bare.length > MAX_NAME_CHARS || !COMMAND_NAME.test(bare) || names.has(bare)) continue;
    names.add(bare);
    const hint = typeof input === 'object' && input !== null ? (input as { hint?: unknown }).hint : undefined;
    commands.push({
      name: bare,
      description: typeof description === 'string' ? clip(description, MAX_DESCRIPTION_CHARS) : '',
      ...(typeof hint === 'string' && hint.trim() !== '' ? { hint: clip(hint, MAX_HINT_CHARS) } : {}),
    });
  }
  return commands;
}

/** One line, at most `max` characters. */
function clip(text: string, max: number): string {
  const line = text.slice(0, 4 * max).replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * An agent's slash commands as it last listed them (in any of its sessions: agents list the same commands in
 * each, from their configuration and the folder). Each list is read only when reported, `COMMANDS_REPORT_MS`
 * after the first of a burst, and only a list that differs from the last reported is reported.
 */
export class AgentCommands {
  private latest: unknown;
  private timer: NodeJS.Timeout | undefined;
  private reported = '[]';

  constructor(
    private readonly report: (commands: readonly AgentSlashCommand[]) => void,
    private readonly delayMs = COMMANDS_REPORT_MS,
  ) {}

  /** The `availableCommands` of an `available_commands_update`, as the agent sent it. */
  hear(available: unknown): void {
    this.latest = available;
    this.timer ??= setTimeout(() => this.settle(), this.delayMs).unref();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.latest = undefined;
  }

  private settle(): void {
    this.timer = undefined;
    const commands = slashCommandsOf(this.latest);
    this.latest = undefined;
    const json = JSON.stringify(commands);
    if (json === this.reported) return;
    this.reported = json;
    this.report(commands);
  }
}
