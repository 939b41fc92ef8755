/**
 * Simulation (issue 13): `lsim`, the response to a given input, and `initial`, the free
 * response from an initial state.
 *
 * Continuous time is exact for the interpolated input, as SciPy's lsim: one matrix exponential
 * of an augmented matrix per step length (timeresp.ts discretises step and impulse the same
 * way), then the recursion x[k+1] = Φ x[k] + Γ0 u[k] + Γ1 u[k+1]:
 * - 'zoh' (u held constant over each step): exp([A B; 0 0]·h) = [Φ Γ; 0 I], Γ0 = Γ, Γ1 = 0;
 * - 'foh' (u linear between samples): exp([A·h B·h 0; 0 0 I; 0 0 0]) = [Φ G1 G2; ...],
 *   Γ0 = G1 − G2, Γ1 = G2.
 * Discrete time (Ts > 0) is the difference equation itself, one sample per step.
 *
 * Conventions: y and u have one row per time point (N x p, N x m), as MATLAB's lsim
 * (python-control's forced_response takes and returns them transposed, m x N); the
 * interpolation is chosen from the input when not given: a zero-order hold for inputs that
 * jump (step, square, pulse, a formula with heaviside/sign/floor/mod/comparisons), a
 * first-order hold for smooth ones and for samples (as python-control's forced_response and
 * SciPy's lsim); MATLAB's lsim also chooses by the input's smoothness.
 */
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import { matrix, vector } from '../tools/schema.js';
import type { Matrix } from '../types.js';
import { type Mat, EPS, blocks, block, eye, fromRows, luFactor, luSolve, normF, scale, zeros } from '../linalg/dense.js';
import { expm } from '../linalg/expm.js';
import { eigvalsSorted } from '../linalg/schur.js';
import { compileFormula } from '../parse/formula.js';
import { parseMatrixLiteral } from '../parse/index.js';
import { fmt } from '../render/format.js';
import type { RenderOptions } from '../render/markdown.js';
import { num as numLit, matrix as matLit, vector as vecLit, grid as gridLit } from '../codegen/literals.js';
import { systemCode, verdictHolder, type Code } from '../codegen/code.js';
import type { PlotSpec } from '../plot/specs.js';
import { readSS, readTfOrSs, tfProps, tsProp, type SS } from './_sys.js';
import { tf2ss } from './xferfcn.js';

export type Interp = 'zoh' | 'foh';
export type Method = Interp | 'discrete';
export const SIGNALS = ['step', 'ramp', 'sine', 'square', 'pulse'] as const;
export type SignalName = (typeof SIGNALS)[number];

/** x (N x n) is returned when it has at most this many numbers */
export const X_MAX = 10_000;
/** samples of a default grid (the step tool's rule: 400 steps) and of a grid from tfinal alone */
const DEFAULT_STEPS = 400;
const TFINAL_STEPS = 1000;
/** samples per period of a periodic signal on a chosen grid (MATLAB's gensig: tau/64) */
const PER_PERIOD = 64;
/** most samples one simulation may have (tools/call.ts refuses larger grids before the solver runs) */
export const MAX_SIM_SAMPLES = 1_000_000;

// ------------------------------------------------------------------ the system

/** the system of a call: A, B, C, D (B, D optional for initial) or num/den realised by tf2ss */
function readSystem(args: Record<string, any>, name: string, ssOnly: boolean): { sys: SS; fromTf: boolean } {
  if (ssOnly) {
    if (args.num !== undefined || args.den !== undefined)
      throw new ControlError(`${name} needs a state-space model (A, C and x0): a transfer function has no state to start from.`);
    if (args.A === undefined || args.C === undefined) throw new ControlError(`${name} needs the state-space matrices A and C (B and D are optional) and x0.`);
    const A = args.A as Matrix;
    const n = A.length;
    const C = args.C as Matrix;
    const B = args.B ?? A.map(() => [0]);
    const m = (B as Matrix)[0]?.length ?? 1;
    const D = args.D ?? C.map(() => new Array(m).fill(0));
    if (n === 0) throw new ControlError(`${name}: A is empty (no states), so there is no free response (y = 0).`);
    return { sys: readSS({ A, B, C, D, Ts: args.Ts }, name), fromTf: false };
  }
  const { tf, ss } = readTfOrSs(args, name);
  if (ss) return { sys: ss, fromTf: false };
  const r = tf2ss(tf!.num, tf!.den);
  const n = r.A.length;
  return { sys: { A: r.A, B: r.B, C: n ? r.C : [[]], D: r.D, n, m: 1, p: 1, Ts: tf!.Ts }, fromTf: true };
}

function readX0(args: Record<string, any>, sys: SS, name: string, fromTf: boolean, required: boolean): number[] {
  const x0 = args.x0 as number[] | undefined;
  if (x0 === undefined || x0 === null) {
    if (required) throw new ControlError(`${name} needs x0, the initial state (${sys.n} entries).`);
    return new Array(sys.n).fill(0);
  }
  if (fromTf)
    throw new ControlError(
      `${name}: x0 is a state, but the system is a transfer function (num/den), whose states are those of a realisation chosen here; give the model as A, B, C, D to start from x0.`,
    );
  if (x0.length !== sys.n) throw new ControlError(`x0 has ${x0.length} entries but A is ${sys.n}x${sys.n}; x0 needs ${sys.n} (one per state).`);
  return x0.slice();
}

// ------------------------------------------------------------------ the time grid

/** the eigenvalue rule of the step tool's default grid: 8 slowest time constants, 2 slowest periods */
function systemSpan(sys: SS): { span: number; why: string } {
  if (sys.n === 0) return { span: 10, why: 'no states: 10 s' };
  const ev = eigvalsSorted(fromRows(sys.A));
  const decay = ev.map(([r]) => -r).filter((x) => x > 1e-9);
  const osc = ev.map(([, i]) => Math.abs(i)).filter((x) => x > 1e-9);
  let span = decay.length ? 8 / Math.min(...decay) : 10;
  let why = decay.length ? '8 time constants of the slowest stable pole' : 'no decaying pole: 10 s';
  if (osc.length && (2 * 2 * Math.PI) / Math.min(...osc) > span) {
    span = (2 * 2 * Math.PI) / Math.min(...osc);
    why = 'two periods of the slowest oscillation';
  }
  const grow = Math.max(...ev.map(([r]) => r));
  if (grow > 1e-9 && span > 5 / grow) {
    span = 5 / grow;
    why = '5 time constants of the unstable pole';
  }
  if (span < 1e-3 || span > 1e4) why += ', bounded to 1e-3 .. 1e4 s';
  return { span: Math.min(Math.max(span, 1e-3), 1e4), why };
}

