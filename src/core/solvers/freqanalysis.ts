/**
 * Frequency-domain analysis beyond freqresp and margins (issue 13, item 6):
 *
 * - `bandwidth` (MATLAB bandwidth, python-control bandwidth): the first frequency where |G|
 *   drops dbdrop dB (default −3) below |G(0)|. Found as a root of a polynomial (|N|² −
 *   c²|D|² in ω, or in z on the unit circle), with a dense scan of the model's own |G| as a
 *   safety net, each root polished on the model's own response (freq.ts freqEvaluator).
 *   A system with infinite DC gain (an integrator) is refused with the reason (MATLAB and
 *   python-control return NaN); one whose gain never drops that far gives Infinity.
 * - `sigma` (MATLAB sigma, python-control singular_values_response): the singular values of
 *   G(jω) at each frequency, descending, and the peak of the largest over all frequencies
 *   (the H∞ norm by the level-set method of norms.ts for a stable model; otherwise the L∞
 *   peak on a dense grid refined by golden section; Infinity at a pole on the axis).
 * - `stability_margins` (MATLAB allmargin, python-control stability_margins(returnall=True),
 *   plus the balanced disk margin of MATLAB diskmargin / python-control disk_margins): every
 *   phase and gain crossover with its margin (freq.ts marginCrossings, the crossover finder
 *   margins uses), the delay margin of each gain crossover, the stability margin
 *   sm = min over ω of |1 + L(jω)| and where, closed-loop stability, and the disk margin
 *   α = 1/‖(S − T)/2‖∞ = min over ω of 2|1 + L|/|1 − L| (skew σ = 0, Seiler, Packard and
 *   Gahinet 2020) with its gain range [(1 − α/2)/(1 + α/2), (1 + α/2)/(1 − α/2)] and phase
 *   ±2·atan(α/2).
 *
 * ω = 0 as a phase crossover: counted when L(0) is finite, real and negative (python-control's
 * default epsw = 0; MATLAB's allmargin also reports it); epsw > 0 drops crossovers below it.
 * The margins tool keeps its own rule (crossovers at ω > 0 only), so its gm can differ.
 */
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import { vector } from '../tools/schema.js';
import { fmt } from '../render/format.js';
import type { RenderOptions } from '../render/markdown.js';
import type { Complex, Matrix } from '../types.js';
import { num as numberLiteral, vector as vectorLiteral } from '../codegen/literals.js';
import { systemCode, verdictHolder } from '../codegen/code.js';
import { sisoPlots, systemPlots } from '../plot/specs.js';
import { zeros } from '../linalg/dense.js';
import { singularValues } from '../linalg/svd.js';
import { conv, polyadd, polyder, polyRoots, polyStrip, polyvalC } from '../linalg/poly.js';
import { readTfOrSs, requireSiso, scaleGuard, ssProps, tfProps, tsProp, tf2ss, type SS } from './_sys.js';
import { freqEvaluator, marginCrossings, ssLoop, staticMargins } from './freq.js';
import { dcgainSS } from './xferfcn.js';
import { eigenvalues } from './statesp.js';
import { hinfnorm } from './norms.js';
import { brent } from './timeresp.js';

type R = Record<string, any>;

// ------------------------------------------------------------------ a SISO model as these tools read it

export interface Siso {
  num: number[];
  den: number[];
  Ts: number;
  /** the model's own response at ω (continuous jω, discrete e^{jωTs}) */
  H: (w: number) => [number, number];
  /** veto of a phase crossover made by round-off in ss2tf's numerator (state space only) */
  accept?: (w: number, kind: 'pc' | 'gc') => boolean;
  /** the state-space model, when given as one */
  ss?: SS;
  /** L(∞) (continuous): D, the ratio of leading coefficients, or Infinity when improper */
  atInf: number;
}

export function readSiso(args: R, tool: string): Siso {
  const { tf, ss } = readTfOrSs(args, tool);
  if (tf) {
    const { num, den, Ts } = tf;
    const H = (w: number): [number, number] => {
      const zr = Ts > 0 ? Math.cos(w * Ts) : 0;
      const zi = Ts > 0 ? Math.sin(w * Ts) : w;
      const [nr, ni] = polyvalC(num, zr, zi);
      const [dr, di] = polyvalC(den, zr, zi);
      const d2 = dr * dr + di * di;
      if (d2 === 0) return [Infinity, NaN];
      return [(nr * dr + ni * di) / d2, (ni * dr - nr * di) / d2];
    };
    const atInf = num.length < den.length ? 0 : num.length === den.length ? num[0] / den[0] : Infinity;
    return { num, den, Ts, H, atInf };
  }
  const s = ss!;
  requireSiso(s, tool);
  scaleGuard(s, tool);
  return sisoFromSS(s);
}

/** a SISO state-space model as these tools read it (its transfer function through ssLoop, its response its own) */
export function sisoFromSS(s: SS): Siso {
  if (s.n === 0) return { num: [s.D[0][0]], den: [1], Ts: s.Ts, H: () => [s.D[0][0], 0], ss: s, atInf: s.D[0][0] };
  const { num, den, accept, H } = ssLoop(s);
  return { num: polyStrip(num), den: polyStrip(den), Ts: s.Ts, H, accept, ss: s, atInf: s.D[0][0] };
}

const isStatic = (m: Siso) => m.den.length === 1 && m.num.length === 1;

/** coefficients, in ω, of |p(jω)|² (real, even) */
function magSqW(p: number[]): number[] {
  const n = p.length - 1;
  const re = new Array(p.length).fill(0);
  const im = new Array(p.length).fill(0);
  for (let i = 0; i <= n; i++) {
    const k = (n - i) % 4; // (j)^k of the power s^(n − i)
    if (k === 0) re[i] = p[i];
    else if (k === 1) im[i] = p[i];
    else if (k === 2) re[i] = -p[i];
    else im[i] = -p[i];
  }
  return polyadd(conv(re, re), conv(im, im));
}

/** p(z)·p(1/z)·z^(L−1) for p padded to length L: the unit-circle form of |p|² */
function magSqZ(p: number[], L: number): number[] {
  const q = [...new Array(L - p.length).fill(0), ...p];
  return conv(q, q.slice().reverse());
}

