/**
 * One controllability decision: analyse, ctrb_rank, place and lqr decide about the same (A, B)
 * with the one staircase of linalg/staircase.ts, so they agree. Expected answers by hand
 * (each case says why); before the staircase was shared, analyse and ctrb_rank (SVD of
 * [B, AB]) called the 1e30 companion pair uncontrollable, and place refused the pair whose
 * second state is measured in units 1e30 too small.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getTool } from '../../src/core/tools/table.js';
import type { Matrix } from '../../src/core/types.js';

const run = (tool: string, args: Record<string, unknown>): any => getTool(tool)!.run(args as any);
const refusal = (tool: string, args: Record<string, unknown>): string => {
  try {
    run(tool, args);
  } catch (e) {
    return (e as Error).message;
  }
  return '';
};
const R = Math.SQRT1_2;

interface Case {
  name: string;
  A: Matrix;
  B: Matrix;
  /** the hand answer */
  controllable: boolean;
  /** the uncontrollable mode when not */
  mode?: number;
  poles: [number, number][];
  Q: Matrix;
  Rw: Matrix;
}

const cases: Case[] = [
  {
    // companion form of s² + 3s + 2 with A and B scaled by 1e30: det[B, AB] = −A12·B2² ≠ 0,
    // and a common scale changes neither controllability nor its distance relative to ‖[A B]‖
    name: 'companion form scaled by 1e30',
    A: [
      [0, 1e30],
      [-2e30, -3e30],
    ],
    B: [[0], [1e30]],
    controllable: true,
    poles: [
      [-1e30, 0],
      [-2e30, 0],
    ],
    Q: [
      [1, 0],
      [0, 1],
    ],
    Rw: [[1]],
  },
  {
    // x1 measured in units 1e30 too small: with x = diag(1e-30, 1) z this is
    // z' = [0 1; −2 −3] z + [0; 1e30] u, controllable (det[B, AB] = −1e30 ≠ 0); the weights
    // Q = diag(1e60, 1), R = 1e60 are z'z + u² in those units
    name: 'badly scaled states (A12 = 1e-30, A21 = -2e30)',
    A: [
      [0, 1e-30],
      [-2e30, -3],
    ],
    B: [[0], [1e30]],
    controllable: true,
    poles: [
      [-1, 0],
      [-2, 0],
    ],
    Q: [
      [1e60, 0],
      [0, 1],
    ],
    Rw: [[1e60]],
  },
  {
    // A = V diag(−1, 2) V', V the 45° rotation (A is exact in binary), B = V [1; δ] with
    // δ = 1e-17: R ± R·1e-17 rounds to R, so the stored B is [R; R] and w = [1, −1] has
    // w'A = 2w' and w'B = 0 exactly: the unstable mode 2 is uncontrollable (PBH)
    name: 'near-uncontrollable, below rounding (delta = 1e-17)',
    A: [
      [0.5, -1.5],
      [-1.5, 0.5],
    ],
    B: [[R - R * 1e-17], [R + R * 1e-17]],
    controllable: false,
    mode: 2,
    poles: [
      [-3, 0],
      [-4, 0],
    ],
    Q: [
      [1, 0],
      [0, 1],
    ],
    Rw: [[1]],
  },
  {
    // the same with δ = 1e-3: w'B = −2Rδ ≈ −1.4e-3, far above the rounding of the data
    name: 'near-uncontrollable, above rounding (delta = 1e-3)',
    A: [
      [0.5, -1.5],
      [-1.5, 0.5],
    ],
    B: [[R - R * 1e-3], [R + R * 1e-3]],
    controllable: true,
    poles: [
      [-3, 0],
      [-4, 0],
    ],
    Q: [
      [1, 0],
      [0, 1],
    ],
    Rw: [[1]],
  },
];

for (const c of cases) {
  test(`analyse, ctrb_rank, place and lqr agree: ${c.name}`, () => {
    const n = c.A.length;
    const an = run('analyse', { A: c.A, B: c.B });
    const rank = run('ctrb_rank', { A: c.A, B: c.B }).rank;
    assert.equal(an.controllability.rank, c.controllable ? n : n - 1, 'analyse rank');
    assert.equal(rank, an.controllability.rank, 'ctrb_rank agrees with analyse');
    if (c.controllable) {
      assert.deepEqual(an.controllability.uncontrollable, []);
      assert.equal(an.controllability.stabilisable, true);
      const pl = run('place', { A: c.A, B: c.B, poles: c.poles });
      const got = (pl.poles as [number, number][]).map(([re]) => re).sort((a, b) => a - b);
      const want = c.poles.map(([re]) => re).sort((a, b) => a - b);
      got.forEach((v, i) => assert.ok(Math.abs(v - want[i]) <= 1e-8 * Math.abs(want[i]), `place pole ${v} vs ${want[i]}`));
      const lq = run('lqr', { A: c.A, B: c.B, Q: c.Q, R: c.Rw });
      assert.ok(
        (lq.poles as [number, number][]).every(([re]) => re < 0),
        'lqr closed loop stable',
      );
    } else {
      const [z] = an.controllability.uncontrollable;
      assert.ok(Math.abs(z[0] - c.mode!) <= 1e-12 && z[1] === 0, `analyse names the mode ${c.mode}: ${z}`);
      assert.equal(an.controllability.stabilisable, false);
      assert.match(refusal('place', { A: c.A, B: c.B, poles: c.poles }), /not controllable: only 1 of 2 poles.*at 2\.0/);
      assert.match(refusal('lqr', { A: c.A, B: c.B, Q: c.Q, R: c.Rw }), /not stabilisable: the mode at s = 2 is uncontrollable/);
    }
  });
}

