/**
 * The models the extension offers, from its settings: the built-in Eliza and one per configured ACP
 * agent that can run here (a full entry, or a built-in of `agent-catalog.ts` named by id). Pure (no
 * `vscode`): the adapter reads the settings and hands them in, with `which` and the environment.
 */
import { ELIZA_MODEL } from '../../agents/eliza/eliza-model.js';
import type { AgentConfigOption, AgentDefinition, AgentInfo, ModeSetting, ModelInformation, SessionConfig, ShellOff, SignInMethod } from '../../protocol/messages.js';
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../protocol/canonical-json.js';
import { withEnv } from '../../agents/agent-env.js';
import type { ArchiveDownload } from './archive-install.js';
import { BUILTIN_AGENTS, commandLine, expandHome, findBuiltin, resolveBuiltin, type BuiltinOverrides, type ResolveContext } from './agent-catalog.js';
import { cliOf, type CatalogEntry } from './registry.js';
import { cliRouteOf, type CliRoute } from './agent-cli.js';

export const VENDOR = 'symposium';
export const AGENT_MODEL_PREFIX = 'symposium-agent-';

/** An agent ready to become a model: what the bridge spawns. */
export interface AgentSetting {
  readonly id: string;
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** How the built-in's own shell is switched off for the conversations offered a command tool (a second process). */
  readonly shellOff?: ShellOff;
  /** How its own CLI opens a fork of one of its sessions, or why it cannot (*Continue Chat in Terminal*). */
  readonly cli?: CliRoute;
  /** Its subagents come as child sessions: the ACP subagents RFD's `clientCapabilities.subagents` is declared to it (Codex). */
  readonly subagentSessions?: boolean;
  /** Where its own settings name the mode its sessions begin in (Claude Code's `permissions.defaultMode`). */
  readonly modeSetting?: ModeSetting;
  /** The built-in agent this one is (when named by id), for the tooltip. */
  readonly description?: string;
  /** Where it reads a key and how it signs in by itself, from its catalogue entry: what a request refused for want of a sign-in says. */
  readonly signIn?: SignInWords;
  /** Why it cannot run here (a built-in whose program is missing): its model says so and fails at once. */
  readonly unavailable?: string;
  /** A registry download its command comes from, installed before its first request. */
  readonly download?: ArchiveDownload;
}

/** What an agent reads its key from and how it signs in by itself: words of its catalogue entry. */
export interface SignInWords {
  /** The environment variables it reads an API key from. */
  readonly keyNames: readonly string[];
  /** Its own sign-in, as a phrase that follows "or" ("run `claude` in a terminal, then `/login`"). */
  readonly ownSignIn?: string;
}

/** What the picker says of an agent's models: whether it can run, and what is missing. */
export type AgentState =
  | { readonly kind: 'ready' }
  | { readonly kind: 'not-installed'; readonly reason: string }
  | { readonly kind: 'sign-in'; readonly methods: readonly SignInMethod[] };

/**
 * One entry of the `symposium.agents` setting, as validated: a full entry with its own command (which
 * replaces a built-in of the same id), or a built-in named by id with optional overrides.
 */
export type ConfiguredAgent =
  | ({ readonly kind: 'command'; readonly index: number } & Omit<AgentSetting, 'description'>)
  | ({ readonly kind: 'builtin'; readonly index: number; readonly id: string; readonly entry: CatalogEntry } & BuiltinOverrides);

/** What VS Code gets for each model: the protocol's information plus the picker flag. */
export type ModelEntry = ModelInformation & {
  readonly isUserSelectable: true;
  readonly detail?: string;
  readonly tooltip?: string;
  /** Per-model options in the picker (VS Code 1.139 reads it from the model information; not yet in its typings). */
  readonly configurationSchema?: ConfigurationSchema;
};

/**
 * A JSON schema of the options VS Code shows for a model: each enum property is an option of the model in
 * *Chat: Manage Language Models* (the model's actions), sent with each request (`modelConfiguration`). No
 * `group`: VS Code 1.139 draws a property of the `navigation` (or `tokens`) group as a button beside the model
 * picker, and in a narrow Chat view it shows the model as its icon and that button, so the picker read the
 * agent's mode ("Manual") where the person looks for the agent's name.
 */
