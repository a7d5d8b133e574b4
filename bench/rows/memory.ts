/**
 * Row 4: resident memory of the bridge (VmRSS of its process) with 100 idle conversations on one ACP agent,
 * per conversation beyond the first. Each conversation is one short exchange (a few hundred bytes of history).
 * And a command printing 50 MB through the consumer's command tool (issue 54): the bridge's peak RSS while
 * the output passes, and its used heap after the turn, against the bridge before it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cutOutput } from '../../src/client/tool-output-cut.js';
import type { Message, ProvideChatResponseParams, ToolDefinition } from '../../src/protocol/messages.js';
import { Methods } from '../../src/protocol/methods.js';
import { heapReportOptions, usedHeapBytes } from '../heap.js';
import { Bridge, CLI, median, RUN_IN_TERMINAL, scriptedAgent, SEARCH, sleep, user, type Row } from '../lib.js';

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

/** The output of the command: 50 MB of a build log, its error at the end. */
const OUTPUT_CHARS = 50 * 1024 * 1024;
const HUGE_RUNS = 3;
const MB = 1024 * 1024;
/** Peak RSS over the idle bridge's, and what its heap may keep of the output after the chat. */
const PEAK_BAR_MB = 64;
const KEPT_BAR_MB = 1;

/**
 * How the 50 MB reach the bridge: through LmClient, which cuts the result (`cut`); as a request carrying it
 * whole, which the bridge refuses unread (`refused`); or whole to a bridge whose limit takes it
 * (`--max-message-mb 128`, `whole`: what the issue measured, the cost the cut saves).
 */
type Route = 'cut' | 'refused' | 'whole';

interface HugeRun {
  /** RSS of the idle bridge, after a warm-up chat. */
  readonly rssIdle: number;
  readonly peak: number;
  readonly heapBefore: number;
  readonly heapAfter: number;
}

/**
 * One chat on a bridge after a warm-up chat: the agent calls run_in_terminal, the client answers with
 * `output`, then the next message. Its peak RSS over its idle RSS; on another bridge, since a heap snapshot
 * leaves the RSS it took, its used heap (after a garbage collection) before and after the chat.
 */
