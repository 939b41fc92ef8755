/**
 * The store's lexical index: the flexsearch index in memory (lexical.ts), its snapshot on
 * disk (lexical.ndjson), and the build thread (lexicalBuilder.ts) while one runs. The snapshot
 * is written at the end of a build, debounced after updates and on close; a snapshot that is
 * stale (a crash, updates since) is completed at open by re-adding the files it lacks from
 * their shards, one that does not check out (or disagrees with the manifest) is rebuilt from
 * the shards and said. A failed build thread costs time (the index is rebuilt here from the
 * snapshot on disk and the shards), never a partial index.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LexicalBuilder } from '../lexicalBuilder.js';
import { LexicalIndex, loadSnapshot, saveSnapshot, SnapshotError } from '../lexical.js';
import type { ChunkTable, TextReader } from './chunks.js';
import { filesInIdOrder, idRanges, snapshotPath, snapshotProblem, type FileEntry, type Manifest } from './format.js';
import { tryRemove } from './repair.js';

/** the same threshold as WORKER_MIN_BYTES (build.ts) in chunks, for re-adding files from their shards (a resumed crash, compaction) */
export const WORKER_MIN_CHUNKS = 2500;

export class LexicalStore {
  index: LexicalIndex;
  /** the snapshot on disk is behind the index (or the index has dead ids to compact) */
  dirty = false;
  /** the lexical build thread while one runs: new chunks go there, lexical searches are answered there */
  builder?: LexicalBuilder;
  /** what went wrong with a build thread in the current build (the index was then built on this thread) */
  builderWarnings: string[] = [];
  /** where the lexical index was last built or extended in bulk (a build, re-adding at open) */
  lastThread?: 'worker' | 'main';
  private snapshotTimer?: NodeJS.Timeout;

  constructor(
    private readonly dir: string,
    private readonly manifest: Manifest,
    private readonly chunks: ChunkTable,
    /** a reader of chunk texts whose failures drop the file (IndexState.shardFailed) */
    private readonly openReader: () => TextReader,
    private readonly warn: (message: string) => void,
  ) {
    this.index = new LexicalIndex(manifest.lexical);
  }

  /**
   * Load the lexical snapshot; the files it lacks (a crash before it was written, updates
   * since) are re-added from their shards when `addMissing`, else returned for addMissing().
   * `fromDisk`: the index is the snapshot file as it is on disk (it loaded). `fresh`: the
   * manifest's ids are new, the snapshot is removed unread.
   */
  load(addMissing = true, fresh = false): { missing: FileEntry[]; fromDisk: boolean } {
    const cfg = this.manifest.lexical;
    let have: Record<string, [number, number]> = {};
    const file = snapshotPath(this.dir);
    let fromDisk = false;
    this.index = new LexicalIndex(cfg);
    if (fresh) tryRemove(file);
    else if (existsSync(file)) {
      try {
        const { index, head } = loadSnapshot(file, cfg);
        const bad = snapshotProblem(this.manifest, index, head);
        if (bad) throw new SnapshotError(bad, true);
        this.index = index;
        have = head.ranges;
        fromDisk = true;
      } catch (e) {
        // another tokenizer or layout (an upgrade) is re-indexed silently; damage is said
        if (!(e instanceof SnapshotError) || e.damaged) {
          const n = Object.keys(this.manifest.files).length;
          this.warn(
            `the lexical index (lexical.ndjson) is damaged (${(e as Error).message}): rebuilt from the shards of the ${n} indexed file${n === 1 ? '' : 's'}`,
          );
        }
        tryRemove(file);
      }
    }
    // files the snapshot lacks (a crash before it was written, updates since) come from shards,
    // in id order so the index is the same as a clean build's
    const missing = filesInIdOrder(this.manifest)
      .filter(([rel, f]) => !(have[rel] && have[rel][0] === f.firstId && have[rel][1] === f.count))
      .map(([, f]) => f);
    if (missing.length) this.dirty = true;
    if (!addMissing) return { missing, fromDisk };
    for (const f of missing) this.addFromShard(f);
    return { missing: [], fromDisk };
  }

  /**
   * Re-add files from their shards, in id order; many chunks go through the build thread,
   * which starts from the snapshot file as it is on disk (`fromDisk`; its header names only
   * what it holds) or empty (it did not load: then every file is missing).
   */
  async addMissing(missing: FileEntry[], fromDisk: boolean): Promise<void> {
    if (!missing.length) return;
    const chunks = missing.reduce((n, f) => n + f.count, 0);
    if (chunks >= WORKER_MIN_CHUNKS && this.startBuilder(fromDisk ? 'disk' : 'fresh')) {
      if (await this.feedBuilder(missing)) await this.finishBuilder();
      this.lastThread = this.builderWarnings.length ? 'main' : 'worker';
      return;
    }
    this.lastThread = 'main';
    for (const f of missing) this.addFromShard(f);
  }

  /**
   * Start the lexical build thread from: 'current', this thread's index (its snapshot,
   * written now when stale; this index covers every file in the manifest, so the header is
   * true); 'disk', the snapshot file as it is (its header names what it holds); 'fresh',
   * nothing (compaction, or no usable snapshot: the caller then adds every live file).
   * False when the thread cannot be started (the caller indexes on this thread).
   */
  startBuilder(from: 'current' | 'disk' | 'fresh'): boolean {
    const file = snapshotPath(this.dir);
    let base: string | undefined;
    if (from === 'disk') base = file;
    else if (from === 'current' && this.index.size > 0) {
      if (this.dirty || !existsSync(file)) this.writeSnapshot();
      base = file;
    }
    try {
      this.builder = LexicalBuilder.start(this.manifest.lexical, base);
    } catch (e) {
      this.builderWarning(`the lexical build thread could not start (${(e as Error).message}); indexed on the main thread`);
      this.builder = undefined;
    }
    return !!this.builder;
  }

