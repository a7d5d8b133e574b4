import type { Message } from '../protocol/messages.js';
import { splitConsumerText } from './consumer-context.js';

/** Enough to tell chats apart in a list; the index keeps no more of a chat than this. */
const MAX_TITLE_CHARS = 80;

/**
 * A chat's title: the person's words of its first user message with words (the consumer's context and what was
 * attached left out), on one line, cut at MAX_TITLE_CHARS; undefined when no message has words.
 */
export function firstWordsOf(messages: readonly Message[]): string | undefined {
  for (const message of messages) {
    if (message.role !== 'user') continue;
    const text = message.content.flatMap((part) => (part.type === 'text' ? [part.value] : [])).join('\n');
    const words = splitConsumerText(text).request.replace(/\s+/g, ' ').trim();
    if (words === '') continue;
    return words.length <= MAX_TITLE_CHARS ? words : `${words.slice(0, MAX_TITLE_CHARS - 1).trimEnd()}…`;
  }
  return undefined;
}
