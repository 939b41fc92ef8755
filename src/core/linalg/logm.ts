/**
 * Principal real matrix logarithm by inverse scaling and squaring on the real Schur form
 * (Higham, Functions of Matrices, 2008, Algorithm 11.9 in real arithmetic; SciPy logm and
 * MATLAB logm use the complex Schur variant of the same method):
 *   A = Z T Z' (real Schur), T ← T^(1/2) repeatedly (Higham's 1987 real square root of a
 *   quasi-triangular matrix, block by block) until ‖T − I‖₁ ≤ θ₇ = 0.264, then
 *   log T = 2^s · r_m(T − I) with r_m the [m/m] Padé approximant of log(1 + x) in partial
 *   fractions (Gauss–Legendre nodes), m the smallest degree whose θ_m bound holds
 *   (Higham 2001, "Evaluating Padé approximants of the matrix logarithm", Table 2.1).
 * The principal logarithm is real exactly when no eigenvalue lies on the closed negative real
 * axis; such a matrix (or a singular one) is refused.
 */
import { ControlError } from '../errors.js';
import { type Mat, EPS, add, eye, luFactor, luSolve, mul, norm1, scale, transpose, zeros } from './dense.js';
import { realSchur, schurBlocks, solveCompletePivot } from './schur.js';

/** θ_m: ‖X‖₁ ≤ θ_m makes the [m/m] Padé approximant of log(I + X) accurate to unit roundoff */
const THETA = [1.1e-5, 1.82e-3, 1.62e-2, 5.39e-2, 1.14e-1, 1.87e-1, 2.64e-1];

/** Gauss–Legendre nodes and weights on [0, 1] (Newton on the Legendre polynomial P_m) */
function gaussLegendre01(m: number): { x: number[]; w: number[] } {
  const x: number[] = [],
    w: number[] = [];
  for (let i = 1; i <= m; i++) {
    let t = Math.cos((Math.PI * (i - 0.25)) / (m + 0.5));
    let dp = 0;
    for (let it = 0; it < 100; it++) {
      let p0 = 1,
        p1 = t;
      for (let k = 2; k <= m; k++) [p0, p1] = [p1, ((2 * k - 1) * t * p1 - (k - 1) * p0) / k];
      if (m === 1) [p0, p1] = [1, t];
      dp = (m * (t * p1 - p0)) / (t * t - 1);
      const dt = p1 / dp;
      t -= dt;
      if (Math.abs(dt) < 1e-16) break;
    }
    let p0 = 1,
      p1 = t;
    for (let k = 2; k <= m; k++) [p0, p1] = [p1, ((2 * k - 1) * t * p1 - (k - 1) * p0) / k];
    if (m === 1) [p0, p1] = [1, t];
    dp = (m * (t * p1 - p0)) / (t * t - 1);
    x.push((1 - t) / 2);
    w.push(1 / ((1 - t * t) * dp * dp));
  }
  return { x, w };
}

/**
 * The eigenvalue of A that bars a real principal logarithm, or undefined: a real eigenvalue
 * ≤ tol·‖A‖₁ (zero or negative; tol = 1e3·ε by default, so a numerically singular A counts as
 * singular).
 */
export function logmObstruction(T: Mat, tol = 1e3 * EPS): number | undefined {
  const n = T.r;
  const nrm = Math.max(norm1(T), Number.MIN_VALUE);
  const { start, size } = schurBlocks(T);
  for (let k = 0; k < start.length; k++) {
    if (size[k] !== 1) continue;
    const t = T.d[start[k] * n + start[k]];
    if (t <= tol * nrm) return t;
  }
  return undefined;
}

/** the principal square root of a real 2x2 block with complex eigenvalues θ ± iμ: αI + (T − θI)/(2α) */
function sqrt2x2(a: number, b: number, c: number, d: number): [number, number, number, number] {
  const th = (a + d) / 2;
  const disc = ((a - d) / 2) ** 2 + b * c;
  if (!(disc < 0)) throw new ControlError('logm: a 2x2 Schur block has real eigenvalues (not standardised)', 'numerical');
  const mu = Math.sqrt(-disc);
  const r = Math.hypot(th, mu);
  let al: number;
  if (th >= 0) al = Math.sqrt((th + r) / 2);
  else {
    const be = Math.sqrt((r - th) / 2);
    al = mu / (2 * be);
  }
  const f = 1 / (2 * al);
  return [al + (a - th) * f, b * f, c * f, al + (d - th) * f];
}

