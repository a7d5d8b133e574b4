/**
 * The command *Symposium: Continue Agent Session…*: a quick pick of the sessions of every installed agent that lists
 * them (ACP `session/list`, through the bridge), newest first, filterable, each row deletable; picking one opens a new
 * chat in the Chat view with that agent's model picked, Agent mode, and the session's exchanges shown as the chat's
 * requests and responses (VS Code 1.139's `workbench.action.chat.open` `previousRequests`). The chat's next message
 * goes on in that session: the bridge recorded the shown history as bound to it.
 */
import type * as vscode from 'vscode';
import type { AgentSessionInfo, ContinueAgentSessionResult, ListAgentSessionsResult } from '../../protocol/agent-sessions.js';
import type { AgentDefinition } from '../../protocol/messages.js';
import { VENDOR } from './models.js';

/** An installed agent, and the id of its model. */
export interface SessionAgent {
  readonly agent: AgentDefinition;
  readonly name: string;
  readonly modelId: string;
}

/** The bridge's requests the command makes. */
export interface SessionRequests {
  listAgentSessions(params: { agent: AgentDefinition }): Promise<ListAgentSessionsResult>;
  deleteAgentSession(params: { agent: AgentDefinition; sessionId: string }): Promise<void>;
  continueAgentSession(params: { agent: AgentDefinition; sessionId: string }): Promise<ContinueAgentSessionResult>;
}

/** One row: a session of an agent. */
export interface SessionRow {
  readonly of: SessionAgent;
  readonly session: AgentSessionInfo;
  readonly deletes: boolean;
}

/** How many words of a session's first request stand for it when it has no title. */
const TITLE_WORDS = 10;

/** Every agent's sessions, newest first, and a line for each agent that could not list them. */
export async function sessionRows(agents: readonly SessionAgent[], bridge: SessionRequests): Promise<{ rows: SessionRow[]; problems: string[] }> {
  const listed = await Promise.all(agents.map(async (of) => ({ of, result: await bridge.listAgentSessions({ agent: of.agent }).catch((error: unknown) => error instanceof Error ? error : new Error(String(error))) })));
  const rows: SessionRow[] = [];
  const problems: string[] = [];
  for (const { of, result } of listed) {
    if (result instanceof Error) problems.push(`${of.name}: ${result.message}`);
    else if (result.listed) {
      rows.push(...result.sessions.map((session) => ({ of, session, deletes: result.deletes })));
      if (result.cut !== undefined) problems.push(result.cut);
    }
  }
  rows.sort((a, b) => (b.session.updatedAt ?? '').localeCompare(a.session.updatedAt ?? ''));
  return { rows, problems };
}

/** "2 hours ago", "just now", "3 days ago"; nothing for an unknown time. */
export function relativeTime(iso: string | undefined, now: number): string {
  const at = iso === undefined ? NaN : Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  const units: [number, string][] = [[86_400 * 365, 'year'], [86_400 * 30, 'month'], [86_400 * 7, 'week'], [86_400, 'day'], [3600, 'hour'], [60, 'minute']];
  for (const [size, unit] of units) {
    const count = Math.floor(seconds / size);
    if (count >= 1) return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}

function titleOf(session: AgentSessionInfo): string {
  const words = (session.title ?? '').split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return `Session ${session.sessionId}`;
  return words.length <= TITLE_WORDS ? words.join(' ') : `${words.slice(0, TITLE_WORDS).join(' ')}…`;
}

/** The part of VS Code the command uses. */
export type ContinueSessionVscode = Pick<typeof vscode, 'window' | 'commands' | 'ThemeIcon'>;

/** Runs the command. */
export async function runContinueAgentSession(vs: ContinueSessionVscode, agents: readonly SessionAgent[], bridge: SessionRequests): Promise<void> {
  if (agents.length === 0) {
    void vs.window.showInformationMessage('No installed agent keeps sessions to continue: add one with Symposium: Manage Agents.');
    return;
  }
  type Row = vscode.QuickPickItem & { readonly row?: SessionRow };
  const remove: vscode.QuickInputButton = { iconPath: new vs.ThemeIcon('trash'), tooltip: 'Delete this session' };
  const pick = vs.window.createQuickPick<Row>();
  pick.title = 'Symposium: Continue Agent Session';
  pick.placeholder = 'Type to filter the sessions of your agents in this workspace';
  pick.matchOnDescription = true;
  pick.busy = true;
  pick.show();
  const load = async (): Promise<void> => {
    pick.busy = true;
    const { rows, problems } = await sessionRows(agents, bridge);
    const now = Date.now();
    pick.items = [
      ...rows.map((row): Row => ({
        label: titleOf(row.session),
        description: `${row.of.name} · ${relativeTime(row.session.updatedAt, now)}`,
        ...(row.deletes ? { buttons: [remove] } : {}),
        row,
      })),
      ...problems.map((problem): Row => ({ label: `$(warning) ${problem}`, alwaysShow: true })),
      ...(rows.length === 0 && problems.length === 0 ? [{ label: 'No sessions of your agents in this workspace yet.', alwaysShow: true }] : []),
    ];
    pick.busy = false;
  };
  const chosen = new Promise<SessionRow | undefined>((resolve) => {
    pick.onDidAccept(() => {
      const row = pick.selectedItems[0]?.row;
      if (row === undefined) return;
      resolve(row);
      pick.hide();
    });
    pick.onDidHide(() => resolve(undefined));
    pick.onDidTriggerItemButton(async ({ item }) => {
      const row = item.row;
      if (row === undefined) return;
      pick.ignoreFocusOut = true;
      const answer = await vs.window.showWarningMessage(`Delete the session "${titleOf(row.session)}" of ${row.of.name}? The agent forgets it for good.`, { modal: true }, 'Delete');
      pick.ignoreFocusOut = false;
      if (answer !== 'Delete') return;
      try {
        await bridge.deleteAgentSession({ agent: row.of.agent, sessionId: row.session.sessionId });
      } catch (error) {
        void vs.window.showErrorMessage(error instanceof Error ? error.message : String(error));
      }
      await load();
    });
  });
  await load().catch((error: unknown) => {
    pick.busy = false;
    void vs.window.showErrorMessage(error instanceof Error ? error.message : String(error));
  });
  const row = await chosen;
  pick.dispose();
  if (row === undefined) return;
  let continued: ContinueAgentSessionResult;
  try {
    continued = await bridge.continueAgentSession({ agent: row.of.agent, sessionId: row.session.sessionId });
  } catch (error) {
    const choice = await vs.window.showErrorMessage(error instanceof Error ? error.message : String(error), 'New Chat');
    if (choice === 'New Chat') await vs.commands.executeCommand('workbench.action.chat.newChat');
    return;
  }
  await vs.commands.executeCommand('workbench.action.chat.newChat');
  await vs.commands.executeCommand('workbench.action.chat.open', {
    mode: 'agent',
    modelSelector: { vendor: VENDOR, id: row.of.modelId },
    previousRequests: continued.exchanges.map(({ request, response }) => ({ request, response })),
  });
  await vs.commands.executeCommand('workbench.action.chat.focusInput');
}
