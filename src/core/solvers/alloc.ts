/**
 * Control allocation (issue 14 item 6): distributing a demanded virtual control v (moments,
 * forces) over redundant actuators u through the control effectiveness B (k x m, Bu = v), within
 * the actuators' position limits and, optionally, their rate limits. Conventions are those of
 * Härkegård's QCAT toolbox (wls_alloc), the standard reference:
 *
 *   min over u  ‖Wu (u − ud)‖² + γ ‖Wv (B u − v)‖²   subject to  umin ≤ u ≤ umax,
 *
 * Wv (k x k) and Wu (m x m) default to I, ud to 0 and γ to 1e6 (QCAT's defaults); solved by a
 * primal active-set method on the stacked least-squares form A = [√γ·Wv·B; Wu],
 * b = [√γ·Wv·v; Wu·ud], started at the midpoint of the limits with an empty working set, the
 * working set W as QCAT's (−1 at a lower limit, +1 at an upper limit, 0 free) and QCAT's
 * iteration count (the changes of the working set + 1). Rate limits with the previous command
 * u_prev and sample time Ts give QCAT's effective limits umin_eff = max(umin, u_prev + Ts·rate_min),
 * umax_eff = min(umax, u_prev + Ts·rate_max).
 *
 * Härkegård, "Efficient active set algorithms for solving constrained least squares problems in
 * aircraft control allocation", CDC 2002; QCAT's sls_alloc (sequential least squares: first the
 * least ‖Wv(Bu − v)‖, then the least ‖Wu(u − ud)‖ among those; the limit γ → ∞ of wls_alloc) and
 * dir_alloc (direct allocation: v scaled down along its own direction until attainable) are not
 * separate tools; the answer says how far the weighted solution is from sls's error.
 *
 * Attainability: v is attainable when some u within the limits gives Bu = v exactly. It is decided
 * by the first stage of sls_alloc, the same active-set method on min ‖Wv(Bu − v)‖² over the box:
 * its least error is 0 (to rounding) exactly when v is attainable; the minimising point u_closest
 * and its error are reported, so the verifier can check the decision by its own KKT conditions.
 *
 * Solver: hand-written in the kernel style, with the one kernel's least squares (linalg/qr.ts
 * lstsq, QR with column pivoting, MATLAB backslash's basic solution). No maintained JavaScript
 * bounded-variable least-squares library exists (npm has ml-fcnnls, non-negativity only, and no
 * BVLS); an active-set method over m ≤ a few dozen actuators is a few dozen lines and converges
 * in at most a few times m steps (Härkegård 2002 §4: in practice ≤ m + 1).
 */
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import { matrix, vector } from '../tools/schema.js';
import { checkMatrix, fmtSize } from '../tools/args.js';
import type { RenderOptions } from '../render/markdown.js';
import { fmt } from '../render/format.js';
import type { Matrix } from '../types.js';
import type { Code } from '../codegen/code.js';
import { verdictHolder } from '../codegen/code.js';
import { matrix as matrixLiteral, num as numberLiteral, vector as vectorLiteral } from '../codegen/literals.js';
import { type Mat, EPS, fromRows, normF, zeros } from '../linalg/dense.js';
import { lstsq } from '../linalg/qr.js';

// ------------------------------------------------------------------ the active-set method

export interface BoxLSResult {
  u: Float64Array;
  /** QCAT's working set: −1 at the lower limit, +1 at the upper, 0 free */
  W: Int8Array;
  /** QCAT's count: changes of the working set + 1 */
  iterations: number;
  converged: boolean;
}

/**
 * min ‖A u − b‖² subject to lo ≤ u ≤ hi, QCAT wls_alloc's primal active-set iteration from a
 * feasible u0 with working set W0: solve the least-squares problem in the free variables for a
 * step p; take it whole if it stays within the limits, then drop the bound with the most negative
 * multiplier λᵢ = Wᵢ·(Aᵀd)ᵢ (d = b − Au) or stop when none is negative; else step to the first
 * limit met and add it to the working set. The multipliers' tolerance is relative (QCAT compares
 * with −eps absolutely, which depends on the scale of A and b).
 */
