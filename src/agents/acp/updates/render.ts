import type { ToolCallContent, ToolCallStatus } from '@agentclientprotocol/sdk';
import { createPatch } from 'diff';
import { whoAsks, type AgentActionInput } from '../../../protocol/agent-action.js';
import { escapeMarkdown } from '../../../protocol/markdown.js';

/**
 * Markdown for what an agent does besides talking: one short line when a tool starts and one when it
 * ends (a plan's text is plan.ts's). Consumers show text, so this is how tool activity becomes visible
 * without re-rendering a wall of text on every update.
 */
export function toolStartedLine(title: string): string {
  return `\n\n> 🔧 ${inline(title)}\n\n`;
}

/**
 * Why the bridge knows a tool did not run, better than the agent's own words for it (Claude Code's
 * "User refused permission to run tool", fenced): the person refused its permission, or nobody could be asked.
 */
export type Refusal = 'by-person' | 'unasked';

const REFUSALS: Record<Refusal, string> = { 'by-person': 'refused by you', unasked: 'not allowed in this chat' };

export function toolEndedLine(title: string, status: Extract<ToolCallStatus, 'completed' | 'failed'>, content: readonly ToolCallContent[] | null | undefined, refusal?: Refusal): string {
  if (status === 'failed' && refusal !== undefined) return `\n\n> ✗ ${inline(title)} ${REFUSALS[refusal]}\n\n`;
  const brief = briefOf(content);
  const mark = status === 'completed' ? '✓' : '✗';
  // A result that only repeats the title (an agent echoing its command) says nothing new.
  const shown = brief === '' || brief === escapeMarkdown(plainLine(title)) ? '' : `: ${brief}`;
  return `\n\n> ${mark} ${inline(title)}${status === 'failed' ? ' failed' : ''}${shown}\n\n`;
}

/** A change an agent made by itself, as the unified diff the person reads in the answer (long ones cut). */
export function diffBlock(path: string, oldText: string | null | undefined, newText: string): string {
  const patch = createPatch(path, oldText ?? '', newText, '', '', { context: DIFF_CONTEXT_LINES }).split('\n');
  // The hunks, without the file header the answer's line above already names.
  const lines = patch.slice(patch.findIndex((line) => line.startsWith('@@'))).filter((line, i, all) => line !== '' || i < all.length - 1);
  const shown = lines.length > DIFF_LINES_SHOWN ? [...lines.slice(0, DIFF_LINES_SHOWN), `… ${lines.length - DIFF_LINES_SHOWN} more lines`] : lines;
  // A fence longer than any run of backticks in the diff, so that none ends it early.
  const fence = '`'.repeat(Math.max(3, ...shown.map((line) => (line.match(/`+/g) ?? []).reduce((n, run) => Math.max(n, run.length + 1), 0))));
  return `\n\n${fence}diff\n${shown.join('\n')}\n${fence}\n\n`;
}

const DIFF_CONTEXT_LINES = 2;
const DIFF_LINES_SHOWN = 80;

const BRIEF_LIMIT = 120;

/**
 * What a tool's result says, as one short line of plain text: the first line that says something of its first
 * text that does, without the code fences, tags and markup agents wrap results in (Claude Code fences a
 * command's output and every failure; its errors come in `<tool_use_error>` tags). The line ends in the
 * answer's markdown, so what markdown would still read in it is escaped: nothing opens a block or a span.
 */
export function briefOf(content: readonly ToolCallContent[] | null | undefined): string {
  for (const item of content ?? []) {
    if (item.type === 'diff') return `edited ${escapeMarkdown(item.path)}`;
    if (item.type !== 'content' || item.content.type !== 'text') continue;
    const line = item.content.text.split('\n').filter((l) => !FENCE.test(l)).map(plainLine).find((l) => l !== '');
    if (line !== undefined) return escapeMarkdown(line.length > BRIEF_LIMIT ? `${line.slice(0, BRIEF_LIMIT - 1)}…` : line);
  }
  return '';
}

/** A line that opens or closes a fenced code block (with or without an info string). */
const FENCE = /^\s*(`{3,}|~{3,})[^`]*$/;
const TAG = /<\/?[A-Za-z][\w-]*(\s[^<>]*)?\/?>/g;

/**
 * Strong emphasis as markdown reads it: `**` around text, or `__` around text but not within a word (an MCP tool's
 * name, `mcp__server__tool`, is no emphasis and keeps its underscores).
 */
const STRONG = /\*\*(?=\S)(.*?\S)\*\*|(?<![\p{L}\p{N}_])__(?=\S)(.*?\S)__(?![\p{L}\p{N}_])/gu;

/** One line of markdown as the text it shows: no tags, code marks, emphasis marks, nor heading, quote or list marks. */
function plainLine(line: string): string {
  return oneLine(
    line
      .replace(TAG, ' ')
      .replace(/`+/g, '')
      .replace(STRONG, (_, starred: string | undefined, underlined: string | undefined) => starred ?? underlined ?? '')
      .replace(/^\s*(#{1,6}|>+|[-*+]|\d+[.)])\s+/, ''),
  );
}

function inline(text: string): string {
  return `\`${oneLine(text).replace(/`/g, "'")}\``;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** An action refused because the consumer could not ask the person (no tools offered, as in Ask mode). */
export function refusedLine(input: AgentActionInput): string {
  const { subagent, action } = whoAsks(input);
  return `\n\n> ⛔ Not allowed: ${subagent === undefined ? 'the agent' : `${subagent} (a subagent)`} asked to ${action}, and this chat cannot ask you: it offers no Symposium agent action tool (Ask and Plan do not; in Agent mode, Configure Tools can turn it off).\n\n`;
}
