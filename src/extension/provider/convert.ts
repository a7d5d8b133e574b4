/**
 * Conversion between VS Code's Language Model API values and the wire protocol, without importing
 * `vscode`: inputs are matched structurally (duck-typed), and output parts are built by an injected
 * factory. VS Code hands a provider instances of its own classes, but not always the ones a type
 * declaration names (`LanguageModelToolResultPart2` is not a subclass of `LanguageModelToolResultPart`;
 * `LanguageModelThinkingPart` is a proposed API), so shape is what counts here.
 */
import type { DataPart, Message, Part, ResponsePart, Role, ToolDefinition, ToolResultContent } from '../../protocol/messages.js';

/** VS Code's `LanguageModelChatMessageRole` values; 3 is the proposed System role Copilot sends. */
export const VSCODE_ROLES: Readonly<Record<number, Role>> = { 1: 'user', 2: 'assistant', 3: 'system' };

/** VS Code's `LanguageModelChatToolMode` values. */
const TOOL_MODES = { 1: 'auto', 2: 'required' } as const;

/** A message as VS Code hands it to a provider (`LanguageModelChatRequestMessage`). */
export interface ChatMessageLike {
  readonly role: number;
  readonly content: ReadonlyArray<unknown>;
  readonly name?: string | undefined;
}

/** `ProvideLanguageModelChatResponseOptions`, as far as the bridge cares. */
export interface ChatOptionsLike {
  readonly tools?: ReadonlyArray<{ readonly name: string; readonly description: string; readonly inputSchema?: object | undefined }> | undefined;
  readonly toolMode?: number | undefined;
}

export interface ConvertOptions {
  /**
   * Whether a part is a thinking part. Give `part instanceof LanguageModelThinkingPart` when the running
   * VS Code has that class: a thinking part's `value` may be a plain string, like a text part's.
   * Without it, only a `value` that is an array of strings marks a part as thinking.
   */
  readonly isThinking?: (part: object) => boolean;
  /** Told about everything skipped. */
  readonly log?: (message: string) => void;
}

export interface ChatRequest {
  readonly messages: Message[];
  readonly options: { tools?: ToolDefinition[]; toolMode: 'auto' | 'required' };
}

/** VS Code messages → wire messages. A message with an unknown role is skipped (and logged). */
export function toWireMessages(messages: ReadonlyArray<ChatMessageLike>, options: ConvertOptions = {}): Message[] {
  const result: Message[] = [];
  messages.forEach((message, index) => {
    const role = VSCODE_ROLES[message.role];
    if (role === undefined) {
      options.log?.(`skipped message ${index}: unknown role ${String(message.role)}`);
      return;
    }
    result.push({ role, content: toWireContent(message.content, options, `message ${index}`) });
  });
  return result;
}

/** The parts of one message's content; unknown parts are skipped (and logged). */
export function toWireContent(content: ReadonlyArray<unknown>, options: ConvertOptions = {}, where = 'message'): Part[] {
  const parts: Part[] = [];
  content.forEach((raw, index) => {
    const part = toWirePart(raw, options, `${where}, part ${index}`);
    if (part !== undefined) parts.push(part);
  });
  return parts;
}

function toWirePart(raw: unknown, options: ConvertOptions, where: string): Part | undefined {
  if (!isObject(raw)) return skipped(options, where, `not an object (${describe(raw)})`);
  // Tool results first: LanguageModelToolResultPart and its look-alikes (…Part2) carry callId + content[].
  if (typeof raw.callId === 'string' && Array.isArray(raw.content)) {
    const result: ToolResultContent[] = [];
    raw.content.forEach((item: unknown, index: number) => {
      const converted = toResultContent(item, options, `${where}, tool result content ${index}`);
      if (converted !== undefined) result.push(...converted);
    });
    return { type: 'tool_result', toolCallId: raw.callId, result };
  }
  if (typeof raw.callId === 'string' && typeof raw.name === 'string') {
    return { type: 'tool_call', toolCallId: raw.callId, toolName: raw.name, parameters: isRecord(raw.input) ? raw.input : {} };
  }
  const data = toDataPart(raw);
  if (data !== undefined) return data;
  const thinking = thinkingValue(raw, options);
  if (thinking !== undefined) return { type: 'thinking', value: thinking };
  if (typeof raw.value === 'string') return { type: 'text', value: raw.value };
  return skipped(options, where, `unknown part ${describe(raw)}`);
}

