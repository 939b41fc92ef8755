/**
 * Dense real matrices for the numerical kernel: row-major Float64Array storage, element
 * (i, j) of an r x c matrix at index i*c + j. Public solver functions take and return
 * number[][] (arrays of rows); the kernel converts once at the boundary and works on flat
 * arrays inside, so inner loops do not chase row pointers or allocate.
 */
import type { Matrix } from '../types.js';

export const EPS = 2.220446049250313e-16; // 2^-52, numpy/MATLAB eps
export const SAFMIN = 2.2250738585072014e-308;

/** a dense r x c matrix, row-major */
export interface Mat {
  r: number;
  c: number;
  d: Float64Array;
}

export function zeros(r: number, c: number = r): Mat {
  return { r, c, d: new Float64Array(r * c) };
}

export function eye(n: number): Mat {
  const M = zeros(n, n);
  for (let i = 0; i < n; i++) M.d[i * n + i] = 1;
  return M;
}

export function fromRows(A: Matrix): Mat {
  const r = A.length;
  const c = r ? A[0].length : 0;
  const M = zeros(r, c);
  for (let i = 0; i < r; i++) {
    const row = A[i];
    for (let j = 0; j < c; j++) M.d[i * c + j] = row[j];
  }
  return M;
}

export function toRows(M: Mat): Matrix {
  const out: Matrix = [];
  for (let i = 0; i < M.r; i++) out.push(Array.from(M.d.subarray(i * M.c, (i + 1) * M.c)));
  return out;
}

export function clone(M: Mat): Mat {
  return { r: M.r, c: M.c, d: new Float64Array(M.d) };
}

export function transpose(M: Mat): Mat {
  const T = zeros(M.c, M.r);
  const { r, c, d } = M;
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) T.d[j * r + i] = d[i * c + j];
  return T;
}

/**
 * C = A*B (i-k-j loop order for row-major locality). Four terms of a row of C a step where
 * A's four entries are nonzero: each entry's sum is still added term by term, k ascending
 * (((c + a1 b1) + a2 b2) + ...), and a zero a_ik is still skipped, so the same numbers as one
 * term at a time.
 */
export function mul(A: Mat, B: Mat): Mat {
  if (A.c !== B.r) throw new Error(`mul: ${A.r}x${A.c} times ${B.r}x${B.c}`);
  const C = zeros(A.r, B.c);
  const n = A.r,
    m = A.c,
    p = B.c;
  const a = A.d,
    b = B.d,
    c = C.d;
  let i = 0;
  // two rows of C a step where all eight of their A entries are nonzero: B's four rows loaded
  // once for both (each entry's sum still term by term, k ascending: the same numbers)
  for (; i + 1 < n; i += 2) {
    const ci = i * p,
      ai = i * m,
      ci2 = ci + p,
      ai2 = ai + m;
    let k = 0;
    for (; k + 3 < m; k += 4) {
      const a1 = a[ai + k],
        a2 = a[ai + k + 1],
        a3 = a[ai + k + 2],
        a4 = a[ai + k + 3];
      const e1 = a[ai2 + k],
        e2 = a[ai2 + k + 1],
        e3 = a[ai2 + k + 2],
        e4 = a[ai2 + k + 3];
      const b1 = k * p,
        b2 = b1 + p,
        b3 = b2 + p,
        b4 = b3 + p;
      if (a1 !== 0 && a2 !== 0 && a3 !== 0 && a4 !== 0 && e1 !== 0 && e2 !== 0 && e3 !== 0 && e4 !== 0) {
        for (let j = 0; j < p; j++) {
          const x1 = b[b1 + j],
            x2 = b[b2 + j],
            x3 = b[b3 + j],
            x4 = b[b4 + j];
          c[ci + j] = c[ci + j] + a1 * x1 + a2 * x2 + a3 * x3 + a4 * x4;
          c[ci2 + j] = c[ci2 + j] + e1 * x1 + e2 * x2 + e3 * x3 + e4 * x4;
        }
      } else {
        rowStep(c, ci, b, b1, p, a1, a2, a3, a4);
        rowStep(c, ci2, b, b1, p, e1, e2, e3, e4);
      }
    }
    for (; k < m; k++) {
      const bk = k * p;
      const aik = a[ai + k];
      if (aik !== 0) for (let j = 0; j < p; j++) c[ci + j] += aik * b[bk + j];
      const eik = a[ai2 + k];
      if (eik !== 0) for (let j = 0; j < p; j++) c[ci2 + j] += eik * b[bk + j];
    }
  }
  for (; i < n; i++) {
    const ci = i * p,
      ai = i * m;
    let k = 0;
    for (; k + 3 < m; k += 4) rowStep(c, ci, b, k * p, p, a[ai + k], a[ai + k + 1], a[ai + k + 2], a[ai + k + 3]);
    for (; k < m; k++) {
      const aik = a[ai + k];
      if (aik === 0) continue;
      const bk = k * p;
      for (let j = 0; j < p; j++) c[ci + j] += aik * b[bk + j];
    }
  }
  return C;
}

