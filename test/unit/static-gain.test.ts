/**
 * A model with no states (n = 0) is the static gain y = D u: A is 0x0, B is 0xm, C is px0.
 * MATLAB builds one with ss(D), "equivalent to ss([],[],[],D)" (MATLAB ss reference page),
 * python-control with ss([], zeros((0, m)), zeros((p, 0)), D). Every expected value below is a
 * closed form in D:
 * - H(s) = C (sI - A)^-1 B + D = D: ss2tf gives D/1, dcgain D, freqresp D at every w, no
 *   poles, no zeros (the system matrix is D alone).
 * - step: y(t) = D for t >= 0; discrete pulse response: D at k = 0, then 0.
 * - continuous impulse: D·δ(t), which samples cannot hold; like python-control ("System has
 *   direct feedthrough: D != 0. The infinite impulse at t=0 does not appear in the output",
 *   control.impulse_response) the samples are C e^{At} B = 0, and the tool says so.
 * - H2: continuous, infinite when D != 0 (MATLAB norm(sys, 2) of a system with feedthrough),
 *   0 when D = 0; discrete, sqrt(sum_k |g[k]|_F^2) = |D|_F.
 * - H-infinity: sigma_max(D) at every frequency.
 * - margins: no crossover gives gm = pm = Inf with NaN frequencies (MATLAB margin/allmargin
 *   convention, as the margins tool documents); |D| = 1 and D < 0 are explained in freq.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareArgs, runTool } from '../../src/core/tools/call.js';
import { ControlError } from '../../src/core/errors.js';
import { verify } from '../../src/core/verify/index.js';
import { renderToolResult } from '../../src/core/render/answer.js';
import { reproduce } from '../../src/core/codegen/index.js';
import { collectTurn } from '../../src/core/agent/turn.js';
import { parseMatrixLiteral } from '../../src/core/parse/index.js';

/** the static gain 3, as a user writes it in MATLAB syntax */
const G = { A: '[]', B: 'zeros(0,1)', C: 'zeros(1,0)', D: '3' };
/** the same as JSON, the way tf2ss returns it (every empty matrix as []) */
const GJ = { A: [], B: [], C: [], D: [[3]] };
const D2 = [
  [1, 2],
  [3, 4],
];
const MIMO = { A: [], B: [], C: [], D: D2 };

/** runs, verifies (the check must pass) and renders in both styles (must not throw) */
function solve(tool: string, raw: Record<string, unknown>, render = true): Record<string, any> {
  const { tool: def, args } = prepareArgs(tool, raw);
  const r = def.run(args) as Record<string, any>;
  const v = verify(tool, args, r);
  assert.ok(v, `${tool}: a static gain has a verifier check`);
  assert.ok(v.ok, `${tool}: verification failed: ${JSON.stringify(v.checks)}`);
  if (render) for (const math of [true, false]) assert.ok(renderToolResult(tool, args, r, v, { math }).length > 0);
  return r;
}

function refuses(tool: string, raw: Record<string, unknown>, pattern: RegExp): void {
  assert.throws(
    () => runTool(tool, raw),
    (e: unknown) => e instanceof ControlError && pattern.test(e.message),
  );
}

test('how a user writes it: [] and zeros(0,m) have no rows, zeros(p,0) keeps its p empty rows', () => {
  assert.deepEqual(parseMatrixLiteral('[]'), []);
  assert.deepEqual(parseMatrixLiteral('zeros(0,1)'), []);
  assert.deepEqual(parseMatrixLiteral('zeros(1,0)'), [[]]);
  assert.deepEqual(parseMatrixLiteral('zeros(2,0)'), [[], []]);
  assert.deepEqual(parseMatrixLiteral('np.zeros((1, 0))'), [[]]);
});

