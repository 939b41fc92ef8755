/**
 * The independent verifier. Every result is checked here before it is shown, with
 * invariants that do not trust the solver: residuals of the defining equation, symmetry,
 * consistency of gains with the solution, and closed-loop eigenvalues computed by a
 * different eigensolver (ml-matrix's EVD, JAMA's hqr2) than the one our solvers use.
 */
import { EigenvalueDecomposition, Matrix as M, SingularValueDecomposition, solve } from 'ml-matrix';
import type { Complex, Matrix } from '../types.js';
import { verifySystem } from './systems.js';

export interface Check {
  /** short name: "Riccati residual", "closed loop stable" */
  name: string;
  ok: boolean;
  /** the measured number, where there is one */
  value?: number;
  /** one line for a human: "residual 3.1e-16 (normalised)" */
  detail: string;
}

export interface Verification {
  ok: boolean;
  checks: Check[];
}

/** residual tolerance above which a Riccati/Lyapunov solution is not accepted as solved */
export const RESIDUAL_TOL = 1e-8;

const mat = (A: Matrix) => new M(A);
const fro = (A: M) => A.norm('frobenius');

function sci(x: number): string {
  return x === 0 ? '0' : x.toExponential(1).replace('e+', 'e').replace(/\.0e/, 'e');
}

/** eigenvalues by ml-matrix's EVD (independent of the solvers' own kernel) */
export function independentEigenvalues(A: Matrix): Complex[] {
  if (A.length === 0) return [];
  const e = new EigenvalueDecomposition(mat(A), { assumeSymmetric: false });
  return e.realEigenvalues.map((re, i) => [re, e.imaginaryEigenvalues[i]] as Complex);
}

/** greedy multiset distance between two eigenvalue lists, relative to the largest modulus */
export function eigenvalueDistance(a: Complex[], b: Complex[]): number {
  if (a.length !== b.length) return Infinity;
  const left = [...b];
  let worst = 0;
  let scale = 1e-300;
  for (const z of [...a, ...b]) scale = Math.max(scale, Math.hypot(z[0], z[1]));
  for (const z of a) {
    let best = Infinity;
    let bi = -1;
    left.forEach((w, i) => {
      const d = Math.hypot(z[0] - w[0], z[1] - w[1]);
      if (d < best) {
        best = d;
        bi = i;
      }
    });
    left.splice(bi, 1);
    worst = Math.max(worst, best);
  }
  return worst / scale;
}

/**
 * Largest backward error of a list of eigenvalues of A: σmin(A − λI)/‖A‖ (a real 2n
 * embedding for complex λ). Small even for defective eigenvalues, whose forward error is
 * only about eps^(1/k): the right test where two eigensolvers legitimately disagree.
 */
export function eigenBackwardError(A: Matrix, list: Complex[]): number {
  const n = A.length;
  const a = mat(A);
  const nrm = Math.max(fro(a), 1e-300);
  let worst = 0;
  for (const [re, im] of list) {
    const big = new M(2 * n, 2 * n);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const v = A[i][j] - (i === j ? re : 0);
        big.set(i, j, v);
        big.set(n + i, n + j, v);
      }
    for (let i = 0; i < n; i++) {
      big.set(i, n + i, im);
      big.set(n + i, i, -im);
    }
    const sv = new SingularValueDecomposition(big, { computeLeftSingularVectors: false, computeRightSingularVectors: false }).diagonal;
    worst = Math.max(worst, sv[sv.length - 1] / nrm);
  }
  return worst;
}

/**
 * Eigenvalues agree with a second eigensolver (forward, 1e-6 relative), or, where they do not
 * (defective eigenvalues), each one is an exact eigenvalue of a nearby matrix (backward, 1e-10).
 */
