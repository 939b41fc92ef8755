/**
 * The independent verifier. Every result is checked here before it is shown, with
 * invariants that do not trust the solver: residuals of the defining equation, symmetry,
 * consistency of gains with the solution, and closed-loop eigenvalues computed by a
 * different eigensolver (EISPACK's hqr as JAMA/ml-matrix have it, ported with an iteration cap
 * in numeric.ts) than the one our solvers use.
 */
import { Matrix as M, solve } from 'ml-matrix';
import type { Complex, Matrix } from '../types.js';
import { companion, isDiscrete, verifySystem } from './systems.js';
import { INTERCONNECT_CHECKS } from './interconnect.js';
import { CONNECT_CHECKS } from './connect.js';
import { pairRankCheck, rankCheck } from './rank.js';
import { verifyReduce } from './reduce.js';
import type { ToolName } from '../tools/table.js';
import { initialChecks, lsimChecks } from './simulate.js';
import { c2dChecks, d2cChecks, d2dChecks, evalfrChecks } from './discretize.js';
import { bandwidthChecks, sigmaChecks, stabilityMarginChecks } from './freqanalysis.js';
import { diskMarginChecks, diskMarginIOChecks } from './diskmargin.js';
import { canonChecks, kalmanChecks, ss2ssChecks, staircaseChecks, tzeroChecks } from './canon.js';
import { padeChecks, thiranChecks } from './delay.js';
import { matrixEqChecks } from './matrixeq.js';
import { kalmanExtraChecks, lqFamilyChecks } from './lqfamily.js';
import { l2Checks, linfChecks } from './norms.js';
import { leadLagChecks, pidChecks } from './pid.js';
import { tfzpkChecks } from './tfzpk.js';
import { allocChecks } from './alloc.js';
import { eqptChecks, linearizeChecks, lyapunovChecks, nlsimChecks } from './nonlinear.js';
import { cbfChecks } from './cbf.js';
import { mpcChecks } from './mpc.js';
import { froNorm, ldexp, matchedDistances, safeEigenvalues, safeSingularValues, scaled, scaleExponent, sci } from './numeric.js';

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
const fro = (A: M) => froNorm(A);

/**
 * greedy multiset distance between two eigenvalue lists, relative to the largest modulus, or
 * to `norm` (‖A‖) when that is larger: eigenvalues are computed to ε‖A‖·(condition), so a
 * double pole at 0 of a matrix of norm 10 (deadbeat control) that two eigensolvers return as
 * ±5e-8 and 0 agree to 5e-9, not to 100 % of the eigenvalues' own size
 */
export function eigenvalueDistance(a: Complex[], b: Complex[], norm = 0): number {
  if (a.length !== b.length) return Infinity;
  let scale = Math.max(1e-300, Number.isFinite(norm) ? norm : 0);
  for (const z of [...a, ...b]) scale = Math.max(scale, Math.hypot(z[0], z[1]));
  return Math.max(0, ...matchedDistances(a, b)) / scale;
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
    const sv = safeSingularValues(big);
    worst = Math.max(worst, sv[sv.length - 1] / nrm);
  }
  return worst;
}

/**
 * A list of eigenvalues of A against the verifier's own eigensolver: forward agreement to
 * 1e-6, or, where two eigensolvers legitimately differ (multiple, defective eigenvalues, by
 * ~ε^(1/k)), each one must be an exact eigenvalue of a matrix within `backwardTol` of A
 * (σmin(A − λI)/‖A‖) and the two lists still within 1e-2.
 */
function spectrumCheck(A: Matrix, list: Complex[], name: string, agree: string, ill: string, backwardTol: number, sayTol: boolean): Check {
  const d = eigenvalueDistance(list, safeEigenvalues(A), fro(mat(A)));
  if (d <= 1e-6) return { name, ok: true, value: d, detail: `${agree} (${sci(d)})` };
  const be = eigenBackwardError(A, list);
  return {
    name,
    ok: be <= backwardTol && d <= 1e-2,
    value: be,
    detail: `${ill}: ill-conditioned (solvers differ by ${sci(d)}), backward error ${sci(be)}${sayTol ? ` (at most ${sci(backwardTol)})` : ''}`,
  };
}

/** eigenvalues of A (backward error up to 1e-10 where the eigensolvers differ) */
function eigenvaluesCheck(A: Matrix, list: Complex[], name: string, what: string): Check {
  return spectrumCheck(A, list, name, `${what} agree with an independent eigensolver`, what, 1e-10, false);
}

