import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runTool } from '../../src/core/tools/call.js';
import { ControlError } from '../../src/core/errors.js';

type M = number[][];
const close = (a: number, b: number, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} != ${b}`);

/** C (zI - A)^-1 B + D for a first- or second-order SISO model at a real z (2x2 inverse by hand) */
function tfAt(A: M, B: M, C: M, D: M, z: number): number {
  if (A.length === 1) return (C[0][0] * B[0][0]) / (z - A[0][0]) + D[0][0];
  const [[a, b], [c, d]] = [
    [z - A[0][0], -A[0][1]],
    [-A[1][0], z - A[1][1]],
  ];
  const det = a * d - b * c;
  const x0 = (d * B[0][0] - b * B[1][0]) / det;
  const x1 = (-c * B[0][0] + a * B[1][0]) / det;
  return C[0][0] * x0 + C[0][1] * x1 + D[0][0];
}

test('c2d zoh of a first-order lag: Ad = e^{-aT}, Bd = (1 - e^{-aT})/a', () => {
  const a = 3;
  const T = 0.2;
  const r = runTool('c2d', { A: [[-a]], B: [[1]], C: [[1]], D: [[0]], Ts: T, method: 'zoh' }) as Record<string, M>;
  close(r.Ad[0][0], Math.exp(-a * T));
  close(r.Bd[0][0], (1 - Math.exp(-a * T)) / a);
  close(r.Dd[0][0], 0);
});

test('c2d zoh of the double integrator: Ad = [1 T; 0 1], Bd = [T^2/2; T]', () => {
  const T = 0.1;
  const r = runTool('c2d', {
    A: [
      [0, 1],
      [0, 0],
    ],
    B: [[0], [1]],
    C: [[1, 0]],
    D: [[0]],
    Ts: T,
  }) as Record<string, M>;
  assert.deepEqual(
    r.Ad.map((row) => row.map((v) => +v.toFixed(14))),
    [
      [1, T],
      [0, 1],
    ],
  );
  close(r.Bd[0][0], (T * T) / 2);
  close(r.Bd[1][0], T);
});

test('c2d tustin equals H(s) at s = (2/T)(z-1)/(z+1)', () => {
  const A = [
    [0, 1],
    [-2, -0.5],
  ];
  const B = [[0], [1]];
  const C = [[1, 0]];
  const D = [[0.3]];
  const T = 0.2;
  const r = runTool('c2d', { A, B, C, D, Ts: T, method: 'tustin' }) as Record<string, M>;
  for (const z of [1.7, -2.5, 3.1]) {
    const s = ((2 / T) * (z - 1)) / (z + 1);
    close(tfAt(r.Ad, r.Bd, r.Cd, r.Dd, z), tfAt(A, B, C, D, s), 1e-11);
  }
});

test('c2d foh of an integrator is the trapezoidal rule T(z+1)/(2(z-1))', () => {
  const T = 0.5;
  const r = runTool('c2d', { A: [[0]], B: [[1]], C: [[1]], D: [[0]], Ts: T, method: 'foh' }) as Record<string, M>;
  for (const z of [2, -3, 1.5]) close(tfAt(r.Ad, r.Bd, r.Cd, r.Dd, z), (T * (z + 1)) / (2 * (z - 1)), 1e-12);
});

test('c2d foh and zoh keep the DC gain of a stable system', () => {
  const A = [
    [-1, 2],
    [0, -3],
  ];
  const B = [[1], [1]];
  const C = [[1, 1]];
  const D = [[0]];
  // H(0) = -C A^-1 B: A^-1 = [[-1, -2/3], [0, -1/3]] -> A^-1 B = [-5/3, -1/3] -> H(0) = 2
  for (const method of ['zoh', 'foh', 'tustin']) {
    const r = runTool('c2d', { A, B, C, D, Ts: 0.3, method }) as Record<string, M>;
    close(tfAt(r.Ad, r.Bd, r.Cd, r.Dd, 1), 2, 1e-11);
  }
});

test('c2d tustin refuses when A has an eigenvalue at 2/Ts', () => {
  assert.throws(
    () =>
      runTool('c2d', {
        A: [
          [2, 0],
          [0, -1],
        ],
        B: [[1], [1]],
        C: [[1, 1]],
        D: [[0]],
        Ts: 1,
        method: 'tustin',
      }),
    (e: unknown) => e instanceof ControlError && /2\/Ts/.test(e.message),
  );
});

test('c2d names mismatched shapes', () => {
  assert.throws(
    () =>
      runTool('c2d', {
        A: [
          [0, 1],
          [0, 0],
        ],
        B: [[1]],
        C: [[1, 0]],
        Ts: 0.1,
      }),
    (e: unknown) => e instanceof ControlError && /B has 1 rows/.test(e.message),
  );
  // a method c2d does not take (SciPy's gbt needs an alpha: not offered) is refused
  assert.throws(() => runTool('c2d', { A: [[-1]], B: [[1]], C: [[1]], Ts: 0.1, method: 'gbt' }), ControlError);
});
