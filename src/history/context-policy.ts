import type { Message, Part } from '../protocol/messages.js';
import { splitConsumerText } from './consumer-context.js';

/**
 * What of the consumer's messages reaches the agent. Consumers (Copilot above all) wrap the user's words
 * in their own context - workspace and editor state, instructions, attached files - and send their own
 * system prompt. An ACP agent gathers its own context and has its own instructions, and the two can
 * contradict each other, so by default the agent gets only what the user said:
 * - `user`: the user's words (the consumer's context blocks removed) and images they attached;
 * - `system`: that, and the consumer's system prompt;
 * - `attachments`: everything the consumer sends (its context blocks, attached files, system prompt).
 * Tool results and the assistant's messages always pass.
 */
export const CONTEXT_POLICIES = ['user', 'system', 'attachments'] as const;
export type ContextPolicy = (typeof CONTEXT_POLICIES)[number];

export function isContextPolicy(value: string): value is ContextPolicy {
  return (CONTEXT_POLICIES as readonly string[]).includes(value);
}

export function applyContextPolicy(messages: readonly Message[], policy: ContextPolicy): readonly Message[] {
  if (policy === 'attachments') return messages;
  const out: Message[] = [];
  for (const message of messages) {
    if (message.role === 'system') {
      if (policy === 'system') out.push(message);
      continue;
    }
    if (message.role !== 'user') {
      out.push(message);
      continue;
    }
    const content = message.content.flatMap(userPart);
    if (content.length > 0) out.push({ role: 'user', content });
  }
  return out;
}

function userPart(part: Part): Part[] {
  switch (part.type) {
    case 'text': {
      const { request } = splitConsumerText(part.value);
      return request === '' ? [] : [{ type: 'text', value: request }];
    }
    case 'data':
      return part.mimeType.startsWith('image/') ? [part] : [];
    default:
      return [part];
  }
}
