// Bundles the extension (CommonJS, loaded by VS Code's extension host) and the CLI.
import { build } from 'esbuild';
import { common } from './build.config.mjs';

const t0 = Date.now();
await Promise.all([
  // the banner stamps when the bundle starts loading, so activation can report load + activate
  build({
    ...common,
    entryPoints: ['src/vscode/extension.ts'],
    outfile: 'dist/extension.js',
    banner: { js: 'globalThis.__controlLoadStart=performance.now();' },
  }),
  build({ ...common, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } }),
]);
console.log(`built in ${Date.now() - t0} ms`);
