import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { lastValueFrom, of, toArray } from 'rxjs';
import { agentIndexKey } from '../../src/agents/acp/agent-index-key.js';
import { indexKeysOf, shellOffCommand, writeSettingsFiles } from '../../src/agents/acp/shell-off.js';
import { ShellOffVariant } from '../../src/agents/acp/shell-off-variant.js';
import type { AgentSession, AgentStream, TurnInput } from '../../src/agents/agent-stream.js';
import { BUILTIN_AGENTS } from '../../src/extension/agents/agent-catalog.js';
import { createLogger } from '../../src/log/logger.js';
import type { AgentCommand, ResponsePart, ToolDefinition } from '../../src/protocol/messages.js';
import { ConversationStore } from '../../src/state/conversation-store.js';

const log = createLogger('error', () => {});
const CODEX: AgentCommand = { name: 'Codex', command: 'codex-acp', args: [], env: [{ name: 'INITIAL_AGENT_MODE', value: 'workspace-write' }] };
const noDir = (): string => {
  throw new Error('no file to write');
};

test("every agent of the catalogue whose shell is off only per process says how; Claude Code's is per session and needs none", () => {
  const switches = Object.fromEntries(BUILTIN_AGENTS.map((entry) => [entry.id, entry.shellOff !== undefined]));
  expect(switches).toMatchObject({ 'claude-code': false, codex: true, gemini: true, 'qwen-code': true, opencode: true });
});

test('JSON switches merge into what the variable holds (the agent\'s own environment first, else the inherited one): objects key by key, arrays as unions', () => {
  const own: AgentCommand = { ...CODEX, env: [...CODEX.env, { name: 'CODEX_CONFIG', value: JSON.stringify({ model: 'o9', features: { web_search: true, shell_tool: true } }) }] };
  const { command, files } = shellOffCommand(own, { json: { CODEX_CONFIG: { features: { shell_tool: false, unified_exec: false } } } }, {}, noDir);
  expect(files).toEqual([]);
  expect(command.args).toEqual([]);
  expect(command.env.find((v) => v.name === 'INITIAL_AGENT_MODE')?.value).toBe('workspace-write');
  expect(JSON.parse(command.env.find((v) => v.name === 'CODEX_CONFIG')!.value)).toEqual({ model: 'o9', features: { web_search: true, shell_tool: false, unified_exec: false } });
  expect(command.env.filter((v) => v.name === 'CODEX_CONFIG')).toHaveLength(1);

  const inherited = { OPENCODE_CONFIG_CONTENT: JSON.stringify({ permission: { edit: 'ask' }, plugin: ['a'] }) };
  const opencode = shellOffCommand({ ...CODEX, env: [] }, { json: { OPENCODE_CONFIG_CONTENT: { permission: { bash: 'deny' }, plugin: ['a', 'b'] } } }, inherited, noDir);
  expect(JSON.parse(opencode.command.env[0]!.value)).toEqual({ permission: { edit: 'ask', bash: 'deny' }, plugin: ['a', 'b'] });

  expect(() => shellOffCommand(CODEX, { json: { CODEX_CONFIG: {} } }, { CODEX_CONFIG: 'model=o9' }, noDir)).toThrow(/CODEX_CONFIG is not JSON/);
});

