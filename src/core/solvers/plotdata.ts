/**
 * Data for plots that no other tool gives: the root locus (closed-loop poles of a SISO loop
 * over the gain, with continuous branches, asymptotes and breakaway points) and the Nyquist
 * curve (H on the Nyquist contour, detours around imaginary-axis poles, encirclements of −1).
 * Both work on the loop's polynomials num/den (a state-space loop is converted by ss2tf, no
 * cancellation), so the roots of den + k·num are exactly the eigenvalues of A − kB(1 + kD)⁻¹C;
 * the Nyquist curve of a state-space loop is sampled from (A, B, C, D) itself.
 */
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import { renderNyquist, renderRlocus } from '../render/results.js';
import { systemPlots } from '../plot/specs.js';
import type { Complex, Matrix } from '../types.js';
import { vector } from '../tools/schema.js';
import { polyadd, polyder, polyRoots, polyStrip, polyvalC, conv } from '../linalg/poly.js';
import { cplx, readTfOrSs, scaleGuard, sortComplex, ssProps, tfProps, tsProp, requireSiso } from './_sys.js';
import { ss2tf } from './xferfcn.js';
import { fromRows, zeros } from '../linalg/dense.js';
import { hessenbergSystem, hessShiftSolve } from '../linalg/hessenberg.js';
import { eigvalsSorted } from '../linalg/schur.js';

// ------------------------------------------------------------------ shared

interface Loop {
  num: number[];
  den: number[];
  Ts: number;
  /** a state-space loop: H(s) evaluated from (A, B, C, D) itself (see ssEvaluator) */
  evalH?: (s: Complex) => Complex;
  /** a state-space loop: the closed-loop poles at gain k, eig(A − kB(1 + kD)⁻¹C) */
  rootsAt?: (k: number) => Complex[] | null;
}

/**
 * The closed-loop poles of a state-space loop under u = −k·y as the eigenvalues of
 * A − k·B(1 + kD)⁻¹C, not the roots of den + k·num from ss2tf: for a stiff or large model the
 * polynomial's coefficients carry errors that move its roots far (backward errors of 1e-2 to
 * 17 relative to A in the probe). Null where 1 + kD = 0 (the polynomial then drops degree and
 * its roots are used).
 */
function ssClosedLoopRoots(Ar: Matrix, Br: Matrix, Cr: Matrix, Dr: Matrix): (k: number) => Complex[] | null {
  const d = Dr[0][0];
  const A = fromRows(Ar),
    B = fromRows(Br),
    C = fromRows(Cr);
  const n = A.r,
    m = B.c;
  return (k: number) => {
    const den = 1 + k * d;
    if (!(Math.abs(den) > 1e-12 * Math.max(1, Math.abs(k * d)))) return null;
    const g = k / den;
    const Acl = zeros(n, n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) Acl.d[i * n + j] = A.d[i * n + j] - g * B.d[i * m] * C.d[j];
    return eigvalsSorted(Acl).map(([re, im]) => cplx(re, im));
  };
}

/**
 * H(s) = C(sI − A)⁻¹B + D by a Hessenberg shifted solve, for any complex s. The curve of a
 * state-space loop is sampled this way, not from its ss2tf polynomials: for a stiff model
 * (poles near −500 with a numerator whose leading coefficients cancel) the polynomials lost
 * every digit at high frequency (H = −6e-10 − 1.7e-8j at ω = 7e4 where SciPy and a dense solve
 * give 2.2e-7 − 3.0e-5j). The polynomials still give the poles, zeros and their counts.
 */
function ssEvaluator(A: Matrix, B: Matrix, C: Matrix, D: Matrix): (s: Complex) => Complex {
  const { H, Bt, Ct } = hessenbergSystem(fromRows(A), fromRows(B), fromRows(C));
  const n = Ct.c;
  return ([sr, si]: Complex): Complex => {
    const X = hessShiftSolve(H, sr, si, Bt);
    if (!X) return [Infinity, NaN];
    let a = D[0][0];
    let b = 0;
    // one input: X is n x 1
    for (let l = 0; l < n; l++) {
      a += Ct.d[l] * X.re.d[l];
      b += Ct.d[l] * X.im.d[l];
    }
    return [a, b];
  };
}

