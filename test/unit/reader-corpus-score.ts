/**
 * Scoring helpers for the request-reader corpus (test/fixtures/requests/): loading the corpus,
 * comparing read arguments with expected ones, and comparing a call's result with the
 * reference values of expected.json (written by expected.py with NumPy/SciPy). Nothing here
 * uses the product's solvers: the few checks that evaluate something (a step response of a
 * reference realisation, a rational function at jw, the transfer function of returned
 * matrices) are computed here from scratch.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORPUS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'requests');

export type Expect = { tool: string | string[]; args: Record<string, unknown> } | { define: true } | { ask: true } | { model: true };

export interface Request {
  id: string;
  category: string;
  text: string;
  command?: string;
  selection?: string;
  expect: Expect;
}

export interface Turn {
  text: string;
  command?: string;
  selection?: string;
  expect: Expect;
}

export interface ConversationCase {
  id: string;
  category: string;
  turns: Turn[];
}

export interface ExpectedEntry {
  tool: string | string[];
  values: Record<string, unknown>;
}

function readJsonl<T>(name: string): T[] {
  return readFileSync(join(CORPUS_DIR, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

/** one set of requests and conversations (the corpus, or the held-out set) */
export interface RequestSet {
  requests: Request[];
  conversations: ConversationCase[];
}

/**
 * The corpus (requests.jsonl, conversations.jsonl), the held-out set (holdout.jsonl,
 * holdout-conversations.jsonl: written independently of the reader and the corpus, ids
 * prefixed "ho-"), the second held-out set (holdout2.jsonl, holdout2-conversations.jsonl:
 * another author and voice, ids prefixed "h2-"), the third held-out set (holdout3.jsonl,
 * holdout3-conversations.jsonl: yet other voices, ids prefixed "h3-") and the reference values of
 * all (expected.json).
 */
export function loadCorpus(): RequestSet & {
  holdout: RequestSet;
  holdout2: RequestSet;
  holdout3: RequestSet;
  expected: Record<string, ExpectedEntry>;
} {
  return {
    requests: readJsonl<Request>('requests.jsonl'),
    conversations: readJsonl<ConversationCase>('conversations.jsonl'),
    holdout: {
      requests: readJsonl<Request>('holdout.jsonl'),
      conversations: readJsonl<ConversationCase>('holdout-conversations.jsonl'),
    },
    holdout2: {
      requests: readJsonl<Request>('holdout2.jsonl'),
      conversations: readJsonl<ConversationCase>('holdout2-conversations.jsonl'),
    },
    holdout3: {
      requests: readJsonl<Request>('holdout3.jsonl'),
      conversations: readJsonl<ConversationCase>('holdout3-conversations.jsonl'),
    },
    expected: JSON.parse(readFileSync(join(CORPUS_DIR, 'expected.json'), 'utf8')) as Record<string, ExpectedEntry>,
  };
}

export const isCall = (e: Expect): e is { tool: string | string[]; args: Record<string, unknown> } => 'tool' in e;
export const isDefine = (e: Expect): boolean => 'define' in e;
export const isAskOrModel = (e: Expect): boolean => 'ask' in e || 'model' in e;
export const acceptedTools = (e: { tool: string | string[] }): string[] => (Array.isArray(e.tool) ? e.tool : [e.tool]);

// ----------------------------------------------------------------------------- numbers

/** "Infinity", "-Infinity", "NaN" (JSON) -> numbers */
export function toNum(x: unknown): number | undefined {
  if (typeof x === 'number') return x;
  if (x === 'Infinity' || x === 'inf') return Infinity;
  if (x === '-Infinity' || x === '-inf') return -Infinity;
  if (x === 'NaN' || x === 'nan') return NaN;
  return undefined;
}

function close(a: number, b: number, rel: number, abs: number): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return a === b;
  return Math.abs(a - b) <= Math.max(abs, rel * Math.max(Math.abs(a), Math.abs(b)));
}

