import { Observable, type OperatorFunction } from 'rxjs';
import { ConversationTracker, type TrackerOptions } from '../history/conversations.js';
import type { AgentDefinition } from '../protocol/messages.js';
import type { ChatRequest, ResponseEvent, TurnDecision } from '../pipeline/events.js';

/** The history's input: requests, and the response events the pipeline produced for them (fed back). */
export type HistoryEvent = { readonly kind: 'request'; readonly request: ChatRequest } | ResponseEvent;

/**
 * Matches each request against the committed / provisional history of every conversation and says
 * which conversation it continues, which of its messages are new, and whether the provisional exchange
 * was discarded. Response events update the provisional exchange; those of turns no longer in flight
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
              let decision: ReturnType<ConversationTracker['decide']>;
              try {
                decision = tracker.decide({ id: request.id, agentKey: agentKeyOf(request.params.agent), messages: request.params.messages, marker: request.params.marker });
              } catch (error) {
                // One request that cannot be read fails alone; the stream, and every other conversation, go on.
                decision = { kind: 'reject', reason: `The request could not be read: ${error instanceof Error ? error.message : String(error)}` };
              }
              if (decision.kind === 'reject') {
                subscriber.next({ kind: 'reject', request, reason: decision.reason });
              } else {
                const { kind: _, ...plan } = decision;
                subscriber.next({ kind: 'turn', turn: { request, ...plan } });
              }
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
