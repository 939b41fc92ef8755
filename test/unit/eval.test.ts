// The ControlBench harness, run against scripted engines: the reference engine must score
// full marks (or the harness or the data is wrong), and engines that err must lose exactly
// the marks they deserve.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadQuestions, referenceEngine, runEval } from '../../scripts/eval.js';
import { derivedNumbers, numbersIn, scoreOneTurn, summarise, turnsOf, type Expect, type Question, type Turn } from '../../scripts/evalScore.js';
import { ScriptedEngine } from '../../src/core/engines/scripted.js';
import { NO_MODEL_MESSAGE } from '../../src/core/agent/turn.js';
import type { TurnEvent } from '../../src/core/agent/events.js';
// @ts-expect-error: a plain .mjs module without types (the benchmark scripts' shared helpers)
import { independentProblems } from '../../benchmarks/lib.mjs';

const questions = loadQuestions();

test('the question set: at least 110 questions in the eight families, unique ids', () => {
  assert.ok(questions.length >= 110, `${questions.length}`);
  assert.equal(new Set(questions.map((q) => q.id)).size, questions.length);
  const fams = new Set(questions.map((q) => q.family));
  for (const f of ['analysis', 'lqr', 'placement', 'frequency', 'discretisation', 'estimation', 'design', 'concepts']) assert.ok(fams.has(f), f);
});

test('the design family: at least 30 questions, every expected number the independent reference (design_ref.json)', () => {
  // design_ref.json is written by benchmarks/design_ref.py (numpy, scipy, python-control, sympy), not by our solver
  const ref = JSON.parse(readFileSync('benchmarks/design_ref.json', 'utf8')).values as Record<string, Record<string, number>>;
  const design = questions.filter((q) => q.family === 'design');
  assert.ok(design.length >= 30, `${design.length}`);
  let n = 0;
  for (const q of design)
    for (const x of q.expect!.numbers) {
      assert.ok(x.ref, `${q.id}: a number without ref`);
      const [d, k] = x.ref.split('.');
      assert.equal(x.value, ref[d]?.[k], `${q.id} ${x.ref}`);
      n++;
    }
  assert.ok(n >= 100, `${n} numbers`);
  assert.ok(design.filter((q) => q.expect!.error).length >= 3);
});

test('numbers are read from prose, tables and LaTeX', () => {
  assert.deepEqual(numbersIn('K = [1, 1.73205], poles −0.866 ± 0.5j, 3.2e-16, |1.5|'), [1, 1.73205, -0.866, 0.5, 3.2e-16, 1.5]);
  assert.deepEqual(numbersIn('x1 and the H2 norm; 20 log10(2)'), [20, 2]);
});

test('the reference engine scores full marks on every question (harness self-test)', async () => {
  const scores = await runEval(questions, referenceEngine);
  const all = summarise(scores).at(-1)!;
  // a number the answer must derive itself (a crossover asked in Hz: no tool result holds it) is
  // beyond a reference engine that only quotes tool results
  const derives = (id: string) =>
    turnsOf(questions.find((x) => x.id === id)!).some((t) => t.expect.numbers.some((n) => (n as { path?: string }).path === undefined));
  const bad = scores.filter((s) => (!s.pass || s.score !== 1) && !derives(s.id));
  assert.deepEqual(
    bad.map((s) => s.id),
    [],
  );
  assert.equal(all.tool, 1);
  assert.ok(all.numbers! > 0.99, `${all.numbers}`);
  assert.equal(all.content, 1);
});

test('an engine that never calls a tool fails the tool questions and passes the no-tool ones', async () => {
  const scores = await runEval(questions, () => new ScriptedEngine(['I think the answer is 42.']));
  for (const s of scores) {
    const q = questions.find((x) => x.id === s.id)!;
    // a conversation's scores are the mean over its turns: the single-turn items make the point
    if (q.turns) continue;
    const [t] = turnsOf(q);
    assert.equal(s.tool, !!t.expect.no_tool || !!t.expect.ask || t.expect.tools.length === 0, s.id);
    if (t.expect.numbers.length) assert.equal(s.numbers, 0, s.id);
    // no tool called is no credit by itself: '42' states none of the required content
    if (t.expect.no_tool) assert.equal(s.score, 0, s.id);
  }
});