/** arguments: 1e-9 relative, 1e-12 absolute */
export const argClose = (a: number, b: number) => close(a, b, 1e-9, 1e-12);
/** results: 1e-6 relative, 1e-9 absolute */
export const valClose = (a: number, b: number) => close(a, b, 1e-6, 1e-9);

// ----------------------------------------------------------------------------- arguments

const VECTOR_ARGS = new Set(['num', 'den', 'w', 't', 'k', 'x0', 'elim']);

function flatNumbers(v: unknown): number[] | undefined {
  if (typeof v === 'number') return [v];
  if (!Array.isArray(v)) return undefined;
  const out: number[] = [];
  for (const x of v) {
    if (typeof x === 'number') out.push(x);
    else if (Array.isArray(x)) {
      const inner = flatNumbers(x);
      if (!inner) return undefined;
      out.push(...inner);
    } else return undefined;
  }
  return out;
}

/** a vector parameter: its row or column form, or a scalar, as a flat list */
function asVector(v: unknown): number[] | undefined {
  if (typeof v === 'number') return [v];
  if (!Array.isArray(v)) return undefined;
  if (v.every((x) => typeof x === 'number')) return v as number[];
  if (v.every((x) => Array.isArray(x))) {
    const rows = v as unknown[][];
    if (rows.length === 1 || rows.every((r) => r.length === 1)) return flatNumbers(rows);
  }
  return undefined;
}

/** a matrix parameter, exactly: a scalar is [[x]], a flat list a row; nothing else is reshaped */
function asMatrix(v: unknown): number[][] | undefined {
  if (typeof v === 'number') return [[v]];
  if (!Array.isArray(v)) return undefined;
  if (v.every((x) => typeof x === 'number')) return [v as number[]];
  if (v.every((x) => Array.isArray(x) && x.every((y) => typeof y === 'number'))) return v as number[][];
  return undefined;
}

/** a list of complex numbers: plain reals become [x, 0] */
export function asComplexList(v: unknown): [number, number][] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: [number, number][] = [];
  for (const x of v) {
    if (typeof x === 'number') out.push([x, 0]);
    else if (Array.isArray(x) && x.length === 2 && x.every((y) => toNum(y) !== undefined)) out.push([toNum(x[0])!, toNum(x[1])!]);
    else return undefined;
  }
  return out;
}

/** multiset equality of complex lists (greedy nearest match), order ignored */
export function complexSetsEqual(a: [number, number][], b: [number, number][], eq: (x: number, y: number) => boolean): boolean {
  if (a.length !== b.length) return false;
  const used = new Array(b.length).fill(false);
  for (const [re, im] of a) {
    let best = -1;
    let bestD = Infinity;
    b.forEach(([r2, i2], j) => {
      if (used[j]) return;
      const d = Math.hypot(re - r2, im - i2);
      if (d < bestD || (best < 0 && Number.isNaN(d))) {
        bestD = d;
        best = j;
      }
    });
    if (best < 0 || !eq(re, b[best][0]) || !eq(im, b[best][1])) return false;
    used[best] = true;
  }
  return true;
}

