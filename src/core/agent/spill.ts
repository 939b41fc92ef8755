/**
 * Long tool results, spilled: a result whose message to the model would run over `SPILL_CHARS`
 * (a 1,000-sample step response, a 50×50 Riccati solution) is stored in full in a
 * content-addressed store, and the model reads an excerpt (each field's shape, small fields in
 * full, the first values, min and max of long ones, the verifier's verdict) with a pointer. Two
 * lookup tools then read what it needs: `read_result {id, path?, offset?, limit?}` (a slice) and
 * `grep_result {id, pattern}` (the entries a comparison or a regular expression picks out). They
 * compute nothing (no verifier: they return stored, verified numbers) and are not offered in the
 * fixed prefix: the excerpt names them, and the loop answers them directly or through
 * `use_tool` (node-llama-cpp's grammar only admits offered names), so the prefix, and the KV
 * cache built on it, never changes mid-turn.
 *
 * Where the store lives: the extension's global storage (`results/`), the CLI's cache
 * (`$XDG_CACHE_HOME/control/results`, `--results-dir`). An entry is the canonical JSON of the
 * full-precision result; its name is the first 16 hex digits of that text's SHA-256, so the same
 * result twice is one file, a read is checked against its name (a damaged entry is dropped,
 * never served), writes are atomic (temp + rename), and the store is bounded (least recently
 * used entries removed by mtime).
 *
 * The human-facing rendering never passes here: the user sees the full result as before.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { writeAtomic, TEMP_NAME } from '../retrieval/atomic.js';
import { encodeNonFinite } from '../tools/batch.js';
import type { EngineToolSpec, ToolCallRequest } from '../engines/types.js';
import { USE_TOOL } from './prompt.js';

/**
 * A tool message longer than this (characters) is spilled. Qwen3 writes each digit as a token,
 * so a numeric result costs about one token per character (measured: a 50×50 Lyapunov solution,
 * 7,185 characters compacted, is 7,080 tokens; test/unit/spill.test.ts). 1,500 characters is at
 * most about the fixed prefix's own budget (1,500 tokens, ~28 s of prefill at 54 tokens/s on 2
 * cores): a 2×2 LQR (about 330) or an `analyse` (about 650) reads in full, while a 1,000-sample
 * step response (about 16,000 at 6 digits) or a 50×50 matrix costs an excerpt of a few hundred.
 */
export const SPILL_CHARS = 1500;
/** read_result and grep_result calls per turn */
export const RESULT_READS_PER_TURN = 6;
/** a field whose rounded JSON is at most this long is shown in full in an excerpt */
const SMALL_FIELD = 120;
/** values a read returns at most (and never more characters than SPILL_CHARS) */
const READ_MAX = 200;
/** entries a grep lists at most */
const GREP_HITS = 20;

export const READ_RESULT = 'read_result';
export const GREP_RESULT = 'grep_result';

/** the two lookups as tool specs: not in the prefix (see above); the spill test measures what offering them would cost */
export const RESULT_TOOLS: readonly EngineToolSpec[] = [
  {
    name: READ_RESULT,
    description: 'Reads part of a stored result: a field path such as "y" or "K[3]", offset and limit on lists.',
    parameters: {
      type: 'object',
      properties: { id: { type: 'string' }, path: { type: 'string' }, offset: { type: 'integer' }, limit: { type: 'integer' } },
      required: ['id'],
    },
  },
  {
    name: GREP_RESULT,
    description: 'Finds entries of a stored result: a comparison such as "y > 0.98", or a regular expression over "path = value" lines.',
    parameters: { type: 'object', properties: { id: { type: 'string' }, pattern: { type: 'string' } }, required: ['id', 'pattern'] },
  },
];

// ------------------------------------------------------------------ the store

export interface ResultStore {
  /** stores the text under its content address and returns the id; throws when it cannot be written */
  put(json: string): string;
  /** the stored text, or undefined (unknown, evicted, or damaged) */
  get(id: string): string | undefined;
  list?(): string[];
  /** where it lives, for messages */
  readonly where: string;
}

const ID = /^r-[0-9a-f]{16}$/;

export const resultId = (json: string): string => `r-${createHash('sha256').update(json).digest('hex').slice(0, 16)}`;

