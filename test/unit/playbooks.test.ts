// Design playbooks (issue 14 item 7): a design asked for in words runs as a typed multi-step
// workflow, each step a verified call; a failed or cancelled step resumes from the checkpoint;
// /plan shows the calls before anything runs. Numbers are checked against SciPy
// (test/fixtures/playbooks/ref.py, stored in ref.json), never against our own output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { collectTurn, runTurn } from '../../src/core/agent/turn.js';
import type { TurnEvent } from '../../src/core/agent/events.js';
import { Conversation, describeReading, readTurn } from '../../src/core/reader/index.js';
import { sameSet } from './linalg-helpers.js';
import type { Complex } from '../../src/core/types.js';

const ref = JSON.parse(readFileSync(new URL('../fixtures/playbooks/ref.json', import.meta.url), 'utf8'));
const LQG_2 = 'design an LQG controller for A=[0 1; -2 -3], B=[0;1], C=[1 0] with Q=eye(2), R=1, Qn=eye(2), Rn=0.1';
const PENDULUM = [
  'A = [0 1 0 0; 0 -0.1818 2.6727 0; 0 0 0 1; 0 -0.4545 31.1818 0];',
  'B = [0; 1.8182; 0; 4.5455];',
  'C = [1 0 0 0; 0 0 1 0];',
  'D = [0; 0];',
  'Q = diag([10 1 100 1]);',
  'R = 1;',
].join('\n');

const calls = (ev: TurnEvent[]) => ev.filter((e) => e.type === 'tool_call').map((e) => (e as { tool: string }).tool);
const results = (ev: TurnEvent[]) => ev.filter((e): e is Extract<TurnEvent, { type: 'tool_result' }> => e.type === 'tool_result');
const resultOf = (ev: TurnEvent[], tool: string) => results(ev).find((e) => e.tool === tool && !e.intermediate)?.result as Record<string, any> | undefined;
const near = (a: number, b: number, tol: number, what: string) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
const nearM = (A: number[][], B: number[][], tol: number, what: string) =>
  A.forEach((r, i) => r.forEach((x, j) => near(x, B[i][j], tol, `${what}[${i}][${j}]`)));
const text = (ev: TurnEvent[]) =>
  ev
    .filter((e) => e.type === 'text' || e.type === 'reading' || e.type === 'ask')
    .map((e) => (e.type === 'ask' ? e.question : ((e as { text?: string; markdown?: string }).text ?? (e as { markdown: string }).markdown)))
    .join('');

