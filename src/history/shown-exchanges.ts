import type { ShownExchange } from '../protocol/agent-sessions.js';
import { splitConsumerText } from './consumer-context.js';

/** Exchanges a continued chat shows at most, and their text at most (the last one is shown whole, whatever its size). */
const MAX_SHOWN = 12;
const MAX_SHOWN_CHARS = 24_000;
/** Words of a request that stand for it in the line about the earlier ones. */
const WORDS_NAMED = 8;

/**
 * What a new chat shows of a session's exchanges: the last ones, as many as read well; the earlier ones in one line,
 * as a first exchange of its own. Each request is the person's words as the history reads them back (a consumer's
 * context blocks left out), so that the chat's next request is recognised; an exchange of no words (the agent's own
 * bookkeeping) is not shown, an answer of no text is said to be so.
 */
export function shownExchanges(agentName: string, exchanges: readonly { readonly request: string; readonly response: string }[]): ShownExchange[] {
  const readable = exchanges.flatMap(({ request, response }) => {
    const words = splitConsumerText(request).request.trim();
    return words === '' ? [] : [{ request: words, response: response.trim() === '' ? '(This answer had no text: only tool calls.)' : response.trim() }];
  });
  let chars = 0;
  let from = readable.length;
  while (from > 0 && readable.length - from < MAX_SHOWN) {
    const { request, response } = readable[from - 1]!;
    if (from < readable.length && chars + request.length + response.length > MAX_SHOWN_CHARS) break;
    chars += request.length + response.length;
    from--;
  }
  const shown = readable.slice(from);
  if (from === 0) return shown;
  const earlier = readable.slice(0, from);
  const line = `${earlier.length} earlier exchange${earlier.length === 1 ? '' : 's'}, from “${firstWords(earlier[0]!.request)}” to “${firstWords(earlier[earlier.length - 1]!.request)}”: not shown here; ${agentName} holds them in its session.`;
  return [{ request: 'Earlier in this session', response: line }, ...shown];
}

function firstWords(text: string): string {
  const words = text.split(/\s+/).filter((word) => word !== '');
  return words.length <= WORDS_NAMED ? words.join(' ') : `${words.slice(0, WORDS_NAMED).join(' ')}…`;
}
