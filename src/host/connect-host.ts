/**
 * How a window reaches its person's agent host: it connects to the endpoint, and where nobody listens it starts
 * the host (detached from the window's process, so that a reload, close or crash of the window does not end it)
 * and connects once it listens. Two windows doing so at once start two hosts, of which one binds (agent-host.ts).
 * The first message is the token and the window's settings.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { LmClient } from '../client/lm-client.js';
import type { WindowSettings } from '../protocol/host-window.js';
import { ensurePrivateFolder, hostEndpoint, readToken } from './endpoint.js';
import { sizeOf } from './log-tail.js';

export interface HostLaunch {
  /** The CLI (`dist/extension/bridge.mjs`, or any build of `src/cli/main.ts`), run with this process's Node. */
  readonly bridgePath: string;
  /** The extension's build: the endpoint's name. */
  readonly build: string;
  /** The endpoint's folder (default: the user's, or `SYMPOSIUM_HOST_DIR`). */
  readonly dir?: string;
  /** `vscodelm` arguments of a host started now: those that are the host's, not a window's (log level, state dir, …). */
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
}

export interface HostConnection {
  readonly client: LmClient;
  readonly socket: net.Socket;
  /** The host's pid. */
  readonly pid: number;
  /** The host was started for this connection. */
  readonly started: boolean;
  /** The host's log, and its size before this window connected (where what concerns it begins). */
  readonly log: { readonly path: string; readonly offset: number };
}

/** How long a host just started may take to listen. */
const START_TIMEOUT_MS = 20_000;

/** How often a window tries again whose connection closed before it joined (a host that was just ending). */
const JOIN_TRIES = 3;

/**
 * Connects this window to the host (started if none listens) and joins it with `window`. A host that is ending
 * (it crashed, its idle time passed) can still accept a connection it then drops: the window tries again, and
 * starts a new host where none listens any more.
 */
export async function connectToHost(launch: HostLaunch, window: WindowSettings, serveWindow: (client: LmClient) => void = () => {}): Promise<HostConnection> {
  for (let tried = 1; ; tried++) {
    try {
      return await connectOnce(launch, window, serveWindow);
    } catch (error) {
      if (!(error instanceof DroppedBeforeJoining) || tried >= JOIN_TRIES) throw error;
    }
  }
}

class DroppedBeforeJoining extends Error {}

/** `serveWindow` registers what the window answers (its handlers) before it joins: the host may ask at once. */
async function connectOnce(launch: HostLaunch, window: WindowSettings, serveWindow: (client: LmClient) => void): Promise<HostConnection> {
  const endpoint = hostEndpoint(launch.build, launch.dir);
  const log = { path: endpoint.logPath, offset: sizeOf(endpoint.logPath) };
  let started = false;
  let socket = await tryConnect(endpoint.address);
  if (socket === undefined) {
    ensurePrivateFolder(endpoint.folder);
    const exited = startHost(launch, endpoint.folder, endpoint.logPath);
    started = true;
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (socket === undefined) {
      const how = exited.how;
      // A host that lost the race to another ends at once (code 0): the other one listens.
      if (how !== undefined && how !== 'exited with code 0') throw new Error(`The Symposium agent host ${how} (its log: ${endpoint.logPath}).`);
      if (Date.now() > deadline) throw new Error(`The Symposium agent host did not listen on ${endpoint.address} within ${START_TIMEOUT_MS / 1000} s (its log: ${endpoint.logPath}).`);
      await new Promise((resolve) => setTimeout(resolve, 30));
      socket = await tryConnect(endpoint.address);
    }
  }
  const client = LmClient.connect(socket);
  serveWindow(client);
  const connected = socket;
  let dropped = false;
  connected.once('close', () => (dropped = true));
  try {
    const { pid } = await client.joinHost({ token: readToken(endpoint), window });
    return { client, socket: connected, pid, started, log };
  } catch (error) {
    connected.destroy();
    throw dropped ? new DroppedBeforeJoining(`the agent host closed the connection before it joined (${error instanceof Error ? error.message : String(error)})`) : error;
  }
}

function tryConnect(address: string): Promise<net.Socket | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(address);
    socket.once('connect', () => {
      socket.off('error', failed);
      resolve(socket);
    });
    const failed = () => {
      socket.destroy();
      resolve(undefined);
    };
    socket.once('error', failed);
  });
}

/** Starts a host detached, its output appended to its log; says how it ended should it end before listening. */
function startHost(launch: HostLaunch, folder: string, logPath: string): { how: string | undefined } {
  const log = openSync(logPath, 'a', 0o600);
  const ended: { how: string | undefined } = { how: undefined };
  try {
    const child = spawn(process.execPath, [launch.bridgePath, 'vscodelm', '--host', launch.build, '--host-dir', folder, ...launch.args], {
      detached: true,
      stdio: ['ignore', log, log],
      cwd: os.homedir(),
      env: { ...(launch.env ?? process.env), ELECTRON_RUN_AS_NODE: '1' },
      windowsHide: true,
    });
    child.once('error', (error) => (ended.how = `could not be started: ${error.message}`));
    child.once('exit', (code, signal) => (ended.how = signal !== null ? `was killed by ${signal}` : `exited with code ${code ?? '?'}`));
    child.unref();
  } finally {
    closeSync(log);
  }
  return ended;
}
