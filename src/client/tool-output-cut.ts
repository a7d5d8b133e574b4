import type { Message, Part, ToolResultContent } from '../protocol/messages.js';

/**
 * The most of one tool result's text a request carries, in characters (UTF-16 code units, as JavaScript
 * counts them). A consumer's tool can return anything (a command printing 50 MB): the request carrying it
 * would be over the bridge's frame limit, refused unread, and so would every later request of the chat,
 * which carries the whole history again. 100,000 characters are ~25,000 tokens, what Claude Code takes of
 * an MCP tool's output by default, more than the ~60 KB Copilot's own `run_in_terminal` keeps, and a few
 * hundred of them still fit in the bridge's 32 MB.
 */
export const MAX_TOOL_OUTPUT_CHARS = 100_000;
/** Of a cut text, the head kept; the tail keeps the rest of the limit: a command's errors and summary come last. */
const HEAD_CHARS = 25_000;
/**
 * The largest data item (an image) a tool result carries, decoded: Anthropic's limit for an image, beyond
 * which the agent's model could not take it anyway.
 */
export const MAX_TOOL_DATA_BYTES = 5 * 1024 * 1024;

/**
 * `text` as a request carries it: itself up to MAX_TOOL_OUTPUT_CHARS, else its head and its tail with the
 * words `[output cut: N more characters not shown]` between them, at most MAX_TOOL_OUTPUT_CHARS in all.
 * A function of the text alone, so the same result keeps the same identity in every request of a chat
 * (the bridge matches histories by it), and a cut text is not cut again. No surrogate pair is split.
 */
export function cutOutput(text: string): string {
  if (text.length <= MAX_TOOL_OUTPUT_CHARS) return text;
  // The words' length with as many digits as the whole text's length, which the number left out cannot exceed.
  const wordsLength = words(10 ** (String(text.length).length - 1)).length;
  let headEnd = HEAD_CHARS;
  if (isHighSurrogate(text.charCodeAt(headEnd - 1))) headEnd--;
  let tailStart = text.length - (MAX_TOOL_OUTPUT_CHARS - HEAD_CHARS - wordsLength);
  if (isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
  return text.slice(0, headEnd) + words(tailStart - headEnd) + text.slice(tailStart);
}

/** `messages` with every tool result cut as `cutOutput` and `cutData` say; the same array when nothing is cut. */
export function cutToolOutputs(messages: Message[]): Message[] {
  let cut: Message[] | undefined;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    const content = cutParts(message.content);
    if (content === message.content) continue;
    cut ??= [...messages];
    cut[i] = { ...message, content };
  }
  return cut ?? messages;
}

function cutParts(parts: Part[]): Part[] {
  let cut: Part[] | undefined;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.type !== 'tool_result') continue;
    const result = cutItems(part.result);
    if (result === part.result) continue;
    cut ??= [...parts];
    cut[i] = { ...part, result };
  }
  return cut ?? parts;
}

function cutItems(items: ToolResultContent[]): ToolResultContent[] {
  let cut: ToolResultContent[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const kept = item.type === 'text' ? cutText(item) : cutData(item);
    if (kept === item) continue;
    cut ??= [...items];
    cut[i] = kept;
  }
  return cut ?? items;
}

function cutText(item: Extract<ToolResultContent, { type: 'text' }>): ToolResultContent {
  const value = cutOutput(item.value);
  return value === item.value ? item : { type: 'text', value };
}

/** A data item over MAX_TOOL_DATA_BYTES becomes words naming what was left out: half an image is none. */
function cutData(item: Extract<ToolResultContent, { type: 'data' }>): ToolResultContent {
  const bytes = base64Bytes(item.data);
  return bytes <= MAX_TOOL_DATA_BYTES ? item : { type: 'text', value: `[output cut: ${bytes} bytes of ${item.mimeType} not shown]` };
}

function words(left: number): string {
  return `\n[output cut: ${left} more characters not shown]\n`;
}

/** The bytes a base64 string decodes to, without decoding it. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
