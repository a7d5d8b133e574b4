import { NEVER, type Observable } from 'rxjs';
import type { ChatRequest, ResponseEvent } from '../../src/events/chat-events.js';
import type { AgentDefinition, Message, RequestId, ResponsePart } from '../../src/protocol/messages.js';
import type { HistoryEvent } from '../../src/operators/diff-history.js';

export const ELIZA: AgentDefinition = { eliza: { deterministic: true } };

export const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', value: text }] });
export const assistant = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', value: text }] });
export const text = (value: string): ResponsePart => ({ type: 'text', value });

export function chatRequest(id: RequestId, messages: Message[], options: { agent?: AgentDefinition; cancel$?: Observable<unknown>; marker?: string } = {}): ChatRequest {
  const marker = options.marker === undefined ? {} : { marker: options.marker };
  return { id, params: { modelId: 'm', messages, agent: options.agent ?? ELIZA, ...marker }, cancel$: options.cancel$ ?? NEVER };
}

export const requestEvent = (request: ChatRequest): HistoryEvent => ({ kind: 'request', request });
export const part = (requestId: RequestId, value: string): ResponseEvent => ({ kind: 'part', requestId, part: text(value) });
export const complete = (requestId: RequestId): ResponseEvent => ({ kind: 'complete', requestId });
export const cancelled = (requestId: RequestId, reason = 'The request was cancelled.'): ResponseEvent => ({ kind: 'cancelled', requestId, reason });
