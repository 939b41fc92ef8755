/**
 * Nonlinear models written as equations (issue 14 item 5): `find_eqpt` (an equilibrium by
 * damped Newton), `linearize` (A, B, C, D at a point by symbolic derivatives) and `nlsim`
 * (simulation by an adaptive Runge–Kutta method). The model itself (equations, outputs,
 * parameters, the restricted parser and the symbolic Jacobians) is solvers/_nlmodel.ts.
 *
 * Names follow python-control (find_eqpt, linearize, input_output_response on an nlsys);
 * MATLAB's linearize/findop are for Simulink models, so the reproducing code uses the Symbolic
 * Math Toolbox's jacobian, fsolve and ode45 there.
 */
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import type { JsonSchema } from '../tools/types.js';
import type { Complex, Matrix } from '../types.js';
import { fromRows, luFactor, luSolve, zeros } from '../linalg/dense.js';
import { compileFormula } from '../parse/formula.js';
import { fmt, fmtComplex } from '../render/format.js';
import { matrixBlock, type RenderOptions } from '../render/markdown.js';
import { num as numLit, vector as vecLit } from '../codegen/literals.js';
import { verdictHolder, type Code } from '../codegen/code.js';
import type { PlotSpec } from '../plot/specs.js';
import { eigenvalues } from './statesp.js';
import { lyapSolve } from './lyapunov.js';
import { cholesky } from '../linalg/dense.js';
import { exprCode, modelLines, readModel, type NlArgs, type NlModel } from './_nlmodel.js';

// ------------------------------------------------------------------ arguments

export const modelProps: Record<string, JsonSchema> = {
  equations: {
    description:
      "the state equations, one string with ; between them (or a list): x1' = x2; x2' = -g/l*sin(x1) - b*x2 + u (also dx1/dt = …, x1dot = …). States: the names differentiated; inputs: u or u1…um; parameters may be written here too (g = 9.81)",
    anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
  },
  outputs: {
    description: 'output equations, e.g. "y = x1" (y1 = …; y2 = … for several); default: y = x (every state)',
    anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
  },
  params: { type: 'object', description: 'parameter values by name, e.g. {"g": 9.81, "l": 1}', additionalProperties: { type: 'number' } },
  inputs: { type: 'array', items: { type: 'string' }, description: 'input names when they are not u or u1…um (e.g. ["F"])' },
};

const modelOf = (a: Record<string, any>): NlModel => readModel(a as NlArgs);

function vec(v: unknown, n: number, name: string, what: string): number[] {
  if (v === undefined) return new Array(n).fill(0);
  const arr = typeof v === 'number' ? [v] : Array.isArray(v) ? (v as unknown[]).flat() : undefined;
  if (!arr || !arr.every((x) => typeof x === 'number' && Number.isFinite(x))) throw new ControlError(`${name} must be a list of ${n} numbers (${what}).`);
  if (arr.length === 1 && n > 1 && name.startsWith('u')) return new Array(n).fill(arr[0]);
  if (arr.length !== n) throw new ControlError(`${name} has ${arr.length} entr${arr.length === 1 ? 'y' : 'ies'}; the model has ${n} (${what}).`);
  return arr as number[];
}

const inf = (v: readonly number[]) => v.reduce((s, x) => Math.max(s, Math.abs(x)), 0);

function solveSquare(J: number[][], F: number[]): number[] | undefined {
  const n = F.length;
  const lu = luFactor(fromRows(J));
  if (lu.singular) return undefined;
  const b = zeros(n, 1);
  F.forEach((x, i) => (b.d[i] = x));
  const s = Array.from(luSolve(lu, b).d);
  return s.every(Number.isFinite) ? s : undefined;
}

/** Jacobian of F by central differences (for equations without a symbolic derivative) */
function fdJacobian(F: (z: number[]) => number[], z: number[]): number[][] {
  const F0 = F(z);
  const J = F0.map(() => new Array(z.length).fill(0));
  for (let j = 0; j < z.length; j++) {
    const h = 1e-6 * Math.max(1, Math.abs(z[j]));
    const zp = [...z];
    const zm = [...z];
    zp[j] += h;
    zm[j] -= h;
    const fp = F(zp);
    const fm = F(zm);
    for (let i = 0; i < F0.length; i++) J[i][j] = (fp[i] - fm[i]) / (2 * h);
  }
  return J;
}

// ------------------------------------------------------------------ find_eqpt

export interface EqptResult {
  x: number[];
  u: number[];
  y: number[];
  /** f(x, u) at the point found (≈ 0) */
  dx: number[];
  /** max |f(x, u)| (and |h(x, u) − y0| with an output target) */
  residual: number;
  iterations: number;
  /** what was solved for: 'x' (u fixed) or 'x and u' (output target y0) */
  unknowns: 'x' | 'x and u';
  jacobian: 'symbolic' | 'finite differences';
  /** eigenvalues of ∂f/∂x at the point and what they say */
  eigenvalues: Complex[];
  stability: 'stable' | 'unstable' | 'undecided';
  states: string[];
  inputs: string[];
  outputs: string[];
}

const MAX_NEWTON = 100;
const NEWTON_TOL = 1e-12;

/**
 * Damped Newton on F(z) = 0: the full step, halved until ‖F‖ decreases (Armijo, 1e-4); stops
 * when ‖F‖∞ ≤ 1e-12·(1 + ‖z‖∞) or the step is below rounding with ‖F‖∞ ≤ 1e-9·(1 + ‖z‖∞).
 */
function newton(F: (z: number[]) => number[], J: (z: number[]) => number[][], z0: number[], what: () => string): { z: number[]; it: number; res: number } {
  let z = [...z0];
  let Fz = F(z);
  if (!Fz.every(Number.isFinite)) throw new ControlError(`The equations are not finite at the initial guess ${what()}; start elsewhere.`);
  let nF = inf(Fz);
  for (let it = 0; it <= MAX_NEWTON; it++) {
    if (nF <= NEWTON_TOL * (1 + inf(z))) return { z, it, res: nF };
    if (it === MAX_NEWTON) break;
    const Jz = J(z);
    const s = Jz.every((r) => r.every(Number.isFinite)) ? solveSquare(Jz, Fz) : undefined;
    if (!s)
      throw new ControlError(
        `Newton stopped: the Jacobian is singular at z = [${z.map((v) => fmt(v)).join(', ')}] (iteration ${it}, residual ${fmt(nF)}); no equilibrium is claimed. Try another initial guess.`,
      );
    let a = 1;
    let zn: number[] = z;
    let Fn: number[] = Fz;
    let accepted = false;
    for (let k = 0; k < 40; k++) {
      zn = z.map((v, i) => v - a * s[i]);
      Fn = F(zn);
      const n2 = Math.hypot(...Fn);
      if (Fn.every(Number.isFinite) && n2 <= (1 - 1e-4 * a) * Math.hypot(...Fz)) {
        accepted = true;
        break;
      }
      a /= 2;
    }
    if (!accepted) {
      // no decrease along the Newton direction: converged to rounding, or stuck
      if (nF <= 1e-9 * (1 + inf(z))) return { z, it, res: nF };
      throw new ControlError(
        `Newton stopped at iteration ${it}: no step along the Newton direction reduces the residual (${fmt(nF)}) at z = [${z.map((v) => fmt(v)).join(', ')}]; no equilibrium is claimed. Try another initial guess.`,
      );
    }
    const small = inf(zn.map((v, i) => v - z[i])) <= 4e-16 * (1 + inf(zn));
    z = zn;
    Fz = Fn;
    nF = inf(Fz);
    if (small && nF <= 1e-9 * (1 + inf(z))) return { z, it: it + 1, res: nF };
  }
  throw new ControlError(
    `Newton did not converge in ${MAX_NEWTON} iterations from ${what()} (residual ${fmt(nF)}); no equilibrium is claimed. Try another initial guess x0.`,
  );
}

function stabilityOf(ev: Complex[]): EqptResult['stability'] {
  const tol = 1e-9 * Math.max(1, ...ev.map(([a, b]) => Math.hypot(a, b)));
  if (ev.every(([re]) => re < -tol)) return 'stable';
  if (ev.some(([re]) => re > tol)) return 'unstable';
  return 'undecided';
}

