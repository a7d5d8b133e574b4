/**
 * A web page an agent asks the person to open (ACP URL elicitation: a sign-in page, say), through
 * `symposium/openUrl`: a modal dialog names the agent and shows its message and the address; only "Open"
 * opens it, in the person's browser. VS Code's own link protection may ask again for a domain it does not
 * trust. A request withdrawn while the dialog is up (the turn was stopped) opens nothing.
 */
import * as vscode from 'vscode';
import type { OpenUrlParams, OpenUrlResult } from '../../protocol/messages.js';
import { webPageOrigin } from '../../protocol/web-page.js';

const OPEN = 'Open';

export async function openUrlOnConsent({ agent, message, url }: OpenUrlParams, token: vscode.CancellationToken): Promise<OpenUrlResult> {
  if (webPageOrigin(url) === undefined) return { opened: false };
  const choice = await vscode.window.showInformationMessage(`${agent} asks you to open a web page`, { modal: true, detail: `${message}\n\n${url}` }, OPEN);
  if (choice !== OPEN || token.isCancellationRequested) return { opened: false };
  // As a string, VS Code opens the address exactly as given; a Uri is re-encoded on the way, which would
  // change a sign-in address whose query carries an encoded address of its own (redirect_uri=http%3A%2F%2F…).
  // openExternal takes one at runtime (ExtHostWindow.openUri) though its declared type says Uri.
  const opened = await vscode.env.openExternal(url as unknown as vscode.Uri);
  return { opened };
}