/** does the read argument equal the expected one (the conventions of README.md) */
export function argEqual(name: string, expected: unknown, read: unknown): boolean {
  // connect's signal names are case-sensitive; spaces in a sum ('e = r-y') are not; nor in expressions (equations, barrier, u_nom)
  if (
    (name === 'sums' || /^(?:inputName|outputName|inputs|outputs|equations|barrier|u_nom)$/.test(name)) &&
    (Array.isArray(expected) || typeof expected === 'string')
  ) {
    const norm = (v: unknown) =>
      (typeof v === 'string' ? [v] : Array.isArray(v) ? v : [undefined]).map((x) => (typeof x === 'string' ? x.replace(/\s+/g, '') : x));
    const a = norm(expected),
      b = norm(read);
    return a.length === b.length && a.every((x, i) => x === b[i]);
  }
  if (typeof expected === 'string') return typeof read === 'string' && read.toLowerCase() === expected.toLowerCase();
  if (typeof expected === 'boolean') return read === expected;
  // a list with null entries (mpc's bounds: null is no bound on that component), entry by entry
  if (Array.isArray(expected) && expected.some((x) => x === null))
    return (
      Array.isArray(read) &&
      read.length === expected.length &&
      expected.every((x, i) => (x === null ? read[i] === null : typeof read[i] === 'number' && argClose(x as number, read[i] as number)))
    );
  // a system argument (feedback's sys1/sys2, an element of append's systems): {num, den} or {A, B, C, D}, or a
  // number (a static gain); every expected field equal, any other read field only a stated zero (Ts 0, D 0)
  if (expected && typeof expected === 'object' && !Array.isArray(expected)) {
    if (!read || typeof read !== 'object' || Array.isArray(read)) return false;
    const e = expected as Record<string, unknown>;
    const g = read as Record<string, unknown>;
    const zero = (v: unknown) => (flatNumbers(v) ?? [1]).every((x) => x === 0);
    return (
      Object.entries(e).every(([k, v]) => k in g && argEqual(k, v, g[k])) && Object.keys(g).every((k) => k in e || ((k === 'Ts' || k === 'D') && zero(g[k])))
    );
  }
  if (name === 'systems' && Array.isArray(expected))
    return Array.isArray(read) && read.length === expected.length && expected.every((x, i) => argEqual('system', x, read[i]));
  // connect: blocks (each {sys, inputName, outputName, name}) in order
  if (name === 'blocks' && Array.isArray(expected))
    return Array.isArray(read) && read.length === expected.length && expected.every((x, i) => argEqual('block', x, read[i]));
  // lsim's u: samples of one input as a row or a column
  if (name === 'u' && Array.isArray(expected) && expected.every((x) => typeof x === 'number')) {
    const b = asVector(read);
    return !!b && b.length === expected.length && expected.every((x, i) => argClose(x as number, b[i]));
  }
  if (name === 'poles') {
    const a = asComplexList(expected);
    const b = asComplexList(
      Array.isArray(read) && read.length && Array.isArray(read[0]) && (read as unknown[][]).every((r) => r.length === 1) ? flatNumbers(read) : read,
    );
    return !!a && !!b && complexSetsEqual(a, b, argClose);
  }
  // a MIMO transfer function's num/den: p x m coefficient lists, compared entry by entry in their shape
  const nested3 = (v: unknown) => Array.isArray(v) && v.length > 0 && v.every((r) => Array.isArray(r) && r.every((e) => Array.isArray(e)));
  if ((name === 'num' || name === 'den') && (nested3(expected) || nested3(read))) {
    const e = expected as number[][][],
      g = read as number[][][];
    return (
      nested3(expected) &&
      nested3(read) &&
      e.length === g.length &&
      e.every((row, i) => row.length === g[i].length && row.every((x, j) => x.length === g[i][j].length && x.every((c, k) => argClose(c, g[i][j][k]))))
    );
  }
  if (VECTOR_ARGS.has(name)) {
    const a = asVector(expected);
    const b = asVector(read);
    return !!a && !!b && a.length === b.length && a.every((x, i) => argClose(x, b[i]));
  }
  if (typeof expected === 'number' && typeof read === 'number') return argClose(expected, read);
  const a = asMatrix(expected);
  const b = asMatrix(read);
  if (!a || !b || a.length !== b.length) return false;
  return a.every((row, i) => row.length === b[i].length && row.every((x, j) => argClose(x, b[i][j])));
}

// ----------------------------------------------------------------------------- small dense helpers (no product code)

type M = number[][];
const zeros = (r: number, c: number): M => Array.from({ length: r }, () => new Array(c).fill(0));
const eye = (n: number): M => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
function mul(a: M, b: M): M {
  const out = zeros(a.length, b[0]?.length ?? 0);
  for (let i = 0; i < a.length; i++)
    for (let k = 0; k < b.length; k++) {
      const x = a[i][k];
      if (x !== 0) for (let j = 0; j < b[0].length; j++) out[i][j] += x * b[k][j];
    }
  return out;
}
const add = (a: M, b: M, s = 1): M => a.map((r, i) => r.map((x, j) => x + s * b[i][j]));
const scale = (a: M, s: number): M => a.map((r) => r.map((x) => x * s));
const norm1 = (a: M): number => Math.max(0, ...a[0].map((_, j) => a.reduce((s, r) => s + Math.abs(r[j]), 0)));
const trace = (a: M): number => a.reduce((s, r, i) => s + r[i], 0);

