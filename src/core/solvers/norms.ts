/**
 * System norms: H2 (from the controllability Gramian, a Lyapunov equation) and H-infinity
 * (Boyd-Balakrishnan-Bruinsma-Steinbuch level-set iteration on the Hamiltonian matrix;
 * discrete systems through the norm-preserving bilinear map of the unit circle onto the
 * imaginary axis).
 */
import { EigenvalueDecomposition, Matrix as MlMatrix } from 'ml-matrix';
import { ControlError } from '../errors.js';
import { tool } from '../tools/types.js';
import { renderH2, renderHinf } from '../render/results.js';
import { GENERATORS } from '../codegen/code.js';
import { eigenvalues } from './_eig.js';
import {
  EPS,
  add,
  block,
  eye,
  hessenberg,
  hessShiftSolve,
  lu,
  luSolve,
  luSolveRight,
  matmul,
  normFro,
  rcond,
  scale,
  transpose,
  type Mat,
} from './_dense.js';
import { readSS, scaleGuard, ssProps, tsProp, type SS } from './_sys.js';
import { dlyapSolve, lyapSolve } from './lyapunov.js';

// ------------------------------------------------------------------ H2

export function h2norm(sys: SS): number {
  const { A, B, C, D, n, Ts } = sys;
  const ev = eigenvalues(A);
  const nrm = Math.max(normFro(A), 1e-300);
  if (Ts > 0) {
    if (ev.some(([r, i]) => Math.hypot(r, i) >= 1 - 1e3 * EPS * Math.max(1, nrm))) return Infinity;
  } else {
    if (D.some((r) => r.some((v) => v !== 0))) return Infinity;
    if (ev.some(([r]) => r >= -1e3 * EPS * nrm)) return Infinity;
  }
  // no states (a static gain): continuous, D = 0 here (D != 0 returned Infinity above), so 0;
  // discrete, the pulse response is D at k = 0 only, so ||D||_F
  if (n === 0) return Ts > 0 ? Math.sqrt(D.reduce((s, r) => s + r.reduce((a, v) => a + v * v, 0), 0)) : 0;
  const BBt = matmul(B, transpose(B));
  const P = Ts > 0 ? dlyapSolve(A, BBt) : lyapSolve(A, BBt);
  const CPCt = matmul(matmul(C, P), transpose(C));
  let tr = 0;
  for (let i = 0; i < CPCt.length; i++) tr += CPCt[i][i];
  if (Ts > 0) for (const r of D) for (const v of r) tr += v * v;
  void n;
  return Math.sqrt(Math.max(tr, 0));
}

// ------------------------------------------------------------------ H-infinity

/**
 * largest singular value of a complex p x m matrix (re, im), computed on the matrix scaled by
 * the power of 2 of its largest entry (H^H H of entries near 1e200 overflowed, and the
 * eigensolver threw a TypeError on the Infinity); Infinity when an entry is not finite
 */
export function sigmaMax(re0: Mat, im0: Mat): number {
  let mx = 0;
  for (const M of [re0, im0]) for (const r of M) for (const v of r) mx = Math.max(mx, Math.abs(v));
  if (!(mx <= Number.MAX_VALUE)) return mx === Infinity ? Infinity : NaN;
  if (mx === 0) return 0;
  const k = pow2Exp(re0.concat(im0));
  return times2k([[sigmaMaxUnit(times2k(re0, -k), times2k(im0, -k))]], k)[0][0];
}

