/**
 * Independent checks of diskmargin (solvers/diskmargin.ts). The solver realises S = (I + L)⁻¹
 * as a state-space model and evaluates it on a Hessenberg form; here L(jω) is evaluated afresh
 * (evalSS's dense complex solve, or num/den by Horner) and I + L inverted by complexSolve:
 * - closed-loop stability by the verifier's eigensolver on A − B(I + D)⁻¹C;
 * - loop at a time: the broken-loop transfer Lᵢ = Lᵢᵢ − Lᵢⱼ(I + Lⱼⱼ)⁻¹Lⱼᵢ formed at each
 *   frequency, its SISO disk ratio 1/|1/(1 + Lᵢ) + (σ − 1)/2| equal to the margin at dm_w and
 *   nowhere smaller on a grid of the verifier's;
 * - multiloop, guaranteed bound: σ̄(D·M·D⁻¹) (square roots of the eigenvalues of GᴴG) with the
 *   returned D equals μ_upper at w_mm, and 1/mm_w at sampled frequencies of the solver's grid;
 *   two lower bounds of μ that need no optimisation, ρ(M) (Δ = δI) and max |Mᵢᵢ| (one channel),
 *   nowhere exceed μ_upper on the verifier's grid (a missed peak would);
 * - multiloop, attained bound: the returned perturbation (|δᵢ| = mm_upper) makes I + L·diag(fᵢ)
 *   singular at w_worst (a closed-loop pole on the boundary), fᵢ = (1 + (1 − σ)/2·δᵢ)/(1 − (1 + σ)/2·δᵢ);
 * - the gain ranges and phases from the disk's closed form.
 */
import { Matrix as MM, solve } from 'ml-matrix';
import type { Complex, Matrix } from '../types.js';
import type { Check } from './index.js';
import { evalSS, evalTF, isDiscrete } from './systems.js';
import { check, complexSolve, polyFromRoots, safeEigenvalues, safeSingularValues, sci, strip } from './numeric.js';
import { hermitianSingularValues } from './freqanalysis.js';

type C = Complex;
type R = Record<string, any>;

const cabs = ([a, b]: C) => Math.hypot(a, b);
const isTf = (a: R) => Array.isArray(a.num) && Array.isArray(a.den);

/** L at ω (N x N complex entries); ω = ∞ gives D (or the leading-coefficient ratio) */
function loopAt(a: R, w: number): C[][] {
  if (isTf(a)) {
    const n = strip(a.num),
      d = strip(a.den);
    if (w === Infinity) return [[[n.length < d.length ? 0 : n[0] / d[0], 0]]];
    const s: C = isDiscrete(a) ? [Math.cos(w * a.Ts), Math.sin(w * a.Ts)] : [0, w];
    return [[evalTF(n, d, s)]];
  }
  const A = a.A as Matrix;
  const N = (a.B as Matrix)[0]?.length ?? (a.D as Matrix)[0].length;
  const D = (Array.isArray(a.D) && a.D.length ? a.D : (a.C as Matrix).map(() => new Array(N).fill(0))) as Matrix;
  if (w === Infinity || !A.length) return D.map((r) => r.map((v) => [v, 0] as C));
  const at = (x: number) => evalSS(A, a.B, a.C, D, isDiscrete(a) ? [Math.cos(x * a.Ts), Math.sin(x * a.Ts)] : [0, x]);
  let h: ReturnType<typeof evalSS>;
  try {
    h = at(w);
  } catch {
    // a pole of L on the axis exactly at ω (M = (I + L)⁻¹ is continuous there): just beside it
    h = at(w === 0 ? 1e-9 : w * (1 + 1e-9));
  }
  const re = h.re.to2DArray(),
    im = h.im.to2DArray();
  return re.map((r, i) => r.map((v, j) => [v, im[i][j]] as C));
}

