/**
 * Stationary Kalman filters (linear-quadratic estimators), by duality with the regulator:
 * plant dx = Ax + Gw, y = Cx + v, E[ww'] = Qn, E[vv'] = Rn.
 *   continuous (lqe, kalman without Ts): AP + PA' - PC'Rn^-1 CP + GQnG' = 0, L = PC'Rn^-1,
 *   discrete (kalman with Ts > 0): P the a-priori DARE solution of (A', C', GQnG', Rn),
 *     M = PC'(CPC' + Rn)^-1 (innovation gain), L = A M (predictor gain, MATLAB kalman's L),
 *     Z = P - MCP (a-posteriori covariance).
 * poles = eig(A - LC). Refuses when (C, A) is not detectable.
 * kalman also takes MATLAB's cross covariance N = E[wv'] (g x p): the dual Riccati equation then
 * has the cross term G N, L = (PC' + GN)Rn^-1 (discrete: L = (APC' + GN)(CPC' + Rn)^-1, no longer
 * A M), and MATLAB's estimator kest (type 'current': x̂[n|n] = x̂[n|n-1] + M(y - Cx̂ - Du), or
 * 'delayed'), built by estimatorSS (also lqfamily.ts's estim) when a type or the known inputs Bu are given.
 */
import { tool, BY_LOOKUP } from '../tools/types.js';
import { feedbackRenderer } from '../render/results.js';
import { GENERATORS } from '../codegen/code.js';
import type { Complex } from '../types.js';
import { matrix, sampleTime } from '../tools/schema.js';
import { checkMatrix, checkSquare, checkRows, checkCols, fmtSize } from '../tools/args.js';
import { ControlError } from '../errors.js';
import {
  type Mat,
  add,
  blocks,
  eye,
  fromRows,
  toRows,
  transpose,
  mul,
  mulNT,
  scale,
  symmetrize,
  luFactor,
  luSolveRight,
  clone,
  zeros,
} from '../linalg/dense.js';

const sub = (A: Mat, B: Mat): Mat => add(A, B, -1);
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

function estimatorArgs(args: Record<string, any>): { A: Mat; C: Mat; W: Mat; Rn: Mat; S: Mat | null } {
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
  // MATLAB kalman's Nn = E[w v'] (g x p): the filter's cross term is G Nn (n x p)
  let S: Mat | null = null;
  if (args.N !== undefined && args.N !== null) {
    const N = checkMatrix(args.N, 'N');
    if (N.length !== g || (N[0]?.length ?? 0) !== p)
      throw new ControlError(`N is ${fmtSize(N)} but must be ${g}x${p} (the cross covariance E[w v'], columns of G by rows of C).`);
    S = mul(Gm, fromRows(N));
  }
  return { A: fromRows(A), C: fromRows(C), W, Rn: symmetrize(fromRows(Rn)), S };
}

/** continuous-time stationary Kalman filter (lqe); S = G N the cross term (kalman with N) */
export function lqeMat(A: Mat, C: Mat, W: Mat, Rn: Mat, S: Mat | null = null): KalmanSolution {
  const s = careMat(transpose(A), transpose(C), W, Rn, S, { dual: true });
  const L = transpose(s.K);
  return { L, P: s.X, poles: eigvalsSorted(transpose(s.Acl)) };
}

/** discrete-time stationary Kalman filter: a-priori P, M, L = A M (with S = G N: L = (APC' + S)(CPC' + Rn)⁻¹), Z */
export function dkalmanMat(A: Mat, C: Mat, W: Mat, Rn: Mat, cross: Mat | null = null): KalmanSolution {
  const s = dareMat(transpose(A), transpose(C), W, Rn, cross, { dual: true });
  const P = s.X;
  const PCt = mulNT(P, C);
  const S = mul(C, PCt);
  for (let k = 0; k < S.d.length; k++) S.d[k] += Rn.d[k];
  symmetrize(S);
  const F = luFactor(S);
  if (F.singular) throw new ControlError("C P C' + Rn is singular.", 'numerical');
  const M = luSolveRight(F, PCt);
  // without a cross term L = A M (as before, bit for bit); with one, the dual DARE's gain
  const L = cross ? transpose(s.K) : mul(A, M);
  const MCP = mul(M, mul(C, P));
  const Z = clone(P);
  for (let k = 0; k < Z.d.length; k++) Z.d[k] -= MCP.d[k];
  symmetrize(Z);
  const Acl = clone(A);
  const LC = mul(L, C);
  for (let k = 0; k < Acl.d.length; k++) Acl.d[k] -= LC.d[k];
  return { L, P, poles: eigvalsSorted(Acl), M, Z };
}

