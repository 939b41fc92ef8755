/**
 * Independent checks of bandwidth, sigma and stability_margins (solvers/freqanalysis.ts). The
 * solvers find roots and minima of polynomial forms and polish them on a Hessenberg-form
 * response; the checks here evaluate the model afresh (num/den by Horner in evalTF, A, B, C, D
 * by a dense complex solve in evalSS), on grids of their own:
 * - bandwidth: |G(jω_B)| equals |G(0)|·10^(dbdrop/20), and |G| stays above that level at every
 *   point of a refined grid below ω_B (or everywhere, when the answer is Infinity);
 * - sigma: the singular values at sampled frequencies as square roots of the eigenvalues of
 *   GᴴG (the verifier's own eigensolver on its real symmetric form), where the solver took an
 *   SVD; the peak attained at w_peak and not exceeded on a grid of the verifier's;
 * - stability_margins: each crossover is one (|L| = 1, or L real negative) with its margin;
 *   every crossing the verifier's grid brackets is listed; |1 + L| at w_sm equals sm and is
 *   nowhere smaller on the grid; the disk ratio 2|1 + L|/|1 − L| likewise for the disk
 *   margin; the closed-loop stability by the verifier's eigensolver.
 */
import type { Complex, Matrix } from '../types.js';
import type { Check } from './index.js';
import { evalSS, evalTF, isDiscrete } from './systems.js';
import { check, safeEigenvalues, strip } from './numeric.js';

type C = Complex;
type R = Record<string, any>;

const cabs = ([a, b]: C) => Math.hypot(a, b);

const isTf = (a: R) => Array.isArray(a.num) && Array.isArray(a.den);

/** the point of the frequency ω: jω, or e^{jωTs} */
const pointOf = (a: R, w: number): C => (isDiscrete(a) ? [Math.cos(w * a.Ts), Math.sin(w * a.Ts)] : [0, w]);

/** the full gain matrix at ω (entries [re, im], p x m) */
function gainAt(a: R, w: number): C[][] {
  const s = pointOf(a, w);
  if (isTf(a)) return [[evalTF(strip(a.num), strip(a.den), s)]];
  const A = a.A as Matrix;
  const D = (Array.isArray(a.D) && a.D.length ? a.D : (a.C as Matrix).map(() => (a.B as Matrix)[0].map(() => 0))) as Matrix;
  if (!A.length) return D.map((r) => r.map((v) => [v, 0] as C));
  const h = evalSS(A, a.B, a.C, D, s);
  const re = h.re.to2DArray();
  const im = h.im.to2DArray();
  return re.map((r, i) => r.map((v, j) => [v, im[i][j]] as C));
}

const siso = (a: R, w: number): C => gainAt(a, w)[0][0];

/** the poles' frequencies (the verifier's eigensolver on A or the companion of den) */
function poleScales(a: R): number[] {
  let ev: C[];
  if (isTf(a)) {
    const d = strip(a.den);
    const n = d.length - 1;
    const comp: Matrix = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === 0 ? -d[j + 1] / d[0] : i === j + 1 ? 1 : 0)));
    const z = strip(a.num);
    const m = z.length - 1;
    const compz: Matrix = Array.from({ length: m }, (_, i) => Array.from({ length: m }, (_, j) => (i === 0 ? -z[j + 1] / z[0] : i === j + 1 ? 1 : 0)));
    ev = [...(n ? safeEigenvalues(comp) : []), ...(m ? safeEigenvalues(compz) : [])];
  } else ev = (a.A as Matrix).length ? safeEigenvalues(a.A) : [];
  if (isDiscrete(a)) ev = ev.map((z) => [Math.log(Math.max(cabs(z), 1e-300)) / a.Ts, Math.atan2(z[1], z[0]) / a.Ts] as C);
  return ev.map(cabs).filter((v) => v > 0 && Number.isFinite(v));
}

