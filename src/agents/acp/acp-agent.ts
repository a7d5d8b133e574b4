import * as acp from '@agentclientprotocol/sdk';
import type { Logger } from '../../log.js';
import type { AgentCommand } from '../../protocol/messages.js';
import type { AgentStream } from '../agent-stream.js';
import { BRIDGED_TOOLS_SERVER_NAME, type BridgedToolsServer } from '../../tools/bridged-tools-server.js';
import { RELAY_AUTHORIZATION_ENV, RELAY_URL_ENV } from '../../tools/relay-env.js';
import { AgentProcess } from './agent-process.js';
import { AcpSession, type AcpSessionOptions, type OpenedSession, type SessionHost } from './acp-session.js';
import type { AgentSessionIndex } from '../../state/conversation-store.js';
import type { AgentInfo } from '../../protocol/messages.js';
import { AgentInfoState, sessionModelsOf, type SessionResponse } from './agent-info.js';

export interface AcpAgentOptions extends AcpSessionOptions {
  /** Where sessions run: the user's workspace folder. */
  readonly cwd: string;
  /** How long `initialize` and `session/new` may take. */
  readonly startupTimeoutMs: number;
  /** How to run `symposium-lm mcp-relay`, for agents that take MCP servers only over stdio. */
  readonly relay: { readonly command: string; readonly args: readonly string[] };
  readonly log: Logger;
  /** The ACP session each conversation had, to resume it after its session was closed or the bridge restarted. */
  readonly agentSessions: AgentSessionIndex;
}

/** The ACP error code for "authenticate first". */
const AUTH_REQUIRED = -32000;

interface Running {
  readonly process: AgentProcess;
  readonly initialized: Promise<acp.InitializeResponse>;
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

  /** `onInfo` hears what is learned about the agent: its models, image support, context window. */
  constructor(
    private readonly command: AgentCommand,
    readonly options: AcpAgentOptions,
    onInfo: (info: AgentInfo) => void = () => {},
  ) {
    this.name = command.name;
    this.log = options.log;
    this.info = new AgentInfoState(onInfo);
  }

  openSession(conversationId: string): AcpSession {
    return new AcpSession(this, conversationId);
  }

