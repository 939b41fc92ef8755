/**
 * Continuous to discrete conversion (c2d): zero-order hold, first-order (triangle) hold and
 * Tustin (bilinear, no prewarping). Matrix exponentials by Padé scaling and squaring.
 */
import { ControlError } from '../errors.js';
import type { ToolDef } from '../tools/types.js';
import { add, block, eye, expm, lu, luSolve, luSolveRight, matmul, rcond, scale, sub, zeros, EPS, type Mat } from './_dense.js';
import { readSS, ssProps, type SS } from './_sys.js';

export type C2dMethod = 'zoh' | 'foh' | 'tustin';

export interface DiscreteSS {
  Ad: Mat;
  Bd: Mat;
  Cd: Mat;
  Dd: Mat;
}

/** zero-order hold: [Ad Bd; 0 I] = expm([A B; 0 0]·Ts) */
export function c2dZoh(A: Mat, B: Mat, Ts: number): { Ad: Mat; Bd: Mat } {
  const n = A.length;
  const m = B[0].length;
  const M = scale(block([[A, B], [zeros(m, n), zeros(m, m)]]), Ts);
  const E = expm(M);
  return { Ad: sub(E, 0, n, 0, n), Bd: sub(E, 0, n, n, n + m) };
}

export function c2d(sys: SS, Ts: number, method: C2dMethod): DiscreteSS {
  const { A, B, C, D, n, m } = sys;
  // no states (a static gain): every method keeps y = D u; Ad, Bd, Cd are empty ([], as
  // tf2ss writes them) and Dd = D
  if (n === 0) return { Ad: [], Bd: [], Cd: [], Dd: D.map((r) => r.slice()) };
  if (method === 'zoh') {
    const { Ad, Bd } = c2dZoh(A, B, Ts);
    return { Ad, Bd, Cd: C.map((r) => r.slice()), Dd: D.map((r) => r.slice()) };
  }
  if (method === 'foh') {
    // expm([A·Ts B·Ts 0; 0 0 I; 0 0 0]) (triangle hold; the state is shifted by the hold term)
    const M = block([
      [scale(A, Ts), scale(B, Ts), zeros(n, m)],
      [zeros(m, n), zeros(m, m), eye(m)],
      [zeros(m, n), zeros(m, m), zeros(m, m)],
    ]);
    const E = expm(M);
    const Phi = sub(E, 0, n, 0, n);
    const G1 = sub(E, 0, n, n, n + m);
    const G2 = sub(E, 0, n, n + m, n + 2 * m);
    const Bd = add(add(G1, G2, -1), matmul(Phi, G2));
    return { Ad: Phi, Bd, Cd: C.map((r) => r.slice()), Dd: add(D, matmul(C, G2)) };
  }
  // Tustin: s = (2/Ts)(z - 1)/(z + 1)
  const half = Ts / 2;
  const IminusA = add(eye(n), scale(A, half), -1);
  const rc = rcond(IminusA);
  if (!(rc > n * EPS * 10)) {
    throw new ControlError(
      `c2d tustin: I - A·Ts/2 is singular (reciprocal condition ${rc.toExponential(2)}): A has an eigenvalue at 2/Ts = ${(2 / Ts).toPrecision(6)}, which the bilinear map sends to z = infinity. Use another Ts or method (zoh, foh).`,
      'infeasible',
    );
  }
  const f = lu(IminusA);
  const Ad = luSolve(f, add(eye(n), scale(A, half)));
  const Bd = luSolve(f, scale(B, Ts));
  const Cd = luSolveRight(f, C);
  const Dd = add(D, scale(matmul(C, Bd), 0.5));
  return { Ad, Bd, Cd, Dd };
}

export const tools: ToolDef[] = [
  {
    name: 'c2d',
    words: {
      calls: [
        { names: ['c2d', 'sample_system', 'sample', 'dscr'], args: ['sys', 'Ts', 'method'], keywords: { method: 'method', Ts: 'Ts', dt: 'Ts' } },
        { names: ['cont2discrete'], args: ['sys', 'Ts', 'method'], keywords: { method: 'method', dt: 'Ts' } },
      ],
      phrases: ['c2d', 'discretize', 'discretise', 'discretization', 'discretisation', 'discrete equivalent', 'convert to discrete', 'sampled-data model', 'discrete-time model', 'zero-order hold equivalent', 'tustin', 'bilinear', 'zoh', 'zero-order hold', 'foh', 'first-order hold', 'sample the plant'],
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
  },
];