export function boxLeastSquares(A: Mat, b: Float64Array, lo: Float64Array, hi: Float64Array, u0: Float64Array, W0: Int8Array, imax: number): BoxLSResult {
  const m = A.c,
    rows = A.r;
  const u = Float64Array.from(u0);
  const W = Int8Array.from(W0);
  const d = new Float64Array(rows);
  const residual = () => {
    for (let i = 0; i < rows; i++) {
      let s = b[i];
      for (let j = 0; j < m; j++) s -= A.d[i * m + j] * u[j];
      d[i] = s;
    }
  };
  residual();
  let bnorm = 0;
  for (let i = 0; i < rows; i++) bnorm = Math.max(bnorm, Math.abs(b[i]));
  const aNorm = normF(A);
  for (let iter = 1; iter <= imax; iter++) {
    const free: number[] = [];
    for (let j = 0; j < m; j++) if (W[j] === 0) free.push(j);
    const p = new Float64Array(m);
    if (free.length) {
      const Af = zeros(rows, free.length);
      for (let i = 0; i < rows; i++) for (let k = 0; k < free.length; k++) Af.d[i * free.length + k] = A.d[i * m + free[k]];
      const { x } = lstsq(Af, d);
      free.forEach((j, k) => (p[j] = x[k]));
    }
    let feasible = true;
    for (const j of free)
      if (u[j] + p[j] < lo[j] || u[j] + p[j] > hi[j]) {
        feasible = false;
        break;
      }
    if (feasible) {
      for (const j of free) u[j] += p[j];
      residual();
      // multipliers of the bounds in the working set
      let uNorm = 0;
      for (let j = 0; j < m; j++) uNorm = Math.max(uNorm, Math.abs(u[j]));
      const tol = 64 * m * EPS * aNorm * (bnorm + aNorm * uNorm + 1e-300);
      let worst = 0;
      let at = -1;
      for (let j = 0; j < m; j++) {
        if (W[j] === 0) continue;
        let g = 0;
        for (let i = 0; i < rows; i++) g += A.d[i * m + j] * d[i];
        const lambda = W[j] * g;
        if (lambda < -tol && lambda < worst) {
          worst = lambda;
          at = j;
        }
      }
      if (at < 0) return { u, W, iterations: iter, converged: true };
      W[at] = 0;
    } else {
      // the first limit met along p (a step of at most 1)
      let alpha = 1;
      let at = -1;
      for (const j of free) {
        let dist = Infinity;
        if (p[j] < 0) dist = (lo[j] - u[j]) / p[j];
        else if (p[j] > 0) dist = (hi[j] - u[j]) / p[j];
        if (dist < alpha) {
          alpha = Math.max(0, dist);
          at = j;
        }
      }
      for (const j of free) u[j] = Math.min(hi[j], Math.max(lo[j], u[j] + alpha * p[j]));
      if (at >= 0) {
        W[at] = p[at] > 0 ? 1 : -1;
        u[at] = p[at] > 0 ? hi[at] : lo[at];
      }
      residual();
    }
  }
  return { u, W, iterations: imax, converged: false };
}

// ------------------------------------------------------------------ the tool

export interface AllocResult {
  u: number[];
  /** B u, the virtual control the allocation achieves */
  achieved: number[];
  /** v as demanded */
  demanded: number[];
  /** B u − v */
  error: number[];
  /** QCAT's working set: −1 at the lower limit, +1 at the upper, 0 free */
  W: number[];
  /** 1-based indices of the actuators at a limit */
  saturated: number[];
  umin_eff: number[];
  umax_eff: number[];
  /** whether some u within the limits gives B u = v */
  attainable: boolean;
  /** the least ‖Wv(B u − v)‖ over the limits (0 when attainable), and a u that reaches it */
  closest_error: number;
  u_closest: number[];
  /** ‖Wv(B u − v)‖ of the allocation u */
  weighted_error: number;
  /** the cost ‖Wu(u − ud)‖² + γ‖Wv(Bu − v)‖² at u */
  cost: number;
  gamma: number;
  iterations: number;
  /** what was read or defaulted, said in the answer */
  notes: string[];
}

const isNum = (x: unknown): x is number => typeof x === 'number';

