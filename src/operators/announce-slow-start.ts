import { asyncScheduler, merge, share, takeUntil, timer, map, type Observable, type OperatorFunction, type SchedulerLike } from 'rxjs';

/**
 * Says an agent is starting when its start is slow: `notice` comes first in the response when neither
 * `ready$` (the agent answered `initialize`) nor a part arrived within `dueMs`; the parts follow as they
 * come. A quick start says nothing. (The first start of an agent run through npx downloads it, which can
 * take a minute with no sign of life otherwise.)
 *
 * ```
 * parts:   ------a--b|          --a--b|          ------a|
 * ready$:  ----------           -                --r
 * dueMs:   3                    3                3
 * result:  ---n--a--b|          --a--b|          ------a|
 * ```
 */
export function announceSlowStart<T>(notice: T, ready$: Observable<unknown>, dueMs: number, scheduler: SchedulerLike = asyncScheduler): OperatorFunction<T, T> {
  return (parts) => {
    const shared = parts.pipe(share());
    const announce = timer(dueMs, scheduler).pipe(
      map(() => notice),
      takeUntil(merge(ready$, shared)),
    );
    return merge(announce, shared);
  };
}
