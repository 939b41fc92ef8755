/**
 * Lyapunov and Stein (discrete Lyapunov) equations by Bartels-Stewart on the real Schur form:
 *   lyap:  A X + X A' + Q = 0        dlyap:  A X A' - X + Q = 0
 * A = U T U' (Francis QR with Schur vectors), C = U' Q U, then the quasi-triangular equation
 * is solved block by block (1x1 and 2x2 diagonal blocks, small Kronecker systems as LAPACK
 * dlasy2), X = U Y U'. The equation has a unique solution iff no λi + λj = 0 (lyap) or
 * λi λj = 1 (dlyap); near such pairs we refuse rather than return a huge meaningless X
 * (Octave returns X ~ 4.5e15 for a rotation).
 */
import { tool, BY_LOOKUP } from '../tools/types.js';
import { renderGeneric } from '../render/results.js';
import { GENERATORS } from '../codegen/code.js';
import type { Complex, Matrix } from '../types.js';
import { matrix } from '../tools/schema.js';
import { checkMatrix, checkSquare, fmtSize } from '../tools/args.js';
import { ControlError } from '../errors.js';
import { type Mat, pow2Exponent, scalePow2, fromRows, toRows, mul, mulNT, mulNTSym, normF, scale, symmetrize, transpose, zeros, EPS } from '../linalg/dense.js';
import { realSchur, schurEigenvalues, solveCompletePivot } from '../linalg/schur.js';
import { balance } from '../linalg/balance.js';
import { descriptorE, eSolveLeft, eSolveRight } from './matrixeq.js';

function blocksOf(T: Mat): { st: Int32Array; sz: Int32Array; nb: number } {
  const n = T.r;
  const st = new Int32Array(n),
    sz = new Int32Array(n);
  let nb = 0;
  for (let i = 0; i < n;) {
    const two = i + 1 < n && T.d[(i + 1) * n + i] !== 0;
    st[nb] = i;
    sz[nb] = two ? 2 : 1;
    nb++;
    i += two ? 2 : 1;
  }
  return { st, sz, nb };
}

/** solves the p x q block equation of triangularLyap (Kronecker form, at most 4x4) in place in rhs */
function blockSolve(
  t: Float64Array,
  n: number,
  i0: number,
  p: number,
  j0: number,
  q: number,
  discrete: boolean,
  rhs: Float64Array,
  M: Float64Array,
  tiny: number,
): void {
  if (p === 1 && q === 1) {
    // the 1x1 case of the Kronecker solve below (solveCompletePivot): a tiny pivot is replaced by ±tiny
    let m = discrete ? t[i0 * n + i0] * t[j0 * n + j0] - 1 : t[i0 * n + i0] + t[j0 * n + j0];
    if (Math.abs(m) < tiny) m = m < 0 ? -tiny : tiny;
    rhs[0] /= m;
    return;
  }
  const N = p * q;
  M.fill(0, 0, N * N);
  for (let a = 0; a < p; a++)
    for (let b = 0; b < q; b++) {
      const row = (a * q + b) * N;
      if (!discrete) {
        for (let k = 0; k < p; k++) M[row + k * q + b] += t[(i0 + a) * n + i0 + k];
        for (let l = 0; l < q; l++) M[row + a * q + l] += t[(j0 + b) * n + j0 + l];
      } else {
        for (let k = 0; k < p; k++) for (let l = 0; l < q; l++) M[row + k * q + l] += t[(i0 + a) * n + i0 + k] * t[(j0 + b) * n + j0 + l];
        M[row + a * q + b] -= 1;
      }
    }
  solveCompletePivot(M, rhs, N, tiny);
}

