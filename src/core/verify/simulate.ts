/**
 * Independent checks of the simulation tools (lsim, initial), by routes the solver does not
 * take (solvers/simulate.ts uses the Padé matrix exponential of linalg/expm.ts on an augmented
 * matrix and the controllable realisation of a transfer function):
 * - the input: a standard signal recomputed from its definition here, a formula evaluated by
 *   mathjs's own compiled expression (not the solver's closure compiler), samples compared with
 *   the ones given;
 * - continuous lsim: the hold's step matrices from a Taylor series with scaling and squaring
 *   written here, a transfer function by its observable canonical form, and the recursion run
 *   again on plain arrays; a step input on a stable system also ends at its DC gain D − CA⁻¹B;
 * - discrete: the difference equation x[k+1] = A x[k] + B u[k] itself;
 * - initial: the modal solution Σ c_j e^{λ_j t} v_j from the verifier's own eigenvalues and
 *   eigenvectors by inverse iteration, or e^{At} by mathjs's Padé where the modes are ill
 *   conditioned (repeated eigenvalues).
 */
import { Matrix as M, solve } from 'ml-matrix';
import type { Matrix } from '../types.js';
import { complexSolve, safeEigenvalues, safeExpm, sci } from './numeric.js';
import { mathjsFormula } from '../parse/formula.js';
import { parseMatrixLiteral } from '../parse/index.js';

interface Check {
  name: string;
  ok: boolean;
  value?: number;
  detail: string;
}

interface Sys {
  A: Matrix;
  B: Matrix;
  C: Matrix;
  D: Matrix;
  n: number;
  m: number;
  p: number;
  discrete: boolean;
}

const zerosM = (r: number, c: number): Matrix => Array.from({ length: r }, () => new Array(c).fill(0));

/** the model of the call: A, B, C, D as given, or num/den in observable canonical form */
function modelOf(a: Record<string, any>): Sys {
  const discrete = typeof a.Ts === 'number' && a.Ts > 0;
  if (Array.isArray(a.num) && Array.isArray(a.den)) {
    const strip = (v: number[]) => {
      let i = 0;
      while (i < v.length - 1 && v[i] === 0) i++;
      return v.slice(i);
    };
    const den = strip(a.den as number[]);
    const n = den.length - 1;
    const num = strip(a.num as number[]);
    const b = [...new Array(n + 1 - num.length).fill(0), ...num].map((v) => v / den[0]);
    const al = den.map((v) => v / den[0]);
    const A = zerosM(n, n);
    for (let i = 0; i < n; i++) {
      A[i][0] = -al[i + 1];
      if (i + 1 < n) A[i][i + 1] = 1;
    }
    const B = Array.from({ length: n }, (_, i) => [b[i + 1] - b[0] * al[i + 1]]);
    const C = [Array.from({ length: n }, (_, j) => (j === 0 ? 1 : 0))];
    return { A, B, C, D: [[b[0]]], n, m: 1, p: 1, discrete };
  }
  const A = (a.A ?? []) as Matrix;
  const n = A.length;
  const C = a.C as Matrix;
  const p = C.length;
  const B = (a.B as Matrix | undefined) ?? A.map(() => [0]);
  const m = a.D !== undefined ? (a.D as Matrix)[0].length : (B[0]?.length ?? 1);
  const D = (a.D as Matrix | undefined) ?? zerosM(p, m);
  return { A, B: n ? B : [], C, D, n, m, p, discrete };
}

function check(name: string, err: number, tol: number, what: string): Check {
  const ok = err <= tol;
  return { name, ok, value: err, detail: `${what}: ${ok ? 'agrees' : 'DISAGREES'} (${sci(err)}${ok ? '' : `, more than ${sci(tol)}`})` };
}

