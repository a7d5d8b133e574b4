import { ResponseError, type CancellationToken, type MessageConnection } from 'vscode-jsonrpc/node.js';
import type * as t from 'io-ts';
import { Subject } from 'rxjs';
import type { AcpAgentOptions } from '../agents/acp/acp-agent-options.js';
import { AgentRegistry, type AgentRegistryOptions } from '../agents/registry/agent-registry.js';
import { ELIZA_MODEL } from '../agents/eliza/eliza-model.js';
import type { Logger } from '../log/logger.js';
import { bridge } from '../pipeline/bridge.js';
import { decodeOrThrow } from '../protocol/decode.js';
import {
  AuthenticateParams,
  ChatSessionsParams,
  type ChatSessionsResult,
  CommandPromptsParams,
  type CommandPromptsResult,
  PrepareAgentParams,
  AgentSecretsParams,
  ProvideChatInformationParams,
  ResumeRecentParams,
  ProvideTokenCountParams,
  type AgentCommandsParams,
  type AgentInfoParams,
  type ProvideChatInformationResult,
  type ProvideTokenCountResult,
  type Message,
  type RequestId,
} from '../protocol/messages.js';
import { Methods } from '../protocol/methods.js';
import { BAD_FRAME_METHOD, TOO_LARGE_METHOD, type BadFrameParams, type TooLargeParams } from '../transport/frame-reader.js';
import { ChatRequestStream } from '../streams/chat-requests.js';
import { invalidParams } from '../streams/invalid-params.js';
import { countTokens } from '../tokens/count.js';
import type { RequestIdTracker } from './request-ids.js';
import { ProtocolErrorCodes } from '../protocol/errors.js';
import { megabytes } from '../transport/output-pressure.js';
import type { ConversationStore } from '../state/conversation-store.js';
import type { OfferedToolsStore } from '../state/offered-tools.js';
import type { AgentProcesses } from '../agents/acp/agent-processes.js';
import type { HeldSecrets } from '../agents/registry/held-secrets.js';
import { randomUUID } from 'node:crypto';
import type { ContextPolicy } from '../history/context-policy.js';
import { askQuestionsOf, documentTextOf, openUrlOf, type ClientRequester } from './client-requests.js';
import { editorFiles } from '../files/workspace-files.js';
import type { CommandPromptsServer } from '../tools/command-prompts-server.js';
import { serveAgentSessions } from './agent-session-requests.js';
import { MAX_COMMANDS } from '../agents/acp/answers/agent-commands.js';
import { chatSessionsOf } from './chat-sessions.js';
import { firstWordsOf } from '../history/first-words.js';
import type { ChatRequest, ResponseEvent } from '../events/chat-events.js';
import { MissedAnswers } from './missed-answers.js';
import { AgentNews } from './agent-news.js';
import { canonicalJson } from '../protocol/canonical-json.js';

/** What a workspace's bridge runs with: the settings of the window(s) whose folders it serves. */
export interface WorkspaceOptions extends Omit<AgentRegistryOptions, 'acp'> {
  readonly log: Logger;
  readonly acp: Omit<AcpAgentOptions, 'log' | 'agentSessions' | 'files' | 'askPerson' | 'openUrl' | 'offeredTools' | 'processes'>;
  /** How many conversations the history keeps (the index finds the others again). */
  readonly maxConversations: number;
  readonly contextPolicy: ContextPolicy;
  /** Agents read and write the workspace's files through the bridge (ACP `fs/*`): reads see the editor, edits go through the consumer's tools. */
  readonly clientFiles: boolean;
}

/** What every workspace of one process shares: the files in the state directory, which one writer keeps. */
export interface SharedState {
  readonly store: ConversationStore;
  readonly offeredTools: OfferedToolsStore;
  /** The API keys any window of the person gave, for every workspace's agents (in memory only). */
  readonly secrets: HeldSecrets;
  /** The agents' processes, each shared by the workspaces whose definition of it is equal, whatever their folders. */
  readonly processes: AgentProcesses;
  /** What each agent's process said of it (its models, modes, options, sign-in), for every window of the person. */
  readonly news: AgentNews;
}

