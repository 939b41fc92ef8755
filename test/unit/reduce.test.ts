/**
 * gram, hsvd, balreal, balred, modred (solvers/reduce.ts) against published values and SciPy:
 * - python-control's control/tests/modelsimp_test.py: testHSVD (A = [1 -2; 3 -4], B = [5; 7],
 *   C = [6 8], D = 9: hsv = [24.42686, 0.5731395], "from MATLAB"); testBalredTruncate and
 *   testBalredMatchDC (the controllable canonical realisation of
 *   (s³ + 11s² + 45s + 32)/(s⁴ + 15s³ + 60s² + 200s + 60) reduced to 2 states, values from
 *   MATLAB); testModredMatchDC and testModredTruncate (its MATLAB balanced realisation with
 *   python-control's states [2, 3], our 1-based [3, 4], eliminated);
 * - the SLICOT AB09AD documentation example (N = 7, M = 2, P = 3, continuous): its printed
 *   Hankel singular values 2.5139 … 0.0246 and its reduced model of order 5 (printed with 4
 *   decimals; balancing-free coordinates, so compared as frequency responses);
 * - test/fixtures/reduce/ref.py (SciPy: Lyapunov solvers, Cholesky, SVD, the square-root
 *   balancing written out) and its stored output ref.json, on random stable continuous and
 *   discrete, SISO and MIMO models.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { callTool } from '../../src/core/tools/runner.js';
import { verify } from '../../src/core/verify/index.js';
import { renderToolResult } from '../../src/core/render/answer.js';
import { reproduce } from '../../src/core/codegen/index.js';
import { getTool } from '../../src/core/tools/table.js';
import { hasFacet } from '../../src/core/tools/types.js';

type Mx = number[][];
const ref = JSON.parse(readFileSync(new URL('../fixtures/reduce/ref.json', import.meta.url), 'utf8')) as Record<string, any>;

function closeMat(got: Mx, want: Mx, tol: number, what: string, scale?: number): void {
  assert.equal(got.length, want.length, `${what}: rows`);
  let big = scale ?? 0;
  if (scale === undefined) for (const r of want) for (const v of r) big = Math.max(big, Math.abs(v));
  got.forEach((r, i) => {
    assert.equal(r.length, want[i].length, `${what}: columns`);
    r.forEach((v, j) => assert.ok(Math.abs(v - want[i][j]) <= tol * Math.max(big, 1e-300), `${what}[${i + 1},${j + 1}]: ${v} vs ${want[i][j]}`));
  });
}

const decimals = (got: Mx, want: Mx, d: number, what: string) => closeMat(got, want, 1.5 * 10 ** -d, what, 1);

/** H(s) = C (sI − A)⁻¹ B + D at a complex point, written out here (complex Gaussian elimination) */
function evalH(A: Mx, B: Mx, C: Mx, D: Mx, [sr, si]: [number, number]): { re: Mx; im: Mx } {
  const n = A.length,
    m = B[0].length;
  const Mr = A.map((r, i) => r.map((v, j) => (i === j ? sr : 0) - v));
  const Mi = A.map((r, i) => r.map((_, j) => (i === j ? si : 0)));
  const Xr = B.map((r) => r.slice()),
    Xi = B.map((r) => r.map(() => 0));
  for (let k = 0; k < n; k++) {
    let piv = k;
    for (let i = k + 1; i < n; i++) if (Math.hypot(Mr[i][k], Mi[i][k]) > Math.hypot(Mr[piv][k], Mi[piv][k])) piv = i;
    for (const X of [Mr, Mi, Xr, Xi]) [X[k], X[piv]] = [X[piv], X[k]];
    const dr = Mr[k][k],
      di = Mi[k][k],
      dd = dr * dr + di * di;
    for (let i = k + 1; i < n; i++) {
      const fr = (Mr[i][k] * dr + Mi[i][k] * di) / dd,
        fi = (Mi[i][k] * dr - Mr[i][k] * di) / dd;
      for (let j = k; j < n; j++) {
        const ar = Mr[k][j],
          ai = Mi[k][j];
        Mr[i][j] -= fr * ar - fi * ai;
        Mi[i][j] -= fr * ai + fi * ar;
      }
      for (let j = 0; j < m; j++) {
        const ar = Xr[k][j],
          ai = Xi[k][j];
        Xr[i][j] -= fr * ar - fi * ai;
        Xi[i][j] -= fr * ai + fi * ar;
      }
    }
  }
  for (let k = n - 1; k >= 0; k--)
    for (let j = 0; j < m; j++) {
      let ar = Xr[k][j],
        ai = Xi[k][j];
      for (let l = k + 1; l < n; l++) {
        ar -= Mr[k][l] * Xr[l][j] - Mi[k][l] * Xi[l][j];
        ai -= Mr[k][l] * Xi[l][j] + Mi[k][l] * Xr[l][j];
      }
      const dr = Mr[k][k],
        di = Mi[k][k],
        dd = dr * dr + di * di;
      Xr[k][j] = (ar * dr + ai * di) / dd;
      Xi[k][j] = (ai * dr - ar * di) / dd;
    }
  const re = C.map((row, i) => B[0].map((_, j) => D[i][j] + row.reduce((s, c, l) => s + c * Xr[l][j], 0)));
  const im = C.map((row) => B[0].map((_, j) => row.reduce((s, c, l) => s + c * Xi[l][j], 0)));
  return { re, im };
}

