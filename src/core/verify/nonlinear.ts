/**
 * Independent checks of the nonlinear tools (solvers/nonlinear.ts). The solver evaluates the
 * equations through closures compiled from the parse tree, differentiates them symbolically and
 * integrates by Dormand–Prince; here the equations (the model's text, its names and parameter
 * values) are evaluated by mathjs's own compiled evaluation, derivatives are finite differences
 * and integration is classical fixed-step RK4:
 * - find_eqpt: f(x, u) = 0 (and h(x, u) = y0 with an output target) at the reported point; the
 *   reported output is h there; the eigenvalues of a finite-difference Jacobian (the verifier's
 *   eigensolver) match the reported ones and their stability verdict;
 * - linearize: A, B, C, D against central differences with Richardson extrapolation (the
 *   cross-check of the symbolic route), the drift f(x, u) and the equilibrium flag, the
 *   eigenvalues of A;
 * - nlsim: x(0) = x0 and the time span; every reported step re-integrated from its start by RK4
 *   with 8 substeps and compared with the reported end, within 50·(atol + rtol·|x|) (the local
 *   error the adaptive method keeps below atol + rtol·|x|); the input re-evaluated by mathjs;
 *   y = h(x, u) at every point.
 */
import type { Complex } from '../types.js';
import type { Check } from './index.js';
import { check, matchedDistances, safeEigenvalues } from './numeric.js';
import { readModel, type NlArgs } from '../solvers/_nlmodel.js';
import { mathjs } from '../parse/literal.js';
import { mathjsFormula } from '../parse/formula.js';

type R = Record<string, any>;
type V = (x: readonly number[], u: readonly number[]) => number[];

/** f and h evaluated by mathjs (the expression text compiled by mathjs, the values in its scope) */
export function mathjsModel(a: R): { f: V; h: V; n: number; m: number; p: number } {
  const model = readModel(a as NlArgs);
  const comp = (e: string) => (mathjs().mathParse(e) as { compile(): { evaluate(s: Record<string, unknown>): unknown } }).compile();
  const fc = model.fText.map(comp);
  const hc = model.hText.map(comp);
  const scope = (x: readonly number[], u: readonly number[]) => {
    const s: Record<string, unknown> = { ...model.params };
    model.states.forEach((n, i) => (s[n] = x[i]));
    model.inputs.forEach((n, i) => (s[n] = u[i]));
    return s;
  };
  const ev = (cs: typeof fc) => (x: readonly number[], u: readonly number[]) => {
    const s = scope(x, u);
    return cs.map((c) => {
      const v = c.evaluate(s);
      return typeof v === 'number' ? v : NaN;
    });
  };
  return { f: ev(fc), h: ev(hc), n: model.states.length, m: model.inputs.length, p: model.outputs.length };
}

const inf = (v: readonly number[]) => v.reduce((s, x) => Math.max(s, Math.abs(x)), 0);
const maxAbs = (M: readonly (readonly number[])[]) => M.reduce((s, r) => Math.max(s, inf(r)), 0);
const flat = (v: unknown): number[] => (Array.isArray(v) ? (v as unknown[]).flat() : typeof v === 'number' ? [v] : []) as number[];

/** ∂g/∂z at z0 by central differences, Richardson-extrapolated: (4 D(h/2) − D(h)) / 3 */
export function fdJac(g: (z: number[]) => number[], z0: number[], rows: number): number[][] {
  const J = Array.from({ length: rows }, () => new Array(z0.length).fill(0));
  for (let j = 0; j < z0.length; j++) {
    const h = 1e-3 * Math.max(1, Math.abs(z0[j]));
    const D = (s: number) => {
      const zp = [...z0];
      const zm = [...z0];
      zp[j] += s;
      zm[j] -= s;
      const a = g(zp);
      const b = g(zm);
      return a.map((v, i) => (v - b[i]) / (2 * s));
    };
    const d1 = D(h);
    const d2 = D(h / 2);
    for (let i = 0; i < rows; i++) J[i][j] = (4 * d2[i] - d1[i]) / 3;
  }
  return J;
}

function eigCheck(A: number[][], reported: Complex[]): Check {
  const ev = A.length ? safeEigenvalues(A) : [];
  const scale = 1 + Math.max(0, ...ev.map(([a, b]) => Math.hypot(a, b)));
  const d = ev.length === reported.length ? Math.max(0, ...matchedDistances(ev, reported)) / scale : Infinity;
  return check('eigenvalues of the Jacobian', d, 1e-5, `the eigenvalues of a finite-difference Jacobian (verifier's eigensolver) match the reported ones`);
}

