/**
 * Independent checks of the L∞ and L2 norms that hinfnorm and h2norm give beside the H∞ and
 * H2 norms (solvers/norms.ts), by routes the solver does not take. The solver finds the L∞
 * peak by the Hamiltonian level-set method and the L2 norm by a stable/antistable Schur
 * decomposition with Lyapunov equations; here the model is only evaluated, by a dense complex
 * solve (evalSS), at frequencies of the verifier's own choosing:
 * - L∞: σ̄(G) at the reported frequency equals the norm (attained), and no frequency of a dense
 *   sweep (log-spaced around the poles' magnitudes, the poles' own frequencies, 0 and ∞, or
 *   the whole Nyquist interval when discrete), refined by golden section around its largest
 *   local maxima, has a larger gain (not exceeded);
 * - L2: (1/π)∫₀^∞ ‖G(jω)‖²_F dω by adaptive Gauss–Kronrod (7-15) quadrature after the change of
 *   variable ω = w₀·tan θ (a finite interval; the integrand stays bounded at θ = π/2 because
 *   ‖G‖² ~ 1/ω² when D = 0), split at the poles' frequencies; discrete, (1/π)∫₀^π ‖G(e^{jθ})‖²_F dθ.
 * - the counts of poles beyond and on the stability boundary agree with the verifier's own
 *   eigensolver, to a tolerance band either side of the boundary.
 */
import { Matrix as M } from 'ml-matrix';
import type { Complex, Matrix } from '../types.js';
import type { Check } from './index.js';
import { evalSS, isDiscrete } from './systems.js';
import { check, ldexp, safeEigenvalues, safeSingularValues, scaleExponent, sci } from './numeric.js';

type R = Record<string, any>;

/** the largest model the quadrature and the sweep evaluate (each point is a dense n x n complex solve) */
export const NORM_CHECK_MAX_N = 80;

interface Model {
  A: Matrix;
  B: Matrix;
  C: Matrix;
  D: Matrix;
  Ts: number;
  /** the norms of the model as given are those of (A, B, C, D) here times 2^k */
  k: number;
  ev: Complex[];
}

/**
 * B and C scaled by powers of 2 to entries near 1 (exact), D with them: the norms of the
 * scaled model times 2^k are the model's (‖G‖ is linear in B and in C), and ‖G‖² of entries
 * near 1e200 does not overflow.
 */
function model(args: R): Model {
  const A = args.A as Matrix;
  const B = args.B as Matrix;
  const C = args.C as Matrix;
  const D0 = Array.isArray(args.D) && args.D.length ? (args.D as Matrix) : C.map(() => (B[0] ?? []).map(() => 0));
  const kb = A.length ? scaleExponent(B) : 0,
    kc = A.length ? scaleExponent(C) : 0;
  const sc = (X: Matrix, e: number) => (e ? X.map((r) => r.map((v) => ldexp(v, -e))) : X);
  return {
    A,
    B: sc(B, kb),
    C: sc(C, kc),
    D: sc(D0, kb + kc),
    Ts: isDiscrete(args) ? (args.Ts as number) : 0,
    k: kb + kc,
    ev: A.length ? safeEigenvalues(A) : [],
  };
}

/** G at the frequency ω (rad/s): jω, or e^{jωTs} */
function gAt(m: Model, w: number): { re: M; im: M } {
  if (w === Infinity) return { re: new M(m.D), im: M.zeros(m.D.length, m.D[0]?.length ?? 0) };
  const s: Complex = m.Ts ? [Math.cos(w * m.Ts), Math.sin(w * m.Ts)] : [0, w];
  return evalSS(m.A, m.B, m.C, m.D, s);
}

/** σ̄ of a complex matrix, from its real embedding [Re −Im; Im Re] (the verifier's SVD) */
function sigmaMax(h: { re: M; im: M }): number {
  const p = h.re.rows,
    q = h.re.columns;
  if (!p || !q) return 0;
  const big = new M(2 * p, 2 * q);
  big.setSubMatrix(h.re, 0, 0).setSubMatrix(h.im.clone().mul(-1), 0, q).setSubMatrix(h.im, p, 0).setSubMatrix(h.re, p, q);
  return safeSingularValues(big)[0] ?? 0;
}

function fro2(h: { re: M; im: M }): number {
  let s = 0;
  for (const X of [h.re, h.im]) for (const row of X.to2DArray()) for (const v of row) s += v * v;
  return s;
}

