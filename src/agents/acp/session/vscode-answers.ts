import type { ToolResultPart } from '../../../protocol/messages.js';

/** How one thing the agent waits on is answered, once VS Code has (or has not) answered it. */
export interface AnswerRule<T> {
  /**
   * Whether this answer lets the agent's turn go on; `withWords`: the request that carries it also carries new words
   * of the person (they moved on, unless they only approved).
   */
  goesAhead(result: ToolResultPart | undefined, withWords: boolean): boolean;
  /** The agent's answer, from VS Code's tool result or its absence (the person did not let it run). */
  answered(result: ToolResultPart | undefined): T;
  /** The agent's answer when the turn was cancelled. */
  cancelled(): T;
  /** The agent's answer once VS Code has not answered for `afterMs`; none: it waits as long as it takes. */
  readonly unanswered?: { readonly afterMs: number; answer(): T };
}

interface Waiting {
  /** VS Code was shown it: it reached a response that then completed. */
  shown: boolean;
  readonly goesAhead: (result: ToolResultPart | undefined, withWords: boolean) => boolean;
  readonly resolve: (result: ToolResultPart | undefined) => void;
  readonly cancel: () => void;
}

/**
 * What one prompt's agent waits on VS Code for (permission requests, bridged tool calls), by the id of
 * the tool call VS Code sees, until the request after the response that showed them answers them.
 */
export class VsCodeAnswers {
  private readonly waiting = new Map<string, Waiting>();

  /** Resolves with the agent's answer; an agent that withdraws its request first is owed nothing. */
  wait<T>(id: string, withdrawn: AbortSignal, rule: AnswerRule<T>): Promise<T> {
    return new Promise((resolve) => {
      const { unanswered } = rule;
      const timer = unanswered === undefined ? undefined : setTimeout(() => answer(unanswered.answer()), unanswered.afterMs);
      const forget = (): void => {
        clearTimeout(timer);
        this.waiting.delete(id);
      };
      const answer = (value: T): void => {
        forget();
        resolve(value);
      };
      this.waiting.set(id, { shown: false, goesAhead: rule.goesAhead, resolve: (result) => answer(rule.answered(result)), cancel: () => answer(rule.cancelled()) });
      withdrawn.addEventListener('abort', forget, { once: true });
    });
  }

  /** The response that carried them completed: VS Code has shown everything waiting now, but what it held back (by id). */
  markShown(heldBack: ReadonlySet<string> = new Set()): void {
    for (const [id, entry] of this.waiting) if (!heldBack.has(id)) entry.shown = true;
  }

  /** Whether something shown would not go ahead with these results, and the person's new words if `withWords`. */
  holdsBack(results: ReadonlyMap<string, ToolResultPart>, withWords: boolean): boolean {
    return [...this.waiting].some(([id, entry]) => entry.shown && !entry.goesAhead(results.get(id), withWords));
  }

  /** Answers what VS Code was shown: with its tool result, or as declined when `results` has none. */
  answerShown(results: ReadonlyMap<string, ToolResultPart>): void {
    for (const [id, entry] of [...this.waiting]) if (entry.shown) entry.resolve(results.get(id));
  }

  /** The turn is over: everything still waiting is answered as cancelled. */
  cancelAll(): void {
    for (const entry of [...this.waiting.values()]) entry.cancel();
  }
}
