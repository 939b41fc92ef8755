/**
 * The one verified call path. Every front end (chat turns, the agent loop, the CLI's `solve`
 * and `batch`, the MCP server, Language Model Tools, plots, the doctor) runs a tool through
 * `callTool`:
 *
 *   prepareArgs (coercion, ajv, size limits; on the calling thread, cheap)
 *   → the solver and the independent verifier on a solver thread (`solveWorker.ts`), under a
 *     time budget, a memory budget and the caller's cancellation
 *   → fail closed: a result the verifier rejects, or a non-finite number where the tool's
 *     contract expects a finite one, is an error naming the failed check, never a result.
 *
 * Why threads: solvers are synchronous O(n³) code; on the extension host's main thread an
 * n = 200 `care` (seconds) froze every extension, and a solver that loops forever could not
 * be stopped at all. A thread can be terminated: a call over its budget ends the thread,
 * the call is an error that names the tool, the size and the setting, and the next call gets
 * a fresh thread. Threads are started on first use and kept (a small pool), unreferenced while
 * idle so they never keep a CLI process alive.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ControlError, type ControlErrorCode } from '../errors.js';
import type { Verification } from '../verify/index.js';
import { prepareArgs, type CallOptions } from './call.js';
import type { SolveJob, SolveReply } from './solveWorker.js';
import type { ToolDef } from './types.js';

/** default budget of one call, seconds (setting control.solveTimeoutSeconds, CLI --timeout) */
export const DEFAULT_TIMEOUT_S = 60;
/** how long a new solver thread may take to load before a call on it fails */
const STARTUP_S = 120;
/** default heap budget of a solver thread, MB (setting control.solveMemoryMB) */
export const DEFAULT_MEMORY_MB = 1024;

export interface RunOptions extends CallOptions {
  /** time budget of this call in seconds; default DEFAULT_TIMEOUT_S */
  timeoutS?: number;
  /** cancels the call: its thread is ended and the call rejects with code 'cancelled' */
  signal?: AbortSignal;
  /**
   * Run the independent verifier and fail closed on its verdict (default true). Only calls
   * whose result is never shown (the eigenvalues that choose a plot's time grid) skip it.
   */
  verify?: boolean;
}

export interface VerifiedCall {
  tool: ToolDef;
  /** the validated, coerced arguments the solver ran on */
  args: Record<string, any>;
  /** full precision; non-finite numbers only where the tool's `nonFinite` allows them */
  result: Record<string, any>;
  /** the verifier's verdict (ok, when verification ran); undefined when it was not asked for */
  verification?: Verification;
  /** solver + verifier time on the solver thread, ms */
  ms: number;
}

/** a result the independent verifier rejected: not given, the failed checks said */
export class VerificationFailed extends ControlError {
  constructor(
    message: string,
    readonly verification: Verification,
  ) {
    super(message, 'numerical');
  }
}

// ------------------------------------------------------------------ the pool

/** the thread script beside this module: dist/solveWorker.js in the bundles, the .ts source under tsx */
export function solveWorkerFile(): string | undefined {
  const here = typeof __dirname === 'string' ? __dirname : undefined;
  if (!here) return undefined;
  for (const f of ['solveWorker.js', 'solveWorker.ts']) if (existsSync(join(here, f))) return join(here, f);
  return undefined;
}

interface Pending {
  job: SolveJob;
  timeoutS: number;
  signal?: AbortSignal;
  what: string;
  resolve: (r: SolveReply & { ok: true }) => void;
  reject: (e: Error) => void;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  job?: Pending;
  timer?: NodeJS.Timeout;
  /** the thread has loaded (it says so once): budgets count from then */
  ready?: boolean;
  /** set once the slot is being replaced: its late messages and exit are ignored */
  dead?: boolean;
}

export interface PoolOptions {
  /** threads at most; default: one less than the cores, at least 1, at most 4 */
  size?: number;
  memoryMb?: number;
  file?: string;
}

export class SolverPool {
  private slots: Slot[] = [];
  private queue: Pending[] = [];
  private seq = 0;
  readonly size: number;
  readonly memoryMb: number;
  private readonly file: string | undefined;
  /** threads started so far (a replaced thread counts again): for tests and the status line */
  started = 0;

  constructor(o: PoolOptions = {}) {
    this.size = Math.max(1, o.size ?? Math.min(4, Math.max(1, availableParallelism() - 1)));
    this.memoryMb = o.memoryMb ?? DEFAULT_MEMORY_MB;
    this.file = o.file ?? solveWorkerFile();
  }

  /** runs a prepared job; rejects with ControlError on timeout, cancellation or a lost thread */
  run(
    tool: string,
    args: Record<string, unknown>,
    o: { verify: boolean; timeoutS: number; signal?: AbortSignal; what: string },
  ): Promise<SolveReply & { ok: true }> {
    if (o.signal?.aborted) return Promise.reject(cancelled(o.what));
    return new Promise((resolve, reject) => {
      const p: Pending = { job: { id: ++this.seq, tool, args, verify: o.verify }, timeoutS: o.timeoutS, signal: o.signal, what: o.what, resolve, reject };
      if (o.signal) {
        p.onAbort = () => this.abort(p);
        o.signal.addEventListener('abort', p.onAbort, { once: true });
      }
      this.queue.push(p);
      this.dispatch();
    });
  }

