/**
 * Linear model predictive control (issue 14 item 4): `mpc`, a receding-horizon controller of a
 * discrete linear plant x[k+1] = A x[k] + B u[k], y = C x, with box constraints, simulated in
 * closed loop.
 *
 * At each step k the controller solves, from the measured state x[k] and the last input u[k−1],
 *
 *   min  Σ_{j=0}^{N−1} ( (x_j − xs)'Q(x_j − xs) + (u_j − us)'R(u_j − us) + Δu_j'S Δu_j ) + (x_N − xs)'P(x_N − xs)
 *   s.t. x_0 = x[k], x_{j+1} = A x_j + B u_j, Δu_j = u_j − u_{j−1} (u_{−1} = u[k−1]),
 *        umin ≤ u_j ≤ umax, dumin ≤ Δu_j ≤ dumax       (j = 0 … Nc−1),
 *        xmin ≤ x_j ≤ xmax, ymin ≤ C x_j ≤ ymax          (j = 1 … N),
 *        u_j = u_{Nc−1} for j ≥ Nc                       (control horizon Nc ≤ N, MATLAB's m),
 *
 * applies u[k] = u_0 and moves on. Conventions (said in every answer):
 * - the QP is condensed: the inputs U are the only variables, X = Φx[k] + ΓU, H = 2(Γ'Q̄Γ + R̄ +
 *   D'S̄D) (D the difference operator), so H is positive definite when R > 0 (or S > 0);
 * - it is solved by linalg/qp.ts (Goldfarb–Idnani dual active set, no phase 1, infeasibility
 *   found at a named constraint); every constraint is hard: an infeasible QP at some step is an
 *   error naming the step and the constraint (no softening);
 * - the terminal weight P defaults to the DARE solution of (A, B, Q, R): then, with S = 0 and
 *   Nc = N, the unconstrained MPC is exactly dlqr's u = us − K(x − xs) (the cost-to-go beyond the
 *   horizon is the LQR's);
 * - a reference r on the outputs (y = Cx; x itself when C is not given) is tracked through the
 *   steady-state target (xs, us) solving [A − I B; C 0][xs; us] = [0; r] (Muske & Rawlings);
 *   without r the target is the origin;
 * - a continuous plant (continuous: true, or a transfer function in s) is discretised with a
 *   zero-order hold at Ts (c2d's route) and the answer says so; there is no D argument: as in
 *   MATLAB's mpc, the manipulated variables have no direct feedthrough to the outputs.
 */
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import { matrix, vector } from '../tools/schema.js';
import type { JsonSchema } from '../tools/types.js';
import { checkMatrix, checkSquare, fmtSize } from '../tools/args.js';
import type { RenderOptions } from '../render/markdown.js';
import { matrixBlock } from '../render/markdown.js';
import { fmt } from '../render/format.js';
import type { Matrix } from '../types.js';
import type { Code } from '../codegen/code.js';
import { verdictHolder } from '../codegen/code.js';
import { num as numLit, vector as vecLit } from '../codegen/literals.js';
import type { PlotSpec } from '../plot/specs.js';
import { type Mat, cholesky, fromRows, luFactor, luSolve, mul, toRows, transpose, zeros } from '../linalg/dense.js';
import { rank } from '../linalg/svd.js';
import { qpPrepare, qpSolve } from '../linalg/qp.js';
import { dareMat } from './riccati.js';
import { c2dZoh } from './discretize.js';
import { tf2ss, tfProps } from './_sys.js';

/** sizes one call may ask for (the QP is dense: variables Nc·m, constraint rows up to 2(Nc·m·2 + N·(n + p))) */
export const MPC_MAX_VARS = 400;
export const MPC_MAX_HORIZON = 500;
export const MPC_MAX_STEPS = 5000;

export type ConstraintKind = 'u' | 'du' | 'x' | 'y';

/** one active constraint of one step's QP: its kind, prediction step j, component (1-based), side and multiplier */
export interface ActiveConstraint {
  kind: ConstraintKind;
  /** prediction step: u, du at j = 0 … Nc−1; x, y at j = 1 … N */
  j: number;
  /** component, 1-based */
  i: number;
  side: 'max' | 'min';
  lambda: number;
}

export interface MpcResult {
  /** the discrete model the controller uses (A, B, C; zoh of a continuous plant) */
  model: { A: Matrix; B: Matrix; C: Matrix };
  /** the continuous (or discrete) realisation of a transfer function, before discretisation */
  realization?: { A: Matrix; B: Matrix; C: Matrix };
  discretised: boolean;
  Ts: number;
  N: number;
  Nc: number;
  Q: Matrix;
  R: Matrix;
  S: Matrix;
  /** terminal weight; `terminal` says where it came from */
  P: Matrix;
  terminal: 'dare' | 'given';
  /** dlqr's gain (R + B'PB)⁻¹B'PA when P is the DARE solution */
  K?: Matrix;
  xs: number[];
  us: number[];
  x0: number[];
  u_prev: number[];
  steps: number;
  /** the first move u[0] */
  u0: number[];
  t: number[];
  /** closed-loop states, steps + 1 rows */
  x: Matrix;
  /** applied inputs, steps rows */
  u: Matrix;
  /** outputs C x, steps + 1 rows */
  y: Matrix;
  /** each step's optimal input sequence (Nc rows of m) */
  plans: number[][][];
  /** each step's active constraints with their multipliers */
  active: ActiveConstraint[][];
  /** active-set changes per step's QP */
  iterations: number[];
  /** each step's optimal QP cost (the objective above, with its j = 0 state term) */
  qp_cost: number[];
  /** the closed loop's cost Σ_k stage cost over the simulated steps */
  cost: number;
  /** the constraints given (kind → sides) */
  constrained: string[];
  /** each bound as read, one entry per component (null: none); absent: not given */
  bounds: Partial<Record<'umin' | 'umax' | 'dumin' | 'dumax' | 'xmin' | 'xmax' | 'ymin' | 'ymax', (number | null)[]>>;
  /** per constraint (e.g. 'u1 ≤ umax'), the steps at which it is active in the applied move's QP at j = first */
  activity: { constraint: string; steps: number[]; first_move_steps: number[] }[];
  /** true when no constraint was active at any step (the LQR law held throughout) */
  unconstrained_throughout: boolean;
  defaults: string[];
}

// ------------------------------------------------------------------ arguments

const boundSchema = (what: string): JsonSchema => ({
  description: `${what}: one number for every component, or a list with one entry per component; null (or leaving it out) means no bound`,
  // a list, or a column/row written as a matrix ([1; 2], [[−1]]): read as one entry per component
  anyOf: [{ type: 'number' }, { type: 'array', items: { anyOf: [{ type: ['number', 'null'] }, { type: 'array', items: { type: ['number', 'null'] } }] } }],
});

const given = (v: unknown): boolean => v !== undefined && v !== null;

function vec(v: unknown, len: number, name: string, what: string): number[] {
  if (!Array.isArray(v)) throw new ControlError(`${name} must be a list of ${len} numbers (${what}).`);
  const flat = (v as unknown[]).flatMap((e) => (Array.isArray(e) ? e : [e]));
  if (flat.length !== len) throw new ControlError(`${name} has ${flat.length} entries but needs ${len} (${what}).`);
  flat.forEach((e, i) => {
    if (typeof e !== 'number' || !Number.isFinite(e)) throw new ControlError(`${name}[${i + 1}] is ${String(e)}: it must be a finite number.`);
  });
  return flat as number[];
}

