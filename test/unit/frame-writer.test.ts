/** `FrameWriter`: each message in one write, framed so that a Content-Length reader reads it back exactly. */
import { PassThrough, Writable } from 'node:stream';
import { StreamMessageReader, type Message, type NotificationMessage } from 'vscode-jsonrpc/node.js';
import { FrameWriter } from '../../src/transport/frame-writer.js';
import { waitUntil } from '../fixtures/wait-until.js';

const note = (text: string): NotificationMessage => ({ jsonrpc: '2.0', method: 'lm/responsePart', params: { text } });

describe('FrameWriter', () => {
  test('a write resolves when the stream takes the frame, before a reader that is not reading gets it', async () => {
    // A pipe nobody reads: its writes wait in the stream, where the bridge's OutputPressure sees them.
    const stream = new PassThrough({ highWaterMark: 16 });
    const writer = new FrameWriter(stream);
    await writer.write(note('x'.repeat(1000)));
    await writer.write(note('y'.repeat(1000)));
    expect(stream.writableLength).toBeGreaterThan(2000);
    writer.dispose();
  });

  test('writes each message as one frame, header and body together, read back exactly (multi-byte text too)', async () => {
    const stream = new PassThrough();
    const writes: Buffer[] = [];
    const spy = new Writable({
      write(chunk: Buffer, _encoding, done) {
        writes.push(chunk);
        stream.write(chunk, done);
      },
    });
    const writer = new FrameWriter(spy);
    // vscode-jsonrpc's own reader: an implementation other than the bridge's reads the frames back.
    const reader = new StreamMessageReader(stream);
    const read: Message[] = [];
    reader.listen((message) => read.push(message));
    const sent = [note('hello'), note('héllo wörld — 日本語 🙂'), note('x'.repeat(100_000))];
    for (const message of sent) await writer.write(message);
    // A write resolves once the stream took it, not once it was read.
    await waitUntil(() => read.length === sent.length, 5000, 10);
    expect(writes).toHaveLength(3);
    expect(writes[0].toString('utf8')).toBe(`Content-Length: ${Buffer.byteLength(JSON.stringify(sent[0]))}\r\n\r\n${JSON.stringify(sent[0])}`);
    expect(read).toEqual(sent);
    reader.dispose();
    writer.dispose();
  });

  test('a write to a closed stream rejects and is reported, with the message and a count', async () => {
    const stream = new PassThrough();
    const writer = new FrameWriter(stream);
    const reported: [Error, Message | undefined, number | undefined][] = [];
    writer.onError((e) => reported.push(e));
    let closed = false;
    writer.onClose(() => (closed = true));
    stream.destroy();
    await new Promise(setImmediate);
    await expect(writer.write(note('late'))).rejects.toThrow();
    expect(reported).toHaveLength(1);
    expect(reported[0][1]).toEqual(note('late'));
    expect(reported[0][2]).toBe(1);
    expect(closed).toBe(true);
    writer.dispose();
  });
});
