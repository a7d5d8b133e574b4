/** The catalogue in the ACP agent registry's format (`src/extension/agents/registry.ts`), with the platform injected. */
import { BUILTIN_AGENTS, launchOf, resolveBuiltin, type ResolveContext } from '../../src/extension/agents/agent-catalog.js';
import { catalogOfRegistry, platformTarget, readRegistryFile, splitPackage, withRegistry } from '../../src/extension/agents/registry.js';
import { REGISTRY_SNAPSHOT } from '../../src/extension/agents/registry-snapshot.js';

/** A registry.json as agentclientprotocol/registry builds it (fields from its FORMAT.md and agent.schema.json). */
const registry = {
  version: '1.0.0',
  agents: [
    { id: 'npm-one', name: 'Npm One', version: '1.2.3', description: 'From npm', icon: 'https://example.org/npm-one.svg', distribution: { npx: { package: '@scope/npm-one@1.2.3', args: ['--acp'] } } },
    { id: 'npm-cmd', name: 'Npm Cmd', version: '2.0.0', description: 'From npm, its program named', distribution: { npx: { package: 'npm-cmd@2.0.0', cmd: 'nc', args: [] } } },
    { id: 'py', name: 'Py', version: '0.3.0', description: 'From PyPI', distribution: { uvx: { package: 'py-agent==0.3.0', cmd: 'py-agent', args: ['acp'] } } },
    {
      id: 'bin',
      name: 'Bin',
      version: '1.0.0',
      description: 'Downloads',
      distribution: {
        binary: {
          'linux-x86_64': { archive: 'https://example.org/bin-linux.tar.gz', cmd: './bin', args: ['acp'] },
          'windows-x86_64': { archive: 'https://example.org/bin-windows.zip', cmd: './bin.exe', args: ['acp'] },
        },
      },
    },
    { id: 'broken', name: 'Broken' },
  ],
};

const onPath = (...names: string[]): ResolveContext => ({ which: (e) => (names.includes(e) ? `/bin/${e}` : undefined), env: {} });

test('platform targets as the registry names them', () => {
  expect(platformTarget('darwin', 'arm64')).toBe('darwin-aarch64');
  expect(platformTarget('linux', 'x64')).toBe('linux-x86_64');
  expect(platformTarget('win32', 'arm64')).toBe('windows-aarch64');
  expect(platformTarget('freebsd', 'x64')).toBeUndefined();
  expect(platformTarget('linux', 'ia32')).toBeUndefined();
});

test('package specs: scoped, versioned, bare', () => {
  expect(splitPackage('@scope/pkg@1.2.3')).toEqual({ name: '@scope/pkg', version: '1.2.3' });
  expect(splitPackage('@scope/pkg')).toEqual({ name: '@scope/pkg' });
  expect(splitPackage('pkg@latest')).toEqual({ name: 'pkg', version: 'latest' });
});

test('npx, uvx and this platform\'s binary become catalogue entries; broken ones are skipped, saying why', () => {
  const { entries, problems } = catalogOfRegistry(registry, 'linux-x86_64');
  expect(entries.map((e) => [e.id, e.distribution])).toEqual([
    ['npm-one', { kind: 'npx', package: '@scope/npm-one', version: '1.2.3', args: ['--acp'] }],
    ['npm-cmd', { kind: 'npx', package: 'npm-cmd', version: '2.0.0', bin: 'nc', args: [] }],
    ['py', { kind: 'uvx', package: 'py-agent==0.3.0', bin: 'py-agent', args: ['acp'] }],
    ['bin', { kind: 'archive', url: 'https://example.org/bin-linux.tar.gz', cmd: './bin', args: ['acp'], version: '1.0.0' }],
  ]);
  expect(problems).toEqual(['agents[4] is not a registry entry (id, name, version, description, distribution): skipped']);
  const [npmOne, npmCmd, py] = entries;
  expect(launchOf(npmOne!)).toMatchObject({ command: 'npx', args: ['--yes', '--', '@scope/npm-one@1.2.3', '--acp'] });
  expect(launchOf(npmCmd!)).toMatchObject({ command: 'npx', args: ['--yes', '--package=npm-cmd@2.0.0', '--', 'nc'] });
  expect(launchOf(py!)).toMatchObject({ command: 'uvx', args: ['--from', 'py-agent==0.3.0', 'py-agent', 'acp'] });
});

