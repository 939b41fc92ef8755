// Dev helper: solve a problems.jsonl with the tool table and write results.jsonl, so the
// shared Python checker (or test/oracle/check.ts) can score it.
//   node --import tsx scripts/oracle.ts [problems.jsonl] [results.jsonl] [--tool NAME]
import { readFileSync, writeFileSync } from 'node:fs';
import { solveJsonl } from '../src/core/tools/batch.js';

const argv = process.argv.slice(2);
const toolIdx = argv.indexOf('--tool');
const only = toolIdx >= 0 ? argv.splice(toolIdx, 2)[1] : undefined;
const [inp = 'test/fixtures/oracle/problems.jsonl', out = 'results.jsonl'] = argv;
let text = readFileSync(inp, 'utf8');
if (only)
  text = text
    .split('\n')
    .filter((l) => l.includes(`"tool": "${only}"`) || l.includes(`"tool":"${only}"`))
    .join('\n');
const t0 = performance.now();
const lines = solveJsonl(text);
writeFileSync(out, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
console.error(`${lines.length} problems in ${(performance.now() - t0).toFixed(0)} ms -> ${out}`);
