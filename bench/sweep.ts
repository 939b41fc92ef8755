// Size sweep: every tool of the table at n = 4 ... 200, ours beside Octave (control package)
// and SciPy on the same seeded problems (bench/sweepProblems.ts), with the accuracy of our
// result against theirs.
//
//   npm run bench -- --sweep [--quick] [--write]        (or npm run bench:sweep, which writes)
//   node --import tsx bench/sweep.ts [--quick] [--sizes 4,32] [--cases care,lqr] [--cold-sizes 4,32]
//        [--no-cold] [--no-octave] [--no-scipy] [--reps 5] [--budget 2] [--timeout 60] [--write] [--keep]
//
// What is timed, per case and size (wall time; min over repeats after a warm-up on the
// smallest problem; the repeats at one size stop once --budget seconds are spent, at least one):
//   ours solver    the tool's solver function on this thread (arguments prepared beforehand)
//   ours verified  callTool: coercion, validation and limits, the solver and the independent
//                  verifier on the solver thread, fail-closed checks (the product's path)
//   ours cold      a fresh `node dist/cli.js solve <tool> --json` process (arguments on stdin)
//                  minus the start-up of the same command with arguments that are not JSON (a no-op
//                  up to the solve; only at --cold-sizes, one process per problem)
//   Octave         one octave-cli process per case (bench/sweep_octave.m), tic/toc per call
//   SciPy          one python3 process for all cases (bench/sweep_scipy.py), perf_counter
// Octave and SciPy write their results; ours is compared with both (max rel diff below).
// --write puts the tables into bench/RESULTS.md (section "Size sweep vs Octave and SciPy",
// replaced on each run) and the raw numbers into bench/sweep-results.json.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EigenvalueDecomposition, Matrix, solve as mlSolve } from 'ml-matrix';
import { prepareArgs } from '../src/core/tools/call.js';
import { callTool, DEFAULT_TIMEOUT_S, solverPool } from '../src/core/tools/runner.js';
import { TOOLS } from '../src/core/tools/table.js';
import { hungarian } from '../test/oracle/check.js';
import { CASES, FAMILIES, KGAINS, T, TS, W, type SweepCase } from './sweepProblems.js';

const FULL_SIZES = [4, 8, 16, 32, 64, 128, 200];
const QUICK_SIZES = [4, 32, 128];
const FULL_COLD = [4, 32, 200];
const QUICK_COLD = [4, 128];
/** at most this many calls per size, while they take under FILL_S seconds together */
const MAX_CALLS = 50;
const FILL_S = 1;
/** a disagreement above this is flagged */
const FLAG = 1e-6;

type C = [number, number];
type Mat = number[][];

interface Timing {
  ms?: number;
  reps?: number;
  error?: string;
  /** no counterpart: why */
  none?: string;
}
interface Row {
  n: number;
  solver: Timing;
  verified: Timing & { verdict?: 'ok' | 'not independently verified' };
  cold?: Timing;
  octave: Timing;
  scipy: Timing;
  /** max relative difference of our key result from Octave's / SciPy's, and what it covers */
  vsOctave?: Diff;
  vsScipy?: Diff;
}
interface Diff {
  diff: number;
  /** a discrete disagreement (rank, count, stability) or what the number means */
  note?: string;
  mismatch?: boolean;
  /** the comparison cannot tell the tools apart (see polyCond): listed, not flagged */
  illPosed?: boolean;
}
interface CaseResult {
  id: string;
  tool: string;
  family: string;
  what: string;
  scipyComposed?: string;
  rows: Row[];
}

// ------------------------------------------------------------------ flags

const argv = process.argv.slice(2);
const flag = (k: string) => argv.includes(k);
const opt = (k: string) => {
  const i = argv.indexOf(k);
  return i >= 0 ? argv[i + 1] : undefined;
};
const nums = (s: string | undefined) => s?.split(',').map(Number);
const QUICK = flag('--quick');
const SIZES = nums(opt('--sizes')) ?? (QUICK ? QUICK_SIZES : FULL_SIZES);
const COLD_SIZES = flag('--no-cold') ? [] : (nums(opt('--cold-sizes')) ?? (QUICK ? QUICK_COLD : FULL_COLD)).filter((n) => SIZES.includes(n));
const ONLY = opt('--cases')?.split(',');
const REPS_OURS = Number(opt('--reps') ?? 5);
const REPS_REF = 3;
const BUDGET_S = Number(opt('--budget') ?? 2);
/** time budget of one verified call and one cold process, s (the product's default unless --timeout) */
const TIMEOUT_S = Number(opt('--timeout') ?? DEFAULT_TIMEOUT_S);
const selected = CASES.filter((c) => !ONLY || ONLY.includes(c.id) || ONLY.includes(c.tool));

// ------------------------------------------------------------------ small helpers

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').slice(0, 200);
const log = (s: string) => process.stderr.write(s + '\n');

/**
 * Min wall time over calls: at least `reps`, more (up to MAX_CALLS) while the calls at this size
 * have taken under FILL_S (fast calls: V8 compiles hot code only after many calls, and a
 * minimum over more calls is steadier), and no more once `budgetS` seconds are spent (slow
 * calls: at least one). The Octave and SciPy scripts use the same rule.
 */
async function timeIt(f: () => unknown, reps: number, budgetS: number): Promise<{ ms: number; reps: number; value?: unknown; error?: unknown }> {
  let best = Infinity;
  let value: unknown;
  let k = 0;
  const t0 = performance.now();
  for (;;) {
    const t = performance.now();
    try {
      value = await f();
    } catch (error) {
      // a refusal or a failure is timed to the throw, once
      return { ms: k ? best : performance.now() - t, reps: k || 1, error };
    }
    best = Math.min(best, performance.now() - t);
    k++;
    const spent = (performance.now() - t0) / 1000;
    if (spent > budgetS || k >= MAX_CALLS || (k >= reps && spent > FILL_S)) break;
  }
  return { ms: best, reps: k, value };
}

