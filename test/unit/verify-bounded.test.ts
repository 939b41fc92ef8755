/**
 * Issue 11, found by the fuzz: the verifier's independent kernels are bounded. ml-matrix's EVD
 * (JAMA's hqr2, no iteration cap) never returned on skew-symmetric matrices and its SVD cycled
 * forever on subnormal entries; the verifier now uses its own capped ports (verify/numeric.ts),
 * so every call answers or refuses with the reason. Calls go through callTool with a 10 s
 * budget, so a hang fails the test with the budget's error rather than a timing assertion.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callTool } from '../../src/core/tools/runner.js';
import { isControlError } from '../../src/core/errors.js';
import { cappedEigenvalues, ldexp, safeEigenvalues, safeSingularValues } from '../../src/core/verify/numeric.js';
import { singularValuesOf } from '../../src/core/linalg/svd.js';
import { sigmaMax } from '../../src/core/solvers/norms.js';
import { verify } from '../../src/core/verify/index.js';

const SKEW3 = [
  [0, 1, 2],
  [-1, 0, 3],
  [-2, -3, 0],
];
const W = Math.sqrt(14); // eigenvalues of SKEW3: 0, ±i√(1² + 2² + 3²)

/** the call's result, or its ControlError message; anything else (an internal error) fails */
async function answer(tool: string, args: Record<string, unknown>): Promise<{ result?: Record<string, any>; refusal?: string }> {
  try {
    const r = await callTool(tool, args, { timeoutS: 10 });
    return { result: r.result };
  } catch (e) {
    assert.ok(isControlError(e), `${tool}: internal error: ${(e as Error).message}`);
    assert.doesNotMatch((e as Error).message, /time budget/, `${tool} ran into the time budget`);
    return { refusal: (e as Error).message };
  }
}

function sortedByIm(ev: [number, number][]): [number, number][] {
  return ev.slice().sort((a, b) => a[1] - b[1]);
}

test('eig of the skew-symmetric [[0,1,2],[-1,0,3],[-2,-3,0]] is 0, ±i√14 (closed form), verified, at once', async () => {
  const r = await answer('eig', { A: SKEW3 });
  assert.ok(r.result, r.refusal);
  const ev = sortedByIm(r.result.eigenvalues);
  const want = [
    [0, -W],
    [0, 0],
    [0, W],
  ];
  ev.forEach((z, i) => assert.ok(Math.hypot(z[0] - want[i][0], z[1] - want[i][1]) < 1e-12, JSON.stringify(ev)));
});

test("the verifier's eigenvalues of skew-symmetric matrices: 0, ±i√14, and random ones converge (Σ|λ|² = ‖A‖F², Re λ = 0)", () => {
  const ev = sortedByIm(safeEigenvalues(SKEW3));
  assert.ok(Math.abs(ev[0][1] + W) < 1e-12 && Math.abs(ev[1][1]) < 1e-12 && Math.abs(ev[2][1] - W) < 1e-12, JSON.stringify(ev));
  for (const z of ev) assert.ok(Math.abs(z[0]) < 1e-12);
  let seed = 7;
  const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
  for (let t = 0; t < 300; t++) {
    const n = 2 + (t % 9);
    const A = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) A[j][i] = -(A[i][j] = rnd() < -0.6 ? 0 : rnd() * 5);
    const e = cappedEigenvalues(A);
    assert.ok(e, `no convergence on ${JSON.stringify(A)}`);
    const f = A.flat().reduce((s, x) => s + x * x, 0);
    const g = e.reduce((s, z) => s + z[0] * z[0] + z[1] * z[1], 0);
    assert.ok(Math.abs(f - g) <= 1e-12 * Math.max(f, 1), `${f} vs ${g}`);
    for (const z of e) assert.ok(Math.abs(z[0]) <= 1e-12 * Math.max(Math.sqrt(f), 1));
  }
  // the zero matrix (hqr's test |h(l,l-1)| < ε·norm never held when the norm is 0)
  assert.deepEqual(
    cappedEigenvalues([
      [0, 0],
      [0, 0],
    ]),
    [
      [0, 0],
      [0, 0],
    ],
  );
});

