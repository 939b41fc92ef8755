/**
 * A control-barrier-function safety filter for control-affine models (issue 14 item 5):
 * `cbf_filter`. The model is written as state equations (solvers/_nlmodel.ts) in which the inputs
 * enter affinely, x' = f(x) + g(x)u (checked symbolically: every ∂²f_i/∂u_j∂u_k is 0); the barrier
 * h(x) defines the safe set {h ≥ 0}; the nominal controller u_nom(x, t) is an expression. The filter
 * is the one-constraint QP of Ames et al. 2019 ("Control Barrier Functions: Theory and
 * Applications", ECC, eq. (14) and its closed form):
 *
 *   u = argmin ‖u − u_nom‖²  s.t.  Lfh(x) + Lgh(x)·u + α·h(x) ≥ 0
 *     = u_nom + max(0, −ψ)/‖Lgh‖² · Lghᵀ,   ψ = Lfh + Lgh·u_nom + α·h
 *
 * with the linear class-K function α(h) = α·h. ∇h is symbolic (mathjs derivative), g(x) = ∂f/∂u
 * (symbolic, exact for an affine model), f(x) = f(x, 0). Where ψ < 0 and Lgh = 0 the input cannot
 * act on h (relative degree above one): no filtered input exists and the simulation stops with a
 * ControlError naming the time. Input bounds are not offered: with bounds the QP needs a
 * feasibility argument (the CBF condition and the box may be incompatible) this tool does not make.
 * The closed loop is integrated by the adaptive RK45 of solvers/nonlinear.ts.
 */
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import type { JsonSchema } from '../tools/types.js';
import { fmt } from '../render/format.js';
import type { RenderOptions } from '../render/markdown.js';
import { num as numLit, vector as vecLit } from '../codegen/literals.js';
import { verdictHolder, type Code } from '../codegen/code.js';
import type { PlotSpec } from '../plot/specs.js';
import { exprCode, nonAffineIn, readModel, scalarExpr, type NlArgs, type NlModel } from './_nlmodel.js';
import { modelBlock, modelCode, modelProps, rk45, type Rk45Run } from './nonlinear.js';

export interface CbfResult extends Rk45Run {
  t: number[];
  /** N x n */
  x: number[][];
  /** the filtered input, N x m */
  u: number[][];
  /** the nominal input, N x m */
  u_nom: number[][];
  /** h(x) at every point */
  h: number[];
  /** whether the constraint bound (ψ < 0, the filter changed u) at every point */
  active: boolean[];
  /** the least h: at the points, refined between the two intervals next to the least point (cubic Hermite) */
  min_h: number;
  t_min_h: number;
  /** time-weighted share of the run with the filter active (trapezoid on the points' flags) */
  active_fraction: number;
  active_points: number;
  /** max ‖u − u_nom‖∞ over the points and when */
  max_deviation: number;
  t_max_deviation: number;
  x_final: number[];
  /** min h ≥ −tol */
  invariant: boolean;
  tol: number;
  alpha: number;
  /** the barrier as read, its gradient and g(x) = ∂f/∂u as text */
  barrier: string;
  grad_h: string[];
  g: string[][];
}

/** the most points the answer keeps (the grid of the integration is at most tfinal/400 apart) */
const MIN_POINTS = 400;

const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]).flat() : v === undefined ? [] : [v]);

function numbers(v: unknown, n: number, name: string, what: string): number[] {
  const arr = listOf(v);
  if (!arr.length || !arr.every((x) => typeof x === 'number' && Number.isFinite(x)))
    throw new ControlError(`${name} must be a list of ${n} numbers (${what}).`);
  if (arr.length !== n) throw new ControlError(`${name} has ${arr.length} entr${arr.length === 1 ? 'y' : 'ies'}; the model has ${n} (${what}).`);
  return arr as number[];
}

interface Filter {
  m: NlModel;
  barrier: ReturnType<typeof scalarExpr>;
  nominal: ReturnType<typeof scalarExpr>[];
  alpha: number;
  at(x: readonly number[], t: number): { u: number[]; un: number[]; h: number; psi: number; active: boolean };
}

