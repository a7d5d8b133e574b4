/**
 * The built-in agents: well-known ACP agents the user can name by id in `symposium.agents` instead of
 * writing out their launch command, and how each is launched (its distribution). No `vscode` here: the
 * adapter hands in `which` and the environment, the tests hand in fakes.
 *
 * Every entry was checked against its current release (November 2026): the npm package's version and
 * bin (`npm view PKG name version bin`), and that the command answers ACP `initialize` on stdio; the two
 * binary-only agents (Goose, Kimi CLI) from their own documentation of the `acp` subcommand.
 */
import { accessSync, constants, statSync } from 'node:fs';
import os from 'node:os';
import { archiveProgram, type ArchiveDownload } from './archive-install.js';
import { catalogOfRegistry, type CatalogEntry, type Distribution } from './registry.js';
import { CATALOG_OVERLAY, REGISTRY_SNAPSHOT } from './registry-snapshot.js';
import type { ModeSetting, ShellOff } from '../../protocol/messages.js';
import { withEnv } from '../../agents/agent-env.js';
import path from 'node:path';

/** Agents the registry does not distribute for every platform, run as programs the user installs. */
const PROGRAMS_ON_PATH: readonly CatalogEntry[] = [
  {
    id: 'goose',
    name: 'Goose',
    description: "Block's Goose as an ACP agent (`goose acp`)",
    distribution: { kind: 'binary', executable: 'goose', args: ['acp'] },
    auth: 'Configure a provider once with `goose configure`.',
    install: 'install the Goose CLI: https://block.github.io/goose/docs/getting-started/installation',
  },
  {
    id: 'kimi',
    name: 'Kimi CLI',
    description: "Moonshot AI's Kimi CLI as an ACP agent (`kimi acp`)",
    distribution: { kind: 'binary', executable: 'kimi', args: ['acp'] },
    auth: 'Sign in once with `kimi login`.',
    install: 'install Kimi CLI: `uv tool install kimi-cli` (https://moonshotai.github.io/kimi-cli/)',
  },
];

/** The built-in agents: the shipped registry snapshot, then the programs on PATH. */
export const BUILTIN_AGENTS: readonly CatalogEntry[] = [...catalogOfRegistry(REGISTRY_SNAPSHOT, undefined, CATALOG_OVERLAY).entries, ...PROGRAMS_ON_PATH];

export function findBuiltin(id: string, catalog: readonly CatalogEntry[] = BUILTIN_AGENTS): CatalogEntry | undefined {
  return catalog.find((entry) => entry.id === id);
}

/** An environment as `process.env` is: names to values, some undefined. */
export type Env = Readonly<Record<string, string | undefined>>;

/** Where `executable` is on the PATH of `env`, or undefined when it is not there. */
export type Which = (executable: string, env: Env) => string | undefined;

export interface ResolveContext {
  readonly which: Which;
  /** The environment the agent inherits (the bridge's, which is the extension host's). */
  readonly env: Env;
  /** The user's home folder, for a command written `~/…` (no expansion without it). */
  readonly home?: string;
  /** The platform the agent runs on (default: this one). */
  readonly platform?: NodeJS.Platform;
  /** Where a downloaded agent lives (a folder of the extension's global storage); without it, downloads are not offered. */
  readonly archiveDir?: (entry: CatalogEntry & { readonly distribution: Extract<Distribution, { kind: 'archive' }> }) => string;
}

/** What the user may change of a built-in agent, by naming its id in `symposium.agents`. */
export interface BuiltinOverrides {
  readonly name?: string;
  /** Added after the built-in's own arguments. */
  readonly args?: readonly string[];
  /** Added to the agent's environment, over the built-in's own. */
  readonly env?: Readonly<Record<string, string>>;
  /** For npm agents: the package version (or tag) instead of the pinned one. */
  readonly version?: string;
}

