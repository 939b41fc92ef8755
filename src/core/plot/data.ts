/**
 * What a plot shows, computed by the solvers only: the plot webview draws these numbers and
 * computes none. Which plots an answer offers is each tool's `plots` facet (plot/specs.ts).
 *
 *   bode     freqresp (on the chat's default grid) + margins
 *   step     step + stepinfo          impulse  impulse
 *   nyquist  nyquist                  rlocus   rlocus
 *   pzmap    poles_zeros (or eig when only A is known)
 *   lsim     lsim (the call's own arguments: system, input, grid): y and u against t
 *   initial  initial (system, x0, grid): y against t
 *   sigma    sigma (its default grid): the singular values in dB against ω, and their peak
 *   diskmargin  diskmargin or diskmargin_io (the call's own arguments): the guaranteed multiloop
 *            disk margin α(ω) = 1/μ_upper(ω) against ω, its least value marked
 *   nlsim    nlsim (the call's own arguments: equations, x0, input, tfinal): the states against t;
 *            cbf_filter's arguments (a barrier among them): its closed loop, the filtered input below
 *   mpc      mpc (the call's own arguments): the closed-loop states (and outputs when C is
 *            given) and inputs against the step k, each with its bounds as dashed lines
 */
import { defaultFrequencies, defaultTimes } from '../agent/deterministic.js';
import { ControlError } from '../errors.js';
import { polyText } from '../render/results.js';
import { callTool, type RunOptions } from '../tools/runner.js';
import { getTool } from '../tools/table.js';
import { hasFacet } from '../tools/types.js';
import { KIND_LABEL, PLOT_KINDS, systemArgs, type PlotKind, type PlotSpec } from './specs.js';

export { KIND_LABEL, PLOT_KINDS, type PlotKind, type PlotSpec } from './specs.js';

export interface PlotRequest {
  kind: PlotKind;
  /** num/den or A, B, C, D (and Ts) */
  args: Record<string, unknown>;
  /** where the system came from, shown under the title */
  origin?: string;
}

export interface PlotPayload {
  kind: PlotKind;
  title: string;
  subtitle: string;
  discrete: boolean;
  Ts: number;
  /** one line per solver call: tool and verification verdict */
  verification: { tool: string; ok: boolean | null; detail: string }[];
  /** notes shown under the plot (e.g. why the margins are missing) */
  notes: string[];
  data: Record<string, unknown>;
}

/** runs a tool through the verified call path, as the chat does (a failed check is an error) */
async function call(tool: string, raw: Record<string, unknown>, opts: RunOptions, log: PlotPayload['verification']): Promise<Record<string, any>> {
  const { result, verification: v } = await callTool(tool, raw, opts);
  log.push({
    tool,
    ok: v ? v.ok : null,
    detail: v ? v.checks.map((c) => c.detail).join('; ') : 'not independently verified',
  });
  return result;
}

function describe(a: Record<string, unknown>, raw: Record<string, unknown> = {}): string {
  if (raw.sys1 !== undefined) return 'plant P (sys1) with controller C (sys2), u = −C·y';
  if (raw.equations !== undefined) return `x' = f(x, u): ${Array.isArray(raw.equations) ? raw.equations.join('; ') : String(raw.equations)}`;
  const Ts = typeof a.Ts === 'number' && a.Ts > 0 ? a.Ts : 0;
  const v = Ts ? 'z' : 's';
  if (Array.isArray(a.num) && Array.isArray(a.den))
    return `L(${v}) = (${polyText(a.num as number[], v)}) / (${polyText(a.den as number[], v)})${Ts ? `, Ts = ${Ts} s` : ''}`;
  const A = a.A as unknown[] | undefined;
  const n = A?.length ?? 0;
  const names = ['A', 'B', 'C', 'D'].filter((k) => a[k] !== undefined);
  return `state space (${names.join(', ')}), ${n} state${n === 1 ? '' : 's'}${Ts ? `, Ts = ${Ts} s` : ''}`;
}

/** the state-space form of the system (a transfer function realised by tf2ss) */
async function toSS(a: Record<string, unknown>, opts: RunOptions, log: PlotPayload['verification']): Promise<Record<string, unknown>> {
  if (a.A !== undefined) return a;
  if (!Array.isArray(a.num) || !Array.isArray(a.den)) throw new ControlError('Give the system as num/den or as A, B, C (and D).');
  const r = await call('tf2ss', { num: a.num, den: a.den }, opts, log);
  const out: Record<string, unknown> = { A: r.A, B: r.B, C: r.C, D: r.D };
  if (a.Ts !== undefined) out.Ts = a.Ts;
  return out;
}

