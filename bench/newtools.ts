// The tools of issue 13 (interconnection, simulation, reduction, the new discretisation
// methods, d2c, d2d, evalfr) timed on fixed seeded problems, beside Octave's control package on
// the same problems where it has the function, with the agreement of the two results.
//
//   node --import tsx bench/newtools.ts [--no-octave] [--reps 3] [--only 'substring of the row ids']
//   (npm run bench prints it as the section "New tools (issue 13)"; --newtools-only --write
//   refreshes only that section of RESULTS.md)
//
// Problems (deterministic): state-space paths at n = 4, 16, 64 on the sweep's base systems
// (bench/sweepProblems.ts: A with spectral abscissa -1, B n x 2, C 2 x n, D = 0), SISO
// transfer-function paths at orders 2..8 (mulberry32(7000 + order): stable poles, real or
// complex pairs, a numerator of degree order - 1). Discrete models are the zero-order-hold
// samples (Ts = 0.1) of continuous ones, so d2c and d2d have poles off the negative real axis.
//
// Ours: the same path as the solver section of run.ts: prepareArgs (coercion, schema validation,
// limits) and the tool's run, on this thread; min of --reps calls after one warm-up pass over all
// problems. The independent verifier (verify/index.ts verify, the check the product runs after
// every solve) is timed on its own, the same way, and not included in "ours".
// Octave: bench/newtools_octave.m in one octave-cli process (start-up, JSON I/O and a warm-up
// call per problem outside the timing), tic/toc around the call a user makes (the ss/tf object
// built inside it), min of 3.
// Agreement: both results evaluated here by the same code (ml-matrix solves, not our kernel):
// systems at three points (s = jw or z = e^{jwTs}, w = 0.2, 1, 5 rad/s), max ||H1 - H2||_F / max ||H2||_F;
// time responses, Gramians and Hankel singular values by max |difference| / max |Octave's|.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EigenvalueDecomposition, Matrix, QrDecomposition, solve as mlSolve } from 'ml-matrix';
import { prepareArgs } from '../src/core/tools/call.js';
import { verify } from '../src/core/verify/index.js';
import { mulberry32 } from '../test/fixtures/rng.js';
import { baseSystem } from './sweepProblems.js';

type Mat = number[][];
type C = [number, number];

export const NT_SIZES = [4, 16, 64];
export const NT_ORDERS = [2, 3, 4, 5, 6, 7, 8];
const TS = 0.1;
const W = [0.2, 1, 5];
/** a disagreement above this is flagged in the table */
const FLAG = 1e-6;

/** one timed row of the table: a tool on one path, with Octave's counterpart or why it has none */
interface Row {
  id: string;
  tool: string;
  /** the Octave call (bench/newtools_octave.m case), or why there is none */
  octave: { oc: string; call: string } | { none: string };
  /** our arguments for one problem; oargs: what the Octave case reads (default: the same) */
  problems: { size: number; args: Record<string, unknown>; oargs?: Record<string, unknown> }[];
  /** how the two results are compared */
  compare: 'system' | 'y' | 'W' | 'hsv' | 'X' | 'R' | 'sv' | 'linf' | 'L';
  /** Octave's system is multiplied by this before the comparison (a convention that differs, said in the table) */
  octScale?: number;
}

// ------------------------------------------------------------------ problems

const eye = (n: number): Mat => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
const zeros = (r: number, c: number): Mat => Array.from({ length: r }, () => new Array(c).fill(0));
const mm = (a: Mat, b: Mat): Mat => new Matrix(a).mmul(new Matrix(b)).to2DArray();
const tr = (a: Mat): Mat => a[0].map((_, j) => a.map((r) => r[j]));
const polyMul = (a: number[], b: number[]) => {
  const out = new Array(a.length + b.length - 1).fill(0);
  a.forEach((x, i) => b.forEach((y, j) => (out[i + j] += x * y)));
  return out;
};

/** e^M by scaling and squaring of the Taylor series (ml-matrix products; the bench's own, not our kernel's) */
function expm(M: Mat): Mat {
  const n = M.length;
  const norm = Math.max(...M.map((r) => r.reduce((s, x) => s + Math.abs(x), 0)));
  const k = Math.max(0, Math.ceil(Math.log2(norm / 0.25)));
  const X = new Matrix(M).mul(2 ** -k);
  let term = Matrix.eye(n);
  let sum = Matrix.eye(n);
  for (let i = 1; i <= 18; i++) {
    term = term.mmul(X).div(i);
    sum = sum.add(term);
  }
  for (let i = 0; i < k; i++) sum = sum.mmul(sum);
  return sum.to2DArray();
}

/** zero-order-hold sample (Ts) of (A, B): [Ad Bd; 0 I] = e^{[A B; 0 0] Ts} */
function zohSample(A: Mat, B: Mat, Ts: number): { Ad: Mat; Bd: Mat } {
  const n = A.length;
  const m = B[0].length;
  const M = zeros(n + m, n + m);
  for (let i = 0; i < n; i++) for (let j = 0; j < n + m; j++) M[i][j] = (j < n ? A[i][j] : B[i][j - n]) * Ts;
  const E = expm(M);
  return { Ad: E.slice(0, n).map((r) => r.slice(0, n)), Bd: E.slice(0, n).map((r) => r.slice(n)) };
}

/** a stable SISO transfer function of the given order: seeded poles (pairs and reals), numerator of degree order - 1 */
function tfProblem(order: number): { num: number[]; den: number[]; poles: C[] } {
  const u = mulberry32(7000 + order);
  const poles: C[] = [];
  while (poles.length < order) {
    if (order - poles.length >= 2 && u() < 0.6) {
      const re = -(0.3 + 2.7 * u());
      const im = 0.3 + 2.7 * u();
      poles.push([re, im], [re, -im]);
    } else poles.push([-(0.2 + 3 * u()), 0]);
  }
  let den = [1];
  for (let i = 0; i < poles.length; i++) {
    const [re, im] = poles[i];
    if (im > 0) {
      den = polyMul(den, [1, -2 * re, re * re + im * im]);
      i++;
    } else den = polyMul(den, [1, -re]);
  }
  const num = Array.from({ length: order }, () => 2 * u() - 1);
  num[0] = 0.5 + Math.abs(num[0]);
  return { num, den, poles };
}

/**
 * A discrete transfer function (Ts) of the given order: the poles of tfProblem mapped by z = e^{p Ts}, order - 1
 * zeros z = e^{q Ts} with q seeded in [-5, 5] (so none on the negative real axis, which d2c refuses), gain Ts
 */