// matrices as the Octave and SciPy scripts write them: {"s": size, "v": real, "im": imag}, column-major
interface Mx {
  s: number[] | number;
  v: number[] | number;
  im?: number[] | number;
}
const list = (x: number[] | number | undefined): number[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);
function rowsOf(m: Mx): Mat {
  const s = list(m.s);
  const v = list(m.v);
  const r = s[0];
  const c = s.slice(1).reduce((a, b) => a * b, 1);
  return Array.from({ length: r }, (_, i) => Array.from({ length: c }, (_, j) => v[i + r * j]));
}
function cplx(m: Mx): C[] {
  const v = list(m.v);
  const im = list(m.im);
  return v.map((x, i) => [x, im[i] ?? 0]);
}
/** element (i, j, k) of a column-major 3-D array */
function at3(m: Mx, i: number, j: number, k: number): C {
  const s = list(m.s);
  const idx = i + s[0] * (j + (s[1] ?? 1) * k);
  return [list(m.v)[idx], list(m.im)[idx] ?? 0];
}
const num = (x: unknown): number => (typeof x === 'number' ? x : x === 'Infinity' ? Infinity : x === '-Infinity' ? -Infinity : NaN);

function normF(a: Mat): number {
  let s = 0;
  for (const r of a) for (const x of r) s += x * x;
  return Math.sqrt(s);
}
/** ||a - b||_F / ||b||_F; Infinity when the shapes differ */
function relF(a: Mat, b: Mat): number {
  if (a.length !== b.length || a.some((r, i) => r.length !== b[i].length)) return Infinity;
  return normF(a.map((r, i) => r.map((x, j) => x - b[i][j]))) / Math.max(normF(b), 1e-300);
}
/** relF, or the norm of a when b is zero (D = 0) */
const relF0 = (a: Mat, b: Mat): number => (normF(b) > 0 ? relF(a, b) : a.length === b.length ? normF(a) : Infinity);
const mul = (a: Mat, b: Mat): Mat => a.map((r) => b[0].map((_, j) => r.reduce((s, x, l) => s + x * b[l][j], 0)));
const cabs = (z: C) => Math.hypot(z[0], z[1]);
/** eigenvalue sets matched one to one (Hungarian, as the oracle): max |difference| / max |reference| */
function eigErr(c: C[], e: C[]): number {
  if (c.length !== e.length) return Infinity;
  if (!e.length) return 0;
  // the matching needs finite costs (a NaN never compares smaller: it would not end)
  if (![...c, ...e].every((z) => Number.isFinite(z[0]) && Number.isFinite(z[1]))) return NaN;
  const cost = c.map((x) => e.map((y) => Math.hypot(x[0] - y[0], x[1] - y[1])));
  const match = hungarian(cost);
  let worst = 0;
  match.forEach((j, i) => (worst = Math.max(worst, cost[i][j])));
  return worst / Math.max(Math.max(...e.map(cabs)), 1e-9);
}
/** max |c - e| / max |e| over complex samples */
function sampleErr(c: C[], e: C[]): number {
  if (c.length !== e.length) return Infinity;
  const scale = Math.max(...e.map(cabs), 1e-300);
  return Math.max(0, ...c.map((z, i) => Math.hypot(z[0] - e[i][0], z[1] - e[i][1]))) / scale;
}
function eigOf(A: Mat): C[] {
  const e = new EigenvalueDecomposition(new Matrix(A));
  return e.realEigenvalues.map((x, i) => [x, e.imaginaryEigenvalues[i]]);
}
/** C (jw I - A)^-1 B + D of a SISO realisation, by ml-matrix (the real embedding of the complex solve) */
function ssAt(A: Mat, B: Mat, Cm: Mat, D: Mat, w: number): C {
  const n = A.length;
  if (!n) return [D[0][0], 0];
  const M = Matrix.zeros(2 * n, 2 * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      M.set(i, j, -A[i][j]);
      M.set(i + n, j + n, -A[i][j]);
    }
  for (let i = 0; i < n; i++) {
    M.set(i, i + n, -w);
    M.set(i + n, i, w);
  }
  const rhs = Matrix.zeros(2 * n, 1);
  for (let i = 0; i < n; i++) rhs.set(i, 0, B[i][0]);
  const x = mlSolve(M, rhs).to1DArray();
  let re = D[0][0];
  let im = 0;
  for (let i = 0; i < n; i++) {
    re += Cm[0][i] * x[i];
    im += Cm[0][i] * x[i + n];
  }
  return [re, im];
}
function polyAt(p: number[], w: number): C {
  let re = 0;
  let im = 0;
  for (const c of p) [re, im] = [re * 0 - im * w + c, re * w + im * 0];
  return [re, im];
}
const cdiv = (a: C, b: C): C => {
  const d = b[0] * b[0] + b[1] * b[1];
  return [(a[0] * b[0] + a[1] * b[1]) / d, (a[1] * b[0] - a[0] * b[1]) / d];
};
/**
 * Condition of evaluating a polynomial from its coefficients at the points j TF_W:
 * max over the points of sum |c_k| |s|^k / |p(s)|. Times the unit round-off it bounds the
 * relative error of any value computed from the coefficients: above ILL_POSED a comparison of
 * transfer functions given by coefficients says nothing about the tools.
 */
