import { RAL } from 'vscode-jsonrpc/node.js';

/**
 * vscode-jsonrpc handles the messages it has read after a `setImmediate`: every request waits one more
 * turn of the event loop before its handler runs, ~0.15 ms of a turn's first part on a machine like the
 * bench's (issue 16). A microtask still runs after everything one read delivered has been queued, so a
 * `$/cancelRequest` read with its request finds it undispatched, as before; only the turn of the loop
 * is saved. Through the runtime layer vscode-jsonrpc lets its hosts install: this process's connections
 * only (the bridge has one).
 */
export function dispatchInMicrotasks(): void {
  const ral = RAL();
  RAL.install({
    ...ral,
    timer: {
      ...ral.timer,
      setImmediate: (callback: (...args: unknown[]) => void, ...args: unknown[]) => {
        let disposed = false;
        queueMicrotask(() => {
          if (!disposed) callback(...args);
        });
        return { dispose: () => (disposed = true) };
      },
    },
  });
}
