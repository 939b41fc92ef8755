/**
 * Gramians, Hankel singular values and model reduction (python-control's modelsimp.py and
 * statefbk.gram, MATLAB's gram, hsvd, balreal, balred, modred):
 *
 * - `gram`: controllability W (A W + W Aᵀ + B Bᵀ = 0; discrete A W Aᵀ − W + B Bᵀ = 0) or
 *   observability W (Aᵀ W + W A + Cᵀ C = 0; discrete Aᵀ W A − W + Cᵀ C = 0) by lyapunov.ts's
 *   Bartels-Stewart; optionally its upper-triangular Cholesky factor R with W = RᵀR (MATLAB
 *   gram(sys,'cf') and python-control gram(sys,'cf') use this convention alike);
 * - `hsvd`: σi = √λi(Wc Wo), decreasing, as the singular values of Ro Rcᵀ (square-root
 *   method: Wc = RcᵀRc, Wo = RoᵀRo);
 * - `balreal`: the square-root balanced realisation (Laub; SLICOT AB09AD with JOB = 'B'):
 *   Ro Rcᵀ = U Σ Vᵀ, T = Σ^-1/2 Uᵀ Ro, Ti = Rcᵀ V Σ^-1/2, x_b = T x, so
 *   (T A Ti, T B, C Ti, D) has both Gramians equal to Σ = diag(hsv);
 * - `balred`: the first r balanced states, truncated (python-control's default method) or
 *   with the others residualised so the DC gain is kept (MATLAB's default, 'matchdc':
 *   singular perturbation, SLICOT AB09BD); ‖G − Gr‖∞ ≤ 2 Σ_{i>r} σi either way;
 * - `modred`: eliminates given states of the model as written (MATLAB modred, 1-based).
 *
 * Conventions stated in the answers: the Gramians need a stable A (Re λ < 0, or |λ| < 1
 * discrete): hsvd, balreal and balred refuse an unstable model as python-control does (MATLAB
 * splits off the unstable part and reports its Hankel singular values as Inf); modred takes any
 * model (as MATLAB; python-control refuses unstable ones). The sign of each balanced state is
 * chosen so that the largest entry of its column of C (else of its row of B) is positive:
 * MATLAB and python-control leave it to their SVD, so their balanced states may differ from
 * ours by a sign (the transfer function and the Hankel singular values do not).
 */
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import { matrix, vector } from '../tools/schema.js';
import type { RenderOptions } from '../render/markdown.js';
import { matrixBlock, TABLE_MAX } from '../render/markdown.js';
import { fmt } from '../render/format.js';
import type { Matrix } from '../types.js';
import type { Code } from '../codegen/code.js';
import { verdictHolder } from '../codegen/code.js';
import { num as numberLiteral, vector as vectorLiteral } from '../codegen/literals.js';
import type { PlotSpec } from '../plot/specs.js';
import { isSiso } from '../plot/specs.js';
import {
  type Mat,
  EPS,
  add,
  cholesky,
  eye,
  fromRows,
  luFactor,
  luSolve,
  mul,
  mulNT,
  mulTN,
  rcondByInverse,
  toRows,
  transpose,
  zeros,
} from '../linalg/dense.js';
import { svd } from '../linalg/svd.js';
import { house } from '../linalg/qr.js';
import { prepareLyapunov } from './lyapunov.js';
import { lyapcholMat } from './matrixeq.js';
import { realSchur, schurEigenvalues } from '../linalg/schur.js';
import { tf2ss } from './xferfcn.js';
import { isEmptyMatrix, readSS, readTfOrSs, ssProps, tfProps, tsProp, type SS } from './_sys.js';
import { checkMatrix, checkSquare } from '../tools/args.js';

// ------------------------------------------------------------------ reading the model

const given = (v: unknown) => v !== undefined && v !== null;

/** A, B, C, D, or (where the tool is free of state coordinates) num/den realised by tf2ss */
function readModel(args: Record<string, any>, tool: string, tfOk: boolean): SS {
  const tfGiven = ['num', 'den'].filter((k) => given(args[k]));
  if (tfGiven.length) {
    if (!tfOk)
      throw new ControlError(
        `${tool} works on the states of a state-space model, and a transfer function (num/den) does not fix its states: give A, B, C (and D) instead.`,
      );
    // num/den beside A, B, C or D: refused as every tool does, naming what was given
    const tf = readTfOrSs(args, tool).tf!;
    const r = tf2ss(tf.num, tf.den);
    const n = r.A.length;
    return { A: r.A, B: r.B, C: n ? r.C : [[]], D: r.D, n, m: 1, p: 1, Ts: tf.Ts };
  }
  return readSS(args, tool);
}

const isDiscrete = (sys: { Ts: number }) => sys.Ts > 0;

const fmtC = ([re, im]: [number, number]) => {
  const r = +re.toPrecision(6),
    i = +Math.abs(im).toPrecision(6);
  return i === 0 ? `${r}` : `${r} ${im < 0 ? '−' : '+'} ${i}i`;
};

/** refuses an unstable model: the Gramians (integrals or sums to infinity) do not exist */
function requireStable(ev: [number, number][], discrete: boolean, tool: string): void {
  const bad = ev.filter(([re, im]) => (discrete ? Math.hypot(re, im) >= 1 : re >= 0));
  if (!bad.length) return;
  const list = bad
    .slice(0, 4)
    .map((z) => fmtC(z))
    .join(', ');
  throw new ControlError(
    `${tool} needs a stable model (every eigenvalue of A ${discrete ? 'inside the unit circle, |z| < 1' : 'in the open left half-plane, Re s < 0'}): A has ${list}${bad.length > 4 ? ', …' : ''}, so the ${discrete ? 'sums' : 'integrals'} that define the Gramians diverge. ` +
      "As python-control, this is refused; MATLAB's hsvd and balred split off the unstable part (its Hankel singular values reported as Inf) and reduce only the stable part.",
    'infeasible',
  );
}

// ------------------------------------------------------------------ Gramians and their factors

