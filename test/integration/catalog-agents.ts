/**
 * How each npm agent of the catalogue runs offline for the tests: installed at the catalogue's pinned
 * version (test/fixtures/agent-install.ts), in a fresh HOME, pointed at a scripted mock of its own
 * model API on 127.0.0.1, with the catalogue's own environment and arguments (launchOf), so the tests
 * drive the agent as users get it, only with another model behind it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BUILTIN_AGENTS, launchOf } from '../../src/extension/agents/agent-catalog.js';
import type { AgentDefinition, SessionConfig } from '../../src/protocol/messages.js';
import { installCatalogAgent } from '../fixtures/agent-install.js';
import { GeminiMock } from '../fixtures/gemini-mock.js';
import { allToolResults, type ChatView, type ModelApiMock, type ModelApiMockOptions, type ReplyBlock } from '../fixtures/model-api-mock.js';
import { MOCK_MODEL, OpenAiChatMock, OpenAiResponsesMock } from '../fixtures/openai-mocks.js';

export interface AgentUnderTest {
  readonly id: string;
  readonly name: string;
  readonly mock: ModelApiMock;
  readonly definition: AgentDefinition;
  /** The names of the agent's own tools that run commands, as its model's tool list has them. */
  readonly shellTools: readonly string[];
  /** It advertises steering (`_session/steering`, codex-acp), so words sent while its turn runs go into that turn. */
  readonly steers?: boolean;
  /** The tool call that runs a shell command, as this agent's model would make it. */
  shell(view: ChatView, command: string): ReplyBlock;
  /** The name under which the agent offers its model the bridged tool `tool`, if it does in this request. */
  bridgedToolName(view: ChatView, tool: string): string | undefined;
  /** The tool call that writes a file, for agents that write through their client (ACP fs) when it offers that. */
  writeFile?(path: string, content: string): ReplyBlock;
  /** The tool call that asks the person one question with these options, for agents whose model can ask (`asksQuestions`). */
  askQuestion?(question: string, header: string, options: readonly string[]): ReplyBlock;
  /** The session's config options under which its model may ask (Codex: its Plan collaboration mode). */
  readonly questionsConfig?: SessionConfig;
  /** The tool call that replaces the line `before` of a file with `after` by the agent's own means, for agents that edit by themselves. */
  editFile?(view: ChatView, path: string, before: string, after: string): ReplyBlock;
  /** The tool call that starts a subagent in the foreground with this task and prompt, for agents that start subagents (`subagents`). */
  startSubagent?(view: ChatView, description: string, prompt: string): ReplyBlock;
  /** The tool call with which the agent's model reads a file. */
  readFile?(view: ChatView, path: string): ReplyBlock;
  /** The call that waits for the subagents it started and that have not reported yet, for agents whose reports come only so (Codex). */
  awaitSubagents?(view: ChatView): ReplyBlock | undefined;
  /** A model among those the agent reports, other than its current one, whose requests still reach the mock (none: no such model). */
  readonly pickableModel?: string;
}

export interface AgentSetup {
  readonly id: string;
  /** It writes files through its client when the client offers it (ACP fs), with `writeFile`'s tool call. */
  readonly writesThroughClient?: boolean;
  /** It edits files by itself and reports each change as ACP diff content, with `editFile`'s tool call. */
  readonly editsByItself?: boolean;
  /** Its model asks the person questions with `askQuestion`'s tool call, which the agent relays as an ACP form. */
  readonly asksQuestions?: boolean;
  /** It relays the web pages its MCP servers ask the person to open (URL elicitation): `prepare` configures `signInServer`. */
  readonly relaysSignInPages?: boolean;
  /** It declares `promptCapabilities.embeddedContext`: an attached file reaches it as a `resource`, else as a link and text. */
  readonly embeddedContext?: boolean;
  /** It reads a file a prompt links (`resource_link`) into its model's request by itself. */
  readonly readsLinkedFiles?: boolean;
  /**
   * Its model starts subagents (`startSubagent`), and what its ACP layer shows of them: each one's own tool calls too
   * (`with their calls`), or only the subagent's call, named, and its end (`without their calls`).
   */
  readonly subagents?: 'with their calls' | 'without their calls';
  /** It forks a session at a message (`session/fork` with the AIR fork point): going back forks, else it is told. */
  readonly forksAtAPoint?: boolean;
  /**
   * Starts the mock and prepares HOME; `root` is a fresh folder the test removes. `signInServer`: the URL of an
   * MCP server of the person's own (Streamable HTTP) to configure, its tool allowed where the agent asks first.
   */
  prepare(root: { readonly home: string; readonly signInServer?: string }, options: ModelApiMockOptions): Promise<AgentUnderTest>;
}

