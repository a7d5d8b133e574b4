/** Rows 1 and 2: a short turn, and streaming, through the bridge and over direct ACP to the same agent. */
import type { Message, ToolDefinition } from '../../src/protocol/messages.js';
import { Bridge, COPILOT_LIKE_TOOLS, DirectAcp, MINIMAL_BRIDGE, median, percentile, replied, runTurnPlans, scriptedAgent, sleep, streamChars, user, type Row, type TurnPlan } from '../lib.js';

/**
 * 25 turns per conversation, 24 of them timed. The gap is longer than the bridge's late-update grace
 * (50 ms): a prompt sent sooner after the agent's last update first waits that out (by design, so that
 * updates trailing a turn never reach the next response).
 */
const TURNS: TurnPlan = { turns: 150, warmup: 20, perConversation: 25, gapMs: 70 };

const STREAM_CHUNKS = 100_000;
const STREAM_WARMUP = 1;
const STREAM_ITERATIONS = 3;

export async function turnOverhead(): Promise<Row[]> {
  const bridged = { first: [] as number[], whole: [] as number[] };
  const direct = { first: [] as number[], whole: [] as number[] };
  const passedThrough: number[] = [];
  const withTools: number[] = [];
  const minimal: number[] = [];
  const bridge = new Bridge();
  const minimalBridge = new Bridge([], MINIMAL_BRIDGE);
  const toolsBridge = new Bridge();
  const agent = scriptedAgent();
  const acp = new DirectAcp();
  const relayed = new DirectAcp([], true);
  const directTurns = (client: DirectAcp, record: (t: { startAt: number; firstAt: number; endAt: number }) => void) => {
    let session = '';
    return async (opening: boolean, i: number) => {
      if (opening) session = await client.newSession();
      const t = await client.prompt(session, opening ? `say hello ${i}` : 'say hello', 'hello'.length);
      return () => record(t);
    };
  };
  const bridgedTurns = (through: Bridge, tools: ToolDefinition[] | undefined, record: (t: { startAt: number; firstAt: number; endAt: number }) => void) => {
    let history: Message[] = [];
    return async (opening: boolean, i: number) => {
      if (opening) history = [];
      history.push(user(opening ? `say hello ${i}` : 'say hello'));
      const t = await through.turn([...history], agent, tools);
      history.push(replied(t.parts));
      return () => record(t);
    };
  };
  try {
    await runTurnPlans(TURNS, [
      bridgedTurns(bridge, undefined, (t) => {
        bridged.first.push(t.firstAt - t.startAt);
        bridged.whole.push(t.endAt - t.startAt);
      }),
      bridgedTurns(toolsBridge, COPILOT_LIKE_TOOLS, (t) => withTools.push(t.firstAt - t.startAt)),
      bridgedTurns(minimalBridge, undefined, (t) => minimal.push(t.firstAt - t.startAt)),
      directTurns(acp, (t) => {
        direct.first.push(t.firstAt - t.startAt);
        direct.whole.push(t.endAt - t.startAt);
      }),
      directTurns(relayed, (t) => passedThrough.push(t.firstAt - t.startAt)),
    ]);
  } finally {
    await Promise.all([bridge.close(), toolsBridge.close(), minimalBridge.close(), acp.close(), relayed.close()]);
  }

  const counts = `${TURNS.turns} turns (+${TURNS.warmup} warm-up), ${TURNS.perConversation - 1} timed per conversation, ${TURNS.gapMs} ms apart; bridged (with and without tools), through the minimal bridge, direct and passed-through conversations in turns`;
  // Two process hops cost what they cost on the machine (the floor, the minimal bridge): the bar is the bridge's own work.
  const ownWork = median(bridged.first) - median(minimal);
  return [
    {
      row: '1',
      metric: 'turn: first part (ms)',
      median: median(bridged.first),
      p99: percentile(bridged.first, 99),
      baseline: median(direct.first),
      unit: 'ms',
      bar: `— (added ${(median(bridged.first) - median(direct.first)).toFixed(2)})`,
      counts,
    },
    {
      row: '1',
      metric: "turn: first part, the bridge's own work: its first part over the minimal bridge's (ms)",
      median: median(bridged.first),
      p99: percentile(bridged.first, 99),
      baseline: median(minimal),
      unit: 'ms',
      bar: `≤ +1.2 ms, goal +1.0 (added ${ownWork.toFixed(2)})`,
      met: ownWork <= 1.2,
      counts,
    },
    {
      row: '1',
      metric: `turn: first part, ${COPILOT_LIKE_TOOLS.length} tools offered with every request, as Copilot's agent mode does (ms)`,
      median: median(withTools),
      p99: percentile(withTools, 99),
      baseline: median(direct.first),
      unit: 'ms',
      bar: `— (added ${(median(withTools) - median(direct.first)).toFixed(2)})`,
      counts,
    },
    {
      row: '1',
      metric: 'turn: first part, direct ACP through a process that only passes bytes: the floor under any bridge (ms)',
      median: median(passedThrough),
      p99: percentile(passedThrough, 99),
      baseline: median(direct.first),
      unit: 'ms',
      bar: `— (added ${(median(passedThrough) - median(direct.first)).toFixed(2)})`,
      counts,
    },
    {
      row: '1',
      metric: 'turn: first part through bench/minimal-bridge.ts, which validates nothing and keeps no history: the bridge\'s own work is its time over this (ms)',
      median: median(minimal),
      p99: percentile(minimal, 99),
      baseline: median(direct.first),
      unit: 'ms',
      bar: `— (added ${(median(minimal) - median(direct.first)).toFixed(2)})`,
      counts,
    },
    {
      row: '1',
      metric: 'turn: whole (ms)',
      median: median(bridged.whole),
      p99: percentile(bridged.whole, 99),
      baseline: median(direct.whole),
      unit: 'ms',
      bar: `— (added ${(median(bridged.whole) - median(direct.whole)).toFixed(2)})`,
      counts,
    },
  ];
}

