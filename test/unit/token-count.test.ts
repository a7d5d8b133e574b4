/**
 * `countTokens` (src/tokens/count.ts): o200k_base counts, checked against gpt-tokenizer's own `encode`
 * (imported here as ESM, while count.ts loads the CommonJS build lazily), the LRU cache and its bound,
 * and how message parts add up.
 */
import fc from 'fast-check';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { Message } from '../../src/protocol/messages.js';
import { CACHE_CHARS, IMAGE_TOKENS, MAX_CACHED_LENGTH, MESSAGE_OVERHEAD, cacheSize, countTokens, encoderCount, isCached } from '../../src/tokens/count.js';

/** The library's count, special-token text taken as ordinary text (as count.ts does). */
const reference = (text: string): number => encode(text, { disallowedSpecial: new Set() }).length;

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

let unique = 0;
/** A string no other test has counted, so its first count is a miss. */
const fresh = (text: string): string => `${text} #${unique++}`;

const SAMPLES = [
  'Hello!',
  'Can you explain what this function does?',
  'Fix the failing test in src/history/conversations.ts',
  'const x = await fetch(url);\n\tif (!x.ok) throw new Error(`HTTP ${x.status}`);',
  'antidisestablishmentarianism',
  'Grüße aus Köln — ça va? 日本語のテキスト 🎉👩‍💻',
  '{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}',
  '    indented\n\n\n   lines   with   spaces   ',
  'Special tokens in text: <|endoftext|> <|im_start|>user',
];

describe('counts', () => {
  test.each(SAMPLES)('%j counts as the library encodes it', (text) => {
    expect(countTokens(text)).toBe(reference(text));
    expect(encoderCount(text)).toBe(reference(text));
  });

  test('they are not the four-characters-per-token estimate', () => {
    const estimate = (s: string): number => Math.ceil(s.length / 4);
    expect(SAMPLES.filter((s) => countTokens(s) !== estimate(s)).length).toBeGreaterThan(SAMPLES.length / 2);
  });

  test('special-token text is ordinary text, not one special token and not an error', () => {
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1);
  });

  test('the empty string is 0', () => {
    expect(countTokens('')).toBe(0);
  });

  test('any string, lone surrogates included, counts as the library encodes it', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 })), (text) => {
        expect(countTokens(text)).toBe(reference(text));
      }),
    );
  });

  test('very long strings (2 MB) are counted, and not cached', () => {
    const long = fresh('The quick brown fox jumps over the lazy dog. '.repeat(45_000));
    expect(long.length).toBeGreaterThan(MAX_CACHED_LENGTH);
    const before = cacheSize().entries;
    expect(countTokens(long)).toBe(reference(long));
    expect(isCached(long)).toBe(false);
    expect(cacheSize().entries).toBe(before);
  });
});

describe('the cache', () => {
  test('a string counted once is not kept; counted again it is, and later counts are hits with the same count', () => {
    const text = fresh('Refactor this to use async/await instead of callbacks.');
    expect(isCached(text)).toBe(false);
    const first = countTokens(text);
    expect(first).toBe(reference(text));
    expect(isCached(text)).toBe(false);
    expect(countTokens(text)).toBe(first);
    expect(isCached(text)).toBe(true);
    const entries = cacheSize().entries;
    expect(countTokens(text)).toBe(first);
    expect(countTokens(String(text))).toBe(first);
    expect(cacheSize().entries).toBe(entries);
  });

  test('strings counted once each, however many, are never kept', () => {
    const entries = cacheSize().entries;
    for (let i = 0; i < 20_000; i++) countTokens(fresh(`a question asked once (${i})`));
    // Bloom filter false positives may admit a few.
    expect(cacheSize().entries - entries).toBeLessThan(20_000 * 0.05);
  });

  test('holds at most CACHE_CHARS characters, evicting the least recently used', () => {
    const kept = fresh('used again and again');
    const dropped = fresh('used twice');
    countTokens(dropped);
    countTokens(kept);
    countTokens(dropped);
    countTokens(kept);
    const chunk = 'lorem ipsum dolor sit amet '.repeat(MAX_CACHED_LENGTH / 16).slice(0, MAX_CACHED_LENGTH - 16);
    let filled = 0;
    for (let i = 0; filled < 2 * CACHE_CHARS; i++) {
      const text = fresh(chunk);
      countTokens(text);
      countTokens(text);
      filled += text.length;
      expect(cacheSize().chars).toBeLessThanOrEqual(CACHE_CHARS);
      // Used every 8 × 64 K characters, far less than the cache holds: never evicted.
      if (i % 8 === 0) {
        expect(isCached(kept)).toBe(true);
        countTokens(kept);
      }
    }
    expect(isCached(kept)).toBe(true);
    expect(isCached(dropped)).toBe(false);
    expect(countTokens(dropped)).toBe(reference(dropped));
  });
});