/** A command as the bridge spawns it. */
export interface LaunchCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** How the agent's own shell is switched off for a process of conversations offered a command tool. */
  readonly shellOff?: ShellOff;
  /** Its subagents come as child sessions: the ACP subagents RFD's `clientCapabilities.subagents` is declared to it (Codex). */
  readonly subagentSessions?: boolean;
  /** Where its own settings name the mode its sessions begin in (Claude Code's `permissions.defaultMode`). */
  readonly modeSetting?: ModeSetting;
}

export type Resolution =
  | { readonly ok: true; readonly launch: LaunchCommand; /** where the command was found */ readonly location: string; /** what to download first */ readonly download?: ArchiveDownload }
  | { readonly ok: false; readonly launch: LaunchCommand; readonly reason: string };

/**
 * The command that runs this built-in agent. npx runs non-interactively (`--yes`); `--package … -- bin`
 * names the executable, which for most of these packages differs from the package name.
 */
export function launchOf(entry: CatalogEntry, overrides: BuiltinOverrides = {}): LaunchCommand {
  const env = { ...entry.env, ...overrides.env };
  const shellOff = {
    ...(entry.shellOff === undefined ? {} : { shellOff: entry.shellOff }),
    ...(entry.subagentSessions === true ? { subagentSessions: true } : {}),
    ...(entry.modeSetting === undefined ? {} : { modeSetting: entry.modeSetting }),
  };
  const d = entry.distribution;
  const extra = overrides.args ?? [];
  if (d.kind === 'binary') return { command: d.executable, args: [...d.args, ...extra], env, ...shellOff };
  if (d.kind === 'archive') return { command: d.cmd, args: [...d.args, ...extra], env, ...shellOff };
  if (d.kind === 'uvx') return { command: 'uvx', args: [...(d.bin === undefined ? [d.package] : ['--from', d.package, d.bin]), ...d.args, ...extra], env, ...shellOff };
  const version = overrides.version ?? d.version;
  const spec = version === undefined ? d.package : `${d.package}@${version}`;
  const npxArgs = d.bin === undefined ? ['--yes', '--', spec] : ['--yes', `--package=${spec}`, '--', d.bin];
  return { command: 'npx', args: [...npxArgs, ...d.args, ...extra], env, ...shellOff };
}

/**
 * For an npm agent, the command that fetches it into npx's cache without running it (npx installs the
 * package, then runs `node -e ""`): done when the user adds the agent, so that its first start is quick.
 */
export function prefetchOf(entry: CatalogEntry, overrides: Pick<BuiltinOverrides, 'version'> = {}): LaunchCommand | undefined {
  const d = entry.distribution;
  if (d.kind !== 'npx') return undefined;
  const version = overrides.version ?? d.version;
  const spec = version === undefined ? d.package : `${d.package}@${version}`;
  return { command: 'npx', args: ['--yes', `--package=${spec}`, '--', 'node', '-e', ''], env: { ...entry.env } };
}

/**
 * Whether the built-in can run here: a binary when it is on PATH, an npm agent when npx is (the package
 * itself is fetched on first use). The PATH is the agent's: the inherited one unless `env` sets PATH.
 */
export function resolveBuiltin(entry: CatalogEntry, overrides: BuiltinOverrides, ctx: ResolveContext): Resolution {
  const launch = launchOf(entry, overrides);
  const d = entry.distribution;
  if (d.kind === 'archive') {
    if (ctx.archiveDir === undefined) return { ok: false, launch, reason: `it is a download (${d.url}) that Symposium cannot install here` };
    const download: ArchiveDownload = { url: d.url, ...(d.sha256 === undefined ? {} : { sha256: d.sha256 }), dir: ctx.archiveDir({ ...entry, distribution: d }), cmd: d.cmd };
    // Run like an npx agent: available now, fetched on first use (or when added in Manage Agents).
    const program = archiveProgram(download);
    return { ok: true, launch: { ...launch, command: program }, location: program, download };
  }
  const location = ctx.which(launch.command, withEnv(ctx.env, launch.env, ctx.platform));
  if (location !== undefined) return { ok: true, launch, location };
  const reason =
    d.kind === 'npx'
      ? 'npx was not found on PATH (it comes with Node.js and npm)'
      : d.kind === 'uvx'
        ? 'uvx was not found on PATH (it comes with uv: https://docs.astral.sh/uv/)'
        : `\`${launch.command}\` was not found on PATH${entry.install === undefined ? '' : `: ${entry.install}`}`;
  return { ok: false, launch, reason };
}

