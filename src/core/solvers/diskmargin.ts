/**
 * Disk margins of SISO and MIMO loops (issue 13, analysis extras): MATLAB's diskmargin(L, σ)
 * ([DM, MM] = diskmargin(L)), python-control's disk_margins(L, omega, skew).
 *
 * The loop is feedback(L, eye(N)) (negative feedback, L square N x N). A gain and phase change
 * in channel i is the factor fᵢ = (1 + (1 − σ)/2·δᵢ)/(1 − (1 + σ)/2·δᵢ), |δᵢ| ≤ α, so that
 * I + L·diag(f) is singular exactly when I − M·diag(δ) is, with M = S + (σ − 1)/2·I and
 * S = (I + L)⁻¹ (Seiler, Packard and Gahinet, "An Introduction to Disk Margins", IEEE CSM 2020).
 * For a stable closed loop:
 *
 * - loop-at-a-time (one channel perturbed, the others closed): αᵢ = 1/sup over ω of |Mᵢᵢ(jω)|,
 *   the SISO disk margin of the broken-loop transfer function Lᵢ = Lᵢᵢ − Lᵢⱼ(I + Lⱼⱼ)⁻¹Lⱼᵢ
 *   (freqanalysis.ts diskMarginSiso, the code stability_margins uses);
 * - multiloop (every channel at once, independently): α = 1/sup over ω of μ_Δ(M(jω)), Δ diagonal
 *   complex (one complex scalar per channel). μ is bounded from above by inf over positive
 *   diagonal D of σ̄(D·M·D⁻¹) (Osborne balancing, then BFGS on log D, where log σ̄ is convex; the
 *   gradient of log σ̄ in log dᵢ is |uᵢ|² − |vᵢ|² for the top singular pair) and from below by
 *   ρ(M·Q) for a diagonal unitary Q (the power iteration of Packard, Fan and Doyle 1988, then
 *   coordinate ascent on the phases): μ_lower ≤ μ ≤ μ_upper. So the margin lies in
 *   [1/μ_upper, 1/μ_lower]: the first is the guaranteed one (MATLAB's DiskMargin and LowerBound),
 *   the second is attained (Δ = Q/λ, λ the eigenvalue of M·Q of largest modulus, makes I − MΔ
 *   singular: a closed-loop pole on the stability boundary at that frequency). The bound is the
 *   D-scaled upper bound, exact for up to 3 channels (Doyle 1982), an upper bound beyond.
 *   Frequencies: a grid (log-spaced two decades beyond the poles of L and of the closed loop,
 *   plus 0 and ∞; uniform up to π/Ts when discrete), the largest local peaks refined by golden
 *   section. The guarantee therefore holds at the frequencies examined, as MATLAB's does.
 *
 * A closed loop that is unstable (or ill-posed, I + L(∞) singular) has disk margin 0, as MATLAB.
 * Written by hand: no maintained JavaScript library computes μ bounds (MATLAB's mussv, SLICOT
 * AB13MD used by python-control).
 */
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import { vector } from '../tools/schema.js';
import { fmt } from '../render/format.js';
import type { RenderOptions } from '../render/markdown.js';
import type { Complex, Matrix } from '../types.js';
import { num as numberLiteral } from '../codegen/literals.js';
import { systemCode, verdictHolder } from '../codegen/code.js';
import { sisoPlots, type PlotSpec } from '../plot/specs.js';
import { eye, mul, scale, toRows, zeros, type Mat } from '../linalg/dense.js';
import { svd, singularValues } from '../linalg/svd.js';
import { readSystemArgFull, readTfOrSs, scaleGuard, ssProps, systemArg, tfProps, tsProp, tf2ss, type SS } from './_sys.js';
import { freqEvaluator } from './freq.js';
import { eigenvalues } from './statesp.js';
import { appendSS, checkTotal, commonTs, dims, feedbackSS, gainLti, seriesSS, sysCode, toLti, type Lti, type Named } from './interconnect.js';
import { diskGainPhase, diskMarginSiso, goldenMin, readSiso, sisoFromSS, stableByPoles, type Siso } from './freqanalysis.js';

type R = Record<string, any>;

/** most loops the multiloop margin takes (each frequency costs BFGS steps on 2N x 2N SVDs) */
const MAX_LOOPS = 16;

// ------------------------------------------------------------------ complex matrices

/** a complex n x n matrix, row-major real and imaginary parts */
interface CM {
  n: number;
  re: Float64Array;
  im: Float64Array;
}

/** the real form [Re −Im; Im Re] (2n x 2n): it maps [Re x; Im x] to [Re Mx; Im Mx] */
function embed(M: CM): Mat {
  const n = M.n;
  const E = zeros(2 * n, 2 * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const a = M.re[i * n + j],
        b = M.im[i * n + j];
      E.d[i * 2 * n + j] = a;
      E.d[i * 2 * n + n + j] = -b;
      E.d[(n + i) * 2 * n + j] = b;
      E.d[(n + i) * 2 * n + n + j] = a;
    }
  return E;
}

/** the largest singular value and its pair (M v = s u), from the SVD of the real form */
function topSV(M: CM): { s: number; u: Complex[]; v: Complex[] } {
  const n = M.n;
  const { U, s, V } = svd(embed(M));
  const k = U.c;
  const u: Complex[] = [];
  const v: Complex[] = [];
  for (let i = 0; i < n; i++) {
    u.push([U.d[i * k], U.d[(n + i) * k]]);
    v.push([V.d[i * k], V.d[(n + i) * k]]);
  }
  return { s: s[0], u, v };
}

/** D·M·D⁻¹ with D = diag(e^x) */
function scaled(M: CM, x: ArrayLike<number>): CM {
  const n = M.n;
  const re = new Float64Array(n * n),
    im = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const f = Math.exp(x[i] - x[j]);
      re[i * n + j] = M.re[i * n + j] * f;
      im[i * n + j] = M.im[i * n + j] * f;
    }
  return { n, re, im };
}

/** M·diag(q) */
function timesDiag(M: CM, q: Complex[]): CM {
  const n = M.n;
  const re = new Float64Array(n * n),
    im = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const a = M.re[i * n + j],
        b = M.im[i * n + j];
      re[i * n + j] = a * q[j][0] - b * q[j][1];
      im[i * n + j] = a * q[j][1] + b * q[j][0];
    }
  return { n, re, im };
}

const cabs = ([a, b]: Complex) => Math.hypot(a, b);
const abs2 = ([a, b]: Complex) => a * a + b * b;

// ------------------------------------------------------------------ μ bounds (complex scalar blocks)

/** log d within ±LOG_D_MAX: d_i/d_j stays below e^80, far from overflow */
const LOG_D_MAX = 40;

/** Osborne's balancing of D·M·D⁻¹ (off-diagonal row and column 2-norms equal): the start of the D search */
function osborne(M: CM, x: Float64Array): void {
  const n = M.n;
  for (let sweep = 0; sweep < 30; sweep++) {
    let moved = 0;
    for (let k = 0; k < n; k++) {
      let r = 0,
        c = 0;
      for (let j = 0; j < n; j++) {
        if (j === k) continue;
        r += (M.re[k * n + j] ** 2 + M.im[k * n + j] ** 2) * Math.exp(2 * (x[k] - x[j]));
        c += (M.re[j * n + k] ** 2 + M.im[j * n + k] ** 2) * Math.exp(2 * (x[j] - x[k]));
      }
      if (!(r > 0 && c > 0)) continue;
      const step = Math.log(c / r) / 4;
      const nx = Math.max(-LOG_D_MAX, Math.min(LOG_D_MAX, x[k] + step));
      moved = Math.max(moved, Math.abs(nx - x[k]));
      x[k] = nx;
    }
    if (moved < 1e-4) break;
  }
}

