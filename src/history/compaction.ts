import type { Message } from '../protocol/messages.js';

/**
 * Copilot Chat's compaction. When a conversation grows past the model's `maxInputTokens` (or the person
 * types `/compact`), Copilot asks the main model for a summary of the conversation, and from then on sends
 * that summary, in a `<conversation-summary>` user message, instead of the history before it (without
 * that history's stateful markers). It asks in two shapes (Copilot 0.67, `_Se.getSummary` and
 * `_startBackgroundSummarization`):
 * - foreground (`/compact`, or the prompt over budget): its own system prompt (`I8n`), the history (as
 *   messages, or, in its `simple` mode used when the prompt is over budget, written into one user message),
 *   and a last user message "Summarize the conversation history so far, …";
 * - background (at ~80% of the budget, while the turn goes on): the turn's own messages plus a last user
 *   message "The conversation has grown too large for the context window and must be compacted now." that
 *   wants the summary in `<summary>` tags.
 * Copilot takes the text inside `<summary>…</summary>` (the whole text when there are none); an empty
 * summary, or one over the budget, fails the compaction. VS Code's chat summary for hand-offs
 * (`provideChatSummary`) sends the foreground shape too.
 *
 * An ACP agent keeps its own context, so a summary is only a stand-in for Copilot: the bridge answers it
 * without the agent, with the user's requests and the agent's last reply (enough for a person or another
 * model reading it), and with the conversation's token, by which the next request, which carries the
 * summary but none of the history, still finds the conversation.
 */

const FOREGROUND_SYSTEM = 'Your task is to create a comprehensive, detailed summary of the entire conversation';
const FOREGROUND_REQUEST = 'Summarize the conversation history so far';
const BACKGROUND_REQUEST = 'The conversation has grown too large for the context window and must be compacted now.';

/** Copilot's simple summary prompt (`gHe`): the history in one user message, as `<user>`, `<assistant>`, … entries. */
const SIMPLE_HISTORY = 'The following is a compressed version of the preceeding history in the current conversation.';
const SIMPLE_ENTRY = /<(user|assistant|conversation-summary)>\n([\s\S]*?)\n<\/\1>/g;

/** How the summary names its conversation; Copilot keeps the summary's text as it is. */
const TOKEN_PREFIX = 'symposium-conversation:';
const TOKEN = /symposium-conversation:([A-Za-z0-9_-]{1,100})/g;
const SUMMARY_TAG = '<conversation-summary>';

/** How much of the conversation the stand-in summary quotes. */
const QUOTED_REQUESTS = 20;
const QUOTE_CHARS = 300;

/** True when the request asks for a summary of the conversation instead of a reply. */
export function isCompactionRequest(messages: readonly Message[]): boolean {
  const last = messages[messages.length - 1];
  if (last?.role !== 'user') return false;
  const request = textOf(last).trimStart();
  if (request.startsWith(BACKGROUND_REQUEST)) return true;
  if (!request.startsWith(FOREGROUND_REQUEST)) return false;
  return messages.some((m) => m.role === 'system' && textOf(m).trimStart().startsWith(FOREGROUND_SYSTEM));
}

/**
 * The history a summary request is about, as messages: the ones before its last, or, when Copilot's simple
 * prompt (its fallback when the prompt is over budget) wrote the history into one message, its entries:
 * `<user>` the words typed, `<assistant>` a reply's text, `<conversation-summary>` an earlier summary (tool
 * entries are left out: their calls and results are not in a form that matches).
 */
export function compactionHistoryOf(messages: readonly Message[]): readonly Message[] {
  const history = messages.slice(0, -1);
  const compressed = history.find((m) => m.role === 'user' && textOf(m).trimStart().startsWith(SIMPLE_HISTORY));
  if (compressed === undefined) return history;
  const entries: Message[] = [];
  for (const [entry, tag, value] of textOf(compressed).matchAll(SIMPLE_ENTRY)) {
    if (tag === 'assistant') entries.push({ role: 'assistant', content: [{ type: 'text', value: value! }] });
    else entries.push({ role: 'user', content: [{ type: 'text', value: tag === 'user' ? value! : entry }] });
  }
  return entries;
}

/**
 * The stand-in summary: in `<summary>` tags (Copilot unwraps them), never empty, a few thousand
 * characters at most. `requests` are the user's words of the conversation, `reply` the agent's last
 * reply; `marker` names the conversation for the requests that carry the summary.
 */
export function standInSummary(requests: readonly string[], reply: string | undefined, marker: string | undefined): string {
  const lines = [
    'The agent behind this model (an ACP agent, through Symposium) keeps the whole conversation in its own session and',
    'continues it from there: this summary only stands in for the history Copilot no longer sends.',
  ];
  const shown = requests.slice(-QUOTED_REQUESTS);
  if (shown.length > 0) {
    lines.push('', requests.length > shown.length ? `The user's latest requests (${shown.length} of ${requests.length}):` : "The user's requests:");
    for (const request of shown) lines.push(`- ${quote(request)}`);
  }
  if (reply !== undefined && reply.trim() !== '') lines.push('', `The agent's last reply: ${quote(reply)}`);
  if (marker !== undefined) lines.push('', `${TOKEN_PREFIX}${marker}`);
  return `<summary>\n${lines.join('\n')}\n</summary>`;
}

/**
 * The conversation tokens in the requests' `<conversation-summary>` messages, newest first, each with the
 * index of its message.
 */
export function summaryMarkersOf(messages: readonly Message[]): { readonly index: number; readonly marker: string }[] {
  const found: { index: number; marker: string }[] = [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'user') continue;
    const text = textOf(message);
    const at = text.indexOf(SUMMARY_TAG);
    if (at < 0) continue;
    const tokens = [...text.slice(at).matchAll(TOKEN)].map((m) => m[1]!);
    for (const marker of tokens.reverse()) found.push({ index, marker });
  }
  return found;
}

function quote(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > QUOTE_CHARS ? `${oneLine.slice(0, QUOTE_CHARS)}…` : oneLine;
}

function textOf(message: Message): string {
  return message.content.map((part) => (part.type === 'text' ? part.value : '')).join('');
}
