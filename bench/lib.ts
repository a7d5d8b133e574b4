/**
 * Shared pieces of the benchmark (bench/main.ts): statistics, the table row shape, and the two ways of
 * reaching the scripted ACP agent: through the built bridge (`symposium-lm vscodelm`, spoken to with
 * LmClient) and directly over ACP with the SDK's client side (the baseline).
 */
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import type { ReadableStream, WritableStream } from 'node:stream/web';
import { fileURLToPath } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';
import { FrameReader } from '../src/transport/frame-reader.js';
import { FrameWriter } from '../src/transport/frame-writer.js';
import { LmClient } from '../src/client/lm-client.js';
import type { AgentDefinition, Message, ResponsePart, ToolDefinition } from '../src/protocol/messages.js';
import { STATEFUL_MARKER, statefulMarkerData } from '../src/history/stateful-marker.js';
export { RUN_IN_TERMINAL } from '../test/fixtures/run-in-terminal.js';

/** The repository root (this file runs from dist/bench/). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(ROOT, 'dist/src/cli/main.js');
export const BUNDLED_CLI = path.join(ROOT, 'dist/extension/bridge.mjs');
export const AGENT = path.join(ROOT, 'dist/test/fixtures/scripted-agent.js');
/** bench/pass-through.ts, built: a process in the middle that only passes bytes. */
export const PASS_THROUGH = path.join(ROOT, 'dist/bench/pass-through.js');
/** bench/minimal-bridge.ts, built: the least a bridge can do, with no validation, history or tools. */
export const MINIMAL_BRIDGE = path.join(ROOT, 'dist/bench/minimal-bridge.js');

export const now = (): number => performance.now();
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------
// Statistics and the table.

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Nearest-rank percentile. */
export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/**
 * Rows 9 and 10's bar: what the bridge adds to a first part over a follow-up (`bridgedRow`), beyond what the agent
 * itself adds to its first prompt over a follow-up (`directRow`, over direct ACP), which no bridge can take away.
 * `adds` names the first part ("what a new chat adds"). Returns both rows and the judged one.
 */
export function beyondAgentsOwn(bridgedRow: Row, directRow: Row, adds: string, barMs: number): Row[] {
  const added = bridgedRow.median - bridgedRow.baseline! - (directRow.median - directRow.baseline!);
  return [
    bridgedRow,
    directRow,
    {
      ...bridgedRow,
      metric: `${bridgedRow.metric.replace(/ \(ms\); baseline .*$/, '')}: ${adds} (ms); baseline the follow-up plus that`,
      baseline: bridgedRow.baseline! + (directRow.median - directRow.baseline!),
      bar: `≤ +${barMs} ms (added ${added.toFixed(2)})`,
      met: added <= barMs,
    },
  ];
}

/** A row of first parts (`firsts`) against a follow-up's in the same run (`followed`), in ms. */
export function againstFollowUp(row: string, metric: string, firsts: readonly number[], followed: readonly number[], counts: string): Row {
  return {
    row,
    metric,
    median: median(firsts),
    p99: percentile(firsts, 99),
    baseline: median(followed),
    unit: 'ms',
    bar: `— (added ${(median(firsts) - median(followed)).toFixed(2)})`,
    counts,
  };
}

export interface Row {
  readonly row: string;
  readonly metric: string;
  readonly median: number;
  readonly p99?: number;
  readonly baseline?: number;
  readonly unit: string;
  /** median / baseline, unless given (e.g. for rows whose ratio is the other way round). */
  readonly ratio?: number;
  readonly bar: string;
  /** undefined: an informational row, no bar of its own. */
  readonly met?: boolean;
  /** Iterations (and warm-up), shown under the table. */
  readonly counts: string;
}

/** Keeps results from being optimised away. */
export let sink = 0;
export function consume(x: number): void {
  sink = (sink + x) | 0;
}

// ---------------------------------------------------------------------------------------------------
// Messages.

export const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', value: text }] });
export const replied = (parts: readonly ResponsePart[]): Message => ({ role: 'assistant', content: [...parts] });
/** The reply as Copilot sends it back: its round's stateful marker first, then what the model said. */
export const withMarker = (parts: readonly ResponsePart[], marker: string): Message => ({
  role: 'assistant',
  content: [{ type: 'data', mimeType: STATEFUL_MARKER, data: Buffer.from(statefulMarkerData('bench', marker)).toString('base64') }, ...parts],
});

