import type { AgentModelChoice } from '../../../protocol/messages.js';

/**
 * The agent's mode in which it asks before it acts, the mode of the chat's Agent mode: its mode `default` (Claude Code's
 * Manual, Gemini CLI's and Qwen Code's Default). The bridge sets it on every session whose mode nobody chose, since an
 * agent's release may change what its sessions begin in (claude-agent-acp 0.101 begins them in `auto`, whose
 * classifier decides unasked); and it is the mode's default in VS Code's model options, which VS Code sends with every
 * request whose person chose nothing.
 */
const ASKING = /^default$/;

/** The choice of a mode option that asks before acting, if it has one. */
export function askingChoice(choices: readonly AgentModelChoice[]): AgentModelChoice | undefined {
  return choices.find((c) => ASKING.test(c.value));
}
