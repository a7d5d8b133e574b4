import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../log/logger.js';
import { releaseAnsweredRequests } from './answered-requests.js';

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
  /** A notification of a changed list sent while it was not: sent once it listens. */
  missed: ((server: Server) => Promise<void>) | undefined;
}

/** How an MCP server of the bridge serves its MCP sessions: a low-level Server per session (as the SDK requires), its handlers set. */
export interface McpHttpServerOptions {
  /** Names it in the log. */
  readonly label: string;
  readonly log: Logger;
  readonly limits?: McpSessionLimits;
  readonly serve: () => Server;
}

/**
 * An MCP server of the bridge over streamable HTTP, on a LocalHttpEndpoint: its MCP sessions bounded in number,
 * expired when idle, and told of a changed list even when it changed before they listened.
 */
export class McpHttpServer {
  /** Least recently used first. */
  private readonly sessions = new Map<string, McpSession>();
  private readonly limits: McpSessionLimits;

  private constructor(
    private readonly endpoint: LocalHttpEndpoint,
    private readonly options: McpHttpServerOptions,
  ) {
    this.limits = options.limits ?? DEFAULT_LIMITS;
  }

  static async start(options: McpHttpServerOptions): Promise<McpHttpServer> {
    let server: McpHttpServer | undefined;
    const endpoint = await LocalHttpEndpoint.listenAt('/mcp', (req, res) => void server?.handle(req, res));
    server = new McpHttpServer(endpoint, options);
    return server;
  }

  get url(): string {
    return this.endpoint.url;
  }

  /** The header a client must send; handed to it with the URL, never logged. */
  get authorization(): string {
    return this.endpoint.authorization;
  }

  /** How many MCP sessions are open. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Sends every session a notification (a list changed): now to those that listen, to the others once they do. */
  notifyAll(send: (server: Server) => Promise<void>): void {
    for (const session of this.sessions.values()) {
      if (session.listening) void send(session.server);
      else session.missed = send;
    }
  }

  async close(): Promise<void> {
    const sessions = [...this.sessions.keys()];
    await Promise.all(sessions.map((id) => this.closeSession(id)));
    await this.endpoint.close();
  }

  /**
   * The client opened its notification stream. The MCP SDK drops a notification sent while there is
   * none; a client opens it only after initializing (a relay later still), so a change made just after
   * it connected would never reach it.
   */
  private listening(session: McpSession, res: ServerResponse): void {
    if (res.statusCode !== 200 || res.closed) return;
    session.listening = true;
    res.once('close', () => (session.listening = false));
    const missed = session.missed;
    session.missed = undefined;
    if (missed !== undefined) void missed(session.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
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
      this.options.log.warn(`${this.options.label}: ${req.method} failed: ${String(error)}`);
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'bad request' }));
    }
  }

  /** A new MCP session. */
  private connect(): StreamableHTTPServerTransport {
    const server = this.options.serve();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // An answer goes back as one JSON body, which every MCP client accepts, rather than as an SSE
      // stream of one event: no stream to set up, and one write instead of three (measured: row 7).
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        this.options.log.debug(`${this.options.label}: a client connected`);
        this.sessions.set(id, { server, transport, open: 0, expiry: undefined, listening: false, missed: undefined });
        this.evict();
      },
      onsessionclosed: (id) => {
        this.forgetSession(id);
      },
    });
    releaseAnsweredRequests(transport);
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
    this.options.log.debug(`${this.options.label}: MCP session closed (${this.sessions.size} left)`);
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
}

/**
 * Where an MCP server of the bridge listens: a server on 127.0.0.1 at a random port that answers only
 * requests that carry its random bearer token, name it as their Host and come from no web page (no Origin:
 * MCP requires servers to validate it against DNS rebinding).
 */
class LocalHttpEndpoint {
  private readonly token = randomBytes(32).toString('base64url');
  private readonly hosts: ReadonlySet<string>;

  private constructor(
    readonly http: HttpServer,
    readonly url: string,
    port: number,
  ) {
    this.hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  }

  /** Listens on 127.0.0.1; requests that pass the checks go to `handle`. */
  static async listenAt(path: string, handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<LocalHttpEndpoint> {
    let endpoint: LocalHttpEndpoint | undefined;
    const http = createServer((req, res) => {
      if (endpoint?.admits(req, res) === true) handle(req, res);
    });
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(0, '127.0.0.1', resolve);
    });
    const { port } = http.address() as AddressInfo;
    endpoint = new LocalHttpEndpoint(http, `http://127.0.0.1:${port}${path}`, port);
    return endpoint;
  }

  /** The header a client must send; handed to it with the URL, never logged. */
  get authorization(): string {
    return `Bearer ${this.token}`;
  }

  async close(): Promise<void> {
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  /** Whether the request may be served; if not, it was answered. */
  private admits(req: IncomingMessage, res: ServerResponse): boolean {
    // Checked before the token: a request from a web page (or through a rebound DNS name) is refused outright.
    if (req.headers.origin !== undefined || !this.hosts.has(req.headers.host ?? '')) {
      res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'forbidden origin or host' }));
      return false;
    }
    if (!this.authorized(req.headers.authorization)) {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' }).end(JSON.stringify({ error: 'unauthorized' }));
      return false;
    }
    return true;
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
