/**
 * Interconnections of systems (python-control's bdalg.py; MATLAB's conventions): `series`,
 * `parallel`, `feedback`, `append`, and `minreal`, the minimal realisation they all end with.
 *
 * Conventions (MATLAB and python-control agree):
 * - series(sys1, sys2) = sys2·sys1: the output of sys1 drives the input of sys2;
 * - parallel(sys1, sys2, sign) = sys1 + sign·sys2 (same inputs, outputs summed);
 * - feedback(sys1, sys2, sign) = (I − sign·sys1·sys2)⁻¹·sys1: sys1 in the forward path, sys2 in
 *   the return path, sign −1 (default) negative feedback; feedin/feedout (1-based) select the
 *   inputs of sys1 the loop enters and the outputs it leaves from, as MATLAB
 *   feedback(sys1, sys2, feedin, feedout, sign);
 * - append(sys1, sys2, …): block diagonal (inputs and outputs stacked);
 * - a number k is a static gain: k·I in series and feedback, k on every channel in parallel
 *   (MATLAB's scalar expansion of sys + k), 1x1 in append; it takes the other systems' Ts.
 *   Systems with different sample times are refused (MATLAB: "sampling times must agree").
 *
 * Unlike MATLAB's and python-control's feedback/series/parallel, which return the
 * non-minimal interconnection, the result here is always minimal (their minreal applied):
 * SISO transfer functions by polynomial algebra with common roots cancelled, anything else in
 * state space reduced by the one controllability staircase (linalg/staircase.ts), controllable
 * part, then the observable part by the dual. What was removed is listed (`removed`); the
 * closed-loop poles of feedback (`poles`) are those of the whole interconnection, removed
 * modes included, since they decide internal stability.
 */
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import type { JsonSchema } from '../tools/types.js';
import type { Complex, Matrix } from '../types.js';
import { type Mat, EPS, add, blocks, eye, luFactor, luSolve, mul, rcondByInverse, scale, toRows, transpose, zeros } from '../linalg/dense.js';
import { minimalRealization } from '../linalg/staircase.js';
import { eigvalsSorted } from '../linalg/schur.js';
import { conv, polyadd, polyPad, polyRoots, polyStrip, polyvalC } from '../linalg/poly.js';
import { fmt, fmtComplex, fmtEigenvalues } from '../render/format.js';
import { matrixBlock, type RenderOptions } from '../render/markdown.js';
import { polyText } from '../render/results.js';
import { num as numLit, vector as vecLit } from '../codegen/literals.js';
import { verdictHolder, type Code } from '../codegen/code.js';
import { tfMatrixExpr, zpkExpr } from '../codegen/tfm.js';
import { isTfMatrixValue } from './_tfm.js';
import type { PlotSpec } from '../plot/specs.js';
import { ss2tf } from './xferfcn.js';
import {
  SYSTEM_ARG_MAX_N,
  cplx,
  readTfOrSs,
  readTs,
  scaleGuard,
  sortComplex,
  ssProps,
  systemArg,
  tf2ss,
  tfProps,
  tsProp,
  readSystemArgFull,
  type SS,
  type SystemArg,
} from './_sys.js';
import { isRows } from '../tools/args.js';

// ------------------------------------------------------------------ types and small helpers

/** a state-space model on linalg's Mat, with explicit sizes (a static gain has A 0x0, B 0xm, C px0) */
export interface Lti {
  A: Mat;
  B: Mat;
  C: Mat;
  D: Mat;
}

/** the result every interconnection tool returns */
export interface InterconnectResult {
  A: Matrix;
  B: Matrix;
  C: Matrix;
  D: Matrix;
  /** sample time; 0 for continuous */
  Ts: number;
  /** SISO results: the transfer function, common factors cancelled (den monic, num padded to its length) */
  num?: number[];
  den?: number[];
  /** poles of the interconnection that the minimal realisation removed (hidden modes), sorted */
  removed: Complex[];
  /** feedback: the closed-loop poles of the whole interconnection (removed ones included), sorted */
  poles?: Complex[];
  /** 'tf': polynomial algebra on transfer functions; 'ss': state space, reduced by the staircase */
  route: 'tf' | 'ss';
  /** states of the interconnection before the reduction (what MATLAB's feedback/series/parallel return) */
  order_full: number;
  /** connect/lft: the removed modes, split by why (fromSs with split) */
  uncontrollable?: Complex[];
  unobservable?: Complex[];
}

export interface MinrealResult {
  A: Matrix;
  B: Matrix;
  C: Matrix;
  D: Matrix;
  Ts: number;
  num?: number[];
  den?: number[];
  /** every removed pole */
  removed: Complex[];
  /** state space: the modes removed as uncontrollable, then as unobservable */
  uncontrollable?: Complex[];
  unobservable?: Complex[];
  /** transfer function: the cancelled pairs */
  cancelled?: { zero: Complex; pole: Complex }[];
  /** the cancellation tolerance used (transfer functions) */
  tol: number;
}

/** MATLAB's minreal default tolerance, sqrt(eps) */
export const DEFAULT_TOL = Math.sqrt(EPS);

/** a Matrix (rows) as a Mat of the given size (a 0 x m or p x 0 matrix has no rows to say it) */
function mk(M: Matrix, r: number, c: number): Mat {
  const out = zeros(r, c);
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) out.d[i * c + j] = M[i][j];
  return out;
}

export function toLti(ss: SS): Lti {
  return { A: mk(ss.A, ss.n, ss.n), B: mk(ss.B, ss.n, ss.m), C: mk(ss.C, ss.p, ss.n), D: mk(ss.D, ss.p, ss.m) };
}

/** a static gain K (p x m) */
export function gainLti(K: Mat): Lti {
  return { A: zeros(0, 0), B: zeros(0, K.c), C: zeros(K.r, 0), D: K };
}

export const dims = (l: Lti) => ({ n: l.A.r, m: l.D.c, p: l.D.r });

/** block diagonal of square or rectangular blocks */
function blkdiag(...Ms: Mat[]): Mat {
  const r = Ms.reduce((s, M) => s + M.r, 0);
  const c = Ms.reduce((s, M) => s + M.c, 0);
  const out = zeros(r, c);
  let r0 = 0,
    c0 = 0;
  for (const M of Ms) {
    for (let i = 0; i < M.r; i++) for (let j = 0; j < M.c; j++) out.d[(r0 + i) * c + c0 + j] = M.d[i * M.c + j];
    r0 += M.r;
    c0 += M.c;
  }
  return out;
}

/** [X; Y] (same number of columns) */
function vstack(X: Mat, Y: Mat): Mat {
  const out = zeros(X.r + Y.r, X.c);
  out.d.set(X.d);
  out.d.set(Y.d, X.d.length);
  return out;
}

/** [X, Y] (same number of rows) */
function hstack(X: Mat, Y: Mat): Mat {
  return transpose(vstack(transpose(X), transpose(Y)));
}

/** the columns of the identity of size n at idx (n x idx.length): u_full = S·u_selected */
function selector(n: number, idx: number[]): Mat {
  const S = zeros(n, idx.length);
  idx.forEach((i, k) => (S.d[i * idx.length + k] = 1));
  return S;
}

export const sortedEigs = (A: Mat): Complex[] => (A.r ? sortComplex(eigvalsSorted(A).map(([r, i]) => cplx(r, i))) : []);

