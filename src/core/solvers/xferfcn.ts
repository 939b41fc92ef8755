/**
 * Transfer functions and state-space models: tf2ss, ss2tf, poles and zeros (invariant zeros
 * by reduction of the Rosenbrock system pencil, as SLICOT AB08ND), DC gain.
 */
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import { renderDcgain, renderPolesZeros, renderSs2tf, renderTf2ss } from '../render/results.js';
import { renderSs2tfMimo, renderTf2ssMimo } from '../render/tfmatrix.js';
import { ss2tfMimoCode, tf2ssMimoCode } from '../codegen/tfm.js';
import { isTfMatrixValue, readTfMatrix, realiseTfMatrix, tfCoeffs, type TfEntry } from './_tfm.js';
import { GENERATORS, systemCode } from '../codegen/code.js';
import { systemPlots } from '../plot/specs.js';
import type { Complex } from '../types.js';
import type { Matrix } from '../types.js';
import {
  EPS,
  add,
  blocks,
  block,
  clone,
  eye,
  fromRows,
  luFactor,
  luSolve,
  maxAbs,
  mul,
  mulVec,
  norm1,
  normF,
  scale,
  transpose,
  zeros,
  type Mat,
} from '../linalg/dense.js';
import { hessenbergQ } from '../linalg/hessenberg.js';
import { qrp } from '../linalg/qr.js';
import { eigvalsSorted } from '../linalg/schur.js';
import { eigenvalues } from './statesp.js';
import { polyadd, polyFromRoots, polyPad, polyRoots, polyStrip } from '../linalg/poly.js';
import { cplx, normalizeTf, readSS, readTF, readTfOrSs, scaleGuard, sortComplex, ssProps, tf2ss, tfProps, tsProp, type Realization, type SS } from './_sys.js';

// ------------------------------------------------------------------ tf <-> ss

// tf2ss and normalizeTf live in _sys.ts (readSystemArg realises a transfer function too); re-exported here
export { normalizeTf, tf2ss, type Realization };

/** eigenvalues, sorted (none for n = 0) */
const eigs = (A: Mat): Complex[] => (A.r ? eigvalsSorted(A) : []);

/** characteristic polynomial of A (monic, from the eigenvalues) */
export function charpoly(A: Mat): number[] {
  return polyFromRoots(eigs(A));
}

/** SISO transfer function of (A, B, C, D): den = det(sI - A), num = det(sI - A + BC) + (D - 1) den */
export function ss2tf(Ar: Matrix, Br: Matrix, Cr: Matrix, Dr: Matrix, clean = false): { num: number[]; den: number[] } {
  const A = fromRows(Ar);
  const n = A.r;
  const den = charpoly(A);
  const d = Dr[0][0];
  if (n === 0) return { num: [d], den: [1] };
  const B = fromRows(Br),
    C = fromRows(Cr);
  // det(sI − A + tBC) − det(sI − A) = t·N(s), N the numerator of C(sI − A)⁻¹B. The difference
  // is accurate to ε·‖A‖^k only, so BC is scaled by a power of 2 t to the size of A first (and
  // N divided by t after, exact): with ‖BC‖ = 1e-61 against ‖A‖ = 1e-30, A − BC rounded to A
  // and the numerator came out 0. Only for a ratio beyond 2^10 (otherwise as before)
  const nbc = maxAbs(B) * maxAbs(C);
  const na = maxAbs(A);
  const kt = nbc > 0 && na > 0 ? Math.max(-1000, Math.min(1000, Math.round(Math.log2(na / nbc)))) : 0;
  const t = Math.abs(kt) > 10 ? 2 ** kt : 1;
  const ABC = add(A, mul(scale(B, t), C), -1);
  const cABC = charpoly(ABC);
  // clean (the ss2tf tool's answer): a coefficient of the difference no larger than the rounding
  // of the two it is taken from is zero (A = [0.9 0.1; 0 0.8] gave '2.22045e-16 s + 0.1' for 0.1):
  // each charpoly coefficient carries about n·ε of its own size, so a difference within 8n·ε of
  // theirs is that rounding. Internal callers (dcgain's coefficient ratio) keep the raw difference
  const N = cABC.map((v, k) => (clean && Math.abs(v - den[k]) <= 8 * n * Number.EPSILON * (Math.abs(v) + Math.abs(den[k])) ? 0 : (v - den[k]) / t));
  const num = polyadd(N, den, d);
  num[0] = d; // exact leading coefficient
  return { num: polyPad(num, n + 1), den };
}

