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
 */
import { readFileSync } from 'node:fs';
import FlexSearch from 'flexsearch';
import { writeAtomicStream } from './atomic.js';

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
}

/** terms per exported part (see exportParts), ids per exported register part */
const EXPORT_TERMS = 200;
const EXPORT_IDS = 50000;

export const DEFAULT_LEXICAL: LexicalConfig = { tokenize: 'strict' };

export class LexicalIndex {
  private index: InstanceType<typeof FlexSearch.Index>;
  private encoder: InstanceType<typeof FlexSearch.Encoder>;
  /** ids added (including dead ones not removed) */
  size = 0;

  constructor(readonly config: LexicalConfig = DEFAULT_LEXICAL) {
    this.encoder = new FlexSearch.Encoder({ ...FlexSearch.Charset.Normalize, filter: STOP_WORDS });
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
    const plain = (idx.reg instanceof Set || idx.reg instanceof Map) && idx.map instanceof Map && (idx.ctx === undefined || (idx.ctx instanceof Map && idx.ctx.size === 0));
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
  config: LexicalConfig;
  size: number;
  ranges: Record<string, [number, number]>;
}

/**
 * Write `index` to `target` as NDJSON: the header line, then one line per export part
 * (`key<TAB>data`, data as flexsearch writes it: JSON, no raw newlines). Streamed part by part
 * to a temp file, then renamed: no one giant string, never a torn snapshot.
 */
export function saveSnapshot(index: LexicalIndex, target: string, head: SnapshotHeader): void {
  writeAtomicStream(target, (write) => {
    write(`${JSON.stringify(head)}\n`);
    index.exportParts((key, data) => {
      write(`${key}\t`);
      write(data);
      write('\n');
    });
  });
}

/** read a snapshot written by saveSnapshot; throws when it is torn, empty or of another config */
export function loadSnapshot(file: string, config: LexicalConfig): { index: LexicalIndex; head: SnapshotHeader } {
  // one line at a time: only one export part is a string in the heap at once
  const buf = readFileSync(file);
  let start = 0;
  let head: SnapshotHeader | undefined;
  const index = new LexicalIndex(config);
  while (start < buf.length) {
    let end = buf.indexOf(10, start);
    if (end < 0) end = buf.length;
    const from = start;
    start = end + 1;
    if (end === from) continue;
    if (!head) {
      head = JSON.parse(buf.toString('utf8', from, end)) as SnapshotHeader;
      if (head.config.tokenize !== config.tokenize) throw new Error('another tokenizer');
      continue;
    }
    const tab = buf.indexOf(9, from);
    if (tab < 0 || tab > end) throw new Error('torn snapshot');
    index.importPart(buf.toString('utf8', from, tab), buf.toString('utf8', tab + 1, end));
  }
  if (!head) throw new Error('empty snapshot');
  index.size = head.size;
  return { index, head };
}
