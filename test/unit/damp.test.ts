/**
 * damp: natural frequency, damping ratio and time constant of each pole. References: the
 * MATLAB damp documentation examples (H = tf([2 5 1],[1 2 3]): ωn = 1.73, ζ = 0.577, τ = 1.00)
 * and test/fixtures/damp/ref.py (numpy roots/eigvals, its stored output ref.json).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { callTool } from '../../src/core/tools/runner.js';

const ref = JSON.parse(readFileSync(new URL('../fixtures/damp/ref.json', import.meta.url), 'utf8')) as Record<
  string,
  { args: Record<string, unknown>; expect: Record<string, any> }
>;

const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

for (const [name, c] of Object.entries(ref)) {
  test(`damp ${name}: poles, ωn, ζ, τ as numpy, sorted by ωn, verified`, async () => {
    const { result, verification } = await callTool('damp', c.args);
    assert.equal(verification?.ok, true, JSON.stringify(verification));
    assert.equal(result.poles.length, c.expect.poles.length);
    c.expect.poles.forEach((p: number[], i: number) => {
      close(result.poles[i][0], p[0], `${name} pole ${i} re`);
      close(result.poles[i][1], p[1], `${name} pole ${i} im`);
      for (const k of ['wn', 'zeta', 'tau']) close(result[k][i], c.expect[k][i], `${name} ${k}[${i}]`);
    });
  });
}

test('damp: the MATLAB documentation example rounds to its published table', async () => {
  const { result } = await callTool('damp', { num: [2, 5, 1], den: [1, 2, 3] });
  assert.deepEqual(
    result.wn.map((x: number) => +x.toFixed(2)),
    [1.73, 1.73],
  );
  assert.deepEqual(
    result.zeta.map((x: number) => +x.toFixed(3)),
    [0.577, 0.577],
  );
  assert.deepEqual(
    result.tau.map((x: number) => +x.toFixed(2)),
    [1, 1],
  );
});

test('damp: an integrator has ωn = 0 and no damping ratio (NaN, as python-control); a pole on the axis has τ = ∞', async () => {
  const { result, verification } = await callTool('damp', { num: [1], den: [1, 0, 4, 0] });
  assert.equal(verification?.ok, true);
  assert.deepEqual(
    result.wn.map((x: number) => +x.toFixed(12)),
    [0, 2, 2],
  );
  assert.ok(Number.isNaN(result.zeta[0]));
  assert.deepEqual(result.zeta.slice(1), [0, 0]);
  assert.deepEqual(result.tau, [Infinity, Infinity, Infinity]);
});

test('damp: a discrete deadbeat pole z = 0 is s = −∞: ωn = ∞, ζ = 1, τ = 0; an unstable pole has τ < 0', async () => {
  const { result, verification } = await callTool('damp', {
    A: [
      [0, 0],
      [0, 1.2],
    ],
    Ts: 0.5,
  });
  assert.equal(verification?.ok, true);
  // z = 1.2: s = ln(1.2)/0.5 = 0.364643, τ = −1/s
  close(result.wn[0], Math.log(1.2) / 0.5, 'wn');
  close(result.tau[0], -0.5 / Math.log(1.2), 'tau');
  assert.equal(result.zeta[0], -1);
  assert.deepEqual([result.wn[1], result.zeta[1], result.tau[1]], [Infinity, 1, 0]);
});

test('damp: B, C, D must fit A; no model is an error that says what to give', async () => {
  await assert.rejects(
    callTool('damp', {
      A: [
        [0, 1],
        [-2, -3],
      ],
      B: [[1], [0], [0]],
    }),
    /B/,
  );
  await assert.rejects(callTool('damp', {}), /damp needs a model/);
  const { result } = await callTool('damp', { A: [] });
  assert.deepEqual(result.poles, []);
});
