// The verifier over every oracle problem our solvers answer: it must not be too strict (a
// right answer rejected). Its checks one by one, against closed forms: test/unit/verify.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { verify } from '../../src/core/verify/index.js';
import { prepareArgs } from '../../src/core/tools/call.js';

test('every oracle problem our solvers answer passes our own verifier (it is not too strict)', async () => {
  const lines = readFileSync('test/fixtures/oracle/problems.jsonl', 'utf8').trim().split('\n');
  const failures: string[] = [];
  let verified = 0;
  for (const line of lines) {
    const p = JSON.parse(line);
    let args, result;
    try {
      const pa = prepareArgs(p.tool, p.args, { maxN: 500 });
      args = pa.args;
      result = pa.tool.run(args);
    } catch {
      continue; // refusals are judged by the oracle test
    }
    const v = verify(p.tool, args, result as Record<string, unknown>);
    if (v) verified++;
    if (v && !v.ok)
      failures.push(
        `${p.id}: ${v.checks
          .filter((c) => !c.ok)
          .map((c) => c.detail)
          .join('; ')}`,
      );
  }
  assert.deepEqual(failures, []);
  assert.ok(verified > 400, `only ${verified} results had a check`);
});
