/**
 * Controllability staircase form (as SLICOT AB01OD / MATLAB ctrbf): an orthogonal Z with
 *   Z' A Z = [Ac  *  ]    Z' B = [Bc]
 *            [0   Auc]           [0 ]
 * where (Ac, Bc) is controllable. The eigenvalues of Auc are the uncontrollable modes; they
 * are what the stabilisability test needs (a PBH test with computed eigenvalues of A would
 * depend on how accurately a defective or clustered eigenvalue is computed; the staircase
 * decides ranks of well-scaled blocks instead). Rank decisions by Householder QR with column
 * pivoting. Written by hand: no JS library offers it.
 */
import type { Complex } from '../types.js';
import { type Mat, block, clone, zeros, normF, EPS, reflectLeft, reflectRight, pow2Exponent, scalePow2, scalePow2InPlace, transpose } from './dense.js';
import { balance } from './balance.js';
import { eigvalsSorted } from './schur.js';

export interface Staircase {
  /** dimension of the controllable part */
  nc: number;
  /** Z' A Z */
  At: Mat;
  /** orthogonal transformation */
  Z: Mat;
  /**
   * sizes of the staircase blocks r1 >= r2 >= ... (their sum is nc; r1 = rank B): Z'AZ is
   * block upper Hessenberg on these blocks and Z'B is zero below row r1
   */
  blocks: number[];
}

export function controllabilityStaircase(A: Mat, B: Mat, tol?: number): Staircase {
  const { nc, At, Z, blocks } = staircase(A, B, tol, true);
  return { nc, At, Z: Z!, blocks };
}

/** one Householder reflector I - tau v v' acting on rows/columns p0.. (v[0] = 1 at p0) */
interface Reflector {
  p0: number;
  tau: number;
  v: Float64Array;
}

/**
 * The same staircase with Z kept as its Householder reflectors instead of an accumulated
 * n x n matrix (which is a third of the work): for callers that need Z only times a few
 * columns, as pole placement does (Z'B and K = K~ Z').
 */
export interface StaircaseFactored {
  nc: number;
  At: Mat;
  blocks: number[];
  /** Z M */
  mulZ(M: Mat): Mat;
  /** Z' M */
  mulZt(M: Mat): Mat;
}

export function controllabilityStaircaseFactored(A: Mat, B: Mat, tol?: number): StaircaseFactored {
  const { nc, At, blocks, refl } = staircase(A, B, tol, false);
  const apply = (M: Mat, order: Reflector[]): Mat => {
    const X = clone(M);
    const c = X.c,
      x = X.d;
    const s = new Float64Array(c);
    for (const { p0, tau, v } of order) {
      s.fill(0);
      for (let i = p0; i < X.r; i++) {
        const vi = v[i - p0],
          o = i * c;
        for (let j = 0; j < c; j++) s[j] += vi * x[o + j];
      }
      for (let i = p0; i < X.r; i++) {
        const vi = tau * v[i - p0],
          o = i * c;
        for (let j = 0; j < c; j++) x[o + j] -= s[j] * vi;
      }
    }
    return X;
  };
  // Z = H1 H2 ... Hk (each H symmetric): Z M applies Hk first, Z' M applies H1 first
  return { nc, At, blocks, mulZ: (M) => apply(M, refl.slice().reverse()), mulZt: (M) => apply(M, refl) };
}