function sigmaMaxUnit(re: Mat, im: Mat): number {
  const p = re.length;
  const m = p ? re[0].length : 0;
  if (p === 1 || m === 1) {
    let s = 0;
    for (let i = 0; i < p; i++) for (let j = 0; j < m; j++) s += re[i][j] * re[i][j] + im[i][j] * im[i][j];
    return Math.sqrt(s);
  }
  // G = H^H H (m x m Hermitian) as the real symmetric [Gr -Gi; Gi Gr]
  const Gr: Mat = [];
  const Gi: Mat = [];
  for (let a = 0; a < m; a++) {
    Gr.push(new Array(m).fill(0));
    Gi.push(new Array(m).fill(0));
    for (let b = 0; b < m; b++) {
      let sr = 0;
      let si = 0;
      for (let i = 0; i < p; i++) {
        // conj(H[i][a]) * H[i][b]
        sr += re[i][a] * re[i][b] + im[i][a] * im[i][b];
        si += re[i][a] * im[i][b] - im[i][a] * re[i][b];
      }
      Gr[a][b] = sr;
      Gi[a][b] = si;
    }
  }
  const M = block([
    [Gr, scale(Gi, -1)],
    [Gi, Gr],
  ]);
  // exact symmetry for the symmetric solver
  for (let i = 0; i < 2 * m; i++) for (let j = 0; j < i; j++) M[i][j] = M[j][i] = 0.5 * (M[i][j] + M[j][i]);
  const e = new EigenvalueDecomposition(new MlMatrix(M), { assumeSymmetric: true });
  return Math.sqrt(Math.max(0, Math.max(...e.realEigenvalues)));
}

/** sigma_max(H(jw)) evaluator for a continuous system, with one Hessenberg reduction */
function gainEvaluator(A: Mat, B: Mat, C: Mat, D: Mat): (w: number) => number {
  const { H, Q } = hessenberg(A);
  const Bt = matmul(transpose(Q), B);
  const Ct = matmul(C, Q);
  const p = C.length;
  const m = B[0].length;
  return (w: number) => {
    if (w === Infinity) return sigmaMax(D, D.map((r) => r.map(() => 0)));
    const X = hessShiftSolve(H, 0, w, Bt);
    if (!X) return Infinity;
    const re: Mat = [];
    const im: Mat = [];
    for (let i = 0; i < p; i++) {
      re.push(new Array(m).fill(0));
      im.push(new Array(m).fill(0));
      for (let j = 0; j < m; j++) {
        let a = D[i][j];
        let b = 0;
        for (let l = 0; l < Ct[i].length; l++) {
          a += Ct[i][l] * X.re[l][j];
          b += Ct[i][l] * X.im[l][j];
        }
        re[i][j] = a;
        im[i][j] = b;
      }
    }
    return sigmaMax(re, im);
  };
}