/** Wc (A W + W Aᵀ + B Bᵀ = 0) or Wo (Aᵀ W + W A + Cᵀ C = 0), discrete forms when Ts > 0; A stable */
export function gramian(sys: SS, type: 'c' | 'o', tool: string): Mat {
  const A = fromRows(sys.A);
  const discrete = isDiscrete(sys);
  const At = type === 'c' ? A : transpose(A);
  const prep = prepareLyapunov(At, discrete);
  requireStable(prep.eigenvalues, discrete, tool);
  const Q = type === 'c' ? mulNT(fromRows(sys.B), fromRows(sys.B)) : mulTN(fromRows(sys.C), fromRows(sys.C));
  return prep.solve(Q);
}

/**
 * The upper-triangular R with W = RᵀR and a nonnegative diagonal (MATLAB's chol, and the
 * factor gram(sys,'cf') returns). W positive definite: Cholesky. W semidefinite only to
 * rounding (an uncontrollable mode: the computed W has eigenvalues of ±ε‖W‖ and Cholesky
 * fails): W = V diag(s) Vᵀ by an SVD, F = diag(√s) Vᵀ, and R from the QR of F (RᵀR = FᵀF),
 * which is W to ε‖W‖.
 */
export function upperFactor(W: Mat): Mat {
  const n = W.r;
  if (n === 0) return zeros(0, 0);
  const L = cholesky(W);
  if (L) return transpose(L);
  const { s, V } = svd(W);
  const F = zeros(n, n);
  for (let i = 0; i < n; i++) {
    const r = Math.sqrt(Math.max(s[i], 0));
    for (let j = 0; j < n; j++) F.d[i * n + j] = r * V.d[j * n + i];
  }
  // Householder QR of F, R only: column j's reflector on rows j.. and columns j..
  const f = F.d;
  for (let j = 0; j < n; j++) {
    const x = new Float64Array(n - j);
    for (let i = j; i < n; i++) x[i - j] = f[i * n + j];
    const { v, beta } = house(x);
    if (beta !== 0)
      for (let c = j; c < n; c++) {
        let dot = 0;
        for (let i = j; i < n; i++) dot += v[i - j] * f[i * n + c];
        dot *= beta;
        for (let i = j; i < n; i++) f[i * n + c] -= dot * v[i - j];
      }
    for (let i = j + 1; i < n; i++) f[i * n + j] = 0;
    if (f[j * n + j] < 0) for (let c = j; c < n; c++) f[j * n + c] = -f[j * n + c];
  }
  return F;
}

// ------------------------------------------------------------------ balancing

export interface Balancing {
  /** Hankel singular values, decreasing (all n) */
  hsv: number[];
  /** singular values at or below this are zero to rounding (SLICOT AB09AD's default tolerance n·ε·σ1) */
  tolZero: number;
  U: Mat;
  V: Mat;
  Rc: Mat;
  Ro: Mat;
}

/** the square-root method's factors: Wc = RcᵀRc, Wo = RoᵀRo, Ro Rcᵀ = U Σ Vᵀ */
export function balancing(sys: SS, tool: string): Balancing {
  // the Gramians' Cholesky factors straight from A and B (A' and C') by Hammarling's method, as
  // SLICOT AB09AD does (SB03OU): no Gramian formed, so a numerically low-rank one (most
  // single-input models) needs no eigen-decomposition fallback, and it is 2-3x faster at n = 64
  const A = fromRows(sys.A);
  const discrete = isDiscrete(sys);
  requireStable(schurEigenvalues(realSchur(A).T), discrete, tool);
  const Rc = lyapcholMat(A, fromRows(sys.B), discrete);
  const Ro = lyapcholMat(transpose(A), transpose(fromRows(sys.C)), discrete);
  const { U, s, V } = svd(mulNT(Ro, Rc));
  const hsv = Array.from(s);
  return { hsv, tolZero: sys.n * EPS * (hsv[0] ?? 0), U, V, Rc, Ro };
}

export interface Projected {
  A: Mat;
  B: Mat;
  C: Mat;
  /** k x n: x_b = T x */
  T: Mat;
  /** n x k: x ≈ Ti x_b (T Ti = I) */
  Ti: Mat;
}

/** the first k balanced states: T = Σk^-1/2 Ukᵀ Ro, Ti = Rcᵀ Vk Σk^-1/2, signs by C (else B) */
export function balancedStates(sys: SS, bal: Balancing, k: number): Projected {
  const n = sys.n;
  const T = zeros(k, n),
    Ti = zeros(n, k);
  const RoT = bal.Ro; // n x n
  for (let j = 0; j < k; j++) {
    const w = 1 / Math.sqrt(bal.hsv[j]);
    // row j of T: (U(:, j)ᵀ Ro) / √σj
    for (let c = 0; c < n; c++) {
      let t = 0;
      for (let i = 0; i < n; i++) t += bal.U.d[i * bal.U.c + j] * RoT.d[i * n + c];
      T.d[j * n + c] = t * w;
    }
    // column j of Ti: (Rcᵀ V(:, j)) / √σj
    for (let r = 0; r < n; r++) {
      let t = 0;
      for (let i = 0; i < n; i++) t += bal.Rc.d[i * n + r] * bal.V.d[i * bal.V.c + j];
      Ti.d[r * k + j] = t * w;
    }
  }
  const A = fromRows(sys.A),
    B = fromRows(sys.B),
    C = fromRows(sys.C);
  let Cb = mul(C, Ti);
  let Bb = mul(T, B);
  // the sign of each balanced state: the largest entry of its column of C (else its row of B) positive
  for (let j = 0; j < k; j++) {
    let big = 0;
    for (let i = 0; i < Cb.r; i++) if (Math.abs(Cb.d[i * k + j]) > Math.abs(big)) big = Cb.d[i * k + j];
    if (Math.abs(big) <= 1e-14 * Math.sqrt(bal.hsv[0] || 1)) {
      big = 0;
      for (let i = 0; i < Bb.c; i++) if (Math.abs(Bb.d[j * Bb.c + i]) > Math.abs(big)) big = Bb.d[j * Bb.c + i];
    }
    if (big < 0) {
      for (let c = 0; c < n; c++) T.d[j * n + c] = -T.d[j * n + c];
      for (let r = 0; r < n; r++) Ti.d[r * k + j] = -Ti.d[r * k + j];
    }
  }
  Cb = mul(C, Ti);
  Bb = mul(T, B);
  return { A: mul(T, mul(A, Ti)), B: Bb, C: Cb, T, Ti };
}

