/**
 * Stationary Kalman filters (linear-quadratic estimators), by duality with the regulator:
 * plant dx = Ax + Gw, y = Cx + v, E[ww'] = Qn, E[vv'] = Rn.
 *   continuous (lqe, kalman without Ts): AP + PA' - PC'Rn^-1 CP + GQnG' = 0, L = PC'Rn^-1,
 *   discrete (kalman with Ts > 0): P the a-priori DARE solution of (A', C', GQnG', Rn),
 *     M = PC'(CPC' + Rn)^-1 (innovation gain), L = A M (predictor gain, MATLAB kalman's L),
 *     Z = P - MCP (a-posteriori covariance).
 * poles = eig(A - LC). Refuses when (C, A) is not detectable.
 */
import { tool } from '../tools/types.js';
import { feedbackRenderer } from '../render/results.js';
import { GENERATORS } from '../codegen/code.js';
import type { Complex } from '../types.js';
import { matrix, sampleTime } from '../tools/schema.js';
import { checkMatrix, checkSquare, checkRows, checkCols, fmtSize } from '../tools/args.js';
import { ControlError } from '../errors.js';
import { type Mat, fromRows, toRows, transpose, mul, mulNT, symmetrize, luFactor, luSolveRight, clone } from '../linalg/dense.js';
import { eigvalsSorted } from '../linalg/schur.js';
import { careMat, dareMat, poleList } from './riccati.js';

export interface KalmanSolution {
  L: Mat;
  P: Mat;
  poles: Complex[];
  /** discrete only */
  M?: Mat;
  Z?: Mat;
}

function estimatorArgs(args: Record<string, any>): { A: Mat; C: Mat; W: Mat; Rn: Mat } {
  const A = checkMatrix(args.A, 'A');
  const G = checkMatrix(args.G, 'G');
  const C = checkMatrix(args.C, 'C');
  const Qn = checkMatrix(args.Qn, 'Qn');
  const Rn = checkMatrix(args.Rn, 'Rn');
  const n = checkSquare(A, 'A');
  checkRows(G, n, 'G', 'A');
  checkCols(C, n, 'C', 'A');
  const g = G[0].length,
    p = C.length;
  if (g === 0) throw new ControlError('G has no columns.');
  if (p === 0) throw new ControlError('C has no rows.');
  if (Qn.length !== g || Qn[0].length !== g) throw new ControlError(`Qn is ${fmtSize(Qn)} but G has ${g} column${g > 1 ? 's' : ''}; Qn must be ${g}x${g}.`);
  if (Rn.length !== p || Rn[0].length !== p) throw new ControlError(`Rn is ${fmtSize(Rn)} but C has ${p} row${p > 1 ? 's' : ''}; Rn must be ${p}x${p}.`);
  for (const [M, name] of [
    [Qn, 'Qn'],
    [Rn, 'Rn'],
  ] as const) {
    let scale = 0;
    for (const row of M) for (const v of row) scale = Math.max(scale, Math.abs(v));
    for (let i = 0; i < M.length; i++)
      for (let j = 0; j < i; j++)
        if (Math.abs(M[i][j] - M[j][i]) > 1e-10 * Math.max(scale, 1e-300))
          throw new ControlError(`${name} must be symmetric, but ${name}(${i + 1},${j + 1}) = ${M[i][j]} and ${name}(${j + 1},${i + 1}) = ${M[j][i]}.`);
  }
  const Gm = fromRows(G);
  const W = symmetrize(mulNT(mul(Gm, symmetrize(fromRows(Qn))), Gm));
  return { A: fromRows(A), C: fromRows(C), W, Rn: symmetrize(fromRows(Rn)) };
}

/** continuous-time stationary Kalman filter (lqe) */
export function lqeMat(A: Mat, C: Mat, W: Mat, Rn: Mat): KalmanSolution {
  const s = careMat(transpose(A), transpose(C), W, Rn, null, { dual: true });
  const L = transpose(s.K);
  return { L, P: s.X, poles: eigvalsSorted(transpose(s.Acl)) };
}

/** discrete-time stationary Kalman filter: a-priori P, M, L = A M, Z */
export function dkalmanMat(A: Mat, C: Mat, W: Mat, Rn: Mat): KalmanSolution {
  const s = dareMat(transpose(A), transpose(C), W, Rn, null, { dual: true });
  const P = s.X;
  const PCt = mulNT(P, C);
  const S = mul(C, PCt);
  for (let k = 0; k < S.d.length; k++) S.d[k] += Rn.d[k];
  symmetrize(S);
  const F = luFactor(S);
  if (F.singular) throw new ControlError("C P C' + Rn is singular.", 'numerical');
  const M = luSolveRight(F, PCt);
  const L = mul(A, M);
  const MCP = mul(M, mul(C, P));
  const Z = clone(P);
  for (let k = 0; k < Z.d.length; k++) Z.d[k] -= MCP.d[k];
  symmetrize(Z);
  const Acl = clone(A);
  const LC = mul(L, C);
  for (let k = 0; k < Acl.d.length; k++) Acl.d[k] -= LC.d[k];
  return { L, P, poles: eigvalsSorted(Acl), M, Z };
}

