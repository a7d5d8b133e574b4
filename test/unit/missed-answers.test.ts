/** What an answer whose window went away said meanwhile, for the window's next request in that chat (missed-answers.ts). */
import { MISSED_END, MISSED_INTRO, MissedAnswers } from '../../src/server/missed-answers.js';
import type { Message } from '../../src/protocol/messages.js';

const user = (value: string): Message => ({ role: 'user', content: [{ type: 'text', value }] });
const answer = (value: string): Message => ({ role: 'assistant', content: [{ type: 'text', value }] });

function adopting(missed: MissedAnswers, messages: Message[]): { shown: string[]; went: () => boolean } {
  const shown: string[] = [];
  let went = false;
  missed.adopt(messages, (text) => shown.push(text), () => (went = true));
  return { shown, went: () => went };
}

test('a request that goes on from no orphan goes at once and is shown nothing', () => {
  const missed = new MissedAnswers();
  missed.orphan('1:1', [user('tell a story')]);
  const other = adopting(missed, [user('something else'), answer('…'), user('and?')]);
  expect(other.went()).toBe(true);
  expect(other.shown).toEqual([]);
});

test('an ended orphan: its text after the intro, its other steps said, then the separator, and the request goes; only once', () => {
  const missed = new MissedAnswers();
  missed.orphan('1:1', [user('tell a story')]);
  missed.part('1:1', { type: 'text', value: 'once upon ' });
  missed.part('1:1', { type: 'tool_call', toolCallId: 't', toolName: 'read', parameters: {} });
  missed.part('1:1', { type: 'text', value: 'a time' });
  missed.end('1:1');
  const next = [user('tell a story'), answer('Once'), user('go on')];
  const first = adopting(missed, next);
  expect(first.went()).toBe(true);
  expect(first.shown.join('')).toBe(`${MISSED_INTRO}once upon a time\n\n(and 1 other step(s): tool calls or data the window did not see)${MISSED_END}`);
  const again = adopting(missed, next);
  expect(again.shown).toEqual([]);
  expect(again.went()).toBe(true);
});

test('a running orphan: the request waits, hears its further text as it comes, and goes once it ended', async () => {
  const missed = new MissedAnswers();
  missed.orphan('1:1', [user('tell a story')]);
  missed.part('1:1', { type: 'text', value: 'once ' });
  const waiting = adopting(missed, [user('tell a story'), answer(''), user('go on')]);
  expect(waiting.went()).toBe(false);
  missed.part('1:1', { type: 'text', value: 'upon a time' });
  expect(waiting.shown.join('')).toBe(`${MISSED_INTRO}once upon a time`);
  missed.end('1:1');
  await Promise.resolve();
  expect(waiting.went()).toBe(true);
  expect(waiting.shown.join('')).toBe(`${MISSED_INTRO}once upon a time${MISSED_END}`);
});

test("a running orphan that called the consumer's tools since (a call no window got) does not hold the request back", () => {
  const missed = new MissedAnswers();
  missed.orphan('1:1', [user('clean up')]);
  missed.part('1:1', { type: 'text', value: 'I will delete it. ' });
  missed.part('1:1', { type: 'tool_call', toolCallId: 't', toolName: 'symposium-agent-action', parameters: {} });
  const next = adopting(missed, [user('clean up'), answer(''), user('wait, no')]);
  expect(next.went()).toBe(true);
  expect(next.shown.join('')).toBe(`${MISSED_INTRO}I will delete it. \n\n(and 1 other step(s): tool calls or data the window did not see)${MISSED_END}`);
});