function filterOf(a: Record<string, any>): Filter {
  const m = readModel(a as NlArgs);
  const k = m.inputs.length;
  if (!k) throw new ControlError('The model has no input (no u in the equations): a safety filter needs an input to change.');
  const bad = nonAffineIn(m);
  if (bad)
    throw new ControlError(
      `The equation ${bad.state}' = ${bad.text} is not affine in the input: ∂²/∂${bad.wrt[0]}∂${bad.wrt[1]} = ${bad.d2}, not 0. The safety filter needs x' = f(x) + g(x)u; write the input so it enters linearly.`,
    );
  const barrier = scalarExpr(m, String(a.barrier ?? ''), 'The barrier h');
  const un = listOf(a.u_nom);
  if (!un.length) throw new ControlError(`Give the nominal controller u_nom, an expression of ${m.states.join(', ')} and t per input (e.g. "-x1 - x2").`);
  if (un.length !== k)
    throw new ControlError(
      `u_nom has ${un.length} entr${un.length === 1 ? 'y' : 'ies'}; the model has ${k} inputs (${m.inputs.join(', ')}): give one expression each.`,
    );
  const nominal = un.map((v, i) => {
    if (typeof v !== 'number' && typeof v !== 'string') throw new ControlError('u_nom must be an expression (a string) or a number per input.');
    return scalarExpr(m, String(v), `The nominal input ${m.inputs[i]}`, true, false);
  });
  const alpha = a.alpha === undefined ? 1 : a.alpha;
  if (typeof alpha !== 'number' || !(alpha > 0) || !Number.isFinite(alpha))
    throw new ControlError('alpha (the class-K gain, α(h) = α·h) must be a positive number.');
  const jac = m.jacobians();
  const zero = new Array(k).fill(0);
  return {
    m,
    barrier,
    nominal,
    alpha,
    at(x, t) {
      const hv = barrier.at(x);
      const dh = barrier.grad(x);
      const f0 = m.f(x, zero);
      const G = jac.at(x, zero).B;
      const Lfh = dh.reduce((s, d, i) => s + d * f0[i], 0);
      const Lgh = zero.map((_, j) => dh.reduce((s, d, i) => s + d * G[i][j], 0));
      const u0 = nominal.map((e) => e.at(x, t));
      const psi = Lfh + Lgh.reduce((s, l, j) => s + l * u0[j], 0) + alpha * hv;
      if (!(psi < 0)) {
        if (!Number.isFinite(psi))
          throw new ControlError(`The filter's constraint is not finite at t = ${fmt(t)} s (x = [${x.map((v) => fmt(v)).join(', ')}]).`);
        return { u: u0, un: u0, h: hv, psi, active: false };
      }
      const nn = Lgh.reduce((s, l) => s + l * l, 0);
      const scale = Math.hypot(...dh) * Math.max(1e-300, ...G.flat().map(Math.abs));
      if (!(Math.sqrt(nn) > 1e-12 * Math.max(1, scale)))
        throw new ControlError(
          `At t = ${fmt(t)} s (x = [${x.map((v) => fmt(v)).join(', ')}], h = ${fmt(hv)}) the safety constraint Lfh + Lgh·u + α·h ≥ 0 is violated (${fmt(psi)}) and Lgh = 0: the input does not act on h there (h has relative degree above one), so no filtered input exists and no trajectory is claimed past it. Use a barrier whose gradient the input moves, e.g. for x1' = x2, x2' = u and x1 ≤ x_max the barrier h = x_max − x1 − x2^2/(2*a_max) (with x2 ≥ 0), or a single-integrator model.`,
        );
      const lam = -psi / nn;
      return { u: u0.map((v, j) => v + lam * Lgh[j]), un: u0, h: hv, psi, active: true };
    },
  };
}