// ------------------------------------------------------------------ invariant zeros

interface Sys4 {
  A: Mat;
  B: Mat;
  C: Mat;
  D: Mat;
}

/** inputs of a reduced system: B's columns, or D's when B has no rows */
const inputsOf = (s: { B: Mat; D: Mat }, none: number) => (s.B.r ? s.B.c : s.D.r ? s.D.c : none);

/** rows r0..r0+nr−1 of M */
const rowsOf = (M: Mat, r0: number, nr: number) => block(M, r0, 0, nr, M.c);

/** [X; Y] */
const stack = (X: Mat, Y: Mat): Mat => {
  const M = zeros(X.r + Y.r, X.r ? X.c : Y.c);
  M.d.set(X.d);
  M.d.set(Y.d, X.d.length);
  return M;
};

/**
 * One pass of the Emami-Naeini/Van Dooren reduction: returns a system with the same finite
 * invariant zeros whose D has full row rank.
 */
function reduceFullRowRankD(sys: Sys4, tol: number): Sys4 {
  let { A, B, C, D } = sys;
  for (let guard = 0; guard < 1000; guard++) {
    const n = A.r;
    const p = C.r;
    const m = inputsOf({ B, D }, 0);
    if (p === 0) return { A, B, C, D };
    // row compression of D: Q' D = [D1; 0]
    let sigma: number;
    let Ct: Mat;
    let Dt: Mat;
    if (m > 0) {
      const f = qrp(D, undefined, tol);
      sigma = f.rank;
      const Qt = transpose(f.Q);
      Ct = n ? mul(Qt, C) : zeros(p, 0);
      Dt = mul(Qt, D);
      Dt.d.fill(0, sigma * Dt.c);
    } else {
      sigma = 0;
      Ct = C;
      Dt = D;
    }
    if (sigma === p) return { A, B, C: Ct, D: Dt };
    const C1 = rowsOf(Ct, 0, sigma);
    const D1 = rowsOf(Dt, 0, sigma);
    const C2 = rowsOf(Ct, sigma, p - sigma);
    if (n === 0) return { A, B, C: C1, D: D1 };
    // column compression of C2: C2 V = [0, G], G of full column rank rho
    const g = qrp(transpose(C2), undefined, tol);
    const rho = g.rank;
    if (rho === 0) return { A, B, C: C1, D: D1 }; // zero rows: drop them
    const W = g.Q;
    const order = [...Array.from({ length: n - rho }, (_, k) => rho + k), ...Array.from({ length: rho }, (_, k) => k)];
    const V = zeros(n, n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) V.d[i * n + j] = W.d[i * n + order[j]];
    const Vt = transpose(V);
    const At = mul(mul(Vt, A), V);
    const Bt = mul(Vt, B);
    const C1t = sigma ? mul(C1, V) : zeros(0, n);
    const n1 = n - rho;
    A = block(At, 0, 0, n1, n1);
    const A21 = block(At, n1, 0, rho, n1);
    B = rowsOf(Bt, 0, n1);
    const B2 = rowsOf(Bt, n1, rho);
    C = stack(A21, block(C1t, 0, 0, sigma, n1));
    D = stack(B2, D1);
  }
  throw new Error('zero reduction did not terminate');
}

/**
 * Invariant (transmission) zeros of (A, B, C, D): finite values where the Rosenbrock pencil
 * [A - sI, B; C, D] loses rank. Reduction to D square invertible on the system and its dual
 * (orthogonal compressions with rank decisions), then the eigenvalues of A - B D^-1 C.
 */