function tfDiscrete(order: number): { num: number[]; den: number[] } {
  const { poles } = tfProblem(order);
  const u = mulberry32(7500 + order);
  let den = [1];
  for (let i = 0; i < poles.length; i++) {
    const [re, im] = poles[i];
    const r = Math.exp(re * TS);
    if (im > 0) {
      den = polyMul(den, [1, -2 * r * Math.cos(im * TS), r * r]);
      i++;
    } else den = polyMul(den, [1, -r]);
  }
  let num = [TS];
  for (let i = 1; i < order; i++) num = polyMul(num, [1, -Math.exp((10 * u() - 5) * TS)]);
  return { num, den };
}

/** a non-minimal model of n states (n/2 of them uncontrollable): the parallel connection of base(n/2) with itself, mixed by a seeded orthogonal Q */
function doubled(n: number) {
  const h = n / 2;
  const b = baseSystem(h);
  const u = mulberry32(9000 + n);
  const Q = new QrDecomposition(new Matrix(Array.from({ length: n }, () => Array.from({ length: n }, () => 2 * u() - 1)))).orthogonalMatrix.to2DArray();
  const A2 = zeros(n, n);
  for (let i = 0; i < h; i++) for (let j = 0; j < h; j++) A2[i][j] = A2[i + h][j + h] = b.A[i][j];
  const B2 = [...b.B, ...b.B];
  const C2 = b.C.map((r) => [...r, ...r]);
  return { A: mm(mm(Q, A2), tr(Q)), B: mm(Q, B2), C: mm(C2, tr(Q)), D: zeros(2, 2) };
}

const K2 = {
  A: [
    [-3, 1],
    [0, -5],
  ],
  B: eye(2),
  C: [
    [1, 0.5],
    [0.2, 1],
  ],
  D: [
    [0.1, 0],
    [0, 0.1],
  ],
};
const TF2 = { num: [1, 3], den: [1, 2, 5] };
const TGRID = Array.from({ length: 1001 }, (_, i) => i / 100);

