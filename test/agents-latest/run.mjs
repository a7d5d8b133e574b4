// `npm run test:agents-latest`: the offline suites of the catalogue's npm agents, each against the agent's newest
// release on the registry rather than the catalogue's pin, so that the project can follow the agents' releases:
// which pass, per agent, before the catalogue moves. The newest version is the registry's `latest` tag (`npm view`);
// the agents are installed into a cache of their own (~/.cache/symposium-agents-latest, SYMPOSIUM_AGENT_CACHE to
// move it), never the pinned one's. Each suite runs with SYMPOSIUM_AGENT_VERSIONS naming that agent's version
// (test/fixtures/agent-install.ts); Claude Code's suite runs the installed claude-agent-acp instead of the
// devDependency.
//
//   SYMPOSIUM_AGENTS_LATEST_ONLY   comma-separated catalogue ids to run (default: every agent with a suite)
//   SYMPOSIUM_AGENTS_LATEST_HOST   1: then Claude Code's real-host scenarios in the Chat view too (test/vscode,
//                                  SYMPOSIUM_VSCODE_ONLY=claude:), with that release (SYMPOSIUM_CLAUDE_AGENT_ROOT)
//
// It prints a line per agent (pinned, newest, passed, failed, the failing tests' names) and ends with
// `agents-latest: N of M runs pass` (a run: an agent's suite, or Claude Code's real-host scenarios); the exit code is 0
// only when every run passed.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The offline suite of each catalogue agent that has one (Copilot CLI talks only to GitHub's service: none). */
const SUITES = {
  'claude-code': 'test/integration/claude-agent.test.ts',
  codex: 'test/integration/codex-agent.test.ts',
  gemini: 'test/integration/gemini-agent.test.ts',
  'qwen-code': 'test/integration/qwen-agent.test.ts',
  opencode: 'test/integration/opencode-agent.test.ts',
};

process.env.SYMPOSIUM_AGENT_CACHE ||= join(homedir(), '.cache', 'symposium-agents-latest');

/**
 * Runs a command with this Node's environment plus `env`, its output shown as it comes; resolves with its exit code
 * and the last line of its standard output that `last` matches.
 */
function run(command, args, env = {}, last = /^$/) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let line;
    let rest = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      line = lines.filter((l) => last.test(l)).at(-1) ?? line;
    });
    child.once('error', reject);
    child.once('close', (code, signal) => resolvePromise({ code: code ?? (signal === null ? 1 : 128), line: last.test(rest) ? rest : line }));
  });
}

async function newestVersion(name) {
  const { stdout } = await promisify(execFile)('npm', ['view', name, 'version'], { cwd: REPO });
  return stdout.trim();
}

/** jest on one suite with the agent at `version`: its counts and failing tests, read from jest's JSON report. */
async function suiteResult(id, version) {
  const dir = mkdtempSync(join(tmpdir(), 'agents-latest-'));
  const report = join(dir, 'report.json');
  try {
    const { code } = await run(process.execPath, ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', SUITES[id], '--json', `--outputFile=${report}`], {
      SYMPOSIUM_AGENT_VERSIONS: JSON.stringify({ [id]: version }),
    });
    let json;
    try {
      json = JSON.parse(readFileSync(report, 'utf8'));
    } catch {
      return { passed: 0, failed: 1, failing: [`jest ended with ${code} and no report`] };
    }
    const failing = json.testResults.flatMap((file) => [
      ...(file.status === 'failed' && file.assertionResults.length === 0 ? [file.message.split('\n')[0] || 'the suite failed to run'] : []),
      ...file.assertionResults.filter((a) => a.status === 'failed').map((a) => a.title),
    ]);
    return { passed: json.numPassedTests, failed: Math.max(json.numFailedTests, failing.length), failing };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  if ((await run('npx', ['tsc', '-p', 'tsconfig.json'])).code !== 0) throw new Error('the build failed');
  const { BUILTIN_AGENTS } = await import(join(REPO, 'dist', 'src', 'extension', 'agents', 'agent-catalog.js'));
  const { installCatalogAgent } = await import(join(REPO, 'dist', 'test', 'fixtures', 'agent-install.js'));
  const only = (process.env.SYMPOSIUM_AGENTS_LATEST_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = only.filter((id) => SUITES[id] === undefined);
  if (unknown.length > 0) throw new Error(`no suite for ${unknown.join(', ')}: one of ${Object.keys(SUITES).join(', ')}`);
  const agents = BUILTIN_AGENTS.filter((e) => SUITES[e.id] !== undefined && e.distribution.kind === 'npx' && (only.length === 0 || only.includes(e.id)));
  const rows = [];
  for (const entry of agents) {
    const { package: name, version: pinned } = entry.distribution;
    const newest = await newestVersion(name);
    console.log(`\n=== ${entry.id}: ${name} ${newest} (pinned ${pinned}) ===`);
    const result = await suiteResult(entry.id, newest);
    rows.push({ id: entry.id, pinned, newest, ...result });
    if (entry.id === 'claude-code' && process.env.SYMPOSIUM_AGENTS_LATEST_HOST === '1') {
      process.env.SYMPOSIUM_AGENT_VERSIONS = JSON.stringify({ 'claude-code': newest });
      const root = await installCatalogAgent('claude-code');
      delete process.env.SYMPOSIUM_AGENT_VERSIONS;
      const host = await run(process.execPath, ['test/vscode/run.mjs'], { SYMPOSIUM_VSCODE_ONLY: 'claude:', SYMPOSIUM_CLAUDE_AGENT_ROOT: root }, /^vscode: \d+ passed, \d+ failed$/);
      const [passed, failed] = (host.line?.match(/\d+/g) ?? ['0', '1']).map(Number);
      rows.push({ id: 'claude-code (real host)', pinned, newest, passed, failed: host.code === 0 ? failed : Math.max(failed, 1), failing: host.code === 0 ? [] : [`test/vscode ended with ${host.code}: the failing scenarios are listed above`] });
    }
  }
  console.log('\nagent | pinned | newest | passed | failed');
  for (const r of rows) {
    console.log(`${r.id} | ${r.pinned} | ${r.newest} | ${r.passed} | ${r.failed}${r.failing.length > 0 ? ` | ${r.failing.join('; ')}` : ''}`);
  }
  const passing = rows.filter((r) => r.failed === 0 && r.passed > 0).length;
  console.log(`agents-latest: ${passing} of ${rows.length} runs pass`);
  return passing === rows.length ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    console.log('agents-latest: 0 of 0 runs pass');
    process.exit(1);
  },
);
