/**
 * Playbooks: typed multi-step design workflows run as one request (issue 14 item 7). "Design an
 * LQG controller for this plant" runs analysis → LQR → Kalman filter → compensator → closed
 * loop → report; "a PI controller with 60° phase margin at 0.5 rad/s for G" runs pidtune →
 * loop margins → closed-loop step → report.
 *
 * A playbook is a fixed list of steps, each one tool of the table. A step's arguments are the
 * request's values or fields of earlier steps' results (`From`); the playbook computes no number
 * itself (invariant 2): the closed loop is built by `feedback`, the compensator by `reg`, and the
 * report only quotes results. Each step runs through `executePlan`, so a transfer function is
 * realised and a default time grid chosen exactly as for a single request, on the verified call
 * path. After each step its result is kept in the conversation (`Checkpoint`), so a failed or
 * cancelled step resumes there ("resume") without recomputing the steps before it.
 */
import { fmt, fmtEigenvalues } from '../render/format.js';
import { eye, toRows } from '../linalg/dense.js';
import type { RunOptions } from '../tools/runner.js';
import { executePlan, systemOfResult, type PlanEvent } from './deterministic.js';
import type { Complex, Matrix } from '../types.js';
import type { Verification } from '../verify/index.js';
import { isRows } from '../tools/args.js';

/** an argument taken from an earlier step's result: a field path ('K', 'L.num'), or '$system' for the result as a system */
export class From {
  constructor(
    readonly step: string,
    readonly path: string,
  ) {}
}
const from = (step: string, path = '$system') => new From(step, path);

export type PlaybookId = 'lqg' | 'pid';

export interface PlaybookStep {
  id: string;
  title: string;
  /** what the step is for, one line */
  why: string;
  tool: string;
  /** the request's values, or `From` an earlier step (also inside a system object) */
  args: Record<string, unknown>;
  /** the plan the step runs under ('bode': frequency response and margins) */
  command?: string;
  /** a reason to stop after this step: its result rules the rest out */
  gate?: (result: Record<string, any>) => string | undefined;
  /** the gate in words, for a plan another agent follows (MCP prompts) */
  stopIf?: string;
  /** its result is what the request asked for (the LQG compensator): saved under the request tool's name (rlqg) */
  saves?: boolean;
}

export interface Playbook {
  id: PlaybookId;
  title: string;
  /** the tool a request names when it asks for this design in words */
  tool: string;
  /** the calls in one line (they do not depend on the arguments) */
  outline: string;
  /** the steps for a request's arguments (the tool's arguments as read) */
  steps(inputs: Record<string, unknown>): PlaybookStep[];
  /** the closing report: what each step gave, quoted from the results */
  report(inputs: Record<string, unknown>, results: Record<string, StepRecord>): string;
}

/** a finished step as the checkpoint keeps it */
export interface StepRecord {
  tool: string;
  result: Record<string, any>;
  verified: boolean | null;
  /** the turn that computed it */
  turn: number;
}

/** where a playbook stands; kept in the conversation so a failed or cancelled step resumes there */
export interface Checkpoint {
  playbook: PlaybookId;
  /** the request's arguments (the playbook tool's, as read) */
  args: Record<string, unknown>;
  /** the turn that started it */
  turn: number;
  done: Record<string, StepRecord>;
  /** the step that failed or was cancelled, and why */
  failed?: { step: string; message: string };
}

// ---- the playbooks

const block = (M: Matrix, r0: number, r1: number, c0: number, c1: number): Matrix => M.slice(r0, r1).map((r) => r.slice(c0, c1));
const nonzero = (M: Matrix) => M.some((r) => r.some((x) => x !== 0));

/**
 * LQG (MATLAB lqg(sys, QXU, QWV)): the weights are split back into lqr's Q, R, N and kalman's
 * Qn, Rn, N (blocks of QXU and QWV, as lqg defines them; w enters every state, so G = I), so
 * each gain comes from its own verified design step; `reg` assembles the compensator
 * u = −Kx̂ and its verifier checks the separation principle; `feedback(P, C, +1)` (lqg's and
 * reg's compensators are connected with positive feedback) closes the loop.
 */
