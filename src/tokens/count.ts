import { createRequire } from 'node:module';
import { canonicalJson } from '../protocol/canonical-json.js';
import type { Message } from '../protocol/messages.js';

/**
 * Token counts with a real BPE tokenizer: gpt-tokenizer's o200k_base (the encoding of GPT-4o and later
 * OpenAI models). The agents behind the bridge use other models, most often Claude, and Anthropic
 * publishes no tokenizer for its current models (only a counting API, which is remote and slow), so
 * o200k_base stands in as a modern, widely used vocabulary. Consumers such as Copilot ask for every part
 * of every prompt, hence the cache.
 */

type Encoding = typeof import('gpt-tokenizer/encoding/o200k_base');

let encoding: Encoding | undefined;

/**
 * Loaded on first use, synchronously: evaluating the vocabulary costs ~150 ms and ~65 MB, which a static
 * import would add to every start of the bridge and the extension. esbuild bundles a `require` of a
 * literal (extension.cjs, bridge.mjs) and evaluates it only when called; under Node's ESM (the tsc build,
 * tests) there is no `require`, so one is made.
 */
function loadEncoding(): Encoding {
  return typeof require === 'function'
    ? (require('gpt-tokenizer/encoding/o200k_base') as Encoding)
    : (createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as Encoding);
}

/** Special-token text such as `<|endoftext|>` in a prompt is counted as the ordinary text it is. */
const ORDINARY = { disallowedSpecial: new Set<string>() };

/** The uncached count of a string (the tokenizer alone). */
export function encoderCount(text: string): number {
  if (text === '') return 0;
  encoding ??= loadEncoding();
  return encoding.countTokens(text, ORDINARY);
}

/** The cache holds up to this many characters of keys: ~9 MB of heap when full of ~50-character strings. */
export const CACHE_CHARS = 4 * 1024 * 1024;
/**
 * Longer strings are counted but not cached: one would push out hundreds of the short parts (tool schema
 * fields, prompt pieces) that make up nearly all calls, to save a count that is rare and, at ~1 ms per
 * 64 K characters, cheap next to what a consumer does with such a part.
 */
export const MAX_CACHED_LENGTH = 64 * 1024;

/**
 * An approximate LRU in two generations (as in hashlru): counts go into `young`; when it holds half the
 * budget it becomes `old` and the previous `old` is dropped whole; a hit in `old` is copied back into
 * `young`. What was used within the last generation survives. A Map kept in exact LRU order (delete and
 * re-insert on every hit, evict from the front) measured 7× (misses) to 50× (hits) slower once full: V8
 * leaves deleted entries in a Map's table until it rehashes, and hits and evictions waded through them.
 */
let young = new Map<string, number>();
let old = new Map<string, number>();
let youngChars = 0;
let oldChars = 0;

function remember(text: string, count: number): void {
  if (youngChars + text.length > CACHE_CHARS / 2) {
    old = young;
    oldChars = youngChars;
    young = new Map();
    youngChars = 0;
  }
  young.set(text, count);
  youngChars += text.length;
}

function cachedCount(text: string): number {
  // Only a string counted before can be cached: a first count skips the tables, which are large and
  // cold. Probing a Map of 50,000 strings with a new one measured ~310 ns (its hash, then cache misses),
  // the filter ~40 ns. Row 6's misses went 0.82–0.86 → 0.99–1.02 of the encoder, its hits stayed
  // 12.5–12.9× (three runs each). A string cached before the filter was last cleared is counted again
  // once, and found from its next count on.
  if (text.length > MAX_CACHED_LENGTH || !seenBefore(text)) return encoderCount(text);
  const hit = young.get(text);
  if (hit !== undefined) return hit;
  const older = old.get(text);
  if (older !== undefined) {
    remember(text, older);
    return older;
  }
  const count = encoderCount(text);
  remember(text, count);
  return count;
}

/**
 * Admission: a string is cached the second time it is counted. What a consumer counts is mostly either
 * counted again with every request (tool schemas, earlier turns: hits from the third request on) or once
 * (a reply as it streams, a new question). Keeping the once-counted made every miss cost a third more
 * than the encoder: the Maps grow and turn over, and the garbage collector copies each kept string. What
 * was seen is kept as two bits of a Bloom filter, from the length and the first and last SAMPLED
 * characters of the string, cleared once it holds SEEN_LIMIT strings; a false positive merely caches a
 * string early. Every hit pays for the filter too, hence so few characters (with 256, a hit of a short
 * string cost a third more).
 */
