/**
 * Copilot's side requests that need no agent. With `chat.byokUtilityModelDefault: mainAgent` Copilot
 * sends its utility requests to the picked model: the chat title after every first message, and, as soon
 * as a model is picked, ten "progress messages" for inline chat (twice: for new and for edited code).
 * Answering them with an agent would spawn a session (and bill a model call) for a few words, so they
 * are answered here: the title from the user's own words, the progress messages from a fixed list.
 * Other side requests go to the agent as conversations of their own, which never touch the chat's
 * session; Copilot's compaction is answered by the bridge (history/compaction.ts).
 */
import type { Message } from '../../protocol/messages.js';

const TITLE_SYSTEM_PROMPT = 'You are an expert in crafting ultra-compact titles for chatbot conversations.';
const TITLE_REQUEST = 'Please write a brief title for the following request:';
const TITLE_WORDS = 6;
/** Copilot 0.67's inline-chat progress messages (`x_t`: a JSON array of `count`; `E_t`: one message). */
const PROGRESS_SYSTEM_PROMPT = 'You are an expert in writing short, catchy, and encouraging progress messages for a coding assistant.';
const PROGRESS_BATCH = /^Please generate exactly (\d{1,3}) unique progress messages/;
const PROGRESS_MESSAGES = [
  'Working on it',
  'Reading the code',
  'Thinking it through',
  'Shaping the change',
  'Putting the pieces together',
  'Checking the details',
  'Writing the code',
  'Almost there',
  'Tidying up',
  'Nearly done',
] as const;

/** The answer to a side request that needs no agent, or undefined when the request is not one. */
export function sideRequestAnswer(messages: readonly Message[]): string | undefined {
  const system = messages.find((m) => m.role === 'system');
  const last = messages[messages.length - 1];
  if (system === undefined || last?.role !== 'user') return undefined;
  const prompt = textOf(system).trimStart();
  const request = textOf(last).trim();
  if (prompt.startsWith(TITLE_SYSTEM_PROMPT)) return request.startsWith(TITLE_REQUEST) ? titleOf(request.slice(TITLE_REQUEST.length)) : undefined;
  if (prompt.startsWith(PROGRESS_SYSTEM_PROMPT)) return progressMessages(request);
  return undefined;
}

/** A JSON array of as many progress messages as asked for, or one message when one is asked for. */
function progressMessages(request: string): string {
  const batch = PROGRESS_BATCH.exec(request);
  if (batch === null) return PROGRESS_MESSAGES[0];
  const count = Math.max(1, Number(batch[1]));
  return JSON.stringify(Array.from({ length: count }, (_, i) => PROGRESS_MESSAGES[i % PROGRESS_MESSAGES.length]));
}

/** The first words of the user's request, in sentence case, as a title. */
export function titleOf(request: string): string {
  const words = request.replace(/[`*_#>[\]()]/g, ' ').split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return 'New chat';
  const title = words.slice(0, TITLE_WORDS).join(' ').replace(/[\s.,;:!?]+$/, '');
  return title.charAt(0).toUpperCase() + title.slice(1) + (words.length > TITLE_WORDS ? '…' : '');
}

function textOf(message: Message): string {
  return message.content.map((part) => (part.type === 'text' ? part.value : '')).join('');
}
