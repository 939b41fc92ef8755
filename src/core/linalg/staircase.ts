/**
 * Controllability staircase form (as SLICOT AB01OD / MATLAB ctrbf): an orthogonal Z with
 *   Z' A Z = [Ac  *  ]    Z' B = [Bc]
 *            [0   Auc]           [0 ]
 * where (Ac, Bc) is controllable. The eigenvalues of Auc are the uncontrollable modes; they
 * are what the stabilisability test needs (a PBH test with computed eigenvalues of A would
 * depend on how accurately a defective or clustered eigenvalue is computed; the staircase
 * decides ranks of well-scaled blocks instead). Rank decisions by Householder QR with column
 * pivoting. Written by hand: no JS library offers it.
 */
import { type Mat, zeros, normF, EPS } from './dense.js';

export interface Staircase {
  /** dimension of the controllable part */
  nc: number;
  /** Z' A Z */
  At: Mat;
  /** orthogonal transformation */
  Z: Mat;
}

export function controllabilityStaircase(A: Mat, B: Mat, tol?: number): Staircase {
  const n = A.r, m = B.c;
  const w = m + n;
  // augmented [B, A]: left transformations act on all columns, right ones on the A part
  const M = zeros(n, w);
  const an = normF(A), bn = normF(B);
  const bscale = bn > 0 ? (an > 0 ? an / bn : 1 / bn) : 1; // B -> B*bscale, same controllability
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) M.d[i * w + j] = B.d[i * m + j] * bscale;
    for (let j = 0; j < n; j++) M.d[i * w + m + j] = A.d[i * n + j];
  }
  const Z = zeros(n, n);
  for (let i = 0; i < n; i++) Z.d[i * n + i] = 1;
  const norm = Math.max(an, bn * bscale, Number.MIN_VALUE);
  const t = tol ?? Math.max(n, m, 10) * EPS * norm;
  const d = M.d;
  const v = new Float64Array(n);
  let k = 0; // rows k.. still to be split
  let c0 = 0, c1 = m; // current block columns [c0, c1) of the augmented matrix
  while (k < n && c1 > c0) {
    const cols: number[] = [];
    for (let j = c0; j < c1; j++) cols.push(j);
    let r = 0;
    for (; r < cols.length && k + r < n; r++) {
      // pivot: the remaining column with the largest norm on rows k+r..
      let best = -1, bi = r;
      for (let q = r; q < cols.length; q++) {
        let s = 0;
        for (let i = k + r; i < n; i++) s = Math.hypot(s, d[i * w + cols[q]]);
        if (s > best) {
          best = s;
          bi = q;
        }
      }
      if (best <= t) break;
      const tmp = cols[r];
      cols[r] = cols[bi];
      cols[bi] = tmp;
      const col = cols[r];
      // Householder on rows k+r..n-1 mapping the column to a multiple of e_{k+r}
      const p0 = k + r;
      const alpha = d[p0 * w + col];
      let xn = 0;
      for (let i = p0 + 1; i < n; i++) xn = Math.hypot(xn, d[i * w + col]);
      if (xn === 0) continue;
      const beta = alpha >= 0 ? -Math.hypot(alpha, xn) : Math.hypot(alpha, xn);
      const tau = (beta - alpha) / beta;
      v.fill(0);
      v[p0] = 1;
      for (let i = p0 + 1; i < n; i++) v[i] = d[i * w + col] / (alpha - beta);
      // left: rows p0.. of all columns
      for (let j = 0; j < w; j++) {
        let s = 0;
        for (let i = p0; i < n; i++) s += v[i] * d[i * w + j];
        s *= tau;
        if (s !== 0) for (let i = p0; i < n; i++) d[i * w + j] -= s * v[i];
      }
      for (let i = p0 + 1; i < n; i++) d[i * w + col] = 0;
      // right: A part columns m+p0.., all rows
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = p0; j < n; j++) s += d[i * w + m + j] * v[j];
        s *= tau;
        if (s !== 0) for (let j = p0; j < n; j++) d[i * w + m + j] -= s * v[j];
      }
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = p0; j < n; j++) s += Z.d[i * n + j] * v[j];
        s *= tau;
        if (s !== 0) for (let j = p0; j < n; j++) Z.d[i * n + j] -= s * v[j];
      }
    }
    if (r === 0) break;
    // the next "B" is the block A(k+r:, k:k+r)
    c0 = m + k;
    c1 = m + k + r;
    k += r;
  }
  const At = zeros(n, n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) At.d[i * n + j] = d[i * w + m + j];
  return { nc: k, At, Z };
}