/** one row of C (at ci) plus four terms a1..a4 times B's rows from b1 (stride p), zeros skipped */
function rowStep(c: Float64Array, ci: number, b: Float64Array, b1: number, p: number, a1: number, a2: number, a3: number, a4: number): void {
  const b2 = b1 + p,
    b3 = b2 + p,
    b4 = b3 + p;
  if (a1 !== 0 && a2 !== 0 && a3 !== 0 && a4 !== 0) {
    for (let j = 0; j < p; j++) c[ci + j] = c[ci + j] + a1 * b[b1 + j] + a2 * b[b2 + j] + a3 * b[b3 + j] + a4 * b[b4 + j];
  } else {
    if (a1 !== 0) for (let j = 0; j < p; j++) c[ci + j] += a1 * b[b1 + j];
    if (a2 !== 0) for (let j = 0; j < p; j++) c[ci + j] += a2 * b[b2 + j];
    if (a3 !== 0) for (let j = 0; j < p; j++) c[ci + j] += a3 * b[b3 + j];
    if (a4 !== 0) for (let j = 0; j < p; j++) c[ci + j] += a4 * b[b4 + j];
  }
}

/**
 * C = A'*B. Through mul on A' (an O(n²) copy): the same sums in the same order as
 * accumulating A's rows k = 0, 1, ... (zeros skipped), at mul's speed; the k-outer loop this
 * replaces rewrote all of C for every k (3.6 ms against 1.3 ms at n = 128).
 */
export function mulTN(A: Mat, B: Mat): Mat {
  if (A.r !== B.r) throw new Error(`mulTN: (${A.r}x${A.c})' times ${B.r}x${B.c}`);
  return mul(transpose(A), B);
}

/**
 * C = A*B'. Through mul on B' (an O(n²) copy): each entry the sum over k ascending, as the
 * row-times-row dot product it replaces (a zero term adds nothing to a finite sum), at
 * mul's speed (2.7 ms against 1.3 ms at n = 128).
 */
export function mulNT(A: Mat, B: Mat): Mat {
  if (A.c !== B.c) throw new Error(`mulNT: ${A.r}x${A.c} times (${B.r}x${B.c})'`);
  return mul(A, transpose(B));
}

/**
 * A*B' for a product known to be symmetric (A B' with A = B M, M symmetric: Z Y Z', Z' Q Z):
 * the entries on and above the diagonal, each the sum over k ascending, two rows of A against
 * two rows of B a step (four independent sums), mirrored below. Half mulNT's work, and the
 * result exactly symmetric.
 */
