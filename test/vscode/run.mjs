#!/usr/bin/env node
// `npm run test:vscode`: runs the driver's scenarios (test/vscode/driver) against the packaged extension
// (symposium-lm.vsix) in a real VS Code extension host, then the Chat view's (chat-view.mjs), then Cline's and Roo
// Code's, each in a workbench of its own with that consumer installed (cline-view.mjs, roo-view.mjs), then the
// real Claude Code's in the Chat view, in a workbench of its own with a scripted Anthropic API (claude-view.mjs).
//
// Offline (the default), that host is code-server (VS Code 1.139) from the npm registry, installed into a cache
// outside the clone by host.mjs, served to headless Chromium driven by playwright-core
// (shared/docs/vscode-host.md). With VSCODE_EXECUTABLE_PATH set, the same driver runs in that desktop VS Code
// instead (see runElectron: not verified on these machines, which have no desktop VS Code).
//
// Environment:
//   SYMPOSIUM_VSCODE_TIMEOUT_MS   how long to wait for the driver's report (default 180000)
//   SYMPOSIUM_VSCODE_KEEP=1       keep the run's temp dir (logs, settings, report) even when everything passed
//   SYMPOSIUM_VSCODE_ONLY         comma-separated scenario names, or their starts, to run (default: all); `roo:`
//                                 runs only Roo Code's, `claude:` only Claude Code's, and a consumer's workbench
//                                 starts only when one of its is named; `walkthrough` alone skips the driver's workbench
//   SYMPOSIUM_CLINE_VSIX, SYMPOSIUM_ROO_VSIX  the consumers' .vsix elsewhere than ../shared/consumers/
//   SYMPOSIUM_VSCODE_HOST_CACHE   where the host is installed (default ~/.cache/symposium-vscode-host)
//   VSCODE_EXECUTABLE_PATH        a desktop VS Code to run the suite in, instead of code-server (unverified here)
//   SYMPOSIUM_VSCODE_HOST=electron  the same through @vscode/test-electron's download (needs it installed, and internet)
//
// The last line printed is `vscode: N passed, N failed`; the exit code is 0 only when every planned scenario passed
// and no process the run started outlived it.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, closeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureHost } from './host.mjs';
import { runChatView } from './chat-view.mjs';
import { CHAT_VIEW_SETTINGS, claudeAgents, runClaude, startAnthropicMock } from './claude-view.mjs';
import { clineVsix, runCline, writeClineState } from './cline-view.mjs';
import { linkRipgrepForRoo, rooVsix, runRoo, writeRooSettings } from './roo-view.mjs';
import { runWalkthrough } from './walkthrough.mjs';
import { runFolders, writeTwoFolderWorkspace } from './folders-view.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..', '..');
const VSIX = join(REPO, 'symposium-lm.vsix');
const DRIVER_DIR = join(HERE, 'driver');
const SCRIPTED_AGENT = join(REPO, 'dist', 'test', 'fixtures', 'scripted-agent.js');
const REPORT_TIMEOUT_MS = Number(process.env.SYMPOSIUM_VSCODE_TIMEOUT_MS || 180_000);
const RUN_MARKER = 'SYMPOSIUM_VSCODE_RUN';
/** Screenshots and recorded requests of the Chat view scenarios, kept after the run. */
const ARTIFACTS = process.env.SYMPOSIUM_VSCODE_ARTIFACTS || join(REPO, 'artifacts', 'vscode');