function polyCond(p: number[]): number {
  return Math.max(...TF_W.map((w) => p.reduce((acc, c) => acc * w + Math.abs(c), 0) / cabs(polyAt(p, w))));
}
const ILL_POSED = 1e9;
const condNote = (p: number[]) => {
  const k = polyCond(p);
  return k > ILL_POSED ? `ill-posed in double precision: evaluating den from its coefficients has condition ${k.toExponential(0)}` : '';
};
/** the frequencies where transfer functions are compared (tf2ss, ss2tf), rad/s */
const TF_W = [0.5, 1, 2];
/** pointwise relative error of samples with a floor of 1e-3 max|H| (the oracle's rule) */
function tfErr(c: C[], e: C[]): number {
  const big = Math.max(...e.map(cabs));
  return Math.max(...c.map((z, i) => Math.hypot(z[0] - e[i][0], z[1] - e[i][1]) / Math.max(cabs(e[i]), 1e-3 * big)));
}
const scalarErr = (c: number, e: number, floor = 1e-9): number => {
  if (!Number.isFinite(c) || !Number.isFinite(e))
    return (Number.isNaN(c) && Number.isNaN(e)) || c === e || (!Number.isFinite(c) && !Number.isFinite(e)) ? 0 : Infinity;
  return Math.abs(c - e) / Math.max(Math.abs(e), floor);
};
/** a phase margin in (-180, 180] (Octave's margin reports it in (0, 360]) */
const wrap180 = (x: number) => (Number.isFinite(x) ? x - 360 * Math.ceil((x - 180) / 360) : x);
const fmtE = (x: number) => (Number.isFinite(x) ? x.toExponential(1) : String(x));

// ------------------------------------------------------------------ our result against a reference

/**
 * The largest relative difference of our key result from the reference's (Octave's or
 * SciPy's answer `ref`, decoded from its Mx fields). Metrics follow the oracle's rules
 * (test/oracle/check.ts): norm-wise relative errors for matrices, matched eigenvalue sets,
 * transfer functions compared by samples, not realisations.
 */
