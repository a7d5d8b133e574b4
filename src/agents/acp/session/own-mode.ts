import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { AgentCommand, ModeSetting } from '../../../protocol/messages.js';

/**
 * The mode the agent's own settings name for its sessions (`modeSetting` of its catalogue entry: Claude Code's
 * `permissions.defaultMode`), read as the agent reads it: the person's file, then the workspace folder's, a later
 * one's value winning; a file missing or not JSON counts as none. The variable naming the person's folder and the
 * home folder are the agent's own where its env sets them.
 */
export function ownModeOf(command: AgentCommand, cwd: string): string | undefined {
  const setting = command.modeSetting;
  if (setting === undefined) return undefined;
  const env = new Map(command.env.map((v) => [v.name, v.value]));
  const home = env.get('HOME') ?? homedir();
  const configDir = env.get(setting.configDir.variable) ?? process.env[setting.configDir.variable] ?? path.join(home, setting.configDir.home);
  const files = [...setting.user.map((f) => path.join(configDir, f)), ...setting.project.map((f) => path.join(cwd, f))];
  let mode: string | undefined;
  for (const file of files) mode = valueIn(file, setting) ?? mode;
  return mode;
}

function valueIn(file: string, setting: ModeSetting): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  for (const key of setting.key) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}
