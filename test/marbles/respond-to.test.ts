import { of } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { respondTo } from '../../src/operators/respond-to.js';
import { ProtocolErrorCodes } from '../../src/protocol/errors.js';
import type { ResponsePart } from '../../src/protocol/messages.js';
import { chatRequest, complete, cancelled, part, text, user } from './fixtures.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const parts: Record<string, ResponsePart> = { a: text('a'), b: text('b'), c: text('c') };

describe('respondTo', () => {
  test('streams the parts, then completes the request', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const request = chatRequest(7, [user('hi')]);
      expectObservable(cold('a-b|', parts).pipe(respondTo(request))).toBe('a-b(C|)', { a: part(7, 'a'), b: part(7, 'b'), C: complete(7) });
    });
  });

  test('an agent error fails the request with what the agent said', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const request = chatRequest(7, [user('hi')]);
      expectObservable(cold('a-#', parts, new Error('agent exited')).pipe(respondTo(request))).toBe('a-(F|)', {
        a: part(7, 'a'),
        F: { kind: 'failed', requestId: 7, code: ProtocolErrorCodes.AgentFailed, message: 'agent exited' },
      });
    });
  });

  test('cancelling the request ends it and unsubscribes from the agent', () => {
    scheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const agent = cold('a-b---c|', parts);
      const request = chatRequest(7, [user('hi')], { cancel$: hot('----x') });
      expectObservable(agent.pipe(respondTo(request))).toBe('a-b-(X|)', { a: part(7, 'a'), b: part(7, 'b'), X: cancelled(7) });
      expectSubscriptions(agent.subscriptions).toBe('^---!');
    });
  });

  test('a request cancelled before it started never starts the agent', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const agent = cold('(ab|)', parts);
      // A token cancelled before dispatch emits as soon as it is subscribed to.
      const request = chatRequest(7, [user('hi')], { cancel$: of(null) });
      expectObservable(agent.pipe(respondTo(request))).toBe('(X|)', { X: cancelled(7) });
      expectSubscriptions(agent.subscriptions).toBe([]);
    });
  });

  test('a cancellation after the response ended changes nothing', () => {
    scheduler().run(({ cold, hot, expectObservable }) => {
      const request = chatRequest(7, [user('hi')], { cancel$: hot('-----x') });
      expectObservable(cold('a|', parts).pipe(respondTo(request))).toBe('a(C|)', { a: part(7, 'a'), C: complete(7) });
    });
  });
});
