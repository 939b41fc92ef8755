/**
 * Overflow-safe, bounded numerical kernels of the verifier. They never hang and never throw
 * anything but VerifierDidNotConverge (verify() reports it as a failed check with its reason):
 *   - eigenvalues: the matrix is first scaled by a power of 2 (exact) and balanced by a
 *     diagonal similarity of powers of 2 (exact, Parlett-Reinsch, written here and not the
 *     solvers' balance.ts), then EISPACK's orthes/hqr as JAMA has them (the algorithm of
 *     ml-matrix's EVD, independent of the solvers' linalg/schur.ts) ported here with an
 *     iteration cap: ml-matrix's EVD returned wrong eigenvalues for badly scaled matrices (a
 *     closed loop with entries 3e17 and 2e-17), its products overflowed to NaN with entries
 *     near 1e200, and its hqr2, which has no iteration cap, never returned on the
 *     skew-symmetric [[0,1,2],[-1,0,3],[-2,-3,0]];
 *   - singular values: Golub-Kahan-Reinsch as ml-matrix's SVD, ported with a power-of-2
 *     scaling and an iteration cap (ml-matrix's cycled forever on subnormal entries);
 *   - the matrix exponential: mathjs's algorithm (Moler-Van Loan Padé, ported to flat arrays in
 *     mathjsExpm); it refuses a matrix of large norm ("Could not find acceptable
 *     parameters"), so the scaling and squaring is done here around it; an exponential that
 *     overflows is null (the check then fails and says why) rather than NaN or a throw.
 */
import { Matrix as M } from 'ml-matrix';
import type { Complex, Matrix } from '../types.js';
import type { Check } from './index.js';

/** x·2^k without overflow or underflow of 2^k itself (k may be up to ±2100) */
/**
 * Each entry of `a` matched to its nearest still-unmatched entry of `b` (greedy, one to one, so
 * a value listed twice cannot stand for two), in a's order: the distances. b at least as long as a.
 */
export function matchedDistances(a: readonly Complex[], b: readonly Complex[]): number[] {
  const left = [...b];
  return a.map((z) => {
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
    return best;
  });
}

/** a number in a check's detail line: 3.1e-16 */
export function sci(x: number): string {
  return x === 0 ? '0' : x.toExponential(1).replace('e+', 'e').replace(/\.0e/, 'e');
}

/** a check passed when err ≤ tol, its detail ending in the error: "… (3.1e-16)" */
export function check(name: string, err: number, tol: number, what: string): Check {
  return { name, ok: err <= tol, value: err, detail: `${what} (${sci(err)})` };
}

/** a coefficient list without its leading zeros (the last coefficient kept) */
export const strip = (p: number[]) => {
  let i = 0;
  while (i < p.length - 1 && p[i] === 0) i++;
  return p.slice(i);
};

/** Π(s − rᵢ) for conjugate-closed roots [re, im]: real coefficients, highest power first */
export function polyFromRoots(roots: Complex[]): number[] {
  let re = [1],
    im = [0];
  for (const [a, b] of roots) {
    const nr = [...re, 0],
      ni = [...im, 0];
    for (let k = 0; k < re.length; k++) {
      nr[k + 1] -= a * re[k] - b * im[k];
      ni[k + 1] -= a * im[k] + b * re[k];
    }
    re = nr;
    im = ni;
  }
  return re;
}

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
  return balancing(A).A;
}

/** balanced(A) with its scaling: A_bal = D⁻¹AD, D = diag(d) (powers of 2) */
export function balancing(A: Matrix): { A: Matrix; d: number[] } {
  const n = A.length;
  const B = A.map((r) => r.slice());
  const d = new Array<number>(n).fill(1);
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
        d[i] *= f;
      }
    }
    if (done) break;
  }
  return { A: B, d };
}

/** thrown by the verifier's own kernels when they give up; verify() turns it into a failed check */
export class VerifierDidNotConverge extends Error {}