const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
const log = (msg) => console.log(`[test:vscode ${elapsed()}] ${msg}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function run(cmd, args, opts = {}) {
  log(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
}

// ---------------------------------------------------------------------------------------------------------------
// What goes into the host: the extension, the driver, the scripted agent.

/** The newest modification time among these files and folders (recursively), 0 when none exists. */
function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const s = statSync(p);
    if (s.isDirectory()) for (const e of readdirSync(p)) visit(join(p, e));
    else newest = Math.max(newest, s.mtimeMs);
  };
  paths.forEach(visit);
  return newest;
}

export function vsce(cwd, out) {
  run(process.execPath, [join(REPO, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out], { cwd });
}

/** The extension under test as a .vsix, (re)built with `npm run package` when missing or older than its sources. */
export function extensionVsix(runDir) {
  const rootFiles = readdirSync(REPO).filter((f) => /^(package\.json|tsconfig.*\.json|esbuild.*|\.vscodeignore|README\.md|LICENSE.*)$/.test(f));
  const sources = newestMtime([join(REPO, 'src'), join(REPO, 'scripts'), join(REPO, 'walkthrough'), ...rootFiles.map((f) => join(REPO, f))]);
  if (existsSync(VSIX) && statSync(VSIX).mtimeMs >= sources) {
    log(`using ${VSIX} (newer than its sources)`);
    return VSIX;
  }
  const scripts = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).scripts || {};
  if (!scripts.package) throw new Error('package.json has no "package" script to build symposium-lm.vsix');
  log(existsSync(VSIX) ? `${VSIX} is older than its sources: rebuilding` : `no ${VSIX}: building it`);
  run('npm', ['run', 'package'], { cwd: REPO });
  if (!existsSync(VSIX)) throw new Error(`npm run package did not produce ${VSIX}`);
  return VSIX;
}

/** dist/test/fixtures/scripted-agent.js, compiled when missing or older than its source. */
export function scriptedAgent() {
  const source = join(REPO, 'test', 'fixtures', 'scripted-agent.ts');
  if (!existsSync(SCRIPTED_AGENT) || statSync(SCRIPTED_AGENT).mtimeMs < newestMtime([source])) {
    run(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', REPO], { cwd: REPO });
  }
  if (!existsSync(SCRIPTED_AGENT)) throw new Error(`no ${SCRIPTED_AGENT} after tsc`);
  return SCRIPTED_AGENT;
}

/** Settings that keep the workbench from asking, prompting, updating and phoning home during a run. */
export const QUIET_WORKBENCH = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'git.enabled': false,
  'github.gitAuthentication': false,
  // As desktop VS Code does (the web's default saves a second after typing): unsaved changes stay unsaved.
  'files.autoSave': 'off',
};

function settings(dirs, confirmations) {
  const only = (process.env.SYMPOSIUM_VSCODE_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);
  return {
    ...QUIET_WORKBENCH,
    'symposium.enableExperimentalLM': true,
    'symposium.eliza.deterministic': true,
    'symposium.logLevel': 'debug',
    // The scripted ACP agent runs with this Node (20, the project's), not the host's Node 24.
    // It keeps its sessions in the run dir and resumes them: a window reload continues the same ACP session.
    'symposium.agents': [
      {
        id: 'scripted',
        name: 'Scripted',
        command: process.execPath,
        args: [scriptedAgent(), '--prompt-log', dirs.promptLog, '--resume-session', '--state-dir', join(dirs.runDir, 'agent-sessions'), '--modes', 'ask,code,plan', '--claude-results', '--commands', 'squawk,compact,review'],
      },
      // Takes embedded resources (promptCapabilities.embeddedContext): what the person attaches can reach it as text.
      { id: 'embedding', name: 'Embedding', command: process.execPath, args: [scriptedAgent(), '--prompt-log', dirs.promptLog, '--embedded-context'] },
      // An agent slow to open a session (2 s), for the scenario of a new chat on an agent in use.
      { id: 'slow', name: 'Slow', command: process.execPath, args: [scriptedAgent(), '--new-session-delay', '2000'] },
      // For the Chat view's scenarios of the picker's status, the sign-in and the API key (chat-view.mjs).
      { id: 'kimi' },
      { id: 'needs-sign-in', name: 'Needs sign-in', command: process.execPath, args: [scriptedAgent(), '--auth-required'] },
      { id: 'needs-key', name: 'Needs key', command: process.execPath, args: [scriptedAgent()], env: { SYMPOSIUM_TEST_AGENT: 'needs-key' } },
      // Opens sessions but refuses prompts with auth_required until SYMPOSIUM_TEST_KEY is set, as Claude Code without its key.
      { id: 'no-key', name: 'No key', command: process.execPath, args: [scriptedAgent(), '--needs-env', 'SYMPOSIUM_TEST_KEY'] },
      // The same, for the key set in one window and used in another (chat-view.mjs).
      { id: 'key-elsewhere', name: 'Key elsewhere', command: process.execPath, args: [scriptedAgent(), '--needs-env', 'SYMPOSIUM_OTHER_KEY'] },
      // An agent of the registry served on 127.0.0.1 (serveRegistry), distributed as a download.
      { id: 'packed' },
    ],
    'symposium.registry': dirs.registryUrl,
    // The Chat view answers through our models without a GitHub sign-in; its side requests (titles) come to them too.
    // Replies are compared whole: no "Starting …" notice before an agent that is slow to start on a busy machine.
    'symposium.startNotice': false,
    'chat.allowAnonymousAccess': true,
    'chat.byokUtilityModelDefault': 'mainAgent',
    'remote.autoForwardPorts': false,
    'symposiumTest.reportPath': dirs.report,
    'symposiumTest.confirmations': confirmations,
    'symposiumTest.only': only,
  };
}

/**
 * A registry (the ACP registry's format) on 127.0.0.1 with one agent, `packed`, distributed as a .tar.gz for this
 * platform (with its sha256): a launcher of the scripted agent. Sets dirs.registryUrl; the server is closed with
 * the run (state.registryServer).
 */
async function serveRegistry(dirs, state) {
  const { c: tarCreate } = await import('tar');
  const release = join(dirs.runDir, 'packed-release');
  mkdirSync(join(release, 'bin'), { recursive: true });
  writeFileSync(join(release, 'bin', 'agent'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(scriptedAgent())} "$@"\n`, { mode: 0o755 });
  const archivePath = join(dirs.runDir, 'packed.tar.gz');
  await tarCreate({ gzip: true, file: archivePath, cwd: release }, ['bin']);
  const archive = readFileSync(archivePath);
  const target = `${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}`;
  // The port is read once listening: a request that comes as the server closes (an extension host still starting
  // when its workbench ends) must not find address() null and end the whole run.
  let base = '';
  const server = createHttpServer((req, res) => {
    if (req.url === '/registry.json') {
      const entry = { archive: `${base}/packed.tar.gz`, cmd: './bin/agent', args: [], sha256: createHash('sha256').update(archive).digest('hex') };
      const registry = { version: '1.0.0', agents: [{ id: 'packed', name: 'Packed', version: '1.0.0', description: 'A download of the scripted agent', distribution: { binary: { [target]: entry } } }] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(registry));
    } else if (req.url === '/packed.tar.gz') {
      res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': archive.length }).end(archive);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  state.registryServer = server;
  base = `http://127.0.0.1:${server.address().port}`;
  dirs.registryUrl = `${base}/registry.json`;
}

export function prepareRunDir() {
  const runDir = mkdtempSync(join(tmpdir(), 'symposium-vscode-'));
  const dirs = {
    runDir,
    userData: join(runDir, 'user-data'),
    extensions: join(runDir, 'extensions'),
    workspace: join(runDir, 'workspace'),
    report: join(runDir, 'report.json'),
    dialogs: join(runDir, 'dialogs.json'),
    promptLog: join(runDir, 'prompts.jsonl'),
    requests: join(runDir, 'requests.jsonl'),
    home: join(runDir, 'home'),
    tmp: join(runDir, 'tmp'),
  };
  for (const d of [dirs.userData, dirs.extensions, dirs.workspace, dirs.home, dirs.tmp, join(dirs.userData, 'User')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(dirs.workspace, 'README.md'), 'A workspace for the symposium-lm VS Code tests.\n');
  writeFileSync(dirs.dialogs, '[]\n');
  return dirs;
}

// ---------------------------------------------------------------------------------------------------------------
// Processes: everything the run starts carries RUN_MARKER=<runDir> in its environment, so that whatever
// outlives its parent (an agent in its own process group, a file watcher) is still found and ended.

function processTable() {
  const table = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(name), { pid: Number(name), state: fields[0], ppid: Number(fields[1]), pgid: Number(fields[2]) });
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

function hasMarker(pid, runDir) {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`${RUN_MARKER}=${runDir}`);
  } catch {
    return false;
  }
}

/** Live (non-zombie) processes started by this run: descendants of the roots, and any carrying the marker. */
function runProcesses(roots, runDir) {
  const table = processTable();
  const found = new Set();
  const children = new Map();
  for (const p of table.values()) children.set(p.ppid, [...(children.get(p.ppid) || []), p.pid]);
  const visit = (pid) => {
    if (found.has(pid) || !table.has(pid)) return;
    found.add(pid);
    (children.get(pid) || []).forEach(visit);
  };
  roots.filter(Boolean).forEach(visit);
  for (const p of table.values()) if (p.pid !== process.pid && hasMarker(p.pid, runDir)) found.add(p.pid);
  found.delete(process.pid);
  return [...found].filter((pid) => table.get(pid)?.state !== 'Z').map((pid) => table.get(pid));
}

function signal(pid, sig) {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

const alive = (pid) => {
  const p = processTable().get(pid);
  return p !== undefined && p.state !== 'Z';
};

/**
 * Ends every process of the run: TERM to each (and to the process groups they lead), KILL after 5 s to what is
 * left; twice, for what was started meanwhile. Returns `ps` lines for any process of the run still alive.
 */
export async function endProcesses(roots, runDir) {
  for (let round = 0; round < 2; round++) {
    let procs = runProcesses(roots, runDir);
    if (procs.length === 0) break;
    log(`ending ${procs.length} process(es) of the run: ${procs.map((p) => p.pid).join(' ')}`);
    const groups = new Set(procs.map((p) => p.pgid).filter((g) => g > 1 && g !== process.pid && procs.some((p) => p.pid === g)));
    for (const g of groups) signal(-g, 'SIGTERM');
    for (const p of procs) signal(p.pid, 'SIGTERM');
    const deadline = Date.now() + 5000;
    while (procs.length > 0 && Date.now() < deadline) {
      await sleep(200);
      procs = procs.filter((p) => alive(p.pid));
    }
    if (procs.length > 0) log(`still alive after SIGTERM, killing: ${procs.map((p) => p.pid).join(' ')}`);
    for (const p of procs) signal(p.pid, 'SIGKILL');
    await sleep(300);
  }
  // Verify with ps, as a person would.
  const left = runProcesses(roots, runDir).map((p) => p.pid);
  if (left.length === 0) return [];
  const ps = spawnSync('ps', ['-o', 'pid=,ppid=,stat=,args=', '-p', left.join(',')], { encoding: 'utf8' });
  return ps.stdout.split('\n').filter((l) => l.trim() !== '');
}

async function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

async function waitForHttp(url, timeoutMs, child) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode} before listening`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await sleep(250);
  }
}

function readReport(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// code-server + headless Chromium.

/**
 * Installs the extensions (.vsix paths) into the run's extensions dir, writes the user settings, starts code-server
 * on a free port of 127.0.0.1 and opens the workspace in headless Chromium; returns the page. What it starts is
 * recorded in `state` for the cleanup.
 */
export async function startWorkbench(dirs, vsixPaths, userSettings, state, workspaceFile = undefined) {
  const host = ensureHost();
  log('host ready');
  writeFileSync(join(dirs.userData, 'User', 'settings.json'), JSON.stringify(userSettings, null, 2));

  const env = {
    ...host.env24,
    [RUN_MARKER]: dirs.runDir,
    XDG_CONFIG_HOME: join(dirs.runDir, 'xdg-config'),
    XDG_DATA_HOME: join(dirs.runDir, 'xdg-data'),
    // Copilot Chat writes ~/.copilot and $TMPDIR/mcp-*: the run's own.
    HOME: dirs.home,
    TMPDIR: dirs.tmp,
    // The agent host (symposium.agentHost: shared) of this run's own, found by no other run; it carries the
    // run's marker, so the cleanup ends it with the rest.
    SYMPOSIUM_HOST_DIR: join(dirs.runDir, 'agent-host'),
    // Every request Copilot sends, recorded by the extension (not in benchmark runs, which have no `requests`).
    ...(dirs.requests ? { SYMPOSIUM_RECORD_REQUESTS: dirs.requests } : {}),
    // No extension gallery: the workbench would look for updates of the built-in extensions (open-vsx); a
    // closed loopback port makes that fail at once, without a name lookup.
    EXTENSIONS_GALLERY: JSON.stringify({ serviceUrl: 'http://127.0.0.1:9/gallery', itemUrl: 'http://127.0.0.1:9/item', resourceUrlTemplate: 'http://127.0.0.1:9/resource' }),
  };
  // The extension host's environment (its PATH decides which agents are installed), for the scenarios.
  state.hostEnv = env;
  const csArgs = ['--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions];
  run(host.nodeBin, [host.entry, ...csArgs, ...vsixPaths.flatMap((v) => ['--install-extension', v]), '--force'], { env });

  const port = await freePort();
  const out = openSync(join(dirs.runDir, 'code-server.log'), 'a');
  log(`starting code-server on 127.0.0.1:${port}`);
  const cs = spawn(
    host.nodeBin,
    [host.entry, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, ...csArgs, '--disable-telemetry', '--disable-update-check', '--disable-getting-started-override', workspaceFile ?? dirs.workspace],
    { detached: true, env, stdio: ['ignore', out, out] },
  );
  closeSync(out);
  state.roots.push(cs.pid);
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000, cs);
  log('code-server is listening');

  const { chromium } = await import('playwright-core');
  state.browser = await chromium.launch({
    executablePath: host.chromium,
    env: { ...process.env, [RUN_MARKER]: dirs.runDir },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
  const page = await state.browser.newPage({ viewport: { width: 1400, height: 900 } });
  state.page = page;
  const browserLog = [];
  page.on('console', (m) => {
    if (m.type() === 'error') browserLog.push(`console.error: ${m.text()}`);
  });
  page.on('pageerror', (e) => browserLog.push(`pageerror: ${e.message}`));
  state.browserLog = browserLog;
  await page.goto(`http://127.0.0.1:${port}/?${workspaceFile === undefined ? 'folder' : 'workspace'}=${encodeURIComponent(workspaceFile ?? dirs.workspace)}`);
  log('workbench opened; waiting for the driver');

  return page;
}

