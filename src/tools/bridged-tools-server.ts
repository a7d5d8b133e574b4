import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, isInitializeRequest, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../log/logger.js';
import type { ToolDefinition } from '../protocol/messages.js';
import { sameJson } from '../protocol/canonical-json.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../protocol/bounded-depth.js';

/**
 * The name under which the bridged tools reach the agent (Claude Code calls them
 * `mcp__vscode-tools-<id>__<tool>`): unique to this bridge process, so that no other MCP server and
 * no tool of the agent's own can pass for one of them when a permission request is matched
 * (bridged-permission.ts).
 */
export const BRIDGED_TOOLS_SERVER_NAME = `vscode-tools-${randomBytes(3).toString('hex')}`;

/** An agent's call of a bridged tool, to be answered with the consumer's result. */
export interface BridgedCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  /** Aborts when the agent gives up on the call. */
  readonly signal: AbortSignal;
}

/** Bounds on the MCP sessions of one server: an agent needs one or two; one that reconnects without end gets no more. */
export interface McpSessionLimits {
  /** At most this many; a new one closes the least recently used that has no request open. */
  readonly maxSessions: number;
  /** A session with no request open for this long is closed (its client re-initializes: MCP's 404 rule). */
  readonly idleMs: number;
}

const DEFAULT_LIMITS: McpSessionLimits = { maxSessions: 16, idleMs: 30 * 60 * 1000 };

interface McpSession {
  readonly server: Server;
  readonly transport: StreamableHTTPServerTransport;
  /** Requests (and SSE streams) still open. */
  open: number;
  expiry: NodeJS.Timeout | undefined;
  /** The client's notification stream (its GET) is open: a notification sent now reaches it. */
  listening: boolean;
  /** The tools changed while it was not: it is told once it listens. */
  missedChange: boolean;
}

/**
 * The synthetic MCP server through which the tools a VS Code consumer offers reach the agent: one per
 * conversation, on 127.0.0.1 at a random port, answering only requests that carry its random bearer
 * token, name it as their Host and come from no web page (no Origin: MCP requires servers to validate it
 * against DNS rebinding). Tool calls go to `onCall`; the tool list can change between requests and
 * connected agents are told (`notifications/tools/list_changed`). Its MCP sessions are bounded in number
 * and expire when idle.
 */
export class BridgedToolsServer {
  private readonly token = randomBytes(32).toString('base64url');
  /** Least recently used first. */
  private readonly sessions = new Map<string, McpSession>();
  private readonly hosts: ReadonlySet<string>;
  private tools: Tool[] = [];
  /** What `tools` was made from, to know a list named again by its id (the same objects) at a glance. */
  private definitions: readonly ToolDefinition[] = [];

  private constructor(
    private readonly http: HttpServer,
    readonly url: string,
    private readonly onCall: (call: BridgedCall) => Promise<CallToolResult>,
    private readonly log: Logger,
    port: number,
    private readonly limits: McpSessionLimits,
  ) {
    this.hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  }

