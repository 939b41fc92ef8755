/**
 * The lexical index: flexsearch 0.8 `Index` over chunk texts with numeric ids (the store maps
 * them to chunks). flexsearch has no BM25 and exposes no scores, so only its ranking is used
 * (fused by RRF with the dense ranking) and gating is done elsewhere.
 *
 * Tokenizer, measured on this machine kind (2 cores), 10k synthetic chunks of 200 words,
 * raw flexsearch 0.8.212 `Index`, same chunks:
 *   strict : 2.1k chunks/s, query p50/p95 0.13 / 1.0 ms, +110 MB RSS, export 9 MB
 *   forward: 0.9k chunks/s, query p50/p95 0.26 / 1.0 ms, +190 MB RSS, export 18 MB
 * (STACK.md at 100k: strict 4.8k/s and 612 MB with `Document`, 384 MB with `Index`; forward
 * 0.8k/s and 1.3 GB.) `strict` is chosen: 2.3x faster builds and half the memory; prefix
 * matches (`forward`) are not worth that for whole-word technical queries.
 *
 * `Index` rather than `Document`: one field, and `Document` costs ~60% more memory at 100k.
 * `fastupdate` is off: its register makes removals cheap (0.4 ms vs 30 ms per chunk at 10k)
 * but breaks export/import in 0.8.212 ("c.add is not a function"). Removed chunks are left in
 * the flexsearch index as dead ids (the store ignores ids it does not know) and the index is
 * rebuilt from the chunk store when dead ids pass a third of the total.
 *
 * English stop words are filtered at index and query time: they carry no signal, and
 * leaving them out makes builds faster and the index smaller.
 *
 * Numbers: flexsearch cuts digit runs into triplets ("61508" -> "615 08", "rev2024" -> "rev
 * 202 4"), and the store's lexical gate, which checks whole words in the text, then never
 * found those pieces ("IEC 61508" returned nothing). Here a digit run is one term, split from
 * letters it touches when it has 3 or more digits, as flexsearch did ("rev2024" -> "rev 2024",
 * "r2d2" stays whole); `splitDigitRuns` is the one rule, used by the encoder and by the gate.
 */
import { readFileSync } from 'node:fs';
import FlexSearch from 'flexsearch';
import { writeAtomicStream } from './atomic.js';
import { crc32 } from './checksum.js';

export type Tokenize = 'strict' | 'forward';

export const STOP_WORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does doing for from had has have having he her here hers him his how i if in into is it its itself ' +
    'me more most my no nor not of off on once only or other our ours out over own same she should so some such than that the their theirs them then there these they ' +
    'this those through to too under until up very was we were what when where which while who whom why will with would you your yours also about above after again ' +
    'against all am any because before below between both during each few further just may might must shall upon us via vs whether within without yet'
  ).split(' '),
);

export interface LexicalConfig {
  tokenize: Tokenize;
  /**
   * the encoder's rules: absent (1) flexsearch's digit triplets, 2 whole digit runs (see
   * splitDigitRuns). An index built with other rules is re-indexed from the shards.
   */
  encoder?: number;
}

/** the encoder rules of this version (LexicalConfig.encoder) */
export const ENCODER_VERSION = 2;

/** whether an index built with `a` answers queries encoded with `b` */
export function sameLexical(a: LexicalConfig | undefined, b: LexicalConfig): boolean {
  return !!a && a.tokenize === b.tokenize && (a.encoder ?? 1) === (b.encoder ?? 1);
}

/**
 * A letter and a run of 3 or more digits that touch are split apart ("rev2024" -> "rev 2024",
 * "iec61508" -> "iec 61508"), digit runs are never cut; shorter runs stay with their letters
 * ("r2d2", "h2"). Applied by the encoder to every text and query, and by the store's gate to
 * the passage it checks, so both see the same words.
 */
export function splitDigitRuns(s: string): string {
  return /\d{3}/.test(s) ? s.replace(/(?<=\p{L})(?=\d{3})/gu, ' ').replace(/(?<=\d{3})(?=\p{L})/gu, ' ') : s;
}

/** terms per exported part (see exportParts), ids per exported register part */
const EXPORT_TERMS = 200;
const EXPORT_IDS = 50000;

export const DEFAULT_LEXICAL: LexicalConfig = { tokenize: 'strict', encoder: ENCODER_VERSION };

export class LexicalIndex {
  private index: InstanceType<typeof FlexSearch.Index>;
  private encoder: InstanceType<typeof FlexSearch.Encoder>;
  /** ids added (including dead ones not removed) */
  size = 0;

