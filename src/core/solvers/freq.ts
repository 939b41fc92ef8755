/**
 * Frequency response and stability margins. freqresp reduces A to Hessenberg form once and
 * solves one shifted Hessenberg system per frequency. margins finds every phase and gain
 * crossover as a root of a polynomial (in w, or in z on the unit circle), polishes each root
 * on the exact response and applies MATLAB's selection rule.
 */
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import { renderFreqresp, renderMargins } from '../render/results.js';
import { GENERATORS } from '../codegen/code.js';
import { sisoPlots } from '../plot/specs.js';
import { vector } from '../tools/schema.js';
import type { Matrix } from '../types.js';
import { type Mat, fromRows, scale } from '../linalg/dense.js';
import { hessenbergSystem, hessShiftSolve } from '../linalg/hessenberg.js';
import { conv, polyRoots, polyStrip, polyvalC } from '../linalg/poly.js';
import { readSS, readTfOrSs, ssProps, tfProps, tsProp, type SS, requireSiso } from './_sys.js';
import { ss2tf } from './xferfcn.js';
import { brent } from './timeresp.js';

// ------------------------------------------------------------------ frequency response

export interface FreqResp {
  /** H[k] is p x m, as [re, im] entries */
  re: Matrix[];
  im: Matrix[];
}

/** k with 2^k near the largest |entry|, when that is outside [2^-100, 2^100]; else 0 */
function farExponent(M: Matrix): number {
  let mx = 0;
  for (const r of M) for (const v of r) mx = Math.max(mx, Math.abs(v));
  if (!(mx > 0) || !Number.isFinite(mx)) return 0;
  const k = Math.round(Math.log2(mx));
  return Math.abs(k) > 100 ? k : 0;
}

const pow2 = (k: number) => 2 ** Math.trunc(k / 2) * 2 ** (k - Math.trunc(k / 2));

/**
 * H(jw) (continuous) or H(e^{jwTs}) (discrete) at each w; a pole hit exactly gives Infinity/NaN.
 * Far from 1 (beyond 2^±100) everything is solved in scaled units, by powers of 2 (exact):
 * B and C once (C(sI − A)⁻¹B = 2^(kb+kc)·C'(sI − A)⁻¹B'), and sI − A at each frequency by
 * 2^k ≈ max(|s|, ‖A‖) ((sI − A)⁻¹ = 2^−k (s'I − A')⁻¹), because the shifted solve squares its
 * pivots: with A, B, C near 1e199 every value came out NaN, with A near 1e-300 and ω = 0.01
 * the value 9e-299 came out 0.
 */
export function freqResponse(sys: SS, w: number[]): FreqResp {
  return freqEvaluator(sys)(w);
}

