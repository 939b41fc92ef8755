/**
 * Independent checks of the LQ family (solvers/lqfamily.ts: lqi, lqry, estim, reg, lqg,
 * place_observer) and of kalman's innovation gain and estimator (solvers/estimation.ts). Every
 * matrix is formed here with ml-matrix from the arguments as the user gave them, never taken from
 * the solver's intermediate results, and judged by properties the solver's route does not use:
 *
 * - lqi: the augmented plant [A 0; −C 0] (discrete [A 0; −Ts·C I]) built here; the Riccati
 *   residual and gain of that plant; and the *integral action itself*: the closed loop from the
 *   reference r to y is assembled here from the plant and K, and its DC gain, by this module's
 *   own linear solve, must be the identity (zero steady-state error to a step);
 * - lqry: the Riccati equation of lqr with Qx = CᵀQC, Rx = R + DᵀQD + DᵀN + NᵀD, Nx = CᵀQD + CᵀN
 *   formed here (lqry's equivalence to lqr);
 * - reg, lqg: the separation principle: plant and compensator are joined here in positive
 *   feedback and the closed loop's eigenvalues, by the verifier's eigensolver, must be
 *   eig(A − BK) ∪ eig(A − LC), each also by the verifier's eigensolver; lqg's K and L also
 *   satisfy their Riccati equations;
 * - estim: the estimator's matrices re-formed from A, B, C, D and L; place_observer: eig(A − LC).
 *
 * The Riccati and eigenvalue helpers are passed in by verify/index.ts (this module imports
 * nothing from it at run time, so loading either first cannot meet the other half-initialised).
 */
import { Matrix as M, solve } from 'ml-matrix';
import type { Complex, Matrix } from '../types.js';
import type { Check } from './index.js';
import { froNorm, safeEigenvalues, safeSingularValues, sci } from './numeric.js';

export interface LqRules {
  verifyRiccati(
    A: Matrix,
    B: Matrix,
    Q: Matrix,
    R: Matrix,
    S: Matrix | undefined,
    X: Matrix,
    K: Matrix,
    poles: unknown,
    discrete: boolean,
    gainName: string,
    solName: string,
  ): Check[];
  eigenvaluesCheck(A: Matrix, list: Complex[], name: string, what: string): Check;
}

type Checker = (args: Record<string, any>, result: Record<string, any>) => Check[];

const mat = (A: Matrix) => new M(A);
const fro = (A: M) => froNorm(A);
const disc = (a: Record<string, any>) => typeof a.Ts === 'number' && a.Ts > 0;
const isMatrix = (v: unknown): v is Matrix => Array.isArray(v) && v.length > 0 && Array.isArray(v[0]);

/** D as given, or zeros p x m */
function plantD(a: Record<string, any>): M {
  const p = (a.C as Matrix).length,
    m = (a.B as Matrix)[0].length;
  return isMatrix(a.D) ? mat(a.D) : M.zeros(p, m);
}

function hstack(...Ms: M[]): M {
  const r = Ms[0].rows;
  const out = M.zeros(
    r,
    Ms.reduce((s, x) => s + x.columns, 0),
  );
  let c0 = 0;
  for (const X of Ms) {
    out.setSubMatrix(X, 0, c0);
    c0 += X.columns;
  }
  return out;
}
function vstack(...Ms: M[]): M {
  const c = Ms[0].columns;
  const out = M.zeros(
    Ms.reduce((s, x) => s + x.rows, 0),
    c,
  );
  let r0 = 0;
  for (const X of Ms) {
    out.setSubMatrix(X, r0, 0);
    r0 += X.rows;
  }
  return out;
}
/** setSubMatrix refuses empty blocks: skip them */
function safeStack(dir: 'h' | 'v', ...Ms: M[]): M {
  const kept = Ms.filter((X) => X.rows > 0 && X.columns > 0);
  if (!kept.length) return Ms[0];
  return dir === 'h' ? hstack(...kept) : vstack(...kept);
}

function relDiff(got: Matrix | undefined, want: M): number {
  if (!isMatrix(got) && want.rows * want.columns > 0) return Infinity;
  const g = isMatrix(got) ? mat(got) : M.zeros(want.rows, want.columns);
  if (g.rows !== want.rows || g.columns !== want.columns) return Infinity;
  return fro(g.clone().sub(want)) / Math.max(fro(want), 1);
}

function matrixCheck(name: string, got: Matrix | undefined, want: M, what: string, tol = 1e-9): Check {
  const d = relDiff(got, want);
  return { name, ok: d <= tol, value: d, detail: `${what} (${Number.isFinite(d) ? sci(d) : 'wrong size'})` };
}