/**
 * The estimator of x from [u_known; y] with gain L (and, discrete 'current', innovation gain M):
 * outputs [ŷ; x̂]. Delayed/continuous: state x̂, x̂' = (A − LC)x̂ + (Bk − LDk)u + Ly.
 * Current: state x̄ = x̂[n|n−1]; outputs use x̂[n|n] = (I − MC)x̄ − MDk u + My.
 */
export function estimatorSS(A: Mat, Bk: Mat, C: Mat, Dk: Mat, L: Mat, M: Mat | null): { A: Mat; B: Mat; C: Mat; D: Mat } {
  const n = A.r,
    p = C.r,
    mk = Bk.c;
  const Ae = sub(A, mul(L, C));
  const Be = blocks([[sub(Bk, mul(L, Dk)), L]]);
  if (!M) {
    const Ce = blocks([[C], [eye(n)]]);
    const De = blocks([
      [Dk, zeros(p, p)],
      [zeros(n, mk), zeros(n, p)],
    ]);
    return { A: Ae, B: Be, C: Ce, D: De };
  }
  const IMC = sub(eye(n), mul(M, C));
  const MD = mul(M, Dk);
  // x̂[n|n] = IMC x̄ + [−MD, M] [u; y]; ŷ = C x̂[n|n] + Dk u
  const Cx = IMC;
  const Dx = blocks([[scale(MD, -1), M]]);
  const Cy = mul(C, IMC);
  const Dy = blocks([[sub(Dk, mul(C, MD)), mul(C, M)]]);
  return { A: Ae, B: Be, C: blocks([[Cy], [Cx]]), D: blocks([[Dy], [Dx]]) };
}

