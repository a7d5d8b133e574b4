import * as vscode from 'vscode';
import { escapedCommand } from '../../protocol/agent-command.js';
import type { AgentCommandLists } from './agent-command-lists.js';

interface CommandItem extends vscode.QuickPickItem {
  readonly command: string;
}

/**
 * *Symposium: Agent Commands…*: the agents' slash commands with what they do, the current agent's first; the
 * one picked goes into the Chat view's input as `//name ` (agent-command.ts: it reaches the agent as its
 * `/name`, whatever Copilot's own commands are named), for the person to add its input and send.
 */
export async function pickAgentCommand(lists: AgentCommandLists): Promise<void> {
  const ordered = lists.ordered();
  if (ordered.length === 0) {
    void vscode.window.showInformationMessage('No agent has listed its slash commands yet. An agent lists them once a session of it opens: pick its model in the Chat view, or send it a message.');
    return;
  }
  const items: (CommandItem | vscode.QuickPickItem)[] = ordered.flatMap(({ agent, commands }) => [
    { label: agent, kind: vscode.QuickPickItemKind.Separator },
    ...commands.map((c): CommandItem => ({ label: `/${c.name}`, description: c.hint, detail: c.description === '' ? undefined : c.description, command: c.name })),
  ]);
  const picked = await vscode.window.showQuickPick(items, { title: 'Agent Commands', placeHolder: 'A slash command of the agent, put into the chat input', matchOnDetail: true });
  if (picked === undefined || !('command' in picked)) return;
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: `${escapedCommand(picked.command)} `, isPartialQuery: true });
}
