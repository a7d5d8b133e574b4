import type * as acp from '@agentclientprotocol/sdk';
import type { AgentInfo, SignInMethod } from '../../protocol/messages.js';

/**
 * What the bridge knows about one agent, learned as it goes: image support from `initialize`, its models
 * from the config options of its sessions, its context window from `usage_update`. Each change is
 * reported once, so that VS Code's model list follows.
 */
export class AgentInfoState {
  private info: AgentInfo = { imageInput: false };
  private methods: SignInMethod[] = [];

  constructor(private readonly report: (info: AgentInfo) => void) {}

  get current(): AgentInfo {
    return this.info;
  }

  learnInitialize(init: acp.InitializeResponse): void {
    this.change({ imageInput: init.agentCapabilities?.promptCapabilities?.image === true });
    this.methods = (init.authMethods ?? []).map(signInMethodOf);
  }

  /** Whether the agent's last `session/new` (or `authenticate`) said it needs a sign-in. */
  learnSignIn(needed: boolean): void {
    // Agents that never needed one report nothing.
    if (!needed && this.info.signIn?.needed !== true) return;
    this.change({ signIn: { needed, methods: this.methods } });
  }

  learnConfigOptions(options: readonly acp.SessionConfigOption[] | null | undefined): void {
    const models = modelsOf(options);
    if (models !== undefined) this.change({ models });
  }

  learnUsage(usage: { readonly size: number }): void {
    if (Number.isFinite(usage.size) && usage.size > 0) this.change({ contextWindow: usage.size });
  }

  private change(change: Partial<AgentInfo>): void {
    const next = { ...this.info, ...change };
    if (JSON.stringify(next) === JSON.stringify(this.info)) return;
    this.info = next;
    this.report(next);
  }
}

/** An ACP auth method as the extension sees it; a terminal method keeps what the client must add to the agent's command. */
export function signInMethodOf(method: acp.AuthMethod): SignInMethod {
  const base = { id: method.id, name: method.name, ...(method.description == null ? {} : { description: method.description }) };
  if (!('type' in method) || method.type !== 'terminal') return base;
  return { ...base, terminal: { args: method.args ?? [], env: method.env ?? {} } };
}

/** The model-category select option, its choices flattened out of their groups. */
export function modelsOf(options: readonly acp.SessionConfigOption[] | null | undefined): AgentInfo['models'] | undefined {
  const option = options?.find((o) => o.category === 'model' && o.type === 'select');
  if (option === undefined || option.type !== 'select') return undefined;
  const choices = option.options.flatMap((entry) => ('group' in entry ? entry.options : [entry]));
  return {
    configId: option.id,
    current: option.currentValue,
    choices: choices.map((c) => ({ value: c.value, name: c.name, ...(c.description == null ? {} : { description: c.description }) })),
  };
}
