import * as acp from '@agentclientprotocol/sdk';
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../protocol/canonical-json.js';
import type { Readable } from 'node:stream';
import type { Logger } from '../../log/logger.js';
import type { AgentCommand } from '../../protocol/messages.js';
import { defer, of, Subject } from 'rxjs';
import type { AgentSession, AgentStream } from '../agent-stream.js';
import { announceSlowStart } from '../../operators/announce-slow-start.js';
import { startingNotice } from '../../protocol/starting-notice.js';
import type { ResponsePart } from '../../protocol/messages.js';
import { BRIDGED_TOOLS_SERVER_NAME, BridgedToolsServer, type BridgedCall } from '../../tools/bridged-tools-server.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition } from '../../protocol/messages.js';
import { SpareSession, type NewAgentSession, type SpareRoom, type TakenSpare } from './spare-session.js';
import { RELAY_AUTHORIZATION_ENV, RELAY_URL_ENV } from '../../tools/relay-env.js';
import { AgentProcess } from './process/agent-process.js';
import { AcpSession, type AcpSessionOptions, type SessionHost } from './session/acp-session.js';
import type { OpenedSession } from './session/opened-session.js';
import { proposesEditsItMakes, readsMissingAsEmpty } from './session/file-requests.js';
import { editsThroughConsumer } from './session/edit-tools.js';
import { HeldToolServer, holdsMcpServersPerWorkspace } from './workspace-mcp-servers.js';
import { declinedResult } from '../../tools/tool-results.js';
import { describeElicitation, onUrlElicitation } from './session/client-requests.js';
import type { AgentSessionIndex } from '../../state/conversation-store.js';
import type { AgentInfo } from '../../protocol/messages.js';
import { AgentInfoState, currentValuesOf, sessionModelsOf, type SessionResponse } from './answers/agent-info.js';
import { isAuthFailure } from './answers/auth-failure.js';
import { MalformedAnswerError, checkInitialize, checkNewSession, checkPermissionRequest, checkReadTextFile, checkResumedSession, checkUpdate, checkWriteTextFile, checkElicitation } from './answers/agent-answers.js';

export interface AcpAgentOptions extends AcpSessionOptions {
  /** How long `initialize` and `session/new` may take. */
  readonly startupTimeoutMs: number;
  /** A turn that waits this long for the agent's `initialize` says the agent is starting (default: never). */
  readonly startNoticeMs?: number;
  /** How to run `symposium-lm mcp-relay`, for agents that take MCP servers only over stdio. */
  readonly relay: { readonly command: string; readonly args: readonly string[] };
  readonly log: Logger;
  /** The ACP session each conversation had, to resume it after its session was closed or the bridge restarted. */
  readonly agentSessions: AgentSessionIndex;
  /** Holds an agent's output back while the consumer is behind (backpressure); none: read at once. */
  readonly gate?: (stdout: Readable) => void;
}

/** An ACP session the agent opened for a new conversation, and what it runs on. */
interface NewSession extends NewAgentSession {
  readonly response: SessionResponse;
  readonly process: AgentProcess;
  readonly init: acp.InitializeResponse;
}

interface Running {
  readonly process: AgentProcess;
  readonly initialized: Promise<acp.InitializeResponse>;
  /** It answered `initialize`. */
  ready: boolean;
}


/**
 * A spawned ACP agent as an agent stream: one process shared by all conversations with it, each in its
 * own ACP session. The process starts on first use and again on the first use after it died.
 */
export class AcpAgent implements AgentStream, SessionHost {
  private running: Running | undefined;
  private readonly sessions = new Map<string, { readonly session: AcpSession; readonly process: AgentProcess; readonly init: acp.InitializeResponse }>();
  readonly name: string;
  readonly log: Logger;
  private readonly info: AgentInfoState;
  /** Which agent this is, in the index of conversations (session ids are unique per agent at best). */
  private readonly key: string;
  /** The last step (open, close) running on each agent session. */
  private readonly busy = new Map<string, Promise<void>>();
  /** Fires when a start of the agent answered `initialize`. */
  private readonly readySignal = new Subject<void>();
  /** The session this agent keeps open ahead of the next new conversation. */
  private readonly spare: SpareSession<NewSession>;
  /** Spares conversations took, until their sessions open with them. */
  private readonly takenSpares = new Map<AcpSession, Promise<TakenSpare<NewSession>>>();
  /**
   * Conversations that just began, whose first prompt the next spare waits for: opened at once, it would
   * compete with that prompt for the agent (Claude Code's first answer came ~70 ms later).
   */
  private readonly beginning = new Set<AcpSession>();
  /** Where the agent holds MCP servers per workspace: whose tool server it holds. */
  private readonly heldToolServer = new HeldToolServer();

