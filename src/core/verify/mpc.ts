/**
 * Independent checks of `mpc` (solvers/mpc.ts). The solver condenses each step's QP into
 * prediction matrices (Φ, Γ), a Hessian H and constraint rows, and solves it by a dual active-set
 * method; none of that is used here. From the arguments as the user gave them and the reported
 * numbers, this module:
 *
 * - the model: a continuous plant is discretised here by the verifier's own matrix exponential of
 *   [A B; 0 0]·Ts (numeric.ts safeExpm, mathjs's Padé) and compared with the model reported; a
 *   transfer function's realisation is judged by its Markov parameters C A^(k−1) B against the
 *   series expansion of num/den (long division here);
 * - the terminal weight P, when it is the default, by its DARE residual; the target (xs, us) by
 *   (A − I)xs + B us = 0 and C xs = r;
 * - the closed loop re-simulated from x0 with the reported inputs (plain loops), and each applied
 *   input the first move of that step's reported plan (receding horizon);
 * - each step's QP by its KKT conditions, with the prediction *simulated* from x[k] and the
 *   plan, and the gradient of the cost and constraints by the adjoint (costate) recursion
 *   λ_j = 2Q(x_j − xs) + A'λ_{j+1} (+ the state constraints' multipliers), never by Γ:
 *   primal feasibility of every constraint the call gives (listed active or not), dual
 *   feasibility (multipliers ≥ 0), complementary slackness (a multiplier only on a bound met with
 *   equality) and stationarity ∇J + Σ λᵢ∇gᵢ = 0. For a convex QP these certify the optimum;
 * - each step's QP cost and the closed loop's cost recomputed from the trajectories;
 * - with the DARE terminal weight, no rate weight and Nc = N: at every step with no constraint
 *   active, the move is dlqr's u = us − K(x − xs), K = (R + B'PB)⁻¹B'PA formed here.
 */
import { Matrix as M, solve } from 'ml-matrix';
import type { Matrix } from '../types.js';
import type { Check } from './index.js';
import { check, safeExpm } from './numeric.js';

type Vec = number[];
const given = (v: unknown): boolean => v !== undefined && v !== null;
const eye = (n: number): Matrix => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (__, j) => (i === j ? 1 : 0)));
const zerosM = (r: number, c: number): Matrix => Array.from({ length: r }, () => new Array(c).fill(0));
const mv = (A: Matrix, x: Vec): Vec => A.map((row) => row.reduce((s, a, j) => s + a * x[j], 0));
const mtv = (A: Matrix, x: Vec): Vec => (A[0] ?? []).map((_, j) => A.reduce((s, row, i) => s + row[j] * x[i], 0));
const sub = (a: Vec, b: Vec): Vec => a.map((v, i) => v - b[i]);
const maxAbs = (v: Vec) => v.reduce((s, x) => Math.max(s, Math.abs(x)), 0);
const quad = (W: Matrix, e: Vec) => e.reduce((s, ei, a) => s + ei * W[a].reduce((t, w, b) => t + w * e[b], 0), 0);
const relDiff = (A: Matrix, B: Matrix) => {
  let d = 0,
    s = 1e-300;
  A.forEach((r, i) =>
    r.forEach((v, j) => {
      d = Math.max(d, Math.abs(v - (B[i]?.[j] ?? NaN)));
      s = Math.max(s, Math.abs(v));
    }),
  );
  return Number.isNaN(d) ? Infinity : d / Math.max(s, 1);
};
const flat = (v: unknown): Vec => (Array.isArray(v) ? (v as unknown[]).flatMap((e) => (Array.isArray(e) ? e : [e])) : []) as Vec;

/** a bound as given: a number for all components, a list (null: none), or none */
function boundOf(v: unknown, len: number): (number | null)[] | undefined {
  if (!given(v)) return undefined;
  if (typeof v === 'number') return new Array(len).fill(v);
  if (Array.isArray(v) && v.length === 1 && Array.isArray(v[0]) && v[0].length === 1 && typeof v[0][0] === 'number') return new Array(len).fill(v[0][0]);
  return flat(v).map((e) => (typeof e === 'number' && Number.isFinite(e) ? e : null));
}

