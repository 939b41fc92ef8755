/**
 * Real modal (block-diagonal) form A = V Λ V⁻¹: Λ holds each real eigenvalue on the diagonal
 * and each complex pair σ ± jω (ω > 0) as the 2x2 block [σ ω; −ω σ] (MATLAB canon(sys,'modal')'s
 * blocks). From the real Schur form A = Z T Z' (schur.ts): T is block-diagonalised by an upper
 * block-triangular Y with identity diagonal blocks, T Y = Y blkdiag(Tjj), column block by column
 * block from the small Sylvester equations Tii Yij − Yij Tjj = −Σ_{k>i} Tik Ykj (Bavely-Stewart
 * without grouping: every block is one eigenvalue or one pair); then each 2x2 block is brought
 * to [σ ω; −ω σ] by the real and imaginary parts of its eigenvector. Equal eigenvalues make the
 * Sylvester equations singular: their pivots are perturbed to ε‖T‖ (as LAPACK dlasy2), so a
 * defective or nearly defective A comes out with a huge cond(V), which the caller measures and
 * refuses. Columns of V are scaled to unit norm (a pair: its two columns to unit norm together).
 */
import { type Mat, EPS, eye, mul, normF, zeros } from './dense.js';
import { realSchur, schurBlocks, solveCompletePivot } from './schur.js';

export interface RealModal {
  /** the eigenvector basis (real), A V = V L */
  V: Mat;
  /** block diagonal: 1x1 real eigenvalues, 2x2 [σ ω; −ω σ] blocks */
  L: Mat;
  /** the blocks: first row, size 1 or 2 */
  start: number[];
  size: number[];
}

export function realModalForm(A: Mat): RealModal {
  const n = A.r;
  if (n === 0) return { V: zeros(0, 0), L: zeros(0, 0), start: [], size: [] };
  const { T, Z } = realSchur(A);
  const { start, size } = schurBlocks(T);
  const t = T.d;
  const tiny = Math.max(EPS * normF(T), Number.MIN_VALUE);
  const Y = eye(n);
  const y = Y.d;
  const nb = start.length;
  const M = new Float64Array(16),
    rhs = new Float64Array(4);
  for (let jb = 1; jb < nb; jb++) {
    const j0 = start[jb],
      q = size[jb];
    for (let ib = jb - 1; ib >= 0; ib--) {
      const i0 = start[ib],
        p = size[ib];
      // S = −Σ_{k > i} T(i, k) Y(k, j) over the rows of block i (Y(j, j) = I)
      const S = new Float64Array(p * q);
      for (let a = 0; a < p; a++)
        for (let b = 0; b < q; b++) {
          let s = 0;
          for (let k = i0 + p; k < j0 + q; k++) s += t[(i0 + a) * n + k] * y[k * n + j0 + b];
          S[a * q + b] = -s;
        }
      // Kronecker form of Tii X − X Tjj = S, unknown X[a*q + b]
      const N = p * q;
      M.fill(0, 0, N * N);
      for (let a = 0; a < p; a++)
        for (let b = 0; b < q; b++) {
          const row = a * q + b;
          rhs[row] = S[row];
          for (let k = 0; k < p; k++) M[row * N + k * q + b] += t[(i0 + a) * n + i0 + k];
          for (let l = 0; l < q; l++) M[row * N + a * q + l] -= t[(j0 + l) * n + j0 + b];
        }
      solveCompletePivot(M, rhs, N, tiny);
      for (let a = 0; a < p; a++) for (let b = 0; b < q; b++) y[(i0 + a) * n + j0 + b] = rhs[a * q + b];
    }
  }
  const V = mul(Z, Y);
  const L = zeros(n, n);
  const v = V.d;
  for (let kb = 0; kb < nb; kb++) {
    const i = start[kb];
    if (size[kb] === 1) {
      L.d[i * n + i] = t[i * n + i];
      continue;
    }
    // block [a b; c d] with complex eigenvalues σ ± jω: u = [b; λ − a] is an eigenvector of λ = σ + jω,
    // so W = [Re u, Im u] = [b 0; σ − a ω] gives W⁻¹ [a b; c d] W = [σ ω; −ω σ]
    const a = t[i * n + i],
      b = t[i * n + i + 1],
      c = t[(i + 1) * n + i],
      d = t[(i + 1) * n + i + 1];
    const sigma = (a + d) / 2;
    const h = (a - d) / 2;
    const omega = Math.sqrt(Math.max(-(h * h + b * c), 0));
    const w11 = b,
      w21 = sigma - a,
      w22 = omega;
    for (let r = 0; r < n; r++) {
      const x0 = v[r * n + i],
        x1 = v[r * n + i + 1];
      v[r * n + i] = x0 * w11 + x1 * w21;
      v[r * n + i + 1] = x1 * w22;
    }
    L.d[i * n + i] = sigma;
    L.d[(i + 1) * n + i + 1] = sigma;
    L.d[i * n + i + 1] = omega;
    L.d[(i + 1) * n + i] = -omega;
  }
  // unit columns (a pair: both columns by one factor, which keeps its block)
  for (let kb = 0; kb < nb; kb++) {
    const i = start[kb],
      s = size[kb];
    let ss = 0;
    for (let r = 0; r < n; r++) for (let k = 0; k < s; k++) ss += v[r * n + i + k] ** 2;
    const f = ss > 0 ? Math.sqrt(s / ss) : 1;
    for (let r = 0; r < n; r++) for (let k = 0; k < s; k++) v[r * n + i + k] *= f;
  }
  return { V, L, start, size };
}