// ------------------------------------------------------------------ state-space interconnections

/** sys2·sys1: x = [x1; x2], A = [A1 0; B2C1 A2], B = [B1; B2D1], C = [D2C1 C2], D = D2D1 */
export function seriesSS(s1: Lti, s2: Lti): Lti {
  const a = dims(s1),
    b = dims(s2);
  return {
    A: blocks([
      [s1.A, zeros(a.n, b.n)],
      [mul(s2.B, s1.C), s2.A],
    ]),
    B: vstack(s1.B, mul(s2.B, s1.D)),
    C: hstack(mul(s2.D, s1.C), s2.C),
    D: mul(s2.D, s1.D),
  };
}

/** sys1 + sign·sys2: A = diag(A1, A2), B = [B1; B2], C = [C1, sign·C2], D = D1 + sign·D2 */
export function parallelSS(s1: Lti, s2: Lti, sign: number): Lti {
  return { A: blkdiag(s1.A, s2.A), B: vstack(s1.B, s2.B), C: hstack(s1.C, scale(s2.C, sign)), D: add(s1.D, s2.D, sign) };
}

export function appendSS(list: Lti[]): Lti {
  return { A: blkdiag(...list.map((s) => s.A)), B: blkdiag(...list.map((s) => s.B)), C: blkdiag(...list.map((s) => s.C)), D: blkdiag(...list.map((s) => s.D)) };
}

/**
 * The feedback loop u1 = u + sign·S·y2, u2 = F·y1 (S: the inputs feedin of sys1, F: its
 * outputs feedout), from u to y1. With E = I − sign·D2·F·D1·S (the algebraic loop, k x k):
 * y2 = E⁻¹(D2F·C1·x1 + C2·x2 + D2F·D1·u), then y1 and the states follow. E singular is refused.
 */
export function feedbackSS(s1: Lti, s2: Lti, sign: number, feedin: number[], feedout: number[]): Lti {
  const a = dims(s1),
    b = dims(s2);
  const S = selector(a.m, feedin); // m1 x k
  const F = transpose(selector(a.p, feedout)); // l x p1
  const k = feedin.length;
  const D2F = mul(s2.D, F); // k x p1
  const E = add(eye(k), mul(mul(D2F, s1.D), S), -sign);
  const rc = k ? rcondByInverse(E) : 1;
  if (!(rc > 1e3 * Math.max(k, 1) * EPS))
    throw new ControlError(
      `feedback: the algebraic loop is singular: I ${sign < 0 ? '+' : '−'} D2·D1 (the direct feedthrough around the loop${k > 1 ? ', on the fed-back channels' : ''}) is singular (reciprocal condition ${rc.toExponential(2)}), so the closed loop has no proper transfer function (for SISO: 1 ${sign < 0 ? '+' : '−'} D1·D2 = 0). Change the sign, a gain, or add dynamics to the loop.`,
      'infeasible',
    );
  const f = luFactor(E);
  const Cy2 = luSolve(f, hstack(mul(D2F, s1.C), s2.C)); // k x (n1 + n2)
  const Dy2 = luSolve(f, mul(D2F, s1.D)); // k x m1
  const D1S = scale(mul(s1.D, S), sign); // p1 x k
  const C = add(hstack(s1.C, zeros(a.p, b.n)), mul(D1S, Cy2));
  const D = add(s1.D, mul(D1S, Dy2));
  const B1S = scale(mul(s1.B, S), sign); // n1 x k
  const B2F = mul(s2.B, F); // n2 x p1
  const A = add(blkdiag(s1.A, s2.A), vstack(mul(B1S, Cy2), mul(B2F, C)));
  const B = vstack(add(s1.B, mul(B1S, Dy2)), mul(B2F, D));
  return { A, B, C, D };
}

/**
 * Minimal realisation by the one controllability staircase (linalg/staircase.ts
 * minimalRealization: the controllable part of (A, B), then of that the observable part by
 * the dual pair (A', C')). Returns the reduced model and the removed modes.
 */
export function minimalSS(l: Lti): { sys: Lti; uncontrollable: Complex[]; unobservable: Complex[] } {
  const r = minimalRealization(l);
  const tidy = (z: Complex[]) => sortComplex(z.map(([re, im]) => cplx(re, im)));
  return { sys: r.sys, uncontrollable: tidy(r.uncontrollable), unobservable: tidy(r.unobservable) };
}

// ------------------------------------------------------------------ transfer functions

/** |p(x)| / Σ|p_i||x|^i: the relative backward error of x as a root of p */
function backwardError(p: number[], x: Complex): number {
  const [re, im] = polyvalC(p, x[0], x[1]);
  const r = Math.hypot(re, im);
  if (r === 0) return 0;
  const sc = polyvalC(p.map(Math.abs), Math.hypot(x[0], x[1]), 0)[0];
  return sc > 0 ? r / sc : Infinity;
}

/** p / (s − a), remainder dropped: forward division for |a| <= 1, on the reversed polynomial otherwise (stable both ways) */
function deflateReal(p: number[], a: number): number[] {
  if (p.length <= 1) return p;
  if (Math.abs(a) <= 1) {
    const q = [p[0]];
    for (let i = 1; i < p.length - 1; i++) q.push(p[i] + a * q[i - 1]);
    return q;
  }
  // p~(u) = u^n p(1/u) = (−a)(u − 1/a) q~(u)
  const r = p.slice().reverse();
  const b = 1 / a;
  const q = [r[0]];
  for (let i = 1; i < r.length - 1; i++) q.push(r[i] + b * q[i - 1]);
  return q.map((v) => v / -a).reverse();
}

/** p / (s² − 2·Re(x)·s + |x|²), remainder dropped (reversed for |x| > 1) */
function deflatePair(p: number[], x: Complex): number[] {
  if (p.length <= 2) return [0];
  const b1 = -2 * x[0],
    b0 = x[0] * x[0] + x[1] * x[1];
  const divide = (c: number[], c1: number, c0: number) => {
    const q: number[] = [];
    for (let i = 0; i < c.length - 2; i++) q.push(c[i] - c1 * (q[i - 1] ?? 0) - c0 * (q[i - 2] ?? 0));
    return q;
  };
  if (b0 <= 1) return divide(p, b1, b0);
  // reversed: (b0 u² + b1 u + 1) q~(u) = b0 (u² + (b1/b0) u + 1/b0) q~(u)
  const q = divide(p.slice().reverse(), b1 / b0, 1 / b0);
  return q.map((v) => v / b0).reverse();
}

/** nearest entry of a list to x (index), or −1 */
function nearest(list: Complex[], x: Complex): number {
  let bi = -1,
    bd = Infinity;
  list.forEach((z, i) => {
    const d = Math.hypot(z[0] - x[0], z[1] - x[1]);
    if (d < bd) {
      bd = d;
      bi = i;
    }
  });
  return bi;
}

/**
 * Cancels the common roots of num and den: a root x (of either) cancels when it is a root of
 * both to a relative backward error tol (|p(x)| <= tol·Σ|p_i||x|^i). Candidates come from both
 * lists, so a root that is simple in one polynomial (and accurately computed) finds its match in
 * the other even where that one has it multiple; roots within 1e-6 relative of the real axis are
 * tried as real. Each cancellation divides both polynomials (conjugate pairs together).
 */
