/**
 * The `symposium-agent-action` tool in VS Code: its confirmation is how the person answers an ACP
 * agent's permission request. VS Code calls `invoke` only after the person allowed the call, and only
 * then does the result carry the approval the bridge requires; skipping, stopping or a disabled tool
 * leave the bridge without it, so the action is refused.
 */
import * as vscode from 'vscode';
import { AGENT_ACTION_TOOL, CONFIRMATION_TITLE, confirmationMessage, invocationResult, type AgentActionInput } from './agent-action.js';

export function registerAgentActionTool(): vscode.Disposable {
  return vscode.lm.registerTool<AgentActionInput>(AGENT_ACTION_TOOL, {
    prepareInvocation(options) {
      const title = typeof options.input?.title === 'string' && options.input.title !== '' ? options.input.title : 'agent action';
      return {
        invocationMessage: `Agent action: ${title}`,
        confirmationMessages: { title: CONFIRMATION_TITLE, message: confirmationMessage(options.input) },
      };
    },
    invoke(options) {
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(invocationResult(options.input))]);
    },
  });
}
