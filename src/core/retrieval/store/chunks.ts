/**
 * The chunks in memory and their texts on disk. Chunk texts stay in the shards: in memory per
 * chunk are only the file it belongs to and where its text sits in the shard (ChunkTable);
 * its id, range and heading come from its shard header, read on demand and cached for the
 * few files recently looked at. Texts are read (TextReader) for the hits a search returns,
 * the candidates the lexical gate checks, and the chunks being embedded, each checked against
 * its CRC-32: what fails is never served, and the store is told (OnDamage).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { crc32 } from '../checksum.js';
import type { ChunkRange } from '../types.js';
import { readShardHeader, shardIsOf, shardPath, type ShardHeader } from './format.js';

/** one indexed file as search sees it (shared by its chunks) */
export interface FileRef {
  rel: string;
  key: string;
  hash: string;
  source: string;
  firstId: number;
  count: number;
  /** the shard header and its texts' offsets, while cached (see ChunkTable) */
  cache?: { header: ShardHeader; dataStart: number; offs: number[] };
}

/** where one chunk's data (heading line + text) sits in its shard, and its checksum */
export interface Span {
  file: FileRef;
  /** byte offset of the data in the shard, its byte length, the heading line's length, its CRC-32 */
  at: number;
  len: number;
  hl: number;
  crc: number;
}

/** one chunk's metadata, read from its shard header: the text stays in the shard */
export interface ChunkMeta extends Span {
  id: string;
  range: ChunkRange;
  heading?: string;
}

/** a stored copy of a file that cannot be served: the store drops the file and says why */
export type OnDamage = (file: FileRef, why: string) => void;

/** shard headers kept in memory at once (a search touches at most ~100 files) */
const HEADER_CACHE = 256;

/**
 * Which file owns each numeric chunk id (one pointer per id): liveness and counts without any
 * per-chunk object. A chunk's metadata comes from its shard header, read on demand and cached
 * for the few files recently looked at.
 */
export class ChunkTable {
  private owner: (FileRef | undefined)[] = [];
  /** per id: where its data (heading line + text) sits in its shard, its length, the heading line's length */
  private pos = new Uint32Array(1024);
  private len = new Uint32Array(1024);
  private hl = new Uint32Array(1024);
  private crc = new Uint32Array(1024);
  private cached: FileRef[] = [];
  size = 0;

  constructor(
    private readonly dir: string,
    private readonly onDamage: OnDamage,
  ) {}

  addFile(file: FileRef, header: ShardHeader, dataStart: number): void {
    const end = file.firstId + file.count;
    // grown by push, never by a far index: the array keeps fast (non-dictionary) elements
    while (this.owner.length < file.firstId) this.owner.push(undefined);
    if (end > this.pos.length) {
      const grow = (a: Uint32Array) => {
        const b = new Uint32Array(Math.max(end, a.length * 2));
        b.set(a);
        return b;
      };
      this.pos = grow(this.pos);
      this.len = grow(this.len);
      this.hl = grow(this.hl);
      this.crc = grow(this.crc);
    }
    let at = dataStart;
    for (let i = 0; i < file.count; i++) {
      const id = file.firstId + i;
      if (!this.owner[id]) this.size++;
      this.owner[id] = file;
      const c = header.chunks[i];
      this.pos[id] = at;
      this.len[id] = c.len;
      this.hl[id] = c.hl;
      this.crc[id] = c.c;
      at += c.len;
    }
  }

  /** where the chunk's indexed text (heading line + text) is, without its metadata */
  span(id: number): Span | undefined {
    const file = this.owner[id];
    return file && { file, at: this.pos[id], len: this.len[id], hl: this.hl[id], crc: this.crc[id] };
  }

  delete(id: number): void {
    if (this.owner[id]) {
      this.owner[id] = undefined;
      this.size--;
    }
  }

  has(id: number): boolean {
    return this.owner[id] !== undefined;
  }