function compare(c: SweepCase, args: Record<string, any>, ours: Record<string, any>, ref: Record<string, any>): Diff {
  switch (c.id) {
    case 'eig':
      return { diff: eigErr(ours.eigenvalues, cplx(ref.e)) };
    case 'ctrb_rank':
    case 'obsv_rank': {
      const d = relF(ours.matrix, rowsOf(ref.matrix));
      return ours.rank === ref.rank ? { diff: d } : { diff: d, mismatch: true, note: `rank ${ours.rank} vs ${ref.rank}` };
    }
    case 'analyse': {
      const d = eigErr(ours.eigenvalues, cplx(ref.e));
      const bad: string[] = [];
      if (ours.controllability.rank !== ref.nc) bad.push(`controllable dimension ${ours.controllability.rank} vs ${ref.nc}`);
      if (ours.observability.rank !== ref.no) bad.push(`observable dimension ${ours.observability.rank} vs ${ref.no}`);
      if ((ours.stability === 'stable') !== Boolean(ref.stable)) bad.push(`stability ${ours.stability} vs ${ref.stable ? 'stable' : 'not stable'}`);
      return bad.length ? { diff: d, mismatch: true, note: bad.join(', ') } : { diff: d };
    }
    case 'damp': {
      const wn = list(ref.wn.v);
      const z = list(ref.zeta.v);
      const order = wn.map((_, i) => i).sort((a, b) => wn[a] - wn[b] || z[a] - z[b]);
      const oz = ours.wn.map((_: number, i: number) => i).sort((a: number, b: number) => ours.wn[a] - ours.wn[b] || ours.zeta[a] - ours.zeta[b]);
      const dw = relF([oz.map((i: number) => ours.wn[i])], [order.map((i) => wn[i])]);
      const dz = relF([oz.map((i: number) => ours.zeta[i])], [order.map((i) => z[i])]);
      return { diff: Math.max(dw, dz) };
    }
    case 'poles_zeros': {
      const zc: C[] = ours.zeros;
      const ze = cplx(ref.zeros);
      const d = Math.max(eigErr(ours.poles, cplx(ref.poles)), zc.length === ze.length ? eigErr(zc, ze) : 0);
      return zc.length === ze.length ? { diff: d } : { diff: d, mismatch: true, note: `${zc.length} zeros vs ${ze.length}` };
    }
    case 'lyap':
    case 'dlyap':
      return { diff: relF(ours.X, rowsOf(ref.X)) };
    case 'care':
    case 'dare':
    case 'lqr':
    case 'dlqr':
      return { diff: Math.max(relF(ours.X, rowsOf(ref.X)), relF(ours.K, rowsOf(ref.K))) };
    case 'lqe':
    case 'kalman':
      return { diff: Math.max(relF(ours.L, rowsOf(ref.L)), relF(ours.P, rowsOf(ref.P))) };
    case 'place (1 input)':
    case 'place (2 inputs)': {
      // the poles each gain achieves, against the targets (the true answer): eig(A - BK) by ml-matrix
      const achieved = (K: Mat) =>
        eigErr(
          eigOf(args.A.map((r: number[], i: number) => r.map((v, j) => v - args.B[i].reduce((s: number, b: number, l: number) => s + b * K[l][j], 0)))),
          args.poles,
        );
      const Kr = rowsOf(ref.K);
      const mine = achieved(ours.K);
      const theirs = achieved(Kr);
      const dK = args.B[0].length === 1 ? relF(ours.K, Kr) : undefined;
      return { diff: Math.max(mine, dK ?? 0), note: `poles: ours ${fmtE(mine)}, ref ${fmtE(theirs)}${dK === undefined ? '' : `; K ${fmtE(dK)}`}` };
    }
    case 'c2d (zoh)':
    case 'c2d (tustin)':
      // Ad, the first Markov parameter Cd Bd and Dd: Octave scales the Tustin state by sqrt(Ts)
      return {
        diff: Math.max(relF(ours.Ad, rowsOf(ref.Ad)), relF(mul(ours.Cd, ours.Bd), mul(rowsOf(ref.Cd), rowsOf(ref.Bd))), relF0(ours.Dd, rowsOf(ref.Dd))),
      };
    case 'tf2ss': {
      const Ar = rowsOf(ref.A);
      const He = TF_W.map((w) => ssAt(Ar, rowsOf(ref.B), rowsOf(ref.C), rowsOf(ref.D), w));
      const Hc = TF_W.map((w) => ssAt(ours.A, ours.B, ours.C, ours.D, w));
      const d = tfErr(Hc, He);
      const notes = [Ar.length === ours.A.length ? '' : `order ${ours.A.length} vs ${Ar.length}`, condNote(args.den)].filter(Boolean);
      return { diff: d, note: notes.join('; ') || undefined, illPosed: polyCond(args.den) > ILL_POSED };
    }
    case 'ss2tf': {
      const at = (nm: number[], dn: number[]) => TF_W.map((w) => cdiv(polyAt(nm, w), polyAt(dn, w)));
      const de = list(ref.den.v);
      const d = tfErr(at(ours.num, ours.den), at(list(ref.num.v), de));
      // both against H of the state-space model itself (ml-matrix), which is well conditioned
      const Hss = TF_W.map((w) => ssAt(args.A, args.B, args.C, args.D, w));
      const notes = [
        de.length === ours.den.length ? '' : `degree ${ours.den.length - 1} vs ${de.length - 1}`,
        `against H(jw) of the model: ours ${fmtE(tfErr(at(ours.num, ours.den), Hss))}, ref ${fmtE(tfErr(at(list(ref.num.v), de), Hss))}`,
        condNote(ours.den),
      ].filter(Boolean);
      return { diff: d, note: notes.join('; '), illPosed: polyCond(ours.den) > ILL_POSED };
    }
    case 'dcgain':
      return { diff: relF(ours.gain, rowsOf(ref.gain)) };
    case 'freqresp': {
      const H: C[][][] = ours.H;
      const c: C[] = [];
      const e: C[] = [];
      H.forEach((Hk, k) => Hk.forEach((row, i) => row.forEach((z, j) => (c.push(z), e.push(at3(ref.H, i, j, k))))));
      return { diff: sampleErr(c, e) };
    }
    case 'nyquist': {
      const c: C[] = ours.H.filter((_: C, i: number) => ours.w[i] > 0);
      return { diff: sampleErr(c, cplx(ref.H)) };
    }
    case 'margins': {
      const e = { gm: num(ref.gm), pm_deg: wrap180(num(ref.pm_deg)), w_pc: num(ref.w_pc), w_gc: num(ref.w_gc) };
      const parts: string[] = [];
      let worst = 0;
      for (const k of ['gm', 'pm_deg', 'w_pc', 'w_gc'] as const) {
        const d = scalarErr(num(ours[k]), e[k], k === 'pm_deg' ? 1 : 1e-6);
        worst = Math.max(worst, d);
        if (d > FLAG) parts.push(`${k} ${+num(ours[k]).toPrecision(6)} vs ${+e[k].toPrecision(6)}`);
      }
      if (worst > FLAG) {
        // who is right: |H(j w_gc)| should be 1 (ml-matrix, from the state-space model)
        const gain = (w: number) => (Number.isFinite(w) ? `${+cabs(ssAt(args.A, args.B, args.C, args.D, w)).toPrecision(6)}` : 'no crossover');
        parts.push(
          `|H(j w_gc)|: ours ${gain(num(ours.w_gc))}, ref ${gain(e.w_gc)}; |H(0)| = ${+cabs(ssAt(args.A, args.B, args.C, args.D, 0)).toPrecision(4)}, |H(1e4 j)| = ${cabs(ssAt(args.A, args.B, args.C, args.D, 1e4)).toExponential(1)}`,
        );
      }
      return { diff: worst, note: parts.join(', ') || undefined };
    }
    case 'rlocus': {
      const gains = list(ref.gains.v);
      const P = rowsOf(ref.poles);
      const Pim = rowsOf({ s: ref.poles.s, v: list(ref.poles.im) });
      let worst = 0;
      let matched = 0;
      ours.k.forEach((k: number, i: number) => {
        const j = gains.findIndex((g) => Math.abs(g - k) <= 1e-9 * Math.max(1, Math.abs(k)));
        if (j < 0 || j >= (P[0]?.length ?? 0)) return;
        matched++;
        worst = Math.max(
          worst,
          eigErr(
            ours.poles[i],
            P.map((r, l) => [r[j], Pim[l][j]]),
          ),
        );
      });
      return { diff: matched ? worst : NaN, note: `${matched} gains compared` };
    }
    case 'h2norm':
      return { diff: scalarErr(ours.h2, num(ref.h2)) };
    case 'hinfnorm': {
      const d = scalarErr(ours.hinf, num(ref.hinf));
      const df = scalarErr(ours.fpeak, num(ref.fpeak));
      return { diff: d, note: df > FLAG ? `fpeak ${+ours.fpeak.toPrecision(6)} vs ${+num(ref.fpeak).toPrecision(6)}` : undefined };
    }
    case 'step':
    case 'impulse': {
      const y: number[][][] = ours.y;
      const s = list(ref.y.s);
      if (s[0] !== y.length) return { diff: Infinity, mismatch: true, note: `${y.length} samples vs ${s[0]}` };
      const c: C[] = [];
      const e: C[] = [];
      y.forEach((yk, k) => yk.forEach((row, i) => row.forEach((v, j) => (c.push([v, 0]), e.push(at3(ref.y, k, i, j))))));
      return { diff: sampleErr(c, e) };
    }
  }
  return { diff: NaN, note: 'no comparison' };
}

// ------------------------------------------------------------------ the runs