/** the poles' distances beyond the boundary (Re λ, or |λ| − 1) and the tolerance band around it */
function poleBand(m: Model): { d: number[]; band: number } {
  const d = m.ev.map(([re, im]) => (m.Ts ? Math.hypot(re, im) - 1 : re));
  const scale = Math.max(1, ...m.ev.map(([re, im]) => Math.hypot(re, im)));
  return { d, band: 1e-8 * scale };
}

/** unstable_poles and boundary_poles within the counts the verifier's eigenvalues allow */
function poleCountCheck(m: Model, r: R): Check {
  const { d, band } = poleBand(m);
  const surely = d.filter((x) => x > band).length; // beyond, whatever the rounding
  const maybe = d.filter((x) => x >= -band).length; // beyond or on, to within it
  const nU = r.unstable_poles as number,
    nB = r.boundary_poles as number;
  const ok =
    Number.isInteger(nU) &&
    Number.isInteger(nB) &&
    nU >= surely - d.filter((x) => Math.abs(x) <= band).length &&
    nU + nB >= surely &&
    nU + nB <= maybe &&
    nU <= maybe;
  const where = m.Ts ? 'outside / on the unit circle' : 'in the right half-plane / on the imaginary axis';
  return {
    name: 'pole count',
    ok,
    detail: ok
      ? `${nU} pole(s) ${where.split(' / ')[0]} and ${nB} ${where.split(' / ')[1]}, as the verifier's eigensolver finds them (${surely} surely beyond, ${maybe} beyond or within ${sci(band)} of the boundary)`
      : `the result counts ${nU} unstable and ${nB} boundary pole(s), but the verifier's eigensolver finds ${surely} surely beyond the boundary and ${maybe} beyond or within ${sci(band)} of it`,
  };
}

// ------------------------------------------------------------------ L∞

/** the verifier's frequency sweep: dense, with the poles' frequencies, 0 (and ∞ when continuous) */
function sweep(m: Model, points: number): number[] {
  const ws = new Set<number>([0]);
  if (m.Ts) {
    const top = Math.PI / m.Ts;
    for (let i = 0; i <= points; i++) ws.add((top * i) / points);
    for (const [re, im] of m.ev) ws.add(Math.abs(Math.atan2(im, re)) / m.Ts);
  } else {
    const mags = m.ev.map(([re, im]) => Math.hypot(re, im)).filter((v) => v > 0);
    const lo = Math.log10(mags.length ? Math.min(...mags) : 1) - 3;
    const hi = Math.log10(mags.length ? Math.max(...mags) : 1) + 3;
    for (let i = 0; i <= points; i++) ws.add(10 ** (lo + ((hi - lo) * i) / points));
    for (const [re, im] of m.ev) {
      ws.add(Math.abs(im));
      ws.add(Math.hypot(re, im));
    }
  }
  return [...ws].sort((a, b) => a - b);
}

/** golden-section maximum of f on [a, b] */
function goldenMax(f: (w: number) => number, a: number, b: number, iters = 60): { w: number; v: number } {
  const g = (Math.sqrt(5) - 1) / 2;
  let x1 = b - g * (b - a),
    x2 = a + g * (b - a);
  let f1 = f(x1),
    f2 = f(x2);
  for (let i = 0; i < iters && b - a > 1e-14 * Math.max(Math.abs(a), Math.abs(b), 1e-300); i++) {
    if (f1 < f2) {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + g * (b - a);
      f2 = f(x2);
    } else {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - g * (b - a);
      f1 = f(x1);
    }
  }
  return f1 > f2 ? { w: x1, v: f1 } : { w: x2, v: f2 };
}

/**
 * hinfnorm's L∞ fields: the pole counts, then for a finite L∞ norm the gain at the reported
 * frequency and the sweep; an infinite one must come with a pole on the boundary.
 */
