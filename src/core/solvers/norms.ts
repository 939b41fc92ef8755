/**
 * System norms: H2 (from the controllability Gramian, a Lyapunov equation) and H-infinity
 * (Boyd-Balakrishnan-Bruinsma-Steinbuch level-set iteration on the Hamiltonian matrix;
 * discrete systems through the norm-preserving bilinear map of the unit circle onto the
 * imaginary axis).
 *
 * Unstable models (issue 13): their H2 and H∞ norms are infinite (G is not in H2 or H∞), but
 * the norms of the frequency response on the imaginary axis (unit circle) are finite when no
 * pole lies on it, and a control engineer asks for them (MATLAB's norm(sys, Inf) and
 * python-control's linfnorm give the L∞ norm of an unstable model):
 * - L∞ = sup_ω σ̄(G(jω)) by the same level-set method: the Hamiltonian's imaginary eigenvalues
 *   are the frequencies where γ is a singular value of G(jω) whenever A has no eigenvalue on
 *   the imaginary axis; stability is not used (Boyd, Balakrishnan & Kabamba 1989; Bruinsma &
 *   Steinbuch 1990), only the H∞ reading of the peak needs it.
 * - L2² = (1/2π)∫‖G(jω)‖_F² dω by the stable/antistable decomposition: an ordered real Schur
 *   form (stable block first) block-diagonalised by a Sylvester equation, G = Gs + Gu with Gs
 *   stable and Gu antistable; H2 and its orthogonal complement are orthogonal in L2, so
 *   L2² = ‖Gs‖₂² + ‖Gu(−s)‖₂² (Zhou, Doyle & Glover, Robust and Optimal Control, §4.3). A
 *   continuous D ≠ 0 makes it infinite (‖G(jω)‖ → ‖D‖). Discrete: the Laurent series of G on
 *   the unit circle (Parseval), the antistable part's anticausal coefficients −Cu Au^−(k+1) Bu.
 */
import { EigenvalueDecomposition, Matrix as MlMatrix } from 'ml-matrix';
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import { renderH2, renderHinf } from '../render/results.js';
import { GENERATORS } from '../codegen/code.js';
import type { Matrix } from '../types.js';
import {
  EPS,
  add,
  block,
  blocks,
  eye,
  fromRows,
  luFactor,
  luSolve,
  luSolveRight,
  mul,
  normF,
  rcondByInverse,
  scale,
  symmetrize,
  toRows,
  transpose,
  zeros,
  type Mat,
} from '../linalg/dense.js';
import { hessenbergSystem, hessShiftSolve } from '../linalg/hessenberg.js';
import { eigvalsSorted, realSchur, reorderSchur, schurEigenvalues } from '../linalg/schur.js';
import { readSS, scaleGuard, ssProps, tsProp, type SS } from './_sys.js';
import { lyapunovMat, prepareLyapunov } from './lyapunov.js';
import { triangularSylvester } from './matrixeq.js';

// ------------------------------------------------------------------ H2

export function h2norm(sys: SS): number {
  const { D, n, Ts } = sys;
  const A = fromRows(sys.A);
  // continuous with D != 0: Infinity whatever A is (checked below before anything else is used)
  const dNonzero = D.some((r) => r.some((v) => v !== 0));
  // A's Schur form serves both the stability test (its eigenvalues) and the Gramian's equation
  const lyap = n && (Ts > 0 || !dNonzero) ? prepareLyapunov(A, Ts > 0) : null;
  const ev = lyap ? lyap.eigenvalues : [];
  const nrm = Math.max(normF(A), 1e-300);
  if (Ts > 0) {
    if (ev.some(([r, i]) => Math.hypot(r, i) >= 1 - 1e3 * EPS * Math.max(1, nrm))) return Infinity;
  } else {
    if (dNonzero) return Infinity;
    if (ev.some(([r]) => r >= -1e3 * EPS * nrm)) return Infinity;
  }
  // no states (a static gain): continuous, D = 0 here (D != 0 returned Infinity above), so 0;
  // discrete, the pulse response is D at k = 0 only, so ||D||_F
  if (n === 0) return Ts > 0 ? Math.sqrt(D.reduce((s, r) => s + r.reduce((a, v) => a + v * v, 0), 0)) : 0;
  const B = fromRows(sys.B),
    C = fromRows(sys.C);
  const BBt = mul(B, transpose(B));
  const P = lyap!.solve(BBt);
  const CPCt = mul(mul(C, P), transpose(C));
  let tr = 0;
  for (let i = 0; i < CPCt.r; i++) tr += CPCt.d[i * CPCt.c + i];
  if (Ts > 0) for (const r of D) for (const v of r) tr += v * v;
  return Math.sqrt(Math.max(tr, 0));
}