/** a limit vector: m entries, or one number for every actuator (said) */
function limitVector(v: unknown, name: string, m: number, notes: string[]): Float64Array {
  const list = (Array.isArray(v) ? v : [v]) as unknown[];
  if (!list.every(isNum)) throw new ControlError(`${name} must be a list of numbers (one per actuator).`);
  if (list.length === 1 && m > 1) {
    notes.push(`${name} = ${fmt(list[0] as number)} for every actuator.`);
    return new Float64Array(m).fill(list[0] as number);
  }
  if (list.length !== m)
    throw new ControlError(`${name} has ${list.length} entries but B has ${m} columns (one per actuator): give ${m} entries, or one for all.`);
  return Float64Array.from(list as number[]);
}

/** a weight matrix n x n, or a row/column of n entries read as its diagonal (said) */
function weight(v: unknown, name: string, n: number, what: string, notes: string[]): Mat {
  if (v === undefined || v === null) {
    const I = zeros(n, n);
    for (let i = 0; i < n; i++) I.d[i * n + i] = 1;
    return I;
  }
  const M = checkMatrix(v, name);
  const r = M.length,
    c = M[0]?.length ?? 0;
  if (r === n && c === n) return fromRows(M);
  if ((r === 1 && c === n) || (c === 1 && r === n)) {
    const diag = r === 1 ? M[0] : M.map((row) => row[0]);
    notes.push(`${name} given as ${n} entries: read as diag(${diag.map((x) => fmt(x)).join(', ')}).`);
    const D = zeros(n, n);
    diag.forEach((x, i) => (D.d[i * n + i] = x));
    return D;
  }
  throw new ControlError(`${name} is ${fmtSize(M)} but must be ${n}x${n} (${what}), or ${n} diagonal entries.`);
}

const mulMV = (A: Mat, x: ArrayLike<number>): Float64Array => {
  const y = new Float64Array(A.r);
  for (let i = 0; i < A.r; i++) {
    let s = 0;
    for (let j = 0; j < A.c; j++) s += A.d[i * A.c + j] * x[j];
    y[i] = s;
  }
  return y;
};
const matMul = (A: Mat, B: Mat): Mat => {
  const C = zeros(A.r, B.c);
  for (let i = 0; i < A.r; i++) for (let k = 0; k < A.c; k++) for (let j = 0; j < B.c; j++) C.d[i * B.c + j] += A.d[i * A.c + k] * B.d[k * B.c + j];
  return C;
};
const norm2 = (x: ArrayLike<number>) => Math.hypot(...Array.from(x));