  constructor(readonly config: LexicalConfig = DEFAULT_LEXICAL) {
    this.encoder = new FlexSearch.Encoder({ ...FlexSearch.Charset.Normalize, filter: STOP_WORDS, numeric: false, prepare: splitDigitRuns });
    this.index = new FlexSearch.Index({ tokenize: config.tokenize, encoder: this.encoder, fastupdate: false, cache: false });
  }

  add(id: number, text: string): void {
    this.index.add(id, text);
    this.size++;
  }

  /** numeric ids, best first; a query with several terms also returns partial matches */
  search(query: string, limit: number): number[] {
    if (!query.trim()) return [];
    return this.index.search(query, { limit, suggest: true }) as number[];
  }

  /** whether any term of the chunk `id` is in the index (a chunk with no terms is not) */
  has(id: number): boolean {
    return !!this.index.contain(id);
  }

  /**
   * What the index holds, read from flexsearch's internals when they are as expected (else
   * undefined): the ids with at least one term, the terms, and the largest id.
   */
  census(): { ids: number; terms: number; maxId: number } | undefined {
    const idx = this.index as unknown as { reg?: unknown; map?: unknown };
    if (!(idx.reg instanceof Set || idx.reg instanceof Map) || !(idx.map instanceof Map)) return undefined;
    let maxId = 0;
    for (const id of (idx.reg as Set<unknown> | Map<unknown, unknown>).keys()) {
      if (typeof id !== 'number') return undefined;
      if (id > maxId) maxId = id;
    }
    return { ids: idx.reg.size, terms: idx.map.size, maxId };
  }

  /** the query's terms as the index sees them (normalised, stop words out) */
  terms(query: string): string[] {
    return [...new Set(this.encoder.encode(query))];
  }

  /** the text's terms as the index sees them */
  encode(text: string): string[] {
    return this.encoder.encode(text);
  }

  /**
   * The export, part by part (the store streams them to disk). flexsearch's own export puts
   * 12.5k terms in a part at 100k chunks, so its first part (the most frequent terms) is one
   * ~46 MB string; here the term map goes out in parts of EXPORT_TERMS terms in the same
   * format flexsearch imports (`<n>.reg`, `<n>.map`), so no part is a large string and the
   * end of a build does not raise the heap. Reads two flexsearch internals (`reg`, `map`),
   * guarded: when they are not as expected (another version, contexts in use) it falls back
   * to flexsearch's export.
   */
  exportParts(onPart: (key: string, data: string) => void): void {
    const idx = this.index as unknown as { reg?: unknown; map?: unknown; ctx?: unknown };
    const plain =
      (idx.reg instanceof Set || idx.reg instanceof Map) && idx.map instanceof Map && (idx.ctx === undefined || (idx.ctx instanceof Map && idx.ctx.size === 0));
    if (!plain) {
      this.index.export((key: string, data: string) => {
        onPart(key, data);
      });
      return;
    }
    const reg = idx.reg as Set<unknown> | Map<unknown, unknown>;
    let part = 1;
    let ids: unknown[] = [];
    for (const id of reg.keys()) {
      ids.push(id);
      if (ids.length === EXPORT_IDS) {
        onPart(`${part++}.reg`, JSON.stringify(ids));
        ids = [];
      }
    }
    if (ids.length) onPart(`${part++}.reg`, JSON.stringify(ids));
    let terms: unknown[] = [];
    for (const entry of idx.map as Map<unknown, unknown>) {
      terms.push(entry);
      if (terms.length === EXPORT_TERMS) {
        onPart(`${part++}.map`, JSON.stringify(terms));
        terms = [];
      }
    }
    if (terms.length) onPart(`${part++}.map`, JSON.stringify(terms));
  }

  export(): Record<string, string> {
    const parts: Record<string, string> = {};
    this.exportParts((key, data) => {
      parts[key] = data;
    });
    return parts;
  }

  importPart(key: string, data: string): void {
    this.index.import(key, data);
  }

  static import(config: LexicalConfig, parts: Record<string, string>, size: number): LexicalIndex {
    const li = new LexicalIndex(config);
    for (const [k, v] of Object.entries(parts)) li.importPart(k, v);
    li.size = size;
    return li;
  }
}

/** the first line of a lexical snapshot: what it holds (its config, size and the id ranges of its files) */
export interface SnapshotHeader {
  /** the snapshot layout (SNAPSHOT_VERSION); absent in the layout without an end line */
  v?: number;
  config: LexicalConfig;
  size: number;
  ranges: Record<string, [number, number]>;
}

/** the last line: how many parts came before it, their checksum, and what the index held */
interface SnapshotEnd {
  end: { parts: number; crc: number; ids?: number; terms?: number };
}

/** 2: an end line with the part count and a CRC-32 of every byte before it */
export const SNAPSHOT_VERSION = 2;

