/**
 * `analyse`: the first look a control engineer takes at a state-space model: poles and
 * stability, damping, controllability and observability with the modes that are not
 * (the modes of the uncontrollable block of the one controllability staircase,
 * linalg/staircase.ts; observability by the same staircase of the dual (A', C')), and
 * whether the model is stabilisable and detectable. Composed from the solvers' own plain
 * functions (eigenvalues of statesp.ts, the staircase place, lqr and ctrb_rank decide with),
 * so /analyse, /place and /lqr cannot disagree about the same (A, B).
 */
import { Matrix as MlMatrix } from 'ml-matrix';
import { ControlError } from '../errors.js';
import { checkCols, checkMatrix, checkRows, checkSquare, fmtSize } from '../tools/args.js';
import { matrix, sampleTime } from '../tools/schema.js';
import { tool } from '../tools/types.js';
import { renderAnalysis } from '../render/results.js';
import { GENERATORS } from '../codegen/code.js';
import { analysisPlots } from '../plot/specs.js';
import type { Complex, Matrix } from '../types.js';
import { singularValuesOf } from '../linalg/svd.js';
import { fromRows, transpose } from '../linalg/dense.js';
import { controllability, type Controllability } from '../linalg/staircase.js';
import { eigenvalues as eigenvaluesOf } from './statesp.js';
import { modeInfo, type ModeInfo } from './modes.js';

export { modeInfo, type ModeInfo } from './modes.js';

export type Stability = 'stable' | 'marginal' | 'unstable';

export interface AnalysisResult {
  [k: string]: unknown;
  n: number;
  discrete: boolean;
  eigenvalues: Complex[];
  modes: ModeInfo[];
  stability: Stability;
  /** eigenvalues with Re > 0 (continuous) or |z| > 1 (discrete) */
  unstable: Complex[];
  /** eigenvalues on the stability boundary: Re = 0 or |z| = 1 (to a relative 1e-9) */
  boundary: Complex[];
  /**
   * boundary eigenvalues with a Jordan block (geometric multiplicity below algebraic): the
   * state grows like t^k, so the model is unstable even though no eigenvalue is outside
   */
  defective: Complex[];
  controllability?: { rank: number; uncontrollable: Complex[]; stabilisable: boolean };
  observability?: { rank: number; unobservable: Complex[]; detectable: boolean };
}

function boundaryTol(A: Matrix): number {
  let s = 0;
  for (const r of A) for (const v of r) s += v * v;
  return 1e-9 * Math.max(1, Math.sqrt(s));
}

/** >0 unstable, 0 on the boundary, <0 stable, for one eigenvalue */
function classify([re, im]: Complex, discrete: boolean, tol: number): number {
  const d = discrete ? Math.hypot(re, im) - 1 : re;
  if (Math.abs(d) <= tol) return 0;
  return Math.sign(d);
}

/**
 * Repeated boundary eigenvalues whose eigenspace is smaller than their multiplicity: for
 * each distinct λ of multiplicity m > 1, the geometric multiplicity n − rank(A − λI) (SVD
 * rank, a real 2n embedding for complex λ) is compared with m. The double integrator
 * [0 1; 0 0] is defective at 0 (x₁ = t under an impulse); A = 0 is not.
 */
function defectiveOnBoundary(A: Matrix, boundary: Complex[]): Complex[] {
  const n = A.length;
  let norm = 0;
  for (const r of A) for (const v of r) norm = Math.max(norm, Math.abs(v));
  const groups: { z: Complex; m: number }[] = [];
  // eigenvalues of a Jordan block of size k scatter by about (eps·‖A‖)^(1/k): group generously
  const near = Math.max(1e-6 * Math.max(norm, 1), 1e-8);
  for (const z of boundary) {
    const g = groups.find((x) => Math.hypot(x.z[0] - z[0], x.z[1] - z[1]) <= near);
    if (g) g.m++;
    else groups.push({ z, m: 1 });
  }
  const out: Complex[] = [];
  for (const { z, m } of groups) {
    if (m < 2) continue;
    const [re, im] = z;
    const real = Math.abs(im) <= near;
    const size = real ? n : 2 * n;
    const M = new MlMatrix(size, size);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const v = A[i][j] - (i === j ? (real ? re : re) : 0);
        M.set(i, j, v);
        if (!real) M.set(n + i, n + j, v);
      }
    if (!real)
      for (let i = 0; i < n; i++) {
        M.set(i, n + i, im);
        M.set(n + i, i, -im);
      }
    // in unit scale and back (exact): ml-matrix's SVD cycled forever on a matrix of entries
    // near 1e-320 (analyse of a 4x4 one never returned)
    const sv = singularValuesOf(M.to2DArray());
    // a rank tolerance that sees through the eigenvalue scatter of a Jordan block
    const tol = Math.max(sv[0] ?? 0, 1) * 1e-8;
    const rank = sv.filter((x) => x > tol).length;
    const geometric = real ? n - rank : (2 * n - rank) / 2;
    if (geometric < m) out.push(real ? [re, 0] : z);
  }
  return out;
}

