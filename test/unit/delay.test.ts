/**
 * pade and thiran (solvers/delay.ts) and the reading of delays (reader/delay.ts). References:
 * - MATLAB's pade page: pade(0.1, 3) = (−s³ + 120s² − 6000s + 1.2e5)/(s³ + 120s² + 6000s + 1.2e5);
 *   [num, den] = pade(1.8, 2) = [1 −3.3333 3.7037], [1 3.3333 3.7037]; for P = exp(−2.6s)/(s² + 0.9s + 1),
 *   pade(P, 1) = (−s + 0.7692)/(s³ + 1.669s² + 1.692s + 0.7692);
 * - python-control's control/tests/delay_test.py: the coefficients for T = 1, (dendeg, numdeg) from
 *   (1, 0) to (5, 5) (Vajta's table with its corrections), the scaling for T = 1/53 and 21.95, T = 0 → 1/1;
 * - MATLAB's thiran page: thiran(2.4, 1) = (0.004159z³ − 0.04813z² + 0.5294z + 1)/(z³ + 0.5294z² − 0.04813z + 0.004159),
 *   thiran(2.5, 0.5) = 1/z⁵;
 * - test/fixtures/delay/ref.py (scipy.interpolate.pade on the Taylor series, numpy products and
 *   series connections, the Thiran formula in exact rationals), its stored output ref.json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { callTool } from '../../src/core/tools/runner.js';
import { Conversation, readTurn, executeReading, recordExecution, type Reading } from '../../src/core/reader/index.js';
import { renderToolResult } from '../../src/core/render/answer.js';
import { reproduce } from '../../src/core/codegen/index.js';

type Case = { args: Record<string, unknown>; expect: Record<string, any> };
const ref = JSON.parse(readFileSync(new URL('../fixtures/delay/ref.json', import.meta.url), 'utf8')) as Record<string, Record<string, Case>>;

/** relative agreement of two coefficient lists (leading zeros of ss2tf's padding dropped) */
function sameCoefs(a: number[], b: number[], tol: number, what: string) {
  const strip = (p: number[]) =>
    p.slice(
      Math.max(
        0,
        p.findIndex((x) => Math.abs(x) > 1e-13 * Math.max(...p.map(Math.abs))),
      ),
    );
  const [x, y] = [strip(a), strip(b)];
  assert.equal(x.length, y.length, `${what}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  const scale = Math.max(...y.map(Math.abs));
  x.forEach((v, i) => assert.ok(Math.abs(v - y[i]) <= tol * Math.max(Math.abs(y[i]), 1e-6 * scale), `${what}[${i}]: ${v} vs ${y[i]}`));
}

const sig = (x: number, d = 4) => Number(x.toPrecision(d));

for (const [group, cases] of Object.entries(ref))
  for (const [name, c] of Object.entries(cases))
    test(`${group} ${name}: as SciPy/numpy (ref.py), verified`, async () => {
      const tool = group === 'thiran' ? 'thiran' : 'pade';
      const { result, verification } = await callTool(tool, c.args);
      assert.equal(verification?.ok, true, JSON.stringify(verification?.checks.filter((k) => !k.ok)));
      sameCoefs(result.num, c.expect.num, 1e-9, `${name} num`);
      sameCoefs(result.den, c.expect.den, 1e-9, `${name} den`);
      if (group === 'thiran') assert.equal(result.order, c.expect.order);
    });

test("pade: MATLAB's documentation examples", async () => {
  const a = (await callTool('pade', { T: 0.1, N: 3 })).result;
  sameCoefs(a.num, [-1, 120, -6000, 1.2e5], 1e-12, 'pade(0.1, 3) num');
  sameCoefs(a.den, [1, 120, 6000, 1.2e5], 1e-12, 'pade(0.1, 3) den');
  const b = (await callTool('pade', { T: 1.8, N: 2 })).result;
  assert.deepEqual(
    b.num.map((x: number) => +x.toFixed(4)),
    [1, -3.3333, 3.7037],
  );
  assert.deepEqual(
    b.den.map((x: number) => +x.toFixed(4)),
    [1, 3.3333, 3.7037],
  );
  const c = await callTool('pade', { T: 2.6, N: 1, num: [1], den: [1, 0.9, 1] });
  assert.equal(c.verification?.ok, true);
  assert.deepEqual(
    c.result.num.map((x: number) => sig(x)),
    [-1, 0.7692],
  );
  assert.deepEqual(
    c.result.den.map((x: number) => sig(x)),
    [1, 1.669, 1.692, 0.7692],
  );
  // the delay-free model as a state-space realisation too (MATLAB's sysx has 3 states)
  assert.equal(c.result.A.length, 3);
});

// python-control control/tests/delay_test.py: T = 1, (dendeg, numdeg, den, num)
const PYCONTROL: [number, number, number[], number[]][] = [
  [1, 1, [1, 2], [-1, 2]],
  [1, 0, [1, 1], [1]],
  [2, 2, [1, 6, 12], [1, -6, 12]],
  [2, 1, [1, 4, 6], [-2, 6]],
  [3, 3, [1, 12, 60, 120], [-1, 12, -60, 120]],
  [3, 2, [1, 9, 36, 60], [3, -24, 60]],
  [4, 4, [1, 20, 180, 840, 1680], [1, -20, 180, -840, 1680]],
  [4, 3, [1, 16, 120, 480, 840], [-4, 60, -360, 840]],
  [5, 5, [1, 30, 420, 3360, 15120, 30240], [-1, 30, -420, 3360, -15120, 30240]],
  [5, 4, [1, 25, 300, 2100, 8400, 15120], [5, -120, 1260, -6720, 15120]],
];

test("pade: python-control's reference table (T = 1, orders 1-5 with numdeg) and its scaling to T = 1/53 and 21.95", async () => {
  for (const [n, m, den, num] of PYCONTROL) {
    const { result, verification } = await callTool('pade', { T: 1, N: n, numdeg: m });
    assert.equal(verification?.ok, true, `(${n}, ${m})`);
    sameCoefs(result.den, den, 1e-14, `(${n}, ${m}) den`);
    sameCoefs(result.num, num, 1e-14, `(${n}, ${m}) num`);
    for (const T of [1 / 53, 21.95]) {
      const d = den.map((c, i) => c * T ** (n - i));
      const nn = num.map((c, i) => c * T ** (m - i));
      const r = (await callTool('pade', { T, N: n, numdeg: m })).result;
      sameCoefs(
        r.den,
        d.map((c) => c / d[0]),
        1e-13,
        `T=${T} (${n}, ${m}) den`,
      );
      sameCoefs(
        r.num,
        nn.map((c) => c / d[0]),
        1e-13,
        `T=${T} (${n}, ${m}) num`,
      );
    }
  }
  // a negative numdeg is N + numdeg (python-control's doc: pade(1, 3, -2) = [-6, 24] / [1, 6, 18, 24])
  const r = (await callTool('pade', { T: 1, N: 3, numdeg: -2 })).result;
  sameCoefs(r.num, [-6, 24], 1e-14, 'numdeg -2 num');
  sameCoefs(r.den, [1, 6, 18, 24], 1e-14, 'numdeg -2 den');
  // T = 0: no delay, 1/1
  const z = await callTool('pade', { T: 0, N: 4 });
  assert.deepEqual([z.result.num, z.result.den], [[1], [1]]);
  assert.equal(z.verification?.ok, true);
});

test('pade: a MIMO model with an input or an output delay is G(s)·R(s) in every channel, verified; high orders verified up to the limit', async () => {
  const sys = {
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
  const i = await callTool('pade', { T: 0.5, N: 2, ...sys });
  const o = await callTool('pade', { T: 0.5, N: 2, ...sys, delayAt: 'output' });
  assert.equal(i.verification?.ok, true);
  assert.equal(o.verification?.ok, true);
  assert.equal(i.result.A.length, 2 + 2 * 2, 'one 2nd-order approximant per input');
  assert.equal(o.result.A.length, 2 + 2, 'one approximant for the one output');
  for (const N of [10, 15, 20]) assert.equal((await callTool('pade', { T: 0.5, N })).verification?.ok, true, `N = ${N}`);
});

test('pade and thiran refuse bad arguments with messages naming them', async () => {
  await assert.rejects(callTool('pade', { T: 0.5, N: 0 }), /order N must be at least 1/);
  await assert.rejects(callTool('pade', { T: 0.5, N: 21 }), /above the limit of 20.*N <= 10/);
  await assert.rejects(callTool('pade', { T: 0.5, N: 2.5 }), /N must be integer/);
  await assert.rejects(callTool('pade', { T: 0.5, N: 2, numdeg: 3 }), /numdeg must lie between/);
  await assert.rejects(callTool('pade', { T: -1, N: 2 }), /T must be >= 0/);
  await assert.rejects(
    callTool('pade', { T: 0.5, N: 2, num: [1], den: [1, 1], Ts: 0.1 } as Record<string, unknown>),
    /the system is discrete \(Ts = 0.1\).*thiran/,
  );
  await assert.rejects(callTool('pade', { T: 0.5, N: 2, delayAt: 'output' }), /delayAt.*applies to a system/);
  await assert.rejects(callTool('pade', { T: 0.5, N: 2, num: [1, 0, 0], den: [1, 1] }), /improper/);
  await assert.rejects(callTool('thiran', { tau: 0.35, Ts: 0 }), /Ts must be > 0/);
  await assert.rejects(callTool('thiran', { tau: -1, Ts: 1 }), /tau must be >= 0/);
  await assert.rejects(callTool('thiran', { tau: 60.5, Ts: 1 }), /order 61, above the limit of 50/);
});

test("thiran: MATLAB's documentation examples; an integer number of samples is z^-k exactly", async () => {
  const a = await callTool('thiran', { tau: 2.4, Ts: 1 });
  assert.equal(a.verification?.ok, true);
  assert.deepEqual(
    a.result.num.map((x: number) => sig(x)),
    [0.004159, -0.04813, 0.5294, 1],
  );
  assert.deepEqual(
    a.result.den.map((x: number) => sig(x)),
    [1, 0.5294, -0.04813, 0.004159],
  );
  assert.equal(a.result.order, 3);
  const b = await callTool('thiran', { tau: 2.5, Ts: 0.5 });
  assert.deepEqual([b.result.num, b.result.den, b.result.order, b.result.integer], [[1], [1, 0, 0, 0, 0, 0], 5, true]);
  // 0.3/0.1 is 2.9999999999999996 in floating point: still 3 samples
  assert.deepEqual((await callTool('thiran', { tau: 0.3, Ts: 0.1 })).result.den, [1, 0, 0, 0]);
});

function read(...lines: string[]): Reading {
  const conv = new Conversation();
  let r: Reading | undefined;
  for (const l of lines) r = readTurn(conv, l);
  return r!;
}

test('reading: a delay in a request is never dropped nor guessed: asked back with the 3rd- and 5th-order Padé approximations, each candidate the request run on that approximation', () => {
  for (const [msg, T, tool, delayAt] of [
    ['step response of G(s) = exp(-0.5*s)/(s+1)', 0.5, 'step', undefined],
    ['bode of e^(-0.5s)/(s+1)', 0.5, 'bode', undefined],
    ["G = tf(1,[1 1],'InputDelay',0.5); step(G)", 0.5, 'step', undefined],
    ['step response of 1/(s+1) with a dead time of 0.5 s', 0.5, 'step', undefined],
    ['Dryer model G(s) = 0.6/(40s+1) with a 12 s dead time. Margins?', 12, 'margins', undefined],
    ["sys = ss([-1 0; 0 -2], [1; 1], [1 1], 0, 'OutputDelay', 0.3); margin(sys)", 0.3, 'margins', 'output'],
  ] as const) {
    const r = read(msg);
    assert.equal(r.kind, 'ask', `${msg}: ${JSON.stringify(r)}`);
    if (r.kind !== 'ask') continue;
    assert.match(r.question, new RegExp(`delay of ${T} s`), msg);
    assert.match(r.question, new RegExp(`${tool} then runs on the approximated system`), msg);
    assert.deepEqual(
      r.candidates.map((c) => c.label),
      ['with a 3rd-order Padé approximation', 'with a 5th-order Padé approximation'],
    );
    // each candidate is the request itself with its order: it reads as the tool asked, on the approximation
    assert.equal(r.candidates[0].prompt, `${msg.replace(/[.?!]+$/, '')} with a 3rd-order Padé approximation`, msg);
    for (const [i, N] of [
      [0, 3],
      [1, 5],
    ] as const) {
      const c = read(r.candidates[i].prompt);
      assert.ok(c.kind === 'call' && (c.plan ?? c.tool) === tool, `${r.candidates[i].prompt}: ${JSON.stringify(c)}`);
      if (c.kind !== 'call') continue;
      const pre = c.pre?.at(-1);
      assert.ok(pre && pre.tool === 'pade' && pre.args.N === N && pre.args.T === T, JSON.stringify(c.pre));
      assert.equal(pre.args.delayAt, delayAt, msg);
      assert.match(pre.text, new RegExp(`^pade\\(.*, ${N}\\)$`));
    }
  }
});

test('reading: another tool asked with the Padé order in the same message runs on the approximation; the delay and the order are never dropped', () => {
  // before: "bode of … with a 3rd order pade approximation" computed the approximation and dropped the Bode plot
  for (const [msg, tool, T, N, sys] of [
    ['bode of e^(-0.5s)/(s+1) with a 3rd order pade approximation', 'bode', 0.5, 3, { num: [1], den: [1, 1] }],
    ['margins of 2*exp(-0.2*s)/(s+1) using a 5th-order Padé approximation', 'margins', 0.2, 5, { num: [2], den: [1, 1] }],
    ['step response of 1/(s^2+s+1) with a 0.2 s delay, Pade order 2', 'step', 0.2, 2, { num: [1], den: [1, 1, 1] }],
  ] as const) {
    const r = read(msg);
    assert.ok(r.kind === 'call' && (r.plan ?? r.tool) === tool, `${msg}: ${JSON.stringify(r)}`);
    if (r.kind !== 'call') continue;
    assert.equal(r.pre?.length, 1);
    assert.deepEqual(r.pre![0].args, { T, N, ...sys }, msg);
    // the system the tool shows comes from the delay and the order
    assert.ok(r.origins.num?.from === 'message' && /\d/.test(r.origins.num.text), JSON.stringify(r.origins));
  }
  // the order missing: asked, the candidates keep the request
  const o = read('nyquist of e^(-s)/(s+1), pade approximation');
  assert.ok(
    o.kind === 'ask' &&
      o.candidates.length === 2 &&
      o.candidates.every((c) => /^nyquist of e\^\(-s\)\/\(s\+1\), pade approximation, order [35]$/.test(c.prompt)),
    JSON.stringify(o),
  );
});

test('reading: pade and thiran as calls, commands and words; delays the reader does not take keep their refusal', () => {
  const p = (m: string) => {
    const r = read(m);
    assert.ok(r.kind === 'call' && r.tool === 'pade', `${m}: ${JSON.stringify(r)}`);
    return r.kind === 'call' ? r.args : {};
  };
  assert.deepEqual(p('pade(0.5, 3)'), { T: 0.5, N: 3 });
  assert.deepEqual(p('[num, den] = pade(0.5, 3)'), { T: 0.5, N: 3 });
  assert.deepEqual(p('num, den = ct.pade(1, 3, -2)'), { T: 1, N: 3, numdeg: -2 });
  assert.deepEqual(p('Padé approximation of a 0.5 s delay, order 3'), { T: 0.5, N: 3 });
  assert.deepEqual(p('/pade T=0.5, N=3'), { T: 0.5, N: 3 });
  assert.deepEqual(p('third-order Pade approximation of G(s) = 1/(s^2+s+1) with a 0.2 s delay'), { T: 0.2, N: 3, num: [1], den: [1, 1, 1] });
  // no order given: asked, with both orders
  const o = read('Pade approximation of e^(-2s)');
  assert.ok(o.kind === 'ask' && o.candidates.map((c) => c.prompt).join() === 'pade(2, 3),pade(2, 5)', JSON.stringify(o));
  const t = (m: string) => {
    const r = read(m);
    assert.ok(r.kind === 'call' && r.tool === 'thiran', `${m}: ${JSON.stringify(r)}`);
    return r.kind === 'call' ? r.args : {};
  };
  assert.deepEqual(t('thiran(2.4, 1)'), { tau: 2.4, Ts: 1 });
  assert.deepEqual(t('/thiran tau=2.4, Ts=1'), { tau: 2.4, Ts: 1 });
  assert.deepEqual(t('Thiran filter for a delay of 0.25 s with Ts = 0.1 s'), { tau: 0.25, Ts: 0.1 });
  assert.deepEqual(t('fractional delay of 0.35 s at 10 Hz sampling'), { tau: 0.35, Ts: 0.1 });
  // kept as before: a computation delay plus half a PWM period (two delays, one of them in words of the sampling)
  const r = read('Plant 1/(s + 100) but with 50 µs computation delay plus half a PWM period. Margins?');
  assert.ok(r.kind === 'none' && r.problems.some((x) => /time delays are not supported yet/.test(x)), JSON.stringify(r));
});

test('a conversation: the delayed plant asked back, the 3rd-order approximation picked: the step response runs on it, which stays in use', async () => {
  const conv = new Conversation();
  assert.equal(readTurn(conv, 'step response of G(s) = exp(-0.5*s)/(s+1)').kind, 'ask');
  const r = readTurn(conv, 'the first one');
  assert.ok(r.kind === 'call' && r.tool === 'step' && r.pre?.[0].tool === 'pade', JSON.stringify(r));
  if (r.kind !== 'call') return;
  const calls = await executeReading(r);
  const pade = calls.find((c) => c.tool === 'pade')!;
  assert.equal(pade.error, undefined);
  const md = renderToolResult('pade', pade.args as Record<string, any>, pade.result!, undefined, { math: false });
  assert.match(md, /3rd-order Padé approximation/);
  for (const lang of ['matlab', 'python'] as const)
    assert.match(reproduce({ tool: 'pade', args: pade.args as Record<string, any>, result: pade.result }, lang), /pade/);
  // the step ran on the approximation: 1/(s+1) times a 3rd-order all-pass, published closed form
  // (MATLAB pade(0.5, 3): (-s^3 + 24s^2 - 240s + 960)/(s^3 + 24s^2 + 240s + 960))
  const step = calls.find((c) => c.tool === 'step')!;
  assert.equal(step.error, undefined);
  sameCoefs(pade.result!.den as number[], [1, 25, 264, 1200, 960], 1e-12, 'the approximated system');
  assert.equal((step.args.A as number[][]).length, 4, 'the step ran on the 4-state approximation');
  const y = step.result!.y as number[][] | number[];
  const yEnd = (Array.isArray(y[0]) ? (y as number[][]).at(-1)![0] : (y as number[]).at(-1)) as number;
  assert.ok(Math.abs(yEnd - 1) < 0.02, `a unit step settles at the DC gain 1: ${yEnd}`);
  recordExecution(conv, r, calls);
  const s = readTurn(conv, 'and its bode plot');
  assert.ok(s.kind === 'call' && s.plan === 'bode', JSON.stringify(s));
  if (s.kind === 'call') sameCoefs(s.args.den as number[], pade.result!.den as number[], 0, 'the approximated system in use');
});

test('the verifier rejects a wrong approximant, a wrong delayed system and a wrong Thiran filter', async () => {
  const { verify } = await import('../../src/core/verify/index.js');
  const good = (await callTool('pade', { T: 0.5, N: 3 })).result;
  const bad = { ...good, padeDen: good.padeDen.map((c: number, i: number) => (i === 2 ? c * (1 + 1e-6) : c)), den: good.den };
  assert.equal(verify('pade', { T: 0.5, N: 3 }, bad)?.ok, false);
  // a lower-order approximant passed off as order 3
  const low = (await callTool('pade', { T: 0.5, N: 2 })).result;
  assert.equal(verify('pade', { T: 0.5, N: 3 }, { ...low, N: 3, numdeg: 3 })?.ok, false);
  const sysArgs = { T: 0.5, N: 2, num: [1], den: [1, 1] };
  const s = (await callTool('pade', sysArgs)).result;
  assert.equal(verify('pade', sysArgs, { ...s, num: s.num.map((c: number) => c * 1.001) })?.ok, false);
  const t = (await callTool('thiran', { tau: 2.4, Ts: 1 })).result;
  assert.equal(verify('thiran', { tau: 2.4, Ts: 1 }, { ...t, den: [1, 0.53, -0.048, 0.0042], num: [0.0042, -0.048, 0.53, 1] })?.ok, false);
  assert.equal(verify('thiran', { tau: 2.5, Ts: 0.5 }, { num: [1], den: [1, 0, 0, 0, 0], Ts: 0.5, order: 4, D: 5, integer: true })?.ok, false);
});