/** e^A by scaling and squaring with a Taylor series (double accuracy for the small matrices here) */
export function expm(a: M): M {
  const n = a.length;
  if (!n) return [];
  const nrm = norm1(a);
  const s = nrm > 0.5 ? Math.ceil(Math.log2(nrm / 0.5)) : 0;
  const as = scale(a, 2 ** -s);
  let term = eye(n);
  let sum = eye(n);
  for (let k = 1; k <= 20; k++) {
    term = scale(mul(term, as), 1 / k);
    sum = add(sum, term);
  }
  for (let i = 0; i < s; i++) sum = mul(sum, sum);
  return sum;
}

/** the characteristic polynomial and adjugate coefficients (Faddeev-LeVerrier): SISO C(zI-A)^-1 B + D as num/den */
export function ssToTf(A: M, B: M, C: M, D: M): { num: number[]; den: number[] } {
  const n = A.length;
  const den = [1];
  let Mk = eye(n); // M_1 = I
  const adj: M[] = [];
  for (let k = 1; k <= n; k++) {
    adj.push(Mk);
    const AM = mul(A, Mk);
    const c = -trace(AM) / k;
    den.push(c);
    Mk = add(AM, scale(eye(n), c));
  }
  // adj(zI - A) = sum_{k=1..n} M_k z^(n-k);  num = C adj B + D den
  const num = new Array(n + 1).fill(0);
  for (let k = 1; k <= n; k++) num[k] = mul(mul(C, adj[k - 1]), B)[0][0];
  const d = D[0]?.[0] ?? 0;
  return { num: num.map((x, i) => x + d * den[i]), den };
}

function polyval(p: number[], re: number, im: number): [number, number] {
  let r = 0;
  let i = 0;
  for (const c of p) {
    const nr = r * re - i * im + c;
    i = r * im + i * re;
    r = nr;
  }
  return [r, i];
}

function cdiv([a, b]: [number, number], [c, d]: [number, number]): [number, number] {
  const q = c * c + d * d;
  return [(a * c + b * d) / q, (b * c - a * d) / q];
}

/** a standard input signal at the times t (MATLAB gensig's sine; step and ramp), as the corpus states it */
function signalAt(s: { signal: string; amplitude?: number; period?: number; delay?: number }, t: number[]): number[] {
  const a = s.amplitude ?? 1;
  const d = s.delay ?? 0;
  return t.map((tk) => {
    if (tk < d) return 0;
    if (s.signal === 'step') return a;
    if (s.signal === 'ramp') return a * (tk - d);
    if (s.signal === 'sine' || s.signal === 'sin') return a * Math.sin((2 * Math.PI * (tk - d)) / s.period!);
    throw new Error(`signal ${s.signal}`);
  });
}

/**
 * lsim of a SISO continuous reference realisation on the grid t (uniform), exact for the input held (zoh)
 * or linear (foh) between samples: per step x+ = Φx + F1·u_k (+ F2·(u_k+1 − u_k) for foh), Φ, F1, F2 from
 * one exponential of [[A h, B h, 0], [0, 0, 1], [0, 0, 0]] (F1 = ∫e^{As}B ds, F2 = ∫e^{As}B (h − s)/h ds)
 */
