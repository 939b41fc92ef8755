/**
 * Properties of a linear time-invariant model that read off its poles (python-control's
 * lti.py): `damp`, the natural frequency, damping ratio and time constant of each pole.
 *
 * Conventions (MATLAB's `damp` and python-control's `damp` agree except where said):
 * - continuous pole s: ωn = |s|, ζ = −Re(s)/|s|, τ = −1/Re(s) (MATLAB's 1/(ζωn); negative for
 *   an unstable pole, Infinity on the imaginary axis);
 * - discrete pole z (Ts > 0): the same of the equivalent continuous pole s = ln(z)/Ts; z = 0
 *   (a deadbeat mode) has s = −∞: ωn = Infinity, ζ = 1, τ = 0;
 * - a pole at s = 0 (or z = 1) has ωn = 0 and no damping ratio: ζ = NaN, as python-control
 *   (MATLAB reports −1);
 * - sorted by ωn ascending as MATLAB does (python-control keeps the eigensolver's order), a
 *   conjugate pair negative imaginary part first.
 */
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import { matrix } from '../tools/schema.js';
import { checkCols, checkMatrix, checkRows, checkSquare } from '../tools/args.js';
import { fmtComplex, fmt } from '../render/format.js';
import type { RenderOptions } from '../render/markdown.js';
import type { Complex, Matrix } from '../types.js';
import { num as numberLiteral, vector as vectorLiteral } from '../codegen/literals.js';
import { verdictHolder } from '../codegen/code.js';
import { systemPlots } from '../plot/specs.js';
import { polyRoots, polyStrip } from '../linalg/poly.js';
import { eigenvalues } from './statesp.js';
import { cplx, readTfOrSs, readTs, tfProps, tsProp } from './_sys.js';

export interface DampResult {
  poles: Complex[];
  wn: number[];
  zeta: number[];
  tau: number[];
}

/** ωn, ζ, τ of one pole; discrete poles through s = ln(z)/Ts */
export function dampOf([re, im]: Complex, Ts: number): { wn: number; zeta: number; tau: number } {
  if (Ts > 0) {
    const r = Math.hypot(re, im);
    if (r === 0) return { wn: Infinity, zeta: 1, tau: 0 };
    [re, im] = [Math.log(r) / Ts, Math.atan2(im, re) / Ts];
  }
  const wn = Math.hypot(re, im);
  const zeta = wn === 0 ? NaN : -re / wn;
  return { wn, zeta: zeta === 0 ? 0 : zeta, tau: re === 0 ? Infinity : -1 / re };
}

export function damp(poles: Complex[], Ts: number): DampResult {
  const rows = poles.map((p) => ({ p: cplx(p[0], p[1]), ...dampOf(p, Ts) }));
  rows.sort((a, b) => a.wn - b.wn || a.p[0] - b.p[0] || a.p[1] - b.p[1]);
  return { poles: rows.map((r) => r.p), wn: rows.map((r) => r.wn), zeta: rows.map((r) => r.zeta), tau: rows.map((r) => r.tau) };
}

function renderDamp(args: Record<string, any>, r: DampResult, o: RenderOptions): string {
  const Ts = typeof args.Ts === 'number' && args.Ts > 0 ? args.Ts : 0;
  if (!r.poles.length) return '**Poles:** none: the model has no states (0 states), a static gain.';
  const show = (x: number) => (Number.isNaN(x) ? '–' : x === Infinity ? '∞' : fmt(x, o.digits));
  const labels = r.poles.map((p) => fmtComplex(p, o.digits));
  const head = Ts ? '| pole z | ωn of ln(z)/Ts (rad/s) | ζ | τ (s) |' : '| pole | ωn (rad/s) | ζ | τ (s) |';
  const rows = r.poles.map((_, i) => `| ${labels[i]} | ${show(r.wn[i])} | ${show(r.zeta[i])} | ${show(r.tau[i])} |`);
  const notes: string[] = [];
  if (r.zeta.some((z) => Number.isNaN(z)))
    notes.push(
      `A pole at ${Ts ? 'z = 1' : 's = 0'} has ωn = 0 and no damping ratio (shown as –; MATLAB's damp reports ζ = −1, python-control gives not-a-number).`,
    );
  if (r.tau.some((t) => t < 0)) notes.push('A negative τ is an unstable pole: the mode grows like e^(t/|τ|).');
  return [
    `**Damping of each pole**, sorted by natural frequency${Ts ? ` (discrete, Ts = ${fmt(Ts)} s: of the equivalent continuous pole s = ln(z)/Ts)` : ''}:`,
    [head, '|---|---:|---:|---:|', ...rows].join('\n'),
    ...notes,
  ].join('\n\n');
}

