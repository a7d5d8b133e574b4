/**
 * Signing an agent in when it said it needs one (`auth_required`, wherever it came from): the user picks *Set
 * API Key* or one of the agent's methods. The key is *Symposium: Set Agent API Key* for that agent (the next
 * request's definition carries it, so the bridge starts the agent afresh with it); a terminal method runs the
 * agent's own command (with the method's extra args and env) in a VS Code terminal, where the agent's sign-in
 * TUI runs (exit code 0: signed in); any other method is ACP `authenticate` through the bridge. The flow is a
 * plain function over a small UI interface, for the tests; `vscodeSignInUi` binds it to VS Code.
 */
import type * as vscode from 'vscode';
import type { AuthenticateParams, AgentDefinition, SignInMethod } from '../../protocol/messages.js';
import { findOnPath } from '../agents/agent-catalog.js';
import { withEnv } from '../../agents/agent-env.js';
import type { AgentSetting, SignInWords } from '../agents/models.js';

/** The choice of a key rather than one of the agent's methods. */
export const SET_API_KEY = 'Set API Key';

export interface SignInUi {
  /** Asks whether to sign in and how; undefined when the user declined. */
  choose(agentName: string, methods: readonly SignInMethod[]): Promise<SignInMethod | typeof SET_API_KEY | undefined>;
  /** Runs *Symposium: Set Agent API Key* for the agent; whether it stored a key. */
  setApiKey(agentId: string): Promise<boolean>;
  /** Runs a program in a terminal the user can type in; resolves with its exit code when it ends. */
  runInTerminal(title: string, command: string, args: readonly string[], env: Readonly<Record<string, string>>): Promise<number | undefined>;
  info(message: string): void;
  error(message: string): void;
}

/** What a sign-in needs of the agent: its command (for a terminal method) and its definition (for `authenticate`). */
export interface SignInTarget {
  readonly setting: AgentSetting;
  readonly definition: AgentDefinition;
}

/** Whether the agent is signed in now (the caller then retries its request). */
export async function signIn(ui: SignInUi, authenticate: (params: AuthenticateParams) => Promise<void>, target: SignInTarget, methods: readonly SignInMethod[]): Promise<boolean> {
  const { setting } = target;
  const method = await ui.choose(setting.name, methods);
  if (method === undefined) return false;
  if (method === SET_API_KEY) return ui.setApiKey(setting.id);
  if (method.terminal !== undefined) {
    const code = await ui.runInTerminal(`Sign in: ${setting.name}`, setting.command, [...setting.args, ...method.terminal.args], { ...setting.env, ...method.terminal.env });
    if (code === 0) return true;
    ui.error(`${setting.name}: the sign-in "${method.name}" ended ${code === undefined ? 'without an exit code' : `with exit code ${code}`}; the agent is not signed in.`);
    return false;
  }
  try {
    await authenticate({ agent: target.definition, methodId: method.id });
    return true;
  } catch (error) {
    ui.error(`${setting.name}: the sign-in "${method.name}" failed: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

/**
 * A request whose agent said it needs a sign-in ends at once with what to do (`notSignedInSentence`), and the
 * sign-in is offered beside it, not awaited: VS Code's warning with buttons is not sticky (1.139 hides a toast
 * after 12 s of a focused window, into the notification centre), so a request held on it was a spinner with
 * nothing to say why (issue 60). Signed in from the notification, the person is told to send the message again.
 */
export function signInNeeded(ui: SignInUi | undefined, authenticate: (params: AuthenticateParams) => Promise<void>, target: SignInTarget, methods: readonly SignInMethod[]): Error {
  const { setting } = target;
  if (ui !== undefined) {
    void signIn(ui, authenticate, target, methods).then((signedIn) => {
      if (signedIn) ui.info(`${setting.name} is signed in: send your message again.`);
    });
  }
  return new Error(notSignedInSentence(setting, methods));
}

/**
 * What the answer says when the agent is not signed in: that it is not, and every way to sign it in, in one
 * sentence; never a value.
 */
export function notSignedInSentence(agent: { readonly name: string; readonly signIn?: SignInWords }, methods: readonly SignInMethod[]): string {
  const keys = agent.signIn?.keyNames ?? [];
  const ways = [
    `Set ${keys.length === 0 ? 'its API key' : keys.join(' or ')} with "Symposium: Set Agent API Key"`,
    ...(methods.length === 0 ? [] : [`sign in with ${methods.map((m) => `"${m.name}"`).join(' or ')}`]),
    ...(agent.signIn?.ownSignIn === undefined ? [] : [agent.signIn.ownSignIn]),
  ];
  const listed = ways.length === 1 ? ways[0] : `${ways.slice(0, -1).join(', ')}, or ${ways.at(-1)}`;
  return `${agent.name} is not signed in. ${listed}. Then send your message again.`;
}

/**
 * The sign-in UI in VS Code: a warning with *Set API Key* and one button per method, the key command, and a
 * terminal running the agent itself. `setApiKey`: runs the key command for an agent, whether it stored a key.
 */
export function vscodeSignInUi(vs: typeof vscode, cwd: string, setApiKey: (agentId: string) => Promise<boolean>): SignInUi {
  return {
    async choose(agentName, methods) {
      const names = methods.map((m) => m.name);
      const picked = await vs.window.showWarningMessage(`${agentName} needs you to sign in.`, { modal: false }, SET_API_KEY, ...names);
      return picked === SET_API_KEY ? SET_API_KEY : methods.find((m) => m.name === picked);
    },
    setApiKey,
    runInTerminal(title, command, args, env) {
      // A terminal starts a program by its path: on Windows `npx` is `npx.cmd`, found as the agent's PATH finds it.
      const shellPath = findOnPath(command, withEnv(process.env, env)) ?? command;
      // Transient: the terminal, whose env may hold an API key, is not persisted across reloads.
      const terminal = vs.window.createTerminal({ name: title, shellPath, shellArgs: [...args], env: { ...env }, cwd, isTransient: true });
      terminal.show();
      return new Promise((resolve) => {
        const closed = vs.window.onDidCloseTerminal((t) => {
          if (t !== terminal) return;
          closed.dispose();
          resolve(t.exitStatus?.code);
        });
      });
    },
    info: (message) => void vs.window.showInformationMessage(message),
    error: (message) => void vs.window.showErrorMessage(message),
  };
}
