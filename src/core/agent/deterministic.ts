/**
 * The no-model path: requests that are already well formed (a slash command, or a request
 * that names a tool and gives its matrices) are solved directly, without a language model.
 * This keeps working when no model is installed, and is what a model's tool call runs too.
 */
import { ControlError } from '../errors.js';
import { findAssignments, type Assignment } from '../parse/index.js';
import { getTool, TOOLS } from '../tools/table.js';
import type { ToolDef } from '../tools/types.js';

export interface Intent {
  tool: ToolDef;
  args: Record<string, unknown>;
  /** assignments found that the tool does not take (reported, not silently dropped) */
  ignored: string[];
  /** how the tool was chosen, for the answer's first line */
  via: 'command' | 'keyword';
}

/** slash-command and spelling aliases for tool names */
const COMMAND_ALIASES: Record<string, string> = {
  analyze: 'analyse',
  analysis: 'analyse',
  ctrb: 'ctrb_rank',
  bode: 'freqresp',
  zeros: 'poles_zeros',
  obsv: 'obsv_rank',
  eigs: 'eig',
  poles: 'eig',
};

/**
 * Keywords that name a tool in a plain request, most specific first: "design an LQR for ..."
 * -> lqr. Only the first match counts; a request that matches none is not solved here.
 */
const KEYWORDS: [RegExp, string][] = [
  [/\bdlqr\b|\bdiscrete(?:-time)?\s+lqr\b/i, 'dlqr'],
  [/\blqr\b|linear[- ]quadratic regulator|optimal state feedback/i, 'lqr'],
  [/\bdare\b|discrete(?:-time)? (?:algebraic )?riccati/i, 'dare'],
  [/\bcare\b|\briccati\b/i, 'care'],
  [/\blqe\b|\bkalman\b/i, 'lqe'],
  [/\bdlyap\b|discrete(?:-time)? lyapunov|\bstein equation/i, 'dlyap'],
  [/\blyap\b|\blyapunov equation|\bgramian\b/i, 'lyap'],
  [/\bplace\b|pole placement|place (?:the )?poles/i, 'place'],
  [/\bc2d\b|discreti[sz]e/i, 'c2d'],
  [/\bmargins?\b|gain margin|phase margin/i, 'margins'],
  [/\bstepinfo\b|overshoot|settling time|rise time/i, 'stepinfo'],
  [/\bstep response\b|\bstep\b/i, 'step'],
  [/\bimpulse\b/i, 'impulse'],
  [/\bh2 ?norm\b|\bh2\b/i, 'h2norm'],
  [/\bhinf|h-infinity|h∞/i, 'hinfnorm'],
  [/\bdc ?gain\b|steady[- ]state gain/i, 'dcgain'],
  [/\bcontrollab|\bctrb\b|\breachab/i, 'ctrb_rank'],
  [/\bobservab|\bobsv\b/i, 'obsv_rank'],
  [/\beigenvalues?\b|\beig\b/i, 'eig'],
  [/\banaly[sz]e\b|\banalysis\b|\bis (?:it|this|the (?:system|plant|model)) stable\b|\bstability of\b/i, 'analyse'],
];

/** argument-name aliases people write: Ts for T/dt, poles for p */
const ARG_ALIASES: Record<string, string[]> = {
  Ts: ['T', 'dt', 'ts', 'Tsample'],
  poles: ['p', 'P', 'desired_poles', 'pdes'],
  Qn: ['W', 'Qw'],
  Rn: ['V', 'Rv'],
};

export function resolveCommandTool(command: string): ToolDef | undefined {
  const name = COMMAND_ALIASES[command.toLowerCase()] ?? command;
  return getTool(name);
}

function keywordTool(text: string): ToolDef | undefined {
  for (const [re, name] of KEYWORDS) {
    if (re.test(text)) {
      const t = getTool(name);
      if (t) return t;
    }
  }
  return undefined;
}