/** log σ̄(D M D⁻¹) and its gradient in log d (|uᵢ|² − |vᵢ|²) */
function logBound(M: CM, x: Float64Array): { f: number; g: Float64Array; s: number; u: Complex[]; v: Complex[] } {
  const t = topSV(scaled(M, x));
  const g = new Float64Array(M.n);
  for (let i = 0; i < M.n; i++) g[i] = abs2(t.u[i]) - abs2(t.v[i]);
  return { f: Math.log(t.s), g, ...t };
}

export interface MuUpper {
  mu: number;
  /** log of the scaling D (normalised: the last is 0) */
  x: Float64Array;
  u: Complex[];
  v: Complex[];
}

/**
 * The D-scaled upper bound inf over D of σ̄(D M D⁻¹): Osborne's balancing (from x0, the last
 * frequency's scaling, when given), then BFGS with a backtracking line search on log σ̄, convex
 * in log D. Any D gives an upper bound of μ; the minimisation only makes it tighter.
 */
export function muUpper(M: CM, x0?: Float64Array): MuUpper {
  const n = M.n;
  const x = x0 ? Float64Array.from(x0) : new Float64Array(n);
  if (n === 1) {
    const s = Math.hypot(M.re[0], M.im[0]);
    return { mu: s, x, u: [[1, 0]], v: [[1, 0]] };
  }
  osborne(M, x);
  let cur = logBound(M, x);
  if (!Number.isFinite(cur.f)) return { mu: Math.exp(cur.f), x, u: cur.u, v: cur.v };
  let H = eye(n);
  for (let it = 0; it < 100; it++) {
    let gmax = 0;
    for (const v of cur.g) gmax = Math.max(gmax, Math.abs(v));
    if (gmax < 1e-10) break;
    const p = new Float64Array(n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) p[i] -= H.d[i * n + j] * cur.g[j];
    let slope = 0;
    for (let i = 0; i < n; i++) slope += p[i] * cur.g[i];
    if (!(slope < 0)) {
      H = eye(n);
      continue;
    }
    let t = 1;
    let next: ReturnType<typeof logBound> | undefined;
    let xn = x;
    for (let ls = 0; ls < 40; ls++, t /= 2) {
      xn = x.map((v, i) => Math.max(-LOG_D_MAX, Math.min(LOG_D_MAX, v + t * p[i])));
      const c = logBound(M, xn);
      if (c.f <= cur.f + 1e-4 * t * slope) {
        next = c;
        break;
      }
    }
    if (!next) {
      // no descent along the quasi-Newton direction: once more along the gradient, then stop
      if (H.d.every((v, k) => v === (k % (n + 1) === 0 ? 1 : 0))) break;
      H = eye(n);
      continue;
    }
    const sv = xn.map((v, i) => v - x[i]);
    const yv = next.g.map((v, i) => v - cur.g[i]);
    let sy = 0;
    for (let i = 0; i < n; i++) sy += sv[i] * yv[i];
    if (sy > 1e-14) {
      // H ← (I − ρ s yᵀ) H (I − ρ y sᵀ) + ρ s sᵀ
      const rho = 1 / sy;
      const Hy = new Float64Array(n);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) Hy[i] += H.d[i * n + j] * yv[j];
      let yHy = 0;
      for (let i = 0; i < n; i++) yHy += yv[i] * Hy[i];
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) H.d[i * n + j] += -rho * (sv[i] * Hy[j] + Hy[i] * sv[j]) + (rho * rho * yHy + rho) * sv[i] * sv[j];
    }
    const gain = cur.f - next.f;
    x.set(xn);
    cur = next;
    if (gain < 1e-13) break;
  }
  const last = x[n - 1];
  for (let i = 0; i < n; i++) x[i] -= last;
  return { mu: Math.exp(cur.f), x, u: cur.u, v: cur.v };
}

/** the eigenvalue of largest modulus of a complex matrix (its real form holds it and its conjugate: the one with the smaller residual) */
function dominantEigenvalue(M: CM): Complex {
  const ev = eigenvalues(embed(M));
  let best: Complex = [0, 0];
  for (const z of ev) if (cabs(z) > cabs(best)) best = z;
  if (best[1] === 0) return best;
  const resid = (z: Complex) => {
    const re = Float64Array.from(M.re),
      im = Float64Array.from(M.im);
    for (let i = 0; i < M.n; i++) {
      re[i * M.n + i] -= z[0];
      im[i * M.n + i] -= z[1];
    }
    const s = singularValues(embed({ n: M.n, re, im }));
    return s[s.length - 1];
  };
  const conj: Complex = [best[0], -best[1]];
  return resid(best) <= resid(conj) ? best : conj;
}

export interface MuLower {
  mu: number;
  /** the diagonal unitary Q (phases) */
  q: Complex[];
  /** the eigenvalue of M·Q of largest modulus (|λ| = mu); Δ = Q/λ makes I − MΔ singular */
  lambda: Complex;
}

function rhoOf(M: CM, q: Complex[]): { mu: number; lambda: Complex } {
  const lambda = dominantEigenvalue(timesDiag(M, q));
  return { mu: cabs(lambda), lambda };
}

const unit = (z: Complex): Complex => {
  const r = cabs(z);
  return r > 0 ? [z[0] / r, z[1] / r] : [1, 0];
};

/**
 * A lower bound ρ(M·Q) ≤ μ(M) for complex scalar blocks: the power iteration of Packard, Fan
 * and Doyle (1988) from the upper bound's singular vectors (b = D⁻¹v, w = D u) and from ones,
 * its phases Q then improved by coordinate ascent (a scan of each phase, refined by golden
 * section). Every Q gives a valid lower bound; the search only raises it.
 */
