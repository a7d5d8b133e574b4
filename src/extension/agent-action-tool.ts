/**
 * The `symposium-agent-action` tool in VS Code: confirming it is how the user answers an ACP agent's
 * permission request. Approving returns the approval text (the bridge then allows the action);
 * rejecting cancels the chat turn, which the bridge reads as a rejection.
 */
import * as vscode from 'vscode';
import { AGENT_ACTION_TOOL, APPROVAL_TEXT, CONFIRMATION_TITLE, confirmationMessage, type AgentActionInput } from './agent-action.js';

export function registerAgentActionTool(): vscode.Disposable {
  return vscode.lm.registerTool<AgentActionInput>(AGENT_ACTION_TOOL, {
    prepareInvocation(options) {
      const title = typeof options.input?.title === 'string' && options.input.title !== '' ? options.input.title : 'agent action';
      return {
        invocationMessage: `Agent action: ${title}`,
        confirmationMessages: { title: CONFIRMATION_TITLE, message: confirmationMessage(options.input) },
      };
    },
    invoke() {
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(APPROVAL_TEXT)]);
    },
  });
}
