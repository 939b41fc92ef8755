/**
 * Validation of the checker port against the Python original (needs python3 with numpy and
 * scipy, and the original check.py; not part of `npm test`):
 *
 *   node --import tsx test/oracle/validate.ts /work/shared/oracle/check.py [seeds] [--write-verdicts]
 *
 * For test/fixtures/oracle and test/fixtures/carex, scores expected.jsonl against itself and
 * against perturbed copies (perturb.ts, seeds 1..N) with both checkers and prints where their
 * verdicts differ. With --write-verdicts it stores the Python verdicts of seed 1 in
 * test/oracle/python-verdicts.json, which test/slow/checker.test.ts compares against.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { byId, parseJsonl, pyExp, scoreAll, type ProblemLine, type ResultLine } from './check.js';
import { perturb, toJsonl } from './perturb.js';

const root = new URL('../fixtures/', import.meta.url).pathname;
const [checkPy = '/work/shared/oracle/check.py', seedArg = '10'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const writeVerdicts = process.argv.includes('--write-verdicts');
const seeds = Number(seedArg);
const dir = mkdtempSync(join(tmpdir(), 'oracle-validate-'));

function pythonFailures(p: string, e: string, r: string): Map<string, string> {
  const out = execFileSync('python3', [checkPy, p, e, r, '--verbose'], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
  const fails = new Map<string, string>();
  for (const line of out.split('\n')) {
    const m = /^\s+FAIL (\S+): (.*)$/.exec(line);
    if (m) fails.set(m[1], m[2]);
  }
  const last = out.trim().split('\n').pop();
  if (!/^\d+ passed, \d+ failed$/.test(last ?? '')) throw new Error(`unexpected python output: ${last}`);
  return fails;
}

const verdicts: Record<string, Record<string, string[]>> = {};
let disagreements = 0;
for (const set of ['oracle', 'carex']) {
  const pPath = join(root, set, 'problems.jsonl');
  const ePath = join(root, set, 'expected.jsonl');
  const problems = parseJsonl<ProblemLine>(readFileSync(pPath, 'utf8'));
  const expLines = parseJsonl<ResultLine>(readFileSync(ePath, 'utf8'));
  const expected = byId(expLines);
  for (let seed = 0; seed <= seeds; seed++) {
    const { lines, modes } = seed === 0 ? { lines: expLines, modes: new Map() } : perturb(expLines, seed);
    const rPath = join(dir, `${set}-${seed}.jsonl`);
    writeFileSync(rPath, toJsonl(lines));
    const py = pythonFailures(pPath, ePath, rPath);
    const tsFails = new Map<string, string>();
    const { passed, failed } = scoreAll(problems, expected, byId(lines), {
      onProblem: (p, r) => {
        if (!r.ok) tsFails.set(p.id, `err=${pyExp(r.err, 3)} ${r.note}`);
      },
    });
    const onlyPy = [...py.keys()].filter((id) => !tsFails.has(id));
    const onlyTs = [...tsFails.keys()].filter((id) => !py.has(id));
    const byMode = new Map<string, [number, number]>();
    for (const [id, m] of modes) {
      const c = byMode.get(m) ?? [0, 0];
      c[0]++;
      if (tsFails.has(id)) c[1]++;
      byMode.set(m, c);
    }
    console.log(
      `${set} seed ${seed}: TS ${passed} passed ${failed} failed, python ${problems.length - py.size} passed ${py.size} failed; ` +
        `disagree ${onlyPy.length + onlyTs.length}` +
        (seed ? `; failed/perturbed by mode: ${[...byMode].map(([m, [n, f]]) => `${m} ${f}/${n}`).join(', ')}` : ''),
    );
    for (const id of onlyPy) console.log(`   only python fails ${id} [${modes.get(id)}]: ${py.get(id)}`);
    for (const id of onlyTs) console.log(`   only TS fails ${id} [${modes.get(id)}]: ${tsFails.get(id)}`);
    disagreements += onlyPy.length + onlyTs.length;
    if (seed === 1) verdicts[set] = { failed: [...py.keys()].sort() };
  }
}
if (writeVerdicts) {
  writeFileSync(
    new URL('./python-verdicts.json', import.meta.url),
    JSON.stringify(
      { seed: 1, note: 'ids the Python check.py fails on perturb(expected, 1); regenerate with validate.ts --write-verdicts', ...verdicts },
      null,
      1,
    ) + '\n',
  );
  console.log('wrote test/oracle/python-verdicts.json');
}
console.log(`${disagreements} disagreements`);
