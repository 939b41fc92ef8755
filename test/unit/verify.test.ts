// The verifier must accept right answers and reject wrong ones, whoever computed them.
// References here are closed forms, not our solvers' output. The verifier over every oracle
// problem: test/slow/verify.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verify } from '../../src/core/verify/index.js';

const s5 = Math.sqrt(5);
// LQR of A=[0 1; -2 -3], B=[0;1], Q=I, R=1 in closed form (see turn.test.ts for the derivation):
// X = [[√5-1, √5-2], [√5-2, √5-2]], K = [√5-2, √5-2].
const args = {
  A: [
    [0, 1],
    [-2, -3],
  ],
  B: [[0], [1]],
  Q: [
    [1, 0],
    [0, 1],
  ],
  R: [[1]],
};
const X = [
  [s5 - 1, s5 - 2],
  [s5 - 2, s5 - 2],
];
const K = [[s5 - 2, s5 - 2]];

test('a correct LQR solution verifies: residual, symmetry, gain, stability', () => {
  const v = verify('lqr', args, { K, X })!;
  assert.ok(v.ok, JSON.stringify(v.checks));
  const names = v.checks.map((c) => c.name);
  for (const n of ['Riccati residual', 'X symmetric', 'gain consistent', 'closed loop stable']) assert.ok(names.includes(n), n);
  assert.ok(v.checks.find((c) => c.name === 'Riccati residual')!.value! < 1e-15);
});

test('a perturbed X or an inconsistent K fails verification', () => {
  const Xbad = X.map((r) => r.map((x) => x * (1 + 1e-5)));
  assert.equal(verify('lqr', args, { K, X: Xbad })!.ok, false);
  assert.equal(verify('lqr', args, { K: [[0.3, 0.2]], X })!.ok, false);
});

test('the anti-stabilising Riccati solution is caught by the stability check', () => {
  // Another symmetric solution of the same CARE. The (1,1) equation gives x2² + 4x2 - 1 = 0,
  // the (2,2) one x3² + 6x3 - (1 + 2x2) = 0 and the (1,2) one x1 = 3x2 + 2x3 + x2x3.
  // Take x2 = √5-2 with the other root x3 = -3 - (1+√5): the equation holds, the loop is unstable.
  const y2 = s5 - 2,
    y3 = -3 - (1 + s5);
  const y1 = 3 * y2 + 2 * y3 + y2 * y3;
  const v = verify('lqr', args, {
    K: [[y2, y3]],
    X: [
      [y1, y2],
      [y2, y3],
    ],
  })!;
  assert.equal(v.checks.find((c) => c.name === 'Riccati residual')!.ok, true, 'it does solve the equation');
  assert.equal(v.checks.find((c) => c.name === 'closed loop stable')!.ok, false, 'but does not stabilise');
  assert.equal(v.ok, false);
});

test('Lyapunov residual: right and wrong X', () => {
  // A = diag(-1, -2), Q = I  =>  X = diag(1/2, 1/4)
  const a = {
    A: [
      [-1, 0],
      [0, -2],
    ],
    Q: [
      [1, 0],
      [0, 1],
    ],
  };
  assert.ok(
    verify('lyap', a, {
      X: [
        [0.5, 0],
        [0, 0.25],
      ],
    })!.ok,
  );
  assert.equal(
    verify('lyap', a, {
      X: [
        [0.5, 0],
        [0, 0.26],
      ],
    })!.ok,
    false,
  );
});

test('eig: trace check and independent eigensolver', () => {
  const a = {
    A: [
      [0, 1],
      [-2, -3],
    ],
  }; // eigenvalues -1, -2
  assert.ok(
    verify('eig', a, {
      eigenvalues: [
        [-2, 0],
        [-1, 0],
      ],
    })!.ok,
  );
  assert.equal(
    verify('eig', a, {
      eigenvalues: [
        [-2, 0],
        [-1.1, 0],
      ],
    })!.ok,
    false,
  );
});

