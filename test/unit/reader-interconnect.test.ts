/**
 * Reading requests that connect systems (feedback, series, parallel, append) in a
 * conversation, as a user types them: operands by name from earlier turns, in the order
 * written, static gains, the sign, the result saved under a name later turns use, and the
 * loop that can be read two ways asked back with both readings as candidates.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Conversation, readTurn, recordResult, type Reading } from '../../src/core/reader/index.js';

function say(conv: Conversation, text: string): Reading {
  return readTurn(conv, text);
}

/** a conversation with G(s) = 1/(s^2 + 2s + 1) and the PI controller C(s) = (2s + 1)/s defined */
function plantAndPi(): Conversation {
  const conv = new Conversation();
  const g = say(conv, 'G(s) = 1/(s^2 + 2s + 1)');
  assert.equal(g.kind, 'define');
  const c = say(conv, 'the PI controller C = pid(2, 1)');
  assert.equal(c.kind, 'define', JSON.stringify(c));
  return conv;
}

test('pid(Kp, Ki) defines the PI controller Kp + Ki/s as a transfer function (MATLAB pid)', () => {
  const conv = plantAndPi();
  const c = conv.systems[conv.named('C')!].sys;
  assert.deepEqual(c, { kind: 'tf', num: [2, 1], den: [1, 0] });
  // pid(Kp, Ki, Kd, Tf) = Kp + Ki/s + Kd s/(Tf s + 1): with 1, 2, 3, 0.5 the common denominator s(0.5s + 1)
  // gives (1·s(0.5s+1) + 2(0.5s+1) + 3s²)/(s(0.5s+1)) = (3.5s² + 2s + 2)/(0.5s² + s)
  const conv2 = new Conversation();
  say(conv2, 'K = pid(1, 2, 3, 0.5)');
  assert.deepEqual(conv2.systems[conv2.named('K')!].sys, { kind: 'tf', num: [3.5, 2, 2], den: [0.5, 1, 0] });
});

test('feedback(G, C): G forward, C in the return path, each operand from its turn', () => {
  const conv = plantAndPi();
  const r = say(conv, 'T = feedback(G, C)');
  assert.equal(r.kind, 'call', JSON.stringify(r));
  if (r.kind !== 'call') return;
  assert.equal(r.tool, 'feedback');
  assert.deepEqual(r.args.sys1, { num: [1], den: [1, 2, 1] });
  assert.deepEqual(r.args.sys2, { num: [2, 1], den: [1, 0] });
  assert.deepEqual(r.origins.sys1, { from: 'system', name: 'G', turn: 1 });
  assert.deepEqual(r.origins.sys2, { from: 'system', name: 'C', turn: 2 });
  assert.equal(r.output, 'T');
  assert.equal(r.args.sign, undefined, 'negative feedback is the tool default, not written');
});

test('feedback(G*C, 1): the series product read from the names, unity feedback, the sign as a third argument', () => {
  const conv = plantAndPi();
  const r = say(conv, 'feedback(G*C, 1)');
  assert.equal(r.kind, 'call', JSON.stringify(r));
  if (r.kind !== 'call') return;
  // G·C = (2s + 1)/(s^3 + 2s^2 + s)
  assert.deepEqual(r.args.sys1, { num: [2, 1], den: [1, 2, 1, 0] });
  assert.equal(r.args.sys2, 1);
  const pos = say(conv, 'feedback(G, C, +1)');
  assert.equal(pos.kind === 'call' && pos.args.sign, 1);
});

test('"close the loop of G with C" can be read two ways: asked, each reading a candidate that reads as it', () => {
  const conv = plantAndPi();
  const r = say(conv, 'close the loop of G with C');
  assert.equal(r.kind, 'ask', JSON.stringify(r));
  if (r.kind !== 'ask') return;
  const prompts = r.candidates.map((c) => c.prompt);
  assert.ok(prompts.includes('feedback(G*C, 1)'), prompts.join(' | '));
  assert.ok(prompts.includes('feedback(G, C)'), prompts.join(' | '));
  // "the first one" picks the controller-in-the-forward-path reading
  const pick = say(conv, 'the first one');
  assert.equal(pick.kind, 'call', JSON.stringify(pick));
  if (pick.kind === 'call') {
    assert.equal(pick.tool, 'feedback');
    assert.equal(pick.args.sys2, 1);
  }
});

test('"unity feedback of G" and "with H in the feedback path" need no question', () => {
  const conv = plantAndPi();
  const u = say(conv, 'unity feedback of G');
  assert.equal(u.kind, 'call', JSON.stringify(u));
  if (u.kind === 'call') {
    assert.deepEqual(u.args.sys1, { num: [1], den: [1, 2, 1] });
    assert.equal(u.args.sys2, 1);
    assert.equal(u.origins.sys2?.from, 'default');
  }
  say(conv, 'H(s) = 10/(s + 10)');
  const h = say(conv, 'close the loop around G with the sensor H in the feedback path');
  assert.equal(h.kind, 'call', JSON.stringify(h));
  if (h.kind === 'call') {
    assert.deepEqual(h.args.sys1, { num: [1], den: [1, 2, 1] });
    assert.deepEqual(h.args.sys2, { num: [10], den: [1, 10] });
  }
  const p = say(conv, 'positive feedback of G with H in the feedback path');
  assert.equal(p.kind === 'call' && p.args.sign, 1, JSON.stringify(p));
});