/** e^{X} by a Taylor series of X/2^s (‖X/2^s‖₁ ≤ 1/2, 20 terms) and s squarings; null when not finite */
export function taylorExpm(X: Matrix): Matrix | null {
  const n = X.length;
  let nrm = 0;
  for (let j = 0; j < n; j++) {
    let c = 0;
    for (let i = 0; i < n; i++) c += Math.abs(X[i][j]);
    nrm = Math.max(nrm, c);
  }
  if (!Number.isFinite(nrm)) return null;
  const s = nrm > 0.5 ? Math.ceil(Math.log2(nrm / 0.5)) : 0;
  const f = 2 ** -s;
  const Y = X.map((r) => r.map((v) => v * f));
  const mm = (P: Matrix, Q: Matrix) => P.map((r) => Q[0].map((_, j) => r.reduce((acc, v, k) => acc + v * Q[k][j], 0)));
  let E: Matrix = Y.map((r, i) => r.map((_, j) => (i === j ? 1 : 0)));
  let term: Matrix = E.map((r) => r.slice());
  for (let k = 1; k <= 20; k++) {
    term = mm(term, Y).map((r) => r.map((v) => v / k));
    E = E.map((r, i) => r.map((v, j) => v + term[i][j]));
  }
  for (let k = 0; k < s; k++) {
    E = mm(E, E);
    if (!E.every((r) => r.every(Number.isFinite))) return null;
  }
  return E;
}

/** indices to recheck: every one up to 2,000 samples, else 2,000 spread over them (first and last kept) */
function indices(N: number, most = 2000): number[] {
  if (N <= most) return Array.from({ length: N }, (_, i) => i);
  return [...new Set(Array.from({ length: most }, (_, i) => Math.round((i * (N - 1)) / (most - 1))))];
}

/** the grid: as many rows of y (and u) as times, uniformly spaced, and t as asked */
function gridChecks(a: Record<string, any>, r: Record<string, any>): { checks: Check[]; h: number } {
  const t = r.t as number[];
  const N = t.length;
  const h = N > 1 ? (t[N - 1] - t[0]) / (N - 1) : 0;
  let err = 0;
  for (let k = 0; k < N; k++) err = Math.max(err, Math.abs(t[k] - (t[0] + k * h)));
  if (Array.isArray(a.t)) {
    if ((a.t as number[]).length !== N) err = Infinity;
    else for (let k = 0; k < N; k++) err = Math.max(err, Math.abs(t[k] - a.t[k]));
  }
  if (typeof a.tfinal === 'number' && !(t[N - 1] <= a.tfinal * (1 + 1e-9) && t[N - 1] >= a.tfinal - h * (1 + 1e-9))) err = Infinity;
  if (typeof a.Ts === 'number' && a.Ts > 0 && N > 1 && Math.abs(h - a.Ts) > 1e-9 * a.Ts) err = Infinity;
  const rows = (r.y as unknown[]).length === N && (!Array.isArray(r.u) || r.u.length === N);
  return {
    checks: [
      {
        name: 'time grid',
        ok: rows && err <= 1e-6 * Math.max(h, 1e-300),
        value: err,
        detail: `uniform grid${Array.isArray(a.t) ? ' equal to the t given' : ''}, one row of y per time (${sci(err)})`,
      },
    ],
    h,
  };
}

/** the standard signals' definitions (MATLAB/Octave gensig for sine, square, pulse) */
function signalAt(kind: string, t: number, A: number, P: number, d: number, h: number): number {
  const s = t - d;
  if (s < -1e-12 * Math.max(1, Math.abs(t))) return 0;
  const x = Math.max(s, 0);
  if (kind === 'step') return A;
  if (kind === 'ramp') return A * x;
  if (kind === 'sine' || kind === 'sin') return A * Math.sin((2 * Math.PI * x) / P);
  const rem = x % P;
  if (kind === 'square') return rem >= P / 2 ? A : 0;
  // pulse: rem(t, P) < (1 − 1000 eps)·h, the sample at (or rounded just below) each period's start
  return rem < (1 - 1000 * Number.EPSILON) * h || P - rem <= 1e-9 * h ? A : 0;
}

