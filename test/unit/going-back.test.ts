/**
 * The history's decision when a request goes back (issue 45), on ConversationTracker itself: which conversation, which
 * point, and that nothing after it is forwarded as known. Requests as Copilot sends them (every answer carries its own
 * stateful marker, the FIRST part of its assistant message) and as Cline sends them (no marker).
 */
import { ConversationTracker, type HistoryDecision } from '../../src/history/conversations.js';
import { STATEFUL_MARKER, statefulMarkerData } from '../../src/history/stateful-marker.js';
import type { Message, ResponsePart } from '../../src/protocol/messages.js';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { ConversationStore } from '../../src/state/conversation-store.js';
import { createLogger } from '../../src/log/logger.js';
import path from 'node:path';

const AGENT = 'claude';
const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', value: text }] });
const said = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', value: text }] });
/** An answer as Copilot sends it back: its marker first, then its text. */
const marked = (text: string, marker: string): Message => ({
  role: 'assistant',
  content: [{ type: 'data', mimeType: STATEFUL_MARKER, data: Buffer.from(statefulMarkerData('claude', marker)).toString('base64') }, { type: 'text', value: text }],
});

let tracker: ConversationTracker;
let nextId = 0;
beforeEach(() => {
  tracker = new ConversationTracker();
});

/** A request answered in full with `reply`, under the marker `marker`. */
function answer(messages: Message[], reply: string, marker?: string): HistoryDecision & { kind: 'turn' } {
  const id = nextId++;
  const decision = tracker.decide({ id, agentKey: AGENT, messages, ...(marker === undefined ? {} : { marker }) });
  if (decision.kind !== 'turn') throw new Error(`refused: ${decision.reason}`);
  tracker.recordPart(id, { type: 'text', value: reply });
  tracker.endTurn(id, true);
  return decision;
}

/** A request decided (its turn left in flight), with its id. */
function decide(messages: Message[], marker?: string): HistoryDecision & { kind: 'turn'; id: number } {
  const id = nextId++;
  const decision = tracker.decide({ id, agentKey: AGENT, messages, ...(marker === undefined ? {} : { marker }) });
  if (decision.kind !== 'turn') throw new Error(`refused: ${decision.reason}`);
  return { ...decision, id };
}

const words = (messages: readonly Message[]): string[] => messages.map((m) => m.content.map((p) => (p.type === 'text' ? p.value : '')).join(''));

test('the issue\'s conversation: [u1,a1(m1),new] goes back to after a1, in a branch; Retry of a3 goes back to after a2', () => {
  const t1 = answer([user('u1')], 'a1', 'm1');
  const t2 = answer([user('u1'), marked('a1', 'm1'), user('u2')], 'a2', 'm2');
  answer([user('u1'), marked('a1', 'm1'), user('u2'), marked('a2', 'm2'), user('u3')], 'a3', 'm3');

  const back = decide([user('u1'), marked('a1', 'm1'), user('new')], 'm4');
  expect(back.isNew).toBe(true);
  expect(back.conversationId).not.toBe(t1.conversationId);
  expect(back.goesBack).toEqual({ conversationId: t1.conversationId, turnKey: t1.turnKey, why: expect.stringContaining('older') as unknown as string });
  expect(words(back.newMessages)).toEqual(['new']);
  expect(words(back.history)).toEqual(['u1', 'a1', 'new']);
  tracker.endTurn(back.id, false);

  const retry = decide([user('u1'), marked('a1', 'm1'), user('u2'), marked('a2', 'm2'), user('u3')], 'm5');
  expect(retry.goesBack).toMatchObject({ conversationId: t1.conversationId, turnKey: t2.turnKey });
  expect(words(retry.newMessages)).toEqual(['u3']);
});

test('without markers (Cline, Roo): an earlier part of the conversation then new words goes back; Retry of a completed answer too', () => {
  const t1 = answer([user('u1')], 'a1');
  const t2 = answer([user('u1'), said('a1'), user('u2')], 'a2');
  answer([user('u1'), said('a1'), user('u2'), said('a2'), user('u3')], 'a3');
  expect(decide([user('u1'), said('a1'), user('edited')]).goesBack).toMatchObject({ conversationId: t1.conversationId, turnKey: t1.turnKey });
  expect(decide([user('u1'), said('a1'), user('u2'), said('a2'), user('u3')]).goesBack).toMatchObject({ conversationId: t1.conversationId, turnKey: t2.turnKey });
});

test('Retry with an exchange the agent never had after the answer before (another model answered it in the chat): goes back to after that answer', () => {
  // The key of the turn goes back to is read only for this decision (no request pays a digest for it): here it is
  // no position any request asks for, as the request's last reply is another model's.
  const t1 = answer([user('u1')], 'a1');
  const t2 = answer([user('u1'), said('a1'), user('u2')], 'a2');
  answer([user('u1'), said('a1'), user('u2'), said('a2'), user('u3')], 'a3');
  const back = decide([user('u1'), said('a1'), user('u2'), said('a2'), user('u3 again'), said('another model'), user('u4')]);
  expect(back.isNew).toBe(true);
  expect(back.goesBack).toMatchObject({ conversationId: t1.conversationId, turnKey: t2.turnKey });
  expect(words(back.newMessages)).toEqual(['u3 again', 'another model', 'u4']);
});

