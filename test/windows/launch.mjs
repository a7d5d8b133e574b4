// Run by run.mjs under Windows' Node: the extension's agent launching (dist/src/extension/agents/agent-catalog.js) on a
// real Windows file system, and the commands it finds spawned as the bridge spawns agents (spawnTree: cross-spawn),
// from a folder whose path has spaces and non-ASCII letters: npx.cmd, a .bat shim, an .exe; arguments with spaces
// and quotes; an environment with `Path` and no `PATH`; USERPROFILE without HOME. Usage: node launch.mjs WORK_DIR;
// writes WORK_DIR\launch.json, `[{ name, ok, detail }]`.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const { findOnPath, hostResolveContext, resolveBuiltin, expandHome } = await import(`file://${path.join(dist, 'src', 'extension', 'agents', 'agent-catalog.js').replaceAll('\\', '/')}`);
const { spawnTree } = await import(`file://${path.join(dist, 'src', 'agents', 'acp', 'process', 'process-tree.js').replaceAll('\\', '/')}`);

const work = process.argv[2];
const results = [];
const check = (name, ok, detail) => results.push({ name, ok: Boolean(ok), detail: String(detail) });

// A folder like a user's tools folder; what each program is run with is written to a report file.
const tools = path.join(work, 'agent tools é ü');
mkdirSync(tools, { recursive: true });
const reporter = path.join(tools, 'report-argv.cjs');
writeFileSync(reporter, "require('fs').writeFileSync(process.env.REPORT, JSON.stringify({ argv: process.argv.slice(2), home: process.env.HOME ?? null }));\n");
// As npm's shims do, a batch file names what lies beside it by %~dp0: cmd.exe reads a batch file in the console's
// code page, so a non-ASCII path written into it would not survive.
writeFileSync(path.join(tools, 'npx.cmd'), `@"${process.execPath}" "%~dp0\\report-argv.cjs" %*\r\n`);
writeFileSync(path.join(tools, 'my-agent.bat'), `@"${process.execPath}" "%~dp0\\report-argv.cjs" %*\r\n`);
copyFileSync(process.execPath, path.join(tools, 'exe-agent.exe'));

// The environment as Windows gives it: `Path` (no `PATH`), no HOME.
const { PATH: _path, Path: _Path, HOME: _home, ...rest } = process.env;
const env = { ...rest, Path: `${process.env.PATH ?? process.env.Path};${tools}` };

check('os.homedir() is USERPROFILE when HOME is not set', process.env.HOME === undefined && os.homedir() === process.env.USERPROFILE, `HOME ${process.env.HOME}, USERPROFILE ${process.env.USERPROFILE}, homedir ${os.homedir()}`);
check('~\\ is the home folder', expandHome('~\\bin\\agent.exe', hostResolveContext().home, 'win32') === path.join(os.homedir(), 'bin', 'agent.exe'), expandHome('~\\bin\\agent.exe', hostResolveContext().home, 'win32'));

const npxEntry = { id: 'npm-agent', name: 'npm agent', description: '', distribution: { kind: 'npx', package: '@scope/agent-acp', version: '1.2.3', bin: 'agent-acp', args: ['--acp'] } };
const resolution = resolveBuiltin(npxEntry, {}, { ...hostResolveContext(), env });
check('a catalogue npm agent finds npx as npx.cmd on Path (no PATH in the environment)', resolution.ok && resolution.location === path.join(tools, 'npx.cmd'), JSON.stringify(resolution.location ?? resolution.reason));
check('a .bat shim is found by its name (PATHEXT)', findOnPath('my-agent', env) === path.join(tools, 'my-agent.bat'), findOnPath('my-agent', env));
check('an .exe is found by its name, and by its path without .exe', findOnPath('exe-agent', env) === path.join(tools, 'exe-agent.exe') && findOnPath(path.join(tools, 'exe-agent'), env) === path.join(tools, 'exe-agent.exe'), findOnPath('exe-agent', env));

/** Spawns as the bridge spawns an agent; resolves with what the program was given. */
function launched(command, args) {
  const report = path.join(work, `report-${results.length}.json`);
  rmSync(report, { force: true });
  return new Promise((resolve) => {
    const child = spawnTree(command, args, { env: { ...env, REPORT: report }, cwd: tools, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => resolve({ error: error.message }));
    child.on('exit', (code) => resolve(existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')) : { code, stderr }));
  });
}

// Arguments with spaces and quotes, as a user's settings may hold them; no `&` or `%`: cmd.exe would read them.
const tricky = ['--name', 'my agent', 'say "hi"', 'C:\\Program Files\\x', ''];
const viaNpx = await launched(resolution.launch.command, [...resolution.launch.args, ...tricky]);
check('npx (npx.cmd, through cmd.exe) gets the catalogue\'s arguments and ones with spaces and quotes, exactly', JSON.stringify(viaNpx.argv) === JSON.stringify([...resolution.launch.args, ...tricky]), JSON.stringify(viaNpx));
const viaBat = await launched('my-agent', tricky);
check('a .bat shim gets arguments with spaces and quotes, exactly', JSON.stringify(viaBat.argv) === JSON.stringify(tricky), JSON.stringify(viaBat));
const viaExe = await launched(path.join(tools, 'exe-agent.exe'), [reporter, ...tricky]);
check('an .exe in a folder with spaces and non-ASCII letters gets its arguments, exactly', JSON.stringify(viaExe.argv) === JSON.stringify(tricky), JSON.stringify(viaExe));
check('the agent sees no HOME (it was not set)', viaExe.home === null, JSON.stringify(viaExe.home));

writeFileSync(path.join(work, 'launch.json'), JSON.stringify(results));
