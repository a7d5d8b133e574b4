import type * as acp from '@agentclientprotocol/sdk';
import type { AgentCommand, AgentModelChoice } from '../../../protocol/messages.js';
import { ownModeOf } from './own-mode.js';
import { currentValuesOf, otherOptionsOf, sessionModelsOf, sessionModesOf, type SessionResponse } from '../answers/agent-info.js';

/**
 * What the bridge knows of one ACP session's settings: the value of each select option (the model, the mode, …;
 * the older models and modes under their own config ids) as the agent last said, their choices, the values the
 * session opened with, and what the bridge asked for.
 */
export class SessionSettings {
  /** By config id, as the agent last said: its answers, and its own changes (`current_mode_update`, `config_option_update`). */
  readonly current: Map<string, string>;
  /** By config id; the model's only where the bridge may choose among them. */
  readonly choices: ReadonlyMap<string, readonly AgentModelChoice[]>;
  /** The values the session opened with: its defaults. */
  readonly initial: ReadonlyMap<string, string>;
  /**
   * The value the bridge last asked for, by config id. A value asked for is not asked for again while the same one
   * is wanted: the agent's own change since (Claude Code leaving its plan mode) stands.
   */
  readonly requested = new Map<string, string>();
  /** The config ids of boolean options, whose values are kept as `true` and `false`. */
  readonly booleans: ReadonlySet<string>;
  /** The config id of the session's mode (the one `current_mode_update` reports): its option of category mode, else its ACP modes. */
  readonly modeConfigId: string | undefined;
  /** Whether the person was told that the session's mode acts without asking them (session-modes.ts): once per session. */
  toldUnasked = false;
  private own: { readonly mode: string | undefined } | undefined;

  /** `agent`: the agent and the session's folder, whose own settings may name its mode (`ownMode`). */
  constructor(
    response: SessionResponse,
    private readonly agent?: { readonly command: AgentCommand; readonly cwd: string },
  ) {
    this.current = currentValuesOf(response.configOptions);
    const choices = new Map(otherOptionsOf(response.configOptions ?? []).map((o) => [o.configId, o.choices] as const));
    // Models reported the older way are set the older way (session/set_model), under their own config id.
    const models = sessionModelsOf(response);
    if (models !== undefined && !this.current.has(models.configId)) this.current.set(models.configId, models.current);
    // Modes reported only the older way likewise (session/set_mode).
    const modes = sessionModesOf(response);
    if (modes !== undefined) {
      this.current.set(modes.configId, modes.current);
      choices.set(modes.configId, modes.choices);
    }
    this.choices = choices;
    this.booleans = new Set((response.configOptions ?? []).flatMap((o) => (o.type === 'boolean' ? [o.id] : [])));
    this.initial = new Map(this.current);
    this.modeConfigId = modes?.configId ?? response.configOptions?.find((o) => o.category === 'mode' && o.type === 'select')?.id;
  }

  /**
   * The mode the agent's own settings name, where its mode option offers it: the person chose it there. Read at the
   * session's first turn, not when it opened (a spare session opens ahead).
   */
  get ownMode(): string | undefined {
    this.own ??= { mode: this.agent === undefined ? undefined : ownModeOf(this.agent.command, this.agent.cwd) };
    const { mode } = this.own;
    return this.modeConfigId !== undefined && this.choices.get(this.modeConfigId)?.some((c) => c.value === mode) === true ? mode : undefined;
  }

  /** The agent changed a setting by itself: followed. Values of options the session does not have are ignored. */
  follow(update: acp.SessionUpdate): void {
    if (update.sessionUpdate === 'current_mode_update') {
      if (this.modeConfigId !== undefined && typeof update.currentModeId === 'string') this.current.set(this.modeConfigId, update.currentModeId);
    } else if (update.sessionUpdate === 'config_option_update') {
      this.learn(update.configOptions);
    }
  }

  /** The options' values as the agent says them (in an update, or its answer to `session/set_config_option`). */
  learn(options: readonly acp.SessionConfigOption[]): void {
    for (const option of options) {
      if (!this.current.has(option.id)) continue;
      if (option.type === 'select' && typeof option.currentValue === 'string') this.current.set(option.id, option.currentValue);
      else if (option.type === 'boolean' && this.booleans.has(option.id) && typeof option.currentValue === 'boolean') this.current.set(option.id, String(option.currentValue));
    }
  }
}