export const tools = [
  tool({
    name: 'damp',
    words: {
      // no call forms: a pasted damp(sys) reads as analyse, whose modes table holds the same
      // ωn, ζ and τ beside stability and controllability (the reading says so); /damp is this table alone
      calls: [],
      // plural and about the poles: "damping ratio 0.7 and natural frequency 2 rad/s" is a design
      // specification (place), never a request for this table
      phrases: [
        'damping of each pole',
        'damping of the poles',
        'damping of its poles',
        'natural frequencies and damping',
        'damping and natural frequencies',
        'natural frequencies and damping ratios',
        'damping ratios and natural frequencies',
      ],
      example: '/damp A=[0 1; -4 -0.8]',
      poleOnly: true,
    },
    title: 'Natural frequency and damping of the poles',
    brief: 'Natural frequency, damping ratio and time constant of each pole.',
    description:
      'Natural frequency ωn = |s|, damping ratio ζ = −Re(s)/|s| and time constant τ = −1/Re(s) of each pole of a model: A (the eigenvalues), A, B, C, D, or num/den. ' +
      'Discrete (Ts > 0): of the equivalent continuous pole s = ln(z)/Ts. Sorted by ωn ascending, as MATLAB damp.',
    parameters: {
      type: 'object',
      properties: {
        A: matrix('state matrix A (n x n); the poles are its eigenvalues'),
        B: matrix('input matrix B (n x m), optional: the poles do not depend on it'),
        C: matrix('output matrix C (p x n), optional'),
        D: matrix('feedthrough D (p x m), optional'),
        ...tfProps,
        ...tsProp,
      },
      additionalProperties: false,
    },
    nonFinite: ['wn', 'zeta', 'tau'],
    run(args): DampResult {
      const Ts = readTs(args);
      if (args.num !== undefined || args.den !== undefined) {
        const { tf } = readTfOrSs(args, 'damp');
        return damp(polyRoots(polyStrip(tf!.den)), Ts);
      }
      if (args.A === undefined) throw new ControlError('damp needs a model: A (or A, B, C, D), or a transfer function num/den.');
      const A = checkMatrix(args.A, 'A') as Matrix;
      const n = checkSquare(A, 'A', true);
      // B, C, D do not move the poles, but a model written with them must still be one model
      if (args.B !== undefined && args.C !== undefined) readTfOrSs({ A, B: args.B, C: args.C, ...(args.D !== undefined ? { D: args.D } : {}) }, 'damp');
      else {
        if (args.B !== undefined) checkRows(checkMatrix(args.B, 'B'), n, 'B', 'A');
        if (args.C !== undefined) checkCols(checkMatrix(args.C, 'C'), n, 'C', 'A');
      }
      return damp(n ? eigenvalues(A) : [], Ts);
    },
    intro:
      "**Damping.** For each pole: natural frequency ωn = |s|, damping ratio ζ = −Re(s)/|s| and time constant τ = −1/Re(s) (discrete: of s = ln(z)/Ts), sorted by ωn as MATLAB's damp.",
    render: renderDamp,
    code: {
      title: 'natural frequency and damping of each pole',
      gen(code, a, r) {
        const M = code.lang === 'matlab';
        const Ts = typeof a.Ts === 'number' && a.Ts > 0 ? `, ${numberLiteral(a.Ts, code.lang)}` : '';
        if (Array.isArray(a.num)) {
          code.assign('num', vectorLiteral(a.num, code.lang)).assign('den', vectorLiteral(a.den, code.lang));
          code.assign('sys', `${M ? 'tf' : 'ct.tf'}(num, den${Ts})`);
        } else {
          const n = (a.A as Matrix).length;
          code.mat('A', a.A);
          // the poles are eig(A): B, C, D only size the model
          if (M) code.assign('sys', `ss(A, zeros(${n}, 1), zeros(1, ${n}), 0${Ts})`);
          else code.assign('sys', `ct.ss(A, np.zeros((${n}, 1)), np.zeros((1, ${n})), 0${Ts})`);
        }
        if (M) code.line('[wn, zeta, p] = damp(sys)   % sorted by wn; a pole at 0 has zeta = -1 in MATLAB');
        else code.line("wn, zeta, p = ct.damp(sys, doprint=False)   # python-control keeps the eigensolver's order; sort by wn to compare");
        if (r) code.comment(verdictHolder).expect('wn', r.wn).expect('zeta', r.zeta);
      },
    },
    model: BY_LOOKUP,
    plots: systemPlots('pzmap'),
  }),
];
