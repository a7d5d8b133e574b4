/**
 * Row 7: a bridged tool's round trip. Through the bridge: the client asks the agent to call a tool
 * (`mcp-call`), the agent calls it on the bridge's MCP server, the call reaches the client as a tool_call
 * part, the response completes, the client sends the tool_result request at once, the result goes back to
 * the agent, which says it (`result NAME: …`); timed from the first request to that part. Baseline, the
 * same loop without the bridge: direct ACP to the same agent, whose session's MCP server is a
 * BridgedToolsServer in this process answering at once. Also, for reference, a bare MCP call to that
 * server from this process.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createLogger } from '../../src/log.js';
import type { Message, ResponsePart } from '../../src/protocol/messages.js';
import { BRIDGED_TOOLS_SERVER_NAME, BridgedToolsServer } from '../../src/tools/bridged-tools-server.js';
import { Bridge, DirectAcp, median, now, percentile, replied, runTurnPlan, scriptedAgent, SEARCH, user, type Row, type TurnPlan } from '../lib.js';

const WARMUP = 10;
/** 15 round trips per conversation, 14 of them timed. */
const LOOPS: TurnPlan = { turns: 60, warmup: WARMUP, perConversation: 15, gapMs: 70 };
const MCP_ITERATIONS = 300;
const CALL = 'mcp-call search_workspace {"query":"x"}';
const RESULT = 'result search_workspace: 3 matches';

interface Loop {
  readonly loop: number[];
  readonly toCall: number[];
  readonly settle: number[];
  readonly back: number[];
}

async function bridgedLoops(args: string[]): Promise<Loop> {
  const out: Loop = { loop: [], toCall: [], settle: [], back: [] };
  const bridge = new Bridge(args);
  const agent = scriptedAgent('--mcp-http');
  try {
    let history: Message[] = [];
    await runTurnPlan(LOOPS, async (opening, i) => {
      if (opening) history = [user(`say conversation ${i}`)];
      if (opening) history.push(replied((await bridge.turn([...history], agent, [SEARCH])).parts));
      history.push(user(CALL));
      const asked = await bridge.turn([...history], agent, [SEARCH]);
      const call = asked.parts.find((p): p is Extract<ResponsePart, { type: 'tool_call' }> => p.type === 'tool_call');
      if (call === undefined) throw new Error(`row 7: no tool call in ${JSON.stringify(asked.parts)}`);
      history.push(replied(asked.parts), { role: 'user', content: [{ type: 'tool_result', toolCallId: call.toolCallId, result: [{ type: 'text', value: '3 matches' }] }] });
      const answered = await bridge.turn([...history], agent, [SEARCH]);
      const said = answered.parts.map((p) => (p.type === 'text' ? p.value : '')).join('');
      if (said !== RESULT) throw new Error(`row 7: the agent said ${JSON.stringify(said)}`);
      history.push(replied(answered.parts));
      return () => {
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

async function directLoops(server: BridgedToolsServer): Promise<number[]> {
  const loops: number[] = [];
  const acp = new DirectAcp(['--mcp-http']);
  const mcpServers = [{ type: 'http' as const, name: BRIDGED_TOOLS_SERVER_NAME, url: server.url, headers: [{ name: 'Authorization', value: server.authorization }] }];
  try {
    let session = '';
    await runTurnPlan(LOOPS, async (opening) => {
      if (opening) session = await acp.newSession(mcpServers);
      const t = await acp.prompt(session, CALL, RESULT.length);
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
  const server = await BridgedToolsServer.start(async () => ({ content: [{ type: 'text', text: '3 matches' }] }), createLogger('warn'));
  server.setTools([SEARCH]);
  let direct: number[];
  let bare: number[];
  try {
    direct = await directLoops(server);
    bare = await bareMcpCalls(server);
  } finally {
    await server.close();
  }
  const shipped = await bridgedLoops([]);
  const noSettle = await bridgedLoops(['--tool-settle-ms', '0']);
  const counts = `${LOOPS.turns} round trips (+${LOOPS.warmup} warm-up) each side, ${LOOPS.perConversation - 1} timed per conversation, ${LOOPS.gapMs} ms apart`;
  const added = (loop: number[]): number => median(loop) - median(direct);
  const segments = (l: Loop): string =>
    `to tool_call ${median(l.toCall).toFixed(1)}, settle ${median(l.settle).toFixed(1)}, result back ${median(l.back).toFixed(1)}`;
  return [
    {
      row: '7',
      metric: `tool round trip, defaults (ms): ${segments(shipped)}`,
      median: median(shipped.loop),
      p99: percentile(shipped.loop, 99),
      baseline: median(direct),
      unit: 'ms',
      bar: `≤ +3 ms (added ${added(shipped.loop).toFixed(2)})`,
      met: added(shipped.loop) <= 3,
      counts,
    },
    {
      row: '7',
      metric: `tool round trip, --tool-settle-ms 0 (ms): ${segments(noSettle)}`,
      median: median(noSettle.loop),
      p99: percentile(noSettle.loop, 99),
      baseline: median(direct),
      unit: 'ms',
      bar: `— (added ${added(noSettle.loop).toFixed(2)})`,
      counts,
    },
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