/** a bound: a scalar for every component or a list (null: none); ±Infinity as none too */
function bound(v: unknown, len: number, name: string): (number | null)[] | undefined {
  if (!given(v)) return undefined;
  // a 1x1 matrix ([[−1]], a scalar as the reader or MATLAB writes it) is a scalar: every component
  const one = Array.isArray(v) && v.length === 1 && Array.isArray(v[0]) && (v[0] as unknown[]).length === 1 ? (v[0] as unknown[])[0] : v;
  const list =
    typeof one === 'number' ? new Array(len).fill(one) : Array.isArray(one) ? (one as unknown[]).flatMap((e) => (Array.isArray(e) ? e : [e])) : undefined;
  if (!list) throw new ControlError(`${name} must be a number or a list of ${len} numbers (null for no bound).`);
  if (list.length !== len) throw new ControlError(`${name} has ${list.length} entries but needs ${len} (one per component; null for no bound).`);
  const out = list.map((e, i) => {
    if (e === null || e === Infinity || e === -Infinity) return null;
    if (typeof e !== 'number' || Number.isNaN(e)) throw new ControlError(`${name}[${i + 1}] is ${String(e)}: a bound is a number or null (none).`);
    return e;
  });
  return out.some((e) => e !== null) ? out : undefined;
}

function sq(v: unknown, n: number, name: string, what: string): Mat {
  const M = checkMatrix(v, name);
  if (M.length !== n || (M[0]?.length ?? 0) !== n) throw new ControlError(`${name} is ${fmtSize(M)} but must be ${n}x${n} (${what}).`);
  let scale = 0;
  for (const r of M) for (const x of r) scale = Math.max(scale, Math.abs(x));
  for (let i = 0; i < n; i++)
    for (let j = 0; j < i; j++)
      if (Math.abs(M[i][j] - M[j][i]) > 1e-10 * Math.max(scale, 1e-300))
        throw new ControlError(`${name} must be symmetric, but ${name}(${i + 1},${j + 1}) = ${M[i][j]} and ${name}(${j + 1},${i + 1}) = ${M[j][i]}.`);
  return fromRows(M);
}

const intArg = (v: unknown, name: string, lo: number, hi: number, what: string): number => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo)
    throw new ControlError(`${name} must be an integer ≥ ${lo} (${what}), not ${JSON.stringify(v)}.`);
  if (v > hi) throw new ControlError(`${name} = ${v} is above the limit of ${hi} (${what}).`, 'limit');
  return v;
};

interface Plant {
  A: Mat;
  B: Mat;
  C: Mat;
  hasC: boolean;
  discretised: boolean;
  realization?: { A: Matrix; B: Matrix; C: Matrix };
}

function readPlant(args: Record<string, any>, Ts: number, notes: string[]): Plant {
  const continuous = args.continuous === true;
  if (given(args.num) || given(args.den)) {
    const ss = ['A', 'B', 'C'].filter((k) => given(args[k]));
    if (ss.length)
      throw new ControlError(
        `mpc: give the plant either as A, B (C) or as num/den, not both (you gave num, den and ${ss.join(', ')}); they are two ways of writing one system.`,
      );
    if (!Array.isArray(args.num) || !Array.isArray(args.den)) throw new ControlError('mpc needs both num and den for a transfer function plant.');
    const r = tf2ss(args.num, args.den);
    if (!r.A.length) throw new ControlError('mpc: the transfer function is a static gain (no states): there is nothing to predict.');
    if (r.D[0][0] !== 0)
      throw new ControlError(
        'mpc: the transfer function is biproper (direct feedthrough from u to y); MPC needs a strictly proper plant (deg num < deg den), as MATLAB’s mpc (no direct feedthrough from manipulated variables).',
      );
    notes.push('the transfer function realised in controllable canonical form (tf2ss): the states are that realisation’s');
    const plant = { A: fromRows(r.A), B: fromRows(r.B), C: fromRows(r.C), hasC: true, discretised: false, realization: { A: r.A, B: r.B, C: r.C } };
    return discretise(plant, Ts, continuous, notes);
  }
  if (!given(args.A) || !given(args.B)) throw new ControlError('mpc needs the plant: A and B (C optional), or a transfer function num/den; and Ts.');
  const A = checkMatrix(args.A, 'A');
  const n = checkSquare(A, 'A');
  const B = checkMatrix(args.B, 'B');
  if (B.length !== n) throw new ControlError(`B has ${B.length} rows but A is ${n}x${n}; B must have ${n} rows (one per state).`);
  const m = B[0]?.length ?? 0;
  if (!m) throw new ControlError('B has no columns: the plant needs at least one input.');
  let C: Matrix;
  const hasC = given(args.C);
  if (hasC) {
    C = checkMatrix(args.C, 'C');
    if (!C.length || C[0].length !== n) throw new ControlError(`C is ${fmtSize(C)} but must have ${n} columns (one per state).`);
  } else C = A.map((_, i) => A.map((__, j) => (i === j ? 1 : 0)));
  return discretise({ A: fromRows(A), B: fromRows(B), C: fromRows(C), hasC, discretised: false }, Ts, continuous, notes);
}

function discretise(p: Plant, Ts: number, continuous: boolean, notes: string[]): Plant {
  if (!continuous) return p;
  const { Ad, Bd } = c2dZoh(p.A, p.B, Ts);
  notes.push(`the continuous plant discretised with a zero-order hold at Ts = ${fmt(Ts)} s (c2d zoh)`);
  return { ...p, A: Ad, B: Bd, discretised: true, realization: p.realization ?? { A: toRows(p.A), B: toRows(p.B), C: toRows(p.C) } };
}

/** the steady state (xs, us) with y = r: [A − I B; C 0][xs; us] = [0; r] */
function target(A: Mat, B: Mat, C: Mat, r: number[]): { xs: number[]; us: number[] } {
  const n = A.r,
    m = B.c,
    p = C.r;
  const M = zeros(n + p, n + m);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) M.d[i * (n + m) + j] = A.d[i * n + j] - (i === j ? 1 : 0);
    for (let j = 0; j < m; j++) M.d[i * (n + m) + n + j] = B.d[i * m + j];
  }
  for (let i = 0; i < p; i++) for (let j = 0; j < n; j++) M.d[(n + i) * (n + m) + j] = C.d[i * n + j];
  if (rank(M) < n + m)
    throw new ControlError(
      `mpc: the steady state for the reference r is not unique ([A − I B; C 0] has rank ${rank(M)} < n + m = ${n + m}: more inputs than outputs to track, or an integrator-free direction); give fewer inputs, more outputs in C, or regulate to the origin without r.`,
    );
  const b = new Float64Array(n + p);
  r.forEach((v, i) => (b[n + i] = v));
  // least squares by the normal equations (M has full column rank)
  const Mt = transpose(M);
  const z = luSolve(luFactor(mul(Mt, M)), mul(Mt, { r: n + p, c: 1, d: b }));
  let res = 0,
    scale = 1e-300;
  for (let i = 0; i < n + p; i++) {
    let s = -b[i];
    for (let j = 0; j < n + m; j++) s += M.d[i * (n + m) + j] * z.d[j];
    res = Math.max(res, Math.abs(s));
    scale = Math.max(scale, Math.abs(b[i]));
  }
  if (res > 1e-8 * Math.max(scale, 1))
    throw new ControlError(
      `mpc: the reference r = [${r.join(', ')}] is not a reachable steady state (the nearest misses by ${res.toPrecision(3)}): with ${m} input(s) the plant cannot hold ${p} output(s) there. Give a reference it can hold, or fewer outputs in C.`,
    );
  return { xs: Array.from(z.d.slice(0, n)), us: Array.from(z.d.slice(n)) };
}