/**
 * Solves the quasi-triangular equation  T Y + Y T' + C = 0 (continuous) or T Y T' - Y + C = 0
 * (discrete) for Y, T in real Schur form, in O(n^3): column blocks of Y from the last, each by
 * back substitution over the row blocks (1x1 and 2x2 diagonal blocks, small Kronecker systems
 * as LAPACK dlasy2). Y is built by columns (a column of Y contiguous), so every inner loop is a
 * contiguous row of T against a contiguous column of Y. With `symmetric` (C symmetric, so Y
 * is), only the entries on and above the diagonal are solved for (the rest by symmetry), half
 * the work; C is then read from its upper triangle.
 *   continuous, column block J:  T Y_J + Y_J S' = −C_J − Σ_{l after J} Y_l T_Jl'   (S = T_JJ)
 *   discrete:  T Y_J S' − Y_J = −C_J − T W,  W = Σ_{l after J} Y_l T_Jl'  (SLICOT SB03MX's order)
 */
export function triangularLyap(T: Mat, C: Mat, discrete: boolean, symmetric = false): Mat {
  const n = T.r,
    t = T.d,
    c = C.d;
  const yc = new Float64Array(n * n); // yc[j*n + i] = Y[i, j]
  const { st, sz, nb } = blocksOf(T);
  let tnorm = 0;
  for (const v of t) tnorm = Math.max(tnorm, Math.abs(v));
  const tiny = Math.max(EPS * (discrete ? Math.max(1, tnorm * tnorm) : tnorm), 1e-300);
  const R = new Float64Array(2 * n); // R[b*n + i]: right-hand side of column j0+b
  const W = new Float64Array(2 * n); // discrete: W[b*n + k] = (Σ_{l ≥ jend} Y[k, l] T[j0+b, l])
  const U = new Float64Array(2 * n); // discrete: U[b*n + k] = (Y T')[k, j0+b] for solved rows k
  const M = new Float64Array(16),
    rhs = new Float64Array(4);
  for (let jb = nb - 1; jb >= 0; jb--) {
    const j0 = st[jb],
      q = sz[jb],
      jend = j0 + q;
    // rows to solve for: all, or (symmetric) those up to the end of this block
    const rowsEnd = symmetric ? jend : n;
    if (symmetric)
      for (let b = 0; b < q; b++) {
        const col = (j0 + b) * n;
        for (let k = jend; k < n; k++) yc[col + k] = yc[k * n + j0 + b];
      }
    // R_b = −C[:, j0+b] (rows < rowsEnd); continuous: R_b −= Σ_{l ≥ jend} T[j0+b, l] Y[:, l];
    // discrete: W_b = Σ_{l ≥ jend} T[j0+b, l] Y[:, l] (all rows). Two solved columns a step.
    const acc = discrete ? W : R;
    const sgn = discrete ? 1 : -1;
    const lim = discrete ? n : rowsEnd;
    for (let b = 0; b < q; b++) {
      const rb = b * n,
        j = j0 + b;
      if (symmetric) for (let i = 0; i < rowsEnd; i++) R[rb + i] = -(i <= j ? c[i * n + j] : c[j * n + i]);
      else for (let i = 0; i < n; i++) R[rb + i] = -c[i * n + j];
      if (discrete) W.fill(0, rb, rb + n);
      const tj = j * n;
      let l = jend;
      for (; l + 1 < n; l += 2) {
        const f1 = sgn * t[tj + l],
          f2 = sgn * t[tj + l + 1];
        const y1 = l * n,
          y2 = y1 + n;
        for (let i = 0; i < lim; i++) acc[rb + i] += f1 * yc[y1 + i] + f2 * yc[y2 + i];
      }
      if (l < n) {
        const f = sgn * t[tj + l],
          yl = l * n;
        for (let i = 0; i < lim; i++) acc[rb + i] += f * yc[yl + i];
      }
    }
    // back substitution over the row blocks, from the last one that is solved for
    let ib = nb - 1;
    if (symmetric) ib = jb;
    if (discrete && symmetric)
      // U for the rows known by symmetry (k ≥ jend): W[k] + Y[k, J] S'
      for (let b = 0; b < q; b++)
        for (let k = jend; k < n; k++) {
          let s = W[b * n + k];
          for (let l = 0; l < q; l++) s += yc[(j0 + l) * n + k] * t[(j0 + b) * n + j0 + l];
          U[b * n + k] = s;
        }
    // the other terms of a row block's equations: dot products of T's rows (from iend) with the
    // block's solved columns (continuous: Y's columns; discrete: U's), all p·q of them in one
    // loop (independent sums, the latency of one sum's additions hidden behind the others)
    const v0 = discrete ? U : yc,
      o0 = discrete ? 0 : j0 * n,
      o1 = discrete ? n : (j0 + 1) * n;
    const vw = discrete ? W : yc;
    for (; ib >= 0; ib--) {
      const i0 = st[ib],
        p = sz[ib],
        iend = i0 + p;
      const t0 = i0 * n,
        t1 = t0 + n;
      let s00 = 0,
        s01 = 0,
        s10 = 0,
        s11 = 0;
      if (p === 2 && q === 2)
        for (let k = iend; k < n; k++) {
          const a0 = t[t0 + k],
            a1 = t[t1 + k],
            y0 = v0[o0 + k],
            y1 = v0[o1 + k];
          s00 += a0 * y0;
          s01 += a0 * y1;
          s10 += a1 * y0;
          s11 += a1 * y1;
        }
      else if (p === 2)
        for (let k = iend; k < n; k++) {
          const y0 = v0[o0 + k];
          s00 += t[t0 + k] * y0;
          s10 += t[t1 + k] * y0;
        }
      else if (q === 2)
        for (let k = iend; k < n; k++) {
          const a0 = t[t0 + k];
          s00 += a0 * v0[o0 + k];
          s01 += a0 * v0[o1 + k];
        }
      else {
        // one sum as two halves (odd and even k), then added
        let k = iend;
        for (; k + 1 < n; k += 2) {
          s00 += t[t0 + k] * v0[o0 + k];
          s01 += t[t0 + k + 1] * v0[o0 + k + 1];
        }
        if (k < n) s00 += t[t0 + k] * v0[o0 + k];
        s00 += s01;
      }
      for (let a = 0; a < p; a++) {
        const ti = (i0 + a) * n;
        for (let b = 0; b < q; b++) {
          let s = R[b * n + i0 + a] - (a === 0 ? (b === 0 ? s00 : s01) : b === 0 ? s10 : s11);
          if (discrete) {
            const wb = b * n;
            for (let k = i0; k < iend; k++) s -= t[ti + k] * vw[wb + k];
          }
          rhs[a * q + b] = s;
        }
      }
      blockSolve(t, n, i0, p, j0, q, discrete, rhs, M, tiny);
      for (let a = 0; a < p; a++) for (let b = 0; b < q; b++) yc[(j0 + b) * n + i0 + a] = rhs[a * q + b];
      if (discrete)
        for (let a = 0; a < p; a++)
          for (let b = 0; b < q; b++) {
            const k = i0 + a;
            let s = W[b * n + k];
            for (let l = 0; l < q; l++) s += yc[(j0 + l) * n + k] * t[(j0 + b) * n + j0 + l];
            U[b * n + k] = s;
          }
    }
  }
  // Y = yc' (row-major); symmetric: the lower triangle from the upper
  const Y = zeros(n, n);
  const y = Y.d;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) y[i * n + j] = yc[j * n + i];
  if (symmetric) for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) y[i * n + j] = y[j * n + i];
  return Y;
}

