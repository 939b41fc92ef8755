// Kernel speed, part 2 (issue 12 item 3): care, dare, lqr, dlqr, kalman, place (1 and 3
// inputs), c2d (zoh, tustin), step, impulse, freqresp (200 frequencies) and margins on seeded
// random stable problems at n = 4 .. 200, three ways:
//   solver    the tool's `run` facet on prepared arguments (what the solver thread runs)
//   verified  callTool: coercion, ajv, size limits, the solver thread, the verifier, fail closed
//   octave    the same call in Octave 7 + control (SLICOT/LAPACK), one octave-cli process,
//             BLAS on one thread (--octave)
// Every time is CPU time of the process (process.cpuUsage; Octave's cputime), the minimum of
// `reps` measurements after a warm-up; a measurement repeats the call until it has taken 20 ms
// and divides, so sub-millisecond calls are not lost in the clock's resolution. The machine's
// 2 cores are shared, hence the minimum.
//
//   node --import tsx bench/kernel-time-2.ts [--n 4,8,16] [--tools care,dare] [--reps 7]
//        [--octave] [--no-verified] [--no-solver] [--json out.json] [--dump results.json]
//
// --dump writes every solver result (full precision) so that two versions of the code can be
// compared number by number (bench/kernel-time-2-compare.ts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mulberry32 } from '../test/fixtures/rng.js';
import { placeProblem } from '../test/fixtures/placeProblems.js';
import { prepareArgs } from '../src/core/tools/call.js';
import { callTool, configureSolverPool, solverPool } from '../src/core/tools/runner.js';
import { eigvalsSorted } from '../src/core/linalg/schur.js';
import { fromRows, solve } from '../src/core/linalg/dense.js';

type M = number[][];
const eye = (n: number): M => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
const zeros = (r: number, c: number): M => Array.from({ length: r }, () => new Array(c).fill(0));

interface Problem {
  n: number;
  A: M; // continuous, spectral abscissa -1
  Ad: M; // discrete, spectral radius 0.8
  B: M; // n x 2
  C: M; // 2 x n
  D: M; // 2 x 2 zeros
  b: M; // n x 1
  c: M; // 1 x n, DC gain of (A, b, c) = 5
}

/** seeded from mulberry32(1000 n + 29): R (row by row), B, C; uniform in [-1, 1] */
export function problem(n: number): Problem {
  const u = mulberry32(1000 * n + 29);
  const r = () => 2 * u() - 1;
  const s = Math.sqrt(n);
  const Mx = Array.from({ length: n }, () => Array.from({ length: n }, () => r() / s));
  const B = Array.from({ length: n }, () => [r(), r()]);
  const C = [Array.from({ length: n }, r), Array.from({ length: n }, r)];
  const ev = eigvalsSorted(fromRows(Mx));
  const shift = Math.max(...ev.map((e) => e[0])) + 1;
  const rho = Math.max(...ev.map((e) => Math.hypot(e[0], e[1])));
  const A = Mx.map((row, i) => row.map((v, j) => v - (i === j ? shift : 0)));
  const Ad = Mx.map((row) => row.map((v) => (0.8 * v) / rho));
  const b = B.map((row) => [row[0]]);
  const x = solve(fromRows(A), fromRows(b)).d;
  const g = -C[0].reduce((acc, v, i) => acc + v * x[i], 0);
  const c = [C[0].map((v) => (5 * v) / g)];
  return { n, A, Ad, B, C, D: zeros(2, 2), b, c };
}

const linspace = (a: number, b: number, k: number) => Array.from({ length: k }, (_, i) => a + ((b - a) * i) / (k - 1));
const logspace = (a: number, b: number, k: number) => Array.from({ length: k }, (_, i) => 10 ** (a + ((b - a) * i) / (k - 1)));
export const T = linspace(0, 10, 201);
export const W = logspace(-2, 2, 200);

interface Case {
  id: string;
  tool: string;
  args: (p: Problem) => Record<string, unknown>;
}

