/**
 * The tool server (issue 17, points 13 and 14): the real BridgedToolsServer on 127.0.0.1, spoken to over
 * real HTTP. A request naming another Origin or Host is refused, token or not (MCP requires servers to
 * validate Origin, against DNS rebinding); abandoned MCP sessions are bounded in number and expire.
 */
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createLogger } from '../../src/log/logger.js';
import { BridgedToolsServer, type McpSessionLimits } from '../../src/tools/bridged-tools-server.js';
import type { ToolDefinition } from '../../src/protocol/messages.js';

const log = createLogger('error', () => {});
let server: BridgedToolsServer;
afterEach(() => server.close());

const start = (limits?: McpSessionLimits) => BridgedToolsServer.start(() => Promise.resolve({ content: [] }), log, limits);

interface Reply {
  readonly status: number;
  readonly sessionId: string | undefined;
}

/** A raw HTTP POST to the server's URL with the headers given (Host included), read to its end. */
function post(url: string, headers: Record<string, string>, body: unknown): Promise<Reply> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: target.port, path: target.pathname, method: 'POST', headers: { host: target.host, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        res.resume();
        res.once('end', () => resolve({ status: res.statusCode ?? 0, sessionId: res.headers['mcp-session-id'] as string | undefined }));
      },
    );
    req.once('error', reject);
    req.end(JSON.stringify(body));
  });
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } };
const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

describe('Origin and Host', () => {
  test('a request with the token from a foreign Origin is refused 403', async () => {
    server = await start();
    expect((await post(server.url, { authorization: server.authorization, origin: 'http://evil.example' }, initialize)).status).toBe(403);
    expect((await post(server.url, { origin: 'http://evil.example' }, initialize)).status).toBe(403);
  });

  test('a request with the token naming a foreign Host is refused 403', async () => {
    server = await start();
    expect((await post(server.url, { authorization: server.authorization, host: 'evil.example' }, initialize)).status).toBe(403);
    expect((await post(server.url, { host: 'evil.example' }, initialize)).status).toBe(403);
  });

  test('the agent’s own request (token, its Host, no Origin) is served', async () => {
    server = await start();
    const init = await post(server.url, { authorization: server.authorization }, initialize);
    expect(init.status).toBe(200);
    const listed = await post(server.url, { authorization: server.authorization, 'mcp-session-id': init.sessionId!, 'mcp-protocol-version': '2025-06-18' }, listTools);
    expect(listed.status).toBe(200);
  });
});

describe('abandoned MCP sessions', () => {
  test('3,000 initializes leave at most 16 sessions; the oldest are gone (404), the newest works', async () => {
    server = await start();
    const ids: string[] = [];
    for (let i = 0; i < 3000; i++) ids.push((await post(server.url, { authorization: server.authorization }, initialize)).sessionId!);
    expect(server.sessionCount).toBeLessThanOrEqual(16);
    const headers = (id: string) => ({ authorization: server.authorization, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' });
    expect((await post(server.url, headers(ids[0]!), listTools)).status).toBe(404);
    expect((await post(server.url, headers(ids.at(-1)!), listTools)).status).toBe(200);
  }, 60000);

  test('a session left idle expires', async () => {
    server = await start({ maxSessions: 16, idleMs: 200 });
    const init = await post(server.url, { authorization: server.authorization }, initialize);
    expect(server.sessionCount).toBe(1);
    for (let waited = 0; waited < 5000 && server.sessionCount > 0; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.sessionCount).toBe(0);
    expect((await post(server.url, { authorization: server.authorization, 'mcp-session-id': init.sessionId!, 'mcp-protocol-version': '2025-06-18' }, listTools)).status).toBe(404);
  });
});

describe('tool list changes', () => {
  /** Opens the session's notification stream (its GET) and resolves with the first SSE `data:` it carries. */
  function firstNotification(url: string, sessionId: string): Promise<unknown> {
    const target = new URL(url);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: target.port,
          path: target.pathname,
          method: 'GET',
          headers: { host: target.host, accept: 'text/event-stream', authorization: server.authorization, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
            const data = /^data: (.*)$/m.exec(text);
            if (data === null) return;
            resolve(JSON.parse(data[1]));
            req.destroy();
          });
        },
      );
      req.once('error', reject);
      req.end();
    });
  }

  test('a change made before the client opened its notification stream reaches it once it does', async () => {
    server = await start();
    server.setTools([{ name: 'a', description: 'a', inputSchema: { type: 'object', properties: {} } }]);
    const headers = (id: string) => ({ authorization: server.authorization, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' });
    const init = await post(server.url, { authorization: server.authorization }, initialize);
    expect((await post(server.url, headers(init.sessionId!), { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    // The tools change between the client's initialize and its GET (a relay opens it later still).
    server.setTools([{ name: 'b', description: 'b', inputSchema: { type: 'object', properties: {} } }]);
    expect(await firstNotification(server.url, init.sessionId!)).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
  });

  test('what the agent lists follows the offers: the same objects again, an equal copy, a change, and back', async () => {
    server = await start();
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: server.authorization } } }));
    try {
      const tool = (name: string, description: string): ToolDefinition => ({ name, description, inputSchema: { type: 'object', properties: { q: { type: 'string' } } } });
      const listed = async () => (await client.listTools()).tools.map((t) => [t.name, t.description]);
      const first = [tool('read', 'reads'), tool('grep', 'searches')];
      server.setTools(first);
      expect(await listed()).toEqual([['read', 'reads'], ['grep', 'searches']]);
      server.setTools(first);
      server.setTools(first.map((t) => ({ ...t })));
      expect(await listed()).toEqual([['read', 'reads'], ['grep', 'searches']]);
      expect(server.toolNames).toEqual(['read', 'grep']);
      server.setTools([first[0]!, tool('grep', 'searches the workspace')]);
      expect(await listed()).toEqual([['read', 'reads'], ['grep', 'searches the workspace']]);
      server.setTools([first[1]!]);
      expect(server.toolNames).toEqual(['grep']);
      server.setTools(first);
      expect(await listed()).toEqual([['read', 'reads'], ['grep', 'searches']]);
      expect(server.toolNames).toEqual(['read', 'grep']);
    } finally {
      await client.close();
    }
  });
});