/** keys sorted at every level, non-finite numbers as "Infinity"/"-Infinity"/"NaN": one text per result */
export function canonicalJson(v: unknown): string {
  const sort = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(sort);
    if (x && typeof x === 'object')
      return Object.fromEntries(
        Object.keys(x)
          .sort()
          .map((k) => [k, sort((x as Record<string, unknown>)[k])]),
      );
    return x;
  };
  return JSON.stringify(sort(encodeNonFinite(v)));
}

/** for tests and front ends without a disk: the same contract in memory */
export class MemoryResultStore implements ResultStore {
  readonly where = 'memory';
  private readonly entries = new Map<string, string>();
  constructor(private readonly maxBytes = 50e6) {}
  put(json: string): string {
    const id = resultId(json);
    this.entries.delete(id);
    this.entries.set(id, json);
    let total = 0;
    for (const v of this.entries.values()) total += v.length;
    // least recently used first (a Map keeps insertion order; get and put re-insert)
    for (const [k, v] of this.entries) {
      if (total <= this.maxBytes || k === id) break;
      this.entries.delete(k);
      total -= v.length;
    }
    return id;
  }
  get(id: string): string | undefined {
    const v = this.entries.get(id);
    if (v !== undefined) {
      this.entries.delete(id);
      this.entries.set(id, v);
    }
    return v;
  }
  list(): string[] {
    return [...this.entries.keys()];
  }
}

/**
 * A folder of `r-<16 hex>.json` files. Written atomically (temp + rename: a reader sees a whole
 * entry or none); each read re-hashes the text and drops an entry that does not match its name;
 * past `maxBytes` the least recently used entries (oldest mtime; a read touches it) are removed,
 * with temp files a killed writer left behind.
 */
export class DirectoryResultStore implements ResultStore {
  constructor(
    readonly where: string,
    private readonly maxBytes = 50e6,
  ) {}
  put(json: string): string {
    const id = resultId(json);
    if (json.length > this.maxBytes) throw new Error(`the result (${json.length} bytes) is larger than the store's bound of ${this.maxBytes} bytes`);
    const file = join(this.where, `${id}.json`);
    try {
      // the same content is already there (whole: a damaged copy is written again): mark it used
      if (readFileSync(file, 'utf8') === json) {
        const now = new Date();
        utimesSync(file, now, now);
        return id;
      }
    } catch {
      /* not stored yet */
    }
    mkdirSync(this.where, { recursive: true });
    writeAtomic(file, json);
    this.evict(id);
    return id;
  }
  get(id: string): string | undefined {
    if (!ID.test(id)) return undefined;
    const file = join(this.where, `${id}.json`);
    let json: string;
    try {
      json = readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
    if (resultId(json) !== id) {
      // damaged (a disk error, a hand edit): never served
      try {
        unlinkSync(file);
      } catch {}
      return undefined;
    }
    try {
      const now = new Date();
      utimesSync(file, now, now);
    } catch {}
    return json;
  }
  list(): string[] {
    try {
      return readdirSync(this.where)
        .filter((f) => /^r-[0-9a-f]{16}\.json$/.test(f))
        .map((f) => f.slice(0, -5));
    } catch {
      return [];
    }
  }
  private evict(keep: string): void {
    let names: string[];
    try {
      names = readdirSync(this.where);
    } catch {
      return;
    }
    const entries: { file: string; size: number; mtime: number }[] = [];
    let total = 0;
    const stale = Date.now() - 3600e3;
    for (const n of names) {
      const file = join(this.where, n);
      try {
        const s = statSync(file);
        if (TEMP_NAME.test(n)) {
          if (s.mtimeMs < stale) unlinkSync(file);
          continue;
        }
        if (!/^r-[0-9a-f]{16}\.json$/.test(n)) continue;
        total += s.size;
        if (n !== `${keep}.json`) entries.push({ file, size: s.size, mtime: s.mtimeMs });
      } catch {}
    }
    entries.sort((a, b) => a.mtime - b.mtime);
    for (const e of entries) {
      if (total <= this.maxBytes) break;
      try {
        unlinkSync(e.file);
        total -= e.size;
      } catch {}
    }
  }
}

// ------------------------------------------------------------------ what the model reads

/** the loop's rounding: `compact(v, 1)` rounds to 6 significant figures without cutting lists */
export type Compact = (v: unknown, depth?: number) => unknown;

function shapeOf(v: unknown[]): number[] {
  const shape = [v.length];
  let x: unknown = v[0];
  while (Array.isArray(x) && v.every((r) => Array.isArray(r))) {
    shape.push(x.length);
    x = x[0];
  }
  return shape;
}

function leaves(v: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(v)) for (const x of v) leaves(x, out);
  else out.push(v);
  return out;
}

