import { firstWordsOf } from '../../src/history/first-words.js';
import type { Message } from '../../src/protocol/messages.js';

const user = (value: string): Message => ({ role: 'user', content: [{ type: 'text', value }] });

test("a chat's title is the person's words of its first message with words, without the consumer's context, on one line", () => {
  expect(firstWordsOf([{ role: 'system', content: [{ type: 'text', value: 'You are…' }] }, user('<context>\nThe date is …\n</context>\n<userRequest>\nfix   the\nparser\n</userRequest>')])).toBe('fix the parser');
  expect(firstWordsOf([user('<environment_details>cwd</environment_details>'), { role: 'assistant', content: [{ type: 'text', value: 'hi' }] }, user('second')])).toBe('second');
  expect(firstWordsOf([{ role: 'assistant', content: [{ type: 'text', value: 'hi' }] }])).toBeUndefined();
});

test('a long first message is cut at 80 characters', () => {
  const title = firstWordsOf([user('word '.repeat(40))])!;
  expect(title.length).toBeLessThanOrEqual(80);
  expect(title.endsWith('…')).toBe(true);
});
