/**
 * The first run's walkthrough (`contributes.walkthroughs` in package.json): the commands its buttons run, and the
 * context key that ticks off its last step once an agent's answer went through. The commands work whether or not
 * the language models are on: turning them on is the walkthrough's first step.
 */
// The ESM build: the UMD one (its main) requires its parts by computed paths, which a bundle cannot follow.
import { modify } from 'jsonc-parser/lib/esm/main.js';
import * as vscode from 'vscode';
import { ENABLE_SETTING, SECTION } from './settings.js';

/** Set once an answer of one of our models went through in this window (`onContext:` of the last step). */
const ANSWERED_CONTEXT = 'symposium.answered';
/** Copilot Chat offers other extensions' models without a GitHub sign-in only with this setting. */
const ANONYMOUS_CHAT_SETTING = 'chat.allowAnonymousAccess';

export function registerFirstRunCommands(): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('symposium.enableModels', () => vscode.workspace.getConfiguration(SECTION).update(ENABLE_SETTING, true, vscode.ConfigurationTarget.Global)),
    vscode.commands.registerCommand('symposium.allowChatWithoutSignIn', () => setInUserSettingsJson(ANONYMOUS_CHAT_SETTING, true)),
  ];
}

/**
 * Sets a setting in the user's settings.json, in its editor, where the person sees the line. For a setting VS Code
 * registers out of the extensions' reach (`chat.allowAnonymousAccess` is `included: false`: the configuration API
 * refuses to write it), this is how an extension can set it. The editor's text is edited and saved by the
 * workbench's own commands: VS Code 1.139 shows settings.json in a modal editor whose document the extension host
 * cannot save, and code-server does not notice the file written behind its back.
 */
async function setInUserSettingsJson(key: string, value: unknown): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.openSettingsJson');
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined || !editor.document.uri.path.endsWith('/settings.json')) {
    throw new Error(`Symposium could not open your settings.json: add "${key}": ${JSON.stringify(value)} to it yourself.`);
  }
  const { document } = editor;
  const formattingOptions = {
    insertSpaces: editor.options.insertSpaces !== false,
    tabSize: typeof editor.options.tabSize === 'number' ? editor.options.tabSize : 4,
    eol: document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n',
  };
  const changes = modify(document.getText(), [key], value, { formattingOptions });
  const edited = await editor.edit((builder) => {
    for (const change of changes) builder.replace(new vscode.Range(document.positionAt(change.offset), document.positionAt(change.offset + change.length)), change.content);
  });
  if (!edited) throw new Error(`Symposium could not edit your settings.json: add "${key}": ${JSON.stringify(value)} to it yourself.`);
  await vscode.commands.executeCommand('workbench.action.files.save');
}

/** Returns what to call when an answer went through: it sets the context key, once. */
export function answeredOnce(): () => void {
  let told = false;
  return () => {
    if (told) return;
    told = true;
    void vscode.commands.executeCommand('setContext', ANSWERED_CONTEXT, true);
  };
}
