// The CLI bundled as dist/ holds it: cli.js (the dispatcher) with its command bundles and its
// two thread scripts beside it (the solver threads every call runs on, and the lexical index's
// build thread), as listed in build.config.mjs (distBundles). Tests that spawn the CLI
// (test/slow/, test/fuzz/) get it here, so a new bundle is added in one place.
//
// It is built once for all of them: into node_modules/.cache/control-cli-bundle/<key>/, where
// the key hashes everything the bundle is made from (src/, the build options, the lockfile,
// this file). Each test file runs in its own process, so the cache is on disk: the first file
// builds it, the others copy it. A changed source gives a new key, so a stale bundle is never
// used. Two processes building at once each build into their own folder and rename it into
// place; the loser's copy is dropped (a rename onto an existing folder fails).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

const CACHE = join('node_modules', '.cache', 'control-cli-bundle');
const INPUTS = ['build.config.mjs', 'package-lock.json', join('test', 'unit', '_cliBundle.ts')];
const DAY_MS = 24 * 3600 * 1000;

/** sha-256 over the path and bytes of every file the bundle is made from (paths relative to the repo root, the tests' cwd) */
function sourceKey(): string {
  const h = createHash('sha256');
  const add = (p: string) => {
    h.update(p + '\0');
    h.update(readFileSync(p));
    h.update('\0');
  };
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) add(p);
    }
  };
  walk('src');
  for (const f of INPUTS) add(f);
  return h.digest('hex').slice(0, 20);
}

async function buildInto(dir: string): Promise<void> {
  // @ts-expect-error: a plain .mjs config without types
  const { distBuild, distBundles } = await import('../../build.config.mjs');
  // every bundle dist/ holds for the CLI (its dispatcher, command bundles and thread scripts)
  await Promise.all((distBundles as { out: string }[]).map((b) => build({ ...distBuild(b, dir), logLevel: 'silent' })));
}

let cached: Promise<string> | undefined;

/** the folder holding the bundle of the current sources, built if no test has built it yet */
function bundleDir(): Promise<string> {
  cached ??= (async () => {
    const key = sourceKey();
    const dir = join(CACHE, key);
    if (existsSync(dir)) return dir;
    mkdirSync(CACHE, { recursive: true });
    const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
    try {
      await buildInto(tmp);
      try {
        renameSync(tmp, dir);
      } catch (e) {
        if (!existsSync(dir)) throw e; // not "another process got there first"
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    // bundles of earlier sources: dropped after a day (a run still copying one is long over)
    for (const name of readdirSync(CACHE)) {
      const p = join(CACHE, name);
      if (name !== key && Date.now() - statSync(p).mtimeMs > DAY_MS) rmSync(p, { recursive: true, force: true });
    }
    return dir;
  })();
  return cached;
}

/** puts the bundled CLI at `cli` (a path ending in cli.js), its other bundles and source maps beside it */
export async function buildCliBundle(cli: string): Promise<void> {
  const dir = await bundleDir();
  mkdirSync(dirname(cli), { recursive: true });
  for (const f of readdirSync(dir)) copyFileSync(join(dir, f), f === 'cli.js' ? cli : join(dirname(cli), f));
}
