/**
 * The VS Code extension: a thin adapter (see README, "Architecture"). It registers the `symposium`
 * language-model provider and the `symposium-agent-action` tool when `symposium.enableExperimentalLM`
 * is on, and runs the bridge, which holds all the logic. Bundled to CommonJS by scripts/build-extension.mjs.
 */
import os from 'node:os';
import * as vscode from 'vscode';
import { isLogLevel, type LogLevel } from './log/logger.js';
import { registerAgentActionTool } from './extension/confirmation/agent-action-tool.js';
import { openUrlOnConsent } from './extension/questions/open-url.js';
import { askWithQuickPicks } from './extension/questions/quick-pick-questions.js';
import { BridgeProcess } from './extension/provider/bridge-process.js';
import { createExtensionLog, type ExtensionLog } from './log/extension-log.js';
import { BUILTIN_AGENTS, expandHome, hostResolveContext, type ResolveContext } from './extension/agents/agent-catalog.js';
import type { CatalogEntry } from './extension/agents/registry.js';
import { archiveDirUnder } from './extension/agents/archive-progress.js';
import { platformTarget } from './extension/agents/registry.js';
import { UserRegistry } from './extension/agents/user-registry.js';
import { readFileSync, statSync } from 'node:fs';
import { runManageAgents } from './extension/agents/manage-agents.js';
import { AgentSecrets, secretLookingNames, withSecrets } from './extension/keys/agent-secrets.js';
import { runSetAgentApiKey } from './extension/keys/api-key-command.js';
import { agentKey, agentsOfSettings, VENDOR, type ModelSettings } from './extension/agents/models.js';
import type { AgentDefinition, AgentInfo } from './protocol/messages.js';
import { isConsumerToolsChoice, type ConsumerToolsChoice } from './extension/provider/offered-tools.js';
import { isContextPolicy, type ContextPolicy } from './history/context-policy.js';
import { SymposiumChatProvider } from './extension/provider/provider.js';
import { vscodeSignInUi } from './extension/keys/sign-in.js';
import { prefetchAgent } from './extension/agents/prefetch.js';

const SECTION = 'symposium';
/** The bundled bridge, next to the bundled extension. */
const BRIDGE_PATH = 'dist/extension/bridge.mjs';
const LEARNED_KEY = 'symposium.learnedAgents';
const START_NOTICE_MS = 3000;
/** After start-up, when the window is idle, the chats VS Code restored resume their sessions ahead. */
const RESUME_RECENT_DELAY_MS = 2000;
/** Conversations older than this are not resumed ahead: nobody is likely to go on with them at once. */
const RESUME_RECENT_WITHIN_HOURS = 72;

