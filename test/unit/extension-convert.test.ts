/**
 * The extension's conversion between VS Code's LM API values and the wire protocol, without VS Code:
 * the classes below stand in for VS Code's (same fields, as VS Code builds them).
 */
import { decodeOrThrow } from '../../src/protocol/decode.js';
import { Message, type ResponsePart } from '../../src/protocol/messages.js';
import { fromWireResponsePart, toWireContent, toWireMessages, toWireOptions, toWireRequest, type ResponsePartFactory } from '../../src/extension/provider/convert.js';

class TextPart {
  constructor(public value: string) {}
}
class ToolCallPart {
  constructor(
    public callId: string,
    public name: string,
    public input: object,
  ) {}
}
class ToolResultPart {
  constructor(
    public callId: string,
    public content: unknown[],
  ) {}
}
/** Not a subclass of ToolResultPart, as in VS Code. */
class ToolResultPart2 {
  constructor(
    public callId: string,
    public content: unknown[],
  ) {}
}
class DataPart {
  constructor(
    public data: Uint8Array,
    public mimeType: string,
  ) {}
}
class ThinkingPart {
  constructor(
    public value: string | string[],
    public id?: string,
    public metadata?: object,
  ) {}
}
class PromptTsxPart {
  constructor(public value: unknown) {}
}

const bytes = (text: string) => new TextEncoder().encode(text);
const b64 = (text: string) => Buffer.from(text).toString('base64');
const isThinking = (part: object) => part instanceof ThinkingPart;

describe('toWireMessages', () => {
  test('maps User (1), Assistant (2) and System (3)', () => {
    const messages = [
      { role: 3, content: [new TextPart('be brief')], name: undefined },
      { role: 1, content: [new TextPart('hi')], name: 'me' },
      { role: 2, content: [new TextPart('hello')], name: undefined },
    ];
    expect(toWireMessages(messages)).toEqual([
      { role: 'system', content: [{ type: 'text', value: 'be brief' }] },
      { role: 'user', content: [{ type: 'text', value: 'hi' }] },
      { role: 'assistant', content: [{ type: 'text', value: 'hello' }] },
    ]);
  });

  test('skips a message with an unknown role, with a log line', () => {
    const log: string[] = [];
    const wire = toWireMessages(
      [
        { role: 1, content: [new TextPart('a')] },
        { role: 7, content: [new TextPart('b')] },
        { role: 2, content: [new TextPart('c')] },
      ],
      { log: (m) => log.push(m) },
    );
    expect(wire.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(log).toEqual(['skipped message 1: unknown role 7']);
  });

  test('converts every part kind, and the result decodes as wire messages', () => {
    const messages = [
      { role: 2, content: [new ThinkingPart('let me see', 'th-1'), new TextPart('calling'), new ToolCallPart('call-1', 'search', { q: 'x' })] },
      {
        role: 1,
        content: [
          new ToolResultPart('call-1', [new TextPart('found'), new DataPart(bytes('PNG'), 'image/png')]),
          new DataPart(bytes('ephemeral'), 'cache_control'),
          new TextPart('thanks'),
        ],
      },
    ];
    const wire = toWireMessages(messages, { isThinking });
    expect(wire).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'thinking', value: 'let me see' },
          { type: 'text', value: 'calling' },
          { type: 'tool_call', toolCallId: 'call-1', toolName: 'search', parameters: { q: 'x' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            toolCallId: 'call-1',
            result: [
              { type: 'text', value: 'found' },
              { type: 'data', mimeType: 'image/png', data: b64('PNG') },
            ],
          },
          { type: 'data', mimeType: 'cache_control', data: b64('ephemeral') },
          { type: 'text', value: 'thanks' },
        ],
      },
    ]);
    for (const message of wire) expect(decodeOrThrow(Message, message)).toEqual(message);
  });

  test('passes Copilot bookkeeping data parts through as data parts', () => {
    const kinds = ['cache_control', 'stateful_marker', 'thinking', 'context_management', 'phase_data', 'token_usage'];
    const [message] = toWireMessages([{ role: 2, content: kinds.map((kind) => new DataPart(bytes(`{"k":"${kind}"}`), kind)) }]);
    expect(message!.content).toEqual(kinds.map((kind) => ({ type: 'data', mimeType: kind, data: b64(`{"k":"${kind}"}`) })));
  });

  test('encodes a data part that is a view on part of a larger buffer', () => {
    const whole = bytes('xxHELLOyy');
    const [message] = toWireMessages([{ role: 1, content: [new DataPart(whole.subarray(2, 7), 'text/plain')] }]);
    expect(message!.content).toEqual([{ type: 'data', mimeType: 'text/plain', data: b64('HELLO') }]);
  });

  test('recognizes tool results structurally (LanguageModelToolResultPart2), with nested content', () => {
    const log: string[] = [];
    const parts = toWireContent(
      [
        new ToolResultPart2('c2', [
          new TextPart('line 1'),
          new PromptTsxPart({ node: { type: 1, ctor: 2, children: [{ type: 2, text: 'from ' }, { type: 1, children: [{ type: 2, text: 'tsx' }] }] } }),
          new DataPart(bytes('{"a":1}'), 'application/json'),
          { something: 'else' },
          42,
        ]),
      ],
      { log: (m) => log.push(m) },
    );
    expect(parts).toEqual([
      {
        type: 'tool_result',
        toolCallId: 'c2',
        result: [
          { type: 'text', value: 'line 1' },
          { type: 'text', value: 'from tsx' },
          { type: 'data', mimeType: 'application/json', data: b64('{"a":1}') },
        ],
      },
    ]);
    expect(log).toEqual([
      'skipped message, part 0, tool result content 3: unknown tool result content {something}',
      'skipped message, part 0, tool result content 4: not an object (number)',
    ]);
  });

  test('an empty tool result stays a tool result', () => {
    expect(toWireContent([new ToolResultPart('c', [])])).toEqual([{ type: 'tool_result', toolCallId: 'c', result: [] }]);
  });

  test('skips unknown parts with a log line naming them', () => {
    class Mystery {
      constructor(public foo = 1) {}
    }
    const log: string[] = [];
    const [message] = toWireMessages([{ role: 1, content: [new TextPart('a'), new Mystery(), null, 'raw string', new TextPart('b')] }], { log: (m) => log.push(m) });
    expect(message!.content).toEqual([
      { type: 'text', value: 'a' },
      { type: 'text', value: 'b' },
    ]);
    expect(log).toEqual([
      'skipped message 0, part 1: unknown part Mystery {foo}',
      'skipped message 0, part 2: not an object (null)',
      'skipped message 0, part 3: not an object (string)',
    ]);
  });

  test('thinking parts: by class when known, else only an array value marks one', () => {
    const content = [new ThinkingPart('one'), new ThinkingPart(['a', 'b'])];
    expect(toWireContent(content, { isThinking })).toEqual([
      { type: 'thinking', value: 'one' },
      { type: 'thinking', value: 'ab' },
    ]);
    // Without the class, a string-valued part reads as text (VS Code cannot make a thinking part then).
    expect(toWireContent(content)).toEqual([
      { type: 'text', value: 'one' },
      { type: 'thinking', value: 'ab' },
    ]);
  });

  test('a tool call whose input is not an object gets empty parameters', () => {
    expect(toWireContent([new ToolCallPart('c', 't', [1, 2] as unknown as object)])).toEqual([{ type: 'tool_call', toolCallId: 'c', toolName: 't', parameters: {} }]);
  });
});