/** smallest |λi + λj| (continuous) or |1 - λi λj| (discrete) over all eigenvalue pairs */
export function lyapSeparation(ev: [number, number][], discrete: boolean): { sep: number; li: [number, number]; lj: [number, number] } {
  let sep = Infinity;
  let li = ev[0],
    lj = ev[0];
  for (let i = 0; i < ev.length; i++)
    for (let j = i; j < ev.length; j++) {
      const [a, b] = ev[i],
        [c, d] = ev[j];
      const v = discrete ? Math.hypot(1 - (a * c - b * d), -(a * d + b * c)) : Math.hypot(a + c, b + d);
      if (v < sep) {
        sep = v;
        li = ev[i];
        lj = ev[j];
      }
    }
  return { sep, li, lj };
}

const fmtC = ([re, im]: [number, number]) => {
  const r = +re.toPrecision(6),
    i = +Math.abs(im).toPrecision(6);
  return i === 0 ? `${r}` : `${r} ${im < 0 ? '-' : '+'} ${i}i`;
};

function isSymmetric(Q: Mat): boolean {
  const n = Q.r;
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) if (Q.d[i * n + j] !== Q.d[j * n + i]) return false;
  return true;
}

/**
 * Solves A X + X A' + Q = 0 (or A X A' - X + Q = 0 when discrete). The matrix is balanced
 * first (exact power-of-2 scaling and a permutation: A = S Ab S^-1, X = S Xb S'), which
 * helps badly scaled problems; one step of iterative refinement follows.
 * Throws ControlError when the equation is singular or nearly so.
 */
