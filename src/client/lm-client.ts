import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  CancellationTokenSource,
  createMessageConnection,
  type CancellationToken,
  type Message as RpcMessage,
  type MessageConnection,
  type MessageReader,
  type MessageWriter,
  type NotificationMessage,
  type RequestMessage,
  ResponseError,
} from 'vscode-jsonrpc/node.js';
import { isRight } from 'fp-ts/lib/Either.js';
import { FrameReader } from '../transport/frame-reader.js';
import { FrameWriter } from '../transport/frame-writer.js';
import { decodeOrThrow } from '../protocol/decode.js';
import { ProtocolErrorCodes } from '../protocol/errors.js';
import { sameJson } from '../protocol/canonical-json.js';
import {
  AgentCommandsParams,
  AgentInfoParams,
  type CommandPromptsParams,
  CommandPromptsResult,
  type AuthenticateParams,
  AskQuestionsParams,
  type AskQuestionsResult,
  OpenUrlParams,
  type OpenUrlResult,
  DocumentTextParams,
  type DocumentTextResult,
  type PrepareAgentParams,
  type AgentSecretsParams,
  ProvideChatInformationResult,
  type ResumeRecentParams,
  type ChatSessionsParams,
  ChatSessionsResult,
  ProvideTokenCountResult,
  ResponsePartParams,
  type Message,
  type ProvideChatResponseParams,
  type RequestId,
  type ResponsePart,
  type ToolDefinition,
} from '../protocol/messages.js';
import {
  ContinueAgentSessionResult,
  ListAgentSessionsResult,
  type ContinueAgentSessionParams,
  type DeleteAgentSessionParams,
  type ListAgentSessionsParams,
} from '../protocol/agent-sessions.js';
import { Methods } from '../protocol/methods.js';
import { JoinHostResult, type JoinHostParams } from '../protocol/host-window.js';
import { cutToolOutputs } from './tool-output-cut.js';

/** The path of the `symposium-lm` CLI next to this module (compiled layout). */
export const CLI_PATH = fileURLToPath(new URL('../cli/main.js', import.meta.url));

export interface SpawnOptions {
  /** The CLI to run (default: the one next to this module). */
  readonly cliPath?: string;
  /** Arguments after `vscodelm`. */
  readonly args?: readonly string[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Where the bridge's log goes (default: this process's stderr). */
  readonly stderr?: 'inherit' | 'pipe' | 'ignore';
}

/**
 * The consumer side of the protocol, as the VS Code extension speaks it: sends requests, routes each
 * `lm/responsePart` to the request it belongs to, and decodes what comes back.
 */
export class LmClient {
  private readonly partHandlers = new Map<RequestId, (part: ResponsePart) => void>();
  private readonly agentInfoHandlers = new Set<(params: AgentInfoParams) => void>();
  private readonly agentCommandsHandlers = new Set<(params: AgentCommandsParams) => void>();
  private lastRequestId: RequestId | undefined;
  /** The tool list last sent, and its id: a request offering the same tools names it instead. */
  private sentTools: { readonly id: number; readonly tools: readonly ToolDefinition[] } | undefined;
  readonly connection: MessageConnection;

  constructor(reader: MessageReader, writer: MessageWriter) {
    this.connection = createMessageConnection(this.routingParts(reader), this.recordingIds(writer));
    // Parts that routingParts passed on (those that do not decode) fail here, as any handler's error does.
    this.connection.onNotification(Methods.responsePart, (raw: unknown) => this.deliverPart(decodeOrThrow(ResponsePartParams, raw)));
    this.connection.onNotification(Methods.agentInfo, (raw: unknown) => {
      const params = decodeOrThrow(AgentInfoParams, raw);
      for (const handler of this.agentInfoHandlers) handler(params);
    });
    this.connection.onNotification(Methods.agentCommands, (raw: unknown) => {
      const params = decodeOrThrow(AgentCommandsParams, raw);
      for (const handler of this.agentCommandsHandlers) handler(params);
    });
    this.connection.listen();
  }

