/** How each agent's own CLI opens a fork of one of its sessions (*Continue Chat in Terminal*): the catalogue's data, validated; the command the terminal runs. */
import { cliRouteOf, forkCommandOf } from '../../src/extension/agents/agent-cli.js';
import { findBuiltin, type ResolveContext } from '../../src/extension/agents/agent-catalog.js';
import { agentsOfSettings, modelsOf, parseAgentSettings } from '../../src/extension/agents/models.js';
import { catalogOfRegistry } from '../../src/extension/agents/registry.js';
import { agentsOfModels, chatRows, terminalCommandOf } from '../../src/extension/terminal/chat-in-terminal.js';

/** A machine where only these commands are on PATH (in /bin), or given by their absolute paths. */
function machine(...onPath: string[]): ResolveContext {
  return { which: (executable) => (onPath.includes(executable) ? (executable.startsWith('/') ? executable : `/bin/${executable}`) : undefined), env: { PATH: '/bin' } };
}
const SESSION = '3f1c2a9e-7d3b-4c1e-9a57-0d5e2b7c8f10';
const chat = { agent: 0, session: SESSION, cwd: '/work', usedAt: 0 };

test("the five agents' routes, from their CLIs' help as installed: a fork where the CLI can, else why not", () => {
  const { agents, problems } = agentsOfSettings([{ id: 'claude-code' }, { id: 'codex' }, { id: 'gemini' }, { id: 'qwen-code' }, { id: 'opencode' }], machine('npx', 'claude'));
  expect(problems).toEqual([]);
  const [claude, codex, gemini, qwen, opencode] = agents.map((agent) => terminalCommandOf(agent, chat, { PATH: '/bin' }, machine('npx', 'claude').which));
  expect(claude).toEqual({ ok: true, command: 'claude', location: '/bin/claude', args: ['--resume', SESSION, '--fork-session'] });
  // The CLIs of Codex, Qwen Code and OpenCode are bins of the agent's own npm package, run as the agent is.
  expect(codex).toEqual({ ok: true, command: 'npx', location: '/bin/npx', args: ['--yes', '--package=@agentclientprotocol/codex-acp@2.6.0', '--', 'codex', 'fork', SESSION] });
  expect(qwen).toEqual({ ok: true, command: 'npx', location: '/bin/npx', args: ['--yes', '--package=@qwen-code/qwen-code@0.24.4', '--', 'qwen', '--resume', SESSION, '--fork-session'] });
  expect(opencode).toEqual({ ok: true, command: 'npx', location: '/bin/npx', args: ['--yes', '--package=opencode-ai@1.18.33', '--', 'opencode', '--session', SESSION, '--fork'] });
  expect(gemini.ok).toBe(false);
  expect(!gemini.ok && gemini.reason).toMatch(/^Gemini CLI cannot fork a session .*--resume.* continues the session itself.*change this chat's session/);
});

test("Claude Code's CLI is the one its agent runs where the agent's env names it (CLAUDE_CODE_EXECUTABLE); missing, the person is told how to get it", () => {
  const ctx = machine('npx', '/opt/claude/bin/claude');
  const [named] = agentsOfSettings([{ id: 'claude-code', env: { CLAUDE_CODE_EXECUTABLE: '/opt/claude/bin/claude' } }], ctx).agents;
  expect(terminalCommandOf(named!, chat, ctx.env, ctx.which)).toEqual({ ok: true, command: '/opt/claude/bin/claude', location: '/opt/claude/bin/claude', args: ['--resume', SESSION, '--fork-session'] });
  // Set for every process (inherited), the agent runs it too: so does the terminal.
  const [inherited] = agentsOfSettings([{ id: 'claude-code' }], ctx).agents;
  expect(terminalCommandOf(inherited!, chat, { PATH: '/bin', CLAUDE_CODE_EXECUTABLE: '/opt/claude/bin/claude' }, ctx.which)).toMatchObject({ ok: true, location: '/opt/claude/bin/claude' });
  const [plain] = agentsOfSettings([{ id: 'claude-code' }], machine('npx')).agents;
  const missing = terminalCommandOf(plain!, chat, { PATH: '/bin' }, machine('npx').which);
  expect(!missing.ok && missing.reason).toBe("Claude Code's CLI (`claude`) was not found on the agent's PATH: install Claude Code's CLI (`npm install -g @anthropic-ai/claude-code`), or set CLAUDE_CODE_EXECUTABLE in the agent's env.");
});

test('an agent command of the settings may name its CLI, validated: a bad one skips the entry naming the field', () => {
  const { agents, problems } = parseAgentSettings([
    { id: 'mine', name: 'Mine', command: 'my-agent', args: ['--acp'], cli: { program: 'my-agent', fork: ['--resume', '{session}', '--fork'] } },
    { id: 'bad', name: 'Bad', command: 'bad-agent', cli: { program: 'bad-agent', fork: ['--resume'] } },
    { id: 'worse', name: 'Worse', command: 'worse-agent', cli: { program: '' , fork: ['{session}'] } },
    { id: 'plain', name: 'Plain', command: 'plain-agent' },
  ]);
  expect(problems).toEqual([
    'symposium.agents[1]: invalid cli.fork: expected arguments with "{session}" once, got an array of 1: skipped',
    'symposium.agents[2]: invalid cli.program: expected a non-empty string, got "": skipped',
  ]);
  expect(agents.map((a) => a.id)).toEqual(['mine', 'plain']);
  const [mine, plain] = agentsOfSettings([
    { id: 'mine', name: 'Mine', command: 'my-agent', cli: { program: 'my-agent', fork: ['--resume', '{session}', '--fork'] } },
    { id: 'plain', name: 'Plain', command: 'plain-agent' },
  ], machine('my-agent')).agents;
  expect(terminalCommandOf(mine!, chat, { PATH: '/bin' }, machine('my-agent').which)).toEqual({ ok: true, command: 'my-agent', location: '/bin/my-agent', args: ['--resume', SESSION, '--fork'] });
  const none = terminalCommandOf(plain!, chat, { PATH: '/bin' }, machine('plain-agent').which);
  expect(!none.ok && none.reason).toBe('Plain names no CLI that could open its sessions (its definition has no `cli`).');
});

test("a catalogue entry's CLI route that does not validate is left out, naming its field; the entry stays", () => {
  const registry = { version: '1', agents: [{ id: 'x', name: 'X', version: '1', description: 'd', distribution: { npx: { package: 'x-acp@1', cmd: 'x-acp' } } }] };
  const { entries, problems } = catalogOfRegistry(registry, 'linux-x86_64', { x: { cli: { program: 'x', fork: ['{session}', '{session}'] } as never } });
  expect(problems).toEqual(['x.cli.fork: expected arguments with "{session}" once, got an array of 2: its CLI route is left out']);
  expect(entries.map((e) => [e.id, e.cli])).toEqual([['x', undefined]]);
  // The shipped catalogue's routes all validate.
  expect(['claude-code', 'codex', 'gemini', 'qwen-code', 'opencode'].map((id) => findBuiltin(id)?.cli !== undefined)).toEqual([true, true, true, true, true]);
});

test('the pick: each agent once, in the order the bridge names them; rows with first words, agent and when', () => {
  const settings = { agents: agentsOfSettings([{ id: 'claude-code' }, { id: 'codex' }], machine('npx')).agents, elizaDeterministic: true };
  const { definitions, settings: agents } = agentsOfModels(modelsOf(settings));
  expect(definitions.map((d) => ('mcp_server' in d ? d.mcp_server.name : 'eliza'))).toEqual(['Claude Code', 'Codex']);
  const now = 10 * 3_600_000;
  expect(chatRows([{ ...chat, agent: 1, usedAt: now - 5 * 60_000, title: 'fix the parser' }, { ...chat, agent: 0, usedAt: now - 3 * 3_600_000 }, { ...chat, agent: 7, usedAt: now }], agents, now).map(({ label, description }) => [label, description])).toEqual([
    ['fix the parser', 'Codex · 5 min ago'],
    ['a chat with Claude Code', 'Claude Code · 3 h ago'],
  ]);
});

test("a bin of the agent's package, run through npx as the agent is, whichever way npx names the package", () => {
  const cli = { program: 'tool', inPackage: true, fork: ['{session}'] };
  expect(cliRouteOf(cli, { command: 'npx', args: ['--yes', '--package=pkg@1', '--', 'pkg-acp', '--acp'] })).toEqual({ command: 'npx', args: ['--yes', '--package=pkg@1', '--', 'tool'], fork: ['{session}'] });
  expect(cliRouteOf(cli, { command: 'npx', args: ['--yes', '--', 'pkg@1', '--acp'] })).toEqual({ command: 'npx', args: ['--yes', '--package=pkg@1', '--', 'tool'], fork: ['{session}'] });
  expect(cliRouteOf(cli, { command: '/opt/pkg/bin/pkg-acp', args: [] })).toEqual({ command: 'tool', args: [], fork: ['{session}'] });
});

test('forkCommandOf: the session id is one argument whatever it holds (no shell reads it)', () => {
  const route = { command: 'cli', args: [], fork: ['--resume', '{session}'] };
  expect(forkCommandOf('A', route, 'a b; rm -rf /', {}, { PATH: '/bin' }, machine('cli').which)).toEqual({ ok: true, command: 'cli', location: '/bin/cli', args: ['--resume', 'a b; rm -rf /'] });
});