function readLoop(args: Record<string, any>, tool: string): Loop {
  const { tf, ss } = readTfOrSs(args, tool);
  let num: number[], den: number[], Ts: number;
  let evalH: Loop['evalH'];
  let rootsAt: Loop['rootsAt'];
  if (tf) ({ num, den, Ts } = tf);
  else {
    const s = ss!;
    requireSiso(s, tool);
    scaleGuard(s, tool);
    if (tool === 'nyquist' && s.n > 0) {
      // Z counts the closed loop's unstable poles, eigenvalues of A − B(1 + D)⁻¹C: with a loop
      // gain of order 1e60 (B and C near 1e30) that matrix has norm 1e60 and its poles near the
      // boundary are placed to ±1e44, so which side they lie on is noise (two eigensolvers
      // counted differently). Refused beyond 2^60 (1e18).
      const mx = (M: Matrix) => Math.max(0, ...M.map((r) => Math.max(0, ...r.map(Math.abs))));
      const g = (mx(s.B) * mx(s.C)) / Math.max(mx(s.A), 1e-300);
      if (g > 2 ** 60)
        throw new ControlError(
          `nyquist: the loop gain is of order ${g.toExponential(0)} (B·C against A), so the closed-loop poles that decide the encirclement count cannot be placed on their side of the stability boundary in double precision; rescale the loop (its input or output units).`,
          'numerical',
        );
    }
    ({ num, den } = ss2tf(s.A, s.B, s.C, s.D));
    Ts = s.Ts;
    if (s.n > 0) {
      evalH = ssEvaluator(s.A, s.B, s.C, s.D);
      rootsAt = ssClosedLoopRoots(s.A, s.B, s.C, s.D);
    }
    // ss2tf's numerator carries rounding in coefficients that are zero in exact arithmetic
    // (a leading 1e-16 would be a zero far out): drop leading ones at rounding level
    const big = Math.max(...num.map(Math.abs), ...den.map((v) => Math.abs(v)));
    let i = 0;
    while (i < num.length - 1 && Math.abs(num[i]) <= 1e3 * Number.EPSILON * big * num.length) i++;
    num = num.slice(i);
  }
  num = polyStrip(num);
  den = polyStrip(den);
  if (num.length === 1 && num[0] === 0) throw new ControlError(`${tool}: the loop is zero (num = 0), so there is nothing to plot.`);
  if (num.length > den.length)
    throw new ControlError(
      `${tool}: the loop is improper (deg num = ${num.length - 1} > deg den = ${den.length - 1}); give a proper loop (deg num <= deg den).`,
    );
  if (den.length === 1) {
    const k = num[0] / den[0];
    throw new ControlError(
      tool === 'nyquist'
        ? `nyquist: the loop is the static gain L = ${k} (no states, den has degree 0): its Nyquist plot is the single point ${k}, the same at every frequency, so there is no curve to draw or encirclement to count. freqresp gives the value and margins its margins.`
        : `${tool}: the loop is the static gain L = ${k} (no states, den has degree 0): the closed loop has no poles at any gain, so there is no locus to plot.`,
    );
  }
  return { num, den, Ts, evalH, rootsAt };
}

const cabs = (z: Complex) => Math.hypot(z[0], z[1]);

function cdiv(a: Complex, b: Complex): Complex {
  const d = b[0] * b[0] + b[1] * b[1];
  return [(a[0] * b[0] + a[1] * b[1]) / d, (a[1] * b[0] - a[0] * b[1]) / d];
}

// ------------------------------------------------------------------ root locus

export interface Breakaway {
  /** the point where branches meet or leave each other */
  s: Complex;
  /** the gain there (real, >= 0) */
  k: number;
}

export interface RootLocus {
  k: number[];
  /** poles[i][j]: branch j at gain k[i] (branches continuous in i) */
  poles: Complex[][];
  open_loop_poles: Complex[];
  open_loop_zeros: Complex[];
  asymptotes: { centroid: number; angles_deg: number[] };
  breakaway: Breakaway[];
}