export function cbfFilter(a: Record<string, any>): CbfResult {
  const F = filterOf(a);
  const m = F.m;
  const n = m.states.length;
  if (a.x0 === undefined) throw new ControlError(`cbf_filter needs the initial state x0 (${m.states.join(', ')}), e.g. x0 = [0; 0].`);
  const x0 = numbers(a.x0, n, 'x0', `the initial state of ${m.states.join(', ')}`);
  const tfinal = typeof a.tfinal === 'number' ? a.tfinal : 10;
  if (!(tfinal > 0) || !Number.isFinite(tfinal)) throw new ControlError('tfinal must be positive (seconds).');
  const rtol = typeof a.rtol === 'number' ? a.rtol : 1e-10;
  const atol = typeof a.atol === 'number' ? a.atol : 1e-12;
  if (rtol < 1e-13 || !(atol > 0)) throw new ControlError('rtol must be at least 1e-13 and atol positive.');
  const tol = typeof a.tol === 'number' ? a.tol : 1e-6;
  if (!(tol >= 0)) throw new ControlError('tol (the invariance tolerance on h) must be non-negative.');
  const h0 = F.barrier.at(x0);
  if (!(h0 >= 0))
    throw new ControlError(
      `x0 = [${x0.map((v) => fmt(v)).join(', ')}] is outside the safe set: h(x0) = ${fmt(h0)} < 0. A safety filter keeps a safe state safe; start where h ≥ 0.`,
    );
  const r = rk45((t, x) => m.f(x, F.at(x, t).u), x0, tfinal, { rtol, atol, maxStep: tfinal / MIN_POINTS });
  const pts = r.t.map((t, i) => F.at(r.x[i], t));
  const h = pts.map((p) => p.h);
  let iMin = 0;
  let iDev = 0;
  let dev = 0;
  h.forEach((v, i) => {
    if (v < h[iMin]) iMin = i;
  });
  pts.forEach((p, i) => {
    const d = Math.max(0, ...p.u.map((v, j) => Math.abs(v - p.un[j])));
    if (d > dev) {
      dev = d;
      iDev = i;
    }
  });
  // the least h between points: each interval next to the least point drawn by its cubic Hermite
  // interpolant (the ends and their derivatives f(x, u)), 64 subpoints each, O(step⁴) accurate
  let minH = h[iMin];
  let tMin = r.t[iMin];
  const dx = r.x.map((x, i) => m.f(x, pts[i].u));
  for (const i of [iMin - 1, iMin]) {
    if (i < 0 || i + 1 >= r.t.length) continue;
    const dt = r.t[i + 1] - r.t[i];
    for (let s = 1; s < 64; s++) {
      const th = s / 64;
      const h00 = 2 * th ** 3 - 3 * th ** 2 + 1;
      const h10 = th ** 3 - 2 * th ** 2 + th;
      const h01 = -2 * th ** 3 + 3 * th ** 2;
      const h11 = th ** 3 - th ** 2;
      const xi = r.x[i].map((v, j) => h00 * v + h10 * dt * dx[i][j] + h01 * r.x[i + 1][j] + h11 * dt * dx[i + 1][j]);
      const hv = F.barrier.at(xi);
      if (hv < minH) {
        minH = hv;
        tMin = r.t[i] + th * dt;
      }
    }
  }
  let act = 0;
  for (let i = 1; i < r.t.length; i++) act += ((r.t[i] - r.t[i - 1]) * (Number(pts[i - 1].active) + Number(pts[i].active))) / 2;
  const jt = m.jacobians().text.B;
  return {
    t: r.t,
    x: r.x,
    u: pts.map((p) => p.u),
    u_nom: pts.map((p) => p.un),
    h,
    active: pts.map((p) => p.active),
    min_h: minH,
    t_min_h: tMin,
    active_fraction: act / tfinal,
    active_points: pts.filter((p) => p.active).length,
    max_deviation: dev,
    t_max_deviation: r.t[iDev],
    x_final: r.x[r.x.length - 1],
    invariant: minH >= -tol,
    tol,
    alpha: F.alpha,
    method: 'RK45',
    steps: r.steps,
    rejected: r.rejected,
    evaluations: r.evaluations,
    rtol,
    atol,
    states: m.states,
    inputs: m.inputs,
    barrier: F.barrier.text,
    grad_h: F.barrier.gradText,
    g: jt,
  };
}

// ------------------------------------------------------------------ rendering

const list = (v: readonly number[], d?: number) => `[${v.map((x) => fmt(x, d)).join(', ')}]`;

