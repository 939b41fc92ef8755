/**
 * Strictly convex quadratic programs with linear inequalities,
 *
 *     minimise ½ x'Hx + f'x   subject to   G x ≤ h,       H symmetric positive definite,
 *
 * by the dual active-set method of Goldfarb and Idnani (Math. Programming 27, 1983), the method
 * of MATLAB's mpcActiveSetSolver/quadprog's 'active-set' predecessor, R's quadprog and the npm
 * package `quadprog`. Why written here rather than taken from npm `quadprog` (1.6.1, a
 * line-by-line port of the 1997 Fortran with 1-based arrays and no release notes or tests of its
 * own): the kernel keeps no dependency it cannot test, and the MPC that uses this needs what
 * the dual method gives by construction and the port does not expose: (1) no phase 1: it starts
 * from the unconstrained minimum −H⁻¹f, so a QP always has a starting point; (2) infeasibility
 * is found *at a named constraint*: when the most violated constraint cannot be satisfied
 * together with the active ones, the method stops there, so an infeasible MPC step can say
 * which bound failed; (3) H is factored once (H = LL') and L⁻¹Gᵢ' computed once per problem
 * family: a receding-horizon loop solves the same H and G with a new f and h at every step.
 *
 * Dense and small by design (hundreds of variables), triangular solves with L throughout (no
 * explicit inverse, so the unconstrained start is backward stable): the active constraints' columns
 * dᵢ = L⁻¹nᵢ (nᵢ = −Gᵢ', the ≥ form) are kept orthonormalised (Gram–Schmidt with one
 * reorthogonalisation, rebuilt after a drop), which is the J = L⁻ᵀQ of the paper without its
 * Givens updates. Steps: z = L⁻ᵀ(I − Q₁Q₁')d_p (primal), r = R⁻¹Q₁'d_p (dual); full step
 * t₂ = −s_p/‖(I − Q₁Q₁')d_p‖², partial step t₁ = min uⱼ/rⱼ over rⱼ > 0. A constraint enters only
 * with a nonzero primal direction, so the active set stays linearly independent.
 *
 * The multipliers λ ≥ 0 returned satisfy Hx + f + G'λ = 0 on the active set (KKT).
 */
import { type Mat, cholesky, zeros } from './dense.js';

export interface QpProblem {
  /** number of variables */
  n: number;
  /** the Cholesky factor L of H = LL' (lower triangular, row-major n x n) */
  L: Float64Array;
  /** the constraint rows G (nc x n) */
  G: Mat;
  /** dᵢ = −L⁻¹Gᵢ' for each constraint, row i of an nc x n array */
  D: Float64Array;
  /** ‖Gᵢ‖ (a zero row: 0) */
  gnorm: Float64Array;
}

export interface QpSolution {
  x: Float64Array;
  /** one multiplier per constraint, ≥ 0, zero off the active set */
  lambda: Float64Array;
  /** the active constraints at the solution, in the order they entered */
  active: number[];
  /** constraints added or dropped */
  iterations: number;
}

export interface QpInfeasible {
  infeasible: true;
  /** the constraint that cannot be satisfied together with `active` */
  constraint: number;
  active: number[];
  iterations: number;
}

/** the factors of one problem family (H, G); null when H is not positive definite */
export function qpPrepare(H: Mat, G: Mat): QpProblem | null {
  const n = H.r;
  const L = cholesky(H);
  if (!L) return null;
  const nc = G.r;
  const D = new Float64Array(nc * n);
  const gnorm = new Float64Array(nc);
  const Ld = L.d;
  for (let c = 0; c < nc; c++) {
    let g2 = 0;
    for (let k = 0; k < n; k++) g2 += G.d[c * n + k] ** 2;
    gnorm[c] = Math.sqrt(g2);
    // dᵢ = −L⁻¹Gᵢ' by forward substitution (backward stable, no explicit inverse)
    for (let i = 0; i < n; i++) {
      let s = -G.d[c * n + i];
      for (let k = 0; k < i; k++) s -= Ld[i * n + k] * D[c * n + k];
      D[c * n + i] = s / Ld[i * n + i];
    }
  }
  return { n, L: Ld, G, D, gnorm };
}

/** L⁻ᵀ v (back substitution) */
function ltSolve(P: QpProblem, v: ArrayLike<number>): Float64Array {
  const { n, L } = P;
  const out = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = v[i];
    for (let k = i + 1; k < n; k++) s -= L[k * n + i] * out[k];
    out[i] = s / L[i * n + i];
  }
  return out;
}

/** L⁻¹ v (forward substitution) */
function lSolve(P: QpProblem, v: ArrayLike<number>): Float64Array {
  const { n, L } = P;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = v[i];
    for (let k = 0; k < i; k++) s -= L[i * n + k] * out[k];
    out[i] = s / L[i * n + i];
  }
  return out;
}

const dot = (a: Float64Array, b: Float64Array, bo = 0, n = a.length) => {
  let s = 0;
  for (let i = 0; i < n; i++) s += a[i] * b[bo + i];
  return s;
};

/** the orthonormal basis Q₁ (as a list of vectors) and R of the active columns dᵢ */
interface Basis {
  q: Float64Array[];
  /** R by columns: R[j] has j + 1 entries */
  R: number[][];
}

