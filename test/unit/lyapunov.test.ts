import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lyapSolve, dlyapSolve } from '../../src/core/solvers/lyapunov.js';
import { runTool } from '../../src/core/tools/call.js';
import { ControlError } from '../../src/core/errors.js';
import { type M, mm, tr, add, sub, fro, eye, randM, rng, sc } from './linalg-helpers.js';

/** term-normalised residual of A X + X A' + Q */
const resC = (A: M, X: M, Q: M) => {
  const t = [mm(A, X), mm(X, tr(A)), Q];
  return fro(add(...t)) / t.reduce((s, v) => s + fro(v), 0);
};
const resD = (A: M, X: M, Q: M) => {
  const t = [mm(mm(A, X), tr(A)), sc(X, -1), Q];
  return fro(add(...t)) / t.reduce((s, v) => s + fro(v), 0);
};
/** a random matrix shifted so its spectrum is in the left half-plane / unit disc */
function stableRandom(n: number, rand: () => number, discrete: boolean): M {
  const A = randM(n, n, rand);
  const shift = n; // Gershgorin-safe
  return discrete ? A.map((r) => r.map((v) => v / (n * 0.8))) : A.map((r, i) => r.map((v, j) => (i === j ? v - shift : v)));
}

test('lyap: closed form for diagonal A', () => {
  // a_i x_ij + x_ij a_j + q_ij = 0  =>  x_ij = -q_ij / (a_i + a_j)
  const a = [-1, -2, -5];
  const A = [
    [a[0], 0, 0],
    [0, a[1], 0],
    [0, 0, a[2]],
  ];
  const Q = [
    [1, 2, 3],
    [2, 4, 5],
    [3, 5, 6],
  ];
  const X = lyapSolve(A, Q);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) assert.ok(Math.abs(X[i][j] + Q[i][j] / (a[i] + a[j])) < 1e-15 * 10);
});

test('lyap: the controllability gramian of the double integrator with damping', () => {
  // A = [0 1; -1 -1], B = [0; 1]: P = [1/2 0; 0 1/2] (solve by hand: A P + P A' + B B' = 0)
  const X = lyapSolve(
    [
      [0, 1],
      [-1, -1],
    ],
    [
      [0, 0],
      [0, 1],
    ],
  );
  assert.ok(
    fro(
      sub(X, [
        [0.5, 0],
        [0, 0.5],
      ]),
    ) <
      1e-15 * 10,
  );
});

test('lyap and dlyap: small residuals on random problems, symmetric X for symmetric Q', () => {
  const rand = rng(42);
  for (const n of [2, 5, 13, 40]) {
    for (const discrete of [false, true]) {
      const A = stableRandom(n, rand, discrete);
      const G = randM(n, n, rand);
      const Q = mm(G, tr(G));
      const X = discrete ? dlyapSolve(A, Q) : lyapSolve(A, Q);
      const r = discrete ? resD(A, X, Q) : resC(A, X, Q);
      assert.ok(r < 1e-14, `n=${n} discrete=${discrete} residual ${r}`);
      assert.ok(fro(sub(X, tr(X))) === 0);
    }
  }
});

test('lyap with a nonsymmetric Q and an unstable (but regular) A', () => {
  const rand = rng(8);
  const A = [
    [2, 2, 0],
    [0, 3, 1],
    [0, 0, -4],
  ];
  const Q = randM(3, 3, rand);
  assert.ok(resC(A, lyapSolve(A, Q), Q) < 1e-14);
  assert.ok(resD(A, dlyapSolve(A, Q), Q) < 1e-14);
});

test('lyap with complex eigenvalues and a Jordan block', () => {
  const A = [
    [-0.1, 5, 0, 0],
    [-5, -0.1, 0, 0],
    [0, 0, -1, 1],
    [0, 0, 0, -1],
  ];
  const Q = eye(4);
  assert.ok(resC(A, lyapSolve(A, Q), Q) < 1e-14);
  assert.ok(resD(sc(A, 0.15), dlyapSolve(sc(A, 0.15), Q), Q) < 1e-14);
});

test('dlyap: scalar closed form x = q / (1 - a^2)', () => {
  const X = dlyapSolve([[0.5]], [[3]]);
  assert.ok(Math.abs(X[0][0] - 4) < 1e-15);
});

test('lyap refuses λi + λj = 0 and dlyap refuses λi λj = 1', () => {
  assert.throws(
    () =>
      lyapSolve(
        [
          [1, 0],
          [0, -1],
        ],
        eye(2),
      ),
    ControlError,
  );
  assert.throws(
    () =>
      lyapSolve(
        [
          [0, 1],
          [-1, 0],
        ],
        eye(2),
      ),
    /no unique solution/,
  );
  assert.throws(
    () =>
      dlyapSolve(
        [
          [2, 0],
          [0, 0.5],
        ],
        eye(2),
      ),
    ControlError,
  );
  const c = Math.cos(0.4),
    s = Math.sin(0.4);
  assert.throws(
    () =>
      dlyapSolve(
        [
          [c, s],
          [-s, c],
        ],
        eye(2),
      ),
    /no unique solution/,
  );
});

test('lyap tool: shape errors name the arguments', () => {
  assert.throws(
    () =>
      runTool('lyap', {
        A: [
          [1, 2],
          [3, 4],
        ],
        Q: [[1]],
      }),
    /Q is 1x1 but A is 2x2/,
  );
  assert.throws(() => runTool('dlyap', { A: [[1, 2]], Q: [[1]] }), /A must be square/);
});