export function findEqpt(a: Record<string, any>): EqptResult {
  const m = modelOf(a);
  const n = m.states.length;
  const k = m.inputs.length;
  const x0 = vec(a.x0, n, 'x0', `the initial guess of ${m.states.join(', ')}`);
  const u0 = vec(a.u0, k, 'u0', k ? `the input ${m.inputs.join(', ')}` : 'the model has no input');
  const target = a.y0 !== undefined;
  const y0 = target ? vec(a.y0, m.outputs.length, 'y0', `the output target ${m.outputs.join(', ')}`) : [];
  if (target && m.outputs.length !== k)
    throw new ControlError(
      `An output target y0 makes the inputs unknowns: the model needs as many outputs as inputs (it has ${m.outputs.length} output${m.outputs.length === 1 ? '' : 's'}, ${k} input${k === 1 ? '' : 's'}); write the outputs (y = …) to match, or fix u0 instead.`,
    );
  let jacKind: EqptResult['jacobian'] = 'symbolic';
  let J: ((x: number[], u: number[]) => { A: number[][]; B: number[][]; C: number[][]; D: number[][] }) | undefined;
  try {
    const jac = m.jacobians();
    J = (x, u) => jac.at(x, u);
  } catch {
    jacKind = 'finite differences';
  }
  const split = (z: number[]) => (target ? { x: z.slice(0, n), u: z.slice(n) } : { x: z, u: u0 });
  const F = (z: number[]) => {
    const { x, u } = split(z);
    return target ? [...m.f(x, u), ...m.h(x, u).map((v, i) => v - y0[i])] : m.f(x, u);
  };
  const JF = (z: number[]): number[][] => {
    if (!J) return fdJacobian(F, z);
    const { x, u } = split(z);
    const j = J(x, u);
    if (!target) return j.A;
    return [...j.A.map((r, i) => [...r, ...j.B[i]]), ...j.C.map((r, i) => [...r, ...j.D[i]])];
  };
  const z0 = target ? [...x0, ...u0] : x0;
  const { z, it, res } = newton(F, JF, z0, () => `x0 = [${x0.join(', ')}]${target ? `, u0 = [${u0.join(', ')}]` : ''}`);
  const { x, u } = split(z);
  const A = J ? J(x, u).A : fdJacobian((xx) => m.f(xx, u), x);
  if (!A.every((r) => r.every(Number.isFinite))) throw new ControlError('∂f/∂x is not finite at the equilibrium found; its stability is not decided.');
  const ev = n ? eigenvalues(A) : [];
  return {
    x,
    u,
    y: m.h(x, u),
    dx: m.f(x, u),
    residual: res,
    iterations: it,
    unknowns: target ? 'x and u' : 'x',
    jacobian: jacKind,
    eigenvalues: ev,
    stability: stabilityOf(ev),
    states: m.states,
    inputs: m.inputs,
    outputs: m.outputs,
  };
}

// ------------------------------------------------------------------ linearize

export interface LinearizeResult {
  A: Matrix;
  B: Matrix;
  C: Matrix;
  D: Matrix;
  x: number[];
  u: number[];
  /** f(x, u) at the point: zero at an equilibrium */
  dx: number[];
  equilibrium: boolean;
  /** the symbolic Jacobians, entry by entry (mathjs text) */
  A_sym: string[][];
  B_sym: string[][];
  C_sym: string[][];
  D_sym: string[][];
  eigenvalues: Complex[];
  states: string[];
  inputs: string[];
  outputs: string[];
}

export function linearize(a: Record<string, any>): LinearizeResult {
  const m = modelOf(a);
  const n = m.states.length;
  const k = m.inputs.length;
  if (a.x === undefined) throw new ControlError(`linearize needs the operating point x (${m.states.join(', ')}); e.g. x = [0; 0], or find one with find_eqpt.`);
  const x = vec(a.x, n, 'x', `the operating point of ${m.states.join(', ')}`);
  const u = vec(a.u, k, 'u', k ? `the input ${m.inputs.join(', ')}` : 'the model has no input');
  const jac = m.jacobians();
  const J = jac.at(x, u);
  for (const [name, M, T] of [
    ['A', J.A, jac.text.A],
    ['B', J.B, jac.text.B],
    ['C', J.C, jac.text.C],
    ['D', J.D, jac.text.D],
  ] as const)
    M.forEach((r, i) =>
      r.forEach((v, j) => {
        if (!Number.isFinite(v))
          throw new ControlError(
            `${name}(${i + 1},${j + 1}) = ${T[i][j]} is not finite at this point: the equations are not differentiable there; linearise about another point.`,
          );
      }),
    );
  const dx = m.f(x, u);
  const scale = 1 + inf(J.A.flat()) * (1 + inf(x)) + inf(J.B.flat()) * (1 + inf(u));
  return {
    ...J,
    x,
    u,
    dx,
    equilibrium: inf(dx) <= 1e-9 * scale,
    A_sym: jac.text.A,
    B_sym: jac.text.B,
    C_sym: jac.text.C,
    D_sym: jac.text.D,
    eigenvalues: n ? eigenvalues(J.A) : [],
    states: m.states,
    inputs: m.inputs,
    outputs: m.outputs,
  };
}

// ------------------------------------------------------------------ nlsim

/** what an RK45 run of a model reports beside its trajectory (nlsim, cbf_filter) */
export interface Rk45Run {
  method: 'RK45';
  steps: number;
  rejected: number;
  evaluations: number;
  rtol: number;
  atol: number;
  states: string[];
  inputs: string[];
}

export interface NlsimResult extends Rk45Run {
  t: number[];
  /** N x n, one row per time point */
  x: number[][];
  y: number[][];
  u: number[][];
  outputs: string[];
}

/** most accepted steps one simulation may take (a stiff or blowing-up model ends in a ControlError) */
export const MAX_NL_STEPS = 200_000;
/** the time grid is at least this fine: the default largest step is tfinal/this */
const MIN_POINTS = 400;

// Dormand–Prince 5(4) (Dormand & Prince 1980; Hairer, Nørsett & Wanner, Solving ODEs I, Table 5.2), FSAL
const C2 = 1 / 5,
  C3 = 3 / 10,
  C4 = 4 / 5,
  C5 = 8 / 9;
const A21 = 1 / 5;
const A31 = 3 / 40,
  A32 = 9 / 40;
const A41 = 44 / 45,
  A42 = -56 / 15,
  A43 = 32 / 9;
const A51 = 19372 / 6561,
  A52 = -25360 / 2187,
  A53 = 64448 / 6561,
  A54 = -212 / 729;
const A61 = 9017 / 3168,
  A62 = -355 / 33,
  A63 = 46732 / 5247,
  A64 = 49 / 176,
  A65 = -5103 / 18656;
const B1 = 35 / 384,
  B3 = 500 / 1113,
  B4 = 125 / 192,
  B5 = -2187 / 6784,
  B6 = 11 / 84;
// error coefficients: 5th-order weights minus the 4th-order ones (b − b̂)
const E1 = 71 / 57600,
  E3 = -71 / 16695,
  E4 = 71 / 1920,
  E5 = -17253 / 339200,
  E6 = 22 / 525,
  E7 = -1 / 40;

/** the input as a function of t: constants, or a formula of t for each input */
export function inputFunction(uArg: unknown, k: number): { at: (t: number) => number[]; text: string[] } {
  if (k === 0) {
    if (uArg !== undefined && !(Array.isArray(uArg) && uArg.length === 0))
      throw new ControlError('The model has no input (no u in the equations); leave u out.');
    return { at: () => [], text: [] };
  }
  const items: unknown[] = uArg === undefined ? [0] : Array.isArray(uArg) ? (uArg as unknown[]).flat() : [uArg];
  const list = items.length === 1 && k > 1 ? new Array(k).fill(items[0]) : items;
  if (list.length !== k) throw new ControlError(`u has ${list.length} entries; the model has ${k} inputs. Give one value or formula of t per input.`);
  const fs = list.map((v, i) => {
    if (typeof v === 'number') return () => v;
    if (typeof v === 'string') return compileFormula(v, k > 1 ? `u${i + 1}` : 'u').f;
    throw new ControlError('u must be a number, a formula of t such as "sin(2*t)", or one of those per input.');
  });
  return { at: (t) => fs.map((g) => g(t)), text: list.map((v) => String(v)) };
}

