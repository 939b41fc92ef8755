import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fmt, fmtEigenvalues, fmtSmall, latexNum } from '../../src/core/render/format.js';
import { matrixBlock, textMatrix } from '../../src/core/render/markdown.js';

test('fmt: 6 significant figures, no -0, exponents for tiny and huge', () => {
  assert.equal(fmt(Math.sqrt(5) - 2), '0.236068');
  assert.equal(fmt(-1.5), '-1.5');
  assert.equal(fmt(-0), '0');
  assert.equal(fmt(2), '2');
  assert.equal(fmt(123456.7), '123457');
  assert.equal(fmt(1234567), '1.23457e6');
  assert.equal(fmt(3.14159e-16), '3.14159e-16');
  assert.equal(fmt(Infinity), 'Inf');
  assert.equal(fmt(NaN), 'NaN');
  assert.equal(fmtSmall(3.1234e-16), '3.1e-16');
});

test('eigenvalue lists fold conjugate pairs and drop round-off imaginary parts', () => {
  assert.deepEqual(
    fmtEigenvalues([
      [-0.25, -1.3919410907075054],
      [-0.25, 1.3919410907075054],
      [-2, 1e-18],
    ]),
    ['-0.25 ± 1.39194j', '-2'],
  );
  assert.deepEqual(
    fmtEigenvalues([
      [0, 1],
      [0, -1],
    ]),
    ['± 1j'],
  );
});

test('LaTeX numbers use \\times 10^{k}', () => {
  assert.equal(latexNum(2.5e-7), '2.5 \\times 10^{-7}');
  assert.equal(latexNum(Infinity), '\\infty');
});

test('matrices: bmatrix with math, aligned text without, table when large', () => {
  const K = [[0.2360679774997898, 0.2360679774997898]];
  assert.equal(matrixBlock('K', K, { math: true }), '$$\nK = \\begin{bmatrix} 0.236068 & 0.236068 \\end{bmatrix}\n$$');
  assert.equal(matrixBlock('K', K, { math: false }), '`K = [ 0.236068  0.236068 ]`');
  assert.equal(
    textMatrix([
      [1, -10],
      [100, 2],
    ]),
    '  1  -10\n100    2',
  );
  const big = Array.from({ length: 10 }, (_, i) => Array.from({ length: 10 }, (_, j) => i * 10 + j));
  const t = matrixBlock('X', big, { math: true });
  assert.match(t, /^\*\*X\*\* \(10x10\):/);
  assert.equal(t.split('\n').filter((l) => l.startsWith('|')).length, 12); // header, rule, 10 rows
  assert.match(
    matrixBlock(
      'A_cl',
      [
        [1, 0],
        [0, 1],
      ],
      { math: true },
    ),
    /A_{\\mathrm{cl}}/,
  );
});
