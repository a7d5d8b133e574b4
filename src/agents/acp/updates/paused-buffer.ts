import type { AcpTurnEvent } from './turn-events.js';

/** How much a turn may buffer while no response is attached (it waits on VS Code), in characters of text. */
export const PAUSED_BUFFER_CHARS = 8 * 1024 * 1024;

/** An event's share of that: its text, or a small constant. */
export function bufferedSize(event: AcpTurnEvent): number {
  if (event.kind === 'update' && (event.update.sessionUpdate === 'agent_message_chunk' || event.update.sessionUpdate === 'agent_thought_chunk') && event.update.content.type === 'text') {
    return event.update.content.text.length;
  }
  return 256;
}

/**
 * Two message (or thought) chunks of text in a row, as one; two plans in a row, as the later: how a paused turn's
 * buffered stream stays small.
 */
export function joinBufferedEvents(last: AcpTurnEvent, next: AcpTurnEvent): AcpTurnEvent | undefined {
  if (last.kind === 'plan' && next.kind === 'plan') return next;
  if (last.kind !== 'update' || next.kind !== 'update') return undefined;
  const [a, b] = [last.update, next.update];
  if ((a.sessionUpdate !== 'agent_message_chunk' && a.sessionUpdate !== 'agent_thought_chunk') || b.sessionUpdate !== a.sessionUpdate) return undefined;
  if (a.content.type !== 'text' || b.content.type !== 'text') return undefined;
  return { kind: 'update', update: { sessionUpdate: a.sessionUpdate, content: { type: 'text', text: a.content.text + b.content.text } } };
}