async function ok(tool: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const { result, verification } = await callTool(tool, args);
  assert.equal(verification?.ok, true, `${tool} not verified: ${JSON.stringify(verification?.checks)}`);
  return result;
}

async function refused(tool: string, args: Record<string, unknown>, re: RegExp): Promise<void> {
  await assert.rejects(callTool(tool, args), (e: Error) => {
    assert.match(e.message, re);
    return true;
  });
}

// ------------------------------------------------------------------ published values

test('hsvd: python-control testHSVD (values from MATLAB)', async () => {
  const r = await ok('hsvd', {
    A: [
      [1, -2],
      [3, -4],
    ],
    B: [[5], [7]],
    C: [[6, 8]],
    D: [[9]],
  });
  assert.ok(Math.abs(r.hsv[0] - 24.42686) < 1e-5, String(r.hsv[0]));
  assert.ok(Math.abs(r.hsv[1] - 0.5731395) < 1e-6, String(r.hsv[1]));
});

const canon = {
  A: [
    [-15, -7.5, -6.25, -1.875],
    [8, 0, 0, 0],
    [0, 4, 0, 0],
    [0, 0, 1, 0],
  ],
  B: [[2], [0], [0], [0]],
  C: [[0.5, 0.6875, 0.7031, 0.5]],
  D: [[0]],
};

test("balred truncate: python-control testBalredTruncate (MATLAB's values)", async () => {
  const r = await ok('balred', { ...canon, order: 2, method: 'truncate' });
  decimals(
    r.A,
    [
      [-1.958, -1.194],
      [-1.194, -0.8344],
    ],
    2,
    'Ar',
  );
  decimals(r.B, [[0.9057], [0.4068]], 4, 'Br');
  decimals(r.C, [[0.9057, 0.4068]], 4, 'Cr');
  decimals(r.D, [[0]], 4, 'Dr');
  assert.equal(r.order, 2);
  assert.equal(r.method, 'truncate');
  assert.ok(Math.abs(r.errorBound - 2 * (r.hsv[2] + r.hsv[3])) < 1e-15);
});