/** the verifier's grid: 6000 points, log-spaced 5 decades beyond the poles and zeros, or uniform up to π/Ts */
function grid(a: R, N = 6000): number[] {
  if (isDiscrete(a)) return Array.from({ length: N }, (_, k) => (Math.PI / a.Ts) * ((k + 0.5) / N));
  const m = poleScales(a);
  const lo = Math.log10(m.length ? Math.min(...m) : 1) - 5;
  const hi = Math.log10(m.length ? Math.max(...m) : 1) + 5;
  return Array.from({ length: N }, (_, k) => 10 ** (lo + ((hi - lo) * k) / (N - 1)));
}

/** L(∞) of a continuous SISO model (D, or the leading-coefficient ratio) */
function atInfinity(a: R): number {
  if (isTf(a)) {
    const n = strip(a.num),
      d = strip(a.den);
    return n.length < d.length ? 0 : n.length === d.length ? n[0] / d[0] : Infinity;
  }
  return (a.D?.[0]?.[0] as number | undefined) ?? 0;
}

// ------------------------------------------------------------------ bandwidth

export function bandwidthChecks(a: R, r: R): Check[] {
  const checks: Check[] = [];
  const g0 = siso(a, 0);
  if (Number.isFinite(g0[0]))
    checks.push(check('DC gain', Math.abs(cabs(g0) - Math.abs(r.dcgain)) / Math.max(cabs(g0), 1e-300), 1e-8, '|G(0)| by a fresh evaluation'));
  const level = Math.abs(r.dcgain) * 10 ** (r.dbdrop / 20);
  checks.push(check('level', Math.abs(level - r.level) / Math.max(level, 1e-300), 1e-12, 'level = |G(0)|·10^(dbdrop/20)'));
  const g = grid(a);
  if (Number.isFinite(r.bandwidth)) {
    const at = cabs(siso(a, r.bandwidth));
    checks.push(check('bandwidth', Math.abs(at - level) / Math.max(level, 1e-300), 1e-7, '|G(jω_B)| equals the level'));
    // refined below ω_B: the grid's points below it and 2000 more between ω_B·1e-6 and ω_B
    const below = [...g.filter((w) => w < r.bandwidth), ...Array.from({ length: 2000 }, (_, k) => r.bandwidth * 10 ** (-6 + (6 * k) / 2000))];
    let worst = Infinity;
    for (const w of below) worst = Math.min(worst, cabs(siso(a, w)) / level);
    checks.push(check('first drop', Math.max(0, 1 - worst), 1e-7, `|G| stays at or above the level at ${below.length} frequencies below ω_B`));
  } else {
    const wEnd = isDiscrete(a) ? Math.PI / a.Ts : Infinity;
    const pts = [...g, ...(Number.isFinite(wEnd) ? [wEnd] : [])];
    let worst = Infinity;
    for (const w of pts) worst = Math.min(worst, cabs(siso(a, w)) / level);
    if (!Number.isFinite(wEnd)) worst = Math.min(worst, Math.abs(atInfinity(a)) / level);
    if (r.dcgain === 0) worst = 1;
    checks.push(
      check(
        'never drops',
        Math.max(0, 1 - worst),
        1e-9,
        `|G| stays at or above the level at ${pts.length} frequencies${Number.isFinite(wEnd) ? ' up to π/Ts' : ' and as ω → ∞'}`,
      ),
    );
  }
  return checks;
}

// ------------------------------------------------------------------ sigma