export function muLower(M: CM, up?: MuUpper): MuLower {
  const n = M.n;
  const starts: { b: Complex[]; w: Complex[] }[] = [
    { b: Array.from({ length: n }, () => [1, 0] as Complex), w: Array.from({ length: n }, () => [1, 0] as Complex) },
  ];
  if (up)
    starts.unshift({
      b: up.v.map(([a, c], i) => [a * Math.exp(-up.x[i]), c * Math.exp(-up.x[i])] as Complex),
      w: up.u.map(([a, c], i) => [a * Math.exp(up.x[i]), c * Math.exp(up.x[i])] as Complex),
    });
  const mul = (b: Complex[], herm: boolean): Complex[] =>
    Array.from({ length: n }, (_, i) => {
      let sr = 0,
        si = 0;
      for (let j = 0; j < n; j++) {
        const k = herm ? j * n + i : i * n + j;
        const a = M.re[k],
          c = herm ? -M.im[k] : M.im[k];
        sr += a * b[j][0] - c * b[j][1];
        si += a * b[j][1] + c * b[j][0];
      }
      return [sr, si] as Complex;
    });
  const normalise = (z: Complex[]): number => {
    const s = Math.sqrt(z.reduce((t, v) => t + abs2(v), 0));
    if (s > 0)
      for (const v of z) {
        v[0] /= s;
        v[1] /= s;
      }
    return s;
  };
  let best: MuLower = { mu: 0, q: Array.from({ length: n }, () => [1, 0] as Complex), lambda: [0, 0] };
  for (const st of starts) {
    let b = st.b.map((v) => [...v] as Complex);
    let w = st.w.map((v) => [...v] as Complex);
    normalise(b);
    normalise(w);
    let a: Complex[] = b;
    let beta = 0;
    for (let it = 0; it < 300; it++) {
      a = mul(b, false);
      const na = normalise(a);
      if (!(na > 0)) break;
      const z = a.map((ai, i) => {
        const u = unit(ai);
        const m = cabs(w[i]);
        return [u[0] * m, u[1] * m] as Complex;
      });
      w = mul(z, true);
      if (!(normalise(w) > 0)) break;
      b = w.map((wi, i) => {
        const u = unit(wi);
        const m = cabs(a[i]);
        return [u[0] * m, u[1] * m] as Complex;
      });
      if (Math.abs(na - beta) <= 1e-13 * na) break;
      beta = na;
    }
    // Q: the phase of wᵢ/aᵢ
    const q = a.map((ai, i) => unit([w[i][0] * ai[0] + w[i][1] * ai[1], w[i][1] * ai[0] - w[i][0] * ai[1]]));
    const r = rhoOf(M, q);
    if (r.mu > best.mu) best = { mu: r.mu, q, lambda: r.lambda };
  }
  // coordinate ascent on the phases (the first fixed: ρ(MQ) ignores a common phase)
  const th = best.q.map(([a, c]) => Math.atan2(c, a));
  const at = (t: number[]) =>
    rhoOf(
      M,
      t.map((v) => [Math.cos(v), Math.sin(v)] as Complex),
    );
  let cur = best.mu;
  for (let sweep = 0; sweep < 3 && n > 1; sweep++) {
    const before = cur;
    for (let i = 1; i < n; i++) {
      const f = (v: number) => {
        const t = th.slice();
        t[i] = v;
        return -at(t).mu;
      };
      const K = 24;
      let kb = 0,
        fb = Infinity;
      for (let k = 0; k < K; k++) {
        const v = th[i] + (2 * Math.PI * k) / K;
        const fv = f(v);
        if (fv < fb) {
          fb = fv;
          kb = k;
        }
      }
      const c = th[i] + (2 * Math.PI * kb) / K;
      const g = goldenMin(f, c - (2 * Math.PI) / K, c + (2 * Math.PI) / K);
      if (-g.v > cur) {
        cur = -g.v;
        th[i] = g.x;
      }
    }
    if (cur - before <= 1e-12 * cur) break;
  }
  if (cur > best.mu) {
    const q = th.map((v) => [Math.cos(v), Math.sin(v)] as Complex);
    const r = rhoOf(M, q);
    if (r.mu >= best.mu) best = { mu: r.mu, q, lambda: r.lambda };
  }
  return best;
}

// ------------------------------------------------------------------ the loop

function ssOfLti(l: { A: Mat; B: Mat; C: Mat; D: Mat }, Ts: number): SS {
  const n = l.A.r;
  return { A: toRows(l.A), B: toRows(l.B), C: n ? toRows(l.C) : Array.from({ length: l.D.r }, () => []), D: toRows(l.D), n, m: l.D.c, p: l.D.r, Ts };
}

/** the loop as a state-space model (a transfer function realised), square, with its name for messages */
function readLoop(args: R, tool: string): SS {
  const { tf, ss } = readTfOrSs(args, tool);
  let L: SS;
  if (tf) {
    if (tf.num.length > tf.den.length)
      throw new ControlError(
        `${tool}: L is improper (numerator degree ${tf.num.length - 1} above the denominator's ${tf.den.length - 1}): its gain grows without bound with frequency and feedback(L, 1) is not a proper system; give a proper loop.`,
      );
    const r = tf2ss(tf.num, tf.den);
    L = { A: r.A, B: r.B, C: r.A.length ? r.C : [[]], D: r.D, n: r.A.length, m: 1, p: 1, Ts: tf.Ts };
  } else L = ss!;
  if (L.m !== L.p)
    throw new ControlError(
      `${tool}: the loop L must be square (as many outputs as inputs: feedback(L, eye(N))); this one has ${L.p} outputs and ${L.m} inputs. For a plant P and a controller C give the loop at the plant output L = P*C or at its input L = C*P.`,
    );
  if (L.m > MAX_LOOPS)
    throw new ControlError(
      `${tool}: ${L.m} loops is more than the ${MAX_LOOPS} the multiloop margin takes in one call; analyse a subset of the channels.`,
      'limit',
    );
  scaleGuard(L, tool);
  return L;
}

export interface DiskMarginResult {
  /** number of loops N */
  loops: number;
  sigma: number;
  /** the nominal closed loop feedback(L, eye(N)) is stable (and well-posed) */
  stable: boolean;
  /** why the margins are 0 (an unstable or ill-posed closed loop) */
  reason?: string;
  /** loop-at-a-time: each channel's disk margin, its frequency, gain range (factor, dB) and phase (±deg) */
  dm: number[];
  dm_w: number[];
  dm_gm: [number, number][];
  dm_gm_db: [number, number][];
  dm_pm: number[];
  /** multiloop: the guaranteed margin 1/μ_upper (MATLAB's DiskMargin, LowerBound) and the attained 1/μ_lower (UpperBound) */
  mm: number;
  mm_upper: number;
  w_mm: number;
  mm_gm: [number, number];
  mm_gm_db: [number, number];
  mm_pm: number;
  mu_upper: number;
  mu_lower: number;
  /** D (d_N = 1) with σ̄(D M(jw_mm) D⁻¹) = mu_upper */
  scaling: number[];
  /** the destabilising perturbation: frequency, δᵢ (|δᵢ| = mm_upper), fᵢ as gain and phase (deg) */
  w_worst: number;
  worst_delta: Complex[];
  worst_gain: number[];
  worst_phase: number[];
  /** over frequency: the multiloop margin's guaranteed bound 1/μ_upper(ω) and D(ω) */
  w: number[];
  mm_w: number[];
  scaling_w: number[][];
}

/** the default frequencies: 240 log-spaced two decades beyond the poles (continuous), or 240 up to π/Ts with 40 log-spaced near 0 */
function defaultGrid(poles: Complex[], Ts: number): number[] {
  if (Ts > 0) {
    const top = Math.PI / Ts;
    const g = Array.from({ length: 240 }, (_, k) => (top * (k + 1)) / 240);
    for (let k = 0; k < 40; k++) g.push(top * 10 ** (-4 + (2.5 * k) / 40));
    return g.sort((a, b) => a - b);
  }
  const mags = poles.map(cabs).filter((v) => v > 0 && Number.isFinite(v));
  const lo = Math.log10(mags.length ? Math.min(...mags) : 1) - 2;
  const hi = Math.log10(mags.length ? Math.max(...mags) : 1) + 2;
  return Array.from({ length: 240 }, (_, k) => 10 ** (lo + ((hi - lo) * k) / 239));
}

const zeroResult = (L: SS, sigma: number, reason: string): DiskMarginResult => ({
  loops: L.m,
  sigma,
  stable: false,
  reason,
  dm: new Array(L.m).fill(0),
  dm_w: new Array(L.m).fill(NaN),
  dm_gm: Array.from({ length: L.m }, () => [1, 1] as [number, number]),
  dm_gm_db: Array.from({ length: L.m }, () => [0, 0] as [number, number]),
  dm_pm: new Array(L.m).fill(0),
  mm: 0,
  mm_upper: 0,
  w_mm: NaN,
  mm_gm: [1, 1],
  mm_gm_db: [0, 0],
  mm_pm: 0,
  mu_upper: Infinity,
  mu_lower: Infinity,
  scaling: new Array(L.m).fill(1),
  w_worst: NaN,
  worst_delta: [],
  worst_gain: [],
  worst_phase: [],
  w: [],
  mm_w: [],
  scaling_w: [],
});

