#!/usr/bin/env node
// `npm run package`: platform-specific .vsix files, each carrying only its own platform's
// native binaries.
//
//   node scripts/package.mjs                     linux-x64 (the default)
//   node scripts/package.mjs --target darwin-arm64,win32-x64
//   node scripts/package.mjs --target all        every target below (only when asked)
//   options: --no-build (use dist/ as it is), --out DIR (default out/)
//
// For each target a staging folder (out/package/<target>/) gets the bundles (dist/*.js), the
// manifest, media, the bundled notes (corpus/), the example workspace and the node_modules of
// the externals that must be on disk at run time (build.config.mjs): node-llama-cpp with only
// the target's @node-llama-cpp/* binary package (CPU build; the CUDA/Vulkan variants are
// hundreds of MB), @huggingface/transformers with onnxruntime-node's binaries for the target
// only and sharp's for the target only. onnxruntime-web is bundled inside transformers' Node
// build, so it is left out; so is node-llama-cpp's llama.cpp source bundle (only for building
// from source). vsce then packages the folder with `--target`. Sizes are printed at the end
// and written to out/package/sizes.json.
//
// Binary packages for other platforms are not installed by `npm ci` on this machine: they are
// fetched with `npm pack` (the ordinary npm client) into out/package/.platform-cache/ when a
// target needs them.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { common, distBundles } from '../build.config.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (name, def) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : def);
const OUT = resolve(ROOT, opt('--out', 'out'));
const STAGE_ROOT = join(OUT, 'package');

/** vsce target -> the platform's native packages and folders */
export const TARGETS = {
  'linux-x64': { llama: 'linux-x64', ort: 'linux/x64', sharp: ['linux-x64', 'libvips-linux-x64'] },
  'linux-arm64': { llama: 'linux-arm64', ort: 'linux/arm64', sharp: ['linux-arm64', 'libvips-linux-arm64'] },
  'linux-armhf': { llama: 'linux-armv7l', ort: undefined, sharp: ['linux-arm', 'libvips-linux-arm'] },
  'darwin-arm64': { llama: 'mac-arm64-metal', ort: 'darwin/arm64', sharp: ['darwin-arm64', 'libvips-darwin-arm64'] },
  'darwin-x64': { llama: 'mac-x64', ort: undefined, sharp: ['darwin-x64', 'libvips-darwin-x64'] },
  'win32-x64': { llama: 'win-x64', ort: 'win32/x64', sharp: ['win32-x64'] },
  'win32-arm64': { llama: 'win-arm64', ort: 'win32/arm64', sharp: ['win32-arm64'] },
};

const requested = opt('--target', 'linux-x64');
const targets = requested === 'all' ? Object.keys(TARGETS) : requested.split(',').map((t) => t.trim());
for (const t of targets) if (!TARGETS[t]) fail(`unknown target ${t}; targets: ${Object.keys(TARGETS).join(', ')}, all`);