/** a field as an excerpt shows it: in full when small, else its shape, first values, last, min and max */
function summarise(v: unknown, compact: Compact, top: boolean): unknown {
  const full = compact(v, 1);
  if (JSON.stringify(full).length <= SMALL_FIELD) return full;
  if (typeof v === 'string') return v.slice(0, SMALL_FIELD - 1) + '…';
  if (Array.isArray(v)) {
    const all = leaves(v);
    const nums = all.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
    const o: Record<string, unknown> = { shape: shapeOf(v), first: compact(all.slice(0, 4), 1), last: compact(all.at(-1), 1) };
    if (nums.length) {
      let lo = Infinity;
      let hi = -Infinity;
      for (const x of nums) {
        if (x < lo) lo = x;
        if (x > hi) hi = x;
      }
      o.min = compact(lo, 1);
      o.max = compact(hi, 1);
    }
    return o;
  }
  if (v && typeof v === 'object') {
    if (!top) return { fields: Object.keys(v) };
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, summarise(x, compact, false)]));
  }
  return full;
}

const HOW_READ = 'use_tool read_result {id, path?, offset?, limit?}';
const HOW_GREP = 'use_tool grep_result {id, pattern}: "y > 0.98", or a regex over "path = value" lines';

/**
 * The tool message for a result: in full (rounded, nothing cut) when it fits `limit`, else the
 * result is stored and the message is its excerpt with the pointer. A store that cannot be
 * written leaves the compacted inline result (long lists cut to their ends) with a note; `note`
 * is then, or when a result was stored, what the turn says about it.
 */
export function spillResult(
  store: ResultStore,
  tool: string,
  result: Record<string, unknown>,
  verification: string,
  compact: Compact,
  limit = SPILL_CHARS,
): { content: string; stored?: string; note?: string } {
  const inline = JSON.stringify({ tool, result: compact(result, 1), verification });
  if (inline.length <= limit) return { content: inline };
  const json = canonicalJson(result);
  let id: string;
  try {
    id = store.put(json);
  } catch (e) {
    const why = (e as Error).message;
    return {
      content: JSON.stringify({
        tool,
        result: compact(result),
        verification,
        note: 'long lists are cut to their ends: the full result could not be stored',
      }),
      note: `The full ${tool} result could not be stored (${why}); the model read it with long lists cut.`,
    };
  }
  const base = { tool, stored: id, size: json.length };
  const tail = { verification, read: HOW_READ, grep: HOW_GREP };
  let fields = summarise(result, compact, true) as Record<string, unknown>;
  let content = JSON.stringify({ ...base, fields, ...tail });
  // many long fields: their shapes only, then only their names
  if (content.length > limit) {
    fields = Object.fromEntries(
      Object.entries(fields).map(([k, x]) => [k, x && typeof x === 'object' && 'shape' in x ? { shape: (x as { shape: unknown }).shape } : x]),
    );
    content = JSON.stringify({ ...base, fields, ...tail });
  }
  if (content.length > limit) content = JSON.stringify({ ...base, fields: Object.keys(result), ...tail });
  return { content, stored: id, note: `The full ${tool} result (${json.length} characters) is stored as ${id}; the model reads an excerpt.` };
}

// ------------------------------------------------------------------ read_result, grep_result

/** a call of read_result or grep_result, directly or through use_tool */
export function isResultLookup(call: ToolCallRequest): boolean {
  const inner = call.name === USE_TOOL && typeof call.arguments === 'object' ? call.arguments.name : call.name;
  return inner === READ_RESULT || inner === GREP_RESULT;
}