async function runCodeServer(dirs, vsixPath, state) {
  const driverVsix = join(dirs.runDir, 'driver.vsix');
  vsce(DRIVER_DIR, driverVsix);
  // The Chat view scenarios pick an agent of this registry: its URL is in the settings.
  await serveRegistry(dirs, state);
  const page = await startWorkbench(dirs, [vsixPath, driverVsix], settings(dirs, 'dialog'), state);

  const dialogs = [];
  const report = await waitForReport(dirs, async () => {
    // Confirmation dialogs (vscode.lm.invokeTool on a tool with confirmationMessages): answer Yes, except for
    // the permission scenario that rejects ("reject me"), which gets Cancel.
    const box = page.locator('.monaco-dialog-box');
    if ((await box.count()) === 0) return;
    const text = (await box.first().innerText({ timeout: 2000 }).catch(() => '')).trim();
    const answer = /reject me/.test(text) ? 'Cancel' : 'Yes';
    dialogs.push({ text, clicked: answer, at: new Date().toISOString() });
    writeFileSync(dirs.dialogs, JSON.stringify(dialogs, null, 2));
    log(`confirmation dialog ${JSON.stringify(text.replace(/\s+/g, ' '))}: clicking ${answer}`);
    await box.first().getByRole('button', { name: answer, exact: true }).click({ timeout: 5000 });
    await box.first().waitFor({ state: 'detached', timeout: 5000 }).catch(() => {});
  });
  if (report?.done) {
    const { elizaRespond, initialElizaState } = await import(join(REPO, 'dist', 'src', 'agents', 'eliza', 'engine.js'));
    const ctx = {
      workspace: dirs.workspace,
      promptLog: dirs.promptLog,
      requests: dirs.requests,
      artifacts: ARTIFACTS,
      elizaReply: (text) => elizaRespond(initialElizaState(), text, { kind: 'cycle' }).reply,
      // For the scenarios that look for secrets in the run's files and processes.
      runDir: dirs.runDir,
      userData: dirs.userData,
      settingsFile: join(dirs.userData, 'User', 'settings.json'),
      node: process.execPath,
      scriptedAgent: SCRIPTED_AGENT,
      globalStorage: join(dirs.userData, 'User', 'globalStorage', 'symposium.symposium-lm'),
      onPath: (name) => (state.hostEnv.PATH || '').split(':').some((dir) => dir !== '' && existsSync(join(dir, name))),
    };
    report.scenarios.push(...(await runChatView(page, ctx, log)));
    mkdirSync(ARTIFACTS, { recursive: true });
    if (existsSync(dirs.requests)) copyFileSync(dirs.requests, join(ARTIFACTS, 'requests.jsonl'));
  }
  return report;
}

