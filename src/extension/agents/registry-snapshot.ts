/**
 * The built-in catalogue as shipped: a snapshot in the ACP agent registry's format (`registry.json`, see
 * `registry.ts`), with the versions pinned that were checked against their releases (November 2026: the
 * npm package's version and bin, and that the command answers ACP `initialize` on stdio), and what the
 * registry does not say: how each agent signs in and which API keys it reads.
 */
import type { ShellOff } from '../../protocol/messages.js';
import type { CatalogOverlay } from './registry.js';
import type { AgentCli } from './agent-cli.js';

export const REGISTRY_SNAPSHOT = {
  version: '1.0.0',
  agents: [
    {
      id: 'claude-code',
      name: 'Claude Code',
      version: '0.101.0',
      description: "Anthropic's Claude Code, through the Claude Agent SDK's ACP adapter",
      distribution: { npx: { package: '@agentclientprotocol/claude-agent-acp@0.101.0', cmd: 'claude-agent-acp', args: [] } },
    },
    {
      id: 'codex',
      name: 'Codex',
      version: '2.6.0',
      description: "OpenAI's Codex, through its ACP adapter",
      distribution: { npx: { package: '@agentclientprotocol/codex-acp@2.6.0', cmd: 'codex-acp', args: [] } },
    },
    {
      id: 'gemini',
      name: 'Gemini CLI',
      version: '0.61.0',
      description: "Google's Gemini CLI in ACP mode (`--acp`)",
      distribution: { npx: { package: '@google/gemini-cli@0.61.0', cmd: 'gemini', args: ['--acp'] } },
    },
    {
      id: 'qwen-code',
      name: 'Qwen Code',
      version: '0.24.4',
      description: 'Qwen Code in ACP mode (`--acp`)',
      distribution: { npx: { package: '@qwen-code/qwen-code@0.24.4', cmd: 'qwen', args: ['--acp'] } },
    },
    {
      id: 'copilot-cli',
      name: 'GitHub Copilot CLI',
      version: '1.0.102',
      description: "GitHub Copilot CLI's ACP server (`--acp --stdio`, public preview)",
      distribution: { npx: { package: '@github/copilot@1.0.102', cmd: 'copilot', args: ['--acp', '--stdio'] } },
    },
    {
      id: 'opencode',
      name: 'OpenCode',
      version: '1.18.33',
      description: 'OpenCode as an ACP agent (`opencode acp`)',
      distribution: { npx: { package: 'opencode-ai@1.18.33', cmd: 'opencode', args: ['acp'] } },
    },
  ],
} as const;

/**
 * How each agent's own shell is switched off, read from its sources; each switch holds for a whole process, so
 * the conversations offered a consumer's command tool get a second process of the agent (shell-off-variant.ts).
 * Claude Code's is per session (`disallowedTools`, session/edit-tools.ts) and needs none.
 */
const SHELL_OFF: Readonly<Record<'codex' | 'gemini' | 'qwen' | 'opencode', ShellOff>> = {
  // codex-acp 2.6 hands CODEX_CONFIG (JSON) to every thread it starts; Codex 0.166's features `shell_tool` (its
  // shell and shell_command tools) and `unified_exec` (exec_command and write_stdin).
  codex: { json: { CODEX_CONFIG: { features: { shell_tool: false, unified_exec: false } } } },
  // Gemini CLI 0.61 reads settings of the system scopes only from root-owned folders; a policy file given with
  // `--admin-policy` is read from anywhere, added to the others, and a tool it denies leaves the model's list.
  gemini: { files: [{ flag: '--admin-policy', name: 'no-shell.toml', content: '[[rule]]\ntoolName = "run_shell_command"\ndecision = "deny"\npriority = 999\n' }] },
  // Added to the tools the person's settings exclude.
  qwen: { args: ['--exclude-tools', 'run_shell_command'] },
  // OPENCODE_CONFIG_CONTENT is merged over the person's config files; a tool denied outright leaves the model's list.
  opencode: { json: { OPENCODE_CONFIG_CONTENT: { permission: { bash: 'deny' } } } },
};

/**
 * How each agent's own CLI opens a fork of a session of its ACP mode (the same store, same HOME), read from each CLI's
 * `--help` as installed with the catalogue's versions (November 2026). A fork, so that the chat in VS Code stays as the
 * person sees it: the agent's session there is not changed by what is done in the terminal.
 */