function versions() {
  const line = (cmd: string, a: string[]) => {
    try {
      return execFileSync(cmd, a, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 60_000 }).trim();
    } catch {
      return undefined;
    }
  };
  const octave = line('octave-cli', [
    '--eval',
    "pkg load control; v = pkg('describe', 'control'); printf('%s %s %s', version, v{1}.version, version('-blas'))",
  ]);
  const git = line('git', ['rev-parse', '--short', 'HEAD']);
  const dirty = line('git', ['status', '--porcelain', '--', 'src']);
  return { octave, git, srcDirty: dirty ? dirty.split('\n').length : 0 };
}

async function runOurs(cases: SweepCase[], results: Map<string, CaseResult>, ourResults: Map<string, Record<string, any>>) {
  for (const c of cases) {
    const rows = results.get(c.id)!.rows;
    // warm-up on the smallest problem (up to 50 calls or 0.3 s), on this thread and through the verified path
    const small = c.args(SIZES[0]);
    const tw = performance.now();
    for (let w = 0; w < MAX_CALLS && (w < 2 || performance.now() - tw < FILL_S * 1000); w++) {
      try {
        const { tool, args } = prepareArgs(c.tool, small);
        tool.run(args);
      } catch {
        /* a refusal warms up too */
      }
      await callTool(c.tool, small, { timeoutS: TIMEOUT_S }).catch(() => undefined);
    }
    for (const n of SIZES) {
      const row = rows.find((r) => r.n === n)!;
      const raw = c.args(n);
      const { tool, args } = prepareArgs(c.tool, raw);
      const ts = await timeIt(() => tool.run(args), REPS_OURS, BUDGET_S);
      row.solver = { ms: ts.ms, reps: ts.reps, error: ts.error === undefined ? undefined : errText(ts.error) };
      if (ts.error === undefined) ourResults.set(`${c.id}@${n}`, ts.value as Record<string, any>);
      const tv = await timeIt(() => callTool(c.tool, raw, { timeoutS: TIMEOUT_S }), REPS_OURS, BUDGET_S);
      const v = tv.value as Awaited<ReturnType<typeof callTool>> | undefined;
      row.verified = {
        ms: tv.ms,
        reps: tv.reps,
        error: tv.error === undefined ? undefined : errText(tv.error),
        verdict: v ? (v.verification?.checks.length ? 'ok' : 'not independently verified') : undefined,
      };
      log(
        `ours ${c.id} n=${n}: solver ${row.solver.ms?.toFixed(2)} ms${row.solver.error ? ' (refused)' : ''}, verified ${row.verified.ms?.toFixed(2)} ms${row.verified.error ? ` (${row.verified.error.slice(0, 80)})` : ''}`,
      );
    }
  }
}

function runCold(cases: SweepCase[], results: Map<string, CaseResult>): number | undefined {
  if (!COLD_SIZES.length) return undefined;
  if (!existsSync('dist/cli.js')) {
    log('cold: dist/cli.js is missing (npm run build); no cold column');
    return undefined;
  }
  const wall = (a: string[], input?: string) => {
    const t = performance.now();
    const r = spawnSync(process.execPath, ['dist/cli.js', ...a], { input, encoding: 'utf8', maxBuffer: 1 << 28, timeout: 300_000 });
    return { ms: performance.now() - t, out: r.stdout ?? '', status: r.status };
  };
  // the no-op: the bundle loaded and the command line read up to the arguments, which are not
  // JSON, so no solver thread; measured before each case, the minimum taken (a busy machine)
  const noop = () => wall(['solve', 'eig', 'x', '--json']).ms;
  const starts: number[] = [noop(), noop()];
  const runs = new Map<string, ReturnType<typeof wall>>();
  for (const c of cases) {
    starts.push(noop());
    for (const n of COLD_SIZES) {
      runs.set(`${c.id}@${n}`, wall(['solve', c.tool, '--json', '--timeout', String(TIMEOUT_S)], JSON.stringify(c.args(n))));
    }
  }
  const base = Math.min(...starts);
  log(`cold: start-up of node dist/cli.js (no-op): ${base.toFixed(0)} ms (min of ${starts.length})`);
  for (const c of cases)
    for (const n of COLD_SIZES) {
      const row = results.get(c.id)!.rows.find((r) => r.n === n)!;
      const r = runs.get(`${c.id}@${n}`)!;
      let error: string | undefined;
      try {
        const j = JSON.parse(r.out);
        if (j.error) error = errText(j.error);
      } catch {
        error = `no JSON answer (exit ${r.status})`;
      }
      row.cold = { ms: r.ms - base, reps: 1, error };
      log(`cold ${c.id} n=${n}: ${r.ms.toFixed(0)} ms - ${base.toFixed(0)} ms${error ? ` (${error.slice(0, 60)})` : ''}`);
    }
  return base;
}

function readRef(file: string): any[] | undefined {
  if (!existsSync(file)) return undefined;
  // NaN and Infinity as Python writes them are not JSON
  const txt = readFileSync(file, 'utf8').replace(/(?<![\w"])(-?Infinity|NaN)(?![\w"])/g, '"$1"');
  return JSON.parse(txt);
}

function applyRef(
  which: 'octave' | 'scipy',
  c: SweepCase,
  out: any[] | undefined,
  results: Map<string, CaseResult>,
  refs: Map<string, Record<string, any>>,
  why?: string,
) {
  for (const row of results.get(c.id)!.rows) {
    const o = out?.find((x) => x.n === row.n);
    if (!o) row[which] = { none: why ?? 'not run' };
    else if (o.none) row[which] = { none: o.none };
    else if (o.error !== undefined) row[which] = { error: errText(o.error) };
    else {
      row[which] = { ms: o.ms, reps: o.reps };
      refs.set(`${which}:${c.id}@${row.n}`, o.result);
    }
  }
}

