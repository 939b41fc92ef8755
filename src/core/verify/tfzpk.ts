/**
 * Independent checks of the MIMO transfer-function and zero-pole-gain tools (tf2ss and ss2tf
 * of a MIMO model, zpk, zpk2tf, zpk2ss) and the verifier's reading of such systems as
 * arguments. Nothing of the solvers' realisation or cancellation is used: each transfer
 * matrix given is evaluated entry by entry at test points (num(s)/den(s) by Horner, or
 * k·Π(s − zᵢ)/Π(s − pᵢ) as a product), against C(sI − A)⁻¹B + D of a realisation by the
 * verifier's own complex solve; minimality by the Krylov/Arnoldi/PBH rank check (rank.ts), and
 * the McMillan degree of a transfer matrix as the rank of its Hankel matrix of Markov
 * parameters (by long division, an independent SVD).
 */
import type { Complex, Matrix } from '../types.js';
import type { Check } from './index.js';
import { pairRankCheck } from './rank.js';
import { companion, evalSS, evalTF, polyval, ringTestPoints } from './systems.js';
import { polyFromRoots, safeEigenvalues, safeSingularValues, sci, strip } from './numeric.js';

type Entry = { at: (s: Complex) => Complex; poles: Complex[] };
type Grid = Entry[][];

const isNum = (x: unknown): x is number => typeof x === 'number';
const rootsOf = (p: number[]): Complex[] => {
  const c = companion(strip(p));
  return c.length ? safeEigenvalues(c) : [];
};
const isTfGrid = (v: unknown) => Array.isArray(v) && v.length > 0 && v.every((r) => Array.isArray(r) && r.length > 0 && r.every((e) => Array.isArray(e)));
const cmul = ([a, b]: Complex, [c, d]: Complex): Complex => [a * c - b * d, a * d + b * c];
const cdiv = ([a, b]: Complex, [c, d]: Complex): Complex => {
  const t = c * c + d * d;
  return [(a * c + b * d) / t, (b * c - a * d) / t];
};

/** the p x m num/den grids of a transfer matrix (den one shared list or a grid) */
function tfGrids(num: unknown, den: unknown): { num: number[][][]; den: number[][][] } {
  const N = num as number[][][];
  const D = Array.isArray(den) && den.every(isNum) ? N.map((r) => r.map(() => den as number[])) : (den as number[][][]);
  return { num: N.map((r) => r.map(strip)), den: D.map((r) => r.map(strip)) };
}

function tfEntries(num: unknown, den: unknown): Grid {
  const g = tfGrids(num, den);
  return g.num.map((row, i) => row.map((n, j) => ({ at: (s: Complex) => evalTF(n, g.den[i][j], s), poles: rootsOf(g.den[i][j]) })));
}

const asRoot = (x: number | Complex): Complex => (isNum(x) ? [x, 0] : x);

/** k·Π(s − z)/Π(s − p), as products */
function zpkValue(z: Complex[], p: Complex[], k: number, s: Complex): Complex {
  let v: Complex = [k, 0];
  for (const q of z) v = cmul(v, [s[0] - q[0], s[1] - q[1]]);
  for (const q of p) v = cdiv(v, [s[0] - q[0], s[1] - q[1]]);
  return v;
}

/** the zpk grid of z, p, k as the tools take them (SISO or MIMO, told by k) */
function zpkEntries(z: unknown, p: unknown, k: unknown): Grid {
  const K = Array.isArray(k) && k.every((r) => Array.isArray(r)) ? (k as number[][]) : [[Array.isArray(k) ? (k[0] as number) : (k as number)]];
  const mimo = Array.isArray(k) && k.every((r) => Array.isArray(r)) && !(K.length === 1 && K[0].length === 1 && !isRootGrid(z ?? p));
  // a SISO list may come as a one-column matrix ([[-2], [-3]]); a one-row [[a, b]] is one complex root
  const flat = (v: unknown) =>
    Array.isArray(v) && v.length && v.every((r) => Array.isArray(r) && r.length === 1 && isNum(r[0])) ? v.map((r) => (r as number[])[0]) : v;
  const cell = (v: unknown, i: number, j: number): Complex[] =>
    (((mimo ? (v as unknown[][] | undefined)?.[i]?.[j] : flat(v)) ?? []) as (number | Complex)[]).map(asRoot);
  return K.map((row, i) =>
    row.map((kk, j) => {
      const zs = cell(z, i, j),
        ps = cell(p, i, j);
      return { at: (s: Complex) => zpkValue(zs, ps, kk, s), poles: ps };
    }),
  );
}

