/**
 * The index store: one folder (the extension passes its workspace storage path; the CLI uses
 * `.control-index` in the workspace) holding
 *
 *   manifest.json            files (content hash, size, mtime, chunk id range), skipped files,
 *                            calibration, the lexical config; rewritten atomically as a
 *                            checkpoint during a build (every half second, or less often when
 *                            the manifest is large, so writing it stays a few % of the build)
 *                            and at its end
 *   shards/<key>.shard       one file's chunks (written before the manifest names them): a u32
 *                            header length, the header's CRC-32, a JSON header (path, hash,
 *                            source, per chunk its id, range, heading, byte length and CRC-32),
 *                            then the texts as UTF-8; every read is checked against the CRCs
 *   vectors/<model>/<key>.bin one file's embeddings for one model, with the file's hash; a
 *                            partial file is resumed where it stopped
 *   lexical.ndjson           a flexsearch export: a JSON header line (config, size, the id ranges
 *                            it holds), then one line per export part (`key<TAB>data`, data as
 *                            flexsearch writes it), then an end line (part count, CRC-32, ids
 *                            and terms held); when it is stale (a crash, an update since) the
 *                            missing files are re-added from their shards on open
 *
 * Memory: chunk texts stay on disk. In memory per chunk are only its id, range, heading and
 * where its text sits in the shard; texts are read for the hits a search returns, the
 * candidates the lexical gate checks, and the chunks being embedded. An index of another
 * `format` (an older layout) is cleared and rebuilt rather than misread.
 *
 * Self-repair at open (ARCHITECTURE.md, invariant 11): temp files of killed writers are
 * removed; an ill-typed or unreadable manifest is rebuilt from the shards; a shard that fails
 * its checks leaves the index (its file is re-read at the next build); a snapshot that does
 * not check out or disagrees with the manifest is rebuilt from the shards. Each repair is said
 * (OpenOptions.onWarning, stats().warnings, the next build's summary); none throws.
 *
 * Every write is atomic (temp + rename). Files are matched by size+mtime, then by content
 * hash, so only changed files are re-chunked and re-embedded, and a killed build resumes from
 * its last checkpoint. Dense embedding runs in the background while lexical search answers;
 * files given to `update` are embedded at once (else the cosine gate would hide them).
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { ControlError } from '../errors.js';
import type { Embedder } from './embedder.js';
import { calibrateThreshold, dot, IN_DOMAIN_PROBES, OFF_DOMAIN_PROBES, rrf } from './fusion.js';
import { ingestFile } from './ingest/index.js';
import { LexicalBuilder } from './lexicalBuilder.js';
import { DEFAULT_LEXICAL, LexicalIndex, loadSnapshot, saveSnapshot, SnapshotError, splitDigitRuns, type LexicalConfig } from './lexical.js';
import { writeAtomic } from './atomic.js';
import { acceptsPath, sha256, toPosix, walk, type FoundFile } from './files.js';
import { ChunkTable, TextReader, type FileRef, type OnDamage } from './store/chunks.js';
import { encodeShard, readShardHeader, shardIsOf, shardKey, shardPath, SHARD_FILE, snapshotProblem, writeManifestFile, type FileEntry, type Manifest, type ShardHeader } from './store/format.js';
import { readManifest, removeStaleTemps, tryRemove } from './store/repair.js';
import type { BuildOptions, BuildSummary, CalibrationResult, BuildTimings, Chunk, GateInfo, IndexStats, SearchHit, SearchResult } from './types.js';

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
/** the same threshold in chunks, for re-adding files from their shards (a resumed crash, compaction) */
export const WORKER_MIN_CHUNKS = 2500;
/** lexical-only search: candidates failing the gate in a row that end the scan (see search) */
const GATE_MISSES = 3;
/** lexical-only gate: share of the query's terms a passage must contain */
export const LEXICAL_COVERAGE = 0.5;
const EMBED_BATCH = 16;

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

export interface SearchOptions {
  /** hits to return (default 5) */
  k?: number;
  /** lexical and dense candidates considered before fusion (default 50) */
  candidates?: number;
  /** override the cosine gate (tests, experiments) */
  threshold?: number;
}

const yieldNow = () => new Promise<void>((r) => setImmediate(r));

function vectorDirName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_');
}

export class IndexStore {
  private manifest: Manifest;
  private lexical: LexicalIndex;
  /** numeric id -> its file (live chunks only); metadata from shard headers on demand, texts from shards */
  private chunks: ChunkTable;
  private timings?: BuildTimings;
  private vectors = new Map<number, Float32Array>();
  private embedder?: Embedder;
  private embedderError?: string;
  private embedding?: Promise<void>;
  private embedAbort?: AbortController;
  private lexicalDirty = false;
  private snapshotTimer?: NodeJS.Timeout;
  private building = false;
  /** close() was called: a running build stops at its next file */
  private closing = false;
  /** shards open for searches (the 64 most recently read), closed by close() */
  private searchReader: TextReader;
  /** resolves when the running build ends (updates wait for it: its thread owns the lexical index) */
  private buildEnded?: Promise<void>;
  /** the lexical build thread while one runs: new chunks go there, lexical searches are answered there */
  private builder?: LexicalBuilder;
  /** what went wrong with a build thread in the current build (the index was then built on this thread) */
  private builderWarnings: string[] = [];
  /** every warning since open (build threads, repairs), in order; `reported`: how many a build summary has given */
  private warnings: string[] = [];
  private reported = 0;
  /** files that left the index because their stored copy failed a check: the next build re-reads them */
  private reindex = new Set<string>();
  /** where the lexical index was last built or extended in bulk (a build, re-adding at open) */
  private lastLexicalThread?: 'worker' | 'main';

  private constructor(
    readonly dir: string,
    manifest: Manifest,
    lexical: LexicalIndex,
    private readonly onWarning?: (message: string) => void,
  ) {
    this.manifest = manifest;
    this.lexical = lexical;
    const onDamage: OnDamage = (file, why) => this.shardFailed(file, why);
    this.chunks = new ChunkTable(dir, onDamage);
    this.searchReader = new TextReader(dir, onDamage, 64);
  }