  static async start(onCall: (call: BridgedCall) => Promise<CallToolResult>, log: Logger, limits: McpSessionLimits = DEFAULT_LIMITS): Promise<BridgedToolsServer> {
    let server: BridgedToolsServer | undefined;
    const http = createServer((req, res) => void server?.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(0, '127.0.0.1', resolve);
    });
    const { port } = http.address() as AddressInfo;
    server = new BridgedToolsServer(http, `http://127.0.0.1:${port}/mcp`, onCall, log, port, limits);
    return server;
  }

  /** The header the agent must send; handed to it in `session/new`, never logged. */
  get authorization(): string {
    return `Bearer ${this.token}`;
  }

  get toolNames(): readonly string[] {
    return this.tools.map((t) => t.name);
  }

  /**
   * Offers `tools` from now on; connected agents hear of it when anything about them changed. Every request
   * offers them again (Copilot's agent mode: 40 tools, tens of KB of schemas), nearly always the same,
   * and mostly as the very objects of the last request (a list named by its `toolListId`): those are not
   * converted and compared again.
   */
  setTools(tools: readonly ToolDefinition[]): void {
    if (tools.length === this.definitions.length && tools.every((tool, i) => tool === this.definitions[i])) return;
    const next = tools.map(toMcpTool);
    const changed = !sameJson(next, this.tools);
    // Taken even when equal: it shares its schemas with `definitions`, so one copy of them is kept, not two.
    this.definitions = tools;
    this.tools = next;
    if (!changed) return;
    for (const session of this.sessions.values()) {
      if (session.listening) this.announceToolsChanged(session);
      else session.missedChange = true;
    }
  }

  private announceToolsChanged(session: McpSession): void {
    session.missedChange = false;
    session.server.sendToolListChanged().catch((error: unknown) => this.log.debug(`tools/list_changed not sent: ${String(error)}`));
  }

  /**
   * The client opened its notification stream. The MCP SDK drops a notification sent while there is
   * none; a client opens it only after initializing (a relay later still), so a change made just after
   * an agent connected would never reach it.
   */
  private listening(session: McpSession, res: ServerResponse): void {
    if (res.statusCode !== 200 || res.closed) return;
    session.listening = true;
    res.once('close', () => (session.listening = false));
    if (session.missedChange) this.announceToolsChanged(session);
  }

  /** How many MCP sessions are open. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  async close(): Promise<void> {
    const sessions = [...this.sessions.keys()];
    await Promise.all(sessions.map((id) => this.closeSession(id)));
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Checked before the token: a request from a web page (or through a rebound DNS name) is refused outright.
    if (req.headers.origin !== undefined || !this.hosts.has(req.headers.host ?? '')) {
      res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'forbidden origin or host' }));
      return;
    }
    if (!this.authorized(req.headers.authorization)) {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' }).end(JSON.stringify({ error: 'unauthorized' }));
      return;
    }
    try {
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      const sessionId = req.headers['mcp-session-id'];
      const existing = typeof sessionId === 'string' ? this.sessions.get(sessionId) : undefined;
      if (typeof sessionId === 'string' && existing !== undefined) {
        this.inUse(sessionId, existing, res);
        // A GET is the notification stream: its request lasts as long as the stream.
        if (req.method === 'GET') void headersSent(res).then(() => this.listening(existing, res));
        return await existing.transport.handleRequest(req, res, body);
      }
      if (req.method === 'POST' && isInitializeRequest(body)) {
        const transport = this.connect();
        await transport.handleRequest(req, res, body);
        const id = transport.sessionId;
        const opened = id === undefined ? undefined : this.sessions.get(id);
        if (id !== undefined && opened !== undefined) this.inUse(id, opened, res);
        return;
      }
      // MCP: a session the server no longer has is answered 404, and the client starts a new one.
      res.writeHead(sessionId === undefined ? 400 : 404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'no such MCP session' }));
    } catch (error) {
      this.log.warn(`bridged tools: ${req.method} failed: ${String(error)}`);
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'bad request' }));
    }
  }

  /** A new MCP session: one low-level Server per session, as the SDK requires. */
  private connect(): StreamableHTTPServerTransport {
    const server = new Server({ name: BRIDGED_TOOLS_SERVER_NAME, version: '0.1.0' }, { capabilities: { tools: { listChanged: true } } });
    server.setRequestHandler(ListToolsRequestSchema, () => {
      this.log.debug(`bridged tools: the agent listed ${this.tools.length} tools`);
      return { tools: this.tools };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const { name, arguments: args = {} } = request.params;
      if (!this.tools.some((t) => t.name === name)) return { content: [{ type: 'text', text: `There is no tool named ${name}.` }], isError: true };
      // VS Code would hand them back in the next request, which the bridge would refuse: the call never leaves.
      if (nestedDeeperThan(args, MAX_JSON_DEPTH)) return { content: [{ type: 'text', text: `The arguments of ${name} are nested deeper than ${MAX_JSON_DEPTH} levels, which VS Code tools cannot take.` }], isError: true };
      return this.onCall({ name, arguments: args, signal: extra.signal });
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // A call's answer goes back as one JSON body, which every MCP client accepts, rather than as an SSE
      // stream of one event: no stream to set up, and one write instead of three (measured: row 7).
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        this.log.debug('bridged tools: an agent connected');
        this.sessions.set(id, { server, transport, open: 0, expiry: undefined, listening: false, missedChange: false });
        this.evict();
      },
      onsessionclosed: (id) => {
        this.forgetSession(id);
      },
    });
    void server.connect(transport);
    return transport;
  }

  /** A request of session `id` runs until `res` closes: the session is the most recently used, and not idle. */
  private inUse(id: string, session: McpSession, res: ServerResponse): void {
    this.sessions.delete(id);
    this.sessions.set(id, session);
    clearTimeout(session.expiry);
    session.open++;
    const done = () => {
      if (--session.open > 0 || this.sessions.get(id) !== session) return;
      session.expiry = setTimeout(() => void this.closeSession(id), this.limits.idleMs).unref();
    };
    if (res.closed) done();
    else res.once('close', done);
  }

  /** Over the bound: the least recently used sessions with nothing open are closed. */
  private evict(): void {
    for (const [id, session] of this.sessions) {
      if (this.sessions.size <= this.limits.maxSessions) return;
      if (session.open === 0) void this.closeSession(id);
    }
  }

  private async closeSession(id: string): Promise<void> {
    const session = this.forgetSession(id);
    if (session === undefined) return;
    this.log.debug(`bridged tools: MCP session closed (${this.sessions.size} left)`);
    await session.transport.close().catch(() => {});
    await session.server.close().catch(() => {});
  }

  private forgetSession(id: string): McpSession | undefined {
    const session = this.sessions.get(id);
    if (session === undefined) return undefined;
    clearTimeout(session.expiry);
    this.sessions.delete(id);
    return session;
  }

  private authorized(header: string | undefined): boolean {
    const expected = Buffer.from(this.authorization);
    const given = Buffer.from(header ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** Resolves once the response's headers went out (or it closed, or a second passed): a stream's start. */
async function headersSent(res: ServerResponse): Promise<void> {
  for (let waited = 0; !res.headersSent && !res.closed && waited < 1000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** MCP requires an object schema; VS Code tools may come with none. */
function toMcpTool(tool: ToolDefinition): Tool {
  const schema = tool.inputSchema;
  const inputSchema =
    typeof schema === 'object' && schema !== null && (schema as { type?: unknown }).type === 'object'
      ? (schema as Tool['inputSchema'])
      : { type: 'object' as const, properties: {} };
  return { name: tool.name, description: tool.description, inputSchema };
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}