export function invariantZeros(Ar: Matrix, Br: Matrix, Cr: Matrix, Dr: Matrix): Complex[] {
  const A = fromRows(Ar),
    C = fromRows(Cr),
    D = fromRows(Dr);
  const n = A.r;
  const p = C.r;
  // B = [] (no states) holds no column count: then D's
  const B = n ? fromRows(Br) : zeros(0, D.c);
  const m = inputsOf({ B, D }, 0);
  const svlmax = normF(
    blocks([
      [A, B],
      [C, D],
    ]),
  );
  if (svlmax === 0) return [];
  const tol = Math.sqrt((n + p) * (n + m)) * EPS * svlmax;
  let s = reduceFullRowRankD({ A, B, C, D }, tol);
  const mu = s.C.r;
  if (s.A.r === 0) return [];
  const mCur = inputsOf(s, m);
  if (mu !== mCur) {
    // pertranspose: the dual system has D' of full column rank; reduce it as well
    const dual = reduceFullRowRankD({ A: transpose(s.A), B: transpose(s.C), C: transpose(s.B), D: transpose(s.D) }, tol);
    s = dual; // zeros of the dual are the zeros of the system
  }
  const nr = s.A.r;
  if (nr === 0) return [];
  const k = s.D.r;
  if (k === 0) return eigs(s.A);
  if (s.D.c !== k) {
    // not square: the pencil has no finite zeros left beyond its normal rank (non-square case)
    return [];
  }
  const f = luFactor(s.D);
  if (f.singular) return [];
  const DinvC = luSolve(f, s.C);
  return eigs(add(s.A, mul(s.B, DinvC), -1));
}

// ------------------------------------------------------------------ minimal SISO realisation

const norm2 = (v: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  return Math.sqrt(s);
};

/** controllable part of (A, b, c) by a Hessenberg staircase started from b */
function controllablePart(A: Mat, b: number[], c: number[], tol: number): { A: Mat; b: number[]; c: number[] } {
  const n = A.r;
  const nb = norm2(b);
  if (n === 0 || nb <= tol) return { A: zeros(0, 0), b: [], c: [] };
  const { H, Q, b0 } = hessenbergQ(A, b);
  let k = n;
  for (let i = 0; i < n - 1; i++)
    if (Math.abs(H.d[(i + 1) * n + i]) <= tol) {
      k = i + 1;
      break;
    }
  const cq = mulVec(transpose(Q), c); // (c Q)' = Q' c'
  const bb = new Array(k).fill(0);
  bb[0] = b0!;
  return { A: block(H, 0, 0, k, k), b: bb, c: Array.from(cq.subarray(0, k)) };
}

/** minimal realisation of a SISO channel (orthogonal staircase, controllable then observable) */
export function minimalSiso(A: Mat, b: number[], c: number[]): { A: Mat; b: number[]; c: number[] } {
  const n = A.r;
  const nrm = Math.max(normF(A), norm2(b), norm2(c));
  const tol = Math.max(n, 1) * 1e3 * EPS * nrm;
  const ctr = controllablePart(A, b, c, tol);
  if (ctr.A.r === 0) return ctr;
  const obs = controllablePart(transpose(ctr.A), ctr.c, ctr.b, tol);
  return { A: transpose(obs.A), b: obs.c, c: obs.b };
}

// ------------------------------------------------------------------ DC gain

function dcgainTf(num: number[], den: number[], Ts: number): number {
  let nn = polyStrip(num);
  let dd = polyStrip(den);
  if (Ts > 0) {
    // value at z = 1, deflating common factors (z - 1)
    for (let k = 0; k < dd.length; k++) {
      const dv = dd.reduce((s, v) => s + v, 0);
      const dsc = dd.reduce((s, v) => s + Math.abs(v), 0);
      const nv = nn.reduce((s, v) => s + v, 0);
      const nsc = nn.reduce((s, v) => s + Math.abs(v), 0);
      const dz = Math.abs(dv) <= 1e3 * EPS * dsc;
      const nz = Math.abs(nv) <= 1e3 * EPS * nsc;
      if (!dz) return nv / dv;
      if (!nz) return nv >= 0 ? Infinity : -Infinity;
      nn = deflate1(nn);
      dd = deflate1(dd);
    }
    return NaN;
  }
  // value at s = 0, removing common factors s
  while (nn.length > 1 && dd.length > 1 && nn[nn.length - 1] === 0 && dd[dd.length - 1] === 0) {
    nn = nn.slice(0, -1);
    dd = dd.slice(0, -1);
  }
  const d0 = dd[dd.length - 1];
  const n0 = nn[nn.length - 1];
  if (d0 === 0) return n0 === 0 ? 0 : n0 > 0 === dd.find((v) => v !== 0)! > 0 ? Infinity : -Infinity;
  return n0 / d0;
}

/** p(z) / (z - 1) by synthetic division (remainder dropped) */
function deflate1(p: number[]): number[] {
  if (p.length <= 1) return p;
  const q: number[] = [p[0]];
  for (let i = 1; i < p.length - 1; i++) q.push(p[i] + q[i - 1]);
  return q;
}

