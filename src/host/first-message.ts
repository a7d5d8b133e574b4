import type { Socket } from 'node:net';

/** A first message larger than this is no window's hello: the connection is closed unread. */
export const FIRST_MESSAGE_MAX_BYTES = 64 * 1024;
/** A connection that has not said who it is within this long is closed. */
export const FIRST_MESSAGE_MS = 10_000;

/**
 * Reads a connection's first `Content-Length` frame without consuming it: resolves with its JSON (the bytes read
 * are put back, so the connection's reader reads that message too, and answers it), or undefined for anything
 * else — junk, a frame over FIRST_MESSAGE_MAX_BYTES, silence for FIRST_MESSAGE_MS, the peer gone. The socket is
 * left paused.
 */
export function peekFirstMessage(socket: Socket, timeoutMs = FIRST_MESSAGE_MS): Promise<unknown> {
  return new Promise((resolve) => {
    let buffered = Buffer.alloc(0);
    const finish = (message: unknown) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
      socket.pause();
      if (message !== undefined) socket.unshift(buffered);
      resolve(message);
    };
    const onEnd = () => finish(undefined);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const read = frameIn(buffered);
      if (read === 'more') return;
      finish(read);
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('close', onEnd);
  });
}

/** The JSON of the frame at the start of `data`; 'more' while it may still come; undefined when it is none. */
function frameIn(data: Buffer): unknown {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return data.length > 1024 ? undefined : 'more';
  const header = /^Content-Length: *(\d{1,9})$/i.exec(data.subarray(0, end).toString('latin1').trim());
  if (header === null) return undefined;
  const length = Number(header[1]);
  if (length > FIRST_MESSAGE_MAX_BYTES) return undefined;
  const start = end + 4;
  if (data.length < start + length) return data.length > FIRST_MESSAGE_MAX_BYTES + 1024 ? undefined : 'more';
  try {
    const message: unknown = JSON.parse(data.subarray(start, start + length).toString('utf8'));
    return typeof message === 'object' && message !== null ? message : undefined;
  } catch {
    return undefined;
  }
}
