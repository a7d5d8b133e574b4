import { concat, filter, finalize, groupBy, mergeMap, of, switchMap, type Observable, type OperatorFunction } from 'rxjs';
import { ProtocolErrorCodes } from '../protocol/errors.js';
import type { AgentSession, TurnInput } from '../agents/agent-stream.js';
import type { ResponseEvent, Turn, TurnDecision } from '../events/chat-events.js';
import { respondTo } from './respond-to.js';
import { endFinishedTurn } from './end-finished-turn.js';
import { applyContextPolicy, type ContextPolicy } from '../history/context-policy.js';
import { consumerModeOf } from '../history/consumer-mode.js';
import { completionCall, completionRepliesAsSaid, offersCompletionTool } from '../tools/consumer-completion.js';

/** Requests answered without an agent: refused ones, and the summaries the history answers itself. */
const AT_ONCE = Symbol('answered at once');

/**
 * Runs each conversation's turns on its own agent session, one at a time: a conversation's next turn
 * switches away from the previous one, and that unsubscription is what cancels the agent's work on it.
 * The superseded request still gets its terminal `cancelled` event. Conversations run independently;
 * refused requests fail at once, and requests the history answers itself get that answer at once. The agent gets what `policy` lets through of the consumer's messages. A conversation the history forgot ends, closing its session; should it
 * come back, it opens a new one.
 *
 * ```
 * decisions:  -a1-----a2------b1----R---Fa--S-    a*, b*: turns of conversations a and b; R: a refused request
 * a1's parts: -xx-x---!                           (unsubscribed when a2 arrives: the agent cancels)
 * result:     -xx-x---(Xy)-y--z-----F------(sC)   X: a1 cancelled; y: a2's parts; z: b1's parts; F: R failed;
 *                                                 S: an answer without agent: s its text, C complete
 * a's session:  open ...................close    Fa: the history forgot a
 * ```
 */
export function runTurns(openSession: (turn: Turn) => AgentSession, policy: ContextPolicy = 'everything'): OperatorFunction<TurnDecision, ResponseEvent> {
  return (decisions) =>
    decisions.pipe(
      groupBy(keyOf, { duration: (group) => group.pipe(filter((decision) => decision.kind === 'forget')) }),
      mergeMap((group) =>
        group.key === AT_ONCE ? group.pipe(mergeMap(atOnce)) : runConversation(group.pipe(mergeMap(turnOf)), openSession, policy),
      ),
    );
}

function runConversation(turns: Observable<Turn>, openSession: (turn: Turn) => AgentSession, policy: ContextPolicy): Observable<ResponseEvent> {
  let session: AgentSession | undefined;
  return turns.pipe(
    switchMap((turn) => {
      session ??= openSession(turn);
      const { request, supersedes } = turn;
      const tools = request.params.options?.tools ?? [];
      const input: TurnInput = {
        newMessages: applyContextPolicy(completionRepliesAsSaid(turn.newMessages), policy),
        // The whole history is read only by a session that has not seen it (its first prompt): filtering
        // it on every turn would cost time linear in the conversation's length each time.
        get history() {
          return applyContextPolicy(completionRepliesAsSaid(turn.history), policy);
        },
        canceled: turn.canceled,
        askedKept: turn.askedKept,
        tools,
        config: request.params.config ?? {},
        mode: consumerModeOf(request.params.messages),
        turnKey: turn.turnKey,
        goesBack: turn.goesBack,
      };
      const parts = session.turn(input);
      // A consumer that ends a task only through its completion tool (Roo Code) gets a finished turn so.
      const answered = offersCompletionTool(tools) ? parts.pipe(endFinishedTurn(completionCall)) : parts;
      const responded = answered.pipe(respondTo(request));
      if (supersedes === undefined) return responded;
      return concat(of<ResponseEvent>({ kind: 'cancelled', requestId: supersedes, reason: 'A newer request in the same conversation replaced this one.' }), responded);
    }),
    finalize(() => session?.close()),
  );
}

function keyOf(decision: TurnDecision): string | typeof AT_ONCE {
  switch (decision.kind) {
    case 'turn':
      return decision.turn.conversationId;
    case 'forget':
      return decision.conversationId;
    default:
      return AT_ONCE;
  }
}

function turnOf(decision: TurnDecision): Turn[] {
  return decision.kind === 'turn' ? [decision.turn] : [];
}

function atOnce(decision: TurnDecision): ResponseEvent[] {
  switch (decision.kind) {
    case 'reject':
      return [{ kind: 'failed', requestId: decision.request.id, code: ProtocolErrorCodes.InvalidRequest, message: decision.reason }];
    case 'answer':
      return [
        { kind: 'part', requestId: decision.request.id, part: { type: 'text', value: decision.text } },
        { kind: 'complete', requestId: decision.request.id },
      ];
    default:
      return [];
  }
}