export function wlsAlloc(args: Record<string, any>): AllocResult {
  const notes: string[] = [];
  const Bm = checkMatrix(args.B, 'B');
  const k = Bm.length,
    m = Bm[0]?.length ?? 0;
  if (!k || !m)
    throw new ControlError('wls_alloc needs the control effectiveness B (k x m: k virtual controls, m actuators) with at least one row and column.');
  const B = fromRows(Bm);
  const vList = (Array.isArray(args.v) ? args.v : [args.v]) as number[];
  if (vList.length !== k) throw new ControlError(`v has ${vList.length} entries but B has ${k} rows (one per virtual control): v must have ${k}.`);
  const v = Float64Array.from(vList);
  const umin = limitVector(args.umin, 'umin', m, notes);
  const umax = limitVector(args.umax, 'umax', m, notes);
  for (let j = 0; j < m; j++)
    if (umin[j] > umax[j]) throw new ControlError(`actuator ${j + 1}: umin = ${fmt(umin[j])} is above umax = ${fmt(umax[j])}; give umin ≤ umax.`);
  const lo = Float64Array.from(umin),
    hi = Float64Array.from(umax);
  // rate limits: QCAT's effective position limits for this sample
  const rateGiven = args.rate_min !== undefined || args.rate_max !== undefined;
  if (rateGiven) {
    if (args.u_prev === undefined || !isNum(args.Ts))
      throw new ControlError(
        'rate limits need the previous command u_prev and the sample time Ts: the limits for this sample are max(umin, u_prev + Ts·rate_min) and min(umax, u_prev + Ts·rate_max).',
      );
    if (!(args.Ts > 0)) throw new ControlError('Ts must be positive (the sample time over which the rate limits apply).');
    const uPrev = limitVector(args.u_prev, 'u_prev', m, notes);
    let rmin: Float64Array, rmax: Float64Array;
    if (args.rate_max !== undefined) rmax = limitVector(args.rate_max, 'rate_max', m, notes);
    if (args.rate_min !== undefined) rmin = limitVector(args.rate_min, 'rate_min', m, notes);
    if (args.rate_min === undefined) {
      rmin = rmax!.map((x) => -x);
      notes.push('rate_min not given: a symmetric rate limit rate_min = −rate_max.');
    }
    if (args.rate_max === undefined) {
      rmax = rmin!.map((x) => -x);
      notes.push('rate_max not given: a symmetric rate limit rate_max = −rate_min.');
    }
    for (let j = 0; j < m; j++) {
      if (rmin![j] > rmax![j]) throw new ControlError(`actuator ${j + 1}: rate_min = ${fmt(rmin![j])} is above rate_max = ${fmt(rmax![j])}.`);
      lo[j] = Math.max(umin[j], uPrev[j] + args.Ts * rmin![j]);
      hi[j] = Math.min(umax[j], uPrev[j] + args.Ts * rmax![j]);
      if (lo[j] > hi[j])
        throw new ControlError(
          `actuator ${j + 1}: the rate limits from u_prev = ${fmt(uPrev[j])} (reachable ${fmt(uPrev[j] + args.Ts * rmin![j])} … ${fmt(uPrev[j] + args.Ts * rmax![j])} in Ts = ${fmt(args.Ts)} s) do not meet the position limits ${fmt(umin[j])} … ${fmt(umax[j])}; the previous command is too far outside them.`,
        );
    }
    notes.push(`Rate limits over Ts = ${fmt(args.Ts)} s: umin_eff = max(umin, u_prev + Ts·rate_min), umax_eff = min(umax, u_prev + Ts·rate_max) (QCAT's).`);
  } else if (args.u_prev !== undefined)
    throw new ControlError('u_prev is used only with rate limits (rate_min/rate_max and Ts); give them, or leave u_prev out.');
  else if (isNum(args.Ts))
    notes.push(`Ts = ${fmt(args.Ts)} s is used only with rate limits (rate_min/rate_max and u_prev); none were given, so it changes nothing.`);
  const Wv = weight(args.Wv, 'Wv', k, 'the virtual-control weight, k x k', notes);
  const Wu = weight(args.Wu, 'Wu', m, 'the actuator weight, m x m', notes);
  const ud = args.ud === undefined ? new Float64Array(m) : limitVector(args.ud, 'ud', m, notes);
  const gamma = isNum(args.gamma) ? args.gamma : 1e6;
  if (!(gamma > 0)) throw new ControlError('gamma must be positive (the weight of the virtual-control error against the actuator effort; QCAT default 1e6).');

  // the stacked problem A = [√γ Wv B; Wu], b = [√γ Wv v; Wu ud]
  const g = Math.sqrt(gamma);
  const WvB = matMul(Wv, B);
  const Wvv = mulMV(Wv, v);
  const A = zeros(k + m, m);
  const b = new Float64Array(k + m);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < m; j++) A.d[i * m + j] = g * WvB.d[i * m + j];
    b[i] = g * Wvv[i];
  }
  const Wud = mulMV(Wu, ud);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < m; j++) A.d[(k + i) * m + j] = Wu.d[i * m + j];
    b[k + i] = Wud[i];
  }
  const mid = lo.map((x, j) => (x + hi[j]) / 2);
  const imax = 100 + 10 * m;
  const sol = boxLeastSquares(A, b, lo, hi, mid, new Int8Array(m), imax);
  if (!sol.converged)
    throw new ControlError(
      `wls_alloc: the active-set method did not settle in ${imax} iterations (a degenerate problem: check B and the weights for near-dependent columns).`,
    );
  // stage one of sls_alloc: the least ‖Wv(Bu − v)‖ over the limits decides attainability
  const first = boxLeastSquares(WvB, Wvv, lo, hi, mid, new Int8Array(m), imax);
  if (!first.converged)
    throw new ControlError(`wls_alloc: the attainability check (least ‖Wv(Bu − v)‖ within the limits) did not settle in ${imax} iterations.`);
  const closest = norm2(mulMV(WvB, first.u).map((x, i) => x - Wvv[i]));
  let lim = 0;
  for (let j = 0; j < m; j++) lim = Math.max(lim, Math.abs(lo[j]), Math.abs(hi[j]));
  const attainTol = attainabilityTolerance(normF(WvB), lim, norm2(Wvv));

  const u = Array.from(sol.u);
  const achieved = Array.from(mulMV(B, sol.u));
  const error = achieved.map((x, i) => x - v[i]);
  const werr = norm2(mulMV(Wv, error));
  const du = Array.from(
    mulMV(
      Wu,
      sol.u.map((x, j) => x - ud[j]),
    ),
  );
  return {
    u,
    achieved,
    demanded: Array.from(v),
    error,
    W: Array.from(sol.W),
    saturated: u.flatMap((_, j) => (sol.W[j] !== 0 ? [j + 1] : [])),
    umin_eff: Array.from(lo),
    umax_eff: Array.from(hi),
    attainable: closest <= attainTol,
    closest_error: closest,
    u_closest: Array.from(first.u),
    weighted_error: werr,
    cost: du.reduce((s, x) => s + x * x, 0) + gamma * werr * werr,
    gamma,
    iterations: sol.iterations,
    notes,
  };
}

