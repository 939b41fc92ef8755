// The verifier probe (issue 11): random valid problems for every tool, each through
// prepareArgs + tool.run + verify; prints the counts by outcome and by tool, and the distinct
// kinds of verifier throws and rejections. Seeded, so two runs print the same.
//   node --import tsx scripts/verify-probe.ts [--seed 11] [--count 1500] [--out bad.jsonl] [--tool NAME]
// --out writes every bad problem (args, outcome) as JSONL, for a SciPy cross-check.
import { writeFileSync } from 'node:fs';
import { generateProblems, runProbe } from '../test/fixtures/verifyProbe.js';

const argv = process.argv.slice(2);
const opt = (k: string, d: string) => {
  const i = argv.indexOf(k);
  return i >= 0 ? argv[i + 1] : d;
};
const seed = Number(opt('--seed', '11'));
const count = Number(opt('--count', '1500'));
const out = opt('--out', '');
const only = opt('--tool', '');

let problems = generateProblems(seed, count);
if (only) problems = problems.filter((p) => p.tool === only);
const t0 = performance.now();
const s = runProbe(problems);
const ms = performance.now() - t0;

console.log(`${s.total} problems (seed ${seed}) in ${(ms / 1000).toFixed(1)} s`);
for (const [k, v] of Object.entries(s.counts)) console.log(`  ${k.padEnd(15)} ${v}`);
console.log('\nby tool:');
for (const [tool, c] of Object.entries(s.byTool))
  console.log(
    `  ${tool.padEnd(12)} ${Object.entries(c)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
const kinds = new Map<string, number>();
for (const { problem, outcome } of s.bad) {
  const what =
    outcome.status === 'rejected'
      ? outcome.failed.map((f) => f.split(':')[0]).join(' + ')
      : outcome.status === 'non-finite'
        ? outcome.fields.join(', ')
        : 'message' in outcome
          ? outcome.message.replace(/[-\d.e+]+/g, '#').slice(0, 90)
          : '';
  const key = `${problem.tool} ${outcome.status}: ${what}`;
  kinds.set(key, (kinds.get(key) ?? 0) + 1);
}
if (kinds.size) {
  console.log('\nkinds of bad outcome:');
  for (const [k, v] of [...kinds].sort((a, b) => b[1] - a[1])) console.log(`  ${String(v).padStart(4)}  ${k}`);
}
if (out) {
  writeFileSync(out, s.bad.map((b) => JSON.stringify({ ...b.problem, outcome: b.outcome })).join('\n') + (s.bad.length ? '\n' : ''));
  console.log(`\n${s.bad.length} bad problems -> ${out}`);
}
