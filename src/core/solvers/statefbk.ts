/**
 * Linear-quadratic regulators (u = -Kx), with an optional cross term N in the cost
 * ∫ x'Qx + u'Ru + 2x'Nu (continuous) or Σ x'Qx + u'Ru + 2x'Nu (discrete):
 *   lqr:  K = R^-1 (B'X + N'),             X the stabilising CARE solution
 *   dlqr: K = (R + B'XB)^-1 (B'XA + N'),   X the stabilising DARE solution
 * The Riccati solvers are in riccati.ts; this module only declares the tools.
 */
import { tool, BY_LOOKUP } from '../tools/types.js';
import { feedbackRenderer } from '../render/results.js';
import { GENERATORS } from '../codegen/code.js';
import { closedLoopPlots } from '../plot/specs.js';
import { setBlock, toRows, transpose, zeros } from '../linalg/dense.js';
import { eigvalsRaw } from '../linalg/schur.js';
import { careMat, dareMat, riccatiArgs, ricParams, poleList, type RiccatiArgs } from './riccati.js';

/**
 * The caution an engineer needs when the cost's weight [Q N; N' R] is not positive
 * semidefinite: the Riccati equation may still have a stabilising solution (it is returned,
 * verified), but x'Qx + u'Ru + 2x'Nu can then be negative, so K minimises no meaningful cost
 * and X is no cost matrix. Undefined when the weight is semidefinite (to rounding).
 */
export function weightCaution(a: RiccatiArgs): string | undefined {
  const n = a.Q.r;
  const m = a.R.r;
  const W = zeros(n + m);
  setBlock(W, 0, 0, a.Q);
  setBlock(W, n, n, a.R);
  if (a.N) {
    setBlock(W, 0, n, a.N);
    setBlock(W, n, 0, transpose(a.N));
  }
  const { wr } = eigvalsRaw(W);
  let min = Infinity;
  let big = 0;
  for (const x of wr) {
    min = Math.min(min, x);
    big = Math.max(big, Math.abs(x));
  }
  if (min >= -1e-10 * big) return undefined;
  const what = a.N ? '[Q N; Nᵀ R]' : 'Q';
  return `${what} is not positive semidefinite (smallest eigenvalue ${Number(min.toPrecision(6))}), so the cost x'Qx + u'Ru${a.N ? " + 2x'Nu" : ''} can be negative: K is the stabilising Riccati solution (verified), but it minimises no meaningful cost. Check ${a.N ? 'Q and N (Q − N R⁻¹ Nᵀ must be ⪰ 0)' : 'Q (it must be ⪰ 0)'}.`;
}

export const tools = [
  tool({
    name: 'lqr',
    words: {
      calls: [
        { names: ['lqr'], args: ['A', 'B', 'Q', 'R', 'N'], returns: ['K', 'X', 'poles'] },
        { names: ['lqr'], args: ['sys', 'Q', 'R', 'N'], returns: ['K', 'X', 'poles'] },
        { names: ['lqr'], args: ['kind', 'A', 'B', 'Q', 'R'], note: 'lqr(Continuous, A, B, Q, R) (ControlSystems.jl)' },
      ],
      phrases: [
        'lqr',
        'linear quadratic regulator',
        'linear-quadratic regulator',
        'lq regulator',
        'optimal state feedback',
        'optimal control gain',
        'quadratic regulator',
      ],
      discrete: 'dlqr',
      example: '/lqr A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1',
    },
    brief: "LQR gain K (u = -Kx) minimising ∫ x'Qx + u'Ru dt; also X, closed-loop poles and A - BK.",
    title: 'Continuous-time LQR',
    description:
      "Continuous linear-quadratic regulator: minimises ∫ x'Qx + u'Ru + 2x'Nu dt for dx/dt = Ax + Bu with u = -Kx. " +
      "Returns K = R⁻¹(B'X + N'), the stabilising CARE solution X, the closed-loop poles eig(A - BK) and Acl = A - BK. " +
      'N is optional. Refuses when (A, B) is not stabilisable or no stabilising solution exists.',
    parameters: ricParams(true),
    run(args) {
      const a = riccatiArgs(args);
      const s = careMat(a.A, a.B, a.Q, a.R, a.N);
      const caution = weightCaution(a);
      return { K: toRows(s.K), X: toRows(s.X), poles: poleList(s.poles), Acl: toRows(s.Acl), ...(caution ? { caution } : {}) };
    },
    intro:
      '**LQR design.** The state feedback u = −Kx that minimises ∫(xᵀQx + uᵀRu + 2xᵀNu) dt is K = R⁻¹(BᵀX + Nᵀ), where X is the stabilising solution of the Riccati equation AᵀX + XA − (XB + N)R⁻¹(BᵀX + Nᵀ) + Q = 0.',
    render: feedbackRenderer('lqr'),
    code: GENERATORS.lqr,
    model: 'offered',
    plots: closedLoopPlots,
  }),
  tool({
    name: 'dlqr',
    words: {
      calls: [
        { names: ['dlqr'], args: ['A', 'B', 'Q', 'R', 'N'], returns: ['K', 'X', 'poles'] },
        { names: ['dlqr'], args: ['sys', 'Q', 'R', 'N'], returns: ['K', 'X', 'poles'] },
      ],
      phrases: ['dlqr', 'discrete lqr', 'discrete-time lqr', 'digital lqr', 'discrete linear quadratic regulator'],
      continuous: 'lqr',
      example: '/dlqr A=[1 0.1; 0 1], B=[0.005; 0.1], Q=eye(2), R=1',
    },
    brief: 'Discrete LQR gain K for x[k+1] = Ax + Bu; also X, closed-loop poles and A - BK.',
    title: 'Discrete-time LQR',
    description:
      "Discrete linear-quadratic regulator: minimises Σ x'Qx + u'Ru + 2x'Nu for x[k+1] = Ax + Bu with u = -Kx. " +
      "Returns K = (R + B'XB)⁻¹(B'XA + N'), the stabilising DARE solution X, the closed-loop poles eig(A - BK) and " +
      'Acl = A - BK. N is optional. Refuses when (A, B) is not stabilisable or no stabilising solution exists.',
    parameters: ricParams(true),
    run(args) {
      const a = riccatiArgs(args);
      const s = dareMat(a.A, a.B, a.Q, a.R, a.N);
      const caution = weightCaution(a);
      return { K: toRows(s.K), X: toRows(s.X), poles: poleList(s.poles), Acl: toRows(s.Acl), ...(caution ? { caution } : {}) };
    },
    intro:
      '**Discrete LQR design.** The state feedback u[k] = −Kx[k] that minimises Σ(xᵀQx + uᵀRu + 2xᵀNu) is K = (R + BᵀXB)⁻¹(BᵀXA + Nᵀ), with X the stabilising solution of the discrete Riccati equation.',
    render: feedbackRenderer('dlqr'),
    code: GENERATORS.dlqr,
    model: BY_LOOKUP,
    plots: { none: 'not written yet: the closed-loop pole map of a discrete design' },
  }),
];