test('wrong arguments are caught', async () => {
  const q = questions.find((x) => x.expect?.args?.A && x.expect.tools[0] === 'lqr' && x.expect.args.B)!;
  const wrong = {
    ...q.expect!.args,
    A: [
      [0, 1],
      [0, 5],
    ],
  };
  const [s] = await runEval(
    [q],
    () =>
      new ScriptedEngine([
        `<tool_call>${JSON.stringify({
          name: 'lqr',
          arguments: {
            Q: [
              [1, 0],
              [0, 1],
            ],
            R: [[1]],
            ...wrong,
          },
        })}</tool_call>`,
        'done',
      ]),
  );
  assert.equal(s.tool, true);
  assert.equal(s.args, false);
});

// ── the strict scorer on hand-built turns (issue 15): every expected score below is derived by hand ──

const expectOf = (e: Partial<Expect>): Expect => ({ tools: [], numbers: [], ...e });
const turnOf = (question: string, e: Partial<Expect>): Turn => ({ question, expect: expectOf(e) });
const result = (tool: string, res: Record<string, unknown>, markdown = ''): TurnEvent => ({ type: 'tool_result', id: 'c1', tool, result: res, markdown });
const call = (tool: string, args: Record<string, unknown> = {}): TurnEvent => ({ type: 'tool_call', id: 'c1', tool, args });
const text = (t: string): TurnEvent => ({ type: 'text', text: t });

// double integrator, Q = I, R = 1: K = [√(q1/r), √(q2/r + 2√(q1/r))] = [1, √3]
const LQR_DI = turnOf('Design an LQR for the double integrator with Q = I and R = 1.', {
  tools: ['lqr'],
  numbers: [
    { name: 'K[0][0]', value: 1, rtol: 1e-3 },
    { name: 'K[0][1]', value: Math.sqrt(3), rtol: 1e-3 },
  ],
});

test('canned text earns nothing: the expected numbers stated with no tool result, or only in the no-model help text', () => {
  const none = scoreOneTurn(LQR_DI, [text('K = [1, 1.73205]')]);
  assert.equal(none.numbers, 0);
  assert.equal(none.tool, false);
  assert.equal(none.score, 0);
  // NO_MODEL_MESSAGE's examples say R=1; a tool result holding 1 does not make that a stated answer
  const canned = scoreOneTurn(LQR_DI, [call('lqr'), result('lqr', { K: [[1, 1.7320508075688772]] }), text(NO_MODEL_MESSAGE)]);
  assert.equal(canned.numbers, 0);
  assert.equal(canned.score, 0.5); // tool 1, numbers 0
  const stated = scoreOneTurn(LQR_DI, [call('lqr'), result('lqr', { K: [[1, 1.7320508075688772]] }), text('K = [1, 1.73205]')]);
  assert.equal(stated.numbers, 1);
  assert.equal(stated.score, 1);
  assert.equal(stated.pass, true);
  // the tool's own Markdown counts as stated (it is what the product shows), but not for the model-text column
  const shown = scoreOneTurn(LQR_DI, [call('lqr'), result('lqr', { K: [[1, 1.7320508075688772]] }, '`K = [ 1  1.73205 ]`')]);
  assert.equal(shown.numbers, 1);
  assert.equal(shown.numbersInText, 0);
});

test('a fake engine that repeats every expected number without calling a tool gets no number credit on any question', async () => {
  const withNumbers = questions.filter((q) => turnsOf(q).some((t) => t.expect.numbers.length)).slice(0, 40);
  const scores = await runEval(withNumbers, (_q, t) => new ScriptedEngine([`The answer: ${t.expect.numbers.map((n) => n.value).join(', ')}.`]));
  assert.equal(scores.length, 40);
  for (const s of scores) assert.equal(s.numbers, 0, s.id);
});

