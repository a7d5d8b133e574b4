import type { ToolResultPart } from '../protocol/messages.js';

/*
 * Whether a consumer's answer to a tool call is that of a call the person stopped, or the tool's real result. A
 * stopped call's result comes only with the person's next words (the consumer's tool loop does not go on by
 * itself); a real result comes alone, or with words the person sent while the tool ran: VS Code's steer (its default
 * for a message sent while a request runs: Copilot's loop ends after the round, its next request holds the round's
 * results, then the words) and Cline's. What tells the two apart is what the result says, as each consumer words a
 * stop (recorded in the real hosts, test/fixtures/copilot/command-*.json and cline/command-cancelled-then-message.json).
 */

/**
 * Copilot Chat's result for a tool call whose invocation was cancelled (Stop while it ran): its tool loop turns any
 * cancellation into this sentence, never into what the tool gave.
 */
const COPILOT_CANCELLED = 'The user cancelled the tool call.';
/** Cline's result for its command stopped by *Cancel* (Cline 4.1.13, sent with the person's next words). */
const CLINE_ABORTED = 'Command failed: Command execution aborted';
/** A line of its own that says no more than that the call was stopped: another consumer's (or a later release's) wording. */
const STOP_LINE = /^[^\n]{0,60}\b(cancell?ed|stopped|aborted|interrupted)\b[^\n]{0,30}$/i;

/** Whether VS Code's result is Copilot's sentence for a stopped call, rather than what the tool gave. */
export function isCancelledCall(part: ToolResultPart): boolean {
  return onlyText(part)?.trim() === COPILOT_CANCELLED;
}

/**
 * Whether a result that comes with the person's words is that of a call they stopped: none, nothing in it, a
 * consumer's wording of a stop. Anything else is what the tool gave, which the agent gets as the call's result.
 */
export function isStoppedCall(part: ToolResultPart | undefined): boolean {
  if (part === undefined || part.result.every((item) => item.type === 'text' && item.value.trim() === '')) return true;
  const text = onlyText(part)?.trim();
  return text !== undefined && (text === COPILOT_CANCELLED || text === CLINE_ABORTED || STOP_LINE.test(text));
}

/**
 * Whether the consumer's answer to a tool call lets the agent's turn go on. Alone (its tool loop went on by itself),
 * every result but Copilot's sentence for a stopped call does; with the person's new words (`withWords`: a steer,
 * or their next message after a stop), every result but a stopped call's does (isStoppedCall).
 */
export function callGoesOn(result: ToolResultPart | undefined, withWords: boolean): boolean {
  return withWords ? !isStoppedCall(result) : result === undefined || !isCancelledCall(result);
}

function onlyText(part: ToolResultPart): string | undefined {
  const [only] = part.result;
  return part.result.length === 1 && only!.type === 'text' ? only!.value : undefined;
}
