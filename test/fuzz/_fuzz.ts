// Shared pieces of the fuzz tier (issue 11, item 7): a seeded generator, the CLI bundle with
// a peak-memory probe, and the problems generated from each tool's JSON Schema.
//
// Seeds: every run prints its seed; FUZZ_SEED=<n> replays it exactly (each file derives its
// own stream from it, so one file can be replayed alone). Without FUZZ_SEED a fresh seed is
// drawn, so every run explores new inputs.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildCliBundle } from '../unit/_cliBundle.js';
import type { JsonSchema, ToolDef } from '../../src/core/tools/types.js';

// ------------------------------------------------------------------ seeds and the PRNG

/** the run's seed: FUZZ_SEED when given, else a fresh one; printed so a failure can be replayed */
export function fuzzSeed(file: string): number {
  const env = process.env.FUZZ_SEED;
  const seed = env !== undefined && env !== '' ? Number(env) >>> 0 : Math.floor(Math.random() * 2 ** 32) >>> 0;
  console.log(`# ${file}: FUZZ_SEED=${seed} (replay with: FUZZ_SEED=${seed} node --import tsx --test test/fuzz/${file})`);
  return seed;
}

/** mulberry32: a tiny, fast, well-mixed 32-bit generator */
export class Rng {
  private s: number;
  constructor(seed: number, stream = 0) {
    // a separate stream per use, so adding draws to one part does not shift the others
    this.s = (seed ^ Math.imul(stream + 1, 0x9e3779b9)) >>> 0;
  }
  /** uniform in [0, 1) */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** integer in [lo, hi] */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  /** picks by weight: [[weight, value], ...] */
  weighted<T>(xs: readonly (readonly [number, T])[]): T {
    let total = 0;
    for (const [w] of xs) total += w;
    let r = this.next() * total;
    for (const [w, v] of xs) {
      r -= w;
      if (r < 0) return v;
    }
    return xs[xs.length - 1][1];
  }
  /** standard normal (Box-Muller) */
  normal(): number {
    const u = Math.max(this.next(), 1e-300);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }
}

// ------------------------------------------------------------------ the CLI under test

const PROBE = `process.on('exit', () => { try { process.stderr.write('\\nFUZZ_MAXRSS_KB=' + process.resourceUsage().maxRSS + '\\n'); } catch {} });\n`;

export interface Cli {
  /** the temp folder holding the bundle (removed by dispose) */
  dir: string;
  /** dist/cli.js with its thread scripts beside it */
  cli: string;
  /** a preload that reports the process's peak RSS (all its threads) on exit */
  probe: string;
  /** a private XDG cache, never the user's */
  cache: string;
}

/** bundles the CLI as `npm run build` does, into a temp folder laid out as installed */
export async function buildCli(): Promise<Cli> {
  const pkg = tempDir('control-fuzz-');
  const cli = join(pkg, 'dist', 'cli.js');
  await buildCliBundle(cli);
  writeFileSync(join(pkg, 'package.json'), '{}\n');
  symlinkSync(resolve('corpus'), join(pkg, 'corpus'), 'dir');
  const probe = join(pkg, 'rss-probe.cjs');
  writeFileSync(probe, PROBE);
  return { dir: pkg, cli, probe, cache: join(pkg, 'cache') };
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout lines with the ms since the start at which each arrived */
  lines: { text: string; at: number }[];
  ms: number;
  /** peak resident set of the whole process in bytes, or undefined when it died before saying */
  maxRss?: number;
  /** killed by the hard deadline */
  killed: boolean;
}

/**
 * Runs the CLI; stdout (or `watch`, a file the CLI writes) is read as it grows, each line
 * time-stamped (to 50 ms for a file); the process is killed at `deadlineMs` (a hang is then a
 * failed assertion, never a stuck test run).
 */