export function eqptChecks(a: R, r: R): Check[] {
  const mm = mathjsModel(a);
  const x = r.x as number[];
  const u = r.u as number[];
  const scale = 1 + inf(x) + inf(u);
  const checks: Check[] = [];
  const f = mm.f(x, u);
  checks.push(check('f(x, u) = 0', inf(f) / scale, 1e-8, `max |f(x, u)| at the reported point, by mathjs's own evaluation, relative to 1 + |x| + |u|`));
  const y = mm.h(x, u);
  if (a.y0 !== undefined) {
    const y0 = flat(a.y0);
    checks.push(check('output at its target', inf(y.map((v, i) => v - y0[i])) / (1 + inf(y0)), 1e-8, 'max |h(x, u) − y0| at the reported point'));
  } else {
    const u0 = a.u0 === undefined ? new Array(mm.m).fill(0) : flat(a.u0);
    const uu = u0.length === 1 && mm.m > 1 ? new Array(mm.m).fill(u0[0]) : u0;
    checks.push(check('input held', inf(u.map((v, i) => v - uu[i])), 0, 'the reported input is the u0 given'));
  }
  checks.push(check('output', inf(y.map((v, i) => v - (r.y as number[])[i])) / (1 + inf(y)), 1e-10, 'the reported y is h(x, u)'));
  const A = fdJac((z) => mm.f(z, u), [...x], mm.n);
  const ec = eigCheck(A, r.eigenvalues as Complex[]);
  checks.push(ec);
  // the verdict, where the verifier's eigenvalues leave no doubt
  const ev = A.length ? safeEigenvalues(A) : [];
  const big = 1 + Math.max(0, ...ev.map(([p, q]) => Math.hypot(p, q)));
  const clear = ev.every(([re]) => Math.abs(re) > 1e-5 * big);
  if (clear) {
    const verdict = ev.every(([re]) => re < 0) ? 'stable' : 'unstable';
    checks.push({ name: 'stability verdict', ok: r.stability === verdict, detail: `the verifier's eigenvalues say ${verdict}; reported ${r.stability}` });
  }
  return checks;
}

export function linearizeChecks(a: R, r: R): Check[] {
  const mm = mathjsModel(a);
  const x = r.x as number[];
  const u = r.u as number[];
  const z0 = [...x, ...u];
  const split = (z: number[]) => [z.slice(0, mm.n), z.slice(mm.n)] as const;
  const Jf = fdJac((z) => mm.f(...split(z)), z0, mm.n);
  const Jh = fdJac((z) => mm.h(...split(z)), z0, mm.p);
  const A = Jf.map((row) => row.slice(0, mm.n));
  const B = Jf.map((row) => row.slice(mm.n));
  const C = Jh.map((row) => row.slice(0, mm.n));
  const D = Jh.map((row) => row.slice(mm.n));
  const checks: Check[] = [];
  for (const [name, fd, rep] of [
    ['A', A, r.A],
    ['B', B, r.B],
    ['C', C, r.C],
    ['D', D, r.D],
  ] as const) {
    const R = rep as number[][];
    if (R.length !== fd.length || R.some((row, i) => row.length !== fd[i].length)) {
      checks.push({ name: `${name} size`, ok: false, detail: `${name} has the wrong size` });
      continue;
    }
    const err = maxAbs(fd.map((row, i) => row.map((v, j) => v - R[i][j])));
    if (fd.length && fd[0].length)
      checks.push(
        check(
          `${name} by finite differences`,
          err / (1 + maxAbs(fd)),
          1e-6,
          `${name} against central differences with Richardson extrapolation (max difference, relative to 1 + max|${name}|)`,
        ),
      );
  }
  const dx = mm.f(x, u);
  checks.push(check('drift f(x, u)', inf(dx.map((v, i) => v - (r.dx as number[])[i])) / (1 + inf(dx)), 1e-10, 'the reported f(x, u) at the point'));
  const scale = 1 + maxAbs(A) * (1 + inf(x)) + maxAbs(B) * (1 + inf(u));
  const isEq = inf(dx) <= 1e-9 * scale;
  const clear = inf(dx) <= 1e-10 * scale || inf(dx) >= 1e-8 * scale;
  if (clear)
    checks.push({
      name: 'equilibrium flag',
      ok: r.equilibrium === isEq,
      detail: `max |f(x, u)| = ${inf(dx).toExponential(1)}: ${isEq ? '' : 'not '}an equilibrium`,
    });
  checks.push(eigCheck(A, r.eigenvalues as Complex[]));
  return checks;
}

