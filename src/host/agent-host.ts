/**
 * The agent host: one `symposium-lm vscodelm --host` per person, machine and build, serving every window over its
 * endpoint (endpoint.ts). Whichever window needs it first starts it (connect-host.ts); two starting at once end
 * with one, since each binds only under the start lock after finding nobody listening. A connection whose first
 * message is not `symposium/window` with the token is closed unread; one that is joins the workspace of its
 * window's settings (created on first use): windows on equal settings share its agents and conversations, and a
 * reloaded window finds its conversations still in memory, their turns run on meanwhile. The host ends once no
 * window has been connected for `idleMs` and no turn runs.
 */
import { existsSync, rmSync } from 'node:fs';
import net from 'node:net';
import { isRight } from 'fp-ts/lib/Either.js';
import type { Logger } from '../log/logger.js';
import { contextPolicyNamed } from '../history/context-policy.js';
import { canonicalJson } from '../protocol/canonical-json.js';
import { JoinHostParams, type JoinHostResult, type WindowSettings } from '../protocol/host-window.js';
import { Methods } from '../protocol/methods.js';
import { dispatchInMicrotasks } from '../server/dispatch-in-microtasks.js';
import { RequestIdTracker } from '../server/request-ids.js';
import { messageConnection, sharedState } from '../server/vscodelm.js';
import { WorkspaceBridge, type WorkspaceOptions } from '../server/workspace-bridge.js';
import { ensurePrivateFolder, hostEndpoint, isToken, withStartLock, writeToken, type HostEndpoint } from './endpoint.js';
import { peekFirstMessage } from './first-message.js';
import { IdleEnd } from './idle-end.js';
import { StalledWindow, WINDOW_STALL_LIMITS } from './stalled-window.js';

export interface AgentHostOptions {
  /** The extension's build: part of the endpoint's name. */
  readonly build: string;
  /** The endpoint's folder (default: the user's, see endpoint.ts). */
  readonly dir?: string;
  /** End once no window has been connected this long and no turn runs. */
  readonly idleMs: number;
  readonly maxMessageBytes: number;
  readonly stateDir: string | undefined;
  /** What a window's settings do not say: the host's defaults. */
  readonly workspace: WorkspaceOptions;
  readonly log: Logger;
}

/** Serves until idle; resolves then (or at once, false, when another host of this build already listens). */
export async function runAgentHost(options: AgentHostOptions): Promise<boolean> {
  const { log } = options;
  const endpoint = hostEndpoint(options.build, options.dir);
  ensurePrivateFolder(endpoint.folder);
  const bound = await withStartLock(endpoint, () => bind(endpoint));
  if (bound === undefined) {
    log.info(`an agent host already listens on ${endpoint.address}: this one ends`);
    return false;
  }
  const { server, token } = bound;
  dispatchInMicrotasks();
  const shared = sharedState(options.stateDir, log);
  const workspaces = new Map<string, WorkspaceBridge>();
  const connections = new Set<net.Socket>();
  const idle = new IdleEnd(options.idleMs, () => connections.size > 0 || [...workspaces.values()].some((workspace) => workspace.inFlight > 0));
  log.info(`agent host (pid ${process.pid}) listens on ${endpoint.address}; it ends ${options.idleMs} ms after its last window, once no turn runs`);

  const workspaceOf = (window: WindowSettings): WorkspaceBridge => {
    const key = canonicalJson(window);
    let workspace = workspaces.get(key);
    if (workspace === undefined) {
      workspace = new WorkspaceBridge(windowOptions(options.workspace, window), shared);
      workspaces.set(key, workspace);
      log.info(`workspace ${workspaces.size}: ${window.cwd}${(window.additionalDirs ?? []).map((dir) => ` + ${dir}`).join('')}`);
    }
    return workspace;
  };

  server.on('connection', (socket) => {
    socket.on('error', (error) => log.debug(`a window's connection: ${error.message}`));
    void peekFirstMessage(socket).then((first) => {
      const hello = JoinHostParams.decode((first as { params?: unknown } | undefined)?.params);
      const refused =
        first === undefined ? 'no frame of a message came first' : (first as { method?: unknown }).method !== Methods.joinHost || !isRight(hello) ? 'its first message was not symposium/window' : !isToken(hello.right.token, token) ? 'it did not give the token' : undefined;
      if (refused !== undefined || !isRight(hello)) {
        log.warn(`closed a connection unread: ${refused ?? ''}`);
        socket.destroy();
        return;
      }
      connections.add(socket);
      socket.once('close', () => {
        connections.delete(socket);
        log.info(`a window left (${connections.size} connected)`);
        if (connections.size === 0) idle.arm();
      });
      const ids = new RequestIdTracker();
      const stall = new StalledWindow(socket, WINDOW_STALL_LIMITS, (why) => {
        log.warn(`a window stopped reading (${why}): its connection is closed; its turns run on, and it finds what they said when it comes back`);
        socket.destroy();
      });
      const connection = messageConnection(socket, socket, options.maxMessageBytes, ids, log, () => stall.written());
      connection.onRequest(Methods.joinHost, (): JoinHostResult => ({ pid: process.pid }));
      workspaceOf(hello.right.window).serve(connection, ids);
      connection.listen();
      socket.resume();
      idle.disarm();
      log.info(`a window joined: ${hello.right.window.cwd} (${connections.size} connected)`);
    });
  });

  idle.arm();
  await idle.ended;
  log.info(`agent host (pid ${process.pid}): no window for ${options.idleMs} ms and no turn running: it ends`);
  server.close();
  for (const workspace of workspaces.values()) workspace.dispose();
  shared.dispose();
  if (process.platform !== 'win32') rmSync(endpoint.address, { force: true });
  rmSync(endpoint.tokenPath, { force: true });
  return true;

}

/** Listens on the endpoint unless a host already does there; a socket file left by a host that died is replaced. */
async function bind(endpoint: HostEndpoint): Promise<{ server: net.Server; token: string } | undefined> {
  if (await answers(endpoint.address)) return undefined;
  if (process.platform !== 'win32' && existsSync(endpoint.address)) rmSync(endpoint.address, { force: true });
  const token = writeToken(endpoint);
  const server = net.createServer({ pauseOnConnect: false });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(endpoint.address, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, token };
}

/** Whether something accepts connections at `address` (a live host). */
export function answers(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(address);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The host's defaults with what the window says of its own. */
function windowOptions(base: WorkspaceOptions, window: WindowSettings): WorkspaceOptions {
  const acp = {
    ...base.acp,
    cwd: window.cwd,
    additionalDirectories: window.additionalDirs ?? [],
    ...(window.agentQuestions === undefined ? {} : { questions: window.agentQuestions }),
    ...(window.consumerTerminal === undefined ? {} : { consumerTerminal: window.consumerTerminal }),
    ...(window.startNoticeMs === undefined ? {} : { startNoticeMs: window.startNoticeMs }),
    ...(window.silenceNoticeMs === undefined ? {} : { silenceNoticeMs: window.silenceNoticeMs }),
    ...(window.toolCallTimeoutMs === undefined ? {} : { toolCallTimeoutMs: window.toolCallTimeoutMs }),
  };
  const policy = window.contextPolicy === undefined ? undefined : contextPolicyNamed(window.contextPolicy);
  return { ...base, acp, ...(policy === undefined ? {} : { contextPolicy: policy }), ...(window.clientFiles === undefined ? {} : { clientFiles: window.clientFiles }) };
}
