/**
 * `agentChannel`: the ACP SDK's message streams over an agent's stdio, as newline-delimited JSON on Node's
 * streams. Lines may arrive in any pieces; a text chunk is handed on where it is read; a line that is not
 * JSON is answered as the SDK answers it; one over the limit stops the reading; a write is one message.
 */
import { PassThrough, Writable } from 'node:stream';
import type { AnyMessage, SessionNotification } from '@agentclientprotocol/sdk';
import { agentChannel } from '../../src/agents/acp/process/agent-channel.js';

const chunkLine = (text: string): string =>
  JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } } });
const response = (id: number): AnyMessage => ({ jsonrpc: '2.0', id, result: { stopReason: 'end_turn' } });

function open(maxLineBytes = 1024) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const chunks: string[] = [];
  const outside: string[] = [];
  let overflows = 0;
  const channel = agentChannel(stdin, stdout, {
    maxLineBytes,
    onOverflow: () => overflows++,
    onUpdate: (n: SessionNotification, outsidePrompt: boolean) => {
      const text = n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text' ? n.update.content.text : '?';
      chunks.push(text);
      if (outsidePrompt) outside.push(text);
    },
  });
  return { stdin, stdout, channel, chunks, outside, overflows: () => overflows };
}

/** Everything the SDK would read until the stream ends. */
async function readAll(readable: ReadableStream<AnyMessage>): Promise<AnyMessage[]> {
  const read: AnyMessage[] = [];
  for (const reader = readable.getReader(); ; ) {
    const { value, done } = await reader.read();
    if (done) return read;
    read.push(value);
  }
}

describe('agentChannel', () => {
  test('lines in any pieces: text chunks go to onUpdate as read, the rest to the SDK; the last line may lack its newline', async () => {
    const { stdout, channel, chunks } = open();
    const all = `${chunkLine('Hel')}\n${chunkLine('lo')}\n${JSON.stringify(response(1))}\n\n${JSON.stringify(response(2))}`;
    const read = readAll(channel.readable);
    // Cut into 7-byte pieces: lines straddle writes, and one write holds the end of one line and the start of another.
    for (let i = 0; i < all.length; i += 7) stdout.write(all.slice(i, i + 7));
    stdout.end();
    expect(await read).toEqual([response(1), response(2)]);
    expect(chunks).toEqual(['Hel', 'lo']);
  });

  test('a text chunk is handed on within the data event that brought it', () => {
    const { stdout, chunks } = open();
    stdout.write(`${chunkLine('now')}\n`);
    // PassThrough emits data synchronously to a flowing listener: nothing was awaited.
    expect(chunks).toEqual(['now']);
  });

  test('a line that is not JSON is answered with a parse error, as the SDK does, and reading goes on', async () => {
    const { stdin, stdout, channel } = open();
    const answered: string[] = [];
    stdin.on('data', (d: Buffer) => answered.push(d.toString()));
    const read = readAll(channel.readable);
    stdout.end(`{not json\n${JSON.stringify(response(3))}\n`);
    expect(await read).toEqual([response(3)]);
    expect(answered.map((a) => JSON.parse(a) as unknown)).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }]);
  });

  test('a line over the limit is told once and never buffered whole; nothing after it is read', async () => {
    const { stdout, channel, chunks, overflows } = open(200);
    const read = readAll(channel.readable);
    stdout.write(`${chunkLine('before')}\n`);
    stdout.write('x'.repeat(90));
    stdout.write('x'.repeat(90));
    stdout.write(`${'x'.repeat(90)}\n${chunkLine('after')}\n`);
    stdout.end();
    expect(await read).toEqual([]);
    expect(chunks).toEqual(['before']);
    expect(overflows()).toBe(1);
  });

  test('a write is one newline-terminated message; a full pipe holds the next write until it drains', async () => {
    const writes: string[] = [];
    let release: (() => void) | undefined;
    const stdin = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, done) {
        writes.push(chunk.toString());
        release = done;
      },
    });
    const writer = agentChannel(stdin, new PassThrough(), { maxLineBytes: 1024, onOverflow: () => {}, onUpdate: () => {} }).writable.getWriter();
    const first = writer.write(response(1));
    const second = writer.write(response(2));
    await new Promise(setImmediate);
    // The first write filled the pipe: the second waits for it to drain.
    expect(writes).toEqual([`${JSON.stringify(response(1))}\n`]);
    release!();
    await first;
    await new Promise(setImmediate);
    expect(writes).toEqual([`${JSON.stringify(response(1))}\n`, `${JSON.stringify(response(2))}\n`]);
    release!();
    await second;
  });

  test('a write to a closed stdin fails rather than waiting for a drain that never comes', async () => {
    const stdin = new PassThrough();
    const writer = agentChannel(stdin, new PassThrough(), { maxLineBytes: 1024, onOverflow: () => {}, onUpdate: () => {} }).writable.getWriter();
    stdin.destroy();
    await expect(writer.write(response(1))).rejects.toThrow("the agent's stdin is closed");
  });

  test("an update read after its prompt's response is outside the prompt, even in the same read; the next prompt's are inside", async () => {
    const { stdout, channel, outside, chunks } = open();
    const read = readAll(channel.readable);
    const writer = channel.writable.getWriter();
    const prompt = (id: number): AnyMessage => ({ jsonrpc: '2.0', id, method: 'session/prompt', params: { sessionId: 's1', prompt: [] } });
    stdout.write(`${chunkLine('before any prompt')}\n`);
    await writer.write(prompt(1));
    stdout.write(`${chunkLine('one')}\n`);
    // The response and an update trailing it in one read: the SDK settles the response only microtasks later.
    stdout.write(`${JSON.stringify(response(1))}\n${chunkLine('LATE')}\n`);
    await writer.write(prompt(2));
    stdout.end(`${chunkLine('two')}\n`);
    expect(await read).toEqual([response(1)]);
    expect(chunks).toEqual(['before any prompt', 'one', 'LATE', 'two']);
    expect(outside).toEqual(['before any prompt', 'LATE']);
  });
});