test('numbers are compared with their sign', () => {
  // closed-loop poles -2 ± 2j: real part -2, positive imaginary part 2
  const t = turnOf('Place the poles.', {
    tools: ['place'],
    numbers: [
      { name: 'poles[0][0]', value: -2, rtol: 1e-3 },
      { name: 'poles[0][1]', value: 2, rtol: 1e-3 },
    ],
  });
  const ev = (s: string) => [
    call('place'),
    result('place', {
      poles: [
        [-2, 2],
        [-2, -2],
      ],
    }),
    text(s),
  ];
  assert.equal(scoreOneTurn(t, ev('The poles are at 2 ± 2j.')).numbers, 0.5);
  assert.equal(scoreOneTurn(t, ev('The poles are at −2 ± 2j.')).numbers, 1);
  // a number of the right size but the wrong sign, and the tool never produced it: nothing
  const flip = turnOf('What is the eigenvalue?', { tools: ['eig'], numbers: [{ name: 'e', value: -3, rtol: 1e-3 }] });
  assert.equal(scoreOneTurn(flip, [call('eig'), result('eig', { eigenvalues: [[3, 0]] }), text('λ = -3')]).numbers, 0);
});

test('derived numbers: credited only when the expression is written and its operands are tool-result numbers', () => {
  const wn = turnOf('What is ωn?', { tools: ['analyse'], numbers: [{ name: 'wn', value: Math.SQRT2, rtol: 1e-3 }] });
  const ev = (s: string) => [call('analyse'), result('analyse', { det: 2 }), text(s)];
  assert.equal(scoreOneTurn(wn, ev('ωn = sqrt(2) = 1.41421 rad/s')).numbers, 1);
  assert.equal(scoreOneTurn(wn, ev('ωn = √2 ≈ 1.414 rad/s')).numbers, 1);
  assert.equal(scoreOneTurn(wn, ev('ωn = 1.41421 rad/s')).numbers, 0); // stated, but no tool result holds it
  assert.equal(scoreOneTurn(wn, ev('ωn = sqrt(3) = 1.41421')).numbers, 0); // 3 is no tool number, and √3 ≠ 1.414
  // 20·log10(2) = 6.0206 dB; 0.5 rad × 180/π = 28.6479°; 2 × 0.5 = 1; 12.5664/(2π) = 2
  assert.deepEqual(derivedNumbers('GM = 20 log10(2) = 6.0206 dB', [2], 1e-3), [6.0206]);
  assert.deepEqual(derivedNumbers('φ = 0.5 × 180/π = 28.6479°', [0.5], 1e-3), [28.6479]);
  assert.deepEqual(derivedNumbers('k = 2 · 0.5 = 1', [2, 0.5], 1e-3), [1]);
  assert.deepEqual(derivedNumbers('f = 12.5664/(2π) = 2 Hz', [12.566370614359172], 1e-3), [2]);
  assert.deepEqual(derivedNumbers('|−0.5| = 0.5', [-0.5], 1e-3), [0.5]);
  // a wrong result, and negation (not an allowed operation), earn nothing
  assert.deepEqual(derivedNumbers('k = 2 · 0.5 = 1.2', [2, 0.5], 1e-3), []);
  assert.deepEqual(derivedNumbers('-(2) = -2', [2], 1e-3), []);
});

const CONCEPT = turnOf('What is the difference between controllability and stabilisability?', {
  no_tool: true,
  content: { all: ['rank'], any: [['unstable', 'right half'], ['uncontrollable']] },
});

