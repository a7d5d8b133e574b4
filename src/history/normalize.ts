import type { Message, Part, ResponsePart } from '../protocol/messages.js';
import { isConsumerNote, splitConsumerText } from './consumer-context.js';

/**
 * Copilot puts bookkeeping in data parts whose "mime type" is a bare word (`cache_control`,
 * `stateful_marker`, `token_usage`, …); real content always has a `type/subtype` mime type.
 */
export function isBookkeeping(part: Part): boolean {
  return part.type === 'data' && !part.mimeType.includes('/');
}

/**
 * The form in which messages are compared: adjacent text parts joined, thinking and bookkeeping parts
 * dropped (consumers may or may not echo them back). A message left with no content is dropped.
 */
export function normalizeMessage(message: Message): Message | undefined {
  const content = normalizeParts(message.content);
  return content.length === 0 ? undefined : { role: message.role, content };
}

/**
 * A history's messages in normalized form. An assistant message before the first user message answers
 * nothing: it is the consumer's own instructions (Cline sends its system prompt so, as the first message,
 * because the stable API has no system role), and is read as the system message it stands for.
 */
export function normalizeMessages(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  let userSpoke = false;
  for (const message of messages) {
    const normalized = normalizeMessage(message);
    if (normalized === undefined) continue;
    userSpoke ||= normalized.role === 'user';
    out.push(userSpoke || normalized.role !== 'assistant' ? normalized : { role: 'system', content: normalized.content });
  }
  return out;
}

/**
 * What identifies a normalized message as the same turn when a consumer sends it again: consumers
 * rewrite their own context between requests (Copilot changes its system prompt and re-renders past
 * user turns without the context it gave them), so only what the user and the agent said counts. A
 * user message is its words (the consumer's context blocks removed) and its tool results; attachments
 * do not count; system messages and user messages of context only have no identity.
 */
export function identityOf(message: Message): Message | undefined {
  if (message.role === 'assistant') return assistantIdentity(message);
  if (message.role === 'system') return undefined;
  if (message.content.every(isOwnWords)) return message;
  const content: Part[] = [];
  for (const part of message.content) {
    if (part.type === 'tool_result') content.push(part);
    else if (part.type === 'text') {
      const { request } = splitConsumerText(part.value);
      if (request !== '') content.push({ type: 'text', value: request });
    }
  }
  return content.length === 0 ? undefined : { role: 'user', content };
}

/**
 * A part that is its own identity: a tool result, or text with no tags, nothing to trim and not a consumer's
 * own note (the common case, kept cheap).
 */
function isOwnWords(part: Part): boolean {
  if (part.type === 'tool_result') return true;
  if (part.type !== 'text') return false;
  const { value } = part;
  return value !== '' && !value.includes('<') && value.trim().length === value.length && !isConsumerNote(value);
}

/** The assistant message a consumer builds from the parts we streamed, as its identity. */
export function assistantMessageOf(parts: readonly ResponsePart[]): Message | undefined {
  const message = normalizeMessage({ role: 'assistant', content: [...parts] });
  return message === undefined ? undefined : assistantIdentity(message);
}

/**
 * A reply as consumers give it back, each in its own order: Copilot joins its text and puts the tool calls
 * after it, Cline puts them first, Roo Code after. So a reply is its text, joined, then its other parts in
 * the order they came.
 */
function assistantIdentity(message: Message): Message {
  if (message.content.length === 1) return message;
  let text = '';
  const others: Part[] = [];
  for (const part of message.content) {
    if (part.type === 'text') text += part.value;
    else others.push(part);
  }
  const content: Part[] = text === '' ? others : [{ type: 'text', value: text }, ...others];
  return { role: 'assistant', content };
}

function normalizeParts(parts: readonly Part[]): Part[] {
  const out: Part[] = [];
  for (const part of parts) {
    if (part.type === 'thinking' || isBookkeeping(part)) continue;
    const last = out[out.length - 1];
    if (part.type === 'text' && last?.type === 'text') {
      out[out.length - 1] = { type: 'text', value: last.value + part.value };
    } else if (part.type === 'text') {
      if (part.value !== '') out.push({ type: 'text', value: part.value });
    } else {
      out.push(part);
    }
  }
  return out;
}