/** A tool result's content item: text, data, or a prompt-tsx part (whose text is extracted). */
function toResultContent(raw: unknown, options: ConvertOptions, where: string): ToolResultContent[] | undefined {
  if (!isObject(raw)) return skipped(options, where, `not an object (${describe(raw)})`);
  const data = toDataPart(raw);
  if (data !== undefined) return [data];
  if (typeof raw.value === 'string') return [{ type: 'text', value: raw.value }];
  if (isObject(raw.value)) {
    // LanguageModelPromptTsxPart: a rendered prompt-tsx tree; its text nodes are what a model would read.
    const text = textOfTree(raw.value);
    if (text.length > 0) return [{ type: 'text', value: text }];
  }
  return skipped(options, where, `unknown tool result content ${describe(raw)}`);
}

function toDataPart(raw: Record<string, unknown>): DataPart | undefined {
  if (typeof raw.mimeType !== 'string' || !isBytes(raw.data)) return undefined;
  return { type: 'data', mimeType: raw.mimeType, data: Buffer.from(raw.data.buffer, raw.data.byteOffset, raw.data.byteLength).toString('base64') };
}

function thinkingValue(raw: Record<string, unknown>, options: ConvertOptions): string | undefined {
  const value = raw.value;
  const joined = typeof value === 'string' ? value : Array.isArray(value) && value.every((v) => typeof v === 'string') ? value.join('') : undefined;
  if (joined === undefined) return undefined;
  if (options.isThinking?.(raw) === true || Array.isArray(value)) return joined;
  return undefined;
}

/** The text nodes of a prompt-tsx JSON tree (`{type: 2, text}` leaves), in order. */
function textOfTree(node: unknown, depth = 0): string {
  if (depth > 64) return '';
  if (Array.isArray(node)) return node.map((child) => textOfTree(child, depth + 1)).join('');
  if (!isObject(node)) return '';
  if (typeof node.text === 'string') return node.text;
  return Object.values(node)
    .map((child) => textOfTree(child, depth + 1))
    .join('');
}

/** The request options: tools and tool mode (`modelOptions` holds consumer internals and is not forwarded). */
export function toWireOptions(options: ChatOptionsLike): ChatRequest['options'] {
  const toolMode = TOOL_MODES[options.toolMode as keyof typeof TOOL_MODES] ?? 'auto';
  if (options.tools === undefined || options.tools.length === 0) return { toolMode };
  const tools = options.tools.map(
    (tool): ToolDefinition => (tool.inputSchema === undefined ? { name: tool.name, description: tool.description } : { name: tool.name, description: tool.description, inputSchema: tool.inputSchema }),
  );
  return { tools, toolMode };
}

export function toWireRequest(messages: ReadonlyArray<ChatMessageLike>, options: ChatOptionsLike, convert: ConvertOptions = {}): ChatRequest {
  return { messages: toWireMessages(messages, convert), options: toWireOptions(options) };
}

/** Builds VS Code's response parts. `thinking` is absent when the running VS Code lacks the class. */
export interface ResponsePartFactory<P> {
  text(value: string): P;
  toolCall(callId: string, name: string, input: object): P;
  data(data: Uint8Array, mimeType: string): P;
  thinking?: ((value: string) => P) | undefined;
}

/**
 * A wire response part → a VS Code response part, or undefined when this VS Code cannot show it (a
 * thinking part without `LanguageModelThinkingPart` is dropped: thoughts never become visible text).
 */
export function fromWireResponsePart<P>(part: ResponsePart, factory: ResponsePartFactory<P>): P | undefined {
  switch (part.type) {
    case 'text':
      return factory.text(part.value);
    case 'tool_call':
      return factory.toolCall(part.toolCallId, part.toolName, part.parameters);
    case 'data':
      return factory.data(new Uint8Array(Buffer.from(part.data, 'base64')), part.mimeType);
    case 'thinking':
      return factory.thinking?.(part.value);
  }
}

function skipped(options: ConvertOptions, where: string, why: string): undefined {
  options.log?.(`skipped ${where}: ${why}`);
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** A byte array, from whichever realm (VS Code's Uint8Array, a Buffer, another context's). */
function isBytes(value: unknown): value is Uint8Array {
  return ArrayBuffer.isView(value) && (value as { BYTES_PER_ELEMENT?: unknown }).BYTES_PER_ELEMENT === 1;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return isObject(value) && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (!isObject(value)) return value === null ? 'null' : typeof value;
  const name = (value.constructor as { name?: unknown } | undefined)?.name;
  const keys = Object.keys(value).slice(0, 6).join(', ');
  return `${typeof name === 'string' && name !== 'Object' ? `${name} ` : ''}{${keys}}`;
}