export async function streamingThroughput(): Promise<Row[]> {
  const expected = streamChars(STREAM_CHUNKS);
  const bridged: number[] = [];
  const bridgedParts: number[] = [];
  const direct: number[] = [];

  const bridge = new Bridge();
  const agent = scriptedAgent();
  try {
    for (let i = 0; i < STREAM_WARMUP + STREAM_ITERATIONS; i++) {
      // A new conversation each run (its first line differs), so no run carries the last one's reply.
      const t = await bridge.turn([user(`stream ${STREAM_CHUNKS}\nthink run ${i}`)], agent);
      const chars = t.parts.reduce((n, p) => n + (p.type === 'text' ? p.value.length : 0), 0);
      if (chars !== expected) throw new Error(`row 2: the bridge delivered ${chars} characters, not ${expected}`);
      if (i >= STREAM_WARMUP) {
        bridged.push(chars / ((t.endAt - t.startAt) / 1000));
        bridgedParts.push(t.parts.length);
      }
      await sleep(100);
    }
  } finally {
    await bridge.close();
  }

  const acp = new DirectAcp();
  try {
    for (let i = 0; i < STREAM_WARMUP + STREAM_ITERATIONS; i++) {
      const session = await acp.newSession();
      const t = await acp.prompt(session, `stream ${STREAM_CHUNKS}\nthink run ${i}`, expected);
      if (t.chars !== expected) throw new Error(`row 2: direct ACP delivered ${t.chars} characters, not ${expected}`);
      if (i >= STREAM_WARMUP) direct.push(t.chars / ((t.endAt - t.startAt) / 1000));
      await sleep(100);
    }
  } finally {
    await acp.close();
  }

  const ratio = median(bridged) / median(direct);
  return [
    {
      row: '2',
      metric: `streaming: chars/s (${STREAM_CHUNKS} chunks → ~${Math.round(median(bridgedParts))} parts)`,
      median: median(bridged),
      baseline: median(direct),
      unit: 'chars/s',
      ratio,
      bar: '≥ 1.0× direct',
      met: ratio >= 1,
      counts: `${STREAM_ITERATIONS} runs of ${STREAM_CHUNKS} chunks (+${STREAM_WARMUP} warm-up), each side`,
    },
  ];
}