const db = (g: [number, number]): [number, number] => [20 * Math.log10(g[0]), 20 * Math.log10(g[1])];

/** the disk factor f = (1 + (1 − σ)/2·δ)/(1 − (1 + σ)/2·δ) as gain and phase (deg) */
function factorOf(d: Complex, sigma: number): { gain: number; phase: number } {
  const a = (1 - sigma) / 2,
    b = (1 + sigma) / 2;
  const nr = 1 + a * d[0],
    ni = a * d[1];
  const dr = 1 - b * d[0],
    di = -b * d[1];
  // gain |n|/|d| and phase arg n − arg d, so a change on the disk's edge (d = 0: α = 2, balanced,
  // at ω = ∞ for a loop that vanishes there) is an infinite pure gain change, not NaN
  let phase = ((Math.atan2(ni, nr) - Math.atan2(di, dr)) * 180) / Math.PI;
  if (phase > 180) phase -= 360;
  else if (phase <= -180) phase += 360;
  return { gain: Math.hypot(nr, ni) / Math.hypot(dr, di), phase };
}

/** the disk margins of the loop L (square; siso: a SISO loop as freqanalysis reads it, num/den kept) with skew σ, on the grid wIn or the default one */
export function diskMargin(L: SS, sigma: number, wIn?: number[], siso?: Siso): DiskMarginResult {
  const N = L.m;
  const Ts = L.Ts;
  const all = Array.from({ length: N }, (_, i) => i);
  // S = (I + L)⁻¹ as a state-space model: feedback(eye(N), L)
  let S: SS;
  try {
    S = ssOfLti(feedbackSS(gainLti(eye(N)), toLti(L), -1, all, all), Ts);
  } catch (e) {
    if (e instanceof ControlError)
      return zeroResult(
        L,
        sigma,
        'I + L(∞) is singular (the direct feedthrough around the loop cancels the identity), so the loop feedback(L, eye(N)) is ill-posed',
      );
    throw e;
  }
  const clPoles = S.n ? eigenvalues(S.A) : [];
  if (!stableByPoles(clPoles, Ts))
    return zeroResult(
      L,
      sigma,
      `the nominal closed loop feedback(L, eye(${N})) is unstable (a pole ${Ts > 0 ? 'on or outside the unit circle' : 'in the closed right half plane'})`,
    );
  const c = (sigma - 1) / 2;
  const wEnd = Ts > 0 ? Math.PI / Ts : Infinity;

  // ---- loop at a time: the SISO disk margin of each broken-loop transfer function
  const dm: number[] = [];
  const dmW: number[] = [];
  for (let i = 0; i < N; i++) {
    let li: SS;
    if (N === 1) li = L;
    else {
      const others = all.filter((j) => j !== i);
      let closed: SS;
      try {
        closed = ssOfLti(feedbackSS(toLti(L), gainLti(eye(N - 1)), -1, others, others), Ts);
      } catch (e) {
        if (e instanceof ControlError)
          throw new ControlError(
            `diskmargin: with channel ${i + 1} open, the other loops are ill-posed (I + the direct feedthrough among them is singular), so channel ${i + 1}'s loop-at-a-time margin is undefined.`,
            'infeasible',
          );
        throw e;
      }
      li = { A: closed.A, B: closed.B.map((r) => [r[i]]), C: closed.n ? [closed.C[i]] : [[]], D: [[closed.D[i][i]]], n: closed.n, m: 1, p: 1, Ts };
    }
    const r = diskMarginSiso(N === 1 && siso ? siso : sisoFromSS(li), sigma);
    dm.push(r.alpha);
    dmW.push(r.w);
  }
  const dmGm = dm.map((a) => diskGainPhase(a, sigma));

  // ---- multiloop
  const ev = freqEvaluator(S);
  const mAt = (w: number): CM => {
    let re: Matrix, im: Matrix;
    if (w === Infinity || S.n === 0) {
      re = S.D;
      im = S.D.map((r) => r.map(() => 0));
    } else {
      const f = ev([w]);
      re = f.re[0];
      im = f.im[0];
    }
    const M: CM = { n: N, re: new Float64Array(N * N), im: new Float64Array(N * N) };
    for (let i = 0; i < N; i++)
      for (let j = 0; j < N; j++) {
        M.re[i * N + j] = re[i][j] + (i === j ? c : 0);
        M.im[i * N + j] = im[i][j];
      }
    return M;
  };
  const lPoles = L.n ? eigenvalues(L.A) : [];
  const grid = (wIn ?? defaultGrid([...lPoles, ...clPoles], Ts)).filter((w) => w >= 0 && w <= wEnd).sort((a, b) => a - b);
  const pts = [...new Set([0, ...grid, wEnd])];
  const ups: MuUpper[] = [];
  let x: Float64Array | undefined;
  for (const w of pts) {
    const u = muUpper(mAt(w), x);
    ups.push(u);
    x = u.x;
  }
  // the largest local peaks (ends included), refined by golden section on μ_upper(ω)
  const mu = ups.map((u) => u.mu);
  const peaks = pts
    .map((_, k) => k)
    .filter((k) => (k === 0 || mu[k] >= mu[k - 1]) && (k === pts.length - 1 || mu[k] >= mu[k + 1]))
    .sort((a, b) => mu[b] - mu[a])
    .slice(0, 4);
  type Cand = { w: number; up: MuUpper };
  const cands: Cand[] = [];
  for (const k of peaks) {
    let best: Cand = { w: pts[k], up: ups[k] };
    if (k > 0 && k < pts.length - 1 && Number.isFinite(pts[k + 1])) {
      let warm = ups[k].x;
      const f = (w: number) => {
        const u = muUpper(mAt(w), warm);
        warm = u.x;
        if (u.mu > best.up.mu) best = { w, up: u };
        return -u.mu;
      };
      goldenMin(f, pts[k - 1], pts[k + 1]);
    }
    cands.push(best);
  }
  cands.sort((a, b) => b.up.mu - a.up.mu);
  const top = cands[0];
  // the lower bound at each refined peak: the largest gives the destabilising perturbation
  let low = { mu: 0, w: top.w, lb: undefined as MuLower | undefined };
  for (const cd of cands) {
    const lb = N === 1 ? undefined : muLower(mAt(cd.w), cd.up);
    const m1 = N === 1 ? cd.up.mu : lb!.mu;
    if (m1 > low.mu) low = { mu: m1, w: cd.w, lb };
  }
  let muUp = top.up.mu;
  let wMm = top.w;
  let scaling = Array.from(top.up.x, (v) => Math.exp(v));
  if (N === 1) {
    // SISO: μ = |S + c|, its supremum the loop-at-a-time search's (stability_margins' disk-margin code)
    muUp = 1 / dm[0];
    low = { mu: muUp, w: dmW[0], lb: undefined };
    wMm = dmW[0];
    scaling = [1];
  } else if (low.mu > muUp) muUp = low.mu; // equal to rounding (exact for N ≤ 3): keep the interval ordered
  // one loop: the SISO search's α itself (1/(1/α) may differ from α in the last bit)
  const mm = N === 1 ? dm[0] : muUp > 0 ? 1 / muUp : Infinity;
  const mmUpper = N === 1 ? dm[0] : low.mu > 0 ? 1 / low.mu : Infinity;
  // the destabilising perturbation δ = q/λ (SISO: 1/M)
  // none when the bound is attained only as ω → ∞ (a loop that vanishes there: α = 2 balanced is
  // approached, never reached at a finite frequency, so no finite change destabilises it)
  let delta: Complex[] = [];
  if (!Number.isFinite(low.w)) delta = [];
  else if (N === 1 && Number.isFinite(mmUpper)) {
    const M = mAt(low.w);
    const d2 = M.re[0] ** 2 + M.im[0] ** 2;
    delta = [[M.re[0] / d2, -M.im[0] / d2]];
  } else if (low.lb && low.mu > 0) {
    const [lr, li] = low.lb.lambda;
    const l2 = lr * lr + li * li;
    delta = low.lb.q.map(([qr, qi]) => [(qr * lr + qi * li) / l2, (qi * lr - qr * li) / l2] as Complex);
  }
  const mg = diskGainPhase(mm, sigma);
  const f = delta.map((d) => factorOf(d, sigma));
  return {
    loops: N,
    sigma,
    stable: true,
    dm,
    dm_w: dmW,
    dm_gm: dmGm.map((g) => g.gm),
    dm_gm_db: dmGm.map((g) => db(g.gm)),
    dm_pm: dmGm.map((g) => g.pm),
    mm,
    mm_upper: mmUpper,
    w_mm: wMm,
    mm_gm: mg.gm,
    mm_gm_db: db(mg.gm),
    mm_pm: mg.pm,
    mu_upper: muUp,
    mu_lower: low.mu,
    scaling,
    w_worst: low.w,
    worst_delta: delta,
    worst_gain: f.map((v) => v.gain),
    worst_phase: f.map((v) => v.phase),
    w: pts,
    mm_w: ups.map((u) => (u.mu > 0 ? 1 / u.mu : Infinity)),
    scaling_w: ups.map((u) => Array.from(u.x, (v) => Math.exp(v))),
  };
}

