/**
 * Time delays as rational models (python-control's delay.py, MATLAB's pade and thiran):
 * - `pade`: the Padé approximant of e^{−sT} of order N (numerator degree N, or numdeg as
 *   python-control's pade(T, n, numdeg)), and a continuous system with an input or output
 *   delay T in series with it (MATLAB's pade(sys, N));
 * - `thiran`: the Thiran all-pass filter of a delay tau sampled at Ts (MATLAB thiran(tau, Ts)):
 *   maximally flat group delay D = tau/Ts at DC, order ceil(D); an integer D is z^−D exactly.
 *
 * Conventions (MATLAB's and python-control's agree): coefficients highest power first, the
 * denominator monic. The Padé coefficients are the closed form of Golub & Van Loan (Matrix
 * Computations, §11.3) with numerator degree m and denominator degree n:
 *   num_k = (m+n−k)! m! / ((m+n)! k! (m−k)!) (−T)^k,  den_k = (m+n−k)! n! / ((m+n)! k! (n−k)!) T^k
 * (coefficient of s^k), the Thiran coefficients those of MATLAB's thiran page (Thiran 1971):
 *   a_k = (−1)^k C(N, k) Π_{i=0..N} (D − N + i)/(D − N + k + i),  H(z) = Σ a_{N−k} z^k / Σ a_k z^{N−k}.
 */
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import { polyText } from '../render/results.js';
import { matrixBlock, type RenderOptions } from '../render/markdown.js';
import { fmt } from '../render/format.js';
import { type Code, verdictHolder } from '../codegen/code.js';
import { num as numberLiteral, vector as vectorLiteral } from '../codegen/literals.js';
import type { PlotSpec } from '../plot/specs.js';
import type { Matrix } from '../types.js';
import { type Mat, toRows, zeros } from '../linalg/dense.js';
import { conv, polyStrip } from '../linalg/poly.js';
import { appendSS, seriesSS, type Lti } from './interconnect.js';
import { ss2tf } from './xferfcn.js';
import { readTfOrSs, ssProps, tf2ss, tfProps, type SS } from './_sys.js';

/** the highest Padé order taken (MATLAB's pade page: avoid N > 10, the approximant's poles grow ill-conditioned) */
export const PADE_MAX_ORDER = 20;
/** the order above which the answer says MATLAB's advice */
export const PADE_ADVISED_ORDER = 10;
/** the highest Thiran order (= ceil(tau/Ts)) taken */
export const THIRAN_MAX_ORDER = 50;

// ------------------------------------------------------------------ Padé

/** an integer argument (N, numdeg), refused with a message naming it otherwise */
function integerArg(v: unknown, name: string, tool: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new ControlError(`${tool}: ${name} must be an integer, not ${JSON.stringify(v)}.`);
  return v;
}

/**
 * The Padé approximant of e^{−sT}: numerator degree m (default n), denominator degree n; den
 * monic. T = 0 gives 1/1 (as python-control). Throws for N < 1, N above PADE_MAX_ORDER, m
 * outside 0..n, T < 0, or coefficients beyond double precision.
 */
export function padeCoefficients(T: number, N: number, numdeg?: number): { num: number[]; den: number[]; numdeg: number } {
  if (!(typeof T === 'number' && Number.isFinite(T) && T >= 0)) throw new ControlError(`pade: the delay T must be a finite number of seconds >= 0, not ${T}.`);
  const n = integerArg(N, 'N', 'pade');
  if (n < 1) throw new ControlError(`pade: the order N must be at least 1, not ${n}.`);
  if (n > PADE_MAX_ORDER)
    throw new ControlError(
      `pade: order N = ${n} is above the limit of ${PADE_MAX_ORDER}; high orders are ill-conditioned (MATLAB's pade page advises N <= ${PADE_ADVISED_ORDER}). Use N <= ${PADE_ADVISED_ORDER}.`,
      'limit',
    );
  let m = numdeg === undefined ? n : integerArg(numdeg, 'numdeg', 'pade');
  // python-control: a negative numdeg is n + numdeg
  if (m < 0) m = n + m;
  if (m < 0 || m > n) throw new ControlError(`pade: numdeg must lie between −N and N (${-n}..${n}), not ${numdeg}.`);
  if (T === 0) return { num: [1], den: [1], numdeg: m };
  // coefficient of s^k by the recurrence of the closed form (ratio of successive terms)
  const lowNum = [1];
  for (let k = 1; k <= m; k++) lowNum.push((lowNum[k - 1] * -T * (m - k + 1)) / ((m + n - k + 1) * k));
  const lowDen = [1];
  for (let k = 1; k <= n; k++) lowDen.push((lowDen[k - 1] * T * (n - k + 1)) / ((m + n - k + 1) * k));
  const lead = lowDen[n];
  const num = lowNum.map((c) => c / lead).reverse();
  const den = lowDen.map((c) => c / lead).reverse();
  if ([...num, ...den].some((c) => !Number.isFinite(c) || c === 0))
    throw new ControlError(
      `pade: T = ${T} s with N = ${n} gives coefficients (T^k and 1/T^k) beyond double precision; rescale the time unit (e.g. ms or min) so that T is nearer 1.`,
      'numerical',
    );
  return { num, den, numdeg: m };
}

