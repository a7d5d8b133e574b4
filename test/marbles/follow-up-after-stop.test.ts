import { TestScheduler } from 'rxjs/testing';
import type { Observable } from 'rxjs';
import { followUpAfterStop } from '../../src/operators/follow-up-after-stop.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const isStop = (event: string): boolean => event.startsWith('S');

describe('followUpAfterStop', () => {
  test('nothing left for after the turn: its stop passes as it came, the follow-up never starts', () => {
    let followedUp = 0;
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('-a--S|').pipe(followUpAfterStop(isStop, () => undefined, () => (followedUp++, cold('-x|'))))).toBe('-a--S|');
    });
    expect(followedUp).toBe(0);
  });

  test('words left turn out to be none (steered into the turn meanwhile): the stop passes once they are known', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const none = { e: [] as string[] };
      expectObservable(cold('-a--S|').pipe(followUpAfterStop(isStop, () => cold('--(e|)', none), () => cold('-x|')))).toBe('-a----(S|)');
    });
  });

  test("words left (not steered): the follow-up's events take the stop's place, once", () => {
    const asked: (readonly string[])[] = [];
    scheduler().run(({ cold, expectObservable }) => {
      const left = { w: ['say more'] };
      const next = (words: readonly string[]): Observable<string> => {
        asked.push(words);
        return cold('-b--T|', { b: 'b', T: 'S2' });
      };
      expectObservable(cold('-a--S|').pipe(followUpAfterStop(isStop, () => cold('--(w|)', left), next))).toBe('-a-----b--T|', { a: 'a', b: 'b', T: 'S2' });
    });
    expect(asked).toEqual([['say more']]);
  });

  test('events before the stop are not held back while the words left are read', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const left = { w: ['w'] };
      expectObservable(cold('ab-S|').pipe(followUpAfterStop(isStop, () => cold('---(w|)', left), () => cold('c|')))).toBe('ab----c|');
    });
  });
});