const isZero = (p: number[]) => p.every((v) => v === 0);

/** positive real roots (continuous, in ω) or unit-circle roots as ω = θ/Ts in (0, π/Ts] (discrete) */
function rootsOn(p: number[], Ts: number): number[] {
  const q = polyStrip(p);
  if (q.length < 2 || isZero(q)) return [];
  const r = polyRoots(q);
  if (Ts > 0)
    return r
      .filter(([a, b]) => Math.abs(Math.hypot(a, b) - 1) <= 1e-3 && b >= -1e-7)
      .map(([a, b]) => Math.atan2(Math.max(b, 0), a) / Ts)
      .filter((w) => w > 0);
  return r.filter(([a, b]) => a > 0 && Math.abs(b) <= 1e-5 * Math.max(Math.abs(a), 1e-300)).map(([a]) => a);
}

/** a scan grid: log-spaced 4 decades beyond the poles and zeros (continuous), or (0, π/Ts] (discrete) */
function scanGrid(num: number[], den: number[], Ts: number, N = 2000): number[] {
  const g: number[] = [];
  if (Ts > 0) {
    for (let k = 1; k <= N; k++) g.push((Math.PI * k) / N / Ts);
    for (let k = 0; k < 400; k++) g.push(Math.pow(10, -7 + (4 * k) / 400) / Ts);
  } else {
    const mags = [...(num.length > 1 ? polyRoots(num) : []), ...(den.length > 1 ? polyRoots(den) : [])].map(([a, b]) => Math.hypot(a, b)).filter((v) => v > 0);
    const lo = Math.log10(Math.max(1e-300, mags.length ? Math.min(...mags) : 1)) - 4;
    const hi = Math.log10(mags.length ? Math.max(...mags) : 1) + 4;
    for (let k = 0; k <= N; k++) g.push(Math.pow(10, lo + ((hi - lo) * k) / N));
  }
  return g.sort((a, b) => a - b);
}

/** golden-section minimum of f on [a, b] */
export function goldenMin(f: (x: number) => number, a: number, b: number): { x: number; v: number } {
  const gr = (Math.sqrt(5) - 1) / 2;
  let x1 = b - gr * (b - a);
  let x2 = a + gr * (b - a);
  let f1 = f(x1);
  let f2 = f(x2);
  for (let k = 0; k < 200 && b - a > 1e-14 * Math.max(Math.abs(b), 1e-300); k++) {
    if (f1 <= f2) {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - gr * (b - a);
      f1 = f(x1);
    } else {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + gr * (b - a);
      f2 = f(x2);
    }
  }
  return f1 <= f2 ? { x: x1, v: f1 } : { x: x2, v: f2 };
}

/**
 * The minimum of f over [0, wEnd] (wEnd = Infinity: the limit fEnd as ω → ∞ is counted only
 * when it is below every finite value): f on the scan grid, each local minimum of the grid
 * and each candidate (stationary points of the polynomial form) refined by golden section.
 */
function minimise(f: (w: number) => number, grid: number[], cands: number[], wEnd: number, fEnd: number): { v: number; w: number } {
  const pts = [0, ...grid.filter((w) => w > 0 && w < wEnd)];
  if (Number.isFinite(wEnd)) pts.push(wEnd);
  const vals = pts.map((w) => {
    const v = f(w);
    return Number.isNaN(v) ? Infinity : v;
  });
  let best = { v: Infinity, w: NaN };
  const take = (v: number, w: number) => {
    if (v < best.v) best = { v, w };
  };
  vals.forEach((v, k) => take(v, pts[k]));
  const g = (w: number) => {
    const v = f(w);
    return Number.isNaN(v) ? Infinity : v;
  };
  for (let k = 1; k < pts.length - 1; k++)
    if (vals[k] <= vals[k - 1] && vals[k] <= vals[k + 1]) {
      const r = goldenMin(g, pts[k - 1], pts[k + 1]);
      take(r.v, r.x);
    }
  for (const c of cands) {
    if (!(c > 0) || c >= wEnd) continue;
    const r = goldenMin(g, c * (1 - 1e-3), Math.min(c * (1 + 1e-3), wEnd));
    take(r.v, r.x);
  }
  if (!Number.isFinite(wEnd) && fEnd < best.v) best = { v: fEnd, w: Infinity };
  return best;
}

/** stationary points (ω > 0) of |P|²/|Q|² on the axis or the unit circle, from the polynomial form */
function stationary(P: number[], Q: number[], Ts: number): number[] {
  if (Ts > 0) return []; // discrete: the dense grid and golden section only (as python-control)
  const a = magSqW(P);
  const b = magSqW(Q);
  return rootsOn(polyadd(conv(polyder(a), b), conv(a, polyder(b)), -1), 0);
}

const cabs = ([a, b]: Complex | [number, number]) => Math.hypot(a, b);

// ------------------------------------------------------------------ bandwidth

export interface BandwidthResult {
  bandwidth: number;
  dcgain: number;
  dbdrop: number;
  /** |G(0)|·10^(dbdrop/20), the level the gain drops below */
  level: number;
}

/** G(0) (continuous) or G(1) (discrete) of a SISO model; Infinity at a pole there (cancellations removed) */
function dcGainOf(m: Siso): number {
  if (m.ss) return m.ss.n === 0 ? m.ss.D[0][0] : dcgainSS(m.ss)[0][0];
  if (isStatic(m)) return m.num[0] / m.den[0];
  // through the canonical realisation: dcgainSS removes a pole at DC the numerator cancels
  const r = tf2ss(m.num, m.den);
  return dcgainSS({ A: r.A, B: r.B, C: r.C, D: r.D, n: r.A.length, m: 1, p: 1, Ts: m.Ts })[0][0];
}