function renderCbf(a: Record<string, any>, r: CbfResult, o: RenderOptions): string {
  const N = r.t.length;
  const idx = Array.from(new Set(Array.from({ length: 9 }, (_, i) => Math.round((i * (N - 1)) / 8))));
  const cols = r.states.slice(0, 4);
  const ins = r.inputs.slice(0, 2);
  const table = [
    `| t (s) | ${cols.join(' | ')} | ${ins.map((s) => `${s}_nom`).join(' | ')} | ${ins.join(' | ')} | h | filter |`,
    `|---:|${'---:|'.repeat(cols.length + 2 * ins.length + 1)}---|`,
    ...idx.map(
      (k) =>
        `| ${fmt(r.t[k], o.digits)} | ${cols.map((_, i) => fmt(r.x[k][i], o.digits)).join(' | ')} | ${ins.map((_, j) => fmt(r.u_nom[k][j], o.digits)).join(' | ')} | ${ins
          .map((_, j) => fmt(r.u[k][j], o.digits))
          .join(' | ')} | ${fmt(r.h[k], o.digits)} | ${r.active[k] ? 'active' : '—'} |`,
    ),
  ].join('\n');
  const un = listOf(a.u_nom).map(String);
  const M = o.math;
  const cond = M ? '$L_f h(x) + L_g h(x)\\,u + \\alpha\\, h(x) \\ge 0$' : 'Lfh(x) + Lgh(x)·u + α·h(x) ≥ 0';
  const closed = M
    ? '$u = u_{nom} + \\dfrac{\\max(0, -\\psi)}{\\lVert L_g h\\rVert^2} L_g h^\\top$, $\\psi = L_f h + L_g h\\, u_{nom} + \\alpha h$'
    : 'u = u_nom + max(0, −ψ)/‖Lgh‖² · Lghᵀ with ψ = Lfh + Lgh·u_nom + α·h';
  const verdict = r.invariant
    ? `**Forward invariance: holds on this run.** min h = ${fmt(r.min_h, o.digits)} at t = ${fmt(r.t_min_h, o.digits)} s, ≥ −${fmt(r.tol)} (the tolerance) at all ${N} points; the safe set {h ≥ 0} was not left.`
    : `**Forward invariance: FAILS on this run.** min h = ${fmt(r.min_h, o.digits)} at t = ${fmt(r.t_min_h, o.digits)} s, below −${fmt(r.tol)}: the trajectory left the safe set.`;
  return [
    modelBlock(a, o),
    `**Barrier:** h(x) = ${r.barrier} (safe set h ≥ 0), ∇h = [${r.grad_h.join(', ')}]; g(x) = ∂f/∂u = [${r.g.map((row) => row.join(', ')).join('; ')}] (the equations are affine in ${r.inputs.join(', ')}, checked symbolically: ∂²f/∂u² = 0).`,
    `**Nominal controller:** ${r.inputs.map((s, j) => `${s}_nom = ${un[j] ?? ''}`).join(', ')}. **Class-K function:** linear, α(h) = α·h with α = ${fmt(r.alpha)}${a.alpha === undefined ? ' (default)' : ''}. No input bounds (not offered: with bounds the QP can be infeasible).`,
    `**Filter** (Ames et al. 2019, the one-constraint QP): u = argmin ‖u − u_nom‖² subject to ${cond}; in closed form ${closed}.`,
    `**Simulation from x0 = ${list(listOf(a.x0) as number[], o.digits)}**, t = 0 to ${fmt(r.t[N - 1])} s: RK45 (Dormand–Prince, adaptive) with rtol = ${fmt(r.rtol)}, atol = ${fmt(r.atol)}, ${r.steps} steps (${r.rejected} rejected), largest step tfinal/400.`,
    table,
    [
      `- min h = ${fmt(r.min_h, o.digits)} at t = ${fmt(r.t_min_h, o.digits)} s`,
      `- filter active ${fmt(100 * r.active_fraction, 3)} % of the time (${r.active_points} of ${N} points)`,
      `- max |u − u_nom| = ${fmt(r.max_deviation, o.digits)} at t = ${fmt(r.t_max_deviation, o.digits)} s`,
      `- final state x(${fmt(r.t[N - 1])}) = ${list(r.x_final, o.digits)}`,
    ].join('\n'),
    verdict,
  ]
    .filter(Boolean)
    .join('\n\n');
}

// ------------------------------------------------------------------ code

