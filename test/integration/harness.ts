/**
 * Helpers for the integration tests: they spawn the BUILT `symposium-lm vscodelm` (dist/, so run `tsc`
 * first) and talk to it over its stdio, either through LmClient or through `RawBridge`, a JSON-RPC peer
 * of our own that chooses request ids and records every message the server writes, in order.
 *
 * Everything the server writes on stdout goes through `FrameParser`, which is stricter than
 * vscode-jsonrpc: any byte that is not part of a well-formed `Content-Length` frame holding a JSON-RPC
 * 2.0 message (a stray log line, say) is recorded as a framing error.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { elizaRespond, initialElizaState, type ElizaState } from '../../src/agents/eliza/engine.js';
import { LmClient } from '../../src/client/lm-client.js';
import { frame } from '../fixtures/frames.js';
import type { AgentDefinition, Message, ProvideChatResponseParams, ResponsePart } from '../../src/protocol/messages.js';
import { Methods } from '../../src/protocol/methods.js';

/** The built CLI (jest runs from the repository root); SYMPOSIUM_LM_CLI points the tests at another build. */
export const CLI_PATH = path.resolve(process.env.SYMPOSIUM_LM_CLI ?? 'dist/src/cli/main.js');

export function assertBuilt(): void {
  if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} does not exist: run \`npx tsc -p .\` before the integration tests`);
}

// ---------------------------------------------------------------------------------------------------
// Messages and the pure engine.

export const ELIZA_MODEL_ID = 'symposium-eliza';
export const DETERMINISTIC_ELIZA: AgentDefinition = { eliza: { deterministic: true } };

export const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', value: text }] });
export const assistant = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', value: text }] });

export function chatParams(messages: readonly Message[], agent: AgentDefinition = DETERMINISTIC_ELIZA): ProvideChatResponseParams {
  return { modelId: ELIZA_MODEL_ID, messages: [...messages], agent };
}

/** What the deterministic engine answers to `inputs`, one after the other, starting from `state`. */
export function elizaConversation(inputs: readonly string[], state: ElizaState = initialElizaState()): { replies: string[]; state: ElizaState } {
  const replies: string[] = [];
  let current = state;
  for (const input of inputs) {
    const answer = elizaRespond(current, input, { kind: 'cycle' });
    replies.push(answer.reply);
    current = answer.state;
  }
  return { replies, state: current };
}

export function textOf(parts: readonly ResponsePart[]): string {
  return parts.map((part) => (part.type === 'text' ? part.value : '')).join('');
}

// ---------------------------------------------------------------------------------------------------
// JSON-RPC messages as they appear on the wire.

export type JsonRpcId = number | string;

export interface RpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export type RpcMessage =
  | { readonly kind: 'request'; readonly id: JsonRpcId; readonly method: string; readonly params: unknown }
  | { readonly kind: 'notification'; readonly method: string; readonly params: unknown }
  | { readonly kind: 'response'; readonly id: JsonRpcId | null; readonly result?: unknown; readonly error?: RpcError };

export type RpcResponse = Extract<RpcMessage, { kind: 'response' }>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'number' || typeof value === 'string';
}

/** Classifies a parsed body as a JSON-RPC 2.0 message, or says why it is not one. */
function classify(body: unknown): RpcMessage | string {
  if (!isRecord(body)) return 'body is not a JSON object';
  if (body.jsonrpc !== '2.0') return `jsonrpc is ${JSON.stringify(body.jsonrpc)}, not "2.0"`;
  if (typeof body.method === 'string') {
    return 'id' in body && isId(body.id)
      ? { kind: 'request', id: body.id, method: body.method, params: body.params }
      : { kind: 'notification', method: body.method, params: body.params };
  }
  if (!('id' in body) || !(isId(body.id) || body.id === null)) return 'response without a valid id';
  if ('error' in body) {
    const error = body.error;
    if (!isRecord(error) || typeof error.code !== 'number' || typeof error.message !== 'string') return 'malformed error object';
    return { kind: 'response', id: body.id, error: { code: error.code, message: error.message, data: error.data } };
  }
  if (!('result' in body)) return 'response with neither result nor error';
  return { kind: 'response', id: body.id, result: body.result };
}

const HEADER_LINE = /^(Content-Length: (\d+)|Content-Type: [^\r\n]+)$/;

/** A strict reader of `Content-Length` framed JSON-RPC: anything else becomes an entry in `errors`. */
export class FrameParser {
  private buffer: Buffer = Buffer.alloc(0);
  readonly errors: string[] = [];

  constructor(private readonly onMessage: (message: RpcMessage) => void) {}