/** H at any frequencies of one model: its Hessenberg form is computed once (O(n³)), each frequency is then O(n²) */
export function freqEvaluator(sys: SS): (w: number[]) => FreqResp {
  const { D, p, m, Ts } = sys;
  const kb = farExponent(sys.B);
  const kc = farExponent(sys.C);
  const B = fromRows(sys.B),
    C = fromRows(sys.C),
    A = fromRows(sys.A);
  const Bs = kb ? scale(B, pow2(-kb)) : B;
  const Cs = kc ? scale(C, pow2(-kc)) : C;
  // A itself first (its Householder reduction squares entries too); s then in those units
  const ka = farExponent(sys.A);
  const { H, Bt, Ct } = hessenbergSystem(ka ? scale(A, pow2(-ka)) : A, Bs, Cs);
  let hmax = 0;
  for (const v of H.d) hmax = Math.max(hmax, Math.abs(v));
  const scaledH = new Map<number, Mat>();
  return (w: number[]): FreqResp => {
    const re: Matrix[] = [];
    const im: Matrix[] = [];
    for (const wk of w) {
      const s0r = Ts > 0 ? Math.cos(wk * Ts) : 0;
      const s0i = Ts > 0 ? Math.sin(wk * Ts) : wk;
      // log2 of max(|s|·2^-ka, ‖H‖), formed without s·2^-ka itself (w = 10 against A of 1e-307
      // would overflow it)
      const ls = Math.log2(Math.hypot(s0r, s0i)) - ka;
      const lbig = Math.max(ls, hmax > 0 ? Math.log2(hmax) : -Infinity);
      const k = Number.isFinite(lbig) && Math.abs(lbig) > 100 ? Math.round(lbig) : 0;
      let Hk = H;
      if (k) {
        Hk = scaledH.get(k) ?? scale(H, pow2(-k));
        scaledH.set(k, Hk);
      }
      const sr = s0r * pow2(-ka - k);
      const si = s0i * pow2(-ka - k);
      const back = pow2(kb + kc - ka - k);
      const X = hessShiftSolve(Hk, sr, si, Bt);
      const R: Matrix = [];
      const I: Matrix = [];
      for (let i = 0; i < p; i++) {
        const rr: number[] = [];
        const ii: number[] = [];
        for (let j = 0; j < m; j++) {
          if (!X) {
            rr.push(Infinity);
            ii.push(NaN);
            continue;
          }
          // unscaled (back = 1): D first, the sums as they always were
          let a = back === 1 ? D[i][j] : 0;
          let b = 0;
          const n = Ct.c,
            ct = Ct.d,
            xr = X.re.d,
            xi = X.im.d;
          for (let l = 0; l < n; l++) {
            a += ct[i * n + l] * xr[l * m + j];
            b += ct[i * n + l] * xi[l * m + j];
          }
          if (back !== 1) {
            a = D[i][j] + a * back;
            b *= back;
          }
          // finite (sI − A solved) but not a number: the value itself passes 1.8e308
          if (!Number.isFinite(a) || !Number.isFinite(b))
            throw new ControlError(
              `The frequency response overflows at w = ${wk} rad/s: |H| exceeds 1.8e308, the largest double (the entries of B and C are too large for that of A); rescale the inputs or outputs.`,
              'numerical',
            );
          rr.push(a);
          ii.push(b);
        }
        R.push(rr);
        I.push(ii);
      }
      re.push(R);
      im.push(I);
    }
    return { re, im };
  };
}

/** unwraps a phase sequence in degrees (jumps larger than 180 removed) */
export function unwrapDeg(ph: number[]): number[] {
  const out = ph.slice();
  let offset = 0;
  for (let k = 1; k < out.length; k++) {
    if (!Number.isFinite(ph[k]) || !Number.isFinite(ph[k - 1])) {
      out[k] = ph[k] + offset;
      continue;
    }
    const d = ph[k] - ph[k - 1];
    if (d > 180) offset -= 360 * Math.round(d / 360);
    else if (d < -180) offset += 360 * Math.round(-d / 360);
    out[k] = ph[k] + offset;
  }
  return out;
}

// ------------------------------------------------------------------ margins

export interface Margins {
  gm: number;
  gm_db: number;
  pm_deg: number;
  w_pc: number;
  w_gc: number;
  /** set when the numbers need a word of explanation (a static-gain loop) */
  caution?: string;
}

/**
 * Margins of a static-gain loop L = k (no dynamics): |L| and the phase are the same at every
 * frequency, so there is no isolated crossover and w_pc = w_gc = NaN always.
 * - k >= 0, k != 1: no crossing at all: gm = pm = Infinity (MATLAB's convention for no
 *   crossover).
 * - k = 1: |L| = 1 at every frequency with phase 0: pm = 180° (at every frequency).
 * - k < 0: the Nyquist plot is the single point k on the negative real axis: gm = 1/|k|
 *   (the gain factor that moves it onto -1); k = -1 sits on -1 itself (1 + L = 0: the loop is
 *   ill-posed) and also has |L| = 1 with phase 180°, so gm = 1 (0 dB) and pm = 0.
 */
