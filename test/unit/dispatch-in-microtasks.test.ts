/**
 * dispatchInMicrotasks (src/server/dispatch-in-microtasks.ts): the bridge's connection hands a request to
 * its handler in the microtasks after it was read, and a cancellation read with it still cancels it first.
 * Jest gives this file its own vscode-jsonrpc, so the runtime layer installed here stays here.
 */
import type { Readable } from 'node:stream';
import { createMessageConnection, type CancellationToken, type MessageConnection, type ResponseMessage } from 'vscode-jsonrpc/node.js';
import { dispatchInMicrotasks } from '../../src/server/dispatch-in-microtasks.js';
import { FrameReader } from '../../src/transport/frame-reader.js';
import { FrameWriter } from '../../src/transport/frame-writer.js';
import { frame, handPlayedStreams } from '../fixtures/frames.js';
import { waitUntil } from '../fixtures/wait-until.js';

/** A connection whose input is emitted by hand, and the responses it wrote. */
function connectionWithHandInput(): { connection: MessageConnection; input: Readable; responses: ResponseMessage[]; close(): void } {
  const streams = handPlayedStreams();
  const connection = createMessageConnection(new FrameReader(streams.input, Number.POSITIVE_INFINITY), new FrameWriter(streams.output));
  return {
    connection,
    input: streams.input,
    responses: streams.written as ResponseMessage[],
    close: () => {
      connection.dispose();
      streams.close();
    },
  };
}

beforeAll(() => dispatchInMicrotasks());

test('a request reaches its handler before the event loop turns, and is answered', async () => {
  const { connection, input, responses, close } = connectionWithHandInput();
  try {
    let turned = false;
    const handledWhen: boolean[] = [];
    connection.onRequest('test/ping', () => {
      handledWhen.push(turned);
      return 'pong';
    });
    connection.listen();
    setImmediate(() => (turned = true));
    input.emit('data', frame({ jsonrpc: '2.0', id: 1, method: 'test/ping', params: {} }));
    expect(handledWhen).toEqual([]);
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    // vscode-jsonrpc's own runtime layer would wait for a setImmediate, scheduled after the one above.
    expect(handledWhen).toEqual([false]);
    await waitUntil(() => responses.length === 1, 5000, 5);
    expect(responses[0]).toMatchObject({ id: 1, result: 'pong' });
  } finally {
    close();
  }
});

test('a $/cancelRequest read with its request cancels it before its handler runs', async () => {
  const { connection, input, responses, close } = connectionWithHandInput();
  try {
    const cancelledAtDispatch: boolean[] = [];
    connection.onRequest('test/slow', (_params: unknown, token: CancellationToken) => {
      cancelledAtDispatch.push(token.isCancellationRequested);
      return 'done';
    });
    connection.listen();
    input.emit('data', Buffer.concat([frame({ jsonrpc: '2.0', id: 'a', method: 'test/slow', params: {} }), frame({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 'a' } })]));
    await waitUntil(() => responses.length === 1, 5000, 5);
    expect(cancelledAtDispatch).toEqual([true]);
  } finally {
    close();
  }
});