function stabilityCheck(Acl: M, discrete: boolean): Check {
  const ev = safeEigenvalues(Acl.to2DArray());
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

/**
 * The residual a solution cannot beat in double precision, normalised as the residual is: X
 * rounded normwise (every entry off by up to ε‖X‖, which is what a backward-stable method
 * delivers) leaves L(E) of the linearised equation, at most ‖L‖·ε‖X‖, with
 * ‖L‖ ≤ 2‖Acl‖ (continuous: Acl'E + E·Acl) or ‖Acl‖² + 1 (discrete: Acl'E·Acl − E). For a
 * well-conditioned problem this is ~1e-16 and the fixed RESIDUAL_TOL decides; where the closed
 * loop is far larger than the terms of the equation (CAREX 2.7: ‖A‖ = 1e11 with terms of
 * order 1), the exact solution rounded to doubles has a residual of 3e-7 (SciPy's X too), and a
 * fixed 1e-8 rejected a correct answer. The factor 10n covers the accumulation in the
 * residual's own products.
 */
function residualFloor(n: number, opNorm: number, xNorm: number, den: number): number {
  return (10 * Math.max(n, 1) * Number.EPSILON * opNorm * xNorm) / Math.max(den, 1e-300);
}

/** 2-norm condition number σmax/σmin by an SVD (Infinity when singular) */
function conditionNumber(G: M): number {
  const sv = safeSingularValues(G);
  const lo = Math.min(...sv.map(Math.abs));
  return lo > 0 ? Math.max(...sv.map(Math.abs)) / lo : Infinity;
}

function residualCheck(label: string, res: number, floor = 0): Check {
  const tol = Math.max(RESIDUAL_TOL, floor);
  const why = floor > RESIDUAL_TOL ? ` (at most ${sci(tol)}: the residual of the exact solution rounded to double precision, ill-conditioned problem)` : '';
  return { name: `${label} residual`, ok: res <= tol, value: res, detail: `${label} residual ${sci(res)}${why}` };
}

/**
 * Reported closed-loop poles against an independent eigensolver. Forward agreement to 1e-6,
 * or, for ill-conditioned (multiple, defective) poles where two eigensolvers legitimately
 * differ by ~ε^(1/k), each reported pole must be an exact eigenvalue of a matrix within the
 * rounding of A − BK itself: σmin(Acl − λI) ≤ 10n·ε·(‖A‖ + ‖B‖‖K‖), the error of forming
 * Acl in floating point (DAREX 1.11: a triple pole near 0, the solvers differ by 7e-4).
 */
function polesCheck(reported: unknown, Acl: M, label: string, formScale: number): Check | undefined {
  if (!Array.isArray(reported)) return undefined;
  const n = Acl.rows;
  const tol = Math.max((10 * n * Number.EPSILON * formScale) / Math.max(fro(Acl), 1e-300), 1e3 * n * Number.EPSILON);
  return spectrumCheck(Acl.to2DArray(), reported as Complex[], 'poles consistent', `reported poles match ${label}`, `reported poles and ${label}`, tol, true);
}

/**
 * Riccati equations in one generic form (as the oracle's checker): continuous
 * A'X + XA − (XB + S)R⁻¹(B'X + S') + Q = 0, discrete A'XA − X − (A'XB + S)(R + B'XB)⁻¹(B'XA + S') + Q = 0;
 * the gain is K = R⁻¹(B'X + S') or (R + B'XB)⁻¹(B'XA + S'), the closed loop A − BK.
 */
function verifyRiccati(
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
  E?: Matrix,
): Check[] {
  const a = mat(A),
    b = mat(B),
    q = mat(Q),
    r = mat(R),
    x = mat(X),
    k = mat(K);
  const s = S ? mat(S) : M.zeros(b.rows, b.columns);
  // a descriptor E (care/dare with E): A'XE + E'XA − (E'XB + S)R⁻¹(B'XE + S') + Q, or
  // A'XA − E'XE − (A'XB + S)(R + B'XB)⁻¹(B'XA + S') + Q; the closed loop is the pencil (A − BK, E)
  const e = E ? mat(E) : M.eye(a.rows);
  let res: number, Kx: M, den: number;
  // the matrix solved for the gain: R (continuous) or R + B'XB (discrete)
  let Gk = r;
  if (discrete) {
    const G = r.clone().add(b.transpose().mmul(x).mmul(b));
    Gk = G;
    const F = b.transpose().mmul(x).mmul(a).add(s.transpose());
    Kx = solve(G, F);
    const AtXA = a.transpose().mmul(x).mmul(a);
    const EtXE = E ? e.transpose().mmul(x).mmul(e) : x;
    const T = a.transpose().mmul(x).mmul(b).add(s).mmul(Kx);
    const Res = AtXA.clone().sub(EtXE).sub(T).add(q);
    den = fro(AtXA) + fro(EtXE) + fro(T) + fro(q);
    res = fro(Res) / Math.max(den, 1e-300);
  } else {
    const F = b.transpose().mmul(x).mmul(e).add(s.transpose());
    Kx = solve(r, F);
    const AtX = a.transpose().mmul(x).mmul(e);
    const XA = e.transpose().mmul(x).mmul(a);
    const T = e.transpose().mmul(x).mmul(b).add(s).mmul(Kx);
    const Res = AtX.clone().add(XA).sub(T).add(q);
    den = fro(AtX) + fro(XA) + fro(T) + fro(q);
    res = fro(Res) / Math.max(den, 1e-300);
  }
  const kcons = fro(k.clone().sub(Kx)) / Math.max(fro(Kx), 1e-300);
  // K = G⁻¹F is determined only to about ε·κ(G) relative: with R + B'XB of condition 3.6e14
  // (a Kalman filter whose process noise is 1e8 times the measurement noise) SciPy's gain and
  // ours differ by 4e-3 and either recomputation from X differs from both by as much
  const kappa = conditionNumber(Gk);
  const ktol = Math.max(1e-8, 10 * Gk.rows * Number.EPSILON * kappa);
  const F0 = a.clone().sub(b.mmul(k));
  const Acl = E ? solve(e, F0) : F0;
  const ac = fro(F0),
    en = E ? fro(e) : 1;
  const floor = residualFloor(a.rows, discrete ? ac * ac + en * en : 2 * ac * en, fro(x), den);
  const checks = [
    residualCheck('Riccati', res, floor),
    symmetryCheck(x, solName),
    {
      name: 'gain consistent',
      ok: kcons <= ktol || fro(Kx) < 1e-12,
      value: kcons,
      detail: `${gainName} consistent with ${solName} (${sci(kcons)}${ktol > 1e-8 ? `, at most ${sci(ktol)}: the gain's equation has condition ${sci(kappa)}` : ''})`,
    },
    stabilityCheck(Acl, discrete),
  ];
  const pc = polesCheck(poles, Acl, gainName === 'L' ? 'eig(A − LC)' : E ? 'eig(A − BK, E)' : 'eig(A − BK)', fro(a) + fro(b) * fro(k));
  if (pc) checks.push(pc);
  return checks;
}

/**
 * ctrb_rank / obsv_rank: the Krylov matrix rebuilt here from A and B (or A and C), never taken
 * from the solver, compared with the one reported; then its rank by an independent SVD.
 */
function krylovChecks(args: Record<string, any>, result: Record<string, any>, tool: string): Check[] {
  const A = args.A as Matrix;
  const n = A.length;
  const ctrb = tool === 'ctrb_rank';
  const blocks: M[] = [mat(ctrb ? args.B : args.C)];
  if (n) {
    const a = mat(A);
    for (let i = 1; i < n; i++) blocks.push(ctrb ? a.mmul(blocks[i - 1]) : blocks[i - 1].mmul(a));
  }
  const built: Matrix = !n ? [] : ctrb ? A.map((_, i) => blocks.flatMap((b) => b.getRow(i))) : blocks.flatMap((b) => b.to2DArray());
  const got = result.matrix as Matrix;
  const same = Array.isArray(got) && got.length === built.length && got.every((r, i) => r.length === built[i].length);
  const diff = same ? Math.max(0, ...built.flatMap((r, i) => r.map((v, j) => Math.abs(v - got[i][j])))) / Math.max(froNorm(built), 1e-300) : Infinity;
  const what = ctrb ? '[B, AB, …, Aⁿ⁻¹B]' : '[C; CA; …; CAⁿ⁻¹]';
  return [
    {
      name: 'matrix',
      ok: diff <= 1e-12,
      value: diff,
      detail: same ? `the reported matrix equals ${what} rebuilt from the arguments (${sci(diff)})` : `the reported matrix does not have the shape of ${what}`,
    },
    ...(n ? [pairRankCheck(A, ctrb ? args.B : args.C, !ctrb, result.rank)] : rankCheck([], result.rank)),
  ];
}

function lyapCheck(A: Matrix, Q: Matrix, X: Matrix, discrete: boolean, E?: Matrix): Check[] {
  const a = mat(A),
    q = mat(Q),
    x = mat(X);
  // with a descriptor E: A X Eᵀ + E X Aᵀ + Q (continuous), A X Aᵀ − E X Eᵀ + Q (discrete)
  const e = E ? mat(E) : undefined;
  let res: number, den: number;
  if (discrete) {
    const AXA = a.mmul(x).mmul(a.transpose());
    const EXE = e ? e.mmul(x).mmul(e.transpose()) : x;
    den = fro(AXA) + fro(EXE) + fro(q);
    res = fro(AXA.clone().sub(EXE).add(q)) / Math.max(den, 1e-300);
  } else {
    const AX = e ? a.mmul(x).mmul(e.transpose()) : a.mmul(x),
      XA = e ? e.mmul(x).mmul(a.transpose()) : x.mmul(a.transpose());
    den = fro(AX) + fro(XA) + fro(q);
    res = fro(AX.clone().add(XA).add(q)) / Math.max(den, 1e-300);
  }
  const an = fro(a),
    en = e ? fro(e) : 1;
  const checks = [residualCheck(discrete ? 'Stein' : 'Lyapunov', res, residualFloor(a.rows, discrete ? an * an + en * en : 2 * an * en, fro(x), den))];
  const qa = fro(q.clone().sub(q.transpose()));
  if (qa === 0) checks.push(symmetryCheck(x, 'X'));
  return checks;
}

/**
 * Checks a tool's result against its arguments. Returns undefined for tools that have no
 * independent check yet (the answer then says so rather than claiming verification).
 */
export function verify(tool: string, args: Record<string, any>, result: Record<string, any>): Verification | undefined {
  try {
    return verifyOrThrow(tool, args, result);
  } catch (e) {
    // A check that cannot run is a failed check, said: never a throw to the caller, never a
    // pass. (Each check handles the cases it knows; this is the net under all of them.)
    const why = e instanceof Error ? e.message : String(e);
    return { ok: false, checks: [{ name: VERIFIER_BROKE, ok: false, detail: `the verifier could not check this result (${why}), so it is not verified` }] };
  }
}

/** the name of the failed check that stands for a verifier that could not run */
export const VERIFIER_BROKE = 'verifier';

/** the checks of one tool's result (undefined: this result has no check, said as such) */
type Checker = (args: Record<string, any>, result: Record<string, any>, tool: string) => Check[] | undefined;

/** Gramians, Hankel singular values and model reduction (verify/reduce.ts) */
const verifyReduce_: Checker = (args, result, tool) => verifyReduce(tool, args, result);

/** input-output systems: realisations, responses, frequency, norms and plots (verify/systems.ts) */
const system: Checker = (args, result, tool) => verifySystem(tool, args, result);

/**
 * h2norm and hinfnorm: the H norm's checks (verify/systems.ts) and the L norm's (verify/norms.ts).
 * When the L norm cannot be checked (a model beyond the quadrature's size) and differs from
 * the H norm (an unstable model), the result is not independently verified, said as such.
 */
const normPair =
  (lChecks: (a: Record<string, any>, r: Record<string, any>) => Check[] | undefined, h: string, l: string): Checker =>
  (args, result, tool) => {
    const hc = system(args, result, tool);
    const lc = lChecks(args, result);
    if (lc === undefined) return result[l] === result[h] ? hc : undefined;
    if (hc === undefined) return lc.length ? lc : undefined;
    return [...hc, ...lc];
  };

function eigChecks(args: Record<string, any>, result: Record<string, any>): Check[] {
  // in units of 2^k ≈ max|a_ij| (exact): the checks' own sums and norms cannot overflow
  // (eigenvalues 1e308 ± 1e308j have a sum, a trace and a Frobenius norm beyond 1.8e308)
  const k = scaleExponent(args.A);
  const A = scaled(args.A, -k);
  const ev = (result.eigenvalues as Complex[]).map(([re, im]) => [ldexp(re, -k), ldexp(im, -k)] as Complex);
  const tr = A.reduce((s, r, i) => s + r[i], 0);
  const sum = ev.reduce((s, z) => s + z[0], 0);
  const scale = Math.max(fro(mat(A)), 1e-300) * Math.max(1, ev.length);
  const terr = Math.abs(sum - tr) / scale;
  return [
    { name: 'trace', ok: terr <= 1e-10, value: terr, detail: `sum of eigenvalues equals trace(A) (${sci(terr)})` },
    eigenvaluesCheck(A, ev, 'independent eigensolver', 'eigenvalues'),
  ];
}

function analysisChecks(args: Record<string, any>, result: Record<string, any>): Check[] {
  // eigenvalues by a second eigensolver; ranks by an SVD of matrices built here
  const checks = [eigenvaluesCheck(args.A, result.eigenvalues as Complex[], 'independent eigensolver', 'eigenvalues')];
  const n = (args.A as Matrix).length;
  if (n === 0) {
    // no states (a static gain): nothing to control or observe, ranks 0 of 0
    for (const [k, what] of [
      ['controllability', 'B'],
      ['observability', 'C'],
    ] as const)
      if (args[what] && result[k]) {
        const [rk] = rankCheck([], result[k].rank);
        checks.push({ ...rk, name: `${k} rank`, detail: `${k} ${rk.detail}` });
      }
    return checks;
  }
  if (args.B && result.controllability) {
    const rk = pairRankCheck(args.A, args.B, false, result.controllability.rank);
    checks.push({ ...rk, name: 'controllability rank', detail: `controllability ${rk.detail}` });
  }
  if (args.C && result.observability) {
    const rk = pairRankCheck(args.A, args.C, true, result.observability.rank);
    checks.push({ ...rk, name: 'observability rank', detail: `observability ${rk.detail}` });
  }
  return checks;
}

const riccati =
  (disc: boolean): Checker =>
  (args, result) =>
    verifyRiccati(args.A, args.B, args.Q, args.R, args.N ?? args.S, result.X, result.K, result.poles, disc, 'K', 'X', args.E);

function filterChecks(args: Record<string, any>, result: Record<string, any>, tool: string): Check[] {
  // the filter Riccati equation is the dual: (A', C', G Qn G', Rn), gain L'
  const At = mat(args.A).transpose().to2DArray();
  const Ct = mat(args.C).transpose().to2DArray();
  const G = mat(args.G);
  const W = G.mmul(mat(args.Qn)).mmul(G.transpose()).to2DArray();
  const Lt = mat(result.L).transpose().to2DArray();
  // the cross covariance N = E[wv'] (lqe, kalman): the dual cross term G N
  const S = Array.isArray(args.N) ? G.mmul(mat(args.N)).to2DArray() : undefined;
  // discrete kalman: L = A M is the predictor gain, dual of K = (Rn + C P C')⁻¹ C P A'
  return verifyRiccati(At, Ct, W, args.Rn, S, result.P, Lt, result.poles, tool === 'kalman' && isDiscrete(args), 'L', 'P');
}

function placeChecks(args: Record<string, any>, result: Record<string, any>): Check[] {
  const Acl = mat(args.A).sub(mat(args.B).mmul(mat(result.K)));
  const target = (args.poles as (number | Complex)[]).map((p) => (typeof p === 'number' ? [p, 0] : p) as Complex);
  return [eigenvaluesCheck(Acl.to2DArray(), target, 'poles placed', 'the requested poles and eig(A − BK)')];
}

/**
 * damp: the poles are the eigenvalues of A (or of the companion matrix of den), by the
 * verifier's own eigensolver; ωn, ζ and τ are recomputed from each reported pole by the
 * textbook formulas (a discrete pole through the complex logarithm written out here), and the
 * order must be by ωn ascending.
 */
function dampChecks(args: Record<string, any>, result: Record<string, any>): Check[] {
  const Ts = isDiscrete(args) ? (args.Ts as number) : 0;
  // the poles: eigenvalues of A, or of the companion matrix of den (its roots)
  const M0: Matrix = Array.isArray(args.den) ? companion(args.den) : args.A;
  const poles = result.poles as Complex[];
  const checks: Check[] = [
    M0.length ? eigenvaluesCheck(M0, poles, 'poles', 'the poles') : { name: 'poles', ok: poles.length === 0, detail: 'no states: no poles' },
  ];
  let worst = 0;
  poles.forEach(([re, im], i) => {
    let sr = re,
      si = im;
    if (Ts) {
      const r = Math.hypot(re, im);
      if (r === 0) {
        worst = Math.max(worst, result.wn[i] === Infinity && result.zeta[i] === 1 && result.tau[i] === 0 ? 0 : Infinity);
        return;
      }
      sr = Math.log(r) / Ts;
      si = Math.atan2(im, re) / Ts;
    }
    const wn = Math.hypot(sr, si);
    const rel = (a: number, b: number) =>
      Number.isNaN(b) ? (Number.isNaN(a) ? 0 : Infinity) : !Number.isFinite(b) ? (a === b ? 0 : Infinity) : Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
    worst = Math.max(
      worst,
      rel(result.wn[i], wn),
      wn === 0 ? rel(result.zeta[i], NaN) : Math.abs(result.zeta[i] - -sr / wn),
      rel(result.tau[i], sr === 0 ? Infinity : -1 / sr),
    );
  });
  const sorted = (result.wn as number[]).every((w, i, a) => i === 0 || a[i - 1] <= w);
  checks.push({
    name: 'ωn, ζ, τ',
    ok: worst <= 1e-12,
    value: worst,
    detail: `ωn, ζ and τ recomputed from each pole${Ts ? ' (through ln(z)/Ts)' : ''} agree (${sci(worst)})`,
  });
  checks.push({ name: 'order', ok: sorted, detail: sorted ? 'sorted by ωn ascending' : 'not sorted by ωn ascending' });
  return checks;
}

/**
 * Each tool's independent check, by tool. Kept apart from the tool objects (the verifier must
 * not share the solver's code), and `satisfies Record<ToolName, ...>`: a tool added to the
 * table without an entry here does not compile. State-space design checks (eigenvalues, ranks,
 * Lyapunov, Riccati, placement) are written in this file; input-output system checks
 * (realisations, responses, frequency responses, margins, norms, plots) in verify/systems.ts.
 */
export const CHECKS = {
  eig: eigChecks,
  ctrb_rank: krylovChecks,
  obsv_rank: krylovChecks,
  analyse: analysisChecks,
  lyap: (args, result) => lyapCheck(args.A, args.Q, result.X, false, args.E),
  dlyap: (args, result) => lyapCheck(args.A, args.Q, result.X, true, args.E),
  ...matrixEqChecks({ residualCheck, residualFloor, symmetryCheck }),
  care: riccati(false),
  lqr: riccati(false),
  dare: riccati(true),
  dlqr: riccati(true),
  lqe: filterChecks,
  kalman: (args, result, tool) => [...filterChecks(args, result, tool), ...kalmanExtraChecks(args, result)],
  place: placeChecks,
  ...lqFamilyChecks({ verifyRiccati, eigenvaluesCheck }),
  damp: dampChecks,
  c2d: c2dChecks,
  d2c: d2cChecks,
  d2d: d2dChecks,
  evalfr: evalfrChecks,
  ...tfzpkChecks(system),
  poles_zeros: system,
  dcgain: system,
  freqresp: system,
  margins: system,
  bandwidth: bandwidthChecks,
  sigma: sigmaChecks,
  stability_margins: stabilityMarginChecks,
  diskmargin: diskMarginChecks,
  diskmargin_io: diskMarginIOChecks,
  step: system,
  impulse: system,
  stepinfo: system,
  h2norm: normPair(l2Checks, 'h2', 'l2'),
  hinfnorm: normPair(linfChecks, 'hinf', 'linf'),
  rlocus: system,
  nyquist: system,
  ...INTERCONNECT_CHECKS,
  ...CONNECT_CHECKS,
  lsim: lsimChecks,
  initial: initialChecks,
  gram: verifyReduce_,
  hsvd: verifyReduce_,
  balreal: verifyReduce_,
  balred: verifyReduce_,
  modred: verifyReduce_,
  ctrbf: staircaseChecks,
  obsvf: staircaseChecks,
  kalman_decomp: kalmanChecks,
  canon: canonChecks,
  ss2ss: ss2ssChecks,
  tzero: tzeroChecks,
  pade: padeChecks,
  thiran: thiranChecks,
  pidtune: (args, result) => pidChecks(args, result),
  leadlag: leadLagChecks,
  wls_alloc: allocChecks,
  find_eqpt: eqptChecks,
  linearize: linearizeChecks,
  nlsim: nlsimChecks,
  lyapunov_check: lyapunovChecks,
  mpc: mpcChecks,
  cbf_filter: cbfChecks,
} satisfies Record<ToolName, Checker>;

function verifyOrThrow(tool: string, args: Record<string, any>, result: Record<string, any>): Verification | undefined {
  const checker = (CHECKS as Record<string, Checker>)[tool] ?? system;
  const checks = checker(args, result, tool);
  if (!checks) return undefined;
  return { ok: checks.every((c) => c.ok), checks };
}
