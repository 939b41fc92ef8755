/**
 * Pole placement by state feedback u = -Kx, so that eig(A - BK) are the requested poles.
 *
 * Everything runs in the coordinates of the controllability staircase of the balanced pair
 * (linalg/staircase.ts balancedStaircase: a power-of-2 state scaling D, then one orthogonal
 * O(n^3) reduction, Z kept as reflectors): Z'D⁻¹ADZ = At is block upper Hessenberg,
 * Z'D⁻¹B = [B1; 0] with B1 of full row rank r = rank(B); K = K~ Z'D⁻¹. The staircase also
 * decides controllability, as for every tool (refused, naming the modes no feedback moves).
 *
 * Single effective input (r = 1): K is unique. At is upper Hessenberg and the gain is
 * e_n' p(At) / (b1 h21 ... h(n,n-1)), which handles repeated poles; O(n^3).
 *
 * Several inputs: the robust eigenvector method of Kautsky, Nichols and Van Dooren (method 0),
 * as MATLAB's place; SciPy's place_poles (python-control) uses its relative YT.
 * Why not Varga's Schur method (SLICOT SB01BD, under Octave's place), which is O(n^3) too: it
 * never looks at the conditioning of the closed-loop eigenvectors, and on the bench problems
 * (bench/place.ts) it leaves pole errors of 4e-2 at n = 50 with 3 inputs and 2e4 at n = 200,
 * where the robust method has 6e-10 and 2e1 (SciPy's YT: 4e-10 at n = 50).
 * What made our KNV slow (18-27 s at n = 200) was computing each pole's allowed eigenvector
 * subspace S_j = null(U1'(A - p_j I)) by a QR of an n x n matrix, O(n^3) per pole. In
 * staircase coordinates U1'(A - pI) is rows r.. of At - pI, block Hessenberg, so its null
 * space comes from an elimination of at most 2r - 1 columns per row with partial pivoting,
 * O(r n^2) per pole (nullSpace), and it never breaks down: the pivots come from the
 * full-row-rank subdiagonal blocks, not from A - pI, so a target equal to an eigenvalue of A
 * is as easy as any other. A sweep is O(n^3): X^-1 is kept by Sherman-Morrison / Woodbury
 * updates (a conjugate pair is its two real columns Re x, Im x, one rank-2 update), one pass
 * over X^-1 per column. At most MAX_SWEEPS = 2 sweeps: over 24 random problems (n = 30-100,
 * 2-8 inputs) the mean log10 pole error was -8.2 with no sweep, -9.4 after one, -9.5 after
 * two, -9.5 after three and five; a sweep that raises |det X| (unit columns) by less than 5 %
 * a column ends the loop earlier. Then K = B1^+ (At - X Lambda X^-1)(1:r, :) Z'.
 * Cost O(r n^3): n = 200, 3 inputs, 18-27 s before; then about 134 ms of CPU; now about 89 ms
 * (staircase 12, subspaces 20, X^-1 7, two sweeps 26, eig(A - BK) for the reported poles 25)
 * against Octave's 43 ms; one input 39 ms against 37 ms. The hot loops (Householder updates,
 * LU, the eliminations, the X^-1 updates) run two to four rows or columns a step: each
 * row's numbers are the same operations in the same order as one at a time, so the results
 * are bit for bit those of the plain loops, with fewer loads and stores.
 */
import { ControlError } from '../errors.js';
import { tool } from '../tools/types.js';
import { feedbackRenderer } from '../render/results.js';
import { GENERATORS } from '../codegen/code.js';
import { closedLoopPlots } from '../plot/specs.js';
import type { Complex, Matrix } from '../types.js';
import { complexList, matrix, sampleTime } from '../tools/schema.js';
import { checkMatrix, checkSquare } from '../tools/args.js';
import {
  balancedStaircase,
  block,
  eigvalsSorted,
  EPS,
  eye,
  fromRows,
  luFactor,
  luSolve,
  luSolveRight,
  type LU,
  mul,
  mulNT,
  mulTN,
  normF,
  toRows,
  transpose,
  zeros,
  type Mat,
} from '../linalg/index.js';
import { cplx, scaleGuard } from './_sys.js';

/** cap on the KNV sweeps (each O(n^3)) */
const MAX_SWEEPS = 2;

// ------------------------------------------------------------------ poles

function parsePoles(raw: unknown[], n: number): Complex[] {
  const p: Complex[] = raw.map((v, i) => {
    if (typeof v === 'number') return [v, 0] as Complex;
    if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'number' && Number.isFinite(x))) return [v[0], v[1]] as Complex;
    throw new ControlError(`poles[${i + 1}] must be a number or an [re, im] pair.`);
  });
  if (p.length !== n) throw new ControlError(`place needs exactly ${n} poles (one per state of A), but ${p.length} were given.`);
  // conjugate pairs, made exact; each pair as (a + bi, a - bi), b > 0, next to each other
  const used = new Array(n).fill(false);
  const out: Complex[] = [];
  for (let i = 0; i < n; i++) {
    if (used[i]) continue;
    used[i] = true;
    const [re, im] = p[i];
    const sc = Math.max(1, Math.hypot(re, im));
    if (Math.abs(im) <= 1e-14 * sc) {
      out.push([re, 0]);
      continue;
    }
    let partner = -1;
    let best = Infinity;
    for (let j = 0; j < n; j++) {
      if (used[j]) continue;
      const d = Math.hypot(p[j][0] - re, p[j][1] + im);
      if (d < best) {
        best = d;
        partner = j;
      }
    }
    if (partner < 0 || best > 1e-9 * sc)
      throw new ControlError(
        `pole ${re} ${im >= 0 ? '+' : '-'} ${Math.abs(im)}i has no complex-conjugate partner; a real gain K needs conjugate pairs given in full.`,
      );
    used[partner] = true;
    const a = 0.5 * (re + p[partner][0]);
    const b = 0.5 * (Math.abs(im) + Math.abs(p[partner][1]));
    out.push([a, b], [a, -b]);
  }
  return out;
}