test("balred matchdc: python-control testBalredMatchDC (MATLAB's values)", async () => {
  const r = await ok('balred', { ...canon, order: 2, method: 'matchdc' });
  decimals(
    r.A,
    [
      [-4.43094773, -4.55232904],
      [-4.55232904, -5.36195206],
    ],
    6,
    'Ar',
  );
  decimals(r.B, [[1.36235673], [1.03114388]], 6, 'Br');
  decimals(r.C, [[1.36235673, 1.03114388]], 6, 'Cr');
  decimals(r.D, [[-0.08383902]], 7, 'Dr');
});

test('balred: the same model given as num/den reduces to the same Ar, Br, Cr, Dr (default method truncate)', async () => {
  const r = await ok('balred', { num: [1, 11, 45, 32], den: [1, 15, 60, 200, 60], order: 2 });
  assert.equal(r.method, 'truncate');
  decimals(
    r.A,
    [
      [-1.958, -1.194],
      [-1.194, -0.8344],
    ],
    2,
    'Ar',
  );
  decimals(r.B, [[0.9057], [0.4068]], 4, 'Br');
});

const matlabBalanced = {
  A: [
    [-1.958, -1.194, 1.824, -1.464],
    [-1.194, -0.8344, 2.563, -1.351],
    [-1.824, -2.563, -1.124, 2.704],
    [-1.464, -1.351, -2.704, -11.08],
  ],
  B: [[-0.9057], [-0.4068], [-0.3263], [-0.3474]],
  C: [[-0.9057, -0.4068, 0.3263, -0.3474]],
  D: [[0]],
};

test('modred matchdc: python-control testModredMatchDC (states [2, 3] there, 1-based [3, 4] here)', async () => {
  const r = await ok('modred', { ...matlabBalanced, elim: [3, 4], method: 'matchdc' });
  decimals(
    r.A,
    [
      [-4.431, -4.552],
      [-4.552, -5.361],
    ],
    3,
    'Ar',
  );
  decimals(r.B, [[-1.362], [-1.031]], 3, 'Br');
  decimals(r.C, [[-1.362, -1.031]], 3, 'Cr');
  decimals(r.D, [[-0.08384]], 2, 'Dr');
  assert.deepEqual(r.keep, [1, 2]);
});

test('modred truncate: python-control testModredTruncate, and matchdc is the default', async () => {
  const r = await ok('modred', { ...matlabBalanced, elim: [4, 3], method: 'truncate' });
  closeMat(
    r.A,
    [
      [-1.958, -1.194],
      [-1.194, -0.8344],
    ],
    0,
    'Ar',
    1,
  );
  closeMat(r.B, [[-0.9057], [-0.4068]], 0, 'Br', 1);
  assert.deepEqual(r.elim, [3, 4]);
  const d = await ok('modred', { ...matlabBalanced, elim: [3, 4] });
  assert.equal(d.method, 'matchdc');
});

const ab09 = {
  A: [
    [-0.04165, 0, 4.92, -4.92, 0, 0, 0],
    [-5.21, -12.5, 0, 0, 0, 0, 0],
    [0, 3.33, -3.33, 0, 0, 0, 0],
    [0.545, 0, 0, 0, -0.545, 0, 0],
    [0, 0, 0, 4.92, -0.04165, 0, 4.92],
    [0, 0, 0, 0, -5.21, -12.5, 0],
    [0, 0, 0, 0, 0, 3.33, -3.33],
  ],
  B: [
    [0, 0],
    [12.5, 0],
    [0, 0],
    [0, 0],
    [0, 0],
    [0, 12.5],
    [0, 0],
  ],
  C: [
    [1, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 1, 0, 0, 0],
    [0, 0, 0, 0, 1, 0, 0],
  ],
};

