/**
 * Deterministic plans: the calls a read request makes (src/core/reader/ reads the message).
 * Most requests are one tool; a few are short fixed plans an engineer expects together:
 * step (a transfer function is realised first; the step response; its characteristics),
 * bode (frequency response on a grid around the poles and zeros, and the margins), and any
 * state-space tool given a transfer function (realised first by tf2ss, shown as a means).
 */

import { callTool, type RunOptions, type VerifiedCall } from '../tools/runner.js';
import { getTool } from '../tools/table.js';
import { ControlError } from '../errors.js';
import { fmt } from '../render/format.js';
import type { StepSpec } from '../solvers/timeresp.js';
import type { Matrix } from '../types.js';

/**
 * A pole placement whose poles came from time-domain specifications is checked against them:
 * the targets (as the message gave them) and the output the step is measured on.
 */
export interface SpecCheck {
  targets: Omit<StepSpec, 'note'>;
  /** the output row when the message gave C; else the first state (said in the answer) */
  C?: Matrix;
}

/** runs a helper call whose result only chooses a grid (never shown) */
export type GridRun = (tool: string, a: Record<string, unknown>) => Promise<Record<string, any>>;

/** one call of a deterministic plan; `args` sees the results of the calls before it */
export interface PlannedCall {
  tool: string;
  args: (prev: Record<string, any>[]) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** a call that only adds facts (stepinfo after step) is skipped, with the reason, when it cannot apply */
  optional?: boolean;
  /** a means, not what was asked (tf2ss realising a transfer function): no code or plot is offered for it */
  intermediate?: boolean;
  /** a call that builds the system the request runs on (feedback(G, 1) in step(feedback(G, 1))) */
  pre?: PreCall;
  /** the arguments as /plan shows them when `args` must compute (a default grid): `Later` says what is chosen when it runs */
  preview?: (prev: Record<string, any>[]) => Record<string, unknown>;
}

/** an argument known only when the plan runs: an earlier call's result, or a grid chosen from the poles */
export class Later {
  constructor(readonly text: string) {}
}

/**
 * The calls a reading would make, with their arguments, computing nothing (/plan, `control ask
 * --plan`): arguments from earlier calls' results and default grids are shown as `Later`.
 */
export async function previewPlan(
  name: string,
  a: Record<string, unknown>,
  command: string | undefined,
  pre: readonly PreCall[] = [],
  spec?: SpecCheck,
): Promise<{ tool: string; args: Record<string, unknown>; intermediate?: boolean; optional?: boolean }[]> {
  const out: { tool: string; args: Record<string, unknown>; intermediate?: boolean; optional?: boolean }[] = [];
  for (const p of pre) out.push({ tool: p.tool, args: p.args });
  if (pre.length) {
    const last = pre[pre.length - 1];
    for (const k of ['num', 'den', 'A', 'B', 'C', 'D']) if (k in a) a = { ...a, [k]: new Later(`${k} of the result of \`${last.text}\``) };
  }
  const run: GridRun = () => Promise.reject(new Later('chosen when it runs'));
  const plan = planCalls(name, a, command, run, spec);
  const first = out.length + 1;
  const prev = plan.map(
    (s, i) =>
      new Proxy({}, { get: (_t, key) => (typeof key === 'string' ? new Later(`${key} of step ${first + i} (${s.tool})`) : undefined) }) as Record<string, any>,
  );
  for (const step of plan) {
    let args: Record<string, unknown>;
    try {
      args = step.preview ? step.preview(prev) : await step.args(prev);
    } catch {
      args = step.preview ? step.preview(prev) : {};
    }
    out.push({ tool: step.tool, args, ...(step.intermediate ? { intermediate: true } : {}), ...(step.optional ? { optional: true } : {}) });
  }
  return out;
}

const GRID_W = new Later('200 log-spaced frequencies two decades around the poles and zeros, chosen when it runs');
const GRID_T = new Later('a uniform grid over about 8 of the slowest time constants, chosen when it runs');