/** maps found assignments onto a tool's parameters: exact name, then case-insensitive, then aliases */
export function bindArgs(tool: ToolDef, found: Assignment[]): { args: Record<string, unknown>; ignored: string[] } {
  const params = Object.keys(tool.parameters.properties);
  const args: Record<string, unknown> = {};
  const ignored: string[] = [];
  // later assignments override earlier ones (prompt after context)
  const tfOk = acceptsTf(tool.name) && !params.includes('num');
  for (const a of found) {
    if (tfOk && (a.name === 'num' || a.name === 'den') && a.value) {
      const v = a.value;
      args[a.name] = v.length === 1 ? v[0] : v.map((r) => r[0]);
      continue;
    }
    let key = params.find((p) => p === a.name);
    key ??= params.find((p) => p.toLowerCase() === a.name.toLowerCase() && !params.includes(a.name));
    key ??= params.find((p) => ARG_ALIASES[p]?.includes(a.name));
    if (!key) {
      if (!ignored.includes(a.name)) ignored.push(a.name);
      continue;
    }
    if (a.error) throw new ControlError(`${a.name}: ${a.error}`);
    const s = tool.parameters.properties[key];
    const v = a.value!;
    // a scalar parameter given as [[x]] (Ts = 0.1) or a vector given as one row or column
    if (s.type === 'number' && v.length === 1 && v[0].length === 1) args[key] = v[0][0];
    else if (s.type === 'array' && (s.items as { type?: string })?.type === 'number') {
      args[key] = v.length === 1 ? v[0] : v.every((r) => r.length === 1) ? v.map((r) => r[0]) : v;
    } else if (key === 'poles') {
      // poles as a row or column of reals: [[re, 0], ...]
      const flat = v.length === 1 ? v[0] : v.every((r) => r.length === 1) ? v.map((r) => r[0]) : undefined;
      args[key] = flat ? flat.map((x) => [x, 0]) : v;
    } else args[key] = v;
  }
  return { args, ignored };
}

/**
 * The intent of a request, or undefined when it is not well formed enough to solve without
 * a model (no command and no tool named, or no matrices given).
 * `contextText` is an editor selection or file the request refers to; the prompt's own
 * assignments override it.
 */
export function parseIntent(prompt: string, command?: string, contextText?: string): Intent | undefined {
  let tool: ToolDef | undefined;
  let via: Intent['via'] = 'keyword';
  if (command) {
    tool = resolveCommandTool(command);
    if (!tool)
      throw new ControlError(
        `/${command} is not a command of @control. Commands: ${['analyse', ...TOOLS.map((t) => t.name).filter((n) => n !== 'analyse')].map((n) => '/' + n).join(', ')}.`,
      );
    via = 'command';
  } else {
    tool = keywordTool(prompt);
  }
  if (!tool) return undefined;
  const found = [...(contextText ? findAssignments(contextText) : []), ...findAssignments(prompt)];
  if (!found.length && via === 'keyword') return undefined;
  const { args, ignored } = bindArgs(tool, found);
  return { tool, args, ignored, via };
}

/** the example a refusal for missing arguments points to */
export const EXAMPLES: Record<string, string> = {
  lqr: '/lqr A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1',
  dlqr: '/dlqr A=[1 0.1; 0 1], B=[0.005; 0.1], Q=eye(2), R=1',
  care: '/care A=[0 1; 0 0], B=[0;1], Q=eye(2), R=1',
  dare: '/dare A=[1 0.1; 0 1], B=[0.005; 0.1], Q=eye(2), R=1',
  lyap: '/lyap A=[-1 2; 0 -3], Q=eye(2)',
  dlyap: '/dlyap A=[0.5 0.1; 0 0.8], Q=eye(2)',
  eig: '/eig A=[0 1; -2 -3]',
  analyse: '/analyse A=[0 1; -2 -3], B=[0;1], C=[1 0], D=0',
  ctrb_rank: '/ctrb_rank A=[0 1; -2 -3], B=[0;1]',
  obsv_rank: '/obsv_rank A=[0 1; -2 -3], C=[1 0]',
  place: '/place A=[0 1; 0 0], B=[0;1], poles=[-1 -2]',
};

export function missingArgs(intent: Intent, command?: string): string[] {
  const a = intent.args;
  const fromTf = acceptsTf(intent.tool.name) && Array.isArray(a.num) && Array.isArray(a.den);
  // grids the plan chooses when they are not given
  const planned = new Set(['t', ...(command === 'bode' || intent.tool.name === 'freqresp' ? ['w'] : []), ...(intent.tool.name === 'c2d' ? ['method'] : [])]);
  return (intent.tool.parameters.required ?? []).filter(
    (k) => a[k] === undefined && !planned.has(k) && !(fromTf && ['A', 'B', 'C', 'D'].includes(k)),
  );
}

