import type { SessionUpdate } from '@agentclientprotocol/sdk';

/**
 * A command's output as the answer shows it: whole, in a block, as the agent sends it. Agents told the client
 * takes `_meta.terminal_output` (client-capabilities.ts) send a command's output under it, keyed by the tool call's
 * `_meta.terminal_info.terminal_id`: codex-acp in chunks while the command runs, claude-agent-acp all of it as the
 * command ends; each `data` follows the one before. The answer is append-only markdown, so a block is opened at a
 * command's first output and written to as it comes; anything else the answer must show meanwhile closes it first
 * (`interrupt`), and the command's further output opens another. Bounded per command: the first MAX_LINES lines and
 * MAX_BYTES bytes are shown, the rest is counted and said at its end.
 *
 * ```
 * chunk(t, "a\n")  chunk(t, "b\n")  end(t)        → "~~~~console\na\n"  "b\n"  "~~~~\n"
 * chunk(t, "a\n")  interrupt()  chunk(t, "b\n")   → "~~~~console\na\n"  "~~~~\n"  "~~~~console\nb\n"
 * ```
 */
export const MAX_LINES = 200;
export const MAX_BYTES = 20 * 1024;

/** The fence of a block: tildes, so that the backticks of commands' output never end it. */
const FENCE = '~~~~';
/** A line of output that would end the block (a fence of tildes at least as long as ours): it gets a zero-width space first. */
const CLOSING_LINE = /(^|\n)( {0,3}~{4})/g;

interface Shown {
  lines: number;
  bytes: number;
  /** Output left out: its bytes and line breaks. */
  omittedBytes: number;
  omittedLines: number;
  /** What was left out ends with a line break (or nothing was). */
  omittedEndsLine: boolean;
  /** The last character shown was a line break (or nothing was shown yet in the open block). */
  atLineStart: boolean;
}

/** The output of a command an update carries (`_meta.terminal_output`), if any, by its tool call (one terminal each). */
export function terminalOutputOf(update: SessionUpdate): { readonly toolCallId: string; readonly data: string } | undefined {
  if (update.sessionUpdate !== 'tool_call_update') return undefined;
  const output = update._meta?.['terminal_output'];
  if (typeof output !== 'object' || output === null) return undefined;
  const { data } = output as { data?: unknown };
  return typeof data === 'string' ? { toolCallId: update.toolCallId, data } : undefined;
}

/** The terminal a tool call announces (`_meta.terminal_info.terminal_id`), if any. */
export function terminalIdOf(update: SessionUpdate): string | undefined {
  if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return undefined;
  const info = update._meta?.['terminal_info'];
  if (typeof info !== 'object' || info === null) return undefined;
  const id = (info as { terminal_id?: unknown }).terminal_id;
  return typeof id === 'string' ? id : undefined;
}

export class TerminalBlocks {
  /** The command whose block is open in the answer. */
  private open: string | undefined;
  private readonly shown = new Map<string, Shown>();

  /** Whether a block is open: anything else shown must close it first. */
  get isOpen(): boolean {
    return this.open !== undefined;
  }

  /** The text that shows more output of command `id`. */
  chunk(id: string, data: string): string {
    const shown = this.shownOf(id);
    const [kept, omitted] = bounded(data, shown);
    shown.omittedBytes += Buffer.byteLength(omitted);
    shown.omittedLines += count(omitted, '\n');
    if (omitted !== '') shown.omittedEndsLine = omitted.endsWith('\n');
    if (kept === '') return '';
    const opening = this.open === id ? '' : `${this.interrupt()}\n\n${FENCE}console\n`;
    if (this.open !== id) shown.atLineStart = true;
    this.open = id;
    const safe = (shown.atLineStart ? `\n${kept}` : kept).replace(CLOSING_LINE, '$1\u200b$2').slice(shown.atLineStart ? 1 : 0);
    shown.lines += count(kept, '\n');
    shown.bytes += Buffer.byteLength(kept);
    shown.atLineStart = kept.endsWith('\n');
    return opening + safe;
  }

  /** The text that closes the open block, if one is open. */
  interrupt(): string {
    const id = this.open;
    if (id === undefined) return '';
    this.open = undefined;
    return `${this.shownOf(id).atLineStart ? '' : '\n'}${FENCE}\n\n`;
  }

  /** The text that ends command `id`'s output: the open block closed, and what was left out of it said; undefined if none was shown. */
  end(id: string): string | undefined {
    const shown = this.shown.get(id);
    if (shown === undefined) return undefined;
    const closing = this.interrupt();
    this.shown.delete(id);
    if (shown.omittedBytes === 0) return closing;
    const lines = shown.omittedLines + (shown.omittedEndsLine ? 0 : 1);
    return `${closing}\n\n… ${lines} more line${lines === 1 ? '' : 's'} (${kib(shown.omittedBytes)}) not shown\n\n`;
  }

  /** The whole of an output the agent sent at once (a tool's result), as a closed block. */
  whole(id: string, text: string): string {
    return this.chunk(id, text.endsWith('\n') ? text : `${text}\n`) + (this.end(id) ?? '');
  }

  private shownOf(id: string): Shown {
    let shown = this.shown.get(id);
    if (shown === undefined) {
      shown = { lines: 0, bytes: 0, omittedBytes: 0, omittedLines: 0, omittedEndsLine: true, atLineStart: true };
      this.shown.set(id, shown);
    }
    return shown;
  }
}

/** `data` split into what is still shown within the bounds and what is left out; a line is cut only when it alone passes them. */
function bounded(data: string, shown: Shown): [string, string] {
  if (shown.omittedBytes > 0) return ['', data];
  let lines = shown.lines;
  let bytes = shown.bytes;
  let end = 0;
  while (end < data.length) {
    const next = data.indexOf('\n', end);
    const lineEnd = next === -1 ? data.length : next + 1;
    const size = Buffer.byteLength(data.slice(end, lineEnd));
    if (lines >= MAX_LINES) break;
    if (bytes + size > MAX_BYTES) {
      // A first line longer than the bound: as much of it as fits, rather than nothing.
      if (bytes === 0) end += fitting(data.slice(end, lineEnd), MAX_BYTES);
      break;
    }
    bytes += size;
    if (next !== -1) lines++;
    end = lineEnd;
  }
  return [data.slice(0, end), data.slice(end)];
}

/** How many characters of `text` fit in `bytes` bytes of UTF-8. */
function fitting(text: string, bytes: number): number {
  let used = 0;
  let i = 0;
  for (const c of text) {
    used += Buffer.byteLength(c);
    if (used > bytes) break;
    i += c.length;
  }
  return i;
}

function count(text: string, c: string): number {
  let n = 0;
  for (let i = text.indexOf(c); i !== -1; i = text.indexOf(c, i + 1)) n++;
  return n;
}

function kib(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${Math.round(bytes / 1024)} KB`;
}