describe('messages', () => {
  const message = (...content: Message['content']): Message => ({ role: 'user', content });

  test("Copilot's bookkeeping parts (bare-word mime types) count 0", () => {
    const bookkeeping = message(
      { type: 'data', mimeType: 'cache_control', data: b64('ephemeral') },
      { type: 'data', mimeType: 'stateful_marker', data: b64('{"marker":"abc"}') },
      { type: 'tool_result', toolCallId: 'c1', result: [{ type: 'data', mimeType: 'cache_control', data: b64('ephemeral') }] },
    );
    expect(countTokens(bookkeeping)).toBe(MESSAGE_OVERHEAD);
    expect(countTokens(message())).toBe(MESSAGE_OVERHEAD);
  });

  test('a message is its parts plus its framing, at least the sum of its texts', () => {
    const texts = ['Please read the file and fix the bug.', 'Let me think about the stack trace first.', 'Found it: an off-by-one in the loop.', 'line 1\nline 2'];
    const parameters = { filePath: '/src/a.ts', range: { start: 1, end: 20 } };
    const msg = message(
      { type: 'text', value: texts[0] },
      { type: 'thinking', value: texts[1] },
      { type: 'tool_call', toolCallId: 'c1', toolName: 'read_file', parameters },
      { type: 'tool_result', toolCallId: 'c1', result: [{ type: 'text', value: texts[3] }] },
      { type: 'text', value: texts[2] },
    );
    const sum = texts.reduce((n, t) => n + reference(t), 0);
    const call = reference('read_file') + reference('{"filePath":"/src/a.ts","range":{"end":20,"start":1}}');
    expect(countTokens(msg)).toBe(MESSAGE_OVERHEAD + sum + call);
    expect(countTokens(msg)).toBeGreaterThanOrEqual(sum);
  });

  test('tool call parameters count the same whatever their key order', () => {
    const a = message({ type: 'tool_call', toolCallId: 'c', toolName: 't', parameters: { b: [1, { y: 2, x: 'z' }], a: 'q' } });
    const b = message({ type: 'tool_call', toolCallId: 'c', toolName: 't', parameters: { a: 'q', b: [1, { x: 'z', y: 2 }] } });
    expect(countTokens(a)).toBe(countTokens(b));
  });

  test('data: an image is a fixed estimate, text and JSON their decoded text, other data by size', () => {
    const image = message({ type: 'data', mimeType: 'image/png', data: b64('not really a png') });
    expect(countTokens(image)).toBe(MESSAGE_OVERHEAD + IMAGE_TOKENS);
    const source = 'export const answer = 42;\n';
    const json = '{"files":["a.ts","b.ts"],"count":2}';
    expect(countTokens(message({ type: 'data', mimeType: 'text/x-typescript', data: b64(source) }))).toBe(MESSAGE_OVERHEAD + reference(source));
    expect(countTokens(message({ type: 'data', mimeType: 'application/json', data: b64(json) }))).toBe(MESSAGE_OVERHEAD + reference(json));
    const result = message({ type: 'tool_result', toolCallId: 'c', result: [{ type: 'data', mimeType: 'application/vnd.api+json', data: b64(json) }] });
    expect(countTokens(result)).toBe(MESSAGE_OVERHEAD + reference(json));
    const binary = (bytes: number): Message => message({ type: 'data', mimeType: 'application/pdf', data: Buffer.alloc(bytes, 7).toString('base64') });
    expect(countTokens(binary(4000))).toBe(MESSAGE_OVERHEAD + 1000);
    expect(countTokens(binary(4001))).toBe(MESSAGE_OVERHEAD + 1001);
    expect(countTokens(binary(0))).toBe(MESSAGE_OVERHEAD);
  });
});
