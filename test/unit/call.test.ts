// Validated calls: coercion of what people and models write, clear refusals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseComplexText, prepareArgs } from '../../src/core/tools/call.js';

test('complex numbers as written: a+bj, a-bi, bj, a±bj (a conjugate pair)', () => {
  assert.deepEqual(parseComplexText('-2+2j'), [[-2, 2]]);
  assert.deepEqual(parseComplexText('-2 - 2i'), [[-2, -2]]);
  assert.deepEqual(parseComplexText('3j'), [[0, 3]]);
  assert.deepEqual(parseComplexText('−1'), [[-1, 0]]);
  assert.deepEqual(parseComplexText('-2±2j'), [
    [-2, 2],
    [-2, -2],
  ]);
  assert.equal(parseComplexText('abc'), undefined);
});

test('place accepts poles as strings a model writes, and rejects nonsense clearly', () => {
  const base = {
    A: [
      [0, 1],
      [0, 0],
    ],
    B: [[0], [1]],
  };
  assert.deepEqual(prepareArgs('place', { ...base, poles: '[-2+2j, -2-2j]' }).args.poles, [
    [-2, 2],
    [-2, -2],
  ]);
  assert.deepEqual(prepareArgs('place', { ...base, poles: ['-1', -2] }).args.poles, [[-1, 0], -2]);
  assert.deepEqual(prepareArgs('place', { ...base, poles: '-1 -2' }).args.poles, [
    [-1, 0],
    [-2, 0],
  ]);
  assert.throws(() => prepareArgs('place', { ...base, poles: 'fast ones' }), /poles/);
});

test('scalars become 1x1 matrices, MATLAB literals in strings are read, defaults are filled', () => {
  const a = prepareArgs('lqr', { A: '[0 1; 0 0]', B: '[0; 1]', Q: 'eye(2)', R: 1 }).args;
  assert.deepEqual(a.R, [[1]]);
  assert.deepEqual(a.Q, [
    [1, 0],
    [0, 1],
  ]);
  assert.equal(prepareArgs('c2d', { A: [[-1]], B: [[1]], C: [[1]], Ts: 0.1 }).args.method, 'zoh');
});

test('size limit and non-finite entries are refused with the argument named', () => {
  const big = Array.from({ length: 5 }, () => new Array(5).fill(0));
  assert.throws(() => prepareArgs('eig', { A: big }, { maxN: 4 }), /A is 5x5, above the size limit of 4/);
  assert.throws(
    () =>
      prepareArgs('eig', {
        A: [
          [1, NaN],
          [0, 1],
        ],
      }),
    /A\[1\]\[2\] is NaN/,
  );
  assert.throws(() => prepareArgs('lqr', { A: [[1]] }), /lqr needs argument B/);
  assert.throws(() => prepareArgs('lqr', { A: [[1]], B: [[1]], Q: [[1]], R: [[1]], S: [[1]] }), /no argument S/);
});
