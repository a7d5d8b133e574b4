import type * as acp from '@agentclientprotocol/sdk';
import type { AgentConfigOption, AgentInfo, AgentModelChoice, SignInMethod } from '../../../protocol/messages.js';
import { askingChoice } from './asking-mode.js';

/**
 * What the bridge knows about one agent, learned as it goes: image support from `initialize`, its models
 * from the config options of its sessions, its context window from `usage_update`. Each change is
 * reported once, so that VS Code's model list follows. The `current` of its models and options is what a request
 * that chooses nothing gets (VS Code sends each option's default with every request, and keys its model ids on the
 * default model): what its sessions began with when first learned, which one session's own changes (its mode left
 * for Plan, a model picked in one chat) do not move; the mode's, the one that asks (asking-mode.ts), as the bridge
 * sets it.
 */
export class AgentInfoState {
  private info: AgentInfo = { imageInput: false };
  private methods: SignInMethod[] = [];
  /** Its ACP session modes, where no config option mirrors them: a per-model option of their own. */
  private sessionModes: AgentConfigOption | undefined;

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
    const models = this.defaultModel(modelsOf(options));
    this.change({ ...(models === undefined ? {} : { models }), options: this.defaultOptions(options) });
  }

  /** The models of a session: its model config option, else the older `models` field of its response; its older `modes` likewise. */
  learnSession(response: SessionResponse): void {
    const models = this.defaultModel(sessionModelsOf(response));
    this.sessionModes = sessionModesOf(response);
    const options = this.defaultOptions(response.configOptions ?? []);
    this.change({ ...(models === undefined ? {} : { models }), ...(options.length === 0 && this.info.options === undefined ? {} : { options }) });
  }

  private defaultModel(models: AgentInfo['models'] | undefined): AgentInfo['models'] | undefined {
    return models === undefined ? undefined : { ...models, current: keptDefault(this.info.models, models) };
  }

  /** The options besides the model, the older modes among them, each with its default (the mode's, the one that asks). */
  private defaultOptions(configOptions: readonly acp.SessionConfigOption[]): AgentConfigOption[] {
    const modeId = configOptions.find((o) => o.category === 'mode' && o.type === 'select')?.id ?? this.sessionModes?.configId;
    const known = new Map((this.info.options ?? []).map((o) => [o.configId, o] as const));
    return [...otherOptionsOf(configOptions), ...(this.sessionModes === undefined ? [] : [this.sessionModes])].map((option) => {
      const current = (option.configId === modeId ? askingChoice(option.choices)?.value : undefined) ?? keptDefault(known.get(option.configId), option);
      return current === option.current ? option : { ...option, current };
    });
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

/** The default learned before, while `next` still offers it; else the value `next` reports. */
function keptDefault(known: { readonly current: string } | undefined, next: { readonly current: string; readonly choices: readonly AgentModelChoice[] }): string {
  return known !== undefined && next.choices.some((c) => c.value === known.current) ? known.current : next.current;
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

/**
 * The config id under which ACP session modes (`modes` in the response of `session/new`, chosen with
 * `session/set_mode`) are offered where no config option of category `mode` mirrors them.
 */
export const SET_MODE_CONFIG_ID = 'session/set_mode';

/** What `session/new`, `session/load` and `session/resume` answer, as far as models and modes go. */
export interface SessionResponse {
  readonly configOptions?: readonly acp.SessionConfigOption[] | null;
  /** The older model state (`SessionModelState`), which many agents still report instead of a config option. */
  readonly models?: unknown;
  /** The session's modes (`SessionModeState`), which agents mirror as a config option of category `mode`, or not. */
  readonly modes?: unknown;
}

/** How many choices of an option, and how long their names, the bridge keeps: an agent's flood costs no more. */
const MAX_CHOICES = 500;
const MAX_NAME_CHARS = 100;

/** The session's ACP modes as a select option (SET_MODE_CONFIG_ID), unless a config option of category `mode` mirrors them. */
export function sessionModesOf(response: SessionResponse): AgentConfigOption | undefined {
  if (response.configOptions?.some((o) => o.category === 'mode') === true) return undefined;
  const state = response.modes;
  if (typeof state !== 'object' || state === null) return undefined;
  const { currentModeId, availableModes } = state as { currentModeId?: unknown; availableModes?: unknown };
  if (typeof currentModeId !== 'string' || !Array.isArray(availableModes)) return undefined;
  const choices = boundedChoices(
    availableModes.flatMap((m: unknown) => {
      if (typeof m !== 'object' || m === null) return [];
      const { id, name, description } = m as { id?: unknown; name?: unknown; description?: unknown };
      if (typeof id !== 'string') return [];
      return [{ value: id, name: typeof name === 'string' && name !== '' ? name : id, ...(typeof description === 'string' && description !== '' ? { description } : {}) }];
    }),
  );
  return choices.length === 0 ? undefined : { configId: SET_MODE_CONFIG_ID, name: 'Mode', current: currentModeId, choices };
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

/**
 * The options other than the model (mode, thought level, …), for the picker's per-model options: select options,
 * and boolean ones as a choice of On (`true`) and Off (`false`), which the picker lists like any other.
 */
export function otherOptionsOf(options: readonly acp.SessionConfigOption[]): AgentConfigOption[] {
  return options.filter((o) => o.category !== 'model').flatMap((o) => selectOption(o) ?? booleanOption(o) ?? []);
}

/** The current value of every select and boolean option (`true`, `false`), by config id: what the session is set to. */
export function currentValuesOf(options: readonly acp.SessionConfigOption[] | null | undefined): Map<string, string> {
  return new Map((options ?? []).flatMap((o) => (o.type === 'select' ? [[o.id, o.currentValue] as const] : o.type === 'boolean' ? [[o.id, String(o.currentValue === true)] as const] : [])));
}

const ON_OFF: AgentModelChoice[] = [
  { value: 'true', name: 'On' },
  { value: 'false', name: 'Off' },
];

function booleanOption(option: acp.SessionConfigOption): AgentConfigOption | undefined {
  if (option.type !== 'boolean') return undefined;
  return { configId: option.id, name: clip(option.name), current: String(option.currentValue === true), choices: ON_OFF };
}

function selectOption(option: acp.SessionConfigOption): AgentConfigOption | undefined {
  if (option.type !== 'select') return undefined;
  const choices = option.options.flatMap((entry) => ('group' in entry ? entry.options : [entry]));
  return {
    configId: option.id,
    name: clip(option.name),
    current: option.currentValue,
    choices: boundedChoices(choices.map((c) => ({ value: c.value, name: c.name, ...(c.description == null ? {} : { description: c.description }) }))),
  };
}

/** At most MAX_CHOICES choices, each value once, names and descriptions clipped. */
function boundedChoices(choices: readonly AgentModelChoice[]): AgentModelChoice[] {
  const seen = new Set<string>();
  const kept: AgentModelChoice[] = [];
  for (const c of choices) {
    if (kept.length === MAX_CHOICES) break;
    if (seen.has(c.value)) continue;
    seen.add(c.value);
    kept.push({ value: c.value, name: clip(c.name), ...(c.description === undefined ? {} : { description: clip(c.description) }) });
  }
  return kept;
}

function clip(text: string): string {
  return text.length > MAX_NAME_CHARS ? `${text.slice(0, MAX_NAME_CHARS - 1)}…` : text;
}
