#!/usr/bin/env node
// Runs every source command of the conversation families (questions_turns.mjs) through our
// solver (node dist/cli.js solve <tool> '<args>' --json) and compares the value at each number's
// path with the independent reference (turns_ref.json), sign included. A disagreement is a
// finding about the solver or the reference, never a reason to edit the expected value.
// Run after `npm run build`:  node benchmarks/turns_check.mjs
import { TURN_ITEMS } from './questions_turns.mjs';
import { getPath, parseSource, relErr, solve } from './lib.mjs';

const cache = new Map();
const run = (source) => {
  if (!cache.has(source)) cache.set(source, solve(...parseSource(source)));
  return cache.get(source);
};

let checked = 0;
const problems = [];
for (const item of TURN_ITEMS) {
  const turns = item.turns ?? [{ question: item.question, expect: item.expect }];
  turns.forEach((t, i) => {
    for (const src of t.expect.sources ?? []) {
      const out = run(src);
      if ('error' in out) problems.push(`${item.id} turn ${i + 1}: ${src} refused: ${out.error}`);
    }
    for (const x of t.expect.numbers) {
      if (!x.path) continue;
      const out = run(x.source);
      if ('error' in out) continue;
      const got = getPath(out.result, x.path);
      checked++;
      if (typeof got !== 'number' || relErr(got, x.value) > x.rtol)
        problems.push(`${item.id} turn ${i + 1} ${x.ref} (${x.path}): reference ${x.value}, solver ${got}`);
    }
  });
}
console.log(`${checked} numbers compared with the solver, ${problems.length} disagreement(s)`);
if (problems.length) {
  console.log(problems.join('\n'));
  process.exitCode = 1;
}
