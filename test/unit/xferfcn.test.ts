import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runTool } from '../../src/core/tools/call.js';
import { ControlError } from '../../src/core/errors.js';

type M = number[][];
type C = [number, number];
const close = (a: number, b: number, tol = 1e-10) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} != ${b}`);

/** sorted complex lists equal within tol */
function sameSet(got: C[], want: C[], tol = 1e-8) {
  assert.equal(got.length, want.length, `got ${JSON.stringify(got)}`);
  const g = got.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const w = want.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  g.forEach((z, i) => assert.ok(Math.hypot(z[0] - w[i][0], z[1] - w[i][1]) <= tol * Math.max(1, Math.hypot(...w[i])), `${z} vs ${w[i]}`));
}

/** p(s) for real coefficients at complex s */
function pv(p: number[], sr: number, si: number): C {
  let r = 0;
  let i = 0;
  for (const c of p) [r, i] = [r * sr - i * si + c, r * si + i * sr];
  return [r, i];
}

test('tf2ss realises the transfer function: C (sI - A)^-1 B + D = num/den at test points', () => {
  const num = [2, 3, 4];
  const den = [2, 10, 12, 14]; // non-monic on purpose
  const r = runTool('tf2ss', { num, den }) as Record<string, any>;
  assert.deepEqual(r.den, [1, 5, 6, 7]);
  assert.deepEqual(r.num, [0, 1, 1.5, 2]);
  // controllable canonical form: evaluate through the state equations at s = 1 + 2i by solving (sI - A) x = B
  const round = runTool('ss2tf', { A: r.A, B: r.B, C: r.C, D: r.D }) as { num: number[]; den: number[] };
  for (const [sr, si] of [
    [1, 2],
    [-0.5, 3],
    [2, 0],
  ] as C[]) {
    const [a, b] = pv(num, sr, si);
    const [c, d] = pv(den, sr, si);
    const [e, f] = pv(round.num, sr, si);
    const [g, h] = pv(round.den, sr, si);
    const want = [(a * c + b * d) / (c * c + d * d), (b * c - a * d) / (c * c + d * d)];
    const got = [(e * g + f * h) / (g * g + h * h), (f * g - e * h) / (g * g + h * h)];
    close(got[0], want[0]);
    close(got[1], want[1]);
  }
});

test('tf2ss of a biproper and of a static transfer function', () => {
  const r = runTool('tf2ss', { num: [1, 0, 4], den: [1, 2, 3] }) as Record<string, M>;
  assert.deepEqual(r.D, [[1]]);
  const s = runTool('tf2ss', { num: [5], den: [2] }) as Record<string, M>;
  assert.deepEqual(s.A, []);
  assert.deepEqual(s.D, [[2.5]]);
});

test('tf2ss refuses an improper transfer function', () => {
  assert.throws(
    () => runTool('tf2ss', { num: [1, 2, 3], den: [1, 1] }),
    (e: unknown) => e instanceof ControlError && /improper/.test(e.message),
  );
});

test('ss2tf of the mass-spring-damper (x" + 0.5 x\' + 2 x = u) is 1/(s^2 + 0.5 s + 2)', () => {
  const r = runTool('ss2tf', {
    A: [
      [0, 1],
      [-2, -0.5],
    ],
    B: [[0], [1]],
    C: [[1, 0]],
    D: [[0]],
  }) as { num: number[]; den: number[] };
  [1, 0.5, 2].forEach((v, i) => close(r.den[i], v));
  [0, 0, 1].forEach((v, i) => close(r.num[i], v, 1e-14));
});

test('ss2tf with feedthrough: 3·2/(s+1) + 0.5 = (0.5 s + 6.5)/(s + 1)', () => {
  const r = runTool('ss2tf', { A: [[-1]], B: [[2]], C: [[3]], D: [[0.5]] }) as { num: number[]; den: number[] };
  assert.deepEqual(r.den, [1, 1]);
  close(r.num[0], 0.5);
  close(r.num[1], 6.5);
});

test('ss2tf of a discrete model is in z with its Ts; a numerator coefficient at rounding level is exactly 0 (0.1/((z − 0.9)(z − 0.8)), by hand)', () => {
  const r = runTool('ss2tf', {
    A: [
      [0.9, 0.1],
      [0, 0.8],
    ],
    B: [[0], [1]],
    C: [[1, 0]],
    D: [[0]],
    Ts: 0.1,
  }) as Record<string, any>;
  assert.equal(r.Ts, 0.1);
  // det(zI − A + BC) − det(zI − A) left 2.2e-16 z before: shown as '2.22045e-16z + 0.1'
  assert.deepEqual(r.num.slice(0, 2), [0, 0]);
  assert.ok(Math.abs(r.num[2] - 0.1) < 1e-15, String(r.num));
  r.den.forEach((v: number, i: number) => assert.ok(Math.abs(v - [1, -1.7, 0.72][i]) < 1e-14, String(r.den)));
});

test('ss2tf of a MIMO model gives the matrix of entries (MIMO cases: test/unit/tfzpk.test.ts)', () => {
  // 1/(s + 1) on both inputs: two entries, and the characteristic polynomial s + 1
  const r = runTool('ss2tf', { A: [[-1]], B: [[1, 1]], C: [[1]] }) as { num: number[][][]; den: number[][][]; charpoly: number[] };
  assert.deepEqual(r.num, [[[1], [1]]]);
  assert.deepEqual(r.den, [
    [
      [1, 1],
      [1, 1],
    ],
  ]);
  assert.deepEqual(r.charpoly, [1, 1]);
});

test('poles and zeros of (s - 0.5)·(-2)/((s+1)(s+2)(s+3)), gain -2', () => {
  const r = runTool('poles_zeros', { num: [-2, 1], den: [1, 6, 11, 6] }) as { poles: C[]; zeros: C[]; gain: number };
  sameSet(r.poles, [
    [-1, 0],
    [-2, 0],
    [-3, 0],
  ]);
  sameSet(r.zeros, [[0.5, 0]]);
  close(r.gain, -2);
});

test('invariant zeros of a state-space SISO model: (s+1)/((s+2)(s+3)) in controllable form', () => {
  // den s^2 + 5s + 6, num s + 1
  const r = runTool('poles_zeros', {
    A: [
      [-5, -6],
      [1, 0],
    ],
    B: [[1], [0]],
    C: [[1, 1]],
    D: [[0]],
  }) as { poles: C[]; zeros: C[]; gain: number };
  sameSet(r.poles, [
    [-3, 0],
    [-2, 0],
  ]);
  sameSet(r.zeros, [[-1, 0]]);
  close(r.gain, 1);
});

test('transmission zeros of a 2x2 diagonal system diag((s+1)/((s+2)(s+3)), (s+4)/(s+5)) after a rotation of the state', () => {
  // block diagonal realisation, then an orthogonal change of coordinates T
  const A0 = [
    [-5, -6, 0],
    [1, 0, 0],
    [0, 0, -5],
  ];
  const B0 = [
    [1, 0],
    [0, 0],
    [0, 1],
  ];
  const C0 = [
    [1, 1, 0],
    [0, 0, -1],
  ];
  const D = [
    [0, 0],
    [0, 1],
  ];
  const c = Math.cos(0.7),
    s = Math.sin(0.7);
  const T = [
    [c, -s, 0],
    [s, c, 0],
    [0, 0, 1],
  ].map((r, i) => r.map((v, j) => (i === 2 || j === 2 ? (i === j ? 1 : 0) : v)));
  const Tt = T[0].map((_, j) => T.map((r) => r[j]));
  const mul = (X: M, Y: M) => X.map((r) => Y[0].map((_, j) => r.reduce((acc, v, k) => acc + v * Y[k][j], 0)));
  const r = runTool('poles_zeros', { A: mul(mul(Tt, A0), T), B: mul(Tt, B0), C: mul(C0, T), D }) as { poles: C[]; zeros: C[]; gain?: number };
  sameSet(r.poles, [
    [-5, 0],
    [-3, 0],
    [-2, 0],
  ]);
  sameSet(r.zeros, [
    [-4, 0],
    [-1, 0],
  ]);
  assert.equal(r.gain, undefined);
});

test('dcgain: 2/((s+1)(s+2)) = 1; s/((s+1)(s+2)) = 0; 1/(s(s+1)) is infinite', () => {
  assert.deepEqual((runTool('dcgain', { num: [2], den: [1, 3, 2] }) as { gain: M }).gain, [[1]]);
  assert.deepEqual((runTool('dcgain', { num: [1, 0], den: [1, 3, 2] }) as { gain: M }).gain, [[0]]);
  const g = (runTool('dcgain', { num: [1], den: [1, 1, 0] }) as { gain: M }).gain[0][0];
  assert.equal(Math.abs(g), Infinity);
});

test('dcgain of a state-space model is D - C A^-1 B, and H(1) in discrete time', () => {
  const g = (
    runTool('dcgain', {
      A: [
        [0, 1],
        [-2, -0.5],
      ],
      B: [[0], [1]],
      C: [[1, 0]],
      D: [[0]],
    }) as { gain: M }
  ).gain;
  close(g[0][0], 0.5);
  // x[k+1] = 0.5 x + u, y = x + 1: H(1) = 1/(1 - 0.5) + 1 = 3
  const gd = (runTool('dcgain', { A: [[0.5]], B: [[1]], C: [[1]], D: [[1]], Ts: 0.1 }) as { gain: M }).gain;
  close(gd[0][0], 3);
  const gi = (runTool('dcgain', { num: [1], den: [1, -1], Ts: 0.1 }) as { gain: M }).gain;
  assert.equal(Math.abs(gi[0][0]), Infinity);
});

test('dcgain: a pole at 0 is infinite only in the channels that see it', () => {
  // x1' = u (integrator seen by output 1), x2' = -x2 + u (seen by output 2)
  const g = (
    runTool('dcgain', {
      A: [
        [0, 0],
        [0, -1],
      ],
      B: [[1], [1]],
      C: [
        [1, 0],
        [0, 2],
      ],
      D: [[0], [0]],
    }) as { gain: M }
  ).gain;
  assert.equal(g[0][0], Infinity);
  close(g[1][0], 2);
});
