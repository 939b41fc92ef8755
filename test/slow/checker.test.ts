/**
 * The TypeScript port of the oracle checker (test/oracle/check.ts) over the whole oracle and
 * CAREX fixtures: expected answers score perfectly, perturbed answers fail exactly the problems
 * the Python check.py fails (test/oracle/python-verdicts.json, made by test/oracle/validate.ts
 * --write-verdicts). Single problems and the assignment step: test/unit/checker.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { byId, parseJsonl, scoreAll, type ProblemLine, type ResultLine } from '../oracle/check.js';
import { perturb } from '../oracle/perturb.js';

const fixture = (set: string, file: string) => readFileSync(new URL(`../fixtures/${set}/${file}`, import.meta.url), 'utf8');
const load = (set: string) => ({
  problems: parseJsonl<ProblemLine>(fixture(set, 'problems.jsonl')),
  expected: parseJsonl<ResultLine>(fixture(set, 'expected.jsonl')),
});
const verdicts = JSON.parse(readFileSync(new URL('../oracle/python-verdicts.json', import.meta.url), 'utf8')) as Record<string, { failed: string[] }>;

for (const [set, count] of [
  ['oracle', 512],
  ['carex', 69],
] as const) {
  test(`${set}: expected.jsonl scored against itself passes all ${count}`, () => {
    const { problems, expected } = load(set);
    const exp = byId(expected);
    const { passed, failed, rows } = scoreAll(problems, exp, exp);
    const fails = rows.flatMap((r) => r.failed.map((f) => `${f.id}: ${f.note}`));
    assert.equal(failed, 0, fails.join('\n'));
    assert.equal(passed, count);
  });

  test(`${set}: perturbed answers fail the same problems as the Python checker`, () => {
    const { problems, expected } = load(set);
    const { lines, modes } = perturb(expected, 1);
    const failedIds: string[] = [];
    scoreAll(problems, byId(expected), byId(lines), {
      onProblem: (p, r) => {
        if (!r.ok) failedIds.push(p.id);
      },
    });
    assert.deepEqual(failedIds.sort(), verdicts[set].failed);
    // and the obvious ones: a dropped line, an error for a result, a made-up result for an error
    const failed = new Set(failedIds);
    for (const [id, m] of modes) {
      if (m === 'drop' || m === 'error' || m === 'result') assert.ok(failed.has(id), `${id} (${m}) must fail`);
      if (m === 'keep') assert.ok(!failed.has(id), `${id} (unchanged) must pass`);
    }
  });
}