export function mulNTSym(A: Mat, B: Mat): Mat {
  if (A.c !== B.c || A.r !== B.r) throw new Error(`mulNTSym: ${A.r}x${A.c} times (${B.r}x${B.c})'`);
  const n = A.r,
    m = A.c;
  const C = zeros(n, n);
  const a = A.d,
    b = B.d,
    c = C.d;
  for (let i = 0; i < n; i += 2) {
    const two = i + 1 < n;
    const a0 = i * m,
      a1 = a0 + m;
    for (let j = i; j < n; j += 2) {
      const b0 = j * m,
        b1 = b0 + m;
      if (two && j + 1 < n) {
        let s00 = 0,
          s01 = 0,
          s10 = 0,
          s11 = 0;
        for (let k = 0; k < m; k++) {
          const x0 = a[a0 + k],
            x1 = a[a1 + k],
            y0 = b[b0 + k],
            y1 = b[b1 + k];
          s00 += x0 * y0;
          s01 += x0 * y1;
          s10 += x1 * y0;
          s11 += x1 * y1;
        }
        c[i * n + j] = s00;
        c[i * n + j + 1] = s01;
        if (j > i) c[(i + 1) * n + j] = s10;
        c[(i + 1) * n + j + 1] = s11;
      } else {
        // the last row or column when n is odd
        for (let ii = i; ii < Math.min(i + 2, n); ii++)
          for (let jj = Math.max(j, ii); jj < Math.min(j + 2, n); jj++) {
            let s = 0;
            for (let k = 0; k < m; k++) s += a[ii * m + k] * b[jj * m + k];
            c[ii * n + jj] = s;
          }
      }
    }
  }
  for (let i = 1; i < n; i++) for (let j = 0; j < i; j++) c[i * n + j] = c[j * n + i];
  return C;
}

export function add(A: Mat, B: Mat, beta = 1): Mat {
  const C = clone(A);
  for (let i = 0; i < C.d.length; i++) C.d[i] += beta * B.d[i];
  return C;
}

export function scale(A: Mat, s: number): Mat {
  const C = clone(A);
  for (let i = 0; i < C.d.length; i++) C.d[i] *= s;
  return C;
}

/**
 * The power of 2 that brings the largest |entry| of M near 1, when that entry is outside
 * [2^-100, 2^100]; otherwise 0 (no scaling: every result bit-identical to the unscaled run).
 * Iterations that square entries (QR shifts and rotations, Schur-form solves) overflow near
 * 1e200 and underflow near 1e-200; a power-of-2 scaling is exact.
 */
export function pow2Exponent(M: Mat): number {
  let mx = 0;
  for (const v of M.d) mx = Math.max(mx, Math.abs(v));
  if (!(mx > 0) || !Number.isFinite(mx)) return 0;
  const k = Math.round(Math.log2(mx));
  return Math.abs(k) > 100 ? k : 0;
}

/** d·2^k in place, with 2^k in two factors (2^±1023 is the edge of the range) */
export function scalePow2InPlace(d: Float64Array, k: number): void {
  const k1 = Math.trunc(k / 2),
    k2 = k - k1;
  const f1 = 2 ** k1,
    f2 = 2 ** k2;
  for (let i = 0; i < d.length; i++) d[i] = d[i] * f1 * f2;
}

/** M·2^k, a new matrix (see scalePow2InPlace) */
export function scalePow2(M: Mat, k: number): Mat {
  const out = clone(M);
  scalePow2InPlace(out.d, k);
  return out;
}

/** in place (A + A')/2 */
export function symmetrize(A: Mat): Mat {
  const n = A.r,
    d = A.d;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < i; j++) {
      const v = 0.5 * (d[i * n + j] + d[j * n + i]);
      d[i * n + j] = v;
      d[j * n + i] = v;
    }
  return A;
}

export function normF(A: Mat): number {
  // scaled sum of squares, so huge or tiny entries do not overflow
  let sc = 0,
    ss = 1;
  for (const v of A.d) {
    if (v !== 0) {
      const a = Math.abs(v);
      if (sc < a) {
        ss = 1 + ss * (sc / a) * (sc / a);
        sc = a;
      } else ss += (a / sc) * (a / sc);
    }
  }
  return sc * Math.sqrt(ss);
}

export function norm1(A: Mat): number {
  let best = 0;
  for (let j = 0; j < A.c; j++) {
    let s = 0;
    for (let i = 0; i < A.r; i++) s += Math.abs(A.d[i * A.c + j]);
    if (s > best) best = s;
  }
  return best;
}

export function maxAbs(A: Mat): number {
  let m = 0;
  for (const v of A.d) if (Math.abs(v) > m) m = Math.abs(v);
  return m;
}

/** sub-block rows r0..r0+nr-1, cols c0..c0+nc-1 (copy) */
export function block(A: Mat, r0: number, c0: number, nr: number, nc: number): Mat {
  const B = zeros(nr, nc);
  for (let i = 0; i < nr; i++) for (let j = 0; j < nc; j++) B.d[i * nc + j] = A.d[(r0 + i) * A.c + c0 + j];
  return B;
}

