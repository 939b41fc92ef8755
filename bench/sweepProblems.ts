/**
 * The seeded problems of the size sweep (bench/sweep.ts): one base system per size n, used by
 * every state-space tool, so all tools at a given n see the same numbers. All built from
 * mulberry32(1000 n + 17), in this order: R (n x n, row by row), B (n x 2), C (2 x n), num (n),
 * each entry uniform in [-1, 1].
 *
 *   M  = R / sqrt(n)                          (eigenvalues in a disc of radius ~0.58)
 *   A  = M - (max Re eig(M) + 1) I            continuous: spectral abscissa exactly -1
 *   Ad = 0.8 M / rho(M)                       discrete: spectral radius exactly 0.8
 *   B (n x 2), C (2 x n), D = 0 (2 x 2); Q = I, R = I; G = B, Qn = Rn = I (2 x 2)
 *   SISO: b = B(:,1), c = C(1,:) scaled so that the DC gain -c A^-1 b is 5 (margins have a
 *         gain crossover, stepinfo a final value of 5), d = 0
 *   tf:   den = the characteristic polynomial of A (from its eigenvalues), num = the n draws
 *         (degree n - 1)
 *   place: test/fixtures/placeProblems.ts (A = R/sqrt(n) - I, targets in [-2, -0.5]), m = 1 and 2
 *
 * Eigenvalues, the DC gain and the polynomial come from ml-matrix (not our kernel), so the
 * problems do not depend on the code under test.
 */
import { EigenvalueDecomposition, Matrix, solve } from 'ml-matrix';
import { mulberry32 } from '../test/fixtures/rng.js';
import { placeProblem } from '../test/fixtures/placeProblems.js';

export type Mat = number[][];

/** one timed case: a tool of the table and one way of calling it */
export interface SweepCase {
  /** the case's name in the tables (tool, or tool with its variant) */
  id: string;
  /** the tool in src/core/tools/table.ts */
  tool: string;
  /** the family table it is listed in */
  family: string;
  /** what the problem is, said once under the tables */
  what: string;
  /** arguments of our tool at size n (the Octave and SciPy scripts read the same JSON) */
  args: (n: number) => Record<string, unknown>;
}

export interface BaseSystem {
  n: number;
  A: Mat;
  Ad: Mat;
  B: Mat;
  C: Mat;
  D: Mat;
  b: Mat;
  c: Mat;
  d: Mat;
  num: number[];
  den: number[];
}

const eye = (n: number): Mat => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
const zeros = (r: number, c: number): Mat => Array.from({ length: r }, () => new Array(c).fill(0));

/** real coefficients (highest power first) of prod (s - r_k) over a self-conjugate root set */
function polyFromRoots(re: number[], im: number[]): number[] {
  let pr = [1];
  let pi = [0];
  for (let k = 0; k < re.length; k++) {
    const nr = new Array(pr.length + 1).fill(0);
    const ni = new Array(pr.length + 1).fill(0);
    for (let i = 0; i < pr.length; i++) {
      nr[i] += pr[i];
      ni[i] += pi[i];
      // - r * p
      nr[i + 1] -= re[k] * pr[i] - im[k] * pi[i];
      ni[i + 1] -= re[k] * pi[i] + im[k] * pr[i];
    }
    pr = nr;
    pi = ni;
  }
  return pr;
}

const cache = new Map<number, BaseSystem>();

export function baseSystem(n: number): BaseSystem {
  const hit = cache.get(n);
  if (hit) return hit;
  const u = mulberry32(1000 * n + 17);
  const r = () => 2 * u() - 1;
  const s = Math.sqrt(n);
  const M = Array.from({ length: n }, () => Array.from({ length: n }, () => r() / s));
  const B = Array.from({ length: n }, () => [r(), r()]);
  const C = [Array.from({ length: n }, r), Array.from({ length: n }, r)];
  const num = Array.from({ length: n }, r);
  const evd = new EigenvalueDecomposition(new Matrix(M));
  const wr = evd.realEigenvalues;
  const wi = evd.imaginaryEigenvalues;
  const shift = Math.max(...wr) + 1;
  const rho = Math.max(...wr.map((x, i) => Math.hypot(x, wi[i])));
  const A = M.map((row, i) => row.map((v, j) => v - (i === j ? shift : 0)));
  const Ad = M.map((row) => row.map((v) => (0.8 * v) / rho));
  const b = B.map((row) => [row[0]]);
  // DC gain of (A, b, C(1,:)): -c A^-1 b
  const x = solve(new Matrix(A), new Matrix(b)).to1DArray();
  const g = -C[0].reduce((acc, v, i) => acc + v * x[i], 0);
  const c = [C[0].map((v) => (5 * v) / g)];
  // the characteristic polynomial of A from its eigenvalues, conjugate pairs exact
  const ev = wr.map((x, i) => [x - shift, wi[i]]);
  const den = polyFromRoots(
    ev.map((e) => e[0]),
    ev.map((e) => e[1]),
  );
  const sys: BaseSystem = { n, A, Ad, B, C, D: zeros(2, 2), b, c, d: [[0]], num, den };
  cache.set(n, sys);
  return sys;
}

