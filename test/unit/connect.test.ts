/**
 * connect and lft (solvers/connect.ts). References:
 * - MATLAB's connect help, example 1 (C.InputName = 'e'; C.OutputName = 'u'; G.InputName = 'u';
 *   G.OutputName = 'y'; Sum = sumblk('e = r-y'); T = connect(G, C, Sum, 'r', 'y')), with
 *   G = 1/(s + 1)² and C = pid(2, 1) = (2s + 1)/s: the closed form feedback(G·C, 1) =
 *   (2s + 1)/(s³ + 2s² + 3s + 1);
 * - python-control's interconnect tutorial ("auto-splitting": sys1 = tf(1, [10, 1], inputs='u',
 *   outputs='y1'), sys2 = tf(1, [1, 0], inputs='u', outputs='y2'), interconnect([sys1, sys2],
 *   inputs='u', outputs=['y1', 'y2']) is the 1-input, 2-output [1/(10s + 1); 1/s]);
 * - a two-loop cascade computed by hand (inner loop 5/(s + 2) closed: 5/(s + 7); outer
 *   3·5/(s(s + 7)) closed: 15/(s² + 7s + 15), and y2/r = 15s/(s² + 7s + 15));
 * - the LFT identities of the standard plant (Zhou, Doyle & Glover, Robust and Optimal
 *   Control, ch. 10): P = [0 G; 1 −G] gives F_l(P, K) = GK/(1 + GK), P = [G G; −G −G] gives
 *   G/(1 + GK), each compared with the feedback tool's closed form;
 * - test/fixtures/connect/ref.py (NumPy/SciPy: random diagrams solved as signal equations at
 *   fixed points, the star product by its formula, poles of the whole loop), stored as ref.json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { callTool } from '../../src/core/tools/runner.js';
import { renderToolResult } from '../../src/core/render/answer.js';
import { reproduce } from '../../src/core/codegen/index.js';
import { plotsFor } from '../../src/core/plot/data.js';
import { evalSS } from '../../src/core/verify/systems.js';
import { verify } from '../../src/core/verify/index.js';
import { parseSum } from '../../src/core/solvers/connect.js';
import type { Complex } from '../../src/core/types.js';
import { sameSet } from './linalg-helpers.js';

type Case = { tool: string; args: Record<string, any>; expect: Record<string, any> };
const ref = JSON.parse(readFileSync(new URL('../fixtures/connect/ref.json', import.meta.url), 'utf8')) as Record<string, Case>;

function samePoly(a: number[], b: number[], what: string, tol = 1e-9): void {
  const strip = (p: number[]) => p.slice(p.findIndex((x) => Math.abs(x) > 1e-12));
  const x = strip(a),
    y = strip(b);
  assert.equal(x.length, y.length, `${what}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  x.forEach((v, i) => assert.ok(Math.abs(v - y[i]) <= tol * Math.max(1, Math.abs(y[i])), `${what}[${i}]: ${v} vs ${y[i]}`));
}

/** H of a result at s */
function Hat(r: Record<string, any>, s: Complex): { re: number[][]; im: number[][] } {
  const h = evalSS(r.A, r.A.length ? r.B : [], r.A.length ? r.C : r.D.map(() => []), r.D, s);
  return { re: h.re.to2DArray(), im: h.im.to2DArray() };
}

