/** What the bridge learned about agents (their models, …), kept across reloads so the picker has it at once. */
import type * as vscode from 'vscode';
import type { AgentDefinition, AgentInfo } from '../protocol/messages.js';
import { agentKey } from './agents/models.js';

const LEARNED_KEY = 'symposium.learnedAgents';

export class LearnedAgents {
  readonly byAgent: Map<string, AgentInfo>;

  constructor(private readonly state: vscode.Memento) {
    this.byAgent = new Map(Object.entries(state.get<Record<string, AgentInfo>>(LEARNED_KEY, {})));
  }

  /** Keeps what the bridge says of an agent; false when it knew that already. */
  learn(agent: AgentDefinition, info: AgentInfo): boolean {
    const key = agentKey(agent);
    if (JSON.stringify(this.byAgent.get(key)) === JSON.stringify(info)) return false;
    this.byAgent.set(key, info);
    void this.state.update(LEARNED_KEY, Object.fromEntries(this.byAgent));
    return true;
  }

  /** An agent that answered needs no sign-in, whatever the bridge last said of an earlier process of it; false when none was asked. */
  signedIn(agent: AgentDefinition): boolean {
    const key = agentKey(agent);
    const info = this.byAgent.get(key);
    if (info?.signIn?.needed !== true) return false;
    this.byAgent.set(key, { ...info, signIn: { ...info.signIn, needed: false } });
    void this.state.update(LEARNED_KEY, Object.fromEntries(this.byAgent));
    return true;
  }
}