/** eigenvalues of a small dense matrix for choosing grids only (never shown as a result) */
async function gridScales(args: Record<string, unknown>, run: GridRun): Promise<number[]> {
  const pz = await run('poles_zeros', args.A ? { A: args.A, B: args.B, C: args.C, D: args.D } : { num: args.num, den: args.den });
  const mags = [...(pz.poles as [number, number][]), ...(pz.zeros as [number, number][])].map(([r, i]) => Math.hypot(r, i)).filter((x) => x > 1e-9);
  return mags;
}

/** a log-spaced frequency grid two decades around the poles and zeros (up to π/Ts in discrete time) */
export async function defaultFrequencies(args: Record<string, unknown>, run: GridRun): Promise<number[]> {
  const Ts = typeof args.Ts === 'number' && args.Ts > 0 ? args.Ts : 0;
  let lo: number, hi: number;
  if (Ts) {
    hi = Math.PI / Ts;
    lo = hi * 1e-3;
  } else {
    const mags = await gridScales(args, run);
    lo = mags.length ? Math.min(...mags) / 100 : 0.01;
    hi = mags.length ? Math.max(...mags) * 100 : 100;
  }
  const N = 200;
  const a = Math.log10(lo),
    b = Math.log10(hi);
  return Array.from({ length: N }, (_, k) => 10 ** (a + ((b - a) * k) / (N - 1)));
}

/** a uniform time grid over about 8 slowest time constants (continuous) or 100 samples (discrete) */
export async function defaultTimes(args: Record<string, unknown>, run: GridRun): Promise<number[]> {
  const Ts = typeof args.Ts === 'number' && args.Ts > 0 ? args.Ts : 0;
  if (Ts) return Array.from({ length: 101 }, (_, k) => k * Ts);
  const ev = (await run('eig', { A: args.A })).eigenvalues as [number, number][];
  const decay = ev.map(([r]) => -r).filter((x) => x > 1e-9);
  const osc = ev.map(([, i]) => Math.abs(i)).filter((x) => x > 1e-9);
  let tEnd = decay.length ? 8 / Math.min(...decay) : 10;
  if (osc.length) tEnd = Math.max(tEnd, ((2 * Math.PI) / Math.min(...osc)) * 2);
  tEnd = Math.min(Math.max(tEnd, 1e-3), 1e4);
  const N = 400;
  return Array.from({ length: N + 1 }, (_, k) => (tEnd * k) / N);
}

/**
 * The calls a well-formed request makes. Most commands are one tool; a few are short fixed
 * plans an engineer expects together: /step (a transfer function is realised first; the
 * step response; its characteristics), /bode (frequency response on a grid around the poles
 * and zeros, and the margins).
 */