export function runCli(c: Cli, args: string[], o: { input?: string; deadlineMs: number; cwd?: string; watch?: string }): Promise<RunResult> {
  return new Promise((done) => {
    const t0 = performance.now();
    const watched: { text: string; at: number }[] = [];
    let wbuf = Buffer.alloc(0);
    let wpos = 0;
    const chunk = Buffer.alloc(1 << 20);
    const poll = () => {
      if (!o.watch) return;
      let fd: number;
      try {
        fd = openSync(o.watch, 'r');
      } catch {
        return; // not created yet
      }
      try {
        for (let n; (n = readSync(fd, chunk, 0, chunk.length, wpos)) > 0; wpos += n) wbuf = Buffer.concat([wbuf, chunk.subarray(0, n)]);
      } finally {
        closeSync(fd);
      }
      const at = performance.now() - t0;
      for (let nl; (nl = wbuf.indexOf(10)) >= 0; wbuf = wbuf.subarray(nl + 1)) watched.push({ text: wbuf.subarray(0, nl).toString('utf8'), at });
    };
    const poller = o.watch ? setInterval(poll, 50) : undefined;
    const child = spawn(process.execPath, ['--require', c.probe, c.cli, ...args], {
      cwd: o.cwd,
      env: { ...process.env, XDG_CACHE_HOME: c.cache },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const lines: { text: string; at: number }[] = [];
    let stdout = '';
    let stderr = '';
    let buf = '';
    let killed = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      buf += d;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        lines.push({ text: buf.slice(0, nl), at: performance.now() - t0 });
        buf = buf.slice(nl + 1);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, o.deadlineMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (buf) lines.push({ text: buf, at: performance.now() - t0 });
      if (poller) {
        clearInterval(poller);
        poll();
        if (wbuf.length) watched.push({ text: wbuf.toString('utf8'), at: performance.now() - t0 });
        lines.length = 0;
        for (const w of watched) lines.push(w);
      }
      const m = /FUZZ_MAXRSS_KB=(\d+)/.exec(stderr);
      done({
        code,
        signal,
        stdout,
        stderr: stderr.replace(/\n?FUZZ_MAXRSS_KB=\d+\n/, ''),
        lines,
        ms: performance.now() - t0,
        maxRss: m ? Number(m[1]) * 1024 : undefined,
        killed,
      });
    });
    child.stdin.on('error', () => {}); // a child that exits early: its stdin closes under us
    if (o.input !== undefined) child.stdin.end(o.input);
    else child.stdin.end();
  });
}

/** temp folders of a test file, removed when it ends (FUZZ_KEEP=1 keeps them to look at) */
const temps: string[] = [];

export function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  temps.push(d);
  return d;
}

export function removeTemps(): void {
  if (process.env.FUZZ_KEEP === '1') {
    if (temps.length) console.log(`# kept (FUZZ_KEEP=1): ${temps.join(' ')}`);
    return;
  }
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
}

// ------------------------------------------------------------------ values

/** magnitudes a problem is scaled by: mostly ordinary, some at the ends of double precision */
export function magnitude(r: Rng): number {
  return r.weighted([
    [70, 1],
    [4, 1e-8],
    [4, 1e8],
    [3, 1e-150],
    [3, 1e150],
    [3, 1e-300],
    [3, 1e300],
    [2, 1e-320], // subnormal
    [2, 1.7e308],
    [6, 0],
  ] as const);
}

export type Matrix = number[][];

export const zeros = (r: number, c: number): Matrix => Array.from({ length: r }, () => new Array(c).fill(0));
export const eye = (n: number): Matrix => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));

export function randn(r: Rng, rows: number, cols: number, scale = 1): Matrix {
  return Array.from({ length: rows }, () => Array.from({ length: cols }, () => r.normal() * scale));
}

function mul(X: Matrix, Y: Matrix): Matrix {
  return X.map((row) => Y[0].map((_, j) => row.reduce((s, x, k) => s + x * Y[k][j], 0)));
}

