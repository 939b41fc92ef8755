/**
 * Building and updating the index. Files are matched by size+mtime, then by content hash, so
 * only changed files are re-chunked and re-embedded. A file's shard is written (atomically:
 * temp + rename) before the manifest names it, and the manifest is checkpointed as the build
 * goes (every half second, or less often when the manifest is large, so writing it stays a
 * few % of the build): a killed or cancelled build resumes from its last checkpoint. Large
 * builds index on the lexical build thread (lexicalStore.ts); dense embedding runs in the
 * background afterwards, while lexical search answers; files given to `update` are embedded
 * at once (else the cosine gate would hide them).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { setImmediate as yieldNow } from 'node:timers/promises';
import { ControlError } from '../../errors.js';
import { writeAtomic } from '../atomic.js';
import { acceptsPath, sha256, toPosix, walk, type FoundFile } from '../files.js';
import { ingestFile } from '../ingest/index.js';
import type { BuildOptions, BuildSummary, BuildTimings } from '../types.js';
import { encodeShard, filesInIdOrder, shardKey, shardPath, type FileEntry } from './format.js';
import { WORKER_MIN_CHUNKS } from './lexicalStore.js';
import type { IndexState } from './state.js';

/** files above this are skipped (a PDF of this size is a scan, not a text) */
export const MAX_FILE_BYTES = 100 * 1024 * 1024;
const CHECKPOINT_MS = 500;
/** a checkpoint waits at least this many times its own last cost (keeps it a few % of a build) */
const CHECKPOINT_COST_FACTOR = 25;
/**
 * A build whose new or changed files add up to this many bytes indexes them on the lexical
 * build thread (lexicalWorker.ts); smaller ones (an edit, a few notes) on the calling thread,
 * where the thread's start, snapshot write and reload would cost more than they save.
 */
export const WORKER_MIN_BYTES = 4 * 1024 * 1024;

/** the one writer of an index folder's files: builds and updates, one build at a time */
export class IndexWriter {
  private building = false;
  /** the store is closing: a running build stops at its next file */
  closing = false;
  /** resolves when the running build ends (updates wait for it: its thread owns the lexical index) */
  private buildEnded?: Promise<void>;
  private timings?: BuildTimings;

  constructor(private readonly s: IndexState) {}

  /** resolves when no build is running */
  async idle(): Promise<void> {
    if (this.buildEnded) await this.buildEnded;
  }

  /**
   * (Re-)index one file when its content changed. Returns 'unchanged', 'indexed' or the
   * reason it was skipped.
   */
  private async indexFile(file: FoundFile): Promise<'unchanged' | 'indexed' | { skipped: string }> {
    const s = this.s;
    const manifest = s.manifest;
    const old = manifest.files[file.rel];
    if (old && old.size === file.size && old.mtimeMs === file.mtimeMs) return 'unchanged';
    if (file.size > MAX_FILE_BYTES) {
      s.dropFile(file.rel);
      return { skipped: `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB` };
    }
    const tm = this.timings;
    let t = performance.now();
    let bytes: Buffer;
    try {
      bytes = readFileSync(file.abs);
    } catch (e) {
      s.dropFile(file.rel);
      return { skipped: `unreadable: ${(e as Error).message}` };
    }
    const hash = sha256(bytes);
    if (tm) {
      const now = performance.now();
      tm.readHashMs += now - t;
      t = now;
    }
    if (old && old.hash === hash) {
      old.size = file.size;
      old.mtimeMs = file.mtimeMs;
      return 'unchanged';
    }
    if (!old && manifest.skipped[file.rel]?.startsWith(`${hash}:`)) {
      return { skipped: manifest.skipped[file.rel].slice(hash.length + 1) };
    }
    let result;
    try {
      result = await ingestFile(file.rel, bytes);
    } catch (e) {
      s.dropFile(file.rel);
      return { skipped: (e as Error).message || 'could not be read' };
    } finally {
      if (tm) {
        const now = performance.now();
        tm.parseMs += now - t;
        t = now;
      }
    }
    if (!result.chunks.length) {
      s.dropFile(file.rel);
      return { skipped: Object.keys(result.dropped).length ? 'only low-value text (index, contents, bibliography)' : 'no text' };
    }
    const ids = new Set(result.chunks.map((c) => c.id));
    if (ids.size !== result.chunks.length) throw new Error(`duplicate chunk ids in ${file.rel}`); // fail closed
    s.dropFile(file.rel);
    const entry: FileEntry = {
      hash,
      size: file.size,
      mtimeMs: file.mtimeMs,
      key: shardKey(file.rel),
      firstId: manifest.nextId,
      count: result.chunks.length,
      source: result.source,
      ...(Object.keys(result.dropped).length ? { dropped: result.dropped } : {}),
      ...(result.repaired ? { repaired: result.repaired } : {}),
    };
    manifest.nextId += result.chunks.length;
    const shard = encodeShard(file.rel, hash, result.source, result.chunks, {
      ...(entry.dropped ? { dropped: entry.dropped } : {}),
      ...(entry.repaired ? { repaired: entry.repaired } : {}),
    });
    writeAtomic(shardPath(s.dir, entry.key), shard.buf);
    if (tm) {
      const now = performance.now();
      tm.writeMs += now - t;
      t = now;
    }
    manifest.files[file.rel] = entry;
    delete manifest.skipped[file.rel];
    s.reindex.delete(file.rel);
    s.register(file.rel, entry, shard.header, shard.dataStart);
    for (let i = 0; i < result.chunks.length; i++) {
      const c = result.chunks[i];
      s.lexical.add(entry.firstId + i, c.heading ? `${c.heading}\n${c.text}` : c.text);
    }
    if (tm) {
      if (s.lexical.builder) tm.sendMs = (tm.sendMs ?? 0) + performance.now() - t;
      else tm.indexMs += performance.now() - t;
    }
    s.lexical.dirty = true;
    return 'indexed';
  }