/** X⁻¹·Y for complex square X (complexSolve, partial pivoting) */
function csolve(X: C[][], Y: C[][]): C[][] {
  const n = X.length,
    m = Y[0].length;
  const Mr = new Float64Array(n * n),
    Mi = new Float64Array(n * n),
    Br = new Float64Array(n * m),
    Bi = new Float64Array(n * m);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) [Mr[i * n + j], Mi[i * n + j]] = X[i][j];
    for (let j = 0; j < m; j++) [Br[i * m + j], Bi[i * m + j]] = Y[i][j];
  }
  complexSolve(Mr, Mi, n, Br, Bi, m);
  return Array.from({ length: n }, (_, i) => Array.from({ length: m }, (_, j) => [Br[i * m + j], Bi[i * m + j]] as C));
}

const eye = (n: number): C[][] => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => [i === j ? 1 : 0, 0] as C));

/**
 * S = (I + L)⁻¹ at ω. Where L itself is finite: inverted here. At a pole of L on the axis (an
 * integrator at ω = 0) S is finite but I + L is not: S from its own realisation (A − B(I + D)⁻¹C,
 * B(I + D)⁻¹, −(I + D)⁻¹C, (I + D)⁻¹), or den/(den + num) for a transfer function.
 */
function sensitivityAt(a: R, w: number): C[][] {
  const s: C = w === Infinity ? [Infinity, 0] : isDiscrete(a) ? [Math.cos(w * a.Ts), Math.sin(w * a.Ts)] : [0, w];
  if (isTf(a) && w !== Infinity) {
    const n = strip(a.num),
      d = strip(a.den);
    const len = Math.max(n.length, d.length);
    const sum = Array.from({ length: len }, (_, i) => (d[i - (len - d.length)] ?? 0) + (n[i - (len - n.length)] ?? 0));
    return [[evalTF(d, strip(sum), s)]];
  }
  const A = isTf(a) ? [] : (a.A as Matrix);
  if (!A.length || w === Infinity) {
    const L = loopAt(a, w);
    return csolve(
      L.map((r, i) => r.map(([x, y], j) => [x + (i === j ? 1 : 0), y] as C)),
      eye(L.length),
    );
  }
  const N = (a.B as Matrix)[0].length;
  const D = (Array.isArray(a.D) && a.D.length ? a.D : (a.C as Matrix).map(() => new Array(N).fill(0))) as Matrix;
  const E = new MM(D).add(MM.eye(N));
  const Ei = solve(E, MM.eye(N));
  const B = new MM(a.B as Matrix);
  const Cm = new MM(a.C as Matrix);
  const As = new MM(A).sub(B.mmul(Ei).mmul(Cm)).to2DArray();
  const Cs = Ei.mmul(Cm).mul(-1).to2DArray(); // mmul returns a new matrix, which mul then negates in place
  const h = evalSS(As, B.mmul(Ei).to2DArray(), Cs, Ei.to2DArray(), s);
  const re = h.re.to2DArray(),
    im = h.im.to2DArray();
  return re.map((r, i) => r.map((v, j) => [v, im[i][j]] as C));
}

/** M = (I + L)⁻¹ + (σ − 1)/2·I at ω */
function mAt(a: R, w: number, sigma: number): C[][] {
  const S = sensitivityAt(a, w);
  return S.map((r, i) => r.map(([x, y], j) => [x + (i === j ? (sigma - 1) / 2 : 0), y] as C));
}

/** the loop of channel i broken, the others closed: Lᵢᵢ − Lᵢⱼ(I + Lⱼⱼ)⁻¹Lⱼᵢ */
function brokenLoop(L: C[][], i: number): C {
  const J = L.map((_, k) => k).filter((k) => k !== i);
  if (!J.length) return L[i][i];
  const X = J.map((r) => J.map((c) => [L[r][c][0] + (r === c ? 1 : 0), L[r][c][1]] as C));
  let Y: C[][];
  try {
    Y = csolve(
      X,
      J.map((r) => [L[r][i]]),
    );
  } catch {
    // the other loops closed alone have a pole here: Lᵢ is infinite (its disk ratio the limit)
    return [Infinity, NaN];
  }
  let [sr, si] = L[i][i];
  J.forEach((c, k) => {
    const [a, b] = L[i][c];
    const [x, y] = Y[k][0];
    sr -= a * x - b * y;
    si -= a * y + b * x;
  });
  return [sr, si];
}

