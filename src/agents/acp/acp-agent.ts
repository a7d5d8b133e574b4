import * as acp from '@agentclientprotocol/sdk';
import type { Logger } from '../../log/logger.js';
import type { AgentCommand, AgentInfo, AgentSlashCommand, ToolDefinition } from '../../protocol/messages.js';
import { defer, of, Subject } from 'rxjs';
import type { AgentSession, AgentStream } from '../agent-stream.js';
import { waitNotices } from './wait-notices.js';
import { BridgedToolsServer, type BridgedCall } from '../../tools/bridged-tools-server.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SpareSession, type NewAgentSession, type TakenSpare } from './spare-session.js';
import { bridgedMcpServer } from './bridged-mcp-server.js';
import type { AgentProcess } from './process/agent-process.js';
import { startupStep } from './process/startup-step.js';
import { AgentProcesses, type ProcessTenant } from './agent-processes.js';
import { startAgent } from './start-agent.js';
import { AcpSession, type SessionHost } from './session/acp-session.js';
import type { OpenedSession } from './session/opened-session.js';
import { steeringOf } from './session/steering.js';
import { proposesEditsItMakes, readsMissingAsEmpty } from './session/file-requests.js';
import { toolsThroughConsumer } from './session/edit-tools.js';
import { clientCapabilitiesOf } from './session/client-capabilities.js';
import { ChildSessions } from './child-sessions.js';
import { HeldToolServer, callOfTheTurnInProgress, holdsMcpServersPerWorkspace } from './workspace-mcp-servers.js';
import { LiveSessions, SessionIdInUse } from './live-sessions.js';
import { SessionsResumedAhead } from './resumed-ahead.js';
import type { AcpAgentOptions, PoolRoom } from './acp-agent-options.js';
import { WorkspaceFolders, type SessionFolders } from './workspace-folders.js';
import { agentIndexKey } from './agent-index-key.js';
import { closeSessionRequest } from './close-session.js';
import { forkAtPoint, type ForkHost } from './fork-session.js';
import { PastSessions } from './past-sessions.js';
import type { ForkPoint } from './session/answer-ends.js';
import type { RecentAgentSession } from '../../state/conversation-store.js';
import { describeElicitation, onUrlElicitation } from './session/client-requests.js';
import { AgentInfoState, type SessionResponse } from './answers/agent-info.js';
import { SessionSettings } from './session/session-settings.js';
import { canonicalJson } from '../../protocol/canonical-json.js';
import { isAuthFailure } from './answers/auth-failure.js';
import { AgentCommands } from './answers/agent-commands.js';
import { checkNewSession, checkPermissionRequest, checkReadTextFile, checkResumedSession, checkUpdate, checkWriteTextFile, checkElicitation } from './answers/agent-answers.js';

/** An ACP session the agent opened for a new conversation, and what it runs on. */
interface NewSession extends NewAgentSession {
  readonly response: SessionResponse;
  readonly process: AgentProcess;
  readonly init: acp.InitializeResponse;
  /** How it is held (as the spare, or ahead of its conversation) until a conversation holds it. */
  readonly hold: Holder;
  /** It has seen nothing of a conversation (a spare); not so one resumed ahead. */
  readonly fresh: boolean;
}

/** Who holds a live ACP session: a conversation, or (none) the spare; and what the agent said of itself. */
interface Holder {
  readonly conversation: AcpSession | undefined;
  readonly init: acp.InitializeResponse;
}