export function newToolRows(sizes = NT_SIZES, orders = NT_ORDERS): Row[] {
  const ss = (n: number) => {
    const b = baseSystem(n);
    return { A: b.A, B: b.B, C: b.C, D: b.D };
  };
  const siso = (n: number) => {
    const b = baseSystem(n);
    return { A: b.A, B: b.b, C: b.c, D: b.d };
  };
  const dss = (n: number) => {
    const b = baseSystem(n);
    const { Ad, Bd } = zohSample(b.A, b.B, TS);
    return { A: Ad, B: Bd, C: b.C, D: b.D };
  };
  const tf = (k: number) => {
    const { num, den } = tfProblem(k);
    return { num, den };
  };
  const S = (f: (n: number) => Record<string, unknown>) => sizes.map((n) => ({ size: n, args: f(n) }));
  const T = (f: (k: number) => Record<string, unknown>) => orders.map((k) => ({ size: k, args: f(k) }));
  const oc = (c: string, call: string) => ({ oc: c, call });
  const NOT = (why = '') => ({ none: `—, not in Octave control 3.x${why}` });
  const rows: Row[] = [];
  for (const t of ['feedback', 'series', 'parallel'] as const) {
    rows.push({ id: `${t} (ss)`, tool: t, octave: oc(t, `${t}(sys1, sys2)`), compare: 'system', problems: S((n) => ({ sys1: ss(n), sys2: K2 })) });
    rows.push({ id: `${t} (tf)`, tool: t, octave: oc(t, `${t}(sys1, sys2)`), compare: 'system', problems: T((k) => ({ sys1: tf(k), sys2: TF2 })) });
  }
  rows.push({
    id: 'append (ss)',
    tool: 'append',
    octave: oc('append', 'append(sys1, sys2)'),
    compare: 'system',
    problems: S((n) => ({ systems: [ss(n), K2] })),
  });
  rows.push({
    id: 'append (tf)',
    tool: 'append',
    octave: oc('append', 'append(sys1, sys2)'),
    compare: 'system',
    problems: T((k) => ({ systems: [tf(k), TF2] })),
  });
  // connect: the loop e = r − y through the controller TF2 and the plant, joined by signal names (Octave's connect/sumblk)
  const named = (plant: Record<string, unknown>) => ({
    blocks: [
      { sys: plant, inputName: 'u', outputName: 'y' },
      { sys: TF2, inputName: 'e', outputName: 'u' },
    ],
    sums: ['e = r - y'],
    inputs: 'r',
    outputs: 'y',
  });
  rows.push({
    id: 'connect (ss, loop by names)',
    tool: 'connect',
    octave: oc('connect', "connect(G, C, sumblk('e = r - y'), 'r', 'y')"),
    compare: 'system',
    problems: S((n) => named(siso(n))),
  });
  rows.push({
    id: 'connect (tf, loop by names)',
    tool: 'connect',
    octave: oc('connect', "connect(G, C, sumblk('e = r - y'), 'r', 'y')"),
    compare: 'system',
    problems: T((k) => named(tf(k))),
  });
  // lft: the 2x2 plant's last input and output closed by TF2 (Octave's lft)
  rows.push({
    id: 'lft (ss, lower, nu = ny = 1)',
    tool: 'lft',
    octave: oc('lft', 'lft(P, K, 1, 1)'),
    compare: 'system',
    problems: S((n) => ({ sys1: ss(n), sys2: TF2, nu: 1, ny: 1 })),
  });
  rows.push({ id: 'minreal (ss, n/2 removable)', tool: 'minreal', octave: oc('minreal', 'minreal(sys)'), compare: 'system', problems: S(doubled) });
  rows.push({
    id: 'minreal (tf, one common factor)',
    tool: 'minreal',
    octave: oc('minreal', 'minreal(sys)'),
    compare: 'system',
    problems: T((k) => {
      const { num, den } = tfProblem(k - 1);
      return { num: polyMul(num, [1, 0.7]), den: polyMul(den, [1, 0.7]) };
    }),
  });
  const u2 = TGRID.map((t) => [Math.sin(t), 0.5 * Math.cos(2 * t)]);
  const u1 = TGRID.map((t) => Math.sin(t));
  rows.push({
    id: 'lsim (ss, 1001 samples, foh)',
    tool: 'lsim',
    octave: oc('lsim', 'lsim(sys, u, t)'),
    compare: 'y',
    problems: S((n) => ({ ...ss(n), u: u2, t: TGRID, interp: 'foh' })),
  });
  rows.push({
    id: 'lsim (tf, 1001 samples, foh)',
    tool: 'lsim',
    octave: oc('lsim', 'lsim(sys, u, t)'),
    compare: 'y',
    problems: T((k) => ({ ...tf(k), u: u1, t: TGRID, interp: 'foh' })),
  });
  rows.push({
    id: 'initial (ss, 1001 samples)',
    tool: 'initial',
    octave: oc('initial', 'initial(sys, x0, t)'),
    compare: 'y',
    problems: S((n) => {
      const u = mulberry32(8000 + n);
      return { ...ss(n), x0: Array.from({ length: n }, () => 2 * u() - 1), t: TGRID };
    }),
  });
  rows.push({ id: "gram (ss, 'c')", tool: 'gram', octave: oc('gram', "gram(sys, 'c')"), compare: 'W', problems: S((n) => ({ ...ss(n), type: 'c' })) });
  rows.push({ id: "gram (ss, 'o')", tool: 'gram', octave: oc('gram', "gram(sys, 'o')"), compare: 'W', problems: S((n) => ({ ...ss(n), type: 'o' })) });
  rows.push({ id: 'hsvd (ss)', tool: 'hsvd', octave: oc('hsvd', 'hsvd(sys)'), compare: 'hsv', problems: S(ss) });
  rows.push({ id: 'hsvd (tf)', tool: 'hsvd', octave: oc('hsvd', 'hsvd(sys)'), compare: 'hsv', problems: T(tf) });
  rows.push({ id: 'balreal (ss)', tool: 'balreal', octave: NOT(), compare: 'system', problems: S(ss) });
  rows.push({
    id: 'balred (ss, truncate, r = n/4)',
    tool: 'balred',
    octave: { oc: 'btamodred', call: 'btamodred(sys, r) (balred not in Octave control 3.x; SLICOT AB09AD balanced truncation)' },
    compare: 'system',
    problems: S((n) => ({ ...ss(n), order: n / 4, method: 'truncate' })),
  });
  rows.push({
    id: 'balred (ss, matchdc, r = n/4)',
    tool: 'balred',
    octave: { oc: 'spamodred', call: 'spamodred(sys, r) (singular perturbation of the balanced model, SLICOT AB09BD)' },
    compare: 'system',
    problems: S((n) => ({ ...ss(n), order: n / 4, method: 'matchdc' })),
  });
  rows.push({
    id: 'modred (ss, matchdc, last n/2)',
    tool: 'modred',
    octave: NOT(),
    compare: 'system',
    problems: S((n) => ({ ...ss(n), elim: Array.from({ length: n / 2 }, (_, i) => n / 2 + i + 1) })),
  });
  const c2dRow = (label: string, method: string, extra: Record<string, unknown>, octave: Row['octave'], paths: ('ss' | 'siso' | 'tf')[]) => {
    for (const p of paths)
      rows.push({
        id: `c2d ${label} (${p === 'siso' ? 'ss SISO' : p})`,
        tool: 'c2d',
        octave,
        compare: 'system',
        problems: p === 'tf' ? T((k) => ({ ...tf(k), Ts: TS, method, ...extra })) : S((n) => ({ ...(p === 'ss' ? ss(n) : siso(n)), Ts: TS, method, ...extra })),
      });
  };
  c2dRow(
    'impulse',
    'impulse',
    {},
    oc('c2d', "c2d(sys, Ts, 'impulse') (SISO only in Octave; its result times Ts, as it omits MATLAB's and SciPy's Ts factor)"),
    ['siso', 'tf'],
  );
  for (const r of rows) if (r.id.startsWith('c2d impulse')) r.octScale = TS;
  c2dRow('matched', 'matched', {}, oc('c2d', "c2d(sys, Ts, 'matched')"), ['tf']);
  c2dRow('tustin, prewarp 2 rad/s', 'tustin', { prewarp: 2 }, oc('c2d', "c2d(sys, Ts, 'prewarp', 2)"), ['ss', 'tf']);
  c2dRow('euler', 'euler', {}, NOT(" ('euler' is refused)"), ['ss', 'tf']);
  c2dRow('backward_diff', 'backward_diff', {}, NOT(" (its c2d reads only the first letter: 'backward_diff' silently gives tustin)"), ['ss', 'tf']);
  const dtf = (k: number) => ({ ...tfDiscrete(k), Ts: TS });
  for (const method of ['zoh', 'tustin'])
    rows.push({
      id: `d2c ${method} (ss)`,
      tool: 'd2c',
      octave: oc('d2c', `d2c(sys, '${method}')`),
      compare: 'system',
      problems: S((n) => ({ ...dss(n), Ts: TS, method })),
    });
  for (const method of ['zoh', 'matched'])
    rows.push({
      id: `d2c ${method} (tf)`,
      tool: 'd2c',
      octave: oc('d2c', `d2c(sys, '${method}')`),
      compare: 'system',
      problems: T((k) => ({ ...dtf(k), method })),
    });
  rows.push({
    id: 'd2d (ss, newTs = 3 Ts)',
    tool: 'd2d',
    octave: oc('d2d', 'd2d(sys, newTs)'),
    compare: 'system',
    problems: S((n) => ({ ...dss(n), Ts: TS, newTs: 3 * TS })),
  });
  rows.push({
    id: 'd2d (ss, newTs = 2.5 Ts)',
    tool: 'd2d',
    octave: oc('d2d', 'd2d(sys, newTs)'),
    compare: 'system',
    problems: S((n) => ({ ...dss(n), Ts: TS, newTs: 2.5 * TS })),
  });
  rows.push({
    id: 'd2d (tf, newTs = 3 Ts)',
    tool: 'd2d',
    octave: oc('d2d', 'd2d(sys, newTs)'),
    compare: 'system',
    problems: T((k) => ({ ...dtf(k), newTs: 3 * TS })),
  });
  rows.push({ id: 'evalfr (ss)', tool: 'evalfr', octave: NOT(), compare: 'system', problems: S((n) => ({ ...ss(n), s: [0.3, 1.1] })) });
  rows.push({ id: 'evalfr (tf)', tool: 'evalfr', octave: NOT(), compare: 'system', problems: T((k) => ({ ...tf(k), s: [0.3, 1.1] })) });
  rows.push({ id: 'pade (delay, order N)', tool: 'pade', octave: oc('padecoef', 'padecoef(T, N)'), compare: 'system', problems: T((k) => ({ T: 0.5, N: k })) });
  rows.push({
    id: 'pade (tf with delay, N = 3)',
    tool: 'pade',
    octave: NOT(' (no delays in Octave control)'),
    compare: 'system',
    problems: T((k) => ({ ...tf(k), T: 0.5, N: 3 })),
  });
  rows.push({
    id: 'pade (ss with input delay, N = 3)',
    tool: 'pade',
    octave: NOT(' (no delays in Octave control)'),
    compare: 'system',
    problems: S((n) => ({ ...ss(n), T: 0.5, N: 3 })),
  });
  rows.push({
    id: 'thiran (tau = order − 0.4 samples)',
    tool: 'thiran',
    octave: NOT(),
    compare: 'system',
    problems: T((k) => ({ tau: (k - 0.4) * TS, Ts: TS })),
  });
  // matrix equations (solvers/matrixeq.ts): Sylvester with B from the half-size model, C seeded
  const cMat = (r: number, c: number, seed: number) => {
    const u = mulberry32(seed);
    return Array.from({ length: r }, () => Array.from({ length: c }, () => 2 * u() - 1));
  };
  rows.push({
    id: 'sylvester (A n x n, B n/2 x n/2)',
    tool: 'sylvester',
    octave: oc('lyap3', 'lyap(A, B, C)'),
    compare: 'X',
    problems: S((n) => ({ A: ss(n).A, Bs: ss(Math.max(2, n / 2)).A, Cs: cMat(n, Math.max(2, n / 2), 9100 + n) })),
  });
  rows.push({
    id: 'dsylvester (A n x n, B n/2 x n/2)',
    tool: 'dsylvester',
    octave: oc('dlyap3', 'dlyap(A, B, C)'),
    compare: 'X',
    problems: S((n) => ({ A: dss(n).A, Bs: dss(Math.max(2, n / 2)).A, Cs: cMat(n, Math.max(2, n / 2), 9200 + n) })),
  });
  rows.push({
    id: 'lyapchol (ss A, B)',
    tool: 'lyapchol',
    octave: oc('lyapchol', 'lyapchol(A, B)'),
    compare: 'R',
    problems: S((n) => ({ A: ss(n).A, B: ss(n).B })),
  });
  rows.push({
    id: 'dlyapchol (ss A, B)',
    tool: 'dlyapchol',
    octave: oc('dlyapchol', 'dlyapchol(A, B)'),
    compare: 'R',
    problems: S((n) => ({ A: dss(n).A, B: dss(n).B })),
  });
  // the generalised square-root Lyapunov equations: E = I + 0.2·(superdiagonal), A = E·A0 so that
  // the pencil (A, E) has A0's (stable) eigenvalues
  const withE = (n: number, A0: Mat, B: Mat) => {
    const E = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : j === i + 1 ? 0.2 : 0)));
    return { A: mm(E, A0), B, E };
  };
  rows.push({
    id: 'lyapchol (ss A, B, E)',
    tool: 'lyapchol',
    octave: oc('lyapcholE', 'lyapchol(A, B, E)'),
    compare: 'R',
    problems: S((n) => withE(n, ss(n).A, ss(n).B)),
  });
  rows.push({
    id: 'dlyapchol (ss A, B, E)',
    tool: 'dlyapchol',
    octave: oc('dlyapcholE', 'dlyapchol(A, B, E)'),
    compare: 'R',
    problems: S((n) => withE(n, dss(n).A, dss(n).B)),
  });
  // the L norms of unstable models (solvers/norms.ts): the base system shifted right into the
  // middle of its widest gap of real parts, so poles lie on both sides, none near the axis
  const unstable = (n: number) => {
    const b = ss(n);
    const re = [...new EigenvalueDecomposition(new Matrix(b.A)).realEigenvalues].sort((x, y) => x - y);
    let at = 1;
    for (let i = 2; i < re.length; i++) if (re[i] - re[i - 1] > re[at] - re[at - 1]) at = i;
    const shift = -(re[at] + re[at - 1]) / 2;
    return { ...b, A: b.A.map((r, i) => r.map((v, j) => (i === j ? v + shift : v))) };
  };
  rows.push({ id: 'hinfnorm (ss unstable: L∞)', tool: 'hinfnorm', octave: oc('linfnorm', 'norm(sys, Inf, 1e-10)'), compare: 'linf', problems: S(unstable) });
  rows.push({
    id: 'h2norm (ss unstable: L2)',
    tool: 'h2norm',
    octave: NOT(' (its norm(sys, 2) is Inf for an unstable model: no L2 norm)'),
    compare: 'linf',
    problems: S(unstable),
  });
  rows.push({ id: 'ctrbf (ss)', tool: 'ctrbf', octave: oc('ctrbf', 'ctrbf(A, B, C)'), compare: 'system', problems: S(ss) });
  rows.push({ id: 'obsvf (ss)', tool: 'obsvf', octave: oc('obsvf', 'obsvf(A, B, C)'), compare: 'system', problems: S(ss) });
  rows.push({ id: 'kalman_decomp (ss)', tool: 'kalman_decomp', octave: NOT(' (nor in MATLAB: no single function)'), compare: 'system', problems: S(ss) });
  rows.push({ id: 'canon modal (ss)', tool: 'canon', octave: NOT(), compare: 'system', problems: S((n) => ({ ...ss(n), form: 'modal' })) });
  rows.push({ id: 'canon companion (tf)', tool: 'canon', octave: NOT(), compare: 'system', problems: T((k) => ({ ...tf(k), form: 'companion' })) });
  rows.push({
    id: 'ss2ss (ss, bidiagonal T)',
    tool: 'ss2ss',
    octave: NOT(),
    compare: 'system',
    problems: S((n) => ({ ...ss(n), T: Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : j === i + 1 ? 0.3 : 0))) })),
  });
  rows.push({
    id: 'tzero (ss)',
    tool: 'tzero',
    octave: { none: '—, not compared (a list of zeros; this bench compares systems)' },
    compare: 'system',
    problems: S(ss),
  });
  // the LQ family (solvers/lqfamily.ts; Octave control 3.x has estim and kalman, not lqi, lqry, lqg or reg)
  const lqPlant = (n: number) => {
    const b = ss(n);
    const p = b.C.length,
      m = b.B[0].length;
    return { b, n, m, p };
  };
  rows.push({
    id: 'lqi (ss)',
    tool: 'lqi',
    octave: NOT(' (nor lqry, lqg, reg)'),
    compare: 'X',
    problems: S((n) => {
      const { b, m, p } = lqPlant(n);
      return { ...b, Q: eye(n + p), R: eye(m) };
    }),
  });
  rows.push({
    id: 'lqry (ss)',
    tool: 'lqry',
    octave: NOT(),
    compare: 'X',
    problems: S((n) => {
      const { b, m, p } = lqPlant(n);
      return { ...b, Q: eye(p), R: eye(m) };
    }),
  });
  rows.push({
    id: 'lqg (ss)',
    tool: 'lqg',
    octave: NOT(),
    compare: 'system',
    problems: S((n) => {
      const { b, m, p } = lqPlant(n);
      return { ...b, QXU: eye(n + m), QWV: eye(n + p) };
    }),
  });
  rows.push({
    id: 'reg (ss, K = Bᵀ, L = Cᵀ)',
    tool: 'reg',
    octave: NOT(),
    compare: 'system',
    problems: S((n) => {
      const { b } = lqPlant(n);
      return { ...b, K: tr(b.B), L: tr(b.C) };
    }),
  });
  rows.push({
    id: 'estim (ss, L = Cᵀ)',
    tool: 'estim',
    octave: oc('estim', 'estim(sys, L)'),
    compare: 'system',
    problems: S((n) => {
      const { b } = lqPlant(n);
      return { ...b, L: tr(b.C) };
    }),
  });
  rows.push({
    id: 'kalman (ss, cross covariance N)',
    tool: 'kalman',
    octave: oc('kalmanN', 'kalman(ss(A, G, C, 0), Qn, Rn, N)'),
    compare: 'L',
    problems: S((n) => {
      const { b, p } = lqPlant(n);
      return { A: b.A, G: b.B, C: b.C, Qn: eye(b.B[0].length), Rn: eye(p), N: zeros(b.B[0].length, p).map((r) => r.map(() => 0.1)) };
    }),
  });
  rows.push({
    id: 'place_observer (ss, one output)',
    tool: 'place_observer',
    octave: oc('place_observer', "place(A', C', p)'"),
    compare: 'L',
    problems: S((n) => {
      const { b } = lqPlant(n);
      // one output: L is unique (with several, placements differ by their free parameters)
      return { A: b.A, C: [b.C[0]], poles: Array.from({ length: n }, (_, i) => -1 - i) };
    }),
  });
  // frequency analysis (solvers/freqanalysis.ts)
  rows.push({ id: 'bandwidth (tf)', tool: 'bandwidth', octave: NOT(' (its bandwidth is the matrix bandwidth)'), compare: 'system', problems: T(tf) });
  rows.push({ id: 'bandwidth (ss SISO)', tool: 'bandwidth', octave: NOT(), compare: 'system', problems: S(siso) });
  // MIMO transfer functions and zero-pole-gain models (solvers/xferfcn.ts, zpk.ts): 2x2 matrices of the
  // seeded SISO problems; Octave reads each entry as a string of coefficients or roots (str2num), row-major
  const mimoTf = (k: number) => {
    const a = tfProblem(k),
      b = tfProblem(Math.max(2, k - 1));
    return {
      num: [
        [a.num, b.num],
        [b.num, a.num],
      ],
      den: [
        [a.den, b.den],
        [b.den, a.den],
      ],
    };
  };
  const txt = (v: number[]) => v.map((x) => x.toPrecision(17)).join(' ');
  const octTf = (t: { num: number[][][]; den: number[][][] }) => ({ p: 2, m: 2, num: t.num.flat().map(txt), den: t.den.flat().map(txt) });
  const mimoZpk = (k: number) => {
    const pl = tfProblem(k).poles;
    const z = [
      [[[-0.5, 0]], []],
      [[], [[-1.5, 0]]],
    ] as C[][][];
    return {
      z,
      p: [
        [pl, pl],
        [pl, pl],
      ],
      k: [
        [1, 2],
        [3, 4],
      ],
    };
  };
  const roots = (r: C[]) => r.map(([re, im]) => (im ? `${re}${im < 0 ? '-' : '+'}${Math.abs(im)}i` : `${re}`)).join(' ');
  const octZpk = (z: ReturnType<typeof mimoZpk>) => ({ p: 2, m: 2, z: z.z.flat().map(roots), pp: z.p.flat().map(roots), k: z.k });
  rows.push({
    id: 'tf2ss (MIMO tf 2x2)',
    tool: 'tf2ss',
    octave: oc('tf2ss_mimo', 'ss(tf(num, den))'),
    compare: 'system',
    problems: orders.map((k) => ({ size: k, args: mimoTf(k), oargs: octTf(mimoTf(k)) })),
  });
  rows.push({ id: 'ss2tf (MIMO ss)', tool: 'ss2tf', octave: oc('tf_of', 'tf(sys)'), compare: 'system', problems: S(ss) });
  rows.push({ id: 'zpk (MIMO ss)', tool: 'zpk', octave: oc('zpk_of', 'zpk(sys)'), compare: 'system', problems: S(ss) });
  rows.push({
    id: 'zpk (MIMO tf 2x2)',
    tool: 'zpk',
    octave: oc('zpk_of_tf', 'zpk(tf(num, den))'),
    compare: 'system',
    problems: orders.map((k) => ({ size: k, args: mimoTf(k), oargs: octTf(mimoTf(k)) })),
  });
  rows.push({
    id: 'zpk2ss (MIMO 2x2)',
    tool: 'zpk2ss',
    octave: oc('zpk2ss_mimo', 'ss(zpk(z, p, k))'),
    compare: 'system',
    problems: orders.map((k) => ({ size: k, args: mimoZpk(k), oargs: octZpk(mimoZpk(k)) })),
  });
  rows.push({ id: 'sigma (ss, 3 frequencies)', tool: 'sigma', octave: oc('sigma', 'sigma(sys, w)'), compare: 'sv', problems: S((n) => ({ ...ss(n), w: W })) });
  rows.push({
    id: 'stability_margins (tf)',
    tool: 'stability_margins',
    octave: NOT(' (no allmargin; margin gives one pair)'),
    compare: 'system',
    problems: T(tf),
  });
  rows.push({
    id: 'stability_margins (ss SISO)',
    tool: 'stability_margins',
    octave: NOT(' (no allmargin; margin gives one pair)'),
    compare: 'system',
    problems: S(siso),
  });
  // disk margins (solvers/diskmargin.ts): the base systems are 2 x 2 loops (B n x 2, C 2 x n)
  rows.push({ id: 'diskmargin (tf)', tool: 'diskmargin', octave: NOT(' (no diskmargin, mussv or loopmargin)'), compare: 'system', problems: T(tf) });
  rows.push({
    id: 'diskmargin (ss 2 x 2, multiloop)',
    tool: 'diskmargin',
    octave: NOT(' (no diskmargin, mussv or loopmargin)'),
    compare: 'system',
    problems: S(ss),
  });
  // PID tuning and lead/lag (solvers/pid.ts): Octave's control package has no pidtune (nor a lead/lag design)
  rows.push({
    id: 'pidtune PIDF (tf)',
    tool: 'pidtune',
    octave: NOT(' (no pidtune: its pid objects only)'),
    compare: 'system',
    problems: T((k) => ({ ...tf(k), type: 'PIDF' })),
  });
  rows.push({
    id: 'pidtune PI at wc = 1 (tf)',
    tool: 'pidtune',
    octave: NOT(' (no pidtune)'),
    compare: 'system',
    problems: T((k) => ({ ...tf(k), type: 'PI', wc: 1 })),
  });
  rows.push({
    id: 'leadlag lead, PM 50 (tf with an integrator)',
    tool: 'leadlag',
    octave: NOT(' (no lead/lag design)'),
    compare: 'system',
    problems: T((k) => {
      const p = tf(k) as { num: number[]; den: number[] };
      return { num: p.num, den: [...p.den, 0], kind: 'lead', pm: 50 };
    }),
  });
  return rows;
}

