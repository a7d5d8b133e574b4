import { asyncScheduler, connect, debounceTime, filter, mergeMap, takeUntil, takeWhile, type OperatorFunction, type SchedulerLike } from 'rxjs';
import type { AcpTurnEvent } from '../agents/acp/turn-events.js';
import type { TurnRendering } from '../agents/acp/update-parts.js';
import type { ResponsePart } from '../protocol/messages.js';

/**
 * Turns the events of an ACP prompt turn into the parts of one response. The response ends when the
 * agent stops, or when it waits on VS Code: permission requests become `symposium-agent-action` tool
 * calls and calls of bridged tools become calls of those tools; once no further one has come for
 * `settleMs` (agents make several at once) the response completes so that VS Code can run and
 * confirm them; the agent's turn stays paused meanwhile.
 *
 * ```
 * events:  -u--u--p-t------u--      u: update, p: permission request, t: bridged tool call, s: stopped
 * result:  -a--a--P-T---|            a: its parts, P, T: tool call parts; | once settleMs passed after the last
 *
 * events:  -u--u--s
 * result:  -a--a--|
 * ```
 */
export function acpTurnToParts(rendering: TurnRendering, settleMs: number, scheduler: SchedulerLike = asyncScheduler): OperatorFunction<AcpTurnEvent, ResponsePart> {
  // `connect` subscribes both branches before the source starts, so events it emits at once reach both.
  return connect((events) =>
    events.pipe(
      takeWhile((event) => event.kind !== 'stopped'),
      takeUntil(events.pipe(filter((event) => event.kind === 'permission' || event.kind === 'tool'), debounceTime(settleMs, scheduler))),
      mergeMap((event): ResponsePart[] => {
        switch (event.kind) {
          case 'update':
            return rendering.partsOf(event.update);
          case 'permission':
            return [rendering.permissionPart(event.permission)];
          case 'tool':
            return [rendering.toolCallPart(event.call)];
          default:
            return [];
        }
      }),
    ),
  );
}