export function staticMargins(k: number): Margins {
  const none: Margins = { gm: Infinity, gm_db: Infinity, pm_deg: Infinity, w_pc: NaN, w_gc: NaN };
  if (k >= 0 && k !== 1)
    return {
      ...none,
      caution: `The loop is a static gain L = ${k}: its magnitude and phase are the same at every frequency and it never crosses 0 dB or -180°, so both margins are infinite.`,
    };
  if (k === 1)
    return {
      ...none,
      pm_deg: 180,
      caution:
        'The loop is the static gain L = 1: |L| = 1 at every frequency with phase 0°, so every frequency is a gain crossover with pm = 180° (w_gc is not a single frequency: NaN); there is no phase crossover (gm = Infinity).',
    };
  const gm = 1 / Math.abs(k);
  if (k === -1)
    return {
      gm: 1,
      gm_db: 0,
      pm_deg: 0,
      w_pc: NaN,
      w_gc: NaN,
      caution:
        'The loop is the static gain L = -1: 1 + L = 0, so the negative-feedback loop is ill-posed (no solution); gm = 1 (0 dB) and pm = 0° at every frequency (no single crossover frequency: NaN).',
    };
  return {
    gm,
    gm_db: 20 * Math.log10(gm),
    pm_deg: Infinity,
    w_pc: NaN,
    w_gc: NaN,
    caution: `The loop is a static gain L = ${k}: its phase is -180° at every frequency (no single phase crossover: w_pc = NaN), so gm = 1/|L| = ${gm.toPrecision(6)}, the gain factor that puts L on -1${gm < 1 ? ' (a reduction: the loop breaks down if the gain drops by that factor)' : ''}; |L| != 1, so there is no gain crossover (pm = Infinity).`,
  };
}

/** polishes a root of a real function near x0 by bracketing and Brent; x0 if no sign change */
function polish(g: (x: number) => number, x0: number, lo: number, hi: number): number {
  const g0 = g(x0);
  if (g0 === 0) return x0;
  for (let rel = 1e-12; rel <= 1e-3; rel *= 10) {
    const dx = rel * Math.max(Math.abs(x0), 1e-8);
    const a = Math.max(lo, x0 - dx);
    const b = Math.min(hi, x0 + dx);
    const ga = g(a);
    const gb = g(b);
    if (ga * g0 <= 0) return brent(g, a, x0, ga, g0);
    if (gb * g0 <= 0) return brent(g, x0, b, g0, gb);
  }
  return x0;
}

/** real-axis (continuous, in w) coefficients of N(jw): returns [real part, imaginary part] polys */
function jwSplit(p: number[]): [number[], number[]] {
  const n = p.length - 1;
  const re = new Array(p.length).fill(0);
  const im = new Array(p.length).fill(0);
  for (let i = 0; i <= n; i++) {
    const k = n - i; // power of s
    const c = p[i];
    switch (k % 4) {
      case 0:
        re[i] = c;
        break;
      case 1:
        im[i] = c;
        break;
      case 2:
        re[i] = -c;
        break;
      default:
        im[i] = -c;
    }
  }
  return [re, im];
}

function polysub(a: number[], b: number[]): number[] {
  const n = Math.max(a.length, b.length);
  const out = new Array(n).fill(0);
  for (let i = 0; i < a.length; i++) out[n - a.length + i] += a[i];
  for (let i = 0; i < b.length; i++) out[n - b.length + i] -= b[i];
  return out;
}

/**
 * Gain and phase margins of the loop num/den (Ts > 0: discrete). Phase crossovers (H real
 * negative, w in (0, inf) or (0, pi/Ts]) give gm = 1/|H|, the one closest to 0 dB is kept;
 * gain crossovers (|H| = 1) give pm = 180 + angle H wrapped into (-180, 180], the smallest |pm|.
 */
/**
 * `accept` lets a caller veto a crossover the polynomial form found, e.g. one created by
 * round-off in a numerator computed from a state-space model (see the margins tool).
 */
export function margins(
  numIn: number[],
  denIn: number[],
  Ts: number,
  accept?: (w: number, kind: 'pc' | 'gc') => boolean,
  exact?: (w: number) => [number, number],
): Margins {
  const num = polyStrip(numIn);
  const den = polyStrip(denIn);
  if (den.length === 1 && num.length === 1) return staticMargins(num[0] / den[0]);
  const { pc, gc } = marginCrossings(num, den, Ts, accept, exact);
  let gm = Infinity;
  let wpc = NaN;
  let bestG = Infinity;
  for (const c of pc)
    if (Math.abs(Math.log(c.gm)) < bestG) {
      bestG = Math.abs(Math.log(c.gm));
      gm = c.gm;
      wpc = c.w;
    }
  let pm = Infinity;
  let wgc = NaN;
  for (const c of gc)
    if (Math.abs(c.pm) < Math.abs(pm)) {
      pm = c.pm;
      wgc = c.w;
    }
  return { gm, gm_db: 20 * Math.log10(gm), pm_deg: pm, w_pc: wpc, w_gc: wgc };
}