// ------------------------------------------------------------------ H-infinity

/**
 * largest singular value of a complex p x m matrix (re, im), computed on the matrix scaled by
 * the power of 2 of its largest entry (H^H H of entries near 1e200 overflowed, and the
 * eigensolver threw a TypeError on the Infinity); Infinity when an entry is not finite
 */
export function sigmaMax(re0: Matrix | Mat, im0: Matrix | Mat): number {
  const re = Array.isArray(re0) ? fromRows(re0) : re0;
  const im = Array.isArray(im0) ? fromRows(im0) : im0;
  let mx = 0;
  for (const M of [re, im]) for (const v of M.d) mx = Math.max(mx, Math.abs(v));
  if (!(mx <= Number.MAX_VALUE)) return mx === Infinity ? Infinity : NaN;
  if (mx === 0) return 0;
  const k = Math.round(Math.log2(mx));
  return times2k(sigmaMaxUnit(times2k(re, -k), times2k(im, -k)), k);
}

function sigmaMaxUnit(re: Mat, im: Mat): number {
  const p = re.r;
  const m = re.c;
  const hr = re.d,
    hi = im.d;
  if (p === 1 || m === 1) {
    let s = 0;
    for (let i = 0; i < p * m; i++) s += hr[i] * hr[i] + hi[i] * hi[i];
    return Math.sqrt(s);
  }
  // G = H^H H (m x m Hermitian) as the real symmetric [Gr -Gi; Gi Gr]
  const Gr = zeros(m, m);
  const Gi = zeros(m, m);
  for (let a = 0; a < m; a++) {
    for (let b = 0; b < m; b++) {
      let sr = 0;
      let si = 0;
      for (let i = 0; i < p; i++) {
        // conj(H[i][a]) * H[i][b]
        const ra = hr[i * m + a],
          ia = hi[i * m + a],
          rb = hr[i * m + b],
          ib = hi[i * m + b];
        sr += ra * rb + ia * ib;
        si += ra * ib - ia * rb;
      }
      Gr.d[a * m + b] = sr;
      Gi.d[a * m + b] = si;
    }
  }
  // exactly symmetric for the symmetric solver
  const M = symmetrize(
    blocks([
      [Gr, scale(Gi, -1)],
      [Gi, Gr],
    ]),
  );
  const e = new EigenvalueDecomposition(new MlMatrix(toRows(M)), { assumeSymmetric: true });
  return Math.sqrt(Math.max(0, Math.max(...e.realEigenvalues)));
}

/** sigma_max(H(jw)) evaluator for a continuous system, with one Hessenberg reduction */
function gainEvaluator(A: Mat, B: Mat, C: Mat, D: Mat): (w: number) => number {
  const { H, Bt, Ct } = hessenbergSystem(A, B, C);
  const p = C.r;
  const m = B.c;
  const n = Ct.c;
  return (w: number) => {
    if (w === Infinity) return sigmaMax(D, zeros(p, m));
    const X = hessShiftSolve(H, 0, w, Bt);
    if (!X) return Infinity;
    const re = zeros(p, m);
    const im = zeros(p, m);
    const ct = Ct.d,
      xr = X.re.d,
      xi = X.im.d;
    for (let i = 0; i < p; i++) {
      for (let j = 0; j < m; j++) {
        let a = D.d[i * m + j];
        let b = 0;
        for (let l = 0; l < n; l++) {
          a += ct[i * n + l] * xr[l * m + j];
          b += ct[i * n + l] * xi[l * m + j];
        }
        re.d[i * m + j] = a;
        im.d[i * m + j] = b;
      }
    }
    return sigmaMax(re, im);
  };
}