export function scriptedAgent(...flags: string[]): AgentDefinition {
  return { mcp_server: { name: 'scripted', command: process.execPath, args: [AGENT, ...flags], env: [] } };
}

/**
 * Forty tools with ~37 KB of descriptions and schemas: the count Copilot's agent mode offers with every
 * request (its recorded requests in test/fixtures/copilot keep only the names; these are shaped alike).
 */
export const COPILOT_LIKE_TOOLS: ToolDefinition[] = Array.from({ length: 40 }, (_, i) => ({
  name: `workspace_tool_${i}`,
  description: 'Does a useful thing in the workspace. '.repeat(12),
  inputSchema: {
    type: 'object',
    properties: {
      filePath: { type: 'string', description: 'The absolute path of the file. '.repeat(3) },
      startLine: { type: 'number', description: 'First line, 1-based.' },
      endLine: { type: 'number', description: 'Last line.' },
      options: { type: 'object', properties: { recursive: { type: 'boolean' }, pattern: { type: 'string' } } },
    },
    required: ['filePath'],
  },
}));

export const SEARCH: ToolDefinition = {
  name: 'search_workspace',
  description: 'Searches the workspace for text',
  inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
};


// ---------------------------------------------------------------------------------------------------
// The bridge.

export class Bridge {
  readonly client: LmClient;
  readonly child: ChildProcess;

