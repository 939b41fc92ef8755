/**
 * Matrix equations beside Lyapunov's (lyapunov.ts): Sylvester equations and the Cholesky
 * factor of a Lyapunov solution, in MATLAB's conventions.
 *   sylvester:   A X + X B + C = 0          (MATLAB lyap(A, B, C), python-control lyap(A, Q, C))
 *   dsylvester:  A X B − X + C = 0          (MATLAB dlyap(A, B, C))
 *   lyapchol:    A X + X Aᵀ + B Bᵀ = 0,   X = RᵀR, R upper triangular (MATLAB lyapchol(A, B))
 *   dlyapchol:   A X Aᵀ − X + B Bᵀ = 0,   X = RᵀR                     (MATLAB dlyapchol(A, B))
 *   with E:      A X Eᵀ + E X Aᵀ + B Bᵀ = 0 and A X Aᵀ − E X Eᵀ + B Bᵀ = 0 (MATLAB lyapchol(A, B, E),
 *                dlyapchol(A, B, E); X = RᵀR as MATLAB documents, the convention of the two above)
 * and the descriptor reduction by E⁻¹ shared with lyap/dlyap and care/dare (descriptorE).
 *
 * The generalised square-root equations are reduced, not solved on the QZ form as SLICOT
 * SG03BD does (Penzl's generalised Hammarling method needs a QZ decomposition we do not have):
 * multiplying by E⁻¹ on the left and E⁻ᵀ on the right gives the standard equations in
 * Ã = E⁻¹A, B̃ = E⁻¹B with the same X (no back-transformation of R), exact in exact arithmetic;
 * its rounding grows like κ(E)·ε, so an E with reciprocal condition below 1e-12 is refused
 * (descriptorE: beyond it fewer than 4 of the 16 digits of E⁻¹A would be left), and the
 * verifier checks the residual with E as given, so a worse factor fails closed.
 *
 * Sylvester: Bartels–Stewart on the real Schur forms of A and B. Not by Kronecker products:
 * (I ⊗ A + Bᵀ ⊗ I) vec X = −vec C is an mn x mn system, O(m³n³) time and O(m²n²) memory
 * (n = m = 64: a 4096² matrix, 134 MB and 2e10 flops), where Bartels–Stewart costs
 * O(m³ + n³ + mn(m + n)) and is backward stable in the Schur bases.
 *
 * lyapchol: Hammarling's method (IMA J. Numer. Anal. 2, 1982; SLICOT SB03OD's idea): the
 * factor U of the Schur-form solution X̃ = U Uᴴ is computed column by column from the last
 * one, each a triangular solve and a rank-one update of the right-hand side's factor, so X
 * itself is never formed (its rounding would cost the factor half its digits where X is
 * ill-conditioned). Here in complex arithmetic on the complex Schur form (the real Schur
 * form's 2x2 blocks split by rotations, as MATLAB's rsf2csf), then R from a QR of the real
 * and imaginary parts of (Z U)ᴴ.
 */
import { tool, BY_LOOKUP } from '../tools/types.js';
import { renderGeneric } from '../render/results.js';
import { type Code, verdictHolder } from '../codegen/code.js';
import type { Matrix } from '../types.js';
import { matrix } from '../tools/schema.js';
import { checkMatrix, checkSquare, fmtSize, size } from '../tools/args.js';
import { ControlError } from '../errors.js';
import { type Mat, EPS, fromRows, toRows, zeros, mul, mulTN, mulNT, normF, luFactor, luSolve, luSolveRight, luRcond, norm1 } from '../linalg/dense.js';
import { realSchur, schurEigenvalues, solveCompletePivot } from '../linalg/schur.js';
import { qrR } from '../linalg/qr.js';

// ------------------------------------------------------------------ Sylvester (Bartels–Stewart)

/** start and size of each diagonal block of a real Schur form (1x1, or 2x2 for a complex pair) */
function blocks(T: Mat): { st: number[]; sz: number[] } {
  const n = T.r;
  const st: number[] = [],
    sz: number[] = [];
  for (let i = 0; i < n;) {
    const two = i + 1 < n && T.d[(i + 1) * n + i] !== 0;
    st.push(i);
    sz.push(two ? 2 : 1);
    i += two ? 2 : 1;
  }
  return { st, sz };
}

const fmtC = ([re, im]: [number, number]) => {
  const r = +re.toPrecision(6),
    i = +Math.abs(im).toPrecision(6);
  return i === 0 ? `${r}` : `${r} ${im < 0 ? '-' : '+'} ${i}i`;
};

/**
 * Solves S Y + Y T + F = 0 (continuous) or S Y T − Y + F = 0 (discrete) for S (m x m) and T
 * (n x n) in real Schur form: column blocks of Y from the first (T is upper triangular, so
 * Y T's column block J involves Y's blocks up to J), each by back substitution over S's row
 * blocks from the last, the p x q diagonal-block equations (p, q ≤ 2) as small Kronecker
 * systems solved with complete pivoting (LAPACK dlasy2's way).
 */