/** assigns the roots `next` to the branches `prev` by smallest distance (greedy over all pairs) */
function matchBranches(prev: Complex[], next: Complex[]): Complex[] {
  const n = prev.length;
  const pairs: [number, number, number][] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < next.length; j++) pairs.push([cabs([prev[i][0] - next[j][0], prev[i][1] - next[j][1]]), i, j]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: (Complex | undefined)[] = new Array(n).fill(undefined);
  const used = new Set<number>();
  for (const [, i, j] of pairs) {
    if (out[i] !== undefined || used.has(j)) continue;
    out[i] = next[j];
    used.add(j);
  }
  return out.map((z) => z ?? [NaN, NaN]);
}

function maxMove(a: Complex[], b: Complex[]): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, cabs([a[i][0] - b[i][0], a[i][1] - b[i][1]]));
  return m;
}

/** roots of den + k·num (degree deg den unless the leading coefficients cancel) */
function closedLoopRoots(num: number[], den: number[], k: number): Complex[] {
  return polyRoots(polyadd(den, num, k)).map(([r, i]) => cplx(r, i));
}

/**
 * Root locus of the loop num/den under negative feedback u = −k·y: the roots of
 * den(s) + k·num(s) = 0 for k >= 0. Without a k list the gains run from 0 to a k_max where
 * the branches have reached their zeros or ten times the pole/zero radius along the
 * asymptotes, refined (by bisection) until no branch moves more than 1 % of that radius
 * between neighbouring gains; breakaway gains are included exactly.
 */