export interface ConfigurationSchema {
  readonly type: 'object';
  readonly properties: Record<string, { type: 'string'; title: string; enum: string[]; enumItemLabels: string[]; enumDescriptions: string[]; default: string }>;
}

/** A model and the agent behind it. */
export interface ModelWithAgent {
  readonly model: ModelEntry;
  readonly agent: AgentDefinition;
  /** Session config options its requests set (the agent's model choice behind a "Agent · Model" entry). */
  readonly config?: SessionConfig;
  /** The agent's state; Eliza is always ready. */
  readonly state: AgentState;
  /** The agent behind an ACP model, as configured (with its secrets in `env`). */
  readonly setting?: AgentSetting;
}

export interface ModelSettings {
  readonly agents: readonly AgentSetting[];
  readonly elizaDeterministic: boolean;
  /** What the bridge learned about agents, by `agentKey` of their definition. */
  readonly learned?: ReadonlyMap<string, AgentInfo>;
}

/**
 * Which learned information belongs to which agent: a digest of its definition without its environment
 * (API keys among it), kept in VS Code's global state. The environment is left out, not only hidden by
 * the digest: a key set or changed in the secret storage must not make the agent's models unknown again.
 */
export function agentKey(agent: AgentDefinition): string {
  // Nor how its shell is switched off: what was learned of the agent holds either way.
  const keyed = 'mcp_server' in agent ? { mcp_server: { name: agent.mcp_server.name, command: agent.mcp_server.command, args: agent.mcp_server.args, env: [] } } : agent;
  return createHash('sha256').update(canonicalJson(keyed)).digest('hex');
}

/** ACP agents manage their own context windows; these are what the consumer may send and expect. */
const AGENT_LIMITS = { maxInputTokens: 200_000, maxOutputTokens: 32_000 } as const;

/**
 * Validates the raw `symposium.agents` value. An entry with a `command` is a full entry; one without
 * names a built-in agent by its id. Invalid entries are skipped, and so are repeated ids (the first
 * wins); `problems` says why, for the log.
 */
