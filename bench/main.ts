/**
 * `npm run bench`: what the bridge costs, measured against running without it (issue 7). Prints a table of
 * medians (p99 where it matters), the baseline measured in the same run, their ratio, the bar and whether
 * it is met. `npm run bench -- 3 6` runs only those rows. Needs the build (`npx tsc -p .`), which the
 * script does first. Row 8 runs the real VS Code host (`npm run bench:vscode`): only when named.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { turnOverhead, streamingThroughput } from './rows/turns.js';
import { historyScaling } from './rows/history.js';
import { hugeOutput, manyConversations } from './rows/memory.js';
import { coldStart } from './rows/cold-start.js';
import { tokenCounting } from './rows/tokens.js';
import { toolRoundTrip } from './rows/tools.js';
import { vscodeHost } from './rows/vscode-host.js';
import { newChat } from './rows/new-chat.js';
import { afterReload } from './rows/after-reload.js';
import { goingBack } from './rows/going-back.js';
import { commands } from './rows/commands.js';
import { continuedSession } from './rows/continued-session.js';
import { subagents } from './rows/subagents.js';
import { agentHost } from './rows/agent-host.js';
import { now, type Row } from './lib.js';

const ROWS: [string, () => Row[] | Promise<Row[]>][] = [
  ['1', turnOverhead],
  ['2', streamingThroughput],
  ['3', historyScaling],
  ['4', async () => [...(await manyConversations()), ...(await hugeOutput())]],
  ['5', coldStart],
  ['6', tokenCounting],
  ['7', toolRoundTrip],
  ['8', vscodeHost],
  ['9', newChat],
  ['10', afterReload],
  ['11', goingBack],
  ['12', commands],
  ['13', continuedSession],
  ['14', subagents],
  ['15', agentHost],
];
/** Rows that run only when named: they need more than Node (the VS Code host). */
const ON_REQUEST = new Set(['8']);

function number(x: number | undefined): string {
  if (x === undefined || Number.isNaN(x)) return '—';
  if (Math.abs(x) >= 10_000) return Math.round(x).toLocaleString('en-US');
  if (Math.abs(x) >= 100) return x.toFixed(0);
  if (Math.abs(x) >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

function loadAverage(): string {
  return os.loadavg().map((l) => l.toFixed(2)).join(' ');
}

function machine(): string {
  const model = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? os.cpus()[0]?.model ?? '?';
  return `${os.availableParallelism()} cores (nproc), ${model}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const started = now();
  console.log(`machine: ${machine()}`);
  console.log(`date: ${new Date().toISOString()}`);
  console.log(`load average at start: ${loadAverage()}`);
  const rows: Row[] = [];
  for (const [id, run] of ROWS) {
    if (only.length > 0 ? !only.includes(id) : ON_REQUEST.has(id)) continue;
    const t = now();
    process.stderr.write(`bench: row ${id}…\n`);
    rows.push(...(await run()));
    process.stderr.write(`bench: row ${id} done in ${((now() - t) / 1000).toFixed(1)} s (load ${loadAverage()})\n`);
  }
  console.log(`load average at end: ${loadAverage()}; total ${((now() - started) / 1000).toFixed(0)} s\n`);

  const header = ['row', 'metric', 'median', 'p99', 'baseline', 'ratio', 'bar', 'result'];
  const lines = rows.map((r) => {
    const ratio = r.ratio ?? (r.baseline === undefined ? undefined : r.median / r.baseline);
    return [r.row, r.metric, `${number(r.median)} ${r.unit}`, number(r.p99), number(r.baseline), ratio === undefined ? '—' : `${ratio < 10 ? ratio.toFixed(3) : ratio.toFixed(2)}×`, r.bar, r.met === undefined ? 'info' : r.met ? 'met' : 'MISSED'];
  });
  console.log(`| ${header.join(' | ')} |`);
  console.log(`| ${header.map(() => '---').join(' | ')} |`);
  for (const line of lines) console.log(`| ${line.join(' | ')} |`);
  console.log('\nIterations:');
  const seen = new Set<string>();
  for (const r of rows) {
    const line = `- row ${r.row}: ${r.counts}`;
    if (!seen.has(line)) console.log(line);
    seen.add(line);
  }
  const missed = rows.filter((r) => r.met === false);
  console.log(`\n${rows.filter((r) => r.met === true).length} bars met, ${missed.length} missed${missed.length > 0 ? ` (rows ${[...new Set(missed.map((r) => r.row))].join(', ')})` : ''}.`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
