/**
 * The LanguageModelChatProvider: VS Code's calls in, the bridge's protocol out. Conversion lives in
 * `convert.ts`, the models in `models.ts`, the process in `bridge-process.ts`; this file only wires
 * them to VS Code's types.
 */
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { STATEFUL_MARKER, statefulMarkerData } from '../history/stateful-marker.js';
import { ResponseError } from 'vscode-jsonrpc/node.js';
import { ProtocolErrorCodes } from '../protocol/errors.js';
import { countTokens } from '../tokens/count.js';
import { BridgeExitedError, type BridgeProcess } from './bridge-process.js';
import { fromWireResponsePart, toWireContent, toWireRequest, type ConvertOptions, type ResponsePartFactory } from './convert.js';
import type { ExtensionLog } from './log.js';
import { findModel, modelsOf, requestConfig, type ModelEntry, type ModelSettings } from './models.js';
import { offeredTools, type ConsumerToolsChoice } from './offered-tools.js';
import { requestRecorder } from './request-recorder.js';
import { sideRequestAnswer } from './side-requests.js';

/** `LanguageModelThinkingPart` is a proposed API: present in some VS Code builds, absent in others. */
type ThinkingPartClass = new (value: string | string[], id?: string, metadata?: { readonly [key: string]: unknown }) => object;

export function thinkingPartClass(): ThinkingPartClass | undefined {
  return (vscode as unknown as { LanguageModelThinkingPart?: ThinkingPartClass }).LanguageModelThinkingPart;
}

export interface ProviderDeps {
  readonly bridge: BridgeProcess;
  readonly settings: () => ModelSettings;
  /** Which of the consumer's tools reach agents (`symposium.consumerTools`). */
  readonly consumerTools: () => ConsumerToolsChoice;
  readonly log: ExtensionLog;
}

export class SymposiumChatProvider implements vscode.LanguageModelChatProvider<vscode.LanguageModelChatInformation>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly record = requestRecorder(process.env.SYMPOSIUM_RECORD_REQUESTS);
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;

  constructor(private readonly deps: ProviderDeps) {}

  /** The settings changed: VS Code asks for the models again. */
  refresh(): void {
    this.changed.fire();
  }

  provideLanguageModelChatInformation(): ModelEntry[] {
    return modelsOf(this.deps.settings()).map((entry) => entry.model);
  }

  async provideLanguageModelChatResponse(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const { bridge, log } = this.deps;
    const entry = findModel(this.deps.settings(), model.id);
    if (entry === undefined) throw vscode.LanguageModelError.NotFound(`Symposium has no model "${model.id}" (any more): check the symposium.agents setting.`);
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
      log.debug(`answered a side request (the chat's title) without the agent`);
      progress.report(new vscode.LanguageModelTextPart(answer));
      return;
    }
    // The person's per-model options (VS Code 1.139's `modelConfiguration`, absent from older typings and hosts).
    const config = requestConfig(entry, (options as { modelConfiguration?: unknown }).modelConfiguration);
    const factory = responsePartFactory();
    // Copilot sends this back with the history, re-rendered or summarised, so the bridge finds the conversation.
    const marker = randomUUID();
    progress.report(new vscode.LanguageModelDataPart(statefulMarkerData(model.id, marker), STATEFUL_MARKER));
    try {
      await bridge.provideChatResponse(
        { modelId: model.id, messages: request.messages, agent: entry.agent, options: request.options, marker, ...(config === undefined ? {} : { config }) },
        (part) => {
          if (token.isCancellationRequested) return;
          const converted = fromWireResponsePart(part, factory);
          if (converted === undefined) log.trace(`dropped a ${part.type} part: this VS Code cannot show it`);
          else progress.report(converted);
        },
        token,
      );
    } catch (error) {
      throw consumerError(error, token);
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

function responsePartFactory(): ResponsePartFactory<vscode.LanguageModelResponsePart> {
  const Thinking = thinkingPartClass();
  return {
    text: (value) => new vscode.LanguageModelTextPart(value),
    toolCall: (callId, name, input) => new vscode.LanguageModelToolCallPart(callId, name, input),
    data: (data, mimeType) => new vscode.LanguageModelDataPart(data, mimeType),
    thinking: Thinking === undefined ? undefined : (value) => new Thinking(value) as vscode.LanguageModelResponsePart,
  };
}

/** What the consumer sees when a response fails. */
function consumerError(error: unknown, token: vscode.CancellationToken): Error {
  if (token.isCancellationRequested) return new vscode.CancellationError();
  if (error instanceof ResponseError && error.code === ProtocolErrorCodes.RequestCancelled) return new vscode.CancellationError();
  if (error instanceof BridgeExitedError) return error;
  if (error instanceof Error) return new Error(error.message);
  return new Error(String(error));
}
