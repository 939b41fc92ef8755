/**
 * lsim and initial (solvers/simulate.ts) against references from outside our code:
 * - textbook closed forms: the ramp and step responses of a first-order lag 1/(τs + 1)
 *   (y = t − τ(1 − e^{−t/τ}), y = 1 − e^{−t/τ}), its full response to sin(ωt)
 *   (y = (sin ωt − ωτ cos ωt + ωτ e^{−t/τ})/(1 + (ωτ)²), steady amplitude |G(jω)| = 1/√(1 + (ωτ)²)),
 *   the harmonic oscillator's free response (y = cos ωt, sin(ωt)/ω), the discrete y[k] = a^k;
 * - SciPy: test/fixtures/simulate/ref.py (scipy.signal.lsim with interp False/True, dlsim) on
 *   random stable SISO and MIMO models, its stored output ref.json;
 * - MATLAB/Octave gensig's square and pulse definitions (rem(t, τ) >= τ/2, rem(t, τ) < Ts).
 * And the refusals: formula errors, shapes, grids, size limits; the verifier rejecting a wrong
 * result; the plot and code facets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runTool, prepareArgs } from '../../src/core/tools/call.js';
import { callTool } from '../../src/core/tools/runner.js';
import { verify } from '../../src/core/verify/index.js';
import { ControlError } from '../../src/core/errors.js';
import { buildPlot, plotsFor } from '../../src/core/plot/data.js';
import { reproduce } from '../../src/core/codegen/index.js';
import { renderToolResult } from '../../src/core/render/answer.js';

type R = Record<string, any>;
const lsim = (a: R) => runTool('lsim', a) as R;
const maxErr = (y: number[][], f: (k: number) => number[]) => Math.max(...y.map((row, k) => Math.max(...row.map((v, i) => Math.abs(v - f(k)[i])))));
const refuses = (a: R, re: RegExp, tool = 'lsim') =>
  assert.throws(
    () => runTool(tool, a),
    (e: unknown) => e instanceof ControlError && re.test(e.message),
  );

test('ramp response of a first-order lag: y = t − τ(1 − e^{−t/τ}), exact with the first-order hold (chosen for a ramp)', () => {
  for (const tau of [0.5, 2]) {
    const r = lsim({ num: [1], den: [tau, 1], signal: 'ramp', tfinal: 6, dt: 0.05 });
    assert.equal(r.method, 'foh');
    assert.equal(r.t.length, 121);
    const err = maxErr(r.y, (k) => [r.t[k] - tau * (1 - Math.exp(-r.t[k] / tau))]);
    assert.ok(err < 1e-12, `τ = ${tau}: ${err}`);
    assert.deepEqual(
      r.u.map((row: number[]) => row[0]),
      r.t,
    );
  }
});

test('step response of a first-order lag: y = 1 − e^{−t/τ}, exact with the zero-order hold (chosen for a step); a delayed step starts late', () => {
  const r = lsim({ num: [1], den: [2, 1], signal: 'step', t: Array.from({ length: 51 }, (_, k) => k * 0.2) });
  assert.equal(r.method, 'zoh');
  assert.ok(maxErr(r.y, (k) => [1 - Math.exp(-r.t[k] / 2)]) < 1e-13);
  const d = lsim({ num: [1], den: [2, 1], signal: 'step', amplitude: 3, delay: 1, tfinal: 10, dt: 0.25 });
  assert.ok(maxErr(d.y, (k) => [d.t[k] < 1 ? 0 : 3 * (1 - Math.exp(-(d.t[k] - 1) / 2))]) < 1e-12);
});

test('sine input: the full response of 1/(τs + 1) to sin(ωt) and the steady amplitude |G(jω)| (formula and signal agree)', () => {
  const tau = 0.5,
    w = 2;
  const exact = (t: number) => (Math.sin(w * t) - w * tau * Math.cos(w * t) + w * tau * Math.exp(-t / tau)) / (1 + (w * tau) ** 2);
  const f = lsim({ num: [1], den: [tau, 1], u: 'sin(2*t)', tfinal: 20, dt: 0.001 });
  assert.equal(f.method, 'foh');
  // foh interpolates sin between samples: O(dt²) error
  assert.ok(maxErr(f.y, (k) => [exact(f.t[k])]) < 1e-6);
  const last = f.y.slice(-Math.round((2 * Math.PI) / w / 0.001)).map((r: number[]) => Math.abs(r[0]));
  assert.ok(Math.abs(Math.max(...last) - 1 / Math.sqrt(1 + (w * tau) ** 2)) < 1e-5);
  const s = lsim({ num: [1], den: [tau, 1], signal: 'sine', period: Math.PI, tfinal: 20, dt: 0.001 });
  assert.ok(maxErr(s.y, (k) => f.y[k]) < 1e-9);
});

test('initial: the harmonic oscillator y = cos ωt from x0 = [1, 0], y = sin(ωt)/ω from [0, 1]; discrete y[k] = a^k', () => {
  const w = 3;
  const A = [
    [0, 1],
    [-w * w, 0],
  ];
  const t = Array.from({ length: 201 }, (_, k) => k * 0.05);
  const a = runTool('initial', { A, C: [[1, 0]], x0: [1, 0], t }) as R;
  assert.ok(maxErr(a.y, (k) => [Math.cos(w * t[k])]) < 1e-12);
  const b = runTool('initial', { A, C: [[1, 0]], x0: [0, 1], t }) as R;
  assert.ok(maxErr(b.y, (k) => [Math.sin(w * t[k]) / w]) < 1e-12);
  assert.equal(a.x.length, 201);
  const d = runTool('initial', { A: [[0.5]], C: [[2]], x0: [1], Ts: 0.1, tfinal: 1 }) as R;
  assert.equal(d.t.length, 11);
  assert.ok(maxErr(d.y, (k) => [2 * 0.5 ** k]) < 1e-15);
});

const ref = JSON.parse(readFileSync(new URL('../fixtures/simulate/ref.json', import.meta.url), 'utf8')) as { cases: R[] };

for (const c of ref.cases)
  test(`SciPy ${c.id} (${c.interp}, ${c.A ? `${c.A.length} states, ${c.B[0].length} in, ${c.C.length} out` : 'num/den'}): y as scipy.signal ${c.interp === 'discrete' ? 'dlsim' : 'lsim'}`, () => {
    const args: R = c.num ? { num: c.num, den: c.den, u: c.formula, t: c.t } : { A: c.A, B: c.B, C: c.C, D: c.D, u: c.u, t: c.t, x0: c.x0 };
    if (c.Ts) args.Ts = c.Ts;
    else if (!c.num) args.interp = c.interp;
    const r = lsim(args);
    assert.equal(r.method, c.interp);
    const scale = Math.max(1, ...c.y.flat().map(Math.abs));
    const err = maxErr(r.y, (k) => c.y[k]) / scale;
    assert.ok(err < 1e-11, `${c.id}: ${err}`);
    const v = verify('lsim', args, r);
    assert.equal(v?.ok, true, JSON.stringify(v?.checks));
  });

test('MIMO: a signal on one input (input = 2, the others zero) or on every input; samples N x m', () => {
  const sys = {
    A: [
      [-1, 0],
      [0, -2],
    ],
    B: [
      [1, 0],
      [0, 1],
    ],
    C: [
      [1, 0],
      [0, 1],
      [1, 1],
    ],
  };
  const one = lsim({ ...sys, signal: 'step', input: 2, tfinal: 5, dt: 0.5 });
  assert.ok(one.u.every((r: number[]) => r[0] === 0 && r[1] === 1));
  assert.ok(maxErr(one.y, (k) => [0, (1 - Math.exp(-2 * one.t[k])) / 2, (1 - Math.exp(-2 * one.t[k])) / 2]) < 1e-14);
  const all = lsim({ ...sys, signal: 'step', tfinal: 5, dt: 0.5 });
  assert.ok(
    maxErr(all.y, (k) => [1 - Math.exp(-all.t[k]), (1 - Math.exp(-2 * all.t[k])) / 2, 1 - Math.exp(-all.t[k]) + (1 - Math.exp(-2 * all.t[k])) / 2]) < 1e-14,
  );
  const samples = lsim({ ...sys, u: all.u, t: all.t, interp: 'zoh' });
  assert.ok(maxErr(samples.y, (k) => all.y[k]) === 0);
  assert.equal(samples.y[0].length, 3);
});

test("gensig's square (0 then the amplitude each period) and pulse (one sample per period), held", () => {
  const sq = lsim({ num: [1], den: [1, 1], signal: 'square', period: 2, tfinal: 4, dt: 0.25 });
  assert.equal(sq.method, 'zoh');
  assert.deepEqual(
    sq.u.map((r: number[]) => r[0]),
    [0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0],
  );
  const pu = lsim({ num: [1], den: [1, 1], signal: 'pulse', period: 1, tfinal: 3, dt: 0.1 });
  const on = pu.u.map((r: number[], k: number) => (r[0] ? k : -1)).filter((k: number) => k >= 0);
  assert.deepEqual(on, [0, 10, 20, 30]);
});

test('discrete: the grid is k·Ts, one sample per step; a formula sampled there', () => {
  const r = lsim({ A: [[0.5]], B: [[1]], C: [[1]], Ts: 0.5, u: 't', tfinal: 2 });
  assert.equal(r.method, 'discrete');
  assert.deepEqual(r.t, [0, 0.5, 1, 1.5, 2]);
  // y[k+1] = 0.5 y[k] + u[k], u[k] = 0.5 k
  assert.deepEqual(
    r.y.map((x: number[]) => x[0]),
    [0, 0, 0.5, 1.25, 2.125],
  );
  refuses({ A: [[0.5]], B: [[1]], C: [[1]], Ts: 0.5, u: 't', tfinal: 2, dt: 0.1 }, /discrete with Ts = 0.5/);
  refuses({ A: [[0.5]], B: [[1]], C: [[1]], Ts: 0.5, u: 't', t: [0, 0.1, 0.2] }, /Ts = 0.5/);
  refuses({ A: [[0.5]], B: [[1]], C: [[1]], Ts: 0.5, u: 't', tfinal: 2, interp: 'foh' }, /interp/);
});

test('formula errors name u and what is allowed', () => {
  const sys = { num: [1], den: [1, 1], tfinal: 1 };
  refuses({ ...sys, u: 'x + 1' }, /u: the formula uses the name "x"/);
  refuses({ ...sys, u: 'foo(t)' }, /u: the formula calls "foo"/);
  refuses({ ...sys, u: 'import("fs")' }, /u: the formula calls "import"/);
  refuses({ ...sys, u: 'a = 2' }, /u: .*assignment/);
  refuses({ ...sys, u: 'sin(t' }, /u: cannot read the formula/);
  refuses({ ...sys, u: '1/t' }, /u = 1\/t is Infinity at t = 0/);
  refuses({ ...sys, u: 'sqrt(t - 1)' }, /is NaN at t = 0/);
  refuses({ ...sys, u: '' }, /empty formula/);
  refuses({ ...sys, u: 't'.repeat(600) }, /limit of 500/);
});

test('bad shapes and grids are refused naming the argument', () => {
  const sys = { num: [1], den: [1, 1] };
  refuses({ ...sys, u: [1, 2, 3], t: [0, 1] }, /u has 3 samples but t has 2/);
  refuses({ ...sys, u: [1, 2, 3] }, /give their times t/);
  refuses({ ...sys }, /lsim needs one of u or signal/);
  refuses({ ...sys, u: [1, 2], signal: 'step', t: [0, 1] }, /either as u .* or as signal/);
  refuses({ ...sys, signal: 'sine' }, /needs its period/);
  refuses({ ...sys, signal: 'ramp', period: 2 }, /period applies to sine/);
  refuses({ ...sys, u: 'sin(t)', t: [0, 1, 3] }, /uniformly spaced/);
  refuses({ ...sys, u: 'sin(t)', t: [0, 1], tfinal: 3 }, /either as t or as tfinal/);
  refuses({ ...sys, signal: 'step', tfinal: 1, x0: [1] }, /x0 is a state, but the system is a transfer function/);
  refuses({ ...sys, u: 't', tfinal: 1, amplitude: 2 }, /amplitude belongs to a standard signal/);
  const mimo = {
    A: [
      [-1, 0],
      [0, -2],
    ],
    B: [
      [1, 0],
      [0, 1],
    ],
    C: [[1, 1]],
  };
  refuses({ ...mimo, u: [1, 2, 3], t: [0, 1, 2] }, /one list of 3 samples, but the system has 2 inputs/);
  refuses(
    {
      ...mimo,
      u: [
        [1, 2, 3],
        [4, 5, 6],
      ],
      t: [0, 1, 2],
    },
    /python-control's U, m x N.*transpose/,
  );
  refuses({ ...mimo, signal: 'step', tfinal: 1, input: 3 }, /input = 3, but the system has 2 inputs/);
  refuses({ ...mimo, signal: 'step', tfinal: 1, x0: [1, 2, 3] }, /x0 has 3 entries but A is 2x2/);
  refuses({ A: [[0]], C: [[1]] }, /initial needs argument x0|needs x0/, 'initial');
  refuses({ num: [1], den: [1, 1], x0: [1] }, /initial has no argument "num"|initial needs argument A/, 'initial');
  // an unstable system that overflows is refused, not returned as Infinity
  refuses({ A: [[100]], B: [[1]], C: [[1]], signal: 'step', tfinal: 10, dt: 0.01 }, /overflows/);
});

test('size limits: a grid of more than 1,000,000 samples is refused before the solver runs', () => {
  assert.throws(
    () => prepareArgs('lsim', { num: [1], den: [1, 1], signal: 'step', tfinal: 1e4, dt: 1e-3 }),
    (e: unknown) =>
      e instanceof ControlError && e.code === 'limit' && /tfinal = 10000 s in steps of dt = 0.001 s .* above the limit of 1000000/.test(e.message),
  );
  assert.throws(
    () => prepareArgs('initial', { A: [[0.5]], C: [[1]], x0: [1], Ts: 1e-6, tfinal: 10 }),
    (e: unknown) => e instanceof ControlError && e.code === 'limit',
  );
  assert.throws(
    () => prepareArgs('lsim', { num: [1], den: [1, 1], u: new Array(1_000_001).fill(0), dt: 1 }),
    (e: unknown) => e instanceof ControlError && e.code === 'limit' && /u has 1000001 samples/.test(e.message),
  );
  refuses({ num: [1], den: [1, 1], signal: 'sine', period: 1e-4, tfinal: 1000 }, /above 1000000|limit/);
});

test('no grid given: a stated default (the step tool rule, five periods of a periodic input)', () => {
  const r = lsim({ num: [1], den: [1, 1], signal: 'step' });
  assert.equal(r.t.at(-1), 8);
  assert.match(r.note, /a default: 8 time constants/);
  const s = lsim({ num: [1], den: [1, 1], signal: 'sine', period: 10 });
  assert.ok(Math.abs(s.t.at(-1) - 50) < 1e-9);
  assert.match(s.note, /five periods/);
});

test('verified through the call path; a wrong response or input is rejected by the verifier', async () => {
  const args = {
    A: [
      [0, 1],
      [-2, -3],
    ],
    B: [[0], [1]],
    C: [[1, 0]],
    u: 'sin(2*t) + heaviside(t-1)',
    tfinal: 5,
    dt: 0.05,
    x0: [1, 0],
  };
  const { result, verification } = await callTool('lsim', args);
  assert.equal(verification?.ok, true, JSON.stringify(verification?.checks));
  assert.equal(result.method, 'zoh');
  const badY = structuredClone(result);
  badY.y[40][0] += 1e-5;
  assert.equal(verify('lsim', args, badY)?.ok, false);
  const badU = structuredClone(result);
  badU.u[30][0] += 1e-3;
  const v = verify('lsim', args, badU);
  assert.equal(v?.checks.find((c) => c.name === 'input')?.ok, false);
  // the step on a stable system also checks its final value against the DC gain
  const st = await callTool('lsim', { num: [2], den: [1, 3, 2], signal: 'step', tfinal: 40 });
  assert.equal(st.verification?.ok, true);
  assert.ok(st.verification?.checks.some((c) => c.name === 'final value' && c.ok));
  const ini = await callTool('initial', {
    A: [
      [0, 1],
      [-4, -0.4],
    ],
    C: [[1, 0]],
    x0: [1, 0],
    tfinal: 10,
  });
  assert.equal(ini.verification?.ok, true, JSON.stringify(ini.verification?.checks));
  const badI = structuredClone(ini.result);
  badI.y[500][0] += 1e-6;
  assert.equal(
    verify(
      'initial',
      {
        A: [
          [0, 1],
          [-4, -0.4],
        ],
        C: [[1, 0]],
        x0: [1, 0],
        tfinal: 10,
      },
      badI,
    )?.ok,
    false,
  );
  // a repeated eigenvalue (a Jordan block): the verifier uses e^{At} instead of modes
  const jor = await callTool('initial', {
    A: [
      [-1, 1],
      [0, -1],
    ],
    C: [[1, 0]],
    x0: [0, 1],
    tfinal: 5,
  });
  assert.equal(jor.verification?.ok, true, JSON.stringify(jor.verification?.checks));
  assert.ok(maxErr(jor.result.y, (k) => [jor.result.t[k] * Math.exp(-jor.result.t[k])]) < 1e-14);
});

test('plot facet: the output and the input against t; render and code', async () => {
  const args = { num: [1], den: [1, 1], signal: 'square', period: 4, tfinal: 12 };
  const specs = plotsFor('lsim', args, undefined);
  assert.equal(specs[0].kind, 'lsim');
  const p = await buildPlot({ kind: 'lsim', args: specs[0].args });
  assert.equal((p.data.t as number[]).length, (p.data.u as number[][]).length);
  assert.equal((p.data.y as number[][]).length, (p.data.t as number[]).length);
  assert.equal(p.verification[0].ok, true);
  const { result, verification } = await callTool('lsim', args);
  const md = renderToolResult('lsim', args, result, verification, { math: false });
  assert.match(md, /square wave/);
  assert.match(md, /Method:\*\* zoh/);
  assert.match(md, /final value/);
  const m = reproduce({ tool: 'lsim', args, result, verification }, 'matlab');
  assert.match(m, /y = lsim\(sys, u, t, \[\], 'zoh'\)/);
  const py = reproduce({ tool: 'lsim', args, result, verification }, 'python');
  assert.match(py, /scipy\.signal\.lsim\(\(num, den\), u, t, interp=False\)/);
  const f = await callTool('lsim', { num: [1], den: [1, 1], u: 'sin(2*t)', tfinal: 3 });
  assert.match(
    reproduce({ tool: 'lsim', args: { num: [1], den: [1, 1], u: 'sin(2*t)', tfinal: 3 }, result: f.result, verification: f.verification }, 'python'),
    /ct\.forced_response/,
  );
});