// ------------------------------------------------------------------ the condensed QP

interface Row {
  kind: ConstraintKind;
  j: number;
  i: number;
  side: 'max' | 'min';
  bound: number;
  /** h = sign·(bound − phi·x) (+ u_prev term for Δu_0) */
  phi?: Float64Array;
  uprev?: number;
}

export const constraintLabel = (c: { kind: ConstraintKind; i: number; side: 'max' | 'min' }, bound?: number) => {
  const name = c.kind === 'du' ? `Δu${c.i}` : `${c.kind}${c.i}`;
  const op = c.side === 'max' ? '≤' : '≥';
  return `${name} ${op} ${bound !== undefined ? fmt(bound) : `${c.kind}${c.side}`}`;
};

export function mpc(args: Record<string, any>): MpcResult {
  const notes: string[] = [];
  const defaults: string[] = [];
  if (!given(args.Ts) || !(typeof args.Ts === 'number' && args.Ts > 0))
    throw new ControlError(
      'mpc needs the sample time Ts > 0 (the controller is discrete; a continuous plant is discretised with it, a discrete plant runs at it).',
    );
  const Ts = args.Ts as number;
  const plant = readPlant(args, Ts, notes);
  const { A, B, C } = plant;
  const n = A.r,
    m = B.c,
    p = C.r;
  if (!given(args.N)) throw new ControlError('mpc needs the prediction horizon N (in steps), e.g. N = 10.');
  const N = intArg(args.N, 'N', 1, MPC_MAX_HORIZON, 'the prediction horizon, in steps');
  const Nc = given(args.Nc) ? intArg(args.Nc, 'Nc', 1, N, 'the control horizon, at most N') : N;
  if (Nc * m > MPC_MAX_VARS)
    throw new ControlError(`mpc: Nc·m = ${Nc}·${m} = ${Nc * m} QP variables, above the limit of ${MPC_MAX_VARS}; shorten the control horizon Nc.`, 'limit');
  // weights
  let Q: Mat;
  if (given(args.Q)) Q = sq(args.Q, n, 'Q', 'the state weight, n x n');
  else {
    Q = plant.hasC ? mul(transpose(C), C) : fromRows(A.d.length ? toRows(zeros(n, n)).map((r, i) => r.map((_, j) => (i === j ? 1 : 0))) : []);
    defaults.push(plant.hasC ? "Q = C'C (weight 1 on each output)" : 'Q = I (weight 1 on each state)');
  }
  let R: Mat;
  if (given(args.R)) R = sq(args.R, m, 'R', 'the input weight, m x m');
  else {
    R = fromRows(Array.from({ length: m }, (_, i) => Array.from({ length: m }, (__, j) => (i === j ? 1 : 0))));
    defaults.push('R = I');
  }
  const S = given(args.S) ? sq(args.S, m, 'S', 'the input-rate weight on Δu, m x m') : zeros(m, m);
  // the reference and its steady state
  let xs = new Array(n).fill(0),
    us = new Array(m).fill(0);
  if (given(args.r)) {
    const r = vec(args.r, p, 'r', plant.hasC ? `the reference of the ${p} output(s) y = Cx` : `the reference of the ${n} states (no C given)`);
    ({ xs, us } = target(A, B, C, r));
  }
  // terminal weight
  let P: Mat;
  let K: Mat | undefined;
  let terminal: 'dare' | 'given';
  if (given(args.P)) {
    P = sq(args.P, n, 'P', 'the terminal weight, n x n');
    terminal = 'given';
  } else {
    if (!cholesky(R))
      throw new ControlError(
        'mpc: the default terminal weight P is the DARE solution of (A, B, Q, R), which needs R positive definite; give R > 0 or a terminal weight P.',
      );
    try {
      const s = dareMat(A, B, Q, R);
      P = s.X;
      K = s.K;
    } catch (e) {
      if (e instanceof ControlError)
        throw new ControlError(`${e.message} (mpc's default terminal weight is the DARE solution of (A, B, Q, R); give a terminal weight P instead.)`, e.code);
      throw e;
    }
    terminal = 'dare';
  }
  // the initial state and input
  let x0: number[];
  if (given(args.x0)) x0 = vec(args.x0, n, 'x0', `the initial state, ${n} entries`);
  else {
    if (!given(args.r))
      throw new ControlError(
        `mpc needs x0 (the initial state, ${n} entries) or a reference r to track: from x = 0 with no reference the controller has nothing to do.`,
      );
    x0 = new Array(n).fill(0);
    defaults.push('x0 = 0');
  }
  const uPrev = given(args.u_prev) ? vec(args.u_prev, m, 'u_prev', `the input applied before step 0, ${m} entries`) : new Array(m).fill(0);
  const steps = given(args.steps)
    ? intArg(args.steps, 'steps', 1, MPC_MAX_STEPS, 'closed-loop steps to simulate')
    : Math.min(Math.max(50, 2 * N), MPC_MAX_STEPS);
  if (!given(args.steps)) defaults.push(`steps = ${steps} (max(50, 2N))`);
  // bounds
  const umin = bound(args.umin, m, 'umin'),
    umax = bound(args.umax, m, 'umax'),
    dumin = bound(args.dumin, m, 'dumin'),
    dumax = bound(args.dumax, m, 'dumax'),
    xmin = bound(args.xmin, n, 'xmin'),
    xmax = bound(args.xmax, n, 'xmax');
  let ymin: (number | null)[] | undefined, ymax: (number | null)[] | undefined;
  if (given(args.ymin) || given(args.ymax)) {
    if (!plant.hasC) throw new ControlError('mpc: ymin/ymax bound the outputs y = Cx, but no C is given; give C, or bound the states with xmin/xmax.');
    ymin = bound(args.ymin, p, 'ymin');
    ymax = bound(args.ymax, p, 'ymax');
  }
  const pairs: [string, (number | null)[] | undefined, (number | null)[] | undefined][] = [
    ['u', umin, umax],
    ['du', dumin, dumax],
    ['x', xmin, xmax],
    ['y', ymin, ymax],
  ];
  for (const [k, lo, hi] of pairs)
    if (lo && hi)
      lo.forEach((l, i) => {
        if (l !== null && hi[i] !== null && l > hi[i]!)
          throw new ControlError(`mpc: ${k}min(${i + 1}) = ${l} is above ${k}max(${i + 1}) = ${hi[i]}: no ${k === 'du' ? 'Δu' : k}${i + 1} satisfies both.`);
      });
  const constrained = pairs.flatMap(([k, lo, hi]) => [...(lo ? [`${k}min`] : []), ...(hi ? [`${k}max`] : [])]);

  // prediction: x_j = A^j x + Σ_{i<j} A^{j−1−i} B u_i, the inputs blocked after Nc
  const nv = Nc * m;
  const Apow: Mat[] = [fromRows(toRows(zeros(n, n)).map((r, i) => r.map((_, j) => (i === j ? 1 : 0))))];
  for (let j = 1; j <= N; j++) Apow.push(mul(A, Apow[j - 1]));
  const AB: Mat[] = Apow.map((Ap) => mul(Ap, B));
  // Gam: N·n x nv, row block j−1 is x_j
  const Gam = zeros(N * n, nv);
  for (let j = 1; j <= N; j++)
    for (let i = 0; i < j; i++) {
      const M = AB[j - 1 - i];
      const col = Math.min(i, Nc - 1) * m;
      for (let a = 0; a < n; a++) for (let b = 0; b < m; b++) Gam.d[((j - 1) * n + a) * nv + col + b] += M.d[a * m + b];
    }
  // H = 2(Γ'Q̄Γ + T'R̄T + T'D'S̄DT)
  const H = zeros(nv, nv);
  const QG = zeros(N * n, nv);
  for (let j = 1; j <= N; j++) {
    const W = j === N ? P : Q;
    for (let a = 0; a < n; a++)
      for (let c = 0; c < nv; c++) {
        let s = 0;
        for (let b = 0; b < n; b++) s += W.d[a * n + b] * Gam.d[((j - 1) * n + b) * nv + c];
        QG.d[((j - 1) * n + a) * nv + c] = s;
      }
  }
  for (let r = 0; r < nv; r++)
    for (let c = 0; c < nv; c++) {
      let s = 0;
      for (let k = 0; k < N * n; k++) s += Gam.d[k * nv + r] * QG.d[k * nv + c];
      H.d[r * nv + c] = 2 * s;
    }
  // input weight: u_j for j ≥ Nc − 1 all equal U_{Nc−1}: N − Nc + 1 copies
  for (let blk = 0; blk < Nc; blk++) {
    const copies = blk === Nc - 1 ? N - Nc + 1 : 1;
    for (let a = 0; a < m; a++) for (let b = 0; b < m; b++) H.d[(blk * m + a) * nv + blk * m + b] += 2 * copies * R.d[a * m + b];
  }
  // rate weight: Δu_0 = U_0 − u_prev, Δu_j = U_j − U_{j−1} (j < Nc), zero after
  for (let blk = 0; blk < Nc; blk++)
    for (let a = 0; a < m; a++)
      for (let b = 0; b < m; b++) {
        const s2 = 2 * S.d[a * m + b];
        H.d[(blk * m + a) * nv + blk * m + b] += s2;
        if (blk > 0) {
          H.d[((blk - 1) * m + a) * nv + (blk - 1) * m + b] += s2;
          H.d[(blk * m + a) * nv + (blk - 1) * m + b] -= s2;
          H.d[((blk - 1) * m + a) * nv + blk * m + b] -= s2;
        }
      }
  for (let r = 0; r < nv; r++)
    for (let c = 0; c < r; c++) {
      const v = (H.d[r * nv + c] + H.d[c * nv + r]) / 2;
      H.d[r * nv + c] = H.d[c * nv + r] = v;
    }

  // constraint rows G U ≤ h
  const rows: Row[] = [];
  const gRows: number[][] = [];
  const unit = (k: number, sgn: number) => {
    const g = new Array(nv).fill(0);
    g[k] = sgn;
    return g;
  };
  for (let j = 0; j < Nc; j++)
    for (let i = 0; i < m; i++) {
      if (umax?.[i] != null) {
        rows.push({ kind: 'u', j, i: i + 1, side: 'max', bound: umax[i]! });
        gRows.push(unit(j * m + i, 1));
      }
      if (umin?.[i] != null) {
        rows.push({ kind: 'u', j, i: i + 1, side: 'min', bound: umin[i]! });
        gRows.push(unit(j * m + i, -1));
      }
    }
  for (let j = 0; j < Nc; j++)
    for (let i = 0; i < m; i++)
      for (const [side, bnd, sgn] of [
        ['max', dumax?.[i], 1],
        ['min', dumin?.[i], -1],
      ] as const) {
        if (bnd == null) continue;
        const g = unit(j * m + i, sgn);
        if (j > 0) g[(j - 1) * m + i] = -sgn;
        rows.push({ kind: 'du', j, i: i + 1, side, bound: bnd, ...(j === 0 ? { uprev: i } : {}) });
        gRows.push(g);
      }
  const outRows = (kind: 'x' | 'y', lo: (number | null)[] | undefined, hi: (number | null)[] | undefined, Cm: Mat) => {
    if (!lo && !hi) return;
    for (let j = 1; j <= N; j++)
      for (let i = 0; i < Cm.r; i++) {
        // c_i' x_j = c_i' A^j x + (c_i' Γ_j) U
        const g = new Array(nv).fill(0);
        for (let c = 0; c < nv; c++) {
          let s = 0;
          for (let a = 0; a < n; a++) s += Cm.d[i * n + a] * Gam.d[((j - 1) * n + a) * nv + c];
          g[c] = s;
        }
        const phi = new Float64Array(n);
        for (let b = 0; b < n; b++) {
          let s = 0;
          for (let a = 0; a < n; a++) s += Cm.d[i * n + a] * Apow[j].d[a * n + b];
          phi[b] = s;
        }
        if (hi?.[i] != null) {
          rows.push({ kind, j, i: i + 1, side: 'max', bound: hi[i]!, phi });
          gRows.push(g);
        }
        if (lo?.[i] != null) {
          rows.push({ kind, j, i: i + 1, side: 'min', bound: lo[i]!, phi });
          gRows.push(g.map((v) => -v));
        }
      }
  };
  const I_n = fromRows(toRows(zeros(n, n)).map((r, i) => r.map((_, j) => (i === j ? 1 : 0))));
  outRows('x', xmin, xmax, I_n);
  outRows('y', ymin, ymax, C);
  const nc = rows.length;
  const G = zeros(nc, nv);
  gRows.forEach((g, r) => g.forEach((v, c) => (G.d[r * nv + c] = v)));
  const prob = qpPrepare(H, G);
  // cond(H) ≥ (max Lᵢᵢ / min Lᵢᵢ)² (H = LL'): the moves cannot be more accurate than cond(H)·eps,
  // so a condensed QP beyond 1e9 (an unstable plant predicted over a long horizon: Γ holds A^(N−1)B)
  // is refused with what to change, never returned with digits it does not have
  if (prob) {
    let lo = Infinity,
      hi = 0;
    for (let i = 0; i < nv; i++) {
      const d = prob.L[i * nv + i];
      lo = Math.min(lo, d);
      hi = Math.max(hi, d);
    }
    const cond = (hi / lo) ** 2;
    if (cond > 1e9)
      throw new ControlError(
        `mpc: the condensed QP is too ill-conditioned to solve reliably (cond(H) ≥ ${cond.toExponential(1)}): the prediction over N = ${N} steps amplifies the plant${Math.max(...Apow[N].d.map(Math.abs)) > 1e3 ? ` (entries of A^N reach ${Math.max(...Apow[N].d.map(Math.abs)).toExponential(1)})` : ''}. Shorten the horizon, scale the states and inputs, or pre-stabilise the plant (u = −Kx + v) and predict the stable loop.`,
        'numerical',
      );
  }
  if (!prob)
    throw new ControlError(
      cholesky(R)
        ? "mpc: the QP Hessian H = 2(Γ'Q̄Γ + R̄ + D'S̄D) is numerically singular (R is positive definite, but the prediction terms swamp it): scale the states and inputs, shorten the horizon, or raise R."
        : "mpc: the QP Hessian H = 2(Γ'Q̄Γ + R̄ + D'S̄D) is not positive definite: give R positive definite (or an input-rate weight S > 0).",
      'numerical',
    );

  // f = 2(Γ'Q̄(Φx − Xs) − T'R̄Us − D'S̄E u_prev)
  const linear = (x: number[], up: number[]): Float64Array => {
    const f = new Float64Array(nv);
    for (let j = 1; j <= N; j++) {
      const W = j === N ? P : Q;
      // e = A^j x − xs; W e
      const e = new Float64Array(n);
      for (let a = 0; a < n; a++) {
        let s = -xs[a];
        for (let b = 0; b < n; b++) s += Apow[j].d[a * n + b] * x[b];
        e[a] = s;
      }
      for (let a = 0; a < n; a++) {
        let we = 0;
        for (let b = 0; b < n; b++) we += W.d[a * n + b] * e[b];
        for (let c = 0; c < nv; c++) f[c] += 2 * Gam.d[((j - 1) * n + a) * nv + c] * we;
      }
    }
    for (let blk = 0; blk < Nc; blk++) {
      const copies = blk === Nc - 1 ? N - Nc + 1 : 1;
      for (let a = 0; a < m; a++) {
        let s = 0;
        for (let b = 0; b < m; b++) s += R.d[a * m + b] * us[b];
        f[blk * m + a] -= 2 * copies * s;
      }
    }
    for (let a = 0; a < m; a++) {
      let s = 0;
      for (let b = 0; b < m; b++) s += S.d[a * m + b] * up[b];
      f[a] -= 2 * s;
    }
    return f;
  };
  const rhs = (x: number[], up: number[]): Float64Array =>
    Float64Array.from(rows, (row) => {
      const sgn = row.side === 'max' ? 1 : -1;
      let v = row.bound;
      if (row.phi) for (let b = 0; b < n; b++) v -= row.phi[b] * x[b];
      if (row.uprev !== undefined) v += up[row.uprev];
      return sgn * v;
    });
  const stage = (x: number[], u: number[], up: number[]) => {
    let c = 0;
    for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) c += (x[a] - xs[a]) * Q.d[a * n + b] * (x[b] - xs[b]);
    for (let a = 0; a < m; a++)
      for (let b = 0; b < m; b++) c += (u[a] - us[a]) * R.d[a * m + b] * (u[b] - us[b]) + (u[a] - up[a]) * S.d[a * m + b] * (u[b] - up[b]);
    return c;
  };
  const step = (x: number[], u: number[]) =>
    Array.from({ length: n }, (_, a) => {
      let s = 0;
      for (let b = 0; b < n; b++) s += A.d[a * n + b] * x[b];
      for (let b = 0; b < m; b++) s += B.d[a * m + b] * u[b];
      return s;
    });
  const outOf = (x: number[]) =>
    Array.from({ length: p }, (_, a) => {
      let s = 0;
      for (let b = 0; b < n; b++) s += C.d[a * n + b] * x[b];
      return s;
    });

  // the receding horizon
  const X: number[][] = [x0.slice()];
  const Uapplied: number[][] = [];
  const plans: number[][][] = [];
  const active: ActiveConstraint[][] = [];
  const iterations: number[] = [];
  const qpCost: number[] = [];
  let cost = 0;
  let up = uPrev.slice();
  for (let k = 0; k < steps; k++) {
    const x = X[k];
    const f = linear(x, up);
    const h = rhs(x, up);
    const sol = qpSolve(prob, f, h);
    if ('infeasible' in sol) {
      const row = rows[sol.constraint];
      const with_ = sol.active.map((c) => `${constraintLabel(rows[c], rows[c].bound)} at j = ${rows[c].j}`);
      throw new ControlError(
        `mpc: the QP at step ${k} (t = ${fmt(k * Ts)} s, x = [${x.map((v) => fmt(v)).join(', ')}]) is infeasible: ${constraintLabel(row, row.bound)} at prediction step j = ${row.j} cannot be met${with_.length ? ` together with ${with_.slice(0, 4).join(', ')}${with_.length > 4 ? ` and ${with_.length - 4} more` : ''}` : ''}. Every constraint is hard (none is softened): loosen that bound, lengthen the horizon N, allow larger inputs, or start from a state the inputs can steer inside the bounds.`,
        'infeasible',
      );
    }
    const U = Array.from(sol.x);
    // the solution's own feasibility and complementarity: a QP too ill-conditioned for double
    // precision (states grown to 1e13, inputs with no effect) is refused, never returned
    let worst = 0;
    for (let c = 0; c < rows.length; c++) {
      let s = h[c];
      for (let v = 0; v < nv; v++) s -= G.d[c * nv + v] * U[v];
      const sc = Math.max(1, Math.abs(h[c]), prob.gnorm[c] * Math.max(...U.map(Math.abs)));
      worst = Math.max(worst, -s / sc, sol.lambda[c] > 0 ? Math.abs(s) / sc : 0);
    }
    if (worst > 1e-9)
      throw new ControlError(
        `mpc: the QP at step ${k} cannot be solved accurately in double precision (its solution misses a bound by ${worst.toPrecision(2)}, relative; the state there is [${x.map((v) => fmt(v)).join(', ')}]): the problem is too ill-conditioned — scale the states and inputs, shorten the horizon, or check that the inputs move the plant (B) and that the closed loop does not diverge.`,
        'numerical',
      );
    const plan = Array.from({ length: Nc }, (_, j) => U.slice(j * m, (j + 1) * m));
    plans.push(plan);
    iterations.push(sol.iterations);
    active.push(
      sol.active
        .map((c) => ({ kind: rows[c].kind, j: rows[c].j, i: rows[c].i, side: rows[c].side, lambda: sol.lambda[c] }))
        .sort((a, b) => a.j - b.j || a.kind.localeCompare(b.kind) || a.i - b.i),
    );
    // the QP's cost by the model (its j = 0 state term included)
    let J = 0,
      xp = x,
      uprv = up;
    for (let j = 0; j < N; j++) {
      const uj = plan[Math.min(j, Nc - 1)];
      J += stage(xp, uj, uprv);
      uprv = uj;
      xp = step(xp, uj);
    }
    for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) J += (xp[a] - xs[a]) * P.d[a * n + b] * (xp[b] - xs[b]);
    qpCost.push(J);
    const u = plan[0];
    cost += stage(x, u, up);
    Uapplied.push(u.slice());
    X.push(step(x, u));
    up = u;
  }
  // the constraint activity
  const activity = new Map<string, { constraint: string; steps: number[]; first_move_steps: number[] }>();
  active.forEach((list, k) => {
    for (const a of list) {
      const lo = { u: umin, du: dumin, x: xmin, y: ymin }[a.kind],
        hi = { u: umax, du: dumax, x: xmax, y: ymax }[a.kind];
      const bnd = (a.side === 'max' ? hi : lo)![a.i - 1]!;
      const key = constraintLabel(a, bnd);
      const e = activity.get(key) ?? { constraint: key, steps: [], first_move_steps: [] };
      if (!e.steps.includes(k)) e.steps.push(k);
      const first = a.kind === 'u' || a.kind === 'du' ? a.j === 0 : a.j === 1;
      if (first && !e.first_move_steps.includes(k)) e.first_move_steps.push(k);
      activity.set(key, e);
    }
  });
  const mats = (M: Mat) => toRows(M);
  return {
    model: { A: mats(A), B: mats(B), C: mats(C) },
    ...(plant.realization ? { realization: plant.realization } : {}),
    discretised: plant.discretised,
    Ts,
    N,
    Nc,
    Q: mats(Q),
    R: mats(R),
    S: mats(S),
    P: mats(P),
    terminal,
    ...(K ? { K: mats(K) } : {}),
    xs,
    us,
    x0,
    u_prev: uPrev,
    steps,
    u0: Uapplied[0],
    t: X.map((_, k) => k * Ts),
    x: X,
    u: Uapplied,
    y: X.map(outOf),
    plans,
    active,
    iterations,
    qp_cost: qpCost,
    cost,
    constrained,
    bounds: Object.fromEntries(
      (
        [
          ['umin', umin],
          ['umax', umax],
          ['dumin', dumin],
          ['dumax', dumax],
          ['xmin', xmin],
          ['xmax', xmax],
          ['ymin', ymin],
          ['ymax', ymax],
        ] as const
      ).filter(([, v]) => v !== undefined),
    ),
    activity: [...activity.values()],
    unconstrained_throughout: activity.size === 0,
    defaults: [...notes, ...defaults],
  };
}

