/**
 * Structure of a state-space model under a change of state coordinates (python-control's
 * canonical.py and statesp.py; MATLAB ctrbf, obsvf, canon, ss2ss, tzero):
 *
 * - `ctrbf` / `obsvf`: the controllability (observability) staircase form with MATLAB's
 *   convention, the uncontrollable (unobservable) part first: Abar = T A Tᵀ = [Auc 0; A21 Ac],
 *   Bbar = T B = [0; Bc], Cbar = C Tᵀ (obsvf: Abar = [Ano A12; 0 Ao], Cbar = [0 Co]), T
 *   orthogonal, k the sizes of the staircase blocks padded with zeros to n (MATLAB's k). From
 *   the one staircase (linalg/staircase.ts, SLICOT AB01ND's tolerance n²·ε·‖A‖F), its
 *   orthogonal Z with the states in reverse order (T = J Zᵀ). MATLAB's ctrbf does not balance
 *   the states, and neither do these (T must stay orthogonal): when the balanced staircase that
 *   every other decision uses (analyse, minreal) counts differently, the answer says so.
 * - `kalman_decomp`: Kalman's decomposition into the controllable-observable (co),
 *   controllable-unobservable (cō), uncontrollable-observable (c̄o) and uncontrollable-
 *   unobservable (c̄ō) parts, by an orthogonal T adapted to the chain of invariant subspaces
 *   Wc ∩ Wō ⊂ Wc ⊂ Wc + Wō ⊂ ℝⁿ (Wc controllable, Wō unobservable subspace): the states in the
 *   order cō, co, c̄ō, c̄o, A block upper triangular, B zero on the c̄ parts, C zero on cō. An
 *   orthogonal T cannot make every zero of the textbook form (C on c̄ō may be nonzero), but each
 *   diagonal block has exactly the eigenvalues of its part, and (Aco, Bco, Cco, D) is a minimal
 *   realisation with the same transfer function. MATLAB and python-control have no single
 *   function for it (MATLAB: ctrbf then obsvf; minreal keeps co).
 * - `canon`: 'modal' (MATLAB canon(sys,'modal'): real eigenvalues on the diagonal, each pair
 *   σ ± jω as [σ ω; −ω σ], T = V⁻¹ from the eigenvectors; refused when cond(T) exceeds condt,
 *   default 1e8 as MATLAB's CONDT: a defective or nearly defective A has no modal form; MATLAB
 *   then groups the cluster into a larger block), 'companion' (MATLAB: the characteristic
 *   polynomial in the last column, T = ctrb(A, b1)⁻¹, controllable from the first input),
 *   'reachable' and 'observable' (python-control's reachable_form/observable_form: the
 *   coefficients in the first row, B = e1; in the first column, C = e1ᵀ).
 * - `ss2ss`: z = T x: (T A T⁻¹, T B, C T⁻¹, D), MATLAB ss2ss and python-control
 *   similarity_transform; a singular or badly conditioned T (cond > 1e12) is refused.
 * - `tzero`: the invariant zeros (MATLAB tzero: the finite values where the Rosenbrock system
 *   matrix P(s) = [A − sI, B; C, D] loses rank below its normal rank, by the Emami-Naeini/Van
 *   Dooren reduction in xferfcn.ts, as SLICOT AB08ND), and beside them, from the Kalman
 *   decomposition: the transmission zeros (the invariant zeros of the minimal part co), the
 *   input-decoupling zeros (where [A − sI, B] loses rank: the uncontrollable modes), the
 *   output-decoupling zeros (where [A − sI; C] loses rank: the unobservable modes) and the
 *   input-output decoupling zeros (both). Definitions: H. H. Rosenbrock, State-space and
 *   Multivariable Theory (1970), ch. 3; A. G. J. MacFarlane and N. Karcanias, "Poles and zeros
 *   of linear multivariable systems", Int. J. Control 24 (1976) 33-74: the system zeros are
 *   the transmission zeros with the input- and output-decoupling zeros, a mode decoupled at
 *   both ends counted once; the invariant zeros lie among them, and for a square P(s) of full
 *   normal rank they are all of them.
 */
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import { matrix } from '../tools/schema.js';
import { checkMatrix, checkSquare, fmtSize } from '../tools/args.js';
import type { RenderOptions } from '../render/markdown.js';
import { factsTable, matrixBlock } from '../render/markdown.js';
import { fmt, fmtComplex } from '../render/format.js';
import type { Complex, Matrix } from '../types.js';
import type { Code } from '../codegen/code.js';
import { verdictHolder } from '../codegen/code.js';
import { num as numberLiteral } from '../codegen/literals.js';
import { systemPlots } from '../plot/specs.js';
import {
  type Mat,
  EPS,
  block,
  eye,
  fromRows,
  luFactor,
  luSolve,
  luSolveRight,
  mul,
  mulNT,
  mulTN,
  normF,
  pow2Exponent,
  scalePow2,
  toRows,
  transpose,
  zeros,
} from '../linalg/dense.js';
import { balancedStaircase, controllabilityStaircase } from '../linalg/staircase.js';
import { singularValues, svd } from '../linalg/svd.js';
import { qrp } from '../linalg/qr.js';
import { eigvalsSorted } from '../linalg/schur.js';
import { realModalForm } from '../linalg/modal.js';
import { ctrbMat, obsvMat } from './statesp.js';
import { charpoly, invariantZeros } from './xferfcn.js';
import { cplx, readSS, readTfOrSs, scaleGuard, sortComplex, ssProps, tf2ss, tfProps, tsProp, type SS } from './_sys.js';

// ------------------------------------------------------------------ helpers

const eigs = (A: Mat): Complex[] => (A.r ? eigvalsSorted(A).map(([r, i]) => cplx(r, i)) : []);

/** a state-space model with at least one state, as Mats */
function readStates(args: Record<string, any>, toolName: string): { sys: SS; A: Mat; B: Mat; C: Mat; D: Mat } {
  const sys = readSS(args, toolName);
  if (sys.n === 0) throw new ControlError(`${toolName}: the model has no states (A is 0x0, a static gain y = D u); there is no state to transform.`);
  return { sys, A: fromRows(sys.A), B: fromRows(sys.B), C: fromRows(sys.C), D: fromRows(sys.D) };
}

/** 2-norm condition number σmax/σmin (Infinity when singular) */
function cond(M: Mat): number {
  const s = singularValues(M);
  const lo = s[s.length - 1];
  return lo > 0 ? s[0] / lo : Infinity;
}

/** columns c0.. c0+k−1 of M */
const cols = (M: Mat, c0: number, k: number): Mat => block(M, 0, c0, M.r, k);

/** [X, Y] side by side */
function hcat(...Ms: Mat[]): Mat {
  const r = Ms[0].r;
  const c = Ms.reduce((s, M) => s + M.c, 0);
  const out = zeros(r, c);
  let off = 0;
  for (const M of Ms) {
    for (let i = 0; i < r; i++) for (let j = 0; j < M.c; j++) out.d[i * c + off + j] = M.d[i * M.c + j];
    off += M.c;
  }
  return out;
}

/**
 * The orthogonal controllability staircase of (A, B) (linalg/staircase.ts): Zᵀ A Z = [Ac *; 0 Auc],
 * Zᵀ B = [Bc; 0]. A and B are divided by powers of 2 first (exact; the staircase's sums of
 * squares underflow near 1e-160), a given tol with A.
 */
