/** The built-in agents and how they resolve to a command: distributions, overrides, PATH lookups. */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  BUILTIN_AGENTS,
  commandLine,
  distributionLabel,
  expandHome,
  findBuiltin,
  findOnPath,
  launchOf,
  resolveBuiltin,
  type Env,
  type ResolveContext,
} from '../../src/extension/agents/agent-catalog.js';
import type { CatalogEntry } from '../../src/extension/agents/registry.js';

const npxEntry: CatalogEntry = {
  id: 'npm-agent',
  name: 'Npm agent',
  description: 'an agent from npm',
  distribution: { kind: 'npx', package: '@scope/agent-acp', version: '1.2.3', bin: 'agent-acp', args: ['--acp'] },
  auth: 'none',
  env: { MODE: 'acp', KEEP: 'yes' },
};
const binaryEntry: CatalogEntry = {
  id: 'bin-agent',
  name: 'Binary agent',
  description: 'an agent on PATH',
  distribution: { kind: 'binary', executable: 'bin-agent', args: ['acp'] },
  auth: 'none',
  install: 'install it from example.org',
};

/** `which` over a fixed table of directories → executables, reading PATH from the env it is given. */
function fakeWhich(files: Record<string, string[]>) {
  const calls: { executable: string; path: string | undefined }[] = [];
  const which = (executable: string, env: Env) => {
    calls.push({ executable, path: env.PATH });
    for (const dir of (env.PATH ?? '').split(':')) if (files[dir]?.includes(executable)) return `${dir}/${executable}`;
    return undefined;
  };
  return { which, calls };
}

describe('the built-in catalog', () => {
  test('ids are unique and usable in model ids; every entry says how to sign in', () => {
    const ids = BUILTIN_AGENTS.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const entry of BUILTIN_AGENTS) {
      expect(entry.id).toMatch(/^[\w.-]+$/);
      expect(entry.name.trim()).not.toBe('');
      expect(entry.auth.trim()).not.toBe('');
      // npm agents are pinned to a tested version and name their bin (most differ from the package name).
      if (entry.distribution.kind === 'npx') {
        expect(entry.distribution.version).toMatch(/^\d+\.\d+\.\d+$/);
        expect(entry.distribution.bin).toBeDefined();
      } else {
        expect(entry.install).toBeDefined();
      }
    }
    expect(ids).toEqual(expect.arrayContaining(['claude-code', 'codex', 'gemini']));
  });

  test('the launch commands of the well-known agents', () => {
    const line = (id: string) => commandLine(launchOf(findBuiltin(id)!));
    expect(line('claude-code')).toBe('npx --yes --package=@agentclientprotocol/claude-agent-acp@0.101.0 -- claude-agent-acp');
    expect(line('codex')).toBe('npx --yes --package=@agentclientprotocol/codex-acp@2.6.0 -- codex-acp');
    expect(line('gemini')).toBe('npx --yes --package=@google/gemini-cli@0.61.0 -- gemini --acp');
    expect(line('goose')).toBe('goose acp');
    expect(findBuiltin('no-such-agent')).toBeUndefined();
  });

  test('menu labels', () => {
    expect(distributionLabel(findBuiltin('claude-code')!)).toBe('npx @agentclientprotocol/claude-agent-acp');
    expect(distributionLabel(binaryEntry)).toBe('bin-agent on PATH');
  });
});

describe('launchOf', () => {
  test('an npm agent runs through npx, non-interactively, with its bin named', () => {
    expect(launchOf(npxEntry)).toEqual({ command: 'npx', args: ['--yes', '--package=@scope/agent-acp@1.2.3', '--', 'agent-acp', '--acp'], env: { MODE: 'acp', KEEP: 'yes' } });
  });

  test('without a bin or a version, npx runs the package itself, unpinned', () => {
    const entry: CatalogEntry = { ...npxEntry, distribution: { kind: 'npx', package: 'plain-acp', args: [] } };
    expect(launchOf(entry).args).toEqual(['--yes', '--', 'plain-acp']);
  });

  test('overrides: arguments go after the built-in ones, env merges over its own, version replaces the pin', () => {
    const launch = launchOf(npxEntry, { args: ['--model', 'big'], env: { MODE: 'debug', TOKEN: 't' }, version: 'latest' });
    expect(launch).toEqual({
      command: 'npx',
      args: ['--yes', '--package=@scope/agent-acp@latest', '--', 'agent-acp', '--acp', '--model', 'big'],
      env: { MODE: 'debug', KEEP: 'yes', TOKEN: 't' },
    });
    expect(launchOf(binaryEntry, { args: ['--verbose'], env: { A: '1' } })).toEqual({ command: 'bin-agent', args: ['acp', '--verbose'], env: { A: '1' } });
  });
});