  /** `symposium/commandPrompts`: the bridge serves these commands as an MCP server's prompts; where it listens. */
  async commandPrompts(params: CommandPromptsParams): Promise<CommandPromptsResult> {
    return decodeOrThrow(CommandPromptsResult, await this.connection.sendRequest(Methods.commandPrompts, params));
  }

  /** Hears an agent's slash commands whenever they change. */
  onAgentCommands(handler: (params: AgentCommandsParams) => void): { dispose(): void } {
    this.agentCommandsHandlers.add(handler);
    return { dispose: () => this.agentCommandsHandlers.delete(handler) };
  }

  /** Hears what the bridge learns about agents (their models, image support, context window). */
  onAgentInfo(handler: (params: AgentInfoParams) => void): { dispose(): void } {
    this.agentInfoHandlers.add(handler);
    return { dispose: () => this.agentInfoHandlers.delete(handler) };
  }

  /**
   * Answers the bridge's `symposium/documentText`: the text an editor shows of a file, for an agent's reads.
   * A client that does not answer it (the CLI) leaves the bridge to read the disk.
   */
  onDocumentText(handler: (path: string) => string | undefined): { dispose(): void } {
    return this.connection.onRequest(Methods.documentText, (raw: unknown): DocumentTextResult => {
      const { path } = decodeOrThrow(DocumentTextParams, raw);
      return { text: handler(path) ?? null };
    });
  }

  /**
   * Answers the bridge's `symposium/askQuestions`: an agent's questions asked of the person where the chat
   * cannot show them. A client that does not answer it (the CLI) leaves the questions declined.
   */
  onAskQuestions(handler: (params: AskQuestionsParams, token: CancellationToken) => Promise<AskQuestionsResult>): { dispose(): void } {
    return this.connection.onRequest(Methods.askQuestions, (raw: unknown, token: CancellationToken) => handler(decodeOrThrow(AskQuestionsParams, raw), token));
  }

  /**
   * Answers the bridge's `symposium/openUrl`: a web page an agent asks the person to open, opened once they
   * agree. A client that does not answer it (the CLI) leaves the request declined.
   */
  onOpenUrl(handler: (params: OpenUrlParams, token: CancellationToken) => Promise<OpenUrlResult>): { dispose(): void } {
    return this.connection.onRequest(Methods.openUrl, (raw: unknown, token: CancellationToken) => handler(decodeOrThrow(OpenUrlParams, raw), token));
  }

  /** Spawns `symposium-lm vscodelm` with this Node runtime and connects to it. */
  static spawn(options: SpawnOptions = {}): { client: LmClient; child: ChildProcess } {
    const { cliPath = CLI_PATH, args = [], cwd, env, stderr = 'inherit' } = options;
    // Not detached: on Windows the bridge then stays in its parent's job object and ends with it; no console window.
    const child = spawn(process.execPath, [cliPath, 'vscodelm', ...args], { stdio: ['pipe', 'pipe', stderr], cwd, env, windowsHide: true });
    // The bridge's messages are handed on in the data event that brought them: vscode-jsonrpc's reader queues
    // each one behind a semaphore (a setImmediate) and two promises first, on the path of every part.
    const client = new LmClient(new FrameReader(child.stdout!, Number.POSITIVE_INFINITY), new FrameWriter(child.stdin!));
    // vscode-jsonrpc leaves pending requests waiting when the peer dies; disposing rejects them.
    child.once('exit', () => client.dispose());
    return { client, child };
  }

  /** Speaks to the agent host on `socket`; its first request must be `joinHost`. */
  static connect(socket: Socket): LmClient {
    const client = new LmClient(new FrameReader(socket, Number.POSITIVE_INFINITY), new FrameWriter(socket));
    socket.once('close', () => client.dispose());
    return client;
  }

