import { defer, endWith, map, merge, Subject, takeWhile, tap, type Observable } from 'rxjs';
import type { AgentSession } from '../agents/agent-stream.js';
import type { AgentDefinition } from '../protocol/messages.js';
import { diffHistory, type HistoryEvent } from '../operators/diff-history.js';
import type { TrackerOptions } from '../history/conversations.js';
import type { ContextPolicy } from '../history/context-policy.js';
import { runTurns } from '../operators/run-turns.js';
import type { ChatRequest, ResponseEvent, Turn } from '../events/chat-events.js';

const END = Symbol('end of requests');

export interface BridgeOptions {
  /** Which requests may share a conversation: those whose agents have the same key. */
  readonly agentKeyOf: (agent: AgentDefinition) => string;
  readonly openSession: (turn: Turn) => AgentSession;
  /** How the history finds conversations again and how many it keeps. */
  readonly history?: TrackerOptions;
  /** What of the consumer's messages reaches agents (default: all of it). */
  readonly contextPolicy?: ContextPolicy;
}

/**
 * The whole bridge as one stream: requests in, response events out. Response events are fed back into
 * the history, synchronously, so the provisional exchange always holds exactly what was sent before the
 * next request is matched.
 *
 * ```
 * requests ──► diffHistory ──► runTurns ──► response events ──► (consumer)
 *                  ▲                              │
 *                  └──────────── fed back ────────┘
 * ```
 */
export function bridge(requests: Observable<ChatRequest>, options: BridgeOptions): Observable<ResponseEvent> {
  return defer(() => {
    const sent = new Subject<ResponseEvent>();
    // The history ends with the requests (not with the fed-back events, which would wait on themselves),
    // so that the turns still running drain and the stream completes.
    const history = merge(
      requests.pipe(
        map((request): HistoryEvent | typeof END => ({ kind: 'request', request })),
        endWith(END),
      ),
      sent,
    ).pipe(takeWhile((event): event is HistoryEvent => event !== END));
    return history.pipe(diffHistory(options.agentKeyOf, options.history), runTurns(options.openSession, options.contextPolicy), tap(sent));
  });
}
