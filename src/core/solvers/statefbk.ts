/**
 * Linear-quadratic regulators (u = -Kx), with an optional cross term N in the cost
 * ∫ x'Qx + u'Ru + 2x'Nu (continuous) or Σ x'Qx + u'Ru + 2x'Nu (discrete):
 *   lqr:  K = R^-1 (B'X + N'),             X the stabilising CARE solution
 *   dlqr: K = (R + B'XB)^-1 (B'XA + N'),   X the stabilising DARE solution
 * The Riccati solvers are in riccati.ts; this module only declares the tools.
 */
import type { ToolDef } from '../tools/types.js';
import { toRows } from '../linalg/dense.js';
import { careMat, dareMat, riccatiArgs, ricParams, poleList } from './riccati.js';

export const tools: ToolDef[] = [
  {
    name: 'lqr',
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
      return { K: toRows(s.K), X: toRows(s.X), poles: poleList(s.poles), Acl: toRows(s.Acl) };
    },
  },
  {
    name: 'dlqr',
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
      return { K: toRows(s.K), X: toRows(s.X), poles: poleList(s.poles), Acl: toRows(s.Acl) };
    },
  },
];