for (const [name, c] of Object.entries(ref)) {
  test(`${c.tool} (${name}): transfer matrix, order and poles as the NumPy signal-equation reference, verified`, async () => {
    const { result, verification } = await callTool(c.tool, c.args);
    assert.equal(verification?.ok, true, JSON.stringify(verification?.checks));
    const e = c.expect;
    assert.equal(result.A.length, e.order, `${name}: minimal order`);
    e.points.forEach((s: Complex, k: number) => {
      const h = Hat(result, s);
      const want = e.H[k] as Complex[][];
      assert.equal(h.re.length, want.length, `${name}: outputs`);
      want.forEach((row, i) =>
        row.forEach(([re, im], j) => {
          const scale = Math.max(1, Math.hypot(re, im));
          assert.ok(Math.hypot(h.re[i][j] - re, h.im[i][j] - im) <= 1e-8 * scale, `${name} H(${s})[${i},${j}]: ${h.re[i][j]}+${h.im[i][j]}j vs ${re}+${im}j`);
        }),
      );
    });
    sameSet(result.poles, e.poles, 1e-7, `${name}: poles of the whole interconnection`);
    if (e.input_names) {
      assert.deepEqual(result.input_names, e.input_names);
      assert.deepEqual(result.output_names, e.output_names);
    }
    for (const math of [true, false]) {
      const md = renderToolResult(c.tool, c.args, result, verification, { math });
      assert.match(md, /✔ Verified/);
      assert.doesNotMatch(md, /undefined|NaN|\[object Object\]/, md);
    }
    for (const lang of ['matlab', 'python'] as const) {
      const code = reproduce({ tool: c.tool, args: c.args, result, verification }, lang);
      assert.match(code, c.tool === 'lft' ? /lft\(/ : lang === 'matlab' ? /connect\(/ : /ct\.interconnect\(/, code);
      assert.doesNotMatch(code, /undefined|\[object Object\]/, code);
    }
  });
}

const G = { num: [1], den: [1, 2, 1] };
const C = { num: [2, 1], den: [1, 0] };
const loop = {
  blocks: [
    { sys: G, inputName: 'u', outputName: 'y', name: 'G' },
    { sys: C, inputName: 'e', outputName: 'u', name: 'C' },
  ],
  sums: ['e = r - y'],
  inputs: 'r',
  outputs: 'y',
};

test("connect: MATLAB's connect help example 1 equals the feedback closed form (2s + 1)/(s³ + 2s² + 3s + 1)", async () => {
  const { result, verification } = await callTool('connect', loop);
  assert.equal(verification?.ok, true);
  samePoly(result.num, [2, 1], 'num');
  samePoly(result.den, [1, 2, 3, 1], 'den');
  const fb = await callTool('feedback', { sys1: { num: [2, 1], den: [1, 2, 1, 0] } });
  samePoly(result.den, fb.result.den, 'den as feedback(G*C, 1)');
  samePoly(result.num, fb.result.num, 'num as feedback(G*C, 1)');
  assert.deepEqual([result.input_names, result.output_names], [['r'], ['y']]);
  const ml = reproduce({ tool: 'connect', args: loop, result, verification }, 'matlab');
  assert.match(ml, /sys1\.InputName = \{'u'\}; sys1\.OutputName = \{'y'\};/);
  assert.match(ml, /S1 = sumblk\('e = r - y'\);/);
  assert.match(ml, /T = connect\(sys1, sys2, S1, \{'r'\}, \{'y'\}\);/);
  const py = reproduce({ tool: 'connect', args: loop, result, verification }, 'python');
  assert.match(py, /ct\.summing_junction\(inputs=\['r', '-y'\], output='e'\)/);
  assert.match(py, /ct\.interconnect\(\[sys1, sys2, S1\], inplist=\['r'\], outlist=\['y'\]\)/);
  assert.deepEqual(
    plotsFor('connect', loop, result).map((p) => p.kind),
    ['step', 'bode'],
  );
});

test("connect: python-control's interconnect tutorial, one input split to two blocks: [1/(10s + 1); 1/s]", async () => {
  const args = {
    blocks: [
      { sys: { num: [1], den: [10, 1] }, inputName: 'u', outputName: 'y1' },
      { sys: { num: [1], den: [1, 0] }, inputName: 'u', outputName: 'y2' },
    ],
    inputs: 'u',
    outputs: ['y1', 'y2'],
  };
  const { result, verification } = await callTool('connect', args);
  assert.equal(verification?.ok, true);
  assert.equal(result.A.length, 2);
  const s: Complex = [0.3, 0.8];
  const h = Hat(result, s);
  // 1/(10s + 1) and 1/s at s = 0.3 + 0.8j
  const inv = (re: number, im: number) => [re / (re * re + im * im), -im / (re * re + im * im)];
  const [a, b] = inv(10 * s[0] + 1, 10 * s[1]);
  const [c, d] = inv(s[0], s[1]);
  assert.ok(Math.hypot(h.re[0][0] - a, h.im[0][0] - b) < 1e-12);
  assert.ok(Math.hypot(h.re[1][0] - c, h.im[1][0] - d) < 1e-12);
});

test('connect: a two-loop cascade by hand, 15/(s² + 7s + 15) to y1 and 15s/(s² + 7s + 15) to y2', async () => {
  const blocks = [
    { sys: 3, inputName: 'e1', outputName: 'r2', name: 'C1' },
    { sys: 5, inputName: 'e2', outputName: 'u', name: 'C2' },
    { sys: { num: [1], den: [1, 2] }, inputName: 'u', outputName: 'y2', name: 'G2' },
    { sys: { num: [1], den: [1, 0] }, inputName: 'y2', outputName: 'y1', name: 'G1' },
  ];
  const sums = ['e1 = r - y1', 'e2 = r2 - y2'];
  const one = await callTool('connect', { blocks, sums, inputs: 'r', outputs: 'y1' });
  assert.equal(one.verification?.ok, true);
  samePoly(one.result.num, [15], 'num');
  samePoly(one.result.den, [1, 7, 15], 'den');
  const two = await callTool('connect', { blocks, sums, inputs: ['r'], outputs: ['y1', 'y2'] });
  const s: Complex = [0.5, 1.5];
  const h = Hat(two.result, s);
  // 15s/(s² + 7s + 15) at s
  const [dr, di] = [s[0] ** 2 - s[1] ** 2 + 7 * s[0] + 15, 2 * s[0] * s[1] + 7 * s[1]];
  const m = dr * dr + di * di;
  const want = [(15 * s[0] * dr + 15 * s[1] * di) / m, (15 * s[1] * dr - 15 * s[0] * di) / m];
  assert.ok(Math.hypot(h.re[1][0] - want[0], h.im[1][0] - want[1]) < 1e-12, JSON.stringify(h));
  assert.equal(two.result.A.length, 2);
});

test('connect: removed modes say why (a cancelled mode is unreachable, an unused branch unobservable)', async () => {
  // C = (s + 1)/s cancels G = 1/(s + 1): from r the mode at −1 cannot be reached; T = 1/(s + 1)
  const args = {
    blocks: [
      { sys: { num: [1], den: [1, 1] }, inputName: 'u', outputName: 'y' },
      { sys: { num: [1, 1], den: [1, 0] }, inputName: 'e', outputName: 'u' },
      { sys: { num: [1], den: [1, 5] }, inputName: 'y', outputName: 'q' },
    ],
    sums: ['e = r - y'],
    inputs: 'r',
    outputs: 'y',
  };
  const { result, verification } = await callTool('connect', args);
  assert.equal(verification?.ok, true, JSON.stringify(verification?.checks));
  samePoly(result.den, [1, 1], 'den');
  sameSet(result.uncontrollable, [[-1, 0]], 1e-8, 'uncontrollable');
  sameSet(result.unobservable, [[-5, 0]], 1e-8, 'unobservable');
  assert.deepEqual(result.unused, ['q']);
  const md = renderToolResult('connect', args, result, verification, { math: false });
  assert.match(md, /not reachable from the inputs/);
  assert.match(md, /not seen at the outputs/);
  assert.match(md, /used nowhere: q/);
});

test('connect: each wrong diagram is refused with the signal named', async () => {
  const b = loop.blocks;
  await assert.rejects(callTool('connect', { ...loop, sums: ['e = r - yy'] }), /signal 'yy' \(an input of the summing junction 'e = r - yy'\) is unknown/);
  await assert.rejects(
    callTool('connect', { ...loop, blocks: [...b, { sys: 1, inputName: 'e', outputName: 'y' }] }),
    /signal 'y' is driven twice: by G \(blocks\[1\]\) and by blocks\[3\]/,
  );
  await assert.rejects(callTool('connect', { ...loop, inputs: ['r', 'y'] }), /signal 'y' is driven twice: it is an output of G/);
  await assert.rejects(callTool('connect', { ...loop, inputs: ['r', 'd'] }), /input 'd' drives nothing/);
  await assert.rejects(callTool('connect', { ...loop, outputs: ['y', 'z'] }), /output 'z' is never produced/);
  await assert.rejects(
    callTool('connect', { ...loop, sums: ['e = r + y'], blocks: [{ sys: 1, inputName: 'e', outputName: 'y' }] }),
    /algebraic loop through 'e', 'y' is singular/,
  );
  await assert.rejects(callTool('connect', { ...loop, sums: ['e r - y'] }), /is not of the form 'e = r - y'/);
  await assert.rejects(callTool('connect', { ...loop, blocks: [{ ...b[0], sys: { ...G, Ts: 0.1 } }, b[1]] }), /sampling times must agree/);
  await assert.rejects(
    callTool('connect', { ...loop, blocks: [{ ...b[0], inputName: ['u', 'v'] }, b[1]] }),
    /has 1 input\(s\) but blocks\[1\]\.inputName gives 2 names/,
  );
});

test('connect: a summing junction is read as MATLAB sumblk writes it', () => {
  assert.deepEqual(parseSum('e = r - y').terms, [
    { name: 'r', sign: 1 },
    { name: 'y', sign: -1 },
  ]);
  assert.deepEqual(
    parseSum('u = -u1 + u2 − u3').terms.map((t) => t.sign),
    [-1, 1, -1],
  );
  assert.equal(parseSum(' v = d(2)').terms[0].name, 'd(2)');
  assert.throws(() => parseSum('e = r y'), /not of the form/);
  assert.throws(() => parseSum('e = r - r'), /names r twice/);
});

test('lft: standard plant identities, F_l([0 G; 1 −G], K) = GK/(1 + GK) and F_l([G G; −G −G], K) = G/(1 + GK), as the feedback tool', async () => {
  // G = 1/(s(s + 1)): x1' = x2, x2' = −x2 + u_total
  const A = [
    [0, 1],
    [0, -1],
  ];
  const P1 = {
    A,
    B: [
      [0, 0],
      [0, 1],
    ],
    C: [
      [1, 0],
      [-1, 0],
    ],
    D: [
      [0, 0],
      [1, 0],
    ],
  };
  const a = await callTool('lft', { sys1: P1, sys2: 10 });
  assert.equal(a.verification?.ok, true, JSON.stringify(a.verification?.checks));
  const fa = await callTool('feedback', { sys1: { num: [10], den: [1, 1, 0] } });
  samePoly(a.result.num, fa.result.num, 'num');
  samePoly(a.result.den, fa.result.den, 'den');
  samePoly(a.result.den, [1, 1, 10], 'den');
  const P2 = {
    A,
    B: [
      [0, 0],
      [1, 1],
    ],
    C: [
      [1, 0],
      [-1, 0],
    ],
  };
  const K = { num: [2, 1], den: [1, 3] };
  const b = await callTool('lft', { sys1: P2, sys2: K, nu: 1, ny: 1 });
  assert.equal(b.verification?.ok, true);
  const fb = await callTool('feedback', { sys1: { num: [1], den: [1, 1, 0] }, sys2: K });
  samePoly(b.result.num, fb.result.num, 'num');
  samePoly(b.result.den, fb.result.den, 'den');
  for (const lang of ['matlab', 'python'] as const) {
    const code = reproduce({ tool: 'lft', args: { sys1: P2, sys2: K, nu: 1, ny: 1 }, result: b.result, verification: b.verification }, lang);
    assert.match(code, lang === 'matlab' ? /T = lft\(sys1, sys2, 1, 1\);/ : /T = sys1\.lft\(sys2, nu=1, ny=1\)/, code);
  }
});

test('lft: the upper form, MATLAB lft(sys1, sys2) defaults, and the refusals', async () => {
  // F_u(P, Δ) with P = [[a, b], [c, d]] static: d + c·Δ·b/(1 − a·Δ)
  const P = {
    A: [],
    D: [
      [0.5, 2],
      [3, 1],
    ],
  };
  const u = await callTool('lft', { sys1: P, sys2: 0.4, form: 'upper' });
  assert.equal(u.verification?.ok, true);
  assert.ok(Math.abs(u.result.D[0][0] - (1 + (3 * 0.4 * 2) / (1 - 0.5 * 0.4))) < 1e-14);
  const l = await callTool('lft', { sys1: P, sys2: 0.4 });
  assert.ok(Math.abs(l.result.D[0][0] - (0.5 + (2 * 0.4 * 3) / (1 - 1 * 0.4))) < 1e-14);
  assert.equal(l.result.nu, 1);
  assert.equal(l.result.ny, 1);
  await assert.rejects(callTool('lft', { sys1: P, sys2: 1 }), /not well-posed: I − D22·DK is singular/);
  await assert.rejects(callTool('lft', { sys1: { num: [1], den: [1, 1] }, sys2: 2 }), /every (input|output) is inside the loop/);
  await assert.rejects(callTool('lft', { sys1: P, sys2: 0.5, nu: 3 }), /nu is 3; it must be a whole number from 0 to 1/);
  const mimoK = {
    A: [],
    D: [
      [1, 0],
      [0, 1],
    ],
  };
  await assert.rejects(callTool('lft', { sys1: P, sys2: mimoK, form: 'upper', nu: 1, ny: 1 }), /upper form F_u\(sys1, sys2\) closes every channel/);
});

test('the verifier fails a wrong connect result, wrong names and wrong poles', async () => {
  const { result } = await callTool('connect', loop);
  assert.equal(verify('connect', loop, { ...result, C: [result.C[0].map((v: number) => v * 1.01)], num: undefined, den: undefined })?.ok, false);
  assert.equal(verify('connect', loop, { ...result, output_names: ['e'] })?.ok, false);
  const poles = result.poles.map(([re, im]: Complex) => [re * 1.05, im]);
  assert.equal(verify('connect', loop, { ...result, poles })?.ok, false);
});
