import type { Observable } from 'rxjs';
import type { TurnPlan } from '../history/conversations.js';
import type { ProvideChatResponseParams, RequestId, ResponsePart } from '../protocol/messages.js';

/** One `lm/provideLanguageModelChatResponse` request, decoded, as it enters the pipeline. */
export interface ChatRequest {
  readonly id: RequestId;
  readonly params: ProvideChatResponseParams;
  /** Emits when the consumer cancels this request (`$/cancelRequest`). */
  readonly cancel$: Observable<unknown>;
}

/** What the pipeline tells the consumer about one request: parts, then exactly one terminal event. */
export type ResponseEvent =
  | { readonly kind: 'part'; readonly requestId: RequestId; readonly part: ResponsePart }
  | { readonly kind: 'complete'; readonly requestId: RequestId }
  | { readonly kind: 'failed'; readonly requestId: RequestId; readonly code: number; readonly message: string }
  | { readonly kind: 'cancelled'; readonly requestId: RequestId; readonly reason: string };

export function isTerminal(event: ResponseEvent): boolean {
  return event.kind !== 'part';
}

/** A request the history matched to a conversation: what the conversation's agent must do now. */
export interface Turn extends TurnPlan {
  readonly request: ChatRequest;
}

export type TurnDecision =
  | { readonly kind: 'turn'; readonly turn: Turn }
  | { readonly kind: 'reject'; readonly request: ChatRequest; readonly reason: string }
  /** A request answered without an agent (a summary the consumer asks for: see history/compaction.ts). */
  | { readonly kind: 'answer'; readonly request: ChatRequest; readonly text: string }
  /** The history forgot the conversation: its session can be closed. */
  | { readonly kind: 'forget'; readonly conversationId: string };
