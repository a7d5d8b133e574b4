import type * as acp from '@agentclientprotocol/sdk';
import * as t from 'io-ts';
import { decodeOrThrow } from '../../../protocol/decode.js';
import type { Logger } from '../../../log/logger.js';

/**
 * claude-agent-acp's extension method (0.100 and 0.101; codex-acp 2.6 serves it too; ACP v2's draft names it
 * `session/inject`, RFD #1261): words into the turn that runs, advertised as `InitializeResponse._meta.steering.supported`.
 * With `idleBehavior: "promptRequired"` an agent whose turn has ended starts nothing and says so: the words are then
 * the session's next prompt.
 */
export const STEERING_METHOD = '_session/steering';
const SteeringAnswer = t.type({ outcome: t.string });

/** Sends words into the running turn; whether they reached it (false: no turn runs, they are to be prompted). */
export type Steer = (blocks: acp.ContentBlock[]) => Promise<boolean>;

/** How ACP session `sessionId` of an agent that advertises steering is steered; undefined for any other agent. */
export function steeringOf(init: acp.InitializeResponse, agent: acp.ClientContext, sessionId: string): Steer | undefined {
  const steering: unknown = init._meta?.['steering'];
  if (typeof steering !== 'object' || steering === null || (steering as { supported?: unknown }).supported !== true) return undefined;
  return async (prompt) => {
    const answer = await agent.request(STEERING_METHOD, { sessionId, prompt, _meta: { steering: { idleBehavior: 'promptRequired' } } });
    return decodeOrThrow(SteeringAnswer, answer, 'answer').outcome === 'injected';
  };
}

/**
 * What the person said while the agent's turn went on (a steered message: the call's result with their words, or
 * an approval with them): steered into that turn where the agent can be steered, once the agent has moved on from
 * the answered calls (steered earlier, claude-agent-acp moves a running tool call to the background); else, or
 * when the turn ended first, the session's next prompt, started when the turn stops. Each word reaches the agent once.
 */
export class FollowUps {
  private held: acp.ContentBlock[] = [];
  private queued: acp.ContentBlock[] = [];
  private steer: Steer | undefined;
  private steering: Promise<void> = Promise.resolve();
  private inFlight = 0;
  /** Counts the bridge's cancels: a steer that settles after one queues nothing. */
  private cancels = 0;

  /** Words for the running turn, steered with `steer` (none: the agent cannot be) once the agent moves on. */
  add(blocks: acp.ContentBlock[], steer: Steer | undefined): void {
    if (steer === undefined) this.queued.push(...blocks);
    else {
      this.held.push(...blocks);
      this.steer = steer;
    }
  }

  /** An update of the running turn: once the agent moved on from the answered calls (movesOn), the words held are steered. */
  heard(update: acp.SessionUpdate, log: Logger, conversationId: string): void {
    const { steer } = this;
    if (this.held.length === 0 || steer === undefined || !movesOn(update)) return;
    const blocks = this.held.splice(0);
    const cancels = this.cancels;
    this.inFlight++;
    this.steering = this.steering
      .then(() => steer(blocks))
      .catch((error: unknown) => {
        log.warn(`conversation ${conversationId}: steering failed, the words are its next prompt: ${String(error)}`);
        return false;
      })
      .then((reached) => {
        this.inFlight--;
        log.debug(`conversation ${conversationId}: the person's words ${reached ? 'steered into the running turn' : 'are the next prompt (no turn ran)'}`);
        if (!reached && cancels === this.cancels) this.queued.push(...blocks);
      });
  }

  /** Whether nothing waits to be steered or prompted. */
  get none(): boolean {
    return this.held.length === 0 && this.queued.length === 0 && this.inFlight === 0;
  }

  /** The turn stopped: the words that did not reach it, to prompt next (taken), once every steer sent has settled. */
  async take(): Promise<acp.ContentBlock[]> {
    this.queued.push(...this.held.splice(0));
    await this.steering;
    return this.queued.splice(0);
  }

  /** The bridge cancelled the turn: nothing said for it is asked any more. */
  clear(): void {
    this.held = [];
    this.queued = [];
    this.cancels++;
  }
}

/**
 * Whether the agent has moved on from the calls it was answered: a call ended (claude-agent-acp reports the bridged
 * call completed once Claude Code has its result), or it says or thinks something. Not a new call: steered while a
 * call of its runs, claude-agent-acp would move that one to the background.
 */
function movesOn(update: acp.SessionUpdate): boolean {
  if (update.sessionUpdate === 'tool_call_update') return update.status === 'completed' || update.status === 'failed';
  return update.sessionUpdate === 'agent_message_chunk' || update.sessionUpdate === 'agent_thought_chunk';
}
