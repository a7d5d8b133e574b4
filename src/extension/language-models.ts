/**
 * The `symposium` language models: the provider and the agent action tool, registered while
 * `symposium.enableExperimentalLM` is on, and the bridge process that answers them.
 */
import * as vscode from 'vscode';
import type { ExtensionLog } from '../log/extension-log.js';
import { AgentSettings } from './agent-settings.js';
import { answeredOnce } from './first-run.js';
import { agentModelId, modelsOf, VENDOR } from './agents/models.js';
import type { SessionAgent } from './agents/continue-session.js';
import type { ChatsOfAgents } from './terminal/continue-chat-in-terminal.js';
import { registerAgentActionTool } from './confirmation/agent-action-tool.js';
import { vscodeSignInUi } from './keys/sign-in.js';
import { SharedSecrets } from './keys/shared-secrets.js';
import type { AgentDefinition } from '../protocol/messages.js';
import { LearnedAgents } from './learned-agents.js';
import { BridgeProcess } from './provider/bridge-process.js';
import { buildOf } from '../host/build.js';
import { SymposiumChatProvider } from './provider/provider.js';
import { openUrlOnConsent } from './questions/open-url.js';
import { askWithQuickPicks } from './questions/quick-pick-questions.js';
import { AgentCommandLists } from './slash-commands/agent-command-lists.js';
import { registerCommandPrompts } from './slash-commands/command-prompts.js';
import { bridgeLaunch, config, consumerTools, ENABLE_SETTING, modelsEnabled, noteBridgeStartSettings, SECTION, workspaceDir } from './settings.js';

/** The bundled bridge, next to the bundled extension. */
const BRIDGE_PATH = 'dist/extension/bridge.mjs';
/** Conversations older than this are not resumed ahead: nobody is likely to go on with them at once. */
const RESUME_RECENT_WITHIN_HOURS = 72;

export class LanguageModels {
  readonly agents: AgentSettings;
  /** The agents' slash commands, and which agent is in use. */
  readonly commands = new AgentCommandLists();
  private readonly bridge: BridgeProcess;
  private readonly learned: LearnedAgents;
  private provider: SymposiumChatProvider | undefined;
  private registration: vscode.Disposable | undefined;
  private readonly onAnswered = answeredOnce();
  private readonly sharedSecrets = new SharedSecrets();

  constructor(
    context: vscode.ExtensionContext,
    private readonly log: ExtensionLog,
  ) {
    this.learned = new LearnedAgents(context.globalState);
    this.agents = new AgentSettings(context, log, () => {
      this.secretsChanged();
      this.refresh();
    });
    const bridgePath = context.asAbsolutePath(BRIDGE_PATH);
    let build: string | undefined;
    this.bridge = new BridgeProcess({
      bridgePath,
      launch: () => bridgeLaunch(context.globalStorageUri.fsPath, () => (build ??= buildOf(bridgePath))),
      log,
      askQuestions: (params, token) => askWithQuickPicks(params, token),
      openUrl: (params, token) => openUrlOnConsent(params, token),
      documentText: (path) => vscode.workspace.textDocuments.find((document) => document.uri.scheme === 'file' && document.uri.fsPath === path)?.getText(),
      onAgentInfo: ({ agent, info }) => {
        if (!this.learned.learn(agent, info)) return;
        log.info(`learned about agent ${'mcp_server' in agent ? agent.mcp_server.name : 'eliza'}: ${JSON.stringify(info)}`);
        this.refresh();
      },
      onAgentCommands: (params) => this.commands.learn(params),
      secrets: () => this.sharedSecrets.all(),
    });
  }

  /** The person's API keys, told to the bridge, which holds them for the requests of every window it serves. */
  secretsChanged(): void {
    const agents = new Map<string, { id: string; agent: AgentDefinition; names: string[] }>();
    for (const { agent, setting } of modelsOf(this.agents.modelSettings(this.learned.byAgent))) {
      if (setting === undefined || !('mcp_server' in agent) || agents.has(setting.id)) continue;
      agents.set(setting.id, { id: setting.id, agent, names: this.agents.secrets.namesOf(setting.id) });
    }
    for (const params of this.sharedSecrets.update([...agents.values()])) this.bridge.holdSecrets(params);
  }

  /** The model list may have changed. */
  refresh(): void {
    this.provider?.refresh();
  }