test('a binary for another platform only: skipped here', () => {
  const { entries, problems } = catalogOfRegistry(registry, 'darwin-aarch64');
  expect(entries.map((e) => e.id)).not.toContain('bin');
  expect(problems).toContain('bin: no distribution for this platform (darwin-aarch64): skipped');
  expect(catalogOfRegistry(registry, 'windows-x86_64').entries.find((e) => e.id === 'bin')?.distribution).toMatchObject({ url: 'https://example.org/bin-windows.zip', cmd: './bin.exe' });
});

test('how each distribution resolves: uvx needs uv; a download runs from its storage folder, once there is one', () => {
  const { entries } = catalogOfRegistry(registry, 'linux-x86_64');
  const py = entries.find((e) => e.id === 'py')!;
  expect(resolveBuiltin(py, {}, onPath('uvx'))).toMatchObject({ ok: true, location: '/bin/uvx' });
  expect(resolveBuiltin(py, {}, onPath())).toMatchObject({ ok: false, reason: 'uvx was not found on PATH (it comes with uv: https://docs.astral.sh/uv/)' });
  const bin = entries.find((e) => e.id === 'bin')!;
  expect(resolveBuiltin(bin, {}, onPath('./bin'))).toMatchObject({ ok: false, reason: 'it is a download (https://example.org/bin-linux.tar.gz) that Symposium cannot install here' });
  const archiveDir = () => '/storage/agents/bin/1.0.0';
  expect(resolveBuiltin(bin, { args: ['--verbose'] }, { ...onPath(), archiveDir })).toEqual({
    ok: true,
    launch: { command: '/storage/agents/bin/1.0.0/bin', args: ['acp', '--verbose'], env: {} },
    location: '/storage/agents/bin/1.0.0/bin',
    download: { url: 'https://example.org/bin-linux.tar.gz', dir: '/storage/agents/bin/1.0.0', cmd: './bin' },
  });
});

test('the built-in catalogue is read from the shipped snapshot, pinned versions and all', () => {
  const { entries, problems } = catalogOfRegistry(REGISTRY_SNAPSHOT, undefined);
  expect(problems).toEqual([]);
  expect(entries.map((e) => e.id)).toEqual(BUILTIN_AGENTS.filter((e) => e.distribution.kind === 'npx').map((e) => e.id));
  for (const agent of REGISTRY_SNAPSHOT.agents) {
    const builtin = BUILTIN_AGENTS.find((e) => e.id === agent.id)!;
    expect(builtin.distribution).toMatchObject({ kind: 'npx', version: agent.version });
  }
});

test('a user\'s registry adds the agents the catalogue lacks; the catalogue\'s own keep their pinned versions', () => {
  const newer = { version: '1.0.0', agents: [{ id: 'claude-code', name: 'Claude', version: '9.9.9', description: 'newer', distribution: { npx: { package: '@agentclientprotocol/claude-agent-acp@9.9.9' } } }, registry.agents[0]] };
  const merged = withRegistry(BUILTIN_AGENTS, catalogOfRegistry(newer, 'linux-x86_64').entries);
  expect(merged.find((e) => e.id === 'claude-code')).toBe(BUILTIN_AGENTS.find((e) => e.id === 'claude-code'));
  expect(merged.at(-1)?.id).toBe('npm-one');
});

test('a registry file that cannot be read or parsed is reported, naming it', () => {
  expect(readRegistryFile('/x/registry.json', 'linux-x86_64', () => '{"agents": [')).toMatchObject({ entries: [], problems: [expect.stringMatching(/^symposium\.registry: cannot read \/x\/registry\.json: /) as string] });
  expect(readRegistryFile('/x/registry.json', 'linux-x86_64', () => '{}').problems).toEqual(['symposium.registry (/x/registry.json): the registry has no "agents" array']);
  expect(readRegistryFile('/x/registry.json', 'linux-x86_64', () => JSON.stringify(registry)).entries).toHaveLength(4);
});
