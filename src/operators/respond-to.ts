import { catchError, endWith, map, merge, of, take, takeWhile, type Observable, type OperatorFunction } from 'rxjs';
import { ProtocolErrorCodes } from '../protocol/errors.js';
import type { ResponsePart } from '../protocol/messages.js';
import type { ChatRequest, ResponseEvent } from '../pipeline/events.js';

/**
 * Turns an agent's parts for one request into that request's response events: each part, then exactly
 * one terminal event: `complete` when the agent is done, `failed` when it errors, `cancelled` when the
 * consumer cancels, which also unsubscribes from the agent (and so cancels its work).
 *
 * ```
 * parts:    --a--b--|                --a--b---c--         --a--#
 * cancel$:  ------------             -------x----         ------
 * result:   --a--b--(C|)             --a--b-(X|)          --a--(F|)
 * ```
 */
export function respondTo(request: ChatRequest): OperatorFunction<ResponsePart, ResponseEvent> {
  const requestId = request.id;
  return (parts: Observable<ResponsePart>) =>
    // The cancellation is subscribed first: a request cancelled before it started never starts the agent.
    merge(
      request.cancel$.pipe(
        take(1),
        map((): ResponseEvent => ({ kind: 'cancelled', requestId, reason: 'The request was cancelled.' })),
      ),
      parts.pipe(
        map((part): ResponseEvent => ({ kind: 'part', requestId, part })),
        endWith<ResponseEvent>({ kind: 'complete', requestId }),
        catchError((error: unknown) => of<ResponseEvent>({ kind: 'failed', requestId, code: ProtocolErrorCodes.AgentFailed, message: messageOf(error) })),
      ),
    ).pipe(takeWhile((event) => event.kind === 'part', true));
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