const estParams = (withTs: boolean) => ({
  type: 'object' as const,
  properties: {
    A: matrix('state matrix A (n x n)'),
    G: matrix('process-noise input matrix G (n x g)'),
    C: matrix('measurement matrix C (p x n)'),
    Qn: matrix('process-noise covariance Qn (g x g), symmetric'),
    Rn: matrix('measurement-noise covariance Rn (p x p), symmetric positive definite'),
    N: matrix("cross covariance N = E[w v'] (g x p), optional (MATLAB's Nn, python-control's NN)"),
    ...(withTs
      ? {
          Ts: sampleTime,
          type: {
            type: 'string',
            enum: ['current', 'delayed'],
            description:
              "return MATLAB's estimator kest (inputs [u; y], outputs [y_hat; x_hat]); discrete: 'current' (x_hat[n|n], default) or 'delayed' (x_hat[n|n-1])",
          },
          Bu: matrix("known-input matrix (n x m), optional (the B of MATLAB's sys = ss(A, [Bu G], C, [Du 0], Ts)): the estimator then takes [u; y]"),
          Du: matrix('feedthrough (p x m) of the known inputs, optional'),
        }
      : {}),
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

/** the Kalman gains of kalman (continuous or, with Ts > 0, discrete), with MATLAB's cross covariance N */
export function kalmanGains(args: Record<string, any>): KalmanSolution {
  const a = estimatorArgs(args);
  const Ts = typeof args.Ts === 'number' ? args.Ts : 0;
  return Ts > 0 ? dkalmanMat(a.A, a.C, a.W, a.Rn, a.S) : lqeMat(a.A, a.C, a.W, a.Rn, a.S);
}

/** kalman: the gains, and MATLAB's estimator kest when a type or the known inputs Bu are given */
function runKalman(args: Record<string, any>): Record<string, unknown> {
  const s = kalmanGains(args);
  const r = out(s);
  const Ts = typeof args.Ts === 'number' ? args.Ts : 0;
  const wantEst = (args.type !== undefined && args.type !== null) || (args.Bu !== undefined && args.Bu !== null);
  if (!wantEst) return r;
  const n = s.L.r,
    p = s.L.c;
  const type = Ts > 0 ? (args.type === 'delayed' ? 'delayed' : 'current') : 'continuous';
  if (args.type === 'current' && !(Ts > 0))
    throw new ControlError("kalman: the 'current' estimator is for discrete time (give Ts > 0); a continuous Kalman filter has one form.");
  let B = zeros(n, 0),
    D = zeros(p, 0);
  if (args.Bu !== undefined && args.Bu !== null) {
    const Br = checkMatrix(args.Bu, 'Bu');
    checkRows(Br, n, 'Bu', 'A');
    B = fromRows(Br);
    D = zeros(p, B.c);
    if (args.Du !== undefined && args.Du !== null) {
      const Dr = checkMatrix(args.Du, 'Du');
      if (Dr.length !== p || (Dr[0]?.length ?? 0) !== B.c) throw new ControlError(`Du is ${fmtSize(Dr)} but must be ${p}x${B.c} (rows of C by columns of Bu).`);
      D = fromRows(Dr);
    }
  }
  const e = estimatorSS(fromRows(checkMatrix(args.A, 'A')), B, fromRows(checkMatrix(args.C, 'C')), D, s.L, type === 'current' ? (s.M ?? null) : null);
  r.estimator = { A: toRows(e.A), B: toRows(e.B), C: toRows(e.C), D: toRows(e.D), ...(Ts > 0 ? { Ts } : {}), type };
  return r;
}

export const tools = [
  tool({
    name: 'lqe',
    words: {
      calls: [
        { names: ['lqe'], args: ['A', 'G', 'C', 'Qn', 'Rn', 'N'], returns: ['L', 'P', 'poles'] },
        { names: ['lqe'], args: ['sys', 'Qn', 'Rn'], returns: ['L', 'P', 'poles'] },
      ],
      phrases: ['lqe', 'kalman filter', 'kalman gain', 'kalman estimator', 'linear quadratic estimator', 'optimal estimator', 'steady-state kalman', 'kalman'],
      aliases: { Qn: ['W', 'Qw', 'QN', 'Q'], Rn: ['V', 'Rv', 'RN', 'R'], N: ['Nn', 'NN', 'S'] },
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
      return out(lqeMat(a.A, a.C, a.W, a.Rn, a.S));
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
      calls: [
        {
          names: ['kalman'],
          args: ['sys', 'Qn', 'Rn'],
          note: 'kalman(sys, Qn, Rn) is read with G = B of sys (every input is process noise)',
          returns: ['', 'L', 'P'],
        },
        {
          names: ['kalman'],
          args: ['sys', 'Qn', 'Rn', 'N', "'current'"],
          map: (a) => ({ ...a, type: 'current' }),
          note: "kalman(…, 'current'): the estimator of x̂[n|n]",
        },
        {
          names: ['kalman'],
          args: ['sys', 'Qn', 'Rn', 'N', "'delayed'"],
          map: (a) => ({ ...a, type: 'delayed' }),
          note: "kalman(…, 'delayed'): the estimator of x̂[n|n−1]",
        },
        { names: ['kalman'], args: ['sys', 'Qn', 'Rn', 'N'], note: 'kalman(sys, Qn, Rn, Nn): Nn the cross covariance' },
      ],
      phrases: ['discrete kalman', 'discrete-time kalman', 'discrete kalman filter', 'digital kalman filter'],
      aliases: { Qn: ['W', 'Qw', 'QN', 'Q'], Rn: ['V', 'Rv', 'RN', 'R'], N: ['Nn', 'NN', 'S'] },
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
    run: runKalman,
    intro: '**Kalman filter.** Steady-state estimator gain from the filter Riccati equation.',
    render: feedbackRenderer('kalman'),
    code: GENERATORS.kalman,
    model: BY_LOOKUP,
    plots: { none: 'an estimator gain: nothing to plot yet' },
  }),
];