export function triangularSylvester(S: Mat, T: Mat, F: Mat, discrete: boolean): Mat {
  const m = S.r,
    n = T.r,
    s = S.d,
    t = T.d,
    f = F.d;
  const Y = zeros(m, n),
    y = Y.d;
  const bs = blocks(S),
    bt = blocks(T);
  let snorm = 0,
    tnorm = 0;
  for (const v of s) snorm = Math.max(snorm, Math.abs(v));
  for (const v of t) tnorm = Math.max(tnorm, Math.abs(v));
  const tiny = Math.max(EPS * (discrete ? Math.max(1, snorm * tnorm) : Math.max(snorm, tnorm)), 1e-300);
  const R = new Float64Array(m * 2); // R[i*2 + b]: right-hand side of column j0+b
  const YT = new Float64Array(m * 2); // discrete: Y[k, J] T_JJ for solved rows k
  const M = new Float64Array(16),
    rhs = new Float64Array(4);
  for (let jb = 0; jb < bt.st.length; jb++) {
    const j0 = bt.st[jb],
      q = bt.sz[jb];
    // R = −F[:, J] − Σ_{l<j0} Y[:, l] T[l, J]  (continuous), or with W = Σ_{l<j0} Y[:, l] T[l, J]: R = −F[:, J] − S W
    const W = new Float64Array(m * 2);
    for (let i = 0; i < m; i++)
      for (let b = 0; b < q; b++) {
        let acc = 0;
        for (let l = 0; l < j0; l++) acc += y[i * n + l] * t[l * n + j0 + b];
        W[i * 2 + b] = acc;
      }
    for (let i = 0; i < m; i++)
      for (let b = 0; b < q; b++) {
        let v = -f[i * n + j0 + b];
        if (discrete) {
          // S is quasi-triangular: row i also has S[i, i−1] inside a 2x2 block
          for (let k = i > 0 ? i - 1 : 0; k < m; k++) v -= s[i * m + k] * W[k * 2 + b];
        } else v -= W[i * 2 + b];
        R[i * 2 + b] = v;
      }
    for (let ib = bs.st.length - 1; ib >= 0; ib--) {
      const i0 = bs.st[ib],
        p = bs.sz[ib],
        iend = i0 + p;
      for (let a = 0; a < p; a++)
        for (let b = 0; b < q; b++) {
          let v = R[(i0 + a) * 2 + b];
          const si = (i0 + a) * m;
          if (discrete) for (let k = iend; k < m; k++) v -= s[si + k] * YT[k * 2 + b];
          else for (let k = iend; k < m; k++) v -= s[si + k] * y[k * n + j0 + b];
          rhs[a * q + b] = v;
        }
      // the p x q block equation as a (pq) x (pq) system, unknowns y[a][b] at a*q + b
      const N = p * q;
      M.fill(0, 0, N * N);
      for (let a = 0; a < p; a++)
        for (let b = 0; b < q; b++) {
          const row = (a * q + b) * N;
          if (!discrete) {
            for (let k = 0; k < p; k++) M[row + k * q + b] += s[(i0 + a) * m + i0 + k];
            for (let l = 0; l < q; l++) M[row + a * q + l] += t[(j0 + l) * n + j0 + b];
          } else {
            for (let k = 0; k < p; k++) for (let l = 0; l < q; l++) M[row + k * q + l] += s[(i0 + a) * m + i0 + k] * t[(j0 + l) * n + j0 + b];
            M[row + a * q + b] -= 1;
          }
        }
      solveCompletePivot(M, rhs, N, tiny);
      for (let a = 0; a < p; a++) for (let b = 0; b < q; b++) y[(i0 + a) * n + j0 + b] = rhs[a * q + b];
      if (discrete)
        for (let a = 0; a < p; a++)
          for (let b = 0; b < q; b++) {
            let v = 0;
            for (let l = 0; l < q; l++) v += y[(i0 + a) * n + j0 + l] * t[(j0 + l) * n + j0 + b];
            YT[(i0 + a) * 2 + b] = v;
          }
    }
  }
  return Y;
}

/**
 * X with A X + X B + C = 0 (continuous) or A X B − X + C = 0 (discrete), A m x m, B n x n,
 * C m x n: Bartels–Stewart (see the module comment) and one step of iterative refinement.
 * Refuses when λi(A) + μj(B) = 0 (continuous) or λi(A) μj(B) = 1 (discrete) for some pair,
 * to within rounding: the equation then has no unique solution.
 */
