/**
 * Matrix equations (solvers/matrixeq.ts, lyap/dlyap with E, care/dare with S and E), against
 * published values and SciPy:
 *  - MATLAB lyap documentation, "Solve Sylvester Equation": A = 5, B = [4 3; 4 3], C = [2 1],
 *    X = lyap(A, B, C) = [-0.2000 -0.0500]
 *  - MATLAB sylvester documentation (A X + X B = C): A = [1 -1 1; 1 1 -1; 1 1 1], B = magic(3),
 *    C = eye(3): X = [0.1223 -0.0725 0.0131; -0.0806 -0.0161 0.1587; -0.0164 0.1784 -0.1072]
 *  - Altair Compose/Activate control docs (SLICOT SB04MD, SB04QD, SG03AD, SB03OD based):
 *    lyap(5, [40 3; 4 30], [2 1]) = [-0.04223 -0.02495]; dlyap(A, B, C) with the SB04QD example
 *    data; lyap(A, Q, [], E) and dlyap(A, Q, [], E) examples; lyapchol example
 *  - SLICOT SB03OD documentation example (DICO = 'C', TRANS = 'N': AᵀX + XA = −BᵀB, X = UᵀU,
 *    U = [1 3 2 -1; 0 1 -1 1; 0 0 1 -2; 0 0 0 1]), here as lyapchol(Aᵀ, Bᵀ)
 *  - SLICOT SG03BD documentation example (DICO = 'C', TRANS = 'N': AᵀXE + EᵀXA = −BᵀB, X = UᵀU,
 *    U = [1.6003 -0.4418 -0.1523; 0 0.6795 -0.2499; 0 0 0.2041]), here as lyapchol(Aᵀ, Bᵀ, Eᵀ),
 *    which is how the Altair Compose lyapchol documentation writes it (U2, 5 digits)
 *  - test/fixtures/matrixeq/ref.py (SciPy solve_sylvester, Kronecker solves, cholesky of
 *    solve_*_lyapunov and of the generalised equations' Kronecker solutions,
 *    solve_continuous_are/solve_discrete_are with e= and s=), its output ref.json
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { callTool } from '../../src/core/tools/runner.js';
import { qrR } from '../../src/core/linalg/qr.js';
import { fromRows, toRows } from '../../src/core/linalg/dense.js';
import { reproduce } from '../../src/core/codegen/index.js';

type Case = { args: Record<string, unknown>; [k: string]: any };
const ref = JSON.parse(readFileSync(new URL('../fixtures/matrixeq/ref.json', import.meta.url), 'utf8')) as Record<string, Case[]>;

function closeMat(got: number[][], want: number[][], tol: number, what: string): void {
  assert.equal(got.length, want.length, `${what}: rows`);
  let scale = 0;
  for (const r of want) for (const v of r) scale = Math.max(scale, Math.abs(v));
  want.forEach((r, i) => {
    assert.equal(got[i].length, r.length, `${what}: columns of row ${i}`);
    r.forEach((v, j) => assert.ok(Math.abs(got[i][j] - v) <= tol * Math.max(scale, 1), `${what}[${i}][${j}]: ${got[i][j]} vs ${v}`));
  });
}

async function verified(tool: string, args: Record<string, unknown>) {
  const { result, verification } = await callTool(tool, args);
  assert.equal(verification?.ok, true, JSON.stringify(verification));
  return result as Record<string, any>;
}

test('sylvester: MATLAB lyap(A, B, C) documentation example, X = [-0.2 -0.05]', async () => {
  const r = await verified('sylvester', {
    A: [[5]],
    Bs: [
      [4, 3],
      [4, 3],
    ],
    Cs: [[2, 1]],
  });
  closeMat(r.X, [[-0.2, -0.05]], 1e-14, 'X');
});

test('sylvester: MATLAB sylvester(A, magic(3), eye(3)) example (A X + X B = C, so Cs = -C)', async () => {
  const r = await verified('sylvester', {
    A: [
      [1, -1, 1],
      [1, 1, -1],
      [1, 1, 1],
    ],
    Bs: [
      [8, 1, 6],
      [3, 5, 7],
      [4, 9, 2],
    ],
    Cs: [
      [-1, 0, 0],
      [0, -1, 0],
      [0, 0, -1],
    ],
  });
  closeMat(
    r.X,
    [
      [0.1223, -0.0725, 0.0131],
      [-0.0806, -0.0161, 0.1587],
      [-0.0164, 0.1784, -0.1072],
    ],
    5e-5,
    'X',
  );
});

test('sylvester and dsylvester: Altair/SLICOT published examples', async () => {
  closeMat(
    (
      await verified('sylvester', {
        A: [[5]],
        Bs: [
          [40, 3],
          [4, 30],
        ],
        Cs: [[2, 1]],
      })
    ).X,
    [[-0.04223, -0.02495]],
    5e-6,
    'X',
  );
  const d = await verified('dsylvester', {
    A: [
      [1, 2, 3],
      [6, 7, 8],
      [9, 2, 3],
    ],
    Bs: [
      [7, 2, 3],
      [2, 1, 2],
      [3, 4, 1],
    ],
    Cs: [
      [271, 135, 147],
      [923, 494, 482],
      [578, 383, 287],
    ],
  });
  closeMat(
    d.X,
    [
      [-1.90185, -2.33312, -6.71763],
      [-10.5033, 10.91915, 1.49666],
      [0.04138, -18.39193, -3.43305],
    ],
    5e-6,
    'X',
  );
});

test('lyap and dlyap with E: Altair/SLICOT SG03AD published examples', async () => {
  const c = await verified('lyap', {
    A: [
      [30, 1, 1],
      [1, 30, 0],
      [1, 0, 20],
    ],
    Q: [
      [6.4, 73, 28],
      [73, 7, 25],
      [28, 25, 1.8],
    ],
    E: [
      [1, 3, 10],
      [3, 20, 0],
      [0, 1, 1],
    ],
  });
  closeMat(
    c.X,
    [
      [4.24365, -0.72106, -0.21641],
      [-0.72106, 0.10514, -0.02917],
      [-0.21641, -0.02917, 0.03104],
    ],
    5e-6,
    'X',
  );
  assert.match(c.note, /reduced to a standard one with E⁻¹/);
  const d = await verified('dlyap', {
    A: [
      [1, 2, 3],
      [6, 7, 8],
      [9, 2, 3],
    ],
    Q: [
      [1, 7, 3],
      [7, 4, -5],
      [3, -5, 6],
    ],
    E: [
      [271, 135, 147],
      [923, 494, 482],
      [578, 383, 287],
    ],
  });
  closeMat(
    d.X,
    [
      [-0.06977, 0.01503, 0.11655],
      [0.01503, -0.00147, -0.02679],
      [0.11655, -0.02679, -0.19308],
    ],
    5e-6,
    'X',
  );
});

test('lyapchol: SLICOT SB03OD documentation example (U = [1 3 2 -1; 0 1 -1 1; 0 0 1 -2; 0 0 0 1])', async () => {
  // SB03OD's data: A (4x4) and B (5x4) for AᵀX + XA + BᵀB = 0; lyapchol takes A X + X Aᵀ + B Bᵀ = 0: Aᵀ and Bᵀ
  const A = [
    [-1, 37, -12, -12],
    [-1, -10, 0, 4],
    [2, -4, 7, -6],
    [2, 2, 7, -9],
  ];
  const B = [
    [1, 2.5, 1, 3.5],
    [0, 1, 0, 1],
    [-1, -2.5, -1, -1.5],
    [1, 2.5, 4, -5.5],
    [-1, -2.5, -4, 3.5],
  ];
  const T = (M: number[][]) => M[0].map((_, j) => M.map((r) => r[j]));
  const r = await verified('lyapchol', { A: T(A), B: T(B) });
  closeMat(
    r.R,
    [
      [1, 3, 2, -1],
      [0, 1, -1, 1],
      [0, 0, 1, -2],
      [0, 0, 0, 1],
    ],
    1e-12,
    'R',
  );
});

test('lyapchol: Altair example (A 4x4, B 4x5)', async () => {
  const r = await verified('lyapchol', {
    A: [
      [-1, -1, 2, 2],
      [37, -10, -4, 2],
      [-12, 0, 7, 7],
      [-12, 4, -6, -9],
    ],
    B: [
      [1, 0.1, -1, 1, -1],
      [2.5, 1, -2.5, 2.5, -2.5],
      [1, 0.1, -1, 4, -4],
      [3.5, 1, -1.5, -5.5, 3.5],
    ],
  });
  closeMat(
    r.R,
    [
      [0.99935, 3.0231, 1.97208, -0.96401],
      [0, 0.97121, -0.98498, 0.97361],
      [0, 0, 0.97572, -2.05182],
      [0, 0, 0, 0.88653],
    ],
    5e-6,
    'R',
  );
});

for (const [tool, key, field] of [
  ['sylvester', 'sylvester', 'X'],
  ['dsylvester', 'dsylvester', 'X'],
  ['lyap', 'lyapE', 'X'],
  ['dlyap', 'dlyapE', 'X'],
  ['lyapchol', 'lyapchol', 'R'],
  ['dlyapchol', 'dlyapchol', 'R'],
  ['lyapchol', 'lyapcholE', 'R'],
  ['dlyapchol', 'dlyapcholE', 'R'],
] as const)
  test(`${tool} (${key}): SciPy references, verified`, async () => {
    for (const [i, c] of ref[key].entries()) {
      const r = await verified(tool, c.args);
      closeMat(r[field], c[field], 1e-9, `${key}#${i} ${field}`);
    }
  });

for (const [tool, key] of [
  ['care', 'careSE'],
  ['dare', 'dareSE'],
] as const)
  test(`${tool} with S and E: SciPy solve_${tool === 'care' ? 'continuous' : 'discrete'}_are(e=, s=), verified`, async () => {
    for (const [i, c] of ref[key].entries()) {
      const r = await verified(tool, c.args);
      closeMat(r.X, c.X, 1e-8, `${key}#${i} X`);
      closeMat(r.K, c.K, 1e-8, `${key}#${i} K`);
      const poles = [...r.poles].sort((a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1]);
      closeMat(poles, c.poles, 1e-8, `${key}#${i} poles`);
      assert.match(r.note, /E⁻¹\(A − BK\)/);
    }
  });

test('care without E keeps its result fields; with S only no note', async () => {
  const r = await verified('care', {
    A: [
      [-3, 2],
      [1, 1],
    ],
    B: [[0], [1]],
    Q: [
      [1, -1],
      [-1, 1],
    ],
    R: [[3]],
  });
  // MATLAB care documentation example: X = [0.5895 1.8216; 1.8216 8.8188], G = [0.6072 2.9396]
  closeMat(
    r.X,
    [
      [0.5895, 1.8216],
      [1.8216, 8.8188],
    ],
    5e-5,
    'X',
  );
  closeMat(r.K, [[0.6072, 2.9396]], 5e-5, 'K');
  assert.deepEqual(Object.keys(r).sort(), ['Acl', 'K', 'X', 'poles']);
});

test('refusals name the argument and the reason', async () => {
  await assert.rejects(callTool('sylvester', { A: [[1]], Bs: [[-1]], Cs: [[1]] }), /no unique solution: A has the eigenvalue 1 and B the eigenvalue -1/);
  await assert.rejects(callTool('dsylvester', { A: [[2]], Bs: [[0.5]], Cs: [[1]] }), /product is 1/);
  await assert.rejects(
    callTool('sylvester', {
      A: [
        [1, 0],
        [0, 2],
      ],
      Bs: [[1]],
      Cs: [[1, 2]],
    }),
    /Cs is 1x2 but must be 2x1/,
  );
  await assert.rejects(
    callTool('sylvester', {
      A: [
        [1, 0],
        [0, 2],
      ],
      Bs: [[1, 2]],
      Cs: [[1], [2]],
    }),
    /Bs must be square/,
  );
  await assert.rejects(
    callTool('lyapchol', {
      A: [
        [1, 0],
        [0, -2],
      ],
      B: [[1], [1]],
    }),
    /lyapchol needs A Hurwitz stable .* eigenvalue 1/,
  );
  await assert.rejects(
    callTool('dlyapchol', {
      A: [
        [1.2, 0],
        [0, 0.5],
      ],
      B: [[1], [1]],
    }),
    /dlyapchol needs A Schur stable .* 1\.2/,
  );
  await assert.rejects(
    callTool('lyapchol', {
      A: [
        [-1, 0],
        [0, -2],
      ],
      B: [[1, 2, 3]],
    }),
    /B has 1 rows but A is 2x2/,
  );
  await assert.rejects(
    callTool('lyap', {
      A: [
        [-1, 0],
        [0, -2],
      ],
      Q: [
        [1, 0],
        [0, 1],
      ],
      E: [
        [1, 2],
        [2, 4],
      ],
    }),
    /E is singular.*infinite eigenvalues/,
  );
  await assert.rejects(
    callTool('lyap', {
      A: [
        [-1, 0],
        [0, -2],
      ],
      Q: [
        [1, 0],
        [0, 1],
      ],
      E: [[1, 0, 0]],
    }),
    /E is 1x3 but A is 2x2/,
  );
  await assert.rejects(
    callTool('care', {
      A: [
        [-3, 2],
        [1, 1],
      ],
      B: [[0], [1]],
      Q: [
        [1, 0],
        [0, 1],
      ],
      R: [[3]],
      E: [
        [1, 1],
        [1, 1],
      ],
    }),
    /E is singular/,
  );
  await assert.rejects(
    callTool('care', {
      A: [
        [-3, 2],
        [1, 1],
      ],
      B: [[0], [1]],
      Q: [
        [1, 0],
        [0, 1],
      ],
      R: [[3]],
      S: [[1, 2]],
    }),
    /S is 1x2 but must be 2x1/,
  );
});

test('lyapchol: rank-deficient B (X singular) still gives an upper-triangular factor with X = RᵀR', async () => {
  const r = await verified('lyapchol', {
    A: [
      [-1, 0, 0],
      [0, -2, 0],
      [0, 0, -3],
    ],
    B: [[1], [0], [0]],
  });
  // X = diag(1/2, 0, 0): R = diag(1/√2, 0, 0)
  closeMat(
    r.R,
    [
      [Math.SQRT1_2, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ],
    1e-15,
    'R',
  );
});

test('linalg qrR: R of a tall matrix, upper triangular with RᵀR = AᵀA and a non-negative diagonal', () => {
  // A = Q R with the textbook example [12 -51 4; 6 167 -68; -4 24 -41] (Householder QR: R = [14 21 -14; 0 175 -70; 0 0 35], signs fixed)
  const R = toRows(
    qrR(
      fromRows([
        [12, -51, 4],
        [6, 167, -68],
        [-4, 24, -41],
      ]),
    ),
  );
  closeMat(
    R,
    [
      [14, 21, -14],
      [0, 175, -70],
      [0, 0, 35],
    ],
    1e-14,
    'R',
  );
  // a tall 5x2 matrix: RᵀR = AᵀA
  const A = [
    [1, 2],
    [3, -4],
    [0, 1],
    [-2, 0.5],
    [1, 1],
  ];
  const T = toRows(qrR(fromRows(A)));
  assert.equal(T[1][0], 0);
  assert.ok(T[0][0] >= 0 && T[1][1] >= 0);
  const AtA = [0, 1].map((i) => [0, 1].map((j) => A.reduce((s, r) => s + r[i] * r[j], 0)));
  const RtR = [0, 1].map((i) => [0, 1].map((j) => T[0][i] * T[0][j] + T[1][i] * T[1][j]));
  closeMat(RtR, AtA, 1e-14, 'RᵀR');
  assert.throws(() => qrR(fromRows([[1, 2, 3]])), /at least as many rows/);
});

test('lyapchol(A, B, E): SLICOT SG03BD documentation example, as the Altair lyapchol example writes it (A X Eᵀ + E X Aᵀ + B Bᵀ = 0, X = RᵀR)', async () => {
  // SG03BD's data (row-wise) A = [-1 3 -4; 0 5 -2; -4 4 1], E = [2 1 3; 2 0 1; 4 5 1], B = [2 -1 7]
  // solve AᵀXE + EᵀXA = −BᵀB; MATLAB's form takes the transposes
  const args = {
    A: [
      [-1, 0, -4],
      [3, 5, 4],
      [-4, -2, 1],
    ],
    B: [[2], [-1], [7]],
    E: [
      [2, 2, 4],
      [1, 0, 5],
      [3, 1, 1],
    ],
  };
  const r = await verified('lyapchol', args);
  closeMat(
    r.R,
    [
      [1.60025, -0.4418, -0.1523],
      [0, 0.6795, -0.24992],
      [0, 0, 0.20413],
    ],
    6e-6,
    'R',
  );
  assert.match(r.note, /reduced to the standard one in E⁻¹A and E⁻¹B/);
});

test('lyapchol/dlyapchol with E: a singular E and an unstable pencil are refused with the reason and the way out', async () => {
  const A = [
    [-1, 0],
    [0, -2],
  ];
  await assert.rejects(
    callTool('lyapchol', {
      A,
      B: [[1], [1]],
      E: [
        [1, 2],
        [2, 4],
      ],
    }),
    /E is singular.*infinite eigenvalues.*Eliminate the algebraic states first, or give a nonsingular E/,
  );
  // E⁻¹A = diag(1, -2) for E = diag(-1, 1): the pencil has the eigenvalue 1
  await assert.rejects(
    callTool('lyapchol', {
      A,
      B: [[1], [1]],
      E: [
        [-1, 0],
        [0, 1],
      ],
    }),
    /lyapchol needs the pencil \(A, E\) Hurwitz stable.*generalised eigenvalue 1\b.*lyap\(A, Q, \[\], E\)/,
  );
  await assert.rejects(
    callTool('dlyapchol', {
      A: [
        [0.5, 0],
        [0, 0.2],
      ],
      B: [[1], [1]],
      E: [
        [0.25, 0],
        [0, 1],
      ],
    }),
    /dlyapchol needs the pencil \(A, E\) Schur stable.*generalised eigenvalue 2\b/,
  );
  await assert.rejects(callTool('lyapchol', { A, B: [[1], [1]], E: [[1, 0]] }), /E is 1x2 but A is 2x2/);
});

test('lyapchol/dlyapchol with E: the code facet writes MATLAB lyapchol(A, B, E) and the E⁻¹ reduction in Python', async () => {
  const args = {
    A: [
      [-1, 0.5],
      [0, -2],
    ],
    B: [[1], [0.5]],
    E: [
      [1, 0.2],
      [0, 1.5],
    ],
  };
  for (const tool of ['lyapchol', 'dlyapchol']) {
    const a = tool === 'dlyapchol' ? { ...args, A: args.A.map((r) => r.map((v) => v / 4)) } : args;
    const { result, verification } = await callTool(tool, a);
    assert.equal(verification?.ok, true);
    const m = reproduce({ tool, args: a, result, verification }, 'matlab');
    const p = reproduce({ tool, args: a, result, verification }, 'python');
    assert.match(m, new RegExp(`R = ${tool}\\(A, B, E\\)`));
    assert.match(p, /Ai, Bi = np\.linalg\.solve\(E, A\), np\.linalg\.solve\(E, B\)/);
    assert.match(p, tool === 'lyapchol' ? /solve_continuous_lyapunov\(Ai, -Bi @ Bi\.T\)/ : /solve_discrete_lyapunov\(Ai, Bi @ Bi\.T\)/);
  }
});
