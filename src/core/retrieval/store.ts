/**
 * The index store: one folder (the extension passes its workspace storage path; the CLI uses
 * `.control-index` in the workspace) holding a manifest, one shard per file, per-model vectors
 * and a lexical snapshot. `IndexStore` is the one entry point; it composes
 *
 *   store/format.ts       the layout on disk (manifest, shards with their CRC-32s, snapshot
 *                         ranges) and the checks of what is read back
 *   store/repair.ts       the repairs at open: temp files of killed writers, the manifest
 *   store/chunks.ts       the chunks in memory and their texts read (checked) from the shards
 *   store/lexicalStore.ts the lexical index, its snapshot and its build thread
 *   store/vectors.ts      the embeddings, on disk and in memory, and background embedding
 *   store/state.ts        all of them kept in step: a file in, a file out, the manifest
 *                         written; a shard that fails its checks drops its file
 *   store/build.ts        build and update (incremental, checkpointed, resumable)
 *   store/search.ts       lexical or hybrid search, the gate and its calibration
 *
 * Memory: chunk texts stay on disk. In memory per chunk are only its id, range, heading and
 * where its text sits in the shard; texts are read for the hits a search returns, the
 * candidates the lexical gate checks, and the chunks being embedded.
 *
 * Self-repair at open (ARCHITECTURE.md, invariant 11): temp files of killed writers are
 * removed; an ill-typed or unreadable manifest is rebuilt from the shards; a shard that fails
 * its checks leaves the index (its file is re-read at the next build); a snapshot that does
 * not check out or disagrees with the manifest is rebuilt from the shards. Each repair is said
 * (OpenOptions.onWarning, stats().warnings, the next build's summary); none throws.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Embedder } from './embedder.js';
import { DEFAULT_LEXICAL, type LexicalConfig } from './lexical.js';
import { IndexWriter } from './store/build.js';
import { manifestPath, SHARD_FILE, shardsDir } from './store/format.js';
import { readManifest, removeStaleTemps } from './store/repair.js';
import { calibrate, gate, search, type SearchOptions } from './store/search.js';
import { IndexState } from './store/state.js';
import type { BuildOptions, BuildSummary, CalibrationResult, Chunk, IndexStats, SearchResult } from './types.js';

export { MAX_FILE_BYTES, WORKER_MIN_BYTES } from './store/build.js';
export { WORKER_MIN_CHUNKS } from './store/lexicalStore.js';
export { LEXICAL_COVERAGE, type SearchOptions } from './store/search.js';

export interface OpenOptions {
  /** an embedder already loaded, or the path of a local ONNX model folder to load */
  embedder?: Embedder | string;
  /** threads for the embedder (default 1: the editor and the model share 2 cores) */
  threads?: number;
  lexical?: Partial<LexicalConfig>;
  /**
   * told each warning as it happens: a repair at open (a damaged manifest, snapshot or shard,
   * rebuilt), a shard that fails its checksum when read, a failed build thread. The same
   * messages are in stats().warnings and the next build's summary.
   */
  onWarning?: (message: string) => void;
}

export class IndexStore {
  readonly dir: string;
  private readonly writer: IndexWriter;

  private constructor(private readonly s: IndexState) {
    this.dir = s.dir;
    this.writer = new IndexWriter(s);
  }

  /**
   * open (or create) the index in `dir`; loads chunks, the lexical index and any stored
   * vectors, repairing what does not check out (see the module comment): never throws for
   * a damaged index, says what it repaired instead
   */
  static async open(dir: string, opts: OpenOptions = {}): Promise<IndexStore> {
    const openedAt = Date.now();
    mkdirSync(shardsDir(dir), { recursive: true });
    removeStaleTemps(dir, openedAt);
    const config: LexicalConfig = { ...DEFAULT_LEXICAL, ...opts.lexical };
    const opened = readManifest(dir, config);
    const s = new IndexState(dir, opened.manifest, opts.onWarning);
    if (opened.said) s.warn(opened.said);
    for (const r of opened.manifest.reindex ?? []) s.reindex.add(r); // found by an earlier session, not re-read yet
    for (const u of opened.unusable) s.reindex.add(u); // files unknown (their shards unreadable): the next build finds them
    let repaired = opened.repaired;
    if (s.loadChunks()) repaired = true;
    const { missing, fromDisk } = s.lexical.load(false, opened.freshLexical);
    await s.lexical.addMissing(missing, fromDisk);
    if (repaired) {
      try {
        s.writeManifest();
      } catch (e) {
        s.warn(`the repaired manifest could not be written (${(e as Error).message}); it is repaired again at the next open`);
      }
    }
    if (opts.embedder) {
      try {
        if (typeof opts.embedder === 'string') {
          const { loadEmbedder } = await import('./embedder.js');
          s.vectors.embedder = await loadEmbedder(opts.embedder, { threads: opts.threads });
        } else s.vectors.embedder = opts.embedder;
        s.vectors.load();
      } catch (e) {
        s.vectors.error = (e as Error).message;
      }
    }
    return new IndexStore(s);
  }

  /**
   * Index the supported files under `folder`: unchanged files are skipped by size+mtime and
   * content hash, removed files leave the index, the manifest is checkpointed as it goes, so
   * a killed or cancelled build resumes. Embedding starts in the background afterwards.
   */
  build(folder: string, opts: BuildOptions = {}): Promise<BuildSummary> {
    return this.writer.build(folder, opts);
  }

