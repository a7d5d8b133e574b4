import { ConversationTracker } from '../../src/history/conversations.js';
import { markerOf, statefulMarkerData, statefulMarkersOf, STATEFUL_MARKER } from '../../src/history/stateful-marker.js';
import type { Message } from '../../src/protocol/messages.js';
import { ConversationStore } from '../../src/state/conversation-store.js';
import { createLogger } from '../../src/log/logger.js';

const user = (value: string): Message => ({ role: 'user', content: [{ type: 'text', value }] });
const markerPart = (marker: string) => ({ type: 'data' as const, mimeType: STATEFUL_MARKER, data: Buffer.from(statefulMarkerData('symposium-agent-x', marker)).toString('base64') });
/** An assistant message as Copilot sends it back: the marker first, then what was said. */
const assistant = (value: string, marker?: string): Message => ({ role: 'assistant', content: [...(marker === undefined ? [] : [markerPart(marker)]), { type: 'text', value }] });

let ids = 0;
const tracker = () => new ConversationTracker({ newId: () => `conv-${++ids}` });

/** A first turn answered with `reply`, its response carrying `marker`. */
function firstTurn(t: ConversationTracker, marker: string): string {
  const decision = t.decide({ id: 1, agentKey: 'a', messages: [user('hello')], marker });
  if (decision.kind !== 'turn') throw new Error(decision.reason);
  t.recordPart(1, { type: 'text', value: 'hi there' });
  t.endTurn(1, true);
  return decision.conversationId;
}

describe('stateful markers', () => {
  test("the data is Copilot's `<modelId>\\<marker>`; ours are read back, newest first", () => {
    expect(new TextDecoder().decode(statefulMarkerData('m', 'abc'))).toBe('m\\abc');
    expect(markerOf(Buffer.from('m\\abc').toString('base64'))).toBe('abc');
    expect(markerOf(Buffer.from('no marker').toString('base64'))).toBeUndefined();
    expect(statefulMarkersOf([assistant('a', 'm1'), user('x'), assistant('b', 'm2')]).map((m) => m.marker)).toEqual(['m2', 'm1']);
  });

  test('a history the digest no longer matches continues the conversation its marker names', () => {
    const t = tracker();
    const id = firstTurn(t, 'm1');
    // Copilot re-rendered (or summarised) the history: neither message is what was said, but the marker came back.
    const decision = t.decide({ id: 2, agentKey: 'a', messages: [user('<conversation-summary>we said hello</conversation-summary>'), assistant('(summarised)', 'm1'), user('and now?')], marker: 'm2' });
    expect(decision).toMatchObject({ kind: 'turn', conversationId: id, isNew: false, canceled: false, newMessages: [user('and now?')] });
  });

  test('without a marker, or with one nobody gave, that history is a new conversation', () => {
    for (const marker of [undefined, 'unknown']) {
      const t = tracker();
      const id = firstTurn(t, 'm1');
      const decision = t.decide({ id: 2, agentKey: 'a', messages: [user('something else'), assistant('(summarised)', marker), user('and now?')] });
      expect(decision).toMatchObject({ kind: 'turn', isNew: true });
      expect(decision.kind === 'turn' && decision.conversationId).not.toBe(id);
    }
  });

  test('after a restart of the bridge, a history the digest no longer matches is resumed by the marker the index kept', () => {
    const store = new ConversationStore(undefined, createLogger('error', () => {}));
    const id = firstTurn(new ConversationTracker({ index: store, newId: () => `conv-${++ids}` }), 'm1');
    const restarted = new ConversationTracker({ index: store, newId: () => `conv-${++ids}` });
    const decision = restarted.decide({ id: 2, agentKey: 'a', messages: [user('(re-rendered)'), assistant('(re-rendered)', 'm1'), user('and now?')] });
    expect(decision).toMatchObject({ kind: 'turn', conversationId: id, newMessages: [user('and now?')] });
    // A marker the index does not know is a new conversation, as before.
    const fresh = new ConversationTracker({ index: store, newId: () => 'fresh' });
    expect(fresh.decide({ id: 3, agentKey: 'a', messages: [user('(re-rendered)'), assistant('(re-rendered)', 'unknown'), user('and now?')] })).toMatchObject({ conversationId: 'fresh' });
  });

  test('a matching history wins over markers, and a forgotten conversation is not found by its marker', () => {
    const t = new ConversationTracker({ newId: () => `conv-${++ids}`, maxConversations: 1 });
    const id = firstTurn(t, 'm1');
    expect(t.decide({ id: 2, agentKey: 'a', messages: [user('hello'), assistant('hi there', 'other'), user('more')] })).toMatchObject({ conversationId: id, isNew: false });
    t.endTurn(2, false);
    t.decide({ id: 3, agentKey: 'a', messages: [user('another chat')] });
    t.endTurn(3, false);
    expect(t.decide({ id: 4, agentKey: 'a', messages: [user('re-rendered'), assistant('x', 'm1'), user('q')] })).toMatchObject({ isNew: true });
  });
});
