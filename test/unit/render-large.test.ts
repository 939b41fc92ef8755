// A chat answer stays readable and small: a matrix above 20x20 shows its leading 6x6 block,
// its size and its largest entry, and says where the whole matrix is (issue 11: the 1.1 MB
// answer of an n = 200 care blocked VS Code's extension host for 40 s in stream.markdown).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matrixBlock } from '../../src/core/render/markdown.js';

const M = (n: number) =>
  Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? -2 : j === i + 1 ? 1 : 0) + (i === n - 1 && j === n - 1 ? -40 : 0)));

test('a 200x200 matrix: the leading 6x6 block, its size, its largest entry, and where the rest is', () => {
  for (const math of [false, true]) {
    const md = matrixBlock('X', M(200), { math });
    assert.ok(md.length < 8000, `${md.length} characters`);
    assert.match(md, /\*\*X\*\* \(200x200; rows 1–6 and columns 1–6 shown, largest \|entry\| 42\)/);
    // the table has a header, a separator and 10 rows of 10 numbers
    const rows = md.split('\n').filter((l) => /^\| \*\*\d+\*\* \|/.test(l));
    assert.equal(rows.length, 6);
    assert.deepEqual(
      rows[0]
        .split('|')
        .slice(2, -1)
        .map((c) => Number(c.trim())),
      [-2, 1, 0, 0, 0, 0],
    );
    assert.match(md, /whole 200x200 matrix is in the reproducing code/);
  }
});

test('up to 20x20 a matrix is shown whole', () => {
  const md = matrixBlock('X', M(20), { math: false });
  const rows = md.split('\n').filter((l) => /^\| \*\*\d+\*\* \|/.test(l));
  assert.equal(rows.length, 20);
  assert.equal(rows[19].split('|').slice(2, -1).length, 20);
  assert.doesNotMatch(md, /shown/);
});