/** the least error below which v counts as attainable: rounding of Wv·B·u and Wv·v */
export function attainabilityTolerance(normWvB: number, uLimit: number, normWvv: number): number {
  return 1e-9 * Math.max(normWvB * uLimit, normWvv, 1e-300);
}

// ------------------------------------------------------------------ render

function renderAlloc(a: Record<string, any>, r: AllocResult, o: RenderOptions): string {
  const f = (x: number) => fmt(x, o.digits);
  const objective = o.math
    ? '$\\min_u \\|W_u(u-u_d)\\|^2 + \\gamma\\|W_v(Bu-v)\\|^2$ subject to $u_{\\min} \\le u \\le u_{\\max}$'
    : 'min ‖Wu(u − ud)‖² + γ‖Wv(Bu − v)‖² subject to umin ≤ u ≤ umax';
  const rated = a.rate_min !== undefined || a.rate_max !== undefined;
  const status = (j: number) => (r.W[j] > 0 ? '**at upper limit**' : r.W[j] < 0 ? '**at lower limit**' : 'within limits');
  const act = [
    `| actuator | u | ${rated ? 'umin_eff' : 'umin'} | ${rated ? 'umax_eff' : 'umax'} | status |`,
    '|---|---:|---:|---:|---|',
    ...r.u.map((x, j) => `| u${j + 1} | ${f(x)} | ${f(r.umin_eff[j])} | ${f(r.umax_eff[j])} | ${status(j)} |`),
  ].join('\n');
  const virt = [
    '| virtual control | demanded v | achieved Bu | error Bu − v |',
    '|---|---:|---:|---:|',
    ...r.demanded.map((x, i) => `| v${i + 1} | ${f(x)} | ${f(r.achieved[i])} | ${f(r.error[i])} |`),
  ].join('\n');
  const out = [`**Allocation** (${objective}, γ = ${f(r.gamma)}; ${r.iterations} active-set iteration${r.iterations === 1 ? '' : 's'}):`, act, virt];
  const sat = r.saturated.length
    ? `Saturated: ${r.saturated.map((j) => `u${j} (${r.W[j - 1] > 0 ? 'upper' : 'lower'})`).join(', ')}.`
    : 'No actuator is at a limit.';
  if (r.attainable)
    out.push(
      `**v is attainable**: some u within the limits gives Bu = v exactly. ${sat} The remaining error ‖Wv(Bu − v)‖ = ${f(r.weighted_error)} is the trade-off against ‖Wu(u − ud)‖ that γ sets (it shrinks like 1/γ; QCAT's sls_alloc, the limit γ → ∞, makes it 0).`,
    );
  else
    out.push(
      `**v is not attainable** within the limits: the least error any u within them can reach is ‖Wv(Bu − v)‖ = ${f(r.closest_error)} (this allocation: ${f(r.weighted_error)}). ${sat} QCAT's dir_alloc would instead keep v's direction and scale its size down.`,
    );
  if (r.notes.length) out.push(r.notes.join(' '));
  return out.join('\n\n');
}

// ------------------------------------------------------------------ code