  /** say a warning: kept for stats() and the next build summary, and told to onWarning at once */
  private warn(message: string): void {
    this.warnings.push(message);
    try {
      this.onWarning?.(message);
    } catch {
      /* a listener's failure is not the index's */
    }
  }

  /**
   * open (or create) the index in `dir`; loads chunks, the lexical index and any stored
   * vectors, repairing what does not check out (see the module comment): never throws for
   * a damaged index, says what it repaired instead
   */
  static async open(dir: string, opts: OpenOptions = {}): Promise<IndexStore> {
    const openedAt = Date.now();
    mkdirSync(join(dir, 'shards'), { recursive: true });
    removeStaleTemps(dir, openedAt);
    const config: LexicalConfig = { ...DEFAULT_LEXICAL, ...opts.lexical };
    const opened = readManifest(dir, config);
    const m = opened.manifest;
    let repaired = opened.repaired;
    const store = new IndexStore(dir, m, new LexicalIndex(config), opts.onWarning);
    if (opened.said) store.warn(opened.said);
    for (const r of m.reindex ?? []) store.reindex.add(r); // found by an earlier session, not re-read yet
    for (const u of opened.unusable) store.reindex.add(u); // files unknown (their shards unreadable): the next build finds them
    if (store.loadChunks()) repaired = true;
    const { missing, fromDisk } = store.loadLexical(false, opened.freshLexical);
    await store.addMissing(missing, fromDisk);
    if (repaired) {
      try {
        store.writeManifest();
      } catch (e) {
        store.warn(`the repaired manifest could not be written (${(e as Error).message}); it is repaired again at the next open`);
      }
    }
    if (opts.embedder) {
      try {
        if (typeof opts.embedder === 'string') {
          const { loadEmbedder } = await import('./embedder.js');
          store.embedder = await loadEmbedder(opts.embedder, { threads: opts.threads });
        } else store.embedder = opts.embedder;
        store.loadVectors();
      } catch (e) {
        store.embedderError = (e as Error).message;
      }
    }
    return store;
  }

  // ---------------------------------------------------------------- loading

  private register(rel: string, f: FileEntry, header: ShardHeader, dataStart: number): void {
    this.chunks.addFile({ rel, key: f.key, hash: f.hash, source: header.source, firstId: f.firstId, count: f.count }, header, dataStart);
  }

  /**
   * Register every file of the manifest from its shard header. A file whose shard is missing
   * or of another content (a build killed between writing a shard and naming it: the file is
   * behind) leaves the index silently; one whose shard is damaged or of the older layout
   * without checksums leaves it with a warning, its shard removed. Either way the next
   * build re-reads it. True when a shard was removed (the manifest is then written: a
   * behind file is not, as the folder may have another writer whose manifest is newer).
   */
  private loadChunks(): boolean {
    const damaged: string[] = [];
    let old = 0;
    let changed = false;
    for (const [rel, f] of Object.entries(this.manifest.files).sort((a, b) => a[1].firstId - b[1].firstId)) {
      const shard = readShardHeader(shardPath(this.dir, f.key));
      if (!shard.ok || !shardIsOf(shard.header, rel, f.hash, f.count)) {
        delete this.manifest.files[rel];
        if (!shard.ok && shard.kind === 'damaged') damaged.push(`${rel} (${shard.why})`);
        if (!shard.ok && shard.kind === 'old') old++;
        if (!shard.ok && shard.kind !== 'missing') {
          this.reindex.add(rel);
          tryRemove(shardPath(this.dir, f.key));
          changed = true;
        }
        continue;
      }
      this.register(rel, f, shard.header, shard.dataStart);
    }
    if (damaged.length) {
      const list = damaged.slice(0, 5).join('; ') + (damaged.length > 5 ? `; and ${damaged.length - 5} more` : '');
      this.warn(`${damaged.length} file${damaged.length === 1 ? '' : 's'} left the index, their stored text damaged: ${list}; never served, re-read at the next build`);
    }
    if (old) {
      this.warn(`${old} file${old === 1 ? ' was' : 's were'} indexed in an older layout without checksums and left the index; the next build re-reads ${old === 1 ? 'it' : 'them'}`);
    }
    return changed;
  }

  /**
   * A shard that failed a check as it was read (a text's CRC-32, its header, cut short,
   * gone). Its header is read again to tell what happened:
   * - it checks out and is this file's: the data is damaged; or it is damaged itself: the
   *   file leaves the index at once, the shard is removed and the manifest written (a reopen
   *   does not serve it either); the next build re-reads the file. Its vectors stay (keyed by
   *   the file's content hash, reused when the re-read file is unchanged).
   * - it is gone: the file leaves the index here (nothing is written: the folder may have
   *   another writer), and the next build re-reads it.
   * - it is another content's (a newer write, by another process on this folder): this
   *   index is behind, not damaged; the passage is not served and nothing is repaired.
   * Said in each case but the last.
   */
  private shardFailed(file: FileRef, why: string): void {
    const f = this.manifest.files[file.rel];
    if (!f || f.key !== file.key || f.firstId !== file.firstId) return; // already dropped or replaced here
    const now = readShardHeader(shardPath(this.dir, file.key));
    if (now.ok && !shardIsOf(now.header, file.rel, file.hash, file.count)) return;
    if (!now.ok && now.kind === 'old') return;
    const gone = !now.ok && now.kind === 'missing';
    this.searchReader.forget(file);
    if (gone) {
      for (let i = 0; i < f.count; i++) {
        this.chunks.delete(f.firstId + i);
        this.vectors.delete(f.firstId + i);
      }
      delete this.manifest.files[file.rel];
      this.lexicalDirty = true;
    } else {
      try {
        this.dropFile(file.rel, true);
      } catch {
        /* its shard could not be removed: the file has left the index all the same */
      }
    }
    this.reindex.add(file.rel);
    this.warn(`${file.rel} left the index: ${gone ? 'its shard is missing' : why}; ${gone ? 'the next build re-reads it' : 'its text is never served, the next build re-reads it'}`);
    if (gone) return;
    try {
      this.writeManifest();
    } catch {
      /* the next open finds the same damage */
    }
  }

