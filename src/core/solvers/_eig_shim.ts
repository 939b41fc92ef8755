/**
 * Temporary eigenvalue adapter for the analysis solvers, until the linear-algebra kernel's
 * `eigenvalues` (src/core/solvers/statesp.ts) lands: diagonal balancing (Parlett-Reinsch,
 * powers of 2, exact in floating point) followed by ml-matrix's Francis double-shift QR.
 */
import { EigenvalueDecomposition, Matrix as MlMatrix } from 'ml-matrix';
import type { Complex } from '../types.js';
import type { Mat } from './_dense.js';

/** D^-1 A D with D diagonal of powers of 2 (returns a new matrix) */
export function balanceScale(A: Mat): Mat {
  const n = A.length;
  const M = A.map((r) => r.slice());
  const RADIX = 2;
  let done = false;
  let iter = 0;
  while (!done && iter++ < 100) {
    done = true;
    for (let i = 0; i < n; i++) {
      let c = 0;
      let r = 0;
      for (let j = 0; j < n; j++) {
        if (j === i) continue;
        c += Math.abs(M[j][i]);
        r += Math.abs(M[i][j]);
      }
      if (c === 0 || r === 0) continue;
      let g = r / RADIX;
      let f = 1;
      const s = c + r;
      while (c < g) {
        f *= RADIX;
        c *= RADIX * RADIX;
      }
      g = r * RADIX;
      while (c >= g) {
        f /= RADIX;
        c /= RADIX * RADIX;
      }
      if ((c + r) / f < 0.95 * s) {
        done = false;
        const gi = 1 / f;
        for (let j = 0; j < n; j++) M[i][j] *= gi;
        for (let j = 0; j < n; j++) M[j][i] *= f;
      }
    }
  }
  return M;
}

export function eigenvaluesShim(A: Mat): Complex[] {
  const n = A.length;
  if (n === 0) return [];
  if (n === 1) return [[A[0][0], 0]];
  const B = balanceScale(A);
  const e = new EigenvalueDecomposition(new MlMatrix(B), { assumeSymmetric: false });
  const re = e.realEigenvalues;
  const im = e.imaginaryEigenvalues;
  return re.map((r, i) => [r, im[i]] as Complex);
}