/** the SISO disk ratio 1/|1/(1 + l) + (σ − 1)/2| = 2|1 + l|/|(1 + σ) + (σ − 1)l| */
function ratio(l: C, sigma: number): number {
  if (!Number.isFinite(l[0]) || !Number.isFinite(l[1])) return sigma === 1 ? Infinity : 2 / Math.abs(sigma - 1);
  const den = Math.hypot(1 + sigma + (sigma - 1) * l[0], (sigma - 1) * l[1]);
  return den === 0 ? Infinity : (2 * Math.hypot(1 + l[0], l[1])) / den;
}

/** the real form [Re −Im; Im Re] of a complex matrix: its eigenvalues are M's and their conjugates, its singular values M's twice */
function realForm(M: C[][]): Matrix {
  const n = M.length;
  const E: Matrix = Array.from({ length: 2 * n }, () => new Array(2 * n).fill(0));
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const [x, y] = M[i][j];
      E[i][j] = x;
      E[i][n + j] = -y;
      E[n + i][j] = y;
      E[n + i][n + j] = x;
    }
  return E;
}

/** spectral radius of a complex matrix (its real form's eigenvalues, by the verifier's eigensolver) */
function spectralRadius(M: C[][]): number {
  return Math.max(0, ...safeEigenvalues(realForm(M)).map(cabs));
}

/** the verifier's grid: N points 4 decades beyond the poles of L (log), or uniform up to π/Ts, and 0 */
function grid(a: R, N = 3000): number[] {
  if (isDiscrete(a)) return [0, ...Array.from({ length: N }, (_, k) => (Math.PI / a.Ts) * ((k + 0.5) / N)), Math.PI / a.Ts];
  let ev: C[] = [];
  if (isTf(a)) {
    const d = strip(a.den);
    const n = d.length - 1;
    if (n > 0)
      ev = safeEigenvalues(Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === 0 ? -d[j + 1] / d[0] : i === j + 1 ? 1 : 0))));
  } else if ((a.A as Matrix).length) ev = safeEigenvalues(a.A);
  const m = ev.map(cabs).filter((v) => v > 0 && Number.isFinite(v));
  const lo = Math.log10(m.length ? Math.min(...m) : 1) - 4;
  const hi = Math.log10(m.length ? Math.max(...m) : 1) + 4;
  return [0, ...Array.from({ length: N }, (_, k) => 10 ** (lo + ((hi - lo) * k) / (N - 1))), Infinity];
}

/** closed-loop poles: A − B(I + D)⁻¹C (or the roots of den + num), by the verifier's eigensolver */
function closedLoopPoles(a: R): C[] | null {
  if (isTf(a)) {
    const n = strip(a.num),
      d = strip(a.den);
    const len = Math.max(n.length, d.length);
    const cl = strip(Array.from({ length: len }, (_, i) => (d[i - (len - d.length)] ?? 0) + (n[i - (len - n.length)] ?? 0)));
    if (cl.length < d.length) return null;
    const deg = cl.length - 1;
    return deg > 0
      ? safeEigenvalues(Array.from({ length: deg }, (_, i) => Array.from({ length: deg }, (_, j) => (i === 0 ? -cl[j + 1] / cl[0] : i === j + 1 ? 1 : 0))))
      : [];
  }
  const A = a.A as Matrix;
  const N = (a.B as Matrix)[0]?.length ?? (a.D as Matrix)[0].length;
  const D = (Array.isArray(a.D) && a.D.length ? a.D : (a.C as Matrix).map(() => new Array(N).fill(0))) as Matrix;
  const ID = new MM(D).add(MM.eye(N));
  const sv = safeSingularValues(ID);
  if (sv[sv.length - 1] <= 1e-12 * Math.max(1, sv[0])) return null;
  if (!A.length) return [];
  const X = solve(ID, new MM(a.C as Matrix));
  return safeEigenvalues(new MM(A).sub(new MM(a.B as Matrix).mmul(X)).to2DArray());
}

