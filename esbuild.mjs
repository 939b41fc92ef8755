// Bundles the extension (CommonJS, loaded by VS Code's extension host) and the CLI.
// `vscode` is provided by the host; native packages stay external so their binaries load
// from node_modules.
import { build } from 'esbuild';

const watch = process.argv.includes('--watch');
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  minify: true,
  keepNames: true,
  logLevel: 'info',
  external: ['vscode', 'node-llama-cpp', '@huggingface/transformers', 'onnxruntime-node'],
};

const t0 = Date.now();
await Promise.all([
  build({ ...common, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js' }),
  build({
    ...common,
    entryPoints: ['src/cli.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
  }),
]);
if (!watch) console.log(`built in ${Date.now() - t0} ms`);
