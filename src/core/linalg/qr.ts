/**
 * Householder vectors and QR with column pivoting (A P = Q R, as LAPACK dgeqp3 with the
 * column norms recomputed at each step), with the rank read off R's diagonal. The reflector
 * updates are the shared row-blocked ones of dense.ts (reflectLeft/reflectRight).
 */
import { type Mat, EPS, clone, eye, reflectLeft, reflectRight } from './dense.js';

/**
 * Householder vector for x: returns v (v[0] = 1) and beta with (I - beta v v') x = alpha e1.
 * Stable sign choice; beta = 0 when x is already a multiple of e1.
 */
export function house(x: ArrayLike<number>): { v: Float64Array; beta: number; alpha: number } {
  const n = x.length;
  let sigma = 0;
  for (let i = 1; i < n; i++) sigma += x[i] * x[i];
  const v = Float64Array.from(x);
  v[0] = 1;
  if (sigma === 0) return { v, beta: 0, alpha: x[0] };
  const mu = Math.sqrt(x[0] * x[0] + sigma);
  const v0 = x[0] <= 0 ? x[0] - mu : -sigma / (x[0] + mu);
  const beta = (2 * v0 * v0) / (sigma + v0 * v0);
  for (let i = 1; i < n; i++) v[i] = x[i] / v0;
  return { v, beta, alpha: mu };
}

/**
 * A house() vector placed at offset `at` of a length-`len` vector (zeros before it), the
 * form reflectLeft/reflectRight index by row or column.
 */
export function placed(v: Float64Array, at: number, len: number): Float64Array {
  const out = new Float64Array(len);
  out.set(v, at);
  return out;
}

/**
 * Householder QR with column pivoting, A (m x n) P = Q R. Q is returned in full (m x m).
 * `rank` counts the diagonal entries of R above tol·|R11| (tol relative unless `absTol`).
 */
export function qrp(A: Mat, tol?: number, absTol?: number): { Q: Mat; R: Mat; perm: number[]; rank: number } {
  const m = A.r,
    n = A.c;
  const R = clone(A);
  const r = R.d;
  const Q = eye(m);
  const perm = Array.from({ length: n }, (_, i) => i);
  const acc = new Float64Array(n);
  const kmax = Math.min(m, n);
  for (let k = 0; k < kmax; k++) {
    // remaining column norms recomputed exactly (sizes here are small)
    let p = k;
    let best = -1;
    for (let j = k; j < n; j++) {
      let s = 0;
      for (let i = k; i < m; i++) s += r[i * n + j] * r[i * n + j];
      if (s > best) {
        best = s;
        p = j;
      }
    }
    if (p !== k) {
      for (let i = 0; i < m; i++) {
        const t = r[i * n + p];
        r[i * n + p] = r[i * n + k];
        r[i * n + k] = t;
      }
      [perm[p], perm[k]] = [perm[k], perm[p]];
    }
    const x = new Float64Array(m - k);
    for (let i = k; i < m; i++) x[i - k] = r[i * n + k];
    const h = house(x);
    if (h.beta !== 0) {
      const v = placed(h.v, k, m);
      reflectLeft(r, n, k, m, k, n, v, h.beta, acc);
      reflectRight(Q.d, 0, m, m, k, m, v, h.beta);
    }
    for (let i = k + 1; i < m; i++) r[i * n + k] = 0;
  }
  const r11 = kmax ? Math.abs(r[0]) : 0;
  const thr = absTol !== undefined ? absTol : (tol ?? Math.max(m, n) * EPS) * r11;
  let rank = 0;
  for (let k = 0; k < kmax; k++)
    if (Math.abs(r[k * n + k]) > thr && r[k * n + k] !== 0) rank++;
    else break;
  return { Q, R, perm, rank };
}

/**
 * The triangular factor R of A = Q R for a tall A (m x n, m ≥ n), without forming Q
 * (Householder, unpivoted), with R's diagonal made non-negative (a row's sign is free: Q's
 * column absorbs it). RᵀR = AᵀA; lyapchol uses it to turn a factor M of X = MᵀM into the
 * upper-triangular Cholesky factor without forming X.
 */
export function qrR(A: Mat): Mat {
  const m = A.r,
    n = A.c;
  if (m < n) throw new Error(`qrR needs at least as many rows as columns (${m}x${n})`);
  const W = clone(A);
  const w = W.d;
  const x = new Float64Array(m);
  for (let j = 0; j < n; j++) {
    const len = m - j;
    for (let i = 0; i < len; i++) x[i] = w[(j + i) * n + j];
    const { v, beta, alpha } = house(x.subarray(0, len));
    if (beta !== 0) {
      for (let k = j + 1; k < n; k++) {
        let s = 0;
        for (let i = 0; i < len; i++) s += v[i] * w[(j + i) * n + k];
        s *= beta;
        for (let i = 0; i < len; i++) w[(j + i) * n + k] -= s * v[i];
      }
      w[j * n + j] = alpha;
    }
    for (let i = 1; i < len; i++) w[(j + i) * n + j] = 0;
  }
  const R = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const sg = w[i * n + i] < 0 ? -1 : 1;
    for (let k = i; k < n; k++) R[i * n + k] = sg * w[i * n + k];
  }
  return { r: n, c: n, d: R };
}

/**
 * Least squares min ‖A x − b‖₂ by QR with column pivoting (A P = Q R), the basic solution
 * MATLAB's backslash returns for a tall or wide A: the leading `rank` columns of A P are
 * solved by back substitution with R11, the others set to 0 (rank read off R's diagonal with
 * qrp's rule). `b` has A.r entries; returns x (A.c entries) and the rank used.
 */
export function lstsq(A: Mat, b: ArrayLike<number>, tol?: number): { x: Float64Array; rank: number } {
  const m = A.r,
    n = A.c;
  const x = new Float64Array(n);
  if (n === 0 || m === 0) return { x, rank: 0 };
  const { Q, R, perm, rank } = qrp(A, tol);
  // y = Q' b (first `rank` entries)
  const y = new Float64Array(rank);
  for (let i = 0; i < rank; i++) {
    let s = 0;
    for (let k = 0; k < m; k++) s += Q.d[k * m + i] * b[k];
    y[i] = s;
  }
  for (let i = rank - 1; i >= 0; i--) {
    let s = y[i];
    for (let j = i + 1; j < rank; j++) s -= R.d[i * n + j] * y[j];
    y[i] = s / R.d[i * n + i];
  }
  for (let i = 0; i < rank; i++) x[perm[i]] = y[i];
  return { x, rank };
}