/** how many Hankel singular values are above rounding (the order of a minimal realisation) */
const nonzeroCount = (bal: Balancing) => bal.hsv.filter((s) => s > bal.tolZero).length;

// ------------------------------------------------------------------ state elimination

/**
 * Eliminates the states `elim` (0-based) of (A, B, C, D): 'truncate' deletes them; 'matchdc'
 * sets their derivative to zero (continuous: x2 = −A22⁻¹(A21 x1 + B2 u)) or x2[k+1] = x2[k]
 * (discrete: x2 = (I − A22)⁻¹(A21 x1 + B2 u)), which keeps the DC gain.
 */
export function eliminate(
  A: Mat,
  B: Mat,
  C: Mat,
  D: Mat,
  elim: number[],
  method: 'truncate' | 'matchdc',
  discrete: boolean,
  tool: string,
): { A: Mat; B: Mat; C: Mat; D: Mat } {
  const n = A.r;
  const drop = new Set(elim);
  const keep = Array.from({ length: n }, (_, i) => i).filter((i) => !drop.has(i));
  const rows = (M: Mat, idx: number[]) => {
    const out = zeros(idx.length, M.c);
    idx.forEach((i, a) => out.d.set(M.d.subarray(i * M.c, (i + 1) * M.c), a * M.c));
    return out;
  };
  const cols = (M: Mat, idx: number[]) => transpose(rows(transpose(M), idx));
  const A11 = cols(rows(A, keep), keep),
    A12 = cols(rows(A, keep), elim),
    A21 = cols(rows(A, elim), keep),
    A22 = cols(rows(A, elim), elim);
  const B1 = rows(B, keep),
    B2 = rows(B, elim),
    C1 = cols(C, keep),
    C2 = cols(C, elim);
  if (method === 'truncate') return { A: A11, B: B1, C: C1, D };
  // M = −A22 (continuous) or I − A22 (discrete); x2 = M⁻¹(A21 x1 + B2 u)
  const M = discrete ? add(eye(elim.length), A22, -1) : add(zeros(elim.length, elim.length), A22, -1);
  const rc = rcondByInverse(M);
  if (!(rc > 1e3 * elim.length * EPS))
    throw new ControlError(
      `${tool} with method 'matchdc': ${discrete ? 'I − A22' : 'A22'} (the block of A on the eliminated states) is singular (reciprocal condition ${rc.toExponential(2)}): the eliminated states have a mode at ${discrete ? 'z = 1' : 's = 0'}, so their steady state is not determined. Use method 'truncate', or eliminate other states.`,
      'infeasible',
    );
  const f = luFactor(M);
  const X = luSolve(f, A21),
    Y = luSolve(f, B2);
  return { A: add(A11, mul(A12, X)), B: add(B1, mul(A12, Y)), C: add(C1, mul(C2, X)), D: add(D, mul(C2, Y)) };
}

// ------------------------------------------------------------------ the tools' computations

export interface GramResult {
  W: Matrix;
  type: 'c' | 'o';
  R?: Matrix;
}

export interface HsvdResult {
  hsv: number[];
}

export interface BalrealResult {
  A: Matrix;
  B: Matrix;
  C: Matrix;
  D: Matrix;
  hsv: number[];
  T: Matrix;
  Ti: Matrix;
  /** states of the balanced model: n, less those whose σ is zero to rounding (a non-minimal model) */
  order: number;
}

export interface BalredResult {
  A: Matrix;
  B: Matrix;
  C: Matrix;
  D: Matrix;
  hsv: number[];
  order: number;
  method: 'truncate' | 'matchdc';
  errorBound: number;
}

export interface ModredResult {
  A: Matrix;
  B: Matrix;
  C: Matrix;
  D: Matrix;
  elim: number[];
  keep: number[];
  method: 'truncate' | 'matchdc';
}

function runGram(args: Record<string, any>): GramResult {
  const type = (args.type ?? 'c') as 'c' | 'o';
  if (type !== 'c' && type !== 'o')
    throw new ControlError(`type must be 'c' (controllability Gramian) or 'o' (observability Gramian), not ${JSON.stringify(args.type)}.`);
  if (!given(args.A)) throw new ControlError('gram needs A, and B (for the controllability Gramian) or C (for the observability Gramian).');
  const need = type === 'c' ? 'B' : 'C';
  if (!given(args[need]))
    throw new ControlError(
      `gram with type '${type}' needs ${need}: the ${type === 'c' ? 'controllability Gramian solves A W + W Aᵀ + B Bᵀ = 0' : 'observability Gramian solves Aᵀ W + W A + Cᵀ C = 0'}.`,
    );
  if (['num', 'den'].some((k) => given(args[k])))
    throw new ControlError('gram works on the states of a state-space model, and a transfer function (num/den) does not fix its states: give A and B (or C).');
  const A = checkMatrix(args.A, 'A');
  if (isEmptyMatrix(A)) return { W: [], type, ...(args.factor ? { R: [] } : {}) };
  const n = checkSquare(A, 'A');
  // the matrix the type does not use only sizes the model: a stand-in of zeros (D then too)
  const full = given(args.B) && given(args.C);
  const sys = readSS(
    { A, B: args.B ?? A.map(() => [0]), C: args.C ?? [new Array(n).fill(0)], ...(full && given(args.D) ? { D: args.D } : {}), Ts: args.Ts },
    'gram',
  );
  if (sys.n === 0) return { W: [], type, ...(args.factor ? { R: [] } : {}) };
  const W = gramian(sys, type, 'gram');
  return { W: toRows(W), type, ...(args.factor ? { R: toRows(upperFactor(W)) } : {}) };
}

function runHsvd(args: Record<string, any>): HsvdResult {
  const sys = readModel(args, 'hsvd', true);
  if (sys.n === 0) return { hsv: [] };
  return { hsv: balancing(sys, 'hsvd').hsv };
}

