/**
 * The oracle's 512 reference problems (test/fixtures/oracle), solved through the tool table
 * (solveProblem: coercion, validation, solver) and scored by the checker port. One subtest
 * per tool the oracle covers; an oracle tool missing from the table fails (deleting a tool
 * from the table must never leave a green run).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { solveProblem } from '../../src/core/tools/batch.js';
import { TOOLS } from '../../src/core/tools/table.js';
import { checkProblem, parseJsonl, type ProblemLine, type ResultLine } from '../oracle/check.js';

export function runOracleSet(set: string, label: string): void {
  const read = (f: string) => readFileSync(new URL(`../fixtures/${set}/${f}`, import.meta.url), 'utf8');
  const problems = parseJsonl<ProblemLine>(read('problems.jsonl'));
  const expected = new Map(parseJsonl<ResultLine>(read('expected.jsonl')).map((l) => [l.id, l]));
  const inTable = new Set(TOOLS.map((t) => t.name));
  const tools = [...new Set(problems.map((p) => p.tool))];

  for (const tool of tools) {
    const mine = problems.filter((p) => p.tool === tool);
    if (!inTable.has(tool)) {
      test(`${label} ${tool}: in the tool table`, () => assert.fail(`${tool} is not in the tool table: ${mine.length} ${label} problems cannot be solved`));
      continue;
    }
    test(`${label} ${tool}: all ${mine.length} problems pass`, async (t) => {
      const failures: string[] = [];
      for (const p of mine) {
        const exp = expected.get(p.id);
        assert.ok(exp, `no expected answer for ${p.id}`);
        // the verified call path every front end uses: a result the verifier rejects is an error line
        const got = (await solveProblem({ id: p.id, tool: p.tool, args: p.args })) as ResultLine;
        const r = checkProblem(p, exp, got);
        if (!r.ok) failures.push(`${p.id}: err=${r.err.toExponential(2)} ${r.note}`);
      }
      t.diagnostic(`${tool}: ${mine.length - failures.length}/${mine.length} passed`);
      assert.equal(failures.length, 0, `${tool}: ${failures.length} of ${mine.length} failed:\n  ${failures.join('\n  ')}`);
    });
  }
}

runOracleSet('oracle', 'oracle');
