import type { Message } from '../protocol/messages.js';
import { linksAt, type Link } from './fingerprint.js';
import { identityOf, normalizeMessages } from './normalize.js';

/**
 * Where a chat that shows these exchanges (a new chat given them as its previous requests and responses) stands,
 * as the history reads its next request: the link after the last shown answer, by which that request is found to
 * continue the conversation the exchanges were recorded under; and the key of the last shown turn (the link after
 * its request), where a request that goes back to the point after that answer returns. The consumer gives each
 * shown request back as its words (wrapped in its own context blocks, which identities leave out) and each answer
 * as its text: identities are read as for any request (`identityOf`).
 */
export function shownHistoryLinks(agentKey: string, exchanges: readonly { readonly request: string; readonly response: string }[]): { end: Link; lastTurnKey: Link } | undefined {
  const messages: Message[] = exchanges.flatMap(({ request, response }): Message[] => [
    { role: 'user', content: [{ type: 'text', value: request }] },
    { role: 'assistant', content: [{ type: 'text', value: response }] },
  ]);
  const identities = normalizeMessages(messages).map(identityOf);
  if (identities.length !== messages.length || identities.some((identity) => identity === undefined)) return undefined;
  const last = identities.length - 1;
  const { links } = linksAt(agentKey, identities, () => new Set([last - 1, last]));
  const end = links[last];
  const lastTurnKey = links[last - 1];
  return end === undefined || lastTurnKey === undefined ? undefined : { end, lastTurnKey };
}