/** Hamiltonian whose imaginary eigenvalues j·w are the frequencies where gamma is a singular value of H(jw) */
function hamiltonian(A: Mat, B: Mat, C: Mat, D: Mat, g: number): Mat {
  const m = B.c;
  const p = C.r;
  const Dt = transpose(D);
  const R = add(mul(Dt, D), scale(eye(m), g * g), -1); // D'D - g^2 I
  const S = add(mul(D, Dt), scale(eye(p), g * g), -1); // DD' - g^2 I
  const fR = luFactor(R);
  const fS = luFactor(S);
  const RiDtC = luSolve(fR, mul(Dt, C)); // R^-1 D' C
  const RiBt = luSolve(fR, transpose(B)); // R^-1 B'
  const SiC = luSolve(fS, C); // S^-1 C
  const H11 = add(A, mul(B, RiDtC), -1);
  const H12 = scale(mul(B, RiBt), -g);
  const H21 = scale(mul(transpose(C), SiC), g);
  const H22 = add(scale(transpose(A), -1), mul(transpose(C), mul(D, RiBt)));
  return blocks([
    [H11, H12],
    [H21, H22],
  ]);
}

export interface HinfResult {
  hinf: number;
  /** rad/s; Infinity when the supremum is approached as w -> infinity */
  fpeak: number;
}

/** H-infinity norm of a stable continuous system (BBBS level-set iteration), relative tolerance tol */
function hinfContinuous(A: Mat, B: Mat, C: Mat, D: Mat, tol = 1e-12): HinfResult {
  const n = A.r;
  const gain = gainEvaluator(A, B, C, D);
  const ev = n ? eigvalsSorted(A) : [];
  // initial lower bound: w = 0, w = infinity, and the pole frequencies
  const cands = new Set<number>([0]);
  let wlo = Infinity;
  let whi = 0;
  for (const [re, im] of ev) {
    if (im !== 0) cands.add(Math.abs(im));
    const r = Math.hypot(re, im);
    cands.add(r);
    if (r > 0) {
      wlo = Math.min(wlo, r);
      whi = Math.max(whi, r);
    }
  }
  // and a log grid over the poles' frequencies: when the best candidate is w = ∞ (σmax(D))
  // while the peak is finite, the first level sits just above σmax(D), D'D − γ²I is nearly
  // singular and the Hamiltonian's imaginary eigenvalues drown in its 1e12 norm (a discrete
  // model missed its peak by 2e-4 that way); a lower bound from a finite frequency avoids it
  if (whi > 0) for (let i = 0; i <= 60; i++) cands.add(wlo * 1e-2 * Math.pow((whi * 1e2) / (wlo * 1e-2), i / 60));
  let glb = gain(Infinity);
  let fpeak = Infinity;
  for (const w of cands) {
    const g = gain(w);
    if (g > glb) {
      glb = g;
      fpeak = w;
    }
  }
  if (n === 0 || glb === 0) return { hinf: glb, fpeak: glb === 0 ? 0 : fpeak };
  for (let it = 0; it < 60; it++) {
    const g = (1 + 2 * tol) * glb;
    const M = hamiltonian(A, B, C, D, g);
    const nrmM = normF(M);
    const lam = eigvalsSorted(M);
    const ws: number[] = [];
    for (const [re, im] of lam) if (im >= 0 && Math.abs(re) <= 1e-6 * Math.hypot(re, im) + 1e-9 * nrmM) ws.push(im);
    ws.sort((a, b) => a - b);
    if (ws.length === 0) break;
    let improved = false;
    const pts = ws.length === 1 ? [ws[0]] : ws.slice(1).map((w, i) => 0.5 * (w + ws[i]));
    for (const w of pts) {
      const gw = gain(w);
      if (gw > glb) {
        if (gw > glb * (1 + 2 * tol)) improved = true;
        glb = gw;
        fpeak = w;
      }
    }
    if (!improved) break;
  }
  // polish the peak frequency (golden section on the gain around fpeak)
  if (Number.isFinite(fpeak) && fpeak > 0) {
    let a = fpeak * (1 - 1e-3);
    let b = fpeak * (1 + 1e-3);
    const gr = (Math.sqrt(5) - 1) / 2;
    let x1 = b - gr * (b - a);
    let x2 = a + gr * (b - a);
    let f1 = gain(x1);
    let f2 = gain(x2);
    for (let k = 0; k < 60 && b - a > 1e-15 * fpeak; k++) {
      if (f1 < f2) {
        a = x1;
        x1 = x2;
        f1 = f2;
        x2 = a + gr * (b - a);
        f2 = gain(x2);
      } else {
        b = x2;
        x2 = x1;
        f2 = f1;
        x1 = b - gr * (b - a);
        f1 = gain(x1);
      }
    }
    const xm = f1 > f2 ? x1 : x2;
    const fm = Math.max(f1, f2);
    if (fm > glb) {
      glb = fm;
      fpeak = xm;
    }
  }
  return { hinf: glb, fpeak };
}

