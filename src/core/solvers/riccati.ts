/**
 * Algebraic Riccati equations, with an optional cross term N (S):
 *   care:  A'X + XA - (XB + N) R^-1 (B'X + N') + Q = 0,          K = R^-1 (B'X + N')
 *   dare:  A'XA - X - (A'XB + N)(R + B'XB)^-1 (B'XA + N') + Q = 0, K = (R + B'XB)^-1 (B'XA + N')
 * X is the stabilising solution (A - BK stable), symmetrised.
 *
 * CARE: the Schur method (Laub) on the Hamiltonian after a symplectic diagonal balancing
 * (D = diag(T, T^-1), powers of 2, as SciPy after Benner), the stable invariant subspace by
 * reordering the real Schur form, X = U21 U11^-1, then Newton-Kleinman correction steps
 * (each a Lyapunov solve with the closed loop) while the residual drops.
 * DARE: the structure-preserving doubling algorithm (SDA, Chu/Fan/Lin), which needs only LU
 * solves and allows a singular A, followed by Newton (Hewer) correction steps, each a Stein
 * equation with the closed loop.
 * Both refuse when (A, B) is not stabilisable (the uncontrollable modes are found by the
 * controllability staircase) or when no stabilising solution exists.
 */
import { tool } from '../tools/types.js';
import { feedbackRenderer } from '../render/results.js';
import { GENERATORS } from '../codegen/code.js';
import type { Complex, Matrix } from '../types.js';
import { matrix } from '../tools/schema.js';
import { checkMatrix, checkSquare, checkRows, fmtSize, size } from '../tools/args.js';
import { ControlError } from '../errors.js';
import {
  type Mat,
  fromRows,
  toRows,
  zeros,
  eye,
  clone,
  mul,
  mulTN,
  mulNT,
  normF,
  symmetrize,
  luFactor,
  luSolve,
  luSolveRight,
  luRcond,
  norm1,
  cholesky,
  EPS,
} from '../linalg/dense.js';
import { balance } from '../linalg/balance.js';
import { realSchur, reorderSchur, schurEigenvalues, eigvalsSorted } from '../linalg/schur.js';
import { controllability } from '../linalg/staircase.js';
import { lyapunovMat } from './lyapunov.js';
import { descriptorE, eSolveLeft, eSolveRight } from './matrixeq.js';

export interface RiccatiSolution {
  X: Mat;
  K: Mat;
  /** closed-loop A - B K */
  Acl: Mat;
  /** eigenvalues of A - B K, sorted */
  poles: Complex[];
  /** normalised residual (as check.py: ||Res||_F / sum of the terms' norms) */
  residual: number;
}

const fmtNum = (x: number) => `${+x.toPrecision(6)}`;
const fmtMode = (re: number, im: number, discrete: boolean) => {
  const v = discrete ? 'z' : 's';
  if (Math.abs(im) <= 1e-12 * Math.max(1, Math.abs(re))) return `${v} = ${fmtNum(re)}`;
  return `${v} = ${fmtNum(re)} ± ${fmtNum(Math.abs(im))}i`;
};

/**
 * Throws ControlError if (A, B) has an uncontrollable mode with Re >= 0 (continuous) or
 * |z| >= 1 (discrete), naming the modes.
 */
export function checkStabilisable(A: Mat, B: Mat, discrete: boolean, dual = false, evA: Complex[] = eigvalsSorted(A)): void {
  const n = A.r;
  // a stable A is trivially stabilisable: skip the staircase (whose rank decisions are the
  // fragile part for badly scaled, highly non-normal A such as CAREX 4.4)
  const margin = 1e3 * n * EPS;
  const rho = evA.reduce((m, [re, im]) => Math.max(m, Math.hypot(re, im)), 0);
  if (evA.every(([re, im]) => (discrete ? Math.hypot(re, im) < 1 - margin : re < -margin * Math.max(rho, 1e-300)))) return;
  // the one controllability decision (linalg/staircase.ts), as analyse, ctrb_rank and place
  const { nc, uncontrollable: ev } = controllability(A, B);
  if (nc === n) return;
  const anorm = Math.max(normF(A), Number.MIN_VALUE);
  const tol = 1e3 * n * EPS * anorm;
  const bad = ev.filter(([re, im]) => (discrete ? Math.hypot(re, im) >= 1 - tol : re >= -tol));
  if (!bad.length) return;
  // one entry per conjugate pair
  const shown = bad.filter(([, im]) => im >= 0).map(([re, im]) => fmtMode(re, im, discrete));
  const where = discrete ? 'on or outside the unit circle' : 'in the closed right half-plane';
  const pl = shown.length > 1;
  if (dual)
    throw new ControlError(
      `(C, A) is not detectable: the mode${pl ? 's' : ''} at ${shown.join(', ')} ${pl ? 'are' : 'is'} unobservable from the measurements (C does not see ${pl ? 'them' : 'it'} above the rounding level of the data, the rank rule of obsv_rank) ` +
        `and ${where}, so no estimator gain can stabilise the error dynamics and the filter Riccati equation has no stabilising solution.`,
      'infeasible',
    );
  throw new ControlError(
    `(A, B) is not stabilisable: the mode${pl ? 's' : ''} at ${shown.join(', ')} ${pl ? 'are' : 'is'} uncontrollable (B does not reach ${pl ? 'them' : 'it'} above the rounding level of the data, the rank rule of ctrb_rank) ` +
      `and ${where}, so no feedback can stabilise ${pl ? 'them' : 'it'} and the Riccati equation has no stabilising solution.`,
    'infeasible',
  );
}

interface Prepared {
  n: number;
  m: number;
  A: Mat;
  B: Mat;
  Q: Mat;
  R: Mat;
  N: Mat | null;
  Rlu: ReturnType<typeof luFactor>;
}

