/**
 * Search over the index: lexical (gated by the share of the query's terms a passage
 * contains), or hybrid (RRF of the lexical and dense rankings, cosine-gated) when an embedder
 * is loaded; and the calibration of the cosine gate (fusion.ts). Texts are read from the
 * shards only for the candidates the gate checks and the hits returned; one that fails its
 * checksum is never served (its file leaves the index). Returning nothing is a normal outcome.
 */
import { ControlError } from '../../errors.js';
import { calibrateThreshold, dot, IN_DOMAIN_PROBES, OFF_DOMAIN_PROBES, rrf } from '../fusion.js';
import { splitDigitRuns } from '../lexical.js';
import type { CalibrationResult, GateInfo, SearchHit, SearchResult } from '../types.js';
import type { TextReader } from './chunks.js';
import type { IndexState } from './state.js';

/** lexical-only search: candidates failing the gate in a row that end the scan (see search) */
const GATE_MISSES = 3;
/** lexical-only gate: share of the query's terms a passage must contain */
export const LEXICAL_COVERAGE = 0.5;

export interface SearchOptions {
  /** hits to return (default 5) */
  k?: number;
  /** lexical and dense candidates considered before fusion (default 50) */
  candidates?: number;
  /** override the cosine gate (tests, experiments) */
  threshold?: number;
}

/** the gate search applies: the lexical coverage, or the embedder's cosine threshold (calibrated for this index, or its default) */
export function gate(s: IndexState): GateInfo {
  const embedder = s.vectors.embedder;
  if (!embedder) return { kind: 'lexical-coverage', threshold: LEXICAL_COVERAGE, calibrated: false };
  const cal = s.manifest.calibration?.[embedder.id];
  if (!cal) return { kind: 'cosine', threshold: embedder.conventions.defaultThreshold, calibrated: false };
  const stale = Math.abs(s.chunks.size - cal.chunks) > cal.chunks / 5;
  return { kind: 'cosine', threshold: cal.threshold, calibrated: true, ...(stale ? { stale } : {}) };
}

/**
 * Share of the query's terms found as whole words in the passage (case-insensitive). A
 * regex scan of the candidate's text: much cheaper than encoding it, and candidates are few.
 */
function coverage(s: IndexState, terms: RegExp[], id: number, reader: TextReader): number {
  if (!terms.length) return 0;
  const raw = reader.indexed(s.chunks, id); // the heading line and the text, as indexed
  if (raw === undefined) return 0;
  let text = raw.toLowerCase();
  // eslint-disable-next-line no-control-regex -- the ASCII range, \x00 included
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

/**
 * The passages for a query, best first, or none: hybrid (RRF of the lexical and dense
 * rankings, cosine-gated) when an embedder is loaded, else lexical (gated by the share of
 * query terms a passage contains). Returning nothing is a normal outcome.
 */
export async function search(s: IndexState, query: string, opts: SearchOptions = {}): Promise<SearchResult> {
  const t0 = performance.now();
  const k = opts.k ?? 5;
  const nCand = opts.candidates ?? 50;
  const g = gate(s);
  if (opts.threshold !== undefined) g.threshold = opts.threshold;
  const { chunks, vectors } = s;
  const embedder = vectors.embedder;
  const embedded = { done: vectors.size, total: chunks.size };
  const terms = s.lexical.index.terms(query);
  const termRes = terms.map((t) => {
    // the encoder folds case and diacritics and collapses repeated letters ("riccati" is
    // indexed as "ricati", "loop" as "lop"): each letter of a term matches one or more
    // times, on text folded the same way (coverage), so the gate sees what the index saw
    const e = [...t].map((ch) => `${ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}+`).join('');
    // ASCII terms: \b is enough and much faster than Unicode property classes
    // eslint-disable-next-line no-control-regex -- the ASCII range, \x00 included
    return /^[\x00-\x7f]*$/.test(t) ? new RegExp(`\\b${e}\\b`) : new RegExp(`(?<![\\p{L}\\p{N}])${e}(?![\\p{L}\\p{N}])`, 'u');
  });
  const hybrid = !!embedder && vectors.size > 0;
  const lexIds: number[] = [];
  if (terms.length) {
    for (const id of await s.lexical.search(query, nCand)) {
      if (chunks.has(id)) lexIds.push(id);
      if (lexIds.length >= nCand) break;
    }
  }
  const result = (hits: SearchHit[], gated: number): SearchResult => ({
    mode: hybrid ? 'hybrid' : 'lexical',
    hits,
    gate: g,
    gated,
    embedded,
    ms: Math.round((performance.now() - t0) * 100) / 100,
  });
  // texts are read from the shards only for the candidates looked at and the hits returned
  const hit = (reader: TextReader, id: number, score: number, rank: number, extra: Partial<SearchHit>): SearchHit | undefined => {
    const m = chunks.get(id);
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
    const reader = s.searchReader;
    // flexsearch (suggest) ranks by the number of query terms matched first, so once
    // candidates fail the gate the rest match no more terms: GATE_MISSES failures in a row
    // end the scan (measured: no later candidate matched more terms, 500 queries at 10k)
    let misses = 0;
    for (let i = 0; i < lexIds.length && hits.length < k && misses < GATE_MISSES; i++) {
      if (coverage(s, termRes, lexIds[i], reader) < LEXICAL_COVERAGE) {
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

  const [qv] = await embedder!.embed([query], 'query');
  // the index may have changed while the query was embedded: only live chunks from here
  for (let i = lexIds.length - 1; i >= 0; i--) if (!chunks.has(lexIds[i])) lexIds.splice(i, 1);
  const reader = s.searchReader;
  // dense ranking over every embedded chunk (brute force: 100k x 384 is ~40 ms)
  const top: { id: number; cos: number }[] = [];
  let floor = -Infinity;
  for (const [id, v] of vectors.entries()) {
    if (!chunks.has(id)) continue;
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
    const v = vectors.get(id);
    if (v && !cosine.has(id)) cosine.set(id, dot(qv, v));
  }
  const pass = (id: number) => {
    const cos = cosine.get(id);
    if (cos !== undefined) return cos >= g.threshold;
    // not embedded yet: the lexical gate decides until its vector exists
    return coverage(s, termRes, id, reader) >= LEXICAL_COVERAGE;
  };
  const lexRank = new Map(lexIds.map((id, i) => [id, i + 1]));
  const denseRank = new Map(top.map((t, i) => [t.id, i + 1]));
  const lexPass = lexIds.filter(pass);
  const densePass = top.map((t) => t.id).filter((id) => cosine.get(id)! >= g.threshold);
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
export async function calibrate(s: IndexState, inDomain: string[] = IN_DOMAIN_PROBES, offDomain: string[] = OFF_DOMAIN_PROBES): Promise<CalibrationResult> {
  const embedder = s.vectors.embedder;
  if (!embedder) throw new ControlError('Calibration needs an embedding model: set one, then calibrate.', 'unsupported');
  await s.vectors.whenDone();
  if (!s.vectors.size) throw new ControlError('Nothing is embedded yet: build the index first.', 'invalid');
  const best = async (qs: string[]) => {
    const vs = await embedder.embed(qs, 'query');
    return vs.map((q) => {
      let b = -1;
      for (const [, v] of s.vectors.entries()) b = Math.max(b, dot(q, v));
      return b;
    });
  };
  const r = calibrateThreshold(await best(inDomain), await best(offDomain), s.chunks.size);
  s.manifest.calibration = { ...s.manifest.calibration, [embedder.id]: r };
  s.writeManifest();
  return r;
}
