import { canonicalJson } from '../protocol/canonical-json.js';
import { splitConsumerText } from '../history/consumer-context.js';
import { describeAttachment } from '../history/attachments.js';
import type { ForwardedMessage, ForwardedPart } from '../history/context-policy.js';
import { toolResultText } from '../tools/tool-results.js';
import { withoutNoticeLines } from './notices.js';

/** Long enough for the gist of a message, short enough that one pasted file does not crowd out the rest. */
const MAX_MESSAGE_CHARS = 4_000;
/** The most recent messages that fit are kept: roughly 6,000 tokens. */
const MAX_TRANSCRIPT_CHARS = 24_000;

/** How a transcript is introduced: the whole history before this session, or what was said while it was away. */
const HEADERS = {
  before: 'This conversation began before this session. What was said so far:',
  meanwhile: 'This conversation went on without this session, with another model. What was said meanwhile:',
} as const;

/**
 * A compact transcript of `messages` (history before what the user asks now), for an agent session that
 * has not seen it: `before`, a conversation that began with another model, or whose earlier session could
 * not be resumed; `meanwhile`, the turns a chat had with another model since this session last answered.
 * Users' words without the consumer's context, what they attached as references (the agent reads what it needs
 * again: the files may have changed since), replies (without the notices shown in them), tool calls and their results; the oldest messages go first when
 * it is too long. Undefined when there is nothing to tell.
 */
export function transcriptOf(messages: readonly ForwardedMessage[], told: keyof typeof HEADERS = 'before'): string | undefined {
  const lines: string[] = [];
  let size = 0;
  let omitted = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const line = lineOf(messages[i]);
    if (line === undefined) continue;
    if (size + line.length > MAX_TRANSCRIPT_CHARS) {
      omitted = i + 1;
      break;
    }
    lines.unshift(line);
    size += line.length;
  }
  if (lines.length === 0) return undefined;
  if (omitted > 0) lines.unshift(`[${omitted} earlier message(s) omitted]`);
  return [
    HEADERS[told],
    '<transcript>',
    ...lines,
    '</transcript>',
    'Continue the conversation: answer the message that follows.',
  ].join('\n');
}

function lineOf(message: ForwardedMessage): string | undefined {
  if (message.role === 'system') return undefined;
  const said = message.content
    .map((part) => partText(part, message.role === 'user'))
    .filter((text) => text !== '')
    .join('\n');
  if (said === '') return undefined;
  return `${message.role === 'user' ? 'User' : 'Assistant'}: ${clip(said)}`;
}

function partText(part: ForwardedPart, fromUser: boolean): string {
  switch (part.type) {
    case 'text':
      // The notices shown in a reply (notices.ts) were said to the person, not by the agent.
      return fromUser ? splitConsumerText(part.value).request : withoutNoticeLines(part.value);
    case 'tool_call':
      return `[called the tool ${part.toolName} with ${canonicalJson(part.parameters)}]`;
    case 'tool_result':
      return `[tool result: ${toolResultText(part)}]`;
    case 'data':
      return part.mimeType.includes('/') ? `[attachment: ${part.mimeType}]` : '';
    case 'attachment':
      return `[attached: ${describeAttachment(part.attachment)}]`;
    case 'thinking':
      return '';
  }
}

function clip(text: string): string {
  return text.length <= MAX_MESSAGE_CHARS ? text : `${text.slice(0, MAX_MESSAGE_CHARS)} […]`;
}