function fail(msg) {
  console.error(`package: ${msg}`);
  process.exit(1);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, ...opts });
  if (r.status !== 0) fail(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal})`);
}

const readJson = (f) => JSON.parse(readFileSync(f, 'utf8'));

/** node's lookup: <from>/node_modules/<name>, then each parent's, up to the repo root */
function resolvePackage(name, fromDir, extraRoots) {
  for (let d = fromDir; ; d = dirname(d)) {
    const c = join(d, 'node_modules', name);
    if (existsSync(join(c, 'package.json'))) return c;
    if (d === ROOT || d === dirname(d)) break;
  }
  for (const r of extraRoots) {
    const c = join(r, 'node_modules', name);
    if (existsSync(join(c, 'package.json'))) return c;
  }
  return undefined;
}

/** the native packages of other platforms are optional dependencies: keep the target's only */
function platformAllowed(name, t) {
  const spec = TARGETS[t];
  if (name.startsWith('@node-llama-cpp/')) return name === `@node-llama-cpp/${spec.llama}`;
  if (name.startsWith('@img/sharp-')) return spec.sharp.some((s) => name === `@img/sharp-${s}`);
  return true;
}

/** packages never shipped: bundled elsewhere or only for development */
const DROP = new Set(['onnxruntime-web']);

/** fetches a platform package that is not installed here (npm pack into a cache folder) */
function fetchPlatformPackage(name, version) {
  const cache = join(STAGE_ROOT, '.platform-cache');
  const dir = join(cache, 'node_modules', name);
  if (existsSync(join(dir, 'package.json'))) return dir;
  mkdirSync(cache, { recursive: true });
  console.log(`fetching ${name}@${version} (not installed on this machine)`);
  const r = spawnSync('npm', ['pack', `${name}@${version}`, '--silent'], { cwd: cache, encoding: 'utf8' });
  if (r.status !== 0) fail(`npm pack ${name}@${version} failed: ${r.stderr}`);
  const tgz = join(cache, r.stdout.trim().split('\n').pop());
  mkdirSync(dir, { recursive: true });
  run('tar', ['-xzf', tgz, '-C', dir, '--strip-components=1']);
  rmSync(tgz);
  return dir;
}

/** the run-time closure of the externals for a target: [source dir, path inside the stage] */
function closure(t) {
  const roots = common.external.filter((n) => n !== 'vscode');
  const seen = new Map(); // source dir -> stage path
  const queue = roots.map((name) => ({ name, from: ROOT, optional: false, version: undefined }));
  const cacheRoot = join(STAGE_ROOT, '.platform-cache');
  while (queue.length) {
    const { name, from, optional, version } = queue.shift();
    if (DROP.has(name) || !platformAllowed(name, t)) continue;
    let dir = resolvePackage(name, from, [cacheRoot]);
    if (!dir && optional && version && (name.startsWith('@node-llama-cpp/') || name.startsWith('@img/sharp-'))) dir = fetchPlatformPackage(name, version);
    if (!dir) {
      if (optional) continue;
      fail(`${name} (needed by ${relative(ROOT, from) || 'the extension'}) is not installed: run npm ci`);
    }
    if (seen.has(dir)) continue;
    const inStage = dir.startsWith(cacheRoot) ? relative(cacheRoot, dir) : relative(ROOT, dir);
    seen.set(dir, inStage);
    const pkg = readJson(join(dir, 'package.json'));
    for (const [n, v] of Object.entries(pkg.dependencies ?? {})) queue.push({ name: n, from: dir, optional: false, version: v });
    for (const [n, v] of Object.entries(pkg.optionalDependencies ?? {})) queue.push({ name: n, from: dir, optional: true, version: v });
  }
  return [...seen.entries()];
}

/** files inside a package that a target does not need */
function keepFile(src, t) {
  const p = src.split(sep).join('/');
  if (/\/onnxruntime-node\/bin\/napi-v\d+\//.test(p)) {
    const ort = TARGETS[t].ort;
    const m = /\/bin\/napi-v\d+\/([^/]+)(?:\/([^/]+))?/.exec(p);
    if (m && m[2] && (!ort || `${m[1]}/${m[2]}` !== ort)) return false;
    if (m && !m[2] && !ort) return false;
  }
  if (/\/node-llama-cpp\/llama\/gitRelease\.bundle$/.test(p)) return false;
  if (/\/node-llama-cpp\/llama\/llama\.cpp(\/|$)/.test(p)) return false;
  if (/\.(map|d\.ts|d\.mts|d\.cts)$/.test(p)) return false;
  return true;
}

function dirSize(d) {
  let n = 0;
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    n += e.isDirectory() ? dirSize(p) : statSync(p).size;
  }
  return n;
}

const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;

// ------------------------------------------------------------------ main
if (!argv.includes('--no-build')) run('npm', ['run', '--silent', 'build']);
// the extension, the CLI's bundles and the thread scripts (build.config.mjs distBundles)
const BUNDLES = ['dist/extension.js', ...distBundles.map((b) => `dist/${b.out}`)];
for (const f of BUNDLES) if (!existsSync(join(ROOT, f))) fail(`${f} is missing: run npm run build`);

const pkg = readJson(join(ROOT, 'package.json'));
const sizes = existsSync(join(STAGE_ROOT, 'sizes.json')) ? readJson(join(STAGE_ROOT, 'sizes.json')) : {};
const vsce = join(ROOT, 'node_modules', '.bin', 'vsce');

for (const t of targets) {
  const t0 = Date.now();
  const stage = join(STAGE_ROOT, t);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });

  // the extension itself
  for (const f of [...BUNDLES, 'README.md', 'LICENSE', 'ARCHITECTURE.md']) cpSync(join(ROOT, f), join(stage, f));
  for (const d of ['media', 'corpus', 'examples/workspace']) if (existsSync(join(ROOT, d))) cpSync(join(ROOT, d), join(stage, d), { recursive: true });

  // the externals and their run-time dependencies, this platform's binaries only
  const deps = closure(t);
  for (const [src, dst] of deps) {
    cpSync(src, join(stage, dst), {
      recursive: true,
      filter: (p) => !relative(src, p).split(sep).includes('node_modules') && keepFile(p, t),
    });
    // a dependency left out on purpose must not make `npm ls` (run by vsce) fail
    const pj = join(stage, dst, 'package.json');
    const m = readJson(pj);
    let changed = false;
    for (const d of DROP)
      if (m.dependencies?.[d]) {
        delete m.dependencies[d];
        changed = true;
      }
    if (changed) writeFileSync(pj, JSON.stringify(m, null, 2));
  }

  // the manifest: dependencies = the externals as installed (vsce lists them with npm ls)
  const manifest = { ...pkg, scripts: {}, devDependencies: {} };
  manifest.dependencies = Object.fromEntries(
    common.external
      .filter((n) => n !== 'vscode' && existsSync(join(stage, 'node_modules', n)))
      .map((n) => [n, readJson(join(stage, 'node_modules', n, 'package.json')).version]),
  );
  delete manifest.bin;
  writeFileSync(join(stage, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  writeFileSync(join(stage, '.vscodeignore'), ['**/*.map', '**/.package-lock.json', '.platform-cache/**', ''].join('\n'));

  const vsix = join(OUT, `control-${t}-${pkg.version}.vsix`);
  rmSync(vsix, { force: true });
  run(vsce, ['package', '--target', t, '--allow-missing-repository', '--skip-license', '--allow-star-activation', '-o', vsix], { cwd: stage });
  const size = statSync(vsix).size;
  sizes[t] = { vsix: relative(ROOT, vsix), bytes: size, unpackedBytes: dirSize(stage), packages: deps.length, builtAt: new Date().toISOString() };
  console.log(
    `${t}: ${relative(ROOT, vsix)} ${mb(size)} (${mb(sizes[t].unpackedBytes)} unpacked, ${deps.length} packages in node_modules) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
}
writeFileSync(join(STAGE_ROOT, 'sizes.json'), JSON.stringify(sizes, null, 2) + '\n');
console.log('\n.vsix sizes:');
for (const [t, s] of Object.entries(sizes)) console.log(`  ${t.padEnd(14)} ${mb(s.bytes).padStart(9)}  ${s.vsix}`);