test('going on is not going back: a new request after the latest answer continues its conversation in its session', () => {
  const t1 = answer([user('u1')], 'a1', 'm1');
  const next = decide([user('u1'), marked('a1', 'm1'), user('u2')], 'm2');
  expect(next.conversationId).toBe(t1.conversationId);
  expect(next.isNew).toBe(false);
  expect(next.goesBack).toBeUndefined();
});

test('an older marker followed by later answers the consumer re-rendered without markers goes back to the last of those, not to the marker', () => {
  answer([user('u1')], 'a1', 'm1');
  const t2 = answer([user('u1'), marked('a1', 'm1'), user('u2')], 'a2', 'm2');
  answer([user('u1'), marked('a1', 'm1'), user('u2'), marked('a2', 'm2'), user('u3')], 'a3', 'm3');
  // Content the history no longer matches (re-rendered), the marker of a1, then a2 without its marker, then new words.
  const back = decide([user('u1 re-rendered'), marked('a1', 'm1'), user('u2'), said('a2'), user('new')]);
  expect(back.goesBack).toMatchObject({ turnKey: t2.turnKey });
  // The same up to the latest answer is going on, not going back.
  tracker.endTurn(back.id, false);
  const on = decide([user('u1 re-rendered'), marked('a1', 'm1'), user('u2'), said('a2'), user('u3'), said('a3'), user('u4')]);
  expect(on.goesBack).toBeUndefined();
});

test('two chats that began alike: the marker of the last answer kept says which one goes back (not the one that said it last)', () => {
  const a1 = answer([user('hello')], 'hi', 'mA1');
  answer([user('hello'), marked('hi', 'mA1'), user('create x')], 'done', 'mA2');
  const b1 = answer([user('hello')], 'hi', 'mB1');
  answer([user('hello'), marked('hi', 'mB1'), user('create y')], 'done', 'mB2');
  expect(b1.conversationId).not.toBe(a1.conversationId);

  const backInA = decide([user('hello'), marked('hi', 'mA1'), user('new in A')], 'mA3');
  expect(backInA.goesBack?.conversationId).toBe(a1.conversationId);
  tracker.endTurn(backInA.id, false);
  const backInB = decide([user('hello'), marked('hi', 'mB1'), user('new in B')], 'mB3');
  expect(backInB.goesBack?.conversationId).toBe(b1.conversationId);
});

test('a marker of another agent names nothing here: after a model switch the chat is a conversation of its own, not a branch', () => {
  answer([user('u1')], 'a1', 'm1');
  answer([user('u1'), marked('a1', 'm1'), user('u2')], 'a2', 'm2');
  const switched = tracker.decide({ id: nextId++, agentKey: 'codex', messages: [user('u1'), marked('a1', 'm1'), user('new')], marker: 'x1' });
  expect(switched).toMatchObject({ kind: 'turn', isNew: true });
  expect(switched.kind === 'turn' ? switched.goesBack : 'refused').toBeUndefined();
});

/** A request Copilot Chat 0.67 sent in the real Chat view after going back (recorded on branch rewind-host, test/vscode/claude-rewind-view.mjs). */
const recorded = (name: string): Message[] => (JSON.parse(readFileSync(path.resolve('test/fixtures/copilot', `${name}.json`), 'utf8')) as { messages: Message[] }).messages;

/** The marker an assistant message carries (its round's: the marker Copilot gave the request that answered it). */
function markerIn(message: Message): string | undefined {
  const part = message.content.find((p) => p.type === 'data' && p.mimeType === STATEFUL_MARKER);
  return part?.type === 'data' ? Buffer.from(part.data, 'base64').toString('utf8').split('\\')[1] : undefined;
}

/** The requests that led to `messages`, replayed as Copilot sent them: each answer's request is what came before it, under its marker. */
function replayBefore(messages: readonly Message[]): void {
  messages.forEach((message, i) => {
    if (message.role !== 'assistant') return;
    const id = nextId++;
    expect(tracker.decide({ id, agentKey: AGENT, messages: messages.slice(0, i), marker: markerIn(message)! }).kind).toBe('turn');
    for (const part of message.content) if (part.type !== 'data') tracker.recordPart(id, part as ResponsePart);
    tracker.endTurn(id, true);
  });
}