export const CASES: Case[] = [
  { id: 'care', tool: 'care', args: (p) => ({ A: p.A, B: p.B, Q: eye(p.n), R: eye(2) }) },
  { id: 'dare', tool: 'dare', args: (p) => ({ A: p.Ad, B: p.B, Q: eye(p.n), R: eye(2) }) },
  { id: 'lqr', tool: 'lqr', args: (p) => ({ A: p.A, B: p.B, Q: eye(p.n), R: eye(2) }) },
  { id: 'dlqr', tool: 'dlqr', args: (p) => ({ A: p.Ad, B: p.B, Q: eye(p.n), R: eye(2) }) },
  // continuous kalman (no Ts) = lqe; Octave: lqe(A, G, C, Qn, Rn)
  { id: 'kalman', tool: 'kalman', args: (p) => ({ A: p.A, G: p.B, C: p.C, Qn: eye(2), Rn: eye(2) }) },
  {
    id: 'place (1 input)',
    tool: 'place',
    args: (p) => {
      const q = placeProblem(p.n, 1);
      return { A: q.A, B: q.B, poles: q.poles };
    },
  },
  {
    id: 'place (3 inputs)',
    tool: 'place',
    args: (p) => {
      const q = placeProblem(p.n, 3);
      return { A: q.A, B: q.B, poles: q.poles };
    },
  },
  { id: 'c2d (zoh)', tool: 'c2d', args: (p) => ({ A: p.A, B: p.B, C: p.C, D: p.D, Ts: 0.1, method: 'zoh' }) },
  { id: 'c2d (tustin)', tool: 'c2d', args: (p) => ({ A: p.A, B: p.B, C: p.C, D: p.D, Ts: 0.1, method: 'tustin' }) },
  { id: 'step', tool: 'step', args: (p) => ({ A: p.A, B: p.B, C: p.C, D: p.D, t: T }) },
  { id: 'impulse', tool: 'impulse', args: (p) => ({ A: p.A, B: p.B, C: p.C, D: p.D, t: T }) },
  { id: 'freqresp', tool: 'freqresp', args: (p) => ({ A: p.A, B: p.B, C: p.C, D: p.D, w: W }) },
  { id: 'margins', tool: 'margins', args: (p) => ({ A: p.A, B: p.b, C: p.c, D: [[0]] }) },
];

const OCTAVE = String.raw`
pkg load control
warning('off', 'all');
S = jsondecode(fileread(getenv('KT2_IN')));
P = S.problems; if (! iscell (P)) P = num2cell (P); end
function r = run_case (id, a)
  switch (id)
    case 'care', [X, L, G] = care (a.A, a.B, a.Q, a.R); r = X;
    case 'dare', [X, L, G] = dare (a.A, a.B, a.Q, a.R); r = X;
    case 'lqr', [K, X, L] = lqr (a.A, a.B, a.Q, a.R); r = K;
    case 'dlqr', [K, X, L] = dlqr (a.A, a.B, a.Q, a.R); r = K;
    case 'kalman', [L, P, E] = lqe (a.A, a.G, a.C, a.Qn, a.Rn); r = L;
    case {'place (1 input)', 'place (3 inputs)'}, r = place (a.A, a.B, complex (a.poles(:,1), a.poles(:,2)));
    case {'c2d (zoh)', 'c2d (tustin)'}, r = c2d (ss (a.A, a.B, a.C, a.D), a.Ts, a.method);
    case 'step', r = step (ss (a.A, a.B, a.C, a.D), a.t(:));
    case 'impulse', r = impulse (ss (a.A, a.B, a.C, a.D), a.t(:));
    case 'freqresp', r = freqresp (ss (a.A, a.B, a.C, a.D), a.w(:));
    case 'margins', [gm, pm, wpc, wgc] = margin (ss (a.A, a.B, a.C, a.D)); r = [gm pm wpc wgc];
  end
end
fid = fopen (getenv ('KT2_OUT'), 'w');
for k = 1:numel (P)
  q = P{k};
  try
    w0 = cputime; nw = 0;
    while (nw < 3 || cputime - w0 < 0.05), run_case (q.id, q.args); nw++; end
    t0 = cputime; run_case (q.id, q.args); one = cputime - t0;
    inner = max (1, min (1000, ceil (0.02 / max (one, 1e-5))));
    best = Inf;
    for rep = 1:S.reps
      t0 = cputime;
      for i = 1:inner, run_case (q.id, q.args); end
      best = min (best, (cputime - t0) / inner);
    end
    fprintf (fid, '%s\t%d\t%.6f\n', q.id, q.n, 1000 * best);
  catch err
    fprintf (fid, '%s\t%d\tNaN\t%s\n', q.id, q.n, strrep (err.message, "\n", ' '));
  end
  fflush (fid);
end
fclose (fid);
`;

