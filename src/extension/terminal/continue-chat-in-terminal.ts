/**
 * *Symposium: Continue Chat in Terminal*: the agent's own CLI, in VS Code's integrated terminal, on a fork of a chat's
 * agent session (the chat used last, or one picked), in the folder that session runs in, with the agent's environment.
 * The CLI runs as the terminal's process, no shell between: nothing is typed into it, so no variable is echoed.
 */
import * as vscode from 'vscode';
import type { ExtensionLog } from '../../log/extension-log.js';
import type { ChatSessionsParams, ChatSessionsResult } from '../../protocol/messages.js';
import { findOnPath } from '../agents/agent-catalog.js';
import type { ModelWithAgent } from '../agents/models.js';
import { CHATS_LISTED, agentsOfModels, chatRows, terminalCommandOf } from './chat-in-terminal.js';

/** What the command needs of the extension: the models (their agents), and the bridge's chats. */
export interface ChatsOfAgents {
  readonly models: readonly ModelWithAgent[];
  chatSessions(params: ChatSessionsParams): Promise<ChatSessionsResult>;
}

export async function continueChatInTerminal(source: ChatsOfAgents | undefined, log: ExtensionLog): Promise<void> {
  if (source === undefined) {
    void vscode.window.showInformationMessage('The Symposium language models are off (symposium.enableExperimentalLM), so there is no chat with an agent to continue.');
    return;
  }
  const { definitions, settings } = agentsOfModels(source.models);
  let chats: ChatSessionsResult['sessions'] = [];
  if (definitions.length > 0) {
    try {
      chats = (await source.chatSessions({ agents: definitions, limit: CHATS_LISTED })).sessions;
    } catch (error) {
      void vscode.window.showErrorMessage(`Symposium could not list the chats: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
  }
  const rows = chatRows(chats, settings, Date.now());
  log.debug(`continue in terminal: the bridge lists ${rows.length} chat(s): sessions ${rows.map((row) => row.chat.session).join(', ')}`);
  if (rows.length === 0) {
    void vscode.window.showInformationMessage('No chat with an agent was used in this workspace yet: chat with one in the Chat view, then continue it in its terminal.');
    return;
  }
  const row = rows.length === 1 ? rows[0] : await vscode.window.showQuickPick(rows, { title: 'Continue Chat in Terminal', placeHolder: "The chat to continue in its agent's own CLI (the one used last is first)" });
  if (row === undefined) return;
  const agent = settings[row.chat.agent]!;
  const command = terminalCommandOf(agent, row.chat, process.env, (executable, env) => findOnPath(executable, env));
  if (!command.ok) {
    log.info(`continue in terminal: ${agent.name}'s session ${row.chat.session} cannot be: ${command.reason}`);
    void vscode.window.showInformationMessage(command.reason);
    return;
  }
  log.info(`continue in terminal: ${agent.name}'s session ${row.chat.session}, forked by its CLI \`${[command.command, ...command.args].join(' ')}\` in ${row.chat.cwd}`);
  const terminal = vscode.window.createTerminal({ name: `${agent.name}: ${row.label}`, cwd: row.chat.cwd, env: { ...agent.env }, shellPath: command.location, shellArgs: [...command.args] });
  terminal.show();
}
