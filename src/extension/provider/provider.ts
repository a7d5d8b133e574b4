/**
 * The LanguageModelChatProvider: VS Code's calls in, the bridge's protocol out. Conversion lives in
 * `convert.ts`, the models in `models.ts`, the process in `bridge-process.ts`; this file only wires
 * them to VS Code's types.
 */
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { STATEFUL_MARKER, statefulMarkerData } from '../../history/stateful-marker.js';
import { ResponseError } from 'vscode-jsonrpc/node.js';
import { ProtocolErrorCodes } from '../../protocol/errors.js';
import { countTokens } from '../../tokens/count.js';
import { BridgeExitedError, type BridgeProcess } from './bridge-process.js';
import { fromWireResponsePart, toWireContent, toWireRequest, type ConvertOptions, type ResponsePartFactory } from './convert.js';
import type { ExtensionLog } from '../../log/extension-log.js';
import { findModel, modelsOf, requestConfig, type AgentState, type ModelEntry, type ModelSettings, type ModelWithAgent } from '../agents/models.js';
import { offeredTools, type ConsumerToolsChoice } from './offered-tools.js';
import { requestRecorder } from './request-recorder.js';
import { sideRequestAnswer } from './side-requests.js';
import { signInNeeded, type SignInUi } from '../keys/sign-in.js';
import { ensureAgentInstalled } from '../agents/archive-progress.js';
import { startingAgentOf } from '../../protocol/starting-notice.js';
import type { AgentDefinition, ResponsePart } from '../../protocol/messages.js';
import { canonicalJson } from '../../protocol/canonical-json.js';

/** `LanguageModelThinkingPart` is a proposed API: present in some VS Code builds, absent in others. */
type ThinkingPartClass = new (value: string | string[], id?: string, metadata?: { readonly [key: string]: unknown }) => object;

export function thinkingPartClass(): ThinkingPartClass | undefined {
  return (vscode as unknown as { LanguageModelThinkingPart?: ThinkingPartClass }).LanguageModelThinkingPart;
}

export interface ProviderDeps {
  readonly bridge: BridgeProcess;
  /** The models' settings, read afresh (the configuration, the agents' commands looked up on PATH). */
  readonly settings: () => ModelSettings;
  /** Which of the consumer's tools reach agents (`symposium.consumerTools`). */
  readonly consumerTools: () => ConsumerToolsChoice;
  readonly log: ExtensionLog;
  /** How to offer a sign-in when an agent asks for one (none: the error says so). */
  readonly signIn?: SignInUi;
  /** An agent the picker marks as needing a sign-in answered: it no longer does. */
  readonly signedIn?: (agent: AgentDefinition) => void;
  /** An agent's answer went through to its end. */
  readonly onAnswered?: () => void;
  /** An agent's model was used (a request came for it): its slash commands are the current ones. */
  readonly onAgentUsed?: (agent: AgentDefinition) => void;
}

/**
 * `statusIcon` (proposed in `chatProvider`) shows an agent's state in the picker where the running VS Code
 * honours it; a host that does not ignores the field, and the `detail` says the same in words.
 */
const STATUS_ICONS: Partial<Record<AgentState['kind'], string>> = { 'not-installed': 'warning', 'sign-in': 'account' };

