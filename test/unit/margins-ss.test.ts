// Margins of state-space models go through a numerator computed by ss2tf, which carries
// round-off; a crossover that round-off creates must not be reported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runTool } from '../../src/core/tools/call.js';

test('1/(s+1)^2 as a state-space model has no phase crossover (the phase only tends to -180°)', () => {
  const r = runTool('margins', {
    A: [
      [-2, -1],
      [1, 0],
    ],
    B: [[1], [0]],
    C: [[0, 1]],
    D: [[0]],
  }) as Record<string, number>;
  assert.equal(r.gm, Infinity);
  assert.ok(Number.isNaN(r.w_pc));
});

test('1/(s+1)^3 as a state-space model keeps its real phase crossover: GM = 8 at ω = √3', () => {
  const r = runTool('margins', {
    A: [
      [-3, -3, -1],
      [1, 0, 0],
      [0, 1, 0],
    ],
    B: [[1], [0], [0]],
    C: [[0, 0, 1]],
    D: [[0]],
  }) as Record<string, number>;
  assert.ok(Math.abs(r.gm - 8) < 1e-9, String(r.gm));
  assert.ok(Math.abs(r.w_pc - Math.sqrt(3)) < 1e-9);
});

test("margins of a 128-state model: crossovers found and judged on the model's own H, not its ill-conditioned polynomial (SciPy: test/fixtures/margins/ss128.py)", async () => {
  const { readFileSync } = await import('node:fs');
  const { callTool } = await import('../../src/core/tools/runner.js');
  const sys = JSON.parse(readFileSync(new URL('../fixtures/margins/ss128.json', import.meta.url), 'utf8'));
  const ref = JSON.parse(readFileSync(new URL('../fixtures/margins/ss128-out.json', import.meta.url), 'utf8'));
  const r = await callTool('margins', sys);
  assert.equal(ref.w_gc.length, 1);
  assert.ok(Math.abs(r.result.w_gc - ref.w_gc[0]) <= 1e-9 * ref.w_gc[0], `w_gc ${r.result.w_gc} vs ${ref.w_gc[0]}`);
  assert.ok(Math.abs(r.result.pm_deg - ref.pm_deg[0]) <= 1e-7, `pm ${r.result.pm_deg} vs ${ref.pm_deg[0]}`);
  assert.equal(ref.phase_crossovers, 0);
  assert.equal(r.result.gm, Infinity);
  assert.equal(r.verification?.ok, true);
});
