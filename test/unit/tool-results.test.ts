/**
 * What an agent's MCP call of a bridged VS Code tool returns: the consumer's tool result converted
 * (`toCallToolResult`), or the error of a call the user never let run (`declinedResult`).
 */
import { declinedResult, toCallToolResult } from '../../src/tools/tool-results.js';
import type { ToolResultPart } from '../../src/protocol/messages.js';

type Item = ToolResultPart['result'][number];

const resultOf = (...result: Item[]): ToolResultPart => ({ type: 'tool_result', toolCallId: 'call-1', result });
const data = (mimeType: string, bytes: Buffer | string): Item => ({ type: 'data', mimeType, data: Buffer.from(bytes).toString('base64') });

describe('toCallToolResult', () => {
  test('text parts become text content, in order, and the result is not an error', () => {
    const result = toCallToolResult(resultOf({ type: 'text', value: '3 matches' }, { type: 'text', value: 'in 2 files' }));
    expect(result).toEqual({
      content: [
        { type: 'text', text: '3 matches' },
        { type: 'text', text: 'in 2 files' },
      ],
    });
    expect(result.isError).toBeUndefined();
  });

  test('images become image content with their data untouched', () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    expect(toCallToolResult(resultOf({ type: 'text', value: 'the editor' }, { type: 'data', mimeType: 'image/png', data: png }))).toEqual({
      content: [
        { type: 'text', text: 'the editor' },
        { type: 'image', mimeType: 'image/png', data: png },
      ],
    });
  });

  test.each([
    ['application/json', '{"files":["a.ts"]}'],
    ['application/vnd.api+json', '{"ok":true}'],
    ['text/plain', 'plain words'],
    ['text/markdown', '# Title'],
    ['application/xml', '<a>1</a>'],
  ])('%s data is decoded as UTF-8 text', (mimeType, body) => {
    expect(toCallToolResult(resultOf(data(mimeType, body))).content).toEqual([{ type: 'text', text: body }]);
  });

  test('an SVG, though XML, is an image', () => {
    const svg = data('image/svg+xml', '<svg/>');
    expect(toCallToolResult(resultOf(svg)).content).toEqual([{ type: 'image', mimeType: 'image/svg+xml', data: Buffer.from('<svg/>').toString('base64') }]);
  });

  test('non-ASCII text data survives the decoding', () => {
    expect(toCallToolResult(resultOf(data('text/plain', 'héllo → wörld ✓'))).content).toEqual([{ type: 'text', text: 'héllo → wörld ✓' }]);
  });

  test('binary data becomes a placeholder naming its type and size', () => {
    const bytes = Buffer.from([0, 1, 2, 3, 255, 254, 253]);
    expect(toCallToolResult(resultOf(data('application/octet-stream', bytes))).content).toEqual([
      { type: 'text', text: '[application/octet-stream data, 7 bytes]' },
    ]);
  });

  test("Copilot's bookkeeping parts (bare-word mime types) are left out", () => {
    const result = toCallToolResult(resultOf(data('cache_control', '{}'), { type: 'text', value: 'kept' }, data('stateful_marker', 'abc')));
    expect(result.content).toEqual([{ type: 'text', text: 'kept' }]);
  });

  test('an empty result is an empty content list, not an error', () => {
    expect(toCallToolResult(resultOf())).toEqual({ content: [] });
  });
});

describe('declinedResult', () => {
  test('is an error result saying the user declined or cancelled that tool call', () => {
    expect(declinedResult('search_workspace')).toEqual({
      content: [{ type: 'text', text: 'The user declined or cancelled the search_workspace tool call.' }],
      isError: true,
    });
  });
});