  /**
   * Re-index the given files (absolute or relative to the built folder): changed ones are
   * re-chunked (and embedded at once when there is an embedder), deleted or no longer
   * accepted ones leave the index. Returns how many files changed.
   */
  update(changedPaths: string[]): Promise<{ indexed: number; removed: number; skipped: { path: string; reason: string }[]; ms: number }> {
    return this.writer.update(changedPaths);
  }

  /** write the lexical snapshot now (also done at the end of a build, debounced after updates, on close) */
  flush(): void {
    this.s.lexical.flush();
  }

  /** embed every chunk without a vector, in the background; resumable (per-file checkpoints) */
  startEmbedding(onProgress?: (done: number, total: number) => void): Promise<void> {
    return this.s.vectors.start(onProgress);
  }

  /**
   * Stops background embedding (a local model is about to use the cores: the two sharing
   * 2 cores slowed the model's prefill 6 to 10 times); what is embedded is kept, and
   * `startEmbedding()` resumes with the rest.
   */
  pauseEmbedding(): Promise<boolean> {
    return this.s.vectors.pause();
  }

  /** resolves when background embedding has finished (at once when none is running) */
  whenEmbedded(): Promise<void> {
    return this.s.vectors.whenDone();
  }

  /**
   * The passages for a query, best first, or none: hybrid (RRF of the lexical and dense
   * rankings, cosine-gated) when an embedder is loaded, else lexical (gated by the share of
   * query terms a passage contains). Returning nothing is a normal outcome.
   */
  search(query: string, opts: SearchOptions = {}): Promise<SearchResult> {
    return search(this.s, query, opts);
  }

  /**
   * Set the cosine gate from probe questions (see fusion.ts), stored with the index for this
   * embedder. Waits for background embedding first.
   */
  calibrate(inDomain?: string[], offDomain?: string[]): Promise<CalibrationResult> {
    return calibrate(this.s, inDomain, offDomain);
  }

  stats(): IndexStats {
    const { manifest, vectors, lexical, warnings, reindex } = this.s;
    const files = Object.values(manifest.files);
    const dropped: Record<string, number> = {};
    for (const f of files) for (const [k, v] of Object.entries(f.dropped ?? {})) dropped[k] = (dropped[k] ?? 0) + v;
    const skipped = Object.keys(manifest.skipped).length;
    return {
      files: files.length + skipped,
      chunks: this.s.chunks.size,
      filesIndexed: files.length,
      filesSkipped: skipped,
      embedded: vectors.size,
      mode: vectors.embedder && vectors.size > 0 ? 'hybrid' : 'lexical',
      ...(vectors.embedder ? { embedder: vectors.embedder.name } : {}),
      ...(vectors.error ? { embedderError: vectors.error } : {}),
      gate: gate(this.s),
      droppedLowValue: dropped,
      ...(manifest.root ? { root: manifest.root } : {}),
      ...(manifest.builtAt ? { builtAt: manifest.builtAt } : {}),
      ...(lexical.lastThread ? { lexicalThread: lexical.lastThread } : {}),
      ...(warnings.length ? { warnings: [...warnings] } : {}),
      ...(reindex.size ? { reindexPending: reindex.size } : {}),
    };
  }

  /** every chunk in the index (by id order): for tests and tools that list what is indexed */
  allChunks(): Chunk[] {
    const { chunks, manifest } = this.s;
    const reader = this.s.reader();
    try {
      const out: Chunk[] = [];
      for (const id of [...chunks.ids()]) {
        const m = chunks.get(id);
        const text = m && reader.text(m);
        if (!m || text === undefined) continue;
        out.push({ id: m.id, path: m.file.rel, source: m.file.source, range: m.range, text, ...(m.heading ? { heading: m.heading } : {}) });
      }
      // a file dropped part-way (a damaged shard) leaves nothing of it behind
      return out.filter((c) => manifest.files[c.path]);
    } finally {
      reader.close();
    }
  }

  /** stop background work, write the lexical snapshot, release the embedder */
  async close(): Promise<void> {
    // a running build stops at its next file, as if cancelled (its work is checkpointed and a
    // new build resumes it), and ends before the store closes: never two writers on one folder
    // (the extension reopens the indexes when the embedder setting changes, perhaps mid-build)
    this.writer.closing = true;
    await this.writer.idle();
    await this.s.vectors.pause();
    // a thread re-adding files at open: the snapshot on disk stays what it was, and the next
    // open re-adds from the shards the files it lacks
    this.s.lexical.terminateBuilder();
    this.s.lexical.flush();
    this.s.searchReader.close();
    await this.s.vectors.embedder?.dispose().catch(() => undefined);
  }

  /**
   * Whether `dir` holds an index: a manifest, or shards the open recovers one from (a lost or
   * damaged manifest is no reason to say there is none). Reads only, creates nothing: for
   * front ends that search an index only where there is one. What it holds, once repaired,
   * is what open() and stats() say.
   */
  static exists(dir: string): boolean {
    if (existsSync(manifestPath(dir))) return true;
    try {
      return readdirSync(shardsDir(dir)).some((name) => SHARD_FILE.test(name));
    } catch {
      return false;
    }
  }

  /** delete the index folder's contents (Rebuild from scratch) */
  static clear(dir: string): void {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir)) rmSync(join(dir, e), { recursive: true, force: true });
  }
}