// ------------------------------------------------------------------ a plant and its controller: diskmargin(P, C)

export interface DiskMarginIOResult {
  /** plant inputs nu (controller outputs) and plant outputs ny (controller inputs) */
  inputs: number;
  outputs: number;
  sigma: number;
  /** the nominal loop (P with u = −C·y) is stable and well-posed */
  stable: boolean;
  reason?: string;
  /** variations at the plant inputs: the loop broken at u, L = C·P (MATLAB [DMi, MMi] = diskmargin(C*P)) */
  at_inputs: DiskMarginResult;
  /** variations at the plant outputs: the loop broken at y, L = P·C (MATLAB [DMo, MMo] = diskmargin(P*C)) */
  at_outputs: DiskMarginResult;
  /** independent variations at every plant input and output at once: MATLAB's MMIO = diskmargin(P, C) */
  io: DiskMarginResult;
  /** the guaranteed multiloop margins of the three (1/μ upper bounds) and MMIO's attained bound, frequency, gain range, phase */
  mmi: number;
  mmo: number;
  mmio: number;
  mmio_upper: number;
  w_mmio: number;
  mmio_gm: [number, number];
  mmio_gm_db: [number, number];
  mmio_pm: number;
}

/**
 * The loops of a plant P (ny x nu) under negative feedback u = −C·y (C nu x ny): L = C·P at the
 * plant inputs, L = P·C at the plant outputs, and for variations at both the augmented loop
 * Laug = [0, −C; P, 0] (inputs [u; y] after the factors, outputs the signals before them):
 * with F = diag(Fu, Fy), I + Laug·F is singular exactly when the loop with u = Fu·(−C·Fy·P·u)
 * closes on itself, and det(I + Laug) = det(I + C·P). A number is k·I of the size the other asks.
 */
export function plantControllerLoops(args: R, tool: string): { Li: SS; Lo: SS; Laug: SS; nu: number; ny: number } {
  const a: Named = { name: 'sys1', sa: readSystemArgFull(args.sys1, 'sys1', tool) };
  const b: Named = { name: 'sys2', sa: readSystemArgFull(args.sys2, 'sys2', tool) };
  const Ts = commonTs([a, b], tool);
  let P: Lti = toLti(a.sa.ss),
    C: Lti = toLti(b.sa.ss);
  const kI = (k: number, n: number) => gainLti(scale(eye(n), k));
  if (a.sa.gain !== undefined && b.sa.gain === undefined) {
    const c = dims(C);
    if (c.m !== c.p)
      throw new ControlError(
        `${tool}: the plant sys1 is the number ${a.sa.gain} and the controller sys2 has ${c.p} outputs and ${c.m} inputs; a number is k·I, which needs a square controller: give the plant as a ${c.m} x ${c.p} model.`,
      );
    P = kI(a.sa.gain, c.m);
  } else if (b.sa.gain !== undefined && a.sa.gain === undefined) {
    const p = dims(P);
    if (p.m !== p.p)
      throw new ControlError(
        `${tool}: the controller sys2 is the number ${b.sa.gain} and the plant has ${p.p} outputs and ${p.m} inputs; a number is k·I, which needs a square plant: give the controller as a ${p.m} x ${p.p} matrix (u = −C·y).`,
      );
    C = kI(b.sa.gain, p.p);
  }
  const p = dims(P),
    c = dims(C);
  if (c.m !== p.p || c.p !== p.m)
    throw new ControlError(
      `${tool}: the controller sys2 must take the plant's ${p.p} output(s) and drive its ${p.m} input(s) (u = −C·y: C is ${p.m} x ${p.p}); it has ${c.p} output(s) and ${c.m} input(s).`,
    );
  checkTotal(p.n + c.n, tool);
  const nu = p.m,
    ny = p.p;
  if (nu + ny > MAX_LOOPS)
    throw new ControlError(
      `${tool}: ${nu} plant inputs and ${ny} outputs are ${nu + ny} loops for the simultaneous margin, more than the ${MAX_LOOPS} one call takes; analyse the loop at the inputs (L = C*P) or outputs (L = P*C) with diskmargin.`,
      'limit',
    );
  const Li = ssOfLti(seriesSS(P, C), Ts);
  const Lo = ssOfLti(seriesSS(C, P), Ts);
  // Laug = T·blkdiag(P, C), T = [0, −I_nu; I_ny, 0]: outputs [−C·w2; P·w1] for inputs [w1; w2]
  const T = zeros(nu + ny, ny + nu);
  for (let i = 0; i < nu; i++) T.d[i * (ny + nu) + ny + i] = -1;
  for (let i = 0; i < ny; i++) T.d[(nu + i) * (ny + nu) + i] = 1;
  const blk = appendSS([P, C]);
  const Laug = ssOfLti({ A: blk.A, B: blk.B, C: mul(T, blk.C), D: mul(T, blk.D) }, Ts);
  for (const L of [Li, Lo, Laug]) scaleGuard(L, tool);
  return { Li, Lo, Laug, nu, ny };
}