export function sylvesterMat(A: Mat, B: Mat, C: Mat, discrete: boolean): Mat {
  const m = A.r,
    n = B.r;
  if (!m || !n) return zeros(m, n);
  const sa = realSchur(A),
    sb = realSchur(B);
  const ea = schurEigenvalues(sa.T),
    eb = schurEigenvalues(sb.T);
  const na = Math.max(normF(A), ...ea.map(([r, i]) => Math.hypot(r, i))),
    nb = Math.max(normF(B), ...eb.map(([r, i]) => Math.hypot(r, i)));
  let sep = Infinity,
    li = ea[0],
    lj = eb[0];
  for (const a of ea)
    for (const b of eb) {
      const v = discrete ? Math.hypot(a[0] * b[0] - a[1] * b[1] - 1, a[0] * b[1] + a[1] * b[0]) : Math.hypot(a[0] + b[0], a[1] + b[1]);
      if (v < sep) [sep, li, lj] = [v, a, b];
    }
  const k = Math.max(m, n);
  const tol = discrete ? 1e3 * k * EPS * Math.max(1, na * nb) : 1e3 * k * EPS * Math.max(na, nb, 1e-300);
  if (sep <= tol)
    throw new ControlError(
      `The ${discrete ? 'discrete ' : ''}Sylvester equation ${discrete ? 'A X B − X + C = 0' : 'A X + X B + C = 0'} has no unique solution: ` +
        `A has the eigenvalue ${fmtC(li)} and B the eigenvalue ${fmtC(lj)}, whose ${discrete ? 'product is 1' : 'sum is 0'} (to rounding).`,
      'infeasible',
    );
  const U = sa.Z,
    V = sb.Z;
  const solveB = (Cc: Mat): Mat => {
    const F = mul(mulTN(U, Cc), V);
    const Y = triangularSylvester(sa.T, sb.T, F, discrete);
    return mulNT(mul(U, Y), V);
  };
  const residual = (X: Mat): Mat => {
    const R = discrete ? mul(mul(A, X), B) : mul(A, X);
    const XB = discrete ? X : mul(X, B);
    for (let i = 0; i < R.d.length; i++) R.d[i] += (discrete ? -XB.d[i] : XB.d[i]) + C.d[i];
    return R;
  };
  const X = solveB(C);
  const dX = solveB(residual(X));
  for (let i = 0; i < X.d.length; i++) X.d[i] += dX.d[i];
  for (const v of X.d) if (!Number.isFinite(v)) throw new ControlError('The Sylvester solution overflowed: the equation is too ill-conditioned.', 'numerical');
  return X;
}

// ------------------------------------------------------------------ complex Schur form and Hammarling

/** complex n x n matrix as two row-major arrays */
interface CMat {
  n: number;
  re: Float64Array;
  im: Float64Array;
}

/**
 * The complex Schur form from the real one (MATLAB's rsf2csf): each 2x2 block split by a
 * complex rotation, from the last block up. T̂ upper triangular, Ẑ unitary, A = Ẑ T̂ Ẑᴴ.
 */
function complexSchur(T: Mat, Z: Mat): { T: CMat; Z: CMat } {
  const n = T.r;
  const Tc: CMat = { n, re: Float64Array.from(T.d), im: new Float64Array(n * n) };
  const Zc: CMat = { n, re: Float64Array.from(Z.d), im: new Float64Array(n * n) };
  const tr = Tc.re,
    ti = Tc.im;
  for (let m = n - 1; m >= 1; m--) {
    const sub = tr[m * n + m - 1];
    if (sub === 0 && ti[m * n + m - 1] === 0) continue;
    // eigenvalue of the 2x2 block [a b; c d] (real here: later rotations touch only later columns)
    const a = tr[(m - 1) * n + m - 1],
      b = tr[(m - 1) * n + m],
      c = sub,
      d = tr[m * n + m];
    const h = (a - d) / 2,
      disc = h * h + b * c;
    // mu = λ1 − d, λ1 = (a + d)/2 + sqrt(disc)
    let mr = h,
      mi = 0;
    if (disc >= 0) mr += Math.sqrt(disc);
    else mi = Math.sqrt(-disc);
    const r = Math.hypot(mr, mi, c);
    const cr = mr / r,
      ci = mi / r,
      s = c / r;
    // rows m−1, m from column m−1: [x; y] <- [c̄ s; −s c] [x; y]
    for (let j = m - 1; j < n; j++) {
      const xr = tr[(m - 1) * n + j],
        xi = ti[(m - 1) * n + j],
        yr = tr[m * n + j],
        yi = ti[m * n + j];
      tr[(m - 1) * n + j] = cr * xr + ci * xi + s * yr;
      ti[(m - 1) * n + j] = cr * xi - ci * xr + s * yi;
      tr[m * n + j] = -s * xr + cr * yr - ci * yi;
      ti[m * n + j] = -s * xi + cr * yi + ci * yr;
    }
    // columns m−1, m: [x y] <- [x y] [c −s; s c̄]
    const colRot = (re: Float64Array, im: Float64Array, rows: number) => {
      for (let i = 0; i < rows; i++) {
        const xr = re[i * n + m - 1],
          xi = im[i * n + m - 1],
          yr = re[i * n + m],
          yi = im[i * n + m];
        re[i * n + m - 1] = xr * cr - xi * ci + s * yr;
        im[i * n + m - 1] = xr * ci + xi * cr + s * yi;
        re[i * n + m] = -s * xr + yr * cr + yi * ci;
        im[i * n + m] = -s * xi + yi * cr - yr * ci;
      }
    };
    colRot(tr, ti, m + 1);
    colRot(Zc.re, Zc.im, n);
    tr[m * n + m - 1] = 0;
    ti[m * n + m - 1] = 0;
  }
  return { T: Tc, Z: Zc };
}

