import type { Writable } from 'node:stream';
import { AbstractMessageWriter, type Message, type MessageWriter } from 'vscode-jsonrpc/node.js';

/**
 * A `Content-Length` message writer that hands each message to its stream in one write. vscode-jsonrpc's
 * writes the header, waits for that write's callback, then writes the body: two system calls on a pipe,
 * and the reader, woken by the header alone, waits a second time for the body; its promise chain (the
 * encoder, a semaphore) adds microtasks to every message. Here the frame is encoded at once and written
 * synchronously, so messages stay in order without a semaphore.
 */
export class FrameWriter extends AbstractMessageWriter implements MessageWriter {
  private errors = 0;

  /** `written`, if given, is called after each frame is handed to the stream (the agent host watches what a window leaves unread). */
  constructor(
    private readonly output: Writable,
    private readonly written?: () => void,
  ) {
    super();
    output.on('error', (error: Error) => this.fireError(error));
    output.on('close', () => this.fireClose());
  }

  /**
   * Resolves once the stream took the frame, at once; rejects if the stream is closed. Not once the frame
   * was flushed: when the reader stops reading, what waits must pile up in the stream, where the bridge's
   * OutputPressure sees it and holds the agents back, not in writers waiting on their promises.
   */
  write(message: Message): Promise<void> {
    const json = JSON.stringify(message);
    const bodyBytes = Buffer.byteLength(json, 'utf8');
    const header = `Content-Length: ${bodyBytes}\r\n\r\n`;
    const frame = Buffer.allocUnsafe(header.length + bodyBytes);
    frame.write(header, 0, 'latin1');
    frame.write(json, header.length, 'utf8');
    if (this.output.destroyed || this.output.writableEnded) {
      const error = new Error('The stream is closed.');
      this.failed(error, message);
      return Promise.reject(error);
    }
    this.output.write(frame, (error) => {
      if (error !== null && error !== undefined) this.failed(error, message);
    });
    this.written?.();
    return Promise.resolve();
  }

  private failed(error: Error, message: Message): void {
    this.errors += 1;
    this.fireError(error, message, this.errors);
  }

  end(): void {
    this.output.end();
  }
}