function prepare(A: Mat, B: Mat, Q: Mat, R: Mat, N: Mat | null | undefined): Prepared {
  const n = A.r,
    m = B.c;
  const Rlu = luFactor(R);
  if (Rlu.singular) throw new ControlError('R is singular (or numerically singular): the Riccati equation needs an invertible R.', 'infeasible');
  return { n, m, A, B, Q, R, N: N ?? null, Rlu };
}

/** continuous residual and gain for a candidate X (check.py's normalisation) */
function careResidual(P: Prepared, X: Mat): { Res: Mat; K: Mat; rel: number; den: number } {
  const { A, B, Q, N, Rlu } = P;
  // K = R^-1 (B'X + N')
  const BtX = mulTN(B, X);
  if (N) for (let i = 0; i < P.m; i++) for (let j = 0; j < P.n; j++) BtX.d[i * P.n + j] += N.d[j * P.m + i];
  const K = luSolve(Rlu, BtX);
  const AtX = mulTN(A, X);
  const XA = mul(X, A);
  const T = mulTN(BtX, K); // (XB + N) R^-1 (B'X + N')
  const Res = zeros(P.n, P.n);
  for (let k = 0; k < Res.d.length; k++) Res.d[k] = AtX.d[k] + XA.d[k] - T.d[k] + Q.d[k];
  symmetrize(Res);
  const den = normF(AtX) + normF(XA) + normF(T) + normF(Q);
  return { Res, K, rel: normF(Res) / Math.max(den, 1e-300), den };
}

/** discrete residual and gain */
function dareResidual(P: Prepared, X: Mat): { Res: Mat; K: Mat; rel: number; G: Mat; den: number } {
  const { A, B, Q, R, N } = P;
  const XB = mul(X, B);
  const G = mulTN(B, XB); // B'XB
  for (let k = 0; k < G.d.length; k++) G.d[k] += R.d[k];
  symmetrize(G);
  const BtXA = mulTN(XB, A); // B'XA
  if (N) for (let i = 0; i < P.m; i++) for (let j = 0; j < P.n; j++) BtXA.d[i * P.n + j] += N.d[j * P.m + i];
  const Glu = luFactor(G);
  if (Glu.singular) throw new ControlError("R + B'XB is singular.", 'numerical');
  const K = luSolve(Glu, BtXA);
  const AtXA = mulTN(A, mul(X, A));
  const T = mulTN(BtXA, K);
  const Res = zeros(P.n, P.n);
  for (let k = 0; k < Res.d.length; k++) Res.d[k] = AtXA.d[k] - X.d[k] - T.d[k] + Q.d[k];
  symmetrize(Res);
  const den = normF(AtXA) + normF(X) + normF(T) + normF(Q);
  return { Res, K, rel: normF(Res) / Math.max(den, 1e-300), G, den };
}

function closedLoop(A: Mat, B: Mat, K: Mat): Mat {
  const BK = mul(B, K);
  const Acl = clone(A);
  for (let k = 0; k < Acl.d.length; k++) Acl.d[k] -= BK.d[k];
  return Acl;
}

/**
 * Newton correction steps: X <- X + dX with the closed loop Ak = A - B K(X) and
 * Ak' dX + dX Ak + Res(X) = 0 (continuous) or Ak' dX Ak - dX + Res(X) = 0 (discrete).
 * Stops when the residual no longer drops by half; keeps the best iterate.
 */
function newtonRefine(P: Prepared, X0: Mat, discrete: boolean, maxSteps: number): Refined {
  const resid = discrete ? (X: Mat) => dareResidual(P, X) : (X: Mat) => careResidual(P, X);
  let X = X0;
  let cur = resid(X);
  for (let it = 0; it < maxSteps && cur.rel > Math.max(4, P.n) * EPS; it++) {
    const Acl = closedLoop(P.A, P.B, cur.K);
    let dX: Mat;
    try {
      // lyapunovMat solves M Y + Y M' + Q = 0 (or M Y M' - Y + Q = 0) ; here M = Acl'
      dX = lyapunovMat(transposeOf(Acl), cur.Res, discrete);
    } catch {
      break;
    }
    const Xn = clone(X);
    for (let k = 0; k < Xn.d.length; k++) Xn.d[k] += dX.d[k];
    symmetrize(Xn);
    let next;
    try {
      next = resid(Xn);
    } catch {
      break;
    }
    if (!(next.rel < cur.rel)) break;
    const improved = next.rel < 0.5 * cur.rel;
    X = Xn;
    cur = next;
    if (!improved) break;
  }
  return { X, K: cur.K, rel: cur.rel, den: cur.den };
}

/** a candidate X with its gain and normalised residual (rel = ‖Res‖/den, den the terms' norms) */
type Refined = { X: Mat; K: Mat; rel: number; den: number };

function transposeOf(M: Mat): Mat {
  const n = M.r,
    c = M.c;
  const T = zeros(c, n);
  for (let i = 0; i < n; i++) for (let j = 0; j < c; j++) T.d[j * n + i] = M.d[i * c + j];
  return T;
}

function finish(P: Prepared, X: Mat, K: Mat, rel: number, den: number, discrete: boolean, known?: { Acl: Mat; poles: Complex[] }): RiccatiSolution {
  for (const v of X.d)
    if (!Number.isFinite(v)) throw new ControlError('The Riccati solution is not finite: no stabilising solution can be computed.', 'numerical');
  const Acl = known?.Acl ?? closedLoop(P.A, P.B, K);
  // accuracy first: an X whose residual is far off says nothing about stabilisability (its
  // closed loop may be unstable only because X is inaccurate), so that is the reason given
  refuseInaccurate(P, X, Acl, discrete, rel, den);
  const poles = known?.poles ?? eigvalsSorted(Acl);
  const unstable = poles.filter(([re, im]) => (discrete ? Math.hypot(re, im) >= 1 : re >= 0));
  if (unstable.length)
    throw new ControlError(
      `No stabilising solution: the computed closed loop has pole${unstable.length > 1 ? 's' : ''} at ` +
        `${unstable.map(([re, im]) => fmtMode(re, im, discrete)).join(', ')} (${discrete ? 'on or outside the unit circle' : 'in the closed right half-plane'}). ` +
        `This happens when a mode of A on the ${discrete ? 'unit circle' : 'imaginary axis'} is unobservable through Q, or (A, B) is not stabilisable.`,
      'infeasible',
    );
  return { X, K, Acl, poles, residual: rel };
}