export function cancelCommon(
  numIn: number[],
  denIn: number[],
  tol: number,
): { num: number[]; den: number[]; cancelled: { zero: Complex; pole: Complex }[]; denRoots: Complex[] } {
  let N = polyStrip(numIn);
  let Dn = polyStrip(denIn);
  const denRoots = polyRoots(Dn);
  const cancelled: { zero: Complex; pole: Complex }[] = [];
  // the zero function: no pairs, every pole goes (callers list denRoots as removed)
  if (N.every((v) => v === 0)) return { num: [0], den: [1], cancelled, denRoots };
  const zr = polyRoots(N);
  const pr = denRoots.slice();
  const tried = new Set<string>();
  for (let guard = 0; guard < denRoots.length + 1 && zr.length && pr.length; guard++) {
    let best: { x: Complex; real: boolean; e: number } | undefined;
    for (const r of [...zr, ...pr]) {
      const real = Math.abs(r[1]) <= 1e-6 * Math.max(1, Math.hypot(r[0], r[1]));
      if (!real && r[1] < 0) continue;
      const x: Complex = real ? [r[0], 0] : r;
      const key = `${x[0]},${x[1]}`;
      if (tried.has(key)) continue;
      if (!real && (N.length < 3 || Dn.length < 3)) continue;
      const e = Math.max(backwardError(N, x), backwardError(Dn, x));
      if (e <= tol && (!best || e < best.e)) best = { x, real, e };
    }
    if (!best) break;
    const { x, real } = best;
    const take = (list: Complex[], at: Complex): Complex => {
      const i = nearest(list, at);
      return list.splice(i, 1)[0];
    };
    // each polynomial is divided by whichever of x and its own root of the pair (the nearest in
    // its list) is more nearly its root: each division is then exact to rounding (for a multiple
    // root, x from the list where it is simple is the accurate one), and T changes only by the
    // factor (s − z)/(s − p) of the pair reported
    const pick = (poly: number[], own: Complex, at: Complex) => (backwardError(poly, at) <= backwardError(poly, own) ? at : own);
    if (real) {
      // a real root (or a multiple one, computed as a close complex cluster): taken as real
      const z = pick(N, [take(zr, x)[0], 0], x)[0],
        p = pick(Dn, [take(pr, x)[0], 0], x)[0];
      N = deflateReal(N, z);
      Dn = deflateReal(Dn, p);
      cancelled.push({ zero: cplx(z, 0), pole: cplx(p, 0) });
    } else {
      if (zr.length < 2 || pr.length < 2) {
        tried.add(`${x[0]},${x[1]}`);
        continue;
      }
      const z0 = take(zr, x),
        p0 = take(pr, x);
      take(zr, [z0[0], -z0[1]]);
      take(pr, [p0[0], -p0[1]]);
      const z = pick(N, z0, x),
        p = pick(Dn, p0, x);
      N = deflatePair(N, z);
      Dn = deflatePair(Dn, p);
      cancelled.push(
        { zero: cplx(z[0], Math.abs(z[1])), pole: cplx(p[0], Math.abs(p[1])) },
        { zero: cplx(z[0], -Math.abs(z[1])), pole: cplx(p[0], -Math.abs(p[1])) },
      );
    }
  }
  return { num: N, den: Dn, cancelled, denRoots };
}

/** den monic, num padded to its length */
function monic(num: number[], den: number[]): { num: number[]; den: number[] } {
  const d = polyStrip(den);
  const a = d[0];
  return {
    num: polyPad(
      polyStrip(num).map((v) => v / a),
      d.length,
    ),
    den: d.map((v) => v / a),
  };
}

/** the feedthrough of a proper transfer function: num[0]/den[0] when the degrees agree */
const feedthrough = (t: { num: number[]; den: number[] }) => {
  const n = polyStrip(t.num),
    d = polyStrip(t.den);
  return n.length === d.length ? n[0] / d[0] : 0;
};

// ------------------------------------------------------------------ reading the arguments

export interface Named {
  name: string;
  sa: SystemArg;
}

/** the one sample time of the systems; a system without its own (a number, a static gain written without Ts) takes it */
export function commonTs(list: Named[], tool: string): number {
  const fixed = list.filter((x) => x.sa.hasTs);
  const first = fixed[0];
  for (const x of fixed)
    if (x.sa.ss.Ts !== first.sa.ss.Ts) {
      const say = (y: Named) => (y.sa.ss.Ts > 0 ? `${y.name} has Ts = ${y.sa.ss.Ts} s` : `${y.name} is continuous (Ts = 0)`);
      throw new ControlError(
        `${tool}: the sampling times must agree (as MATLAB requires): ${say(first)}, ${say(x)}. Discretise the continuous one with c2d at the same Ts, or resample the discrete one.`,
      );
    }
  return first ? first.sa.ss.Ts : 0;
}

function readSign(v: unknown, def: number, tool: string): number {
  if (v === undefined || v === null) return def;
  if (v === 1 || v === -1) return v;
  throw new ControlError(`${tool}: sign must be +1 or −1, not ${JSON.stringify(v)}.`);
}

/** 1-based channel list -> 0-based indices, checked against the count */
function readChannels(v: unknown, count: number, what: string, tool: string): number[] {
  if (v === undefined || v === null) return Array.from({ length: count }, (_, i) => i);
  const list = typeof v === 'number' ? [v] : v;
  if (!Array.isArray(list) || !list.length) throw new ControlError(`${tool}: ${what} must be a list of channel numbers (1-based), e.g. [1] or [1, 2].`);
  const seen = new Set<number>();
  return list.map((x) => {
    if (typeof x !== 'number' || !Number.isInteger(x) || x < 1 || x > count)
      throw new ControlError(`${tool}: ${what} entry ${JSON.stringify(x)} is not a channel of sys1 (it has ${count}; channels are numbered 1 to ${count}).`);
    if (seen.has(x)) throw new ControlError(`${tool}: ${what} lists channel ${x} twice.`);
    seen.add(x);
    return x - 1;
  });
}

const MAX_TOTAL_STATES = 2 * SYSTEM_ARG_MAX_N;

export function checkTotal(states: number, tool: string): void {
  if (states > MAX_TOTAL_STATES)
    throw new ControlError(`${tool}: the interconnection would have ${states} states, above the limit of ${MAX_TOTAL_STATES}.`, 'limit');
}

/** a number as k·I (n x n) or k on every channel (p x m) */
const expandGain = (k: number, p: number, m: number, how: 'eye' | 'ones'): Lti => {
  const K = zeros(p, m);
  for (let i = 0; i < p; i++) for (let j = 0; j < m; j++) K.d[i * m + j] = how === 'ones' || i === j ? k : 0;
  return gainLti(K);
};

const isSisoTf = (sa: SystemArg) => sa.tf !== undefined;

// ------------------------------------------------------------------ results

function fromTf(num: number[], den: number[], Ts: number, removed: Complex[], extra: Partial<InterconnectResult>, orderFull: number): InterconnectResult {
  const t = monic(num, den);
  const r = tf2ss(t.num, t.den);
  const n = r.A.length;
  return {
    A: r.A,
    B: n ? r.B : [],
    C: n ? r.C : [[]],
    D: r.D,
    Ts,
    num: t.num,
    den: t.den,
    removed: sortComplex(removed),
    ...extra,
    route: 'tf',
    order_full: orderFull,
  };
}