const transpose = (X: Matrix): Matrix => X[0].map((_, j) => X.map((row) => row[j]));

/** X X' + eps I: symmetric positive (semi)definite */
function psd(r: Rng, n: number, definite: boolean): Matrix {
  const X = randn(r, n, Math.max(1, r.int(1, n)));
  const P = mul(X, transpose(X));
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) P[i][j] = P[j][i];
  if (definite) for (let i = 0; i < n; i++) P[i][i] += 1;
  return P;
}

/** a state matrix of a chosen character */
function stateMatrix(r: Rng, n: number, discrete: boolean): Matrix {
  const kind = r.weighted([
    [30, 'random'],
    [10, 'stable'],
    [8, 'unstable'],
    [6, 'zero'],
    [5, 'identity'],
    [8, 'singular'],
    [8, 'ill'],
    [6, 'jordan'],
    [6, 'integrator'],
    [5, 'companion'],
    [4, 'skew'],
  ] as const);
  let A: Matrix;
  switch (kind) {
    case 'random':
      A = randn(r, n, n);
      break;
    case 'stable': {
      A = randn(r, n, n, 0.3);
      for (let i = 0; i < n; i++) A[i][i] -= discrete ? 0 : 2 + n * 0.3;
      if (discrete) A = A.map((row) => row.map((x) => x / (1 + n * 0.6)));
      break;
    }
    case 'unstable':
      A = randn(r, n, n, 0.3);
      for (let i = 0; i < n; i++) A[i][i] += discrete ? 1.5 : 1 + r.next();
      break;
    case 'zero':
      A = zeros(n, n);
      break;
    case 'identity':
      A = eye(n);
      break;
    case 'singular': {
      // rank n - 1 at most: the last row a combination of the others (or zero)
      A = randn(r, n, n);
      A[n - 1] = n > 1 ? A[0].map((x, j) => 2 * x - A[Math.min(1, n - 2)][j]) : [0];
      break;
    }
    case 'ill': {
      // scales spread over many decades
      const e = r.int(4, 14);
      A = randn(r, n, n).map((row, i) => row.map((x, j) => x * 10 ** (((i - j) * e) / Math.max(1, n - 1))));
      break;
    }
    case 'jordan':
      A = zeros(n, n);
      for (let i = 0; i < n; i++) {
        A[i][i] = discrete ? 0.9 : -1;
        if (i + 1 < n) A[i][i + 1] = 1;
      }
      break;
    case 'integrator':
      A = zeros(n, n);
      for (let i = 0; i + 1 < n; i++) A[i][i + 1] = 1;
      break;
    case 'companion': {
      A = zeros(n, n);
      for (let i = 0; i + 1 < n; i++) A[i][i + 1] = 1;
      A[n - 1] = Array.from({ length: n }, () => Math.round(r.normal() * 5));
      break;
    }
    case 'skew': {
      const X = randn(r, n, n);
      A = X.map((row, i) => row.map((x, j) => x - X[j][i]));
      break;
    }
  }
  return A;
}

const scaleM = (M: Matrix, s: number): Matrix => M.map((row) => row.map((x) => x * s));

// ------------------------------------------------------------------ problems from the schemas

/** the kind of value a schema property is (the schemas are built from tools/schema.ts's blocks) */
export function kindOf(s: JsonSchema | undefined): 'matrix' | 'vector' | 'complexList' | 'number' | 'integer' | 'string' | 'boolean' | 'other' {
  if (!s) return 'other';
  const items = s.items as JsonSchema | undefined;
  if (s.type === 'array' && items?.type === 'array') return 'matrix';
  if (s.type === 'array' && Array.isArray(items?.anyOf)) return 'complexList';
  if (s.type === 'array') return 'vector';
  if (s.type === 'number') return 'number';
  if (s.type === 'integer') return 'integer';
  if (s.type === 'string') return 'string';
  if (s.type === 'boolean') return 'boolean';
  return 'other';
}

