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
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { ControlError } from '../errors.js';
import type { Embedder } from './embedder.js';
import { calibrateThreshold, dot, IN_DOMAIN_PROBES, OFF_DOMAIN_PROBES, rrf } from './fusion.js';
import { ingestFile } from './ingest/index.js';
import { TEMP_NAME, writeAtomicStream } from './atomic.js';
import { crc32 } from './checksum.js';
import { LexicalBuilder } from './lexicalBuilder.js';
import { DEFAULT_LEXICAL, LexicalIndex, loadSnapshot, sameLexical, saveSnapshot, SnapshotError, splitDigitRuns, type LexicalConfig, type SnapshotHeader } from './lexical.js';
import { acceptsPath, sha256, toPosix, walk, writeAtomic, type FoundFile } from './files.js';
import type {
  BuildOptions,
  BuildSummary,
  CalibrationResult,
  BuildTimings,
  Chunk,
  ChunkRange,
  GateInfo,
  IndexStats,
  SearchHit,
  SearchResult,
} from './types.js';

/** 2: binary shards with texts read on demand, NDJSON lexical snapshot (1: JSON shards, all texts in memory) */
const FORMAT = 2;
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
/** a temp file of a live writer is left alone unless it is older than this (then it is abandoned) */
const STALE_TEMP_MS = 10 * 60 * 1000;

interface FileEntry {
  hash: string;
  size: number;
  mtimeMs: number;
  key: string;
  firstId: number;
  count: number;
  source: string;
  dropped?: Record<string, number>;
  repaired?: number;
}

interface Manifest {
  format: number;
  root?: string;
  lexical: LexicalConfig;
  nextId: number;
  files: Record<string, FileEntry>;
  skipped: Record<string, string>;
  calibration?: Record<string, CalibrationResult>;
  include?: string[];
  exclude?: string[];
  builtAt?: string;
  /** files that left the index because their stored copy failed a check, until a build re-reads them */
  reindex?: string[];
}

interface ShardHeader {
  v: number;
  path: string;
  hash: string;
  source: string;
  /** the file's low-value text left out and lines repaired (as in its FileEntry: a lost manifest is rebuilt from the shards) */
  dropped?: Record<string, number>;
  repaired?: number;
  /** len: bytes of the chunk's data (heading line and text), hl: bytes of the heading line (0: none), c: CRC-32 of the data */
  chunks: { id: string; range: ChunkRange; heading?: string; len: number; hl: number; c: number }[];
}

