import { sameJson } from '../protocol/canonical-json.js';
import type { Message, RequestId, ResponsePart } from '../protocol/messages.js';

/** Answers kept for a window that went away: a few, each's text bounded. */
const ORPHANS_KEPT = 16;
const TEXT_KEPT = 1024 * 1024;

/** What the person reads before what the agent said while their window was away. */
export const MISSED_INTRO = 'While the window was away, the agent went on:\n\n';
/** Between what was missed and the answer to the person's next message. */
export const MISSED_END = '\n\n---\n\n';

/** An answer whose window went away while it ran: what the agent said since, and who reads it now. */
interface Orphan {
  /** The last message of its request (the person's), and where it stood in that request's history. */
  readonly asked: Message;
  readonly at: number;
  /** Its text since its window went away. */
  text: string;
  /** How many of its parts were not text (tool calls, data): said, not shown. */
  others: number;
  ended: boolean;
  /** The request that took it over: hears its further text, then its end. */
  adopter?: { readonly part: (text: string) => void; readonly end: () => void };
}

/**
 * The answers of a workspace whose window went away while they ran (a reload, a close, a crash): they run on, and
 * what they say meanwhile is kept, so that the window's next request in that chat (its history: that request, then
 * the answer as far as it was shown, then new words) begins with it, once, marked as such. A turn still running
 * then is waited for (its further text reaches the new request as it comes), never cancelled: the new request
 * enters the pipeline once it ended. Except a turn that meanwhile called the consumer's tools (a permission, a
 * command): that call went to no window, so the new request goes at once, as a person's who moved on from it.
 */
export class MissedAnswers {
  private readonly orphans = new Map<RequestId, Orphan>();

  /** Request `id`'s window went away: its further parts are kept. */
  orphan(id: RequestId, messages: readonly Message[]): void {
    const asked = messages.at(-1);
    if (asked === undefined) return;
    this.orphans.set(id, { asked, at: messages.length - 1, text: '', others: 0, ended: false });
    for (const old of this.orphans.keys()) {
      if (this.orphans.size <= ORPHANS_KEPT) break;
      this.orphans.delete(old);
    }
  }

  /** A part of request `id`, whose window went away; false when it is no orphan. */
  part(id: RequestId, part: ResponsePart): boolean {
    const orphan = this.orphans.get(id);
    if (orphan === undefined) return false;
    if (part.type !== 'text') orphan.others++;
    else if (orphan.adopter !== undefined) orphan.adopter.part(part.value);
    else if (orphan.text.length < TEXT_KEPT) orphan.text += part.value.slice(0, TEXT_KEPT - orphan.text.length);
    return true;
  }

  /** Request `id`'s answer ended (completed, failed or cancelled). */
  end(id: RequestId): void {
    const orphan = this.orphans.get(id);
    if (orphan === undefined) return;
    orphan.ended = true;
    if (orphan.adopter !== undefined) {
      this.orphans.delete(id);
      orphan.adopter.end();
    }
  }

  /**
   * A new request: when it goes on from an orphan's (the same message of the person at the same place, then an
   * answer), `show` gets what was missed (the intro, the text) and `go` is called once the orphan ended (after the
   * separator); else `go` at once.
   */
  adopt(messages: readonly Message[], show: (text: string) => void, go: () => void): void {
    const found = [...this.orphans].find(([, { asked, at }]) => messages.length > at + 1 && messages[at + 1]?.role === 'assistant' && sameJson(messages[at], asked));
    if (found === undefined) return go();
    const [id, orphan] = found;
    if (orphan.text === '' && orphan.others === 0 && orphan.ended) {
      this.orphans.delete(id);
      return go();
    }
    show(MISSED_INTRO + orphan.text);
    const finish = () => {
      const steps = orphan.others === 0 ? '' : `\n\n(and ${orphan.others} other step(s): tool calls or data the window did not see)`;
      show(`${steps}${MISSED_END}`);
      go();
    };
    // A turn that called the consumer's tools (a permission, a command) since waits on a window that never got the
    // call: the new request goes at once, as when a person moves on from a call left unanswered.
    if (orphan.ended || orphan.others > 0) {
      this.orphans.delete(id);
      return finish();
    }
    // Not from inside that answer's own last event, which the pipeline is still handing on.
    orphan.adopter = { part: show, end: () => queueMicrotask(finish) };
  }
}
