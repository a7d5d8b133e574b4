import type { Message } from '../protocol/messages.js';

/**
 * An estimate of a text's token count: about four characters per token, the usual rule of thumb for
 * English with BPE tokenizers. It is cheap (consumers ask for every part) and errs on the high side
 * for short strings, where each word is at least one token.
 */
export function estimateTokens(text: string | Message): number {
  return typeof text === 'string' ? estimateString(text) : text.content.reduce((sum, part) => sum + estimatePart(part), 0);
}

function estimateString(text: string): number {
  if (text.length === 0) return 0;
  let words = 0;
  for (const _ of text.matchAll(/\S+/g)) words++;
  return Math.max(words, Math.ceil(text.length / 4));
}

function estimatePart(part: Message['content'][number]): number {
  switch (part.type) {
    case 'text':
    case 'thinking':
      return estimateString(part.value);
    case 'tool_call':
      return estimateString(part.toolName) + estimateString(JSON.stringify(part.parameters));
    case 'tool_result':
      return part.result.reduce((sum, r) => sum + (r.type === 'text' ? estimateString(r.value) : 0), 0);
    case 'data':
      return 0;
  }
}