export function lyapunovMat(A: Mat, Q: Mat, discrete: boolean): Mat {
  if (A.r === 0) return zeros(0, 0);
  return prepareLyapunov(A, discrete).solve(Q);
}

/** A's real Schur form, ready for Lyapunov (or Stein) equations in A, and A's eigenvalues */
export interface PreparedLyapunov {
  /** eigenvalues of A (from its Schur form), unsorted */
  eigenvalues: Complex[];
  /** X with A X + X A' + Q = 0 (or A X A' − X + Q = 0): lyapunovMat(A, Q, discrete) */
  solve(Q: Mat): Mat;
}

/**
 * The Schur-form half of lyapunovMat, kept for solves with it: a caller that also needs A's
 * eigenvalues (h2norm's stability test) reads them here instead of computing a second
 * eigenvalue decomposition. A is n x n with n ≥ 1.
 */
export function prepareLyapunov(A: Mat, discrete: boolean): PreparedLyapunov {
  // Entries far from 1 (below 2^-100 or above 2^100): solve in units where they are near 1.
  // A X + X A' + Q = 0 holds for (A/a, Q/q) with X·a/q, and A X A' − X + Q = 0 for (A, Q/q)
  // with X/q, a and q powers of 2 (exact). With A near 1e-307 the products underflowed and the
  // solution was wrong (residual 1); with A near 1e300 they overflowed.
  const ka = discrete ? 0 : pow2Exponent(A);
  const core = prepareCore(ka ? scalePow2(A, -ka) : A, discrete);
  const f1 = 2 ** Math.trunc(ka / 2),
    f2 = 2 ** (ka - Math.trunc(ka / 2));
  const eigenvalues: Complex[] = ka ? core.ev.map(([re, im]) => [re * f1 * f2, im * f1 * f2]) : core.ev;
  return {
    eigenvalues,
    solve(Q: Mat): Mat {
      const kq = pow2Exponent(Q);
      if (!ka && !kq) return solveCore(core, Q);
      const Xs = solveCore(core, kq ? scalePow2(Q, -kq) : Q);
      const X = scalePow2(Xs, kq - ka);
      for (const v of X.d)
        if (!Number.isFinite(v))
          throw new ControlError(
            `The Lyapunov solution overflows double precision (its entries exceed 1.8e308: A and Q differ in scale by about 2^${kq - ka}); rescale the problem.`,
            'numerical',
          );
      return X;
    },
  };
}

interface Core {
  discrete: boolean;
  Ab: Mat;
  perm: Int32Array;
  scale: Float64Array;
  T: Mat;
  Z: Mat;
  Zt: Mat;
  ev: Complex[];
  /** the refusal when the equation has no unique solution (thrown by a solve) */
  singular?: ControlError;
}

