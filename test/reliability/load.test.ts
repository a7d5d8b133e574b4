/**
 * Load (issue 8): 20 conversations on 3 scripted agents with interleaved cancels and tool round trips, and a
 * storm of 1,000 requests and cancels against Eliza. Every part reaches the right request exactly once and in
 * order, every request settles with exactly one outcome within a bound, and the bridge's resources (open fds,
 * RSS) come back to where they were once the work is done.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { CancellationTokenSource } from 'vscode-jsonrpc/node.js';
import { textOfParts } from '../../src/client/lm-client.js';
import { ProtocolErrorCodes } from '../../src/protocol/errors.js';
import type { AgentDefinition, Message, ResponsePart, ToolDefinition } from '../../src/protocol/messages.js';
import { AgentBridge, SCRIPTED_AGENT, rejection, replied, sleep, user } from '../integration/agent-bridge.js';

const SLOW = 90_000;
const agents: AgentDefinition[] = [0, 1, 2].map((i) => ({
  // Three definitions differing by an argument: three agent processes. --mcp-http: tools over loopback HTTP.
  mcp_server: { name: `scripted-${i}`, command: process.execPath, args: [SCRIPTED_AGENT, '--mcp-http', ...(i === 2 ? ['--image'] : i === 1 ? ['--load-session'] : [])], env: [] },
}));
const TOOLS: ToolDefinition[] = [{ name: 'lookup', description: 'Looks a tag up', inputSchema: { type: 'object', properties: { tag: { type: 'string' } } } }];
const stream = (n: number, tag: string): string => Array.from({ length: n }, (_, i) => `c${i + 1} `).join('') + `${tag}.`;
const fds = (pid: number): number => readdirSync(`/proc/${pid}/fd`).length;
const rssKb = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

/** Fails if `promise` has not settled within `ms`: nothing may stay stuck. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} still pending after ${ms} ms`)), ms)))]).finally(() => clearTimeout(timer));
}

let bridge: AgentBridge;
afterEach(async () => {
  await bridge.close();
  expect(bridge.stderr()).not.toContain('OVERLAPPING PROMPT');
});

/** One conversation: a streamed turn (cancelled first when `cancel`), then a tool round trip, then a last turn. */
async function conversation(n: number, cancel: boolean): Promise<void> {
  const agent = agents[n % 3]!;
  const tag = `conv${n}`;
  // 20 ms a chunk: the cancel sent at the first part lands before the stream ends, even on a loaded machine.
  let history: Message[] = [user(`say ${tag}:`, 'stream 50 20', `say ${tag}.`)];
  if (cancel) {
    const token = new CancellationTokenSource();
    const parts: ResponsePart[] = [];
    const done = bridge.client.provideChatResponse({ modelId: 's', messages: history, agent, options: { tools: TOOLS } }, (p) => {
      parts.push(p);
      // At the first part: the bridge may join what arrives while a write is out, so there may be few parts.
      if (parts.length === 1) token.cancel();
    }, token.token);
    expect((await rejection(within(done, 15_000, `${tag} cancelled turn`))).code).toBe(ProtocolErrorCodes.RequestCancelled);
    // What arrived before the cancel is this conversation's, a prefix of the stream, in order.
    expect(`${tag}:${stream(50, tag)}`.startsWith(textOfParts(parts))).toBe(true);
    // The user retries: the same request again.
  }
  const first = await within(bridge.chat(history, agent, TOOLS), 15_000, `${tag} turn 1`);
  expect(textOfParts(first)).toBe(`${tag}:${stream(50, tag)}`);
  history = [...history, replied(first), user(`mcp-call lookup {"tag":"${tag}"}`, `say ${tag} after`)];
  const asked = await within(bridge.chat(history, agent, TOOLS), 15_000, `${tag} tool call`);
  const call = asked.find((p): p is Extract<ResponsePart, { type: 'tool_call' }> => p.type === 'tool_call');
  expect(call?.parameters).toEqual({ tag });
  history = [...history, replied(asked), { role: 'user', content: [{ type: 'tool_result', toolCallId: call!.toolCallId, result: [{ type: 'text', value: `found ${tag}` }] }] }];
  const rest = await within(bridge.chat(history, agent, TOOLS), 15_000, `${tag} tool result`);
  expect(textOfParts(rest)).toBe(`result lookup: found ${tag}${tag} after`);
}