const LQG: Playbook = {
  id: 'lqg',
  title: 'LQG design',
  tool: 'lqg',
  outline: 'analyse → lqr (dlqr) → kalman → reg → feedback (+1) → step → report',
  steps(a) {
    const A = a.A as Matrix,
      B = a.B as Matrix,
      C = a.C as Matrix;
    const n = A.length,
      m = B[0].length,
      p = C.length;
    const QXU = a.QXU as Matrix,
      QWV = a.QWV as Matrix;
    const Ts = typeof a.Ts === 'number' && a.Ts > 0 ? { Ts: a.Ts } : {};
    const sys = { A, B, C, ...(a.D !== undefined ? { D: a.D } : {}) };
    const N = isRows(QXU) && QXU.length === n + m ? block(QXU, 0, n, n, n + m) : undefined;
    const Nn = isRows(QWV) && QWV.length === n + p ? block(QWV, 0, n, n, n + p) : undefined;
    const current = a.type === 'current';
    return [
      {
        id: 'analysis',
        title: 'Analysis',
        why: 'Open-loop poles, controllability and observability: LQG needs (A, B) stabilisable and (A, C) detectable',
        tool: 'analyse',
        args: { ...sys, ...Ts },
        stopIf: '(A, B) is not stabilisable or (A, C) is not detectable: then no LQG controller stabilises the plant',
        gate: (r) => {
          const why: string[] = [];
          if (r.controllability?.stabilisable === false)
            why.push(`(A, B) is not stabilisable (uncontrollable unstable modes), so no regulator gain K makes A − BK stable`);
          if (r.observability?.detectable === false)
            why.push(`(A, C) is not detectable (unobservable unstable modes), so no Kalman gain L makes A − LC stable`);
          return why.length ? why.join('; ') : undefined;
        },
      },
      {
        id: 'regulator',
        title: 'Regulator (LQR)',
        why: `State feedback u = −Kx minimising ${Ts.Ts ? 'Σ' : '∫'} xᵀQx + uᵀRu${N && nonzero(N) ? ' + 2xᵀNu' : ''}; Q, R${N && nonzero(N) ? ', N' : ''} are the blocks of QXU`,
        tool: Ts.Ts ? 'dlqr' : 'lqr',
        args: { A, B, Q: block(QXU, 0, n, 0, n), R: block(QXU, n, n + m, n, n + m), ...(N && nonzero(N) ? { N } : {}) },
      },
      {
        id: 'estimator',
        title: 'Estimator (Kalman filter)',
        why: `The steady-state Kalman gain L for process noise w on every state (G = I, as lqg) and measurement noise v; Qn, Rn${Nn && nonzero(Nn) ? ', N' : ''} are the blocks of QWV`,
        tool: 'kalman',
        args: {
          A,
          G: toRows(eye(n)),
          C,
          Qn: block(QWV, 0, n, 0, n),
          Rn: block(QWV, n, n + p, n, n + p),
          ...(Nn && nonzero(Nn) ? { N: Nn } : {}),
          ...Ts,
          ...(a.type !== undefined ? { type: a.type } : {}),
        },
      },
      current
        ? {
            id: 'compensator',
            title: 'Compensator',
            why: `The 'current' estimator's compensator (reg takes the delayed form only, so lqg builds it, from the same weights)`,
            tool: 'lqg',
            args: { ...a },
          }
        : {
            id: 'compensator',
            title: 'Compensator',
            why: 'The controller u = −Kx̂ with the estimator above, from y to u (connected with positive feedback, as MATLAB reg and lqg)',
            tool: 'reg',
            saves: true,
            args: { ...sys, ...Ts, K: from('regulator', 'K'), L: from('estimator', 'L') },
          },
      {
        id: 'closed-loop',
        title: 'Closed loop',
        why: 'The plant with the compensator in its feedback path, positive sign (u = C_K(y) + d): from an input disturbance d to y',
        tool: 'feedback',
        args: { sys1: { ...sys, ...Ts }, sys2: from('compensator', '$ss'), sign: 1 },
      },
      {
        id: 'response',
        title: 'Disturbance step',
        why: 'The outputs after a unit step disturbance at the plant input: the closed loop must settle',
        tool: 'step',
        args: from('closed-loop', '$ss') as unknown as Record<string, unknown>,
      },
    ];
  },
  report(a, r) {
    const rows: string[][] = [];
    const an = r.analysis?.result;
    if (an) rows.push(['Analysis', 'open-loop poles', complexList(an.eigenvalues), check(r.analysis)]);
    const reg = r.regulator?.result;
    if (reg) rows.push(['Regulator', 'K; eig(A − BK)', `${matText(reg.K)}; ${complexList(reg.poles)}`, check(r.regulator)]);
    const est = r.estimator?.result;
    if (est) rows.push(['Estimator', 'L; eig(A − LC)', `${matText(est.L)}; ${complexList(est.poles)}`, check(r.estimator)]);
    const comp = r.compensator?.result;
    if (comp) rows.push(['Compensator', 'order', `${(comp.A as Matrix | undefined)?.length ?? '?'} states, u = −Kx̂, positive feedback`, check(r.compensator)]);
    const cl = r['closed-loop']?.result;
    if (cl) {
      const poles = (cl.poles ?? []) as [number, number][];
      const discrete = typeof a.Ts === 'number' && a.Ts > 0;
      const stable = poles.every(([re, im]) => (discrete ? Math.hypot(re, im) < 1 : re < 0));
      rows.push(['Closed loop', 'poles', `${complexList(poles)}${poles.length ? (stable ? ' (stable)' : ' (**unstable**)') : ''}`, check(r['closed-loop'])]);
    }
    const st = r.response?.result;
    if (st) rows.push(['Disturbance step', 'final value of y', finalValues(st), check(r.response)]);
    return table(rows);
  },
};