test('hsvd and balred: the SLICOT AB09AD documentation example (printed to 4 decimals)', async () => {
  const h = await ok('hsvd', ab09);
  const want = [2.5139, 2.0846, 1.9178, 0.7666, 0.5473, 0.0253, 0.0246];
  h.hsv.forEach((s: number, i: number) => assert.ok(Math.abs(s - want[i]) <= 6e-5, `σ${i + 1} = ${s} vs ${want[i]}`));
  // AB09AD's printed reduced model (order 5, balancing-free coordinates): same response as ours
  const Ar = [
    [1.3451, 5.0399, 0, 0, 4.5315],
    [-4.0214, -3.6604, 0, 0, -0.9056],
    [0, 0, 0.5124, 1.791, 0],
    [0, 0, -4.2167, -2.99, 0],
    [1.2402, 1.6416, 0, 0, -0.0586],
  ];
  const Br = [
    [-0.3857, 0.3857],
    [-3.1753, 3.1753],
    [-0.7447, -0.7447],
    [-3.6872, -3.6872],
    [1.8197, -1.8197],
  ];
  const Cr = [
    [-0.6704, 0.1828, -0.6582, 0.2222, -0.0104],
    [0.1089, 0.4867, 0, 0, 0.8651],
    [0.6704, -0.1828, -0.6582, 0.2222, 0.0104],
  ];
  const Z = [
    [0, 0],
    [0, 0],
    [0, 0],
  ];
  const r = await ok('balred', { ...ab09, order: 5 });
  for (const w of [0.01, 0.1, 0.5, 1, 3, 10]) {
    const a = evalH(r.A, r.B, r.C, r.D, [0, w]);
    const b = evalH(Ar, Br, Cr, Z, [0, w]);
    closeMat(a.re, b.re, 3e-3, `Re G(j${w})`, 1);
    closeMat(a.im, b.im, 3e-3, `Im G(j${w})`, 1);
  }
  assert.ok(Math.abs(r.errorBound - 2 * (0.0253 + 0.0246)) < 2e-4);
});

// ------------------------------------------------------------------ SciPy references

for (const [name, c] of Object.entries(ref)) {
  const n = c.args.A.length;
  test(`gram ${name}: Wc, Wo and their Cholesky factors as SciPy`, async () => {
    const wc = await ok('gram', { ...c.args, type: 'c', factor: true });
    closeMat(wc.W, c.Wc, 1e-9, 'Wc');
    closeMat(wc.R, c.Rc, 1e-8, 'Rc');
    const wo = await ok('gram', { A: c.args.A, C: c.args.C, Ts: c.args.Ts, type: 'o', factor: true });
    closeMat(wo.W, c.Wo, 1e-9, 'Wo');
    closeMat(wo.R, c.Ro, 1e-8, 'Ro');
  });
  test(`hsvd and balreal ${name}: Hankel singular values and the balanced model as SciPy`, async () => {
    const h = await ok('hsvd', c.args);
    h.hsv.forEach((s: number, i: number) => assert.ok(Math.abs(s - c.hsv[i]) <= 1e-10 * c.hsv[0], `σ${i + 1}`));
    const b = await ok('balreal', c.args);
    closeMat(b.A, c.balreal.A, 1e-7, 'Ab');
    closeMat(b.B, c.balreal.B, 1e-7, 'Bb');
    closeMat(b.C, c.balreal.C, 1e-7, 'Cb');
    closeMat(b.T, c.balreal.T, 1e-7, 'T');
    closeMat(b.Ti, c.balreal.Ti, 1e-7, 'Ti');
    closeMat(b.D, c.args.D, 0, 'D');
  });
  for (const method of ['truncate', 'matchdc'] as const)
    test(`balred ${name} to order ${c.order} (${method}): matrices and frequency response as SciPy`, async () => {
      const r = await ok('balred', { ...c.args, order: c.order, method });
      const want = c[method];
      assert.equal(r.A.length, c.order);
      closeMat(r.A, want.A, 1e-7, 'Ar');
      closeMat(r.B, want.B, 1e-7, 'Br');
      closeMat(r.C, want.C, 1e-7, 'Cr');
      closeMat(r.D, want.D, 1e-8, 'Dr');
      c.points.forEach((s: [number, number], k: number) => {
        const g = evalH(r.A, r.B, r.C, r.D, s);
        closeMat(g.re, want.response[k][0], 1e-8, `Re Gr at point ${k}`);
        closeMat(g.im, want.response[k][1], 1e-8, `Im Gr at point ${k}`, Math.max(1e-3, ...want.response[k][0].flat().map(Math.abs)));
      });
      assert.ok(Math.abs(r.errorBound - c.errorBound) <= 1e-10 * c.hsv[0]);
      assert.equal(r.hsv.length, n);
    });
}