export function analyse(args: { A: Matrix; B?: Matrix; C?: Matrix; D?: Matrix; Ts?: number }): AnalysisResult {
  const A = checkMatrix(args.A, 'A');
  // n = 0 (a static gain): no eigenvalues, so stable (trivially), ranks 0 of 0
  const n = checkSquare(A, 'A', true);
  const discrete = typeof args.Ts === 'number' && args.Ts > 0;
  const Ts = discrete ? (args.Ts as number) : 0;
  const tol = boundaryTol(A);
  const eigenvalues = eigenvaluesOf(A);
  const cls = eigenvalues.map((z) => classify(z, discrete, tol));
  const defective = defectiveOnBoundary(
    A,
    eigenvalues.filter((_, i) => cls[i] === 0),
  );
  const stability: Stability = cls.some((c) => c > 0) || defective.length ? 'unstable' : cls.some((c) => c === 0) ? 'marginal' : 'stable';
  const out: AnalysisResult = {
    n,
    discrete,
    eigenvalues,
    modes: eigenvalues.map((z) => modeInfo(z, discrete, Ts)),
    stability,
    unstable: eigenvalues.filter((_, i) => cls[i] > 0),
    boundary: eigenvalues.filter((_, i) => cls[i] === 0),
    defective,
  };
  // a mode slower than 1/1.8e308 (A with entries near 1e-320) has a time constant that
  // overflows: refused with the reason rather than an Infinity the contract does not allow
  const slow = out.modes.find((m) => [m.wn, m.zeta, m.tau].some((v) => v !== undefined && !Number.isFinite(v)));
  if (slow) {
    let mx = 0;
    for (const r of A) for (const v of r) mx = Math.max(mx, Math.abs(v));
    throw new ControlError(
      `analyse: the mode at ${slow.value[0].toExponential(2)}${slow.value[1] ? ` ${slow.value[1] < 0 ? '-' : '+'} ${Math.abs(slow.value[1]).toExponential(2)}j` : ''} is too slow for double precision: its time constant or natural frequency is not a finite number (A has entries of order ${mx.toExponential(0)}). Rescale the time unit so that A's entries are nearer 1.`,
      'numerical',
    );
  }
  const isBad = (z: Complex) => classify(z, discrete, tol) >= 0;
  if (args.B !== undefined) {
    const B = checkMatrix(args.B, 'B');
    checkRows(B, n, 'B', `A (${fmtSize(A)})`);
    let c: Controllability = { nc: 0, uncontrollable: [] };
    if (n > 0) {
      if (B[0].length === 0) throw new ControlError('B has no columns.');
      c = controllability(fromRows(A), fromRows(B));
    }
    out.controllability = { rank: c.nc, uncontrollable: c.uncontrollable, stabilisable: !c.uncontrollable.some(isBad) };
  }
  if (args.C !== undefined) {
    const C = checkMatrix(args.C, 'C');
    checkCols(C, n, 'C', `A (${fmtSize(A)}), so ${n} columns`);
    // observability of (A, C) is controllability of the dual (A', C'): the same staircase
    let o: Controllability = { nc: 0, uncontrollable: [] };
    if (n > 0) {
      if (C.length === 0) throw new ControlError('C has no rows.');
      o = controllability(transpose(fromRows(A)), transpose(fromRows(C)));
    }
    out.observability = { rank: o.nc, unobservable: o.uncontrollable, detectable: !o.uncontrollable.some(isBad) };
  }
  if (args.D !== undefined) {
    const D = checkMatrix(args.D, 'D');
    if (args.B === undefined || args.C === undefined) throw new ControlError('D was given without B and C.');
    // with no states B = [] (0 x m) does not tell m, and C = [] may not tell p: D does
    const [p, m] = [n === 0 && !args.C.length ? D.length : args.C.length, n === 0 ? (D[0]?.length ?? 0) : (args.B[0]?.length ?? 0)];
    if (D.length !== p || (D[0]?.length ?? 0) !== m)
      throw new ControlError(`D is ${fmtSize(D)} but C has ${p} rows and B has ${m} columns, so D must be ${p}x${m}.`);
  }
  return out;
}

export const tools = [
  tool({
    name: 'analyse',
    words: {
      calls: [
        { names: ['isstable', 'analyse', 'analyze', 'damp'], args: ['sys'] },
        { names: ['damp', 'isstable'], args: ['A'] },
      ],
      phrases: [
        'analyse',
        'analyze',
        'analysis',
        'is it stable',
        'is this stable',
        'is the system stable',
        'is the plant stable',
        'is the model stable',
        'stability of',
        'check stability',
        'stable or not',
        'stability',
        'is stable',
        'hurwitz',
        'schur stable',
        'modes',
        'which modes',
        'unobservable',
        'uncontrollable',
        'damping of each',
        'mode damping',
      ],
      weak: ['stable', 'unstable', 'properties of', 'damping ratio', 'natural frequency', 'damping'],
      example: '/analyse A=[0 1; -2 -3], B=[0;1], C=[1 0], D=0',
    },
    brief: 'Stability, eigenvalues, damping, controllability/observability (with the modes that are not) of (A, B, C, D).',
    title: 'State-space analysis',
    description:
      "Analyses a state-space model x' = Ax + Bu, y = Cx + Du (discrete when Ts > 0): eigenvalues, stability, damping and natural frequency of each mode, controllability and observability ranks with the uncontrollable/unobservable modes, stabilisability and detectability. B, C, D are optional.",
    parameters: {
      type: 'object',
      properties: {
        A: matrix('state matrix A (n x n)'),
        B: matrix('input matrix B (n x m)'),
        C: matrix('output matrix C (p x n)'),
        D: matrix('feedthrough D (p x m)'),
        Ts: sampleTime,
      },
      required: ['A'],
      additionalProperties: false,
    },
    run: (a) => analyse(a as { A: Matrix }),
    intro: '**State-space analysis** of ẋ = Ax + Bu, y = Cx + Du.',
    render: renderAnalysis,
    code: GENERATORS.analyse,
    model: 'offered',
    plots: analysisPlots,
  }),
];
