import type { Link } from './fingerprint.js';

/** How many of a conversation's turns can be gone back to: older points are told as a transcript instead. */
const TURNS_KEPT = 64;

/**
 * Where each conversation's turns were asked: the link after the messages a turn answered (its key). A request
 * whose history holds a turn's key and then the turn's reply and new words goes back to the point after that
 * reply. The agent names its fork point by the same key (see `TurnPlan.turnKey`). One map lookup per request;
 * a few keys per conversation.
 */
export class TurnPoints<C> {
  private readonly byKey = new Map<Link, C>();
  private readonly keysOf = new Map<C, Link[]>();

  /** `conversation` asked a turn that ends at `key` (its latest), in place of its latest one if that was discarded. */
  asked(conversation: C, key: Link, discardedLatest: boolean): void {
    let keys = this.keysOf.get(conversation);
    if (keys === undefined) this.keysOf.set(conversation, (keys = []));
    if (keys[keys.length - 1] === key) return;
    const discarded = discardedLatest ? keys.pop() : undefined;
    if (discarded !== undefined && this.byKey.get(discarded) === conversation) this.byKey.delete(discarded);
    keys.push(key);
    this.byKey.set(key, conversation);
    for (const old of keys.splice(0, Math.max(0, keys.length - TURNS_KEPT))) if (this.byKey.get(old) === conversation) this.byKey.delete(old);
  }

  /** The conversation that asked a turn at `key`, unless that is its latest turn: going back to it goes back. */
  earlierTurnAt(key: Link | undefined): C | undefined {
    if (key === undefined) return undefined;
    const conversation = this.byKey.get(key);
    if (conversation === undefined) return undefined;
    const keys = this.keysOf.get(conversation)!;
    return keys[keys.length - 1] === key ? undefined : conversation;
  }

  /** `key` is one of `conversation`'s turns, not its latest: going back to it goes back (whoever else asked it too). */
  isEarlierTurnOf(conversation: C, key: Link): boolean {
    const keys = this.keysOf.get(conversation) ?? [];
    return keys[keys.length - 1] !== key && keys.includes(key);
  }

  /** `key` is the turn before `conversation`'s latest: the answer its provisional exchange follows. */
  precedesLatest(conversation: C, key: Link): boolean {
    const keys = this.keysOf.get(conversation) ?? [];
    return keys[keys.length - 2] === key;
  }

  /**
   * The turn reached from `key` by `answers` later answers the consumer still sends (after a summary or a re-rendered
   * answer that carries `key`'s marker), the latest at most; undefined when `key` is not one of `conversation`'s turns.
   */
  reachedFrom(conversation: C, key: Link, answers: number): Link | undefined {
    const keys = this.keysOf.get(conversation) ?? [];
    const at = keys.indexOf(key);
    return at < 0 ? undefined : keys[Math.min(at + answers, keys.length - 1)];
  }

  forget(conversation: C): void {
    for (const key of this.keysOf.get(conversation) ?? []) if (this.byKey.get(key) === conversation) this.byKey.delete(key);
    this.keysOf.delete(conversation);
  }
}