interface Dims {
  n: number;
  m: number;
  p: number;
  g: number;
  discrete: boolean;
  Ts: number;
}

/** which tools are discrete by their name (their equations are in z, no Ts argument) */
const DISCRETE_BY_NAME = new Set(['dlyap', 'dare', 'dlqr']);

function logspace(a: number, b: number, k: number): number[] {
  return Array.from({ length: k }, (_, i) => 10 ** (a + ((b - a) * i) / Math.max(1, k - 1)));
}

/** a list of n poles, conjugate pairs in full, each [re, im] or a real */
function poleList(r: Rng, n: number, discrete: boolean): unknown[] {
  const out: unknown[] = [];
  while (out.length < n) {
    const re = discrete ? r.uniform(-0.9, 0.9) : -r.uniform(0.1, 10);
    if (n - out.length >= 2 && r.chance(0.4)) {
      const im = discrete ? r.uniform(0.05, 0.4) : r.uniform(0.1, 5);
      out.push([re, im], [re, -im]);
    } else out.push(r.chance(0.5) ? re : [re, 0]);
  }
  // repeated poles now and then (place's hard case)
  if (n > 1 && r.chance(0.1)) out[1] = out[0];
  return out;
}

/** one argument of a valid problem, by the property's name and schema */
function validValue(r: Rng, key: string, s: JsonSchema, d: Dims): unknown {
  const { n, m, p, g, discrete } = d;
  switch (key) {
    case 'A': {
      const mag = magnitude(r);
      const A = stateMatrix(r, n, discrete);
      return mag === 1 ? A : scaleM(A, mag);
    }
    case 'B': {
      const B = randn(r, n, m);
      if (n > 1 && r.chance(0.15)) B[n - 1] = new Array(m).fill(0); // an uncontrollable mode when A is diagonal-ish
      if (r.chance(0.05)) return scaleM(B, r.pick([1e-17, 1e-300, 1e300]));
      return B;
    }
    case 'C': {
      const C = randn(r, p, n);
      if (r.chance(0.1)) return zeros(p, n);
      return C;
    }
    case 'D':
      return r.chance(0.5) ? zeros(p, m) : randn(r, p, m);
    case 'Q':
      return r.chance(0.15) ? zeros(n, n) : r.chance(0.1) ? scaleM(psd(r, n, true), r.pick([1e-12, 1e12, 1e300])) : psd(r, n, r.chance(0.7));
    case 'R':
      return r.chance(0.05) ? zeros(m, m) : r.chance(0.1) ? scaleM(eye(m), r.pick([1e-12, 1e12, 1e-300])) : psd(r, m, true);
    case 'N':
      return scaleM(randn(r, n, m), 0.1);
    case 'G':
      return randn(r, n, g);
    case 'Qn':
      return psd(r, g, r.chance(0.8));
    case 'Rn':
      return r.chance(0.05) ? zeros(p, p) : psd(r, p, true);
    case 'poles':
      return poleList(r, n, discrete);
    case 'Ts':
      return d.Ts;
    case 'method':
      return r.pick((s.enum as string[]) ?? ['zoh']);
    case 't': {
      const k = r.weighted([
        [60, r.int(1, 60)],
        [30, r.int(60, 300)],
        [10, 1],
      ] as const);
      const T = r.weighted([
        [70, r.uniform(0.1, 20)],
        [8, 1e-9],
        [8, 1e6],
        [4, 1e200],
        [4, 1e308],
        [6, 0],
      ] as const);
      const t = Array.from({ length: k }, (_, i) => (k === 1 ? T : (T * i) / (k - 1)));
      if (d.discrete && d.Ts > 0 && t[t.length - 1] / d.Ts > 1e5) return t.map((x) => Math.min(x, d.Ts * 1e4)); // a long discrete run costs time; the limits are fuzzed apart
      return t;
    }
    case 'w': {
      const k = r.int(1, 120);
      const [a, b] = r.pick([
        [-2, 2],
        [-300, 300],
        [0, 0],
        [-3, 5],
      ] as const);
      const w = logspace(a, b, k);
      if (r.chance(0.1)) w[0] = 0;
      return w;
    }
    case 'k': {
      const k = r.int(1, 60);
      return r.chance(0.1) ? [0] : logspace(-3, r.pick([3, 300]), k);
    }
    case 'num': {
      const len = r.int(1, n + 1);
      return Array.from({ length: len }, () => Math.round(r.normal() * 10) / 2);
    }
    case 'den': {
      const den = Array.from({ length: n + 1 }, () => Math.round(r.normal() * 10) / 2);
      den[0] = r.chance(0.9) ? r.pick([1, 2, 0.5, 1e-9, 1e9]) : 0; // a zero leading coefficient now and then
      return den;
    }
  }
  // a property this generator does not know by name: from its schema alone
  switch (kindOf(s)) {
    case 'matrix':
      return randn(r, n, n);
    case 'vector':
      return Array.from({ length: n }, () => r.normal());
    case 'complexList':
      return poleList(r, n, discrete);
    case 'number':
      return r.uniform(0, 10);
    case 'integer':
      return r.int(0, 10);
    case 'string':
      return s.enum ? r.pick(s.enum as string[]) : 'x';
    case 'boolean':
      return r.chance(0.5);
    default:
      return null;
  }
}

