import * as acp from '@agentclientprotocol/sdk';

/** The ACP error code for "authenticate first" (`RequestError.authRequired`). */
export const AUTH_REQUIRED = -32000;

/**
 * Whether an agent's failure says it needs a sign-in, wherever it says it: ACP's `auth_required` code (from
 * `session/new`, `session/prompt` or `session/load`), the `authMethods` Qwen Code puts in an error's `data`, or
 * an error whose words are plainly an authentication failure (a model API's 401 passed on as an internal error).
 */
export function isAuthFailure(error: unknown): boolean {
  if (!(error instanceof acp.RequestError)) return false;
  if (error.code === AUTH_REQUIRED) return true;
  const data: unknown = error.data;
  if (typeof data === 'object' && data !== null && Array.isArray((data as { authMethods?: unknown }).authMethods)) return true;
  return saysAuthFailed(error.message) || (typeof data === 'string' && saysAuthFailed(data)) || (typeof data === 'object' && data !== null && saysAuthFailed(JSON.stringify(data)));
}

/** Longer than this, a text is an answer, not an agent's report that it could not sign in. */
const REPORT_LIMIT = 300;

/**
 * Whether a whole answer is plainly an authentication failure rather than an answer: short, and beginning with
 * one (Claude Code's "Invalid API key · Please run /login", a model API's "401 Unauthorized"). An answer that
 * merely mentions an API key does not begin so.
 */
export function isAuthFailureText(text: string): boolean {
  const trimmed = text.trim();
  return trimmed !== '' && trimmed.length <= REPORT_LIMIT && AUTH_FAILURE_START.test(trimmed);
}

/** Some text, anywhere in an error, that names an authentication failure. */
function saysAuthFailed(text: string): boolean {
  return AUTH_FAILURE_WORDS.test(text);
}

const FAILURE = String.raw`(401\b|unauthori[sz]ed|invalid (x-)?api[ _-]?key|incorrect api[ _-]?key|api[ _-]?key (is )?(not valid|invalid|missing|not set|required)|(missing|no) api[ _-]?key|(didn't|did not) provide an api[ _-]?key|authentication (is )?(required|failed)|not (logged|signed) in|please (run \/login|log ?in|sign ?in))`;
const AUTH_FAILURE_WORDS = new RegExp(String.raw`(^|[^\w])${FAILURE}`, 'i');
/** At the start of a text, after punctuation and an "Error:"-like prefix. */
const AUTH_FAILURE_START = new RegExp(String.raw`^[^\w]*((api )?error:?\s*)?${FAILURE}`, 'i');

/**
 * A prompt's answer, heard while it could still be only an authentication failure: short text, no tool call
 * nor plan. Agents that report a failed sign-in as their answer rather than as an error end the turn so.
 */
export class AuthFailureAnswer {
  private text = '';
  private more = false;

  hear(update: acp.SessionUpdate): void {
    if (this.more) return;
    if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') {
      this.text += update.content.text;
      this.more = this.text.length > REPORT_LIMIT;
    } else if (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'plan') this.more = true;
  }

  /** The whole answer was an authentication failure. */
  get isAuthFailure(): boolean {
    return !this.more && isAuthFailureText(this.text);
  }
}