/**
 * An adaptive explicit Runge–Kutta integration, Dormand–Prince 5(4) with local extrapolation
 * (the 5th-order solution is kept) and the error control of SciPy's RK45 / MATLAB's ode45: the
 * error estimate's RMS norm, each entry scaled by atol + rtol·max(|x|, |x_new|), must be ≤ 1;
 * the next step is h·min(10, max(0.2, 0.9·err^(−1/5))).
 *
 * Written here because no ODE integrator is among the project's dependencies and none is added
 * for this: npm's maintained candidate (odex, Hairer's extrapolation code) is a different method
 * than the ode45/solve_ivp RK45 our reproducing code compares against. Dormand–Prince is a
 * dozen coefficients, taken from Hairer, Nørsett & Wanner, Table 5.2.
 */
export function rk45(
  f: (t: number, x: number[]) => number[],
  x0: number[],
  tfinal: number,
  opts: { rtol: number; atol: number; maxStep: number },
): { t: number[]; x: number[][]; steps: number; rejected: number; evaluations: number } {
  const n = x0.length;
  const { rtol, atol, maxStep } = opts;
  let evaluations = 0;
  const F = (t: number, x: number[]) => {
    evaluations++;
    const d = f(t, x);
    if (!d.every(Number.isFinite))
      throw new ControlError(
        `The state derivative is not finite at t = ${fmt(t)} s (x = [${x.map((v) => fmt(v)).join(', ')}]): the solution leaves the equations' domain or escapes to infinity.`,
      );
    return d;
  };
  const ts = [0];
  const xs = [[...x0]];
  let t = 0;
  let x = [...x0];
  let k1 = F(t, x);
  const rms = (v: number[]) => Math.sqrt(v.reduce((s, e) => s + e * e, 0) / Math.max(1, v.length));
  // initial step (Hairer, Nørsett & Wanner II.4, as SciPy's select_initial_step)
  const sc0 = x.map((v) => atol + rtol * Math.abs(v));
  const d0 = rms(x.map((v, i) => v / sc0[i]));
  const d1 = rms(k1.map((v, i) => v / sc0[i]));
  let h = d0 < 1e-5 || d1 < 1e-5 ? 1e-6 : (0.01 * d0) / d1;
  h = Math.min(h, maxStep, tfinal);
  if (n) {
    const x1 = x.map((v, i) => v + h * k1[i]);
    const f1 = F(h, x1);
    const d2 = rms(f1.map((v, i) => (v - k1[i]) / sc0[i])) / h;
    const h1 = Math.max(d1, d2) <= 1e-15 ? Math.max(1e-6, h * 1e-3) : Math.pow(0.01 / Math.max(d1, d2), 1 / 5);
    h = Math.min(100 * h, h1, maxStep, tfinal);
  } else h = Math.min(maxStep, tfinal);
  let steps = 0;
  let rejected = 0;
  const hmin = 16 * Number.EPSILON * Math.max(1, tfinal);
  while (t < tfinal) {
    if (steps >= MAX_NL_STEPS)
      throw new ControlError(
        `The simulation needed more than ${MAX_NL_STEPS} steps before t = ${fmt(t)} s: the model is stiff or its solution blows up. Shorten tfinal or loosen rtol/atol.`,
        'limit',
      );
    if (t + h > tfinal || tfinal - (t + h) < hmin) h = tfinal - t;
    const k2 = F(
      t + C2 * h,
      x.map((v, i) => v + h * A21 * k1[i]),
    );
    const k3 = F(
      t + C3 * h,
      x.map((v, i) => v + h * (A31 * k1[i] + A32 * k2[i])),
    );
    const k4 = F(
      t + C4 * h,
      x.map((v, i) => v + h * (A41 * k1[i] + A42 * k2[i] + A43 * k3[i])),
    );
    const k5 = F(
      t + C5 * h,
      x.map((v, i) => v + h * (A51 * k1[i] + A52 * k2[i] + A53 * k3[i] + A54 * k4[i])),
    );
    const k6 = F(
      t + h,
      x.map((v, i) => v + h * (A61 * k1[i] + A62 * k2[i] + A63 * k3[i] + A64 * k4[i] + A65 * k5[i])),
    );
    const xn = x.map((v, i) => v + h * (B1 * k1[i] + B3 * k3[i] + B4 * k4[i] + B5 * k5[i] + B6 * k6[i]));
    const k7 = F(t + h, xn);
    const e = x.map((_, i) => h * (E1 * k1[i] + E3 * k3[i] + E4 * k4[i] + E5 * k5[i] + E6 * k6[i] + E7 * k7[i]));
    const err = n ? rms(e.map((v, i) => v / (atol + rtol * Math.max(Math.abs(x[i]), Math.abs(xn[i]))))) : 0;
    if (err <= 1) {
      t = h === tfinal - t ? tfinal : t + h;
      x = xn;
      k1 = k7;
      ts.push(t);
      xs.push([...x]);
      steps++;
      const fac = err === 0 ? 10 : Math.min(10, Math.max(0.2, 0.9 * Math.pow(err, -1 / 5)));
      h = Math.min(maxStep, h * fac);
    } else {
      rejected++;
      h *= Math.max(0.2, 0.9 * Math.pow(err, -1 / 5));
      if (h < hmin)
        throw new ControlError(
          `The step size fell below ${fmt(hmin)} s at t = ${fmt(t)} s: the solution has a singularity or jumps there; no trajectory is claimed past it.`,
        );
    }
  }
  return { t: ts, x: xs, steps, rejected, evaluations };
}

export function nlsim(a: Record<string, any>): NlsimResult {
  const m = modelOf(a);
  const n = m.states.length;
  const k = m.inputs.length;
  if (a.x0 === undefined) throw new ControlError(`nlsim needs the initial state x0 (${m.states.join(', ')}), e.g. x0 = [0.5; 0].`);
  const x0 = vec(a.x0, n, 'x0', `the initial state of ${m.states.join(', ')}`);
  const tfinal = typeof a.tfinal === 'number' ? a.tfinal : 10;
  if (!(tfinal > 0)) throw new ControlError('tfinal must be positive (seconds).');
  const rtol = typeof a.rtol === 'number' ? a.rtol : 1e-6;
  const atol = typeof a.atol === 'number' ? a.atol : 1e-9;
  if (rtol < 1e-13 || atol <= 0) throw new ControlError('rtol must be at least 1e-13 and atol positive.');
  const maxStep = typeof a.max_step === 'number' ? Math.min(a.max_step, tfinal / MIN_POINTS) : tfinal / MIN_POINTS;
  const u = inputFunction(a.u, k);
  const r = rk45((t, x) => m.f(x, u.at(t)), x0, tfinal, { rtol, atol, maxStep });
  const U = r.t.map((t) => u.at(t));
  return {
    t: r.t,
    x: r.x,
    y: r.x.map((x, i) => m.h(x, U[i])),
    u: U,
    method: 'RK45',
    steps: r.steps,
    rejected: r.rejected,
    evaluations: r.evaluations,
    rtol,
    atol,
    states: m.states,
    inputs: m.inputs,
    outputs: m.outputs,
  };
}

// ------------------------------------------------------------------ lyapunov_check

export interface LyapunovCheckResult {
  x: number[];
  u: number[];
  /** the Jacobian ∂f/∂x at the equilibrium */
  A: Matrix;
  P: Matrix;
  /** 'given', or 'lyap' (A'P + PA + Q = 0 with the Q given or I) */
  P_from: 'given' | 'lyap';
  Q: Matrix | null;
  /** eigenvalues of P (ascending) and of A'P + PA (ascending) */
  P_eig: number[];
  ApPA_eig: number[];
  /** the level c of the estimate {V(x) < c}, V = (x − xe)' P (x − xe) */
  c: number;
  /** what bounds c: a sampled point where V̇ ≥ 0, the box's boundary, or both */
  c_from: 'Vdot' | 'box';
  /** semi-axes of the ellipsoid V = c (along P's eigenvectors, ascending eigenvalue order) */
  semi_axes: number[];
  radius: number;
  grid: number;
  points: number;
  /** sampled points in the box where V̇ ≥ 0 (other than the equilibrium) */
  violations: number;
  states: string[];
}

