/**
 * Continuous to discrete conversion (c2d): zero-order hold, first-order (triangle) hold and
 * Tustin (bilinear, no prewarping). Matrix exponentials by Padé scaling and squaring.
 */
import { ControlError } from '../errors.js';
import { tool } from '../tools/types.js';
import { renderC2d } from '../render/results.js';
import { GENERATORS } from '../codegen/code.js';
import type { Matrix } from '../types.js';
import {
  type Mat,
  add,
  blocks,
  block,
  eye,
  fromRows,
  luFactor,
  luSolve,
  luSolveRight,
  mul,
  rcondByInverse,
  scale,
  toRows,
  zeros,
  EPS,
} from '../linalg/dense.js';
import { expm } from '../linalg/expm.js';
import { readSS, ssProps, type SS } from './_sys.js';

export type C2dMethod = 'zoh' | 'foh' | 'tustin';

export interface DiscreteSS {
  Ad: Matrix;
  Bd: Matrix;
  Cd: Matrix;
  Dd: Matrix;
}

/** zero-order hold: [Ad Bd; 0 I] = expm([A B; 0 0]·Ts) */
export function c2dZoh(A: Mat, B: Mat, Ts: number): { Ad: Mat; Bd: Mat } {
  const n = A.r;
  const m = B.c;
  const M = scale(
    blocks([
      [A, B],
      [zeros(m, n), zeros(m, m)],
    ]),
    Ts,
  );
  const E = expm(M);
  return { Ad: block(E, 0, 0, n, n), Bd: block(E, 0, n, n, m) };
}

export function c2d(sys: SS, Ts: number, method: C2dMethod): DiscreteSS {
  const { n, m } = sys;
  // no states (a static gain): every method keeps y = D u; Ad, Bd, Cd are empty ([], as
  // tf2ss writes them) and Dd = D
  if (n === 0) return { Ad: [], Bd: [], Cd: [], Dd: sys.D.map((r) => r.slice()) };
  const A = fromRows(sys.A),
    B = fromRows(sys.B),
    C = fromRows(sys.C),
    D = fromRows(sys.D);
  if (method === 'zoh') {
    const { Ad, Bd } = c2dZoh(A, B, Ts);
    return { Ad: toRows(Ad), Bd: toRows(Bd), Cd: toRows(C), Dd: toRows(D) };
  }
  if (method === 'foh') {
    // expm([A·Ts B·Ts 0; 0 0 I; 0 0 0]) (triangle hold; the state is shifted by the hold term)
    const M = blocks([
      [scale(A, Ts), scale(B, Ts), zeros(n, m)],
      [zeros(m, n), zeros(m, m), eye(m)],
      [zeros(m, n), zeros(m, m), zeros(m, m)],
    ]);
    const E = expm(M);
    const Phi = block(E, 0, 0, n, n);
    const G1 = block(E, 0, n, n, m);
    const G2 = block(E, 0, n + m, n, m);
    const Bd = add(add(G1, G2, -1), mul(Phi, G2));
    return { Ad: toRows(Phi), Bd: toRows(Bd), Cd: toRows(C), Dd: toRows(add(D, mul(C, G2))) };
  }
  // Tustin: s = (2/Ts)(z - 1)/(z + 1)
  const half = Ts / 2;
  const IminusA = add(eye(n), scale(A, half), -1);
  const rc = rcondByInverse(IminusA);
  if (!(rc > n * EPS * 10)) {
    throw new ControlError(
      `c2d tustin: I - A·Ts/2 is singular (reciprocal condition ${rc.toExponential(2)}): A has an eigenvalue at 2/Ts = ${(2 / Ts).toPrecision(6)}, which the bilinear map sends to z = infinity. Use another Ts or method (zoh, foh).`,
      'infeasible',
    );
  }
  const f = luFactor(IminusA);
  const Ad = luSolve(f, add(eye(n), scale(A, half)));
  const Bd = luSolve(f, scale(B, Ts));
  const Cd = luSolveRight(f, C);
  const Dd = add(D, scale(mul(C, Bd), 0.5));
  return { Ad: toRows(Ad), Bd: toRows(Bd), Cd: toRows(Cd), Dd: toRows(Dd) };
}

export const tools = [
  tool({
    name: 'c2d',
    words: {
      calls: [
        { names: ['c2d', 'sample_system', 'sample', 'dscr'], args: ['sys', 'Ts', 'method'], keywords: { method: 'method', Ts: 'Ts', dt: 'Ts' } },
        { names: ['cont2discrete'], args: ['sys', 'Ts', 'method'], keywords: { method: 'method', dt: 'Ts' } },
      ],
      phrases: [
        'c2d',
        'discretize',
        'discretise',
        'discretization',
        'discretisation',
        'discrete equivalent',
        'convert to discrete',
        'sampled-data model',
        'discrete-time model',
        'zero-order hold equivalent',
        'tustin',
        'bilinear',
        'zoh',
        'zero-order hold',
        'foh',
        'first-order hold',
        'sample the plant',
      ],
      weak: ['sample', 'sampled'],
      aliases: { Ts: ['T', 'dt', 'ts', 'Tsample', 'h'] },
      example: '/c2d A=[0 1; -2 -3], B=[0;1], C=[1 0], Ts=0.1',
    },
    brief: 'Discretise (A, B, C, D) with sample time Ts; method zoh, foh or tustin.',
    title: 'Continuous to discrete conversion',
    description:
      'Discretises a continuous state-space model (A, B, C, D) with sample time Ts. method: "zoh" (zero-order hold, default), "foh" (triangle first-order hold) or "tustin" (bilinear, no prewarping). Returns Ad, Bd, Cd, Dd. Tustin state scaling follows SciPy (Bd = (I - A·Ts/2)^-1·B·Ts, Cd = C·(I - A·Ts/2)^-1); the transfer function is the same as MATLAB/Octave.',
    parameters: {
      type: 'object',
      properties: {
        ...ssProps,
        Ts: { type: 'number', description: 'sample time in seconds (> 0)', exclusiveMinimum: 0 },
        method: { type: 'string', enum: ['zoh', 'foh', 'tustin'], default: 'zoh', description: 'discretisation method (default zoh)' },
      },
      required: ['A', 'B', 'C', 'Ts'],
      additionalProperties: false,
    },
    run(args) {
      const sys = readSS(args, 'c2d');
      const Ts = sys.Ts;
      if (!(Ts > 0)) throw new ControlError('c2d needs a sample time Ts > 0.');
      const method = (args.method ?? 'zoh') as C2dMethod;
      const r = c2d(sys, Ts, method);
      return { Ad: r.Ad, Bd: r.Bd, Cd: r.Cd, Dd: r.Dd, Ts, method };
    },
    intro: null,
    render: renderC2d,
    code: GENERATORS.c2d,
    model: 'offered',
    plots: { none: 'the discretised matrices; plot the discrete system with a step or Bode request' },
  }),
];
