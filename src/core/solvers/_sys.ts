/**
 * Argument handling shared by the analysis tools: state-space (A, B, C, D) and transfer
 * function (num, den) arguments, with shape checks that name the argument and sizes.
 */
import { ControlError } from '../errors.js';
import { checkMatrix, checkSquare, fmtSize, size } from '../tools/args.js';
import { matrix, sampleTime, vector } from '../tools/schema.js';
import type { JsonSchema } from '../tools/types.js';
import type { Matrix } from '../types.js';
import { polyPad, polyStrip } from '../linalg/poly.js';
import { toRows, zeros } from '../linalg/dense.js';
import { isTfMatrixValue, readTfMatrix, readZpk, realiseTfMatrix, zpkToTfMatrix, zpkRoots, zpkGain, type TfMatrix } from './_tfm.js';

/** a state-space model as the tools take it (arrays of rows; the numerics convert to linalg's Mat) */
export interface SS {
  A: Matrix;
  B: Matrix;
  C: Matrix;
  D: Matrix;
  n: number;
  m: number;
  p: number;
  /** sample time; 0 for continuous time */
  Ts: number;
}

export interface TF {
  num: number[];
  den: number[];
  Ts: number;
}

export const ssProps: Record<string, JsonSchema> = {
  A: matrix('state matrix A (n x n)'),
  B: matrix('input matrix B (n x m)'),
  C: matrix('output matrix C (p x n)'),
  D: matrix('feedthrough matrix D (p x m); zero if omitted'),
};

export const tfProps: Record<string, JsonSchema> = {
  num: vector('numerator coefficients, highest power first (e.g. [1, 2] for s + 2)'),
  den: vector('denominator coefficients, highest power first (e.g. [1, 3, 2] for s^2 + 3s + 2)'),
};

export const tsProp: Record<string, JsonSchema> = { Ts: sampleTime };

export function readTs(args: Record<string, any>): number {
  const Ts = args.Ts;
  if (Ts === undefined || Ts === null) return 0;
  if (typeof Ts !== 'number' || !Number.isFinite(Ts) || Ts < 0)
    throw new ControlError(`Ts must be a sample time >= 0 (0 or absent means continuous time), not ${Ts}.`);
  return Ts;
}

/** refuses a model with more than one input or output, saying how to make it SISO */
export function requireSiso(sys: { m: number; p: number }, tool: string): void {
  if (sys.m !== 1 || sys.p !== 1)
    throw new ControlError(`${tool} needs a SISO model; this one has ${sys.m} inputs and ${sys.p} outputs (select one column of B and one row of C).`);
}

/** true when every row of M is empty: [] (0x0) or [[], ...] (k x 0) */
export function isEmptyMatrix(M: unknown): boolean {
  return Array.isArray(M) && M.every((r) => Array.isArray(r) && r.length === 0);
}

/**
 * A model with no states (n = 0): the static gain y = D u. A matrix of rows cannot hold a
 * 0 x m matrix (B = zeros(0, m) is written []), and tf2ss writes C as [] too, so the
 * numbers of inputs and outputs come from D, which is then required.
 */
function readStaticGain(args: Record<string, any>, tool: string): SS {
  const B = checkMatrix(args.B, 'B');
  if (!isEmptyMatrix(B)) throw new ControlError(`A is 0x0 (no states) but B is ${fmtSize(B)}; with no states B must be empty (0 x m: [] or zeros(0,m)).`);
  const C = checkMatrix(args.C, 'C');
  if (!isEmptyMatrix(C)) throw new ControlError(`A is 0x0 (no states) but C is ${fmtSize(C)}; with no states C must be empty (p x 0: [] or zeros(p,0)).`);
  if (args.D === undefined || args.D === null)
    throw new ControlError(
      `${tool}: A is 0x0 (no states), so the model is the static gain y = D u; give D (p x m). The numbers of inputs and outputs cannot be inferred from B = [] (0 x m) and C = [] (p x 0) alone.`,
    );
  const D = checkMatrix(args.D, 'D');
  const [p, m] = size(D);
  if (p === 0 || m === 0) throw new ControlError(`D is ${fmtSize(D)}: the static gain needs at least one input and one output.`);
  if (C.length && C.length !== p) throw new ControlError(`C is ${C.length}x0 (${C.length} outputs) but D is ${fmtSize(D)}; D must have one row per output.`);
  return { A: [], B: [], C: Array.from({ length: p }, () => []), D, n: 0, m, p, Ts: readTs(args) };
}