export function planCalls(name: string, a: Record<string, unknown>, command: string | undefined, run: GridRun, spec?: SpecCheck): PlannedCall[] {
  if (name === 'place' && spec && a.Ts === undefined && Array.isArray(a.A) && Array.isArray(a.B) && (a.B as Matrix)[0]?.length === 1) return specPlan(a, spec);
  const fromTf = !a.A && Array.isArray(a.num) && Array.isArray(a.den);
  const ssArgs = (prev: Record<string, any>[]) => {
    const ss = fromTf ? prev[0] : a;
    const out: Record<string, unknown> = { A: ss.A, B: ss.B, C: ss.C };
    if (ss.D !== undefined) out.D = ss.D;
    if (a.Ts !== undefined) out.Ts = a.Ts;
    return out;
  };
  const realise: PlannedCall[] = fromTf ? [{ tool: 'tf2ss', args: () => ({ num: a.num, den: a.den }), intermediate: true }] : [];
  const cmd = (command ?? '').toLowerCase();
  if (cmd === 'bode' || (name === 'freqresp' && !a.w)) {
    return [
      ...realise,
      {
        tool: 'freqresp',
        args: async (prev) => ({ ...ssArgs(prev), w: a.w ?? (await defaultFrequencies(ssArgs(prev), run)) }),
        preview: (prev) => ({ ...ssArgs(prev), w: a.w ?? GRID_W }),
      },
      // margins read a transfer function directly (exact polynomials, no round-trip)
      { tool: 'margins', args: (prev) => (fromTf ? { num: a.num, den: a.den, ...(a.Ts !== undefined ? { Ts: a.Ts } : {}) } : ssArgs(prev)), optional: true },
    ];
  }
  if (name === 'step' || name === 'impulse') {
    const calls: PlannedCall[] = [
      ...realise,
      {
        tool: name,
        args: async (prev) => ({ ...ssArgs(prev), t: a.t ?? (await defaultTimes(ssArgs(prev), run)) }),
        preview: (prev) => ({ ...ssArgs(prev), t: a.t ?? (a.Ts !== undefined ? new Later('101 samples') : GRID_T) }),
      },
    ];
    if (name === 'step' && a.Ts === undefined) calls.push({ tool: 'stepinfo', args: (prev) => ssArgs(prev), optional: true });
    return calls;
  }
  // a state-space tool given a transfer function: realise it, then the tool on (A, B, C, D)
  const tool = getTool(name);
  if (fromTf && tool && !tool.parameters.properties.num) {
    const p = tool.parameters.properties;
    return [
      ...realise,
      {
        tool: name,
        args: (prev) => {
          const ss = ssArgs(prev);
          const out: Record<string, unknown> = {};
          for (const [k, v] of Object.entries({ ...a, ...ss })) if (p[k] && k !== 'num' && k !== 'den') out[k] = v;
          if (a.Ts !== undefined && p.Ts) out.Ts = a.Ts;
          return out;
        },
      },
    ];
  }
  if (name === 'c2d' && a.method === undefined) return [{ tool: 'c2d', args: () => ({ ...a, method: 'zoh' }) }];
  return [{ tool: name, args: () => a }];
}

/**
 * place, then the closed loop's step against the specification the poles came from: the DC
 * gain of (A − BK, B, C) by the verified dcgain (a means), the reference gain N = 1/that
 * (MATLAB's Nbar/rscale: unit DC gain from r to y; overshoot, rise and settling times are
 * relative to the step, so N only scales peak and final value), then stepinfo with the
 * targets on (A − BK, B·N, C). C is the message's, else the first state (an engineer's
 * position output), said in the answer.
 */
function specPlan(a: Record<string, unknown>, spec: SpecCheck): PlannedCall[] {
  const n = (a.A as Matrix).length;
  const C = spec.C ?? [Array.from({ length: n }, (_, j) => (j === 0 ? 1 : 0))];
  return [
    { tool: 'place', args: () => a },
    { tool: 'dcgain', args: (prev) => ({ A: prev[0].Acl, B: a.B, C }), intermediate: true, optional: true },
    {
      tool: 'stepinfo',
      optional: true,
      preview: (prev) => ({
        A: prev[0].Acl,
        B: new Later('B·N with the reference gain N = 1/DC gain of step 2'),
        C,
        spec: spec.targets,
      }),
      args: (prev) => {
        const g = prev[1]?.gain?.[0]?.[0];
        if (typeof g !== 'number' || !Number.isFinite(g) || Math.abs(g) < 1e-12)
          throw new ControlError(
            `The specification check needs the closed loop's DC gain C(−A + BK)⁻¹B to be finite and nonzero, but with C = [${C[0].join(' ')}] it is ${g}: that output has a zero at s = 0 (a velocity, say) or does not see the input, so no reference gain N makes its step reach 1. Give the C of the output the specification is about.`,
            'infeasible',
          );
        const N = 1 / g;
        const out = spec.C ? `y = Cx with your C` : `y = x₁ (no C was given: the first state is measured, C = [${C[0].join(' ')}])`;
        const note =
          `Checked on the closed loop ẋ = (A − BK)x + B·N·r, ${out}, with the reference gain N = 1/(C(−A + BK)⁻¹B) = ${fmt(N)} for unit DC gain ` +
          `(MATLAB's Nbar/rscale convention; overshoot, rise and settling times do not depend on N). The second-order formulas behind the poles hold exactly only without further poles and zeros; the measured response is what counts.`;
        return { A: prev[0].Acl, B: (a.B as Matrix).map((row) => [row[0] * N]), C, spec: { ...spec.targets, note } };
      },
    },
  ];
}