/** The conversation holding an ACP session, on its process. */
interface Route {
  readonly session: AcpSession;
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
  /** The ACP sessions live on the agent's process: who holds each, and whether a prompt runs in it. */
  private readonly live = new LiveSessions<AgentProcess, Holder>();
  readonly name: string;
  readonly log: Logger;
  private readonly info: AgentInfoState;
  /** Its slash commands, as it last listed them in any session. */
  private readonly commands: AgentCommands;
  /** Which agent this is, in the index of conversations (session ids are unique per agent at best). */
  private readonly key: string;
  /** Fires when a start of the agent answered `initialize`. */
  private readonly readySignal = new Subject<void>();
  /** The session this agent keeps open ahead of the next new conversation. */
  private readonly spare: SpareSession<NewSession>;
  /** Sessions opened ahead (spares, or their own resumed ahead) that conversations took, until their sessions open with them. */
  private readonly takenAhead = new Map<AcpSession, Promise<TakenSpare<NewSession>>>();
  /** Sessions of conversations used lately, resumed before their next turn (after a window reload). */
  private readonly resumedAhead: SessionsResumedAhead<NewSession>;
  /**
   * Conversations that just began, whose first prompt the next spare waits for: opened at once, it would
   * compete with that prompt for the agent (Claude Code's first answer came ~70 ms later).
   */
  private readonly beginning = new Set<AcpSession>();
  /** Conversations that took their session resumed ahead (from the take on), until their first prompt in it ends: the other resumes wait. */
  private readonly goingOn = new Map<AcpSession, () => void>();
  /** Where the agent holds MCP servers per workspace: whose tool server it holds. */
  private readonly heldToolServer = new HeldToolServer();
  private readonly forking: ForkHost;
  private readonly folders: WorkspaceFolders;
  /** Its own sessions, to list, delete, continue in a new chat. */
  readonly sessions: PastSessions;
  /** Subagents as child sessions, led to their parent's conversation (child-sessions.ts). */
  private readonly children = new ChildSessions();
  /** Where its process runs, shared with other workspaces' agents of the same definition and capabilities. */
  private readonly processes: AgentProcesses;
  private readonly processKey: string;
  private readonly tenant: ProcessTenant = this.tenantOf();

  /**
   * `onInfo` hears what is learned about the agent: its models, image support, context window. `room` gives
   * room in the session pool for a spare session and for sessions resumed ahead (none: it opens none ahead).
   * `onCommands` hears its slash commands whenever they changed.
   */
  constructor(
    private readonly command: AgentCommand,
    readonly options: AcpAgentOptions,
    onInfo: (info: AgentInfo) => void = () => {},
    room: PoolRoom = {},
    onCommands: (commands: readonly AgentSlashCommand[]) => void = () => {},
  ) {
    this.name = command.name;
    this.log = options.log;
    this.info = new AgentInfoState(onInfo);
    this.commands = new AgentCommands((commands) => {
      this.log.info(`agent ${this.name} lists ${commands.length} slash command(s)`);
      onCommands(commands);
    });
    this.key = agentIndexKey(command);
    this.processes = options.processes ?? new AgentProcesses();
    this.processKey = canonicalJson({ command, capabilities: clientCapabilitiesOf(options, command.subagentSessions === true) });
    this.folders = new WorkspaceFolders(options.cwd, options.additionalDirectories ?? [], this.name, this.log);
    this.forking = { name: this.name, log: this.log, agentSessions: options.agentSessions, step: (process, step, request) => this.startupStep(process, step, request) };
    this.sessions = new PastSessions({
      name: this.name, log: this.log, indexKey: this.key, folders: [options.cwd, ...(options.additionalDirectories ?? [])], timeoutMs: options.startupTimeoutMs,
      start: () => this.start(), step: (process, step, request) => this.startupStep(process, step, request), sessionParams: (init) => this.sessionParams(init, []),
      isHeld: (sessionId) => this.live.holderOf(sessionId) !== undefined, close: (sessionId, process, init) => this.closeRequest(sessionId, process, init),
    });
    const outsideTurns = (call: BridgedCall): Promise<CallToolResult> => this.toolCallOutsideTurns(call);
    this.spare = new SpareSession<NewSession>({ name: this.name, log: this.log, newSession: (tools) => this.newSpareSession(tools), hold: room.spare ?? (() => undefined), toolCallOutsideTurns: outsideTurns });
    this.resumedAhead = new SessionsResumedAhead<NewSession>({
      name: this.name,
      log: this.log,
      resume: (conversationId, agentSession, tools) => this.resumeAheadSession(conversationId, agentSession, tools),
      hold: room.ahead ?? (() => undefined),
      toolCallOutsideTurns: outsideTurns,
    }, room.resumes);
  }

