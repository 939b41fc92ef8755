// Kernel timing (issue 12 item 3): eig, lyap, dlyap, h2norm, hinfnorm, ours beside Octave
// (control package) on the same seeded stable problems at n = 4 ... 200.
//
//   node --import tsx bench/kernel-time.ts [--sizes 4,32] [--ops eig,lyap] [--reps 7]
//        [--no-octave] [--save FILE.json] [--compare FILE.json]
//
// Ours: the tool's `run` (its solver, arrays of rows in and out; no validation, no verifier),
// process CPU time (process.cpuUsage: the machine's 2 cores are shared, and CPU time does not
// count the time other processes hold the core), per call over a batch of calls of at least
// 2 ms; the minimum of `reps` batches (more, up to 50, while under 300 ms) after a warm-up of
// at least 20 calls and 300 ms (so the optimising compiler has run). Octave: one octave-cli process,
// `pkg load control`, the same CPU-time batches (cputime) around eig(A), lyap(A, Q), dlyap(A, Q),
// norm(ss(A,B,C,D), 2), norm(ss(A,B,C,D), inf) (the ss object built inside the timed call),
// minimum of `reps` batches after warm-up batches. Accuracy beside it: relative residuals of lyap/dlyap (‖AX + XA' + Q‖F /
// (2‖A‖F‖X‖F + ‖Q‖F), likewise for the Stein equation), eigenvalues and norms as the largest
// relative difference from Octave's. --save writes ours (times, residuals, results) so that a
// later run can --compare against it (before/after of a change).
//
// Problems (seed mulberry32(7919 n + 3), entries uniform in [-1, 1], row by row: R n x n,
// B n x 2, C 2 x n): M = R/sqrt(n); A = M - (max Re eig(M) + 1) I (spectral abscissa -1);
// Ad = 0.8 M / rho(M) (spectral radius 0.8); Q = I; D = 0. The shift and radius come from
// ml-matrix, not our kernel.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { EigenvalueDecomposition, Matrix as MlMatrix } from 'ml-matrix';
import { mulberry32 } from '../test/fixtures/rng.js';
import { getTool } from '../src/core/tools/table.js';

type Mat = number[][];
const argv = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const SIZES = (opt('--sizes') ?? '4,8,16,32,64,128,200').split(',').map(Number);
const OPS = (opt('--ops') ?? 'eig,lyap,dlyap,h2norm,hinfnorm').split(',');
const REPS = Number(opt('--reps') ?? 7);
const OCTAVE = !argv.includes('--no-octave');

function problem(n: number) {
  const rnd = mulberry32(7919 * n + 3);
  const u = () => 2 * rnd() - 1;
  const R = Array.from({ length: n }, () => Array.from({ length: n }, u));
  const B = Array.from({ length: n }, () => [u(), u()]);
  const C = [Array.from({ length: n }, u), Array.from({ length: n }, u)];
  const M = R.map((r) => r.map((v) => v / Math.sqrt(n)));
  const e = new EigenvalueDecomposition(new MlMatrix(M));
  const re = e.realEigenvalues,
    im = e.imaginaryEigenvalues;
  const abscissa = Math.max(...re);
  const rho = Math.max(...re.map((r, i) => Math.hypot(r, im[i])));
  const A = M.map((r, i) => r.map((v, j) => (i === j ? v - (abscissa + 1) : v)));
  const Ad = M.map((r) => r.map((v) => (0.8 * v) / rho));
  const Q = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  const D = [
    [0, 0],
    [0, 0],
  ];
  return { n, A, Ad, B, C, D, Q };
}
type Problem = ReturnType<typeof problem>;

function args(op: string, p: Problem): Record<string, unknown> {
  switch (op) {
    case 'eig':
      return { A: p.A };
    case 'lyap':
      return { A: p.A, Q: p.Q };
    case 'dlyap':
      return { A: p.Ad, Q: p.Q };
    default:
      return { A: p.A, B: p.B, C: p.C, D: p.D };
  }
}

const fro = (M: Mat) => Math.sqrt(M.reduce((s, r) => s + r.reduce((a, v) => a + v * v, 0), 0));
const mm = (X: Mat, Y: Mat): Mat => X.map((r) => Y[0].map((_, j) => r.reduce((s, v, k) => s + v * Y[k][j], 0)));
const tr = (X: Mat): Mat => X[0].map((_, j) => X.map((r) => r[j]));

