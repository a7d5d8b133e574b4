import type * as acp from '@agentclientprotocol/sdk';
import type { AgentInfo } from '../../protocol/messages.js';

/**
 * What the bridge knows about one agent, learned as it goes: image support from `initialize`, its models
 * from the config options of its sessions, its context window from `usage_update`. Each change is
 * reported once, so that VS Code's model list follows.
 */
export class AgentInfoState {
  private info: AgentInfo = { imageInput: false };

  constructor(private readonly report: (info: AgentInfo) => void) {}

  get current(): AgentInfo {
    return this.info;
  }

  learnInitialize(init: acp.InitializeResponse): void {
    this.change({ imageInput: init.agentCapabilities?.promptCapabilities?.image === true });
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
