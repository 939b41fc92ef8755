/**
 * Independent checks for the system tools (transfer functions, frequency and time
 * responses, discretisation, norms). They recompute a few samples of the answer by a
 * different route than the solvers take: the frequency response by a dense complex solve
 * (Gaussian elimination written in numeric.ts) instead of a Hessenberg recursion; time responses by
 * mathjs's matrix exponential of the augmented matrix instead of our Padé recursion; the
 * Lyapunov-based H2 norm through the dual (observability) Gramian by a Kronecker solve.
 */
import { inverse, Matrix as M, solve } from 'ml-matrix';
import type { Complex, Matrix } from '../types.js';
import type { Check } from './index.js';
import { check, complexSolve, froNorm, ldexp, matchedDistances, safeEigenvalues, safeExpm, safeSingularValues, scaled, scaleExponent, sci } from './numeric.js';

export type C = Complex;

const cabs = ([a, b]: C) => Math.hypot(a, b);
/** a/b by Smith's method: no c² + d² to overflow (1e217² was Infinity, the quotient NaN) */
const cdiv = ([a, b]: C, [c, d]: C): C => {
  if (Math.abs(c) >= Math.abs(d)) {
    if (c === 0) return [a === 0 && b === 0 ? NaN : Infinity, NaN];
    const r = d / c,
      t = c + d * r;
    return [(a + b * r) / t, (b - a * r) / t];
  }
  const r = c / d,
    t = c * r + d;
  return [(a * r + b) / t, (b * r - a) / t];
};
const cmul = ([a, b]: C, [c, d]: C): C => [a * c - b * d, a * d + b * c];

/** H(s) = C (sI − A)⁻¹ B + D as real and imaginary parts, by a dense complex solve */
export function evalSS(A: Matrix, B: Matrix, Cm: Matrix, D: Matrix | undefined, s: C): { re: M; im: M } {
  const n = A.length;
  const m = B[0]?.length ?? 0;
  const p = Cm.length;
  const Dm = D && D.length ? new M(D) : M.zeros(p, m);
  if (n === 0) return { re: Dm, im: M.zeros(Dm.rows, Dm.columns) };
  const [sr, si] = s;
  const Mr = new Float64Array(n * n),
    Mi = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const row = A[i];
    for (let j = 0; j < n; j++) Mr[i * n + j] = (i === j ? sr : 0) - row[j];
    Mi[i * n + i] = si;
  }
  const Xr = new Float64Array(n * m),
    Xi = new Float64Array(n * m);
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) Xr[i * m + j] = B[i][j];
  complexSolve(Mr, Mi, n, Xr, Xi, m);
  const re = M.zeros(p, m),
    im = M.zeros(p, m);
  for (let i = 0; i < p; i++)
    for (let j = 0; j < m; j++) {
      let a = 0,
        b = 0;
      for (let l = 0; l < n; l++) {
        a += Cm[i][l] * Xr[l * m + j];
        b += Cm[i][l] * Xi[l * m + j];
      }
      re.set(i, j, a + Dm.get(i, j));
      im.set(i, j, b);
    }
  return { re, im };
}

export function polyval(p: number[], s: C): C {
  let re = 0,
    im = 0;
  for (const a of p) [re, im] = [re * s[0] - im * s[1] + a, re * s[1] + im * s[0]];
  return [re, im];
}

/**
 * num(s)/den(s). Far out (|s| > 1) both are evaluated in u = 1/s (num(s) = s^dn·Σ num_i u^i),
 * so s^7 with |s| = 1e31 never has to be formed, and the powers of s cancel to s^(dn − dd).
 */
export function evalTF(num: number[], den: number[], s: C): C {
  if (cabs(s) <= 1) return cdiv(polyval(num, s), polyval(den, s));
  const u = cdiv([1, 0], s);
  const rev = (p: number[]) => polyval(p.slice().reverse(), u);
  let h = cdiv(rev(num), rev(den));
  const k = num.length - den.length;
  const f = k >= 0 ? s : u;
  for (let i = 0; i < Math.abs(k); i++) h = cmul(h, f);
  return h;
}

/** points on a circle of the given radius in the upper half plane, off the real axis */
function circle(radius: number, k: number): C[] {
  return Array.from({ length: k }, (_, i) => {
    const th = (Math.PI * (i + 0.5)) / k;
    return [radius * Math.cos(th), radius * Math.sin(th)];
  });
}

function spectralRadiusBound(A: Matrix): number {
  // ‖A‖∞ bounds every |λ|
  return Math.max(1, ...A.map((r) => r.reduce((s, v) => s + Math.abs(v), 0)));
}

function tfFromSS(A: Matrix, B: Matrix, Cm: Matrix, D: Matrix | undefined, s: C): C {
  const h = evalSS(A, B, Cm, D, s);
  return [h.re.get(0, 0), h.im.get(0, 0)];
}

/** worst pointwise relative error of two complex sample lists, floored at 1e-3 of the largest */
function pointwise(a: C[], b: C[]): number {
  const big = Math.max(...b.map(cabs), 1e-300);
  let worst = 0;
  a.forEach((z, i) => {
    const d = cabs([z[0] - b[i][0], z[1] - b[i][1]]);
    worst = Math.max(worst, d / Math.max(cabs(b[i]), 1e-3 * big));
  });
  return worst;
}

/**
 * How much rounding H(s) amplifies at s: κ(sI − A) = σmax/σmin of its real 2n embedding for a
 * state-space model, and for num/den the condition of evaluating both polynomials,
 * Σ|c_i||s|^i / |p(s)| (the larger of the two). Near a pole both are large: an evaluation 1e-8
 * off there (|H| = 1.6e9) is as good as double precision gets (a 40-digit reference puts the
 * solver 8e-8 and the check's own solve 2e-8 off).
 */
function evalCondition(args: Record<string, any>, s: C): number {
  let k = 0;
  if (args.num) {
    const cond = (p: number[]) => polyval(p.map(Math.abs), [cabs(s), 0])[0] / Math.max(cabs(polyval(p, s)), 1e-300);
    k = Math.max(cond(args.num), cond(args.den));
    if (!args.A) return k;
  }
  return Math.max(k, ssCondition(args, s));
}

function ssCondition(args: Record<string, any>, s: C): number {
  const A = args.A as Matrix;
  const n = A.length;
  if (!n) return 1;
  const big = new M(2 * n, 2 * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const v = (i === j ? s[0] : 0) - A[i][j];
      big.set(i, j, v);
      big.set(n + i, n + j, v);
    }
  for (let i = 0; i < n; i++) {
    big.set(i, n + i, -s[1]);
    big.set(n + i, i, s[1]);
  }
  const sv = safeSingularValues(big);
  const lo = sv[sv.length - 1];
  return lo > 0 ? sv[0] / lo : Infinity;
}

/**
 * Samples of H against a direct evaluation, each to 1e-8 relative (floored at 1e-3 of the
 * largest, as `pointwise`) or, where that is exceeded, to 10n·ε·(the condition of evaluating H
 * there): a tolerance from the problem, computed only for the samples that need it.
 */