  /**
   * An ACP session for the conversation: the one it had before, resumed (`session/resume`, else
   * `session/load`) when the agent can, else a new one, which is `fresh`: it has seen nothing.
   */
  async open(session: AcpSession, tools: BridgedToolsServer | undefined): Promise<OpenedSession> {
    const { process, initialized } = this.start();
    const init = await initialized;
    const bridged = tools === undefined ? undefined : this.mcpServerFor(tools, init);
    const mcpServers = bridged === undefined ? [] : [bridged];
    const { conversationId } = session;
    const previous = this.options.agentSessions.agentSessionOf(conversationId);
    const resumed = previous === undefined ? undefined : await this.resume(process, init, previous, mcpServers, conversationId);
    let sessionId: string;
    let response: SessionResponse;
    if (resumed !== undefined && previous !== undefined) {
      sessionId = previous;
      response = resumed;
    } else {
      const request = process.connection.agent.request(acp.methods.agent.session.new, { cwd: this.options.cwd, mcpServers });
      response = await this.startupStep(process, 'session/new', request).catch((error: unknown) => {
        throw new Error(this.explainSessionFailure(error, init));
      });
      ({ sessionId } = response as acp.NewSessionResponse);
      this.log.info(`agent ${this.name}: conversation ${conversationId} is ACP session ${sessionId}`);
    }
    this.info.learnSession(response);
    this.sessions.set(sessionId, { session, process, init });
    this.options.agentSessions.rememberAgentSession(conversationId, sessionId);
    const models = sessionModelsOf(response);
    return {
      sessionId,
      fresh: resumed === undefined,
      config: new Map(models === undefined ? [] : [[models.configId, models.current]]),
      agent: process.connection.agent,
      images: init.agentCapabilities?.promptCapabilities?.image === true,
      explain: (error) => process.explain(error),
    };
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
  ): Promise<SessionResponse | undefined> {
    const capabilities = init.agentCapabilities;
    const params = { sessionId, cwd: this.options.cwd, mcpServers };
    const how = capabilities?.sessionCapabilities?.resume != null ? acp.methods.agent.session.resume : capabilities?.loadSession === true ? acp.methods.agent.session.load : undefined;
    if (how === undefined) {
      this.log.info(`agent ${this.name} cannot resume sessions: conversation ${conversationId} goes on in a new session, told the history so far`);
      return undefined;
    }
    try {
      const { agent } = process.connection;
      const request: Promise<SessionResponse> =
        how === acp.methods.agent.session.resume ? agent.request(acp.methods.agent.session.resume, params) : agent.request(acp.methods.agent.session.load, params);
      const response = await this.startupStep(process, how, request);
      this.log.info(`agent ${this.name}: conversation ${conversationId} resumed ACP session ${sessionId} (${how})`);
      return response;
    } catch (error) {
      if (!process.alive) throw error;
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
    if (route.init.agentCapabilities?.sessionCapabilities?.close == null || !route.process.alive) return;
    route.process.connection.agent
      .request(acp.methods.agent.session.close, { sessionId })
      .catch((error: unknown) => this.log.debug(`agent ${this.name}: session/close of ${sessionId} failed: ${String(error)}`));
  }

  dispose(): void {
    this.running?.process.kill();
    this.running = undefined;
  }

  private start(): Running {
    if (this.running !== undefined && this.running.process.alive) return this.running;
    const process = new AgentProcess(this.command, { cwd: this.options.cwd, log: this.log }, {
      onUpdate: ({ sessionId, update }) => {
        if (update.sessionUpdate === 'usage_update') this.info.learnUsage(update);
        if (update.sessionUpdate === 'config_option_update') this.info.learnConfigOptions(update.configOptions);
        const route = this.sessions.get(sessionId);
        if (route === undefined) this.log.debug(`agent ${this.name}: update for unknown session ${sessionId} dropped`);
        else route.session.onUpdate(update);
      },
      onPermission: (request, signal) => {
        const route = this.sessions.get(request.sessionId);
        if (route !== undefined) return route.session.onPermission(request, signal);
        this.log.debug(`agent ${this.name}: permission request for unknown session ${request.sessionId} cancelled`);
        return Promise.resolve({ outcome: { outcome: 'cancelled' } });
      },
    });
    void process.ended.then(() => {
      for (const [sessionId, route] of this.sessions) {
        if (route.process !== process) continue;
        this.sessions.delete(sessionId);
        route.session.onProcessEnded();
      }
    });
    const initialize = process.connection.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
      clientInfo: { name: 'symposium-lm', version: '0.1.0' },
    });
    const initialized = this.startupStep(process, 'initialize', initialize).then((init) => {
      if (init.protocolVersion !== acp.PROTOCOL_VERSION) {
        throw new Error(`Agent "${this.name}" speaks ACP protocol version ${init.protocolVersion}; this bridge speaks version ${acp.PROTOCOL_VERSION}.`);
      }
      this.info.learnInitialize(init);
      return init;
    });
    // A failed start leaves nothing running; the next request starts the agent again.
    initialized.catch(() => process.kill());
    this.running = { process, initialized };
    return this.running;
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
      throw error instanceof acp.RequestError ? error : await process.explain(error, step);
    });
    const exit = process.ended.then((how): never => {
      throw new Error(`Agent "${this.name}" ${process.describe(how, step)}`);
    });
    return Promise.race([answered, timeout, exit]).finally(() => clearTimeout(timer));
  }

  private explainSessionFailure(error: unknown, init: acp.InitializeResponse): string {
    if (error instanceof acp.RequestError && error.code === AUTH_REQUIRED) {
      const methods = (init.authMethods ?? []).map((m) => m.name).join(', ');
      return `Agent "${this.name}" needs authentication${methods === '' ? '' : ` (${methods})`}. Sign in with the agent's own command line, then try again.`;
    }
    if (error instanceof acp.RequestError) return `Agent "${this.name}" could not open a session: ${error.message}`;
    return error instanceof Error ? error.message : String(error);
  }
}