// ------------------------------------------------------------------ edge cases

test('unstable models are refused by gram, hsvd, balreal and balred, with the reason and the MATLAB difference', async () => {
  const unstable = {
    A: [
      [1, 0],
      [0, -1],
    ],
    B: [[1], [1]],
    C: [[1, 1]],
  };
  for (const t of ['hsvd', 'balreal']) await refused(t, unstable, /stable.*A has 1/s);
  await refused('balred', { ...unstable, order: 1 }, /needs a stable model.*MATLAB/s);
  await refused('gram', { A: unstable.A, B: unstable.B }, /stable/);
  await refused(
    'hsvd',
    {
      ...unstable,
      Ts: 0.1,
      A: [
        [0.5, 0],
        [0, 1.2],
      ],
    },
    /\|z\| < 1.*1\.2/s,
  );
  // a pole on the imaginary axis: no Gramian either
  await refused(
    'hsvd',
    {
      A: [
        [0, 1],
        [-1, 0],
      ],
      B: [[0], [1]],
      C: [[1, 0]],
    },
    /stable|no unique solution/,
  );
});

test('modred takes an unstable model (as MATLAB): the python-control testModredUnstable model, DC gain kept', async () => {
  const A = [
    [4.5418, 3.3999, 5.0342, 4.3808],
    [0.389, 0.3599, 0.4195, 0.176],
    [-4.2117, -3.2395, -4.676, -4.218],
    [0.0052, 0.0429, 0.0155, 0.2743],
  ];
  const r = await ok('modred', {
    A,
    B: [
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
    ],
    C: [
      [1, 2, 3, 4],
      [1, 2, 3, 4],
    ],
    elim: [3, 4],
  });
  assert.equal(r.A.length, 2);
});

test('balred: order out of range, a 1-state model, and a static gain are refused, naming order', async () => {
  await refused('balred', { ...canon, order: 4 }, /order 4 is out of range: it must satisfy 1 ≤ order < 4/);
  await refused('balred', { ...canon, order: 0 }, /order/);
  await refused('balred', { ...canon, order: 1.5 }, /order/);
  await refused('balred', { A: [[-2]], B: [[1]], C: [[3]], order: 1 }, /1 state, so there is nothing to reduce/);
  await refused('balred', { canon: 1, A: [], B: [], C: [[]], D: [[2]], order: 1 } as never, /./);
});

test('a 1-state model: hsvd, balreal and gram in closed form', async () => {
  // ẋ = −2x + u, y = 3x: Wc = 1/4, Wo = 9/4, σ = √(9/16) = 3/4; balanced: b²/4 = c²/4 = σ, b = c = √3
  const sys = { A: [[-2]], B: [[1]], C: [[3]] };
  const h = await ok('hsvd', sys);
  assert.ok(Math.abs(h.hsv[0] - 0.75) < 1e-15);
  const b = await ok('balreal', sys);
  assert.ok(Math.abs(b.B[0][0] - Math.sqrt(3)) < 1e-14 && Math.abs(b.C[0][0] - Math.sqrt(3)) < 1e-14, JSON.stringify(b));
  const g = await ok('gram', { ...sys, type: 'o' });
  assert.ok(Math.abs(g.W[0][0] - 2.25) < 1e-15);
  // discrete x[k+1] = 0.5x + u, y = x: Wc = Wo = 1/(1 − 0.25) = 4/3, σ = 4/3
  const d = await ok('hsvd', { A: [[0.5]], B: [[1]], C: [[1]], Ts: 0.1 });
  assert.ok(Math.abs(d.hsv[0] - 4 / 3) < 1e-14);
});

