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

  constructor(private readonly output: Writable) {
    super();
    output.on('error', (error: Error) => this.fireError(error));
    output.on('close', () => this.fireClose());
  }

  /** Resolves once the stream took the frame (its write callback), as vscode-jsonrpc's writer does. */
  write(message: Message): Promise<void> {
    const json = JSON.stringify(message);
    const bodyBytes = Buffer.byteLength(json, 'utf8');
    const header = `Content-Length: ${bodyBytes}\r\n\r\n`;
    const frame = Buffer.allocUnsafe(header.length + bodyBytes);
    frame.write(header, 0, 'latin1');
    frame.write(json, header.length, 'utf8');
    return new Promise((resolve, reject) => {
      this.output.write(frame, (error) => {
        if (error === null || error === undefined) return resolve();
        this.errors += 1;
        this.fireError(error, message, this.errors);
        reject(error);
      });
    });
  }

  end(): void {
    this.output.end();
  }
}