test('a conceptual answer is graded by its content, never by the absence of a tool call', () => {
  const capital = scoreOneTurn(CONCEPT, [text('The capital of Australia is Canberra.')]);
  assert.equal(capital.tool, true);
  assert.equal(capital.content, 0);
  assert.equal(capital.score, 0);
  assert.equal(capital.pass, false);
  const good = scoreOneTurn(CONCEPT, [text('Controllable: [B AB … Aⁿ⁻¹B] has full rank n. Stabilisable: every uncontrollable mode is stable, none unstable.')]);
  assert.equal(good.content, 1);
  assert.equal(good.score, 1);
  // two of three requirements (rank, uncontrollable; no unstable/right half)
  assert.equal(scoreOneTurn(CONCEPT, [text('Full rank of the controllability matrix; the uncontrollable modes must decay.')]).content, 2 / 3);
  // the right words, but a tool was called: no credit
  assert.equal(scoreOneTurn(CONCEPT, [call('ctrb_rank'), text('rank, unstable, uncontrollable')]).score, 0);
  // the question echoed back and the no-model help text state nothing
  assert.equal(scoreOneTurn(CONCEPT, [text(CONCEPT.question + '\n\n' + NO_MODEL_MESSAGE)]).content, 0);
  // a cited passage, when required: a reference event
  const cite = turnOf(CONCEPT.question, { no_tool: true, content: { all: ['rank'], cite: true } });
  assert.equal(scoreOneTurn(cite, [text('Full rank.')]).content, 0.5);
  assert.equal(scoreOneTurn(cite, [{ type: 'reference', title: 'notes', uri: 'file:///n.md' }, text('Full rank.')]).content, 1);
});

test('the no-model product path earns nothing on the conceptual and out-of-scope questions (its help text is canned)', async () => {
  // (the ask-back items are no-tool too, and the product path does ask back: not canned)
  const concepts = questions.filter((q) => q.expect?.no_tool && !q.expect.ask);
  assert.ok(concepts.length >= 14);
  const scores = await runEval(concepts, () => undefined);
  for (const s of scores) assert.equal(s.score, 0, s.id);
});

test('an out-of-scope request: a polite refusal with a reason, and no tool', () => {
  const t = turnOf('What is the capital of Australia?', { no_tool: true, out_of_scope: true, content: { any: [['outside', 'cannot help']] } });
  assert.equal(scoreOneTurn(t, [text('That is outside control engineering, so I cannot help with it.')]).score, 1);
  assert.equal(scoreOneTurn(t, [text('Canberra.')]).score, 0);
  assert.equal(scoreOneTurn(t, [text(NO_MODEL_MESSAGE)]).score, 0);
});

test('a question back: an ask event or a question naming what is missing, no tool, no invented numbers', () => {
  const t = turnOf('Discretise G(s) = 1/(s+1) with zoh.', { ask: { missing_any: ['sample time', 'Ts'] } });
  const ask: TurnEvent = { type: 'ask', question: 'Which sample time?', candidates: [] };
  assert.equal(scoreOneTurn(t, [ask]).score, 1);
  assert.equal(scoreOneTurn(t, [text('What sample time Ts should I use?')]).score, 1);
  assert.equal(scoreOneTurn(t, [text('Assuming Ts = 0.1 s, what else?')]).score, 0); // an invented 0.1
  assert.equal(scoreOneTurn(t, [text('Here is the result.')]).score, 0);
  assert.equal(scoreOneTurn(t, [ask, call('c2d')]).score, 0);
  assert.equal(scoreOneTurn(t, [text('Which sample time do you want? With 1/(s+1) the pole is at 1.')]).ask, true); // 1 is from the question
  assert.equal(scoreOneTurn(t, [text('Which sample time Ts should x1 be sampled at?')]).ask, true); // the 1 of x1 is no number
});