export function rootLocus(numIn: number[], denIn: number[], kList?: number[], ssRoots?: (k: number) => Complex[] | null): RootLocus {
  const num = polyStrip(numIn);
  const den = polyStrip(denIn);
  const n = den.length - 1;
  const m = num.length - 1;
  const r = n - m;
  const olp = sortComplex(ssRoots?.(0) ?? polyRoots(den).map(([a, b]) => cplx(a, b)));
  const olz = sortComplex(polyRoots(num).map(([a, b]) => cplx(a, b)));
  // asymptotes: sum of poles − sum of zeros over the relative degree (from the coefficients)
  let centroid = NaN;
  const angles: number[] = [];
  if (r > 0) {
    const sp = n >= 1 ? -den[1] / den[0] : 0;
    const sz = m >= 1 ? -num[1] / num[0] : 0;
    centroid = (sp - sz) / r;
    // negative feedback with k > 0: angles (2q + 1)·180/r when num0/den0 > 0, q·360/r otherwise
    const pos = num[0] / den[0] > 0;
    for (let q = 0; q < r; q++) {
      let a = pos ? ((2 * q + 1) * 180) / r : (q * 360) / r;
      if (a > 180) a -= 360;
      angles.push(a);
    }
  }
  // breakaway points: d/ds (−den/num) = 0, i.e. den'·num − den·num' = 0, with a real k >= 0
  const breakaway: Breakaway[] = [];
  const q = polyadd(conv(polyder(den), num), conv(den, polyder(num)), -1);
  // with deg num = deg den the leading coefficient of q is n·den0·num0 − n·den0·num0, zero in
  // exact arithmetic: at rounding level it is a root near infinity (s = −3.6e15 at the gain where
  // den + k·num drops degree), not a breakaway point. Leading coefficients at rounding level go.
  const qBig = Math.max(...q.map(Math.abs));
  let q0 = 0;
  while (q0 < q.length - 1 && Math.abs(q[q0]) <= 1e3 * Number.EPSILON * qBig * q.length) q0++;
  const qs = polyStrip(q.slice(q0));
  if (qs.length > 1 && qs.some((v) => v !== 0)) {
    for (const s of polyRoots(qs)) {
      const nv = polyvalC(num, s[0], s[1]);
      if (cabs(nv) === 0) continue;
      const kz = cdiv(polyvalC(den, s[0], s[1]), nv);
      const k = -kz[0];
      const ki = kz[1];
      if (!Number.isFinite(k) || Math.abs(ki) > 1e-6 * Math.max(Math.abs(k), 1e-12) || k < -1e-9 * Math.max(1, Math.abs(k))) continue;
      const kk = Math.max(k, 0);
      // at a breakaway point the closed-loop polynomial has a multiple root there
      const z: Complex = cplx(s[0], Math.abs(s[1]) <= 1e-9 * Math.max(1, cabs(s)) ? 0 : s[1]);
      if (breakaway.some((b) => cabs([b.s[0] - z[0], b.s[1] - z[1]]) <= 1e-9 * Math.max(1, cabs(z)))) continue;
      breakaway.push({ s: z, k: kk });
    }
  }
  breakaway.sort((a, b) => a.k - b.k || a.s[0] - b.s[0] || a.s[1] - b.s[1]);

  const radius = Math.max(1e-12, ...olp.map(cabs), ...olz.map(cabs));
  const lead = Math.abs(den[0] / num[0]);
  // the gain at which |k num| matches |den| at the pole/zero radius
  const kChar = Math.max(lead * Math.pow(Math.max(radius, 1e-12), r), 1e-300);
  const F = 10;
  let kMax = r > 0 ? kChar * Math.pow(F, r) : kChar * 1e4;
  for (const b of breakaway) kMax = Math.max(kMax, 10 * b.k);
  const view = r > 0 ? radius * F : radius;
  const delta = 0.01 * view;

  const rootsAt = (k: number) => ssRoots?.(k) ?? closedLoopRoots(num, den, k);

  if (kList) {
    if (!kList.length) throw new ControlError('rlocus: k is empty; give gains >= 0, or leave k out for an automatic grid.');
    kList.forEach((k, i) => {
      if (!(k >= 0) || !Number.isFinite(k)) throw new ControlError(`rlocus: k[${i + 1}] = ${k}; gains must be finite and >= 0.`);
    });
    const ks: number[] = [];
    const poles: Complex[][] = [];
    let prev: Complex[] | undefined;
    for (const k of kList) {
      const raw = rootsAt(k);
      if (raw.length !== n)
        throw new ControlError(
          `rlocus: at k = ${k} the closed-loop polynomial den + k·num drops degree (its leading coefficient vanishes); leave that gain out.`,
        );
      const cur = prev ? matchBranches(prev, raw) : sortComplex(raw);
      ks.push(k);
      poles.push(cur);
      prev = cur;
    }
    return { k: ks, poles, open_loop_poles: olp, open_loop_zeros: olz, asymptotes: { centroid, angles_deg: angles }, breakaway };
  }

  // a gain where den + k·num drops degree (deg num = deg den and k = −den0/num0) is left out
  const kDrop = m === n ? -den[0] / num[0] : NaN;
  const ok = (k: number) => !(Number.isFinite(kDrop) && Math.abs(k - kDrop) <= 1e-9 * Math.max(1, kDrop));
  const kMin = kChar * 1e-4;
  const N0 = 80;
  const grid = new Set<number>([0]);
  for (let i = 0; i < N0; i++) grid.add(kMin * Math.pow(kMax / kMin, i / (N0 - 1)));
  for (const b of breakaway) if (b.k > 0 && b.k < kMax) grid.add(b.k);
  const ks0 = [...grid].filter(ok).sort((a, b) => a - b);

  // at most 2,500 gains, fewer for large models (the poles at each gain cost O(n³): 2,528 gains
  // of a 128-state model took 84 s, over the time budget): about 300 from 80 states up
  const MAXPTS = Math.max(300, Math.min(2500, Math.round(2500 * (40 / Math.max(n, 40)) ** 3)));
  const outK: number[] = [0];
  const outP: Complex[][] = [sortComplex(rootsAt(0))];
  const advance = (ka: number, pa: Complex[], kb: number, depth: number): Complex[] => {
    const raw = rootsAt(kb);
    const pb = raw.length === n ? matchBranches(pa, raw) : pa.map(() => [NaN, NaN] as Complex);
    if (depth < 16 && outK.length < MAXPTS && maxMove(pa, pb) > delta && kb - ka > 1e-12 * kb) {
      const km = ka > 0 ? Math.sqrt(ka * kb) : kb / 4;
      if (ok(km)) {
        const pm = advance(ka, pa, km, depth + 1);
        return advance(km, pm, kb, depth + 1);
      }
    }
    outK.push(kb);
    outP.push(pb);
    return pb;
  };
  let pa = outP[0];
  for (let i = 1; i < ks0.length; i++) pa = advance(ks0[i - 1], pa, ks0[i], 0);
  return { k: outK, poles: outP, open_loop_poles: olp, open_loop_zeros: olz, asymptotes: { centroid, angles_deg: angles }, breakaway };
}