function orthStaircase(A: Mat, B: Mat, tol?: number): { Z: Mat; nc: number; blocks: number[] } {
  const ka = pow2Exponent(A),
    kb = pow2Exponent(B);
  const st = controllabilityStaircase(ka ? scalePow2(A, -ka) : A, kb ? scalePow2(B, -kb) : B, tol === undefined ? undefined : tol * 2 ** -ka);
  return { Z: st.Z, nc: st.nc, blocks: st.blocks };
}

/** the decision of the balanced staircase (the one analyse and minreal use), when it differs */
function balancedNote(A: Mat, B: Mat, nc: number, what: 'controllable' | 'observable'): string | undefined {
  const other = balancedStaircase(A, B).nc;
  if (other === nc) return undefined;
  return `With the states balanced (as analyse and minreal decide), ${other} states are ${what}, not ${nc}: the model's states have very different scales, and a decision in its own coordinates (as MATLAB's ${what === 'controllable' ? 'ctrbf' : 'obsvf'}) depends on them.`;
}

function readTol(args: Record<string, any>, toolName: string): number | undefined {
  if (args.tol === undefined || args.tol === null) return undefined;
  if (typeof args.tol !== 'number' || !(args.tol > 0) || !Number.isFinite(args.tol))
    throw new ControlError(`${toolName}: tol must be a positive number (the rank tolerance on A's scale), not ${args.tol}.`);
  return args.tol;
}

// ------------------------------------------------------------------ ctrbf / obsvf

export interface StaircaseResult {
  Abar: Matrix;
  Bbar: Matrix;
  Cbar: Matrix;
  T: Matrix;
  k: number[];
  /** controllable states (ctrbf) or observable states (obsvf): sum(k) */
  nc?: number;
  no?: number;
  /** the modes of the part split off: uncontrollable (ctrbf) or unobservable (obsvf) */
  uncontrollable?: Complex[];
  unobservable?: Complex[];
  note?: string;
}

/** MATLAB's ctrbf: Abar = T A Tᵀ = [Auc 0; A21 Ac], Bbar = [0; Bc], Cbar = C Tᵀ */
export function ctrbfForm(A: Mat, B: Mat, C: Mat, tol?: number): { Abar: Mat; Bbar: Mat; Cbar: Mat; T: Mat; k: number[]; nc: number } {
  const n = A.r;
  const { Z, nc, blocks } = orthStaircase(A, B, tol);
  // T = J Zᵀ: row i of T is column n−1−i of Z
  const T = zeros(n, n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) T.d[i * n + j] = Z.d[j * n + (n - 1 - i)];
  const Abar = mulNT(mul(T, A), T);
  const Bbar = mul(T, B);
  const Cbar = mulNT(C, T);
  const nu = n - nc;
  // the staircase's zeros, exact (the verifier recomputes T A Tᵀ and T B from T and checks them)
  for (let i = 0; i < nu; i++) {
    for (let j = nu; j < n; j++) Abar.d[i * n + j] = 0;
    for (let j = 0; j < B.c; j++) Bbar.d[i * B.c + j] = 0;
  }
  const k = [...blocks, ...new Array(n - blocks.length).fill(0)];
  return { Abar, Bbar, Cbar, T, k, nc };
}

export function runCtrbf(args: Record<string, any>): StaircaseResult {
  const { A, B, C } = readStates(args, 'ctrbf');
  const tol = readTol(args, 'ctrbf');
  const r = ctrbfForm(A, B, C, tol);
  const nu = A.r - r.nc;
  const note = tol === undefined ? balancedNote(A, B, r.nc, 'controllable') : undefined;
  return {
    Abar: toRows(r.Abar),
    Bbar: toRows(r.Bbar),
    Cbar: toRows(r.Cbar),
    T: toRows(r.T),
    k: r.k,
    nc: r.nc,
    uncontrollable: eigs(block(r.Abar, 0, 0, nu, nu)),
    ...(note ? { note } : {}),
  };
}

/** MATLAB's obsvf, the dual: ctrbf of (Aᵀ, Cᵀ, Bᵀ), transposed back: Abar = [Ano A12; 0 Ao], Cbar = [0 Co] */
export function runObsvf(args: Record<string, any>): StaircaseResult {
  const { A, B, C } = readStates(args, 'obsvf');
  const tol = readTol(args, 'obsvf');
  const r = ctrbfForm(transpose(A), transpose(C), transpose(B), tol);
  const no = r.nc;
  const nu = A.r - no;
  const Abar = transpose(r.Abar);
  const note = tol === undefined ? balancedNote(transpose(A), transpose(C), no, 'observable') : undefined;
  return {
    Abar: toRows(Abar),
    Bbar: toRows(transpose(r.Cbar)),
    Cbar: toRows(transpose(r.Bbar)),
    T: toRows(r.T),
    k: r.k,
    no,
    unobservable: eigs(block(Abar, 0, 0, nu, nu)),
    ...(note ? { note } : {}),
  };
}

// ------------------------------------------------------------------ Kalman decomposition

export type PartName = 'co' | 'cō' | 'c̄o' | 'c̄ō';

export interface KalmanPart {
  part: PartName;
  /** what the part is, in words */
  label: string;
  /** states of the part */
  n: number;
  /** its rows/columns in A: first (0-based) */
  first: number;
  eigenvalues: Complex[];
}

export interface KalmanResult {
  A: Matrix;
  B: Matrix;
  C: Matrix;
  D: Matrix;
  T: Matrix;
  /** the four parts in the order of the states: cō, co, c̄ō, c̄o */
  parts: KalmanPart[];
  /** the controllable-observable part: a minimal realisation */
  minimal: { A: Matrix; B: Matrix; C: Matrix; D: Matrix };
  /** states: controllable, observable, minimal */
  nc: number;
  no: number;
  nmin: number;
}

const LABELS: Record<PartName, string> = {
  co: 'controllable and observable',
  cō: 'controllable, unobservable',
  c̄o: 'uncontrollable, observable',
  c̄ō: 'uncontrollable and unobservable',
};

/**
 * Kalman's decomposition by an orthogonal T whose rows, in order, span Wc ∩ Wō, complete it to
 * Wc, then to Wc + Wō, then to ℝⁿ (each subspace invariant under A): three staircases.
 */