/**
 * PID (MATLAB pidtune, then margin(C*G) and step(feedback(C*G, 1))): the gains, then the loop
 * L = C·P's margins by the margins tool (its own verifier: a second route to pidtune's margins)
 * with its Bode plot, then the closed loop T = L/(1 + L)'s step response and characteristics.
 */
const PID: Playbook = {
  id: 'pid',
  title: 'PID design',
  tool: 'pidtune',
  outline: 'pidtune → margins of L = C·P → feedback(L, 1) → step of T → report',
  steps(a) {
    const Ts = typeof a.Ts === 'number' && a.Ts > 0 ? { Ts: a.Ts } : {};
    return [
      {
        id: 'design',
        title: 'Controller',
        why: 'The gains that meet the crossover and phase margin (pidtune)',
        tool: 'pidtune',
        args: { ...a },
      },
      {
        id: 'loop',
        title: 'Loop margins',
        why: 'The open loop L = C·P by the margins tool, a second route to the margins pidtune reports (Bode and Nyquist plots)',
        tool: 'margins',
        args: { num: from('design', 'L.num'), den: from('design', 'L.den'), ...Ts },
      },
      {
        id: 'closed-loop',
        title: 'Closed loop',
        why: 'T = L/(1 + L) built by the feedback tool from L (unity negative feedback), its poles',
        tool: 'feedback',
        args: { sys1: { num: from('design', 'L.num'), den: from('design', 'L.den'), ...Ts }, sys2: 1 },
      },
      {
        id: 'response',
        title: 'Closed-loop step',
        why: 'The reference step through T: overshoot, rise and settling time',
        tool: 'step',
        args: from('closed-loop', '$ss') as unknown as Record<string, unknown>,
      },
    ];
  },
  report(_a, r) {
    const rows: string[][] = [];
    const d = r.design?.result;
    if (d) {
      const gains = [`Kp = ${fmt(d.Kp)}`, d.Ki ? `Ki = ${fmt(d.Ki)}` : '', d.Kd ? `Kd = ${fmt(d.Kd)}` : '', d.Tf ? `Tf = ${fmt(d.Tf)}` : '']
        .filter(Boolean)
        .join(', ');
      rows.push(['Controller', `${d.type} gains`, gains, check(r.design)]);
      // the specification's verdicts as pidtune's table gave them: what the design meets and misses
      const spec = Array.isArray(d.spec) ? (d.spec as { item: string; target: string; achieved: string; pass: boolean }[]) : [];
      if (spec.length) {
        const missed = spec.filter((x) => !x.pass);
        rows.push([
          'Specification',
          `${spec.length} item${spec.length === 1 ? '' : 's'}`,
          missed.length ? `**missed**: ${missed.map((x) => `${x.item} ${x.achieved} (target ${x.target})`).join('; ')}` : 'all met',
          check(r.design),
        ]);
      }
    }
    const m = r.loop?.result;
    if (m)
      rows.push([
        'Loop margins',
        'PM at ωc; GM',
        `${fmt(m.pm_deg)}° at ${fmt(m.w_gc)} rad/s; ${typeof m.gm === 'number' && Number.isFinite(m.gm) ? `${fmt(m.gm)} (${fmt(m.gm_db)} dB) at ${fmt(m.w_pc)} rad/s` : '∞ (the phase never reaches −180°)'}`,
        check(r.loop),
      ]);
    const cl = r['closed-loop']?.result;
    if (cl) rows.push(['Closed loop', 'poles', complexList(cl.poles), check(r['closed-loop'])]);
    const s = r.response?.result;
    if (s) rows.push(['Closed-loop step', 'final value', finalValues(s), check(r.response)]);
    return table(rows);
  },
};

export const PLAYBOOKS: Record<PlaybookId, Playbook> = { lqg: LQG, pid: PID };

/** the playbook a tool runs when a request asks for that design in words */
export function playbookFor(tool: string): Playbook | undefined {
  return Object.values(PLAYBOOKS).find((p) => p.tool === tool);
}

