import { decodeOrThrow, DecodeError } from '../../src/protocol/decode.js';
import { ProvideChatResponseParams, ProvideTokenCountParams } from '../../src/protocol/messages.js';

const valid = {
  modelId: 'symposium-eliza',
  messages: [{ role: 'user', content: [{ type: 'text', value: 'hi' }] }],
  agent: { eliza: { deterministic: true } },
};

function errorPath(input: unknown): string {
  try {
    decodeOrThrow(ProvideChatResponseParams, input);
  } catch (e) {
    if (e instanceof DecodeError) return e.message;
    throw e;
  }
  throw new Error('decoded without error');
}

describe('ProvideChatResponseParams', () => {
  test('decodes a valid request', () => {
    expect(decodeOrThrow(ProvideChatResponseParams, valid)).toEqual(valid);
  });

  test('decodes every part kind and an ACP agent', () => {
    const input = {
      ...valid,
      agent: { mcp_server: { name: 'a', command: 'agent', args: ['--acp'], env: [{ name: 'K', value: 'V' }] } },
      messages: [
        { role: 'system', content: [{ type: 'text', value: 'be nice' }] },
        { role: 'assistant', content: [{ type: 'thinking', value: 'hm' }, { type: 'tool_call', toolCallId: 'c1', toolName: 'x', parameters: { a: 1 } }] },
        { role: 'user', content: [{ type: 'tool_result', toolCallId: 'c1', result: [{ type: 'text', value: 'ok' }, { type: 'data', mimeType: 'image/png', data: 'AAAA' }] }] },
      ],
      options: { tools: [{ name: 'x', description: 'd', inputSchema: { type: 'object' } }], toolMode: 'auto' },
    };
    expect(decodeOrThrow(ProvideChatResponseParams, input)).toEqual(input);
  });

  test('an agent with another key besides its variant decodes to the variant alone', () => {
    const decoded = decodeOrThrow(ProvideChatResponseParams, { ...valid, agent: { eliza: { deterministic: true }, mcp_server: { name: 'a', command: 'x', args: [], env: [] }, note: 1 } });
    expect(decoded.agent).toEqual({ eliza: { deterministic: true } });
  });

  test('valid input is returned as it came (no copy), as decode would give it', () => {
    const input = { ...valid, agent: { mcp_server: { name: 'a', command: 'x', args: [], env: [] } }, marker: 'm' };
    expect(decodeOrThrow(ProvideChatResponseParams, input)).toBe(input);
    expect(ProvideChatResponseParams.decode(input)).toEqual({ _tag: 'Right', right: input });
  });

  test('names a missing top-level field', () => {
    expect(errorPath({ ...valid, modelId: undefined })).toMatch(/^params\.modelId: /);
  });

  test('names an unknown part type by its path', () => {
    const bad = { ...valid, messages: [valid.messages[0], { role: 'user', content: [{ type: 'text', value: 'a' }, { type: 'image', value: 'b' }] }] };
    expect(errorPath(bad)).toBe('params.messages[1].content[1].type: expected one of "text", "tool_call", "tool_result", "data", "thinking"');
  });

  test('names a bad field inside a known part type', () => {
    const bad = { ...valid, messages: [{ role: 'user', content: [{ type: 'text', value: 42 }] }] };
    expect(errorPath(bad)).toMatch(/^params\.messages\[0\]\.content\[0\]\.value: expected string, got 42$/);
  });

  test('names a bad role', () => {
    expect(errorPath({ ...valid, messages: [{ role: 'robot', content: [] }] })).toMatch(/^params\.messages\[0\]\.role: /);
  });

  test('names a bad field inside a tool result', () => {
    const bad = { ...valid, messages: [{ role: 'user', content: [{ type: 'tool_result', toolCallId: 'c', result: [{ type: 'tool_call' }] }] }] };
    expect(errorPath(bad)).toMatch(/^params\.messages\[0\]\.content\[0\]\.result\[0\]\.type: expected one of "text", "data"$/);
  });

  test('names an agent without a known variant', () => {
    expect(errorPath({ ...valid, agent: { claude: {} } })).toMatch(/^params\.agent: expected an object with one of the keys eliza, mcp_server$/);
  });

  test('names a bad field inside the agent command', () => {
    const agent = { mcp_server: { name: 'a', command: 'x', args: 'not-an-array', env: [] } };
    expect(errorPath({ ...valid, agent })).toMatch(/^params\.agent\.mcp_server\.args: /);
  });

  test("names a bad field of how the agent's shell is switched off", () => {
    const agent = { mcp_server: { name: 'a', command: 'x', args: [], env: [], shellOff: { files: [{ flag: '--admin-policy', name: 'p.toml' }] } } };
    expect(errorPath({ ...valid, agent })).toMatch(/^params\.agent\.mcp_server\.shellOff\.files\[0\]\.content: /);
  });

  test('names a bad tool option', () => {
    expect(errorPath({ ...valid, options: { tools: [{ name: 'x' }] } })).toMatch(/^params\.options\.tools\[0\]\.description: /);
  });
});

test('token count accepts a string or a message', () => {
  expect(decodeOrThrow(ProvideTokenCountParams, { modelId: 'm', text: 'abc' }).text).toBe('abc');
  const message = { role: 'user', content: [{ type: 'text', value: 'abc' }] };
  expect(decodeOrThrow(ProvideTokenCountParams, { modelId: 'm', text: message }).text).toEqual(message);
});
