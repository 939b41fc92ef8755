/**
 * Orthogonal Hessenberg form A = Q H Q' with Q formed (optionally started from a vector, the
 * controller-Hessenberg form of a single input), and shifted Hessenberg solves
 * (sI − H) X = B at complex s: one O(n²) solve per frequency for transfer-function values
 * C(sI − A)⁻¹B = (CQ)(sI − H)⁻¹(Q'B). (schur.ts has the in-place reduction the eigensolver uses.)
 */
import { type Mat, EPS, clone, eye, mul, mulTN, reflectLeft, reflectRight } from './dense.js';
import { house, placed } from './qr.js';

/**
 * Orthogonal Hessenberg reduction: A = Q H Q'. With `first` given, the first reflector maps
 * that vector onto a multiple of e1 (controller-Hessenberg form for a single input b); b0 is
 * that multiple.
 */
export function hessenbergQ(A: Mat, first?: ArrayLike<number>): { H: Mat; Q: Mat; b0?: number } {
  const n = A.r;
  const H = clone(A);
  const h = H.d;
  const Q = eye(n);
  const acc = new Float64Array(n);
  let b0: number | undefined;
  if (first) {
    const f = house(first);
    b0 = f.alpha;
    if (f.beta !== 0) {
      const v = placed(f.v, 0, n);
      reflectLeft(h, n, 0, n, 0, n, v, f.beta, acc);
      reflectRight(h, 0, n, n, 0, n, v, f.beta);
      reflectRight(Q.d, 0, n, n, 0, n, v, f.beta);
    }
  }
  for (let k = 0; k < n - 2; k++) {
    const x = new Float64Array(n - k - 1);
    for (let i = k + 1; i < n; i++) x[i - k - 1] = h[i * n + k];
    const f = house(x);
    if (f.beta === 0) continue;
    const v = placed(f.v, k + 1, n);
    reflectLeft(h, n, k + 1, n, 0, n, v, f.beta, acc);
    reflectRight(h, 0, n, n, k + 1, n, v, f.beta);
    reflectRight(Q.d, 0, n, n, k + 1, n, v, f.beta);
    for (let i = k + 2; i < n; i++) h[i * n + k] = 0;
  }
  return { H, Q, b0 };
}

/**
 * (A, B, C) in Hessenberg coordinates: H = Q'AQ, Bt = Q'B, Ct = CQ, for evaluating
 * C(sI − A)⁻¹B at many s with hessShiftSolve.
 */
export function hessenbergSystem(A: Mat, B: Mat, C: Mat): { H: Mat; Bt: Mat; Ct: Mat } {
  const { H, Q } = hessenbergQ(A);
  return { H, Bt: mulTN(Q, B), Ct: mul(C, Q) };
}

/** a complex matrix as its real and imaginary parts */
export interface CMat {
  re: Mat;
  im: Mat;
}

/** work arrays, reused between calls of the same size */
let hsWork: { n: number; k: number; Mr: Float64Array; Mi: Float64Array; Xr: Float64Array; Xi: Float64Array } | null = null;

/**
 * Solves (s I - H) X = B for upper Hessenberg H and complex s = sr + i·si, B real (n x k).
 * Gaussian elimination with partial pivoting between adjacent rows: O(n^2 k).
 * Returns null when the matrix is singular to rounding (s is an eigenvalue).
 */
export function hessShiftSolve(H: Mat, sr: number, si: number, B: Mat): CMat | null {
  const n = H.r;
  const k = B.c;
  const hd = H.d,
    bd = B.d;
  if (!hsWork || hsWork.n !== n || hsWork.k !== k)
    hsWork = { n, k, Mr: new Float64Array(n * n), Mi: new Float64Array(n * n), Xr: new Float64Array(n * k), Xi: new Float64Array(n * k) };
  const { Mr, Mi, Xr, Xi } = hsWork;
  Mi.fill(0);
  for (let i = 0; i < n; i++) {
    const o = i * n;
    for (let j = 0; j < n; j++) Mr[o + j] = j >= i - 1 ? -hd[o + j] : 0;
    Mr[o + i] += sr;
    Mi[o + i] = si;
    for (let j = 0; j < k; j++) {
      Xr[i * k + j] = bd[i * k + j];
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
  for (let i = 0; i < n; i++) for (let j = Math.max(0, i - 1); j < n; j++) hn = Math.max(hn, Math.abs(hd[i * n + j]));
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
  return { re: { r: n, c: k, d: Xr.slice(0, n * k) }, im: { r: n, c: k, d: Xi.slice(0, n * k) } };
}