function simulateHeld(ref: { A: M; B: M; C: M; D: M; interp: string }, t: number[], u: number[]): number[] {
  const { A, B, C, D } = ref;
  const n = A.length;
  const d = D[0]?.[0] ?? 0;
  if (!n) return u.map((x) => d * x);
  const h = t.length > 1 ? t[1] - t[0] : 0;
  const aug = zeros(n + 2, n + 2);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) aug[i][j] = A[i][j] * h;
    aug[i][n] = B[i][0] * h;
  }
  aug[n][n + 1] = 1;
  const E = expm(aug);
  const Phi = E.slice(0, n).map((r) => r.slice(0, n));
  const F1 = E.slice(0, n).map((r) => [r[n]]);
  const F2 = E.slice(0, n).map((r) => [r[n + 1]]);
  let x = zeros(n, 1);
  const y: number[] = [];
  for (let k = 0; k < t.length; k++) {
    y.push(mul(C, x)[0][0] + d * u[k]);
    if (k + 1 < t.length) {
      x = add(mul(Phi, x), scale(F1, u[k]));
      if (ref.interp === 'foh') x = add(x, scale(F2, u[k + 1] - u[k]));
    }
  }
  return y;
}

/** step, impulse or lsim response, or the free response from x0 (initial), of a reference realisation at the times t */
export function referenceResponse(
  ref: { kind: string; A: M; B: M; C: M; D: M; Ts?: number; x0?: number[]; interp?: string; input?: { signal: string } },
  t: number[],
): number[] {
  if (ref.kind === 'initial')
    return t.map(
      (tk) =>
        mul(
          mul(ref.C, expm(scale(ref.A, tk))),
          ref.x0!.map((v) => [v]),
        )[0][0],
    );
  if (ref.kind === 'lsim') return simulateHeld(ref as never, t, signalAt(ref.input!, t));
  const { A, B, C, D } = ref;
  const n = A.length;
  const d = D[0]?.[0] ?? 0;
  if (ref.Ts) {
    return t.map((tk) => {
      const k = Math.round(tk / ref.Ts!);
      if (ref.kind === 'impulse') {
        if (k === 0) return d;
        let x = B;
        for (let i = 1; i < k; i++) x = mul(A, x);
        return n ? mul(C, x)[0][0] : 0;
      }
      let x = zeros(n, 1);
      for (let i = 0; i < k; i++) x = add(mul(A, x), B);
      return (n ? mul(C, x)[0][0] : 0) + d;
    });
  }
  return t.map((tk) => {
    if (!n) return ref.kind === 'impulse' ? 0 : d;
    if (ref.kind === 'impulse') return mul(mul(C, expm(scale(A, tk))), B)[0][0];
    const aug = zeros(n + 1, n + 1);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) aug[i][j] = A[i][j] * tk;
      aug[i][n] = B[i][0] * tk;
    }
    const E = expm(aug);
    const gamma = E.slice(0, n).map((r) => [r[n]]);
    return mul(C, gamma)[0][0] + d;
  });
}

/** H at the frequencies w from the exact rational function */
export function referenceFreq(ref: { num: unknown[]; den: unknown[]; Ts?: number }, w: number[]): ([number, number] | undefined)[] {
  const num = ref.num.map((x) => toNum(x)!);
  const den = ref.den.map((x) => toNum(x)!);
  const scaleDen = Math.max(...den.map(Math.abs));
  return w.map((wk) => {
    const [re, im] = ref.Ts ? [Math.cos(wk * ref.Ts), Math.sin(wk * ref.Ts)] : [0, wk];
    const dv = polyval(den, re, im);
    // samples right at a pole (a Nyquist detour) are not compared
    if (Math.hypot(dv[0], dv[1]) <= 1e-7 * scaleDen * Math.max(1, Math.hypot(re, im) ** (den.length - 1))) return undefined;
    return cdiv(polyval(num, re, im), dv);
  });
}

// ----------------------------------------------------------------------------- values

const COMPLEX_SETS = new Set(['eigenvalues', 'poles', 'zeros', 'open_loop_poles', 'open_loop_zeros']);