/** the normalised residual above which a Riccati solution is not accepted (the verifier's RESIDUAL_TOL) */
const RESIDUAL_TOL = 1e-8;

/**
 * The solver's own acceptance test, the same as the independent verifier's: the normalised
 * residual must be at most 1e-8, or the residual that the exact solution rounded to double
 * precision leaves (10n·ε·‖L‖·‖X‖ over the terms, ‖L‖ = 2‖Acl‖ continuous, ‖Acl‖² + 1
 * discrete), whichever is larger. Where Newton refinement cannot get there (a closed loop
 * whose Stein/Lyapunov operator has condition 4e17, so each correction is noise; SciPy's
 * solve_discrete_are leaves a residual of 1.2e-5 on the same problem, 4e-4 off in X), the
 * result is refused rather than returned with a residual the verifier rejects.
 */
function refuseInaccurate(P: Prepared, X: Mat, Acl: Mat, discrete: boolean, rel: number, den: number): void {
  const ac = normF(Acl);
  const op = discrete ? ac * ac + 1 : 2 * ac;
  const floor = (10 * Math.max(P.n, 1) * EPS * op * normF(X)) / Math.max(den, 1e-300);
  const tol = Math.max(RESIDUAL_TOL, floor);
  if (rel <= tol) return;
  throw new ControlError(
    `The ${discrete ? 'discrete' : 'continuous'} Riccati equation could not be solved accurately in double precision: after refinement the normalised residual is ${rel.toExponential(1)} ` +
      `(at most ${tol.toExponential(1)} is accepted). The problem is too ill-conditioned here (the closed loop's ${discrete ? 'Stein' : 'Lyapunov'} operator is nearly singular; gains and weights of very different scales); no result is given rather than an inaccurate one. Rescaling the weights or the state units may help.`,
    'numerical',
  );
}

/**
 * Stabilising solution of the CARE (see the module comment) with optional cross term N
 * (n x m). Matrices in row-major Mat form.
 */
export function careMat(A: Mat, B: Mat, Q: Mat, R: Mat, N?: Mat | null, opts: { dual?: boolean } = {}): RiccatiSolution {
  return checkedFirst(() => careCore(A, B, Q, R, N), A, B, Q, R, N, false, opts.dual);
}

/**
 * Decides existence before solving: (A, B) stabilisable, and no mode on the stability
 * boundary that the cost does not see. A computed closed loop that looks stable does not
 * prove either: when a mode on the boundary cannot be moved (A = 0, B = [0.73; 0.20]) the
 * Hamiltonian's eigenvalue pair at 0 splits in rounding into ±1e-8, the Schur method returns
 * an X of 1e9 and a "stable" pole at -1e-8 that is rounding only (SciPy: "Failed to find a
 * finite solution"); and a mode that B reaches only below its rounding level (B = [1; 1e-17]
 * and an unstable mode at z = 1.2) gives gains of 3e17 whose closed loop is stable only in
 * exact arithmetic. The staircase decides both with the same rank tolerance as ctrb_rank.
 */
function checkedFirst(
  solve: () => RiccatiSolution,
  A: Mat,
  B: Mat,
  Q: Mat,
  R: Mat,
  N: Mat | null | undefined,
  discrete: boolean,
  dual?: boolean,
): RiccatiSolution {
  // eig(A) once: both checks need it (the boundary check on A − BR⁻¹N', which is A without N)
  const evA = eigvalsSorted(A);
  checkStabilisable(A, B, discrete, dual, evA);
  checkBoundaryModesSeen(A, B, Q, R, N ?? null, discrete, dual, N ? undefined : evA);
  return solve();
}

/**
 * Refuses when a mode of A on the stability boundary (Re s = 0, |z| = 1) is unobservable
 * through the cost, i.e. an uncontrollable mode of (Ã', Q̃) with Ã = A − BR⁻¹N',
 * Q̃ = Q − NR⁻¹N' (Q̃ ⪰ 0 only; an indefinite weight has no such test). The Hamiltonian
 * (symplectic pencil) then has that eigenvalue on the boundary and no stabilising solution
 * exists, only one that leaves the mode where it is; in rounding it may look just stable.
 */