/** one indexed file as search sees it (shared by its chunks) */
interface FileRef {
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
interface Span {
  file: FileRef;
  /** byte offset of the data in the shard, its byte length, the heading line's length, its CRC-32 */
  at: number;
  len: number;
  hl: number;
  crc: number;
}

/** one chunk's metadata, read from its shard header: the text stays in the shard */
interface ChunkMeta extends Span {
  id: string;
  range: ChunkRange;
  heading?: string;
}

/** a stored copy of a file that cannot be served: the store drops the file and says why */
type OnDamage = (file: FileRef, why: string) => void;

/** shard headers kept in memory at once (a search touches at most ~100 files) */
const HEADER_CACHE = 256;

/**
 * Which file owns each numeric chunk id (one pointer per id): liveness and counts without any
 * per-chunk object. A chunk's metadata comes from its shard header, read on demand and cached
 * for the few files recently looked at.
 */
class ChunkTable {
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
    if (!shard.ok || shard.header.hash !== file.hash || shard.header.path !== file.rel || shard.header.chunks.length !== file.count) {
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
 * 4: a u32 header length, the header's CRC-32 (u32), the header, then each chunk's data
 * (`heading\n` when it has one, then its text: the indexed text is one read) with its CRC-32
 * in the header. 3 (no checksums) is not served: its file is re-read at the next build.
 */
const SHARD_VERSION = 4;
const OLD_SHARD_VERSION = 3;

function shardPath(dir: string, key: string): string {
  return join(dir, 'shards', `${key}.shard`);
}

/** encode one file's chunks as a shard */
function encodeShard(
  path: string,
  hash: string,
  source: string,
  chunks: Chunk[],
  extra: Pick<ShardHeader, 'dropped' | 'repaired'> = {},
): { buf: Buffer; header: ShardHeader; dataStart: number } {
  const heads = chunks.map((c) => (c.heading ? Buffer.from(`${c.heading}\n`, 'utf8') : Buffer.alloc(0)));
  const texts = chunks.map((c) => Buffer.from(c.text, 'utf8'));
  const header: ShardHeader = {
    v: SHARD_VERSION,
    path,
    hash,
    source,
    ...extra,
    chunks: chunks.map((c, i) => ({
      id: c.id,
      range: c.range,
      ...(c.heading ? { heading: c.heading } : {}),
      len: heads[i].length + texts[i].length,
      hl: heads[i].length,
      c: crc32(texts[i], crc32(heads[i])),
    })),
  };
  const head = Buffer.from(JSON.stringify(header), 'utf8');
  const pre = Buffer.allocUnsafe(8);
  pre.writeUInt32LE(head.length, 0);
  pre.writeUInt32LE(crc32(head), 4);
  return { buf: Buffer.concat([pre, head, ...chunks.flatMap((_, i) => [heads[i], texts[i]])]), header, dataStart: 8 + head.length };
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isCount = (x: unknown, min = 0): x is number => Number.isSafeInteger(x) && (x as number) >= min;

type ShardRead = { ok: true; header: ShardHeader; dataStart: number } | { ok: false; kind: 'missing' | 'old' | 'damaged'; why: string };

/**
 * A shard's header and where its texts start, without reading the texts: checked against its
 * CRC-32 and for a layout that adds up (the texts' own CRCs are checked as they are read).
 * 'missing' (no file), 'old' (the layout without checksums) or 'damaged' otherwise.
 */
function readShardHeader(file: string): ShardRead {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return { ok: false, kind: 'missing', why: 'its shard is missing' };
  }
  const damaged = (why: string): ShardRead => ({ ok: false, kind: 'damaged', why: `its shard ${why}` });
  try {
    const size = fstatSync(fd).size;
    if (size < 8) return damaged('is cut short');
    const pre = Buffer.allocUnsafe(8);
    readSync(fd, pre, 0, 8, 0);
    const hlen = pre.readUInt32LE(0);
    if (8 + hlen > size) {
      if (4 + hlen <= size) {
        const hb = Buffer.allocUnsafe(hlen);
        readSync(fd, hb, 0, hlen, 4);
        if (isOldShard(hb)) return { ok: false, kind: 'old', why: 'its shard is of the older layout without checksums' };
      }
      return damaged('is cut short');
    }
    const hb = Buffer.allocUnsafe(hlen);
    readSync(fd, hb, 0, hlen, 8);
    if (crc32(hb) !== pre.readUInt32LE(4)) {
      const old = Buffer.allocUnsafe(Math.min(hlen, size - 4));
      readSync(fd, old, 0, old.length, 4);
      if (isOldShard(old)) return { ok: false, kind: 'old', why: 'its shard is of the older layout without checksums' };
      return damaged('header failed its checksum');
    }
    let header: ShardHeader;
    try {
      header = JSON.parse(hb.toString('utf8')) as ShardHeader;
    } catch {
      return damaged('header is not JSON');
    }
    if (!isObject(header) || header.v !== SHARD_VERSION || !Array.isArray(header.chunks)) return damaged('is of an unknown layout');
    if (typeof header.path !== 'string' || typeof header.hash !== 'string' || typeof header.source !== 'string') return damaged('header is incomplete');
    let total = 0;
    for (const c of header.chunks) {
      if (!isObject(c) || typeof c.id !== 'string' || !isObject(c.range) || !isCount(c.len) || !isCount(c.hl) || c.hl > c.len || !isCount(c.c)) return damaged('header is incomplete');
      total += c.len;
    }
    if (8 + hlen + total !== size) return damaged(`holds ${size - 8 - hlen} bytes of text where its header says ${total}`);
    return { ok: true, header, dataStart: 8 + hlen };
  } catch (e) {
    return damaged(`could not be read (${(e as Error).message})`);
  } finally {
    closeSync(fd);
  }
}

/** whether `hb` (the bytes after a u32 length) is the JSON header of a version 3 shard */
function isOldShard(hb: Buffer): boolean {
  if (hb[0] !== 0x7b) return false;
  try {
    const h = JSON.parse(hb.toString('utf8')) as { v?: unknown };
    return isObject(h) && h.v === OLD_SHARD_VERSION;
  } catch {
    return false;
  }
}

/**
 * Reads chunk texts from shards, keeping each shard open until close(), or with `max` the
 * `max` most recently read (searches: opening a shard per candidate was most of a query's
 * time). Keyed by the file's registration, not its path: a re-indexed file's new shard is a
 * new registration, so a descriptor of the replaced shard never serves it.
 */
class TextReader {
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

function shardKey(rel: string): string {
  return sha256(rel).slice(0, 24);
}

const yieldNow = () => new Promise<void>((r) => setImmediate(r));

function vectorDirName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_');
}

/** what a value is, for a message ("null", "a list", "a string") */
function kindOf(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'a list';
  return typeof x === 'object' ? 'an object' : `a ${typeof x}`;
}

/**
 * a workspace-relative path as the index writes it (not absolute, no `..` segment): it names
 * a file under the root (anything else a walk can produce is accepted: a false alarm here
 * would repair the index at every open)
 */
function isRelPath(rel: string): boolean {
  return rel.length > 0 && !/^\/|\0|(^|\/)\.\.(\/|$)/.test(rel);
}

const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');
const isFiniteNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

function fileEntryProblem(rel: string, f: unknown): string | undefined {
  const at = `files[${JSON.stringify(rel)}]`;
  if (!isRelPath(rel)) return `${at} is not a relative path`;
  if (!isObject(f)) return `${at} is ${kindOf(f)} where an object is expected`;
  if (typeof f.hash !== 'string' || !/^[0-9a-f]{64}$/.test(f.hash)) return `${at}.hash is not a content hash`;
  if (!isFiniteNumber(f.size)) return `${at}.size is ${kindOf(f.size)} where a number is expected`;
  if (!isFiniteNumber(f.mtimeMs)) return `${at}.mtimeMs is ${kindOf(f.mtimeMs)} where a number is expected`;
  if (f.key !== shardKey(rel)) return `${at}.key is not the file's shard key`;
  if (!isCount(f.firstId, 1)) return `${at}.firstId is not a whole number >= 1`;
  if (!isCount(f.count, 1)) return `${at}.count is not a whole number >= 1`;
  if (typeof f.source !== 'string') return `${at}.source is ${kindOf(f.source)} where a string is expected`;
  if (f.dropped !== undefined && !(isObject(f.dropped) && Object.values(f.dropped).every((v) => isCount(v)))) return `${at}.dropped is not a table of counts`;
  if (f.repaired !== undefined && !isCount(f.repaired)) return `${at}.repaired is not a count`;
  return undefined;
}

function calibrationProblem(c: unknown): string | undefined {
  if (c === undefined) return undefined;
  if (!isObject(c)) return `calibration is ${kindOf(c)} where an object is expected`;
  for (const [id, r] of Object.entries(c)) {
    if (
      !isObject(r) ||
      !isFiniteNumber(r.threshold) ||
      !isFiniteNumber(r.inWorst) ||
      !isFiniteNumber(r.offBest) ||
      typeof r.separable !== 'boolean' ||
      !isFiniteNumber(r.accuracy) ||
      !isCount(r.chunks) ||
      typeof r.at !== 'string'
    ) {
      return `calibration[${JSON.stringify(id)}] is not a calibration`;
    }
  }
  return undefined;
}

/**
 * Check a parsed manifest's types and invariants (files keyed by path with their shard key,
 * id ranges that do not overlap and lie below nextId, the skipped table, the calibration).
 * The first problem found, or undefined when it can be used as it is. A lexical config of
 * another version is not a problem (the lexical index is re-indexed from the shards).
 */
function manifestProblem(m: Record<string, unknown>): string | undefined {
  const lex = m.lexical;
  if (!isObject(lex) || (lex.tokenize !== 'strict' && lex.tokenize !== 'forward') || (lex.encoder !== undefined && !isCount(lex.encoder, 1))) {
    return lex === undefined ? '"lexical" is missing' : '"lexical" is not a tokenizer config';
  }
  if (!isCount(m.nextId, 1)) return m.nextId === undefined ? '"nextId" is missing' : `"nextId" is ${kindOf(m.nextId)} where a whole number >= 1 is expected`;
  if (!isObject(m.files)) return m.files === undefined ? '"files" is missing' : `"files" is ${kindOf(m.files)} where an object is expected`;
  if (!isObject(m.skipped)) return m.skipped === undefined ? '"skipped" is missing' : `"skipped" is ${kindOf(m.skipped)} where an object is expected`;
  for (const [rel, why] of Object.entries(m.skipped)) if (typeof why !== 'string') return `skipped[${JSON.stringify(rel)}] is ${kindOf(why)} where a string is expected`;
  const ranges: [number, number, string][] = [];
  for (const [rel, f] of Object.entries(m.files)) {
    const p = fileEntryProblem(rel, f);
    if (p) return p;
    const e = f as unknown as FileEntry;
    ranges.push([e.firstId, e.firstId + e.count, rel]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < ranges.length; i++) {
    if (ranges[i][0] < ranges[i - 1][1]) return `the chunk ids of ${ranges[i - 1][2]} and ${ranges[i][2]} overlap`;
  }
  if (ranges.length && ranges[ranges.length - 1][1] > (m.nextId as number)) return `"nextId" is below the chunk ids already given out`;
  const cal = calibrationProblem(m.calibration);
  if (cal) return cal;
  for (const k of ['root', 'builtAt'] as const) if (m[k] !== undefined && typeof m[k] !== 'string') return `"${k}" is ${kindOf(m[k])} where a string is expected`;
  for (const k of ['include', 'exclude'] as const) if (m[k] !== undefined && !isStrings(m[k])) return `"${k}" is not a list of globs`;
  if (m.reindex !== undefined && !isStrings(m.reindex)) return '"reindex" is not a list of paths';
  return undefined;
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
    names = readdirSync(join(dir, 'shards'));
  } catch {
    /* no shards */
  }
  for (const name of names) {
    const m = /^([0-9a-f]{24})\.shard$/.exec(name);
    if (!m) continue;
    const r = readShardHeader(join(dir, 'shards', name));
    if (!r.ok || r.header.chunks.length === 0 || !isRelPath(r.header.path) || shardKey(r.header.path) !== m[1]) {
      unusable.push(`shards/${name}`);
      tryRemove(join(dir, 'shards', name));
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
    const keep = !fileEntryProblem(rel, old) && (old as unknown as FileEntry).hash === header.hash && (old as unknown as FileEntry).count === header.chunks.length;
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
  if (isObject(salvage.calibration) && !calibrationProblem(salvage.calibration)) manifest.calibration = salvage.calibration as Record<string, CalibrationResult>;
  if (isStrings(salvage.reindex)) manifest.reindex = salvage.reindex;
  return { manifest, unusable };
}

/** remove a file of the index if it can be (a read-only folder keeps it: the checks find it again, nothing is served from it) */
function tryRemove(path: string): void {
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
function removeStaleTemps(dir: string, before: number): number {
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
  sweep(join(dir, 'shards'));
  let models: string[] = [];
  try {
    models = readdirSync(join(dir, 'vectors'));
  } catch {
    /* no vectors */
  }
  for (const v of models) sweep(join(dir, 'vectors', v));
  return removed;
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
    const said: string[] = [];
    const mpath = join(dir, 'manifest.json');
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
    let m: Manifest | undefined;
    /** the manifest's ids are new (rebuilt from the shards): the snapshot on disk does not fit them */
    let freshLexical = false;
    let repaired = false;
    let lost: string[] = [];
    if (isObject(raw) && isCount(raw.format, 1) && raw.format < FORMAT) {
      // an older layout: start afresh rather than misread it; vectors stay (each file is
      // checked against its content hash and reused when it matches). Any other format that
      // is not this one (0, -1, 1.5, 1e308: damage, or a newer layout) is ill-typed below and
      // rebuilt from the shards: a shard this version cannot check is dropped, never misread
      rmSync(join(dir, 'shards'), { recursive: true, force: true });
      mkdirSync(join(dir, 'shards'), { recursive: true });
      for (const f of ['lexical.json', 'lexical.ndjson']) rmSync(join(dir, f), { force: true });
      m = { format: FORMAT, lexical: config, nextId: 1, files: {}, skipped: {} };
    } else if (isObject(raw) && !problem) {
      problem =
        raw.format === undefined
          ? '"format" is missing'
          : typeof raw.format !== 'number'
            ? `"format" is ${kindOf(raw.format)}`
            : raw.format !== FORMAT
              ? `"format" is ${raw.format}, not a layout this version knows`
              : manifestProblem(raw);
      if (!problem) {
        m = raw as unknown as Manifest;
        // another tokenizer or encoder version: the files stay, the lexical index is re-indexed from the shards
        if (!sameLexical(m.lexical, config)) {
          m.lexical = config;
          repaired = true;
        }
      }
    }
    if (!m) {
      // no manifest, or a damaged one: rebuilt from the shards (a build killed before its
      // first checkpoint leaves shards and no manifest; that is not damage, and not said)
      const { manifest, unusable } = manifestFromShards(dir, config, isObject(raw) ? raw : {});
      m = manifest;
      lost = unusable;
      freshLexical = true;
      const n = Object.keys(m.files).length;
      const recheck = Object.values(m.files).filter((f) => f.size < 0).length;
      if (problem) {
        said.push(
          `the index manifest was damaged (${problem}): rebuilt from the shards on disk (${n} file${n === 1 ? '' : 's'}${unusable.length ? `, ${unusable.length} unusable shard${unusable.length === 1 ? '' : 's'} left out` : ''})` +
            (recheck ? `; the next build re-checks ${recheck === n ? 'every file' : `${recheck} of them`} against its content hash` : ''),
        );
        repaired = true;
      }
    }
    const store = new IndexStore(dir, m, new LexicalIndex(config), opts.onWarning);
    for (const w of said) store.warn(w);
    for (const r of m.reindex ?? []) store.reindex.add(r); // found by an earlier session, not re-read yet
    for (const u of lost) store.reindex.add(u); // files unknown (their shards unreadable): the next build finds them
    if (store.loadChunks()) repaired = true;
    const { missing, fromDisk } = store.loadLexical(false, freshLexical);
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
      if (!shard.ok || shard.header.hash !== f.hash || shard.header.path !== rel || shard.header.chunks.length !== f.count) {
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
    if (now.ok && (now.header.hash !== file.hash || now.header.path !== file.rel || now.header.chunks.length !== file.count)) return;
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
        const bad = this.snapshotDisagrees(index, head);
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
   * Why a snapshot that loaded does not fit the manifest, or undefined when it does: its
   * ranges must be well-formed and not overlap, no id it holds may lie beyond the ids the
   * manifest gave out, and the ids of files it does not list (added since) must not be in it
   * (re-adding them would merge two texts under one id).
   */
  private snapshotDisagrees(index: LexicalIndex, head: SnapshotHeader): string | undefined {
    const nextId = this.manifest.nextId;
    const spans: [number, number, string][] = [];
    for (const [rel, r] of Object.entries(head.ranges)) {
      if (!Array.isArray(r) || r.length !== 2 || !isCount(r[0], 1) || !isCount(r[1], 1)) return `the range of ${rel} in its header is not an id range`;
      spans.push([r[0], r[0] + r[1], rel]);
    }
    spans.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) if (spans[i][0] < spans[i - 1][1]) return `the id ranges of ${spans[i - 1][2]} and ${spans[i][2]} overlap in its header`;
    if (spans.length && spans[spans.length - 1][1] > nextId) return 'its header lists chunk ids the manifest has not given out';
    const census = index.census();
    if (census && census.ids > 0 && census.maxId >= nextId) return 'it holds chunk ids the manifest has not given out';
    if (census && census.ids > head.size) return `it holds ${census.ids} chunks where its header says ${head.size}`;
    for (const [rel, f] of Object.entries(this.manifest.files)) {
      const r = head.ranges[rel];
      if (r && r[0] === f.firstId && r[1] === f.count) continue;
      for (let id = f.firstId; id < f.firstId + f.count; id++) if (index.has(id)) return `it holds chunks of ${rel} its header does not list`;
    }
    return undefined;
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
    // the same JSON as JSON.stringify(manifest), written in pieces of ~200 files: at 10k files
    // one string would be ~1.5 MB, allocated straight into V8's large-object space at every
    // checkpoint and left there as garbage until a full GC (it raised the RSS after a build)
    const { files, ...rest } = this.manifest;
    const head = JSON.stringify(rest);
    writeAtomicStream(join(this.dir, 'manifest.json'), (write) => {
      write(`${head.slice(0, -1)}${head.length > 2 ? ',' : ''}"files":{`);
      let piece = '';
      let n = 0;
      let first = true;
      for (const rel in files) {
        piece += `${first ? '' : ','}${JSON.stringify(rel)}:${JSON.stringify(files[rel])}`;
        first = false;
        if (++n % 200 === 0) {
          write(piece);
          piece = '';
        }
      }
      write(`${piece}}}`);
    });
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
      return readdirSync(join(dir, 'shards')).some((name) => /^[0-9a-f]{24}\.shard$/.test(name));
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