// ------------------------------------------------------------------ evaluation of results

/** a system as both sides return it: state space or a SISO num/den, with its sample time */
interface Sys {
  A?: Mat;
  B?: Mat;
  C?: Mat;
  D?: Mat;
  num?: number[];
  den?: number[];
  /** a MIMO transfer matrix: p x m coefficient lists (ss2tf's result; zpk's z, p, k multiplied out) */
  tfm?: { num: number[][][]; den: number[][][] };
  Ts: number;
}

const cabs = (z: C) => Math.hypot(z[0], z[1]);
function polyAt(p: number[], s: C): C {
  let re = 0;
  let im = 0;
  for (const c of p) [re, im] = [re * s[0] - im * s[1] + c, re * s[1] + im * s[0]];
  return [re, im];
}
const cdiv = (a: C, b: C): C => {
  const d = b[0] * b[0] + b[1] * b[1];
  return [(a[0] * b[0] + a[1] * b[1]) / d, (a[1] * b[0] - a[0] * b[1]) / d];
};

/** H at the complex point s: C (sI - A)^-1 B + D by ml-matrix's real embedding, or num(s)/den(s) */
function evalAt(sys: Sys, s: C): C[][] {
  if (sys.num && sys.den) return [[cdiv(polyAt(sys.num, s), polyAt(sys.den, s))]];
  if (sys.tfm) return sys.tfm.num.map((row, i) => row.map((n, j) => cdiv(polyAt(n, s), polyAt(sys.tfm!.den[i][j], s))));
  const A = sys.A ?? [];
  const D = sys.D!;
  const n = A.length;
  const p = D.length;
  const m = D[0].length;
  if (!n) return D.map((r) => r.map((x): C => [x, 0]));
  const M = Matrix.zeros(2 * n, 2 * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      M.set(i, j, (i === j ? s[0] : 0) - A[i][j]);
      M.set(i + n, j + n, (i === j ? s[0] : 0) - A[i][j]);
    }
    M.set(i, i + n, -s[1]);
    M.set(i + n, i, s[1]);
  }
  const rhs = Matrix.zeros(2 * n, m);
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) rhs.set(i, j, sys.B![i][j]);
  const X = mlSolve(M, rhs).to2DArray();
  const H: C[][] = [];
  for (let i = 0; i < p; i++) {
    H.push([]);
    for (let j = 0; j < m; j++) {
      let re = D[i][j];
      let im = 0;
      for (let k = 0; k < n; k++) {
        re += sys.C![i][k] * X[k][j];
        im += sys.C![i][k] * X[k + n][j];
      }
      H[i].push([re, im]);
    }
  }
  return H;
}
const points = (Ts: number): C[] => W.map((w) => (Ts > 0 ? [Math.cos(w * Ts), Math.sin(w * Ts)] : [0, w]));