/**
 * Every phase crossover (H real negative, w in (0, inf) or (0, pi/Ts]: gm = 1/|H|) and every gain
 * crossover (|H| = 1: pm = 180 + angle H wrapped into (-180, 180]) of a loop with dynamics, in the
 * order found (margins picks MATLAB's one of each; stability_margins lists them all). `accept`
 * and `exact` as for margins.
 */
export function marginCrossings(
  numIn: number[],
  denIn: number[],
  Ts: number,
  accept?: (w: number, kind: 'pc' | 'gc') => boolean,
  exact?: (w: number) => [number, number],
): { pc: { w: number; gm: number }[]; gc: { w: number; pm: number }[] } {
  const num = polyStrip(numIn);
  const den = polyStrip(denIn);
  const polyH = (w: number): [number, number] => {
    const zr = Ts > 0 ? Math.cos(w * Ts) : 0;
    const zi = Ts > 0 ? Math.sin(w * Ts) : w;
    const [nr, ni] = polyvalC(num, zr, zi);
    const [dr, di] = polyvalC(den, zr, zi);
    const d2 = dr * dr + di * di;
    return [(nr * dr + ni * di) / d2, (ni * dr - nr * di) / d2];
  };
  // the model's own H where the caller has it (state space): the polynomial form of a large
  // model is too ill-conditioned to judge |H| = 1 to 1e-6 (n = 128: |H| = 1 + 9e-6 at its root)
  const evalH = exact ?? polyH;
  // g_im(w) = Im(N conj D), g_mag(w) = |N|^2 - |D|^2 (same zeros as Im H and |H| - 1)
  const parts = (w: number) => {
    const zr = Ts > 0 ? Math.cos(w * Ts) : 0;
    const zi = Ts > 0 ? Math.sin(w * Ts) : w;
    const [nr, ni] = polyvalC(num, zr, zi);
    const [dr, di] = polyvalC(den, zr, zi);
    return { nr, ni, dr, di };
  };
  const gIm = (w: number) => {
    const { nr, ni, dr, di } = parts(w);
    return ni * dr - nr * di;
  };
  const gMag = (w: number) => {
    const { nr, ni, dr, di } = parts(w);
    return nr * nr + ni * ni - (dr * dr + di * di);
  };
  let candIm: number[] = [];
  let candMag: number[] = [];
  const wmax = Ts > 0 ? Math.PI / Ts : Infinity;
  if (Ts > 0) {
    const L = Math.max(num.length, den.length);
    const N = [...new Array(L - num.length).fill(0), ...num];
    const D = [...new Array(L - den.length).fill(0), ...den];
    const rev = (p: number[]) => p.slice().reverse();
    const Q = conv(N, rev(D));
    const pIm = polysub(Q, rev(Q));
    const pMag = polysub(conv(N, rev(N)), conv(D, rev(D)));
    const onCircle = (p: number[]) =>
      isZeroPoly(p)
        ? []
        : polyRoots(p)
            .filter(([r, i]) => Math.abs(Math.hypot(r, i) - 1) <= 1e-3 && i >= -1e-7)
            .map(([r, i]) => Math.atan2(Math.max(i, 0), r))
            // z = 1 (w = 0) is always a root of the phase polynomial; it is not a crossover
            .filter((th) => th > 1e-7)
            .map((th) => th / Ts);
    candIm = onCircle(pIm);
    candMag = onCircle(pMag);
    candIm.push(wmax); // the Nyquist point: H(-1) is real
  } else {
    const [Nr, Ni] = jwSplit(num);
    const [Dr, Di] = jwSplit(den);
    const pIm = polysub(conv(Ni, Dr), conv(Nr, Di));
    const pMag = polysub(polysub(polysub(conv(Nr, Nr), [0]), conv(Dr, Dr)), polysub(conv(Di, Di), conv(Ni, Ni)));
    const realPos = (p: number[]) =>
      isZeroPoly(p)
        ? []
        : polyRoots(p)
            .filter(([r, i]) => r > 0 && Math.abs(i) <= 1e-5 * Math.max(Math.abs(r), 1e-300))
            .map(([r]) => r);
    candIm = realPos(pIm);
    candMag = realPos(pMag);
  }
  // safety net for ill-conditioned polynomial roots (clustered, near the unit circle): sign
  // changes of the real functions on a dense grid, refined by Brent
  const grid: number[] = [];
  if (Ts > 0) {
    const N = 2000;
    for (let k = 1; k <= N; k++) grid.push((Math.PI * k) / N / Ts);
    for (let k = 0; k < 400; k++) grid.push(Math.pow(10, -7 + (4 * k) / 400) / Ts);
  } else {
    const mags = [...polyRoots(num), ...polyRoots(den)].map(([r, i]) => Math.hypot(r, i)).filter((v) => v > 0);
    const lo = Math.log10(Math.max(1e-300, mags.length ? Math.min(...mags) : 1)) - 4;
    const hi = Math.log10(mags.length ? Math.max(...mags) : 1) + 4;
    const N = 2000;
    for (let k = 0; k <= N; k++) grid.push(Math.pow(10, lo + ((hi - lo) * k) / N));
  }
  grid.sort((a, b) => a - b);
  // the scan's functions: the polynomial parts, or (with the model's own H) Im H and |H|² − 1
  // themselves, so a crossover the ill-conditioned polynomial misplaces is still bracketed
  const exIm = (w: number) => evalH(w)[1];
  const exMag = (w: number) => {
    const [hr, hi] = evalH(w);
    return hr * hr + hi * hi - 1;
  };
  // the scan runs on the polynomial where it agrees with the model's H (checked at 9 frequencies
  // across the grid: cheap, and the usual case); only where it does not (a large or
  // ill-conditioned model) on H itself, an O(n²) solve per grid point
  let polyTrusted = true;
  if (exact)
    for (let k = 0; k < 9 && polyTrusted; k++) {
      const w = grid[Math.round((k * (grid.length - 1)) / 8)];
      const [pr, pi] = polyH(w);
      const [er, ei] = exact(w);
      if (!(Math.hypot(pr - er, pi - ei) <= 1e-9 * Math.max(Math.hypot(er, ei), 1e-300))) polyTrusted = false;
    }
  const onH = !!exact && !polyTrusted;
  const scanIm = onH ? exIm : gIm;
  const scanMag = onH ? exMag : gMag;
  // on H, every 4th grid point (each costs an O(n²) solve; Brent then brackets on H itself)
  const scan = onH ? grid.filter((_, k) => k % 4 === 0 || k === grid.length - 1) : grid;
  {
    let w0 = scan[0];
    let i0 = scanIm(w0);
    let m0 = scanMag(w0);
    for (let k = 1; k < scan.length; k++) {
      const w1 = scan[k];
      const i1 = scanIm(w1);
      const m1 = scanMag(w1);
      if (i0 === 0) candIm.push(w0);
      else if (i0 * i1 < 0) candIm.push(brent(scanIm, w0, w1, i0, i1));
      if (m0 === 0) candMag.push(w0);
      else if (m0 * m1 < 0) candMag.push(brent(scanMag, w0, w1, m0, m1));
      w0 = w1;
      i0 = i1;
      m0 = m1;
    }
  }
  // with the model's own H: each crossover polished again on it (a polynomial root within 1e-3
  // of the model's crossover is bracketed; the search of polish starts at 1e-12)
  const refine = (c: number[], g: (w: number) => number, ge: (w: number) => number) => {
    const out: number[] = [];
    for (const w0 of c) {
      let w = w0 >= wmax ? wmax : polish(g, w0, 0, wmax);
      if (exact && w < wmax && w > 0) w = polish(ge, w, 0, wmax);
      if (!(w > 0) || w > wmax) continue;
      if (out.some((x) => Math.abs(x - w) <= 1e-9 * Math.max(w, 1e-300))) continue;
      out.push(w);
    }
    return out;
  };
  const wPc = refine(candIm, gIm, exIm);
  const wGc = refine(candMag, gMag, exMag);
  const pc: { w: number; gm: number }[] = [];
  for (const w of wPc) {
    const [hr, hi] = evalH(w);
    const mag = Math.hypot(hr, hi);
    if (!Number.isFinite(mag) || mag === 0) continue;
    if (!(hr < 0) || Math.abs(hi) > 1e-6 * mag) continue;
    if (accept && !accept(w, 'pc')) continue;
    pc.push({ w, gm: 1 / mag });
  }
  const gc: { w: number; pm: number }[] = [];
  for (const w of wGc) {
    const [hr, hi] = evalH(w);
    const mag = Math.hypot(hr, hi);
    if (!Number.isFinite(mag) || Math.abs(mag - 1) > 1e-6) continue;
    if (accept && !accept(w, 'gc')) continue;
    let ph = 180 + (Math.atan2(hi, hr) * 180) / Math.PI; // in (0, 360]
    if (ph > 180) ph -= 360;
    gc.push({ w, pm: ph });
  }
  return { pc, gc };
}