export function kalmanDecomposition(A: Mat, B: Mat, C: Mat, D: Mat) {
  const n = A.r,
    m = B.c,
    p = C.r;
  // 1. Wc: the first nc columns of Z1
  const st1 = orthStaircase(A, B);
  const nc = st1.nc;
  const Z1c = cols(st1.Z, 0, nc),
    Z1u = cols(st1.Z, nc, n - nc);
  // 2. within Wc, the unobservable part of (Ac, Cc) by the dual staircase: Y = [Yo, Yō]
  const Ac = mulTN(Z1c, mul(A, Z1c));
  const Cc = mul(C, Z1c);
  let nco = 0;
  let Yo = zeros(nc, 0),
    Yuo = zeros(nc, 0);
  if (nc) {
    const st2 = orthStaircase(transpose(Ac), transpose(Cc));
    nco = st2.nc;
    Yo = cols(st2.Z, 0, nco);
    Yuo = cols(st2.Z, nco, nc - nco);
  }
  // 3. Wō of the whole model by the dual staircase of (Aᵀ, Cᵀ)
  const st3 = orthStaircase(transpose(A), transpose(C));
  const no = st3.nc;
  const nuo = n - no;
  const ncuo = nc - nco;
  const nucuo = nuo - ncuo;
  const nuco = n - nc - nucuo;
  if (nucuo < 0 || nuco < 0)
    throw new ControlError(
      `kalman_decomp: the rank decisions disagree (${nc} controllable states of which ${nco} observable, but ${no} observable states in all): the model is too close to a change of controllability or observability to split reliably; scale it or remove near-cancelling modes first.`,
      'numerical',
    );
  // 4. (Wc + Wō) ⊖ Wc: the part of Wō orthogonal to Wc, in the coordinates of Z1u
  let U = eye(n - nc);
  if (nucuo > 0) {
    const P = mulTN(Z1u, cols(st3.Z, no, nuo)); // (n − nc) x nuo
    const f = svd(P);
    const U1 = cols(f.U, 0, nucuo);
    U = qrp(U1).Q; // first nucuo columns span U1, the rest its complement
  }
  const Tt = hcat(mul(Z1c, Yuo), mul(Z1c, Yo), mul(Z1u, cols(U, 0, nucuo)), mul(Z1u, cols(U, nucuo, nuco)));
  const T = transpose(Tt);
  const At = mul(T, mul(A, Tt));
  const Bt = mul(T, B);
  const Ct = mul(C, Tt);
  const sizes = [ncuo, nco, nucuo, nuco];
  const first = [0, ncuo, nc, nc + nucuo];
  // the structural zeros, exact (the verifier recomputes them from T)
  for (let bi = 1; bi < 4; bi++) for (let i = first[bi]; i < first[bi] + sizes[bi]; i++) for (let j = 0; j < first[bi]; j++) At.d[i * n + j] = 0;
  for (let i = nc; i < n; i++) for (let j = 0; j < m; j++) Bt.d[i * m + j] = 0;
  for (let i = 0; i < p; i++) for (let j = 0; j < ncuo; j++) Ct.d[i * n + j] = 0;
  const names: PartName[] = ['cō', 'co', 'c̄ō', 'c̄o'];
  const parts: KalmanPart[] = names.map((part, i) => ({
    part,
    label: LABELS[part],
    n: sizes[i],
    first: first[i],
    eigenvalues: eigs(block(At, first[i], first[i], sizes[i], sizes[i])),
  }));
  const minimal = { A: block(At, ncuo, ncuo, nco, nco), B: block(Bt, ncuo, 0, nco, m), C: block(Ct, 0, ncuo, p, nco), D };
  return { A: At, B: Bt, C: Ct, T, parts, minimal, nc, no, nmin: nco };
}

const rowsOrEmpty = (M: Mat): Matrix => (M.r ? toRows(M) : []);
/** C of a part with no states: p rows of nothing */
const cRows = (M: Mat): Matrix => (M.c ? toRows(M) : Array.from({ length: M.r }, () => []));

export function runKalman(args: Record<string, any>): KalmanResult {
  const { A, B, C, D } = readStates(args, 'kalman_decomp');
  const k = kalmanDecomposition(A, B, C, D);
  const byOrder = ['co', 'cō', 'c̄o', 'c̄ō'];
  return {
    A: toRows(k.A),
    B: toRows(k.B),
    C: toRows(k.C),
    D: toRows(D),
    T: toRows(k.T),
    parts: k.parts.slice().sort((a, b) => byOrder.indexOf(a.part) - byOrder.indexOf(b.part)),
    minimal: { A: rowsOrEmpty(k.minimal.A), B: rowsOrEmpty(k.minimal.B), C: cRows(k.minimal.C), D: toRows(D) },
    nc: k.nc,
    no: k.no,
    nmin: k.nmin,
  };
}

// ------------------------------------------------------------------ canon

export type CanonForm = 'modal' | 'companion' | 'reachable' | 'observable';
export const CANON_FORMS: CanonForm[] = ['modal', 'companion', 'reachable', 'observable'];

export interface CanonResult {
  form: CanonForm;
  A: Matrix;
  B: Matrix;
  C: Matrix;
  D: Matrix;
  /** z = T x */
  T: Matrix;
  /** 2-norm condition number of T */
  cond: number;
  /** modal: the eigenvalue of each block in order (a pair once, ω > 0); companion forms: the characteristic polynomial */
  eigenvalues?: Complex[];
  charpoly?: number[];
  /** from a transfer function: the realisation it was transformed from (tf2ss) */
  realisedFrom?: string;
  note?: string;
}

/** MATLAB canon's default bound on the condition number of the modal transformation */
export const DEFAULT_CONDT = 1e8;
/** a transformation less well conditioned than this is refused (ss2ss, the companion forms) */
export const COND_LIMIT = 1e12;

function modalForm(A: Mat, B: Mat, C: Mat, condt: number): { A: Mat; B: Mat; C: Mat; T: Mat; cond: number; eigenvalues: Complex[] } {
  const n = A.r;
  const md = realModalForm(A);
  // blocks sorted by |λ|, then Re λ, then Im λ (MATLAB's order may differ; the blocks do not)
  const order = md.start.map((_, i) => i);
  const key = (i: number): [number, number] => {
    const s = md.start[i];
    return [md.L.d[s * n + s], md.size[i] === 2 ? md.L.d[s * n + s + 1] : 0];
  };
  order.sort((a, b) => {
    const [ra, ia] = key(a),
      [rb, ib] = key(b);
    return Math.hypot(ra, ia) - Math.hypot(rb, ib) || ra - rb || ia - ib;
  });
  const perm: number[] = [];
  for (const i of order) for (let k = 0; k < md.size[i]; k++) perm.push(md.start[i] + k);
  const V = zeros(n, n),
    L = zeros(n, n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) V.d[i * n + j] = md.V.d[i * n + perm[j]];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) L.d[i * n + j] = md.L.d[perm[i] * n + perm[j]];
  const c = cond(V);
  if (!(c <= condt)) {
    const ev = eigs(A);
    throw new ControlError(
      `canon: A has no well-conditioned modal form: the eigenvector matrix has condition number ${c === Infinity ? 'Infinity (singular)' : fmt(c, 3)}, above condt = ${fmt(condt, 3)} (MATLAB's default bound 1e8). ` +
        `A is defective or nearly so (repeated or clustered eigenvalues: ${ev.map((z) => fmtComplex(z, 4)).join(', ')}): a Jordan block has no diagonal form. ` +
        'MATLAB groups such a cluster into one larger block; here, raise condt to accept the ill-conditioned transformation, or use the real Schur form.',
      'numerical',
    );
  }
  const f = luFactor(V);
  const T = luSolve(f, eye(n));
  const eigenvalues: Complex[] = order.map((i) => cplx(...key(i)));
  return { A: L, B: mul(T, B), C: mul(C, V), T, cond: c, eigenvalues };
}

