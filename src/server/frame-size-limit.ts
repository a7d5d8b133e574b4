import { Transform, type TransformCallback } from 'node:stream';

/** The method under which a frame too large to read reaches the connection, so that its request is answered. */
export const TOO_LARGE_METHOD = '$/symposium/messageTooLarge';

/** How much of a refused frame's body is kept to find its request id (the id comes first in practice). */
const ID_WINDOW = 1024;

/**
 * Sits in front of the JSON-RPC reader (vscode-jsonrpc has no size limit) and passes Content-Length
 * frames through, except frames longer than `maxBytes`: their bodies are discarded as they stream in,
 * never buffered, and replaced by a small `$/symposium/messageTooLarge` request with the same id, so
 * the consumer gets a clear error instead of the bridge running out of memory.
 */
export class FrameSizeLimit extends Transform {
  private header = Buffer.alloc(0);
  /** Bytes of the current body still to come, and whether they pass through or are discarded. */
  private remaining = 0;
  private refusing: { bytes: number; start: Buffer } | undefined;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let data = chunk;
    while (data.length > 0) {
      if (this.remaining > 0) {
        const body = data.subarray(0, this.remaining);
        data = data.subarray(body.length);
        this.remaining -= body.length;
        if (this.refusing === undefined) this.push(body);
        else if (this.refusing.start.length < ID_WINDOW) this.refusing.start = Buffer.concat([this.refusing.start, body.subarray(0, ID_WINDOW - this.refusing.start.length)]);
        if (this.remaining === 0 && this.refusing !== undefined) this.refuse(this.refusing);
        continue;
      }
      this.header = Buffer.concat([this.header, data]);
      data = Buffer.alloc(0);
      const end = this.header.indexOf('\r\n\r\n');
      if (end < 0) break;
      const headers = this.header.subarray(0, end + 4);
      data = this.header.subarray(end + 4);
      this.header = Buffer.alloc(0);
      const length = Number(/content-length:\s*(\d+)/i.exec(headers.toString('ascii'))?.[1] ?? NaN);
      // Without a length the reader reports the broken frame itself.
      if (!Number.isFinite(length)) {
        this.push(Buffer.concat([headers, data]));
        data = Buffer.alloc(0);
        continue;
      }
      this.remaining = length;
      if (length > this.maxBytes) this.refusing = { bytes: length, start: Buffer.alloc(0) };
      else this.push(headers);
      if (length === 0 && this.refusing !== undefined) this.refuse(this.refusing);
    }
    done();
  }

  private refuse(frame: { bytes: number; start: Buffer }): void {
    this.refusing = undefined;
    const id = /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/.exec(frame.start.toString('utf8'))?.[1];
    // A notification has no id and no one to answer: it is dropped.
    if (id === undefined) return;
    const body = Buffer.from(`{"jsonrpc":"2.0","id":${id},"method":"${TOO_LARGE_METHOD}","params":{"bytes":${frame.bytes},"limit":${this.maxBytes}}}`);
    this.push(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
  }
}
