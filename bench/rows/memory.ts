/**
 * Row 4: resident memory of the bridge (VmRSS of its process) with 100 idle conversations on one ACP agent,
 * per conversation beyond the first. Each conversation is one short exchange (a few hundred bytes of history).
 */
import type { ToolDefinition } from '../../src/protocol/messages.js';
import { Bridge, median, scriptedAgent, SEARCH, sleep, user, type Row } from '../lib.js';

const CONVERSATIONS = 100;
const RUNS = 3;
const SETTLE_MS = 500;

async function perConversation(tools: ToolDefinition[] | undefined): Promise<{ perExtra: number; rssOne: number; rssAll: number }> {
  const bridge = new Bridge();
  const agent = scriptedAgent('--mcp-http');
  try {
    // Warm-up: a conversation that loads everything (agent process, session code paths), then the measured first.
    await bridge.turn([user('say warm-up')], agent, tools);
    await bridge.turn([user('say conversation 0')], agent, tools);
    await sleep(SETTLE_MS);
    const rssOne = bridge.rss();
    for (let i = 1; i < CONVERSATIONS; i++) await bridge.turn([user(`say conversation ${i}`)], agent, tools);
    await sleep(SETTLE_MS);
    const rssAll = bridge.rss();
    return { perExtra: (rssAll - rssOne) / (CONVERSATIONS - 1), rssOne, rssAll };
  } finally {
    await bridge.close();
  }
}

export async function manyConversations(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [label, tools, barred] of [
    ['no tools', undefined, true],
    ['1 tool offered (an MCP server each)', [SEARCH], false],
  ] as const) {
    const runs = [];
    for (let r = 0; r < RUNS; r++) runs.push(await perConversation(tools === undefined ? undefined : [...tools]));
    const perExtra = median(runs.map((r) => r.perExtra)) / 1024;
    const rssOne = median(runs.map((r) => r.rssOne)) / (1024 * 1024);
    const rssAll = median(runs.map((r) => r.rssAll)) / (1024 * 1024);
    rows.push({
      row: '4',
      metric: `RSS per idle conversation, ${label} (KB); baseline: RSS at 1 (MB), ${rssAll.toFixed(1)} MB at ${CONVERSATIONS}`,
      median: perExtra,
      baseline: rssOne,
      unit: 'KB',
      ratio: rssAll / rssOne,
      bar: barred ? '< 1 MB + history' : '—',
      met: barred ? perExtra < 1024 : undefined,
      counts: `${RUNS} bridges × ${CONVERSATIONS} conversations (+1 warm-up), ${SETTLE_MS} ms settle before each reading`,
    });
  }
  return rows;
}