test('arguments are added after the agent\'s own; a file is written under the folder, named by its content, and given with its flag', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'shell-off-test-'));
  try {
    const gemini: AgentCommand = { name: 'Gemini CLI', command: 'gemini', args: ['--acp'], env: [] };
    const shellOff = { args: ['--exclude-tools', 'run_shell_command'], files: [{ flag: '--admin-policy', name: 'no-shell.toml', content: 'deny' }] };
    const first = shellOffCommand(gemini, shellOff, {}, () => dir);
    const [file] = first.files;
    expect(first.command.args).toEqual(['--acp', '--exclude-tools', 'run_shell_command', '--admin-policy', file!.path]);
    expect(path.dirname(file!.path)).toBe(dir);
    writeSettingsFiles(first.files);
    expect(readFileSync(file!.path, 'utf8')).toBe('deny');
    // The same switches name the same file: the agent's index of conversations keys on the command.
    expect(agentIndexKey(shellOffCommand(gemini, shellOff, {}, () => dir).command)).toBe(agentIndexKey(first.command));
    expect(agentIndexKey(first.command)).not.toBe(agentIndexKey(gemini));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Agents that answer a turn with which of them it was, and record what they started and disposed of. */
function fakeAgents(): { started: AgentCommand[]; disposed: AgentCommand[]; resumed: [string, string[]][]; start: (command: AgentCommand) => AgentStream } {
  const started: AgentCommand[] = [];
  const disposed: AgentCommand[] = [];
  const resumed: [string, string[]][] = [];
  const start = (command: AgentCommand): AgentStream => {
    started.push(command);
    const which = command.env.some((v) => v.name === 'CODEX_CONFIG') ? 'shell off' : 'own';
    return {
      openSession: (): AgentSession => ({ turn: () => of<ResponsePart>({ type: 'text', value: which }), close: () => {} }),
      resumeAhead: (conversations) => void resumed.push([which, conversations.map((c) => c.conversationId)]),
      dispose: () => void disposed.push(command),
    };
  };
  return { started, disposed, resumed, start };
}

const RUN_IN_TERMINAL: ToolDefinition = { name: 'run_in_terminal', description: 'Runs a command' };
const READ_FILE: ToolDefinition = { name: 'read_file', description: 'Reads a file' };
const turn = (tools: readonly ToolDefinition[]): TurnInput => ({ tools }) as unknown as TurnInput;
const answer = async (session: AgentSession, tools: readonly ToolDefinition[]): Promise<string> =>
  (await lastValueFrom(session.turn(turn(tools)).pipe(toArray()))).map((p) => (p.type === 'text' ? p.value : '')).join('');

test("a conversation offered a command tool runs in a second process, started when first needed, with the shell off; the others in the agent's own; a conversation stays where its session was", async () => {
  const agents = fakeAgents();
  const store = new ConversationStore(undefined, log);
  const switches = { json: { CODEX_CONFIG: { features: { shell_tool: false } } } };
  const variant = new ShellOffVariant(CODEX, switches, { agentSessions: store, cwd: '/w', log }, agents.start);
  expect(agents.started).toEqual([CODEX]);

  expect(await answer(variant.openSession('ask'), [READ_FILE])).toBe('own');
  expect(agents.started).toHaveLength(1);
  expect(await answer(variant.openSession('agent'), [READ_FILE, RUN_IN_TERMINAL])).toBe('shell off');
  expect(agents.started).toHaveLength(2);

  // A conversation whose session opened in one process goes on there, whatever its request now offers.
  const shellOffKey = agentIndexKey(agents.started[1]!);
  store.rememberAgentSession('began-in-ask', agentIndexKey(CODEX), 's1', '/w');
  store.rememberAgentSession('began-in-agent', shellOffKey, 's2', '/w');
  expect(await answer(variant.openSession('began-in-ask'), [RUN_IN_TERMINAL])).toBe('own');
  expect(await answer(variant.openSession('began-in-agent'), [READ_FILE])).toBe('shell off');
  // Within one session, the first turn decided.
  const session = variant.openSession('switching');
  expect(await answer(session, [READ_FILE])).toBe('own');
  expect(await answer(session, [RUN_IN_TERMINAL])).toBe('own');

  variant.dispose();
  expect(agents.disposed).toEqual(agents.started);
});

test("after a reload, each conversation resumes ahead in the process its session is of, the latest's process asked first; the bridge finds both processes' conversations by the agent's index keys", () => {
  const agents = fakeAgents();
  const switches = { json: { CODEX_CONFIG: { features: { shell_tool: false } } } };
  const command: AgentCommand = { ...CODEX, shellOff: switches };
  const [ownKey, shellOffKey] = indexKeysOf(command, true);
  expect(indexKeysOf(command, false)).toEqual([ownKey]);
  const variant = new ShellOffVariant(command, switches, { agentSessions: new ConversationStore(undefined, log), cwd: '/w', log }, agents.start);

  variant.resumeAhead([{ conversationId: 'a', agent: ownKey!, agentSession: 's1', usedAt: 1 }]);
  expect(agents.started).toHaveLength(1);
  variant.resumeAhead([
    { conversationId: 'b', agent: shellOffKey!, agentSession: 's2', usedAt: 2 },
    { conversationId: 'c', agent: ownKey!, agentSession: 's3', usedAt: 1 },
  ]);
  expect(agents.resumed).toEqual([['own', ['a']], ['shell off', ['b']], ['own', ['c']]]);
  expect(agentIndexKey(agents.started[1]!)).toBe(shellOffKey);
  variant.dispose();
});
