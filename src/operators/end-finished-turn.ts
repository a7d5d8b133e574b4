import { Observable, type OperatorFunction } from 'rxjs';
import type { ResponsePart } from '../protocol/messages.js';

/**
 * Ends a response whose agent finished its turn with the part `finish` makes: the agent's parts completed and
 * none of them is a tool call, which would leave the turn waiting on the consumer. `finish` is told whether the
 * response had text. A response that fails, or is unsubscribed (cancelled), gets nothing more.
 *
 * ```
 * parts:   -a--b--|        -a--T--|       -a--#       ----|      a, b: text; T: a tool call
 * result:  -a--b--(F|)     -a--T--|       -a--#       ----(E|)   F: finish(true); E: finish(false)
 * ```
 */
export function endFinishedTurn(finish: (hadText: boolean) => ResponsePart): OperatorFunction<ResponsePart, ResponsePart> {
  return (parts) =>
    new Observable<ResponsePart>((subscriber) => {
      let hadText = false;
      let calledTool = false;
      return parts.subscribe({
        next: (part) => {
          hadText ||= part.type === 'text' && part.value.trim() !== '';
          calledTool ||= part.type === 'tool_call';
          subscriber.next(part);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          if (!calledTool) subscriber.next(finish(hadText));
          subscriber.complete();
        },
      });
    });
}
