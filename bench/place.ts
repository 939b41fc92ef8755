// Pole placement (`place`) across sizes: n = 10, 50, 100, 200 with one and three inputs, on
// the seeded problems of test/fixtures/placeProblems.ts. Per problem: our time for the whole
// solver (controllability staircase, gain, A - BK and its eigenvalues), the largest relative
// pole error |achieved - target| / |target| (eigenvalues of A - BK by the kernel, greedy
// match), beside SciPy's place_poles on the same numbers (bench/place-scipy.json, written by
// test/fixtures/place/scipy_reference.py --bench) and Octave's place (SLICOT SB01BD), run
// live when octave-cli with the control package is installed. Times are CPU time, min of a
// few runs after two warm-up passes over all sizes (a busy machine moves CPU time far less
// than wall time); Octave's too, its BLAS on one thread, as ours is one thread.
//
//   node --import tsx bench/place.ts [--sizes 10,50] [--reps 3]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ControlError } from '../src/core/errors.js';
import { place } from '../src/core/solvers/place.js';
import { eigenvalues } from '../src/core/solvers/statesp.js';
import { placeProblem, poleRelError, type PlaceProblem } from '../test/fixtures/placeProblems.js';

const OCTAVE = `
pkg load control
P = jsondecode(fileread(getenv('PLACE_JSON')));
for k = 1:numel(P)
  q = P(k); if iscell(P), q = P{k}; end
  A = q.A; B = q.B; p = complex(q.poles(:,1), q.poles(:,2));
  warning('off', 'all');
  ts = [];
  for r = 1:q.reps
    t0 = cputime; K = place(A, B, p); ts(end+1) = cputime - t0;
  end
  e = eig(A - B*K); left = p; err = 0;
  for i = 1:numel(e)
    [d, j] = min(abs(left - e(i))); err = max(err, d / abs(left(j))); left(j) = [];
  end
  printf('%d %d %.6f %.6e\\n', q.n, q.m, 1000 * min(ts), err);
end
`;

function octave(problems: PlaceProblem[], reps: number): Map<string, { ms: number; err: number }> {
  const out = new Map<string, { ms: number; err: number }>();
  try {
    execFileSync('octave-cli', ['--version'], { stdio: 'ignore' });
  } catch {
    return out;
  }
  const dir = mkdtempSync(join(tmpdir(), 'place-bench-'));
  try {
    const f = join(dir, 'p.json');
    writeFileSync(f, JSON.stringify(problems.map((p) => ({ ...p, reps: reps + 1 }))));
    writeFileSync(join(dir, 'run.m'), OCTAVE);
    const txt = execFileSync('octave-cli', ['--no-gui', '-q', join(dir, 'run.m')], {
      env: { ...process.env, PLACE_JSON: f, OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1' },
      encoding: 'utf8',
      maxBuffer: 1 << 24,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    for (const line of txt.split('\n')) {
      const [n, m, ms, err] = line.trim().split(/\s+/).map(Number);
      if (Number.isFinite(ms)) out.set(`${n}x${m}`, { ms, err });
    }
  } catch {
    /* octave without the control package: no column */
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

export function runPlaceBench(sizes = [10, 50, 100, 200], reps = 3): string {
  const scipyFile = new URL('./place-scipy.json', import.meta.url);
  const scipy: Record<string, { ms: number; err: number; method: string }> = existsSync(scipyFile) ? JSON.parse(readFileSync(scipyFile, 'utf8')) : {};
  const problems = [1, 3].flatMap((m) => sizes.map((n) => placeProblem(n, m)));
  const oct = octave(problems, reps);
  const rows = [
    '| n | m | ours [ms CPU] | Octave [ms CPU] | ours / Octave | ours: max rel. pole error | Octave: error | SciPy: error (method) | SciPy [ms] |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  // a problem place refuses (since cfaa0dd: single input n = 200, a pole below the rounding
  // level of A - BK) is timed to the refusal, its error column says so
  const run = (p: PlaceProblem): number[][] | null => {
    try {
      return place(p.A, p.B, p.poles).K;
    } catch (e) {
      if (e instanceof ControlError) return null;
      throw e;
    }
  };
  for (let w = 0; w < 2; w++) for (const p of problems) run(p); // warm-up: the JIT, at every size
  for (const p of problems) {
    let K: number[][] | null = null;
    const ts: number[] = [];
    for (let r = 0; r < reps; r++) {
      const t = process.cpuUsage();
      K = run(p);
      const c = process.cpuUsage(t);
      ts.push((c.user + c.system) / 1000);
    }
    const ms = Math.min(...ts);
    const k = K;
    const err = k ? poleRelError(eigenvalues(p.A.map((row, i) => row.map((v, j) => v - p.B[i].reduce((s, b, l) => s + b * k[l][j], 0)))), p.poles) : undefined;
    const o = oct.get(`${p.n}x${p.m}`);
    const s = scipy[`${p.n}x${p.m}`];
    const e = (x: number | undefined) => (x === undefined ? '–' : x.toExponential(1));
    rows.push(
      `| ${p.n} | ${p.m} | ${ms.toFixed(2)} | ${o ? o.ms.toFixed(2) : '–'} | ${o ? (ms / o.ms).toFixed(2) : '–'} | ${k ? e(err) : 'refused'} | ${e(o?.err)} | ${s ? `${e(s.err)} (${s.method})` : '–'} | ${s ? s.ms.toFixed(0) : '–'} |`,
    );
  }
  return rows.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (k: string) => {
    const i = process.argv.indexOf(k);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  console.log(runPlaceBench(arg('--sizes')?.split(',').map(Number), arg('--reps') ? Number(arg('--reps')) : undefined));
}