  /**
   * `onInfo` hears what is learned about the agent: its models, image support, context window. `spares`
   * gives room in the session pool for a spare session (none: the agent keeps no spare).
   */
  constructor(
    private readonly command: AgentCommand,
    readonly options: AcpAgentOptions,
    onInfo: (info: AgentInfo) => void = () => {},
    spares: (evict: () => void) => SpareRoom | undefined = () => undefined,
  ) {
    this.name = command.name;
    this.log = options.log;
    this.info = new AgentInfoState(onInfo);
    this.key = createHash('sha256').update(canonicalJson(command)).digest('base64url').slice(0, 16);
    this.spare = new SpareSession<NewSession>({
      name: this.name,
      log: this.log,
      newSession: (tools) => this.newSpareSession(tools),
      hold: spares,
      toolCallOutsideTurns: (call) => this.toolCallOutsideTurns(call),
    });
  }

  /** The agent's model was picked: it starts now, and opens a spare session if a conversation on it began before. */
  prepare(): void {
    if (this.running === undefined || !this.running.process.alive) this.log.info(`agent ${this.name}: starting ahead of its first request (its model was picked)`);
    this.start().initialized.then(
      () => this.spare.open(),
      () => {},
    );
  }

  toolServer(session: AcpSession, offered: readonly ToolDefinition[], onCall: (call: BridgedCall) => Promise<CallToolResult>): Promise<BridgedToolsServer> {
    const isNew = this.options.agentSessions.agentSessionOf(session.conversationId, this.key) === undefined;
    const taken = isNew ? this.spare.take(offered, onCall) : undefined;
    if (taken === undefined) return BridgedToolsServer.start(onCall, this.log);
    this.takenSpares.set(session, taken);
    return taken.then((spare) => spare.tools);
  }

  /** A conversation's session; a turn that waits on a slow start of the agent says so first (`announceSlowStart`). */
  openSession(conversationId: string): AgentSession {
    const session = new AcpSession(this, conversationId);
    const { startNoticeMs } = this.options;
    if (startNoticeMs === undefined) return session;
    const notice: ResponsePart = { type: 'text', value: startingNotice(this.name, this.command.command) };
    const ready = defer(() => (this.running?.ready === true && this.running.process.alive ? of(undefined) : this.readySignal));
    return {
      turn: (input) => session.turn(input).pipe(announceSlowStart<ResponsePart>(notice, ready, startNoticeMs)),
      close: () => session.close(),
    };
  }

