/**
 * Zero-pole-gain models (issue 13, "System objects"): `zpk` (a model in any form to zeros,
 * poles and gain per channel, MATLAB zpk(sys) / python-control's zeros(), poles() per
 * channel), `zpk2tf` and `zpk2ss` (MATLAB zp2tf/zp2ss and zpk(z, p, k) with cells for MIMO,
 * SciPy zpk2tf/zpk2ss). Complex roots are [re, im] pairs, conjugate pairs required.
 *
 * Conventions, stated in the answers:
 * - a transfer function keeps every root of num and den (no cancellation, as MATLAB's
 *   zpk(tf)); a state-space channel is taken from its own minimal realisation (its hidden
 *   modes are not poles of that channel's transfer function);
 * - zpk2ss returns a minimal realisation: the controllable canonical form of each column (as
 *   SciPy's zpk2ss for SISO), reduced by the staircase when a zero cancels a pole.
 */
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import type { Complex, Matrix } from '../types.js';
import { fromRows, mulVec, type Mat } from '../linalg/dense.js';
import { polyRoots, polyStrip } from '../linalg/poly.js';
import { eigvalsSorted } from '../linalg/schur.js';
import { fmtEigenvalues } from '../render/format.js';
import { matrixBlock, type RenderOptions } from '../render/markdown.js';
import { tfMatrixBlock, zpkBlock, zpkLists } from '../render/tfmatrix.js';
import { polyText } from '../render/results.js';
import { systemCode } from '../codegen/code.js';
import { tfMatrixExpr, zpk2Code, zpkCode } from '../codegen/tfm.js';
import { cplx, readSS, readTF, readTfOrSs, scaleGuard, sortComplex, ssProps, tsProp, readTs } from './_sys.js';
import { isTfMatrixValue, readTfMatrix, readZpk, realiseTfMatrix, tfCoeffs, zpkEntryToTf, zpkGain, zpkRoots, zpkToTfMatrix, type ZpkEntry } from './_tfm.js';
import { invariantZeros, minimalSiso } from './xferfcn.js';

type R = Record<string, any>;

const tidy = (z: Complex[]) => sortComplex(z.map(([a, b]) => cplx(a, b)));
const rowsOf = (M: Mat): Matrix => Array.from({ length: M.r }, (_, i) => Array.from(M.d.subarray(i * M.c, (i + 1) * M.c)));

/** zeros, poles, gain of num/den as given (every root kept) */
function tfZpk(num: number[], den: number[]): ZpkEntry {
  const n = polyStrip(num),
    d = polyStrip(den);
  if (n.every((v) => v === 0)) return { z: [], p: [], k: 0 };
  return { z: tidy(polyRoots(n)), p: tidy(polyRoots(d)), k: n[0] / d[0] };
}

/**
 * zeros, poles, gain of one state-space channel (A, b, c, d) from its minimal realisation
 * (minimalSiso): poles its eigenvalues, zeros the invariant zeros, gain d when as many zeros
 * as poles, else the first nonzero Markov parameter c·A^(r−1)·b, r the relative degree.
 */
function channelZpk(A: Mat, b: number[], c: number[], d: number): ZpkEntry {
  const mr = minimalSiso(A, b, c);
  const n = mr.A.r;
  if (n === 0) return { z: [], p: [], k: d };
  const Ar = rowsOf(mr.A);
  const poles = tidy(eigvalsSorted(mr.A));
  const zeros = tidy(
    invariantZeros(
      Ar,
      mr.b.map((v) => [v]),
      [mr.c],
      [[d]],
    ),
  );
  const r = n - zeros.length;
  let k = d;
  if (r > 0) {
    let v = mr.b.slice();
    for (let i = 1; i < r; i++) v = Array.from(mulVec(mr.A, v));
    k = mr.c.reduce((s, x, l) => s + x * v[l], 0);
  }
  if (!Number.isFinite(k))
    throw new ControlError('zpk: the gain (c·A^(r−1)·b, r the relative degree) overflows double precision; rescale the model.', 'numerical');
  return { z: zeros, p: poles, k };
}

/** the zpk result: SISO {z, p, k}, MIMO {z, p: p x m lists, k: p x m} */
function zpkResult(E: ZpkEntry[][]): R {
  if (E.length === 1 && E[0].length === 1) return { z: E[0][0].z, p: E[0][0].p, k: E[0][0].k };
  return { z: E.map((r) => r.map((e) => e.z)), p: E.map((r) => r.map((e) => e.p)), k: E.map((r) => r.map((e) => e.k)) };
}

const variable = (a: R) => (typeof a.Ts === 'number' && a.Ts > 0 ? 'z' : 's');
const given = (v: unknown) => v !== undefined && v !== null;