/** max over the points of ||H1 - H2||_F / max ||H2||_F */
function sysDiff(a: Sys, b: Sys): number {
  if (a.Ts !== b.Ts) return Infinity;
  let num = 0;
  let den = 0;
  for (const s of points(b.Ts)) {
    const ha = evalAt(a, s);
    const hb = evalAt(b, s);
    if (ha.length !== hb.length || ha[0].length !== hb[0].length) return Infinity;
    let d = 0;
    let r = 0;
    ha.forEach((row, i) => row.forEach((z, j) => ((d += (z[0] - hb[i][j][0]) ** 2 + (z[1] - hb[i][j][1]) ** 2), (r += cabs(hb[i][j]) ** 2))));
    num = Math.max(num, Math.sqrt(d));
    den = Math.max(den, Math.sqrt(r));
  }
  return num / Math.max(den, 1e-300);
}
/** max |a - b| / max |b| over matrices or lists of the same shape */
function maxDiff(a: number[] | Mat, b: number[] | Mat): number {
  const fa = (a as (number | number[])[]).flat() as number[];
  const fb = (b as (number | number[])[]).flat() as number[];
  if (fa.length !== fb.length) return Infinity;
  return Math.max(0, ...fa.map((x, i) => Math.abs(x - fb[i]))) / Math.max(1e-300, ...fb.map(Math.abs));
}