function requireSiso(ss: Record<string, unknown>, what: string): void {
  const B = ss.B as number[][] | undefined;
  const C = ss.C as number[][] | undefined;
  const m = B?.[0]?.length ?? 0;
  const p = C?.length ?? 0;
  if (m !== 1 || p !== 1)
    throw new ControlError(`${what} plots a SISO system; this one has ${m} input(s) and ${p} output(s). Select one column of B and one row of C.`);
}

/** the plot's numbers, each from a solver call (validated and verified) */
export async function buildPlot(req: PlotRequest, opts: RunOptions = {}): Promise<PlotPayload> {
  const kind = req.kind;
  if (!PLOT_KINDS.includes(kind)) throw new ControlError(`Unknown plot kind "${String(kind)}"; use one of ${PLOT_KINDS.join(', ')}.`);
  const a = systemArgs(req.args ?? {});
  const Ts = typeof a.Ts === 'number' && a.Ts > 0 ? a.Ts : 0;
  const verification: PlotPayload['verification'] = [];
  const notes: string[] = [];
  // grids are chosen from the poles and zeros (never shown as results)
  const run = async (tool: string, args: Record<string, unknown>) => (await callTool(tool, args, { ...opts, verify: false })).result;
  let data: Record<string, unknown>;
  switch (kind) {
    case 'bode': {
      const ss = await toSS(a, opts, verification);
      requireSiso(ss, 'A Bode plot');
      const w = await defaultFrequencies(ss, run);
      const fr = await call('freqresp', { ...ss, w }, opts, verification);
      let margins: Record<string, number> | undefined;
      try {
        margins = (await call('margins', ss, opts, verification)) as Record<string, number>;
      } catch (e) {
        notes.push(`No margins: ${(e as Error).message}`);
      }
      data = { w, mag_db: fr.mag_db, phase_deg: fr.phase_deg, margins };
      break;
    }
    case 'step':
    case 'impulse': {
      const ss = await toSS(a, opts, verification);
      const B = ss.B as number[][];
      const C = ss.C as number[][];
      const siso = B?.[0]?.length === 1 && C?.length === 1;
      let t = await defaultTimes(ss, run);
      if (!Ts) {
        // an unstable system: show a few of its growth time constants, not the stable modes' span
        const ev = (await run('eig', { A: ss.A })).eigenvalues as [number, number][];
        const grow = Math.max(...ev.map(([re]) => re));
        if (grow > 1e-9 && t[t.length - 1] > 5 / grow) t = t.map((_, k) => ((5 / grow) * k) / (t.length - 1));
      }
      const r = await call(kind, { ...ss, t }, opts, verification);
      let info: Record<string, number> | undefined;
      if (kind === 'step' && !siso) notes.push('Step-response characteristics are given for SISO systems: one input, one output.');
      else if (kind === 'step') {
        if (Ts) notes.push('Step-response characteristics are computed for continuous-time systems only.');
        else
          try {
            info = (await call('stepinfo', ss, opts, verification)) as Record<string, number>;
          } catch (e) {
            notes.push(`No step-response characteristics: ${(e as Error).message}`);
          }
      }
      data = { t, y: r.y, info };
      break;
    }
    case 'nyquist':
      data = await call('nyquist', a, opts, verification);
      break;
    case 'rlocus':
      data = await call('rlocus', a, opts, verification);
      break;
    case 'lsim':
    case 'initial': {
      // the whole call (the input, x0 and grid with the system), not the system alone
      const r = await call(kind, req.args ?? {}, opts, verification);
      data = { t: r.t, y: r.y, u: r.u, method: r.method };
      if (typeof r.note === 'string') notes.push(`Grid: ${r.note}.`);
      if (kind === 'lsim')
        notes.push(
          `Input interpolation: ${r.method === 'zoh' ? 'held between samples (zoh)' : r.method === 'foh' ? 'linear between samples (foh)' : 'one sample per step (discrete)'}.`,
        );
      break;
    }
    case 'nlsim': {
      // the whole call (equations, parameters, x0, input, tfinal): each state against t, the input below
      // a CBF safety filter's closed loop (cbf_filter's arguments carry a barrier) draws the same way
      const r = await call(req.args?.barrier !== undefined ? 'cbf_filter' : 'nlsim', req.args ?? {}, opts, verification);
      data = { t: r.t, y: r.x, u: r.u, names: r.states, inputNames: r.inputs, method: 'foh' };
      notes.push(`RK45 (Dormand–Prince), ${r.steps} steps, rtol = ${r.rtol}, atol = ${r.atol}.`);
      break;
    }
    case 'sigma': {
      // any number of inputs and outputs: one curve per singular value
      const r = await call('sigma', a, opts, verification);
      data = { w: r.w, sv_db: r.sv_db, peak: r.peak, peak_db: r.peak_db, w_peak: r.w_peak, stable: r.stable };
      break;
    }
    case 'diskmargin': {
      // the whole call (a loop L, or a plant and controller, with sigma and w), not the system alone
      const raw = req.args ?? {};
      if (raw.sys1 !== undefined) {
        const r = await call('diskmargin_io', raw, opts, verification);
        const curve = (label: string, d: Record<string, any>) => ({ label, w: d.w, mm_w: d.mm_w, mm: d.mm, w_mm: d.w_mm });
        data = {
          stable: r.stable,
          curves: [curve('plant inputs (C·P)', r.at_inputs), curve('plant outputs (P·C)', r.at_outputs), curve('inputs and outputs (MMIO)', r.io)],
        };
        if (!r.stable) notes.push(`No margin curve: ${r.reason}.`);
      } else {
        const r = await call('diskmargin', raw, opts, verification);
        data = { stable: r.stable, curves: [{ label: r.loops > 1 ? 'multiloop' : 'disk margin', w: r.w, mm_w: r.mm_w, mm: r.mm, w_mm: r.w_mm }] };
        if (!r.stable) notes.push(`No margin curve: ${r.reason}.`);
      }
      const curves = data.curves as { w_mm: number }[];
      if (curves.some((c) => c.w_mm === 0)) notes.push('A least margin at ω = 0 is marked at the left edge of the logarithmic axis.');
      if (curves.some((c) => c.w_mm === Infinity)) notes.push('A least margin as ω → ∞ is marked at the right edge.');
      break;
    }
    case 'mpc': {
      // the whole call (horizon, weights, bounds, x0), not the system alone
      const raw = req.args ?? {};
      const r = await call('mpc', raw, opts, verification);
      // the bounds as the solver read them (one entry per component, null: none)
      const b = r.bounds as Record<string, (number | null)[] | undefined>;
      const bounds = (k: string, len: number) => ({ min: b[`${k}min`] ?? new Array(len).fill(null), max: b[`${k}max`] ?? new Array(len).fill(null) });
      const n = (r.x as number[][])[0].length,
        m = (r.u as number[][])[0].length,
        p = (r.y as number[][])[0].length;
      data = {
        t: r.t,
        x: r.x,
        u: r.u,
        ...(raw.C !== undefined || raw.num !== undefined ? { y: r.y, ybounds: bounds('y', p) } : {}),
        xbounds: bounds('x', n),
        ubounds: bounds('u', m),
        active: (r.active as { kind: string; j: number }[][]).map((a) => a.some((c) => (c.kind === 'u' || c.kind === 'du' ? c.j === 0 : c.j === 1))),
        xs: r.xs,
      };
      if (r.discretised) notes.push(`The continuous plant was discretised with a zero-order hold at Ts = ${r.Ts} s.`);
      notes.push('Inputs are held over each step (zero-order hold); shaded steps have a constraint active on the applied move.');
      break;
    }
    case 'pzmap': {
      if (a.num !== undefined || a.C !== undefined) data = await call('poles_zeros', a, opts, verification);
      else if (a.A !== undefined) {
        const r = await call('eig', { A: a.A }, opts, verification);
        data = { poles: r.eigenvalues, zeros: [] };
        notes.push('Only A is known: the poles are its eigenvalues; zeros need B and C.');
      } else throw new ControlError('Give the system as num/den or as A (with B, C for the zeros).');
      break;
    }
  }
  return {
    kind,
    title: `${KIND_LABEL[kind]}`,
    subtitle: `${describe(a, req.args ?? {})}${req.origin ? ` — ${req.origin}` : ''}`,
    discrete: Ts > 0,
    Ts,
    verification,
    notes,
    data,
  };
}

/** the plots that fit a tool's answer (the tool's `plots` facet); none for an unknown tool */
export function plotsFor(tool: string, args: Record<string, unknown>, result: Record<string, unknown> | undefined): PlotSpec[] {
  const def = getTool(tool);
  return def && hasFacet(def.plots) ? def.plots(args, result) : [];
}
