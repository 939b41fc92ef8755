/**
 * Independent check of cbf_filter (solvers/cbf.ts). The solver evaluates compiled closures,
 * differentiates h and f symbolically and integrates by adaptive Dormand–Prince; here the model,
 * the barrier and the nominal controller are evaluated by mathjs's own compiled evaluation, ∇h is
 * a Richardson central difference, g(x)'s columns are f(x, e_j) − f(x, 0) (exact for an affine
 * model) and the closed loop is re-integrated by fixed-step RK4:
 * - x(0) = x0 and h(x0) ≥ 0; the time span;
 * - the KKT conditions of the one-constraint QP at every reported point, from the reported u:
 *   u − u_nom = λ·Lghᵀ (stationarity), λ ≥ 0, ψ(u) = Lfh + Lgh·u + α·h ≥ 0 (primal feasibility)
 *   and λ·ψ(u) = 0 (complementary slackness), the reported u_nom and active flags;
 * - every reported step re-integrated from its start by RK4 (8 substeps) with the verifier's own
 *   filter (its closed form from these quantities) lands within 1000·(atol + rtol·|x|) of the
 *   reported end (the filter's switch is a kink in the vector field: steps across it lose order);
 * - h at every point, min h no larger than any point's h, the verdict min h ≥ −tol, and the
 *   summary numbers (max |u − u_nom|, the active share, the final state) recomputed.
 */
import type { Check } from './index.js';
import { check } from './numeric.js';
import { mathjsModel, fdJac, reintegrateRK4 } from './nonlinear.js';
import { mathjs } from '../parse/literal.js';
import { readModel, type NlArgs } from '../solvers/_nlmodel.js';

type R = Record<string, any>;

const inf = (v: readonly number[]) => v.reduce((s, x) => Math.max(s, Math.abs(x)), 0);
const flat = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]).flat() : v === undefined ? [] : [v]);
const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, v, i) => s + v * b[i], 0);

