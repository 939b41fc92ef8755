/**
 * Independent checks of the interconnection tools (series, parallel, feedback, append) and
 * minreal. The solvers build state-space matrices (or polynomials) and reduce them by the
 * controllability staircase; here nothing of that is used. Each subsystem's own frequency
 * response is evaluated at test points s (or z) chosen away from every pole, the block-diagram
 * algebra is done on those complex matrices (series G2·G1, parallel G1 ± G2, feedback
 * (I − sign·G1·S·G2·F)⁻¹·G1, append diag(G1, …)), and the result's C(sI − A)⁻¹B + D (and num/den
 * when SISO) must agree. Minimality by the Krylov/Arnoldi/PBH rank check of verify/index.ts;
 * closed-loop poles by the return difference det(I − sign·L(p)) = 0 at each pole.
 */
import type { Complex, Matrix } from '../types.js';
import type { Check } from './index.js';
import { pairRankCheck } from './rank.js';
import { evalSS, evalTF, companion, polyval, ringTestPoints } from './systems.js';
import { complexSolve, safeEigenvalues, safeSingularValues, sci, strip } from './numeric.js';
import { readTfzpkArg } from './tfzpk.js';

/** a complex matrix as real and imaginary parts */
export interface CM {
  re: number[][];
  im: number[][];
}

/** one system argument as the verifier reads it */
export interface VSys {
  /** p x m at s, or undefined for a number (its size depends on the connection) */
  at?: (s: Complex) => CM;
  gain?: number;
  poles: Complex[];
  n: number;
  m: number;
  p: number;
}

const zerosM = (r: number, c: number) => Array.from({ length: r }, () => new Array(c).fill(0));
export const cm = (r: number, c: number): CM => ({ re: zerosM(r, c), im: zerosM(r, c) });

function cmul(X: CM, Y: CM): CM {
  const r = X.re.length,
    k = Y.re.length,
    c = Y.re[0]?.length ?? 0;
  const out = cm(r, c);
  for (let i = 0; i < r; i++)
    for (let j = 0; j < c; j++) {
      let a = 0,
        b = 0;
      for (let l = 0; l < k; l++) {
        a += X.re[i][l] * Y.re[l][j] - X.im[i][l] * Y.im[l][j];
        b += X.re[i][l] * Y.im[l][j] + X.im[i][l] * Y.re[l][j];
      }
      out.re[i][j] = a;
      out.im[i][j] = b;
    }
  return out;
}

export function cadd(X: CM, Y: CM, beta = 1): CM {
  return { re: X.re.map((r, i) => r.map((v, j) => v + beta * Y.re[i][j])), im: X.im.map((r, i) => r.map((v, j) => v + beta * Y.im[i][j])) };
}

export const ceye = (n: number, k = 1): CM => ({ re: zerosM(n, n).map((r, i) => r.map((_, j) => (i === j ? k : 0))), im: zerosM(n, n) });
const cconst = (p: number, m: number, k: number): CM => ({ re: zerosM(p, m).map((r) => r.map(() => k)), im: zerosM(p, m) });

/** M⁻¹X (complex), by the verifier's own Gaussian elimination */
export function csolve(Mx: CM, X: CM): CM {
  const n = Mx.re.length,
    m = X.re[0]?.length ?? 0;
  const Mr = Float64Array.from(Mx.re.flat()),
    Mi = Float64Array.from(Mx.im.flat());
  const Xr = Float64Array.from(X.re.flat()),
    Xi = Float64Array.from(X.im.flat());
  complexSolve(Mr, Mi, n, Xr, Xi, m);
  const out = cm(n, m);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < m; j++) {
      out.re[i][j] = Xr[i * m + j];
      out.im[i][j] = Xi[i * m + j];
    }
  return out;
}

/** blkdiag of complex matrices */
function cdiag(list: CM[]): CM {
  const r = list.reduce((s, X) => s + X.re.length, 0);
  const c = list.reduce((s, X) => s + (X.re[0]?.length ?? 0), 0);
  const out = cm(r, c);
  let r0 = 0,
    c0 = 0;
  for (const X of list) {
    X.re.forEach((row, i) =>
      row.forEach((v, j) => {
        out.re[r0 + i][c0 + j] = v;
        out.im[r0 + i][c0 + j] = X.im[i][j];
      }),
    );
    r0 += X.re.length;
    c0 += X.re[0]?.length ?? 0;
  }
  return out;
}

const cfro = (X: CM) => Math.sqrt(X.re.flat().reduce((s, v) => s + v * v, 0) + X.im.flat().reduce((s, v) => s + v * v, 0));