async function hugeOutputRun(route: Route, output: string): Promise<HugeRun> {
  const { rssIdle, peak } = await onBridge(route, undefined, async (bridge, chat) => {
    const rssIdle = bridge.rss();
    bridge.resetPeakRss();
    await chat(output);
    return { rssIdle, peak: bridge.peakRss() };
  });
  const reports = mkdtempSync(path.join(os.tmpdir(), 'symposium-bench-heap-'));
  try {
    const { heapBefore, heapAfter } = await onBridge(route, reports, async (bridge, chat) => {
      const heapBefore = await usedHeapBytes(bridge.pid, reports);
      await chat(output);
      await sleep(SETTLE_MS);
      return { heapBefore, heapAfter: await usedHeapBytes(bridge.pid, reports) };
    });
    return { rssIdle, peak, heapBefore, heapAfter };
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
}

/**
 * `measure` on a new bridge (reporting its heap into `reports`, if given) once a warm-up chat with a small
 * output loaded every path the measured one takes; `chat(output)` is the measured chat, its output carried
 * by `route`.
 */
async function onBridge<T>(route: Route, reports: string | undefined, measure: (bridge: Bridge, chat: (output: string) => Promise<void>) => Promise<T>): Promise<T> {
  const env = reports === undefined ? process.env : { ...process.env, NODE_OPTIONS: heapReportOptions(reports) };
  const bridge = new Bridge(route === 'whole' ? ['--max-message-mb', '128'] : [], CLI, env);
  const agent = scriptedAgent('--mcp-http');
  const tools = [RUN_IN_TERMINAL];
  const input = { command: 'npm run build', explanation: 'Builds', goal: 'Build', isBackground: false, timeout: 0 };
  const command = `mcp-call-length run_in_terminal ${JSON.stringify(input)}`;
  const through = (params: ProvideChatResponseParams): Promise<unknown> => bridge.turn(params.messages, agent, tools);
  const unread = (params: ProvideChatResponseParams): Promise<unknown> => bridge.client.connection.sendRequest(Methods.provideChatResponse, params);
  /** The chat up to the call, answered with `result`; the agent's answer; the next message, answered. */
  const chat = async (label: string, result: string, send: (params: ProvideChatResponseParams) => Promise<unknown>): Promise<void> => {
    const first = [user(`say ${label}\n${command}`)];
    const asked = await bridge.turn(first, agent, tools);
    const call = asked.parts.find((p) => p.type === 'tool_call');
    if (call?.type !== 'tool_call') throw new Error(`no run_in_terminal call: ${JSON.stringify(asked.parts)}`);
    const answered: Message[] = [...first, { role: 'assistant', content: asked.parts }, { role: 'user', content: [{ type: 'tool_result', toolCallId: call.toolCallId, result: [{ type: 'text', value: result }] }] }];
    await send({ modelId: 'bench', messages: answered, agent, options: { tools } });
    // What the agent said of it (its text contents' length, without sending them back): as LmClient would have carried it.
    const said = `result run_in_terminal: ${route === 'cut' ? cutOutput(result).length : result.length} characters`;
    await send({ modelId: 'bench', messages: [...answered, { role: 'assistant', content: [{ type: 'text', value: said }] }, user('say next')], agent, options: { tools } });
  };
  const measured = async (output: string): Promise<void> => {
    if (route === 'cut') return chat('huge', output, through);
    if (route === 'whole') return chat('huge', output, unread);
    const refused = await unread({ modelId: 'bench', messages: [user(command), { role: 'user', content: [{ type: 'tool_result', toolCallId: 'call-1', result: [{ type: 'text', value: output }] }] }], agent }).then(
      () => false,
      () => true,
    );
    if (!refused) throw new Error('the 50 MB request was not refused');
  };
  try {
    await chat('warm-up', 'proof\n', through);
    await sleep(SETTLE_MS);
    return await measure(bridge, measured);
  } finally {
    await bridge.close();
  }
}

export async function hugeOutput(): Promise<Row[]> {
  const line = 'compiling module 0123456789 of the workspace, nothing to report\n';
  const output = `BUILD STARTED\n${line.repeat(Math.ceil(OUTPUT_CHARS / line.length))}ERROR: the build failed\n`;
  const rows: Row[] = [];
  for (const [route, label] of [
    ['cut', 'through LmClient (cut to its head and tail)'],
    ['refused', 'sent whole, refused unread (over 32 MB)'],
    ['whole', 'sent whole to a bridge that takes it (--max-message-mb 128)'],
  ] as const) {
    const runs: HugeRun[] = [];
    for (let r = 0; r < HUGE_RUNS; r++) runs.push(await hugeOutputRun(route, output));
    const rssIdle = median(runs.map((r) => r.rssIdle)) / MB;
    const peakAdded = median(runs.map((r) => r.peak - r.rssIdle)) / MB;
    const kept = median(runs.map((r) => r.heapAfter - r.heapBefore)) / MB;
    const heapBefore = median(runs.map((r) => r.heapBefore)) / MB;
    const judged = route !== 'whole';
    const counts = `${HUGE_RUNS} × 2 bridges (one for RSS, one for the heap), each one chat after a warm-up chat (the command, a ${(output.length / MB).toFixed(0)} MB output, the next message); used heap after a heap snapshot, ${SETTLE_MS} ms after the chat`;
    rows.push(
      {
        row: '4',
        metric: `50 MB command output ${label}: peak RSS over the idle bridge's (MB); baseline: idle RSS (MB)`,
        median: peakAdded,
        baseline: rssIdle,
        unit: 'MB',
        ratio: (rssIdle + peakAdded) / rssIdle,
        bar: `${judged ? `< +${PEAK_BAR_MB} MB ` : '— '}(${runs.map((r) => ((r.peak - r.rssIdle) / MB).toFixed(1)).join(', ')})`,
        met: judged ? peakAdded < PEAK_BAR_MB : undefined,
        counts,
      },
      {
        row: '4',
        metric: `50 MB command output ${label}: used heap after the chat over before it (MB); baseline: used heap before (MB)`,
        median: kept,
        baseline: heapBefore,
        unit: 'MB',
        ratio: (heapBefore + kept) / heapBefore,
        bar: `${judged ? `< ${KEPT_BAR_MB} MB ` : '— '}(${runs.map((r) => ((r.heapAfter - r.heapBefore) / MB).toFixed(2)).join(', ')})`,
        met: judged ? kept < KEPT_BAR_MB : undefined,
        counts,
      },
    );
  }
  return rows;
}
