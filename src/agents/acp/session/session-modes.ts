import type { SessionConfig } from '../../../protocol/messages.js';
import type { ConsumerMode } from '../../../history/consumer-mode.js';
import type { SessionSettings } from './session-settings.js';

/** The agent's own mode for the chat's Plan mode, and for its Ask mode: a choice of one of its select options, by id or name. */
const PLANNING = /^plan$/i;
const READ_ONLY = /^(read[-_ ]?only|ask)$/i;

/**
 * The session config a turn asks for: the person's choices (the model picked, the options set in the picker), with
 * the chat's mode as the agent's own. Plan mode picks the agent's choice named `plan` (Claude Code's, Qwen Code's and
 * Gemini CLI's mode, OpenCode's agent, Codex's collaboration mode), Ask mode the one named `read-only` (Codex's) or `ask`;
 * an agent without one keeps its mode (the bridge refuses its actions in Ask and Plan mode all the same). Agent mode
 * puts back what the others changed: the person's choice, else the session's first value — unless the agent has left
 * that mode by itself, which stands.
 */
export function turnConfig(settings: SessionSettings, wanted: SessionConfig, mode: ConsumerMode): SessionConfig {
  const planning = choiceOf(settings, PLANNING);
  const readOnly = choiceOf(settings, READ_ONLY);
  const config: Record<string, string> = { ...wanted };
  const asked = mode === 'plan' ? planning : mode === 'ask' ? readOnly : undefined;
  for (const other of [planning, readOnly]) {
    if (other === undefined || other.configId === asked?.configId) continue;
    const { configId, value } = other;
    if (wanted[configId] !== undefined) continue;
    // Left in the other mode of the chat: back to where the session began.
    if (settings.current.get(configId) === value) config[configId] = settings.initial.get(configId) ?? value;
  }
  if (asked !== undefined) config[asked.configId] = asked.value;
  return config;
}

/** The first choice among the session's options whose value or name matches `pattern`. */
function choiceOf(settings: SessionSettings, pattern: RegExp): { configId: string; value: string } | undefined {
  for (const [configId, choices] of settings.choices) {
    const choice = choices.find((c) => pattern.test(c.value) || pattern.test(c.name));
    if (choice !== undefined) return { configId, value: choice.value };
  }
  return undefined;
}
