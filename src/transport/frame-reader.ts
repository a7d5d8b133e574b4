import type { Readable } from 'node:stream';
import { AbstractMessageReader, type DataCallback, type Disposable, type Message, type MessageReader } from 'vscode-jsonrpc/node.js';

/** The method under which a frame too large to read reaches the connection, so that its request is answered. */
export const TOO_LARGE_METHOD = '$/symposium/messageTooLarge';
/** The method under which a request whose frame could not be read reaches the connection, to be answered -32700. */
export const BAD_FRAME_METHOD = '$/symposium/badFrame';

/** Params of the synthetic requests above. */
export interface TooLargeParams {
  readonly bytes: number;
  readonly limit: number;
}
export interface BadFrameParams {
  readonly reason: string;
}

/** A header block longer than this is not one: the stream is out of step. */
const MAX_HEADER_BYTES = 8 * 1024;
/** How much of an unreadable or refused body is kept to find its request id (the id comes first in practice). */
const ID_WINDOW = 1024;
const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');
const CONTENT_LENGTH = 'content-length:';
const ID = /"id"\s*:\s*("(?:[^"\\]|\\.){0,256}"|-?\d{1,16})\s*[,}]/;

type State =
  | { readonly kind: 'header' }
  | { readonly kind: 'body'; readonly length: number; received: number; readonly chunks: Buffer[] }
  | { readonly kind: 'refused'; readonly length: number; received: number; start: Buffer }
  /** Out of step: bytes are skipped up to the next `Content-Length:`, answering the broken request if its id shows. */
  | { readonly kind: 'resync'; readonly reason: string; start: Buffer; answered: boolean; tail: string };

/**
 * A strict `Content-Length` message reader with bounded memory and linear time, replacing
 * vscode-jsonrpc's, which went deaf on a bad header (it stops reading for good), took a `Content-Length`
 * of `-5`, `5.5` or `0x10` as a number, let a second `Content-Length` header past any size check, and
 * buffered without bound.
 *
 * A header block must end within 8 KB and hold exactly one `Content-Length` of decimal digits; a body
 * must be JSON. A frame that breaks these is reported (`onError`), its request answered when its id can
 * be read (as a `$/symposium/badFrame` request the server answers -32700), and reading resumes at the
 * next `Content-Length:`, so what follows is answered. A body over `maxBodyBytes` is discarded as it
 * arrives and its request answered as `$/symposium/messageTooLarge`.
 */
export class FrameReader extends AbstractMessageReader implements MessageReader {
  private state: State = { kind: 'header' };
  private header: Buffer = Buffer.alloc(0);
  private callback: DataCallback | undefined;
  private closed = false;

  constructor(
    private readonly stream: Readable,
    private readonly maxBodyBytes: number,
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    const onData = (data: Buffer) => this.read(data);
    const onError = (error: Error) => this.fireError(error);
    const onClose = () => {
      if (this.closed) return;
      this.closed = true;
      this.fireClose();
    };
    this.stream.on('data', onData);
    this.stream.on('error', onError);
    this.stream.on('end', onClose);
    this.stream.on('close', onClose);
    return {
      dispose: () => {
        this.stream.off('data', onData);
        this.stream.off('error', onError);
        this.stream.off('end', onClose);
        this.stream.off('close', onClose);
      },
    };
  }

  /** Consumes one chunk: every whole frame in it is delivered before the next chunk comes. */
  private read(chunk: Buffer): void {
    let data = chunk;
    while (data.length > 0) {
      const state = this.state;
      switch (state.kind) {
        case 'header':
          data = this.readHeader(data);
          break;
        case 'body': {
          const take = Math.min(data.length, state.length - state.received);
          if (take === state.length) {
            // The whole body in one chunk, as nearly always: read where it is, not copied first.
            const body = data.subarray(0, take);
            data = data.subarray(take);
            this.deliver(body);
            break;
          }
          state.chunks.push(data.subarray(0, take));
          state.received += take;
          data = data.subarray(take);
          if (state.received === state.length) this.deliver(Buffer.concat(state.chunks));
          break;
        }
        case 'refused': {
          const take = Math.min(data.length, state.length - state.received);
          if (state.start.length < ID_WINDOW) state.start = Buffer.concat([state.start, data.subarray(0, Math.min(take, ID_WINDOW - state.start.length))]);
          state.received += take;
          data = data.subarray(take);
          if (state.received === state.length) this.refuse(state.length, state.start);
          break;
        }
        case 'resync':
          data = this.resync(state, data);
          break;
      }
    }
  }

