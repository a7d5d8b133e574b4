import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentCommand, ShellOff } from '../../protocol/messages.js';
import { agentIndexKey } from './agent-index-key.js';

type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/** A file the process started with its shell off reads (given with `flag`). */
export interface SettingsFile {
  readonly flag: string;
  readonly path: string;
  readonly content: string;
}

/** The command of an agent's process with its shell off, and the files to write before it starts. */
export interface ShellOffCommand {
  readonly command: AgentCommand;
  readonly files: readonly SettingsFile[];
}

/**
 * `command` with its shell switched off as `shellOff` says: its arguments added; each JSON merged into what the
 * variable already holds (in the agent's own environment, else the one it inherits), arrays as unions; each file
 * written under `dir()`, named by its content (the same command always names the same file: the agent's index of
 * conversations keys on the command).
 */
export function shellOffCommand(command: AgentCommand, shellOff: ShellOff, inherited: NodeJS.ProcessEnv, dir: () => string): ShellOffCommand {
  const own = new Map(command.env.map(({ name, value }) => [name, value]));
  const set = new Map<string, string>();
  for (const [name, ours] of Object.entries(shellOff.json ?? {})) {
    set.set(name, JSON.stringify(merge(parsed(own.get(name) ?? inherited[name], name), ours as Json)));
  }
  const files = (shellOff.files ?? []).map(({ flag, name, content }) => ({ flag, path: path.join(dir(), `${createHash('sha256').update(content).digest('hex').slice(0, 16)}-${path.basename(name)}`), content }));
  const env = [...command.env.filter(({ name }) => !set.has(name)), ...[...set].map(([name, value]) => ({ name, value }))];
  const args = [...command.args, ...(shellOff.args ?? []), ...files.flatMap((file) => [file.flag, file.path])];
  return { command: { name: command.name, command: command.command, args, env }, files };
}

/**
 * The index keys of the agent's conversations: its own process's, and its second one's where its shell is switched
 * off per process (`consumerTerminal`) and the command of that one can be made.
 */
export function indexKeysOf(command: AgentCommand, consumerTerminal: boolean): string[] {
  const own = agentIndexKey(command);
  if (command.shellOff === undefined || !consumerTerminal) return [own];
  try {
    return [own, agentIndexKey(shellOffCommand(command, command.shellOff, process.env, shellOffDir).command)];
  } catch {
    return [own];
  }
}

/** Writes the files (again: one another run of the bridge wrote has the same content). */
export function writeSettingsFiles(files: readonly SettingsFile[]): void {
  for (const file of files) writeFileSync(file.path, file.content, { mode: 0o600 });
}

/**
 * The folder for those files: this user's own under the system's temporary folder, readable by no one else. One
 * another user made first (or a link) is refused: a settings file there would say which tools the agent has.
 */
export function shellOffDir(): string {
  const uid = process.getuid?.();
  const dir = path.join(os.tmpdir(), `symposium-lm-${uid ?? os.userInfo().username}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (process.platform !== 'win32' && (stat.mode & 0o077) !== 0)) {
    throw new Error(`${dir} is not a private folder of this user: the agent's settings without its shell are not written there`);
  }
  return dir;
}

function parsed(text: string | undefined, variable: string): Json {
  if (text === undefined || text.trim() === '') return {};
  try {
    return JSON.parse(text) as Json;
  } catch {
    throw new Error(`the agent's ${variable} is not JSON, so its shell cannot be switched off beside what it says`);
  }
}

/** `ours` over `theirs`: objects key by key, arrays as unions, anything else ours. */
function merge(theirs: Json, ours: Json): Json {
  if (Array.isArray(theirs) && Array.isArray(ours)) return [...theirs, ...ours.filter((item) => !theirs.some((mine) => JSON.stringify(mine) === JSON.stringify(item)))];
  if (isObject(theirs) && isObject(ours)) {
    const merged: Record<string, Json> = { ...theirs };
    for (const [key, value] of Object.entries(ours)) merged[key] = key in theirs ? merge(theirs[key], value) : value;
    return merged;
  }
  return ours;
}

function isObject(value: Json): value is { readonly [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