  /** `symposium/window`, the first message to the agent host: its token and what belongs to this window. */
  async joinHost(params: JoinHostParams): Promise<JoinHostResult> {
    return decodeOrThrow(JoinHostResult, await this.connection.sendRequest(Methods.joinHost, params), 'result');
  }

  /**
   * Streams one response: `onPart` sees each part; resolves when the response is complete. Tools equal to
   * those of the last request that carried any are not sent again: the request names them by their id.
   * The tools must not be changed once passed here. A tool result too long for a request is cut, its head
   * and tail kept and the cut said in words (`cutToolOutputs`), the same way in every request of the chat.
   */
  async provideChatResponse(asked: ProvideChatResponseParams, onPart: (part: ResponsePart) => void, token?: CancellationToken): Promise<void> {
    const messages = cutToolOutputs(asked.messages);
    const params = messages === asked.messages ? asked : { ...asked, messages };
    const tools = params.options?.tools;
    if (tools === undefined || tools.length === 0 || params.options?.toolListId !== undefined) return this.sendChatRequest(params, onPart, token);
    const sent = this.sentTools;
    const unchanged = sent !== undefined && sameJson(tools, sent.tools);
    const toolListId = unchanged ? sent.id : (sent?.id ?? 0) + 1;
    const carrying = { ...params, options: { ...params.options, toolListId } };
    if (!unchanged) {
      this.sentTools = { id: toolListId, tools };
      return this.sendChatRequest(carrying, onPart, token);
    }
    const { tools: _carried, ...naming } = carrying.options;
    try {
      return await this.sendChatRequest({ ...params, options: naming }, onPart, token);
    } catch (error) {
      // The bridge does not keep them: it refused the request that carried them, or it forgot them.
      if (!(error instanceof ResponseError && error.code === ProtocolErrorCodes.UnknownToolList)) throw error;
      return this.sendChatRequest(carrying, onPart, token);
    }
  }

  private async sendChatRequest(params: ProvideChatResponseParams, onPart: (part: ResponsePart) => void, token?: CancellationToken): Promise<void> {
    const response = this.connection.sendRequest(Methods.provideChatResponse, params, token ?? new CancellationTokenSource().token);
    const id = this.lastRequestId!;
    this.partHandlers.set(id, onPart);
    try {
      await response;
    } finally {
      this.partHandlers.delete(id);
    }
  }

  /** Like provideChatResponse, collecting the parts. */
  async collectChatResponse(params: ProvideChatResponseParams, token?: CancellationToken): Promise<ResponsePart[]> {
    const parts: ResponsePart[] = [];
    await this.provideChatResponse(params, (part) => parts.push(part), token);
    return parts;
  }

  async provideChatInformation(silent = true): Promise<ProvideChatInformationResult> {
    return decodeOrThrow(ProvideChatInformationResult, await this.connection.sendRequest(Methods.provideChatInformation, { silent }), 'result');
  }

  async provideTokenCount(modelId: string, text: string | Message): Promise<number> {
    return decodeOrThrow(ProvideTokenCountResult, await this.connection.sendRequest(Methods.provideTokenCount, { modelId, text }), 'result').count;
  }

  /** The agent's own sessions in the workspace's folders (`symposium/listAgentSessions`), newest first. */
  async listAgentSessions(params: ListAgentSessionsParams): Promise<ListAgentSessionsResult> {
    return decodeOrThrow(ListAgentSessionsResult, await this.connection.sendRequest(Methods.listAgentSessions, params), 'result');
  }

  /** Deletes one of the agent's sessions (`symposium/deleteAgentSession`); rejects with -32001 and a sentence when it cannot. */
  async deleteAgentSession(params: DeleteAgentSessionParams): Promise<void> {
    await this.connection.sendRequest(Methods.deleteAgentSession, params);
  }