/**
 * Hammarling: U upper triangular with T U Uᴴ + U Uᴴ Tᴴ + C Cᴴ = 0 (continuous) or
 * T U Uᴴ Tᴴ − U Uᴴ + C Cᴴ = 0 (discrete), T upper triangular (complex Schur form, stable), C
 * n x m complex (overwritten). From the last column: with T = [T11 t; 0 λ], U = [U11 u; 0 ν]
 * and C's last row cᴴ, ν = ‖c‖/α (α = √(−2 Re λ), or √(1 − |λ|²)), u from one triangular
 * solve, and C11 replaced by a factor Ĉ of the remaining right-hand side (Ĉ Ĉᴴ, a rank-one
 * update of C's first rows), so each step is the same problem one size smaller.
 *   continuous: (T11 + λ̄ I) u = −(ν t + α y),   Ĉ = C1 − α u ĉᴴ
 *   discrete:   (I − λ̄ T11) u = λ̄ ν t + α y,    Ĉ = C1 + ((λ − 1) y − α (T11 u + ν t)) ĉᴴ
 * with ĉ = c/‖c‖ and y = C1 ĉ.
 */
function hammarling(T: CMat, Cr: Float64Array, Ci: Float64Array, mcols: number, discrete: boolean): CMat {
  const n = T.n,
    tr = T.re,
    ti = T.im;
  const U: CMat = { n, re: new Float64Array(n * n), im: new Float64Array(n * n) };
  const yr = new Float64Array(n),
    yi = new Float64Array(n),
    ur = new Float64Array(n),
    ui = new Float64Array(n),
    zr = new Float64Array(n),
    zi = new Float64Array(n);
  for (let k = n - 1; k >= 0; k--) {
    const lr = tr[k * n + k],
      li = ti[k * n + k];
    let cn = 0;
    for (let j = 0; j < mcols; j++) cn = Math.hypot(cn, Cr[k * mcols + j], Ci[k * mcols + j]);
    const alpha = discrete ? Math.sqrt((1 - Math.hypot(lr, li)) * (1 + Math.hypot(lr, li))) : Math.sqrt(-2 * lr);
    const nu = cn / alpha;
    U.re[k * n + k] = nu;
    if (cn === 0 || k === 0) continue;
    // y = C1 ĉ, ĉ_j = conj(C[k, j]) / ‖c‖
    for (let i = 0; i < k; i++) {
      let sr = 0,
        si = 0;
      for (let j = 0; j < mcols; j++) {
        const ar = Cr[i * mcols + j],
          ai = Ci[i * mcols + j],
          br = Cr[k * mcols + j] / cn,
          bi = -Ci[k * mcols + j] / cn;
        sr += ar * br - ai * bi;
        si += ar * bi + ai * br;
      }
      yr[i] = sr;
      yi[i] = si;
    }
    // right-hand side and the triangular solve, from the last row of T11 up
    for (let i = k - 1; i >= 0; i--) {
      const tkr = tr[i * n + k],
        tki = ti[i * n + k];
      let br: number, bi: number;
      if (discrete) {
        // λ̄ ν t + α y
        br = nu * (lr * tkr + li * tki) + alpha * yr[i];
        bi = nu * (lr * tki - li * tkr) + alpha * yi[i];
      } else {
        br = -(nu * tkr + alpha * yr[i]);
        bi = -(nu * tki + alpha * yi[i]);
      }
      // subtract the solved part: row i of the triangular matrix times u (columns i+1..k−1)
      for (let j = i + 1; j < k; j++) {
        const ar = tr[i * n + j],
          ai = ti[i * n + j];
        // continuous: matrix T11 + λ̄I (off-diagonal T11); discrete: I − λ̄ T11 (off-diagonal −λ̄ T11)
        let mr = ar,
          mi = ai;
        if (discrete) {
          mr = -(lr * ar + li * ai);
          mi = -(lr * ai - li * ar);
        }
        br -= mr * ur[j] - mi * ui[j];
        bi -= mr * ui[j] + mi * ur[j];
      }
      const dr0 = tr[i * n + i],
        di0 = ti[i * n + i];
      let dr: number, di: number;
      if (discrete) {
        dr = 1 - (lr * dr0 + li * di0);
        di = -(lr * di0 - li * dr0);
      } else {
        dr = dr0 + lr;
        di = di0 - li;
      }
      const den = dr * dr + di * di;
      ur[i] = (br * dr + bi * di) / den;
      ui[i] = (bi * dr - br * di) / den;
    }
    for (let i = 0; i < k; i++) {
      U.re[i * n + k] = ur[i];
      U.im[i * n + k] = ui[i];
    }
    // the factor of the rest: C1 += z ĉᴴ, ĉᴴ_j = C[k, j] / ‖c‖
    for (let i = 0; i < k; i++) {
      if (discrete) {
        // w = T11 u + ν t (row i), z = (λ − 1) y − α w
        let wr = nu * tr[i * n + k],
          wi = nu * ti[i * n + k];
        for (let j = i; j < k; j++) {
          const ar = tr[i * n + j],
            ai = ti[i * n + j];
          wr += ar * ur[j] - ai * ui[j];
          wi += ar * ui[j] + ai * ur[j];
        }
        zr[i] = (lr - 1) * yr[i] - li * yi[i] - alpha * wr;
        zi[i] = (lr - 1) * yi[i] + li * yr[i] - alpha * wi;
      } else {
        zr[i] = -alpha * ur[i];
        zi[i] = -alpha * ui[i];
      }
    }
    for (let i = 0; i < k; i++)
      for (let j = 0; j < mcols; j++) {
        const br = Cr[k * mcols + j] / cn,
          bi = Ci[k * mcols + j] / cn;
        Cr[i * mcols + j] += zr[i] * br - zi[i] * bi;
        Ci[i * mcols + j] += zr[i] * bi + zi[i] * br;
      }
  }
  return U;
}

