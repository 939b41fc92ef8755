/**
 * Matrix exponential by Padé approximation with scaling and squaring (Higham 2005, as
 * MATLAB expm / SciPy expm): the degree 3, 5, 7, 9 approximants for ‖A‖₁ up to θ_m, else
 * degree 13 on A/2^s and s squarings.
 */
import { ControlError } from '../errors.js';
import { type Mat, add, eye, luFactor, luSolve, mul, norm1, scale, zeros } from './dense.js';

const PADE: Record<number, number[]> = {
  3: [120, 60, 12, 1],
  5: [30240, 15120, 3360, 420, 30, 1],
  7: [17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1],
  9: [17643225600, 8821612800, 2075673600, 302702400, 30270240, 2162160, 110880, 3960, 90, 1],
  13: [
    64764752532480000, 32382376266240000, 7771770303897600, 1187353796428800, 129060195264000, 10559470521600, 670442572800, 33522128640, 1323241920, 40840800,
    960960, 16380, 182, 1,
  ],
};
const THETA: [number, number][] = [
  [3, 1.495585217958292e-2],
  [5, 2.53939833006323e-1],
  [7, 9.504178996162932e-1],
  [9, 2.097847961257068],
];

/** Σ c_k X_k, the terms added in order */
function lincomb(terms: [number, Mat][], n: number): Mat {
  const M = zeros(n, n);
  const m = M.d;
  for (const [c, X] of terms) {
    if (c === 0) continue;
    const x = X.d;
    for (let i = 0; i < m.length; i++) m[i] += c * x[i];
  }
  return M;
}

/** e^A of a square matrix */
export function expm(A: Mat): Mat {
  const n = A.r;
  if (n === 0) return zeros(0, 0);
  const I = eye(n);
  const nrm = norm1(A);
  if (nrm === 0) return I;
  // ‖A‖ infinite or NaN (t·A overflowed): the scaling below would never end. Any finite norm
  // needs at most 1024 squarings (a stable A at t = 1e300 decays to a representable result)
  if (!Number.isFinite(nrm))
    throw new ControlError(
      `the matrix exponential of a matrix with 1-norm ${nrm} cannot be computed in floating point (the time or sample time is too large for this system); use a shorter time span`,
    );
  for (const [m, th] of THETA) {
    if (nrm <= th) {
      const A2 = mul(A, A);
      const b = PADE[m];
      const pw: Mat[] = [I, A2];
      for (let k = 2; k <= (m - 1) / 2; k++) pw.push(mul(pw[k - 1], A2));
      const Uin = lincomb(
        pw.map((P, k) => [b[2 * k + 1], P] as [number, Mat]),
        n,
      );
      const U = mul(A, Uin);
      const V = lincomb(
        pw.map((P, k) => [b[2 * k], P] as [number, Mat]),
        n,
      );
      return padeSolve(U, V);
    }
  }
  const s = Math.max(0, Math.ceil(Math.log2(nrm / 5.371920351148152)));
  // scale first, then square: A·A itself overflows when ‖A‖ > 1e154 (t = 1e200 in a step
  // response), and 2^-2s underflows to 0 for s > 537, either way B2 was NaN
  const As = scale(A, Math.pow(2, -s));
  const B2 = mul(As, As);
  const B4 = mul(B2, B2);
  const B6 = mul(B4, B2);
  const b = PADE[13];
  const U1 = mul(
    B6,
    lincomb(
      [
        [b[13], B6],
        [b[11], B4],
        [b[9], B2],
      ],
      n,
    ),
  );
  const U = mul(
    As,
    add(
      U1,
      lincomb(
        [
          [b[7], B6],
          [b[5], B4],
          [b[3], B2],
          [b[1], I],
        ],
        n,
      ),
    ),
  );
  const V1 = mul(
    B6,
    lincomb(
      [
        [b[12], B6],
        [b[10], B4],
        [b[8], B2],
      ],
      n,
    ),
  );
  const V = add(
    V1,
    lincomb(
      [
        [b[6], B6],
        [b[4], B4],
        [b[2], B2],
        [b[0], I],
      ],
      n,
    ),
  );
  let R = padeSolve(U, V);
  for (let k = 0; k < s; k++) {
    R = mul(R, R);
    // an entry past 1.8e308 makes every later square Inf or NaN: say so now
    if (!R.d.every(Number.isFinite))
      throw new ControlError(
        `the matrix exponential overflows: e^(A·t) has entries beyond 1.8e308 (the largest double) at this time span (‖A·t‖₁ = ${nrm.toPrecision(3)}), so the response cannot be computed; use a shorter time span or sample time.`,
        'numerical',
      );
  }
  return R;
}

/** (V − U)⁻¹(V + U) */
function padeSolve(U: Mat, V: Mat): Mat {
  const P = add(V, U);
  const Q = add(V, U, -1);
  return luSolve(luFactor(Q), P);
}