export class SymposiumChatProvider implements vscode.LanguageModelChatProvider<vscode.LanguageModelChatInformation>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly record = requestRecorder(process.env.SYMPOSIUM_RECORD_REQUESTS);
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  /**
   * The ready models requests found, until the settings change. Finding one reads the configuration, looks
   * up every agent's command on PATH and builds every model: 0.2–2 ms that each request would otherwise
   * add before its first part. A model that was not ready (an agent not installed) is looked up afresh.
   */
  private readonly ready = new Map<string, ModelWithAgent>();

  constructor(private readonly deps: ProviderDeps) {}

  /**
   * The window started: the latest `sessions` conversations of this workspace with a ready agent, used in the
   * last `withinHours`, resume their sessions ahead of their next message (the chats VS Code restored).
   */
  resumeRecent(sessions: number, withinHours: number): void {
    if (sessions <= 0) return;
    const agents = new Map<string, AgentDefinition>();
    for (const { agent, state } of modelsOf(this.deps.settings())) if ('mcp_server' in agent && state.kind === 'ready') agents.set(canonicalJson(agent), agent);
    if (agents.size === 0) return;
    this.deps.log.info(`the window started: the latest ${sessions} conversation(s) of the last ${withinHours} h resume ahead`);
    this.deps.bridge.resumeRecent({ agents: [...agents.values()], sessions, withinHours });
  }

  /** The settings changed: VS Code asks for the models again. */
  refresh(): void {
    this.ready.clear();
    this.changed.fire();
  }

  provideLanguageModelChatInformation(): ModelEntry[] {
    return modelsOf(this.deps.settings()).map(({ model, state }) => {
      const icon = STATUS_ICONS[state.kind];
      return icon === undefined ? model : { ...model, statusIcon: new vscode.ThemeIcon(icon) };
    });
  }

  provideLanguageModelChatResponse(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    return withoutStack(async () => {
      const entry = this.ready.get(model.id) ?? findModel(this.deps.settings(), model.id);
      if (entry?.state.kind === 'ready') this.ready.set(model.id, entry);
      if (entry === undefined) throw vscode.LanguageModelError.NotFound(`Symposium has no model "${model.id}" (any more): check the symposium.agents setting.`);
      this.deps.onAgentUsed?.(entry.agent);
      if (entry.state.kind === 'not-installed') {
        throw new Error(`${entry.setting?.name ?? model.name} is not installed here: ${entry.state.reason}. Install it, then try again (Symposium: Manage Agents shows what each agent needs).`);
      }
      // An agent the registry distributes as a download is installed on first use.
      if (entry.setting !== undefined) await ensureAgentInstalled(vscode, entry.setting, token);
      try {
        await this.respond(model, entry, messages, options, progress, token);
        this.answered(entry);
      } catch (error) {
        // The agent asked to sign in (the bridge said so before the request failed): say so at once, and offer it.
        const now = findModel(this.deps.settings(), model.id);
        if (token.isCancellationRequested || now?.state.kind !== 'sign-in' || now.setting === undefined) throw error;
        throw signInNeeded(this.deps.signIn, (params) => this.deps.bridge.authenticate(params), { setting: now.setting, definition: now.agent }, now.state.methods);
      }
    });
  }

  /** A request answered: an agent the picker marks as needing a sign-in no longer does. */
  private answered(entry: ModelWithAgent): void {
    if (entry.state.kind === 'sign-in') this.deps.signedIn?.(entry.agent);
  }

  private async respond(
    model: vscode.LanguageModelChatInformation,
    entry: ModelWithAgent,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const { bridge, log } = this.deps;
    const converted = toWireRequest(messages, options, this.convertOptions());
    const tools = converted.options.tools === undefined ? undefined : offeredTools(converted.options.tools, this.deps.consumerTools());
    const request = { ...converted, options: { ...converted.options, ...(tools === undefined ? {} : { tools }) } };
    log.debug(`request to ${model.id}: ${request.messages.length} messages, ${request.options.tools?.length ?? 0} tools`);
    this.record?.({
      modelId: model.id,
      messages: request.messages,
      tools: request.options.tools?.map((t) => t.name) ?? [],
      modelOptionKeys: Object.keys(options.modelOptions ?? {}),
      modelConfiguration: (options as { modelConfiguration?: unknown }).modelConfiguration,
    });
    const answer = sideRequestAnswer(request.messages);
    if (answer !== undefined) {
      log.debug(`answered one of Copilot's side requests (a title, progress messages) without the agent`);
      // Copilot asks the first model picked in a window for progress messages: its agent starts now, not at the first message.
      if ('mcp_server' in entry.agent && entry.state.kind === 'ready') bridge.prepareAgent({ agent: entry.agent });
      progress.report(new vscode.LanguageModelTextPart(answer));
      return;
    }
    // The person's per-model options (VS Code 1.139's `modelConfiguration`, absent from older typings and hosts).
    const config = requestConfig(entry, (options as { modelConfiguration?: unknown }).modelConfiguration);
    const factory = responsePartFactory();
    // Copilot sends this back with the history, re-rendered or summarised, so the bridge finds the conversation.
    const marker = randomUUID();
    progress.report(new vscode.LanguageModelDataPart(statefulMarkerData(model.id, marker), STATEFUL_MARKER));
    const starting = new StartingProgress(token);
    const sentAt = performance.now();
    try {
      await bridge.provideChatResponse(
        { modelId: model.id, messages: request.messages, agent: entry.agent, options: request.options, marker, ...(config === undefined ? {} : { config }) },
        (part) => {
          if (token.isCancellationRequested) return;
          starting.onPart(part);
          const converted = fromWireResponsePart(part, factory);
          if (converted === undefined) log.trace(`dropped a ${part.type} part: this VS Code cannot show it`);
          else progress.report(converted);
        },
        starting.token,
      );
      // With the request's own debug line, where a turn's time goes: the bridge and the agent, or the consumer between turns.
      log.debug(`answered by ${model.id} in ${(performance.now() - sentAt).toFixed(1)} ms`);
      if (!token.isCancellationRequested) this.deps.onAnswered?.();
    } catch (error) {
      throw consumerError(error, token);
    } finally {
      starting.dispose();
    }
  }

  /** Local and cheap: consumers ask for every part of every prompt. */
  async provideTokenCount(_model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    if (typeof text === 'string') return countTokens(text);
    return countTokens({ role: 'user', content: toWireContent(text.content, { isThinking: this.convertOptions().isThinking }) });
  }

  dispose(): void {
    this.changed.dispose();
  }

  private convertOptions(): ConvertOptions {
    const Thinking = thinkingPartClass();
    return {
      isThinking: Thinking === undefined ? undefined : (part) => part instanceof Thinking,
      log: (message) => this.deps.log.warn(message),
    };
  }
}