/** How a built-in is obtained, for a menu: `npx @scope/pkg` or `goose on PATH`. */
export function distributionLabel(entry: CatalogEntry): string {
  const d = entry.distribution;
  switch (d.kind) {
    case 'npx':
      return `npx ${d.package}`;
    case 'uvx':
      return `uvx ${d.package}`;
    case 'archive':
      return 'a download';
    case 'binary':
      return `${d.executable} on PATH`;
  }
}

/** A command line for people to read (not for a shell). */
export function commandLine(launch: Pick<LaunchCommand, 'command' | 'args'>): string {
  return [launch.command, ...launch.args].map((word) => (word === '' || /\s/.test(word) ? JSON.stringify(word) : word)).join(' ');
}

/** Resolution against this process's environment and file system: what the bridge's agents inherit. */
export function hostResolveContext(archiveDir?: ResolveContext['archiveDir']): ResolveContext {
  return { which: (executable, env) => findOnPath(executable, env), env: process.env, home: os.homedir(), platform: process.platform, ...(archiveDir === undefined ? {} : { archiveDir }) };
}

/**
 * A command written from the home folder, `~/bin/agent` (also `~\bin\agent` on Windows), as a path: agents
 * are spawned without a shell, which is what would expand `~`. Other commands are returned unchanged.
 */
export function expandHome(command: string, home: string | undefined, platform: NodeJS.Platform = process.platform): string {
  if (home === undefined) return command;
  const windows = platform === 'win32';
  if (command === '~') return home;
  const rest = /^~[/\\]/.test(command) && (windows || command[1] === '/') ? command.slice(2) : undefined;
  return rest === undefined ? command : (windows ? path.win32 : path.posix).join(home, rest);
}

export interface FindOnPathOptions {
  readonly platform?: NodeJS.Platform;
  /** Whether this path is a file the current user may execute. */
  readonly isExecutable?: (file: string) => boolean;
}

/**
 * The `which` of the extension: `executable` (a name, or an absolute path) looked up on the PATH of `env`,
 * with the PATHEXT extensions on Windows, where environment names ignore case.
 */
export function findOnPath(executable: string, env: Env, options: FindOnPathOptions = {}): string | undefined {
  const platform = options.platform ?? process.platform;
  const windows = platform === 'win32';
  const paths = windows ? path.win32 : path.posix;
  const isExecutable = options.isExecutable ?? defaultIsExecutable(windows);
  const variable = (name: string) => (windows ? Object.entries(env).find(([key]) => key.toUpperCase() === name)?.[1] : env[name]);
  // Windows file names ignore case too: `.cmd` finds NPX.CMD.
  const pathext = (variable('PATHEXT') ?? '.COM;.EXE;.BAT;.CMD').toLowerCase().split(';').filter((e) => e !== '');
  const hasExtension = pathext.includes(paths.extname(executable).toLowerCase());
  // On Windows `npx` is `npx.cmd` (an extension-less `npx` beside it is a shell script for other shells).
  const extensions = windows && !hasExtension ? pathext : [''];
  const candidates = (base: string) => extensions.map((ext) => base + ext);
  if (executable === '') return undefined;
  if (paths.isAbsolute(executable)) return candidates(executable).find(isExecutable);
  // A relative path would be relative to the agent's working directory, which is not known here.
  if (executable.includes('/') || (windows && executable.includes('\\'))) return undefined;
  for (const dir of (variable('PATH') ?? '').split(paths.delimiter)) {
    if (dir === '') continue;
    const found = candidates(paths.join(dir, executable)).find(isExecutable);
    if (found !== undefined) return found;
  }
  return undefined;
}

function defaultIsExecutable(windows: boolean): (file: string) => boolean {
  return (file) => {
    try {
      if (!statSync(file).isFile()) return false;
      if (!windows) accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
}
