#!/usr/bin/env node
/**
 * Bundles the VS Code extension with esbuild, offline, into dist/extension/:
 *   extension.cjs  src/extension.ts as CommonJS (VS Code loads extensions with require; package.json says
 *                  "type": "module", hence .cjs), `vscode` left external.
 *   bridge.mjs     the CLI src/cli/main.ts as ESM with every dependency inside: the extension runs
 *                  `<extension host runtime> bridge.mjs vscodelm …`, and the bridge runs `bridge.mjs mcp-relay`.
 *                  What it imports dynamically (the ACP agent with the ACP and MCP SDKs, the relay) is split into
 *                  chunk-*.mjs files beside it, read only when first used: a start-up with Eliza parses none.
 *   o200k_base.cjs the tokenizer's vocabulary (4 MB of the 6 MB both bundles would otherwise hold), required by
 *                  either bundle on the first token count: parsing it cost every start ~150 ms.
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

/** The vocabulary is required as the sibling file o200k_base.cjs (built below) rather than bundled in. */
const VOCABULARY = 'gpt-tokenizer/encoding/o200k_base';
const vocabularyBeside = {
  name: 'vocabulary-beside',
  setup(builder) {
    builder.onResolve({ filter: /^gpt-tokenizer\/encoding\/o200k_base$/ }, () => ({ path: './o200k_base.cjs', external: true }));
  },
};

/**
 * rxjs's package exports send Node to its CommonJS build, 223 modules that bundle whole (336 KB); its ES2015
 * build is side-effect free, so the bundle keeps only the operators used.
 */
const rxjsEsm = {
  name: 'rxjs-esm',
  setup(builder) {
    builder.onResolve({ filter: /^rxjs$/ }, () => ({ path: path.join(root, 'node_modules/rxjs/dist/esm/index.js') }));
  },
};

const common = {
  plugins: [bundledCliPath, vocabularyBeside, rxjsEsm],
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
    entryPoints: { bridge: 'src/cli/main.ts' },
    outdir,
    outExtension: { '.js': '.mjs' },
    splitting: true,
    format: 'esm',
    // Bundled CommonJS dependencies (vscode-jsonrpc, io-ts, …) require Node built-ins: give ESM a require.
    banner: { js: 'import { createRequire as __symposium_createRequire } from "node:module"; const require = __symposium_createRequire(import.meta.url);' },
  }),
  build({ ...common, plugins: [], entryPoints: [VOCABULARY], outfile: path.join(outdir, 'o200k_base.cjs'), format: 'cjs' }),
]);

console.log(`built ${path.relative(root, path.join(outdir, 'extension.cjs'))} and ${path.relative(root, path.join(outdir, 'bridge.mjs'))}`);
