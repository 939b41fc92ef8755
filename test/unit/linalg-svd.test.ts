/**
 * linalg/svd.ts svd(): the full decomposition M = U·diag(s)·Vᵀ. References: closed forms
 * ([[3, 0], [4, 5]]: MᵀM = [[25, 20], [20, 25]] has eigenvalues 45 and 5, so σ = √45, √5; a
 * rank-one u·vᵀ has σ1 = |u||v| and the rest 0), and the defining identities on other shapes
 * (reconstruction, orthonormal columns, decreasing s), including entries near 1e-310 that the
 * unit scaling must carry.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { svd } from '../../src/core/linalg/svd.js';
import { fromRows, mul, mulTN, toRows, transpose, type Mat } from '../../src/core/linalg/dense.js';

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (1664525 * s + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

function checkIdentities(M: number[][], tol = 1e-13): void {
  const A = fromRows(M);
  const { U, s, V } = svd(A);
  const k = Math.min(A.r, A.c);
  assert.equal(U.r, A.r);
  assert.equal(U.c, k);
  assert.equal(V.r, A.c);
  assert.equal(V.c, k);
  for (let i = 1; i < k; i++) assert.ok(s[i - 1] >= s[i] && s[i] >= 0, 'decreasing, nonnegative');
  const S: Mat = { r: k, c: k, d: new Float64Array(k * k) };
  for (let i = 0; i < k; i++) S.d[i * k + i] = s[i];
  const R = toRows(mul(mul(U, S), transpose(V)));
  let big = 0;
  for (const r of M) for (const v of r) big = Math.max(big, Math.abs(v));
  R.forEach((r, i) => r.forEach((v, j) => assert.ok(Math.abs(v - M[i][j]) <= tol * big, `M[${i},${j}]: ${v} vs ${M[i][j]}`)));
  for (const Q of [U, V]) {
    const G = toRows(mulTN(Q, Q));
    G.forEach((r, i) => r.forEach((v, j) => assert.ok(Math.abs(v - (i === j ? 1 : 0)) <= 1e-13, 'orthonormal columns')));
  }
}

test('svd: the closed form of [[3, 0], [4, 5]] and of a rank-one matrix', () => {
  const { s } = svd(
    fromRows([
      [3, 0],
      [4, 5],
    ]),
  );
  assert.ok(Math.abs(s[0] - Math.sqrt(45)) < 1e-14 && Math.abs(s[1] - Math.sqrt(5)) < 1e-14);
  const u = [1, 2, 2],
    v = [3, 4];
  const r1 = svd(fromRows(u.map((a) => v.map((b) => a * b)))).s;
  assert.ok(Math.abs(r1[0] - 15) < 1e-13 && Math.abs(r1[1]) < 1e-13);
});

test('svd: U diag(s) Vᵀ = M with orthonormal U, V on square, tall and wide matrices', () => {
  const rnd = lcg(7);
  for (const [m, n] of [
    [5, 5],
    [7, 3],
    [3, 7],
    [1, 4],
    [12, 12],
  ])
    checkIdentities(Array.from({ length: m }, () => Array.from({ length: n }, rnd)));
});

test('svd: tiny entries (near 1e-310) are decomposed in unit scale, not lost', () => {
  const { s } = svd(
    fromRows([
      [3e-310, 0],
      [4e-310, 5e-310],
    ]),
  );
  assert.ok(Math.abs(s[0] / 1e-310 - Math.sqrt(45)) < 1e-6 && Math.abs(s[1] / 1e-310 - Math.sqrt(5)) < 1e-6, String(s));
});

test('svd: an empty matrix has empty factors', () => {
  const r = svd({ r: 3, c: 0, d: new Float64Array(0) });
  assert.equal(r.s.length, 0);
  assert.equal(r.U.r, 3);
});
