#!/usr/bin/env node
/**
 * Bundles the VS Code extension with esbuild, offline, into dist/extension/:
 *   extension.cjs  src/extension.ts as CommonJS (VS Code loads extensions with require; package.json says
 *                  "type": "module", hence .cjs), `vscode` left external.
 *   bridge.mjs     the CLI src/cli/main.ts as ESM with every dependency inside: the extension runs
 *                  `<extension host runtime> bridge.mjs vscodelm …`, and the bridge runs `bridge.mjs mcp-relay`.
 * Usage: node scripts/build-extension.mjs [--minify]
 */
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist/extension');
const minify = process.argv.includes('--minify');

/**
 * src/client/lm-client.ts finds the CLI at `../cli/main.js` next to itself, the layout tsc emits. Bundled,
 * the CLI is bridge.mjs beside the bundle (in bridge.mjs, the bundle itself: `chat` spawns `vscodelm` from it).
 */
const CLI_URL = "new URL('../cli/main.js', import.meta.url)";
const bundledCliPath = {
  name: 'bundled-cli-path',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]src[\\/]client[\\/]lm-client\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes(CLI_URL)) throw new Error(`${args.path} no longer contains ${CLI_URL}: update scripts/build-extension.mjs`);
      return { contents: source.replace(CLI_URL, "new URL('./bridge.mjs', import.meta.url)"), loader: 'ts' };
    });
  },
};

const common = {
  plugins: [bundledCliPath],
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify,
  legalComments: 'none',
  logLevel: 'warning',
};

await rm(outdir, { recursive: true, force: true });

await Promise.all([
  build({
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: path.join(outdir, 'extension.cjs'),
    format: 'cjs',
    external: ['vscode'],
    // Shared modules (src/client/lm-client.ts) read import.meta.url at load time; in CommonJS it is this file.
    define: { 'import.meta.url': '__symposium_import_meta_url' },
    banner: { js: 'const __symposium_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
  }),
  build({
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: path.join(outdir, 'bridge.mjs'),
    format: 'esm',
    // Bundled CommonJS dependencies (vscode-jsonrpc, io-ts, …) require Node built-ins: give ESM a require.
    banner: { js: 'import { createRequire as __symposium_createRequire } from "node:module"; const require = __symposium_createRequire(import.meta.url);' },
  }),
]);

console.log(`built ${path.relative(root, path.join(outdir, 'extension.cjs'))} and ${path.relative(root, path.join(outdir, 'bridge.mjs'))}`);