function eigenvaluesCheck(A: Matrix, list: Complex[], name: string, what: string): Check {
  const d = eigenvalueDistance(list, independentEigenvalues(A));
  if (d <= 1e-6) return { name, ok: true, value: d, detail: `${what} agree with an independent eigensolver (${sci(d)})` };
  const be = eigenBackwardError(A, list);
  return {
    name,
    ok: be <= 1e-10 && d <= 1e-2,
    value: be,
    detail: `${what}: ill-conditioned (solvers differ by ${sci(d)}), backward error ${sci(be)}`,
  };
}

function stabilityCheck(Acl: M, discrete: boolean): Check {
  const ev = independentEigenvalues(Acl.to2DArray());
  if (discrete) {
    const rho = Math.max(...ev.map(([r, i]) => Math.hypot(r, i)));
    return {
      name: 'closed loop stable',
      ok: rho < 1,
      value: rho,
      detail: rho < 1 ? `closed loop stable (spectral radius ${rho.toPrecision(4)})` : `closed loop NOT stable (spectral radius ${rho.toPrecision(4)})`,
    };
  }
  const alpha = Math.max(...ev.map(([r]) => r));
  return {
    name: 'closed loop stable',
    ok: alpha < 0,
    value: alpha,
    detail: alpha < 0 ? `closed loop stable (max Re λ = ${alpha.toPrecision(4)})` : `closed loop NOT stable (max Re λ = ${alpha.toPrecision(4)})`,
  };
}

function symmetryCheck(X: M, name: string): Check {
  const asym = fro(X.clone().sub(X.transpose())) / Math.max(fro(X), 1e-300);
  return { name: `${name} symmetric`, ok: asym <= 1e-10, value: asym, detail: `${name} symmetric (asymmetry ${sci(asym)})` };
}

function residualCheck(label: string, res: number): Check {
  return { name: `${label} residual`, ok: res <= RESIDUAL_TOL, value: res, detail: `${label} residual ${sci(res)}` };
}

function polesCheck(reported: unknown, Acl: M, label: string): Check | undefined {
  if (!Array.isArray(reported)) return undefined;
  const d = eigenvalueDistance(reported as Complex[], independentEigenvalues(Acl.to2DArray()));
  return { name: 'poles consistent', ok: d <= 1e-6, value: d, detail: `reported poles match ${label} (${sci(d)})` };
}

/**
 * Riccati equations in one generic form (as the oracle's checker): continuous
 * A'X + XA − (XB + S)R⁻¹(B'X + S') + Q = 0, discrete A'XA − X − (A'XB + S)(R + B'XB)⁻¹(B'XA + S') + Q = 0;
 * the gain is K = R⁻¹(B'X + S') or (R + B'XB)⁻¹(B'XA + S'), the closed loop A − BK.
 */
function verifyRiccati(
  A: Matrix, B: Matrix, Q: Matrix, R: Matrix, S: Matrix | undefined,
  X: Matrix, K: Matrix, poles: unknown, discrete: boolean, gainName: string, solName: string,
): Check[] {
  const a = mat(A), b = mat(B), q = mat(Q), r = mat(R), x = mat(X), k = mat(K);
  const s = S ? mat(S) : M.zeros(b.rows, b.columns);
  let res: number, Kx: M;
  if (discrete) {
    const G = r.clone().add(b.transpose().mmul(x).mmul(b));
    const F = b.transpose().mmul(x).mmul(a).add(s.transpose());
    Kx = solve(G, F);
    const AtXA = a.transpose().mmul(x).mmul(a);
    const T = a.transpose().mmul(x).mmul(b).add(s).mmul(Kx);
    const Res = AtXA.clone().sub(x).sub(T).add(q);
    res = fro(Res) / Math.max(fro(AtXA) + fro(x) + fro(T) + fro(q), 1e-300);
  } else {
    const F = b.transpose().mmul(x).add(s.transpose());
    Kx = solve(r, F);
    const AtX = a.transpose().mmul(x);
    const XA = x.mmul(a);
    const T = x.mmul(b).add(s).mmul(Kx);
    const Res = AtX.clone().add(XA).sub(T).add(q);
    res = fro(Res) / Math.max(fro(AtX) + fro(XA) + fro(T) + fro(q), 1e-300);
  }
  const kcons = fro(k.clone().sub(Kx)) / Math.max(fro(Kx), 1e-300);
  const Acl = a.clone().sub(b.mmul(k));
  const checks = [
    residualCheck('Riccati', res),
    symmetryCheck(x, solName),
    { name: 'gain consistent', ok: kcons <= 1e-8 || fro(Kx) < 1e-12, value: kcons, detail: `${gainName} consistent with ${solName} (${sci(kcons)})` },
    stabilityCheck(Acl, discrete),
  ];
  const pc = polesCheck(poles, Acl, gainName === 'L' ? 'eig(A − LC)' : 'eig(A − BK)');
  if (pc) checks.push(pc);
  return checks;
}