function curveCheck(name: string, got: C[], want: C[], at: C[], args: Record<string, any>, what: string): Check {
  const big = Math.max(...want.map(cabs), 1e-300);
  const n = Math.max(1, (args.A as Matrix | undefined)?.length ?? (args.den as number[]).length - 1);
  let worst = 0;
  let ok = true;
  let conditioned = false;
  got.forEach((z, i) => {
    const e = cabs([z[0] - want[i][0], z[1] - want[i][1]]) / Math.max(cabs(want[i]), 1e-3 * big);
    worst = Math.max(worst, e);
    if (e <= 1e-8) return;
    const tol = 10 * n * Number.EPSILON * evalCondition(args, at[i]);
    if (e <= tol) conditioned = true;
    else ok = false;
  });
  return { name, ok, value: worst, detail: `${what} (${sci(worst)}${conditioned ? '; near a pole, to 10n·ε·κ(sI − A)' : ''})` };
}

/**
 * e^{Mt} by mathjs (Padé with scaling and squaring): the independent exponential. When it
 * overflows there is nothing to compare with: NaN entries, so the check fails (and says NaN)
 * instead of throwing.
 */
function expmT(Mx: Matrix, t: number): number[][] {
  return safeExpm(Mx, t) ?? Mx.map((r) => r.map(() => NaN));
}

/** [A B; 0 0] exponentials give x(t) for a unit step from rest: x = Γ(t) = ∫₀ᵗ e^{Aτ} dτ B */
function stepState(A: Matrix, B: Matrix, t: number, col = 0): number[] {
  const n = A.length;
  // decayed (‖e^{At}‖ at rounding level): x(t) = A⁻¹(e^{At} − I)B = −A⁻¹B to rounding, by an
  // ml-matrix solve; a thousand squarings of the augmented matrix (t = 1e300) lose 1e-4
  const E0 = safeExpm(A, t);
  if (E0 && froNorm(E0) <= Number.EPSILON) {
    try {
      const x = solve(new M(A), new M(B.map((r) => [r[col]])));
      const v = x.to2DArray().map((r) => -r[0]);
      if (v.every(Number.isFinite)) return v;
    } catch {
      // singular A: the augmented exponential below
    }
  }
  const aug = Array.from({ length: n + 1 }, (_, i) => Array.from({ length: n + 1 }, (_, j) => (i < n ? (j < n ? A[i][j] : B[i][col]) : 0)));
  const E = expmT(aug, t);
  return E.slice(0, n).map((r) => r[n]);
}

function outputOf(Cm: Matrix, x: number[], row = 0): number {
  return Cm[row].reduce((s, c, j) => s + c * x[j], 0);
}

/** samples to recheck out of a long list: first, last and a few between */
function sampleIdx(len: number, k = 6): number[] {
  if (len <= k) return Array.from({ length: len }, (_, i) => i);
  return [...new Set(Array.from({ length: k }, (_, i) => Math.round((i * (len - 1)) / (k - 1))))];
}

export function isDiscrete(args: Record<string, any>): boolean {
  return typeof args.Ts === 'number' && args.Ts > 0;
}

// ---- root locus and Nyquist (plot data): polynomials evaluated here by Horner, closed-loop
// poles by the verifier's own eigensolver (safeEigenvalues) on companion or closed-loop matrices

function stripLead(p: number[]): number[] {
  let i = 0;
  while (i < p.length - 1 && p[i] === 0) i++;
  return p.slice(i);
}

/** companion matrix of a polynomial (highest power first; leading zeros dropped): its eigenvalues are the roots */
export function companion(p: number[]): Matrix {
  const q = stripLead(p);
  const n = q.length - 1;
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === 0 ? -q[j + 1] / q[0] : i === j + 1 ? 1 : 0)));
}

function padTo(p: number[], n: number): number[] {
  return [...new Array(Math.max(0, n - p.length)).fill(0), ...p];
}

/** A − k·B(1 + kD)⁻¹C for a SISO loop under u = −k·y */
function closedLoopA(args: Record<string, any>, k: number): Matrix {
  const A = args.A as Matrix,
    B = args.B as Matrix,
    Cm = args.C as Matrix;
  const d = (args.D as Matrix | undefined)?.[0]?.[0] ?? 0;
  const g = k / (1 + k * d);
  return A.map((row, i) => row.map((v, j) => v - g * B[i][0] * Cm[0][j]));
}

/** σmin(A − λI)/‖A‖ (real 2n embedding): λ is an exact eigenvalue of a nearby matrix */
/** at most k items spread evenly over the list (all of them when there are k or fewer) */
function sampleItems<T>(xs: readonly T[], k: number): T[] {
  if (xs.length <= k) return xs.slice();
  return Array.from({ length: k }, (_, i) => xs[Math.round((i * (xs.length - 1)) / (k - 1))]);
}

function eigBackward(A: Matrix, z: C): number {
  const n = A.length;
  const big = new M(2 * n, 2 * n);
  let nrm = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const v = A[i][j] - (i === j ? z[0] : 0);
      big.set(i, j, v);
      big.set(n + i, n + j, v);
      nrm += A[i][j] * A[i][j];
    }
  for (let i = 0; i < n; i++) {
    big.set(i, n + i, z[1]);
    big.set(n + i, i, -z[1]);
  }
  const sv = safeSingularValues(big);
  return sv[sv.length - 1] / Math.max(Math.sqrt(nrm), 1e-300);
}

/** |p(s)| relative to Σ|p_i||s|^i: the backward error of s as a root of p */
function polyResidual(p: number[], s: C): number {
  const r = cabs(polyval(p, s));
  const scale = polyval(p.map(Math.abs), [cabs(s), 0])[0];
  return r / Math.max(scale, 1e-300);
}

function verifyRlocus(args: Record<string, any>, r: Record<string, any>): Check[] {
  const ks = r.k as number[];
  const poles = r.poles as C[][];
  const idx = sampleIdx(ks.length, 8);
  const checks: Check[] = [];
  if (args.num) {
    const num = stripLead(args.num as number[]);
    const den = stripLead(args.den as number[]);
    const L = Math.max(num.length, den.length);
    let worst = 0;
    let count = true;
    for (const i of idx) {
      const cl = padTo(den, L).map((v, j) => v + ks[i] * padTo(num, L)[j]);
      if (poles[i].length !== den.length - 1) count = false;
      for (const p of poles[i]) worst = Math.max(worst, polyResidual(cl, p));
    }
    checks.push(check('closed-loop poles', worst, 1e-8, `den(p) + k·num(p) = 0 at each pole, ${idx.length} gains (backward error)`));
    checks.push({ name: 'pole count', ok: count, detail: count ? `${den.length - 1} poles at each gain` : 'a gain has the wrong number of poles' });
    const a = r.asymptotes as { centroid: number; angles_deg: number[] };
    const rel = den.length - num.length;
    if (rel > 0) {
      const sp = den.length > 1 ? -den[1] / den[0] : 0;
      const sz = num.length > 1 ? -num[1] / num[0] : 0;
      const c = (sp - sz) / rel;
      checks.push(check('asymptote centroid', Math.abs(c - a.centroid) / Math.max(1, Math.abs(c)), 1e-9, '(Σ poles − Σ zeros)/(n − m) from the coefficients'));
    }
    const dden = den.slice(0, -1).map((v, j) => v * (den.length - 1 - j));
    const dnum = num.length > 1 ? num.slice(0, -1).map((v, j) => v * (num.length - 1 - j)) : [0];
    let bw = 0;
    for (const b of r.breakaway as { s: C; k: number }[]) {
      const cl = padTo(den, L).map((v, j) => v + b.k * padTo(num, L)[j]);
      const Ld = Math.max(dden.length, dnum.length);
      const dcl = padTo(dden, Ld).map((v, j) => v + b.k * padTo(dnum, Ld)[j]);
      bw = Math.max(bw, polyResidual(cl, b.s), polyResidual(dcl, b.s));
    }
    if ((r.breakaway as unknown[]).length) checks.push(check('breakaway points', bw, 1e-6, 'den + k·num and its derivative vanish there (a multiple root)'));
  } else {
    let worst = 0;
    let count = true;
    let backward = 0;
    for (const i of idx) {
      const Acl = closedLoopA(args, ks[i]);
      if (poles[i].length !== Acl.length) {
        count = false;
        continue;
      }
      // the verifier's own eigenvalues of the closed loop (one O(n³) solve per gain); only where
      // the two lists differ (multiple poles), each pole's backward error by an SVD, at most 8
      // per gain (an SVD per pole made n = 128 take a minute)
      const own = safeEigenvalues(Acl);
      const sc = Math.max(1e-300, ...own.map(cabs), ...poles[i].map(cabs));
      // one-to-one matching, so a pole reported twice cannot stand for two eigenvalues
      const dist = matchedDistances(poles[i], own);
      const far = poles[i].filter((_, j) => dist[j] > 1e-6 * sc);
      for (const p of sampleItems(far, 8)) {
        worst = Math.max(worst, eigBackward(Acl, p));
        backward++;
      }
    }
    checks.push(
      check(
        'closed-loop poles',
        worst,
        1e-8,
        `each pole is an eigenvalue of A − kB(1 + kD)⁻¹C at ${idx.length} gains (an independent eigensolver${backward ? `, and the backward error by an SVD for ${backward} multiple poles` : ''})`,
      ),
    );
    checks.push({ name: 'pole count', ok: count, detail: count ? `${(args.A as Matrix).length} poles at each gain` : 'a gain has the wrong number of poles' });
  }
  return checks;
}

