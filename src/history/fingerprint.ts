import { createHash, type Hash } from 'node:crypto';
import type { Message } from '../protocol/messages.js';

/**
 * Histories are compared through links: `link(i)` is a digest of the seed (the agent) and messages
 * `0..i`, so "does this history extend that one" is one lookup of the shorter one's last link among the
 * longer one's. One running hash reads a history once; digests are taken only at the positions asked
 * for (where some conversation's prefix could end), since a digest per message would cost more than
 * reading the messages.
 */
export type Link = string;

/** A history read up to some message, which can be read further. */
export type HistoryHash = Hash;

/**
 * The links of a history at `positions` (a sparse array), and the hash after its last message. The
 * history is given by the identities of its messages (see `identityOf`): a message without one is
 * skipped and has no link.
 */
export function linksAt(seed: string, identities: readonly (Message | undefined)[], positions: ReadonlySet<number>): { links: (Link | undefined)[]; end: HistoryHash } {
  const hash = createHash('sha256');
  field(hash, seed);
  const links = new Array<Link | undefined>(identities.length);
  for (let i = 0; i < identities.length; i++) {
    const identity = identities[i];
    if (identity === undefined) continue;
    feed(hash, identity);
    if (positions.has(i)) links[i] = hash.copy().digest('base64');
  }
  return { links, end: hash };
}

/** The link after one more message, leaving `hash` as it was. */
export function extendedLink(hash: HistoryHash, message: Message): Link {
  return feed(hash.copy(), message).digest('base64');
}

/**
 * Reads a message into the hash in an unambiguous encoding: every field is length-prefixed, so no two
 * messages read alike. Fields go in one by one: JSON would re-escape every (possibly 100 KB) text, and
 * one concatenated string would be copied once more. Only tool call parameters, whose key order may
 * change on the way back, go through canonical JSON.
 */
function feed(hash: Hash, message: Message): Hash {
  field(hash, message.role);
  field(hash, String(message.content.length));
  for (const part of message.content) {
    field(hash, part.type);
    switch (part.type) {
      case 'text':
      case 'thinking':
        field(hash, part.value);
        break;
      case 'data':
        field(hash, part.mimeType);
        field(hash, part.data);
        break;
      case 'tool_call':
        field(hash, part.toolCallId);
        field(hash, part.toolName);
        field(hash, canonicalJson(part.parameters));
        break;
      case 'tool_result':
        field(hash, part.toolCallId);
        field(hash, String(part.result.length));
        for (const item of part.result) {
          field(hash, item.type);
          if (item.type === 'text') field(hash, item.value);
          else {
            field(hash, item.mimeType);
            field(hash, item.data);
          }
        }
        break;
    }
  }
  return hash;
}

function field(hash: Hash, value: string): void {
  hash.update(`${value.length}:`).update(value);
}

/** JSON with object keys sorted, so tool call parameters compare equal whatever order they come back in. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}