/** the smallest singular value of a complex matrix (its real form, ml-matrix's SVD: no squaring) */
function sigmaMin(M: C[][]): number {
  const s = safeSingularValues(realForm(M));
  return s[s.length - 1];
}

/** the disk's gain range and phase, from its closed form (Seiler, Packard and Gahinet 2020) */
function disk(alpha: number, sigma: number): { gm: [number, number]; pm: number } {
  if (!(alpha > 0)) return { gm: [1, 1], pm: 0 };
  if (alpha === Infinity) return { gm: [0, Infinity], pm: 180 };
  // the edges to 1e-12 (α = 2 at σ = 0 computed as 2 − 4e-16 reaches infinity), as the solver
  const lo = 2 - alpha * (1 - sigma) <= 2e-12 ? 0 : (2 - alpha * (1 - sigma)) / (2 + alpha * (1 + sigma));
  const hi = 2 - alpha * (1 + sigma) <= 2e-12 ? Infinity : (2 + alpha * (1 - sigma)) / (2 - alpha * (1 + sigma));
  // the largest θ with e^{jθ} in the disk: the boundary point on the unit circle, by bisection
  const inside = (t: number) => {
    const a = (1 - sigma) / 2,
      b = (1 + sigma) / 2;
    return Math.hypot(Math.cos(t) - 1, Math.sin(t)) <= alpha * Math.hypot(a + b * Math.cos(t), b * Math.sin(t));
  };
  let pm: number;
  if (inside(Math.PI)) pm = 180;
  else {
    let l = 0,
      h = Math.PI;
    for (let k = 0; k < 100; k++) {
      const m = (l + h) / 2;
      if (inside(m)) l = m;
      else h = m;
    }
    pm = (l * 180) / Math.PI;
  }
  return { gm: [Math.max(0, lo), hi], pm };
}

