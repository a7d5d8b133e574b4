/**
 * The bridge process, `symposium-lm vscodelm`, as the extension runs it: the person's agent host, shared by
 * every window (`symposium.agentHost: shared`, the launch's `host`), found or started detached and connected to
 * over its socket or pipe; or a bridge of this window's own (`window`), spawned with the extension host's own
 * runtime (`process.execPath` as Node, never a `node` from PATH), its stderr in the log. Either lazily, once, and
 * again by the next request after it died (or the host's connection closed). Requests in flight then fail with
 * an error that says so; none hangs. No `vscode` here: the adapter hands in what it needs.
 */
import { createInterface } from 'node:readline';
import { CancellationTokenSource, ResponseError, type CancellationToken } from 'vscode-jsonrpc/node.js';
import { LmClient } from '../../client/lm-client.js';
import { askBridgeToEnd } from '../../client/end-bridge.js';
import { ProtocolErrorCodes } from '../../protocol/errors.js';
import type { ChatSessionsParams, ChatSessionsResult, AgentCommandsParams, AgentInfoParams, CommandPromptsParams, CommandPromptsResult, AskQuestionsParams, AskQuestionsResult, AuthenticateParams, OpenUrlParams, OpenUrlResult, PrepareAgentParams, AgentSecretsParams, ProvideChatResponseParams, ResponsePart, ResumeRecentParams } from '../../protocol/messages.js';
import type { ExtensionLog } from '../../log/extension-log.js';
import { connectToHost } from '../../host/connect-host.js';
import { tailLog } from '../../host/log-tail.js';

const STDERR_LINES_KEPT = 20;
const STOP_GRACE_MS = 3000;

/** Where and how the next bridge starts; read at each start, so settings changes apply on restart. */
export interface BridgeLaunch {
  /** The workspace folder (or home): the bridge's cwd and its `--cwd`, where ACP sessions run. */
  readonly cwd: string;
  /** The workspace's other folders (`vscodelm --add-dir`), which agents that take them also see. */
  readonly additionalDirs?: readonly string[];
  readonly logLevel: string;
  /** The extension's global storage folder: the bridge keeps its index of conversations there. */
  readonly stateDir?: string;
  /** What of the consumer's messages reaches agents (`vscodelm --context`). */
  readonly contextPolicy?: string;
  /** A response that waits this long for its agent to start says so first (`vscodelm --start-notice-ms`); none: never. */
  readonly startNoticeMs?: number;
  /** A response the agent sends nothing to this long says, once, that the agent has not answered yet. */
  readonly silenceNoticeMs?: number;
  /** Agents read and write the workspace through VS Code (`vscodelm --client-files`); default: they do. */
  readonly clientFiles?: boolean;
  /** Agents may ask the person questions (`vscodelm --agent-questions`); default: they may. */
  readonly agentQuestions?: boolean;
  /** Agents run commands through the chat's command tool where it offers one (`vscodelm --consumer-terminal`); default: they do. */
  readonly consumerTerminal?: boolean;
  /** How long an agent's call of the chat's tools waits for its result (`vscodelm --tool-call-timeout-ms`); none: the bridge's default. */
  readonly toolCallTimeoutMs?: number;
  /** Join the person's agent host of this build (`symposium.agentHost: shared`); none: a bridge of this window's own. */
  readonly host?: {
    readonly build: string;
    /** its folder (default: the user's; tests: their own) */
    readonly dir?: string;
    /** How long a host started now waits after its last window before it ends (`vscodelm --idle-ms`); none: its default. */
    readonly idleMs?: number;
  };
}

export interface BridgeProcessOptions {
  /** The bundled bridge, `dist/extension/bridge.mjs` (or any build of `src/cli/main.ts`). */
  readonly bridgePath: string;
  readonly launch: () => BridgeLaunch;
  readonly log: ExtensionLog;
  /** More `vscodelm` arguments (tests). */
  readonly extraArgs?: readonly string[];
  /** Hears what the bridge learns about agents. */
  readonly onAgentInfo?: (params: AgentInfoParams) => void;
  /** Hears an agent's slash commands whenever they change. */
  readonly onAgentCommands?: (params: AgentCommandsParams) => void;
  /** The text an editor shows of a file (unsaved changes included); undefined when none has it open. */
  readonly documentText?: (path: string) => string | undefined;
  /** Asks the person an agent's questions where the chat cannot show them. */
  readonly askQuestions?: (params: AskQuestionsParams, token: CancellationToken) => Promise<AskQuestionsResult>;
  /** Opens a web page an agent names once the person agrees. */
  readonly openUrl?: (params: OpenUrlParams, token: CancellationToken) => Promise<OpenUrlResult>;
  /** The API keys the person set, per agent, told to every bridge that starts (`symposium/agentSecrets`). */
  readonly secrets?: () => readonly AgentSecretsParams[];
  /** The environment (default: this process's). `ELECTRON_RUN_AS_NODE=1` is always added. */
  readonly env?: NodeJS.ProcessEnv;
}