/** our result as a system (the state-space fields a tool returns; num/den when SISO) */
function oursSys(tool: string, args: Record<string, any>, r: Record<string, any>): Sys {
  const Ts = tool === 'd2c' ? 0 : typeof r.Ts === 'number' ? r.Ts : typeof args.Ts === 'number' ? args.Ts : 0;
  if (Array.isArray(r.num) && Array.isArray(r.den) && !Array.isArray(r.num[0])) return { num: r.num, den: r.den, Ts };
  if (Array.isArray(r.num) && Array.isArray(r.den)) return { tfm: { num: r.num, den: r.den }, Ts };
  // zpk: k·Π(s − z)/Π(s − p) per channel (a SISO result is one channel)
  if (Array.isArray(r.k)) {
    const mimo = Array.isArray(r.k[0]);
    const [Z, P, K] = mimo ? [r.z, r.p, r.k] : [[[r.z]], [[r.p]], [[r.k]]];
    const fromRoots = (rs: C[]) => {
      // Π(s − r) with complex arithmetic; the imaginary parts cancel over conjugate pairs
      let c: C[] = [[1, 0]];
      for (const [re, im] of rs)
        c = [...c, [0, 0] as C].map((x, k): C => (k ? [x[0] - (re * c[k - 1][0] - im * c[k - 1][1]), x[1] - (re * c[k - 1][1] + im * c[k - 1][0])] : x));
      return c.map((x) => x[0]);
    };
    return {
      tfm: {
        num: (Z as C[][][]).map((row, i) => row.map((z, j) => fromRoots(z).map((c) => c * (K as number[][])[i][j]))),
        den: (P as C[][][]).map((row) => row.map((p) => fromRoots(p))),
      },
      Ts,
    };
  }
  const A = r.A ?? r.Ad ?? r.Abar;
  const B = r.B ?? r.Bd ?? r.Bbar;
  const Cm = r.C ?? r.Cd ?? r.Cbar;
  const D = r.D ?? r.Dd ?? args.D;
  return { A, B: A.length ? B : [], C: A.length ? Cm : [], D, Ts };
}