test('multi-turn items: the turns share one conversation, and the item scores the mean of its turns', async () => {
  // R = 10: K = [√(1/10), √(1/10 + 2/√10)] = [0.316228, 0.855836], by the same closed form
  const follow: Turn = turnOf('now with R = 10', {
    tools: ['lqr'],
    numbers: [
      { name: 'K[0][0]', value: Math.sqrt(0.1), rtol: 1e-3 },
      { name: 'K[0][1]', value: Math.sqrt(0.1 + 2 / Math.sqrt(10)), rtol: 1e-3 },
    ],
  });
  const first: Turn = { ...LQR_DI, question: 'design an LQR for A=[0 1; 0 0], B=[0;1], Q=eye(2), R=1' };
  const item: Question = { id: 'turns-001', family: 'turns', turns: [first, follow] };
  // the no-model product path: the reader carries A, B, Q from turn 1 into turn 2
  const [product] = await runEval([item], () => undefined);
  assert.deepEqual(
    product.turns.map((t) => t.score),
    [1, 1],
  );
  assert.equal(product.score, 1);
  // an engine that answers turn 1 and then only talks: turn 2 scores 0, the item 0.5
  const engines = [
    new ScriptedEngine([
      `<tool_call>${JSON.stringify({
        name: 'lqr',
        arguments: {
          A: [
            [0, 1],
            [0, 0],
          ],
          B: [[0], [1]],
          Q: [
            [1, 0],
            [0, 1],
          ],
          R: [[1]],
        },
      })}</tool_call>`,
      'K = [1, 1.73205]',
    ]),
    new ScriptedEngine(['K would be smaller.']),
  ];
  const [half] = await runEval([item], (_q, _t, i) => engines[i]);
  assert.deepEqual(
    half.turns.map((t) => t.score),
    [1, 0],
  );
  assert.equal(half.score, 0.5);
  assert.equal(half.pass, false);
});

test('a model on the product path: deterministic first, the model for a question, the earlier turns as its history', async () => {
  const item: Question = {
    id: 'turns-002',
    family: 'turns',
    turns: [{ ...LQR_DI, question: 'design an LQR for A=[0 1; 0 0], B=[0;1], Q=eye(2), R=1' }, CONCEPT],
  };
  const model = new ScriptedEngine(['Full rank n of [B AB]; stabilisable when every uncontrollable mode is stable, none unstable.']);
  const [s] = await runEval([item], () => model, { product: true });
  // turn 1 is read and solved without the model; turn 2 goes to it
  assert.equal(model.seen.length, 1);
  const history = model.seen[0].filter((m) => m.role === 'user' || m.role === 'assistant').map((m) => m.content);
  assert.equal(history[0], item.turns![0].question);
  assert.match(history[1], /1\.73205/); // the first answer, as the chat would pass it
  assert.deepEqual(
    s.turns.map((t) => t.score),
    [1, 1],
  );
});

test('every scored number agrees with its independent value (reference.json from reference.py, design_ref.json), and the check bites', () => {
  const reference = JSON.parse(readFileSync('benchmarks/reference.json', 'utf8'));
  const design = {
    ...JSON.parse(readFileSync('benchmarks/design_ref.json', 'utf8')).values,
    ...JSON.parse(readFileSync('benchmarks/turns_ref.json', 'utf8')).values,
  };
  const { problems, checked } = independentProblems(questions, reference.values, design);
  assert.deepEqual(problems, []);
  const scored = questions.flatMap((q) => turnsOf(q).flatMap((t) => t.expect.numbers)).length;
  assert.equal(checked, scored);
  assert.ok(checked >= 375, `${checked}`);
  assert.deepEqual(reference.not_computed, []);
  // a planted disagreement (2e-3 > rtol 1e-3) and a number without an independent value both fail
  const q = questions.find((x) => x.family === 'lqr')!;
  const n = q.expect!.numbers[0];
  const planted = structuredClone(reference.values);
  planted[n.source!][n.path!] = n.value * 1.002;
  assert.equal(independentProblems([q], planted, design).problems.length, 1);
  delete planted[n.source!][n.path!];
  assert.match(independentProblems([q], planted, design).problems[0], /no independent value/);
});