/** result.u is the input asked for */
function inputCheck(a: Record<string, any>, r: Record<string, any>, m: number, h: number): Check {
  const t = r.t as number[];
  const U = r.u as number[][];
  const N = t.length;
  const sel = a.input as number | undefined;
  // the one signal each input gets (undefined: a column of samples given as such)
  let want: ((k: number) => number) | undefined;
  let what: string;
  let ks = indices(N);
  if (a.signal !== undefined) {
    what = `the ${a.signal} signal recomputed from its definition`;
    want = (k) => signalAt(a.signal, t[k], a.amplitude ?? 1, a.period ?? 1, a.delay ?? 0, h);
  } else if (typeof a.u === 'string' && !/^\s*(\[|np\.|numpy\.)/.test(a.u)) {
    what = `u = ${a.u.trim()} evaluated by mathjs`;
    const f = mathjsFormula(a.u);
    ks = indices(N, 24);
    want = (k) => f(t[k]);
  } else {
    what = 'u equal to the samples given';
    let g: unknown = a.u;
    if (typeof g === 'string') g = parseMatrixLiteral(g);
    let rows: number[][] = Array.isArray(g) && (g as unknown[]).every((v) => typeof v === 'number') ? (g as number[]).map((v) => [v]) : (g as number[][]);
    if (rows.length === 1 && rows[0].length === N && N > 1) rows = rows[0].map((v) => [v]);
    if (rows.length === N && rows[0].length === 1 && N > 1 && rows.every((r0) => r0.length === 1) && (sel !== undefined || m === 1)) {
      want = (k) => rows[k][0];
    } else {
      let err = rows.length === N ? 0 : Infinity;
      for (const k of ks) for (let j = 0; j < m && err < Infinity; j++) err = Math.max(err, Math.abs(U[k][j] - (rows[k]?.[j] ?? NaN)) || 0);
      if (rows.length === N && rows.some((row, k) => row.some((v, j) => U[k][j] !== v))) err = Math.max(err, 1);
      return check('input', err, 0, what);
    }
  }
  let err = 0;
  let scale = 0;
  for (const k of ks) {
    const v = want(k);
    scale = Math.max(scale, Math.abs(v));
    for (let j = 0; j < m; j++) {
      const expect = sel === undefined || sel === j + 1 ? v : 0;
      const e = Math.abs(U[k][j] - expect);
      err = Math.max(err, Number.isNaN(e) ? Infinity : e);
    }
  }
  return check('input', err / Math.max(scale, 1e-300), 1e-12, what);
}

/** y of the recursion x[k+1] = Φx[k] + Γ0u[k] + Γ1u[k+1], y = Cx + Du, on plain arrays; the scale of its terms */
function recurse(s: Sys, Phi: Matrix, G0: Matrix, G1: Matrix | undefined, U: number[][], x0: number[]): { y: number[][]; scale: number[] } {
  const { n, m, p } = s;
  const N = U.length;
  let x = x0.slice();
  const y: number[][] = [];
  const scale: number[] = [];
  for (let k = 0; k < N; k++) {
    const row: number[] = [];
    let sc = 0;
    for (let i = 0; i < p; i++) {
      let v = 0;
      for (let j = 0; j < n; j++) {
        v += s.C[i][j] * x[j];
        sc = Math.max(sc, Math.abs(s.C[i][j] * x[j]));
      }
      for (let j = 0; j < m; j++) {
        v += s.D[i][j] * U[k][j];
        sc = Math.max(sc, Math.abs(s.D[i][j] * U[k][j]));
      }
      row.push(v);
    }
    y.push(row);
    scale.push(sc);
    if (k === N - 1) break;
    const nx = new Array(n).fill(0);
    for (let i = 0; i < n; i++) {
      let v = 0;
      for (let j = 0; j < n; j++) v += Phi[i][j] * x[j];
      for (let j = 0; j < m; j++) v += G0[i][j] * U[k][j] + (G1 ? G1[i][j] * U[k + 1][j] : 0);
      nx[i] = v;
    }
    x = nx;
  }
  return { y, scale };
}

function compare(y: number[][], ref: number[][], scale: number[]): number {
  let err = 0;
  let big = 0;
  for (let k = 0; k < ref.length; k++) {
    big = Math.max(big, scale[k], ...ref[k].map(Math.abs));
    for (let i = 0; i < ref[k].length; i++) {
      const e = Math.abs(y[k][i] - ref[k][i]);
      err = Math.max(err, Number.isNaN(e) ? Infinity : e);
    }
  }
  return err / Math.max(big, 1e-300);
}

/** the step matrices of a hold over h, from the Taylor exponential of the augmented matrix */
function holdMatrices(s: Sys, h: number, method: 'zoh' | 'foh'): { Phi: Matrix; G0: Matrix; G1?: Matrix } | null {
  const { n, m } = s;
  const w = method === 'zoh' ? n + m : n + 2 * m;
  const X = zerosM(w, w);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) X[i][j] = s.A[i][j] * h;
    for (let j = 0; j < m; j++) X[i][n + j] = s.B[i][j] * h;
  }
  if (method === 'foh') for (let j = 0; j < m; j++) X[n + j][n + m + j] = 1;
  const E = taylorExpm(X);
  if (!E) return null;
  const Phi = E.slice(0, n).map((r) => r.slice(0, n));
  const G = E.slice(0, n).map((r) => r.slice(n, n + m));
  if (method === 'zoh') return { Phi, G0: G };
  const G1 = E.slice(0, n).map((r) => r.slice(n + m, n + 2 * m));
  return { Phi, G0: G.map((r, i) => r.map((v, j) => v - G1[i][j])), G1 };
}

