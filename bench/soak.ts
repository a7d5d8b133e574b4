/**
 * The soak (issue 17): many turns over hundreds of conversations against the BUILT bridge and scripted
 * agents, with cancels, resends and edits, and a small `--max-sessions`, so that sessions are closed and
 * reopened under running conversations all the time. Every reply must be exactly its own conversation's
 * (nothing stuck, misdelivered or empty); afterwards, once everything has idled out, the bridge's fds and
 * children must be back to where they were and its memory near its baseline.
 *
 * `node dist/bench/soak.js [TURNS] [CONVERSATIONS] [CONCURRENCY]` after `npx tsc -p .` (defaults 5000,
 * 300, 12); exits 1 and prints the failures if anything went wrong. `soak()` is also run, small, by
 * `test/reliability/soak.test.ts`.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CancellationTokenSource, ResponseError } from 'vscode-jsonrpc/node.js';
import { LmClient, textOfParts } from '../src/client/lm-client.js';
import type { AgentDefinition, Message, ResponsePart } from '../src/protocol/messages.js';
import { heapReportOptions, usedHeapBytes } from './heap.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The checkout: this file runs as dist/bench/soak.js, or from bench/ under jest; both use the build. */
const root = path.resolve(here, path.basename(path.dirname(here)) === 'dist' ? '../..' : '..');
const SCRIPTED_AGENT = path.join(root, 'dist/test/fixtures/scripted-agent.js');
/** SYMPOSIUM_LM_CLI points the soak at another build (as in the tests). */
const CLI = path.resolve(process.env.SYMPOSIUM_LM_CLI ?? path.join(root, 'dist/src/cli/main.js'));
const CANCELLED = -32800;
/** What the used heap may still hold above its baseline once everything idled out (garbage not yet collected, caches). */
const HEAP_MARGIN_MB = 16;

export interface SoakOptions {
  readonly turns: number;
  readonly conversations: number;
  readonly concurrency: number;
  /** Progress lines, if wanted. */
  readonly progress?: (line: string) => void;
}

export interface SoakReport {
  readonly turns: number;
  readonly cancels: number;
  readonly edits: number;
  readonly failures: readonly string[];
  readonly seconds: number;
  readonly before: Resources;
  readonly peak: number;
  readonly after: Resources;
}

export interface Resources {
  readonly fds: number;
  readonly rssMb: number;
  readonly children: number;
  /** The bridge's used JavaScript heap, from a Node report (taken on SIGUSR2). */
  readonly heapMb: number;
}

const agents: AgentDefinition[] = [
  ['--load-session', '--close-session'],
  ['--resume-session', '--close-session'],
  // Neither: a conversation whose session closed goes on in a new one, told a transcript.
  [],
].map((flags, i) => ({ mcp_server: { name: `soak-${i}`, command: process.execPath, args: [SCRIPTED_AGENT, ...flags], env: [] } }));

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', value: text }] });
const said = (parts: readonly ResponsePart[]): Message => ({ role: 'assistant', content: [...parts] });

