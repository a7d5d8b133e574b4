/**
 * The end of an agent's turn as a call of the consumer's completion tool, for consumers that end a task only so.
 * Roo Code, Kilo Code legacy and Cline 3.x offer `attempt_completion {result}` and read a reply that calls none of
 * their tools as a mistake: they answer it with an automated retry and, after three, stop the task ("Roo is having
 * trouble…"). An ACP agent answers in text, having acted with its own tools, so its turn ends with this call: the
 * consumer shows "Task Completed" under the answer. What the person types then comes back as the call's result
 * (Roo: `<user_message>…</user_message>`; Kilo legacy: `…<feedback>…</feedback>`): their words, not a tool's result.
 */
import { randomUUID } from 'node:crypto';
import type { Message, Part, ToolCallPart, ToolDefinition } from '../protocol/messages.js';

export const COMPLETION_TOOL = 'attempt_completion';
/** The calls the bridge makes of it are known by their id when their result comes back. */
const CALL_ID_PREFIX = 'symposium-completion-';

/**
 * The call's `result`. The consumer shows it under "Task Completed", below the answer it streamed as text: the
 * answer streams as it is written (a tool call arrives whole), so `result` does not repeat it. It names the time
 * of the answer, to the second: Roo Code stops a task at the fourth call in a row of one tool with the same
 * parameters ("Roo is having trouble… stuck in a loop"), and never resets that count when the person replies.
 */
export const answeredAbove = (at: Date): string => `Answered above at ${clock(at)}. Reply to go on, or start a new task.`;
export const nothingToAdd = (at: Date): string => `The agent had nothing to add (${clock(at)}). Reply to go on, or start a new task.`;

const clock = (at: Date): string => [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');

/** Whether the request offers a completion tool of this family: `attempt_completion` taking a `result`. */
export function offersCompletionTool(tools: readonly ToolDefinition[]): boolean {
  return tools.some((tool) => tool.name === COMPLETION_TOOL && takesResult(tool.inputSchema));
}

function takesResult(schema: unknown): boolean {
  const properties = (schema as { properties?: unknown } | null | undefined)?.properties;
  return typeof properties === 'object' && properties !== null && 'result' in properties;
}

/** The call that ends a turn: `answered` when the turn streamed text (the answer is above it). */
export function completionCall(answered: boolean, at = new Date()): ToolCallPart {
  return { type: 'tool_call', toolCallId: `${CALL_ID_PREFIX}${randomUUID()}`, toolName: COMPLETION_TOOL, parameters: { result: answered ? answeredAbove(at) : nothingToAdd(at) } };
}

/**
 * The messages with each result of a completion call made here replaced by its text, as the person's message: what
 * they typed after the task completed (and what they mentioned), which continues the conversation with its agent.
 * The context policy then reads it as any message of theirs.
 */
export function completionRepliesAsSaid(messages: readonly Message[]): readonly Message[] {
  if (!messages.some((m) => m.content.some(isCompletionReply))) return messages;
  return messages.map((message) => (message.content.some(isCompletionReply) ? { role: message.role, content: message.content.flatMap(asWords) } : message));
}

function isCompletionReply(part: Part): boolean {
  return part.type === 'tool_result' && part.toolCallId.startsWith(CALL_ID_PREFIX);
}

function asWords(part: Part): Part[] {
  if (!isCompletionReply(part) || part.type !== 'tool_result') return [part];
  return part.result.filter((content) => content.type !== 'text' || content.value.trim() !== '');
}