const isRootGrid = (v: unknown) =>
  Array.isArray(v) && v.length > 0 && v.every((r) => Array.isArray(r) && r.every((e) => Array.isArray(e) && e.every((x) => isNum(x) || Array.isArray(x))));

/** a model given as a tool's arguments: MIMO or SISO num/den, z/p/k, or A, B, C, D */
function modelEntries(a: Record<string, any>): Grid {
  if (a.k !== undefined) return zpkEntries(a.z, a.p, a.k);
  if (isTfGrid(a.num)) return tfEntries(a.num, a.den);
  if (Array.isArray(a.num)) return tfEntries([[a.num]], [[a.den]]);
  const A = a.A as Matrix;
  const n = A.length;
  const D0 = Array.isArray(a.D) && a.D.length ? (a.D as Matrix) : undefined;
  const p = n ? (a.C as Matrix).length : D0!.length,
    m = n ? (a.B as Matrix)[0].length : D0![0].length;
  const D = D0 ?? Array.from({ length: p }, () => new Array(m).fill(0));
  const poles = n ? safeEigenvalues(A) : [];
  const cache = new Map<string, { re: number[][]; im: number[][] }>();
  const H = (s: Complex) => {
    const key = `${s[0]},${s[1]}`;
    let h = cache.get(key);
    if (!h) {
      const r = evalSS(n ? A : [], n ? a.B : [], n ? a.C : Array.from({ length: p }, () => []), D, s);
      h = { re: r.re.to2DArray(), im: r.im.to2DArray() };
      cache.set(key, h);
    }
    return h;
  };
  return Array.from({ length: p }, (_, i) => Array.from({ length: m }, (_, j) => ({ at: (s: Complex) => [H(s).re[i][j], H(s).im[i][j]] as Complex, poles })));
}

/** a state-space result as entries */
const ssEntries = (r: Record<string, any>) => modelEntries({ A: r.A, B: r.B, C: r.C, D: r.D });

/** worst relative difference of two grids at the points (per point, floored at 1e-3 of the largest value) */
function gridDiff(got: Grid, want: Grid, pts: Complex[]): number {
  if (got.length !== want.length || got.some((r, i) => r.length !== want[i].length)) return Infinity;
  let worst = 0;
  const vals = pts.map((s) => want.map((r) => r.map((e) => e.at(s))));
  const big = Math.max(1e-300, ...vals.flat(2).map(([a, b]) => Math.hypot(a, b)));
  pts.forEach((s, k) => {
    let num = 0,
      den = 0;
    got.forEach((r, i) =>
      r.forEach((e, j) => {
        const g = e.at(s),
          w = vals[k][i][j];
        num += (g[0] - w[0]) ** 2 + (g[1] - w[1]) ** 2;
        den += w[0] ** 2 + w[1] ** 2;
      }),
    );
    worst = Math.max(worst, Math.sqrt(num) / Math.max(Math.sqrt(den), 1e-3 * big));
  });
  return worst;
}

function agree(got: Grid, want: Grid, what: string, tol: number, extraPoles: Complex[] = []): Check {
  const poles = [...got.flat(), ...want.flat()].flatMap((e) => e.poles).concat(extraPoles);
  // moduli below 1e-6 of the largest set no ring (ringTestPoints): a Jordan block at 0 comes out
  // split by √ε (±1.3e-8), and a point at that scale compares the split with the exact double pole
  const pts = ringTestPoints(poles);
  const d = gridDiff(got, want, pts);
  return {
    name: 'transfer function',
    ok: d <= tol && pts.length >= 3,
    value: d,
    detail: `${what} at ${pts.length} test points (relative difference ${sci(d)}, tolerance ${sci(tol)})`,
  };
}

