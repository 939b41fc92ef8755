import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromRows, toRows, eye as eyeMat, luFactor, luSolve, luSolveRight, zeros as zerosMat } from '../../src/core/linalg/dense.js';
import { balance } from '../../src/core/linalg/balance.js';
import { realSchur, reorderSchur, schurEigenvalues, lanv2, hessenbergInPlace, eigvalsSorted } from '../../src/core/linalg/schur.js';
import { controllabilityStaircase } from '../../src/core/linalg/staircase.js';
import { rank, singularValues } from '../../src/core/linalg/svd.js';
import { eigenvalues, ctrbMatrix } from '../../src/core/solvers/statesp.js';
import { type M, mm, tr, sub, fro, eye, randM, rng, charDetAbs } from './linalg-helpers.js';

const EPS = 2.220446049250313e-16;

function checkSchur(A: M, T: M, Z: M, tol: number) {
  const n = A.length;
  assert.ok(fro(sub(mm(mm(Z, T), tr(Z)), A)) <= tol * Math.max(fro(A), 1), "A = Z T Z'");
  assert.ok(fro(sub(mm(tr(Z), Z), eye(n))) <= tol, 'Z orthogonal');
  for (let i = 0; i < n; i++) for (let j = 0; j < i - 1; j++) assert.equal(T[i][j], 0, `T(${i},${j}) below the subdiagonal`);
  for (let i = 0; i + 1 < n; i++) {
    if (T[i + 1][i] !== 0) {
      // standardised 2x2 block: equal diagonal, off-diagonals of opposite sign, isolated
      assert.equal(T[i][i], T[i + 1][i + 1]);
      assert.ok(T[i][i + 1] * T[i + 1][i] < 0);
      if (i + 2 < n) assert.equal(T[i + 2][i + 1], 0, 'two consecutive nonzero subdiagonals');
    }
  }
}

test('real Schur form of random matrices: residual, orthogonality, standard blocks', () => {
  const rand = rng(7);
  for (const n of [1, 2, 3, 4, 7, 12, 30, 60]) {
    const A = randM(n, n, rand);
    const { T, Z } = realSchur(fromRows(A));
    checkSchur(A, toRows(T), toRows(Z), 100 * n * EPS);
  }
});

/** orthogonal n x n: product of a few Householder reflectors of random vectors (independent of the kernel) */
function randomOrthogonal(n: number, rand: () => number): M {
  let Q = eye(n);
  for (let r = 0; r < 4; r++) {
    const v = Array.from({ length: n }, () => rand());
    const vv = v.reduce((s, x) => s + x * x, 0);
    Q = Q.map((row) => {
      const d = row.reduce((s, x, j) => s + x * v[j], 0);
      return row.map((x, j) => x - (2 * d * v[j]) / vv);
    });
  }
  return Q;
}

