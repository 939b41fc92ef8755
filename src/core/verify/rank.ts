/**
 * Rank checks of a controllability (or, as its dual, observability) pair, by routes the
 * solvers do not take: the Krylov matrix of the scaled pair and its SVD, else block Arnoldi,
 * else the PBH test at each eigenvalue. Apart from index.ts so that the per-topic checkers
 * (interconnect.ts) use them without importing the table of checks that imports them.
 */
import { Matrix as M } from 'ml-matrix';
import type { Matrix } from '../types.js';
import type { Check } from './index.js';
import { balancing, froNorm, safeEigenvalues, safeSingularValues, scaled, scaleExponent, sci } from './numeric.js';

const mat = (A: Matrix) => new M(A);
export function rankCheck(matrix: unknown, reported: unknown): Check[] {
  if (!Array.isArray(matrix) || typeof reported !== 'number') return [];
  // no states: the controllability/observability matrix is empty, and its rank is 0 of 0
  if (!(matrix as Matrix).some((r) => r.length))
    return [{ name: 'rank', ok: reported === 0, value: 0, detail: 'rank 0 of 0 (an empty matrix: the model has no states)' }];
  const Mx = mat(matrix as Matrix);
  const sv = safeSingularValues(Mx);
  const tol = Math.max(Mx.rows, Mx.columns) * Number.EPSILON * (sv[0] ?? 0);
  const rank = sv.filter((x) => x > tol).length;
  // how clear the decision was (information in the detail, not a check that cannot fail):
  // smallest kept and largest dropped singular value against the tolerance
  const kept = rank > 0 ? sv[rank - 1] / Math.max(tol, 1e-300) : Infinity;
  const dropped = rank < sv.length ? sv[rank] / Math.max(tol, 1e-300) : 0;
  const margin = `smallest kept singular value ${sci(kept)}× the tolerance${rank < sv.length ? `, largest dropped ${sci(dropped)}×` : ''}`;
  return [{ name: 'rank', ok: rank === reported, value: rank, detail: `rank ${rank} by an independent SVD (${margin})` }];
}

/**
 * The pair whose controllability the rank decision is about, scaled: (A, B), or for
 * observability the dual (A', C') (the same rank: [C; CA; …] is [C', A'C', …] transposed).
 * A balanced by powers of 2 (D⁻¹AD, B → D⁻¹B) and divided by a power of 2 near its norm, so
 * the Krylov columns AᵏB shrink or grow by O(1) per power, not by ‖A‖ (a companion pair scaled
 * by 1e30 has det[B, AB] ≠ 0 but an SVD of the raw matrix calls it rank 1); B divided by a
 * power of 2 near its norm. Every scaling is exact.
 */
export function scaledPair(A: Matrix, BC: Matrix, dual: boolean): { As: Matrix; Xs: Matrix } {
  const At = dual ? A[0].map((_, j) => A.map((r) => r[j])) : A;
  const X = dual ? BC[0].map((_, j) => BC.map((r) => r[j])) : BC;
  const { A: Ab, d } = balancing(At);
  const As = scaled(Ab, -scaleExponent(Ab));
  const X0 = X.map((r, i) => r.map((v) => v / d[i]));
  return { As, Xs: scaled(X0, -scaleExponent(X0)) };
}

/** [Xs, As·Xs, …, Asⁿ⁻¹·Xs] of a scaled pair */
export function scaledKrylov({ As, Xs }: { As: Matrix; Xs: Matrix }): Matrix {
  const a = mat(As);
  const blocks: M[] = [mat(Xs)];
  for (let i = 1; i < As.length; i++) blocks.push(a.mmul(blocks[i - 1]));
  return As.map((_, i) => blocks.flatMap((b) => b.getRow(i)));
}

/**
 * The dimension of the controllable subspace by block Arnoldi: orthonormalise the columns of
 * B, then A times each new basis vector, with Gram-Schmidt twice (CGS2) against everything
 * kept, keeping a vector whose remaining norm exceeds n²·ε (the pair scaled to norm ~1, the
 * staircase's tolerance). A second route to the rank that, unlike [B, AB, …], never forms
 * powers of A (a stiff or large model's Krylov matrix has columns of sizes 1e±k), written
 * here with plain arrays: Gram-Schmidt where the solvers' staircase uses Householder.
 */