  /**
   * Load the lexical snapshot; the files it lacks (a crash before it was written, updates
   * since) are re-added from their shards when `addMissing`, else returned for addMissing().
   * `fromDisk`: the index is the snapshot file as it is on disk (it loaded).
   */
  private loadLexical(addMissing = true, fresh = false): { missing: FileEntry[]; fromDisk: boolean } {
    const cfg = this.manifest.lexical;
    let have: Record<string, [number, number]> = {};
    const file = join(this.dir, 'lexical.ndjson');
    let fromDisk = false;
    this.lexical = new LexicalIndex(cfg);
    if (fresh) tryRemove(file);
    else if (existsSync(file)) {
      try {
        const { index, head } = loadSnapshot(file, cfg);
        const bad = snapshotProblem(this.manifest, index, head);
        if (bad) throw new SnapshotError(bad, true);
        this.lexical = index;
        have = head.ranges;
        fromDisk = true;
      } catch (e) {
        // another tokenizer or layout (an upgrade) is re-indexed silently; damage is said
        if (!(e instanceof SnapshotError) || e.damaged) {
          const n = Object.keys(this.manifest.files).length;
          this.warn(`the lexical index (lexical.ndjson) is damaged (${(e as Error).message}): rebuilt from the shards of the ${n} indexed file${n === 1 ? '' : 's'}`);
        }
        tryRemove(file);
      }
    }
    // files the snapshot lacks (a crash before it was written, updates since) come from shards,
    // in id order so the index is the same as a clean build's
    const missing = Object.entries(this.manifest.files)
      .filter(([rel, f]) => !(have[rel] && have[rel][0] === f.firstId && have[rel][1] === f.count))
      .sort((a, b) => a[1].firstId - b[1].firstId)
      .map(([, f]) => f);
    if (missing.length) this.lexicalDirty = true;
    if (!addMissing) return { missing, fromDisk };
    for (const f of missing) this.addLexicalFromShard(f);
    return { missing: [], fromDisk };
  }

  /**
   * Re-add files from their shards, in id order; many chunks go through the build thread,
   * which starts from the snapshot file as it is on disk (`fromDisk`; its header names only
   * what it holds) or empty (it did not load: then every file is missing).
   */
  private async addMissing(missing: FileEntry[], fromDisk: boolean): Promise<void> {
    if (!missing.length) return;
    const chunks = missing.reduce((n, f) => n + f.count, 0);
    if (chunks >= WORKER_MIN_CHUNKS && this.startBuilder(fromDisk ? 'disk' : 'fresh')) {
      if (await this.feedBuilder(missing)) await this.finishBuilder();
      this.lastLexicalThread = this.builderWarnings.length ? 'main' : 'worker';
      return;
    }
    this.lastLexicalThread = 'main';
    for (const f of missing) this.addLexicalFromShard(f);
  }