function renderZpk(a: R, r: R, o: RenderOptions): string {
  const v = variable(a);
  const from = Array.isArray(a.num)
    ? 'the transfer function as given (every root of num and den kept, no cancellation, as MATLAB zpk(tf))'
    : "each channel's own minimal realisation (modes the channel does not see are not its poles)";
  return [`**Zero-pole-gain form** from ${from}:`, zpkBlock(r, v, o), zpkLists(r, o)].join('\n\n');
}

function renderZpk2tf(a: R, r: R, o: RenderOptions): string {
  const v = variable(a);
  if (isTfMatrixValue(r.num))
    return [
      `**Transfer matrix** of the zero-pole-gain model, num = k·Π(${v} − zᵢ), den = Π(${v} − pᵢ) per channel:`,
      tfMatrixBlock('G', r.num, r.den, v, o),
    ].join('\n\n');
  const n = polyText(r.num, v, o.digits, o.math),
    d = polyText(r.den, v, o.digits, o.math);
  return `**Transfer function** num = k·Π(${v} − zᵢ), den = Π(${v} − pᵢ):\n\n${o.math ? `$$\nG(${v}) = \\frac{${n}}{${d}}\n$$` : `\`G(${v}) = (${n}) / (${d})\``}`;
}

function renderZpk2ss(_a: R, r: R, o: RenderOptions): string {
  const n = r.order as number,
    full = r.order_full as number;
  const removed = (r.removed ?? []) as Complex[];
  const how =
    full === n
      ? 'each column in controllable canonical form over its common denominator (as SciPy zpk2ss for one channel); already minimal'
      : `each column in controllable canonical form (${full} states), then reduced by the controllability/observability staircase (removed ${fmtEigenvalues(removed, o.digits).join(', ')}: a zero cancelling a pole)`;
  return [
    `**A minimal state-space realisation** of the zero-pole-gain model (order ${n}; ${how}):`,
    ...['A', 'B', 'C', 'D'].filter((k) => (r[k] as Matrix).length && (r[k] as Matrix)[0].length).map((k) => matrixBlock(k, r[k], o)),
    ...(n === 0 ? ['No states: a static gain y = Du.', matrixBlock('D', r.D, o)] : []),
  ].join('\n\n');
}

const zpkParams = {
  type: 'object' as const,
  properties: { z: zpkRoots('z'), p: zpkRoots('p'), k: zpkGain, ...tsProp },
  required: ['k'],
  additionalProperties: false,
};

/** a zpk system as the conversions read it, with its sample time */
function readZpkArgs(a: R, tool: string) {
  readTs(a);
  return readZpk(a.z ?? [], a.p ?? [], a.k, tool);
}

export const tools = [
  tool({
    name: 'zpk',
    words: {
      calls: [
        { names: ['zpk', 'zpkdata', 'ss2zpk'], args: ['sys'] },
        { names: ['ss2zpk'], args: ['A', 'B', 'C', 'D'] },
      ],
      phrases: [
        'zero-pole-gain form',
        'zero pole gain form',
        'zero-pole-gain',
        'zero pole gain',
        'zpk form',
        'in zpk',
        'to zpk',
        'factored form',
        'pole-zero-gain',
      ],
      example: '/zpk A=[-1 0; 0 -2], B=[1 0; 0 1], C=[1 1; 0 1], D=[0 0; 0 0]',
    },
    title: 'Zero-pole-gain form',
    description:
      'Zeros, poles and gain per channel (MATLAB zpk(sys)) of a model: SISO or MIMO transfer function num/den (MIMO: p x m matrices of coefficient lists) or state space (A, B, C, D); Ts > 0 for discrete time (roots in z). A transfer function keeps every root of num and den (no cancellation); a state-space channel is taken from its own minimal realisation. G_ij(s) = k_ij·Π(s − z)/Π(s − p). Returns z, p ([re, im] lists) and k; MIMO: p x m matrices of them.',
    parameters: {
      type: 'object',
      properties: { num: tfCoeffs('num'), den: tfCoeffs('den'), ...ssProps, ...tsProp },
      required: [],
      additionalProperties: false,
    },
    run(args) {
      const tfGiven = given(args.num) || given(args.den);
      const ssGiven = ['A', 'B', 'C', 'D'].some((k) => given(args[k]));
      // the shared refusal of a mix, naming the arguments given
      if (tfGiven && ssGiven) readTfOrSs(args, 'zpk');
      if (!tfGiven && !ssGiven)
        throw new ControlError('zpk needs a model: a transfer function num/den (MIMO: p x m matrices of coefficient lists) or a state-space model A, B, C, D.');
      readTs(args);
      if (tfGiven) {
        if (isTfMatrixValue(args.num)) {
          const T = readTfMatrix(args.num, args.den, 'zpk');
          return zpkResult(T.entries.map((row) => row.map((e) => tfZpk(e.num, e.den))));
        }
        const t = readTF(args, 'zpk');
        return zpkResult([[tfZpk(t.num, t.den)]]);
      }
      const s = readSS(args, 'zpk');
      scaleGuard(s, 'zpk');
      const A = fromRows(s.n ? s.A : [[0]]);
      const E = s.C.map((crow, i) =>
        Array.from({ length: s.m }, (_, j) =>
          s.n
            ? channelZpk(
                A,
                s.B.map((row) => row[j]),
                crow.slice(),
                s.D[i][j],
              )
            : { z: [], p: [], k: s.D[i][j] },
        ),
      );
      return zpkResult(E);
    },
    intro: null,
    render: renderZpk,
    code: {
      title: 'zero-pole-gain form',
      gen: (code, a, r) =>
        zpkCode(code, a, r, (c) => {
          if (isTfMatrixValue(a.num)) c.assign('sys', tfMatrixExpr(a.num, a.den, c.lang, typeof a.Ts === 'number' ? a.Ts : 0));
          else systemCode(c, a, 'sys');
        }),
    },
    model: BY_LOOKUP,
    plots: { none: 'a conversion; plot the system with a step, Bode or pole-zero request' },
  }),
  tool({
    name: 'zpk2tf',
    words: {
      calls: [{ names: ['zpk2tf', 'zp2tf'], args: ['z', 'p', 'k'] }],
      phrases: ['zpk2tf', 'zp2tf', 'zpk to tf', 'zpk to transfer function', 'zero-pole-gain to transfer function', 'zeros and poles to transfer function'],
      example: '/zpk2tf z=[-1], p=[-2, -3], k=5',
    },
    title: 'Zero-pole-gain to transfer function',
    description:
      'Transfer function num/den of zeros z, poles p and gain k (SciPy zpk2tf, MATLAB zp2tf/tf(zpk(z,p,k))): num = k·Π(s − z), den = Π(s − p) (monic), highest power first. SISO: z, p lists (reals or [re, im] pairs, conjugate pairs in full), k a number; MIMO: z, p p x m matrices of such lists and k a p x m matrix; returns num/den as p x m matrices of coefficient lists.',
    parameters: zpkParams,
    run(args) {
      const Z = readZpkArgs(args, 'zpk2tf');
      const T = zpkToTfMatrix(Z);
      if (Array.isArray(args.k) && (args.k as unknown[]).every((r) => Array.isArray(r)) && !(Z.p === 1 && Z.m === 1 && !isTfMatrixValue(args.z ?? args.p)))
        return { num: T.entries.map((r) => r.map((e) => e.num)), den: T.entries.map((r) => r.map((e) => e.den)) };
      const e = zpkEntryToTf(Z.entries[0][0]);
      return { num: e.num, den: e.den };
    },
    intro: null,
    render: renderZpk2tf,
    code: { title: 'transfer function of a zero-pole-gain model', gen: (code, a, r) => zpk2Code(code, a, r, 'tf') },
    model: BY_LOOKUP,
    plots: { none: 'a conversion; plot the system with a step or Bode request' },
  }),
  tool({
    name: 'zpk2ss',
    words: {
      calls: [{ names: ['zpk2ss', 'zp2ss'], args: ['z', 'p', 'k'] }],
      phrases: ['zpk2ss', 'zp2ss', 'zpk to ss', 'zpk to state space', 'zero-pole-gain to state space', 'zeros and poles to state space'],
      example: '/zpk2ss z=[-1], p=[-2, -3], k=5',
    },
    title: 'Zero-pole-gain to state space',
    description:
      'A minimal state-space realisation (A, B, C, D) of zeros z, poles p and gain k (MATLAB zp2ss/minreal(ss(zpk(z,p,k))), SciPy zpk2ss): each column in controllable canonical form over its common denominator (SISO: as SciPy), reduced by the staircase when a zero cancels a pole. SISO or MIMO (z, p p x m matrices of lists, k p x m). Returns A, B, C, D, order, order_full, removed. Improper channels (more zeros than poles) are refused.',
    parameters: zpkParams,
    run(args) {
      const Z = readZpkArgs(args, 'zpk2ss');
      const r = realiseTfMatrix(zpkToTfMatrix(Z), 'zpk2ss');
      return { A: r.A, B: r.B, C: r.C, D: r.D, order: r.A.length, order_full: r.order_full, removed: tidy(r.removed) };
    },
    intro: null,
    render: renderZpk2ss,
    code: { title: 'state-space realisation of a zero-pole-gain model', gen: (code, a, r) => zpk2Code(code, a, r, 'ss') },
    model: BY_LOOKUP,
    plots: { none: 'a realisation; plot the system with a step or Bode request' },
  }),
];
