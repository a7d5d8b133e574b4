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

  /** The models of a session: its model config option, else the older `models` field of its response. */
  learnSession(response: SessionResponse): void {
    const models = sessionModelsOf(response);
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

/**
 * The config id under which models reported the older way (`models` in the response of `session/new`,
 * chosen with `session/set_model`) are offered: no agent's config option can carry it.
 */
export const SET_MODEL_CONFIG_ID = 'session/set_model';

/** What `session/new`, `session/load` and `session/resume` answer, as far as models go. */
export interface SessionResponse {
  readonly configOptions?: readonly acp.SessionConfigOption[] | null;
  /** The older model state (`SessionModelState`), which many agents still report instead of a config option. */
  readonly models?: unknown;
}

/** A session's models: its model-category config option, else its older `models` state. */
export function sessionModelsOf(response: SessionResponse): AgentInfo['models'] | undefined {
  return modelsOf(response.configOptions) ?? legacyModelsOf(response.models);
}

/** `{currentModelId, availableModels: [{modelId, name, description?}]}`, as models chosen with `session/set_model`. */
function legacyModelsOf(state: unknown): AgentInfo['models'] | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const { currentModelId, availableModels } = state as { currentModelId?: unknown; availableModels?: unknown };
  if (typeof currentModelId !== 'string' || !Array.isArray(availableModels)) return undefined;
  const choices = availableModels.flatMap((m: unknown) => {
    if (typeof m !== 'object' || m === null) return [];
    const { modelId, name, description } = m as { modelId?: unknown; name?: unknown; description?: unknown };
    if (typeof modelId !== 'string') return [];
    return [{ value: modelId, name: typeof name === 'string' && name !== '' ? name : modelId, ...(typeof description === 'string' && description !== '' ? { description } : {}) }];
  });
  if (choices.length === 0) return undefined;
  return { configId: SET_MODEL_CONFIG_ID, current: currentModelId, choices };
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
