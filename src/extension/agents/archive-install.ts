/**
 * Agents the ACP registry distributes as per-platform downloads (`distribution.binary.<os>-<arch>`: an
 * `archive` URL, the `cmd` inside it, an optional `sha256`): downloaded on first use into a folder of the
 * extension's global storage, one per agent and version, verified against the hash when the registry gives
 * one, extracted, and then run from there like any agent command.
 *
 * The folder appears whole or not at all: the download goes to a temporary file and the extraction to a
 * temporary folder, renamed into place once complete, so a cancelled or failed install leaves nothing that
 * looks installed. Archives: `.tar.gz`/`.tgz` with `tar` (node-tar, npm's own), `.zip` with `yauzl`; both
 * refuse entries that would land outside the folder. Anything else is taken as the program itself (the
 * registry allows raw binaries). No `vscode` here: the adapter shows the progress.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { chmod, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable, Transform } from 'node:stream';
import * as tar from 'tar';
import yauzl from 'yauzl';

/** Where an archive agent comes from and where it goes. */
export interface ArchiveDownload {
  readonly url: string;
  readonly sha256?: string;
  /** The folder it is extracted into (the agent's `cmd` is relative to it). */
  readonly dir: string;
  /** The program, relative to `dir` (`./bin/agent`), as the registry's `cmd` names it. */
  readonly cmd: string;
}

export interface InstallOptions {
  readonly fetch?: (url: string, init: { readonly signal?: AbortSignal }) => Promise<Response>;
  /** Bytes received so far, and the total when the server says it. */
  readonly onProgress?: (received: number, total: number | undefined) => void;
  readonly signal?: AbortSignal;
}

/** The program of an installed archive agent. */
export function archiveProgram(download: Pick<ArchiveDownload, 'dir' | 'cmd'>): string {
  return path.resolve(download.dir, download.cmd);
}

/** Whether the agent's folder is complete (an install renames it into place only once it is). */
export function isInstalled(download: Pick<ArchiveDownload, 'dir'>): boolean {
  return existsSync(download.dir);
}

type ArchiveKind = 'tar.gz' | 'zip' | 'tar.bz2' | 'raw';

export function archiveKind(url: string): ArchiveKind {
  const name = new URL(url).pathname.toLowerCase();
  if (name.endsWith('.tar.gz') || name.endsWith('.tgz')) return 'tar.gz';
  if (name.endsWith('.zip')) return 'zip';
  if (name.endsWith('.tar.bz2') || name.endsWith('.tbz2')) return 'tar.bz2';
  return 'raw';
}

/** Downloads, verifies and extracts the agent into `download.dir`, unless it is there already. */
export async function installArchive(download: ArchiveDownload, options: InstallOptions = {}): Promise<void> {
  if (isInstalled(download)) return;
  const kind = archiveKind(download.url);
  if (kind === 'tar.bz2') throw new Error(`${download.url}: .tar.bz2 archives are not supported yet (only .tar.gz, .tgz, .zip and plain programs)`);
  const parent = path.dirname(download.dir);
  await mkdir(parent, { recursive: true });
  const suffix = randomBytes(6).toString('hex');
  const file = path.join(parent, `.download-${suffix}`);
  const staging = path.join(parent, `.extract-${suffix}`);
  try {
    const digest = await downloadTo(download.url, file, options);
    if (download.sha256 !== undefined && digest !== download.sha256.toLowerCase()) {
      throw new Error(`${download.url} does not match the registry's sha256 (expected ${download.sha256.toLowerCase()}, got ${digest}): not installed`);
    }
    await mkdir(staging);
    if (kind === 'tar.gz') await tar.x({ file, cwd: staging, strict: true });
    else if (kind === 'zip') await extractZip(file, staging);
    else await rename(file, archiveProgram({ dir: staging, cmd: download.cmd }));
    const program = archiveProgram({ dir: staging, cmd: download.cmd });
    const found = await stat(program).catch(() => undefined);
    if (found?.isFile() !== true) throw new Error(`${download.url} has no ${download.cmd}: not installed`);
    if (process.platform !== 'win32') await chmod(program, found.mode | 0o111);
    // Another window may have installed it meanwhile: its copy is as good as ours.
    await rename(staging, download.dir).catch((error: unknown) => {
      if (!isInstalled(download)) throw error;
    });
  } finally {
    await rm(file, { force: true });
    await rm(staging, { recursive: true, force: true });
  }
}

/** Streams the URL into `file`; resolves with the content's sha256 (hex). */
async function downloadTo(url: string, file: string, options: InstallOptions): Promise<string> {
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, options.signal === undefined ? {} : { signal: options.signal });
  } catch (error) {
    if (options.signal?.aborted === true) throw new Error(`the download of ${url} was cancelled`);
    throw new Error(`could not download ${url}: ${describe(error)}`);
  }
  if (!response.ok || response.body === null) {
    await response.body?.cancel();
    throw new Error(`could not download ${url}: HTTP ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`);
  }
  const total = Number(response.headers.get('content-length') ?? NaN);
  const hash = createHash('sha256');
  let received = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      received += chunk.length;
      options.onProgress?.(received, Number.isFinite(total) ? total : undefined);
      done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>), count, createWriteStream(file), options.signal === undefined ? {} : { signal: options.signal });
  } catch (error) {
    if (options.signal?.aborted === true) throw new Error(`the download of ${url} was cancelled`);
    throw new Error(`could not download ${url}: ${describe(error)}`);
  }
  return hash.digest('hex');
}

/** Extracts every entry of a zip under `dir`, refusing any that would land outside it. */
async function extractZip(file: string, dir: string): Promise<void> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.open(file, { lazyEntries: true, strictFileNames: true }, (error, opened) => (error ? reject(error) : resolve(opened))));
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', resolve);
      zip.on('entry', (entry: yauzl.Entry) => {
        const target = path.resolve(dir, entry.fileName);
        if (!target.startsWith(dir + path.sep)) return reject(new Error(`the archive's entry ${entry.fileName} would land outside its folder`));
        const unixMode = (entry.externalFileAttributes >>> 16) & 0o7777;
        if (entry.fileName.endsWith('/')) {
          mkdir(target, { recursive: true }).then(() => zip.readEntry(), reject);
          return undefined;
        }
        zip.openReadStream(entry, (error, stream) => {
          if (error) return reject(error);
          mkdir(path.dirname(target), { recursive: true })
            .then(() => pipeline(stream, createWriteStream(target, unixMode === 0 ? {} : { mode: unixMode })))
            .then(() => zip.readEntry(), reject);
          return undefined;
        });
        return undefined;
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

function describe(error: unknown): string {
  const { message, cause } = (typeof error === 'object' && error !== null ? error : {}) as { message?: unknown; cause?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  const code = (typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined) as unknown;
  return typeof code === 'string' ? `${text}: ${code}` : text;
}