  private load(file: FileRef): FileRef['cache'] {
    if (file.cache) return file.cache;
    const shard = readShardHeader(shardPath(this.dir, file.key));
    if (!shard.ok || !shardIsOf(shard.header, file.rel, file.hash, file.count)) {
      // the store decides: damage, gone, or replaced by a newer write (see shardFailed)
      if (this.owner[file.firstId] === file) this.onDamage(file, shard.ok ? 'its shard no longer matches it' : shard.why);
      return undefined;
    }
    const offs: number[] = [];
    let at = shard.dataStart;
    for (const c of shard.header.chunks) {
      offs.push(at);
      at += c.len;
    }
    file.cache = { header: shard.header, dataStart: shard.dataStart, offs };
    this.cached.push(file);
    if (this.cached.length > HEADER_CACHE) this.cached.shift()!.cache = undefined;
    return file.cache;
  }

  get(id: number): ChunkMeta | undefined {
    const file = this.owner[id];
    if (!file) return undefined;
    const cache = this.load(file);
    if (!cache) return undefined;
    const i = id - file.firstId;
    const c = cache.header.chunks[i];
    return { file, id: c.id, range: c.range, ...(c.heading ? { heading: c.heading } : {}), at: cache.offs[i], len: c.len, hl: c.hl, crc: c.c };
  }

  /** live ids in order */
  *ids(): Generator<number> {
    for (let id = 0; id < this.owner.length; id++) if (this.owner[id]) yield id;
  }
}

/**
 * Reads chunk texts from shards, keeping each shard open until close(), or with `max` the
 * `max` most recently read (searches: opening a shard per candidate was most of a query's
 * time). Keyed by the file's registration, not its path: a re-indexed file's new shard is a
 * new registration, so a descriptor of the replaced shard never serves it.
 */
export class TextReader {
  private fds = new Map<FileRef, number>();
  constructor(
    private readonly dir: string,
    private readonly onDamage: OnDamage,
    private readonly max = Infinity,
  ) {}

  /**
   * The chunk's text, or with `indexed` its indexed text (the heading line and the text);
   * undefined when its shard cannot be read or the data fails its CRC-32 (never served: the
   * store is told, and drops the file).
   */
  text(m: Span, indexed = false): string | undefined {
    let fd: number | undefined;
    try {
      fd = this.fds.get(m.file);
      if (fd === undefined) {
        try {
          fd = openSync(shardPath(this.dir, m.file.key), 'r');
        } catch {
          this.onDamage(m.file, 'its shard is missing');
          return undefined;
        }
        this.fds.set(m.file, fd);
        if (this.fds.size > this.max) {
          const [oldest, ofd] = this.fds.entries().next().value as [FileRef, number];
          this.fds.delete(oldest);
          closeSync(ofd);
        }
      } else if (this.max !== Infinity) {
        this.fds.delete(m.file); // most recently used last
        this.fds.set(m.file, fd);
      }
      const buf = Buffer.allocUnsafe(m.len);
      let got = 0;
      while (got < m.len) {
        const n = readSync(fd, buf, got, m.len - got, m.at + got);
        if (n <= 0) break;
        got += n;
      }
      if (got < m.len) {
        this.forget(m.file);
        this.onDamage(m.file, 'its shard is cut short');
        return undefined;
      }
      if (crc32(buf) !== m.crc) {
        this.forget(m.file);
        this.onDamage(m.file, 'a passage in its shard failed its checksum');
        return undefined;
      }
      return buf.toString('utf8', indexed ? 0 : m.hl);
    } catch (e) {
      if (fd !== undefined) this.forget(m.file);
      this.onDamage(m.file, `its shard could not be read (${(e as Error).message})`);
      return undefined;
    }
  }

  /** the indexed text (heading line and text) of chunk `id` of `chunks`, as text() reads it; undefined when it is not live */
  indexed(chunks: ChunkTable, id: number): string | undefined {
    const sp = chunks.span(id);
    return sp && this.text(sp, true);
  }

  /** close the file's shard (it was dropped) */
  forget(file: FileRef): void {
    const fd = this.fds.get(file);
    if (fd === undefined) return;
    this.fds.delete(file);
    try {
      closeSync(fd);
    } catch {
      /* already closed */
    }
  }

  close(): void {
    for (const fd of this.fds.values()) {
      try {
        closeSync(fd);
      } catch {
        /* already closed */
      }
    }
    this.fds.clear();
  }
}