export function linfChecks(args: R, r: R): Check[] | undefined {
  if (!('linf' in r)) return [];
  const m = model(args);
  const n = m.A.length;
  const checks: Check[] = [];
  if (n) checks.push(poleCountCheck(m, r));
  if (!Number.isFinite(r.linf)) {
    const { d, band } = poleBand(m);
    const near = d.some((x) => Math.abs(x) <= Math.max(band, 1e-9));
    checks.push({
      name: 'L∞ unbounded',
      ok: near,
      detail: near
        ? `a pole on the ${m.Ts ? 'unit circle' : 'imaginary axis'} (verifier's eigensolver): the gain is unbounded near it`
        : 'the L∞ norm is given as infinite, but no pole lies on the stability boundary (verifier’s eigensolver), so the gain is bounded',
    });
    return checks;
  }
  if (n > NORM_CHECK_MAX_N) return undefined;
  const scaleBack = (v: number) => ldexp(v, m.k);
  const f = (w: number) => sigmaMax(gAt(m, w));
  const linf = r.linf as number;
  const at = scaleBack(f(r.fpeak_linf as number));
  const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(a, b, Number.MIN_VALUE);
  checks.push(
    check(
      'L∞ attained',
      rel(at, linf),
      1e-6,
      `σ̄(G) at ω = ${Number.isFinite(r.fpeak_linf) ? `${Number((r.fpeak_linf as number).toPrecision(6))} rad/s` : '∞'} equals the L∞ norm`,
    ),
  );
  // the sweep and its refinement around the three largest local maxima
  const ws = sweep(m, n <= 20 ? 1500 : 400);
  const vs = ws.map(f);
  let best = Math.max(...vs, m.Ts ? 0 : f(Infinity));
  const peaks = vs
    .map((v, i) => ({ v, i }))
    .filter(({ v, i }) => (i === 0 || v >= vs[i - 1]) && (i === vs.length - 1 || v >= vs[i + 1]))
    .sort((a, b) => b.v - a.v)
    .slice(0, 3);
  for (const { i } of peaks) {
    const a = ws[Math.max(0, i - 1)],
      b = ws[Math.min(ws.length - 1, i + 1)];
    if (b > a) best = Math.max(best, goldenMax(f, a, b).v);
  }
  best = scaleBack(best);
  checks.push(
    check(
      'L∞ not exceeded',
      Math.max(0, (best - linf) / Math.max(linf, best, Number.MIN_VALUE)),
      1e-6,
      `no frequency of the verifier's ${ws.length}-point sweep, refined around its largest maxima, has a larger σ̄(G)`,
    ),
  );
  return checks;
}

// ------------------------------------------------------------------ L2

/** Gauss–Kronrod 7-15 nodes and weights on [−1, 1] */
const XGK = [0.991455371120813, 0.949107912342759, 0.864864423359769, 0.741531185599394, 0.586087235467691, 0.405845151377397, 0.207784955007898, 0];
const WGK = [
  0.02293532201052922, 0.063092092629979, 0.10479001032225, 0.140653259715525, 0.16900472663927, 0.190350578064785, 0.204432940075298, 0.209482141084728,
];
const WG = [0.12948496616887, 0.279705391489277, 0.381830050505119, 0.417959183673469];

/** ∫_a^b f by adaptive Gauss–Kronrod 7-15, to a relative tolerance of the whole integral */
function integrate(f: (x: number) => number, cuts: number[], rtol: number): { value: number; err: number } {
  const gk = (a: number, b: number) => {
    const c = 0.5 * (a + b),
      h = 0.5 * (b - a);
    let k = 0,
      g = 0;
    for (let i = 0; i < 8; i++) {
      if (XGK[i] === 0) {
        const v = f(c);
        k += WGK[i] * v;
        g += WG[3] * v;
        continue;
      }
      const v = f(c - h * XGK[i]) + f(c + h * XGK[i]);
      k += WGK[i] * v;
      if (i % 2 === 1) g += WG[(i - 1) / 2] * v;
    }
    return { k: k * h, e: Math.abs((k - g) * h) };
  };
  type Seg = { a: number; b: number; k: number; e: number };
  const segs: Seg[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) if (cuts[i + 1] > cuts[i]) segs.push({ a: cuts[i], b: cuts[i + 1], ...gk(cuts[i], cuts[i + 1]) });
  for (let it = 0; it < 4000; it++) {
    const total = segs.reduce((s, x) => s + x.k, 0);
    const err = segs.reduce((s, x) => s + x.e, 0);
    if (err <= rtol * Math.abs(total)) break;
    // split the segment of the largest error
    let w = 0;
    for (let i = 1; i < segs.length; i++) if (segs[i].e > segs[w].e) w = i;
    const { a, b } = segs[w];
    const c = 0.5 * (a + b);
    if (!(c > a && c < b)) break;
    segs.splice(w, 1, { a, b: c, ...gk(a, c) }, { a: c, b, ...gk(c, b) });
  }
  return { value: segs.reduce((s, x) => s + x.k, 0), err: segs.reduce((s, x) => s + x.e, 0) };
}

