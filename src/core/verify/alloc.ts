/**
 * Independent checks of wls_alloc (solvers/alloc.ts). The solver runs an active-set method with
 * QR least-squares steps on the stacked problem; here nothing of that is used, only the reported
 * numbers and the problem's own definition, in plain arithmetic:
 * - the limits for this sample are recomputed from the arguments (umin, umax, and with rate
 *   limits max(umin, u_prev + Ts·rate_min), min(umax, u_prev + Ts·rate_max)) and u lies within them;
 * - the achieved virtual control B u and its error B u − v are recomputed;
 * - the KKT conditions of the convex problem min ½‖Wu(u − ud)‖² + ½γ‖Wv(Bu − v)‖² over the box,
 *   from the gradient g = WuᵀWu(u − ud) + γ BᵀWvᵀWv(Bu − v) at the reported u: gᵢ = 0 for an
 *   actuator strictly within its limits, gᵢ ≥ 0 at its lower limit, gᵢ ≤ 0 at its upper limit
 *   (each to rounding of the terms that make it). For a convex problem this certifies u optimal;
 * - the attainability claim, by the same conditions on the reported closest point u_closest for
 *   min ‖Wv(Bu − v)‖² over the box, whose error is recomputed: a KKT point is a global minimum, so
 *   its error is the least any u within the limits can reach (0 exactly when v is attainable).
 */
import type { Check } from './index.js';
import { check, sci } from './numeric.js';

type R = Record<string, any>;

const list = (x: unknown, m: number): number[] => {
  const l = (Array.isArray(x) ? x : [x]) as number[];
  return l.length === 1 && m > 1 ? new Array(m).fill(l[0]) : l;
};

function limits(a: R, m: number): { lo: number[]; hi: number[] } {
  const umin = list(a.umin, m),
    umax = list(a.umax, m);
  if (a.rate_min === undefined && a.rate_max === undefined) return { lo: umin, hi: umax };
  const up = list(a.u_prev, m);
  const rmax = a.rate_max !== undefined ? list(a.rate_max, m) : list(a.rate_min, m).map((x) => -x);
  const rmin = a.rate_min !== undefined ? list(a.rate_min, m) : rmax.map((x) => -x);
  return {
    lo: umin.map((x, j) => Math.max(x, up[j] + a.Ts * rmin[j])),
    hi: umax.map((x, j) => Math.min(x, up[j] + a.Ts * rmax[j])),
  };
}

/** a weight as an n x n matrix: I when absent, a row/column of n entries as its diagonal */
function weight(W: unknown, n: number): number[][] {
  const I = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  if (!Array.isArray(W)) return I;
  const M = W as number[][];
  if (M.length === n && M[0].length === n) return M;
  const d = M.length === 1 ? M[0] : M.map((r) => r[0]);
  return I.map((row, i) => row.map((x) => x * d[i]));
}

/** y = M x, and the sum of |terms| of each entry (its rounding scale) */
function mv(M: number[][], x: number[]): { y: number[]; s: number[] } {
  const y = M.map((r) => r.reduce((t, a, j) => t + a * x[j], 0));
  const s = M.map((r) => r.reduce((t, a, j) => t + Math.abs(a * x[j]), 0));
  return { y, s };
}
const tr = (M: number[][]) => M[0].map((_, j) => M.map((r) => r[j]));
const absM = (M: number[][]) => M.map((r) => r.map(Math.abs));

/**
 * The KKT conditions of min ½‖Wu(u − ud)‖² + ½γ‖Wv(Bu − v)‖² over lo ≤ u ≤ hi at u (γ = 0 and
 * Wu = 0 drop the first term: the closest-point problem). Returns the worst violation relative to
 * the rounding scale of each gradient entry, and what was found.
 */