  /**
   * An ACP session for the conversation: the one it had before, resumed (`session/resume`, else
   * `session/load`) when the agent can, else a new one, which is `fresh`: it has seen nothing.
   */
  async open(session: AcpSession, tools: BridgedToolsServer | undefined): Promise<OpenedSession> {
    const spare = await this.takenSpare(session);
    if (spare !== undefined) {
      await this.exclusive(spare.sessionId, () => this.bind(session, spare.sessionId, spare.process, spare.init));
      this.log.info(`agent ${this.name}: conversation ${session.conversationId} is ACP session ${spare.sessionId}, opened ahead as a spare`);
      this.beginning.add(session);
      return this.openedOf(spare, true);
    }
    const { process, initialized } = this.start();
    const init = await initialized;
    const bridged = tools === undefined ? undefined : this.mcpServerFor(tools, init);
    const mcpServers = bridged === undefined ? [] : [bridged];
    const { conversationId } = session;
    const previous = this.options.agentSessions.agentSessionOf(conversationId, this.key);
    const resumed =
      previous === undefined
        ? undefined
        : await this.exclusive(previous, async () => {
            const owner = this.sessions.get(previous)?.session;
            if (owner !== undefined && owner !== session) {
              this.log.warn(`agent ${this.name}: ACP session ${previous} is held by conversation ${owner.conversationId}; conversation ${conversationId} goes on in a new session`);
              return undefined;
            }
            const response = await this.resume(process, init, previous, mcpServers, conversationId, tools?.toolNames ?? []);
            if (response !== undefined) await this.bind(session, previous, process, init);
            return response;
          });
    let sessionId: string;
    let response: SessionResponse;
    if (resumed !== undefined && previous !== undefined) {
      sessionId = previous;
      response = resumed;
      this.info.learnConfigOptions(response.configOptions);
      this.info.learnSession(response);
    } else {
      ({ sessionId, response } = await this.newSession(process, init, mcpServers, tools?.toolNames ?? []));
      const holder = this.sessions.get(sessionId)?.session;
      if (holder !== undefined && holder !== session) {
        throw new Error(`Agent "${this.name}" opened session ${sessionId} for conversation ${conversationId}, but that session is open for another conversation: the agent hands out session ids twice.`);
      }
      const opened = sessionId;
      await this.exclusive(opened, () => this.bind(session, opened, process, init));
      this.log.info(`agent ${this.name}: conversation ${conversationId} is ACP session ${sessionId}`);
      // A conversation on this agent just began: once its first prompt ended, the next new one finds a session ready.
      this.beginning.add(session);
    }
    return this.openedOf({ sessionId, response, process, init }, resumed === undefined);
  }

  /** The spare `session` took, once its ACP session is open: undefined when it took none, or the spare failed. */
  private async takenSpare(session: AcpSession): Promise<NewSession | undefined> {
    const taken = this.takenSpares.get(session);
    if (taken === undefined) return undefined;
    this.takenSpares.delete(session);
    return (await taken).session;
  }

  /**
   * `session/new` in the workspace folder with these MCP servers, offering these of the consumer's tools; what
   * it answers is learned.
   */
  private async newSession(process: AgentProcess, init: acp.InitializeResponse, mcpServers: acp.McpServer[], offered: readonly string[]): Promise<{ sessionId: string; response: SessionResponse }> {
    const request = this.opening(init, mcpServers, () => process.connection.agent.request(acp.methods.agent.session.new, { cwd: this.options.cwd, mcpServers, ...this.editsThroughConsumer(offered) }));
    const response = await this.startupStep(process, 'session/new', request.then((raw: unknown) => checkNewSession(this.name, raw))).catch((error: unknown) => {
      if (isAuthFailure(error)) this.info.learnSignIn(true);
      throw new Error(this.explainSessionFailure(error));
    });
    this.info.learnConfigOptions(response.configOptions);
    this.info.learnSession(response);
    return { sessionId: response.sessionId, response };
  }

  /** Sends a request that opens a session with `mcpServers`: in order, where the agent holds MCP servers per workspace. */
  private opening<T>(init: acp.InitializeResponse, mcpServers: readonly acp.McpServer[], send: () => Promise<T>): Promise<T> {
    return holdsMcpServersPerWorkspace(init) ? this.heldToolServer.opening(mcpServers, send) : send();
  }

  /**
   * Before `session` prompts, where the agent holds MCP servers per workspace and holds another conversation's
   * tool server (or a spare's): `session/resume` gives it this conversation's again, so that its model sees the
   * tools this conversation is offered. Failing, the prompt goes on (its calls still reach it).
   */
  async serveToolsOf(session: AcpSession, sessionId: string, tools: BridgedToolsServer): Promise<void> {
    const route = this.sessions.get(sessionId);
    if (route === undefined || route.session !== session || !holdsMcpServersPerWorkspace(route.init) || this.heldToolServer.holds(tools.url)) return;
    const server = this.mcpServerFor(tools, route.init);
    if (server === undefined || !('type' in server) || server.type !== 'http' || route.init.agentCapabilities?.sessionCapabilities?.resume == null) return;
    const claimed = this.heldToolServer.claim(server);
    const params = { sessionId, cwd: this.options.cwd, mcpServers: [claimed], ...this.editsThroughConsumer(tools.toolNames) };
    const { agent } = route.process.connection;
    try {
      await this.exclusive(sessionId, () => this.startupStep(route.process, 'session/resume', this.heldToolServer.opening([claimed], () => agent.request(acp.methods.agent.session.resume, params))));
      this.log.debug(`agent ${this.name}: conversation ${session.conversationId} gave the agent its tool server again (session/resume of ${sessionId})`);
    } catch (error) {
      this.log.info(`agent ${this.name}: conversation ${session.conversationId} could not give the agent its tool server again (${error instanceof Error ? error.message : String(error)}): its model may be shown another conversation's tools`);
    }
  }