test('a static gain (no states): no Hankel singular values, an empty Gramian', async () => {
  const h = await ok('hsvd', { A: [], B: [], C: [[]], D: [[2]] });
  assert.deepEqual(h.hsv, []);
  const h2 = await ok('hsvd', { num: [3], den: [2] });
  assert.deepEqual(h2.hsv, []);
  const g = await ok('gram', { A: [], B: [] });
  assert.deepEqual(g.W, []);
  await refused('modred', { A: [], B: [], C: [[]], D: [[2]], elim: [1] }, /no states/);
});

test('a non-minimal model: zero Hankel singular values; balreal leaves the state out (as SLICOT AB09AD), balred reduces to the minimal order', async () => {
  // the second state is neither controllable nor observable
  const sys = {
    A: [
      [-1, 0],
      [0, -3],
    ],
    B: [[1], [0]],
    C: [[2, 0]],
  };
  const h = await ok('hsvd', sys);
  assert.ok(Math.abs(h.hsv[0] - 1) < 1e-14 && h.hsv[1] < 1e-15, JSON.stringify(h.hsv));
  const b = await ok('balreal', sys);
  assert.equal(b.order, 1);
  assert.equal(b.A.length, 1);
  assert.ok(Math.abs(b.A[0][0] + 1) < 1e-14 && Math.abs(b.B[0][0] * b.C[0][0] - 2) < 1e-14);
  assert.equal(b.T.length, 1);
  assert.equal(b.T[0].length, 2);
  const r = await ok('balred', { ...sys, order: 1 });
  assert.ok(Math.abs(r.A[0][0] + 1) < 1e-14 && Math.abs(r.B[0][0] * r.C[0][0] - 2) < 1e-14);
  // gram of the semidefinite Gramian: the factor by the SVD route, still W = RᵀR
  const g = await ok('gram', { ...sys, factor: true });
  assert.ok(Math.abs(g.R[0][0] - Math.sqrt(0.5)) < 1e-15 && g.R[1][1] === 0 && g.R[1][0] === 0, JSON.stringify(g.R));
});

test('balred refuses an order that splits a repeated Hankel singular value', async () => {
  // two identical decoupled first-order channels: σ1 = σ2
  const sys = {
    A: [
      [-1, 0],
      [0, -1],
    ],
    B: [
      [1, 0],
      [0, 1],
    ],
    C: [
      [1, 0],
      [0, 1],
    ],
  };
  await refused('balred', { ...sys, order: 1 }, /splits a repeated Hankel singular value/);
});

test('modred: bad elim lists are refused naming elim; a transfer function is refused (its states are not fixed)', async () => {
  await refused('modred', { ...matlabBalanced, elim: [5] }, /elim must list states between 1 and 4/);
  await refused('modred', { ...matlabBalanced, elim: [2, 2] }, /twice/);
  await refused('modred', { ...matlabBalanced, elim: [1, 2, 3, 4] }, /removes all 4 states/);
  await refused('modred', { ...matlabBalanced, elim: [] }, /elim/);
  await refused('modred', { num: [1], den: [1, 2, 1], elim: [1] } as never, /./);
  await refused('gram', { num: [1], den: [1, 2, 1] } as never, /./);
});

test('modred matchdc refuses when the eliminated block has a mode at s = 0', async () => {
  await refused(
    'modred',
    {
      A: [
        [-1, 1],
        [0, 0],
      ],
      B: [[0], [1]],
      C: [[1, 0]],
      elim: [2],
    },
    /A22.*singular/,
  );
});

test('gram: type o needs C, type c needs B', async () => {
  await refused('gram', { A: [[-1]], C: [[1]] }, /needs B/);
  await refused('gram', { A: [[-1]], B: [[1]], type: 'o' }, /needs C/);
});