function checkBoundaryModesSeen(A: Mat, B: Mat, Q: Mat, R: Mat, N: Mat | null, discrete: boolean, dual?: boolean, evAt?: Complex[]): void {
  const n = A.r;
  let At = A,
    Qt = Q;
  if (N) {
    const Rlu = luFactor(R);
    if (Rlu.singular) return;
    const RiNt = luSolve(Rlu, transposeOf(N));
    At = clone(A);
    const BRN = mul(B, RiNt);
    for (let k = 0; k < At.d.length; k++) At.d[k] -= BRN.d[k];
    Qt = clone(Q);
    const NRN = mul(N, RiNt);
    for (let k = 0; k < Qt.d.length; k++) Qt.d[k] -= NRN.d[k];
    symmetrize(Qt);
  }
  const evA = evAt ?? eigvalsSorted(At);
  const anorm = Math.max(normF(At), Number.MIN_VALUE);
  const tol = 1e3 * n * EPS * anorm;
  const near = (re: number, im: number) => (discrete ? Math.abs(Math.hypot(re, im) - 1) <= 1e3 * n * EPS * Math.max(1, anorm) : Math.abs(re) <= tol);
  if (!evA.some(([re, im]) => near(re, im))) return;
  // Q̃ ⪰ 0 (to rounding) only
  const qev = eigvalsSorted(Qt);
  const qmax = qev.reduce((m, [re]) => Math.max(m, Math.abs(re)), 0);
  if (qev.some(([re]) => re < -1e-10 * qmax)) return;
  const { nc, uncontrollable } = controllability(transposeOf(At), Qt);
  if (nc === n) return;
  const bad = uncontrollable.filter(([re, im]) => near(re, im));
  if (!bad.length) return;
  const shown = bad.filter(([, im]) => im >= 0).map(([re, im]) => fmtMode(re, im, discrete));
  const pl = shown.length > 1;
  const where = discrete ? 'on the unit circle' : 'on the imaginary axis';
  if (dual)
    throw new ControlError(
      `No stabilising solution: the mode${pl ? 's' : ''} at ${shown.join(', ')} ${pl ? 'are' : 'is'} ${where} and not excited by the process noise (G Qn G'), ` +
        'so the filter Riccati equation has no stabilising solution (the estimation error of that mode would never decay).',
      'infeasible',
    );
  throw new ControlError(
    `No stabilising solution: the mode${pl ? 's' : ''} at ${shown.join(', ')} ${pl ? 'are' : 'is'} ${where} and unobservable through the state weight Q ` +
      `(it costs nothing), so the Riccati equation has no stabilising solution, only one that leaves ${pl ? 'them' : 'it'} in place. Put weight on ${pl ? 'them' : 'it'} in Q.`,
    'infeasible',
  );
}

function careCore(A: Mat, B: Mat, Q: Mat, R: Mat, N?: Mat | null): RiccatiSolution {
  const P = prepare(A, B, Q, R, N);
  const { n, m, Rlu } = P;
  // eliminate the cross term: At = A - B R^-1 N', Qt = Q - N R^-1 N', G = B R^-1 B'
  const RiBt = luSolve(Rlu, transposeOf(B)); // m x n
  const G = mul(B, RiBt);
  symmetrize(G);
  let At = A,
    Qt = Q;
  if (P.N) {
    const RiNt = luSolve(Rlu, transposeOf(P.N));
    At = clone(A);
    const BRN = mul(B, RiNt);
    for (let k = 0; k < At.d.length; k++) At.d[k] -= BRN.d[k];
    Qt = clone(Q);
    const NRN = mul(P.N, RiNt);
    for (let k = 0; k < Qt.d.length; k++) Qt.d[k] -= NRN.d[k];
    symmetrize(Qt);
  }
  const n2 = 2 * n;
  const H = zeros(n2, n2);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      H.d[i * n2 + j] = At.d[i * n + j];
      H.d[i * n2 + n + j] = -G.d[i * n + j];
      H.d[(n + i) * n2 + j] = -Qt.d[i * n + j];
      H.d[(n + i) * n2 + n + j] = -At.d[j * n + i];
    }
  // symplectic balancing: D = diag(t, 1/t) from the general balancing of |H| (diagonal removed)
  const absH = zeros(n2, n2);
  for (let i = 0; i < n2; i++) for (let j = 0; j < n2; j++) absH.d[i * n2 + j] = i === j ? 0 : Math.abs(H.d[i * n2 + j]);
  const sc = balance(absH, { permute: false }).scale;
  const D = new Float64Array(n2);
  for (let i = 0; i < n; i++) {
    const s = Math.round((Math.log2(sc[i]) - Math.log2(sc[n + i])) / 2);
    D[i] = 2 ** s;
    D[n + i] = 2 ** -s;
  }
  void m;
  const first = hamiltonianSchur(H, D, n);
  let best: Checked | null = null;
  let firstErr: unknown = null;
  try {
    best = stabilisingOrNull(P, newtonRefine(P, first, false, 6));
  } catch (e) {
    firstErr = e;
  }
  if (!best || best.rel > 1e-12) {
    // The balancing of |H| cannot see the scale of X itself: when ||X|| is far from 1 the
    // basis [I; X] of the stable subspace is badly scaled and U11 loses all accuracy (CAREX
    // 2.6: ||X|| ~ 1e16). Rescale by t with t^2 ||X|| ~ 1 (D = diag(t I, I/t)) and solve again.
    let xs = 0;
    for (const v of first.d) xs = Math.max(xs, Math.abs(v));
    const e = Math.round(-Math.log2(xs) / 2);
    if (Number.isFinite(e) && Math.abs(e) >= 4) {
      const D2 = new Float64Array(D);
      for (let i = 0; i < n; i++) {
        D2[i] *= 2 ** e;
        D2[n + i] *= 2 ** -e;
      }
      try {
        const again = stabilisingOrNull(P, newtonRefine(P, hamiltonianSchur(H, D2, n), false, 6));
        if (again && (!best || again.rel < best.rel)) best = again;
      } catch (e2) {
        if (!firstErr) firstErr = e2;
      }
    }
  }
  if (!best) {
    if (firstErr) throw firstErr;
    const ref = newtonRefine(P, first, false, 6);
    return finish(P, ref.X, ref.K, ref.rel, ref.den, false); // throws, naming the unstable poles
  }
  return finish(P, best.X, best.K, best.rel, best.den, false, best);
}

type Checked = Refined & { Acl: Mat; poles: Complex[] };

function stabilisingOrNull(P: Prepared, r: Refined): Checked | null {
  for (const v of r.X.d) if (!Number.isFinite(v)) return null;
  const Acl = closedLoop(P.A, P.B, r.K);
  const poles = eigvalsSorted(Acl);
  return poles.every(([re]) => re < 0) ? { ...r, Acl, poles } : null;
}

