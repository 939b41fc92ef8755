/**
 * bandwidth, sigma and stability_margins (src/core/solvers/freqanalysis.ts) against published
 * values (MATLAB's bandwidth, allmargin, dm2gm and gm2dm documentation examples, MATLAB Answers
 * threads that print bandwidth results, python-control's bandwidth docstring and its
 * margin_test.py), textbook closed forms, and test/fixtures/freqanalysis/ref.json (ref.py:
 * numpy/scipy on dense grids with brentq and minimize_scalar, numpy's SVD). Every call goes
 * through the verified call path, so the independent checks (verify/freqanalysis.ts) pass too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { callTool } from '../../src/core/tools/runner.js';
import { diskGainPhase } from '../../src/core/solvers/freqanalysis.js';
import { buildPlot } from '../../src/core/plot/data.js';
import { resultCharts } from '../../src/core/render/svgplot.js';
import { Conversation, readTurn } from '../../src/core/reader/index.js';

const ref = JSON.parse(readFileSync(new URL('../fixtures/freqanalysis/ref.json', import.meta.url), 'utf8'));
const num = (x: unknown) => (x === 'Infinity' ? Infinity : x === '-Infinity' ? -Infinity : (x as number));

function near(a: number, b: number, tol: number, what: string) {
  if (!Number.isFinite(b)) return assert.equal(a, b, what);
  assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
}

async function run(tool: string, args: Record<string, unknown>) {
  const { result, verification } = await callTool(tool, args);
  assert.ok(verification, `${tool}: no verification`);
  assert.equal(
    verification.ok,
    true,
    `${tool}: ${verification.checks
      .filter((c) => !c.ok)
      .map((c) => c.detail)
      .join('; ')}`,
  );
  return result as Record<string, any>;
}

// ------------------------------------------------------------------ bandwidth

test('bandwidth: MATLAB documentation examples (bandwidth reference page)', async () => {
  // sys = tf(1,[1 1]); fb = bandwidth(sys) -> 0.9976 (python-control's docstring: 0.9976283451102316)
  near((await run('bandwidth', { num: [1], den: [1, 1] })).bandwidth, 0.9976283451102316, 1e-10, '1/(s+1)');
  // A = [-2,-1;1,0]; B = [1;0]; C = [1,2]; D = 1; bandwidth(sys, -3.5) -> 0.8348
  near(
    (
      await run('bandwidth', {
        A: [
          [-2, -1],
          [1, 0],
        ],
        B: [[1], [0]],
        C: [[1, 2]],
        D: [[1]],
        dbdrop: -3.5,
      })
    ).bandwidth,
    0.8348,
    1e-4,
    'ss, -3.5 dB',
  );
  // m/(s^2+s+m), m = 1..5 -> 1.2712 1.9991 2.5298 2.9678 3.3493
  const fb = [1.2712, 1.9991, 2.5298, 2.9678, 3.3493];
  for (let m = 1; m <= 5; m++) near((await run('bandwidth', { num: [m], den: [1, 1, m] })).bandwidth, fb[m - 1], 1e-4, `m = ${m}`);
});

test('bandwidth: python-control docstring and MATLAB Answers results', async () => {
  // python-control bandwidth docstring: G1*G2, G1 = 0.1/(s + 0.1), G2 = 1/(s^2 + 0.002 s + 1) -> 0.10184838823897456
  const den = [1, 0.1 + 0.002, 1 + 0.1 * 0.002, 0.1];
  near((await run('bandwidth', { num: [0.1], den })).bandwidth, 0.10184838823897456, 1e-9, 'G1*G2');
  // MATLAB Answers 783681: tf([C*R2 1],[C*R1 1+C*R2]), R1 = 9e3, R2 = 1e3, C = 0.22e-6 -> 510.290495078091
  const C = 0.22e-6;
  near((await run('bandwidth', { num: [C * 1e3, 1], den: [C * 9e3, 1 + C * 1e3] })).bandwidth, 510.290495078091, 1e-10, 'RC lag-lead');
  // MATLAB Answers 896192: (0.3645 s + 0.0003711)/(s^2 + 0.3928 s + 0.0003717) -> 0.3353;
  // (0.9236 s + 0.001036)/(s + 0.001038) never drops 3 dB -> Inf
  near((await run('bandwidth', { num: [0.3645, 0.0003711], den: [1, 0.3928, 0.0003717] })).bandwidth, 0.3353, 1e-4, 'tf1');
  assert.equal((await run('bandwidth', { num: [0.9236, 0.001036], den: [1, 0.001038] })).bandwidth, Infinity);
});

test('bandwidth: the half-power point of a first-order lag is exactly its pole', async () => {
  for (const a of [0.01, 1, 7, 1e4]) near((await run('bandwidth', { num: [a], den: [1, a], dbdrop: -10 * Math.log10(2) })).bandwidth, a, 1e-12, `a = ${a}`);
});

test('bandwidth: the numpy/scipy references (ref.json)', async () => {
  for (const [name, c] of Object.entries<any>(ref.bandwidth)) {
    const r = await run('bandwidth', c.args);
    near(r.bandwidth, num(c.expect.bandwidth), 1e-9, name);
    near(r.dcgain, c.expect.dcgain, 1e-12, `${name} dcgain`);
  }
});

test('bandwidth: an integrator is refused with the reason; dbdrop must be negative; MIMO refused', async () => {
  await assert.rejects(callTool('bandwidth', { num: [1], den: [1, 1, 0] }), /DC gain is infinite.*integrator.*NaN/s);
  await assert.rejects(callTool('bandwidth', { num: [0.1], den: [1, -1], Ts: 0.1 }), /z = 1/);
  // a pole at 0 the numerator cancels is no integrator: s/(s(s+1)) has DC gain 1
  near((await run('bandwidth', { num: [1, 0], den: [1, 1, 0], dbdrop: -10 * Math.log10(2) })).bandwidth, 1, 1e-12, 's/(s(s+1))');
  await assert.rejects(callTool('bandwidth', { num: [1], den: [1, 1], dbdrop: 3 }), /dbdrop must be a negative/);
  await assert.rejects(callTool('bandwidth', { A: [[-1]], B: [[1, 1]], C: [[1]] }), /SISO/);
});

// ------------------------------------------------------------------ stability margins

test('stability_margins: MATLAB allmargin documentation example', async () => {
  // L = tf(25,[1 10 10 10]); S = allmargin(L): GainMargin 3.6000 at 3.1623, PhaseMargin 29.1104 at 1.7844,
  // DelayMargin 0.2847 at 1.7844, Stable 1
  const r = await run('stability_margins', { num: [25], den: [1, 10, 10, 10] });
  near(r.gm_all[0], 3.6, 1e-10, 'gm');
  near(r.w_pc_all[0], Math.sqrt(10), 1e-10, 'w_pc');
  near(r.pm_all[0], 29.1104, 1e-4, 'pm');
  near(r.w_gc_all[0], 1.7844, 1e-4, 'w_gc');
  near(r.dm_all[0], 0.2847, 1e-4, 'delay margin');
  assert.equal(r.stable, true);
  assert.equal(r.w_pc_all.length, 1);
  assert.equal(r.w_gc_all.length, 1);
  // python-control test_siso_disk_margin (margin_test.py): disk margin 0.46, disk-based gain
  // margin 4.05 dB, phase margin 25.8 deg (sensitivity peak near 1.94 rad/s on its grid)
  near(r.disk_margin, 0.46, 0.01 / 0.46, 'disk margin');
  near(r.disk_gm_db, 4.05, 0.01 / 4.05, 'disk gm dB');
  near(r.disk_pm_deg, 25.8, 0.01 / 25.8, 'disk pm');
  assert.ok(Math.abs(r.w_dm - 1.94) < 0.02, `w_dm ${r.w_dm}`);
});

test("stability_margins: python-control margin_test.py's systems (stability_margins, returnall)", async () => {
  const tol = 1.5e-2; // margin_test.py's own tolerance on its printed values
  const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);
  // 1/(s^3+2s^2+3s+4): (2, inf, 0.4170, 1.7321, nan, 1.6620)
  let r = await run('stability_margins', { num: [1], den: [1, 2, 3, 4] });
  close(r.gm, 2, 'gm');
  assert.equal(r.pm_deg, Infinity);
  close(r.sm, 0.417, 'sm');
  close(r.w_pc, 1.7321, 'w_pc');
  close(r.w_sm, 1.662, 'w_sm');
  // ss([[1 4];[3 2]], [1;-4], [1 0], 0): pm 147.0743 at 2.5483, no phase crossover
  r = await run('stability_margins', {
    A: [
      [1, 4],
      [3, 2],
    ],
    B: [[1], [-4]],
    C: [[1, 0]],
    D: [[0]],
  });
  close(r.pm_deg, 147.0743, 'pm');
  close(r.w_gc, 2.5483, 'w_gc');
  assert.deepEqual(r.w_pc_all, []);
  assert.equal(r.stable, false);
  assert.equal(r.disk_margin, 0);
  // 8.75(4s^2+0.4s+1)/((100s+1)(s^2+0.22s+1)(s^2/100+0.008s+1)): gm [2.2716] at [10.0053],
  // pm [97.5941, -157.7844, 134.7359] at [0.0850, 0.9373, 1.0919], sm 0.5591 at 9.9918
  const c = ref.margins.pc_test_4.args;
  r = await run('stability_margins', c);
  close(r.gm_all[0], 2.2716, 'gm');
  close(r.w_pc_all[0], 10.0053, 'w_pc');
  [97.5941, -157.7844, 134.7359].forEach((v, i) => close(r.pm_all[i], v, `pm ${i}`));
  [0.085, 0.9373, 1.0919].forEach((v, i) => close(r.w_gc_all[i], v, `w_gc ${i}`));
  close(r.sm, 0.5591, 'sm');
  close(r.w_sm, 9.9918, 'w_sm');
  // 0.01(10 - s)/((2 + s)(1 + s)): gm 300 at 5.6569, sm 0.9917 at 2.3171, no gain crossover
  r = await run('stability_margins', { num: [-0.01, 0.1], den: [1, 3, 2] });
  close(r.gm, 300, 'gm');
  close(r.w_pc, 5.6569, 'w_pc');
  close(r.sm, 0.9917, 'sm');
  close(r.w_sm, 2.3171, 'w_sm');
  // 1/(1+s): no crossover. python-control reports sm = inf (no interior minimum); ours is the
  // infimum over [0, inf]: |1 + L| -> 1 as w -> inf
  r = await run('stability_margins', { num: [1], den: [1, 1] });
  assert.deepEqual([r.gm, r.pm_deg, r.w_pc_all.length, r.w_gc_all.length], [Infinity, Infinity, 0, 0]);
  assert.deepEqual([r.sm, r.w_sm], [1, Infinity]);
});

test('stability_margins: the numpy/scipy references (ref.json), w = 0 as a phase crossover and epsw', async () => {
  for (const [name, c] of Object.entries<any>(ref.margins)) {
    const r = await run('stability_margins', c.args);
    const e = c.expect;
    for (const k of ['w_pc_all', 'gm_all', 'w_gc_all', 'pm_all', 'dm_all']) {
      assert.equal(r[k].length, e[k].length, `${name} ${k}: ${JSON.stringify(r[k])} vs ${JSON.stringify(e[k])}`);
      r[k].forEach((v: number, i: number) => near(v, num(e[k][i]), 1e-8, `${name} ${k}[${i}]`));
    }
    near(r.sm, e.sm, 1e-9, `${name} sm`);
    near(r.w_sm, num(e.w_sm), 1e-5, `${name} w_sm`);
    assert.equal(r.stable, e.stable, `${name} stable`);
    near(r.disk_margin, e.disk_margin, 1e-9, `${name} disk margin`);
    if (e.w_dm !== undefined) near(r.w_dm, e.w_dm, 1e-5, `${name} w_dm`);
  }
  // -3/(s^2+2s+2): L(0) = -1.5 is a phase crossover at w = 0 (gm = 2/3); epsw > 0 drops it
  const r = await run('stability_margins', { num: [-3], den: [1, 2, 2], epsw: 1e-6 });
  assert.deepEqual(r.w_pc_all, []);
  await assert.rejects(callTool('stability_margins', { num: [1], den: [1, 1], epsw: -1 }), /epsw/);
  await assert.rejects(callTool('stability_margins', { num: [1, 0, 0], den: [1, 1] }), /improper/);
});

test('disk margins: MATLAB dm2gm and gm2dm documentation examples', () => {
  // [GM, PM] = dm2gm(0.5) -> GM = 1.6667, PM = 28.0725
  const d = diskGainPhase(0.5);
  near(d.gm[1], 1.6667, 1e-4, 'GM');
  near(1 / d.gm[0], 1.6667, 1e-4, '1/gmin');
  near(d.pm, 28.0725, 1e-4, 'PM');
  // [alpha, sigma] = gm2dm(db2mag(6)) -> alpha = 0.6646: that disk's gain range is ±6 dB
  near(20 * Math.log10(diskGainPhase(0.6646).gm[1]), 6, 1e-3, '6 dB');
  // diskmargin's MIMO example prints DiskMargin 2 with GainMargin [0 Inf], PhaseMargin [-90 90]
  assert.deepEqual(diskGainPhase(2), { gm: [0, Infinity], pm: 90 });
});

// ------------------------------------------------------------------ sigma

test('sigma: numpy SVD of G(jw) and the peak (ref.json)', async () => {
  const c = ref.sigma.mimo3;
  const r = await run('sigma', c.args);
  assert.deepEqual(r.w, c.args.w);
  r.sv.forEach((row: number[], i: number) => row.forEach((v, k) => near(v, c.expect.sv[i][k], 1e-12, `sv[${i}][${k}]`)));
  near(r.peak, c.expect.peak, 1e-9, 'peak');
  near(r.w_peak, c.expect.w_peak, 1e-5, 'w_peak');
  assert.equal(r.stable, true);
  r.sv_db.forEach((row: number[], i: number) => row.forEach((v, k) => near(v, 20 * Math.log10(r.sv[i][k]), 1e-12, 'dB')));
});

test('sigma: closed forms (a diagonal system; SISO |G|) and the default grid', async () => {
  // diag(1/(s+1), 2/(s+3)): the singular values are |1/(jw+1)| and |2/(jw+3)|, sorted; peak 1 at w = 0
  const r = await run('sigma', {
    A: [
      [-1, 0],
      [0, -3],
    ],
    B: [
      [1, 0],
      [0, 2],
    ],
    C: [
      [1, 0],
      [0, 1],
    ],
    w: [0, 1, 2, 10],
  });
  [0, 1, 2, 10].forEach((w, i) => {
    const a = 1 / Math.hypot(1, w);
    const b = 2 / Math.hypot(3, w);
    near(r.sv[i][0], Math.max(a, b), 1e-14, `w = ${w}`);
    near(r.sv[i][1], Math.min(a, b), 1e-14, `w = ${w}`);
  });
  near(r.peak, 1, 1e-12, 'peak');
  // SISO resonance 1/(s^2 + 0.2 s + 1): peak 1/(2ζ sqrt(1 - ζ²)) at sqrt(1 - 2ζ²), ζ = 0.1
  const s = await run('sigma', { num: [1], den: [1, 0.2, 1] });
  assert.equal(s.w.length, 200);
  near(s.peak, 1 / (2 * 0.1 * Math.sqrt(1 - 0.01)), 1e-9, 'resonant peak');
  near(s.w_peak, Math.sqrt(1 - 2 * 0.01), 1e-7, 'resonant frequency');
  // unstable: the H-infinity norm is infinite; the peak over frequency is still reported
  const u = await run('sigma', { num: [1], den: [1, -0.2, 1] });
  assert.equal(u.stable, false);
  near(u.peak, 1 / (2 * 0.1 * Math.sqrt(1 - 0.01)), 1e-7, 'unstable mirror peak');
  // a pole on the axis: an infinite peak at its frequency
  const i = await run('sigma', { num: [1], den: [1, 0, 4] });
  assert.equal(i.peak, Infinity);
  near(i.w_peak, 2, 1e-12, 'axis pole');
  await assert.rejects(callTool('sigma', { num: [1], den: [1, 1], w: [1, -2] }), /w\[2\]/);
});

test('sigma: the plot kind and the report chart', async () => {
  const p = await buildPlot({
    kind: 'sigma',
    args: {
      A: [
        [-1, 0],
        [0, -3],
      ],
      B: [
        [1, 0],
        [0, 2],
      ],
      C: [
        [1, 0],
        [0, 1],
      ],
    },
  });
  assert.equal(p.kind, 'sigma');
  assert.equal((p.data.sv_db as number[][])[0].length, 2);
  assert.ok(p.verification.every((v) => v.ok === true));
  const r = await run('sigma', { num: [1], den: [1, 0.2, 1] });
  const charts = resultCharts('sigma', {}, r);
  assert.equal(charts.length, 1);
  assert.match(charts[0].svg, /^<svg/);
});

// ------------------------------------------------------------------ reading

test('reading: calls and phrases name the tools; "bandwidth" in a design question does not', () => {
  const read = (m: string) => readTurn(new Conversation(), m) as { kind: string; tool?: string };
  assert.equal(read('bandwidth(tf(1,[1 1]))').tool, 'bandwidth');
  assert.equal(read('what is the -3 dB bandwidth of 10/(s^2+2s+10)?').tool, 'bandwidth');
  assert.equal(read('bandwidth of G(s) = 1/(s+1)').tool, 'bandwidth');
  assert.equal(read('allmargin(tf([1],[1 3 3 1]))').tool, 'stability_margins');
  // diskmargin(L) and 'disk margin' read as the diskmargin tool (test/unit/diskmargin.test.ts)
  assert.equal(read('delay margin of L = 25/(s^3+10s^2+10s+10)').tool, 'stability_margins');
  assert.equal(read('sigma(ss([-1 0; 0 -2], eye(2), [1 1; 0 1], 0))').tool, 'sigma');
  assert.equal(read('margins of 10/(s^3+6s^2+5s)').tool, 'margins');
  for (const m of [
    'is a sample rate of 1 kHz or 2 kHz better for a motor with a 50 Hz bandwidth?',
    "What's the bandwidth I should aim for on this motor?",
    'Inner current loop should reach about 2 kHz bandwidth. Which sampling frequency would you pick?',
    'the sigma of the noise is 0.1',
  ]) {
    const r = read(m);
    assert.ok(r.kind !== 'call' || (r.tool !== 'bandwidth' && r.tool !== 'sigma'), `${m}: ${r.kind} ${r.tool}`);
  }
});