  /** Collects a header block; returns what follows it. Scans each byte a bounded number of times. */
  private readHeader(data: Buffer): Buffer {
    const scanFrom = Math.max(0, this.header.length - (HEADER_END.length - 1));
    this.header = this.header.length === 0 ? data : Buffer.concat([this.header, data]);
    const end = this.header.indexOf(HEADER_END, scanFrom);
    if (end < 0) {
      if (this.header.length <= MAX_HEADER_BYTES) return Buffer.alloc(0);
      const skipped = this.header.subarray(1);
      this.header = Buffer.alloc(0);
      this.startResync(`a header block longer than ${MAX_HEADER_BYTES} bytes (starting ${preview(skipped)})`, Buffer.alloc(0));
      return skipped;
    }
    const block = this.header.subarray(0, end).toString('latin1');
    const rest = this.header.subarray(end + HEADER_END.length);
    this.header = Buffer.alloc(0);
    const length = contentLength(block);
    if (typeof length === 'string') {
      this.startResync(length, Buffer.alloc(0));
      return rest;
    }
    if (length > this.maxBodyBytes && length > 0) this.state = { kind: 'refused', length, received: 0, start: Buffer.alloc(0) };
    else this.state = { kind: 'body', length, received: 0, chunks: [] };
    if (length === 0) this.deliver(Buffer.alloc(0));
    return rest;
  }

  private deliver(body: Buffer): void {
    this.state = { kind: 'header' };
    let message: unknown;
    try {
      message = JSON.parse(body.toString('utf8'));
    } catch {
      // Most likely a Content-Length counted in characters rather than bytes: the rest of the body follows.
      const reason = `a body of ${body.length} bytes that is not JSON (is its Content-Length counted in bytes?)`;
      const id = idIn(body.subarray(0, ID_WINDOW));
      if (id !== undefined) this.badFrame(id, reason);
      this.startResync(reason, Buffer.alloc(0), id !== undefined);
      return;
    }
    if (typeof message !== 'object' || message === null) {
      this.fireError(new Error(`Ignored a message that is not a JSON object: ${preview(body)}`));
      return;
    }
    this.callback?.(message as Message);
  }

  private startResync(reason: string, start: Buffer, answered = false): void {
    this.fireError(new Error(`Unreadable frame: ${reason}; skipping to the next Content-Length header`));
    this.state = { kind: 'resync', reason, start, answered, tail: '' };
  }

  /** Skips to the next `Content-Length:` (any case); returns the data from there on. */
  private resync(state: Extract<State, { kind: 'resync' }>, data: Buffer): Buffer {
    const text = state.tail + data.toString('latin1').toLowerCase();
    const found = text.indexOf(CONTENT_LENGTH);
    const skipped = found < 0 ? data : data.subarray(0, Math.max(0, found - state.tail.length));
    if (!state.answered && state.start.length < ID_WINDOW) {
      state.start = Buffer.concat([state.start, skipped.subarray(0, ID_WINDOW - state.start.length)]);
      const id = idIn(state.start);
      if (id !== undefined) {
        state.answered = true;
        this.badFrame(id, state.reason);
      }
    }
    if (found < 0) {
      state.tail = text.slice(-(CONTENT_LENGTH.length - 1));
      return Buffer.alloc(0);
    }
    this.state = { kind: 'header' };
    // A header that began in the previous chunk: its first bytes are put back.
    const carried = Buffer.from(text.slice(found, state.tail.length), 'latin1');
    const from = data.subarray(Math.max(0, found - state.tail.length));
    return carried.length === 0 ? from : Buffer.concat([carried, from]);
  }

  private refuse(bytes: number, start: Buffer): void {
    this.state = { kind: 'header' };
    const id = idIn(start);
    // A notification has no id and no one to answer: it is dropped.
    if (id === undefined) return;
    this.callback?.({ jsonrpc: '2.0', id, method: TOO_LARGE_METHOD, params: { bytes, limit: this.maxBodyBytes } satisfies TooLargeParams } as Message);
  }

  private badFrame(id: string | number, reason: string): void {
    this.callback?.({ jsonrpc: '2.0', id, method: BAD_FRAME_METHOD, params: { reason } satisfies BadFrameParams } as Message);
  }
}

/** The body length a header block declares, or why it declares none. */
function contentLength(block: string): number | string {
  let length: number | undefined;
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) return `a header line without a name: ${preview(Buffer.from(line, 'latin1'))}`;
    if (line.slice(0, colon).trim().toLowerCase() !== 'content-length') continue;
    const value = line.slice(colon + 1).trim();
    if (length !== undefined) return 'a second Content-Length header';
    if (!/^\d{1,15}$/.test(value)) return `a Content-Length that is not a byte count: ${preview(Buffer.from(value, 'latin1'))}`;
    length = Number(value);
  }
  return length ?? 'a header block without Content-Length';
}

function idIn(start: Buffer): string | number | undefined {
  const raw = ID.exec(start.toString('utf8'))?.[1];
  if (raw === undefined) return undefined;
  try {
    const id: unknown = JSON.parse(raw);
    return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** At most 64 bytes of what was read, quoted, for a log line. */
function preview(bytes: Buffer): string {
  const shown = JSON.stringify(bytes.subarray(0, 64).toString('latin1'));
  return bytes.length > 64 ? `${shown}…` : shown;
}
