import type { SessionConfig } from '../../../protocol/messages.js';
import type { ConsumerMode } from '../../../history/consumer-mode.js';
import type { SessionSettings } from './session-settings.js';
import type { Notice } from '../../notices.js';
import type { Logger } from '../../../log/logger.js';
import type { OpenedSession } from './opened-session.js';
import { applySessionConfig } from './session-config.js';
import { askingChoice } from '../answers/asking-mode.js';

/** The agent's own mode for the chat's Plan mode, and for its Ask mode: a choice of one of its select options, by id or name. */
const PLANNING = /^plan$/i;
const READ_ONLY = /^(read[-_ ]?only|ask)$/i;
/**
 * Modes in which an agent acts without asking the person (Claude Code's Auto, Accept edits, Bypass permissions and
 * Don't ask; Gemini CLI's Auto Edit and YOLO; Qwen Code's; Codex's full access): only the person picks one.
 */
const UNASKED = /^(auto|accept[-_ ]?edits|bypass[-_ ]?permissions|dont[-_ ]?ask|auto[-_ ]?edit|yolo|full[-_ ]?access)$/i;

/**
 * The session config a turn asks for: the person's choices (the model picked, the options set in the picker), with
 * the chat's mode as the agent's own. Plan mode picks the agent's choice named `plan` (Claude Code's, Qwen Code's and
 * Gemini CLI's mode, OpenCode's agent, Codex's collaboration mode), Ask mode the one named `read-only` (Codex's) or `ask`;
 * an agent without one keeps its mode (the bridge refuses its actions in Ask and Plan mode all the same). Otherwise the
 * mode is the person's choice (in the picker, else in the agent's own settings: `ownMode`), else the agent's mode that
 * asks (asking-mode.ts), whatever the session began in; an option with no such choice is put back to the session's first
 * value where Plan or Ask mode changed it, and an option the person chose before and no longer does to that value too.
 * A value is set once per session (session-config.ts): a mode the agent then left by itself stands.
 */
export function turnConfig(settings: SessionSettings, wanted: SessionConfig, mode: ConsumerMode): SessionConfig {
  const planning = choiceOf(settings, PLANNING);
  const readOnly = choiceOf(settings, READ_ONLY);
  const config: Record<string, string> = { ...wanted };
  const asked = mode === 'plan' ? planning : mode === 'ask' ? readOnly : undefined;
  const asking = askingChoiceOf(settings);
  if (asking !== undefined && wanted[asking.configId] === undefined) config[asking.configId] = settings.ownMode ?? asking.value;
  for (const other of [planning, readOnly]) {
    if (other === undefined || other.configId === asked?.configId) continue;
    const { configId, value } = other;
    if (wanted[configId] !== undefined || configId === asking?.configId) continue;
    // Left in the other mode of the chat: back to where the session began.
    if (settings.current.get(configId) === value) config[configId] = settings.initial.get(configId) ?? value;
  }
  if (asked !== undefined) config[asked.configId] = asked.value;
  // A choice the person took back (the option's default picked again, which VS Code sends as no choice): the value
  // the session began with.
  for (const configId of settings.requested.keys()) {
    const initial = settings.initial.get(configId);
    if (config[configId] === undefined && initial !== undefined) config[configId] = initial;
  }
  return config;
}

/**
 * Sets the turn's config (`turnConfig`) before its prompt goes, and says, once per session, that the agent acts without
 * asking where the mode now is one that does (the person picked it).
 */
export async function applyTurnConfig(
  opened: OpenedSession,
  wanted: SessionConfig,
  mode: ConsumerMode,
  host: { readonly name: string; readonly log: Logger },
  conversationId: string,
): Promise<Notice | undefined> {
  await applySessionConfig(opened, turnConfig(opened.settings, wanted, mode), host, conversationId);
  return unaskedModeNotice(opened.settings, host.name);
}

/** What the person is told once per session whose mode, as the bridge set it, acts without asking them. */
export function unaskedModeNotice(settings: SessionSettings, agentName: string): Notice | undefined {
  const configId = settings.modeConfigId;
  if (configId === undefined || settings.toldUnasked) return undefined;
  const value = settings.requested.get(configId);
  if (value === undefined || settings.current.get(configId) !== value || !UNASKED.test(value)) return undefined;
  settings.toldUnasked = true;
  const choices = settings.choices.get(configId) ?? [];
  const asking = askingChoice(choices);
  const nameOf = (v: string): string => choices.find((c) => c.value === v)?.name ?? v;
  return {
    severity: 'warning',
    title: `${agentName} acts without asking you in this chat`,
    description: `its mode is ${nameOf(value)}, as chosen in the model picker or in its own settings${asking === undefined ? '' : `; pick ${asking.name} (${asking.value}) to be asked first`}.`,
  };
}

/** The session's mode choice that asks before acting, where its mode option has one. */
function askingChoiceOf(settings: SessionSettings): { configId: string; value: string } | undefined {
  const configId = settings.modeConfigId;
  const choice = configId === undefined ? undefined : askingChoice(settings.choices.get(configId) ?? []);
  return configId === undefined || choice === undefined ? undefined : { configId, value: choice.value };
}

/** The first choice among the session's options whose value or name matches `pattern`. */
function choiceOf(settings: SessionSettings, pattern: RegExp): { configId: string; value: string } | undefined {
  for (const [configId, choices] of settings.choices) {
    const choice = choices.find((c) => pattern.test(c.value) || pattern.test(c.name));
    if (choice !== undefined) return { configId, value: choice.value };
  }
  return undefined;
}