// ------------------------------------------------------------------ render

const vecText = (v: number[], o: RenderOptions) => `[${v.map((x) => fmt(x, o.digits)).join(', ')}]`;

/** 0, 1, 2, 5, 6 → "0–2, 5–6" */
export function ranges(ks: number[]): string {
  const out: string[] = [];
  let i = 0;
  while (i < ks.length) {
    let j = i;
    while (j + 1 < ks.length && ks[j + 1] === ks[j] + 1) j++;
    out.push(j > i ? `${ks[i]}–${ks[j]}` : `${ks[i]}`);
    i = j + 1;
  }
  return out.join(', ');
}

function renderMpc(_args: Record<string, any>, r: MpcResult, o: RenderOptions): string {
  const n = r.model.A.length,
    m = r.model.B[0].length;
  const out: string[] = [];
  const bounds: string[] = [];
  for (const [k, v] of Object.entries(r.bounds))
    if (v)
      bounds.push(`${k} = ${v.every((e) => e === v[0]) ? fmt(v[0] ?? NaN, o.digits) : `[${v.map((e) => (e === null ? '–' : fmt(e, o.digits))).join(', ')}]`}`);
  out.push(
    `**Model predictive control**, horizon N = ${r.N}${r.Nc !== r.N ? `, control horizon Nc = ${r.Nc} (inputs held after)` : ''}, Ts = ${fmt(r.Ts)} s, ${n} state${n > 1 ? 's' : ''}, ${m} input${m > 1 ? 's' : ''}; ` +
      `${bounds.length ? `constraints ${bounds.join(', ')} (hard)` : 'no constraints (the unconstrained MPC)'}; ${r.steps} closed-loop steps.`,
  );
  if (r.defaults.length) out.push(`_Read as:_ ${r.defaults.join('; ')}.`);
  if (r.discretised) out.push(matrixBlock('Ad', r.model.A, o), matrixBlock('Bd', r.model.B, o));
  out.push(
    `**First move** u[0] = ${vecText(r.u0, o)}; final state x[${r.steps}] = ${vecText(r.x[r.steps], o)}${r.xs.some((v) => v !== 0) ? ` (target xs = ${vecText(r.xs, o)}, us = ${vecText(r.us, o)})` : ''}; closed-loop cost Σ stage costs = ${fmt(r.cost, o.digits)}; QP iterations per step ${Math.min(...r.iterations)}–${Math.max(...r.iterations)}.`,
  );
  out.push(
    r.terminal === 'dare'
      ? `Terminal weight P: the DARE solution of (A, B, Q, R)${r.S.some((row) => row.some((v) => v !== 0)) || r.Nc !== r.N ? ' (with a rate weight S or Nc < N the unconstrained MPC is no longer exactly dlqr)' : ', so wherever no constraint is active the move is dlqr’s u = us − K(x − xs)'}.`
      : 'Terminal weight P as given.',
  );
  if (r.K) out.push(`dlqr's gain from that P, K = (R + B'PB)⁻¹B'PA:`, matrixBlock('K', r.K, o));
  // the constraint activity
  if (r.unconstrained_throughout) out.push('**Constraint activity:** none active at any step: every move was the unconstrained optimum.');
  else {
    const rows = r.activity.map((a) => `| ${a.constraint} | ${a.first_move_steps.length ? ranges(a.first_move_steps) : '–'} | ${ranges(a.steps)} |`);
    out.push(
      `**Constraint activity** (the steps k at which each bound is active in that step's QP):\n\n| constraint | active on the applied move (u, Δu at j = 0; x, y at j = 1) | active anywhere in the horizon |\n|---|---|---|\n${rows.join('\n')}`,
    );
  }
  // the trajectory (at most 20 rows)
  const K = r.steps;
  const every = Math.max(1, Math.ceil((K + 1) / 20));
  const ks: number[] = [];
  for (let k = 0; k <= K; k += every) ks.push(k);
  if (ks[ks.length - 1] !== K) ks.push(K);
  const head = `| k | t (s) | x | u | active |`;
  const lines = ks.map(
    (k) =>
      `| ${k} | ${fmt(r.t[k], o.digits)} | ${vecText(r.x[k], o)} | ${k < K ? vecText(r.u[k], o) : '–'} | ${
        k < K
          ? r.active[k]
              .filter((a) => (a.kind === 'u' || a.kind === 'du' ? a.j === 0 : a.j === 1))
              .map((a) => (a.side === 'max' ? '↑' : '↓') + (a.kind === 'du' ? 'Δu' : a.kind) + a.i)
              .join(' ') || '–'
          : ''
      } |`,
  );
  out.push(
    `**Closed loop** (receding horizon${every > 1 ? `, every ${every} steps shown` : ''}; ↑/↓ an upper/lower bound active on the applied move):\n\n${head}\n|---:|---:|---|---|---|\n${lines.join('\n')}`,
  );
  return out.join('\n\n');
}