function runBalreal(args: Record<string, any>): BalrealResult {
  const sys = readModel(args, 'balreal', true);
  if (sys.n === 0) return { A: [], B: [], C: sys.C, D: sys.D, hsv: [], T: [], Ti: [], order: 0 };
  const bal = balancing(sys, 'balreal');
  // states whose σ is zero to rounding act on nothing (uncontrollable or unobservable): left
  // out, as SLICOT AB09AD (and python-control's balred at full order) do; a balanced
  // realisation would divide by them
  const k = nonzeroCount(bal);
  if (k === 0) return { A: [], B: [], C: sys.C.map(() => []), D: sys.D, hsv: bal.hsv, T: [], Ti: [], order: 0 };
  const p = balancedStates(sys, bal, k);
  return { A: toRows(p.A), B: toRows(p.B), C: toRows(p.C), D: sys.D, hsv: bal.hsv, T: toRows(p.T), Ti: toRows(p.Ti), order: k };
}

/** relative gap below which σr and σr+1 count as one repeated value */
const REPEATED = 1e-8;

function runBalred(args: Record<string, any>): BalredResult {
  const sys = readModel(args, 'balred', true);
  const method = (args.method ?? 'truncate') as 'truncate' | 'matchdc';
  if (method !== 'truncate' && method !== 'matchdc') throw new ControlError(`method must be 'truncate' or 'matchdc', not ${JSON.stringify(args.method)}.`);
  const r = args.order;
  if (typeof r !== 'number' || !Number.isInteger(r))
    throw new ControlError(`balred needs order, the number of states to keep (an integer 1 ≤ order < n), not ${JSON.stringify(r)}.`);
  if (r < 1 || r >= sys.n)
    throw new ControlError(
      sys.n <= 1
        ? `balred: the model has ${sys.n} state${sys.n === 1 ? '' : 's'}, so there is nothing to reduce (order must satisfy 1 ≤ order < n).`
        : `balred: order ${r} is out of range: it must satisfy 1 ≤ order < ${sys.n} (the model has ${sys.n} states).`,
    );
  const bal = balancing(sys, 'balred');
  const k = nonzeroCount(bal);
  const hsv = bal.hsv;
  if (r > k)
    throw new ControlError(
      `balred: only ${k} of the ${sys.n} Hankel singular values are above rounding (${bal.tolZero.toExponential(2)}), so the minimal realisation already has ${k} state${k === 1 ? '' : 's'}; order ${r} would keep states that do not act on the output. Ask for order ≤ ${k}.`,
      'infeasible',
    );
  if (r < k && Math.abs(hsv[r - 1] - hsv[r]) <= REPEATED * hsv[r - 1])
    throw new ControlError(
      `balred: order ${r} splits a repeated Hankel singular value (σ${r} = ${fmt(hsv[r - 1])} and σ${r + 1} = ${fmt(hsv[r])} agree to ${REPEATED}): the reduced model is then not unique and need not be stable. Choose order ${r - 1 >= 1 ? `${r - 1} or ` : ''}${r + 1 < sys.n ? r + 1 : ''}`.replace(
        / or $/,
        '',
      ) + '.',
      'infeasible',
    );
  const D = fromRows(sys.D);
  let red: { A: Mat; B: Mat; C: Mat; D: Mat };
  if (method === 'truncate') {
    const p = balancedStates(sys, bal, r);
    red = { A: p.A, B: p.B, C: p.C, D };
  } else {
    // the minimal balanced realisation (k states), then its states r+1..k residualised
    const p = balancedStates(sys, bal, k);
    const elim = Array.from({ length: k - r }, (_, i) => r + i);
    red = elim.length ? eliminate(p.A, p.B, p.C, D, elim, 'matchdc', isDiscrete(sys), 'balred') : { A: p.A, B: p.B, C: p.C, D };
  }
  let tail = 0;
  for (let i = r; i < hsv.length; i++) tail += hsv[i];
  return { A: toRows(red.A), B: toRows(red.B), C: toRows(red.C), D: toRows(red.D), hsv, order: r, method, errorBound: 2 * tail };
}

function runModred(args: Record<string, any>): ModredResult {
  const sys = readModel(args, 'modred', false);
  const method = (args.method ?? 'matchdc') as 'truncate' | 'matchdc';
  if (method !== 'truncate' && method !== 'matchdc') throw new ControlError(`method must be 'matchdc' or 'truncate', not ${JSON.stringify(args.method)}.`);
  const n = sys.n;
  if (n === 0) throw new ControlError('modred: the model has no states (a static gain), so there is nothing to eliminate.');
  const elim = args.elim;
  if (!Array.isArray(elim) || !elim.length) throw new ControlError('modred needs elim, the states to eliminate (1-based, e.g. [3, 4]).');
  for (const e of elim)
    if (typeof e !== 'number' || !Number.isInteger(e) || e < 1 || e > n)
      throw new ControlError(`elim must list states between 1 and ${n} (1-based, as MATLAB; python-control counts from 0), not ${JSON.stringify(e)}.`);
  const sorted = [...new Set(elim as number[])].sort((a, b) => a - b);
  if (sorted.length !== elim.length) throw new ControlError(`elim lists a state twice: ${JSON.stringify(elim)}.`);
  if (sorted.length === n) throw new ControlError(`elim removes all ${n} states; keep at least one (the DC gain of the whole model is dcgain).`);
  const red = eliminate(
    fromRows(sys.A),
    fromRows(sys.B),
    fromRows(sys.C),
    fromRows(sys.D),
    sorted.map((e) => e - 1),
    method,
    isDiscrete(sys),
    'modred',
  );
  const keep = Array.from({ length: n }, (_, i) => i + 1).filter((i) => !sorted.includes(i));
  return { A: toRows(red.A), B: toRows(red.B), C: toRows(red.C), D: toRows(red.D), elim: sorted, keep, method };
}

// ------------------------------------------------------------------ rendering

const discreteNote = (args: Record<string, any>) => (typeof args.Ts === 'number' && args.Ts > 0 ? ` (discrete, Ts = ${fmt(args.Ts)} s)` : '');