export function diskMarginIO(args: R, sigma: number, w?: number[]): DiskMarginIOResult {
  const { Li, Lo, Laug, nu, ny } = plantControllerLoops(args, 'diskmargin_io');
  const at_inputs = diskMargin(Li, sigma, w);
  const at_outputs = diskMargin(Lo, sigma, w);
  const io = diskMargin(Laug, sigma, w);
  const stable = at_inputs.stable && at_outputs.stable && io.stable;
  if (!stable) {
    // one loop, three ways of breaking it: a verdict that differs between them is rounding at the boundary; all are 0
    const reason = io.reason ?? at_inputs.reason ?? at_outputs.reason ?? 'the nominal closed loop is unstable';
    const z = (L: SS, r: DiskMarginResult) => (r.stable ? zeroResult(L, sigma, reason) : r);
    return diskMarginIOOf(nu, ny, sigma, false, reason, z(Li, at_inputs), z(Lo, at_outputs), z(Laug, io));
  }
  return diskMarginIOOf(nu, ny, sigma, true, undefined, at_inputs, at_outputs, io);
}

function diskMarginIOOf(
  nu: number,
  ny: number,
  sigma: number,
  stable: boolean,
  reason: string | undefined,
  at_inputs: DiskMarginResult,
  at_outputs: DiskMarginResult,
  io: DiskMarginResult,
): DiskMarginIOResult {
  return {
    inputs: nu,
    outputs: ny,
    sigma,
    stable,
    ...(reason ? { reason } : {}),
    at_inputs,
    at_outputs,
    io,
    mmi: at_inputs.mm,
    mmo: at_outputs.mm,
    mmio: io.mm,
    mmio_upper: io.mm_upper,
    w_mmio: io.w_mm,
    mmio_gm: io.mm_gm,
    mmio_gm_db: io.mm_gm_db,
    mmio_pm: io.mm_pm,
  };
}

// ------------------------------------------------------------------ rendering

function renderDiskMargin(args: R, r: DiskMarginResult, o: RenderOptions): string {
  const f = (x: number) => (Number.isNaN(x) ? '–' : x === Infinity ? '∞' : x === -Infinity ? '−∞' : fmt(x, o.digits));
  const wf = (w: number) => (w === Infinity ? '∞' : `${f(w)} rad/s`);
  const range = (g: [number, number]) => `[${f(g[0])}, ${f(g[1])}]`;
  const rangeDb = (g: [number, number]) => `${f(g[0])} dB to ${g[1] === Infinity ? '+∞' : `+${f(g[1])}`} dB`;
  const N = r.loops;
  const parts: string[] = [];
  const skew =
    r.sigma === 0
      ? 'skew σ = 0 (balanced: the disk of (S − T)/2, gain changes up and down alike)'
      : `skew σ = ${f(r.sigma)} (the disk of S + (σ − 1)/2·I, biased toward gain ${r.sigma > 0 ? 'increase' : 'decrease'})`;
  if (!r.stable) {
    parts.push(`**Disk margins 0**: ${r.reason}. A loop that is not stable as it is has no margin (MATLAB's diskmargin also returns 0).`);
    return parts.join('\n\n');
  }
  parts.push(`**Closed loop** feedback(L, eye(${N})): stable; ${skew}.`);
  if (N === 1) {
    parts.push(
      `**Disk margin** α = ${f(r.mm)} at ω = ${wf(r.w_mm)}: the loop stays stable for any simultaneous gain and phase change in the disk, i.e. gain in ${range(r.mm_gm)} (${rangeDb(r.mm_gm_db)}) or phase ±${f(r.mm_pm)}°. (Exact for one loop: the same minimum as stability_margins' disk margin.)`,
    );
  } else {
    parts.push(
      [
        '**Loop at a time** (one channel changed, the other loops closed as they are):',
        '',
        '| channel | disk margin α | at ω | gain range | gain range (dB) | phase (±°) |',
        '|---:|---:|---:|---:|---:|---:|',
        ...r.dm.map((a, i) => `| ${i + 1} | ${f(a)} | ${wf(r.dm_w[i])} | ${range(r.dm_gm[i])} | ${rangeDb(r.dm_gm_db[i])} | ${f(r.dm_pm[i])} |`),
      ].join('\n'),
    );
    parts.push(
      `**Multiloop disk margin** (every channel changed at once, independently): α between ${f(r.mm)} (guaranteed) and ${f(r.mm_upper)} (attained), at ω = ${wf(r.w_mm)}.`,
    );
    parts.push(
      `**Guaranteed** (α ≥ ${f(r.mm)} = 1/μ upper bound ${f(r.mu_upper)}, D-scaled with D = diag(${r.scaling.map(f).join(', ')})): the loop tolerates simultaneous independent gain changes in ${range(r.mm_gm)} (${rangeDb(r.mm_gm_db)}) and phase changes of ±${f(r.mm_pm)}° in all channels.`,
    );
  }
  if (r.worst_delta.length) {
    // phases below 1e-9° are rounding of a pure gain change
    const ph = (x: number) => f(Math.abs(x) < 1e-9 ? 0 : x);
    const ch = r.worst_gain.map((g, i) => `${N > 1 ? `channel ${i + 1}: ` : ''}gain ${f(g)} and phase ${ph(r.worst_phase[i])}°`).join(', ');
    parts.push(
      `**Attained** (α ≤ ${f(r.mm_upper)}${N > 1 ? ` = 1/μ lower bound ${f(r.mu_lower)}` : ''}): at ω = ${wf(r.w_worst)} the change ${ch}${N > 1 ? ` (|δ| = ${f(r.mm_upper)} in every channel)` : ''} puts a closed-loop pole on the stability boundary.`,
    );
  }
  if (N > 1)
    parts.push(
      `μ is bounded above by inf over D of σ̄(D·M·D⁻¹) and below by ρ(M·Q) (power iteration), M = S + (σ − 1)/2·I; the bound is exact for up to 3 loops. Frequencies: ${Array.isArray(args.w) ? 'the ones given' : 'a grid two decades beyond the poles'}, ${typeof args.Ts === 'number' && args.Ts > 0 ? 'up to π/Ts' : 'with 0 and ∞'}, the largest peaks refined. The loop-at-a-time margins can be much larger than the multiloop one: they ignore the other channels' simultaneous changes.`,
    );
  return parts.join('\n\n');
}

