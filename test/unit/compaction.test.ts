/**
 * Copilot's compaction, with the requests Copilot Chat 0.67 really sent in the Chat view, recorded by
 * `npm run test:vscode` (test/fixtures/copilot/): `/compact` (compact-*.json: the first message, the summary
 * request, the next message, which carries the summary instead of the history) and background compaction
 * once the agent reported its context 97% full (background-*.json).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isCompactionRequest, standInSummary, summaryMarkersOf } from '../../src/history/compaction.js';
import { applyContextPolicy, type ForwardedMessage } from '../../src/history/context-policy.js';
import { ConversationTracker } from '../../src/history/conversations.js';
import type { Message } from '../../src/protocol/messages.js';
import { ConversationStore } from '../../src/state/conversation-store.js';
import { createLogger } from '../../src/log/logger.js';

const fixture = (name: string): Message[] => (JSON.parse(readFileSync(path.resolve('test/fixtures/copilot', `${name}.json`), 'utf8')) as { messages: Message[] }).messages;
const texts = (messages: readonly ForwardedMessage[]): string[] => messages.flatMap((m) => m.content.flatMap((p) => (p.type === 'text' ? [p.value] : [])));
const user = (value: string): Message => ({ role: 'user', content: [{ type: 'text', value }] });

/** The marker the extension gave the summary request in the recorded run: its summary carries it. */
const RECORDED_MARKER = '35829e53-e40f-4ac8-8b09-0d3b02b79f44';
/** Copilot's background compaction: the turn's own messages and this last user message (`vHe`). */
const BACKGROUND =
  'The conversation has grown too large for the context window and must be compacted now.\n\nYour task is to create a comprehensive, detailed summary of the entire conversation…\n\nIMPORTANT: Output your summary wrapped in <summary> and </summary> tags. Do NOT call any tools.';

/** A tracker that answered the recorded first message with the scripted agent's reply. */
function afterFirstMessage(): { tracker: ConversationTracker; conversationId: string } {
  const tracker = new ConversationTracker({ newId: () => 'conv-1' });
  const first = tracker.decide({ id: 1, agentKey: 'a', messages: fixture('compact-first-message'), marker: 'first' });
  if (first.kind !== 'turn') throw new Error(first.reason);
  tracker.recordPart(1, { type: 'text', value: 'remember the word quince' });
  tracker.endTurn(1, true);
  return { tracker, conversationId: first.conversationId };
}