test('obsv_rank and analyse decide observability with the same staircase (dual pair)', () => {
  // the transpose of the 1e30 companion pair: (A', B') is observable for the same reason
  const A = [
    [0, -2e30],
    [1e30, -3e30],
  ];
  const C = [[0, 1e30]];
  assert.equal(run('obsv_rank', { A, C }).rank, 2);
  assert.equal(run('analyse', { A, C }).observability.rank, 2);
});

test('the verified call path agrees: the verifier decides the rank on its own scaled Krylov matrix, and passes every case', async () => {
  const { callTool } = await import('../../src/core/tools/runner.js');
  for (const c of cases) {
    const want = c.controllable ? c.A.length : c.A.length - 1;
    const ct = await callTool('ctrb_rank', { A: c.A, B: c.B });
    assert.equal(ct.result.rank, want, `${c.name}: ctrb_rank`);
    assert.equal(ct.verification?.ok, true, `${c.name}: ${JSON.stringify(ct.verification)}`);
    const an = await callTool('analyse', { A: c.A, B: c.B });
    assert.equal(an.result.controllability.rank, want, `${c.name}: analyse`);
    // the dual pair (A', B') is observable exactly when (A, B) is controllable
    const At = c.A.map((_, i) => c.A.map((r) => r[i]));
    const ob = await callTool('obsv_rank', { A: At, C: [c.B.map((r) => r[0])] });
    assert.equal(ob.result.rank, want, `${c.name}: obsv_rank of the dual`);
  }
});

test('probe cases: entries near 1e-200 and stiff models get the PBH rank (numpy, test/fixtures/controllability/pbh.py), verified', async () => {
  const { readFileSync } = await import('node:fs');
  const { callTool } = await import('../../src/core/tools/runner.js');
  const cases = JSON.parse(readFileSync(new URL('../fixtures/controllability/probe-cases.json', import.meta.url), 'utf8')) as {
    tool: string;
    args: Record<string, unknown>;
  }[];
  const want = JSON.parse(readFileSync(new URL('../fixtures/controllability/pbh-out.json', import.meta.url), 'utf8')) as { rank: number; kind: string }[];
  for (const [i, c] of cases.entries()) {
    // the staircase said rank 0 for the tiny ones (its sums of squares underflowed), and the
    // verifier refused the stiff ones (the raw Krylov matrix's SVD said rank 2 and 7)
    const r = await callTool(c.tool, c.args);
    assert.equal(r.result.rank, want[i].rank, `${c.tool} ${want[i].kind} #${i}`);
    assert.equal(r.verification?.ok, true, `${c.tool} ${want[i].kind} #${i}: ${JSON.stringify(r.verification)}`);
  }
});

test('large models: the verifier confirms the staircase by an orthogonal (Arnoldi) basis where the Krylov SVD cannot (n = 128 full rank; n = 40 with 10 hidden uncontrollable states)', async () => {
  const { callTool } = await import('../../src/core/tools/runner.js');
  let seed = 3;
  const rnd = () => ((seed = (seed * 16807) % 2147483647), seed / 2147483647 - 0.5);
  // a random stable 128-state, 2-input model: controllable with probability 1 (Octave's isctrb agrees on such models)
  const n = 128;
  const A = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => rnd() / Math.sqrt(n) - (i === j ? 1.5 : 0)));
  const B = Array.from({ length: n }, () => [rnd(), rnd()]);
  const full = await callTool('ctrb_rank', { A, B });
  assert.equal(full.result.rank, n);
  assert.equal(full.verification?.ok, true, JSON.stringify(full.verification?.checks));
  // blkdiag(A1, A2) with B = [B1; 0]: exactly 30 controllable states (A2's 10 never see u),
  // hidden by one Householder reflection H = I − 2vv'/v'v (A → HAH, B → HB: same rank).
  // (At 60 states the staircase's rounding over 25+ steps passes its n²·ε tolerance and it
  // reports full rank, as Octave's isctrb (SLICOT AB01OD) does on the same model: a known limit.)
  const m = 40,
    k = 30;
  const A0 = Array.from({ length: m }, (_, i) =>
    Array.from({ length: m }, (_, j) => (i < k === j < k ? rnd() / Math.sqrt(m) : 0) - (i === j ? 1 + (i % 7) / 7 : 0)),
  );
  const B0 = Array.from({ length: m }, (_, i) => (i < k ? [rnd(), rnd()] : [0, 0]));
  const v = Array.from({ length: m }, () => rnd());
  const vv = v.reduce((s, x) => s + x * x, 0);
  const H = v.map((vi, i) => v.map((vj, j) => (i === j ? 1 : 0) - (2 * vi * vj) / vv));
  const mm = (X: number[][], Y: number[][]) => X.map((r) => Y[0].map((_, j) => r.reduce((s, x, l) => s + x * Y[l][j], 0)));
  const hidden = await callTool('ctrb_rank', { A: mm(mm(H, A0), H), B: mm(H, B0) });
  assert.equal(hidden.result.rank, k);
  assert.equal(hidden.verification?.ok, true, JSON.stringify(hidden.verification?.checks));
});
