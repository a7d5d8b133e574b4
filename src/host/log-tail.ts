import { closeSync, openSync, readSync, statSync } from 'node:fs';

/** How often the host's log is looked at for new lines. */
const POLL_MS = 200;

/**
 * Follows the agent host's log from `offset` on and hands each new line to `onLine`, for a window's own log: the host
 * writes to a file of its own, not to any window's stderr. Stops with `dispose`; a file that is gone or cut short
 * is read again from its start.
 */
export function tailLog(file: string, offset: number, onLine: (line: string) => void): { dispose(): void } {
  let position = offset;
  let partial = '';
  const read = () => {
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      return;
    }
    if (size < position) position = 0;
    if (size === position) return;
    const buffer = Buffer.alloc(Math.min(size - position, 1024 * 1024));
    const fd = openSync(file, 'r');
    try {
      position += readSync(fd, buffer, 0, buffer.length, position);
    } finally {
      closeSync(fd);
    }
    const lines = (partial + buffer.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) onLine(line.replace(/\r$/, ''));
  };
  const timer = setInterval(read, POLL_MS);
  timer.unref();
  return {
    dispose: () => {
      clearInterval(timer);
      read();
    },
  };
}

/** The size of `file` now (0 when there is none): where a tail of what comes next starts. */
export function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