describe("Copilot's compaction", () => {
  test('the summary requests are recognised: foreground (/compact) and background; a conversation is not', () => {
    expect(isCompactionRequest(fixture('compact-summary-request'))).toBe(true);
    expect(isCompactionRequest(fixture('background-summary-request'))).toBe(true);
    expect(isCompactionRequest([...fixture('compact-first-message'), { role: 'assistant', content: [{ type: 'text', value: 'ok' }] }, user(BACKGROUND)])).toBe(true);
    for (const name of ['compact-first-message', 'compact-next-message', 'background-second-message', 'background-next-message', 'agent-mode-first-message', 'title-request']) expect(isCompactionRequest(fixture(name))).toBe(false);
    // The foreground request's words, typed by a person in a chat of Copilot's normal prompt, are a message like any other.
    expect(isCompactionRequest([...fixture('compact-first-message').slice(0, -1), user('Summarize the conversation history so far, please')])).toBe(false);
  });

  test("the stand-in summary is what Copilot accepts: in <summary> tags, never empty, bounded; it names the conversation", () => {
    const summary = standInSummary(Array.from({ length: 100 }, (_, i) => `request ${i} ${'x'.repeat(1000)}`), 'y'.repeat(5000), 'm-1');
    expect(summary.startsWith('<summary>\n') && summary.endsWith('\n</summary>')).toBe(true);
    expect(summary.length).toBeLessThan(8000);
    expect(summary).toContain('request 99');
    expect(summary).not.toContain('request 79 ');
    expect(standInSummary([], undefined, undefined)).toMatch(/^<summary>\n\S[\s\S]*\n<\/summary>$/);
    expect(summaryMarkersOf([user(`<conversation-summary>\n${summary}\n</conversation-summary>`)])).toEqual([{ index: 0, marker: 'm-1' }]);
    // A token in the person's own words is not a summary's.
    expect(summaryMarkersOf([user('symposium-conversation:m-1')])).toEqual([]);
  });

  test('the summary request is answered from the history, and the next message continues the same conversation with only its words', () => {
    const { tracker, conversationId } = afterFirstMessage();
    const summary = tracker.summarize({ id: 2, agentKey: 'a', messages: fixture('compact-summary-request'), marker: RECORDED_MARKER });
    expect(summary).toContain('- say remember the word quince');
    expect(summary).toContain("The agent's last reply: remember the word quince");
    expect(summary).toContain(`symposium-conversation:${RECORDED_MARKER}`);
    // The request Copilot sent next carries that summary (recorded with it) and none of the history.
    const next = tracker.decide({ id: 3, agentKey: 'a', messages: fixture('compact-next-message'), marker: 'next' });
    expect(next).toMatchObject({ kind: 'turn', conversationId, isNew: false, canceled: false });
    if (next.kind !== 'turn') return;
    expect(texts(applyContextPolicy(next.newMessages, 'user'))).toEqual(['history']);
    // And the one after it is found by its history again, the summary's token no longer needed.
    tracker.recordPart(3, { type: 'text', value: '["say remember the word quince"]' });
    tracker.endTurn(3, true);
    const withoutToken = fixture('compact-next-message').map((m) => ({ ...m, content: m.content.map((p) => (p.type === 'text' ? { ...p, value: p.value.replace(/symposium-conversation:\S+/, '') } : p)) }));
    const after = [...withoutToken, { role: 'assistant' as const, content: [{ type: 'text' as const, value: '["say remember the word quince"]' }] }, user('<userRequest>\nmore\n</userRequest>')];
    expect(tracker.decide({ id: 4, agentKey: 'a', messages: after })).toMatchObject({ conversationId, isNew: false, newMessages: [user('<userRequest>\nmore\n</userRequest>')] });
  });

  test('a summary request changes no turn: the turn in flight goes on, and its reply still extends the conversation', () => {
    const { tracker, conversationId } = afterFirstMessage();
    const second = [...fixture('compact-first-message'), { role: 'assistant' as const, content: [{ type: 'text' as const, value: 'remember the word quince' }] }, user('<userRequest>\nsay more\n</userRequest>')];
    expect(tracker.decide({ id: 2, agentKey: 'a', messages: second })).toMatchObject({ conversationId, isNew: false });
    tracker.recordPart(2, { type: 'text', value: 'more' });
    // Background compaction comes while the turn streams: the turn's own messages plus the compaction request.
    expect(tracker.summarize({ id: 3, agentKey: 'a', messages: [...second, user(BACKGROUND)], marker: 'bg' })).toContain('symposium-conversation:bg');
    tracker.recordPart(2, { type: 'text', value: ' said' });
    tracker.endTurn(2, true);
    const third = [...second, { role: 'assistant' as const, content: [{ type: 'text' as const, value: 'more said' }] }, user('<userRequest>\nthird\n</userRequest>')];
    expect(tracker.decide({ id: 4, agentKey: 'a', messages: third })).toMatchObject({ conversationId, isNew: false, canceled: false, newMessages: [user('<userRequest>\nthird\n</userRequest>')] });
  });

  test('background compaction, recorded: it comes while the second turn streams, which goes on; the third message continues the session', () => {
    const tracker = new ConversationTracker({ newId: () => 'conv-1' });
    const first = tracker.decide({ id: 1, agentKey: 'a', messages: fixture('background-first-message'), marker: 'm1' });
    tracker.recordPart(1, { type: 'text', value: 'remember the word medlar' });
    tracker.endTurn(1, true);
    const second = tracker.decide({ id: 2, agentKey: 'a', messages: fixture('background-second-message'), marker: 'm2' });
    expect(second).toMatchObject({ kind: 'turn', conversationId: first.kind === 'turn' ? first.conversationId : '', isNew: false });
    // Copilot sent the summary request 15 ms after the second turn's: the agent had not answered yet.
    const summary = tracker.summarize({ id: 3, agentKey: 'a', messages: fixture('background-summary-request'), marker: 'c794fb40-47c8-46c4-9915-6cd1b36c24a3' });
    expect(summary).toContain('symposium-conversation:c794fb40-47c8-46c4-9915-6cd1b36c24a3');
    expect(summary).toContain('- say remember the word medlar');
    tracker.recordPart(2, { type: 'text', value: 'the second turn' });
    tracker.endTurn(2, true);
    // The third request has the summary and the second turn, whose stateful marker Copilot no longer sends.
    const third = tracker.decide({ id: 4, agentKey: 'a', messages: fixture('background-next-message'), marker: 'm4' });
    expect(third).toMatchObject({ kind: 'turn', conversationId: second.kind === 'turn' ? second.conversationId : '', isNew: false, canceled: false });
    if (third.kind === 'turn') expect(texts(applyContextPolicy(third.newMessages, 'user'))).toEqual(['history']);
  });

  test('background compaction asked before the second turn (recorded: 19 ms before it) is not going back: the third message continues the session', () => {
    const tracker = new ConversationTracker({ newId: () => 'conv-1' });
    const first = tracker.decide({ id: 1, agentKey: 'a', messages: fixture('background-early-first-message'), marker: 'bcaaa6dc-2262-4ea3-b9d3-96cf394ba79d' });
    if (first.kind !== 'turn') throw new Error(first.reason);
    tracker.recordPart(1, { type: 'text', value: 'remember the word medlar' });
    tracker.endTurn(1, true);
    // The summary stands for the chat up to the first answer: the second turn has not been asked yet.
    expect(tracker.summarize({ id: 2, agentKey: 'a', messages: fixture('background-early-summary-request'), marker: '33a7b9e8-59aa-4150-80bb-5e6126f8ec9f' })).toContain('- say remember the word medlar');
    const second = tracker.decide({ id: 3, agentKey: 'a', messages: fixture('background-early-second-message'), marker: 'm3' });
    expect(second).toMatchObject({ kind: 'turn', conversationId: first.conversationId, isNew: false });
    tracker.recordPart(3, { type: 'text', value: 'the second turn' });
    tracker.endTurn(3, true);
    // [summary (its marker: the first turn), the second request, its answer (no marker), history]: the summary's
    // turn is older than the latest, but the second turn follows it in the request, so nothing was taken back.
    const third = tracker.decide({ id: 4, agentKey: 'a', messages: fixture('background-early-next-message'), marker: 'm4' });
    expect(third).toMatchObject({ kind: 'turn', conversationId: first.conversationId, isNew: false, canceled: false });
    expect(third.kind === 'turn' && third.goesBack).toBeUndefined();
    if (third.kind === 'turn') expect(texts(applyContextPolicy(third.newMessages, 'user'))).toEqual(['history']);
  });

  test("Copilot's simple summary prompt (the history in one message, when the prompt is over budget) finds the conversation too", () => {
    const { tracker, conversationId } = afterFirstMessage();
    // As `gHe` renders it (not recorded: the fixture's system prompt and last message around it); the message being sent comes last.
    const [system, , , ask] = fixture('compact-summary-request');
    const compressed = user(
      'The following is a compressed version of the preceeding history in the current conversation. The first message is kept, some history may be truncated after that:\n' +
        '<user>\nsay remember the word quince\n</user>\n<assistant>\nremember the word quince\n</assistant>\n<user>\nhistory\n</user>\n',
    );
    const summary = tracker.summarize({ id: 2, agentKey: 'a', messages: [system!, compressed, ask!], marker: RECORDED_MARKER });
    expect(summary).toContain(`symposium-conversation:${RECORDED_MARKER}`);
    expect(summary).toContain('- say remember the word quince\n- history');
    const next = tracker.decide({ id: 3, agentKey: 'a', messages: fixture('compact-next-message') });
    expect(next).toMatchObject({ kind: 'turn', conversationId, isNew: false });
  });

  test("after a restart of the bridge (a window reload) right after /compact, the summary's token resumes the conversation", () => {
    const store = new ConversationStore(undefined, createLogger('error', () => {}));
    const before = new ConversationTracker({ index: store, newId: () => 'conv-1' });
    before.decide({ id: 1, agentKey: 'a', messages: fixture('compact-first-message'), marker: 'first' });
    before.recordPart(1, { type: 'text', value: 'remember the word quince' });
    before.endTurn(1, true);
    before.summarize({ id: 2, agentKey: 'a', messages: fixture('compact-summary-request'), marker: RECORDED_MARKER });
    // No message of the next request is one the conversation had: only the index's marker names it.
    const after = new ConversationTracker({ index: store, newId: () => 'conv-2' });
    const next = after.decide({ id: 3, agentKey: 'a', messages: fixture('compact-next-message') });
    expect(next).toMatchObject({ kind: 'turn', conversationId: 'conv-1' });
    if (next.kind === 'turn') expect(texts(applyContextPolicy(next.newMessages, 'user'))).toEqual(['history']);
  });

  test('a summary request for a history no conversation has is answered without a token', () => {
    const tracker = new ConversationTracker();
    const summary = tracker.summarize({ id: 1, agentKey: 'a', messages: fixture('compact-summary-request'), marker: 'm' });
    expect(summary).not.toContain('symposium-conversation:');
    expect(summary).toContain('say remember the word quince');
  });
});