/** the peak of σ̄(G) over frequency (rad/s, up to π/Ts when discrete), for A with no eigenvalue on the stability boundary */
function peakGain(A: Mat, B: Mat, C: Mat, D: Mat, Ts: number): HinfResult {
  const n = A.r;
  if (!(Ts > 0)) return hinfContinuous(A, B, C, D);
  // bilinear map z = (1 + s)/(1 - s) (or of -z when A has an eigenvalue near -1)
  const I = eye(n);
  let flip = false;
  let Aa = A;
  let Bb = B;
  if (!(rcondByInverse(add(I, A)) > 1e-8)) {
    flip = true;
    Aa = scale(A, -1);
    Bb = scale(B, -1);
  }
  const f = luFactor(add(I, Aa));
  const FA = luSolve(f, add(Aa, I, -1)); // F (A - I)
  const FB = luSolve(f, Bb);
  const CF = luSolveRight(f, C);
  const r2 = Math.SQRT2;
  const Ac = FA;
  const Bc = scale(FB, r2);
  const Cc = scale(CF, r2);
  const Dc = add(D, mul(C, FB), -1);
  const res = hinfContinuous(Ac, Bc, Cc, Dc);
  let th = res.fpeak === Infinity ? Math.PI : 2 * Math.atan(res.fpeak);
  if (flip) th = Math.PI - th;
  return { hinf: res.hinf, fpeak: th / Ts };
}

/** where the poles lie: strictly beyond the stability boundary, and on it (to 1e3·ε·‖A‖) */
export interface PoleCount {
  /** poles in the open right half-plane (outside the closed unit disc when discrete) */
  unstable: number;
  /** poles on the imaginary axis (unit circle) */
  boundary: number;
  /** the frequency (rad/s) of the first boundary pole (of the rightmost pole when continuous) */
  wBoundary: number;
  /** the frequency of the rightmost (outermost) pole on or beyond the boundary */
  wWorst: number;
}

/**
 * The one stability classification both norms use: continuous, Re λ against ±1e3·ε·‖A‖_F;
 * discrete, |λ| − 1 against ±1e3·ε·max(1, ‖A‖_F) (the H∞ and H2 tests' tolerance). A pole
 * within the tolerance is on the boundary: the gain is unbounded near it.
 */