// ------------------------------------------------------------------ Nyquist

export interface Detour {
  /** the open-loop pole on the stability boundary */
  pole: Complex;
  /** its frequency in rad/s */
  w: number;
  /** radius of the indentation (in s, or in z for discrete time) */
  radius: number;
  /** H on the indentation, in the order the contour runs */
  H: Complex[];
}

export interface NyquistData {
  w: number[];
  H: Complex[];
  detours: Detour[];
  encirclements: number;
  open_loop_unstable_poles: number;
  closed_loop_unstable_poles: number;
  w_max: number;
}

/**
 * The Nyquist curve of the loop num/den: H(jω) for ω from −w_max to w_max (continuous) or
 * H(e^{jωTs}) for ω in [−π/Ts, π/Ts] (discrete); the negative half is the mirror image
 * H(−jω) = conj H(jω). Poles on the imaginary axis (unit circle) are passed by a small
 * indentation that keeps them on the stable side. `encirclements` is the net number of
 * clockwise encirclements of −1 by H along the whole contour (ω increasing, then the large
 * semicircle in continuous time), counted as the winding number of 1 + H; by the argument
 * principle it equals Z − P (closed-loop minus open-loop poles in the unstable region).
 */
export function nyquistData(
  numIn: number[],
  denIn: number[],
  Ts: number,
  wGiven?: number[],
  evalH?: (s: Complex) => Complex,
  ssRoots?: (k: number) => Complex[] | null,
): NyquistData {
  const num = polyStrip(numIn);
  const den = polyStrip(denIn);
  const disc = Ts > 0;
  const H = evalH ?? ((s: Complex): Complex => cdiv(polyvalC(num, s[0], s[1]), polyvalC(den, s[0], s[1])));
  const onContour = (w: number): Complex => (disc ? [Math.cos(w * Ts), Math.sin(w * Ts)] : [0, w]);
  // a state-space loop: open- and closed-loop poles as eig(A) and eig(A − B(1 + D)⁻¹C), which
  // stay accurate where the ss2tf polynomial's roots do not (a model with entries of 1e30
  // counted the wrong number of unstable poles)
  const poles = ssRoots?.(0) ?? polyRoots(den);
  const zeros = polyRoots(num);
  const clPoles = ssRoots?.(1) ?? polyRoots(polyadd(den, num));
  const bound = (z: Complex) => (disc ? cabs(z) - 1 : z[0]);
  const scale = Math.max(1e-12, ...[...poles, ...zeros].map(cabs));
  // near the boundary relative to the loop's own frequency scale in continuous time (not to
  // 1: poles of 1e-8 were all "on the axis"); the unit circle is its own scale
  const unit = disc ? 1 : Math.max(1e-300, ...[...poles, ...clPoles].map(cabs));
  const onEdge = (z: Complex) => Math.abs(bound(z)) <= 1e-8 * Math.max(unit, cabs(z));
  // boundary poles with frequency >= 0 (their mirror images are handled by symmetry)
  const edgePoles = poles.filter(onEdge);
  const edge: { pole: Complex; w: number }[] = [];
  for (const p of edgePoles) {
    const w = disc ? Math.atan2(p[1], p[0]) / Ts : p[1];
    if (w < -1e-12 * Math.max(1, scale)) continue;
    const wc = Math.abs(w) <= 1e-12 * Math.max(1, scale) ? 0 : w;
    if (edge.some((e) => Math.abs(e.w - wc) <= 1e-9 * Math.max(1, Math.abs(wc)))) continue;
    edge.push({ pole: cplx(p[0], Math.abs(p[1]) <= 1e-14 ? 0 : p[1]), w: wc });
  }
  edge.sort((a, b) => a.w - b.w);
  const P = poles.filter((z) => !onEdge(z) && bound(z) > 0).length;
  const Z = clPoles.filter((z) => bound(z) > 1e-10 * Math.max(unit, cabs(z))).length;

  const wTop = disc ? Math.PI / Ts : Math.max(100 * scale, 2 * Math.max(0, ...clPoles.map(cabs)));
  const wLow = disc ? wTop * 1e-4 : Math.max(scale, 1e-12) * 1e-3;
  // indentation radius: small against the pole's frequency and the gaps between poles
  const eps = disc ? 1e-3 : 1e-3 * Math.max(scale, 1e-9);
  const inGap = (w: number) => edge.some((e) => Math.abs(w - e.w) < eps * (disc ? 1 / Ts : 1));

  // ---- positive half of the axis (or circle), adaptively refined
  let ws: number[];
  if (wGiven) {
    ws = wGiven.slice().sort((a, b) => a - b);
    ws.forEach((w, i) => {
      if (!(w >= 0) || !Number.isFinite(w))
        throw new ControlError(`nyquist: w[${i + 1}] = ${w}; give frequencies >= 0 in rad/s (the negative half is mirrored).`);
    });
    ws = ws.filter((w) => !inGap(w));
  } else {
    const base = new Set<number>();
    if (!inGap(0)) base.add(0);
    const N0 = 200;
    for (let i = 0; i < N0 - 1; i++) base.add(wLow * Math.pow(wTop / wLow, i / (N0 - 1)));
    if (!inGap(wTop)) base.add(wTop);
    const wUnit = disc ? 1 / Ts : 1;
    for (const e of edge) {
      if (e.w - eps * wUnit > 0) base.add(e.w - eps * wUnit);
      base.add(e.w + eps * wUnit);
    }
    // resonances: frequencies of poles and zeros close to the boundary
    for (const z of [...poles, ...zeros]) {
      const wz = disc ? Math.abs(Math.atan2(z[1], z[0])) / Ts : Math.abs(z[1]);
      if (wz > 0 && wz < wTop) for (const f of [0.98, 0.995, 1, 1.005, 1.02]) base.add(wz * f);
    }
    ws = [...base].filter((w) => w <= wTop && !inGap(w)).sort((a, b) => a - b);
    // refine: no step longer than 2 % of |H| (floored) or 3° of phase, except across a detour
    const refined: number[] = [ws[0]];
    const MAXPTS = 4000;
    const split = (a: number, b: number, ha: Complex, hb: Complex, depth: number) => {
      const step = cabs([hb[0] - ha[0], hb[1] - ha[1]]);
      const ref = Math.max(Math.min(cabs(ha), cabs(hb)), 0.02);
      // and near −1 no step longer than 20 % of the distance to it (the winding number stays exact)
      const near = Math.min(cabs([1 + ha[0], ha[1]]), cabs([1 + hb[0], hb[1]]));
      if (depth < 14 && refined.length < MAXPTS && (step > 0.02 * ref || step > 0.2 * near) && b - a > 1e-12 * b) {
        const mid = a > 0 ? Math.sqrt(a * b) : b / 2;
        if (!inGap(mid)) {
          const hm = H(onContour(mid));
          split(a, mid, ha, hm, depth + 1);
          split(mid, b, hm, hb, depth + 1);
          return;
        }
      }
      refined.push(b);
    };
    for (let i = 1; i < ws.length; i++) {
      const a = ws[i - 1],
        b = ws[i];
      if (edge.some((e) => a < e.w && e.w < b) || (edge.some((e) => e.w === 0) && a === 0)) {
        refined.push(b);
        continue;
      }
      split(a, b, H(onContour(a)), H(onContour(b)), 0);
    }
    ws = refined;
  }
  const hPos = ws.map((w) => H(onContour(w)));

  // ---- detours (positive-frequency ones; mirrored below)
  const detourPts = (e: { pole: Complex; w: number }, half: 'full' | 'upper'): Complex[] => {
    // continuous: s = jw0 + eps·e^{jφ}, φ from −90° to 90° (to the right of the pole);
    // discrete: z = p + eps·e^{jφ}, φ from θ0 − 90° to θ0 + 90° (outside the unit circle)
    const th0 = disc ? e.w * Ts : 0;
    const c: Complex = disc ? [Math.cos(th0), Math.sin(th0)] : [0, e.w];
    const pts: Complex[] = [];
    const K = 48;
    const start = half === 'upper' ? 0 : -Math.PI / 2;
    for (let i = 0; i <= K; i++) {
      const phi = th0 + start + ((Math.PI / 2 - start) * i) / K;
      pts.push(H([c[0] + eps * Math.cos(phi), c[1] + eps * Math.sin(phi)]));
    }
    return pts;
  };
  const detours: Detour[] = [];
  for (const e of edge) {
    const r = eps;
    const full = detourPts(e, 'full');
    detours.push({ pole: e.pole, w: e.w, radius: r, H: full });
    if (e.w > 0 && !(disc && Math.abs(e.w * Ts - Math.PI) < 1e-9))
      detours.push({
        pole: [e.pole[0], -e.pole[1]],
        w: -e.w,
        radius: r,
        H: full
          .slice()
          .reverse()
          .map(([a, b]) => [a, -b] as Complex),
      });
  }
  detours.sort((a, b) => a.w - b.w);

  // ---- full contour: mirror the positive half
  const w: number[] = [];
  const Hs: Complex[] = [];
  for (let i = ws.length - 1; i >= 0; i--) {
    if (ws[i] === 0) continue;
    w.push(-ws[i]);
    Hs.push([hPos[i][0], -hPos[i][1]]);
  }
  for (let i = 0; i < ws.length; i++) {
    w.push(ws[i]);
    Hs.push(hPos[i]);
  }

  // ---- winding number of 1 + H along the closed contour
  let encirclements = NaN;
  if (!wGiven) {
    const seq: Complex[] = [];
    let di = 0;
    for (let i = 0; i < w.length; i++) {
      while (di < detours.length && detours[di].w < w[i]) seq.push(...detours[di++].H);
      seq.push(Hs[i]);
    }
    while (di < detours.length) seq.push(...detours[di++].H);
    if (!disc) {
      // the large semicircle, from +j·wTop clockwise through the right half plane to −j·wTop
      const K = 64;
      for (let i = 1; i < K; i++) {
        const phi = Math.PI / 2 - (Math.PI * i) / K;
        seq.push(H([wTop * Math.cos(phi), wTop * Math.sin(phi)]));
      }
    }
    seq.push(seq[0]);
    let total = 0;
    let reliable = true;
    for (let i = 1; i < seq.length; i++) {
      const a: Complex = [1 + seq[i - 1][0], seq[i - 1][1]];
      const b: Complex = [1 + seq[i][0], seq[i][1]];
      if (!(cabs(a) > 0) || !(cabs(b) > 0) || !Number.isFinite(cabs(a)) || !Number.isFinite(cabs(b))) {
        reliable = false;
        continue;
      }
      let d = Math.atan2(b[1], b[0]) - Math.atan2(a[1], a[0]);
      if (d > Math.PI) d -= 2 * Math.PI;
      if (d < -Math.PI) d += 2 * Math.PI;
      if (Math.abs(d) > (2 * Math.PI) / 3) reliable = false;
      total += d;
    }
    const cw = -total / (2 * Math.PI);
    const rounded = Math.round(cw);
    // a curve through −1 (a closed-loop pole on the boundary) has no winding number
    encirclements = reliable && Math.abs(cw - rounded) < 0.1 ? rounded : NaN;
  }
  return {
    w,
    H: Hs,
    detours,
    encirclements: encirclements === 0 ? 0 : encirclements,
    open_loop_unstable_poles: P,
    closed_loop_unstable_poles: Z,
    w_max: ws[ws.length - 1],
  };
}

