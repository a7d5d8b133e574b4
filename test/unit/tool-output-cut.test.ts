/** The client's cut of an oversized tool result (issue 54): deterministic, head and tail, said in words, unicode-safe. */
import { MAX_TOOL_DATA_BYTES, MAX_TOOL_OUTPUT_CHARS, cutOutput, cutToolOutputs } from '../../src/client/tool-output-cut.js';
import type { Message } from '../../src/protocol/messages.js';

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const WORDS = /\n\[output cut: (\d+) more characters not shown\]\n/;

/** The head, the number said and the tail of a cut text. */
function partsOf(cut: string): { head: string; said: number; tail: string } {
  const words = WORDS.exec(cut);
  if (words === null) throw new Error('no words in the cut text');
  return { head: cut.slice(0, words.index), said: Number(words[1]), tail: cut.slice(words.index + words[0].length) };
}

const result = (toolCallId: string, ...result: Extract<Message['content'][number], { type: 'tool_result' }>['result']): Message => ({
  role: 'user',
  content: [{ type: 'tool_result', toolCallId, result }],
});

describe('cutOutput', () => {
  test('a text up to the limit is left as it is (the same string)', () => {
    const text = 'x'.repeat(MAX_TOOL_OUTPUT_CHARS);
    expect(cutOutput(text)).toBe(text);
    expect(cutOutput('')).toBe('');
  });

  test('a longer text keeps its head and its tail, and says in words how much was left out', () => {
    const text = `FIRST LINE\n${'middle '.repeat(100_000)}\nerror: the last line`;
    const cut = cutOutput(text);
    const { head, said, tail } = partsOf(cut);
    expect(head.startsWith('FIRST LINE\n')).toBe(true);
    expect(tail.endsWith('\nerror: the last line')).toBe(true);
    expect(text.startsWith(head)).toBe(true);
    expect(text.endsWith(tail)).toBe(true);
    expect(head.length + said + tail.length).toBe(text.length);
    // More of the tail than of the head: a command's errors and summary come last.
    expect(tail.length).toBeGreaterThan(2 * head.length);
    expect(cut.length).toBeLessThanOrEqual(MAX_TOOL_OUTPUT_CHARS);
  });

  test('is deterministic, and a cut text is not cut again (a client that sends what it sent keeps its identity)', () => {
    const text = 'abc\n'.repeat(1_000_000);
    const cut = cutOutput(text);
    expect(cutOutput(`${text}`)).toBe(cut);
    expect(cutOutput(cut)).toBe(cut);
  });

  test('50 MB is cut to at most the limit', () => {
    const text = 'y'.repeat(50 * 1024 * 1024);
    const cut = cutOutput(text);
    expect(cut.length).toBeLessThanOrEqual(MAX_TOOL_OUTPUT_CHARS);
    const { head, said, tail } = partsOf(cut);
    expect(head.length + said + tail.length).toBe(text.length);
  });

  test('never splits a surrogate pair, wherever the cut falls', () => {
    // Emoji (two UTF-16 units each) from end to end, shifted by 0 or 1 unit so that both cut points fall
    // on either half of a pair.
    for (const lead of ['', 'a']) {
      for (const trail of ['', 'b']) {
        const text = `${lead}${'😀'.repeat(MAX_TOOL_OUTPUT_CHARS)}${trail}`;
        const cut = cutOutput(text);
        const { head, said, tail } = partsOf(cut);
        expect(head.length + said + tail.length).toBe(text.length);
        expect(text.startsWith(head) && text.endsWith(tail)).toBe(true);
        // No lone surrogate anywhere: the text survives a round trip through UTF-8 unchanged.
        expect(Buffer.from(cut, 'utf8').toString('utf8')).toBe(cut);
        expect(LONE_SURROGATE.test(cut)).toBe(false);
      }
    }
  });
});

describe('cutToolOutputs', () => {
  test('messages with nothing to cut are the same array', () => {
    const messages: Message[] = [{ role: 'user', content: [{ type: 'text', value: 'hi' }] }, result('c1', { type: 'text', value: 'small' })];
    expect(cutToolOutputs(messages)).toBe(messages);
  });

  test("cuts only the tool results' long texts, leaving every other part and message as it was", () => {
    const long = 'z'.repeat(MAX_TOOL_OUTPUT_CHARS + 1);
    const asked: Message = { role: 'user', content: [{ type: 'text', value: long }] };
    const answered = result('c1', { type: 'text', value: 'short' }, { type: 'text', value: long }, { type: 'data', mimeType: 'image/png', data: 'iVBORw0KGgo=' });
    const messages = [asked, answered];
    const cut = cutToolOutputs(messages);
    expect(cut).not.toBe(messages);
    expect(cut[0]).toBe(asked);
    expect(cut[1]).toEqual(result('c1', { type: 'text', value: 'short' }, { type: 'text', value: cutOutput(long) }, { type: 'data', mimeType: 'image/png', data: 'iVBORw0KGgo=' }));
    // The caller's messages are not changed.
    expect(answered.content[0]).toMatchObject({ result: [{ value: 'short' }, { value: long }, { mimeType: 'image/png' }] });
  });

  test('a data item larger than the limit becomes words naming what was left out', () => {
    const bytes = MAX_TOOL_DATA_BYTES + 3;
    const data = Buffer.alloc(bytes, 7).toString('base64');
    const cut = cutToolOutputs([result('c1', { type: 'data', mimeType: 'image/png', data })]);
    expect(cut).toEqual([result('c1', { type: 'text', value: `[output cut: ${bytes} bytes of image/png not shown]` })]);
    const small = Buffer.alloc(MAX_TOOL_DATA_BYTES, 7).toString('base64');
    const kept = [result('c1', { type: 'data', mimeType: 'image/png', data: small })];
    expect(cutToolOutputs(kept)).toBe(kept);
  });
});