const cbfCode = {
  title: 'control-barrier-function safety filter, closed loop by ode45 / solve_ivp',
  gen(code: Code, a: Record<string, any>, r: CbfResult | undefined) {
    const M = code.lang === 'matlab';
    const m = modelCode(code, a, false);
    const F = filterOf(a);
    const n = m.states.length;
    const k = m.inputs.length;
    const x0 = numbers(a.x0, n, 'x0', '');
    const tf = typeof a.tfinal === 'number' ? a.tfinal : 10;
    const rtol = typeof a.rtol === 'number' ? a.rtol : 1e-10;
    const atol = typeof a.atol === 'number' ? a.atol : 1e-12;
    const jt = m.jacobians().text.B;
    const lang = code.lang as 'matlab' | 'python';
    const ren = (name: string) => {
      const i = m.states.indexOf(name);
      if (i >= 0) return M ? `x(${i + 1})` : `x[${i}]`;
      return name;
    };
    const ex = (e: string) => exprCode(e, lang, ren);
    code.assign('alpha', numLit(F.alpha, lang));
    if (M) {
      code.assign('G', `@(x) [${jt.map((row) => row.map(ex).join(', ')).join('; ')}]`);
      code.comment(`g(x) = df/du: the equations are affine in ${m.inputs.join(', ')}`);
      code.assign('hb', `@(x) ${ex(F.barrier.text)}`);
      code.assign('dh', `@(x) [${F.barrier.gradText.map(ex).join(', ')}]`);
      code.assign('unom', `@(t, x) [${F.nominal.map((e) => ex(e.text)).join('; ')}]`);
      code.assign('psi', `@(t, x) dh(x)*f(x, zeros(${k}, 1)) + dh(x)*G(x)*unom(t, x) + alpha*hb(x)`);
      code.comment('closed form of argmin |u - unom|^2 s.t. Lfh + Lgh*u + alpha*h >= 0 (realmin: 0 when inactive and Lgh = 0)');
      code.assign('ufil', `@(t, x) unom(t, x) + max(0, -psi(t, x)) / max(norm(dh(x)*G(x))^2, realmin) * (dh(x)*G(x))'`);
      code.assign('x0', `${vecLit(x0, 'matlab')}'`);
      code.assign('opts', `odeset('RelTol', ${numLit(rtol, 'matlab')}, 'AbsTol', ${numLit(atol, 'matlab')}, 'MaxStep', ${numLit(tf / MIN_POINTS, 'matlab')})`);
      code.line(`[t, x] = ode45(@(t, x) f(x, ufil(t, x)), [0 ${numLit(tf, 'matlab')}], x0, opts);`);
      code.line('hs = arrayfun(@(i) hb(x(i, :)), 1:numel(t));');
      code.line('[hmin, imin] = min(hs); [hmin, t(imin)]');
      code.line('x(end, :)');
      code.line("plot(t, x); xlabel('t (s)'); legend(" + m.states.map((s) => `'${s}'`).join(', ') + ')');
    } else {
      code.line('from scipy.integrate import solve_ivp');
      code.line(`G = lambda x: np.array([${jt.map((row) => `[${row.map(ex).join(', ')}]`).join(', ')}], dtype=float)   # df/du (affine in u)`);
      code.line(`hb = lambda x: ${ex(F.barrier.text)}`);
      code.line(`dh = lambda x: np.array([${F.barrier.gradText.map(ex).join(', ')}], dtype=float)`);
      code.line(`unom = lambda t, x: np.array([${F.nominal.map((e) => ex(e.text)).join(', ')}], dtype=float)`);
      code.line('def ufil(t, x):');
      code.line(`    Lfh = dh(x) @ f(t, x, np.zeros(${k}))`);
      code.line('    Lgh = dh(x) @ G(x)');
      code.line('    un = unom(t, x)');
      code.line('    psi = Lfh + Lgh @ un + alpha * hb(x)');
      code.line('    return un if psi >= 0 else un - psi / (Lgh @ Lgh) * Lgh');
      code.assign('x0', vecLit(x0, 'python'));
      code.line(
        `sol = solve_ivp(lambda t, x: f(t, x, ufil(t, x)), (0, ${numLit(tf, 'python')}), x0, method='RK45', rtol=${numLit(rtol, 'python')}, atol=${numLit(atol, 'python')}, max_step=${numLit(tf / MIN_POINTS, 'python')})`,
      );
      code.line('hs = np.array([hb(x) for x in sol.y.T])');
      code.line('print(hs.min(), sol.t[hs.argmin()], sol.y[:, -1])   # min h, when, the final state');
    }
    if (r) code.comment(verdictHolder).expect('min h', r.min_h).expect('x(end)', r.x_final).expect('invariant', r.invariant);
  },
};