/**
 * Eigenvalues of a real square matrix by Householder reduction to Hessenberg form and the
 * Francis double-shift QR iteration, ported from EISPACK's orthes/hqr as JAMA (and so ml-matrix's
 * EVD) has them, with three changes: (1) an iteration cap of 30·max(10, n) per eigenvalue
 * (LAPACK's dlahqr: ITMAX), (2) the exceptional shift repeated every 10 iterations (JAMA makes
 * it at 10 and 30 only), and (3) a vanished bulge skips to the next column as EISPACK does
 * (JAMA breaks out of the sweep, which made no progress and cycled forever: the skew-symmetric
 * [[0,1,2],[-1,0,3],[-2,-3,0]] never returned). Null when the cap is reached or a number is not
 * finite. Written for the verifier, independent of the solvers' linalg/schur.ts.
 */
export function cappedEigenvalues(A: readonly (readonly number[])[]): Complex[] | null {
  const nn = A.length;
  if (nn === 0) return [];
  const H = A.map((r) => Array.from(r));
  // orthes: Householder reduction to upper Hessenberg form (no vectors kept)
  const ort = new Array<number>(nn).fill(0);
  for (let m = 1; m <= nn - 2; m++) {
    let scale = 0;
    for (let i = m; i < nn; i++) scale += Math.abs(H[i][m - 1]);
    if (scale === 0) continue;
    let h = 0;
    for (let i = nn - 1; i >= m; i--) {
      ort[i] = H[i][m - 1] / scale;
      h += ort[i] * ort[i];
    }
    let g = Math.sqrt(h);
    if (ort[m] > 0) g = -g;
    h -= ort[m] * g;
    ort[m] -= g;
    for (let j = m; j < nn; j++) {
      let f = 0;
      for (let i = nn - 1; i >= m; i--) f += ort[i] * H[i][j];
      f /= h;
      for (let i = m; i < nn; i++) H[i][j] -= f * ort[i];
    }
    for (let i = 0; i < nn; i++) {
      let f = 0;
      for (let j = nn - 1; j >= m; j--) f += ort[j] * H[i][j];
      f /= h;
      for (let j = m; j < nn; j++) H[i][j] -= f * ort[j];
    }
    H[m][m - 1] = scale * g;
    for (let i = m + 1; i < nn; i++) H[i][m - 1] = 0;
  }
  // hqr: eigenvalues of the Hessenberg matrix
  const d = new Array<number>(nn).fill(0);
  const e = new Array<number>(nn).fill(0);
  const eps = Number.EPSILON;
  const itmax = 30 * Math.max(10, nn);
  let norm = 0;
  for (let i = 0; i < nn; i++) for (let j = Math.max(i - 1, 0); j < nn; j++) norm += Math.abs(H[i][j]);
  if (!Number.isFinite(norm)) return null;
  let n = nn - 1;
  let exshift = 0;
  let iter = 0;
  let p = 0,
    q = 0,
    r = 0,
    s = 0,
    z = 0,
    w = 0,
    x = 0,
    y = 0;
  while (n >= 0) {
    let l = n;
    while (l > 0) {
      s = Math.abs(H[l - 1][l - 1]) + Math.abs(H[l][l]);
      if (s === 0) s = norm;
      if (Math.abs(H[l][l - 1]) <= eps * s) break; // EISPACK: tst1 + |h(l,l-1)| == tst1 (a zero matrix deflates)
      l--;
    }
    if (l === n) {
      d[n] = H[n][n] + exshift;
      e[n] = 0;
      n--;
      iter = 0;
    } else if (l === n - 1) {
      w = H[n][n - 1] * H[n - 1][n];
      p = (H[n - 1][n - 1] - H[n][n]) / 2;
      q = p * p + w;
      z = Math.sqrt(Math.abs(q));
      x = H[n][n] + exshift;
      if (q >= 0) {
        z = p >= 0 ? p + z : p - z;
        d[n - 1] = x + z;
        d[n] = z !== 0 ? x - w / z : x + z;
        e[n - 1] = 0;
        e[n] = 0;
      } else {
        d[n - 1] = x + p;
        d[n] = x + p;
        e[n - 1] = z;
        e[n] = -z;
      }
      n -= 2;
      iter = 0;
    } else {
      if (iter >= itmax) return null;
      x = H[n][n];
      y = H[n - 1][n - 1];
      w = H[n][n - 1] * H[n - 1][n];
      if (iter > 0 && iter % 10 === 0) {
        // exceptional shift (EISPACK's ad hoc one), every 10 iterations without a deflation
        exshift += x;
        for (let i = 0; i <= n; i++) H[i][i] -= x;
        s = Math.abs(H[n][n - 1]) + Math.abs(H[n - 1][n - 2]);
        x = y = 0.75 * s;
        w = -0.4375 * s * s;
        // every other time, a shift that is not a multiple of the subdiagonal sizes
        if (iter % 20 === 0) {
          x = y = 0.964 * s;
          w = -0.3125 * s * s;
        }
      }
      iter++;
      let m = n - 2;
      while (m >= l) {
        z = H[m][m];
        r = x - z;
        s = y - z;
        p = (r * s - w) / H[m + 1][m] + H[m][m + 1];
        q = H[m + 1][m + 1] - z - r - s;
        r = H[m + 2][m + 1];
        s = Math.abs(p) + Math.abs(q) + Math.abs(r);
        if (s === 0 || !Number.isFinite(s)) return null;
        p /= s;
        q /= s;
        r /= s;
        if (m === l) break;
        if (Math.abs(H[m][m - 1]) * (Math.abs(q) + Math.abs(r)) < eps * (Math.abs(p) * (Math.abs(H[m - 1][m - 1]) + Math.abs(z) + Math.abs(H[m + 1][m + 1]))))
          break;
        m--;
      }
      for (let i = m + 2; i <= n; i++) {
        H[i][i - 2] = 0;
        if (i > m + 2) H[i][i - 3] = 0;
      }
      for (let k = m; k <= n - 1; k++) {
        const notlast = k !== n - 1;
        if (k !== m) {
          p = H[k][k - 1];
          q = H[k + 1][k - 1];
          r = notlast ? H[k + 2][k - 1] : 0;
          x = Math.abs(p) + Math.abs(q) + Math.abs(r);
          if (x === 0) continue; // EISPACK: on to the next column (JAMA's break stalled)
          p /= x;
          q /= x;
          r /= x;
        }
        s = Math.sqrt(p * p + q * q + r * r);
        if (p < 0) s = -s;
        if (s === 0) continue;
        if (k !== m) H[k][k - 1] = -s * x;
        else if (l !== m) H[k][k - 1] = -H[k][k - 1];
        p += s;
        x = p / s;
        y = q / s;
        z = r / s;
        q /= p;
        r /= p;
        for (let j = k; j < nn; j++) {
          p = H[k][j] + q * H[k + 1][j];
          if (notlast) {
            p += r * H[k + 2][j];
            H[k + 2][j] -= p * z;
          }
          H[k][j] -= p * x;
          H[k + 1][j] -= p * y;
        }
        for (let i = 0; i <= Math.min(n, k + 3); i++) {
          p = x * H[i][k] + y * H[i][k + 1];
          if (notlast) {
            p += z * H[i][k + 2];
            H[i][k + 2] -= p * r;
          }
          H[i][k] -= p;
          H[i][k + 1] -= p * q;
        }
      }
    }
  }
  const out = d.map((re, i) => [re, e[i]] as Complex);
  return out.every(([re, im]) => Number.isFinite(re) && Number.isFinite(im)) ? out : null;
}