/** a Mat as rows, keeping a p x 0 matrix as p empty rows (as readSS's static gains) */
const rowsOf = (M: Mat): Matrix => (M.c === 0 ? Array.from({ length: M.r }, () => []) : toRows(M));

export function fromSs(full: Lti, Ts: number, extra: Partial<InterconnectResult>, tool: string, split = false): InterconnectResult {
  const red = minimalSS(full);
  const s = red.sys;
  const { n, m, p } = dims(s);
  const out: InterconnectResult = {
    A: n ? toRows(s.A) : [],
    B: n ? toRows(s.B) : [],
    C: rowsOf(s.C),
    D: toRows(s.D),
    Ts,
    removed: sortComplex([...red.uncontrollable, ...red.unobservable]),
    ...extra,
    route: 'ss',
    order_full: full.A.r,
    // connect/lft say why each mode went (not reachable from the inputs chosen, not seen at the outputs)
    ...(split ? { uncontrollable: red.uncontrollable, unobservable: red.unobservable } : {}),
  };
  if (m === 1 && p === 1) {
    const ss: SS = { A: out.A, B: out.B, C: out.C, D: out.D, n, m, p, Ts };
    scaleGuard(ss, tool);
    // cleaned as the ss2tf tool's answer: a numerator coefficient at the rounding of the two
    // characteristic polynomials it is the difference of is 0 (an LQG closed loop showed '−3.55271e-15s^3')
    const t = ss2tf(out.A, out.B, n ? out.C : [[]], out.D, true);
    out.num = t.num;
    out.den = t.den;
  }
  return out;
}

// ------------------------------------------------------------------ the tools' runs

export function runSeries(args: Record<string, any>): InterconnectResult {
  const tool = 'series';
  const a: Named = { name: 'sys1', sa: readSystemArgFull(args.sys1, 'sys1', tool) };
  const b: Named = { name: 'sys2', sa: readSystemArgFull(args.sys2, 'sys2', tool) };
  const Ts = commonTs([a, b], tool);
  checkTotal(a.sa.ss.n + b.sa.ss.n, tool);
  if (isSisoTf(a.sa) && isSisoTf(b.sa)) {
    const t1 = a.sa.tf!,
      t2 = b.sa.tf!;
    const c = cancelCommon(conv(t1.num, t2.num), conv(t1.den, t2.den), DEFAULT_TOL);
    return fromTf(
      c.num,
      c.den,
      Ts,
      c.cancelled.map((x) => x.pole),
      {},
      a.sa.ss.n + b.sa.ss.n,
    );
  }
  let s1 = toLti(a.sa.ss),
    s2 = toLti(b.sa.ss);
  if (a.sa.gain !== undefined) s1 = expandGain(a.sa.gain, dims(s2).m, dims(s2).m, 'eye');
  if (b.sa.gain !== undefined) s2 = expandGain(b.sa.gain, dims(s1).p, dims(s1).p, 'eye');
  if (dims(s1).p !== dims(s2).m)
    throw new ControlError(
      `series: sys1 has ${dims(s1).p} output(s) but sys2 has ${dims(s2).m} input(s); the output of sys1 drives the input of sys2, so they must be equal.`,
    );
  return fromSs(seriesSS(s1, s2), Ts, {}, tool);
}

export function runParallel(args: Record<string, any>): InterconnectResult {
  const tool = 'parallel';
  const sign = readSign(args.sign, 1, tool);
  const a: Named = { name: 'sys1', sa: readSystemArgFull(args.sys1, 'sys1', tool) };
  const b: Named = { name: 'sys2', sa: readSystemArgFull(args.sys2, 'sys2', tool) };
  const Ts = commonTs([a, b], tool);
  checkTotal(a.sa.ss.n + b.sa.ss.n, tool);
  if (isSisoTf(a.sa) && isSisoTf(b.sa)) {
    const t1 = a.sa.tf!,
      t2 = b.sa.tf!;
    const num = polyadd(conv(t1.num, t2.den), conv(t2.num, t1.den), sign);
    const c = cancelCommon(num, conv(t1.den, t2.den), DEFAULT_TOL);
    const removed = polyStrip(c.num).every((v) => v === 0) ? c.denRoots : c.cancelled.map((x) => x.pole);
    return fromTf(c.num, c.den, Ts, removed, {}, a.sa.ss.n + b.sa.ss.n);
  }
  let s1 = toLti(a.sa.ss),
    s2 = toLti(b.sa.ss);
  if (a.sa.gain !== undefined) s1 = expandGain(a.sa.gain, dims(s2).p, dims(s2).m, 'ones');
  if (b.sa.gain !== undefined) s2 = expandGain(b.sa.gain, dims(s1).p, dims(s1).m, 'ones');
  const d1 = dims(s1),
    d2 = dims(s2);
  if (d1.m !== d2.m || d1.p !== d2.p)
    throw new ControlError(
      `parallel: sys1 has ${d1.m} input(s) and ${d1.p} output(s) but sys2 has ${d2.m} and ${d2.p}; systems in parallel share their inputs and sum their outputs, so the sizes must agree.`,
    );
  return fromSs(parallelSS(s1, s2, sign), Ts, {}, tool);
}

export function runFeedback(args: Record<string, any>): InterconnectResult {
  const tool = 'feedback';
  const sign = readSign(args.sign, -1, tool);
  const a: Named = { name: 'sys1', sa: readSystemArgFull(args.sys1, 'sys1', tool) };
  const b: Named = { name: 'sys2', sa: readSystemArgFull(args.sys2 ?? 1, 'sys2', tool) };
  const Ts = commonTs([a, b], tool);
  checkTotal(a.sa.ss.n + b.sa.ss.n, tool);
  const s1 = toLti(a.sa.ss);
  const feedin = readChannels(args.feedin, dims(s1).m, 'feedin', tool);
  const feedout = readChannels(args.feedout, dims(s1).p, 'feedout', tool);
  if (isSisoTf(a.sa) && isSisoTf(b.sa)) {
    const t1 = a.sa.tf!,
      t2 = b.sa.tf!;
    const e = 1 - sign * feedthrough(t1) * feedthrough(t2);
    if (!(Math.abs(e) > 1e3 * EPS * Math.max(1, Math.abs(feedthrough(t1) * feedthrough(t2)))))
      throw new ControlError(
        `feedback: the algebraic loop is singular: 1 ${sign < 0 ? '+' : '−'} D1·D2 = 0 (D1 = ${feedthrough(t1)}, D2 = ${feedthrough(t2)}: the direct feedthrough around the loop), so the closed loop has no proper transfer function. Change the sign, a gain, or add dynamics to the loop.`,
        'infeasible',
      );
    const num = conv(t1.num, t2.den);
    const den = polyadd(conv(t1.den, t2.den), conv(t1.num, t2.num), -sign);
    const c = cancelCommon(num, den, DEFAULT_TOL);
    const removed = polyStrip(c.num).every((v) => v === 0) ? c.denRoots : c.cancelled.map((x) => x.pole);
    const poles = sortComplex(c.denRoots.map(([r, i]) => cplx(r, i)));
    return fromTf(c.num, c.den, Ts, removed, { poles }, a.sa.ss.n + b.sa.ss.n);
  }
  const k = feedin.length,
    l = feedout.length;
  let s2 = toLti(b.sa.ss);
  if (b.sa.gain !== undefined) {
    if (k !== l)
      throw new ControlError(
        `feedback: sys2 is the number ${b.sa.gain}, read as ${b.sa.gain}·I, but the loop takes ${l} output(s) (feedout) back to ${k} input(s) (feedin); give sys2 as a ${k}x${l} gain matrix {A: [], D: [[…]]}.`,
      );
    s2 = expandGain(b.sa.gain, k, k, 'eye');
  }
  const d2 = dims(s2);
  if (d2.p !== k || d2.m !== l)
    throw new ControlError(
      `feedback: sys2 must have ${l} input(s) (the ${args.feedout ? 'outputs feedout' : 'outputs'} of sys1) and ${k} output(s) (the ${args.feedin ? 'inputs feedin' : 'inputs'} of sys1), but it has ${d2.m} input(s) and ${d2.p} output(s).`,
    );
  const full = feedbackSS(s1, s2, sign, feedin, feedout);
  return fromSs(full, Ts, { poles: sortedEigs(full.A) }, tool);
}