export function parseAgentSettings(raw: unknown, catalog: readonly CatalogEntry[] = BUILTIN_AGENTS): { agents: ConfiguredAgent[]; problems: string[] } {
  const agents: ConfiguredAgent[] = [];
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { agents, problems };
  if (!Array.isArray(raw)) return { agents, problems: ['symposium.agents must be an array of agents'] };
  const seen = new Set<string>();
  raw.forEach((item: unknown, index) => {
    const where = `symposium.agents[${index}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return problems.push(`${where} is not an object: skipped`);
    const fields = item as Record<string, unknown>;
    const parsed = fields.command === undefined ? parseReference(fields, index, catalog) : parseFullEntry(fields, index);
    if (typeof parsed === 'string') return problems.push(`${where}: invalid ${parsed}: skipped`);
    if (seen.has(parsed.id)) return problems.push(`${where}: the id "${parsed.id}" is already used: skipped`);
    seen.add(parsed.id);
    agents.push(parsed);
    return undefined;
  });
  return { agents, problems };
}

const ID = /^[\w.-]+$/;
const badArgs = (args: unknown) => !Array.isArray(args) || !args.every((a) => typeof a === 'string');
const badEnv = (env: unknown) => typeof env !== 'object' || env === null || Array.isArray(env) || !Object.values(env).every((v) => typeof v === 'string');
const blank = (value: unknown) => typeof value !== 'string' || value.trim() === '';

/** `{id, name, command, args?, env?}`: the agent or what is wrong with it (the fields, for the message). */
function parseFullEntry(fields: Record<string, unknown>, index: number): ConfiguredAgent | string {
  const { id, name, command, args = [], env = {} } = fields;
  const { cli, problem } = cliOf(fields.cli, 'cli');
  const bad = [
    typeof id !== 'string' || !ID.test(id) ? 'id (letters, digits, "_", "-" and ".")' : undefined,
    blank(name) ? 'name' : undefined,
    blank(command) ? 'command' : undefined,
    badArgs(args) ? 'args (an array of strings)' : undefined,
    badEnv(env) ? 'env (an object of strings)' : undefined,
    problem,
  ].filter((b) => b !== undefined);
  if (bad.length > 0) return bad.join(', ');
  const launch = { command: command as string, args: args as string[] };
  return { kind: 'command', index, id: id as string, name: name as string, ...launch, env: env as Record<string, string>, ...(cli === undefined ? {} : { cli: cliRouteOf(cli, launch) }) };
}

/** `{id, name?, args?, env?, version?}` naming a built-in agent. */
function parseReference(fields: Record<string, unknown>, index: number, catalog: readonly CatalogEntry[]): ConfiguredAgent | string {
  const { id, name, args = [], env = {}, version } = fields;
  const entry = typeof id === 'string' ? findBuiltin(id, catalog) : undefined;
  if (entry === undefined) {
    if (typeof id !== 'string' || !ID.test(id)) return 'id (letters, digits, "_", "-" and ".")';
    // Neither a built-in nor a full entry: the command is what is missing.
    return `command (or an id of a built-in agent: ${catalog.map((e) => e.id).join(', ')})`;
  }
  const bad = [
    name !== undefined && blank(name) ? 'name' : undefined,
    badArgs(args) ? 'args (an array of strings)' : undefined,
    badEnv(env) ? 'env (an object of strings)' : undefined,
    version !== undefined && (blank(version) || entry.distribution.kind !== 'npx') ? `version (a version of ${entry.distribution.kind === 'npx' ? entry.distribution.package : 'an npm package: this agent is a program on PATH'})` : undefined,
  ].filter((b) => b !== undefined);
  if (bad.length > 0) return bad.join(', ');
  return {
    kind: 'builtin',
    index,
    id: entry.id,
    entry,
    ...(name === undefined ? {} : { name: name as string }),
    args: args as string[],
    env: env as Record<string, string>,
    ...(version === undefined ? {} : { version: version as string }),
  };
}

/** A configured agent and whether it can run here. */
export type AgentStatus =
  | { readonly configured: ConfiguredAgent; readonly ok: true; readonly agent: AgentSetting; /** where the command is, when found */ readonly location?: string }
  | { readonly configured: ConfiguredAgent; readonly ok: false; readonly agent: AgentSetting; readonly reason: string };

/**
 * Resolves a configured agent. A built-in is available when its command is found (see `resolveBuiltin`);
 * a full entry always is: its command is the user's own, and when it cannot start, the request that
 * uses it fails naming the command.
 */
export function resolveAgent(configured: ConfiguredAgent, ctx: ResolveContext): AgentStatus {
  if (configured.kind === 'command') {
    const { kind: _kind, index: _index, ...entry } = configured;
    const agent = { ...entry, command: expandHome(entry.command, ctx.home, ctx.platform) };
    const location = ctx.which(agent.command, withEnv(ctx.env, agent.env, ctx.platform));
    return location === undefined ? { configured, ok: true, agent } : { configured, ok: true, agent, location };
  }
  const { entry } = configured;
  const resolution = resolveBuiltin(entry, configured, ctx);
  const agent: AgentSetting = {
    id: entry.id,
    name: configured.name ?? entry.name,
    ...resolution.launch,
    description: entry.description,
    signIn: signInWordsOf(entry),
    ...(entry.cli === undefined ? {} : { cli: cliRouteOf(entry.cli, resolution.launch) }),
  };
  if (!resolution.ok) return { configured, ok: false, agent, reason: resolution.reason };
  return { configured, ok: true, agent: resolution.download === undefined ? agent : { ...agent, download: resolution.download }, location: resolution.location };
}

/** Where a catalogue entry's agent reads its key and how it signs in by itself. */
function signInWordsOf(entry: CatalogEntry): SignInWords {
  return { keyNames: entry.apiKeys ?? [], ...(entry.ownSignIn === undefined ? {} : { ownSignIn: entry.ownSignIn }) };
}

/**
 * The agents of the raw `symposium.agents` value that can run here, and why the others are left out.
 * What the adapter calls whenever it needs the models.
 */
export function agentsOfSettings(raw: unknown, ctx: ResolveContext, catalog: readonly CatalogEntry[] = BUILTIN_AGENTS): { agents: AgentSetting[]; problems: string[] } {
  const { agents: configured, problems } = parseAgentSettings(raw, catalog);
  const agents: AgentSetting[] = [];
  for (const resolved of configured.map((c) => resolveAgent(c, ctx))) {
    // A full entry with a built-in's id (which it replaces) signs in as that built-in does.
    const builtin = resolved.configured.kind === 'command' ? catalog.find((e) => e.id === resolved.configured.id) : undefined;
    const status = builtin === undefined ? resolved : { ...resolved, agent: { ...resolved.agent, signIn: signInWordsOf(builtin) } };
    if (status.ok) agents.push(status.agent);
    else {
      agents.push({ ...status.agent, unavailable: status.reason });
      problems.push(`symposium.agents[${status.configured.index}]: ${status.agent.name} ("${status.agent.id}") is not available: ${status.reason}; its model says "not installed"`);
    }
  }
  return { agents, problems };
}

export function agentModelId(agent: Pick<AgentSetting, 'id'>): string {
  return `${AGENT_MODEL_PREFIX}${agent.id}`;
}

/** Every model, Eliza first. */
export function modelsOf(settings: ModelSettings): ModelWithAgent[] {
  const eliza: ModelWithAgent = {
    model: { ...ELIZA_MODEL, isUserSelectable: true, detail: 'Symposium', tooltip: "Weizenbaum's ELIZA, built into the Symposium bridge (for testing)" },
    agent: { eliza: { deterministic: settings.elizaDeterministic } },
    state: { kind: 'ready' },
  };
  return [eliza, ...settings.agents.flatMap((agent) => agentModels(agent, settings.learned))];
}

/**
 * An agent's models: one, until the bridge has learned the agent's model choices; then one per choice
 * ("Claude Code · Sonnet"), whose requests select it, the agent's default under the agent's own id. What
 * was learned also gives image support and the context window.
 */
function agentModels(agent: AgentSetting, learned: ModelSettings['learned']): ModelWithAgent[] {
  const definition: AgentDefinition = {
    mcp_server: {
      name: agent.name,
      command: agent.command,
      args: [...agent.args],
      env: Object.entries(agent.env).map(([name, value]) => ({ name, value })),
      ...(agent.shellOff === undefined ? {} : { shellOff: agent.shellOff }),
      ...(agent.subagentSessions === true ? { subagentSessions: true } : {}),
      ...(agent.modeSetting === undefined ? {} : { modeSetting: agent.modeSetting }),
    },
  };
  const info = learned?.get(agentKey(definition));
  const state = stateOf(agent, info);
  const where = agent.description === undefined ? commandLine(agent) : `${agent.description}: ${commandLine(agent)}`;
  const base: ModelEntry = {
    id: agentModelId(agent),
    name: agent.name,
    family: familyOf(agent.id),
    version: '1.0.0',
    ...AGENT_LIMITS,
    ...(info?.contextWindow === undefined ? {} : { maxInputTokens: info.contextWindow }),
    ...(info?.options === undefined || info.options.length === 0 ? {} : { configurationSchema: configurationSchemaOf(info.options) }),
    capabilities: { toolCalling: true, imageInput: info?.imageInput ?? false },
    isUserSelectable: true,
    detail: STATE_WORDS[state.kind],
    tooltip: `${where}\n${stateSentence(state)}`,
  };
  const models = info?.models;
  if (models === undefined || models.choices.length === 0) return [{ model: base, agent: definition, state, setting: agent }];
  // The agent's default keeps the agent's own id and family: a consumer that stored the model it used before
  // the choices were learned (Cline keeps vendor, family, version and id) still finds it.
  const idOf = (value: string) => (value === models.current ? { id: base.id, family: base.family } : { id: `${base.id}/${value}`, family: familyOf(agent.id, value) });
  return models.choices.map((choice) => ({
    model: {
      ...base,
      ...idOf(choice.value),
      name: `${agent.name} · ${choice.name}`,
      detail: choice.value === models.current ? `${STATE_WORDS[state.kind]} · the agent's default` : STATE_WORDS[state.kind],
      tooltip: choice.description === undefined || choice.description === '' ? base.tooltip : `${choice.description}\n${base.tooltip}`,
    },
    agent: definition,
    config: { [models.configId]: choice.value },
    state,
    setting: agent,
  }));
}

