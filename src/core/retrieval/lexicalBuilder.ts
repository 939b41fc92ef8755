/**
 * The main-thread side of the lexical build thread (lexicalWorker.ts): chunks are sent in
 * batches with backpressure (at most MAX_IN_FLIGHT batches queued in the thread, so the texts
 * never pile up in either heap when ingestion outruns indexing), searches are answered by the
 * thread's index while it builds, and `finish` writes the snapshot and ends the thread.
 *
 * A failure of the thread (an error, an exit, running out of memory) rejects what is pending
 * and every later call; the store then rebuilds the lexical index on its own thread from the
 * shards, so a failed thread costs time, never a wrong or partial index.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { LexicalConfig } from './lexical.js';

/** chunks per message, and characters per message (whichever comes first) */
const BATCH_CHUNKS = 256;
const BATCH_CHARS = 512 * 1024;
/** batches sent but not yet indexed before `room()` waits */
const MAX_IN_FLIGHT = 2;

/** the worker script beside this module: dist/lexicalWorker.js in the bundles, the .ts source under tsx */
export function lexicalWorkerFile(): string | undefined {
  const here = typeof __dirname === 'string' ? __dirname : undefined;
  if (!here) return undefined;
  for (const f of ['lexicalWorker.js', 'lexicalWorker.ts']) if (existsSync(join(here, f))) return join(here, f);
  return undefined;
}

type Reply =
  | { t: 'ready'; size: number }
  | { t: 'ack' }
  | { t: 'hits'; seq: number; ids: number[] }
  | { t: 'done'; size: number; addMs: number }
  | { t: 'error'; message: string };

export class LexicalBuilder {
  private ids: number[] = [];
  private texts: string[] = [];
  private chars = 0;
  private inFlight = 0;
  private roomWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  private searches = new Map<number, { resolve: (ids: number[]) => void; reject: (e: Error) => void }>();
  private seq = 0;
  private finishing?: { resolve: (r: { size: number; addMs: number }) => void; reject: (e: Error) => void };
  private failure?: Error;
  private doneReply?: { size: number; addMs: number };
  private ended = false;
  /** chunks added to the thread's index (its starting snapshot included) */
  size = 0;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (m: Reply) => this.onMessage(m));
    worker.on('error', (e) => this.fail(e instanceof Error ? e : new Error(String(e))));
    worker.on('exit', (code) => {
      this.ended = true;
      const f = this.finishing;
      if (f && this.doneReply) {
        this.finishing = undefined;
        f.resolve(this.doneReply);
      } else if (f) this.fail(new Error(`the lexical build thread exited before writing its snapshot (code ${code})`));
      else if (!this.failure && code !== 0) this.fail(new Error(`the lexical build thread exited (code ${code})`));
    });
  }

  /**
   * Start the thread, its index empty or loaded from the snapshot file `base`. Undefined when
   * the worker script is not there (a bundle without it): the store then indexes on its own thread.
   */
  static start(config: LexicalConfig, base?: string, file = lexicalWorkerFile()): LexicalBuilder | undefined {
    if (!file) return undefined;
    // a bundle's worker is plain JS and gets no flags (the extension host's own flags are not
    // all valid for a worker); the .ts source (tests and bench under tsx) is loaded through
    // tsx's CommonJS hook, registered in the worker before the source is required
    const worker = file.endsWith('.ts')
      ? new Worker(`require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(file)});`, {
          eval: true,
          workerData: { config, base },
          execArgv: [],
        })
      : new Worker(file, { workerData: { config, base }, execArgv: [] });
    return new LexicalBuilder(worker);
  }

  private onMessage(m: Reply): void {
    if (m.t === 'ready') this.size += m.size;
    else if (m.t === 'ack') {
      this.inFlight--;
      while (this.inFlight < MAX_IN_FLIGHT && this.roomWaiters.length) this.roomWaiters.shift()!.resolve();
    } else if (m.t === 'hits') {
      const s = this.searches.get(m.seq);
      this.searches.delete(m.seq);
      s?.resolve(m.ids);
    } else if (m.t === 'done') {
      // resolved when the thread has exited: its heap is gone before the store loads the
      // snapshot, so the two are never in memory together
      this.doneReply = { size: m.size, addMs: m.addMs };
    } else if (m.t === 'error') this.fail(new Error(m.message));
  }

  private fail(e: Error): void {
    if (this.failure) return;
    this.failure = e;
    for (const w of this.roomWaiters.splice(0)) w.reject(e);
    for (const s of this.searches.values()) s.reject(e);
    this.searches.clear();
    const f = this.finishing;
    this.finishing = undefined;
    f?.reject(e);
    void this.worker.terminate();
  }

  get failed(): Error | undefined {
    return this.failure;
  }

  /** queue a chunk; it is sent with its batch */
  add(id: number, text: string): void {
    if (this.failure) return; // the store rebuilds from the shards after a failure
    this.ids.push(id);
    this.texts.push(text);
    this.chars += text.length;
    this.size++;
    if (this.ids.length >= BATCH_CHUNKS || this.chars >= BATCH_CHARS) this.send();
  }

  private send(): void {
    if (!this.ids.length || this.failure) return;
    this.worker.postMessage({ t: 'add', ids: this.ids, texts: this.texts });
    this.inFlight++;
    this.ids = [];
    this.texts = [];
    this.chars = 0;
  }

  /** resolves when the thread has room for more (backpressure); rejects once it has failed */
  room(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.inFlight < MAX_IN_FLIGHT) return Promise.resolve();
    return new Promise((resolve, reject) => this.roomWaiters.push({ resolve, reject }));
  }

  /** the thread's lexical ranking for a query (the index being built, queued chunks included) */
  search(q: string, limit: number): Promise<number[]> {
    if (this.failure) return Promise.reject(this.failure);
    this.send();
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      this.searches.set(seq, { resolve, reject });
      this.worker.postMessage({ t: 'search', seq, q, limit });
    });
  }

  /** false once finishing, failed or ended: searches then go to the store's own index */
  get accepting(): boolean {
    return !this.failure && !this.finishing && !this.ended;
  }

  /**
   * Index what is queued, write the snapshot to `target` (atomically) and end the thread;
   * resolves with its size and the time the thread spent in flexsearch `add`.
   */
  finish(target: string, ranges: Record<string, [number, number]>): Promise<{ size: number; addMs: number }> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.ended) return Promise.reject(new Error('the lexical build thread has ended'));
    this.send();
    return new Promise((resolve, reject) => {
      this.finishing = { resolve, reject };
      this.worker.postMessage({ t: 'finish', target, ranges });
    });
  }

  /** stop the thread (a cancelled or failed build); what it held is dropped */
  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}