/** positive-feedback closed loop of plant (A, B, C, D) and compensator (Ak, Bk, Ck, Dk) from y to u */
function closedLoop(A: M, B: M, C: M, D: M, Ak: M, Bk: M, Ck: M, Dk: M): M {
  const p = C.rows;
  const E = solve(M.eye(p).sub(D.mmul(Dk)), M.eye(p)); // (I − D Dk)⁻¹
  const EC = E.mmul(C),
    EDC = E.mmul(D).mmul(Ck);
  const top = hstack(A.clone().add(B.mmul(Dk).mmul(EC)), B.mmul(Ck.clone().add(Dk.mmul(EDC))));
  const bot = hstack(Bk.mmul(EC), Ak.clone().add(Bk.mmul(EDC)));
  return vstack(top, bot);
}

function stable(ev: Complex[], discrete: boolean): Check {
  const v = discrete ? Math.max(...ev.map(([r, i]) => Math.hypot(r, i))) : Math.max(...ev.map(([r]) => r));
  const ok = discrete ? v < 1 : v < 0;
  return {
    name: 'closed loop stable',
    ok,
    value: v,
    detail: `closed loop ${ok ? '' : 'NOT '}stable (${discrete ? 'spectral radius' : 'max Re λ'} ${v.toPrecision(4)}, by the verifier's eigensolver)`,
  };
}

/**
 * The backward error of λ as an eigenvalue of M: σmin(M − λI)/‖M‖F, by the verifier's SVD of the
 * real 2n×2n form [[M − Re λ·I, Im λ·I], [−Im λ·I, M − Re λ·I]] (its singular values are those of
 * the complex M − λI, each twice). Insensitive to how ill-conditioned the eigenvalue is: an
 * eigenvalue of a nearby matrix has a backward error of that distance, however far it moved.
 */
function eigenBackwardError(Mx: M, z: Complex): number {
  const n = Mx.rows;
  const R = Mx.clone().sub(M.eye(n).mul(z[0]));
  const I = M.eye(n).mul(z[1]);
  const big = vstack(hstack(R, I), hstack(I.clone().mul(-1), R));
  const s = safeSingularValues(big);
  return s.length ? Math.min(...s) / Math.max(fro(Mx), 1e-300) : Infinity;
}

/**
 * The separation principle: eig(A − BK) ∪ eig(A − LC) are the closed loop's poles. Each of the
 * 2n eigenvalues of A − BK and A − LC (by the verifier's eigensolver) must be an eigenvalue of the
 * closed loop assembled here, judged by its backward error (σmin(Acl − λI) at rounding level), not
 * by the distance to Acl's computed eigenvalues: with 7 or 8 states the loop's eigenvalues are
 * often so ill-conditioned that two eigensolvers' answers differ by 1e-3 of their size while both
 * are exact for matrices 1e-16 away (the verifier probe, seed 2026). The count is 2n.
 */
function separationChecks(a: Record<string, any>, r: Record<string, any>, K: M, L: M, expectStable: boolean): Check[] {
  const A = mat(a.A),
    B = mat(a.B),
    C = mat(a.C),
    D = plantD(a);
  const m = B.columns,
    p = C.rows;
  const Ak = mat(r.A),
    Bk = mat(r.B),
    Ck = mat(r.C),
    Dk = isMatrix(r.D) ? mat(r.D) : M.zeros(m, p);
  const Acl = closedLoop(A, B, C, D, Ak, Bk, Ck, Dk);
  const evCl = safeEigenvalues(Acl.to2DArray());
  const union = [...safeEigenvalues(A.clone().sub(B.mmul(K)).to2DArray()), ...safeEigenvalues(A.clone().sub(L.mmul(C)).to2DArray())];
  const TOL = 1e-10;
  const d = union.length === Acl.rows ? Math.max(0, ...union.map((z) => eigenBackwardError(Acl, z))) : Infinity;
  const checks: Check[] = [
    {
      name: 'separation principle',
      ok: d <= TOL,
      value: d,
      detail: `each of the ${union.length} poles eig(A − BK) ∪ eig(A − LC) is a pole of the assembled ${Acl.rows}-state closed loop (largest backward error σmin(Acl − λI)/‖Acl‖ ${sci(d)})`,
    },
  ];
  if (Array.isArray(r.poles)) {
    const dp = r.poles.length === Acl.rows ? Math.max(0, ...(r.poles as Complex[]).map((z) => eigenBackwardError(Acl, z))) : Infinity;
    checks.push({
      name: 'poles consistent',
      ok: dp <= TOL,
      value: dp,
      detail: `each reported closed-loop pole is a pole of the assembled loop (largest backward error ${sci(dp)})`,
    });
  }
  if (expectStable) checks.push(stable(evCl, disc(a)));
  return checks;
}

