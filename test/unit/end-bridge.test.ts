/**
 * How a client ends its bridge (`src/client/end-bridge.ts`), with the platform injected: on Windows a signal would be
 * TerminateProcess, which leaves the bridge no time to end the agents a cmd.exe started, so its stdin is ended instead.
 */
import { askBridgeToEnd } from '../../src/client/end-bridge.js';

function fakeChild() {
  const calls: string[] = [];
  return {
    calls,
    child: {
      kill: (signal?: NodeJS.Signals | number) => {
        calls.push(`kill ${String(signal)}`);
        return true;
      },
      stdin: { end: () => calls.push('stdin end') } as unknown as NodeJS.WritableStream & import('node:stream').Writable,
    },
  };
}

test.each(['linux', 'darwin'] as const)('%s: SIGTERM, which the bridge handles by ending its agents first', (platform) => {
  const { child, calls } = fakeChild();
  askBridgeToEnd(child, platform);
  expect(calls).toEqual(['kill SIGTERM']);
});

test('win32: no signal (it would be TerminateProcess); the end of its stdin, which the bridge answers the same way', () => {
  const { child, calls } = fakeChild();
  askBridgeToEnd(child, 'win32');
  expect(calls).toEqual(['stdin end']);
});