/**
 * A consumer's scenarios in a workbench of their own, with the consumer installed next to our extension. `setUp`
 * prepares the run dir and returns the consumer's .vsix (none for Copilot Chat, built in), the user settings, the
 * scenarios' runner and what to close at the end (a server it started). Returns the scenarios' results; a failure
 * to start them is one failed result. Ends every process it started.
 */
async function runConsumerWorkbench(name, vsixPath, setUp) {
  const dirs = prepareRunDir();
  const state = { roots: [], browser: undefined, page: undefined, browserLog: [] };
  log(`${name}: run dir ${dirs.runDir}`);
  let results;
  let close;
  try {
    const { vsix, userSettings, ctx, run, workspaceFile, ...rest } = await setUp(dirs);
    close = rest.close;
    const page = await startWorkbench(dirs, [vsixPath, ...(vsix ? [vsix] : [])], userSettings, state, workspaceFile);
    results = await run(page, ctx, log);
    mkdirSync(ctx.artifacts, { recursive: true });
    if (existsSync(dirs.requests)) copyFileSync(dirs.requests, join(ctx.artifacts, 'requests.jsonl'));
  } catch (error) {
    log(`${name}: ${error.stack || error.message}`);
    results = [{ name: `${name}: the scenarios ran`, passed: false, ms: 0, error: error.message, details: {} }];
  }
  if (state.browser) await state.browser.close().catch(() => {});
  const left = await endProcesses(state.roots, dirs.runDir);
  if (close) await close();
  if (left.length > 0) results.push({ name: `${name}: no process of its run is left`, passed: false, ms: 0, error: `left running: ${left.join('; ')}`, details: {} });
  if (results.every((r) => r.passed) && process.env.SYMPOSIUM_VSCODE_KEEP !== '1') rmSync(dirs.runDir, { recursive: true, force: true });
  else log(`${name}: kept ${dirs.runDir}`);
  return results;
}