  /**
   * Index the supported files under `folder`: unchanged files are skipped by size+mtime and
   * content hash, removed files leave the index, the manifest is checkpointed as it goes, so
   * a killed or cancelled build resumes. Embedding starts in the background afterwards.
   */
  async build(folder: string, opts: BuildOptions = {}): Promise<BuildSummary> {
    if (this.building) throw new ControlError('An index build is already running.', 'invalid');
    this.building = true;
    let ended!: () => void;
    this.buildEnded = new Promise<void>((r) => (ended = r));
    const s = this.s;
    const { manifest, lexical } = s;
    const t0 = performance.now();
    const timings: BuildTimings = { walkMs: 0, readHashMs: 0, parseMs: 0, writeMs: 0, indexMs: 0, checkpointMs: 0, snapshotMs: 0 };
    this.timings = timings;
    const manifestMs0 = s.manifestMs;
    try {
      const root = resolve(folder);
      if (!existsSync(root) || !statSync(root).isDirectory()) throw new ControlError(`${folder} is not a folder.`, 'invalid');
      if (manifest.root && manifest.root !== root) {
        // another folder: start afresh rather than mix two workspaces' files
        for (const rel of Object.keys(manifest.files)) s.dropFile(rel);
        manifest.skipped = {};
      }
      manifest.root = root;
      manifest.include = opts.include;
      manifest.exclude = opts.exclude;
      opts.onProgress?.({ phase: 'scan', done: 0, total: 0 });
      const { files } = walk(root, { include: opts.include, exclude: opts.exclude, gitignore: opts.gitignore, skipDirs: [resolve(s.dir)] });
      timings.walkMs = performance.now() - t0;
      const present = new Set(files.map((f) => f.rel));
      let removed = 0;
      for (const rel of Object.keys(manifest.files)) {
        if (!present.has(rel)) {
          s.dropFile(rel);
          removed++;
        }
      }
      for (const rel of Object.keys(manifest.skipped)) if (!present.has(rel)) delete manifest.skipped[rel];
      // many new or changed bytes (or a large index to compact): index on the build thread
      let pending = 0;
      for (const f of files) {
        const old = manifest.files[f.rel];
        if (!old || old.size !== f.size || old.mtimeMs !== f.mtimeMs) pending += f.size;
      }
      const compact = lexical.needsCompaction() && s.chunks.size >= WORKER_MIN_CHUNKS;
      const thread = opts.lexicalThread ?? 'auto';
      const useWorker = thread === 'worker' || (thread === 'auto' && (pending >= WORKER_MIN_BYTES || compact));
      lexical.builderWarnings = [];
      if (useWorker && lexical.startBuilder(compact ? 'fresh' : 'current') && compact) await lexical.feedBuilder(filesInIdOrder(manifest).map(([, f]) => f));
      const onThread = !!lexical.builder;
      const skipped: { path: string; reason: string }[] = [];
      let changed = 0;
      let cancelled = false;
      let lastCheckpoint = performance.now();
      let lastYield = performance.now();
      for (let i = 0; i < files.length; i++) {
        if (opts.signal?.aborted || this.closing) {
          cancelled = true;
          break;
        }
        const f = files[i];
        const r = await this.indexFile(f);
        if (lexical.builder) {
          // backpressure: wait while the build thread has enough queued (this also lets
          // searches, progress and cancellation through)
          const tw = performance.now();
          await lexical.builderRoom();
          timings.waitMs = (timings.waitMs ?? 0) + performance.now() - tw;
          lastYield = performance.now();
        }
        if (r === 'indexed') changed++;
        else if (r !== 'unchanged') {
          skipped.push({ path: f.rel, reason: r.skipped });
          let hash = '';
          try {
            hash = sha256(readFileSync(f.abs));
          } catch {
            /* unreadable */
          }
          manifest.skipped[f.rel] = `${hash}:${r.skipped}`;
        }
        opts.onProgress?.({ phase: 'ingest', done: i + 1, total: files.length, path: f.rel });
        const now = performance.now();
        if (now - lastCheckpoint > Math.max(CHECKPOINT_MS, CHECKPOINT_COST_FACTOR * s.lastManifestMs)) {
          s.writeManifest();
          lastCheckpoint = now;
        }
        if (now - lastYield > 50) {
          await yieldNow(); // let searches, progress and cancellation through
          lastYield = performance.now();
        }
      }
      for (const [rel, why] of Object.entries(manifest.skipped)) {
        if (!skipped.some((x) => x.path === rel)) skipped.push({ path: rel, reason: why.slice(why.indexOf(':') + 1) });
      }
      if (!cancelled) {
        manifest.builtAt = new Date().toISOString();
        s.reindex.clear(); // re-read, or no longer in the folder
      }
      s.writeManifest();
      const ts = performance.now();
      if (lexical.builder) {
        // the thread indexes what is still queued, writes the snapshot; this thread loads it
        const r = await lexical.finishBuilder();
        if (r) timings.indexMs += r.addMs;
      }
      lexical.lastThread = onThread && !lexical.builderWarnings.length ? 'worker' : 'main';
      lexical.flush();
      timings.snapshotMs = performance.now() - ts;
      timings.checkpointMs = s.manifestMs - manifestMs0; // every manifest write during the build
      if (s.vectors.embedder) void s.vectors.start();
      const filesIndexed = Object.keys(manifest.files).length;
      // what was said since the last summary (repairs at open included), then marked as given
      const warnings = s.warnings.slice(s.reported);
      s.reported = s.warnings.length;
      opts.onProgress?.({ phase: 'done', done: files.length, total: files.length });
      return {
        files: files.length,
        chunks: s.chunks.size,
        filesIndexed,
        filesSkipped: skipped.length,
        filesChanged: changed,
        filesRemoved: removed,
        skipped,
        ms: Math.round(performance.now() - t0),
        cancelled,
        lexicalThread: lexical.lastThread,
        ...(warnings.length ? { warnings } : {}),
        timings: Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.round(v)])) as unknown as BuildTimings,
      };
    } finally {
      // an error mid-build: the thread's index is dropped, this thread's is made whole from the shards
      if (lexical.builder) lexical.abandonBuilder();
      this.building = false;
      this.timings = undefined;
      this.buildEnded = undefined;
      ended();
    }
  }

  /**
   * Re-index the given files (absolute or relative to the built folder): changed ones are
   * re-chunked (and embedded at once when there is an embedder), deleted or no longer
   * accepted ones leave the index. Returns how many files changed.
   */
  async update(changedPaths: string[]): Promise<{ indexed: number; removed: number; skipped: { path: string; reason: string }[]; ms: number }> {
    // a running build (with its thread) takes the changes in, or they come after it
    await this.idle();
    const s = this.s;
    const manifest = s.manifest;
    const t0 = performance.now();
    const root = manifest.root;
    if (!root) throw new ControlError('The index has not been built yet: build it first.', 'invalid');
    let indexed = 0;
    let removed = 0;
    const skipped: { path: string; reason: string }[] = [];
    const touched: string[] = [];
    for (const p of changedPaths) {
      const abs = isAbsolute(p) ? p : join(root, p);
      const rel = toPosix(relative(root, abs));
      if (rel.startsWith('..')) continue;
      let st;
      try {
        st = statSync(abs);
      } catch {
        st = undefined;
      }
      if (!st?.isFile() || !acceptsPath(root, rel, { include: manifest.include, exclude: manifest.exclude })) {
        if (manifest.files[rel]) {
          s.dropFile(rel);
          removed++;
        }
        delete manifest.skipped[rel];
        continue;
      }
      const r = await this.indexFile({ rel, abs, size: st.size, mtimeMs: st.mtimeMs });
      if (r === 'indexed') {
        indexed++;
        touched.push(rel);
      } else if (r !== 'unchanged') skipped.push({ path: rel, reason: r.skipped });
    }
    if (indexed || removed) {
      s.writeManifest();
      s.lexical.scheduleSnapshot();
    }
    if (s.vectors.embedder && touched.length) {
      for (const rel of touched) await s.vectors.embedFile(rel, manifest.files[rel]);
    }
    return { indexed, removed, skipped, ms: Math.round((performance.now() - t0) * 10) / 10 };
  }
}