/** singular values of a complex matrix as square roots of the eigenvalues of GᴴG (real symmetric 2m x 2m form) */
export function hermitianSingularValues(G: C[][]): number[] {
  const p = G.length;
  const m = G[0].length;
  const Hm: Matrix = Array.from({ length: 2 * m }, () => new Array(2 * m).fill(0));
  let big = 0;
  for (const r of G) for (const z of r) big = Math.max(big, cabs(z));
  if (!Number.isFinite(big)) return new Array(Math.min(p, m)).fill(Infinity);
  const sc = big > 0 ? 1 / big : 1;
  for (let x = 0; x < m; x++)
    for (let y = 0; y < m; y++) {
      let sr = 0,
        si = 0;
      for (let i = 0; i < p; i++) {
        const [ar, ai] = G[i][x];
        const [br, bi] = G[i][y];
        sr += sc * sc * (ar * br + ai * bi);
        si += sc * sc * (ar * bi - ai * br);
      }
      Hm[x][y] = sr;
      Hm[m + x][m + y] = sr;
      Hm[m + x][y] = si;
      Hm[x][m + y] = -si;
    }
  const ev = safeEigenvalues(Hm)
    .map(([re]) => Math.sqrt(Math.max(0, re)) / sc)
    .sort((u, v) => v - u);
  return Array.from({ length: Math.min(p, m) }, (_, k) => ev[2 * k]);
}

export function sigmaChecks(a: R, r: R): Check[] {
  const checks: Check[] = [];
  const w = r.w as number[];
  const sv = r.sv as number[][];
  const idx = w.length <= 12 ? w.map((_, i) => i) : Array.from({ length: 12 }, (_, i) => Math.round((i * (w.length - 1)) / 11));
  let err = 0;
  let order = true;
  for (const i of idx) {
    const ref = hermitianSingularValues(gainAt(a, w[i]));
    const got = sv[i];
    if (got.length !== ref.length) err = Infinity;
    const top = Math.max(ref[0] ?? 0, 1e-300);
    if (!Number.isFinite(top)) continue;
    ref.forEach((v, k) => (err = Math.max(err, Math.abs(v - got[k]) / top)));
  }
  for (const row of sv) for (let k = 1; k < row.length; k++) if (row[k] > row[k - 1]) order = false;
  // GᴴG squares the condition: small singular values agree to ε·σ1²/σ, so the comparison is relative to σ1
  checks.push(check('singular values', err, 1e-7, `at ${idx.length} frequencies, as square roots of the eigenvalues of GᴴG (independent eigensolver)`));
  checks.push({ name: 'order', ok: order, detail: order ? 'each row descending' : 'a row is not descending' });
  if (Number.isFinite(r.peak)) {
    // ω → ∞: G → D (a transfer function: the ratio of leading coefficients)
    const dInf = () => (isTf(a) ? Math.abs(atInfinity(a)) : hermitianSingularValues((a.D as Matrix).map((row) => row.map((v) => [v, 0] as C)))[0]);
    const at = r.w_peak === Infinity ? dInf() : hermitianSingularValues(gainAt(a, r.w_peak))[0];
    checks.push(check('peak attained', Math.abs(at - r.peak) / Math.max(r.peak, 1e-300), 1e-6, 'σ_max(G) at w_peak equals the peak'));
    let most = 0;
    for (const x of [...grid(a, 3000), ...w]) most = Math.max(most, hermitianSingularValues(gainAt(a, x))[0]);
    checks.push(check('peak not exceeded', Math.max(0, most / r.peak - 1), 1e-6, 'no larger σ_max on a grid of 3000 frequencies and the returned ones'));
  } else {
    // an infinite peak needs a pole on the boundary at w_peak
    const s = pointOf(a, r.w_peak);
    const ev = isTf(a) ? [] : safeEigenvalues(a.A);
    const hit = isTf(a)
      ? !Number.isFinite(cabs(siso(a, r.w_peak))) || cabs(siso(a, r.w_peak)) > 1e12
      : ev.some((z) => Math.hypot(z[0] - s[0], z[1] - s[1]) <= 1e-6 * Math.max(1, cabs(z)));
    checks.push({
      name: 'pole on the boundary',
      ok: hit,
      detail: hit ? `a pole at ${isDiscrete(a) ? 'e^{jω·Ts}' : 'jω'} with ω = w_peak (independent eigensolver)` : 'no pole on the boundary at w_peak',
    });
  }
  return checks;
}

// ------------------------------------------------------------------ stability margins

