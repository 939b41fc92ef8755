/**
 * Small dense real (and a little complex) linear algebra used by the analysis solvers
 * (c2d, time and frequency responses, norms, pole placement). Matrices are arrays of rows.
 * Everything here is plain, deterministic double-precision code with no dependencies.
 */
import { ControlError } from '../errors.js';

export type Mat = number[][];

export const EPS = 2.220446049250313e-16;

export function zeros(r: number, c: number): Mat {
  const M: Mat = new Array(r);
  for (let i = 0; i < r; i++) M[i] = new Array(c).fill(0);
  return M;
}

export function eye(n: number): Mat {
  const M = zeros(n, n);
  for (let i = 0; i < n; i++) M[i][i] = 1;
  return M;
}

export function copy(A: Mat): Mat {
  return A.map((r) => r.slice());
}

export function transpose(A: Mat): Mat {
  const r = A.length;
  const c = r ? A[0].length : 0;
  const T = zeros(c, r);
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) T[j][i] = A[i][j];
  return T;
}

export function matmul(A: Mat, B: Mat): Mat {
  const r = A.length;
  const k = B.length;
  const c = k ? B[0].length : A.length && A[0].length === 0 ? 0 : 0;
  const cols = k ? B[0].length : c;
  const M = zeros(r, cols);
  for (let i = 0; i < r; i++) {
    const Ai = A[i];
    const Mi = M[i];
    for (let l = 0; l < k; l++) {
      const a = Ai[l];
      if (a === 0) continue;
      const Bl = B[l];
      for (let j = 0; j < cols; j++) Mi[j] += a * Bl[j];
    }
  }
  return M;
}

export function matvec(A: Mat, x: number[]): number[] {
  const y = new Array(A.length).fill(0);
  for (let i = 0; i < A.length; i++) {
    let s = 0;
    const Ai = A[i];
    for (let j = 0; j < x.length; j++) s += Ai[j] * x[j];
    y[i] = s;
  }
  return y;
}

export function add(A: Mat, B: Mat, beta = 1): Mat {
  return A.map((r, i) => r.map((v, j) => v + beta * B[i][j]));
}

export function scale(A: Mat, s: number): Mat {
  return A.map((r) => r.map((v) => v * s));
}

/** Frobenius norm by a scaled sum of squares: entries near 1e200 or 1e-200 neither overflow nor vanish */
export function normFro(A: Mat): number {
  let sc = 0;
  let ss = 1;
  for (const r of A)
    for (const v of r) {
      if (v === 0) continue;
      const a = Math.abs(v);
      if (sc < a) {
        ss = 1 + ss * (sc / a) * (sc / a);
        sc = a;
      } else ss += (a / sc) * (a / sc);
    }
  return sc * Math.sqrt(ss);
}

export function norm1(A: Mat): number {
  if (!A.length) return 0;
  let m = 0;
  for (let j = 0; j < A[0].length; j++) {
    let s = 0;
    for (let i = 0; i < A.length; i++) s += Math.abs(A[i][j]);
    if (s > m) m = s;
  }
  return m;
}

export function maxAbs(A: Mat): number {
  let m = 0;
  for (const r of A) for (const v of r) if (Math.abs(v) > m) m = Math.abs(v);
  return m;
}

/** [A B; C D] from blocks (any block may have zero rows or columns) */
export function block(rows: Mat[][]): Mat {
  const out: Mat = [];
  for (const br of rows) {
    const h = br[0].length;
    for (let i = 0; i < h; i++) {
      const row: number[] = [];
      for (const b of br) row.push(...b[i]);
      out.push(row);
    }
  }
  return out;
}

export function sub(A: Mat, r0: number, r1: number, c0: number, c1: number): Mat {
  const M: Mat = [];
  for (let i = r0; i < r1; i++) M.push(A[i].slice(c0, c1));
  return M;
}

// ------------------------------------------------------------------ LU

export interface LU {
  LU: Mat;
  piv: number[];
  /** smallest |pivot| relative to the largest entry of A; 0 means exactly singular */
  minPivot: number;
  n: number;
}