const MAX_APPEND = 20;

export function runAppend(args: Record<string, any>): InterconnectResult {
  const tool = 'append';
  const list = args.systems;
  if (!Array.isArray(list) || list.length === 0) throw new ControlError('append needs systems: a list of systems to put side by side (block diagonal).');
  if (list.length > MAX_APPEND) throw new ControlError(`append: ${list.length} systems, above the limit of ${MAX_APPEND}.`, 'limit');
  const named: Named[] = list.map((v, i) => ({ name: `systems[${i + 1}]`, sa: readSystemArgFull(v, `systems[${i + 1}]`, tool) }));
  const Ts = commonTs(named, tool);
  checkTotal(
    named.reduce((s, x) => s + x.sa.ss.n, 0),
    tool,
  );
  return fromSs(appendSS(named.map((x) => toLti(x.sa.ss))), Ts, {}, tool);
}

export function runMinreal(args: Record<string, any>): MinrealResult {
  const tool = 'minreal';
  const tol = args.tol === undefined || args.tol === null ? DEFAULT_TOL : args.tol;
  if (typeof tol !== 'number' || !(tol > 0 && tol < 1))
    throw new ControlError(`minreal: tol must be a number between 0 and 1 (default sqrt(eps) ≈ 1.5e-8), not ${tol}.`);
  const Ts = readTs(args);
  const { tf, ss } = readTfOrSs(args, tool);
  if (tf) {
    const c = cancelCommon(tf.num, tf.den, tol);
    const zero = polyStrip(c.num).every((v) => v === 0);
    const t = monic(c.num, c.den);
    let r;
    try {
      r = tf2ss(t.num, t.den);
    } catch (e) {
      if (e instanceof ControlError) throw new ControlError(`minreal: after cancelling, ${e.message}`, e.code);
      throw e;
    }
    const n = r.A.length;
    return {
      A: r.A,
      B: n ? r.B : [],
      C: n ? r.C : [[]],
      D: r.D,
      Ts,
      num: t.num,
      den: t.den,
      removed: sortComplex(zero ? c.denRoots.map(([x, y]) => cplx(x, y)) : c.cancelled.map((x) => x.pole)),
      cancelled: c.cancelled,
      tol,
    };
  }
  const s = ss!;
  const red = minimalSS(toLti(s));
  const { n, m, p } = dims(red.sys);
  const out: MinrealResult = {
    A: n ? toRows(red.sys.A) : [],
    B: n ? toRows(red.sys.B) : [],
    C: rowsOf(red.sys.C),
    D: toRows(red.sys.D),
    Ts,
    removed: sortComplex([...red.uncontrollable, ...red.unobservable]),
    uncontrollable: red.uncontrollable,
    unobservable: red.unobservable,
    tol,
  };
  if (m === 1 && p === 1) {
    scaleGuard({ A: out.A, B: out.B, C: out.C, D: out.D, n, m, p, Ts }, tool);
    const t = ss2tf(out.A, out.B, out.C, out.D);
    out.num = t.num;
    out.den = t.den;
  }
  return out;
}

// ------------------------------------------------------------------ rendering

export function tfLine(name: string, num: number[], den: number[], Ts: number, o: RenderOptions): string {
  const v = Ts > 0 ? 'z' : 's';
  const n = polyStrip(num);
  const d = polyStrip(den);
  if (o.math) {
    const body =
      d.length === 1
        ? polyText(
            n.map((x) => x / d[0]),
            v,
            o.digits,
            true,
          )
        : `\\frac{${polyText(n, v, o.digits, true)}}{${polyText(d, v, o.digits, true)}}`;
    return `$$\n${name}(${v}) = ${body}\n$$`;
  }
  return d.length === 1
    ? `${name}(${v}) = ${polyText(
        n.map((x) => x / d[0]),
        v,
        o.digits,
      )}`
    : `${name}(${v}) = (${polyText(n, v, o.digits)}) / (${polyText(d, v, o.digits)})`;
}

export function stability(poles: Complex[], Ts: number): string {
  if (!poles.length) return 'no poles (a static gain)';
  if (Ts > 0) {
    const rho = Math.max(...poles.map(([r, i]) => Math.hypot(r, i)));
    return rho < 1 ? `stable (every |z| < 1; spectral radius ${fmt(rho)})` : `**not stable** (spectral radius ${fmt(rho)} ≥ 1)`;
  }
  const a = Math.max(...poles.map(([r]) => r));
  return a < 0 ? `stable (every pole in the left half-plane; max Re = ${fmt(a)})` : `**not stable** (max Re = ${fmt(a)} ≥ 0)`;
}

export const list = (zs: Complex[], o: RenderOptions) => (zs.length ? fmtEigenvalues(zs, o.digits).join(', ') : 'none');

export function matrices(r: { A: Matrix; B: Matrix; C: Matrix; D: Matrix }, o: RenderOptions): string[] {
  if (!r.A.length) return [`A static gain (no states): y = D·u,`, matrixBlock('D', r.D, o)];
  return [`State space (${r.A.length} state${r.A.length === 1 ? '' : 's'}, minimal):`, ...(['A', 'B', 'C', 'D'] as const).map((k) => matrixBlock(k, r[k], o))];
}

const HEAD: Record<string, (a: Record<string, any>) => string> = {
  series: () =>
    '**Series connection** T = sys2·sys1: the output of sys1 drives the input of sys2 (MATLAB series(sys1, sys2), python-control series(sys1, sys2)).',
  parallel: (a) =>
    `**Parallel connection** T = sys1 ${a.sign === -1 ? '−' : '+'} sys2: the same input to both, their outputs ${a.sign === -1 ? 'subtracted' : 'added'}.`,
  feedback: (a) => {
    const pos = a.sign === 1;
    const unity = a.sys2 === undefined || a.sys2 === null || a.sys2 === 1;
    return `**${pos ? 'Positive' : 'Negative'} feedback${unity ? ' (unity)' : ''}** T = ${unity ? `sys1 / (1 ${pos ? '−' : '+'} sys1)` : `sys1 / (1 ${pos ? '−' : '+'} sys1·sys2)`}: sys1 in the forward path, ${unity ? 'the output fed back directly' : 'sys2 in the return path'}${
      a.feedin || a.feedout ? ` (loop from output(s) ${JSON.stringify(a.feedout ?? 'all')} of sys1 to its input(s) ${JSON.stringify(a.feedin ?? 'all')})` : ''
    }.`;
  },
  append: (a) => `**Appended** ${Array.isArray(a.systems) ? a.systems.length : ''} systems block-diagonally: inputs and outputs stacked in order, no coupling.`,
};