function verifyNyquist(args: Record<string, any>, r: Record<string, any>): Check[] {
  const disc = isDiscrete(args);
  const Ts = args.Ts as number;
  const at = (w: number): C => (disc ? [Math.cos(w * Ts), Math.sin(w * Ts)] : [0, w]);
  const L = (s: C): C => (args.num ? evalTF(args.num, args.den, s) : tfFromSS(args.A, args.B, args.C, args.D, s));
  const w = r.w as number[];
  const H = r.H as C[];
  const idx = sampleIdx(w.length, 8);
  const checks: Check[] = [
    curveCheck(
      'curve samples',
      idx.map((i) => H[i]),
      idx.map((i) => L(at(w[i]))),
      idx.map((i) => at(w[i])),
      args,
      `H agrees with a direct evaluation at ${idx.length} frequencies (both signs)`,
    ),
  ];
  const det = r.detours as { w: number; radius: number; H: C[] }[];
  if (det.length) {
    // the middle of each indentation: s = jω0 + ε (continuous), z = (1 + ε)·e^{jω0Ts} (discrete)
    const a = det.map((d) => d.H[Math.floor(d.H.length / 2)]);
    const b = det.map((d) => {
      if (!disc) return L([d.radius, d.w]);
      const z = at(d.w);
      return L([z[0] * (1 + d.radius), z[1] * (1 + d.radius)]);
    });
    checks.push(check('detours', pointwise(a, b), 1e-8, 'H on each indentation agrees with a direct evaluation'));
  }
  // argument principle: encirclements = Z − P with both counts from an independent eigensolver
  let Aol: Matrix, Acl: Matrix;
  if (args.num) {
    const num = stripLead(args.num as number[]);
    const den = stripLead(args.den as number[]);
    const Lm = Math.max(num.length, den.length);
    Aol = companion(den);
    Acl = companion(padTo(den, Lm).map((v, j) => v + padTo(num, Lm)[j]));
  } else {
    Aol = args.A as Matrix;
    Acl = closedLoopA(args, 1);
  }
  const unstable = (z: C) => (disc ? cabs(z) - 1 : z[0]);
  // "on the boundary" relative to the model's own frequency scale in continuous time (the
  // largest pole modulus), not to 1: with every pole near 1e-8 a floor of 1e-8 called them all
  // marginal; the unit circle is its own scale
  const sc = disc ? 1 : Math.max(1e-300, ...[...safeEigenvalues(Aol), ...safeEigenvalues(Acl)].map(cabs));
  const tol = (z: C) => 1e-8 * Math.max(sc, cabs(z));
  const P = safeEigenvalues(Aol).filter((z) => unstable(z) > tol(z)).length;
  const cl = safeEigenvalues(Acl);
  const Z = cl.filter((z) => unstable(z) > tol(z)).length;
  const onEdge = cl.some((z) => Math.abs(unstable(z)) <= 1e-6 * Math.max(sc, cabs(z)));
  // eigenvalues carry an absolute error of about n·ε·‖A‖: with a huge loop gain (B, C ~ 1e8) those near
  // the boundary cannot be counted as inside or outside by any eigensolver, so Z − P decides nothing
  const fro = (M: Matrix) => Math.sqrt(M.reduce((s2, row) => s2 + row.reduce((t, v) => t + v * v, 0), 0));
  const uncertainty = 1e3 * Acl.length * Number.EPSILON * Math.max(fro(Acl), fro(Aol));
  const undecidable = [...cl, ...safeEigenvalues(Aol)].some((z) => Math.abs(unstable(z)) <= uncertainty && uncertainty > 1e-6 * Math.max(sc, cabs(z)));
  if (Number.isFinite(r.encirclements) && undecidable) {
    checks.push({
      name: 'encirclements',
      ok: true,
      value: r.encirclements,
      detail: `not counted independently: the loop's scale (‖A − BC‖ ≈ ${fro(Acl).toExponential(1)}) leaves eigenvalues near the stability boundary uncertain by about ${uncertainty.toExponential(1)}, so Z − P cannot be counted by an eigensolver`,
    });
  } else if (Number.isFinite(r.encirclements)) {
    const ok = r.encirclements === Z - P && r.closed_loop_unstable_poles === Z && r.open_loop_unstable_poles === P;
    checks.push({
      name: 'encirclements',
      ok,
      value: r.encirclements,
      detail: `Nyquist criterion: ${r.encirclements} clockwise encirclement(s) of −1 = Z − P = ${Z} − ${P} (closed- and open-loop unstable poles by an independent eigensolver)`,
    });
  } else if (!Array.isArray(args.w)) {
    checks.push({
      name: 'encirclements',
      ok: onEdge,
      detail: onEdge
        ? 'not counted: a closed-loop pole lies on the stability boundary (the curve passes through −1)'
        : 'encirclements not counted although no closed-loop pole is on the boundary',
    });
  }
  return checks;
}

function eigNear(A: Matrix, at: C): number {
  let norm = 1;
  for (const row of A) for (const v of row) norm = Math.max(norm, Math.abs(v));
  return safeEigenvalues(A).filter((z) => cabs([z[0] - at[0], z[1] - at[1]]) <= 1e-6 * norm).length;
}

function polyRootsNear(den: number[], at: C): number {
  const v = cabs(polyval(den, at));
  const scale = den.reduce((a, c) => a + Math.abs(c), 0);
  return v <= 1e-10 * Math.max(scale, 1e-300) ? 1 : 0;
}

