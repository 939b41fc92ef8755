/**
 * The value of a model's transfer function at one complex point (MATLAB evalfr(sys, x),
 * python-control evalfr(sys, x) / sys(x)): H(s) = C(sI − A)⁻¹B + D, or num(s)/den(s); for a
 * discrete model the point is z. A point on a pole is refused with a ControlError (MATLAB
 * returns Inf there, python-control inf with a warning): the value is not a number.
 */
import { ControlError } from '../errors.js';
import { tool } from '../tools/types.js';
import type { Complex, Matrix } from '../types.js';
import { EPS, fromRows, maxAbs, mul, norm1 } from '../linalg/dense.js';
import { hessenbergSystem, hessShiftSolve } from '../linalg/hessenberg.js';
import { polyvalC } from '../linalg/poly.js';
import { fmt, fmtComplex } from '../render/format.js';
import { verdictHolder } from '../codegen/code.js';
import { num as numberLiteral, vector as vectorLiteral, matrix as matrixLiteral } from '../codegen/literals.js';
import { cplx, readTfOrSs, tfProps, tsProp, ssProps } from './_sys.js';

export interface EvalfrResult {
  /** p x m matrix of [re, im] */
  value: Complex[][];
  /** SISO only: |H| and its phase in degrees (−180, 180] */
  magnitude?: number;
  phaseDeg?: number;
}

/** the point as [re, im]: a number, [re, im], or [re] */
export function readPoint(x: unknown, name = 's'): Complex {
  if (typeof x === 'number' && Number.isFinite(x)) return [x, 0];
  if (Array.isArray(x) && (x.length === 1 || x.length === 2) && x.every((v) => typeof v === 'number' && Number.isFinite(v))) return [x[0], x[1] ?? 0];
  // one complex number written as a list of one ([[re, im]], as a pole list reads it)
  if (Array.isArray(x) && x.length === 1 && Array.isArray(x[0])) return readPoint(x[0], name);
  throw new ControlError(`${name} must be a finite complex number: a real number, or [re, im] (e.g. [0, 2] for 2j), not ${JSON.stringify(x)}.`);
}

const cdiv = ([a, b]: Complex, [c, d]: Complex): Complex => {
  if (Math.abs(c) >= Math.abs(d)) {
    const r = d / c,
      t = c + d * r;
    return [(a + b * r) / t, (b - a * r) / t];
  }
  const r = c / d,
    t = c * r + d;
  return [(a * r + b) / t, (b * r - a) / t];
};

const pointText = (s: Complex, v: string) => `${v} = ${fmtComplex(s)}`;

export function evalfr(args: Record<string, any>): EvalfrResult {
  const s = readPoint(args.s);
  const { tf, ss } = readTfOrSs(args, 'evalfr');
  const v = (tf?.Ts ?? ss?.Ts) ? 'z' : 's';
  let value: Complex[][];
  if (tf) {
    const d = polyvalC(tf.den, s[0], s[1]);
    // |den(s)| within rounding of its terms: s is a root of den (a pole, or a cancelled common factor)
    const r = Math.hypot(s[0], s[1]);
    const bound = tf.den.reduce((acc, c) => acc * r + Math.abs(c), 0);
    if (Math.hypot(d[0], d[1]) <= 8 * tf.den.length * EPS * bound)
      throw new ControlError(
        `evalfr: ${pointText(s, v)} is a root of den (a pole of the transfer function): the value is infinite there. Evaluate at a point off the poles.`,
        'infeasible',
      );
    const n = polyvalC(tf.num, s[0], s[1]);
    value = [[cplx(...cdiv(n, d))]];
  } else {
    const sys = ss!;
    const { n, m, p } = sys;
    if (n === 0) value = sys.D.map((row) => row.map((x) => cplx(x, 0)));
    else {
      const A = fromRows(sys.A);
      const { H, Bt, Ct } = hessenbergSystem(A, fromRows(sys.B), fromRows(sys.C));
      const X = hessShiftSolve(H, s[0], s[1], Bt);
      // sI − A singular to working precision: s is an eigenvalue of A
      const big = X ? Math.max(maxAbs(X.re), maxAbs(X.im)) : Infinity;
      const limit = (maxAbs(Bt) || 1) / (1e3 * n * EPS * Math.max(norm1(A), Math.hypot(s[0], s[1]), Number.MIN_VALUE));
      if (!X || !(big < limit))
        throw new ControlError(
          `evalfr: ${pointText(s, v)} is an eigenvalue of A (a pole of the model, or a mode that cancels): C(sI − A)⁻¹B + D is not defined there. Evaluate at a point off the poles.`,
          'infeasible',
        );
      const re = mul(Ct, X.re),
        im = mul(Ct, X.im);
      value = Array.from({ length: p }, (_, i) => Array.from({ length: m }, (_, j) => cplx(re.d[i * m + j] + sys.D[i][j], im.d[i * m + j])));
    }
  }
  const out: EvalfrResult = { value };
  if (value.length === 1 && value[0].length === 1) {
    const [a, b] = value[0][0];
    out.magnitude = Math.hypot(a, b);
    const ph = (Math.atan2(b, a) * 180) / Math.PI;
    out.phaseDeg = ph === -180 ? 180 : ph === 0 ? 0 : ph;
  }
  return out;
}

