/**
 * No orphan, however the agent behaves (issue 17, point 6; issue 15): an agent that ignores SIGTERM and the end
 * of its stdin, with a grandchild that ignores SIGTERM too, ends with the bridge whether the bridge is
 * SIGTERMed (the extension's stop) or its stdin closes (VS Code gone); and a polite agent's stubborn grandchild
 * ends with its agent while the bridge runs on. Against the built bridge and `test/fixtures/stubborn-agent.ts`.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { textOfParts } from '../../src/client/lm-client.js';
import type { AgentDefinition } from '../../src/protocol/messages.js';
import { AgentBridge, user } from '../integration/agent-bridge.js';
import { waitUntil } from '../fixtures/wait-until.js';

const STUBBORN_AGENT = path.resolve('dist/test/fixtures/stubborn-agent.js');

/** Every live process whose command line contains `marker` (zombies are dead: their parent has not reaped them yet). */
function processesOf(marker: string): number[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && m[2]!.includes(marker))
    .map((m) => Number(m[1]))
    .filter(alive);
}

function alive(pid: number): boolean {
  try {
    return existsSync(`/proc/${pid}`) && !/State:\s+Z/.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

const until = (condition: () => boolean, timeoutMs: number): Promise<boolean> => waitUntil(condition, timeoutMs, 50);

/** Whether the child exits within `timeoutMs` (bounded: the grace period is seconds, not minutes). */
async function exitsWithin(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  return until(() => child.exitCode !== null || child.signalCode !== null, timeoutMs);
}

let dir: string;
let marker: string;
let bridge: AgentBridge | undefined;

beforeEach(() => {
  // A uniquely named link to the agent: its processes (and its grandchild, which names it) are found by that name.
  dir = mkdtempSync(path.join(tmpdir(), 'orphans-'));
  marker = path.join(dir, `stubborn-${process.pid}-${Date.now()}.js`);
  symlinkSync(STUBBORN_AGENT, marker);
});

afterEach(async () => {
  await bridge?.close();
  bridge = undefined;
  // Whatever a failed test left behind.
  for (const pid of processesOf(marker)) process.kill(pid, 'SIGKILL');
  await until(() => processesOf(marker).length === 0, 5000);
  rmSync(dir, { recursive: true, force: true });
});

function stubborn(flags: string[] = []): AgentDefinition {
  return { mcp_server: { name: 'stubborn', command: process.execPath, args: [marker, ...flags], env: [{ name: 'NODE_OPTIONS', value: '' }] } };
}

/** A bridge whose agent (and its grandchild) run and answer. */
async function runningAgent(flags: string[] = [], bridgeArgs: string[] = []): Promise<AgentBridge> {
  bridge = new AgentBridge(bridgeArgs);
  expect(textOfParts(await bridge.chat([user('say hello')], stubborn(flags)))).toBe('hello');
  expect(await until(() => processesOf(marker).length === 2, 5000)).toBe(true);
  return bridge;
}

describe('an agent that ignores SIGTERM, with a grandchild that does too, does not outlive the bridge', () => {
  test('the bridge SIGTERMed (the extension stops it): it SIGKILLs the agent\'s tree after the grace period, then exits', async () => {
    const running = await runningAgent();
    running.child.kill('SIGTERM');
    expect(await exitsWithin(running.child, 15_000)).toBe(true);
    expect(await until(() => processesOf(marker).length === 0, 5000)).toBe(true);
    expect(await running.logged(/stubborn-agent: ignoring SIGTERM/)).toMatch(/stubborn-agent: ignoring SIGTERM/);
  }, 30_000);

  test('the bridge\'s stdin closes (VS Code went away): the same', async () => {
    const running = await runningAgent();
    running.child.stdin!.end();
    expect(await exitsWithin(running.child, 15_000)).toBe(true);
    expect(await until(() => processesOf(marker).length === 0, 5000)).toBe(true);
  }, 30_000);

  test('a polite agent with a stubborn grandchild, ended for idling while the bridge runs on: the grandchild ends too', async () => {
    const running = await runningAgent(['--polite'], ['--session-idle-ms', '100', '--agent-idle-ms', '100']);
    // The session closes, then the agent process idles out; its whole tree goes, the bridge stays.
    expect(await until(() => processesOf(marker).length === 0, 10_000)).toBe(true);
    expect(running.child.exitCode).toBeNull();
    expect(textOfParts(await running.chat([user('say again')], stubborn(['--polite'])))).toBe('again');
  }, 30_000);
});