export function diskMarginChecks(a: R, r: R): Check[] {
  const checks: Check[] = [];
  const sigma = (a.sigma ?? 0) as number;
  const poles = closedLoopPoles(a);
  const Ts = isDiscrete(a) ? a.Ts : 0;
  if (poles === null) {
    checks.push({ name: 'ill-posed', ok: r.stable === false && r.mm === 0, detail: 'I + L(∞) singular: margins 0' });
    return checks;
  }
  const scale = Math.max(1, ...poles.map(cabs));
  const stable = Ts ? poles.every((z) => cabs(z) < 1 - 1e-9) : poles.every(([re]) => re < -1e-9 * scale);
  const marginal = Ts ? poles.some((z) => Math.abs(cabs(z) - 1) <= 1e-9) : poles.some(([re]) => Math.abs(re) <= 1e-9 * scale);
  checks.push({
    name: 'closed-loop stability',
    ok: marginal ? true : stable === r.stable,
    detail: marginal
      ? 'a closed-loop pole on the stability boundary (either verdict holds to rounding)'
      : `feedback(L, eye) is ${stable ? 'stable' : 'unstable'} by the independent eigensolver`,
  });
  if (!r.stable) {
    const zero = r.mm === 0 && (r.dm as number[]).every((v) => v === 0);
    checks.push({ name: 'margins 0', ok: zero, detail: 'an unstable closed loop has disk margins 0' });
    return checks;
  }
  const N = (r.dm as number[]).length;
  // 3000 frequencies, 1000 for a large model (each is an n x n complex solve)
  const g = grid(a, !isTf(a) && (a.A as Matrix).length > 16 ? 1000 : 3000).filter((w) => !Ts || w <= Math.PI / Ts);
  const Ls = g.map((w) => loopAt(a, w));

  // loop at a time
  let at = 0,
    below = 0;
  for (let i = 0; i < N; i++) {
    const al = r.dm[i] as number;
    if (Number.isFinite(al)) at = Math.max(at, Math.abs(ratio(brokenLoop(loopAt(a, r.dm_w[i]), i), sigma) - al) / Math.max(al, 1e-300));
    let lo = Infinity;
    for (const L of Ls) lo = Math.min(lo, ratio(brokenLoop(L, i), sigma));
    below = Math.max(below, Number.isFinite(al) ? Math.max(0, 1 - lo / al) : lo === Infinity ? 0 : 1);
  }
  checks.push(check('loop-at-a-time margins', at, 1e-7, `each broken-loop transfer Lᵢ formed afresh: its disk ratio at dm_w equals dm`));
  checks.push(check('loop-at-a-time minimal', below, 1e-7, `no smaller disk ratio of any Lᵢ on a grid of ${g.length} frequencies`));

  // gain ranges and phases from the closed form
  let geo = 0;
  const cmp = (al: number, gm: [number, number], pm: number) => {
    const d = disk(al, sigma);
    const rel = (x: number, y: number) => (x === Infinity || y === Infinity ? (x === y ? 0 : 1) : Math.abs(x - y) / Math.max(1, Math.abs(x)));
    geo = Math.max(geo, rel(d.gm[0], gm[0]), rel(d.gm[1], gm[1]), Math.abs(d.pm - pm) / 180);
  };
  (r.dm as number[]).forEach((al, i) => cmp(al, r.dm_gm[i], r.dm_pm[i]));
  cmp(r.mm, r.mm_gm, r.mm_pm);
  checks.push(check('disks', geo, 1e-9, 'gain ranges and phases from the disk D(α, σ) (phase by bisection on the unit circle)'));

  // multiloop: the guaranteed bound
  const dAt = (M: C[][], d: number[]) => hermitianSingularValues(M.map((row, i) => row.map(([x, y], j) => [(x * d[i]) / d[j], (y * d[i]) / d[j]] as C)))[0];
  if (N > 1 && Number.isFinite(r.mm)) {
    const up = dAt(mAt(a, r.w_mm, sigma), r.scaling);
    checks.push(
      check('μ upper bound', Math.abs(up - r.mu_upper) / Math.max(r.mu_upper, 1e-300), 1e-6, 'σ̄(D·M·D⁻¹) with the returned D at w_mm equals μ_upper'),
    );
    const w = r.w as number[];
    const idx = w.length <= 24 ? w.map((_, i) => i) : Array.from({ length: 24 }, (_, i) => Math.round((i * (w.length - 1)) / 23));
    let e = 0,
      top = 0;
    for (const k of idx) {
      const v = dAt(mAt(a, w[k], sigma), r.scaling_w[k]);
      // an infinite margin there (μ = 0: M vanishes, e.g. T at ω = ∞ with skew −1) needs σ̄ = 0, not ∞·0
      e = Math.max(e, Number.isFinite(r.mm_w[k]) ? Math.abs(v * r.mm_w[k] - 1) : v <= 1e-12 ? 0 : 1);
    }
    for (const v of r.mm_w as number[]) top = Math.max(top, Math.max(0, r.mm / v - 1));
    checks.push(check('bound over frequency', e, 1e-6, `σ̄(D(ω)·M·D(ω)⁻¹) = 1/mm_w at ${idx.length} of the solver's frequencies`));
    checks.push(check('peak', top, 1e-9, 'mm is the least of mm_w'));
  }
  if (Number.isFinite(r.mm)) {
    // two lower bounds of μ that need no search must stay below the claimed peak
    let worst = 0;
    for (const w of g) {
      const M = mAt(a, w, sigma);
      const lb = Math.max(spectralRadius(M), ...M.map((row, i) => cabs(row[i])));
      worst = Math.max(worst, lb * r.mm - 1);
    }
    checks.push(
      check('no missed peak', Math.max(0, worst), 1e-6, `ρ(M) and max |Mᵢᵢ| (lower bounds of μ) stay below 1/mm on a grid of ${g.length} frequencies`),
    );
  }

  // multiloop: the attained bound
  checks.push({ name: 'bounds ordered', ok: r.mm <= r.mm_upper * (1 + 1e-9), detail: `mm ${sci(r.mm)} ≤ mm_upper ${sci(r.mm_upper)}` });
  const delta = r.worst_delta as C[];
  if (delta.length) {
    const aa = (1 - sigma) / 2,
      bb = (1 + sigma) / 2;
    // f = n/d with n = 1 + (1 − σ)/2·δ, d = 1 − (1 + σ)/2·δ: I + L·diag(f) = (diag(d) + L·diag(n))·diag(d)⁻¹, so it is
    // singular when diag(d) + L·diag(n) is; that form stays finite where f does not (α → 2 at σ = 0 makes d → 0)
    const nn = delta.map(([x, y]) => [1 + aa * x, aa * y] as C);
    const dd = delta.map(([x, y]) => [1 - bb * x, -bb * y] as C);
    const L = loopAt(a, r.w_worst);
    const LN = L.map((row) => row.map(([x, y], j) => [x * nn[j][0] - y * nn[j][1], x * nn[j][1] + y * nn[j][0]] as C));
    const DLN = LN.map((row, i) => row.map(([x, y], j) => [x + (i === j ? dd[i][0] : 0), y + (i === j ? dd[i][1] : 0)] as C));
    const scaleOf = Math.max(...dd.map(cabs)) + hermitianSingularValues(LN)[0];
    checks.push(check('destabilising', sigmaMin(DLN) / scaleOf, 1e-8, 'I + L·diag(f) is singular at w_worst with the returned perturbation'));
    const size = Math.max(...delta.map((d) => Math.abs(cabs(d) - r.mm_upper) / r.mm_upper));
    checks.push(check('perturbation size', size, 1e-9, '|δᵢ| = mm_upper in every channel'));
  }
  return checks;
}

