import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { Message, Part, ToolResultPart } from '../../../protocol/messages.js';
import { splitConsumerText } from '../../../history/consumer-context.js';
import { unescapeCommand } from '../../../protocol/agent-command.js';

export interface PromptOptions {
  /** The agent accepts image blocks (`promptCapabilities.image`). */
  readonly images: boolean;
}

/**
 * The ACP prompt for a turn: what the user asked since the assistant last spoke (system messages too,
 * when the context policy let them through). Tool results are not part of it: they answer the agent's
 * pending tool calls and permission requests. A slash command typed as `//name` (agent-command.ts) starts
 * the prompt as the agent's `/name`.
 */
export function promptBlocks(messages: readonly Message[], options: PromptOptions): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  for (const message of askedMessages(messages)) {
    if (message.role === 'assistant') continue;
    for (const part of message.content) {
      const block = blockOf(part, options);
      if (block !== undefined) blocks.push(blocks.length === 0 && block.type === 'text' ? { type: 'text', text: unescapeCommand(block.text) } : block);
    }
  }
  return blocks;
}

/** The tool results among the messages, by the id of the call they answer. */
export function toolResultsOf(messages: readonly Message[]): Map<string, ToolResultPart> {
  const results = new Map<string, ToolResultPart>();
  for (const message of askedMessages(messages)) {
    for (const part of message.content) if (part.type === 'tool_result') results.set(part.toolCallId, part);
  }
  return results;
}

/**
 * Whether the person said something since the assistant last spoke: words, or an image they attached. Tool
 * results do not count, nor what the consumer added by itself (its context blocks, a note after tool results).
 */
export function saysSomething(messages: readonly Message[]): boolean {
  return askedMessages(messages).some((message) => message.role === 'user' && message.content.some(isSpoken));
}

function isSpoken(part: Part): boolean {
  if (part.type === 'text') return splitConsumerText(part.value).request !== '';
  return part.type === 'data' && part.mimeType.startsWith('image/');
}

/** What the user asked since the assistant last spoke. */
export function askedMessages(messages: readonly Message[]): readonly Message[] {
  let lastAssistant = -1;
  for (let i = messages.length - 1; i >= 0 && lastAssistant < 0; i--) if (messages[i].role === 'assistant') lastAssistant = i;
  return messages.slice(lastAssistant + 1);
}

function blockOf(part: Part, options: PromptOptions): ContentBlock | undefined {
  switch (part.type) {
    case 'text':
      return part.value === '' ? undefined : { type: 'text', text: part.value };
    case 'data':
      if (part.mimeType.startsWith('image/')) {
        return options.images ? { type: 'image', mimeType: part.mimeType, data: part.data } : { type: 'text', text: `[An image (${part.mimeType}) was attached; this agent does not accept images.]` };
      }
      if (part.mimeType.startsWith('text/') || part.mimeType === 'application/json') {
        return { type: 'text', text: Buffer.from(part.data, 'base64').toString('utf8') };
      }
      // Copilot's bookkeeping parts (cache_control, stateful_marker, …) have no type/subtype and no content.
      return part.mimeType.includes('/') ? { type: 'text', text: `[An attachment (${part.mimeType}) was omitted; this agent cannot read it.]` } : undefined;
    default:
      return undefined;
  }
}
