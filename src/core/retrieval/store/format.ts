/**
 * The index folder on disk, and the checks of what is read back from it (ARCHITECTURE.md,
 * invariant 11). One folder per index holds
 *
 *   manifest.json            files (content hash, size, mtime, chunk id range), skipped files,
 *                            calibration, the lexical config; rewritten atomically as a
 *                            checkpoint during a build and at its end (writeManifestFile)
 *   shards/<key>.shard       one file's chunks (written before the manifest names them): a u32
 *                            header length, the header's CRC-32, a JSON header (path, hash,
 *                            source, per chunk its id, range, heading, byte length and CRC-32),
 *                            then the texts as UTF-8; every read is checked against the CRCs
 *   vectors/<model>/<key>.bin one file's embeddings for one model (vectors.ts)
 *   lexical.ndjson           the lexical snapshot (lexical.ts: saveSnapshot, loadSnapshot),
 *                            checked here against the manifest (snapshotProblem)
 *
 * Nothing here holds state: encoders, readers and checks that return the first problem found
 * (a sentence for a warning) or undefined. An index of another `FORMAT` (an older layout) is
 * cleared and rebuilt rather than misread.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { writeAtomicStream } from '../atomic.js';
import { crc32 } from '../checksum.js';
import { sha256 } from '../files.js';
import type { LexicalConfig, LexicalIndex, SnapshotHeader } from '../lexical.js';
import type { CalibrationResult, Chunk, ChunkRange } from '../types.js';

/** 2: binary shards with texts read on demand, NDJSON lexical snapshot (1: JSON shards, all texts in memory) */
export const FORMAT = 2;