export function bandwidthOf(m: Siso, dbdrop: number): BandwidthResult {
  const g0 = dcGainOf(m);
  if (!Number.isFinite(g0))
    throw new ControlError(
      `bandwidth: the DC gain is infinite (a pole at ${m.Ts > 0 ? 'z = 1' : 's = 0'}, an integrator), so there is no level ${Math.abs(dbdrop)} dB below it and the bandwidth is undefined (MATLAB's bandwidth returns NaN, python-control's nan). For a loop L, the bandwidth usually meant is that of the closed loop feedback(L, 1).`,
    );
  const level = Math.abs(g0) * 10 ** (dbdrop / 20);
  const out = { dcgain: g0, dbdrop, level };
  if (g0 === 0 || isStatic(m)) return { bandwidth: Infinity, ...out };
  const wmax = m.Ts > 0 ? Math.PI / m.Ts : Infinity;
  const g = (w: number) => {
    const [a, b] = m.H(w);
    const v = a * a + b * b - level * level;
    return Number.isNaN(v) ? Infinity : v;
  };
  // candidates: roots of |N|² − c²|D|²
  let cands: number[];
  if (m.Ts > 0) {
    const L = Math.max(m.num.length, m.den.length);
    cands = rootsOn(polyadd(magSqZ(m.num, L), magSqZ(m.den, L), -(level * level)), m.Ts);
  } else cands = rootsOn(polyadd(magSqW(m.num), magSqW(m.den), -(level * level)), 0);
  let best = Infinity;
  // a downward crossing bracketed on the model's own |G|
  for (const c of cands) {
    if (!(c > 0) || c > wmax || c >= best) continue;
    for (const rel of [1e-10, 1e-8, 1e-6, 1e-4, 1e-2]) {
      const a = c * (1 - rel);
      const b = Math.min(c * (1 + rel), wmax);
      const ga = g(a);
      const gb = g(b);
      if (ga > 0 && gb <= 0) {
        best = Math.min(best, gb === 0 ? b : brent(g, a, b, ga, gb));
        break;
      }
    }
  }
  // the safety net: the first grid point below the level, bracketed from the one before
  const grid = [0, ...scanGrid(m.num, m.den, m.Ts).filter((w) => w <= wmax)];
  let prev = g(0);
  for (let k = 1; k < grid.length && grid[k - 1] < best; k++) {
    const v = g(grid[k]);
    if (prev > 0 && v <= 0) {
      best = Math.min(best, v === 0 ? grid[k] : brent(g, grid[k - 1], grid[k], prev, v));
      break;
    }
    prev = v;
  }
  return { bandwidth: best, ...out };
}

function renderBandwidth(args: R, r: BandwidthResult, o: RenderOptions): string {
  const drop = `${fmt(Math.abs(r.dbdrop), o.digits)} dB`;
  const dc = `|G(0)| = ${fmt(Math.abs(r.dcgain), o.digits)}${r.dcgain < 0 ? ' (the DC gain is negative; its magnitude counts)' : ''}`;
  const disc =
    typeof args.Ts === 'number' && args.Ts > 0 ? ` (discrete: searched up to the Nyquist frequency π/Ts = ${fmt(Math.PI / args.Ts, o.digits)} rad/s)` : '';
  if (!Number.isFinite(r.bandwidth)) {
    const why = r.dcgain === 0 ? 'the DC gain is 0, so the gain cannot drop below it' : `|G(jω)| never drops ${drop} below ${dc}${disc}`;
    return `**Bandwidth** ∞: ${why} (MATLAB's bandwidth also returns Inf).`;
  }
  return `**Bandwidth** ω_B = ${fmt(r.bandwidth, o.digits)} rad/s (${fmt(r.bandwidth / (2 * Math.PI), o.digits)} Hz): the first frequency where |G(jω)| drops ${drop} below ${dc}, i.e. to ${fmt(r.level, o.digits)}${disc}.`;
}

// ------------------------------------------------------------------ sigma

export interface SigmaResult {
  w: number[];
  /** one row per frequency: the min(p, m) singular values of G(jω), descending */
  sv: number[][];
  sv_db: number[][];
  /** sup over ω of the largest singular value (the H∞ norm when the model is stable) */
  peak: number;
  peak_db: number;
  w_peak: number;
  stable: boolean;
}

/** the singular values (descending) of a complex p x m matrix, through its real 2p x 2m form (each twice) */
export function complexSingularValues(re: Matrix, im: Matrix): number[] {
  const p = re.length;
  const m = re[0].length;
  if (re.some((r, i) => r.some((v, j) => !Number.isFinite(v) || !Number.isFinite(im[i][j])))) return new Array(Math.min(p, m)).fill(Infinity);
  const M = zeros(2 * p, 2 * m);
  for (let i = 0; i < p; i++)
    for (let j = 0; j < m; j++) {
      M.d[i * 2 * m + j] = re[i][j];
      M.d[i * 2 * m + m + j] = -im[i][j];
      M.d[(p + i) * 2 * m + j] = im[i][j];
      M.d[(p + i) * 2 * m + m + j] = re[i][j];
    }
  const s = singularValues(M);
  return Array.from({ length: Math.min(p, m) }, (_, k) => s[2 * k]);
}

/** most frequencies times (states² + outputs·inputs) one sigma call computes */
const SIGMA_WORK = 2e9;

/** the default grid: 200 points, two decades beyond the poles' frequencies (continuous) or 1e-3·π/Ts to π/Ts */
function sigmaGrid(sys: SS): number[] {
  let lo: number, hi: number;
  if (sys.Ts > 0) {
    hi = Math.PI / sys.Ts;
    lo = hi * 1e-3;
  } else {
    const mags = sys.n
      ? eigenvalues(sys.A)
          .map(cabs)
          .filter((v) => v > 0)
      : [];
    lo = mags.length ? Math.min(...mags) / 100 : 0.01;
    hi = mags.length ? Math.max(...mags) * 100 : 100;
  }
  const a = Math.log10(lo);
  const b = Math.log10(hi);
  return Array.from({ length: 200 }, (_, k) => 10 ** (a + ((b - a) * k) / 199));
}