/**
 * X from the stable invariant subspace of the Hamiltonian H (2n x 2n, unscaled) after the
 * symplectic diagonal similarity D^-1 H D, D = diag(d_1..d_n, 1/d_1..1/d_n).
 */
function hamiltonianSchur(H0: Mat, D: Float64Array, n: number): Mat {
  const n2 = 2 * n;
  const H = clone(H0);
  for (let i = 0; i < n2; i++) for (let j = 0; j < n2; j++) H.d[i * n2 + j] *= D[j] / D[i];
  const { T, Z } = realSchur(H);
  const hev = schurEigenvalues(T);
  const hnorm = normF(H);
  // eigenvalues on the imaginary axis: no stabilising solution
  const axisTol = 10 * n2 * EPS * hnorm;
  const onAxis = hev.filter(([re]) => Math.abs(re) <= axisTol);
  const ks = onAxis.length ? -1 : reorderSchur(T, Z, (re) => re < 0);
  if (ks !== n) {
    throw new ControlError(
      'No stabilising solution: the Hamiltonian matrix has eigenvalues on (or numerically on) the imaginary axis' +
        (onAxis.length
          ? ` (${onAxis
              .filter(([, im]) => im >= 0)
              .map(([re, im]) => fmtMode(re, im, false))
              .join(', ')})`
          : '') +
        '. This happens when a mode of A on the imaginary axis is unobservable through Q (or uncontrollable).',
      'infeasible',
    );
  }
  const Z11 = zeros(n, n),
    Z21 = zeros(n, n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      Z11.d[i * n + j] = Z.d[i * n2 + j];
      Z21.d[i * n + j] = Z.d[(n + i) * n2 + j];
    }
  const F = luFactor(Z11);
  if (F.singular || luRcond(F, norm1(Z11)) < EPS)
    throw new ControlError(
      'No stabilising solution can be computed: the stable invariant subspace of the Hamiltonian is not a graph (U11 is singular).',
      'infeasible',
    );
  const Xb = luSolveRight(F, Z21); // Z21 Z11^-1
  const X = zeros(n, n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) X.d[i * n + j] = (Xb.d[i * n + j] * D[n + i]) / D[j];
  return symmetrize(X);
}

// ---------------------------------------------------------------- DARE

/**
 * Stabilising solution of the DARE with optional cross term N, by the structure-preserving
 * doubling algorithm (no inverse of A needed) and Newton (Hewer) correction steps.
 */
export function dareMat(A: Mat, B: Mat, Q: Mat, R: Mat, N?: Mat | null, opts: { dual?: boolean } = {}): RiccatiSolution {
  return checkedFirst(() => dareCore(A, B, Q, R, N), A, B, Q, R, N, true, opts.dual);
}

function dareCore(A: Mat, B: Mat, Q: Mat, R: Mat, N?: Mat | null): RiccatiSolution {
  const P = prepare(A, B, Q, R, N);
  const { n, Rlu } = P;
  const RiBt = luSolve(Rlu, transposeOf(B));
  const Gk = mul(B, RiBt);
  symmetrize(Gk);
  const Ak = clone(A),
    Hk = clone(Q);
  if (P.N) {
    const RiNt = luSolve(Rlu, transposeOf(P.N));
    const BRN = mul(B, RiNt);
    for (let k = 0; k < Ak.d.length; k++) Ak.d[k] -= BRN.d[k];
    const NRN = mul(P.N, RiNt);
    for (let k = 0; k < Hk.d.length; k++) Hk.d[k] -= NRN.d[k];
    symmetrize(Hk);
  }
  const X0 = sda(Ak, Gk, Hk);
  const first = X0 ? dStabilisingOrNull(P, safeRefine(P, X0)) : null;
  if (first) return finish(P, first.X, first.K, first.rel, first.den, true, first);
  // SDA converges to the stabilising solution only when (A, Q) is detectable (with Q = 0 and
  // an unstable A it stays at X = 0). Fall back to Newton-Hewer from a stabilising gain,
  // obtained from the same equation with Q = I (detectable, so SDA gives a stabilising K0).
  const Xi = sda(Ak, Gk, eye(n));
  if (!Xi) throw new ControlError('No stabilising solution: the doubling iteration for the discrete Riccati equation did not converge.', 'infeasible');
  const K0 = dareResidual({ ...P, A: Ak, N: null }, Xi).K;
  // K0 stabilises A - B K0; with the cross term, the gain for A is K0 + R^-1 N'
  if (P.N) {
    const RiNt = luSolve(Rlu, transposeOf(P.N));
    for (let k = 0; k < K0.d.length; k++) K0.d[k] += RiNt.d[k];
  }
  const ref = newtonRefine(P, hewer(P, K0), true, 6);
  const closed = closedLoop(P.A, P.B, ref.K);
  const poles = eigvalsSorted(closed);
  const out = poles.filter(([re, im]) => Math.hypot(re, im) >= 1);
  if (out.length)
    // Newton-Hewer from a stabilising K0 keeps every closed loop stable in exact arithmetic (a
    // mode it cannot stabilise stops it earlier, in the Stein solve): ending unstable is
    // rounding, not the absence of a stabilising solution
    throw new ControlError(
      `The discrete Riccati equation could not be solved accurately in double precision: the Newton iteration, whose closed loops are stable in exact arithmetic, ended with a pole at ${out.map(([re, im]) => fmtMode(re, im, true)).join(', ')} and a normalised residual of ${ref.rel.toExponential(1)}. ` +
        "The problem is too ill-conditioned here (the closed loop's Stein operator is nearly singular; gains and weights of very different scales); no result is given rather than an inaccurate one. Rescaling the weights or the state units may help.",
      'numerical',
    );
  return finish(P, ref.X, ref.K, ref.rel, ref.den, true, { Acl: closed, poles });
}