function cbfPlots(args: Record<string, unknown>): PlotSpec[] {
  const keep: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) if (v !== undefined && v !== null) keep[k] = v;
  return [{ kind: 'nlsim', args: keep, title: 'Plot states and the filtered input against time' }];
}

// ------------------------------------------------------------------ tool

const exprList = (d: string): JsonSchema => ({
  description: d,
  anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } }],
});

export const tools = [
  tool({
    name: 'cbf_filter',
    words: {
      calls: [],
      phrases: [
        'control barrier function',
        'control barrier',
        'barrier function',
        'cbf',
        'cbf filter',
        'cbf-qp',
        'safety filter',
        'safety-critical control',
        'forward invariance',
        'forward invariant',
      ],
      aliases: {
        barrier: ['h', 'barrier function', 'cbf', 'safe set'],
        u_nom: ['nominal', 'nominal controller', 'nominal input', 'u_des', 'udes', 'k_nom'],
        alpha: ['gamma', 'class-K gain', 'class K gain'],
        x0: ['X0', 'initial state', 'initial condition'],
        tfinal: ['T', 'Tf', 'tf', 'tend', 'duration'],
      },
      example: "/cbf_filter x1' = u1; x2' = u2 with barrier h = x1^2 + x2^2 - 1 and nominal u = [2 - x1; -x2] from x0 = [-3; 0.5] for 10 s",
    },
    title: 'Control-barrier-function safety filter',
    brief:
      "Safety filter u = argmin |u - u_nom|^2 s.t. Lfh + Lgh u + alpha h >= 0 for control-affine state equations (x1' = …), simulated with a forward-invariance check (cbf_filter).",
    description:
      "Control-barrier-function safety filter for a control-affine model x' = f(x) + g(x)u written as equations (\"x1' = u1; x2' = u2\", parameters in params; affinity in u is checked symbolically), barrier h(x) (expression; safe set h ≥ 0), nominal controller u_nom (expression of the states and t, one per input) and class-K gain alpha (default 1, α(h) = α·h): " +
      'u = argmin ‖u − u_nom‖² s.t. Lfh + Lgh·u + α·h ≥ 0, in closed form (one constraint). No input bounds. The closed loop is simulated from x0 (h(x0) ≥ 0 required) over 0…tfinal (default 10 s) by adaptive RK45 (rtol 1e-10, atol 1e-12, tight because the switch of the filter is a kink). ' +
      'Returns t, x, u, u_nom, h, min h and when, the share of time the filter was active, max |u − u_nom|, the final state and the forward-invariance verdict (min h ≥ −tol, default 1e-6). Fails where the constraint is violated and Lgh = 0 (relative degree above one).',
    parameters: {
      type: 'object',
      properties: {
        ...modelProps,
        barrier: { type: 'string', description: 'the barrier h(x), an expression of the states (safe set h ≥ 0), e.g. "x1^2 + x2^2 - 1"' },
        u_nom: exprList('the nominal controller: an expression of the states and t per input (a list for several inputs), e.g. ["2 - x1", "-x2"]'),
        alpha: { type: 'number', exclusiveMinimum: 0, description: 'class-K gain α in α(h) = α·h; default 1' },
        x0: { type: 'array', items: { type: 'number' }, description: 'initial state (n entries), inside the safe set (h(x0) ≥ 0)' },
        tfinal: { type: 'number', exclusiveMinimum: 0, description: 'end time (s); default 10' },
        rtol: { type: 'number', exclusiveMinimum: 0, description: 'relative tolerance (default 1e-10)' },
        atol: { type: 'number', exclusiveMinimum: 0, description: 'absolute tolerance (default 1e-12)' },
        tol: { type: 'number', minimum: 0, description: 'invariance tolerance: min h ≥ −tol counts as safe (default 1e-6)' },
      },
      required: ['equations', 'barrier', 'u_nom', 'x0'],
      additionalProperties: false,
    },
    run: (args) => cbfFilter(args),
    intro:
      '**Control barrier function safety filter.** A barrier h(x) ≥ 0 marks the safe states; if every input obeys ḣ ≥ −α·h, the state cannot leave that set (forward invariance). The filter changes the nominal input as little as possible to obey that condition, and the closed loop is simulated to check it.',
    render: renderCbf,
    code: cbfCode,
    model: BY_LOOKUP,
    plots: cbfPlots,
  }),
];
