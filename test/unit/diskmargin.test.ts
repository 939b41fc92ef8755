/**
 * diskmargin (src/core/solvers/diskmargin.ts) against published values: MATLAB's diskmargin
 * reference page (the spinning-satellite loop Lo = P*C: DMo(1), DMo(2) = 2, MMo DiskMargin
 * 0.3754 with LowerBound 0.3754 and UpperBound 0.3762 at frequency 0, GainMargin
 * [0.6839 1.4621], PhaseMargin ±21.2607; L = tf(25,[1 10 10 10]) with skews -1 and 0:
 * GainMargin [0.5136 1.4864] and [0.6273 1.5942]), python-control's margin_test.py
 * (test_siso_disk_margin: 0.46, 4.05 dB, 25.8°, skew 1 equal to stability_margins' sm;
 * test_mimo_disk_margin: Lo and Li 0.3754, 3.3 dB, 21.26°), MATLAB's getDPM example
 * (DGM [0.3, 2] -> ±45.9208°), the closed forms of Seiler, Packard and Gahinet ("An
 * Introduction to Disk Margins", IEEE CSM 2020: σ = 1 gives 1/‖S‖∞ = min |1 + L|), and
 * test/fixtures/diskmargin/ref.json (ref.py: numpy/scipy, μ by Nelder-Mead over D and over
 * the phases Q on dense grids). diskmargin_io (MATLAB's diskmargin(P, C)): the same page's
 * satellite at the plant outputs and inputs (MMo, python-control's DMi), the closed form of a
 * static loop (MMIO = 2: a disk with α < 2 keeps |arg f| < 90°, so f_u·f_y never reaches
 * −1/k, and f_u = f_y = j/√k does at α = 2), and ref.json's io_cases (the loops formed from
 * P(jω) and C(jω) by numpy). Every call goes through the verified call path, so the
 * independent checks (verify/diskmargin.ts) pass too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { callTool } from '../../src/core/tools/runner.js';
import { diskGainPhase } from '../../src/core/solvers/freqanalysis.js';
import { Conversation, readTurn } from '../../src/core/reader/index.js';
import { reproduce } from '../../src/core/codegen/index.js';
import { buildPlot } from '../../src/core/plot/data.js';
import { resultCharts } from '../../src/core/render/svgplot.js';
import { plotsFor } from '../../src/core/plot/data.js';

const ref = JSON.parse(readFileSync(new URL('../fixtures/diskmargin/ref.json', import.meta.url), 'utf8'));

function near(a: number, b: number, tol: number, what: string) {
  if (!Number.isFinite(b)) return assert.equal(a, b, what);
  assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
}

async function run(args: Record<string, unknown>, tool = 'diskmargin') {
  const { result, verification } = await callTool(tool, args);
  assert.ok(verification, `${tool}: no verification`);
  assert.equal(
    verification.ok,
    true,
    verification.checks
      .filter((c) => !c.ok)
      .map((c) => c.detail)
      .join('; '),
  );
  return result as Record<string, any>;
}

// the spinning satellite (MATLAB "MIMO Stability Margins for Spinning Satellite"): P = ss(A, I, C, 0), controller K = [1 -2; 0 1]
const A = [
  [0, 10],
  [-10, 0],
];
const Cp = [
  [1, 10],
  [-10, 1],
];
const K = [
  [1, -2],
  [0, 1],
];
const mul = (X: number[][], Y: number[][]) => X.map((r) => Y[0].map((_, j) => r.reduce((s, v, k) => s + v * Y[k][j], 0)));

test('diskmargin: MATLAB diskmargin reference page, spinning satellite at the plant output (Lo = P*C) and input (Li = C*P)', async () => {
  // Lo = P*C: states of P, B = K, C = Cp
  const ro = await run({ A, B: K, C: Cp });
  // DMo(1), DMo(2): DiskMargin 2, GainMargin [0 Inf], PhaseMargin [-90 90]
  for (let i = 0; i < 2; i++) {
    near(ro.dm[i], 2, 1e-9, `DMo(${i + 1})`);
    assert.deepEqual(
      ro.dm_gm[i].map((v: number) => (v < 1e-8 ? 0 : v)),
      [0, Infinity],
    );
    near(ro.dm_pm[i], 90, 1e-6, `DMo(${i + 1}) phase`);
  }
  // MMo: DiskMargin 0.3754 (LowerBound 0.3754, UpperBound 0.3762), Frequency 0. Two channels:
  // the D-scaled bound is exact (Doyle 1982), so both our bounds lie in MATLAB's interval
  for (const k of ['mm', 'mm_upper']) assert.ok(ro[k] >= 0.3754 - 5e-5 && ro[k] <= 0.3762 + 5e-5, `${k} = ${ro[k]}`);
  near(ro.mm_upper, ro.mm, 1e-8, 'exact for two loops');
  assert.equal(ro.w_mm, 0);
  // GainMargin [0.6839 1.4621], PhaseMargin ±21.2607 belong to MATLAB's 0.3754: ours to α in [0.3754, 0.3762]
  const lo = diskGainPhase(0.3754),
    hi = diskGainPhase(0.3762);
  near(lo.gm[0], 0.6839, 1e-4, 'MATLAB gmin from its 0.3754');
  near(lo.gm[1], 1.4621, 1e-4, 'MATLAB gmax');
  near(lo.pm, 21.2607, 1e-4, 'MATLAB phase');
  assert.ok(ro.mm_gm[0] <= lo.gm[0] && ro.mm_gm[0] >= hi.gm[0], `gmin ${ro.mm_gm[0]}`);
  assert.ok(ro.mm_pm >= lo.pm && ro.mm_pm <= hi.pm, `pm ${ro.mm_pm}`);
  // python-control test_mimo_disk_margin: DMo 0.3754, DGMo 3.3 dB, DPMo 21.26 deg (atol 0.1)
  near(ro.mm, 0.3754, 0.1, 'python-control DMo');
  near(ro.mm_gm_db[1], 3.3, 0.1 / 3.3, 'python-control DGMo');
  near(ro.mm_pm, 21.26, 0.1 / 21.26, 'python-control DPMo');
  // Li = C*P: B = I, C = K*Cp; python-control test_mimo_disk_margin: DMi 0.3754 as well
  const ri = await run({
    A,
    B: [
      [1, 0],
      [0, 1],
    ],
    C: mul(K, Cp),
  });
  near(ri.mm, ro.mm, 1e-8, 'MMi = MMo');
  near(ri.dm[0], 2, 1e-9, 'DMi(1)');
  // the destabilising perturbation: gains only at DC, |δ| = mm_upper
  assert.equal(ro.worst_delta.length, 2);
  for (const d of ro.worst_delta) near(Math.hypot(d[0], d[1]), ro.mm_upper, 1e-9, '|δ|');
});

test('diskmargin: SISO L = 25/(s^3+10s^2+10s+10), MATLAB skews -1 and 0, python-control test_siso_disk_margin; equals stability_margins', async () => {
  const L = { num: [25], den: [1, 10, 10, 10] };
  const b = await run(L);
  // DMb.GainMargin = [0.6273 1.5942]
  near(b.mm_gm[0], 0.6273, 1e-4, 'DMb gmin');
  near(b.mm_gm[1], 1.5942, 1e-4, 'DMb gmax');
  // python-control: DM 0.46, DGM 4.05 dB, DPM 25.8 deg, at 1.94 rad/s (atol 0.1, 0.01 on its grid)
  near(b.mm, 0.46, 0.01 / 0.46, 'DM');
  near(b.mm_gm_db[1], 4.05, 0.01 / 4.05, 'DGM');
  near(b.mm_pm, 25.8, 0.01 / 25.8, 'DPM');
  assert.ok(Math.abs(b.w_mm - 1.94) < 0.02, `w ${b.w_mm}`);
  // one loop: loop at a time = multiloop, bounds equal, and the same as stability_margins' disk margin
  assert.equal(b.dm[0], b.mm);
  assert.equal(b.mm_upper, b.mm);
  const sm = (await callTool('stability_margins', L)).result as Record<string, any>;
  assert.equal(b.mm, sm.disk_margin);
  assert.equal(b.w_mm, sm.w_dm);
  // DMt = diskmargin(L, -1): GainMargin [0.5136 1.4864]
  const t = await run({ ...L, sigma: -1 });
  near(t.mm_gm[0], 0.5136, 1e-4, 'DMt gmin');
  near(t.mm_gm[1], 1.4864, 1e-4, 'DMt gmax');
  // skew 1: α = 1/‖S‖∞ = min |1 + L| = stability_margins' sm (python-control's test; Seiler et al.)
  const s = await run({ ...L, sigma: 1 });
  near(s.mm, sm.sm, 1e-9, 'σ = 1 is the stability margin');
});

test('diskmargin: closed forms of the disk (MATLAB getDPM, gm2dm; Seiler, Packard, Gahinet 2020)', () => {
  // getDPM([0.3, 2]) = ±45.9208: the disk with those intercepts has α = 0.823529…, σ = −0.571428…
  const gmin = 0.3,
    gmax = 2;
  const v = (4 - 2 * (gmin + gmax)) / (gmin - gmax);
  const u = 2 - gmin * (2 + v);
  const alpha = (u + v) / 2,
    sigma = (v - u) / (u + v);
  const d = diskGainPhase(alpha, sigma);
  near(d.gm[0], 0.3, 1e-12, 'gmin');
  near(d.gm[1], 2, 1e-12, 'gmax');
  near(d.pm, 45.9208, 1e-5, 'getDPM');
  // σ = 0: phase 2·atan(α/2), past 90° beyond α = 2 (the disk is then the outside of a circle)
  near(diskGainPhase(3).pm, (2 * Math.atan(1.5) * 180) / Math.PI, 1e-12, 'α = 3');
  assert.deepEqual(diskGainPhase(2), { gm: [0, Infinity], pm: 90 });
});

test('diskmargin: numpy/scipy brute force (ref.json: dense grids, Nelder-Mead over D and over the phases)', async () => {
  for (const [k, c] of (ref.cases as any[]).entries()) {
    const r = await run({ A: c.A, B: c.B, C: c.C, ...(c.Ts ? { Ts: c.Ts } : {}), sigma: c.sigma });
    c.dm.forEach((v: number, i: number) => near(r.dm[i], v, 1e-6, `case ${k} dm[${i}]`));
    // two or three loops: the D bound is μ (ref.py checks it against max ρ(MQ)), our interval holds it
    near(c.mu_rho, c.mu_dbound, 1e-8, `case ${k} ref μ bounds`);
    assert.ok(r.mm <= c.mm * (1 + 1e-6) && r.mm_upper >= c.mm * (1 - 1e-6), `case ${k}: [${r.mm}, ${r.mm_upper}] vs ${c.mm}`);
    near(r.mm, c.mm, 1e-5, `case ${k} mm`);
  }
});

test('diskmargin: four loops (the D bound may exceed μ): both bounds stated and verified; unstable and ill-posed loops give 0', async () => {
  // a 4-channel loop: a stable plant with coupling, unit feedback
  const r = await run({
    A: [
      [-1, 2, 0, 0],
      [-2, -1, 0, 1],
      [0, 0, -3, 1],
      [1, 0, -1, -2],
    ],
    B: [
      [1, 0.5, 0, 0],
      [0, 1, -0.4, 0],
      [0.3, 0, 1, 0.2],
      [0, 0, 0.6, 1],
    ],
    C: [
      [2, 0, 0.5, 0],
      [0, 1.5, 0, 0.5],
      [0.4, 0, 2, 0],
      [0, -0.8, 0, 1.2],
    ],
  });
  assert.equal(r.loops, 4);
  assert.ok(r.mm > 0 && r.mm <= r.mm_upper, `[${r.mm}, ${r.mm_upper}]`);
  assert.ok(Math.min(...r.dm) >= r.mm, 'one loop alone tolerates at least what all do');
  // unstable: L = 0.5/(s - 1) closes to s - 0.5
  const u = await run({ num: [0.5], den: [1, -1] });
  assert.deepEqual([u.stable, u.mm, u.dm[0]], [false, 0, 0]);
  assert.match(u.reason, /unstable/);
  // ill-posed: L(∞) = −1
  const ip = await run({ num: [-1, 0], den: [1, 1] });
  assert.deepEqual([ip.stable, ip.mm], [false, 0]);
  assert.match(ip.reason, /ill-posed/);
  await assert.rejects(callTool('diskmargin', { A: [[-1]], B: [[1, 1]], C: [[1]] }), /square/);
});

test('diskmargin: reading, code and the rendered guarantee', async () => {
  const read = (m: string) => readTurn(new Conversation(), m) as { kind: string; tool?: string };
  assert.equal(read('diskmargin(tf(25,[1 10 10 10]))').tool, 'diskmargin');
  assert.equal(read('disk margin of L(s) = 25/(s^3+10s^2+10s+10)').tool, 'diskmargin');
  assert.equal(read('multiloop disk margin of A=[0 10; -10 0], B=[1 -2; 0 1], C=[1 10; -10 1]').tool, 'diskmargin');
  const args = { A, B: K, C: Cp };
  const m = reproduce({ tool: 'diskmargin', args }, 'matlab');
  assert.match(m, /\[DM, MM\] = diskmargin\(L\)/);
  const p = reproduce({ tool: 'diskmargin', args: { ...args, sigma: 0.5 } }, 'python');
  assert.match(p, /ct\.disk_margins\(L, omega, skew=0\.5\)/);
});

// ------------------------------------------------------------------ diskmargin(P, C)

const satP = { A, B: eye2(), C: Cp };
function eye2() {
  return [
    [1, 0],
    [0, 1],
  ];
}

test('diskmargin_io: MATLAB diskmargin reference page, the spinning satellite with C = [1 -2; 0 1]', async () => {
  const r = await run({ sys1: satP, sys2: { A: [], B: [], C: [[], []], D: K } }, 'diskmargin_io');
  assert.equal(r.stable, true);
  assert.deepEqual([r.inputs, r.outputs], [2, 2]);
  // plant outputs: MMo DiskMargin 0.3754 (LowerBound 0.3754, UpperBound 0.3762) at frequency 0; DMo(1), DMo(2) = 2
  assert.ok(r.mmo >= 0.3754 - 5e-5 && r.mmo <= 0.3762 + 5e-5, `mmo ${r.mmo}`);
  assert.equal(r.at_outputs.w_mm, 0);
  for (const v of r.at_outputs.dm) near(v, 2, 1e-9, 'DMo');
  // plant inputs: python-control test_mimo_disk_margin DMi 0.3754 (atol 0.1); the same as diskmargin(C*P)
  near(r.mmi, 0.3754, 0.1, 'python-control DMi');
  const li = await run({ A, B: eye2(), C: mul(K, Cp) });
  near(r.mmi, li.mm, 1e-9, 'diskmargin(C*P)');
  // both at once: never above either side alone; numpy's brute force (ref.json)
  const c = ref.io_cases.find((x: any) => x.name === 'satellite');
  assert.ok(r.mmio <= Math.min(r.mmi, r.mmo));
  near(r.mmio, c.io.mm_dbound, 1e-6, 'MMIO vs the numpy D bound');
  near(r.mmio_upper, c.io.mm_rho, 1e-6, 'MMIO attained vs the numpy phase search');
  // the four channels of [0, -C; P, 0] broken one at a time are the plant inputs and outputs
  r.io.dm.forEach((v: number, i: number) => near(v, [...r.at_inputs.dm, ...r.at_outputs.dm][i], 1e-6, `channel ${i + 1}`));
  // the destabilising change: one factor per input and output, |δ| = mmio_upper
  assert.equal(r.io.worst_gain.length, 4);
});

test('diskmargin_io: a static loop L = k has MMIO = 2 exactly (closed form) and loop margins 2(1 + k)/|1 − k|', async () => {
  for (const k of [0.5, 3, 10]) {
    const r = await run({ sys1: k, sys2: 1 }, 'diskmargin_io');
    near(r.mmio, 2, 1e-9, `k = ${k} MMIO`);
    near(r.mmi, (2 * (1 + k)) / Math.abs(1 - k), 1e-9, `k = ${k} inputs`);
    near(r.mmo, r.mmi, 1e-12, 'SISO: inputs = outputs');
    near(r.mmio_pm, 90, 1e-6, 'phase of α = 2');
  }
});

test('diskmargin_io: SISO P = 25/(s^3+10s^2+10s+10), C = 1: each side is stability_margins disk margin; both at once per numpy', async () => {
  const r = await run({ sys1: { num: [25], den: [1, 10, 10, 10] }, sys2: 1 }, 'diskmargin_io');
  const sm = (await callTool('stability_margins', { num: [25], den: [1, 10, 10, 10] })).result;
  near(r.mmi, sm.disk_margin, 1e-9, 'inputs');
  near(r.mmo, sm.disk_margin, 1e-9, 'outputs');
  const c = ref.io_cases.find((x: any) => x.name === 'siso');
  near(r.mmio, c.io.mm_dbound, 1e-6, 'MMIO');
  near(r.w_mmio, c.io.w, 1e-3, 'MMIO frequency');
});

test('diskmargin_io: numpy brute force with a dynamic controller (ref.json io_cases)', async () => {
  for (const c of ref.io_cases.filter((x: any) => x.name === 'random')) {
    const r = await run({ sys1: c.P, sys2: c.C }, 'diskmargin_io');
    // the solver also looks at ω = ∞ and refines peaks: never above numpy's grid value, and within 1e-5 of it
    for (const [k, side] of [
      ['mmi', 'inputs'],
      ['mmo', 'outputs'],
      ['mmio', 'io'],
    ] as const) {
      assert.ok(r[k] <= c[side].mm_dbound * (1 + 1e-6), `${k} ${r[k]} vs ${c[side].mm_dbound}`);
      near(r[k], c[side].mm_dbound, 1e-5, k);
    }
  }
});

test('diskmargin_io: refusals, an unstable loop, code, the plot', async () => {
  await assert.rejects(callTool('diskmargin_io', { sys1: satP, sys2: { A: [], B: [], C: [[]], D: [[1, 2]] } }), /controller sys2 must take/);
  await assert.rejects(callTool('diskmargin_io', { sys1: { num: [1], den: [1, 1] }, sys2: { num: [1], den: [1, 1], Ts: 0.1 } }), /sampling times/);
  const u = await run({ sys1: { num: [1], den: [1, -1] }, sys2: 0.5 }, 'diskmargin_io');
  assert.equal(u.stable, false);
  assert.deepEqual([u.mmi, u.mmo, u.mmio], [0, 0, 0]);
  const args = { sys1: satP, sys2: { A: [], B: [], C: [[], []], D: K } };
  assert.match(reproduce({ tool: 'diskmargin_io', args }, 'matlab'), /MMIO = diskmargin\(P, C\)/);
  assert.match(reproduce({ tool: 'diskmargin_io', args }, 'python'), /ct\.append\(P, C\)/);
  const specs = plotsFor('diskmargin_io', args, undefined);
  assert.deepEqual(
    specs.map((s) => s.kind),
    ['diskmargin'],
  );
  const p = await buildPlot(specs[0]);
  assert.equal((p.data.curves as unknown[]).length, 3);
  assert.ok(p.verification.every((v) => v.ok === true));
  const r = await run(args, 'diskmargin_io');
  const charts = resultCharts('diskmargin_io', args, r);
  assert.equal(charts.length, 1);
  assert.match(charts[0].svg, /<circle/);
});

test('diskmargin: the margin-over-frequency plot (webview data and report SVG) with its least value marked', async () => {
  const args = { num: [25], den: [1, 10, 10, 10] };
  const specs = plotsFor('diskmargin', args, undefined);
  assert.deepEqual(
    specs.map((s) => s.kind),
    ['nyquist', 'diskmargin'],
  );
  const p = await buildPlot(specs[1]);
  const c = (p.data.curves as any[])[0];
  const r = await run(args);
  near(c.mm, r.mm, 0, 'the least value is the result');
  assert.equal(c.w.length, c.mm_w.length);
  const svg = resultCharts('diskmargin', args, r)[0].svg;
  assert.match(svg, /<circle/);
  assert.match(svg, /α = 0\.4581/);
});

test('a loop that vanishes at ω = ∞ with |L| < 1 (found by the verifier probe): α = 2 approached only as ω → ∞, so no finite destabilising change is given (it was NaN)', async () => {
  // L = k/(s + a), k < a: S − 1/2 = (s + a − k)/(2(s + a + k)) has |·| < 1/2 at every finite ω and → 1/2 as ω → ∞ (by hand)
  const c = await callTool('diskmargin', { num: [0.23647575688858902], den: [1, 3.5824215709464626] });
  assert.equal(c.verification?.ok, true, JSON.stringify(c.verification));
  const r = c.result as Record<string, any>;
  assert.ok(Math.abs(r.mm - 2) < 1e-9, String(r.mm));
  assert.deepEqual([r.worst_delta, r.worst_gain, r.worst_phase], [[], [], []]);
});

test('skew −1 on a strictly proper 2x2 loop (found by the verifier probe): the margin at ω = ∞ is infinite (M = −T vanishes there) and the check no longer takes ∞·0', async () => {
  const c = await callTool('diskmargin', {
    A: [
      [-5.084674920968245, -3],
      [3, -11.084674920968245],
    ],
    B: [
      [-0.19578554096521772, 0.1478264463398887],
      [1.5931756831044988, 0.9448973645921669],
    ],
    C: [
      [-2.0389189051088072, 1.2086253249793468],
      [0.03883779270223162, -0.45307455363448995],
    ],
    sigma: -1,
  });
  assert.equal(c.verification?.ok, true, JSON.stringify(c.verification));
  const r = c.result as Record<string, any>;
  assert.equal(r.w.at(-1), Infinity);
  assert.equal(r.mm_w.at(-1), Infinity);
  assert.ok(Number.isFinite(r.mm) && r.mm > 0, String(r.mm));
});
