import { transcriptOf } from '../../src/agents/transcript.js';
import type { Message } from '../../src/protocol/messages.js';

const user = (value: string): Message => ({ role: 'user', content: [{ type: 'text', value }] });
const assistant = (value: string): Message => ({ role: 'assistant', content: [{ type: 'text', value }] });

describe('transcriptOf', () => {
  test('nothing before the question, nothing to tell', () => {
    expect(transcriptOf([])).toBeUndefined();
    expect(transcriptOf([{ role: 'system', content: [{ type: 'text', value: 'Be brief' }] }])).toBeUndefined();
  });

  test("users' words without the consumer's context, replies, tool calls and results, in order", () => {
    const text = transcriptOf([
      { role: 'system', content: [{ type: 'text', value: 'SECRET SYSTEM PROMPT' }] },
      user('<context>date</context><userRequest>List the files</userRequest>'),
      { role: 'assistant', content: [{ type: 'tool_call', toolCallId: 't1', toolName: 'ls', parameters: { dir: '.' } }] },
      { role: 'user', content: [{ type: 'tool_result', toolCallId: 't1', result: [{ type: 'text', value: 'a.ts b.ts' }] }] },
      assistant('There are two files.'),
    ])!;
    expect(text).not.toContain('SECRET');
    expect(text).not.toContain('<context>');
    const order = ['User: List the files', '[called the tool ls with {"dir":"."}]', '[tool result: a.ts b.ts]', 'Assistant: There are two files.'].map((s) => text.indexOf(s));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  test('a long history keeps its most recent messages and says how many went', () => {
    const history = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? user(`question ${i} ${'x'.repeat(1000)}`) : assistant(`answer ${i}`)));
    const text = transcriptOf(history)!;
    expect(text.length).toBeLessThan(30_000);
    expect(text).toContain('answer 99');
    expect(text).not.toContain('question 0 ');
    expect(text).toMatch(/\[\d+ earlier message\(s\) omitted\]/);
  });

  test('what a chat said with another model, while this session was away, is told as such', () => {
    const text = transcriptOf([user('say two'), assistant('two')], 'meanwhile')!;
    expect(text.split('\n')).toEqual([
      'This conversation went on without this session, with another model. What was said meanwhile:',
      '<transcript>',
      'User: say two',
      'Assistant: two',
      '</transcript>',
      'Continue the conversation: answer the message that follows.',
    ]);
  });
});