/**
 * A SISO state-space loop as margins reads it: num/den by ss2tf, the model's own H (one
 * Hessenberg form, O(n²) per frequency) and the veto of phase crossovers made by round-off.
 * The numerator from ss2tf carries round-off (e.g. 1e-17·s for 1/(s+1)^2), which can create a
 * phase crossover far out where the phase only approaches -180°. A phase crossover must show a
 * sign change of Im H in the model itself (or Im H exactly 0).
 */
export function ssLoop(s: SS): {
  num: number[];
  den: number[];
  accept: (w: number, kind: 'pc' | 'gc') => boolean;
  H: (w: number) => [number, number];
} {
  const { num, den } = ss2tf(s.A, s.B, s.C, s.D);
  const wmax = s.Ts > 0 ? Math.PI / s.Ts : Infinity;
  const ev = freqEvaluator(s);
  const H = (w: number): [number, number] => {
    const f = ev([w]);
    return [f.re[0][0][0], f.im[0][0][0]];
  };
  const accept = (w: number, kind: 'pc' | 'gc') => {
    if (kind === 'gc' || w >= wmax * (1 - 1e-12)) return true;
    const [re0, im0] = H(w);
    if (Math.abs(im0) <= 1e-10 * Math.hypot(re0, im0)) return true;
    const lo = H(w * (1 - 1e-6))[1];
    const hi = H(w * (1 + 1e-6))[1];
    return Math.sign(lo) !== Math.sign(hi);
  };
  return { num, den, accept, H };
}