/** the Hankel singular values as a table: share of Σσ², and the error bound of truncating after each */
export function hsvTable(hsv: number[], o: RenderOptions, order?: number): string {
  if (!hsv.length) return '**Hankel singular values:** none (the model has no states: a static gain).';
  const sq = hsv.reduce((s, x) => s + x * x, 0);
  const tails: number[] = [];
  let t = 0;
  for (let i = hsv.length - 1; i >= 0; i--) {
    tails[i] = 2 * t;
    t += hsv[i];
  }
  const head =
    order !== undefined
      ? '| i | σi | share of Σσ² | 2·Σ σ after i (bound at order i) | at this order |'
      : '| i | σi | share of Σσ² | 2·Σ σ after i (bound at order i) |';
  const sep = order !== undefined ? '|---:|---:|---:|---:|---|' : '|---:|---:|---:|---:|';
  const shown = hsv.length > TABLE_MAX ? TABLE_MAX : hsv.length;
  const rows = hsv.slice(0, shown).map((s, i) => {
    const share = sq > 0 ? `${fmt((100 * s * s) / sq, 4)} %` : '–';
    const row = `| ${i + 1} | ${fmt(s, o.digits)} | ${share} | ${fmt(tails[i], o.digits)} |`;
    return order !== undefined ? `${row} ${i < order ? 'kept' : 'discarded'} |` : row;
  });
  const more =
    hsv.length > shown
      ? [`_… ${hsv.length - shown} more, down to σ${hsv.length} = ${fmt(hsv[hsv.length - 1], o.digits)} (all in \`--json\` and the reproducing code)._`]
      : [];
  return [[head, sep, ...rows].join('\n'), ...more].join('\n\n');
}

function renderGram(args: Record<string, any>, r: GramResult, o: RenderOptions): string {
  const c = r.type === 'c';
  const disc = typeof args.Ts === 'number' && args.Ts > 0;
  const eq = c ? (disc ? 'A W Aᵀ − W + B Bᵀ = 0' : 'A W + W Aᵀ + B Bᵀ = 0') : disc ? 'Aᵀ W A − W + Cᵀ C = 0' : 'Aᵀ W + W A + Cᵀ C = 0';
  if (!r.W.length) return `**${c ? 'Controllability' : 'Observability'} Gramian:** empty (the model has no states).`;
  const out = [`**${c ? 'Controllability' : 'Observability'} Gramian** W${discreteNote(args)}, the solution of ${eq}:`, matrixBlock('W', r.W, o)];
  if (r.R)
    out.push(
      `**Cholesky factor** R, upper triangular with W = RᵀR (the convention of MATLAB's gram(sys,'${c ? 'cf' : 'of'}') and python-control's gram(sys, '${c ? 'cf' : 'of'}')):`,
      matrixBlock('R', r.R, o),
    );
  return out.join('\n\n');
}

function renderHsvd(args: Record<string, any>, r: HsvdResult, o: RenderOptions): string {
  if (!r.hsv.length) return hsvTable(r.hsv, o);
  return [
    `**Hankel singular values**${discreteNote(args)}, σi = √λi(Wc·Wo), decreasing. A state with a small σ is weakly controllable and observable together; reducing to order r costs at most ‖G − Gr‖∞ ≤ 2·Σ σ after r (balanced truncation):`,
    hsvTable(r.hsv, o),
  ].join('\n\n');
}

function renderBalreal(args: Record<string, any>, r: BalrealResult, o: RenderOptions): string {
  if (!r.hsv.length) return '**Balanced realisation:** the model has no states (a static gain D); there is nothing to balance.';
  const n = r.hsv.length;
  const dropped = n - r.order;
  return [
    `**Balanced realisation**${discreteNote(args)} (square-root method): x_b = T x, both Gramians equal diag(σ). Each state's sign makes the largest entry of its column of C positive (MATLAB's balreal may differ by a sign per state).`,
    ...(dropped
      ? [
          `**${dropped} of the ${n} states left out:** their Hankel singular values are zero to rounding (at most n·ε·σ1), so they are uncontrollable or unobservable and do not act on the input-output map; the balanced model has the ${r.order} others (as SLICOT AB09AD and python-control's balred at full order; a balanced realisation would divide by them).`,
        ]
      : []),
    hsvTable(r.hsv, o),
    ...(['A', 'B', 'C', 'D', 'T', 'Ti'] as const).map((k) => matrixBlock(k, r[k], o)),
  ].join('\n\n');
}

const methodText = (m: string) =>
  m === 'truncate'
    ? "balanced truncation (python-control's balred default; MATLAB's balred defaults to matched DC gain: method 'matchdc')"
    : "matched DC gain: the discarded balanced states residualised, singular perturbation (MATLAB's balred default; python-control's default is 'truncate')";

function renderBalred(args: Record<string, any>, r: BalredResult, o: RenderOptions): string {
  const n = r.hsv.length;
  return [
    `**Reduced from ${n} to ${r.order} state${r.order === 1 ? '' : 's'}**${discreteNote(args)} by ${methodText(r.method)}.`,
    `**Error bound:** ‖G − Gr‖∞ ≤ 2·(σ${r.order + 1} + … + σ${r.hsv.length}) = **${fmt(r.errorBound, o.digits)}** (and ≥ σ${r.order + 1} = ${fmt(r.hsv[r.order], o.digits)} for any model of order ${r.order}).${r.method === 'matchdc' ? ' The DC gain is the full model\u2019s.' : ' At infinite frequency the two models agree (D is kept).'}`,
    hsvTable(r.hsv, o, r.order),
    ...(['A', 'B', 'C', 'D'] as const).map((k) => matrixBlock(`${k}r`, r[k], o)),
  ].join('\n\n');
}

function renderModred(args: Record<string, any>, r: ModredResult, o: RenderOptions): string {
  const how =
    r.method === 'matchdc'
      ? `their derivatives set to zero${typeof args.Ts === 'number' && args.Ts > 0 ? ' (discrete: x2[k+1] = x2[k])' : ''}, so the DC gain is kept (method 'matchdc', the default of MATLAB and python-control)`
      : "deleted with their rows and columns (method 'truncate'; the DC gain generally changes)";
  return [
    `**Eliminated state${r.elim.length === 1 ? '' : 's'} ${r.elim.join(', ')}** (1-based, as MATLAB; python-control counts from 0)${discreteNote(args)}: ${how}. Kept: ${r.keep.join(', ')}.`,
    ...(['A', 'B', 'C', 'D'] as const).map((k) => matrixBlock(`${k}r`, r[k], o)),
  ].join('\n\n');
}