function staircase(A: Mat, B: Mat, tol: number | undefined, accumulate: boolean): { nc: number; At: Mat; Z?: Mat; blocks: number[]; refl: Reflector[] } {
  const n = A.r,
    m = B.c;
  const w = m + n;
  // augmented [B, A]: left transformations act on all columns, right ones on the A part
  const M = zeros(n, w);
  const an = normF(A),
    bn = normF(B);
  const bscale = bn > 0 ? (an > 0 ? an / bn : 1 / bn) : 1; // B -> B*bscale, same controllability
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) M.d[i * w + j] = B.d[i * m + j] * bscale;
    for (let j = 0; j < n; j++) M.d[i * w + m + j] = A.d[i * n + j];
  }
  const Z = accumulate ? zeros(n, n) : undefined;
  if (Z) for (let i = 0; i < n; i++) Z.d[i * n + i] = 1;
  const refl: Reflector[] = [];
  // columns of the augmented matrix that are exactly zero below their pivot row (the pivot
  // columns): the left reflectors of later rows find zeros there and change nothing, so they
  // start at the first column that is not such a column
  const clean = new Uint8Array(w);
  let jlo = 0;
  const norm = Math.max(an, bn * bscale, Number.MIN_VALUE);
  // the one tolerance: n²·ε·max(‖A‖F, ‖B‖F) (B scaled to A's norm), SLICOT AB01ND's default.
  // max(n, m, 10)·ε·‖A‖ was below the rounding the reduction itself accumulates: an exactly
  // unobservable 8-state model (three states C and the others never see) kept a 3.1e-14 where
  // the zero is, against 9e-15, and came out observable
  const t = tol ?? Math.max(n * n, m, 10) * EPS * norm;
  const d = M.d;
  const v = new Float64Array(n);
  const acc = new Float64Array(w);
  let k = 0; // rows k.. still to be split
  let c0 = 0,
    c1 = m; // current block columns [c0, c1) of the augmented matrix
  const blocks: number[] = [];
  while (k < n && c1 > c0) {
    const cols: number[] = [];
    for (let j = c0; j < c1; j++) cols.push(j);
    let r = 0;
    for (; r < cols.length && k + r < n; r++) {
      // pivot: the remaining column with the largest norm on rows k+r..
      // The norms by sums of squares (Math.hypot a term is some 20 times slower); where that
      // could decide differently from the hypot norms (the two largest, or the largest and the
      // tolerance, within 1e-10, or a sum that may over- or underflow) they are taken by hypot,
      // so every decision is the one the hypot norms make.
      let best = -1,
        bi = r,
        second = -1;
      let exact = false;
      for (let q = r; q < cols.length; q++) {
        let ss = 0;
        for (let i = k + r, o = i * w + cols[q]; i < n; i++, o += w) ss += d[o] * d[o];
        const s = Math.sqrt(ss);
        if (!(ss < 1e300) || (ss !== 0 && ss < 1e-290)) exact = true;
        if (s > best) {
          second = best;
          best = s;
          bi = q;
        } else if (s > second) second = s;
      }
      if (exact || second >= best * (1 - 1e-10) || Math.abs(best - t) <= 1e-10 * Math.max(best, t)) {
        best = -1;
        bi = r;
        for (let q = r; q < cols.length; q++) {
          let s = 0;
          for (let i = k + r; i < n; i++) s = Math.hypot(s, d[i * w + cols[q]]);
          if (s > best) {
            best = s;
            bi = q;
          }
        }
      }
      if (best <= t) break;
      const tmp = cols[r];
      cols[r] = cols[bi];
      cols[bi] = tmp;
      const col = cols[r];
      // Householder on rows k+r..n-1 mapping the column to a multiple of e_{k+r}
      const p0 = k + r;
      const alpha = d[p0 * w + col];
      let xn = 0;
      for (let i = p0 + 1; i < n; i++) xn = Math.hypot(xn, d[i * w + col]);
      if (xn === 0) {
        clean[col] = 1;
        while (jlo < w && clean[jlo]) jlo++;
        continue;
      }
      const beta = alpha >= 0 ? -Math.hypot(alpha, xn) : Math.hypot(alpha, xn);
      const tau = (beta - alpha) / beta;
      v.fill(0);
      v[p0] = 1;
      for (let i = p0 + 1; i < n; i++) v[i] = d[i * w + col] / (alpha - beta);
      // left: rows p0.. of all columns not yet cleared
      reflectLeft(d, w, p0, n, jlo, w, v, tau, acc);
      for (let i = p0 + 1; i < n; i++) d[i * w + col] = 0;
      clean[col] = 1;
      while (jlo < w && clean[jlo]) jlo++;
      // right: A part columns m+p0.., all rows
      reflectRight(d, m, w, n, p0, n, v, tau);
      if (Z) reflectRight(Z.d, 0, n, n, p0, n, v, tau);
      else refl.push({ p0, tau, v: v.slice(p0) });
    }
    if (r === 0) break;
    blocks.push(r);
    // the next "B" is the block A(k+r:, k:k+r)
    c0 = m + k;
    c1 = m + k + r;
    k += r;
  }
  const At = zeros(n, n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) At.d[i * n + j] = d[i * w + m + j];
  return { nc: k, At, Z, blocks, refl };
}