/** a Matrix (rows) as a Mat of the given size (a 0 x m or p x 0 matrix has no rows to say it) */
function mk(M: Matrix, r: number, c: number): Mat {
  const out = zeros(r, c);
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) out.d[i * c + j] = M[i][j];
  return out;
}

const lti = (s: SS): Lti => ({ A: mk(s.A, s.n, s.n), B: mk(s.B, s.n, s.m), C: mk(s.C, s.p, s.n), D: mk(s.D, s.p, s.m) });

/** the approximant's controllable canonical realisation, as an Lti */
function approximantLti(num: number[], den: number[]): Lti {
  const r = tf2ss(num, den);
  const n = r.A.length;
  return lti({ A: r.A, B: r.B, C: n ? r.C : [[]], D: r.D, n, m: 1, p: 1, Ts: 0 });
}

export interface PadeResult {
  /** the approximant (no system given) or the delay-free system (SISO) */
  num?: number[];
  den?: number[];
  /** the approximant of e^{−sT} alone */
  padeNum: number[];
  padeDen: number[];
  N: number;
  numdeg: number;
  T: number;
  /** with a system: the series connection (state space) */
  A?: Matrix;
  B?: Matrix;
  C?: Matrix;
  D?: Matrix;
  /** with a system: where the delay acts */
  delayAt?: 'input' | 'output';
}

export function runPade(args: Record<string, any>): PadeResult {
  const T = args.T;
  if (T === undefined || T === null) throw new ControlError('pade needs the delay T in seconds (e^(−sT)).');
  if (args.N === undefined || args.N === null) throw new ControlError('pade needs the order N (an integer 1..10 is usual).');
  const p = padeCoefficients(T, args.N, args.numdeg ?? undefined);
  const base = { padeNum: p.num, padeDen: p.den, N: args.N as number, numdeg: p.numdeg, T: T as number };
  const hasSys = ['num', 'den', 'A', 'B', 'C', 'D'].some((k) => args[k] !== undefined && args[k] !== null);
  if (!hasSys) {
    if (args.delayAt !== undefined)
      throw new ControlError("pade: delayAt ('input' or 'output') applies to a system (num/den or A, B, C, D), and none is given.");
    return { num: p.num, den: p.den, ...base };
  }
  if (args.Ts !== undefined && args.Ts !== null && args.Ts !== 0)
    throw new ControlError(
      `pade: the system is discrete (Ts = ${args.Ts}); a Padé approximation replaces a continuous delay e^(−sT). A discrete delay of k samples is z^−k (MATLAB absorbDelay), a fractional one a Thiran filter (thiran).`,
    );
  const { tf, ss } = readTfOrSs({ ...args, Ts: undefined }, 'pade');
  const at: 'input' | 'output' = args.delayAt === 'output' ? 'output' : 'input';
  if (tf) {
    const num = polyStrip(conv(tf.num, p.num));
    const den = polyStrip(conv(tf.den, p.den));
    if (num.length > den.length)
      throw new ControlError(
        `pade: the transfer function is improper (numerator degree ${tf.num.length - 1} > denominator degree ${tf.den.length - 1}); a delayed system needs deg num <= deg den to be realised.`,
      );
    const r = tf2ss(num, den);
    return { num, den, ...base, A: r.A, B: r.B, C: r.A.length ? r.C : [], D: r.D, delayAt: at };
  }
  const sys = ss!;
  const R = approximantLti(p.num, p.den);
  const k = at === 'input' ? sys.m : sys.p;
  const bank = k === 1 ? R : appendSS(Array.from({ length: k }, () => R));
  const L = at === 'input' ? seriesSS(bank, lti(sys)) : seriesSS(lti(sys), bank);
  const out: PadeResult = { ...base, A: toRows(L.A), B: toRows(L.B), C: toRows(L.C), D: toRows(L.D), delayAt: at };
  if (sys.m === 1 && sys.p === 1) {
    const t = ss2tf(out.A!, out.B!, out.C!, out.D!);
    out.num = t.num;
    out.den = t.den;
  }
  return out;
}

