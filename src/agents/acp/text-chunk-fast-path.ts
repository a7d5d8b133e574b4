import type { AnyMessage, SessionNotification } from '@agentclientprotocol/sdk';
import * as t from 'io-ts';

/**
 * A `session/update` notification carrying a piece of the agent's message or thoughts as text: nearly
 * everything an agent sends while it streams. Fields beyond these (`_meta`, annotations) are dropped:
 * nothing downstream reads them.
 */
const TextChunkNotification = t.type({
  jsonrpc: t.literal('2.0'),
  method: t.literal('session/update'),
  params: t.exact(
    t.type({
      sessionId: t.string,
      update: t.exact(
        t.type({
          sessionUpdate: t.keyof({ agent_message_chunk: null, agent_thought_chunk: null }),
          content: t.exact(t.type({ type: t.literal('text'), text: t.string })),
        }),
      ),
    }),
  ),
});

/** A message read from the agent: a text chunk (decoded) or one for the SDK. */
type Read = { readonly chunk: SessionNotification } | { readonly message: AnyMessage };

function classify(message: AnyMessage): Read {
  const chunk = TextChunkNotification.decode(message);
  return chunk._tag === 'Right' ? { chunk: chunk.right.params } : { message };
}

/**
 * Text chunks past the ACP SDK, every other message through it. The SDK's client validates each
 * `session/update` twice with zod (its session router, then the handler), a quarter of the bridge's
 * CPU while an agent streams (issue 16, row 2); text chunks are decoded here with a small io-ts codec
 * and handed to `onUpdate` as they are read.
 *
 * Order is kept: a message passed to the SDK reaches its handler within the microtasks after it was
 * read, so a chunk read after one waits for the next macrotask (`setImmediate`), and what follows that
 * chunk waits behind it. Messages for the SDK in a row go to it at once (a burst of tool call
 * announcements must not trickle in one per turn of the event loop while the calls themselves arrive).
 */
export class TextChunkFastPath {
  private readonly waiting: Read[] = [];
  private held = false;
  private drainedNow: (() => void) | undefined;

  constructor(
    private readonly onUpdate: (notification: SessionNotification) => void,
    private readonly toSdk: (message: AnyMessage) => void,
  ) {}

  push(message: AnyMessage): void {
    if (!this.held) return this.handle(classify(message));
    const read = classify(message);
    // Messages for the SDK keep their order among themselves there: only a chunk must wait, and what follows it.
    if (this.waiting.length === 0 && 'message' in read) return this.passOn(read.message);
    this.waiting.push(read);
  }

  /** Settles once no chunk waits any more: at once when none does. */
  drained(): Promise<void> {
    return this.held ? new Promise<void>((resolve) => (this.drainedNow = resolve)) : Promise.resolve();
  }

  private handle(read: Read): void {
    if ('chunk' in read) this.onUpdate(read.chunk);
    else this.passOn(read.message);
  }

  private passOn(message: AnyMessage): void {
    this.toSdk(message);
    if (this.held) return;
    this.held = true;
    setImmediate(() => this.release());
  }

  private release(): void {
    this.held = false;
    while (!this.held && this.waiting.length > 0) this.handle(this.waiting.shift()!);
    if (!this.held) this.drainedNow?.();
  }
}