test('the sizes come from D; without D they cannot be inferred and the error says so', () => {
  refuses('step', { A: [], B: [], C: [], t: [0, 1] }, /no states.*give D.*cannot be inferred/);
  refuses('ss2tf', { A: [], B: [[1]], C: [[]], D: 1 }, /no states.*B must be empty/);
  refuses('ss2tf', { A: [], B: [], C: [[1]], D: 1 }, /no states.*C must be empty/);
  refuses('dcgain', { A: [], B: [], C: [[], []], D: [[1, 2]] }, /C is 2x0.*D is 1x2/);
  // A written [[]] (JSON for a 1x0) is read as the empty A as well
  assert.deepEqual(runTool('ss2tf', { A: [[]], B: [], C: [[]], D: 3 }), { num: [3], den: [1] });
});

test('ss2tf, dcgain, poles_zeros: D/1, D, no poles and no zeros', () => {
  assert.deepEqual(solve('ss2tf', G), { num: [3], den: [1] });
  assert.deepEqual(solve('dcgain', G).gain, [[3]]);
  assert.deepEqual(solve('dcgain', { ...G, Ts: 0.1 }).gain, [[3]]);
  assert.deepEqual(solve('dcgain', MIMO).gain, D2);
  assert.deepEqual(solve('poles_zeros', G), { poles: [], zeros: [], gain: 3 });
  assert.deepEqual(solve('poles_zeros', MIMO), { poles: [], zeros: [] });
});

test('step is D for t >= 0; impulse: continuous 0 with the D·δ(t) caution, discrete D then 0', () => {
  const t = [0, 0.5, 1, 2];
  assert.deepEqual(solve('step', { ...G, t }).y, [3, 3, 3, 3]);
  assert.deepEqual(solve('step', { ...G, Ts: 0.5, t }).y, [3, 3, 3, 3]);
  assert.deepEqual(solve('step', { ...MIMO, t: [0, 1] }).y, [D2, D2]);
  const ic = solve('impulse', { ...G, t });
  assert.deepEqual(ic.y, [0, 0, 0, 0]);
  assert.match(ic.caution, /D·δ\(t\)/);
  const id = solve('impulse', { ...G, Ts: 0.5, t });
  assert.deepEqual(id.y, [3, 0, 0, 0]);
  assert.equal(id.caution, undefined);
  // a discrete grid still has to be on the samples
  refuses('step', { ...G, Ts: 0.3, t: [0, 0.5] }, /not a multiple of Ts/);
});

test('stepinfo refuses a static gain with the reason (a constant response has no rise or settling)', () => {
  // MATLAB measures from yinit = 0 (stepinfo reference page); ours measures from y(0) = D,
  // which for a static gain equals the final value, so there is nothing to measure
  refuses('stepinfo', G, /no states.*constant 3.*no rise, overshoot or settling/);
});

test('freqresp is D at every frequency, continuous and discrete, SISO and MIMO', () => {
  const w = [0.01, 1, 100];
  const r = solve('freqresp', { ...G, w });
  assert.deepEqual(r.H, [
    [3, 0],
    [3, 0],
    [3, 0],
  ]);
  r.mag_db.forEach((m: number) => assert.ok(Math.abs(m - 20 * Math.log10(3)) < 1e-14));
  assert.deepEqual(r.phase_deg, [0, 0, 0]);
  assert.deepEqual(solve('freqresp', { ...G, Ts: 0.1, w: [0.1, 10] }).H, [
    [3, 0],
    [3, 0],
  ]);
  const m = solve('freqresp', { ...MIMO, w: [1] });
  assert.deepEqual(m.H, [D2.map((row) => row.map((v) => [v, 0]))]);
});

