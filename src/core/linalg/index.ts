/**
 * The numerical kernel, on one matrix type (row-major Float64Array `Mat`, see dense.ts):
 *   dense.ts       Mat, fromRows/toRows, mul/mulTN/mulNT/mulVec, blocks/block/setBlock, LU
 *                  (luFactor/luSolve/luSolveRight/luRcond), rcondByInverse, cholesky, inv, solve,
 *                  normF/norm1, symmetrize, reflectLeft/reflectRight (the Householder updates), EPS
 *   balance.ts     balance (LAPACK dgebal: permutation + power-of-2 scaling; with inputs: TB01ID)
 *   schur.ts       hessenbergInPlace, hqrInPlace (Francis double shift, dlahqr), realSchur (A = Z T Z'),
 *                  reorderSchur / swapBlocks (dtrexc/dlaexc), lanv2, eigvalsSorted, schurEigenvalues
 *   hessenberg.ts  hessenbergQ (A = Q H Q', optionally from a first vector), hessenbergSystem,
 *                  hessShiftSolve ((sI − H) X = B at complex s)
 *   qr.ts          house, qrp (QR with column pivoting and rank), lstsq (basic least-squares solution)
 *   expm.ts        expm (Padé scaling and squaring)
 *   svd.ts         singularValues, rank (max(size)*eps*sigma1)
 *   poly.ts        polynomials (roots from the balanced companion matrix)
 *   staircase.ts   the one controllability decision: controllability / balancedStaircase (state
 *                  scaling, then the SLICOT AB01OD-style staircase with one tolerance), and the
 *                  plain controllabilityStaircase / controllabilityStaircaseFactored
 * Nothing here imports from ../solvers or ../tools (test/unit/architecture.test.ts). Lyapunov and
 * Riccati solvers built on it live in ../solvers/lyapunov.ts and ../solvers/riccati.ts.
 */
export * from './dense.js';
export * from './balance.js';
export * from './schur.js';
export * from './hessenberg.js';
export * from './qr.js';
export * from './expm.js';
export * from './svd.js';
export * from './staircase.js';
