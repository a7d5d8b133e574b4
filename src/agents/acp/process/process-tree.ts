/**
 * How an agent process and everything it starts are spawned and ended, on each platform: the decisions,
 * with the platform and the system calls handed in (the tests inject them), and the edge that binds them.
 *
 * - POSIX (Linux, macOS): the agent leads its own process group (`detached`), and the group is signalled
 *   with `process.kill(-pgid)`. That is synchronous (it works in an 'exit' handler) and reaches grandchildren
 *   whose parent already died, which walking the process tree cannot.
 * - Windows: there are no process groups and no SIGTERM. The agent is NOT detached: libuv then puts it in
 *   the job object that Windows ends when the bridge ends, however it ends; `detached` would leave that job and
 *   open a console window per agent. That job holds the agent, not what a cmd.exe of it starts (libuv's job lets
 *   grandchildren break away silently), so a tree is ended by the bridge itself: its descendants by pid,
 *   children first, then the agent (`windows-tree.ts`). `windowsHide` keeps any window hidden, and
 *   cross-spawn runs `npx` (`npx.cmd`) and other batch files, which plain `spawn` without a shell refuses.
 */
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import crossSpawn from 'cross-spawn';
import { endWindowsTree } from './windows-tree.js';

/** What of the system ending a tree uses; the real one is `systemCalls`, the tests hand in fakes. */
export interface SystemCalls {
  readonly platform: NodeJS.Platform;
  /** `process.kill`: throws when no such process (or group, for a negative pid) exists. */
  kill(pid: number, signal: NodeJS.Signals | 0): void;
  /** Ends the process's descendants, children first, then the process itself with `endLeader` (Windows). */
  killTree(pid: number, endLeader: () => void): void;
}

export const systemCalls: SystemCalls = {
  platform: process.platform,
  kill: (pid, signal) => process.kill(pid, signal),
  killTree: (pid, endLeader) => endWindowsTree(pid, (each) => (each === pid ? endLeader() : process.kill(each))),
};

/** The spawn options that depend on the platform (see the file's comment). */
export function treeSpawnOptions(platform: NodeJS.Platform): Pick<SpawnOptions, 'detached' | 'windowsHide'> {
  return { detached: platform !== 'win32', windowsHide: true };
}

/** Spawns `command` as the root of a tree that `ProcessTree` can end, on this platform. */
export function spawnTree(command: string, args: readonly string[], options: Omit<SpawnOptions, 'detached' | 'windowsHide'>): ChildProcess {
  return crossSpawn(command, [...args], { ...options, ...treeSpawnOptions(process.platform) });
}

/** A spawned process and what it started. */
export class ProcessTree {
  constructor(
    private readonly pid: number,
    private readonly leaderAlive: () => boolean,
    private readonly system: SystemCalls = systemCalls,
    /**
     * Ends the leader through its ChildProcess handle on Windows, which cannot reach another process that got its pid
     * meanwhile, and reports the signal in its 'exit' event as on POSIX.
     */
    private readonly endLeader: (signal: NodeJS.Signals) => void = (signal) => system.kill(pid, signal),
  ) {}

  private get posix(): boolean {
    return this.system.platform !== 'win32';
  }

  /** Asks the tree to end: SIGTERM to the group; on Windows, where nothing can ask, it ends at once. */
  terminate(): void {
    if (this.posix) this.signalGroup('SIGTERM');
    else if (this.leaderAlive()) this.system.killTree(this.pid, () => this.endLeader('SIGTERM'));
  }

  /** Ends the tree now: SIGKILL to the group; on Windows its processes one by one, children first. */
  forceKill(): void {
    if (this.posix) this.signalGroup('SIGKILL');
    else if (this.leaderAlive()) this.system.killTree(this.pid, () => this.endLeader('SIGKILL'));
  }

  /**
   * Whether any process of the tree may still run: on POSIX, whether the group has a member (the leader may
   * have died before its children); on Windows the leader only (its descendants were ended with it).
   */
  anyAlive(): boolean {
    if (!this.posix) return this.leaderAlive();
    try {
      this.system.kill(-this.pid, 0);
      return true;
    } catch {
      return false;
    }
  }

  private signalGroup(signal: NodeJS.Signals): void {
    try {
      this.system.kill(-this.pid, signal);
    } catch {
      // No such group: it is gone already, or the process could not become a group leader.
      try {
        if (this.leaderAlive()) this.system.kill(this.pid, signal);
      } catch {
        // Gone between the two calls.
      }
    }
  }
}
