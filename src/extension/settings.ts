/** The extension's settings (`symposium.*`) as the extension uses them, each read afresh. */
import os from 'node:os';
import * as vscode from 'vscode';
import { isLogLevel, type LogLevel } from '../log/logger.js';
import type { ExtensionLog } from '../log/extension-log.js';
import { contextPolicyNamed, type ContextPolicy } from '../history/context-policy.js';
import { isConsumerToolsChoice, type ConsumerToolsChoice } from './provider/offered-tools.js';
import type { BridgeLaunch } from './provider/bridge-process.js';

export const SECTION = 'symposium';
/** The setting that registers the language models (off by default, as the design says). */
export const ENABLE_SETTING = 'enableExperimentalLM';
/** An agent that takes this long to start (npx downloading it) says so in the response. */
const START_NOTICE_MS = 3000;
/** Settings the bridge takes as arguments: a change applies from its next start. */
const BRIDGE_START_SETTINGS = ['agentHost', 'agentHostIdleMinutes', 'logLevel', 'contextPolicy', 'reviewAgentEdits', 'askAgentQuestionsInChat', 'runAgentCommandsInTerminal', 'agentToolCallTimeoutMinutes', 'silenceNoticeSeconds'];

export const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration(SECTION);

export function modelsEnabled(): boolean {
  return config().get<boolean>(ENABLE_SETTING, false);
}

export function logLevel(): LogLevel {
  const level = config().get<string>('logLevel', 'info');
  return isLogLevel(level) ? level : 'info';
}

export function contextPolicy(): ContextPolicy {
  return contextPolicyNamed(config().get<string>('contextPolicy', 'user')) ?? 'user';
}

export function consumerTools(): ConsumerToolsChoice {
  const choice = config().get<string>('consumerTools', 'all');
  return isConsumerToolsChoice(choice) ? choice : 'all';
}

/** Where ACP sessions run: the first workspace folder on disk, else the home directory. */
export function workspaceDir(): string {
  return workspaceDirs()[0] ?? os.homedir();
}

/** The workspace's folders on disk, in the workspace's order. */
function workspaceDirs(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

/** `symposium.agentHost`: whether the bridge is the person's agent host (`shared`, the default) or the window's own (`window`). */
export function sharedAgentHost(): boolean {
  return config().get<string>('agentHost', 'shared') !== 'window';
}

/**
 * How the bridge starts next, from the settings; `stateDir` keeps its index of conversations; `build` names the
 * agent host this build joins (`symposium.agentHost`: `shared`, the default; `window`: a bridge of its own).
 */
export function bridgeLaunch(stateDir: string, build: () => string): BridgeLaunch {
  const [first, ...others] = workspaceDirs();
  return {
    cwd: first ?? os.homedir(),
    additionalDirs: others,
    logLevel: logLevel(),
    stateDir,
    contextPolicy: contextPolicy(),
    clientFiles: config().get<boolean>('reviewAgentEdits', true),
    agentQuestions: config().get<boolean>('askAgentQuestionsInChat', true),
    consumerTerminal: config().get<boolean>('runAgentCommandsInTerminal', true),
    ...(config().get<boolean>('startNotice', true) ? { startNoticeMs: START_NOTICE_MS } : {}),
    ...silenceNotice(config().get<number>('silenceNoticeSeconds', 30)),
    toolCallTimeoutMs: Math.max(0, config().get<number>('agentToolCallTimeoutMinutes', 30)) * 60_000,
    ...(sharedAgentHost() ? { host: { build: build(), idleMs: Math.max(0, config().get<number>('agentHostIdleMinutes', 10)) * 60_000 } } : {}),
  };
}

/** `symposium.silenceNoticeSeconds`: 0 (or less) turns the line off. */
function silenceNotice(seconds: number): { silenceNoticeMs?: number } {
  return Number.isFinite(seconds) && seconds > 0 ? { silenceNoticeMs: Math.round(seconds * 1000) } : {};
}

/** Says in the log when a setting changed that a running bridge takes only from its next start. */
export function noteBridgeStartSettings(event: vscode.ConfigurationChangeEvent, log: ExtensionLog): void {
  for (const setting of BRIDGE_START_SETTINGS) {
    if (event.affectsConfiguration(`${SECTION}.${setting}`)) {
      log.info(`${setting} changed (${JSON.stringify(config().get(setting))}): the bridge uses it from its next start (command "Symposium: Restart Bridge")`);
    }
  }
}
