import type { ToolCallContent } from '@agentclientprotocol/sdk';
import { escapeMarkdown } from '../../../protocol/markdown.js';
import { SUBAGENT_ROUTES, type SubagentCall, type SubagentRoute } from './subagent-routes.js';

/**
 * An agent's subagents in the answer's text, by the route its agent gives (subagent-routes.ts: Claude Code's
 * `_meta.claudeCode`, Qwen Code's `_meta.parentToolCallId`, OpenCode's `task` tool, Codex's `spawnAgent`): each
 * subagent's call is named by its task; each tool call a subagent makes names its subagent's call as its parent, and
 * is named under it; each ends in one line with its outcome.
 *
 * claude-agent-acp opens an `Agent` call titled "Task" (its input is still streaming) and names it in the next update,
 * a millisecond later; its kind comes with the whole input, later still, and shows in the end line. The start line
 * waits for the name, and is written by whatever comes first of the naming update, a call the subagent makes, or its
 * end, so that no line is lost and none shows the generic name.
 */
export class Subagents {
  /** Every subagent of the session, by its `Agent` call's id; ended ones keep their names for their calls' late updates. */
  private readonly subagents = new Map<string, Subagent>();
  /** The subagent of each tool call a subagent made. */
  private readonly parents = new Map<string, string>();
  /** The subagent whose end another call tells, by the id the agent gave it there (Codex's threads). */
  private readonly threads = new Map<string, string>();

  /** `now`: the clock that times each subagent's run. */
  constructor(private readonly now: () => number = Date.now) {}

  /** Whether this `tool_call` opens a subagent; it is then remembered, not yet shown. */
  opens(id: string, call: SubagentCall): boolean {
    const route = SUBAGENT_ROUTES.find((r) => r.opens(call));
    if (route === undefined) return false;
    this.subagents.set(id, { route, name: undefined, type: undefined, uses: 0, started: this.now(), shown: false, ended: false });
    this.named(id, call);
    return true;
  }

  isSubagent(id: string): boolean {
    return this.subagents.has(id);
  }

  /**
   * What an update of a subagent's call says of it: its name and kind as the agent says them, and as it ends, the
   * agent's own figures (kind, tool uses, time and tokens), truer than the bridge's own count and clock.
   */
  named(id: string, call: SubagentCall): void {
    const subagent = this.subagents.get(id);
    if (subagent === undefined) return;
    const { name, type, uses, durationMs, tokens, report, threads, background } = subagent.route.facts(call);
    if (background === true) subagent.background = true;
    if (name !== undefined) subagent.name = name;
    if (type !== undefined) subagent.type = type;
    if (uses !== undefined) subagent.reportedUses = uses;
    if (durationMs !== undefined) subagent.durationMs = durationMs;
    if (tokens !== undefined) subagent.tokens = tokens;
    if (report !== undefined) subagent.report = report;
    for (const thread of threads ?? []) this.threads.set(thread, id);
  }

  /** The end lines of the subagents whose ends this update of another call tells (Codex's `wait`). */
  endedBy(call: SubagentCall): string {
    return [...new Set([...this.subagents.values()].map((s) => s.route))]
      .flatMap((route) => route.endsOf?.(call) ?? [])
      .map(({ thread, status, report }) => {
        const id = this.threads.get(thread);
        const subagent = id === undefined ? undefined : this.subagents.get(id);
        if (id === undefined || subagent === undefined) return '';
        subagent.report = report;
        return this.endLines(id, status, undefined, true);
      })
      .join('');
  }

  /** The start line of a subagent once it has its name ('' until then, and after it was written). */
  startLineWhenNamed(id: string): string {
    const subagent = this.subagents.get(id);
    return subagent?.name === undefined ? '' : this.startLine(id);
  }

  /**
   * A tool call the subagent made (its parent, as its route says it): counted, and named under its subagent; the
   * subagent's start line comes first if it was not written yet.
   */
  madeBySubagent(id: string, meta: unknown): string {
    const parent = this.parentOf(meta);
    const subagent = parent === undefined ? undefined : this.subagents.get(parent);
    if (parent === undefined || subagent === undefined) return '';
    this.parents.set(id, parent);
    subagent.uses += 1;
    return this.startLine(parent);
  }

