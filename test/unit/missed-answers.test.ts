/** What an answer whose window went away said meanwhile, for the window's next request in that chat (missed-answers.ts). */
import { MISSED_END, MISSED_INTRO, MissedAnswers } from '../../src/server/missed-answers.js';
import type { Message } from '../../src/protocol/messages.js';

const user = (value: string): Message => ({ role: 'user', content: [{ type: 'text', value }] });
const answer = (value: string): Message => ({ role: 'assistant', content: [{ type: 'text', value }] });

function adopting(missed: MissedAnswers, messages: Message[]): { shown: string[]; went: () => boolean; held: () => readonly Message[] | undefined } {
  const shown: string[] = [];
  let held: readonly Message[] | undefined;
  missed.adopt(messages, (text) => shown.push(text), (history) => (held = history));
  return { shown, went: () => held !== undefined, held: () => held };
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
  missed.part('1:1', { type: 'data', mimeType: 'usage', data: '{}' });
  missed.part('1:1', { type: 'text', value: 'a time' });
  missed.end('1:1');
  const next = [user('tell a story'), answer('Once'), user('go on')];
  const first = adopting(missed, next);
  expect(first.went()).toBe(true);
  expect(first.shown.join('')).toBe(`${MISSED_INTRO}once upon a time\n\n(and 1 tool call(s) the window did not see)${MISSED_END}`);
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
  expect(next.shown.join('')).toBe(`${MISSED_INTRO}I will delete it. \n\n(and 1 tool call(s) the window did not see)${MISSED_END}`);
});

test("the person's message as Copilot renders it again in a reloaded window's history (other context blocks, more messages before it) is the orphan's", () => {
  const missed = new MissedAnswers();
  const asked = '<context>\nThe current date is 2026-12-02.\n</context>\n<reminderInstructions>\nBe brief.\n</reminderInstructions>\n<userRequest>\ncount 200\n</userRequest>\n';
  missed.orphan('1:6', [user('<environment_info>\nLinux\n</environment_info>'), user(asked)]);
  missed.part('1:6', { type: 'text', value: 'c56 c57 ' });
  missed.end('1:6');
  const next = adopting(missed, [user('<environment_info>\nLinux\n</environment_info>'), user('<workspace_info>\nfolders\n</workspace_info>'), user('<userRequest>\ncount 200\n</userRequest>\n'), answer('c1 c2'), user('say after the reload')]);
  expect(next.shown.join('')).toBe(`${MISSED_INTRO}c56 c57 ${MISSED_END}`);
  expect(next.went()).toBe(true);
});

test('VS Code kept less of the answer than its window was shown (it saves the chat on a timer): the rest follows what it kept, once', () => {
  const missed = new MissedAnswers();
  for (const chunk of ['c1 ', 'c2 ', 'c3 ', 'c4 ']) missed.part('1:7', { type: 'text', value: chunk });
  missed.orphan('1:7', [user('count 6')]);
  missed.part('1:7', { type: 'text', value: 'c5 ' });
  missed.part('1:7', { type: 'text', value: 'c6 ' });
  missed.end('1:7');
  const next = adopting(missed, [user('count 6'), answer('c1 c2 '), user('go on')]);
  expect(next.shown.join('')).toBe(`${MISSED_INTRO}c3 c4 c5 c6 ${MISSED_END}`);
  // The agent's history holds its answer whole, as it said it.
  expect(next.held()).toEqual([user('count 6'), answer('c1 c2 c3 c4 c5 c6 '), user('go on')]);
  // An answer the consumer kept otherwise than it was said: what was said since the window went away.
  missed.part('1:8', { type: 'text', value: 'one ' });
  missed.orphan('1:8', [user('count 2')]);
  missed.part('1:8', { type: 'text', value: 'two' });
  missed.end('1:8');
  expect(adopting(missed, [user('count 2'), answer('One'), user('go on')]).shown.join('')).toBe(`${MISSED_INTRO}two${MISSED_END}`);
});

test('an answer whose window stayed is kept no longer than it runs', () => {
  const missed = new MissedAnswers();
  missed.part('1:9', { type: 'text', value: 'seen' });
  missed.end('1:9');
  missed.orphan('1:10', [user('other')]);
  const next = adopting(missed, [user('ask'), answer('seen'), user('go on')]);
  expect(next.shown).toEqual([]);
  expect(next.went()).toBe(true);
});

test("the chat's later requests carry the cut answer and the shown missed text again: the agent's history holds its own words", () => {
  const missed = new MissedAnswers();
  missed.part('1:11', { type: 'text', value: 'c1 c2 c3' });
  missed.orphan('1:11', [user('count 3')]);
  missed.end('1:11');
  const first = adopting(missed, [user('count 3'), answer('c1 '), user('go on')]);
  const shown = first.shown.join('');
  expect(shown).toBe(`${MISSED_INTRO}c2 c3${MISSED_END}`);
  const later = adopting(missed, [user('count 3'), answer('c1 '), user('go on'), answer(`${shown}going on`), user('and then')]);
  expect(later.shown).toEqual([]);
  expect(later.held()).toEqual([user('count 3'), answer('c1 c2 c3'), user('go on'), answer('going on'), user('and then')]);
});