describe('toWireOptions', () => {
  test('maps tools and the tool mode', () => {
    expect(
      toWireOptions({
        toolMode: 2,
        tools: [
          { name: 'a', description: 'A', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } },
          { name: 'b', description: 'B', inputSchema: undefined },
        ],
      }),
    ).toEqual({
      toolMode: 'required',
      tools: [
        { name: 'a', description: 'A', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } },
        { name: 'b', description: 'B' },
      ],
    });
  });

  test('auto by default, no tools without tools', () => {
    expect(toWireOptions({ toolMode: 1 })).toEqual({ toolMode: 'auto' });
    expect(toWireOptions({})).toEqual({ toolMode: 'auto' });
    expect(toWireOptions({ tools: [], toolMode: 99 })).toEqual({ toolMode: 'auto' });
  });

  test('modelOptions (consumer internals) are not forwarded', () => {
    const request = toWireRequest([{ role: 1, content: [new TextPart('x')] }], { toolMode: 1, modelOptions: { secret: 1 } } as never);
    expect(request.options).toEqual({ toolMode: 'auto' });
  });
});

describe('fromWireResponsePart', () => {
  const factory: ResponsePartFactory<object> = {
    text: (value) => new TextPart(value),
    toolCall: (callId, name, input) => new ToolCallPart(callId, name, input),
    data: (data, mimeType) => new DataPart(data, mimeType),
    thinking: (value) => new ThinkingPart(value),
  };

  test('maps every response part kind', () => {
    const parts: ResponsePart[] = [
      { type: 'text', value: 'hi' },
      { type: 'tool_call', toolCallId: 'c', toolName: 't', parameters: { a: 1 } },
      { type: 'data', mimeType: 'image/png', data: b64('PNG') },
      { type: 'thinking', value: 'hmm' },
    ];
    const out = parts.map((part) => fromWireResponsePart(part, factory));
    expect(out).toEqual([new TextPart('hi'), new ToolCallPart('c', 't', { a: 1 }), new DataPart(bytes('PNG'), 'image/png'), new ThinkingPart('hmm')]);
    expect(out[0]).toBeInstanceOf(TextPart);
    expect(out[3]).toBeInstanceOf(ThinkingPart);
    expect(Buffer.from((out[2] as DataPart).data).toString()).toBe('PNG');
  });

  test('without the thinking class, a thinking part is dropped, never shown as text', () => {
    const withoutThinking: ResponsePartFactory<object> = { ...factory, thinking: undefined };
    expect(fromWireResponsePart({ type: 'thinking', value: 'secret thoughts' }, withoutThinking)).toBeUndefined();
    expect(fromWireResponsePart({ type: 'text', value: 'shown' }, withoutThinking)).toEqual(new TextPart('shown'));
  });

  test('round trip: response parts read back as the same wire parts', () => {
    const parts: ResponsePart[] = [
      { type: 'text', value: 'hi' },
      { type: 'tool_call', toolCallId: 'c', toolName: 't', parameters: { a: [1, { b: 2 }] } },
      { type: 'data', mimeType: 'stateful_marker', data: b64('m1') },
      { type: 'thinking', value: 'hmm' },
    ];
    const vscodeParts = parts.map((part) => fromWireResponsePart(part, factory)!);
    expect(toWireContent(vscodeParts, { isThinking })).toEqual(parts);
  });
});
