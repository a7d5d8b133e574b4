import { Observable, type OperatorFunction } from 'rxjs';
import { ConversationTracker, type HistoryDecision, type TrackerOptions } from '../history/conversations.js';
import { isCompactionRequest } from '../history/compaction.js';
import type { AgentDefinition } from '../protocol/messages.js';
import type { ChatRequest, ResponseEvent, TurnDecision } from '../events/chat-events.js';

/** The history's input: requests, and the response events the pipeline produced for them (fed back). */
export type HistoryEvent = { readonly kind: 'request'; readonly request: ChatRequest } | ResponseEvent;

/**
 * Matches each request against the committed / provisional history of every conversation and says
 * which conversation it continues, which of its messages are new, and whether the provisional exchange
 * was discarded. A request for a summary of a conversation is answered at once (`answer`), touching no
 * conversation's turn. Response events update the provisional exchange; those of turns no longer in flight
 * are ignored. `agentKeyOf` says which requests may share a conversation (those of the same agent).
 *
 * ```
 * source: --r1--p--c-----r2---------r3--------|      r2 = r1's history + reply + U2; r3 diverges after U1's reply
 * result: --t1-----------t2---------t3--------|      t2 = turn(c1, [U2], canceled=false); t3 = turn(c1, [U3], canceled=true)
 * ```
 *
 * Beyond `options.maxConversations` the least recently used idle conversation is forgotten: a `forget`
 * decision for it follows the decision that pushed it out, so that its session can go.
 */
export function diffHistory(agentKeyOf: (agent: AgentDefinition) => string, options: TrackerOptions = {}): OperatorFunction<HistoryEvent, TurnDecision> {
  return (source) =>
    new Observable<TurnDecision>((subscriber) => {
      const tracker = new ConversationTracker(options);
      return source.subscribe({
        next(event) {
          switch (event.kind) {
            case 'request': {
              const { request } = event;
              const historyRequest = { id: request.id, agentKey: agentKeyOf(request.params.agent), messages: request.params.messages, marker: request.params.marker };
              let decision: TurnDecision;
              try {
                decision = isCompactionRequest(historyRequest.messages)
                  ? { kind: 'answer', request, text: tracker.summarize(historyRequest) }
                  : planOf(request, tracker.decide(historyRequest));
              } catch (error) {
                // One request that cannot be read fails alone; the stream, and every other conversation, go on.
                decision = { kind: 'reject', request, reason: `The request could not be read: ${error instanceof Error ? error.message : String(error)}` };
              }
              subscriber.next(decision);
              for (const conversationId of tracker.takeForgotten()) subscriber.next({ kind: 'forget', conversationId });
              break;
            }
            case 'part':
              tracker.recordPart(event.requestId, event.part);
              break;
            default:
              tracker.endTurn(event.requestId, event.kind === 'complete');
          }
        },
        error: (err: unknown) => subscriber.error(err),
        complete: () => subscriber.complete(),
      });
    });
}

function planOf(request: ChatRequest, decision: HistoryDecision): TurnDecision {
  if (decision.kind === 'reject') return { kind: 'reject', request, reason: decision.reason };
  const { kind: _, ...plan } = decision;
  return { kind: 'turn', turn: { request, ...plan } };
}
