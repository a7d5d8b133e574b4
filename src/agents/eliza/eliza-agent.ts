import { asyncScheduler, concatMap, defer, from, map, of, timer, type Observable, type SchedulerLike } from 'rxjs';
import type { AgentSession, AgentStream, TurnInput } from '../agent-stream.js';
import type { Message, ResponsePart } from '../../protocol/messages.js';
import { elizaRespond, initialElizaState, type ElizaState, type ReassemblyChoice } from './engine.js';

export interface ElizaOptions {
  /** Same conversation, same replies: reassemblies cycle in order, as in Weizenbaum's original. */
  readonly deterministic: boolean;
  /** Pause between streamed words, so that consumers see a reply arrive in parts. */
  readonly paceMs: number;
  readonly scheduler?: SchedulerLike;
  readonly random?: () => number;
}

/** The built-in Eliza as an agent stream: every conversation gets its own DOCTOR with its own memory. */
export class ElizaAgent implements AgentStream {
  constructor(private readonly options: ElizaOptions) {}

  openSession(): AgentSession {
    return new ElizaSession(this.options);
  }

  dispose(): void {}
}

const NO_TEXT_REPLY = 'I can only read words. Please tell me, in words, what is on your mind.';

class ElizaSession implements AgentSession {
  /** Eliza's state after the exchanges the consumer accepted; a discarded exchange rolls back to it. */
  private accepted: ElizaState = initialElizaState();
  private current: ElizaState = this.accepted;
  private readonly choice: ReassemblyChoice;

  constructor(private readonly options: ElizaOptions) {
    this.choice = options.deterministic ? { kind: 'cycle' } : { kind: 'random', random: options.random ?? Math.random };
  }

  turn(input: TurnInput): Observable<ResponsePart> {
    return defer(() => {
      if (input.canceled) this.current = this.accepted;
      else this.accepted = this.current;
      let reply: string | undefined;
      // Every user message is heard, so that a conversation first seen with history (a restarted bridge)
      // leaves Eliza where answering each message would have; only the last one is answered.
      for (const message of input.newMessages) {
        if (message.role !== 'user') continue;
        const text = textOf(message);
        if (text === '') {
          reply = NO_TEXT_REPLY;
          continue;
        }
        const answer = elizaRespond(this.current, text, this.choice);
        this.current = answer.state;
        reply = answer.reply;
      }
      return this.stream(reply ?? NO_TEXT_REPLY);
    });
  }

  close(): void {}

  private stream(reply: string): Observable<ResponsePart> {
    const scheduler = this.options.scheduler ?? asyncScheduler;
    return from(reply.match(/\S+\s*/g) ?? [reply]).pipe(
      concatMap((word, i) => (i === 0 ? of(word) : timer(this.options.paceMs, scheduler).pipe(map(() => word)))),
      map((value): ResponsePart => ({ type: 'text', value })),
    );
  }
}

function textOf(message: Message): string {
  return message.content
    .map((part) => (part.type === 'text' ? part.value : ''))
    .join('')
    .trim();
}