  /** ends every thread (tests; the extension's deactivate) */
  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    for (const p of this.queue.splice(0)) this.settle(p, new ControlError('The solver pool was shut down before this call ran.', 'cancelled'));
    await Promise.all(
      slots.map((s) => {
        s.dead = true;
        if (s.job) this.settle(s.job, new ControlError('The solver pool was shut down during this call.', 'cancelled'));
        return s.worker.terminate();
      }),
    );
  }

  private dispatch(): void {
    while (this.queue.length) {
      let slot = this.slots.find((s) => !s.job && !s.dead);
      if (!slot) {
        if (this.slots.length >= this.size) return;
        slot = this.spawn();
        if (!slot) return;
      }
      const p = this.queue.shift()!;
      this.start(slot, p);
    }
  }

  private spawn(): Slot | undefined {
    const file = this.file;
    if (!file) {
      for (const p of this.queue.splice(0))
        this.settle(
          p,
          new ControlError(
            'The solver thread (solveWorker.js) is missing from this installation, so nothing can be solved; reinstall @control.',
            'unsupported',
          ),
        );
      return undefined;
    }
    const resourceLimits = { maxOldGenerationSizeMb: this.memoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, this.memoryMb / 16)) };
    // a bundle's thread is plain JS and gets no flags (the extension host's own flags are not
    // all valid for a thread); the .ts source (tests and bench under tsx) is loaded through
    // tsx's CommonJS hook, registered in the thread before the source is required
    const worker = file.endsWith('.ts')
      ? new Worker(`require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(file)});`, { eval: true, execArgv: [], resourceLimits })
      : new Worker(file, { execArgv: [], resourceLimits });
    this.started++;
    const slot: Slot = { worker };
    worker.unref();
    worker.on('message', (m: SolveReply | { ready: true }) => {
      if ('ready' in m) {
        slot.ready = true;
        if (slot.job && !slot.dead) this.arm(slot);
        return;
      }
      if (slot.dead || !slot.job || m.id !== slot.job.job.id) return;
      const p = slot.job;
      this.release(slot);
      if (m.ok) this.settle(p, undefined, m);
      else this.settle(p, m.control ? new ControlError(m.message, (m.code as ControlErrorCode) ?? 'invalid') : new Error(m.message));
      this.dispatch();
    });
    const lost = (why: string) => {
      if (slot.dead) return;
      slot.dead = true;
      this.slots = this.slots.filter((s) => s !== slot);
      const p = slot.job;
      if (slot.timer) clearTimeout(slot.timer);
      if (p) this.settle(p, new ControlError(`${p.what} stopped: ${why}. Nothing was computed; the solver thread was replaced.`, 'limit'));
      void worker.terminate();
      this.dispatch();
    };
    worker.on('error', (e: Error & { code?: string }) =>
      lost(
        e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `it ran out of its memory budget of ${this.memoryMb} MB (setting control.solveMemoryMB)`
          : `the solver thread failed (${e.message})`,
      ),
    );
    worker.on('exit', (code) => lost(`the solver thread exited (code ${code})`));
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, p: Pending): void {
    slot.job = p;
    slot.worker.ref(); // a call in flight keeps the process alive until it ends
    // a thread still loading gets the job queued, and a start-up limit instead of the budget
    if (slot.ready) this.arm(slot);
    else slot.timer = setTimeout(() => this.expire(slot, `the solver thread did not start within ${STARTUP_S} s`), STARTUP_S * 1000);
    slot.worker.postMessage(p.job);
  }

  /** the call's own time budget, from when its thread is ready */
  private arm(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    const p = slot.job!;
    slot.timer = setTimeout(() => this.expire(slot), p.timeoutS * 1000);
  }

  private release(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
    slot.worker.unref();
  }

  private expire(slot: Slot, startup?: string): void {
    const p = slot.job;
    if (!p) return;
    this.kill(slot);
    this.settle(
      p,
      new ControlError(
        startup
          ? `${p.what} stopped: ${startup}. Nothing was computed; the next call starts a new thread.`
          : `${p.what} did not finish within its time budget of ${fmtS(p.timeoutS)} and was stopped (setting control.solveTimeoutSeconds, or --timeout on the command line). Nothing was computed.`,
        'limit',
      ),
    );
    this.dispatch();
  }

  private abort(p: Pending): void {
    const queued = this.queue.indexOf(p);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.settle(p, cancelled(p.what));
      return;
    }
    const slot = this.slots.find((s) => s.job === p);
    if (!slot) return;
    this.kill(slot);
    this.settle(p, cancelled(p.what));
    this.dispatch();
  }

  /** ends a slot's thread (a synchronous solver cannot be interrupted any other way) */
  private kill(slot: Slot): void {
    slot.dead = true;
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = undefined;
    this.slots = this.slots.filter((s) => s !== slot);
    void slot.worker.terminate();
  }

  private settle(p: Pending, err?: Error, reply?: SolveReply & { ok: true }): void {
    if (p.onAbort) p.signal?.removeEventListener('abort', p.onAbort);
    if (err) p.reject(err);
    else p.resolve(reply!);
  }
}

