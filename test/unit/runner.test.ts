// Issue 11: the one verified call path (tools/runner.ts): a result the verifier rejects, or a
// non-finite number the tool's contract does not allow, is an error; arguments cannot reach an
// object's prototype. The solver threads' budgets, cancellation and replacement:
// test/slow/runner.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ControlError } from '../../src/core/errors.js';
import { callTool, unexpectedNonFinite, VerificationFailed } from '../../src/core/tools/runner.js';
import type { ToolDef } from '../../src/core/tools/types.js';

test('fail closed: a result the verifier rejects is an error that carries the failed checks', async () => {
  // dlqr with an unstable mode at 1.2 that B reaches only through 1e-17 (the probe's case): no
  // gain can be trusted; before, one left with exit 0 and "stable (spectral radius 0.833)"
  await assert.rejects(
    callTool('dlqr', {
      A: [
        [1.1, 0],
        [0, 1.2],
      ],
      B: [[1], [1e-17]],
      Q: [
        [1, 0],
        [0, 1],
      ],
      R: [[1]],
    }),
    (e: unknown) => {
      assert.ok(e instanceof ControlError, String(e));
      if (e instanceof VerificationFailed) assert.ok(e.verification.checks.some((c) => !c.ok));
      return true;
    },
  );
});

test('fail closed: a non-finite number outside the fields a tool declares is refused', () => {
  const tool = { name: 'margins', nonFinite: ['gm', 'w_pc'] } as unknown as ToolDef;
  assert.deepEqual(unexpectedNonFinite(tool, { gm: Infinity, w_pc: NaN, pm_deg: 45 }), []);
  assert.deepEqual(unexpectedNonFinite(tool, { gm: 2, w_pc: 1, pm_deg: NaN }), ['pm_deg']);
  const plain = { name: 'lqr' } as unknown as ToolDef;
  assert.deepEqual(unexpectedNonFinite(plain, { K: [[1, NaN]], X: [[1]], poles: [[-1, Infinity]] }), ['K', 'poles']);
});

test('arguments cannot reach the prototype: __proto__, constructor, toString are unknown arguments', async () => {
  // JSON.parse makes "__proto__" an own key; copied into a plain object it became the
  // prototype, and eig solved A = [[4]] read through it
  for (const text of ['{"__proto__": {"A": [[4]]}}', '{"A": [[1]], "constructor": 1}', '{"A": [[1]], "toString": [[1]]}', '{"A": [[2]], "__proto__": null}']) {
    await assert.rejects(
      callTool('eig', JSON.parse(text)),
      (e: unknown) => e instanceof ControlError && /needs argument A|has no argument (__proto__|constructor|toString)/.test(e.message),
      text,
    );
  }
});

test('an argument nested thousands deep is a clear refusal, never a stack overflow ("internal error")', async () => {
  let v: unknown = 1;
  for (let i = 0; i < 5000; i++) v = [v];
  await assert.rejects(callTool('eig', { A: v }), (e: unknown) => e instanceof ControlError && /A is nested 5 or more levels deep/.test(e.message));
  await assert.rejects(callTool('eig', { A: '['.repeat(5000) + '1' + ']'.repeat(5000) }), (e: unknown) => e instanceof ControlError);
});