export function sigmaOf(sys: SS, wIn?: number[]): SigmaResult {
  const w = wIn ?? sigmaGrid(sys);
  const ev = freqEvaluator(sys);
  const svAt = (ws: number[]) => {
    const f = ev(ws);
    return ws.map((_, k) => complexSingularValues(f.re[k], f.im[k]));
  };
  const sv = svAt(w);
  // stability: every pole strictly inside the stability boundary
  const poles = sys.n ? eigenvalues(sys.A) : [];
  const nrm = Math.max(1, ...sys.A.map((r) => r.reduce((s, v) => s + Math.abs(v), 0)));
  const tol = 1e-10 * nrm;
  const stable = sys.Ts > 0 ? poles.every((z) => cabs(z) < 1 - tol) : poles.every(([a]) => a < -tol);
  let peak: number;
  let wPeak: number;
  const onBoundary = sys.Ts > 0 ? poles.find((z) => Math.abs(cabs(z) - 1) <= tol) : poles.find(([a]) => Math.abs(a) <= tol);
  if (stable) {
    const r = hinfnorm(sys);
    peak = r.hinf;
    wPeak = r.fpeak;
  } else if (onBoundary) {
    peak = Infinity;
    wPeak = sys.Ts > 0 ? Math.abs(Math.atan2(onBoundary[1], onBoundary[0])) / sys.Ts : Math.abs(onBoundary[1]);
  } else {
    // unstable without a pole on the boundary: the L∞ peak on a dense grid, refined
    const smax = (x: number) => svAt([x])[0][0] ?? 0;
    const mags = poles.map(cabs).filter((v) => v > 0);
    const wEnd = sys.Ts > 0 ? Math.PI / sys.Ts : Infinity;
    let grid: number[];
    if (sys.Ts > 0) grid = Array.from({ length: 2001 }, (_, k) => (wEnd * k) / 2000);
    else {
      const lo = Math.log10(mags.length ? Math.min(...mags) : 1) - 4;
      const hi = Math.log10(mags.length ? Math.max(...mags) : 1) + 4;
      grid = Array.from({ length: 2001 }, (_, k) => 10 ** (lo + ((hi - lo) * k) / 2000));
    }
    const neg = (x: number) => -smax(x);
    const dInf = complexSingularValues(
      sys.D,
      sys.D.map((r) => r.map(() => 0)),
    )[0];
    const best = minimise(neg, [...grid, ...w], [], wEnd, -dInf);
    peak = -best.v;
    wPeak = best.w;
  }
  return {
    w,
    sv,
    sv_db: sv.map((r) => r.map((v) => 20 * Math.log10(v))),
    peak,
    peak_db: 20 * Math.log10(peak),
    w_peak: wPeak,
    stable,
  };
}

function renderSigma(args: R, r: SigmaResult, o: RenderOptions): string {
  const k = r.sv[0]?.length ?? 0;
  const peak = Number.isFinite(r.peak)
    ? `**Peak** σ_max = ${fmt(r.peak, o.digits)} (${fmt(r.peak_db, o.digits)} dB) at ω = ${r.w_peak === Infinity ? '∞ (approached as ω → ∞)' : `${fmt(r.w_peak, o.digits)} rad/s`}: ${r.stable ? 'the H∞ norm (the model is stable; level-set method)' : 'the peak gain over frequency (L∞; the model is unstable, so its H∞ norm is infinite), found on a dense grid refined locally'}.`
    : `**Peak** ∞: a pole on the ${typeof args.Ts === 'number' && args.Ts > 0 ? 'unit circle' : 'imaginary axis'} at ω = ${fmt(r.w_peak, o.digits)} rad/s.`;
  const show = r.w.length <= 12 ? r.w.map((_, i) => i) : Array.from({ length: 10 }, (_, i) => Math.round((i * (r.w.length - 1)) / 9));
  const head = `| ω (rad/s) | ${Array.from({ length: k }, (_, i) => `σ${i + 1} (dB)`).join(' | ')} |`;
  const sep = `|---:|${Array.from({ length: k }, () => '---:').join('|')}|`;
  const rows = show.map(
    (i) => `| ${fmt(r.w[i], o.digits)} | ${r.sv_db[i].map((v) => (Number.isFinite(v) ? fmt(v, o.digits) : v > 0 ? '∞' : '−∞')).join(' | ')} |`,
  );
  return [
    `**Singular values** of G(jω) at ${r.w.length} frequenc${r.w.length === 1 ? 'y' : 'ies'}, ${k} per frequency, descending${r.w.length > 12 ? ' (10 of them shown; the plot and the JSON output carry all)' : ''}:`,
    [head, sep, ...rows].join('\n'),
    peak,
  ].join('\n\n');
}

// ------------------------------------------------------------------ stability margins

export interface StabilityMargins {
  gm: number;
  gm_db: number;
  w_pc: number;
  pm_deg: number;
  w_gc: number;
  sm: number;
  w_sm: number;
  /** every phase crossover (ascending) and its gain margin */
  w_pc_all: number[];
  gm_all: number[];
  /** every gain crossover (ascending), its phase margin and delay margin (seconds) */
  w_gc_all: number[];
  pm_all: number[];
  dm_all: number[];
  /** the closed loop feedback(L, 1) is stable */
  stable: boolean;
  /** balanced (skew 0) disk margin α, its frequency, gain range and phase */
  disk_margin: number;
  w_dm: number;
  disk_gm: [number, number];
  disk_gm_db: number;
  disk_pm_deg: number;
  caution?: string;
}

/**
 * The disk D(α, σ) = {(1 + (1 − σ)/2·δ)/(1 − (1 + σ)/2·δ) : |δ| ≤ α} of gain and phase changes a
 * disk margin α with skew σ describes (Seiler, Packard and Gahinet 2020, eq. (9)): its real-axis
 * intercepts gm = [γmin, γmax] (γmin = (2 − α(1 − σ))/(2 + α(1 + σ)), 0 when the disk holds 0;
 * γmax = (2 + α(1 − σ))/(2 − α(1 + σ)), ∞ when it reaches infinity, both to 1e-12 of that edge)
 * and the phase ±pm (degrees)
 * at unit gain: |e^{jθ} − 1| ≤ α|a + b·e^{jθ}| (a = (1 − σ)/2, b = (1 + σ)/2) holds up to
 * cos θ = (2 − α²(a² + b²))/(2 + 2α²ab), the left side over the right growing with θ; for σ = 0
 * that is 2·atan(α/2), which passes 90° when α > 2 (the disk is then the outside of a circle).
 */
