/**
 * What a plot shows (core/plot/data.ts, moved out of src/vscode so it is tested here): every
 * number comes through the verified call path, and the offered plots are each tool's `plots`
 * facet. References: L(s) = 10/(s(s+1)(s+5)) has its phase crossover at ω = √5 with
 * |L(j√5)| = 10/(√5·√6·√30) = 1/3, so GM = 3 (closed form); the step response of 1/(s+1) is
 * 1 − e^(−t).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPlot, plotsFor } from '../../src/core/plot/data.js';

test('bode: magnitude and phase on a grid, with the margins (GM 3 at √5 rad/s), each call verified', async () => {
  const p = await buildPlot({ kind: 'bode', args: { num: [10], den: [1, 6, 5, 0] }, origin: 'turn 1' });
  assert.equal(p.kind, 'bode');
  assert.match(p.subtitle, /L\(s\) = \(10\) \/ \(s\^3 \+ 6s\^2 \+ 5s\) — turn 1/);
  const d = p.data as { w: number[]; mag_db: number[]; phase_deg: number[]; margins: Record<string, number> };
  assert.ok(d.w.length >= 50 && d.w.length === d.mag_db.length && d.w.length === d.phase_deg.length);
  assert.ok(Math.abs(d.margins.gm - 3) < 1e-9, `gm ${d.margins.gm}`);
  assert.ok(Math.abs(d.margins.w_pc - Math.sqrt(5)) < 1e-9, `w_pc ${d.margins.w_pc}`);
  assert.deepEqual(
    p.verification.map((v) => [v.tool, v.ok]),
    [
      ['tf2ss', true],
      ['freqresp', true],
      ['margins', true],
    ],
  );
});

test('step: y = 1 − e^(−t) at the samples, with the step characteristics', async () => {
  const p = await buildPlot({ kind: 'step', args: { num: [1], den: [1, 1] } });
  const d = p.data as { t: number[]; y: number[]; info: Record<string, number> };
  d.t.forEach((t, i) => assert.ok(Math.abs(d.y[i] - (1 - Math.exp(-t))) < 1e-12, `y(${t})`));
  // first-order: rise time (10 % → 90 %) = ln 9
  assert.ok(Math.abs(d.info.rise_time - Math.log(9)) < 1e-3, `rise ${d.info.rise_time}`);
});

test('pzmap of A alone: the eigenvalues, and a note that zeros need B and C', async () => {
  const p = await buildPlot({
    kind: 'pzmap',
    args: {
      A: [
        [0, 1],
        [-2, -3],
      ],
    },
  });
  const poles = (p.data as { poles: [number, number][] }).poles.map(([re]) => re).sort((a, b) => a - b);
  assert.deepEqual(
    poles.map((x) => +x.toFixed(12)),
    [-2, -1],
  );
  assert.match(p.notes.join(' '), /zeros need B and C/);
});

test('a Bode plot of a two-input model is refused with what to do; an unknown kind is refused', async () => {
  await assert.rejects(
    buildPlot({
      kind: 'bode',
      args: {
        A: [
          [-1, 0],
          [0, -2],
        ],
        B: [
          [1, 0],
          [0, 1],
        ],
        C: [[1, 1]],
      },
    }),
    /SISO system; this one has 2 input/,
  );
  await assert.rejects(buildPlot({ kind: 'sideways' as never, args: { num: [1], den: [1, 1] } }), /Unknown plot kind "sideways"/);
});

test('plotsFor: each tool offers its own plots; lqr offers the closed loop A − BK', () => {
  assert.deepEqual(
    plotsFor('margins', { num: [1], den: [1, 1] }, undefined).map((p) => p.kind),
    ['bode', 'nyquist'],
  );
  assert.deepEqual(plotsFor('margins', { A: [[-1]], B: [[1, 1]], C: [[1]] }, undefined), [], 'no SISO Bode of a two-input model');
  assert.deepEqual(plotsFor('eig', { A: [[-1]] }, { eigenvalues: [[-1, 0]] }), []);
  assert.deepEqual(plotsFor('no_such_tool', {}, undefined), []);
  // A = [0 1; -2 -3], B = [0; 1], K = [1 2]: A − BK = [0 1; -3 -5]
  const cl = plotsFor(
    'lqr',
    {
      A: [
        [0, 1],
        [-2, -3],
      ],
      B: [[0], [1]],
    },
    { K: [[1, 2]] },
  );
  assert.deepEqual(cl, [
    {
      kind: 'pzmap',
      args: {
        A: [
          [0, 1],
          [-3, -5],
        ],
      },
      title: 'Plot closed-loop poles',
    },
  ]);
  assert.deepEqual(
    plotsFor(
      'analyse',
      {
        A: [
          [0, 1],
          [-2, -3],
        ],
        B: [[0], [1]],
        C: [[1, 0]],
      },
      undefined,
    ).map((p) => p.kind),
    ['step', 'bode', 'pzmap'],
  );
});