function fmtPole([re, im]: Complex, digits?: number): string {
  const f = (x: number) => (digits ? x.toPrecision(digits) : String(x));
  return im === 0 ? f(re) : `${f(re)} ${im > 0 ? '+' : '-'} ${f(Math.abs(im))}i`;
}

// ------------------------------------------------------------------ single input

/**
 * K~ (length n) with eig(H - b0 e1 K~) = poles, for upper Hessenberg H: K~ = e_n' p(H) scaled by
 * 1/(b0 h21 ... h(n,n-1)) along the way (one divisor per factor, so nothing overflows early).
 */
function placeHessenberg(H: Mat, b0: number, poles: Complex[]): Float64Array {
  const n = H.r,
    h = H.d;
  let v: Float64Array = new Float64Array(n);
  v[n - 1] = 1;
  // y = x' H (H upper Hessenberg: row i touches columns i-1..n-1)
  const vH = (x: Float64Array): Float64Array => {
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const xi = x[i];
      if (xi === 0) continue;
      const o = i * n;
      for (let j = Math.max(0, i - 1); j < n; j++) y[j] += xi * h[o + j];
    }
    return y;
  };
  const divisors = [b0];
  for (let i = 0; i + 1 < n; i++) divisors.push(h[(i + 1) * n + i]);
  let di = 0;
  const scaleNext = (x: Float64Array): Float64Array => {
    if (di < divisors.length) {
      const d = divisors[di++];
      for (let j = 0; j < n; j++) x[j] /= d;
    }
    return x;
  };
  for (let k = 0; k < n; k++) {
    const [re, im] = poles[k];
    if (im === 0) {
      const y = vH(v);
      for (let j = 0; j < n; j++) y[j] -= re * v[j];
      v = scaleNext(y);
    } else {
      // conjugate pair: v'(H^2 - 2 re H + |p|^2 I)
      const y1 = vH(v);
      const y2 = vH(y1);
      const m2 = re * re + im * im;
      for (let j = 0; j < n; j++) y2[j] += -2 * re * y1[j] + m2 * v[j];
      v = scaleNext(scaleNext(y2));
      k++; // the partner
    }
  }
  while (di < divisors.length) v = scaleNext(v);
  return v;
}

// ------------------------------------------------------------------ several inputs

/** scratch space of nullSpace, kept across the poles */
interface NullSpaceWork {
  re: Float64Array;
  im: Float64Array;
  opsP: Int32Array;
  opsC: Int32Array;
  opsLr: Float64Array;
  opsLi: Float64Array;
}

/** orthonormal basis (n x r, real or complex) of an allowed eigenvector subspace */
interface Basis {
  re: Float64Array; // row-major n x r
  im: Float64Array | null;
}

/**
 * Orthonormal basis of null(M(p)), M(p) = rows r..n-1 of (At - pI), for the staircase form.
 * Row g of At (g >= r, in block q+1) is zero left of the first column of block q (lo[g]).
 * Eliminating from the last row up, row g is cleared by column operations among the columns
 * that are not yet pivots and lie at or right of lo[g] (at most r_q + r_{q+1} of them) with
 * the largest entry as pivot; no fill appears left of any row's lo. The r columns never
 * chosen as pivots are free: each gives a null vector e_f carried back through the column
 * operations. Work on M' (columns as rows) so every operation runs over contiguous memory.
 */
