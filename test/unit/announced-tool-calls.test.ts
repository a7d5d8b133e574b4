/**
 * `AnnouncedToolCalls`: what a permission request leaves out (Gemini CLI and Codex send `rawInput: null`,
 * Codex no title) is taken from the `tool_call` update that announced the same tool call.
 */
import { AnnouncedToolCalls } from '../../src/agents/acp/session/announced-tool-calls.js';

describe('AnnouncedToolCalls', () => {
  test('a permission request without input or title gets those of its announcement, updates merged in', () => {
    const seen = new AnnouncedToolCalls();
    seen.record({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'touch x', kind: 'execute', status: 'pending', rawInput: { command: 'touch x' } });
    seen.record({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'in_progress', title: null });
    expect(seen.complete({ toolCallId: 'c1', rawInput: null, status: 'pending' })).toEqual({ toolCallId: 'c1', title: 'touch x', kind: 'execute', rawInput: { command: 'touch x' }, status: 'pending' });
    expect(seen.get('c1')).toMatchObject({ status: 'in_progress', title: 'touch x' });
  });

  test("what the request says itself wins; a call never announced stays as it is", () => {
    const seen = new AnnouncedToolCalls();
    seen.record({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'announced', rawInput: { a: 1 } });
    expect(seen.complete({ toolCallId: 'c1', title: 'asked', rawInput: { b: 2 } })).toMatchObject({ title: 'asked', rawInput: { b: 2 } });
    expect(seen.complete({ toolCallId: 'c2', rawInput: null })).toEqual({ toolCallId: 'c2', rawInput: null });
  });

  test('other updates are ignored, and only the latest calls are kept', () => {
    const seen = new AnnouncedToolCalls();
    seen.record({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } });
    for (let i = 0; i < 300; i++) seen.record({ sessionUpdate: 'tool_call', toolCallId: `c${i}`, title: `t${i}` });
    expect(seen.get('c0')).toBeUndefined();
    expect(seen.get('c299')).toMatchObject({ title: 't299' });
  });
});