function cancelled(what: string): ControlError {
  return new ControlError(`${what} was cancelled before it finished; nothing was computed.`, 'cancelled');
}

function fmtS(s: number): string {
  return s >= 1 ? `${+s.toPrecision(3)} s` : `${+(s * 1000).toPrecision(3)} ms`;
}

let shared: SolverPool | undefined;
let sharedOptions: PoolOptions = {};

/** the process-wide pool (started lazily) */
export function solverPool(): SolverPool {
  shared ??= new SolverPool(sharedOptions);
  return shared;
}

/** sets the pool's size and memory budget; a changed budget takes effect on a fresh pool */
export function configureSolverPool(o: PoolOptions): void {
  const changed = o.size !== sharedOptions.size || o.memoryMb !== sharedOptions.memoryMb || o.file !== sharedOptions.file;
  sharedOptions = { ...o };
  if (changed && shared) {
    const old = shared;
    shared = undefined;
    void old.close();
  }
}

// ------------------------------------------------------------------ the verified call

/** rows of an argument that is a list (a matrix's rows), without validating it */
export function rowsOf(v: unknown): number | undefined {
  return Array.isArray(v) ? v.length : undefined;
}

/** columns of an argument that is a list of lists, without validating it */
export function colsOf(v: unknown): number | undefined {
  return Array.isArray(v) && Array.isArray(v[0]) ? v[0].length : undefined;
}

/** "lqr (200 states, 3 inputs)", "rlocus (degree 12)": what a long or failed call was */
export function describeCall(tool: string, args: Record<string, unknown>): string {
  const parts: string[] = [];
  const n = rowsOf(args.A);
  if (n !== undefined) parts.push(`${n} state${n === 1 ? '' : 's'}`);
  const m = colsOf(args.B);
  if (m !== undefined) parts.push(`${m} input${m === 1 ? '' : 's'}`);
  const p = rowsOf(args.C);
  if (p !== undefined && p !== 1) parts.push(`${p} outputs`);
  if (n === undefined && Array.isArray(args.den)) parts.push(`degree ${args.den.length - 1}`);
  for (const k of ['t', 'w']) {
    const v = args[k];
    if (Array.isArray(v) && v.length > 1000) parts.push(`${v.length} ${k === 't' ? 'time' : 'frequency'} samples`);
  }
  return parts.length ? `${tool} (${parts.join(', ')})` : tool;
}

/** result fields holding a number that is not finite where the tool's contract expects one */
export function unexpectedNonFinite(tool: ToolDef, result: Record<string, unknown>): string[] {
  const allowed = new Set(tool.nonFinite ?? []);
  const bad: string[] = [];
  const has = (v: unknown): boolean => {
    if (typeof v === 'number') return !Number.isFinite(v);
    if (Array.isArray(v)) return v.some(has);
    if (v && typeof v === 'object') return Object.values(v).some(has);
    return false;
  };
  for (const [k, v] of Object.entries(result)) if (!allowed.has(k) && has(v)) bad.push(k);
  return bad;
}

/**
 * Runs one tool call through the verified path; resolves with the verified result or rejects
 * with a ControlError a user can act on (bad input, no solution, over budget, cancelled, or a
 * result that failed verification). An Error that is not a ControlError is a bug of ours.
 */
export async function callTool(name: string, raw: Record<string, unknown>, opts: RunOptions = {}): Promise<VerifiedCall> {
  const { tool, args } = prepareArgs(name, raw, opts);
  const doVerify = opts.verify ?? true;
  const what = describeCall(tool.name, args);
  const reply = await solverPool().run(tool.name, args, { verify: doVerify, timeoutS: opts.timeoutS ?? DEFAULT_TIMEOUT_S, signal: opts.signal, what });
  const result = reply.result as Record<string, any>;
  const bad = unexpectedNonFinite(tool, result);
  if (bad.length)
    throw new ControlError(
      `${tool.name} produced a value that is not a finite number in ${bad.join(', ')}: the computation overflowed or broke down in double precision, so no result is given. Rescaling the problem (time or frequency units, state units) usually helps.`,
      'numerical',
    );
  if (!doVerify) return { tool, args, result, ms: reply.ms };
  let verification: Verification;
  if (reply.verifyError !== undefined)
    verification = { ok: false, checks: [{ name: 'verifier', ok: false, detail: `the verifier could not check this result (${reply.verifyError})` }] };
  else if (!reply.verification) verification = { ok: true, checks: [] };
  else verification = reply.verification;
  if (!verification.ok) {
    const failed = verification.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
    throw new VerificationFailed(
      `${tool.name}: the result failed independent verification, so it is not given (${failed.join('; ')}). The problem is probably at the edge of what double precision can solve (nearly uncontrollable, nearly singular, or badly scaled); check the data or rescale it.`,
      verification,
    );
  }
  return { tool, args, result, verification: reply.verification, ms: reply.ms };
}