function nullSpace(AtT: Mat, lo: Int32Array, r: number, pre: number, pim: number, work: NullSpaceWork): Basis {
  const n = AtT.r,
    L = n - r; // L rows of M, n columns
  const cplxMode = pim !== 0;
  const Mr = work.re,
    Mi = work.im; // MT[c][i] at c*L + i
  const a = AtT.d;
  for (let c = 0; c < n; c++) {
    Mr.set(a.subarray(c * n + r, c * n + n), c * L);
    if (cplxMode) Mi.fill(0, c * L, c * L + L);
  }
  for (let i = 0; i < L; i++) {
    Mr[(i + r) * L + i] -= pre;
    if (cplxMode) Mi[(i + r) * L + i] = -pim;
  }
  // candidate columns (not pivots yet, >= lo of the current row)
  const cand: number[] = [];
  let curLo = n;
  // the column operations (pivot column, column, multiplier), in typed arrays kept across poles
  let { opsP, opsC, opsLr, opsLi } = work;
  let nOps = 0;
  for (let i = L - 1; i >= 0; i--) {
    const g = i + r;
    while (curLo > lo[g]) cand.push(--curLo);
    // pivot: the largest |M[i][c]|
    let best = -1,
      bk = 0;
    for (let k = 0; k < cand.length; k++) {
      const c = cand[k];
      const v = cplxMode ? Math.hypot(Mr[c * L + i], Mi[c * L + i]) : Math.abs(Mr[c * L + i]);
      if (v > best) {
        best = v;
        bk = k;
      }
    }
    if (!(best > 0)) throw new ControlError('place: an allowed eigenvector subspace could not be computed (rank lost in the staircase form).', 'numerical');
    const p = cand[bk];
    cand[bk] = cand[cand.length - 1];
    cand.pop();
    const po = p * L;
    const pr = Mr[po + i],
      pi = cplxMode ? Mi[po + i] : 0;
    const den = pr * pr + pi * pi;
    // eliminate the row from the other candidates (those with a nonzero there), up to three
    // columns a step against the same pivot column (each column's numbers as one at a time);
    // l = x / pivot
    let ne = 0;
    if (nOps + cand.length > opsP.length) {
      const cap = 2 * (nOps + cand.length);
      const grow = <T extends Int32Array | Float64Array>(a: T, b: T): T => (b.set(a), b);
      opsP = work.opsP = grow(opsP, new Int32Array(cap));
      opsC = work.opsC = grow(opsC, new Int32Array(cap));
      opsLr = work.opsLr = grow(opsLr, new Float64Array(cap));
      opsLi = work.opsLi = grow(opsLi, new Float64Array(cap));
    }
    for (const c of cand) {
      const co = c * L;
      const xr = Mr[co + i],
        xi = cplxMode ? Mi[co + i] : 0;
      if (xr === 0 && xi === 0) continue;
      const lr = cplxMode ? (xr * pr + xi * pi) / den : xr / pr,
        li = cplxMode ? (xi * pr - xr * pi) / den : 0;
      opsP[nOps] = p;
      opsC[nOps] = c;
      opsLr[nOps] = lr;
      opsLi[nOps] = li;
      nOps++;
      Mr[co + i] = 0;
      if (cplxMode) Mi[co + i] = 0;
      ne++;
    }
    const e0 = nOps - ne;
    for (let q = 0; q < ne;) {
      const left = ne - q;
      if (!cplxMode) {
        if (left >= 3) {
          const c1o = opsC[e0 + q] * L,
            c2o = opsC[e0 + q + 1] * L,
            c3o = opsC[e0 + q + 2] * L;
          const l1 = opsLr[e0 + q],
            l2 = opsLr[e0 + q + 1],
            l3 = opsLr[e0 + q + 2];
          for (let t = 0; t < i; t++) {
            const pv = Mr[po + t];
            Mr[c1o + t] -= l1 * pv;
            Mr[c2o + t] -= l2 * pv;
            Mr[c3o + t] -= l3 * pv;
          }
          q += 3;
        } else if (left === 2) {
          const c1o = opsC[e0 + q] * L,
            c2o = opsC[e0 + q + 1] * L;
          const l1 = opsLr[e0 + q],
            l2 = opsLr[e0 + q + 1];
          for (let t = 0; t < i; t++) {
            const pv = Mr[po + t];
            Mr[c1o + t] -= l1 * pv;
            Mr[c2o + t] -= l2 * pv;
          }
          q += 2;
        } else {
          const c1o = opsC[e0 + q] * L,
            l1 = opsLr[e0 + q];
          for (let t = 0; t < i; t++) Mr[c1o + t] -= l1 * Mr[po + t];
          q += 1;
        }
      } else if (left >= 3) {
        const c1o = opsC[e0 + q] * L,
          c2o = opsC[e0 + q + 1] * L,
          c3o = opsC[e0 + q + 2] * L;
        const l1r = opsLr[e0 + q],
          l1i = opsLi[e0 + q],
          l2r = opsLr[e0 + q + 1],
          l2i = opsLi[e0 + q + 1],
          l3r = opsLr[e0 + q + 2],
          l3i = opsLi[e0 + q + 2];
        for (let t = 0; t < i; t++) {
          const ar = Mr[po + t],
            ai = Mi[po + t];
          Mr[c1o + t] -= l1r * ar - l1i * ai;
          Mi[c1o + t] -= l1r * ai + l1i * ar;
          Mr[c2o + t] -= l2r * ar - l2i * ai;
          Mi[c2o + t] -= l2r * ai + l2i * ar;
          Mr[c3o + t] -= l3r * ar - l3i * ai;
          Mi[c3o + t] -= l3r * ai + l3i * ar;
        }
        q += 3;
      } else if (left === 2) {
        const c1o = opsC[e0 + q] * L,
          c2o = opsC[e0 + q + 1] * L;
        const l1r = opsLr[e0 + q],
          l1i = opsLi[e0 + q],
          l2r = opsLr[e0 + q + 1],
          l2i = opsLi[e0 + q + 1];
        for (let t = 0; t < i; t++) {
          const ar = Mr[po + t],
            ai = Mi[po + t];
          Mr[c1o + t] -= l1r * ar - l1i * ai;
          Mi[c1o + t] -= l1r * ai + l1i * ar;
          Mr[c2o + t] -= l2r * ar - l2i * ai;
          Mi[c2o + t] -= l2r * ai + l2i * ar;
        }
        q += 2;
      } else {
        const c1o = opsC[e0 + q] * L,
          l1r = opsLr[e0 + q],
          l1i = opsLi[e0 + q];
        for (let t = 0; t < i; t++) {
          const ar = Mr[po + t],
            ai = Mi[po + t];
          Mr[c1o + t] -= l1r * ar - l1i * ai;
          Mi[c1o + t] -= l1r * ai + l1i * ar;
        }
        q += 1;
      }
    }
  }
  // the free columns: the candidates left and every column left of the last lo
  const free = cand.slice();
  for (let c = 0; c < curLo; c++) free.push(c);
  free.sort((x, y) => x - y);
  if (free.length !== r) throw new ControlError('place: an allowed eigenvector subspace has the wrong dimension.', 'numerical');
  const Vr = new Float64Array(n * r),
    Vi = cplxMode ? new Float64Array(n * r) : null;
  const vr = new Float64Array(n),
    vi = new Float64Array(n);
  for (let k = 0; k < r; k++) {
    vr.fill(0);
    vi.fill(0);
    vr[free[k]] = 1;
    for (let t = nOps - 1; t >= 0; t--) {
      const c = opsC[t],
        p = opsP[t];
      const xr = vr[c],
        xi = vi[c];
      if (xr === 0 && xi === 0) continue;
      const lr = opsLr[t],
        li = opsLi[t];
      vr[p] -= lr * xr - li * xi;
      vi[p] -= lr * xi + li * xr;
    }
    for (let i = 0; i < n; i++) {
      Vr[i * r + k] = vr[i];
      if (Vi) Vi[i * r + k] = vi[i];
    }
  }
  orthonormalize(Vr, Vi, n, r);
  return { re: Vr, im: Vi };
}

