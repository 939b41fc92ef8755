// The reading defects a user trial found (issue 10), each as a conversation through the real
// turn (reader, plan, solver, verifier); through the CLI's `ask --session FILE`:
// test/slow/reader-defects.test.ts.
// Reference numbers come from outside our code: closed forms, and SciPy 1.17
// (scipy.linalg.solve_continuous_are, scipy.signal.cont2discrete(method='bilinear')), run as
// written in each comment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectTurn } from '../../src/core/agent/turn.js';
import type { TurnEvent } from '../../src/core/agent/events.js';
import { Conversation, readTurn } from '../../src/core/reader/index.js';

type Result = Extract<TurnEvent, { type: 'tool_result' }>;

async function say(conv: Conversation, text: string, command?: string): Promise<TurnEvent[]> {
  return collectTurn({ prompt: text, command, conversation: conv });
}
const reading = (ev: TurnEvent[]) => ev.find((e) => e.type === 'reading') as Extract<TurnEvent, { type: 'reading' }> | undefined;
const result = (ev: TurnEvent[], tool: string) => ev.find((e) => e.type === 'tool_result' && e.tool === tool && !e.intermediate) as Result | undefined;
const close = (a: number, b: number, tol = 1e-6) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} vs ${b}`);

test('the reading line comes first in every computing answer', async () => {
  const ev = await say(new Conversation(), 'margins of G(s) = 10/(s(s+1)(s+5))');
  assert.equal(ev[0].type, 'reading');
  assert.match(reading(ev)!.markdown, /^Computed `margins\(num = \[10\], den = \[1 6 5 0\]\)`; num, den from 'G\(s\) = 10\/\(s\(s\+1\)\(s\+5\)\)'/);
  // closed form: the phase crosses −180° where 5ω − ω³ = 0, ω = √5, |G| = 10/30 -> GM = 3
  const m = result(ev, 'margins')!.result!;
  close(m.gm as number, 3);
  close(m.w_pc as number, Math.sqrt(5));
  // SciPy: PM from |G(jω)| = 1 on a dense grid: 25.3905° at 1.22704 rad/s
  close(m.pm_deg as number, 25.3905, 1e-4);
});

test('step after c2d: a transfer function of its own, continuous, never the earlier discrete matrices', async () => {
  const conv = new Conversation();
  const c2d = await say(conv, 'A=[0 1; -2 -3], B=[0;1], C=[1 0], Ts=0.1', 'c2d');
  assert.ok(result(c2d, 'c2d')?.result);
  const ev = await say(conv, 'step response of num=[1], den=[1 2 1]');
  const r = reading(ev)!;
  assert.equal(r.tool, 'step');
  assert.doesNotMatch(r.markdown, /Ts|turn 1/);
  const step = result(ev, 'step')!;
  assert.equal((step.result as { Ts?: number }).Ts, undefined);
  const y = step.result!.y as number[];
  // 1/(s+1)²: y(t) = 1 − (1 + t)e^{−t}; the default grid ends near 8 s
  assert.ok(y[y.length - 1] > 0.99 && y[y.length - 1] < 1.0, `y(end) = ${y[y.length - 1]}`);
});

test("tustin and '50 ms' are applied, and said", async () => {
  for (const text of ['A=[0 1; -2 -3], B=[0;1], C=[1 0], Ts = 50 ms using tustin', 'A=[0 1; -2 -3], B=[0;1], C=[1 0], Ts=50ms, method=tustin']) {
    const ev = await say(new Conversation(), text, 'c2d');
    const r = reading(ev)!;
    assert.match(r.markdown, /Ts = 0\.05/);
    assert.match(r.markdown, /method = 'tustin'/);
    const res = result(ev, 'c2d')!.result!;
    assert.equal(res.method, 'tustin');
    assert.equal(res.Ts, 0.05);
    // scipy.signal.cont2discrete((A, B, C, D), 0.05, method='bilinear')[0]
    const Ad = res.Ad as number[][];
    const ref = [
      [0.9976771196283392, 0.046457607433217196],
      [-0.09291521486643439, 0.8583042973286876],
    ];
    ref.forEach((row, i) => row.forEach((x, j) => close(Ad[i][j], x, 1e-12)));
  }
});

test('a trailing colon keeps Ts: the discrete Kalman filter, not the continuous one', async () => {
  const ev = await say(new Conversation(), 'discrete Kalman filter with Ts=0.1: A=[1 0.1; 0 1], G=[0;1], C=[1 0], Qn=1, Rn=0.1');
  const r = reading(ev)!;
  assert.equal(r.tool, 'kalman');
  assert.match(r.markdown, /Ts = 0\.1/);
});

test('a question mark right after the last matrix keeps that matrix', async () => {
  const ev = await say(new Conversation(), 'what is the lqr gain for A=[0 1;-2 -3], B=[0;1], Q=eye(2), R=1?');
  const K = result(ev, 'lqr')!.result!.K as number[][];
  // closed form for this plant: K = [√5 − 2, √5 − 2]
  close(K[0][0], Math.sqrt(5) - 2, 1e-12);
  close(K[0][1], Math.sqrt(5) - 2, 1e-12);
});

test("'at -5 and -6' are the poles", async () => {
  const ev = await say(new Conversation(), 'place the poles of A=[0 1; 0 0], B=[0;1] at -5 and -6');
  // s² + 11 s + 30 from u = −Kx on the double integrator: K = [30, 11]
  const K = result(ev, 'place')!.result!.K as number[][];
  close(K[0][0], 30, 1e-9);
  close(K[0][1], 11, 1e-9);
});

test("'now with R=10' reuses A, B, Q from the turn before and says so", async () => {
  const conv = new Conversation();
  await say(conv, 'design an lqr for A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1');
  const ev = await say(conv, 'now with R=10');
  const r = reading(ev)!;
  assert.match(r.markdown, /A, B from turn 1/);
  assert.match(r.markdown, /Q from turn 1/);
  assert.match(r.markdown, /R from your message/);
  // scipy.linalg.solve_continuous_are(A, B, eye(2), [[10]]) -> K = BᵀX/10 = [0.02484567, 0.02484567]
  const K = result(ev, 'lqr')!.result!.K as number[][];
  close(K[0][0], 0.02484567, 1e-6);
});

test('two systems in scope: asked back with both as candidates, and a candidate reads as that system', async () => {
  const conv = new Conversation();
  await say(conv, 'G1 = tf([1],[1 1]) and G2 = tf([1],[1 2])');
  const ev = await say(conv, 'its margins');
  const ask = ev.find((e) => e.type === 'ask') as Extract<TurnEvent, { type: 'ask' }>;
  assert.ok(ask, 'asked back');
  assert.deepEqual(
    ask.candidates.map((c) => c.label),
    ['G1 (continuous)', 'G2 (continuous)'],
  );
  assert.ok(!ev.some((e) => e.type === 'tool_result'), 'nothing computed');
  const picked = await say(conv, ask.candidates[1].prompt);
  assert.match(reading(picked)!.markdown, /num, den from G2/);
});

test("a unit-less Ts of 50 is asked back, with '50 ms' and '50 s' as candidates", async () => {
  const ev = await say(new Conversation(), 'A=[0 1; -2 -3], B=[0;1], C=[1 0], Ts = 50', 'c2d');
  const ask = ev.find((e) => e.type === 'ask') as Extract<TurnEvent, { type: 'ask' }>;
  assert.deepEqual(
    ask.candidates.map((c) => c.label),
    ['Ts = 50 ms', 'Ts = 50 s'],
  );
});

test("a follow-up of c2d runs on the plant, not on the discrete result: 'now 1 kHz'; 'its step response' then asks which", async () => {
  const conv = new Conversation();
  await say(conv, 'discretise G(s) = 1/(s+1) at 200 Hz');
  const ev = await say(conv, 'now 1 kHz');
  const r = reading(ev)!;
  assert.equal(r.tool, 'c2d');
  assert.match(r.markdown, /num, den from G \(turn 1\); Ts from '1 kHz'/);
  assert.equal(result(ev, 'c2d')!.result!.Ts, 0.001);
  assert.doesNotMatch(r.markdown, /Not read/);
  const ask = (await say(conv, 'its step response')).find((e) => e.type === 'ask') as Extract<TurnEvent, { type: 'ask' }>;
  assert.deepEqual(
    ask.candidates.map((c) => c.label),
    ['G (continuous)', 'Gd (discrete, Ts = 0.001 s)'],
  );
});

test('a pasted call beside a design asked for in words is asked back, each reading a button', async () => {
  const conv = new Conversation();
  const msg = 'K = lqr(A,B,Q,R) with A=[0 1; 0 0], B=[0;1], Q=eye(2), R=1 -- design an LQG controller for this plant with C=[1 0]';
  const ev = await say(conv, msg);
  const ask = ev.find((e) => e.type === 'ask') as Extract<TurnEvent, { type: 'ask' }>;
  assert.ok(ask, 'asked back');
  assert.ok(!ev.some((e) => e.type === 'tool_result'), 'nothing computed before the answer');
  assert.match(ask.question, /lqr.*LQG design/s);
  // button 1: the call alone, as /lqr on the same message
  const only = await say(new Conversation(), ask.candidates[0].prompt, ask.candidates[0].command);
  // closed form for the double integrator with Q = I, R = 1: K = [1, √3]
  const K = result(only, 'lqr')!.result!.K as number[][];
  close(K[0][0], 1);
  close(K[0][1], Math.sqrt(3));
  // button 2: the design without the pasted call; it goes on to the LQG playbook (which asks for the noise)
  assert.doesNotMatch(ask.candidates[1].prompt, /lqr\(|K =/);
  const design = await say(new Conversation(), ask.candidates[1].prompt);
  assert.match((design.find((e) => e.type === 'ask') as Extract<TurnEvent, { type: 'ask' }>).question, /lqg needs QWV/);
});

test("a pasted script's outputs are saved by name: K = lqr(…), [L, P, E] = lqe(…), then reg(sys, K, L) uses them", async () => {
  const conv = new Conversation();
  await say(conv, 'A=[0 1; -2 -3]; B=[0;1]; C=[1 0]; D=0; sys = ss(A,B,C,D);');
  const k = await say(conv, 'K = lqr(A,B,eye(2),1)');
  assert.ok(
    k.some((e) => e.type === 'text' && /Saved \*\*K\*\*/.test(e.text)),
    'says K is saved',
  );
  const l = await say(conv, '[L,P,E] = lqe(A,B,C,1,0.1)');
  assert.ok(
    l.some((e) => e.type === 'text' && /Saved \*\*L\*\*, \*\*P\*\*/.test(e.text)),
    'says L and P are saved (E, the poles, are not a matrix)',
  );
  const ev = await say(conv, 'rsys = reg(sys,K,L)');
  assert.match(reading(ev)!.markdown, /K from turn 2 \(K = lqr\(…\)\); L from turn 3 \(L = lqe\(…\)\)/);
  const r = result(ev, 'reg')!.result!;
  // SciPy 1.17: solve_continuous_are(A, B, I, 1) -> K = Bᵀ X = [0.236068 0.236068] (= √5 − 2);
  // solve_continuous_are(Aᵀ, Cᵀ, B Bᵀ, 0.1) -> L = P Cᵀ / 0.1 = [0.533173; 0.142137]; the loop's poles
  // (separation): −2.236068, −1 (eig(A − BK)) and −1.766587 ± 0.787927j (eig(A − LC))
  const reg = (r.regulatorPoles as number[][]).map((p) => p[0]).sort((a, b) => a - b);
  close(reg[0], -2.23606798);
  close(reg[1], -1);
  for (const [x, y] of r.estimatorPoles as number[][]) {
    close(x, -1.76658674);
    close(Math.abs(y), 0.78792683);
  }
});

test('a call that cannot be read is never answered by another tool (reg with K unknown does not rerun the last lqe)', async () => {
  const conv = new Conversation();
  await say(conv, 'A=[0 1; -2 -3]; B=[0;1]; C=[1 0]; D=0; sys = ss(A,B,C,D);');
  await say(conv, 'lqe(A,B,C,1,0.1)');
  const ev = await say(conv, 'rsys = reg(sys,K,L)');
  assert.ok(!ev.some((e) => e.type === 'tool_result'), 'nothing computed');
  assert.ok(ev.some((e) => (e.type === 'text' || e.type === 'error') && /could not read reg\(sys,K,L\)/.test(e.type === 'text' ? e.text : e.message)));
});

test('"in Hz" asked of an answer is not dropped: the reading says so and the frequencies follow in Hz', async () => {
  const ev = await say(new Conversation(), 'margins of L(s) = 5/(s(s+2)(s+10)) in Hz please');
  assert.match(reading(ev)!.markdown, /also given in Hz \(f = ω\/2π\), from 'in Hz'/);
  const hz = ev.find((e) => e.type === 'text' && /In Hz/.test(e.text)) as Extract<TurnEvent, { type: 'text' }>;
  assert.ok(hz, 'no Hz line');
  // closed form: the phase −90° − atan(ω/2) − atan(ω/10) is −180° where (ω/2)(ω/10) = 1, ω_pc = √20;
  // f = √20/(2π) = 0.711763 Hz. The gain crossover solves ω²(ω² + 4)(ω² + 100) = 25: ω_gc = 0.248023 (SciPy brentq), 0.0394741 Hz
  assert.match(hz.text, /w_pc = 4\.47214 rad\/s = 0\.711763 Hz/);
  assert.match(hz.text, /w_gc = 0\.248023 rad\/s = 0\.0394741 Hz/);
  // an input in Hz is no request for the answer's unit
  const pid = await say(new Conversation(), 'PI controller for G(s) = 1/(s+1)^2 with a crossover at 1 Hz and a phase margin of 45 deg');
  assert.ok(!pid.some((e) => e.type === 'text' && /In Hz/.test(e.text)));
});

test('a frequency range written "between … and …" is the grid, as "from … to …" is', () => {
  const r = readTurn(new Conversation(), 'bode of G(s)=1/(s+1) between 0.1 and 100 rad/s');
  assert.equal(r.kind, 'call');
  if (r.kind !== 'call') return;
  const w = r.args.w as number[];
  // 200 points spaced logarithmically from 0.1 to 100 rad/s, as MATLAB's logspace(-1, 2, 200)
  assert.equal(w.length, 200);
  close(w[0], 0.1, 1e-12);
  close(w[199], 100, 1e-12);
  close(w[1] / w[0], 10 ** (3 / 199), 1e-12);
  const hz = readTurn(new Conversation(), 'freqresp of G(s)=1/(s+1) between 1 and 10 Hz');
  assert.equal(hz.kind, 'call');
  // 1 Hz is 2π rad/s
  if (hz.kind === 'call') close((hz.args.w as number[])[0], 2 * Math.PI, 1e-12);
});