  /**
   * Conversations used lately in this workspace (latest first) will likely go on soon (a window was reloaded):
   * the agent starts, and their sessions are resumed ahead, as far as the session pool has room; then a spare
   * opens for a new chat, offering what the agent was last offered here.
   */
  resumeAhead(conversations: readonly RecentAgentSession[]): void {
    const offered = this.options.offeredTools?.last(this.key, this.options.cwd) ?? [];
    for (const { conversationId, agentSession } of conversations) {
      if (!this.resumedAhead.resume(conversationId, agentSession, offered)) this.log.debug(`agent ${this.name}: conversation ${conversationId} is not resumed ahead (resumed already, or no room in the session pool)`);
    }
    this.spare.expect(offered);
    void this.resumedAhead.settled().then(() => this.spare.open());
  }

  /**
   * The agent's model was picked: it starts now, and opens a spare (after the resumes ahead: see `settled`) if a
   * conversation on it began before, here or in another of the person's windows, whose tools the spare then offers.
   */
  prepare(): void {
    if (this.running === undefined || !this.running.process.alive) this.log.info(`agent ${this.name}: starting ahead of its first request (its model was picked)`);
    const elsewhere = this.options.offeredTools?.lastAnywhere(this.key);
    if (elsewhere !== undefined) this.spare.expect(elsewhere);
    this.start().initialized.then(
      () => this.resumedAhead.settled().then(() => this.spare.open()),
      () => {},
    );
  }

  toolServer(session: AcpSession, offered: readonly ToolDefinition[], onCall: (call: BridgedCall) => Promise<CallToolResult>): Promise<BridgedToolsServer> {
    this.options.offeredTools?.remember(this.key, this.options.cwd, offered);
    const isNew = this.options.agentSessions.agentSessionOf(session.conversationId, this.key) === undefined;
    // A conversation that went back forks its session (see open): it takes no spare.
    const taken = !isNew
      ? this.resumedAhead.take(session.conversationId, offered, onCall, () => new Promise((ended) => this.goingOn.set(session, ended)))
      : session.goesBack === undefined
        ? this.spare.take(offered, onCall)
        : undefined;
    if (taken === undefined) return BridgedToolsServer.start(onCall, this.log);
    this.takenAhead.set(session, taken);
    return taken.then((spare) => spare.tools);
  }

  /** A conversation's session; a turn that waits on the agent says so (`waitNotices`: its slow start, its silence). */
  openSession(conversationId: string): AgentSession {
    const session = new AcpSession(this, conversationId);
    const ready = defer(() => (this.running?.ready === true && this.running.process.alive ? of(undefined) : this.readySignal));
    const waits = waitNotices(this.command, this.options, ready, () => this.running?.process);
    return waits === undefined ? session : { turn: (input) => session.turn(input).pipe(waits), close: () => session.close() };
  }