/** relative residual of A X + X A' + Q = 0 (or A X A' - X + Q = 0) */
function residual(A: Mat, X: Mat, Q: Mat, discrete: boolean): number {
  const AX = mm(A, X);
  const R = discrete ? mm(AX, tr(A)).map((r, i) => r.map((v, j) => v - X[i][j] + Q[i][j])) : AX.map((r, i) => r.map((v, j) => v + AX[j][i] + Q[i][j]));
  const nA = fro(A),
    nX = fro(X);
  return fro(R) / ((discrete ? nA * nA * nX + nX : 2 * nA * nX) + fro(Q));
}

interface Ours {
  ms: number;
  acc?: number;
  value?: unknown;
}

function timeOurs(op: string, p: Problem): Ours {
  const t = getTool(op);
  if (!t) throw new Error(`no tool ${op}`);
  const a = args(op, p);
  // warm-up until the optimising compiler has run (at least 20 calls or 300 ms)
  let out = t.run(a) as any;
  for (let r = 0, t0 = performance.now(); r < 20 || performance.now() - t0 < 300; r++) {
    out = t.run(a);
    if (performance.now() - t0 > 3000) break;
  }
  // each sample: a batch of calls long enough (>= 2 ms) for the CPU clock, its CPU time per call
  let batch = 1;
  for (;;) {
    const c0 = process.cpuUsage();
    for (let b = 0; b < batch; b++) t.run(a);
    const c1 = process.cpuUsage(c0);
    if ((c1.user + c1.system) / 1000 >= 2 || batch >= 4096) break;
    batch *= 2;
  }
  let best = Infinity;
  let spent = 0;
  for (let r = 0; r < REPS || (spent < 300 && r < 50); r++) {
    const c0 = process.cpuUsage();
    for (let b = 0; b < batch; b++) out = t.run(a);
    const c1 = process.cpuUsage(c0);
    const dt = (c1.user + c1.system) / 1000;
    spent += dt;
    best = Math.min(best, dt / batch);
    if (spent > 20000 && r >= 2) break;
  }
  const res: Ours = { ms: best };
  if (op === 'lyap') res.acc = residual(p.A, out.X, p.Q, false);
  if (op === 'dlyap') res.acc = residual(p.Ad, out.X, p.Q, true);
  if (op === 'eig') res.value = out.eigenvalues;
  if (op === 'h2norm') res.value = out.h2;
  if (op === 'hinfnorm') res.value = out.hinf;
  return res;
}

const OCTAVE_SCRIPT = String.raw`
1;
## CPU time of one call: a batch of calls of at least 2 ms (cputime), the minimum over reps
## batches after a warm-up batch; the op's call inside the loop, nothing else
function [ms, v] = timed (op, A, Ad, B, C, D, Q, reps)
  batch = 1; best = Inf;
  for r = -8:reps
    c0 = cputime ();
    switch (op)
      case "eig"
        for b = 1:batch, e = eig (A); endfor
        v = [real(e), imag(e)];
      case "lyap"
        for b = 1:batch, X = lyap (A, Q); endfor
        v = norm (A*X + X*A' + Q, 'fro') / (2*norm (A, 'fro')*norm (X, 'fro') + norm (Q, 'fro'));
      case "dlyap"
        for b = 1:batch, X = dlyap (Ad, Q); endfor
        v = norm (Ad*X*Ad' - X + Q, 'fro') / (norm (Ad, 'fro')^2*norm (X, 'fro') + norm (X, 'fro') + norm (Q, 'fro'));
      case "h2norm"
        for b = 1:batch, v = norm (ss (A, B, C, D), 2); endfor
      case "hinfnorm"
        for b = 1:batch, v = norm (ss (A, B, C, D), inf); endfor
    endswitch
    dt = cputime () - c0;
    if (r < 0)
      if (dt < 2e-3 && batch < 4096) batch *= 2; endif
    else
      best = min (best, dt / batch);
    endif
  endfor
  ms = 1000 * best;
endfunction

args = argv ();
in = jsondecode (fileread (args{1}));
pkg load control
out = struct ("n", {}, "op", {}, "ms", {}, "v", {});
k = 0;
for pi = 1:numel (in.problems)
  p = in.problems(pi);
  if (iscell (in.problems)) p = in.problems{pi}; endif
  for oi = 1:numel (in.ops)
    [ms, v] = timed (in.ops{oi}, p.A, p.Ad, p.B, p.C, p.D, p.Q, in.reps);
    k++;
    out(k).n = p.n; out(k).op = in.ops{oi}; out(k).ms = ms; out(k).v = v;
  endfor
endfor
fid = fopen (args{2}, "w"); fputs (fid, jsonencode (out)); fclose (fid);
`;

