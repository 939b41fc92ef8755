/**
 * The structure tools (solvers/canon.ts): ctrbf, obsvf, kalman_decomp, canon, ss2ss, tzero.
 * References: the MATLAB ctrbf documentation example (its printed Abar, Bbar, Cbar, T, k), the
 * SLICOT AB08ND documentation example (finite invariant zeros 2 and −1), MATLAB canon's
 * documented forms, and test/fixtures/canon/ref.py (numpy/scipy: subspaces by SVD, the
 * companion forms by their formulas, zeros from the Rosenbrock pencil; stored in ref.json).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { callTool } from '../../src/core/tools/runner.js';
import { sameSet } from './linalg-helpers.js';
import { realModalForm } from '../../src/core/linalg/modal.js';
import { fromRows, mul, toRows } from '../../src/core/linalg/dense.js';

const ref = JSON.parse(readFileSync(new URL('../fixtures/canon/ref.json', import.meta.url), 'utf8')) as Record<string, any>;

const near = (a: number, b: number, tol: number, what: string) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
const sameMatrix = (got: number[][], want: number[][], tol: number, what: string) =>
  want.forEach((row, i) => row.forEach((v, j) => near(got[i][j], v, tol, `${what}[${i}][${j}]`)));

async function verified(tool: string, args: Record<string, unknown>) {
  const { result, verification } = await callTool(tool, args);
  assert.equal(verification?.ok, true, JSON.stringify(verification?.checks.filter((c) => !c.ok)));
  return result;
}

test('ctrbf: the MATLAB documentation example, up to the sign of each state (T rows), k = [1 0]', async () => {
  const c = ref.ctrbf_matlab_doc;
  const r = await verified('ctrbf', c.args);
  const M = c.matlab;
  assert.deepEqual(r.k, M.k);
  assert.equal(r.nc, 1);
  // the sign of each row of T: S = diag(sign(T_ours · T_matlab')), then S Abar S, S Bbar, Cbar S are MATLAB's
  const s = r.T.map((row: number[], i: number) => Math.sign(row[0] * M.T[i][0] + row[1] * M.T[i][1]));
  sameMatrix(
    r.Abar.map((row: number[], i: number) => row.map((v, j) => s[i] * v * s[j])),
    M.Abar,
    1e-4,
    'Abar',
  );
  sameMatrix(
    r.Bbar.map((row: number[], i: number) => row.map((v) => s[i] * v)),
    M.Bbar,
    1e-4,
    'Bbar',
  );
  sameMatrix(
    r.Cbar.map((row: number[]) => row.map((v, j) => v * s[j])),
    M.Cbar,
    1e-4,
    'Cbar',
  );
  sameMatrix(
    r.T.map((row: number[], i: number) => row.map((v) => s[i] * v)),
    M.T,
    1e-4,
    'T',
  );
  sameSet(r.uncontrollable, c.expect['c̄o'], 1e-12, 'uncontrollable modes');
});

test('obsvf: the dual form, [Ano A12; 0 Ao] and C = [0 Co]; C a left eigenvector leaves one mode unobservable', async () => {
  const r = await verified('obsvf', {
    A: [
      [1, 1],
      [4, -2],
    ],
    B: [[1], [1]],
    C: [[1, -1]],
  });
  assert.equal(r.no, 1);
  assert.deepEqual(r.k, [1, 0]);
  // C A = −3 C: the unobservable mode is the other eigenvalue, 2
  sameSet(r.unobservable, [[2, 0]], 1e-12, 'unobservable mode');
  assert.equal(r.Abar[1][0], 0);
  assert.equal(r.Cbar[0][0], 0);
});

test('kalman_decomp: the four parts of a rotated 5-state model, as SciPy subspaces give them', async () => {
  const c = ref.kalman_5;
  const r = await verified('kalman_decomp', c.args);
  for (const p of r.parts) sameSet(p.eigenvalues, c.expect[p.part], 1e-9, `part ${p.part}`);
  assert.equal(r.nc, c.expect.nc);
  assert.equal(r.no, c.expect.no);
  assert.equal(r.nmin, 1);
  assert.deepEqual(
    r.parts.map((p: { part: string; n: number }) => [p.part, p.n]),
    [
      ['co', 1],
      ['cō', 1],
      ['c̄o', 2],
      ['c̄ō', 1],
    ],
  );
});

test('canon modal: [σ ω; −ω σ] blocks ordered by |λ|, as numpy eigenvalues give them', async () => {
  const c = ref.canon_4;
  const r = await verified('canon', { ...c.args, form: 'modal' });
  sameMatrix(r.A, c.expect.modal_A, 1e-10, 'modal A');
  assert.ok(r.cond >= 1);
});

for (const form of ['companion', 'reachable', 'observable'] as const)
  test(`canon ${form}: A, B, C and T as the ${form === 'companion' ? "MATLAB canon 'companion'" : `python-control ${form}_form`} formulas give them`, async () => {
    const c = ref.canon_4;
    const r = await verified('canon', { ...c.args, form });
    const e = c.expect[form];
    sameMatrix(r.A, e.A, 1e-9, 'A');
    sameMatrix(r.B, e.B, 1e-9, 'B');
    sameMatrix(r.C, e.C, 1e-9, 'C');
    sameMatrix(r.T, e.T, 1e-9, 'T');
  });

test('canon: a defective A (a Jordan block) has no modal form and is refused with the condition number; a singular ss2ss T too', async () => {
  await assert.rejects(
    callTool('canon', {
      A: [
        [1, 1],
        [0, 1],
      ],
      B: [[0], [1]],
      C: [[1, 0]],
      form: 'modal',
    }),
    /condition number .*condt = 1e\+?8|condt/,
  );
  await assert.rejects(
    callTool('ss2ss', {
      A: [
        [0, 1],
        [-2, -3],
      ],
      B: [[0], [1]],
      C: [[1, 0]],
      T: [
        [1, 1],
        [1, 1],
      ],
    }),
    /T is singular/,
  );
  await assert.rejects(
    callTool('ss2ss', {
      A: [
        [0, 1],
        [-2, -3],
      ],
      B: [[0], [1]],
      C: [[1, 0]],
      T: [[1, 1]],
    }),
    /T must be square, but it is 1x2/,
  );
  await assert.rejects(
    callTool('canon', {
      A: [
        [0, 1],
        [-2, -3],
      ],
      B: [[0], [0]],
      C: [[1, 0]],
      form: 'companion',
    }),
    /not controllable from its first input/,
  );
});

test('ss2ss: T A T⁻¹, T B, C T⁻¹ as numpy computes them, and cond(T)', async () => {
  const c = ref.ss2ss_4;
  const r = await verified('ss2ss', c.args);
  sameMatrix(r.A, c.expect.A, 1e-10, 'A');
  sameMatrix(r.B, c.expect.B, 1e-10, 'B');
  sameMatrix(r.C, c.expect.C, 1e-10, 'C');
  near(r.cond, c.expect.cond, 1e-8, 'cond');
});

test('tzero: SLICOT AB08ND documentation example, invariant zeros 2 and −1; decoupling zeros from SciPy subspaces', async () => {
  const c = ref.tzero_ab08nd;
  const r = await verified('tzero', c.args);
  sameSet(r.zeros, c.expect.zeros, 1e-10, 'invariant zeros');
  sameSet(r.input_decoupling, c.expect.input_decoupling, 1e-10, 'input-decoupling zeros');
  sameSet(r.output_decoupling, c.expect.output_decoupling, 1e-10, 'output-decoupling zeros');
  assert.equal(r.normal_rank, 8);
});

test('tzero: a square 2x2 system: the invariant zeros are the finite eigenvalues of the Rosenbrock pencil (SciPy), all of them decoupling zeros here', async () => {
  const c = ref.tzero_square;
  const r = await verified('tzero', c.args);
  sameSet(r.zeros, c.expect.zeros, 1e-9, 'invariant zeros');
  sameSet(r.system_zeros, c.expect.zeros, 1e-9, 'system zeros = invariant zeros (square, full normal rank)');
  sameSet(r.input_decoupling, c.expect.input_decoupling, 1e-9, 'input-decoupling zeros');
  sameSet(r.output_decoupling, c.expect.output_decoupling, 1e-9, 'output-decoupling zeros');
  sameSet(r.input_output_decoupling, c.expect.io_decoupling, 1e-9, 'input-output decoupling zeros');
  assert.deepEqual(r.transmission, []);
});

test('tzero: a SISO model with an uncontrollable mode: the invariant zero at −2 is an input-decoupling zero, no transmission zero (G = 1/(s+1))', async () => {
  const r = await verified('tzero', {
    A: [
      [-1, 0],
      [0, -2],
    ],
    B: [[1], [0]],
    C: [[1, 1]],
    D: [[0]],
  });
  sameSet(r.zeros, [[-2, 0]], 1e-12, 'zeros');
  assert.deepEqual(r.transmission, []);
  sameSet(r.input_decoupling, [[-2, 0]], 1e-12, 'input-decoupling');
  assert.deepEqual(r.output_decoupling, []);
});

test('tzero: a static gain has no zeros (MATLAB: tzero(ss(D)) is empty) and the normal rank of P(s) = D is rank D; a transfer function goes through its realisation', async () => {
  const r = await verified('tzero', {
    A: [],
    B: [],
    C: [],
    D: [
      [2, 0],
      [0, 0],
    ],
  });
  assert.deepEqual([r.zeros, r.transmission, r.input_decoupling, r.output_decoupling, r.system_zeros], [[], [], [], [], []]);
  assert.equal(r.normal_rank, 1);
  // (s + 2)/(s^2 + 3s + 2) = 1/(s + 1): no transmission zero; its controllable canonical realisation keeps −2 unobservable
  const t = await verified('tzero', {
    A: [
      [-3, -2],
      [1, 0],
    ],
    B: [[1], [0]],
    C: [[1, 2]],
    D: [[0]],
  });
  sameSet(t.zeros, [[-2, 0]], 1e-12, 'zeros');
  assert.deepEqual(t.transmission, []);
  sameSet(t.output_decoupling, [[-2, 0]], 1e-12, 'output-decoupling');
});

test('linalg realModalForm: A V = V L with [σ ω; −ω σ] blocks, ω > 0', () => {
  const A = fromRows([
    [-1, 2, 0, 0.3],
    [-2, -1, 0.5, 0],
    [0, 0, -3, 1],
    [0.2, 0, 0, -0.5],
  ]);
  const { V, L, start, size } = realModalForm(A);
  const AV = toRows(mul(A, V)),
    VL = toRows(mul(V, L));
  AV.forEach((row, i) => row.forEach((v, j) => near(v, VL[i][j], 1e-12, `AV = VL [${i}][${j}]`)));
  const Lr = toRows(L);
  start.forEach((s, k) => {
    if (size[k] === 2) {
      assert.equal(Lr[s][s], Lr[s + 1][s + 1]);
      assert.equal(Lr[s][s + 1], -Lr[s + 1][s]);
      assert.ok(Lr[s][s + 1] > 0);
      near(Lr[s][s + 1], 1.993322735288368, 1e-12, 'ω (numpy)');
    }
  });
});

test('tzero refuses a model with entries of 1e200 (the verifier probe, seed 2026), naming the fix, instead of zeros its own check rejects', async () => {
  await assert.rejects(
    callTool('tzero', {
      A: [
        [1.552808534428903e200, 1.645039262165824e199],
        [5.099704757172032e199, -4.1696884376269275e199],
      ],
      B: [[8.33837476140236e199], [-1.6970211416085038e200]],
      C: [[-1.57842768605325e200, 3.605947497731895e199]],
    }),
    /tzero: A has entries of order 2e\+200, beyond what this tool computes reliably.*rescale the model/,
  );
});