// ------------------------------------------------------------------ Thiran

export interface ThiranResult {
  num: number[];
  den: number[];
  Ts: number;
  /** the filter order N = ceil(tau/Ts) (the delay in samples for an integer multiple) */
  order: number;
  /** the delay in samples, tau/Ts */
  D: number;
  /** tau is an integer multiple of Ts: H(z) = z^−D exactly */
  integer: boolean;
}

/** a delay in samples this close to an integer (relative) is that integer: z^−k exactly */
const INTEGER_TOL = 1e-9;

export function thiran(tau: number, Ts: number): ThiranResult {
  if (!(typeof tau === 'number' && Number.isFinite(tau) && tau >= 0))
    throw new ControlError(`thiran: the delay tau must be a finite number of seconds >= 0, not ${tau}.`);
  if (!(typeof Ts === 'number' && Number.isFinite(Ts) && Ts > 0))
    throw new ControlError(`thiran: the sample time Ts must be a number of seconds > 0, not ${Ts}.`);
  const D = tau / Ts;
  const k = Math.round(D);
  if (Math.abs(D - k) <= INTEGER_TOL * Math.max(1, D)) {
    if (k > 10 * THIRAN_MAX_ORDER)
      throw new ControlError(`thiran: tau/Ts = ${k} samples is above the limit of ${10 * THIRAN_MAX_ORDER} samples of delay.`, 'limit');
    return { num: [1], den: [1, ...new Array(k).fill(0)], Ts, order: k, D: k, integer: true };
  }
  const N = Math.ceil(D);
  if (N > THIRAN_MAX_ORDER)
    throw new ControlError(
      `thiran: tau/Ts = ${D.toPrecision(6)} samples needs a filter of order ${N}, above the limit of ${THIRAN_MAX_ORDER}; sample more slowly, or split off the whole samples as z^−k and approximate the fractional rest.`,
      'limit',
    );
  const a = [1];
  let binom = 1;
  for (let j = 1; j <= N; j++) {
    binom = (binom * (N - j + 1)) / j;
    let prod = 1;
    for (let i = 0; i <= N; i++) prod *= (D - N + i) / (D - N + j + i);
    a.push((j % 2 ? -1 : 1) * binom * prod);
  }
  return { num: a.slice().reverse(), den: a, Ts, order: N, D, integer: false };
}

// ------------------------------------------------------------------ the tools' shared parts

const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

function tfText(num: number[], den: number[], v: string, o: RenderOptions): string {
  return `(${polyText(num, v, o.digits)}) / (${polyText(den, v, o.digits)})`;
}

function renderPade(args: Record<string, any>, r: PadeResult, o: RenderOptions): string {
  const order = r.numdeg === r.N ? `${ordinal(r.N)}-order` : `[${r.numdeg}/${r.N}]`;
  const approx = `e^(−${fmt(r.T)}s) ≈ ${tfText(r.padeNum, r.padeDen, 's', o)}`;
  const out: string[] = [];
  if (r.T === 0) out.push('**No delay (T = 0):** the approximant is 1.');
  else if (r.A === undefined) {
    out.push(`**${order} Padé approximation of a ${fmt(r.T)} s delay:**`, `**H(s) = ${approx}**`);
  } else {
    const where = Array.isArray(args.num) ? 'the delay' : `the delay at the ${r.delayAt === 'output' ? 'output' : 'input'}`;
    out.push(`**The system with a ${fmt(r.T)} s delay, ${where} replaced by its ${order} Padé approximation** (MATLAB pade(sys, ${r.N})):`, `Padé: ${approx}`);
    if (Array.isArray(r.num) && Array.isArray(r.den)) out.push(`**Rational model** (the delay replaced by the approximant): ${tfText(r.num, r.den, 's', o)}`);
    if (!Array.isArray(args.num)) out.push(...(['A', 'B', 'C', 'D'] as const).map((k) => matrixBlock(k, r[k]!, o)));
    out.push(
      Array.isArray(args.num)
        ? `State space: the controllable canonical form of the product (${r.A.length} states).`
        : `States: the system's first, then the approximant's (${r.delayAt === 'output' ? 'one per output' : 'one copy per input'}); MATLAB may order them differently (compare the transfer functions).`,
    );
  }
  if (r.T > 0) {
    out.push(
      r.numdeg === r.N
        ? `All-pass: |H(jω)| = 1 at every frequency; the phase −ωT is matched to order ${2 * r.N} at ω = 0, good well below ω ≈ ${fmt(r.N / r.T, 3)} rad/s (N/T). Poles in the left half-plane, zeros their mirror images: the step response starts with an undershoot.`
        : `Numerator degree ${r.numdeg} < ${r.N} (python-control's numdeg): strictly proper, not all-pass; e^(−sT) matched to order ${r.numdeg + r.N} at s = 0.`,
    );
    if (r.N > PADE_ADVISED_ORDER) out.push(`Order ${r.N} is above ${PADE_ADVISED_ORDER}, beyond which MATLAB's pade page warns of ill-conditioned poles.`);
  }
  return out.join('\n\n');
}

