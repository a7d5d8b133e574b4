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
import path from 'node:path';

/** How a built-in agent is launched. */
export type Distribution =
  /** An npm package, run with `npx` (fetched on first use, cached by npm, pinned to `version`). */
  | { readonly kind: 'npx'; readonly package: string; readonly version?: string; readonly bin?: string; readonly args: readonly string[] }
  /** A program the user installs themselves, looked up on PATH. */
  | { readonly kind: 'binary'; readonly executable: string; readonly args: readonly string[] };

export interface CatalogEntry {
  /** The id in `symposium.agents` and in the model id `symposium-agent-<id>`. */
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly distribution: Distribution;
  /** How the agent signs in: the bridge cannot run interactive sign-ins, so this happens beforehand. */
  readonly auth: string;
  /** For binaries: how to install it. */
  readonly install?: string;
  /** Environment variables the agent always gets (the user's `env` overrides them). */
  readonly env?: Readonly<Record<string, string>>;
}

export const BUILTIN_AGENTS: readonly CatalogEntry[] = [
  {
    id: 'claude-code',
    name: 'Claude Code',
    description: "Anthropic's Claude Code, through the Claude Agent SDK's ACP adapter",
    distribution: { kind: 'npx', package: '@agentclientprotocol/claude-agent-acp', version: '0.100.0', bin: 'claude-agent-acp', args: [] },
    auth: 'Uses your Claude Code sign-in (`claude`, then `/login`), or ANTHROPIC_API_KEY set in `env`.',
  },
  {
    id: 'codex',
    name: 'Codex',
    description: "OpenAI's Codex, through its ACP adapter",
    distribution: { kind: 'npx', package: '@agentclientprotocol/codex-acp', version: '2.6.0', bin: 'codex-acp', args: [] },
    auth: 'Signs in with CODEX_API_KEY or OPENAI_API_KEY (set one in `env`), or with ChatGPT.',
    // Its default mode ("Auto review") has a model review approvals and deny them before VS Code can ask
    // the user; in this mode they come to the client (`session/request_permission`), which asks the user.
    env: { INITIAL_AGENT_MODE: 'workspace-write' },
  },
  {
    id: 'gemini',
    name: 'Gemini CLI',
    description: "Google's Gemini CLI in ACP mode (`--acp`)",
    distribution: { kind: 'npx', package: '@google/gemini-cli', version: '0.61.0', bin: 'gemini', args: ['--acp'] },
    auth: 'Sign in once by running `gemini` in a terminal, or set GEMINI_API_KEY in `env`.',
    // In a folder it does not trust, Gemini CLI starts no MCP server, so VS Code's tools would vanish. The
    // extension runs only in workspaces VS Code trusts (it declares no `untrustedWorkspaces` support), so
    // the agent is told the workspace is trusted.
    env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' },
  },
  {
    id: 'qwen-code',
    name: 'Qwen Code',
    description: 'Qwen Code in ACP mode (`--acp`)',
    distribution: { kind: 'npx', package: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen', args: ['--acp'] },
    auth: 'Sign in once by running `qwen` in a terminal, or set OPENAI_API_KEY in `env`.',
    // Qwen Code 0.24's MCP pool (on by default in ACP mode) lists the servers of `session/new` and never
    // offers their tools to the session; and its background MCP discovery races the session's first
    // prompts, which then go without the tools (seen in 3 of 9 runs). Without the pool, and discovering
    // the servers before it answers `session/new`, VS Code's tools reach every prompt.
    env: { QWEN_SERVE_NO_MCP_POOL: '1', QWEN_CODE_LEGACY_MCP_BLOCKING: '1' },
  },
  {
    id: 'copilot-cli',
    name: 'GitHub Copilot CLI',
    description: "GitHub Copilot CLI's ACP server (`--acp --stdio`, public preview)",
    distribution: { kind: 'npx', package: '@github/copilot', version: '1.0.102', bin: 'copilot', args: ['--acp', '--stdio'] },
    auth: 'Sign in once with `copilot login` (a GitHub account with Copilot).',
  },
  {
    id: 'opencode',
    name: 'OpenCode',
    description: 'OpenCode as an ACP agent (`opencode acp`)',
    distribution: { kind: 'npx', package: 'opencode-ai', version: '1.18.33', bin: 'opencode', args: ['acp'] },
    auth: 'Sign in once with `opencode auth login`.',
  },
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
}

export type Resolution =
  | { readonly ok: true; readonly launch: LaunchCommand; /** where the command was found */ readonly location: string }
  | { readonly ok: false; readonly launch: LaunchCommand; readonly reason: string };

/**
 * The command that runs this built-in agent. npx runs non-interactively (`--yes`); `--package … -- bin`
 * names the executable, which for most of these packages differs from the package name.
 */
export function launchOf(entry: CatalogEntry, overrides: BuiltinOverrides = {}): LaunchCommand {
  const env = { ...entry.env, ...overrides.env };
  const d = entry.distribution;
  const extra = overrides.args ?? [];
  if (d.kind === 'binary') return { command: d.executable, args: [...d.args, ...extra], env };
  const version = overrides.version ?? d.version;
  const spec = version === undefined ? d.package : `${d.package}@${version}`;
  const npxArgs = d.bin === undefined ? ['--yes', '--', spec] : ['--yes', `--package=${spec}`, '--', d.bin];
  return { command: 'npx', args: [...npxArgs, ...d.args, ...extra], env };
}

/**
 * Whether the built-in can run here: a binary when it is on PATH, an npm agent when npx is (the package
 * itself is fetched on first use). The PATH is the agent's: the inherited one unless `env` sets PATH.
 */
export function resolveBuiltin(entry: CatalogEntry, overrides: BuiltinOverrides, ctx: ResolveContext): Resolution {
  const launch = launchOf(entry, overrides);
  const location = ctx.which(launch.command, { ...ctx.env, ...launch.env });
  if (location !== undefined) return { ok: true, launch, location };
  const reason =
    entry.distribution.kind === 'npx'
      ? 'npx was not found on PATH (it comes with Node.js and npm)'
      : `\`${launch.command}\` was not found on PATH${entry.install === undefined ? '' : `: ${entry.install}`}`;
  return { ok: false, launch, reason };
}

/** How a built-in is obtained, for a menu: `npx @scope/pkg` or `goose on PATH`. */
export function distributionLabel(entry: CatalogEntry): string {
  const d = entry.distribution;
  return d.kind === 'npx' ? `npx ${d.package}` : `${d.executable} on PATH`;
}

/** A command line for people to read (not for a shell). */
export function commandLine(launch: Pick<LaunchCommand, 'command' | 'args'>): string {
  return [launch.command, ...launch.args].map((word) => (word === '' || /\s/.test(word) ? JSON.stringify(word) : word)).join(' ');
}

/** Resolution against this process's environment and file system: what the bridge's agents inherit. */
export function hostResolveContext(): ResolveContext {
  return { which: (executable, env) => findOnPath(executable, env), env: process.env };
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
