import { Observable } from 'rxjs';

/**
 * The events of one agent turn, which may outlive a response: while no response is attached (the turn
 * is paused on a permission request) events wait here, and the next response that continues the turn
 * receives them first. Only one response is attached at a time.
 */
/** A bound on what waits while nobody listens: past `maxBytes` (by `sizeOf`), the buffer is dropped and `onOverflow` told once. */
export interface QueueLimit<T> {
  readonly maxBytes: number;
  sizeOf(event: T): number;
  onOverflow(): void;
}

export class EventQueue<T> {
  private readonly buffered: T[] = [];
  private bufferedBytes = 0;
  private overflowed = false;
  private attached: { next(value: T): void; error(error: unknown): void } | undefined;
  private failure: { error: unknown } | undefined;

  /**
   * `merge(last, next)` may join an event into the one buffered before it (undefined: keep both), so
   * that a stream arriving while nobody listens costs its content, not an object per event.
   */
  constructor(
    private readonly merge: (last: T, next: T) => T | undefined = () => undefined,
    private readonly limit?: QueueLimit<T>,
  ) {}

  push(event: T): void {
    if (this.attached !== undefined) {
      this.attached.next(event);
      return;
    }
    if (this.overflowed) return;
    const last = this.buffered.length - 1;
    const merged = last >= 0 ? this.merge(this.buffered[last], event) : undefined;
    if (this.limit !== undefined) {
      // A merged event replaces the last one: it costs what it adds to it (a later plan replacing one: nothing).
      this.bufferedBytes += merged === undefined ? this.limit.sizeOf(event) : this.limit.sizeOf(merged) - this.limit.sizeOf(this.buffered[last]);
      if (this.bufferedBytes > this.limit.maxBytes) {
        this.overflowed = true;
        this.buffered.length = 0;
        this.bufferedBytes = 0;
        this.limit.onOverflow();
        return;
      }
    }
    if (merged !== undefined) this.buffered[last] = merged;
    else this.buffered.push(event);
  }

  /**
   * Events a response took but did not show (it ended first): the next response receives them first, before
   * anything buffered since. They were counted once already; the limit does not drop them.
   */
  putBack(events: readonly T[]): void {
    if (this.attached !== undefined) {
      for (const event of events) this.attached.next(event);
      return;
    }
    this.buffered.unshift(...events);
    if (this.limit !== undefined) for (const event of events) this.bufferedBytes += this.limit.sizeOf(event);
  }

  fail(error: unknown): void {
    this.failure ??= { error };
    this.attached?.error(error);
  }

  /** The buffered events, then live ones, until unsubscribed; errors once the turn has failed. */
  attach(): Observable<T> {
    return new Observable<T>((subscriber) => {
      while (this.buffered.length > 0 && !subscriber.closed) {
        const event = this.buffered.shift()!;
        if (this.limit !== undefined) this.bufferedBytes -= this.limit.sizeOf(event);
        subscriber.next(event);
      }
      // A response that ended on a buffered event leaves the rest for the next one.
      if (subscriber.closed) return;
      if (this.failure !== undefined) {
        subscriber.error(this.failure.error);
        return;
      }
      const attachment = { next: (v: T) => subscriber.next(v), error: (e: unknown) => subscriber.error(e) };
      this.attached = attachment;
      return () => {
        if (this.attached === attachment) this.attached = undefined;
      };
    });
  }
}
