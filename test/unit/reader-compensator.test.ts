/**
 * Issue 14: the compensators of reg and lqg (and the estimator of estim) are saved as named
 * systems (RESULT_NAMES in reader/read.ts), with MATLAB's convention that reg/lqg compensators
 * are connected with POSITIVE feedback (MATLAB reg/lqg documentation: the closed loop is
 * feedback(sys, rsys, +1), since u = −Kx̂ already carries the minus sign). The answer says so,
 * "close the loop" uses that sign (said in the reading), an explicit feedback(sys, rsys) with the
 * default sign −1 is said not to be the designed loop, and "step of the closed loop with it" asks
 * back with the positive-feedback loop as its first choice.
 *
 * The closed loop's numbers, by hand: A = [0 1; −2 −3], B = [0; 1], C = [1 0], K = [4 2],
 * L = [8; 4] gives the compensator A − BK − LC = [−8 1; −10 −5], B = L, C = −K; the loop with
 * positive feedback has the separation poles eig(A − BK) ∪ eig(A − LC) = {−2, −3} ∪ {−5, −6}
 * (det(sI − A + BK) = s² + 5s + 6 → −2, −3; det(sI − A + LC) = s² + 11s + 30 → −5, −6; their product
 * s⁴ + 16s³ + 91s² + 216s + 180).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Conversation } from '../../src/core/reader/index.js';
import { collectTurn } from '../../src/core/agent/turn.js';
import type { TurnEvent } from '../../src/core/agent/events.js';

const REG = 'rsys = reg(ss(A,B,C,0), K, L) with A=[0 1; -2 -3], B=[0;1], C=[1 0], K=[4 2], L=[8;4]';
const text = (ev: TurnEvent[]) => ev.map((e) => ((e as { text?: string }).text ?? '') + ((e as { markdown?: string }).markdown ?? '')).join('\n');
const sorted = (zs: [number, number][]) => zs.map((z) => z[0]).sort((a, b) => a - b);

test('reg: the compensator is saved as rsys, and the answer states the positive-feedback convention', async () => {
  const conv = new Conversation();
  const ev = await collectTurn({ prompt: REG, conversation: conv });
  const i = conv.named('rsys');
  assert.notEqual(i, undefined);
  const e = conv.systems[i!];
  assert.deepEqual(e.feedback?.sign, 1);
  assert.equal(e.sys.kind, 'ss');
  assert.deepEqual((e.sys as { A: number[][] }).A, [
    [-8, 1],
    [-10, -5],
  ]);
  assert.match(text(ev), /Saved as \*\*rsys\*\*, a compensator from y to u for \*\*positive\*\* feedback/);
  assert.match(text(ev), /feedback\(sys, rsys, \+1\)/);
  // the convention travels with the conversation's JSON (chat metadata, --session)
  const back = Conversation.fromJSON(JSON.parse(JSON.stringify(conv.toJSON())));
  assert.deepEqual(back.systems[i!].feedback, e.feedback);
});

test('"close the loop" after reg uses positive feedback with the plant, said in the reading; the poles separate', async () => {
  const conv = new Conversation();
  await collectTurn({ prompt: REG, conversation: conv });
  const ev = await collectTurn({ prompt: 'close the loop', conversation: conv });
  const call = ev.find((x) => x.type === 'tool_call') as { tool: string; args: Record<string, any> };
  assert.equal(call.tool, 'feedback');
  assert.equal(call.args.sign, 1);
  assert.deepEqual(call.args.sys1.A, [
    [0, 1],
    [-2, -3],
  ]);
  assert.deepEqual(call.args.sys2.C, [[-4, -2]]);
  const reading = ev.find((x) => x.type === 'reading') as { markdown: string };
  assert.match(reading.markdown, /rsys is a reg\/lqg compensator: MATLAB connects it with positive feedback/);
  const res = ev.find((x) => x.type === 'tool_result') as { result: Record<string, any>; verification?: { ok: boolean } };
  assert.equal(res.verification?.ok, true);
  // eig(A − BK) ∪ eig(A − LC) = {−3, −2} ∪ {−6, −5}: the separation principle, by hand
  assert.deepEqual(
    sorted(res.result.poles as [number, number][]).map((x) => Math.round(x * 1e9) / 1e9),
    [-6, -5, -3, -2],
  );
  // with negative feedback the loop would be another one: its characteristic polynomial is not (s+2)(s+3)(s+5)(s+6)
  assert.deepEqual(
    (res.result.den as number[]).map((x) => Math.round(x * 1e9) / 1e9),
    [1, 16, 91, 216, 180],
  );
});

test('lqg: saved as rlqg; feedback(sys, rlqg) with the default sign is said not to be the designed loop', async () => {
  const conv = new Conversation();
  const ev = await collectTurn({ prompt: 'lqg controller for A=[0 1; -2 -3], B=[0;1], C=[1 0] with QXU=eye(3), QWV=diag([1 1 0.1])', conversation: conv });
  assert.match(text(ev), /Saved as \*\*rlqg\*\*, a compensator from y to u for \*\*positive\*\* feedback/);
  const ev2 = await collectTurn({ prompt: 'feedback(sys, rlqg)', conversation: conv });
  const reading = ev2.find((x) => x.type === 'reading') as { markdown: string };
  assert.match(
    reading.markdown,
    /MATLAB connects with positive feedback \(feedback\(sys, rlqg, \+1\)\); this call's sign −1 \(the default\) is not the designed loop/,
  );
});

test('"step of the closed loop with it" after reg asks, the positive-feedback loop first; estim is saved as est', async () => {
  const conv = new Conversation();
  await collectTurn({ prompt: REG, conversation: conv });
  const ev = await collectTurn({ prompt: 'step of the closed loop with it', conversation: conv });
  const ask = ev.find((x) => x.type === 'ask') as { candidates: { label: string; prompt: string }[] } | undefined;
  assert.ok(ask, JSON.stringify(ev.map((x) => x.type)));
  assert.equal(ask!.candidates[0].prompt, 'T = feedback(sys, rsys, +1)');
  assert.match(ask!.candidates[0].label, /positive feedback/);
  const conv2 = new Conversation();
  const ev2 = await collectTurn({ prompt: 'estim(ss(A,B,C,0), L) with A=[0 1; -2 -3], B=[0;1], C=[1 0], L=[8;4]', conversation: conv2 });
  assert.match(text(ev2), /Saved as \*\*est\*\*: later requests can name it/);
  assert.equal(conv2.systems[conv2.named('est')!].feedback, undefined);
});