describe("Copilot's recorded requests after going back", () => {
  test('Retry of the answer to "and now the tests" (the request sent again byte for byte) goes back to after "Created it"', () => {
    const first = recorded('rewind-retry-first');
    replayBefore(first);
    const original = answer(first, 'the tests are written', 'retried-round');
    expect(original.goesBack).toBeUndefined();
    const retry = decide(recorded('rewind-retry-again'), 'retry-round');
    expect(retry.goesBack?.conversationId).toBe(original.conversationId);
    expect(retry.goesBack?.why).toContain('older');
    // Only the retried words are new: the fork holds everything before them.
    expect(retry.newMessages).toHaveLength(1);
    expect(words(retry.newMessages)[0]).toContain('and now the tests');
  });

  test('Restore Checkpoint at the second request, then new words: back to after the first answer, of this chat', () => {
    const restored = recorded('rewind-restore-checkpoint');
    const kept = restored.slice(0, -1);
    replayBefore(kept);
    const second = answer([...kept, user('create notes.txt')], 'Created it', 'round-2');
    const back = decide(restored, 'round-3');
    expect(back.goesBack?.conversationId).toBe(second.conversationId);
    expect(words(back.newMessages)[0]).toContain("let's do it differently");
    expect(back.newMessages).toHaveLength(1);
  });
});

test('after a reload (a new tracker, the state directory read again): going back finds the conversation by the fork point its agent kept', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'going-back-state-'));
  const log = createLogger('error');
  const store = new ConversationStore(dir, log);
  tracker = new ConversationTracker({ index: store });
  const t1 = answer([user('u1')], 'a1');
  answer([user('u1'), said('a1'), user('u2')], 'a2');
  // What the agent side keeps once the first answer ended (session/answer-ends.ts).
  store.rememberForkPoint(t1.conversationId, { turn: t1.turnKey, session: 's1', message: 'msg-1', fingerprint: 'sha256:00', occurrence: 1 });
  store.flush();

  const reloaded = new ConversationStore(dir, log);
  expect(reloaded.forkPointOf(t1.conversationId, t1.turnKey)).toMatchObject({ session: 's1', message: 'msg-1' });
  tracker = new ConversationTracker({ index: reloaded, newId: () => 'after-reload' });
  const back = decide([user('u1'), said('a1'), user('edited')]);
  expect(back.conversationId).toBe('after-reload');
  expect(back.goesBack).toMatchObject({ conversationId: t1.conversationId, turnKey: t1.turnKey });
  expect(words(back.newMessages)).toEqual(['edited']);
});

describe('an answer that ended at a pending confirmation (its last part a tool call the agent waits on)', () => {
  /** A request answered with `reply` up to a call the agent waits on (a confirmation shown), under `marker`. */
  function pending(messages: Message[], reply: string, marker?: string): HistoryDecision & { kind: 'turn' } {
    const id = nextId++;
    const decision = tracker.decide({ id, agentKey: AGENT, messages, ...(marker === undefined ? {} : { marker }) });
    if (decision.kind !== 'turn') throw new Error(`refused: ${decision.reason}`);
    tracker.recordPart(id, { type: 'text', value: reply });
    tracker.recordPart(id, { type: 'tool_call', toolCallId: 'c1', toolName: 'symposium-agent-action', parameters: { title: 'Run rm -rf build' } });
    // As the bridge ends every response (recorded from Claude Code): its usage after the call.
    tracker.recordPart(id, { type: 'data', mimeType: 'usage', data: Buffer.from('{"prompt_tokens":3905,"completion_tokens":0,"total_tokens":3905}').toString('base64') });
    tracker.endTurn(id, true);
    return decision;
  }

  test('Retry (its request asked again) goes back to after the answer before, like any Retry (Copilot: markers)', () => {
    const t1 = answer([user('u1')], 'a1', 'm1');
    pending([user('u1'), marked('a1', 'm1'), user('clean the build')], 'I will run it', 'm2');
    const retry = decide([user('u1'), marked('a1', 'm1'), user('clean the build')], 'm3');
    expect(retry.isNew).toBe(true);
    expect(retry.goesBack).toMatchObject({ conversationId: t1.conversationId, turnKey: t1.turnKey });
    expect(words(retry.newMessages)).toEqual(['clean the build']);
  });

  test('Retry goes back without markers too (Cline, Roo)', () => {
    const t1 = answer([user('u1')], 'a1');
    pending([user('u1'), said('a1'), user('clean the build')], 'I will run it');
    expect(decide([user('u1'), said('a1'), user('clean the build')]).goesBack).toMatchObject({ conversationId: t1.conversationId, turnKey: t1.turnKey });
  });

  test('other words instead of an answer to the confirmation are the person moving on: a cancel in the same session, as before', () => {
    const t1 = answer([user('u1')], 'a1', 'm1');
    pending([user('u1'), marked('a1', 'm1'), user('clean the build')], 'I will run it', 'm2');
    const moved = decide([user('u1'), marked('a1', 'm1'), user('no, just list it')], 'm3');
    expect(moved).toMatchObject({ conversationId: t1.conversationId, isNew: false, canceled: true, askedKept: false });
    expect(moved.goesBack).toBeUndefined();
    expect(words(moved.newMessages)).toEqual(['no, just list it']);
  });
});