/** a discrete step or pulse response by the plain recursion x[k+1] = A x[k] + B u[k] */
function discreteResponseCheck(tool: string, args: Record<string, any>, r: Record<string, any>): Check {
  const A = new M(args.A),
    B = new M(args.B),
    Cm = new M(args.C);
  const d = args.D?.[0]?.[0] ?? 0;
  const t = args.t as number[];
  const y = (Array.isArray(r.y[0]) ? (r.y as number[][]).map((v) => v[0]) : r.y) as number[];
  const K = Math.round(t[t.length - 1] / args.Ts);
  const ref: number[] = [];
  let x = M.zeros(A.rows, 1);
  for (let k = 0; k <= K; k++) {
    const u = tool === 'step' ? 1 : k === 0 ? 1 : 0;
    ref.push(Cm.mmul(x).get(0, 0) + d * u);
    x = A.mmul(x).add(B.clone().mul(u));
  }
  const scale = Math.max(...ref.map(Math.abs), 1e-300);
  const err = Math.max(...t.map((tk, i) => Math.abs(y[i] - ref[Math.round(tk / args.Ts)]))) / scale;
  return check('response samples', err, 1e-8, 'y[k] agrees with the plain recursion x[k+1] = Ax[k] + Bu[k]');
}

/**
 * The observability Gramian W by a Kronecker (n² x n²) solve, independent of our Lyapunov
 * solvers: continuous AᵀW + WA + CᵀC = 0, discrete AᵀWA − W + CᵀC = 0 (column-major vec).
 */
function kroneckerGramian(Am: Matrix, Cmat: Matrix, discrete: boolean): { W: M; kappa: number } {
  const A = new M(Am),
    n = A.rows;
  const K = new M(n * n, n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const row = j * n + i;
      if (discrete) {
        // (Aᵀ ⊗ Aᵀ) vec(W) − vec(W)
        for (let k = 0; k < n; k++) for (let l = 0; l < n; l++) K.set(row, l * n + k, A.get(k, i) * A.get(l, j));
        K.set(row, row, K.get(row, row) - 1);
      } else {
        // (I ⊗ Aᵀ + Aᵀ ⊗ I) vec(W)
        for (let k = 0; k < n; k++) {
          K.set(row, j * n + k, K.get(row, j * n + k) + A.get(k, i));
          K.set(row, k * n + i, K.get(row, k * n + i) + A.get(k, j));
        }
      }
    }
  const Cm = new M(Cmat);
  const CtC = Cm.transpose().mmul(Cm);
  const rhs = new M(n * n, 1);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) rhs.set(j * n + i, 0, -CtC.get(i, j));
  const w = solve(K, rhs);
  const W = new M(n, n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) W.set(i, j, w.get(j * n + i, 0));
  // κ₁(K) = ‖K‖₁‖K⁻¹‖₁ (n ≤ 20 here: K is at most 400 x 400)
  let kappa = Infinity;
  try {
    const norm1 = (X: M) => Math.max(...Array.from({ length: X.columns }, (_, j) => X.getColumn(j).reduce((a, v) => a + Math.abs(v), 0)));
    kappa = norm1(K) * norm1(inverse(K));
  } catch {
    // singular: no bound, the check then holds to 1e-8 only
  }
  return { W, kappa: Number.isFinite(kappa) ? kappa : 0 };
}

/** discrete H2: √trace(BᵀWB + DᵀD) with the observability Gramian of AᵀWA − W + CᵀC = 0 */
/**
 * The H2 norm by the dual Gramian, in units where B and C are near 1 (the norm is linear in
 * each: ‖(A, B/b, C/c, D/bc)‖ = ‖(A, B, C, D)‖/bc, b and c powers of 2, exact); with B near
 * 1e-307 the products underflowed and the reference was 2e-7 off a correct 2.19e-307. The
 * tolerance follows the condition of the Kronecker system (ε·κ(K), K the n² x n² Lyapunov
 * or Stein operator): for a Jordan cluster at z = 0.82 it is 1e8, and the reference itself is
 * 1e-7 off the 40-digit value where the solver's answer is 7e-9 off.
 */
function dualGramianCheck(args: Record<string, any>, h2: number, discrete: boolean): Check {
  const kb = scaleExponent(args.B);
  const kc = scaleExponent(args.C);
  const Bs = scaled(args.B, -kb);
  const Cs = scaled(args.C, -kc);
  const { W, kappa } = kroneckerGramian(args.A, Cs, discrete);
  const Bm = new M(Bs);
  // the two parts of h2² = trace(BᵀWB) + ‖D‖²_F (discrete) apart: D keeps its own scale
  const part = ldexp(Math.sqrt(Math.max(0, Bm.transpose().mmul(W).mmul(Bm).trace())), kb + kc);
  const dF = discrete && args.D && args.D.length ? froNorm(args.D) : 0;
  const refOrig = Math.hypot(part, dF);
  const tol = Math.max(1e-8, 10 * Number.EPSILON * kappa);
  const what = discrete ? 'equals √trace(BᵀWB + DᵀD) with the discrete observability Gramian W' : 'equals √trace(BᵀWB) with the observability Gramian W';
  // a norm below the smallest normal double (B, C near 1e-201: 4e-402) is 0 or subnormal in
  // the answer: compared at the underflow level, not relative to itself
  const MIN_NORMAL = 2.2250738585072014e-308;
  const err = Math.abs(refOrig - h2) / Math.max(refOrig, MIN_NORMAL);
  return check('dual Gramian', err, tol, tol > 1e-8 ? `${what}, to ε·κ = ${sci(tol)} (ill-conditioned Gramian equation)` : what);
}

/** tools that take (A, B, C, D) and accept a model with no states */
const STATIC_GAIN_TOOLS = new Set(['ss2tf', 'dcgain', 'poles_zeros', 'step', 'impulse', 'freqresp', 'margins', 'h2norm', 'hinfnorm', 'c2d']);

const isEmpty = (M: unknown) => Array.isArray(M) && (M as unknown[]).every((r) => Array.isArray(r) && r.length === 0);

/**
 * Checks for a model with no states, the static gain y = D u, against D itself (read from
 * the arguments, not from the solver): every response and norm has a closed form in D.
 */
