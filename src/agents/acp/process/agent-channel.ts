import type { Readable, Writable } from 'node:stream';
import { RequestError, type AnyMessage, type SessionNotification, type Stream } from '@agentclientprotocol/sdk';
import { SessionUpdateFastPath } from './session-update-fast-path.js';

export interface AgentChannelOptions {
  /** The longest line (message) read: ACP's limit, beyond which the SDK's connection would break for good. */
  readonly maxLineBytes: number;
  /** A line grew past `maxLineBytes`: told once; nothing more is read, and that line is never buffered whole. */
  readonly onOverflow: () => void;
  /**
   * The agent's text chunks and tool call announcements, decoded here and handed on as they are read (see
   * `SessionUpdateFastPath`); `outsidePrompt` when read while the session had no prompt in flight: after the
   * response to its last `session/prompt` (however soon after) and before its next.
   */
  readonly onUpdate: (notification: SessionNotification, outsidePrompt: boolean) => void;
}

/**
 * The ACP SDK's message streams over an agent's stdio: newline-delimited JSON, read and written on Node's
 * streams directly. The SDK's own `ndJsonStream` over `Readable.toWeb`/`Writable.toWeb` passed each message
 * through two web-stream adapters, a text decoder stream and a chain of promises each way: ~0.35 ms of the
 * bridge's ~1.3 ms on a short turn (issue 16, row 1). Here a line is parsed in the stdout `data` event that
 * brought it, a text chunk reaches `onUpdate` there and then, and a message to the agent is one write.
 */
export function agentChannel(stdin: Writable, stdout: Readable, options: AgentChannelOptions): Stream {
  let sdk!: ReadableStreamDefaultController<AnyMessage>;
  let ended = false;
  // Prompts in flight, by request id and by session: an update read after its prompt's response is late
  // even when the SDK has not yet settled that response (it does so some microtasks later).
  const prompts = new Map<string | number, string>();
  const prompting = new Map<string, number>();
  const fastPath = new SessionUpdateFastPath(options.onUpdate, (message) => sdk.enqueue(message), (sessionId) => (prompting.get(sessionId) ?? 0) > 0);
  const promptAnswered = (message: AnyMessage): void => {
    if (!('id' in message) || 'method' in message || message.id === null) return;
    const sessionId = prompts.get(message.id);
    if (sessionId === undefined) return;
    prompts.delete(message.id);
    const left = (prompting.get(sessionId) ?? 1) - 1;
    if (left > 0) prompting.set(sessionId, left);
    else prompting.delete(sessionId);
  };
  const promptSent = (message: AnyMessage): void => {
    if (!('method' in message) || message.method !== 'session/prompt' || !('id' in message) || message.id === null) return;
    const sessionId = (message.params as { sessionId?: unknown } | undefined)?.sessionId;
    if (typeof sessionId !== 'string') return;
    prompts.set(message.id, sessionId);
    prompting.set(sessionId, (prompting.get(sessionId) ?? 0) + 1);
  };
  const end = (error?: unknown): void => {
    if (ended) return;
    ended = true;
    stdout.off('data', onData);
    if (error !== undefined) sdk.error(error);
    else
      void fastPath.drained().then(() => {
        try {
          sdk.close();
        } catch {
          // The SDK cancelled the stream while the last updates were handed on: it is closed already.
        }
      });
  };

  const line = (bytes: Buffer): void => {
    const text = bytes.toString('utf8').trim();
    if (text === '') return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      // As the SDK answers a line that is not JSON.
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: null, error: RequestError.parseError().toErrorResponse() })}\n`);
      return;
    }
    // Any JSON value: the SDK answers what is not a JSON-RPC message (an array, a number) as invalid.
    if (typeof message === 'object' && message !== null && !Array.isArray(message)) promptAnswered(message as AnyMessage);
    fastPath.push(message as AnyMessage);
  };

  let partial: Buffer[] = [];
  let partialBytes = 0;
  const onData = (data: Buffer): void => {
    try {
      for (let from = 0; ; ) {
        const newline = data.indexOf(10, from);
        const upTo = newline < 0 ? data.length : newline;
        partialBytes += upTo - from;
        if (partialBytes > options.maxLineBytes) {
          partial = [];
          stdout.off('data', onData);
          options.onOverflow();
          return;
        }
        if (newline < 0) {
          if (upTo > from) partial.push(data.subarray(from));
          return;
        }
        const piece = data.subarray(from, newline);
        line(partial.length === 0 ? piece : Buffer.concat([...partial, piece]));
        partial = [];
        partialBytes = 0;
        from = newline + 1;
      }
    } catch (error) {
      end(error);
    }
  };

  const readable = new ReadableStream<AnyMessage>({
    start: (controller) => {
      sdk = controller;
      stdout.on('data', onData);
      stdout.once('end', () => {
        // The last line may lack its newline.
        if (partial.length > 0 && partialBytes <= options.maxLineBytes) line(Buffer.concat(partial));
        partial = [];
        end();
      });
      stdout.once('error', (error) => end(error));
      stdout.once('close', () => end());
    },
    // The SDK closed the connection: nothing more is read.
    cancel: () => {
      ended = true;
      stdout.off('data', onData);
      stdout.destroy();
    },
  });

  /** Writes `message` now: undefined once the pipe took it, else a promise of its draining. */
  const writeNow = (message: AnyMessage): Promise<void> | undefined => {
    if (stdin.destroyed || stdin.writableEnded) throw new Error("the agent's stdin is closed");
    promptSent(message);
    if (stdin.write(`${JSON.stringify(message)}\n`)) return undefined;
    // Backpressure: the agent reads slower than the SDK writes.
    return new Promise<void>((resolve) => {
      const done = (): void => {
        stdin.off('drain', done);
        stdin.off('close', done);
        resolve();
      };
      stdin.on('drain', done);
      stdin.on('close', done);
    });
  };
  /** The last write still waiting for the pipe to drain: what comes next waits behind it. */
  let draining: Promise<void> | undefined;
  const write = (message: AnyMessage): Promise<void> => {
    let written: Promise<void> | undefined;
    try {
      written = draining === undefined ? writeNow(message) : draining.then(() => writeNow(message));
    } catch (error) {
      return Promise.reject(error);
    }
    if (written === undefined) return Promise.resolve();
    const settled = (): void => {
      if (draining === written) draining = undefined;
    };
    draining = written;
    written.then(settled, settled);
    return written;
  };
  // The SDK writes each message as `getWriter()`, `write`, `releaseLock()`, one after the other, and uses nothing
  // else of its stream's writable. A web stream's writer rejects two promises with new errors at each release
  // (taking their stack traces) and queues every write through promises: a writer of these three calls is enough.
  const writer = { write, releaseLock: (): void => undefined };
  const writable = { getWriter: () => writer } as unknown as WritableStream<AnyMessage>;

  return { readable, writable };
}