export function readSS(args: Record<string, any>, tool: string): SS {
  for (const k of ['A', 'B', 'C'])
    if (args[k] === undefined) throw new ControlError(`${tool} needs the state-space matrices A, B and C (argument ${k} is missing).`);
  const A = checkMatrix(args.A, 'A');
  if (isEmptyMatrix(A)) return readStaticGain(args, tool);
  const n = checkSquare(A, 'A');
  const B = checkMatrix(args.B, 'B');
  if (B.length !== n) throw new ControlError(`B has ${B.length} rows but A is ${n}x${n}; B must have ${n} rows (one per state).`);
  const m = size(B)[1];
  if (m === 0) throw new ControlError('B has no columns: the system needs at least one input.');
  const C = checkMatrix(args.C, 'C');
  const p = C.length;
  if (p === 0) throw new ControlError('C has no rows: the system needs at least one output.');
  if (size(C)[1] !== n) throw new ControlError(`C is ${fmtSize(C)} but A is ${n}x${n}; C must have ${n} columns (one per state).`);
  let D: Matrix;
  if (args.D === undefined || args.D === null) D = Array.from({ length: p }, () => new Array(m).fill(0));
  else {
    D = checkMatrix(args.D, 'D');
    const [dr, dc] = size(D);
    if (dr !== p || dc !== m)
      throw new ControlError(`D is ${fmtSize(D)} but the system has ${p} output(s) (rows of C) and ${m} input(s) (columns of B); D must be ${p}x${m}.`);
  }
  return { A, B, C, D, n, m, p, Ts: readTs(args) };
}

export function readTF(args: Record<string, any>, tool: string): TF {
  if (!Array.isArray(args.num) || !Array.isArray(args.den)) throw new ControlError(`${tool} needs num and den (coefficient lists, highest power first).`);
  for (const [k, v] of [
    ['num', args.num],
    ['den', args.den],
  ] as const)
    v.forEach((x: unknown, i: number) => {
      if (typeof x !== 'number' || !Number.isFinite(x)) throw new ControlError(`${k}[${i + 1}] is ${String(x)}: coefficients must be finite numbers.`);
    });
  const num = polyStrip(args.num.length ? args.num : [0]);
  const den = polyStrip(args.den.length ? args.den : [0]);
  if (den.length === 1 && den[0] === 0) throw new ControlError('den is zero: the transfer function is undefined.');
  return { num, den, Ts: readTs(args) };
}

const given = (v: unknown) => v !== undefined && v !== null;

/** true when any of A, B, C, D is given (D alone is a state-space argument too) */
export function isSS(args: Record<string, any>): boolean {
  return ['A', 'B', 'C', 'D'].some((k) => given(args[k]));
}

