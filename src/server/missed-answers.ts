import { sameJson } from '../protocol/canonical-json.js';
import type { Message, RequestId, ResponsePart } from '../protocol/messages.js';
import { identityOf } from '../history/normalize.js';

/** Answers kept for a window that went away: a few, each's text bounded. */
const ORPHANS_KEPT = 16;
/** What adoptions changed that later histories still show: as many as the orphans, twice. */
const CHANGES_KEPT = 2 * ORPHANS_KEPT;
const TEXT_KEPT = 1024 * 1024;

/** What the person reads before what the agent said while their window was away. */
export const MISSED_INTRO = 'While the window was away, the agent went on:\n\n';
/** Between what was missed and the answer to the person's next message. */
export const MISSED_END = '\n\n---\n\n';

/** An answer in flight: its text so far; once its window went away, what it did since and who reads it now. */
interface Answer {
  /** Its text, bounded: what its window may have shown before it went away, then what it missed. */
  text: string;
  /** Where its window went away (its request's last message, the person's, as the history compares it), once it did. */
  orphaned?: { readonly asked: Message; readonly textAt: number };
  /** How many tools it called since its window went away: said, not shown (its data parts, bookkeeping, are no step of the person's). */
  calls: number;
  ended: boolean;
  /** The request that took it over: hears its further text, then its end. */
  adopter?: { readonly part: (text: string) => void; readonly end: () => void };
}

/**
 * The answers of a workspace whose window went away while they ran (a reload, a close, a crash): they run on, and
 * what they say is kept, so that the window's next request in that chat (its history: that request, then the
 * answer as far as VS Code saved it, then new words) begins with the rest, once, marked as such. VS Code saves a
 * chat on a timer, so the window may have been shown more than it kept: the rest is what follows the saved answer
 * in what the agent said, else what it said since the window went away. A turn still running then is waited for
 * (its further text reaches the new request as it comes), never cancelled: the new request enters the pipeline once
 * it ended. Except a turn that meanwhile called the consumer's tools (a permission, a command): that call went to no
 * window, so the new request goes at once, as a person's who moved on from it.
 */
export class MissedAnswers {
  private readonly answers = new Map<RequestId, Answer>();
  private orphans = 0;
  /**
   * What the consumer keeps in later histories of a chat whose orphan was adopted, and what the agent holds instead:
   * the answer VS Code kept cut (`saved`), said whole (`whole`); the missed text shown before the next answer
   * (`shown`), which is no word of the agent's. Without them, those histories read as another model's.
   */
  private readonly changes: ({ readonly saved: string; readonly whole: string } | { readonly shown: string })[] = [];

  /** A part of request `id`'s answer, its window there or not. */
  part(id: RequestId, part: ResponsePart): void {
    let answer = this.answers.get(id);
    if (answer === undefined) this.answers.set(id, (answer = { text: '', calls: 0, ended: false }));
    if (part.type === 'tool_call' && answer.orphaned !== undefined) answer.calls++;
    if (part.type !== 'text') return;
    answer.adopter?.part(part.value);
    if (answer.text.length < TEXT_KEPT) answer.text += part.value.slice(0, TEXT_KEPT - answer.text.length);
  }

  /** Request `id`'s window went away: its answer is kept for the chat's next request. */
  orphan(id: RequestId, messages: readonly Message[]): void {
    const last = messages.at(-1);
    const asked = last === undefined ? undefined : identityOf(last);
    if (asked === undefined) return;
    const answer = this.answers.get(id) ?? { text: '', calls: 0, ended: false };
    answer.orphaned = { asked, textAt: answer.text.length };
    this.answers.set(id, answer);
    this.orphans++;
    for (const [old, kept] of this.answers) {
      if (this.orphans <= ORPHANS_KEPT) break;
      if (kept.orphaned !== undefined) this.forget(old);
    }
  }

  /** Request `id`'s answer ended (completed, failed or cancelled). */
  end(id: RequestId): void {
    const answer = this.answers.get(id);
    if (answer === undefined) return;
    if (answer.orphaned === undefined) {
      this.answers.delete(id);
      return;
    }
    answer.ended = true;
    if (answer.adopter !== undefined) {
      this.forget(id);
      answer.adopter.end();
    }
  }