function safeRefine(P: Prepared, X: Mat): Refined | null {
  try {
    return newtonRefine(P, X, true, 6);
  } catch {
    return null;
  }
}

function dStabilisingOrNull(P: Prepared, r: Refined | null): Checked | null {
  if (!r) return null;
  for (const v of r.X.d) if (!Number.isFinite(v)) return null;
  const Acl = closedLoop(P.A, P.B, r.K);
  const poles = eigvalsSorted(Acl);
  return poles.every(([re, im]) => Math.hypot(re, im) < 1) ? { ...r, Acl, poles } : null;
}

/**
 * Structure-preserving doubling (SDA) for X = A'X(I + GX)^-1 A + H:
 *   W = I + G H;  A1 = A W^-1 A;  G1 = G + A W^-1 G A';  H1 = H + A' H W^-1 A.
 * Quadratic convergence of H to the stabilising solution when the symplectic pencil has no
 * eigenvalues on the unit circle and (A, H) is detectable. Returns null on breakdown.
 */
function sda(A0: Mat, G0: Mat, H0: Mat): Mat | null {
  const n = A0.r;
  let Ak = clone(A0),
    Gk = clone(G0),
    Hk = clone(H0);
  for (let it = 0; it < 80; it++) {
    const W = mul(Gk, Hk);
    for (let i = 0; i < n; i++) W.d[i * n + i] += 1;
    const Wf = luFactor(W);
    if (Wf.singular) return null;
    const WiA = luSolve(Wf, Ak);
    const WiG = luSolve(Wf, Gk);
    const A1 = mul(Ak, WiA);
    const G1 = mulNT(mul(Ak, WiG), Ak);
    for (let k = 0; k < G1.d.length; k++) G1.d[k] += Gk.d[k];
    const H1 = mulTN(Ak, mul(Hk, WiA));
    let dh = 0,
      hn = 0;
    for (let k = 0; k < H1.d.length; k++) {
      const d = H1.d[k];
      H1.d[k] += Hk.d[k];
      dh = Math.max(dh, Math.abs(d));
      hn = Math.max(hn, Math.abs(H1.d[k]));
    }
    symmetrize(G1);
    symmetrize(H1);
    Ak = A1;
    Gk = G1;
    Hk = H1;
    if (!H1.d.every(Number.isFinite) || !G1.d.every(Number.isFinite)) return null;
    if (dh <= 1e-16 * hn || dh === 0) return Hk;
    let an = 0;
    for (const v of Ak.d) an = Math.max(an, Math.abs(v));
    if (an === 0) return Hk;
  }
  return Hk;
}

/**
 * Newton-Hewer iteration from a stabilising gain K0: X_k solves the Stein equation
 * (A - BK)'X(A - BK) - X + Q - NK - K'N' + K'RK = 0, then K = (R + B'XB)^-1 (B'XA + N').
 */
function hewer(P: Prepared, K0: Mat): Mat {
  const { A, B, Q, R, N, n } = P;
  let K = K0;
  let X = zeros(n, n);
  let prev = Infinity;
  for (let it = 0; it < 60; it++) {
    const Acl = closedLoop(A, B, K);
    const Qh = clone(Q);
    const KRK = mulTN(K, mul(R, K));
    for (let k = 0; k < Qh.d.length; k++) Qh.d[k] += KRK.d[k];
    if (N) {
      const NK = mul(N, K);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) Qh.d[i * n + j] -= NK.d[i * n + j] + NK.d[j * n + i];
    }
    symmetrize(Qh);
    let Xn: Mat;
    try {
      Xn = lyapunovMat(transposeOf(Acl), Qh, true);
    } catch {
      throw new ControlError(
        'No stabilising solution: the Newton iteration for the discrete Riccati equation met a closed loop with poles on the unit circle.',
        'infeasible',
      );
    }
    symmetrize(Xn);
    let dx = 0,
      xn = 0;
    for (let k = 0; k < Xn.d.length; k++) {
      dx = Math.max(dx, Math.abs(Xn.d[k] - X.d[k]));
      xn = Math.max(xn, Math.abs(Xn.d[k]));
    }
    X = Xn;
    K = dareResidual(P, X).K;
    if (dx <= 1e-14 * xn || (dx >= prev && dx <= 1e-10 * xn)) break;
    prev = dx;
  }
  return X;
}

// ---------------------------------------------------------------- public API on arrays of rows

export interface RiccatiRows {
  X: Matrix;
  K: Matrix;
  Acl: Matrix;
  poles: Complex[];
  residual: number;
}

const rowsOut = (s: RiccatiSolution): RiccatiRows => ({
  X: toRows(s.X),
  K: toRows(s.K),
  Acl: toRows(s.Acl),
  poles: s.poles,
  residual: s.residual,
});

/** stabilising CARE solution, K = R^-1 (B'X + N') */
export function careSolve(A: Matrix, B: Matrix, Q: Matrix, R: Matrix, N?: Matrix): RiccatiRows {
  return rowsOut(careMat(fromRows(A), fromRows(B), fromRows(Q), fromRows(R), N ? fromRows(N) : null));
}

/** stabilising DARE solution, K = (R + B'XB)^-1 (B'XA + N') */
export function dareSolve(A: Matrix, B: Matrix, Q: Matrix, R: Matrix, N?: Matrix): RiccatiRows {
  return rowsOut(dareMat(fromRows(A), fromRows(B), fromRows(Q), fromRows(R), N ? fromRows(N) : null));
}

// ---------------------------------------------------------------- argument checks shared with lqr/dlqr

export interface RiccatiArgs {
  A: Mat;
  B: Mat;
  Q: Mat;
  R: Mat;
  N: Mat | null;
}

