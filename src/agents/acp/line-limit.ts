import { Transform } from 'node:stream';

/**
 * Passes an agent's newline-delimited stdout through until one line exceeds `maxLineBytes` (the ACP
 * SDK's limit on a message: beyond it the SDK's connection breaks for good while the process lives on).
 * Then `onOverflow` is told once and nothing more passes: the agent is to be restarted, and this line
 * is never buffered whole.
 */
export function lineLimit(maxLineBytes: number, onOverflow: () => void): Transform {
  let lineBytes = 0;
  let overflowed = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (overflowed) return done();
      let lineStart = 0;
      for (let from = 0; ; ) {
        const newline = chunk.indexOf(10, from);
        lineBytes += (newline < 0 ? chunk.length : newline) - from;
        if (lineBytes > maxLineBytes) {
          overflowed = true;
          onOverflow();
          return done(null, chunk.subarray(0, lineStart));
        }
        if (newline < 0) break;
        lineBytes = 0;
        from = lineStart = newline + 1;
      }
      done(null, chunk);
    },
  });
}