function verifyStaticGain(tool: string, args: Record<string, any>, r: Record<string, any>): Check[] | undefined {
  const D = (args.num ? [[stripLead(args.num)[0] / stripLead(args.den)[0]]] : args.D) as Matrix;
  const Dm = new M(D);
  const scale = Math.max(froNorm(Dm), 1e-300);
  const siso = D.length === 1 && D[0].length === 1;
  const d = D[0][0];
  const maxDiff = (got: number[][], want: number[][]) =>
    got.length !== want.length || got.some((row, i) => row.length !== want[i].length)
      ? Infinity
      : Math.max(0, ...got.flatMap((row, i) => row.map((v, j) => Math.abs(v - want[i][j])))) / scale;
  const asMat = (y: unknown): number[][] => (Array.isArray(y) ? (y as number[][]) : [[y as number]]);
  const zero = D.map((row) => row.map(() => 0));
  const disc = isDiscrete(args);
  switch (tool) {
    case 'ss2tf': {
      const pts = circle(2, 12);
      const err = Math.max(...pts.map((z) => cabs([evalTF(r.num, r.den, z)[0] - d, evalTF(r.num, r.den, z)[1]]))) / Math.max(Math.abs(d), 1e-300);
      return [check('transfer function', err, 1e-12, 'num/den equals the constant D at 12 points (no states: H(s) = D)')];
    }
    case 'dcgain':
      return [check('DC gain', maxDiff(r.gain, D), 1e-14, 'no states: the DC gain is D')];
    case 'poles_zeros': {
      const ok = (r.poles as unknown[]).length === 0 && (r.zeros as unknown[]).length === 0;
      const checks: Check[] = [
        {
          name: 'no poles or zeros',
          ok,
          detail: ok
            ? 'no states: no poles, and the system matrix is D alone (constant rank), so no finite zeros'
            : 'a model with no states has no poles or zeros',
        },
      ];
      if (siso && typeof r.gain === 'number') checks.push(check('gain', Math.abs(r.gain - d) / Math.max(Math.abs(d), 1e-300), 1e-14, 'the gain is D'));
      return checks;
    }
    case 'step':
    case 'impulse': {
      const t = args.t as number[];
      const y = r.y as unknown[];
      let worst = 0;
      t.forEach((tk, i) => {
        const first = disc && Math.round(tk / args.Ts) === 0;
        const want = tool === 'step' || first ? D : zero;
        worst = Math.max(worst, maxDiff(asMat(y[i]), want));
      });
      const what =
        tool === 'step'
          ? 'no states: the step response is D at every t >= 0'
          : disc
            ? 'no states: the pulse response is D at k = 0, then 0'
            : 'no states: C e^{At} B = 0 (the D·δ(t) term is not sampled)';
      return [check('response samples', worst, 1e-14, what)];
    }
    case 'freqresp': {
      const H = r.H as unknown[];
      let worst = 0;
      for (const h of H) {
        const hm = siso ? [[h as C]] : (h as C[][]);
        worst = Math.max(
          worst,
          maxDiff(
            hm.map((row) => row.map((z) => z[0])),
            D,
          ),
          maxDiff(
            hm.map((row) => row.map((z) => z[1])),
            zero,
          ),
        );
      }
      return [check('frequency response', worst, 1e-14, `no states: H equals D at all ${H.length} frequencies`)];
    }
    case 'margins': {
      // the Nyquist plot is the single point k: a margin is finite only when that point can
      // be moved onto -1 by a gain (k < 0: gm = 1/|k|) or lies on the unit circle (|k| = 1)
      const k = d;
      const gmOk = k < 0 ? Math.abs(r.gm * Math.abs(k) - 1) <= 1e-14 : r.gm === Infinity;
      const pmOk = Math.abs(k) === 1 ? r.pm_deg === (k > 0 ? 180 : 0) : r.pm_deg === Infinity;
      const wOk = Number.isNaN(r.w_pc) && Number.isNaN(r.w_gc);
      return [
        {
          name: 'gain margin',
          ok: gmOk,
          detail: k < 0 ? `static gain ${k} < 0: gm·|k| = 1` : `static gain ${k} >= 0: its phase never reaches -180°, gm = Infinity`,
        },
        {
          name: 'phase margin',
          ok: pmOk,
          detail: Math.abs(k) === 1 ? `|k| = 1 at every frequency: pm = 180° + ∠k` : '|k| != 1: no gain crossover, pm = Infinity',
        },
        { name: 'crossover frequencies', ok: wOk, detail: 'a constant has no single crossover frequency (w_pc and w_gc are not numbers)' },
      ];
    }
    case 'h2norm': {
      const fro = froNorm(Dm);
      const want = disc ? fro : fro === 0 ? 0 : Infinity;
      const ok = want === Infinity ? r.h2 === Infinity : Math.abs(r.h2 - want) <= 1e-14 * Math.max(want, 1e-300) || r.h2 === want;
      return [
        {
          name: 'static gain',
          ok,
          value: r.h2,
          detail: disc
            ? 'no states: the pulse response is D at k = 0 only, so the norm is ‖D‖_F'
            : 'no states: continuous H2 norm is infinite unless D = 0 (then 0)',
        },
      ];
    }
    case 'hinfnorm': {
      const sd = safeSingularValues(Dm)[0] ?? 0;
      return [check('σmax(D)', Math.abs(sd - r.hinf) / Math.max(sd, 1e-300), 1e-12, 'no states: the gain is σmax(D) at every frequency (independent SVD)')];
    }
    case 'c2d': {
      const empty = isEmpty(r.Ad) && isEmpty(r.Bd) && isEmpty(r.Cd);
      return [
        { name: 'no states', ok: empty, detail: empty ? 'Ad, Bd, Cd are empty' : 'a model with no states must keep Ad, Bd, Cd empty' },
        check('Dd = D', maxDiff(r.Dd, D), 0, 'a static gain is the same in discrete time'),
      ];
    }
    default:
      return undefined;
  }
}

