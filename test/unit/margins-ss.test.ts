// Margins of state-space models go through a numerator computed by ss2tf, which carries
// round-off; a crossover that round-off creates must not be reported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runTool } from '../../src/core/tools/call.js';

test('1/(s+1)^2 as a state-space model has no phase crossover (the phase only tends to -180°)', () => {
  const r = runTool('margins', { A: [[-2, -1], [1, 0]], B: [[1], [0]], C: [[0, 1]], D: [[0]] }) as Record<string, number>;
  assert.equal(r.gm, Infinity);
  assert.ok(Number.isNaN(r.w_pc));
});

test('1/(s+1)^3 as a state-space model keeps its real phase crossover: GM = 8 at ω = √3', () => {
  const r = runTool('margins', { A: [[-3, -3, -1], [1, 0, 0], [0, 1, 0]], B: [[1], [0], [0]], C: [[0, 0, 1]], D: [[0]] }) as Record<string, number>;
  assert.ok(Math.abs(r.gm - 8) < 1e-9, String(r.gm));
  assert.ok(Math.abs(r.w_pc - Math.sqrt(3)) < 1e-9);
});
