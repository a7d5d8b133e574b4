import { from, mergeMap, of, switchMap, type Observable, type ObservableInput, type OperatorFunction } from 'rxjs';

/**
 * Continues a turn's events past its stop with a follow-up turn's, where words were left for after it (the person
 * wrote while the turn went on, and the words did not reach it). At a stop, `leftover` says what is left: none
 * (undefined), or the words once they are known (an empty list: nothing after all); `next` is the follow-up's events,
 * which take the stop's place.
 *
 * ```
 * events:    -a--S|        -a--S|          -a--S|
 * leftover:  none          --(e|)          --(w|)           e: no words; w: words; next(w): -b--T|
 * result:    -a--S|        -a----(S|)      -a-----b--T|     T: the follow-up's stop
 * ```
 */
export function followUpAfterStop<E, W>(
  isStop: (event: E) => boolean,
  leftover: () => ObservableInput<readonly W[]> | undefined,
  next: (words: readonly W[]) => Observable<E>,
): OperatorFunction<E, E> {
  return mergeMap((event) => {
    const left = isStop(event) ? leftover() : undefined;
    if (left === undefined) return of(event);
    return from(left).pipe(switchMap((words) => (words.length === 0 ? of(event) : next(words))));
  });
}