/** t0 + k·h for k < n, refused before it is allocated when n is above the limit */
function uniformOf(n: number, h: number, t0 = 0): number[] {
  if (!(n <= MAX_SIM_SAMPLES))
    throw new ControlError(
      `the time grid would have ${n.toPrecision(3)} samples (step ${fmt(h)} s), above the limit of ${MAX_SIM_SAMPLES}; ask for a shorter time span (tfinal) or a larger step (dt).`,
      'limit',
    );
  return Array.from({ length: n }, (_, k) => t0 + k * h);
}

interface Grid {
  t: number[];
  h: number;
  /** how the grid was chosen when the call did not give it */
  note?: string;
}

/**
 * The sample times: t as given (uniform), or from tfinal and dt, or a stated default.
 * `samples`: the number of input samples when u is samples; `period`: of a periodic signal.
 */
function readGrid(args: Record<string, any>, sys: SS, name: string, samples: number | undefined, period: number | undefined, delay: number): Grid {
  const Ts = sys.Ts;
  const t = args.t as number[] | undefined;
  const tfinal = args.tfinal as number | undefined;
  const dt = args.dt as number | undefined;
  if (t !== undefined && (tfinal !== undefined || dt !== undefined))
    throw new ControlError(
      `${name}: give the time grid either as t or as tfinal (with dt), not both (you gave t and ${tfinal !== undefined ? 'tfinal' : 'dt'}).`,
    );
  if (Ts > 0 && dt !== undefined && Math.abs(dt - Ts) > 1e-9 * Ts)
    throw new ControlError(`${name}: dt = ${dt} but the system is discrete with Ts = ${Ts}; a discrete system steps by Ts (leave dt out).`);
  if (t !== undefined) {
    if (!t.length) throw new ControlError(`${name}: t is empty; give the sample times, e.g. 0 to 10 in steps of 0.01.`);
    for (let k = 0; k < t.length; k++) if (t[k] < 0) throw new ControlError(`${name}: t[${k + 1}] = ${t[k]} is negative; the simulation starts at t[1] >= 0.`);
    const h = t.length > 1 ? (t[t.length - 1] - t[0]) / (t.length - 1) : Ts || 0;
    if (t.length > 1 && !(h > 0)) throw new ControlError(`${name}: t must increase (t[1] = ${t[0]}, t[end] = ${t[t.length - 1]}).`);
    for (let k = 1; k < t.length; k++)
      if (Math.abs(t[k] - (t[0] + k * h)) > 1e-6 * h)
        throw new ControlError(
          `${name}: t must be uniformly spaced (as MATLAB's lsim); t[${k + 1}] − t[${k}] = ${t[k] - t[k - 1]} differs from the mean step ${h}. Resample the input on a uniform grid.`,
        );
    if (Ts > 0 && t.length > 1 && Math.abs(h - Ts) > 1e-6 * Ts)
      throw new ControlError(`${name}: the system is discrete with Ts = ${Ts}, but t steps by ${h}; give t = k·Ts (one sample per step).`);
    return { t: uniformOf(t.length, h, t[0]), h };
  }
  const step = Ts > 0 ? Ts : dt;
  if (tfinal !== undefined) {
    if (step !== undefined) {
      const N = Math.floor(tfinal / step + 1e-9) + 1;
      if (samples !== undefined && samples !== N)
        throw new ControlError(`${name}: u has ${samples} samples but t = 0 : ${step} : ${tfinal} has ${N}; give one sample of u per time point.`);
      return { t: uniformOf(N, step), h: step };
    }
    if (samples !== undefined) {
      if (samples < 2) throw new ControlError(`${name}: u has one sample; with tfinal the samples must span it (give at least 2, or give t).`);
      const h = tfinal / (samples - 1);
      return { t: uniformOf(samples, h), h, note: `t: the ${samples} samples of u spread evenly from 0 to tfinal = ${fmt(tfinal)} s (dt = ${fmt(h)} s)` };
    }
    let h = tfinal / TFINAL_STEPS;
    let why = `tfinal/${TFINAL_STEPS}`;
    if (period !== undefined && period / PER_PERIOD < h) {
      h = period / PER_PERIOD;
      why = `the period/${PER_PERIOD}, as MATLAB's gensig`;
    }
    return { t: uniformOf(Math.floor(tfinal / h + 1e-9) + 1, h), h, note: `dt = ${fmt(h)} s (a default: ${why})` };
  }
  if (samples !== undefined) {
    if (step !== undefined) return { t: uniformOf(samples, step), h: step };
    throw new ControlError(`${name}: u is given as ${samples} samples; give their times t (or dt, their spacing, or tfinal).`);
  }
  // no grid given: the step tool's rule, long enough for the signal
  const { span, why } = systemSpan(sys);
  let tEnd = span;
  let reason = why;
  if (period !== undefined && 5 * period > tEnd) {
    tEnd = 5 * period;
    reason = 'five periods of the input, as MATLAB’s gensig';
  }
  if (delay > 0) {
    tEnd += delay;
    reason += `, after the delay of ${fmt(delay)} s`;
  }
  if (Ts > 0) {
    const N = Math.max(Math.ceil(tEnd / Ts), DEFAULT_STEPS / 4) + 1;
    if (N > MAX_SIM_SAMPLES) throw new ControlError(`${name}: a default time span of ${fmt(tEnd)} s is ${N} steps of Ts = ${Ts} s; give t or tfinal.`, 'limit');
    return { t: uniformOf(N, Ts), h: Ts, note: `t: 0 to ${fmt((N - 1) * Ts)} s, every sample (a default: ${reason})` };
  }
  let h = dt ?? tEnd / DEFAULT_STEPS;
  if (dt === undefined && period !== undefined && period / PER_PERIOD < h) h = period / PER_PERIOD;
  const N = Math.floor(tEnd / h + 1e-9) + 1;
  if (N > MAX_SIM_SAMPLES)
    throw new ControlError(
      `${name}: a default time span of ${fmt(tEnd)} s in steps of ${fmt(h)} s is ${N} samples, above ${MAX_SIM_SAMPLES}; give tfinal or a larger dt.`,
      'limit',
    );
  return { t: uniformOf(N, h), h, note: `t: 0 to ${fmt((N - 1) * h)} s in steps of ${fmt(h)} s (a default: ${reason})` };
}

