import type { Readable } from 'node:stream';
import { StreamMessageReader } from 'vscode-jsonrpc/node.js';

/**
 * A `Content-Length` message reader for a stream, without vscode-jsonrpc's partial-message timer.
 *
 * That timer (10 s) re-arms itself for as long as half a frame sits in the buffer, and neither the
 * stream's end nor `dispose()` clears it: a peer killed mid-write left a ref'd timer that kept the
 * process (a jest worker, the extension host) alive forever. Nothing here listens for partial messages,
 * so the timer is never armed.
 */
export function messageReader(stream: Readable): StreamMessageReader {
  const reader = new StreamMessageReader(stream);
  reader.partialMessageTimeout = 0;
  return reader;
}