/**
 * The state scaling the controllability decision is made in: a diagonal D of powers of 2
 * (exact) that balances the rows of [A B] against the columns of A (SLICOT TB01ID for A and
 * B, as TB01PD and MATLAB's minreal scale before their staircase). Controllability does not
 * depend on the units of the states, and neither does the decision then: with A12 = 1e-30 and
 * A21 = -2e30 (a state measured in units 1e30 too small) the staircase of (A, B) itself saw
 * the coupling below its tolerance and called a controllable pair uncontrollable.
 * As LAPACK's dlaqge equilibrates only beyond a threshold, D is used only when the states'
 * scales spread by more than 2^20 (about 1e6): a coupling the staircase of (A, B) itself misses
 * (below 1e-14 of ‖A‖) needs a spread of about 1e7, and within that range place keeps designing
 * in the model's own coordinates (the robust multi-input gain depends on them).
 */
export function balanceStates(A: Mat, B: Mat): { A: Mat; B: Mat; d: Float64Array } {
  const bal = balance(A, { permute: false, inputs: B });
  let lo = Infinity,
    hi = 0;
  for (const v of bal.scale) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  if (!(hi > lo * 2 ** 20)) return { A, B, d: new Float64Array(A.r).fill(1) };
  return { A: bal.B, B: bal.inputs!, d: bal.scale };
}

/** The staircase of the balanced pair (D⁻¹AD, D⁻¹B), with D = diag(d): x = D Z x̃ */
export interface BalancedStaircase extends StaircaseFactored {
  d: Float64Array;
}

/**
 * The one controllability staircase: (A, B) balanced (balanceStates), then the staircase with
 * its one tolerance. Every decision about (A, B) comes from here: analyse (controllable,
 * observable by the dual (A', C'), the modes that are not), ctrb_rank/obsv_rank's rank, place,
 * and the stabilisability / detectability checks of lqr, care, dlqr, dare, lqe and kalman.
 */
export function balancedStaircase(A: Mat, B: Mat): BalancedStaircase {
  const bal = balanceStates(A, B);
  // entries beyond 2^±100 (1e-200, 1e300): scaled by powers of 2 first (exact; the rank of
  // (αA, βB) is that of (A, B)), since the pivot norms' sums of squares underflow to 0 near
  // 1e-160 and a controllable pair of entries 1e-200 came out with rank 0. At is scaled back.
  const ka = pow2Exponent(bal.A),
    kb = pow2Exponent(bal.B);
  const st = controllabilityStaircaseFactored(ka ? scalePow2(bal.A, -ka) : bal.A, kb ? scalePow2(bal.B, -kb) : bal.B);
  if (ka) scalePow2InPlace(st.At.d, ka);
  return { ...st, d: bal.d };
}

export interface Controllability {
  /** dimension of the controllable subspace (n: controllable) */
  nc: number;
  /** the uncontrollable modes: eigenvalues of the staircase's trailing block, sorted */
  uncontrollable: Complex[];
}