let shutdown: (() => Promise<void>) | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const channel = vscode.window.createOutputChannel('Symposium', { log: true });
  const config = () => vscode.workspace.getConfiguration(SECTION);
  const logLevel = (): LogLevel => {
    const level = config().get<string>('logLevel', 'info');
    return isLogLevel(level) ? level : 'info';
  };
  const contextPolicy = (): ContextPolicy => {
    const policy = config().get<string>('contextPolicy', 'user');
    return isContextPolicy(policy) ? policy : 'user';
  };
  const consumerTools = (): ConsumerToolsChoice => {
    const choice = config().get<string>('consumerTools', 'all');
    return isConsumerToolsChoice(choice) ? choice : 'all';
  };
  const log = createExtensionLog(channel, logLevel);
  // What the bridge learned about agents (their models, …), kept across reloads so the picker has it at once.
  const learned = new Map<string, AgentInfo>(Object.entries(context.globalState.get<Record<string, AgentInfo>>(LEARNED_KEY, {})));
  let provider: SymposiumChatProvider | undefined;
  const bridge = new BridgeProcess({
    bridgePath: context.asAbsolutePath(BRIDGE_PATH),
    launch: () => ({
      cwd: workspaceDir(),
      logLevel: logLevel(),
      stateDir: context.globalStorageUri.fsPath,
      contextPolicy: contextPolicy(),
      clientFiles: config().get<boolean>('reviewAgentEdits', true),
      agentQuestions: config().get<boolean>('askAgentQuestionsInChat', true),
      // An agent that takes this long to start (npx downloading it) says so in the response.
      ...(config().get<boolean>('startNotice', true) ? { startNoticeMs: START_NOTICE_MS } : {}),
    }),
    log,
    askQuestions: (params, token) => askWithQuickPicks(params, token),
    openUrl: (params, token) => openUrlOnConsent(params, token),
    documentText: (path) => vscode.workspace.textDocuments.find((document) => document.uri.scheme === 'file' && document.uri.fsPath === path)?.getText(),
    onAgentInfo: ({ agent, info }) => {
      const key = agentKey(agent);
      if (JSON.stringify(learned.get(key)) === JSON.stringify(info)) return;
      learned.set(key, info);
      void context.globalState.update(LEARNED_KEY, Object.fromEntries(learned));
      log.info(`learned about agent ${'mcp_server' in agent ? agent.mcp_server.name : 'eliza'}: ${JSON.stringify(info)}`);
      provider?.refresh();
    },
  });
  // API keys live in the secret storage; they join the agents' env in the requests to the bridge.
  const secrets = new AgentSecrets(context.secrets);
  const loadSecrets = () =>
    secrets.load().then(
      () => provider?.refresh(),
      (error: unknown) => log.error(`could not read the agents' API keys from the secret storage: ${String(error)}`),
    );
  void loadSecrets();
  // Agents the registry distributes as downloads live in the extension's global storage.
  const archiveDir = archiveDirUnder(context.globalStorageUri.fsPath);
  // The built-in catalogue, and the agents of a newer registry (a file or a URL) the user points at.
  const registry = new UserRegistry({
    builtin: BUILTIN_AGENTS,
    target: platformTarget(process.platform, process.arch),
    log,
    readFile: (file) => readFileSync(file, 'utf8'),
    mtime: (file) => {
      try {
        return statSync(file).mtimeMs;
      } catch {
        return undefined;
      }
    },
    expandHome: (file) => expandHome(file, os.homedir()),
    onChange: () => provider?.refresh(),
  });
  const catalog = () => registry.catalog(config().get<string>('registry', ''));
  const settings = (): ModelSettings => ({
    agents: withSecrets(readAgents(config(), log, false, catalog(), archiveDir), (id) => secrets.envOf(id)),
    elizaDeterministic: config().get<boolean>('eliza.deterministic', false),
    learned,
  });

  // The sign-in's *Set API Key*: the command for that agent; whether it stored a key.
  const setApiKeyFor = async (agentId: string): Promise<boolean> => {
    const before = JSON.stringify(secrets.envOf(agentId));
    await vscode.commands.executeCommand('symposium.setAgentApiKey', agentId);
    return JSON.stringify(secrets.envOf(agentId)) !== before;
  };
  // An agent that answered needs no sign-in, whatever the bridge last said of an earlier process of it.
  const signedIn = (agent: AgentDefinition): void => {
    const key = agentKey(agent);
    const info = learned.get(key);
    if (info?.signIn?.needed !== true) return;
    learned.set(key, { ...info, signIn: { ...info.signIn, needed: false } });
    void context.globalState.update(LEARNED_KEY, Object.fromEntries(learned));
    provider?.refresh();
  };

  let registration: vscode.Disposable | undefined;
  const applyEnablement = () => {
    const enabled = config().get<boolean>('enableExperimentalLM', false);
    if (enabled && registration === undefined) {
      readAgents(config(), log, true, catalog(), archiveDir);
      provider = new SymposiumChatProvider({ bridge, settings, consumerTools, log, signIn: vscodeSignInUi(vscode, workspaceDir(), setApiKeyFor), signedIn });
      registration = vscode.Disposable.from(vscode.lm.registerLanguageModelChatProvider(VENDOR, provider), registerAgentActionTool(), provider);
      log.info('language models registered (symposium.enableExperimentalLM is on)');
    } else if (!enabled) {
      if (registration !== undefined) log.info('language models unregistered (symposium.enableExperimentalLM is off)');
      else log.info('symposium.enableExperimentalLM is off: no language models are registered');
      registration?.dispose();
      registration = provider = undefined;
      void bridge.stop();
    }
  };

  shutdown = async () => {
    registration?.dispose();
    registration = provider = undefined;
    await bridge.dispose();
  };

  context.subscriptions.push(
    channel,
    { dispose: () => void shutdown?.() },
    vscode.commands.registerCommand('symposium.manageAgents', () =>
      runManageAgents(
        vscode,
        catalog(),
        () => runSetAgentApiKey(vscode, secrets, catalog()),
        (entry, command) => prefetchAgent(vscode, log, entry, command),
        archiveDir,
      ),
    ),
    vscode.commands.registerCommand('symposium.setAgentApiKey', async (agentId?: unknown) => {
      await runSetAgentApiKey(vscode, secrets, catalog(), typeof agentId === 'string' ? agentId : undefined);
      provider?.refresh();
    }),
    // Another window changed a key.
    context.secrets.onDidChange((event) => event.key.startsWith('symposium.agentEnv/') && void loadSecrets()),
    vscode.commands.registerCommand('symposium.showLog', () => channel.show()),
    vscode.commands.registerCommand('symposium.restartBridge', async () => {
      if (registration === undefined) {
        await bridge.stop();
        log.info('restart: symposium.enableExperimentalLM is off, so no bridge runs');
        return;
      }
      await bridge.restart();
      vscode.window.setStatusBarMessage('Symposium: bridge restarted', 3000);
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SECTION}.enableExperimentalLM`)) applyEnablement();
      if (event.affectsConfiguration(`${SECTION}.agents`) || event.affectsConfiguration(`${SECTION}.registry`)) {
        readAgents(config(), log, true, catalog(), archiveDir);
        provider?.refresh();
      } else if (event.affectsConfiguration(`${SECTION}.eliza`)) provider?.refresh();
      if (event.affectsConfiguration(`${SECTION}.logLevel`) && bridge.pid !== undefined) {
        log.info(`log level ${logLevel()}: the bridge uses it from its next start (command "Symposium: Restart Bridge")`);
      }
      if (event.affectsConfiguration(`${SECTION}.contextPolicy`) && bridge.pid !== undefined) {
        log.info(`context policy ${contextPolicy()}: the bridge uses it from its next start (command "Symposium: Restart Bridge")`);
      }
      for (const setting of ['reviewAgentEdits', 'askAgentQuestionsInChat']) {
        if (event.affectsConfiguration(`${SECTION}.${setting}`) && bridge.pid !== undefined) {
          log.info(`${setting} changed: the bridge uses it from its next start (command "Symposium: Restart Bridge")`);
        }
      }
    }),
  );
  applyEnablement();
  const resumeRecent = setTimeout(() => provider?.resumeRecent(config().get<number>('resumeRecentChats', 3), RESUME_RECENT_WITHIN_HOURS), RESUME_RECENT_DELAY_MS);
  context.subscriptions.push({ dispose: () => clearTimeout(resumeRecent) });
}

export async function deactivate(): Promise<void> {
  await shutdown?.();
  shutdown = undefined;
}

/** The agents of the settings that can run here; with `report`, why the others cannot goes to the log. */
function readAgents(config: vscode.WorkspaceConfiguration, log: ExtensionLog, report: boolean, catalog: readonly CatalogEntry[], archiveDir: ResolveContext['archiveDir']): ModelSettings['agents'] {
  const { agents, problems } = agentsOfSettings(config.get('agents'), hostResolveContext(archiveDir), catalog);
  if (report) {
    for (const problem of problems) log.warn(problem);
    for (const agent of agents) {
      const names = secretLookingNames(agent.env);
      if (names.length > 0) {
        log.warn(`symposium.agents: ${agent.name} has ${names.join(', ')} in settings.json, which is synced and often committed; "Symposium: Set Agent API Key" keeps it in VS Code's secret storage instead`);
      }
    }
  }
  return agents;
}

/** Where ACP sessions run: the first workspace folder on disk, else the home directory. */
function workspaceDir(): string {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  return folder?.uri.fsPath ?? os.homedir();
}
