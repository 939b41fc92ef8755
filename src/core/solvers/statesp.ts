/**
 * State-space analysis: eigenvalues, controllability and observability matrices and their
 * numerical rank. Also the plain functions other solvers reuse (`eigenvalues`, `ctrbMatrix`).
 */
import { tool } from '../tools/types.js';
import { rankRenderer, renderEig } from '../render/results.js';
import { GENERATORS } from '../codegen/code.js';
import type { Complex, Matrix } from '../types.js';
import { matrix } from '../tools/schema.js';
import { ControlError } from '../errors.js';
import { checkMatrix, checkSquare, checkRows, checkCols } from '../tools/args.js';
import { fromRows, toRows, transpose, zeros, type Mat } from '../linalg/dense.js';
import { eigvalsSorted } from '../linalg/schur.js';
import { controllability } from '../linalg/staircase.js';

/** eigenvalues of a real square matrix, sorted by real part then imaginary part */
export function eigenvalues(A: Matrix | Mat): Complex[] {
  const M = Array.isArray(A) ? fromRows(A) : A;
  if (M.r === 0) return [];
  return eigvalsSorted(M);
}

/**
 * The rank of [B, AB, ..., A^(n-1) B] as decided by the one controllability staircase
 * (linalg/staircase.ts), not by an SVD of that matrix: its columns grow as ‖A‖^k, and with
 * A, B of order 1e30 the SVD's tolerance swallowed a direction of a controllable pair (rank 1
 * for the companion form of s² + 3s + 2 scaled by 1e30, which place and lqr solved).
 */
export function ctrbRank(A: Mat, B: Mat): number {
  return controllability(A, B).nc;
}

/** the rank of [C; CA; ...; C A^(n-1)]: the staircase of the dual pair (A', C') */
export function obsvRank(A: Mat, C: Mat): number {
  return controllability(transpose(A), transpose(C)).nc;
}

/** [B, AB, ..., A^(n-1) B] */
export function ctrbMat(A: Mat, B: Mat): Mat {
  const n = A.r,
    m = B.c;
  const out = zeros(n, n * m);
  let P = B;
  for (let k = 0; k < n; k++) {
    for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) out.d[i * n * m + k * m + j] = P.d[i * m + j];
    if (k < n - 1) {
      const next = zeros(n, m);
      for (let i = 0; i < n; i++)
        for (let l = 0; l < n; l++) {
          const a = A.d[i * n + l];
          if (a !== 0) for (let j = 0; j < m; j++) next.d[i * m + j] += a * P.d[l * m + j];
        }
      P = next;
    }
  }
  return out;
}

/** [C; CA; ...; C A^(n-1)] */
export function obsvMat(A: Mat, C: Mat): Mat {
  const n = A.r,
    p = C.r;
  const out = zeros(n * p, n);
  let P = C;
  for (let k = 0; k < n; k++) {
    out.d.set(P.d, k * p * n);
    if (k < n - 1) {
      const next = zeros(p, n);
      for (let i = 0; i < p; i++)
        for (let l = 0; l < n; l++) {
          const c = P.d[i * n + l];
          if (c !== 0) for (let j = 0; j < n; j++) next.d[i * n + j] += c * A.d[l * n + j];
        }
      P = next;
    }
  }
  return out;
}

export function ctrbMatrix(A: Matrix, B: Matrix): Matrix {
  return toRows(ctrbMat(fromRows(A), fromRows(B)));
}

export function obsvMatrix(A: Matrix, C: Matrix): Matrix {
  return toRows(obsvMat(fromRows(A), fromRows(C)));
}

/**
 * The controllability (observability) matrix holds powers of A up to A^(n-1): with entries of
 * A near 1e50 and n = 8 they pass 1.8e308 (the largest double) and become Infinity or NaN,
 * and no rank can be read from them. Refused, naming the first block that overflowed.
 */
function refuseOverflow(M: Mat, what: string, block: string, width: number): void {
  let first = -1;
  for (let i = 0; i < M.d.length && first < 0; i++) if (!Number.isFinite(M.d[i])) first = i;
  if (first < 0) return;
  const k = what === 'controllability' ? Math.floor((first % M.c) / width) : Math.floor(Math.floor(first / M.c) / width);
  throw new ControlError(
    `The ${what} matrix overflows: its block ${block} for k = ${k} has entries beyond 1.8e308 (the largest double), so its rank cannot be computed. Rescale the model (time or state units) so that the entries of A are nearer 1.`,
    'numerical',
  );
}

export const complexOut = (list: Complex[]): number[][] => list.map(([re, im]) => [re, im]);