export function countPoles(ev: readonly [number, number][], Ts: number, nrmA: number): PoleCount {
  const nrm = Math.max(nrmA, 1e-300);
  const tol = Ts > 0 ? 1e3 * EPS * Math.max(1, nrm) : 1e3 * EPS * nrm;
  let unstable = 0,
    boundary = 0,
    wBoundary = NaN,
    wWorst = NaN,
    reBoundary = -Infinity,
    reWorst = -Infinity;
  for (const [re, im] of ev) {
    const d = Ts > 0 ? Math.hypot(re, im) - 1 : re;
    if (d < -tol) continue;
    const w = Ts > 0 ? Math.abs(Math.atan2(im, re)) / Ts : Math.abs(im);
    if (d > tol) unstable++;
    else {
      boundary++;
      if (Ts > 0 || re > reBoundary) {
        reBoundary = re;
        wBoundary = w;
      }
    }
    // discrete: the last such pole, as hinfnorm has always reported; continuous: the rightmost
    if (Ts > 0 || re > reWorst) {
      reWorst = re;
      wWorst = w;
    }
  }
  return { unstable, boundary, wBoundary, wWorst };
}

export function hinfnorm(sys: SS): HinfResult {
  const { n, Ts } = sys;
  // no states (a static gain): the gain is sigma_max(D) at every frequency; fpeak = 0, the
  // first frequency that attains it
  if (n === 0)
    return {
      hinf: sigmaMax(
        sys.D,
        sys.D.map((r) => r.map(() => 0)),
      ),
      fpeak: 0,
    };
  const A = fromRows(sys.A),
    B = fromRows(sys.B),
    C = fromRows(sys.C),
    D = fromRows(sys.D);
  const pc = countPoles(eigvalsSorted(A), Ts, normF(A));
  if (pc.unstable || pc.boundary) return { hinf: Infinity, fpeak: pc.wWorst };
  return finiteOrRefused(peakGain(A, B, C, D, Ts), 'hinfnorm', 'every pole of A is inside the stability boundary');
}

/**
 * L∞ norm sup_ω σ̄(G(jω)) (or on the unit circle) and its frequency, for any model: equal to
 * the H∞ norm when the model is stable, finite for an unstable model with no pole on the
 * boundary (the level-set method does not use stability: module comment), infinite with a
 * pole on it (fpeak: that pole's frequency).
 */
export function linfnorm(sys: SS): HinfResult & { poles: PoleCount } {
  const { n, Ts } = sys;
  if (n === 0) return { ...hinfnorm(sys), poles: { unstable: 0, boundary: 0, wBoundary: NaN, wWorst: NaN } };
  const A = fromRows(sys.A),
    B = fromRows(sys.B),
    C = fromRows(sys.C),
    D = fromRows(sys.D);
  const poles = countPoles(eigvalsSorted(A), Ts, normF(A));
  if (poles.boundary) return { hinf: Infinity, fpeak: poles.wBoundary, poles };
  return { ...finiteOrRefused(peakGain(A, B, C, D, Ts), 'hinfnorm', 'no pole of A is on the stability boundary'), poles };
}

/** a bounded norm that overflowed is refused with the reason, never an Infinity that reads as "unstable" */
function finiteOrRefused(r: HinfResult, tool: string, why: string): HinfResult {
  if (Number.isFinite(r.hinf)) return r;
  throw new ControlError(
    `${tool}: ${why}, so the norm is finite, but the gain overflowed double precision on the way (entries of B, C or D of extreme size); rescale the inputs or outputs so that their entries are nearer 1.`,
    'numerical',
  );
}

// ------------------------------------------------------------------ L2 of an unstable model

/**
 * L2 norm (1/2π ∫‖G(jω)‖_F² dω)^½ of any model, or over the unit circle when discrete (module
 * comment): the H2 norm when stable; for an unstable model with no pole on the boundary the
 * stable part's H2 norm and the mirrored antistable part's combined; Infinity with a pole on
 * the boundary or, continuous, with D ≠ 0. `poles` from the same Schur form.
 */
