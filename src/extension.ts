/**
 * The VS Code extension's entry: a thin adapter (see README, "Architecture") whose rooms are under
 * `src/extension/`. It registers the commands, and the `symposium` language models while
 * `symposium.enableExperimentalLM` is on; the bridge they start holds all the logic. Bundled to CommonJS by
 * scripts/build-extension.mjs.
 */
import * as vscode from 'vscode';
import { createExtensionLog } from './log/extension-log.js';
import { registerCommands } from './extension/commands.js';
import { LanguageModels } from './extension/language-models.js';
import { logLevel } from './extension/settings.js';

/** How long after activation (itself after start-up) the restored chats resume ahead: the window is idle by then. */
const RESUME_RECENT_DELAY_MS = 2000;

let shutdown: (() => Promise<void>) | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const channel = vscode.window.createOutputChannel('Symposium', { log: true });
  const log = createExtensionLog(channel, logLevel);
  const models = new LanguageModels(context, log);
  shutdown = () => models.dispose();
  context.subscriptions.push(
    channel,
    { dispose: () => void shutdown?.() },
    ...registerCommands(models, channel, log),
    // Another window changed a key.
    context.secrets.onDidChange((event) => event.key.startsWith('symposium.agentEnv/') && void models.agents.loadSecrets()),
    vscode.workspace.onDidChangeConfiguration((event) => models.onConfigurationChanged(event)),
  );
  void models.agents.loadSecrets(vscode.env.uiKind === vscode.UIKind.Web);
  models.applyEnablement();
  // After start-up, when the window is idle, the chats VS Code restored resume their sessions ahead.
  const resumeRecent = setTimeout(() => models.resumeRecent(), RESUME_RECENT_DELAY_MS);
  context.subscriptions.push({ dispose: () => clearTimeout(resumeRecent) });
}

export async function deactivate(): Promise<void> {
  await shutdown?.();
  shutdown = undefined;
}