export const tools = [
  tool({
    name: 'eig',
    words: {
      calls: [{ names: ['eig', 'eigvals', 'eigenvalues', 'pole', 'poles', 'spec'], args: ['A'] }],
      phrases: ['eigenvalues', 'eigenvalue', 'eigen values', 'eig', 'eigs', 'spectrum of a', 'characteristic roots'],
      weak: ['poles', 'open loop poles', 'open-loop poles'],
      example: '/eig A=[0 1; -2 -3]',
    },
    brief: 'Eigenvalues of A.',
    title: 'Eigenvalues',
    description:
      'Eigenvalues of a real square matrix A (balancing, Hessenberg reduction, Francis double-shift QR). ' +
      'Returns them as [re, im] pairs sorted by real part, then imaginary part; conjugate pairs appear in full.',
    parameters: {
      type: 'object',
      properties: { A: matrix('square matrix A') },
      required: ['A'],
      additionalProperties: false,
    },
    run(args) {
      const A = checkMatrix(args.A, 'A');
      // 0x0 (a model with no states, a static gain): no eigenvalues
      if (checkSquare(A, 'A', true) === 0) return { eigenvalues: [] };
      return { eigenvalues: complexOut(eigenvalues(A)) };
    },
    intro: '**Eigenvalues** of A, sorted by real part.',
    render: renderEig,
    code: GENERATORS.eig,
    model: { none: 'inside analyse' },
    plots: { none: 'the eigenvalues are listed; a pole map needs the system (analyse)' },
  }),
  tool({
    name: 'ctrb_rank',
    words: {
      calls: [{ names: ['ctrb', 'contr', 'cont_mat'], args: ['A', 'B'] }],
      phrases: ['controllability', 'controllable', 'ctrb', 'controllability matrix', 'reachability', 'reachable', 'reach every', 'reach all', 'reach any'],
      example: '/ctrb_rank A=[0 1; -2 -3], B=[0;1]',
    },
    title: 'Controllability matrix and rank',
    description:
      'Controllability matrix [B, AB, ..., A^(n-1)B] of (A, B) and the rank of (A, B), decided by an orthogonal ' +
      'controllability staircase (SLICOT AB01OD style, tolerance n^2*eps*max(|A|, |B|)). Rank n means (A, B) is controllable.',
    parameters: {
      type: 'object',
      properties: { A: matrix('state matrix A (n x n)'), B: matrix('input matrix B (n x m)') },
      required: ['A', 'B'],
      additionalProperties: false,
    },
    run(args) {
      const A = checkMatrix(args.A, 'A');
      const B = checkMatrix(args.B, 'B');
      const n = checkSquare(A, 'A', true);
      // no states: the controllability matrix is empty and its rank 0 of 0 (nothing to control)
      if (n === 0) return { rank: 0, matrix: [] };
      checkRows(B, n, 'B', 'A');
      if (B[0].length === 0) throw new ControlError('B has no columns.');
      const Am = fromRows(A),
        Bm = fromRows(B);
      const M = ctrbMat(Am, Bm);
      refuseOverflow(M, 'controllability', 'A^k·B', B[0].length);
      return { rank: ctrbRank(Am, Bm), matrix: toRows(M) };
    },
    intro:
      '**Controllability**: rank of [B, AB, …, Aⁿ⁻¹B], decided by an orthogonal staircase of (A, B) (not an SVD of that matrix, whose columns grow like ‖A‖ᵏ).',
    render: rankRenderer('ctrb_rank'),
    code: GENERATORS.ctrb_rank,
    model: { none: 'inside analyse' },
    plots: { none: 'a rank, not a system response' },
  }),
  tool({
    name: 'obsv_rank',
    words: {
      calls: [{ names: ['obsv', 'obsv_mat'], args: ['A', 'C'] }],
      phrases: ['observability', 'observable', 'obsv', 'observability matrix'],
      example: '/obsv_rank A=[0 1; -2 -3], C=[1 0]',
    },
    title: 'Observability matrix and rank',
    description:
      'Observability matrix [C; CA; ...; CA^(n-1)] of (A, C) and the rank of (A, C), decided by the staircase of ' +
      "the dual pair (A', C') (tolerance n^2*eps*max(|A|, |C|)). Rank n means (A, C) is observable.",
    parameters: {
      type: 'object',
      properties: { A: matrix('state matrix A (n x n)'), C: matrix('output matrix C (p x n)') },
      required: ['A', 'C'],
      additionalProperties: false,
    },
    run(args) {
      const A = checkMatrix(args.A, 'A');
      const C = checkMatrix(args.C, 'C');
      const n = checkSquare(A, 'A', true);
      // no states: the observability matrix is empty and its rank 0 of 0 (nothing to observe)
      if (n === 0) return { rank: 0, matrix: [] };
      checkCols(C, n, 'C', 'A');
      if (C.length === 0) throw new ControlError('C has no rows.');
      const Am = fromRows(A),
        Cm = fromRows(C);
      const M = obsvMat(Am, Cm);
      refuseOverflow(M, 'observability', 'C·A^k', C.length);
      return { rank: obsvRank(Am, Cm), matrix: toRows(M) };
    },
    intro: '**Observability**: rank of [C; CA; …; CAⁿ⁻¹], decided by an orthogonal staircase of the dual pair (Aᵀ, Cᵀ).',
    render: rankRenderer('obsv_rank'),
    code: GENERATORS.obsv_rank,
    model: { none: 'inside analyse' },
    plots: { none: 'a rank, not a system response' },
  }),
];