function renderThiran(args: Record<string, any>, r: ThiranResult, o: RenderOptions): string {
  const H = tfText(r.num, r.den, 'z', o);
  if (r.integer)
    return [
      `**A delay of ${fmt(args.tau)} s at Ts = ${fmt(r.Ts)} s is ${r.order} sample${r.order === 1 ? '' : 's'}:** H(z) = ${r.order === 0 ? '1' : `z^−${r.order}`}, exactly (no approximation).`,
      `As a transfer function: ${H}.`,
    ].join('\n\n');
  return [
    `**Thiran all-pass filter of order ${r.order}** for a delay of ${fmt(args.tau)} s at Ts = ${fmt(r.Ts)} s (${fmt(r.D)} samples, not a whole number; MATLAB thiran(tau, Ts)):`,
    `**H(z) = ${H}**`,
    `All-pass (|H(e^{jωTs})| = 1); its group delay is ${fmt(r.D)} samples at DC and maximally flat there; the order is ceil(tau/Ts) = ${r.order}, its poles inside the unit circle.`,
  ].join('\n\n');
}

/** the system in MATLAB / python-control, named `name` (num/den or A, B, C, D), continuous */
function sysCode(code: Code, a: Record<string, any>, name: string, delay: string): void {
  const M = code.lang === 'matlab';
  if (Array.isArray(a.num)) {
    code.assign('num', vectorLiteral(a.num, code.lang)).assign('den', vectorLiteral(a.den, code.lang));
    code.assign(name, M ? `tf(num, den${delay})` : 'ct.tf(num, den)');
    return;
  }
  const B = a.B as Matrix;
  const D = Array.isArray(a.D) && a.D.length ? (a.D as Matrix) : (a.C as Matrix).map(() => B[0].map(() => 0));
  code.mat('A', a.A).mat('B', B).mat('C', a.C).mat('D', D);
  code.assign(name, M ? `ss(A, B, C, D${delay})` : 'ct.ss(A, B, C, D)');
}

function resultPlots(model: (a: Record<string, any>, r: Record<string, any>) => Record<string, unknown> | undefined, what: string) {
  return (args: Record<string, any>, r: Record<string, any> | undefined): PlotSpec[] => {
    const sys = r ? model(args, r) : undefined;
    if (!sys) return [];
    return [
      { kind: 'step', args: sys, title: `Plot step response of ${what}` },
      { kind: 'bode', args: sys, title: `Plot Bode of ${what}` },
    ];
  };
}

const delayAtProp = {
  delayAt: {
    type: 'string',
    enum: ['input', 'output'],
    description:
      "where the delay acts on a state-space system: 'input' (MATLAB InputDelay, default) or 'output' (OutputDelay); for a SISO transfer function both give the same model (MATLAB IODelay)",
  },
};