/** a fixed pseudo-random generator (the retries are reproducible) */
function lcg(seed: number): () => number {
  let st = seed >>> 0;
  return () => {
    st = (Math.imul(st, 1664525) + 1013904223) >>> 0;
    return st / 2 ** 32 - 0.5;
  };
}

/** D⁻¹Q'AQD for the Householder reflector Q = I − 2vv'/v'v of a pseudo-random v and a pseudo-random D (same spectrum up to rounding ε‖A‖) */
function reflected(A: Matrix, seed: number): Matrix {
  const n = A.length;
  const rnd = lcg(seed);
  const v = Array.from({ length: n }, () => rnd());
  const vv = v.reduce((s, x) => s + x * x, 0) || 1;
  // B = QA (rows), then BQ (columns); Q symmetric
  const B = A.map((r) => r.slice());
  for (let j = 0; j < n; j++) {
    let t = 0;
    for (let i = 0; i < n; i++) t += v[i] * B[i][j];
    t = (2 * t) / vv;
    for (let i = 0; i < n; i++) B[i][j] -= t * v[i];
  }
  for (let i = 0; i < n; i++) {
    let t = 0;
    for (let j = 0; j < n; j++) t += B[i][j] * v[j];
    t = (2 * t) / vv;
    for (let j = 0; j < n; j++) B[i][j] -= t * v[j];
  }
  // then a pseudo-random diagonal similarity by powers of 2 (exact): an orthogonal similarity
  // keeps a normal matrix normal (a skew-symmetric one skew, on which every QR step stays
  // skew and the double shift can cycle); D⁻¹BD is not, and costs at most a factor 4 in ‖·‖
  const dk = Array.from({ length: n }, () => Math.round(2 * rnd()));
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) B[i][j] = ldexp(B[i][j], dk[j] - dk[i]);
  return B;
}