// ------------------------------------------------------------------ diskmargin_io: a plant and its controller

/** a system argument as the verifier reads it, to state space: a number (k, size decided by the other), {A, B, C, D} or SISO {num, den} / {z, p, k} */
interface VS {
  gain?: number;
  A: Matrix;
  B: Matrix;
  C: Matrix;
  D: Matrix;
}

const zerosM = (r: number, c: number): Matrix => Array.from({ length: r }, () => new Array(c).fill(0));
const asM = (x: unknown): Matrix =>
  typeof x === 'number' ? [[x]] : Array.isArray(x) && x.every((v) => typeof v === 'number') ? [x as number[]] : (x as Matrix);

/** num/den (proper) in controllable companion form, written here (not the solver's tf2ss) */
function companionSS(num: number[], den: number[]): VS {
  const d = strip(den);
  const n = d.length - 1;
  let nm = strip(num);
  if (nm.length > d.length) throw new Error('improper');
  nm = [...new Array(d.length - nm.length).fill(0), ...nm].map((v) => v / d[0]);
  const a = d.map((v) => v / d[0]);
  const D0 = nm[0];
  if (!n) return { A: [], B: [], C: [[]], D: [[D0]] };
  const A = zerosM(n, n);
  for (let j = 0; j < n; j++) A[0][j] = -a[j + 1];
  for (let i = 1; i < n; i++) A[i][i - 1] = 1;
  const B = zerosM(n, 1);
  B[0][0] = 1;
  const Cr = Array.from({ length: n }, (_, j) => nm[j + 1] - D0 * a[j + 1]);
  return { A, B, C: [Cr], D: [[D0]] };
}

