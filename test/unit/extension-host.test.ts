/**
 * The extension's bridge manager joining the person's agent host (`symposium.agentHost: shared`), against the
 * built CLI: two windows served by one host, a window that stops leaves the host to the other, a host that dies
 * fails the requests in flight with a readable error and the next request starts a new one, and the host ends
 * by itself once no window is left.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BridgeExitedError, BridgeProcess } from '../../src/extension/provider/bridge-process.js';
import { createExtensionLog } from '../../src/log/extension-log.js';
import type { ProvideChatResponseParams, ResponsePart } from '../../src/protocol/messages.js';
import { waitUntil } from '../fixtures/wait-until.js';

const CLI = path.resolve(process.env.SYMPOSIUM_LM_CLI ?? 'dist/src/cli/main.js');
let dir: string;
const bridges: BridgeProcess[] = [];

const request = (text: string): ProvideChatResponseParams => ({
  modelId: 'symposium-eliza',
  messages: [{ role: 'user', content: [{ type: 'text', value: text }] }],
  agent: { eliza: { deterministic: true } },
});

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'symposium-ext-host-'));
});

afterEach(async () => {
  await Promise.all(bridges.splice(0).map((b) => b.dispose()));
  for (const pid of hostPids()) process.kill(pid, 'SIGTERM');
  expect(await waitUntil(() => hostPids().length === 0, 5000, 50)).toBe(true);
  if (process.env.KEEP_HOST_LOG !== undefined) console.log(readdirSync(dir).map((f) => f.endsWith('.log') ? readFileSync(path.join(dir, f), 'utf8') : f).join('\n'));
  rmSync(dir, { recursive: true, force: true });
});

function hostPids(): number[] {
  return readdirSync('/proc').flatMap((entry) => {
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      return /^\d+$/.test(entry) && args.includes('--host') && args[args.indexOf('--host-dir') + 1] === dir ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

function window(cwd: string, options: { paceMs?: number; idleMs?: number } = {}) {
  const lines: string[] = [];
  const channel = { error: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), info: (m: string) => lines.push(m) };
  const bridge = new BridgeProcess({
    bridgePath: CLI,
    launch: () => ({ cwd, logLevel: 'info', host: { build: 'test', dir, idleMs: options.idleMs ?? 60_000 } }),
    log: createExtensionLog(channel, () => 'debug'),
    extraArgs: ['--eliza-pace-ms', String(options.paceMs ?? 0)],
  });
  bridges.push(bridge);
  return { bridge, lines };
}

async function collect(bridge: BridgeProcess, text: string): Promise<string> {
  const parts: ResponsePart[] = [];
  await bridge.provideChatResponse(request(text), (part) => parts.push(part));
  return parts.map((p) => (p.type === 'text' ? p.value : '')).join('');
}

test('two windows join one host; one that stops leaves it serving the other', async () => {
  const one = window(os.tmpdir());
  const two = window(os.homedir());
  const [a, b] = await Promise.all([collect(one.bridge, 'I am sad'), collect(two.bridge, 'I am happy')]);
  expect([a, b]).toEqual(['I am sorry to hear that you are sad.', 'How have I helped you to be happy?']);
  expect(one.bridge.pid).toBe(two.bridge.pid);
  // A second host started at the same moment lost the race and ends.
  expect(await waitUntil(() => hostPids().length === 1, 3000, 50)).toBe(true);
  expect(hostPids()).toEqual([one.bridge.pid]);
  expect(one.lines.concat(two.lines).filter((l) => /^(started|joined) the agent host \(pid \d+\) of build test/.test(l))).toHaveLength(2);
  const host = one.bridge.pid;
  await one.bridge.stop();
  expect(one.bridge.pid).toBeUndefined();
  expect(await collect(two.bridge, 'I am tired')).toMatch(/tired/);
  expect(hostPids()).toEqual([host]);
});

test('a host that dies fails the requests in flight with a readable error; the next request starts a new one', async () => {
  const { bridge } = window(os.tmpdir(), { paceMs: 200 });
  await collect(bridge, 'hello');
  const first = bridge.pid!;
  const inFlight = collect(bridge, 'I am worried about my exams and everything').catch((e: unknown) => e);
  setTimeout(() => process.kill(first, 'SIGKILL'), 300);
  const failure = await inFlight;
  expect(failure).toBeInstanceOf(BridgeExitedError);
  expect((failure as Error).message).toBe('The Symposium agent host closed the connection (it ended or crashed). It restarts with the next request.');
  expect(await collect(bridge, 'hello again')).toMatch(/\S/);
  expect(bridge.pid).not.toBe(first);
});

test('the host ends by itself once its last window left and the idle time passed', async () => {
  const { bridge } = window(os.tmpdir(), { idleMs: 300 });
  await collect(bridge, 'hello');
  const host = bridge.pid!;
  await bridge.dispose();
  expect(hostPids()).toEqual([host]);
  expect(await waitUntil(() => hostPids().length === 0, 5000, 50)).toBe(true);
});