/** VS Code's and vscode-jsonrpc's cancellation tokens both look like this. */
export interface CancellationLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

/** A request failed because the bridge process ended under it. */
export class BridgeExitedError extends Error {
  override readonly name = 'BridgeExitedError';
}

interface Running {
  /** The client, once connected (at once for a bridge of the window's own). */
  readonly client: Promise<LmClient>;
  /** Settles (never rejects) with a sentence saying how the process ended, or the host's connection closed. */
  readonly ended: Promise<string>;
  readonly stderrTail: string[];
  /** Fails each request in flight, when the process has ended. */
  readonly inFlight: Set<(how: string) => void>;
  /** The bridge's (or host's) pid, once known. */
  pid: number | undefined;
  /** It has ended (known at once, before `ended` settles). */
  exited: boolean;
  /** Asks it to end: a bridge of the window's own ends (its agents with it); the host's connection closes. */
  readonly end: () => void;
  /** Its kind, for the errors: "bridge" or "agent host". */
  readonly what: string;
  stopping: boolean;
}

export class BridgeProcess {
  private running: Running | undefined;
  private disposed = false;

  constructor(private readonly options: BridgeProcessOptions) {}

  /** The running bridge's pid (the host's, once connected), if one runs. */
  get pid(): number | undefined {
    return this.running?.pid;
  }

  /**
   * Streams one response through the bridge (starting it if needed). Rejects with the bridge's
   * ResponseError (cancelled: -32800, agent failed: -32001, …) or with a BridgeExitedError.
   */
  async provideChatResponse(params: ProvideChatResponseParams, onPart: (part: ResponsePart) => void, token?: CancellationLike): Promise<void> {
    if (token?.isCancellationRequested === true) throw new ResponseError(ProtocolErrorCodes.RequestCancelled, 'The request was cancelled before it was sent.');
    const running = this.ensureRunning();
    const source = new CancellationTokenSource();
    // Take the token before linking: a source cancelled before its token exists hands out a token that never fires.
    const cancellation = source.token;
    const link = token?.onCancellationRequested(() => source.cancel());
    try {
      await new Promise<void>((resolve, reject) => {
        const died = (how: string) => reject(new BridgeExitedError(`The Symposium ${running.what} ${how}${tailOf(running)}. It restarts with the next request.`));
        running.inFlight.add(died);
        running.client
          .then((client) => client.provideChatResponse(params, onPart, cancellation))
          .then(resolve, (error: unknown) => {
            // The client fails its requests as soon as the bridge exits, before the bridge's last stderr
            // lines are in: a request the bridge died under gets the bridge's own account instead.
            if (running.exited) void running.ended.then(died);
            else reject(error);
          })
          .finally(() => running.inFlight.delete(died));
      });
    } finally {
      link?.dispose();
      source.dispose();
    }
  }

  /** Signs an agent in with one of its ACP methods (`symposium/authenticate`), starting the bridge if needed. */
  async authenticate(params: AuthenticateParams): Promise<void> {
    await (await this.client()).authenticate(params);
  }

  /** The bridge (started if needed) serves these commands as an MCP server's prompts; where it listens. */
  async commandPrompts(params: CommandPromptsParams): Promise<CommandPromptsResult> {
    return (await this.client()).commandPrompts(params);
  }

  /** An agent's model was picked: the bridge (started if needed) starts the agent ahead of the first request. */
  prepareAgent(params: PrepareAgentParams): void {
    this.client().then((client) => client.prepareAgent(params), (error: unknown) => this.options.log.warn(`the agent was not started ahead: ${String(error)}`));
  }

  /** The API keys the person set for an agent changed: a running bridge is told (one that starts later asks `secrets`). */
  holdSecrets(params: AgentSecretsParams): void {
    void this.running?.client.then((client) => client.holdSecrets(params), () => {});
  }

  /** The window started: the bridge (started if needed) resumes the latest conversations' sessions ahead. */
  resumeRecent(params: ResumeRecentParams): void {
    this.client().then((client) => client.resumeRecent(params), (error: unknown) => this.options.log.warn(`no conversation resumes ahead: ${String(error)}`));
  }

  /** The bridge's requests for an agent's own sessions (list, delete, continue), starting it if needed. */
  agentSessions(): Pick<LmClient, 'listAgentSessions' | 'deleteAgentSession' | 'continueAgentSession'> {
    const client = this.client();
    return {
      listAgentSessions: async (params) => (await client).listAgentSessions(params),
      deleteAgentSession: async (params) => (await client).deleteAgentSession(params),
      continueAgentSession: async (params) => (await client).continueAgentSession(params),
    };
  }