/** a vector as an n x 1 matrix */
const column = (v: number[]): Mat => ({ r: v.length, c: 1, d: Float64Array.from(v) });

/**
 * H(0) (continuous) or H(1) (discrete); a pole there that the channel sees (decided on the
 * channel's minimal realisation) gives +-Infinity. When A itself has poles there but the
 * channel cancels them, the value is the ratio of the coefficients of s^k (of (z-1)^k) in the
 * channel's numerator and denominator, k the number of such poles (L'Hopital).
 */
export function dcgainSS(sys: SS): number[][] {
  const { B, C, D, n, m, p, Ts } = sys;
  const A = fromRows(sys.A);
  const G: number[][] = Array.from({ length: p }, () => new Array(m).fill(0));
  const Mfull = Ts > 0 ? add(A, eye(n), -1) : A;
  // a pole at s = 0 (z = 1): smallest singular value of M (estimated by 1/|M^-1|) tiny against |A|
  const scaleA = Math.max(norm1(A), Ts > 0 ? 1 : 0, 1e-300);
  const nearSingular = (M: Mat) => {
    const f = luFactor(M);
    if (f.singular) return true;
    const Mi = luSolve(f, eye(M.r));
    return !(1 / norm1(Mi) > 1e3 * n * EPS * scaleA);
  };
  const singular = nearSingular(Mfull);
  let k0 = 0;
  if (singular) {
    const nrm = Math.max(1, normF(A));
    const ev = eigs(A);
    k0 = ev.filter(([re, im]) => Math.hypot(re - (Ts > 0 ? 1 : 0), im) <= Math.sqrt(EPS) * nrm).length;
  }
  const Mlu = singular ? undefined : luFactor(Mfull);
  for (let i = 0; i < p; i++)
    for (let j = 0; j < m; j++) {
      const b = B.map((r) => r[j]);
      const c = C[i].slice();
      if (Mlu) {
        const x = luSolve(Mlu, column(b)).d;
        G[i][j] = D[i][j] - c.reduce((s, v, l) => s + v * x[l], 0);
        continue;
      }
      const mr = minimalSiso(A, b, c);
      const k = mr.A.r;
      if (k === 0) {
        G[i][j] = D[i][j];
        continue;
      }
      const M = Ts > 0 ? add(mr.A, eye(k), -1) : clone(mr.A);
      if (nearSingular(M)) {
        // the channel sees the pole: sign of the response slightly to the right of it
        const delta = 1e-6 * Math.max(1, normF(mr.A));
        const Md = add(M, scale(eye(k), delta), -1);
        const x = luSolve(luFactor(Md), column(mr.b)).d;
        const val = -mr.c.reduce((s, v, l) => s + v * x[l], 0);
        G[i][j] = val >= 0 ? Infinity : -Infinity;
        continue;
      }
      // cancelled in this channel: coefficient ratio after removing the common factor
      const tf = ss2tf(
        sys.A,
        b.map((v) => [v]),
        [c],
        [[D[i][j]]],
      );
      let nn = tf.num;
      let dd = tf.den;
      if (Ts > 0) {
        for (let l = 0; l < k0; l++) {
          nn = deflate1(nn);
          dd = deflate1(dd);
        }
        G[i][j] = nn.reduce((s, v) => s + v, 0) / dd.reduce((s, v) => s + v, 0);
      } else {
        G[i][j] = nn[nn.length - 1 - k0] / dd[dd.length - 1 - k0];
      }
    }
  return G;
}

// ------------------------------------------------------------------ MIMO transfer functions

/** a MIMO num/den (p x m matrices of coefficient lists) as read; undefined for a SISO list */
function mimoTf(args: Record<string, any>, tool: string): ReturnType<typeof readTfMatrix> | undefined {
  if (!isTfMatrixValue(args.num)) {
    if (isTfMatrixValue(args.den))
      throw new ControlError(
        `${tool}: den is a matrix of coefficient lists but num is one list; give num as a p x m matrix of coefficient lists too (python-control layout).`,
      );
    return undefined;
  }
  const T = readTfMatrix(args.num, args.den, tool);
  return T;
}

/** true when A, B, C describe a model with more than one input or output */
const mimoSs = (a: Record<string, any>) =>
  (Array.isArray(a.B) && a.B.length && a.B[0].length > 1) ||
  (Array.isArray(a.C) && a.C.length > 1) ||
  (Array.isArray(a.D) && (a.D.length > 1 || (a.D[0]?.length ?? 0) > 1));