// Octave writes matrices as {"s": size, "v": "column-major values as %.17g text"}: Octave 7.3's
// jsonencode writes some numbers wrongly (jsonencode(-0.99999999999999989) is 0)
interface Mx {
  s: number[] | number;
  v: string;
}
const list = (x: number[] | number | undefined): number[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);
const values = (m: Mx): number[] =>
  m.v
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((t) => (t === 'Inf' ? Infinity : t === '-Inf' ? -Infinity : Number(t)));
function rowsOf(m: Mx): Mat {
  const s = list(m.s);
  const v = values(m);
  const r = s[0];
  const c = s[1] ?? 1;
  return Array.from({ length: r }, (_, i) => Array.from({ length: c }, (_, j) => v[i + r * j]));
}
function octSys(o: Record<string, Mx | number>, scale = 1): Sys {
  const Ts = typeof o.Ts === 'number' ? o.Ts : 0;
  if (o.num) return { num: values(o.num as Mx).map((x) => scale * x), den: values(o.den as Mx), Ts };
  const D = rowsOf(o.D as Mx).map((r) => r.map((x) => scale * x));
  const A = rowsOf(o.A as Mx);
  return { A, B: A.length ? rowsOf(o.B as Mx) : [], C: A.length ? rowsOf(o.C as Mx).map((r) => r.map((x) => scale * x)) : [], D, Ts };
}

// ------------------------------------------------------------------ timing

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length ? (s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2) : NaN;
};
/** min over reps calls; a throw (a refusal) is timed to the throw and returned as { error } */
function minTime(f: () => unknown, reps: number): { ms: number; value?: unknown; error?: string } {
  let best = Infinity;
  let value: unknown;
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    try {
      value = f();
    } catch (e) {
      return { ms: performance.now() - t, error: (e instanceof Error ? e.message : String(e)).slice(0, 120) };
    }
    best = Math.min(best, performance.now() - t);
  }
  return { ms: best, value };
}

interface OctOut {
  ms?: number;
  error?: string;
  result?: Record<string, Mx | number>;
}

function findOctave(): string | undefined {
  for (const cmd of ['octave-cli', 'octave'])
    try {
      execFileSync(cmd, ['--version'], { stdio: 'ignore' });
      return cmd;
    } catch {
      /* next */
    }
  return undefined;
}