const col = (v: readonly number[], code: Code) => (code.lang === 'matlab' ? `${vectorLiteral(v, code.lang)}'` : vectorLiteral(v, code.lang));
const asList = (x: unknown): number[] => (Array.isArray(x) ? (x as number[]) : [x as number]);
const fill = (x: unknown, m: number) => {
  const l = asList(x);
  return l.length === 1 && m > 1 ? new Array(m).fill(l[0]) : l;
};

function allocCode(code: Code, a: Record<string, any>, r: AllocResult | undefined): void {
  const M = code.lang === 'matlab';
  const Bm = a.B as Matrix;
  const k = Bm.length,
    m = Bm[0].length;
  code.mat('B', Bm).assign('v', col(asList(a.v), code));
  code.assign('umin', col(fill(a.umin, m), code)).assign('umax', col(fill(a.umax, m), code));
  const diagOr = (W: unknown, n: number) =>
    W === undefined
      ? M
        ? `eye(${n})`
        : `np.eye(${n})`
      : Array.isArray((W as Matrix)[0]) && (W as Matrix).length === n && (W as Matrix)[0].length === n
        ? matrixLiteral(W as Matrix, code.lang)
        : M
          ? `diag(${vectorLiteral((W as Matrix).flat(), code.lang)})`
          : `np.diag(${vectorLiteral((W as Matrix).flat(), code.lang)})`;
  code.assign('Wv', diagOr(a.Wv, k)).assign('Wu', diagOr(a.Wu, m));
  code.assign('ud', a.ud === undefined ? (M ? `zeros(${m}, 1)` : `np.zeros(${m})`) : col(fill(a.ud, m), code));
  code.assign('gam', numberLiteral(isNum(a.gamma) ? a.gamma : 1e6, code.lang));
  if (a.rate_min !== undefined || a.rate_max !== undefined) {
    const rmax = a.rate_max !== undefined ? fill(a.rate_max, m) : fill(a.rate_min, m).map((x) => -x);
    const rmin = a.rate_min !== undefined ? fill(a.rate_min, m) : rmax.map((x) => -x);
    code.assign('u_prev', col(fill(a.u_prev, m), code)).assign('Ts', numberLiteral(a.Ts, code.lang));
    code.assign('rate_min', col(rmin, code)).assign('rate_max', col(rmax, code));
    code.comment("rate limits: this sample's position limits (QCAT's)");
    if (M) code.assign('umin', 'max(umin, u_prev + Ts*rate_min)').assign('umax', 'min(umax, u_prev + Ts*rate_max)');
    else code.assign('umin', 'np.maximum(umin, u_prev + Ts * rate_min)').assign('umax', 'np.minimum(umax, u_prev + Ts * rate_max)');
  }
  if (M) {
    code.comment("Härkegård's QCAT toolbox (wls_alloc: min ||Wu(u-ud)||^2 + gam*||Wv(B*u-v)||^2, umin <= u <= umax):");
    code.line('[u, W, iter] = wls_alloc(B, v, umin, umax, Wv, Wu, ud, gam);   % W: -1 lower, +1 upper limit, 0 free');
    code.comment('without QCAT, the same problem with the Optimization Toolbox:');
    code.comment('u = lsqlin([sqrt(gam)*Wv*B; Wu], [sqrt(gam)*Wv*v; Wu*ud], [], [], [], [], umin, umax);');
    code.line('achieved = B*u   % the virtual control the allocation achieves; compare with v');
  } else {
    code.line('from scipy.optimize import lsq_linear');
    code.comment("the stacked bounded least-squares problem of QCAT's wls_alloc");
    code.line('A = np.vstack([np.sqrt(gam) * Wv @ B, Wu])');
    code.line('b = np.concatenate([np.sqrt(gam) * Wv @ v, Wu @ ud])');
    code.line("u = lsq_linear(A, b, bounds=(umin, umax), method='bvls', tol=1e-12).x");
    code.line('achieved = B @ u   # the virtual control the allocation achieves; compare with v');
  }
  if (r) code.comment(verdictHolder).expect('u', r.u).expect('achieved', r.achieved).expect('W', r.W);
}

// ------------------------------------------------------------------ table

const limitSchema = (what: string) => vector(`${what}, one per actuator (m entries; one number: the same for every actuator)`);

