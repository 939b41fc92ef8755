/**
 * Verifier checks that must be able to fail: ctrb_rank/obsv_rank rebuild the Krylov matrix
 * from the arguments (a solver that returned a wrong matrix of the right rank was passed
 * before), and the rank decision's margin is information in the detail, not a second check
 * that always passed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verify } from '../../src/core/verify/index.js';

const A = [
  [0, 1],
  [-2, -3],
];

test('ctrb_rank: the reported matrix must be [B, AB] of the arguments', () => {
  // [B, AB] = [[0, 1], [1, -3]] for B = [0; 1]
  const right = verify(
    'ctrb_rank',
    { A, B: [[0], [1]] },
    {
      rank: 2,
      matrix: [
        [0, 1],
        [1, -3],
      ],
    },
  )!;
  assert.equal(right.ok, true, JSON.stringify(right));
  const wrong = verify(
    'ctrb_rank',
    { A, B: [[0], [1]] },
    {
      rank: 2,
      matrix: [
        [1, 0],
        [0, 1],
      ],
    },
  )!;
  assert.equal(wrong.ok, false);
  assert.ok(wrong.checks.some((c) => c.name === 'matrix' && !c.ok));
});

test('obsv_rank: the reported matrix must be [C; CA] of the arguments, and its rank the SVD rank', () => {
  // [C; CA] = [[1, 0], [0, 1]] for C = [1 0]
  assert.equal(
    verify(
      'obsv_rank',
      { A, C: [[1, 0]] },
      {
        rank: 2,
        matrix: [
          [1, 0],
          [0, 1],
        ],
      },
    )!.ok,
    true,
  );
  const badRank = verify(
    'obsv_rank',
    { A, C: [[1, 0]] },
    {
      rank: 1,
      matrix: [
        [1, 0],
        [0, 1],
      ],
    },
  )!;
  assert.equal(badRank.ok, false);
  assert.ok(badRank.checks.some((c) => c.name === 'rank' && !c.ok));
});

test('the rank margin is said in the rank check, and no check is a pass that cannot fail', () => {
  const v = verify(
    'ctrb_rank',
    {
      A: [
        [-1, 0],
        [0, -2],
      ],
      B: [[1], [0]],
    },
    {
      rank: 1,
      matrix: [
        [1, -1],
        [0, 0],
      ],
    },
  )!;
  assert.equal(v.ok, true, JSON.stringify(v));
  assert.deepEqual(
    v.checks.map((c) => c.name),
    ['matrix', 'rank'],
  );
  assert.match(v.checks[1].detail, /smallest kept singular value .*× the tolerance, largest dropped/);
});

test('rlocus (state space): a wrong closed-loop pole is caught by the independent eigensolver; poles_zeros: a wrong zero is caught', async () => {
  const { getTool } = await import('../../src/core/tools/table.js');
  const args = {
    A: [
      [0, 1, 0],
      [0, 0, 1],
      [-6, -11, -6],
    ],
    B: [[0], [0], [1]],
    C: [[1, 0, 0]],
  };
  const r = getTool('rlocus')!.run(args) as Record<string, any>;
  assert.equal(verify('rlocus', args, r)!.ok, true);
  const bad = structuredClone(r);
  bad.poles[0][0] = [bad.poles[0][0][0] + 1e-3, bad.poles[0][0][1]];
  const v = verify('rlocus', args, bad)!;
  assert.equal(v.ok, false, JSON.stringify(v));
  // (s + 2)/((s + 1)(s + 3)) in state space: the zero is at −2
  const pz = {
    A: [
      [0, 1],
      [-3, -4],
    ],
    B: [[0], [1]],
    C: [[2, 1]],
  };
  const z = getTool('poles_zeros')!.run(pz) as Record<string, any>;
  assert.equal(verify('poles_zeros', pz, z)!.ok, true);
  assert.equal(verify('poles_zeros', pz, { ...z, zeros: [[-2.01, 0]] })!.ok, false);
});