/** how many random orthogonal similarities are tried after the plain iteration gives up */
const EIG_RETRIES = 3;

/**
 * Eigenvalues by the verifier's own capped port of EISPACK's hqr (JAMA's algorithm, as
 * ml-matrix's EVD, and independent of the solvers' QR), after an exact power-of-2 scaling and
 * balancing. If the iteration reaches its cap, it is run again on a few random similarities
 * D⁻¹Q'AQD (Q orthogonal, D diagonal of powers of 2: same eigenvalues); if all give up, VerifierDidNotConverge is thrown,
 * which verify() reports as a failed check ("the independent eigensolver did not converge"),
 * never a hang. A matrix with a non-finite entry has no eigenvalues to compare: NaN pairs, so
 * every check built on them fails (NaN compares false) instead of throwing.
 */
export function safeEigenvalues(A: Matrix): Complex[] {
  const n = A.length;
  if (n === 0) return [];
  if (!allFinite(A)) return Array.from({ length: n }, () => [NaN, NaN] as Complex);
  const k = scaleExponent(A);
  const As = balanced(scaled(A, -k));
  let ev = cappedEigenvalues(As);
  for (let t = 1; !ev && t <= EIG_RETRIES; t++) ev = cappedEigenvalues(reflected(As, 7919 * t));
  if (!ev) throw new VerifierDidNotConverge(`the independent eigensolver did not converge on this ${n}x${n} matrix`);
  return ev.map(([re, im]) => [ldexp(re, k), ldexp(im, k)] as Complex);
}

/**
 * Singular values (decreasing) by Golub-Kahan-Reinsch as JAMA/ml-matrix's SVD has it, values
 * only, with two changes: the matrix is first scaled by an exact power of 2 (ml-matrix's
 * convergence test, MIN_VALUE + ε·|s|, never held for subnormal entries and it cycled
 * forever), and an iteration cap (75 sweeps per singular value) after which
 * VerifierDidNotConverge is thrown (verify() reports it as a failed check). Non-finite
 * entries give NaN values (checks built on them fail).
 */
export function safeSingularValues(Ain: M | readonly (readonly number[])[]): number[] {
  let rows = (Ain instanceof M ? Ain.to2DArray() : Ain.map((r) => Array.from(r))) as number[][];
  if (rows.length === 0 || rows[0].length === 0) return [];
  if (rows.length < rows[0].length) rows = rows[0].map((_, j) => rows.map((r) => r[j]));
  const m = rows.length;
  const n = rows[0].length;
  if (!allFinite(rows)) return new Array<number>(n).fill(NaN);
  const k0 = scaleExponent(rows);
  const a = scaled(rows, -k0);
  const sv = gkrValues(a, m, n);
  if (!sv) throw new VerifierDidNotConverge(`the independent SVD did not converge on this ${m}x${n} matrix`);
  return sv.map((v) => ldexp(v, k0));
}

