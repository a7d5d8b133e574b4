import * as vscode from 'vscode';
import type { ExtensionLog } from '../../log/extension-log.js';
import type { BridgeProcess } from '../provider/bridge-process.js';
import type { AgentCommandLists } from './agent-command-lists.js';

/** The provider id in package.json's `mcpServerDefinitionProviders`. */
export const COMMAND_PROMPTS_PROVIDER = 'symposium.agentCommands';
/** The server's label: the Chat view lists its prompts as `/mcp.agent.<command>`. */
export const COMMAND_PROMPTS_LABEL = 'agent';

/**
 * The current agent's slash commands in the Chat view's `/` menu, as `/mcp.agent.<command>`: an MCP server the
 * bridge serves (`symposium/commandPrompts`), whose prompts are those commands, defined for VS Code here. VS Code
 * starts it when it needs it (`resolveMcpServerDefinition`: the bridge starts then if it does not run); the list
 * follows the agent in use (the server tells VS Code, `prompts/list_changed`), and a new bridge's server (after a
 * restart) is a changed definition.
 */
export function registerCommandPrompts(lists: AgentCommandLists, bridge: BridgeProcess, log: ExtensionLog): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  let served: { readonly url: string; readonly authorization: string } | undefined;
  const serve = async (): Promise<{ readonly url: string; readonly authorization: string }> => {
    const now = await bridge.commandPrompts({ commands: [...lists.currentCommands] });
    if (served !== undefined && served.url !== now.url) changed.fire();
    served = now;
    return now;
  };
  const provider: vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    // Until the bridge serves it, an address that is replaced when VS Code starts the server.
    provideMcpServerDefinitions: () => [new vscode.McpHttpServerDefinition(COMMAND_PROMPTS_LABEL, vscode.Uri.parse(served?.url ?? 'http://127.0.0.1/mcp'))],
    resolveMcpServerDefinition: async (server) => {
      const { url, authorization } = await serve();
      server.uri = vscode.Uri.parse(url);
      server.headers = { Authorization: authorization };
      return server;
    },
  };
  const following = lists.onDidChangeCurrent(() => {
    if (bridge.pid === undefined) return;
    serve().catch((error: unknown) => log.debug(`the agent's commands could not be served as prompts: ${String(error)}`));
  });
  return vscode.Disposable.from(vscode.lm.registerMcpServerDefinitionProvider(COMMAND_PROMPTS_PROVIDER, provider), changed, following);
}