/** companion-type forms from the characteristic polynomial a = [1, a1, ..., an] */
function companionForm(
  form: 'companion' | 'reachable' | 'observable',
  A: Mat,
  B: Mat,
  C: Mat,
): { A: Mat; B: Mat; C: Mat; T: Mat; cond: number; charpoly: number[] } {
  const n = A.r,
    m = B.c,
    p = C.r;
  const a = charpoly(A);
  const An = zeros(n, n);
  if (form === 'companion') {
    // MATLAB: ones on the subdiagonal, −a in the last column (−an first)
    for (let i = 1; i < n; i++) An.d[i * n + i - 1] = 1;
    for (let i = 0; i < n; i++) An.d[i * n + n - 1] = -a[n - i];
  } else if (form === 'reachable') {
    for (let j = 0; j < n; j++) An.d[j] = -a[j + 1];
    for (let i = 1; i < n; i++) An.d[i * n + i - 1] = 1;
  } else {
    for (let i = 0; i < n; i++) An.d[i * n] = -a[i + 1];
    for (let i = 0; i + 1 < n; i++) An.d[i * n + i + 1] = 1;
  }
  const refuse = (what: string, c: number) =>
    new ControlError(
      `canon (${form}): ${what} has condition number ${c === Infinity ? 'Infinity (singular)' : fmt(c, 3)}, beyond ${fmt(COND_LIMIT, 3)}: ` +
        `${form === 'observable' ? 'the model is not observable from its output' : `the model is not controllable from ${form === 'companion' ? 'its first input' : 'its input'}`}, or too nearly so for a companion form in double precision ` +
        '(such forms are notoriously ill-conditioned: the condition grows like ‖A‖ⁿ). The modal form is the well-conditioned alternative.',
      'numerical',
    );
  if (form === 'companion' || form === 'reachable') {
    if (form === 'reachable' && m !== 1)
      throw new ControlError(
        `canon (reachable): python-control's reachable form needs one input; this model has ${m}. MATLAB's 'companion' form uses the first input.`,
      );
    const b1 = cols(B, 0, 1);
    const W = ctrbMat(A, b1);
    const c = cond(W);
    if (!(c <= COND_LIMIT)) throw refuse('the controllability matrix of (A, b1)', c);
    if (form === 'companion') {
      // T = W⁻¹: A_c = W⁻¹ A W, B_c = W⁻¹ B (first column e1), C_c = C W
      const f = luFactor(W);
      const T = luSolve(f, eye(n));
      const Bn = mul(T, B);
      for (let i = 0; i < n; i++) Bn.d[i * m] = i === 0 ? 1 : 0;
      return { A: An, B: Bn, C: mul(C, W), T, cond: c, charpoly: a };
    }
    // python-control: Tzx = Wrz Wrx⁻¹, C_z = C Tzx⁻¹ = C Wrx Wrz⁻¹, B_z = e1
    const e1 = zeros(n, 1);
    e1.d[0] = 1;
    const Wz = ctrbMat(An, e1);
    const T = luSolveRight(luFactor(W), Wz); // Wz W⁻¹
    const Cn = luSolveRight(luFactor(Wz), mul(C, W)); // C W Wz⁻¹
    return { A: An, B: e1, C: Cn, T, cond: cond(T), charpoly: a };
  }
  if (p !== 1) throw new ControlError(`canon (observable): python-control's observable form needs one output; this model has ${p}.`);
  const Wx = obsvMat(A, C);
  const c = cond(Wx);
  if (!(c <= COND_LIMIT)) throw refuse('the observability matrix of (A, C)', c);
  const e1 = zeros(1, n);
  e1.d[0] = 1;
  const Wz = obsvMat(An, e1);
  const T = luSolve(luFactor(Wz), Wx); // Wz⁻¹ Wx
  return { A: An, B: mul(T, B), C: e1, T, cond: cond(T), charpoly: a };
}

export function runCanon(args: Record<string, any>): CanonResult {
  const form = (args.form ?? 'modal') as CanonForm;
  if (!CANON_FORMS.includes(form)) throw new ControlError(`canon: form must be one of ${CANON_FORMS.join(', ')}, not '${String(args.form)}'.`);
  let condt = DEFAULT_CONDT;
  if (args.condt !== undefined && args.condt !== null) {
    if (form !== 'modal') throw new ControlError(`canon: condt bounds the modal transformation only; the ${form} form does not take it.`);
    if (typeof args.condt !== 'number' || !(args.condt >= 1))
      throw new ControlError(`canon: condt must be a number >= 1 (MATLAB's default 1e8), not ${args.condt}.`);
    condt = args.condt;
  }
  const { tf, ss } = readTfOrSs(args, 'canon');
  let realisedFrom: string | undefined;
  let sys: SS;
  if (tf) {
    const r = tf2ss(tf.num, tf.den);
    sys = { A: r.A, B: r.B, C: r.C, D: r.D, n: r.A.length, m: 1, p: 1, Ts: tf.Ts };
    realisedFrom = 'the transfer function was realised first (tf2ss, controllable canonical form, as SciPy), then transformed';
  } else sys = ss!;
  if (sys.n === 0) throw new ControlError('canon: the model has no states (a static gain y = D u); there is no state to transform.');
  const A = fromRows(sys.A),
    B = fromRows(sys.B),
    C = fromRows(sys.C);
  const r = form === 'modal' ? modalForm(A, B, C, condt) : companionForm(form, A, B, C);
  const notes: string[] = [];
  if (form !== 'modal' && r.cond > 1e8)
    notes.push(`T has condition number ${fmt(r.cond, 3)}: about ${Math.round(Math.log10(r.cond))} of the 16 digits may be lost in the transformed matrices.`);
  return {
    form,
    A: toRows(r.A),
    B: toRows(r.B),
    C: toRows(r.C),
    D: sys.D,
    T: toRows(r.T),
    cond: r.cond,
    ...('eigenvalues' in r ? { eigenvalues: r.eigenvalues } : { charpoly: r.charpoly }),
    ...(realisedFrom ? { realisedFrom } : {}),
    ...(notes.length ? { note: notes.join(' ') } : {}),
  };
}

// ------------------------------------------------------------------ ss2ss

export interface Ss2ssResult {
  A: Matrix;
  B: Matrix;
  C: Matrix;
  D: Matrix;
  cond: number;
  note?: string;
}

export function runSs2ss(args: Record<string, any>): Ss2ssResult {
  const { sys, A, B, C } = readStates(args, 'ss2ss');
  if (args.T === undefined || args.T === null) throw new ControlError('ss2ss needs T: the n x n transformation of the states, z = T x.');
  const Tr = checkMatrix(args.T, 'T');
  const nT = checkSquare(Tr, 'T');
  if (nT !== sys.n) throw new ControlError(`T is ${fmtSize(Tr)} but A is ${sys.n}x${sys.n}; T must be ${sys.n}x${sys.n} (z = T x, one row per new state).`);
  const T = fromRows(Tr);
  const c = cond(T);
  if (!(c <= COND_LIMIT))
    throw new ControlError(
      `ss2ss: T is ${c === Infinity ? 'singular' : `too badly conditioned (condition number ${fmt(c, 3)}, beyond ${fmt(COND_LIMIT, 3)})`}: z = T x must be invertible, and with this T the transformed model would keep about ${c === Infinity ? 'no' : Math.max(0, Math.round(16 - Math.log10(c)))} correct digits.`,
      'infeasible',
    );
  const f = luFactor(T);
  // A' = T A T⁻¹ (by a right solve), B' = T B, C' = C T⁻¹
  const An = luSolveRight(f, mul(T, A));
  const Cn = luSolveRight(f, C);
  const note = c > 1e8 ? `T has condition number ${fmt(c, 3)}: about ${Math.round(Math.log10(c))} of the 16 digits may be lost.` : undefined;
  return { A: toRows(An), B: toRows(mul(T, B)), C: toRows(Cn), D: sys.D, cond: c, ...(note ? { note } : {}) };
}

// ------------------------------------------------------------------ tzero

export interface TzeroResult {
  /** invariant zeros (MATLAB tzero) */
  zeros: Complex[];
  /** invariant zeros of the minimal (controllable and observable) part */
  transmission: Complex[];
  /** uncontrollable modes: [A − sI, B] loses rank */
  input_decoupling: Complex[];
  /** unobservable modes: [A − sI; C] loses rank */
  output_decoupling: Complex[];
  /** both */
  input_output_decoupling: Complex[];
  /** transmission + input- and output-decoupling zeros, a mode decoupled at both ends once */
  system_zeros: Complex[];
  /** rank of P(s) for almost every s */
  normal_rank: number;
  /** the poles, for the pole-zero map */
  poles: Complex[];
}