/** singular values of a complex matrix by its real embedding [[R, −J], [J, R]] (each one twice) */
export function csv(X: CM): number[] {
  const r = X.re.length,
    c = X.re[0]?.length ?? 0;
  const big = zerosM(2 * r, 2 * c);
  for (let i = 0; i < r; i++)
    for (let j = 0; j < c; j++) {
      big[i][j] = big[r + i][c + j] = X.re[i][j];
      big[i][c + j] = -X.im[i][j];
      big[r + i][j] = X.im[i][j];
    }
  return safeSingularValues(big);
}

const asMat = (x: unknown): Matrix =>
  typeof x === 'number' ? [[x]] : Array.isArray(x) && x.every((v) => typeof v === 'number') ? [x as number[]] : (x as Matrix);
const rootsOf = (p: number[]): Complex[] => {
  const c = companion(p);
  return c.length ? safeEigenvalues(c) : [];
};

/** a system argument read by the verifier itself: a number, {num, den} or {A, B, C, D} */
export function readV(v: unknown): VSys {
  if (typeof v === 'number') return { gain: v, poles: [], n: 0, m: 1, p: 1 };
  const o = v as Record<string, unknown>;
  // a MIMO {num, den} or a {z, p, k}: read by verify/tfzpk.ts
  const t = readTfzpkArg(o);
  if (t) return t;
  if (o.num !== undefined) {
    const num = strip(typeof o.num === 'number' ? [o.num] : (o.num as number[]));
    const den = strip(typeof o.den === 'number' ? [o.den] : (o.den as number[]));
    return {
      at: (s) => {
        const [re, im] = evalTF(num, den, s);
        return { re: [[re]], im: [[im]] };
      },
      poles: rootsOf(den),
      n: den.length - 1,
      m: 1,
      p: 1,
    };
  }
  const A = asMat(o.A ?? []);
  const n = A.length && A[0].length ? A.length : 0;
  const D0 = o.D !== undefined && o.D !== null ? asMat(o.D) : undefined;
  const B = n ? asMat(o.B) : [];
  const C = n ? asMat(o.C) : [];
  const m = n ? B[0].length : D0![0].length;
  const p = n ? C.length : D0!.length;
  const D = D0 ?? zerosM(p, m);
  return {
    at: (s) => {
      const h = evalSS(n ? A : [], n ? B : zerosM(0, m), n ? C : zerosM(p, 0), D, s);
      return { re: h.re.to2DArray(), im: h.im.to2DArray() };
    },
    poles: n ? safeEigenvalues(A) : [],
    n,
    m,
    p,
  };
}

/** the frequency response of a system at s, a number expanded to p x m as k·I or k on every channel */
function valueAt(v: VSys, s: Complex, p: number, m: number, how: 'eye' | 'ones'): CM {
  if (v.at) return v.at(s);
  return how === 'ones' ? cconst(p, m, v.gain!) : { re: zerosM(p, m).map((r, i) => r.map((_, j) => (i === j ? v.gain! : 0))), im: zerosM(p, m) };
}

/**
 * worst relative difference of two lists of complex matrices (floored at 1e-3 of the largest),
 * each divided by its point's allowed difference: at most 1 passes
 */
function worstDiff(got: CM[], want: CM[], allowed: number[]): number {
  const big = Math.max(1e-300, ...want.map(cfro));
  let worst = 0;
  got.forEach((g, i) => {
    const w = want[i];
    if (g.re.length !== w.re.length || (g.re[0]?.length ?? 0) !== (w.re[0]?.length ?? 0)) worst = Infinity;
    else worst = Math.max(worst, cfro(cadd(g, w, -1)) / Math.max(cfro(w), 1e-3 * big) / allowed[i]);
  });
  return worst;
}

/** whether the slack allows anything at these points */
const pairs = (slack: (s: Complex) => number, pts: Complex[]) => pts.some((s) => slack(s) > 0);

/** tolerance of the transfer-function comparisons: common factors are cancelled to sqrt(eps), so not 1e-12 */
const TF_TOL = 1e-6;

const resultSys = (r: Record<string, any>): VSys => readV({ A: r.A, B: r.B, C: r.C, D: r.D });

