import { test } from 'node:test';
import assert from 'node:assert/strict';
import { careSolve, dareSolve } from '../../src/core/solvers/riccati.js';
import { runTool } from '../../src/core/tools/call.js';
import { ControlError } from '../../src/core/errors.js';
import { type M, mm, tr, add, sub, fro, eye, zeros, invert, randM, rng, sc, charDetAbs } from './linalg-helpers.js';

/** normalised residuals and gains computed here, independently of the solver */
function careRes(A: M, B: M, Q: M, R: M, X: M, N?: M): number {
  const Nm = N ?? zeros(A.length, B[0].length);
  const XBN = add(mm(X, B), Nm);
  const T = mm(mm(XBN, invert(R)), tr(XBN));
  const terms = [mm(tr(A), X), mm(X, A), sc(T, -1), Q];
  return fro(add(...terms)) / terms.reduce((s, t) => s + fro(t), 0);
}
function dareRes(A: M, B: M, Q: M, R: M, X: M, N?: M): number {
  const Nm = N ?? zeros(A.length, B[0].length);
  const G = add(R, mm(mm(tr(B), X), B));
  const L = add(mm(mm(tr(A), X), B), Nm);
  const T = mm(mm(L, invert(G)), tr(L));
  const terms = [mm(mm(tr(A), X), A), sc(X, -1), sc(T, -1), Q];
  return fro(add(...terms)) / terms.reduce((s, t) => s + fro(t), 0);
}
const spd = (n: number, rand: () => number): M => {
  const G = randM(n, n, rand);
  return add(mm(G, tr(G)), sc(eye(n), 0.1));
};
const close = (a: number, b: number, tol: number) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));

test('LQR of the double integrator: K = [1, sqrt(3)], X = [[sqrt3, 1], [1, sqrt3]]', () => {
  const r = runTool('lqr', {
    A: [
      [0, 1],
      [0, 0],
    ],
    B: [[0], [1]],
    Q: [
      [1, 0],
      [0, 1],
    ],
    R: [[1]],
  }) as { K: M; X: M; poles: M };
  const s3 = Math.sqrt(3);
  assert.ok(close(r.K[0][0], 1, 1e-14) && close(r.K[0][1], s3, 1e-14));
  assert.ok(
    fro(
      sub(r.X, [
        [s3, 1],
        [1, s3],
      ]),
    ) <
      1e-14 * 4,
  );
  // closed loop s^2 + sqrt3 s + 1: poles -sqrt3/2 ± i/2
  for (const [re, im] of r.poles) assert.ok(close(re, -s3 / 2, 1e-14) && close(Math.abs(im), 0.5, 1e-14));
});

test('scalar CARE and DARE match their closed forms', () => {
  for (const [a, b, q, r] of [
    [1, 1, 1, 1],
    [-2, 0.5, 3, 0.1],
    [3, 2, 0, 1],
    [0, 1, 1e4, 1e-3],
  ]) {
    // a x + x a - x^2 b^2 / r + q = 0, stabilising root
    const xc = (r * (a + Math.sqrt(a * a + (b * b * q) / r))) / (b * b);
    assert.ok(close(careSolve([[a]], [[b]], [[q]], [[r]]).X[0][0], xc, 1e-13));
    // a^2 x - x - a^2 b^2 x^2 / (r + b^2 x) + q = 0  <=>  b^2 x^2 + (r - a^2 r - q b^2) x - q r = 0
    const qa = b * b,
      qb = r - a * a * r - q * b * b,
      qc = -q * r;
    const xd = (-qb + Math.sqrt(qb * qb - 4 * qa * qc)) / (2 * qa);
    assert.ok(close(dareSolve([[a]], [[b]], [[q]], [[r]]).X[0][0], xd, 1e-12), `${a} ${b} ${q} ${r}`);
  }
});

test('DARE with A = B = Q = R = I: X = golden ratio times I', () => {
  const phi = (1 + Math.sqrt(5)) / 2;
  const s = dareSolve(eye(3), eye(3), eye(3), eye(3));
  assert.ok(fro(sub(s.X, sc(eye(3), phi))) < 1e-14 * 5);
});

