/** LmClient's routing of parts, against a bridge played by hand: frames written to its input as they would arrive. */
import type { Readable } from 'node:stream';
import type { RequestMessage } from 'vscode-jsonrpc/node.js';
import { LmClient } from '../../src/client/lm-client.js';
import { FrameReader } from '../../src/transport/frame-reader.js';
import { FrameWriter } from '../../src/transport/frame-writer.js';
import type { ResponsePart } from '../../src/protocol/messages.js';
import { frame, handPlayedStreams } from '../fixtures/frames.js';
import { waitUntil } from '../fixtures/wait-until.js';

const part = (requestId: number | string, value: unknown) => frame({ jsonrpc: '2.0', method: 'lm/responsePart', params: { requestId, part: { type: 'text', value } } });

/** A client whose input is emitted by hand, and the requests it sent. */
function clientWithHandInput(): { client: LmClient; input: Readable; sent: RequestMessage[]; close(): void } {
  const streams = handPlayedStreams();
  const client = new LmClient(new FrameReader(streams.input, Number.POSITIVE_INFINITY), new FrameWriter(streams.output));
  return {
    client,
    input: streams.input,
    sent: streams.written as RequestMessage[],
    close: () => {
      client.dispose();
      streams.close();
    },
  };
}

describe('LmClient', () => {
  test("a part reaches its request's handler as it is read, before the loop turns", async () => {
    const { client, input, sent, close } = clientWithHandInput();
    try {
      const parts: ResponsePart[] = [];
      const response = client.provideChatResponse({ modelId: 'm', messages: [{ role: 'user', content: [{ type: 'text', value: 'hi' }] }], agent: { eliza: {} } }, (p) => parts.push(p));
      await waitUntil(() => sent.length === 1, 5000, 5);
      const id = sent[0]!.id as number;
      input.emit('data', part(id, 'hello'));
      // Handed over synchronously: vscode-jsonrpc's queue would wait for a setImmediate.
      expect(parts).toEqual([{ type: 'text', value: 'hello' }]);
      input.emit('data', frame({ jsonrpc: '2.0', id, result: {} }));
      await response;
      expect(parts).toEqual([{ type: 'text', value: 'hello' }]);
    } finally {
      close();
    }
  });

  test('a part that does not decode is dropped, a handler that throws does not stop reading, and later parts arrive', async () => {
    const { client, input, sent, close } = clientWithHandInput();
    try {
      const parts: ResponsePart[] = [];
      let throws = true;
      const response = client.provideChatResponse({ modelId: 'm', messages: [{ role: 'user', content: [{ type: 'text', value: 'hi' }] }], agent: { eliza: {} } }, (p) => {
        if (throws) {
          throws = false;
          throw new Error('the progress is closed');
        }
        parts.push(p);
      });
      await waitUntil(() => sent.length === 1, 5000, 5);
      const id = sent[0]!.id as number;
      input.emit('data', Buffer.concat([part(id, 'lost'), part(id, 42), part(id, 'kept'), frame({ jsonrpc: '2.0', id, result: {} })]));
      await response;
      expect(parts).toEqual([{ type: 'text', value: 'kept' }]);
    } finally {
      close();
    }
  });
});