  /** A spare: an ACP session opened as a new conversation's would be, with `tools`. */
  private async newSpareSession(tools: BridgedToolsServer): Promise<NewSession> {
    const { process, initialized } = this.start();
    const init = await initialized;
    const bridged = this.mcpServerFor(tools, init);
    const { sessionId, response } = await this.newSession(process, init, bridged === undefined ? [] : [bridged], tools.toolNames);
    return { sessionId, response, process, init, alive: () => process.alive, close: () => this.closeAgentSession(sessionId, process, init) };
  }

  /** What a conversation's session is told of the ACP session it opened. */
  private openedOf({ sessionId, response, process, init }: Pick<NewSession, 'sessionId' | 'response' | 'process' | 'init'>, fresh: boolean): OpenedSession {
    const config = currentValuesOf(response.configOptions);
    // Models reported the older way are set the older way (session/set_model), under their own config id.
    const models = sessionModelsOf(response);
    if (models !== undefined && !config.has(models.configId)) config.set(models.configId, models.current);
    return {
      sessionId,
      fresh,
      config,
      agent: process.connection.agent,
      images: init.agentCapabilities?.promptCapabilities?.image === true,
      explain: (error) => process.explain(error),
    };
  }

  /**
   * `session` owns ACP session `sessionId` from now on, unless it was closed while the session opened: then
   * the ACP session is let go at once (a cancelled turn must not hold a session its conversation's next
   * turn will open again). Runs as a step on `sessionId` (see `exclusive`).
   */
  private async bind(session: AcpSession, sessionId: string, process: AgentProcess, init: acp.InitializeResponse): Promise<void> {
    if (session.closed) {
      await this.closeRequest(sessionId, process, init);
      throw new Error(`conversation ${session.conversationId} closed its session while it opened`);
    }
    this.sessions.set(sessionId, { session, process, init });
    this.options.agentSessions.rememberAgentSession(session.conversationId, this.key, sessionId);
  }

  /** Runs `step` on agent session `sessionId` after whatever else runs on it (opening, closing) has finished. */
  private exclusive<T>(sessionId: string, step: () => Promise<T>): Promise<T> {
    const before = this.busy.get(sessionId) ?? Promise.resolve();
    const result = before.then(step);
    const done = result.then(
      () => {},
      () => {},
    );
    this.busy.set(sessionId, done);
    void done.then(() => {
      if (this.busy.get(sessionId) === done) this.busy.delete(sessionId);
    });
    return result;
  }

  /**
   * Resumes an earlier ACP session, if the agent can. `session/load` replays the session's history as
   * updates: they arrive before the session is routed, so they are dropped, as they should be.
   */
  private async resume(
    process: AgentProcess,
    init: acp.InitializeResponse,
    sessionId: string,
    mcpServers: acp.McpServer[],
    conversationId: string,
    offered: readonly string[],
  ): Promise<SessionResponse | undefined> {
    const capabilities = init.agentCapabilities;
    const params = { sessionId, cwd: this.options.cwd, mcpServers, ...this.editsThroughConsumer(offered) };
    const how = capabilities?.sessionCapabilities?.resume != null ? acp.methods.agent.session.resume : capabilities?.loadSession === true ? acp.methods.agent.session.load : undefined;
    if (how === undefined) {
      this.log.info(`agent ${this.name} cannot resume sessions: conversation ${conversationId} goes on in a new session, told the history so far`);
      return undefined;
    }
    try {
      const { agent } = process.connection;
      const request: Promise<SessionResponse> = this.opening(init, mcpServers, () =>
        how === acp.methods.agent.session.resume ? agent.request(acp.methods.agent.session.resume, params) : agent.request(acp.methods.agent.session.load, params),
      );
      const response = await this.startupStep(process, how, request.then((raw: unknown) => checkResumedSession(this.name, how, raw)));
      this.log.info(`agent ${this.name}: conversation ${conversationId} resumed ACP session ${sessionId} (${how})`);
      return response;
    } catch (error) {
      if (!process.alive) throw error;
      // A new session would fail the same way, and lose the one the conversation had.
      if (isAuthFailure(error)) throw this.signInNeeded();
      this.log.info(`agent ${this.name}: ${how} of ${sessionId} failed (${error instanceof Error ? error.message : String(error)}); conversation ${conversationId} goes on in a new session, told the history so far`);
      return undefined;
    }
  }

