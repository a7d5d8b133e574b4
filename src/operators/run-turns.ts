import { concat, finalize, groupBy, mergeMap, of, switchMap, type Observable, type OperatorFunction } from 'rxjs';
import { ProtocolErrorCodes } from '../protocol/errors.js';
import type { AgentSession } from '../agents/agent-stream.js';
import type { ResponseEvent, Turn, TurnDecision } from '../pipeline/events.js';
import { respondTo } from './respond-to.js';

const REFUSED = Symbol('refused');

/**
 * Runs each conversation's turns on its own agent session, one at a time: a conversation's next turn
 * switches away from the previous one, and that unsubscription is what cancels the agent's work on it.
 * The superseded request still gets its terminal `cancelled` event. Conversations run independently;
 * refused requests fail at once.
 *
 * ```
 * decisions:  -a1-----a2------b1----R--    a*, b*: turns of conversations a and b; R: a refused request
 * a1's parts: -xx-x---!                    (unsubscribed when a2 arrives: the agent cancels)
 * result:     -xx-x---(Xy)-y--z-----F--    X: a1 cancelled; y: a2's parts; z: b1's parts; F: R failed
 * ```
 */
export function runTurns(openSession: (turn: Turn) => AgentSession): OperatorFunction<TurnDecision, ResponseEvent> {
  return (decisions) =>
    decisions.pipe(
      groupBy((decision) => (decision.kind === 'turn' ? decision.turn.conversationId : REFUSED)),
      mergeMap((group) =>
        group.key === REFUSED ? group.pipe(mergeMap(refusalOf)) : runConversation(group.pipe(mergeMap(turnOf)), openSession),
      ),
    );
}

function runConversation(turns: Observable<Turn>, openSession: (turn: Turn) => AgentSession): Observable<ResponseEvent> {
  let session: AgentSession | undefined;
  return turns.pipe(
    switchMap((turn) => {
      session ??= openSession(turn);
      const { request, supersedes } = turn;
      const input = { newMessages: turn.newMessages, canceled: turn.canceled, askedKept: turn.askedKept, tools: request.params.options?.tools ?? [] };
      const superseded: ResponseEvent[] =
        supersedes === undefined ? [] : [{ kind: 'cancelled', requestId: supersedes, reason: 'A newer request in the same conversation replaced this one.' }];
      return concat(of(...superseded), session.turn(input).pipe(respondTo(request)));
    }),
    finalize(() => session?.close()),
  );
}

function turnOf(decision: TurnDecision): Turn[] {
  return decision.kind === 'turn' ? [decision.turn] : [];
}

function refusalOf(decision: TurnDecision): ResponseEvent[] {
  return decision.kind === 'reject' ? [{ kind: 'failed', requestId: decision.request.id, code: ProtocolErrorCodes.InvalidRequest, message: decision.reason }] : [];
}
