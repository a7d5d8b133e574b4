/**
 * The scripted agent (test/fixtures/scripted-agent.ts), driven as a real child process through the SDK's client side.
 * Needs the compiled fixture: `npx tsc -p .` first (npm test does it).
 *
 * How the client side of `@agentclientprotocol/sdk` 2.x works (default import = stable ACP v1):
 *
 * - Build an app: `acp.client({ name })`, then register handlers; each returns the app, so they chain.
 *     .onNotification(acp.methods.client.session.update, ({ params }) => …)        // params: SessionNotification
 *     .onRequest(acp.methods.client.session.requestPermission, ({ params }) => response)
 *   Handlers get `{ method, params, signal, agent }` (requests also `requestId`); `params` was validated with the
 *   SDK's zod schemas, and the return value (or a promise of it) is the response. A thrown `acp.RequestError` goes
 *   back as that JSON-RPC error, anything else as -32603. Notification handlers are started in arrival order but
 *   not awaited, so async ones run concurrently: serialize per session yourself. Unregistered requests get -32601.
 * - Connect: `acp.ndJsonStream(output, input)` over web streams (`Writable.toWeb(child.stdin)`,
 *   `Readable.toWeb(child.stdout)`), then either
 *     `app.connect(stream)` → `ClientConnection { agent: ClientContext, signal, closed: Promise<void>, close(err?) }`
 *   which stays open until `close()` or until the agent's stdout ends, or
 *     `app.connectWith(stream, async (agent) => …)` → the callback's result; the connection is closed when the
 *   callback settles, and the promise rejects if the connection closes first.
 *   `close()` does not end the child's stdin nor kill the child: do that yourself.
 * - Call the agent: `agent.request(acp.methods.agent.initialize, params)`, `…session.new`, `…session.prompt`:
 *   method literals type params and result. `agent.notify(acp.methods.agent.session.cancel, { sessionId })` sends a
 *   notification. `agent.buildSession(cwd).start()` gives an `ActiveSession` with `prompt()`, `nextUpdate()` and
 *   `readText()` (it queues that session's updates; the app's own session/update handler still runs too).
 *   Requests are not queued behind each other: the agent answers them concurrently.
 * - Ordering: the agent writes a turn's updates before its session/prompt response, but the SDK settles a
 *   response at once while a notification first walks the handler chain in registration order, with an await per
 *   handler. So the last session/update handlers of a turn can run AFTER `await request(session/prompt)` has
 *   returned: measured with three onRequest handlers registered before onNotification, the last 2 chunks of every
 *   turn (the only one, for a 1-chunk turn) came after the response. Yield one macrotask (`setImmediate`) after
 *   the response before treating the turn as complete; `prompt()` in the harness below does that.
 * - Errors: a JSON-RPC error reply rejects with an `acp.RequestError` (`code`, `message`, `data`); auth-required is
 *   code -32000 (`RequestError.authRequired()`), session not found -32002, not initialized -32600. When the agent's
 *   stdout ends (crash, exit) every pending request rejects with a plain `Error('ACP connection closed')` and
 *   `connection.closed` resolves. A request sent after that rejects with the same error.
 * - Permission requests are answered by option *kind* (ids differ between agents), with
 *   `{ outcome: { outcome: 'selected', optionId } }` or `{ outcome: { outcome: 'cancelled' } }`; after sending
 *   session/cancel the client must answer every open one `cancelled`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import type { ReadableStream, WritableStream } from 'node:stream/web';
import { fileURLToPath } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';

const AGENT = fileURLToPath(new URL('../../dist/test/fixtures/scripted-agent.js', import.meta.url));
const WAIT_MS = 5000;

type PermissionPolicy = (
  request: acp.RequestPermissionRequest,
) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;

/** Answers with the first option of that kind (never by id), or `cancelled` if there is none. */
function chooseKind(kind: acp.PermissionOptionKind): (request: acp.RequestPermissionRequest) => acp.RequestPermissionResponse {
  return (request) => {
    const option = request.options.find((o) => o.kind === kind);
    return { outcome: option ? { outcome: 'selected', optionId: option.optionId } : { outcome: 'cancelled' } };
  };
}