/** the impulse coefficients h_1, h_2, … of num/den expanded in powers of 1/s (strictly proper) */
function markovOfTf(num: Vec, den: Vec, count: number): Vec {
  let i = 0;
  while (i < den.length - 1 && den[i] === 0) i++;
  const a = den.slice(i).map((v) => v / den[i]);
  const n = a.length - 1;
  const b = flat(num).map((v) => v / den[i]);
  const bp = [...new Array(Math.max(0, n + 1 - b.length)).fill(0), ...b].slice(-(n + 1));
  const h: Vec = [];
  for (let k = 1; k <= count; k++) {
    let s = k <= n ? bp[k] : 0;
    for (let j = 1; j < k && j <= n; j++) s -= a[j] * h[k - 1 - j];
    h.push(s);
  }
  return h;
}

interface Model {
  A: Matrix;
  B: Matrix;
  C: Matrix;
  hasC: boolean;
}

function modelChecks(a: Record<string, any>, r: Record<string, any>, checks: Check[]): Model | undefined {
  const Ts = a.Ts as number;
  const continuous = a.continuous === true;
  let Ac: Matrix, Bc: Matrix, C: Matrix;
  let hasC = true;
  if (given(a.num)) {
    const re = r.realization as { A: Matrix; B: Matrix; C: Matrix } | undefined;
    if (!re) {
      checks.push({ name: 'realisation', ok: false, detail: 'a transfer function plant but no realisation reported' });
      return undefined;
    }
    const n = re.A.length;
    const h = markovOfTf(a.num, a.den, 2 * n);
    const mk: Vec = [];
    let x = re.B.map((row) => row[0]);
    for (let k = 0; k < 2 * n; k++) {
      mk.push(re.C[0].reduce((s, c, j) => s + c * x[j], 0));
      x = mv(re.A, x);
    }
    const err = maxAbs(sub(mk, h)) / Math.max(1, maxAbs(h));
    checks.push(check('realisation', err, 1e-9, `the realisation's Markov parameters C A^(k−1) B, k = 1…${2 * n}, equal num/den's series expansion`));
    ({ A: Ac, B: Bc, C } = re);
  } else {
    Ac = a.A;
    Bc = a.B;
    hasC = given(a.C);
    C = hasC ? a.C : eye(Ac.length);
  }
  const n = Ac.length,
    m = Bc[0].length;
  let A = Ac,
    B = Bc;
  if (continuous) {
    const Maug = zerosM(n + m, n + m);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) Maug[i][j] = Ac[i][j];
      for (let j = 0; j < m; j++) Maug[i][n + j] = Bc[i][j];
    }
    const E = safeExpm(Maug, Ts);
    if (!E) {
      checks.push({ name: 'zoh discretisation', ok: false, detail: 'exp([A B; 0 0]·Ts) overflows in double precision' });
      return undefined;
    }
    A = E.slice(0, n).map((row) => row.slice(0, n));
    B = E.slice(0, n).map((row) => row.slice(n));
    const err = Math.max(relDiff(A, r.model.A), relDiff(B, r.model.B));
    checks.push(check('zoh discretisation', err, 1e-9, 'Ad, Bd from the verifier’s exp([A B; 0 0]·Ts) equal the model the controller used'));
  } else {
    const err = Math.max(relDiff(A, r.model.A), relDiff(B, r.model.B), relDiff(C, r.model.C));
    checks.push(check('model', err, 0, 'the controller’s model is the plant as given'));
  }
  return { A, B, C, hasC };
}

/** P'·(A'PA − P − A'PB(R + B'PB)⁻¹B'PA + Q) relative to its terms */
function dareResidual(A: Matrix, B: Matrix, Q: Matrix, R: Matrix, P: Matrix): { err: number; K: Matrix } {
  const Am = new M(A),
    Bm = new M(B),
    Pm = new M(P);
  const BtP = Bm.transpose().mmul(Pm);
  const K = solve(new M(R).add(BtP.mmul(Bm)), BtP.mmul(Am));
  const AtPA = Am.transpose().mmul(Pm).mmul(Am);
  const cross = Am.transpose().mmul(Pm).mmul(Bm).mmul(K);
  const res = AtPA.clone().sub(Pm).sub(cross).add(new M(Q));
  const scale = AtPA.norm() + Pm.norm() + cross.norm() + new M(Q).norm();
  return { err: res.norm() / Math.max(scale, 1e-300), K: K.to2DArray() };
}