function rankCheck(matrix: unknown, reported: unknown): Check[] {
  if (!Array.isArray(matrix) || typeof reported !== 'number') return [];
  // no states: the controllability/observability matrix is empty, and its rank is 0 of 0
  if (!(matrix as Matrix).some((r) => r.length))
    return [{ name: 'rank', ok: reported === 0, value: 0, detail: 'rank 0 of 0 (an empty matrix: the model has no states)' }];
  const Mx = mat(matrix as Matrix);
  const svd = new SingularValueDecomposition(Mx, { autoTranspose: true, computeLeftSingularVectors: false, computeRightSingularVectors: false });
  const sv = svd.diagonal;
  const tol = Math.max(Mx.rows, Mx.columns) * Number.EPSILON * (sv[0] ?? 0);
  const rank = sv.filter((x) => x > tol).length;
  // how clear the decision was: smallest kept and largest dropped singular value vs tol
  const kept = rank > 0 ? sv[rank - 1] / Math.max(tol, 1e-300) : Infinity;
  const dropped = rank < sv.length ? sv[rank] / Math.max(tol, 1e-300) : 0;
  return [
    { name: 'rank', ok: rank === reported, value: rank, detail: `rank ${rank} by an independent SVD` },
    {
      name: 'rank margin',
      ok: true,
      value: kept,
      detail: `smallest kept singular value ${sci(kept)}× the tolerance${rank < sv.length ? `, largest dropped ${sci(dropped)}×` : ''}`,
    },
  ];
}

function lyapCheck(A: Matrix, Q: Matrix, X: Matrix, discrete: boolean): Check[] {
  const a = mat(A), q = mat(Q), x = mat(X);
  let res: number;
  if (discrete) {
    const AXA = a.mmul(x).mmul(a.transpose());
    res = fro(AXA.clone().sub(x).add(q)) / Math.max(fro(AXA) + fro(x) + fro(q), 1e-300);
  } else {
    const AX = a.mmul(x), XA = x.mmul(a.transpose());
    res = fro(AX.clone().add(XA).add(q)) / Math.max(fro(AX) + fro(XA) + fro(q), 1e-300);
  }
  const checks = [residualCheck(discrete ? 'Stein' : 'Lyapunov', res)];
  const qa = fro(q.clone().sub(q.transpose()));
  if (qa === 0) checks.push(symmetryCheck(x, 'X'));
  return checks;
}

/**
 * Checks a tool's result against its arguments. Returns undefined for tools that have no
 * independent check yet (the answer then says so rather than claiming verification).
 */