/** modified Gram-Schmidt, twice (columns of the n x r matrix, complex when im is given) */
function orthonormalize(Vr: Float64Array, Vi: Float64Array | null, n: number, r: number): void {
  for (let k = 0; k < r; k++) {
    for (let pass = 0; pass < 2; pass++)
      for (let q = 0; q < k; q++) {
        // s = <v_q, v_k> = sum conj(v_q) v_k
        let sr = 0,
          si = 0;
        for (let i = 0; i < n; i++) {
          const ar = Vr[i * r + q],
            br = Vr[i * r + k];
          const ai = Vi ? Vi[i * r + q] : 0,
            bi = Vi ? Vi[i * r + k] : 0;
          sr += ar * br + ai * bi;
          si += ar * bi - ai * br;
        }
        for (let i = 0; i < n; i++) {
          const ar = Vr[i * r + q],
            ai = Vi ? Vi[i * r + q] : 0;
          Vr[i * r + k] -= sr * ar - si * ai;
          if (Vi) Vi[i * r + k] -= sr * ai + si * ar;
        }
      }
    let s = 0;
    for (let i = 0; i < n; i++) s += Vr[i * r + k] ** 2 + (Vi ? Vi[i * r + k] ** 2 : 0);
    s = Math.sqrt(s);
    if (!(s > 0)) throw new ControlError('place: an allowed eigenvector subspace could not be computed.', 'numerical');
    for (let i = 0; i < n; i++) {
      Vr[i * r + k] /= s;
      if (Vi) Vi[i * r + k] /= s;
    }
  }
}

/**
 * X^-1 from P X = L U, the same numbers as luSolve(F, I) (the same operations in the same
 * order, less the ones on zeros): W = L^-1 is lower triangular, so the forward solve runs over
 * the triangle only; then U^-1 W by rows, four rows of the sum a step; column c is column piv[c]
 * of X^-1.
 */
function luInverse(F: LU): Float64Array {
  const n = F.n,
    lu = F.lu;
  const W = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const oi = i * n;
    W[oi + i] = 1;
    for (let k = 0; k < i; k++) {
      const l = lu[oi + k];
      if (l === 0) continue;
      const ok = k * n;
      for (let j = 0; j <= k; j++) W[oi + j] -= l * W[ok + j];
    }
  }
  for (let i = n - 1; i >= 0; i--) {
    const oi = i * n;
    let k = i + 1;
    for (; k + 3 < n; k += 4) {
      const u1 = lu[oi + k],
        u2 = lu[oi + k + 1],
        u3 = lu[oi + k + 2],
        u4 = lu[oi + k + 3];
      const o1 = k * n,
        o2 = o1 + n,
        o3 = o2 + n,
        o4 = o3 + n;
      if (u1 !== 0 && u2 !== 0 && u3 !== 0 && u4 !== 0)
        for (let j = 0; j < n; j++) W[oi + j] = W[oi + j] - u1 * W[o1 + j] - u2 * W[o2 + j] - u3 * W[o3 + j] - u4 * W[o4 + j];
      else {
        if (u1 !== 0) for (let j = 0; j < n; j++) W[oi + j] -= u1 * W[o1 + j];
        if (u2 !== 0) for (let j = 0; j < n; j++) W[oi + j] -= u2 * W[o2 + j];
        if (u3 !== 0) for (let j = 0; j < n; j++) W[oi + j] -= u3 * W[o3 + j];
        if (u4 !== 0) for (let j = 0; j < n; j++) W[oi + j] -= u4 * W[o4 + j];
      }
    }
    for (; k + 1 < n; k += 2) {
      const u1 = lu[oi + k],
        u2 = lu[oi + k + 1],
        o1 = k * n,
        o2 = o1 + n;
      if (u1 !== 0 && u2 !== 0) for (let j = 0; j < n; j++) W[oi + j] = W[oi + j] - u1 * W[o1 + j] - u2 * W[o2 + j];
      else if (u1 !== 0) for (let j = 0; j < n; j++) W[oi + j] -= u1 * W[o1 + j];
      else if (u2 !== 0) for (let j = 0; j < n; j++) W[oi + j] -= u2 * W[o2 + j];
    }
    if (k < n) {
      const u = lu[oi + k],
        o = k * n;
      if (u !== 0) for (let j = 0; j < n; j++) W[oi + j] -= u * W[o + j];
    }
    const d = lu[oi + i];
    for (let j = 0; j < n; j++) W[oi + j] /= d;
  }
  const Xi = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const o = i * n;
    for (let c = 0; c < n; c++) Xi[o + F.piv[c]] = W[o + c];
  }
  return Xi;
}

/**
 * The robust eigenvector matrix in staircase coordinates: real X (n x n; a conjugate pair
 * a +- bi at columns j, j+1 holds Re x, Im x of its eigenvector for a + bi), columns in
 * the allowed subspaces, |det X| raised by KNV method-0 sweeps.
 */