export function mpcChecks(a: Record<string, any>, r: Record<string, any>): Check[] {
  const checks: Check[] = [];
  const model = modelChecks(a, r, checks);
  if (!model) return checks;
  const { A, B, C, hasC } = model;
  const n = A.length,
    m = B[0].length,
    p = C.length;
  const N = a.N as number;
  const Nc = given(a.Nc) ? (a.Nc as number) : N;
  // the weights as the call gives them, or their stated defaults
  const Q: Matrix = given(a.Q) ? a.Q : hasC ? mtvMat(C) : eye(n);
  const R: Matrix = given(a.R) ? a.R : eye(m);
  const S: Matrix = given(a.S) ? a.S : zerosM(m, m);
  let P: Matrix;
  let Kd: Matrix | undefined;
  if (given(a.P)) P = a.P;
  else {
    P = r.P;
    const { err, K } = dareResidual(A, B, Q, R, P);
    Kd = K;
    checks.push(check('terminal weight (DARE)', err, 1e-9, "P solves the DARE A'PA − P − A'PB(R + B'PB)⁻¹B'PA + Q = 0 (residual, relative)"));
  }
  // the target
  let xs: Vec = new Array(n).fill(0),
    us: Vec = new Array(m).fill(0);
  if (given(a.r)) {
    xs = r.xs;
    us = r.us;
    const ref = flat(a.r);
    const Bus = mv(B, us);
    const eq = sub(mv(A, xs), xs).map((v, i) => v + Bus[i]);
    const err = Math.max(maxAbs(eq), maxAbs(sub(mv(C, xs), ref))) / Math.max(1, maxAbs(ref), maxAbs(xs));
    checks.push(check('steady-state target', err, 1e-9, '(A − I)xs + B·us = 0 and C·xs = r'));
  }
  // the closed loop, re-simulated
  const x0: Vec = given(a.x0) ? flat(a.x0) : new Array(n).fill(0);
  const uPrev: Vec = given(a.u_prev) ? flat(a.u_prev) : new Array(m).fill(0);
  const U = r.u as Matrix;
  const steps = U.length;
  const X: Vec[] = [x0];
  for (let k = 0; k < steps; k++) X.push(mv(A, X[k]).map((v, i) => v + mv(B, U[k])[i]));
  const simErr = Math.max(
    relDiff(X, r.x),
    relDiff(
      X.map((x) => mv(C, x)),
      r.y,
    ),
  );
  checks.push(
    check('closed loop re-simulated', simErr, 1e-9, 'x[k+1] = A x[k] + B u[k] from x0 with the reported inputs gives the reported states and outputs'),
  );
  let recede = 0;
  for (let k = 0; k < steps; k++) recede = Math.max(recede, maxAbs(sub(U[k], r.plans[k][0])));
  checks.push(check('receding horizon', recede, 0, 'each applied input is the first move of that step’s optimal plan'));

  // KKT of each step's QP, by simulation and the adjoint recursion
  const bounds = {
    u: [boundOf(a.umin, m), boundOf(a.umax, m)],
    du: [boundOf(a.dumin, m), boundOf(a.dumax, m)],
    x: [boundOf(a.xmin, n), boundOf(a.xmax, n)],
    y: [boundOf(a.ymin, p), boundOf(a.ymax, p)],
  } as const;
  let primal = 0,
    dualNeg = 0,
    slackness = 0,
    station = 0,
    costErr = 0,
    lqrErr = 0,
    lqrSteps = 0;
  const plainLqr = !given(a.P) && !S.some((row) => row.some((v) => v !== 0)) && Nc === N && Kd;
  for (let k = 0; k < steps; k++) {
    const plan = r.plans[k] as Matrix;
    const uj = (j: number) => plan[Math.min(j, Nc - 1)];
    // the QP was posed at the reported state (the re-simulation above holds the states to the dynamics;
    // an unstable plant re-simulated open loop drifts from them by rounding along its unstable modes)
    const xk = (r.x as Matrix)[k];
    const upk = k === 0 ? uPrev : U[k - 1];
    const xp: Vec[] = [xk];
    for (let j = 0; j < N; j++) xp.push(mv(A, xp[j]).map((v, i) => v + mv(B, uj(j))[i]));
    // the magnitudes the rounding of each term scales with: |x_j| propagated through |A|, |B|
    // (the prediction's own sums) and |λ_j| through |A|' (the adjoint's), so a residual is judged
    // against the size of what cancelled in it, not against its small result
    const absM = (X: Matrix) => X.map((row) => row.map(Math.abs));
    const Aa = absM(A),
      Ba = absM(B),
      Qa = absM(Q),
      Pa = absM(P);
    const xAbs: Vec[] = [xk.map(Math.abs)];
    for (let j = 0; j < N; j++) xAbs.push(mv(Aa, xAbs[j]).map((v, i) => v + mv(Ba, uj(j).map(Math.abs))[i]));
    // primal feasibility of every bound given, and the slack of each (for complementary slackness)
    const rel = (over: number, bnd: number, v: number, mag = 0) => over / Math.max(1, Math.abs(bnd), Math.abs(v), mag);
    const magOf = (kind: 'u' | 'du' | 'x' | 'y', j: number, i: number) =>
      kind === 'x' ? xAbs[j][i] : kind === 'y' ? C[i].reduce((s, c, b) => s + Math.abs(c) * xAbs[j][b], 0) : 0;
    const valueOf = (kind: 'u' | 'du' | 'x' | 'y', j: number, i: number) =>
      kind === 'u' ? uj(j)[i] : kind === 'du' ? uj(j)[i] - (j === 0 ? upk : uj(j - 1))[i] : kind === 'x' ? xp[j][i] : mv(C, xp[j])[i];
    for (const kind of ['u', 'du', 'x', 'y'] as const) {
      const [lo, hi] = bounds[kind];
      const js = kind === 'u' || kind === 'du' ? Array.from({ length: Nc }, (_, j) => j) : Array.from({ length: N }, (_, j) => j + 1);
      const len = kind === 'x' ? n : kind === 'y' ? p : m;
      for (const j of js)
        for (let i = 0; i < len; i++) {
          const v = valueOf(kind, j, i);
          if (hi?.[i] != null) primal = Math.max(primal, rel(v - hi[i]!, hi[i]!, v, magOf(kind, j, i)));
          if (lo?.[i] != null) primal = Math.max(primal, rel(lo[i]! - v, lo[i]!, v, magOf(kind, j, i)));
        }
    }
    // the multipliers: λ ≥ 0 on a bound met with equality
    const mu = {
      u: [] as [number, number, number][],
      du: [] as [number, number, number][],
      x: [] as [number, number, number][],
      y: [] as [number, number, number][],
    };
    for (const c of r.active[k] as { kind: 'u' | 'du' | 'x' | 'y'; j: number; i: number; side: 'min' | 'max'; lambda: number }[]) {
      dualNeg = Math.max(dualNeg, -c.lambda);
      const bnd = bounds[c.kind][c.side === 'max' ? 1 : 0]?.[c.i - 1];
      if (bnd == null) {
        slackness = Infinity;
        continue;
      }
      const v = valueOf(c.kind, c.j, c.i - 1);
      slackness = Math.max(slackness, rel(Math.abs(v - bnd), bnd, v, magOf(c.kind, c.j, c.i - 1)));
      // sign: +λ for an upper bound (g = v − max), −λ for a lower one (g = min − v)
      mu[c.kind].push([c.j, c.i - 1, c.side === 'max' ? c.lambda : -c.lambda]);
    }
    // the adjoint recursion: gradient of J + Σλg with respect to every u_j
    const grad: Vec[] = Array.from({ length: N }, () => new Array(m).fill(0));
    const gabs: Vec[] = Array.from({ length: N }, () => new Array(m).fill(0));
    const addTo = (j: number, i: number, v: number) => {
      grad[j][i] += v;
      gabs[j][i] += Math.abs(v);
    };
    const stateMu = (j: number): Vec => {
      const out = new Array(n).fill(0);
      for (const [jj, i, l] of mu.x) if (jj === j) out[i] += l;
      for (const [jj, i, l] of mu.y) if (jj === j) for (let b = 0; b < n; b++) out[b] += l * C[i][b];
      return out;
    };
    const xsA = xs.map(Math.abs);
    let lam = mv(P, sub(xp[N], xs))
      .map((v) => 2 * v)
      .map((v, b) => v + stateMu(N)[b]);
    let lamAbs = mv(
      Pa,
      xAbs[N].map((v, i) => v + xsA[i]),
    )
      .map((v) => 2 * v)
      .map((v, b) => v + Math.abs(stateMu(N)[b]));
    for (let j = N - 1; j >= 0; j--) {
      const btl = mtv(B, lam);
      const btlAbs = mtv(Ba, lamAbs);
      for (let i = 0; i < m; i++) gabs[j][i] += btlAbs[i];
      const ru = mv(R, sub(uj(j), us));
      const du = sub(uj(j), j === 0 ? upk : uj(j - 1));
      const sdu = mv(S, du);
      const sduNext = j + 1 < N ? mv(S, sub(uj(j + 1), uj(j))) : new Array(m).fill(0);
      for (let i = 0; i < m; i++) {
        addTo(j, i, btl[i]);
        addTo(j, i, 2 * ru[i]);
        addTo(j, i, 2 * sdu[i]);
        addTo(j, i, -2 * sduNext[i]);
      }
      // λ_j = 2Q(x_j − xs) + A'λ_{j+1} + the state multipliers at j (j ≥ 1)
      const qx = mv(Q, sub(xp[j], xs));
      const atl = mtv(A, lam);
      const sm = j >= 1 ? stateMu(j) : new Array(n).fill(0);
      lam = atl.map((v, b) => v + 2 * qx[b] + sm[b]);
      const qxAbs = mv(
        Qa,
        xAbs[j].map((v, i) => v + xsA[i]),
      );
      lamAbs = mtv(Aa, lamAbs).map((v, b) => v + 2 * qxAbs[b] + Math.abs(sm[b]));
    }
    for (const [j, i, l] of mu.u) addTo(j, i, l);
    for (const [j, i, l] of mu.du) {
      addTo(j, i, l);
      if (j > 0) addTo(j - 1, i, -l);
    }
    // the blocked moves: u_j = U_{Nc−1} for j ≥ Nc − 1
    // normwise: the largest residual against the largest term (a backward error of the whole plan)
    let resid = 0,
      scale = 1e-300;
    for (let b = 0; b < Nc; b++) {
      const js = b === Nc - 1 ? Array.from({ length: N - Nc + 1 }, (_, t) => Nc - 1 + t) : [b];
      for (let i = 0; i < m; i++) {
        resid = Math.max(resid, Math.abs(js.reduce((s, j) => s + grad[j][i], 0)));
        scale = Math.max(
          scale,
          js.reduce((s, j) => s + gabs[j][i], 0),
        );
      }
    }
    station = Math.max(station, resid / scale);
    // the QP cost, from the simulated prediction
    let J = 0,
      Jabs = 0;
    for (let j = 0; j < N; j++) {
      J += quad(Q, sub(xp[j], xs)) + quad(R, sub(uj(j), us)) + quad(S, sub(uj(j), j === 0 ? upk : uj(j - 1)));
      Jabs += quad(
        Qa,
        xAbs[j].map((v, i) => v + xsA[i]),
      );
    }
    J += quad(P, sub(xp[N], xs));
    Jabs += quad(
      Pa,
      xAbs[N].map((v, i) => v + xsA[i]),
    );
    costErr = Math.max(costErr, Math.abs(J - r.qp_cost[k]) / Math.max(1, Math.abs(J), Jabs));
    if (plainLqr && !(r.active[k] as unknown[]).length) {
      const u = sub(us, mv(Kd!, sub(xk, xs)));
      const uMag = maxAbs(mv(absM(Kd!), sub(xk, xs).map(Math.abs))) + maxAbs(us);
      lqrErr = Math.max(lqrErr, maxAbs(sub(u, U[k])) / Math.max(1, uMag));
      lqrSteps++;
    }
  }
  checks.push(
    check(
      'primal feasibility',
      Math.max(primal, 0),
      1e-8,
      'every bound holds along each step’s predicted inputs, rates, states and outputs (relative violation)',
    ),
  );
  checks.push(check('dual feasibility', Math.max(dualNeg, 0), 0, 'every multiplier of an active constraint is ≥ 0'));
  checks.push(check('complementary slackness', slackness, 1e-7, 'each constraint with a multiplier is met with equality'));
  checks.push(
    check(
      'KKT stationarity',
      station,
      1e-7,
      '∇J + Σλ∇g = 0 for each step’s plan, the gradient by the adjoint recursion on the simulated prediction (normwise, relative to its largest term)',
    ),
  );
  // the closed loop's cost
  let cl = 0;
  for (let k = 0; k < steps; k++) {
    const up = k === 0 ? uPrev : U[k - 1];
    cl += quad(Q, sub(X[k], xs)) + quad(R, sub(U[k], us)) + quad(S, sub(U[k], up));
  }
  costErr = Math.max(costErr, Math.abs(cl - r.cost) / Math.max(1, Math.abs(cl)));
  checks.push(check('costs', costErr, 1e-9, 'each step’s QP cost and the closed loop’s cost recomputed from the trajectories'));
  if (plainLqr && lqrSteps)
    checks.push(
      check(
        'unconstrained move = dlqr',
        lqrErr,
        1e-7,
        `at the ${lqrSteps} step(s) with no active constraint the move is dlqr’s u = us − K(x − xs), K = (R + B'PB)⁻¹B'PA formed here`,
      ),
    );
  return checks;
}

/** C'C */
function mtvMat(C: Matrix): Matrix {
  const n = C[0].length;
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (__, j) => C.reduce((s, row) => s + row[i] * row[j], 0)));
}
