/**
 * The dense side of the index: one embedding per chunk for the loaded embedder, in memory by
 * chunk id and on disk as `vectors/<model>/<key>.bin` per file (a u32 header length, a JSON
 * header with the file's content hash, the vector count and dimension, then the float32
 * vectors). A file's vectors are reused while its content hash matches (a re-read unchanged
 * file, an older layout rebuilt); a partial file is resumed where it stopped. Embedding runs
 * in the background, resumable, and pauses when a local model needs the cores.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as yieldNow } from 'node:timers/promises';
import { writeAtomic } from '../atomic.js';
import type { Embedder } from '../embedder.js';
import type { ChunkTable, TextReader } from './chunks.js';
import { filesInIdOrder, type FileEntry, type Manifest } from './format.js';

/** chunks embedded per call of the embedder */
const EMBED_BATCH = 16;

function vectorDirName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_');
}

export class VectorStore {
  private vecs = new Map<number, Float32Array>();
  /** the loaded embedder (none: the index is lexical only) */
  embedder?: Embedder;
  /** why the embedder could not load, or why embedding stopped */
  error?: string;
  private embedding?: Promise<void>;
  private abort?: AbortController;

  constructor(
    private readonly dir: string,
    private readonly manifest: Manifest,
    private readonly chunks: ChunkTable,
    /** a reader of chunk texts whose failures drop the file (IndexState.shardFailed) */
    private readonly openReader: () => TextReader,
  ) {}

  get size(): number {
    return this.vecs.size;
  }

  get(id: number): Float32Array | undefined {
    return this.vecs.get(id);
  }

  delete(id: number): void {
    this.vecs.delete(id);
  }

  /** every stored vector with its chunk id (dead chunks' included: callers check liveness) */
  entries(): IterableIterator<[number, Float32Array]> {
    return this.vecs.entries();
  }

  /** read every indexed file's stored vectors for the loaded embedder */
  load(): void {
    if (!this.embedder) return;
    const vdir = this.vectorDir();
    if (!existsSync(vdir)) return;
    for (const f of Object.values(this.manifest.files)) {
      const v = this.readFile(f);
      if (v) v.forEach((vec, i) => this.vecs.set(f.firstId + i, vec));
    }
  }

  /** remove a file's stored vectors (for this embedder; none loaded: nothing to remove) */
  removeFile(f: FileEntry): void {
    if (this.embedder) rmSync(this.vectorPath(f), { force: true });
  }

  private vectorDir(): string {
    return join(this.dir, 'vectors', vectorDirName(this.embedder!.id));
  }

  private vectorPath(f: FileEntry): string {
    return join(this.vectorDir(), `${f.key}.bin`);
  }

  /** a file's stored vectors (possibly fewer than its chunks: a partial file to resume) */
  private readFile(f: FileEntry): Float32Array[] | undefined {
    const p = this.vectorPath(f);
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

  private writeFile(f: FileEntry, vecs: Float32Array[]): void {
    const dim = this.embedder!.dim;
    const head = Buffer.from(JSON.stringify({ hash: f.hash, n: vecs.length, dim }), 'utf8');
    const data = new Float32Array(vecs.length * dim);
    vecs.forEach((v, i) => data.set(v, i * dim));
    const out = Buffer.alloc(4 + head.length + data.byteLength);
    out.writeUInt32LE(head.length, 0);
    head.copy(out, 4);
    Buffer.from(data.buffer).copy(out, 4 + head.length);
    mkdirSync(this.vectorDir(), { recursive: true });
    writeAtomic(this.vectorPath(f), out);
  }

  /**
   * Embed the chunks of one file that have no vector yet, checkpointing its vector file in a
   * long file. False when it stopped early: aborted, the file changed or left the index meanwhile.
   */
  async embedFile(rel: string, f: FileEntry, signal?: AbortSignal, onBatch?: (n: number) => void): Promise<boolean> {
    const emb = this.embedder!;
    const have = this.readFile(f) ?? [];
    const vecs = have.slice(0, f.count);
    let lastWrite = performance.now();
    while (vecs.length < f.count) {
      if (signal?.aborted || this.manifest.files[rel] !== f) return false;
      const batch: string[] = [];
      const reader = this.openReader();
      try {
        for (let i = vecs.length; i < Math.min(f.count, vecs.length + EMBED_BATCH); i++) {
          const text = reader.indexed(this.chunks, f.firstId + i);
          if (text === undefined) return false; // its shard failed or went away: the file left the index, the next build re-reads it
          batch.push(text);
        }
      } finally {
        reader.close();
      }
      const out = await emb.embed(batch, 'passage');
      if (this.manifest.files[rel] !== f) return false; // changed meanwhile
      for (const v of out) {
        this.vecs.set(f.firstId + vecs.length, v);
        vecs.push(v);
      }
      onBatch?.(out.length);
      if (performance.now() - lastWrite > 2000 && vecs.length < f.count) {
        this.writeFile(f, vecs); // checkpoint within a long file (a book)
        lastWrite = performance.now();
      }
      await yieldNow();
    }
    this.writeFile(f, vecs);
    return true;
  }

  /** embed every chunk without a vector, in the background; resumable (per-file checkpoints) */
  start(onProgress?: (done: number, total: number) => void): Promise<void> {
    if (!this.embedder) return Promise.resolve();
    if (this.embedding) return this.embedding;
    const ac = new AbortController();
    this.abort = ac;
    this.embedding = (async () => {
      try {
        for (;;) {
          const todo = filesInIdOrder(this.manifest).filter(([, f]) => !this.vecs.has(f.firstId + f.count - 1) || !this.vecs.has(f.firstId));
          if (!todo.length || ac.signal.aborted) break;
          let progressed = false;
          for (const [rel, f] of todo) {
            if (ac.signal.aborted) break;
            const ok = await this.embedFile(rel, f, ac.signal, () => onProgress?.(this.vecs.size, this.chunks.size));
            progressed ||= ok;
          }
          if (!progressed) break;
        }
      } catch (e) {
        this.error = `embedding stopped: ${(e as Error).message}`;
      } finally {
        this.embedding = undefined;
        this.abort = undefined;
      }
    })();
    return this.embedding;
  }

  /** stop background embedding; what is embedded is kept. False when none was running */
  async pause(): Promise<boolean> {
    const running = this.embedding;
    if (!running) return false;
    this.abort?.abort();
    await running.catch(() => undefined);
    return true;
  }

  /** resolves when background embedding has finished (at once when none is running) */
  whenDone(): Promise<void> {
    return this.embedding ?? Promise.resolve();
  }
}
