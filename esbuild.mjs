// Bundles the extension (CommonJS, loaded by VS Code's extension host), the CLI and the thread scripts.
//   node esbuild.mjs           build once (`npm run build`)
//   node esbuild.mjs --watch   build, then rebuild on every change (`npm run watch`, the
//                              `watch` task that .vscode/launch.json's Run Extension starts)
import { build, context } from 'esbuild';
import { cpSync, mkdirSync } from 'node:fs';
import { common, distBuild, distBundles } from './build.config.mjs';

const watch = process.argv.includes('--watch');

const bundles = [
  // the banner stamps when the bundle starts loading, so activation can report load + activate
  {
    ...common,
    entryPoints: ['src/vscode/extension.ts'],
    outfile: 'dist/extension.js',
    banner: { js: 'globalThis.__controlLoadStart=performance.now();' },
  },
  // the CLI's bundles and the thread scripts (build.config.mjs)
  ...distBundles.map((b) => distBuild(b, 'dist')),
];

// the plot webview's plotting library, served from media/ (webviews load nothing remote)
function copyVendor() {
  mkdirSync('media/plots/vendor', { recursive: true });
  cpSync('node_modules/plotly.js-basic-dist-min/plotly-basic.min.js', 'media/plots/vendor/plotly-basic.min.js');
  cpSync('node_modules/plotly.js-basic-dist-min/LICENSE', 'media/plots/vendor/LICENSE-plotly.txt');
}

if (!watch) {
  const t0 = Date.now();
  await Promise.all(bundles.map((o) => build(o)));
  copyVendor();
  console.log(`built in ${Date.now() - t0} ms`);
} else {
  copyVendor();
  // One "started" line when the first bundle starts rebuilding and one "finished" line when the
  // last one is done: the begin and end patterns of the watch task's background problem matcher
  // (.vscode/tasks.json), so Run Extension waits for every bundle. Each error and warning is two
  // lines, the message and then `    file:line:column:`, which the matcher's pattern reads; a
  // message several bundles share (they share most sources) is said once.
  let running = 0;
  let errors = 0;
  let t0 = 0;
  let said = new Set();
  const status = {
    name: 'watch-status',
    setup(b) {
      b.onStart(() => {
        if (running++ === 0) {
          errors = 0;
          said = new Set();
          t0 = Date.now();
          console.log('[watch] build started');
        }
      });
      b.onEnd((r) => {
        for (const [mark, kind, list] of [
          ['✘', 'ERROR', r.errors],
          ['▲', 'WARNING', r.warnings],
        ]) {
          for (const m of list) {
            const where = m.location ? `    ${m.location.file}:${m.location.line}:${m.location.column + 1}:` : '';
            const text = `${mark} [${kind}] ${m.text}${where && '\n' + where}`;
            if (said.has(text)) continue;
            said.add(text);
            console.log(text);
            if (kind === 'ERROR') errors++;
          }
        }
        if (--running === 0) console.log(`[watch] build finished in ${Date.now() - t0} ms, ${errors} error(s); watching for changes`);
      });
    },
  };
  const contexts = await Promise.all(bundles.map((o) => context({ ...o, logLevel: 'silent', plugins: [status] })));
  await Promise.all(contexts.map((c) => c.watch()));
}
