/**
 * The TypeScript port of the oracle checker (test/oracle/check.ts) on single problems and its
 * assignment step. Over the whole oracle and CAREX fixtures (expected answers score perfectly,
 * perturbed answers fail exactly the problems the Python check.py fails): test/slow/checker.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkProblem, hungarian, type ProblemLine, type ResultLine } from '../oracle/check.js';
import { rng } from '../oracle/perturb.js';

test('single problems: sign flip, 1e-4 error, rtol override, missing field', () => {
  const p: ProblemLine = { id: 'x', tool: 'h2norm', args: {} };
  const e: ResultLine = { id: 'x', result: { h2: 2 } };
  assert.equal(checkProblem(p, e, { id: 'x', result: { h2: 2 } }).ok, true);
  assert.equal(checkProblem(p, e, { id: 'x', result: { h2: -2 } }).ok, false);
  assert.equal(checkProblem(p, e, { id: 'x', result: { h2: 2 * (1 + 1e-4) } }).ok, false);
  assert.equal(checkProblem({ ...p, rtol: 1e-3 }, e, { id: 'x', result: { h2: 2 * (1 + 1e-4) } }).ok, true);
  assert.match(checkProblem(p, e, { id: 'x', result: {} }).note, /missing field/);
  assert.match(checkProblem(p, e, undefined).note, /missing result/);
  assert.equal(checkProblem(p, { id: 'x', error: 'no' }, { id: 'x', error: 'refused' }).ok, true);
  assert.equal(checkProblem(p, { id: 'x', error: 'no' }, { id: 'x', result: { h2: 1 } }).ok, false);
  // dcgain: an infinite gain matches either sign
  const d: ProblemLine = { id: 'd', tool: 'dcgain', args: {} };
  assert.equal(checkProblem(d, { id: 'd', result: { gain: [['Infinity']] } }, { id: 'd', result: { gain: [['-Infinity']] } }).ok, true);
  // eigenvalue sets are matched whatever the order
  const g: ProblemLine = { id: 'e', tool: 'eig', args: {} };
  const ev = [
    [-1, 2],
    [-1, -2],
    [-3, 0],
  ];
  assert.equal(checkProblem(g, { id: 'e', result: { eigenvalues: ev } }, { id: 'e', result: { eigenvalues: [ev[2], ev[0], ev[1]] } }).ok, true);
  assert.equal(checkProblem(g, { id: 'e', result: { eigenvalues: ev } }, { id: 'e', result: { eigenvalues: ev.slice(1) } }).ok, false);
});

test('hungarian matches brute force on random 5x5 costs', () => {
  const r = rng(7);
  const perms = (n: number): number[][] =>
    n === 0 ? [[]] : perms(n - 1).flatMap((p) => Array.from({ length: n }, (_, i) => [...p.slice(0, i), n - 1, ...p.slice(i)]));
  const all = perms(5);
  for (let trial = 0; trial < 50; trial++) {
    const cost = Array.from({ length: 5 }, () => Array.from({ length: 5 }, () => Math.floor(r() * 20)));
    const best = Math.min(...all.map((p) => p.reduce((s, j, i) => s + cost[i][j], 0)));
    const m = hungarian(cost);
    assert.equal(new Set(m).size, 5);
    assert.equal(
      m.reduce((s, j, i) => s + cost[i][j], 0),
      best,
    );
  }
});