export function lu(A: Mat): LU {
  const n = A.length;
  const M = copy(A);
  const piv = Array.from({ length: n }, (_, i) => i);
  const scaleA = maxAbs(A) || 1;
  let minPivot = Infinity;
  for (let k = 0; k < n; k++) {
    let p = k;
    let mx = Math.abs(M[k][k]);
    for (let i = k + 1; i < n; i++) if (Math.abs(M[i][k]) > mx) ((mx = Math.abs(M[i][k])), (p = i));
    if (p !== k) {
      [M[p], M[k]] = [M[k], M[p]];
      [piv[p], piv[k]] = [piv[k], piv[p]];
    }
    minPivot = Math.min(minPivot, mx / scaleA);
    if (mx === 0) continue;
    const Mk = M[k];
    const d = Mk[k];
    for (let i = k + 1; i < n; i++) {
      const Mi = M[i];
      const f = Mi[k] / d;
      if (f === 0) continue;
      Mi[k] = f;
      for (let j = k + 1; j < n; j++) Mi[j] -= f * Mk[j];
    }
  }
  return { LU: M, piv, minPivot: n ? minPivot : 1, n };
}

/** solves A X = B with a factorisation of A (B: n x k) */
export function luSolve(f: LU, B: Mat): Mat {
  const { LU: M, piv, n } = f;
  const k = B.length ? B[0].length : 0;
  const X: Mat = piv.map((p) => B[p].slice());
  for (let c = 0; c < k; c++) {
    for (let i = 0; i < n; i++) {
      let s = X[i][c];
      const Mi = M[i];
      for (let j = 0; j < i; j++) s -= Mi[j] * X[j][c];
      X[i][c] = s;
    }
    for (let i = n - 1; i >= 0; i--) {
      let s = X[i][c];
      const Mi = M[i];
      for (let j = i + 1; j < n; j++) s -= Mi[j] * X[j][c];
      X[i][c] = s / Mi[i];
    }
  }
  return X;
}

/** solves X A = B (B: k x n) */
export function luSolveRight(f: LU, B: Mat): Mat {
  // X A = B  <=>  A' X' = B'
  const { LU: M, piv, n } = f;
  const k = B.length;
  const X = zeros(k, n);
  for (let r = 0; r < k; r++) {
    const y = B[r].slice();
    // A = P' L U, A' = U' L' P; solve U' z = b, L' w = z, x = P' w
    for (let i = 0; i < n; i++) {
      let s = y[i];
      for (let j = 0; j < i; j++) s -= M[j][i] * y[j];
      y[i] = s / M[i][i];
    }
    for (let i = n - 1; i >= 0; i--) {
      let s = y[i];
      for (let j = i + 1; j < n; j++) s -= M[j][i] * y[j];
      y[i] = s;
    }
    for (let i = 0; i < n; i++) X[r][piv[i]] = y[i];
  }
  return X;
}

export function solve(A: Mat, B: Mat): Mat {
  return luSolve(lu(A), B);
}

export function inv(A: Mat): Mat {
  return luSolve(lu(A), eye(A.length));
}

/** reciprocal 1-norm condition number (computed with the explicit inverse; fine for small n) */
export function rcond(A: Mat): number {
  const f = lu(A);
  if (f.minPivot === 0) return 0;
  const Ai = luSolve(f, eye(A.length));
  const c = norm1(A) * norm1(Ai);
  return Number.isFinite(c) && c > 0 ? 1 / c : 0;
}

// ------------------------------------------------------------------ Householder

/**
 * Householder vector for x: returns v (v[0] = 1) and beta with (I - beta v v') x = alpha e1.
 * Stable sign choice; beta = 0 when x is already a multiple of e1.
 */
export function house(x: number[]): { v: number[]; beta: number; alpha: number } {
  const n = x.length;
  let sigma = 0;
  for (let i = 1; i < n; i++) sigma += x[i] * x[i];
  const v = x.slice();
  v[0] = 1;
  if (sigma === 0) return { v, beta: 0, alpha: x[0] };
  const mu = Math.sqrt(x[0] * x[0] + sigma);
  const v0 = x[0] <= 0 ? x[0] - mu : -sigma / (x[0] + mu);
  const beta = (2 * v0 * v0) / (sigma + v0 * v0);
  for (let i = 1; i < n; i++) v[i] = x[i] / v0;
  return { v, beta, alpha: mu };
}

/** applies (I - beta v v') from the left to rows r0.. of M, columns c0..c1-1 */
function applyLeft(M: Mat, v: number[], beta: number, r0: number, c0: number, c1: number): void {
  if (beta === 0) return;
  for (let j = c0; j < c1; j++) {
    let s = 0;
    for (let i = 0; i < v.length; i++) s += v[i] * M[r0 + i][j];
    s *= beta;
    if (s === 0) continue;
    for (let i = 0; i < v.length; i++) M[r0 + i][j] -= s * v[i];
  }
}

