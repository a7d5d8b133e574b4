/**
 * `symposium.registry` pointing at a URL (src/extension/agents/user-registry.ts), against a real HTTP server on
 * 127.0.0.1: a newer registry adds its agents (the pinned built-ins stay as they are), and every way the fetch
 * can fail (HTTP error, no answer in time, not JSON, nothing listening) leaves the shipped catalogue and says why.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BUILTIN_AGENTS } from '../../src/extension/agents/agent-catalog.js';
import { fetchRegistry, isRegistryUrl, UserRegistry } from '../../src/extension/agents/user-registry.js';

const REGISTRY = {
  version: '1.0.0',
  agents: [
    { id: 'newer-agent', name: 'Newer agent', version: '3.1.0', description: 'Only in the newer registry', distribution: { npx: { package: 'newer-agent@3.1.0' } } },
    // A built-in at another version: the pinned one stays.
    { id: 'claude-code', name: 'Claude Code (newer)', version: '9.9.9', description: 'A newer Claude', distribution: { npx: { package: '@agentclientprotocol/claude-agent-acp@9.9.9' } } },
  ],
};

let server: Server;
let base: string;
/** Requests that wait forever (the timeout case) are ended when the test file ends. */
const hanging: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/registry.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(REGISTRY));
    } else if (req.url === '/not-json') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>a captive portal</html>');
    } else if (req.url === '/slow') {
      hanging.push(res);
    } else {
      res.writeHead(404, 'Not Found');
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

test('a URL is told from a file', () => {
  expect(isRegistryUrl('https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json')).toBe(true);
  expect(isRegistryUrl(' http://127.0.0.1:8080/r.json')).toBe(true);
  expect(isRegistryUrl('~/registry.json')).toBe(false);
  expect(isRegistryUrl('C:\\Users\\me\\registry.json')).toBe(false);
});

test('a registry URL adds its agents; the pinned built-ins stay the default', async () => {
  const { entries, problems } = await fetchRegistry(`${base}/registry.json`, 'linux-x86_64');
  expect(problems).toEqual([]);
  expect(entries.map((e) => e.id)).toEqual(['newer-agent', 'claude-code']);
  const logged: string[] = [];
  let changes = 0;
  const registry = new UserRegistry({
    builtin: BUILTIN_AGENTS,
    target: 'linux-x86_64',
    log: { info: (m) => logged.push(m), warn: (m) => logged.push(`warn: ${m}`) },
    readFile: () => {
      throw new Error('no files here');
    },
    mtime: () => undefined,
    expandHome: (f) => f,
    onChange: () => changes++,
  });
  // Until the registry has answered, the shipped catalogue.
  expect(registry.catalog(`${base}/registry.json`)).toBe(BUILTIN_AGENTS);
  await registry.pending;
  expect(changes).toBe(1);
  const catalog = registry.catalog(`${base}/registry.json`);
  expect(catalog.find((e) => e.id === 'newer-agent')?.distribution).toEqual({ kind: 'npx', package: 'newer-agent', version: '3.1.0', args: [] });
  expect(catalog.find((e) => e.id === 'claude-code')).toBe(BUILTIN_AGENTS.find((e) => e.id === 'claude-code'));
  expect(catalog).toHaveLength(BUILTIN_AGENTS.length + 1);
  // Fetched once per value of the setting.
  registry.catalog(`${base}/registry.json`);
  expect(logged.filter((l) => l.startsWith('symposium.registry: fetching'))).toHaveLength(1);
  expect(logged).toContain(`symposium.registry: 2 agents read from ${base}/registry.json`);
});

test('an HTTP error leaves the shipped catalogue and says so', async () => {
  const { entries, problems } = await fetchRegistry(`${base}/missing.json`, 'linux-x86_64');
  expect(entries).toEqual([]);
  expect(problems).toEqual([`symposium.registry: could not read ${base}/missing.json: HTTP 404 Not Found; the shipped catalogue is used`]);
});

test('a registry that does not answer in time leaves the shipped catalogue and says so', async () => {
  const { entries, problems } = await fetchRegistry(`${base}/slow`, 'linux-x86_64', { timeoutMs: 300 });
  expect(entries).toEqual([]);
  expect(problems).toEqual([`symposium.registry: could not read ${base}/slow: no answer within 0.3 s; the shipped catalogue is used`]);
});

test('an answer that is not JSON leaves the shipped catalogue and says so', async () => {
  const { problems } = await fetchRegistry(`${base}/not-json`, 'linux-x86_64');
  expect(problems).toHaveLength(1);
  expect(problems[0]).toMatch(new RegExp(`^symposium.registry: could not read ${base}/not-json: it is not JSON \\(.+\\); the shipped catalogue is used$`));
});

test('nothing listening: the error names the cause', async () => {
  // A port that was just free: nothing listens there.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const { problems } = await fetchRegistry(`http://127.0.0.1:${port}/registry.json`, 'linux-x86_64');
  expect(problems).toEqual([`symposium.registry: could not read http://127.0.0.1:${port}/registry.json: fetch failed: ECONNREFUSED; the shipped catalogue is used`]);
});

test('a failed fetch is logged, and the catalogue stays the shipped one', async () => {
  const warnings: string[] = [];
  let changes = 0;
  const registry = new UserRegistry({
    builtin: BUILTIN_AGENTS,
    target: 'linux-x86_64',
    log: { info: () => {}, warn: (m) => warnings.push(m) },
    readFile: () => '',
    mtime: () => undefined,
    expandHome: (f) => f,
    onChange: () => changes++,
  });
  registry.catalog(`${base}/missing.json`);
  await registry.pending;
  expect(registry.catalog(`${base}/missing.json`)).toEqual(BUILTIN_AGENTS);
  expect(changes).toBe(0);
  expect(warnings).toEqual([`symposium.registry: could not read ${base}/missing.json: HTTP 404 Not Found; the shipped catalogue is used`]);
});