export function lsimChecks(a: Record<string, any>, r: Record<string, any>): Check[] {
  const s = modelOf(a);
  const { checks, h } = gridChecks(a, r);
  const U = r.u as number[][];
  checks.push(inputCheck(a, r, s.m, h));
  const x0 = Array.isArray(a.x0) ? (a.x0 as number[]) : new Array(s.n).fill(0);
  const method = r.method as string;
  const wantMethod = s.discrete ? 'discrete' : (a.interp ?? method);
  checks.push({
    name: 'method',
    ok: method === wantMethod && ['zoh', 'foh', 'discrete'].includes(method),
    detail: `method ${method}${a.interp ? ' as asked' : ''}`,
  });
  let mats: { Phi: Matrix; G0: Matrix; G1?: Matrix } | null;
  let what: string;
  if (s.n === 0) {
    mats = { Phi: [], G0: [] };
    what = 'y = D u (no states)';
  } else if (s.discrete) {
    mats = { Phi: s.A, G0: s.B };
    what = 'y agrees with the difference equation x[k+1] = Ax[k] + Bu[k]';
  } else {
    mats = method === 'zoh' || method === 'foh' ? holdMatrices(s, h || 1, method) : null;
    what = `y agrees with a Taylor-series ${method} discretisation${Array.isArray(a.num) ? ' of the observable canonical form' : ''}, recursed again`;
  }
  if (!mats) checks.push({ name: 'response samples', ok: false, detail: 'the Taylor exponential of the step overflowed: nothing to compare with' });
  else {
    const { y, scale } = recurse(s, mats.Phi, mats.G0, mats.G1, U, x0);
    checks.push(check('response samples', compare(r.y, y, scale), 1e-7, what));
  }
  // a step on a stable continuous system ends at its DC gain
  if (!s.discrete && s.n > 0 && a.signal === 'step' && r.t.length > 1) {
    const ev = safeEigenvalues(s.A);
    const sigma = Math.max(...ev.map(([re]) => re));
    const T = r.t[r.t.length - 1] - (a.delay ?? 0);
    if (sigma < 0 && Math.exp(sigma * T) <= 1e-13) {
      try {
        const AinvB = solve(new M(s.A), new M(s.B));
        const uEnd = U[U.length - 1];
        const CAB = new M(s.C).mmul(AinvB).to2DArray();
        const yf = s.D.map((row, i) => row.reduce((acc, d, j) => acc + (d - CAB[i][j]) * uEnd[j], 0));
        const last = r.y[r.y.length - 1] as number[];
        const big = Math.max(...yf.map(Math.abs), ...last.map(Math.abs), 1e-300);
        const e = Math.max(...yf.map((v, i) => Math.abs(v - last[i]))) / big;
        checks.push(check('final value', e, 1e-6, 'y(end) equals the DC gain (D − CA⁻¹B)·u of the step'));
      } catch {
        // singular A: no DC gain to compare with
      }
    }
  }
  return checks;
}

