/** Row 6: estimateTokens on typical Copilot inputs, counts per second, against a trivial count (`s.length`). */
import type { ToolDefinition } from '../../src/protocol/messages.js';
import { estimateTokens } from '../../src/tokens/estimate.js';
import { consume, median, now, type Row } from '../lib.js';

const RUN_MS = 300;
const RUNS = 7;

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

/** Counts per second of `count` over `inputs`, median of RUNS runs of RUN_MS each. */
function rate(inputs: readonly string[], count: (s: string) => number): number {
  const rates: number[] = [];
  for (let run = 0; run < RUNS + 1; run++) {
    let n = 0;
    let acc = 0;
    const start = now();
    let elapsed = 0;
    while ((elapsed = now() - start) < RUN_MS) {
      for (let i = 0; i < 1000; i++) acc += count(inputs[i % inputs.length]);
      n += 1000;
    }
    consume(acc);
    if (run > 0) rates.push(n / (elapsed / 1000));
  }
  return median(rates);
}

export function tokenCounting(): Row[] {
  const length = (s: string): number => s.length;
  const counts = `${RUNS} runs of ${RUN_MS} ms (+1 warm-up) each`;
  const shortRate = rate(SHORT, estimateTokens);
  const schemaRate = rate(SCHEMAS, estimateTokens);
  return [
    {
      row: '6',
      metric: `token counts/s, short strings (${SHORT.length}, ~${Math.round(SHORT.join('').length / SHORT.length)} chars)`,
      median: shortRate,
      baseline: rate(SHORT, length),
      unit: '/s',
      bar: '≥ 200,000/s',
      met: shortRate >= 200_000,
      counts,
    },
    {
      row: '6',
      metric: `token counts/s, tool schemas (${SCHEMAS.length}, ~${Math.round(SCHEMAS.join('').length / SCHEMAS.length)} chars)`,
      median: schemaRate,
      baseline: rate(SCHEMAS, length),
      unit: '/s',
      bar: '—',
      counts,
    },
  ];
}