export function l2norm(sys: SS): { l2: number; poles: PoleCount } {
  const { D, n, Ts } = sys;
  const none: PoleCount = { unstable: 0, boundary: 0, wBoundary: NaN, wWorst: NaN };
  const dF2 = D.reduce((s, r) => s + r.reduce((a, v) => a + v * v, 0), 0);
  if (n === 0) return { l2: Ts > 0 ? Math.sqrt(dF2) : dF2 ? Infinity : 0, poles: none };
  const A = fromRows(sys.A);
  const { T, Z } = realSchur(A);
  const poles = countPoles(schurEigenvalues(T), Ts, normF(A));
  if (poles.boundary || (!(Ts > 0) && dF2 > 0)) return { l2: Infinity, poles };
  if (!poles.unstable) return { l2: h2norm(sys), poles };
  // stable eigenvalues first: A = Z T Zᵀ, T = [T11 T12; 0 T22]
  const k = reorderSchur(T, Z, (re, im) => (Ts > 0 ? Math.hypot(re, im) < 1 : re < 0));
  const m = n - k;
  const T11 = block(T, 0, 0, k, k),
    T12 = block(T, 0, k, k, m),
    T22 = block(T, k, k, m, m);
  // Y with T11 Y − Y T22 + T12 = 0: [I −Y; 0 I] T [I Y; 0 I] = diag(T11, T22). The two blocks'
  // eigenvalues lie on either side of the boundary, so the equation is nonsingular
  const Y = k ? triangularSylvester(T11, scale(T22, -1), T12, false) : zeros(0, m);
  const ZB = mul(transpose(Z), fromRows(sys.B)),
    CZ = mul(fromRows(sys.C), Z);
  const B1 = block(ZB, 0, 0, k, ZB.c),
    B2 = block(ZB, k, 0, m, ZB.c);
  const C1 = block(CZ, 0, 0, CZ.r, k),
    C2 = block(CZ, 0, k, CZ.r, m);
  const Bs = add(B1, mul(Y, B2), -1); // stable part (T11, B1 − Y B2, C1)
  const Cu = add(mul(C1, Y), C2); // antistable part (T22, B2, C1 Y + C2)
  const trCPC = (Cm: Mat, P: Mat) => {
    const M = mul(mul(Cm, P), transpose(Cm));
    let t = 0;
    for (let i = 0; i < M.r; i++) t += M.d[i * M.c + i];
    return Math.max(t, 0);
  };
  const discrete = Ts > 0;
  const s2 = k ? trCPC(C1, lyapunovMat(T11, mul(Bs, transpose(Bs)), discrete)) : 0;
  let u2: number;
  let d2 = 0;
  if (!discrete) {
    // Gu(−s) = (−T22, B2, −Cu): −T22 X + X (−T22)ᵀ + B2 B2ᵀ = 0
    u2 = trCPC(Cu, lyapunovMat(scale(T22, -1), mul(B2, transpose(B2)), false));
  } else {
    // anticausal coefficients −Cu F^{k+1} B2 (F = T22⁻¹, stable): k = 0 meets D, k ≥ 1 form
    // the H2 norm of (F, F B2, Cu F)
    const f = luFactor(T22);
    const F = luSolve(f, eye(m));
    const FB = luSolve(f, B2);
    const CF = luSolveRight(f, Cu);
    u2 = trCPC(CF, lyapunovMat(F, mul(FB, transpose(FB)), true));
    const D0 = add(fromRows(D), mul(CF, B2), -1);
    for (const v of D0.d) d2 += v * v;
  }
  return { l2: Math.sqrt(s2 + u2 + d2), poles };
}

// ------------------------------------------------------------------ extreme input and output scales

/** k with 2^k near the largest |entry|; 0 for a zero matrix */
function pow2Exp(M: Matrix): number {
  let mx = 0;
  for (const r of M) for (const v of r) mx = Math.max(mx, Math.abs(v));
  return mx > 0 && Number.isFinite(mx) ? Math.round(Math.log2(mx)) : 0;
}