function kkt(B: number[][], v: number[], Wv: number[][], Wu: number[][] | null, ud: number[], gamma: number, u: number[], lo: number[], hi: number[]) {
  const m = u.length;
  const { y: Bu, s: sBu } = mv(B, u);
  const r = Bu.map((x, i) => x - v[i]);
  const sr = sBu.map((x, i) => x + Math.abs(v[i]));
  const { y: Wr, s: sWr0 } = mv(Wv, r);
  const sWr = mv(absM(Wv), sr).y.map((x, i) => Math.max(x, sWr0[i]));
  const { y: WWr } = mv(tr(Wv), Wr);
  const sWWr = mv(absM(tr(Wv)), sWr).y;
  const { y: g2 } = mv(tr(B), WWr);
  const sg2 = mv(absM(tr(B)), sWWr).y;
  let g = g2.map((x) => gamma * x);
  let sg = sg2.map((x) => gamma * x);
  if (Wu) {
    const du = u.map((x, j) => x - ud[j]);
    const { y: Wdu } = mv(Wu, du);
    const { y: g1 } = mv(tr(Wu), Wdu);
    const sWdu = mv(
      absM(Wu),
      u.map((x, j) => Math.abs(x) + Math.abs(ud[j])),
    ).y;
    const sg1 = mv(absM(tr(Wu)), sWdu).y;
    g = g.map((x, j) => x + g1[j]);
    sg = sg.map((x, j) => x + sg1[j]);
  }
  // a bound counts as active when u is within rounding of it
  let worst = 0;
  let what = 'every actuator within its limits has zero gradient; each at a limit pushes against it';
  const scale = Math.max(...sg, 1e-300);
  for (let j = 0; j < m; j++) {
    const width = Math.max(Math.abs(lo[j]), Math.abs(hi[j]), 1e-300);
    const atLo = u[j] - lo[j] <= 1e-12 * width;
    const atHi = hi[j] - u[j] <= 1e-12 * width;
    // rounding of the gradient entry: 1e-9 of the sum of its terms' sizes (the solver's QR steps
    // err by about eps·cond of the stacked problem, cond ≈ √γ‖Wv B‖/σmin(Wu) ≤ 1e7 is covered)
    const tol = 1e-9 * Math.max(sg[j], 1e-3 * scale);
    let viol = 0;
    if (atLo && atHi) viol = 0;
    else if (atLo) viol = Math.max(0, -g[j]);
    else if (atHi) viol = Math.max(0, g[j]);
    else viol = Math.abs(g[j]);
    const rel = viol / Math.max(tol, 1e-300);
    if (rel > worst) {
      worst = rel;
      what = `actuator ${j + 1}${atLo ? ' at its lower limit' : atHi ? ' at its upper limit' : ' within its limits'}: gradient ${sci(g[j])}`;
    }
  }
  return { worst, what, r };
}

export function allocChecks(a: R, res: R): Check[] {
  const B = a.B as number[][];
  const k = B.length,
    m = B[0].length;
  const v = list(a.v, k);
  const u = res.u as number[];
  const { lo, hi } = limits(a, m);
  const out: Check[] = [];
  // limits
  let over = 0;
  for (let j = 0; j < m; j++) over = Math.max(over, lo[j] - u[j], u[j] - hi[j], Math.abs(res.umin_eff[j] - lo[j]), Math.abs(res.umax_eff[j] - hi[j]));
  const width = Math.max(...lo.map(Math.abs), ...hi.map(Math.abs), 1e-300);
  out.push(check('within the limits', Math.max(0, over) / width, 1e-12, 'u within umin … umax (recomputed, with the rate limits)'));
  // achieved virtual control
  const { y: Bu, s } = mv(B, u);
  let e = 0;
  for (let i = 0; i < k; i++) {
    const sc = Math.max(s[i], Math.abs(v[i]), 1e-300);
    e = Math.max(e, Math.abs(res.achieved[i] - Bu[i]) / sc, Math.abs(res.error[i] - (Bu[i] - v[i])) / sc, Math.abs(res.demanded[i] - v[i]) / sc);
  }
  out.push(check('achieved virtual control', e, 1e-12, 'B u and B u − v recomputed from u'));
  // optimality of u
  const Wv = weight(a.Wv, k);
  const Wu = weight(a.Wu, m);
  const ud = a.ud === undefined ? new Array(m).fill(0) : list(a.ud, m);
  const gamma = typeof a.gamma === 'number' ? a.gamma : 1e6;
  const opt = kkt(B, v, Wv, Wu, ud, gamma, u, lo, hi);
  out.push({
    name: 'KKT conditions',
    ok: opt.worst <= 1,
    value: opt.worst,
    detail: `gradient of ‖Wu(u − ud)‖² + γ‖Wv(Bu − v)‖² at u: zero within the limits, pushing outward at a limit (worst ${sci(opt.worst)} of the tolerance, ${opt.what})`,
  });
  // attainability
  const uc = res.u_closest as number[];
  let overC = 0;
  for (let j = 0; j < m; j++) overC = Math.max(overC, lo[j] - uc[j], uc[j] - hi[j]);
  const near = kkt(B, v, Wv, null, ud, 1, uc, lo, hi);
  const wr = mv(Wv, near.r).y;
  const least = Math.hypot(...wr);
  const WvB = Wv.map((row) => B[0].map((_, j) => row.reduce((t, x, l) => t + x * B[l][j], 0)));
  const fro = Math.hypot(...WvB.flat());
  const lim = Math.max(...lo.map(Math.abs), ...hi.map(Math.abs));
  const tol = 1e-9 * Math.max(fro * lim, Math.hypot(...mv(Wv, v).y), 1e-300);
  const claimOk = res.attainable ? least <= tol : least > tol * 0.5;
  out.push({
    name: 'attainability',
    ok: overC <= 1e-12 * width && near.worst <= 1 && claimOk && Math.abs(least - res.closest_error) <= tol + 1e-9 * least,
    value: least,
    detail: `the closest point within the limits satisfies the KKT conditions of min ‖Wv(Bu − v)‖² (worst ${sci(near.worst)} of the tolerance); its error ${sci(least)} is ${res.attainable ? 'zero to rounding: v attainable' : 'above rounding: v not attainable'}`,
  });
  return out;
}