/** Settings of a consumer's workbench: our extension on `agents`. */
function consumerSettings(agents) {
  return {
    ...QUIET_WORKBENCH,
    'symposium.enableExperimentalLM': true,
    'symposium.logLevel': 'debug',
    'symposium.agents': agents,
    'symposium.startNotice': false,
    'remote.autoForwardPorts': false,
  };
}

/**
 * Cline's scenarios (cline-view.mjs): two scripted agents (Scripted, and Parrot to switch to), and the real Claude
 * Code against a scripted Anthropic API that this run starts and closes (its commands through Cline's run_commands);
 * Cline set up on Scripted in the run's HOME.
 */
function runClineWorkbench(vsixPath) {
  return runConsumerWorkbench('Cline', vsixPath, async (dirs) => {
    const parrotPromptLog = join(dirs.runDir, 'parrot-prompts.jsonl');
    const agents = [
      // Scripted reports models of its own (fast, its default, and deep): the model Cline stored must stay listed.
      // Scripted forks sessions as Claude Code does (issue 45: an edited earlier message forks the task's session).
      { id: 'scripted', name: 'Scripted', command: process.execPath, args: [scriptedAgent(), '--prompt-log', dirs.promptLog, '--models', 'fast,deep', '--modes', 'code,ask,plan', '--fork'] },
      { id: 'parrot', name: 'Parrot', command: process.execPath, args: [scriptedAgent(), '--prompt-log', parrotPromptLog] },
    ];
    const mock = await startAnthropicMock(dirs.workspace);
    agents.push(claudeAgents(dirs.runDir, mock).find((agent) => agent.id === 'claude'));
    writeClineState(dirs.home, { vendor: 'symposium', family: 'acp-scripted', version: '1.0.0', id: 'symposium-agent-scripted' });
    const ctx = { workspace: dirs.workspace, promptLog: dirs.promptLog, parrotPromptLog, mock, requests: dirs.requests, artifacts: join(ARTIFACTS, 'cline') };
    return { vsix: clineVsix(), userSettings: consumerSettings(agents), ctx, run: runCline, close: () => mock.close() };
  });
}

/**
 * Roo Code's scenarios (roo-view.mjs): the scripted agent, Eliza and the real Claude Code (against a scripted Anthropic
 * API that this run starts and closes: its commands through Roo's execute_command), each a profile of Roo's, imported
 * at its start (`roo-cline.autoImportSettingsPath`; Roo keeps its settings where nothing can write them before VS Code
 * runs).
 */