function renderDiskMarginIO(_args: R, r: DiskMarginIOResult, o: RenderOptions): string {
  const f = (x: number) => (Number.isNaN(x) ? '–' : x === Infinity ? '∞' : fmt(x, o.digits));
  const wf = (w: number) => (Number.isNaN(w) ? '–' : w === Infinity ? '∞' : `${f(w)} rad/s`);
  const rangeDb = (g: [number, number]) => `${f(g[0])} dB to ${g[1] === Infinity ? '+∞' : `+${f(g[1])}`} dB`;
  const loop = `plant P (${r.outputs} output${r.outputs > 1 ? 's' : ''}, ${r.inputs} input${r.inputs > 1 ? 's' : ''}) under negative feedback u = −C·y`;
  if (!r.stable)
    return `**Disk margins 0** for the ${loop}: ${r.reason}. A loop that is not stable as it is has no margin (MATLAB's diskmargin also returns 0).`;
  const skew = r.sigma === 0 ? 'skew σ = 0 (balanced)' : `skew σ = ${f(r.sigma)}`;
  const row = (what: string, d: DiskMarginResult, lat: boolean) =>
    `| ${what} | ${lat ? d.dm.map(f).join(', ') : '–'} | ${f(d.mm)} | ${f(d.mm_upper)} | ${wf(d.w_mm)} | ${rangeDb(d.mm_gm_db)} | ±${f(d.mm_pm)} |`;
  const parts = [
    `**Closed loop** of the ${loop}: stable; ${skew}.`,
    [
      '| variations at | loop at a time α (each channel) | multiloop α, guaranteed | attained | at ω | gain range | phase (±°) |',
      '|---|---:|---:|---:|---:|---:|---:|',
      row('plant inputs (L = C·P)', r.at_inputs, true),
      row('plant outputs (L = P·C)', r.at_outputs, true),
      row('inputs and outputs at once (MMIO)', r.io, false),
    ].join('\n'),
    `**Inputs and outputs at once** (MATLAB's MMIO = diskmargin(P, C)): the loop stays stable for independent, simultaneous gain changes in [${f(r.mmio_gm[0])}, ${f(r.mmio_gm[1])}] (${rangeDb(r.mmio_gm_db)}) and phase changes of ±${f(r.mmio_pm)}° at every plant input and every plant output (α ≥ ${f(r.mmio)}, guaranteed; α ≤ ${f(r.mmio_upper)}, attained at ω = ${wf(r.io.w_worst)}).`,
  ];
  if (r.io.worst_gain.length) {
    const ph = (x: number) => f(Math.abs(x) < 1e-9 ? 0 : x);
    const name = (i: number) => (i < r.inputs ? `u${i + 1}` : `y${i - r.inputs + 1}`);
    parts.push(
      `**Destabilising change** at ω = ${wf(r.io.w_worst)}: ${r.io.worst_gain.map((g, i) => `${name(i)}: gain ${f(g)}, phase ${ph(r.io.worst_phase[i])}°`).join('; ')}.`,
    );
  }
  parts.push(
    `The margins at the inputs and at the outputs are those of diskmargin(C*P) and diskmargin(P*C); the simultaneous one is the multiloop margin of the augmented loop [0, −C; P, 0] with its ${r.inputs + r.outputs} channels (u then y), never above either. Its μ bound is exact for up to 3 channels, an upper bound (so α a guarantee) beyond.`,
  );
  return parts.join('\n\n');
}

// ------------------------------------------------------------------ the tool

function readSigma(args: R, tool = 'diskmargin'): number {
  const s = args.sigma ?? 0;
  if (typeof s !== 'number' || !Number.isFinite(s))
    throw new ControlError(`${tool}: the skew sigma must be a real number (0: balanced, default), not ${String(s)}.`);
  return s;
}

/** the frequencies given (w), checked; undefined for the default grid */
function readGrid(args: R, tool: string): number[] | undefined {
  if (args.w === undefined) return undefined;
  const w = args.w as number[];
  if (!w.length) throw new ControlError(`${tool}: w is empty; give the frequencies in rad/s, or omit w for the default grid.`);
  w.forEach((x, i) => {
    if (!(x >= 0)) throw new ControlError(`${tool}: w[${i + 1}] = ${x}; frequencies must be >= 0 rad/s.`);
  });
  if (w.length > 5000) throw new ControlError(`${tool}: ${w.length} frequencies is more than the 5000 one call examines; give fewer.`, 'limit');
  return w;
}

