/**
 * How a client ends the bridge it spawned, so that the bridge ends its agents first. On POSIX: SIGTERM, which the
 * bridge handles (its agents' trees end, then it exits). On Windows a signal is TerminateProcess: the bridge would
 * end nothing, and an agent that a cmd.exe started (npx.cmd, an npm .cmd shim) is in no job object that ends with
 * it. So there the bridge's stdin is ended, which it answers the same way (VS Code went away). Either way the
 * process is killed outright when it has not exited after the grace period.
 */
import type { ChildProcess } from 'node:child_process';

export const BRIDGE_STOP_GRACE_MS = 5000;

/** Asks the bridge to end its agents and exit, the way its platform lets it hear. */
export function askBridgeToEnd(child: Pick<ChildProcess, 'kill' | 'stdin'>, platform: NodeJS.Platform = process.platform): void {
  if (platform === 'win32') child.stdin?.end();
  else child.kill('SIGTERM');
}

/** Ends the bridge (see above); resolves once it has exited. */
export async function endBridge(child: ChildProcess, graceMs = BRIDGE_STOP_GRACE_MS): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  askBridgeToEnd(child);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