  /**
   * A call of VS Code's own tool that a subagent makes (`tool`: its name there): VS Code shows the call itself, its
   * confirmation or its edit to review, so the line right before it names the subagent that asks; '' for the main agent's.
   */
  asksVsCode(id: string, meta: unknown, tool: string): string {
    const start = this.madeBySubagent(id, meta);
    const parent = this.parents.get(id);
    return parent === undefined ? '' : `${start}\n\n> 🤖 ${escapeMarkdown(this.nameOf(parent))} asks: \`${oneLine(tool).replace(/`/g, "'")}\`\n\n`;
  }

  /** Whether a message comes from a subagent (Qwen Code's carry their parent): its text is not the main answer's. */
  saidBySubagent(meta: unknown): boolean {
    const parent = this.parentOf(meta);
    return parent !== undefined && this.subagents.has(parent);
  }

  private parentOf(meta: unknown): string | undefined {
    for (const route of new Set([...this.subagents.values()].map((s) => s.route))) {
      const parent = route.parentOf(meta);
      if (parent !== undefined) return parent;
    }
    return undefined;
  }

  /** A tool call's title as the answer shows it: under its subagent's name, if a subagent made it. */
  titled(id: string, title: string): string {
    const parent = this.parents.get(id);
    return parent === undefined ? title : `${this.nameOf(parent)} › ${title}`;
  }

  /**
   * The subagent that made this tool call, for an ask of it (a permission) to name: the call's own parent as its route
   * reads it (claude-agent-acp puts `parentToolUseId` on the permission's tool call too), else the subagent seen making it.
   */
  askingSubagent(id: string, meta: unknown): string | undefined {
    const parent = this.parentOf(meta) ?? this.parents.get(id);
    return typeof parent === 'string' && this.subagents.has(parent) ? this.nameOf(parent) : undefined;
  }

  /** A subagent's end: its start line if never written, then one line with its outcome and its report's first sentence. */
  endLines(id: string, status: 'completed' | 'failed' | 'stopped', content: readonly ToolCallContent[] | undefined, toldElsewhere = false): string {
    const subagent = this.subagents.get(id);
    if (subagent === undefined || subagent.ended) return '';
    const start = this.startLine(id);
    // Its call ended as it was started; another call tells its end (Codex).
    if (subagent.route.endsOf !== undefined && !toldElsewhere) return start;
    subagent.ended = true;
    if (subagent.background === true) return `${start}\n\n> ⏳ ${this.label(subagent)}${this.kind(subagent)}: runs on in the background\n\n`;
    const sentence = status === 'completed' ? firstSentence(subagent.report === undefined ? content : [{ type: 'content', content: { type: 'text', text: subagent.report } }]) : '';
    const uses = subagent.reportedUses ?? (subagent.route.callsShown ? subagent.uses : undefined);
    const outcome = [
      OUTCOMES[status],
      ...(uses === undefined ? [] : [`${uses} tool ${uses === 1 ? 'use' : 'uses'}`]),
      ...(subagent.tokens === undefined ? [] : [`${tokensOf(subagent.tokens)} tokens`]),
      `${Math.round((subagent.durationMs ?? this.now() - subagent.started) / 1000)} s`,
    ].join(' · ');
    return `${start}\n\n> ${MARKS[status]} ${this.label(subagent)}${this.kind(subagent)}: ${outcome}${sentence === '' ? '' : ` — ${sentence}`}\n\n`;
  }

  /**
   * The turn was stopped: every subagent still running ends, stopped, in one line each (its start line first if it
   * was never written), as the bridge counted and timed it until the stop.
   */
  stopped(): string {
    return [...this.subagents.entries()].filter(([, subagent]) => !subagent.ended).map(([id]) => this.endLines(id, 'stopped', undefined, true)).join('');
  }

  private startLine(id: string): string {
    const subagent = this.subagents.get(id);
    if (subagent === undefined || subagent.shown) return '';
    subagent.shown = true;
    return `\n\n> 🤖 ${this.label(subagent)}${this.kind(subagent)}\n\n`;
  }

  private kind(subagent: Subagent): string {
    return subagent.type === undefined ? '' : ` (${escapeMarkdown(oneLine(subagent.type))})`;
  }

  private label(subagent: Subagent): string {
    return escapeMarkdown(oneLine(subagent.name ?? 'Subagent'));
  }

  private nameOf(id: string): string {
    return oneLine(this.subagents.get(id)?.name ?? 'Subagent');
  }
}

interface Subagent {
  /** How its agent tells it. */
  route: SubagentRoute;
  /** Its task, once the agent said it. */
  name: string | undefined;
  /** Its kind ("Explore", "general-purpose"), where the agent says it. */
  type: string | undefined;
  /** How many tool calls it made, as the bridge saw them, and as the agent counted them. */
  uses: number;
  reportedUses?: number;
  started: number;
  /** How long it ran and how many tokens it used, where the agent says. */
  durationMs?: number;
  tokens?: number;
  /** Its report, where the agent's markup around it is not the report's. */
  report?: string;
  /** Its call ended as it went on in the background: no outcome yet. */
  background?: boolean;
  /** Whether its start line was written. */
  shown: boolean;
  /** Whether its end line was written. */
  ended: boolean;
}

const OUTCOMES = { completed: 'done', failed: 'failed', stopped: 'stopped' } as const;
const MARKS = { completed: '✓', failed: '✗', stopped: '⏹' } as const;

const SENTENCE_LIMIT = 160;
/** An element of Claude Code's own markup, whole (`<tools-used-before-summary>Read</tools-used-before-summary>`). */
const ELEMENT = /<([A-Za-z][\w-]*)(\s[^<>]*)?>[^]*?<\/\1>/g;
const TAG = /<\/?[A-Za-z][\w-]*(\s[^<>]*)?\/?>/g;
/** The frame claude-agent-acp leaves around a report when it cannot take it off. */
const HANDBACK = /^\[Subagent hand-back\].*$/gm;
/** Claude Code's note before a report in which it found text shaped like its own tags or instructions. */
const HARNESS_NOTE = /\[harness:[^\]]*\]/g;

/** The first sentence of a subagent's report, as plain text: none of the agent's markup nor its frames. */
function firstSentence(content: readonly ToolCallContent[] | undefined): string {
  const text = (content ?? [])
    .flatMap((c) => (c.type === 'content' && c.content.type === 'text' ? [c.content.text] : []))
    .join('\n')
    .replace(ELEMENT, ' ')
    .replace(TAG, ' ')
    .replace(HANDBACK, ' ')
    .replace(HARNESS_NOTE, ' ')
    .replace(/[`*#>]+/g, ' ');
  const prose = oneLine(text);
  if (prose === '') return '';
  const sentence = /^.*?[.!?](?=\s|$)/.exec(prose)?.[0] ?? prose;
  return escapeMarkdown(sentence.length > SENTENCE_LIMIT ? `${sentence.slice(0, SENTENCE_LIMIT - 1)}…` : sentence);
}

/** A token count as Claude Code's CLI gives it: 950, 2.9k. */
function tokensOf(tokens: number): string {
  return tokens < 1000 ? `${tokens}` : `${(tokens / 1000).toFixed(1)}k`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