  /** The agent sessions of the chats used lately in the workspace (`symposium/chatSessions`), the bridge started if needed. */
  async chatSessions(params: ChatSessionsParams): Promise<ChatSessionsResult> {
    return (await this.client()).chatSessions(params);
  }

  /** Starts the bridge now if it does not run (requests start it anyway). */
  start(): void {
    this.ensureRunning();
  }

  /** Ends the running bridge (its agents end with it); the next request starts a new one. */
  async stop(): Promise<void> {
    const running = this.running;
    if (running === undefined) return;
    this.running = undefined;
    running.stopping = true;
    running.end();
    await running.ended;
  }

  async restart(): Promise<void> {
    await this.stop();
    this.start();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.stop();
  }

  private ensureRunning(): Running {
    if (this.disposed) throw new BridgeExitedError('The Symposium bridge has been shut down.');
    if (this.running !== undefined) return this.running;
    const launch = this.options.launch();
    return (this.running = launch.host === undefined ? this.spawn(launch) : this.joinHost(launch, launch.host));
  }

  /** The running bridge's client, started (or connected) if needed. */
  private async client(): Promise<LmClient> {
    return this.ensureRunning().client;
  }

  /** Hands the bridge's requests of this window to its handlers. */
  private serveWindow(client: LmClient): void {
    client.onAgentInfo((params) => this.options.onAgentInfo?.(params));
    client.onAgentCommands((params) => this.options.onAgentCommands?.(params));
    const { documentText, askQuestions, openUrl } = this.options;
    if (documentText !== undefined) client.onDocumentText(documentText);
    if (askQuestions !== undefined) client.onAskQuestions(askQuestions);
    if (openUrl !== undefined) client.onOpenUrl(openUrl);
  }