/**
 * Each reported step of a trajectory re-integrated from its reported start by fixed-step RK4 (8
 * substeps, the verifier's own right-hand side): the worst distance of the RK4 end from the
 * reported end, in units of atol + rtol·|x| (nlsim and cbf_filter). `onSubstep` sees every RK4 state.
 */
export function reintegrateRK4(
  F: (s: number, x: number[]) => number[],
  t: number[],
  X: number[][],
  rtol: number,
  atol: number,
  onSubstep?: (x: number[]) => void,
): { worst: number } {
  let worst = 0;
  for (let k = 0; k + 1 < t.length; k++) {
    const sub = 8;
    const h = (t[k + 1] - t[k]) / sub;
    let x = [...X[k]];
    let s = t[k];
    for (let j = 0; j < sub; j++) {
      const k1 = F(s, x);
      const k2 = F(
        s + h / 2,
        x.map((v, i) => v + (h / 2) * k1[i]),
      );
      const k3 = F(
        s + h / 2,
        x.map((v, i) => v + (h / 2) * k2[i]),
      );
      const k4 = F(
        s + h,
        x.map((v, i) => v + h * k3[i]),
      );
      x = x.map((v, i) => v + (h / 6) * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]));
      s += h;
      onSubstep?.(x);
    }
    for (let i = 0; i < x.length; i++) {
      const tol = atol + rtol * Math.max(Math.abs(X[k + 1][i]), Math.abs(X[k][i]));
      worst = Math.max(worst, Math.abs(x[i] - X[k + 1][i]) / tol);
    }
  }
  return { worst };
}

export function nlsimChecks(a: R, r: R): Check[] {
  const mm = mathjsModel(a);
  const t = r.t as number[];
  const X = r.x as number[][];
  const U = r.u as number[][];
  const checks: Check[] = [];
  const x0 = flat(a.x0);
  checks.push(check('initial state', inf(X[0].map((v, i) => v - x0[i])), 0, 'x(0) is x0'));
  const tf = typeof a.tfinal === 'number' ? a.tfinal : 10;
  let mono = t[0] === 0 && Math.abs(t[t.length - 1] - tf) <= 1e-12 * tf;
  for (let k = 1; k < t.length; k++) if (!(t[k] > t[k - 1])) mono = false;
  checks.push({ name: 'time span', ok: mono, detail: `t increases from 0 to tfinal = ${tf} s` });
  // the input by mathjs's evaluation of each formula
  const items: unknown[] = mm.m ? (a.u === undefined ? [0] : Array.isArray(a.u) ? (a.u as unknown[]).flat() : [a.u]) : [];
  const list = items.length === 1 && mm.m > 1 ? new Array(mm.m).fill(items[0]) : items;
  const ufs = list.map((v) => (typeof v === 'number' ? () => v : mathjsFormula(String(v))));
  const uAt = (s: number) => ufs.map((g) => g(s));
  let uerr = 0;
  for (let k = 0; k < t.length; k += Math.max(1, Math.floor(t.length / 200))) uerr = Math.max(uerr, inf(uAt(t[k]).map((v, i) => v - U[k][i])));
  checks.push(check('input', uerr, 1e-12, 'u(t) re-evaluated by mathjs at the reported times'));
  // each step re-integrated from its start by RK4 with 8 substeps
  const { worst } = reintegrateRK4((s, x) => mm.f(x, uAt(s)), t, X, r.rtol as number, r.atol as number);
  checks.push(
    check(
      'each step by RK4',
      worst / 50,
      1,
      `every reported step re-integrated from its start by fixed-step RK4 (8 substeps, mathjs's evaluation of f) lands within 50·(atol + rtol·|x|) of the reported end (worst ratio / 50)`,
    ),
  );
  let yerr = 0;
  const Y = r.y as number[][];
  for (let k = 0; k < t.length; k++) {
    const y = mm.h(X[k], U[k]);
    yerr = Math.max(yerr, inf(y.map((v, i) => v - Y[k][i])) / (1 + inf(y)));
  }
  checks.push(check('outputs', yerr, 1e-10, 'y = h(x, u) at every reported point'));
  return checks;
}