export function diskGainPhase(alpha: number, sigma = 0): { gm: [number, number]; pm: number } {
  if (!(alpha > 0)) return { gm: [1, 1], pm: 0 };
  if (alpha === Infinity) return { gm: [0, Infinity], pm: 180 };
  const a = (1 - sigma) / 2;
  const b = (1 + sigma) / 2;
  // within rounding of the edge (α = 2 at σ = 0 computed as 2 − 4e-16) the intercept is the edge's
  const lo = 1 - alpha * a <= 1e-12 ? 0 : (1 - alpha * a) / (1 + alpha * b);
  const hi = 1 - alpha * b <= 1e-12 ? Infinity : (1 + alpha * a) / (1 - alpha * b);
  const c = (2 - alpha * alpha * (a * a + b * b)) / (2 + 2 * alpha * alpha * a * b);
  const pm = 2 + 2 * alpha * alpha * a * b <= 0 || c <= -1 ? 180 : (Math.acos(Math.min(1, c)) * 180) / Math.PI;
  return { gm: [lo, hi], pm };
}

/**
 * The disk margin of a SISO loop with skew σ (the closed loop assumed stable): α = 1/sup over ω
 * of |S + (σ − 1)/2| = min over ω of 2|1 + L|/|(1 + σ) + (σ − 1)L| (for σ = 0, 2|1 + L|/|1 − L|
 * = 1/|(S − T)/2|), with the frequency where it is least: the dense scan and the stationary
 * points of the polynomial form, refined on the model's own response (minimise). stability_margins
 * (σ = 0) and diskmargin (any σ, and each loop of a MIMO loop broken at a time) share it.
 */
export function diskMarginSiso(m: Siso, sigma = 0): { alpha: number; w: number } {
  const ratio = (a: number, b: number) => {
    const den = Math.hypot(1 + sigma + (sigma - 1) * a, (sigma - 1) * b);
    return den === 0 ? Infinity : (2 * Math.hypot(1 + a, b)) / den;
  };
  // at a pole of L: |S + (σ − 1)/2| → |σ − 1|/2
  const atPole = sigma === 1 ? Infinity : 2 / Math.abs(sigma - 1);
  if (isStatic(m)) return { alpha: ratio(m.num[0] / m.den[0], 0), w: 0 };
  const f = (w: number) => {
    const [a, b] = m.H(w);
    return Number.isFinite(a) ? ratio(a, b) : atPole;
  };
  const wEnd = m.Ts > 0 ? Math.PI / m.Ts : Infinity;
  const fEnd = Number.isFinite(m.atInf) ? ratio(m.atInf, 0) : atPole;
  const Q = polyadd(
    m.den.map((v) => v * (1 + sigma)),
    m.num,
    sigma - 1,
  );
  const r = minimise(f, scanGrid(m.num, m.den, m.Ts), stationary(polyadd(m.den, m.num), Q, m.Ts), wEnd, fEnd);
  return { alpha: r.v, w: r.w };
}

/** closed-loop stability of feedback(L, 1) by its poles */
export function closedLoopStable(m: Siso): { stable: boolean; illPosed: boolean } {
  let poles: Complex[];
  if (m.ss && m.ss.n > 0) {
    const { A, B, C, D } = m.ss;
    const k = 1 + D[0][0];
    if (k === 0) return { stable: false, illPosed: true };
    poles = eigenvalues(A.map((r, i) => r.map((v, j) => v - (B[i][0] * C[0][j]) / k)));
  } else {
    // 1 + L = (den + num)/den: the closed-loop poles are the roots of den + num
    const cl = polyStrip(polyadd(m.den, m.num));
    if (cl.length < m.den.length) return { stable: false, illPosed: true };
    poles = cl.length > 1 ? polyRoots(cl) : [];
  }
  return { stable: stableByPoles(poles, m.Ts), illPosed: false };
}

/** every pole strictly inside the stability boundary (left half plane, or unit disk when Ts > 0), to 1e-12 of their scale */
export function stableByPoles(poles: Complex[], Ts: number): boolean {
  const scale = Math.max(1, ...poles.map(cabs));
  const tol = 1e-12 * scale;
  return Ts > 0 ? poles.every((z) => cabs(z) < 1 - tol) : poles.every(([a]) => a < -tol);
}