export function cbfChecks(a: R, r: R): Check[] {
  const mm = mathjsModel(a);
  const model = readModel(a as NlArgs);
  const comp = (e: string) => (mathjs().mathParse(e) as { compile(): { evaluate(s: Record<string, unknown>): unknown } }).compile();
  const scope = (x: readonly number[], t: number) => {
    const s: Record<string, unknown> = { ...model.params, t };
    model.states.forEach((n, i) => (s[n] = x[i]));
    return s;
  };
  const num = (v: unknown) => (typeof v === 'number' ? v : NaN);
  const hc = comp(String(a.barrier));
  const hOf = (x: readonly number[]) => num(hc.evaluate(scope(x, 0)));
  const uc = flat(a.u_nom).map((e) => comp(String(e)));
  const unOf = (x: readonly number[], t: number) => uc.map((c) => num(c.evaluate(scope(x, t))));
  const alpha = typeof a.alpha === 'number' ? a.alpha : 1;
  const m = mm.m;
  const zero = new Array(m).fill(0);
  const parts = (x: number[], t: number, rich = true) => {
    const hv = hOf(x);
    const dh = rich
      ? fdJac((z) => [hOf(z)], x, 1)[0]
      : x.map((_, j) => {
          const e = 1e-6 * Math.max(1, Math.abs(x[j]));
          const p = [...x];
          const q = [...x];
          p[j] += e;
          q[j] -= e;
          return (hOf(p) - hOf(q)) / (2 * e);
        });
    const f0 = mm.f(x, zero);
    const Lgh = zero.map((_, j) => {
      const ej = zero.map((_, k) => (k === j ? 1 : 0));
      const fj = mm.f(x, ej);
      return dot(
        dh,
        fj.map((v, i) => v - f0[i]),
      );
    });
    return { hv, Lfh: dot(dh, f0), Lgh, un: unOf(x, t) };
  };
  const ufil = (x: number[], t: number) => {
    const p = parts(x, t, false);
    const psi = p.Lfh + dot(p.Lgh, p.un) + alpha * p.hv;
    const nn = dot(p.Lgh, p.Lgh);
    return psi >= 0 || !(nn > 0) ? p.un : p.un.map((v, j) => v - (psi / nn) * p.Lgh[j]);
  };
  const t = r.t as number[];
  const X = r.x as number[][];
  const U = r.u as number[][];
  const UN = r.u_nom as number[][];
  const H = r.h as number[];
  const act = r.active as boolean[];
  const checks: Check[] = [];
  const x0 = flat(a.x0) as number[];
  checks.push(check('initial state', inf(X[0].map((v, i) => v - x0[i])), 0, 'x(0) is x0'));
  checks.push({ name: 'initially safe', ok: hOf(x0) >= 0, detail: `h(x0) = ${hOf(x0)} ≥ 0 (mathjs)` });
  const tf = typeof a.tfinal === 'number' ? a.tfinal : 10;
  let mono = t[0] === 0 && Math.abs(t[t.length - 1] - tf) <= 1e-12 * tf;
  for (let k = 1; k < t.length; k++) if (!(t[k] > t[k - 1])) mono = false;
  checks.push({ name: 'time span', ok: mono, detail: `t increases from 0 to tfinal = ${tf} s` });
  // KKT of min ‖u − u_nom‖² s.t. ψ(u) ≥ 0 at every point, from the reported u
  let stat = 0;
  let dual = 0;
  let primal = 0;
  let comp2 = 0;
  let unErr = 0;
  let hErr = 0;
  let flagBad = 0;
  for (let k = 0; k < t.length; k++) {
    const p = parts(X[k], t[k]);
    const u = U[k];
    const S = 1 + Math.abs(p.Lfh) + Math.sqrt(dot(p.Lgh, p.Lgh)) * (inf(u) + inf(p.un)) + alpha * Math.abs(p.hv);
    const d = u.map((v, j) => v - p.un[j]);
    const nn = dot(p.Lgh, p.Lgh);
    const lam = nn > 0 ? dot(d, p.Lgh) / nn : 0;
    stat = Math.max(stat, inf(d.map((v, j) => v - lam * p.Lgh[j])) / (1 + inf(u) + inf(p.un)));
    dual = Math.max(dual, (-lam * Math.sqrt(nn)) / S);
    const psi = p.Lfh + dot(p.Lgh, u) + alpha * p.hv;
    primal = Math.max(primal, -psi / S);
    comp2 = Math.max(comp2, (Math.abs(lam) * Math.sqrt(nn) * Math.abs(psi)) / (S * S));
    unErr = Math.max(unErr, inf(p.un.map((v, j) => v - UN[k][j])) / (1 + inf(p.un)));
    hErr = Math.max(hErr, Math.abs(p.hv - H[k]) / (1 + Math.abs(p.hv)));
    if (act[k] !== inf(d) > 0) flagBad++;
  }
  checks.push(check('nominal input', unErr, 1e-10, 'u_nom(x, t) re-evaluated by mathjs at every reported point'));
  checks.push(check('barrier values', hErr, 1e-10, 'h(x) re-evaluated by mathjs at every reported point'));
  checks.push(check('KKT stationarity', stat, 1e-6, 'u − u_nom = λ·Lghᵀ at every point (Lgh with ∇h by finite differences and g by f(x, e_j) − f(x, 0))'));
  checks.push(check('KKT dual feasibility', dual, 1e-6, 'λ ≥ 0 at every point (scaled)'));
  checks.push(check('KKT primal feasibility', primal, 1e-6, 'Lfh + Lgh·u + α·h ≥ 0 at every point with the reported u (scaled)'));
  checks.push(check('KKT complementary slackness', comp2, 1e-6, 'λ·(Lfh + Lgh·u + α·h) = 0 at every point (scaled)'));
  checks.push(check('active flags', flagBad, 0, 'a point is marked active exactly when u differs from u_nom'));
  // each step re-integrated from its start by RK4 with the verifier's own filter
  let minHv = Infinity;
  const { worst } = reintegrateRK4(
    (s, x) => mm.f(x, ufil(x, s)),
    t,
    X,
    r.rtol as number,
    r.atol as number,
    (x) => (minHv = Math.min(minHv, hOf(x))),
  );
  checks.push(
    check(
      'each step by RK4',
      worst / 1000,
      1,
      `every reported step re-integrated from its start by fixed-step RK4 (8 substeps, mathjs's f, the verifier's own filter) lands within 1000·(atol + rtol·|x|) of the reported end (worst ratio / 1000; a step across the filter's switch loses the method's order, so the margin is wider than nlsim's 50)`,
    ),
  );
  // min h and the verdict
  const tolH = r.tol as number;
  const minPts = Math.min(...H);
  checks.push(check('least h', Math.max(0, r.min_h - minPts), 1e-12, 'the reported min h is no larger than h at any reported point'));
  checks.push({
    name: 'invariance verdict',
    ok: r.invariant === r.min_h >= -tolH && (!r.invariant || minHv >= -tolH - 1e-6),
    detail: `min h ≥ −tol ⇔ invariant; when invariant, h on the RK4 substeps stays ≥ −tol (least ${minHv})`,
  });
  // the summary numbers
  let dev = 0;
  let share = 0;
  for (let k = 0; k < t.length; k++) dev = Math.max(dev, inf(U[k].map((v, j) => v - UN[k][j])));
  for (let k = 1; k < t.length; k++) share += ((t[k] - t[k - 1]) * (Number(act[k - 1]) + Number(act[k]))) / 2;
  checks.push(
    check(
      'summary',
      Math.max(Math.abs(dev - r.max_deviation), Math.abs(share / tf - r.active_fraction), inf((r.x_final as number[]).map((v, i) => v - X[X.length - 1][i]))),
      1e-12,
      'max |u − u_nom|, the active share and the final state recomputed from the reported points',
    ),
  );
  return checks;
}