  constructor(args: readonly string[] = [], cliPath = CLI, env: NodeJS.ProcessEnv = process.env) {
    // BENCH_BRIDGE_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) goes to the bridge's Node, for profiling;
    // BENCH_BRIDGE_LOG_LEVEL (e.g. `debug`) sets its log's level (timestamped lines on stderr), to see where time goes.
    const nodeArgs = (process.env.BENCH_BRIDGE_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
    const logLevel = process.env.BENCH_BRIDGE_LOG_LEVEL ?? 'warn';
    this.child = spawn(process.execPath, [...nodeArgs, cliPath, 'vscodelm', '--log-level', logLevel, ...args], { stdio: ['pipe', 'pipe', 'inherit'], env });
    this.client = new LmClient(new FrameReader(this.child.stdout!, Number.POSITIVE_INFINITY), new FrameWriter(this.child.stdin!));
  }

  get pid(): number {
    return this.child.pid!;
  }

  /**
   * One response; `firstAt` is when its first part arrived, `endAt` when the request resolved. `marker`: the stateful
   * marker the consumer gives the response, as Copilot does (see `withMarker`).
   */
  async turn(
    messages: Message[],
    agent: AgentDefinition,
    tools?: ToolDefinition[],
    onPart?: (part: ResponsePart, at: number) => void,
    marker?: string,
  ): Promise<{ parts: ResponsePart[]; startAt: number; firstAt: number; endAt: number }> {
    const parts: ResponsePart[] = [];
    let firstAt = NaN;
    const startAt = now();
    await this.client.provideChatResponse({ modelId: 'bench', messages, agent, ...(tools ? { options: { tools } } : {}), ...(marker === undefined ? {} : { marker }) }, (part) => {
      const at = now();
      if (parts.length === 0) firstAt = at;
      parts.push(part);
      onPart?.(part, at);
    });
    return { parts, startAt, firstAt, endAt: now() };
  }

  /** Resident memory of the bridge process, in bytes. */
  rss(): number {
    return this.status('VmRSS');
  }

  /** The most resident memory the bridge process had since it started or since `resetPeakRss`, in bytes. */
  peakRss(): number {
    return this.status('VmHWM');
  }

  /** Sets the peak to the resident memory now (Linux: `5` written to the process's clear_refs). */
  resetPeakRss(): void {
    writeFileSync(`/proc/${this.pid}/clear_refs`, '5');
  }

  private status(field: 'VmRSS' | 'VmHWM'): number {
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'));
    if (kb === null) throw new Error(`no ${field}`);
    return Number(kb[1]) * 1024;
  }

  async close(): Promise<void> {
    this.client.dispose();
    this.child.stdin!.end();
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------------
// Direct ACP: the SDK's client side talking to the scripted agent, as the integration tests do.

export class DirectAcp {
  readonly child: ChildProcessWithoutNullStreams;
  readonly connection: acp.ClientConnection;
  /** Called with every session/update, on arrival. */
  onUpdate: (n: acp.SessionNotification, at: number) => void = () => undefined;
  /** Permissions the agent asked; each is allowed at once (the first allow option), as a person who allows does. */
  permissionsAsked = 0;
  private initialized: Promise<acp.InitializeResponse> | undefined;
  /** The agent leads its own process group. */
  private readonly grouped: boolean;

  /**
   * The scripted agent with `flags`; `passThrough`: reached through a process that only passes bytes
   * (bench/pass-through.ts); `program`: another agent run by this Node instead (its script, arguments, environment).
   */
  constructor(flags: readonly string[] = [], passThrough = false, program?: { readonly args: readonly string[]; readonly env: Readonly<Record<string, string>> }) {
    const agent = program?.args ?? [AGENT, ...flags];
    this.grouped = program !== undefined;
    const env = program === undefined ? process.env : { ...process.env, ...program.env };
    // Another agent may leave children behind (Claude Code's outlives claude-agent-acp): it leads a process group, ended whole.
    this.child = spawn(process.execPath, passThrough ? [PASS_THROUGH, process.execPath, ...agent] : agent, { stdio: ['pipe', 'pipe', 'pipe'], env, detached: program !== undefined });
    this.child.stderr.resume();
    this.child.stdin.on('error', () => undefined);
    const stream = acp.ndJsonStream(
      Writable.toWeb(this.child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(this.child.stdout) as ReadableStream<Uint8Array>,
    );
    this.connection = acp
      .client({ name: 'bench' })
      .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
        this.permissionsAsked++;
        const allow = params.options.find((o) => o.kind === 'allow_once') ?? params.options.find((o) => o.kind === 'allow_always') ?? params.options[0]!;
        return { outcome: { outcome: 'selected' as const, optionId: allow.optionId } };
      })
      .onNotification(acp.methods.client.session.update, ({ params }) => this.onUpdate(params, now()))
      .connect(stream);
  }

  async newSession(mcpServers: acp.McpServer[] = []): Promise<string> {
    await this.initialize();
    return (await this.connection.agent.request(acp.methods.agent.session.new, { cwd: ROOT, mcpServers })).sessionId;
  }

  /** Resumes an earlier session (`session/resume` where the agent can, else `session/load`). */
  async resume(sessionId: string, mcpServers: acp.McpServer[] = []): Promise<void> {
    const init = await this.initialize();
    const params = { sessionId, cwd: ROOT, mcpServers };
    if (init.agentCapabilities?.sessionCapabilities?.resume != null) await this.connection.agent.request(acp.methods.agent.session.resume, params);
    else await this.connection.agent.request(acp.methods.agent.session.load, params);
  }

  /** `session/fork` of `sessionId` (unstable in ACP: sent by name), with the fork point's `_meta`; the new session's id. */
  async fork(sessionId: string, meta: Record<string, unknown>, mcpServers: acp.McpServer[] = []): Promise<string> {
    await this.initialize();
    const response = (await this.connection.agent.request('session/fork', { sessionId, cwd: ROOT, mcpServers, _meta: meta })) as { sessionId: string };
    return response.sessionId;
  }

  /** `session/close` of `sessionId` where the agent offers it (each of Claude Code's sessions is a process). */
  async closeSession(sessionId: string): Promise<void> {
    const init = await this.initialize();
    if (init.agentCapabilities?.sessionCapabilities?.close != null) await this.connection.agent.request(acp.methods.agent.session.close, { sessionId });
  }

  /** The agent's own `session/list` of `cwd`, every page (its cursor followed to the end): how many sessions and pages. */
  async listSessions(cwd: string): Promise<{ sessions: number; pages: number }> {
    await this.initialize();
    let sessions = 0;
    let pages = 0;
    let cursor: string | undefined;
    do {
      const page = await this.connection.agent.request(acp.methods.agent.session.list, { cwd, ...(cursor === undefined ? {} : { cursor }) });
      sessions += page.sessions.length;
      pages++;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return { sessions, pages };
  }

  private initialize(): Promise<acp.InitializeResponse> {
    this.initialized ??= this.connection.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    return this.initialized;
  }

  /**
   * One prompt; resolves once the response came and `expectedChars` characters of agent_message_chunk text
   * arrived (the SDK may deliver a turn's last updates after its response).
   */
  async prompt(
    sessionId: string,
    text: string,
    expectedChars: number,
  ): Promise<{ startAt: number; firstAt: number; endAt: number; chunks: number; chars: number; said: string; messageId: string | undefined }> {
    let firstAt = NaN;
    let chunks = 0;
    let chars = 0;
    let lastAt = NaN;
    let said = '';
    let messageId: string | undefined;
    let allThere: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (allThere = resolve));
    this.onUpdate = ({ sessionId: id, update }, at) => {
      if (id !== sessionId || update.sessionUpdate !== 'agent_message_chunk' || update.content.type !== 'text') return;
      if (chunks === 0) firstAt = at;
      chunks++;
      chars += update.content.text.length;
      // The text of the answer's last message, and its id where the agent names its messages (a fork point needs both).
      if (update.messageId != null && update.messageId !== messageId) said = '';
      messageId = update.messageId ?? messageId;
      said += update.content.text;
      lastAt = at;
      if (chars >= expectedChars) allThere();
    };
    const startAt = now();
    await this.connection.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });
    const respondedAt = now();
    await arrived;
    return { startAt, firstAt, endAt: Math.max(respondedAt, lastAt), chunks, chars, said, messageId };
  }

