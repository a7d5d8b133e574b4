import type * as acp from '@agentclientprotocol/sdk';
import type { AgentConfigOption, AgentInfo, SignInMethod } from '../../../protocol/messages.js';

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

  /** The sign-in methods the agent offered in `initialize`. */
  get signInMethods(): readonly SignInMethod[] {
    return this.methods;
  }

  learnInitialize(init: acp.InitializeResponse): void {
    this.change({ imageInput: init.agentCapabilities?.promptCapabilities?.image === true });
    this.methods = (init.authMethods ?? []).map(signInMethodOf);
  }

  /** Whether the agent needs a sign-in, as its last refusal (`session/new`, `session/load`, a prompt), answer or `authenticate` says. */
  learnSignIn(needed: boolean): void {
    // Agents that never needed one report nothing.
    if (!needed && this.info.signIn?.needed !== true) return;
    this.change({ signIn: { needed, methods: this.methods } });
  }

  learnConfigOptions(options: readonly acp.SessionConfigOption[] | null | undefined): void {
    if (options == null) return;
    const models = modelsOf(options);
    this.change({ ...(models === undefined ? {} : { models }), options: otherOptionsOf(options) });
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

/** An ACP auth method as the extension sees it; a terminal method keeps what the client must add to the agent's command. */
export function signInMethodOf(method: acp.AuthMethod): SignInMethod {
  const base = { id: method.id, name: method.name, ...(method.description == null ? {} : { description: method.description }) };
  if (!('type' in method) || method.type !== 'terminal') return base;
  return { ...base, terminal: { args: method.args ?? [], env: method.env ?? {} } };
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
  const select = option === undefined ? undefined : selectOption(option);
  return select === undefined ? undefined : { configId: select.configId, current: select.current, choices: select.choices };
}

/** The select options other than the model (mode, thought level, …), for the picker's per-model options. */
export function otherOptionsOf(options: readonly acp.SessionConfigOption[]): AgentConfigOption[] {
  return options.filter((o) => o.category !== 'model').flatMap((o) => selectOption(o) ?? []);
}

/** The current value of every select option, by config id: what the session is set to. */
export function currentValuesOf(options: readonly acp.SessionConfigOption[] | null | undefined): Map<string, string> {
  return new Map((options ?? []).flatMap((o) => (o.type === 'select' ? [[o.id, o.currentValue] as const] : [])));
}

function selectOption(option: acp.SessionConfigOption): AgentConfigOption | undefined {
  if (option.type !== 'select') return undefined;
  const choices = option.options.flatMap((entry) => ('group' in entry ? entry.options : [entry]));
  return {
    configId: option.id,
    name: option.name,
    current: option.currentValue,
    choices: choices.map((c) => ({ value: c.value, name: c.name, ...(c.description == null ? {} : { description: c.description }) })),
  };
}
