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
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** Kills the agent and waits until it is gone: what a restart of the agent looks like to its state dir. */
async function kill(h: Harness): Promise<void> {
  h.connection.close();
  if (h.child.exitCode === null && h.child.signalCode === null) h.child.kill('SIGKILL');
  await h.exited;
}

async function initialize(h: Harness): Promise<acp.InitializeResponse> {
  return h.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
}

function load(h: Harness, sessionId: string, cwd = '/tmp'): Promise<acp.LoadSessionResponse> {
  return h.agent.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
}

function resume(h: Harness, sessionId: string, cwd = '/tmp'): Promise<acp.ResumeSessionResponse> {
  return h.agent.request(acp.methods.agent.session.resume, { sessionId, cwd });
}

/** Fails unless the agent's stderr comes to hold `text` (within WAIT_MS). */
async function expectLogged(h: Harness, text: string): Promise<void> {
  expect(await h.stderrHolding(text)).toContain(text);
}

/** Lets the session/update handler catch up with a response (see the note on ordering at the top). */
async function settled(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

const stateDirs: string[] = [];

/** A fresh --state-dir, removed after the test. */
function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scripted-agent-state-'));
  stateDirs.push(dir);
  return dir;
}

/** The text of the recorded updates of a session, kind by kind: `user: …`, `agent: …` (other kinds by name). */
function transcriptOf(h: Harness, sessionId: string): string[] {
  return h.updates
    .filter(({ sessionId: id }) => id === sessionId)
    .map(({ update }) => {
      if (update.sessionUpdate !== 'user_message_chunk' && update.sessionUpdate !== 'agent_message_chunk') return update.sessionUpdate;
      const who = update.sessionUpdate === 'user_message_chunk' ? 'user' : 'agent';
      return update.content.type === 'text' ? `${who}: ${update.content.text}` : `${who}: [${update.content.type}]`;
    });
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
  for (const dir of stateDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
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

    expect(defaults.agentCapabilities?.sessionCapabilities?.resume ?? undefined).toBeUndefined();
    expect(defaults.agentCapabilities?.sessionCapabilities?.close ?? undefined).toBeUndefined();

    const rich = start(['--image', '--mcp-http', '--load-session', '--protocol-version', '7']);
    const advertised = await rich.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
    expect(advertised.protocolVersion).toBe(7);
    expect(advertised.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { image: true },
      mcpCapabilities: { http: true },
    });

    const resumable = await initialize(start(['--resume-session']));
    expect(resumable.agentCapabilities?.sessionCapabilities).toEqual({ resume: {} });
    const closable = await initialize(start(['--close-session']));
    expect(closable.agentCapabilities?.sessionCapabilities).toEqual({ close: {} });
    const both = await initialize(start(['--resume-session', '--close-session']));
    expect(both.agentCapabilities?.sessionCapabilities).toEqual({ resume: {}, close: {} });
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

  test('--state-dir: a second agent process loads the first one\'s session, its history and its updates', async () => {
    const dir = stateDir();
    const first = start(['--load-session', '--state-dir', dir]);
    const sessionId = await first.newSession('/work/first');
    expect(sessionId).toBe(`scripted-session-${first.child.pid}-1`);
    await first.prompt(sessionId, 'say one');
    await first.prompt(sessionId, [
      { type: 'text', text: 'history' },
      { type: 'text', text: 'say two' },
    ]);
    expect(first.messages(sessionId)).toEqual(['one', JSON.stringify(['say one']), 'two']);
    const stored = JSON.parse(readFileSync(join(dir, `${sessionId}.json`), 'utf8')) as Record<string, unknown>;
    expect(stored).toMatchObject({ cwd: '/work/first', seen: ['say one', 'history\nsay two'] });
    expect(stored.transcript).toHaveLength(6);
    await kill(first);

    const second = start(['--load-session', '--state-dir', dir]);
    await initialize(second);
    await load(second, sessionId, '/work/first');
    await settled();
    // Replayed: the prompts as user chunks and what the first process answered.
    expect(transcriptOf(second, sessionId)).toEqual([
      'user: say one',
      'agent: one',
      'user: history',
      'user: say two',
      'agent: ["say one"]',
      'agent: two',
    ]);
    await expectLogged(second, `session/load ${sessionId}`);
    await second.prompt(sessionId, 'history\ncwd');
    const history = JSON.stringify(['say one', 'history\nsay two']);
    expect(second.messages(sessionId).slice(-2)).toEqual([history, '/work/first']);
    // The second process numbers its sessions from 1 too: the pid keeps the ids apart.
    const other = await second.agent.request(acp.methods.agent.session.new, { cwd: '/work/second', mcpServers: [] });
    expect(other.sessionId).toBe(`scripted-session-${second.child.pid}-1`);
    expect(other.sessionId).not.toBe(sessionId);
  });

  test('--resume-session: a stored session is resumed without replaying its updates', async () => {
    const dir = stateDir();
    const first = start(['--resume-session', '--state-dir', dir]);
    const sessionId = await first.newSession('/work/resumed');
    await first.prompt(sessionId, 'say hello');
    // Resuming a session this process holds answers at once, also without replay.
    const before = first.updates.length;
    await resume(first, sessionId, '/work/resumed');
    await settled();
    expect(first.updates).toHaveLength(before);
    await kill(first);

    const second = start(['--resume-session', '--state-dir', dir]);
    await initialize(second);
    const response = await resume(second, sessionId, '/work/resumed');
    expect(response.configOptions ?? undefined).toBeUndefined();
    await settled();
    expect(second.updates).toEqual([]);
    await expectLogged(second, `session/resume ${sessionId}`);
    await second.prompt(sessionId, 'history');
    expect(second.messages(sessionId)).toEqual([JSON.stringify(['say hello'])]);
    // session/load is not served without --load-session.
    expect(await rejection(load(second, sessionId, '/work/resumed'))).toMatchObject({ code: -32601 });
  });

  test('--state-dir: loading or resuming a session found nowhere fails with session not found', async () => {
    const h = start(['--load-session', '--resume-session', '--state-dir', stateDir()]);
    await initialize(h);
    const loaded = await rejection(load(h, 'scripted-session-nowhere'));
    expect(loaded).toBeInstanceOf(acp.RequestError);
    expect(loaded).toMatchObject({ code: -32002, data: { sessionId: 'scripted-session-nowhere' } });
    await expectLogged(h, 'session/load scripted-session-nowhere: not found');
    expect(await rejection(resume(h, 'scripted-session-nowhere'))).toMatchObject({ code: -32002 });
    await expectLogged(h, 'session/resume scripted-session-nowhere: not found');
    // An id that is no plain file name is not looked up outside the state dir.
    expect(await rejection(load(h, '../elsewhere'))).toMatchObject({ code: -32002 });
    // Nothing was created on the way.
    expect(await rejection(h.prompt('scripted-session-nowhere', 'say hi'))).toMatchObject({ code: -32002 });

    // Without --state-dir an unknown session still starts afresh.
    const plain = start(['--load-session']);
    await initialize(plain);
    await load(plain, 'from-elsewhere', '/tmp/afresh');
    await plain.prompt('from-elsewhere', 'history\ncwd');
    expect(plain.messages('from-elsewhere')).toEqual(['[]', '/tmp/afresh']);
  });

  test('--close-session: close cancels the running turn, then a prompt fails; the state file brings it back', async () => {
    const dir = stateDir();
    const h = start(['--close-session', '--load-session', '--state-dir', dir]);
    const sessionId = await h.newSession();
    const turn = h.prompt(sessionId, 'say started\nhang');
    await h.waitForUpdate(isText('started'));
    expect(await h.agent.request(acp.methods.agent.session.close, { sessionId })).toEqual({});
    expect((await turn).stopReason).toBe('cancelled');
    await expectLogged(h, `session/close ${sessionId}`);
    const error = await rejection(h.prompt(sessionId, 'say again'));
    expect(error).toBeInstanceOf(acp.RequestError);
    expect(error).toMatchObject({ code: -32002, data: { sessionId } });
    // Closing it again: the agent answers -32002, which the SDK's client turns into success (as ACP recommends).
    expect(await h.agent.request(acp.methods.agent.session.close, { sessionId })).toEqual({});
    await expectLogged(h, `session/close ${sessionId}: not found`);

    expect(existsSync(join(dir, `${sessionId}.json`))).toBe(true);
    await load(h, sessionId, '/tmp/scripted-agent-test');
    await h.prompt(sessionId, 'history');
    expect(h.messages(sessionId).at(-1)).toBe(JSON.stringify(['say started\nhang']));
  });

  test('--models: config options on session/new, load and resume; set_config_option and the model command', async () => {
    const dir = stateDir();
    const h = start(['--models', 'A,B,C', '--load-session', '--state-dir', dir]);
    await initialize(h);
    const created = await h.agent.request(acp.methods.agent.session.new, { cwd: '/tmp', mcpServers: [] });
    const sessionId = created.sessionId;
    const options = (currentValue: string): acp.SessionConfigOption[] => [
      {
        id: 'model',
        name: 'Model',
        category: 'model',
        type: 'select',
        currentValue,
        options: [
          { value: 'A', name: 'Model A' },
          { value: 'B', name: 'Model B' },
          { value: 'C', name: 'Model C' },
        ],
      },
    ];
    expect(created.configOptions).toEqual(options('A'));
    await h.prompt(sessionId, 'model');
    expect(h.messages(sessionId)).toEqual(['A']);

    const setConfigOption = (configId: string, value: string): Promise<acp.SetSessionConfigOptionResponse> =>
      h.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId, value });
    const set = await setConfigOption('model', 'C');
    expect(set.configOptions).toEqual(options('C'));
    await expectLogged(h, 'set_config_option model=C');
    await h.prompt(sessionId, 'model');
    expect(h.messages(sessionId)).toEqual(['A', 'C']);

    expect(await rejection(setConfigOption('model', 'Z'))).toMatchObject({ code: -32602 });
    expect(await rejection(setConfigOption('effort', 'A'))).toMatchObject({ code: -32602 });
    expect((await load(h, sessionId)).configOptions).toEqual(options('C'));
    await kill(h);

    // The model is part of the stored session.
    const next = start(['--models', 'A,B,C', '--resume-session', '--state-dir', dir]);
    await initialize(next);
    expect((await resume(next, sessionId)).configOptions).toEqual(options('C'));

    // Without --models: no config options, set_config_option is not served, `model` says none.
    const plain = start();
    await initialize(plain);
    const plainSession = await plain.agent.request(acp.methods.agent.session.new, { cwd: '/tmp', mcpServers: [] });
    expect(plainSession.configOptions ?? undefined).toBeUndefined();
    const unserved = plain.agent.request(acp.methods.agent.session.setConfigOption, {
      sessionId: plainSession.sessionId,
      configId: 'model',
      value: 'A',
    });
    expect(await rejection(unserved)).toMatchObject({ code: -32601 });
    await plain.prompt(plainSession.sessionId, 'model');
    expect(plain.messages(plainSession.sessionId)).toEqual(['none']);
  });
});
