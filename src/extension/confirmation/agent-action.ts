/**
 * The `symposium-agent-action` tool's texts. The bridge turns an ACP agent's permission request into a
 * call of this tool with `{kind, title, raw_input, action_id}`; VS Code asks the person to confirm it,
 * and only then does the tool return the approval of that `action_id` (src/protocol/agent-action.ts).
 * Pure: the adapter wraps it in a tool.
 */
import { actionIdOf, approvalText, askingToAllow, type AgentActionInput } from '../../protocol/agent-action.js';

export { AGENT_ACTION_TOOL, type AgentActionInput } from '../../protocol/agent-action.js';

export const CONFIRMATION_TITLE = 'Allow agent action?';

/** The question shown to the person: "Allow the agent to run `touch x`?", or which subagent asks. */
export function confirmationMessage(input: AgentActionInput | undefined): string {
  return askingToAllow(input);
}

/**
 * What the tool returns once the person confirmed: the approval of this action. A call without the
 * bridge's action id (a model calling the tool by itself) approves nothing.
 */
export function invocationResult(input: AgentActionInput | undefined): string {
  const actionId = actionIdOf(input);
  return actionId === undefined ? 'Nothing to allow: this tool answers only the requests of Symposium agents.' : approvalText(actionId);
}