  /**
   * The bridged tools as the agent can reach them: over HTTP if it can, else through our stdio relay,
   * a process of its own, which is worth starting only once there are tools to offer.
   */
  private mcpServerFor(tools: BridgedToolsServer, init: acp.InitializeResponse): acp.McpServer | undefined {
    if (init.agentCapabilities?.mcpCapabilities?.http === true) {
      return { type: 'http', name: BRIDGED_TOOLS_SERVER_NAME, url: tools.url, headers: [{ name: 'Authorization', value: tools.authorization }] };
    }
    if (tools.toolNames.length === 0) return undefined;
    const { command, args } = this.options.relay;
    const env = [
      { name: RELAY_URL_ENV, value: tools.url },
      { name: RELAY_AUTHORIZATION_ENV, value: tools.authorization },
    ];
    // In desktop VS Code our runtime is Electron, which runs as Node only when told so.
    if (process.versions.electron !== undefined) env.push({ name: 'ELECTRON_RUN_AS_NODE', value: '1' });
    return { name: BRIDGED_TOOLS_SERVER_NAME, command, args: [...args, 'mcp-relay'], env };
  }

  /**
   * The session is done with its ACP session: closed (`session/close`, where the agent supports it),
   * and resumable later unless it was abandoned (a cancel the agent never ended).
   */
  forget(session: AcpSession, sessionId: string, resumable: boolean): void {
    const route = this.sessions.get(sessionId);
    if (route?.session !== session) return;
    this.sessions.delete(sessionId);
    if (!resumable) this.options.agentSessions.forgetAgentSession(session.conversationId);
    this.closeAgentSession(sessionId, route.process, route.init);
  }

  signInNeeded(): Error {
    this.info.learnSignIn(true);
    return new Error(this.signInSentence());
  }

  answered(): void {
    this.info.learnSignIn(false);
  }

  promptEnded(session: AcpSession): void {
    if (this.beginning.delete(session)) this.spare.open();
  }

  /** Every ACP session `session` holds is closed, now: its conversation may open one again at once. */
  release(session: AcpSession): void {
    this.beginning.delete(session);
    const taken = this.takenSpares.get(session);
    this.takenSpares.delete(session);
    void taken?.then((spare) => spare.session).then((spare) => spare?.close());
    for (const [sessionId, route] of [...this.sessions]) if (route.session === session) this.forget(session, sessionId, true);
  }

  /** `session/close`, where the agent supports it; a later open of the same session waits for it. */
  private closeAgentSession(sessionId: string, process: AgentProcess, init: acp.InitializeResponse): void {
    void this.exclusive(sessionId, () => this.closeRequest(sessionId, process, init));
  }