export function verify(tool: string, args: Record<string, any>, result: Record<string, any>): Verification | undefined {
  let checks: Check[] | undefined;
  const disc = typeof args.Ts === 'number' && args.Ts > 0;
  switch (tool) {
    case 'eig': {
      const ev = result.eigenvalues as Complex[];
      const tr = (args.A as Matrix).reduce((s, r, i) => s + r[i], 0);
      const sum = ev.reduce((s, z) => s + z[0], 0);
      const scale = Math.max(fro(mat(args.A)), 1e-300) * Math.max(1, ev.length);
      const terr = Math.abs(sum - tr) / scale;
      checks = [
        { name: 'trace', ok: terr <= 1e-10, value: terr, detail: `sum of eigenvalues equals trace(A) (${sci(terr)})` },
        eigenvaluesCheck(args.A, ev, 'independent eigensolver', 'eigenvalues'),
      ];
      break;
    }
    case 'ctrb_rank':
    case 'obsv_rank':
      checks = rankCheck(result.matrix, result.rank);
      break;
    case 'analyse': {
      // eigenvalues by a second eigensolver; ranks by an SVD of matrices built here
      checks = [eigenvaluesCheck(args.A, result.eigenvalues as Complex[], 'independent eigensolver', 'eigenvalues')];
      const n = (args.A as Matrix).length;
      if (n === 0) {
        // no states (a static gain): nothing to control or observe, ranks 0 of 0
        for (const [k, what] of [['controllability', 'B'], ['observability', 'C']] as const)
          if (args[what] && result[k]) {
            const [rk] = rankCheck([], result[k].rank);
            checks.push({ ...rk, name: `${k} rank`, detail: `${k} ${rk.detail}` });
          }
        break;
      }
      const a = mat(args.A);
      if (args.B && result.controllability) {
        const blocks: M[] = [mat(args.B)];
        for (let i = 1; i < n; i++) blocks.push(a.mmul(blocks[i - 1]));
        const C = blocks.reduce((acc, b) => new M(acc.to2DArray().map((r, i) => [...r, ...b.getRow(i)])));
        const [rk] = rankCheck(C.to2DArray(), result.controllability.rank);
        checks.push({ ...rk, name: 'controllability rank', detail: `controllability ${rk.detail}` });
      }
      if (args.C && result.observability) {
        const blocks: M[] = [mat(args.C)];
        for (let i = 1; i < n; i++) blocks.push(blocks[i - 1].mmul(a));
        const O = new M(blocks.flatMap((b) => b.to2DArray()));
        const [rk] = rankCheck(O.to2DArray(), result.observability.rank);
        checks.push({ ...rk, name: 'observability rank', detail: `observability ${rk.detail}` });
      }
      break;
    }
    case 'lyap':
    case 'dlyap':
      checks = lyapCheck(args.A, args.Q, result.X, tool === 'dlyap');
      break;
    case 'care':
    case 'lqr':
      checks = verifyRiccati(args.A, args.B, args.Q, args.R, args.N, result.X, result.K, result.poles, false, 'K', 'X');
      break;
    case 'dare':
    case 'dlqr':
      checks = verifyRiccati(args.A, args.B, args.Q, args.R, args.N, result.X, result.K, result.poles, true, 'K', 'X');
      break;
    case 'lqe':
    case 'kalman': {
      // the filter Riccati equation is the dual: (A', C', G Qn G', Rn), gain L'
      const At = mat(args.A).transpose().to2DArray();
      const Ct = mat(args.C).transpose().to2DArray();
      const G = mat(args.G);
      const W = G.mmul(mat(args.Qn)).mmul(G.transpose()).to2DArray();
      const Lt = mat(result.L).transpose().to2DArray();
      const discrete = tool === 'kalman' && disc;
      // discrete kalman: L = A M is the predictor gain, dual of K = (Rn + C P C')⁻¹ C P A'
      checks = verifyRiccati(At, Ct, W, args.Rn, undefined, result.P, Lt, result.poles, discrete, 'L', 'P');
      break;
    }
    case 'place': {
      const Acl = mat(args.A).sub(mat(args.B).mmul(mat(result.K)));
      const target = (args.poles as (number | Complex)[]).map((p) => (typeof p === 'number' ? [p, 0] : p) as Complex);
      checks = [eigenvaluesCheck(Acl.to2DArray(), target, 'poles placed', 'the requested poles and eig(A − BK)')];
      break;
    }
    default:
      checks = verifySystem(tool, args, result);
      if (!checks) return undefined;
  }
  return { ok: checks.every((c) => c.ok), checks };
}