test('margins of a constant loop: no crossover (Inf, Inf), except |D| = 1 and D < 0', () => {
  const a = solve('margins', G);
  assert.equal(a.gm, Infinity);
  assert.equal(a.pm_deg, Infinity);
  assert.ok(Number.isNaN(a.w_pc) && Number.isNaN(a.w_gc));
  assert.match(a.caution, /static gain/);
  // the same through a transfer function num/den of degree 0
  const tf = solve('margins', { num: [6], den: [2] });
  assert.equal(tf.gm, Infinity);
  assert.equal(tf.pm_deg, Infinity);
  // L = 1: |L| = 1 at every frequency with phase 0: pm = 180 (no single frequency)
  const one = solve('margins', { ...G, D: '1' });
  assert.equal(one.gm, Infinity);
  assert.equal(one.pm_deg, 180);
  assert.ok(Number.isNaN(one.w_gc));
  // L = -1: 1 + L = 0, the loop is ill-posed: gm = 1 (0 dB), pm = 0
  const minus = solve('margins', { ...G, D: '-1' });
  assert.deepEqual([minus.gm, minus.gm_db, minus.pm_deg], [1, 0, 0]);
  assert.match(minus.caution, /ill-posed/);
  // L = -4: phase -180° everywhere, gm = 1/4 (the gain that puts L on -1), no gain crossover
  const neg = solve('margins', { ...G, D: '-4' });
  assert.equal(neg.gm, 0.25);
  assert.ok(Math.abs(neg.gm_db - 20 * Math.log10(0.25)) < 1e-14);
  assert.equal(neg.pm_deg, Infinity);
});

test('h2norm: continuous Inf when D != 0 and 0 when D = 0; discrete |D|_F. hinfnorm: sigma_max(D)', () => {
  assert.equal(solve('h2norm', G).h2, Infinity);
  assert.equal(solve('h2norm', { ...G, D: '0' }).h2, 0);
  assert.equal(solve('h2norm', { ...G, Ts: 0.1 }).h2, 3);
  assert.ok(Math.abs(solve('h2norm', { ...MIMO, Ts: 1 }).h2 - Math.sqrt(30)) < 1e-14);
  // a static gain has no poles: stable, so its L∞ norm is its H∞ norm
  assert.deepEqual(solve('hinfnorm', G), { hinf: 3, fpeak: 0, linf: 3, fpeak_linf: 0, unstable_poles: 0, boundary_poles: 0 });
  assert.equal(solve('hinfnorm', { ...G, D: '-3', Ts: 0.1 }).hinf, 3);
  // sigma_max([1 2; 3 4]) = sqrt((30 + sqrt(884)) / 2) = 5.4649857...
  const sMax = Math.sqrt((30 + Math.sqrt(884)) / 2);
  assert.ok(Math.abs(solve('hinfnorm', MIMO).hinf - sMax) < 1e-12 * sMax);
});

test('c2d keeps Dd = D with Ad, Bd, Cd empty, for every method', () => {
  for (const method of ['zoh', 'foh', 'tustin'])
    assert.deepEqual(solve('c2d', { ...G, Ts: 0.1, method }), { Ad: [], Bd: [], Cd: [], Dd: [[3]], Ts: 0.1, method });
});

test('analyse, eig, ctrb_rank, obsv_rank: no eigenvalues, stable, ranks 0 of 0', () => {
  const a = solve('analyse', G);
  assert.equal(a.n, 0);
  assert.deepEqual(a.eigenvalues, []);
  assert.equal(a.stability, 'stable');
  assert.equal(a.controllability.rank, 0);
  assert.equal(a.observability.rank, 0);
  assert.deepEqual(solve('eig', { A: [] }).eigenvalues, []);
  assert.deepEqual(solve('ctrb_rank', { A: [], B: [] }), { rank: 0, matrix: [] });
  assert.deepEqual(solve('obsv_rank', { A: [], C: [[]] }), { rank: 0, matrix: [] });
});

test('nyquist and rlocus refuse a static gain with the reason', () => {
  refuses('nyquist', G, /static gain L = 3.*single point/);
  refuses('rlocus', G, /static gain L = 3.*no poles/);
});