/** C(sI − A)⁻¹B + D at one complex point, by complex Gaussian elimination with partial pivoting (n = 0: D) */
function transferAt(A: M, B: M, C: M, D: M, [sr, si]: [number, number]): [number, number][][] {
  const n = A.length;
  const m = D[0]?.length ?? 0;
  // [sI − A | B] as complex rows
  const rows = A.map((r, i) => [
    ...r.map((a, j): [number, number] => [(i === j ? sr : 0) - a, i === j ? si : 0]),
    ...B[i].map((b): [number, number] => [b, 0]),
  ]);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.hypot(...rows[r][c]) > Math.hypot(...rows[piv][c])) piv = r;
    [rows[c], rows[piv]] = [rows[piv], rows[c]];
    const [pr, pi] = rows[c][c];
    const d = pr * pr + pi * pi;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const [ar, ai] = rows[r][c];
      const f: [number, number] = [(ar * pr + ai * pi) / d, (ai * pr - ar * pi) / d];
      for (let k = c; k < n + m; k++) {
        const [xr, xi] = rows[c][k];
        rows[r][k] = [rows[r][k][0] - (f[0] * xr - f[1] * xi), rows[r][k][1] - (f[0] * xi + f[1] * xr)];
      }
    }
  }
  // X = (sI − A)⁻¹B, row by row
  const X = rows.map((r, i) => {
    const [pr, pi] = r[i];
    const d = pr * pr + pi * pi;
    return r.slice(n).map(([xr, xi]): [number, number] => [(xr * pr + xi * pi) / d, (xi * pr - xr * pi) / d]);
  });
  return D.map((drow, i) =>
    drow.map((dij, j) => {
      let re = dij,
        im = 0;
      for (let k = 0; k < n; k++) {
        re += C[i][k] * X[k][j][0];
        im += C[i][k] * X[k][j][1];
      }
      return [re, im] as [number, number];
    }),
  );
}

function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const p of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

function deepClose(exp: unknown, got: unknown): boolean {
  const en = toNum(exp);
  if (en !== undefined) {
    const gn = toNum(got);
    if (gn === undefined && Array.isArray(got)) {
      // a 1x1 matrix or one-element list for a scalar
      const f = flatNumbers(got);
      return !!f && f.length === 1 && valClose(en, f[0]);
    }
    return gn !== undefined && valClose(en, gn);
  }
  if (typeof exp === 'boolean' || typeof exp === 'string') return exp === got;
  if (Array.isArray(exp)) {
    if (!Array.isArray(got) || got.length !== exp.length) return false;
    return exp.every((x, i) => deepClose(x, got[i]));
  }
  if (exp && typeof exp === 'object') {
    if (!got || typeof got !== 'object') return false;
    return Object.entries(exp).every(([k, v]) => deepClose(v, (got as Record<string, unknown>)[k]));
  }
  return false;
}

/**
 * Compares one executed call (its arguments and result) with the reference values.
 * Returns the list of mismatches (empty = all numbers agree).
 */
