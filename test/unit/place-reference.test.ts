/**
 * Multi-input pole placement against SciPy (scipy.signal.place_poles, YT, what python-control
 * uses): test/fixtures/place/reference.json is written by scipy_reference.py beside it (the
 * problems, SciPy's K and SciPy's largest relative pole error). Ours must place the poles at
 * least as accurately (down to a floor at rounding level) with a gain of comparable size
 * (the robust methods differ in how far they iterate, not in what they aim at).
 * Plus one n = 200 problem: the cost is O(n^3) now, so it is an ordinary unit test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runTool } from '../../src/core/tools/call.js';
import { eigenvalues } from '../../src/core/solvers/statesp.js';
import { placeProblem, poleRelError } from '../fixtures/placeProblems.js';

type M = number[][];
type C = [number, number];
interface Ref {
  id: string;
  note: string;
  n: number;
  m: number;
  A: M;
  B: M;
  poles: C[];
  K: M;
  scipyErr: number;
}

const ref: { scipy: string; problems: Ref[] } = JSON.parse(readFileSync(new URL('../fixtures/place/reference.json', import.meta.url), 'utf8'));

const closedLoop = (A: M, B: M, K: M): M => A.map((row, i) => row.map((v, j) => v - B[i].reduce((s, b, l) => s + b * K[l][j], 0)));
const normF = (K: M) => Math.sqrt(K.flat().reduce((s, v) => s + v * v, 0));

for (const p of ref.problems) {
  test(`place ${p.id} (${p.n} states, ${p.m} inputs; ${p.note}): poles at least as accurate as SciPy ${ref.scipy}`, () => {
    const r = runTool('place', { A: p.A, B: p.B, poles: p.poles }) as { K: M; poles: C[]; Acl: M };
    assert.equal(r.K.length, p.m);
    assert.equal(r.K[0].length, p.n);
    const err = poleRelError(eigenvalues(closedLoop(p.A, p.B, r.K)), p.poles);
    assert.ok(err <= Math.max(p.scipyErr, 1e-13), `pole error ${err.toExponential(2)}, SciPy ${p.scipyErr.toExponential(2)}`);
    // the reported poles are the eigenvalues of the reported closed loop
    assert.ok(poleRelError(r.poles, p.poles) <= Math.max(p.scipyErr, 1e-13));
    assert.ok(normF(r.K) <= 3 * normF(p.K), `|K| ${normF(r.K).toExponential(2)} against SciPy's ${normF(p.K).toExponential(2)}`);
  });
}

test('place with 200 states and 20 inputs completes and places the poles', () => {
  const p = placeProblem(200, 20);
  const r = runTool('place', { A: p.A, B: p.B, poles: p.poles }) as { K: M; poles: C[] };
  assert.ok(r.K.flat().every(Number.isFinite));
  assert.ok(poleRelError(r.poles, p.poles) < 1e-9);
});