export function renderInterconnect(tool: string, args: Record<string, any>, r: InterconnectResult, o: RenderOptions): string {
  const out: string[] = [HEAD[tool](args)];
  if (r.num && r.den) out.push(tfLine('T', r.num, r.den, r.Ts, o));
  out.push(...matrices(r, o));
  if (r.Ts > 0) out.push(`Discrete time, Ts = ${fmt(r.Ts)} s.`);
  const removedText = r.removed.length
    ? `${r.removed.length} mode${r.removed.length === 1 ? '' : 's'} removed as ${r.route === 'tf' ? 'common pole-zero factors' : 'uncontrollable or unobservable'} (${list(r.removed, o)})`
    : 'nothing to remove';
  out.push(
    `**Minimal realisation:** ${dims2(r)} of the ${r.order_full} states of the interconnection; ${removedText}. MATLAB's ${tool} and python-control's ${tool} return the ${r.order_full}-state interconnection; apply minreal to compare.`,
  );
  if (r.poles) {
    out.push(`**Closed-loop poles** (the whole loop, removed modes included): ${list(r.poles, o)} — ${stability(r.poles, r.Ts)}.`);
    const hidden = r.removed.filter((p) => (r.Ts > 0 ? Math.hypot(p[0], p[1]) >= 1 : p[0] >= 0));
    if (hidden.length)
      out.push(
        `**Caution:** the removed mode${hidden.length === 1 ? '' : 's'} ${list(hidden, o)} ${hidden.length === 1 ? 'is' : 'are'} unstable: T looks stable but the loop is not internally stable (an unstable pole-zero cancellation).`,
      );
  }
  return out.join('\n\n');
}

const dims2 = (r: { A: Matrix }) => `${r.A.length} state${r.A.length === 1 ? '' : 's'}`;

function renderMinreal(args: Record<string, any>, r: MinrealResult, o: RenderOptions): string {
  const out: string[] = [];
  const nIn = Array.isArray(args.den) ? polyStrip(args.den).length - 1 : (args.A as Matrix).length;
  out.push(`**Minimal realisation:** ${dims2(r)} (from ${nIn}); ${r.removed.length ? `removed ${list(r.removed, o)}` : 'already minimal, nothing removed'}.`);
  if (r.num && r.den) out.push(tfLine('H', r.num, r.den, r.Ts, o));
  if (r.cancelled) {
    if (r.cancelled.length)
      out.push(
        `**Cancelled pole-zero pairs** (a root of both num and den to a relative backward error tol = ${fmt(r.tol)}): ${r.cancelled
          .map((c) => `zero ${fmtComplex(c.zero, o.digits)} with pole ${fmtComplex(c.pole, o.digits)}`)
          .join('; ')}.`,
      );
  } else {
    out.push(`**Uncontrollable modes removed:** ${list(r.uncontrollable ?? [], o)}. **Unobservable modes removed:** ${list(r.unobservable ?? [], o)}.`);
    if (args.tol !== undefined)
      out.push(
        `tol applies to transfer functions; a state-space model is reduced by the controllability staircase with its own tolerance (n²·ε·‖[A B]‖, as SLICOT), so tol = ${fmt(r.tol)} was not used.`,
      );
  }
  out.push(...matrices(r, o));
  const unstable = r.removed.filter((p) => (r.Ts > 0 ? Math.hypot(p[0], p[1]) >= 1 : p[0] >= 0));
  if (unstable.length) out.push(`**Caution:** removed unstable mode${unstable.length === 1 ? '' : 's'} ${list(unstable, o)}: the reduced model hides them.`);
  return out.join('\n\n');
}

// ------------------------------------------------------------------ code

/** one system argument as code: a number, tf(num, den) or ss(A, B, C, D) */
export function sysCode(code: Code, name: string, v: unknown, Ts: number): void {
  const M = code.lang === 'matlab';
  const ts = Ts > 0 ? `, ${numLit(Ts, code.lang)}` : '';
  const k = name.replace(/^sys/, ''); // sys1 -> num1, den1, A1, ...
  if (typeof v === 'number') {
    code.assign(name, numLit(v, code.lang));
    return;
  }
  const o = v as Record<string, any>;
  // a MIMO transfer matrix or a zero-pole-gain system (codegen/tfm.ts)
  if (o.k !== undefined) {
    code.assign(name, zpkExpr(o.z, o.p, o.k, code.lang, Ts));
    return;
  }
  if (isTfMatrixValue(o.num)) {
    code.assign(name, tfMatrixExpr(o.num, o.den, code.lang, Ts));
    return;
  }
  if (Array.isArray(o.num) || typeof o.num === 'number') {
    const vec = (x: unknown) => vecLit(typeof x === 'number' ? [x] : (x as number[]), code.lang);
    code.assign(`num${k}`, vec(o.num)).assign(`den${k}`, vec(o.den));
    code.assign(name, `${M ? 'tf' : 'ct.tf'}(num${k}, den${k}${ts})`);
    return;
  }
  const asM = (x: unknown): Matrix => (typeof x === 'number' ? [[x]] : isRows(x) ? x : Array.isArray(x) ? [x as number[]] : []);
  const A = asM(o.A);
  const D = o.D !== undefined && o.D !== null ? asM(o.D) : asM(o.C).map(() => (asM(o.B)[0] ?? []).map(() => 0));
  if (!A.length || !A[0].length) {
    code.comment(`${name}: a static gain (no states)`).mat(`D${k}`, D);
    code.assign(name, M ? `ss(D${k}${ts})` : `ct.ss(np.zeros((0, 0)), np.zeros((0, ${D[0].length})), np.zeros((${D.length}, 0)), D${k}${ts})`);
    return;
  }
  code.mat(`A${k}`, A).mat(`B${k}`, asM(o.B)).mat(`C${k}`, asM(o.C)).mat(`D${k}`, D);
  code.assign(name, `${M ? 'ss' : 'ct.ss'}(A${k}, B${k}, C${k}, D${k}${ts})`);
}

export function resultExpect(code: Code, r: InterconnectResult | MinrealResult | undefined, poles: boolean): void {
  if (!r) return;
  code.comment(verdictHolder);
  if (r.num && r.den) code.expect('num', r.num).expect('den', r.den);
  else
    code.comment(
      `  ${r.A.length} states, ${r.D[0]?.length ?? 0} inputs, ${r.D.length} outputs (realisations differ by a change of coordinates: compare tf(T))`,
    );
  if (poles && 'poles' in r && r.poles) code.expect('poles', `[${r.poles.map((p) => fmtComplex(p, 17)).join(', ')}]`);
}