test('h2norm, hinfnorm, dcgain and nyquist with the skew-symmetric A answer at once (poles on the axis: unbounded, infinite)', async () => {
  const sys = { A: SKEW3, B: [[1], [0], [0]], C: [[1, 0, 0]] };
  const h2 = await answer('h2norm', sys);
  assert.equal(h2.result?.h2, Infinity, JSON.stringify(h2)); // a pole on the axis: infinite
  const hinf = await answer('hinfnorm', sys);
  assert.equal(hinf.result?.hinf, Infinity, JSON.stringify(hinf));
  const dc = await answer('dcgain', sys);
  assert.equal(Math.abs(dc.result?.gain[0][0]), Infinity, JSON.stringify(dc)); // the pole at s = 0
  const ny = await answer('nyquist', sys);
  assert.ok(ny.result || ny.refusal);
});

test("the verifier's singular values of a matrix of subnormal numbers: computed (ml-matrix cycled forever), σ² sums to ‖A‖F² and Πσ = |det A|", () => {
  const A = [
    [-1.3947e-320, 2.105e-321, -1.851e-320, 1.2757e-320],
    [2.9466e-320, 3.13e-321, -5.133e-321, -1.7307e-320],
    [2.2e-321, -6.334e-321, 6.146e-321, -1.3187e-320],
    [1.194e-320, 1.589e-320, -1.486e-320, 5.88e-321],
  ];
  const sv = safeSingularValues(A);
  assert.equal(sv.length, 4);
  // in units of 2^-1070 (exact for these subnormals) the identities are ordinary doubles; the
  // subnormal results themselves are within their resolution 2^-1074 (1/16 in those units)
  const B = A.map((r) => r.map((v) => ldexp(v, 1070)));
  const s = safeSingularValues(B);
  sv.forEach((v, i) => assert.ok(Math.abs(ldexp(v, 1070) - s[i]) <= 1 / 16, `${sv} vs ${s}`));
  const f = B.flat().reduce((a, x) => a + x * x, 0);
  assert.ok(Math.abs(s.reduce((a, x) => a + x * x, 0) - f) <= 1e-12 * f, `${s} ${f}`);
  const det = (M: number[][]): number =>
    M.length === 1 ? M[0][0] : M[0].reduce((acc, v, j) => acc + (j % 2 ? -1 : 1) * v * det(M.slice(1).map((r) => r.filter((_, k) => k !== j))), 0);
  const d = Math.abs(det(B));
  assert.ok(Math.abs(s.reduce((a, x) => a * x, 1) - d) <= 1e-9 * d, `${s} ${d}`);
  for (let i = 1; i < 4; i++) assert.ok(sv[i] <= sv[i - 1]);
});

const SUB4 = [
  [-1.3947e-320, 2.105e-321, -1.851e-320, 1.2757e-320],
  [2.9466e-320, 3.13e-321, -5.133e-321, -1.7307e-320],
  [2.2e-321, -6.334e-321, 6.146e-321, -1.3187e-320],
  [1.194e-320, 1.589e-320, -1.486e-320, 5.88e-321],
];

test('analyse of a 4x4 matrix of subnormal numbers is refused at once with the reason (its SVD in defectiveOnBoundary looped until the budget)', async () => {
  const r = await answer('analyse', { A: SUB4 });
  assert.ok(r.refusal, JSON.stringify(r.result));
  assert.match(r.refusal, /too slow for double precision/);
  assert.match(r.refusal, /Rescale the time unit/);
  // discrete, the same matrix is a deadbeat-like model: every |z| is near 0, stable
  const d = await answer('analyse', { A: SUB4, Ts: 1 });
  assert.equal(d.result?.stability, 'stable', JSON.stringify(d));
  // the solvers' SVD of it, in unit scale: equal to the verifier's independent one
  const a = singularValuesOf(SUB4);
  const b = safeSingularValues(SUB4);
  a.forEach((v, i) => assert.ok(Math.abs(v - b[i]) <= 2 * 2 ** -1074, `${a} vs ${b}`));
});

test('analyse of the same matrix times 2^1040 (entries near 1e-7) is answered, its boundary modes not defective', async () => {
  const A = SUB4.map((r) => r.map((v) => ldexp(v, 1040)));
  const r = await answer('analyse', { A, B: [[1], [0], [0], [0]] });
  assert.ok(r.result, r.refusal);
  assert.deepEqual(r.result.defective, []);
});

test('hinfnorm of a stable 2x2 model with B near 1e300 and D != 0 is 1.9413467463329e299 at 0.5918 rad/s (SciPy, test/fixtures/failclosed/hinf_huge.py), not "internal error"', async () => {
  const r = await answer('hinfnorm', {
    A: [
      [-2.8, 0.5],
      [0.2, -2.4],
    ],
    B: [
      [-1e300, 4e299],
      [-1.5e300, 1.5e300],
    ],
    C: [
      [-0.15, -0.11],
      [1.3, -0.75],
    ],
    D: [
      [-0.8, -0.87],
      [0.49, 0.51],
    ],
  });
  assert.ok(r.result, r.refusal);
  assert.ok(Math.abs(r.result.hinf / 1.941346746332924e299 - 1) < 1e-12, String(r.result.hinf));
  assert.ok(Math.abs(r.result.fpeak - 0.5918328585025585) < 1e-5, String(r.result.fpeak));
});

