import type { PlanEntry } from '@agentclientprotocol/sdk';
import type { Todo, TodoStatus } from '../../../tools/consumer-todos.js';

/**
 * An agent's plan (ACP `plan` updates: the whole list each time) as the bridge shows it, bounded whatever the
 * agent sends: at most MAX_PLAN_ENTRIES entries, each one line of at most MAX_ENTRY_CHARS characters. Entries
 * have no ids in ACP: they are numbered in the order given.
 */
export const MAX_PLAN_ENTRIES = 50;
export const MAX_ENTRY_CHARS = 200;

/** How much of an entry's text is read at all: a huge entry costs no more than this. */
const READ_CHARS = 4 * MAX_ENTRY_CHARS;

const STATUSES: Record<string, TodoStatus> = { pending: 'not-started', in_progress: 'in-progress', completed: 'completed' };

/** The plan as todos; an entry that is no object with text is skipped, an unknown status read as not started. */
export function todosOf(entries: readonly PlanEntry[] | unknown): Todo[] {
  if (!Array.isArray(entries)) return [];
  const todos: Todo[] = [];
  for (const entry of entries as unknown[]) {
    if (todos.length === MAX_PLAN_ENTRIES) break;
    if (typeof entry !== 'object' || entry === null) continue;
    const { content, status } = entry as { content?: unknown; status?: unknown };
    if (typeof content !== 'string') continue;
    const title = clip(content.slice(0, READ_CHARS).replace(/\s+/g, ' ').trim());
    if (title === '') continue;
    todos.push({ id: todos.length + 1, title, status: (typeof status === 'string' ? STATUSES[status] : undefined) ?? 'not-started' });
  }
  return todos;
}

/** A plan's identity: two plans with the same key show alike. */
export function planKey(todos: readonly Todo[]): string {
  return JSON.stringify(todos.map((t) => [t.title, t.status]));
}

const MARKS: Record<TodoStatus, string> = { 'not-started': '[ ]', 'in-progress': '[ ]', completed: '[x]' };

/** The plan as a markdown checklist, the entry in progress in bold. */
export function planChecklist(todos: readonly Todo[]): string {
  const lines = todos.map((t) => `- ${MARKS[t.status]} ${t.status === 'in-progress' ? `**${escape(t.title)}**` : escape(t.title)}`);
  return `\n\n${lines.join('\n')}\n\n`;
}

/** How far a plan has come, as one line: where a response must say something and has only the plan to say. */
export function planProgressLine(todos: readonly Todo[]): string {
  const done = todos.filter((t) => t.status === 'completed').length;
  return `\n\n> 📋 ${done} of ${todos.length} todos done\n\n`;
}

/** How many lines of changes one prompt's plan may print: a plan that flips its entries endlessly prints no more. */
const MAX_CHANGE_LINES = 4 * MAX_PLAN_ENTRIES;

/**
 * A plan in a stream of text, where nothing shown can be rewritten: the whole checklist the first time a prompt
 * has a plan, then only what changed, one short line per entry that started (▶), was done (✓) or was added (+).
 * An entry's start and end are each said once per prompt. A plan that only repeats itself prints nothing.
 */
export class PlanInText {
  private shown: ReadonlyMap<string, TodoStatus> | undefined;
  private readonly said = new Set<string>();

  /** A new prompt shows its plan afresh. */
  reset(): void {
    this.shown = undefined;
    this.said.clear();
  }

  /** The text that brings what the person has read up to `todos`; empty when nothing changed. */
  textOf(todos: readonly Todo[]): string {
    if (todos.length === 0) return '';
    const before = this.shown;
    this.shown = new Map(todos.map((t) => [t.title, t.status]));
    if (before === undefined) {
      for (const t of todos) this.said.add(`${t.status}:${t.title}`);
      return planChecklist(todos);
    }
    const lines: string[] = [];
    for (const t of todos) {
      const was = before.get(t.title);
      if (was === t.status) continue;
      const line = was === undefined ? `+ ${t.title}` : t.status === 'completed' ? `✓ ${t.title}` : t.status === 'in-progress' ? `▶ ${t.title}` : undefined;
      const said = `${t.status}:${t.title}`;
      if (line === undefined || this.said.has(said) || this.said.size >= MAX_CHANGE_LINES) continue;
      this.said.add(said);
      lines.push(`> ${escape(line)}`);
    }
    return lines.length === 0 ? '' : `\n\n${lines.join('\n\n')}\n\n`;
  }
}

function clip(text: string): string {
  return text.length > MAX_ENTRY_CHARS ? `${text.slice(0, MAX_ENTRY_CHARS - 1)}…` : text;
}

/** Text that markdown shows as it is. */
function escape(text: string): string {
  return text.replace(/[\\`*_[\]<>~|#]/g, (c) => `\\${c}`);
}