function minimal(r: Record<string, any>): Check[] {
  const n = (r.A as Matrix).length;
  if (!n) return [];
  const c = pairRankCheck(r.A, r.B, false, n);
  const o = pairRankCheck(r.A, r.C, true, n);
  return [
    { ...c, name: 'controllable', detail: `result controllable: ${c.detail}` },
    { ...o, name: 'observable', detail: `result observable: ${o.detail}` },
  ];
}

// ------------------------------------------------------------------ McMillan degree

/** Markov parameters h_1..h_K of num/den (proper): num/den = h_0 + h_1/s + h_2/s² + … by long division */
function markov(num: number[], den: number[], K: number): number[] {
  const d = strip(den),
    n0 = strip(num);
  const nd = d.length - 1;
  const nn = new Array(d.length).fill(0);
  n0.forEach((v, i) => (nn[d.length - n0.length + i] = v));
  const h0 = nn[0] / d[0];
  // remainder r(s) = num − h0·den (degree < nd), then h_k from the recursion d · h = r
  const r = nn.map((v, i) => v - h0 * d[i]).slice(1);
  const h: number[] = [];
  for (let k = 0; k < K; k++) {
    let v = k < nd ? r[k] : 0;
    for (let l = 1; l <= Math.min(k, nd); l++) v -= d[l] * h[k - l];
    h.push(v / d[0]);
  }
  return h;
}

/**
 * The McMillan degree of a proper transfer matrix given as entries: the rank of the block
 * Hankel matrix of its Markov parameters (order bounded by the sum of the entries' degrees),
 * with s scaled to the poles' size so the parameters do not grow as ρᵏ.
 */
export function mcmillanDegree(entries: { num: number[]; den: number[] }[][]): number {
  return hankelSpectrum(entries).rank;
}

/** the block Hankel matrix's singular values (s scaled to the poles' size) and its numerical rank at 1e-10 */
export function hankelSpectrum(entries: { num: number[]; den: number[] }[][]): { rank: number; sv: number[]; size: number } {
  const p = entries.length,
    m = entries[0].length;
  const N = entries.flat().reduce((t, e) => t + strip(e.den).length - 1, 0);
  if (N === 0) return { rank: 0, sv: [], size: 0 };
  const rho = Math.max(1e-300, ...entries.flat().flatMap((e) => rootsOf(e.den).map(([a, b]) => Math.hypot(a, b))));
  const K = 2 * N;
  const H = entries.map((row) => row.map((e) => markov(e.num, e.den, K).map((v, k) => v / rho ** (k + 1))));
  const rows = N * p,
    cols = N * m;
  const big: number[][] = Array.from({ length: rows }, () => new Array(cols).fill(0));
  for (let bi = 0; bi < N; bi++)
    for (let bj = 0; bj < N; bj++) for (let i = 0; i < p; i++) for (let j = 0; j < m; j++) big[bi * p + i][bj * m + j] = H[i][j][bi + bj] ?? 0;
  const sv = safeSingularValues(big);
  const tol = Math.max(rows, cols) * 1e-10 * (sv[0] ?? 0);
  return { rank: sv.filter((x) => x > tol).length, sv, size: Math.max(rows, cols) };
}

// ------------------------------------------------------------------ the tools