/**
 * R upper triangular (non-negative diagonal) with X = RᵀR, where A X + X Aᵀ + B Bᵀ = 0
 * (continuous) or A X Aᵀ − X + B Bᵀ = 0 (discrete): Hammarling's method (module comment).
 * A must be stable (Re λ < 0, or |λ| < 1): otherwise X is not positive semidefinite, or not
 * unique, and has no Cholesky factor.
 */
export function lyapcholMat(A: Mat, B: Mat, discrete: boolean, pencil = false): Mat {
  const n = A.r,
    m = B.c;
  if (!n) return zeros(0, 0);
  const { T, Z } = realSchur(A);
  const ev = schurEigenvalues(T);
  const an = Math.max(normF(A), 1e-300);
  const bad = ev.filter(([re, im]) => (discrete ? Math.hypot(re, im) >= 1 - 10 * n * EPS : re >= -10 * n * EPS * an));
  const what = pencil ? 'the pencil (A, E)' : 'A';
  if (bad.length)
    throw new ControlError(
      `${discrete ? 'dlyapchol' : 'lyapchol'} needs ${what} ${discrete ? 'Schur stable (every eigenvalue inside the unit circle)' : 'Hurwitz stable (every eigenvalue in the open left half-plane)'}, ` +
        `but ${what} has the ${pencil ? 'generalised ' : ''}eigenvalue${bad.length > 1 ? 's' : ''} ${[...new Set(bad.map(fmtC))].join(', ')}: the solution X is then not positive semidefinite (or not unique) and has no Cholesky factor. ` +
        `${discrete ? 'dlyap' : 'lyap'} with Q = B Bᵀ${pencil ? ` (and E: ${discrete ? 'dlyap' : 'lyap'}(A, Q, [], E))` : ''} solves the equation itself.`,
      'infeasible',
    );
  const cs = complexSchur(T, Z);
  // C = Ẑᴴ B (n x m)
  const Cr = new Float64Array(n * m),
    Ci = new Float64Array(n * m);
  const zr = cs.Z.re,
    zi = cs.Z.im,
    b = B.d;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < m; j++) {
      let sr = 0,
        si = 0;
      for (let k = 0; k < n; k++) {
        sr += zr[k * n + i] * b[k * m + j];
        si -= zi[k * n + i] * b[k * m + j];
      }
      Cr[i * m + j] = sr;
      Ci[i * m + j] = si;
    }
  const U = hammarling(cs.T, Cr, Ci, m, discrete);
  // X = Ẑ U Uᴴ Ẑᴴ = Mᴴ M with M = Uᴴ Ẑᴴ; X real: X = [Mr; Mi]ᵀ [Mr; Mi]
  const S = zeros(2 * n, n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      // M[i, j] = Σ_k conj(U[k, i]) conj(Ẑ[j, k])
      let sr = 0,
        si = 0;
      for (let k = 0; k <= i; k++) {
        const ar = U.re[k * n + i],
          ai = -U.im[k * n + i],
          br = zr[j * n + k],
          bi = -zi[j * n + k];
        sr += ar * br - ai * bi;
        si += ar * bi + ai * br;
      }
      S.d[i * n + j] = sr;
      S.d[(n + i) * n + j] = si;
    }
  const R = qrR(S);
  for (const v of R.d)
    if (!Number.isFinite(v)) throw new ControlError('The Cholesky factor overflowed: the Lyapunov equation is too ill-conditioned.', 'numerical');
  return R;
}

// ------------------------------------------------------------------ descriptor E

/** the smallest rcond(E) at which E is treated as invertible */
const E_RCOND_MIN = 1e-12;

/**
 * A nonsingular descriptor matrix E, checked and factored: the generalised equations are
 * reduced to standard ones by E⁻¹ (lyap: Ã = A E⁻¹ with Y = E X Eᵀ; care/dare: Ã = E⁻¹A,
 * B̃ = E⁻¹B with Y = Eᵀ X E), exact in exact arithmetic and accurate while E is well
 * conditioned. A singular E (rcond below 1e-12) is refused: the pencil (A, E) then has
 * infinite eigenvalues, and MATLAB's generalised solvers (SG03AD, SG02AD) need a QZ
 * decomposition we do not have. The verifier checks the residual of the equation with E as
 * given, so an E conditioned badly enough to spoil the reduction fails closed.
 */
export function descriptorE(E: Mat, n: number, name = 'E'): { lu: ReturnType<typeof luFactor>; rcond: number; note: string } {
  if (E.r !== n || E.c !== n) throw new ControlError(`${name} is ${E.r}x${E.c} but A is ${n}x${n}; ${name} must be ${n}x${n}.`);
  const lu = luFactor(E);
  const rcond = lu.singular ? 0 : luRcond(lu, norm1(E));
  if (!(rcond >= E_RCOND_MIN))
    throw new ControlError(
      `${name} is singular${rcond > 0 ? ` to working precision (reciprocal condition ${rcond.toExponential(1)}, below ${E_RCOND_MIN})` : ''}: the descriptor pencil (A, ${name}) then has infinite eigenvalues, ` +
        `and the equation is solved here only for a nonsingular ${name} (by reducing it with ${name}⁻¹). Eliminate the algebraic states first, or give a nonsingular ${name}.`,
      'infeasible',
    );
  return {
    lu,
    rcond,
    note: `E is nonsingular (reciprocal condition ${rcond.toPrecision(3)}): the generalised equation was reduced to a standard one with E⁻¹ and the residual checked with E as given`,
  };
}

