import type { PermissionOption, RequestPermissionOutcome } from '@agentclientprotocol/sdk';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isApprovalOf } from '../../../protocol/agent-action.js';
import { declinedResult, toCallToolResult, unansweredResult } from '../../../tools/tool-results.js';
import { callGoesOn } from '../../../tools/stopped-calls.js';
import { allowing, rejecting } from './permission-choice.js';
import type { AnswerRule } from './vscode-answers.js';
import type { ToolResultPart } from '../../../protocol/messages.js';

/**
 * How a permission request VS Code was shown is answered: allowed only by the person's approval of that very
 * action (`refused` is told otherwise); with new words of theirs, nothing else lets the turn go on.
 */
export function permissionRule(actionId: string, options: readonly PermissionOption[], refused: () => void): AnswerRule<RequestPermissionOutcome> {
  return {
    goesAhead: (result, withWords) => !withWords || isApprovalOf(actionId, result),
    answered: (result) => {
      if (isApprovalOf(actionId, result)) return allowing(options);
      refused();
      return rejecting(options);
    },
    cancelled: () => ({ outcome: 'cancelled' }),
  };
}

/**
 * How the agent's call of a bridged VS Code tool is answered: with VS Code's result; as declined when the person
 * stopped it or the turn was cancelled; and, after `unansweredMs` without an answer (none or 0: no limit), as
 * given up (`gaveUp` told why), so that an agent whose consumer never answers is not left waiting for ever.
 */
export function bridgedCallRule(name: string, unansweredMs: number | undefined, gaveUp: (why: string) => void): AnswerRule<CallToolResult> {
  const rule: AnswerRule<CallToolResult> = {
    goesAhead: callGoesOn,
    answered: (result) => (result !== undefined ? toCallToolResult(result) : declinedResult(name)),
    cancelled: () => declinedResult(name),
  };
  if (unansweredMs === undefined || unansweredMs === 0) return rule;
  const answer = (): CallToolResult => {
    gaveUp(`VS Code did not answer the agent's ${name} call within ${unansweredMs} ms; the agent is told it was given up`);
    return unansweredResult(name, unansweredMs);
  };
  return { ...rule, unanswered: { afterMs: unansweredMs, answer } };
}

/** How the bridge's own call of a consumer's tool (its edit or question tool, for the agent's write or question) is answered: with VS Code's result, or none. */
export const consumerCallRule: AnswerRule<ToolResultPart | undefined> = { goesAhead: callGoesOn, answered: (result) => result, cancelled: () => undefined };