function readVS(v: unknown): VS | string {
  if (typeof v === 'number') return { gain: v, A: [], B: [], C: [[]], D: [[v]] };
  const o = v as Record<string, unknown>;
  if (o.k !== undefined) {
    const z = (o.z ?? []) as unknown,
      p = (o.p ?? []) as unknown;
    const flat = (x: unknown): C[] | undefined =>
      Array.isArray(x) && x.every((e) => typeof e === 'number' || (Array.isArray(e) && e.length === 2 && e.every((t) => typeof t === 'number')))
        ? (x as (number | C)[]).map((e) => (typeof e === 'number' ? ([e, 0] as C) : e))
        : undefined;
    const zz = flat(z),
      pp = flat(p);
    if (!zz || !pp || typeof o.k !== 'number') return 'a MIMO zero-pole-gain model';
    return companionSS(
      polyFromRoots(zz).map((c) => c * (o.k as number)),
      polyFromRoots(pp),
    );
  }
  if (o.num !== undefined) {
    const num = typeof o.num === 'number' ? [o.num] : (o.num as unknown[]);
    const den = typeof o.den === 'number' ? [o.den] : (o.den as unknown[]);
    if (!num.every((x) => typeof x === 'number') || !den.every((x) => typeof x === 'number')) return 'a MIMO transfer matrix';
    return companionSS(num as number[], den as number[]);
  }
  const A = asM(o.A ?? []);
  const n = A.length && A[0].length ? A.length : 0;
  const D0 = o.D !== undefined && o.D !== null ? asM(o.D) : undefined;
  const B = n ? asM(o.B) : [];
  const Cm = n ? asM(o.C) : [];
  const m = n ? B[0].length : D0![0].length;
  const p = n ? Cm.length : D0!.length;
  return { A: n ? A : [], B: n ? B : [], C: n ? Cm : Array.from({ length: p }, () => []), D: D0 ?? zerosM(p, m) };
}

const dimsVS = (s: VS) => ({ n: s.A.length, p: s.D.length, m: s.D[0].length });
const kEye = (k: number, n: number): VS => ({
  A: [],
  B: [],
  C: Array.from({ length: n }, () => []),
  D: zerosM(n, n).map((r, i) => r.map((_, j) => (i === j ? k : 0))),
});
const mm = (X: Matrix, Y: Matrix, r: number, c: number): Matrix =>
  Array.from({ length: r }, (_, i) => Array.from({ length: c }, (_, j) => X[i].reduce((s, v, k) => s + v * Y[k][j], 0)));

/** s2·s1 (the output of s1 drives s2), by its block matrices, written here */
function seriesVS(s1: VS, s2: VS): VS {
  const a = dimsVS(s1),
    b = dimsVS(s2);
  const n = a.n + b.n;
  const A = zerosM(n, n);
  for (let i = 0; i < a.n; i++) for (let j = 0; j < a.n; j++) A[i][j] = s1.A[i][j];
  const B2C1 = mm(s2.B, s1.C, b.n, a.n);
  for (let i = 0; i < b.n; i++) {
    for (let j = 0; j < a.n; j++) A[a.n + i][j] = B2C1[i][j];
    for (let j = 0; j < b.n; j++) A[a.n + i][a.n + j] = s2.A[i][j];
  }
  const B2D1 = mm(s2.B, s1.D, b.n, a.m);
  const B = [...s1.B.map((r) => r.slice()), ...B2D1];
  const D2C1 = mm(s2.D, s1.C, b.p, a.n);
  const C = Array.from({ length: b.p }, (_, i) => [...D2C1[i], ...(s2.C[i] ?? [])]);
  return { A, B, C, D: mm(s2.D, s1.D, b.p, a.m) };
}

