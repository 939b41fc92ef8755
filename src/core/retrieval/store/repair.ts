/**
 * The repairs at open that need no index in memory (ARCHITECTURE.md, invariant 11): temp files
 * of killed writers are removed, and the manifest is read, checked, and rebuilt from the
 * shards when it is lost or does not check out. The repairs on read (a shard that fails its
 * checks) are IndexState.shardFailed; the lexical snapshot's, LexicalStore.load.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { TEMP_NAME } from '../atomic.js';
import { sameLexical, type LexicalConfig } from '../lexical.js';
import type { CalibrationResult } from '../types.js';
import {
  calibrationProblem,
  fileEntryProblem,
  FORMAT,
  isCount,
  isObject,
  isRelPath,
  isStrings,
  kindOf,
  manifestPath,
  manifestProblem,
  readShardHeader,
  SHARD_FILE,
  shardKey,
  shardsDir,
  snapshotPath,
  type FileEntry,
  type Manifest,
  type ShardHeader,
} from './format.js';

/** a temp file of a live writer is left alone unless it is older than this (then it is abandoned) */
const STALE_TEMP_MS = 10 * 60 * 1000;

/** remove a file of the index if it can be (a read-only folder keeps it: the checks find it again, nothing is served from it) */
export function tryRemove(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    /* not removable here */
  }
}

/** whether a process with this id is running (a writer whose temp files are still its own) */
function running(pid: number): boolean {
  if (pid === process.pid) return true;
  if (!(pid > 0)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Remove the temp files of atomic writes (`<name>.tmp-<pid>-<n>`) in the index folder, its
 * shards and vectors, older than `before` (the open): a writer killed between writing and
 * renaming leaves one. A running writer's are left alone unless older than STALE_TEMP_MS.
 */
export function removeStaleTemps(dir: string, before: number): number {
  let removed = 0;
  const sweep = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const m = TEMP_NAME.exec(name);
      if (!m) continue;
      const p = join(d, name);
      try {
        const st = statSync(p);
        if (!st.isFile() || st.mtimeMs >= before) continue;
        if (running(Number(m[1])) && before - st.mtimeMs < STALE_TEMP_MS) continue;
        unlinkSync(p);
        removed++;
      } catch {
        /* gone meanwhile, or not ours to remove */
      }
    }
  };
  sweep(dir);
  sweep(shardsDir(dir));
  let models: string[] = [];
  try {
    models = readdirSync(join(dir, 'vectors'));
  } catch {
    /* no vectors */
  }
  for (const v of models) sweep(join(dir, 'vectors', v));
  return removed;
}

/**
 * A manifest rebuilt from the shards on disk (the manifest was lost or damaged): every shard
 * that checks out names its file, hash, source and chunks; ids are given in path order (as a
 * clean build gives them). What of `salvage` (the damaged manifest) is well-typed is kept:
 * the folder, globs, build time, calibration, skipped files, and a file's size and mtime
 * when its entry agrees with its shard (else the next build re-hashes the file: a content
 * hash that matches is not re-read). Returns the manifest and the shards it could not use
 * (damaged, or of the older layout: removed; their files are re-read by the next build).
 */
function manifestFromShards(dir: string, config: LexicalConfig, salvage: Record<string, unknown> = {}): { manifest: Manifest; unusable: string[] } {
  const found: { rel: string; header: ShardHeader }[] = [];
  const unusable: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(shardsDir(dir));
  } catch {
    /* no shards */
  }
  for (const name of names) {
    const m = SHARD_FILE.exec(name);
    if (!m) continue;
    const r = readShardHeader(join(shardsDir(dir), name));
    if (!r.ok || r.header.chunks.length === 0 || !isRelPath(r.header.path) || shardKey(r.header.path) !== m[1]) {
      unusable.push(`shards/${name}`);
      tryRemove(join(shardsDir(dir), name));
      continue;
    }
    found.push({ rel: r.header.path, header: r.header });
  }
  found.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const oldFiles = isObject(salvage.files) ? salvage.files : {};
  const files: Record<string, FileEntry> = {};
  let nextId = 1;
  for (const { rel, header } of found) {
    const old = oldFiles[rel];
    const keep =
      !fileEntryProblem(rel, old) && (old as unknown as FileEntry).hash === header.hash && (old as unknown as FileEntry).count === header.chunks.length;
    files[rel] = {
      hash: header.hash,
      size: keep ? (old as unknown as FileEntry).size : -1,
      mtimeMs: keep ? (old as unknown as FileEntry).mtimeMs : -1,
      key: shardKey(rel),
      firstId: nextId,
      count: header.chunks.length,
      source: header.source,
      ...(isObject(header.dropped) ? { dropped: header.dropped } : {}),
      ...(isCount(header.repaired) ? { repaired: header.repaired } : {}),
    };
    nextId += header.chunks.length;
  }
  const skipped: Record<string, string> = {};
  if (isObject(salvage.skipped)) for (const [rel, why] of Object.entries(salvage.skipped)) if (typeof why === 'string' && !files[rel]) skipped[rel] = why;
  const manifest: Manifest = { format: FORMAT, lexical: config, nextId, files, skipped };
  if (typeof salvage.root === 'string') manifest.root = salvage.root;
  if (typeof salvage.builtAt === 'string') manifest.builtAt = salvage.builtAt;
  if (isStrings(salvage.include)) manifest.include = salvage.include;
  if (isStrings(salvage.exclude)) manifest.exclude = salvage.exclude;
  if (isObject(salvage.calibration) && !calibrationProblem(salvage.calibration))
    manifest.calibration = salvage.calibration as Record<string, CalibrationResult>;
  if (isStrings(salvage.reindex)) manifest.reindex = salvage.reindex;
  return { manifest, unusable };
}