test('CARE and DARE on random problems: small residual, symmetric X, stabilising, K consistent', () => {
  const rand = rng(123);
  for (const [n, m] of [
    [2, 1],
    [5, 2],
    [12, 3],
    [30, 6],
  ]) {
    const A = randM(n, n, rand),
      B = randM(n, m, rand),
      Q = spd(n, rand),
      R = spd(m, rand);
    const c = careSolve(A, B, Q, R);
    assert.ok(careRes(A, B, Q, R, c.X) < 1e-13, `care n=${n}: ${careRes(A, B, Q, R, c.X)}`);
    assert.equal(fro(sub(c.X, tr(c.X))), 0);
    assert.ok(fro(sub(c.K, mm(invert(R), mm(tr(B), c.X)))) <= 1e-10 * fro(c.K));
    const Acl = sub(A, mm(B, c.K));
    for (const [re, im] of c.poles) {
      assert.ok(re < 0);
      assert.ok(charDetAbs(Acl, re, im) <= 1e-8 * Math.max(charDetAbs(Acl, re + 0.5, im), 1e-300));
    }
    const d = dareSolve(A, B, Q, R);
    assert.ok(dareRes(A, B, Q, R, d.X) < 1e-13, `dare n=${n}: ${dareRes(A, B, Q, R, d.X)}`);
    const Kd = mm(invert(add(R, mm(mm(tr(B), d.X), B))), mm(mm(tr(B), d.X), A));
    assert.ok(fro(sub(d.K, Kd)) <= 1e-10 * fro(d.K));
    for (const [re, im] of d.poles) assert.ok(Math.hypot(re, im) < 1);
  }
});

test("cross term N: lqr and dlqr solve the equations with N and K = R^-1(B'X + N')", () => {
  const rand = rng(77);
  const n = 6,
    m = 2;
  const A = randM(n, n, rand),
    B = randM(n, m, rand),
    R = spd(m, rand);
  const N = sc(randM(n, m, rand), 0.1);
  const Q = add(spd(n, rand), mm(mm(N, invert(R)), tr(N))); // keeps [Q N; N' R] positive definite
  const c = runTool('lqr', { A, B, Q, R, N }) as { K: M; X: M };
  assert.ok(careRes(A, B, Q, R, c.X, N) < 1e-13);
  assert.ok(fro(sub(c.K, mm(invert(R), add(mm(tr(B), c.X), tr(N))))) < 1e-10 * fro(c.K));
  const d = runTool('dlqr', { A, B, Q, R, N }) as { K: M; X: M };
  assert.ok(dareRes(A, B, Q, R, d.X, N) < 1e-13);
  const G = add(R, mm(mm(tr(B), d.X), B));
  assert.ok(fro(sub(d.K, mm(invert(G), add(mm(mm(tr(B), d.X), A), tr(N))))) < 1e-10 * fro(d.K));
});

test('DARE with a singular A (a pure delay)', () => {
  const A = [
      [0, 1, 0],
      [0, 0, 1],
      [0, 0, 0],
    ],
    B = [[0], [0], [1]];
  const d = dareSolve(A, B, eye(3), [[1]]);
  assert.ok(dareRes(A, B, eye(3), [[1]], d.X) < 1e-14);
});

test('Q = 0 with an unstable A gives the mirror-image solution (no detectability needed)', () => {
  // scalar a = 1, b = 1, r = 1, q = 0: x = 2a = 2 (CARE), pole -1; DARE a = 1.5: x = a^2 - 1 = 1.25
  assert.ok(close(careSolve([[1]], [[1]], [[0]], [[1]]).X[0][0], 2, 1e-14));
  const d = dareSolve([[1.5]], [[1]], [[0]], [[1]]);
  assert.ok(close(d.X[0][0], 1.25, 1e-13));
  assert.ok(close(d.poles[0][0], 1 / 1.5, 1e-13));
});

test('refusals: not stabilisable (naming the mode), and imaginary-axis Hamiltonian eigenvalues', () => {
  assert.throws(
    () =>
      runTool('care', {
        A: [
          [1, 0],
          [0, -1],
        ],
        B: [[0], [1]],
        Q: eye(2),
        R: [[1]],
      }),
    /\(A, B\) is not stabilisable: the mode at s = 1 is uncontrollable/,
  );
  assert.throws(
    () =>
      runTool('dlqr', {
        A: [
          [2, 0],
          [0, 0.5],
        ],
        B: [[0], [1]],
        Q: eye(2),
        R: [[1]],
      }),
    /not stabilisable: the mode at z = 2 is uncontrollable/,
  );
  assert.throws(
    () =>
      runTool('care', {
        A: [
          [0, 1],
          [-1, 0],
        ],
        B: [[0], [1]],
        Q: zeros(2),
        R: [[1]],
      }),
    ControlError,
  );
  assert.throws(
    () =>
      runTool('lqe', {
        A: [
          [1, 0],
          [0, -1],
        ],
        G: eye(2),
        C: [[0, 1]],
        Qn: eye(2),
        Rn: [[1]],
      }),
    /not detectable: the mode at s = 1/,
  );
});

