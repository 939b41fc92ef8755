/**
 * A system is a transfer function (num, den) or a state-space model (A, B, C, D), never a
 * mix. Issue 11: `D` given with num/den was silently dropped (margins of 1/(s+1) with D = 5
 * answered for 1/(s+1), as if D were not there); B or C with num/den were refused, D was not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TOOLS } from '../../src/core/tools/table.js';
import { runTool } from '../../src/core/tools/call.js';
import { ControlError } from '../../src/core/errors.js';

const TF = { num: [1], den: [1, 1] };
const SS = { A: [[-1]], B: [[1]], C: [[1]] };

/** the tools whose schema takes both a transfer function and a state-space model */
const both = TOOLS.filter((t) => 'num' in t.parameters.properties && 'D' in t.parameters.properties);

/** what else each tool needs besides the system (a sample time, a point, an input, an order) */
const EXTRA: Record<string, Record<string, unknown>> = {
  c2d: { Ts: 0.1 },
  d2c: { Ts: 0.1 },
  d2d: { Ts: 0.1, newTs: 0.2 },
  evalfr: { s: [1, 1] },
  lsim: { signal: 'step', tfinal: 1 },
  // order 1 of a 1-state model is no reduction: a 2-state model for balred
  balred: { order: 1 },
  pade: { T: 0.5, N: 2 },
  // a PI: with a feedthrough D the plant is biproper, and an ideal derivative would make C·P improper
  pidtune: { type: 'PI' },
  // a loop gain whose |K·P| crosses 1 for both forms: 1.5/(s + 1) at ω = 1.118, and with D = 0.5 between 2.25 and 0.75
  leadlag: { K: 1.5 },
};
/** the discrete tools' model is discrete (a pole at z = 0.5, where d2c's logarithm is real) */
const DISCRETE = new Set(['d2c', 'd2d']);
const tfFor = (t: string) => ({ ...(DISCRETE.has(t) ? { num: [1], den: [1, -0.5] } : t === 'balred' ? { num: [1], den: [1, 3, 2] } : TF), ...EXTRA[t] });
const ssFor = (t: string) => ({
  ...(DISCRETE.has(t)
    ? { ...SS, A: [[0.5]] }
    : t === 'balred'
      ? {
          A: [
            [-1, 0],
            [0, -2],
          ],
          B: [[1], [1]],
          C: [[1, 1]],
        }
      : SS),
  ...EXTRA[t],
});

test('every tool that takes num/den and D refuses D beside num/den, naming the arguments given', () => {
  assert.ok(both.length >= 5, both.map((t) => t.name).join(', '));
  for (const t of both)
    assert.throws(
      () => runTool(t.name, { ...tfFor(t.name), D: [[5]] }),
      (e: unknown) =>
        e instanceof ControlError &&
        /give either A, B, C, D or num\/den, not both/.test(e.message) &&
        /you gave num, den and D/.test(e.message) &&
        e.message.startsWith(`${t.name}:`),
      t.name,
    );
});

test('any state-space matrix beside num/den is refused the same way; each form alone still works', () => {
  for (const t of both) {
    for (const k of ['A', 'B', 'C'] as const)
      assert.throws(
        () => runTool(t.name, { ...tfFor(t.name), [k]: SS[k] }),
        (e: unknown) => e instanceof ControlError && new RegExp(`you gave num, den and ${k}`).test(e.message),
        `${t.name} ${k}`,
      );
    assert.throws(() => runTool(t.name, { num: [1], ...ssFor(t.name), D: [[0]] }), /you gave num, A, B, C and D/, t.name);
    assert.doesNotThrow(() => runTool(t.name, tfFor(t.name)), t.name);
    assert.doesNotThrow(() => runTool(t.name, { ...ssFor(t.name), D: [[0.5]] }), t.name);
  }
});

test('the refusal says how to write a feedthrough into the transfer function', () => {
  assert.throws(() => runTool('margins', { ...TF, D: [[5]] }), /num = D·den \+ N/);
});

test('a tool that takes only num/den refuses D as an argument it does not take', () => {
  for (const t of TOOLS.filter((x) => 'num' in x.parameters.properties && !('D' in x.parameters.properties)))
    assert.throws(() => runTool(t.name, { ...TF, D: [[5]] }), /has no argument D/, t.name);
});
