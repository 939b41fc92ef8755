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

test('every tool that takes num/den and D refuses D beside num/den, naming the arguments given', () => {
  assert.ok(both.length >= 5, both.map((t) => t.name).join(', '));
  for (const t of both)
    assert.throws(
      () => runTool(t.name, { ...TF, D: [[5]] }),
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
        () => runTool(t.name, { ...TF, [k]: SS[k] }),
        (e: unknown) => e instanceof ControlError && new RegExp(`you gave num, den and ${k}`).test(e.message),
        `${t.name} ${k}`,
      );
    assert.throws(() => runTool(t.name, { num: [1], ...SS, D: [[0]] }), /you gave num, A, B, C and D/, t.name);
    assert.doesNotThrow(() => runTool(t.name, TF), t.name);
    assert.doesNotThrow(() => runTool(t.name, { ...SS, D: [[0.5]] }), t.name);
  }
});

test('the refusal says how to write a feedthrough into the transfer function', () => {
  assert.throws(() => runTool('margins', { ...TF, D: [[5]] }), /num = D·den \+ N/);
});

test('a tool that takes only num/den refuses D as an argument it does not take', () => {
  for (const t of TOOLS.filter((x) => 'num' in x.parameters.properties && !('D' in x.parameters.properties)))
    assert.throws(() => runTool(t.name, { ...TF, D: [[5]] }), /has no argument D/, t.name);
});