/** x·2^k (exact while normal), entrywise for a matrix, in two factors so that each is a double */
function times2k(x: number, k: number): number;
function times2k(M: Matrix, k: number): Matrix;
function times2k(M: Mat, k: number): Mat;
function times2k(M: number | Matrix | Mat, k: number): number | Matrix | Mat {
  const k1 = Math.trunc(k / 2);
  const f1 = 2 ** k1,
    f2 = 2 ** (k - k1);
  if (typeof M === 'number') return M * f1 * f2;
  if (Array.isArray(M)) return M.map((r) => r.map((v) => v * f1 * f2));
  return { r: M.r, c: M.c, d: M.d.map((v) => v * f1 * f2) };
}

/**
 * Both norms are linear in the input and output scales: ‖(A, B/b, C/c, D/(bc))‖ = ‖(A, B, C, D)‖/(bc).
 * With B or C far from 1 (beyond 2^±100) the norms are computed for B, C near 1 and scaled
 * back by the power of 2 (exact): with B near 1e-307, BB' underflowed to 0 and the H2 norm came
 * out 0; with B and C near 1e100, H^H H overflowed and the H-infinity norm's eigensolver failed.
 */
function ioScaled(sys: SS): { sys: SS; k: number } {
  if (sys.n === 0) return { sys, k: 0 };
  const kb = pow2Exp(sys.B);
  const kc = pow2Exp(sys.C);
  if (Math.abs(kb) <= 100 && Math.abs(kc) <= 100) return { sys, k: 0 };
  const k = kb + kc;
  // D scales with B·C; leave the model as it is when that would make D overflow (B, C far
  // below 1, D near 1: the norm is then σmax(D) to rounding anyway). A D that becomes tiny is
  // kept: it is below the rounding of the scaled gain (A = -2, B = 1e300, C = D = 1 was left
  // unscaled, B·B' overflowed and the norm came out Infinity for a stable model)
  if (sys.D.some((r) => r.some((v) => v !== 0)) && pow2Exp(sys.D) - k > 900) return { sys, k: 0 };
  return { sys: { ...sys, B: times2k(sys.B, -kb), C: times2k(sys.C, -kc), D: times2k(sys.D, -k) }, k };
}

/** the norms scale B and C themselves (ioScaled); A of extreme size is refused */
function guarded(sys: SS, tool: string): SS {
  scaleGuard({ ...sys, B: [[1]], C: [[1]] }, tool);
  return sys;
}

function unscale(norm: number, k: number, tool: string): number {
  if (!k || !Number.isFinite(norm)) return norm;
  const v = norm * 2 ** Math.trunc(k / 2) * 2 ** (k - Math.trunc(k / 2));
  if (!Number.isFinite(v))
    throw new ControlError(`${tool}: the norm exceeds 1.8e308, the largest double (B and C are of order 2^${k}); rescale the inputs or outputs.`, 'numerical');
  return v;
}

// ------------------------------------------------------------------ tools