/** "a", "a and b", "a, b and c" */
function andList(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * num/den or A/B/C/D, never both: an argument of the other form would be dropped without a
 * word (D beside num/den was), so the mix is refused with the arguments given.
 */
export function readTfOrSs(args: Record<string, any>, tool: string): { tf?: TF; ss?: SS } {
  const tfGiven = ['num', 'den'].filter((k) => given(args[k]));
  const ssGiven = ['A', 'B', 'C', 'D'].filter((k) => given(args[k]));
  if (tfGiven.length && ssGiven.length)
    throw new ControlError(
      `${tool}: give either A, B, C, D or num/den, not both (you gave ${andList([...tfGiven, ...ssGiven])}); a transfer function (num, den) and a state-space model (A, B, C, D) are two ways of writing one system.${
        ssGiven.includes('D') ? ' A transfer function carries its own feedthrough: for H(s) = D + N(s)/den(s) write num = D·den + N.' : ''
      }`,
    );
  if (!tfGiven.length && !ssGiven.length) throw new ControlError(`${tool} needs a transfer function (num, den) or a state-space model (A, B, C, D).`);
  return tfGiven.length ? { tf: readTF(args, tool) } : { ss: readSS(args, tool) };
}

/** complex numbers as [re, im] with -0 normalised to 0 */
export function cplx(re: number, im: number): [number, number] {
  return [re === 0 ? 0 : re, im === 0 ? 0 : im];
}

/** sorts complex numbers by real part, then imaginary part */
export function sortComplex<T extends [number, number]>(z: T[]): T[] {
  return z.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

/** the largest |entry| of a matrix (0 when empty or zero) */
function maxEntry(M: Matrix): number {
  let mx = 0;
  for (const r of M) for (const v of r) mx = Math.max(mx, Math.abs(v));
  return mx;
}

/** entries of A, B, C (their largest) this far from 1 are refused by the tools that use scaleGuard */
const SCALE_LIMIT = 2 ** 200;

/**
 * Refuses a model whose A, B or C is of extreme size (its largest entry beyond 2^200 ≈ 1.6e60
 * or below 2^-200 ≈ 6e-61). The tools that call this form polynomials, products and powers of
 * the model's entries (ss2tf's coefficients of s^k grow as ‖A‖^k, a step response's settling,
 * a root locus's gains), which overflow or underflow there in double precision and came out
 * Infinity, NaN, or silently wrong (an H2 norm of Infinity for a stable model with entries of
 * 1e300). Scaling the time or state units brings such a model into range; the answer then
 * scales back by hand. (eig, lyap, freqresp, step and the norms' B, C scale themselves.)
 */
export function scaleGuard(sys: SS, tool: string): void {
  if (sys.n === 0) return;
  for (const [name, M] of [
    ['A', sys.A],
    ['B', sys.B],
    ['C', sys.C],
  ] as const) {
    const mx = maxEntry(M);
    if (mx === 0 || (mx <= SCALE_LIMIT && mx >= 1 / SCALE_LIMIT)) continue;
    throw new ControlError(
      `${tool}: ${name} has entries of order ${mx.toExponential(0)}, beyond what this tool computes reliably in double precision (its largest entry must lie between 1e-60 and 1e60); ` +
        'rescale the model (time units for A, input or output units for B and C) so that its entries are nearer 1.',
      'numerical',
    );
  }
}

// ------------------------------------------------------------------ tf -> ss

export interface Realization {
  A: Matrix;
  B: Matrix;
  C: Matrix;
  D: Matrix;
  /** numerator, zero-padded to the length of den */
  num: number[];
  /** monic denominator */
  den: number[];
}

/** normalised (num, den): den monic, num padded to den's length; throws for improper */
export function normalizeTf(numIn: number[], denIn: number[]): { num: number[]; den: number[] } {
  const den0 = polyStrip(denIn);
  const num0 = polyStrip(numIn);
  if (den0.length === 1 && den0[0] === 0) throw new ControlError('den is zero: the transfer function is undefined.');
  if (num0.length > den0.length)
    throw new ControlError(
      `improper transfer function: the numerator has degree ${num0.length - 1} but the denominator only ${den0.length - 1}; a state-space model (A, B, C, D) needs deg num <= deg den.`,
    );
  const a = den0[0];
  return {
    num: polyPad(
      num0.map((v) => v / a),
      den0.length,
    ),
    den: den0.map((v) => v / a),
  };
}

/** controllable canonical realisation (as SciPy tf2ss) of a proper SISO transfer function */
export function tf2ss(numIn: number[], denIn: number[]): Realization {
  const { num, den } = normalizeTf(numIn, denIn);
  const n = den.length - 1;
  const d = num[0];
  const A = zeros(n, n);
  for (let j = 0; j < n; j++) A.d[j] = -den[j + 1];
  for (let i = 1; i < n; i++) A.d[i * n + i - 1] = 1;
  const B = zeros(n, 1);
  if (n) B.d[0] = 1;
  const C = [Array.from({ length: n }, (_, j) => num[j + 1] - d * den[j + 1])];
  return { A: toRows(A), B: toRows(B), C: n ? C : [], D: [[d]], num, den };
}

// ------------------------------------------------------------------ systems as arguments

/** most states one system argument may have (nested systems are not seen by call.ts's size limits) */
export const SYSTEM_ARG_MAX_N = 200;

/**
 * The JSON Schema of a system passed as one argument (the interconnection tools' sys1, sys2,
 * systems[i]): a number (a static gain), a state-space model {A, B, C, D?, Ts?} or a SISO
 * transfer function {num, den, Ts?}. readSystemArg checks which, with messages naming the argument.
 */
export function systemArg(description: string): JsonSchema {
  return {
    description: `${description}: a number (a static gain k), a state-space model {A, B, C, D?, Ts?}, a transfer function {num, den, Ts?} (coefficients highest power first; MIMO: p x m matrices of coefficient lists) or zeros, poles and gain {z, p, k, Ts?}; Ts 0 or absent: continuous`,
    type: ['number', 'object'],
    properties: {
      A: matrix('state matrix A (n x n); [] with D for a static gain'),
      B: matrix('input matrix B (n x m)'),
      C: matrix('output matrix C (p x n)'),
      D: matrix('feedthrough D (p x m); zero if omitted'),
      num: { ...vector('numerator coefficients, highest power first; MIMO: a p x m matrix of coefficient lists'), items: {} },
      den: { ...vector('denominator coefficients, highest power first; MIMO: a p x m matrix of coefficient lists'), items: {} },
      z: zpkRoots('z'),
      p: zpkRoots('p'),
      k: zpkGain,
      Ts: sampleTime,
    },
  };
}

/** a system argument as read: its state-space form, the transfer function when given as one */
export interface SystemArg {
  ss: SS;
  /** num/den as given (proper, leading zeros stripped), or k/1 for a number; a SISO {z, p, k} as its polynomials */
  tf?: { num: number[]; den: number[] };
  /** a MIMO transfer matrix or zpk model as given: realised (minimal) into ss */
  tfm?: TfMatrix;
  /** the value, when the argument is a bare number */
  gain?: number;
  /** false when the system has no sample time of its own (a number, or a static gain written without Ts): it takes the others' */
  hasTs: boolean;
}

const SYSTEM_KEYS = ['A', 'B', 'C', 'D', 'num', 'den', 'z', 'p', 'k', 'Ts'];

/** a scalar or a flat list where a matrix is expected, as call.ts coerces top-level arguments */
function asMatrix(v: unknown): unknown {
  if (typeof v === 'number') return [[v]];
  if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number')) return [v];
  return v;
}

/** the state-space form, the transfer function and the sample-time status of one system argument */
export function readSystemArgFull(value: unknown, argName: string, tool: string): SystemArg {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new ControlError(`${tool}: ${argName} is ${value}; a static gain must be a finite number.`);
    return { ss: { A: [], B: [], C: [[]], D: [[value]], n: 0, m: 1, p: 1, Ts: 0 }, tf: { num: [value], den: [1] }, gain: value, hasTs: false };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ControlError(
      `${tool}: ${argName} must be a system: a number (a static gain), {A, B, C, D} (state space) or {num, den} (a transfer function), not ${Array.isArray(value) ? 'a list' : JSON.stringify(value)}.`,
    );
  const o = value as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => !SYSTEM_KEYS.includes(k));
  if (extra.length)
    throw new ControlError(
      `${tool}: ${argName} has no field ${extra.map((k) => `'${k}'`).join(', ')}; a system is {A, B, C, D?, Ts?}, {num, den, Ts?} or {z, p, k, Ts?}.`,
    );
  const tfm = readTfmOrZpk(o, argName, tool);
  if (tfm) return tfm;
  const args: Record<string, unknown> = { ...o };
  for (const k of ['A', 'B', 'C', 'D']) if (args[k] !== undefined) args[k] = asMatrix(args[k]);
  for (const k of ['num', 'den']) if (typeof args[k] === 'number') args[k] = [args[k]];
  // a static gain may be written {D} or {A: [], D}: B and C are then empty (0 x m, p x 0)
  const none = (k: string) => args[k] === undefined || args[k] === null;
  if (!none('D') && (none('A') || isEmptyMatrix(args.A)) && none('num') && none('den')) {
    if (none('A')) args.A = [];
    if (none('B')) args.B = [];
    if (none('C')) args.C = [];
  }
  const name = `${tool} (${argName})`;
  try {
    const { tf, ss } = readTfOrSs(args, name);
    if (tf) {
      for (const k of ['num', 'den'] as const)
        if (tf[k].length - 1 > SYSTEM_ARG_MAX_N)
          throw new ControlError(`${k} has degree ${tf[k].length - 1}, above the size limit of ${SYSTEM_ARG_MAX_N} states of one system argument.`, 'limit');
      const r = tf2ss(tf.num, tf.den);
      const n = r.A.length;
      return {
        ss: { A: r.A, B: r.B, C: n ? r.C : [[]], D: r.D, n, m: 1, p: 1, Ts: tf.Ts },
        tf: { num: polyStrip(tf.num), den: polyStrip(tf.den) },
        hasTs: o.Ts !== undefined && o.Ts !== null ? true : n > 0,
      };
    }
    const s = ss!;
    if (Math.max(s.n, s.m, s.p) > SYSTEM_ARG_MAX_N)
      throw new ControlError(
        `it has ${s.n} states, ${s.m} inputs and ${s.p} outputs, above the size limit of ${SYSTEM_ARG_MAX_N} of one system argument.`,
        'limit',
      );
    // entries beyond 1e±60 (the block-diagram algebra multiplies them): refused with the way out, as the other tools do
    scaleGuard(s, tool);
    return { ss: s, hasTs: o.Ts !== undefined && o.Ts !== null ? true : s.n > 0 };
  } catch (e) {
    if (e instanceof ControlError && !e.message.startsWith(name)) throw new ControlError(`${name}: ${e.message}`, e.code);
    throw e;
  }
}

/**
 * A MIMO transfer matrix {num, den} (p x m lists) or a zero-pole-gain system {z, p, k} as a
 * system argument: realised minimal (_tfm.ts realiseTfMatrix); a SISO {z, p, k} also keeps its
 * polynomials (the interconnections' transfer-function route). undefined for other forms.
 */
function readTfmOrZpk(o: Record<string, unknown>, argName: string, tool: string): SystemArg | undefined {
  const has = (k: string) => o[k] !== undefined && o[k] !== null;
  const zpk = ['z', 'p', 'k'].some(has);
  if (!zpk && !isTfMatrixValue(o.num)) return undefined;
  const name = `${tool} (${argName})`;
  const mixed = ['A', 'B', 'C', 'D', ...(zpk ? ['num', 'den'] : [])].filter(has);
  if (mixed.length)
    throw new ControlError(
      `${name}: give one form of the system: {A, B, C, D}, {num, den} or {z, p, k}, not ${zpk ? 'z, p, k' : 'num, den'} with ${mixed.join(', ')}.`,
    );
  if (zpk && !has('k')) throw new ControlError(`${name}: a zero-pole-gain system needs its gain k (z and p may be empty lists).`);
  const Ts = readTs(o);
  let T: TfMatrix;
  try {
    T = zpk ? zpkToTfMatrix(readZpk(o.z, o.p, o.k, name)) : readTfMatrix(o.num, o.den, name);
    const r = realiseTfMatrix(T, name);
    const n = r.A.length;
    const ss: SS = { A: r.A, B: n ? r.B : [], C: n ? r.C : Array.from({ length: T.p }, () => []), D: r.D, n, m: T.m, p: T.p, Ts };
    scaleGuard(ss, tool);
    const siso = T.p === 1 && T.m === 1;
    const e = T.entries[0][0];
    return { ss, tfm: T, ...(siso ? { tf: { num: e.num, den: e.den } } : {}), hasTs: has('Ts') ? true : n > 0 };
  } catch (e) {
    if (e instanceof ControlError && !e.message.startsWith(name)) throw new ControlError(`${name}: ${e.message}`, e.code);
    throw e;
  }
}

/**
 * One system argument (a number, {A, B, C, D?, Ts?} or {num, den, Ts?}) as a state-space
 * model; errors name the argument. A number k is the 1x1 static gain (Ts 0: callers that
 * combine systems give it the others' sample time, see readSystemArgFull's hasTs).
 */
export function readSystemArg(value: unknown, argName: string, tool: string): SS {
  return readSystemArgFull(value, argName, tool).ss;
}