/** checks shapes and symmetry of A, B, Q, R (and N); names follow the caller's argument names */
export function riccatiArgs(
  args: Record<string, any>,
  names: { A: string; B: string; Q: string; R: string; N?: string } = { A: 'A', B: 'B', Q: 'Q', R: 'R', N: 'N' },
): RiccatiArgs {
  const A = checkMatrix(args[names.A], names.A);
  const B = checkMatrix(args[names.B], names.B);
  const Q = checkMatrix(args[names.Q], names.Q);
  const R = checkMatrix(args[names.R], names.R);
  const n = checkSquare(A, names.A);
  checkRows(B, n, names.B, names.A);
  const m = size(B)[1];
  if (m === 0) throw new ControlError(`${names.B} has no columns.`);
  if (Q.length !== n || Q[0].length !== n) throw new ControlError(`${names.Q} is ${fmtSize(Q)} but ${names.A} is ${n}x${n}; ${names.Q} must be ${n}x${n}.`);
  if (R.length !== m || R[0].length !== m)
    throw new ControlError(`${names.R} is ${fmtSize(R)} but ${names.B} has ${m} column${m > 1 ? 's' : ''}; ${names.R} must be ${m}x${m}.`);
  symmetricOrThrow(Q, names.Q);
  symmetricOrThrow(R, names.R);
  const Rm = fromRows(R);
  if (!cholesky(symmetrize(clone(Rm)))) throw new ControlError(`${names.R} must be symmetric positive definite (it is the input weight).`);
  let N: Mat | null = null;
  const nName = names.N ?? 'N';
  if (args[nName] !== undefined && args[nName] !== null) {
    const Nr = checkMatrix(args[nName], nName);
    if (Nr.length !== n || (Nr[0]?.length ?? 0) !== m)
      throw new ControlError(`${nName} is ${fmtSize(Nr)} but must be ${n}x${m} (rows of ${names.A} by columns of ${names.B}).`);
    N = fromRows(Nr);
  }
  const Qm = symmetrize(fromRows(Q));
  return { A: fromRows(A), B: fromRows(B), Q: Qm, R: symmetrize(Rm), N };
}

function symmetricOrThrow(M: Matrix, name: string): void {
  const n = M.length;
  let scale = 0;
  for (const row of M) for (const v of row) scale = Math.max(scale, Math.abs(v));
  for (let i = 0; i < n; i++)
    for (let j = 0; j < i; j++)
      if (Math.abs(M[i][j] - M[j][i]) > 1e-10 * Math.max(scale, 1e-300))
        throw new ControlError(`${name} must be symmetric, but ${name}(${i + 1},${j + 1}) = ${M[i][j]} and ${name}(${j + 1},${i + 1}) = ${M[j][i]}.`);
}

export const poleList = (p: Complex[]): number[][] => p.map(([re, im]) => [re, im]);

const ricParams = (withN: boolean) => ({
  type: 'object' as const,
  properties: {
    A: matrix('state matrix A (n x n)'),
    B: matrix('input matrix B (n x m)'),
    Q: matrix('state weight Q (n x n), symmetric'),
    R: matrix('input weight R (m x m), symmetric positive definite'),
    ...(withN ? { N: matrix('cross weight N (n x m), optional') } : {}),
  },
  required: ['A', 'B', 'Q', 'R'],
  additionalProperties: false,
});

/** care/dare parameters: MATLAB's care(A, B, Q, R, S, E) and dare(A, B, Q, R, S, E) */
const careParams = (discrete: boolean) => ({
  type: 'object' as const,
  properties: {
    ...ricParams(false).properties,
    S: matrix('cross weight S (n x m), optional (lqr calls it N)'),
    E: matrix(
      discrete
        ? "descriptor matrix E (n x n, nonsingular), optional: A'XA - E'XE - (A'XB + S)(R + B'XB)^-1(B'XA + S') + Q = 0"
        : "descriptor matrix E (n x n, nonsingular), optional: A'XE + E'XA - (E'XB + S)R^-1(B'XE + S') + Q = 0",
    ),
  },
  required: ['A', 'B', 'Q', 'R'],
  additionalProperties: false,
});

/**
 * care/dare with MATLAB's optional S and E. A nonsingular E is reduced with E⁻¹: Y = EᵀXE
 * solves the standard equation in Ã = E⁻¹A, B̃ = E⁻¹B (the same S, Q, R; continuous:
 * AᵀXE = ÃᵀY, EᵀXB = YB̃; discrete: AᵀXA = ÃᵀYÃ, AᵀXB = ÃᵀYB̃, BᵀXB = B̃ᵀYB̃), the gain
 * K = R⁻¹(BᵀXE + Sᵀ) (or (R + BᵀXB)⁻¹(BᵀXA + Sᵀ)) is the standard one, the closed-loop
 * poles eig(A − BK, E) = eig(Ã − B̃K), and X = E⁻ᵀ Y E⁻¹.
 */
function runRiccati(args: Record<string, any>, discrete: boolean): Record<string, unknown> {
  const a = riccatiArgs(args, { A: 'A', B: 'B', Q: 'Q', R: 'R', N: 'S' });
  const solve = discrete ? dareMat : careMat;
  if (args.E === undefined || args.E === null) {
    const s = solve(a.A, a.B, a.Q, a.R, a.N);
    return { X: toRows(s.X), K: toRows(s.K), poles: poleList(s.poles), Acl: toRows(s.Acl) };
  }
  const e = descriptorE(fromRows(checkMatrix(args.E, 'E')), a.A.r);
  const s = solve(eSolveLeft(e.lu, a.A), eSolveLeft(e.lu, a.B), a.Q, a.R, a.N);
  // X = E⁻ᵀ Y E⁻¹ = (E⁻ᵀ (Y E⁻¹)ᵀ)ᵀ... with Y symmetric: Z = Y E⁻¹, X = E⁻ᵀ Z = (Zᵀ E⁻¹)ᵀ
  const Z = eSolveRight(e.lu, s.X);
  const X = symmetrize(transposeOf(eSolveRight(e.lu, transposeOf(Z))));
  return {
    X: toRows(X),
    K: toRows(s.K),
    poles: poleList(s.poles),
    Acl: toRows(s.Acl),
    note: `${e.note}; Acl is E⁻¹(A − BK), whose eigenvalues are those of the pencil (A − BK, E)`,
  };
}

