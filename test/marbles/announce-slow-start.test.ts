import { NEVER } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { announceSlowStart } from '../../src/operators/announce-slow-start.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('announceSlowStart', () => {
  test('a slow start is announced first; the parts follow', () => {
    const s = scheduler();
    s.run(({ cold, expectObservable }) => {
      expectObservable(cold('------a--b|').pipe(announceSlowStart('n', NEVER, 3, s))).toBe('---n--a--b|');
    });
  });

  test('a part before the due time: nothing is announced', () => {
    const s = scheduler();
    s.run(({ cold, expectObservable }) => {
      expectObservable(cold('--a--b|').pipe(announceSlowStart('n', NEVER, 3, s))).toBe('--a--b|');
    });
  });

  test('the agent ready before the due time (a quick start, a slow first answer): nothing is announced', () => {
    const s = scheduler();
    s.run(({ cold, hot, expectObservable }) => {
      expectObservable(cold('------a|').pipe(announceSlowStart('n', hot('--r'), 3, s))).toBe('------a|');
    });
  });

  test('an error still fails the response, after the notice', () => {
    const s = scheduler();
    s.run(({ cold, expectObservable }) => {
      expectObservable(cold('-----#', {}, new Error('no npx')).pipe(announceSlowStart('n', NEVER, 3, s))).toBe('---n-#', undefined, new Error('no npx'));
    });
  });

  test('unsubscribing (a cancel) unsubscribes from the parts and the timer', () => {
    const s = scheduler();
    s.run(({ cold, expectObservable, expectSubscriptions }) => {
      const parts = cold('------a|');
      expectObservable(parts.pipe(announceSlowStart('n', NEVER, 3, s)), '^----!').toBe('---n-');
      expectSubscriptions(parts.subscriptions).toBe('^----!');
    });
  });
});