/**
 * A model's family: `acp-<agent id>`, and `-<choice>` for a model of the agent's choice, so that consumers
 * that tell models apart by family (Cline lists "vendor - family"; Roo Code keeps only vendor and family)
 * show which agent each is. Never one Copilot keys on: its prompts go by a family's start (`claude`, `gpt`,
 * `gemini`, `grok`, `o1`…, none of which starts `acp-`), but some of its tool handling looks for a few words
 * anywhere in it, which are written without their vowels (`gemini` → `gmn`). Only letters, digits, `.`,
 * `_` and `-`: Roo Code splits its selection at `/`.
 */
export function familyOf(agentId: string, choice?: string): string {
  const family = `acp-${agentId}${choice === undefined ? '' : `-${choice}`}`.replace(/[^\w.-]/g, '-');
  return family.replace(COPILOT_FAMILY_WORDS, (word) => word.replace(/[aeiou]/gi, ''));
}

/** Words Copilot Chat looks for anywhere in a family (0.67: `includes`, case-insensitive for some). */
const COPILOT_FAMILY_WORDS = /gemini|minimax|grok|claude-3\.5-sonnet/gi;

/** The agent's select options as per-model options, set per request. */
export function configurationSchemaOf(options: readonly AgentConfigOption[]): ConfigurationSchema {
  const properties: ConfigurationSchema['properties'] = {};
  for (const option of options) {
    properties[option.configId] = {
      type: 'string',
      title: option.name,
      enum: option.choices.map((c) => c.value),
      enumItemLabels: option.choices.map((c) => c.name),
      enumDescriptions: option.choices.map((c) => c.description ?? ''),
      default: option.current,
    };
  }
  return { type: 'object', properties };
}