/**
 * One channel's transfer function with its own common factors cancelled: the channel's minimal
 * realisation (minimalSiso: the orthogonal staircase, controllable then observable part), then
 * ss2tf of that. num stripped of leading zeros, den monic; the zero channel is 0/1.
 */
export function channelTf(A: Mat, b: number[], c: number[], d: number): TfEntry {
  const mr = minimalSiso(A, b, c);
  const k = mr.A.r;
  if (k === 0) return { num: [d], den: [1] };
  const t = ss2tf(
    toRowsOf(mr.A),
    mr.b.map((v) => [v]),
    [mr.c],
    [[d]],
  );
  const num = polyStrip(t.num);
  return { num: num.every((v) => v === 0) ? [0] : num, den: t.den };
}

const toRowsOf = (M: Mat): Matrix => Array.from({ length: M.r }, (_, i) => Array.from(M.d.subarray(i * M.c, (i + 1) * M.c)));

/** ss2tf of a MIMO model: per entry (cancelled), and every numerator over det(sI − A) */
export function ss2tfMimo(sys: SS): Record<string, unknown> {
  const A = fromRows(sys.A);
  const cols = Array.from({ length: sys.m }, (_, j) => sys.B.map((r) => r[j]));
  const num: number[][][] = [],
    den: number[][][] = [],
    numCp: number[][][] = [];
  for (let i = 0; i < sys.p; i++) {
    num.push([]);
    den.push([]);
    numCp.push([]);
    for (let j = 0; j < sys.m; j++) {
      const d = sys.D[i][j];
      const e = sys.n ? channelTf(A, cols[j], sys.C[i], d) : { num: [d], den: [1] };
      num[i].push(e.num);
      den[i].push(e.den);
      numCp[i].push(
        sys.n
          ? ss2tf(
              sys.A,
              cols[j].map((v) => [v]),
              [sys.C[i]],
              [[d]],
            ).num
          : [d],
      );
    }
  }
  const charpolyA = sys.n ? charpoly(A) : [1];
  if (![...num.flat(2), ...den.flat(2), ...numCp.flat(2), ...charpolyA].every(Number.isFinite))
    throw new ControlError(
      'ss2tf: the transfer function coefficients overflow double precision (the coefficient of s^k grows as ‖A‖^(n−k)); rescale the time units of the model.',
      'numerical',
    );
  return { num, den, charpoly: charpolyA, num_charpoly: numCp, outputs: sys.p, inputs: sys.m };
}

// ------------------------------------------------------------------ tools

const out = (z: Complex[]) => sortComplex(z.map(([r, i]) => cplx(r, i)));