  private builderWarning(message: string): void {
    this.builderWarnings.push(message);
    this.warn(message);
  }

  /** wait while the build thread is busy (backpressure); false when it failed (then reconciled here) */
  async builderRoom(): Promise<boolean> {
    if (!this.builder) return false;
    try {
      await this.builder.room();
      return true;
    } catch (e) {
      this.abandonBuilder(e as Error);
      return false;
    }
  }

  /** the build thread writes its snapshot and ends; the store loads that snapshot (compact, no build garbage) */
  async finishBuilder(): Promise<{ addMs: number } | undefined> {
    const b = this.builder;
    if (!b) return undefined;
    const target = snapshotPath(this.dir);
    try {
      const r = await b.finish(target, idRanges(this.manifest));
      const { index } = loadSnapshot(target, this.manifest.lexical);
      this.index = index;
      this.builder = undefined;
      this.dirty = false;
      return { addMs: r.addMs };
    } catch (e) {
      this.abandonBuilder(e as Error);
      return undefined;
    }
  }

  /**
   * The build thread failed or the build stopped early: end it and rebuild the lexical index
   * here from the snapshot on disk (the thread only replaces it on success) and the shards
   * of every file it lacks. Slower, never partial.
   */
  abandonBuilder(e?: Error): void {
    const b = this.builder;
    if (!b) return;
    this.builder = undefined;
    void b.terminate();
    if (e) this.builderWarning(`the lexical build thread failed (${e.message}); indexed on the main thread instead`);
    this.index = new LexicalIndex(this.manifest.lexical);
    this.load(true);
  }

  /**
   * End a thread re-adding files at open (the store closes): the snapshot on disk stays what
   * it was, and the next open re-adds from the shards the files it lacks
   */
  terminateBuilder(): void {
    if (!this.builder) return;
    void this.builder.terminate();
    this.builder = undefined;
    this.dirty = false;
  }

  /** send files from their shards to the build thread, with backpressure; false when the thread failed (then reconciled here) */
  async feedBuilder(files: FileEntry[]): Promise<boolean> {
    for (const f of files) {
      this.addFromShard(f);
      if (!(await this.builderRoom())) return false;
    }
    return true;
  }

  /** a chunk for the lexical index: to the build thread while one runs, else straight in */
  add(id: number, text: string): void {
    if (this.builder) this.builder.add(id, text);
    else this.index.add(id, text);
  }

  /** add a file's chunks to the lexical index from its shard (open, compaction) */
  addFromShard(f: FileEntry): void {
    const reader = this.openReader();
    try {
      for (let i = 0; i < f.count; i++) {
        const text = reader.indexed(this.chunks, f.firstId + i);
        // a text that fails its checksum drops the file (its ids added so far stay as dead ids)
        if (text === undefined) break;
        this.add(f.firstId + i, text);
      }
    } finally {
      reader.close();
    }
  }

  /** the lexical ranking (ids, best first; dead ids included, with room for them in the limit) */
  async search(query: string, n: number): Promise<number[]> {
    const limit = (size: number) => n + Math.min(50, Math.max(0, size - this.chunks.size));
    const b = this.builder;
    if (b?.accepting) {
      try {
        return await b.search(query, limit(b.size));
      } catch {
        /* the thread failed: this thread's index answers (it is being made whole) */
      }
    }
    return this.index.search(query, limit(this.index.size));
  }

  /** write the snapshot now (also done at the end of a build, debounced after updates, on close) */
  flush(): void {
    if (this.snapshotTimer) clearTimeout(this.snapshotTimer);
    this.snapshotTimer = undefined;
    if (!this.dirty || this.builder) return; // a build thread writes its own snapshot when it ends
    // compaction, when dead ids (removed or changed chunks) pass half the live ones: here for a
    // small index; a large one is compacted by the next build, on the build thread
    if (this.needsCompaction() && this.chunks.size < WORKER_MIN_CHUNKS) {
      this.index = new LexicalIndex(this.manifest.lexical);
      for (const [, f] of filesInIdOrder(this.manifest)) this.addFromShard(f);
    }
    this.writeSnapshot();
  }

  needsCompaction(): boolean {
    return this.index.size - this.chunks.size > Math.max(1000, this.chunks.size / 2);
  }

  private writeSnapshot(): void {
    saveSnapshot(this.index, snapshotPath(this.dir), { config: this.manifest.lexical, size: this.index.size, ranges: idRanges(this.manifest) });
    rmSync(join(this.dir, 'lexical.json'), { force: true }); // format 1's snapshot
    this.dirty = false;
  }

  /** write the snapshot a few seconds from now (after updates: one write for a burst of them) */
  scheduleSnapshot(): void {
    if (this.snapshotTimer) return;
    this.snapshotTimer = setTimeout(() => {
      this.snapshotTimer = undefined;
      try {
        this.flush();
      } catch {
        /* the next flush or open reconciles from the shards */
      }
    }, 5000);
    this.snapshotTimer.unref();
  }
}