test('argument checks name the argument and sizes', () => {
  assert.throws(() => runTool('care', { A: eye(2), B: [[1], [2], [3]], Q: eye(2), R: [[1]] }), /B has 3 rows but A has 2/);
  assert.throws(() => runTool('care', { A: eye(2), B: [[1], [2]], Q: eye(3), R: [[1]] }), /Q is 3x3/);
  assert.throws(() => runTool('lqr', { A: eye(2), B: [[1], [2]], Q: eye(2), R: [[-1]] }), /positive definite/);
  assert.throws(
    () =>
      runTool('lqr', {
        A: eye(2),
        B: [[1], [2]],
        Q: [
          [1, 2],
          [0, 1],
        ],
        R: [[1]],
      }),
    /Q must be symmetric/,
  );
});

test("lqe is the dual of lqr: L = K' of (A', C', G Qn G', Rn)", () => {
  const rand = rng(5);
  const n = 5;
  const A = randM(n, n, rand),
    G = randM(n, 2, rand),
    C = randM(2, n, rand);
  const Qn = spd(2, rand),
    Rn = spd(2, rand);
  const e = runTool('lqe', { A, G, C, Qn, Rn }) as { L: M; P: M; poles: M };
  const W = mm(mm(G, Qn), tr(G));
  // AP + PA' - PC'Rn^-1CP + W = 0
  assert.ok(careRes(tr(A), tr(C), W, Rn, e.P) < 1e-13);
  assert.ok(fro(sub(e.L, mm(mm(e.P, tr(C)), invert(Rn)))) < 1e-10 * fro(e.L));
  for (const [re] of e.poles) assert.ok(re < 0);
});

test('discrete kalman: M, L = A M, Z = P - M C P', () => {
  const rand = rng(6);
  const n = 4;
  const A = sc(randM(n, n, rand), 1.5),
    G = randM(n, 1, rand),
    C = randM(2, n, rand);
  const Qn = [[2]],
    Rn = spd(2, rand);
  const k = runTool('kalman', { A, G, C, Qn, Rn, Ts: 0.1 }) as { L: M; P: M; M: M; Z: M; poles: M };
  const W = mm(mm(G, Qn), tr(G));
  assert.ok(dareRes(tr(A), tr(C), W, Rn, k.P) < 1e-13);
  const Mx = mm(mm(k.P, tr(C)), invert(add(mm(mm(C, k.P), tr(C)), Rn)));
  assert.ok(fro(sub(k.M, Mx)) < 1e-10 * fro(Mx));
  assert.ok(fro(sub(k.L, mm(A, k.M))) < 1e-12 * fro(k.L));
  assert.ok(fro(sub(k.Z, sub(k.P, mm(mm(k.M, C), k.P)))) < 1e-12 * fro(k.P));
  for (const [re, im] of k.poles) assert.ok(Math.hypot(re, im) < 1);
});

test('weights that are not positive semidefinite: the stabilising gain comes with a caution; semidefinite ones (even singular) get none', () => {
  const A = [
    [0, 1],
    [-2, -3],
  ];
  const B = [[0], [1]];
  // [Q N; N' R] = [[1,0,2],[0,1,0],[2,0,1]]: eigenvalues 1 and those of [[1,2],[2,1]], 3 and -1
  const cross = runTool('lqr', {
    A,
    B,
    Q: [
      [1, 0],
      [0, 1],
    ],
    R: [[1]],
    N: [[2], [0]],
  });
  assert.match(String(cross.caution), /^\[Q N; Nᵀ R\] is not positive semidefinite \(smallest eigenvalue -1\)/);
  assert.match(String(cross.caution), /Q − N R⁻¹ Nᵀ must be ⪰ 0/);
  // Q = diag(1, -0.5): the caution names Q alone, in discrete time too
  const dq = runTool('dlqr', {
    A: [
      [1, 0.1],
      [0, 1],
    ],
    B: [[0], [0.1]],
    Q: [
      [1, 0],
      [0, -0.5],
    ],
    R: [[1]],
  });
  assert.match(String(dq.caution), /^Q is not positive semidefinite \(smallest eigenvalue -0\.5\)/);
  // semidefinite: Q = I; Q singular (diag(1, 0)); and the boundary Q − N R⁻¹ Nᵀ = diag(0, 1) (eigenvalue 0)
  for (const args of [
    {
      Q: [
        [1, 0],
        [0, 1],
      ],
      R: [[1]],
    },
    {
      Q: [
        [1, 0],
        [0, 0],
      ],
      R: [[1]],
    },
    {
      Q: [
        [1, 0],
        [0, 1],
      ],
      R: [[1]],
      N: [[1], [0]],
    },
  ]) {
    const r = runTool('lqr', { A, B, ...args });
    assert.equal(r.caution, undefined, JSON.stringify(args));
  }
});