interface OctRow {
  n: number;
  op: string;
  ms: number;
  v: any;
}

function runOctave(problems: Problem[]): OctRow[] {
  const dir = mkdtempSync(join(os.tmpdir(), 'kernel-time-'));
  try {
    const inF = join(dir, 'in.json'),
      outF = join(dir, 'out.json'),
      mF = join(dir, 'kt.m');
    writeFileSync(inF, JSON.stringify({ reps: REPS, ops: OPS, problems }));
    writeFileSync(mF, OCTAVE_SCRIPT);
    execFileSync('octave-cli', ['-q', '--no-gui', mF, inF, outF], { stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 28 });
    const rows = JSON.parse(readFileSync(outF, 'utf8'));
    return Array.isArray(rows) ? rows : [rows];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** largest relative distance of each of our eigenvalues from the nearest of Octave's */
function eigDiff(ours: [number, number][], oct: number[][]): number {
  let worst = 0;
  for (const [a, b] of ours) {
    let best = Infinity;
    for (const [c, d] of oct) best = Math.min(best, Math.hypot(a - c, b - d) / Math.max(1e-300, Math.hypot(c, d)));
    worst = Math.max(worst, best);
  }
  return worst;
}

const problems = SIZES.map(problem);
const before: Record<string, Ours> | undefined = opt('--compare') ? JSON.parse(readFileSync(opt('--compare')!, 'utf8')) : undefined;
const ours: Record<string, Ours> = {};
for (const op of OPS)
  for (const p of problems) {
    ours[`${op}:${p.n}`] = timeOurs(op, p);
    process.stderr.write(`${op} n=${p.n} ${ours[`${op}:${p.n}`].ms.toFixed(3)} ms\n`);
  }
const oct = new Map<string, OctRow>();
if (OCTAVE) for (const r of runOctave(problems)) oct.set(`${r.op}:${r.n}`, r);

const f = (x: number | undefined, d = 3) => (x === undefined || !Number.isFinite(x) ? '-' : x < 0.01 ? x.toPrecision(2) : x.toFixed(d));
const e = (x: number | undefined) => (x === undefined ? '-' : x.toExponential(1));
for (const op of OPS) {
  console.log(`\n${op}`);
  console.log(
    `| n | ${before ? 'before [ms] | ' : ''}ours [ms] | Octave [ms] | ours/Octave | ${op === 'lyap' || op === 'dlyap' ? `${before ? 'residual before | ' : ''}residual | Octave residual` : 'rel. diff from Octave'} |`,
  );
  console.log(
    `|---:|${before ? '---:|' : ''}---:|---:|---:|---:|${before && (op === 'lyap' || op === 'dlyap') ? '---:|' : ''}${op === 'lyap' || op === 'dlyap' ? '---:|' : ''}`,
  );
  for (const p of problems) {
    const key = `${op}:${p.n}`;
    const o = ours[key],
      q = oct.get(key),
      b = before?.[key];
    let accCols: string;
    if (op === 'lyap' || op === 'dlyap') accCols = `${b ? `${e(b.acc)} | ` : ''}${e(o.acc)} | ${e(q?.v)}`;
    else if (op === 'eig') accCols = q ? e(eigDiff(o.value as [number, number][], q.v)) : '-';
    else accCols = q ? e(Math.abs((o.value as number) - q.v) / Math.abs(q.v)) : '-';
    console.log(`| ${p.n} | ${b ? `${f(b.ms)} | ` : ''}${f(o.ms)} | ${f(q?.ms)} | ${q ? f(o.ms / q.ms, 2) : '-'} | ${accCols} |`);
  }
}
if (opt('--save')) writeFileSync(opt('--save')!, JSON.stringify(ours));