export interface OpenedManifest {
  manifest: Manifest;
  /** the repair to say, if there was one */
  said?: string;
  /** shards that could not be used (damaged or of the older layout, removed): their files are re-read by the next build */
  unusable: string[];
  /** the manifest's ids are new (rebuilt from the shards): the snapshot on disk does not fit them */
  freshLexical: boolean;
  /** the manifest was changed here: it is written once the index is loaded */
  repaired: boolean;
}

/**
 * The manifest in `dir`, checked: an older layout starts afresh (its shards and snapshot
 * removed); one that is missing, not JSON or ill-typed is rebuilt from the shards (said
 * unless there was none: a build killed before its first checkpoint leaves shards and no
 * manifest, which is not damage); another lexical config keeps the files (the lexical index
 * is re-indexed from the shards).
 */
export function readManifest(dir: string, config: LexicalConfig): OpenedManifest {
  const mpath = manifestPath(dir);
  let raw: unknown;
  let problem: string | undefined;
  if (existsSync(mpath)) {
    try {
      raw = JSON.parse(readFileSync(mpath, 'utf8'));
      if (!isObject(raw)) problem = `it is ${kindOf(raw)}, not a manifest`;
    } catch (e) {
      problem = (e as NodeJS.ErrnoException).code ? `it could not be read (${(e as Error).message})` : 'it is not valid JSON';
    }
  }
  if (isObject(raw) && isCount(raw.format, 1) && raw.format < FORMAT) {
    // an older layout: start afresh rather than misread it; vectors stay (each file is
    // checked against its content hash and reused when it matches). Any other format that
    // is not this one (0, -1, 1.5, 1e308: damage, or a newer layout) is ill-typed below and
    // rebuilt from the shards: a shard this version cannot check is dropped, never misread
    rmSync(shardsDir(dir), { recursive: true, force: true });
    mkdirSync(shardsDir(dir), { recursive: true });
    for (const f of [join(dir, 'lexical.json'), snapshotPath(dir)]) rmSync(f, { force: true });
    return { manifest: { format: FORMAT, lexical: config, nextId: 1, files: {}, skipped: {} }, unusable: [], freshLexical: false, repaired: false };
  }
  if (isObject(raw) && !problem) {
    problem =
      raw.format === undefined
        ? '"format" is missing'
        : typeof raw.format !== 'number'
          ? `"format" is ${kindOf(raw.format)}`
          : raw.format !== FORMAT
            ? `"format" is ${raw.format}, not a layout this version knows`
            : manifestProblem(raw);
    if (!problem) {
      const m = raw as unknown as Manifest;
      // another tokenizer or encoder version: the files stay, the lexical index is re-indexed from the shards
      const same = sameLexical(m.lexical, config);
      if (!same) m.lexical = config;
      return { manifest: m, unusable: [], freshLexical: false, repaired: !same };
    }
  }
  // no manifest, or a damaged one: rebuilt from the shards
  const { manifest, unusable } = manifestFromShards(dir, config, isObject(raw) ? raw : {});
  if (!problem) return { manifest, unusable, freshLexical: true, repaired: false };
  const n = Object.keys(manifest.files).length;
  const recheck = Object.values(manifest.files).filter((f) => f.size < 0).length;
  const said =
    `the index manifest was damaged (${problem}): rebuilt from the shards on disk (${n} file${n === 1 ? '' : 's'}${unusable.length ? `, ${unusable.length} unusable shard${unusable.length === 1 ? '' : 's'} left out` : ''})` +
    (recheck ? `; the next build re-checks ${recheck === n ? 'every file' : `${recheck} of them`} against its content hash` : '');
  return { manifest, said, unusable, freshLexical: true, repaired: true };
}