describe('resolveBuiltin', () => {
  const env = { PATH: '/usr/bin:/opt/bin', HOME: '/home/u' };

  test('a binary resolves when it is on PATH', () => {
    const { which } = fakeWhich({ '/opt/bin': ['bin-agent'] });
    expect(resolveBuiltin(binaryEntry, {}, { which, env })).toEqual({ ok: true, launch: { command: 'bin-agent', args: ['acp'], env: {} }, location: '/opt/bin/bin-agent' });
  });

  test('a binary not on PATH does not, and the reason says how to install it', () => {
    const { which } = fakeWhich({ '/usr/bin': ['npx'] });
    const resolution = resolveBuiltin(binaryEntry, {}, { which, env });
    expect(resolution).toEqual({ ok: false, launch: { command: 'bin-agent', args: ['acp'], env: {} }, reason: '`bin-agent` was not found on PATH: install it from example.org' });
  });

  test('an npm agent resolves when npx is on PATH, whether or not its package is installed', () => {
    const { which, calls } = fakeWhich({ '/usr/bin': ['npx'] });
    const resolution = resolveBuiltin(npxEntry, {}, { which, env });
    expect(resolution.ok && resolution.location).toBe('/usr/bin/npx');
    expect(calls.map((c) => c.executable)).toEqual(['npx']);
  });

  test('an npm agent without npx does not', () => {
    const { which } = fakeWhich({ '/opt/bin': ['agent-acp'] });
    const resolution = resolveBuiltin(npxEntry, {}, { which, env });
    expect(resolution.ok).toBe(false);
    expect(!resolution.ok && resolution.reason).toBe('npx was not found on PATH (it comes with Node.js and npm)');
  });

  test("the lookup uses the agent's PATH: the user's env overrides the inherited one", () => {
    const { which, calls } = fakeWhich({ '/custom/bin': ['bin-agent'] });
    const ctx: ResolveContext = { which, env };
    expect(resolveBuiltin(binaryEntry, {}, ctx).ok).toBe(false);
    const resolution = resolveBuiltin(binaryEntry, { env: { PATH: '/custom/bin' } }, ctx);
    expect(resolution.ok && resolution.location).toBe('/custom/bin/bin-agent');
    expect(calls.map((c) => c.path)).toEqual(['/usr/bin:/opt/bin', '/custom/bin']);
    // Only the user's env goes to the agent: the inherited environment is the bridge's business.
    expect(resolution.launch.env).toEqual({ PATH: '/custom/bin' });
  });
});

describe('commandLine', () => {
  test('quotes words with spaces and empty words', () => {
    expect(commandLine({ command: '/opt/My Agent/agent', args: ['--name', 'a b', '', 'x'] })).toBe('"/opt/My Agent/agent" --name "a b" "" x');
  });
});

describe('findOnPath', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'symposium-which-'));
    for (const sub of ['a', 'b']) mkdirSync(path.join(dir, sub));
    writeFileSync(path.join(dir, 'a', 'tool'), '#!/bin/sh\n');
    chmodSync(path.join(dir, 'a', 'tool'), 0o644); // not executable
    writeFileSync(path.join(dir, 'b', 'tool'), '#!/bin/sh\n');
    chmodSync(path.join(dir, 'b', 'tool'), 0o755);
    mkdirSync(path.join(dir, 'a', 'folder'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const posixOnly = process.platform === 'win32' ? test.skip : test;

  posixOnly('finds the first executable file on PATH, skipping files that are not executable and directories', () => {
    const PATH = [path.join(dir, 'a'), '', path.join(dir, 'b')].join(':');
    expect(findOnPath('tool', { PATH })).toBe(path.join(dir, 'b', 'tool'));
    expect(findOnPath('folder', { PATH })).toBeUndefined();
    expect(findOnPath('missing', { PATH })).toBeUndefined();
    expect(findOnPath('tool', {})).toBeUndefined();
  });

  posixOnly('an absolute path is checked as it is; a relative one is not guessed', () => {
    expect(findOnPath(path.join(dir, 'b', 'tool'), {})).toBe(path.join(dir, 'b', 'tool'));
    expect(findOnPath(path.join(dir, 'a', 'tool'), {})).toBeUndefined();
    expect(findOnPath('b/tool', { PATH: dir })).toBeUndefined();
    expect(findOnPath('', { PATH: dir })).toBeUndefined();
  });

  test('Windows: PATH and PATHEXT in any case, extensions tried in order', () => {
    const files = new Set(['C:\\node\\npx.cmd', 'C:\\node\\npx', 'C:\\tools\\goose.exe']);
    const options = { platform: 'win32' as const, isExecutable: (file: string) => files.has(file) };
    const env = { Path: 'C:\\tools;C:\\node', PathExt: '.EXE;.CMD' };
    expect(findOnPath('npx', env, options)).toBe('C:\\node\\npx.cmd');
    expect(findOnPath('goose', env, options)).toBe('C:\\tools\\goose.exe');
    expect(findOnPath('goose.exe', env, options)).toBe('C:\\tools\\goose.exe');
    expect(findOnPath('C:\\tools\\goose', env, options)).toBe('C:\\tools\\goose.exe');
    expect(findOnPath('kimi', env, options)).toBeUndefined();
  });
});