/** tf2ss of a MIMO num/den; ss2tf of a MIMO model; otherwise the SISO checks (fallback) */
export function tfzpkChecks(fallback: (args: Record<string, any>, r: Record<string, any>, tool: string) => Check[] | undefined) {
  return {
    tf2ss: (a: Record<string, any>, r: Record<string, any>, tool = 'tf2ss') =>
      isTfGrid(a.num) && typeof r.order === 'number'
        ? tf2ssChecks(a, r)
        : // a 1x1 matrix num/den is the SISO transfer function: the SISO checks on its one entry
          fallback(isTfGrid(a.num) ? { ...a, num: a.num[0][0], den: isTfGrid(a.den) ? a.den[0][0] : a.den } : a, r, tool),
    ss2tf: (a: Record<string, any>, r: Record<string, any>, tool = 'ss2tf') => (Array.isArray(r.charpoly) ? ss2tfChecks(a, r) : fallback(a, r, tool)),
    zpk: (a: Record<string, any>, r: Record<string, any>) => zpkChecks(a, r),
    zpk2tf: (a: Record<string, any>, r: Record<string, any>) => zpk2tfChecks(a, r),
    zpk2ss: (a: Record<string, any>, r: Record<string, any>) => zpk2ssChecks(a, r),
  };
}

function tf2ssChecks(a: Record<string, any>, r: Record<string, any>): Check[] {
  const want = tfEntries(a.num, a.den);
  const g = tfGrids(a.num, a.den);
  const h = hankelSpectrum(g.num.map((row, i) => row.map((n, j) => ({ num: n, den: g.den[i][j] }))));
  const deg = h.rank;
  const n = (r.A as Matrix).length;
  // the Hankel matrix of a high-degree transfer matrix is ill-conditioned: its n-th singular value
  // may fall below the 1e-10 rank line although it stands far above rounding (order-7 entries of a
  // 2x2 matrix: degree 26, σ₂₆/σ₁ ≈ 1e-12). Its rank then says nothing; a deficiency is established only
  // when σₙ is down at rounding (size·ε·σ₁: an order-31 realisation of the degree-30 matrix of
  // order-8 entries has σ₃₁/σ₁ = 5e-16, while its σ₃₀/σ₁ = 1.2e-13), and minimality rests on the PBH checks below
  const sn = h.sv[n - 1] ?? 0;
  const undecided = deg < n && sn > h.size * Number.EPSILON * (h.sv[0] ?? 0);
  return [
    agree(ssEntries(r), want, 'C(sI − A)⁻¹B + D equals each entry num/den', 1e-8),
    {
      name: 'McMillan degree',
      ok: deg === n || undecided,
      value: n,
      detail: undecided
        ? `order ${n}; the Hankel matrix of the Markov parameters is too ill-conditioned to tell (σ${n}/σ1 = ${sci(sn / h.sv[0])}, above rounding): minimality by the PBH ranks`
        : `order ${n}; the Hankel matrix of the transfer matrix's Markov parameters has rank ${deg}`,
    },
    ...minimal(r),
  ];
}

function ss2tfChecks(a: Record<string, any>, r: Record<string, any>): Check[] {
  const model = modelEntries(a);
  const A = a.A as Matrix;
  const checks: Check[] = [agree(tfEntries(r.num, r.den), model, 'each entry num/den equals C(sI − A)⁻¹B + D', 1e-7)];
  const cp = r.charpoly as number[];
  checks.push(agree(tfEntries(r.num_charpoly, cp), model, 'num_charpoly/charpoly equals C(sI − A)⁻¹B + D', 1e-7));
  // charpoly has the eigenvalues of A (the verifier's eigensolver) as roots, each to a small backward error
  const ev = A.length ? safeEigenvalues(A) : [];
  let worst = 0;
  for (const x of ev) {
    const [re, im] = polyval(cp, x);
    const sc = polyval(cp.map(Math.abs), [Math.hypot(x[0], x[1]), 0])[0];
    worst = Math.max(worst, Math.hypot(re, im) / Math.max(sc, 1e-300));
  }
  checks.push({
    name: 'characteristic polynomial',
    ok: cp.length === A.length + 1 && cp[0] === 1 && worst <= 1e-8,
    value: worst,
    detail: `monic of degree ${A.length}, every eigenvalue of A a root to a relative backward error ${sci(worst)}`,
  });
  const degOk = (r.den as number[][][]).every((row) => row.every((d) => strip(d).length - 1 <= A.length));
  checks.push({
    name: 'entry degrees',
    ok: degOk,
    detail: degOk ? `no entry's denominator has degree above n = ${A.length}` : 'an entry has more poles than the model has states',
  });
  return checks;
}

