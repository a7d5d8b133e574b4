import { createHash } from 'node:crypto';
import type { Message } from '../protocol/messages.js';

/**
 * Histories are compared through a hash chain: `link[i]` identifies messages `0..i` together with the
 * seed (the agent), so "does this history extend that one" is one lookup of the shorter one's last link
 * in the longer one's chain. Computing a chain is linear in the history's size; nothing is compared
 * message by message, so long histories and many conversations stay cheap.
 */
export type Link = string;

export function seedLink(seed: string): Link {
  return createHash('sha256').update(seed).digest('base64');
}

export function nextLink(previous: Link, message: Message): Link {
  return createHash('sha256').update(previous).update(canonicalJson(message)).digest('base64');
}

/** `chain[i]` is the link after `messages[i]`. */
export function chainOf(seed: Link, messages: readonly Message[]): Link[] {
  const chain: Link[] = new Array<Link>(messages.length);
  let link = seed;
  for (let i = 0; i < messages.length; i++) chain[i] = link = nextLink(link, messages[i]);
  return chain;
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
