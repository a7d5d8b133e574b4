/**
 * Row 3: one more turn on a long conversation. What the bridge does between receiving the request and
 * forwarding the new message: JSON.parse of the payload (vscode-jsonrpc), decoding it with the protocol's
 * codec, and matching it against the conversation's history (ConversationTracker.decide); against
 * JSON.parse of the same payload alone.
 */
import { canonicalJson } from '../../src/protocol/canonical-json.js';
import { ConversationTracker } from '../../src/history/conversations.js';
import { decodeOrThrow } from '../../src/protocol/decode.js';
import { ProvideChatResponseParams, type AgentDefinition, type Message, type ResponsePart } from '../../src/protocol/messages.js';
import { consume, median, now, scriptedAgent, user, type Row } from '../lib.js';

const SIZES = [10, 100, 1_000, 10_000] as const;
/** Iterations per size (after 2 warm-up), fewer for the big ones. */
const ITERATIONS: Record<(typeof SIZES)[number], number> = { 10: 400, 100: 200, 1_000: 60, 10_000: 25 };
const WARMUP = 2;
const BIG_RESULT = 'x'.repeat(100 * 1024);

/**
 * A history of `n` messages ending with a user message: user and assistant turns, and every tenth
 * pair an assistant tool call answered by a user tool_result, one in five of those results 100 KB.
 */
function historyOf(n: number): Message[] {
  const messages: Message[] = [];
  for (let i = 0; messages.length < n - 1; i++) {
    if (i % 10 === 5) {
      const id = `call-${i}`;
      messages.push({ role: 'assistant', content: [{ type: 'text', value: 'Let me look.' }, { type: 'tool_call', toolCallId: id, toolName: 'read_file', parameters: { path: `src/file${i}.ts` } }] });
      const result = i % 50 === 5 ? BIG_RESULT : `export const v${i} = ${i}; // a short file`;
      messages.push({ role: 'user', content: [{ type: 'tool_result', toolCallId: id, result: [{ type: 'text', value: result }] }] });
    } else {
      messages.push(user(`Question ${i}: how does module ${i} work, and what should change in it?`));
      messages.push({ role: 'assistant', content: [{ type: 'text', value: `Module ${i} reads its input, validates it and writes the result; change the validation.` }] });
    }
  }
  messages.length = Math.min(messages.length, n - 1);
  messages.push(user('And now the last question?'));
  return messages;
}

const REPLY: ResponsePart[] = [{ type: 'text', value: 'Here is ' }, { type: 'text', value: 'the answer.' }];

export async function historyScaling(): Promise<Row[]> {
  const agent: AgentDefinition = scriptedAgent();
  const agentKey = canonicalJson(agent);
  const rows: Row[] = [];
  const bridgeMedians: number[] = [];
  const parseMedians: number[] = [];
  const bytes: number[] = [];
  for (const n of SIZES) {
    const history = historyOf(n);
    const next = [...history, { role: 'assistant' as const, content: REPLY }, user('one more turn')];
    const payload = JSON.stringify({ modelId: 'bench', messages: next, agent });
    const parseTimes: number[] = [];
    const bridgeTimes: number[] = [];
    for (let i = 0; i < WARMUP + ITERATIONS[n]; i++) {
      // The conversation as the bridge holds it after answering `history` (not timed).
      const tracker = new ConversationTracker();
      const first = tracker.decide({ id: 1, agentKey, messages: history });
      if (first.kind !== 'turn') throw new Error(`row 3: the history of ${n} was refused: ${first.reason}`);
      for (const part of REPLY) tracker.recordPart(1, part);
      tracker.endTurn(1, true);

      let t = now();
      consume((JSON.parse(payload) as { messages: unknown[] }).messages.length);
      const parse = now() - t;

      t = now();
      const params = decodeOrThrow(ProvideChatResponseParams, JSON.parse(payload));
      const decision = tracker.decide({ id: 2, agentKey: canonicalJson(params.agent), messages: params.messages });
      const bridged = now() - t;
      if (decision.kind !== 'turn' || decision.isNew || decision.newMessages.length !== 1) throw new Error(`row 3: one more turn on ${n} messages was not matched as one`);
      if (i >= WARMUP) {
        parseTimes.push(parse);
        bridgeTimes.push(bridged);
      }
    }
    const ratio = median(bridgeTimes) / median(parseTimes);
    bridgeMedians.push(median(bridgeTimes));
    parseMedians.push(median(parseTimes));
    bytes.push(payload.length);
    rows.push({
      row: '3',
      metric: `history ${n} msgs (${(payload.length / 1e6).toFixed(2)} MB): parse+decode+match (ms)`,
      median: median(bridgeTimes),
      baseline: median(parseTimes),
      unit: 'ms',
      ratio,
      bar: n === 10_000 ? '≤ 3× JSON.parse' : '—',
      met: n === 10_000 ? ratio <= 3 : undefined,
      counts: `${ITERATIONS[n]} iterations (+${WARMUP} warm-up) at ${n} messages`,
    });
  }
  // Linear growth: from 1,000 to 10,000 messages, the bridge's time grows no faster than JSON.parse's of the
  // same payloads (which is linear in their size; both show the same memory effects of a 10× bigger heap).
  const bridgeGrowth = bridgeMedians[3] / bridgeMedians[2];
  const parseGrowth = parseMedians[3] / parseMedians[2];
  rows.push({
    row: '3',
    metric: `growth 1k→10k msgs (bytes ×${(bytes[3] / bytes[2]).toFixed(1)}): time ×, vs JSON.parse's ×`,
    median: bridgeGrowth,
    baseline: parseGrowth,
    unit: '×',
    bar: 'linear (≤ 1.5× parse growth)',
    met: bridgeGrowth / parseGrowth <= 1.5,
    counts: 'from the rows above',
  });
  return rows;
}