/** controllable dimension and uncontrollable modes of (A, B), from balancedStaircase */
export function controllability(A: Mat, B: Mat): Controllability {
  const n = A.r;
  if (n === 0) return { nc: 0, uncontrollable: [] };
  const st = balancedStaircase(A, B);
  const nu = n - st.nc;
  return { nc: st.nc, uncontrollable: nu ? eigvalsSorted(block(st.At, st.nc, st.nc, nu, nu)) : [] };
}

/** a state-space model on Mat with explicit sizes (a static gain: A 0x0, B 0xm, C px0) */
export interface StateSpaceMats {
  A: Mat;
  B: Mat;
  C: Mat;
  D: Mat;
}

/**
 * The one minimal realisation (minreal of a state-space model): the controllable part of
 * (A, B) by balancedStaircase, then of that the observable part by the dual pair (A', C').
 * Returns the reduced model and the removed modes (eigenvalues of the staircases' trailing
 * blocks, each list sorted). Used by the interconnection tools and by MIMO realisations.
 */
export function minimalRealization(l: StateSpaceMats): { sys: StateSpaceMats; uncontrollable: Complex[]; unobservable: Complex[] } {
  const n = l.A.r,
    m = l.D.c,
    p = l.D.r;
  const gain = (): StateSpaceMats => ({ A: zeros(0, 0), B: zeros(0, m), C: zeros(p, 0), D: l.D });
  if (n === 0) return { sys: l, uncontrollable: [], unobservable: [] };
  // x = D Z x~: A~ = Z'D⁻¹ A D Z (the staircase's At), B~ = Z'D⁻¹B, C~ = C D Z
  const st = balancedStaircase(l.A, l.B);
  const nc = st.nc;
  const Bb = zeros(n, m);
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) Bb.d[i * m + j] = l.B.d[i * m + j] / st.d[i];
  const CDt = zeros(n, p); // (C D)'
  for (let i = 0; i < p; i++) for (let j = 0; j < n; j++) CDt.d[j * p + i] = l.C.d[i * n + j] * st.d[j];
  const Bt = st.mulZt(Bb);
  const Ctt = st.mulZt(CDt); // (C D Z)'
  const uncontrollable = nc < n ? eigvalsSorted(block(st.At, nc, nc, n - nc, n - nc)) : [];
  if (nc === 0) return { sys: gain(), uncontrollable, unobservable: [] };
  const Ac = block(st.At, 0, 0, nc, nc);
  const Bc = block(Bt, 0, 0, nc, m);
  const Cct = block(Ctt, 0, 0, nc, p); // Cc'
  // the dual pair (Ac', Cc'): x_dual = D2 Z2 x^, so the primal's x^ = Z2'D2 x_c: A^ = At2',
  // B^ = Z2'(D2 Bc), C^' = Z2'(D2⁻¹ Cc')
  const st2 = balancedStaircase(transpose(Ac), Cct);
  const no = st2.nc;
  const unobservable = no < nc ? eigvalsSorted(block(st2.At, no, no, nc - no, nc - no)) : [];
  if (no === 0) return { sys: gain(), uncontrollable, unobservable };
  const D2B = zeros(nc, m);
  for (let i = 0; i < nc; i++) for (let j = 0; j < m; j++) D2B.d[i * m + j] = Bc.d[i * m + j] * st2.d[i];
  const D2C = zeros(nc, p);
  for (let i = 0; i < nc; i++) for (let j = 0; j < p; j++) D2C.d[i * p + j] = Cct.d[i * p + j] / st2.d[i];
  const Bh = st2.mulZt(D2B);
  const Cht = st2.mulZt(D2C);
  return {
    sys: { A: transpose(block(st2.At, 0, 0, no, no)), B: block(Bh, 0, 0, no, m), C: transpose(block(Cht, 0, 0, no, p)), D: l.D },
    uncontrollable,
    unobservable,
  };
}