  async close(): Promise<void> {
    this.connection.close();
    this.child.stdin.end();
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    if (this.grouped) process.kill(-this.child.pid!, 'SIGTERM');
    else this.child.kill('SIGTERM');
    await exited;
  }
}

/** How a row's turns are spread over conversations (ACP sessions). */
export interface TurnPlan {
  /** Turns recorded, after `warmup` turns that are not. */
  readonly turns: number;
  readonly warmup: number;
  /** Turns per conversation; each conversation's first turn opens it and is not timed. */
  readonly perConversation: number;
  /** Pause between turns, as between a user's messages. */
  readonly gapMs: number;
}

/**
 * Runs a row's turns, bridged or direct alike: `turn(opening, index)` runs one (`opening`: the first of
 * a new conversation) and returns how to record its times, which is called only for a timed turn past
 * the warm-up.
 */
export async function runTurnPlan(plan: TurnPlan, turn: (opening: boolean, index: number) => Promise<() => void>): Promise<void> {
  for (let i = 0, inConversation = 0; i < plan.warmup + plan.turns; ) {
    const record = await turn(inConversation === 0, i);
    if (inConversation > 0) {
      if (i >= plan.warmup) record();
      i++;
    }
    inConversation = (inConversation + 1) % plan.perConversation;
    await sleep(plan.gapMs);
  }
}

/**
 * Runs several sides' turns (bridged, direct) a conversation of each in turn, the side that goes first
 * changing with each conversation, so that a drift of the machine's speed over the row's seconds weighs
 * on every side alike; run one after the other, the same code measured up to 1 ms apart on row 1.
 */
export async function runTurnPlans(plan: TurnPlan, sides: readonly ((opening: boolean, index: number) => Promise<() => void>)[]): Promise<void> {
  const total = plan.warmup + plan.turns;
  const done = sides.map(() => 0);
  for (let conversation = 0; done.some((n) => n < total); conversation++) {
    const order = sides.map((_, k) => k);
    if (conversation % 2 === 1) order.reverse();
    for (const k of order) {
      for (let inConversation = 0; inConversation < plan.perConversation && done[k]! < total; inConversation++) {
        const record = await sides[k]!(inConversation === 0, done[k]!);
        if (inConversation > 0) {
          if (done[k]! >= plan.warmup) record();
          done[k]!++;
        }
        await sleep(plan.gapMs);
      }
    }
  }
}

/** The length of what `stream N` says: `c1 ` … `cN `. */
export function streamChars(n: number): number {
  let total = 0;
  for (let i = 1; i <= n; i++) total += String(i).length + 2;
  return total;
}