/** E⁻¹ M (left) or M E⁻¹ (right) with E's factorisation */
export const eSolveLeft = (lu: ReturnType<typeof luFactor>, M: Mat): Mat => luSolve(lu, M);
export const eSolveRight = (lu: ReturnType<typeof luFactor>, M: Mat): Mat => luSolveRight(lu, M);

// ------------------------------------------------------------------ tools

function sylvesterArgs(args: Record<string, any>): { A: Mat; B: Mat; C: Mat } {
  const A = checkMatrix(args.A, 'A');
  const B = checkMatrix(args.Bs, 'Bs');
  const C = checkMatrix(args.Cs, 'Cs');
  const m = checkSquare(A, 'A'),
    n = checkSquare(B, 'Bs');
  const [cr, cc] = size(C);
  if (cr !== m || cc !== n) throw new ControlError(`Cs is ${fmtSize(C)} but must be ${m}x${n} (rows of A by columns of Bs).`);
  return { A: fromRows(A), B: fromRows(B), C: fromRows(C) };
}

function cholArgs(args: Record<string, any>): { A: Mat; B: Mat } {
  const A = checkMatrix(args.A, 'A');
  const B = checkMatrix(args.B, 'B');
  const n = checkSquare(A, 'A');
  if (B.length !== n) throw new ControlError(`B has ${B.length} rows but A is ${n}x${n}; they must match.`);
  if (!size(B)[1]) throw new ControlError('B has no columns.');
  return { A: fromRows(A), B: fromRows(B) };
}

/**
 * R of lyapchol/dlyapchol, with MATLAB's optional E (module comment): E nonsingular reduces
 * A X Eᵀ + E X Aᵀ + B Bᵀ = 0 (A X Aᵀ − E X Eᵀ + B Bᵀ = 0) to the standard equation in E⁻¹A,
 * E⁻¹B, whose solution is the same X; a singular or ill-conditioned E is refused (descriptorE).
 */
function runChol(args: Record<string, any>, discrete: boolean): { R: Matrix; note?: string } {
  const { A, B } = cholArgs(args);
  if (args.E === undefined || args.E === null) return { R: toRows(lyapcholMat(A, B, discrete)) };
  const e = descriptorE(fromRows(checkMatrix(args.E, 'E')), A.r);
  const R = lyapcholMat(eSolveLeft(e.lu, A), eSolveLeft(e.lu, B), discrete, true);
  return {
    R: toRows(R),
    note: `E is nonsingular (reciprocal condition ${e.rcond.toPrecision(3)}): the generalised equation was reduced to the standard one in E⁻¹A and E⁻¹B, which has the same X = RᵀR, and the residual checked with E as given`,
  };
}

const eParam = (discrete: boolean) =>
  matrix(
    `descriptor matrix E (n x n, nonsingular), optional: ${discrete ? "A X A' - E X E' + B B' = 0" : "A X E' + E X A' + B B' = 0"} (MATLAB ${discrete ? 'dlyapchol' : 'lyapchol'}(A, B, E))`,
  );

const neg = (M: unknown) => (Array.isArray(M) ? (M as Matrix).map((r) => r.map((v) => -v)) : M);
/** SciPy's solve_sylvester(a, b, q) and MATLAB's sylvester(A, B, C) solve A X + X B = C: ours with −C */
const negC = (a: Record<string, unknown>) => ({ ...a, Cs: neg(a.Cs) });

const sylParams = (discrete: boolean) => ({
  type: 'object' as const,
  properties: {
    A: matrix('left coefficient A (m x m)'),
    Bs: matrix(
      `right coefficient B (n x n) of ${discrete ? 'A X B − X + C = 0' : 'A X + X B + C = 0'} (MATLAB's B; named Bs so that a state-space B is never taken for it)`,
    ),
    Cs: matrix(`constant term C (m x n) of the equation (MATLAB's C; named Cs so that a state-space C is never taken for it)`),
  },
  required: ['A', 'Bs', 'Cs'],
  additionalProperties: false,
});

function sylCode(discrete: boolean) {
  return {
    title: discrete ? 'discrete Sylvester equation A X B - X + C = 0' : 'Sylvester equation A X + X B + C = 0',
    gen(code: Code, a: Record<string, any>, r: Record<string, any> | undefined) {
      const M = code.lang === 'matlab';
      if (!M) code.line('from scipy.linalg import solve_sylvester');
      code.mat('A', a.A).mat('B', a.Bs).mat('C', a.Cs);
      if (discrete) {
        if (M) code.line('X = dlyap(A, B, C);   % solves A*X*B - X + C = 0, as @control');
        else code.line("X = ct.dlyap(A, B.T, C)   # python-control's dlyap(A, Q, C) solves A X Q' - X + C = 0: pass B' (needs slycot)");
      } else if (M) code.line('X = lyap(A, B, C);   % solves A*X + X*B + C = 0, as @control');
      else code.line('X = solve_sylvester(A, B, -C)   # SciPy solves A X + X B = Q: pass -C (ct.lyap(A, B, C) solves A X + X B + C = 0 with slycot)');
      if (r) code.comment(verdictHolder).expect('X', r.X);
    },
  };
}

