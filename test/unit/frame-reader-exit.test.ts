import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const READER = pathToFileURL(path.resolve('dist/src/transport/frame-reader.js')).href;

/**
 * A Node process that reads half a frame from a stream that then ends, disposes its reader and has
 * nothing else to do: it must exit by itself. vscode-jsonrpc's own reader, which the client used before,
 * kept a re-arming timer for a partial frame: a bridge killed mid-write left the extension host (or a jest
 * worker) with a timer that never ended.
 */
function exitsAfterHalfAFrame(): Promise<'exited' | 'still running'> {
  const script = `
    import { PassThrough } from 'node:stream';
    import { FrameReader } from ${JSON.stringify(READER)};
    const stream = new PassThrough();
    const reader = new FrameReader(stream, Number.POSITIVE_INFINITY);
    reader.listen(() => {});
    stream.write('Content-Length: 100\\r\\n\\r\\n{"jsonrpc":"2.0",');
    stream.end();
    setImmediate(() => reader.dispose());
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' });
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve('still running');
    }, 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve('exited');
    });
  });
}

test('a process whose frame reader was left with half a frame exits by itself', async () => {
  expect(await exitsAfterHalfAFrame()).toBe('exited');
}, 10000);
