/**
 * File-system helpers for the index: hashing, and the walk that finds the files to index
 * (supported types, .gitignore honoured, include/exclude globs). Atomic writes: atomic.ts.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { minimatch } from 'minimatch';
import { isSupported } from './ingest/index.js';

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export const toPosix = (p: string) => p.split(sep).join('/');

export interface FoundFile {
  rel: string;
  abs: string;
  size: number;
  mtimeMs: number;
}

export interface WalkOptions {
  include?: string[];
  exclude?: string[];
  gitignore?: boolean;
  /** absolute paths never entered (the index folder itself) */
  skipDirs?: string[];
}

const ALWAYS_SKIP = new Set(['.git', 'node_modules', '.control-index', '.hg', '.svn', '__pycache__', '.ipynb_checkpoints', '.venv', 'venv']);

export function globMatch(rel: string, globs: string[]): boolean {
  return globs.some((g) => minimatch(rel, g, { dot: true, matchBase: !g.includes('/') }));
}

/** whether one workspace-relative path is a file the index takes (type, globs, .gitignore) */
export function acceptsPath(root: string, rel: string, opts: WalkOptions): boolean {
  if (!isSupported(rel)) return false;
  const parts = rel.split('/');
  if (parts.some((p) => ALWAYS_SKIP.has(p))) return false;
  if (opts.include?.length && !globMatch(rel, opts.include)) return false;
  if (opts.exclude?.length && globMatch(rel, opts.exclude)) return false;
  if (opts.gitignore !== false) {
    for (let i = 0; i < parts.length; i++) {
      const base = parts.slice(0, i).join('/');
      const gi = join(root, base, '.gitignore');
      if (!existsSync(gi)) continue;
      const ig = ignore().add(readFileSync(gi, 'utf8'));
      const sub = parts.slice(i).join('/');
      if (ig.ignores(sub)) return false;
      // a directory on the way may be ignored
      for (let j = i + 1; j < parts.length; j++) if (ig.ignores(parts.slice(i, j).join('/') + '/')) return false;
    }
  }
  return true;
}

/** every supported file under root, sorted by path, with what was left out and why */
export function walk(root: string, opts: WalkOptions = {}): { files: FoundFile[]; skipped: { path: string; reason: string }[] } {
  const files: FoundFile[] = [];
  const skipped: { path: string; reason: string }[] = [];
  const skipDirs = new Set(opts.skipDirs ?? []);
  const rec = (dir: string, ignores: { base: string; ig: Ignore }[]) => {
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch {
      return;
    }
    const relDir = toPosix(relative(root, dir));
    let here = ignores;
    if (opts.gitignore !== false && entries.includes('.gitignore')) {
      try {
        here = [...ignores, { base: relDir, ig: ignore().add(readFileSync(join(dir, '.gitignore'), 'utf8')) }];
      } catch {
        /* unreadable .gitignore: nothing from it */
      }
    }
    const ignored = (rel: string, isDir: boolean) =>
      here.some(({ base, ig }) => {
        const sub = base ? rel.slice(base.length + 1) : rel;
        return ig.ignores(isDir ? `${sub}/` : sub);
      });
    for (const name of entries) {
      const abs = join(dir, name);
      const rel = relDir ? `${relDir}/${name}` : name;
      let st: Stats;
      try {
        st = statSync(abs);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        if (ALWAYS_SKIP.has(name) || skipDirs.has(abs) || ignored(rel, true)) continue;
        if (
          opts.exclude?.length &&
          globMatch(
            `${rel}/`,
            opts.exclude.filter((g) => g.endsWith('/**')).map((g) => g.slice(0, -2)),
          )
        )
          continue;
        rec(abs, here);
      } else if (st.isFile()) {
        if (!isSupported(name) || ignored(rel, false)) continue;
        if (opts.include?.length && !globMatch(rel, opts.include)) continue;
        if (opts.exclude?.length && globMatch(rel, opts.exclude)) continue;
        files.push({ rel, abs, size: st.size, mtimeMs: st.mtimeMs });
      }
    }
  };
  rec(root, []);
  files.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return { files, skipped };
}