/**
 * While the bridge says the agent is starting (its first part is the starting notice), a progress
 * notification says so too; cancelling it cancels the request. It closes with the next part or the end.
 */
class StartingProgress {
  private readonly source = new vscode.CancellationTokenSource();
  private readonly link: vscode.Disposable;
  private close: (() => void) | undefined;
  private seen = false;

  constructor(request: vscode.CancellationToken) {
    this.link = request.onCancellationRequested(() => this.source.cancel());
    if (request.isCancellationRequested) this.source.cancel();
  }

  /** The request's token, also cancelled from the notification. */
  get token(): vscode.CancellationToken {
    return this.source.token;
  }

  onPart(part: ResponsePart): void {
    const first = !this.seen;
    this.seen = true;
    const agent = first && part.type === 'text' ? startingAgentOf(part.value) : undefined;
    if (agent === undefined) return this.end();
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Starting ${agent}…`, cancellable: true }, (_progress, cancel) => {
      cancel.onCancellationRequested(() => this.source.cancel());
      return new Promise<void>((resolve) => (this.close = resolve));
    });
  }

  dispose(): void {
    this.end();
    this.link.dispose();
    this.source.dispose();
  }

  private end(): void {
    this.close?.();
    this.close = undefined;
  }
}

function responsePartFactory(): ResponsePartFactory<vscode.LanguageModelResponsePart> {
  const Thinking = thinkingPartClass();
  return {
    text: (value) => new vscode.LanguageModelTextPart(value),
    toolCall: (callId, name, input) => new vscode.LanguageModelToolCallPart(callId, name, input),
    data: (data, mimeType) => new vscode.LanguageModelDataPart(data, mimeType),
    thinking: Thinking === undefined ? undefined : (value) => new Thinking(value) as vscode.LanguageModelResponsePart,
  };
}

/**
 * Runs `respond` and rethrows its failure without a stack: Copilot Chat shows a failed request as
 * "Reason: <message>: <stack>" when the error has one (its `toErrorMessage` with details), and the person
 * should read what went wrong, not the extension's frames.
 */
async function withoutStack(respond: () => Promise<void>): Promise<void> {
  try {
    await respond();
  } catch (error) {
    if (error instanceof Error && !(error instanceof vscode.CancellationError)) error.stack = '';
    throw error;
  }
}

/** What the consumer sees when a response fails. */
function consumerError(error: unknown, token: vscode.CancellationToken): Error {
  if (token.isCancellationRequested) return new vscode.CancellationError();
  if (error instanceof ResponseError && error.code === ProtocolErrorCodes.RequestCancelled) return new vscode.CancellationError();
  if (error instanceof BridgeExitedError) return error;
  if (error instanceof Error) return new Error(error.message);
  return new Error(String(error));
}