  /**
   * An ACP session for the conversation: the one it had before, resumed (`session/resume`, else
   * `session/load`) when the agent can, else a new one, which is `fresh`: it has seen nothing.
   */
  async open(session: AcpSession, tools: BridgedToolsServer | undefined): Promise<OpenedSession> {
    const spare = await this.takenAheadOf(session);
    if (spare !== undefined) {
      await this.live.exclusive(spare.sessionId, spare.process, () => this.bind(session, spare.sessionId, spare.process, spare.init, spare.hold));
      this.log.info(`agent ${this.name}: conversation ${session.conversationId} is ACP session ${spare.sessionId}, ${spare.fresh ? 'opened ahead as a spare' : 'resumed ahead'}`);
      if (spare.fresh) this.beginning.add(session);
      return this.openedOf(spare, spare.fresh);
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
        : await this.live.exclusive(previous, process, async () => {
            const owner = this.live.holderOf(previous)?.holder;
            if (owner !== undefined && owner.conversation !== session) {
              const who = owner.conversation === undefined ? 'the spare session' : `conversation ${owner.conversation.conversationId}`;
              this.log.warn(`agent ${this.name}: ACP session ${previous} is held by ${who}; conversation ${conversationId} goes on in a new session`);
              return undefined;
            }
            // A cancelled prompt of this conversation may still run there (its session was closed meanwhile).
            if (!(await this.live.idle(previous, process, this.options.cancelTimeoutMs))) {
              this.log.warn(`agent ${this.name}: a cancelled prompt still runs in ACP session ${previous} after ${this.options.cancelTimeoutMs} ms; conversation ${conversationId} goes on in a new session`);
              return undefined;
            }
            const response = await this.resume(process, init, previous, mcpServers, conversationId, tools?.toolNames ?? []);
            if (response !== undefined) await this.bind(session, previous, process, init);
            return response;
          });
    const { goesBack } = session;
    const forked = resumed !== undefined || goesBack === undefined ? undefined : await forkAtPoint(this.forking, conversationId, goesBack, process, init, { ...this.sessionParams(init, tools?.toolNames ?? []), mcpServers });
    let sessionId: string;
    let response: SessionResponse;
    if ((resumed !== undefined && previous !== undefined) || forked !== undefined) {
      sessionId = forked?.sessionId ?? previous!;
      response = forked ?? resumed!;
      this.info.learnConfigOptions(response.configOptions);
      this.info.learnSession(response);
      if (forked !== undefined) await this.live.exclusive(sessionId, process, () => this.bind(session, forked.sessionId, process, init));
    } else {
      ({ sessionId, response } = await this.newSession(process, init, mcpServers, tools?.toolNames ?? []));
      const opened = sessionId;
      await this.live.exclusive(opened, process, () => this.bind(session, opened, process, init));
      this.log.info(`agent ${this.name}: conversation ${conversationId} is ACP session ${sessionId}`);
      // A conversation on this agent just began: once its first prompt ended, the next new one finds a session ready.
      this.beginning.add(session);
    }
    return this.openedOf({ sessionId, response, process, init }, resumed === undefined && forked === undefined);
  }

  /** The session opened ahead (a spare, or its own resumed) `session` took, once open: undefined when it took none, or it failed. */
  private async takenAheadOf(session: AcpSession): Promise<NewSession | undefined> {
    const taken = this.takenAhead.get(session);
    if (taken === undefined) return undefined;
    this.takenAhead.delete(session);
    return (await taken).session;
  }

  /**
   * `session/new` in the workspace folder with these MCP servers, offering these of the consumer's tools; what
   * it answers is learned.
   */
  private async newSession(process: AgentProcess, init: acp.InitializeResponse, mcpServers: acp.McpServer[], offered: readonly string[]): Promise<{ sessionId: string; response: SessionResponse }> {
    const request = this.opening(init, mcpServers, () => process.connection.agent.request(acp.methods.agent.session.new, { ...this.sessionParams(init, offered), mcpServers }));
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
    const route = this.routeOf(sessionId);
    if (route === undefined || route.session !== session || !holdsMcpServersPerWorkspace(route.init) || this.heldToolServer.holds(tools.url)) return;
    const server = this.mcpServerFor(tools, route.init);
    if (server === undefined || !('type' in server) || server.type !== 'http' || route.init.agentCapabilities?.sessionCapabilities?.resume == null) return;
    const claimed = this.heldToolServer.claim(server);
    const params = { sessionId, ...this.sessionParams(route.init, tools.toolNames), mcpServers: [claimed] };
    const { agent } = route.process.connection;
    try {
      await this.live.exclusive(sessionId, route.process, () => this.startupStep(route.process, 'session/resume', this.heldToolServer.opening([claimed], () => agent.request(acp.methods.agent.session.resume, params))));
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
    const hold: Holder = { conversation: undefined, init };
    try {
      this.live.hold(sessionId, process, hold);
    } catch (error) {
      throw error instanceof SessionIdInUse ? this.handedOutTwice(error, 'the spare session') : error;
    }
    return { sessionId, response, process, init, hold, fresh: true, alive: () => process.alive, close: () => this.closeAgentSession(sessionId, process, init, hold) };
  }

  /** A conversation's ACP session resumed ahead of its next turn, with `tools`; it fails when the agent cannot resume it. */
  private async resumeAheadSession(conversationId: string, agentSession: string, tools: BridgedToolsServer): Promise<NewSession> {
    const { process, initialized } = this.start();
    const init = await initialized;
    const capabilities = init.agentCapabilities;
    if (capabilities?.sessionCapabilities?.resume == null && capabilities?.loadSession !== true) throw new Error('the agent cannot resume sessions');
    const bridged = this.mcpServerFor(tools, init);
    return this.live.exclusive(agentSession, process, async () => {
      if (this.live.holderOf(agentSession) !== undefined) throw new Error(`ACP session ${agentSession} is open already`);
      const response = await this.resume(process, init, agentSession, bridged === undefined ? [] : [bridged], conversationId, tools.toolNames);
      if (response === undefined) throw new Error(`the agent did not resume ACP session ${agentSession}`);
      this.info.learnConfigOptions(response.configOptions);
      this.info.learnSession(response);
      const hold: Holder = { conversation: undefined, init };
      this.live.hold(agentSession, process, hold);
      return { sessionId: agentSession, response, process, init, hold, fresh: false, alive: () => process.alive, close: () => this.closeAgentSession(agentSession, process, init, hold) };
    });
  }

  /** What a conversation's session is told of the ACP session it opened. */
  private openedOf({ sessionId, response, process, init }: Pick<NewSession, 'sessionId' | 'response' | 'process' | 'init'>, fresh: boolean): OpenedSession {
    return {
      sessionId,
      fresh,
      settings: new SessionSettings(response, { command: this.command, cwd: this.options.cwd }),
      agent: process.connection.agent,
      prompt: (blocks) => {
        const request = process.connection.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: blocks });
        this.live.prompting(sessionId, process, request);
        return request;
      },
      images: init.agentCapabilities?.promptCapabilities?.image === true,
      embeddedContext: init.agentCapabilities?.promptCapabilities?.embeddedContext === true,
      explain: (error) => process.explain(error),
      steer: steeringOf(init, process.connection.agent, sessionId),
    };
  }