// ------------------------------------------------------------------ the input

interface Input {
  /** N x m */
  U: number[][];
  /** the input in words, for the answer */
  words: string;
  /** the interpolation that fits it when none is asked: zoh for inputs that jump */
  hold: Interp;
}

/** a standard signal at time t (MATLAB's gensig for sine, square and pulse, plus step and ramp) */
export function signalValue(kind: SignalName, t: number, amplitude: number, period: number, delay: number, h: number): number {
  const tau = t - delay;
  if (tau < -1e-12 * Math.max(1, Math.abs(t))) return 0;
  const s = Math.max(tau, 0);
  switch (kind) {
    case 'step':
      return amplitude;
    case 'ramp':
      return amplitude * s;
    case 'sine':
      return amplitude * Math.sin((2 * Math.PI * s) / period);
    case 'square':
      // gensig: rem(t, tau) >= tau/2 (0 on the first half period, 1 on the second)
      return s % period >= period / 2 ? amplitude : 0;
    case 'pulse': {
      // gensig: rem(t, tau) < (1 − 1000·eps)·Ts: one sample at the start of each period (and
      // the sample that rounding put just below a period's start)
      const r = s % period;
      return r < (1 - 1000 * EPS) * h || period - r <= 1e-9 * h ? amplitude : 0;
    }
  }
}

const SIGNAL_WORDS: Record<SignalName, string> = {
  step: 'a step',
  ramp: 'a ramp',
  sine: 'a sine wave',
  square: 'a square wave (0 for the first half of each period, the amplitude for the second, as MATLAB’s gensig)',
  pulse: 'a periodic pulse (one sample at the start of each period, as MATLAB’s gensig)',
};

/** how many samples u holds (N), or undefined when it is not samples */
function sampleCount(u: unknown, m: number, input: number | undefined): number | undefined {
  if (!Array.isArray(u)) return undefined;
  if (!u.length) return 0;
  if (u.every((v) => typeof v === 'number')) return u.length;
  const rows = u as number[][];
  // a row vector 1 x N for one input (MATLAB accepts a row or a column)
  if (rows.length === 1 && (m === 1 || input !== undefined)) return rows[0].length;
  return rows.length;
}