/** rank of the Rosenbrock matrix at a real s (SVD, tolerance max(size)·ε·‖P‖) */
function rosenbrockRank(A: Mat, B: Mat, C: Mat, D: Mat, s: number): number {
  const n = A.r,
    m = B.c,
    p = C.r;
  const P = zeros(n + p, n + m);
  const w = n + m;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) P.d[i * w + j] = A.d[i * n + j] - (i === j ? s : 0);
    for (let j = 0; j < m; j++) P.d[i * w + n + j] = B.d[i * m + j];
  }
  for (let i = 0; i < p; i++) {
    for (let j = 0; j < n; j++) P.d[(n + i) * w + j] = C.d[i * n + j];
    for (let j = 0; j < m; j++) P.d[(n + i) * w + n + j] = D.d[i * m + j];
  }
  const sv = singularValues(P);
  const tol = Math.max(n + p, n + m) * EPS * (sv[0] ?? 0);
  return Array.from(sv).filter((x) => x > tol).length;
}

export function runTzero(args: Record<string, any>): TzeroResult {
  // a static gain (no states): P(s) = D is constant, so it has no zeros of any kind; its normal rank is rank D
  const gain = readSS(args, 'tzero');
  if (gain.n === 0) {
    const s = singularValues(fromRows(gain.D));
    const normal_rank = s.filter((x) => x > Math.max(gain.p, gain.m) * 2.220446049250313e-16 * (s[0] ?? 0)).length;
    return { zeros: [], transmission: [], input_decoupling: [], output_decoupling: [], input_output_decoupling: [], system_zeros: [], normal_rank, poles: [] };
  }
  const { sys, A, B, C, D } = readStates(args, 'tzero');
  // the zeros are the roots of det P(s) and the ranks of P(s) at them: with entries of 1e200 those
  // products overflow (the verifier's determinant check came out NaN), as for the other tools that
  // form products of the model's entries: refused with the way out (rescale the units)
  scaleGuard(sys, 'tzero');
  const k = kalmanDecomposition(A, B, C, D);
  const part = (name: PartName) => k.parts.find((x) => x.part === name)!.eigenvalues;
  const zerosAll = sortComplex(invariantZeros(sys.A, sys.B, sys.C, sys.D).map(([r, i]) => cplx(r, i)));
  const mn = k.minimal;
  const transmission = sortComplex(
    invariantZeros(mn.A.r ? toRows(mn.A) : [], mn.A.r ? toRows(mn.B) : [], mn.A.r ? toRows(mn.C) : Array.from({ length: C.r }, () => []), sys.D).map(([r, i]) =>
      cplx(r, i),
    ),
  );
  // normal rank: the rank at two points away from the spectrum's scale (a zero at both is not generic)
  // at the model's own scale: a model with entries of 1e-8 evaluated near s = 1 has A − sI swamping B and C
  const scale = normF(A) > 0 ? normF(A) : 1;
  const normal_rank = Math.max(rosenbrockRank(A, B, C, D, 0.7390851332 * scale), rosenbrockRank(A, B, C, D, -1.3247179572 * scale));
  const uo = part('c̄ō');
  return {
    zeros: zerosAll,
    transmission,
    input_decoupling: sortComplex([...part('c̄o'), ...uo]),
    output_decoupling: sortComplex([...part('cō'), ...uo]),
    input_output_decoupling: uo,
    system_zeros: sortComplex([...transmission, ...part('cō'), ...part('c̄o'), ...uo]),
    normal_rank,
    poles: eigs(A),
  };
}

// ------------------------------------------------------------------ rendering

const list = (zs: Complex[], o: RenderOptions) => (zs.length ? zs.map((z) => fmtComplex(z, o.digits)).join(', ') : 'none');

function renderStaircase(kind: 'ctrbf' | 'obsvf', r: StaircaseResult, o: RenderOptions): string {
  const n = r.T.length;
  const c = kind === 'ctrbf';
  const kept = (c ? r.nc : r.no)!;
  const modes = (c ? r.uncontrollable : r.unobservable)!;
  const head = c
    ? `**Controllability staircase form** (MATLAB ctrbf's convention, the uncontrollable part first): Abar = T·A·Tᵀ = [Auc 0; A21 Ac], Bbar = T·B = [0; Bc], Cbar = C·Tᵀ, T orthogonal. ${kept} of ${n} states are controllable.`
    : `**Observability staircase form** (MATLAB obsvf's convention, the unobservable part first): Abar = T·A·Tᵀ = [Ano A12; 0 Ao], Bbar = T·B, Cbar = C·Tᵀ = [0 Co], T orthogonal. ${kept} of ${n} states are observable.`;
  return [
    head,
    factsTable([
      [c ? 'controllable states' : 'observable states', `${kept} of ${n}`],
      ['k (staircase block sizes, as MATLAB)', `[${r.k.join(' ')}]`],
      [c ? 'uncontrollable modes (eigenvalues of Auc)' : 'unobservable modes (eigenvalues of Ano)', list(modes, o)],
    ]),
    matrixBlock('Abar', r.Abar, o),
    matrixBlock('Bbar', r.Bbar, o),
    matrixBlock('Cbar', r.Cbar, o),
    matrixBlock('T', r.T, o),
    'Each state of the form is determined up to its sign: MATLAB may show a row of T, with the matching rows and columns of Abar, Bbar and Cbar, negated.',
    ...(r.note ? [r.note] : []),
  ].join('\n\n');
}

function renderKalman(r: KalmanResult, o: RenderOptions): string {
  const n = r.T.length;
  const rows = r.parts.map((p) => `| ${p.part} | ${p.label} | ${p.n} | ${list(p.eigenvalues, o)} |`);
  const order = ['cō', 'co', 'c̄ō', 'c̄o'].map((name) => r.parts.find((p) => p.part === name)!);
  const layout = order
    .filter((p) => p.n)
    .map((p) => `${p.part} ${p.first + 1}–${p.first + p.n}`)
    .join(', ');
  return [
    `**Kalman decomposition** of the ${n}-state model: ${r.nc} controllable, ${r.no} observable, ${r.nmin} both (the minimal part, which alone carries the transfer function).`,
    ['| part | states that are | n | eigenvalues |', '|---|---|---:|---|', ...rows].join('\n'),
    `New states z = T x with T orthogonal, in the order cō, co, c̄ō, c̄o (${layout || 'none'}): A = T·A·Tᵀ is block upper triangular, B is zero on the uncontrollable parts and C on cō. ` +
      '(With an orthogonal T, C need not vanish on c̄ō as in the textbook form; the eigenvalues of each block are those of its part either way.)',
    matrixBlock('A', r.A, o),
    matrixBlock('B', r.B, o),
    matrixBlock('C', r.C, o),
    matrixBlock('T', r.T, o),
  ].join('\n\n');
}

const FORM_TEXT: Record<CanonForm, string> = {
  modal:
    "**Modal form** (MATLAB canon(sys,'modal')): each real eigenvalue on the diagonal, each complex pair σ ± jω as the block [σ ω; −ω σ], z = T x with T = V⁻¹ (V the real eigenvector basis). Blocks ordered by |λ|; MATLAB may order them differently, and B, C depend on the eigenvectors' scaling (unit columns here).",
  companion:
    "**Companion form** (MATLAB canon(sys,'companion')): the characteristic polynomial's coefficients, negated, in the last column of A, ones below the diagonal, B's first column e1; z = T x with T = ctrb(A, b1)⁻¹.",
  reachable:
    "**Reachable canonical form** (python-control canonical_form(sys, 'reachable')): the negated coefficients of the characteristic polynomial in the first row of A, ones below the diagonal, B = e1; T = Wz·Wx⁻¹ from the two controllability matrices.",
  observable:
    "**Observable canonical form** (python-control canonical_form(sys, 'observable')): the negated coefficients in the first column of A, ones above the diagonal, C = e1ᵀ; T = Wz⁻¹·Wx from the two observability matrices.",
};

