import type { Message } from '../protocol/messages.js';

/**
 * The mode of the consumer's chat, as far as the request says it: Copilot Chat's Ask and Plan (its built-in read-only
 * agents) name themselves in its system prompt, `<modeInstructions>You are currently running in "Plan" mode. …`;
 * agent mode, its other agents and other consumers (Cline, Roo Code) say nothing: `agent`.
 */
export type ConsumerMode = 'agent' | 'ask' | 'plan';

const MODE_INSTRUCTIONS = '<modeInstructions>';
/** How far after the block's start its first sentence names the mode. */
const NAMED_WITHIN = 200;
const NAMED = /^\s*You are currently running in "([^"]{1,40})" mode\./;

/** The chat's mode: read from the last system message that has mode instructions. */
export function consumerModeOf(messages: readonly Message[]): ConsumerMode {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'system') continue;
    for (const part of message.content) {
      if (part.type !== 'text') continue;
      const at = part.value.lastIndexOf(MODE_INSTRUCTIONS);
      if (at === -1) continue;
      const name = NAMED.exec(part.value.slice(at + MODE_INSTRUCTIONS.length, at + MODE_INSTRUCTIONS.length + NAMED_WITHIN))?.[1];
      return name === 'Plan' ? 'plan' : name === 'Ask' ? 'ask' : 'agent';
    }
  }
  return 'agent';
}