export function compareValues(values: Record<string, unknown>, callArgs: Record<string, unknown>, result: Record<string, unknown>): string[] {
  const bad: string[] = [];
  for (const [key, exp] of Object.entries(values)) {
    if (key === 'tf(Ad,Bd,Cd,Dd)' || key === 'tf(A,B,C,D)') {
      const names = key === 'tf(A,B,C,D)' ? ['A', 'B', 'C', 'D'] : ['Ad', 'Bd', 'Cd', 'Dd'];
      const mats = names.map((k) => asMatrix(result[k]));
      if (mats.some((m) => !m)) {
        bad.push(`${key}: result has no ${names.join(', ')}`);
        continue;
      }
      const got = ssToTf(mats[0]!, mats[1]!, mats[2]!, mats[3]!);
      const e = exp as { num: number[]; den: number[] };
      // coefficients: absolute tolerance relative to the largest coefficient
      const sc = Math.max(1, ...e.den.map(Math.abs), ...e.num.map(Math.abs));
      const ok = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => Math.abs(x - b[i]) <= 1e-8 * sc);
      if (!ok(e.num, got.num) || !ok(e.den, got.den)) bad.push(`${key}: expected ${JSON.stringify(e)}, got ${JSON.stringify(got)}`);
      continue;
    }
    if (key === 'y(t)') {
      const t = asVector(callArgs.t ?? result.t);
      const y = asVector(result.y);
      if (!t || !y || t.length !== y.length) {
        bad.push(`y(t): result has no SISO y over t`);
        continue;
      }
      const ref = referenceResponse(exp as never, t);
      const scl = Math.max(...ref.map(Math.abs));
      const i = ref.findIndex((r, k) => Math.abs(r - y[k]) > Math.max(1e-9, 1e-6 * scl));
      if (i >= 0) bad.push(`y(t): at t=${t[i]} expected ${ref[i]}, got ${y[i]}`);
      continue;
    }
    if (key === 'H(w)') {
      const w = asVector(callArgs.w ?? result.w);
      const H = asComplexList(result.H);
      if (!w || !H || w.length !== H.length) {
        bad.push(`H(w): result has no SISO H over w`);
        continue;
      }
      const ref = referenceFreq(exp as never, w);
      for (let k = 0; k < w.length; k++) {
        const r = ref[k];
        if (!r) continue;
        const mag = Math.hypot(r[0], r[1]);
        if (Math.hypot(r[0] - H[k][0], r[1] - H[k][1]) > Math.max(1e-9, 1e-6 * mag)) {
          bad.push(`H(w): at w=${w[k]} expected ${JSON.stringify(r)}, got ${JSON.stringify(H[k])}`);
          break;
        }
      }
      continue;
    }
    if (key === 'G(s)@points') {
      // a transfer matrix at test points: C(sI − A)⁻¹B + D of the returned realisation (a MIMO tf2ss check)
      const e = exp as { points: [number, number][]; values: [number, number][][][] };
      const mats = ['A', 'B', 'C', 'D'].map((k) => asMatrix(result[k]) ?? (k === 'A' || k === 'B' ? [] : undefined));
      if (mats.some((m) => !m)) {
        bad.push(`${key}: result has no A, B, C, D`);
        continue;
      }
      const [A, B, C, D] = mats as M[];
      e.points.forEach((s, k) => {
        const G = transferAt(A, B, C, D, s);
        const want = e.values[k];
        const scl = Math.max(1, ...want.flat().map(([re, im]) => Math.hypot(re, im)));
        const off = want.some((row, i) => row.some(([re, im], j) => !G[i]?.[j] || Math.hypot(re - G[i][j][0], im - G[i][j][1]) > 1e-8 * scl));
        if (off) bad.push(`${key}: at s = ${JSON.stringify(s)} expected ${JSON.stringify(want)}, got ${JSON.stringify(G)}`);
      });
      continue;
    }
    const got = getPath(result, key);
    if (got === undefined) {
      bad.push(`${key}: missing from the result`);
      continue;
    }
    if (COMPLEX_SETS.has(key)) {
      const a = asComplexList(exp);
      const b = asComplexList(got);
      if (!a || !b || !complexSetsEqual(a, b, valClose)) bad.push(`${key}: expected ${JSON.stringify(exp)}, got ${JSON.stringify(got)}`);
      continue;
    }
    if (key === 'asymptotes.angles_deg') {
      const a = (flatNumbers(exp) ?? []).slice().sort((x, y) => x - y);
      const b = (flatNumbers(got) ?? []).slice().sort((x, y) => x - y);
      if (a.length !== b.length || !a.every((x, i) => valClose(x, b[i]))) bad.push(`${key}: expected ${JSON.stringify(a)}, got ${JSON.stringify(b)}`);
      continue;
    }
    if (key === 'breakaway') {
      const a = exp as { s: [number, number]; k: number }[];
      const b = (Array.isArray(got) ? got : []) as { s: [number, number]; k: number }[];
      const ok =
        a.length === b.length &&
        complexSetsEqual(
          a.map((x) => x.s),
          b.map((x) => x.s),
          valClose,
        ) &&
        a.every((x) => b.some((y) => valClose(x.s[0], y.s[0]) && valClose(x.s[1], y.s[1]) && valClose(x.k, y.k)));
      if (!ok) bad.push(`breakaway: expected ${JSON.stringify(a)}, got ${JSON.stringify(b)}`);
      continue;
    }
    if (!deepClose(exp, got)) bad.push(`${key}: expected ${JSON.stringify(exp)}, got ${JSON.stringify(got)}`);
  }
  return bad;
}
