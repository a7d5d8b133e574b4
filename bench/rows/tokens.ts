/**
 * Row 6: countTokens (o200k_base with an LRU cache, src/tokens/count.ts) on typical Copilot inputs, counts
 * per second, against the uncached encoder (gpt-tokenizer alone) in the same run. Copilot counts every part
 * of every prompt, and most parts come back request after request (tool schema fields, earlier messages):
 * "repeated" is that pattern, "distinct" the worst case where every count misses (strings are cached from
 * their second count on, so these pass through a Bloom filter and are not kept). Also the first count a fresh bridge answers, which loads the vocabulary.
 */
import { existsSync } from 'node:fs';
import type { ToolDefinition } from '../../src/protocol/messages.js';
import { countTokens, encoderCount } from '../../src/tokens/count.js';
import { Bridge, BUNDLED_CLI, CLI, consume, median, now, percentile, type Row } from '../lib.js';

const RUN_MS = 300;
const RUNS = 7;
const SPAWNS = 5;

const SHORT = [
  'Hello!',
  'Can you explain what this function does?',
  'Fix the failing test in src/history/conversations.ts',
  'const x = await fetch(url);',
  'Summarize the changes in this pull request.',
  'Why does `npm test` fail with ENOENT?',
  'Thanks, that works.',
  'Refactor this to use async/await instead of callbacks, keeping the behaviour the same.',
];

function schema(name: string, properties: Record<string, unknown>): ToolDefinition {
  return { name, description: `The ${name} tool: ${'does something useful with the workspace. '.repeat(3)}`, inputSchema: { type: 'object', properties, required: Object.keys(properties) } };
}

/** Tool schemas as Copilot sends them, each as the JSON text a token count is asked for. */
const SCHEMAS = [
  schema('read_file', { filePath: { type: 'string', description: 'The absolute path of the file to read.' }, startLine: { type: 'number' }, endLine: { type: 'number' } }),
  schema('grep_search', { query: { type: 'string', description: 'The pattern to search for.' }, isRegexp: { type: 'boolean' }, includePattern: { type: 'string' } }),
  schema('run_in_terminal', { command: { type: 'string' }, explanation: { type: 'string' }, isBackground: { type: 'boolean' } }),
].map((tool) => JSON.stringify(tool));

/** Never repeats across runs and sides, so every distinct string is a miss for the cache. */
let serial = 0;
const distinct = (i: number): string => `${SHORT[i % SHORT.length]} (${serial++})`;

/**
 * The same texts as new strings on every call, as a consumer's freshly built (or JSON-parsed) parts are:
 * joining two halves makes a string whose hash the cache must compute again, as it would in use.
 */
function again(texts: readonly string[]): (i: number) => string {
  const halves = texts.map((t) => [t.slice(0, t.length >> 1), t.slice(t.length >> 1)] as const);
  return (i) => {
    const [head, tail] = halves[i % halves.length];
    return head + tail;
  };
}

/**
 * Counts per second of `cached` and of `uncached` over `input(i)`: the median of RUNS runs of RUN_MS each,
 * the two taken in turns so that a drift of the machine's speed over the seconds of the row weighs on
 * both alike (run one after the other, the side run first measured up to 20 % off on a loaded machine).
 */
function rates(input: (i: number) => string, cached: (s: string) => number, uncached: (s: string) => number): { cached: number; uncached: number } {
  const runs = { cached: [] as number[], uncached: [] as number[] };
  for (let run = 0; run < RUNS + 1; run++) {
    for (const side of run % 2 === 0 ? (['cached', 'uncached'] as const) : (['uncached', 'cached'] as const)) {
      const count = side === 'cached' ? cached : uncached;
      let n = 0;
      let acc = 0;
      const start = now();
      let elapsed = 0;
      while ((elapsed = now() - start) < RUN_MS) {
        for (let i = 0; i < 1000; i++) acc += count(input(i));
        n += 1000;
      }
      consume(acc);
      if (run > 0) runs[side].push(n / (elapsed / 1000));
    }
  }
  return { cached: median(runs.cached), uncached: median(runs.uncached) };
}

/** The first lm/provideTokenCount a just-started bridge answers (it loads the vocabulary), and the second. */
async function firstCounts(cli: string): Promise<{ first: number[]; second: number[] }> {
  const first: number[] = [];
  const second: number[] = [];
  for (let i = 0; i < SPAWNS; i++) {
    const bridge = new Bridge([], cli);
    try {
      await bridge.client.provideChatInformation();
      for (const times of [first, second]) {
        const start = now();
        await bridge.client.provideTokenCount('bench', `Hello, how are you? (${i})`);
        times.push(now() - start);
      }
    } finally {
      await bridge.close();
    }
  }
  return { first, second };
}

export async function tokenCounting(): Promise<Row[]> {
  const counts = `${RUNS} runs of ${RUN_MS} ms (+1 warm-up) each side`;
  const repeated = again(SHORT);
  const schemas = again(SCHEMAS);
  const chars = (xs: string[]): number => Math.round(xs.join('').length / xs.length);
  const rows: Row[] = [];
  // A miss may cost at most 1.1× the encoder (a rate of 1/1.1 of it); a hit must be 10× faster.
  const shortRow = (metric: string, input: (i: number) => string, bar: { text: string; ratio: number }): Row => {
    const { cached, uncached } = rates(input, countTokens, encoderCount);
    return { row: '6', metric, median: cached, baseline: uncached, unit: '/s', bar: bar.text, met: cached / uncached >= bar.ratio, counts };
  };
  // Distinct first: it fills the admission filter, so the hits below are measured after it, as in a long session.
  rows.push(shortRow(`token counts/s, short strings all distinct (~${chars(SHORT) + 8} chars, every count a miss); baseline uncached`, distinct, { text: 'a miss ≤ 1.1× the encoder (≥ 0.91×)', ratio: 1 / 1.1 }));
  rows.push(shortRow(`token counts/s, short strings repeated (${SHORT.length}, ~${chars(SHORT)} chars, a new string each call), cache full; baseline uncached`, repeated, { text: '≥ 10× the encoder', ratio: 10 }));
  const schemaRates = rates(schemas, countTokens, encoderCount);
  rows.push({
    row: '6',
    metric: `token counts/s, tool schemas repeated (${SCHEMAS.length}, ~${chars(SCHEMAS)} chars, a new string each call), cache full; baseline uncached`,
    median: schemaRates.cached,
    baseline: schemaRates.uncached,
    unit: '/s',
    bar: '—',
    counts,
  });
  const variants: [string, string][] = [['dist/src/cli/main.js', CLI]];
  if (existsSync(BUNDLED_CLI)) variants.push(['bridge.mjs (bundled)', BUNDLED_CLI]);
  for (const [label, cli] of variants) {
    const { first, second } = await firstCounts(cli);
    rows.push({
      row: '6',
      metric: `first lm/provideTokenCount of a fresh bridge, ${label} (loads o200k_base) (ms); baseline the second`,
      median: median(first),
      p99: percentile(first, 99),
      baseline: median(second),
      unit: 'ms',
      bar: '—',
      counts: `${SPAWNS} bridges, one count after lm/provideChatInformation, then another`,
    });
  }
  return rows;
}
