/**
 * Singular values and numerical rank. ml-matrix's SVD (Golub-Kahan-Reinsch, as JAMA) is
 * used underneath; this wrapper adds the MATLAB/NumPy rank rule.
 */
import { Matrix as MlMatrix, SingularValueDecomposition } from 'ml-matrix';
import { type Mat, EPS } from './dense.js';

/** singular values in decreasing order */
export function singularValues(M: Mat): Float64Array {
  if (M.r === 0 || M.c === 0) return new Float64Array(0);
  const rows: number[][] = [];
  for (let i = 0; i < M.r; i++) rows.push(Array.from(M.d.subarray(i * M.c, (i + 1) * M.c)));
  const svd = new SingularValueDecomposition(new MlMatrix(rows), {
    computeLeftSingularVectors: false,
    computeRightSingularVectors: false,
    autoTranspose: true,
  });
  const s = Float64Array.from(svd.diagonal).map(Math.abs);
  s.sort((a, b) => b - a);
  return s;
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