/** a valid problem for the tool: shapes that agree, values of every character */
export function validArgs(r: Rng, tool: ToolDef): Record<string, unknown> {
  const props = tool.parameters.properties;
  const required = new Set(tool.parameters.required ?? []);
  const n = r.weighted([
    [40, r.int(1, 3)],
    [40, r.int(4, 8)],
    [20, r.int(9, 12)],
  ] as const);
  // tools that take one input and one output (their description says SISO) mostly get one
  const siso = /\bSISO\b/.test(tool.description) && r.chance(0.75);
  const m = siso ? 1 : r.int(1, Math.min(n, 3));
  const p = siso ? 1 : r.int(1, Math.min(n, 3));
  const g = r.int(1, Math.min(n, 3));
  const hasTs = 'Ts' in props;
  const discrete = DISCRETE_BY_NAME.has(tool.name) || (hasTs && (required.has('Ts') || r.chance(0.3)));
  const Ts = r.weighted([
    [80, r.pick([0.001, 0.01, 0.1, 0.5, 1])],
    [5, 1e-9],
    [5, 1e300],
    [5, 1e-300],
    [5, 100],
  ] as const);
  const d: Dims = { n, m, p, g, discrete, Ts };
  // a tool that takes a system either as a transfer function or as state space gets one of them
  const tf = 'num' in props && 'den' in props && !required.has('A') ? r.chance(0.4) : false;
  const args: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(props)) {
    const isTf = key === 'num' || key === 'den';
    const isSs = ['A', 'B', 'C', 'D'].includes(key);
    if ('num' in props && !required.has(key) && ((tf && isSs) || (!tf && isTf))) continue;
    if (key === 'Ts' && !(required.has('Ts') || (discrete && !DISCRETE_BY_NAME.has(tool.name)))) continue;
    if (required.has(key) || (tf && isTf) || (!tf && isSs && ['A', 'B', 'C'].includes(key) && 'num' in props) || r.chance(0.5))
      args[key] = validValue(r, key, s, d);
  }
  // tools whose system is optional (poles_zeros, margins, ...) with neither form: give state space
  if (!tf && 'num' in props && !('A' in args)) for (const k of ['A', 'B', 'C']) if (k in props) args[k] = validValue(r, k, props[k], d);
  // D comes with B and C (mostly: D alone is a refusal worth asking for now and then)
  if ('D' in args && r.chance(0.85)) for (const k of ['B', 'C']) if (k in props && !(k in args)) args[k] = validValue(r, k, props[k], d);
  return args;
}