// ------------------------------------------------------------------ code

/** sys = ss(A, B, C, D[, Ts]) or tf(num, den[, Ts]) */
function sysCode(code: Code, a: Record<string, any>): void {
  const M = code.lang === 'matlab';
  const Ts = typeof a.Ts === 'number' && a.Ts > 0 ? `, ${numberLiteral(a.Ts, code.lang)}` : '';
  if (Array.isArray(a.num) && Array.isArray(a.den)) {
    code.assign('num', vectorLiteral(a.num, code.lang)).assign('den', vectorLiteral(a.den, code.lang));
    code.assign('sys', `${M ? 'tf' : 'ct.tf'}(num, den${Ts})`);
    if (M) code.assign('sys', 'ss(sys)');
    return;
  }
  const A = a.A as Matrix;
  const n = A.length;
  const z = (r: number, c: number) => (M ? `zeros(${r}, ${c})` : `np.zeros((${r}, ${c}))`);
  code.mat('A', A);
  if (Array.isArray(a.B)) code.mat('B', a.B);
  else code.assign('B', z(n, 1));
  if (Array.isArray(a.C)) code.mat('C', a.C);
  else code.assign('C', z(1, n));
  if (Array.isArray(a.D) && a.D.length) code.mat('D', a.D);
  else code.assign('D', M ? 'zeros(size(C, 1), size(B, 2))' : 'np.zeros((C.shape[0], B.shape[1]))');
  code.assign('sys', `${M ? 'ss' : 'ct.ss'}(A, B, C, D${Ts})`);
}

const gramCode = {
  title: 'Gramian of a stable model',
  gen(code: Code, a: Record<string, any>, r: GramResult | undefined) {
    const M = code.lang === 'matlab';
    const t = (a.type ?? 'c') as string;
    sysCode(code, a);
    if (M) {
      code.line(`W = gram(sys, '${t}');   % ${t === 'c' ? "A*W + W*A' + B*B' = 0" : "A'*W + W*A + C'*C = 0"} (discrete forms when Ts > 0)`);
      if (a.factor) code.line(`R = gram(sys, '${t}f');   % upper triangular, W = R'*R`);
    } else {
      code.line(`W = ct.gram(sys, '${t}')   # needs slycot; SciPy: solve_${typeof a.Ts === 'number' && a.Ts > 0 ? 'discrete' : 'continuous'}_lyapunov`);
      if (a.factor) code.line(`R = ct.gram(sys, '${t}f')   # upper triangular, W = R.T @ R`);
    }
    if (r) {
      code.comment(verdictHolder).expect('W', r.W);
      if (r.R) code.expect('R', r.R);
    }
  },
};

const hsvdCode = {
  title: 'Hankel singular values',
  gen(code: Code, a: Record<string, any>, r: HsvdResult | undefined) {
    sysCode(code, a);
    if (code.lang === 'matlab') code.line('hsv = hsvd(sys)');
    else code.line('hsv = ct.hsvd(sys)   # needs slycot');
    if (r) code.comment(verdictHolder).expect('hsv', r.hsv);
  },
};

const balrealCode = {
  title: 'balanced realisation',
  gen(code: Code, a: Record<string, any>, r: BalrealResult | undefined) {
    sysCode(code, a);
    if (code.lang === 'matlab') {
      code.line('[sysb, g, T, Ti] = balreal(sys);   % xb = T*x; a state may differ from ours by its sign');
      code.line('[Ab, Bb, Cb, Db] = ssdata(sysb);');
    } else {
      code.comment('python-control has no balreal: balred at full order is the square-root balanced realisation (slycot ab09ad)');
      code.line("sysb = ct.balred(sys, sys.nstates, method='truncate')   # a state may differ from ours by its sign");
      code.line('hsv = ct.hsvd(sys)');
    }
    if (r) code.comment(verdictHolder).expect('hsv', r.hsv).expect('A', r.A).expect('B', r.B).expect('C', r.C);
  },
};

const balredCode = {
  title: 'balanced model reduction',
  gen(code: Code, a: Record<string, any>, r: BalredResult | undefined) {
    const method = (r?.method ?? a.method ?? 'truncate') as string;
    sysCode(code, a);
    code.assign('r', String(a.order));
    if (code.lang === 'matlab') {
      code.line(`opts = balredOptions('StateElimMethod', '${method === 'truncate' ? 'Truncate' : 'MatchDC'}');   % MATLAB's default is MatchDC`);
      code.line('rsys = balred(sys, r, opts);');
      code.line('[Ar, Br, Cr, Dr] = ssdata(rsys);   % a state may differ from ours by its sign');
    } else {
      code.line(`rsys = ct.balred(sys, r, method='${method}')   # needs slycot; python-control's default is 'truncate'`);
    }
    if (r) code.comment(verdictHolder).expect('Ar', r.A).expect('Br', r.B).expect('Cr', r.C).expect('Dr', r.D).expect('errorBound', r.errorBound);
  },
};

const modredCode = {
  title: 'state elimination',
  gen(code: Code, a: Record<string, any>, r: ModredResult | undefined) {
    const method = (r?.method ?? a.method ?? 'matchdc') as string;
    sysCode(code, a);
    const elim = (Array.isArray(a.elim) ? (a.elim as number[]) : []).slice().sort((x, y) => x - y);
    if (code.lang === 'matlab') {
      code.assign('elim', vectorLiteral(elim, 'matlab'));
      code.line(`rsys = modred(sys, elim, '${method === 'truncate' ? 'Truncate' : 'MatchDC'}');`);
      code.line('[Ar, Br, Cr, Dr] = ssdata(rsys);');
    } else {
      code.assign('elim', `${vectorLiteral(elim, 'python')}   # 1-based, as MATLAB`);
      code.line(`rsys = ct.modred(sys, [e - 1 for e in elim], method='${method}')   # python-control counts states from 0`);
    }
    if (r) code.comment(verdictHolder).expect('Ar', r.A).expect('Br', r.B).expect('Cr', r.C).expect('Dr', r.D);
  },
};

