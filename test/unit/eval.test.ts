// The ControlBench harness, run against scripted engines: the reference engine must score
// full marks (or the harness or the data is wrong), and engines that err must lose exactly
// the marks they deserve.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadQuestions, referenceEngine, runEval } from '../../scripts/eval.js';
import { numbersIn, summarise } from '../../scripts/evalScore.js';
import { ScriptedEngine } from '../../src/core/engines/scripted.js';

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
    for (const x of q.expect.numbers as { ref?: string; value: number }[]) {
      assert.ok(x.ref, `${q.id}: a number without ref`);
      const [d, k] = x.ref.split('.');
      assert.equal(x.value, ref[d]?.[k], `${q.id} ${x.ref}`);
      n++;
    }
  assert.ok(n >= 100, `${n} numbers`);
  assert.ok(design.filter((q) => q.expect.error).length >= 3);
});

test('numbers are read from prose, tables and LaTeX', () => {
  assert.deepEqual(numbersIn('K = [1, 1.73205], poles −0.866 ± 0.5j, 3.2e-16, |1.5|'), [1, 1.73205, -0.866, 0.5, 3.2e-16, 1.5]);
});

test('the reference engine scores full marks on every question (harness self-test)', async () => {
  const scores = await runEval(questions, referenceEngine);
  const all = summarise(scores).at(-1)!;
  const bad = scores.filter((s) => !s.tool || s.args === false || (s.numbers !== null && s.numbers < 1) || s.refusal === false);
  assert.deepEqual(
    bad.map((s) => s.id),
    [],
  );
  assert.equal(all.tool, 1);
  assert.equal(all.numbers, 1);
});

test('an engine that never calls a tool fails the tool questions and passes the no-tool ones', async () => {
  const scores = await runEval(questions, () => new ScriptedEngine(['I think the answer is 42.']));
  for (const s of scores) {
    const q = questions.find((x) => x.id === s.id)!;
    assert.equal(s.tool, !!q.expect.no_tool || q.expect.tools.length === 0, s.id);
    if (q.expect.numbers.length) assert.equal(s.numbers, 0, s.id);
  }
});

test('wrong arguments are caught', async () => {
  const q = questions.find((x) => x.expect.args?.A && x.expect.tools[0] === 'lqr' && x.expect.args.B)!;
  const wrong = {
    ...q.expect.args,
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