/** MATLAB lqi's augmented plant, formed here */
function augmented(a: Record<string, any>): { Aa: M; Ba: M; n: number; p: number } {
  const A = mat(a.A),
    B = mat(a.B),
    C = mat(a.C),
    D = plantD(a);
  const n = A.rows,
    p = C.rows;
  const h = disc(a) ? a.Ts : 1;
  const Aa = vstack(hstack(A, M.zeros(n, p)), hstack(C.clone().mul(-h), disc(a) ? M.eye(p) : M.zeros(p, p)));
  const Ba = vstack(B, D.clone().mul(-h));
  return { Aa, Ba, n, p };
}

export function lqFamilyChecks(rules: LqRules): Record<'lqi' | 'lqry' | 'estim' | 'reg' | 'lqg' | 'place_observer', Checker> {
  const lqi: Checker = (a, r) => {
    const { Aa, Ba, n, p } = augmented(a);
    const checks = rules.verifyRiccati(Aa.to2DArray(), Ba.to2DArray(), a.Q, a.R, isMatrix(a.N) ? a.N : undefined, r.X, r.K, r.poles, disc(a), 'K', 'X');
    const K = mat(r.K);
    const m = K.rows;
    const Kx = K.subMatrix(0, m - 1, 0, n - 1),
      Ki = K.subMatrix(0, m - 1, n, n + p - 1);
    checks.push(matrixCheck('K = [Kx Ki]', r.Kx, Kx, 'Kx is the first n columns of K', 0), matrixCheck('Ki', r.Ki, Ki, 'Ki is the last p columns of K', 0));
    // the integral action: the closed loop from r to y, assembled here, has DC gain I
    const C = mat(a.C),
      D = plantD(a);
    const h = disc(a) ? a.Ts : 1;
    const Acl = Aa.clone().sub(Ba.mmul(K));
    const Br = vstack(M.zeros(n, p), M.eye(p).mul(h));
    const Cy = hstack(C.clone().sub(D.mmul(Kx)), D.mmul(Ki).mul(-1));
    // DC gain: continuous −Cy Acl⁻¹ Br, discrete Cy (I − Acl)⁻¹ Br
    const G0 = disc(a) ? Cy.mmul(solve(M.eye(n + p).sub(Acl), Br)) : Cy.mmul(solve(Acl, Br)).mul(-1);
    const err = fro(G0.clone().sub(M.eye(p))) / Math.sqrt(p);
    checks.push({
      name: 'integral action',
      ok: err <= 1e-7,
      value: err,
      detail: `zero steady-state error: the closed loop's DC gain from r to y is I (off by ${sci(err)}, by the verifier's own solve)`,
    });
    return checks;
  };

  const lqry: Checker = (a, r) => {
    const C = mat(a.C),
      D = plantD(a),
      Q = mat(a.Q),
      R = mat(a.R);
    const N = isMatrix(a.N) ? mat(a.N) : M.zeros(C.rows, R.rows);
    const Qx = C.transpose().mmul(Q).mmul(C);
    const Rx = R.clone().add(D.transpose().mmul(Q).mmul(D)).add(D.transpose().mmul(N)).add(N.transpose().mmul(D));
    const Nx = C.transpose().mmul(Q).mmul(D).add(C.transpose().mmul(N));
    const checks = rules.verifyRiccati(a.A, a.B, Qx.to2DArray(), Rx.to2DArray(), Nx.to2DArray(), r.X, r.K, r.poles, disc(a), 'K', 'X');
    checks.push(matrixCheck('lqr equivalence', r.Qx, Qx, "the reported Qx is C'QC (lqry = lqr with the output weights on the states)", 1e-12));
    return checks;
  };

  const estim: Checker = (a, r) => {
    const A = mat(a.A),
      B = mat(a.B),
      C = mat(a.C),
      D = plantD(a),
      L = mat(a.L);
    const n = A.rows,
      p = C.rows;
    const known: number[] = Array.isArray(r.known) ? r.known : [];
    const pick = (X: M) => {
      const out = M.zeros(X.rows, known.length);
      known.forEach((k, j) => out.setColumn(j, X.getColumn(k - 1)));
      return out;
    };
    const Bk = pick(B),
      Dk = pick(D);
    const ALC = A.clone().sub(L.mmul(C));
    const checks: Check[] = [
      matrixCheck('estimator A', r.A, ALC, 'A_est = A − LC'),
      rules.eigenvaluesCheck(ALC.to2DArray(), r.poles as Complex[], 'estimator poles', 'the reported poles and eig(A − LC)'),
    ];
    if (r.type === 'current') {
      // x̂[n|n] = (I − MC)x̄ + …, M = A⁻¹L: A·M = L, and the x̂ rows of C_est are I − MC
      const Cx = mat(r.C).subMatrix(p, p + n - 1, 0, n - 1);
      const Mi = mat(r.D).subMatrix(p, p + n - 1, known.length, known.length + p - 1);
      checks.push(
        matrixCheck('current form', A.mmul(Mi).to2DArray(), L, 'A·M = L (M the innovation gain in the x̂[n|n] outputs)', 1e-8),
        matrixCheck('current output', Cx.to2DArray(), M.eye(n).sub(Mi.mmul(C)), 'x̂[n|n] = (I − MC)x̄ + My', 1e-9),
      );
    } else {
      const Be = safeStack('h', Bk.clone().sub(L.mmul(Dk)), L);
      checks.push(matrixCheck('estimator B', r.B, Be, 'B_est = [B − LD, L]'), matrixCheck('estimator C', r.C, vstack(C, M.eye(n)), 'outputs [ŷ; x̂] = [C; I]x̂'));
    }
    return checks;
  };

  const reg: Checker = (a, r) => separationChecks(a, r, mat(a.K), mat(a.L), false);

  const lqg: Checker = (a, r) => {
    const n = (a.A as Matrix).length,
      m = (a.B as Matrix)[0].length,
      p = (a.C as Matrix).length;
    const part = (X: Matrix, r0: number, c0: number, rr: number, cc: number) => X.slice(r0, r0 + rr).map((row) => row.slice(c0, c0 + cc));
    const QXU = a.QXU as Matrix,
      QWV = a.QWV as Matrix;
    const checks = rules.verifyRiccati(
      a.A,
      a.B,
      part(QXU, 0, 0, n, n),
      part(QXU, n, n, m, m),
      part(QXU, 0, n, n, m),
      r.X,
      r.K,
      r.regulatorPoles,
      disc(a),
      'K',
      'X',
    );
    // the filter: the dual equation (Aᵀ, Cᵀ, Qn, Rn, Nn) with gain Lᵀ (G = I)
    const At = mat(a.A).transpose().to2DArray(),
      Ct = mat(a.C).transpose().to2DArray();
    const Lt = mat(r.L).transpose().to2DArray();
    const fc = rules.verifyRiccati(At, Ct, part(QWV, 0, 0, n, n), part(QWV, n, n, p, p), part(QWV, 0, n, n, p), r.P, Lt, r.estimatorPoles, disc(a), 'L', 'P');
    checks.push(...fc.map((c) => ({ ...c, name: `filter ${c.name}`, detail: `Kalman filter: ${c.detail}` })));
    checks.push(...separationChecks(a, r, mat(r.K), mat(r.L), true));
    return checks;
  };

  const placeObserver: Checker = (a, r) => {
    const Acl = mat(a.A).sub(mat(r.L).mmul(mat(a.C)));
    const target = (a.poles as (number | Complex)[]).map((z) => (typeof z === 'number' ? [z, 0] : z) as Complex);
    return [rules.eigenvaluesCheck(Acl.to2DArray(), target, 'poles placed', 'the requested poles and eig(A − LC), formed here')];
  };

  return { lqi, lqry, estim, reg, lqg, place_observer: placeObserver };
}