function arnoldiRank(As: Matrix, Xs: Matrix): number {
  const n = As.length;
  const tol = n * n * Number.EPSILON * Math.max(froNorm(As), froNorm(Xs), 1e-300);
  const Q: number[][] = [];
  let level: number[][] = (Xs[0] ?? []).map((_, j) => Xs.map((r) => r[j]));
  while (level.length && Q.length < n) {
    const kept: number[][] = [];
    for (const v of level) {
      const w = v.slice();
      for (let pass = 0; pass < 2; pass++)
        for (const q of Q) {
          let dot = 0;
          for (let i = 0; i < n; i++) dot += q[i] * w[i];
          for (let i = 0; i < n; i++) w[i] -= dot * q[i];
        }
      const nrm = Math.hypot(...w);
      if (nrm > tol && Q.length < n) {
        const q = w.map((x) => x / nrm);
        Q.push(q);
        kept.push(q);
      }
    }
    level = kept.map((q) => As.map((row) => row.reduce((acc, a, j) => acc + a * q[j], 0)));
  }
  return Q.length;
}

/** PBH on models up to this many states (an SVD per eigenvalue: O(n⁴)) */
const PBH_MAX_N = 40;

/**
 * The Popov-Belevitch-Hautus test, the second route where the Krylov matrix's SVD and the
 * reported rank disagree: the columns AᵏB grow like ‖A‖ᵏ, so a stiff model's Krylov matrix
 * has singular values below the rounding of its largest although the pair is controllable. At
 * each eigenvalue λ of A (the verifier's eigensolver), σmin([A − λI, B]) (dual: [A − λI; C])
 * relative to ‖[A, B]‖ says whether that mode is uncontrollable: clearly (≤ 1e3·n·ε), clearly
 * not (≥ 1e-8), or in between. Returns the counts, or undefined above PBH_MAX_N states.
 */
function pbhCounts({ As, Xs }: { As: Matrix; Xs: Matrix }): { clear: number; unsure: number } | undefined {
  const n = As.length;
  if (n > PBH_MAX_N) return undefined;
  const norm = Math.max(froNorm(As), froNorm(Xs), 1e-300);
  let clear = 0,
    unsure = 0;
  for (const [re, im] of safeEigenvalues(As)) {
    if (im < 0) continue;
    const k = Xs[0]?.length ?? 0;
    // the real form [[R, −J], [J, R]] of the complex matrix R + iJ = [A − λI, B]
    const R = (i: number, j: number) => (j < n ? As[i][j] - (i === j ? re : 0) : Xs[i][j - n]);
    const big = new M(2 * n, 2 * (n + k));
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n + k; j++) {
        const J = i === j ? -im : 0;
        big.set(i, j, R(i, j));
        big.set(n + i, n + k + j, R(i, j));
        big.set(i, n + k + j, -J);
        big.set(n + i, j, J);
      }
    const sv = safeSingularValues(big);
    const rel = sv[2 * n - 1] / norm;
    const mult = im > 0 ? 2 : 1;
    if (rel <= 1e3 * n * Number.EPSILON) clear += mult;
    else if (rel < 1e-8) unsure += mult;
  }
  return { clear, unsure };
}

/**
 * The rank of (A, B) (dual: (A, C)): the SVD of the scaled Krylov matrix, and where that does
 * not give the reported rank, the PBH test, which passes the reported rank when its count of
 * uncontrollable modes allows it.
 */
export function pairRankCheck(A: Matrix, BC: Matrix, dual: boolean, reported: unknown): Check {
  const n = A.length;
  const pair = n ? scaledPair(A, BC, dual) : undefined;
  const [rk] = rankCheck(pair ? scaledKrylov(pair) : [], reported);
  if (!rk || rk.ok || typeof reported !== 'number' || !pair) return rk;
  // second route: block Arnoldi on the same scaled pair
  const ar = arnoldiRank(pair.As, pair.Xs);
  if (ar === reported)
    return {
      name: 'rank',
      ok: true,
      value: reported,
      detail: `${rk.detail}; the Krylov matrix is ill-conditioned, and an orthogonal (Arnoldi) basis of the same space has dimension ${ar}`,
    };
  const pbh = pbhCounts(pair);
  if (!pbh) return { ...rk, detail: `${rk.detail}; an orthogonal (Arnoldi) basis of the same space has dimension ${ar}` };
  const missing = n - reported;
  const ok = missing >= pbh.clear && missing <= pbh.clear + pbh.unsure;
  const what = dual ? 'unobservable' : 'uncontrollable';
  return {
    name: 'rank',
    ok,
    value: reported,
    detail: `${rk.detail}; the Krylov matrix is ill-conditioned, and the PBH test at each eigenvalue finds ${pbh.clear} clearly ${what} mode${pbh.clear === 1 ? '' : 's'}${pbh.unsure ? ` and ${pbh.unsure} undecided` : ''}, ${ok ? 'consistent with' : 'not'} rank ${reported}`,
  };
}