function cholCode(discrete: boolean) {
  return {
    title: discrete
      ? "Cholesky factor R (X = R'R) of A X A' - X + B B' = 0, or A X A' - E X E' + B B' = 0 with E"
      : "Cholesky factor R (X = R'R) of A X + X A' + B B' = 0, or A X E' + E X A' + B B' = 0 with E",
    gen(code: Code, a: Record<string, any>, r: Record<string, any> | undefined) {
      const M = code.lang === 'matlab';
      if (!M)
        code.line(discrete ? 'from scipy.linalg import solve_discrete_lyapunov, cholesky' : 'from scipy.linalg import solve_continuous_lyapunov, cholesky');
      const E = Array.isArray(a.E) && a.E.length > 0;
      code.mat('A', a.A).mat('B', a.B);
      if (E) code.mat('E', a.E);
      if (M) code.line(`R = ${discrete ? 'dlyapchol' : 'lyapchol'}(A, B${E ? ', E' : ''});   % X = R'*R, R upper triangular, as @control`);
      else {
        code.comment("python-control has no lyapchol: the factor of the solution (this forms X, which Hammarling's method avoids)");
        const [Am, Bm] = E ? ['Ai', 'Bi'] : ['A', 'B'];
        if (E)
          code.line(
            `Ai, Bi = np.linalg.solve(E, A), np.linalg.solve(E, B)   # ${discrete ? "A X A' - E X E' + B B' = 0" : "A X E' + E X A' + B B' = 0"} has the same X as the equation in E^-1 A, E^-1 B`,
          );
        code.line(discrete ? `X = solve_discrete_lyapunov(${Am}, ${Bm} @ ${Bm}.T)` : `X = solve_continuous_lyapunov(${Am}, -${Bm} @ ${Bm}.T)`);
        code.line('R = cholesky(X)   # upper triangular, X = R.T @ R (X must be positive definite)');
      }
      if (r) code.comment(verdictHolder).expect('R', r.R);
    },
  };
}