  /**
   * A new request: when it goes on from an orphan's (the person's message of that request, as the history compares
   * messages, then an answer, the last of the new request's), `show` gets what was missed (the intro, the text) and
   * `go` is called once the orphan ended (after the separator), with the history the agent holds: the answer whole,
   * as the agent said it, where VS Code kept it cut; else `go` at once with `messages`. Copilot renders a past message
   * otherwise than it sent it as the newest (its context blocks), and a reloaded window's request may hold more of
   * its own messages before it.
   */
  adopt(request: readonly Message[], show: (text: string) => void, go: (messages: readonly Message[]) => void): void {
    const messages = this.changes.length === 0 ? request : this.asAgentHolds(request);
    const at = this.orphans === 0 ? -1 : lastAnswerAt(messages);
    const asked = at < 1 ? undefined : askedBefore(messages, at);
    const found = asked === undefined ? undefined : [...this.answers].find(([, answer]) => answer.orphaned !== undefined && sameJson(answer.orphaned.asked, asked));
    if (found === undefined) return go(messages);
    const [id, answer] = found;
    const saved = textOf(messages[at]!);
    const cut = saved !== '' && answer.text.startsWith(saved);
    const missed = cut ? answer.text.slice(saved.length) : answer.text.slice(answer.orphaned!.textAt);
    // The answer whole where VS Code kept it cut, so that the history still reads as the agent's own, now and later.
    const whole = cut && answer.text.length < TEXT_KEPT;
    const held = () => {
      if (!whole) return messages;
      this.remember({ saved, whole: answer.text });
      return withText(messages, at, answer.text);
    };
    if (missed === '' && answer.calls === 0 && answer.ended) {
      this.forget(id);
      return go(held());
    }
    let shown = '';
    const tell = (text: string) => {
      shown += text;
      show(text);
    };
    tell(MISSED_INTRO + missed);
    const finish = () => {
      tell(`${answer.calls === 0 ? '' : `\n\n(and ${answer.calls} tool call(s) the window did not see)`}${MISSED_END}`);
      this.remember({ shown });
      go(held());
    };
    // A turn that called the consumer's tools (a permission, a command) since waits on a window that never got the
    // call: the new request goes at once, as when a person moves on from a call left unanswered.
    if (answer.ended || answer.calls > 0) {
      this.forget(id);
      return finish();
    }
    // Not from inside that answer's own last event, which the pipeline is still handing on.
    answer.adopter = { part: tell, end: () => queueMicrotask(finish) };
  }

  /** `messages` with each answer the agent holds otherwise (`changes`) as it holds it. */
  private asAgentHolds(messages: readonly Message[]): readonly Message[] {
    let held = messages;
    for (let i = 0; i < messages.length; i++) {
      if (messages[i]!.role !== 'assistant') continue;
      const text = textOf(messages[i]!);
      let agents = text;
      for (const change of this.changes) {
        if ('shown' in change) agents = agents.startsWith(change.shown) ? agents.slice(change.shown.length) : agents;
        else if (agents === change.saved) agents = change.whole;
      }
      if (agents !== text) held = withText(held, i, agents);
    }
    return held;
  }

  private remember(change: (typeof this.changes)[number]): void {
    this.changes.push(change);
    if (this.changes.length > CHANGES_KEPT) this.changes.shift();
  }

  private forget(id: RequestId): void {
    if (this.answers.get(id)?.orphaned !== undefined) this.orphans--;
    this.answers.delete(id);
  }
}

/** Where the history's last answer is, -1 if it has none. */
function lastAnswerAt(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'assistant') return i;
  return -1;
}

/** The person's message the answer at `at` answered (the last user message before it), as the history compares it. */
function askedBefore(messages: readonly Message[], at: number): Message | undefined {
  for (let i = at - 1; i >= 0; i--) if (messages[i]!.role === 'user') return identityOf(messages[i]!);
  return undefined;
}

/** An answer's text as the consumer kept it. */
function textOf(message: Message): string {
  return message.content.map((part) => (part.type === 'text' ? part.value : '')).join('');
}

/** `messages` with the text of the one at `at` replaced by `text`, its other parts (the marker) kept. */
function withText(messages: readonly Message[], at: number, text: string): Message[] {
  const message = messages[at]!;
  const kept: Message = { ...message, content: [...message.content.filter((part) => part.type !== 'text'), { type: 'text', value: text }] };
  return messages.map((m, i) => (i === at ? kept : m));
}
