import type { SessionUpdate, ToolCallUpdate } from '@agentclientprotocol/sdk';

/** How many announced tool calls a session remembers (a permission request follows its announcement closely). */
const KEPT = 200;

/**
 * The tool calls a session's agent announced (`tool_call`, then `tool_call_update`s), by id: what a
 * later permission request for the same call often leaves out. Codex names the MCP tool only here,
 * and Gemini CLI and Codex send the call's input here while their permission requests carry
 * `rawInput: null`.
 */
export class AnnouncedToolCalls {
  private readonly calls = new Map<string, ToolCallUpdate>();

  record(update: SessionUpdate): void {
    if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return;
    const { sessionUpdate: _kind, ...fields } = update;
    const known = this.calls.get(update.toolCallId);
    // Re-inserted so that the oldest entry is the first one to go.
    this.calls.delete(update.toolCallId);
    this.calls.set(update.toolCallId, { ...known, ...withoutNulls(fields), toolCallId: update.toolCallId });
    if (this.calls.size > KEPT) this.calls.delete(this.calls.keys().next().value as string);
  }

  get(toolCallId: string): ToolCallUpdate | undefined {
    return this.calls.get(toolCallId);
  }

  /** The permission request's tool call, with the title, kind and input it lacks taken from its announcement. */
  complete(toolCall: ToolCallUpdate): ToolCallUpdate {
    const announced = this.calls.get(toolCall.toolCallId);
    if (announced === undefined) return toolCall;
    return {
      ...toolCall,
      title: toolCall.title ?? announced.title,
      kind: toolCall.kind ?? announced.kind,
      rawInput: toolCall.rawInput ?? announced.rawInput,
    };
  }
}

/** An update's fields, without those it leaves null (null means "not said", not "cleared"). */
function withoutNulls<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null && value !== undefined)) as Partial<T>;
}