/** [0, −C; P, 0]: inputs [w1 (P's); w2 (C's)], outputs [−C·w2; P·w1] */
function augmentedVS(P: VS, Cc: VS): VS {
  const p = dimsVS(P),
    c = dimsVS(Cc);
  const n = p.n + c.n,
    N = p.m + p.p; // nu + ny
  const A = zerosM(n, n);
  for (let i = 0; i < p.n; i++) for (let j = 0; j < p.n; j++) A[i][j] = P.A[i][j];
  for (let i = 0; i < c.n; i++) for (let j = 0; j < c.n; j++) A[p.n + i][p.n + j] = Cc.A[i][j];
  const B = zerosM(n, N);
  for (let i = 0; i < p.n; i++) for (let j = 0; j < p.m; j++) B[i][j] = P.B[i][j];
  for (let i = 0; i < c.n; i++) for (let j = 0; j < c.m; j++) B[p.n + i][p.m + j] = Cc.B[i][j];
  const C = zerosM(N, n);
  const D = zerosM(N, N);
  // rows 0..nu−1: −(C's output); rows nu..: P's output
  for (let i = 0; i < c.p; i++) {
    for (let j = 0; j < c.n; j++) C[i][p.n + j] = -Cc.C[i][j];
    for (let j = 0; j < c.m; j++) D[i][p.m + j] = -Cc.D[i][j];
  }
  for (let i = 0; i < p.p; i++) {
    for (let j = 0; j < p.n; j++) C[c.p + i][j] = P.C[i][j];
    for (let j = 0; j < p.m; j++) D[c.p + i][j] = P.D[i][j];
  }
  return { A, B, C, D };
}

export function diskMarginIOChecks(a: R, r: R): Check[] {
  let P = readVS(a.sys1),
    Cc = readVS(a.sys2);
  if (typeof P === 'string' || typeof Cc === 'string')
    return [
      {
        name: 'loops formed',
        ok: false,
        detail: `the verifier forms the loops from numbers, A, B, C, D or SISO transfer functions, not ${typeof P === 'string' ? P : Cc}: give it as a state-space model`,
      },
    ];
  if (P.gain !== undefined && Cc.gain === undefined) P = kEye(P.gain, dimsVS(Cc).m);
  else if (Cc.gain !== undefined && P.gain === undefined) Cc = kEye(Cc.gain, dimsVS(P).p);
  const Ts = [a.sys1, a.sys2].map((v) => (v && typeof v === 'object' && typeof v.Ts === 'number' ? v.Ts : 0)).find((t) => t > 0) ?? 0;
  const loops: [string, VS, R][] = [
    ['inputs', seriesVS(P, Cc), r.at_inputs],
    ['outputs', seriesVS(Cc, P), r.at_outputs],
    ['inputs and outputs', augmentedVS(P, Cc), r.io],
  ];
  const checks: Check[] = [];
  for (const [what, L, res] of loops) {
    const args: R = { A: L.A, B: L.B, C: L.C, D: L.D, ...(Ts ? { Ts } : {}), ...(a.sigma !== undefined ? { sigma: a.sigma } : {}), ...(a.w ? { w: a.w } : {}) };
    for (const c of diskMarginChecks(args, res)) checks.push({ ...c, name: `${what}: ${c.name}`, detail: `${what}: ${c.detail}` });
  }
  if (r.stable) {
    // the summary is the three results'; perturbing one side only is a special case of both sides
    const same = r.mmi === r.at_inputs.mm && r.mmo === r.at_outputs.mm && r.mmio === r.io.mm && r.mmio_upper === r.io.mm_upper && r.w_mmio === r.io.w_mm;
    checks.push({ name: 'summary', ok: same, detail: 'mmi, mmo, mmio, mmio_upper, w_mmio are the three results’ own' });
    const cap = Math.min(r.at_inputs.mm_upper, r.at_outputs.mm_upper);
    checks.push({
      name: 'io below each side',
      ok: r.mmio <= cap * (1 + 1e-9),
      detail: `mmio ${sci(r.mmio)} ≤ the attained margins at the inputs and outputs alone (${sci(cap)})`,
    });
    // breaking one channel of the augmented loop is breaking that plant input or output alone
    const nu = r.inputs as number;
    const lat = [...(r.at_inputs.dm as number[]), ...(r.at_outputs.dm as number[])];
    const e = Math.max(...(r.io.dm as number[]).map((v, i) => (v === lat[i] ? 0 : Math.abs(v - lat[i]) / Math.max(Math.abs(lat[i]), 1e-300))));
    checks.push(check('channels agree', e, 1e-6, `each channel of [0, −C; P, 0] broken alone has the margin of that plant input (1..${nu}) or output`));
  }
  return checks;
}