function prepareCore(A: Mat, discrete: boolean): Core {
  const n = A.r;
  // balancing: Ab = D^-1 P' A P D. With S = P D: S^-1 Q S^-T = D^-1 P' Q P D^-1
  const bal = balance(A);
  const { perm, scale } = bal;
  const Ab = bal.B;
  const { T, Z } = realSchur(Ab);
  const ev = schurEigenvalues(T);
  let anorm = 0;
  for (const [re, im] of ev) anorm = Math.max(anorm, Math.hypot(re, im));
  anorm = Math.max(anorm, normF(Ab) / Math.sqrt(n));
  const { sep, li, lj } = lyapSeparation(ev, discrete);
  const tol = discrete ? 1e3 * n * EPS * Math.max(1, anorm * anorm) : 1e3 * n * EPS * Math.max(anorm, 1e-300);
  let singular: ControlError | undefined;
  if (sep <= tol) {
    const why = discrete ? `A has eigenvalues ${fmtC(li)} and ${fmtC(lj)} whose product is 1` : `A has eigenvalues ${fmtC(li)} and ${fmtC(lj)} whose sum is 0`;
    singular = new ControlError(
      `The ${discrete ? 'discrete ' : ''}Lyapunov equation has no unique solution: ${why}` +
        (discrete ? ' (an eigenvalue on or mirrored across the unit circle).' : ' (an eigenvalue on or mirrored across the imaginary axis).'),
      'infeasible',
    );
  }
  return { discrete, Ab, perm, scale, T, Z, Zt: transpose(Z), ev, singular };
}

function solveCore(core: Core, Q: Mat): Mat {
  const { discrete, Ab, perm, scale, T, Z, Zt } = core;
  if (core.singular) throw core.singular;
  const n = Ab.r;
  const Qb = zeros(n, n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) Qb.d[i * n + j] = Q.d[perm[i] * n + perm[j]] / (scale[i] * scale[j]);
  // Q symmetric (the usual case: B B', C'C, I): X is symmetric, and so is every product on the
  // way; the triangular solve and the products then compute only one triangle
  const sym = isSymmetric(Q);
  const solveB = (R: Mat): Mat => {
    if (sym) {
      // C = Z' R Z = (R Z)' Z, Y, X = (Z Y) Z', each product's upper triangle
      const C = mulNTSym(transpose(mul(R, Z)), Zt);
      const Y = triangularLyap(T, C, discrete, true);
      return mulNTSym(mul(Z, Y), Z);
    }
    const C = mul(Zt, mul(R, Z));
    const Y = triangularLyap(T, C, discrete);
    return mulNT(mul(Z, Y), Z);
  };
  const residual = (X: Mat): Mat => {
    const AX = mul(Ab, X);
    if (discrete) {
      const R = sym ? mulNTSym(AX, Ab) : mulNT(AX, Ab);
      for (let k = 0; k < R.d.length; k++) R.d[k] += Qb.d[k] - X.d[k];
      return R;
    }
    // A X + X A' + Q; X symmetric: X A' = (A X)', so R is exactly symmetric
    const XA = sym ? transpose(AX) : mulNT(X, Ab);
    for (let k = 0; k < AX.d.length; k++) AX.d[k] += XA.d[k] + Qb.d[k];
    return AX;
  };
  const Xb = solveB(Qb);
  // one step of iterative refinement (the correction solves the same equation with the residual)
  const R = residual(Xb);
  const dX = solveB(R);
  for (let k = 0; k < Xb.d.length; k++) Xb.d[k] += dX.d[k];
  if (sym) symmetrize(Xb);
  // back: X = S Xb S', S = P D  ->  X[perm[i], perm[j]] = scale[i] Xb[i, j] scale[j]
  const X = zeros(n, n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) X.d[perm[i] * n + perm[j]] = scale[i] * Xb.d[i * n + j] * scale[j];
  for (const v of X.d) if (!Number.isFinite(v)) throw new ControlError('The Lyapunov solution overflowed: the equation is too ill-conditioned.', 'numerical');
  return X;
}