// ------------------------------------------------------------------ tools

export const tools = [
  tool({
    name: 'rlocus',
    // a loop of relative degree 0 has no asymptotes: centroid NaN, angles_deg []
    nonFinite: ['asymptotes'],
    words: {
      calls: [
        { names: ['rlocus', 'root_locus', 'rlocusplot', 'root_locus_plot', 'evans', 'rlocusplot'], args: ['sys', 'k'], keywords: { gains: 'k', kvect: 'k' } },
      ],
      phrases: ['root locus', 'rlocus', 'root-locus'],
      example: '/rlocus num=[1], den=[1 3 2 0]',
    },
    brief: 'Root locus of a SISO loop (num/den or A, B, C, D): closed-loop poles over the gain k >= 0, asymptotes, breakaway points.',
    title: 'Root locus',
    description:
      "Root locus of a SISO open loop L given as num/den or (A, B, C, D), under negative feedback u = -k·y: the closed-loop poles are the roots of den(s) + k·num(s) = 0 (for A, B, C, D: eig(A - k·B(1 + kD)^-1·C)). Returns k (gains, ascending from 0) and poles[i] (the n closed-loop poles at k[i] as [re, im]; poles[i][j] is branch j, kept continuous by matching nearest roots), open_loop_poles, open_loop_zeros, asymptotes {centroid = (sum of poles - sum of zeros)/(n - m), angles_deg = (2q+1)·180/(n - m)} and breakaway points {s, k} where dk/ds = 0 (den'·num - den·num' = 0) with a real k >= 0. Without k, the gains run from 0 to a k_max where the branches are near their zeros or 10 times the pole/zero radius out along the asymptotes, refined until no branch moves more than 1 % of that radius between neighbouring gains (at most 2,500 gains, about 300 for models of 80 states and more). Ts > 0 only marks the plane as z.",
    parameters: {
      type: 'object',
      properties: { ...tfProps, ...ssProps, k: vector('gains k >= 0 to evaluate (optional; default: an adaptive grid from 0)'), ...tsProp },
      required: [],
      additionalProperties: false,
    },
    run(args) {
      const loop = readLoop(args, 'rlocus');
      const out = rootLocus(loop.num, loop.den, Array.isArray(args.k) ? (args.k as number[]) : undefined, loop.rootsAt);
      return { ...out };
    },
    intro: null,
    render: renderRlocus,
    code: { none: 'not written yet: MATLAB rlocus(sys) and python-control ct.root_locus_map(sys) compute the same branches' },
    model: BY_LOOKUP,
    plots: systemPlots('rlocus'),
  }),
  tool({
    name: 'nyquist',
    // NaN when w is given (only samples) or when the curve passes through −1
    nonFinite: ['encirclements'],
    words: {
      calls: [{ names: ['nyquist', 'nyquist_plot', 'nyquist_response', 'nyquistplot'], args: ['sys', 'w'], keywords: { omega: 'w', w: 'w' } }],
      phrases: ['nyquist', 'nyquist plot', 'nyquist diagram', 'nyquist curve'],
      example: '/nyquist num=[1], den=[1 3 2 0]',
    },
    brief: 'Nyquist curve of a SISO loop (num/den or A, B, C, D) with encirclements of -1 and detours around imaginary-axis poles.',
    title: 'Nyquist curve',
    description:
      'Nyquist curve of a SISO open loop L (num/den or A, B, C, D; discrete when Ts > 0): H = L(jw) for w from -w_max to w_max (discrete: L(e^{jwTs}), |w| <= pi/Ts), with the negative-frequency half the mirror image conj L(j|w|); w ascending in rad/s, H as [re, im]. The default grid is adaptive (log-spaced from 1e-3 of the smallest pole/zero magnitude to 100 times the largest, refined until neighbouring points differ by < 2 % of |H| and < 20 % of their distance to -1). Poles on the imaginary axis (unit circle) are passed on a small semicircle of the given radius to the right (outside), listed in detours {pole, w, radius, H}. encirclements = net clockwise encirclements of -1 along the whole contour (winding number of 1 + L, negative feedback); open_loop_unstable_poles P (right half plane / outside the unit circle, boundary poles excluded) and closed_loop_unstable_poles Z (roots of den + num); Nyquist: Z = encirclements + P, stable closed loop iff Z = 0. With a given w (>= 0) only the samples are returned (encirclements = NaN); encirclements is NaN too when the curve passes through -1.',
    parameters: {
      type: 'object',
      properties: { ...tfProps, ...ssProps, w: vector('frequencies in rad/s (>= 0, optional; default: an adaptive grid)'), ...tsProp },
      required: [],
      additionalProperties: false,
    },
    run(args) {
      const loop = readLoop(args, 'nyquist');
      return { ...nyquistData(loop.num, loop.den, loop.Ts, Array.isArray(args.w) ? (args.w as number[]) : undefined, loop.evalH, loop.rootsAt) };
    },
    intro: null,
    render: renderNyquist,
    code: { none: 'not written yet: MATLAB nyquist(sys) and python-control ct.nyquist_response(sys) compute the same curve and count' },
    model: BY_LOOKUP,
    plots: systemPlots('nyquist'),
  }),
];