/** Octave's times and results per row and problem, or why there are none */
function runOctave(rows: Row[], reps: number): { out?: Map<string, OctOut[]>; note: string } {
  const cmd = findOctave();
  if (!cmd) return { note: 'Octave was not found on PATH (octave-cli, octave): no Octave column, no comparison.' };
  const dir = mkdtempSync(join(tmpdir(), 'newtools-bench-'));
  try {
    const jobs = rows
      .filter((r) => 'oc' in r.octave)
      .map((r) => ({ id: r.id, oc: (r.octave as { oc: string }).oc, reps, problems: r.problems.map((p) => p.oargs ?? p.args) }));
    writeFileSync(join(dir, 'in.json'), JSON.stringify(jobs));
    const script = new URL('./newtools_octave.m', import.meta.url).pathname;
    execFileSync(cmd, ['--no-gui', '-q', script, join(dir, 'in.json'), join(dir, 'out.json')], {
      cwd: dir,
      env: { ...process.env, OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
      maxBuffer: 1 << 26,
      timeout: 20 * 60 * 1000,
    });
    const res: { id: string; problems: OctOut[] }[] = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'));
    const version = execFileSync(cmd, ['--version'], { encoding: 'utf8' }).split('\n')[0];
    return {
      out: new Map(res.map((r) => [r.id, Array.isArray(r.problems) ? r.problems : [r.problems]])),
      note: `${version}, control ${readFileSync(join(dir, 'out.json.version'), 'utf8').trim()}`,
    };
  } catch (e) {
    return { note: `Octave was found but the run failed (${(e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 200)}): no Octave column.` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface NewToolsReport {
  table: string;
  octaveNote: string;
  slow: string[];
  disagree: string[];
  /** rows with an Octave time, and those where ours is slower by median */
  compared: number;
  slower: string[];
}

export function runNewToolsBench(opts: { octave?: boolean; reps?: number; only?: string } = {}): NewToolsReport {
  const reps = opts.reps ?? 3;
  const rows = newToolRows().filter((r) => !opts.only || r.id.includes(opts.only));
  const prepared = rows.map((r) => r.problems.map((p) => prepareArgs(r.tool, structuredClone(p.args))));
  const solve = (i: number, j: number) =>
    minTime(() => {
      const { tool, args } = prepareArgs(rows[i].tool, structuredClone(rows[i].problems[j].args));
      return tool.run(args);
    }, 1);
  // warm-up: every problem once (JIT, the lazily compiled validators)
  rows.forEach((r, i) => r.problems.forEach((_, j) => solve(i, j)));
  const oct = opts.octave === false ? { note: 'Octave not run (--no-octave).' } : runOctave(rows, 3);
  const lines = [
    '| tool (path) | problems | ours median [ms] | ours max [ms] | verifier median [ms] | Octave median [ms] | Octave max [ms] | ours / Octave (median) | ours / Octave (largest) | agreement with Octave (max rel. diff) | Octave call |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  const slow: string[] = [];
  const disagree: string[] = [];
  const slower: string[] = [];
  let compared = 0;
  const f = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));
  rows.forEach((r, i) => {
    const ours: number[] = [];
    const ver: number[] = [];
    const results: Record<string, any>[] = [];
    r.problems.forEach((_, j) => {
      // the arguments are cloned outside the timing (prepareArgs may fill defaults in place)
      const clones = Array.from({ length: reps }, () => structuredClone(r.problems[j].args));
      let k = 0;
      const t = minTime(() => {
        const { tool, args } = prepareArgs(r.tool, clones[k++]);
        return tool.run(args);
      }, reps);
      ours.push(t.ms);
      results.push(t.value as Record<string, any>);
      if (t.error) {
        disagree.push(`${r.id} size ${r.problems[j].size}: ours refused (${t.error})`);
        return;
      }
      const { args } = prepared[i][j];
      const v = minTime(() => verify(r.tool, args, t.value as Record<string, any>), reps);
      const vr = v.value as { ok: boolean } | undefined;
      if (!vr?.ok) disagree.push(`${r.id} size ${r.problems[j].size}: our verifier did not pass`);
      ver.push(v.ms);
    });
    let octCells = ['–', '–', '–', '–', '–'];
    const o = 'oc' in r.octave ? oct.out?.get(r.id) : undefined;
    if ('none' in r.octave) octCells = [r.octave.none, '', '', '', ''];
    else if (!oct.out) octCells = [opts.octave === false ? 'not run' : 'Octave not found', '', '', '', ''];
    else if (o) {
      const ok = o.filter((x) => typeof x.ms === 'number');
      const errs = o.filter((x) => x.error);
      const oms = ok.map((x) => x.ms!);
      let agree = 0;
      r.problems.forEach((p, j) => {
        const res = o[j]?.result;
        if (!res || !results[j]) return;
        const ourR = results[j];
        let d: number;
        if (r.compare === 'system') d = sysDiff(oursSys(r.tool, prepared[i][j].args, ourR), octSys(res, r.octScale));
        else if (r.compare === 'y') d = maxDiff(ourR.y, rowsOf(res.y as Mx));
        else if (r.compare === 'W') d = maxDiff(ourR.W, rowsOf(res.W as Mx));
        else if (r.compare === 'X' || r.compare === 'R' || r.compare === 'L') d = maxDiff(ourR[r.compare], rowsOf(res[r.compare] as Mx));
        else if (r.compare === 'sv') d = maxDiff(ourR.sv, rowsOf(res.sv as Mx));
        else if (r.compare === 'linf') d = maxDiff([ourR.linf], [res.linf as number]);
        else d = maxDiff(ourR.hsv, values(res.hsv as Mx));
        if (!(d <= FLAG)) disagree.push(`${r.id} size ${p.size}: max rel. diff ${d.toExponential(1)}`);
        agree = Math.max(agree, Number.isNaN(d) ? Infinity : d);
      });
      const last = o[r.problems.length - 1]?.ms;
      const ratioMed = median(ours) / median(oms);
      if (oms.length) compared++;
      if (ratioMed > 1) slower.push(`${r.id} (${ratioMed.toFixed(2)}x)`);
      if (oms.length && ratioMed > 10) slow.push(`${r.id}: median ${f(median(ours))} ms vs Octave ${f(median(oms))} ms (${ratioMed.toFixed(1)}x)`);
      const ol = last !== undefined ? ours[ours.length - 1] / last : 0;
      if (ol > 10)
        slow.push(
          `${r.id} at ${r.problems.length > 3 ? 'order' : 'n ='} ${r.problems[r.problems.length - 1].size}: ${f(ours[ours.length - 1])} ms vs Octave ${f(last!)} ms (${ol.toFixed(1)}x)`,
        );
      const agreeCell = ok.length ? `${agree.toExponential(1)}${agree > FLAG ? ' ⚠' : ''}` : '–';
      octCells = [
        oms.length ? f(median(oms)) : `error: ${errs[0]?.error?.slice(0, 80) ?? '?'}`,
        oms.length ? f(Math.max(...oms)) : '',
        oms.length ? ratioMed.toFixed(2) : '',
        last !== undefined ? (ours[ours.length - 1] / last).toFixed(2) : '',
        errs.length && ok.length ? `${agreeCell} (${errs.length} error${errs.length > 1 ? 's' : ''}: ${errs[0].error!.slice(0, 60)})` : agreeCell,
      ];
    }
    const call =
      'oc' in r.octave
        ? `\`${r.octave.call.replace(/ \(.*/, '')}\`${r.octave.call.includes('(') && / \(/.test(r.octave.call) ? r.octave.call.slice(r.octave.call.indexOf(' (')) : ''}`
        : '';
    const sizes = r.problems.map((p) => p.size);
    lines.push(
      `| ${r.id} | ${r.problems.length} (${r.problems.length > 3 ? `order ${sizes[0]}–${sizes[sizes.length - 1]}` : `n = ${sizes.join(', ')}`}) | ${f(median(ours))} | ${f(Math.max(...ours))} | ${f(median(ver))} | ${octCells.join(' | ')} | ${call} |`,
    );
  });
  return { table: lines.join('\n'), octaveNote: oct.note, slow, disagree, compared, slower };
}

export function newToolsMarkdown(r: NewToolsReport): string {
  return [
    r.table,
    '',
    `Octave: ${r.octaveNote}`,
    '',
    r.compared
      ? `Of the ${r.compared} rows Octave has, ours is faster by median on ${r.compared - r.slower.length}${r.slower.length ? `, slower on ${r.slower.join(', ')}` : ''}.`
      : '',
    '',
    !r.compared
      ? 'No Octave times, so no speed comparison.'
      : r.slow.length
        ? `More than 10x Octave (median over the problems, or on the largest): ${r.slow.join('; ')}.`
        : 'No tool is more than 10x slower than Octave (median over its problems, or on the largest).',
    '',
    r.disagree.length
      ? `Disagreements above ${FLAG} (or verifier failures): ${r.disagree.join('; ')}.`
      : `Every compared result agrees with Octave's to ${FLAG} or better.`,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf('--reps');
  const o = process.argv.indexOf('--only');
  const r = runNewToolsBench({
    octave: !process.argv.includes('--no-octave'),
    reps: i > 0 ? Number(process.argv[i + 1]) : undefined,
    only: o > 0 ? process.argv[o + 1] : undefined,
  });
  console.log(newToolsMarkdown(r));
}