export function stabilityMargins(m: Siso, epsw = 0): StabilityMargins {
  const wEnd = m.Ts > 0 ? Math.PI / m.Ts : Infinity;
  const cl = closedLoopStable(m);
  const one = (w: number) => {
    const [a, b] = m.H(w);
    return Math.hypot(1 + a, b);
  };
  const cautions: string[] = [];
  if (cl.illPosed) cautions.push('1 + L is identically 0 at infinite frequency (L(∞) = −1): the loop feedback(L, 1) is ill-posed.');
  if (isStatic(m)) {
    const k = m.num[0] / m.den[0];
    const s = staticMargins(k);
    const alpha = cl.stable ? diskMarginSiso(m).alpha : 0;
    const d = diskGainPhase(alpha);
    return {
      gm: s.gm,
      gm_db: s.gm_db,
      w_pc: NaN,
      pm_deg: s.pm_deg,
      w_gc: NaN,
      sm: Math.abs(1 + k),
      w_sm: 0,
      w_pc_all: [],
      gm_all: [],
      w_gc_all: [],
      pm_all: [],
      dm_all: [],
      stable: cl.stable,
      disk_margin: alpha,
      w_dm: cl.stable ? 0 : NaN,
      disk_gm: d.gm,
      disk_gm_db: 20 * Math.log10(d.gm[1]),
      disk_pm_deg: d.pm,
      caution: [s.caution ?? '', ...cautions].filter(Boolean).join(' '),
    };
  }
  const { pc, gc } = marginCrossings(m.num, m.den, m.Ts, m.accept, m.ss ? m.H : undefined);
  // ω = 0: a phase crossover when L(0) is finite, real and negative
  const [h0r, h0i] = m.H(0);
  if (epsw === 0 && Number.isFinite(h0r) && h0r < 0 && Math.abs(h0i) <= 1e-12 * Math.abs(h0r)) pc.push({ w: 0, gm: 1 / Math.abs(h0r) });
  const pcs = pc.filter((c) => c.w >= epsw).sort((a, b) => a.w - b.w);
  const gcs = gc.filter((c) => c.w > epsw).sort((a, b) => a.w - b.w);
  if (!Number.isFinite(h0r) && epsw === 0) {
    // a pole at DC: MATLAB's allmargin reports gm = 0 at ω = 0 when the phase there is −180°
    // (a double integrator); that is no crossing of a finite point and is not listed
  }
  let gm = Infinity;
  let wpc = NaN;
  for (const c of pcs)
    if (!Number.isFinite(gm) || Math.abs(Math.log(c.gm)) < Math.abs(Math.log(gm))) {
      gm = c.gm;
      wpc = c.w;
    }
  let pm = Infinity;
  let wgc = NaN;
  for (const c of gcs)
    if (Math.abs(c.pm) < Math.abs(pm)) {
      pm = c.pm;
      wgc = c.w;
    }
  // delay margin of each gain crossover: the phase lag to −180° (mod 360, MATLAB) over ω
  const dm = gcs.map((c) => ((((c.pm % 360) + 360) % 360) * Math.PI) / 180 / c.w);
  const grid = scanGrid(m.num, m.den, m.Ts);
  const fEnd = Number.isFinite(m.atInf) ? Math.abs(1 + m.atInf) : Infinity;
  const smr = minimise(one, grid, stationary(polyadd(m.den, m.num), m.den, m.Ts), wEnd, fEnd);
  let alpha = 0;
  let wdm = NaN;
  if (cl.stable) {
    const r = diskMarginSiso(m);
    alpha = r.alpha;
    wdm = r.w;
  } else
    cautions.push(
      'The closed loop feedback(L, 1) is unstable: the disk margin is 0 (MATLAB diskmargin), and the margins describe how far the loop is from the boundary, not a guarantee.',
    );
  const d = diskGainPhase(alpha);
  return {
    gm,
    gm_db: 20 * Math.log10(gm),
    w_pc: wpc,
    pm_deg: pm,
    w_gc: wgc,
    sm: smr.v,
    w_sm: smr.w,
    w_pc_all: pcs.map((c) => c.w),
    gm_all: pcs.map((c) => c.gm),
    w_gc_all: gcs.map((c) => c.w),
    pm_all: gcs.map((c) => c.pm),
    dm_all: dm,
    stable: cl.stable,
    disk_margin: alpha,
    w_dm: wdm,
    disk_gm: d.gm,
    disk_gm_db: 20 * Math.log10(d.gm[1]),
    disk_pm_deg: d.pm,
    ...(cautions.length ? { caution: cautions.join(' ') } : {}),
  };
}

function renderStabilityMargins(args: R, r: StabilityMargins, o: RenderOptions): string {
  const f = (x: number) => (Number.isNaN(x) ? '–' : x === Infinity ? '∞' : x === -Infinity ? '−∞' : fmt(x, o.digits));
  const disc = typeof args.Ts === 'number' && args.Ts > 0;
  const parts: string[] = [];
  parts.push(`**Closed loop** feedback(L, 1): ${r.stable ? 'stable' : '**unstable**'}.`);
  if (r.w_pc_all.length) {
    parts.push(
      [
        '| phase crossover ω (rad/s) | gain margin | gain margin (dB) |',
        '|---:|---:|---:|',
        ...r.w_pc_all.map((w, i) => `| ${f(w)}${w === 0 ? ' (DC: L(0) < 0)' : ''} | ${f(r.gm_all[i])} | ${f(20 * Math.log10(r.gm_all[i]))} |`),
      ].join('\n'),
    );
  } else parts.push('No phase crossover: the phase never crosses −180°, gain margin ∞.');
  if (r.w_gc_all.length) {
    parts.push(
      [
        `| gain crossover ω (rad/s) | phase margin (°) | delay margin (s)${disc ? ' ' : ''} |`,
        '|---:|---:|---:|',
        ...r.w_gc_all.map((w, i) => `| ${f(w)} | ${f(r.pm_all[i])} | ${f(r.dm_all[i])} |`),
      ].join('\n'),
    );
  } else parts.push('No gain crossover: |L(jω)| never crosses 1, phase margin ∞.');
  parts.push(
    `**Selected (MATLAB's rule):** gain margin ${f(r.gm)} (${f(r.gm_db)} dB) at ω = ${f(r.w_pc)} rad/s (closest to 0 dB), phase margin ${f(r.pm_deg)}° at ω = ${f(r.w_gc)} rad/s (smallest |pm|).`,
  );
  const wsm = r.w_sm === Infinity ? '∞ (approached as ω → ∞)' : `${f(r.w_sm)} rad/s`;
  parts.push(
    `**Stability margin** sm = min over ω of |1 + L(jω)| = ${f(r.sm)} at ω = ${wsm}: the distance from the Nyquist curve to −1 (1/sm = ${f(1 / r.sm)} is the peak sensitivity ‖S‖∞${r.stable ? '' : ', meaningful only for a stable loop'}).`,
  );
  if (r.stable) {
    const wdm = r.w_dm === Infinity ? '∞' : `${f(r.w_dm)} rad/s`;
    parts.push(
      `**Disk margin** (balanced, skew 0) α = 1/‖(S − T)/2‖∞ = ${f(r.disk_margin)} at ω = ${wdm}: the loop stays stable for any simultaneous gain and phase change in the disk, i.e. gain between ${f(r.disk_gm[0])} and ${f(r.disk_gm[1])} (±${f(r.disk_gm_db)} dB) or phase ±${f(r.disk_pm_deg)}°.`,
    );
  } else parts.push('**Disk margin** 0: the nominal closed loop is unstable.');
  parts.push(
    `ω = 0 counts as a phase crossover when L(0) is finite, real and negative (python-control's default; epsw > 0 drops crossovers below epsw)${disc ? '; discrete: ω up to π/Ts, delay margins in seconds (MATLAB gives them in sample periods: divide by Ts)' : ''}. The stability margin includes ω = 0 and ω → ∞ (python-control lists interior minima only).`,
  );
  if (r.caution) parts.push(`**Caution:** ${r.caution}`);
  return parts.join('\n\n');
}

// ------------------------------------------------------------------ code

// ------------------------------------------------------------------ tools

const sisoProps = { ...tfProps, ...ssProps, ...tsProp };