/** Hamiltonian whose imaginary eigenvalues j·w are the frequencies where gamma is a singular value of H(jw) */
function hamiltonian(A: Mat, B: Mat, C: Mat, D: Mat, g: number): Mat {
  const m = B[0].length;
  const p = C.length;
  const Dt = transpose(D);
  const R = add(matmul(Dt, D), scale(eye(m), g * g), -1); // D'D - g^2 I
  const S = add(matmul(D, Dt), scale(eye(p), g * g), -1); // DD' - g^2 I
  const fR = lu(R);
  const fS = lu(S);
  const RiDtC = luSolve(fR, matmul(Dt, C)); // R^-1 D' C
  const RiBt = luSolve(fR, transpose(B)); // R^-1 B'
  const SiC = luSolve(fS, C); // S^-1 C
  const H11 = add(A, matmul(B, RiDtC), -1);
  const H12 = scale(matmul(B, RiBt), -g);
  const H21 = scale(matmul(transpose(C), SiC), g);
  const H22 = add(scale(transpose(A), -1), matmul(transpose(C), matmul(D, RiBt)));
  return block([
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
  const n = A.length;
  const gain = gainEvaluator(A, B, C, D);
  const ev = eigenvalues(A);
  // initial lower bound: w = 0, w = infinity, and the pole frequencies
  const cands = new Set<number>([0]);
  let wlo = Infinity;
  let whi = 0;
  for (const [re, im] of ev) {
    if (im !== 0) cands.add(Math.abs(im));
    const r = Math.hypot(re, im);
    cands.add(r);
    if (r > 0) ((wlo = Math.min(wlo, r)), (whi = Math.max(whi, r)));
  }
  // and a log grid over the poles' frequencies: when the best candidate is w = ∞ (σmax(D))
  // while the peak is finite, the first level sits just above σmax(D), D'D − γ²I is nearly
  // singular and the Hamiltonian's imaginary eigenvalues drown in its 1e12 norm (a discrete
  // model missed its peak by 2e-4 that way); a lower bound from a finite frequency avoids it
  if (whi > 0)
    for (let i = 0; i <= 60; i++) cands.add(wlo * 1e-2 * Math.pow((whi * 1e2) / (wlo * 1e-2), i / 60));
  let glb = gain(Infinity);
  let fpeak = Infinity;
  for (const w of cands) {
    const g = gain(w);
    if (g > glb) ((glb = g), (fpeak = w));
  }
  if (n === 0 || glb === 0) return { hinf: glb, fpeak: glb === 0 ? 0 : fpeak };
  for (let it = 0; it < 60; it++) {
    const g = (1 + 2 * tol) * glb;
    const M = hamiltonian(A, B, C, D, g);
    const nrmM = normFro(M);
    const lam = eigenvalues(M);
    const ws: number[] = [];
    for (const [re, im] of lam)
      if (im >= 0 && Math.abs(re) <= 1e-6 * Math.hypot(re, im) + 1e-9 * nrmM) ws.push(im);
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
    if (fm > glb) ((glb = fm), (fpeak = xm));
  }
  return { hinf: glb, fpeak };
}

export function hinfnorm(sys: SS): HinfResult {
  const { A, B, C, D, n, Ts } = sys;
  // no states (a static gain): the gain is sigma_max(D) at every frequency; fpeak = 0, the
  // first frequency that attains it
  if (n === 0) return { hinf: sigmaMax(D, D.map((r) => r.map(() => 0))), fpeak: 0 };
  const ev = eigenvalues(A);
  const nrm = Math.max(normFro(A), 1e-300);
  if (Ts > 0) {
    let worst: [number, number] | undefined;
    for (const e of ev) if (Math.hypot(e[0], e[1]) >= 1 - 1e3 * EPS * Math.max(1, nrm)) worst = e;
    if (worst) return { hinf: Infinity, fpeak: Math.abs(Math.atan2(worst[1], worst[0])) / Ts };
    // bilinear map z = (1 + s)/(1 - s) (or of -z when A has an eigenvalue near -1)
    const I = eye(n);
    let flip = false;
    let Aa = A;
    let Bb = B;
    if (!(rcond(add(I, A)) > 1e-8)) {
      flip = true;
      Aa = scale(A, -1);
      Bb = scale(B, -1);
    }
    const f = lu(add(I, Aa));
    const FA = luSolve(f, add(Aa, I, -1)); // F (A - I)
    const FB = luSolve(f, Bb);
    const CF = luSolveRight(f, C);
    const r2 = Math.SQRT2;
    const Ac = FA;
    const Bc = scale(FB, r2);
    const Cc = scale(CF, r2);
    const Dc = add(D, matmul(C, FB), -1);
    const res = finiteOrRefused(hinfContinuous(Ac, Bc, Cc, Dc));
    let th = res.fpeak === Infinity ? Math.PI : 2 * Math.atan(res.fpeak);
    if (flip) th = Math.PI - th;
    return { hinf: res.hinf, fpeak: th / Ts };
  }
  let worst: [number, number] | undefined;
  for (const e of ev) if (e[0] >= -1e3 * EPS * nrm && (!worst || e[0] > worst[0])) worst = e;
  if (worst) return { hinf: Infinity, fpeak: Math.abs(worst[1]) };
  return finiteOrRefused(hinfContinuous(A, B, C, D));
}

/** a stable model's norm that overflowed is refused with the reason, never an Infinity that reads as "unstable" */
function finiteOrRefused(r: HinfResult): HinfResult {
  if (Number.isFinite(r.hinf)) return r;
  throw new ControlError(
    'hinfnorm: every pole of A is inside the stability boundary, so the norm is finite, but the gain overflowed double precision on the way (entries of B, C or D of extreme size); rescale the inputs or outputs so that their entries are nearer 1.',
    'numerical',
  );
}

// ------------------------------------------------------------------ extreme input and output scales

/** k with 2^k near the largest |entry|; 0 for a zero matrix */
function pow2Exp(M: Mat): number {
  let mx = 0;
  for (const r of M) for (const v of r) mx = Math.max(mx, Math.abs(v));
  return mx > 0 && Number.isFinite(mx) ? Math.round(Math.log2(mx)) : 0;
}

const times2k = (M: Mat, k: number): Mat => {
  const k1 = Math.trunc(k / 2);
  const f1 = 2 ** k1, f2 = 2 ** (k - k1);
  return M.map((r) => r.map((v) => v * f1 * f2));
};

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
    nonFinite: ['h2'],
    words: {
      calls: [{ names: ['h2norm'], args: ['sys'] }, { names: ['norm', 'system_norm'], args: ['sys', '2'] }, { names: ['norm', 'system_norm'], args: ['sys'], note: "norm(sys) is the H2 norm, as in MATLAB" }],
      phrases: ['h2 norm', 'h2-norm', 'h2norm', 'h_2 norm', 'h2'],
      example: '/h2norm A=[-1 0; 0 -2], B=[1;1], C=[1 1]',
    },
    brief: 'H2 norm of (A, B, C, D).',
    title: 'H2 norm',
    description:
      'H2 norm of (A, B, C, D). Continuous: sqrt(trace(C P C\')) with A P + P A\' + B B\' = 0; Infinity when D != 0 or the system is not asymptotically stable. Discrete (Ts > 0): sqrt(trace(C P C\' + D D\')) with A P A\' - P + B B\' = 0; Infinity when unstable.',
    parameters: {
      type: 'object',
      properties: { ...ssProps, ...tsProp },
      required: ['A', 'B', 'C'],
      additionalProperties: false,
    },
    run(args) {
      const { sys, k } = ioScaled(guarded(readSS(args, 'h2norm'), 'h2norm'));
      return { h2: unscale(h2norm(sys), k, 'h2norm') };
    },
    intro: null,
    render: renderH2,
    code: GENERATORS.h2norm,
    model: { none: 'rarely asked: kept out of the prefix (every token costs prefill time)' },
    plots: { none: 'one number: nothing to draw over time or frequency' },
  }),
  tool({
    name: 'hinfnorm',
    nonFinite: ['hinf', 'fpeak'],
    words: {
      calls: [{ names: ['hinfnorm', 'h_norm', 'linfnorm'], args: ['sys'] }, { names: ['norm', 'system_norm'], args: ['sys', 'inf'] }],
      phrases: ['hinf norm', 'h-infinity norm', 'h infinity norm', 'h∞ norm', 'hinfnorm', 'h-inf norm', 'hinf', 'h∞', 'peak gain', 'l2 gain'],
      example: '/hinfnorm A=[-1 0; 0 -2], B=[1;1], C=[1 1]',
    },
    brief: 'H-infinity norm (peak gain over frequency) of (A, B, C, D) and its frequency.',
    title: 'H-infinity norm',
    description:
      'H-infinity norm (peak gain, largest singular value of H over frequency) of (A, B, C, D) and the peak frequency fpeak in rad/s (0 for DC, Infinity when the peak is approached as w -> infinity). Discrete when Ts > 0 (frequencies up to pi/Ts). Unstable or marginally stable systems: Infinity (fpeak = the frequency of the offending pole).',
    parameters: {
      type: 'object',
      properties: { ...ssProps, ...tsProp },
      required: ['A', 'B', 'C'],
      additionalProperties: false,
    },
    run(args) {
      const { sys, k } = ioScaled(guarded(readSS(args, 'hinfnorm'), 'hinfnorm'));
      if (sys.n > 400) throw new ControlError('hinfnorm: the state dimension is too large for the Hamiltonian method here.', 'limit');
      const r = hinfnorm(sys);
      return { hinf: unscale(r.hinf, k, 'hinfnorm'), fpeak: r.fpeak };
    },
    intro: null,
    render: renderHinf,
    code: GENERATORS.hinfnorm,
    model: 'offered',
    plots: { none: 'one number: nothing to draw over time or frequency' },
  }),
];