/** H_result = H_expected at test points, by the state space and (SISO) by num/den; removed + kept = all states */
export function agreement(expected: (s: Complex) => CM, parts: VSys[], r: Record<string, any>, what: string, slack: (s: Complex) => number = () => 0): Check[] {
  const res = resultSys(r);
  const poles = [...parts.flatMap((x) => x.poles), ...res.poles, ...(Array.isArray(r.poles) ? (r.poles as Complex[]) : [])];
  if (Array.isArray(r.den)) poles.push(...rootsOf(strip(r.den)));
  const pts = ringTestPoints(poles);
  const want = pts.map(expected);
  const checks: Check[] = [];
  const allowed = pts.map((s) => TF_TOL + slack(s));
  const d = worstDiff(
    pts.map((s) => res.at!(s)),
    want,
    allowed,
  );
  checks.push({
    name: 'transfer function',
    ok: d <= 1 && pts.length >= 3,
    value: d,
    detail: `C(sI − A)⁻¹B + D equals ${what} from each system's own response at ${pts.length} test points (${sci(d)} of the tolerance${pairs(slack, pts) ? ', which allows for the cancelled pairs' : ` ${sci(TF_TOL)}`})`,
  });
  if (Array.isArray(r.num) && Array.isArray(r.den)) {
    const dn = worstDiff(
      pts.map((s) => {
        const [re, im] = evalTF(r.num, r.den, s);
        return { re: [[re]], im: [[im]] };
      }),
      want,
      allowed,
    );
    checks.push({ name: 'num/den', ok: dn <= 1, value: dn, detail: `num/den agrees at the same points (${sci(dn)} of the tolerance)` });
  }
  return checks;
}

/** the result is minimal: (A, B) controllable and (A, C) observable, by the rank check of verify/index.ts */
export function minimalChecks(r: Record<string, any>, total: number | undefined): Check[] {
  const n = (r.A as Matrix).length;
  const checks: Check[] = [];
  if (total !== undefined) {
    const removed = (r.removed as unknown[]).length;
    checks.push({
      name: 'order',
      ok: n + removed === total,
      value: n,
      detail: `${n} states kept and ${removed} removed of the ${total} states of the systems`,
    });
  }
  if (!n) return checks;
  const c = pairRankCheck(r.A, r.B, false, n);
  const o = pairRankCheck(r.A, r.C, true, n);
  checks.push(
    { ...c, name: 'controllable', detail: `result controllable: ${c.detail}` },
    { ...o, name: 'observable', detail: `result observable: ${o.detail}` },
  );
  return checks;
}

function sign(v: unknown, def: number): number {
  return v === 1 || v === -1 ? v : def;
}

function verifySeries(args: Record<string, any>, r: Record<string, any>): Check[] {
  const a = readV(args.sys1),
    b = readV(args.sys2);
  // a number is k·I: sized by the other
  const m1 = a.at ? a.m : b.at ? b.m : 1;
  const p1 = a.at ? a.p : m1;
  const p2 = b.at ? b.p : p1;
  const G = (s: Complex) => cmul(valueAt(b, s, p2, p1, 'eye'), valueAt(a, s, p1, m1, 'eye'));
  return [...agreement(G, [a, b], r, 'G2·G1'), ...minimalChecks(r, a.n + b.n)];
}

function verifyParallel(args: Record<string, any>, r: Record<string, any>): Check[] {
  const a = readV(args.sys1),
    b = readV(args.sys2);
  const sg = sign(args.sign, 1);
  const p = a.at ? a.p : b.at ? b.p : 1;
  const m = a.at ? a.m : b.at ? b.m : 1;
  const G = (s: Complex) => cadd(valueAt(a, s, p, m, 'ones'), valueAt(b, s, p, m, 'ones'), sg);
  return [...agreement(G, [a, b], r, `G1 ${sg < 0 ? '−' : '+'} G2`), ...minimalChecks(r, a.n + b.n)];
}

function verifyAppend(args: Record<string, any>, r: Record<string, any>): Check[] {
  const parts = (args.systems as unknown[]).map(readV);
  const G = (s: Complex) => cdiag(parts.map((x) => valueAt(x, s, 1, 1, 'eye')));
  return [
    ...agreement(G, parts, r, 'diag(G1, G2, …)'),
    ...minimalChecks(
      r,
      parts.reduce((t, x) => t + x.n, 0),
    ),
  ];
}