const estParams = (withTs: boolean) => ({
  type: 'object' as const,
  properties: {
    A: matrix('state matrix A (n x n)'),
    G: matrix('process-noise input matrix G (n x g)'),
    C: matrix('measurement matrix C (p x n)'),
    Qn: matrix('process-noise covariance Qn (g x g), symmetric'),
    Rn: matrix('measurement-noise covariance Rn (p x p), symmetric positive definite'),
    ...(withTs ? { Ts: sampleTime } : {}),
  },
  required: ['A', 'G', 'C', 'Qn', 'Rn'],
  additionalProperties: false,
});

const out = (s: KalmanSolution) => {
  const r: Record<string, unknown> = { L: toRows(s.L), P: toRows(s.P), poles: poleList(s.poles) };
  if (s.M) r.M = toRows(s.M);
  if (s.Z) r.Z = toRows(s.Z);
  return r;
};

export const tools = [
  tool({
    name: 'lqe',
    words: {
      calls: [
        { names: ['lqe'], args: ['A', 'G', 'C', 'Qn', 'Rn'] },
        { names: ['lqe'], args: ['sys', 'Qn', 'Rn'] },
      ],
      phrases: ['lqe', 'kalman filter', 'kalman gain', 'kalman estimator', 'linear quadratic estimator', 'optimal estimator', 'steady-state kalman', 'kalman'],
      aliases: { Qn: ['W', 'Qw', 'QN', 'Q'], Rn: ['V', 'Rv', 'RN', 'R'] },
      discrete: 'kalman',
      example: '/lqe A=[0 1; -2 -3], G=[0;1], C=[1 0], Qn=1, Rn=0.1',
    },
    title: 'Continuous-time Kalman estimator (LQE)',
    description:
      "Stationary Kalman-Bucy filter for dx/dt = Ax + Gw, y = Cx + v with E[ww'] = Qn, E[vv'] = Rn: " +
      "P solves AP + PA' - PC'Rn⁻¹CP + GQnG' = 0, the gain L = PC'Rn⁻¹, and poles = eig(A - LC). " +
      'Refuses when (C, A) is not detectable.',
    parameters: estParams(false),
    run(args) {
      const a = estimatorArgs(args);
      return out(lqeMat(a.A, a.C, a.W, a.Rn));
    },
    intro: '**Kalman filter (LQE).** Estimator gain L = PCᵀRn⁻¹, with P the stabilising solution of AP + PAᵀ − PCᵀRn⁻¹CP + GQnGᵀ = 0.',
    render: feedbackRenderer('lqe'),
    code: GENERATORS.lqe,
    model: { none: 'inside kalman' },
    plots: { none: 'an estimator gain: nothing to plot yet' },
  }),
  tool({
    name: 'kalman',
    words: {
      calls: [{ names: ['kalman'], args: ['sys', 'Qn', 'Rn'], note: 'kalman(sys, Qn, Rn) is read with G = B of sys (every input is process noise)' }],
      phrases: ['discrete kalman', 'discrete-time kalman', 'discrete kalman filter', 'digital kalman filter'],
      aliases: { Qn: ['W', 'Qw', 'QN', 'Q'], Rn: ['V', 'Rv', 'RN', 'R'] },
      continuous: 'lqe',
      example: '/kalman A=[1 0.1; 0 1], G=[0;1], C=[1 0], Qn=1, Rn=0.1, Ts=0.1',
    },
    brief: "Kalman filter gain L for x' = Ax + Gw, y = Cx + v, noise covariances Qn, Rn (Ts > 0: discrete).",
    title: 'Kalman filter (continuous or discrete)',
    description:
      "Stationary Kalman filter for x' = Ax + Gw, y = Cx + v with E[ww'] = Qn, E[vv'] = Rn. Without Ts (or Ts = 0): " +
      "as lqe. With Ts > 0 (discrete): P is the a-priori DARE solution, M = PC'(CPC'+Rn)⁻¹ the innovation gain, " +
      "L = A·M the predictor gain (MATLAB kalman's L), Z = P - MCP, and poles = eig(A - LC).",
    parameters: estParams(true),
    run(args) {
      const a = estimatorArgs(args);
      const Ts = typeof args.Ts === 'number' ? args.Ts : 0;
      return out(Ts > 0 ? dkalmanMat(a.A, a.C, a.W, a.Rn) : lqeMat(a.A, a.C, a.W, a.Rn));
    },
    intro: '**Kalman filter.** Steady-state estimator gain from the filter Riccati equation.',
    render: feedbackRenderer('kalman'),
    code: GENERATORS.kalman,
    model: 'offered',
    plots: { none: 'an estimator gain: nothing to plot yet' },
  }),
];