test('real Schur form by aggressive early deflation (laqr0): residual, orthogonality, standard blocks, known spectra', () => {
  const rand = rng(23);
  // random, and the same with entries graded from 1 down to 1e-8 along the diagonal (D R D)
  for (const n of [20, 50, 120]) {
    const A = randM(n, n, rand);
    const { T, Z } = realSchur(fromRows(A), 'aed');
    checkSchur(A, toRows(T), toRows(Z), 100 * n * EPS);
    const d = Array.from({ length: n }, (_, i) => 10 ** ((-4 * i) / n));
    const G = A.map((r, i) => r.map((v, j) => d[i] * v * d[j]));
    const g = realSchur(fromRows(G), 'aed');
    checkSchur(G, toRows(g.T), toRows(g.Z), 100 * n * EPS);
  }
  // known spectra: Q B Q' with B block diagonal (real eigenvalues, complex pairs a ± bi, Jordan blocks of size 2)
  const n = 60;
  const B = Array.from({ length: n }, () => new Array(n).fill(0));
  const want: [number, number][] = [];
  for (let i = 0; i < n;) {
    const kind = i % 3;
    const a = Math.round(20 * rand()) / 4,
      b = 0.5 + Math.round(8 * (rand() + 0.5)) / 4;
    if (kind === 0) {
      B[i][i] = a;
      want.push([a, 0]);
      i++;
    } else if (kind === 1) {
      B[i][i] = a;
      B[i][i + 1] = b;
      B[i + 1][i] = -b;
      B[i + 1][i + 1] = a;
      want.push([a, b], [a, -b]);
      i += 2;
    } else {
      B[i][i] = a;
      B[i][i + 1] = 1;
      B[i + 1][i + 1] = a;
      want.push([a, 0], [a, 0]);
      i += 2;
    }
  }
  const Q = randomOrthogonal(n, rand);
  const A = mm(mm(Q, B), tr(Q));
  const { T, Z } = realSchur(fromRows(A), 'aed');
  checkSchur(A, toRows(T), toRows(Z), 100 * n * EPS);
  // each computed eigenvalue near a distinct wanted one (Jordan pairs: to about sqrt(eps))
  const got = schurEigenvalues(T);
  const used = new Array(n).fill(false);
  for (const [re, im] of got) {
    let best = -1,
      bd = Infinity;
    for (let k = 0; k < n; k++) {
      const dist = Math.hypot(re - want[k][0], im - want[k][1]);
      if (!used[k] && dist < bd) {
        bd = dist;
        best = k;
      }
    }
    used[best] = true;
    assert.ok(bd < 1e-6, `eigenvalue ${re} + ${im}i is ${bd} from the nearest of the spectrum`);
  }
  // structured: zero, identity, a companion matrix (its Schur form is a hard case for deflation)
  const companion = Array.from({ length: 30 }, (_, i) => Array.from({ length: 30 }, (_, j) => (i === 29 ? -1 / (j + 1) : j === i + 1 ? 1 : 0)));
  for (const S of [Array.from({ length: 20 }, () => new Array(20).fill(0)), eye(20), companion]) {
    const r = realSchur(fromRows(S), 'aed');
    checkSchur(S, toRows(r.T), toRows(r.Z), 100 * S.length * EPS);
  }
});

test('Schur form of structured matrices (zero, identity, Jordan, rotation, companion)', () => {
  const cases: M[] = [
    [
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ],
    eye(4),
    [
      [-1, 1, 0],
      [0, -1, 1],
      [0, 0, -1],
    ],
    [
      [0, 1],
      [-1, 0],
    ],
    [
      [0, 1, 0, 0],
      [0, 0, 1, 0],
      [0, 0, 0, 1],
      [-1, -4, -6, -4],
    ],
  ];
  for (const A of cases) {
    const { T, Z } = realSchur(fromRows(A));
    checkSchur(A, toRows(T), toRows(Z), 1e-13);
  }
});

test('eigenvalues: known spectra', () => {
  // companion of (s+1)(s+2)(s+3) = s^3 + 6s^2 + 11s + 6
  const ev = eigenvalues([
    [0, 1, 0],
    [0, 0, 1],
    [-6, -11, -6],
  ]);
  assert.deepEqual(
    ev.map(([re]) => Math.round(re * 1e10) / 1e10),
    [-3, -2, -1],
  );
  for (const [, im] of ev) assert.ok(Math.abs(im) < 1e-12);
  // rotation: ±i, sorted by imaginary part for equal real parts
  const rot = eigenvalues([
    [0, 1],
    [-1, 0],
  ]);
  assert.ok(Math.abs(rot[0][0]) < 1e-15 && Math.abs(rot[0][1] + 1) < 1e-15 && Math.abs(rot[1][1] - 1) < 1e-15);
  // triangular: eigenvalues are the diagonal
  const tri = eigenvalues([
    [3, 5, -7],
    [0, -2, 4],
    [0, 0, 0.5],
  ]);
  assert.deepEqual(tri, [
    [-2, 0],
    [0.5, 0],
    [3, 0],
  ]);
});