  private async closeRequest(sessionId: string, process: AgentProcess, init: acp.InitializeResponse): Promise<void> {
    if (init.agentCapabilities?.sessionCapabilities?.close == null || !process.alive) return;
    let timer: NodeJS.Timeout | undefined;
    // An agent that never answers must not keep the session from opening again.
    const unanswered = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.startupTimeoutMs).unref()));
    const closed = process.connection.agent.request(acp.methods.agent.session.close, { sessionId }).then(
      () => {},
      (error: unknown) => this.log.debug(`agent ${this.name}: session/close of ${sessionId} failed: ${String(error)}`),
    );
    await Promise.race([closed, unanswered]).finally(() => clearTimeout(timer));
  }

  /** ACP `authenticate` with one of the methods the agent offered (starting it if it does not run). */
  async authenticate(methodId: string): Promise<void> {
    const { process, initialized } = this.start();
    const init = await initialized;
    const method = (init.authMethods ?? []).find((m) => m.id === methodId);
    if (method === undefined) throw new Error(`Agent "${this.name}" offers no sign-in method "${methodId}".`);
    this.log.info(`agent ${this.name}: authenticate with ${methodId}`);
    await this.startupStep(process, 'authenticate', process.connection.agent.request(acp.methods.agent.authenticate, { methodId })).catch((error: unknown) => {
      throw new Error(`Agent "${this.name}" could not sign in with "${method.name}": ${error instanceof Error ? error.message : String(error)}`);
    });
    this.info.learnSignIn(false);
  }

  /**
   * A VS Code tool call that reached the tool server of a conversation with no prompt running, or of a spare.
   * Where the agent serves one tool server to all its sessions, it is the call of whichever conversation
   * offered that tool is in a turn, if only one is; anywhere else, a call outside every turn, declined.
   */
  toolCallOutsideTurns(call: BridgedCall): Promise<CallToolResult> {
    const inTurn = new Set([...this.sessions.values()].filter((route) => holdsMcpServersPerWorkspace(route.init) && route.session.takesToolCall(call.name)).map((route) => route.session));
    const [session] = inTurn;
    if (inTurn.size === 1 && session !== undefined) {
      this.log.debug(`agent ${this.name}: a call of ${call.name} reached the tool server of a conversation not in a turn; conversation ${session.conversationId}, the one in a turn, takes it`);
      return session.onToolCall(call);
    }
    const why = inTurn.size === 0 ? 'no conversation offered it is in a turn' : `${inTurn.size} conversations offered it are in a turn, and which made it is not known`;
    this.log.info(`agent ${this.name}: a call of ${call.name} reached the tool server of a conversation in no turn, and ${why}: declined`);
    return Promise.resolve(declinedResult(call.name));
  }

  dispose(): void {
    this.spare.drop('the agent stops');
    this.running?.process.kill();
    this.running = undefined;
  }

  private start(): Running {
    if (this.running !== undefined && this.running.process.alive) return this.running;
    const process = new AgentProcess(this.command, { cwd: this.options.cwd, log: this.log, gate: this.options.gate }, {
      onUpdate: (raw, outsidePrompt) => {
        const { notification, problem } = checkUpdate(raw);
        if (notification === undefined) {
          this.log.warn(`agent ${this.name} sent a malformed session/update (${problem}): dropped`);
          return;
        }
        const { sessionId, update } = notification;
        if (update.sessionUpdate === 'usage_update') this.info.learnUsage(update);
        if (update.sessionUpdate === 'config_option_update') this.info.learnConfigOptions(update.configOptions);
        const route = this.sessions.get(sessionId);
        if (route === undefined) this.log.debug(`agent ${this.name}: update for unknown session ${sessionId} dropped`);
        else route.session.onUpdate(update, outsidePrompt === true);
      },
      onPermission: (raw, signal) => {
        let request: acp.RequestPermissionRequest;
        try {
          request = checkPermissionRequest(raw);
        } catch (error) {
          this.log.warn(`agent ${this.name} sent a malformed session/request_permission (${error instanceof Error ? error.message : String(error)}): refused`);
          return Promise.reject(error);
        }
        const route = this.sessions.get(request.sessionId);
        if (route !== undefined) return route.session.onPermission(request, signal);
        this.log.debug(`agent ${this.name}: permission request for unknown session ${request.sessionId} cancelled`);
        return Promise.resolve({ outcome: { outcome: 'cancelled' } });
      },
      onReadTextFile: async (raw) => {
        const request = checkReadTextFile(raw);
        const route = this.routeOf(request);
        return route.session.onReadTextFile(request, readsMissingAsEmpty(route.init));
      },
      onWriteTextFile: async (raw, signal) => {
        const request = checkWriteTextFile(raw);
        const route = this.routeOf(request);
        return route.session.onWriteTextFile(request, signal, proposesEditsItMakes(route.init));
      },
      onElicitation: async (raw, signal) => {
        const request = checkElicitation(raw);
        const route = request.sessionId === undefined ? undefined : this.sessions.get(request.sessionId);
        if (route !== undefined) return route.session.onElicitation(request, signal);
        // Outside our sessions (request-scoped: a sign-in while a session opens) only a web page can be offered.
        const answer = request.mode === 'url' ? await onUrlElicitation(this.options.openUrl, this.name, request, signal) : { action: 'decline' };
        this.log.info(`agent ${this.name} asked ${describeElicitation(request)} outside its sessions: ${answer.action}`);
        return answer;
      },
    });
    void process.ended.then(() => {
      this.spare.drop('the agent exited');
      for (const [sessionId, route] of this.sessions) {
        if (route.process !== process) continue;
        this.sessions.delete(sessionId);
        route.session.onProcessEnded();
      }
    });
    const initialize = process.connection.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      // Agents may then offer a sign-in that the client runs in a terminal (the extension does), read and write
      // the person's files and ask the person questions through the client (session/client-requests.ts).
      clientCapabilities: {
        auth: { terminal: true },
        ...(this.options.files === undefined ? {} : { fs: { readTextFile: true, writeTextFile: true } }),
        ...(this.options.questions === true ? { elicitation: { form: {}, ...(this.options.openUrl === undefined ? {} : { url: {} }) } } : {}),
      },
      clientInfo: { name: 'symposium-lm', version: '0.1.0' },
    });
    const initialized = this.startupStep(process, 'initialize', initialize.then((raw: unknown) => checkInitialize(this.name, raw))).then((init) => {
      if (init.protocolVersion !== acp.PROTOCOL_VERSION) {
        throw new Error(`Agent "${this.name}" speaks ACP protocol version ${init.protocolVersion}; this bridge speaks version ${acp.PROTOCOL_VERSION}.`);
      }
      this.info.learnInitialize(init);
      return init;
    });
    // A failed start leaves nothing running; the next request starts the agent again.
    initialized.catch(() => process.kill());
    const running: Running = { process, initialized, ready: false };
    initialized.then(
      () => {
        running.ready = true;
        this.readySignal.next();
      },
      () => {},
    );
    this.running = running;
    return running;
  }

  /** What a session opened or resumed is told so that its agent edits through the consumer's tools, where it can. */
  private editsThroughConsumer(offered: readonly string[]): { readonly _meta: Record<string, unknown> } | undefined {
    return this.options.files === undefined ? undefined : editsThroughConsumer(offered);
  }

  /** The conversation's session an agent's request names, or the ACP error for a session the bridge does not know. */
  private routeOf(request: { readonly sessionId: string }): { readonly session: AcpSession; readonly init: acp.InitializeResponse } {
    const route = this.sessions.get(request.sessionId);
    if (route === undefined) throw acp.RequestError.sessionNotFound(request.sessionId);
    return route;
  }

  /** A startup request that fails clearly when the agent exits or does not answer in time. */
  private startupStep<T>(process: AgentProcess, step: string, request: Promise<T>): Promise<T> {
    const { startupTimeoutMs } = this.options;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        process.kill();
        reject(new Error(`Agent "${this.name}" did not answer ${step} within ${startupTimeoutMs / 1000} s.`));
      }, startupTimeoutMs);
    });
    const answered = request.catch(async (error: unknown): Promise<never> => {
      throw error instanceof acp.RequestError || error instanceof MalformedAnswerError ? error : await process.explain(error, step);
    });
    const exit = process.ended.then((how): never => {
      throw new Error(`Agent "${this.name}" ${process.describe(how, step)}`);
    });
    return Promise.race([answered, timeout, exit]).finally(() => clearTimeout(timer));
  }

  private signInSentence(): string {
    const methods = this.info.signInMethods.map((m) => m.name).join(', ');
    return `Agent "${this.name}" needs authentication${methods === '' ? '' : ` (${methods})`}. Sign in with the agent's own command line, then try again.`;
  }

  private explainSessionFailure(error: unknown): string {
    if (isAuthFailure(error)) return this.signInSentence();
    if (error instanceof acp.RequestError) return `Agent "${this.name}" could not open a session: ${error.message}`;
    return error instanceof Error ? error.message : String(error);
  }
}