/** the button that resumes a playbook stopped at a step (a failure, the chat's stop button), if any */
export function resumeCandidate(cp: Checkpoint | undefined): { label: string; prompt: string } | undefined {
  if (!cp?.failed) return undefined;
  const pb = PLAYBOOKS[cp.playbook];
  const steps = pb.steps(cp.args);
  const k = steps.findIndex((s) => s.id === cp.failed!.step) + 1;
  if (!k) return undefined;
  return { label: `Resume from step ${k} (${steps[k - 1].title})`, prompt: `resume the ${pb.title} from step ${k}` };
}

// ---- running

/** what running a playbook reports: a step's heading, its calls (as executePlan), a stop, the report */
export type PlaybookEvent =
  | { kind: 'step'; index: number; total: number; step: PlaybookStep; reused?: StepRecord }
  | { kind: 'call'; step: PlaybookStep; event: PlanEvent }
  | { kind: 'gate'; step: PlaybookStep; reason: string }
  | { kind: 'failed'; step: PlaybookStep; message: string }
  | { kind: 'report'; markdown: string };

/** the value of a `From` in the results so far (a field path, or the result as a system) */
function resolve(f: From, done: Record<string, StepRecord>): unknown {
  const rec = done[f.step];
  if (!rec) throw new Error(`playbook: step '${f.step}' has no result`);
  if (f.path === '$system') return systemOfResult(rec.result);
  // the state-space form of a result that also carries num/den (a SISO closed loop)
  if (f.path === '$ss') {
    const { A, B, C, D, Ts } = rec.result;
    return { A, B, C, D, ...(typeof Ts === 'number' && Ts > 0 ? { Ts } : {}) };
  }
  let v: any = rec.result;
  for (const k of f.path.split('.')) v = v?.[k];
  if (v === undefined) throw new Error(`playbook: step '${f.step}' gave no ${f.path}`);
  return v;
}

function resolveArgs(v: unknown, done: Record<string, StepRecord>): any {
  if (v instanceof From) return resolve(v, done);
  if (Array.isArray(v)) return v;
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolveArgs(x, done)]));
  return v;
}

/** sample data (a step's t and y) is for the plot of that turn; the checkpoint keeps what is quoted and reused */
function keepable(result: Record<string, any>): Record<string, any> {
  const long = Object.entries(result).filter(([, v]) => Array.isArray(v) && v.length > 64);
  if (!long.length) return result;
  // the last sample of each series stays (the report quotes where a response ended)
  return {
    ...Object.fromEntries(Object.entries(result).filter(([, v]) => !(Array.isArray(v) && v.length > 64))),
    last: Object.fromEntries(long.map(([k, v]) => [k, (v as unknown[])[(v as unknown[]).length - 1]])),
  };
}

/**
 * Runs a playbook through the verified call path. `checkpoint` holds the steps already done
 * (resumed: they are not run again); it is updated after each step, and `failed` set when a
 * step fails, is cancelled, or a gate stops the playbook.
 */
export async function* runPlaybook(pb: Playbook, checkpoint: Checkpoint, turn: number, opts: RunOptions = {}): AsyncGenerator<PlaybookEvent> {
  const steps = pb.steps(checkpoint.args);
  checkpoint.failed = undefined;
  for (const [i, step] of steps.entries()) {
    const reused = checkpoint.done[step.id];
    yield { kind: 'step', index: i + 1, total: steps.length, step, ...(reused ? { reused } : {}) };
    if (reused) {
      const reason = step.gate?.(reused.result);
      if (reason) {
        checkpoint.failed = { step: step.id, message: reason };
        yield { kind: 'gate', step, reason };
        return;
      }
      continue;
    }
    // until it finishes, this step is where the playbook stands (a turn cancelled mid-step resumes here)
    checkpoint.failed = { step: step.id, message: 'it did not finish (cancelled or interrupted)' };
    let args: Record<string, unknown>;
    try {
      args = resolveArgs(step.args, checkpoint.done);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      checkpoint.failed = { step: step.id, message };
      yield { kind: 'failed', step, message };
      return;
    }
    let main: { result: Record<string, any>; verification?: Verification } | undefined;
    let error: unknown;
    for await (const ev of executePlan(step.tool, args, step.command, opts)) {
      yield { kind: 'call', step, event: ev };
      if (ev.kind === 'done' && ev.step.tool === step.tool && !ev.step.intermediate) main = { result: ev.call.result, verification: ev.call.verification };
      if (ev.kind === 'failed' && !ev.step.optional) error = ev.error;
    }
    if (!main || error) {
      const message = error instanceof Error ? error.message : error ? String(error) : `${step.tool} gave no result`;
      checkpoint.failed = { step: step.id, message };
      yield { kind: 'failed', step, message };
      return;
    }
    checkpoint.done[step.id] = { tool: step.tool, result: keepable(main.result), verified: main.verification?.ok ?? null, turn };
    checkpoint.failed = undefined;
    const reason = step.gate?.(main.result);
    if (reason) {
      checkpoint.failed = { step: step.id, message: reason };
      yield { kind: 'gate', step, reason };
      return;
    }
  }
  yield { kind: 'report', markdown: pb.report(checkpoint.args, checkpoint.done) };
}