/** one call of a deterministic plan; `args` sees the results of the calls before it */
export interface PlannedCall {
  tool: string;
  args: (prev: Record<string, any>[]) => Record<string, unknown>;
  /** a call that only adds facts (stepinfo after step) is skipped, with the reason, when it cannot apply */
  optional?: boolean;
  /** a means, not what was asked (tf2ss realising a transfer function): no code or plot is offered for it */
  intermediate?: boolean;
}

/** eigenvalues of a small dense matrix for choosing grids only (never shown as a result) */
function gridScales(args: Record<string, unknown>, run: (tool: string, a: Record<string, unknown>) => Record<string, any>): number[] {
  const pz = run('poles_zeros', args.A ? { A: args.A, B: args.B, C: args.C, D: args.D } : { num: args.num, den: args.den });
  const mags = [...(pz.poles as [number, number][]), ...(pz.zeros as [number, number][])].map(([r, i]) => Math.hypot(r, i)).filter((x) => x > 1e-9);
  return mags;
}

/** a log-spaced frequency grid two decades around the poles and zeros (up to π/Ts in discrete time) */
export function defaultFrequencies(args: Record<string, unknown>, run: (tool: string, a: Record<string, unknown>) => Record<string, any>): number[] {
  const Ts = typeof args.Ts === 'number' && args.Ts > 0 ? args.Ts : 0;
  let lo: number, hi: number;
  if (Ts) {
    hi = Math.PI / Ts;
    lo = hi * 1e-3;
  } else {
    const mags = gridScales(args, run);
    lo = mags.length ? Math.min(...mags) / 100 : 0.01;
    hi = mags.length ? Math.max(...mags) * 100 : 100;
  }
  const N = 200;
  const a = Math.log10(lo), b = Math.log10(hi);
  return Array.from({ length: N }, (_, k) => 10 ** (a + ((b - a) * k) / (N - 1)));
}

/** a uniform time grid over about 8 slowest time constants (continuous) or 100 samples (discrete) */
export function defaultTimes(args: Record<string, unknown>, run: (tool: string, a: Record<string, unknown>) => Record<string, any>): number[] {
  const Ts = typeof args.Ts === 'number' && args.Ts > 0 ? args.Ts : 0;
  if (Ts) return Array.from({ length: 101 }, (_, k) => k * Ts);
  const ev = run('eig', { A: args.A }).eigenvalues as [number, number][];
  const decay = ev.map(([r]) => -r).filter((x) => x > 1e-9);
  const osc = ev.map(([, i]) => Math.abs(i)).filter((x) => x > 1e-9);
  let tEnd = decay.length ? 8 / Math.min(...decay) : 10;
  if (osc.length) tEnd = Math.max(tEnd, (2 * Math.PI) / Math.min(...osc) * 2);
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
export function planCalls(intent: Intent, command: string | undefined, run: (tool: string, a: Record<string, unknown>) => Record<string, any>): PlannedCall[] {
  const name = intent.tool.name;
  const a = intent.args;
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
      { tool: 'freqresp', args: (prev) => ({ ...ssArgs(prev), w: a.w ?? defaultFrequencies(ssArgs(prev), run) }) },
      // margins read a transfer function directly (exact polynomials, no round-trip)
      { tool: 'margins', args: (prev) => (fromTf ? { num: a.num, den: a.den, ...(a.Ts !== undefined ? { Ts: a.Ts } : {}) } : ssArgs(prev)), optional: true },
    ];
  }
  if (name === 'step' || name === 'impulse') {
    const calls: PlannedCall[] = [...realise, { tool: name, args: (prev) => ({ ...ssArgs(prev), t: a.t ?? defaultTimes(ssArgs(prev), run) }) }];
    if (name === 'step' && a.Ts === undefined) calls.push({ tool: 'stepinfo', args: (prev) => ssArgs(prev), optional: true });
    return calls;
  }
  if ((name === 'stepinfo' || name === 'h2norm' || name === 'hinfnorm' || name === 'dcgain') && fromTf && name !== 'dcgain')
    return [...realise, { tool: name, args: (prev) => ssArgs(prev) }];
  if (name === 'c2d' && a.method === undefined) return [{ tool: 'c2d', args: () => ({ ...a, method: 'zoh' }) }];
  return [{ tool: name, args: () => a }];
}

/** tools a plan may start from when the user gave a transfer function */
export function acceptsTf(tool: string): boolean {
  return ['step', 'impulse', 'stepinfo', 'h2norm', 'hinfnorm', 'freqresp', 'bode'].includes(tool);
}