export function setBlock(A: Mat, r0: number, c0: number, B: Mat): void {
  for (let i = 0; i < B.r; i++) for (let j = 0; j < B.c; j++) A.d[(r0 + i) * A.c + c0 + j] = B.d[i * B.c + j];
}

/** LU with partial pivoting, in place on a copy; piv[i] = original row now in row i */
export interface LU {
  n: number;
  lu: Float64Array;
  piv: Int32Array;
  /** reciprocal condition estimate in the 1-norm (cheap, from the factors) */
  singular: boolean;
}

export function luFactor(A: Mat): LU {
  const n = A.r;
  if (A.c !== n) throw new Error('luFactor: not square');
  const lu = new Float64Array(A.d);
  const piv = new Int32Array(n);
  for (let i = 0; i < n; i++) piv[i] = i;
  let singular = false;
  for (let k = 0; k < n; k++) {
    let p = k,
      best = Math.abs(lu[k * n + k]);
    for (let i = k + 1; i < n; i++) {
      const v = Math.abs(lu[i * n + k]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    if (p !== k) {
      for (let j = 0; j < n; j++) {
        const t = lu[k * n + j];
        lu[k * n + j] = lu[p * n + j];
        lu[p * n + j] = t;
      }
      const t = piv[k];
      piv[k] = piv[p];
      piv[p] = t;
    }
    const pk = lu[k * n + k];
    if (pk === 0) {
      singular = true;
      continue;
    }
    // four (then two) rows a step (each row's numbers as one at a time; row k is loaded once)
    const ok = k * n;
    let i = k + 1;
    for (; i + 3 < n; i += 4) {
      const o1 = i * n,
        o2 = o1 + n,
        o3 = o2 + n,
        o4 = o3 + n;
      const l1 = (lu[o1 + k] /= pk),
        l2 = (lu[o2 + k] /= pk),
        l3 = (lu[o3 + k] /= pk),
        l4 = (lu[o4 + k] /= pk);
      if (l1 !== 0 && l2 !== 0 && l3 !== 0 && l4 !== 0)
        for (let j = k + 1; j < n; j++) {
          const u = lu[ok + j];
          lu[o1 + j] -= l1 * u;
          lu[o2 + j] -= l2 * u;
          lu[o3 + j] -= l3 * u;
          lu[o4 + j] -= l4 * u;
        }
      else {
        if (l1 !== 0) for (let j = k + 1; j < n; j++) lu[o1 + j] -= l1 * lu[ok + j];
        if (l2 !== 0) for (let j = k + 1; j < n; j++) lu[o2 + j] -= l2 * lu[ok + j];
        if (l3 !== 0) for (let j = k + 1; j < n; j++) lu[o3 + j] -= l3 * lu[ok + j];
        if (l4 !== 0) for (let j = k + 1; j < n; j++) lu[o4 + j] -= l4 * lu[ok + j];
      }
    }
    for (; i + 1 < n; i += 2) {
      const o1 = i * n,
        o2 = o1 + n;
      const l1 = (lu[o1 + k] /= pk),
        l2 = (lu[o2 + k] /= pk);
      if (l1 !== 0 && l2 !== 0)
        for (let j = k + 1; j < n; j++) {
          const u = lu[ok + j];
          lu[o1 + j] -= l1 * u;
          lu[o2 + j] -= l2 * u;
        }
      else if (l1 !== 0) for (let j = k + 1; j < n; j++) lu[o1 + j] -= l1 * lu[ok + j];
      else if (l2 !== 0) for (let j = k + 1; j < n; j++) lu[o2 + j] -= l2 * lu[ok + j];
    }
    if (i < n) {
      const o = i * n;
      const l = (lu[o + k] /= pk);
      if (l !== 0) for (let j = k + 1; j < n; j++) lu[o + j] -= l * lu[ok + j];
    }
  }
  return { n, lu, piv, singular };
}

/** solves A X = B for X given the LU of A */
export function luSolve(F: LU, B: Mat): Mat {
  const n = F.n,
    m = B.c,
    lu = F.lu;
  const X = zeros(n, m);
  const x = X.d;
  for (let i = 0; i < n; i++) {
    const src = F.piv[i] * m;
    for (let j = 0; j < m; j++) x[i * m + j] = B.d[src + j];
  }
  for (let i = 0; i < n; i++)
    for (let k = 0; k < i; k++) {
      const l = lu[i * n + k];
      if (l !== 0) for (let j = 0; j < m; j++) x[i * m + j] -= l * x[k * m + j];
    }
  for (let i = n - 1; i >= 0; i--) {
    for (let k = i + 1; k < n; k++) {
      const u = lu[i * n + k];
      if (u !== 0) for (let j = 0; j < m; j++) x[i * m + j] -= u * x[k * m + j];
    }
    const d = lu[i * n + i];
    for (let j = 0; j < m; j++) x[i * m + j] /= d;
  }
  return X;
}

/** solves X A = B (X = B A^-1) given the LU of A, via A' X' = B' */
export function luSolveRight(F: LU, B: Mat): Mat {
  // A = P' L U  =>  X A = B  <=>  X P' L U = B. Solve Y U = B, then Z L = Y, then X = Z P.
  const n = F.n,
    r = B.r,
    lu = F.lu;
  const Y = clone(B);
  const y = Y.d;
  for (let row = 0; row < r; row++) {
    const o = row * n;
    // Y U = B: column by column, left to right
    for (let j = 0; j < n; j++) {
      let s = y[o + j];
      for (let k = 0; k < j; k++) s -= y[o + k] * lu[k * n + j];
      y[o + j] = s / lu[j * n + j];
    }
    // Z L = Y: right to left, unit diagonal
    for (let j = n - 1; j >= 0; j--) {
      let s = y[o + j];
      for (let k = j + 1; k < n; k++) s -= y[o + k] * lu[k * n + j];
      y[o + j] = s;
    }
  }
  // X = Z P where (P' L U) has row i of P'LU = row piv[i] of A  => X[:, piv[i]] = Z[:, i]
  const X = zeros(r, n);
  for (let row = 0; row < r; row++) for (let i = 0; i < n; i++) X.d[row * n + F.piv[i]] = y[row * n + i];
  return X;
}

/** 1-norm reciprocal condition number estimate of A from its LU (Hager/Higham, as LAPACK dgecon) */
export function luRcond(F: LU, anorm: number): number {
  const n = F.n;
  if (F.singular || anorm === 0) return 0;
  const lu = F.lu;
  for (let i = 0; i < n; i++) if (lu[i * n + i] === 0) return 0;
  // estimate ||A^-1||_1 by Hager's method on A^-1 using solves with A and A'
  const solve = (b: Float64Array, trans: boolean): Float64Array => {
    const x = new Float64Array(n);
    if (!trans) {
      for (let i = 0; i < n; i++) x[i] = b[F.piv[i]];
      for (let i = 0; i < n; i++) for (let k = 0; k < i; k++) x[i] -= lu[i * n + k] * x[k];
      for (let i = n - 1; i >= 0; i--) {
        for (let k = i + 1; k < n; k++) x[i] -= lu[i * n + k] * x[k];
        x[i] /= lu[i * n + i];
      }
      return x;
    }
    // A' x = b: U' L' P x = b
    const y = new Float64Array(b);
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < i; k++) y[i] -= lu[k * n + i] * y[k];
      y[i] /= lu[i * n + i];
    }
    for (let i = n - 1; i >= 0; i--) for (let k = i + 1; k < n; k++) y[i] -= lu[k * n + i] * y[k];
    for (let i = 0; i < n; i++) x[F.piv[i]] = y[i];
    return x;
  };
  let x = new Float64Array(n).fill(1 / n);
  let est = 0;
  for (let it = 0; it < 5; it++) {
    const y = solve(x, false);
    let ny = 0;
    for (const v of y) ny += Math.abs(v);
    if (it > 0 && ny <= est) break;
    est = ny;
    const s = new Float64Array(n);
    for (let i = 0; i < n; i++) s[i] = y[i] >= 0 ? 1 : -1;
    const z = solve(s, true);
    let jmax = 0,
      zmax = -1,
      zx = 0;
    for (let i = 0; i < n; i++) {
      if (Math.abs(z[i]) > zmax) {
        zmax = Math.abs(z[i]);
        jmax = i;
      }
      zx += z[i] * x[i];
    }
    if (zmax <= zx) break;
    x = new Float64Array(n);
    x[jmax] = 1;
  }
  return est === 0 ? 0 : 1 / (anorm * est);
}

