import type { Message } from '../protocol/messages.js';

/**
 * The mode of the consumer's chat, as far as the request says it: `plan` (plan, edit nothing), `ask` (read only) or
 * `agent` (the person's own choice of the agent's mode). Each consumer says it its own way:
 * - Copilot Chat's Ask and Plan (its built-in read-only agents) name themselves in its system prompt,
 *   `<modeInstructions>You are currently running in "Plan" mode. …`; agent mode and its other agents say nothing.
 * - Roo Code names its mode in the `<environment_details>` it appends to every user message (`# Current Mode`,
 *   `<slug>architect</slug>`), so a switch mid-task shows in the next request: Architect plans (Roo lets it write
 *   only Markdown) and Orchestrator only delegates (Roo gives it no edit or command tool): `plan`; Ask is `ask`;
 *   Code, Debug (which edit and run commands in Roo) and custom modes are `agent`.
 * - Cline 4.x's system prompt (its first message, an assistant's) has a "Plan / Act Modes" section, and in Plan
 *   mode a "Plan Mode" section ("You are in Plan mode."; its tools then offer no `editor`); a switch mid-task
 *   changes the system prompt of the next request.
 */
export type ConsumerMode = 'agent' | 'ask' | 'plan';

const MODE_INSTRUCTIONS = '<modeInstructions>';
/** How far after the block's start its first sentence names the mode. */
const NAMED_WITHIN = 200;
const NAMED = /^\s*You are currently running in "([^"]{1,40})" mode\./;

const ENVIRONMENT_DETAILS = '<environment_details>';
const ROO_MODE = /\n# Current Mode\n<slug>([^<\n]{1,60})<\/slug>/;
const ROO_MODES: Readonly<Record<string, ConsumerMode>> = { architect: 'plan', orchestrator: 'plan', ask: 'ask' };

const CLINE_MODES_SECTION = '\n# Plan / Act Modes\n';
const CLINE_PLAN_SECTION = '\n# Plan Mode\n\nYou are in Plan mode.';

/**
 * The chat's mode, from the request's messages: the latest system message with Copilot's mode instructions or user
 * message with Roo's environment details says it. Read on every request, over the whole history: indexed loops and
 * a check of each text part's start, nothing more per message (each request's first part waits for it).
 */
export function consumerModeOf(messages: readonly Message[]): ConsumerMode {
  for (let i = messages.length - 1; i >= 0; i--) {
    const { role, content } = messages[i]!;
    if (role !== 'system' && role !== 'user') continue;
    for (let j = 0; j < content.length; j++) {
      const part = content[j]!;
      if (part.type !== 'text') continue;
      const named = role === 'system' ? copilotMode(part.value) : rooMode(part.value);
      if (named !== undefined) return named;
    }
  }
  return isClinePlanMode(messages) ? 'plan' : 'agent';
}

/** Copilot's mode, where a system message's text has mode instructions. */
function copilotMode(text: string): ConsumerMode | undefined {
  const at = text.lastIndexOf(MODE_INSTRUCTIONS);
  if (at === -1) return undefined;
  const name = NAMED.exec(text.slice(at + MODE_INSTRUCTIONS.length, at + MODE_INSTRUCTIONS.length + NAMED_WITHIN))?.[1];
  return name === 'Plan' ? 'plan' : name === 'Ask' ? 'ask' : 'agent';
}

/** Roo's mode, where a user message's text is its environment details (a text part of its own, never the person's words). */
function rooMode(text: string): ConsumerMode | undefined {
  if (!text.startsWith(ENVIRONMENT_DETAILS)) return undefined;
  const slug = ROO_MODE.exec(text)?.[1];
  return slug === undefined ? undefined : (ROO_MODES[slug] ?? 'agent');
}

/** Cline's Plan mode: its system prompt (its first message, as an assistant's) says so. */
function isClinePlanMode(messages: readonly Message[]): boolean {
  const first = messages[0];
  const prompt = first?.role === 'assistant' ? first.content[0] : undefined;
  return prompt?.type === 'text' && prompt.value.includes(CLINE_MODES_SECTION) && prompt.value.includes(CLINE_PLAN_SECTION);
}