  /**
   * `session` holds ACP session `sessionId` from now on (taking it from the spare that held it, if `from`),
   * unless it was closed while the session opened: then the ACP session is let go at once (a cancelled turn
   * must not hold a session its conversation's next turn will open again). An id that is live already (held
   * by another, or a prompt still runs in it) is refused: the agent handed it out twice. Runs as a step on
   * `sessionId`.
   */
  private async bind(session: AcpSession, sessionId: string, process: AgentProcess, init: acp.InitializeResponse, from?: Holder): Promise<void> {
    if (from !== undefined) this.live.letGo(sessionId, from);
    const holder: Holder = { conversation: session, init };
    try {
      this.live.hold(sessionId, process, holder);
    } catch (error) {
      throw error instanceof SessionIdInUse ? this.handedOutTwice(error, `conversation ${session.conversationId}`) : error;
    }
    if (session.closed) {
      this.live.letGo(sessionId, holder);
      await this.closeRequest(sessionId, process, init);
      throw new Error(`conversation ${session.conversationId} closed its session while it opened`);
    }
    this.options.agentSessions.rememberAgentSession(session.conversationId, this.key, sessionId, this.options.cwd);
  }

  /** The person's error for an agent that gave an id it had given already: its fault, said plainly. */
  private handedOutTwice(error: SessionIdInUse, to: string): Error {
    const why = error.how === 'held' ? 'it had already given that id to another conversation, which still holds it' : 'a prompt still runs in the session of that id';
    this.log.warn(`agent ${this.name} gave ACP session id ${error.sessionId} to ${to}, but ${why}: refused`);
    return new Error(`Agent "${this.name}" opened session ${error.sessionId} for this chat, but ${why}: the agent hands out session ids twice, and this chat cannot go on in a session another one uses. It may work again once the other chat is done, or after Symposium: Restart Bridge.`);
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
    const params = { sessionId, ...this.sessionParams(init, offered), mcpServers };
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
      const response = await this.startupStep(process, how, request.then((raw: unknown) => checkResumedSession(this.name, how, sessionId, raw)));
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

  private mcpServerFor(tools: BridgedToolsServer, init: acp.InitializeResponse): acp.McpServer | undefined {
    return bridgedMcpServer(tools, init, this.options.relay);
  }

  /**
   * The session is done with its ACP session: closed (`session/close`, where the agent supports it),
   * and resumable later unless it was abandoned (a cancel the agent never ended).
   */
  forget(session: AcpSession, sessionId: string, resumable: boolean): void {
    const held = this.live.holderOf(sessionId);
    if (held?.holder.conversation !== session) return;
    this.live.letGo(sessionId, held.holder);
    if (!resumable) this.options.agentSessions.forgetAgentSession(session.conversationId);
    this.closeAgentSession(sessionId, held.process, held.holder.init);
  }

  signInNeeded(): Error {
    this.info.learnSignIn(true);
    return new Error(this.signInSentence());
  }

  answered(session: AcpSession, point: ForkPoint | undefined): void {
    this.info.learnSignIn(false);
    if (point !== undefined) this.options.agentSessions.rememberForkPoint(session.conversationId, point);
  }

  promptEnded(session: AcpSession): void {
    this.wentOn(session);
    if (this.beginning.delete(session)) this.spare.open();
  }

  /** A conversation that took its session resumed ahead prompted (or closed): the other resumes may go on. */
  private wentOn(session: AcpSession): void {
    this.goingOn.get(session)?.();
    this.goingOn.delete(session);
  }

  /** Every ACP session `session` holds is closed, now: its conversation may open one again at once. */
  release(session: AcpSession): void {
    this.beginning.delete(session);
    this.wentOn(session);
    const taken = this.takenAhead.get(session);
    this.takenAhead.delete(session);
    void taken?.then((spare) => spare.session).then((spare) => spare?.close());
    for (const { sessionId, holder } of this.live.held()) if (holder.conversation === session) this.forget(session, sessionId, true);
  }

  /**
   * `session/close`, where the agent supports it; a later open of the same session waits for it. A spare
   * (`spare`) lets its id go first; an id another holds by now (an agent that gave it twice) is not closed.
   */
  private closeAgentSession(sessionId: string, process: AgentProcess, init: acp.InitializeResponse, spare?: Holder): void {
    if (spare !== undefined && !this.live.letGo(sessionId, spare)) return;
    void this.live.exclusive(sessionId, process, () => (this.live.holderOf(sessionId) === undefined ? this.closeRequest(sessionId, process, init) : Promise.resolve()));
  }

  private closeRequest(sessionId: string, process: AgentProcess, init: acp.InitializeResponse): Promise<void> {
    return closeSessionRequest(this.name, this.log, sessionId, process, init, this.options.startupTimeoutMs);
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
    const perWorkspace = this.live.held().flatMap(({ holder }) => (holder.conversation !== undefined && holdsMcpServersPerWorkspace(holder.init) ? [holder.conversation] : []));
    return callOfTheTurnInProgress(this.name, this.log, perWorkspace, call);
  }

  dispose(): void {
    this.commands.dispose();
    this.spare.drop('the agent stops');
    void this.resumedAhead.drop(undefined, 'the agent stops');
    this.processes.leave(this.processKey, this.tenant);
    this.running = undefined;
  }

  private start(): Running {
    if (this.running !== undefined && this.running.process.alive) return this.running;
    const started = this.processes.join(this.processKey, this.tenant, (callbacks) => startAgent(this.command, this.options, callbacks));
    const { process } = started;
    void process.ended.then(() => {
      this.spare.drop('the agent exited');
      void this.resumedAhead.drop(undefined, 'the agent exited');
      for (const { holder } of this.live.processEnded(process)) holder.conversation?.onProcessEnded();
    });
    const initialized = started.initialized.then((init) => {
      this.info.learnInitialize(init);
      return init;
    });
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

  /** What the agent's process sends for this workspace's sessions (and, as the one that started it, for none). */
  private tenantOf(): ProcessTenant {
    return {
      owns: (sessionId) => this.live.holderOf(this.children.rootOf(sessionId)) !== undefined || this.sessions.replays(sessionId),
      onUpdate: (raw, outsidePrompt) => {
        const { notification, problem } = checkUpdate(raw);
        if (notification === undefined) {
          this.log.warn(`agent ${this.name} sent a malformed session/update (${problem}): dropped`);
          return;
        }
        const led = this.children.lead(notification);
        if (led === undefined) return;
        const { sessionId, update } = led;
        // The agent's, not a turn's: agents send it when a session opens, outside every prompt.
        if (update.sessionUpdate === 'available_commands_update') return this.commands.hear(update.availableCommands);
        if (update.sessionUpdate === 'usage_update') this.info.learnUsage(update);
        if (update.sessionUpdate === 'config_option_update') this.info.learnConfigOptions(update.configOptions);
        const route = this.routeOf(sessionId);
        if (route !== undefined) route.session.onUpdate(update, outsidePrompt === true && led === notification);
        else if (!this.sessions.heard(sessionId, update)) this.log.debug(`agent ${this.name}: update for unknown session ${sessionId} dropped`);
      },
      onPermission: (raw, signal) => {
        let request: acp.RequestPermissionRequest;
        try {
          request = checkPermissionRequest(raw);
        } catch (error) {
          this.log.warn(`agent ${this.name} sent a malformed session/request_permission (${error instanceof Error ? error.message : String(error)}): refused`);
          return Promise.reject(error);
        }
        const route = this.routeOf(request.sessionId);
        if (route !== undefined) return route.session.onPermission(request, signal);
        this.log.debug(`agent ${this.name}: permission request for unknown session ${request.sessionId} cancelled`);
        return Promise.resolve({ outcome: { outcome: 'cancelled' } });
      },
      onReadTextFile: async (raw) => {
        const request = checkReadTextFile(raw);
        const route = this.knownRouteOf(request);
        return route.session.onReadTextFile(request, readsMissingAsEmpty(route.init));
      },
      onWriteTextFile: async (raw, signal) => {
        const request = checkWriteTextFile(raw);
        const route = this.knownRouteOf(request);
        return route.session.onWriteTextFile(request, signal, proposesEditsItMakes(route.init));
      },
      onSignedIn: (signedIn) => this.info.learnSignIn(!signedIn),
      onElicitation: async (raw, signal) => {
        const request = checkElicitation(raw);
        const route = request.sessionId === undefined ? undefined : this.routeOf(request.sessionId);
        if (route !== undefined) return route.session.onElicitation(request, signal);
        // Outside our sessions (request-scoped: a sign-in while a session opens) only a web page can be offered.
        const answer = request.mode === 'url' ? await onUrlElicitation(this.options.openUrl, this.name, request, signal) : { action: 'decline' };
        this.log.info(`agent ${this.name} asked ${describeElicitation(request)} outside its sessions: ${answer.action}`);
        return answer;
      },
    };
  }

  /** A session's folders, and the agent's own tools it is told to leave to the consumer's (`offered`). */
  private sessionParams(init: acp.InitializeResponse, offered: readonly string[]): SessionFolders & { readonly _meta?: Record<string, unknown> } {
    return { ...this.folders.of(init), ...toolsThroughConsumer(offered, { edits: this.options.files !== undefined, commands: this.options.consumerTerminal !== false }) };
  }

  /** The conversation holding ACP session `sessionId`, if one does. */
  private routeOf(sessionId: string): Route | undefined {
    const held = this.live.holderOf(this.children.rootOf(sessionId));
    const session = held?.holder.conversation;
    return session === undefined || held === undefined ? undefined : { session, process: held.process, init: held.holder.init };
  }

  /** The conversation's session an agent's request names, or the ACP error for a session the bridge does not know. */
  private knownRouteOf(request: { readonly sessionId: string }): Route {
    const route = this.routeOf(request.sessionId);
    if (route === undefined) throw acp.RequestError.sessionNotFound(request.sessionId);
    return route;
  }

  private startupStep<T>(process: AgentProcess, step: string, request: Promise<T>): Promise<T> {
    return startupStep(this.name, this.options.startupTimeoutMs, process, step, request);
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
