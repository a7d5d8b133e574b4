/** The extension's model list and agent definitions, from its settings; its log; the manifest's contract. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { confirmationMessage, AGENT_ACTION_TOOL, CONFIRMATION_TITLE, invocationResult } from '../../src/extension/confirmation/agent-action.js';
import { approvalText } from '../../src/protocol/agent-action.js';
import { createExtensionLog } from '../../src/log/extension-log.js';
import { BUILTIN_AGENTS, commandLine, findBuiltin, launchOf, type ResolveContext } from '../../src/extension/agents/agent-catalog.js';
import { agentKey, familyOf, requestConfig, agentModelId, agentsOfSettings, findModel, modelsOf, parseAgentSettings, VENDOR } from '../../src/extension/agents/models.js';
import type { LogLevel } from '../../src/log/logger.js';
import { CONTEXT_POLICY_NAMES } from '../../src/history/context-policy.js';

/** A machine where only these commands are on PATH (in /bin). */
function machine(...onPath: string[]): ResolveContext {
  return { which: (executable) => (onPath.includes(executable) ? `/bin/${executable}` : undefined), env: { PATH: '/bin' } };
}

describe('parseAgentSettings', () => {
  test('reads valid full entries, with defaults for args and env', () => {
    const { agents, problems } = parseAgentSettings([
      { id: 'claude', name: 'Claude Code', command: 'npx', args: ['@agentclientprotocol/claude-agent-acp'], env: { A: '1' } },
      { id: 'plain', name: 'Plain', command: '/bin/agent' },
    ]);
    expect(problems).toEqual([]);
    expect(agents).toEqual([
      { kind: 'command', index: 0, id: 'claude', name: 'Claude Code', command: 'npx', args: ['@agentclientprotocol/claude-agent-acp'], env: { A: '1' } },
      { kind: 'command', index: 1, id: 'plain', name: 'Plain', command: '/bin/agent', args: [], env: {} },
    ]);
  });

  test('reads built-ins named by id, with their overrides', () => {
    const { agents, problems } = parseAgentSettings([
      { id: 'claude-code' },
      { id: 'gemini', name: 'My Gemini', args: ['--model', 'x'], env: { GEMINI_API_KEY: 'k' }, version: 'latest' },
    ]);
    expect(problems).toEqual([]);
    expect(agents).toEqual([
      { kind: 'builtin', index: 0, id: 'claude-code', entry: findBuiltin('claude-code'), args: [], env: {} },
      { kind: 'builtin', index: 1, id: 'gemini', entry: findBuiltin('gemini'), name: 'My Gemini', args: ['--model', 'x'], env: { GEMINI_API_KEY: 'k' }, version: 'latest' },
    ]);
  });

  test('an entry with a command and the id of a built-in is a full entry: it replaces the built-in', () => {
    const { agents } = parseAgentSettings([{ id: 'claude-code', name: 'Mine', command: '/opt/claude-acp' }]);
    expect(agents).toEqual([{ kind: 'command', index: 0, id: 'claude-code', name: 'Mine', command: '/opt/claude-acp', args: [], env: {} }]);
  });

  test('nothing configured is no agents and no problem', () => {
    expect(parseAgentSettings(undefined)).toEqual({ agents: [], problems: [] });
    expect(parseAgentSettings([])).toEqual({ agents: [], problems: [] });
  });

  test('skips invalid entries and repeated ids, saying why', () => {
    const { agents, problems } = parseAgentSettings([
      'nope',
      { id: 'a b', name: 'x', command: 'y' },
      { id: 'ok', name: '', command: 'y', args: 'not-an-array' },
      { id: 'good', name: 'Good', command: 'g', env: { N: 1 } },
      { id: 'good', name: 'Good', command: 'g' },
      { id: 'good', name: 'Again', command: 'h' },
    ]);
    expect(agents.map((a) => a.kind === 'command' && a.name)).toEqual(['Good']);
    expect(problems).toEqual([
      'symposium.agents[0] is not an object: skipped',
      'symposium.agents[1]: invalid id (letters, digits, "_", "-" and "."): skipped',
      'symposium.agents[2]: invalid name, args (an array of strings): skipped',
      'symposium.agents[3]: invalid env (an object of strings): skipped',
      'symposium.agents[5]: the id "good" is already used: skipped',
    ]);
  });

  test('skips bad references to built-ins, naming the field', () => {
    const ids = BUILTIN_AGENTS.map((e) => e.id).join(', ');
    const { agents, problems } = parseAgentSettings([
      { id: 'no-such-agent' },
      { name: 'No id' },
      { id: 'claude-code', args: '--x', env: ['A=1'] },
      { id: 'goose', version: '1.0.0' },
      { id: 'codex', name: ' ' },
      { id: 'codex', version: '' },
      { id: 'codex' },
      { id: 'codex' },
      { id: 'codex', name: 'Codex', command: 'codex-acp' },
    ]);
    expect(agents.map((a) => [a.kind, a.id, a.index])).toEqual([['builtin', 'codex', 6]]);
    expect(problems).toEqual([
      `symposium.agents[0]: invalid command (or an id of a built-in agent: ${ids}): skipped`,
      'symposium.agents[1]: invalid id (letters, digits, "_", "-" and "."): skipped',
      'symposium.agents[2]: invalid args (an array of strings), env (an object of strings): skipped',
      'symposium.agents[3]: invalid version (a version of an npm package: this agent is a program on PATH): skipped',
      'symposium.agents[4]: invalid name: skipped',
      'symposium.agents[5]: invalid version (a version of @agentclientprotocol/codex-acp): skipped',
      'symposium.agents[7]: the id "codex" is already used: skipped',
      'symposium.agents[8]: the id "codex" is already used: skipped',
    ]);
  });

  test('a value that is not an array is reported', () => {
    expect(parseAgentSettings({ id: 'x' })).toEqual({ agents: [], problems: ['symposium.agents must be an array of agents'] });
  });
});