function octave(cases: Case[], ns: number[], reps: number): Map<string, number> {
  const dir = mkdtempSync(join(tmpdir(), 'kt2-'));
  const out = new Map<string, number>();
  try {
    const problems = [];
    for (const n of ns) {
      const p = problem(n);
      for (const c of cases) {
        const a = c.args(p);
        problems.push({ id: c.id, n, args: { ...a, method: a.method ?? 'zoh' } });
      }
    }
    writeFileSync(join(dir, 'in.json'), JSON.stringify({ reps, problems }));
    writeFileSync(join(dir, 'run.m'), OCTAVE);
    execFileSync('octave-cli', ['--no-gui', '-q', join(dir, 'run.m')], {
      env: { ...process.env, KT2_IN: join(dir, 'in.json'), KT2_OUT: join(dir, 'out.tsv'), OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1' },
      stdio: ['ignore', 'ignore', 'inherit'],
      maxBuffer: 1 << 26,
    });
    for (const line of readFileSync(join(dir, 'out.tsv'), 'utf8').split('\n')) {
      const [id, n, ms, err] = line.split('\t');
      if (!id) continue;
      out.set(`${id}|${n}`, Number(ms));
      if (err) console.error(`octave ${id} n=${n}: ${err}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** min over reps of (CPU time of `inner` calls) / inner, inner chosen so a measurement is >= 20 ms */
function timeSync(f: () => unknown, reps: number): number {
  // warm-up: at least 3 calls and 50 ms, so the measured calls run optimised code
  for (let i = 0, w = cpuMs(); i < 3 || cpuMs() - w < 50; i++) f();
  const t0 = cpuMs();
  f();
  const one = Math.max(cpuMs() - t0, 0.01);
  const inner = Math.max(1, Math.min(1000, Math.ceil(20 / one)));
  let best = Infinity;
  for (let r = 0; r < reps; r++) {
    const s = cpuMs();
    for (let i = 0; i < inner; i++) f();
    best = Math.min(best, (cpuMs() - s) / inner);
  }
  return best;
}

async function timeAsync(f: () => Promise<unknown>, reps: number): Promise<number> {
  for (let i = 0, w = cpuMs(); i < 3 || cpuMs() - w < 50; i++) await f();
  const t0 = cpuMs();
  await f();
  const one = Math.max(cpuMs() - t0, 0.01);
  const inner = Math.max(1, Math.min(500, Math.ceil(20 / one)));
  let best = Infinity;
  for (let r = 0; r < reps; r++) {
    const s = cpuMs();
    for (let i = 0; i < inner; i++) await f();
    best = Math.min(best, (cpuMs() - s) / inner);
  }
  return best;
}

const quiet = (f: () => unknown) => () => {
  try {
    return f();
  } catch (e) {
    return e;
  }
};

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const ns = (arg('--n') ?? '4,8,16,32,64,128,200').split(',').map(Number);
  const only = arg('--tools')?.split(',');
  const cases = only ? CASES.filter((c) => only.includes(c.id) || only.includes(c.tool)) : CASES;
  const reps = Number(arg('--reps') ?? 7);
  const doSolver = !process.argv.includes('--no-solver');
  const doVerified = !process.argv.includes('--no-verified');
  const oct = process.argv.includes('--octave') ? octave(cases, ns, reps) : new Map<string, number>();
  configureSolverPool({ size: 1 });
  const rows: { id: string; n: number; solver?: number; verified?: number; octave?: number; error?: string }[] = [];
  const dump: Record<string, unknown> = {};
  for (const n of ns) {
    const p = problem(n);
    for (const c of cases) {
      const raw = c.args(p);
      const { tool, args } = prepareArgs(c.tool, raw);
      const row: (typeof rows)[number] = { id: c.id, n };
      try {
        dump[`${c.id}|${n}`] = tool.run(args);
      } catch (e) {
        row.error = e instanceof Error ? e.message.slice(0, 80) : String(e);
      }
      if (doSolver)
        row.solver = timeSync(
          quiet(() => tool.run(args)),
          reps,
        );
      if (doVerified) row.verified = await timeAsync(() => callTool(c.tool, raw).catch((e) => e), reps);
      const o = oct.get(`${c.id}|${n}`);
      if (o !== undefined) row.octave = o;
      rows.push(row);
      const f = (x?: number) => (x === undefined ? '-' : x.toFixed(3));
      const ratio = (x?: number) => (x === undefined || row.octave === undefined || !(row.octave > 0) ? '-' : (x / row.octave).toFixed(2));
      console.log(
        `${c.id.padEnd(17)} n=${String(n).padStart(3)}  solver ${f(row.solver).padStart(9)}  verified ${f(row.verified).padStart(9)}  octave ${f(row.octave).padStart(9)}  s/o ${ratio(row.solver).padStart(5)}  v/o ${ratio(row.verified).padStart(5)}${row.error ? '  (refused: ' + row.error + ')' : ''}`,
      );
    }
  }
  await solverPool().close();
  const jf = arg('--json');
  if (jf) writeFileSync(jf, JSON.stringify(rows, null, 1));
  const df = arg('--dump');
  if (df) writeFileSync(df, JSON.stringify(dump));
}

if (process.argv[1]?.endsWith('kernel-time-2.ts')) void main();