function renderCanon(r: CanonResult, o: RenderOptions): string {
  const facts: [string, string][] = [['cond(T)', fmt(r.cond, o.digits)]];
  if (r.eigenvalues) facts.push(['eigenvalues, block by block', list(r.eigenvalues, o)]);
  if (r.charpoly) facts.push(['characteristic polynomial', `[${r.charpoly.map((v) => fmt(v, o.digits)).join(', ')}]`]);
  return [
    FORM_TEXT[r.form],
    ...(r.realisedFrom ? [`(${r.realisedFrom}.)`] : []),
    factsTable(facts),
    matrixBlock('A', r.A, o),
    matrixBlock('B', r.B, o),
    matrixBlock('C', r.C, o),
    matrixBlock('D', r.D, o),
    matrixBlock('T', r.T, o),
    ...(r.note ? [r.note] : []),
  ].join('\n\n');
}

function renderSs2ss(r: Ss2ssResult, o: RenderOptions): string {
  return [
    `**Similarity transformation** z = T x (MATLAB ss2ss, python-control similarity_transform): A' = T·A·T⁻¹, B' = T·B, C' = C·T⁻¹, D' = D. The transfer function and the eigenvalues are unchanged. cond(T) = ${fmt(r.cond, o.digits)}.`,
    matrixBlock("A'", r.A, o),
    matrixBlock("B'", r.B, o),
    matrixBlock("C'", r.C, o),
    matrixBlock("D'", r.D, o),
    ...(r.note ? [r.note] : []),
  ].join('\n\n');
}

function renderTzero(r: TzeroResult, o: RenderOptions): string {
  const rows: [string, string][] = [
    ['invariant zeros (MATLAB tzero)', list(r.zeros, o)],
    ['transmission zeros (of the minimal part)', list(r.transmission, o)],
    ['input-decoupling zeros (uncontrollable modes)', list(r.input_decoupling, o)],
    ['output-decoupling zeros (unobservable modes)', list(r.output_decoupling, o)],
    ['input-output decoupling zeros (both)', list(r.input_output_decoupling, o)],
    ['system zeros (transmission + decoupling)', list(r.system_zeros, o)],
    ['normal rank of P(s)', String(r.normal_rank)],
  ];
  return [
    '**Zeros of the system matrix** P(s) = [A − sI, B; C, D] (Rosenbrock; MacFarlane and Karcanias 1976). The invariant zeros are where P(s) loses rank below its normal rank (MATLAB tzero, SLICOT AB08ND); the transmission zeros are those of the minimal (controllable and observable) part; the decoupling zeros are the modes the input cannot move or the output cannot see.',
    factsTable(rows),
    'For a square P(s) of full normal rank the invariant zeros are exactly the system zeros; a non-square system may have decoupling zeros that are not invariant zeros. python-control zeros(sys) gives the transmission zeros of its realisation, which are these invariant zeros.',
  ].join('\n\n');
}

// ------------------------------------------------------------------ code

function sysCode(code: Code, a: Record<string, any>): void {
  const M = code.lang === 'matlab';
  const Ts = typeof a.Ts === 'number' && a.Ts > 0 ? `, ${numberLiteral(a.Ts, code.lang)}` : '';
  if (Array.isArray(a.num)) {
    code.assign('num', `[${(a.num as number[]).map((v) => numberLiteral(v, code.lang)).join(M ? ' ' : ', ')}]`);
    code.assign('den', `[${(a.den as number[]).map((v) => numberLiteral(v, code.lang)).join(M ? ' ' : ', ')}]`);
    code.assign('sys', M ? `ss(tf(num, den${Ts}))   % MATLAB's own realisation; @control used tf2ss's` : `ct.tf2ss(num, den${Ts})`);
    return;
  }
  code.mat('A', a.A).mat('B', a.B).mat('C', a.C);
  if (Array.isArray(a.D) && a.D.length) code.mat('D', a.D);
  else code.assign('D', M ? 'zeros(size(C, 1), size(B, 2))' : 'np.zeros((C.shape[0], B.shape[1]))');
  code.assign('sys', `${M ? 'ss' : 'ct.ss'}(A, B, C, D${Ts})`);
}

const staircaseCode = (kind: 'ctrbf' | 'obsvf') => ({
  title: kind === 'ctrbf' ? 'controllability staircase form' : 'observability staircase form',
  gen(code: Code, a: Record<string, any>, r: StaircaseResult | undefined) {
    const M = code.lang === 'matlab';
    code.mat('A', a.A).mat('B', a.B).mat('C', a.C);
    const tol = typeof a.tol === 'number' ? `, ${numberLiteral(a.tol, code.lang)}` : '';
    if (M) code.line(`[Abar, Bbar, Cbar, T, k] = ${kind}(A, B, C${tol})   % a state may differ from ours by its sign`);
    else {
      code.comment(`python-control has no ${kind}: the rank of the ${kind === 'ctrbf' ? 'controllability' : 'observability'} matrix counts the states kept,`);
      code.comment("and @control's T (below) is checked to give the form");
      code.line(`rank = np.linalg.matrix_rank(${kind === 'ctrbf' ? 'ct.ctrb(A, B)' : 'ct.obsv(A, C)'})`);
      if (r) code.mat('T', r.T);
      code.line('Abar, Bbar, Cbar = T @ A @ T.T, T @ B, C @ T.T');
    }
    if (r) code.comment(verdictHolder).expect('k', r.k).expect('Abar', r.Abar).expect('Bbar', r.Bbar).expect('Cbar', r.Cbar);
  },
});

const kalmanCode = {
  title: 'Kalman decomposition',
  gen(code: Code, a: Record<string, any>, r: KalmanResult | undefined) {
    const M = code.lang === 'matlab';
    sysCode(code, a);
    if (M) {
      code.comment('MATLAB has no single function: ctrbf splits off the uncontrollable part, obsvf the unobservable part,');
      code.comment('and minreal keeps the controllable and observable part');
      code.line('[Ac, Bc, Cc, Tc, kc] = ctrbf(A, B, C);   % sum(kc) controllable states');
      code.line('[Ao, Bo, Co, To, ko] = obsvf(A, B, C);   % sum(ko) observable states');
      code.line('sysmin = minreal(sys);   % the co part: eig(sysmin.A)');
    } else {
      code.comment('python-control has no Kalman decomposition: minreal keeps the controllable and observable part');
      code.line('nc = np.linalg.matrix_rank(ct.ctrb(A, B))');
      code.line('no = np.linalg.matrix_rank(ct.obsv(A, C))');
      code.line('sysmin = ct.minreal(sys, verbose=False)   # the co part: np.linalg.eigvals(sysmin.A)');
    }
    if (r) {
      code.comment(verdictHolder);
      for (const p of r.parts) code.comment(`  ${p.part}: ${p.n} states, eigenvalues ${p.eigenvalues.map((z) => fmtComplex(z, 6)).join(', ') || 'none'}`);
    }
  },
};