/** X with A X + X A' + Q = 0 */
export function lyapSolve(A: Matrix, Q: Matrix): Matrix {
  return toRows(lyapunovMat(fromRows(A), fromRows(Q), false));
}

/** X with A X A' - X + Q = 0 */
export function dlyapSolve(A: Matrix, Q: Matrix): Matrix {
  return toRows(lyapunovMat(fromRows(A), fromRows(Q), true));
}

function lyapArgs(args: Record<string, any>): { A: Mat; Q: Mat } {
  const A = checkMatrix(args.A, 'A');
  const Q = checkMatrix(args.Q, 'Q');
  const n = checkSquare(A, 'A');
  if (Q.length !== n || Q[0].length !== n) throw new ControlError(`Q is ${fmtSize(Q)} but A is ${n}x${n}; Q must be ${n}x${n}.`);
  return { A: fromRows(A), Q: fromRows(Q) };
}

/**
 * lyap/dlyap with the optional descriptor E (MATLAB lyap(A, Q, [], E): A X Eᵀ + E X Aᵀ + Q = 0;
 * dlyap(A, Q, [], E): A X Aᵀ − E X Eᵀ + Q = 0). E nonsingular: with Ã = A E⁻¹ and Y = E X Eᵀ
 * both are the standard equations Ã Y + Y Ãᵀ + Q = 0 and Ã Y Ãᵀ − Y + Q = 0, X = E⁻¹ Y E⁻ᵀ.
 */
function runLyap(args: Record<string, any>, discrete: boolean): { X: Matrix; note?: string } {
  const { A, Q } = lyapArgs(args);
  if (args.E === undefined || args.E === null) return { X: toRows(lyapunovMat(A, Q, discrete)) };
  const e = descriptorE(fromRows(checkMatrix(args.E, 'E')), A.r);
  const Y = lyapunovMat(eSolveRight(e.lu, A), Q, discrete);
  const X = transpose(eSolveLeft(e.lu, transpose(eSolveLeft(e.lu, Y))));
  if (isSymmetric(Q)) symmetrize(X);
  return { X: toRows(X), note: e.note };
}

/** call forms that solve A X + X Aᵀ = Q (SciPy) or Aᵀ X + X A = C (Scilab): our equations with −Q, and Aᵀ */
const negQ = (a: Record<string, unknown>) => ({ ...a, Q: Array.isArray(a.Q) ? toRows(scale(fromRows(a.Q as Matrix), -1)) : a.Q });
const transposedNegQ = (a: Record<string, unknown>) => negQ({ ...a, A: Array.isArray(a.A) ? toRows(transpose(fromRows(a.A as Matrix))) : a.A });