const logspace = (a: number, b: number, k: number) => Array.from({ length: k }, (_, i) => 10 ** (a + ((b - a) * i) / (k - 1)));
const linspace = (a: number, b: number, k: number) => Array.from({ length: k }, (_, i) => a + ((b - a) * i) / (k - 1));

/** frequencies of freqresp and nyquist, rad/s */
export const W = logspace(-2, 2, 100);
/** times of step and impulse, s */
export const T = linspace(0, 10, 201);
/** gains of rlocus */
export const KGAINS = linspace(0, 10, 101);
/** sample time of c2d and kalman, s */
export const TS = 0.1;

const ss = (n: number) => {
  const s = baseSystem(n);
  return { A: s.A, B: s.B, C: s.C, D: s.D };
};
const siso = (n: number) => {
  const s = baseSystem(n);
  return { A: s.A, B: s.b, C: s.c, D: s.d };
};
const placeArgs = (n: number, m: number) => {
  const p = placeProblem(n, m);
  return { A: p.A, B: p.B, poles: p.poles };
};

export const FAMILIES = [
  'Eigenvalues and structure',
  'Lyapunov and Riccati equations',
  'Design: LQR, estimators, pole placement',
  'Conversions',
  'Frequency domain',
  'Time domain',
];

export const CASES: SweepCase[] = [
  { id: 'eig', tool: 'eig', family: FAMILIES[0], what: 'eig(A)', args: (n) => ({ A: baseSystem(n).A }) },
  {
    id: 'ctrb_rank',
    tool: 'ctrb_rank',
    family: FAMILIES[0],
    what: 'the controllability matrix of (A, B) and its rank',
    args: (n) => ({ A: baseSystem(n).A, B: baseSystem(n).B }),
  },
  {
    id: 'obsv_rank',
    tool: 'obsv_rank',
    family: FAMILIES[0],
    what: 'the observability matrix of (A, C) and its rank',
    args: (n) => ({ A: baseSystem(n).A, C: baseSystem(n).C }),
  },
  { id: 'analyse', tool: 'analyse', family: FAMILIES[0], what: 'eigenvalues, stability, controllability and observability of (A, B, C, D)', args: ss },
  { id: 'damp', tool: 'damp', family: FAMILIES[0], what: 'natural frequencies and damping of the poles of (A, B, C, D)', args: ss },
  { id: 'poles_zeros', tool: 'poles_zeros', family: FAMILIES[0], what: 'poles and invariant zeros of (A, B, C, D), 2 x 2', args: ss },
  { id: 'lyap', tool: 'lyap', family: FAMILIES[1], what: "A X + X A' + I = 0", args: (n) => ({ A: baseSystem(n).A, Q: eye(n) }) },
  { id: 'dlyap', tool: 'dlyap', family: FAMILIES[1], what: "Ad X Ad' - X + I = 0", args: (n) => ({ A: baseSystem(n).Ad, Q: eye(n) }) },
  {
    id: 'care',
    tool: 'care',
    family: FAMILIES[1],
    what: 'CARE of (A, B, I, I)',
    args: (n) => ({ A: baseSystem(n).A, B: baseSystem(n).B, Q: eye(n), R: eye(2) }),
  },
  {
    id: 'dare',
    tool: 'dare',
    family: FAMILIES[1],
    what: 'DARE of (Ad, B, I, I)',
    args: (n) => ({ A: baseSystem(n).Ad, B: baseSystem(n).B, Q: eye(n), R: eye(2) }),
  },
  { id: 'lqr', tool: 'lqr', family: FAMILIES[2], what: 'lqr(A, B, I, I)', args: (n) => ({ A: baseSystem(n).A, B: baseSystem(n).B, Q: eye(n), R: eye(2) }) },
  {
    id: 'dlqr',
    tool: 'dlqr',
    family: FAMILIES[2],
    what: 'dlqr(Ad, B, I, I)',
    args: (n) => ({ A: baseSystem(n).Ad, B: baseSystem(n).B, Q: eye(n), R: eye(2) }),
  },
  {
    id: 'lqe',
    tool: 'lqe',
    family: FAMILIES[2],
    what: 'lqe(A, G = B, C, I, I)',
    args: (n) => ({ A: baseSystem(n).A, G: baseSystem(n).B, C: baseSystem(n).C, Qn: eye(2), Rn: eye(2) }),
  },
  {
    id: 'kalman',
    tool: 'kalman',
    family: FAMILIES[2],
    what: `discrete Kalman filter of (Ad, G = B, C), Qn = Rn = I, Ts = ${TS}`,
    args: (n) => ({ A: baseSystem(n).Ad, G: baseSystem(n).B, C: baseSystem(n).C, Qn: eye(2), Rn: eye(2), Ts: TS }),
  },
  { id: 'place (1 input)', tool: 'place', family: FAMILIES[2], what: 'placeProblem(n, 1) of test/fixtures/placeProblems.ts', args: (n) => placeArgs(n, 1) },
  { id: 'place (2 inputs)', tool: 'place', family: FAMILIES[2], what: 'placeProblem(n, 2) of test/fixtures/placeProblems.ts', args: (n) => placeArgs(n, 2) },
  { id: 'c2d (zoh)', tool: 'c2d', family: FAMILIES[3], what: `c2d of (A, B, C, D), Ts = ${TS}, zoh`, args: (n) => ({ ...ss(n), Ts: TS, method: 'zoh' }) },
  {
    id: 'c2d (tustin)',
    tool: 'c2d',
    family: FAMILIES[3],
    what: `c2d of (A, B, C, D), Ts = ${TS}, tustin`,
    args: (n) => ({ ...ss(n), Ts: TS, method: 'tustin' }),
  },
  {
    id: 'tf2ss',
    tool: 'tf2ss',
    family: FAMILIES[3],
    what: 'num (degree n - 1) / den (degree n, the characteristic polynomial of A)',
    args: (n) => ({ num: baseSystem(n).num, den: baseSystem(n).den }),
  },
  { id: 'ss2tf', tool: 'ss2tf', family: FAMILIES[3], what: 'the SISO system (A, b, c, 0)', args: siso },
  { id: 'dcgain', tool: 'dcgain', family: FAMILIES[3], what: 'dcgain of (A, B, C, D), 2 x 2', args: ss },
  {
    id: 'freqresp',
    tool: 'freqresp',
    family: FAMILIES[4],
    what: `H(jw) of (A, B, C, D), 2 x 2, ${W.length} frequencies 1e-2..1e2`,
    args: (n) => ({ ...ss(n), w: W }),
  },
  { id: 'margins', tool: 'margins', family: FAMILIES[4], what: 'gain and phase margins of the SISO loop (A, b, c, 0)', args: siso },
  {
    id: 'nyquist',
    tool: 'nyquist',
    family: FAMILIES[4],
    what: `Nyquist curve of the SISO loop, the same ${W.length} frequencies`,
    args: (n) => ({ ...siso(n), w: W }),
  },
  {
    id: 'rlocus',
    tool: 'rlocus',
    family: FAMILIES[4],
    what: `root locus of the SISO loop at ${KGAINS.length} gains 0..${KGAINS[KGAINS.length - 1]}`,
    args: (n) => ({ ...siso(n), k: KGAINS }),
  },
  { id: 'h2norm', tool: 'h2norm', family: FAMILIES[4], what: 'H2 norm of (A, B, C, D)', args: ss },
  { id: 'hinfnorm', tool: 'hinfnorm', family: FAMILIES[4], what: 'H-infinity norm of (A, B, C, D)', args: ss },
  {
    id: 'step',
    tool: 'step',
    family: FAMILIES[5],
    what: `step response of (A, B, C, D), 2 x 2, ${T.length} samples 0..${T[T.length - 1]} s`,
    args: (n) => ({ ...ss(n), t: T }),
  },
  {
    id: 'impulse',
    tool: 'impulse',
    family: FAMILIES[5],
    what: 'impulse response of (A, B, C, D), 2 x 2, the same samples; Octave: one SISO channel at a time (impulse of the 2 x 2 system fails in control 3.4 with "polyreduce: C must be a non-empty vector")',
    args: (n) => ({ ...ss(n), t: T }),
  },
  { id: 'stepinfo', tool: 'stepinfo', family: FAMILIES[5], what: 'step-response characteristics of the SISO system (A, b, c, 0)', args: siso },
];