// ------------------------------------------------------------------ code

const mpcCode = {
  title: 'linear MPC: condensed QP, receding-horizon closed loop',
  gen(code: Code, _a: Record<string, any>, r: MpcResult | undefined) {
    const M = code.lang === 'matlab';
    const L = code.lang;
    if (!r) {
      code.comment('the call was refused; see the message');
      return;
    }
    const A = r.model.A,
      B = r.model.B;
    const n = A.length,
      m = B[0].length;
    code.mat('A', A).mat('B', B);
    if (r.discretised)
      code.comment(
        `A, B: the plant discretised with a zero-order hold at Ts (${M ? "c2d(ss(Ac, Bc, Cc, 0), Ts, 'zoh')" : "ct.c2d(ct.ss(Ac, Bc, Cc, 0), Ts, 'zoh')"})`,
      );
    code.mat('C', r.model.C).mat('Q', r.Q).mat('R', r.R).mat('S', r.S).mat('P', r.P);
    code.comment(
      r.terminal === 'dare' ? `P: the DARE solution, ${M ? '[K, P] = dlqr(A, B, Q, R)' : 'K, P, _ = ct.dlqr(A, B, Q, R)'}` : 'P: the terminal weight given',
    );
    code.assign('Ts', numLit(r.Ts, L)).assign('N', String(r.N)).assign('Nc', String(r.Nc)).assign('steps', String(r.steps));
    const col = (v: number[]) => (M ? `${vecLit(v, L)}'` : `np.array(${vecLit(v, L)})`);
    code.assign('x0', col(r.x0)).assign('u_prev', col(r.u_prev)).assign('xs', col(r.xs)).assign('us', col(r.us));
    const bnd = (k: string, len: number, lo: boolean) => {
      const list = r.bounds[k as keyof MpcResult['bounds']];
      const inf = M ? (lo ? '-Inf' : 'Inf') : lo ? '-np.inf' : 'np.inf';
      if (!list) return M ? `${lo ? '-' : ''}Inf(${len}, 1)` : `np.full(${len}, ${inf})`;
      const items = list.map((e) => (e === null ? inf : numLit(e, L)));
      return M ? `[${items.join('; ')}]` : `np.array([${items.join(', ')}])`;
    };
    const p = r.model.C.length;
    for (const [k, len] of [
      ['u', m],
      ['du', m],
      ['x', n],
      ['y', p],
    ] as const) {
      code.assign(`${k}min`, bnd(`${k}min`, len, true)).assign(`${k}max`, bnd(`${k}max`, len, false));
    }
    if (M) {
      code.comment('MPC Toolbox: the condensed QP of @control (states weighted by Q, terminal P), solved by its active-set QP solver');
      code.comment('(an mpc object, mpc(ss(A,B,eye(n),0,Ts), Ts, N, Nc) with Weights and MV/OV limits, uses output weights without');
      code.comment(' a full terminal matrix and adds an output-disturbance estimator, so its moves differ unless those are matched)');
      code.line('n = size(A, 1); m = size(B, 2); nv = Nc*m;');
      code.line('T = kron([eye(Nc); [zeros(N-Nc, Nc-1) ones(N-Nc, 1)]], eye(m));   % u_j = U_min(j, Nc)');
      code.line('Phi = zeros(N*n, n); Gam = zeros(N*n, N*m);');
      code.line('for j = 1:N');
      code.line('  Phi((j-1)*n+1:j*n, :) = A^j;');
      code.line('  for i = 1:j, Gam((j-1)*n+1:j*n, (i-1)*m+1:i*m) = A^(j-i)*B; end');
      code.line('end');
      code.line('Gam = Gam*T;');
      code.line('Qb = blkdiag(kron(eye(N-1), Q), P); Rb = kron(eye(N), R); Sb = kron(eye(N), S);');
      code.line('Dm = kron(eye(N) - diag(ones(N-1, 1), -1), eye(m)); E = [eye(m); zeros((N-1)*m, m)];');
      code.line("H = 2*(Gam'*Qb*Gam + T'*Rb*T + T'*Dm'*Sb*Dm*T); H = (H + H')/2;");
      code.line('Cy = kron(eye(N), C); Du = Dm*T; Du = Du(1:nv, :); Eu = E(1:nv, :);');
      code.line('Ain = [eye(nv); -eye(nv); Du; -Du; Gam; -Gam; Cy*Gam; -Cy*Gam];');
      code.line("x = x0; up = u_prev; X = x0'; U = zeros(0, m); opt = mpcActiveSetOptions;");
      code.line('for k = 1:steps');
      code.line("  f = 2*(Gam'*Qb*(Phi*x - repmat(xs, N, 1)) - T'*Rb*repmat(us, N, 1) - T'*Dm'*Sb*E*up);");
      code.line('  bin = [repmat(umax, Nc, 1); -repmat(umin, Nc, 1); repmat(dumax, Nc, 1) + Eu*up; -repmat(dumin, Nc, 1) - Eu*up; ...');
      code.line('         repmat(xmax, N, 1) - Phi*x; -repmat(xmin, N, 1) + Phi*x; repmat(ymax, N, 1) - Cy*Phi*x; -repmat(ymin, N, 1) + Cy*Phi*x];');
      code.line('  keep = isfinite(bin);   % rows without a bound drop out');
      code.line('  [Uk, flag] = mpcActiveSetSolver(H, f, Ain(keep, :), bin(keep), zeros(0, nv), zeros(0, 1), false(nnz(keep), 1), opt);');
      code.line("  if flag <= 0, error('QP infeasible at step %d', k-1); end");
      code.line("  u = Uk(1:m); x = A*x + B*u; up = u; X(end+1, :) = x'; U(end+1, :) = u';");
      code.line('end');
      code.line('% with quadprog (Optimization Toolbox) instead: Uk = quadprog(H, f, Ain(keep,:), bin(keep));');
    } else {
      code.comment("plain cvxpy on the same cost and constraints (python-control's create_mpc_iosystem builds the same problem with");
      code.comment('scipy.optimize, slower and less exact); pip install cvxpy');
      code.line('import cvxpy as cp');
      code.line('def box(e, lo, hi):   # the finite bounds only (an infinite one is no constraint)');
      code.line('    hf, lf = np.isfinite(hi), np.isfinite(lo)');
      code.line('    return ([e[hf] <= hi[hf]] if hf.any() else []) + ([e[lf] >= lo[lf]] if lf.any() else [])');
      code.line('x, up = x0.copy(), u_prev.copy()');
      code.line('X, U = [x0], []');
      code.line('for k in range(steps):');
      code.line('    u = cp.Variable((Nc, B.shape[1])); xv = [x]; cost = 0; cons = []; prev = up');
      code.line('    for j in range(N):');
      code.line('        uj = u[min(j, Nc - 1)]');
      code.line('        cost += cp.quad_form(xv[j] - xs, Q) + cp.quad_form(uj - us, R) + cp.quad_form(uj - prev, S, assume_PSD=True)');
      code.line('        if j < Nc:');
      code.line('            cons += box(uj, umin, umax) + box(uj - prev, dumin, dumax)');
      code.line('        xv.append(A @ xv[j] + B @ uj)');
      code.line('        cons += box(xv[j + 1], xmin, xmax) + box(C @ xv[j + 1], ymin, ymax)');
      code.line('        prev = uj');
      code.line('    cost += cp.quad_form(xv[N] - xs, P, assume_PSD=True)');
      code.line('    prob = cp.Problem(cp.Minimize(cost), cons)');
      code.line('    prob.solve(solver=cp.CLARABEL)');
      code.line("    if prob.status != 'optimal': raise RuntimeError(f'QP infeasible at step {k}')");
      code.line('    uk = u.value[0]; x = A @ x + B @ uk; up = uk; X.append(x); U.append(uk)');
      code.line('X, U = np.array(X), np.array(U)');
    }
    code
      .comment(verdictHolder)
      .expect('first move u0', r.u0)
      .expect('U(first 4 rows)', r.u.slice(0, 4))
      .expect(`X(end, :)`, r.x[r.x.length - 1])
      .expect('closed-loop cost', r.cost);
  },
};