test('eigenvalues of random matrices are roots of det(A - λI)', () => {
  const rand = rng(11);
  for (const n of [2, 5, 9]) {
    const A = randM(n, n, rand);
    const ev = eigenvalues(A);
    assert.equal(ev.length, n);
    // compare |det(A - λI)| with the size of det at a nearby non-eigenvalue point
    for (const [re, im] of ev) {
      const d0 = charDetAbs(A, re, im);
      const d1 = charDetAbs(A, re + 0.1, im + 0.1);
      assert.ok(d0 <= 1e-10 * Math.max(d1, 1), `λ = ${re} + ${im}i: det ${d0} vs ${d1}`);
    }
    // trace = sum of eigenvalues
    const trace = A.reduce((s, r, i) => s + r[i], 0);
    assert.ok(Math.abs(ev.reduce((s, [re]) => s + re, 0) - trace) < 1e-12 * n);
    // sorted by real part
    for (let i = 1; i < n; i++) assert.ok(ev[i][0] >= ev[i - 1][0]);
  }
});

test('eig of a badly scaled matrix is accurate thanks to balancing', () => {
  // similarity D A D^-1 with D = diag(1, 1e6, 1e-6) of a matrix with eigenvalues 1, 2, 3
  const A0 = [
    [1, 1, 1],
    [0, 2, 1],
    [0, 0, 3],
  ];
  const d = [1, 1e6, 1e-6];
  const A = A0.map((r, i) => r.map((v, j) => (v * d[i]) / d[j]));
  const ev = eigenvalues(A);
  ev.forEach(([re, im], k) => {
    assert.ok(Math.abs(re - (k + 1)) < 1e-12, `${re}`);
    assert.equal(im, 0);
  });
});

test('balance: B = D^-1 P^T A P D exactly, with power-of-2 scaling', () => {
  const A = [
    [1, 1e8, 0],
    [1e-8, 2, 0],
    [3, 4, 5],
  ];
  const bal = balance(fromRows(A));
  const B = toRows(bal.B);
  const n = 3;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) assert.equal(B[i][j], (A[bal.perm[i]][bal.perm[j]] * bal.scale[j]) / bal.scale[i]);
  for (const s of bal.scale) assert.ok(Number.isInteger(Math.log2(s)));
  // the isolated eigenvalue 5 (row/col structure) is permuted out of the active block
  assert.ok(bal.ihi - bal.ilo + 1 < n);
});

test('Hessenberg reduction: H = Q^T A Q with zeros below the subdiagonal', () => {
  const rand = rng(3);
  const A = randM(8, 8, rand);
  const H = fromRows(A);
  const Q = eyeMat(8);
  hessenbergInPlace(H, Q);
  const Hr = toRows(H),
    Qr = toRows(Q);
  for (let i = 2; i < 8; i++) for (let j = 0; j < i - 1; j++) assert.equal(Hr[i][j], 0);
  assert.ok(fro(sub(mm(mm(Qr, Hr), tr(Qr)), A)) < 1e-14 * 8 * fro(A));
});

test('lanv2: standardised 2x2 Schur factorisation', () => {
  for (const [a, b, c, d] of [
    [1, 2, 3, 4],
    [0, 1, -1, 0],
    [1, -5, 2, 1],
    [2, 0, 1, 2],
    [3, 1, 0, 1],
  ]) {
    const r = lanv2(a, b, c, d);
    const Q = [
      [r.cs, -r.sn],
      [r.sn, r.cs],
    ];
    const T = [
      [r.a, r.b],
      [r.c, r.d],
    ];
    assert.ok(
      fro(
        sub(mm(mm(Q, T), tr(Q)), [
          [a, b],
          [c, d],
        ]),
      ) <
        1e-14 * 10,
    );
    assert.ok(r.c === 0 || (r.a === r.d && r.b * r.c < 0));
  }
});

