import { Observable, type OperatorFunction } from 'rxjs';
import { ProtocolErrorCodes } from '../protocol/errors.js';
import type { ResponsePart } from '../protocol/messages.js';
import type { ChatRequest, ResponseEvent } from '../events/chat-events.js';

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
  // One subscriber rather than merge, take, map, endWith, catchError and takeWhile: every part of every
  // response passes through here, and each operator it crossed was a layer of subscribers (issue 16).
  return (parts: Observable<ResponsePart>) =>
    new Observable<ResponseEvent>((subscriber) => {
      const end = (event: ResponseEvent) => {
        subscriber.next(event);
        subscriber.complete();
      };
      // The cancellation is subscribed first: a request cancelled before it started never starts the agent.
      const cancellation = request.cancel$.subscribe({
        next: () => end({ kind: 'cancelled', requestId, reason: 'The request was cancelled.' }),
        error: (error: unknown) => subscriber.error(error),
      });
      if (subscriber.closed) return cancellation;
      const streamed = parts.subscribe({
        next: (part) => subscriber.next({ kind: 'part', requestId, part }),
        complete: () => end({ kind: 'complete', requestId }),
        error: (error: unknown) => end({ kind: 'failed', requestId, code: ProtocolErrorCodes.AgentFailed, message: messageOf(error) }),
      });
      return () => {
        cancellation.unsubscribe();
        streamed.unsubscribe();
      };
    });
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
