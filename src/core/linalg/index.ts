/**
 * The numerical kernel (row-major Float64Array matrices, see dense.ts):
 *   dense.ts      Mat, fromRows/toRows, mul/mulTN/mulNT, LU (luFactor/luSolve/luSolveRight/luRcond),
 *                 cholesky, inv, solve, normF/norm1, symmetrize, EPS
 *   balance.ts    balance (LAPACK dgebal: permutation + power-of-2 scaling), unbalanceVectors
 *   schur.ts      hessenbergInPlace, hqrInPlace (Francis double shift, dlahqr), realSchur (A = Z T Z'),
 *                 reorderSchur / swapBlocks (dtrexc/dlaexc), lanv2, eigvalsSorted, schurEigenvalues
 *   svd.ts        singularValues, rank (max(size)*eps*sigma1)
 *   staircase.ts  controllabilityStaircase (uncontrollable modes, as SLICOT AB01OD), and
 *                 controllabilityStaircaseFactored (Z kept as reflectors: Z M, Z' M)
 * Lyapunov/Riccati solvers built on it live in ../solvers/lyapunov.ts and ../solvers/riccati.ts.
 */
export * from './dense.js';
export * from './balance.js';
export * from './schur.js';
export * from './svd.js';
export * from './staircase.js';