export const tools = [
  tool({
    name: 'diskmargin',
    nonFinite: ['dm', 'dm_w', 'dm_gm', 'dm_gm_db', 'mm', 'mm_upper', 'w_mm', 'mm_gm', 'mm_gm_db', 'mu_upper', 'mu_lower', 'w_worst', 'worst_gain', 'w', 'mm_w'],
    words: {
      calls: [
        { names: ['diskmargin'], args: ['sys', 'sigma'] },
        {
          names: ['disk_margins'],
          args: ['sys', 'w', 'sigma'],
          keywords: { omega: 'w', skew: 'sigma' },
          note: "python-control's disk_margins gives the multiloop margin (slycot's μ upper bound) as the minimum over the frequencies given; here also each loop at a time, the attained lower bound and the closed loop's stability, with the peak refined between the frequencies",
        },
      ],
      phrases: [
        'disk margin',
        'disk margins',
        'multiloop disk margin',
        'multi-loop disk margin',
        'multiloop margin',
        'multivariable disk margin',
        'mimo disk margin',
        'loop-at-a-time disk margin',
        'loop at a time disk margin',
        'disk-based margin',
        'disk based margins',
        'disk-based gain margin',
        'disk-based phase margin',
      ],
      aliases: { sigma: ['skew', 'σ', 'e'], w: ['omega', 'ω'] },
      example: '/diskmargin A=[0 10; -10 0], B=[1 -2; 0 1], C=[1 10; -10 1]',
    },
    brief: 'Disk margins of a SISO or square MIMO loop L: each loop at a time and multiloop (mu bounds), with gain/phase ranges.',
    title: 'Disk margins (loop at a time and multiloop)',
    description:
      "Disk-based stability margins of the negative feedback loop feedback(L, eye(N)) for a square loop L (num/den or A, B, C, D; discrete when Ts > 0), as MATLAB [DM, MM] = diskmargin(L, sigma) and python-control disk_margins(L, omega, skew). Gain and phase changes in channel i are f_i = (1 + (1 − σ)/2·δ_i)/(1 − (1 + σ)/2·δ_i), |δ_i| ≤ α; skew sigma (default 0, balanced) biases them toward gain increase (> 0) or decrease (< 0). Loop at a time (dm, dm_w, dm_gm, dm_gm_db, dm_pm): each channel's disk margin with the others closed, 1/‖S_ii + (σ − 1)/2‖∞. Multiloop: α = 1/sup_ω μ(S + (σ − 1)/2·I), μ over diagonal complex perturbations, reported as the interval [mm, mm_upper]: mm = 1/μ upper bound (D-scaled, guaranteed; MATLAB's DiskMargin/LowerBound) at w_mm with gain range mm_gm, phase ±mm_pm and the scaling D, mm_upper = 1/μ lower bound with the destabilising perturbation (worst_delta, worst_gain, worst_phase at w_worst). Also w and mm_w: the guaranteed multiloop margin at each frequency. An unstable or ill-posed closed loop gives 0 with the reason. w: optional frequencies (rad/s) to examine instead of the default grid (the peak is still refined).",
    parameters: {
      type: 'object',
      properties: {
        ...tfProps,
        ...ssProps,
        ...tsProp,
        sigma: {
          type: 'number',
          description: 'skew of the disk (MATLAB sigma, python-control skew): 0 balanced (default), > 0 toward gain increase, < 0 toward decrease',
        },
        w: vector('frequencies in rad/s (>= 0) to examine instead of the default grid (python-control omega); the largest peaks are refined between them'),
      },
      required: [],
      additionalProperties: false,
    },
    run(args) {
      const sigma = readSigma(args);
      const L = readLoop(args, 'diskmargin');
      const w = readGrid(args, 'diskmargin');
      const siso = Array.isArray(args.num) ? readSiso(args, 'diskmargin') : undefined;
      return diskMargin(L, sigma, w, siso) as unknown as R;
    },
    intro:
      '**Disk margins.** The largest disk of simultaneous gain and phase changes the loop tolerates: for each channel alone (the others closed) and for all channels changing at once, independently (the multiloop margin, from bounds on the structured singular value μ).',
    render: renderDiskMargin as (a: R, r: R, o: RenderOptions) => string,
    code: {
      title: 'disk margins: loop at a time and multiloop',
      gen(code, a, r) {
        systemCode(code, a, 'L');
        const sg = a.sigma ?? 0;
        const s = numberLiteral(sg, code.lang);
        if (code.lang === 'matlab') {
          code.line(
            `[DM, MM] = diskmargin(L${sg ? `, ${s}` : ''})   % Robust Control Toolbox; DM(i): loop at a time, MM: multiloop (DiskMargin = LowerBound, UpperBound)`,
          );
          if (r)
            code
              .comment(verdictHolder)
              .expect('[DM.DiskMargin]', r.dm)
              .expect('MM.LowerBound', r.mm)
              .expect('MM.UpperBound', r.mm_upper)
              .expect('MM.Frequency', r.w_mm);
        } else {
          const w = (r?.w as number[] | undefined)?.filter((x) => Number.isFinite(x) && x > 0);
          if (w?.length) code.assign('omega', `np.logspace(${Math.log10(w[0]).toFixed(2)}, ${Math.log10(w[w.length - 1]).toFixed(2)}, 2000)`);
          else code.assign('omega', 'np.logspace(-3, 3, 2000)');
          code.line(
            `DM, DGM, DPM = ct.disk_margins(L, omega${sg ? `, skew=${s}` : ''})   # multiloop only (MIMO needs slycot: its mu upper bound), min over omega; DGM in dB; no loop at a time, no closed-loop stability check`,
          );
          if (r) code.comment(verdictHolder).expect('DM', r.mm).expect('DPM', r.mm_pm);
        }
      },
    },
    model: BY_LOOKUP,
    plots: (args) => [...sisoPlots('nyquist')(args), diskMarginPlot(args)],
  }),
  tool({
    name: 'diskmargin_io',
    nonFinite: ['at_inputs', 'at_outputs', 'io', 'mmi', 'mmo', 'mmio', 'mmio_upper', 'w_mmio', 'mmio_gm', 'mmio_gm_db'],
    words: {
      calls: [{ names: ['diskmargin'], args: ['sys1', 'sys2', 'sigma'], min: 2 }],
      phrases: [
        'disk margins at the plant input and output',
        'disk margins at the plant inputs and outputs',
        'disk margin at the plant input and output',
        'disk margins at the inputs and outputs',
        'input and output disk margins',
        'input and output disk margin',
        'simultaneous input and output disk margin',
        'simultaneous input and output variations',
        'disk margins of the plant and controller',
        'disk margin of the plant and controller',
      ],
      aliases: { sigma: ['skew', 'σ', 'e'], w: ['omega', 'ω'] },
      example: '/diskmargin_io P = 25/(s^3+10s^2+10s+10), C = (s+1)/(s+2)',
    },
    brief: 'Disk margins of a plant P with controller C (u = -C y): at the plant inputs, at the outputs, and both at once (MATLAB diskmargin(P, C)).',
    title: 'Disk margins of a plant and controller (inputs, outputs, both)',
    description:
      "Disk-based stability margins of the negative feedback loop of a plant P (sys1, ny outputs x nu inputs) and a controller C (sys2, nu x ny; u = −C·y), as MATLAB's diskmargin(P, C) and the loops it is built from: at_inputs: the loop broken at the plant inputs, L = C·P ([DMi, MMi] = diskmargin(C*P)); at_outputs: broken at the plant outputs, L = P·C ([DMo, MMo] = diskmargin(P*C)); io: independent, simultaneous gain and phase variations at every plant input and output (MATLAB's MMIO), the multiloop disk margin of the augmented loop [0, −C; P, 0] (nu + ny channels, inputs first). Each holds the diskmargin tool's fields (dm, mm, mm_upper, w_mm, mm_gm, mm_pm, worst perturbation, w, mm_w). Summary: mmi, mmo, mmio (guaranteed: 1/μ upper bound), mmio_upper (attained), w_mmio, mmio_gm, mmio_gm_db, mmio_pm. sigma: the skew (0 balanced). An unstable closed loop gives 0 with the reason. A number for P or C is k·I.",
    parameters: {
      type: 'object',
      properties: {
        sys1: systemArg('the plant P (ny outputs x nu inputs)'),
        sys2: systemArg('the controller C (nu outputs x ny inputs), in negative feedback u = −C·y'),
        sigma: {
          type: 'number',
          description: 'skew of the disk (MATLAB sigma): 0 balanced (default), > 0 toward gain increase, < 0 toward decrease',
        },
        w: vector('frequencies in rad/s (>= 0) to examine instead of the default grid; the largest peaks are refined between them'),
      },
      required: ['sys1', 'sys2'],
      additionalProperties: false,
    },
    run(args) {
      const sigma = readSigma(args, 'diskmargin_io');
      const w = readGrid(args, 'diskmargin_io');
      return diskMarginIO(args, sigma, w) as unknown as R;
    },
    intro:
      '**Disk margins of a plant and its controller.** How much simultaneous gain and phase change the loop tolerates at the plant inputs, at the plant outputs, and at all of them at once.',
    render: renderDiskMarginIO as (a: R, r: R, o: RenderOptions) => string,
    code: {
      title: 'disk margins at the plant inputs, outputs and both',
      gen(code, a, r) {
        const Ts = [a.sys1, a.sys2].map((v) => (v && typeof v === 'object' && typeof v.Ts === 'number' ? v.Ts : 0)).find((t) => t > 0) ?? 0;
        sysCode(code, 'P', a.sys1, Ts);
        sysCode(code, 'C', a.sys2, Ts);
        const sg = a.sigma ?? 0;
        const s = numberLiteral(sg, code.lang);
        if (code.lang === 'matlab') {
          code.line(`[DMi, MMi] = diskmargin(C*P${sg ? `, ${s}` : ''});   % plant inputs (Robust Control Toolbox)`);
          code.line(`[DMo, MMo] = diskmargin(P*C${sg ? `, ${s}` : ''});   % plant outputs`);
          code.line(`MMIO = diskmargin(P, C${sg ? `, ${s}` : ''})   % inputs and outputs at once`);
          if (r)
            code
              .comment(verdictHolder)
              .expect('MMi.LowerBound', r.mmi)
              .expect('MMo.LowerBound', r.mmo)
              .expect('MMIO.LowerBound', r.mmio)
              .expect('MMIO.UpperBound', r.mmio_upper);
        } else {
          code.assign('omega', 'np.logspace(-3, 3, 2000)');
          code.comment('python-control has no diskmargin(P, C): the loops at the inputs and outputs, and the augmented loop [0, -C; P, 0] for both at once');
          code.line(`DMi, _, _ = ct.disk_margins(C * P, omega${sg ? `, skew=${s}` : ''})`);
          code.line(`DMo, _, _ = ct.disk_margins(P * C, omega${sg ? `, skew=${s}` : ''})`);
          code.line('nu, ny = P.ninputs, P.noutputs');
          code.line('T = np.block([[np.zeros((nu, ny)), -np.eye(nu)], [np.eye(ny), np.zeros((ny, nu))]])');
          code.line(
            `DMio, DGMio, DPMio = ct.disk_margins(ct.ss(T) * ct.append(P, C), omega${sg ? `, skew=${s}` : ''})   # MIMO needs slycot (its mu upper bound)`,
          );
          if (r) code.comment(verdictHolder).expect('DMi', r.mmi).expect('DMo', r.mmo).expect('DMio', r.mmio);
        }
      },
    },
    model: BY_LOOKUP,
    plots: (args) => [diskMarginPlot(args)],
  }),
];

/** the guaranteed multiloop disk margin over frequency, the call's own arguments (the loop, sigma, w) */
function diskMarginPlot(args: R): PlotSpec {
  return { kind: 'diskmargin', args: { ...args }, title: 'Plot disk margin over frequency' };
}