/** A connection served, and where its requests go back to. */
interface Served {
  readonly connection: MessageConnection;
  readonly chat: ChatRequestStream;
  open: boolean;
}

/**
 * The bridge of one workspace (its folders and its window's settings): its agents, its pipeline, and the
 * connections that speak for it: the one of the bridge on stdio, or, in the agent host, every window open
 * on it now (a reloaded window's connection takes its place). Each connection's chat requests enter the one
 * pipeline under an id of their own (`<connection>:<id>`) and their response events go back to it under the
 * id it gave; a connection that closed gets none (its turns run on). What the bridge asks of the person (an
 * editor's text, questions, a web page) goes to the connection that joined or sent a chat request last, else
 * to the newest one; what it learned of an agent goes to each, and to a window that joins later.
 */
export class WorkspaceBridge {
  private readonly served: Served[] = [];
  private readonly incoming = new Subject<ChatRequest>();
  /** A request in the pipeline → the connection it came on and the id it gave it. */
  private readonly routes = new Map<RequestId, { readonly served: Served; readonly id: RequestId; readonly messages: readonly Message[] }>();
  /** What answers whose window went away said meanwhile, for that window's next request in their chat. */
  private readonly missed = new MissedAnswers();
  /** An agent's slash commands, told to this workspace's windows only: they include its folders' own (`.claude/commands`). */
  private readonly commandNews = new AgentNews();
  private readonly agents: AgentRegistry;
  private readonly subscription;
  private commandPrompts: Promise<CommandPromptsServer> | undefined;
  private latest: Served | undefined;
  private connections = 0;
  /** Requests of the person waiting for a window of the workspace to come back. */
  private readonly awaitingWindow = new Set<() => void>();

  constructor(
    private readonly options: WorkspaceOptions,
    private readonly shared: SharedState,
  ) {
    const { log } = options;
    // An editor's text is asked of a window only if one is there (else the disk is read); the person's answers wait,
    // bounded as a call of the consumer's tools is, for a window of the workspace to come back (a reload).
    const client = this.requester(false);
    const person = this.requester(true);
    this.agents = new AgentRegistry({
      ...options,
      heldSecrets: shared.secrets,
      acp: {
        ...options.acp,
        log,
        agentSessions: shared.store,
        offeredTools: shared.offeredTools,
        processes: shared.processes,
        ...(options.clientFiles ? { files: editorFiles(documentTextOf(client, log)) } : {}),
        ...(options.acp.questions === true ? { askPerson: askQuestionsOf(person, log), openUrl: openUrlOf(person, log) } : {}),
      },
      onAgentInfo: (agent, info) => shared.news.tell(Methods.agentInfo, canonicalJson(agent), { agent, info } satisfies AgentInfoParams),
      onAgentCommands: (agent, commands) => this.commandNews.tell(Methods.agentCommands, canonicalJson(agent), { agent, commands: [...commands] } satisfies AgentCommandsParams),
    });
    const { store } = shared;
    this.subscription = bridge(this.incoming, {
      agentKeyOf: (agent) => this.agents.keyOf(agent),
      openSession: (turn) => {
        log.info(`conversation ${turn.conversationId} opens a session (request ${turn.request.id})`);
        const title = firstWordsOf(turn.request.params.messages);
        if (title !== undefined) store.rememberTitle(turn.conversationId, title);
        return this.agents.openSession(turn.request.params.agent, turn.conversationId);
      },
      history: { index: store, newId: randomUUID, maxConversations: options.maxConversations },
      contextPolicy: options.contextPolicy,
    }).subscribe({
      next: (event) => this.respond(event),
      error: (error: unknown) => log.error(`bridge pipeline failed: ${String(error)}`),
    });
  }

  /** How many chat requests are being answered (of any connection, open or not). */
  get inFlight(): number {
    return this.routes.size;
  }