describe('agentsOfSettings', () => {
  test('built-ins become commands; those that cannot run here say why, in the model and the log', () => {
    const { agents, problems } = agentsOfSettings([{ id: 'claude-code', env: { ANTHROPIC_API_KEY: 'k' } }, { id: 'goose' }, { id: 'kimi', args: ['--debug'] }], machine('npx', 'kimi'));
    expect(agents).toEqual([
      {
        id: 'claude-code',
        name: 'Claude Code',
        command: 'npx',
        args: ['--yes', '--package=@agentclientprotocol/claude-agent-acp@0.101.0', '--', 'claude-agent-acp'],
        env: { ANTHROPIC_API_KEY: 'k' },
        description: findBuiltin('claude-code')!.description,
        signIn: { keyNames: ['ANTHROPIC_API_KEY'], ownSignIn: 'run `claude` in a terminal, then `/login`' },
        cli: { command: 'claude', args: [], fork: ['--resume', '{session}', '--fork-session'], variable: 'CLAUDE_CODE_EXECUTABLE', install: expect.stringMatching(/^install Claude Code's CLI/) as string },
        // Where Claude Code's own settings name its mode, for the bridge to honour.
        modeSetting: findBuiltin('claude-code')!.modeSetting!,
      },
      { id: 'goose', name: 'Goose', command: 'goose', args: ['acp'], env: {}, description: findBuiltin('goose')!.description, signIn: { keyNames: [] }, unavailable: expect.stringMatching(/^`goose` was not found on PATH: install the Goose CLI/) as string },
      { id: 'kimi', name: 'Kimi CLI', command: 'kimi', args: ['acp', '--debug'], env: {}, description: findBuiltin('kimi')!.description, signIn: { keyNames: [] } },
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^symposium\.agents\[1\]: Goose \("goose"\) is not available: `goose` was not found on PATH: install the Goose CLI/);
  });

  test('without npx, every npm agent is a model that says "not installed" and why', () => {
    const { agents, problems } = agentsOfSettings([{ id: 'gemini' }, { id: 'codex' }], machine('goose'));
    expect(agents.map((a) => [a.id, a.unavailable])).toEqual([
      ['gemini', 'npx was not found on PATH (it comes with Node.js and npm)'],
      ['codex', 'npx was not found on PATH (it comes with Node.js and npm)'],
    ]);
    expect(problems).toEqual([
      'symposium.agents[0]: Gemini CLI ("gemini") is not available: npx was not found on PATH (it comes with Node.js and npm); its model says "not installed"',
      'symposium.agents[1]: Codex ("codex") is not available: npx was not found on PATH (it comes with Node.js and npm); its model says "not installed"',
    ]);
    const [, gemini] = modelsOf({ agents, elizaDeterministic: false });
    expect(gemini!.state).toEqual({ kind: 'not-installed', reason: 'npx was not found on PATH (it comes with Node.js and npm)' });
    expect(gemini!.model.detail).toBe('not installed');
    expect(gemini!.model.tooltip).toMatch(/\nNot installed: npx was not found on PATH \(it comes with Node.js and npm\)\.$/);
  });

  test('full entries are offered whether or not their command is found (a request names a missing one)', () => {
    const { agents, problems } = agentsOfSettings([{ id: 'goose', name: 'My goose', command: '/nonexistent/goose', args: ['acp'] }], machine());
    expect(problems).toEqual([]);
    // With a built-in's id it replaces that built-in, and signs in as it does.
    expect(agents).toEqual([{ id: 'goose', name: 'My goose', command: '/nonexistent/goose', args: ['acp'], env: {}, signIn: { keyNames: [] } }]);
    const claude = agentsOfSettings([{ id: 'claude-code', name: 'Claude Code', command: 'node', args: ['claude-agent-acp.js'] }], machine()).agents[0];
    expect(claude?.signIn).toEqual({ keyNames: ['ANTHROPIC_API_KEY'], ownSignIn: 'run `claude` in a terminal, then `/login`' });
    expect(agentsOfSettings([{ id: 'mine', name: 'Mine', command: 'mine' }], machine()).agents[0]?.signIn).toBeUndefined();
  });

  test('a command written from the home folder is spawned as a path, on each platform', () => {
    const posix = { ...machine(), home: '/home/ann', platform: 'linux' as const };
    expect(agentsOfSettings([{ id: 'a', name: 'A', command: '~/bin/agent' }], posix).agents[0]?.command).toBe('/home/ann/bin/agent');
    const windows = { ...machine(), home: 'C:\\Users\\Ann Lee', platform: 'win32' as const };
    expect(agentsOfSettings([{ id: 'a', name: 'A', command: '~\\agents\\a.exe' }], windows).agents[0]?.command).toBe('C:\\Users\\Ann Lee\\agents\\a.exe');
  });
});

describe('modelsOf', () => {
  const agents = agentsOfSettings([{ id: 'scripted', name: 'Scripted', command: 'node', args: ['agent.js'], env: { K: 'V' } }], machine('node')).agents;

  test('Eliza first, then one model per agent, all user-selectable', () => {
    const models = modelsOf({ agents, elizaDeterministic: false });
    expect(models.map((m) => [m.model.id, m.model.name])).toEqual([
      ['symposium-eliza', 'Eliza (built-in)'],
      ['symposium-agent-scripted', 'Scripted'],
    ]);
    for (const { model } of models) {
      expect(model.isUserSelectable).toBe(true);
      expect(model.capabilities).toEqual({ toolCalling: true, imageInput: false });
      expect(model.maxInputTokens).toBeGreaterThan(0);
      expect(model.maxOutputTokens).toBeGreaterThan(0);
      expect(model.family).not.toBe('');
      expect(model.version).not.toBe('');
    }
  });

  test('agent definitions as the protocol wants them', () => {
    const [eliza, scripted] = modelsOf({ agents, elizaDeterministic: true });
    expect(eliza!.agent).toEqual({ eliza: { deterministic: true } });
    expect(scripted!.agent).toEqual({ mcp_server: { name: 'Scripted', command: 'node', args: ['agent.js'], env: [{ name: 'K', value: 'V' }] } });
    expect(scripted!.model.tooltip).toBe('node agent.js\nReady.');
    expect(scripted!.model.detail).toBe('ready');
    expect(scripted!.state).toEqual({ kind: 'ready' });
  });

  test('a built-in named by id: model id from its id, its resolved command in the tooltip and the definition', () => {
    const resolved = agentsOfSettings([{ id: 'gemini', name: 'Gemini (work)', env: { GEMINI_API_KEY: 'k' } }], machine('npx')).agents;
    const [, gemini] = modelsOf({ agents: resolved, elizaDeterministic: false });
    expect(gemini!.model.id).toBe('symposium-agent-gemini');
    expect(gemini!.model.name).toBe('Gemini (work)');
    expect(gemini!.model.tooltip).toBe(`${findBuiltin('gemini')!.description}: npx --yes --package=@google/gemini-cli@0.61.0 -- gemini --acp\nReady.`);
    expect(gemini!.agent).toEqual({
      mcp_server: { name: 'Gemini (work)', command: 'npx', args: ['--yes', '--package=@google/gemini-cli@0.61.0', '--', 'gemini', '--acp'], env: [{ name: 'GEMINI_CLI_TRUST_WORKSPACE', value: 'true' }, { name: 'GEMINI_API_KEY', value: 'k' }], shellOff: findBuiltin('gemini')!.shellOff! },
    });
  });

  test('what the bridge learned makes one model per agent model, each selecting it; images and context follow', () => {
    const [, plain] = modelsOf({ agents, elizaDeterministic: false });
    const learned = new Map([
      [
        agentKey(plain!.agent),
        { imageInput: true, contextWindow: 150_000, models: { configId: 'model', current: 'fast', choices: [{ value: 'fast', name: 'Fast' }, { value: 'deep', name: 'Deep', description: 'Thinks longer' }] } },
      ],
    ]);
    const settings = { agents, elizaDeterministic: false, learned };
    const models = modelsOf(settings).slice(1);
    // The agent's default keeps the agent's id and family: Cline stores both, and still finds it.
    expect(models.map((m) => [m.model.id, m.model.family, m.model.name, m.config])).toEqual([
      ['symposium-agent-scripted', 'acp-scripted', 'Scripted · Fast', { model: 'fast' }],
      ['symposium-agent-scripted/deep', 'acp-scripted-deep', 'Scripted · Deep', { model: 'deep' }],
    ]);
    for (const { model, agent } of models) {
      expect(model.capabilities.imageInput).toBe(true);
      expect(model.maxInputTokens).toBe(150_000);
      expect(agent).toEqual(plain!.agent);
    }
    // Chats begun before the models were learned keep working: the plain id runs the agent's default.
    expect(findModel(settings, 'symposium-agent-scripted')).toMatchObject({ agent: plain!.agent, config: { model: 'fast' } });
    expect(findModel(settings, 'symposium-agent-scripted/deep')?.config).toEqual({ model: 'deep' });
  });

  test("an agent's other options become per-model options (in no group: the picker shows the agent's name), and a request sets only what the agent offers", () => {
    const [, plain] = modelsOf({ agents, elizaDeterministic: false });
    const mode = { configId: 'mode', name: 'Mode', current: 'ask', choices: [{ value: 'ask', name: 'Ask' }, { value: 'code', name: 'Code', description: 'Edits files' }] };
    const learned = new Map([[agentKey(plain!.agent), { imageInput: false, models: { configId: 'model', current: 'fast', choices: [{ value: 'fast', name: 'Fast' }] }, options: [mode] }]]);
    const [, entry] = modelsOf({ agents, elizaDeterministic: false, learned });
    expect(entry!.model.configurationSchema).toEqual({
      type: 'object',
      properties: { mode: { type: 'string', title: 'Mode', enum: ['ask', 'code'], enumItemLabels: ['Ask', 'Code'], enumDescriptions: ['', 'Edits files'], default: 'ask' } },
    });
    expect(requestConfig(entry!, { mode: 'code' })).toEqual({ mode: 'code', model: 'fast' });
    // Values and options the agent does not offer, and the entry's own model, are not the consumer's to change.
    expect(requestConfig(entry!, { mode: 'yolo', sandbox: 'off', model: 'other' })).toEqual({ model: 'fast' });
    expect(requestConfig(entry!, undefined)).toEqual({ model: 'fast' });
    // VS Code sends the default where the person chose nothing, and keeps no choice equal to it: no choice.
    expect(requestConfig(entry!, { mode: 'ask' })).toEqual({ model: 'fast' });
    // Copilot picks its prompts by model family: the agent's model names must not lead it, but Cline tells models apart by it.
    expect(entry!.model.family).toBe('acp-scripted');
  });

  test('every agent has a family of its own, which no consumer keys its prompts on', () => {
    expect(familyOf('claude-code')).toBe('acp-claude-code');
    expect(familyOf('claude-code', 'claude-sonnet-4.5')).toBe('acp-claude-code-claude-sonnet-4.5');
    // Copilot looks for these anywhere in a family (tool schemas and edits "for Gemini"): written without vowels.
    expect(familyOf('gemini')).toBe('acp-gmn');
    expect(familyOf('x', 'Gemini-2.5-pro')).toBe('acp-x-Gmn-2.5-pro');
    expect(familyOf('grok-code')).toBe('acp-grk-code');
    // Roo Code splits a selection at "/".
    expect(familyOf('opencode', 'anthropic/claude sonnet')).toBe('acp-opencode-anthropic-claude-sonnet');
    const families = modelsOf({ agents: [agents[0]!, { ...agents[0]!, id: 'other', name: 'Other' }], elizaDeterministic: false }).map((m) => m.model.family);
    expect(new Set(families).size).toBe(families.length);
    for (const family of families) expect(family).not.toMatch(/^(claude|gpt|o1|o3|o4|gemini|grok|Anthropic|OpenAI)/);
  });

  test("learned information is keyed by a digest of the agent's definition without its environment (an API key set later changes nothing)", () => {
    const [, plain] = modelsOf({ agents, elizaDeterministic: false });
    expect(agentKey(plain!.agent)).toMatch(/^[0-9a-f]{64}$/);
    const [, keyed] = modelsOf({ agents: agents.map((a) => ({ ...a, env: { ...a.env, ANTHROPIC_API_KEY: 'sk-secret' } })), elizaDeterministic: false });
    expect(keyed!.agent).not.toEqual(plain!.agent);
    expect(agentKey(keyed!.agent)).toBe(agentKey(plain!.agent));
    const [, other] = modelsOf({ agents: agents.map((a) => ({ ...a, args: [...a.args, '--other'] })), elizaDeterministic: false });
    expect(agentKey(other!.agent)).not.toBe(agentKey(plain!.agent));
  });

  test('an agent that asked to sign in says so in every model of it, with its methods, until it signed in', () => {
    const [, plain] = modelsOf({ agents, elizaDeterministic: false });
    const methods = [{ id: 'oauth', name: 'Sign in' }, { id: 'login', name: 'Log in in a terminal', terminal: { args: ['--login'], env: {} } }];
    const info = (needed: boolean) => ({ imageInput: false, signIn: { needed, methods }, models: { configId: 'model', current: 'a', choices: [{ value: 'a', name: 'A' }, { value: 'b', name: 'B' }] } });
    const needed = modelsOf({ agents, elizaDeterministic: false, learned: new Map([[agentKey(plain!.agent), info(true)]]) }).slice(1);
    expect(needed.map((m) => [m.model.detail, m.state.kind])).toEqual([
      ["sign-in needed · the agent's default", 'sign-in'],
      ['sign-in needed', 'sign-in'],
    ]);
    expect(needed[0]!.model.tooltip).toMatch(/\nSign-in needed \(Sign in, Log in in a terminal\): the next request offers to sign in\.$/);
    const done = modelsOf({ agents, elizaDeterministic: false, learned: new Map([[agentKey(plain!.agent), info(false)]]) }).slice(1);
    expect(done.map((m) => m.model.detail)).toEqual(["ready · the agent's default", 'ready']);
  });

  test('learned information about another agent changes nothing', () => {
    const learned = new Map([['{"other":1}', { imageInput: true, models: { configId: 'model', current: 'a', choices: [{ value: 'a', name: 'A' }] } }]]);
    expect(modelsOf({ agents, elizaDeterministic: false, learned }).map((m) => m.model.id)).toEqual(['symposium-eliza', 'symposium-agent-scripted']);
  });

  test('findModel follows the settings', () => {
    expect(findModel({ agents, elizaDeterministic: false }, agentModelId({ id: 'scripted' }))?.model.name).toBe('Scripted');
    expect(findModel({ agents: [], elizaDeterministic: false }, 'symposium-agent-scripted')).toBeUndefined();
    expect(findModel({ agents: [], elizaDeterministic: false }, 'symposium-eliza')?.agent).toEqual({ eliza: { deterministic: false } });
  });
});

describe('the agent-action confirmation', () => {
  test('a command', () => {
    expect(confirmationMessage({ kind: 'execute', title: 'touch x', raw_input: { command: 'touch x' } })).toBe('Allow the agent to run `touch x`?');
    expect(confirmationMessage({ kind: 'execute', title: 't', raw_input: { command: ['git', 'status'] } })).toBe('Allow the agent to run `git status`?');
    expect(confirmationMessage({ kind: 'execute', title: 't', raw_input: { command: 'echo `date`' } })).toBe('Allow the agent to run `` echo `date` ``?');
  });

  test('a title, with the kind when it says something', () => {
    expect(confirmationMessage({ kind: 'edit', title: 'Write notes.md', raw_input: { file_path: 'notes.md' } })).toBe('Allow the agent to write notes.md (edit)?');
    // A title is markdown's text: an MCP tool's name keeps its underscores.
    expect(confirmationMessage({ kind: 'other', title: 'mcp__vscode-tools-1a__get_weather', raw_input: {} })).toBe('Allow the agent to mcp\\_\\_vscode-tools-1a\\_\\_get\\_weather?');
    expect(confirmationMessage({ kind: 'other', title: 'delete everything', raw_input: null })).toBe('Allow the agent to delete everything?');
    expect(confirmationMessage({ kind: 'other', title: 'README edits', raw_input: null })).toBe('Allow the agent to README edits?');
  });

  test("a subagent's action names the subagent that asks", () => {
    expect(confirmationMessage({ kind: 'execute', title: 'touch x', raw_input: { command: 'touch x' }, subagent: 'Alpha survey' })).toBe('Alpha survey (a subagent) wants to run `touch x`. Allow it?');
    expect(confirmationMessage({ kind: 'edit', title: 'Write notes.md', raw_input: {}, subagent: 'Fix *all*\n the docs' })).toBe('Fix \\*all\\* the docs (a subagent) wants to write notes.md (edit). Allow it?');
    // A name that is no text names nobody: the agent asks.
    expect(confirmationMessage({ kind: 'execute', title: 't', raw_input: { command: 'ls' }, subagent: 42 })).toBe('Allow the agent to run `ls`?');
  });

  test('nothing to go on', () => {
    expect(confirmationMessage(undefined)).toBe('Allow the agent to act?');
    expect(confirmationMessage({})).toBe('Allow the agent to act?');
  });

  test('texts', () => {
    expect(AGENT_ACTION_TOOL).toBe('symposium-agent-action');
    expect(CONFIRMATION_TITLE).toBe('Allow agent action?');
  });

  test('the confirmed tool returns the approval of the action it was called for, and only of that', () => {
    expect(invocationResult({ kind: 'execute', title: 't', raw_input: null, action_id: 'a1' })).toBe(approvalText('a1'));
    expect(invocationResult({ kind: 'execute', title: 't', raw_input: null })).not.toContain('allowed');
    expect(invocationResult({ action_id: 42 })).not.toContain('allowed');
    expect(invocationResult(undefined)).not.toContain('allowed');
  });
});

describe('createExtensionLog', () => {
  function channel() {
    const lines: string[] = [];
    return { lines, error: (m: string) => lines.push(`E ${m}`), warn: (m: string) => lines.push(`W ${m}`), info: (m: string) => lines.push(`I ${m}`) };
  }

  test('filters by the level setting; debug and trace go out as marked info lines', () => {
    const out = channel();
    let level: LogLevel = 'info';
    const log = createExtensionLog(out, () => level);
    log.debug('hidden');
    log.info('shown');
    level = 'trace';
    log.debug('d');
    log.trace('t');
    log.error('e');
    expect(out.lines).toEqual(['I shown', 'I [debug] d', 'I [trace] t', 'E e']);
  });

  test("bridge lines keep the bridge's level, without its timestamp", () => {
    const out = channel();
    const log = createExtensionLog(out, () => 'error');
    log.bridgeLine('[2026-11-21T10:00:00.000Z warn] agent x exited');
    log.bridgeLine('[2026-11-21T10:00:00.000Z debug] detail');
    log.bridgeLine('symposium-lm: crashed');
    expect(out.lines).toEqual(['W bridge: agent x exited', 'I [debug] bridge: detail', 'I bridge: symposium-lm: crashed']);
  });
});

describe('package.json, the extension manifest', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
    publisher: string;
    name: string;
    main: string;
    engines: { vscode: string };
    contributes: {
      languageModelChatProviders: { vendor: string; displayName: string; managementCommand: string }[];
      languageModelTools: { name: string; inputSchema: { properties: Record<string, unknown> } }[];
      mcpServerDefinitionProviders: { id: string; label: string }[];
      commands: { command: string }[];
      walkthroughs: { id: string; steps: { id: string; description: string; media: { markdown?: string }; completionEvents: string[] }[] }[];
      configuration: { properties: Record<string, { default: unknown; enum?: unknown[]; items?: AgentItemsSchema }> };
    };
  };
  type ObjectSchema = { required: string[]; properties: Record<string, { enum?: string[]; markdownEnumDescriptions?: string[] }> };
  type AgentItemsSchema = { anyOf: ObjectSchema[]; defaultSnippets: { body: Record<string, unknown> }[] };

  test('declares the provider, the tool, the commands and the settings the code uses', () => {
    expect(pkg.publisher).toBe('symposium');
    expect(pkg.name).toBe('symposium-lm');
    expect(pkg.main).toBe('./dist/extension/extension.cjs');
    expect(pkg.engines.vscode).toBe('^1.106.0');
    expect(pkg.contributes.languageModelChatProviders).toEqual([{ vendor: VENDOR, displayName: 'Symposium', managementCommand: 'symposium.manageAgents' }]);
    expect(pkg.contributes.languageModelTools.map((t) => t.name)).toEqual([AGENT_ACTION_TOOL]);
    expect(Object.keys(pkg.contributes.languageModelTools[0]!.inputSchema.properties)).toEqual(['kind', 'title', 'raw_input', 'action_id', 'subagent']);
    // VS Code 1.139 offers an extension's tool to Copilot's agent mode only when it can be referenced in prompts.
    expect(pkg.contributes.languageModelTools[0]).toMatchObject({ canBeReferencedInPrompt: true, toolReferenceName: expect.stringMatching(/^[\w-]+$/) as unknown });
    // The provider of the MCP server whose prompts are the agent's slash commands (COMMAND_PROMPTS_PROVIDER).
    expect(pkg.contributes.mcpServerDefinitionProviders.map((p) => p.id)).toEqual(['symposium.agentCommands']);
    expect(pkg.contributes.commands.map((c) => c.command).sort()).toEqual([
      'symposium.agentCommands',
      'symposium.allowChatWithoutSignIn',
      'symposium.continueAgentSession',
      'symposium.continueChatInTerminal',
      'symposium.enableModels',
      'symposium.manageAgents',
      'symposium.restartBridge',
      'symposium.setAgentApiKey',
      'symposium.showLog',
    ]);
    const settings = pkg.contributes.configuration.properties;
    expect(Object.keys(settings).sort()).toEqual([
      'symposium.agentHost',
      'symposium.agentHostIdleMinutes',
      'symposium.agentToolCallTimeoutMinutes',
      'symposium.agents',
      'symposium.askAgentQuestionsInChat',
      'symposium.consumerTools',
      'symposium.contextPolicy',
      'symposium.eliza.deterministic',
      'symposium.enableExperimentalLM',
      'symposium.logLevel',
      'symposium.registry',
      'symposium.resumeRecentChats',
      'symposium.reviewAgentEdits',
      'symposium.runAgentCommandsInTerminal',
      'symposium.silenceNoticeSeconds',
      'symposium.startNotice',
    ]);
    // The setting's values are the bridge's --context policies, and their former names.
    expect(settings['symposium.contextPolicy']!.enum).toEqual([...CONTEXT_POLICY_NAMES]);
    expect(settings['symposium.contextPolicy']!.default).toBe('user');
    expect(settings['symposium.enableExperimentalLM']!.default).toBe(false);
    expect(settings['symposium.logLevel']!.default).toBe('info');
    expect(settings['symposium.eliza.deterministic']!.default).toBe(false);
    expect(settings['symposium.startNotice']!.default).toBe(true);
    expect(settings['symposium.reviewAgentEdits']!.default).toBe(true);
    expect(settings['symposium.askAgentQuestionsInChat']!.default).toBe(true);
    expect(settings['symposium.runAgentCommandsInTerminal']!.default).toBe(true);
  });

  test("the first run's walkthrough: its buttons run declared commands, its steps tick off by events, the .vsix carries its media", () => {
    const [walkthrough, ...others] = pkg.contributes.walkthroughs;
    expect(others).toEqual([]);
    expect(walkthrough!.steps.map((s) => s.id)).toEqual(['enable', 'copilot', 'agents', 'chat']);
    const declared = new Set(pkg.contributes.commands.map((c) => c.command));
    const buttons = walkthrough!.steps.flatMap((s) => [...s.description.matchAll(/\]\(command:([\w.]+)\)/g)].map((m) => m[1]!));
    expect(buttons).toEqual(['symposium.enableModels', 'symposium.allowChatWithoutSignIn', 'symposium.manageAgents', 'workbench.action.chat.open', 'symposium.continueAgentSession']);
    for (const command of buttons.filter((c) => c.startsWith('symposium.'))) expect(declared).toContain(command);
    for (const step of walkthrough!.steps) expect(step.completionEvents.length).toBeGreaterThan(0);
    const ignore = readFileSync('.vscodeignore', 'utf8');
    for (const step of walkthrough!.steps) {
      expect(existsSync(step.media.markdown!)).toBe(true);
      expect(ignore).toContain(`!${path.dirname(step.media.markdown!)}/*.md`);
    }
  });

  test('symposium.agents documents both entry forms, and its built-in ids are the catalog\'s', () => {
    const items = pkg.contributes.configuration.properties['symposium.agents']!.items!;
    const [builtin, full] = items.anyOf;
    expect(builtin!.required).toEqual(['id']);
    expect(Object.keys(builtin!.properties).sort()).toEqual(['args', 'env', 'id', 'name', 'version']);
    expect(builtin!.properties.id!.enum).toEqual(BUILTIN_AGENTS.map((e) => e.id));
    const descriptions = builtin!.properties.id!.markdownEnumDescriptions!;
    BUILTIN_AGENTS.forEach((entry, i) => expect(descriptions[i]).toContain(commandLine(launchOf(entry))));
    expect(full!.required).toEqual(['id', 'name', 'command']);
    expect(Object.keys(full!.properties).sort()).toEqual(['args', 'cli', 'command', 'env', 'id', 'name']);
    expect(items.defaultSnippets.map((s) => s.body.id)).toEqual([`\${1|${BUILTIN_AGENTS.map((e) => e.id).join(',')}|}`, '$1']);
  });
});