function isZeroPoly(p: number[]): boolean {
  const s = p.reduce((a, v) => a + Math.abs(v), 0);
  return p.every((v) => Math.abs(v) <= 1e-14 * s) || s === 0;
}

// ------------------------------------------------------------------ tools

export const tools = [
  tool({
    name: 'freqresp',
    // H is infinite at a pole hit exactly, mag_db is -Infinity at a zero
    nonFinite: ['H', 'mag_db', 'phase_deg'],
    words: {
      calls: [
        {
          names: ['bode', 'bode_plot', 'freqresp', 'frequency_response', 'freqs', 'dbode', 'dfreqresp', 'bodeplot', 'repf'],
          args: ['sys', 'w'],
          keywords: { w: 'w', omega: 'w' },
        },
      ],
      phrases: [
        'bode',
        'bode plot',
        'bode diagram',
        'frequency response',
        'freqresp',
        'magnitude and phase',
        'gain and phase at',
        'evaluate',
        'magnitude',
        'g(jw)',
        'g(jω)',
      ],
      aliases: { w: ['omega', 'ω', 'W', 'freqs', 'frequencies'] },
      example: '/bode num=[10], den=[1 6 5 0]',
    },
    brief: 'Frequency response H(jw): complex values, magnitude dB, phase deg at w (rad/s).',
    title: 'Frequency response',
    description:
      'Frequency response H(jw) of (A, B, C, D) at the frequencies w in rad/s, or H(e^{jwTs}) when Ts > 0. Returns H as [re, im] pairs, mag_db = 20 log10|H| and the unwrapped phase in degrees. SISO: lists over w; MIMO: one p x m matrix per frequency.',
    parameters: {
      type: 'object',
      properties: { ...ssProps, w: vector('frequencies in rad/s (>= 0)'), ...tsProp },
      required: ['A', 'B', 'C', 'w'],
      additionalProperties: false,
    },
    run(args) {
      const sys = readSS(args, 'freqresp');
      const w = args.w as number[];
      if (!w.length) throw new ControlError('freqresp: w is empty; give the frequencies in rad/s.');
      const { re, im } = freqResponse(sys, w);
      const { p, m } = sys;
      const mag = re.map((R, k) => R.map((r, i) => r.map((v, j) => 20 * Math.log10(Math.hypot(v, im[k][i][j])))));
      const phRaw = re.map((R, k) => R.map((r, i) => r.map((v, j) => (Math.atan2(im[k][i][j], v) * 180) / Math.PI)));
      const phase = phRaw.map((R) => R.map((r) => r.slice()));
      for (let i = 0; i < p; i++)
        for (let j = 0; j < m; j++) {
          const u = unwrapDeg(phRaw.map((M) => M[i][j]));
          u.forEach((v, k) => (phase[k][i][j] = v));
        }
      if (p === 1 && m === 1)
        return {
          H: re.map((R, k) => [R[0][0], im[k][0][0]]),
          mag_db: mag.map((M) => M[0][0]),
          phase_deg: phase.map((M) => M[0][0]),
        };
      return {
        H: re.map((R, k) => R.map((r, i) => r.map((v, j) => [v, im[k][i][j]]))),
        mag_db: mag,
        phase_deg: phase,
      };
    },
    intro: null,
    render: renderFreqresp,
    code: GENERATORS.freqresp,
    model: BY_LOOKUP,
    plots: sisoPlots('bode', 'nyquist'),
  }),
  tool({
    name: 'margins',
    // no phase crossover: gm = Infinity, w_pc = NaN; no gain crossover: pm = Infinity, w_gc = NaN
    nonFinite: ['gm', 'gm_db', 'pm_deg', 'w_pc', 'w_gc'],
    words: {
      // allmargin and python-control's stability_margins (every crossover, sm) are stability_margins'
      calls: [{ names: ['margin', 'margins', 'g_margin', 'p_margin', 'marginplot'], args: ['sys'] }],
      phrases: [
        'margins',
        'margin',
        'gain margin',
        'phase margin',
        'stability margins',
        'crossover frequency',
        'crossover frequencies',
        'gain crossover',
        'phase crossover',
        'phase reserve',
        'gain reserve',
        'amplitude reserve',
        'amplitude margin',
        'stability reserve',
        'phasenreserve',
        'amplitudenreserve',
        'phasenrand',
        'marge de phase',
        'marge de gain',
      ],
      example: '/margins num=[10], den=[1 6 5 0]',
    },
    brief: 'Gain and phase margins with crossover frequencies of a SISO loop (num/den or A, B, C, D).',
    title: 'Gain and phase margins',
    description:
      'Gain margin gm (and gm_db) at the phase crossover w_pc, and phase margin pm_deg at the gain crossover w_gc, of a SISO open loop L given as num/den or (A, B, C, D), continuous or discrete (Ts > 0). Negative feedback is assumed. Exact crossings (root finding). With several crossovers: gm closest to 0 dB, and the pm of smallest magnitude in (-180, 180] (MATLAB rule). No phase crossover: gm = Infinity, w_pc = NaN; no gain crossover: pm = Infinity, w_gc = NaN.',
    parameters: {
      type: 'object',
      properties: { ...tfProps, ...ssProps, ...tsProp },
      required: [],
      additionalProperties: false,
    },
    run(args) {
      const { tf, ss } = readTfOrSs(args, 'margins');
      if (tf) return { ...margins(tf.num, tf.den, tf.Ts) };
      const s = ss!;
      requireSiso(s, 'margins');
      const { num, den, accept, H } = ssLoop(s);
      // crossovers judged on the model's own H (one Hessenberg form, O(n²) per frequency)
      return { ...margins(num, den, s.Ts, accept, H) };
    },
    intro: null,
    render: renderMargins,
    code: GENERATORS.margins,
    model: 'offered',
    plots: sisoPlots('bode', 'nyquist'),
  }),
];
