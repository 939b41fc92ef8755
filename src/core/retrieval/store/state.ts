/**
 * The index in memory, kept in step: the manifest (what files it holds), their chunks
 * (chunks.ts), vectors (vectors.ts) and lexical entries (lexicalStore.ts); a file enters
 * (register), leaves (dropFile), and the manifest is written. What fails a check as it is
 * read is handled here (loadChunks at open, shardFailed on read: ARCHITECTURE.md, invariant
 * 11): the file leaves the index, it is said, and the next build re-reads it.
 */
import { rmSync } from 'node:fs';
import { ChunkTable, TextReader, type FileRef, type OnDamage } from './chunks.js';
import { filesInIdOrder, readShardHeader, shardIsOf, shardPath, writeManifestFile, type FileEntry, type Manifest, type ShardHeader } from './format.js';
import { LexicalStore } from './lexicalStore.js';
import { tryRemove } from './repair.js';
import { VectorStore } from './vectors.js';

export class IndexState {
  /** numeric id -> its file (live chunks only); metadata from shard headers on demand, texts from shards */
  readonly chunks: ChunkTable;
  readonly vectors: VectorStore;
  readonly lexical: LexicalStore;
  /** shards open for searches (the 64 most recently read), closed by close() */
  readonly searchReader: TextReader;
  /** files that left the index because their stored copy failed a check: the next build re-reads them */
  readonly reindex = new Set<string>();
  /** every warning since open (build threads, repairs), in order; `reported`: how many a build summary has given */
  readonly warnings: string[] = [];
  reported = 0;
  /** how long the last manifest write took, and all of them since open (a build's checkpoint time) */
  lastManifestMs = 0;
  manifestMs = 0;
  private readonly onDamage: OnDamage = (file, why) => this.shardFailed(file, why);

  constructor(
    readonly dir: string,
    readonly manifest: Manifest,
    private readonly onWarning?: (message: string) => void,
  ) {
    this.chunks = new ChunkTable(dir, this.onDamage);
    this.searchReader = new TextReader(dir, this.onDamage, 64);
    const openReader = () => this.reader();
    this.vectors = new VectorStore(dir, manifest, this.chunks, openReader);
    this.lexical = new LexicalStore(dir, manifest, this.chunks, openReader, (m) => this.warn(m));
  }

  /** say a warning: kept for stats() and the next build summary, and told to onWarning at once */
  warn(message: string): void {
    this.warnings.push(message);
    try {
      this.onWarning?.(message);
    } catch {
      /* a listener's failure is not the index's */
    }
  }

  /** a reader of chunk texts (close it after use) whose failures drop the file (shardFailed) */
  reader(): TextReader {
    return new TextReader(this.dir, this.onDamage);
  }

  register(rel: string, f: FileEntry, header: ShardHeader, dataStart: number): void {
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
  loadChunks(): boolean {
    const damaged: string[] = [];
    let old = 0;
    let changed = false;
    for (const [rel, f] of filesInIdOrder(this.manifest)) {
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
      this.warn(
        `${damaged.length} file${damaged.length === 1 ? '' : 's'} left the index, their stored text damaged: ${list}; never served, re-read at the next build`,
      );
    }
    if (old) {
      this.warn(
        `${old} file${old === 1 ? ' was' : 's were'} indexed in an older layout without checksums and left the index; the next build re-reads ${old === 1 ? 'it' : 'them'}`,
      );
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
  shardFailed(file: FileRef, why: string): void {
    const f = this.manifest.files[file.rel];
    if (!f || f.key !== file.key || f.firstId !== file.firstId) return; // already dropped or replaced here
    const now = readShardHeader(shardPath(this.dir, file.key));
    if (now.ok && !shardIsOf(now.header, file.rel, file.hash, file.count)) return;
    if (!now.ok && now.kind === 'old') return;
    const gone = !now.ok && now.kind === 'missing';
    this.searchReader.forget(file);
    if (gone) this.forget(file.rel, f);
    else {
      try {
        this.dropFile(file.rel, true);
      } catch {
        /* its shard could not be removed: the file has left the index all the same */
      }
    }
    this.reindex.add(file.rel);
    this.warn(
      `${file.rel} left the index: ${gone ? 'its shard is missing' : why}; ${gone ? 'the next build re-reads it' : 'its text is never served, the next build re-reads it'}`,
    );
    if (gone) return;
    try {
      this.writeManifest();
    } catch {
      /* the next open finds the same damage */
    }
  }

  /** the file's chunks and vectors out of memory, its entry out of the manifest (its ids stay in flexsearch as dead ids until compaction) */
  private forget(rel: string, f: FileEntry): void {
    for (let i = 0; i < f.count; i++) {
      this.chunks.delete(f.firstId + i);
      this.vectors.delete(f.firstId + i);
    }
    delete this.manifest.files[rel];
    this.lexical.dirty = true;
  }

  /** take a file out of the index (its shard, and its vectors unless `keepVectors`) */
  dropFile(rel: string, keepVectors = false): void {
    const f = this.manifest.files[rel];
    if (!f) return;
    this.forget(rel, f);
    rmSync(shardPath(this.dir, f.key), { force: true });
    if (!keepVectors) this.vectors.removeFile(f);
  }

  /** write the manifest (atomically), with the files waiting to be re-read */
  writeManifest(): void {
    const t = performance.now();
    if (this.reindex.size) this.manifest.reindex = [...this.reindex];
    else delete this.manifest.reindex;
    writeManifestFile(this.dir, this.manifest);
    this.lastManifestMs = performance.now() - t;
    this.manifestMs += this.lastManifestMs;
  }
}
