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

describe('announceSlowStart: a silence (issue 60)', () => {
  const silence = (dueMs: number) => ({ notice: () => 's', dueMs });

  test('no part for the silence bound: one line says so, the parts go on', () => {
    const s = scheduler();
    s.run(({ cold, hot, expectObservable }) => {
      expectObservable(cold('-a--------b|').pipe(announceSlowStart('n', hot('-r'), 3, s, silence(4)))).toBe('-a---s----b|');
    });
  });

  test('counted from the request: an agent that says nothing at all gets the line after the start notice', () => {
    const s = scheduler();
    s.run(({ cold, expectObservable }) => {
      expectObservable(cold('---------a|').pipe(announceSlowStart('n', NEVER, 3, s, silence(6)))).toBe('---n--s--a|');
    });
  });

  test('once per response, however long the agent stays silent; parts closer than the bound say nothing', () => {
    const s = scheduler();
    s.run(({ cold, hot, expectObservable }) => {
      expectObservable(cold('-a-----------------b|').pipe(announceSlowStart('n', hot('r'), 3, s, silence(4)))).toBe('-a---s-------------b|');
      expectObservable(cold('-a--b--c|').pipe(announceSlowStart('n', hot('r'), 3, s, silence(4)))).toBe('-a--b--c|');
    });
  });

  test('the line is read when it is due, to say what is known then', () => {
    const s = scheduler();
    let said = 0;
    s.run(({ cold, hot, expectObservable }) => {
      expectObservable(cold('-a------|').pipe(announceSlowStart<string>('n', hot('r'), 3, s, { notice: () => `s${++said}`, dueMs: 4 }))).toBe('-a---x--|', { a: 'a', x: 's1' });
    });
    expect(said).toBe(1);
  });

  test('Stop still stops the turn: unsubscribing cancels the parts and the silence', () => {
    const s = scheduler();
    s.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const parts = cold('-a--------b|');
      expectObservable(parts.pipe(announceSlowStart('n', hot('r'), 3, s, silence(4))), '^------!').toBe('-a---s-');
      expectSubscriptions(parts.subscriptions).toBe('^------!');
    });
  });
});
