// Plain number[][] arithmetic for tests, independent of the kernel under test.
import assert from 'node:assert/strict';
import type { Complex } from '../../src/core/types.js';

export type M = number[][];
export const mm = (A: M, B: M): M => A.map((r) => B[0].map((_, j) => r.reduce((s, v, k) => s + v * B[k][j], 0)));
export const tr = (A: M): M => A[0].map((_, j) => A.map((r) => r[j]));
export const add = (...Ms: M[]): M => Ms[0].map((r, i) => r.map((_, j) => Ms.reduce((s, X) => s + X[i][j], 0)));
export const sc = (A: M, s: number): M => A.map((r) => r.map((v) => v * s));
export const sub = (A: M, B: M): M => add(A, sc(B, -1));
export const fro = (A: M): number => Math.sqrt(A.reduce((s, r) => s + r.reduce((t, v) => t + v * v, 0), 0));
export const eye = (n: number): M => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
export const zeros = (r: number, c = r): M => Array.from({ length: r }, () => new Array(c).fill(0));
/** inverse by Gauss-Jordan with partial pivoting (small test matrices only) */
export function invert(A: M): M {
  const n = A.length;
  const W = A.map((r, i) => [...r, ...eye(n)[i]]);
  for (let k = 0; k < n; k++) {
    let p = k;
    for (let i = k + 1; i < n; i++) if (Math.abs(W[i][k]) > Math.abs(W[p][k])) p = i;
    [W[k], W[p]] = [W[p], W[k]];
    const d = W[k][k];
    W[k] = W[k].map((v) => v / d);
    for (let i = 0; i < n; i++)
      if (i !== k) {
        const f = W[i][k];
        W[i] = W[i].map((v, j) => v - f * W[k][j]);
      }
  }
  return W.map((r) => r.slice(n));
}
/** deterministic pseudo-random numbers (Park-Miller) */
export function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647 - 0.5;
  };
}
export const randM = (r: number, c: number, rand: () => number): M => Array.from({ length: r }, () => Array.from({ length: c }, () => rand()));
/** true eigenvalue check without the kernel: |det(A - λI)| relative to scale, via complex LU */
export function charDetAbs(A: M, re: number, im: number): number {
  const n = A.length;
  const R = A.map((r, i) => r.map((v, j) => (i === j ? v - re : v)));
  const I = A.map((r, i) => r.map((_, j) => (i === j ? -im : 0)));
  let detAbs = 1;
  for (let k = 0; k < n; k++) {
    let p = k;
    for (let i = k + 1; i < n; i++) if (Math.hypot(R[i][k], I[i][k]) > Math.hypot(R[p][k], I[p][k])) p = i;
    [R[k], R[p]] = [R[p], R[k]];
    [I[k], I[p]] = [I[p], I[k]];
    const pr = R[k][k],
      pi = I[k][k];
    const m2 = pr * pr + pi * pi;
    detAbs *= Math.sqrt(m2);
    if (m2 === 0) return 0;
    for (let i = k + 1; i < n; i++) {
      const fr = (R[i][k] * pr + I[i][k] * pi) / m2,
        fi = (I[i][k] * pr - R[i][k] * pi) / m2;
      for (let j = k; j < n; j++) {
        const ar = R[k][j],
          ai = I[k][j];
        R[i][j] -= fr * ar - fi * ai;
        I[i][j] -= fr * ai + fi * ar;
      }
    }
  }
  return detAbs;
}

/** the multiset of complex numbers a equals b (greedy nearest matching) */
export function sameSet(a: Complex[], b: Complex[], tol: number, what: string): void {
  assert.equal(a.length, b.length, `${what}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  const left = b.slice();
  for (const z of a) {
    let bi = 0;
    left.forEach((w, i) => {
      if (Math.hypot(w[0] - z[0], w[1] - z[1]) < Math.hypot(left[bi][0] - z[0], left[bi][1] - z[1])) bi = i;
    });
    const w = left.splice(bi, 1)[0];
    assert.ok(Math.hypot(w[0] - z[0], w[1] - z[1]) <= tol * Math.max(1, Math.hypot(w[0], w[1])), `${what}: ${JSON.stringify(z)} not in ${JSON.stringify(b)}`);
  }
}