  /** Opens one of the agent's sessions to continue it in a new chat: the exchanges that chat shows (`symposium/continueAgentSession`). */
  async continueAgentSession(params: ContinueAgentSessionParams): Promise<ContinueAgentSessionResult> {
    return decodeOrThrow(ContinueAgentSessionResult, await this.connection.sendRequest(Methods.continueAgentSession, params), 'result');
  }

  /** Signs the agent in with one of its ACP methods (`symposium/authenticate`); rejects with -32001 naming the fault. */
  async authenticate(params: AuthenticateParams, token?: CancellationToken): Promise<void> {
    await this.connection.sendRequest(Methods.authenticate, params, token ?? new CancellationTokenSource().token);
  }

  /** Tells the bridge the API keys the person set for an agent (`symposium/agentSecrets`), which it holds for every window's requests. */
  holdSecrets(params: AgentSecretsParams): void {
    void this.connection.sendNotification(Methods.agentSecrets, params);
  }

  /** Tells the bridge an agent's model was picked (`symposium/prepareAgent`): it starts the agent ahead of the first request. */
  prepareAgent(params: PrepareAgentParams): void {
    void this.connection.sendNotification(Methods.prepareAgent, params);
  }

  /** The agent sessions of the chats used lately in the bridge's workspace with one of `params.agents`, latest first (`symposium/chatSessions`). */
  async chatSessions(params: ChatSessionsParams, token?: CancellationToken): Promise<ChatSessionsResult> {
    return decodeOrThrow(ChatSessionsResult, await this.connection.sendRequest(Methods.chatSessions, params, token ?? new CancellationTokenSource().token), 'result');
  }

  /** Tells the bridge the window started (`symposium/resumeRecent`): it resumes the latest conversations' sessions ahead. */
  resumeRecent(params: ResumeRecentParams): void {
    void this.connection.sendNotification(Methods.resumeRecent, params);
  }

  dispose(): void {
    this.connection.dispose();
  }

  /**
   * Hands each `lm/responsePart` to its request as it is read. vscode-jsonrpc queues every message it
   * reads and handles the queue after a `setImmediate`, which cost each part, the first one included,
   * another turn of the event loop (issue 16: ~0.15 ms of row 1). Parts go ahead of nothing they must
   * follow: the response that ends their request comes after them and still takes the queue.
   */
  private routingParts(reader: MessageReader): MessageReader {
    return {
      onError: reader.onError,
      onClose: reader.onClose,
      onPartialMessage: reader.onPartialMessage,
      dispose: () => reader.dispose(),
      listen: (callback) =>
        reader.listen((message) => {
          const notification = message as Partial<NotificationMessage>;
          if (notification.method === Methods.responsePart && !('id' in message)) {
            const decoded = ResponsePartParams.decode(notification.params);
            if (isRight(decoded)) return this.deliverPart(decoded.right);
          }
          callback(message);
        }),
    };
  }

  private deliverPart({ requestId, part }: ResponsePartParams): void {
    try {
      this.partHandlers.get(requestId)?.(part);
    } catch {
      // A handler's failure is its own (VS Code's progress closed under it): reading goes on, as
      // vscode-jsonrpc goes on after a notification handler throws.
    }
  }

  /**
   * vscode-jsonrpc does not tell a caller its request's id, but parts are addressed by it. `sendRequest`
   * writes the request synchronously, so the id last written is the id of the request just sent.
   */
  private recordingIds(writer: MessageWriter): MessageWriter {
    return {
      onError: writer.onError,
      onClose: writer.onClose,
      end: () => writer.end(),
      dispose: () => writer.dispose(),
      write: (message: RpcMessage) => {
        const request = message as Partial<RequestMessage>;
        if (request.method === Methods.provideChatResponse && request.id !== undefined && request.id !== null) this.lastRequestId = request.id;
        return writer.write(message);
      },
    };
  }
}

/** The text of a response, as a consumer shows it. */
export function textOfParts(parts: readonly ResponsePart[]): string {
  return parts.map((part) => (part.type === 'text' ? part.value : '')).join('');
}