/**
 * h2norm's L2 field: the pole counts; a finite L2 norm against the quadrature of ‖G‖²_F over
 * the boundary; an infinite one needs a pole on the boundary or, continuous, D ≠ 0.
 */
export function l2Checks(args: R, r: R): Check[] | undefined {
  if (!('l2' in r)) return [];
  const m = model(args);
  const n = m.A.length;
  const checks: Check[] = [];
  if (n) checks.push(poleCountCheck(m, r));
  const dNonzero = m.D.some((row) => row.some((v) => v !== 0));
  if (!Number.isFinite(r.l2)) {
    const { d, band } = poleBand(m);
    const near = d.some((x) => Math.abs(x) <= Math.max(band, 1e-9));
    const ok = near || (!m.Ts && dNonzero);
    checks.push({
      name: 'L2 unbounded',
      ok,
      detail: ok
        ? near
          ? `a pole on the ${m.Ts ? 'unit circle' : 'imaginary axis'} (verifier's eigensolver) makes ‖G‖² non-integrable`
          : 'D ≠ 0 in continuous time: ‖G(jω)‖ → ‖D‖ ≠ 0 as ω → ∞'
        : 'the L2 norm is given as infinite, but no pole lies on the stability boundary and D = 0 (continuous) or the model is discrete',
    });
    return checks;
  }
  if (Number.isFinite(r.h2) && r.h2 !== r.l2)
    checks.push({ name: 'L2 = H2 when stable', ok: false, detail: `the model is in H2, so its L2 norm is its H2 norm, but they differ (${r.l2} vs ${r.h2})` });
  if (!n) {
    const want = m.Ts ? Math.sqrt(fro2({ re: new M(m.D), im: M.zeros(m.D.length, m.D[0]?.length ?? 0) })) : 0;
    checks.push(check('L2 of a static gain', Math.abs(want - r.l2) / Math.max(want, 1e-300), 1e-14, m.Ts ? 'no states: ‖D‖_F' : 'no states, D = 0: 0'));
    return checks;
  }
  if (n > NORM_CHECK_MAX_N) return undefined;
  let value: number, err: number;
  if (m.Ts) {
    const cuts = [0, Math.PI, ...m.ev.map(([re, im]) => Math.abs(Math.atan2(im, re)))].sort((a, b) => a - b);
    ({ value, err } = integrate((th) => fro2(gAt(m, th / m.Ts)), cuts, 1e-9));
  } else {
    const mags = m.ev.map(([re, im]) => Math.hypot(re, im)).filter((v) => v > 0);
    const w0 = mags.length ? Math.sqrt(Math.min(...mags) * Math.max(...mags)) : 1;
    const cuts = [0, Math.PI / 2];
    for (const [re, im] of m.ev) cuts.push(Math.atan(Math.abs(im) / w0), Math.atan(Math.hypot(re, im) / w0));
    cuts.sort((a, b) => a - b);
    // ω = w0 tan θ, dω = w0 (1 + tan²θ) dθ; at θ = π/2 the limit ‖C B‖²_F w0 (D = 0)
    const f = (th: number) => {
      if (th >= Math.PI / 2) return 0;
      const t = Math.tan(th);
      return fro2(gAt(m, w0 * t)) * w0 * (1 + t * t);
    };
    ({ value, err } = integrate(f, cuts, 1e-9));
  }
  const l2q = ldexp(Math.sqrt(Math.max(0, value / Math.PI)), m.k);
  const rel = Math.abs(l2q - r.l2) / Math.max(l2q, r.l2, Number.MIN_VALUE);
  checks.push(
    check(
      'L2 by quadrature',
      rel,
      Math.max(1e-6, err / Math.max(value, 1e-300)),
      `equals (1/2π ∫ ‖G‖²_F)^½ over the ${m.Ts ? 'unit circle' : 'imaginary axis'} by adaptive Gauss–Kronrod quadrature, the poles' frequencies as breakpoints`,
    ),
  );
  return checks;
}