export const tools = [
  tool({
    name: 'pade',
    words: {
      calls: [{ names: ['pade'], args: ['T', 'N', 'numdeg'], keywords: { n: 'N', numdeg: 'numdeg', T: 'T' } }],
      phrases: [
        'padé approximation',
        'pade approximation',
        'padé approximant',
        'pade approximant',
        'padé',
        'pade',
        'rational approximation of the delay',
        'rational approximation of a delay',
        'rational approximation of the time delay',
      ],
      aliases: { T: ['delay', 'tau', 'Td', 'theta', 'L'], N: ['n', 'order'] },
      example: '/pade T=0.5, N=3',
    },
    brief: 'Padé approximant of the delay e^(−sT) of order N (num, den), or a system with delay T in series with it.',
    title: 'Padé approximation of a time delay',
    description:
      'Rational approximation of the continuous time delay e^(−sT) (T in seconds) of order N (MATLAB [num, den] = pade(T, N), python-control ct.pade(T, N)): numerator and denominator of degree N, highest power first, denominator monic; all-pass, phase matched to order 2N at ω = 0. ' +
      "Optional numdeg < N (python-control's numerator degree; negative: N + numdeg). N from 1 to 20 (MATLAB advises N <= 10). " +
      "With a continuous system (num/den, or A, B, C, D) that has the delay T at its input (delayAt 'input', default) or output ('output'): the delay-free model, the system in series with the approximant (MATLAB pade(sys, N)). " +
      "Returns num, den (the approximant, or the delayed system when SISO), padeNum, padeDen (the approximant), N, numdeg, T and, with a system, A, B, C, D (states: the system's, then the approximant's).",
    parameters: {
      type: 'object',
      properties: {
        T: { type: 'number', minimum: 0, description: 'the delay in seconds (e^(−sT))' },
        N: { type: 'integer', description: 'approximation order, the denominator degree (1..20; MATLAB advises <= 10)' },
        numdeg: { type: 'integer', description: "numerator degree (python-control's numdeg, default N; negative: N + numdeg)" },
        ...tfProps,
        ...ssProps,
        Ts: {
          type: 'number',
          description: "the system's sample time: 0 or absent (a Padé approximation replaces a continuous delay; a discrete one is refused, with what to use)",
        },
        ...delayAtProp,
      },
      required: ['T', 'N'],
      additionalProperties: false,
    },
    run: runPade,
    intro:
      '**Padé approximation.** e^(−sT) is replaced by the rational function whose Taylor series at s = 0 agrees with it to the highest order the degrees allow (numerator and denominator of degree N: all-pass, order 2N).',
    render: renderPade,
    code: {
      title: 'Padé approximation of a time delay',
      gen(code, a, r) {
        const M = code.lang === 'matlab';
        const T = numberLiteral(a.T, code.lang);
        const N = String(a.N);
        const hasSys = Array.isArray(a.num) || Array.isArray(a.A);
        const numdeg = a.numdeg !== undefined && a.numdeg !== null && a.numdeg !== a.N ? a.numdeg : undefined;
        if (M && numdeg !== undefined) code.comment(`MATLAB's pade has no numerator degree: numdeg = ${numdeg} is python-control's pade(T, N, numdeg)`);
        if (!hasSys) {
          if (M) code.line(`[num, den] = pade(${T}, ${N});`);
          else code.line(`num, den = ct.pade(${T}, ${N}${numdeg !== undefined ? `, ${numdeg}` : ''})`);
          if (r) code.comment(verdictHolder).expect('num', r.num).expect('den', r.den);
          return;
        }
        const at = a.delayAt === 'output' ? 'output' : 'input';
        const tfSys = Array.isArray(a.num);
        if (M) {
          sysCode(code, a, 'sys', `, '${tfSys ? 'IODelay' : at === 'output' ? 'OutputDelay' : 'InputDelay'}', ${T}`);
          code.line(`sysx = pade(sys, ${N});`);
          code.line(tfSys ? "[numx, denx] = tfdata(sysx, 'v');" : '[Ax, Bx, Cx, Dx] = ssdata(sysx);');
          if (!tfSys) code.comment('the state order may differ from ours (the system first, then the approximant): compare tf(sysx)');
        } else {
          sysCode(code, a, 'sys', '');
          code.line(`pnum, pden = ct.pade(${T}, ${N}${numdeg !== undefined ? `, ${numdeg}` : ''})`);
          if (tfSys) {
            code.line('sysx = ct.tf(pnum, pden) * sys   # the delay e^(-sT) in series');
            code.line('numx, denx = sysx.num[0][0], sysx.den[0][0]');
          } else {
            const k = at === 'output' ? 'sys.noutputs' : 'sys.ninputs';
            code.line(`delay = ct.append(*[ct.ss(ct.tf(pnum, pden))] * ${k})   # one approximant per ${at}`);
            code.line(at === 'output' ? 'sysx = ct.series(sys, delay)   # delay after the system' : 'sysx = ct.series(delay, sys)   # delay before the system');
            code.line('Ax, Bx, Cx, Dx = sysx.A, sysx.B, sysx.C, sysx.D   # the realisation may differ: compare ct.ss2tf(sysx)');
          }
        }
        if (r) {
          code.comment(verdictHolder).expect('pade_num', r.padeNum).expect('pade_den', r.padeDen);
          if (Array.isArray(r.num)) code.expect('numx', r.num).expect('denx', r.den);
          if (!tfSys) code.expect('Ax', r.A).expect('Bx', r.B).expect('Cx', r.C).expect('Dx', r.D);
        }
      },
    },
    model: BY_LOOKUP,
    plots: resultPlots(
      (_a, r) =>
        Array.isArray(r.num) && Array.isArray(r.den)
          ? { num: r.num, den: r.den }
          : Array.isArray(r.A) && r.A.length
            ? { A: r.A, B: r.B, C: r.C, D: r.D }
            : undefined,
      'the approximation',
    ),
  }),
  tool({
    name: 'thiran',
    words: {
      calls: [{ names: ['thiran'], args: ['tau', 'Ts'] }],
      phrases: [
        'thiran',
        'thiran filter',
        'thiran all-pass',
        'thiran allpass',
        'fractional delay filter',
        'fractional-delay filter',
        'fractional delay',
        'discrete fractional delay',
      ],
      aliases: { tau: ['delay', 'T', 'Td'], Ts: ['dt', 'h'] },
      example: '/thiran tau=2.4, Ts=1',
    },
    brief: 'Thiran all-pass filter of a delay tau sampled at Ts (a whole number of samples: z^-k).',
    title: 'Thiran fractional-delay filter',
    description:
      'Discrete approximation of a delay tau (seconds) at the sample time Ts (MATLAB thiran(tau, Ts)): D = tau/Ts samples; an integer D gives z^−D exactly, otherwise the Thiran all-pass filter of order N = ceil(D), maximally flat group delay D at DC: ' +
      'a_k = (−1)^k C(N,k) Π_{i=0..N} (D−N+i)/(D−N+k+i), H(z) = (a_N z^N + … + a_0)/(a_0 z^N + … + a_N). Order at most 50. Returns num, den (in z, highest power first), Ts, order, D and integer.',
    parameters: {
      type: 'object',
      properties: {
        tau: { type: 'number', minimum: 0, description: 'the delay in seconds' },
        Ts: { type: 'number', exclusiveMinimum: 0, description: 'sample time in seconds (> 0)' },
      },
      required: ['tau', 'Ts'],
      additionalProperties: false,
    },
    run: (args): ThiranResult => thiran(args.tau, args.Ts),
    intro: null,
    render: renderThiran,
    code: {
      title: 'Thiran fractional-delay filter',
      gen(code, a, r) {
        const M = code.lang === 'matlab';
        const tau = numberLiteral(a.tau, code.lang),
          Ts = numberLiteral(a.Ts, code.lang);
        if (M) {
          code.line(`H = thiran(${tau}, ${Ts});`);
          code.line("[num, den] = tfdata(H, 'v');");
        } else {
          code.comment("python-control has no thiran: MATLAB's formula written out");
          code.line('from scipy.special import comb');
          code.line(`tau, Ts = ${tau}, ${Ts}`);
          code.line('D = tau / Ts');
          code.line('if abs(D - round(D)) <= 1e-9 * max(1, D):   # a whole number of samples: z^-D');
          code.line('    num, den = np.array([1.0]), np.r_[1.0, np.zeros(round(D))]');
          code.line('else:');
          code.line('    N = int(np.ceil(D))');
          code.line('    a = np.array([(-1) ** k * comb(N, k) * np.prod([(D - N + i) / (D - N + k + i) for i in range(N + 1)]) for k in range(N + 1)])');
          code.line('    num, den = a[::-1], a');
          code.line('H = ct.tf(num, den, Ts)');
        }
        if (r) code.comment(verdictHolder).expect('num', r.num).expect('den', r.den);
      },
    },
    model: BY_LOOKUP,
    plots: resultPlots((_a, r) => ({ num: r.num, den: r.den, Ts: r.Ts }), 'the filter'),
  }),
];
