/**
 * Row 7: a bridged tool's round trip. Through the bridge: the client asks the agent to call a tool
 * (`mcp-call`), the agent calls it on the bridge's MCP server, the call reaches the client as a tool_call
 * part, the response completes, the client sends the tool_result request at once, the result goes back to
 * the agent, which says it (`result NAME: …`); timed from the first request to that part. Baseline, the
 * same loop without the bridge: direct ACP to the same agent, whose session's MCP server is a
 * BridgedToolsServer in this process answering at once. Each with one call and with four parallel ones
 * (`mcp-calls`, all four expected in one response), by an agent that announces its calls as Claude Code
 * does (the response completes once all arrived) and by one that does not (the settle window). Also, for
 * reference, a bare MCP call to that server from this process.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createLogger } from '../../src/log/logger.js';
import type { Message, ResponsePart } from '../../src/protocol/messages.js';
import { BRIDGED_TOOLS_SERVER_NAME, BridgedToolsServer } from '../../src/tools/bridged-tools-server.js';
import { Bridge, DirectAcp, median, now, percentile, replied, runTurnPlan, scriptedAgent, SEARCH, user, type Row, type TurnPlan } from '../lib.js';

const WARMUP = 10;
/** 15 round trips per conversation, 14 of them timed. */
const LOOPS: TurnPlan = { turns: 60, warmup: WARMUP, perConversation: 15, gapMs: 70 };
const MCP_ITERATIONS = 300;

/** What the agent is asked to call, and what it says once it has the results. */
interface Calls {
  readonly command: string;
  readonly queries: readonly string[];
  readonly said: string;
}

const callsOf = (queries: readonly string[]): Calls => ({
  command: queries.length === 1 ? `mcp-call search_workspace {"query":"${queries[0]}"}` : `mcp-calls ${queries.map((q) => `search_workspace {"query":"${q}"}`).join(' ; ')}`,
  queries,
  said: queries.map((q) => `result search_workspace: matches for ${q}`).join('\n'),
});
const ONE = callsOf(['x']);
const FOUR = callsOf(['a', 'b', 'c', 'd']);
/** The tool answers each query with this, through the bridge and directly. */
const answerTo = (query: unknown): string => `matches for ${String(query)}`;

interface Loop {
  readonly loop: number[];
  readonly toCall: number[];
  readonly settle: number[];
  readonly back: number[];
  /** Loops whose calls did not all reach the client in one response. */
  split: number;
}

async function bridgedLoops(args: string[], agentFlags: string[], calls: Calls): Promise<Loop> {
  const out: Loop = { loop: [], toCall: [], settle: [], back: [], split: 0 };
  const bridge = new Bridge(args);
  const agent = scriptedAgent('--mcp-http', ...agentFlags);
  try {
    let history: Message[] = [];
    await runTurnPlan(LOOPS, async (opening, i) => {
      if (opening) history = [user(`say conversation ${i}`)];
      if (opening) history.push(replied((await bridge.turn([...history], agent, [SEARCH])).parts));
      history.push(user(calls.command));
      const asked = await bridge.turn([...history], agent, [SEARCH]);
      let answered = asked;
      let shown = 0;
      // Calls that miss the response arrive in the next one, which the results of the first continue.
      for (let rounds = 0; ; rounds++) {
        const called = answered.parts.filter((p): p is Extract<ResponsePart, { type: 'tool_call' }> => p.type === 'tool_call');
        if (called.length === 0) break;
        if (rounds > calls.queries.length) throw new Error(`row 7: the calls never ended: ${JSON.stringify(answered.parts)}`);
        shown += called.length;
        const results = called.map((c) => ({ type: 'tool_result' as const, toolCallId: c.toolCallId, result: [{ type: 'text' as const, value: answerTo(c.parameters.query) }] }));
        history.push(replied(answered.parts), { role: 'user', content: results });
        answered = await bridge.turn([...history], agent, [SEARCH]);
      }
      const said = answered.parts.map((p) => (p.type === 'text' ? p.value : '')).join('');
      if (shown !== calls.queries.length || said !== calls.said) throw new Error(`row 7: ${shown} calls shown, and the agent said ${JSON.stringify(said)}`);
      history.push(replied(answered.parts));
      return () => {
        if (asked.parts.filter((p) => p.type === 'tool_call').length < calls.queries.length) out.split += 1;
        out.loop.push(answered.firstAt - asked.startAt);
        out.toCall.push(asked.firstAt - asked.startAt);
        out.settle.push(asked.endAt - asked.firstAt);
        out.back.push(answered.firstAt - asked.endAt);
      };
    });
  } finally {
    await bridge.close();
  }
  return out;
}