function verifyFeedback(args: Record<string, any>, r: Record<string, any>): Check[] {
  const a = readV(args.sys1),
    b = readV(args.sys2 ?? 1);
  const sg = sign(args.sign, -1);
  const m1 = a.m,
    p1 = a.p;
  const fin: number[] = Array.isArray(args.feedin) ? args.feedin.map((x: number) => x - 1) : Array.from({ length: m1 }, (_, i) => i);
  const fout: number[] = Array.isArray(args.feedout) ? args.feedout.map((x: number) => x - 1) : Array.from({ length: p1 }, (_, i) => i);
  const S: CM = { re: zerosM(m1, fin.length).map((row, i) => row.map((_, k) => (fin[k] === i ? 1 : 0))), im: zerosM(m1, fin.length) };
  const F: CM = { re: zerosM(fout.length, p1).map((row, k) => row.map((_, j) => (fout[k] === j ? 1 : 0))), im: zerosM(fout.length, p1) };
  const G1 = (s: Complex) => valueAt(a, s, p1, m1, 'eye');
  // the loop seen from the outputs of sys1: L = G1·S·G2·F (p1 x p1)
  const L = (s: Complex) => cmul(cmul(cmul(G1(s), S), valueAt(b, s, fin.length, fout.length, 'eye')), F);
  const T = (s: Complex) => csolve(cadd(ceye(p1), L(s), -sg), G1(s));
  const checks = [...agreement(T, [a, b], r, `(I ${sg < 0 ? '+' : '−'} G1·G2)⁻¹·G1`), ...minimalChecks(r, a.n + b.n)];
  // closed-loop poles: as many as the loop has states; each a zero of det(I − sign·L) unless it is a pole of the open loop too
  const poles = (r.poles ?? []) as Complex[];
  const open = [...a.poles, ...b.poles];
  const scale = Math.max(1, ...poles.map(([x, y]) => Math.hypot(x, y)), ...open.map(([x, y]) => Math.hypot(x, y)));
  let worst = 0,
    shared = 0;
  for (const p of poles) {
    const near = Math.min(Infinity, ...open.map((q) => Math.hypot(q[0] - p[0], q[1] - p[1])));
    if (near <= 1e-6 * scale) {
      shared++;
      continue;
    }
    const Lp = L(p);
    const sv = csv(cadd(ceye(p1), Lp, -sg));
    worst = Math.max(worst, sv[sv.length - 1] / (1 + Math.max(...csv(Lp))));
  }
  checks.push({
    name: 'closed-loop poles',
    ok: poles.length === a.n + b.n && worst <= 1e-6,
    value: worst,
    detail: `${poles.length} poles (the loop has ${a.n + b.n} states); det(I ${sg < 0 ? '+' : '−'} L(p)) vanishes at each (σmin ${sci(worst)})${shared ? `; ${shared} shared with the open loop` : ''}`,
  });
  return checks;
}

/** |p(x)| / Σ|p_i||x|^i: how nearly x is a root of p (relative backward error) */
function rootResidual(p: number[], x: Complex): number {
  const [re, im] = polyval(p, x);
  const sc = polyval(p.map(Math.abs), [Math.hypot(x[0], x[1]), 0])[0];
  return Math.hypot(re, im) / Math.max(sc, 1e-300);
}

function verifyMinreal(args: Record<string, any>, r: Record<string, any>): Check[] {
  const tf = Array.isArray(args.num);
  const input = readV(tf ? { num: args.num, den: args.den } : { A: args.A, B: args.B, C: args.C, D: args.D });
  const pairs = (tf && Array.isArray(r.cancelled) ? r.cancelled : []) as { zero: Complex; pole: Complex }[];
  // cancelling a zero z against a pole p that is not exactly at z changes H by the factor
  // (s − z)/(s − p) = 1 + (p − z)/(s − p): that much difference is allowed, no more
  // (relative to H of the input: (p − z)/(s − z))
  const dist = (a: Complex, b: Complex) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  const slack = (s: Complex) => pairs.reduce((t, { zero, pole }) => t + (2 * dist(zero, pole)) / Math.min(dist(s, zero), dist(s, pole)), 0);
  const checks = agreement((s) => input.at!(s), [input], r, 'the input model', slack);
  if (tf) {
    const tol = typeof args.tol === 'number' ? args.tol : Math.sqrt(Number.EPSILON);
    const num = strip(args.num),
      den = strip(args.den);
    const worst = Math.max(0, ...pairs.map(({ zero, pole }) => Math.max(rootResidual(den, zero), rootResidual(num, pole))));
    checks.push({
      name: 'cancelled pairs',
      ok: worst <= 10 * tol,
      value: worst,
      detail: pairs.length
        ? `each cancelled zero is a root of den and each pole a root of num to ${sci(worst)} (relative backward error; tol ${sci(tol)})`
        : 'no pole-zero pair cancelled',
    });
  }
  return [...checks, ...minimalChecks(r, input.n)];
}

export const INTERCONNECT_CHECKS = {
  series: (args: Record<string, any>, r: Record<string, any>) => verifySeries(args, r),
  parallel: (args: Record<string, any>, r: Record<string, any>) => verifyParallel(args, r),
  feedback: (args: Record<string, any>, r: Record<string, any>) => verifyFeedback(args, r),
  append: (args: Record<string, any>, r: Record<string, any>) => verifyAppend(args, r),
  minreal: (args: Record<string, any>, r: Record<string, any>) => verifyMinreal(args, r),
};