  push(chunk: Buffer): void {
    if (this.errors.length > 0) return; // past a framing error nothing can be trusted
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) {
        const start = this.buffer.toString('latin1', 0, Math.min(this.buffer.length, 8));
        if (!'Content-'.startsWith(start) && !start.startsWith('Content-')) this.fail(`bytes outside a frame: ${JSON.stringify(this.preview())}`);
        return;
      }
      let length: number | undefined;
      for (const line of this.buffer.toString('latin1', 0, headerEnd).split('\r\n')) {
        const match = HEADER_LINE.exec(line);
        if (match === null) return this.fail(`bad header line ${JSON.stringify(line.slice(0, 80))}`);
        if (match[2] !== undefined) length = Number(match[2]);
      }
      if (length === undefined) return this.fail('frame without Content-Length');
      const bodyStart = headerEnd + 4;
      if (this.buffer.length < bodyStart + length) return;
      const text = this.buffer.toString('utf8', bodyStart, bodyStart + length);
      this.buffer = this.buffer.subarray(bodyStart + length);
      let body: unknown;
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        return this.fail(`frame body is not JSON: ${JSON.stringify(text.slice(0, 80))}`);
      }
      const message = classify(body);
      if (typeof message === 'string') return this.fail(`${message}: ${text.slice(0, 80)}`);
      this.onMessage(message);
    }
  }

  /** Framing errors, counting bytes left over after the last complete frame. */
  problems(): string[] {
    return this.buffer.length > 0 ? [...this.errors, `incomplete trailing bytes: ${JSON.stringify(this.preview())}`] : [...this.errors];
  }

  private preview(): string {
    return this.buffer.toString('utf8', 0, Math.min(this.buffer.length, 80));
  }

  private fail(reason: string): void {
    this.errors.push(reason);
  }
}

// ---------------------------------------------------------------------------------------------------
// What the server wrote, in order.

export interface PartNotification {
  /** Position among everything the server wrote. */
  readonly index: number;
  readonly requestId: unknown;
  readonly part: ResponsePart;
}

/** Records, in order, every message a server writes on stdout, and lets tests wait for some. */
export class ServerOutput {
  readonly messages: RpcMessage[] = [];
  private readonly parser = new FrameParser((message) => this.record(message));
  private readonly waiters = new Set<() => void>();
  private closed = false;

  /** Sees each chunk of `stdout`; attach before any other reader so the record is never behind. */
  attach(stdout: NodeJS.ReadableStream): void {
    stdout.on('data', (chunk: Buffer) => this.parser.push(chunk));
    stdout.on('close', () => this.close());
  }

  framingProblems(): string[] {
    return this.parser.problems();
  }

  /** Every `lm/responsePart` notification, in order. */
  parts(): PartNotification[] {
    const out: PartNotification[] = [];
    this.messages.forEach((message, index) => {
      if (message.kind !== 'notification' || message.method !== Methods.responsePart || !isRecord(message.params)) return;
      out.push({ index, requestId: message.params.requestId, part: message.params.part as ResponsePart });
    });
    return out;
  }

  partsFor(id: JsonRpcId): PartNotification[] {
    return this.parts().filter((p) => p.requestId === id);
  }

  /** Positions of the `lm/responseComplete` notifications for `id`. */
  completionsFor(id: JsonRpcId): number[] {
    const out: number[] = [];
    this.messages.forEach((message, index) => {
      if (message.kind === 'notification' && message.method === Methods.responseComplete && isRecord(message.params) && message.params.requestId === id) out.push(index);
    });
    return out;
  }

  /** Positions of the responses with `id`. */
  responsesFor(id: JsonRpcId): number[] {
    const out: number[] = [];
    this.messages.forEach((message, index) => {
      if (message.kind === 'response' && message.id === id) out.push(index);
    });
    return out;
  }