function robustEigenvectors(At: Mat, blocks: number[], poles: Complex[]): { X: Mat; sweeps: number } {
  const n = At.r;
  const r = blocks[0];
  // lo[g]: first column of the block before the block of row g
  const lo = new Int32Array(n);
  {
    let s = 0,
      prev = 0;
    for (const b of blocks) {
      for (let g = s; g < s + b; g++) lo[g] = prev;
      prev = s;
      s += b;
    }
  }
  const AtT = transpose(At);
  const cap = 4 * r * n;
  const work: NullSpaceWork = {
    re: new Float64Array(n * (n - r)),
    im: new Float64Array(n * (n - r)),
    opsP: new Int32Array(cap),
    opsC: new Int32Array(cap),
    opsLr: new Float64Array(cap),
    opsLi: new Float64Array(cap),
  };
  const S: Basis[] = new Array(n);
  for (let j = 0; j < n; j++) {
    const [pr, pi] = poles[j];
    if (pi < 0) {
      S[j] = S[j - 1];
      continue;
    }
    // a repeated pole shares its subspace
    let k = 0;
    while (k < j && !(poles[k][0] === pr && poles[k][1] === pi)) k++;
    S[j] = k < j ? S[k] : nullSpace(AtT, lo, r, pr, pi, work);
  }
  // initial X: deterministic, different combinations in each subspace (so repeated poles start apart)
  const X = zeros(n, n);
  const x = X.d;
  for (let j = 0; j < n; j++) {
    if (poles[j][1] < 0) continue;
    const g = Array.from({ length: r }, (_, k) => Math.sin(1.3 * (j + 1) * (k + 1) + 0.7) + 0.1 * (k + 1));
    const { re, im } = S[j];
    let s = 0;
    for (let i = 0; i < n; i++) {
      let a = 0,
        b = 0;
      for (let k = 0; k < r; k++) {
        a += re[i * r + k] * g[k];
        if (im) b += im[i * r + k] * g[k];
      }
      x[i * n + j] = a;
      if (im) x[i * n + j + 1] = b;
      s += a * a + b * b;
    }
    s = Math.sqrt(s);
    for (let i = 0; i < n; i++) {
      x[i * n + j] /= s;
      if (im) x[i * n + j + 1] /= s;
    }
  }
  const F = luFactor(X);
  if (F.singular) throw new ControlError('place: the closed-loop eigenvector matrix is singular.', 'numerical');
  const Xi = luInverse(F);
  // KNV0 sweeps. X^-1 is kept by Sherman-Morrison (a real pole) or Woodbury rank-2 (a pair)
  // updates; an update is held back as up to two rank-one terms Xi -= f1 g1' + f2 g2' and
  // applied in the same pass over Xi that forms the next column's product X^-1 u, so each
  // column reads and writes X^-1 once.
  const y = new Float64Array(n),
    y2 = new Float64Array(n),
    u = new Float64Array(n),
    u2 = new Float64Array(n);
  const w = new Float64Array(n),
    w2 = new Float64Array(n),
    xr = new Float64Array(n),
    xi = new Float64Array(n);
  const f1 = new Float64Array(n),
    f2 = new Float64Array(n),
    g1 = new Float64Array(n),
    g2 = new Float64Array(n);
  const cr = new Float64Array(r),
    ci = new Float64Array(r);
  let held = 0; // rank-one terms held back (0, 1 or 2)
  const rowOf = (row: number, out: Float64Array) => {
    out.set(Xi.subarray(row * n, row * n + n));
    if (held > 0) {
      const a = f1[row];
      if (a !== 0) for (let k = 0; k < n; k++) out[k] -= a * g1[k];
    }
    if (held > 1) {
      const b = f2[row];
      if (b !== 0) for (let k = 0; k < n; k++) out[k] -= b * g2[k];
    }
  };
  // applies the held terms and returns w = X^-1 u (and w2 = X^-1 u2 when two)
  const passRow = (i: number, two: boolean) => {
    const o = i * n;
    const a = held > 0 ? f1[i] : 0,
      b = held > 1 ? f2[i] : 0;
    let t = 0,
      t2 = 0;
    if (two) {
      if (b !== 0)
        for (let k = 0; k < n; k++) {
          const v = Xi[o + k] - a * g1[k] - b * g2[k];
          Xi[o + k] = v;
          t += v * u[k];
          t2 += v * u2[k];
        }
      else if (a !== 0)
        for (let k = 0; k < n; k++) {
          const v = Xi[o + k] - a * g1[k];
          Xi[o + k] = v;
          t += v * u[k];
          t2 += v * u2[k];
        }
      else
        for (let k = 0; k < n; k++) {
          const v = Xi[o + k];
          t += v * u[k];
          t2 += v * u2[k];
        }
    } else if (b !== 0)
      for (let k = 0; k < n; k++) {
        const v = Xi[o + k] - a * g1[k] - b * g2[k];
        Xi[o + k] = v;
        t += v * u[k];
      }
    else if (a !== 0)
      for (let k = 0; k < n; k++) {
        const v = Xi[o + k] - a * g1[k];
        Xi[o + k] = v;
        t += v * u[k];
      }
    else for (let k = 0; k < n; k++) t += Xi[o + k] * u[k];
    w[i] = t;
    w2[i] = t2;
  };
  // four rows a step where all carry all the held terms (nearly always): each row's numbers
  // are the same operations in the same order as passRow's (with one held term, the second is
  // 0 * 0 = +0, and x - +0 is x), and g1, g2, u, u2 are loaded once for the four
  const gz = new Float64Array(n);
  const pass = (two: boolean) => {
    let i = 0;
    if (held > 0) {
      const G2 = held > 1 ? g2 : gz;
      for (; i + 3 < n; i += 4) {
        const a1 = f1[i],
          a2 = f1[i + 1],
          a3 = f1[i + 2],
          a4 = f1[i + 3];
        const b1 = held > 1 ? f2[i] : 0,
          b2 = held > 1 ? f2[i + 1] : 0,
          b3 = held > 1 ? f2[i + 2] : 0,
          b4 = held > 1 ? f2[i + 3] : 0;
        if (a1 === 0 || a2 === 0 || a3 === 0 || a4 === 0 || (held > 1 && (b1 === 0 || b2 === 0 || b3 === 0 || b4 === 0))) {
          for (let q = i; q < i + 4; q++) passRow(q, two);
          continue;
        }
        const o1 = i * n,
          o2 = o1 + n,
          o3 = o2 + n,
          o4 = o3 + n;
        let t1 = 0,
          t2 = 0,
          t3 = 0,
          t4 = 0,
          s1 = 0,
          s2 = 0,
          s3 = 0,
          s4 = 0;
        if (two)
          for (let k = 0; k < n; k++) {
            const ga = g1[k],
              gb = G2[k],
              uk = u[k],
              u2k = u2[k];
            const x1 = Xi[o1 + k] - a1 * ga - b1 * gb;
            const x2 = Xi[o2 + k] - a2 * ga - b2 * gb;
            const x3 = Xi[o3 + k] - a3 * ga - b3 * gb;
            const x4 = Xi[o4 + k] - a4 * ga - b4 * gb;
            Xi[o1 + k] = x1;
            Xi[o2 + k] = x2;
            Xi[o3 + k] = x3;
            Xi[o4 + k] = x4;
            t1 += x1 * uk;
            s1 += x1 * u2k;
            t2 += x2 * uk;
            s2 += x2 * u2k;
            t3 += x3 * uk;
            s3 += x3 * u2k;
            t4 += x4 * uk;
            s4 += x4 * u2k;
          }
        else
          for (let k = 0; k < n; k++) {
            const ga = g1[k],
              gb = G2[k],
              uk = u[k];
            const x1 = Xi[o1 + k] - a1 * ga - b1 * gb;
            const x2 = Xi[o2 + k] - a2 * ga - b2 * gb;
            const x3 = Xi[o3 + k] - a3 * ga - b3 * gb;
            const x4 = Xi[o4 + k] - a4 * ga - b4 * gb;
            Xi[o1 + k] = x1;
            Xi[o2 + k] = x2;
            Xi[o3 + k] = x3;
            Xi[o4 + k] = x4;
            t1 += x1 * uk;
            t2 += x2 * uk;
            t3 += x3 * uk;
            t4 += x4 * uk;
          }
        w[i] = t1;
        w[i + 1] = t2;
        w[i + 2] = t3;
        w[i + 3] = t4;
        w2[i] = s1;
        w2[i + 1] = s2;
        w2[i + 2] = s3;
        w2[i + 3] = s4;
      }
    }
    for (; i < n; i++) passRow(i, two);
    held = 0;
  };
  let sweeps = 0;
  for (; sweeps < MAX_SWEEPS; sweeps++) {
    let logGain = 0;
    for (let j = 0; j < n; j++) {
      const pair = poles[j][1] > 0;
      if (poles[j][1] < 0) continue;
      const { re: Sr, im: Si } = S[j];
      // y: column j of X^-H (a pair: rows j and j+1 of X_R^-1 as y = rho_j + i rho_{j+1})
      rowOf(j, y);
      if (pair) rowOf(j + 1, y2);
      // x = S S^H y, normalised
      cr.fill(0);
      ci.fill(0);
      for (let i = 0; i < n; i++) {
        const a = y[i],
          b = pair ? y2[i] : 0;
        for (let k = 0; k < r; k++) {
          const sr = Sr[i * r + k],
            si = Si ? Si[i * r + k] : 0;
          cr[k] += sr * a + si * b;
          ci[k] += sr * b - si * a;
        }
      }
      let s = 0;
      for (let i = 0; i < n; i++) {
        let a = 0,
          b = 0;
        for (let k = 0; k < r; k++) {
          const sr = Sr[i * r + k],
            si = Si ? Si[i * r + k] : 0;
          a += sr * cr[k] - si * ci[k];
          b += sr * ci[k] + si * cr[k];
        }
        xr[i] = a;
        xi[i] = b;
        s += a * a + (pair ? b * b : 0);
      }
      s = Math.sqrt(s);
      if (!(s > 1e-300)) continue;
      for (let i = 0; i < n; i++) {
        xr[i] /= s;
        xi[i] /= s;
      }
      if (!pair) {
        // Sherman-Morrison: X <- X + u e_j', d = 1 + (X^-1 u)_j = |P_j y| >= 1
        for (let i = 0; i < n; i++) u[i] = xr[i] - x[i * n + j];
        pass(false);
        const d = 1 + w[j];
        if (!(Math.abs(d) > 1e-8)) continue;
        for (let i = 0; i < n; i++) f1[i] = w[i] / d;
        g1.set(y);
        held = 1;
        for (let i = 0; i < n; i++) x[i * n + j] = xr[i];
        logGain += Math.log(Math.abs(d));
      } else {
        // Woodbury, rank 2: columns j, j+1 <- Re x, Im x; C = I + E'X^-1 U
        for (let i = 0; i < n; i++) {
          u[i] = xr[i] - x[i * n + j];
          u2[i] = xi[i] - x[i * n + j + 1];
        }
        pass(true);
        const c11 = 1 + w[j],
          c12 = w2[j],
          c21 = w[j + 1],
          c22 = 1 + w2[j + 1];
        const det = c11 * c22 - c12 * c21;
        // keep the ascent monotone: a pair update that would shrink |det X| is skipped
        if (!(Math.abs(det) >= 1)) continue;
        const i11 = c22 / det,
          i12 = -c12 / det,
          i21 = -c21 / det,
          i22 = c11 / det;
        for (let i = 0; i < n; i++) {
          f1[i] = w[i] * i11 + w2[i] * i21;
          f2[i] = w[i] * i12 + w2[i] * i22;
        }
        g1.set(y);
        g2.set(y2);
        held = 2;
        for (let i = 0; i < n; i++) {
          x[i * n + j] = xr[i];
          x[i * n + j + 1] = xi[i];
        }
        logGain += Math.log(Math.abs(det));
      }
    }
    // |det X| (unit columns) grew by exp(logGain): stop when that is under 5 % a column
    if (logGain < 0.05 * n) {
      sweeps++;
      break;
    }
  }
  return { X, sweeps };
}

