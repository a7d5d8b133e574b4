import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { Part, ToolResultPart } from '../../../protocol/messages.js';
import { toolResultText } from '../../../tools/tool-results.js';
import type { ForwardedMessage, ForwardedPart } from '../../../history/context-policy.js';
import { splitConsumerText } from '../../../history/consumer-context.js';
import { attachmentBlocks, EmbeddingBudget } from './attachment-blocks.js';
import { unescapeCommand } from '../../../protocol/agent-command.js';

/** What the agent declared it takes in a prompt (`promptCapabilities`). */
export interface PromptCapabilities {
  /** Image blocks (`image`). */
  readonly images: boolean;
  /** `resource` blocks with their text (`embeddedContext`). */
  readonly embeddedContext: boolean;
}

/** What a turn asks of the agent, read once from its new messages. */
export interface TurnAsk {
  /**
   * What the user asked since the assistant last spoke (system messages too, when the context policy let them
   * through), with the tool results that answer the agent's pending calls.
   */
  readonly asked: readonly ForwardedMessage[];
  /** The new messages before those: turns another model answered while this session was away. */
  readonly meanwhile: readonly ForwardedMessage[];
  /** The tool results among the asked messages, by the id of the call they answer. */
  readonly results: ReadonlyMap<string, ToolResultPart>;
  /**
   * Whether the person said something: words, an image or something they attached. Tool results do not count,
   * nor what the consumer added by itself (its context blocks, a note after tool results).
   */
  readonly saysSomething: boolean;
}

export function turnAsk(newMessages: readonly ForwardedMessage[]): TurnAsk {
  let lastAssistant = -1;
  for (let i = newMessages.length - 1; i >= 0 && lastAssistant < 0; i--) if (newMessages[i]!.role === 'assistant') lastAssistant = i;
  const asked = newMessages.slice(lastAssistant + 1);
  const results = new Map<string, ToolResultPart>();
  for (const message of asked) for (const part of message.content) if (part.type === 'tool_result') results.set(part.toolCallId, part);
  return {
    asked,
    meanwhile: newMessages.slice(0, lastAssistant + 1),
    results,
    saysSomething: asked.some((message) => message.role === 'user' && message.content.some(isSpoken)),
  };
}

function isSpoken(part: ForwardedPart): boolean {
  if (part.type === 'text') return splitConsumerText(part.value).request !== '';
  return part.type === 'attachment' || (part.type === 'data' && part.mimeType.startsWith('image/'));
}

export interface PromptOptions extends PromptCapabilities {
  /** The workspace folder, against which relative paths of attachments are read. */
  readonly root: string;
}

/**
 * The ACP prompt for a turn, in one place: what the session is told first (`told`: the conversation it has not
 * seen, results of calls it no longer waits for), then what the turn asks: words, images, and what the person
 * attached. Tool results are not part of it: they answer the agent's pending tool calls and permission requests.
 * A slash command typed as `//name` (agent-command.ts) starts the person's words as the agent's `/name`.
 */
export function promptBlocks(ask: TurnAsk, told: readonly string[], options: PromptOptions): ContentBlock[] {
  const blocks: ContentBlock[] = told.map((text) => ({ type: 'text', text }));
  const budget = new EmbeddingBudget();
  let wordsBegan = false;
  for (const message of ask.asked) {
    if (message.role === 'assistant') continue;
    for (const part of message.content) {
      if (part.type === 'attachment') blocks.push(...attachmentBlocks(part.attachment, options, budget));
      else {
        const block = blockOf(part, options);
        if (block === undefined) continue;
        blocks.push(!wordsBegan && block.type === 'text' ? { type: 'text', text: unescapeCommand(block.text) } : block);
        wordsBegan ||= block.type === 'text';
      }
    }
  }
  return blocks;
}

function blockOf(part: Part, options: PromptCapabilities): ContentBlock | undefined {
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

/** Results nothing waits for any more (the session was closed or replaced since), as the agent is told them. */
export function orphanedResultsText(results: ReadonlyMap<string, ToolResultPart>): string {
  const lines = [...results.values()].map((r) => `- ${r.toolCallId}: ${toolResultText(r)}`);
  return ['Results of tool calls from earlier in this conversation:', ...lines].join('\n');
}
