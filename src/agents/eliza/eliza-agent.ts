import { asyncScheduler, concatMap, defer, from, map, of, timer, type Observable, type SchedulerLike } from 'rxjs';
import type { AgentSession, AgentStream, TurnInput } from '../agent-stream.js';
import type { ResponsePart, ToolDefinition, ToolResultPart } from '../../protocol/messages.js';
import type { ForwardedMessage } from '../../history/context-policy.js';
import { AGENT_ACTION_TOOL, isApprovalOf, newActionId, type AgentActionParameters } from '../../protocol/agent-action.js';
import { parseCommand, type ElizaCommand } from './commands.js';
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

/** A tool call Eliza made and is waiting to see answered. */
type WaitingCall = { readonly toolCallId: string } & ({ readonly kind: 'tool' } | { readonly kind: 'permission'; readonly actionId: string });

class ElizaSession implements AgentSession {
  /** Eliza's state after the exchanges the consumer accepted; a discarded exchange rolls back to it. */
  private accepted: ElizaState = initialElizaState();
  private current: ElizaState = this.accepted;
  private readonly choice: ReassemblyChoice;
  private waiting: WaitingCall | undefined;
  private calls = 0;
  private begun = false;

  constructor(private readonly options: ElizaOptions) {
    this.choice = options.deterministic ? { kind: 'cycle' } : { kind: 'random', random: options.random ?? Math.random };
  }

  turn(input: TurnInput): Observable<ResponsePart> {
    return defer(() => {
      // A discarded exchange is forgotten, unless only its reply was: what the user said still stands.
      if (input.canceled && !input.askedKept) this.current = this.accepted;
      else this.accepted = this.current;
      const waiting = this.waiting;
      this.waiting = undefined;
      // A call that the consumer answered gets its reply; one it dropped (rejected, cancelled) gets none.
      const result = waiting === undefined || input.canceled ? undefined : resultFor(waiting.toolCallId, input.newMessages);
      if (waiting !== undefined && result !== undefined) {
        if (waiting.kind === 'tool') return this.stream(`OK: ${textOfResult(result)}`);
        return this.stream(isApprovalOf(waiting.actionId, result) ? 'Permission granted.' : 'Permission refused.');
      }
      // A conversation that went back to a point of another begins there: Eliza, who has no session to fork, hears its history up to there.
      const heard = !this.begun && input.goesBack !== undefined ? input.history : input.newMessages;
      this.begun = true;
      const users = heard.filter((m) => m.role === 'user' && !m.content.every((p) => p.type === 'tool_result'));
      // Every user message is heard, so that a conversation first seen with history (a restarted bridge)
      // leaves Eliza where answering each message would have; only the last one is answered.
      let reply: string | undefined;
      for (const [i, message] of users.entries()) {
        const text = textOf(message);
        const command = parseCommand(text);
        if (command !== undefined) {
          if (i === users.length - 1) return this.perform(command, input.tools);
          continue;
        }
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

  private perform(command: ElizaCommand, tools: readonly ToolDefinition[]): Observable<ResponsePart> {
    const offered = tools.filter((t) => t.name !== AGENT_ACTION_TOOL).map((t) => t.name);
    switch (command.kind) {
      case 'list-tools':
        return this.stream(offered.length === 0 ? 'No tools are offered.' : `Tools offered: ${offered.join(', ')}.`);
      case 'bad-tool-input':
        return this.stream(`I cannot use ${command.name}: ${command.problem}.`);
      case 'use-tool':
        if (!offered.includes(command.name)) return this.stream(`There is no tool named ${command.name}.`);
        return this.call(command.name, command.input);
      case 'request-permission': {
        if (!tools.some((t) => t.name === AGENT_ACTION_TOOL)) return this.stream(`I cannot ask you whether to ${command.title}: this chat has no way to ask (as in Ask mode), so I will not.`);
        const parameters: AgentActionParameters = { kind: 'other', title: command.title, raw_input: null, action_id: newActionId() };
        const toolCallId = this.nextCallId();
        this.waiting = { toolCallId, kind: 'permission', actionId: parameters.action_id };
        return of({ type: 'tool_call', toolCallId, toolName: AGENT_ACTION_TOOL, parameters: { ...parameters } });
      }
    }
  }

  /** Ends the response on a call of a consumer's tool; the next request answers it. */
  private call(toolName: string, parameters: Record<string, unknown>): Observable<ResponsePart> {
    const toolCallId = this.nextCallId();
    this.waiting = { toolCallId, kind: 'tool' };
    return of({ type: 'tool_call', toolCallId, toolName, parameters });
  }

  private nextCallId(): string {
    return `eliza-call-${++this.calls}`;
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

/** The tool result for `toolCallId` among the messages, if there is one. */
function resultFor(toolCallId: string, messages: readonly ForwardedMessage[]): ToolResultPart | undefined {
  for (const message of messages) {
    for (const part of message.content) if (part.type === 'tool_result' && part.toolCallId === toolCallId) return part;
  }
  return undefined;
}

function textOfResult(result: ToolResultPart): string {
  return result.result.map((r) => (r.type === 'text' ? r.value : `[${r.mimeType}]`)).join('');
}

function textOf(message: ForwardedMessage): string {
  return message.content
    .map((part) => (part.type === 'text' ? part.value : ''))
    .join('')
    .trim();
}