/** fds, RSS and children from /proc; the used heap from a Node report the bridge writes on SIGUSR2. */
async function resources(pid: number, reports: string): Promise<Resources> {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const children = readdirSync('/proc').filter((name) => {
    if (!/^\d+$/.test(name)) return false;
    try {
      return Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === pid;
    } catch {
      return false;
    }
  }).length;
  const fds = readdirSync(`/proc/${pid}/fd`).length;
  const rssMb = Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
  const heapMb = (await usedHeapBytes(pid, reports)) / (1024 * 1024);
  return { fds, rssMb, children, heapMb };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: stuck for ${ms} ms`)), ms)));
  return Promise.race([promise, stuck]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (at most 20 s) until the bridge has no child left and at most `fds` fds: sessions closed, agents exited. */
async function idle(pid: number, fds = Infinity): Promise<void> {
  const children = () =>
    readdirSync('/proc').filter((name) => {
      try {
        return /^\d+$/.test(name) && Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === pid;
      } catch {
        return false;
      }
    }).length;
  for (let waited = 0; waited < 20_000 && (children() > 0 || readdirSync(`/proc/${pid}/fd`).length > fds); waited += 250) await sleep(250);
}

export async function soak(options: SoakOptions): Promise<SoakReport> {
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'symposium-soak-'));
  const reports = path.join(stateDir, 'reports');
  mkdirSync(reports);
  const log: Buffer[] = [];
  let logBytes = 0;
  const { client, child } = LmClient.spawn({
    cliPath: CLI,
    args: ['--log-level', 'info', '--max-sessions', '4', '--session-idle-ms', '1500', '--agent-idle-ms', '2000', '--cancel-timeout-ms', '2000', '--state-dir', stateDir],
    stderr: 'pipe',
    env: { ...process.env, NODE_OPTIONS: heapReportOptions(reports) },
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    // The log is kept for what a failure needs (overlapping prompts), bounded.
    logBytes += chunk.length;
    if (logBytes < 64 * 1024 * 1024) log.push(chunk);
  });
  const started = Date.now();
  const failures: string[] = [];
  let cancels = 0;
  let edits = 0;
  let done = 0;
  let peak = 0;
  try {
    // The baseline: every agent kind used once (their modules loaded) and idled out.
    await client.collectChatResponse({ modelId: 'eliza', messages: [user('hello')], agent: { eliza: { deterministic: true } } });
    for (const agent of agents) await client.collectChatResponse({ modelId: 'soak', messages: [user('say warm')], agent });
    await idle(child.pid!);
    const before = await resources(child.pid!, reports);
    const histories = Array.from({ length: options.conversations }, () => [] as Message[]);
    const counters = histories.map(() => 0);
    let next = 0;
    const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid!}/status`, 'utf8'))![1]) / 1024;
    const sample = setInterval(() => (peak = Math.max(peak, rssMb())), 500);

    /** One turn of conversation `n`: maybe cancelled and resent, maybe an edit of its last message. */
    const turn = async (n: number): Promise<void> => {
      const agent = agents[n % agents.length]!;
      const history = histories[n]!;
      const k = ++counters[n]!;
      const tag = `conv${n}-turn${k}`;
      // An edit: the user changes their last message (the agent's turn on it is dropped).
      if (history.length >= 2 && k % 10 === 7) {
        history.splice(history.length - 2, 2);
        edits++;
      }
      const streamed = 1 + (k % 4);
      history.push(user(`stream ${streamed} 1\nsay ${tag}`));
      const expected = `${Array.from({ length: streamed }, (_, i) => `c${i + 1} `).join('')}${tag}`;
      const params = { modelId: 'soak', messages: [...history], agent };
      if (k % 7 === 3) {
        // Stopped at the first part (or before any), then sent again, as a user does.
        cancels++;
        const token = new CancellationTokenSource();
        const parts: ResponsePart[] = [];
        const stopped = client.provideChatResponse(params, (part) => {
          parts.push(part);
          token.cancel();
        }, token.token);
        setTimeout(() => token.cancel(), n % 5);
        try {
          await within(stopped, 30_000, `${tag} (cancelled)`);
        } catch (error) {
          if (!(error instanceof ResponseError && error.code === CANCELLED)) failures.push(`${tag} cancelled: ${String(error)}`);
        }
        if (!expected.startsWith(textOfParts(parts))) failures.push(`${tag} cancelled: got someone else's text ${JSON.stringify(textOfParts(parts))}`);
      }
      try {
        const parts = await within(client.collectChatResponse(params), 30_000, tag);
        const text = textOfParts(parts);
        if (text !== expected) failures.push(`${tag}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(text)}`);
        history.push(said(parts));
      } catch (error) {
        failures.push(`${tag}: ${error instanceof Error ? error.message : String(error)}`);
        history.pop();
      }
      done++;
      if (done % 500 === 0) options.progress?.(`${done} turns, ${failures.length} failures, ${Math.round((Date.now() - started) / 1000)} s, RSS ${rssMb().toFixed(0)} MB`);
    };

    // Workers take turns of conversations round-robin over a moving window, so many are live at once
    // while the pool keeps only 4 sessions open; a conversation is never in two turns at once.
    const busy = new Set<number>();
    const worker = async (): Promise<void> => {
      while (next < options.turns) {
        next++;
        let n = Math.floor(Math.random() * options.conversations);
        while (busy.has(n)) n = (n + 1) % options.conversations;
        busy.add(n);
        try {
          await turn(n);
        } finally {
          busy.delete(n);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency, options.conversations - 1) }, worker));
    clearInterval(sample);

    // Everything idles out: sessions close, agents exit.
    await idle(child.pid!, before.fds);
    const after = await resources(child.pid!, reports);
    const text = Buffer.concat(log).toString('utf8');
    if (text.includes('OVERLAPPING PROMPT')) failures.push('an agent got a prompt while another ran in the same session (OVERLAPPING PROMPT)');
    if (after.fds > before.fds) failures.push(`fds: ${before.fds} before, ${after.fds} after`);
    if (after.children > 0) failures.push(`${after.children} agent processes left`);
    if (!(after.heapMb <= before.heapMb + HEAP_MARGIN_MB)) failures.push(`heap: ${before.heapMb.toFixed(1)} MB before, ${after.heapMb.toFixed(1)} MB after`);
    return { turns: done, cancels, edits, failures, seconds: (Date.now() - started) / 1000, before, peak, after };
  } finally {
    client.dispose();
    child.stdin!.end();
    await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
    rmSync(stateDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [turns = 5000, conversations = 300, concurrency = 12] = process.argv.slice(2).map(Number);
  const report = await soak({ turns, conversations, concurrency, progress: (line) => console.log(line) });
  console.log(
    `soak: ${report.turns} turns over ${conversations} conversations (${report.cancels} cancelled and resent, ${report.edits} edits) in ${report.seconds.toFixed(0)} s; ` +
      `bridge fds ${report.before.fds} → ${report.after.fds}, children ${report.before.children} → ${report.after.children}, used heap ${report.before.heapMb.toFixed(1)} → ${report.after.heapMb.toFixed(1)} MB, RSS ${report.before.rssMb.toFixed(0)} MB → peak ${report.peak.toFixed(0)} → ${report.after.rssMb.toFixed(0)} MB; ` +
      `${report.failures.length} failures`,
  );
  for (const failure of report.failures.slice(0, 50)) console.log(`  ${failure}`);
  process.exit(report.failures.length === 0 ? 0 : 1);
}
