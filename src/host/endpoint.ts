/**
 * Where a person's agent host listens and what proves a connection is theirs. On POSIX a Unix domain socket in a
 * folder only its owner can enter (0700, checked to be theirs, not a link); on Windows a named pipe whose name
 * carries the user. Next to it (on Windows in the user's local app data): the token file (0600), which a window
 * reads and sends first; the start lock; the host's log. The address carries the extension's build, so a new build
 * gets a new host and the old one ends with its last window. `SYMPOSIUM_HOST_DIR` (or `--host-dir`) moves it all
 * elsewhere: each test its own host.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readFileSync, renameSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface HostEndpoint {
  /** The private folder: token, lock, log (and on POSIX the socket). */
  readonly folder: string;
  /** What `net.connect` / `listen` take: the socket's path, or `\\.\pipe\…`. */
  readonly address: string;
  readonly tokenPath: string;
  readonly lockPath: string;
  readonly logPath: string;
}

/** The endpoint of `build`'s host for this user; `dir` (else `SYMPOSIUM_HOST_DIR`) overrides the folder. */
export function hostEndpoint(build: string, dir?: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): HostEndpoint {
  const name = build.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40) || 'dev';
  const chosen = dir ?? (env.SYMPOSIUM_HOST_DIR === '' ? undefined : env.SYMPOSIUM_HOST_DIR);
  const user = os.userInfo().username.replace(/[^A-Za-z0-9._-]/g, '_');
  const folder = path.resolve(
    chosen ??
      (platform === 'win32'
        ? path.join(env.LOCALAPPDATA ?? os.tmpdir(), 'symposium', 'host')
        : path.join(env.XDG_RUNTIME_DIR ?? os.tmpdir(), `symposium-${process.getuid?.() ?? user}`)),
  );
  // A folder of its own (a test's) gets a pipe of its own: pipes have no folders.
  const own = chosen === undefined ? '' : `-${createHash('sha256').update(folder).digest('hex').slice(0, 10)}`;
  const address = platform === 'win32' ? `\\\\.\\pipe\\symposium-${user}-${name}${own}` : path.join(folder, `host-${name}.sock`);
  return { folder, address, tokenPath: path.join(folder, `host-${name}.token`), lockPath: path.join(folder, `host-${name}.lock`), logPath: path.join(folder, `host-${name}.log`) };
}

/** Creates the endpoint's folder (0700) or checks that it is this user's own, not a link, and entered by nobody else. */
export function ensurePrivateFolder(folder: string, platform: NodeJS.Platform = process.platform): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  if (platform === 'win32') return;
  const stat = lstatSync(folder);
  if (!stat.isDirectory()) throw new Error(`${folder} is not a folder (a link?): the agent host does not listen there`);
  if (stat.uid !== process.getuid?.()) throw new Error(`${folder} belongs to another user (uid ${stat.uid}): the agent host does not listen there`);
  if ((stat.mode & 0o077) !== 0) chmodSync(folder, 0o700);
}

/** A new token for a host about to listen, written where only this user reads it (0600, replaced whole). */
export function writeToken(endpoint: HostEndpoint): string {
  const token = randomBytes(32).toString('hex');
  const draft = `${endpoint.tokenPath}.${process.pid}`;
  writeFileSync(draft, token, { mode: 0o600, flag: 'w' });
  renameSync(draft, endpoint.tokenPath);
  return token;
}

/** The host's token, as a window reads it; refused when another user could read or write the file. */
export function readToken(endpoint: HostEndpoint, platform: NodeJS.Platform = process.platform): string {
  if (platform !== 'win32') {
    const stat = statSync(endpoint.tokenPath);
    if (stat.uid !== process.getuid?.() || (stat.mode & 0o077) !== 0) throw new Error(`${endpoint.tokenPath} is not private to this user: not sent`);
  }
  return readFileSync(endpoint.tokenPath, 'utf8').trim();
}

/** Whether `given` is the token, compared in constant time. */
export function isToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A lock older than this was left by a start that died holding it. */
const STALE_LOCK_MS = 10_000;
const LOCK_WAIT_MS = 20_000;

/**
 * Runs `start` holding the endpoint's start lock (a folder, which one process at a time can create): two hosts
 * starting at once check and bind one after the other, so the second finds the first listening.
 */
export async function withStartLock<T>(endpoint: HostEndpoint, start: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(endpoint.lockPath, { mode: 0o700 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - lockTime(endpoint.lockPath);
      if (age > STALE_LOCK_MS) rmdirQuietly(endpoint.lockPath);
      else if (Date.now() > deadline) throw new Error(`another start of the agent host holds ${endpoint.lockPath}`);
      else await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  try {
    return await start();
  } finally {
    rmdirQuietly(endpoint.lockPath);
  }
}

/** When the lock was taken; now when it is gone (taken again at once). */
function lockTime(lock: string): number {
  try {
    return statSync(lock).mtimeMs;
  } catch {
    return Date.now();
  }
}

function rmdirQuietly(folder: string): void {
  try {
    rmdirSync(folder);
  } catch {
    // Gone already.
  }
}