export function verifySystem(tool: string, args: Record<string, any>, r: Record<string, any>): Check[] | undefined {
  if (STATIC_GAIN_TOOLS.has(tool) && isEmpty(args.A) && Array.isArray(args.D)) return verifyStaticGain(tool, args, r);
  if (tool === 'margins' && Array.isArray(args.num) && Array.isArray(args.den) && stripLead(args.den).length === 1 && stripLead(args.num).length === 1)
    return verifyStaticGain(tool, args, r);
  switch (tool) {
    case 'tf2ss': {
      const den = args.den as number[];
      const rad = 1.5 * Math.max(1, spectralRadiusBound(r.A as Matrix));
      const pts = circle(rad, 12);
      const a = pts.map((s) => tfFromSS(r.A, r.B, r.C, r.D, s));
      const b = pts.map((s) => evalTF(args.num, den, s));
      return [check('realisation', pointwise(a, b), 1e-8, 'C(sI − A)⁻¹B + D equals num/den at 12 points')];
    }
    case 'ss2tf': {
      const rad = 1.5 * spectralRadiusBound(args.A);
      const pts = circle(rad, 12);
      const a = pts.map((s) => evalTF(r.num, r.den, s));
      const b = pts.map((s) => tfFromSS(args.A, args.B, args.C, args.D, s));
      // both sides' evaluation conditions (the coefficients' and sI − A's) bound the agreement
      return [curveCheck('transfer function', a, b, pts, { ...args, num: r.num, den: r.den }, 'num/den equals C(sI − A)⁻¹B + D at 12 points')];
    }
    case 'c2d': {
      const Ts = args.Ts as number;
      const checks: Check[] = [];
      if (args.method === 'tustin') {
        // H_d(z) = H_c(s) with s = (2/Ts)(z − 1)/(z + 1), on a circle |z| = 1.5
        const zs = circle(1.5 * Math.max(1, spectralRadiusBound(r.Ad)), 8);
        const hd = zs.map((z) => evalSS(r.Ad, r.Bd, r.Cd, r.Dd, z));
        const hc = zs.map((z) => {
          const s = cdiv([z[0] - 1, z[1]], [z[0] + 1, z[1]]);
          return evalSS(args.A, args.B, args.C, args.D, [(2 / Ts) * s[0], (2 / Ts) * s[1]]);
        });
        const flat = (h: { re: M; im: M }[]) =>
          h.flatMap((x) =>
            x.re
              .to2DArray()
              .flat()
              .map((v, i) => [v, x.im.to2DArray().flat()[i]] as C),
          );
        checks.push(check('bilinear map', pointwise(flat(hd), flat(hc)), 1e-8, 'H_d(z) = H(2(z − 1)/(Ts(z + 1))) at 8 points'));
      } else {
        const E = new M(expmT(args.A, Ts));
        const err = froNorm(E.clone().sub(new M(r.Ad))) / Math.max(froNorm(E), 1e-300);
        // scaling and squaring: the s ≈ log2‖A·Ts‖₁ squarings double the relative error at
        // best and multiply it by ‖R‖²/‖R²‖ for a non-normal factor R (Higham 2005), so two
        // correct exponentials differ by up to ~ε‖A·Ts‖₁·ν, ν = ‖e^{A·Ts}‖/ρ(e^{A·Ts}) the
        // transient growth (Ts = 1000, a stiff model with ν ≈ 200: 2.5e-10 between mathjs and
        // ours, ours 1.4e-11 from a 60-digit e^{A·Ts})
        const nAT = Ts * Math.max(...(args.A as Matrix)[0].map((_, j) => (args.A as Matrix).reduce((a, row) => a + Math.abs(row[j]), 0)));
        // ρ(e^{A·Ts}) is at least the geometric mean of its eigenvalues' moduli, |det|^(1/n) =
        // e^(Ts·trace(A)/n): when even that bound on ν leaves the tolerance at its floor 1e-10,
        // the eigenvalues of E (an O(n³) eigensolve, most of this check's time) cannot change
        // it and are not computed
        const nA = (args.A as Matrix).length;
        const fE = froNorm(E);
        const trA = (args.A as Matrix).reduce((s, row, i) => s + row[i], 0);
        const nuBound = fE / Math.exp((Ts * trA) / nA);
        const floorOnly = Number.isFinite(nuBound) && 10 * nA * Number.EPSILON * nAT * Math.max(1, nuBound) <= 1e-10;
        const rho = floorOnly ? 0 : Math.max(...safeEigenvalues(E.to2DArray()).map(([re, im]) => Math.hypot(re, im)));
        const nu = floorOnly ? 1 : Math.max(1, fE / Math.max(rho, 1e-300));
        const tol = Math.max(1e-10, 10 * nA * Number.EPSILON * nAT * nu);
        checks.push(check('Ad = e^{A Ts}', err, tol, `Ad equals an independent e^{A·Ts}${tol > 1e-10 ? ` (to 10n·ε‖A·Ts‖₁ = ${sci(tol)})` : ''}`));
      }
      return checks;
    }
    case 'freqresp': {
      // SISO: H[k] is one [re, im] pair; MIMO: a p x m matrix of them (every entry compared)
      const w = args.w as number[];
      const siso = !Array.isArray((r.H as unknown[][])[0]?.[0]);
      const entries = (h: unknown): C[] => (siso ? [h as C] : (h as C[][]).flat());
      const dbs = (m: unknown): number[] => (siso ? [m as number] : (m as number[][]).flat());
      const idx = sampleIdx(w.length);
      const a: C[] = [];
      const b: C[] = [];
      const pts: C[] = [];
      let magErr = 0;
      let poleHits = 0;
      let poleMismatch = false;
      for (const i of idx) {
        const s: C = isDiscrete(args) ? [Math.cos(w[i] * args.Ts), Math.sin(w[i] * args.Ts)] : [0, w[i]];
        const got = entries(r.H[i]);
        // a frequency on a pole: the solver reports |H| = Infinity; it must be an eigenvalue of A
        if (got.some((z) => !Number.isFinite(cabs(z)))) {
          poleHits++;
          if (!eigNear(args.A, s)) poleMismatch = true;
          continue;
        }
        let want: C[];
        try {
          const h = evalSS(args.A, args.B, args.C, args.D, s);
          const re = h.re.to2DArray().flat();
          const im = h.im.to2DArray().flat();
          want = re.map((x, k) => [x, im[k]] as C);
        } catch {
          // singular sI - A where the solver gave a finite value
          poleMismatch = true;
          continue;
        }
        a.push(...got);
        b.push(...want);
        pts.push(...got.map(() => s));
        const mags = dbs(r.mag_db[i]);
        got.forEach((z, k) => {
          const ref = 20 * Math.log10(cabs(z));
          if (mags[k] !== ref) magErr = Math.max(magErr, Number.isFinite(ref) ? Math.abs(mags[k] - ref) / 8.686 : Infinity);
        });
      }
      const checks: Check[] = [
        curveCheck(
          'frequency response',
          a,
          b,
          pts,
          args,
          `H(jω) agrees with a dense complex solve at ${idx.length - poleHits} frequencies${siso ? '' : ', every input-output pair'}`,
        ),
        check('magnitude', magErr, 1e-9, 'mag_db = 20·log10|H|'),
      ];
      if (poleHits || poleMismatch)
        checks.push({
          name: 'poles on the axis',
          ok: !poleMismatch,
          detail: poleMismatch
            ? 'the response is infinite exactly where sI − A is not singular, or finite where it is'
            : `the ${poleHits} frequenc${poleHits === 1 ? 'y' : 'ies'} with |H| = ∞ lie on eigenvalues of A (independent eigensolver)`,
        });
      return checks;
    }
    case 'margins': {
      const evalAt = (w: number): C => {
        const s: C = isDiscrete(args) ? [Math.cos(w * args.Ts), Math.sin(w * args.Ts)] : [0, w];
        return args.num ? evalTF(args.num, args.den, s) : tfFromSS(args.A, args.B, args.C, args.D, s);
      };
      const checks: Check[] = [];
      if (Number.isFinite(r.w_gc)) {
        const h = evalAt(r.w_gc);
        checks.push(check('gain crossover', Math.abs(cabs(h) - 1), 1e-8, `|H(jω_gc)| = 1`));
        let pm = 180 + (Math.atan2(h[1], h[0]) * 180) / Math.PI;
        pm = ((((pm + 180) % 360) + 360) % 360) - 180;
        if (pm === -180) pm = 180;
        checks.push(check('phase margin', Math.abs(pm - r.pm_deg) / 180, 1e-8, 'PM = 180° + ∠H(jω_gc)'));
      }
      if (Number.isFinite(r.w_pc)) {
        const h = evalAt(r.w_pc);
        checks.push(check('phase crossover', Math.abs(h[1]) / Math.max(cabs(h), 1e-300) + (h[0] < 0 ? 0 : 1), 1e-8, 'H(jω_pc) is real and negative'));
        checks.push(check('gain margin', Math.abs(1 / cabs(h) - r.gm) / Math.max(r.gm, 1e-300), 1e-8, 'GM = 1/|H(jω_pc)|'));
      }
      return checks.length ? checks : [{ name: 'crossovers', ok: true, detail: 'no crossover to check' }];
    }
    case 'step':
    case 'impulse': {
      const m = (args.B as Matrix)[0].length,
        p = (args.C as Matrix).length;
      const mimo = m !== 1 || p !== 1;
      if (isDiscrete(args)) return mimo ? undefined : [discreteResponseCheck(tool, args, r)];
      const t = args.t as number[];
      // y[k] is a number, [y] (SISO) or p x m (MIMO: output i to a step or impulse on input j)
      const yAt = (k: number, i: number, j: number): number => {
        const v = (r.y as unknown[])[k];
        if (!Array.isArray(v)) return v as number;
        const row = v[i];
        return Array.isArray(row) ? (row[j] as number) : (row as number);
      };
      const idx = sampleIdx(t.length, 5);
      let err = 0,
        scale = 1e-300;
      // each input channel j by its own column of B: x(t) from the verifier's matrix exponential
      for (let j = 0; j < m; j++) {
        const Bj = (args.B as Matrix).map((row) => [row[j]]);
        for (const k of idx) {
          const x = tool === 'step' ? stepState(args.A, Bj, t[k]) : expmT(args.A, t[k]).map((row) => row.reduce((s, v, l) => s + v * Bj[l][0], 0));
          for (let i = 0; i < p; i++) {
            const ref = outputOf(args.C, x, i) + (tool === 'step' ? (args.D?.[i]?.[j] ?? 0) : 0);
            err = Math.max(err, Math.abs(yAt(k, i, j) - ref));
          }
        }
        for (let k = 0; k < t.length; k++) for (let i = 0; i < p; i++) scale = Math.max(scale, Math.abs(yAt(k, i, j)));
      }
      const what = mimo ? `each of the ${p}×${m} channels' y(t)` : 'y(t)';
      return [check('response samples', err / scale, 1e-8, `${what} agrees with an independent matrix exponential at ${idx.length} times`)];
    }
    case 'stepinfo': {
      const yAt = (t: number) => outputOf(args.C, stepState(args.A, args.B, t)) + (args.D?.[0]?.[0] ?? 0);
      const y0 = args.D?.[0]?.[0] ?? 0;
      const yf = r.final_value as number;
      const span = Math.abs(yf - y0);
      const checks: Check[] = [];
      if (Number.isFinite(r.settling_time) && r.settling_time > 0) {
        const e = Math.abs(Math.abs(yAt(r.settling_time) - yf) - 0.02 * span) / span;
        checks.push(check('settling time', e, 1e-6, '|y(t_s) − y_f| = 2% of the step'));
      }
      if (Number.isFinite(r.peak_time)) {
        const e = Math.abs(Math.abs(yAt(r.peak_time)) - r.peak) / Math.max(Math.abs(r.peak), 1e-300);
        checks.push(check('peak', e, 1e-8, 'y(t_peak) = peak'));
      }
      if (args.spec) checks.push(stepSpecCheck(args.spec, r));
      return checks;
    }
    case 'dcgain': {
      const g = r.gain as Matrix;
      const at: C = isDiscrete(args) ? [1, 0] : [0, 0];
      if (g.flat().some((v) => !Number.isFinite(v))) {
        // an infinite gain needs a pole exactly there: num/den or eig(A) must have one
        const poles = args.num ? polyRootsNear(args.den, at) : 0;
        const near = args.num ? poles : eigNear(args.A, at);
        return [{ name: 'pole at DC', ok: near > 0, detail: `a pole at ${isDiscrete(args) ? 'z = 1' : 's = 0'} makes the gain infinite` }];
      }
      // H at DC directly; where sI − A (den) is singular there but the gain is finite (a pole
      // at DC that the channel does not see: uncontrollable, unobservable or cancelled) H(DC)
      // is a limit, and the solve threw: extrapolated from δ, 2δ, 3δ as 3H(δ) − 3H(2δ) + H(3δ)
      // (error O(δ³), δ = 1e-6 of the model's scale, rounding about 7ε/δ), to 1e-6
      const Hat = (z: C): number[][] | null => {
        try {
          const v = args.num ? [[evalTF(args.num, args.den, z)[0]]] : evalSS(args.A, args.B, args.C, args.D, z).re.to2DArray();
          return v.flat().every(Number.isFinite) ? v : null;
        } catch {
          return null;
        }
      };
      let h = Hat(at);
      let how = args.num ? `num/den evaluated at ${isDiscrete(args) ? 'z = 1' : 's = 0'}` : 'D − CA⁻¹B by an independent solve';
      let tol = 1e-8;
      if (!h) {
        const scale = args.num ? 1 : Math.max(1, froNorm(new M(args.A)));
        const dlt = 1e-6 * scale;
        const [h1, h2, h3] = [1, 2, 3].map((k) => Hat([at[0] + k * dlt, 0]));
        if (h1 && h2 && h3) h = h1.map((row, i) => row.map((v, j) => 3 * v - 3 * h2[i][j] + h3[i][j]));
        how = `the limit at ${isDiscrete(args) ? 'z = 1' : 's = 0'} (a pole there that the channel does not see), by extrapolation`;
        tol = 1e-6;
      }
      if (!h) return [{ name: 'DC gain', ok: false, detail: 'H could not be evaluated near DC' }];
      const hm = new M(h);
      const err = froNorm(hm.clone().sub(new M(g))) / Math.max(froNorm(hm), 1e-300);
      return [check('DC gain', err, tol, how)];
    }
    case 'poles_zeros': {
      if (!args.A) {
        // roots of den and num: each reported value makes its polynomial vanish (relative)
        const resid = (p: number[], roots: C[]) =>
          Math.max(
            0,
            ...roots.map(
              (z) =>
                cabs(polyval(p, z)) /
                Math.max(
                  1e-300,
                  p.reduce((acc, c, i) => acc + Math.abs(c) * Math.pow(Math.max(1, cabs(z)), p.length - 1 - i), 0),
                ),
            ),
          );
        const rp = resid(args.den, r.poles as C[]);
        const rz = resid(args.num, r.zeros as C[]);
        return [check('poles', rp, 1e-9, 'den vanishes at each pole'), check('zeros', rz, 1e-9, 'num vanishes at each zero')];
      }
      const A = args.A as Matrix,
        B = args.B as Matrix,
        Cm = args.C as Matrix;
      const n = A.length,
        m = B[0].length,
        p = Cm.length;
      const D = args.D && args.D.length ? (args.D as Matrix) : Array.from({ length: p }, () => new Array(m).fill(0));
      const zeros = r.zeros as C[];
      if (!zeros.length) return [{ name: 'zeros', ok: true, detail: 'no finite zeros to check' }];
      // each zero makes the Rosenbrock matrix [A − zI, B; C, D] lose rank (real 2x embedding)
      const norm = Math.max(1, ...[...A, ...B, ...Cm, ...D].map((row) => row.reduce((s, v) => s + Math.abs(v), 0)));
      let worst = 0;
      // an SVD of the 2(n+p) x 2(n+m) real form per zero: at most 16 zeros, spread over the
      // sorted list (127 zeros at n = 128 took 8 s), and the detail says how many
      const checked = sampleItems(zeros, 16);
      for (const [zr, zi] of checked) {
        const N = n + p,
          K = n + m;
        const big = new M(2 * N, 2 * K);
        for (let i = 0; i < N; i++)
          for (let j = 0; j < K; j++) {
            let v = i < n ? (j < n ? A[i][j] - (i === j ? zr : 0) : B[i][j - n]) : j < n ? Cm[i - n][j] : D[i - n][j - n];
            big.set(i, j, v);
            big.set(N + i, K + j, v);
            v = i < n && j < n && i === j ? -zi : 0;
            big.set(i, K + j, -v);
            big.set(N + i, j, v);
          }
        const sv = safeSingularValues(big);
        worst = Math.max(worst, sv[sv.length - 1] / (norm + Math.hypot(zr, zi)));
      }
      return [
        check(
          'zeros',
          worst,
          1e-6,
          checked.length === zeros.length
            ? 'the system matrix loses rank at each zero'
            : `the system matrix loses rank at ${checked.length} of the ${zeros.length} zeros (spread over the list)`,
        ),
      ];
    }
    case 'h2norm': {
      if (!Number.isFinite(r.h2)) {
        const hasD = !isDiscrete(args) && (args.D ?? []).flat().some((v: number) => v !== 0);
        const unstable = safeEigenvalues(args.A).some(([re, im]) =>
          isDiscrete(args) ? Math.hypot(re, im) >= 1 - 1e-9 : re >= -1e-9 * Math.max(1, cabs([re, im])),
        );
        return [
          {
            name: 'unbounded',
            ok: hasD || unstable,
            detail: hasD
              ? 'D ≠ 0 in continuous time makes the H2 norm infinite'
              : unstable
                ? 'a pole on or beyond the stability boundary makes the H2 norm infinite'
                : 'the H2 norm is given as infinite, but every pole of A is inside the stability boundary (independent eigensolver) and D = 0, so it is finite',
          },
        ];
      }
      if (args.A.length > 20) return undefined;
      // h2² = trace(Bᵀ W B) (+ trace(DᵀD) discrete), AᵀW + WA + CᵀC = 0 or AᵀWA − W + CᵀC = 0
      return [dualGramianCheck(args, r.h2, isDiscrete(args))];
    }
    case 'hinfnorm': {
      if (!Number.isFinite(r.hinf)) {
        const bad = safeEigenvalues(args.A).some(([re, im]) => (isDiscrete(args) ? Math.hypot(re, im) >= 1 - 1e-9 : re >= -1e-9 * Math.max(1, cabs([re, im]))));
        return [
          bad
            ? { name: 'unbounded', ok: true, detail: 'A has a pole on or beyond the stability boundary, so the gain is unbounded' }
            : {
                name: 'unbounded',
                ok: false,
                detail: 'the norm is given as infinite, but every pole of A is inside the stability boundary (independent eigensolver), so the gain is bounded',
              },
        ];
      }
      if (!Number.isFinite(r.fpeak)) {
        // the peak is approached as ω → ∞: the norm is σmax(D)
        const D = new M(args.D && args.D.length ? args.D : [[0]]);
        const sd = safeSingularValues(D)[0] ?? 0;
        return [check('peak at infinity', Math.abs(sd - r.hinf) / Math.max(r.hinf, 1e-300), 1e-8, 'the norm equals σmax(D), the gain as ω → ∞')];
      }
      const sigmaAt = (w: number) => {
        const s: C = isDiscrete(args) ? [Math.cos(w * args.Ts), Math.sin(w * args.Ts)] : [0, w];
        const h = evalSS(args.A, args.B, args.C, args.D, s);
        const p = h.re.rows,
          m = h.re.columns;
        const big = new M(2 * p, 2 * m);
        big.setSubMatrix(h.re, 0, 0).setSubMatrix(h.im.clone().mul(-1), 0, m).setSubMatrix(h.im, p, 0).setSubMatrix(h.re, p, m);
        return safeSingularValues(big)[0];
      };
      // relative to the larger of the two (a zero norm, C = 0, is 0 against 0, not 0/0)
      const sPeak = sigmaAt(r.fpeak);
      const atPeak = Math.abs(sPeak - r.hinf) / Math.max(r.hinf, sPeak, Number.MIN_VALUE);
      // nowhere on a log grid may the gain exceed the norm
      const top = isDiscrete(args) ? Math.PI / args.Ts : 1e6 * Math.max(1, r.fpeak);
      let over = 0;
      for (let k = 0; k <= 60; k++) {
        const w = isDiscrete(args) ? (top * k) / 60 : 1e-4 * Math.pow(top / 1e-4, k / 60);
        const sw = sigmaAt(w);
        over = Math.max(over, (sw - r.hinf) / Math.max(r.hinf, sw, Number.MIN_VALUE));
      }
      return [
        check('gain at the peak', atPeak, 1e-6, 'σmax(H) at the peak frequency equals the norm'),
        check('norm bounds the gain', Math.max(0, over), 1e-6, 'no frequency on a 61-point grid exceeds it'),
      ];
    }
    case 'rlocus':
      return verifyRlocus(args, r);
    case 'nyquist':
      return verifyNyquist(args, r);
    default:
      return undefined;
  }
}