class LookupError extends Error {}

type Step = string | number;

function parsePath(path: string): Step[] {
  const m = /^([A-Za-z_]\w*)((?:\.[A-Za-z_]\w*|\[\d+\])*)$/.exec(path.replace(/\s+/g, ''));
  if (!m) throw new LookupError(`the path "${path}" is not a field path (write it as y, K[3], closedLoop.A[1][0])`);
  const steps: Step[] = [m[1]!];
  for (const t of m[2]!.matchAll(/\.([A-Za-z_]\w*)|\[(\d+)\]/g)) steps.push(t[1] ?? Number(t[2]));
  return steps;
}

/** a path as the model may write it, "result.y" for "y" */
function pathIn(doc: unknown, path: string): Step[] {
  const steps = parsePath(path);
  return steps[0] === 'result' && steps.length > 1 && doc && typeof doc === 'object' && !('result' in doc) ? steps.slice(1) : steps;
}

const pathText = (steps: Step[]) => steps.map((s, i) => (typeof s === 'number' ? `[${s}]` : i ? `.${s}` : s)).join('');

function resolve(doc: unknown, steps: Step[]): unknown {
  let v = doc;
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]!;
    const here = pathText(steps.slice(0, i)) || 'the result';
    if (typeof s === 'number') {
      if (!Array.isArray(v)) throw new LookupError(`${here} is not a list, so ${pathText(steps.slice(0, i + 1))} does not exist`);
      if (s >= v.length) throw new LookupError(`${here} has ${v.length} entries (0 to ${v.length - 1}); ${s} is out of range`);
      v = v[s];
    } else {
      if (!v || typeof v !== 'object' || Array.isArray(v) || !(s in v))
        throw new LookupError(
          `${here} has no field "${s}"${v && typeof v === 'object' && !Array.isArray(v) ? `; its fields are ${Object.keys(v).join(', ')}` : ''}`,
        );
      v = (v as Record<string, unknown>)[s];
    }
  }
  return v;
}

function lines(v: unknown, path: string, out: [string, unknown][]): void {
  if (Array.isArray(v)) v.forEach((x, k) => lines(x, `${path}[${k}]`, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) lines(x, path ? `${path}.${k}` : k, out);
  else out.push([path, v]);
}

const intArg = (v: unknown, name: string, min: number): number | undefined => {
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min) throw new LookupError(`${name} must be a whole number ≥ ${min}`);
  return n;
};

function readResult(id: string, doc: unknown, args: Record<string, unknown>, compact: Compact): Record<string, unknown> {
  const path = typeof args.path === 'string' ? args.path.trim() : '';
  const steps = path ? pathIn(doc, path) : [];
  const v = resolve(doc, steps);
  const offset = intArg(args.offset, 'offset', 0) ?? 0;
  const limit = intArg(args.limit, 'limit', 1);
  const where = pathText(steps) || undefined;
  if (!Array.isArray(v)) {
    if ((offset > 0 || limit !== undefined) && (!v || typeof v !== 'object'))
      throw new LookupError(`${where} is a single value; offset and limit apply to lists`);
    const whole = compact(v, 1);
    if (JSON.stringify(whole).length <= SPILL_CHARS) return { id, path: where, value: whole };
    return { id, path: where, fields: summarise(v, compact, true), note: 'read one field with path' };
  }
  if (offset >= v.length && v.length > 0) throw new LookupError(`${where} has ${v.length} entries (0 to ${v.length - 1}); offset ${offset} is past its end`);
  let n = Math.min(limit ?? READ_MAX, READ_MAX, v.length - offset);
  const out = (k: number) => ({ id, path: where, length: v.length, offset, values: compact(v.slice(offset, offset + k), 1) });
  // never more than a spilled message's worth of text
  while (n > 1 && JSON.stringify(out(n)).length > SPILL_CHARS) n = Math.max(1, Math.floor(n * 0.75));
  const r: Record<string, unknown> = out(n);
  if (offset + n < v.length) r.next = offset + n;
  if (JSON.stringify(r).length > SPILL_CHARS)
    throw new LookupError(`one entry of ${where} is longer than a read returns; read a path inside it, e.g. ${where}[${offset}][0]`);
  return r;
}

