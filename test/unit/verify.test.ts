// The verifier must accept right answers and reject wrong ones, whoever computed them.
// References here are closed forms, not our solvers' output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verify } from '../../src/core/verify/index.js';

const s5 = Math.sqrt(5);
// LQR of A=[0 1; -2 -3], B=[0;1], Q=I, R=1 in closed form (see turn.test.ts for the derivation):
// X = [[√5-1, √5-2], [√5-2, √5-2]], K = [√5-2, √5-2].
const args = { A: [[0, 1], [-2, -3]], B: [[0], [1]], Q: [[1, 0], [0, 1]], R: [[1]] };
const X = [[s5 - 1, s5 - 2], [s5 - 2, s5 - 2]];
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
  const y2 = s5 - 2, y3 = -3 - (1 + s5);
  const y1 = 3 * y2 + 2 * y3 + y2 * y3;
  const v = verify('lqr', args, { K: [[y2, y3]], X: [[y1, y2], [y2, y3]] })!;
  assert.equal(v.checks.find((c) => c.name === 'Riccati residual')!.ok, true, 'it does solve the equation');
  assert.equal(v.checks.find((c) => c.name === 'closed loop stable')!.ok, false, 'but does not stabilise');
  assert.equal(v.ok, false);
});

test('Lyapunov residual: right and wrong X', () => {
  // A = diag(-1, -2), Q = I  =>  X = diag(1/2, 1/4)
  const a = { A: [[-1, 0], [0, -2]], Q: [[1, 0], [0, 1]] };
  assert.ok(verify('lyap', a, { X: [[0.5, 0], [0, 0.25]] })!.ok);
  assert.equal(verify('lyap', a, { X: [[0.5, 0], [0, 0.26]] })!.ok, false);
});

test('eig: trace check and independent eigensolver', () => {
  const a = { A: [[0, 1], [-2, -3]] }; // eigenvalues -1, -2
  assert.ok(verify('eig', a, { eigenvalues: [[-2, 0], [-1, 0]] })!.ok);
  assert.equal(verify('eig', a, { eigenvalues: [[-2, 0], [-1.1, 0]] })!.ok, false);
});

test('rank: an independent SVD must agree', () => {
  // [B AB] for A=[0 1; 0 0], B=[0;1] is [[0,1],[1,0]]: rank 2
  assert.ok(verify('ctrb_rank', { A: [[0, 1], [0, 0]], B: [[0], [1]] }, { rank: 2, matrix: [[0, 1], [1, 0]] })!.ok);
  assert.equal(verify('ctrb_rank', { A: [[0, 1], [0, 0]], B: [[0], [1]] }, { rank: 1, matrix: [[0, 1], [1, 0]] })!.ok, false);
});

test('tools without a check say so (undefined), never a fake pass', () => {
  assert.equal(verify('freqresp', {}, {}), undefined);
});