  /** Serves the protocol on `connection` (not listening yet) until it closes. */
  serve(connection: MessageConnection, ids: RequestIdTracker): void {
    const { log } = this.options;
    const { store } = this.shared;
    const agents = this.agents;
    const number = ++this.connections;
    const served: Served = { connection, chat: new ChatRequestStream(connection, ids.currentId), open: true };
    this.served.push(served);
    // A window that joins is the one the person looks at (a reload's: the old extension host may linger, unseen).
    this.latest = served;
    for (const joined of this.awaitingWindow) joined();
    served.chat.requests.subscribe((request) => {
      const id = `${number}:${request.id}`;
      const { messages } = request.params;
      this.routes.set(id, { served, id: request.id, messages });
      this.latest = served;
      const show = (value: string) => served.open && served.chat.respond({ kind: 'part', requestId: request.id, part: { type: 'text', value } });
      this.missed.adopt(messages, show, (held) => this.incoming.next({ ...request, id, params: { ...request.params, messages: [...held] } }));
    });
    connection.onClose(() => {
      served.open = false;
      for (const [id, route] of this.routes) if (route.served === served) this.missed.orphan(id, route.messages);
      this.served.splice(this.served.indexOf(served), 1);
      served.chat.end();
    });

    registerModelRequests(connection);
    connection.onRequest(Methods.authenticate, async (raw: unknown): Promise<Record<string, never>> => {
      const params = invalidParams(() => decodeOrThrow(AuthenticateParams, raw));
      try {
        await agents.authenticate(params.agent, params.methodId);
      } catch (error) {
        throw new ResponseError(ProtocolErrorCodes.AgentFailed, error instanceof Error ? error.message : String(error));
      }
      return {};
    });
    connection.onRequest(Methods.commandPrompts, async (raw: unknown): Promise<CommandPromptsResult> => {
      const { commands } = invalidParams(() => decodeOrThrow(CommandPromptsParams, raw));
      // The MCP SDK loads only when first needed.
      this.commandPrompts ??= import('../tools/command-prompts-server.js').then(({ CommandPromptsServer }) => CommandPromptsServer.start(log));
      const server = await this.commandPrompts;
      server.setCommands(commands.slice(0, MAX_COMMANDS));
      return { url: server.url, authorization: server.authorization };
    });
    connection.onRequest(TOO_LARGE_METHOD, (raw: TooLargeParams) => {
      log.warn(`refused a request of ${raw.bytes} bytes (limit ${raw.limit})`);
      throw new ResponseError(ProtocolErrorCodes.InvalidRequest, tooLargeMessage(raw));
    });
    connection.onRequest(BAD_FRAME_METHOD, ({ reason }: BadFrameParams) => {
      throw new ResponseError(ProtocolErrorCodes.ParseError, `The request could not be read: ${reason}.`);
    });
    serveAgentSessions(connection, agents, store, log);
    onNotification(connection, log, Methods.prepareAgent, PrepareAgentParams, (params) => agents.prepare(params.agent));
    onNotification(connection, log, Methods.agentSecrets, AgentSecretsParams, ({ agent, names, removed }) => agents.holdSecrets(agent, names, removed));
    onNotification(connection, log, Methods.resumeRecent, ResumeRecentParams, ({ agents: definitions, sessions, withinHours }) => {
      const { cwd } = this.options.acp;
      const since = Date.now() - withinHours * 3_600_000;
      const resumed = agents.resumeRecent(definitions, store.recentAgentSessions(cwd, since), sessions);
      log.info(`the window started: ${resumed} conversation(s) of the last ${withinHours} h in ${cwd} resume ahead of their next message (at most ${sessions})`);
      // A window with no chat of its own to go on in (a new folder) gets ready the agent its person used last, anywhere.
      const used = resumed === 0 && sessions > 0 ? store.lastUsedAgent(since) : undefined;
      const prepared = used === undefined ? undefined : agents.prepareIndexed(definitions, used);
      if (prepared !== undefined) log.info(`the window started with no chat of its own: the agent used last in another window starts ahead, with a spare session here`);
    });
    connection.onRequest(Methods.chatSessions, (raw: unknown): ChatSessionsResult => {
      const params = invalidParams(() => decodeOrThrow(ChatSessionsParams, raw));
      const { cwd } = this.options.acp;
      return { sessions: chatSessionsOf(params, store.recentAgentSessions(cwd, 0), cwd, (agent) => agents.indexKeysOf(agent)) };
    });
    connection.onNotification((method) => log.debug(`ignoring unknown notification ${method}`));
    connection.onError(([error]) => log.error(`protocol error: ${error.message}`));
    this.shared.news.join(connection);
    this.commandNews.join(connection);
  }

