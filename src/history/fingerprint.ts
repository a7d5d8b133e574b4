import { createHash, type Hash } from 'node:crypto';
import { canonicalJson } from '../protocol/canonical-json.js';
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
 * The links of a history: always the link after its first message, then those at the positions
 * `positionsAfter` gives for that first link (a sparse array), and the hash after its last message. The
 * history is given by the identities of its messages (see `identityOf`): a message without one is
 * skipped and has no link. Two histories share a prefix only if they share their first link, so it says
 * which other histories' ends are worth a digest.
 */
export function linksAt(
  seed: string,
  identities: readonly (Message | undefined)[],
  positionsAfter: (first: Link) => ReadonlySet<number>,
): { links: (Link | undefined)[]; first: Link | undefined; end: HistoryHash } {
  const input = new HashInput(createHash('sha256'));
  input.field(seed);
  const links = new Array<Link | undefined>(identities.length);
  let first: Link | undefined;
  let positions: ReadonlySet<number> | undefined;
  for (let i = 0; i < identities.length; i++) {
    const identity = identities[i];
    if (identity === undefined) continue;
    feed(input, identity);
    if (positions === undefined) {
      first = links[i] = input.flushed().copy().digest('base64');
      positions = positionsAfter(first);
    } else if (positions.has(i)) links[i] = input.flushed().copy().digest('base64');
  }
  return { links, first, end: input.flushed() };
}

/**
 * The link at `position` of a history (none where that message has no identity), read again from its start: for the
 * rare decision that needs a link no position of interest asked for, so that no request pays a digest for it.
 */
export function linkAt(seed: string, identities: readonly (Message | undefined)[], position: number): Link | undefined {
  if (position < 0 || identities[position] === undefined) return undefined;
  return linksAt(seed, identities.slice(0, position + 1), () => new Set()).end.digest('base64');
}

/** The link after one more message, leaving `hash` as it was. */
export function extendedLink(hash: HistoryHash, message: Message): Link {
  return feed(new HashInput(hash.copy()), message).flushed().digest('base64');
}

/**
 * What goes into a hash, gathered into one string between digests: a call of `update` costs more than
 * the few bytes of most fields (a role, a count, a short reply), so fields are joined and handed over
 * together, and only a long value goes alone (joining it would copy it). The bytes hashed are the same.
 */
class HashInput {
  private pending = '';

  constructor(private readonly hash: Hash) {}

  field(value: string): void {
    if (value.length < LONG_FIELD) {
      this.pending += `${value.length}:${value}`;
      return;
    }
    this.hash.update(`${this.pending}${value.length}:`).update(value);
    this.pending = '';
  }

  flushed(): Hash {
    if (this.pending !== '') this.hash.update(this.pending);
    this.pending = '';
    return this.hash;
  }
}

/** A field this long is hashed on its own rather than joined to the others. */
const LONG_FIELD = 4096;

/**
 * Reads a message into the hash in an unambiguous encoding: every field is length-prefixed, so no two
 * messages read alike. Fields go in one by one: JSON would re-escape every (possibly 100 KB) text, and
 * one concatenated string would be copied once more. Only tool call parameters, whose key order may
 * change on the way back, go through canonical JSON.
 */
function feed(input: HashInput, message: Message): HashInput {
  input.field(message.role);
  input.field(String(message.content.length));
  for (const part of message.content) {
    input.field(part.type);
    switch (part.type) {
      case 'text':
      case 'thinking':
        input.field(part.value);
        break;
      case 'data':
        input.field(part.mimeType);
        input.field(part.data);
        break;
      case 'tool_call':
        input.field(part.toolCallId);
        input.field(part.toolName);
        input.field(canonicalJson(part.parameters));
        break;
      case 'tool_result':
        input.field(part.toolCallId);
        input.field(String(part.result.length));
        for (const item of part.result) {
          input.field(item.type);
          if (item.type === 'text') input.field(item.value);
          else {
            input.field(item.mimeType);
            input.field(item.data);
          }
        }
        break;
    }
  }
  return input;
}