test('hinfnorm of A = -2, B = 1e300, C = D = 1 is 1e300/2 + 1 = 5e299 at w = 0 (closed form), not Infinity said to be "a pole on or beyond the stability boundary"', async () => {
  const r = await answer('hinfnorm', { A: [[-2]], B: [[1e300]], C: [[1]], D: [[1]] });
  assert.ok(r.result, r.refusal);
  assert.ok(Math.abs(r.result.hinf / 5e299 - 1) < 1e-14, String(r.result.hinf));
  assert.equal(r.result.fpeak, 0);
  // an infinite norm for a stable A is a failed check that says so, not a pole that is not there
  const v = verify('hinfnorm', { A: [[-2]], B: [[1]], C: [[1]], D: [[1]] }, { hinf: Infinity, fpeak: 0 })!;
  assert.equal(v.ok, false);
  assert.doesNotMatch(v.checks.map((c) => c.detail).join(' '), /A has a pole on or beyond/);
  assert.match(v.checks.map((c) => c.detail).join(' '), /every pole of A is inside the stability boundary/);
  const h2 = verify('h2norm', { A: [[-2]], B: [[1]], C: [[1]] }, { h2: Infinity })!;
  assert.equal(h2.ok, false);
  assert.match(h2.checks.map((c) => c.detail).join(' '), /every pole of A is inside the stability boundary/);
  // σmax of an overflowed frequency response is Infinity, not a TypeError from the eigensolver
  assert.equal(
    sigmaMax(
      [
        [Infinity, 1],
        [1, 1],
      ],
      [
        [0, 0],
        [0, 0],
      ],
    ),
    Infinity,
  );
  assert.ok(
    Math.abs(
      sigmaMax(
        [
          [1e200, 0],
          [0, 3e199],
        ],
        [
          [0, 0],
          [0, 1e200],
        ],
      ) /
        (Math.hypot(3, 10) * 1e199) -
        1,
    ) < 1e-15,
  ); // max(1e200, |3e199 + 1e200j|)
});

test('place refuses with the reason what it cannot answer: a pole below the rounding level of A − BK, entries near 1e-308 or 1e100', async () => {
  const r = await answer('place', { A: [[-7.3e29]], B: [[7.6e29]], poles: [-6.69] });
  assert.match(r.refusal ?? '', /the pole -6\.69 is below the rounding level of A − BK/, JSON.stringify(r));
  // here the model's own scale is the cause: the way out is to rescale time
  assert.match(r.refusal ?? '', /Rescale time/);
  // 30 poles moved by one input: the gain is the cause (|BK| ~ 1e13 against |A| ~ 10), not the scale
  let seed = 7;
  const rnd = () => ((seed = (seed * 16807) % 2147483647), seed / 2147483647 - 0.5);
  const A30 = Array.from({ length: 30 }, () => Array.from({ length: 30 }, rnd));
  const B30 = Array.from({ length: 30 }, () => [rnd()]);
  const g = await answer('place', { A: A30, B: B30, poles: A30.map((_, i) => -1 - 0.1 * i) });
  assert.match(
    g.refusal ?? '',
    /The gain this placement needs is the cause .*moving 30 poles with 1 input is ill-conditioned/,
    JSON.stringify(g).slice(0, 300),
  );
  assert.doesNotMatch(g.refusal ?? '', /Rescale time/);
  for (const [A, B] of [
    [[[1e-308]], [[1e-308]]],
    [
      [
        [1e-308, 2e-308],
        [0, -1e-308],
      ],
      [[1e-308], [1e-308]],
    ],
    [[[1e100]], [[1e100]]],
  ])
    assert.match((await answer('place', { A, B, poles: A.map((_, i) => -1 - i) })).refusal ?? '', /between 1e-60 and 1e60/);
  // within range and resolvable: placed (closed form: K = (a − p)/b)
  const ok = await answer('place', { A: [[-7.3e3]], B: [[7.6e3]], poles: [-6.69] });
  assert.ok(Math.abs(ok.result?.K[0][0] - (-7.3e3 + 6.69) / 7.6e3) < 1e-15, JSON.stringify(ok));
});
