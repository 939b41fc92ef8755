import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runTool } from '../../src/core/tools/call.js';
import { ControlError } from '../../src/core/errors.js';
import { eigenvalues } from '../../src/core/solvers/statesp.js';

type M = number[][];
type C = [number, number];
const close = (a: number, b: number, tol = 1e-10) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} != ${b}`);

function achieved(A: M, B: M, K: M): C[] {
  const Acl = A.map((r, i) => r.map((v, j) => v - B[i].reduce((s, b, l) => s + b * K[l][j], 0)));
  return eigenvalues(Acl);
}

/** greedy multiset match of complex lists, max distance relative to the largest target */
function poleError(got: C[], want: C[]): number {
  const left = want.slice();
  let worst = 0;
  for (const g of got) {
    let bi = 0;
    let bd = Infinity;
    left.forEach((w, i) => {
      const d = Math.hypot(g[0] - w[0], g[1] - w[1]);
      if (d < bd) {
        bd = d;
        bi = i;
      }
    });
    worst = Math.max(worst, bd);
    left.splice(bi, 1);
  }
  return worst / Math.max(...want.map((w) => Math.hypot(...w)));
}

test('place on the double integrator: poles -1 +- i need K = [2, 2]', () => {
  const r = runTool('place', {
    A: [
      [0, 1],
      [0, 0],
    ],
    B: [[0], [1]],
    poles: [
      [-1, 1],
      [-1, -1],
    ],
  }) as { K: M; poles: C[]; Acl: M };
  close(r.K[0][0], 2, 1e-13);
  close(r.K[0][1], 2, 1e-13);
  assert.deepEqual(
    r.Acl.map((row) => row.map((v) => +v.toFixed(12))),
    [
      [0, 1],
      [-2, -2],
    ],
  );
});

test('place: companion form gives K = desired coefficients minus open-loop ones', () => {
  // A companion of s^3 + 2s^2 + 3s + 4 (controllable canonical), poles -1, -2, -3: s^3 + 6s^2 + 11s + 6
  const A = [
    [-2, -3, -4],
    [1, 0, 0],
    [0, 1, 0],
  ];
  const B = [[1], [0], [0]];
  const r = runTool('place', { A, B, poles: [-1, -2, -3] }) as { K: M };
  [4, 8, 2].forEach((v, j) => close(r.K[0][j], v, 1e-12));
});

test('place assigns a triple pole with a single input (K unique)', () => {
  const A = [
    [0, 1, 0],
    [0, -10, 1],
    [0, -0.02, -2],
  ];
  const B = [[0], [0], [2]];
  const r = runTool('place', { A, B, poles: [-4, -4, -4] }) as { K: M; poles: C[] };
  // closed-loop characteristic polynomial must be (s + 4)^3: compare the trace (sum of poles) and det(-Acl) = 64
  const Acl = A.map((row, i) => row.map((v, j) => v - B[i][0] * r.K[0][j]));
  close(Acl[0][0] + Acl[1][1] + Acl[2][2], -12, 1e-12);
  const det =
    Acl[0][0] * (Acl[1][1] * Acl[2][2] - Acl[1][2] * Acl[2][1]) -
    Acl[0][1] * (Acl[1][0] * Acl[2][2] - Acl[1][2] * Acl[2][0]) +
    Acl[0][2] * (Acl[1][0] * Acl[2][1] - Acl[1][1] * Acl[2][0]);
  close(-det, 64, 1e-10);
  assert.ok(
    poleError(achieved(A, B, r.K), [
      [-4, 0],
      [-4, 0],
      [-4, 0],
    ]) < 1e-4,
  );
});

test('place with several inputs achieves the poles (pendulum, two inputs, complex pair)', () => {
  const A = [
    [0, 1, 0, 0],
    [0, -0.1818, 2.6727, 0],
    [0, 0, 0, 1],
    [0, -0.4545, 31.1818, 0],
  ];
  const B = [
    [0, 0],
    [1.8182, 0],
    [0, 0],
    [4.5455, 1],
  ];
  const poles: C[] = [
    [-2, 0],
    [-3, 0],
    [-4, 1],
    [-4, -1],
  ];
  const r = runTool('place', { A, B, poles }) as { K: M; poles: C[] };
  assert.equal(r.K.length, 2);
  assert.ok(poleError(achieved(A, B, r.K), poles) < 1e-10);
  assert.ok(poleError(r.poles, poles) < 1e-10);
});

test('place with several inputs and a pole repeated rank(B) times', () => {
  const A = [
    [0, 1, 0, 0],
    [0, -0.1818, 2.6727, 0],
    [0, 0, 0, 1],
    [0, -0.4545, 31.1818, 0],
  ];
  const B = [
    [0, 0],
    [1.8182, 0],
    [0, 0],
    [4.5455, 1],
  ];
  const poles: C[] = [
    [-2, 0],
    [-2, 0],
    [-3, 0],
    [-3, 0],
  ];
  const r = runTool('place', { A, B, poles }) as { K: M };
  assert.ok(poleError(achieved(A, B, r.K), poles) < 1e-6);
});

test('place with a random 8-state, 3-input system (discrete-style poles inside the unit circle)', () => {
  let seed = 7;
  const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
  const n = 8;
  const A = Array.from({ length: n }, () => Array.from({ length: n }, rnd));
  const B = Array.from({ length: n }, () => Array.from({ length: 3 }, rnd));
  const poles: C[] = [
    [0.1, 0],
    [0.2, 0],
    [-0.3, 0],
    [0.4, 0],
    [0.5, 0.2],
    [0.5, -0.2],
    [-0.1, 0.6],
    [-0.1, -0.6],
  ];
  const r = runTool('place', { A, B, poles }) as { K: M };
  assert.ok(poleError(achieved(A, B, r.K), poles) < 1e-9);
});

test('place refuses an uncontrollable pair and names the fixed mode', () => {
  assert.throws(
    () =>
      runTool('place', {
        A: [
          [1, 0],
          [0, 2],
        ],
        B: [[1], [0]],
        poles: [-1, -2],
      }),
    (e: unknown) => e instanceof ControlError && /not controllable/.test(e.message) && /2\.0/.test(e.message),
  );
  // repeated open-loop eigenvalue with one input is never controllable
  assert.throws(
    () =>
      runTool('place', {
        A: [
          [-1, 0, 0],
          [0, -1, 0],
          [0, 0, -2],
        ],
        B: [[1], [1], [1]],
        poles: [-3, -4, -5],
      }),
    ControlError,
  );
});

test('place refuses a pole repeated more than rank(B) times with several inputs', () => {
  const A = [
    [0, 1, 0],
    [0, 0, 1],
    [1, 2, 3],
  ];
  const B = [
    [1, 0],
    [0, 0],
    [0, 1],
  ];
  assert.throws(
    () => runTool('place', { A, B, poles: [-1, -1, -1] }),
    (e: unknown) => e instanceof ControlError && /rank\(B\)/.test(e.message),
  );
});

test('place refuses a complex pole without its conjugate, and the wrong number of poles', () => {
  assert.throws(
    () =>
      runTool('place', {
        A: [
          [0, 1],
          [0, 0],
        ],
        B: [[0], [1]],
        poles: [
          [-1, 1],
          [-2, 0],
        ],
      }),
    (e: unknown) => e instanceof ControlError && /conjugate/.test(e.message),
  );
  assert.throws(
    () =>
      runTool('place', {
        A: [
          [0, 1],
          [0, 0],
        ],
        B: [[0], [1]],
        poles: [-1],
      }),
    (e: unknown) => e instanceof ControlError && /exactly 2 poles/.test(e.message),
  );
});

test('place with B of full row rank (every direction allowed): B = I and more inputs than states', () => {
  // these failed before with "the closed-loop eigenvector matrix became singular"
  const A = [
    [1, 2, 0],
    [0, 1, 3],
    [1, 0, 1],
  ];
  const poles: C[] = [
    [-1, 0],
    [-2, 1],
    [-2, -1],
  ];
  const r = runTool('place', {
    A,
    B: [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
    poles,
  }) as { K: M };
  assert.ok(
    poleError(
      achieved(
        A,
        [
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ],
        r.K,
      ),
      poles,
    ) < 1e-14,
  );
  const A2 = [
    [0, 1],
    [2, 3],
  ];
  const B2 = [
    [1, 0, 1],
    [0, 1, 1],
  ];
  const p2: C[] = [
    [-1, 2],
    [-1, -2],
  ];
  const r2 = runTool('place', { A: A2, B: B2, poles: p2 }) as { K: M };
  assert.equal(r2.K.length, 3);
  assert.ok(poleError(achieved(A2, B2, r2.K), p2) < 1e-14);
});

test('place with several inputs keeps a pole that is already an eigenvalue of A', () => {
  const A = [
    [-1, 1, 0],
    [0, -2, 1],
    [0, 0, -3],
  ];
  const B = [
    [0, 0],
    [1, 0],
    [0, 1],
  ];
  const poles: C[] = [
    [-1, 0],
    [-5, 0],
    [-6, 0],
  ];
  const r = runTool('place', { A, B, poles }) as { K: M };
  assert.ok(poleError(achieved(A, B, r.K), poles) < 1e-14);
});