function runOctave(cases: SweepCase[], dir: string, results: Map<string, CaseResult>, refs: Map<string, Record<string, any>>) {
  const script = new URL('./sweep_octave.m', import.meta.url).pathname;
  for (const c of cases) {
    if (c.id === 'stepinfo') {
      applyRef('octave', c, undefined, results, refs, 'Octave control 3.4 has no stepinfo');
      continue;
    }
    const inFile = join(dir, `${slug(c.id)}.json`);
    const outFile = join(dir, `${slug(c.id)}.octave.json`);
    const t = performance.now();
    const r = spawnSync('octave-cli', ['--no-gui', '-q', script, inFile, outFile], {
      encoding: 'utf8',
      env: { ...process.env, OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1' },
      timeout: 900_000,
      maxBuffer: 1 << 26,
    });
    const out = readRef(outFile);
    applyRef(
      'octave',
      c,
      out,
      results,
      refs,
      r.error
        ? `octave-cli failed: ${errText(r.error)}`
        : `octave-cli gave no answer (${errText(r.stderr?.split('\n').filter(Boolean).pop() ?? `exit ${r.status}`)})`,
    );
    log(
      `octave ${c.id}: ${((performance.now() - t) / 1000).toFixed(1)} s, ${results
        .get(c.id)!
        .rows.map((x) => `${x.n}:${x.octave.ms?.toFixed(2) ?? (x.octave.error ? 'error' : '–')}`)
        .join(' ')}`,
    );
  }
}

function runScipy(
  cases: SweepCase[],
  dir: string,
  results: Map<string, CaseResult>,
  refs: Map<string, Record<string, any>>,
): Record<string, string> | undefined {
  const script = new URL('./sweep_scipy.py', import.meta.url).pathname;
  const files = cases.map((c) => join(dir, `${slug(c.id)}.json`));
  const t = performance.now();
  const r = spawnSync('python3', [script, dir, ...files], {
    encoding: 'utf8',
    env: { ...process.env, OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1', MKL_NUM_THREADS: '1' },
    timeout: 1_800_000,
    maxBuffer: 1 << 26,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  log(`scipy: ${((performance.now() - t) / 1000).toFixed(1)} s${r.status ? ` (exit ${r.status}: ${r.stderr?.split('\n').filter(Boolean).pop()})` : ''}`);
  let vers: Record<string, string> | undefined;
  for (const c of cases) {
    const j = readRef(join(dir, `${slug(c.id)}.scipy.json`)) as any;
    vers ??= j?.versions;
    if (j?.composed) results.get(c.id)!.scipyComposed = j.composed;
    applyRef('scipy', c, j?.results, results, refs, 'python3 gave no answer');
  }
  return vers;
}

const slug = (id: string) => id.replace(/[^a-z0-9]+/gi, '_');

// ------------------------------------------------------------------ tables

const ms = (t: Timing | undefined) => {
  if (!t) return '–';
  if (t.none) return '–';
  if (t.ms === undefined) return t.error ? 'error' : '–';
  const v = t.ms >= 100 ? t.ms.toFixed(0) : t.ms >= 10 ? t.ms.toFixed(1) : t.ms >= 1 ? t.ms.toFixed(2) : t.ms.toFixed(3);
  if (!t.error) return v;
  if (/failed independent verification/.test(t.error)) return `${v} (failed verification)`;
  if (/did not finish within its time budget/.test(t.error)) return `${v} (over the ${TIMEOUT_S} s budget)`;
  return `${v} (refused)`;
};
const diffCell = (d: Diff | undefined, ref: Timing) => {
  if (!d) return ref.none ? '–' : ref.error ? 'error' : '–';
  const v = Number.isNaN(d.diff) ? '–' : fmtE(d.diff);
  return d.note ? `${v} (${d.note})` : v;
};
const ratio = (r: Row) => (r.solver.ms !== undefined && !r.solver.error && r.octave.ms !== undefined ? r.solver.ms / r.octave.ms : undefined);

function tables(results: CaseResult[]): { md: string; slower: string[]; flags: string[]; illPosed: string[] } {
  const out: string[] = [];
  for (const fam of FAMILIES) {
    const cs = results.filter((c) => c.family === fam);
    if (!cs.length) continue;
    out.push(`### ${fam}\n`);
    out.push(
      '| tool | n | ours solver [ms] | ours verified [ms] | ours cold [ms] | Octave [ms] | SciPy [ms] | ours / Octave | max rel diff vs Octave | vs SciPy |',
    );
    out.push('|---|---:|---:|---:|---:|---:|---:|---:|---|---|');
    for (const c of cs)
      for (const r of c.rows) {
        const q = ratio(r);
        out.push(
          `| ${c.id} | ${r.n} | ${ms(r.solver)} | ${ms(r.verified)} | ${ms(r.cold)} | ${ms(r.octave)} | ${ms(r.scipy)} | ${q === undefined ? '–' : q.toFixed(2)} | ${diffCell(r.vsOctave, r.octave)} | ${diffCell(r.vsScipy, r.scipy)} |`,
        );
      }
    out.push('');
  }
  const slow: [number, string][] = [];
  const flags: string[] = [];
  const illPosed: string[] = [];
  for (const c of results)
    for (const r of c.rows) {
      const q = ratio(r);
      if (q !== undefined && q > 1)
        slow.push([q, `${c.id}, n = ${r.n}: ${q.toFixed(2)}x (ours ${ms(r.solver)} ms, Octave ${ms(r.octave)} ms; verified path ${ms(r.verified)} ms)`]);
      const bits: string[] = [];
      const off = (d: Diff | undefined) => !!d && !d.illPosed && (d.mismatch || !(d.diff <= FLAG));
      const agrees = (d: Diff | undefined) => !!d && !d.mismatch && d.diff <= FLAG;
      for (const [who, d, other, otherName] of [
        ['Octave', r.vsOctave, r.vsScipy, 'SciPy'],
        ['SciPy', r.vsScipy, r.vsOctave, 'Octave'],
      ] as const)
        if (off(d))
          bits.push(
            `vs ${who} ${fmtE(d!.diff)}${d!.note ? ` (${d!.note})` : ''}${agrees(other) ? ` [ours agrees with ${otherName}: ${fmtE(other!.diff)}]` : ''}`,
          );
      if (r.solver.error) bits.push(`ours refused: ${r.solver.error}`);
      if (r.verified.error && !r.solver.error) bits.push(`verified path failed: ${r.verified.error}`);
      for (const [who, t] of [
        ['Octave', r.octave],
        ['SciPy', r.scipy],
      ] as const)
        if (t.error) bits.push(`${who} failed: ${t.error}`);
      if (bits.length) flags.push(`${c.id}, n = ${r.n}: ${bits.join('; ')}`);
      if (r.vsOctave?.illPosed || r.vsScipy?.illPosed)
        illPosed.push(
          `${c.id}, n = ${r.n}: vs Octave ${fmtE(r.vsOctave?.diff ?? NaN)}, vs SciPy ${fmtE(r.vsScipy?.diff ?? NaN)} (${(r.vsOctave ?? r.vsScipy)!.note})`,
        );
    }
  slow.sort((a, b) => b[0] - a[0]);
  return { md: out.join('\n'), slower: slow.map((s) => s[1]), flags, illPosed };
}

// ------------------------------------------------------------------ main

export async function runSweep(): Promise<void> {
  const started = new Date();
  const load0 = os.loadavg()[0];
  const dir = mkdtempSync(join(os.tmpdir(), 'control-sweep-'));
  log(`sweep: ${selected.length} cases at n = ${SIZES.join(', ')}; problems in ${dir}`);
  const results = new Map<string, CaseResult>();
  for (const c of selected) {
    results.set(c.id, {
      id: c.id,
      tool: c.tool,
      family: c.family,
      what: c.what,
      rows: SIZES.map((n) => ({ n, solver: {}, verified: {}, octave: {}, scipy: {} })),
    });
    // the problems, written once: the Octave and SciPy processes read these files
    writeFileSync(
      join(dir, `${slug(c.id)}.json`),
      JSON.stringify({
        id: c.id,
        tool: c.tool,
        reps: REPS_REF,
        budget_s: BUDGET_S,
        fill_s: FILL_S,
        max_calls: MAX_CALLS,
        problems: SIZES.map((n) => ({ n, args: c.args(n) })),
      }),
    );
  }
  const missing = TOOLS.map((t) => t.name).filter((t) => !CASES.some((c) => c.tool === t));
  if (missing.length) log(`sweep: tools of the table without a case: ${missing.join(', ')}`);
  const ours = new Map<string, Record<string, any>>();
  const refs = new Map<string, Record<string, any>>();
  const phases: Record<string, number> = {};
  let t = performance.now();
  await runOurs(selected, results, ours);
  await solverPool().close();
  phases.ours = performance.now() - t;
  t = performance.now();
  const coldBase = runCold(selected, results);
  phases.cold = performance.now() - t;
  t = performance.now();
  if (!flag('--no-octave')) runOctave(selected, dir, results, refs);
  phases.octave = performance.now() - t;
  t = performance.now();
  const scipyVers = flag('--no-scipy') ? undefined : runScipy(selected, dir, results, refs);
  phases.scipy = performance.now() - t;
  // accuracy: our result against each reference
  for (const c of selected)
    for (const row of results.get(c.id)!.rows) {
      const mine = ours.get(`${c.id}@${row.n}`);
      if (!mine) continue;
      for (const who of ['octave', 'scipy'] as const) {
        const ref = refs.get(`${who}:${c.id}@${row.n}`);
        if (!ref) continue;
        let d: Diff;
        try {
          d = compare(c, c.args(row.n), mine, ref);
        } catch (e) {
          d = { diff: NaN, note: `comparison failed: ${errText(e)}` };
        }
        if (who === 'octave') row.vsOctave = d;
        else row.vsScipy = d;
      }
    }
  if (!flag('--keep')) rmSync(dir, { recursive: true, force: true });
  const v = versions();
  const all = [...results.values()];
  const { md, slower, flags, illPosed } = tables(all);
  const load1 = os.loadavg()[0];
  const octaveV = v.octave?.split(' ') ?? [];
  const meta = {
    date: started.toISOString(),
    mode: QUICK ? 'quick' : 'full',
    sizes: SIZES,
    coldSizes: COLD_SIZES,
    machine: { cpu: os.cpus()[0]?.model, cores: os.availableParallelism(), memGB: +(os.totalmem() / 2 ** 30).toFixed(1), loadavg1: [load0, load1] },
    node: process.version,
    octave: octaveV[0],
    control: octaveV[1],
    octaveBlas: octaveV.slice(2).join(' '),
    scipy: scipyVers,
    git: v.git,
    srcFilesUncommitted: v.srcDirty,
    distCliMtime: existsSync('dist/cli.js') ? statSync('dist/cli.js').mtime.toISOString() : undefined,
    coldStartupMs: coldBase,
    repsOurs: REPS_OURS,
    repsRef: REPS_REF,
    budgetS: BUDGET_S,
    fillS: FILL_S,
    maxCalls: MAX_CALLS,
    phasesS: Object.fromEntries(Object.entries(phases).map(([k, x]) => [k, +(x / 1000).toFixed(1)])),
  };
  const problemsText = all.map((c) => `- **${c.id}**: ${c.what}${c.scipyComposed ? `; SciPy: ${c.scipyComposed}` : ''}`).join('\n');
  const fmtLoad = (x: number) => x.toFixed(1);
  const section = `## Size sweep vs Octave and SciPy

\`npm run bench -- --sweep${QUICK ? ' --quick' : ''} --write\` (bench/sweep.ts), ${meta.mode} run of ${started.toISOString().slice(0, 10)}: ${meta.machine.cpu}, ${meta.machine.cores} cores, load average ${fmtLoad(load0)} at the start and ${fmtLoad(load1)} at the end${load0 > meta.machine.cores ? ' (a busy, shared machine: the times are noisy, ratios within about 2x of 1 are not conclusive)' : ''}; Node ${meta.node}; Octave ${meta.octave ?? '–'} with control ${meta.control ?? '–'} (BLAS: ${meta.octaveBlas || '?'}); SciPy ${scipyVers?.scipy ?? '–'}, NumPy ${scipyVers?.numpy ?? '–'} (OpenBLAS on one thread); our code at ${meta.git}${meta.srcFilesUncommitted ? ` with ${meta.srcFilesUncommitted} uncommitted file(s) under src/ (other work in progress in the tree)` : ''}. Phases: ours ${meta.phasesS.ours} s, cold ${meta.phasesS.cold} s, Octave ${meta.phasesS.octave} s, SciPy ${meta.phasesS.scipy} s.

How it is measured. The problems (bench/sweepProblems.ts, seeded) are written as JSON once and read by all three. Every time is wall time in milliseconds, the minimum over repeated calls after a warm-up on the n = ${SIZES[0]} problem (at least ${REPS_OURS} calls for ours, ${REPS_REF} for Octave and SciPy, more up to ${MAX_CALLS} while they take under ${FILL_S} s together; none after ${BUDGET_S} s, at least one; the same rule in all three), process start-up and JSON I/O excluded. *ours solver*: the tool's solver function on the calling thread, arguments prepared beforehand. *ours verified*: \`callTool\` (coercion, validation and limits, then the solver and the independent verifier on the solver thread, fail-closed checks: what every front end runs), with a time budget of ${TIMEOUT_S} s a call${TIMEOUT_S === DEFAULT_TIMEOUT_S ? ' (the default of control.solveTimeoutSeconds)' : ''}. *ours cold*: one fresh \`node dist/cli.js solve <tool> --json\` process per problem (arguments on stdin) minus the start-up of the same command whose arguments are not JSON (a no-op up to the solve: ${coldBase === undefined ? 'not measured' : `${coldBase.toFixed(0)} ms`}, the minimum of one before each tool), so it includes starting the solver thread; at n = ${COLD_SIZES.join(', ') || '–'} only, one process per problem, on the bundle in dist/ (built ${meta.distCliMtime?.slice(0, 16) ?? '?'}), while the warm columns run the source. *Octave*: one octave-cli process per tool (bench/sweep_octave.m), tic/toc around the call a user makes (building the ss object included where the function takes one); its BLAS is Debian's reference BLAS (single-threaded, unoptimised), which makes its O(n³) rows slower than with OpenBLAS. *SciPy*: one python3 process (bench/sweep_scipy.py); SciPy has no control toolbox, so several rows time the usual composition of SciPy calls (listed below), and margins, hinfnorm and stepinfo have no SciPy column. *ours / Octave* is ours solver over Octave; ours is single-threaded JavaScript, SciPy runs OpenBLAS on one thread (OPENBLAS_NUM_THREADS=1). *max rel diff*: our key result against Octave's and SciPy's, by the oracle's metrics (norm-wise relative difference of matrices; eigenvalue sets matched one to one, max |difference| / max |eigenvalue|; transfer functions by samples at s = j{${TF_W.join(', ')}}, not realisations; c2d by Ad, Cd·Bd and Dd; step, impulse, freqresp, nyquist by max |difference| / max |reference|; for place the poles eig(A - BK) achieves against the targets, ours and the reference's, and K for one input). Above 1e-6 it is listed under the tables. Raw numbers: bench/sweep-results.json.

${md}
### Where ours (solver) is slower than Octave

${slower.length ? slower.map((s) => `- ${s}`).join('\n') : '- nowhere'}

### Disagreements above 1e-6, refusals and failures

${flags.length ? flags.map((s) => `- ${s}`).join('\n') : '- none'}
${illPosed.length ? `\nNot comparable (transfer functions given by coefficients whose evaluation is ill-conditioned at these sizes; any two tools differ there):\n\n${illPosed.map((s) => `- ${s}`).join('\n')}\n` : ''}
### The problems

One base system per n (mulberry32(1000 n + 17), entries uniform in [-1, 1], eigenvalues by ml-matrix): M = R/sqrt(n); A = M - (max Re eig(M) + 1) I (spectral abscissa -1); Ad = 0.8 M / rho(M) (spectral radius 0.8); B n x 2, C 2 x n, D = 0; Q = I, R = I; G = B, Qn = Rn = I; the SISO system is (A, B(:,1), C(1,:) scaled to a DC gain of 5, 0); the transfer function is num (n draws, degree n - 1) over the characteristic polynomial of A (degree n). Ts = ${TS} s; w: ${W.length} points log-spaced 1e-2..1e2 rad/s; t: ${T.length} points 0..${T[T.length - 1]} s; rlocus gains: ${KGAINS.length} points 0..${KGAINS[KGAINS.length - 1]}.

${problemsText}
`;
  console.log(section);
  if (flag('--write')) {
    const file = 'bench/RESULTS.md';
    const old = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
    const re = /## Size sweep vs Octave and SciPy\n[\s\S]*?(?=\n## |$)/;
    writeFileSync(file, re.test(old) ? old.replace(re, section.trimEnd()) : `${old.trimEnd()}\n\n${section}`);
    writeFileSync(
      'bench/sweep-results.json',
      JSON.stringify({ meta, cases: all }, (_k, x) => (typeof x === 'number' && !Number.isFinite(x) ? String(x) : x), 1) + '\n',
    );
    log('written: bench/RESULTS.md (section "Size sweep vs Octave and SciPy"), bench/sweep-results.json');
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  runSweep().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