const COMPARE = /^\s*([A-Za-z_][\w.\[\]\s]*?)?\s*(<=|>=|==|!=|<|>|=)\s*(-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*$/;

function grepResult(id: string, doc: unknown, pattern: string, compact: Compact): Record<string, unknown> {
  const all: [string, unknown][] = [];
  lines(doc, '', all);
  let pick: (path: string, v: unknown) => boolean;
  const cmp = COMPARE.exec(pattern);
  if (cmp) {
    const prefix = cmp[1] ? pathText(pathIn(doc, cmp[1])) : '';
    const x = Number(cmp[3]);
    const op = cmp[2]!;
    const test = (v: number) => (op === '>' ? v > x : op === '>=' ? v >= x : op === '<' ? v < x : op === '<=' ? v <= x : op === '!=' ? v !== x : v === x);
    const under = (p: string) => !prefix || p === prefix || p.startsWith(prefix + '[') || p.startsWith(prefix + '.');
    if (prefix && !all.some(([p]) => under(p))) resolve(doc, pathIn(doc, prefix)); // says which fields there are
    pick = (p, v) => under(p) && typeof v === 'number' && test(v);
  } else {
    // a quantified group holding a quantifier can take exponential time on a line: refused
    if (pattern.length > 200 || /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)\s*[+*{]/.test(pattern))
      throw new LookupError('the pattern is too long or nests repetitions; use a comparison such as "y > 0.98" or a simpler expression');
    let re: RegExp;
    try {
      re = new RegExp(pattern, 'i');
    } catch (e) {
      throw new LookupError(`"${pattern}" is not a regular expression (${(e as Error).message}); or write a comparison such as "y > 0.98"`);
    }
    pick = (p, v) => re.test(`${p} = ${typeof v === 'number' ? String(compact(v, 1)) : String(v)}`);
  }
  const hits: string[] = [];
  let count = 0;
  for (const [p, v] of all)
    if (pick(p, v)) {
      count++;
      if (hits.length < GREP_HITS) hits.push(`${p} = ${typeof v === 'number' ? String(compact(v, 1)) : JSON.stringify(v)}`);
    }
  return { id, pattern, matches: count, hits, ...(count > hits.length ? { note: `the first ${hits.length} of ${count}, in order` } : {}) };
}

/**
 * Answers a read_result or grep_result call: the message content for the model and a line for
 * the turn's thinking. Every failure (no store, unknown or evicted id, bad path, bad pattern) is
 * an error the model reads, never a throw.
 */
export function lookupResult(
  store: ResultStore | undefined,
  tool: string,
  args: Record<string, unknown>,
  compact: Compact,
): { content: string; note?: string } {
  const fail = (error: string) => ({ content: JSON.stringify({ error }) });
  const id = typeof args.id === 'string' ? args.id.trim() : '';
  if (!store) return fail(`${tool} reads results too long to show in full, and none is stored here: there is no result store; use the results shown`);
  if (!ID.test(id)) return fail(`${tool} needs the id of a stored result (the "stored" field of a tool result, like r-0123456789abcdef)`);
  const json = store.get(id);
  if (json === undefined) return fail(`no stored result ${id} (not stored here, or removed to bound the store's size); call the tool again`);
  try {
    const doc = JSON.parse(json) as unknown;
    if (tool === GREP_RESULT) {
      if (typeof args.pattern !== 'string' || !args.pattern.trim()) return fail('grep_result needs a pattern: "y > 0.98", or a regular expression');
      const r = grepResult(id, doc, args.pattern, compact);
      return { content: JSON.stringify(r), note: `Searched stored result ${id} for "${args.pattern}": ${r.matches} entries.` };
    }
    const r = readResult(id, doc, args, compact);
    const span = Array.isArray(r.values) ? `[${r.offset}..${Number(r.offset) + r.values.length - 1}]` : '';
    return { content: JSON.stringify(r), note: `Read ${r.path ?? 'the fields'}${span} of stored result ${id}.` };
  } catch (e) {
    if (e instanceof LookupError) return fail(e.message);
    return fail(`${tool} failed on ${id}: ${(e as Error).message}`);
  }
}
