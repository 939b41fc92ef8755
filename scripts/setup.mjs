#!/usr/bin/env node
// `npm run setup`: install what the host (real VS Code) tests need on a fresh Debian machine.
//
//   0. The project's npm dependencies: `npm ci` when node_modules is missing or older than
//      package-lock.json (so the README's two commands each install on a fresh machine, and
//      running both does not install twice).
//   1. Debian packages: chromium (driven by playwright-core), libkrb5-dev + build-essential +
//      pkg-config + python3 (code-server's native modules compile at install time). Skipped
//      when dpkg already has them all; `apt-get update` only runs when something is missing.
//   2. Node 24 from the npm package `node` (code-server 4.139 refuses Node 20).
//   3. code-server 4.139.1 (= VS Code 1.139.1), its native modules built against Node 24's
//      headers.
//
// 2 and 3 are cached under the git-ignored .vscode-test/ with a marker written only after a
// step succeeded, so a second run does nothing and returns at once. Paths: scripts/vscode-env.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as env from './vscode-env.mjs';

const t0 = Date.now();
const did = [];
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

function log(msg) {
  console.log(`[setup] ${msg}`);
}

function run(cmd, args, opts = {}) {
  log(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
}

async function step(name, fn) {
  const t = Date.now();
  const what = await fn();
  const line = `${name}: ${what} (${secs(Date.now() - t)})`;
  did.push(line);
  log(line);
}

function dpkgInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

async function aptPackages() {
  const missing = env.APT_PACKAGES.filter((p) => !dpkgInstalled(p));
  if (missing.length === 0) return `already installed (${env.APT_PACKAGES.join(', ')})`;
  if (process.platform !== 'linux' || !existsSync('/usr/bin/apt-get')) {
    throw new Error(`missing Debian packages ${missing.join(', ')} and no apt-get here`);
  }
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => (sudo.length ? run('sudo', ['apt-get', ...args], { env: aptEnv }) : run('apt-get', args, { env: aptEnv }));
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', '--no-install-recommends', ...missing]);
  return `installed ${missing.join(', ')}`;
}

/**
 * The environment minus what an outer `npm run` adds: npm reads npm_config_* variables as
 * its own config, and code-server's postinstall reads the Node version from the *outer*
 * npm's npm_config_user_agent ("node/v20") and refuses.
 */
function cleanEnv(extra) {
  const out = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^npm_/i.test(k) && k !== 'NODE' && k !== 'INIT_CWD') out[k] = v;
  }
  return { ...out, ...extra };
}

/** `npm install <spec>` into its own folder (so the project's lockfile is untouched). */
function npmInstallInto(dir, spec, extraEnv = {}) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, description: 'cache for npm run setup' }) + '\n');
  run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', spec], {
    cwd: dir,
    env: cleanEnv(extraEnv),
  });
}

async function node24() {
  if (env.node24Ready()) return `cached ${env.NODE24}`;
  npmInstallInto(env.NODE24_DIR, `node@${env.NODE24_VERSION}`);
  const v = spawnSync(env.NODE24, ['--version'], { encoding: 'utf8' }).stdout?.trim();
  if (v !== `v${env.NODE24_VERSION}`) throw new Error(`${env.NODE24} --version printed ${JSON.stringify(v)}`);
  if (!existsSync(join(env.NODE24_HEADERS, 'include', 'node', 'node.h'))) {
    throw new Error(`no Node headers under ${env.NODE24_HEADERS}/include/node`);
  }
  writeFileSync(env.NODE24_MARKER, env.NODE24_VERSION + '\n');
  return `installed ${v} at ${env.NODE24}`;
}

async function codeServer() {
  if (env.codeServerReady()) return `cached ${env.CODE_SERVER_PKG}`;
  // code-server's postinstall runs under `node` from PATH (must be 24) and node-gyp must use
  // Node 24's headers: the machine-wide npm config says nodedir=/usr (Node 20's).
  npmInstallInto(env.CODE_SERVER_DIR, `code-server@${env.CODE_SERVER_VERSION}`, {
    PATH: `${env.NODE24_BIN_DIR}:${process.env.PATH}`,
    npm_config_nodedir: env.NODE24_HEADERS,
    JOBS: '2',
  });
  const r = spawnSync(env.NODE24, [env.CODE_SERVER_ENTRY, '--version'], {
    encoding: 'utf8',
    env: { ...process.env, HOME: join(env.CACHE, 'home') },
  });
  if (r.status !== 0) throw new Error(`code-server --version failed: ${r.stderr || r.stdout}`);
  writeFileSync(env.CODE_SERVER_MARKER, `${env.CODE_SERVER_VERSION} node-${env.NODE24_VERSION}\n`);
  const version = r.stdout.split('\n').find((l) => /^\d+\.\d+\.\d+/.test(l)) ?? r.stdout.trim();
  return `installed code-server ${version}`;
}

/** npm ci unless node_modules already matches package-lock.json (npm's own hidden lockfile is newer) */
function npmDependencies() {
  const hidden = join('node_modules', '.package-lock.json');
  if (existsSync(hidden) && statSync(hidden).mtimeMs >= statSync('package-lock.json').mtimeMs)
    return 'already installed (node_modules is newer than package-lock.json)';
  run('npm', ['ci', '--no-audit', '--no-fund']);
  return 'npm ci';
}

try {
  await step('npm', npmDependencies);
  mkdirSync(env.CACHE, { recursive: true });
  await step('apt', aptPackages);
  await step('node24', node24);
  await step('code-server', codeServer);
  if (!existsSync(env.CHROMIUM)) throw new Error(`${env.CHROMIUM} is missing after apt`);
  log(`done in ${secs(Date.now() - t0)}:`);
  for (const line of did) console.log(`  - ${line}`);
  console.log(`  node24:      ${env.NODE24}`);
  console.log(`  code-server: ${env.CODE_SERVER_ENTRY} (VS Code ${env.VSCODE_VERSION})`);
  console.log(`  chromium:    ${env.CHROMIUM}`);
} catch (e) {
  console.error(`[setup] FAILED after ${secs(Date.now() - t0)}: ${e.message}`);
  process.exit(1);
}