export const tools = [
  tool({
    name: 'lyap',
    words: {
      calls: [
        { names: ['lyap', 'lyapunov'], args: ['A', 'Q'], returns: ['X'] },
        { names: ['lyap'], args: ['A', 'Q', '[]', 'E'], min: 4, note: "MATLAB's lyap(A, Q, [], E): the generalised equation A X Eᵀ + E X Aᵀ + Q = 0" },
        {
          names: ['lyap'],
          args: ['A', 'Q', "'c'"],
          note: "Scilab's lyap(A, C, 'c') solves AᵀX + XA = C, so it is lyap with Aᵀ and −C",
          map: transposedNegQ,
        },
        {
          names: ['solve_continuous_lyapunov', 'solve_lyapunov'],
          args: ['A', 'Q'],
          keywords: { a: 'A', q: 'Q' },
          note: "SciPy's solve_continuous_lyapunov(a, q) solves AX + XAᵀ = Q, so it is lyap with −Q",
          map: negQ,
        },
      ],
      // Gramians are the gram tool's (solvers/reduce.ts), which names the equation it solves
      phrases: ['lyapunov equation', 'continuous lyapunov', 'lyap', 'lyapunov eqn'],
      weak: ['lyapunov'],
      discrete: 'dlyap',
      example: '/lyap A=[-1 2; 0 -3], Q=eye(2)',
    },
    brief: "X solving A X + X A' + Q = 0.",
    title: 'Continuous Lyapunov equation',
    description:
      "Solves the continuous Lyapunov equation A X + X A' + Q = 0 for X (Bartels-Stewart on the real Schur form). " +
      "For the controllability gramian pass Q = B B'; for the observability gramian pass A' and C'C. " +
      "With a nonsingular E (MATLAB lyap(A, Q, [], E)) it solves A X E' + E X A' + Q = 0, reduced by E⁻¹; a singular E is refused. " +
      'Refuses when A has eigenvalues with λi + λj = 0 (no unique solution). For A X + X B + C = 0 (lyap(A, B, C)) see sylvester.',
    parameters: {
      type: 'object',
      properties: {
        A: matrix('square matrix A (n x n)'),
        Q: matrix('right-hand side Q (n x n), usually symmetric'),
        E: matrix("descriptor matrix E (n x n, nonsingular), optional: A X E' + E X A' + Q = 0"),
      },
      required: ['A', 'Q'],
      additionalProperties: false,
    },
    run(args) {
      return runLyap(args, false);
    },
    intro: '**Lyapunov equation** AX + XAᵀ + Q = 0.',
    render: renderGeneric,
    code: GENERATORS.lyap,
    model: BY_LOOKUP,
    plots: { none: 'a matrix solution, not a system response' },
  }),
  tool({
    name: 'dlyap',
    words: {
      calls: [
        { names: ['dlyap', 'solve_discrete_lyapunov', 'dlyapunov'], args: ['A', 'Q'], keywords: { a: 'A', q: 'Q' }, returns: ['X'] },
        { names: ['dlyap'], args: ['A', 'Q', '[]', 'E'], min: 4, note: "MATLAB's dlyap(A, Q, [], E): the generalised equation A X Aᵀ − E X Eᵀ + Q = 0" },
        {
          names: ['lyap'],
          args: ['A', 'Q', "'d'"],
          note: "Scilab's lyap(A, C, 'd') solves AᵀXA − X = C, so it is dlyap with Aᵀ and −C",
          map: transposedNegQ,
        },
      ],
      phrases: ['discrete lyapunov', 'discrete-time lyapunov', 'stein equation', 'dlyap', 'discrete lyapunov equation'],
      continuous: 'lyap',
      example: '/dlyap A=[0.5 0.1; 0 0.8], Q=eye(2)',
    },
    title: 'Discrete Lyapunov (Stein) equation',
    description:
      "Solves the discrete Lyapunov equation A X A' - X + Q = 0 for X (Bartels-Stewart on the real Schur form). " +
      "With a nonsingular E (MATLAB dlyap(A, Q, [], E)) it solves A X A' - E X E' + Q = 0, reduced by E⁻¹; a singular E is refused. " +
      'Refuses when A has eigenvalues with λi λj = 1 (no unique solution). For A X B - X + C = 0 (dlyap(A, B, C)) see dsylvester.',
    parameters: {
      type: 'object',
      properties: {
        A: matrix('square matrix A (n x n)'),
        Q: matrix('right-hand side Q (n x n), usually symmetric'),
        E: matrix("descriptor matrix E (n x n, nonsingular), optional: A X A' - E X E' + Q = 0"),
      },
      required: ['A', 'Q'],
      additionalProperties: false,
    },
    run(args) {
      return runLyap(args, true);
    },
    intro: '**Discrete Lyapunov (Stein) equation** AXAᵀ − X + Q = 0.',
    render: renderGeneric,
    code: GENERATORS.dlyap,
    model: BY_LOOKUP,
    plots: { none: 'a matrix solution, not a system response' },
  }),
];