test('an LQG design asked in words runs the playbook: analysis, lqr, kalman, reg, feedback(+1), step, report — values as SciPy', async () => {
  const ev = await collectTurn({ prompt: LQG_2 });
  assert.equal(ev[0].type, 'reading');
  assert.match((ev[0] as { markdown: string }).markdown, /^Computed `lqg\(A, B, C, QXU, QWV\)`/);
  assert.match((ev[0] as { markdown: string }).markdown, /QXU from '\[Q 0; 0 R\] of Q, R'/);
  assert.deepEqual(calls(ev), ['analyse', 'lqr', 'kalman', 'reg', 'feedback', 'step', 'stepinfo']);
  for (const r of results(ev)) assert.equal(r.verification?.ok, true, `${r.tool} verified`);
  const r = ref.lqg_2state;
  nearM(resultOf(ev, 'lqr')!.K, r.K, 1e-9, 'K');
  nearM(resultOf(ev, 'kalman')!.L, r.L, 1e-9, 'L');
  sameSet(resultOf(ev, 'feedback')!.poles as Complex[], r.closedLoopPoles, 1e-8, 'closed-loop poles');
  // T from d to y as SciPy's ss2tf of the assembled loop; its s³ coefficient is exactly 0 (relative
  // degree 2, as C·B = [1 0]·[0; 1] = 0) where SciPy keeps its rounding (1e-14): shown cleaned, not '−3.55e-15s^3'
  const fb = resultOf(ev, 'feedback')!;
  const num = [...Array(5 - fb.num.length).fill(0), ...fb.num].map((c: number) => c / fb.den[0]);
  num.forEach((c: number, i: number) => near(c, r.tfDtoY.num[0][i], 1e-9, `num[${i}]`));
  assert.equal(num[1], 0);
  // the disturbance step settles at the DC gain from d to y
  near(resultOf(ev, 'stepinfo')!.final_value, r.dcGainDtoY[0][0], 1e-6, 'final value');
  // the steps are headed in order, and the report comes last and quotes the results
  const t = text(ev);
  const heads = [...t.matchAll(/### Step (\d) of 6: ([^\n]+)/g)].map((m) => `${m[1]} ${m[2]}`);
  assert.deepEqual(heads, ['1 Analysis', '2 Regulator (LQR)', '3 Estimator (Kalman filter)', '4 Compensator', '5 Closed loop', '6 Disturbance step']);
  assert.match(t, /### Report[\s\S]*\| Regulator \| K; eig\(A − BK\) \| \[0\.236068 0\.236068\]/);
  assert.match(t, /\| Closed loop \| poles \| [^|]*\(stable\) \| ✔ verified \|/);
  assert.equal(ev.at(-1)?.type, 'done');
});

test('the LQG playbook on the example pendulum file (Q, R from the selection; noise weights asked back, then given)', async () => {
  const conv = new Conversation();
  const first = await collectTurn({ prompt: 'design an LQG controller for this plant', context: { text: PENDULUM, label: 'pendulum.m' }, conversation: conv });
  const ask = first.find((e) => e.type === 'ask') as Extract<TurnEvent, { type: 'ask' }>;
  assert.ok(ask, 'the noise covariances are asked, not guessed');
  assert.match(ask.question, /QWV/);
  assert.equal(calls(first).length, 0);
  assert.equal(ask.candidates.length, 1);
  assert.match(ask.candidates[0].prompt, /Qn=eye\(4\), Rn=eye\(2\)$/);
  const ev = await collectTurn({ prompt: ask.candidates[0].prompt, context: { text: PENDULUM, label: 'pendulum.m' }, conversation: conv });
  assert.deepEqual(calls(ev).slice(0, 6), ['analyse', 'lqr', 'kalman', 'reg', 'feedback', 'step']);
  const r = ref.lqg_pendulum;
  nearM(resultOf(ev, 'lqr')!.K, r.K, 1e-7, 'K');
  nearM(resultOf(ev, 'kalman')!.L, r.L, 1e-7, 'L');
  sameSet(resultOf(ev, 'feedback')!.poles as Complex[], r.closedLoopPoles, 1e-6, 'closed-loop poles');
  assert.match((ev[0] as { markdown: string }).markdown, /the selection \(pendulum\.m\)/);
});

test('a cancelled step keeps the steps before it; "resume" runs from there and reuses them', async () => {
  const conv = new Conversation();
  const ac = new AbortController();
  const first: TurnEvent[] = [];
  for await (const e of runTurn({ prompt: LQG_2, conversation: conv }, { signal: ac.signal })) {
    first.push(e);
    // cancel as the third step (kalman) starts
    if (e.type === 'tool_call' && e.tool === 'kalman') ac.abort();
  }
  assert.deepEqual(calls(first), ['analyse', 'lqr', 'kalman']);
  const ask = first.find((e) => e.type === 'ask') as Extract<TurnEvent, { type: 'ask' }>;
  assert.match(ask.question, /stopped at step 3 of 6 \(Estimator \(Kalman filter\)/);
  assert.match(ask.question, /Steps 1–2 are kept/);
  assert.deepEqual(Object.keys(conv.checkpoint!.done), ['analysis', 'regulator']);
  // the checkpoint travels with the conversation (chat metadata, --session)
  const restored = Conversation.fromJSON(JSON.parse(JSON.stringify(conv.toJSON())));
  const ev = await collectTurn({ prompt: ask.candidates[0].prompt, conversation: restored });
  assert.match((ev[0] as { markdown: string }).markdown, /Resumed the LQG design of turn 1 at step 3/);
  assert.deepEqual(calls(ev), ['kalman', 'reg', 'feedback', 'step', 'stepinfo'], 'analyse and lqr are not run again');
  assert.match(text(ev), /### Step 2 of 6: Regulator \(LQR\)[\s\S]*Done in turn 1 \(`lqr`, verified\); reused, not run again/);
  // the report quotes the reused K with the new steps' results
  assert.match(text(ev), /\| Regulator \| K; eig\(A − BK\) \| \[0\.236068 0\.236068\]/);
  nearM(resultOf(ev, 'kalman')!.L, ref.lqg_2state.L, 1e-9, 'L');
  assert.equal(restored.checkpoint, undefined, 'a finished playbook leaves no checkpoint');
  // nothing to resume now: "resume" is not a playbook reading
  const again = readTurn(restored, 'resume');
  assert.ok(!(again.kind === 'call' && again.resume));
});

test('a plant that is not stabilisable stops the LQG playbook after the analysis, saying why; nothing more runs', async () => {
  const conv = new Conversation();
  const ev = await collectTurn({
    prompt: 'design an LQG controller for A=[1 0; 0 -1], B=[0;1], C=[1 1] with Q=eye(2), R=1, Qn=eye(2), Rn=1',
    conversation: conv,
  });
  assert.deepEqual(calls(ev), ['analyse']);
  assert.match(text(ev), /stops at step 1 \(Analysis\):\*\* \(A, B\) is not stabilisable/);
  assert.ok(!ev.some((e) => e.type === 'ask'), 'no resume for a plant that cannot be stabilised');
  assert.equal(conv.checkpoint, undefined);
});

test('a PID design in words runs pidtune → margins of L → closed-loop step; the numbers are the two conditions solved by SciPy', async () => {
  const ev = await collectTurn({ prompt: 'design a PI controller with 60 degrees phase margin at 0.5 rad/s for G(s) = 1/(s+1)^3' });
  assert.deepEqual(calls(ev), ['pidtune', 'margins', 'feedback', 'step', 'stepinfo']);
  const r = ref.pid_pi;
  const d = resultOf(ev, 'pidtune')!;
  near(d.Kp, r.Kp, 1e-9, 'Kp');
  near(d.Ki, r.Ki, 1e-9, 'Ki');
  const m = resultOf(ev, 'margins')!;
  near(m.pm_deg, r.pm_deg, 1e-7, 'PM of L by the margins tool');
  near(m.w_gc, r.w_gc, 1e-9, 'crossover');
  const si = resultOf(ev, 'stepinfo')!;
  near(si.overshoot_pct, r.overshoot_pct, 2e-3, 'overshoot');
  assert.match(text(ev), /### Report[\s\S]*\| Loop margins \| PM at ωc; GM \| 60° at 0\.5 rad\/s/);
  assert.match(text(ev), /\| Specification \| 3 items \| all met \|/);
  // the closed loop by the feedback tool: its characteristic polynomial is den(L) + num(L) (SciPy's Tcl_den)
  const cl = resultOf(ev, 'feedback')!;
  const den = cl.den as number[];
  r.Tcl_den.forEach((c: number, i: number) => near(den[i] / den[0], c, 1e-9, `closed-loop den[${i}]`));
});

test('a call or a slash command is the one tool, not the playbook', async () => {
  const c1 = new Conversation();
  const r1 = readTurn(c1, 'lqg(ss(A,B,C,0), QXU, QWV) with A=[0 1; -2 -3], B=[0;1], C=[1 0], QXU=eye(3), QWV=diag([1 1 0.1])');
  assert.equal(r1.kind, 'call');
  if (r1.kind === 'call') assert.notEqual(r1.plan, 'playbook');
  const ev = await collectTurn({ prompt: 'A=[0 1; -2 -3], B=[0;1], C=[1 0], QXU=eye(3), QWV=diag([1 1 0.1])', command: 'lqg' });
  assert.deepEqual(calls(ev), ['lqg']);
});

test('LQG weights of the wrong size are asked back, never padded', () => {
  const r = readTurn(new Conversation(), 'design an LQG controller for A=[0 1; -2 -3], B=[0;1], C=[1 0] with Q=eye(2), R=1, Qn=1, Rn=0.1');
  assert.equal(r.kind, 'ask');
  if (r.kind === 'ask') assert.match(r.question, /Qn is 1x1 but must be 2x2/);
});

test('/plan shows the playbook calls with their arguments and runs nothing; the conversation is unchanged', async () => {
  const conv = new Conversation();
  const before = JSON.stringify(conv.toJSON());
  const ev = await collectTurn({ prompt: LQG_2, command: 'plan', conversation: conv });
  assert.deepEqual(calls(ev), []);
  assert.deepEqual(
    ev.map((e) => e.type),
    ['reading', 'plan', 'ask', 'metrics', 'done'],
  );
  const plan = ev.find((e) => e.type === 'plan') as Extract<TurnEvent, { type: 'plan' }>;
  assert.deepEqual(
    plan.steps.map((s) => s.tool),
    ['analyse', 'lqr', 'kalman', 'reg', 'feedback', 'step'],
  );
  assert.equal(plan.steps[3].args.K, '← K of step 2 (lqr)');
  assert.equal(plan.steps[3].args.L, '← L of step 3 (kalman)');
  assert.equal(plan.steps[2].args.Rn, '0.1');
  assert.match((ev[0] as { markdown: string }).markdown, /^Would compute `lqg/);
  const ask = ev.find((e) => e.type === 'ask') as Extract<TurnEvent, { type: 'ask' }>;
  assert.deepEqual(ask.candidates, [{ label: 'Run it', prompt: LQG_2 }]);
  assert.equal(JSON.stringify(conv.toJSON()), before);
});

test('/plan of a single request lists its plan: a transfer function realised, the default grid said, the margins', async () => {
  const ev = await collectTurn({ prompt: 'bode of G(s) = 10/(s(s+1)(s+5))', command: 'plan' });
  assert.deepEqual(calls(ev), []);
  const plan = ev.find((e) => e.type === 'plan') as Extract<TurnEvent, { type: 'plan' }>;
  assert.deepEqual(
    plan.steps.map((s) => s.tool),
    ['tf2ss', 'freqresp', 'margins'],
  );
  assert.equal(plan.steps[0].args.den, '[1 6 5 0]');
  assert.equal(plan.steps[1].args.A, '← A of step 1 (tf2ss)');
  assert.match(plan.steps[1].args.w, /log-spaced frequencies .* chosen when it runs/);
});

test('/plan of a request that needs a model says so and runs nothing', async () => {
  const ev = await collectTurn({ prompt: 'what is the separation principle?', command: 'plan' });
  assert.deepEqual(calls(ev), []);
  assert.match(text(ev), /Nothing to plan/);
});

test('MCP prompts: each playbook is offered with its tool arguments; prompts/get lists the calls in order, later arguments named', async () => {
  const { McpServer } = await import('../../src/core/mcp/server.js');
  const s = new McpServer();
  const ask = async (method: string, params: unknown) => JSON.parse((await s.handleLine(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })))!);
  const init = await ask('initialize', { protocolVersion: '2025-06-18' });
  assert.deepEqual(init.result.capabilities.prompts, { listChanged: false });
  const list = (await ask('prompts/list', {})).result.prompts as { name: string; arguments: { name: string; required?: boolean }[] }[];
  assert.deepEqual(
    list.map((p) => p.name),
    ['lqg_design', 'pid_design'],
  );
  const lqg = list.find((p) => p.name === 'lqg_design')!;
  assert.deepEqual(
    lqg.arguments.filter((a) => a.required).map((a) => a.name),
    ['A', 'B', 'C', 'QXU', 'QWV'],
  );
  const got = await ask('prompts/get', {
    name: 'lqg_design',
    arguments: { A: '[0 1; -2 -3]', B: '[0; 1]', C: '[1 0]', QXU: 'eye(3)', QWV: '[[1,0,0],[0,1,0],[0,0,0.1]]' },
  });
  const text = got.result.messages[0].content.text as string;
  const calls = [...text.matchAll(/Call `(\w+)` with/g)].map((m) => m[1]);
  assert.deepEqual(calls, ['analyse', 'lqr', 'kalman', 'reg', 'feedback', 'step']);
  assert.match(text, /Call `lqr` with \{"A":\[\[0,1\],\[-2,-3\]\],"B":\[\[0\],\[1\]\],"Q":\[\[1,0\],\[0,1\]\],"R":\[\[1\]\]\}/);
  assert.match(text, /"Rn":\[\[0\.1\]\]/);
  assert.match(text, /"K":"<K of step 2 \(lqr\)>","L":"<L of step 3 \(kalman\)>"/);
  assert.match(text, /Stop here, saying so, if \(A, B\) is not stabilisable/);
  // a bad argument is a JSON-RPC error naming it, not a prompt with a wrong plan
  const bad = await ask('prompts/get', { name: 'lqg_design', arguments: { A: '[0 1; -2 -3]', B: '[0; 1]', C: '[1 0]', QXU: 'eye(3)' } });
  assert.equal(bad.error.code, -32602);
  assert.match(bad.error.message, /QWV/);
  // a step whose system is an earlier result gets its A, B, C, D named, and the grid the chat would choose is said
  const pid = await ask('prompts/get', { name: 'pid_design', arguments: { num: '[1]', den: '[1 3 3 1]', type: 'PI', wc: '0.5', pm: '60' } });
  const ptext = pid.result.messages[0].content.text as string;
  assert.deepEqual(
    [...ptext.matchAll(/Call `(\w+)` with/g)].map((m) => m[1]),
    ['pidtune', 'margins', 'feedback', 'step'],
  );
  assert.match(
    ptext,
    /Call `step` with \{"A":"<A of step 3 \(feedback\)>","B":"<B of step 3 \(feedback\)>","C":"<C of step 3 \(feedback\)>","D":"<D of step 3 \(feedback\)>","t":"<a time grid: uniform, 0 to about 8/,
  );
  const unknown = await ask('prompts/get', { name: 'nope', arguments: {} });
  assert.match(unknown.error.message, /Unknown prompt: nope/);
});

test('a PID design to time-domain targets: the report names what the design misses (SciPy: settling 5.914 s > 5 s, test/fixtures/pid/spec_ref.py)', async () => {
  const ev = await collectTurn({ prompt: 'design a PI controller for G(s) = 1/(s+1)^2 with overshoot under 10 % and settling time under 5 s' });
  assert.deepEqual(calls(ev).slice(0, 3), ['pidtune', 'margins', 'feedback']);
  const ref2 = JSON.parse(readFileSync(new URL('../fixtures/pid/spec_ref.json', import.meta.url), 'utf8')).cases[1];
  assert.deepEqual(ref2.targets, { overshoot_pct: 10, settling_time: 5 });
  assert.equal(ref2.verdict.settling_time, false);
  near(resultOf(ev, 'stepinfo')!.settling_time, ref2.achieved.step.settling_time, 1e-3, 'settling time of the closed loop');
  assert.match(text(ev), /\| Specification \| \d items \| \*\*missed\*\*: settling time \(2 %\) 5\.914\d* s \(target ≤ 5 s\)/);
});

test('a reading note that starts with a symbol keeps it: α = 1 is not written Α = 1', () => {
  const r = readTurn(
    new Conversation(),
    "CBF safety filter for x1' = u1; x2' = u2 with barrier h = x1^2 + x2^2 - 1 and nominal u = [2 - x1; -x2] from x0 = [-3; 0.5] for 10 s",
  );
  assert.equal(r.kind, 'call');
  if (r.kind === 'call') {
    const line = describeReading(r);
    assert.match(line, /α = 1 \(default/);
    assert.doesNotMatch(line, /Α = 1/);
  }
});
