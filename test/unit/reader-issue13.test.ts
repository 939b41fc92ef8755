/**
 * Requests for the issue-13 tools that the corpus work found misread, each pinned to the
 * reading an engineer means (the expected arguments are the request's own numbers).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Conversation, readTurn, recordResult, type Reading } from '../../src/core/reader/index.js';

function read(...lines: string[]): Reading {
  const conv = new Conversation();
  let r: Reading | undefined;
  for (const l of lines) r = readTurn(conv, l);
  return r!;
}

function call(r: Reading, tool: string): Record<string, unknown> {
  assert.equal(r.kind, 'call', JSON.stringify(r));
  if (r.kind !== 'call') throw new Error('not a call');
  assert.equal(r.tool, tool);
  return r.args;
}

test('"evaluate G at s = …" is evalfr at that point, the point not reported as poles', () => {
  const r = read('evaluate G(s) = 1/(s^2+2s+2) at s = 1+1j');
  assert.deepEqual(call(r, 'evalfr').s, [1, 1]);
  assert.ok(r.kind === 'call' && !r.notes.some((n) => /poles/.test(n)), JSON.stringify(r));
  assert.deepEqual(call(read('evaluate G(s) = 1/(s+1) at s = 2'), 'evalfr').s, [2, 0]);
});

test('"cancel the common pole-zero pair" is minreal', () => {
  const a = call(read('cancel the common pole-zero pair in G(s) = (s+2)/(s^2+5s+6)'), 'minreal');
  assert.deepEqual(
    [a.num, a.den],
    [
      [1, 2],
      [1, 5, 6],
    ],
  );
});

test('a response to a formula or a named signal is a simulation: u, tfinal, period read, "from 0" not left over', () => {
  const r = read('response of G(s) = 1/(s+1) to u = sin(2*t) from 0 to 5 s');
  const a = call(r, 'lsim');
  assert.equal(a.u, 'sin(2*t)');
  assert.equal(a.tfinal, 5);
  assert.ok(r.kind === 'call' && !r.notes.some((n) => /Not read/.test(n)), JSON.stringify(r));
  const sq = call(read('G(s) = 1/(s+1)', 'simulate G with a square wave of period 4 s'), 'lsim');
  assert.equal(sq.signal, 'square');
  assert.equal(sq.period, 4);
  assert.equal(sq.Ts, undefined, 'the period of the wave is no sample time');
});

test('reductions: "a first-order model", "by truncation", "eliminate state 3", MATLAB balred matches the DC gain', () => {
  const b = call(read('reduce G(s) = (s+3)/((s+1)(s+2)(s+10)) to a first-order model by balanced truncation'), 'balred');
  assert.equal(b.order, 1);
  assert.equal(b.method, 'truncate');
  const m = call(read('eliminate state 3 of A = [-1 0 0; 0 -2 0; 0 0 -30], B = [1;1;1], C = [1 1 1] by truncation'), 'modred');
  assert.deepEqual(m.elim, [3]);
  assert.equal(m.method, 'truncate');
  assert.equal(call(read('balred(ss(-diag([1 2 3]), ones(3,1), ones(1,3), 0), 2)'), 'balred').method, 'matchdc');
  assert.equal(call(read('ct.balred(ct.ss(-np.diag([1, 2, 3]), np.ones((3, 1)), np.ones((1, 3)), 0), 2)'), 'balred').method, undefined);
});

test('a Gramian or a free response with a missing matrix is asked for, never run to an error', () => {
  const g = read('Gramian of A = [-1 0; 0 -2]');
  assert.equal(g.kind, 'ask');
  assert.match(g.kind === 'ask' ? g.question : '', /gram needs B/);
  const i = read('initial response of A=[0 1;-2 -3]');
  assert.equal(i.kind, 'ask');
  assert.match(i.kind === 'ask' ? i.question : '', /initial needs C and x0/);
  assert.equal(call(read('controlability gramian of A = [-1 0; 0 -2], B = [1;1]'), 'gram').type, 'c');
});

test('"in unity feedback" as the setting of another question is no feedback call', () => {
  const r = read('Find the steady-state error to a unit ramp for the system G(s) = 10/(s(s+4)) in unity feedback.');
  assert.notEqual(r.kind === 'call' && r.tool, 'feedback', JSON.stringify(r));
  const s = read('G(s) = 1/(s+1)', 'step response of G in unity feedback');
  assert.equal(s.kind, 'ask');
  assert.ok(s.kind === 'ask' && s.candidates.some((c) => c.prompt === 'step(feedback(G, 1))'), JSON.stringify(s));
});

test('"and in parallel?" after a series connection takes the same systems', () => {
  const a = call(read('G1 = tf(1, [1 1]), G2 = tf(2, [1 3])', 'series(G1, G2)', 'and in parallel?'), 'parallel');
  assert.deepEqual(a.sys1, { num: [1], den: [1, 1] });
  assert.deepEqual(a.sys2, { num: [2], den: [1, 3] });
});

test("python-control's ct.dlyap(A, Q, C) (A X Qᵀ − X + C = 0) reads with Q transposed into MATLAB's A X B − X + C = 0", () => {
  const py = call(read('ct.dlyap(np.array([[0.5, 0.1], [0, 0.2]]), np.array([[0.3, 1], [0, 0.4]]), np.eye(2))'), 'dsylvester');
  assert.deepEqual(py.Bs, [
    [0.3, 0],
    [1, 0.4],
  ]);
  const m = call(read('dlyap([0.5 0.1; 0 0.2], [0.3 1; 0 0.4], eye(2))'), 'dsylvester');
  assert.deepEqual(m.Bs, [
    [0.3, 1],
    [0, 0.4],
  ]);
});

test('"close the loop of sys with a gain of 5": the gain is an operand, asked where it goes, never dropped', () => {
  const r = read('sys = tf([2 1],[1 3 2])', 'clsoe the loop of sys with a gain of 5');
  assert.equal(r.kind, 'ask', JSON.stringify(r));
  const prompts = r.kind === 'ask' ? r.candidates.map((c) => c.prompt) : [];
  assert.ok(prompts.includes('feedback(sys*5, 1)') && prompts.includes('feedback(sys, 5)'), prompts.join(' | '));
});

test('"convert it back to continous" (a typo) after a c2d is d2c of the discrete model, not another c2d', () => {
  const conv = new Conversation();
  readTurn(conv, 'sys = tf([2 1],[1 3 2])');
  const c = readTurn(conv, "sysd = c2d(sys, 20e-3, 'matched')");
  assert.equal(c.kind === 'call' && c.tool, 'c2d');
  if (c.kind === 'call') recordResult(conv, c, { Ad: [[0.9]], Bd: [[1]], Cd: [[1]], Dd: [[0]], num: [2, -1.9], den: [1, -0.9], Ts: 0.02, method: 'matched' });
  const r = readTurn(conv, 'now convert it back to continous');
  assert.equal(r.kind === 'call' && r.tool, 'd2c', JSON.stringify(r).slice(0, 300));
  assert.ok(r.kind === 'call' && r.args.Ts === 0.02, JSON.stringify(r).slice(0, 300));
});