// ---- the plan shown before anything runs (/plan)

/** a playbook's steps as calls, the arguments from earlier steps named, nothing computed */
export function playbookPlan(pb: Playbook, inputs: Record<string, unknown>): { tool: string; title: string; why: string; args: Record<string, string> }[] {
  return pb.steps(inputs).map((s) => ({ tool: s.tool, title: s.title, why: s.why, args: describeArgs(s.args, pb.steps(inputs)) }));
}

function describeArgs(args: Record<string, unknown>, steps: PlaybookStep[]): Record<string, string> {
  if (args instanceof From) return { system: fromText(args, steps) };
  return Object.fromEntries(
    Object.entries(args).map(([k, v]) => {
      if (v instanceof From) return [k, fromText(v, steps)];
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        const inner = Object.entries(v as Record<string, unknown>);
        return [
          k,
          inner.some(([, x]) => x instanceof From)
            ? inner.map(([ik, x]) => (x instanceof From ? fromText(x, steps) : ik)).join(', ')
            : `the plant (${inner.map(([ik]) => ik).join(', ')})`,
        ];
      }
      return [k, valueText(v)];
    }),
  );
}

/** "K of step 2 (lqr)": where a `From` takes its value (a whole result: "the system of step 4 (reg)"); /plan and the MCP prompts */
export function stepRef(f: From, steps: PlaybookStep[], what = f.path === '$system' || f.path === '$ss' ? 'the system' : f.path): string {
  const i = steps.findIndex((s) => s.id === f.step);
  return `${what} of step ${i + 1} (${steps[i]?.tool ?? f.step})`;
}

const fromText = (f: From, steps: PlaybookStep[]) => `← ${stepRef(f, steps)}`;

export function valueText(v: unknown): string {
  if (typeof v === 'number') return fmt(v);
  if (typeof v === 'string') return `'${v}'`;
  if (typeof v === 'boolean') return String(v);
  if (isRows(v) && v.length === 1 && v[0].length === 1) return fmt(v[0][0]);
  if (isRows(v)) return v.length <= 4 && v.every((r) => r.length <= 4) ? matText(v) : `${v.length}×${v[0]?.length ?? 0} matrix`;
  if (Array.isArray(v) && v.every((x) => typeof x === 'number')) return v.length <= 8 ? `[${v.map((x) => fmt(x)).join(' ')}]` : `[${v.length} values]`;
  return JSON.stringify(v);
}

// ---- report helpers (quote results; compute nothing)

function check(r: StepRecord | undefined): string {
  return !r ? '' : r.verified === true ? '✔ verified' : r.verified === false ? '✘ failed' : 'not independently verified';
}

function matText(M: unknown): string {
  if (!isRows(M)) return typeof M === 'number' ? fmt(M) : '—';
  return `[${M.map((r) => r.map((x) => fmt(x)).join(' ')).join('; ')}]`;
}

/** poles as the rest of the answers show them, conjugate pairs folded ("-2.97473 ± 1.16147j") */
function complexList(ps: unknown): string {
  return Array.isArray(ps) ? fmtEigenvalues(ps as Complex[]).join(', ') : '—';
}

/** where a step response ended: y at the last time (quoted from the result, as the checkpoint keeps it) */
function finalValues(st: Record<string, any>): string {
  const t = st.last?.t ?? (Array.isArray(st.t) ? st.t[st.t.length - 1] : undefined);
  const y = st.last?.y ?? (Array.isArray(st.y) ? st.y[st.y.length - 1] : undefined);
  if (y === undefined || typeof t !== 'number') return '—';
  const flat = (Array.isArray(y) ? (y as unknown[]).flat(2) : [y]) as number[];
  return `y(${fmt(t)} s) = ${flat.length === 1 ? fmt(flat[0]) : `[${flat.map((x) => fmt(x)).join(' ')}]`}`;
}

function table(rows: string[][]): string {
  return ['| step | what | result | check |', '|---|---|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}