function readInputSpec(args: Record<string, any>, name: string): { u?: unknown; signal?: SignalName } {
  let u = args.u;
  const signal = args.signal === 'sin' ? 'sine' : (args.signal as SignalName | undefined);
  if (u !== undefined && signal !== undefined)
    throw new ControlError(`${name}: give the input either as u (samples or a formula of t) or as signal, not both.`);
  if (u === undefined && signal === undefined)
    throw new ControlError(
      `${name} needs the input: u (samples, one row per time point, or a formula of t such as "sin(2*t)") or signal (${SIGNALS.join(', ')}).`,
    );
  if (typeof u === 'string' && /^\s*(\[|np\.|numpy\.)/.test(u)) {
    // a matrix literal in a string (MATLAB or NumPy), not a formula
    u = parseMatrixLiteral(u);
    if (Array.isArray(u) && u.length > 1 && u.every((r) => Array.isArray(r) && r.length === 1)) u = (u as number[][]).map((r) => r[0]);
  }
  for (const k of ['amplitude', 'period', 'delay'])
    if (signal === undefined && args[k] !== undefined)
      throw new ControlError(`${name}: ${k} belongs to a standard signal (signal = ${SIGNALS.join(' | ')}), but the input is u.`);
  return { u, signal };
}

function readInput(args: Record<string, any>, spec: { u?: unknown; signal?: SignalName }, sys: SS, grid: Grid, name: string): Input {
  const { m } = sys;
  const N = grid.t.length;
  const input = args.input as number | undefined;
  if (input !== undefined && (!Number.isInteger(input) || input < 1 || input > m))
    throw new ControlError(`input = ${input}, but the system has ${m} input${m === 1 ? '' : 's'}; input selects one, from 1 to ${m}.`);
  const onInputs = input !== undefined ? ` on input ${input} (the others zero)` : m > 1 ? ' on every input' : '';
  const spread = (v: (k: number) => number): number[][] =>
    grid.t.map((_, k) => {
      const x = v(k);
      return input !== undefined ? Array.from({ length: m }, (_, j) => (j === input - 1 ? x : 0)) : new Array(m).fill(x);
    });
  if (spec.signal !== undefined) {
    const kind = spec.signal;
    const amplitude = (args.amplitude as number | undefined) ?? 1;
    const delay = (args.delay as number | undefined) ?? 0;
    const period = args.period as number | undefined;
    if ((kind === 'sine' || kind === 'square' || kind === 'pulse') && period === undefined)
      throw new ControlError(`${name}: a ${kind} signal needs its period (s), e.g. period = 2.`);
    if (period !== undefined && kind !== 'sine' && kind !== 'square' && kind !== 'pulse')
      throw new ControlError(`${name}: period applies to sine, square and pulse signals, not to a ${kind}.`);
    const U = spread((k) => signalValue(kind, grid.t[k], amplitude, period ?? 1, delay, grid.h));
    const words =
      `${SIGNAL_WORDS[kind]} of amplitude ${fmt(amplitude)}` +
      (kind === 'ramp' ? ` (slope ${fmt(amplitude)} per s)` : '') +
      (period !== undefined ? `, period ${fmt(period)} s` : '') +
      (delay ? `, starting at t = ${fmt(delay)} s` : '') +
      onInputs;
    return { U, words, hold: kind === 'ramp' || kind === 'sine' ? 'foh' : 'zoh' };
  }
  const u = spec.u;
  if (typeof u === 'string') {
    const f = compileFormula(u, 'u');
    const U = spread((k) => {
      const v = f.f(grid.t[k]);
      if (!Number.isFinite(v)) throw new ControlError(`u = ${f.text} is ${v} at t = ${grid.t[k]}: the input must be a finite number at every sample time.`);
      return v;
    });
    return { U, words: `u(t) = ${f.text}${onInputs}`, hold: f.discontinuous ? 'zoh' : 'foh' };
  }
  if (!Array.isArray(u) || !u.length) throw new ControlError(`${name}: u is empty; give one sample per time point.`);
  let U: number[][];
  if (u.every((v) => typeof v === 'number')) {
    if (m > 1 && input === undefined)
      throw new ControlError(
        `u is one list of ${u.length} samples, but the system has ${m} inputs; give one row per time point (${u.length} x ${m}), or input = j to drive input j alone.`,
      );
    U = (u as number[]).map((x) => [x]);
  } else {
    if (!u.every((r) => Array.isArray(r))) throw new ControlError('u mixes numbers and rows; give a list of samples or one row per time point.');
    const rows = u as number[][];
    if (rows.length === 1 && rows[0].length > 1 && (m === 1 || input !== undefined)) U = rows[0].map((x) => [x]);
    else U = rows;
    const w = U[0].length;
    U.forEach((r, k) => {
      if (r.length !== w) throw new ControlError(`u: row ${k + 1} has ${r.length} entries but row 1 has ${w}; every row is one time point.`);
    });
    const want = input !== undefined ? 1 : m;
    if (w !== want) {
      if (U.length === want && w === N && N !== want)
        throw new ControlError(
          `u is ${U.length} x ${w}: one row per input (python-control's U, m x N). Give one row per time point (${w} x ${want}, as MATLAB's lsim and SciPy): transpose it.`,
        );
      throw new ControlError(
        `u has ${w} column${w === 1 ? '' : 's'} but ${input !== undefined ? 'input selects one input' : `the system has ${m} input${m === 1 ? '' : 's'}`}; give one column per input (one row per time point).`,
      );
    }
  }
  if (U.length !== N) throw new ControlError(`u has ${U.length} samples but t has ${N} time points; give one sample of u per time point.`);
  if (input !== undefined) U = U.map((r) => Array.from({ length: m }, (_, j) => (j === input - 1 ? r[0] : 0)));
  return { U, words: `the given samples (${U.length} x ${input !== undefined ? 1 : m})${onInputs}`, hold: 'foh' };
}

// ------------------------------------------------------------------ simulation

/** Φ, Γ0, Γ1 of one step h (continuous, exact for the interpolated input) */
export function discretise(A: Mat, B: Mat, h: number, interp: Interp): { Phi: Mat; G0: Mat; G1: Mat | undefined } {
  const n = A.r,
    m = B.c;
  if (interp === 'zoh') {
    const E = expm(
      scale(
        blocks([
          [A, B],
          [zeros(m, n), zeros(m, m)],
        ]),
        h,
      ),
    );
    const Phi = block(E, 0, 0, n, n);
    let G0 = block(E, 0, n, n, m);
    // decayed over the step: Γ = A⁻¹(Φ − I)B = −A⁻¹B to rounding, by a solve (as timeresp.ts)
    if (normF(Phi) <= EPS) {
      const f = luFactor(A);
      if (!f.singular) {
        const x = luSolve(f, B);
        if (x.d.every(Number.isFinite)) G0 = scale(x, -1);
      }
    }
    return { Phi, G0, G1: undefined };
  }
  const E = expm(
    blocks([
      [scale(A, h), scale(B, h), zeros(n, m)],
      [zeros(m, n), zeros(m, m), eye(m)],
      [zeros(m, n), zeros(m, m), zeros(m, m)],
    ]),
  );
  const Phi = block(E, 0, 0, n, n);
  const G1 = block(E, 0, n + m, n, m);
  const G0 = block(E, 0, n, n, m);
  for (let i = 0; i < G0.d.length; i++) G0.d[i] -= G1.d[i];
  return { Phi, G0, G1 };
}

/**
 * y (N x p) and x (N x n) of (A, B, C, D) from x0 under the input U (N x m) on a uniform grid
 * of step h: exact for a zero- or first-order hold (continuous), the difference equation
 * (discrete).
 */
export function simulateLti(sys: SS, U: number[][], h: number, x0: number[], method: Method): { y: number[][]; x: number[][] } {
  const { n, m, p } = sys;
  const N = U.length;
  const C = sys.C,
    D = sys.D;
  const y: number[][] = new Array(N);
  const X: number[][] = new Array(N);
  const out = (x: ArrayLike<number>, u: number[]) => {
    const r = new Array(p);
    for (let i = 0; i < p; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += C[i][j] * x[j];
      for (let j = 0; j < m; j++) s += D[i][j] * u[j];
      r[i] = s;
    }
    return r;
  };
  let x = Float64Array.from(x0);
  if (n === 0 || N === 1) {
    for (let k = 0; k < N; k++) {
      y[k] = out(x, U[k]);
      X[k] = Array.from(x);
    }
    return { y, x: X };
  }
  let Phi: Mat, G0: Mat, G1: Mat | undefined;
  if (method === 'discrete') {
    Phi = fromRows(sys.A);
    G0 = fromRows(sys.B);
  } else ({ Phi, G0, G1 } = discretise(fromRows(sys.A), fromRows(sys.B), h, method));
  const next = new Float64Array(n);
  for (let k = 0; k < N; k++) {
    y[k] = out(x, U[k]);
    X[k] = Array.from(x);
    if (k === N - 1) break;
    const u0 = U[k],
      u1 = U[k + 1];
    for (let i = 0; i < n; i++) {
      let s = 0;
      const row = i * n;
      for (let j = 0; j < n; j++) s += Phi.d[row + j] * x[j];
      const rb = i * m;
      for (let j = 0; j < m; j++) s += G0.d[rb + j] * u0[j];
      if (G1) for (let j = 0; j < m; j++) s += G1.d[rb + j] * u1[j];
      next[i] = s;
    }
    x = Float64Array.from(next);
  }
  return { y, x: X };
}

/** the first time the response stopped being a number, refused (as the step tool does) */
function refuseOverflow(y: number[][], t: number[], what: string): void {
  const k = y.findIndex((r) => r.some((v) => !Number.isFinite(v)));
  if (k < 0) return;
  throw new ControlError(
    `The ${what} overflows: at t = ${t[k]} it exceeds 1.8e308 (the largest double), so the samples from there on are not numbers. ` +
      'The system grows too fast for this time span (an unstable pole, or entries of extreme size); ask for a shorter time span or rescale the model.',
    'numerical',
  );
}

export interface LsimResult {
  t: number[];
  y: number[][];
  u: number[][];
  method: Method;
  x?: number[][];
  note?: string;
  [k: string]: unknown;
}

export function lsim(args: Record<string, any>): LsimResult {
  const { sys, fromTf } = readSystem(args, 'lsim', false);
  const x0 = readX0(args, sys, 'lsim', fromTf, false);
  const spec = readInputSpec(args, 'lsim');
  if (args.interp !== undefined && sys.Ts > 0)
    throw new ControlError(
      `lsim: interp = '${args.interp}' applies to continuous systems; a discrete system (Ts = ${sys.Ts}) takes one input sample per step.`,
    );
  const periodic = spec.signal === 'sine' || spec.signal === 'square' || spec.signal === 'pulse' ? (args.period as number | undefined) : undefined;
  const grid = readGrid(args, sys, 'lsim', sampleCount(spec.u, sys.m, args.input), periodic, spec.signal !== undefined ? ((args.delay as number) ?? 0) : 0);
  if (grid.t.length > MAX_SIM_SAMPLES) throw new ControlError(`lsim: the grid has ${grid.t.length} samples, above the limit of ${MAX_SIM_SAMPLES}.`, 'limit');
  const inp = readInput(args, spec, sys, grid, 'lsim');
  const method: Method = sys.Ts > 0 ? 'discrete' : ((args.interp as Interp | undefined) ?? inp.hold);
  const { y, x } = simulateLti(sys, inp.U, grid.h, x0, method);
  refuseOverflow(y, grid.t, 'simulated response');
  const r: LsimResult = { t: grid.t, y, u: inp.U, method };
  if (!fromTf && sys.n * x.length <= X_MAX) r.x = x;
  if (grid.note) r.note = grid.note;
  return r;
}

export interface InitialResult {
  t: number[];
  y: number[][];
  x?: number[][];
  note?: string;
  [k: string]: unknown;
}

export function initial(args: Record<string, any>): InitialResult {
  const { sys } = readSystem(args, 'initial', true);
  const x0 = readX0(args, sys, 'initial', false, true);
  const grid = readGrid(args, sys, 'initial', undefined, undefined, 0);
  if (grid.t.length > MAX_SIM_SAMPLES)
    throw new ControlError(`initial: the grid has ${grid.t.length} samples, above the limit of ${MAX_SIM_SAMPLES}.`, 'limit');
  const U = grid.t.map(() => new Array(sys.m).fill(0));
  const { y, x } = simulateLti(sys, U, grid.h, x0, sys.Ts > 0 ? 'discrete' : 'zoh');
  refuseOverflow(y, grid.t, 'free response');
  const r: InitialResult = { t: grid.t, y };
  if (sys.n * x.length <= X_MAX) r.x = x;
  if (grid.note) r.note = grid.note;
  return r;
}

// ------------------------------------------------------------------ rendering

/** k indices spread over 0..len-1, first and last included */
function spread(len: number, k: number): number[] {
  if (len <= k) return Array.from({ length: len }, (_, i) => i);
  return [...new Set(Array.from({ length: k }, (_, i) => Math.round((i * (len - 1)) / (k - 1))))];
}

const MAX_COLS = 6;

function sampleTable(t: number[], cols: { name: string; v: (k: number) => number }[], o: RenderOptions): string {
  const shown = cols.slice(0, MAX_COLS);
  const rows = spread(t.length, 9).map((k) => `| ${fmt(t[k], o.digits)} | ${shown.map((c) => fmt(c.v(k), o.digits)).join(' | ')} |`);
  const more = cols.length > shown.length ? `\n\n(${cols.length - shown.length} more columns in the JSON result and the reproducing code.)` : '';
  return [`| t (s) | ${shown.map((c) => c.name).join(' | ')} |`, `|---:|${'---:|'.repeat(shown.length)}`, ...rows].join('\n') + more;
}

/** peak (largest |y|, signed, with its time) and final value of each output */
function peaksTable(t: number[], y: number[][], o: RenderOptions): string {
  const p = y[0].length;
  const rows: string[] = [];
  for (let i = 0; i < Math.min(p, 12); i++) {
    let k = 0;
    for (let j = 1; j < y.length; j++) if (Math.abs(y[j][i]) > Math.abs(y[k][i])) k = j;
    rows.push(`| y${p > 1 ? i + 1 : ''} | ${fmt(y[k][i], o.digits)} at t = ${fmt(t[k], o.digits)} s | ${fmt(y[y.length - 1][i], o.digits)} |`);
  }
  return ['| output | peak (largest \\|y\\|, sampled) | final value (t = ' + fmt(t[t.length - 1]) + ' s) |', '|---|---:|---:|', ...rows].join('\n');
}

const METHOD_WORDS: Record<Method, string> = {
  zoh: 'exact for u held constant between samples (zero-order hold)',
  foh: 'exact for u linear between samples (first-order hold, as python-control and SciPy)',
  discrete: 'the difference equation x[k+1] = A x[k] + B u[k], one sample per step',
};

function describeSystem(a: Record<string, any>): string {
  const Ts = typeof a.Ts === 'number' && a.Ts > 0 ? `, discrete with Ts = ${fmt(a.Ts)} s` : '';
  if (Array.isArray(a.num)) return `the transfer function num/den${Ts}`;
  const n = (a.A as Matrix).length;
  return `the ${n}-state model${Ts}`;
}

function inputWords(a: Record<string, any>, r: LsimResult): string {
  const m = r.u[0]?.length ?? 1;
  const input = a.input as number | undefined;
  const on = input !== undefined ? ` on input ${input} (the others zero)` : m > 1 ? ' on every input' : '';
  if (a.signal !== undefined) {
    const kind = (a.signal === 'sin' ? 'sine' : a.signal) as SignalName;
    return (
      `${SIGNAL_WORDS[kind]} of amplitude ${fmt(a.amplitude ?? 1)}` +
      (a.period !== undefined ? `, period ${fmt(a.period)} s` : '') +
      (a.delay ? `, starting at t = ${fmt(a.delay)} s` : '') +
      on
    );
  }
  if (typeof a.u === 'string' && !/^\s*(\[|np\.|numpy\.)/.test(a.u)) return `u(t) = ${a.u.trim()}${on}`;
  return `the given samples of u${on}`;
}

function renderLsim(a: Record<string, any>, r: LsimResult, o: RenderOptions): string {
  const t = r.t;
  const p = r.y[0].length,
    m = r.u[0].length;
  const h = t.length > 1 ? t[1] - t[0] : 0;
  const x0 =
    Array.isArray(a.x0) && (a.x0 as number[]).some((v) => v !== 0)
      ? `, from x0 = [${(a.x0 as number[]).map((v) => fmt(v, o.digits)).join(', ')}]`
      : ', from rest (x0 = 0)';
  const chosen =
    a.interp === undefined && r.method !== 'discrete'
      ? ' (chosen from the input: a hold for inputs that jump, linear for smooth ones and samples; set interp to choose)'
      : '';
  const cols = [
    ...Array.from({ length: m }, (_, j) => ({ name: m > 1 ? `u${j + 1}` : 'u', v: (k: number) => r.u[k][j] })),
    ...Array.from({ length: p }, (_, i) => ({ name: p > 1 ? `y${i + 1}` : 'y', v: (k: number) => r.y[k][i] })),
  ];
  return [
    `**Response of ${describeSystem(a)} to ${inputWords(a, r)}**${x0}, at ${t.length} times from t = ${fmt(t[0])} to ${fmt(t[t.length - 1])} s${h ? ` (step ${fmt(h)} s)` : ''}.`,
    `**Method:** ${r.method}: ${METHOD_WORDS[r.method]}${chosen}.${r.note ? ` **Grid:** ${r.note}.` : ''}`,
    sampleTable(t, cols, o),
    peaksTable(t, r.y, o),
  ].join('\n\n');
}

function renderInitial(a: Record<string, any>, r: InitialResult, o: RenderOptions): string {
  const t = r.t;
  const p = r.y[0].length;
  const Ts = typeof a.Ts === 'number' && a.Ts > 0;
  const cols = Array.from({ length: p }, (_, i) => ({ name: p > 1 ? `y${i + 1}` : 'y', v: (k: number) => r.y[k][i] }));
  return [
    `**Free response from x0 = [${(a.x0 as number[]).map((v) => fmt(v, o.digits)).join(', ')}]** (no input: ${Ts ? 'y[k] = C A^k x0' : 'y(t) = C e^{At} x0'}), at ${t.length} times from t = ${fmt(t[0])} to ${fmt(t[t.length - 1])} s.${r.note ? ` **Grid:** ${r.note}.` : ''}`,
    sampleTable(t, cols, o),
    peaksTable(t, r.y, o),
  ].join('\n\n');
}

// ------------------------------------------------------------------ code

/** the model as sys; initial without B gets one zero input column (B does not act without input) */
function writeSystem(code: Code, a: Record<string, any>): void {
  systemCode(code, Array.isArray(a.num) || a.B !== undefined ? a : { ...a, B: (a.A as Matrix).map(() => [0]) }, 'sys');
}

/** a formula as an expression of the vector t in the language, or undefined when it is not a plain one */
function formulaCode(f: string, lang: 'matlab' | 'python'): string | undefined {
  // functions whose conventions differ between the languages (heaviside(0), square, mod, rem,
  // round of halves) or comparisons: the samples are written instead
  if (/heaviside|square|rem|mod|round|sign|[<>]/.test(f)) return undefined;
  if (lang === 'matlab') return f.replace(/\.?\*/g, '.*').replace(/\.?\//g, './').replace(/\.?\^/g, '.^');
  return f
    .replace(/\^/g, '**')
    .replace(/\b(asin|acos|atan)\(/g, (_, g: string) => `np.arc${g.slice(1)}(`)
    .replace(/\b(sin|cos|tan|exp|log|log10|log2|sqrt|abs|floor|ceil|sinh|cosh|tanh|atan2|minimum|maximum)\(/g, 'np.$1(')
    .replace(/\bmin\(/g, 'np.minimum(')
    .replace(/\bmax\(/g, 'np.maximum(')
    .replace(/\bpi\b/g, 'np.pi')
    .replace(/\be\b/g, 'np.e');
}

/** u as the code builds it: the formula or signal on t where it is plain, else the samples simulated */
function writeInput(code: Code, a: Record<string, any>, r: LsimResult): void {
  const M = code.lang === 'matlab';
  const m = r.u[0].length;
  const input = a.input as number | undefined;
  let one: string | undefined; // one input's samples as an expression of t (a column in MATLAB)
  const tt = M ? 't(:)' : 't';
  if (typeof a.u === 'string' && !/^\s*(\[|np\.|numpy\.)/.test(a.u)) {
    const e = formulaCode(a.u.trim(), code.lang);
    if (e !== undefined) {
      code.comment(`u(t) = ${a.u.trim()}`);
      one = M ? e.replace(/\bt\b/g, tt) : `${e} + 0 * t`;
    }
  } else if (a.signal !== undefined) {
    const kind = (a.signal === 'sin' ? 'sine' : a.signal) as SignalName;
    const A = numLit(a.amplitude ?? 1, code.lang);
    const d = numLit(a.delay ?? 0, code.lang);
    const P = a.period !== undefined ? numLit(a.period, code.lang) : '';
    const on = M ? `(${tt} >= ${d})` : `(t >= ${d})`;
    if (kind === 'step') one = `${A} * ${on}`;
    else if (kind === 'ramp') one = M ? `${A} * max(${tt} - ${d}, 0)` : `${A} * np.maximum(t - ${d}, 0)`;
    else if (kind === 'sine') one = M ? `${A} * sin(2*pi*(${tt} - ${d})/${P}) .* ${on}` : `${A} * np.sin(2*np.pi*(t - ${d})/${P}) * ${on}`;
    else if (kind === 'square')
      one = M ? `${A} * (rem(max(${tt} - ${d}, 0), ${P}) >= ${P}/2) .* ${on}` : `${A} * (np.fmod(np.maximum(t - ${d}, 0), ${P}) >= ${P}/2) * ${on}`;
    if (one) code.comment(`u: ${SIGNAL_WORDS[kind]}${kind === 'square' ? '' : ''}`);
  }
  if (one === undefined) {
    // the samples exactly as simulated (one row per time point)
    if (M) code.mat('u', r.u);
    else code.line(`u = ${matLit(r.u, code.lang, 4)}`);
    return;
  }
  if (m === 1) code.assign('u', one);
  else if (input !== undefined) {
    code.assign('u', M ? `zeros(numel(t), ${m})` : `np.zeros((len(t), ${m}))`);
    code.assign(M ? `u(:, ${input})` : `u[:, ${input - 1}]`, one);
  } else code.assign('u', M ? `repmat(${one}, 1, ${m})` : `np.tile((${one})[:, None], (1, ${m}))`);
}

const lsimCode = {
  title: 'simulated response to an input (lsim)',
  gen(code: Code, a: Record<string, any>, r: LsimResult | undefined) {
    const M = code.lang === 'matlab';
    writeSystem(code, a);
    if (!r) {
      code.comment('the call was refused: no input or grid to write');
      return;
    }
    code.assign('t', gridLit(r.t, code.lang));
    writeInput(code, a, r);
    const x0 = Array.isArray(a.x0) ? (a.x0 as number[]) : undefined;
    if (x0) code.assign('x0', M ? `${vecLit(x0, code.lang)}'` : vecLit(x0, code.lang));
    const m = r.u[0].length;
    if (M) {
      const meth = r.method === 'discrete' ? '' : `, '${r.method}'`;
      code.line(`y = lsim(sys, u, t${x0 ? ', x0' : meth ? ', []' : ''}${meth});   % y: one row per time point`);
    } else if (r.method === 'zoh') {
      code.line('import scipy.signal');
      const sys = Array.isArray(a.num) ? '(num, den)' : '(A, B, C, D)';
      code.line(`_, y, _ = scipy.signal.lsim(${sys}, u, t${x0 ? ', X0=x0' : ''}, interp=False)   # zero-order hold, as @control`);
      code.comment('(python-control forced_response interpolates u linearly, a first-order hold)');
    } else {
      code.line(`resp = ct.forced_response(sys, T=t, U=${m > 1 ? 'u.T' : 'u'}${x0 ? ', X0=x0' : ''})   # python-control takes U as m x N`);
      code.line(`y = resp.outputs.T${r.y[0].length === 1 ? '.reshape(-1, 1)' : ''}   # one row per time point, as @control`);
    }
    code
      .comment(verdictHolder)
      .expect('method', r.method)
      .expect('y(end, :)', r.y[r.y.length - 1])
      .expect('y(first 4 rows)', r.y.slice(0, 4));
  },
};

const initialCode = {
  title: 'free response from an initial state (initial)',
  gen(code: Code, a: Record<string, any>, r: InitialResult | undefined) {
    const M = code.lang === 'matlab';
    writeSystem(code, a);
    const t = r?.t ?? (a.t as number[] | undefined);
    if (t) code.assign('t', gridLit(t, code.lang));
    code.assign('x0', M ? `${vecLit(a.x0, code.lang)}'` : vecLit(a.x0, code.lang));
    if (M) code.line(`y = initial(sys, x0${t ? ', t' : ''});   % one row per time point`);
    else {
      code.line(`resp = ct.initial_response(sys, ${t ? 'T=t, ' : ''}X0=x0)`);
      code.line(`y = resp.outputs.T${r && r.y[0].length === 1 ? '.reshape(-1, 1)' : ''}   # one row per time point, as @control`);
    }
    if (r)
      code
        .comment(verdictHolder)
        .expect('y(end, :)', r.y[r.y.length - 1])
        .expect('y(first 4 rows)', r.y.slice(0, 4));
  },
};

// ------------------------------------------------------------------ plots

/** the simulation plot: the call's own arguments (the input with the system), drawn as y and u against t */
function simPlots(kind: 'lsim' | 'initial') {
  return (args: Record<string, unknown>): PlotSpec[] => {
    const keep: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(args)) if (v !== undefined && v !== null) keep[k] = v;
    return [{ kind, args: keep, title: kind === 'lsim' ? 'Plot output and input' : 'Plot free response' }];
  };
}

// ------------------------------------------------------------------ tools

const gridProps = {
  t: vector('sample times, uniformly spaced, starting at 0 or at t0 (discrete: t = k·Ts); or give tfinal'),
  tfinal: { type: 'number', exclusiveMinimum: 0, description: 'end time (s) of the simulation, from t = 0; instead of t' },
  dt: { type: 'number', exclusiveMinimum: 0, description: 'sample spacing (s) with tfinal (continuous only); default tfinal/1000' },
};

const ssOptional = {
  A: matrix('state matrix A (n x n)'),
  B: matrix('input matrix B (n x m)'),
  C: matrix('output matrix C (p x n)'),
  D: matrix('feedthrough matrix D (p x m); zero if omitted'),
};

/** python-control's forced_response takes U as m x N: one row per input; ours is N x m */
function fromPythonControl(a: Record<string, unknown>): Record<string, unknown> {
  const u = a.u;
  const t = a.t;
  if (Array.isArray(u) && Array.isArray(u[0]) && Array.isArray(t) && (u as unknown[][])[0].length === t.length && u.length !== t.length) {
    const U = u as number[][];
    return { ...a, u: U[0].map((_, k) => U.map((r) => r[k])) };
  }
  return a;
}

/** SciPy's lsim takes interp=True (linear, the default) or False (hold) */
function fromScipy(a: Record<string, unknown>): Record<string, unknown> {
  if (typeof a.interp === 'boolean') return { ...a, interp: a.interp ? 'foh' : 'zoh' };
  return a;
}

export const tools = [
  tool({
    name: 'lsim',
    words: {
      calls: [
        {
          names: ['lsim', 'lsimplot', 'dlsim'],
          args: ['sys', 'u', 't', 'x0', 'interp'],
          keywords: { U: 'u', T: 't', X0: 'x0', interp: 'interp' },
          map: fromScipy,
        },
        {
          names: ['forced_response'],
          args: ['sys', 't', 'u', 'x0'],
          keywords: { T: 't', U: 'u', X0: 'x0' },
          note: "python-control's U is m x N (one row per input); @control takes one row per time point",
          map: fromPythonControl,
        },
      ],
      phrases: [
        'lsim',
        'simulate',
        'simulation',
        'simulate the response',
        'forced response',
        'response to a ramp',
        'ramp response',
        'response to a sine',
        'sine input',
        'sinusoidal input',
        'response to a square wave',
        'square wave input',
        'response to the input',
        'response to an input',
      ],
      aliases: { u: ['U', 'input signal'], t: ['T', 'time', 'tvec'], x0: ['X0'], tfinal: ['Tf', 'T_final', 'tf_end'] },
      example: '/lsim num=[1], den=[1 1], u=[0 0.5 1 1.5 2 2.5], t=[0 0.5 1 1.5 2 2.5]',
    },
    title: 'Simulated response to an input',
    brief: 'Response y(t) of a system to an input u: samples, a formula of t, or a standard signal (lsim).',
    description:
      'Simulates y of (A, B, C, D) or num/den under an input, exactly for the interpolated input (matrix exponential of an augmented matrix, as SciPy lsim). ' +
      'Input: u as samples (one row per time point, N x m, as MATLAB lsim; a list for one input) or as a formula of t ("sin(2*t)", "1 - exp(-t)", "heaviside(t-1)"), ' +
      "or signal = step | ramp | sine | square | pulse (MATLAB gensig's square and pulse) with amplitude (default 1), period (s; sine, square, pulse) and delay (s); " +
      'a formula or signal drives every input of a MIMO system unless input (1-based) selects one. ' +
      'Grid: t (uniform), or tfinal with dt (default tfinal/1000), else a stated default from the slowest pole; discrete (Ts > 0): t = k·Ts. x0: initial state (state space). ' +
      "interp: 'zoh' or 'foh'; default chosen from the input (zoh for step, square, pulse and formulas that jump; foh for ramp, sine, smooth formulas and samples, as python-control). " +
      'Returns t, y (N x p), u (N x m, the input used), method, and x (N x n) when small.',
    parameters: {
      type: 'object',
      properties: {
        ...ssOptional,
        ...tfProps,
        ...tsProp,
        u: {
          description: 'the input: samples (a list for one input, or one row per time point, N x m) or a formula of t as a string, e.g. "sin(2*t)"',
          anyOf: [{ type: 'array', items: { type: 'number' } }, { type: 'array', items: { type: 'array', items: { type: 'number' } } }, { type: 'string' }],
        },
        signal: { type: 'string', enum: [...SIGNALS, 'sin'], description: 'a standard input signal instead of u' },
        amplitude: { type: 'number', description: 'amplitude of the signal (default 1; a ramp: its slope per second)' },
        period: { type: 'number', exclusiveMinimum: 0, description: 'period (s) of a sine, square or pulse signal' },
        delay: { type: 'number', minimum: 0, description: 'time (s) the signal starts (0 before); default 0' },
        input: { type: 'integer', minimum: 1, description: 'the input (1-based) a formula or signal drives; the others are zero. Default: every input' },
        ...gridProps,
        x0: vector('initial state (n entries); default 0. State space only'),
        interp: {
          type: 'string',
          enum: ['zoh', 'foh'],
          description: 'zoh: u held between samples; foh: u linear between samples. Default: chosen from the input',
        },
      },
      additionalProperties: false,
      // the input: u or signal (the request reader asks for u when neither is given)
      anyOf: [{ required: ['u'] }, { required: ['signal'] }],
    },
    run: (args) => lsim(args),
    intro:
      '**Simulation.** The response y(t) to the input u(t), computed exactly for u held (zoh) or linear (foh) between the samples: x[k+1] = Φ x[k] + Γ0 u[k] + Γ1 u[k+1] with Φ, Γ0, Γ1 from one matrix exponential.',
    render: renderLsim,
    code: lsimCode,
    model: BY_LOOKUP,
    plots: simPlots('lsim'),
  }),
  tool({
    name: 'initial',
    words: {
      calls: [
        { names: ['initial', 'initialplot'], args: ['sys', 'x0', 't'] },
        { names: ['initial_response'], args: ['sys', 't', 'x0'], keywords: { T: 't', X0: 'x0' } },
      ],
      phrases: [
        'initial condition response',
        'initial response',
        'initial-state response',
        'initial-condition response',
        'response to initial conditions',
        'free response',
        'response from x0',
        'zero-input response',
        'unforced response',
      ],
      aliases: { x0: ['X0'], t: ['T', 'time', 'tvec'], tfinal: ['Tf'] },
      example: '/initial A=[0 1; -4 -0.4], C=[1 0], x0=[1; 0]',
      // "the initial value of the step response", "initial conditions" are no request for this tool
      name: 'call-only',
    },
    title: 'Free response from an initial state',
    brief: 'Free response y(t) = C e^{At} x0 of (A, C) from the initial state x0 (initial).',
    description:
      'Free (zero-input) response from the initial state x0: continuous y(t) = C e^{At} x0, discrete (Ts > 0) y[k] = C A^k x0. Needs A, C and x0 (B, D optional: they do not act without input). ' +
      'Grid: t (uniform), or tfinal with dt (default tfinal/1000), else a stated default from the slowest pole. Returns t, y (N x p, one row per time point) and x (N x n) when small.',
    parameters: {
      type: 'object',
      properties: { ...ssOptional, ...tsProp, x0: vector('initial state (n entries)'), ...gridProps },
      required: ['A', 'C', 'x0'],
      additionalProperties: false,
    },
    run: (args) => initial(args),
    intro: '**Free response.** With no input the state moves from x0 alone: x(t) = e^{At} x0 and y(t) = C x(t) (discrete: x[k] = A^k x0).',
    render: renderInitial,
    code: initialCode,
    model: BY_LOOKUP,
    plots: simPlots('initial'),
  }),
];
