/**
 * Copilot's side requests that need no agent. With `chat.byokUtilityModelDefault: mainAgent` Copilot
 * sends its utility requests to the picked model; the chat title is asked after every first message.
 * Answering it with an agent would spawn a session (and bill a model call) for four words, so it is
 * answered here from the user's own words. Other side requests go to the agent as conversations of
 * their own, which never touch the chat's session.
 */
import type { Message } from '../protocol/messages.js';

const TITLE_SYSTEM_PROMPT = 'You are an expert in crafting ultra-compact titles for chatbot conversations.';
const TITLE_REQUEST = 'Please write a brief title for the following request:';
const TITLE_WORDS = 6;

/** The answer to a side request that needs no agent, or undefined when the request is not one. */
export function sideRequestAnswer(messages: readonly Message[]): string | undefined {
  const system = messages.find((m) => m.role === 'system');
  const last = messages[messages.length - 1];
  if (system === undefined || last?.role !== 'user' || !textOf(system).trimStart().startsWith(TITLE_SYSTEM_PROMPT)) return undefined;
  const request = textOf(last).trim();
  if (!request.startsWith(TITLE_REQUEST)) return undefined;
  return titleOf(request.slice(TITLE_REQUEST.length));
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