/** kalman's innovation gain M = PC'(CPC' + Rn)⁻¹ and its estimator's A = A − LC, formed here */
export function kalmanExtraChecks(a: Record<string, any>, r: Record<string, any>): Check[] {
  const checks: Check[] = [];
  const A = mat(a.A),
    C = mat(a.C),
    P = mat(r.P),
    L = mat(r.L);
  if (isMatrix(r.M)) {
    const S = C.mmul(P).mmul(C.transpose()).add(mat(a.Rn));
    const Mw = solve(S, C.mmul(P)).transpose(); // (S⁻¹ C P)ᵀ = P Cᵀ S⁻¹ (S, P symmetric)
    checks.push(matrixCheck('innovation gain', r.M, Mw, "M = PC'(CPC' + Rn)⁻¹", 1e-8));
  }
  const est = r.estimator;
  if (est && isMatrix(est.A)) {
    checks.push(matrixCheck('estimator A', est.A, A.clone().sub(L.mmul(C)), "the estimator's A is A − LC", 1e-9));
    if (est.type === 'current' && isMatrix(r.M)) {
      const n = A.rows,
        p = C.rows;
      const Cx = mat(est.C).subMatrix(p, p + n - 1, 0, n - 1);
      checks.push(matrixCheck('current form', Cx.to2DArray(), M.eye(n).sub(mat(r.M).mmul(C)), 'x̂[n|n] = (I − MC)x̂[n|n−1] + M(y − Du)', 1e-9));
    }
  }
  return checks;
}