describe('paths on each platform (the platform injected)', () => {
  test('Windows: PATH folders with spaces and drive letters, in either slash', () => {
    const files = new Set(['C:\\Program Files\\nodejs\\npx.cmd', 'D:\\my tools\\agent.exe']);
    const options = { platform: 'win32' as const, isExecutable: (file: string) => files.has(file) };
    const env = { PATH: 'C:\\Program Files\\nodejs;D:\\my tools' };
    expect(findOnPath('npx', env, options)).toBe('C:\\Program Files\\nodejs\\npx.cmd');
    expect(findOnPath('D:\\my tools\\agent', env, options)).toBe('D:\\my tools\\agent.exe');
  });

  test('~ at the start of a command is the home folder (no shell expands it for us)', () => {
    expect(expandHome('~/bin/my agent', '/home/ann', 'linux')).toBe('/home/ann/bin/my agent');
    expect(expandHome('~/bin/agent', '/Users/ann', 'darwin')).toBe('/Users/ann/bin/agent');
    expect(expandHome('~', '/home/ann', 'linux')).toBe('/home/ann');
    expect(expandHome('~\\bin\\agent.exe', 'C:\\Users\\Ann Lee', 'win32')).toBe('C:\\Users\\Ann Lee\\bin\\agent.exe');
    expect(expandHome('~/bin/agent.exe', 'C:\\Users\\ann', 'win32')).toBe('C:\\Users\\ann\\bin\\agent.exe');
  });

  test('other commands are left alone: ~user, a ~ inside, a backslash on POSIX, no home known', () => {
    expect(expandHome('~bob/agent', '/home/ann', 'linux')).toBe('~bob/agent');
    expect(expandHome('/opt/~/agent', '/home/ann', 'linux')).toBe('/opt/~/agent');
    expect(expandHome('~\\agent', '/home/ann', 'linux')).toBe('~\\agent');
    expect(expandHome('~/agent', undefined, 'linux')).toBe('~/agent');
    expect(expandHome('agent', '/home/ann', 'linux')).toBe('agent');
  });
});

describe('what the catalogue tells agents so that VS Code tools and approvals reach them', () => {
  const envOf = (id: string): Readonly<Record<string, string>> => launchOf(findBuiltin(id)!).env;

  test('Gemini CLI is told the workspace is trusted, which holds since the extension runs only in trusted workspaces', () => {
    expect(envOf('gemini')).toMatchObject({ GEMINI_CLI_TRUST_WORKSPACE: 'true' });
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { capabilities?: { untrustedWorkspaces?: { supported?: unknown } } };
    // Declaring support for untrusted workspaces would make the variable above a lie.
    expect(manifest.capabilities?.untrustedWorkspaces?.supported ?? false).toBe(false);
  });

  test("Qwen Code's MCP pool is off and its MCP discovery blocks session/new; Codex starts where approvals reach the client", () => {
    expect(envOf('qwen-code')).toMatchObject({ QWEN_SERVE_NO_MCP_POOL: '1', QWEN_CODE_LEGACY_MCP_BLOCKING: '1' });
    expect(envOf('codex')).toMatchObject({ INITIAL_AGENT_MODE: 'workspace-write' });
    // The user's env still wins.
    expect(launchOf(findBuiltin('codex')!, { env: { INITIAL_AGENT_MODE: 'agent' } }).env.INITIAL_AGENT_MODE).toBe('agent');
  });
});