/** applies (I - beta v v') from the right to columns c0.. of M, rows r0..r1-1 */
function applyRight(M: Mat, v: number[], beta: number, c0: number, r0: number, r1: number): void {
  if (beta === 0) return;
  for (let i = r0; i < r1; i++) {
    const Mi = M[i];
    let s = 0;
    for (let k = 0; k < v.length; k++) s += Mi[c0 + k] * v[k];
    s *= beta;
    if (s === 0) continue;
    for (let k = 0; k < v.length; k++) Mi[c0 + k] -= s * v[k];
  }
}

/**
 * Orthogonal Hessenberg reduction: A = Q H Q'. With `first` given, the first reflector maps
 * that vector onto a multiple of e1 (controller-Hessenberg form for a single input b).
 */
export function hessenberg(A: Mat, first?: number[]): { H: Mat; Q: Mat; b0?: number } {
  const n = A.length;
  const H = copy(A);
  const Q = eye(n);
  let b0: number | undefined;
  if (first) {
    const h = house(first);
    b0 = h.alpha;
    applyLeft(H, h.v, h.beta, 0, 0, n);
    applyRight(H, h.v, h.beta, 0, 0, n);
    applyRight(Q, h.v, h.beta, 0, 0, n);
  }
  for (let k = 0; k < n - 2; k++) {
    const x: number[] = [];
    for (let i = k + 1; i < n; i++) x.push(H[i][k]);
    const h = house(x);
    if (h.beta === 0) continue;
    applyLeft(H, h.v, h.beta, k + 1, 0, n);
    applyRight(H, h.v, h.beta, k + 1, 0, n);
    applyRight(Q, h.v, h.beta, k + 1, 0, n);
    for (let i = k + 2; i < n; i++) H[i][k] = 0;
  }
  return { H, Q, b0 };
}

/**
 * Householder QR with column pivoting, A (m x n) P = Q R. Q is returned in full (m x m).
 * `rank` counts the diagonal entries of R above tol·|R11| (tol relative unless `absTol`).
 */
export function qrp(
  A: Mat,
  tol?: number,
  absTol?: number,
): { Q: Mat; R: Mat; perm: number[]; rank: number } {
  const m = A.length;
  const n = m ? A[0].length : 0;
  const R = copy(A);
  const Q = eye(m);
  const perm = Array.from({ length: n }, (_, i) => i);
  const norms = new Array(n).fill(0);
  for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) norms[j] += R[i][j] * R[i][j];
  const kmax = Math.min(m, n);
  for (let k = 0; k < kmax; k++) {
    // recompute remaining column norms exactly (sizes here are small)
    let p = k;
    let best = -1;
    for (let j = k; j < n; j++) {
      let s = 0;
      for (let i = k; i < m; i++) s += R[i][j] * R[i][j];
      norms[j] = s;
      if (s > best) ((best = s), (p = j));
    }
    if (p !== k) {
      for (let i = 0; i < m; i++) [R[i][p], R[i][k]] = [R[i][k], R[i][p]];
      [perm[p], perm[k]] = [perm[k], perm[p]];
    }
    const x: number[] = [];
    for (let i = k; i < m; i++) x.push(R[i][k]);
    const h = house(x);
    applyLeft(R, h.v, h.beta, k, k, n);
    applyRight(Q, h.v, h.beta, k, 0, m);
    for (let i = k + 1; i < m; i++) R[i][k] = 0;
  }
  const r11 = kmax ? Math.abs(R[0][0]) : 0;
  const thr = absTol !== undefined ? absTol : (tol ?? Math.max(m, n) * EPS) * r11;
  let rank = 0;
  for (let k = 0; k < kmax; k++) if (Math.abs(R[k][k]) > thr && R[k][k] !== 0) rank++;
  else break;
  return { Q, R, perm, rank };
}

// ------------------------------------------------------------------ expm