/**
 * The session config a request sets: the entry's model, then the person's choices among the agent's
 * options (VS Code's `modelConfiguration`), only those the agent offers and with values it offers. VS Code fills
 * in each option's default where the person chose nothing, and never keeps a choice equal to the default: a value
 * equal to it is no choice, and the bridge leaves it to the agent (its mode to the bridge's rule: session-modes.ts).
 */
export function requestConfig(entry: ModelWithAgent, modelConfiguration: unknown): SessionConfig | undefined {
  const schema = entry.model.configurationSchema;
  const chosen: Record<string, string> = {};
  if (schema !== undefined && typeof modelConfiguration === 'object' && modelConfiguration !== null) {
    for (const [configId, value] of Object.entries(modelConfiguration)) {
      const property = schema.properties[configId];
      if (typeof value === 'string' && property?.enum.includes(value) === true && value !== property.default) chosen[configId] = value;
    }
  }
  const config = { ...chosen, ...entry.config };
  return Object.keys(config).length === 0 ? undefined : config;
}

/** What the picker shows beside a model's name. */
const STATE_WORDS: Record<AgentState['kind'], string> = { ready: 'ready', 'not-installed': 'not installed', 'sign-in': 'sign-in needed' };

/** A missing program first (nothing else can help), then a sign-in the agent asked for. */
export function stateOf(agent: AgentSetting, info: AgentInfo | undefined): AgentState {
  if (agent.unavailable !== undefined) return { kind: 'not-installed', reason: agent.unavailable };
  if (info?.signIn?.needed === true) return { kind: 'sign-in', methods: info.signIn.methods };
  return { kind: 'ready' };
}

function stateSentence(state: AgentState): string {
  switch (state.kind) {
    case 'ready':
      return 'Ready.';
    case 'not-installed':
      return `Not installed: ${state.reason}.`;
    case 'sign-in': {
      const methods = state.methods.map((m) => m.name).join(', ');
      return `Sign-in needed${methods === '' ? '' : ` (${methods})`}: the next request offers to sign in.`;
    }
  }
}

/**
 * The model with this id and its agent, if the settings still have it. An agent's plain id stays valid
 * after its models were learned (chats begun before ask for it): it runs the agent's default model.
 */
export function findModel(settings: ModelSettings, modelId: string): ModelWithAgent | undefined {
  const listed = modelsOf(settings).find((entry) => entry.model.id === modelId);
  if (listed !== undefined) return listed;
  const agent = settings.agents.find((a) => agentModelId(a) === modelId);
  return agent === undefined ? undefined : agentModels(agent, undefined)[0];
}