/** grid points per axis for n states: about 40,000 points in all, at least 5 per axis */
const gridFor = (n: number) => Math.max(5, Math.min(201, Math.floor(Math.pow(40_000, 1 / n)) | 1));

const symEig = (M: number[][]) =>
  eigenvalues(M)
    .map((z) => z[0])
    .sort((a, b) => a - b);

/**
 * A quadratic Lyapunov function V = (x − xe)' P (x − xe) at an equilibrium: P given, or from the
 * Lyapunov equation A'P + PA + Q = 0 of the linearisation (Q given or I). Checks P ≻ 0 and
 * A'P + PA ≺ 0 (V̇ < 0 near xe: Lyapunov's indirect method), then samples V̇(x) = 2 (x − xe)' P f(x, u)
 * on a uniform grid of the box |x − xe|∞ ≤ radius: the estimate of a region of attraction is the
 * level set {V < c} with c 5 % below the least sampled V where V̇ ≥ 0, and no larger than the least
 * V on the box's boundary, radius²/max(P⁻¹)ᵢᵢ exactly (the set stays inside the box, where it was sampled). A sampled estimate:
 * V̇ between grid points is not checked.
 */
export function lyapunovCheck(a: Record<string, any>): LyapunovCheckResult {
  const m = modelOf(a);
  const n = m.states.length;
  const k = m.inputs.length;
  if (n > 4) throw new ControlError(`lyapunov_check samples the state space on a grid, up to 4 states; this model has ${n}.`, 'limit');
  if (a.x === undefined) throw new ControlError(`lyapunov_check needs the equilibrium x (${m.states.join(', ')}); find one with find_eqpt.`);
  const x = vec(a.x, n, 'x', `the equilibrium of ${m.states.join(', ')}`);
  const u = vec(a.u, k, 'u', k ? `the input ${m.inputs.join(', ')}, held` : 'the model has no input');
  const dx = m.f(x, u);
  const A = m.jacobians().at(x, u).A;
  const scale = 1 + inf(A.flat()) * (1 + inf(x));
  if (inf(dx) > 1e-9 * scale)
    throw new ControlError(
      `x = [${x.map((v) => fmt(v)).join(', ')}] is not an equilibrium (f = [${dx.map((v) => fmt(v)).join(', ')}]); a Lyapunov function is checked at an equilibrium: find one with find_eqpt.`,
    );
  let P: number[][];
  let Q: number[][] | null = null;
  let from: LyapunovCheckResult['P_from'];
  if (a.P !== undefined) {
    P = a.P as number[][];
    if (P.length !== n || P.some((r) => r.length !== n)) throw new ControlError(`P must be ${n} x ${n} (one row and column per state).`);
    const asym = Math.max(...P.flatMap((r, i) => r.map((v, j) => Math.abs(v - P[j][i]))));
    if (asym > 1e-12 * (1 + inf(P.flat()))) throw new ControlError("P must be symmetric: V = x'Px uses only its symmetric part; give that.");
    from = 'given';
  } else {
    Q = a.Q !== undefined ? (a.Q as number[][]) : A.map((r, i) => r.map((_, j) => (i === j ? 1 : 0)));
    if (Q.length !== n || Q.some((r) => r.length !== n)) throw new ControlError(`Q must be ${n} x ${n}.`);
    const ev = eigenvalues(A);
    if (!ev.every(([re]) => re < 0))
      throw new ControlError(
        `The linearisation at the equilibrium is not asymptotically stable (eigenvalues ${ev.map((z) => fmtComplex(z)).join(', ')}): A'P + PA + Q = 0 has no positive definite P. Give P to check another candidate.`,
      );
    const At = A[0].map((_, j) => A.map((r) => r[j]));
    P = lyapSolve(At, Q);
    P = P.map((r, i) => r.map((v, j) => (v + P[j][i]) / 2));
    from = 'lyap';
  }
  const Pe = symEig(P);
  if (!(Pe[0] > 0) || !cholesky(fromRows(P)))
    throw new ControlError(`P is not positive definite (least eigenvalue ${fmt(Pe[0])}): V = x'Px is no Lyapunov function candidate.`);
  const ApPA = A.map((_, i) => A.map((__, j) => A.reduce((s, r, l) => s + r[i] * P[l][j] + P[i][l] * A[l][j], 0)));
  const Le = symEig(ApPA.map((r, i) => r.map((v, j) => (v + ApPA[j][i]) / 2)));
  if (!(Le[Le.length - 1] < 0))
    throw new ControlError(
      `A'P + PA is not negative definite (largest eigenvalue ${fmt(Le[Le.length - 1])}): V̇ < 0 does not hold near the equilibrium for this P, so V proves nothing there.`,
    );
  const radius = typeof a.radius === 'number' ? a.radius : 1;
  const N = typeof a.grid === 'number' ? Math.max(3, Math.min(gridFor(n) * 2, Math.floor(a.grid))) : gridFor(n);
  const V = (d: number[]) => d.reduce((s, di, i) => s + di * P[i].reduce((t, pij, j) => t + pij * d[j], 0), 0);
  let cV = Infinity;
  // the least V on the box's boundary, exactly: on the face d_i = ±radius it is radius² / (P⁻¹)_ii
  const Pinv = luSolve(luFactor(fromRows(P)), fromRows(P.map((r, i) => r.map((_, j) => (i === j ? 1 : 0)))));
  let cBox = Infinity;
  for (let i = 0; i < n; i++) cBox = Math.min(cBox, (radius * radius) / Pinv.d[i * n + i]);
  let violations = 0;
  let points = 0;
  const idx = new Array(n).fill(0);
  const total = Math.pow(N, n);
  for (let q = 0; q < total; q++) {
    let r = q;
    for (let i = 0; i < n; i++) {
      idx[i] = r % N;
      r = Math.floor(r / N);
    }
    const d = idx.map((j) => -radius + (2 * radius * j) / (N - 1));
    const v = V(d);
    points++;
    if (v === 0) continue;
    const f = m.f(
      d.map((di, i) => di + x[i]),
      u,
    );
    const vdot = 2 * d.reduce((s, di, i) => s + di * P[i].reduce((t, pij, j) => t + pij * f[j], 0), 0);
    if (!(vdot < 0)) {
      violations++;
      cV = Math.min(cV, v);
    }
  }
  const c = Math.min(0.95 * cV, cBox);
  return {
    x,
    u,
    A,
    P,
    P_from: from,
    Q,
    P_eig: Pe,
    ApPA_eig: Le,
    c,
    c_from: 0.95 * cV < cBox ? 'Vdot' : 'box',
    semi_axes: Pe.map((l) => Math.sqrt(c / l)),
    radius,
    grid: N,
    points,
    violations,
    states: m.states,
  };
}

// ------------------------------------------------------------------ rendering

const list = (v: readonly number[], d?: number) => `[${v.map((x) => fmt(x, d)).join(', ')}]`;