/** x(t) = Σ c_j e^{λ_j t} v_j with A v_j = λ_j v_j, c = V⁻¹x0; null where the modes are ill conditioned */
function modal(A: Matrix, x0: number[]): { at: (t: number) => number[]; growth: number } | null {
  const n = A.length;
  const ev = safeEigenvalues(A);
  const nrm = Math.max(1e-300, ...A.map((r) => r.reduce((acc, v) => acc + Math.abs(v), 0)));
  // repeated eigenvalues: possibly defective, no reliable eigenvector basis
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (Math.hypot(ev[i][0] - ev[j][0], ev[i][1] - ev[j][1]) <= 1e-6 * nrm) return null;
  const Vr = new Float64Array(n * n);
  const Vi = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    const [lr, li] = ev[j];
    // two steps of inverse iteration on A − (λ + δ)I from a fixed vector
    let br = Float64Array.from({ length: n }, (_, i) => 1 + 0.37 * i);
    let bi = new Float64Array(n);
    for (let it = 0; it < 2; it++) {
      const Mr = new Float64Array(n * n);
      const Mi = new Float64Array(n * n);
      for (let i = 0; i < n; i++)
        for (let k = 0; k < n; k++) {
          Mr[i * n + k] = A[i][k] - (i === k ? lr + 1e-10 * nrm : 0);
          Mi[i * n + k] = i === k ? -li : 0;
        }
      try {
        complexSolve(Mr, Mi, n, br, bi, 1);
      } catch {
        return null;
      }
      let s = 0;
      for (let i = 0; i < n; i++) s = Math.max(s, Math.hypot(br[i], bi[i]));
      if (!(s > 0) || !Number.isFinite(s)) return null;
      br = br.map((v) => v / s);
      bi = bi.map((v) => v / s);
    }
    for (let i = 0; i < n; i++) {
      Vr[i * n + j] = br[i];
      Vi[i * n + j] = bi[i];
    }
  }
  const cr = Float64Array.from(x0);
  const ci = new Float64Array(n);
  try {
    complexSolve(Float64Array.from(Vr), Float64Array.from(Vi), n, cr, ci, 1);
  } catch {
    return null;
  }
  let growth = 0;
  for (let j = 0; j < n; j++) growth += Math.hypot(cr[j], ci[j]);
  growth /= Math.max(1e-300, ...x0.map(Math.abs));
  if (!(growth < 1e6)) return null;
  return {
    growth,
    at: (t) => {
      const x = new Array(n).fill(0);
      for (let j = 0; j < n; j++) {
        const mag = Math.exp(ev[j][0] * t);
        const er = mag * Math.cos(ev[j][1] * t);
        const ei = mag * Math.sin(ev[j][1] * t);
        const wr = cr[j] * er - ci[j] * ei;
        const wi = cr[j] * ei + ci[j] * er;
        for (let i = 0; i < n; i++) x[i] += Vr[i * n + j] * wr - Vi[i * n + j] * wi;
      }
      return x;
    },
  };
}

export function initialChecks(a: Record<string, any>, r: Record<string, any>): Check[] {
  const s = modelOf(a);
  const { checks } = gridChecks(a, r);
  const x0 = a.x0 as number[];
  const t = r.t as number[];
  const N = t.length;
  if (s.discrete) {
    const U = t.map(() => new Array(s.m).fill(0));
    const { y, scale } = recurse(s, s.A, s.B, undefined, U, x0);
    checks.push(check('response samples', compare(r.y, y, scale), 1e-8, 'y[k] agrees with the recursion x[k+1] = Ax[k]'));
    return checks;
  }
  const mod = modal(s.A, x0);
  // the modes are cheap at each time (every sample up to 2,000); a matrix exponential per time is not
  const ks = indices(N, mod ? 2000 : 40);
  const ref: number[][] = [];
  const scale: number[] = [];
  const got: number[][] = [];
  const xAt = (tk: number): number[] => {
    if (mod) return mod.at(tk - t[0]);
    const E = safeExpm(s.A, tk - t[0]);
    return E ? E.map((row) => row.reduce((acc, v, j) => acc + v * x0[j], 0)) : new Array(s.n).fill(NaN);
  };
  for (const k of ks) {
    const x = xAt(t[k]);
    ref.push(s.C.map((row) => row.reduce((acc, c, j) => acc + c * x[j], 0)));
    scale.push(Math.max(...s.C.flatMap((row) => row.map((c, j) => Math.abs(c * x[j])))));
    got.push(r.y[k]);
  }
  const tol = mod ? 1e-8 * Math.max(1, mod.growth) : 1e-7;
  checks.push(
    check(
      'response samples',
      compare(got, ref, scale),
      tol,
      mod
        ? `y(t) agrees with the modal solution Σ c_j e^{λ_j t} v_j (eigenvectors by inverse iteration) at ${ks.length} times`
        : `y(t) agrees with C e^{At} x0 by mathjs's Padé exponential at ${ks.length} times (repeated or ill-conditioned modes)`,
    ),
  );
  return checks;
}
