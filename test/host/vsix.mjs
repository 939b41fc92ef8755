// The packaged extension in the real VS Code: the linux-x64 .vsix (built by
// scripts/package.mjs when missing or older than dist/) is installed with code-server's
// `--install-extension` into a fresh user-data dir, its contents are checked (its bundles, only
// linux-x64 native binaries), its CLI runs from there, its node-llama-cpp loads the prebuilt
// binary, and a workbench opened on it activates @control (the Control log says "activated in").
//
// Run by test/host/run.mjs after its own phases (skip with --no-vsix), or alone:
//   node test/host/vsix.mjs
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { distBundles } from '../../build.config.mjs';
import * as env from '../../scripts/vscode-env.mjs';
import { freePort, killGroup, sleep } from './procs.mjs';

const TARGET = 'linux-x64';

function findFiles(dir, re, out = []) {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) findFiles(p, re, out);
    else if (re.test(p)) out.push(p);
  }
  return out;
}

/** the .vsix, packaged again when dist/extension.js is newer */
function ensureVsix() {
  const pkg = JSON.parse(readFileSync(join(env.ROOT, 'package.json'), 'utf8'));
  const vsix = join(env.ROOT, 'out', `control-${TARGET}-${pkg.version}.vsix`);
  const dist = join(env.ROOT, 'dist', 'extension.js');
  const fresh =
    existsSync(vsix) && statSync(vsix).mtimeMs >= statSync(dist).mtimeMs && statSync(vsix).mtimeMs >= statSync(join(env.ROOT, 'package.json')).mtimeMs;
  if (!fresh) {
    const r = spawnSync(process.execPath, [join(env.ROOT, 'scripts', 'package.mjs'), '--no-build', '--target', TARGET], { cwd: env.ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`packaging failed:\n${(r.stdout + r.stderr).slice(-2000)}`);
  }
  return { vsix, version: pkg.version };
}

/**
 * Runs the .vsix tests; `record(name, ok, ms, error)` reports each. Returns when done;
 * never throws (a failure is a recorded test).
 */
export async function runVsixTests(record, { budgetMs = 90_000 } = {}) {
  const t0 = Date.now();
  const step = async (name, fn) => {
    const t = Date.now();
    try {
      await fn();
      record(name, true, Date.now() - t);
      return true;
    } catch (e) {
      record(name, false, Date.now() - t, e?.message ?? String(e));
      return false;
    }
  };
  const tmp = mkdtempSync(join(tmpdir(), 'control-vsix-'));
  const ud = join(tmp, 'user-data');
  const exts = join(ud, 'exts');
  const home = join(tmp, 'home');
  const ws = join(tmp, 'workspace');
  for (const d of [ud, join(ud, 'User'), home, join(home, '.config'), join(home, '.local/share'), join(home, '.cache')]) mkdirSync(d, { recursive: true });
  cpSync(join(env.ROOT, 'examples', 'workspace'), ws, { recursive: true });
  const childEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_RUNTIME_DIR: tmp,
  };
  for (const k of Object.keys(childEnv)) if (/^npm_/i.test(k)) delete childEnv[k];
  let server;
  let browser;
  let installed;
  try {
    let vsix;
    const ok = await step(`vsix: npm run package builds the ${TARGET} .vsix`, () => {
      vsix = ensureVsix().vsix;
      const mb = statSync(vsix).size / 1024 / 1024;
      console.log(`     ${vsix.replace(env.ROOT + '/', '')}: ${mb.toFixed(1)} MB`);
    });
    if (!ok) return;

    const installedOk = await step('vsix: installs with code-server --install-extension into a fresh user-data dir', () => {
      const [cmd, args] = env.codeServerCommand({ port: 0, userDataDir: ud, folder: ws });
      // the same entry and user-data/extensions dirs, with --install-extension instead of serving
      const entryArgs = [args[0], '--user-data-dir', ud, '--extensions-dir', exts, '--install-extension', vsix];
      const r = spawnSync(cmd, entryArgs, { env: childEnv, encoding: 'utf8', timeout: 60_000 });
      if (r.status !== 0) throw new Error(`exit ${r.status ?? r.signal}:\n${(r.stdout + r.stderr).slice(-1500)}`);
      const dirs = existsSync(exts) ? readdirSync(exts).filter((d) => d.startsWith('control-eng.control-')) : [];
      if (dirs.length !== 1)
        throw new Error(`expected one installed control-eng.control-* folder in ${exts}, found ${JSON.stringify(readdirSync(exts))}\n${r.stdout}`);
      installed = join(exts, dirs[0]);
      // the .vsix declares its target platform (VS Code refuses it on another platform)
      const installedManifest = join(installed, '.vsixmanifest');
      const manifest = existsSync(installedManifest)
        ? readFileSync(installedManifest, 'utf8')
        : spawnSync('unzip', ['-p', vsix, 'extension.vsixmanifest'], { encoding: 'utf8' }).stdout;
      if (!manifest.includes(`TargetPlatform="${TARGET}"`))
        throw new Error(`the manifest does not declare TargetPlatform="${TARGET}": ${manifest.slice(0, 600)}`);
    });
    if (!installedOk) return;

    await step(
      'vsix: carries its bundles (extension, CLI, solver and index threads) and only linux-x64 native binaries (node-llama-cpp, onnxruntime-node, sharp)',
      () => {
        const nm = join(installed, 'node_modules');
        const llama = readdirSync(join(nm, '@node-llama-cpp'));
        if (llama.join() !== 'linux-x64') throw new Error(`@node-llama-cpp/: ${llama.join(', ')}`);
        const natives = findFiles(nm, /\.(node|so(\.\d+)*|dylib|dll)$/).map((f) => f.slice(nm.length + 1));
        const foreign = natives.filter((f) => /darwin|win32|win-|mac-|arm64|armv7|cuda|vulkan/.test(f));
        if (foreign.length) throw new Error(`other platforms' binaries: ${foreign.slice(0, 8).join(', ')}`);
        for (const need of ['@node-llama-cpp/linux-x64/bins/linux-x64/llama-addon.node', 'onnxruntime-node/bin/napi-v6/linux/x64/onnxruntime_binding.node'])
          if (!existsSync(join(nm, need))) throw new Error(`missing ${need}`);
        for (const f of ['extension.js', ...distBundles.map((b) => b.out)]) if (!existsSync(join(installed, 'dist', f))) throw new Error(`no dist/${f}`);
      },
    );

    await step(
      'vsix: the installed CLI runs each of its bundles: solve with a matrix literal (cliSolve.js, restrictedMath.js, solveWorker.js), ask (cliAssist.js)',
      () => {
        const cli = join(installed, 'dist', 'cli.js');
        const run = (args) => {
          const r = spawnSync(process.execPath, [cli, ...args], { cwd: tmp, env: childEnv, encoding: 'utf8', timeout: 60_000 });
          if (r.status !== 0) throw new Error(`control ${args[0]}: exit ${r.status ?? r.signal}: ${(r.stdout + r.stderr).slice(-1500)}`);
          return JSON.parse(r.stdout);
        };
        // LQR of A = [0 1; -2 -3], B = [0; 1], Q = I, R = 1: K = [sqrt(5) - 2, sqrt(5) - 2] (SciPy agrees)
        const want = Math.sqrt(5) - 2;
        const near = (K) => Array.isArray(K) && K.length === 1 && K[0].length === 2 && K[0].every((k) => Math.abs(k - want) < 1e-12);
        const solved = run(['solve', 'lqr', '{"A": "[0 1; -2 -3]", "B": "[0; 1]", "Q": "eye(2)", "R": 1}', '--json']);
        if (!near(solved.result?.K) || solved.verification?.ok !== true) throw new Error(`solve: ${JSON.stringify(solved).slice(0, 600)}`);
        const asked = run(['ask', '/lqr A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1', '--json']);
        const call = asked.calls?.find((c) => c.tool === 'lqr');
        if (!near(call?.result?.K)) throw new Error(`ask: ${JSON.stringify(asked).slice(0, 600)}`);
      },
    );

    await step('vsix: the installed node-llama-cpp loads its prebuilt linux-x64 binary (no build)', () => {
      const code =
        "import('node-llama-cpp').then(async (m) => { const l = await m.getLlama({ gpu: false, build: 'never', progressLogs: false, logLevel: m.LlamaLogLevel.error }); console.log('buildType=' + l.buildType); await l.dispose(); })";
      const r = spawnSync(env.NODE24, ['-e', code], { cwd: installed, env: childEnv, encoding: 'utf8', timeout: 60_000 });
      if (r.status !== 0 || !/buildType=prebuilt/.test(r.stdout)) throw new Error(`exit ${r.status}: ${(r.stdout + r.stderr).slice(-1500)}`);
    });

    await step('vsix: the installed extension activates in the real VS Code host (Control log: "activated in")', async () => {
      const port = await freePort();
      const [cmd, args] = env.codeServerCommand({ port, userDataDir: ud, folder: ws });
      let log = '';
      server = spawn(cmd, args, { env: childEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      server.stdout.on('data', (b) => (log += b));
      server.stderr.on('data', (b) => (log += b));
      for (const end = Date.now() + 30_000; ; await sleep(200)) {
        if (server.exitCode !== null) throw new Error(`code-server exited ${server.exitCode}: ${log.slice(-1500)}`);
        try {
          if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
        } catch {}
        if (Date.now() > end) throw new Error(`code-server not healthy: ${log.slice(-1500)}`);
      }
      browser = await chromium.launch({
        executablePath: env.CHROMIUM,
        headless: true,
        args: env.CHROMIUM_ARGS,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`);
      let found;
      for (const end = Date.now() + Math.max(20_000, budgetMs - (Date.now() - t0)); Date.now() < end; await sleep(500)) {
        const logs = findFiles(join(ud, 'logs'), /control-eng\.control[/\\]Control\.log$/);
        for (const f of logs) {
          const m = /activated in ([\d.]+) ms \(([\d.]+) ms including/.exec(readFileSync(f, 'utf8'));
          if (m) found = { file: f, activate: m[1], total: m[2] };
        }
        if (found) break;
      }
      if (!found) {
        const all = findFiles(join(ud, 'logs'), /\.log$/).map((f) => f.slice(ud.length + 1));
        const host = findFiles(join(ud, 'logs'), /exthost\.log$/)
          .map((f) => readFileSync(f, 'utf8').slice(-1500))
          .join('\n');
        throw new Error(`no "activated in" in the Control log; logs: ${all.join(', ')}\n${host}`);
      }
      console.log(`     activated from the installed .vsix in ${found.activate} ms (${found.total} ms including loading the bundle)`);
      mkdirSync(env.RESULTS_DIR, { recursive: true });
      await page.screenshot({ path: join(env.RESULTS_DIR, 'vsix-installed.png') }).catch(() => {});
    });
  } finally {
    try {
      await Promise.race([browser?.close(), sleep(5000)]);
    } catch {}
    if (server?.pid) await killGroup(server.pid, 30);
    rmSync(tmp, { recursive: true, force: true });
  }
}

// standalone: node test/host/vsix.mjs
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  env.requireReady();
  const results = [];
  const t0 = Date.now();
  await runVsixTests((name, ok, ms, error) => {
    results.push(ok);
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${name} (${ms} ms)${ok ? '' : `\n     ${String(error).replace(/\n/g, '\n     ')}`}`);
  });
  const passed = results.filter(Boolean).length;
  console.log(`vsix: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  console.log(`${passed} passed, ${results.length - passed} failed`);
  process.exit(passed === results.length && passed > 0 ? 0 : 1);
}