  /**
   * Start the lexical build thread from: 'current', this thread's index (its snapshot,
   * written now when stale; this index covers every file in the manifest, so the header is
   * true); 'disk', the snapshot file as it is (its header names what it holds); 'fresh',
   * nothing (compaction, or no usable snapshot: the caller then adds every live file).
   * False when the thread cannot be started (the caller indexes on this thread).
   */
  private startBuilder(from: 'current' | 'disk' | 'fresh'): boolean {
    const file = join(this.dir, 'lexical.ndjson');
    let base: string | undefined;
    if (from === 'disk') base = file;
    else if (from === 'current' && this.lexical.size > 0) {
      if (this.lexicalDirty || !existsSync(file)) this.writeSnapshot();
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
  private async builderRoom(): Promise<boolean> {
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
  private async finishBuilder(): Promise<{ addMs: number } | undefined> {
    const b = this.builder;
    if (!b) return undefined;
    const target = join(this.dir, 'lexical.ndjson');
    try {
      const r = await b.finish(target, this.ranges());
      const { index } = loadSnapshot(target, this.manifest.lexical);
      this.lexical = index;
      this.builder = undefined;
      this.lexicalDirty = false;
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
  private abandonBuilder(e?: Error): void {
    const b = this.builder;
    if (!b) return;
    this.builder = undefined;
    void b.terminate();
    if (e) this.builderWarning(`the lexical build thread failed (${e.message}); indexed on the main thread instead`);
    this.lexical = new LexicalIndex(this.manifest.lexical);
    this.loadLexical(true);
  }

  /** the indexed files in id order (re-adding them in this order gives a clean build's index) */
  private filesInIdOrder(): FileEntry[] {
    return Object.values(this.manifest.files).sort((a, b) => a.firstId - b.firstId);
  }

  /** send files from their shards to the build thread, with backpressure; false when the thread failed (then reconciled here) */
  private async feedBuilder(files: FileEntry[]): Promise<boolean> {
    for (const f of files) {
      this.addLexicalFromShard(f);
      if (!(await this.builderRoom())) return false;
    }
    return true;
  }

  /** every indexed file's id range (the snapshot header) */
  private ranges(): Record<string, [number, number]> {
    const ranges: Record<string, [number, number]> = {};
    for (const [rel, f] of Object.entries(this.manifest.files)) ranges[rel] = [f.firstId, f.count];
    return ranges;
  }

  /** a chunk for the lexical index: to the build thread while one runs, else straight in */
  private addLexical(id: number, text: string): void {
    if (this.builder) this.builder.add(id, text);
    else this.lexical.add(id, text);
  }

  private loadVectors(): void {
    if (!this.embedder) return;
    const vdir = this.vectorDir();
    if (!existsSync(vdir)) return;
    for (const f of Object.values(this.manifest.files)) {
      const v = this.readVectorFile(f);
      if (v) v.forEach((vec, i) => this.vectors.set(f.firstId + i, vec));
    }
  }

  private vectorDir(): string {
    return join(this.dir, 'vectors', vectorDirName(this.embedder!.id));
  }

  /** a file's stored vectors (possibly fewer than its chunks: a partial file to resume) */
  private readVectorFile(f: FileEntry): Float32Array[] | undefined {
    const p = join(this.vectorDir(), `${f.key}.bin`);
    if (!existsSync(p)) return undefined;
    try {
      const buf = readFileSync(p);
      const hlen = buf.readUInt32LE(0);
      const head = JSON.parse(buf.subarray(4, 4 + hlen).toString('utf8')) as { hash: string; n: number; dim: number };
      if (head.hash !== f.hash || head.dim !== this.embedder!.dim) return undefined;
      const start = 4 + hlen;
      const all = new Float32Array(buf.buffer.slice(buf.byteOffset + start, buf.byteOffset + start + head.n * head.dim * 4));
      const out: Float32Array[] = [];
      for (let i = 0; i < head.n; i++) out.push(all.subarray(i * head.dim, (i + 1) * head.dim));
      return out;
    } catch {
      return undefined;
    }
  }

  private writeVectorFile(f: FileEntry, vecs: Float32Array[]): void {
    const dim = this.embedder!.dim;
    const head = Buffer.from(JSON.stringify({ hash: f.hash, n: vecs.length, dim }), 'utf8');
    const data = new Float32Array(vecs.length * dim);
    vecs.forEach((v, i) => data.set(v, i * dim));
    const out = Buffer.alloc(4 + head.length + data.byteLength);
    out.writeUInt32LE(head.length, 0);
    head.copy(out, 4);
    Buffer.from(data.buffer).copy(out, 4 + head.length);
    mkdirSync(this.vectorDir(), { recursive: true });
    writeAtomic(join(this.vectorDir(), `${f.key}.bin`), out);
  }

  // ---------------------------------------------------------------- indexing

  private indexText(c: { heading?: string }, text: string): string {
    return c.heading ? `${c.heading}\n${text}` : text;
  }

  /** add a file's chunks to the lexical index from its shard (open, compaction) */
  private addLexicalFromShard(f: FileEntry): void {
    const reader = new TextReader(this.dir, (file, why) => this.shardFailed(file, why));
    try {
      for (let i = 0; i < f.count; i++) {
        const sp = this.chunks.span(f.firstId + i);
        const text = sp && reader.text(sp, true);
        // a text that fails its checksum drops the file (its ids added so far stay as dead ids)
        if (text === undefined) break;
        this.addLexical(f.firstId + i, text);
      }
    } finally {
      reader.close();
    }
  }

  /** take a file out of the index (its shard, and its vectors unless `keepVectors`) */
  private dropFile(rel: string, keepVectors = false): void {
    const f = this.manifest.files[rel];
    if (!f) return;
    for (let i = 0; i < f.count; i++) {
      this.chunks.delete(f.firstId + i);
      this.vectors.delete(f.firstId + i);
    }
    delete this.manifest.files[rel];
    this.lexicalDirty = true; // its ids stay in flexsearch as dead ids until compaction
    rmSync(shardPath(this.dir, f.key), { force: true });
    if (this.embedder && !keepVectors) rmSync(join(this.vectorDir(), `${f.key}.bin`), { force: true });
  }

  /**
   * (Re-)index one file when its content changed. Returns 'unchanged', 'indexed' or the
   * reason it was skipped.
   */
  private async indexFile(file: FoundFile): Promise<'unchanged' | 'indexed' | { skipped: string }> {
    const old = this.manifest.files[file.rel];
    if (old && old.size === file.size && old.mtimeMs === file.mtimeMs) return 'unchanged';
    if (file.size > MAX_FILE_BYTES) {
      this.dropFile(file.rel);
      return { skipped: `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB` };
    }
    const tm = this.timings;
    let t = performance.now();
    let bytes: Buffer;
    try {
      bytes = readFileSync(file.abs);
    } catch (e) {
      this.dropFile(file.rel);
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
    if (!old && this.manifest.skipped[file.rel]?.startsWith(`${hash}:`)) {
      return { skipped: this.manifest.skipped[file.rel].slice(hash.length + 1) };
    }
    let result;
    try {
      result = await ingestFile(file.rel, bytes);
    } catch (e) {
      this.dropFile(file.rel);
      return { skipped: (e as Error).message || 'could not be read' };
    } finally {
      if (tm) {
        const now = performance.now();
        tm.parseMs += now - t;
        t = now;
      }
    }
    if (!result.chunks.length) {
      this.dropFile(file.rel);
      return { skipped: Object.keys(result.dropped).length ? 'only low-value text (index, contents, bibliography)' : 'no text' };
    }
    const ids = new Set(result.chunks.map((c) => c.id));
    if (ids.size !== result.chunks.length) throw new Error(`duplicate chunk ids in ${file.rel}`); // fail closed
    this.dropFile(file.rel);
    const entry: FileEntry = {
      hash,
      size: file.size,
      mtimeMs: file.mtimeMs,
      key: shardKey(file.rel),
      firstId: this.manifest.nextId,
      count: result.chunks.length,
      source: result.source,
      ...(Object.keys(result.dropped).length ? { dropped: result.dropped } : {}),
      ...(result.repaired ? { repaired: result.repaired } : {}),
    };
    this.manifest.nextId += result.chunks.length;
    const shard = encodeShard(file.rel, hash, result.source, result.chunks, {
      ...(entry.dropped ? { dropped: entry.dropped } : {}),
      ...(entry.repaired ? { repaired: entry.repaired } : {}),
    });
    writeAtomic(shardPath(this.dir, entry.key), shard.buf);
    if (tm) {
      const now = performance.now();
      tm.writeMs += now - t;
      t = now;
    }
    this.manifest.files[file.rel] = entry;
    delete this.manifest.skipped[file.rel];
    this.reindex.delete(file.rel);
    this.register(file.rel, entry, shard.header, shard.dataStart);
    for (let i = 0; i < result.chunks.length; i++) this.addLexical(entry.firstId + i, this.indexText(result.chunks[i], result.chunks[i].text));
    if (tm) {
      if (this.builder) tm.sendMs = (tm.sendMs ?? 0) + performance.now() - t;
      else tm.indexMs += performance.now() - t;
    }
    this.lexicalDirty = true;
    return 'indexed';
  }

  private lastManifestMs = 0;

  private writeManifest(): void {
    const t = performance.now();
    if (this.reindex.size) this.manifest.reindex = [...this.reindex];
    else delete this.manifest.reindex;
    writeManifestFile(this.dir, this.manifest);
    this.lastManifestMs = performance.now() - t;
    if (this.timings) this.timings.checkpointMs += this.lastManifestMs;
  }

  /** write the lexical snapshot now (also done at the end of a build, debounced after updates, on close) */
  flush(): void {
    if (this.snapshotTimer) clearTimeout(this.snapshotTimer);
    this.snapshotTimer = undefined;
    if (!this.lexicalDirty || this.builder) return; // a build thread writes its own snapshot when it ends
    // compaction, when dead ids (removed or changed chunks) pass half the live ones: here for a
    // small index; a large one is compacted by the next build, on the build thread
    if (this.needsCompaction() && this.chunks.size < WORKER_MIN_CHUNKS) {
      this.lexical = new LexicalIndex(this.manifest.lexical);
      for (const f of this.filesInIdOrder()) this.addLexicalFromShard(f);
    }
    this.writeSnapshot();
  }

  private needsCompaction(): boolean {
    return this.lexical.size - this.chunks.size > Math.max(1000, this.chunks.size / 2);
  }

  private writeSnapshot(): void {
    saveSnapshot(this.lexical, join(this.dir, 'lexical.ndjson'), { config: this.manifest.lexical, size: this.lexical.size, ranges: this.ranges() });
    rmSync(join(this.dir, 'lexical.json'), { force: true }); // format 1's snapshot
    this.lexicalDirty = false;
  }

  private scheduleSnapshot(): void {
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
    const t0 = performance.now();
    const timings: BuildTimings = { walkMs: 0, readHashMs: 0, parseMs: 0, writeMs: 0, indexMs: 0, checkpointMs: 0, snapshotMs: 0 };
    this.timings = timings;
    try {
      const root = resolve(folder);
      if (!existsSync(root) || !statSync(root).isDirectory()) throw new ControlError(`${folder} is not a folder.`, 'invalid');
      if (this.manifest.root && this.manifest.root !== root) {
        // another folder: start afresh rather than mix two workspaces' files
        for (const rel of Object.keys(this.manifest.files)) this.dropFile(rel);
        this.manifest.skipped = {};
      }
      this.manifest.root = root;
      this.manifest.include = opts.include;
      this.manifest.exclude = opts.exclude;
      opts.onProgress?.({ phase: 'scan', done: 0, total: 0 });
      const { files } = walk(root, { include: opts.include, exclude: opts.exclude, gitignore: opts.gitignore, skipDirs: [resolve(this.dir)] });
      timings.walkMs = performance.now() - t0;
      const present = new Set(files.map((f) => f.rel));
      let removed = 0;
      for (const rel of Object.keys(this.manifest.files)) {
        if (!present.has(rel)) {
          this.dropFile(rel);
          removed++;
        }
      }
      for (const rel of Object.keys(this.manifest.skipped)) if (!present.has(rel)) delete this.manifest.skipped[rel];
      // many new or changed bytes (or a large index to compact): index on the build thread
      let pending = 0;
      for (const f of files) {
        const old = this.manifest.files[f.rel];
        if (!old || old.size !== f.size || old.mtimeMs !== f.mtimeMs) pending += f.size;
      }
      const compact = this.needsCompaction() && this.chunks.size >= WORKER_MIN_CHUNKS;
      const thread = opts.lexicalThread ?? 'auto';
      const useWorker = thread === 'worker' || (thread === 'auto' && (pending >= WORKER_MIN_BYTES || compact));
      this.builderWarnings = [];
      if (useWorker && this.startBuilder(compact ? 'fresh' : 'current') && compact) await this.feedBuilder(this.filesInIdOrder());
      const onThread = !!this.builder;
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
        if (this.builder) {
          // backpressure: wait while the build thread has enough queued (this also lets
          // searches, progress and cancellation through)
          const tw = performance.now();
          await this.builderRoom();
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
          this.manifest.skipped[f.rel] = `${hash}:${r.skipped}`;
        }
        opts.onProgress?.({ phase: 'ingest', done: i + 1, total: files.length, path: f.rel });
        const now = performance.now();
        if (now - lastCheckpoint > Math.max(CHECKPOINT_MS, CHECKPOINT_COST_FACTOR * this.lastManifestMs)) {
          this.writeManifest();
          lastCheckpoint = now;
        }
        if (now - lastYield > 50) {
          await yieldNow(); // let searches, progress and cancellation through
          lastYield = performance.now();
        }
      }
      for (const [rel, why] of Object.entries(this.manifest.skipped)) {
        if (!skipped.some((s) => s.path === rel)) skipped.push({ path: rel, reason: why.slice(why.indexOf(':') + 1) });
      }
      if (!cancelled) {
        this.manifest.builtAt = new Date().toISOString();
        this.reindex.clear(); // re-read, or no longer in the folder
      }
      this.writeManifest();
      const ts = performance.now();
      if (this.builder) {
        // the thread indexes what is still queued, writes the snapshot; this thread loads it
        const r = await this.finishBuilder();
        if (r) timings.indexMs += r.addMs;
      }
      this.lastLexicalThread = onThread && !this.builderWarnings.length ? 'worker' : 'main';
      this.flush();
      timings.snapshotMs = performance.now() - ts;
      if (this.embedder) this.startEmbedding();
      const filesIndexed = Object.keys(this.manifest.files).length;
      // what was said since the last summary (repairs at open included), then marked as given
      const warnings = this.warnings.slice(this.reported);
      this.reported = this.warnings.length;
      opts.onProgress?.({ phase: 'done', done: files.length, total: files.length });
      return {
        files: files.length,
        chunks: this.chunks.size,
        filesIndexed,
        filesSkipped: skipped.length,
        filesChanged: changed,
        filesRemoved: removed,
        skipped,
        ms: Math.round(performance.now() - t0),
        cancelled,
        lexicalThread: this.lastLexicalThread,
        ...(warnings.length ? { warnings } : {}),
        timings: Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.round(v)])) as unknown as BuildTimings,
      };
    } finally {
      // an error mid-build: the thread's index is dropped, this thread's is made whole from the shards
      if (this.builder) this.abandonBuilder();
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
    if (this.buildEnded) await this.buildEnded;
    const t0 = performance.now();
    const root = this.manifest.root;
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
      if (!st?.isFile() || !acceptsPath(root, rel, { include: this.manifest.include, exclude: this.manifest.exclude })) {
        if (this.manifest.files[rel]) {
          this.dropFile(rel);
          removed++;
        }
        delete this.manifest.skipped[rel];
        continue;
      }
      const r = await this.indexFile({ rel, abs, size: st.size, mtimeMs: st.mtimeMs });
      if (r === 'indexed') {
        indexed++;
        touched.push(rel);
      } else if (r !== 'unchanged') skipped.push({ path: rel, reason: r.skipped });
    }
    if (indexed || removed) {
      this.writeManifest();
      this.scheduleSnapshot();
    }
    if (this.embedder && touched.length) {
      for (const rel of touched) await this.embedFile(rel, this.manifest.files[rel]);
    }
    return { indexed, removed, skipped, ms: Math.round((performance.now() - t0) * 10) / 10 };
  }

  // ---------------------------------------------------------------- embedding

  private async embedFile(rel: string, f: FileEntry, signal?: AbortSignal, onBatch?: (n: number) => void): Promise<boolean> {
    const emb = this.embedder!;
    const have = this.readVectorFile(f) ?? [];
    const vecs = have.slice(0, f.count);
    let lastWrite = performance.now();
    while (vecs.length < f.count) {
      if (signal?.aborted || this.manifest.files[rel] !== f) return false;
      const batch: string[] = [];
      const reader = new TextReader(this.dir, (file, why) => this.shardFailed(file, why));
      try {
        for (let i = vecs.length; i < Math.min(f.count, vecs.length + EMBED_BATCH); i++) {
          const sp = this.chunks.span(f.firstId + i);
          const text = sp && reader.text(sp, true);
          if (text === undefined) return false; // its shard failed or went away: the file left the index, the next build re-reads it
          batch.push(text);
        }
      } finally {
        reader.close();
      }
      const out = await emb.embed(batch, 'passage');
      if (this.manifest.files[rel] !== f) return false; // changed meanwhile
      for (const v of out) {
        this.vectors.set(f.firstId + vecs.length, v);
        vecs.push(v);
      }
      onBatch?.(out.length);
      if (performance.now() - lastWrite > 2000 && vecs.length < f.count) {
        this.writeVectorFile(f, vecs); // checkpoint within a long file (a book)
        lastWrite = performance.now();
      }
      await yieldNow();
    }
    this.writeVectorFile(f, vecs);
    return true;
  }

  /** embed every chunk without a vector, in the background; resumable (per-file checkpoints) */
  startEmbedding(onProgress?: (done: number, total: number) => void): Promise<void> {
    if (!this.embedder) return Promise.resolve();
    if (this.embedding) return this.embedding;
    const ac = new AbortController();
    this.embedAbort = ac;
    this.embedding = (async () => {
      try {
        for (;;) {
          const todo = Object.entries(this.manifest.files)
            .filter(([, f]) => !this.vectors.has(f.firstId + f.count - 1) || !this.vectors.has(f.firstId))
            .sort((a, b) => a[1].firstId - b[1].firstId);
          if (!todo.length || ac.signal.aborted) break;
          let progressed = false;
          for (const [rel, f] of todo) {
            if (ac.signal.aborted) break;
            const ok = await this.embedFile(rel, f, ac.signal, () => onProgress?.(this.vectors.size, this.chunks.size));
            progressed ||= ok;
          }
          if (!progressed) break;
        }
      } catch (e) {
        this.embedderError = `embedding stopped: ${(e as Error).message}`;
      } finally {
        this.embedding = undefined;
        this.embedAbort = undefined;
      }
    })();
    return this.embedding;
  }

  /** resolves when background embedding has finished (at once when none is running) */
  /**
   * Stops background embedding (a local model is about to use the cores: the two sharing
   * 2 cores slowed the model's prefill 6 to 10 times); what is embedded is kept, and
   * `startEmbedding()` resumes with the rest.
   */
  async pauseEmbedding(): Promise<boolean> {
    const running = this.embedding;
    if (!running) return false;
    this.embedAbort?.abort();
    await running.catch(() => undefined);
    return true;
  }

  whenEmbedded(): Promise<void> {
    return this.embedding ?? Promise.resolve();
  }

  // ---------------------------------------------------------------- search

  private gate(): GateInfo {
    if (!this.embedder) return { kind: 'lexical-coverage', threshold: LEXICAL_COVERAGE, calibrated: false };
    const cal = this.manifest.calibration?.[this.embedder.id];
    if (!cal) return { kind: 'cosine', threshold: this.embedder.conventions.defaultThreshold, calibrated: false };
    const stale = Math.abs(this.chunks.size - cal.chunks) > cal.chunks / 5;
    return { kind: 'cosine', threshold: cal.threshold, calibrated: true, ...(stale ? { stale } : {}) };
  }

  /**
   * Share of the query's terms found as whole words in the passage (case-insensitive). A
   * regex scan of the candidate's text: much cheaper than encoding it, and candidates are few.
   */
  private coverage(terms: RegExp[], id: number, reader: TextReader): number {
    if (!terms.length) return 0;
    const sp = this.chunks.span(id);
    const raw = sp && reader.text(sp, true); // the heading line and the text, as indexed
    if (raw === undefined) return 0;
    let text = raw.toLowerCase();
    if (/[^\x00-\x7f]/.test(text)) text = text.normalize('NFKD').replace(/\p{M}+/gu, '');
    // the words the encoder makes: digit runs split from letters as it splits them
    // ("rev2024" is "rev" and "2024"), and "_" a separator (for \b it is a letter)
    text = splitDigitRuns(text);
    if (text.includes('_')) text = text.replace(/_+/g, ' ');
    const need = Math.ceil(terms.length * LEXICAL_COVERAGE);
    let n = 0;
    for (let i = 0; i < terms.length; i++) {
      if (terms[i].test(text)) n++;
      else if (n + terms.length - i - 1 < need) return n / terms.length; // cannot pass any more
    }
    return n / terms.length;
  }

  /** the lexical ranking (ids, best first; dead ids included, with room for them in the limit) */
  private async lexicalSearch(query: string, n: number): Promise<number[]> {
    const limit = (size: number) => n + Math.min(50, Math.max(0, size - this.chunks.size));
    const b = this.builder;
    if (b?.accepting) {
      try {
        return await b.search(query, limit(b.size));
      } catch {
        /* the thread failed: this thread's index answers (it is being made whole) */
      }
    }
    return this.lexical.search(query, limit(this.lexical.size));
  }

  /**
   * The passages for a query, best first, or none: hybrid (RRF of the lexical and dense
   * rankings, cosine-gated) when an embedder is loaded, else lexical (gated by the share of
   * query terms a passage contains). Returning nothing is a normal outcome.
   */
  async search(query: string, opts: SearchOptions = {}): Promise<SearchResult> {
    const t0 = performance.now();
    const k = opts.k ?? 5;
    const nCand = opts.candidates ?? 50;
    const gate = this.gate();
    if (opts.threshold !== undefined) gate.threshold = opts.threshold;
    const embedded = { done: this.vectors.size, total: this.chunks.size };
    const terms = this.lexical.terms(query);
    const termRes = terms.map((t) => {
      // the encoder folds case and diacritics and collapses repeated letters ("riccati" is
      // indexed as "ricati", "loop" as "lop"): each letter of a term matches one or more
      // times, on text folded the same way (coverage), so the gate sees what the index saw
      const e = [...t].map((ch) => `${ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}+`).join('');
      // ASCII terms: \b is enough and much faster than Unicode property classes
      return /^[\x00-\x7f]*$/.test(t) ? new RegExp(`\\b${e}\\b`) : new RegExp(`(?<![\\p{L}\\p{N}])${e}(?![\\p{L}\\p{N}])`, 'u');
    });
    const hybrid = !!this.embedder && this.vectors.size > 0;
    const lexIds: number[] = [];
    if (terms.length) {
      for (const id of await this.lexicalSearch(query, nCand)) {
        if (this.chunks.has(id)) lexIds.push(id);
        if (lexIds.length >= nCand) break;
      }
    }
    const result = (hits: SearchHit[], gated: number): SearchResult => ({
      mode: hybrid ? 'hybrid' : 'lexical',
      hits,
      gate,
      gated,
      embedded,
      ms: Math.round((performance.now() - t0) * 100) / 100,
    });
    // texts are read from the shards only for the candidates looked at and the hits returned
    const hit = (reader: TextReader, id: number, score: number, rank: number, extra: Partial<SearchHit>): SearchHit | undefined => {
      const m = this.chunks.get(id);
      const text = m && reader.text(m);
      if (!m || text === undefined) return undefined;
      return {
        chunkId: m.id,
        source: m.file.source,
        path: m.file.rel,
        range: m.range,
        text,
        ...(m.heading ? { heading: m.heading } : {}),
        score,
        rank,
        ...extra,
      };
    };

    if (!hybrid) {
      const hits: SearchHit[] = [];
      let gated = 0;
      const reader = this.searchReader;
      // flexsearch (suggest) ranks by the number of query terms matched first, so once
      // candidates fail the gate the rest match no more terms: GATE_MISSES failures in a row
      // end the scan (measured: no later candidate matched more terms, 500 queries at 10k)
      let misses = 0;
      for (let i = 0; i < lexIds.length && hits.length < k && misses < GATE_MISSES; i++) {
        if (this.coverage(termRes, lexIds[i], reader) < LEXICAL_COVERAGE) {
          gated++;
          misses++;
          continue;
        }
        misses = 0;
        const h = hit(reader, lexIds[i], 1 / (60 + i + 1), hits.length + 1, { lexicalRank: i + 1 });
        if (h) hits.push(h);
      }
      return result(hits, gated);
    }

    const [qv] = await this.embedder!.embed([query], 'query');
    // the index may have changed while the query was embedded: only live chunks from here
    for (let i = lexIds.length - 1; i >= 0; i--) if (!this.chunks.has(lexIds[i])) lexIds.splice(i, 1);
    const reader = this.searchReader;
    // dense ranking over every embedded chunk (brute force: 100k x 384 is ~40 ms)
    const top: { id: number; cos: number }[] = [];
    let floor = -Infinity;
    for (const [id, v] of this.vectors) {
      if (!this.chunks.has(id)) continue;
      const cos = dot(qv, v);
      if (top.length < nCand || cos > floor) {
        top.push({ id, cos });
        if (top.length > nCand * 2) {
          top.sort((a, b) => b.cos - a.cos);
          top.length = nCand;
          floor = top[nCand - 1].cos;
        }
      }
    }
    top.sort((a, b) => b.cos - a.cos);
    top.length = Math.min(top.length, nCand);
    const cosine = new Map<number, number>(top.map((t) => [t.id, t.cos]));
    // lexical candidates are scored densely too, so none is dropped for lack of a score
    for (const id of lexIds) {
      const v = this.vectors.get(id);
      if (v && !cosine.has(id)) cosine.set(id, dot(qv, v));
    }
    const pass = (id: number) => {
      const cos = cosine.get(id);
      if (cos !== undefined) return cos >= gate.threshold;
      // not embedded yet: the lexical gate decides until its vector exists
      return this.coverage(termRes, id, reader) >= LEXICAL_COVERAGE;
    };
    const lexRank = new Map(lexIds.map((id, i) => [id, i + 1]));
    const denseRank = new Map(top.map((t, i) => [t.id, i + 1]));
    const lexPass = lexIds.filter(pass);
    const densePass = top.map((t) => t.id).filter((id) => cosine.get(id)! >= gate.threshold);
    const considered = new Set([...lexIds, ...top.map((t) => t.id)]);
    const gated = [...considered].filter((id) => !lexPass.includes(id) && !densePass.includes(id)).length;
    const fused = rrf([lexPass, densePass]).slice(0, k);
    const hits: SearchHit[] = [];
    for (const f of fused) {
      const h = hit(reader, f.key, f.score, hits.length + 1, {
        ...(cosine.has(f.key) ? { cosine: cosine.get(f.key) } : {}),
        ...(lexRank.has(f.key) ? { lexicalRank: lexRank.get(f.key) } : {}),
        ...(denseRank.has(f.key) ? { denseRank: denseRank.get(f.key) } : {}),
      });
      if (h) hits.push(h);
    }
    return result(hits, gated);
  }

  /**
   * Set the cosine gate from probe questions: each probe's best-match cosine over the embedded
   * chunks; the threshold separates in-domain from off-domain (see fusion.ts). Stored with the
   * index for this embedder. Waits for background embedding first.
   */
  async calibrate(inDomain: string[] = IN_DOMAIN_PROBES, offDomain: string[] = OFF_DOMAIN_PROBES): Promise<CalibrationResult> {
    if (!this.embedder) throw new ControlError('Calibration needs an embedding model: set one, then calibrate.', 'unsupported');
    await this.whenEmbedded();
    if (!this.vectors.size) throw new ControlError('Nothing is embedded yet: build the index first.', 'invalid');
    const best = async (qs: string[]) => {
      const vs = await this.embedder!.embed(qs, 'query');
      return vs.map((q) => {
        let b = -1;
        for (const v of this.vectors.values()) b = Math.max(b, dot(q, v));
        return b;
      });
    };
    const r = calibrateThreshold(await best(inDomain), await best(offDomain), this.chunks.size);
    this.manifest.calibration = { ...this.manifest.calibration, [this.embedder.id]: r };
    this.writeManifest();
    return r;
  }

  // ---------------------------------------------------------------- status

  stats(): IndexStats {
    const files = Object.values(this.manifest.files);
    const dropped: Record<string, number> = {};
    for (const f of files) for (const [k, v] of Object.entries(f.dropped ?? {})) dropped[k] = (dropped[k] ?? 0) + v;
    const skipped = Object.keys(this.manifest.skipped).length;
    return {
      files: files.length + skipped,
      chunks: this.chunks.size,
      filesIndexed: files.length,
      filesSkipped: skipped,
      embedded: this.vectors.size,
      mode: this.embedder && this.vectors.size > 0 ? 'hybrid' : 'lexical',
      ...(this.embedder ? { embedder: this.embedder.name } : {}),
      ...(this.embedderError ? { embedderError: this.embedderError } : {}),
      gate: this.gate(),
      droppedLowValue: dropped,
      ...(this.manifest.root ? { root: this.manifest.root } : {}),
      ...(this.manifest.builtAt ? { builtAt: this.manifest.builtAt } : {}),
      ...(this.lastLexicalThread ? { lexicalThread: this.lastLexicalThread } : {}),
      ...(this.warnings.length ? { warnings: [...this.warnings] } : {}),
      ...(this.reindex.size ? { reindexPending: this.reindex.size } : {}),
    };
  }

  /** every chunk in the index (by id order): for tests and tools that list what is indexed */
  allChunks(): Chunk[] {
    const reader = new TextReader(this.dir, (file, why) => this.shardFailed(file, why));
    try {
      const out: Chunk[] = [];
      for (const id of [...this.chunks.ids()]) {
        const m = this.chunks.get(id);
        const text = m && reader.text(m);
        if (!m || text === undefined) continue;
        out.push({ id: m.id, path: m.file.rel, source: m.file.source, range: m.range, text, ...(m.heading ? { heading: m.heading } : {}) });
      }
      // a file dropped part-way (a damaged shard) leaves nothing of it behind
      return out.filter((c) => this.manifest.files[c.path]);
    } finally {
      reader.close();
    }
  }

  /** stop background work, write the lexical snapshot, release the embedder */
  async close(): Promise<void> {
    // a running build stops at its next file, as if cancelled (its work is checkpointed and a
    // new build resumes it), and ends before the store closes: never two writers on one folder
    // (the extension reopens the indexes when the embedder setting changes, perhaps mid-build)
    this.closing = true;
    if (this.buildEnded) await this.buildEnded;
    this.embedAbort?.abort();
    await this.embedding?.catch(() => undefined);
    if (this.builder) {
      // a thread re-adding files at open: the snapshot on disk stays what it was, and the next
      // open re-adds from the shards the files it lacks
      void this.builder.terminate();
      this.builder = undefined;
      this.lexicalDirty = false;
    }
    this.flush();
    this.searchReader.close();
    await this.embedder?.dispose().catch(() => undefined);
  }

  /**
   * Whether `dir` holds an index: a manifest, or shards the open recovers one from (a lost or
   * damaged manifest is no reason to say there is none). Reads only, creates nothing: for
   * front ends that search an index only where there is one. What it holds, once repaired,
   * is what open() and stats() say.
   */
  static exists(dir: string): boolean {
    if (existsSync(join(dir, 'manifest.json'))) return true;
    try {
      return readdirSync(join(dir, 'shards')).some((name) => SHARD_FILE.test(name));
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