  /**
   * The bridge's requests of a window: to the one that sent the latest chat request, else the newest. With none
   * connected, one that `waits` waits for a window to join, as long as a call of the consumer's tools may wait
   * (`toolCallTimeoutMs`, 0: no limit) or until withdrawn, then fails with words saying so.
   */
  private requester(waits: boolean): ClientRequester {
    const target = () => (this.latest?.open === true ? this.latest : this.served.at(-1));
    const limitMs = this.options.acp.toolCallTimeoutMs ?? 0;
    const joined = (token: CancellationToken | undefined) =>
      new Promise<void>((resolve, reject) => {
        const timer = limitMs > 0 ? setTimeout(() => finish(new Error(`no window of this workspace came back within ${Math.round(limitMs / 60_000)} min to answer`)), limitMs) : undefined;
        const cancelled = token?.onCancellationRequested(() => finish(new Error('withdrawn while no window was connected')));
        const finish = (error?: Error) => {
          clearTimeout(timer);
          cancelled?.dispose();
          this.awaitingWindow.delete(come);
          if (error === undefined) resolve();
          else reject(error);
        };
        const come = () => finish();
        this.awaitingWindow.add(come);
      });
    return {
      sendRequest: async (method, params, token) => {
        if (target() === undefined) {
          if (!waits) throw new Error('no window is connected');
          await joined(token);
        }
        const { connection } = target()!;
        return token === undefined ? connection.sendRequest(method, params) : connection.sendRequest(method, params, token);
      },
    };
  }

  /** No more requests come: the turns end, the agents are told to stop. */
  dispose(): void {
    this.incoming.complete();
    this.subscription.unsubscribe();
    this.agents.dispose();
    void this.commandPrompts?.then((server) => server.close());
  }

  /** A response event goes back to its connection, under its own id; one for a connection that closed goes nowhere. */
  private respond(event: ResponseEvent): void {
    const route = this.routes.get(event.requestId);
    if (route === undefined) return;
    if (event.kind !== 'part') this.routes.delete(event.requestId);
    if (route.served.open) route.served.chat.respond({ ...event, requestId: route.id });
    if (event.kind === 'part') this.missed.part(event.requestId, event.part);
    else this.missed.end(event.requestId);
  }
}

/**
 * What the person reads of a request refused unread. A chat's every request carries its whole history, so
 * the chat's next message would be refused too: only a new chat, or an earlier message edited, leaves out
 * what made it so large.
 */
function tooLargeMessage({ bytes, limit }: TooLargeParams): string {
  return (
    `The request is too large: ${bytes} bytes, over the limit of ${limit} bytes (${megabytes(limit)}). ` +
    `A chat sends its whole history with every request, so its next message would be too: start a new chat, or edit an earlier message to leave out what made it ${megabytes(bytes)}.`
  );
}

function registerModelRequests(connection: MessageConnection): void {
  connection.onRequest(Methods.provideChatInformation, (raw: unknown): ProvideChatInformationResult => {
    invalidParams(() => decodeOrThrow(ProvideChatInformationParams, raw ?? {}));
    return { models: [ELIZA_MODEL] };
  });
  connection.onRequest(Methods.provideTokenCount, (raw: unknown): ProvideTokenCountResult => {
    const params = invalidParams(() => decodeOrThrow(ProvideTokenCountParams, raw));
    return { count: countTokens(params.text) };
  });
}

/** Serves a notification of `codec`'s params; one that cannot be read is logged, naming the field (a notification has no answer). */
function onNotification<A>(connection: MessageConnection, log: Logger, method: string, codec: t.Type<A, unknown, unknown>, handle: (params: A) => void): void {
  connection.onNotification(method, (raw: unknown) => {
    let params: A;
    try {
      params = decodeOrThrow(codec, raw);
    } catch (error) {
      return log.warn(`ignored a ${method} notification: ${error instanceof Error ? error.message : String(error)}`);
    }
    handle(params);
  });
}