test('the closed loop is saved as T and is the system later requests use', () => {
  const conv = plantAndPi();
  const r = say(conv, 'T = feedback(G*C, 1)');
  assert.equal(r.kind, 'call');
  if (r.kind !== 'call') return;
  // a result as the feedback tool returns it (SISO: num/den beside A, B, C, D)
  const name = recordResult(conv, r, {
    A: [
      [0, 1, 0],
      [0, 0, 1],
      [-1, -3, -2],
    ],
    B: [[0], [0], [1]],
    C: [[1, 2, 0]],
    D: [[0]],
    Ts: 0,
    num: [2, 1],
    den: [1, 2, 3, 1],
  });
  assert.equal(name, 'T');
  assert.deepEqual(conv.systems[conv.named('T')!].sys, { kind: 'tf', num: [2, 1], den: [1, 2, 3, 1] });
  const s = say(conv, 'and its step response');
  assert.equal(s.kind, 'call', JSON.stringify(s));
  if (s.kind === 'call') {
    assert.equal(s.tool, 'step');
    assert.deepEqual(s.args.num, [2, 1]);
    assert.deepEqual(s.args.den, [1, 2, 3, 1]);
  }
});

test('T = feedback(G, 1); step(T) asks nothing: the step is the request, T its system', () => {
  const conv = plantAndPi();
  const r = say(conv, 'T = feedback(G, 1); step(T)');
  assert.equal(r.kind, 'call', JSON.stringify(r));
  if (r.kind === 'call') assert.equal(r.tool, 'step');
});

test('series: operands in the order written; SISO order said not to matter; a state-space model without C is asked for', () => {
  const conv = plantAndPi();
  const s = say(conv, 'series(C, G)');
  assert.equal(s.kind, 'call', JSON.stringify(s));
  if (s.kind === 'call') {
    assert.equal(s.tool, 'series');
    assert.deepEqual(s.args.sys1, { num: [2, 1], den: [1, 0] });
    assert.deepEqual(s.args.sys2, { num: [1], den: [1, 2, 1] });
  }
  const w = say(conv, 'put C in series with G');
  assert.equal(w.kind, 'call', JSON.stringify(w));
  if (w.kind === 'call')
    assert.ok(
      w.notes.some((n) => /order/.test(n)),
      w.notes.join(' | '),
    );
  say(conv, 'P = ss([0 1; -2 -3], [0; 1], [1 0], 0)');
  const conv2 = new Conversation();
  say(conv2, 'A = [0 1; -2 -3], B = [0; 1]');
  say(conv2, 'H(s) = 1/(s+1)');
  const miss = say(conv2, 'parallel connection of the (A, B) model and H');
  assert.ok(miss.kind === 'ask', JSON.stringify(miss));
});

test('step(feedback(G, 1)) runs the feedback tool first (verified, shown, saved as T) and the step on its result', async () => {
  const { collectTurn } = await import('../../src/core/agent/turn.js');
  const conv = new Conversation();
  await collectTurn({ prompt: 'G(s) = 1/(s^2 + 2s + 1)', conversation: conv });
  const ev = await collectTurn({ prompt: 'step(feedback(G, 1))', conversation: conv });
  const calls = ev.filter((e) => e.type === 'tool_call').map((e) => (e as { tool: string }).tool);
  assert.deepEqual(calls.slice(0, 1), ['feedback'], calls.join(', '));
  assert.ok(calls.includes('step'), calls.join(', '));
  const fb = ev.find((e) => e.type === 'tool_result' && (e as { tool: string }).tool === 'feedback') as {
    result: Record<string, unknown>;
    verification?: { ok: boolean };
  };
  assert.equal(fb.verification?.ok, true);
  // T = G/(1 + G) = 1/(s^2 + 2s + 2): by hand
  assert.deepEqual(fb.result.den, [1, 2, 2]);
  // the step ran on the verified closed loop: its realisation has the characteristic polynomial s^2 + 2s + 2
  const st = ev.find((e) => e.type === 'tool_call' && (e as { tool: string }).tool === 'step') as { args: Record<string, number[][]> };
  const A = st.args.A;
  assert.deepEqual([-(A[0][0] + A[1][1]), A[0][0] * A[1][1] - A[0][1] * A[1][0]], [2, 2]);
  const reading = ev.find((e) => e.type === 'reading') as { markdown: string };
  assert.match(reading.markdown, /^Computed `feedback\(G, 1\)`, then `step\(/);
  assert.equal(conv.systems[conv.named('T')!].sys.kind, 'tf');
});