/** A^-1 B, throwing if A is exactly singular */
export function solve(A: Mat, B: Mat): Mat {
  const F = luFactor(A);
  if (F.singular) throw new Error('singular matrix');
  return luSolve(F, B);
}

export function inv(A: Mat): Mat {
  return solve(A, eye(A.r));
}

/** Cholesky A = L L' of a symmetric positive definite matrix; null if not positive definite */
export function cholesky(A: Mat): Mat | null {
  const n = A.r;
  const L = zeros(n, n);
  const l = L.d,
    a = A.d;
  for (let j = 0; j < n; j++) {
    let s = a[j * n + j];
    for (let k = 0; k < j; k++) s -= l[j * n + k] * l[j * n + k];
    if (!(s > 0)) return null;
    const d = Math.sqrt(s);
    l[j * n + j] = d;
    for (let i = j + 1; i < n; i++) {
      let t = a[i * n + j];
      for (let k = 0; k < j; k++) t -= l[i * n + k] * l[j * n + k];
      l[i * n + j] = t / d;
    }
  }
  return L;
}

/**
 * A Householder reflector (I − τ v v') applied from the left to rows ilo..n−1 and columns
 * jlo..jhi−1 of the row-major array d (row stride w): d := (I − τ v v') d, with v indexed by
 * row. Row by row over contiguous memory, several rows a step; per column the sums and updates
 * are the same operations in the same order as column by column, so the same numbers. `acc`
 * is a workspace of at least jhi entries. Shared by the Hessenberg reduction and the
 * controllability staircase (their hot loops).
 */