// ------------------------------------------------------------------ the tool

function mpcPlots(args: Record<string, unknown>): PlotSpec[] {
  const keep: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) if (v !== undefined && v !== null) keep[k] = v;
  return [{ kind: 'mpc', args: keep, title: 'Plot MPC closed loop: states, outputs and inputs with their bounds' }];
}

export const tools = [
  tool({
    name: 'mpc',
    words: {
      calls: [
        {
          names: ['mpc'],
          args: ['sys', 'Ts', 'N', 'Nc'],
          note: "MATLAB's mpc(plant, Ts, p, m): p is the prediction horizon N, m the control horizon Nc; its default weights (outputs 1, inputs 0, rates 0.1) are not @control's (Q = C'C, R = I, S = 0), said in the reading",
        },
      ],
      phrases: [
        'model predictive control',
        'model predictive controller',
        'model-predictive control',
        'predictive control',
        'receding horizon control',
        'receding-horizon control',
        'receding horizon controller',
        'MPC',
        'MPC controller',
        'linear MPC',
        'constrained MPC',
      ],
      aliases: {
        N: ['p', 'horizon', 'prediction_horizon', 'Np', 'PredictionHorizon'],
        Nc: ['M', 'control_horizon', 'ControlHorizon', 'Nu'],
        S: ['Rd', 'R_delta', 'Rdelta', 'Sdu'],
        P: ['Qf', 'terminal_cost', 'Qt'],
        x0: ['X0', 'x_0'],
        steps: ['nsteps', 'Tsim', 'n_steps'],
        umin: ['u_min'],
        umax: ['u_max'],
        dumin: ['du_min', 'delta_u_min'],
        dumax: ['du_max', 'delta_u_max'],
        xmin: ['x_min'],
        xmax: ['x_max'],
        ymin: ['y_min'],
        ymax: ['y_max'],
        r: ['ref', 'reference', 'setpoint', 'yref'],
      },
      example: '/mpc A=[1 1; 0 1], B=[0.5; 1], Ts=1, N=10, umin=-1, umax=1, x0=[5; 0]',
      optionalC: true,
    },
    title: 'Linear model predictive control (receding horizon, box constraints)',
    brief: 'Linear MPC of x+ = Ax + Bu: horizon N, weights Q, R, box bounds on u, Δu, x, y; receding-horizon closed loop.',
    description:
      'Linear model predictive control of a discrete plant x[k+1] = A x + B u (y = C x), simulated in closed loop (receding horizon: each step solves a QP and applies its first move). ' +
      "Cost Σ_{j<N} (x_j−xs)'Q(x_j−xs) + (u_j−us)'R(u_j−us) + Δu_j'SΔu_j + (x_N−xs)'P(x_N−xs); P defaults to the DARE solution (then the unconstrained MPC equals dlqr). " +
      'Hard box constraints (optional, null = none): umin/umax, dumin/dumax (Δu = u[k] − u[k−1]) on j < Nc, xmin/xmax and ymin/ymax on j = 1..N. ' +
      'Condensed QP solved by a dual active-set (Goldfarb–Idnani) method; an infeasible step is an error naming the step and constraint. ' +
      'Plant: A, B (C optional; no feedthrough D, as MATLAB mpc) or num/den (strictly proper); Ts (required, s); continuous: true discretises a continuous plant by zoh. N prediction horizon, Nc control horizon (default N), ' +
      "r: output reference (steady-state target from [A−I B; C 0]), x0, u_prev (default 0), steps (default max(50, 2N)). Defaults Q = C'C (or I), R = I, S = 0.",
    parameters: {
      type: 'object',
      properties: {
        A: matrix('state matrix A (n x n): discrete x[k+1] = A x + B u, or continuous with continuous: true'),
        B: matrix('input matrix B (n x m)'),
        C: matrix('output matrix C (p x n), optional: the outputs for the reference r and ymin/ymax; default I (the states)'),
        ...tfProps,
        Ts: { type: 'number', exclusiveMinimum: 0, description: 'sample time (s) of the controller; required' },
        continuous: {
          type: 'boolean',
          description: 'true: A, B (or num/den in s) are continuous and are discretised with a zero-order hold at Ts; default false (discrete)',
        },
        N: { type: 'number', minimum: 1, description: 'prediction horizon (steps), an integer' },
        Nc: { type: 'number', minimum: 1, description: 'control horizon (steps, ≤ N): moves after it are held; default N, an integer' },
        Q: matrix("state weight (n x n, symmetric positive semidefinite); default C'C, or I without C"),
        R: matrix('input weight (m x m, symmetric positive definite); default I'),
        S: matrix('input-rate weight on Δu (m x m); default 0'),
        P: matrix('terminal weight (n x n); default the DARE solution of (A, B, Q, R)'),
        umin: boundSchema('lower input bound'),
        umax: boundSchema('upper input bound'),
        dumin: boundSchema('lower bound on the input rate Δu = u[k] − u[k−1]'),
        dumax: boundSchema('upper bound on the input rate Δu'),
        xmin: boundSchema('lower state bound'),
        xmax: boundSchema('upper state bound'),
        ymin: boundSchema('lower output bound (y = Cx)'),
        ymax: boundSchema('upper output bound (y = Cx)'),
        x0: vector('initial state (n entries); default 0 when a reference r is given'),
        u_prev: vector('input applied before step 0 (m entries), for the first Δu; default 0'),
        r: vector('constant reference of the outputs y = Cx (p entries; the states without C); default: regulate to 0'),
        steps: { type: 'number', minimum: 1, description: 'closed-loop steps to simulate; default max(50, 2N), an integer' },
      },
      // N is asked for by the reader and refused by the solver when missing (not required here, so a
      // wrong argument such as D is named first)
      additionalProperties: false,
    },
    run: (args) => mpc(args),
    intro:
      "**Linear MPC.** At every step k the controller predicts x_{j+1} = A x_j + B u_j over N steps from the measured x[k], minimises Σ (x_j − xs)'Q(x_j − xs) + (u_j − us)'R(u_j − us) + Δu_j'SΔu_j + (x_N − xs)'P(x_N − xs) subject to the bounds (a quadratic program in the inputs, condensed), applies the first move and repeats (receding horizon).",
    render: renderMpc,
    code: mpcCode,
    model: BY_LOOKUP,
    plots: mpcPlots,
  }),
];
