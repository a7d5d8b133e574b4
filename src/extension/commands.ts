/** The extension's commands, registered whether or not the language models are on. */
import * as vscode from 'vscode';
import type { ExtensionLog } from '../log/extension-log.js';
import { registerFirstRunCommands } from './first-run.js';
import { runManageAgents } from './agents/manage-agents.js';
import { runContinueAgentSession } from './agents/continue-session.js';
import { prefetchAgent } from './agents/prefetch.js';
import { runSetAgentApiKey } from './keys/api-key-command.js';
import type { LanguageModels } from './language-models.js';
import { modelsEnabled, sharedAgentHost } from './settings.js';
import { pickAgentCommand } from './slash-commands/pick-agent-command.js';
import { continueChatInTerminal } from './terminal/continue-chat-in-terminal.js';

export function registerCommands(models: LanguageModels, channel: vscode.OutputChannel, log: ExtensionLog): vscode.Disposable[] {
  const { agents } = models;
  return [
    vscode.commands.registerCommand('symposium.manageAgents', () =>
      runManageAgents(
        vscode,
        agents.catalog(),
        () => runSetAgentApiKey(vscode, agents.secrets, agents.catalog(), agents.secretPersistence, sharedAgentHost()),
        (entry, command) => prefetchAgent(vscode, log, entry, command),
        agents.archiveDir,
      ),
    ),
    vscode.commands.registerCommand('symposium.setAgentApiKey', async (agentId?: unknown) => {
      await runSetAgentApiKey(vscode, agents.secrets, agents.catalog(), agents.secretPersistence, sharedAgentHost(), typeof agentId === 'string' ? agentId : undefined);
      models.secretsChanged();
      models.refresh();
    }),
    vscode.commands.registerCommand('symposium.continueAgentSession', () => {
      // The chat it opens needs the agent's model.
      if (!modelsEnabled()) return void vscode.window.showInformationMessage('Turn on the language models first (Symposium: Turn On the Language Models): a continued session goes on in a chat with its agent\'s model.');
      const { agents: installed, bridge } = models.sessionAgents();
      return runContinueAgentSession(vscode, installed, bridge);
    }),
    vscode.commands.registerCommand('symposium.showLog', () => channel.show()),
    vscode.commands.registerCommand('symposium.agentCommands', () => pickAgentCommand(models.commands)),
    vscode.commands.registerCommand('symposium.restartBridge', async () => {
      if (await models.restartBridge()) vscode.window.setStatusBarMessage('Symposium: bridge restarted', 3000);
    }),
    vscode.commands.registerCommand('symposium.continueChatInTerminal', () => continueChatInTerminal(models.chatsOfAgents(), log)),
    ...registerFirstRunCommands(),
  ];
}
