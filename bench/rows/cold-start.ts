/**
 * Row 5: spawning the bridge to the first Eliza part, against spawning bare Node (`node -e`) to its first
 * framed message. The bar is on the bundled bridge (dist/extension/bridge.mjs, `npm run build:extension`),
 * what the extension runs; the tsc build is shown for reference: it loads each dependency's CommonJS build
 * module by module (rxjs's alone is 223 files, ~140 ms), which only the tests and development run.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { FrameReader } from '../../src/transport/frame-reader.js';
import { Bridge, BUNDLED_CLI, CLI, median, now, percentile, user, type Row } from '../lib.js';

const ITERATIONS = 15;
const WARMUP = 2;

const FRAME_SCRIPT = `const b=JSON.stringify({jsonrpc:'2.0',method:'lm/responsePart',params:{requestId:1,part:{type:'text',value:'Hello'}}});process.stdout.write('Content-Length: '+Buffer.byteLength(b)+'\\r\\n\\r\\n'+b)`;

/** Bare Node: spawn to the first framed message read. */
async function bareNode(): Promise<number> {
  const start = now();
  const child = spawn(process.execPath, ['-e', FRAME_SCRIPT], { stdio: ['ignore', 'pipe', 'inherit'] });
  const reader = new FrameReader(child.stdout, Number.POSITIVE_INFINITY);
  const at = await new Promise<number>((resolve) => reader.listen(() => resolve(now())));
  reader.dispose();
  await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
  return at - start;
}

async function bridgeStart(cliPath: string): Promise<number> {
  const start = now();
  const bridge = new Bridge([], cliPath);
  try {
    const t = await bridge.turn([user('Hello, I feel a bit anxious today.')], { eliza: { deterministic: true } });
    return t.firstAt - start;
  } finally {
    await bridge.close();
  }
}

async function sample(measure: () => Promise<number>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    const t = await measure();
    if (i >= WARMUP) times.push(t);
  }
  return times;
}

export async function coldStart(): Promise<Row[]> {
  const bare = median(await sample(bareNode));
  const rows: Row[] = [];
  if (!existsSync(BUNDLED_CLI)) throw new Error(`row 5 times the bundled bridge: run \`npm run build:extension\` first (${BUNDLED_CLI} is missing)`);
  const variants: [string, string, boolean][] = [
    ['dist/extension/bridge.mjs (bundled, what the extension runs)', BUNDLED_CLI, true],
    ['dist/src/cli/main.js (tsc build, for reference)', CLI, false],
  ];
  for (const [label, cli, barred] of variants) {
    const times = await sample(() => bridgeStart(cli));
    rows.push({
      row: '5',
      metric: `cold start to first Eliza part, ${label} (ms)`,
      median: median(times),
      p99: percentile(times, 99),
      baseline: bare,
      unit: 'ms',
      bar: barred ? '≤ 2.0× bare node' : '—',
      met: barred ? median(times) <= 2 * bare : undefined,
      counts: `${ITERATIONS} spawns (+${WARMUP} warm-up) each, bare \`node -e\` likewise`,
    });
  }
  return rows;
}