export const tools = [
  tool({
    name: 'evalfr',
    words: {
      calls: [
        { names: ['evalfr'], args: ['sys', 's'] },
        { names: ['evalfr'], args: ['sys', 's'], keywords: { x: 's' } },
      ],
      phrases: ['evalfr', 'evaluate the transfer function at', 'value of the transfer function at', 'transfer function evaluated at'],
      aliases: { s: ['x', 'z', 'point'] },
      example: '/evalfr num=[1 2], den=[1 3 2], s=[1, 1]',
    },
    brief: 'Value of H(s) (or H(z)) at one complex point s = [re, im].',
    title: 'Transfer function at a complex point',
    description:
      'The value of a model, num/den or A, B, C, D (Ts > 0: discrete, the point is z), at one complex point s, as MATLAB evalfr(sys, s) and python-control evalfr(sys, s) / sys(s): H(s) = C(sI − A)⁻¹B + D or num(s)/den(s). ' +
      's: a real number or [re, im]. Returns value (p x m matrix of [re, im]) and, for SISO, magnitude and phaseDeg. A point on a pole is refused with an error (MATLAB returns Inf there). For the frequency response at ω use freqresp (s = jω).',
    parameters: {
      type: 'object',
      properties: {
        ...ssProps,
        ...tfProps,
        ...tsProp,
        s: {
          description: 'the complex point: a real number, or [re, im] (for a discrete model it is z)',
          anyOf: [
            { type: 'number' },
            { type: 'array', items: { type: 'number' }, minItems: 1, maxItems: 2 },
            { type: 'array', items: { type: 'array', items: { type: 'number' }, minItems: 1, maxItems: 2 }, minItems: 1, maxItems: 1 },
          ],
        },
      },
      required: ['s'],
      additionalProperties: false,
    },
    run: evalfr,
    intro: null,
    render(args, r) {
      const s = readPoint(args.s);
      const v = typeof args.Ts === 'number' && args.Ts > 0 ? 'z' : 's';
      if (r.magnitude !== undefined)
        return `**H(${fmtComplex(s)}) = ${fmtComplex(r.value[0][0])}** (${v} = ${fmtComplex(s)}): magnitude ${fmt(r.magnitude)}, phase ${fmt(r.phaseDeg!)}°.`;
      const rows = r.value.map((row, i) => `| ${i + 1} | ${row.map((z) => fmtComplex(z)).join(' | ')} |`);
      return [
        `**H(${fmtComplex(s)})** (${v} = ${fmtComplex(s)}), ${r.value.length} x ${r.value[0].length} (row: output, column: input):`,
        [`| out \\ in | ${r.value[0].map((_, j) => j + 1).join(' | ')} |`, `|---|${r.value[0].map(() => '---:').join('|')}|`, ...rows].join('\n'),
      ].join('\n\n');
    },
    code: {
      title: 'transfer function at a complex point',
      gen(code, a, r) {
        const M = code.lang === 'matlab';
        const Ts = typeof a.Ts === 'number' && a.Ts > 0 ? `, ${numberLiteral(a.Ts, code.lang)}` : '';
        if (Array.isArray(a.num)) {
          code.assign('num', vectorLiteral(a.num, code.lang)).assign('den', vectorLiteral(a.den, code.lang));
          code.assign('sys', `${M ? 'tf' : 'ct.tf'}(num, den${Ts})`);
        } else {
          const A = a.A as Matrix;
          const D = Array.isArray(a.D) && a.D.length ? a.D : (a.C as Matrix).map(() => (a.B as Matrix)[0].map(() => 0));
          code.line(`A = ${matrixLiteral(A, code.lang)}${M ? ';' : ''}`).line(`B = ${matrixLiteral(a.B, code.lang)}${M ? ';' : ''}`);
          code.line(`C = ${matrixLiteral(a.C, code.lang)}${M ? ';' : ''}`).line(`D = ${matrixLiteral(D, code.lang)}${M ? ';' : ''}`);
          code.assign('sys', `${M ? 'ss' : 'ct.ss'}(A, B, C, D${Ts})`);
        }
        const [re, im] = readPoint(a.s);
        const pt = M
          ? `${numberLiteral(re, code.lang)} + ${numberLiteral(im, code.lang)}i`
          : `complex(${numberLiteral(re, code.lang)}, ${numberLiteral(im, code.lang)})`;
        code.assign('x', pt);
        if (M) code.line('H = evalfr(sys, x)   % Inf at a pole (@control refuses the point)');
        else code.line('H = ct.evalfr(sys, x)   # the same as sys(x)');
        if (r) {
          code.comment(verdictHolder);
          r.value.forEach((row, i) =>
            row.forEach((z, j) => code.comment(`  H(${i + 1},${j + 1}) = ${z[0]} ${z[1] < 0 ? '-' : '+'} ${Math.abs(z[1])}${M ? 'i' : 'j'}`)),
          );
          if (r.magnitude !== undefined) code.expect('abs(H)', r.magnitude).expect('angle(H) in degrees', r.phaseDeg);
        }
      },
    },
    model: { none: 'a point value; the model uses freqresp for frequency responses. Reachable by /evalfr, the CLI and MCP' },
    plots: { none: 'one value at one point; plot the frequency response with a Bode request' },
  }),
];