/**
 * lyapunov_check: the equilibrium (mathjs's f), A by finite differences, P ≻ 0 and A'P + PA ≺ 0 by
 * the verifier's eigensolver, the Lyapunov residual when P came from lyap, the level set inside
 * the sampled box, and 2,000 seeded random points of {V < c} (not the solver's grid) with V̇ < 0.
 */
export function lyapunovChecks(a: R, r: R): Check[] {
  const mm = mathjsModel(a);
  const x = r.x as number[];
  const u = r.u as number[];
  const n = mm.n;
  const P = r.P as number[][];
  const checks: Check[] = [];
  const A = fdJac((z) => mm.f(z, u), [...x], n);
  checks.push(check('equilibrium', inf(mm.f(x, u)) / (1 + inf(x)), 1e-8, 'max |f(x, u)| at the point, by mathjs'));
  checks.push(
    check(
      'A by finite differences',
      maxAbs(A.map((row, i) => row.map((v, j) => v - (r.A as number[][])[i][j]))) / (1 + maxAbs(A)),
      1e-6,
      'the reported A against central differences',
    ),
  );
  const pe = safeEigenvalues(P).map((z) => z[0]);
  checks.push({
    name: 'P positive definite',
    ok: pe.every((v) => v > 0),
    detail: `least eigenvalue of P ${Math.min(...pe).toExponential(2)} (verifier's eigensolver)`,
  });
  const L = A.map((_, i) => A.map((__, j) => A.reduce((s, row, l) => s + row[i] * P[l][j] + P[i][l] * A[l][j], 0)));
  const le = safeEigenvalues(L.map((row, i) => row.map((v, j) => (v + L[j][i]) / 2))).map((z) => z[0]);
  checks.push({ name: "A'P + PA negative definite", ok: le.every((v) => v < 0), detail: `largest eigenvalue of A'P + PA ${Math.max(...le).toExponential(2)}` });
  if (r.P_from === 'lyap') {
    const Q = r.Q as number[][];
    checks.push(
      check(
        'Lyapunov residual',
        maxAbs(L.map((row, i) => row.map((v, j) => v + Q[i][j]))) / (1 + maxAbs(Q) + maxAbs(P) * maxAbs(A)),
        1e-6,
        "A'P + PA + Q with A by finite differences",
      ),
    );
  }
  // P^-1 by Gauss-Jordan (n ≤ 4) for the ellipsoid's bounding box: |d_i| ≤ sqrt(c (P^-1)_ii)
  const Pi = P.map((row, i) => [...row, ...row.map((_, j) => (i === j ? 1 : 0))]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let i = c + 1; i < n; i++) if (Math.abs(Pi[i][c]) > Math.abs(Pi[p][c])) p = i;
    [Pi[c], Pi[p]] = [Pi[p], Pi[c]];
    const d = Pi[c][c];
    Pi[c] = Pi[c].map((v) => v / d);
    for (let i = 0; i < n; i++) if (i !== c) Pi[i] = Pi[i].map((v, j) => v - Pi[i][c] * Pi[c][j]);
  }
  const c = r.c as number;
  const half = Array.from({ length: n }, (_, i) => Math.sqrt(Math.max(0, c * Pi[i][n + i])));
  checks.push({
    name: 'level set in the box',
    ok: half.every((h) => h <= (r.radius as number) * (1 + 1e-9)),
    detail: `the ellipsoid {V < c} reaches ${Math.max(...half).toPrecision(4)} from xe along an axis; the sampled box ${r.radius}`,
  });
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  const V = (d: number[]) => d.reduce((s, di, i) => s + di * P[i].reduce((t, pij, j) => t + pij * d[j], 0), 0);
  let bad = 0;
  let tried = 0;
  for (let k = 0; k < 20000 && tried < 2000; k++) {
    const d = half.map((h) => h * rnd());
    const v = V(d);
    if (!(v < c) || v === 0) continue;
    tried++;
    const f = mm.f(
      d.map((di, i) => di + x[i]),
      u,
    );
    const vdot = 2 * d.reduce((s, di, i) => s + di * P[i].reduce((t, pij, j) => t + pij * f[j], 0), 0);
    if (!(vdot < 0)) bad++;
  }
  checks.push({
    name: 'V̇ < 0 in the level set',
    ok: bad === 0,
    detail: `${tried} random points of {V < c} (seeded, not the solver's grid): ${bad} with V̇ ≥ 0 (mathjs's f)`,
  });
  return checks;
}