/**
 * Up to 8 test points: on rings whose radii span the poles' moduli (half the smallest to twice
 * the largest, log-spaced), on each the angle in the upper half-plane farthest from every pole;
 * a point closer to a pole than 5 % of its radius is not used. Moduli below `floor` (1e-6) of
 * the largest set no ring.
 */
export function ringTestPoints(poles: Complex[], floor = 1e-6): Complex[] {
  const all = poles.map(([a, b]) => Math.hypot(a, b)).filter((x) => Number.isFinite(x));
  // a pole at 0 computed as 1e-16 (a den ending in −1.4e-16), or a double pole at 0 of a Jordan
  // block split by √ε into ±1.3e-8, sets no scale: rings down there sit on top of it, where the
  // response is round-off or the split itself; moduli below 1e-6 of the largest count as 0
  const top = Math.max(0, ...all);
  const mods = all.filter((x) => x > floor * top);
  const lo = mods.length ? Math.min(...mods) / 2 : 0.5;
  const hi = mods.length ? Math.max(...mods) * 2 : 2;
  const k = 8;
  const pts: Complex[] = [];
  for (let i = 0; i < k; i++) {
    const r = lo * (hi / lo) ** (i / (k - 1));
    let best: Complex | undefined,
      bd = -1;
    for (let j = 0; j < 12; j++) {
      const th = (Math.PI * (j + 0.5)) / 12;
      const s: Complex = [r * Math.cos(th), r * Math.sin(th)];
      const d = Math.min(Infinity, ...poles.map((q) => Math.hypot(q[0] - s[0], q[1] - s[1])));
      if (d > bd) {
        bd = d;
        best = s;
      }
    }
    if (best && bd >= 0.05 * r) pts.push(best);
  }
  return pts;
}