function runRooWorkbench(vsixPath) {
  return runConsumerWorkbench('Roo', vsixPath, async (dirs) => {
    linkRipgrepForRoo(ensureHost().entry);
    const agents = [{ id: 'scripted', name: 'Scripted', command: process.execPath, args: [scriptedAgent(), '--prompt-log', dirs.promptLog, '--modes', 'code,ask,plan', '--embedded-context'] }];
    const mock = await startAnthropicMock(dirs.workspace);
    agents.push(claudeAgents(dirs.runDir, mock).find((agent) => agent.id === 'claude'));
    const rooSettings = join(dirs.runDir, 'roo-settings.json');
    writeRooSettings(rooSettings, { scripted: 'acp-scripted', eliza: 'eliza', claude: 'acp-claude' }, 'scripted');
    const userSettings = { ...consumerSettings(agents), 'symposium.eliza.deterministic': true, 'roo-cline.autoImportSettingsPath': rooSettings };
    const ctx = { workspace: dirs.workspace, promptLog: dirs.promptLog, mock, requests: dirs.requests, artifacts: join(ARTIFACTS, 'roo') };
    return { vsix: rooVsix(), userSettings, ctx, run: runRoo, close: () => mock.close() };
  });
}

/**
 * The real Claude Code in the Chat view (claude-view.mjs): claude-agent-acp against a scripted Anthropic API that
 * this run starts and closes, with its key and without.
 */
function runClaudeWorkbench(vsixPath) {
  return runConsumerWorkbench('Claude', vsixPath, async (dirs) => {
    scriptedAgent(); // compiles dist/ (the mock with it) when missing
    const mock = await startAnthropicMock(dirs.workspace);
    // Claude Code's CLI route as the catalogue has it (Continue Chat in Terminal); the terminal's rows in the DOM.
    const { CATALOG_OVERLAY } = await import(join(REPO, 'dist', 'src', 'extension', 'agents', 'registry-snapshot.js'));
    const agents = claudeAgents(dirs.runDir, mock, { workspace: dirs.workspace, cli: CATALOG_OVERLAY['claude-code'].cli });
    // The agent host ends 30 s after the last window closed (the last scenario waits for it).
    const hostIdleMs = 30_000;
    const userSettings = { ...consumerSettings(agents), ...CHAT_VIEW_SETTINGS, 'terminal.integrated.gpuAcceleration': 'off', 'symposium.agentHostIdleMinutes': hostIdleMs / 60_000 };
    const ctx = { workspace: dirs.workspace, runDir: dirs.runDir, userData: dirs.userData, hostIdleMs, mock, requests: dirs.requests, artifacts: join(ARTIFACTS, 'claude') };
    return { userSettings, ctx, run: runClaude, close: () => mock.close() };
  });
}

/**
 * A workspace of two folders (folders-view.mjs), opened from its `.code-workspace` file, with the real Claude Code
 * against a scripted Anthropic API that this run starts and closes.
 */
function runFoldersWorkbench(vsixPath) {
  return runConsumerWorkbench('Folders', vsixPath, async (dirs) => {
    scriptedAgent(); // compiles dist/ (the mock with it) when missing
    const mock = await startAnthropicMock(dirs.workspace);
    const { file, second } = writeTwoFolderWorkspace(dirs);
    const userSettings = { ...consumerSettings(claudeAgents(dirs.runDir, mock).filter((agent) => agent.id === 'claude')), ...CHAT_VIEW_SETTINGS };
    const ctx = { workspace: dirs.workspace, second, mock, requests: dirs.requests, artifacts: join(ARTIFACTS, 'folders') };
    return { userSettings, ctx, run: runFolders, close: () => mock.close(), workspaceFile: file };
  });
}