/**
 * A call whose result is the system the request's tool runs on: `step(feedback(G, 1))` runs
 * feedback first (verified, shown), then step on the closed loop it returns; `step(G)` of a
 * MIMO transfer matrix runs tf2ss first (reader/mimo.ts), then step on the realisation.
 */
export interface PreCall {
  tool: string;
  args: Record<string, unknown>;
  /** the name the result is saved under, when the message gave one (`T = feedback(G, C); step(T)`) */
  output?: string;
  /** how the message wrote it: `feedback(G, 1)` */
  text: string;
}

/** the system arguments of a result that is a system: num/den when SISO, else A, B, C, D (and Ts) */
export function systemOfResult(r: Record<string, any>): Record<string, unknown> {
  const Ts = typeof r.Ts === 'number' && r.Ts > 0 ? { Ts: r.Ts } : {};
  if (Array.isArray(r.num) && Array.isArray(r.den) && typeof r.num[0] === 'number') return { num: r.num, den: r.den, ...Ts };
  return { A: r.A, B: r.B, C: r.C, D: r.D, ...Ts };
}

/** what running a plan reports, step by step (a front end shows the call before its result) */
export type PlanEvent =
  | { kind: 'start'; step: PlannedCall; args: Record<string, unknown> }
  | { kind: 'done'; step: PlannedCall; call: VerifiedCall }
  | { kind: 'failed'; step: PlannedCall; args: Record<string, unknown>; error: unknown; started: boolean };

/**
 * Runs a read request's plan through the verified call path, one event before and one after
 * each call. A failed optional call is reported and the plan goes on; any other failure ends
 * it. The helper calls that choose a default grid run on the solver thread too (unverified:
 * they are never shown), so no part of a turn solves on the caller's thread.
 */
export async function* executePlan(
  name: string,
  a: Record<string, unknown>,
  command: string | undefined,
  opts: RunOptions = {},
  pre: readonly PreCall[] = [],
  spec?: SpecCheck,
): AsyncGenerator<PlanEvent> {
  const run: GridRun = async (tool, x) => (await callTool(tool, x, { ...opts, verify: false })).result;
  // the calls that build the system first: the request's tool then runs on the last one's result
  for (const p of pre) {
    const step: PlannedCall = { tool: p.tool, args: () => p.args, pre: p };
    yield { kind: 'start', step, args: p.args };
    try {
      const call = await callTool(p.tool, p.args, opts);
      yield { kind: 'done', step, call };
      // the system the reading held (the reader's own reading of the operation) is replaced by the verified result;
      // num/den reach a state-space tool through planCalls's realisation
      const props = getTool(name)?.parameters.properties ?? {};
      const sys = Object.entries(systemOfResult(call.result)).filter(([k]) => props[k] || k === 'num' || k === 'den');
      // a result without a sample time of its own (tf2ss realising a discrete transfer matrix) keeps the system's
      const keepTs = call.result.Ts === undefined && a.Ts !== undefined;
      a = {
        ...Object.fromEntries(Object.entries(a).filter(([k]) => !['num', 'den', 'A', 'B', 'C', 'D', ...(keepTs ? [] : ['Ts'])].includes(k))),
        ...Object.fromEntries(sys),
      };
    } catch (e) {
      yield { kind: 'failed', step, args: p.args, error: e, started: true };
      return;
    }
  }
  const plan = planCalls(name, a, command, run, spec);
  const results: Record<string, any>[] = [];
  for (const step of plan) {
    let args: Record<string, unknown>;
    try {
      args = await step.args(results);
    } catch (e) {
      yield { kind: 'failed', step, args: {}, error: e, started: false };
      return;
    }
    yield { kind: 'start', step, args };
    try {
      const call = await callTool(step.tool, args, opts);
      results.push(call.result);
      yield { kind: 'done', step, call };
    } catch (e) {
      yield { kind: 'failed', step, args, error: e, started: true };
      if (!step.optional) return;
    }
  }
}