export const tools = [
  tool({
    name: 'h2norm',
    nonFinite: ['h2', 'l2'],
    words: {
      calls: [
        { names: ['h2norm'], args: ['sys'] },
        { names: ['norm', 'system_norm'], args: ['sys', '2'] },
        { names: ['norm', 'system_norm'], args: ['sys'], note: 'norm(sys) is the H2 norm, as in MATLAB' },
      ],
      phrases: ['h2 norm', 'h2-norm', 'h2norm', 'h_2 norm', 'h2', 'l2 norm', 'l2-norm', 'l_2 norm'],
      example: '/h2norm A=[-1 0; 0 -2], B=[1;1], C=[1 1]',
    },
    brief: 'H2 norm of (A, B, C, D) (L2 if unstable).',
    title: 'H2 norm',
    description:
      "H2 norm h2 of (A, B, C, D). Continuous: sqrt(trace(C P C')) with A P + P A' + B B' = 0; Infinity when D != 0 or the system is not asymptotically stable. Discrete (Ts > 0): sqrt(trace(C P C' + D D')) with A P A' - P + B B' = 0; Infinity when unstable. " +
      'Also l2, the L2 norm (1/2pi integral of ||G||_F^2 over the imaginary axis or unit circle, square-rooted): equal to h2 when stable; for an unstable model with no pole on the boundary, the stable part and the mirrored antistable part combined (stable/antistable decomposition), Infinity when continuous with D != 0; ' +
      'unstable_poles and boundary_poles count the poles beyond and on the stability boundary.',
    parameters: {
      type: 'object',
      properties: { ...ssProps, ...tsProp },
      required: ['A', 'B', 'C'],
      additionalProperties: false,
    },
    run(args) {
      const { sys, k } = ioScaled(guarded(readSS(args, 'h2norm'), 'h2norm'));
      const { l2, poles } = l2norm(sys);
      const stable = !poles.unstable && !poles.boundary;
      const L2 = unscale(l2, k, 'h2norm');
      // stable: L2 is the H2 norm (l2norm computed it as such); otherwise G is not in H2
      return { h2: stable ? L2 : Infinity, l2: L2, unstable_poles: poles.unstable, boundary_poles: poles.boundary };
    },
    intro: null,
    render: renderH2,
    code: GENERATORS.h2norm,
    model: BY_LOOKUP,
    plots: { none: 'one number: nothing to draw over time or frequency' },
  }),
  tool({
    name: 'hinfnorm',
    nonFinite: ['hinf', 'fpeak', 'linf', 'fpeak_linf'],
    words: {
      calls: [
        { names: ['hinfnorm', 'h_norm', 'linfnorm'], args: ['sys'] },
        { names: ['norm', 'system_norm'], args: ['sys', 'inf'] },
      ],
      phrases: [
        'hinf norm',
        'h-infinity norm',
        'h infinity norm',
        'h∞ norm',
        'hinfnorm',
        'h-inf norm',
        'hinf',
        'h∞',
        'peak gain',
        'l2 gain',
        'l-infinity norm',
        'l infinity norm',
        'l∞ norm',
        'linf norm',
        'l-inf norm',
        'linfnorm',
      ],
      example: '/hinfnorm A=[-1 0; 0 -2], B=[1;1], C=[1 1]',
    },
    brief: 'H-infinity norm (peak gain over frequency) of (A, B, C, D), its frequency (L-inf if unstable).',
    title: 'H-infinity norm',
    description:
      'H-infinity norm hinf (peak gain, largest singular value of H over frequency) of (A, B, C, D) and the peak frequency fpeak in rad/s (0 for DC, Infinity when the peak is approached as w -> infinity). Discrete when Ts > 0 (frequencies up to pi/Ts). Unstable or marginally stable systems: hinf = Infinity (fpeak = the frequency of the offending pole). ' +
      'Also linf and fpeak_linf, the L-infinity norm sup_w sigma_max(H(jw)) and its frequency (MATLAB norm(sys, Inf), python-control linfnorm): equal to hinf when stable, finite for an unstable model with no pole on the imaginary axis (unit circle), Infinity with one; unstable_poles and boundary_poles count the poles beyond and on the stability boundary.',
    parameters: {
      type: 'object',
      properties: { ...ssProps, ...tsProp },
      required: ['A', 'B', 'C'],
      additionalProperties: false,
    },
    run(args) {
      const { sys, k } = ioScaled(guarded(readSS(args, 'hinfnorm'), 'hinfnorm'));
      if (sys.n > 400) throw new ControlError('hinfnorm: the state dimension is too large for the Hamiltonian method here.', 'limit');
      const l = linfnorm(sys);
      const stable = !l.poles.unstable && !l.poles.boundary;
      const linf = unscale(l.hinf, k, 'hinfnorm');
      // stable: the peak is the H∞ norm; otherwise G is not in H∞ (fpeak: the offending pole's frequency)
      return {
        hinf: stable ? linf : Infinity,
        fpeak: stable ? l.fpeak : l.poles.wWorst,
        linf,
        fpeak_linf: l.fpeak,
        unstable_poles: l.poles.unstable,
        boundary_poles: l.poles.boundary,
      };
    },
    intro: null,
    render: renderHinf,
    code: GENERATORS.hinfnorm,
    model: BY_LOOKUP,
    plots: { none: 'one number: nothing to draw over time or frequency' },
  }),
];