export function stabilityMarginChecks(a: R, r: R): Check[] {
  const checks: Check[] = [];
  const L = (w: number) => siso(a, w);
  const wEnd = isDiscrete(a) ? Math.PI / a.Ts : Infinity;
  // each crossover is one
  let gcErr = 0;
  (r.w_gc_all as number[]).forEach((w, i) => {
    const h = L(w);
    let pm = 180 + (Math.atan2(h[1], h[0]) * 180) / Math.PI;
    if (pm > 180) pm -= 360;
    const dm = ((((pm % 360) + 360) % 360) * Math.PI) / 180 / w;
    gcErr = Math.max(gcErr, Math.abs(cabs(h) - 1), Math.abs(pm - r.pm_all[i]) / 180, Math.abs(dm - r.dm_all[i]) / Math.max(Math.abs(dm), 1e-300));
  });
  let pcErr = 0;
  (r.w_pc_all as number[]).forEach((w, i) => {
    const h = L(w);
    pcErr = Math.max(
      pcErr,
      Math.abs(h[1]) / Math.max(cabs(h), 1e-300) + (h[0] < 0 ? 0 : 1),
      Math.abs(1 / cabs(h) - r.gm_all[i]) / Math.max(r.gm_all[i], 1e-300),
    );
  });
  checks.push(check('gain crossovers', gcErr, 1e-7, `${r.w_gc_all.length} with |L| = 1, pm = 180° + ∠L, delay margin = pm/ω`));
  checks.push(check('phase crossovers', pcErr, 1e-7, `${r.w_pc_all.length} with L real and negative, gm = 1/|L|`));
  // none missing: each sign change on the verifier's grid holds a listed crossover
  const g = grid(a).filter((w) => w < wEnd);
  const vals = g.map((w) => L(w));
  let missing = 0;
  for (let k = 1; k < g.length; k++) {
    const [u, v] = [vals[k - 1], vals[k]];
    if (![u, v].every((z) => Number.isFinite(z[0]) && Number.isFinite(z[1]))) continue;
    const has = (list: number[]) => list.some((w) => w >= g[k - 1] * (1 - 1e-9) && w <= g[k] * (1 + 1e-9));
    const mu = cabs(u) - 1,
      mv = cabs(v) - 1;
    if (mu * mv < 0 && Math.min(Math.abs(mu), Math.abs(mv)) > 1e-9 && !has(r.w_gc_all)) missing++;
    if (
      u[1] * v[1] < 0 &&
      u[0] < 0 &&
      v[0] < 0 &&
      Math.min(Math.abs(u[1]), Math.abs(v[1])) > 1e-9 * Math.max(cabs(u), cabs(v)) &&
      w0ok(g[k - 1], a.epsw) &&
      !has(r.w_pc_all)
    )
      missing++;
  }
  checks.push({
    name: 'every crossover',
    ok: missing === 0,
    value: missing,
    detail: missing
      ? `${missing} crossing(s) on a grid of ${g.length} frequencies not listed`
      : `every crossing bracketed on a grid of ${g.length} frequencies is listed`,
  });
  // closed-loop stability by the verifier's eigensolver
  let poles: C[];
  if (isTf(a)) {
    const n = strip(a.num),
      d = strip(a.den);
    const len = Math.max(n.length, d.length);
    const cl = strip(Array.from({ length: len }, (_, i) => (d[i - (len - d.length)] ?? 0) + (n[i - (len - n.length)] ?? 0)));
    const deg = cl.length - 1;
    poles =
      deg > 0
        ? safeEigenvalues(Array.from({ length: deg }, (_, i) => Array.from({ length: deg }, (_, j) => (i === 0 ? -cl[j + 1] / cl[0] : i === j + 1 ? 1 : 0))))
        : [];
  } else {
    const A = a.A as Matrix;
    const k = 1 + (a.D?.[0]?.[0] ?? 0);
    poles = A.length ? safeEigenvalues(A.map((row, i) => row.map((v, j) => v - (a.B[i][0] * a.C[0][j]) / k))) : [];
  }
  const stable = isDiscrete(a) ? poles.every((z) => cabs(z) < 1 - 1e-9) : poles.every(([re]) => re < -1e-9 * Math.max(1, ...poles.map(cabs)));
  const marginal = isDiscrete(a)
    ? poles.some((z) => Math.abs(cabs(z) - 1) <= 1e-9)
    : poles.some(([re]) => Math.abs(re) <= 1e-9 * Math.max(1, ...poles.map(cabs)));
  checks.push({
    name: 'closed-loop stability',
    ok: marginal ? true : stable === r.stable,
    detail: marginal
      ? 'a closed-loop pole on the stability boundary (either verdict holds to rounding)'
      : `feedback(L, 1) is ${stable ? 'stable' : 'unstable'} by the independent eigensolver`,
  });
  // stability margin and disk margin: attained where said, nowhere smaller on the grid
  const inf = atInfinity(a);
  const one = (w: number) => (w === Infinity ? Math.abs(1 + inf) : cabs([1 + L(w)[0], L(w)[1]]));
  // relative to 1 + the size of L there: sm = 0 (the Nyquist curve through −1: L(0) = −1 for 1/(s − 1)) is exact, not 0/0
  const scaleSm = Math.max(r.sm, 1e-300) + 1e-12;
  checks.push(check('stability margin', Math.abs(one(r.w_sm) - r.sm) / scaleSm, 1e-8, '|1 + L| at w_sm equals sm'));
  let least = Infinity;
  for (const w of [0, ...g, ...(Number.isFinite(wEnd) ? [wEnd] : [])]) least = Math.min(least, one(w));
  checks.push(check('smallest distance', Math.max(0, r.sm - least) / scaleSm, 1e-8, `no smaller |1 + L| on a grid of ${g.length + 1} frequencies`));
  const ratio = (w: number) => {
    if (w === Infinity) return inf === 1 ? Infinity : (2 * Math.abs(1 + inf)) / Math.abs(1 - inf);
    const h = L(w);
    if (!Number.isFinite(h[0])) return 2;
    return (2 * cabs([1 + h[0], h[1]])) / cabs([1 - h[0], h[1]]);
  };
  if (r.stable && Number.isFinite(r.disk_margin)) {
    checks.push(check('disk margin', Math.abs(ratio(r.w_dm) - r.disk_margin) / Math.max(r.disk_margin, 1e-300), 1e-8, '2|1 + L|/|1 − L| at w_dm equals α'));
    let lo = Infinity;
    for (const w of [0, ...g, ...(Number.isFinite(wEnd) ? [wEnd] : [])]) lo = Math.min(lo, ratio(w));
    checks.push(check('disk margin minimal', Math.max(0, 1 - lo / r.disk_margin), 1e-8, 'no smaller 2|1 + L|/|1 − L| = 1/|(S − T)/2| on the grid'));
    const al = r.disk_margin as number;
    const gm = al >= 2 - 2e-12 ? [0, Infinity] : [(1 - al / 2) / (1 + al / 2), (1 + al / 2) / (1 - al / 2)];
    // 2·atan(α/2) for every α (past 90° when α > 2: the disk is then the outside of a circle)
    const pm = (2 * Math.atan(al / 2) * 180) / Math.PI;
    const e = Math.max(
      Math.abs(gm[0] - r.disk_gm[0]),
      gm[1] === Infinity ? (r.disk_gm[1] === Infinity ? 0 : 1) : Math.abs(gm[1] - r.disk_gm[1]) / gm[1],
      Math.abs(pm - r.disk_pm_deg) / 90,
    );
    checks.push(check('disk', e, 1e-12, 'gain range (1 ∓ α/2)/(1 ± α/2) and phase 2·atan(α/2)'));
  } else if (!r.stable) checks.push({ name: 'disk margin', ok: r.disk_margin === 0, detail: 'an unstable closed loop has disk margin 0' });
  return checks;
}

function w0ok(w: number, epsw: unknown): boolean {
  return typeof epsw === 'number' ? w >= epsw : true;
}