export const tools = [
  tool({
    name: 'bandwidth',
    nonFinite: ['bandwidth'],
    words: {
      // "bandwidth" alone is an everyday word in design questions ("a 50 Hz bandwidth loop",
      // "what bandwidth should I aim for"): only a call or a phrase naming a system's bandwidth
      name: 'call-only',
      calls: [{ names: ['bandwidth'], args: ['sys', 'dbdrop'], keywords: { dbdrop: 'dbdrop' } }],
      phrases: [
        'bandwidth of g',
        'bandwidth of the system',
        'bandwidth of this system',
        'bandwidth of the transfer function',
        '3 db bandwidth',
        '3db bandwidth',
        '-3 db bandwidth',
        'db bandwidth of',
      ],
      example: '/bandwidth num=[1], den=[1 1]',
    },
    brief: 'Bandwidth: first frequency where |G| drops dbdrop dB (default -3) below the DC gain (SISO).',
    title: 'Bandwidth',
    description:
      'Bandwidth of a SISO system (num/den or A, B, C, D; discrete when Ts > 0), as MATLAB bandwidth(sys, dbdrop) and python-control bandwidth: the first frequency (rad/s) where |G(jω)| drops below |G(0)|·10^(dbdrop/20); dbdrop < 0, default -3 (the exact half-power point is dbdrop = -10·log10(2) = -3.0103). Infinity when the gain never drops that far (discrete: up to π/Ts). A system with infinite DC gain (an integrator) is refused with the reason (MATLAB and python-control return NaN). Returns bandwidth, dcgain, dbdrop and the level |G(0)|·10^(dbdrop/20).',
    parameters: {
      type: 'object',
      properties: { ...sisoProps, dbdrop: { type: 'number', description: 'the drop in dB that defines the bandwidth, negative (default -3)' } },
      required: [],
      additionalProperties: false,
    },
    run(args) {
      const dbdrop = args.dbdrop ?? -3;
      if (typeof dbdrop !== 'number' || !Number.isFinite(dbdrop) || !(dbdrop < 0))
        throw new ControlError(`bandwidth: dbdrop must be a negative number of dB (default -3), not ${String(dbdrop)}.`);
      return bandwidthOf(readSiso(args, 'bandwidth'), dbdrop) as unknown as R;
    },
    intro:
      '**Bandwidth.** The first frequency where the gain |G(jω)| falls the given number of dB (3 by default) below its DC value |G(0)|, as MATLAB bandwidth.',
    render: renderBandwidth as (a: R, r: R, o: RenderOptions) => string,
    code: {
      title: 'bandwidth: first frequency where |G| drops dbdrop dB below the DC gain',
      gen(code, a, r) {
        systemCode(code, a, 'sys');
        const d = numberLiteral(a.dbdrop ?? -3, code.lang);
        if (code.lang === 'matlab') code.line(`fb = bandwidth(sys, ${d})   % rad/s; NaN for an infinite DC gain, Inf when it never drops`);
        else code.line(`fb = ct.bandwidth(sys, dbdrop=${d})   # rad/s; nan for an infinite DC gain, inf when it never drops`);
        if (r) code.comment(verdictHolder).expect('fb', r.bandwidth).expect('dcgain', r.dcgain);
      },
    },
    model: BY_LOOKUP,
    plots: sisoPlots('bode'),
  }),
  tool({
    name: 'sigma',
    nonFinite: ['sv', 'sv_db', 'peak', 'peak_db', 'w_peak'],
    words: {
      name: 'call-only',
      calls: [
        { names: ['sigma', 'sigmaplot', 'singular_values_response', 'singular_values_plot', 'svplot'], args: ['sys', 'w'], keywords: { omega: 'w', w: 'w' } },
      ],
      phrases: [
        'singular value plot',
        'singular values plot',
        'singular values of g(jw)',
        'singular values of g(jω)',
        'singular value response',
        'singular values over frequency',
        'sigma plot',
        'principal gains',
      ],
      aliases: { w: ['omega', 'ω'] },
      example: '/sigma A=[-1 0; 0 -2], B=[1 0; 0 1], C=[1 1; 0 1]',
    },
    brief: 'Singular values of G(jw) over frequency (MIMO gain), and their peak (H-infinity norm when stable).',
    title: 'Singular values over frequency',
    description:
      'Singular values of the frequency response G(jω) (or G(e^{jωTs}) when Ts > 0) of (A, B, C, D) or num/den, as MATLAB sigma and python-control singular_values_response: w (rad/s; a default grid two decades beyond the poles when w is omitted), sv with one row per frequency holding the min(p, m) singular values in descending order, sv_db = 20·log10(sv), and the peak of the largest over all frequencies with its frequency w_peak: the H∞ norm (level-set method) when the model is stable, otherwise the L∞ peak (dense grid refined locally), Infinity at a pole on the stability boundary.',
    parameters: {
      type: 'object',
      properties: { ...tfProps, ...ssProps, w: vector('frequencies in rad/s (>= 0); a default grid when omitted'), ...tsProp },
      required: [],
      additionalProperties: false,
    },
    run(args) {
      const { tf, ss } = readTfOrSs(args, 'sigma');
      let sys: SS;
      if (tf) {
        const r = tf2ss(tf.num, tf.den);
        sys = { A: r.A, B: r.B, C: r.A.length ? r.C : [[]], D: r.D, n: r.A.length, m: 1, p: 1, Ts: tf.Ts };
      } else sys = ss!;
      scaleGuard(sys, 'sigma');
      let w: number[] | undefined;
      if (args.w !== undefined) {
        w = args.w as number[];
        if (!w.length) throw new ControlError('sigma: w is empty; give the frequencies in rad/s, or omit w for a default grid.');
        w.forEach((x, i) => {
          if (!(x >= 0)) throw new ControlError(`sigma: w[${i + 1}] = ${x}; frequencies must be >= 0 rad/s.`);
        });
      }
      const work = (w?.length ?? 200) * (sys.n * sys.n + sys.p * sys.m + 1);
      if (work > SIGMA_WORK)
        throw new ControlError(
          `sigma: ${w?.length ?? 200} frequencies for a model with ${sys.n} states is too much work for one call; use fewer frequencies (at most about ${Math.floor(SIGMA_WORK / (sys.n * sys.n + sys.p * sys.m + 1))}).`,
          'limit',
        );
      return sigmaOf(sys, w) as unknown as R;
    },
    intro:
      '**Singular values.** At each frequency, the singular values of the complex gain matrix G(jω): the largest is the most any input direction is amplified, the smallest the least.',
    render: renderSigma as (a: R, r: R, o: RenderOptions) => string,
    code: {
      title: 'singular values of G(jw) over frequency, and their peak',
      gen(code, a, r) {
        systemCode(code, a, 'sys');
        const w = (r?.w ?? a.w) as number[] | undefined;
        if (code.lang === 'matlab') {
          if (w) code.assign('w', vectorLiteral(w, code.lang));
          code.line(`sv = sigma(sys${w ? ', w' : ''}).';   % MATLAB: one column per frequency; transposed to one row per frequency`);
          code.line('[gpeak, fpeak] = getPeakGain(sys)   % = hinfnorm(sys) when sys is stable');
        } else {
          if (w) code.assign('w', vectorLiteral(w, code.lang));
          code.line(`resp = ct.singular_values_response(sys${w ? ', omega=w' : ''})`);
          code.line('sv = np.abs(resp.frdata[:, 0, :]).T   # one row per frequency, descending');
          code.line('gpeak, fpeak = ct.linfnorm(sys)   # needs slycot; ct.hinfnorm for a stable model is the same');
        }
        if (r) code.comment(verdictHolder).expect('peak', r.peak).expect('w_peak', r.w_peak).expect('sv(1, :)', r.sv?.[0]);
      },
    },
    model: BY_LOOKUP,
    plots: systemPlots('sigma'),
  }),
  tool({
    name: 'stability_margins',
    nonFinite: ['gm', 'gm_db', 'w_pc', 'pm_deg', 'w_gc', 'sm', 'w_sm', 'gm_all', 'dm_all', 'disk_margin', 'w_dm', 'disk_gm', 'disk_gm_db'],
    words: {
      calls: [
        { names: ['allmargin', 'stability_margins'], args: ['sys'], keywords: { epsw: 'epsw' } },
        // diskmargin(L) and ct.disk_margins read as the diskmargin tool (diskmargin.ts), which this one's disk margin agrees with
      ],
      phrases: [
        'all margins',
        'all crossovers',
        'every crossover',
        'all crossover frequencies',
        'stability margin sm',
        'allmargin',
        'delay margin',
        'modulus margin',
        'vector margin',
      ],
      example: '/stability_margins num=[25], den=[1 10 10 10]',
    },
    brief: 'Every gain/phase crossover with its margin, delay margins, stability margin min|1+L| and the disk margin of a SISO loop.',
    title: 'All stability margins',
    description:
      "Stability margins of a SISO open loop L (num/den or A, B, C, D; discrete when Ts > 0), negative feedback, as MATLAB allmargin plus python-control stability_margins(returnall=True) and the balanced disk margin: every phase crossover w_pc_all with gain margin gm_all (1/|L|), every gain crossover w_gc_all with phase margin pm_all (deg, in (-180, 180]) and delay margin dm_all (s), the selected gm/pm by MATLAB's rule, the stability margin sm = min over ω in [0, ∞] of |1 + L(jω)| at w_sm, closed-loop stability (stable), and the disk margin α = 1/‖(S − T)/2‖∞ (skew 0; 0 when the closed loop is unstable) at w_dm with its gain range disk_gm and phase ±disk_pm_deg. ω = 0 is a phase crossover when L(0) is finite, real and negative (python-control's default epsw = 0); epsw > 0 drops crossovers below it.",
    parameters: {
      type: 'object',
      properties: {
        ...sisoProps,
        epsw: { type: 'number', minimum: 0, description: 'frequencies below this (rad/s) are not counted as crossovers (python-control epsw, default 0)' },
      },
      required: [],
      additionalProperties: false,
    },
    run(args) {
      const epsw = args.epsw ?? 0;
      if (typeof epsw !== 'number' || !(epsw >= 0) || !Number.isFinite(epsw))
        throw new ControlError(`stability_margins: epsw must be a frequency >= 0 rad/s, not ${String(epsw)}.`);
      const m = readSiso(args, 'stability_margins');
      if (m.num.length > m.den.length)
        throw new ControlError(
          `stability_margins: L is improper (numerator degree ${m.num.length - 1} above the denominator's ${m.den.length - 1}): its gain grows without bound with frequency and the loop feedback(L, 1) is not a proper system; give a proper loop.`,
        );
      return stabilityMargins(m, epsw) as unknown as R;
    },
    intro:
      '**All stability margins.** Every crossing of −180° (gain margin 1/|L|) and of |L| = 1 (phase margin, delay margin), the smallest distance sm from the Nyquist curve to −1, and the disk margin: the largest disk of simultaneous gain and phase changes the loop tolerates.',
    render: renderStabilityMargins as (a: R, r: R, o: RenderOptions) => string,
    code: {
      title: 'every crossover and margin, the stability margin and the disk margin of the loop L',
      gen(code, a, r) {
        systemCode(code, a, 'L');
        if (code.lang === 'matlab') {
          code.line('S = allmargin(L)   % GainMargin/GMFrequency, PhaseMargin/PMFrequency, DelayMargin, Stable');
          code.line('DM = diskmargin(L)   % Robust Control Toolbox: DiskMargin, GainMargin, PhaseMargin, Frequency');
          code.line('sm = 1/getPeakGain(feedback(1, L))   % stability margin min|1 + L| (stable loop)');
        } else {
          code.line('gm, pm, sm, wpc, wgc, wms = ct.stability_margins(L, returnall=True)   # sm: interior minima of |1 + L| only');
          code.line('DM, DGM, DPM = ct.disk_margins(L, np.logspace(-3, 3, 3000))   # on that grid; DGM in dB');
        }
        if (r)
          code
            .comment(verdictHolder)
            .expect('w_pc_all', r.w_pc_all)
            .expect('gm_all', r.gm_all)
            .expect('w_gc_all', r.w_gc_all)
            .expect('pm_all', r.pm_all)
            .expect('sm', r.sm)
            .expect('w_sm', r.w_sm)
            .expect('disk_margin', r.disk_margin)
            .expect('disk_pm_deg', r.disk_pm_deg);
      },
    },
    model: BY_LOOKUP,
    plots: sisoPlots('bode', 'nyquist'),
  }),
];