export const tools = [
  tool({
    name: 'wls_alloc',
    words: {
      calls: [
        { names: ['wls_alloc'], args: ['B', 'v', 'umin', 'umax', 'Wv', 'Wu', 'ud', 'gamma'] },
        {
          names: ['sls_alloc'],
          args: ['B', 'v', 'umin', 'umax', 'Wv', 'Wu', 'ud'],
          note: "sls_alloc (sequential least squares) is the limit γ → ∞ of wls_alloc; computed as wls_alloc with QCAT's γ = 1e6, which the answer's error shows",
        },
      ],
      phrases: [
        'control allocation',
        'wls allocation',
        'weighted least squares allocation',
        'weighted least-squares allocation',
        'weighted least squares control allocation',
        'weighted least-squares control allocation',
        'allocate to actuators',
        'allocate to the actuators',
        'actuator allocation',
        'control allocator',
        'allocate the virtual control',
        'virtual control allocation',
        'redundant actuators',
      ],
      // "allocate v = [..] to the actuators": the verb and the object apart, named when nothing stronger is
      weak: ['allocate', 'allocation', 'actuators', 'virtual control'],
      aliases: { gamma: ['gam'], u_prev: ['uprev', 'u_last', 'ulast'], Ts: ['T', 'dt'], rate_min: ['rmin'], rate_max: ['rmax'] },
      example: '/wls_alloc B=[1 1 0; 0 1 1], v=[1; 0.5], umin=[-1 -1 -1], umax=[1 1 1]',
    },
    title: 'Control allocation by weighted least squares (wls_alloc)',
    brief: 'Control allocation: u within limits with B u ≈ v, min ||Wu(u-ud)||² + γ||Wv(Bu-v)||² (QCAT wls_alloc).',
    description:
      "Weighted least-squares control allocation with actuator position limits (Härkegård's QCAT wls_alloc(B, v, umin, umax, Wv, Wu, ud, gam)): " +
      'minimise ‖Wu(u − ud)‖² + γ‖Wv(Bu − v)‖² subject to umin ≤ u ≤ umax, by a primal active-set method. B is k x m (k virtual controls, m actuators), v k entries, umin/umax m entries (one number: the same for all). ' +
      'Defaults as QCAT: Wv = I, Wu = I, ud = 0, gamma = 1e6. Rate limits: u_prev, Ts and rate_min/rate_max give umin_eff = max(umin, u_prev + Ts·rate_min), umax_eff = min(umax, u_prev + Ts·rate_max). ' +
      'Returns u, achieved B u against the demanded v with the error, the working set W (−1 lower, +1 upper limit, 0 free), the saturated actuators, whether v is attainable within the limits (and the least reachable error), and the iterations.',
    parameters: {
      type: 'object',
      properties: {
        B: matrix('control effectiveness B (k x m): virtual control v = B u'),
        v: vector('demanded virtual control v (k entries)'),
        umin: limitSchema('lower position limits'),
        umax: limitSchema('upper position limits'),
        Wv: matrix('virtual-control weight Wv (k x k), default I; k entries: its diagonal'),
        Wu: matrix('actuator weight Wu (m x m), default I; m entries: its diagonal'),
        ud: vector('desired actuator position ud (m entries), default 0'),
        gamma: { type: 'number', description: 'weight γ of the virtual-control error (QCAT gam), default 1e6', exclusiveMinimum: 0 },
        u_prev: vector('previous actuator command (m entries), for rate limits'),
        rate_min: limitSchema('lower rate limits (units per second, negative)'),
        rate_max: limitSchema('upper rate limits (units per second)'),
        Ts: { type: 'number', description: 'sample time in seconds over which the rate limits apply', exclusiveMinimum: 0 },
      },
      required: ['B', 'v', 'umin', 'umax'],
      additionalProperties: false,
    },
    run: wlsAlloc,
    intro:
      "**Control allocation.** The demanded virtual control v (moments, forces) is distributed over the actuators u through the effectiveness B, v = Bu, by weighted least squares within the actuators' limits (Härkegård's QCAT wls_alloc): the error Bu − v weighs γ times more than the actuator effort, so v is met exactly when it can be and as closely as the limits allow when it cannot.",
    render: renderAlloc,
    code: { title: 'weighted least-squares control allocation (QCAT wls_alloc)', gen: allocCode },
    model: BY_LOOKUP,
    plots: { none: 'no plot kind fits (the plots are of systems); the tables show each u within its limits and the achieved against the demanded v' },
  }),
];