/**
 * Well-posed problems of ordinary size and scale, for the tools below, whose answer exists and is
 * well conditioned by construction (the maths, not the code under test, says so): these must be
 * results. A suite that only checks "no internal error" would pass a program that refuses everything.
 */
export function benignArgs(r: Rng, tool: string): Record<string, unknown> | undefined {
  const n = r.int(1, 6);
  // A = -(2n) I + K with K skew-symmetric and small: eigenvalues with real part -2n, far from the axis
  const K = randn(r, n, n, 0.5);
  const Astab = K.map((row, i) => row.map((x, j) => x - K[j][i] + (i === j ? -2 * n : 0)));
  const Arand = randn(r, n, n).map((row) => row.map((x) => Math.round(x * 100) / 100));
  const B = eye(n); // full actuation: controllable whatever A is
  const C = eye(n);
  const t = Array.from({ length: 40 }, (_, i) => i * 0.05);
  switch (tool) {
    case 'eig':
      return { A: Arand };
    case 'ctrb_rank':
      return { A: Arand, B };
    case 'obsv_rank':
      return { A: Arand, C };
    case 'lyap':
      return { A: Astab, Q: eye(n) };
    case 'dlyap':
      return { A: scaleM(Astab, 1 / (4 * n + 2)), Q: eye(n) };
    case 'care':
    case 'lqr':
      return { A: Arand, B, Q: eye(n), R: eye(n) };
    case 'dare':
    case 'dlqr':
      return { A: Arand, B, Q: eye(n), R: eye(n) };
    case 'lqe':
      return { A: Arand, G: eye(n), C, Qn: eye(n), Rn: eye(n) };
    case 'c2d':
      return { A: Astab, B, C, Ts: 0.1 };
    case 'step':
    case 'impulse':
      return { A: Astab, B: Array.from({ length: n }, (_, i) => [i === 0 ? 1 : 0]), C: [new Array(n).fill(1)], t };
    case 'h2norm':
      return { A: Astab, B, C };
    case 'dcgain':
      return { A: Astab, B, C };
    case 'tf2ss':
      return { num: [1], den: [1, 3, 2] };
    default:
      return undefined;
  }
}

// ------------------------------------------------------------------ hostile values

/** names that once reached Object.prototype or the matrix parser's scope */
export const HOSTILE_NAMES = [
  'constructor',
  '__proto__',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'prototype',
  'isPrototypeOf',
  '__defineGetter__',
  'then',
  'length',
];

/** text people (and attackers) put where a matrix goes */
export function hostileText(r: Rng): string {
  const name = r.pick(HOSTILE_NAMES);
  return r.pick([
    `[${name} 1]`,
    `${name}`,
    `${name}(1)`,
    `[1 2; 3 ${name}]`,
    `eye(${name})`,
    `[1 2; 3 4]`,
    `[1,2;3,4]'`,
    `eye(3)`,
    `zeros(2)`,
    `ones(2,3)`,
    `diag([1 2 3])`,
    `np.array([[1, 2], [3, 4]])`,
    `np.eye(2)`,
    `[1 NaN; Inf 2]`,
    `[1e999]`,
    `[-Infinity]`,
    `ones(100000)`,
    `eye(1e9)`,
    `1:1e9`,
    `zeros(3000)`,
    `repmat(1, 1e5, 1e5)`,
    `[1 2; 3]`,
    `[[[[1]]]]`,
    `import("fs")`,
    `require('child_process')`,
    `evaluate("1+1")`,
    `process.exit(1)`,
    `${name}.constructor("return process")()`,
    `[1 2]*[3 4]`,
    `2^1024`,
    `exp(1000)`,
    `log(0)`,
    `sqrt(-1)`,
    `1/0`,
    `0/0`,
    `[１ ２; ３ ４]`, // full-width digits
    `[−1 2]`, // U+2212 minus
    `[1 2\u2028 3 4]`,
    `[1 2]\u0000`,
    `-2+2j`,
    `-1±2j`,
    `\ud800`,
    `😀`,
    `‮[1 2]`,
    '',
    ' ',
    `${'['.repeat(500)}1${']'.repeat(500)}`,
  ]);
}

