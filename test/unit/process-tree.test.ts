/**
 * How agent trees are spawned and ended on each platform (`src/agents/acp/process/process-tree.ts`), with the
 * platform and the system calls injected: what runs on Windows and macOS is decided by the same code.
 */
import { ProcessTree, treeSpawnOptions, type SystemCalls } from '../../src/agents/acp/process/process-tree.js';

/** Records the calls; `groups` and `processes` say which pids exist. */
function fakeSystem(platform: NodeJS.Platform, exists: { groups?: Set<number>; processes?: Set<number> } = {}) {
  const calls: string[] = [];
  const system: SystemCalls = {
    platform,
    kill(pid, signal) {
      calls.push(`kill ${pid} ${signal}`);
      const known = pid < 0 ? exists.groups?.has(-pid) : exists.processes?.has(pid);
      if (known !== true) throw Object.assign(new Error('ESRCH'), { code: 'ESRCH' });
    },
    killTree(pid, endLeader) {
      calls.push(`killTree ${pid}`);
      endLeader();
    },
  };
  return { system, calls };
}

describe('spawn options', () => {
  test.each(['linux', 'darwin', 'freebsd'] as const)('%s: the agent leads its own process group, and no window shows', (platform) => {
    expect(treeSpawnOptions(platform)).toEqual({ detached: true, windowsHide: true });
  });

  test('win32: not detached (it stays in the job Windows ends with the bridge, and opens no console window), windows hidden', () => {
    expect(treeSpawnOptions('win32')).toEqual({ detached: false, windowsHide: true });
  });
});

describe('ending a tree on POSIX: the process group', () => {
  test.each(['linux', 'darwin'] as const)('%s: terminate sends SIGTERM to the group, forceKill SIGKILL', (platform) => {
    const { system, calls } = fakeSystem(platform, { groups: new Set([42]) });
    const tree = new ProcessTree(42, () => true, system);
    tree.terminate();
    tree.forceKill();
    expect(calls).toEqual(['kill -42 SIGTERM', 'kill -42 SIGKILL']);
  });

  test('the tree is alive while its group has a member, even after the leader died (a grandchild left behind)', () => {
    const groups = new Set([42]);
    const { system, calls } = fakeSystem('linux', { groups });
    const tree = new ProcessTree(42, () => false, system);
    expect(tree.anyAlive()).toBe(true);
    groups.delete(42);
    expect(tree.anyAlive()).toBe(false);
    expect(calls).toEqual(['kill -42 0', 'kill -42 0']);
  });

  test('no such group (the process could not lead one): the leader itself is signalled while it lives', () => {
    const { system, calls } = fakeSystem('linux', { processes: new Set([42]) });
    new ProcessTree(42, () => true, system).terminate();
    expect(calls).toEqual(['kill -42 SIGTERM', 'kill 42 SIGTERM']);
  });

  test('nothing left: no signal reaches any other process, nothing throws', () => {
    const { system, calls } = fakeSystem('linux');
    const tree = new ProcessTree(42, () => false, system);
    expect(() => tree.forceKill()).not.toThrow();
    expect(calls).toEqual(['kill -42 SIGKILL']);
  });
});

describe('ending a tree on Windows: the bridge ends it process by process (windows-tree.ts), never a process group', () => {
  test('terminate and forceKill end the whole tree at once, while the leader lives', () => {
    const { system, calls } = fakeSystem('win32', { processes: new Set([42]) });
    let leaderAlive = true;
    const tree = new ProcessTree(42, () => leaderAlive, system);
    tree.terminate();
    leaderAlive = false;
    tree.forceKill();
    expect(calls).toEqual(['killTree 42', 'kill 42 SIGTERM']);
  });

  test('the leader is ended through its handle, with the signal its exit then reports (SIGTERM, then SIGKILL)', () => {
    const { system, calls } = fakeSystem('win32');
    const tree = new ProcessTree(42, () => true, system, (signal) => calls.push(`leader ${signal}`));
    tree.terminate();
    tree.forceKill();
    expect(calls).toEqual(['killTree 42', 'leader SIGTERM', 'killTree 42', 'leader SIGKILL']);
  });

  test('alive means the leader is: its descendants were ended with it', () => {
    const { system, calls } = fakeSystem('win32');
    let leaderAlive = true;
    const tree = new ProcessTree(42, () => leaderAlive, system);
    expect(tree.anyAlive()).toBe(true);
    leaderAlive = false;
    expect(tree.anyAlive()).toBe(false);
    expect(calls).toEqual([]);
  });
});