export const tools = [
  tool({
    name: 'sylvester',
    words: {
      calls: [
        { names: ['lyap'], args: ['A', 'Bs', 'Cs'], min: 3 },
        {
          names: ['solve_sylvester', 'sylvester'],
          args: ['A', 'Bs', 'Cs'],
          keywords: { a: 'A', b: 'Bs', q: 'Cs' },
          min: 3,
          note: "SciPy's solve_sylvester(a, b, q) and MATLAB's sylvester(A, B, C) solve A X + X B = C, so it is A X + X B + C = 0 with −C",
          map: negC,
        },
        { names: ['sylv'], args: ['A', 'Bs', 'Cs', "'c'"], min: 4, note: "Scilab's sylv(A, B, C, 'c') solves A X + X B = C, so −C here", map: negC },
      ],
      phrases: ['sylvester equation', 'continuous sylvester', 'sylvester'],
      aliases: { Bs: ['B'], Cs: ['C', 'Q'] },
      discrete: 'dsylvester',
      example: '/sylvester A=[-1 0; 0 -2], Bs=[-3], Cs=[1; 1]',
    },
    brief: 'X solving A X + X B + C = 0 (Sylvester; MATLAB lyap(A,B,C)).',
    title: 'Sylvester equation',
    description:
      'Solves the Sylvester equation A X + X B + C = 0 for X (MATLAB lyap(A, B, C) and python-control lyap(A, Q, C); SciPy solve_sylvester solves A X + X B = Q, i.e. C = −Q) ' +
      "by Bartels–Stewart on the real Schur forms of A (m x m) and B (n x n); C and X are m x n. B and C are passed as Bs and Cs (they are not a state-space model's B and C). " +
      'Refuses when an eigenvalue of A and one of B sum to 0 (no unique solution).',
    parameters: sylParams(false),
    run(args) {
      const { A, B, C } = sylvesterArgs(args);
      return { X: toRows(sylvesterMat(A, B, C, false)) };
    },
    intro: '**Sylvester equation** AX + XB + C = 0 (MATLAB lyap(A, B, C)).',
    render: renderGeneric,
    code: sylCode(false),
    model: BY_LOOKUP,
    plots: { none: 'a matrix solution, not a system response' },
  }),
  tool({
    name: 'dsylvester',
    words: {
      calls: [
        {
          names: ['dlyap'],
          args: ['A', 'Bs', 'Cs'],
          min: 3,
          note: "MATLAB's dlyap(A, B, C) (A X B − X + C = 0); python-control's ct.dlyap(A, Q, C) solves A X Qᵀ − X + C = 0, i.e. B = Qᵀ",
        },
        {
          names: ['sylv'],
          args: ['A', 'Bs', 'Cs', "'d'"],
          min: 4,
          note: "Scilab's sylv(A, B, C, 'd') solves A X B + X = C, so it is A X B − X + C = 0 with −A and −C",
          map: (a) => ({ ...a, A: neg(a.A), Cs: neg(a.Cs) }),
        },
      ],
      phrases: ['discrete sylvester', 'discrete-time sylvester', 'discrete sylvester equation', 'dsylvester'],
      aliases: { Bs: ['B'], Cs: ['C', 'Q'] },
      continuous: 'sylvester',
      example: '/dsylvester A=[0.5 0; 0 0.2], Bs=[0.3], Cs=[1; 1]',
    },
    title: 'Discrete Sylvester equation',
    description:
      'Solves the discrete Sylvester equation A X B − X + C = 0 for X (MATLAB dlyap(A, B, C); python-control dlyap(A, Q, C) solves A X Qᵀ − X + C = 0, i.e. B = Qᵀ) ' +
      'by Bartels–Stewart on the real Schur forms of A (m x m) and B (n x n), passed as Bs, with C (m x n) as Cs. Refuses when λi(A) μj(B) = 1 for some pair (no unique solution).',
    parameters: sylParams(true),
    run(args) {
      const { A, B, C } = sylvesterArgs(args);
      return { X: toRows(sylvesterMat(A, B, C, true)) };
    },
    intro: '**Discrete Sylvester equation** AXB − X + C = 0 (MATLAB dlyap(A, B, C)).',
    render: renderGeneric,
    code: sylCode(true),
    model: BY_LOOKUP,
    plots: { none: 'a matrix solution, not a system response' },
  }),
  tool({
    name: 'lyapchol',
    words: {
      calls: [
        { names: ['lyapchol'], args: ['A', 'B'] },
        { names: ['lyapchol'], args: ['A', 'B', 'E'], min: 3, note: "MATLAB's lyapchol(A, B, E): the generalised equation A X Eᵀ + E X Aᵀ + B Bᵀ = 0" },
      ],
      phrases: ['lyapchol', 'cholesky factor of the lyapunov', 'square-root lyapunov', 'lyapunov cholesky'],
      discrete: 'dlyapchol',
      example: '/lyapchol A=[-1 2; 0 -3], B=[1; 1]',
    },
    title: 'Cholesky factor of a Lyapunov solution',
    description:
      "Upper-triangular R with X = R'R solving A X + X A' + B B' = 0 (MATLAB lyapchol(A, B)), by Hammarling's method: R is computed without forming X. " +
      'A must be stable (every eigenvalue in the open left half-plane); B is n x m. ' +
      "With E (MATLAB lyapchol(A, B, E)) it solves A X E' + E X A' + B B' = 0, X = R'R, for a stable pencil (A, E), reduced by a nonsingular E (E⁻¹A, E⁻¹B: the same X); an E with reciprocal condition below 1e-12 is refused.",
    parameters: {
      type: 'object',
      properties: { A: matrix('stable square matrix A (n x n)'), B: matrix("factor B (n x m) of the right-hand side B B'"), E: eParam(false) },
      required: ['A', 'B'],
      additionalProperties: false,
    },
    run(args) {
      return runChol(args, false);
    },
    intro:
      '**Cholesky factor of the Lyapunov solution**: R upper triangular with X = RᵀR, AX + XAᵀ + BBᵀ = 0, or AXEᵀ + EXAᵀ + BBᵀ = 0 with a descriptor E (MATLAB lyapchol).',
    render: renderGeneric,
    code: cholCode(false),
    model: BY_LOOKUP,
    plots: { none: 'a matrix factor, not a system response' },
  }),
  tool({
    name: 'dlyapchol',
    words: {
      calls: [
        { names: ['dlyapchol'], args: ['A', 'B'] },
        { names: ['dlyapchol'], args: ['A', 'B', 'E'], min: 3, note: "MATLAB's dlyapchol(A, B, E): the generalised equation A X Aᵀ − E X Eᵀ + B Bᵀ = 0" },
      ],
      phrases: ['dlyapchol', 'discrete lyapunov cholesky', 'cholesky factor of the discrete lyapunov', 'cholesky factor of the stein'],
      continuous: 'lyapchol',
      example: '/dlyapchol A=[0.5 0.1; 0 0.8], B=[1; 1]',
    },
    title: 'Cholesky factor of a discrete Lyapunov solution',
    description:
      "Upper-triangular R with X = R'R solving A X A' − X + B B' = 0 (MATLAB dlyapchol(A, B)), by Hammarling's method without forming X. " +
      'A must be Schur stable (every eigenvalue inside the unit circle); B is n x m. ' +
      "With E (MATLAB dlyapchol(A, B, E)) it solves A X A' − E X E' + B B' = 0, X = R'R, for a Schur-stable pencil (A, E), reduced by a nonsingular E (E⁻¹A, E⁻¹B: the same X); an E with reciprocal condition below 1e-12 is refused.",
    parameters: {
      type: 'object',
      properties: { A: matrix('Schur-stable square matrix A (n x n)'), B: matrix("factor B (n x m) of the right-hand side B B'"), E: eParam(true) },
      required: ['A', 'B'],
      additionalProperties: false,
    },
    run(args) {
      return runChol(args, true);
    },
    intro:
      '**Cholesky factor of the discrete Lyapunov solution**: R upper triangular with X = RᵀR, AXAᵀ − X + BBᵀ = 0, or AXAᵀ − EXEᵀ + BBᵀ = 0 with a descriptor E (MATLAB dlyapchol).',
    render: renderGeneric,
    code: cholCode(true),
    model: BY_LOOKUP,
    plots: { none: 'a matrix factor, not a system response' },
  }),
];