async function directLoops(server: BridgedToolsServer, calls: Calls): Promise<number[]> {
  const loops: number[] = [];
  const acp = new DirectAcp(['--mcp-http']);
  const mcpServers = [{ type: 'http' as const, name: BRIDGED_TOOLS_SERVER_NAME, url: server.url, headers: [{ name: 'Authorization', value: server.authorization }] }];
  try {
    let session = '';
    await runTurnPlan(LOOPS, async (opening) => {
      if (opening) session = await acp.newSession(mcpServers);
      const t = await acp.prompt(session, calls.command, calls.said.length);
      return () => loops.push(t.firstAt - t.startAt);
    });
  } finally {
    await acp.close();
  }
  return loops;
}

async function bareMcpCalls(server: BridgedToolsServer): Promise<number[]> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: server.authorization } } }));
  const times: number[] = [];
  try {
    for (let i = 0; i < WARMUP + MCP_ITERATIONS; i++) {
      const start = now();
      await client.callTool({ name: 'search_workspace', arguments: { query: 'x' } });
      if (i >= WARMUP) times.push(now() - start);
    }
  } finally {
    await client.close();
  }
  return times;
}

export async function toolRoundTrip(): Promise<Row[]> {
  const server = await BridgedToolsServer.start(async (call) => ({ content: [{ type: 'text', text: answerTo(call.arguments.query) }] }), createLogger('warn'));
  server.setTools([SEARCH]);
  let direct: number[];
  let directFour: number[];
  let bare: number[];
  try {
    direct = await directLoops(server, ONE);
    directFour = await directLoops(server, FOUR);
    bare = await bareMcpCalls(server);
  } finally {
    await server.close();
  }
  const announced = await bridgedLoops([], ['--announce-calls'], ONE);
  const announcedFour = await bridgedLoops([], ['--announce-calls'], FOUR);
  const unannounced = await bridgedLoops([], [], ONE);
  const unannouncedFour = await bridgedLoops([], [], FOUR);
  const counts = `${LOOPS.turns} round trips (+${LOOPS.warmup} warm-up) each side, ${LOOPS.perConversation - 1} timed per conversation, ${LOOPS.gapMs} ms apart`;
  const segments = (l: Loop): string =>
    `to tool_call ${median(l.toCall).toFixed(1)}, settle ${median(l.settle).toFixed(1)}, result back ${median(l.back).toFixed(1)}`;
  const together = (l: Loop): string => `, all 4 in one response in ${l.loop.length - l.split} of ${l.loop.length}`;
  // The loop carries two requests of the client (the one the call answers, the one with its result): the bar is per request.
  const row = (loop: Loop, baseline: number[], what: string, bar: number | undefined): Row => {
    const added = median(loop.loop) - median(baseline);
    return {
      row: '7',
      metric: `${what} (ms): ${segments(loop)}`,
      median: median(loop.loop),
      p99: percentile(loop.loop, 99),
      baseline: median(baseline),
      unit: 'ms',
      bar: bar === undefined ? `— (added ${added.toFixed(2)})` : `≤ +${bar} ms per request (added ${added.toFixed(2)}, ${(added / 2).toFixed(2)} per request)`,
      ...(bar === undefined ? {} : { met: added / 2 <= bar && loop.split === 0 }),
      counts,
    };
  };
  return [
    row(announced, direct, 'tool round trip, defaults, the agent announces its calls', 3),
    row(announcedFour, directFour, `4 parallel calls, defaults, announced${together(announcedFour)}`, undefined),
    row(unannounced, direct, 'tool round trip, defaults, calls not announced (20 ms window)', undefined),
    row(unannouncedFour, directFour, `4 parallel calls, not announced${together(unannouncedFour)}`, undefined),
    {
      row: '7',
      metric: 'bare MCP call to a BridgedToolsServer, in-process (ms)',
      median: median(bare),
      p99: percentile(bare, 99),
      unit: 'ms',
      bar: '—',
      counts: `${MCP_ITERATIONS} calls (+${WARMUP} warm-up)`,
    },
  ];
}
