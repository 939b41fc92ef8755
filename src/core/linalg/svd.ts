/**
 * Singular values and numerical rank. ml-matrix's SVD (Golub-Kahan-Reinsch, as JAMA) is
 * used underneath, on the matrix scaled by an exact power of 2 so that its largest entry is
 * near 1 (its convergence test, MIN_VALUE + ε·|s|, never held for subnormal entries and the
 * iteration cycled forever: analyse of a 4x4 matrix of entries near 1e-320); this wrapper adds
 * the MATLAB/NumPy rank rule.
 */
import { Matrix as MlMatrix, SingularValueDecomposition } from 'ml-matrix';
import { type Mat, EPS, zeros } from './dense.js';

/** x·2^k, exact while the result is a normal number (k may be up to ±2100) */
function ldexp(x: number, k: number): number {
  for (; k > 1000; k -= 1000) x *= 2 ** 1000;
  for (; k < -1000; k += 1000) x *= 2 ** -1000;
  return x * 2 ** k;
}

/**
 * The rows scaled by 2^-k, k the exponent of the largest |entry| (exact, singular vectors
 * unchanged, singular values scaled by 2^-k): what ml-matrix's SVD is given, so that it never
 * sees subnormal numbers. k = 0 for a zero or non-finite matrix.
 */
export function unitScaled(rows: readonly (readonly number[])[]): { rows: number[][]; k: number } {
  let mx = 0;
  for (const r of rows) for (const v of r) mx = Math.max(mx, Math.abs(v));
  const k = mx > 0 && Number.isFinite(mx) ? Math.round(Math.log2(mx)) : 0;
  return { rows: rows.map((r) => r.map((v) => ldexp(v, -k))), k };
}

/** singular values of rows (any shape), decreasing, computed in unit scale and scaled back */
export function singularValuesOf(rows: readonly (readonly number[])[]): number[] {
  if (rows.length === 0 || rows[0].length === 0) return [];
  const u = unitScaled(rows);
  const svd = new SingularValueDecomposition(new MlMatrix(u.rows), {
    computeLeftSingularVectors: false,
    computeRightSingularVectors: false,
    autoTranspose: true,
  });
  return Array.from(svd.diagonal, (v) => ldexp(Math.abs(v), u.k)).sort((a, b) => b - a);
}

/** singular values in decreasing order */
export function singularValues(M: Mat): Float64Array {
  if (M.r === 0 || M.c === 0) return new Float64Array(0);
  const rows: number[][] = [];
  for (let i = 0; i < M.r; i++) rows.push(Array.from(M.d.subarray(i * M.c, (i + 1) * M.c)));
  return Float64Array.from(singularValuesOf(rows));
}

/** numerical rank: number of singular values above max(rows, cols) * eps * sigma_1 (NumPy matrix_rank) */
export function rank(M: Mat, tol?: number): number {
  const s = singularValues(M);
  if (s.length === 0) return 0;
  const t = tol ?? Math.max(M.r, M.c) * EPS * s[0];
  let r = 0;
  for (const v of s) if (v > t) r++;
  return r;
}

/**
 * The full singular value decomposition M = U·diag(s)·Vᵀ (M m x n, k = min(m, n): U m x k,
 * V n x k, s decreasing), by ml-matrix's Golub-Kahan-Reinsch on M in unit scale (as
 * singularValuesOf). The square-root balancing of model reduction (solvers/reduce.ts) needs
 * the vectors: the SVD of the product of two Gramian factors.
 */
export function svd(M: Mat): { U: Mat; s: Float64Array; V: Mat } {
  const m = M.r,
    n = M.c,
    k = Math.min(m, n);
  if (k === 0) return { U: zeros(m, 0), s: new Float64Array(0), V: zeros(n, 0) };
  const rows: number[][] = [];
  for (let i = 0; i < m; i++) rows.push(Array.from(M.d.subarray(i * n, (i + 1) * n)));
  const u = unitScaled(rows);
  const dec = new SingularValueDecomposition(new MlMatrix(u.rows), {
    computeLeftSingularVectors: true,
    computeRightSingularVectors: true,
    autoTranspose: true,
  });
  const d = dec.diagonal;
  const Lu = dec.leftSingularVectors,
    Rv = dec.rightSingularVectors;
  // decreasing order (ml-matrix sorts already; kept explicit), the first k of each
  const order = Array.from({ length: d.length }, (_, i) => i).sort((a, b) => Math.abs(d[b]) - Math.abs(d[a]));
  const U = zeros(m, k),
    V = zeros(n, k),
    s = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    const src = order[j];
    // a negative diagonal entry (not produced by GKR, guarded anyway) moves its sign into U
    const sg = d[src] < 0 ? -1 : 1;
    s[j] = ldexp(Math.abs(d[src]), u.k);
    for (let i = 0; i < m; i++) U.d[i * k + j] = sg * Lu.get(i, src);
    for (let i = 0; i < n; i++) V.d[i * k + j] = Rv.get(i, src);
  }
  return { U, s, V };
}