export function reflectLeft(
  d: Float64Array,
  w: number,
  ilo: number,
  n: number,
  jlo: number,
  jhi: number,
  v: ArrayLike<number>,
  tau: number,
  acc: Float64Array,
): void {
  acc.fill(0, jlo, jhi);
  let i = ilo;
  for (; i + 3 < n; i += 4) {
    const v1 = v[i],
      v2 = v[i + 1],
      v3 = v[i + 2],
      v4 = v[i + 3],
      o1 = i * w,
      o2 = o1 + w,
      o3 = o2 + w,
      o4 = o3 + w;
    for (let j = jlo; j < jhi; j++) acc[j] = acc[j] + v1 * d[o1 + j] + v2 * d[o2 + j] + v3 * d[o3 + j] + v4 * d[o4 + j];
  }
  for (; i + 1 < n; i += 2) {
    const v1 = v[i],
      v2 = v[i + 1],
      o1 = i * w,
      o2 = o1 + w;
    for (let j = jlo; j < jhi; j++) acc[j] = acc[j] + v1 * d[o1 + j] + v2 * d[o2 + j];
  }
  if (i < n) {
    const vi = v[i],
      o = i * w;
    for (let j = jlo; j < jhi; j++) acc[j] += vi * d[o + j];
  }
  for (let j = jlo; j < jhi; j++) acc[j] *= tau;
  i = ilo;
  for (; i + 1 < n; i += 2) {
    const v1 = v[i],
      v2 = v[i + 1],
      o1 = i * w,
      o2 = o1 + w;
    for (let j = jlo; j < jhi; j++) {
      const s = acc[j];
      if (s !== 0) {
        d[o1 + j] -= s * v1;
        d[o2 + j] -= s * v2;
      }
    }
  }
  if (i < n) {
    const vi = v[i],
      o = i * w;
    for (let j = jlo; j < jhi; j++) {
      const s = acc[j];
      if (s !== 0) d[o + j] -= s * vi;
    }
  }
}

/**
 * The reflector from the right: rows 0..rows−1 of d (row i starts at base + i·w), columns
 * jlo..jhi−1 (v indexed by column): d := d (I − τ v v'). Four or two rows a step, each row its
 * own sum in the same order as one row at a time, so the same numbers.
 */
