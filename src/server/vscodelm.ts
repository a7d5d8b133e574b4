import { createMessageConnection, ResponseError, type MessageConnection } from 'vscode-jsonrpc/node.js';
import type { Readable, Writable } from 'node:stream';
import type * as t from 'io-ts';
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
} from '../protocol/messages.js';
import { Methods } from '../protocol/methods.js';
import { BAD_FRAME_METHOD, FrameReader, TOO_LARGE_METHOD, type BadFrameParams, type TooLargeParams } from '../transport/frame-reader.js';
import { FrameWriter } from '../transport/frame-writer.js';
import { ChatRequestStream } from '../streams/chat-requests.js';
import { invalidParams } from '../streams/invalid-params.js';
import { countTokens } from '../tokens/count.js';
import { RequestIdTracker } from './request-ids.js';
import { ProtocolErrorCodes } from '../protocol/errors.js';
import { OutputPressure } from '../transport/output-pressure.js';
import { ConversationStore } from '../state/conversation-store.js';
import { OfferedToolsStore } from '../state/offered-tools.js';
import { randomUUID } from 'node:crypto';
import type { ContextPolicy } from '../history/context-policy.js';
import { dispatchInMicrotasks } from './dispatch-in-microtasks.js';
import { askQuestionsOf, documentTextOf, openUrlOf } from './client-requests.js';
import { editorFiles } from '../files/workspace-files.js';
import type { CommandPromptsServer } from '../tools/command-prompts-server.js';
import { serveAgentSessions } from './agent-session-requests.js';
import { MAX_COMMANDS } from '../agents/acp/answers/agent-commands.js';
import { chatSessionsOf } from './chat-sessions.js';
import { firstWordsOf } from '../history/first-words.js';

export interface VscodeLmOptions extends Omit<AgentRegistryOptions, 'acp'> {
  readonly input: Readable;
  readonly output: Writable;
  readonly log: Logger;
  readonly acp: Omit<AcpAgentOptions, 'log' | 'agentSessions' | 'gate' | 'files' | 'askPerson' | 'openUrl'>;
  /** Requests larger than this are refused unread. */
  readonly maxMessageBytes: number;
  /** Where the index of conversations is kept across restarts; in memory only without it. */
  readonly stateDir: string | undefined;
  /** How many conversations the history keeps (the index finds the others again). */
  readonly maxConversations: number;
  readonly contextPolicy: ContextPolicy;
  /** Agents read and write the workspace's files through the bridge (ACP `fs/*`): reads see the editor, edits go through the consumer's tools. */
  readonly clientFiles: boolean;
}

/** How much unread output may wait for the consumer before agents are held back. */
const OUTPUT_HIGH_WATER_BYTES = 4 * 1024 * 1024;

/**
 * Serves the seed's protocol on a pair of streams until the input closes; resolves then, once every
 * agent has been told to stop.
 */
export function serveVscodeLm(options: VscodeLmOptions): Promise<void> {
  const { log } = options;
  dispatchInMicrotasks();
  const ids = new RequestIdTracker();
  const pressure = new OutputPressure(options.output, OUTPUT_HIGH_WATER_BYTES);
  const connection = createMessageConnection(new FrameReader(options.input, options.maxMessageBytes), new FrameWriter(options.output), connectionLogger(log), {
    messageStrategy: ids.strategy,
  });
  const store = new ConversationStore(options.stateDir, log);
  // The extension ends the bridge with SIGTERM (a reload, a restart): what is pending is written on the way out.
  const flushAtExit = () => store.flush();
  process.once('exit', flushAtExit);
  const agents = new AgentRegistry({
    ...options,
    acp: {
      ...options.acp,
      log,
      agentSessions: store,
      offeredTools: new OfferedToolsStore(options.stateDir, log),
      gate: (stdout) => pressure.gate(stdout),
      ...(options.clientFiles ? { files: editorFiles(documentTextOf(connection, log)) } : {}),
      ...(options.acp.questions === true ? { askPerson: askQuestionsOf(connection, log), openUrl: openUrlOf(connection, log) } : {}),
    },
    onAgentInfo: (agent, info) => void connection.sendNotification(Methods.agentInfo, { agent, info } satisfies AgentInfoParams),
    onAgentCommands: (agent, commands) => void connection.sendNotification(Methods.agentCommands, { agent, commands: [...commands] } satisfies AgentCommandsParams),
  });
  const chat = new ChatRequestStream(connection, ids.currentId);

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
  let commandPrompts: Promise<CommandPromptsServer> | undefined;
  connection.onRequest(Methods.commandPrompts, async (raw: unknown): Promise<CommandPromptsResult> => {
    const { commands } = invalidParams(() => decodeOrThrow(CommandPromptsParams, raw));
    // The MCP SDK loads only when first needed.
    commandPrompts ??= import('../tools/command-prompts-server.js').then(({ CommandPromptsServer }) => CommandPromptsServer.start(log));
    const server = await commandPrompts;
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
    const { cwd } = options.acp;
    const resumed = agents.resumeRecent(definitions, store.recentAgentSessions(cwd, Date.now() - withinHours * 3_600_000), sessions);
    log.info(`the window started: ${resumed} conversation(s) of the last ${withinHours} h in ${cwd} resume ahead of their next message (at most ${sessions})`);
  });
  connection.onRequest(Methods.chatSessions, (raw: unknown): ChatSessionsResult => {
    const params = invalidParams(() => decodeOrThrow(ChatSessionsParams, raw));
    const { cwd } = options.acp;
    return { sessions: chatSessionsOf(params, store.recentAgentSessions(cwd, 0), cwd, (agent) => agents.indexKeysOf(agent)) };
  });
  connection.onNotification((method) => log.debug(`ignoring unknown notification ${method}`));
  connection.onError(([error]) => log.error(`protocol error: ${error.message}`));

  const subscription = bridge(chat.requests, {
    agentKeyOf: (agent) => agents.keyOf(agent),
    openSession: (turn) => {
      log.info(`conversation ${turn.conversationId} opens a session (request ${turn.request.id})`);
      const title = firstWordsOf(turn.request.params.messages);
      if (title !== undefined) store.rememberTitle(turn.conversationId, title);
      return agents.openSession(turn.request.params.agent, turn.conversationId);
    },
    history: { index: store, newId: randomUUID, maxConversations: options.maxConversations },
    contextPolicy: options.contextPolicy,
  }).subscribe({
    next: (event) => chat.respond(event),
    error: (error: unknown) => log.error(`bridge pipeline failed: ${String(error)}`),
  });

  return new Promise((resolve) => {
    connection.onClose(() => {
      chat.end();
      subscription.unsubscribe();
      agents.dispose();
      void commandPrompts?.then((server) => server.close());
      store.flush();
      process.off('exit', flushAtExit);
      resolve();
    });
    connection.listen();
  });
}

/**
 * What the person reads of a request refused unread. A chat's every request carries its whole history, so
 * the chat's next message would be refused too: only a new chat, or an earlier message edited, leaves out
 * what made it so large.
 */
function tooLargeMessage({ bytes, limit }: TooLargeParams): string {
  const mb = (n: number) => `${Number((n / (1024 * 1024)).toFixed(1))} MB`;
  return (
    `The request is too large: ${bytes} bytes, over the limit of ${limit} bytes (${mb(limit)}). ` +
    `A chat sends its whole history with every request, so its next message would be too: start a new chat, or edit an earlier message to leave out what made it ${mb(bytes)}.`
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

function connectionLogger(log: Logger) {
  return { error: log.error, warn: log.warn, info: log.debug, log: log.trace };
}