export const tools = [
  tool({
    name: 'tf2ss',
    words: {
      calls: [
        { names: ['tf2ss', 'ss'], args: ['sys'] },
        { names: ['tf2ss'], args: ['num', 'den'] },
      ],
      phrases: [
        'tf2ss',
        'state space realization',
        'state-space realization',
        'state space realisation',
        'state-space realisation',
        'to state space',
        'into state space',
        'state space form',
        'controllable canonical form',
        'realization',
        'realisation',
        'state-space representation',
        'state space representation',
        'state-space model of',
        'zustandsraum',
      ],
      example: '/tf2ss num=[1], den=[1 2 1]',
    },
    brief: 'State-space realisation (A, B, C, D) of a transfer function num/den (highest power first).',
    title: 'Transfer function to state space',
    description:
      "State-space realisation (A, B, C, D) of a proper transfer function num/den (coefficients highest power first). SISO: controllable canonical form (as SciPy tf2ss), with the normalised num (zero-padded to the length of den) and monic den. MIMO (num/den p x m matrices of coefficient lists, python-control layout; den may be one shared list): a minimal realisation, built column by column over each column's common denominator and reduced by the controllability/observability staircase; returns order, order_full (before reduction) and removed (the poles removed). Improper entries (deg num > deg den) are refused.",
    parameters: {
      type: 'object',
      properties: { num: tfCoeffs('num'), den: tfCoeffs('den') },
      required: ['num', 'den'],
      additionalProperties: false,
    },
    run(args) {
      const mimo = mimoTf(args, 'tf2ss');
      // a 1x1 matrix is the SISO transfer function: the SISO path's result
      if (mimo && mimo.p === 1 && mimo.m === 1) {
        const r = tf2ss(mimo.entries[0][0].num, mimo.entries[0][0].den);
        return { A: r.A, B: r.B, C: r.C, D: r.D, num: r.num, den: r.den };
      }
      if (mimo) {
        const r = realiseTfMatrix(mimo, 'tf2ss');
        const num = mimo.entries.map((row) => row.map((e) => e.num));
        const den = mimo.entries.map((row) => row.map((e) => e.den));
        return { A: r.A, B: r.B, C: r.C, D: r.D, num, den, order: r.A.length, order_full: r.order_full, removed: r.removed.map(([a, b]) => cplx(a, b)) };
      }
      const { num, den } = readTF(args, 'tf2ss');
      const r = tf2ss(num, den);
      return { A: r.A, B: r.B, C: r.C, D: r.D, num: r.num, den: r.den };
    },
    intro: null,
    render: (a, r, o) => (typeof r.order === 'number' ? renderTf2ssMimo(a, r, o) : renderTf2ss(a, r, o)),
    code: { title: GENERATORS.tf2ss.title, gen: (code, a, r) => (isTfMatrixValue(a.num) ? tf2ssMimoCode(code, a, r) : GENERATORS.tf2ss.gen(code, a, r)) },
    model: BY_LOOKUP,
    plots: { none: 'a realisation; plot the system with a step or Bode request' },
  }),
  tool({
    name: 'ss2tf',
    words: {
      calls: [
        { names: ['ss2tf', 'tf'], args: ['sys'] },
        { names: ['ss2tf'], args: ['A', 'B', 'C', 'D'] },
      ],
      phrases: [
        'ss2tf',
        'transfer function of',
        'to transfer function',
        'into a transfer function',
        'to a transfer function',
        'transfer function from',
        'to tf',
        'to transfer fn',
        'state space to transfer function',
        'transfer matrix',
        'transfer function matrix',
      ],
      weak: ['transfer function', 'transfer fn', 'tf'],
      example: '/ss2tf A=[0 1; -2 -3], B=[0;1], C=[1 0], D=0',
    },
    title: 'State space to transfer function',
    description:
      "Transfer function num/den of a state-space model (A, B, C, D), coefficients highest power first. SISO: den = det(sI - A) (monic), num zero-padded to the length of den; no pole-zero cancellation (as MATLAB/SciPy ss2tf). MIMO: num/den are p x m matrices of coefficient lists (python-control layout), each entry from the minimal realisation of its own channel (its common factors cancelled, as MATLAB tf(sys) gives per entry), plus charpoly = det(sI - A) and num_charpoly, every entry's numerator over charpoly (MATLAB ss2tf(A,B,C,D,iu) per input).",
    parameters: {
      type: 'object',
      properties: { ...ssProps, ...tsProp },
      required: ['A', 'B', 'C'],
      additionalProperties: false,
    },
    run(args) {
      const sys = readSS(args, 'ss2tf');
      scaleGuard(sys, 'ss2tf');
      // a discrete model's transfer function is in z, with its sample time (the algebra is the same)
      const Ts = sys.Ts > 0 ? { Ts: sys.Ts } : {};
      if (sys.m !== 1 || sys.p !== 1) return { ...ss2tfMimo(sys), ...Ts };
      const r = { ...ss2tf(sys.A, sys.B, sys.C, sys.D, true), ...Ts };
      // coefficients grow as ‖A‖^k: past 1.8e308 they are no numbers
      if (![...r.num, ...r.den].every(Number.isFinite))
        throw new ControlError(
          'ss2tf: the transfer function coefficients overflow double precision (the coefficient of s^k grows as ‖A‖^(n−k)); rescale the time units of the model.',
          'numerical',
        );
      return r;
    },
    intro: null,
    render: (a, r, o) => (Array.isArray((r as Record<string, unknown>).charpoly) ? renderSs2tfMimo(a, r, o) : renderSs2tf(a, r)),
    code: {
      title: 'transfer function of a state-space model',
      gen: (code, a, r) => (mimoSs(a) ? ss2tfMimoCode(code, a, r, (c) => systemCode(c, { ...a, Ts: undefined }, 'sys')) : GENERATORS.ss2tf.gen(code, a, r)),
    },
    model: BY_LOOKUP,
    plots: { none: 'a transfer function; plot it with a step or Bode request' },
  }),
  tool({
    name: 'poles_zeros',
    words: {
      calls: [
        {
          names: ['pole', 'zero', 'pzmap', 'poles', 'zeros', 'zpkdata', 'tf2zpk', 'ss2zp', 'tf2zp', 'plzr', 'trzeros', 'pzplot', 'tzeros'],
          args: ['sys', 'type'],
        },
        { names: ['tf2zp', 'tf2zpk'], args: ['num', 'den'] },
        { names: ['ss2zp'], args: ['A', 'B', 'C', 'D'] },
      ],
      phrases: [
        'poles and zeros',
        'zeros and poles',
        'zeros of',
        'transmission zeros',
        'invariant zeros',
        'pole-zero',
        'pole zero map',
        'zeros',
        'zero locations',
      ],
      weak: ['poles', 'pole locations', 'roots'],
      example: '/poles_zeros num=[1 2], den=[1 2 5]',
    },
    brief: 'Poles and zeros of num/den or (A, B, C, D).',
    title: 'Poles and zeros',
    description:
      'Poles and (invariant/transmission) zeros of a transfer function num/den or of a state-space model (A, B, C, D), as [re, im] lists. Transfer function: roots of den and num, gain = num0/den0 (leading coefficients). State space: poles = eig(A), zeros from the Rosenbrock system pencil; gain (SISO only) = leading numerator coefficient.',
    parameters: {
      type: 'object',
      properties: { ...tfProps, ...ssProps },
      required: [],
      additionalProperties: false,
    },
    run(args) {
      const { tf, ss } = readTfOrSs(args, 'poles_zeros');
      if (tf) {
        const num = polyStrip(tf.num);
        const den = polyStrip(tf.den);
        const zerosList = num.length === 1 && num[0] === 0 ? [] : polyRoots(num);
        return { poles: out(polyRoots(den)), zeros: out(zerosList), gain: num[0] / den[0] };
      }
      const s = ss!;
      scaleGuard(s, 'poles_zeros');
      const poles = out(eigenvalues(s.A));
      const z = out(invariantZeros(s.A, s.B, s.C, s.D));
      if (s.m === 1 && s.p === 1) {
        const r = s.n - z.length;
        let gain: number;
        if (r <= 0) gain = s.D[0][0];
        else {
          let v = s.B.map((row) => row[0]);
          const A = fromRows(s.A);
          for (let k = 1; k < r; k++) v = Array.from(mulVec(A, v));
          gain = s.C[0].reduce((acc, c, l) => acc + c * v[l], 0);
        }
        if (!Number.isFinite(gain))
          throw new ControlError('poles_zeros: the gain (C·A^(r−1)·B, r the relative degree) overflows double precision; rescale the model.', 'numerical');
        return { poles, zeros: z, gain };
      }
      return { poles, zeros: z };
    },
    intro: null,
    render: renderPolesZeros,
    code: GENERATORS.poles_zeros,
    model: 'offered',
    plots: systemPlots('pzmap'),
  }),
  tool({
    name: 'dcgain',
    // a pole at s = 0 (z = 1): an infinite DC gain
    nonFinite: ['gain'],
    words: {
      calls: [{ names: ['dcgain'], args: ['sys'] }],
      phrases: ['dc gain', 'dcgain', 'steady-state gain', 'steady state gain', 'static gain', 'low-frequency gain', 'zero-frequency gain'],
      example: '/dcgain num=[2], den=[1 3 2]',
    },
    brief: 'Steady-state (DC) gain of num/den or (A, B, C, D).',
    title: 'DC gain',
    description:
      'Steady-state gain H(0) of a continuous system, or H(1) of a discrete one (Ts > 0), from num/den or (A, B, C, D); a p x m matrix. A pole at s = 0 (z = 1) that the channel sees gives Infinity (with the sign of the response near it).',
    parameters: {
      type: 'object',
      properties: { ...tfProps, ...ssProps, ...tsProp },
      required: [],
      additionalProperties: false,
    },
    run(args) {
      const { tf, ss } = readTfOrSs(args, 'dcgain');
      if (tf) return { gain: [[dcgainTf(tf.num, tf.den, tf.Ts)]] };
      scaleGuard(ss!, 'dcgain');
      return { gain: dcgainSS(ss!) };
    },
    intro: null,
    render: renderDcgain,
    code: GENERATORS.dcgain,
    model: BY_LOOKUP,
    plots: { none: 'a number per channel' },
  }),
];