const SEEN_BITS = 1 << 20;
const SEEN_MASK = SEEN_BITS - 1;
/** One string in eight bits: about 5 % false positives when full, with two bits a string. */
const SEEN_LIMIT = SEEN_BITS / 8;
const SAMPLED = 8;
let seen = new Uint32Array(SEEN_BITS / 32);
let seenStrings = 0;

/** Whether the string was (probably) seen since the filter was last cleared; records it if not. */
function seenBefore(text: string): boolean {
  let hash = Math.imul(0x811c9dc5 ^ text.length, 0x01000193);
  const head = Math.min(text.length, SAMPLED);
  for (let i = 0; i < head; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  for (let i = Math.max(head, text.length - SAMPLED); i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  const a = hash & SEEN_MASK;
  const b = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d) >>> 12 & SEEN_MASK;
  const bitA = 1 << (a & 31);
  const bitB = 1 << (b & 31);
  if ((seen[a >>> 5] & bitA) !== 0 && (seen[b >>> 5] & bitB) !== 0) return true;
  if (++seenStrings > SEEN_LIMIT) {
    seen = new Uint32Array(SEEN_BITS / 32);
    seenStrings = 1;
  }
  seen[a >>> 5] |= bitA;
  seen[b >>> 5] |= bitB;
  return false;
}

/** Entries and characters held (an entry copied into the young generation is counted twice), for tests. */
export function cacheSize(): { entries: number; chars: number } {
  return { entries: young.size + old.size, chars: youngChars + oldChars };
}

/** Whether `text` is cached, without counting as a use. */
export function isCached(text: string): boolean {
  return young.has(text) || old.has(text);
}

/**
 * What a message's framing costs beyond its content: 3 tokens, as OpenAI counts for its chat format;
 * other models' formats are of that order.
 */
export const MESSAGE_OVERHEAD = 3;

/**
 * A fixed estimate per image, whatever its size: Anthropic bills about width × height / 750 tokens after
 * scaling to at most ~1.15 megapixels, so ~1,600 at most; OpenAI's high-detail tiles reach ~1,100. The
 * upper end, so that a consumer fitting a prompt to the context window does not overfill it.
 */
export const IMAGE_TOKENS = 1_600;

/**
 * Data the model cannot read as text is estimated at one token per 4 bytes, the usual ratio for text
 * (an agent that reads a PDF reads its text). Base64 itself would cost ~1 token per byte, but no model
 * is sent the base64: this bridge forwards such parts as a one-line notice.
 */
const BYTES_PER_TOKEN = 4;

/** The tokens of a string, or of a message: its parts plus the message's framing. */
export function countTokens(text: string | Message): number {
  if (typeof text === 'string') return cachedCount(text);
  return text.content.reduce((sum, part) => sum + countPart(part), MESSAGE_OVERHEAD);
}

function countPart(part: Message['content'][number]): number {
  switch (part.type) {
    case 'text':
    case 'thinking':
      return cachedCount(part.value);
    case 'tool_call':
      // Sorted keys: the same call counts the same (and hits the cache) whatever its key order.
      return cachedCount(part.toolName) + cachedCount(canonicalJson(part.parameters));
    case 'tool_result':
      return part.result.reduce((sum, r) => sum + (r.type === 'text' ? cachedCount(r.value) : countData(r.mimeType, r.data)), 0);
    case 'data':
      return countData(part.mimeType, part.data);
  }
}

function countData(mimeType: string, base64: string): number {
  // A bare-word mime type (cache_control, stateful_marker, …) is Copilot's bookkeeping, never sent.
  if (!mimeType.includes('/')) return 0;
  if (mimeType.startsWith('image/')) return IMAGE_TOKENS;
  if (isTextual(mimeType)) return cachedCount(Buffer.from(base64, 'base64').toString('utf8'));
  return Math.ceil(decodedLength(base64) / BYTES_PER_TOKEN);
}

/** As src/tools/tool-results.ts decides: such data reaches the agent as its text. */
function isTextual(mimeType: string): boolean {
  return mimeType.startsWith('text/') || /[/+]json$/.test(mimeType) || /[/+]xml$/.test(mimeType);
}

function decodedLength(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}