/** a value of the wrong type for a schema (or a broken one of the right type) */
export function wrongValue(r: Rng, s: JsonSchema | undefined): unknown {
  const k = kindOf(s);
  const common: unknown[] = [
    null,
    true,
    false,
    {},
    { 0: [1] },
    'abc',
    -1,
    0,
    1e308,
    'NaN',
    'Infinity',
    '-Infinity',
    '1e999',
    hostileText(r),
    [],
    [[]],
    [null],
    ['NaN'],
    [[1, 'NaN']],
    [[1, 'Infinity']],
    [[true]],
    [[{}]],
  ];
  const byKind: Record<string, unknown[]> = {
    matrix: [3, [1, 2], [[1, 2], [3]], [[[1]]], [['1', '2']], [[1], 2], [[1, null]], { A: [[1]] }, [[1e-320, -0]]],
    vector: [[[1, 2]], [[1], [2]], 5, [1, [2]], [{}], ['1', '2'], [-0, 1e-320]],
    complexList: [[[1, 2, 3]], [[1]], ['x'], [[1, 'NaN']], '(-1, -2)', '-1±2j, -3', ['-1+2j', '-1-2j'], [[NaN]], [null]],
    number: [[1], '0.1', '1e-3 s', ' 1 ', 'Infinity', -0.1, 0, 1e-320, '0x10', '1_000'],
    integer: [1.5, '2'],
    string: [1, ['zoh'], 'ZOH', 'zoh ', 'foh\u0000', 'tustin\u200b'],
  };
  return r.chance(0.6) && byKind[k] ? r.pick(byKind[k]) : r.pick(common);
}

/** nested arrays `depth` deep around x */
export function nest(x: unknown, depth: number): unknown {
  let v = x;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** strings of every script and odd code point */
export function unicodeText(r: Rng): string {
  return r.pick([
    'Ω',
    'λ₁',
    'זה',
    'مرحبا',
    '日本語',
    '😀👍🏽',
    '\u200b',
    '\u202e',
    '\ufeff',
    '\ud800',
    '\udfff',
    'e\u0301',
    '\u2028',
    '\u2029',
    'Ａ',
    '\u0000',
    '\t',
    '\\',
    '"',
    '</data>',
    '${x}',
    '%s%n',
  ]);
}

/** a value of any JSON type, for ids */
export function anyId(r: Rng, k: number): { id: unknown; raw?: string } {
  return r.pick<() => { id: unknown; raw?: string }>([
    () => ({ id: `s-${k}` }),
    () => ({ id: `${unicodeText(r)}-${k}` }),
    () => ({ id: '' }),
    () => ({ id: k }),
    () => ({ id: -k }),
    () => ({ id: k + 0.5 }),
    () => ({ id: 0 }),
    () => ({ id: 1e308 }),
    () => ({ id: null }),
    () => ({ id: true }),
    () => ({ id: false }),
    () => ({ id: [k] }),
    () => ({ id: { k } }),
    () => ({ id: undefined }),
    // eslint-disable-next-line no-loss-of-precision -- on purpose: an id above 2^53 that JSON.parse rounds
    () => ({ id: 9007199254740993 + k * 4096, raw: `${9007199254740993n + BigInt(k) * 4096n}` }),
    () => ({ id: Infinity, raw: '1e400' }),
    () => ({ id: 'x'.repeat(r.int(100, 5000)) }),
  ])();
}