/** the principal square root of a quasi-upper-triangular T (real eigenvalues > 0) */
function sqrtQuasiTriangular(T: Mat, start: number[], size: number[]): Mat {
  const n = T.r;
  const R = zeros(n, n);
  const t = T.d,
    r = R.d;
  const nb = start.length;
  const M = new Float64Array(16),
    rhs = new Float64Array(4);
  for (let j = 0; j < nb; j++) {
    const sj = start[j],
      qj = size[j];
    if (qj === 1) r[sj * n + sj] = Math.sqrt(t[sj * n + sj]);
    else {
      const s = sqrt2x2(t[sj * n + sj], t[sj * n + sj + 1], t[(sj + 1) * n + sj], t[(sj + 1) * n + sj + 1]);
      r[sj * n + sj] = s[0];
      r[sj * n + sj + 1] = s[1];
      r[(sj + 1) * n + sj] = s[2];
      r[(sj + 1) * n + sj + 1] = s[3];
    }
    for (let i = j - 1; i >= 0; i--) {
      const si = start[i],
        pi = size[i];
      // R_ii X + X R_jj = T_ij − Σ_{k=i+1}^{j−1} R_ik R_kj
      const N = pi * qj;
      for (let a = 0; a < pi; a++)
        for (let b = 0; b < qj; b++) {
          let v = t[(si + a) * n + sj + b];
          for (let l = si + pi; l < sj; l++) v -= r[(si + a) * n + l] * r[l * n + sj + b];
          rhs[a * qj + b] = v;
        }
      M.fill(0, 0, N * N);
      for (let a = 0; a < pi; a++)
        for (let b = 0; b < qj; b++) {
          const row = a * qj + b;
          for (let k = 0; k < pi; k++) M[row * N + k * qj + b] += r[(si + a) * n + si + k];
          for (let l = 0; l < qj; l++) M[row * N + a * qj + l] += r[(sj + l) * n + sj + b];
        }
      solveCompletePivot(M, rhs, N, EPS * Number.MIN_VALUE);
      for (let a = 0; a < pi; a++) for (let b = 0; b < qj; b++) r[(si + a) * n + sj + b] = rhs[a * qj + b];
    }
  }
  return R;
}

/** the most square roots taken: ‖log A‖ would have to exceed 2^60 to need them */
const MAX_ROOTS = 60;

/**
 * log(A), the principal logarithm of a real square matrix with no eigenvalue on the closed
 * negative real axis (a real matrix then). Throws a ControlError naming the eigenvalue
 * otherwise.
 */
export function logm(A: Mat): Mat {
  const n = A.r;
  if (A.c !== n) throw new ControlError(`logm needs a square matrix, not ${A.r}x${A.c}`);
  if (n === 0) return zeros(0, 0);
  for (const v of A.d) if (!Number.isFinite(v)) throw new ControlError('logm: the matrix has a non-finite entry');
  const { T, Z } = realSchur(A);
  const bad = logmObstruction(T);
  if (bad !== undefined)
    throw new ControlError(
      `the matrix has the real eigenvalue ${bad.toPrecision(6)} ${bad > 0 ? '(zero to working precision)' : bad === 0 ? '' : 'on the negative real axis'}: it has no real principal logarithm.`.replace(
        ' :',
        ':',
      ),
      'infeasible',
    );
  const { start, size } = schurBlocks(T);
  const I = eye(n);
  let S = T;
  let s = 0;
  while (norm1(add(S, I, -1)) > THETA[THETA.length - 1]) {
    if (s >= MAX_ROOTS) throw new ControlError(`logm: no convergence after ${MAX_ROOTS} square roots (the logarithm is beyond 2^60 in norm)`, 'numerical');
    S = sqrtQuasiTriangular(S, start, size);
    s++;
  }
  const X = add(S, I, -1);
  const nx = norm1(X);
  let m = THETA.findIndex((th) => nx <= th) + 1;
  if (m < 1) m = THETA.length;
  // a square root more where it is cheap to make the degree smaller is not needed: m ≤ 7
  const { x, w } = gaussLegendre01(m);
  let L = zeros(n, n);
  for (let j = 0; j < m; j++) {
    const F = luFactor(add(I, scale(X, x[j])));
    L = add(L, luSolve(F, X), w[j]);
  }
  L = scale(L, 2 ** s);
  return mul(mul(Z, L), transpose(Z));
}
