/**
 * Overflow-safe numerical kernels of the verifier. They wrap the independent libraries
 * (ml-matrix's EVD, mathjs's expm) so that a check can always run and never hangs or throws:
 *   - eigenvalues: the matrix is first scaled by a power of 2 (exact) and balanced by a
 *     diagonal similarity of powers of 2 (exact, Parlett-Reinsch, written here and not the
 *     solvers' balance.ts); ml-matrix's EVD (JAMA's hqr2) does neither, so it returned wrong
 *     eigenvalues for badly scaled matrices (a closed loop with entries 3e17 and 2e-17), and
 *     with entries near 1e200 its products overflowed to NaN and hqr2, which has no iteration
 *     cap, never returned;
 *   - the matrix exponential: mathjs refuses a matrix of large norm ("Could not find acceptable
 *     parameters"), so the scaling and squaring is done here around it; an exponential that
 *     overflows is null (the check then fails and says why) rather than NaN or a throw.
 */
import { EigenvalueDecomposition, Matrix as M } from 'ml-matrix';
import { expm as mjExpm, matrix as mjMatrix } from 'mathjs';
import type { Complex, Matrix } from '../types.js';

/** x·2^k without overflow or underflow of 2^k itself (k may be up to ±2100) */
export function ldexp(x: number, k: number): number {
  while (k > 1000) {
    x *= 2 ** 1000;
    k -= 1000;
  }
  while (k < -1000) {
    x *= 2 ** -1000;
    k += 1000;
  }
  return x * 2 ** k;
}

/** the exponent k with 2^k nearest the largest |entry| (0 for a zero or empty matrix) */
export function scaleExponent(A: readonly (readonly number[])[]): number {
  let mx = 0;
  for (const row of A) for (const v of row) mx = Math.max(mx, Math.abs(v));
  return mx > 0 && Number.isFinite(mx) ? Math.round(Math.log2(mx)) : 0;
}

/**
 * Frobenius norm by a scaled sum of squares (ml-matrix's squares entries directly: 1e200
 * overflowed to Infinity, 1e-200 vanished to 0, and a ratio of the two was NaN)
 */
export function froNorm(A: M | readonly (readonly number[])[]): number {
  const rows = A instanceof M ? A.to2DArray() : A;
  let sc = 0;
  let ss = 1;
  for (const r of rows)
    for (const v of r) {
      if (v === 0) continue;
      const a = Math.abs(v);
      if (!(a <= Number.MAX_VALUE)) return a === Infinity ? Infinity : NaN;
      if (sc < a) {
        ss = 1 + ss * (sc / a) * (sc / a);
        sc = a;
      } else ss += (a / sc) * (a / sc);
    }
  return sc * Math.sqrt(ss);
}

export function allFinite(A: unknown): boolean {
  if (typeof A === 'number') return Number.isFinite(A);
  if (Array.isArray(A)) return A.every(allFinite);
  return true;
}

/** A·2^k, entrywise (exact unless an entry leaves the normal range) */
export function scaled(A: Matrix, k: number): Matrix {
  return A.map((row) => row.map((v) => ldexp(v, k)));
}

/**
 * Balancing by a diagonal similarity D⁻¹AD with powers of 2 (Parlett-Reinsch, as EISPACK's
 * balanc without permutations): eigenvalues unchanged exactly, row and column norms evened,
 * so the eigensolver's backward error ε‖D⁻¹AD‖ is far smaller than ε‖A‖ for badly scaled A.
 */
export function balanced(A: Matrix): Matrix {
  const n = A.length;
  const B = A.map((r) => r.slice());
  for (let sweep = 0; sweep < 100; sweep++) {
    let done = true;
    for (let i = 0; i < n; i++) {
      let c = 0;
      let r = 0;
      for (let j = 0; j < n; j++)
        if (j !== i) {
          c += Math.abs(B[j][i]);
          r += Math.abs(B[i][j]);
        }
      if (c === 0 || r === 0 || !Number.isFinite(c + r)) continue;
      const s = c + r;
      let f = 1;
      let g = r / 2;
      while (c < g && f < 2 ** 500) {
        f *= 2;
        c *= 4;
      }
      g = r * 2;
      while (c >= g && f > 2 ** -500) {
        f /= 2;
        c /= 4;
      }
      if ((c + r) / f < 0.95 * s) {
        done = false;
        for (let j = 0; j < n; j++) B[i][j] /= f;
        for (let j = 0; j < n; j++) B[j][i] *= f;
      }
    }
    if (done) break;
  }
  return B;
}

/**
 * Eigenvalues by ml-matrix's EVD (independent of the solvers' QR), after an exact power-of-2
 * scaling and balancing. A matrix with a non-finite entry has no eigenvalues to compare:
 * NaN pairs, so every check built on them fails (NaN compares false) instead of throwing.
 */
export function safeEigenvalues(A: Matrix): Complex[] {
  const n = A.length;
  if (n === 0) return [];
  if (!allFinite(A)) return Array.from({ length: n }, () => [NaN, NaN] as Complex);
  const k = scaleExponent(A);
  const As = balanced(scaled(A, -k));
  const e = new EigenvalueDecomposition(new M(As), { assumeSymmetric: false });
  return e.realEigenvalues.map((re, i) => [ldexp(re, k), ldexp(e.imaginaryEigenvalues[i], k)] as Complex);
}

/**
 * e^{Mt} by mathjs's Padé on M·t/2^s (‖M·t/2^s‖₁ ≤ 1) and s squarings here. Null when M·t
 * or the exponential is not finite in double precision (t·‖M‖ or e^{Mt} overflows), so the
 * check that needs it can say so.
 */
export function safeExpm(Mx: Matrix, t: number): number[][] | null {
  const n = Mx.length;
  if (n === 0) return [];
  const Mt = Mx.map((r) => r.map((v) => v * t));
  if (!allFinite(Mt)) return null;
  let nrm = 0;
  for (let j = 0; j < n; j++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += Math.abs(Mt[i][j]);
    nrm = Math.max(nrm, s);
  }
  if (!Number.isFinite(nrm)) return null;
  const s = nrm > 1 ? Math.ceil(Math.log2(nrm)) : 0;
  let E: number[][];
  try {
    E = (mjExpm(mjMatrix(scaled(Mt, -s))) as unknown as { toArray(): number[][] }).toArray();
  } catch {
    return null;
  }
  let R = new M(E);
  for (let k = 0; k < s; k++) {
    R = R.mmul(R);
    // once an entry overflows the rest is NaN: stop early
    if (!allFinite(R.to2DArray())) return null;
  }
  const out = R.to2DArray();
  return allFinite(out) ? out : null;
}