const canonCode = {
  title: 'canonical form',
  gen(code: Code, a: Record<string, any>, r: CanonResult | undefined) {
    const M = code.lang === 'matlab';
    const form = (a.form ?? 'modal') as CanonForm;
    sysCode(code, a);
    if (M) {
      if (form === 'modal' || form === 'companion') {
        const condt = form === 'modal' && typeof a.condt === 'number' ? `, ${numberLiteral(a.condt, 'matlab')}` : '';
        code.line(
          `[csys, T] = canon(sys, '${form}'${condt});   % z = T*x${form === 'modal' ? '; block order and eigenvector scaling may differ from ours' : ''}`,
        );
      } else {
        code.comment(`MATLAB's canon has no '${form}' form (python-control's); its 'companion' form puts the coefficients in the last column`);
        code.line(`[csys, T] = canon(sys, 'companion');`);
      }
    } else if (form === 'companion') {
      code.comment("python-control has no MATLAB companion form; its 'reachable' form has the coefficients in the first row");
      code.line("csys, T = ct.canonical_form(sys, 'reachable')");
    } else code.line(`csys, T = ct.canonical_form(sys, '${form}')   # z = T @ x${form === 'modal' ? '; python-control orders the blocks by its bdschur' : ''}`);
    if (r) code.comment(verdictHolder).expect('A', r.A).expect('B', r.B).expect('C', r.C).expect('T', r.T);
  },
};

const ss2ssCode = {
  title: 'similarity transformation z = T x',
  gen(code: Code, a: Record<string, any>, r: Ss2ssResult | undefined) {
    sysCode(code, a);
    code.mat('T', a.T);
    if (code.lang === 'matlab') code.line('sysT = ss2ss(sys, T);   % A = T*A/T, B = T*B, C = C/T');
    else code.line('sysT = ct.similarity_transform(sys, T)   # A = T A T^-1, B = T B, C = C T^-1');
    if (r) code.comment(verdictHolder).expect('A', r.A).expect('B', r.B).expect('C', r.C);
  },
};

const tzeroCode = {
  title: 'invariant, transmission and decoupling zeros',
  gen(code: Code, a: Record<string, any>, r: TzeroResult | undefined) {
    const M = code.lang === 'matlab';
    sysCode(code, a);
    if (M) {
      code.line('z = tzero(sys)   % invariant zeros');
      code.line('zt = tzero(minreal(sys))   % transmission zeros (of the minimal part)');
      code.line('[Ac, Bc, Cc, Tc, kc] = ctrbf(A, B, C); nu = size(A, 1) - sum(kc);');
      code.line('idz = eig(Ac(1:nu, 1:nu))   % input-decoupling zeros (uncontrollable modes)');
      code.line('[Ao, Bo, Co, To, ko] = obsvf(A, B, C); nuo = size(A, 1) - sum(ko);');
      code.line('odz = eig(Ao(1:nuo, 1:nuo))   % output-decoupling zeros (unobservable modes)');
    } else {
      code.line('z = sys.zeros()   # python-control (slycot ab08nd when installed)');
      code.line('zt = ct.minreal(sys, verbose=False).zeros()   # transmission zeros');
    }
    if (r)
      code
        .comment(verdictHolder)
        .comment(`  zeros = ${list(r.zeros, { math: false })}`)
        .comment(`  transmission = ${list(r.transmission, { math: false })}`)
        .comment(`  input decoupling = ${list(r.input_decoupling, { math: false })}`)
        .comment(`  output decoupling = ${list(r.output_decoupling, { math: false })}`);
  },
};

// ------------------------------------------------------------------ the tools

const tolProp = { tol: { type: 'number', description: "rank tolerance on A's scale (default n²·ε·‖A‖F, SLICOT's; MATLAB's default is 10·n·‖A‖₁·ε)" } };
const needABC = ['A', 'B', 'C'];

