import { asyncScheduler, concat, connect, debounce, defer, EMPTY, filter, mergeMap, of, takeUntil, takeWhile, tap, timer, type Observable, type OperatorFunction, type SchedulerLike } from 'rxjs';
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
 * result:  -a---a---a--(L|)          L: one call of the todo tool with the latest plan, once settle.toolMs passed
 *
 * events:  -u-l--u--s                a response that ends for any reason with a plan not yet shown shows it last
 * result:  -a----a--(L|)
 * ```
 *
 * A plan is what no agent waits on, so plans in a row cost one call, and a response that ends anyway (a permission, a
 * tool call) carries the plan at no cost of its own.
 */
export interface Settle {
  readonly permissionMs: number;
  readonly toolMs: number;
}

export function acpTurnToParts(rendering: TurnRendering, settle: Settle, scheduler: SchedulerLike = asyncScheduler): OperatorFunction<AcpTurnEvent, ResponsePart> {
  return (source) =>
    defer(() => {
      /** The event after which the response settled, if it did not end with the agent's turn. */
      let settledAfter: AcpTurnEvent | undefined;
      const todoList = defer(() => {
        const part = rendering.todoListPart(settledAfter?.kind === 'plan');
        return part === undefined ? EMPTY : of(part);
      });
      // `connect` subscribes both branches before the source starts, so events it emits at once reach both.
      return concat(source.pipe(connect((events) => partsOf(events, rendering, settle, scheduler, (event) => (settledAfter = event)))), todoList);
    });
}

function partsOf(events: Observable<AcpTurnEvent>, rendering: TurnRendering, settle: Settle, scheduler: SchedulerLike, settledAfter: (event: AcpTurnEvent) => void): Observable<ResponsePart> {
  return events.pipe(
    takeWhile((event) => event.kind !== 'stopped'),
    takeUntil(
      events.pipe(
        filter((event) => event.kind === 'permission' || event.kind === 'tool' || event.kind === 'plan' || event.kind === 'announced-calls-arrived'),
        filter(arrivalsAfterCalls()),
        debounce((event) => settled(event, settle, scheduler)),
        tap(settledAfter),
      ),
    ),
    mergeMap((event): ResponsePart[] => {
      switch (event.kind) {
        case 'update':
          return rendering.partsOf(event.update);
        case 'permission':
          return [rendering.permissionPart(event.permission)];
        case 'refused':
          return [rendering.refusedPart(event.permission)];
        case 'tool':
          return [rendering.toolCallPart(event.call)];
        case 'plan':
          rendering.planForTodoList(event.todos);
          return [];
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
