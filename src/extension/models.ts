/**
 * The models the extension offers, from its settings: the built-in Eliza and one per configured ACP
 * agent. Pure (no `vscode`): the adapter reads the settings and hands them in.
 */
import { ELIZA_MODEL } from '../agents/models.js';
import type { AgentDefinition, ModelInformation } from '../protocol/messages.js';

export const VENDOR = 'symposium';
export const AGENT_MODEL_PREFIX = 'symposium-agent-';

/** One entry of the `symposium.agents` setting, as validated. */
export interface AgentSetting {
  readonly id: string;
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** What VS Code gets for each model: the protocol's information plus the picker flag. */
export type ModelEntry = ModelInformation & { readonly isUserSelectable: true; readonly detail?: string; readonly tooltip?: string };

/** A model and the agent behind it. */
export interface ModelWithAgent {
  readonly model: ModelEntry;
  readonly agent: AgentDefinition;
}

export interface ModelSettings {
  readonly agents: readonly AgentSetting[];
  readonly elizaDeterministic: boolean;
}

/** ACP agents manage their own context windows; these are what the consumer may send and expect. */
const AGENT_LIMITS = { maxInputTokens: 200_000, maxOutputTokens: 32_000 } as const;

/**
 * Validates the raw `symposium.agents` value. Invalid entries are skipped, and so are repeated ids
 * (the first wins); `problems` says why, for the log.
 */
export function parseAgentSettings(raw: unknown): { agents: AgentSetting[]; problems: string[] } {
  const agents: AgentSetting[] = [];
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { agents, problems };
  if (!Array.isArray(raw)) return { agents, problems: ['symposium.agents must be an array of agents'] };
  const seen = new Set<string>();
  raw.forEach((entry: unknown, index) => {
    const where = `symposium.agents[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return problems.push(`${where} is not an object: skipped`);
    const { id, name, command, args = [], env = {} } = entry as Record<string, unknown>;
    const bad = [
      typeof id !== 'string' || !/^[\w.-]+$/.test(id) ? 'id (letters, digits, "_", "-" and ".")' : undefined,
      typeof name !== 'string' || name.trim() === '' ? 'name' : undefined,
      typeof command !== 'string' || command.trim() === '' ? 'command' : undefined,
      !Array.isArray(args) || !args.every((a) => typeof a === 'string') ? 'args (an array of strings)' : undefined,
      typeof env !== 'object' || env === null || Array.isArray(env) || !Object.values(env).every((v) => typeof v === 'string') ? 'env (an object of strings)' : undefined,
    ].filter((b) => b !== undefined);
    if (bad.length > 0) return problems.push(`${where}: invalid ${bad.join(', ')}: skipped`);
    if (seen.has(id as string)) return problems.push(`${where}: the id "${String(id)}" is already used: skipped`);
    seen.add(id as string);
    agents.push({ id: id as string, name: name as string, command: command as string, args: args as string[], env: env as Record<string, string> });
    return undefined;
  });
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
  };
  return [eliza, ...settings.agents.map(agentModel)];
}

function agentModel(agent: AgentSetting): ModelWithAgent {
  return {
    model: {
      id: agentModelId(agent),
      name: agent.name,
      family: 'acp-agent',
      version: '1.0.0',
      ...AGENT_LIMITS,
      capabilities: { toolCalling: true, imageInput: false },
      isUserSelectable: true,
      detail: 'ACP agent',
      tooltip: [agent.command, ...agent.args].join(' '),
    },
    agent: {
      mcp_server: { name: agent.name, command: agent.command, args: [...agent.args], env: Object.entries(agent.env).map(([name, value]) => ({ name, value })) },
    },
  };
}

/** The model with this id and its agent, if the settings still have it. */
export function findModel(settings: ModelSettings, modelId: string): ModelWithAgent | undefined {
  return modelsOf(settings).find((entry) => entry.model.id === modelId);
}
