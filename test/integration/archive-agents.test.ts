/**
 * Agents the ACP registry distributes as per-platform downloads (src/extension/agents/archive-install.ts): a real
 * .tar.gz and a real .zip of a small scripted agent (a launcher script around the scripted ACP agent),
 * served by an HTTP server on 127.0.0.1, are downloaded with progress, verified against the registry's
 * sha256, extracted, and answer through the real bridge like any agent command. A wrong hash, an HTTP
 * error and a cancelled download install nothing.
 */
import { createHash } from 'node:crypto';
import { chmodSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import yazl from 'yazl';
import { resolveBuiltin } from '../../src/extension/agents/agent-catalog.js';
import { archiveKind, archiveProgram, installArchive, isInstalled, type ArchiveDownload } from '../../src/extension/agents/archive-install.js';
import { archiveDirUnder } from '../../src/extension/agents/archive-progress.js';
import { catalogOfRegistry, platformTarget } from '../../src/extension/agents/registry.js';
import type { AgentDefinition } from '../../src/protocol/messages.js';
import { AgentBridge, SCRIPTED_AGENT, user } from './agent-bridge.js';

const TARGET = platformTarget(process.platform, process.arch)!;
let work: string;
let server: Server;
let base: string;
const archives = new Map<string, Buffer>();
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'symposium-archive-'));
  // The agent as its release would ship it: bin/agent, a launcher of the scripted ACP agent.
  const release = path.join(work, 'release');
  mkdirSync(path.join(release, 'bin'), { recursive: true });
  const launcher = path.join(release, 'bin', 'agent');
  writeFileSync(launcher, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(SCRIPTED_AGENT)} "$@"\n`);
  chmodSync(launcher, 0o755);
  const tgz = path.join(work, 'agent.tar.gz');
  await tar.c({ gzip: true, file: tgz, cwd: release }, ['bin']);
  archives.set('/agent.tar.gz', readFileSync(tgz));
  const zip = new yazl.ZipFile();
  zip.addFile(launcher, 'bin/agent', { mode: 0o100755 });
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(path.join(work, 'agent.zip')));
  archives.set('/agent.zip', readFileSync(path.join(work, 'agent.zip')));
  server = createServer((req, res) => {
    const body = archives.get(req.url ?? '');
    if (body === undefined) {
      res.writeHead(404, 'Not Found').end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
    // In two halves, so that progress is reported more than once.
    res.write(body.subarray(0, body.length >> 1));
    setTimeout(() => res.end(body.subarray(body.length >> 1)), 20);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(work, { recursive: true, force: true });
});

/** The registry's entry for an agent downloaded from `file`, for this platform. */
function registryEntry(id: string, file: string, hash?: string) {
  const target = { archive: `${base}${file}`, cmd: './bin/agent', args: ['--models', 'packed'], ...(hash === undefined ? {} : { sha256: hash }) };
  const { entries, problems } = catalogOfRegistry({ version: '1.0.0', agents: [{ id, name: `Packed ${id}`, version: '2.0.0', description: 'Downloaded', distribution: { binary: { [TARGET]: target } } }] }, TARGET);
  expect(problems).toEqual([]);
  return entries[0]!;
}

/** What the extension does with a configured archive agent: resolve it into the storage folder. */
function resolved(id: string, file: string, hash?: string) {
  const storage = path.join(work, `storage-${id}`);
  const entry = registryEntry(id, file, hash);
  const resolution = resolveBuiltin(entry, {}, { which: () => undefined, env: {}, archiveDir: archiveDirUnder(storage) });
  if (!resolution.ok || resolution.download === undefined) throw new Error(`not resolved as a download: ${JSON.stringify(resolution)}`);
  return { storage, resolution, download: resolution.download };
}

async function answers(program: string, args: readonly string[]): Promise<string> {
  const bridge = new AgentBridge();
  try {
    const agent: AgentDefinition = { mcp_server: { name: 'Packed', command: program, args: [...args], env: [] } };
    const parts = await bridge.chat([user('say hello from the archive')], agent);
    return parts.map((p) => (p.type === 'text' ? p.value : '')).join('');
  } finally {
    await bridge.close();
  }
}

test.each([
  ['tar.gz', '/agent.tar.gz'],
  ['zip', '/agent.zip'],
])('a %s download is verified, extracted into the storage folder, and answers through the bridge', async (kind, file) => {
  const { storage, resolution, download } = resolved(kind.replace('.', '-'), file, sha256(archives.get(file)!));
  expect(archiveKind(download.url)).toBe(kind);
  // Available before it is installed, like an npx agent: its command is the program in the storage folder.
  expect(download.dir.startsWith(path.join(storage, 'agents'))).toBe(true);
  expect(resolution.launch.command).toBe(archiveProgram(download));
  expect(isInstalled(download)).toBe(false);
  const progress: [number, number | undefined][] = [];
  await installArchive(download, { onProgress: (received, total) => progress.push([received, total]) });
  expect(progress.length).toBeGreaterThan(1);
  expect(progress.at(-1)).toEqual([archives.get(file)!.length, archives.get(file)!.length]);
  expect(isInstalled(download)).toBe(true);
  expect(statSync(resolution.launch.command).mode & 0o111).not.toBe(0);
  // Nothing but the agent's folder is left beside it (no temporary download or extraction).
  expect(readdirSync(path.dirname(download.dir))).toEqual([path.basename(download.dir)]);
  expect(await answers(resolution.launch.command, resolution.launch.args)).toBe('hello from the archive');
  // Installed once: a second install does not download again.
  await installArchive(download, { fetch: () => Promise.reject(new Error('downloaded twice')) });
});

test('a download that does not match the registry\'s sha256 is not installed', async () => {
  const { download } = resolved('bad-hash', '/agent.tar.gz', 'ab'.repeat(32));
  await expect(installArchive(download)).rejects.toThrow(
    `${base}/agent.tar.gz does not match the registry's sha256 (expected ${'ab'.repeat(32)}, got ${sha256(archives.get('/agent.tar.gz')!)}): not installed`,
  );
  expect(existsSync(download.dir)).toBe(false);
  expect(readdirSync(path.dirname(download.dir))).toEqual([]);
});

test('an HTTP error says so, naming the URL', async () => {
  const { download } = resolved('missing', '/gone.tar.gz');
  await expect(installArchive(download)).rejects.toThrow(`could not download ${base}/gone.tar.gz: HTTP 404 Not Found`);
  expect(isInstalled(download)).toBe(false);
});

test('a cancelled download installs nothing', async () => {
  const { download } = resolved('cancelled', '/agent.zip');
  const controller = new AbortController();
  const installing = installArchive(download, { signal: controller.signal, onProgress: () => controller.abort() });
  await expect(installing).rejects.toThrow(`the download of ${base}/agent.zip was cancelled`);
  expect(isInstalled(download)).toBe(false);
  expect(readdirSync(path.dirname(download.dir))).toEqual([]);
});

test('an archive without the registry\'s cmd is not installed', async () => {
  const entry: ArchiveDownload = { url: `${base}/agent.zip`, dir: path.join(work, 'no-cmd', 'agent'), cmd: './bin/other' };
  await expect(installArchive(entry)).rejects.toThrow(`${base}/agent.zip has no ./bin/other: not installed`);
  expect(isInstalled(entry)).toBe(false);
});