/** Polls the report until the driver is done (or the timeout), printing the driver's log as it grows. */
export async function waitForReport(dirs, onTick) {
  const deadline = Date.now() + REPORT_TIMEOUT_MS;
  let printed = 0;
  for (;;) {
    const report = readReport(dirs.report);
    if (report) {
      for (const line of report.log.slice(printed)) log(`driver: ${line.replace(/^\S+ /, '')}`);
      printed = report.log.length;
      if (report.done) return report;
    }
    if (Date.now() > deadline) {
      log(`no complete report after ${REPORT_TIMEOUT_MS} ms`);
      return report;
    }
    if (onTick) await onTick().catch((e) => log(`while watching the workbench: ${e.message}`));
    await sleep(300);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// A desktop VS Code (Electron) through @vscode/test-electron: VSCODE_EXECUTABLE_PATH, or
// SYMPOSIUM_VSCODE_HOST=electron (which downloads VS Code: needs internet).
//
// Not run where this project is developed (no desktop VS Code, no internet): written to @vscode/test-electron's
// conventions and kept as close to the code-server path as possible, but unverified there. The vsix is unpacked
// and loaded with --extensionDevelopmentPath, like the driver. There is no page to click confirmation dialogs in,
// so the permission tool's result is sent directly (symposiumTest.confirmations = "direct"). runTests starts VS
// Code with an extensionTestsPath module that waits for the driver's report. Without a DISPLAY, an Xvfb (Debian
// package xvfb) is started for it.

async function startXvfb(dirs, state) {
  if (process.env.DISPLAY) return process.env.DISPLAY;
  if (spawnSync('which', ['Xvfb']).status !== 0) throw new Error('no DISPLAY and no Xvfb (apt-get install xvfb)');
  for (let n = 99; n < 120; n++) {
    if (existsSync(`/tmp/.X11-unix/X${n}`) || existsSync(`/tmp/.X${n}-lock`)) continue;
    const xvfb = spawn('Xvfb', [`:${n}`, '-screen', '0', '1400x900x24', '-nolisten', 'tcp'], {
      detached: true,
      env: { ...process.env, [RUN_MARKER]: dirs.runDir },
      stdio: 'ignore',
    });
    state.roots.push(xvfb.pid);
    await sleep(1000);
    if (xvfb.exitCode === null) return `:${n}`;
  }
  throw new Error('could not start Xvfb');
}

async function runElectron(dirs, vsixPath, state) {
  const executable = process.env.VSCODE_EXECUTABLE_PATH || undefined;
  if (executable !== undefined && !existsSync(executable)) throw new Error(`VSCODE_EXECUTABLE_PATH ${executable} does not exist`);
  const testElectron = await import('@vscode/test-electron');
  const unpacked = join(dirs.runDir, 'extension-under-test');
  run('unzip', ['-q', vsixPath, 'extension/*', '-d', unpacked]);
  writeFileSync(join(dirs.userData, 'User', 'settings.json'), JSON.stringify(settings(dirs, 'direct'), null, 2));
  const launchArgs = [
    dirs.workspace,
    '--user-data-dir', dirs.userData,
    '--extensions-dir', dirs.extensions,
    '--disable-workspace-trust',
    '--skip-welcome',
    '--skip-release-notes',
    '--disable-telemetry',
    '--no-sandbox',
    '--disable-gpu',
  ];
  const devPaths = [join(unpacked, 'extension'), DRIVER_DIR];
  const env = { ...process.env, [RUN_MARKER]: dirs.runDir, SYMPOSIUM_HOST_DIR: join(dirs.runDir, 'agent-host'), DISPLAY: await startXvfb(dirs, state) };
  log(`running ${executable ?? 'a downloaded VS Code'} through @vscode/test-electron`);
  const testsModule = join(dirs.runDir, 'electron-tests.cjs');
  writeFileSync(
    testsModule,
    `// extensionTestsPath for @vscode/test-electron: resolves once the driver's report is complete; VS Code then exits.
const fs = require('fs');
exports.run = async () => {
const deadline = Date.now() + ${REPORT_TIMEOUT_MS};
for (;;) {
  try { if (JSON.parse(fs.readFileSync(${JSON.stringify(dirs.report)}, 'utf8')).done) return; } catch {}
  if (Date.now() > deadline) throw new Error('no complete report');
  await new Promise((r) => setTimeout(r, 300));
}
};\n`,
  );
  // runTests spawns VS Code with process.env; make the run's processes findable through the marker.
  Object.assign(process.env, { [RUN_MARKER]: dirs.runDir, SYMPOSIUM_HOST_DIR: env.SYMPOSIUM_HOST_DIR, DISPLAY: env.DISPLAY });
  const exited = testElectron
    .runTests({ vscodeExecutablePath: executable, extensionDevelopmentPath: devPaths, extensionTestsPath: testsModule, launchArgs, extensionTestsEnv: env })
    .catch((e) => log(`runTests: ${e.message}`));
  const report = await waitForReport(dirs);
  await Promise.race([exited, sleep(10_000)]);
  return report;
}

// ---------------------------------------------------------------------------------------------------------------

function printResults(report) {
  const scenarios = report?.scenarios ?? [];
  const planned = report?.planned ?? [];
  // What each scenario measured and noted, passed or not.
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, 'results.json'), JSON.stringify(scenarios, null, 2));
  let passed = 0;
  let failed = 0;
  const failures = [];
  console.log('');
  console.log(`VS Code ${report?.vscodeVersion ?? '?'} (${report?.appName ?? 'no report'})`);
  for (const s of scenarios) {
    if (s.passed) {
      passed++;
      console.log(`  ✓ ${s.name} (${s.ms} ms)`);
    } else {
      failed++;
      failures.push(`${s.name}: ${String(s.error).slice(0, 300)}`);
      console.log(`  ✗ ${s.name} (${s.ms} ms): ${s.error}`);
      console.log(`      ${JSON.stringify(s.details).slice(0, 2000)}`);
    }
  }
  for (const name of planned.filter((n) => !scenarios.some((s) => s.name === n))) {
    failed++;
    failures.push(`${name}: did not run`);
    console.log(`  ✗ ${name}: did not run (the driver did not finish)`);
  }
  if (!report) {
    failed++;
    failures.push('the driver wrote no report');
    console.log('  ✗ the driver wrote no report');
  }
  return { passed, failed, failures };
}