test('designs and equations in the states say there is nothing to design (0 states), not "A is empty"', () => {
  const why = /A is 0x0: the model has no states.*nothing to design/;
  refuses('lqr', { A: '[]', B: 'zeros(0,1)', Q: '[]', R: 1 }, why);
  refuses('dlqr', { A: [], B: [], Q: [], R: 1 }, why);
  refuses('care', { A: [], B: [], Q: [], R: 1 }, why);
  refuses('dare', { A: [], B: [], Q: [], R: 1 }, why);
  refuses('place', { A: [], B: [], poles: [] }, why);
  refuses('lyap', { A: [], Q: [] }, why);
  refuses('dlyap', { A: [], Q: [] }, why);
  refuses('lqe', { A: [], G: [], C: [[]], Qn: 1, Rn: 1 }, why);
  refuses('kalman', { A: [], G: [], C: [[]], Qn: 1, Rn: 1 }, why);
});

test('round trip: tf2ss(num=[3], den=[2]) is the static gain 1.5, and step/dcgain/freqresp take it', () => {
  const r = solve('tf2ss', { num: [3], den: [2] });
  assert.deepEqual(r, { A: [], B: [], C: [], D: [[1.5]], num: [1.5], den: [1] });
  const sys = { A: r.A, B: r.B, C: r.C, D: r.D };
  assert.deepEqual(solve('step', { ...sys, t: [0, 1, 5] }).y, [1.5, 1.5, 1.5]);
  assert.deepEqual(solve('dcgain', sys).gain, [[1.5]]);
  assert.deepEqual(solve('freqresp', { ...sys, w: [0.1, 10] }).H, [
    [1.5, 0],
    [1.5, 0],
  ]);
  assert.deepEqual(solve('ss2tf', sys), { num: [1.5], den: [1] });
  assert.deepEqual(solve('step', { ...GJ, D: r.D, t: [0] }).y, [1.5]);
});

test('render: empty matrices and the no-states wording in both styles', () => {
  const { tool, args } = prepareArgs('c2d', { ...G, Ts: 0.1 });
  const r = tool.run(args) as Record<string, any>;
  for (const math of [true, false]) {
    const md = renderToolResult('c2d', args, r, verify('c2d', args, r), { math });
    assert.match(md, /no states/);
    assert.doesNotMatch(md, /NaN|undefined/);
  }
  const m = prepareArgs('margins', G);
  const mr = m.tool.run(m.args) as Record<string, any>;
  assert.doesNotMatch(renderToolResult('margins', m.args, mr, verify('margins', m.args, mr), { math: false }), /NaN/);
});

test('codegen writes B and C with their sizes, zeros(0,m) and zeros(p,0)', () => {
  const { tool, args } = prepareArgs('step', { ...G, t: [0, 1] });
  const result = tool.run(args) as Record<string, any>;
  const ml = reproduce({ tool: 'step', args, result }, 'matlab');
  assert.match(ml, /B = zeros\(0, 1\);/);
  assert.match(ml, /C = zeros\(1, 0\);/);
  const py = reproduce({ tool: 'step', args, result }, 'python');
  assert.match(py, /B = np\.zeros\(\(0, 1\)\)/);
  assert.match(py, /C = np\.zeros\(\(1, 0\)\)/);
});

test('/step and /bode plans (time and frequency grids from eigenvalues) run on a static gain', async () => {
  for (const [command, prompt] of [
    ['step', 'num=[3], den=[2]'],
    ['step', 'A = [], B = zeros(0,1), C = zeros(1,0), D = 3'],
    ['bode', 'A = [], B = zeros(0,1), C = zeros(1,0), D = 3'],
  ]) {
    const ev = await collectTurn({ command, prompt });
    const main = ev.find((e) => e.type === 'tool_result' && (e.tool === 'step' || e.tool === 'freqresp'));
    assert.ok(main && main.type === 'tool_result' && main.result, `${command} ${prompt}: ${JSON.stringify(ev.filter((e) => e.type === 'error'))}`);
  }
});