function zpkChecks(a: Record<string, any>, r: Record<string, any>): Check[] {
  const got = zpkEntries(r.z, r.p, r.k);
  const checks = [agree(got, modelEntries(a), 'k·Π(s − z)/Π(s − p) of each channel equals the model', 1e-6)];
  // a transfer function's zpk keeps every root (no cancellation): as many poles as den has degree
  if (Array.isArray(a.num)) {
    const g = isTfGrid(a.num) ? tfGrids(a.num, a.den) : { num: [[strip(a.num)]], den: [[strip(a.den)]] };
    const P = (Array.isArray(r.k) ? r.p : [[r.p]]) as Complex[][][];
    const ok = g.den.every((row, i) => row.every((d, j) => d.length - 1 === P[i][j].length || (g.num[i][j].every((v) => v === 0) && P[i][j].length === 0)));
    checks.push({ name: 'pole count', ok, detail: ok ? "each channel has as many poles as its denominator's degree" : 'a channel lost or gained poles' });
  }
  return checks;
}

function zpk2tfChecks(a: Record<string, any>, r: Record<string, any>): Check[] {
  const got = Array.isArray(r.k) || isTfGrid(r.num) ? tfEntries(r.num, r.den) : tfEntries([[r.num]], [[r.den]]);
  const want = zpkEntries(a.z, a.p, a.k);
  return [agree(got, want, 'num/den of each channel equals k·Π(s − z)/Π(s − p)', 1e-9)];
}

function zpk2ssChecks(a: Record<string, any>, r: Record<string, any>): Check[] {
  const want = zpkEntries(a.z, a.p, a.k);
  return [agree(ssEntries(r), want, 'C(sI − A)⁻¹B + D equals k·Π(s − z)/Π(s − p) of each channel', 1e-8), ...minimal(r)];
}

// ------------------------------------------------------------------ system arguments

/**
 * A system argument given as a MIMO {num, den} or {z, p, k}, as the interconnection checks
 * read it: its value at s (p x m), poles, sizes and n, the states of its minimal realisation
 * (the McMillan degree; for a SISO {z, p, k}, the number of poles, as its polynomials are used).
 */
export function readTfzpkArg(
  o: Record<string, unknown>,
): { at: (s: Complex) => { re: number[][]; im: number[][] }; poles: Complex[]; n: number; m: number; p: number } | undefined {
  const zpk = o.k !== undefined;
  if (!zpk && !isTfGrid(o.num)) return undefined;
  const G = zpk ? zpkEntries(o.z, o.p, o.k) : tfEntries(o.num, o.den);
  const p = G.length,
    m = G[0].length;
  let n: number;
  if (zpk && p === 1 && m === 1) n = G[0][0].poles.length;
  else if (zpk) {
    const K = o.k as number[][];
    n = mcmillanDegree(
      G.map((row, i) =>
        row.map((e, j) => {
          const zs = (((o.z as unknown[][] | undefined)?.[i]?.[j] ?? []) as (number | Complex)[]).map(asRoot);
          return { num: K[i][j] === 0 ? [0] : polyFromRoots(zs).map((v) => v * K[i][j]), den: polyFromRoots(e.poles) };
        }),
      ),
    );
  } else {
    const g = tfGrids(o.num, o.den);
    n = mcmillanDegree(g.num.map((row, i) => row.map((nn, j) => ({ num: nn, den: g.den[i][j] }))));
  }
  return {
    at: (s) => ({ re: G.map((r) => r.map((e) => e.at(s)[0])), im: G.map((r) => r.map((e) => e.at(s)[1])) }),
    poles: G.flat().flatMap((e) => e.poles),
    n,
    m,
    p,
  };
}