/** m ≥ n; null when the cap is reached */
function gkrValues(a: number[][], m: number, n: number): number[] | null {
  const nu = Math.min(m, n);
  const s = new Array<number>(Math.min(m + 1, n)).fill(0);
  const e = new Array<number>(n).fill(0);
  const work = new Array<number>(m).fill(0);
  const nct = Math.min(m - 1, n);
  const nrt = Math.max(0, Math.min(n - 2, m));
  for (let k = 0; k < Math.max(nct, nrt); k++) {
    if (k < nct) {
      s[k] = 0;
      for (let i = k; i < m; i++) s[k] = Math.hypot(s[k], a[i][k]);
      if (s[k] !== 0) {
        if (a[k][k] < 0) s[k] = -s[k];
        for (let i = k; i < m; i++) a[i][k] /= s[k];
        a[k][k] += 1;
      }
      s[k] = -s[k];
    }
    for (let j = k + 1; j < n; j++) {
      if (k < nct && s[k] !== 0) {
        let t = 0;
        for (let i = k; i < m; i++) t += a[i][k] * a[i][j];
        t = -t / a[k][k];
        for (let i = k; i < m; i++) a[i][j] += t * a[i][k];
      }
      e[j] = a[k][j];
    }
    if (k < nrt) {
      e[k] = 0;
      for (let i = k + 1; i < n; i++) e[k] = Math.hypot(e[k], e[i]);
      if (e[k] !== 0) {
        if (e[k + 1] < 0) e[k] = -e[k];
        for (let i = k + 1; i < n; i++) e[i] /= e[k];
        e[k + 1] += 1;
      }
      e[k] = -e[k];
      if (k + 1 < m && e[k] !== 0) {
        for (let i = k + 1; i < m; i++) work[i] = 0;
        for (let j = k + 1; j < n; j++) for (let i = k + 1; i < m; i++) work[i] += e[j] * a[i][j];
        for (let j = k + 1; j < n; j++) {
          const t = -e[j] / e[k + 1];
          for (let i = k + 1; i < m; i++) a[i][j] += t * work[i];
        }
      }
    }
  }
  let p = Math.min(n, m + 1);
  if (nct < n) s[nct] = a[nct][nct];
  if (m < p) s[p - 1] = 0;
  if (nrt + 1 < p) e[nrt] = a[nrt][p - 1];
  e[p - 1] = 0;
  const pp = p - 1;
  const eps = Number.EPSILON;
  const tiny = 2 ** -966;
  const cap = 75;
  let passes = 0;
  while (p > 0) {
    if (++passes > cap) return null;
    let k: number;
    let kase: number;
    for (k = p - 2; k >= -1; k--) {
      if (k === -1) break;
      if (Math.abs(e[k]) <= tiny + eps * (Math.abs(s[k]) + Math.abs(s[k + 1])) || Number.isNaN(e[k])) {
        e[k] = 0;
        break;
      }
    }
    if (k === p - 2) kase = 4;
    else {
      let ks: number;
      for (ks = p - 1; ks >= k; ks--) {
        if (ks === k) break;
        const t = (ks !== p ? Math.abs(e[ks]) : 0) + (ks !== k + 1 ? Math.abs(e[ks - 1]) : 0);
        if (Math.abs(s[ks]) <= tiny + eps * t) {
          s[ks] = 0;
          break;
        }
      }
      if (ks === k) kase = 3;
      else if (ks === p - 1) kase = 1;
      else {
        kase = 2;
        k = ks;
      }
    }
    k++;
    if (kase === 1) {
      let f = e[p - 2];
      e[p - 2] = 0;
      for (let j = p - 2; j >= k; j--) {
        const t = Math.hypot(s[j], f);
        const cs = s[j] / t;
        const sn = f / t;
        s[j] = t;
        if (j !== k) {
          f = -sn * e[j - 1];
          e[j - 1] = cs * e[j - 1];
        }
      }
    } else if (kase === 2) {
      let f = e[k - 1];
      e[k - 1] = 0;
      for (let j = k; j < p; j++) {
        const t = Math.hypot(s[j], f);
        const cs = s[j] / t;
        const sn = f / t;
        s[j] = t;
        f = -sn * e[j];
        e[j] = cs * e[j];
      }
    } else if (kase === 3) {
      const scale = Math.max(Math.abs(s[p - 1]), Math.abs(s[p - 2]), Math.abs(e[p - 2]), Math.abs(s[k]), Math.abs(e[k]));
      const sp = s[p - 1] / scale;
      const spm1 = s[p - 2] / scale;
      const epm1 = e[p - 2] / scale;
      const sk = s[k] / scale;
      const ek = e[k] / scale;
      const b = ((spm1 + sp) * (spm1 - sp) + epm1 * epm1) / 2;
      const c = sp * epm1 * (sp * epm1);
      let shift = 0;
      if (b !== 0 || c !== 0) {
        shift = Math.sqrt(b * b + c);
        if (b < 0) shift = -shift;
        shift = c / (b + shift);
      }
      let f = (sk + sp) * (sk - sp) + shift;
      let g = sk * ek;
      for (let j = k; j < p - 1; j++) {
        let t = Math.hypot(f, g) || Number.MIN_VALUE;
        let cs = f / t;
        let sn = g / t;
        if (j !== k) e[j - 1] = t;
        f = cs * s[j] + sn * e[j];
        e[j] = cs * e[j] - sn * s[j];
        g = sn * s[j + 1];
        s[j + 1] = cs * s[j + 1];
        t = Math.hypot(f, g) || Number.MIN_VALUE;
        cs = f / t;
        sn = g / t;
        s[j] = t;
        f = cs * e[j] + sn * s[j + 1];
        s[j + 1] = -sn * e[j] + cs * s[j + 1];
        g = sn * e[j + 1];
        e[j + 1] = cs * e[j + 1];
      }
      e[p - 2] = f;
    } else {
      if (s[k] <= 0) s[k] = s[k] < 0 ? -s[k] : 0;
      while (k < pp && s[k] < s[k + 1]) {
        const t = s[k];
        s[k] = s[k + 1];
        s[k + 1] = t;
        k++;
      }
      passes = 0;
      p--;
    }
  }
  return s.slice(0, nu);
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
    E = mathjsExpm(scaled(Mt, -s));
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

/** a/b for complex a = (ar, ai), b = (br, bi) by Smith's method (no |b|² to overflow) */
function smithDiv(ar: number, ai: number, br: number, bi: number, out: Float64Array, at: number): void {
  if (Math.abs(br) >= Math.abs(bi)) {
    const r = bi / br,
      t = br + bi * r;
    out[at] = (ar + ai * r) / t;
    out[at + 1] = (ai - ar * r) / t;
  } else {
    const r = br / bi,
      t = br * r + bi;
    out[at] = (ar * r + ai) / t;
    out[at + 1] = (ai * r - ar) / t;
  }
}

/**
 * X = M⁻¹B for a complex n x n M (row-major real and imaginary parts, overwritten) and an
 * n x m B (likewise, overwritten by X): Gaussian elimination with partial pivoting on the
 * largest modulus, complex quotients by Smith's method (entries near 1e200 do not overflow).
 * Written here, on flat arrays, for the verifier's H(s) = C(sI − A)⁻¹B + D: the real 2n
 * embedding through ml-matrix's LU did 8x the arithmetic through its accessors (16 such solves
 * of a 256 x 256 tustin check took 0.5 s at n = 128). Throws when a pivot is exactly zero
 * (M singular), as ml-matrix's solve did.
 */
export function complexSolve(Mr: Float64Array, Mi: Float64Array, n: number, Br: Float64Array, Bi: Float64Array, m: number): void {
  const q = new Float64Array(2);
  for (let k = 0; k < n; k++) {
    // pivot: the largest |M(i, k)| for i >= k (hypot: no overflow of the comparison)
    let p = k;
    let big = -1;
    for (let i = k; i < n; i++) {
      const a = Math.hypot(Mr[i * n + k], Mi[i * n + k]);
      if (a > big) {
        big = a;
        p = i;
      }
    }
    if (!(big > 0)) throw new Error('the matrix sI − A is singular');
    if (p !== k) {
      for (let j = 0; j < n; j++) {
        let t = Mr[k * n + j];
        Mr[k * n + j] = Mr[p * n + j];
        Mr[p * n + j] = t;
        t = Mi[k * n + j];
        Mi[k * n + j] = Mi[p * n + j];
        Mi[p * n + j] = t;
      }
      for (let j = 0; j < m; j++) {
        let t = Br[k * m + j];
        Br[k * m + j] = Br[p * m + j];
        Br[p * m + j] = t;
        t = Bi[k * m + j];
        Bi[k * m + j] = Bi[p * m + j];
        Bi[p * m + j] = t;
      }
    }
    const pr = Mr[k * n + k],
      pi = Mi[k * n + k];
    for (let i = k + 1; i < n; i++) {
      const ar = Mr[i * n + k],
        ai = Mi[i * n + k];
      if (ar === 0 && ai === 0) continue;
      smithDiv(ar, ai, pr, pi, q, 0);
      const lr = q[0],
        li = q[1];
      Mr[i * n + k] = 0;
      Mi[i * n + k] = 0;
      const ri = i * n,
        rk = k * n;
      for (let j = k + 1; j < n; j++) {
        const ur = Mr[rk + j],
          ui = Mi[rk + j];
        Mr[ri + j] -= lr * ur - li * ui;
        Mi[ri + j] -= lr * ui + li * ur;
      }
      const bi = i * m,
        bk = k * m;
      for (let j = 0; j < m; j++) {
        const ur = Br[bk + j],
          ui = Bi[bk + j];
        Br[bi + j] -= lr * ur - li * ui;
        Bi[bi + j] -= lr * ui + li * ur;
      }
    }
  }
  // back substitution, U upper triangular
  for (let k = n - 1; k >= 0; k--) {
    const pr = Mr[k * n + k],
      pi = Mi[k * n + k];
    for (let j = 0; j < m; j++) {
      let sr = Br[k * m + j],
        si = Bi[k * m + j];
      for (let l = k + 1; l < n; l++) {
        const ur = Mr[k * n + l],
          ui = Mi[k * n + l];
        const xr = Br[l * m + j],
          xi = Bi[l * m + j];
        sr -= ur * xr - ui * xi;
        si -= ur * xi + ui * xr;
      }
      smithDiv(sr, si, pr, pi, q, 0);
      Br[k * m + j] = q[0];
      Bi[k * m + j] = q[1];
    }
  }
}

/** C = A·B, n x n, row-major */
function mulSq(A: Float64Array, B: Float64Array, n: number): Float64Array {
  const C = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let k = 0; k < n; k++) {
      const a = A[i * n + k];
      if (a === 0) continue;
      const bk = k * n,
        ci = i * n;
      for (let j = 0; j < n; j++) C[ci + j] += a * B[bk + j];
    }
  return C;
}