function tail(file, lines) {
  if (!existsSync(file)) return;
  const text = readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  console.log(`--- last lines of ${file} ---\n${text}`);
}

function findFiles(dir, pattern, found = []) {
  if (!existsSync(dir)) return found;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) findFiles(p, pattern, found);
    else if (pattern.test(e.name)) found.push(p);
  }
  return found;
}

/** Whether SYMPOSIUM_VSCODE_ONLY (when set) names any scenario whose name starts with `prefix` (`cline:`, `roo:`, `walkthrough`). */
function wanted(prefix) {
  const only = (process.env.SYMPOSIUM_VSCODE_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);
  return only.length === 0 || only.some((name) => name.startsWith(prefix));
}

/** Whether SYMPOSIUM_VSCODE_ONLY names only the walkthrough, whose workbench needs nothing of the driver's. */
function walkthroughOnly() {
  const only = (process.env.SYMPOSIUM_VSCODE_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);
  return only.length > 0 && only.every((name) => name.startsWith('walkthrough'));
}

async function main() {
  const dirs = prepareRunDir();
  log(`run dir ${dirs.runDir}`);
  const state = { roots: [], browser: undefined, page: undefined, browserLog: [] };
  let report;
  let error;
  let interrupted = false;
  const onSignal = (sig) => {
    interrupted = true;
    log(`${sig}: stopping`);
    cleanup().finally(() => {
      console.log(`(interrupted; kept ${dirs.runDir})`);
      process.exit(130);
    });
  };
  let cleaned;
  const cleanup = () =>
    (cleaned ??= (async () => {
      if (state.page && (error || !report?.done)) {
        await state.page.screenshot({ path: join(dirs.runDir, 'screenshot.png') }).catch(() => {});
      }
      if (state.browser) await state.browser.close().catch(() => {});
      if (state.registryServer) await new Promise((r) => state.registryServer.close(r));
      return endProcesses(state.roots, dirs.runDir);
    })());
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const vsixPath = extensionVsix(dirs.runDir);
    if (walkthroughOnly()) report = { done: true, scenarios: [], planned: [] };
    else report = process.env.VSCODE_EXECUTABLE_PATH || process.env.SYMPOSIUM_VSCODE_HOST === 'electron' ? await runElectron(dirs, vsixPath, state) : await runCodeServer(dirs, vsixPath, state);
  } catch (e) {
    error = e;
    log(`error: ${e.stack || e.message}`);
  }
  const left = await cleanup();
  if (interrupted) return;
  // Cline's and Roo's own workbenches, once the first one has ended (code-server only: they drive a webview through the page).
  const codeServer = !process.env.VSCODE_EXECUTABLE_PATH && process.env.SYMPOSIUM_VSCODE_HOST !== 'electron';
  if (report?.done && codeServer && wanted('cline:')) report.scenarios.push(...(await runClineWorkbench(extensionVsix(dirs.runDir))));
  if (report?.done && codeServer && wanted('roo:')) report.scenarios.push(...(await runRooWorkbench(extensionVsix(dirs.runDir))));
  if (report?.done && codeServer && wanted('claude:')) report.scenarios.push(...(await runClaudeWorkbench(extensionVsix(dirs.runDir))));
  if (report?.done && codeServer && wanted('folders:')) report.scenarios.push(...(await runFoldersWorkbench(extensionVsix(dirs.runDir))));
  if (report?.done && codeServer && wanted('walkthrough')) report.scenarios.push(...(await runWalkthrough(extensionVsix(dirs.runDir), log)));
  const { passed, failed, failures } = printResults(report);
  const ok = !error && failed === 0 && passed > 0 && left.length === 0;
  if (left.length > 0) console.log(`  ✗ processes left running after the run:\n    ${left.join('\n    ')}`);
  if (!ok) {
    for (const f of findFiles(join(dirs.userData, 'logs'), /^remoteexthost\.log$|^Symposium\.log$/)) tail(f, 60);
    tail(join(dirs.runDir, 'code-server.log'), 30);
    if (state.browserLog.length > 0) console.log(`--- browser errors ---\n${state.browserLog.slice(-20).join('\n')}`);
    console.log(`(kept ${dirs.runDir}: settings, logs${existsSync(join(dirs.runDir, 'screenshot.png')) ? ', screenshot.png' : ''}, report.json)`);
    // Again after the logs, whose length would push them out of a CI log's last lines.
    for (const f of failures) console.log(`failed: ${f}`);
    if (left.length > 0) console.log(`failed: ${left.length} processes left running after the run`);
  } else if (process.env.SYMPOSIUM_VSCODE_KEEP === '1') {
    console.log(`(kept ${dirs.runDir})`);
  } else {
    rmSync(dirs.runDir, { recursive: true, force: true });
  }
  console.log(`wall time ${elapsed()}`);
  console.log(`vscode: ${passed} passed, ${failed + (error && failed === 0 ? 1 : 0) + (left.length > 0 ? 1 : 0)} failed`);
  process.exitCode = ok ? 0 : 1;
}

// Run as a script (not when bench.mjs imports the pieces above).
if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