const PADE: Record<number, number[]> = {
  3: [120, 60, 12, 1],
  5: [30240, 15120, 3360, 420, 30, 1],
  7: [17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1],
  9: [17643225600, 8821612800, 2075673600, 302702400, 30270240, 2162160, 110880, 3960, 90, 1],
  13: [
    64764752532480000, 32382376266240000, 7771770303897600, 1187353796428800, 129060195264000,
    10559470521600, 670442572800, 33522128640, 1323241920, 40840800, 960960, 16380, 182, 1,
  ],
};
const THETA: [number, number][] = [
  [3, 1.495585217958292e-2],
  [5, 2.539398330063230e-1],
  [7, 9.504178996162932e-1],
  [9, 2.097847961257068],
];

function lincomb(terms: [number, Mat][], n: number): Mat {
  const M = zeros(n, n);
  for (const [c, X] of terms) {
    if (c === 0) continue;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) M[i][j] += c * X[i][j];
  }
  return M;
}

/** matrix exponential by Padé approximation with scaling and squaring (Higham 2005) */
export function expm(A: Mat): Mat {
  const n = A.length;
  if (n === 0) return [];
  const I = eye(n);
  const nrm = norm1(A);
  if (nrm === 0) return I;
  // ‖A‖ infinite or NaN (t·A overflowed): the scaling below would never end. Any finite norm
  // needs at most 1024 squarings (a stable A at t = 1e300 decays to a representable result)
  if (!Number.isFinite(nrm))
    throw new ControlError(`the matrix exponential of a matrix with 1-norm ${nrm} cannot be computed in floating point (the time or sample time is too large for this system); use a shorter time span`);
  for (const [m, th] of THETA) {
    if (nrm <= th) {
      const A2 = matmul(A, A);
      const b = PADE[m];
      const pw: Mat[] = [I, A2];
      for (let k = 2; k <= (m - 1) / 2; k++) pw.push(matmul(pw[k - 1], A2));
      const Uin = lincomb(
        pw.map((P, k) => [b[2 * k + 1], P] as [number, Mat]),
        n,
      );
      const U = matmul(A, Uin);
      const V = lincomb(
        pw.map((P, k) => [b[2 * k], P] as [number, Mat]),
        n,
      );
      return padeSolve(U, V);
    }
  }
  const s = Math.max(0, Math.ceil(Math.log2(nrm / 5.371920351148152)));
  // scale first, then square: A·A itself overflows when ‖A‖ > 1e154 (t = 1e200 in a step
  // response), and 2^-2s underflows to 0 for s > 537, either way B2 was NaN
  const As = scale(A, Math.pow(2, -s));
  const B2 = matmul(As, As);
  const B4 = matmul(B2, B2);
  const B6 = matmul(B4, B2);
  const b = PADE[13];
  const U1 = matmul(B6, lincomb([[b[13], B6], [b[11], B4], [b[9], B2]], n));
  const U = matmul(As, add(U1, lincomb([[b[7], B6], [b[5], B4], [b[3], B2], [b[1], I]], n)));
  const V1 = matmul(B6, lincomb([[b[12], B6], [b[10], B4], [b[8], B2]], n));
  const V = add(V1, lincomb([[b[6], B6], [b[4], B4], [b[2], B2], [b[0], I]], n));
  let R = padeSolve(U, V);
  for (let k = 0; k < s; k++) {
    R = matmul(R, R);
    // an entry past 1.8e308 makes every later square Inf or NaN: say so now
    if (!R.every((row) => row.every(Number.isFinite)))
      throw new ControlError(
        `the matrix exponential overflows: e^(A·t) has entries beyond 1.8e308 (the largest double) at this time span (‖A·t‖₁ = ${nrm.toPrecision(3)}), so the response cannot be computed; use a shorter time span or sample time.`,
        'numerical',
      );
  }
  return R;
}

function padeSolve(U: Mat, V: Mat): Mat {
  const P = add(V, U);
  const Q = add(V, U, -1);
  return solve(Q, P);
}

// ------------------------------------------------------------------ small complex helpers

/** complex matrix as separate real and imaginary parts */
export interface CMat {
  re: Mat;
  im: Mat;
}

/**
 * Solves (s I - H) X = B for upper Hessenberg H and complex s = sr + i·si, B real (n x k).
 * Gaussian elimination with partial pivoting between adjacent rows: O(n^2 k).
 * Returns null when the matrix is exactly singular (s is an eigenvalue).
 * Work arrays are flat and reused between calls of the same size.
 */
let hsWork: { n: number; k: number; Mr: Float64Array; Mi: Float64Array; Xr: Float64Array; Xi: Float64Array } | null = null;

