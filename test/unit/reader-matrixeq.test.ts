/**
 * Readings of the matrix-equation calls (solvers/matrixeq.ts and the S/E arguments of
 * lyap/dlyap/care/dare): MATLAB's lyap(A, B, C) is the Sylvester equation and lyap(A, Q) the
 * Lyapunov one, by the number of arguments; lyap(A, Q, [], E) is the generalised Lyapunov
 * equation; SciPy's solve_sylvester(a, b, q) has the other sign; solve_continuous_are takes
 * e before s. Expected arguments are the request's own numbers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Conversation, readTurn, type Reading } from '../../src/core/reader/index.js';

function call(msg: string, tool: string): Record<string, unknown> {
  const r: Reading = readTurn(new Conversation(), msg);
  assert.equal(r.kind, 'call', JSON.stringify(r));
  if (r.kind !== 'call') throw new Error('not a call');
  assert.equal(r.tool, tool, JSON.stringify(r));
  return r.args;
}

test('lyap(A, B, C) is the Sylvester equation; lyap(A, Q) stays Lyapunov', () => {
  assert.deepEqual(call('A = [-1 0; 0 -2]; B = -3; C = [1; 1]; X = lyap(A, B, C)', 'sylvester'), {
    A: [
      [-1, 0],
      [0, -2],
    ],
    Bs: [[-3]],
    Cs: [[1], [1]],
  });
  assert.deepEqual(Object.keys(call('A = [-1 2; 0 -3]; Q = eye(2); X = lyap(A, Q)', 'lyap')).sort(), ['A', 'Q']);
});

test("dlyap(A, B, C) is MATLAB's discrete Sylvester equation", () => {
  const a = call('A = [0.5 0; 0 0.2]; B = 0.3; C = [1; 1]; X = dlyap(A, B, C)', 'dsylvester');
  assert.deepEqual([a.Bs, a.Cs], [[[0.3]], [[1], [1]]]);
});

test('lyap(A, Q, [], E) and dlyap(A, Q, [], E) take the descriptor E', () => {
  const E = [
    [1, 0.5],
    [0, 2],
  ];
  assert.deepEqual(call('A = [-1 2; 0 -3]; Q = eye(2); E = [1 0.5; 0 2]; X = lyap(A, Q, [], E)', 'lyap').E, E);
  assert.deepEqual(call('A = [0.5 0; 0 0.2]; Q = eye(2); E = [1 0.5; 0 2]; X = dlyap(A, Q, [], E)', 'dlyap').E, E);
});

test('the Sylvester equation in words: B and C of the message are its coefficients', () => {
  const a = call('solve the sylvester equation with A = [-1 0; 0 -2], B = [-3], C = [1; 1]', 'sylvester');
  assert.deepEqual([a.Bs, a.Cs], [[[-3]], [[1], [1]]]);
  assert.deepEqual(call('solve the discrete sylvester equation with A = [0.5 0; 0 0.2], B = [0.3], C = [1; 1]', 'dsylvester').Bs, [[0.3]]);
});

test("SciPy's solve_sylvester(a, b, q) solves A X + X B = Q: read with C = −Q", () => {
  assert.deepEqual(call('X = scipy.linalg.solve_sylvester(A, B, Q) with A = [-1 0; 0 -2], B = [-3], Q = [1; 1]', 'sylvester').Cs, [[-1], [-1]]);
});

test('lyapchol / dlyapchol calls and words', () => {
  assert.deepEqual(Object.keys(call('R = lyapchol(A, B) with A = [-1 2; 0 -3], B = [1; 1]', 'lyapchol')).sort(), ['A', 'B']);
  call('dlyapchol(A, B) with A = [0.5 0.1; 0 0.8], B = [1; 1]', 'dlyapchol');
  call('cholesky factor of the lyapunov solution for A = [-1 2; 0 -3], B = [1; 1]', 'lyapchol');
});

test('care(A, B, Q, R, S, E) and solve_continuous_are(..., e=E, s=S) take S and E', () => {
  const pre = 'A = [-3 2; 1 1]; B = [0; 1]; Q = eye(2); R = 3; S = [0.1; 0.2]; E = [1 0.2; 0 2]; ';
  for (const c of [
    '[X, L, G] = care(A, B, Q, R, S, E)',
    'X = scipy.linalg.solve_continuous_are(A, B, Q, R, e=E, s=S)',
    'X = scipy.linalg.solve_continuous_are(A, B, Q, R, E, S)',
  ]) {
    const a = call(pre + c, 'care');
    assert.deepEqual(a.S, [[0.1], [0.2]], c);
    assert.deepEqual(
      a.E,
      [
        [1, 0.2],
        [0, 2],
      ],
      c,
    );
  }
  assert.deepEqual(call('A = [0.9 0.2; 0 1.1]; B = [0; 1]; Q = eye(2); R = 1; S = [0.1; 0]; X = dare(A, B, Q, R, S)', 'dare').S, [[0.1], [0]]);
});

test("lyapchol(A, B, E) and dlyapchol(A, B, E) take MATLAB's descriptor E", () => {
  const E = [
    [2, 2, 4],
    [1, 0, 5],
    [3, 1, 1],
  ];
  const a = call('A = [-1 0 -4; 3 5 4; -4 -2 1]; B = [2; -1; 7]; E = [2 2 4; 1 0 5; 3 1 1]; R = lyapchol(A, B, E)', 'lyapchol');
  assert.deepEqual(a.E, E);
  assert.deepEqual(a.B, [[2], [-1], [7]]);
  assert.deepEqual(call('A = [0.5 0; 0 0.2]; B = [1; 1]; E = [1 0.5; 0 2]; R = dlyapchol(A, B, E)', 'dlyapchol').E, [
    [1, 0.5],
    [0, 2],
  ]);
});