test('reorderSchur moves the selected (stable) eigenvalues to the top, keeping A = Z T Z^T', () => {
  const rand = rng(5);
  for (const n of [4, 10, 25]) {
    const A = randM(n, n, rand);
    const S = realSchur(fromRows(A));
    const before = schurEigenvalues(S.T).filter(([re]) => re < 0).length;
    const ks = reorderSchur(S.T, S.Z, (re) => re < 0);
    assert.equal(ks, before);
    const ev = schurEigenvalues(S.T);
    ev.forEach(([re], i) => assert.equal(re < 0, i < ks));
    checkSchur(A, toRows(S.T), toRows(S.Z), 200 * n * EPS);
  }
});

test('LU solves: A X = B and X A = B', () => {
  const rand = rng(9);
  const A = randM(6, 6, rand),
    B = randM(6, 3, rand),
    C = randM(2, 6, rand);
  const F = luFactor(fromRows(A));
  const X = toRows(luSolve(F, fromRows(B)));
  assert.ok(fro(sub(mm(A, X), B)) < 1e-13);
  const Y = toRows(luSolveRight(F, fromRows(C)));
  assert.ok(fro(sub(mm(Y, A), C)) < 1e-13);
});

test('SVD rank and singular values', () => {
  assert.equal(
    rank(
      fromRows([
        [1, 2],
        [2, 4],
      ]),
    ),
    1,
  );
  assert.equal(
    rank(
      fromRows([
        [1, 0, 0],
        [0, 1e-3, 0],
      ]),
    ),
    2,
  );
  assert.equal(rank(zerosMat(3, 3)), 0);
  const s = singularValues(
    fromRows([
      [3, 0],
      [0, -4],
      [0, 0],
    ]),
  );
  assert.deepEqual(Array.from(s), [4, 3]);
  // controllability of a chain of integrators from the last state
  assert.equal(
    rank(
      fromRows(
        ctrbMatrix(
          [
            [0, 1, 0],
            [0, 0, 1],
            [0, 0, 0],
          ],
          [[0], [0], [1]],
        ),
      ),
    ),
    3,
  );
  assert.equal(
    rank(
      fromRows(
        ctrbMatrix(
          [
            [1, 0],
            [0, 2],
          ],
          [[1], [0]],
        ),
      ),
    ),
    1,
  );
});

test('controllability staircase separates the uncontrollable mode', () => {
  // x2 is not reachable; its mode is at 3. Rotate the coordinates so it is not obvious.
  const c = Math.cos(0.3),
    s = Math.sin(0.3);
  const T = [
    [c, -s, 0],
    [s, c, 0],
    [0, 0, 1],
  ];
  const A0 = [
    [-1, 0, 1],
    [0, 3, 0],
    [1, 0, -2],
  ];
  const B0 = [[1], [0], [0]];
  const A = mm(mm(T, A0), tr(T)),
    B = mm(T, B0);
  const st = controllabilityStaircase(fromRows(A), fromRows(B));
  assert.equal(st.nc, 2);
  const At = toRows(st.At);
  assert.ok(Math.abs(At[2][2] - 3) < 1e-13);
  assert.ok(Math.abs(At[2][0]) < 1e-14 && Math.abs(At[2][1]) < 1e-14);
  const Z = toRows(st.Z);
  assert.ok(fro(sub(mm(mm(tr(Z), A), Z), At)) < 1e-13);
});

test('eigvalsSorted agrees with eigenvalues of the transpose', () => {
  const rand = rng(21);
  const A = randM(7, 7, rand);
  const e1 = eigvalsSorted(fromRows(A));
  const e2 = eigvalsSorted(fromRows(tr(A)));
  e1.forEach(([re, im], i) => {
    assert.ok(Math.abs(re - e2[i][0]) < 1e-12 && Math.abs(im - e2[i][1]) < 1e-12);
  });
});