// ------------------------------------------------------------------ plots

/** the reduced model's Bode and step (SISO), beside the full model's for comparison; else its poles */
function reducedPlots(args: Record<string, any>, r: { A: Matrix; B: Matrix; C: Matrix; D: Matrix } | undefined): PlotSpec[] {
  if (!r || !r.A.length) return [];
  const Ts = typeof args.Ts === 'number' && args.Ts > 0 ? { Ts: args.Ts } : {};
  const red = { A: r.A, B: r.B, C: r.C, D: r.D, ...Ts };
  const full: Record<string, unknown> = {};
  for (const k of ['num', 'den', 'A', 'B', 'C', 'D', 'Ts']) if (given(args[k])) full[k] = args[k];
  if (!isSiso(red)) return [{ kind: 'pzmap', args: red, title: 'Plot poles of the reduced model' }];
  return [
    { kind: 'bode', args: red, title: 'Plot Bode of the reduced model' },
    { kind: 'bode', args: full, title: 'Plot Bode of the full model' },
    { kind: 'step', args: red, title: 'Plot step response of the reduced model' },
    { kind: 'step', args: full, title: 'Plot step response of the full model' },
  ];
}

// ------------------------------------------------------------------ the tools

const sysProps = { ...ssProps, ...tfProps, ...tsProp };

