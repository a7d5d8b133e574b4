/**
 * The extension's bridge manager against the built CLI (dist/, `npm test` builds it first): started
 * lazily and once, requests streamed, cancellation, a bridge dying under a request (a readable error,
 * never a hang) and the restart after it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CancellationTokenSource, ResponseError } from 'vscode-jsonrpc/node.js';
import { BridgeExitedError, BridgeProcess, type BridgeLaunch } from '../../src/extension/provider/bridge-process.js';
import { createExtensionLog } from '../../src/log/extension-log.js';
import type { ProvideChatResponseParams, ResponsePart } from '../../src/protocol/messages.js';

const CLI = path.resolve(process.env.SYMPOSIUM_LM_CLI ?? 'dist/src/cli/main.js');

const request = (text: string): ProvideChatResponseParams => ({
  modelId: 'symposium-eliza',
  messages: [{ role: 'user', content: [{ type: 'text', value: text }] }],
  agent: { eliza: { deterministic: true } },
});

const bridges: BridgeProcess[] = [];

function makeBridge(options: { bridgePath?: string; paceMs?: number; launch?: Partial<BridgeLaunch> } = {}) {
  const lines: string[] = [];
  const channel = { error: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), info: (m: string) => lines.push(m) };
  const bridge = new BridgeProcess({
    bridgePath: options.bridgePath ?? CLI,
    launch: () => ({ cwd: os.tmpdir(), logLevel: 'info', ...options.launch }),
    log: createExtensionLog(channel, () => 'debug'),
    extraArgs: ['--eliza-pace-ms', String(options.paceMs ?? 0)],
  });
  bridges.push(bridge);
  return { bridge, lines };
}

async function collect(bridge: BridgeProcess, text: string, token?: CancellationTokenSource['token']): Promise<string> {
  const parts: ResponsePart[] = [];
  await bridge.provideChatResponse(request(text), (part) => parts.push(part), token);
  return parts.map((p) => (p.type === 'text' ? p.value : '')).join('');
}

afterEach(async () => {
  await Promise.all(bridges.splice(0).map((b) => b.dispose()));
});

test('starts lazily, once, with --cwd and --log-level, and streams responses', async () => {
  const { bridge, lines } = makeBridge();
  expect(bridge.pid).toBeUndefined();
  expect(await collect(bridge, 'I am worried about my exams')).toMatch(/\S/);
  const pid = bridge.pid;
  expect(pid).toEqual(expect.any(Number));
  expect(await collect(bridge, 'hello')).toMatch(/\S/);
  expect(bridge.pid).toBe(pid);
  expect(lines.filter((l) => l.startsWith('bridge started'))).toEqual([
    `bridge started (pid ${pid}): ${process.execPath} ${CLI} vscodelm --cwd ${os.tmpdir()} --log-level info --eliza-pace-ms 40 --eliza-pace-ms 0`,
  ]);
  // The bridge's own log lines reach the channel.
  expect(lines.some((l) => l.startsWith('bridge: '))).toBe(true);
});

test('the start notice (setting symposium.startNotice) reaches the bridge as --start-notice-ms', async () => {
  const { bridge, lines } = makeBridge({ launch: { startNoticeMs: 3000 } });
  expect(await collect(bridge, 'hello')).toMatch(/\S/);
  expect(lines.find((l) => l.startsWith('bridge started'))).toContain(`--log-level info --eliza-pace-ms 40 --start-notice-ms 3000 --eliza-pace-ms 0`);
});

test("the settings that turn off edits through VS Code, questions in the chat and commands in the chat's terminal reach the bridge as flags; on, they add none", async () => {
  const off = makeBridge({ launch: { clientFiles: false, agentQuestions: false, consumerTerminal: false } });
  expect(await collect(off.bridge, 'hello')).toMatch(/\S/);
  expect(off.lines.find((l) => l.startsWith('bridge started'))).toContain('--eliza-pace-ms 40 --client-files off --agent-questions off --consumer-terminal off --eliza-pace-ms 0');
  const on = makeBridge({ launch: { clientFiles: true, agentQuestions: true, consumerTerminal: true } });
  expect(await collect(on.bridge, 'hello')).toMatch(/\S/);
  expect(on.lines.find((l) => l.startsWith('bridge started'))).toContain('--eliza-pace-ms 40 --eliza-pace-ms 0');
});

test('how long an agent\'s tool call waits (setting symposium.agentToolCallTimeoutMinutes) reaches the bridge as --tool-call-timeout-ms', async () => {
  const { bridge, lines } = makeBridge({ launch: { toolCallTimeoutMs: 5 * 60_000 } });
  expect(await collect(bridge, 'hello')).toMatch(/\S/);
  expect(lines.find((l) => l.startsWith('bridge started'))).toContain('--eliza-pace-ms 40 --tool-call-timeout-ms 300000 --eliza-pace-ms 0');
});

test("the workspace's other folders reach the bridge as --add-dir", async () => {
  const { bridge, lines } = makeBridge({ launch: { additionalDirs: ['/work/second folder', '/work/third'] } });
  expect(await collect(bridge, 'hello')).toMatch(/\S/);
  expect(lines.find((l) => l.startsWith('bridge started'))).toContain(`--cwd ${os.tmpdir()} --log-level info --eliza-pace-ms 40 --add-dir /work/second folder --add-dir /work/third --eliza-pace-ms 0`);
});

test('passes the storage folder and the context policy on, and the bridge keeps its index there', async () => {
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'symposium-state-'));
  try {
    const { bridge, lines } = makeBridge({ launch: { stateDir, contextPolicy: 'system' } });
    expect(await collect(bridge, 'I am worried about my exams')).toMatch(/\S/);
    expect(lines.find((l) => l.startsWith('bridge started'))).toContain(`--state-dir ${stateDir} --context system`);
    // Stopped at once (SIGTERM, as on a reload), well within the index's write delay: it is written anyway.
    await bridge.dispose();
    expect(JSON.parse(readFileSync(path.join(stateDir, 'conversations.json'), 'utf8')).conversations).toHaveLength(1);
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
});

test('runs the bridge with ELECTRON_RUN_AS_NODE=1', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bridge-env-'));
  const fake = path.join(dir, 'fake-bridge.mjs');
  writeFileSync(fake, 'process.stderr.write(`ELECTRON_RUN_AS_NODE=${process.env.ELECTRON_RUN_AS_NODE} argv=${process.argv.slice(2).join(" ")}\\n`); process.exit(4);\n');
  const { bridge, lines } = makeBridge({ bridgePath: fake });
  const failure = await collect(bridge, 'hi').catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(BridgeExitedError);
  expect((failure as Error).message).toBe(
    `The Symposium bridge exited with code 4 (last log lines: ELECTRON_RUN_AS_NODE=1 argv=vscodelm --cwd ${os.tmpdir()} --log-level info --eliza-pace-ms 40 --eliza-pace-ms 0). It restarts with the next request.`,
  );
  expect(lines).toContain(`bridge: ELECTRON_RUN_AS_NODE=1 argv=vscodelm --cwd ${os.tmpdir()} --log-level info --eliza-pace-ms 40 --eliza-pace-ms 0`);
});

test('cancellation becomes $/cancelRequest: the request fails with -32800 and the bridge keeps serving', async () => {
  const { bridge } = makeBridge({ paceMs: 200 });
  const source = new CancellationTokenSource();
  const parts: ResponsePart[] = [];
  const response = bridge.provideChatResponse(request('I am worried about my exams and my family and everything'), (p) => parts.push(p), source.token);
  setTimeout(() => source.cancel(), 300);
  const failure = await response.catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(ResponseError);
  expect((failure as ResponseError<unknown>).code).toBe(-32800);
  const pid = bridge.pid;
  expect(await collect(bridge, 'hello')).toMatch(/\S/);
  expect(bridge.pid).toBe(pid);
});

test('an already cancelled token fails at once, without starting the bridge', async () => {
  const { bridge } = makeBridge({ paceMs: 200 });
  const source = new CancellationTokenSource();
  source.cancel();
  const failure = await collect(bridge, 'hello there', source.token).catch((e: unknown) => e);
  expect((failure as ResponseError<unknown>).code).toBe(-32800);
  expect(bridge.pid).toBeUndefined();
});

test('a bridge that dies fails the requests in flight with a readable error; the next request restarts it', async () => {
  const { bridge, lines } = makeBridge({ paceMs: 200 });
  await collect(bridge, 'hello');
  const first = bridge.pid!;
  const inFlight = [collect(bridge, 'I am worried about my exams and everything').catch((e: unknown) => e), collect(bridge, 'my mother hates me and my father too').catch((e: unknown) => e)];
  setTimeout(() => process.kill(first, 'SIGKILL'), 300);
  for (const failure of await Promise.all(inFlight)) {
    expect(failure).toBeInstanceOf(BridgeExitedError);
    expect((failure as Error).message).toMatch(/^The Symposium bridge was killed by SIGKILL.*It restarts with the next request\.$/);
  }
  expect(lines).toContain(`bridge (pid ${first}) was killed by SIGKILL`);
  expect(await collect(bridge, 'hello again')).toMatch(/\S/);
  expect(bridge.pid).not.toBe(first);
});

test('a bridge that cannot start says why', async () => {
  const { bridge } = makeBridge({ bridgePath: path.join(os.tmpdir(), 'no-such-bridge.mjs') });
  const failure = await collect(bridge, 'hi').catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(BridgeExitedError);
  expect((failure as Error).message).toMatch(/^The Symposium bridge exited with code 1 \(last log lines: Error: Cannot find module '.*no-such-bridge\.mjs'\)\. It restarts with the next request\.$/);
});

test('stop and restart end the running bridge; requests in flight say it was stopped', async () => {
  const { bridge } = makeBridge({ paceMs: 200 });
  await collect(bridge, 'hello');
  const first = bridge.pid!;
  const inFlight = collect(bridge, 'I am worried about my exams and everything').catch((e: unknown) => e);
  await new Promise((resolve) => setTimeout(resolve, 100));
  await bridge.restart();
  expect(((await inFlight) as Error).message).toBe('The Symposium bridge was stopped. It restarts with the next request.');
  expect(bridge.pid).toEqual(expect.any(Number));
  expect(bridge.pid).not.toBe(first);
  expect(() => process.kill(first, 0)).toThrow();
  await bridge.dispose();
  expect(bridge.pid).toBeUndefined();
  await expect(collect(bridge, 'hi')).rejects.toThrow('The Symposium bridge has been shut down.');
});