/**
 * A snapshot that cannot be used: `damaged` when it is of this layout and config but does
 * not check out (a lost or changed line, a cut file), else it is of another layout or
 * tokenizer (an upgrade: re-indexed from the shards without a warning).
 */
export class SnapshotError extends Error {
  constructor(
    message: string,
    readonly damaged: boolean,
  ) {
    super(message);
  }
}

/**
 * Write `index` to `target` as NDJSON: the header line, then one line per export part
 * (`key<TAB>data`, data as flexsearch writes it: JSON, no raw newlines), then the end line
 * (the part count and a CRC-32 of every byte before it). Streamed part by part to a temp
 * file, then renamed: no one giant string, never a torn snapshot.
 */
export function saveSnapshot(index: LexicalIndex, target: string, head: SnapshotHeader): void {
  writeAtomicStream(target, (write) => {
    let crc = 0;
    let parts = 0;
    const put = (s: string) => {
      const b = Buffer.from(s, 'utf8');
      crc = crc32(b, crc);
      write(b);
    };
    put(`${JSON.stringify({ ...head, v: SNAPSHOT_VERSION })}\n`);
    index.exportParts((key, data) => {
      put(`${key}\t`);
      put(data);
      put('\n');
      parts++;
    });
    const census = index.census();
    const end: SnapshotEnd = { end: { parts, crc, ...(census ? { ids: census.ids, terms: census.terms } : {}) } };
    write(`${JSON.stringify(end)}\n`);
  });
}

/**
 * Read a snapshot written by saveSnapshot. Throws a SnapshotError when it is of another
 * layout or config, or damaged: torn, cut, a line lost or changed (the part count, the
 * checksum, or the ids and terms the index held disagree with its end line).
 */
export function loadSnapshot(file: string, config: LexicalConfig): { index: LexicalIndex; head: SnapshotHeader } {
  // one line at a time: only one export part is a string in the heap at once
  const buf = readFileSync(file);
  let start = 0;
  let head: SnapshotHeader | undefined;
  let end: SnapshotEnd['end'] | undefined;
  let crc = 0;
  let parts = 0;
  const index = new LexicalIndex(config);
  while (start < buf.length) {
    let stop = buf.indexOf(10, start);
    if (stop < 0) stop = buf.length;
    const from = start;
    start = stop + 1;
    if (stop === from) continue;
    if (end) throw new SnapshotError('a line after the end line', true);
    if (!head) {
      try {
        head = JSON.parse(buf.toString('utf8', from, stop)) as SnapshotHeader;
      } catch {
        throw new SnapshotError('its first line is not the header', true);
      }
      if (!head || typeof head !== 'object' || !head.config || typeof head.config !== 'object')
        throw new SnapshotError('its first line is not the header', true);
      if (head.v !== SNAPSHOT_VERSION) throw new SnapshotError('an older snapshot layout', head.v !== undefined && typeof head.v !== 'number');
      if (!sameLexical(head.config, config)) throw new SnapshotError('another tokenizer', false);
      crc = crc32(buf.subarray(from, Math.min(stop + 1, buf.length)), crc);
      continue;
    }
    if (buf[from] === 0x7b /* { */) {
      try {
        end = (JSON.parse(buf.toString('utf8', from, stop)) as SnapshotEnd).end;
      } catch {
        throw new SnapshotError('a torn end line', true);
      }
      if (!end || typeof end !== 'object') throw new SnapshotError('a torn end line', true);
      continue;
    }
    const tab = buf.indexOf(9, from);
    if (tab < 0 || tab > stop) throw new SnapshotError('a torn line', true);
    crc = crc32(buf.subarray(from, Math.min(stop + 1, buf.length)), crc);
    parts++;
    try {
      index.importPart(buf.toString('utf8', from, tab), buf.toString('utf8', tab + 1, stop));
    } catch (e) {
      throw new SnapshotError(`a part that does not load (${(e as Error).message})`, true);
    }
  }
  if (!head) throw new SnapshotError('it is empty', true);
  if (!end) throw new SnapshotError('it has no end line: cut short', true);
  if (end.parts !== parts) throw new SnapshotError(`${parts} part${parts === 1 ? '' : 's'} where its end line says ${end.parts}`, true);
  if (end.crc !== crc) throw new SnapshotError('its checksum does not match its content', true);
  const census = index.census();
  if (census && end.ids !== undefined && (census.ids !== end.ids || census.terms !== end.terms)) {
    throw new SnapshotError(`${census.ids} ids and ${census.terms} terms where its end line says ${end.ids} and ${end.terms}`, true);
  }
  if (typeof head.size !== 'number' || !head.ranges || typeof head.ranges !== 'object') throw new SnapshotError('a header without its size or ranges', true);
  index.size = head.size;
  return { index, head };
}