let callCounter = 0;
const callId = (): string => `call_${++callCounter}_${Math.random().toString(36).slice(2, 8)}`;

/** The agent's launch command from the catalogue, run from the test cache instead of through npx. */
export async function definitionOf(id: string, bin: string, env: Record<string, string>): Promise<AgentDefinition> {
  const entry = BUILTIN_AGENTS.find((e) => e.id === id);
  if (entry === undefined || entry.distribution.kind !== 'npx') throw new Error(`no npm agent ${id} in the catalogue`);
  const dir = await installCatalogAgent(id);
  const launch = launchOf(entry);
  // npx's own arguments end at `--`; after it come the bin and the agent's arguments.
  const agentArgs = launch.args.slice(launch.args.indexOf('--') + 2);
  const name = entry.name;
  return {
    mcp_server: {
      name,
      command: path.join(dir, 'node_modules', '.bin', bin),
      args: agentArgs,
      env: Object.entries({ ...launch.env, ...env, PATH: process.env.PATH ?? '' }).map(([n, value]) => ({ name: n, value })),
      ...(launch.shellOff === undefined ? {} : { shellOff: launch.shellOff }),
      ...(launch.subagentSessions === true ? { subagentSessions: true } : {}),
    },
  };
}

/** A bridged tool, however the agent prefixes it (`mcp_<server>_<tool>`, `<server>_<tool>`). */
function findTool(view: ChatView, tool: string): string | undefined {
  return view.tools.find((name) => name === tool || name.endsWith(`_${tool}`));
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

export const GEMINI: AgentSetup = {
  id: 'gemini',
  writesThroughClient: true,
  embeddedContext: true,
  readsLinkedFiles: true,
  async prepare({ home }, options) {
    const mock = await GeminiMock.start(options);
    writeJson(path.join(home, '.gemini', 'settings.json'), {
      security: { auth: { selectedType: 'gemini-api-key' } },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
    });
    const definition = await definitionOf('gemini', 'gemini', mock.env(home));
    return {
      id: 'gemini',
      name: 'Gemini CLI',
      mock,
      definition,
      // Reported through the older `models` field, picked with session/set_model.
      pickableModel: 'gemini-3-flash-preview',
      shellTools: ['run_shell_command'],
      shell: (_view, command) => ({ type: 'tool_call', id: callId(), name: 'run_shell_command', input: { command, description: `Run ${command}` } }),
      writeFile: (file, content) => ({ type: 'tool_call', id: callId(), name: 'write_file', input: { file_path: file, content } }),
      // Its `agent` tool runs a subagent in the background unless told not to.
      startSubagent: (_view, description, prompt) => ({ type: 'tool_call', id: callId(), name: 'agent', input: { description, prompt, subagent_type: 'general-purpose', run_in_background: false } }),
      readFile: (_view, file) => ({ type: 'tool_call', id: callId(), name: 'read_file', input: { file_path: file } }),
      bridgedToolName: findTool,
    };
  },
};

export const CODEX: AgentSetup = {
  id: 'codex',
  subagents: 'with their calls',
  editsByItself: true,
  asksQuestions: true,
  relaysSignInPages: true,
  embeddedContext: true,
  forksAtAPoint: true,
  async prepare({ home, signInServer }, options) {
    const mock = await OpenAiResponsesMock.start(options);
    const codexHome = path.join(home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(
      path.join(codexHome, 'config.toml'),
      [
        `model = "${MOCK_MODEL}"`,
        'model_provider = "mock"',
        'check_for_update_on_startup = false',
        '[analytics]',
        'enabled = false',
        '[model_providers.mock]',
        'name = "Mock"',
        `base_url = "${mock.url}/v1"`,
        'wire_api = "responses"',
        'env_key = "MOCK_API_KEY"',
        'request_max_retries = 0',
        'stream_max_retries = 0',
        ...(signInServer === undefined ? [] : ['[mcp_servers.accounts]', `url = "${signInServer}"`]),
        '',
      ].join('\n'),
    );
    const definition = await definitionOf('codex', 'codex-acp', { HOME: home, CODEX_HOME: codexHome, MOCK_API_KEY: 'mock-key' });
    return {
      id: 'codex',
      name: 'Codex',
      mock,
      definition,
      shellTools: ['shell', 'shell_command', 'exec_command', 'write_stdin'],
      steers: true,
      shell: (view, command) => {
        const name = ['exec_command', 'shell_command', 'shell'].find((n) => view.tools.includes(n)) ?? 'shell';
        // In the workspace a sandboxed command runs without asking; one that asks to leave the sandbox asks the user.
        const escalated = { sandbox_permissions: 'require_escalated', justification: `May I run ${command}?` };
        const input = name === 'exec_command' ? { cmd: command, ...escalated } : name === 'shell_command' ? { command, ...escalated } : { command: ['bash', '-lc', command], ...escalated };
        return { type: 'tool_call', id: callId(), name, input };
      },
      // Its request_user_input, which it offers in every mode and answers only in Plan mode.
      askQuestion: (question, header, labels) => ({
        type: 'tool_call',
        id: callId(),
        name: 'request_user_input',
        input: { questions: [{ id: 'answer', header, question, options: labels.map((label) => ({ label, description: `Choose ${label}` })) }] },
      }),
      questionsConfig: { collaboration_mode: 'plan' },
      // Its multi_agent tools (on by default), in their namespace: spawn_agent answers the subagent's id at once,
      // wait_agent answers the reports of those that ended.
      startSubagent: (view, _description, prompt) => ({ type: 'tool_call', id: callId(), name: view.tools.find((t) => t.endsWith('spawn_agent')) ?? 'spawn_agent', input: { message: prompt } }),
      readFile: (view, file) => {
        const name = ['exec_command', 'shell_command', 'shell'].find((n) => view.tools.includes(n)) ?? 'shell';
        const input = name === 'exec_command' ? { cmd: `cat ${file}` } : name === 'shell_command' ? { command: `cat ${file}` } : { command: ['bash', '-lc', `cat ${file}`] };
        return { type: 'tool_call', id: callId(), name, input };
      },
      awaitSubagents: (view) => {
        const results = allToolResults(view).flatMap((r) => {
          try {
            return [JSON.parse(r.text) as { agent_id?: string; status?: Record<string, unknown> }];
          } catch {
            return [];
          }
        });
        const reported = new Set(results.flatMap((r) => Object.keys(r.status ?? {})));
        const waiting = results.flatMap((r) => (r.agent_id === undefined || reported.has(r.agent_id) ? [] : [r.agent_id]));
        if (waiting.length === 0) return undefined;
        return { type: 'tool_call', id: callId(), name: view.tools.find((t) => t.endsWith('wait_agent')) ?? 'wait_agent', input: { targets: waiting, timeout_ms: 60_000 } };
      },
      // Codex's own patch format, given as the shell command it recognises and applies itself (no shell runs).
      editFile: (view, file, before, after) => {
        const patch = ['apply_patch <<\'EOF\'', '*** Begin Patch', `*** Update File: ${file}`, '@@', `-${before}`, `+${after}`, '*** End Patch', 'EOF'].join('\n');
        const name = ['exec_command', 'shell_command', 'shell'].find((n) => view.tools.includes(n)) ?? 'shell';
        const input = name === 'exec_command' ? { cmd: patch } : name === 'shell_command' ? { command: patch } : { command: ['bash', '-lc', patch] };
        return { type: 'tool_call', id: callId(), name, input };
      },
      bridgedToolName: findTool,
    };
  },
};

export const OPENCODE: AgentSetup = {
  id: 'opencode',
  subagents: 'without their calls',
  editsByItself: true,
  embeddedContext: true,
  readsLinkedFiles: true,
  async prepare({ home }, options) {
    const mock = await OpenAiChatMock.start(options);
    const config = path.join(home, '.config');
    writeJson(path.join(config, 'opencode', 'opencode.json'), {
      $schema: 'https://opencode.ai/config.json',
      autoupdate: false,
      share: 'disabled',
      model: `mock/${MOCK_MODEL}`,
      small_model: `mock/${MOCK_MODEL}`,
      permission: { bash: 'ask' },
      provider: {
        mock: { npm: '@ai-sdk/openai-compatible', name: 'Mock', options: { baseURL: `${mock.url}/v1`, apiKey: 'mock-key' }, models: { [MOCK_MODEL]: { name: 'Mock model' } } },
      },
    });
    const definition = await definitionOf('opencode', 'opencode', {
      HOME: home,
      XDG_CONFIG_HOME: config,
      XDG_DATA_HOME: path.join(home, '.local', 'share'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      XDG_STATE_HOME: path.join(home, '.local', 'state'),
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
    });
    return {
      id: 'opencode',
      name: 'OpenCode',
      mock,
      definition,
      shellTools: ['bash'],
      shell: (_view, command) => ({ type: 'tool_call', id: callId(), name: 'bash', input: { command, description: `Run ${command}` } }),
      editFile: (_view, file, before, after) => ({ type: 'tool_call', id: callId(), name: 'edit', input: { filePath: file, oldString: before, newString: after } }),
      startSubagent: (_view, description, prompt) => ({ type: 'tool_call', id: callId(), name: 'task', input: { description, prompt, subagent_type: 'general' } }),
      readFile: (_view, file) => ({ type: 'tool_call', id: callId(), name: 'read', input: { filePath: file } }),
      bridgedToolName: findTool,
    };
  },
};

export const QWEN: AgentSetup = {
  id: 'qwen-code',
  subagents: 'with their calls',
  writesThroughClient: true,
  embeddedContext: true,
  readsLinkedFiles: true,
  async prepare({ home }, options) {
    const mock = await OpenAiChatMock.start(options);
    writeJson(path.join(home, '.qwen', 'settings.json'), {
      security: { auth: { selectedType: 'openai' } },
      model: { name: MOCK_MODEL },
      // Ask the client (the default asks a model classifier first); MCP tools in the model's tool list
      // rather than behind tool_search (the mock's model does not search); no memory-extraction side runs.
      tools: { approvalMode: 'default', toolSearch: { enabled: false } },
      memory: { enableManagedAutoMemory: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true },
    });
    const definition = await definitionOf('qwen-code', 'qwen', { HOME: home, OPENAI_API_KEY: 'mock-key', OPENAI_BASE_URL: `${mock.url}/v1`, OPENAI_MODEL: MOCK_MODEL });
    return {
      id: 'qwen-code',
      name: 'Qwen Code',
      mock,
      definition,
      // Its monitor runs a command whose output lines are events; it goes with the shell.
      shellTools: ['run_shell_command', 'monitor'],
      shell: (_view, command) => ({ type: 'tool_call', id: callId(), name: 'run_shell_command', input: { command, is_background: false, description: `Run ${command}` } }),
      writeFile: (file, content) => ({ type: 'tool_call', id: callId(), name: 'write_file', input: { file_path: file, content } }),
      // Its `agent` tool runs a subagent in the background unless told not to.
      startSubagent: (_view, description, prompt) => ({ type: 'tool_call', id: callId(), name: 'agent', input: { description, prompt, subagent_type: 'general-purpose', run_in_background: false } }),
      readFile: (_view, file) => ({ type: 'tool_call', id: callId(), name: 'read_file', input: { file_path: file } }),
      bridgedToolName: findTool,
    };
  },
};
