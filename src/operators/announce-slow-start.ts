import { asyncScheduler, defer, EMPTY, endWith, ignoreElements, map, merge, of, share, switchMap, take, takeUntil, tap, timer, type Observable, type OperatorFunction, type SchedulerLike } from 'rxjs';

/** A line the response gets once the agent sent nothing for `dueMs`: `notice()` is read then, to say what is known at that moment. */
export interface SilenceNotice<T> {
  readonly notice: () => T;
  readonly dueMs: number;
}

/**
 * Says a response waits on its agent, the two ways it can. A slow start: `notice` comes first when neither
 * `ready$` (the agent answered `initialize`) nor a part arrived within `dueMs`; a quick start says nothing (the
 * first start of an agent run through npx downloads it, which can take a minute with no sign of life otherwise).
 * A silence (`silence`): once no part came for `silence.dueMs`, from the request or the last part, one line
 * (`silence.notice()`) says so, once per response; the parts go on as they come, and the turn is not cancelled
 * (unsubscribing, the person's Stop, still cancels it). An agent that says nothing at all (no key, a hung model
 * request) thus never leaves the person with only a spinner.
 *
 * ```
 * parts:   ------a--b|          --a--b|          ------a|          -a--------b|
 * ready$:  ----------           -                --r               -r
 * dueMs:   3                    3                3                 3
 * silence:                                                         4
 * result:  ---n--a--b|          --a--b|          ------a|          -a---s----b|
 * ```
 */
export function announceSlowStart<T>(notice: T, ready$: Observable<unknown>, dueMs: number, scheduler: SchedulerLike = asyncScheduler, silence?: SilenceNotice<T>): OperatorFunction<T, T> {
  return (parts) => {
    const shared = parts.pipe(share());
    const announce = timer(dueMs, scheduler).pipe(
      map(() => notice),
      takeUntil(merge(ready$, shared)),
    );
    const ended = shared.pipe(ignoreElements(), endWith(undefined));
    // One timer at a time, not one per part (a turn streams hundreds): when it fires early, it waits the rest.
    const silent =
      silence === undefined
        ? EMPTY
        : defer(() => {
            let lastAt = scheduler.now();
            const heard = shared.pipe(
              tap(() => (lastAt = scheduler.now())),
              ignoreElements(),
            );
            const due = (): Observable<T> => timer(lastAt + silence.dueMs - scheduler.now(), scheduler).pipe(switchMap(() => (scheduler.now() - lastAt >= silence.dueMs ? of(silence.notice()) : due())));
            return merge(heard, due()).pipe(take(1), takeUntil(ended));
          });
    return merge(announce, silent, shared);
  };
}