const CANCELLED: acp.RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A running scripted agent and a connected client that records everything it is sent. */
interface Harness {
  readonly child: ChildProcessWithoutNullStreams;
  readonly connection: acp.ClientConnection;
  readonly agent: acp.ClientContext;
  readonly updates: acp.SessionNotification[];
  readonly permissionRequests: acp.RequestPermissionRequest[];
  readonly exited: Promise<Exit>;
  stderr(): string;
  /** The agent's stderr once it holds `text` (stderr is another pipe: it may trail the protocol). */
  stderrHolding(text: string): Promise<string>;
  /** The first recorded update (past or future) that satisfies `predicate`. */
  waitForUpdate(predicate: (n: acp.SessionNotification) => boolean): Promise<acp.SessionNotification>;
  /**
   * Sends session/prompt; once it is answered, lets the updates that came before the response reach the
   * session/update handler (see the note on ordering at the top) and returns the response.
   */
  prompt(sessionId: string, prompt: string | acp.ContentBlock[]): Promise<acp.PromptResponse>;
  /** Sends initialize and session/new; returns the session id. */
  newSession(cwd?: string): Promise<string>;
  /** The text of the agent_message_chunks recorded for a session, in order. */
  messages(sessionId: string): string[];
}

function spawnAgent(args: readonly string[] = []): {
  child: ChildProcessWithoutNullStreams;
  stream: acp.Stream;
  exited: Promise<Exit>;
  stderr: () => string;
} {
  const child = spawn(process.execPath, [AGENT, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  // Writing to a dead agent raises EPIPE on stdin; the connection reports it, the test must not crash on it.
  child.stdin.on('error', () => undefined);
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const stream = acp.ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  return { child, stream, exited, stderr: () => stderr };
}

const running: ChildProcessWithoutNullStreams[] = [];
const connections: acp.ClientConnection[] = [];

function start(args: readonly string[] = [], permission: PermissionPolicy = chooseKind('allow_once')): Harness {
  const { child, stream, exited, stderr } = spawnAgent(args);
  running.push(child);
  const updates: acp.SessionNotification[] = [];
  const permissionRequests: acp.RequestPermissionRequest[] = [];
  const waiters: { predicate: (n: acp.SessionNotification) => boolean; resolve: (n: acp.SessionNotification) => void }[] = [];

  const connection = acp
    .client({ name: 'scripted-agent-test' })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      permissionRequests.push(params);
      return permission(params);
    })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
      for (const waiter of [...waiters]) {
        if (waiter.predicate(params)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(params);
        }
      }
    })
    .connect(stream);
  connections.push(connection);
  const agent = connection.agent;

  return {
    child,
    connection,
    agent,
    updates,
    permissionRequests,
    exited,
    stderr,
    async stderrHolding(text) {
      for (let waited = 0; waited < WAIT_MS && !stderr().includes(text); waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      return stderr();
    },
    waitForUpdate(predicate) {
      const seen = updates.find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no such update within ${WAIT_MS} ms`)), WAIT_MS);
        waiters.push({ predicate, resolve: (n) => (clearTimeout(timer), resolve(n)) });
      });
    },
    async prompt(sessionId, prompt) {
      const blocks: acp.ContentBlock[] = typeof prompt === 'string' ? [{ type: 'text', text: prompt }] : prompt;
      const response = await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: blocks });
      await new Promise((resolve) => setImmediate(resolve));
      return response;
    },
    async newSession(cwd = '/tmp/scripted-agent-test') {
      await agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
      const session = await agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
      return session.sessionId;
    },
    messages(sessionId) {
      return updates.flatMap(({ sessionId: id, update }) =>
        id === sessionId && update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text'
          ? [update.content.text]
          : [],
      );
    },
  };
}

function isText(text: string): (n: acp.SessionNotification) => boolean {
  return ({ update }) => update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' && update.content.text === text;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

afterEach(async () => {
  for (const connection of connections.splice(0)) connection.close();
  await Promise.all(
    running.splice(0).map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    }),
  );
});

describe('scripted agent', () => {
  test('initialize advertises what the flags say', async () => {
    const plain = start();
    const defaults = await plain.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
    expect(defaults.protocolVersion).toBe(acp.PROTOCOL_VERSION);
    expect(defaults.agentCapabilities).toMatchObject({
      loadSession: false,
      promptCapabilities: { image: false },
      mcpCapabilities: { http: false },
    });

    const rich = start(['--image', '--mcp-http', '--load-session', '--protocol-version', '7']);
    const advertised = await rich.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
    expect(advertised.protocolVersion).toBe(7);
    expect(advertised.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { image: true },
      mcpCapabilities: { http: true },
    });
  });

  test('stream 3 sends three chunks, then ends the turn', async () => {
    const h = start();
    const sessionId = await h.newSession();
    const response = await h.prompt(sessionId, 'stream 3');
    expect(response.stopReason).toBe('end_turn');
    expect(h.messages(sessionId)).toEqual(['c1 ', 'c2 ', 'c3 ']);
  });

  test('a line that is no command is echoed, and commands run in order', async () => {
    const h = start();
    const sessionId = await h.newSession('/work/somewhere');
    const response = await h.prompt(sessionId, [
      { type: 'text', text: 'hello there\nthink hmm\ncwd' },
      { type: 'text', text: 'stop max_tokens\nsay unreachable' },
    ]);
    expect(response.stopReason).toBe('max_tokens');
    expect(h.updates.map(({ update }) => update.sessionUpdate)).toEqual([
      'agent_message_chunk',
      'agent_thought_chunk',
      'agent_message_chunk',
    ]);
    expect(h.messages(sessionId)).toEqual(['You said: hello there', '/work/somewhere']);
  });

  test('permission x is answered by kind, and the outcome is reported', async () => {
    const h = start([], chooseKind('allow_once'));
    const sessionId = await h.newSession();
    const response = await h.prompt(sessionId, 'permission x');
    expect(response.stopReason).toBe('end_turn');
    expect(h.permissionRequests).toHaveLength(1);
    const [request] = h.permissionRequests;
    expect(request?.toolCall).toMatchObject({ title: 'x', kind: 'execute', rawInput: { command: 'x' } });
    expect(request?.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
    expect(request?.options.map((o) => o.optionId)).not.toContain('allow_once');
    // The tool call is announced before permission is asked, and settled after.
    const kinds = h.updates.map(({ update }) => update.sessionUpdate);
    expect(kinds).toEqual(['tool_call', 'tool_call_update', 'agent_message_chunk']);
    expect(h.messages(sessionId)).toEqual(['permission x: allow_once']);
  });

  test('permissions 2 asks both at once and reports each answer in order of title', async () => {
    // Answer only once both requests are open: this would deadlock if the agent asked one after the other.
    const open: (() => void)[] = [];
    const both = new Promise<void>((resolve) => open.push(resolve));
    let seen = 0;
    const h = start([], async (request) => {
      if (++seen === 2) open[0]?.();
      await both;
      return chooseKind(request.toolCall.title === 'action 1' ? 'reject_always' : 'allow_always')(request);
    });
    const sessionId = await h.newSession();
    const response = await h.prompt(sessionId, 'permissions 2');
    expect(response.stopReason).toBe('end_turn');
    expect(h.permissionRequests.map((r) => r.toolCall.title)).toEqual(['action 1', 'action 2']);
    expect(h.messages(sessionId)).toEqual(['permission action 1: reject_always', 'permission action 2: allow_always']);
  });

  test('a cancelled hang ends with stopReason cancelled', async () => {
    const h = start();
    const sessionId = await h.newSession();
    const turn = h.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: 'say started\nhang' }],
    });
    await h.waitForUpdate(isText('started'));
    await h.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await turn).stopReason).toBe('cancelled');
  });

  test('a cancel during a permission request: the client answers cancelled, the turn ends cancelled', async () => {
    let h: Harness | undefined;
    let sessionId = '';
    h = start([], async () => {
      // What a bridge does when the user stops the turn while the agent waits for permission.
      await h?.agent.notify(acp.methods.agent.session.cancel, { sessionId });
      return CANCELLED;
    });
    sessionId = await h.newSession();
    const response = await h.prompt(sessionId, 'permission rm -rf /\nsay unreachable');
    expect(response.stopReason).toBe('cancelled');
    expect(h.messages(sessionId)).toEqual(['permission rm -rf /: cancelled']);
  });

  test('echo shows exactly the content blocks the client sent', async () => {
    const h = start(['--image']);
    const sessionId = await h.newSession();
    const prompt: acp.ContentBlock[] = [
      { type: 'text', text: 'echo' },
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
    ];
    await h.prompt(sessionId, prompt);
    const [echoed] = h.messages(sessionId);
    expect(JSON.parse(echoed ?? 'null')).toEqual(prompt);
  });

  test('late sends an update after the prompt response', async () => {
    const h = start();
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'say now\nlate afterwards 30');
    expect(h.messages(sessionId)).toEqual(['now']);
    await h.waitForUpdate(isText('afterwards'));
  });

  test('an overlapping prompt is refused and logged', async () => {
    const h = start();
    const sessionId = await h.newSession();
    const first = h.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'say started\nhang' }] });
    await h.waitForUpdate(isText('started'));
    const error = await rejection(h.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'hi' }] }));
    expect(error).toBeInstanceOf(acp.RequestError);
    expect(await h.stderrHolding('scripted-agent: OVERLAPPING PROMPT')).toContain('scripted-agent: OVERLAPPING PROMPT');
    await h.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await first).stopReason).toBe('cancelled');
  });

  test('--auth-required: session/new fails with -32000 and the auth methods are advertised', async () => {
    const h = start(['--auth-required']);
    const init = await h.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
    expect(init.authMethods).toEqual([
      { id: 'api-key', name: 'API key' },
      { id: 'oauth', name: 'Sign in' },
    ]);
    const error = await rejection(h.agent.request(acp.methods.agent.session.new, { cwd: '/tmp', mcpServers: [] }));
    expect(error).toBeInstanceOf(acp.RequestError);
    expect(error).toMatchObject({ code: -32000 });
  });

  test('crash ends the process with code 3 and rejects the pending prompt', async () => {
    const h = start();
    const sessionId = await h.newSession();
    const error = await rejection(
      h.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'crash' }] }),
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(acp.RequestError);
    expect((error as Error).message).toBe('ACP connection closed');
    expect(await h.exited).toEqual({ code: 3, signal: null });
    expect(await h.stderrHolding('scripted-agent: crashing')).toContain('scripted-agent: crashing');
    await h.connection.closed;
    expect(h.connection.signal.aborted).toBe(true);
  });

  test('ignore-cancel keeps streaming for a while after the cancel, then ends cancelled', async () => {
    const h = start();
    const sessionId = await h.newSession();
    const turn = h.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: 'ignore-cancel 150\nstream 200 10\nsay unreachable' }],
    });
    await h.waitForUpdate(isText('c3 '));
    await h.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    const cancelledAt = h.messages(sessionId).length;
    expect((await turn).stopReason).toBe('cancelled');
    await new Promise((resolve) => setImmediate(resolve));
    const chunks = h.messages(sessionId);
    expect(chunks.length).toBeGreaterThan(cancelledAt + 3);
    expect(chunks.length).toBeLessThan(200);
    expect(chunks).not.toContain('unreachable');
  });

  test('--exit-on-initialize: the process exits with that code and the request rejects', async () => {
    const h = start(['--exit-on-initialize', '5']);
    const error = await rejection(h.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION }));
    expect((error as Error).message).toBe('ACP connection closed');
    expect(await h.exited).toEqual({ code: 5, signal: null });
    expect(await h.stderrHolding('scripted-agent: exiting during initialize')).toContain('scripted-agent: exiting during initialize');
  });

  test('connectWith: a scoped workflow with the ActiveSession helpers', async () => {
    const { child, stream } = spawnAgent();
    running.push(child);
    const text = await acp.client({ name: 'scripted-agent-test' }).connectWith(stream, async (agent) => {
      await agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      const session = await agent.buildSession('/tmp').start();
      try {
        void session.prompt('stream 2\nsay done');
        return await session.readText();
      } finally {
        session.dispose();
      }
    });
    expect(text).toBe('c1 c2 done');
  });
});