test('rank: an independent SVD must agree', () => {
  // [B AB] for A=[0 1; 0 0], B=[0;1] is [[0,1],[1,0]]: rank 2
  assert.ok(
    verify(
      'ctrb_rank',
      {
        A: [
          [0, 1],
          [0, 0],
        ],
        B: [[0], [1]],
      },
      {
        rank: 2,
        matrix: [
          [0, 1],
          [1, 0],
        ],
      },
    )!.ok,
  );
  assert.equal(
    verify(
      'ctrb_rank',
      {
        A: [
          [0, 1],
          [0, 0],
        ],
        B: [[0], [1]],
      },
      {
        rank: 1,
        matrix: [
          [0, 1],
          [1, 0],
        ],
      },
    )!.ok,
    false,
  );
});

test('tools without a check say so (undefined), never a fake pass', () => {
  assert.equal(verify('no_such_tool', {}, {}), undefined);
  // 1/(s+1) has DC gain 1
  assert.ok(verify('dcgain', { num: [1], den: [1, 1] }, { gain: [[1]] })!.ok);
  assert.equal(verify('dcgain', { num: [1], den: [1, 1] }, { gain: [[1.1]] })!.ok, false);
  // an H2 norm above n = 20 has no independent recomputation (the Kronecker solve is too large)
  const n = 21;
  const A = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? -1 : 0)));
  assert.equal(verify('h2norm', { A, B: A.map(() => [1]), C: [A.map(() => 1)] }, { h2: 1 }), undefined);
  // and a discrete step response is rechecked by the plain recursion: y = 0, 1, 1.5 for x+ = 0.5x + u
  assert.ok(verify('step', { A: [[0.5]], B: [[1]], C: [[1]], D: [[0]], t: [0, 1, 2], Ts: 1 }, { y: [0, 1, 1.5] })!.ok);
  assert.equal(verify('step', { A: [[0.5]], B: [[1]], C: [[1]], D: [[0]], t: [0, 1, 2], Ts: 1 }, { y: [0, 1, 1.6] })!.ok, false);
});

test('system tools: right answers verify, perturbed ones do not', async () => {
  const { runTool } = await import('../../src/core/tools/call.js');
  // G(s) = 1/(s+1)^3: phase crossover at ω = √3 with |G| = 1/8, so GM = 8 (classic textbook loop)
  const m = { num: [1], den: [1, 3, 3, 1] };
  const r = runTool('margins', m) as Record<string, number>;
  assert.ok(Math.abs(r.gm - 8) < 1e-9 && Math.abs(r.w_pc - Math.sqrt(3)) < 1e-9);
  assert.ok(verify('margins', m, r)!.ok);
  assert.equal(verify('margins', m, { ...r, gm: 8.01 })!.ok, false);
  // first-order lag 1/(s+1): y(t) = 1 − e^{−t}
  const sys = { A: [[-1]], B: [[1]], C: [[1]], D: [[0]], t: [0, 0.5, 1, 2, 4] };
  const y = sys.t.map((t) => 1 - Math.exp(-t));
  assert.ok(verify('step', sys, { y })!.ok);
  assert.equal(verify('step', sys, { y: y.map((v, i) => (i === 2 ? v + 1e-3 : v)) })!.ok, false);
  // tf2ss: any realisation of 1/(s+2) must reproduce it
  assert.ok(verify('tf2ss', { num: [1], den: [1, 2] }, { A: [[-2]], B: [[1]], C: [[1]], D: [[0]] })!.ok);
  assert.equal(verify('tf2ss', { num: [1], den: [1, 2] }, { A: [[-2.1]], B: [[1]], C: [[1]], D: [[0]] })!.ok, false);
  // c2d zoh of ẋ = −x: Ad = e^{−Ts}
  const c = { A: [[-1]], B: [[1]], C: [[1]], D: [[0]], Ts: 0.1, method: 'zoh' };
  assert.ok(verify('c2d', c, { Ad: [[Math.exp(-0.1)]], Bd: [[1 - Math.exp(-0.1)]], Cd: [[1]], Dd: [[0]] })!.ok);
  assert.equal(verify('c2d', c, { Ad: [[0.9]], Bd: [[0.1]], Cd: [[1]], Dd: [[0]] })!.ok, false);
});