export const tools = [
  tool({
    name: 'ctrbf',
    words: {
      // 'obsv A=… C=…' and 'ctrb? A=…' mean the rank tools: the names are one letter from those words
      name: 'call-only',
      calls: [{ names: ['ctrbf'], args: ['A', 'B', 'C', 'tol'] }],
      phrases: ['controllability staircase', 'controllability staircase form', 'controllable staircase form', 'staircase form'],
      example: '/ctrbf A=[1 1; 4 -2], B=[1 -1; 1 -1], C=[1 0; 0 1]',
    },
    title: 'Controllability staircase form',
    brief: 'Controllability staircase form (MATLAB ctrbf): uncontrollable part split off by an orthogonal T.',
    description:
      "Controllability staircase form of (A, B, C) with MATLAB ctrbf's convention: Abar = T A Tᵀ = [Auc 0; A21 Ac], Bbar = T B = [0; Bc], Cbar = C Tᵀ, T orthogonal, the uncontrollable part first. " +
      'Returns Abar, Bbar, Cbar, T, k (staircase block sizes padded with zeros to n, sum(k) = nc), nc (controllable states) and the uncontrollable modes. tol: rank tolerance.',
    parameters: { type: 'object', properties: { ...ssProps, ...tolProp }, required: needABC, additionalProperties: false },
    run: runCtrbf,
    intro:
      '**Controllability staircase.** An orthogonal change of state z = T x that separates the states the input can steer (Ac, Bc controllable) from those it cannot (Auc): the eigenvalues of Auc are the uncontrollable modes.',
    render: (_a, r, o) => renderStaircase('ctrbf', r, o),
    code: staircaseCode('ctrbf'),
    model: BY_LOOKUP,
    plots: { none: 'a change of coordinates; plot the model itself with a step or Bode request' },
  }),
  tool({
    name: 'obsvf',
    words: {
      // 'obsv A=… C=…' and 'ctrb? A=…' mean the rank tools: the names are one letter from those words
      name: 'call-only',
      calls: [{ names: ['obsvf'], args: ['A', 'B', 'C', 'tol'] }],
      phrases: ['observability staircase', 'observability staircase form', 'observable staircase form'],
      example: '/obsvf A=[1 1; 4 -2], B=[1; 1], C=[1 -1]',
    },
    title: 'Observability staircase form',
    brief: 'Observability staircase form (MATLAB obsvf): unobservable part split off by an orthogonal T.',
    description:
      "Observability staircase form of (A, B, C) with MATLAB obsvf's convention: Abar = T A Tᵀ = [Ano A12; 0 Ao], Bbar = T B, Cbar = C Tᵀ = [0 Co], T orthogonal, the unobservable part first. " +
      'Returns Abar, Bbar, Cbar, T, k (block sizes padded to n, sum(k) = no), no (observable states) and the unobservable modes. tol: rank tolerance.',
    parameters: { type: 'object', properties: { ...ssProps, ...tolProp }, required: needABC, additionalProperties: false },
    run: runObsvf,
    intro:
      '**Observability staircase.** An orthogonal change of state z = T x that separates the states the output sees (Ao, Co observable) from those it does not (Ano): the eigenvalues of Ano are the unobservable modes.',
    render: (_a, r, o) => renderStaircase('obsvf', r, o),
    code: staircaseCode('obsvf'),
    model: BY_LOOKUP,
    plots: { none: 'a change of coordinates; plot the model itself with a step or Bode request' },
  }),
  tool({
    name: 'kalman_decomp',
    words: {
      calls: [{ names: ['kalman_decomp', 'kalman_decomposition'], args: ['A', 'B', 'C', 'D'] }],
      phrases: [
        'kalman decomposition',
        'kalman canonical decomposition',
        'kalman canonical form',
        'kalman decomp',
        'controllable and observable subsystem',
        'controllable and observable parts',
      ],
      example: '/kalman_decomp A=[-1 0 0; 0 -2 0; 0 0 -3], B=[1; 1; 0], C=[1 0 1]',
    },
    title: 'Kalman decomposition',
    brief: 'Kalman decomposition: controllable/observable parts, their sizes and eigenvalues.',
    description:
      "Kalman's decomposition of (A, B, C, D) into the controllable-observable (co), controllable-unobservable (cō), uncontrollable-observable (c̄o) and uncontrollable-unobservable (c̄ō) parts, by an orthogonal z = T x (states ordered cō, co, c̄ō, c̄o; A block upper triangular). " +
      'Returns A, B, C, D, T, parts (each: part, n, first state, eigenvalues), minimal (the co part: a minimal realisation), nc, no, nmin.',
    parameters: { type: 'object', properties: { ...ssProps, ...tsProp }, required: needABC, additionalProperties: false },
    run: runKalman,
    intro:
      '**Kalman decomposition.** Every state space splits into four parts: controllable and observable (co, the only part the transfer function sees), controllable but unobservable (cō), uncontrollable but observable (c̄o), and neither (c̄ō).',
    render: (_a, r, o) => renderKalman(r, o),
    code: kalmanCode,
    model: BY_LOOKUP,
    plots: { none: 'a change of coordinates; the parts are listed with their eigenvalues' },
  }),
  tool({
    name: 'canon',
    words: {
      calls: [
        { names: ['canon', 'canonical_form'], args: ['sys', 'form', 'condt'] },
        { names: ['modal_form'], args: ['sys'], map: (a) => ({ ...a, form: 'modal' }) },
        { names: ['reachable_form'], args: ['sys'], map: (a) => ({ ...a, form: 'reachable' }) },
        { names: ['observable_form'], args: ['sys'], map: (a) => ({ ...a, form: 'observable' }) },
      ],
      phrases: [
        'modal form',
        'modal canonical form',
        'modal realization',
        'modal realisation',
        'companion form',
        'companion realization',
        'companion realisation',
        'observable canonical form',
        'reachable canonical form',
        'canonical realization',
        'canonical realisation',
      ],
      weak: ['canonical form'],
      example: '/canon A=[0 1 0; 0 0 1; -10 -8 -3], B=[0; 0; 1], C=[1 0 0], form=modal',
    },
    title: 'Canonical state-space form',
    brief: 'Canonical form: modal (MATLAB canon), companion (MATLAB), reachable/observable (python-control).',
    description:
      "Canonical realisation z = T x of (A, B, C, D) or num/den. form: 'modal' (default; MATLAB canon(sys,'modal'): real eigenvalues on the diagonal, complex pairs as [σ ω; −ω σ] blocks, T = V⁻¹; refused when cond(T) > condt, default 1e8 as MATLAB, e.g. a defective A), " +
      "'companion' (MATLAB: characteristic polynomial in the last column, T = ctrb(A, b1)⁻¹), 'reachable' / 'observable' (python-control canonical_form: coefficients in the first row, B = e1 / first column, C = e1ᵀ). Returns A, B, C, D, T, cond(T), and the eigenvalues or characteristic polynomial.",
    parameters: {
      type: 'object',
      properties: {
        ...ssProps,
        ...tfProps,
        ...tsProp,
        form: { type: 'string', enum: CANON_FORMS, description: "'modal' (default), 'companion' (MATLAB), 'reachable' or 'observable' (python-control)" },
        condt: { type: 'number', description: 'modal only: largest condition number of T accepted (default 1e8, MATLAB canon CONDT)' },
      },
      additionalProperties: false,
    },
    run: runCanon,
    intro: '**Canonical form.** A change of state z = T x that puts A in a standard shape; the transfer function and the eigenvalues stay the same.',
    render: (_a, r, o) => renderCanon(r, o),
    code: canonCode,
    model: BY_LOOKUP,
    plots: systemPlots('pzmap'),
  }),
  tool({
    name: 'ss2ss',
    words: {
      calls: [
        { names: ['ss2ss', 'similarity_transform'], args: ['sys', 'T'] },
        { names: ['ss2ss'], args: ['A', 'B', 'C', 'D', 'T'] },
      ],
      phrases: [
        'ss2ss',
        'similarity transform',
        'similarity transformation',
        'change of state coordinates',
        'change of state variables',
        'state transformation z = T x',
        'coordinate transformation',
        'state transformation',
        'change of coordinates',
        'change of basis',
        'new state z = T x',
        'new coordinates z = T x',
        'transformed system',
      ],
      example: '/ss2ss A=[0 1; -2 -3], B=[0; 1], C=[1 0], T=[1 1; 0 1]',
    },
    title: 'Similarity transformation',
    brief: 'State transformation z = T x: (T A T⁻¹, T B, C T⁻¹, D).',
    description:
      'Similarity transformation z = T x of (A, B, C, D) (MATLAB ss2ss, python-control similarity_transform): A = T A T⁻¹, B = T B, C = C T⁻¹, D unchanged. T (n x n) must be invertible; refused when singular or cond(T) > 1e12. Returns A, B, C, D and cond(T).',
    parameters: {
      type: 'object',
      properties: { ...ssProps, ...tsProp, T: matrix('transformation T (n x n), new state z = T x') },
      required: ['A', 'B', 'C', 'T'],
      additionalProperties: false,
    },
    run: runSs2ss,
    intro: null,
    render: (_a, r, o) => renderSs2ss(r, o),
    code: ss2ssCode,
    model: BY_LOOKUP,
    plots: { none: 'the same system in new coordinates; plot it with a step or Bode request' },
  }),
  tool({
    name: 'tzero',
    words: {
      calls: [
        { names: ['tzero'], args: ['sys'] },
        { names: ['tzero'], args: ['A', 'B', 'C', 'D'] },
      ],
      phrases: [
        'decoupling zeros',
        'decoupling zeros of',
        'input decoupling zeros of',
        'output decoupling zeros of',
        'input-decoupling zeros of',
        'output-decoupling zeros of',
        'system zeros of',
        'input decoupling zeros',
        'output decoupling zeros',
        'input-decoupling zeros',
        'output-decoupling zeros',
        'system zeros',
        'transmission and decoupling zeros',
        'invariant and transmission zeros',
        'tzero',
      ],
      // "the poles and the transmission zeros" is poles_zeros' (a stronger phrase there wins); alone, tzero's
      weak: ['transmission zeros', 'transmission zeros of', 'invariant zeros', 'invariant zeros of'],
      example: '/tzero A=[-1 0; 0 -2], B=[1; 0], C=[1 1], D=0',
    },
    title: 'Invariant, transmission and decoupling zeros',
    brief: 'Zeros of a MIMO state-space model: invariant (MATLAB tzero), transmission, decoupling.',
    description:
      'Zeros of the Rosenbrock system matrix P(s) = [A − sI, B; C, D] of a state-space model (MIMO): zeros = invariant zeros (MATLAB tzero, SLICOT AB08ND reduction), transmission (invariant zeros of the minimal part), input_decoupling (uncontrollable modes), output_decoupling (unobservable modes), ' +
      'input_output_decoupling (both), system_zeros (transmission + decoupling, Rosenbrock/MacFarlane-Karcanias), normal_rank of P(s), poles. Discrete (Ts > 0): zeros in z.',
    parameters: { type: 'object', properties: { ...ssProps, ...tsProp }, required: needABC, additionalProperties: false },
    run: runTzero,
    intro: null,
    render: (_a, r, o) => renderTzero(r, o),
    code: tzeroCode,
    model: { none: 'poles_zeros is offered for zeros; this fuller answer is reached by /tzero and tzero(sys) calls' },
    plots: systemPlots('pzmap'),
  }),
];