  /** Registers the models when the setting is on, unregisters them and stops the bridge when it is off. */
  applyEnablement(): void {
    const enabled = modelsEnabled();
    if (enabled && this.registration === undefined) {
      this.agents.agents(true);
      this.provider = new SymposiumChatProvider({
        bridge: this.bridge,
        settings: () => this.agents.modelSettings(this.learned.byAgent),
        consumerTools,
        log: this.log,
        signIn: vscodeSignInUi(vscode, workspaceDir(), (agentId) => this.setApiKeyFor(agentId)),
        signedIn: (agent) => {
          if (this.learned.signedIn(agent)) this.refresh();
        },
        onAnswered: this.onAnswered,
        onAgentUsed: (agent) => this.commands.used(agent),
      });
      this.registration = vscode.Disposable.from(
        vscode.lm.registerLanguageModelChatProvider(VENDOR, this.provider),
        registerAgentActionTool(),
        registerCommandPrompts(this.commands, this.bridge, this.log),
        this.provider,
      );
      this.log.info(`language models registered (${SECTION}.${ENABLE_SETTING} is on)`);
    } else if (!enabled) {
      if (this.registration !== undefined) this.log.info(`language models unregistered (${SECTION}.${ENABLE_SETTING} is off)`);
      else this.log.info(`${SECTION}.${ENABLE_SETTING} is off: no language models are registered`);
      this.unregister();
      void this.bridge.stop();
    }
  }

  /** The window started: the chats VS Code restored resume their sessions ahead (`symposium.resumeRecentChats`). */
  resumeRecent(): void {
    this.provider?.resumeRecent(config().get<number>('resumeRecentChats', 3), RESUME_RECENT_WITHIN_HOURS);
  }

  /** The installed agents (ready to run) whose sessions can be continued, each with its model's id, and the bridge's requests for them. */
  sessionAgents(): { readonly agents: SessionAgent[]; readonly bridge: ReturnType<BridgeProcess['agentSessions']> } {
    const ready = modelsOf(this.agents.modelSettings(this.learned.byAgent)).flatMap(({ agent, state, setting }) =>
      'mcp_server' in agent && state.kind !== 'not-installed' && setting !== undefined ? [{ agent, name: setting.name, modelId: agentModelId(setting) }] : [],
    );
    // An agent of several models (one per choice) is one agent: its default model's id.
    const agents = [...new Map(ready.map((entry) => [entry.modelId, entry])).values()];
    return { agents, bridge: this.bridge.agentSessions() };
  }

  /** The models' agents and the bridge's chats, for *Continue Chat in Terminal*; undefined while the models are off. */
  chatsOfAgents(): ChatsOfAgents | undefined {
    if (this.registration === undefined) return undefined;
    return { models: modelsOf(this.agents.modelSettings(this.learned.byAgent)), chatSessions: (params) => this.bridge.chatSessions(params) };
  }

  /** The sign-in's *Set API Key*: the command for that agent; whether it stored a key. */
  private async setApiKeyFor(agentId: string): Promise<boolean> {
    const before = JSON.stringify(this.agents.secrets.envOf(agentId));
    await vscode.commands.executeCommand('symposium.setAgentApiKey', agentId);
    return JSON.stringify(this.agents.secrets.envOf(agentId)) !== before;
  }

  /** Restarts the bridge when the models are registered; false when they are not (and no bridge runs). */
  async restartBridge(): Promise<boolean> {
    if (this.registration === undefined) {
      await this.bridge.stop();
      this.log.info(`restart: ${SECTION}.${ENABLE_SETTING} is off, so no bridge runs`);
      return false;
    }
    await this.bridge.restart();
    return true;
  }

  onConfigurationChanged(event: vscode.ConfigurationChangeEvent): void {
    if (event.affectsConfiguration(`${SECTION}.${ENABLE_SETTING}`)) this.applyEnablement();
    if (event.affectsConfiguration(`${SECTION}.agents`) || event.affectsConfiguration(`${SECTION}.registry`)) {
      this.agents.agents(true);
      this.refresh();
    } else if (event.affectsConfiguration(`${SECTION}.eliza`)) this.refresh();
    if (this.bridge.pid !== undefined) noteBridgeStartSettings(event, this.log);
  }

  async dispose(): Promise<void> {
    this.unregister();
    await this.bridge.dispose();
  }

  private unregister(): void {
    this.registration?.dispose();
    this.registration = this.provider = undefined;
  }
}