export interface FileEntry {
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

export interface Manifest {
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

export interface ShardHeader {
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

/**
 * 4: a u32 header length, the header's CRC-32 (u32), the header, then each chunk's data
 * (`heading\n` when it has one, then its text: the indexed text is one read) with its CRC-32
 * in the header. 3 (no checksums) is not served: its file is re-read at the next build.
 */
const SHARD_VERSION = 4;
const OLD_SHARD_VERSION = 3;

export const manifestPath = (dir: string) => join(dir, 'manifest.json');
export const snapshotPath = (dir: string) => join(dir, 'lexical.ndjson');
export const shardsDir = (dir: string) => join(dir, 'shards');

/** a shard's file name (`<key>.shard`, the key: see shardKey), the key captured */
export const SHARD_FILE = /^([0-9a-f]{24})\.shard$/;

export function shardKey(rel: string): string {
  return sha256(rel).slice(0, 24);
}

export function shardPath(dir: string, key: string): string {
  return join(shardsDir(dir), `${key}.shard`);
}

/** encode one file's chunks as a shard */
export function encodeShard(
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

export const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
export const isCount = (x: unknown, min = 0): x is number => Number.isSafeInteger(x) && (x as number) >= min;
export const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');
const isFiniteNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** what a value is, for a message ("null", "a list", "a string") */
export function kindOf(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'a list';
  return typeof x === 'object' ? 'an object' : `a ${typeof x}`;
}

/**
 * a workspace-relative path as the index writes it (not absolute, no `..` segment): it names
 * a file under the root (anything else a walk can produce is accepted: a false alarm here
 * would repair the index at every open)
 */
export function isRelPath(rel: string): boolean {
  return rel.length > 0 && !/^\/|\0|(^|\/)\.\.(\/|$)/.test(rel);
}

export type ShardRead = { ok: true; header: ShardHeader; dataStart: number } | { ok: false; kind: 'missing' | 'old' | 'damaged'; why: string };

const OLD_SHARD: ShardRead = { ok: false, kind: 'old', why: 'its shard is of the older layout without checksums' };

/**
 * A shard's header and where its texts start, without reading the texts: checked against its
 * CRC-32 and for a layout that adds up (the texts' own CRCs are checked as they are read).
 * 'missing' (no file), 'old' (the layout without checksums) or 'damaged' otherwise.
 */
export function readShardHeader(file: string): ShardRead {
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
        if (isOldShard(hb)) return OLD_SHARD;
      }
      return damaged('is cut short');
    }
    const hb = Buffer.allocUnsafe(hlen);
    readSync(fd, hb, 0, hlen, 8);
    if (crc32(hb) !== pre.readUInt32LE(4)) {
      const old = Buffer.allocUnsafe(Math.min(hlen, size - 4));
      readSync(fd, old, 0, old.length, 4);
      if (isOldShard(old)) return OLD_SHARD;
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
      if (!isObject(c) || typeof c.id !== 'string' || !isObject(c.range) || !isCount(c.len) || !isCount(c.hl) || c.hl > c.len || !isCount(c.c))
        return damaged('header is incomplete');
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
 * whether a shard header that checks out is the stored copy of this file (its path, content
 * hash and chunk count): else the shard was replaced by another write, or never finished
 */
export function shardIsOf(header: ShardHeader, rel: string, hash: string, count: number): boolean {
  return header.hash === hash && header.path === rel && header.chunks.length === count;
}

export function fileEntryProblem(rel: string, f: unknown): string | undefined {
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

export function calibrationProblem(c: unknown): string | undefined {
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
 * Chunk id spans (first id, end, file): the first two files whose ids overlap, or 'beyond'
 * when one reaches past `nextId` (ids the manifest has not given out); undefined when they
 * fit. Sorts `spans` by first id.
 */
function spansProblem(spans: [number, number, string][], nextId: number): [string, string] | 'beyond' | undefined {
  spans.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) if (spans[i][0] < spans[i - 1][1]) return [spans[i - 1][2], spans[i][2]];
  if (spans.length && spans[spans.length - 1][1] > nextId) return 'beyond';
  return undefined;
}

/**
 * Check a parsed manifest's types and invariants (files keyed by path with their shard key,
 * id ranges that do not overlap and lie below nextId, the skipped table, the calibration).
 * The first problem found, or undefined when it can be used as it is. A lexical config of
 * another version is not a problem (the lexical index is re-indexed from the shards).
 */
export function manifestProblem(m: Record<string, unknown>): string | undefined {
  const lex = m.lexical;
  if (!isObject(lex) || (lex.tokenize !== 'strict' && lex.tokenize !== 'forward') || (lex.encoder !== undefined && !isCount(lex.encoder, 1))) {
    return lex === undefined ? '"lexical" is missing' : '"lexical" is not a tokenizer config';
  }
  if (!isCount(m.nextId, 1)) return m.nextId === undefined ? '"nextId" is missing' : `"nextId" is ${kindOf(m.nextId)} where a whole number >= 1 is expected`;
  if (!isObject(m.files)) return m.files === undefined ? '"files" is missing' : `"files" is ${kindOf(m.files)} where an object is expected`;
  if (!isObject(m.skipped)) return m.skipped === undefined ? '"skipped" is missing' : `"skipped" is ${kindOf(m.skipped)} where an object is expected`;
  for (const [rel, why] of Object.entries(m.skipped))
    if (typeof why !== 'string') return `skipped[${JSON.stringify(rel)}] is ${kindOf(why)} where a string is expected`;
  const ranges: [number, number, string][] = [];
  for (const [rel, f] of Object.entries(m.files)) {
    const p = fileEntryProblem(rel, f);
    if (p) return p;
    const e = f as unknown as FileEntry;
    ranges.push([e.firstId, e.firstId + e.count, rel]);
  }
  const spans = spansProblem(ranges, m.nextId as number);
  if (spans === 'beyond') return `"nextId" is below the chunk ids already given out`;
  if (spans) return `the chunk ids of ${spans[0]} and ${spans[1]} overlap`;
  const cal = calibrationProblem(m.calibration);
  if (cal) return cal;
  for (const k of ['root', 'builtAt'] as const)
    if (m[k] !== undefined && typeof m[k] !== 'string') return `"${k}" is ${kindOf(m[k])} where a string is expected`;
  for (const k of ['include', 'exclude'] as const) if (m[k] !== undefined && !isStrings(m[k])) return `"${k}" is not a list of globs`;
  if (m.reindex !== undefined && !isStrings(m.reindex)) return '"reindex" is not a list of paths';
  return undefined;
}

/**
 * Why a snapshot that loaded does not fit the manifest, or undefined when it does: its
 * ranges must be well-formed and not overlap, no id it holds may lie beyond the ids the
 * manifest gave out, and the ids of files it does not list (added since) must not be in it
 * (re-adding them would merge two texts under one id).
 */
export function snapshotProblem(manifest: Manifest, index: LexicalIndex, head: SnapshotHeader): string | undefined {
  const nextId = manifest.nextId;
  const spans: [number, number, string][] = [];
  for (const [rel, r] of Object.entries(head.ranges)) {
    if (!Array.isArray(r) || r.length !== 2 || !isCount(r[0], 1) || !isCount(r[1], 1)) return `the range of ${rel} in its header is not an id range`;
    spans.push([r[0], r[0] + r[1], rel]);
  }
  const bad = spansProblem(spans, nextId);
  if (bad === 'beyond') return 'its header lists chunk ids the manifest has not given out';
  if (bad) return `the id ranges of ${bad[0]} and ${bad[1]} overlap in its header`;
  const census = index.census();
  if (census && census.ids > 0 && census.maxId >= nextId) return 'it holds chunk ids the manifest has not given out';
  if (census && census.ids > head.size) return `it holds ${census.ids} chunks where its header says ${head.size}`;
  for (const [rel, f] of Object.entries(manifest.files)) {
    const r = head.ranges[rel];
    if (r && r[0] === f.firstId && r[1] === f.count) continue;
    for (let id = f.firstId; id < f.firstId + f.count; id++) if (index.has(id)) return `it holds chunks of ${rel} its header does not list`;
  }
  return undefined;
}

/** the indexed files in id order (re-adding them in this order gives a clean build's index) */
export function filesInIdOrder(manifest: Manifest): [string, FileEntry][] {
  return Object.entries(manifest.files).sort((a, b) => a[1].firstId - b[1].firstId);
}

/** every indexed file's id range (the snapshot header) */
export function idRanges(manifest: Manifest): Record<string, [number, number]> {
  const ranges: Record<string, [number, number]> = {};
  for (const [rel, f] of Object.entries(manifest.files)) ranges[rel] = [f.firstId, f.count];
  return ranges;
}

/**
 * Write the manifest atomically: the same JSON as JSON.stringify(manifest), written in pieces
 * of ~200 files (at 10k files one string would be ~1.5 MB, allocated straight into V8's
 * large-object space at every checkpoint and left there as garbage until a full GC: it raised
 * the RSS after a build)
 */
export function writeManifestFile(dir: string, manifest: Manifest): void {
  const { files, ...rest } = manifest;
  const head = JSON.stringify(rest);
  writeAtomicStream(manifestPath(dir), (write) => {
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
}
