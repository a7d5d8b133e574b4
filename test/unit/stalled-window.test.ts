/** `StalledWindow`: when the agent host closes a window's connection that does not read what it is sent. */
import { jest } from '@jest/globals';
import { PassThrough } from 'node:stream';
import type { NotificationMessage } from 'vscode-jsonrpc/node.js';
import { StalledWindow, type StallLimits } from '../../src/host/stalled-window.js';
import { FrameWriter } from '../../src/transport/frame-writer.js';

const LIMITS: StallLimits = { highWaterBytes: 1000, graceMs: 30_000, limitBytes: 5000 };

/** A window's connection nobody reads, the frames written to it through the host's writer, and the reasons it was closed for. */
function window(limits = LIMITS) {
  const output = new PassThrough({ highWaterMark: 16 });
  const closed: string[] = [];
  const stall = new StalledWindow(output, limits, (why) => {
    closed.push(why);
    output.destroy();
  });
  const writer = new FrameWriter(output, () => stall.written());
  const send = (bytes: number) => {
    const part: NotificationMessage = { jsonrpc: '2.0', method: 'lm/responsePart', params: { text: 'x'.repeat(bytes) } };
    return writer.write(part);
  };
  /** The window reads everything it was sent. */
  const read = () => {
    while (output.read() !== null);
  };
  return { output, closed, send, read, dispose: () => writer.dispose() };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

test('a window that keeps up is never closed', async () => {
  const w = window();
  for (let i = 0; i < 50; i++) {
    await w.send(500);
    w.read();
  }
  jest.advanceTimersByTime(60_000);
  expect(w.closed).toEqual([]);
  w.dispose();
});

test('a window over the high water for the grace time is closed, saying how much it left unread', async () => {
  const w = window();
  await w.send(2000);
  jest.advanceTimersByTime(29_999);
  expect(w.closed).toEqual([]);
  jest.advanceTimersByTime(1);
  expect(w.closed).toEqual(['0 MB unread after 30 s']);
  w.dispose();
});

test('a window busy for a moment that then reads below the high water is kept, though nothing more was written', async () => {
  const w = window();
  await w.send(2000);
  jest.advanceTimersByTime(10_000);
  w.read();
  jest.advanceTimersByTime(60_000);
  expect(w.closed).toEqual([]);
  w.dispose();
});

test('a window that read below the high water and falls behind again gets a new grace time', async () => {
  const w = window();
  await w.send(2000);
  jest.advanceTimersByTime(20_000);
  w.read();
  await w.send(10);
  await w.send(2000);
  jest.advanceTimersByTime(20_000);
  expect(w.closed).toEqual([]);
  jest.advanceTimersByTime(10_000);
  expect(w.closed).toHaveLength(1);
  w.dispose();
});

test('a window past the limit is closed at once, once', async () => {
  const w = window({ highWaterBytes: 1000, graceMs: 30_000, limitBytes: 3 * 1024 * 1024 });
  await w.send(2 * 1024 * 1024);
  expect(w.closed).toEqual([]);
  await w.send(2 * 1024 * 1024);
  expect(w.closed).toEqual(['4 MB unread, over the limit of 3 MB']);
  jest.advanceTimersByTime(60_000);
  expect(w.closed).toHaveLength(1);
  w.dispose();
});

test('a connection that closed by itself meanwhile is not closed again', async () => {
  const w = window();
  await w.send(2000);
  w.output.destroy();
  jest.advanceTimersByTime(60_000);
  expect(w.closed).toEqual([]);
  w.dispose();
});