/**
 * e^A by mathjs's expm algorithm (Moler and Van Loan's diagonal Padé approximant R_qq of the
 * smallest cost q + j whose error estimate 8 (‖A‖∞/2^j)^2q (q!)² / ((2q)!(2q+1)!) is below
 * 1e-15, on A/2^j, as D⁻¹N with D inverted by Gauss-Jordan elimination with partial
 * pivoting, then j squarings), ported to flat arrays: through mathjs's typed scalar
 * functions it took 0.1-0.5 s at n = 128 to 200, most of a c2d check. The same steps and
 * parameters, so still a route of its own beside the solvers' Higham degree-13 Padé with an
 * LU solve. Throws as mathjs did (no parameters within 30 terms, a singular D).
 */
export function mathjsExpm(Ain: Matrix): number[][] {
  const n = Ain.length;
  let inf = 0;
  for (const row of Ain)
    inf = Math.max(
      inf,
      row.reduce((s, v) => s + Math.abs(v), 0),
    );
  const est = (q: number, j: number) => {
    let qf = 1;
    for (let i = 2; i <= q; i++) qf *= i;
    let tqf = qf;
    for (let i = q + 1; i <= 2 * q; i++) tqf *= i;
    return (8 * Math.pow(inf / Math.pow(2, j), 2 * q) * qf * qf) / (tqf * (tqf * (2 * q + 1)));
  };
  let q = -1,
    j = 0;
  search: for (let k = 0; k < 30; k++)
    for (let qq = 0; qq <= k; qq++)
      if (est(qq, k - qq) < 1e-15) {
        q = qq;
        j = k - qq;
        break search;
      }
  if (q < 0) throw new Error('Could not find acceptable parameters to compute the matrix exponential');
  const s = Math.pow(2, -j);
  const Ap = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let c = 0; c < n; c++) Ap[i * n + c] = Ain[i][c] * s;
  const N = new Float64Array(n * n),
    D = new Float64Array(n * n);
  for (let i = 0; i < n; i++) N[i * n + i] = D[i * n + i] = 1;
  let factor = 1;
  let P: Float64Array = Ap;
  let alt = -1;
  for (let i = 1; i <= q; i++) {
    if (i > 1) {
      P = mulSq(P, Ap, n);
      alt = -alt;
    }
    factor = (factor * (q - i + 1)) / ((2 * q - i + 1) * i);
    const fd = factor * alt;
    for (let k = 0; k < n * n; k++) {
      N[k] += factor * P[k];
      D[k] += fd * P[k];
    }
  }
  // D⁻¹ by Gauss-Jordan with partial pivoting (mathjs inv; 1x1 and 2x2 by formula there)
  let Dinv: Float64Array;
  if (n === 1) {
    if (D[0] === 0) throw new Error('Cannot calculate inverse, determinant is zero');
    Dinv = new Float64Array([1 / D[0]]);
  } else if (n === 2) {
    const d = D[0] * D[3] - D[1] * D[2];
    if (d === 0) throw new Error('Cannot calculate inverse, determinant is zero');
    Dinv = new Float64Array([D[3] / d, -D[1] / d, -D[2] / d, D[0] / d]);
  } else {
    const A = D;
    const B = new Float64Array(n * n);
    for (let i = 0; i < n; i++) B[i * n + i] = 1;
    const swap = (X: Float64Array, r1: number, r2: number) => {
      for (let c = 0; c < n; c++) {
        const t = X[r1 * n + c];
        X[r1 * n + c] = X[r2 * n + c];
        X[r2 * n + c] = t;
      }
    };
    for (let c = 0; c < n; c++) {
      let big = Math.abs(A[c * n + c]);
      let rb = c;
      for (let r = c + 1; r < n; r++)
        if (Math.abs(A[r * n + c]) > big) {
          big = Math.abs(A[r * n + c]);
          rb = r;
        }
      if (big === 0) throw new Error('Cannot calculate inverse, determinant is zero');
      if (rb !== c) {
        swap(A, c, rb);
        swap(B, c, rb);
      }
      const ac = c * n;
      for (let r = 0; r < n; r++) {
        const ar = r * n;
        if (r !== c) {
          if (A[ar + c] !== 0) {
            const f = -A[ar + c] / A[ac + c];
            for (let x = c; x < n; x++) A[ar + x] += f * A[ac + x];
            for (let x = 0; x < n; x++) B[ar + x] += f * B[ac + x];
          }
        } else {
          const f = A[ac + c];
          for (let x = c; x < n; x++) A[ar + x] /= f;
          for (let x = 0; x < n; x++) B[ar + x] /= f;
        }
      }
    }
    Dinv = B;
  }
  let R = mulSq(Dinv, N, n);
  for (let k = 0; k < j; k++) R = mulSq(R, R, n);
  return Array.from({ length: n }, (_, i) => Array.from(R.subarray(i * n, (i + 1) * n)));
}