function tsOf(args: Record<string, any>): number {
  const all = [args.sys1, args.sys2, ...(Array.isArray(args.systems) ? args.systems : [])];
  for (const v of all) if (v && typeof v === 'object' && typeof v.Ts === 'number' && v.Ts > 0) return v.Ts;
  return 0;
}

function interconnectCode(tool: 'series' | 'parallel' | 'feedback' | 'append') {
  return {
    title: { series: 'series connection sys2*sys1', parallel: 'parallel connection', feedback: 'feedback loop', append: 'block-diagonal append' }[tool],
    gen(code: Code, a: Record<string, any>, r: InterconnectResult | undefined) {
      const M = code.lang === 'matlab';
      const Ts = tsOf(a);
      const ct = M ? '' : 'ct.';
      if (tool === 'append') {
        const names = (a.systems as unknown[]).map((_, i) => `sys${i + 1}`);
        (a.systems as unknown[]).forEach((v, i) => sysCode(code, names[i], v, Ts));
        code.assign('T', `${ct}append(${names.join(', ')})`);
      } else {
        sysCode(code, 'sys1', a.sys1, Ts);
        sysCode(code, 'sys2', a.sys2 ?? 1, Ts);
        if (tool === 'series') code.assign('T', `${ct}series(sys1, sys2)${M ? '' : ''}`).comment('sys2*sys1: the output of sys1 drives the input of sys2');
        if (tool === 'parallel') code.assign('T', a.sign === -1 ? `${ct}parallel(sys1, -sys2)` : `${ct}parallel(sys1, sys2)`);
        if (tool === 'feedback') {
          const sign = a.sign === 1 ? 1 : -1;
          if (a.feedin || a.feedout) {
            const fi = (a.feedin ?? []) as number[],
              fo = (a.feedout ?? []) as number[];
            if (M) code.assign('T', `feedback(sys1, sys2, ${vecLit(fi, 'matlab')}, ${vecLit(fo, 'matlab')}${sign === 1 ? ', +1' : ''})`);
            else {
              code.comment("python-control's feedback has no feedin/feedout: the loop's channels are selected with gain matrices");
              code.line('sys1 = ct.ss(sys1)').line('sys2 = ct.ss(sys2)');
              code.line(`feedin = np.array([${fi.join(', ')}]) - 1; feedout = np.array([${fo.join(', ')}]) - 1`);
              code.line('Ein = np.eye(sys1.ninputs)[:, feedin]; Fout = np.eye(sys1.noutputs)[feedout, :]');
              code.line('H = ct.ss(sys2.A, sys2.B @ Fout, Ein @ sys2.C, Ein @ sys2.D @ Fout, sys2.dt)');
              code.line(`T = ct.feedback(sys1, H, sign=${sign})`);
            }
          } else code.assign('T', M ? `feedback(sys1, sys2${sign === 1 ? ', +1' : ''})` : `ct.feedback(sys1, sys2, sign=${sign})`);
        }
      }
      code
        .assign('T', M ? 'minreal(T)' : 'ct.minreal(T, verbose=False)')
        .comment('our result is minimal; MATLAB and python-control return the full interconnection');
      if (tool === 'feedback') code.line(M ? 'p = pole(feedback(sys1, sys2))   % closed-loop poles of the whole loop' : 'p = T.poles()');
      resultExpect(code, r, tool === 'feedback');
    },
  };
}

// ------------------------------------------------------------------ plots

/** step and Bode of the result (SISO), its pole map otherwise */
export function resultPlots<R extends InterconnectResult | MinrealResult>(_args: Record<string, any>, r: R | undefined): PlotSpec[] {
  if (!r) return [];
  const Ts = r.Ts > 0 ? { Ts: r.Ts } : {};
  if (r.num && r.den) {
    const sys = { num: r.num, den: r.den, ...Ts };
    return [
      { kind: 'step', args: sys, title: 'Plot step response' },
      { kind: 'bode', args: sys, title: 'Plot Bode' },
    ];
  }
  if (!r.A.length) return [];
  return [{ kind: 'pzmap', args: { A: r.A, B: r.B, C: r.C, D: r.D, ...Ts }, title: 'Plot poles and zeros' }];
}

// ------------------------------------------------------------------ the tools

const SYSTEM_NOTE = 'a number (static gain), {A, B, C, D?, Ts?} or {num, den, Ts?}';
const signProp = (def: number, what: string): JsonSchema => ({ type: 'integer', enum: [-1, 1], default: def, description: what });
const channels = (what: string): JsonSchema => ({
  type: 'array',
  items: { type: 'integer', minimum: 1 },
  description: `${what} (1-based channel numbers, as MATLAB's feedback)`,
});

const RESULT_NOTE =
  'Returns A, B, C, D of a minimal realisation, Ts, and num/den when SISO (common factors cancelled), and removed (the poles the reduction removed).';