/** K~ = B1^+ (At - X Lambda X^-1)(1:r, :), B1 of full row rank r (min-norm when r < m) */
function gainFromEigenvectors(At: Mat, B1: Mat, X: Mat, poles: Complex[]): Mat {
  const n = At.r,
    r = B1.r;
  // Y = X(1:r, :) Lambda_R (a pair a +- bi at j, j+1: [a b; -b a])
  const Y = zeros(r, n);
  for (let i = 0; i < r; i++)
    for (let j = 0; j < n; j++) {
      const [a, b] = poles[j];
      const xj = X.d[i * n + j];
      if (b === 0) Y.d[i * n + j] = a * xj;
      else if (b > 0) {
        const xk = X.d[i * n + j + 1];
        Y.d[i * n + j] = a * xj - b * xk;
        Y.d[i * n + j + 1] = b * xj + a * xk;
      }
    }
  const F = luFactor(X);
  if (F.singular) throw new ControlError('place: the closed-loop eigenvector matrix is singular.', 'numerical');
  const T = luSolveRight(F, Y); // X(1:r,:) Lambda X^-1
  const R = zeros(r, n);
  for (let i = 0; i < r; i++) for (let j = 0; j < n; j++) R.d[i * n + j] = At.d[i * n + j] - T.d[i * n + j];
  return minNormSolve(B1, R);
}

