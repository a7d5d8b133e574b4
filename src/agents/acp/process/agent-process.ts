import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import type { AgentCommand } from '../../../protocol/messages.js';
import type { Logger } from '../../../log/logger.js';
import { withEnv } from '../../agent-env.js';
import { StderrTail } from './stderr-tail.js';
import { agentChannel } from './agent-channel.js';
import { ProcessTree, spawnTree } from './process-tree.js';
import { KILL_GRACE_MS, liveAgentProcesses, type EndableProcess } from './live-processes.js';

const STDERR_LINES_KEPT = 20;
/** How an agent process ended. */
export type ProcessEnd = { readonly kind: 'spawn-failed'; readonly error: NodeJS.ErrnoException } | { readonly kind: 'exited'; readonly code: number | null; readonly signal: NodeJS.Signals | null };

/** The client side's handlers for what the agent sends. */
export interface AgentCallbacks {
  /** `outsidePrompt`: known, for updates decoded past the SDK, to have been read while the session had no prompt in flight. */
  onUpdate(notification: acp.SessionNotification, outsidePrompt?: boolean): void;
  onPermission(request: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  /** `fs/*` requests, served only when the bridge offered the agent its client's files. */
  onReadTextFile(request: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
  onWriteTextFile(request: acp.WriteTextFileRequest, signal: AbortSignal): Promise<acp.WriteTextFileResponse>;
  /** `elicitation/create`, served only when the bridge offered the agent to ask the person. */
  onElicitation(request: unknown, signal: AbortSignal): Promise<acp.CreateElicitationResponse>;
  /** The agent said whether it is signed in (claude-agent-acp's `_auth/status_update`: `kind` `none` is not). */
  onSignedIn?(signedIn: boolean): void;
}

/**
 * claude-agent-acp's own report of its sign-in (`_auth/status_update` `{authStatus: {kind, label}}`, pushed after
 * `initialize` and when it changes): `kind: "none"` is "Not logged in"; anything else an identity; undefined: unreadable.
 */
export function signedInOf(params: unknown): boolean | undefined {
  const status = typeof params === 'object' && params !== null ? (params as { authStatus?: unknown }).authStatus : undefined;
  const kind = typeof status === 'object' && status !== null ? (status as { kind?: unknown }).kind : undefined;
  return typeof kind === 'string' ? kind !== 'none' : undefined;
}

/**
 * A spawned ACP agent and its connection: the edge where processes, pipes and signals live. Ending the
 * agent ends whatever it started too (claude-agent-acp's Claude child outlives its parent otherwise), and
 * what it leaves behind when it exits by itself; see `process-tree.ts` for how, per platform. Its stderr
 * goes to the log, never to the protocol.
 */
export class AgentProcess implements EndableProcess {
  readonly connection: acp.ClientConnection;
  /** Settles when the process is gone; never rejects. */
  readonly ended: Promise<ProcessEnd>;
  private readonly child: ChildProcess;
  private readonly tree: ProcessTree | undefined;
  private stderrTail: StderrTail | undefined;
  private endedAs: ProcessEnd | undefined;
  /** Why the bridge stopped the agent, when it did so because of what the agent sent. */
  private fault: string | undefined;
  /** Set once the tree was told to end: the SIGKILL that follows is scheduled. */
  private terminated = false;

  constructor(
    readonly command: AgentCommand,
    options: { readonly cwd: string; readonly log: Logger; readonly gate?: (stdout: Readable) => void },
    callbacks: AgentCallbacks,
  ) {
    const { log } = options;
    // The bridge runs with ELECTRON_RUN_AS_NODE under desktop VS Code; an agent built on Electron must not inherit it.
    const { ELECTRON_RUN_AS_NODE: _electron, ...inherited } = process.env;
    const env = withEnv(inherited, Object.fromEntries(command.env.map((v) => [v.name, v.value])));
    this.child = spawnTree(command.command, command.args, { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const pid = this.child.pid;
    this.tree = pid === undefined ? undefined : new ProcessTree(pid, () => this.alive, undefined, (signal) => this.child.kill(signal));
    if (this.tree !== undefined) liveAgentProcesses.add(this);
    this.ended = new Promise<ProcessEnd>((resolve) => {
      const end = (how: ProcessEnd) => {
        if (this.endedAs !== undefined) return;
        this.endedAs = how;
        // What the agent started and left behind goes with it.
        if (this.treeAlive()) this.kill();
        else liveAgentProcesses.delete(this);
        resolve(how);
      };
      this.child.once('error', (error: NodeJS.ErrnoException) => end({ kind: 'spawn-failed', error }));
      // The last stderr lines explain a crash, so wait for stderr to drain (briefly: a grandchild may hold it open).
      this.child.once('exit', (code, signal) => {
        const ended = () => end({ kind: 'exited', code, signal });
        if (this.child.stderr!.readableEnded) return ended();
        this.child.stderr!.once('end', ended);
        setTimeout(ended, 200).unref();
      });
    });
    // A dead agent's pipes error on write; the end is reported through `ended`.
    this.child.stdin!.on('error', (error) => log.debug(`agent ${command.name}: stdin: ${error.message}`));
    this.collectStderr(log);

    const app = acp
      .client({ name: 'symposium-lm' })
      .onNotification(acp.methods.client.session.update, ({ params }) => callbacks.onUpdate(params))
      .onRequest(acp.methods.client.session.requestPermission, ({ params, signal }) => callbacks.onPermission(params, signal))
      .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => callbacks.onReadTextFile(params))
      .onRequest(acp.methods.client.fs.writeTextFile, ({ params, signal }) => callbacks.onWriteTextFile(params, signal))
      .onRequest(acp.methods.client.elicitation.create, ({ params, signal }) => callbacks.onElicitation(params, signal))
      .onNotification('_auth/status_update', signedInOf, ({ params }) => {
        if (params !== undefined) callbacks.onSignedIn?.(params);
      })
      // A web page the person opened is done with (URL elicitation): nothing is left to withdraw, as it was answered when opened.
      .onNotification(acp.methods.client.elicitation.complete, ({ params }) => log.debug(`agent ${command.name}: elicitation ${params.elicitationId} complete`));
    const stdout = this.child.stdout!;
    options.gate?.(stdout);
    this.connection = app.connect(
      agentChannel(this.child.stdin!, stdout, {
        maxLineBytes: acp.DEFAULT_MAX_MESSAGE_BYTES,
        // A message over the SDK's limit would break the connection for good while the agent lives on: it is restarted instead.
        onOverflow: () => {
          this.fault = `sent a message larger than ${acp.DEFAULT_MAX_MESSAGE_BYTES / (1024 * 1024)} MB (ACP's limit), so the bridge stopped it`;
          log.warn(`agent ${command.name} ${this.fault}`);
          this.kill();
        },
        onUpdate: (params, outsidePrompt) => callbacks.onUpdate(params, outsidePrompt),
      }),
    );
    void this.ended.then((how) => {
      log.info(`agent ${command.name} ${this.describe(how)}`);
      this.connection.close(new Error(`Agent "${command.name}" ${this.describe(how)}`));
    });
  }

  get alive(): boolean {
    return this.endedAs === undefined;
  }

  /** The last lines it wrote to stderr, oldest first. */
  get lastStderrLines(): readonly string[] {
    return this.stderrTail?.last ?? [];
  }

  /** "exited with code 3 during initialize", with the last lines it wrote to stderr. */
  describe(how: ProcessEnd, during?: string): string {
    if (how.kind === 'spawn-failed') {
      const { code } = how.error;
      if (code === 'ENOENT') return `could not start: command not found: ${this.command.command} (is it installed and on PATH?)`;
      if (code === 'EACCES') return `could not start: ${this.command.command} is not executable`;
      return `could not start: ${how.error.message}`;
    }
    const status = this.fault ?? (how.signal !== null ? `was killed by ${how.signal}` : `exited with code ${how.code}`);
    const when = during === undefined ? '' : ` during ${during}`;
    const lines = this.lastStderrLines;
    const tail = lines.length === 0 ? '.' : `; its last output on stderr:\n${lines.join('\n')}`;
    return `${status}${when}${tail}`;
  }

  /**
   * Why a request to the agent failed. The SDK rejects pending requests ("ACP connection closed") as
   * soon as the agent's stdout ends, before the process is reported gone; when the process is on its
   * way out, its exit code and stderr say more, so they are waited for briefly.
   */
  async explain(error: unknown, during?: string): Promise<Error> {
    const how = await Promise.race([this.ended, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1000).unref())]);
    if (how !== undefined) return new Error(`Agent "${this.command.name}" ${this.describe(how, during)}`);
    const message = error instanceof Error ? error.message : String(error);
    return new Error(`Agent "${this.command.name}" failed${during === undefined ? '' : ` during ${during}`}: ${message}`);
  }

  /** Ends the agent and everything it started: SIGTERM, and SIGKILL for what is left after the grace period. */
  kill(): void {
    if (this.terminated || !this.treeAlive()) return;
    this.terminated = true;
    this.tree!.terminate();
    // An agent (or a child of it) that ignores SIGTERM is killed outright. When the bridge exits before
    // this fires, `endAgentProcesses` or the 'exit' handler does it.
    setTimeout(() => this.forceKill(), KILL_GRACE_MS).unref();
  }

  /** Ends the agent's tree now. */
  forceKill(): void {
    if (this.treeAlive()) this.tree!.forceKill();
    liveAgentProcesses.delete(this);
  }

  /** Whether the agent, or a process it started, may still run. */
  treeAlive(): boolean {
    return this.tree?.anyAlive() ?? false;
  }

  private collectStderr(log: Logger): void {
    const tail = (this.stderrTail = new StderrTail(STDERR_LINES_KEPT, (line) => log.debug(`agent ${this.command.name}: ${line}`)));
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (chunk: string) => tail.write(chunk));
    this.child.stderr!.on('end', () => tail.end());
  }
}
