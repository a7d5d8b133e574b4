import type { Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { AgentSession, TurnInput } from '../../src/agents/agent-stream.js';
import { runTurns } from '../../src/operators/run-turns.js';
import type { ChatRequest, ResponseEvent, Turn, TurnDecision } from '../../src/events/chat-events.js';
import { ProtocolErrorCodes } from '../../src/protocol/errors.js';
import type { ResponsePart } from '../../src/protocol/messages.js';
import { cancelled, chatRequest, complete, part, text, user } from './fixtures.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const SUPERSEDED = 'A newer request in the same conversation replaced this one.';

/** A turn of `conversationId` for the request's last message, as diffHistory would decide it. */
function decide(request: ChatRequest, conversationId: string, flags: Partial<Pick<Turn, 'canceled' | 'supersedes' | 'isNew'>> = {}): TurnDecision {
  const newMessages = request.params.messages.slice(-1);
  return { kind: 'turn', turn: { request, conversationId, newMessages, history: request.params.messages, isNew: false, canceled: false, askedKept: false, supersedes: undefined, turnKey: `${conversationId}:${request.id}`, ...flags } };
}

/** An agent whose replies are scripted per user message; it records the sessions opened and what it was asked. */
class ScriptedSessions {
  readonly opened: string[] = [];
  readonly closed: string[] = [];
  readonly inputs: TurnInput[] = [];
  constructor(private readonly replies: Record<string, Observable<ResponsePart>>) {}

  open = (turn: Turn): AgentSession => {
    this.opened.push(turn.conversationId);
    return {
      turn: (input) => {
        this.inputs.push(input);
        const said = input.newMessages.map((m) => (m.content[0].type === 'text' ? m.content[0].value : '')).join();
        return this.replies[said];
      },
      close: () => this.closed.push(turn.conversationId),
    };
  };
}

describe('runTurns', () => {
  test("a conversation's next turn switches away from the previous one, which is cancelled", () => {
    let sessions!: ScriptedSessions;
    scheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const first = cold('x-x-x-x|', { x: text('1') });
      const second = cold('(y|)', { y: text('2') });
      sessions = new ScriptedSessions({ one: first, two: second });
      const r1 = chatRequest(1, [user('one')]);
      const r2 = chatRequest(2, [user('two')]);
      const decisions = hot('a---b', { a: decide(r1, 'c1', { isNew: true }), b: decide(r2, 'c1', { canceled: true, supersedes: 1 }) });
      expectObservable(decisions.pipe(runTurns(sessions.open))).toBe('x-x-(XyC)', {
        x: part(1, '1'),
        X: cancelled(1, SUPERSEDED),
        y: part(2, '2'),
        C: complete(2),
      });
      // The first turn's parts after frame 4 reach no one: it was unsubscribed, which cancels the agent.
      expectSubscriptions(first.subscriptions).toBe('^---!');
      expectSubscriptions(second.subscriptions).toBe('----(^!)');
    });
    expect(sessions.opened).toEqual(['c1']);
    expect(sessions.inputs.map((input) => input.canceled)).toEqual([false, true]);
  });

  test('conversations run side by side without disturbing each other', () => {
    let sessions!: ScriptedSessions;
    scheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const a = cold('a-----a|', { a: text('a') });
      const b = cold('b-b|', { b: text('b') });
      sessions = new ScriptedSessions({ one: a, two: b });
      const r1 = chatRequest(1, [user('one')]);
      const r2 = chatRequest(2, [user('two')]);
      const decisions = hot('p-q', { p: decide(r1, 'c1', { isNew: true }), q: decide(r2, 'c2', { isNew: true }) });
      expectObservable(decisions.pipe(runTurns(sessions.open))).toBe('a-b-bBaA', { a: part(1, 'a'), b: part(2, 'b'), A: complete(1), B: complete(2) });
      expectSubscriptions(a.subscriptions).toBe('^------!');
      expectSubscriptions(b.subscriptions).toBe('--^--!');
    });
    expect(sessions.opened).toEqual(['c1', 'c2']);
  });

  test('a cancelled request unsubscribes from its turn; the next turn of the conversation reuses the session', () => {
    let sessions!: ScriptedSessions;
    scheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const first = cold('x-x-x|', { x: text('1') });
      const second = cold('(y|)', { y: text('2') });
      sessions = new ScriptedSessions({ one: first, two: second });
      const r1 = chatRequest(1, [user('one')], { cancel$: hot('---c') });
      const r2 = chatRequest(2, [user('two')]);
      const decisions = hot('a-----b', { a: decide(r1, 'c1', { isNew: true }), b: decide(r2, 'c1', { canceled: true }) });
      expectObservable(decisions.pipe(runTurns(sessions.open))).toBe('x-xX--(yC)', { x: part(1, '1'), X: cancelled(1), y: part(2, '2'), C: complete(2) });
      expectSubscriptions(first.subscriptions).toBe('^--!');
    });
    expect(sessions.opened).toEqual(['c1']);
    expect(sessions.inputs.map((input) => input.canceled)).toEqual([false, true]);
  });

  test('a refused request fails at once', () => {
    scheduler().run(({ hot, expectObservable }) => {
      const request = chatRequest(1, [user('one')]);
      const decisions = hot<TurnDecision>('--r', { r: { kind: 'reject', request, reason: 'Nothing new.' } });
      const failed: ResponseEvent = { kind: 'failed', requestId: 1, code: ProtocolErrorCodes.InvalidRequest, message: 'Nothing new.' };
      expectObservable(decisions.pipe(runTurns(new ScriptedSessions({}).open))).toBe('--F', { F: failed });
    });
  });

  test('a request the history answers itself gets that answer at once; no session opens', () => {
    const sessions = new ScriptedSessions({});
    scheduler().run(({ hot, expectObservable }) => {
      const request = chatRequest(1, [user('Summarize the conversation history so far')]);
      const decisions = hot<TurnDecision>('--s', { s: { kind: 'answer', request, text: '<summary>x</summary>' } });
      expectObservable(decisions.pipe(runTurns(sessions.open))).toBe('--(tc)', { t: part(1, '<summary>x</summary>'), c: complete(1) });
    });
    expect(sessions.opened).toEqual([]);
  });

  test('a conversation the history forgot closes its session; if it comes back it opens a new one', () => {
    let sessions!: ScriptedSessions;
    scheduler().run(({ cold, hot, expectObservable }) => {
      sessions = new ScriptedSessions({ one: cold('x|', { x: text('1') }), two: cold('y|', { y: text('2') }) });
      const r1 = chatRequest(1, [user('one')]);
      const r2 = chatRequest(2, [user('two')]);
      const decisions = hot<TurnDecision>('a-f-b-f', {
        a: decide(r1, 'c1', { isNew: true }),
        f: { kind: 'forget', conversationId: 'c1' },
        b: decide(r2, 'c1', { isNew: true }),
      });
      expectObservable(decisions.pipe(runTurns(sessions.open))).toBe('xC--yD', { x: part(1, '1'), C: complete(1), y: part(2, '2'), D: complete(2) });
    });
    expect(sessions.opened).toEqual(['c1', 'c1']);
    expect(sessions.closed).toEqual(['c1', 'c1']);
  });
});
