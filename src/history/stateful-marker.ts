import type { Message } from '../protocol/messages.js';

/**
 * Copilot's stateful marker: a data part of kind `stateful_marker` whose bytes are `<modelId>\<marker>`.
 * A model puts one in its response; Copilot keeps it with that round and sends it back inside the
 * assistant message of every later request (with the model id rewritten to the current model's), also
 * when it re-renders or summarises the history around it. So it names the conversation when the history
 * itself no longer does.
 */
export const STATEFUL_MARKER = 'stateful_marker';

export function statefulMarkerData(modelId: string, marker: string): Uint8Array {
  return new TextEncoder().encode(`${modelId}\\${marker}`);
}

/** The marker of a `stateful_marker` part's base64 data, if it is one of ours (no backslash, not empty). */
export function markerOf(base64: string): string | undefined {
  const [, marker] = Buffer.from(base64, 'base64').toString('utf8').split('\\');
  return marker === undefined || marker === '' ? undefined : marker;
}

/** The markers in the assistant messages, newest first, each with the index of its message. */
export function statefulMarkersOf(messages: readonly Message[]): { readonly index: number; readonly marker: string }[] {
  const found: { index: number; marker: string }[] = [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      const marker = part.type === 'data' && part.mimeType === STATEFUL_MARKER ? markerOf(part.data) : undefined;
      if (marker !== undefined) found.push({ index, marker });
    }
  }
  return found;
}
