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
export function textChunkFastPath(onUpdate: (notification: SessionNotification) => void): TransformStream<AnyMessage, AnyMessage> {
  const waiting: AnyMessage[] = [];
  let held = false;
  let drained: (() => void) | undefined;
  let controller: TransformStreamDefaultController<AnyMessage>;

  const passOn = (message: AnyMessage): void => {
    controller.enqueue(message);
    if (held) return;
    held = true;
    setImmediate(release);
  };
  const handle = (message: AnyMessage): void => {
    const chunk = TextChunkNotification.decode(message);
    if (chunk._tag === 'Right') onUpdate(chunk.right.params);
    else passOn(message);
  };
  const release = (): void => {
    held = false;
    while (!held && waiting.length > 0) handle(waiting.shift()!);
    if (!held) drained?.();
  };

  return new TransformStream<AnyMessage, AnyMessage>({
    start: (c) => {
      controller = c;
    },
    transform: (message) => {
      if (!held) return handle(message);
      // Messages for the SDK keep their order among themselves there: only a chunk must wait, and what follows it.
      if (waiting.length === 0 && TextChunkNotification.decode(message)._tag === 'Left') return passOn(message);
      waiting.push(message);
    },
    flush: () => (held ? new Promise<void>((resolve) => (drained = resolve)) : undefined),
  });
}
