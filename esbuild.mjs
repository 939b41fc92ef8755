// Bundles the extension (CommonJS, loaded by VS Code's extension host) and the CLI.
import { build } from 'esbuild';
import { cpSync, mkdirSync } from 'node:fs';
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
  // the lexical index's build thread, started by both bundles (src/core/retrieval/lexicalBuilder.ts)
  build({ ...common, entryPoints: ['src/core/retrieval/lexicalWorker.ts'], outfile: 'dist/lexicalWorker.js' }),
  // the solver threads every tool call runs on (src/core/tools/runner.ts), started by both bundles
  build({ ...common, entryPoints: ['src/core/tools/solveWorker.ts'], outfile: 'dist/solveWorker.js' }),
]);
// the plot webview's plotting library, served from media/ (webviews load nothing remote)
mkdirSync('media/plots/vendor', { recursive: true });
cpSync('node_modules/plotly.js-basic-dist-min/plotly-basic.min.js', 'media/plots/vendor/plotly-basic.min.js');
cpSync('node_modules/plotly.js-basic-dist-min/LICENSE', 'media/plots/vendor/LICENSE-plotly.txt');
console.log(`built in ${Date.now() - t0} ms`);