/** X (m x k) with B1 X = R, B1 (r x m) of full row rank: the least-norm solution */
function minNormSolve(B1: Mat, R: Mat): Mat {
  if (B1.r === B1.c) return luSolve(luFactor(B1), R);
  // B1' (B1 B1')^-1 R
  return mulTN(B1, luSolve(luFactor(mulNT(B1, B1)), R));
}

// ------------------------------------------------------------------ public

export interface PlaceResult {
  K: Matrix;
  poles: Complex[];
  Acl: Matrix;
  /** KNV sweeps run (several inputs only) */
  sweeps?: number;
}

/**
 * A requested pole below the rounding level of A − BK (ε(‖A‖ + ‖BK‖): the closed loop is formed
 * by cancellation of entries that large) that did not come out to 1e-6 of itself is refused with
 * the reason: A = -7.3e29, B = 7.6e29 and a pole at -6.69 gave K with eig(A − BK) = 0. (A pole
 * at 0 is placed to that level, which is all there is.)
 */
function unresolvedPole(poles: Complex[], eigs: Complex[], level: number, normA: number, normBK: number, m: number): void {
  const left = eigs.slice();
  for (const p of poles) {
    let bi = 0;
    for (let i = 1; i < left.length; i++) if (Math.hypot(left[i][0] - p[0], left[i][1] - p[1]) < Math.hypot(left[bi][0] - p[0], left[bi][1] - p[1])) bi = i;
    const z = left.splice(bi, 1)[0];
    const size = Math.hypot(p[0], p[1]);
    if (!z || size === 0 || size >= 1e3 * level) continue;
    if (Math.hypot(z[0] - p[0], z[1] - p[1]) <= 1e-6 * size) continue;
    // the way out depends on what is large: the model itself (rescale time), or the gain the
    // placement needs (an ill-conditioned placement: many poles moved by few inputs)
    const gainBound = normBK > 1e3 * normA;
    const way = gainBound
      ? `The gain this placement needs is the cause (‖BK‖ ≈ ${normBK.toExponential(0)} against ‖A‖ ≈ ${normA.toExponential(0)}): moving ${poles.length} poles with ${m} input${m === 1 ? '' : 's'} is ill-conditioned. Ask for fewer or slower poles, poles nearer A's eigenvalues, or design with lqr.`
      : `Rescale time (A, and the poles, by the same factor) so that A's entries are nearer the poles.`;
    throw new ControlError(
      `place: the pole ${fmtPole(p)} is below the rounding level of A − BK (about ${level.toExponential(1)}: A and BK have entries of order ${(level / EPS).toExponential(0)} that cancel), so it cannot be placed in double precision (eig(A − BK) came out at ${fmtPole(z)}). ${way}`,
      'numerical',
    );
  }
}