  /**
   * Resolves once some recorded message satisfies `predicate` (checking those already recorded too);
   * rejects after `timeoutMs`, or as soon as the server's output closes without one.
   */
  waitFor(predicate: (message: RpcMessage) => boolean, timeoutMs = 5000, what = 'a message'): Promise<RpcMessage> {
    return new Promise((resolve, reject) => {
      const settle = (outcome: RpcMessage | Error): void => {
        this.waiters.delete(waiter);
        clearTimeout(timer);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const waiter = (): void => {
        const found = this.messages.find(predicate);
        if (found !== undefined) settle(found);
        else if (this.closed) settle(new Error(`the server's output closed before ${what}`));
      };
      const timer = setTimeout(() => settle(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
      this.waiters.add(waiter);
      waiter();
    });
  }

  private close(): void {
    this.closed = true;
    this.notify();
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  private record(message: RpcMessage): void {
    this.messages.push(message);
    this.notify();
  }
}

// ---------------------------------------------------------------------------------------------------
// Spawned processes, cleaned up by `stopAll`.

export interface ExitStatus {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface BridgeOptions {
  readonly paceMs?: number;
  readonly logLevel?: 'error' | 'warn' | 'info' | 'debug' | 'trace';
  /** More `vscodelm` options (`--max-message-mb 8`, …). */
  readonly args?: readonly string[];
}

const live = new Set<{ child: ChildProcess; exited: Promise<ExitStatus>; dispose: () => void }>();

function cliArgs(options: BridgeOptions): string[] {
  return ['--eliza-pace-ms', String(options.paceMs ?? 1), '--log-level', options.logLevel ?? 'debug', ...(options.args ?? [])];
}

function exitOf(child: ChildProcess): Promise<ExitStatus> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

function collectStderr(child: ChildProcess): () => string {
  const chunks: Buffer[] = [];
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
  return () => Buffer.concat(chunks).toString('utf8');
}

/** Kills every process a test spawned that is still running, and waits for it to go. */
export async function stopAll(): Promise<void> {
  const all = [...live];
  live.clear();
  await Promise.all(
    all.map(async ({ child, exited, dispose }) => {
      dispose();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    }),
  );
}

/** Resolves with `promise`'s value, or rejects if it takes longer than `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The bridge driven through LmClient (as the extension does), with its stdout also recorded. */
export interface ClientBridge {
  readonly client: LmClient;
  readonly child: ChildProcess;
  readonly output: ServerOutput;
  readonly exited: Promise<ExitStatus>;
  stderr(): string;
}

export function startClient(options: BridgeOptions = {}): ClientBridge {
  assertBuilt();
  const { client, child } = LmClient.spawn({ cliPath: CLI_PATH, args: cliArgs(options), stderr: 'pipe' });
  const output = new ServerOutput();
  // LmClient's reader is attached already; ours comes second, so wait on `output` rather than assume.
  output.attach(child.stdout!);
  const exited = exitOf(child);
  live.add({ child, exited, dispose: () => client.dispose() });
  return { client, child, output, exited, stderr: collectStderr(child) };
}

export interface ChatOutcome {
  readonly id: JsonRpcId;
  readonly response: RpcResponse;
  readonly parts: ResponsePart[];
  readonly text: string;
}

/**
 * A JSON-RPC peer of our own over the bridge's stdio: it picks request ids, sends exactly the bytes it
 * is asked to, and `output` holds everything the server wrote, in order.
 */
export class RawBridge {
  readonly child: ChildProcess;
  readonly output = new ServerOutput();
  readonly exited: Promise<ExitStatus>;
  readonly stderr: () => string;
  private nextId = 100;

  constructor(options: BridgeOptions = {}) {
    assertBuilt();
    this.child = spawn(process.execPath, [CLI_PATH, 'vscodelm', ...cliArgs(options)], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.output.attach(this.child.stdout!);
    this.stderr = collectStderr(this.child);
    this.exited = exitOf(this.child);
    // Writing to a process that died must fail the test through its assertions, not crash jest.
    this.child.stdin!.on('error', () => {});
    live.add({ child: this.child, exited: this.exited, dispose: () => {} });
  }

  send(message: object): void {
    this.child.stdin!.write(frame(message));
  }

  /** Sends several messages in one write, so that the server reads them together. */
  sendTogether(messages: readonly object[]): void {
    this.child.stdin!.write(Buffer.concat(messages.map(frame)));
  }

  /** Sends a request; `response` resolves with the server's response to it (result or error). */
  request(method: string, params: unknown, id: JsonRpcId = this.nextId++): { id: JsonRpcId; response: Promise<RpcResponse> } {
    this.send({ jsonrpc: '2.0', id, method, params });
    const response = this.output
      .waitFor((m) => m.kind === 'response' && m.id === id, 15000, `the response to request ${JSON.stringify(id)}`)
      .then((m) => m as RpcResponse);
    return { id, response };
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  cancel(id: JsonRpcId): void {
    this.notify('$/cancelRequest', { id });
  }

  /** Sends `lm/provideLanguageModelChatResponse`; `outcome` resolves once it is answered. */
  startChat(messages: readonly Message[], id?: JsonRpcId): { id: JsonRpcId; outcome: Promise<ChatOutcome> } {
    const sent = this.request(Methods.provideChatResponse, chatParams(messages), id);
    const outcome = sent.response.then((response) => {
      const parts = this.output.partsFor(sent.id).map((p) => p.part);
      return { id: sent.id, response, parts, text: textOf(parts) };
    });
    return { id: sent.id, outcome };
  }

  chat(messages: readonly Message[], id?: JsonRpcId): Promise<ChatOutcome> {
    return this.startChat(messages, id).outcome;
  }

  /** Closes the server's stdin, as VS Code does when it lets the process go. */
  closeInput(): void {
    this.child.stdin!.end();
  }
}