/**
 * The verdicts of stepinfo against design targets follow from its (checked) numbers: each
 * target given is listed once, and pass/fail is recomputed here from the measured value —
 * maxima for the times and the overshoot, minima for ζ (−ln Mp/√(π² + ln² Mp), 1 without
 * overshoot) and ωn (π/(tp√(1−ζ²)), none without overshoot) — with the same 1e-6 slack.
 */
export function stepSpecCheck(spec: Record<string, number>, r: Record<string, any>): Check {
  const items = (r.spec ?? []) as { key: string; pass: boolean }[];
  const keys = ['overshoot_pct', 'settling_time', 'rise_time', 'peak_time', 'zeta', 'wn'].filter((k) => typeof spec[k] === 'number');
  const mp = r.overshoot_pct / 100;
  const z = mp > 0 ? Math.log(1 / mp) / Math.hypot(Math.PI, Math.log(mp)) : 1;
  const measured: Record<string, number> = {
    overshoot_pct: r.overshoot_pct,
    settling_time: r.settling_time,
    rise_time: r.rise_time,
    peak_time: r.peak_time,
    zeta: z,
    wn: mp > 0 && Number.isFinite(r.peak_time) ? Math.PI / (r.peak_time * Math.sqrt(1 - z * z)) : NaN,
  };
  const expect = (k: string) =>
    k === 'zeta'
      ? measured.zeta >= Math.min(spec.zeta, 1) * (1 - 1e-6)
      : k === 'wn'
        ? measured.wn >= spec.wn * (1 - 1e-6)
        : measured[k] <= spec[k] * (1 + 1e-6);
  const wrong = keys.filter((k) => items.filter((i) => i.key === k).length !== 1 || items.find((i) => i.key === k)!.pass !== expect(k));
  const ok = items.length === keys.length && wrong.length === 0;
  return {
    name: 'specification verdicts',
    ok,
    detail: ok
      ? `each of ${keys.length} verdicts follows from the measured values`
      : `verdicts disagree with the measured values: ${wrong.join(', ') || 'items listed twice or not asked'}`,
  };
}