export function place(Ain: Matrix, Bin: Matrix, polesIn: unknown[]): PlaceResult {
  const n = Ain.length;
  const m = Bin[0].length;
  const poles = parsePoles(polesIn, n);
  const A = fromRows(Ain),
    B = fromRows(Bin);
  // the one controllability decision (linalg/staircase.ts): the staircase of the balanced pair
  // (D⁻¹AD, D⁻¹B); the gain is designed there and K = K_D D⁻¹
  const st = balancedStaircase(A, B);
  const d = st.d;
  if (st.nc < n) {
    const unc = eigvalsSorted(block(st.At, st.nc, st.nc, n - st.nc, n - st.nc))
      .map((z) => fmtPole(z, 6))
      .join(', ');
    throw new ControlError(
      `place: (A, B) is not controllable: only ${st.nc} of ${n} poles can be assigned; the uncontrollable mode(s) at ${unc} do not move under any state feedback.`,
      'infeasible',
    );
  }
  const { At, blocks } = st;
  const r = blocks[0];
  const Bd = zeros(n, m); // D⁻¹B
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) Bd.d[i * m + j] = B.d[i * m + j] / d[i];
  const B1 = block(st.mulZt(Bd), 0, 0, r, m); // Z'D⁻¹B = [B1; 0]
  let Kt: Mat;
  let sweeps: number | undefined;
  if (r === 1) {
    // single effective input: B~ = e1 b', b = B1(1,:); K~ = b k~' / |b|^2 for the scalar input
    const b = B1.d;
    let beta = 0;
    for (let j = 0; j < m; j++) beta = Math.hypot(beta, b[j]);
    const k = placeHessenberg(At, beta, poles);
    Kt = zeros(m, n);
    for (let a = 0; a < m; a++) for (let c = 0; c < n; c++) Kt.d[a * n + c] = (b[a] / beta) * k[c];
  } else {
    for (let i = 0; i < n; i++) {
      let k = 0;
      for (let j = 0; j < n; j++) if (Math.hypot(poles[j][0] - poles[i][0], poles[j][1] - poles[i][1]) <= 1e-12 * Math.max(1, Math.hypot(...poles[i]))) k++;
      if (k > r)
        throw new ControlError(
          `place: the pole ${fmtPole(poles[i])} is repeated ${k} times but rank(B) = ${r}; with several inputs the robust (eigenvector) method can assign a pole at most rank(B) times. Spread the repeated poles slightly (e.g. -2, -2.01, -1.99).`,
          'infeasible',
        );
    }
    let X: Mat;
    if (r === n)
      X = eye(n); // every direction allowed: orthonormal eigenvectors
    else ({ X, sweeps } = robustEigenvectors(At, blocks, poles));
    Kt = gainFromEigenvectors(At, B1, X, poles);
  }
  const K = transpose(st.mulZ(transpose(Kt))); // K_D = K~ Z' = (Z K~')'
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) K.d[i * n + j] /= d[j]; // K = K_D D⁻¹
  const Acl = mul(B, K);
  const normA = normF(A);
  const normBK = normF(Acl);
  const level = EPS * (normA + normBK); // the rounding level of A − BK, formed by cancellation
  for (let i = 0; i < Acl.d.length; i++) Acl.d[i] = A.d[i] - Acl.d[i];
  const eigs = eigvalsSorted(Acl);
  unresolvedPole(poles, eigs, level, normA, normBK, B.c);
  const achieved = eigs.map(([re, im]) => cplx(re, im));
  return { K: toRows(K), poles: achieved, Acl: toRows(Acl), sweeps };
}

export const tools = [
  tool({
    name: 'place',
    words: {
      calls: [
        { names: ['place', 'acker', 'ppol'], args: ['A', 'B', 'poles'], keywords: { poles: 'poles', p: 'poles' }, returns: ['K'] },
        // SciPy's place_poles returns an object (its gain_matrix is K): not saved as K
        { names: ['place_poles'], args: ['A', 'B', 'poles'], keywords: { poles: 'poles', p: 'poles' } },
        { names: ['place'], args: ['sys', 'poles'], note: 'place(sys, p) (ControlSystems.jl) places the poles of (A, B) of sys' },
      ],
      phrases: [
        'pole placement',
        'place poles',
        'place the poles',
        'place',
        'pole assignment',
        'assign poles',
        'ackermann',
        'state feedback gain',
        'closed-loop poles at',
        'closed loop poles at',
      ],
      aliases: { poles: ['p', 'P', 'desired_poles', 'pdes', 'pd', 'eigs'] },
      example: '/place A=[0 1; 0 0], B=[0;1], poles=[-1 -2]',
    },
    brief: 'Gain K (u = -Kx) with eig(A - BK) at the given poles.',
    title: 'Pole placement',
    description:
      'State-feedback gain K (u = -Kx) such that eig(A - BK) are the requested poles. Single input: the unique K (repeated poles allowed). Several inputs: robust eigenvector assignment (Kautsky-Nichols-Van Dooren); a pole may be repeated at most rank(B) times. Refuses uncontrollable (A, B). Returns K, the achieved poles and the closed-loop matrix Acl = A - BK.',
    parameters: {
      type: 'object',
      properties: {
        A: matrix('state matrix A (n x n)'),
        B: matrix('input matrix B (n x m)'),
        poles: complexList('the n desired closed-loop poles'),
        Ts: {
          ...sampleTime,
          description:
            'sample time (s) of a discrete model: the poles are then z-plane poles (the gain does not depend on it; the stability verdict does, |z| < 1)',
        },
      },
      required: ['A', 'B', 'poles'],
      additionalProperties: false,
    },
    run(args) {
      const A = checkMatrix(args.A, 'A');
      const n = checkSquare(A, 'A');
      const B = checkMatrix(args.B, 'B');
      if (B.length !== n) throw new ControlError(`B has ${B.length} rows but A is ${n}x${n}; B must have ${n} rows.`);
      if (!B[0]?.length) throw new ControlError('B has no columns: place needs at least one input.');
      if (!Array.isArray(args.poles)) throw new ControlError('poles must be a list of numbers or [re, im] pairs.');
      // entries beyond 1e±60 are refused as the other tools do: near 1e-308, K overflowed or
      // came out NaN; near 1e100, poles came out of order 1e84
      scaleGuard({ A, B, C: [[1]], D: [[0]], n, m: B[0].length, p: 1, Ts: 0 }, 'place');
      const r = place(A, B, args.poles);
      return { K: r.K, poles: r.poles, Acl: r.Acl };
    },
    intro: '**Pole placement.** The state feedback u = −Kx with eig(A − BK) at the requested poles.',
    render: feedbackRenderer('place'),
    code: GENERATORS.place,
    model: 'offered',
    plots: closedLoopPlots,
  }),
];
