import { TestScheduler } from 'rxjs/testing';
import type { Observable } from 'rxjs';
import type { TurnInput } from '../../src/agents/agent-stream.js';
import { canonicalJson } from '../../src/protocol/canonical-json.js';
import { bridge } from '../../src/pipeline/bridge.js';
import type { ChatRequest } from '../../src/events/chat-events.js';
import type { ResponsePart } from '../../src/protocol/messages.js';
import { assistant, cancelled, chatRequest, complete, part, text, user } from './fixtures.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('bridge', () => {
  test('what was streamed becomes the provisional reply that the next request must extend', () => {
    const inputs: TurnInput[] = [];
    scheduler().run(({ cold, hot, expectObservable }) => {
      const replies: Record<string, Observable<ResponsePart>> = {
        hello: cold('a-b|', { a: text('Hi, '), b: text('there.') }),
        again: cold('c-c-c-c|', { c: text('...') }),
        other: cold('(d|)', { d: text('Ok.') }),
      };
      const r1 = chatRequest(1, [user('hello')]);
      const r2 = chatRequest(2, [user('hello'), assistant('Hi, there.'), user('again')]);
      const r3 = chatRequest(3, [user('hello'), assistant('Hi, there.'), user('other')]);
      const requests = hot<ChatRequest>('a-----b---c', { a: r1, b: r2, c: r3 });
      const events = bridge(requests, {
        agentKeyOf: canonicalJson,
        openSession: () => ({
          turn: (input) => {
            inputs.push(input);
            const last = input.newMessages[input.newMessages.length - 1].content[0];
            return replies[last.type === 'text' ? last.value : ''];
          },
          close: () => {},
        }),
      });
      expectObservable(events).toBe('a-bC--c-c-(XdD)', {
        a: part(1, 'Hi, '),
        b: part(1, 'there.'),
        C: complete(1),
        c: part(2, '...'),
        X: cancelled(2, 'A newer request in the same conversation replaced this one.'),
        d: part(3, 'Ok.'),
        D: complete(3),
      });
    });
    // One conversation: the second request forwarded only its new message; the third discarded the second's exchange.
    expect(inputs.map((i) => [i.newMessages.map((m) => m.content[0]), i.canceled])).toEqual([
      [[text('hello')], false],
      [[text('again')], false],
      [[text('other')], true],
    ]);
  });

  test('late parts of a cancelled request are never delivered', () => {
    scheduler().run(({ cold, hot, expectObservable }) => {
      const agent = cold('a-a-a-a|', { a: text('x') });
      const requests = hot<ChatRequest>('a|', { a: chatRequest(1, [user('hi')], { cancel$: hot('---c') }) });
      const events = bridge(requests, { agentKeyOf: canonicalJson, openSession: () => ({ turn: () => agent, close: () => {} }) });
      expectObservable(events).toBe('a-a(X|)', { a: part(1, 'x'), X: cancelled(1) });
    });
  });
});
