import { asyncScheduler, concat, connect, debounce, defer, EMPTY, filter, merge, mergeMap, of, take, takeUntil, takeWhile, timer, type Observable, type OperatorFunction, type SchedulerLike } from 'rxjs';
import type { AcpTurnEvent } from './turn-events.js';
import type { TurnRendering } from './update-parts.js';
import type { ResponsePart } from '../../../protocol/messages.js';

/**
 * Turns the events of an ACP prompt turn into the parts of one response. The response ends when the
 * agent stops, or when it waits on VS Code: permission requests become `symposium-agent-action` tool
 * calls and calls of bridged tools become calls of those tools; once no further one has come for a
 * moment (agents make several at once) the response completes so that VS Code can run and confirm
 * them; the agent's turn stays paused meanwhile. The moment is the settle time of the last one's kind:
 * permission requests trickle in, while parallel tool calls arrive as concurrent HTTP requests. Agents
 * that announce their calls say when none is still on its way: then the response completes at once.
 *
 * ```
 * events:  -u--u--p-t------u--      u: update, p: permission request, t: bridged tool call, s: stopped
 * result:  -a--a--P-T-|              a: its parts, P, T: tool call parts; | once settle.toolMs passed after t
 *
 * events:  -u-t-tA------u--         A: every announced call has arrived (counts right after a call only)
 * result:  -a-T-T|
 *
 * events:  -u--u--s
 * result:  -a--a--|
 *
 * events:  -u--r--u--s               r: a permission refused (nobody could be asked): a line, and on
 * result:  -a--R--a--|
 *
 * events:  -u-l-u-l-u------u--       l: the plan changed (where the consumer shows plans in its todo list)
 * result:  -a----------(L|)          L: one call of the todo tool with the latest plan, once settle.toolMs passed
 *                                    after the last l (PLAN_SHOWN_WITHIN_MS after the first at the latest); what
 *                                    came after the first l (u u) is put back
 * ```
 *
 * A plan is what no agent waits on: plans in a row cost one call. The response ends on it, so that what the
 * agent says after its plan comes after the todo list, in the next response (the Chat view folds a response's
 * rounds but its last into "Completed n steps": the agent's last words belong in the last).
 */
export interface Settle {
  readonly permissionMs: number;
  readonly toolMs: number;
}

/** `putBack`: events the response took after a plan and did not show, for the next response. */
export function acpTurnToParts(
  rendering: TurnRendering,
  settle: Settle,
  putBack: (events: AcpTurnEvent[]) => void,
  scheduler: SchedulerLike = asyncScheduler,
): OperatorFunction<AcpTurnEvent, ResponsePart> {
  return (source) =>
    defer(() => {
      /** Taken since the plan this response ends on, if it has one. */
      let held: AcpTurnEvent[] | undefined;
      const todoList = defer(() => {
        if (held === undefined) return EMPTY;
        putBack(held);
        const part = rendering.todoListPart();
        return part === undefined ? EMPTY : of(part);
      });
      const hold = (event: AcpTurnEvent): boolean => {
        if (event.kind === 'plan') rendering.planForTodoList(event.todos, event.tool);
        if (held === undefined) {
          if (event.kind === 'plan') held = [];
          return event.kind === 'plan';
        }
        if (event.kind !== 'plan') held.push(event);
        return true;
      };
      // `connect` subscribes both branches before the source starts, so events it emits at once reach both.
      const ending = defer(() => rendering.endOfResponse());
      const beginning = defer(() => rendering.startOfResponse());
      return concat(beginning, source.pipe(connect((events) => partsOf(events, rendering, settle, scheduler, hold))), ending, todoList);
    });
}

/** How long after its first change a plan shows at the latest, while the agent keeps changing it. */
export const PLAN_SHOWN_WITHIN_MS = 1000;

/** `hold`: whether the event is held rather than shown (a plan, and what comes after it). */
function partsOf(events: Observable<AcpTurnEvent>, rendering: TurnRendering, settle: Settle, scheduler: SchedulerLike, hold: (event: AcpTurnEvent) => boolean): Observable<ResponsePart> {
  return events.pipe(
    takeUntil(
      merge(
        events.pipe(
          filter((event) => event.kind === 'permission' || event.kind === 'tool' || event.kind === 'plan' || event.kind === 'announced-calls-arrived'),
          filter(arrivalsAfterCalls()),
          debounce((event) => settled(event, settle, scheduler)),
        ),
        // However fast an agent changes its plan, the plan shows, and what came after it waits, no longer than this.
        events.pipe(
          filter((event) => event.kind === 'plan'),
          take(1),
          mergeMap(() => timer(PLAN_SHOWN_WITHIN_MS, scheduler)),
        ),
      ),
    ),
    filter((event) => !hold(event)),
    takeWhile((event) => event.kind !== 'stopped'),
    mergeMap((event): ResponsePart[] => {
      switch (event.kind) {
        case 'update':
          return rendering.partsOf(event.update);
        case 'permission':
          return rendering.afterOutput([rendering.permissionPart(event.permission)]);
        case 'refused':
          return rendering.afterOutput([rendering.refusedPart(event.permission)]);
        case 'tool':
          return rendering.afterOutput([rendering.toolCallPart(event.call)]);
        default:
          return [];
      }
    }),
  );
}

/** When the response may complete after this event, if nothing else comes first. */
function settled(event: AcpTurnEvent, settle: Settle, scheduler: SchedulerLike): Observable<unknown> {
  switch (event.kind) {
    case 'announced-calls-arrived':
      return of(event);
    case 'tool':
    case 'plan':
      return timer(settle.toolMs, scheduler);
    default:
      return timer(settle.permissionMs, scheduler);
  }
}

/**
 * Lets an arrival notice through only right after a bridged call of this response: one left from an
 * earlier response (its calls already shown) must not end this one before its own events.
 */
function arrivalsAfterCalls(): (event: AcpTurnEvent) => boolean {
  let afterCall = false;
  return (event) => {
    const counts = event.kind !== 'announced-calls-arrived' || afterCall;
    afterCall = event.kind === 'tool';
    return counts;
  };
}
