/**
 * Reading block diagrams joined by signal names and LFTs as they are pasted (reader/connect.ts):
 * MATLAB's InputName/OutputName (and the .u/.y shorthand), sumblk, connect with names or cells,
 * python-control's inputs=/outputs=, summing_junction and interconnect, lft in MATLAB's and
 * python-control's forms; systems from earlier turns by the session rules; what is missing is
 * asked; the result is saved so that "step of T" follows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Conversation, readTurn, recordResult, type Reading } from '../../src/core/reader/index.js';
import { runConnect } from '../../src/core/solvers/connect.js';

const call = (r: Reading) => {
  assert.equal(r.kind, 'call', JSON.stringify(r));
  return r as Extract<Reading, { kind: 'call' }>;
};

const G = { num: [1], den: [1, 2, 1] };
const C = { num: [2, 1], den: [1, 0] };

test("MATLAB: G.InputName/OutputName, sumblk and connect(G, C, S, 'r', 'y') in one pasted cell", () => {
  const r = call(
    readTurn(
      new Conversation(),
      "G = tf(1, [1 2 1]); G.InputName = 'u'; G.OutputName = 'y';\nC = pid(2, 1); C.InputName = 'e'; C.OutputName = 'u';\nS = sumblk('e = r - y');\nT = connect(G, C, S, 'r', 'y')",
    ),
  );
  assert.equal(r.tool, 'connect');
  assert.deepEqual(r.args.blocks, [
    { sys: G, inputName: 'u', outputName: 'y', name: 'G' },
    { sys: C, inputName: 'e', outputName: 'u', name: 'C' },
  ]);
  assert.deepEqual([r.args.sums, r.args.inputs, r.args.outputs], [['e = r - y'], 'r', 'y']);
  assert.equal(r.output, 'T');
});

test('MATLAB: systems from earlier turns, the .u/.y shorthand, an inline sumblk and cell arguments; the result is T for "step of T"', () => {
  const conv = new Conversation();
  readTurn(conv, 'G = tf(1, [1 2 1])');
  readTurn(conv, 'C = pid(2, 1)');
  const r = call(readTurn(conv, "G.u = 'u'; G.y = 'y'; C.u = 'e'; C.y = 'u'; T = connect(G, C, sumblk('e = r-y'), {'r'}, {'y'})"));
  assert.deepEqual(
    (r.args.blocks as { sys: unknown }[]).map((b) => b.sys),
    [G, C],
  );
  assert.match((r.origins.blocks as { text: string }).text, /G from turn 1, C from turn 2/);
  assert.deepEqual(r.args.sums, ['e = r-y']);
  assert.equal(recordResult(conv, r, runConnect(r.args) as unknown as Record<string, unknown>), 'T');
  const s = call(readTurn(conv, 'step of T'));
  assert.equal(s.tool, 'step');
  // T = (2s + 1)/(s^3 + 2s^2 + 3s + 1), MATLAB's connect help example 1 with these G and C
  (s.args.den as number[]).forEach((x, i) => assert.ok(Math.abs(x - [1, 2, 3, 1][i]) < 1e-12));
});

test("MATLAB: a vector output named by a cell; tf(…, 'InputName', 'u', 'OutputName', 'y'); an ss constructor with options the model reader does not take is asked to be split", () => {
  const r = call(
    readTurn(
      new Conversation(),
      "G = ss([-1 0; 0 -2], [1; 1], [1 0; 0 1], [0; 0]); G.InputName = 'u'; G.OutputName = {'y1', 'y2'}; K = tf(3, 1); K.InputName = 'e'; K.OutputName = 'u'; T = connect(G, K, sumblk('e = r - y1'), 'r', {'y1', 'y2'})",
    ),
  );
  const blocks = r.args.blocks as { inputName: unknown; outputName: unknown }[];
  assert.deepEqual(blocks[0].outputName, ['y1', 'y2']);
  assert.deepEqual(blocks[1].inputName, 'e');
  assert.deepEqual(r.args.outputs, ['y1', 'y2']);
  const t = call(readTurn(new Conversation(), "G = tf(1, [1 1], 'InputName', 'u', 'OutputName', 'y'); T = connect(G, sumblk('u = r - y'), 'r', 'y')"));
  assert.deepEqual(t.args.blocks, [{ sys: { num: [1], den: [1, 1] }, inputName: 'u', outputName: 'y', name: 'G' }]);
  const a = readTurn(
    new Conversation(),
    "G = ss([-1 0; 0 -2], [1; 1], [1 0; 0 1], [0; 0], 'InputName', 'u', 'OutputName', {'y1', 'y2'}); T = connect(G, sumblk('u = r - y1'), 'r', 'y1')",
  );
  assert.equal(a.kind, 'ask');
  assert.match((a as { question: string }).question, /without the 'InputName'\/'OutputName' options/);
});

test('python-control: inputs=/outputs= on ct.tf, summing_junction and interconnect with inplist/outlist', () => {
  const r = call(
    readTurn(
      new Conversation(),
      "import control as ct\nP = ct.tf(1, [1, 0], inputs='u', outputs='y')\nC = ct.tf(10, [1, 1], inputs='e', outputs='u')\nsumblk = ct.summing_junction(inputs=['r', '-y'], output='e')\nT = ct.interconnect([P, C, sumblk], inplist=['r'], outlist=['y'])",
    ),
  );
  assert.equal(r.tool, 'connect');
  assert.deepEqual(r.args.sums, ['e = r - y']);
  assert.deepEqual(
    (r.args.blocks as { name: string }[]).map((b) => b.name),
    ['P', 'C'],
  );
  assert.match(r.notes.join(' '), /python-control's interconnect/);
});

test('connect: missing names, undefined systems and two calls are asked back, never guessed', () => {
  const noNames = readTurn(new Conversation(), "G = tf(1, [1 1]); C = tf(2, 1); S = sumblk('e = r - y'); T = connect(G, C, S, 'r', 'y')");
  assert.equal(noNames.kind, 'ask');
  assert.match((noNames as { question: string }).question, /G has no InputName or OutputName/);
  const undef = readTurn(new Conversation(), "T = connect(G, C, S, 'r', 'y')");
  assert.equal(undef.kind, 'ask');
  assert.match((undef as { question: string }).question, /G in connect\(G, C, S, 'r', 'y'\) is not defined/);
  const sumOnly = readTurn(new Conversation(), "S = sumblk('e = r - y')");
  assert.equal(sumOnly.kind, 'ask');
});

test('lft: MATLAB lft(P, K) and lft(P, K, nu, ny), python-control P.lft(K, nu=…, ny=…), a gain K, the upper form for lft(Delta, P)', () => {
  const P = 'P = ss([0 1; 0 -1], [0 0; 0 1], [1 0; -1 0], [0 0; 1 0]);';
  const a = call(readTurn(new Conversation(), `${P} K = 10; T = lft(P, K)`));
  assert.equal(a.tool, 'lft');
  assert.equal(a.args.sys2, 10);
  assert.equal(a.args.form, undefined);
  const b = call(readTurn(new Conversation(), `${P} K = tf([2 1], [1 3]); T = lft(P, K, 1, 1)`));
  assert.deepEqual([b.args.nu, b.args.ny], [1, 1]);
  const c = call(
    readTurn(
      new Conversation(),
      'P = ct.ss([[0, 1], [0, -1]], [[0, 0], [0, 1]], [[1, 0], [-1, 0]], [[0, 0], [1, 0]])\nK = ct.tf([2, 1], [1, 3])\nT = P.lft(K, nu=1, ny=1)',
    ),
  );
  assert.deepEqual([c.tool, c.args.nu, c.args.ny], ['lft', 1, 1]);
  const d = call(readTurn(new Conversation(), `${P} D = tf(1, [1 2]); M = lft(D, P)`));
  assert.equal(d.args.form, 'upper');
  assert.deepEqual(d.args.sys2, { num: [1], den: [1, 2] });
  assert.match(d.notes.join(' '), /upper LFT/);
});