  /**
   * The person's agent host, found or started, joined with what belongs to this window. Closing the connection
   * ends nothing there: the host goes on for the other windows, and ends by itself once none is left.
   */
  private joinHost(launch: BridgeLaunch, host: NonNullable<BridgeLaunch['host']>): Running {
    const { bridgePath, log } = this.options;
    const { cwd, additionalDirs, logLevel, stateDir, contextPolicy, startNoticeMs, silenceNoticeMs, clientFiles, agentQuestions, consumerTerminal, toolCallTimeoutMs } = launch;
    const args = [
      ...['--log-level', logLevel, '--eliza-pace-ms', '40'],
      ...(stateDir === undefined ? [] : ['--state-dir', stateDir]),
      ...(host.idleMs === undefined ? [] : ['--idle-ms', String(Math.round(host.idleMs))]),
      ...(this.options.extraArgs ?? []),
    ];
    const window = {
      cwd,
      additionalDirs: [...(additionalDirs ?? [])],
      ...(contextPolicy === undefined ? {} : { contextPolicy }),
      ...(startNoticeMs === undefined ? {} : { startNoticeMs }),
      ...(silenceNoticeMs === undefined ? {} : { silenceNoticeMs }),
      ...(clientFiles === undefined ? {} : { clientFiles }),
      ...(agentQuestions === undefined ? {} : { agentQuestions }),
      ...(consumerTerminal === undefined ? {} : { consumerTerminal }),
      ...(toolCallTimeoutMs === undefined ? {} : { toolCallTimeoutMs }),
    };
    let closed: (how: string) => void = () => {};
    const ended = new Promise<string>((resolve) => (closed = resolve));
    const launchHost = { bridgePath, build: host.build, ...(host.dir === undefined ? {} : { dir: host.dir }), args, ...(this.options.env === undefined ? {} : { env: this.options.env }) };
    const connecting = connectToHost(launchHost, window, (client) => this.serveWindow(client));
    const running: Running = {
      client: connecting.then(({ client }) => client),
      ended,
      stderrTail: [],
      inFlight: new Set(),
      pid: undefined,
      exited: false,
      what: 'agent host',
      stopping: false,
      end: () => void connecting.then(({ socket }) => socket.destroy(), () => {}),
    };
    connecting.then(
      ({ client, socket, pid, started, log: hostLog }) => {
        running.pid = pid;
        for (const params of this.options.secrets?.() ?? []) client.holdSecrets(params);
        log.info(`${started ? 'started the agent host' : 'joined the agent host'} (pid ${pid}) of build ${host.build} for ${cwd}; its log: ${hostLog.path}`);
        // The host's lines from this window's joining on, in this window's log, as a bridge of its own would write them.
        const tail = tailLog(hostLog.path, hostLog.offset, (line) => log.bridgeLine(line));
        socket.once('close', () => {
          tail.dispose();
          running.exited = true;
          closed(running.stopping ? 'was left' : 'closed the connection (it ended or crashed)');
        });
      },
      (error: unknown) => {
        running.exited = true;
        closed(`could not be reached: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
    void ended.then((how) => {
      if (this.running === running) this.running = undefined;
      for (const died of running.inFlight) died(how);
      void running.client.then((client) => client.dispose(), () => {});
      (running.stopping ? log.info : log.warn)(`agent host (pid ${running.pid ?? '?'}) ${how}`);
    });
    return running;
  }

  private spawn(launch: BridgeLaunch): Running {
    const { bridgePath, log } = this.options;
    const { cwd, additionalDirs, logLevel, stateDir, contextPolicy, startNoticeMs, silenceNoticeMs, clientFiles, agentQuestions, consumerTerminal, toolCallTimeoutMs } = launch;
    // VS Code hands a provider's parts on in batches about 30 ms apart: slower words let Eliza be seen streaming.
    const args = [
      ...['--cwd', cwd, '--log-level', logLevel, '--eliza-pace-ms', '40'],
      ...(additionalDirs ?? []).flatMap((dir) => ['--add-dir', dir]),
      ...(startNoticeMs === undefined ? [] : ['--start-notice-ms', String(startNoticeMs)]),
      ...(silenceNoticeMs === undefined ? [] : ['--silence-notice-ms', String(silenceNoticeMs)]),
      ...(stateDir === undefined ? [] : ['--state-dir', stateDir]),
      ...(contextPolicy === undefined ? [] : ['--context', contextPolicy]),
      ...(clientFiles === false ? ['--client-files', 'off'] : []),
      ...(agentQuestions === false ? ['--agent-questions', 'off'] : []),
      ...(consumerTerminal === false ? ['--consumer-terminal', 'off'] : []),
      ...(toolCallTimeoutMs === undefined ? [] : ['--tool-call-timeout-ms', String(toolCallTimeoutMs)]),
      ...(this.options.extraArgs ?? []),
    ];
    const env = { ...(this.options.env ?? process.env), ELECTRON_RUN_AS_NODE: '1' };
    const { client, child } = LmClient.spawn({ cliPath: bridgePath, args, cwd, env, stderr: 'pipe' });
    log.info(`bridge started (pid ${child.pid ?? '?'}): ${process.execPath} ${bridgePath} vscodelm ${args.join(' ')}`);
    this.serveWindow(client);
    for (const params of this.options.secrets?.() ?? []) client.holdSecrets(params);

    const stderrTail: string[] = [];
    createInterface({ input: child.stderr!, crlfDelay: Infinity }).on('line', (line) => {
      stderrTail.push(line);
      if (stderrTail.length > STDERR_LINES_KEPT) stderrTail.shift();
      log.bridgeLine(line);
    });
    // Writes to a dead bridge fail; its end is reported through `ended`.
    child.stdin!.on('error', (error) => log.debug(`bridge stdin: ${error.message}`));

    let running: Running;
    const ended = new Promise<string>((resolve) => {
      child.once('error', (error) => resolve(`could not be started: ${error.message}`));
      child.once('exit', (code, signal) => {
        const how = running.stopping ? 'was stopped' : signal !== null ? `was killed by ${signal}` : `exited with code ${code ?? '?'}`;
        // Its last stderr lines explain the exit: let them drain, briefly.
        child.once('close', () => resolve(how));
        setTimeout(() => resolve(how), 200).unref();
      });
    });
    const end = () => {
      askBridgeToEnd(child);
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      child.once('exit', () => clearTimeout(timer));
    };
    running = { client: Promise.resolve(client), ended, stderrTail, inFlight: new Set(), pid: child.pid, exited: false, end, what: 'bridge', stopping: false };
    child.once('exit', () => (running.exited = true));
    void ended.then((how) => {
      if (this.running === running) this.running = undefined;
      for (const died of running.inFlight) died(how);
      client.dispose();
      (running.stopping ? log.info : log.warn)(`bridge (pid ${child.pid ?? '?'}) ${how}`);
    });
    return running;
  }
}

/**
 * What the bridge last said, for the error of a request it died under: the last line that names an
 * error (Node prints a stack after it), else its last lines.
 */
function tailOf(running: Running): string {
  if (running.stopping) return '';
  const lines = running.stderrTail
    .map((line) => line.replace(/^\[\S+ (\w+)\] /, '').trim())
    .filter((line) => line !== '' && !/^at /.test(line));
  if (lines.length === 0) return '';
  const error = [...lines].reverse().find((line) => /\b(error|cannot|failed|exception|fatal)\b/i.test(line));
  return ` (last log lines: ${error ?? lines.slice(-3).join(' | ')})`;
}