export function hessShiftSolve(H: Mat, sr: number, si: number, B: Mat): CMat | null {
  const n = H.length;
  const k = B.length ? B[0].length : 0;
  if (!hsWork || hsWork.n !== n || hsWork.k !== k)
    hsWork = { n, k, Mr: new Float64Array(n * n), Mi: new Float64Array(n * n), Xr: new Float64Array(n * k), Xi: new Float64Array(n * k) };
  const { Mr, Mi, Xr, Xi } = hsWork;
  Mi.fill(0);
  for (let i = 0; i < n; i++) {
    const Hi = H[i];
    const o = i * n;
    for (let j = 0; j < n; j++) Mr[o + j] = j >= i - 1 ? -Hi[j] : 0;
    Mr[o + i] += sr;
    Mi[o + i] = si;
    for (let j = 0; j < k; j++) {
      Xr[i * k + j] = B[i][j];
      Xi[i * k + j] = 0;
    }
  }
  const swapRows = (A: Float64Array, w: number, r1: number, r2: number, from: number) => {
    for (let j = from; j < w; j++) {
      const t = A[r1 * w + j];
      A[r1 * w + j] = A[r2 * w + j];
      A[r2 * w + j] = t;
    }
  };
  for (let c = 0; c < n - 1; c++) {
    const cc = c * n + c;
    const lc = (c + 1) * n + c;
    const a2 = Mr[cc] * Mr[cc] + Mi[cc] * Mi[cc];
    const b2 = Mr[lc] * Mr[lc] + Mi[lc] * Mi[lc];
    if (b2 > a2) {
      swapRows(Mr, n, c, c + 1, c);
      swapRows(Mi, n, c, c + 1, c);
      swapRows(Xr, k, c, c + 1, 0);
      swapRows(Xi, k, c, c + 1, 0);
    }
    const pr = Mr[cc];
    const pi = Mi[cc];
    const d = pr * pr + pi * pi;
    if (d === 0) continue;
    const lr = Mr[lc];
    const li = Mi[lc];
    if (lr === 0 && li === 0) continue;
    const fr = (lr * pr + li * pi) / d;
    const fi = (li * pr - lr * pi) / d;
    const po = c * n;
    const ro = (c + 1) * n;
    for (let j = c; j < n; j++) {
      const ar = Mr[po + j];
      const ai = Mi[po + j];
      Mr[ro + j] -= fr * ar - fi * ai;
      Mi[ro + j] -= fr * ai + fi * ar;
    }
    for (let j = 0; j < k; j++) {
      const ar = Xr[c * k + j];
      const ai = Xi[c * k + j];
      Xr[(c + 1) * k + j] -= fr * ar - fi * ai;
      Xi[(c + 1) * k + j] -= fr * ai + fi * ar;
    }
  }
  // a pivot at the rounding level of sI − H is a singular matrix in double precision (s on an
  // eigenvalue, e.g. z = 1 of an integer A that Hessenberg rounding left 2e-16 off): a pole,
  // not a value of 5e15 made of rounding
  let hn = Math.hypot(sr, si);
  for (let i = 0; i < n; i++) for (let j = Math.max(0, i - 1); j < n; j++) hn = Math.max(hn, Math.abs(H[i][j]));
  const tiny = n * EPS * hn;
  for (let i = n - 1; i >= 0; i--) {
    const o = i * n;
    const pr = Mr[o + i];
    const pi = Mi[o + i];
    const d = pr * pr + pi * pi;
    if (d === 0 || Math.sqrt(d) <= tiny) return null;
    for (let j = 0; j < k; j++) {
      let sr2 = Xr[i * k + j];
      let si2 = Xi[i * k + j];
      for (let l = i + 1; l < n; l++) {
        const mr = Mr[o + l];
        const mi = Mi[o + l];
        const xr = Xr[l * k + j];
        const xi = Xi[l * k + j];
        sr2 -= mr * xr - mi * xi;
        si2 -= mr * xi + mi * xr;
      }
      Xr[i * k + j] = (sr2 * pr + si2 * pi) / d;
      Xi[i * k + j] = (si2 * pr - sr2 * pi) / d;
    }
  }
  const re: Mat = [];
  const im: Mat = [];
  for (let i = 0; i < n; i++) {
    re.push(Array.from(Xr.subarray(i * k, (i + 1) * k)));
    im.push(Array.from(Xi.subarray(i * k, (i + 1) * k)));
  }
  return { re, im };
}