export function reflectRight(d: Float64Array, base: number, w: number, rows: number, jlo: number, jhi: number, v: ArrayLike<number>, tau: number): void {
  let i = 0;
  for (; i + 3 < rows; i += 4) {
    const o1 = base + i * w,
      o2 = o1 + w,
      o3 = o2 + w,
      o4 = o3 + w;
    let s1 = 0,
      s2 = 0,
      s3 = 0,
      s4 = 0;
    for (let j = jlo; j < jhi; j++) {
      const vj = v[j];
      s1 += d[o1 + j] * vj;
      s2 += d[o2 + j] * vj;
      s3 += d[o3 + j] * vj;
      s4 += d[o4 + j] * vj;
    }
    s1 *= tau;
    s2 *= tau;
    s3 *= tau;
    s4 *= tau;
    if (s1 !== 0 && s2 !== 0 && s3 !== 0 && s4 !== 0)
      for (let j = jlo; j < jhi; j++) {
        const vj = v[j];
        d[o1 + j] -= s1 * vj;
        d[o2 + j] -= s2 * vj;
        d[o3 + j] -= s3 * vj;
        d[o4 + j] -= s4 * vj;
      }
    else {
      if (s1 !== 0) for (let j = jlo; j < jhi; j++) d[o1 + j] -= s1 * v[j];
      if (s2 !== 0) for (let j = jlo; j < jhi; j++) d[o2 + j] -= s2 * v[j];
      if (s3 !== 0) for (let j = jlo; j < jhi; j++) d[o3 + j] -= s3 * v[j];
      if (s4 !== 0) for (let j = jlo; j < jhi; j++) d[o4 + j] -= s4 * v[j];
    }
  }
  for (; i + 1 < rows; i += 2) {
    const o1 = base + i * w,
      o2 = o1 + w;
    let s1 = 0,
      s2 = 0;
    for (let j = jlo; j < jhi; j++) {
      const vj = v[j];
      s1 += d[o1 + j] * vj;
      s2 += d[o2 + j] * vj;
    }
    s1 *= tau;
    s2 *= tau;
    if (s1 !== 0 && s2 !== 0)
      for (let j = jlo; j < jhi; j++) {
        const vj = v[j];
        d[o1 + j] -= s1 * vj;
        d[o2 + j] -= s2 * vj;
      }
    else if (s1 !== 0) for (let j = jlo; j < jhi; j++) d[o1 + j] -= s1 * v[j];
    else if (s2 !== 0) for (let j = jlo; j < jhi; j++) d[o2 + j] -= s2 * v[j];
  }
  if (i < rows) {
    const o = base + i * w;
    let s = 0;
    for (let j = jlo; j < jhi; j++) s += d[o + j] * v[j];
    s *= tau;
    if (s !== 0) for (let j = jlo; j < jhi; j++) d[o + j] -= s * v[j];
  }
}

/** y = A x (each entry's sum from the left, as a row times a column) */
export function mulVec(A: Mat, x: ArrayLike<number>): Float64Array {
  const y = new Float64Array(A.r);
  const a = A.d,
    c = A.c,
    k = x.length;
  for (let i = 0; i < A.r; i++) {
    let s = 0;
    const o = i * c;
    for (let j = 0; j < k; j++) s += a[o + j] * x[j];
    y[i] = s;
  }
  return y;
}

/** [A B; C D] from a grid of blocks (a block row's height from its first block; blocks may be empty) */
export function blocks(grid: Mat[][]): Mat {
  let r = 0,
    c = 0;
  for (const b of grid[0] ?? []) c += b.c;
  for (const row of grid) r += row[0].r;
  const M = zeros(r, c);
  let r0 = 0;
  for (const row of grid) {
    let c0 = 0;
    for (const b of row) {
      setBlock(M, r0, c0, b);
      c0 += b.c;
    }
    r0 += row[0].r;
  }
  return M;
}

/**
 * Reciprocal 1-norm condition number 1/(‖A‖₁‖A⁻¹‖₁) from the explicit inverse: exact to
 * rounding (luRcond's estimate can only be larger), O(n³). For the small matrices whose
 * singularity decides a refusal (I − A·Ts/2 of c2d tustin, I + A of a discrete hinfnorm).
 * 0 when A is exactly singular or the product is not finite.
 */
export function rcondByInverse(A: Mat): number {
  const F = luFactor(A);
  if (F.singular) return 0;
  const c = norm1(A) * norm1(luSolve(F, eye(A.r)));
  return Number.isFinite(c) && c > 0 ? 1 / c : 0;
}