/** The bridge's child processes (the agents), from the process table. */
const childrenOf = (pid: number): number[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === pid;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);

/** Polls `read` until it satisfies `ok` or `ms` pass; returns the last reading. */
async function settled<T>(read: () => T, ok: (value: T) => boolean, ms: number): Promise<T> {
  let value = read();
  for (let waited = 0; !ok(value) && waited < ms; waited += 50) {
    await sleep(50);
    value = read();
  }
  return value;
}

test('20 conversations on 3 agents with cancels and tool round trips: each part reaches its request once, in order, nothing stuck, nothing leaked', async () => {
  // Idle sessions close after 2 s and idle agents exit 2 s later: what the conversations held comes back. (Not
  // sooner: a session waiting for a tool result is idle too, and a busy machine can take 300 ms to send it.)
  bridge = new AgentBridge(['--tool-settle-ms', '50', '--session-idle-ms', '2000', '--agent-idle-ms', '2000']);
  const pid = bridge.child.pid!;
  await bridge.chat([user('warm up')], { eliza: { deterministic: true } });
  const fdsAtStart = fds(pid);
  // Warm-up: the three agents started, one conversation each, so that what remains is per-conversation cost.
  await Promise.all(agents.map((agent, i) => bridge.chat([user(`say warm${i}`)], agent, TOOLS)));
  const rssBefore = rssKb(pid);
  expect(childrenOf(pid)).toHaveLength(3);
  await within(Promise.all(Array.from({ length: 20 }, (_, n) => conversation(n, n % 3 === 0))), 40_000, 'the 20 conversations');
  await sleep(500);
  expect(rssKb(pid) - rssBefore).toBeLessThan(100_000);
  // Every session closed its tool server, every agent exited: the counts are those of the start.
  expect(await settled(() => childrenOf(pid), (c) => c.length === 0, 15_000)).toEqual([]);
  expect(await settled(() => fds(pid), (n) => n <= fdsAtStart, 15_000)).toBeLessThanOrEqual(fdsAtStart);
}, SLOW);

test('a storm of 1,000 requests and cancels against Eliza: every request gets exactly one outcome; fds and RSS come back', async () => {
  bridge = new AgentBridge();
  const pid = bridge.child.pid!;
  const eliza: AgentDefinition = { eliza: { deterministic: true } };
  await bridge.chat([user('hello')], eliza);
  const fdsBefore = fds(pid);
  const rssBefore = rssKb(pid);
  const outcomes = new Map<number, string[]>();
  const run = async (i: number): Promise<void> => {
    const token = new CancellationTokenSource();
    const record = (o: string) => outcomes.set(i, [...(outcomes.get(i) ?? []), o]);
    const parts: ResponsePart[] = [];
    const done = bridge.client.provideChatResponse({ modelId: 'eliza', messages: [user(`I feel storm number ${i}`)], agent: eliza }, (p) => parts.push(p), token.token);
    if (i % 2 === 0) setTimeout(() => token.cancel(), i % 7);
    await done.then(
      () => record('complete'),
      (e: { code?: number }) => record(e.code === ProtocolErrorCodes.RequestCancelled ? 'cancelled' : `failed ${String(e.code)}`),
    );
    if (outcomes.get(i)![0] === 'complete') expect(textOfParts(parts).length).toBeGreaterThan(0);
  };
  await within(Promise.all(Array.from({ length: 1000 }, (_, i) => run(i))), 40_000, 'the storm');
  expect(outcomes.size).toBe(1000);
  expect([...outcomes.values()].every((o) => o.length === 1 && (o[0] === 'complete' || o[0] === 'cancelled'))).toBe(true);
  // Odd requests were never cancelled: they all complete.
  expect([...outcomes].filter(([i, o]) => i % 2 === 1 && o[0] !== 'complete')).toEqual([]);
  // The bridge still answers, and holds what it held before.
  expect(textOfParts(await bridge.chat([user('goodbye')], eliza)).length).toBeGreaterThan(0);
  await sleep(300);
  expect(fds(pid)).toBeLessThanOrEqual(fdsBefore);
  expect(rssKb(pid) - rssBefore).toBeLessThan(100_000);
}, SLOW);