/** the shared Riccati renderer, with the descriptor reduction and the cross term said when used */
const riccatiRenderer =
  (name: 'care' | 'dare') => (args: Record<string, any>, r: Record<string, any>, o: Parameters<ReturnType<typeof feedbackRenderer>>[2]) => {
    const out = [feedbackRenderer(name)(args, r, o)];
    if (Array.isArray(args.S))
      out.push(`**Cross term:** S enters as ${name === 'care' ? "(E'XB + S)R⁻¹(B'XE + S')" : "(A'XB + S)(R + B'XB)⁻¹(B'XA + S')"}, K includes S'.`);
    if (typeof r.note === 'string') out.push(`**Descriptor E:** ${r.note}; the closed-loop poles are eig(A − BK, E).`);
    return out.join('\n\n');
  };

export const tools = [
  tool({
    name: 'care',
    words: {
      calls: [
        { names: ['care', 'icare'], args: ['A', 'B', 'Q', 'R', 'S', 'E'], returns: ['X'] },
        {
          names: ['solve_continuous_are'],
          args: ['A', 'B', 'Q', 'R', 'E', 'S'],
          keywords: { a: 'A', b: 'B', q: 'Q', r: 'R', e: 'E', s: 'S' },
          note: "SciPy's solve_continuous_are(a, b, q, r, e, s) takes E before S",
        },
        { names: ['are'], args: ['kind', 'A', 'B', 'Q', 'R'], note: 'are(Continuous, A, B, Q, R) (ControlSystems.jl)' },
      ],
      phrases: ['riccati equation', 'algebraic riccati', 'continuous riccati', 'care', 'riccati'],
      discrete: 'dare',
      example: '/care A=[0 1; 0 0], B=[0;1], Q=eye(2), R=1',
    },
    title: 'Continuous algebraic Riccati equation',
    description:
      "Stabilising solution X of A'X + XA - XBR⁻¹B'X + Q = 0 (Schur method on the balanced Hamiltonian, " +
      "refined by Newton steps), the gain K = R⁻¹B'X for u = -Kx, and the closed-loop poles eig(A - BK). " +
      'Refuses when (A, B) is not stabilisable or no stabilising solution exists. Optional, as MATLAB care(A, B, Q, R, S, E): the cross weight S (n x m) ' +
      "and a nonsingular descriptor E: A'XE + E'XA - (E'XB + S)R⁻¹(B'XE + S') + Q = 0, K = R⁻¹(B'XE + S'), poles eig(A - BK, E); E is reduced by E⁻¹, a singular E refused.",
    parameters: careParams(false),
    run(args) {
      return runRiccati(args, false);
    },
    intro: '**Continuous algebraic Riccati equation** AᵀX + XA − XBR⁻¹BᵀX + Q = 0, stabilising solution X, with K = R⁻¹BᵀX.',
    render: riccatiRenderer('care'),
    code: GENERATORS.care,
    model: { none: 'inside lqr (its Riccati step)' },
    plots: { none: 'a Riccati solution, not a system response' },
  }),
  tool({
    name: 'dare',
    words: {
      calls: [
        { names: ['dare', 'idare'], args: ['A', 'B', 'Q', 'R', 'S', 'E'], returns: ['X'] },
        {
          names: ['solve_discrete_are'],
          args: ['A', 'B', 'Q', 'R', 'E', 'S'],
          keywords: { a: 'A', b: 'B', q: 'Q', r: 'R', e: 'E', s: 'S' },
          note: "SciPy's solve_discrete_are(a, b, q, r, e, s) takes E before S",
        },
      ],
      phrases: ['discrete riccati', 'discrete algebraic riccati', 'discrete-time riccati', 'dare'],
      continuous: 'care',
      example: '/dare A=[1 0.1; 0 1], B=[0.005; 0.1], Q=eye(2), R=1',
    },
    title: 'Discrete algebraic Riccati equation',
    description:
      "Stabilising solution X of A'XA - X - A'XB(R+B'XB)⁻¹B'XA + Q = 0 (structure-preserving doubling, A may be " +
      "singular, refined by Newton steps), the gain K = (R+B'XB)⁻¹B'XA for u[k] = -Kx[k], and the closed-loop poles " +
      'eig(A - BK). Refuses when (A, B) is not stabilisable or no stabilising solution exists. Optional, as MATLAB dare(A, B, Q, R, S, E): the cross weight ' +
      "S (n x m) and a nonsingular descriptor E: A'XA - E'XE - (A'XB + S)(R + B'XB)⁻¹(B'XA + S') + Q = 0, K = (R + B'XB)⁻¹(B'XA + S'), poles eig(A - BK, E); E is reduced by E⁻¹, a singular E refused.",
    parameters: careParams(true),
    run(args) {
      return runRiccati(args, true);
    },
    intro: '**Discrete algebraic Riccati equation** AᵀXA − X − AᵀXB(R + BᵀXB)⁻¹BᵀXA + Q = 0, stabilising solution X, with K = (R + BᵀXB)⁻¹BᵀXA.',
    render: riccatiRenderer('dare'),
    code: GENERATORS.dare,
    model: { none: 'inside dlqr (its Riccati step)' },
    plots: { none: 'a Riccati solution, not a system response' },
  }),
];

export { ricParams };