export function modelBlock(a: Record<string, any>, o: RenderOptions): string {
  let m: NlModel;
  try {
    m = modelOf(a);
  } catch {
    return '';
  }
  const lines = modelLines(m);
  const ps = Object.keys(m.params).map((k) => `${k} = ${fmt(m.params[k], o.digits)}${m.paramFrom[k] === 'equations' ? ' (written with the equations)' : ''}`);
  return [
    `**Model** (${m.states.length} state${m.states.length === 1 ? '' : 's'} ${m.states.join(', ')}; ${m.inputs.length ? `input${m.inputs.length === 1 ? '' : 's'} ${m.inputs.join(', ')}` : 'no input'}; ${m.outputsDefault ? 'output y = x, every state' : `output${m.outputs.length === 1 ? '' : 's'} ${m.outputs.join(', ')}`}):`,
    '```text\n' + lines.join('\n') + '\n```',
    ps.length ? `**Parameters:** ${ps.join(', ')}.` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

const STAB: Record<EqptResult['stability'], string> = {
  stable: 'every eigenvalue of ∂f/∂x has a negative real part: **locally asymptotically stable** (Lyapunov’s indirect method)',
  unstable: 'an eigenvalue of ∂f/∂x has a positive real part: **unstable**',
  undecided: 'an eigenvalue of ∂f/∂x is on the imaginary axis (and none in the right half-plane): the linearisation does **not** decide stability',
};

function renderEqpt(a: Record<string, any>, r: EqptResult, o: RenderOptions): string {
  const named = (names: string[], v: number[]) => names.map((s, i) => `${s} = ${fmt(v[i], o.digits)}`).join(', ');
  return [
    modelBlock(a, o),
    `**Equilibrium** (f(x, u) = 0${r.unknowns === 'x and u' ? `, with the output held at y0 = ${list(a.y0 as number[], o.digits)}: the input is solved for too` : ''}): ${named(r.states, r.x)}${r.inputs.length ? `, at ${named(r.inputs, r.u)}` : ''}.`,
    `Found by damped Newton from x0 = ${list(Array.isArray(a.x0) ? (a.x0 as number[]).flat() : new Array(r.states.length).fill(0), o.digits)}${a.x0 === undefined ? ' (the default initial guess)' : ''} in ${r.iterations} iteration${r.iterations === 1 ? '' : 's'} (${r.jacobian} Jacobian); residual max |f| = ${fmt(r.residual, 3)}. Another initial guess may find another equilibrium.`,
    r.eigenvalues.length ? `**Eigenvalues of ∂f/∂x there:** ${r.eigenvalues.map((z) => fmtComplex(z, o.digits)).join(', ')}: ${STAB[r.stability]}.` : '',
    r.outputs.length && !(r.outputs.length === r.states.length && r.outputs.every((s, i) => s === r.states[i]))
      ? `**Output there:** ${named(r.outputs, r.y)}.`
      : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

function symTable(name: string, T: string[][], rows: string[], cols: string[]): string {
  if (!T.length || !T[0].length) return '';
  return [
    `| ${name} | ${cols.join(' | ')} |`,
    `|---|${'---|'.repeat(cols.length)}`,
    ...T.map((r, i) => `| ${rows[i]} | ${r.map((e) => `\`${e}\``).join(' | ')} |`),
  ].join('\n');
}

function renderLinearize(a: Record<string, any>, r: LinearizeResult, o: RenderOptions): string {
  const at = `${r.states.map((s, i) => `${s} = ${fmt(r.x[i], o.digits)}`).join(', ')}${r.inputs.length ? `, ${r.inputs.map((s, i) => `${s} = ${fmt(r.u[i], o.digits)}`).join(', ')}` : ''}`;
  const defU = a.u === undefined && r.inputs.length ? ' (u = 0 by default)' : '';
  return [
    modelBlock(a, o),
    `**Linearisation at ${at}**${defU}: δx' = A δx + B δu, δy = C δx + D δu with the Jacobians A = ∂f/∂x, B = ∂f/∂u, C = ∂h/∂x, D = ∂h/∂u (symbolic derivatives, evaluated there).`,
    symTable(
      '∂f/∂x',
      r.A_sym,
      r.states.map((s) => `${s}'`),
      r.states,
    ),
    matrixBlock('A', r.A, o),
    r.inputs.length ? matrixBlock('B', r.B, o) : '**B:** none (the model has no input).',
    matrixBlock('C', r.C, o),
    r.inputs.length ? matrixBlock('D', r.D, o) : '',
    r.equilibrium
      ? 'The point is an equilibrium (f(x, u) = 0).'
      : `**Not an equilibrium:** f(x, u) = ${list(r.dx, o.digits)} there, so the state drifts; the linear model holds for deviations along that trajectory only (find_eqpt finds an equilibrium).`,
    r.eigenvalues.length ? `**Eigenvalues of A:** ${r.eigenvalues.map((z) => fmtComplex(z, o.digits)).join(', ')}.` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

function renderNlsim(a: Record<string, any>, r: NlsimResult, o: RenderOptions): string {
  const N = r.t.length;
  const idx = Array.from(new Set(Array.from({ length: 9 }, (_, i) => Math.round((i * (N - 1)) / 8))));
  const cols = r.states.slice(0, 6);
  const table = [
    `| t (s) | ${cols.join(' | ')}${r.inputs.length ? ` | ${r.inputs.slice(0, 2).join(' | ')}` : ''} |`,
    `|---:|${'---:|'.repeat(cols.length + Math.min(2, r.inputs.length))}`,
    ...idx.map(
      (k) =>
        `| ${fmt(r.t[k], o.digits)} | ${cols.map((_, i) => fmt(r.x[k][i], o.digits)).join(' | ')}${
          r.inputs.length
            ? ` | ${r.u[k]
                .slice(0, 2)
                .map((v) => fmt(v, o.digits))
                .join(' | ')}`
            : ''
        } |`,
    ),
  ].join('\n');
  const uText = r.inputs.length
    ? a.u === undefined
      ? 'u = 0 (default)'
      : `${r.inputs.join(', ')} = ${Array.isArray(a.u) ? `[${(a.u as unknown[]).join(', ')}]` : String(a.u)}`
    : 'no input';
  const ext = r.states.map((s, i) => {
    let lo = 0;
    let hi = 0;
    for (let k = 1; k < N; k++) {
      if (r.x[k][i] < r.x[lo][i]) lo = k;
      if (r.x[k][i] > r.x[hi][i]) hi = k;
    }
    return `| ${s} | ${fmt(r.x[lo][i], o.digits)} at t = ${fmt(r.t[lo], o.digits)} | ${fmt(r.x[hi][i], o.digits)} at t = ${fmt(r.t[hi], o.digits)} | ${fmt(r.x[N - 1][i], o.digits)} |`;
  });
  return [
    modelBlock(a, o),
    `**Simulation from x0 = ${list(Array.isArray(a.x0) ? (a.x0 as number[]).flat() : [], o.digits)}** with ${uText}, t = 0 to ${fmt(r.t[N - 1])} s.`,
    `**Method:** RK45 (Dormand–Prince 5(4), adaptive, as ode45 and solve_ivp) with rtol = ${fmt(r.rtol)}, atol = ${fmt(r.atol)}: ${r.steps} steps (${r.rejected} rejected), ${r.evaluations} evaluations of f; the largest step is tfinal/400, so the ${N} points draw the trajectory.`,
    table,
    [`| state | least (sampled) | largest (sampled) | final (t = ${fmt(r.t[N - 1])} s) |`, '|---|---:|---:|---:|', ...ext].join('\n'),
  ]
    .filter(Boolean)
    .join('\n\n');
}

function renderLyapunov(a: Record<string, any>, r: LyapunovCheckResult, o: RenderOptions): string {
  const at = r.states.map((s, i) => `${s} = ${fmt(r.x[i], o.digits)}`).join(', ');
  return [
    modelBlock(a, o),
    `**Quadratic Lyapunov function** V(x) = (x − xe)' P (x − xe) at the equilibrium ${at}, ${r.P_from === 'given' ? 'P as given' : `P from the Lyapunov equation A'P + PA + Q = 0 of the linearisation (A = ∂f/∂x there, ${a.Q !== undefined ? 'Q as given' : 'Q = I'})`}:`,
    matrixBlock('P', r.P, o),
    `- P ≻ 0: eigenvalues ${r.P_eig.map((v) => fmt(v, o.digits)).join(', ')} ✔`,
    `- A'P + PA ≺ 0: eigenvalues ${r.ApPA_eig.map((v) => fmt(v, o.digits)).join(', ')} ✔, so V̇ < 0 in a neighbourhood of the equilibrium: it is locally asymptotically stable.`,
    `**Estimate of the region of attraction** (sampled): {x : V(x) < c} with c = ${fmt(r.c, o.digits)}, an ellipsoid with semi-axes ${r.semi_axes.map((v) => fmt(v, o.digits)).join(', ')} (along P's eigenvectors). ${
      r.c_from === 'Vdot'
        ? `c is 5 % below the least V among the ${r.violations} sampled points where V̇ ≥ 0`
        : `c is the least V on the boundary of the sampled box (no sampled point inside it has V̇ ≥ 0${r.violations ? `; ${r.violations} points outside the level set do` : ''})`
    }. Sampling: a ${r.grid}${r.states.length > 1 ? `^${r.states.length}` : ''} grid (${r.points} points) on the box |x − xe|∞ ≤ ${fmt(r.radius)}; V̇ between grid points is not checked, so this is an estimate, not a proof.`,
  ]
    .filter(Boolean)
    .join('\n\n');
}

// ------------------------------------------------------------------ code

/** the model as code: MATLAB symbolic/anonymous functions, Python functions for python-control and SciPy */
export function modelCode(code: Code, a: Record<string, any>, symbolic: boolean): NlModel {
  const m = modelOf(a);
  const M = code.lang === 'matlab';
  const pnames = Object.keys(m.params);
  for (const p of pnames) code.assign(p, numLit(m.params[p], code.lang));
  if (M) {
    if (symbolic) {
      code.line(`syms ${[...m.states, ...m.inputs].join(' ')} real`);
      code.assign('f', `[${m.fText.map((e) => exprCode(e, 'matlab')).join('; ')}]`);
      code.assign('h', `[${m.hText.map((e) => exprCode(e, 'matlab')).join('; ')}]`);
      code.assign('xs', `[${m.states.join('; ')}]`);
      code.assign('us', m.inputs.length ? `[${m.inputs.join('; ')}]` : 'sym([])');
    } else {
      const ren = (name: string) => {
        const i = m.states.indexOf(name);
        if (i >= 0) return `x(${i + 1})`;
        const j = m.inputs.indexOf(name);
        return j >= 0 ? `u(${j + 1})` : name;
      };
      code.assign('f', `@(x, u) [${m.fText.map((e) => exprCode(e, 'matlab', ren)).join('; ')}]`);
      code.assign('h', `@(x, u) [${m.hText.map((e) => exprCode(e, 'matlab', ren)).join('; ')}]`);
    }
    return m;
  }
  const ren = (name: string) => {
    const i = m.states.indexOf(name);
    if (i >= 0) return `x[${i}]`;
    const j = m.inputs.indexOf(name);
    return j >= 0 ? `u[${j}]` : name;
  };
  code.line('def f(t, x, u, params=None):');
  code.line(`    return np.array([${m.fText.map((e) => exprCode(e, 'python', ren)).join(', ')}])`);
  code.line('def h(t, x, u, params=None):');
  code.line(`    return np.array([${m.hText.map((e) => exprCode(e, 'python', ren)).join(', ')}])`);
  code.assign(
    'sys',
    `ct.nlsys(f, h, states=${JSON.stringify(m.states).replace(/"/g, "'")}, inputs=${m.inputs.length ? JSON.stringify(m.inputs).replace(/"/g, "'") : 0}, outputs=${JSON.stringify(m.outputs).replace(/"/g, "'")})`,
  );
  return m;
}

const eqptCode = {
  title: 'equilibrium of a nonlinear model (fsolve / find_eqpt)',
  gen(code: Code, a: Record<string, any>, r: EqptResult | undefined) {
    const M = code.lang === 'matlab';
    const m = modelCode(code, a, false);
    const x0 = vec(a.x0, m.states.length, 'x0', '');
    const u0 = vec(a.u0, m.inputs.length, 'u0', '');
    const target = a.y0 !== undefined;
    if (M) {
      code.assign('x0', `${vecLit(x0, 'matlab')}'`).assign('u0', m.inputs.length ? `${vecLit(u0, 'matlab')}'` : 'zeros(0, 1)');
      const opts = "optimoptions('fsolve', 'FunctionTolerance', 1e-14, 'StepTolerance', 1e-14, 'Display', 'off')";
      if (target) {
        code.assign('y0', `${vecLit(a.y0 as number[], 'matlab')}'`);
        const n = m.states.length;
        code.assign('z', `fsolve(@(z) [f(z(1:${n}), z(${n + 1}:end)); h(z(1:${n}), z(${n + 1}:end)) - y0], [x0; u0], ${opts})`);
        code.assign('xe', `z(1:${n})`).assign('ue', `z(${n + 1}:end)`);
      } else code.assign('xe', `fsolve(@(x) f(x, u0), x0, ${opts})`);
      code.line(`J = jacobian(f(sym('x', [${m.states.length} 1]), ${target ? 'ue' : 'u0'}), sym('x', [${m.states.length} 1]));   % Symbolic Math Toolbox`);
      code.line(`eig(double(subs(J, sym('x', [${m.states.length} 1]), xe)))`);
    } else {
      code.assign('x0', vecLit(x0, 'python')).assign('u0', m.inputs.length ? vecLit(u0, 'python') : '[]');
      if (target) {
        code.assign('y0', vecLit(a.y0 as number[], 'python'));
        code.line(
          `xe, ue = ct.find_eqpt(sys, x0, u0, y0=y0, iu=[], iy=${JSON.stringify(m.outputs.map((_, i) => i))})   # the inputs free, the outputs held at y0`,
        );
      } else code.line('xe, ue = ct.find_eqpt(sys, x0, u0)   # u held at u0 (python-control 0.10: also ct.find_operating_point)');
      code.line('print(np.linalg.eigvals(ct.linearize(sys, xe, ue).A))');
    }
    if (r)
      code
        .comment(verdictHolder)
        .expect('xe', r.x)
        .expect('ue', r.u)
        .expect(
          'eigenvalues (real parts)',
          r.eigenvalues.map((z) => z[0]),
        );
  },
};

const linearizeCode = {
  title: 'linearisation of a nonlinear model (symbolic jacobian / ct.linearize)',
  gen(code: Code, a: Record<string, any>, r: LinearizeResult | undefined) {
    const M = code.lang === 'matlab';
    const m = modelCode(code, a, M);
    const x = vec(a.x, m.states.length, 'x', '');
    const u = vec(a.u, m.inputs.length, 'u', '');
    if (M) {
      code.comment("MATLAB's linearize/findop work on Simulink models; for equations, the Symbolic Math Toolbox's jacobian:");
      code.assign('x0', `${vecLit(x, 'matlab')}'`).assign('u0', m.inputs.length ? `${vecLit(u, 'matlab')}'` : 'zeros(0, 1)');
      code.assign('A', 'double(subs(jacobian(f, xs), [xs; us], [x0; u0]))');
      if (m.inputs.length) code.assign('B', 'double(subs(jacobian(f, us), [xs; us], [x0; u0]))');
      code.assign('C', 'double(subs(jacobian(h, xs), [xs; us], [x0; u0]))');
      if (m.inputs.length) code.assign('D', 'double(subs(jacobian(h, us), [xs; us], [x0; u0]))');
    } else {
      code.assign('x0', vecLit(x, 'python')).assign('u0', m.inputs.length ? vecLit(u, 'python') : '[]');
      code.line('lin = ct.linearize(sys, x0, u0)   # python-control: finite differences (eps 1e-6)');
      code.line('A, B, C, D = lin.A, lin.B, lin.C, lin.D');
    }
    if (r) code.comment(verdictHolder).expect('A', r.A).expect('B', r.B).expect('C', r.C).expect('D', r.D);
  },
};

const nlsimCode = {
  title: 'simulation of a nonlinear model (ode45 / solve_ivp RK45)',
  gen(code: Code, a: Record<string, any>, r: NlsimResult | undefined) {
    const M = code.lang === 'matlab';
    const m = modelCode(code, a, false);
    const x0 = vec(a.x0, m.states.length, 'x0', '');
    const tf = typeof a.tfinal === 'number' ? a.tfinal : 10;
    const rtol = typeof a.rtol === 'number' ? a.rtol : 1e-6;
    const atol = typeof a.atol === 'number' ? a.atol : 1e-9;
    const uItems: unknown[] = m.inputs.length ? (a.u === undefined ? [0] : Array.isArray(a.u) ? (a.u as unknown[]).flat() : [a.u]) : [];
    const uList = uItems.length === 1 && m.inputs.length > 1 ? new Array(m.inputs.length).fill(uItems[0]) : uItems;
    const uExpr = (lang: 'matlab' | 'python') => uList.map((v) => (typeof v === 'number' ? numLit(v, lang) : exprCode(String(v), lang)));
    if (M) {
      code.assign('ufun', `@(t) [${uExpr('matlab').join('; ')}]`);
      code.assign('x0', `${vecLit(x0, 'matlab')}'`);
      code.assign('opts', `odeset('RelTol', ${numLit(rtol, 'matlab')}, 'AbsTol', ${numLit(atol, 'matlab')}, 'MaxStep', ${numLit(tf / MIN_POINTS, 'matlab')})`);
      code.line(`[t, x] = ode45(@(t, x) f(x, ufun(t)), [0 ${numLit(tf, 'matlab')}], x0, opts);`);
      code.line("plot(t, x); xlabel('t (s)'); legend(" + m.states.map((s) => `'${s}'`).join(', ') + ')');
      code.line('x(end, :)');
    } else {
      code.line('from scipy.integrate import solve_ivp');
      code.line(`ufun = lambda t: np.array([${uExpr('python').join(', ')}])`);
      code.assign('x0', vecLit(x0, 'python'));
      code.line(
        `sol = solve_ivp(lambda t, x: f(t, x, ufun(t)), (0, ${numLit(tf, 'python')}), x0, method='RK45', rtol=${numLit(rtol, 'python')}, atol=${numLit(atol, 'python')}, max_step=${numLit(tf / MIN_POINTS, 'python')})`,
      );
      code.line('print(sol.y[:, -1])   # the final state');
      code.comment('python-control: ct.input_output_response(sys, T, U, X0) on a grid T (solve_ivp RK45 inside)');
    }
    if (r)
      code
        .comment(verdictHolder)
        .expect('x(end)', r.x[r.x.length - 1])
        .expect('steps', r.steps);
  },
};

const lyapunovCode = {
  title: 'quadratic Lyapunov function of a nonlinear model at an equilibrium',
  gen(code: Code, a: Record<string, any>, r: LyapunovCheckResult | undefined) {
    const M = code.lang === 'matlab';
    const m = modelCode(code, a, false);
    const n = m.states.length;
    const x = vec(a.x, n, 'x', '');
    const u = vec(a.u, m.inputs.length, 'u', '');
    if (!r) return;
    code.mat('A', r.A);
    if (M) {
      code.assign('xe', `${vecLit(x, 'matlab')}'`).assign('ue', m.inputs.length ? `${vecLit(u, 'matlab')}'` : 'zeros(0, 1)');
      if (r.P_from === 'lyap') code.mat('Q', r.Q as number[][]).assign('P', "lyap(A', Q)");
      else code.mat('P', r.P);
      code.line('eig(P)   % all positive');
      code.line("eig(A'*P + P*A)   % all negative");
      code.comment(`V-dot on a ${r.grid}-point-per-axis grid of the box |x - xe| <= ${r.radius}, as @control samples it:`);
      code.assign('g', `linspace(-${numLit(r.radius, 'matlab')}, ${numLit(r.radius, 'matlab')}, ${r.grid})`);
      code.assign('c', 'Inf');
      code.line(`D = cell(1, ${n}); [D{:}] = ndgrid(g); D = reshape(cat(${n + 1}, D{:}), [], ${n})';`);
      code.line("for k = 1:size(D, 2), d = D(:, k); if any(d), vd = 2*d'*P*f(xe + d, ue); if vd >= 0, c = min(c, 0.95*d'*P*d); end, end, end");
      code.line('edge = any(abs(D) == max(g), 1); c = min(c, min(sum(D(:, edge) .* (P*D(:, edge)), 1)))');
    } else {
      code.assign('xe', vecLit(x, 'python')).assign('ue', m.inputs.length ? vecLit(u, 'python') : 'np.zeros(0)');
      if (r.P_from === 'lyap') code.mat('Q', r.Q as number[][]).assign('P', "ct.lyap(A.T, Q)   # A'P + PA + Q = 0");
      else code.mat('P', r.P);
      code.line('print(np.linalg.eigvalsh(P), np.linalg.eigvalsh(A.T @ P + P @ A))');
      code.line('import itertools');
      code.assign('g', `np.linspace(-${numLit(r.radius, 'python')}, ${numLit(r.radius, 'python')}, ${r.grid})`);
      code.line('c = np.inf');
      code.line(`for d in itertools.product(g, repeat=${n}):`);
      code.line('    d = np.array(d)');
      code.line('    if d.any() and 2 * d @ P @ f(0, xe + d, ue) >= 0: c = min(c, 0.95 * d @ P @ d)');
      code.line('    if np.isclose(abs(d).max(), g[-1]): c = min(c, d @ P @ d)');
      code.line('print(c)');
    }
    code.comment(verdictHolder).expect('P', r.P).expect('c', r.c);
  },
};

function nlsimPlots(args: Record<string, unknown>): PlotSpec[] {
  const keep: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) if (v !== undefined && v !== null) keep[k] = v;
  return [{ kind: 'nlsim', args: keep, title: 'Plot states against time' }];
}

// ------------------------------------------------------------------ tools

const xVec = (d: string): JsonSchema => ({ type: 'array', items: { type: 'number' }, description: d });

export const tools = [
  tool({
    name: 'find_eqpt',
    words: {
      calls: [
        { names: ['find_eqpt', 'find_operating_point'], args: ['sys', 'x0', 'u0'], keywords: { x0: 'x0', u0: 'u0', y0: 'y0' } },
        { names: ['fsolve'], args: ['sys', 'x0'], note: 'fsolve on f(x, u0) = 0' },
      ],
      phrases: ['equilibrium', 'equilibria', 'equilibrium point', 'equilibrium points', 'operating point', 'fixed point', 'trim point'],
      aliases: { x0: ['initial guess', 'guess', 'xguess'], u0: ['ue', 'u_eq'], y0: ['y_target', 'ytarget'] },
      example: "/find_eqpt x1' = x2; x2' = -9.81*sin(x1) - 0.5*x2 + u with u0 = 2 from x0 = [0; 0]",
    },
    title: 'Equilibrium of a nonlinear model',
    brief: "Equilibrium f(x,u)=0 of state equations written as text (x1' = …) by damped Newton from a guess x0 (find_eqpt).",
    description:
      "Equilibrium of a nonlinear model x' = f(x, u), y = h(x, u) written as equations (\"x1' = x2; x2' = -g/l*sin(x1) - b*x2 + u\", parameters in params): solves f(x, u0) = 0 by damped Newton from the initial guess x0 (default 0) with the input held at u0 (default 0); " +
      'with an output target y0 (as many outputs as inputs) solves f = 0, h = y0 for x and u. Symbolic Jacobian (mathjs derivative). Fails (no claim) when Newton does not converge. ' +
      'Returns x, u, y, the residual, and the eigenvalues of ∂f/∂x there with the local stability they imply.',
    parameters: {
      type: 'object',
      properties: {
        ...modelProps,
        x0: xVec('initial guess of the state (n entries); default 0'),
        u0: xVec('the input held at the equilibrium (m entries; default 0); with y0, the initial guess of the input'),
        y0: xVec('output target: solve for x and u with h(x, u) = y0 (needs as many outputs as inputs)'),
      },
      required: ['equations'],
      additionalProperties: false,
    },
    run: (args) => findEqpt(args),
    intro:
      "**Equilibrium.** A point where the state stops moving: f(x, u) = 0 for x' = f(x, u), found by Newton's method from an initial guess; its local stability follows from the eigenvalues of the Jacobian ∂f/∂x there.",
    render: renderEqpt,
    code: eqptCode,
    model: BY_LOOKUP,
    plots: { none: 'an equilibrium is a point; linearize or nlsim from it to plot' },
  }),
  tool({
    name: 'linearize',
    words: {
      calls: [{ names: ['linearize', 'linearise', 'linmod'], args: ['sys', 'x', 'u'], keywords: { xeq: 'x', ueq: 'u', x0: 'x', u0: 'u' } }],
      phrases: [
        'linearize',
        'linearise',
        'linearization',
        'linearisation',
        'linearized model',
        'linearised model',
        'jacobian linearization',
        'small-signal model',
      ],
      aliases: { x: ['x0', 'xeq', 'xe', 'operating point', 'point'], u: ['u0', 'ueq', 'ue'] },
      example: "/linearize x1' = x2; x2' = -g/l*sin(x1) - b*x2 + u with g = 9.81, l = 1, b = 0.1 about x = [0; 0]",
    },
    title: 'Linearisation of a nonlinear model',
    brief: "A, B, C, D of state equations written as text (x1' = …) at a point x, u by symbolic Jacobians (linearize).",
    description:
      "Linearises x' = f(x, u), y = h(x, u) written as equations (\"x1' = x2; x2' = -g/l*sin(x1) - b*x2 + u\", parameters in params; outputs default y = x) at the point x (required) and u (default 0): " +
      'A = ∂f/∂x, B = ∂f/∂u, C = ∂h/∂x, D = ∂h/∂u by symbolic derivatives (mathjs), evaluated there; says whether the point is an equilibrium. The result is a state-space model (saved as linsys).',
    parameters: {
      type: 'object',
      properties: {
        ...modelProps,
        x: xVec('the operating point of the state (n entries)'),
        u: xVec('the input at the operating point (m entries); default 0'),
      },
      required: ['equations', 'x'],
      additionalProperties: false,
    },
    run: (args) => linearize(args),
    intro:
      "**Linearisation.** Near a point (x₀, u₀), x' = f(x, u) behaves like δx' = A δx + B δu with A = ∂f/∂x and B = ∂f/∂u there (and δy = C δx + D δu from y = h(x, u)); the derivatives are taken symbolically.",
    render: renderLinearize,
    code: linearizeCode,
    model: BY_LOOKUP,
    plots: (_args: Record<string, unknown>, r: LinearizeResult | undefined): PlotSpec[] =>
      r && r.A.length ? [{ kind: 'pzmap', args: { A: r.A }, title: 'Plot poles of the linearisation' }] : [],
  }),
  tool({
    name: 'nlsim',
    words: {
      calls: [
        { names: ['input_output_response'], args: ['sys', 't', 'u', 'x0'], keywords: { T: 't', U: 'u', X0: 'x0' } },
        { names: ['ode45', 'solve_ivp'], args: ['sys', 'tfinal', 'x0'], note: 'an ODE solver on the equations: @control integrates with RK45' },
      ],
      phrases: [
        'simulate the nonlinear',
        'nonlinear simulation',
        'simulate the pendulum',
        'integrate the equations',
        'trajectory of the nonlinear',
        'phase portrait',
      ],
      aliases: { x0: ['X0', 'initial state', 'initial condition'], tfinal: ['T', 'Tf', 'tf', 'tend', 'duration'], u: ['U', 'input'] },
      example: "/nlsim x1' = x2; x2' = -9.81*sin(x1) - 0.1*x2 from x0 = [0.5; 0] for 10 s",
    },
    title: 'Simulation of a nonlinear model',
    brief: "Trajectory x(t) of state equations written as text (x1' = …) from x0 with input u (constant or formula of t), adaptive RK45 (nlsim).",
    description:
      'Simulates x\' = f(x, u), y = h(x, u) written as equations ("x1\' = x2; x2\' = -g/l*sin(x1) - b*x2 + u", parameters in params) from x0 (required) over 0…tfinal (s, default 10) with the input u: a number, a formula of t ("sin(2*t)"), or one per input (default 0). ' +
      'Adaptive Dormand–Prince RK45 (as ode45 and solve_ivp) with rtol (default 1e-6) and atol (default 1e-9); the largest step is tfinal/400. Returns t, x (N x n), y, u, steps.',
    parameters: {
      type: 'object',
      properties: {
        ...modelProps,
        x0: xVec('initial state (n entries)'),
        u: {
          description: 'the input: a number, a formula of t as a string ("sin(2*t)"), or a list with one per input; default 0',
          anyOf: [{ type: 'number' }, { type: 'string' }, { type: 'array', items: { anyOf: [{ type: 'number' }, { type: 'string' }] } }],
        },
        tfinal: { type: 'number', exclusiveMinimum: 0, description: 'end time (s); default 10' },
        rtol: { type: 'number', exclusiveMinimum: 0, description: 'relative tolerance (default 1e-6)' },
        atol: { type: 'number', exclusiveMinimum: 0, description: 'absolute tolerance (default 1e-9)' },
        max_step: { type: 'number', exclusiveMinimum: 0, description: 'largest step (s); default and at most tfinal/400' },
      },
      required: ['equations', 'x0'],
      additionalProperties: false,
    },
    run: (args) => nlsim(args),
    intro:
      "**Nonlinear simulation.** The trajectory of x' = f(x, u) from x0, integrated by an adaptive Runge–Kutta method (Dormand–Prince 5(4), the method of MATLAB's ode45 and SciPy's RK45) that keeps each step's error estimate within rtol·|x| + atol.",
    render: renderNlsim,
    code: nlsimCode,
    model: BY_LOOKUP,
    plots: nlsimPlots,
  }),
  tool({
    name: 'lyapunov_check',
    words: {
      calls: [],
      phrases: [
        'lyapunov function',
        'quadratic lyapunov',
        'region of attraction',
        'domain of attraction',
        'basin of attraction',
        'lyapunov stability of the nonlinear',
      ],
      aliases: { x: ['xe', 'x0', 'equilibrium'], radius: ['box', 'r'] },
      example: "/lyapunov_check x1' = x2; x2' = -sin(x1) - x2 about x = [0; 0] with radius 2",
    },
    title: 'Quadratic Lyapunov function of a nonlinear model',
    brief: "Checks V = (x-xe)'P(x-xe) at an equilibrium of state equations (x1' = …): P ≻ 0, V̇ < 0 near it, a sampled region-of-attraction estimate.",
    description:
      "For x' = f(x, u) written as equations (parameters in params), at the equilibrium x (u held, default 0): V = (x − xe)' P (x − xe) with P given, or from the Lyapunov equation A'P + PA + Q = 0 of the linearisation (Q default I). " +
      "Checks P ≻ 0 and A'P + PA ≺ 0 (V̇ < 0 near xe), and estimates a region of attraction {V < c} by sampling V̇ on a grid of the box |x − xe|∞ ≤ radius (default 1; up to 4 states). Says that the estimate is sampled.",
    parameters: {
      type: 'object',
      properties: {
        ...modelProps,
        x: xVec('the equilibrium (n entries)'),
        u: xVec('the input held there (m entries); default 0'),
        P: {
          type: 'array',
          items: { type: 'array', items: { type: 'number' } },
          description: "the symmetric P of V = (x − xe)' P (x − xe); default: from lyap of the linearisation",
        },
        Q: { type: 'array', items: { type: 'array', items: { type: 'number' } }, description: "Q of A'P + PA + Q = 0 when P is not given; default I" },
        radius: { type: 'number', exclusiveMinimum: 0, description: 'half-width of the sampled box around the equilibrium; default 1' },
        grid: { type: 'integer', minimum: 3, description: 'grid points per axis (default about 40,000 points in all)' },
      },
      required: ['equations', 'x'],
      additionalProperties: false,
    },
    run: (args) => lyapunovCheck(args),
    intro:
      "**Lyapunov function.** V(x) = (x − xe)' P (x − xe) with P ≻ 0 proves an equilibrium asymptotically stable where V̇ = ∇V·f < 0; every level set {V < c} inside the region where V̇ < 0 is a region of attraction.",
    render: renderLyapunov,
    code: lyapunovCode,
    model: BY_LOOKUP,
    plots: { none: 'the level set is described by its semi-axes; nlsim from a point inside it plots a trajectory' },
  }),
];