export const tools = [
  tool({
    name: 'series',
    words: {
      calls: [{ names: ['series'], args: ['sys1', 'sys2'] }],
      phrases: [
        'in series',
        'series connection',
        'series interconnection',
        'connect in series',
        'connected in series',
        'cascade connection',
        'cascade of',
        'in cascade',
      ],
      example: '/series G1 = 1/(s+1), G2 = 2/(s+3)',
      // an everyday word ("a series RLC circuit", "state feedback"): the tool by its call or phrases only
      name: 'call-only',
    },
    title: 'Series connection',
    brief: 'sys2·sys1: output of sys1 into the input of sys2.',
    description: `Series (cascade) connection T = sys2·sys1: the output of sys1 drives the input of sys2 (MATLAB series(sys1, sys2), python-control series(sys1, sys2)). Each system is ${SYSTEM_NOTE}; a number k is k·I. ${RESULT_NOTE}`,
    parameters: {
      type: 'object',
      properties: { sys1: systemArg('the first system (its output drives sys2)'), sys2: systemArg('the second system') },
      required: ['sys1', 'sys2'],
      additionalProperties: false,
    },
    run: runSeries,
    intro: null,
    render: (a, r: InterconnectResult, o) => renderInterconnect('series', a, r, o),
    code: interconnectCode('series'),
    model: BY_LOOKUP,
    plots: resultPlots,
  }),
  tool({
    name: 'parallel',
    words: {
      calls: [{ names: ['parallel'], args: ['sys1', 'sys2'] }],
      phrases: ['in parallel', 'parallel connection', 'parallel interconnection', 'connected in parallel', 'connect in parallel'],
      example: '/parallel G1 = 1/(s+1), G2 = 1/(s+2)',
      // an everyday word ("a series RLC circuit", "state feedback"): the tool by its call or phrases only
      name: 'call-only',
    },
    title: 'Parallel connection',
    brief: 'sys1 + sign·sys2: same input, outputs summed.',
    description: `Parallel connection T = sys1 + sign·sys2 (sign +1 default, −1 for sys1 − sys2): the same input to both, their outputs summed (MATLAB parallel(sys1, sys2), python-control parallel(sys1, sys2)). Each system is ${SYSTEM_NOTE}; a number k adds k to every channel (MATLAB's scalar expansion). ${RESULT_NOTE}`,
    parameters: {
      type: 'object',
      properties: {
        sys1: systemArg('the first system'),
        sys2: systemArg('the second system'),
        sign: signProp(1, '+1 (default): sys1 + sys2; −1: sys1 − sys2'),
      },
      required: ['sys1', 'sys2'],
      additionalProperties: false,
    },
    run: runParallel,
    intro: null,
    render: (a, r: InterconnectResult, o) => renderInterconnect('parallel', a, r, o),
    code: interconnectCode('parallel'),
    model: BY_LOOKUP,
    plots: resultPlots,
  }),
  tool({
    name: 'feedback',
    words: {
      calls: [{ names: ['feedback'], args: ['sys1', 'sys2', 'feedin', 'feedout', 'sign'], keywords: { sign: 'sign' } }],
      phrases: [
        'close the loop',
        'feedback connection',
        'feedback interconnection',
        'feedback loop of',
        'close the loop around',
        'closed-loop transfer function of',
        'closed loop transfer function of',
      ],
      weak: ['unity feedback', 'negative feedback', 'positive feedback'],
      example: '/feedback G = 1/(s^2 + 2s + 1)',
      // an everyday word ("a series RLC circuit", "state feedback"): the tool by its call or phrases only
      name: 'call-only',
    },
    title: 'Feedback connection',
    brief: 'Closed loop of sys1 (forward) with sys2 (return, default 1), sign −1 negative.',
    description: `Feedback loop T = sys1/(1 − sign·sys1·sys2), MIMO (I − sign·sys1·sys2)⁻¹·sys1: sys1 in the forward path, sys2 in the return path (default 1: unity feedback), sign −1 (default) negative feedback, +1 positive (MATLAB feedback(sys1, sys2, sign), python-control feedback(sys1, sys2, sign)). feedin/feedout (1-based) choose the inputs and outputs of sys1 the loop uses, as MATLAB feedback(sys1, sys2, feedin, feedout). Each system is ${SYSTEM_NOTE}; a number k is k·I. A singular algebraic loop (I − sign·D1·D2 singular) is refused. ${RESULT_NOTE} Also poles: the closed-loop poles of the whole loop.`,
    parameters: {
      type: 'object',
      properties: {
        sys1: systemArg('the forward-path system (plant, or controller times plant)'),
        sys2: systemArg('the return-path system (sensor or controller); default 1, unity feedback'),
        sign: signProp(-1, '−1 (default): negative feedback; +1: positive feedback'),
        feedin: channels('inputs of sys1 the loop feeds back into; default all'),
        feedout: channels('outputs of sys1 fed back; default all'),
      },
      required: ['sys1'],
      additionalProperties: false,
    },
    run: runFeedback,
    intro: null,
    render: (a, r: InterconnectResult, o) => renderInterconnect('feedback', a, r, o),
    code: interconnectCode('feedback'),
    model: BY_LOOKUP,
    plots: resultPlots,
  }),
  tool({
    name: 'append',
    words: {
      calls: [{ names: ['append', 'blkdiag'], args: ['systems'] }],
      phrases: ['append the systems', 'block diagonal system', 'block-diagonal system', 'stack the systems', 'side by side systems'],
      example: '/append G1 = 1/(s+1), G2 = 2/(s+3)',
      // an everyday word ("a series RLC circuit", "state feedback"): the tool by its call or phrases only
      name: 'call-only',
    },
    title: 'Append systems (block diagonal)',
    brief: 'Block-diagonal system: inputs and outputs of each stacked.',
    description: `Appends systems block-diagonally: inputs and outputs stacked in order, no coupling (MATLAB append(sys1, sys2, …), python-control append). Each system is ${SYSTEM_NOTE}. ${RESULT_NOTE}`,
    parameters: {
      type: 'object',
      properties: {
        systems: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_APPEND,
          items: systemArg('a system'),
          description: `the systems, in order (at most ${MAX_APPEND})`,
        },
      },
      required: ['systems'],
      additionalProperties: false,
    },
    run: runAppend,
    intro: null,
    render: (a, r: InterconnectResult, o) => renderInterconnect('append', a, r, o),
    code: interconnectCode('append'),
    model: BY_LOOKUP,
    plots: resultPlots,
  }),
  tool({
    name: 'minreal',
    words: {
      calls: [
        { names: ['minreal'], args: ['sys', 'tol'] },
        { names: ['minreal'], args: ['A', 'B', 'C', 'D', 'tol'] },
      ],
      phrases: [
        'minimal realization',
        'minimal realisation',
        'minimal state-space',
        'minimal state space',
        'pole-zero cancellation',
        'pole zero cancellation',
        'pole-zero cancellations',
        'cancel common factors',
        'cancel the common factors',
        'cancel the common pole-zero pair',
        'cancel the common pole',
        'common pole-zero pair',
        'cancel the pole-zero pair',
        'remove uncontrollable and unobservable',
        'remove the uncontrollable',
        'remove the unobservable',
      ],
      example: '/minreal num=[1, 1], den=[1, 3, 2]',
    },
    title: 'Minimal realisation',
    brief: 'Minimal realisation of num/den or (A, B, C, D); lists what it removes.',
    description:
      "Minimal realisation (MATLAB/python-control minreal). State space (A, B, C, D): the uncontrollable modes removed by the controllability staircase, then the unobservable ones by the dual (its tolerance n²·ε·‖[A B]‖). Transfer function num/den: common pole-zero pairs cancelled; a root cancels when it is a root of both polynomials to a relative backward error tol (default sqrt(eps) ≈ 1.5e-8, MATLAB minreal's default). Returns A, B, C, D (and num/den when SISO), removed (the poles removed), uncontrollable/unobservable (state space) or cancelled (the pairs).",
    parameters: {
      type: 'object',
      properties: {
        ...ssProps,
        ...tfProps,
        ...tsProp,
        tol: { type: 'number', exclusiveMinimum: 0, description: 'cancellation tolerance for num/den (relative backward error; default sqrt(eps))' },
      },
      additionalProperties: false,
    },
    run: runMinreal,
    intro: null,
    render: renderMinreal,
    code: {
      title: 'minimal realisation',
      gen(code, a, r) {
        const M = code.lang === 'matlab';
        const Ts = typeof a.Ts === 'number' && a.Ts > 0 ? a.Ts : 0;
        const ts = Ts > 0 ? `, ${numLit(Ts, code.lang)}` : '';
        if (Array.isArray(a.num)) {
          code.assign('num', vecLit(a.num, code.lang)).assign('den', vecLit(a.den, code.lang));
          code.assign('sys', `${M ? 'tf' : 'ct.tf'}(num, den${ts})`);
        } else {
          const A = a.A as Matrix;
          const D = isRows(a.D) && a.D.length ? (a.D as Matrix) : (a.C as Matrix).map(() => ((a.B as Matrix)[0] ?? []).map(() => 0));
          code.mat('A', A).mat('B', a.B).mat('C', a.C).mat('D', D);
          code.assign('sys', `${M ? 'ss' : 'ct.ss'}(A, B, C, D${ts})`);
        }
        const tol = a.tol !== undefined ? `, ${numLit(a.tol, code.lang)}` : '';
        code.assign('sysr', M ? `minreal(sys${tol})` : `ct.minreal(sys${tol}, verbose=False)`);
        resultExpect(code, r, false);
        if (r) code.expect('removed', `[${r.removed.map((p) => fmtComplex(p, 17)).join(', ')}]`);
      },
    },
    model: BY_LOOKUP,
    plots: resultPlots,
  }),
];