export const tools = [
  tool({
    name: 'gram',
    words: {
      calls: [
        {
          names: ['gram'],
          args: ['sys', 'type'],
          // gram(sys, 'cf') / gram(sys, 'of'): the Gramian and its Cholesky factor R (W = RᵀR)
          map: (a) => (a.type === 'cf' || a.type === 'of' ? { type: (a.type as string)[0], factor: true } : {}),
        },
      ],
      phrases: [
        'controllability gramian',
        'controllability grammian',
        'observability gramian',
        'observability grammian',
        'gramian',
        'gramian of the system',
        'cholesky factor of the gramian',
      ],
      example: "/gram A=[-1 0; 1 -2], B=[1; 0], type='c'",
    },
    title: 'Controllability or observability Gramian',
    brief: "Gramian W of a stable model: type 'c' (A W + W Aᵀ + B Bᵀ = 0) or 'o'.",
    description:
      "Controllability Gramian (type 'c', default: A W + W Aᵀ + B Bᵀ = 0; discrete A W Aᵀ − W + B Bᵀ = 0) or observability Gramian (type 'o': Aᵀ W + W A + Cᵀ C = 0; discrete Aᵀ W A − W + Cᵀ C = 0) of a stable model (A, B or C, Ts > 0 discrete), as MATLAB gram(sys, 'c') and python-control gram(sys, 'c'). " +
      "factor: true also returns the upper-triangular Cholesky factor R with W = RᵀR (MATLAB and python-control gram(sys, 'cf')). Refuses an unstable A.",
    parameters: {
      type: 'object',
      properties: {
        A: matrix('state matrix A (n x n), stable'),
        B: matrix("input matrix B (n x m): needed for type 'c'"),
        C: matrix("output matrix C (p x n): needed for type 'o'"),
        D: matrix('feedthrough D (p x m), optional: it does not enter the Gramians'),
        ...tsProp,
        type: { type: 'string', enum: ['c', 'o'], default: 'c', description: "'c' controllability Gramian (default), 'o' observability Gramian" },
        factor: { type: 'boolean', default: false, description: "also return the upper-triangular Cholesky factor R, W = RᵀR (MATLAB gram(sys,'cf'))" },
      },
      required: ['A'],
      additionalProperties: false,
    },
    run: runGram,
    intro:
      '**Gramian.** The controllability Gramian Wc = ∫ e^{At}BBᵀe^{Aᵀt} dt solves A W + W Aᵀ + B Bᵀ = 0; the observability Gramian solves Aᵀ W + W A + Cᵀ C = 0 (sums and Stein equations in discrete time).',
    render: renderGram,
    code: gramCode,
    model: { none: 'reached by /gram and gram(sys, …) calls; the Lyapunov tool covers the equation for a model' },
    plots: { none: 'a matrix, not a system response' },
  }),
  tool({
    name: 'hsvd',
    words: {
      calls: [{ names: ['hsvd', 'hankel_singular_values', 'hankelsv'], args: ['sys'] }],
      phrases: ['hankel singular values', 'hankel singular value', 'hankel singular values of', 'hankel norm', 'hsvd'],
      example: '/hsvd A=[1 -2; 3 -4], B=[5; 7], C=[6 8], D=9',
    },
    title: 'Hankel singular values',
    brief: 'Hankel singular values of a stable model, decreasing.',
    description:
      'Hankel singular values σi = √λi(Wc·Wo) of a stable model (A, B, C, D or num/den; Ts > 0 discrete), decreasing, as MATLAB hsvd(sys) and python-control hsvd(sys); σ1 is the Hankel norm. ' +
      "Computed as the singular values of Ro·Rcᵀ (Wc = RcᵀRc, Wo = RoᵀRo). Refuses an unstable model as python-control does (MATLAB reports the unstable part's values as Inf).",
    parameters: { type: 'object', properties: sysProps, additionalProperties: false },
    run: runHsvd,
    intro:
      '**Hankel singular values.** σi = √λi(Wc Wo), the controllability and observability of each balanced state together; they bound what model reduction costs.',
    render: renderHsvd,
    code: hsvdCode,
    model: BY_LOOKUP,
    plots: { none: 'a list of numbers: the table shows each one with its share and the reduction bound' },
  }),
  tool({
    name: 'balreal',
    words: {
      calls: [{ names: ['balreal', 'balanced_realization', 'balss'], args: ['sys'] }],
      phrases: [
        'balanced realization',
        'balanced realisation',
        'balanced form',
        'balance the realization',
        'balance the realisation',
        'internally balanced',
        'balreal',
      ],
      example: '/balreal A=[-15 -7.5 -6.25 -1.875; 8 0 0 0; 0 4 0 0; 0 0 1 0], B=[2; 0; 0; 0], C=[0.5 0.6875 0.7031 0.5]',
    },
    title: 'Balanced realisation',
    brief: 'Balanced realisation (both Gramians diagonal and equal) of a stable model.',
    description:
      'Balanced realisation of a stable model (A, B, C, D or num/den; Ts > 0 discrete) by the square-root method (Laub; SLICOT AB09AD): returns A, B, C, D of the balanced model, hsv (all n), order, and T, Ti with x_b = T x (A_b = T A Ti), as MATLAB [sysb, g, T, Ti] = balreal(sys). ' +
      'Both Gramians of the result equal diag(hsv). States whose σ is zero to rounding (uncontrollable or unobservable) are left out, order says how many remain (as SLICOT AB09AD). Each state’s sign makes the largest entry of its column of C positive. Refuses an unstable model.',
    parameters: { type: 'object', properties: sysProps, additionalProperties: false },
    run: runBalreal,
    intro:
      '**Balanced realisation.** A change of state x_b = T x after which the controllability and observability Gramians are equal and diagonal, diag(σ1, …, σn), the Hankel singular values.',
    render: renderBalreal,
    code: balrealCode,
    model: BY_LOOKUP,
    plots: reducedPlots,
  }),
  tool({
    name: 'balred',
    words: {
      calls: [
        { names: ['balred', 'balanced_reduction', 'baltrunc'], args: ['sys', 'order'], keywords: { orders: 'order', method: 'method' } },
        { names: ['balred'], args: ['sys', 'order', 'method'] },
      ],
      phrases: [
        'balanced truncation',
        'balanced reduction',
        'model reduction',
        'model order reduction',
        'reduced-order model',
        'reduced order model',
        'reduce the order',
        'reduce the model',
        'order reduction',
        'reduce it to order',
        'reduce to order',
        'balred',
      ],
      example: '/balred A=[-15 -7.5 -6.25 -1.875; 8 0 0 0; 0 4 0 0; 0 0 1 0], B=[2; 0; 0; 0], C=[0.5 0.6875 0.7031 0.5], order=2',
    },
    title: 'Balanced model reduction',
    brief: "Reduce a stable model to order r by balanced truncation ('truncate') or matched DC gain ('matchdc').",
    description:
      "Reduces a stable model (A, B, C, D or num/den; Ts > 0 discrete) to order (1 ≤ order < n) states by balancing (square-root method): method 'truncate' (default, as python-control's balred) keeps the first order balanced states; 'matchdc' (MATLAB balred's default) residualises the others so the DC gain is kept. " +
      'Returns the reduced A, B, C, D, the Hankel singular values hsv, order, method and errorBound = 2·Σ of the discarded σ (‖G − Gr‖∞ ≤ errorBound). Refuses an unstable model, an order above the minimal order, or one that splits a repeated σ.',
    parameters: {
      type: 'object',
      properties: {
        ...sysProps,
        order: { type: 'number', minimum: 1, description: 'states to keep, an integer (1 ≤ order < n)' },
        method: {
          type: 'string',
          enum: ['truncate', 'matchdc'],
          default: 'truncate',
          description: "'truncate' (default, python-control's balred) or 'matchdc' (MATLAB balred's default: the DC gain kept)",
        },
      },
      required: ['order'],
      additionalProperties: false,
    },
    run: runBalred,
    intro:
      '**Balanced reduction.** In balanced coordinates the states with the smallest Hankel singular values are dropped (or residualised); the error is bounded by σ(r+1) ≤ ‖G − Gr‖∞ ≤ 2·(σ(r+1) + … + σn).',
    render: renderBalred,
    code: balredCode,
    model: BY_LOOKUP,
    plots: reducedPlots,
  }),
  tool({
    name: 'modred',
    words: {
      calls: [{ names: ['modred', 'model_reduction'], args: ['sys', 'elim', 'method'], keywords: { ELIM: 'elim', elim: 'elim', method: 'method' } }],
      phrases: ['eliminate states', 'eliminate the states', 'state elimination', 'residualize', 'residualise', 'singular perturbation approximation', 'modred'],
      example:
        '/modred A=[-1.958 -1.194 1.824 -1.464; -1.194 -0.8344 2.563 -1.351; -1.824 -2.563 -1.124 2.704; -1.464 -1.351 -2.704 -11.08], B=[-0.9057; -0.4068; -0.3263; -0.3474], C=[-0.9057 -0.4068 0.3263 -0.3474], elim=[3, 4]',
    },
    title: 'State elimination',
    brief: "Eliminate states elim (1-based) of (A, B, C, D): 'matchdc' keeps the DC gain, 'truncate' deletes them.",
    description:
      "Eliminates the states elim (1-based, as MATLAB modred; python-control counts from 0) of a state-space model (A, B, C, D; Ts > 0 discrete): method 'matchdc' (default, as MATLAB and python-control) sets their derivatives to zero (discrete: x2[k+1] = x2[k]) so the DC gain is kept, 'truncate' deletes them. " +
      'Returns the reduced A, B, C, D, elim, keep (the kept states) and method. Any model, stable or not (python-control refuses unstable ones).',
    parameters: {
      type: 'object',
      properties: {
        ...ssProps,
        ...tsProp,
        elim: vector('states to eliminate, 1-based integers (e.g. [3, 4])'),
        method: { type: 'string', enum: ['matchdc', 'truncate'], default: 'matchdc', description: "'matchdc' (default: the DC gain kept) or 'truncate'" },
      },
      required: ['A', 'B', 'C', 'elim'],
      additionalProperties: false,
    },
    run: runModred,
    intro:
      "**State elimination.** With x = (x1, x2) and x2 eliminated: 'matchdc' sets ẋ2 = 0, so Ar = A11 − A12 A22⁻¹ A21 (and B, C, D likewise), keeping the DC gain; 'truncate' keeps A11, B1, C1, D.",
    render: renderModred,
    code: modredCode,
    model: BY_LOOKUP,
    plots: reducedPlots,
  }),
];
