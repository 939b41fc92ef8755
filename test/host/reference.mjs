// Reference values for the host tests, computed here independently of the code under test.
// (Imported by run.mjs in Node and bundled into the in-host suite.)

/**
 * Continuous LQR gain for a 2-state companion system, in closed form.
 *
 *   A = [0 1; -a0 -a1], B = [0; 1], Q = diag(q1, q2), R = r > 0.
 *
 * With P = [p1 p2; p2 p3] the CARE  A'P + PA - P B R^-1 B' P + Q = 0  reads, entry by entry:
 *   (1,1)  -2 a0 p2 - p2^2 / r + q1 = 0            =>  p2 = r (-a0 + sqrt(a0^2 + q1 / r))
 *   (2,2)  2 p2 - 2 a1 p3 - p3^2 / r + q2 = 0      =>  p3 = r (-a1 + sqrt(a1^2 + (2 p2 + q2) / r))
 *   (1,2)  p1 - a0 p3 - a1 p2 - p2 p3 / r = 0      =>  p1 = a0 p3 + a1 p2 + p2 p3 / r
 * taking the roots that make P positive definite (the stabilising solution), and
 * K = R^-1 B' P = [p2, p3] / r.
 *
 * For A = [0 1; -2 -3] (a0 = 2, a1 = 3), Q = I, R = 1:
 *   p2 = -2 + sqrt(5) = 0.2360680,  p3 = -3 + sqrt(9 + 1 + 2 p2) = 0.2360680,
 * so K = [0.236068, 0.236068] (SciPy's solve_continuous_are agrees to 1e-15).
 */
export function lqrCompanion2({ a0, a1, q1 = 1, q2 = 1, r = 1 }) {
  const p2 = r * (-a0 + Math.sqrt(a0 * a0 + q1 / r));
  const p3 = r * (-a1 + Math.sqrt(a1 * a1 + (2 * p2 + q2) / r));
  const p1 = a0 * p3 + a1 * p2 + (p2 * p3) / r;
  if (!(p1 > 0 && p1 * p3 - p2 * p2 > 0)) throw new Error('reference LQR: P not positive definite');
  return {
    K: [p2 / r, p3 / r],
    P: [
      [p1, p2],
      [p2, p3],
    ],
  };
}

/** The inverted-pendulum model in examples/workspace/pendulum.m. */
export const PENDULUM = {
  A: [
    [0, 1, 0, 0],
    [0, -0.1818, 2.6727, 0],
    [0, 0, 0, 1],
    [0, -0.4545, 31.1818, 0],
  ],
  B: [[0], [1.8182], [0], [4.5455]],
};

/**
 * Eigenvalues of PENDULUM.A. Column 1 of A is zero, so 0 is one; the others are the roots of
 * the lower-right block's characteristic polynomial s^3 - a s^2 - d s + (a d - b c) with
 * a = A22, b = A23, c = A42, d = A43, found here by bisection on brackets read off its sign
 * changes (computed, not copied: numpy.linalg.eigvals gives 0, -0.142818, -5.604090, 5.565108).
 */
export function pendulumEigenvalues() {
  const a = PENDULUM.A[1][1],
    b = PENDULUM.A[1][2],
    c = PENDULUM.A[3][1],
    d = PENDULUM.A[3][2];
  const p = (s) => s ** 3 - a * s * s - d * s + (a * d - b * c);
  const root = (lo, hi) => {
    if (Math.sign(p(lo)) === Math.sign(p(hi))) throw new Error(`no sign change in [${lo}, ${hi}]`);
    for (let i = 0; i < 200; i++) {
      const mid = (lo + hi) / 2;
      if (Math.sign(p(mid)) === Math.sign(p(lo))) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  };
  return [0, root(-10, -1), root(-1, -0.01), root(1, 10)].sort((x, y) => x - y);
}

/** Numerical rank by Gaussian elimination with partial pivoting. */
export function rank(M, tol = 1e-9) {
  const R = M.map((row) => row.slice());
  const m = R.length,
    n = R[0].length;
  let r = 0;
  for (let col = 0; col < n && r < m; col++) {
    let piv = r;
    for (let i = r + 1; i < m; i++) if (Math.abs(R[i][col]) > Math.abs(R[piv][col])) piv = i;
    if (Math.abs(R[piv][col]) <= tol) continue;
    [R[r], R[piv]] = [R[piv], R[r]];
    for (let i = r + 1; i < m; i++) {
      const f = R[i][col] / R[r][col];
      for (let j = col; j < n; j++) R[i][j] -= f * R[r][j];
    }
    r++;
  }
  return r;
}

/** Rank of [B, AB, A^2 B, ..., A^(n-1) B]. */
export function controllabilityRank(A, B) {
  const n = A.length;
  const mul = (X, Y) => X.map((row) => Y[0].map((_, j) => row.reduce((s, x, k) => s + x * Y[k][j], 0)));
  const blocks = [B];
  for (let i = 1; i < n; i++) blocks.push(mul(A, blocks[i - 1]));
  const C = A.map((_, i) => blocks.flatMap((blk) => blk[i]));
  return rank(C);
}

/** All numbers in a piece of rendered text (accepts U+2212 minus and exponents). */
export function numbersIn(text) {
  return [...text.replace(/\u2212/g, '-').matchAll(/-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g)].map((m) => Number(m[0]));
}

export function close(x, ref, rel) {
  return Math.abs(x - ref) <= rel * Math.max(Math.abs(ref), 1e-12);
}

/**
 * Hankel singular values of the diagonal model ẋ = diag(λ) x + 1·u, y = 1ᵀx (λ < 0): both
 * Gramians are the Cauchy matrix W_ij = −1/(λi + λj) (A W + W A + 1·1ᵀ = 0, entry by entry),
 * so σ = eig(Wc·Wo)^½ = eig(W), found here by cyclic Jacobi rotations (symmetric W).
 */
export function hankelOfDiagonal(lambdas) {
  const n = lambdas.length;
  const W = lambdas.map((a) => lambdas.map((b) => -1 / (a + b)));
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += W[p][q] ** 2;
    if (off < 1e-30) break;
    for (let p = 0; p < n; p++)
      for (let q = p + 1; q < n; q++) {
        if (Math.abs(W[p][q]) < 1e-300) continue;
        const theta = (W[q][q] - W[p][p]) / (2 * W[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1),
          s = t * c;
        for (let k = 0; k < n; k++) {
          const wkp = W[k][p],
            wkq = W[k][q];
          W[k][p] = c * wkp - s * wkq;
          W[k][q] = s * wkp + c * wkq;
        }
        for (let k = 0; k < n; k++) {
          const wpk = W[p][k],
            wqk = W[q][k];
          W[p][k] = c * wpk - s * wqk;
          W[q][k] = s * wpk + c * wqk;
        }
      }
  }
  return W.map((r, i) => r[i]).sort((a, b) => b - a);
}