/** w = Q₁'d and the part of d orthogonal to Q₁ (two Gram–Schmidt passes) */
function project(B: Basis, d: Float64Array): { w: number[]; z: Float64Array } {
  const z = Float64Array.from(d);
  const w = new Array<number>(B.q.length).fill(0);
  for (let pass = 0; pass < 2; pass++)
    for (let j = 0; j < B.q.length; j++) {
      const c = dot(B.q[j], z);
      w[j] += c;
      const qj = B.q[j];
      for (let i = 0; i < z.length; i++) z[i] -= c * qj[i];
    }
  return { w, z };
}

function addColumn(B: Basis, w: number[], z: Float64Array, zn: number): void {
  B.q.push(z.map((v) => v / zn));
  B.R.push([...w, zn]);
}

function rebuild(P: QpProblem, active: number[]): Basis {
  const B: Basis = { q: [], R: [] };
  for (const c of active) {
    const d = P.D.subarray(c * P.n, (c + 1) * P.n) as Float64Array;
    const { w, z } = project(B, d);
    addColumn(B, w, z, Math.sqrt(dot(z, z)));
  }
  return B;
}

/** R r = w (R upper triangular, stored by columns) */
function backSolve(B: Basis, w: number[]): number[] {
  const q = w.length;
  const r = w.slice();
  for (let i = q - 1; i >= 0; i--) {
    for (let j = i + 1; j < q; j++) r[i] -= B.R[j][i] * r[j];
    r[i] /= B.R[i][i];
  }
  return r;
}

/**
 * Solves min ½x'Hx + f'x s.t. Gx ≤ h for one (f, h) of the prepared family. `maxIter` bounds
 * the additions and drops (default 10·(n + nc) + 100); reaching it throws.
 */
export function qpSolve(P: QpProblem, f: ArrayLike<number>, h: ArrayLike<number>, maxIter?: number): QpSolution | QpInfeasible {
  const { n, G, D, gnorm } = P;
  const nc = G.r;
  const cap = maxIter ?? 10 * (n + nc) + 100;
  // the unconstrained minimum x = −H⁻¹f = −L⁻ᵀL⁻¹f
  const x = ltSolve(
    P,
    lSolve(
      P,
      Array.from(f, (v) => -v),
    ),
  );
  const active: number[] = [];
  let u: number[] = [];
  let B: Basis = { q: [], R: [] };
  let iterations = 0;
  const slack = (c: number) => {
    let s = h[c];
    for (let k = 0; k < n; k++) s -= G.d[c * n + k] * x[k];
    return s;
  };
  // a violation counts above this, relative to the row's size and the point's
  const tolOf = (c: number) => {
    let xn = 0;
    for (let k = 0; k < n; k++) xn = Math.max(xn, Math.abs(x[k]));
    return 1e-10 * Math.max(1, Math.abs(h[c]), gnorm[c] * xn);
  };
  for (;;) {
    // the most violated constraint, scaled by its row's norm
    let p = -1;
    let worst = 0;
    for (let c = 0; c < nc; c++) {
      if (active.includes(c)) continue;
      const s = slack(c);
      if (s < -tolOf(c)) {
        const v = s / Math.max(gnorm[c], 1e-300);
        if (p < 0 || v < worst) {
          p = c;
          worst = v;
        }
      }
    }
    if (p < 0) break;
    let up = 0;
    const dp = D.subarray(p * n, (p + 1) * n) as Float64Array;
    const dn = Math.sqrt(dot(dp, dp));
    for (;;) {
      if (++iterations > cap) throw new Error(`qpSolve: no convergence in ${cap} active-set changes`);
      const { w, z } = project(B, dp);
      const zn2 = dot(z, z);
      const r = active.length ? backSolve(B, w) : [];
      let t1 = Infinity;
      let l = -1;
      const rmax = r.reduce((a, v) => Math.max(a, Math.abs(v)), 0);
      for (let j = 0; j < r.length; j++)
        if (r[j] > 1e-13 * Math.max(1, rmax) && u[j] / r[j] < t1) {
          t1 = u[j] / r[j];
          l = j;
        }
      const sp = slack(p);
      const t2 = zn2 > (1e-11 * dn) ** 2 ? -sp / zn2 : Infinity;
      if (t1 === Infinity && t2 === Infinity) return { infeasible: true, constraint: p, active: active.slice(), iterations };
      const t = Math.min(t1, t2);
      if (t2 < Infinity) {
        const step = ltSolve(P, z);
        for (let i = 0; i < n; i++) x[i] += t * step[i];
      }
      for (let j = 0; j < u.length; j++) u[j] -= t * r[j];
      up += t;
      if (t2 <= t1) {
        active.push(p);
        u.push(up);
        addColumn(B, w, z, Math.sqrt(zn2));
        break;
      }
      // a partial step: the blocking constraint leaves the active set
      active.splice(l, 1);
      u = u.filter((_, j) => j !== l);
      B = rebuild(P, active);
    }
  }
  const lambda = new Float64Array(nc);
  active.forEach((c, j) => (lambda[c] = Math.max(u[j], 0)));
  return { x, lambda, active, iterations };
}

/** a problem family from rows: H (n x n) and G (nc x n) as Mats; null when H is not positive definite */
export function qpFromRows(H: number[][], G: number[][]): QpProblem | null {
  const n = H.length;
  const Hm = zeros(n, n);
  H.forEach((row, i) => row.forEach((v, j) => (Hm.d[i * n + j] = v)));
  const Gm = zeros(G.length, n);
  G.forEach((row, i) => row.forEach((v, j) => (Gm.d[i * n + j] = v)));
  return qpPrepare(Hm, Gm);
}