// ------------------------------------------------------------------ the verifier

test('the verifier rejects wrong results of each tool', async () => {
  const c = ref.mimo6c;
  const bad = (tool: string, args: Record<string, any>, result: Record<string, any>) => {
    const v = verify(tool, args, result);
    assert.equal(v?.ok, false, `${tool}: a wrong result passed: ${JSON.stringify(v?.checks)}`);
  };
  const good = (await callTool('hsvd', c.args)).result;
  bad('hsvd', c.args, { hsv: good.hsv.map((s: number, i: number) => (i === 1 ? s * 1.001 : s)) });
  bad('hsvd', c.args, { hsv: [...good.hsv].reverse() });
  const g = (await callTool('gram', { ...c.args, factor: true })).result;
  bad('gram', { ...c.args, factor: true }, { ...g, W: g.W.map((r: number[], i: number) => r.map((v, j) => (i === j ? v * 1.0001 : v))) });
  bad('gram', { ...c.args, factor: true }, { ...g, R: g.R.map((r: number[], i: number) => r.map((v, j) => (i === 0 && j === 0 ? v * 1.001 : v))) });
  const b = (await callTool('balreal', c.args)).result;
  bad('balreal', c.args, { ...b, A: b.A.map((r: number[], i: number) => r.map((v, j) => (i === 1 && j === 2 ? v + 1e-4 : v))) });
  const r = (await callTool('balred', { ...c.args, order: 3 })).result;
  bad('balred', { ...c.args, order: 3 }, { ...r, B: r.B.map((row: number[]) => row.map((v) => v * 1.3)) });
  bad('balred', { ...c.args, order: 3 }, { ...r, errorBound: r.errorBound / 2 });
  const m = (await callTool('balred', { ...c.args, order: 3, method: 'matchdc' })).result;
  bad('balred', { ...c.args, order: 3, method: 'matchdc' }, { ...m, D: m.D.map((row: number[]) => row.map((v) => v + 1e-3)) });
  const mr = (await callTool('modred', { ...matlabBalanced, elim: [3, 4] })).result;
  bad('modred', { ...matlabBalanced, elim: [3, 4] }, { ...mr, D: [[0]] });
});

// ------------------------------------------------------------------ rendering and code

test('answers: the Hankel singular value table with shares and bounds, the error bound, code in both languages', async () => {
  const args = { ...canon, order: 2, method: 'matchdc' };
  const call = await callTool('balred', args);
  for (const math of [true, false]) {
    const md = renderToolResult('balred', args, call.result, call.verification, { math });
    assert.match(md, /Error bound:.*2·Σ.*0\.10561/s);
    assert.match(md, /\| 3 \| 0\.0473636 \| .* \| discarded \|/);
    assert.match(md, /share of Σσ²/);
    assert.match(md, /MATLAB's balred default/);
  }
  const tool = getTool('balred')!;
  assert.ok(hasFacet(tool.code));
  const matlab = reproduce({ tool: 'balred', args, result: call.result, verification: call.verification }, 'matlab');
  const py = reproduce({ tool: 'balred', args, result: call.result, verification: call.verification }, 'python');
  assert.match(matlab, /balred\(sys, r, opts\)/);
  assert.match(matlab, /'MatchDC'/);
  assert.match(py, /ct\.balred\(sys, r, method='matchdc'\)/);
  const mr = await callTool('modred', { ...matlabBalanced, elim: [3, 4] });
  assert.match(reproduce({ tool: 'modred', args: { ...matlabBalanced, elim: [3, 4] }, result: mr.result }, 'python'), /\[e - 1 for e in elim\]/);
  const plots = (tool.plots as (a: unknown, r: unknown) => { kind: string; title: string }[])(args, call.result);
  assert.deepEqual(
    plots.map((p) => p.kind),
    ['bode', 'bode', 'step', 'step'],
  );
});
