/**
 * The bridge process, `symposium-lm vscodelm`, as the extension runs it: spawned lazily with the
 * extension host's own runtime (`process.execPath` as Node, never a `node` from PATH), once, and
 * restarted by the next request after it died. Requests in flight when it dies fail with an error that
 * says so; none hangs. Its stderr goes to the log. No `vscode` here: the adapter hands in what it needs.
 */
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { CancellationTokenSource, ResponseError, type CancellationToken } from 'vscode-jsonrpc/node.js';
import { LmClient } from '../../client/lm-client.js';
import { askBridgeToEnd } from '../../client/end-bridge.js';
import { ProtocolErrorCodes } from '../../protocol/errors.js';
import type { ChatSessionsParams, ChatSessionsResult, AgentCommandsParams, AgentInfoParams, CommandPromptsParams, CommandPromptsResult, AskQuestionsParams, AskQuestionsResult, AuthenticateParams, OpenUrlParams, OpenUrlResult, PrepareAgentParams, AgentSecretsParams, ProvideChatResponseParams, ResponsePart, ResumeRecentParams } from '../../protocol/messages.js';
import type { ExtensionLog } from '../../log/extension-log.js';

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
  readonly child: ChildProcess;
  readonly client: LmClient;
  /** Settles (never rejects) with a sentence saying how the process ended. */
  readonly ended: Promise<string>;
  readonly stderrTail: string[];
  /** Fails each request in flight, when the process has ended. */
  readonly inFlight: Set<(how: string) => void>;
  stopping: boolean;
}

export class BridgeProcess {
  private running: Running | undefined;
  private disposed = false;

  constructor(private readonly options: BridgeProcessOptions) {}

  /** The running bridge's pid, if one runs. */
  get pid(): number | undefined {
    return this.running?.child.pid;
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
        const died = (how: string) => reject(new BridgeExitedError(`The Symposium bridge ${how}${tailOf(running)}. It restarts with the next request.`));
        running.inFlight.add(died);
        running.client
          .provideChatResponse(params, onPart, cancellation)
          .then(resolve, (error: unknown) => {
            // The client fails its requests as soon as the bridge exits, before the bridge's last stderr
            // lines are in: a request the bridge died under gets the bridge's own account instead.
            const exited = running.child.exitCode !== null || running.child.signalCode !== null;
            if (exited) void running.ended.then(died);
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
    await this.ensureRunning().client.authenticate(params);
  }

  /** The bridge (started if needed) serves these commands as an MCP server's prompts; where it listens. */
  commandPrompts(params: CommandPromptsParams): Promise<CommandPromptsResult> {
    return this.ensureRunning().client.commandPrompts(params);
  }

  /** An agent's model was picked: the bridge (started if needed) starts the agent ahead of the first request. */
  prepareAgent(params: PrepareAgentParams): void {
    this.ensureRunning().client.prepareAgent(params);
  }

  /** The API keys the person set for an agent changed: a running bridge is told (one that starts later asks `secrets`). */
  holdSecrets(params: AgentSecretsParams): void {
    this.running?.client.holdSecrets(params);
  }

  /** The window started: the bridge (started if needed) resumes the latest conversations' sessions ahead. */
  resumeRecent(params: ResumeRecentParams): void {
    this.ensureRunning().client.resumeRecent(params);
  }

  /** The bridge's requests for an agent's own sessions (list, delete, continue), starting it if needed. */
  agentSessions(): Pick<LmClient, 'listAgentSessions' | 'deleteAgentSession' | 'continueAgentSession'> {
    return this.ensureRunning().client;
  }

  /** The agent sessions of the chats used lately in the workspace (`symposium/chatSessions`), the bridge started if needed. */
  chatSessions(params: ChatSessionsParams): Promise<ChatSessionsResult> {
    return this.ensureRunning().client.chatSessions(params);
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
    askBridgeToEnd(running.child);
    const timer = setTimeout(() => running.child.kill('SIGKILL'), STOP_GRACE_MS);
    await running.ended;
    clearTimeout(timer);
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
    return (this.running ??= this.spawn());
  }

  private spawn(): Running {
    const { bridgePath, log } = this.options;
    const { cwd, additionalDirs, logLevel, stateDir, contextPolicy, startNoticeMs, silenceNoticeMs, clientFiles, agentQuestions, consumerTerminal, toolCallTimeoutMs } = this.options.launch();
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
    client.onAgentInfo((params) => this.options.onAgentInfo?.(params));
    client.onAgentCommands((params) => this.options.onAgentCommands?.(params));
    const { documentText, askQuestions, openUrl } = this.options;
    if (documentText !== undefined) client.onDocumentText(documentText);
    if (askQuestions !== undefined) client.onAskQuestions(askQuestions);
    if (openUrl !== undefined) client.onOpenUrl(openUrl);
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
    running = { child, client, ended, stderrTail, inFlight: new Set(), stopping: false };
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