const CLI: Readonly<Record<'claude' | 'codex' | 'gemini' | 'qwen' | 'opencode', AgentCli>> = {
  // Claude Code 2.1.318, the binary claude-agent-acp 0.101 runs (a platform package of the Claude Agent SDK, no npm
  // bin): `--fork-session` "When resuming, create a new session ID instead of reusing the original". It finds a session
  // in the store of the folder it runs in (~/.claude/projects/<cwd>/).
  claude: { program: 'claude', fork: ['--resume', '{session}', '--fork-session'], variable: 'CLAUDE_CODE_EXECUTABLE', install: "install Claude Code's CLI (`npm install -g @anthropic-ai/claude-code`), or set CLAUDE_CODE_EXECUTABLE in the agent's env" },
  // codex-cli 0.166, a dependency of codex-acp 2.6 (its bin `codex`): `codex fork [SESSION_ID]`.
  codex: { program: 'codex', inPackage: true, fork: ['fork', '{session}'] },
  // Gemini CLI 0.61: `--resume <uuid>` continues the session itself; there is no fork, in the CLI or in its ACP mode.
  gemini: { cannot: 'Gemini CLI cannot fork a session (its `--resume` continues the session itself, and neither it nor its ACP mode has a fork), so what you did in its CLI would change this chat\'s session behind the chat.' },
  // Qwen Code 0.24.4: `--fork-session` "Create a new forked session from the resumed session".
  qwen: { program: 'qwen', inPackage: true, fork: ['--resume', '{session}', '--fork-session'] },
  // OpenCode 1.18.33: `--fork` "fork the session when continuing (use with --continue or --session)".
  opencode: { program: 'opencode', inPackage: true, fork: ['--session', '{session}', '--fork'] },
};

export const CATALOG_OVERLAY: CatalogOverlay = {
  // Its sessions begin in the mode `permissions.defaultMode` names in the person's settings (CLAUDE_CONFIG_DIR, else
  // ~/.claude), then the workspace's (.claude/settings.json, .claude/settings.local.json), as claude-agent-acp 0.101
  // reads them (dist/settings.js); with none, in `auto` (0.100: `default`).
  'claude-code': {
    auth: 'Uses your Claude Code sign-in (`claude`, then `/login`), or an ANTHROPIC_API_KEY (**Symposium: Set Agent API Key**).',
    apiKeys: ['ANTHROPIC_API_KEY'],
    ownSignIn: 'run `claude` in a terminal, then `/login`',
    cli: CLI.claude,
    modeSetting: { configDir: { variable: 'CLAUDE_CONFIG_DIR', home: '.claude' }, user: ['settings.json'], project: ['.claude/settings.json', '.claude/settings.local.json'], key: ['permissions', 'defaultMode'] },
  },
  // Its default mode ("Auto review") has a model review approvals and deny them before VS Code can ask the
  // user; in this mode they come to the client (`session/request_permission`), which asks the user.
  'codex': { auth: 'Signs in with a CODEX_API_KEY or OPENAI_API_KEY (**Symposium: Set Agent API Key**), or with ChatGPT.', apiKeys: ['CODEX_API_KEY', 'OPENAI_API_KEY'], ownSignIn: 'run `codex login` in a terminal (your ChatGPT account)', env: { INITIAL_AGENT_MODE: 'workspace-write' }, shellOff: SHELL_OFF.codex, cli: CLI.codex, subagentSessions: true },
  // In a folder it does not trust, Gemini CLI starts no MCP server, so VS Code's tools would vanish. The
  // extension runs only in workspaces VS Code trusts (it declares no `untrustedWorkspaces` support).
  'gemini': { auth: 'Sign in once by running `gemini` in a terminal, or set a GEMINI_API_KEY (**Symposium: Set Agent API Key**).', apiKeys: ['GEMINI_API_KEY'], ownSignIn: 'run `gemini` in a terminal and sign in with Google', env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' }, shellOff: SHELL_OFF.gemini, cli: CLI.gemini },
  // Qwen Code 0.24's MCP pool (on by default in ACP mode) lists the servers of `session/new` and never offers
  // their tools to the session, and its background MCP discovery races the first prompts (3 of 9 runs).
  'qwen-code': { auth: 'Sign in once by running `qwen` in a terminal, or set an OPENAI_API_KEY (**Symposium: Set Agent API Key**).', apiKeys: ['OPENAI_API_KEY'], ownSignIn: 'run `qwen` in a terminal and sign in', env: { QWEN_SERVE_NO_MCP_POOL: '1', QWEN_CODE_LEGACY_MCP_BLOCKING: '1' }, shellOff: SHELL_OFF.qwen, cli: CLI.qwen },
  'copilot-cli': { auth: 'Sign in once with `copilot login` (a GitHub account with Copilot).', ownSignIn: 'run `copilot login` in a terminal' },
  'opencode': { auth: 'Sign in once with `opencode auth login`.', ownSignIn: 'run `opencode auth login` in a terminal', shellOff: SHELL_OFF.opencode, cli: CLI.opencode },
};
