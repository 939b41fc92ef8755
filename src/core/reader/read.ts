/**
 * The request reader: a message (plus the conversation so far and any editor selection) ->
 * one tool call with every argument accounted for, a question back with the candidate
 * readings, a definition, or "not readable without a model". Never a guess: when two
 * readings are possible it asks.
 */
import { ControlError } from '../errors.js';
import { parseMatrixLiteral } from '../parse/index.js';
import { eye, fromRows, mulNT, mulTN, toRows, transpose } from '../linalg/dense.js';
import { getTool, TOOLS } from '../tools/table.js';
import type { ToolCallForm, ToolDef } from '../tools/types.js';
import type { Matrix } from '../types.js';
import type { CallFound } from './calls.js';
import { Conversation, isDiscrete, systemLabel, type Origin, type System, type SystemEntry } from './conversation.js';
import { callNames, namedTools } from './lexicon.js';
import { completeConjugates, hertz, otherPoles, readNumberList, specPoles, timeQuantity, type Cx } from './quantities.js';
import { scanMessage, STATE_EQ_DISCRETE, type Scan } from './scan.js';
import { isNumberMatrix } from '../tools/args.js';
import { readInterconnect, takesSystems } from './interconnect.js';
import { CONVERSIONS, conversionSystem, mimoSystemArgs, zpkArgsFromLiterals } from './mimo.js';
import { readSignal } from './signals.js';
import { readPidSpec } from './pid.js';
import { readAllocWords } from './alloc.js';
import { loopFromSpec } from '../solvers/secondorder.js';
import { fmt as fmtNum } from '../render/format.js';
import { readMpcSpec } from './mpc.js';
import { readDelay } from './delay.js';
import { readConnect } from './connect.js';
import { lqgWeights } from './lqg.js';
import { readNonlinear } from './nonlinear.js';
import type { PreCall, SpecCheck } from '../agent/deterministic.js';
import { playbookFor } from '../agent/playbooks.js';
import { polyStrip } from '../linalg/poly.js';
import { compileFormula } from '../parse/formula.js';
import { evalArg, SS, flat, messageSystems, num2, renderValue, scalar, toolAccepts, variantFor, KNOWN_FUNCTIONS, type ArgVal, type Scope } from './values.js';

export interface Candidate {
  label: string;
  /** the message that reads as this candidate */
  prompt: string;
  command?: string;
  /** the asked message a typed reply completes ("the other pole at -20" after a place from specifications) */
  base?: string;
}

export interface CallReading {
  kind: 'call';
  tool: string;
  args: Record<string, unknown>;
  origins: Record<string, Origin>;
  /** the plan it runs under: 'bode' (frequency response and margins) */
  plan?: string;
  /** recognised in the message but not used by this tool */
  unused: string[];
  /** conventions and choices to state (a default, a conjugate added, a formula) */
  notes: string[];
  /** the system used, by label */
  system?: string;
  via: 'command' | 'call' | 'words' | 'follow-up';
  /** the name the result is saved under (`T = feedback(G, C)`, "call it T"), for tools whose result is a system */
  output?: string;
  /** a pasted call's outputs that are matrices of the result (`K = lqr(…)`: { K: 'K' }, `[L, P] = lqe(…)`: { L: 'L', P: 'P' }), saved for later requests */
  saves?: Record<string, string>;
  /** calls that build the system first (step(feedback(G, 1))): run and verified before the tool, which runs on the last result */
  pre?: PreCall[];
  /** poles from time-domain specifications: the closed loop's step is checked against them after place */
  spec?: SpecCheck;
  /** plan 'playbook' going on from the conversation's checkpoint ("resume"): the steps done are not run again */
  resume?: boolean;
  /** "margins … in Hz": the result's frequencies are also given in Hz after it */
  freqUnit?: 'Hz';
}
export interface AskReading {
  kind: 'ask';
  question: string;
  candidates: Candidate[];
}
export interface DefineReading {
  kind: 'define';
  /** everything defined came from the selection: the message itself asks something else */
  fromSelectionOnly: boolean;
  /** words beyond the definitions that no tool reads ("bandwidth of G(s) = …"), for a model or to be said */
  question?: string;
  defined: { label: string; sys: System }[];
  notes: string[];
}
export interface NoneReading {
  kind: 'none';
  reason: string;
  /** systems the message defined (kept for the next turns) */
  defined?: { label: string; sys: System }[];
  /** recognised but unreadable parts, said when there is no model */
  problems: string[];
}
export type Reading = CallReading | AskReading | DefineReading | NoneReading;

export interface ReadOptions {
  command?: string;
  selection?: { text: string; label?: string };
}

/** slash commands and names that are plans or aliases, not tool names */
const COMMAND_ALIASES: Record<string, string> = {
  analyze: 'analyse',
  analysis: 'analyse',
  stability: 'analyse',
  ctrb: 'ctrb_rank',
  obsv: 'obsv_rank',
  bode: 'freqresp',
  zeros: 'poles_zeros',
  pzmap: 'poles_zeros',
  eigs: 'eig',
  poles: 'eig',
  margin: 'margins',
  kalman_filter: 'kalman',
  discretize: 'c2d',
  discretise: 'c2d',
};

export function resolveCommand(command: string): ToolDef | undefined {
  const c = command.toLowerCase();
  return getTool(COMMAND_ALIASES[c] ?? c);
}

/** tools whose answer includes another's ("step" shows stepinfo; "bode" shows the margins) */
const COVERS: Record<string, string[]> = {
  // "simulate the step response": the step response (lsim's "simulate" is the general case)
  step: ['stepinfo', 'lsim'],
  impulse: ['lsim'],
  // "reduce … with matched DC gain": the reduction's method, not a DC-gain request
  balred: ['dcgain', 'hsvd'],
  modred: ['dcgain'],
  freqresp: ['margins'],
  analyse: ['eig', 'ctrb_rank', 'obsv_rank', 'poles_zeros'],
  lqr: ['care', 'eig', 'place'],
  dlqr: ['dare', 'eig', 'lqr', 'place'],
  place: ['eig'],
  poles_zeros: ['eig'],
  lqe: ['care'],
  kalman: ['dare', 'lqe'],
  dare: ['care'],
  dlyap: ['lyap'],
  c2d: ['step', 'impulse'],
  margins: ['rlocus'],
  stepinfo: ['rlocus'],
  // "a PI controller with 60° phase margin": the margin is the design's specification (reader/pid.ts)
  pidtune: ['margins', 'stability_margins', 'stepinfo', 'step', 'leadlag'],
  leadlag: ['margins', 'stability_margins', 'stepinfo', 'step'],
};

const SYS_PARAMS = new Set(['A', 'B', 'C', 'D', 'num', 'den', 'Ts']);
const GENERIC_ALIASES: Record<string, string[]> = {
  Ts: ['T', 'dt', 'ts', 'Tsample', 'h'],
  Qn: ['W', 'Qw', 'QN'],
  Rn: ['V', 'Rv', 'RN'],
  poles: ['p', 'P', 'desired_poles', 'pdes', 'pd'],
  w: ['omega', 'W', 'freqs'],
  t: ['T', 'time', 'tvec'],
};

/** the message says the model itself is discrete ("the discrete plant", "x[k+1] = …") */
function saysDiscreteModel(text: string): boolean {
  return /\b(?:discrete|digital|sampled)[- ](?:time\s+)?(?:plant|model|system|one|version)\b|\bx\s*\[\s*k\s*\+\s*1\s*\]/i.test(text);
}

/** design tasks no single solver call answers */
const DESIGN_WITH_MODEL =
  /\b(?:[Tt]une|[Tt]uning|PID|PI|PD|[Ll]ead(?:[- ]lag)?|[Ll]ag compensator|[Cc]ompensator|[Ll]oop[- ]shaping|LQG|MPC|[Mm]odel predictive|[Aa]nti[- ]windup|[Ff]eedforward|observer[- ]based controller|H-?inf(?:inity)? (?:synthesis|controller|design)|[Mm]ixed[- ]sensitivity)\b/;

/** the design tasks of DESIGN_WITH_MODEL that pidtune and leadlag do not answer */
const DESIGN_BEYOND_PID =
  /\b(?:[Ll]oop[- ]shaping|LQG|MPC|[Mm]odel predictive|[Aa]nti[- ]windup|[Ff]eedforward|observer[- ]based controller|H-?inf(?:inity)? (?:synthesis|controller|design)|[Mm]ixed[- ]sensitivity|[Ll]ead[- ]lag|two[- ]degrees?[- ]of[- ]freedom|2-?DOF|set[- ]?point weight\w*|gain schedul\w*|discrete[- ]time PID|digital PID)\b/;

/** the design tasks of DESIGN_WITH_MODEL that lqg does not answer */
const DESIGN_BEYOND_LQG =
  /\b(?:[Ll]oop[- ]shaping|[Ll]oop transfer recovery|LTR|MPC|[Mm]odel predictive|[Aa]nti[- ]windup|[Ff]eedforward|H-?inf(?:inity)? (?:synthesis|controller|design)|[Mm]ixed[- ]sensitivity|PID|gain schedul\w*)\b/;

const WEIGHTS = new Set(['Q', 'R', 'N', 'Qn', 'Rn', 'method', 'poles', 'w', 't']);

/** a weight from an earlier turn fits the system of this one */
function weightFits(k: string, v: unknown, args: Record<string, unknown>): boolean {
  const n = Array.isArray(args.A) ? (args.A as Matrix).length : undefined;
  const m = Array.isArray(args.B) ? (args.B as Matrix)[0]?.length : undefined;
  const size = (x: unknown) => (typeof x === 'number' ? 1 : Array.isArray(x) ? x.length : undefined);
  if (k === 'Q') return n !== undefined && size(v) === n;
  if (k === 'R') return m !== undefined && size(v) === m;
  if (k === 'poles') return n !== undefined && size(v) === n;
  return k === 'method' || k === 'w' || k === 't';
}

const FOLLOW_UP =
  /^\s*(?:and|now|ok(?:ay)?|then|also|same|again|instead|what about|how about|what if|try|redo|repeat|change|but|with|using|use|let'?s|can you|could you|faster|slower|back to|(?:the\s+)?(?:discrete|continuous)\s+(?:version|one|case|plant|model))\b|\b(?:instead|again|same (?:plant|system|model|thing|one)|as before|this time|the same)\b/i;
const REFERS = /\b(?:it|its|it's|this|that|these|the (?:same )?(?:plant|system|model|transfer function|loop)|same (?:plant|system|model)|the result)\b/i;
const CONCEPTUAL =
  /^\s*(?:why|explain|describe|compare|when (?:should|do|does|is)|should i|what(?:'s| is| are| does)\s+(?:a|an|the (?:difference|meaning|point|intuition|idea|purpose)|meant|the role)\b|how (?:do|does|can|should|would|to|is|are)\b|can you explain|tell me about|what happens|intuition|is it true|is there a|does (?:lqr|a|an|the))/i;

/** reads one message in a conversation (without recording it: see readTurn) */
export function readRequest(message: string, conv: Conversation, opts: ReadOptions = {}): Reading {
  const scan = scanMessage(message);
  const text = scan.text;
  const turn = conv.turn + 1;
  const sel = opts.selection ? scanMessage(opts.selection.text) : undefined;

  // ---- names in scope: this message, the selection, then earlier turns
  const localSystems: Record<string, { sys: System; text: string; op?: PreCall }> = {};
  const scope: Scope = {
    matrix(name) {
      const m = scan.assigns.get(name);
      if (m?.value) return { value: m.value, origin: { from: 'message', text: m.text } };
      const s = sel?.assigns.get(name);
      if (s?.value) return { value: s.value, origin: { from: 'selection', text: s.text, label: opts.selection?.label } };
      const g = scan.grids.get(name);
      if (g) return { value: [g], origin: { from: 'message', text: `${name} = …` } };
      const v = conv.vars[name];
      if (v) return { value: v.value, origin: { from: 'turn', turn: v.turn, text: v.text } };
      return undefined;
    },
    unreadable(name) {
      const a = scan.assigns.get(name) ?? sel?.assigns.get(name);
      return a?.error ? a.text.replace(/^[^=]*=\s*/, '') : undefined;
    },
    system(name) {
      if (localSystems[name]) return { entry: localSystems[name], origin: { from: 'message', text: localSystems[name].text } };
      const i = conv.named(name);
      if (i !== undefined) return { entry: conv.systems[i], origin: { from: 'system', name, turn: conv.systems[i].turn }, index: i };
      return undefined;
    },
  };
  const defined = messageSystems(scan, scope, conv, opts.selection);
  // one name given two different systems in the same message: which one?
  const twice = defined.filter((d) => d.name && defined.some((o) => o !== d && o.name === d.name && JSON.stringify(o.sys) !== JSON.stringify(d.sys)));
  if (twice.length) {
    record(conv, { turn, defined: [], scan, selection: sel });
    return {
      kind: 'ask',
      question: `${twice[0].name} is given twice (${twice.map((d) => d.text).join(' and ')}). Which one do you mean?`,
      candidates: twice.map((d) => ({ label: d.text, prompt: message.replace(/\bor\b[\s\S]*$/, '').includes(d.text) ? message.split(/\bor\b/)[0] : d.text })),
    };
  }
  // a transfer matrix whose shape reads two ways ([1/(s+1) -1/(s+2)], ct.tf([[1], [1, 1]], …)): asked (reader/mimo.ts)
  if (scan.tfmAsk) {
    record(conv, { turn, defined: [], scan, selection: sel });
    return { kind: 'ask', question: `${scan.tfmAsk.text} reads two ways. Which one do you mean?`, candidates: scan.tfmAsk.candidates };
  }
  // "H(z) = … with Ts = 0.1": the sample time belongs to the discrete system defined
  if (scan.samples.length === 1)
    for (const d of defined)
      if (d.sys.kind === 'tf' && d.sys.variable === 'z' && d.sys.Ts === undefined && !scan.samples[0].unitless) d.sys.Ts = scan.samples[0].Ts;
  if (scan.samples.length === 1)
    for (const d of defined)
      if (d.sys.kind === 'tf' && d.sys.variable === 'z' && d.sys.Ts === undefined && scan.samples[0].unitless && scan.samples[0].Ts <= 1)
        d.sys.Ts = scan.samples[0].Ts;
  for (const d of defined) if (d.name) localSystems[d.name] = { sys: d.sys, text: d.text, ...(d.op ? { op: d.op } : {}) };
  // a name defined later in the message may be used by a constructor earlier resolved: re-run once
  const definedAgain = messageSystems(scan, scope, conv, opts.selection);
  if (definedAgain.length > defined.length) {
    defined.length = 0;
    defined.push(...definedAgain);
    for (const d of defined) if (d.name) localSystems[d.name] = { sys: d.sys, text: d.text, ...(d.op ? { op: d.op } : {}) };
  }

  const pending: PendingRecord = { turn, defined, scan, selection: sel, selectionLabel: opts.selection?.label };
  // a delay written in the request (e^(-sT), 'InputDelay', "dead time of 0.5 s"), pade and thiran: reader/delay.ts
  const delayReading = readDelay({
    message,
    text,
    conv,
    opts,
    scope,
    read: readRequest,
    record: (call) => record(conv, { ...pending, defined: call ? defined : [] }, call),
  });
  if (delayReading) return delayReading;
  // connect by signal names (sumblk, InputName/OutputName, ct.interconnect) and lft: reader/connect.ts
  const connectReading = readConnect({ text, conv, opts, scope, record: (call) => record(conv, pending, call) });
  if (connectReading) return connectReading;
  // nonlinear state equations written per state (x1' = x2; x2' = -g/l*sin(x1) + u): reader/nonlinear.ts
  const nonlinearReading = readNonlinear({ message, text, scan, conv, opts, record: (call) => record(conv, pending, call) });
  if (nonlinearReading) return nonlinearReading;

  // ---- which tool
  let tool: ToolDef | undefined;
  let via: CallReading['via'] = 'words';
  let plan: string | undefined;
  let transposeA = false;
  let fromCall: { call: CallFound; form: ToolCallForm; vals: ArgVal[]; kw: Record<string, ArgVal> } | undefined;
  const notes: string[] = [];
  const problems = [...scan.problems];

  if (opts.command) {
    tool = resolveCommand(opts.command);
    if (!tool)
      throw new ControlError(
        `/${opts.command} is not a command of @control. Commands: ${['analyse', 'bode', ...TOOLS.map((t) => t.name).filter((n) => n !== 'analyse')].map((n) => '/' + n).join(', ')}.`,
      );
    via = 'command';
    if (opts.command.toLowerCase() === 'bode') plan = 'bode';
  }

  // tool calls written as code
  const names = callNames();
  const toolCalls: { call: CallFound; tool: ToolDef; form: ToolCallForm; vals: ArgVal[]; kw: Record<string, ArgVal> }[] = [];
  const conversions: { call: CallFound; vals: ArgVal[] }[] = [];
  // G(s), H(z), y(t), G(jw) are names of functions of a variable, not calls
  const isSignal = (c: CallFound) => c.args.length === 1 && /^(?:s|z|t|k|n|w|ω|j\s*[wω]|i\s*[wω]|e\^\s*\(?j[wω]\)?)$/.test(c.args[0].text.trim());
  const inTf = (c: CallFound) => scan.systems.some((d) => c.start >= d.start && c.start < d.start + d.text.length + 2);
  // a call is written without a space before its parenthesis; "is (A,B) controllable" is prose
  // Q(1,1) with integer arguments is an entry of a matrix, not a call
  const indexing = (c: CallFound) => /^[A-Z]\w{0,3}$/.test(c.raw) && c.args.every((a) => /^\s*\d+\s*$|^\s*:\s*$/.test(a.text));
  const unknownCalls = scan.calls.filter(
    (c) =>
      !indexing(c) &&
      /^[\w.]+\(/.test(c.text) &&
      !names.has(c.fn) &&
      !KNOWN_FUNCTIONS.test(c.fn) &&
      !isSignal(c) &&
      !inTf(c) &&
      !scan.calls.some((o) => o !== c && o.start < c.start && o.end >= c.end),
  );
  const unreadCalls: string[] = [];
  /** the tools the unread calls name: a reading may not run another tool in their place */
  const unreadTools = new Set<string>();
  for (const c of scan.calls) {
    const tools = names.get(c.fn);
    if (!tools) continue;
    // nested inside another call that is itself a tool call: the outer one is the request
    // inside another tool call or a constructor (ss(A, B, C, zeros(2,1))) it is an argument, not a request
    if (
      scan.calls.some(
        (o) =>
          o !== c &&
          o.start < c.start &&
          o.end >= c.end &&
          (names.has(o.fn) || /^(ss|tf|zpk|pid|statespace|transferfunction|lti|dlti|array|feedback|syslin)$/.test(o.fn)),
      )
    )
      continue;
    if (/^(zeros|ones|eye|diag)$/.test(c.fn) && !(c.args.length === 1 && /^[A-Za-z_]\w*$/.test(c.args[0].text.trim()))) continue;
    let args = c.receiver && scope.system(c.receiver) ? [{ text: c.receiver }, ...c.args] : c.args;
    // python-control's norm(sys, p=2) / p='inf': the order as a positional argument
    if ((c.fn === 'norm' || c.fn === 'system_norm') && args.some((a) => a.name === 'p'))
      args = [...args.filter((a) => a.name !== 'p'), { text: args.find((a) => a.name === 'p')!.text }];
    const positional = args.filter((a) => !a.name);
    const vals = positional.map((a) => evalArg(a.text, scope, conv, text));
    // lsim(sys, sin(2*t), t): an input written as a formula of t is a string the solver reads
    for (let i = 0; i < vals.length; i++) {
      // lsim(G, u, t) with t defined nowhere in the message: the time grid is the tool's own choice, said
      const param = tools.map((tn) => getTool(tn)!.words.calls.find((f) => f.names.includes(c.fn))?.args[i]).find(Boolean);
      if (
        vals[i].kind === 'error' &&
        (param === 't' || param === 'T') &&
        /^[A-Za-z_]\w*$/.test(positional[i].text.trim()) &&
        !scope.matrix(positional[i].text.trim())
      ) {
        vals[i] = { kind: 'string', value: '', origin: { from: 'message', text: positional[i].text.trim() } };
        notes.push(`${positional[i].text.trim()} is not given in the message: the time grid is chosen by ${c.fn} (say "for 10 s" or give t to set it)`);
        continue;
      }
      if (vals[i].kind !== 'error' || !/(?<![A-Za-z_])t(?![A-Za-z_])/.test(positional[i].text)) continue;
      const takesFormula = tools.some((tn) => getTool(tn)!.words.calls.some((f) => f.names.includes(c.fn) && f.args[i] === 'u'));
      if (!takesFormula) continue;
      try {
        compileFormula(positional[i].text, 'u');
        vals[i] = { kind: 'string', value: positional[i].text.trim(), origin: { from: 'message', text: positional[i].text.trim() } };
      } catch {
        /* stays unreadable: said as such */
      }
    }
    // keyword arguments the tool has; others (plot=False, dB=True) are display options, said and not used
    const known = new Set(
      tools.flatMap((tn) => [...Object.keys(getTool(tn)!.parameters.properties), ...getTool(tn)!.words.calls.flatMap((f) => Object.keys(f.keywords ?? {}))]),
    );
    for (const a of args) if (a.name && !known.has(a.name)) problems.push(`${a.name}=${a.text} (a display option) is not used`);
    const kw = Object.fromEntries(args.filter((a) => a.name && known.has(a.name)).map((a) => [a.name!, evalArg(a.text, scope, conv, text)]));
    // constructors that are definitions, not conversions
    if ((c.fn === 'ss' || c.fn === 'tf' || c.fn === 'zpk') && !(vals.length === 1 && vals[0].kind === 'system')) continue;
    // G = tf(sys), sys2 = ss(G), Z = zpk(G): the same system under another name (a conversion only when asked alone)
    if ((c.fn === 'ss' || c.fn === 'tf' || c.fn === 'zpk') && c.outputs.length === 1 && vals[0].kind === 'system') {
      localSystems[c.outputs[0]] = { sys: vals[0].sys, text: `${c.outputs[0]} = ${c.text}` };
      conversions.push({ call: c, vals });
      continue;
    }
    if (c.fn === 'norm' && vals[0]?.kind !== 'system') continue;
    const err = [...vals, ...Object.values(kw)].find((v) => v.kind === 'error');
    if (err) {
      unreadCalls.push(`${c.text} (${(err as { message: string }).message})`);
      for (const t of tools) unreadTools.add(t);
      continue;
    }
    let best: { tool: ToolDef; form: ToolCallForm } | undefined;
    for (const tn of tools) {
      const t = getTool(tn)!;
      for (const f of t.words.calls) {
        if (!f.names.map((n) => n.toLowerCase()).includes(c.fn)) continue;
        // append(G, H, K, …): every argument is a system
        if (f.args[0] === 'systems') {
          if (vals.length >= 2 && vals.every((v) => v.kind === 'system')) {
            best = { tool: t, form: f };
            break;
          }
          continue;
        }
        if (vals.length > f.args.length || vals.length < (f.min ?? 0)) continue;
        const okKinds = f.args.every((p, i) => {
          const v = vals[i];
          if (!v) return p !== 'sys' && p !== 'sys1' && !/^\d|^inf$/.test(p);
          if (p === 'sys') return v.kind === 'system';
          // an operand of an interconnection: a system or a static gain (feedback(G, 1))
          if (/^sys\d$/.test(p)) return v.kind === 'system' || v.kind === 'number' || v.kind === 'matrix';
          if (p === '2') return v.kind === 'number' && v.value === 2;
          if (p === 'inf') return (v.kind === 'number' && v.value === Infinity) || (v.kind === 'string' && /^inf/i.test(v.value));
          if (p === 'type' || p === 'kind') return v.kind === 'string';
          // a skew is a number: diskmargin(P, C) with C a gain matrix is the plant-controller form
          if (p === 'sigma') return v.kind === 'number';
          if (/^'.*'$/.test(p)) return v.kind === 'string' && v.value.toLowerCase() === p.slice(1, -1);
          return v.kind !== 'system';
        });
        if (okKinds) {
          best = { tool: t, form: f };
          break;
        }
      }
      if (best) break;
    }
    if (best) toolCalls.push({ call: c, ...best, vals, kw });
    else {
      unreadCalls.push(c.text);
      for (const t of tools) unreadTools.add(t);
    }
  }
  // a conversion asked alone (`tf(sys)`, `G2 = ss(G)` with nothing else) is the request itself
  if (!toolCalls.length && conversions.length === 1 && !opts.command) {
    const c = conversions[0];
    const t = getTool(c.call.fn === 'tf' ? 'ss2tf' : c.call.fn === 'zpk' ? 'zpk' : 'tf2ss')!;
    if (c.vals[0].kind === 'system' && toolAccepts(t, (c.vals[0] as { sys: System }).sys) === 'native')
      toolCalls.push({ call: c.call, tool: t, form: t.words.calls[0], vals: c.vals, kw: {} });
  }
  // a function we do not compute (d2c, minreal, feedback of a state space, gram, lsim…) and nothing else to run
  if (!toolCalls.length && unknownCalls.length && !opts.command) {
    record(conv, pending);
    return {
      kind: 'none',
      reason: `${unknownCalls.map((c) => c.raw).join(', ')} ${unknownCalls.length > 1 ? 'are' : 'is'} not something I compute without a model`,
      problems: [...problems, ...unknownCalls.map((c) => `${c.text} is not a computation I can run`)],
    };
  }
  // T = feedback(G, C); step(T): the interconnection defines T (a definition), the other call is the request
  for (let i = toolCalls.length - 1; i >= 0 && toolCalls.length > 1; i--) {
    const c = toolCalls[i];
    const out = c.call.outputs.length === 1 ? c.call.outputs[0] : undefined;
    if (takesSystems(c.tool) && out && toolCalls.some((o) => o !== c && o.call.args.some((a) => new RegExp(`(?<![\\w.])${out}(?![\\w])`).test(a.text))))
      toolCalls.splice(i, 1);
  }
  if (toolCalls.length) {
    const distinct = [...new Set(toolCalls.map((c) => c.tool.name))];
    if (distinct.length > 1 && !opts.command) {
      record(conv, pending);
      return {
        kind: 'ask',
        question: `This message calls ${distinct.map((d) => '`' + d + '`').join(' and ')}. Which one should I compute?`,
        candidates: toolCalls.map((c) => ({ label: c.call.text, prompt: c.call.text })),
      };
    }
    const chosen = toolCalls[toolCalls.length - 1];
    if (!tool || tool.name === chosen.tool.name) {
      tool = chosen.tool;
      fromCall = chosen;
      if (via !== 'command') via = 'call';
      if (/^bode/.test(chosen.call.fn)) plan = 'bode';
    }
  }
  if (unreadCalls.length && !fromCall) problems.push(...unreadCalls.map((u) => `could not read ${u}`));

  // words
  const lexText = text
    .replace(/eig\s*\(\s*A\s*-\s*B\s*\*?\s*K\s*\)/gi, ' poles ')
    .replace(/\b(?:np|numpy|ct|control|signal|scipy|linalg)\.[\w.]+/g, ' ')
    .replace(/\b(?:zeros|ones|eye|diag|ss|tf|zpk|feedback)\s*\(/g, ' (')
    .replace(/\b[A-Za-z_]\w*\s*=\s*/g, ' ');
  const named = namedTools(lexText);
  // a pasted single call beside a design workflow asked for in words ("K = lqr(A,B,Q,R) … design an
  // LQG controller"): running the call alone would drop the design, running the design would drop
  // the call's own arguments' meaning. Two readings: ask, with both as buttons
  if (fromCall && tool && !opts.command) {
    const callTool = tool.name;
    const design = named.find((n) => n.strength >= 2 && n.tool !== callTool && playbookFor(n.tool));
    if (design) {
      const call = fromCall.call.text;
      const at = message.indexOf(call);
      // the call with its output assignment ("K = ", "[K, S, P] = ") and a trailing ';'
      const before = at >= 0 ? (message.slice(0, at).match(/(?:\[[\w\s,]*\]|[A-Za-z_]\w*)\s*=\s*$/)?.[0] ?? '') : '';
      const rest = (at >= 0 ? message.slice(0, at - before.length) + ' ' + message.slice(at + call.length).replace(/^\s*;/, '') : message)
        .replace(/\s+/g, ' ')
        .trim();
      record(conv, pending);
      return {
        kind: 'ask',
        question: `This message pastes \`${call}\` (one \`${callTool}\` call) and asks for ${design.tool === 'lqg' ? 'an LQG design' : `a ${design.tool} design`} in words (a workflow of several verified calls). Which one should I run?`,
        candidates: [
          { label: `Only ${call}`, prompt: message, command: callTool },
          { label: `The ${design.tool === 'lqg' ? 'LQG' : design.tool} design`, prompt: rest },
        ],
      };
    }
  }
  // what the numbers in the message imply when no tool is named strongly
  const specWords = /^(?:overshoot|settling time|rise time|peak time)$/;
  const convB = conv.current !== undefined && conv.systems[conv.current]?.sys.kind === 'ss' && !!(conv.systems[conv.current].sys as { B?: Matrix }).B;
  if (Object.keys(scan.specs).length && (scan.assigns.has('B') || sel?.assigns.has('B') || (convB && !defined.length)) && !scan.assigns.has('C')) {
    for (let i = named.length - 1; i >= 0; i--) if (named[i].tool === 'stepinfo' && named[i].hits.every((h) => specWords.test(h.phrase))) named.splice(i, 1);
  }
  const topStrength = named[0]?.strength ?? 0;
  const anySystem = defined[0]?.sys ?? (conv.current !== undefined ? conv.systems[conv.current]?.sys : undefined);
  const hasB = (defined.find((d) => d.sys.kind === 'ss')?.sys as { B?: Matrix } | undefined)?.B !== undefined || scan.assigns.has('B') || sel?.assigns.has('B');
  const observerWords = /\b(?:observer|estimator|luenberger)\b/i.test(text) && !/\bkalman\b|\bstate[- ]feedback\b/i.test(text);
  if (observerWords && scan.poles && !tool && !toolCalls.length) {
    // handled below: an observer is asked back as place on the dual system
  } else if (
    (!tool && !toolCalls.length && topStrength < 2) ||
    (!tool &&
      named.every((n) => ['eig', 'poles_zeros', 'analyse', 'lqr'].includes(n.tool) && n.strength <= 2) &&
      (scan.poles || Object.keys(scan.specs).length) &&
      hasB)
  ) {
    if ((scan.poles || Object.keys(scan.specs).length) && hasB && !/\b(?:lqr|riccati|kalman)\b/i.test(text)) {
      tool = getTool('place');
      via = 'words';
    } else if (
      scan.w &&
      !named.some((n) => n.strength >= 2) &&
      /\b(?:response|gain|magnitude|phase|evaluate|attenuation|amplitude)\b|[|]\s*[A-Z]\s*\(\s*j/i.test(text)
    ) {
      tool = getTool('freqresp');
    }
  }
  // "close the loop of G with the PI controller C": connecting a given controller is no design task;
  // nor is defining one ("the PI controller C(s) = 2 + 1/s")
  const connects = named.some((n) => n.strength >= 2 && takesSystems(getTool(n.tool)));
  const givesController = defined.length > 0 && !/\b(?:design|tune|tuning|find|choose|select|synthesi[sz]e|compute)\b/i.test(text);
  // a PID or lead/lag design with nothing beyond it (no anti-windup, LQG, loop shaping …) is pidtune's or leadlag's
  const pidDesign = named.some((n) => n.tool === 'pidtune' || n.tool === 'leadlag') && !DESIGN_BEYOND_PID.test(text);
  // an LQG design is lqg's (its playbook: analysis, LQR, Kalman filter, compensator, closed loop), unless more is asked
  const lqgDesign = named.some((n) => n.tool === 'lqg') && !DESIGN_BEYOND_LQG.test(text);
  if (!opts.command && !fromCall && !connects && !givesController && !pidDesign && !lqgDesign && DESIGN_WITH_MODEL.test(text)) {
    record(conv, pending);
    return { kind: 'none', reason: 'a design task (PID, lead/lag, tuning, loop shaping) that needs a model or a dedicated tool', problems };
  }
  // a "why" question anywhere (after a pasted cell, after two numbers) wants an explanation
  if (!opts.command && /(?:^|[.?!\n]\s*|\band\s+)(?:why|how come)\b[^?!\n]*\?/i.test(message)) {
    record(conv, pending);
    return { kind: 'none', reason: 'a question asking why, which needs an explanation', problems };
  }
  // a delay written in words ("a 12 s dead time", "time delay of 0.5 s") is never dropped
  // a plant given by physical constants (m = 2 kg, k = 50 N/m): the model must be derived first
  if (
    !defined.length &&
    !toolCalls.length &&
    !scan.assigns.has('A') &&
    /(?<![\w.])[A-Za-z]\w*\s*=\s*[-+]?[\d.]+(?:e[-+]?\d+)?\s*(?:kg|N\s*\/\s*m|N\s*s\s*\/\s*m|Ns\/m|kg\s*m\^?2|Ohm|Ω|mH|µF|uF|henry|farad|N\s*m)\b/i.test(text)
  ) {
    record(conv, pending);
    return {
      kind: 'ask',
      question:
        'These are physical constants: the solvers need the model itself. Please give A, B, C, D (or the transfer function) built from them, e.g. for m·ẍ + c·ẋ + k·x = u: A = [0 1; -k/m -c/m], B = [0; 1/m], C = [1 0].',
      candidates: [],
    };
  }
  if (
    /\b(?:dead[- ]?time|time[- ]delay|transport delay|input delay|output delay|io ?delay|delay(?:ed)? (?:of|by)|(?:computation|computational|sample|sampling|processing|pure|loop)\s+delay|delay)\b/i.test(
      // a delay margin (stability_margins) is a property of the loop, not a delay in it
      text.replace(/\bdelay margins?\b/gi, ''),
    ) &&
    /\d/.test(text) &&
    !/\bno (?:time )?delay\b/i.test(text)
  ) {
    record(conv, pending);
    return {
      kind: 'none',
      reason: 'a time delay, which the solvers take only as a rational (Padé) approximation',
      problems: [...problems, 'time delays are not supported yet: approximate the delay with a Padé approximation and give the rational transfer function'],
    };
  }
  // one column, row, input or output of a MIMO model: selecting channels is not read yet
  if (
    /\b(?:first|second|third|last|\d(?:st|nd|rd|th))\s+(?:column|row|input|output|channel)s?\b|\b(?:column|row|channel)\s+\d\b|\b(?:from|to)\s+(?:input|output)\s+\d\b/i.test(
      text,
    )
  ) {
    record(conv, pending);
    return {
      kind: 'ask',
      question: 'Selecting one input or output channel is not read yet: please give the matrices of that channel (e.g. B as one column).',
      candidates: [],
    };
  }
  // a Lyapunov or Stein equation written out: A P A' - P + Q = 0, A X + X A' + Q = 0 (or = -Q)
  if (!tool && !toolCalls.length) {
    const T = String.raw`(?:'|ᵀ|\^\s*T|\.T|\^\{T\})`;
    const rhs = String.raw`(?:\+\s*Q\s*=\s*0|=\s*[-−]\s*Q)`;
    const rhsI = String.raw`(?:\+\s*I\s*=\s*0|=\s*[-−]\s*I)`;
    if (new RegExp(String.raw`\bA\s*\*?\s*([PXS])\s*\*?\s*A\s*${T}\s*[-−]\s*\1\s*${rhs}`).test(text)) tool = getTool('dlyap');
    else if (new RegExp(String.raw`\b([PXS])\s*=\s*A\s*\*?\s*\1\s*\*?\s*A\s*${T}\s*\+\s*Q\b`).test(text)) tool = getTool('dlyap');
    else if (new RegExp(String.raw`\bA\s*\*?\s*([PXS])\s*\+\s*\1\s*\*?\s*A\s*${T}\s*${rhs}`).test(text)) tool = getTool('lyap');
    else if (new RegExp(String.raw`\bA\s*${T}\s*\*?\s*([PXS])\s*\+\s*\1\s*\*?\s*A\b\s*(?:${rhs}|${rhsI})`).test(text)) {
      // Aᵀ P + P A + Q = 0 is lyap with Aᵀ in place of A
      tool = getTool('lyap');
      transposeA = true;
    }
    if (tool && new RegExp(String.raw`${rhsI}`).test(text) && !scan.assigns.has('Q')) scan.identity.set('Q', '= −I');
  }
  // poles given as values ("observer … with poles at -10 and -12") are a design target, never "compute the poles"
  if (
    !tool &&
    scan.poles &&
    ((!hasB && !convB && !FOLLOW_UP.test(text)) || observerWords) &&
    named.every((n) => n.strength < 2 || ['eig', 'poles_zeros', 'place'].includes(n.tool))
  ) {
    const hasC = scan.assigns.has('C') || sel?.assigns.has('C');
    record(conv, pending);
    if (hasC && /\b(?:observer|estimator|luenberger)\b/i.test(text)) {
      return {
        kind: 'ask',
        question:
          'An observer with these poles is pole placement on the dual system: L = place(Aᵀ, Cᵀ, p)ᵀ (the estimate follows x̂′ = Ax̂ + Bu + L(y − Cx̂)). Compute that?',
        candidates: [
          {
            label: `L = place(A', C', ${renderValue(scan.poles.values, 'poles')})'`,
            prompt: `L = place(A', C', [${scan.poles.values.map(([re, im]) => (im ? `${re}${im < 0 ? '-' : '+'}${Math.abs(im)}i` : String(re))).join(' ')}])'`,
          },
        ],
      };
    }
    return {
      kind: 'ask',
      question: `The message gives poles (${renderValue(scan.poles.values, 'poles')}) but no input matrix B to place them with. Give B (or C for an observer).`,
      candidates: [],
    };
  }
  // "the steady-state error of G in unity feedback": the loop describes the setting of another question,
  // which the weak words alone ("unity feedback") never turn into a feedback call
  for (let i = named.length - 1; i >= 0; i--)
    if (
      named[i].tool === 'feedback' &&
      named[i].strength < 2 &&
      /\b(?:error|constant|overshoot|bandwidth|settling|rise time|peak|margins?|sensitivity|stable|stability|poles?|zeros?|type|response)\b/i.test(text)
    )
      named.splice(i, 1);
  // "the PI controller C = 2 + 1/s": a controller written out is given, not to be designed (pidtune, leadlag)
  if (/\b(?:C|K|Gc|Kc|D|Dc|C_?\d)\s*(?:\(\s*s\s*\))?\s*=(?!=)/.test(text) && !/\b(?:design|tune|tuning|find|choose|select|synthesi[sz]e)\b/i.test(text))
    for (let i = named.length - 1; i >= 0; i--) if (named[i].tool === 'pidtune' || named[i].tool === 'leadlag') named.splice(i, 1);
  // "evaluate G at s = 1+1j": the transfer function at a point (evalfr), not the frequency response
  if (!tool && !toolCalls.length && /\b(?:evaluat\w*|value|values)\b/i.test(text) && /\b(?:at|for)\s+(?:the\s+point\s+)?s\s*=/i.test(text))
    tool = getTool('evalfr');
  // "response of G to u = sin(2*t)", "response to a ramp": a simulation when no tool is named
  if (
    !tool &&
    !toolCalls.length &&
    !named.some((n) => n.strength >= 2) &&
    /\bresponse\b/i.test(text) &&
    readSignal(text) &&
    !/\bstep response\b|\bimpulse response\b|\bfrequency response\b/i.test(text)
  )
    tool = getTool('lsim');
  // "reduce G to order 2", "a reduced 3-state model of P": balanced truncation (balred)
  if (!tool && !toolCalls.length && !named.some((n) => n.strength >= 2) && /\breduc(?:e|ed|ing|tion)\b[^.?!]{0,60}\b(?:order|states?)\b/i.test(text))
    tool = getTool('balred');
  if (!tool && named.length) {
    // weak readings that do not fit the system are no readings ("transfer function" of a transfer function)
    const sysKind = defined[0]?.sys ?? anySystem;
    if (sysKind)
      for (let i = named.length - 1; i >= 0; i--) if (named[i].strength < 2 && toolAccepts(getTool(named[i].tool)!, sysKind) === 'no') named.splice(i, 1);
  }
  if (!tool && named.length) {
    const top = named[0].strength;
    let cands = named.filter((n) => n.strength >= Math.min(top, 2) || n.strength === top).map((n) => n.tool);
    if (top >= 2) cands = named.filter((n) => n.strength >= 2).map((n) => n.tool);
    // "controllable and observable": the analysis reports both
    if (cands.length === 2 && cands.includes('ctrb_rank') && cands.includes('obsv_rank')) cands = ['analyse'];
    // "Nyquist … is the closed loop stable?": the stability question is about that tool's answer
    const stabilityOnly = named.find((n) => n.tool === 'analyse')?.hits.every((h) => /stab/i.test(h.phrase));
    if (cands.length > 1 && cands.includes('analyse') && stabilityOnly && !cands.some((c) => COVERS.analyse.includes(c)))
      cands = cands.filter((c) => c !== 'analyse');
    // "peak time, overshoot and settling time of the step response": the characteristics are asked
    const chars = new Set(named.find((n) => n.tool === 'stepinfo')?.hits.map((h) => h.start) ?? []).size;
    if (chars >= 2 && cands.includes('step')) cands = cands.filter((c) => c !== 'step');
    // "simulate a step for 20 s": a step named as the input of a simulation (no "step response") is lsim's signal
    const stepHits = named.find((n) => n.tool === 'step')?.hits ?? [];
    if (cands.includes('lsim') && cands.includes('step') && stepHits.every((h) => h.phrase === 'step') && /\bsimulat/i.test(text))
      cands = cands.filter((c) => c !== 'step');
    const uncovered = cands.filter((c) => !cands.some((o) => o !== c && COVERS[o]?.includes(c)));
    if (uncovered.length) cands = uncovered;
    if (cands.length > 1) {
      const sys = defined[0]?.sys ?? (conv.current !== undefined ? conv.systems[conv.current].sys : undefined);
      if (sys) {
        const possible = cands.filter((c) => toolAccepts(getTool(c)!, sys) !== 'no');
        if (possible.length) cands = possible;
        // tools named by the same words ("poles": eig or poles_zeros) are alternatives: prefer the one
        // that takes the system as it is; tools named by different words are two requests: ask
        const spans = (t: string) => new Set(named.find((n) => n.tool === t)?.hits.map((h) => `${h.start}:${h.end}`) ?? []);
        const sameWords = cands.every((c) => cands.every((o) => o === c || [...spans(c)].some((x) => spans(o).has(x))));
        const native = cands.filter((c) => toolAccepts(getTool(c)!, sys) === 'native');
        if (native.length && sameWords) cands = native;
      }
    }
    if (cands.length > 1) {
      record(conv, pending);
      return {
        kind: 'ask',
        question: `I can read this as ${cands.map((c) => getTool(c)!.title.toLowerCase() + ' (`' + c + '`)').join(' or ')}. Which one?`,
        candidates: cands.map((c) => ({ label: getTool(c)!.title, prompt: message, command: c })),
      };
    }
    tool = getTool(cands[0]);
    if ((tool?.name === 'freqresp' && named.some((n) => n.tool === 'margins')) || (tool?.name === 'freqresp' && /\bbode\b/i.test(text))) plan = 'bode';
  }

  // ---- tools of several systems (feedback, series, parallel, append): their own reading
  if (tool && takesSystems(tool)) {
    // T = feedback(G, C): T is the call's result, not a system this message defines
    const own = fromCall?.call.text;
    const pendingOwn = { ...pending, defined: own ? defined.filter((d) => !d.text.includes(own)) : defined };
    const r = readInterconnect({
      tool,
      message,
      text,
      conv,
      scope,
      fromCall: fromCall ? { call: fromCall.call, vals: fromCall.vals, kw: fromCall.kw } : undefined,
      defined: pendingOwn.defined,
    });
    if (r.kind === 'ask') {
      record(conv, pendingOwn);
      return r;
    }
    // numbers no operand, sign or channel took are said, as for every other tool
    const taken = Object.values(r.origins).flatMap((o) => (o.from === 'message' || o.from === 'selection' ? [o.text] : []));
    const leftover = leftoverNumbers(scan, fromCall?.call.text, taken);
    const reading: CallReading = {
      kind: 'call',
      tool: tool.name,
      args: r.args,
      origins: r.origins,
      unused: [],
      notes: [
        ...scan.notes,
        ...r.notes,
        ...problems,
        ...(leftover.length ? [`Not read from your message: ${leftover.map((l) => `'…${l}'`).join(', ')} (say what it is if it should count)`] : []),
      ],
      system: r.label,
      via,
      ...(r.output ? { output: r.output } : {}),
    };
    record(conv, pendingOwn, reading);
    return reading;
  }

  // "eigenvalues of A - LC", "is A - B*K stable": an expression of named matrices in prose
  let exprA: { value: Matrix; text: string } | undefined;
  const ex = tool && !fromCall ? text.match(/\b(?:of|for|is|are)\s+(A\s*[-+]\s*[A-Z]\w*\s*\*?\s*[A-Z]\w*)(?![\w(])/) : undefined;
  if (tool && ex && tool.parameters.properties.A) {
    const expr = ex[1].replace(/([A-Z])\s*([A-Z])(?![\w])/g, (m, x: string, y: string) => (scope.matrix(x + y) ? m : `${x}*${y}`));
    const ids = [...new Set(expr.match(/[A-Za-z_]\w*/g) ?? [])];
    const vals = ids.map((id) => scope.matrix(id));
    if (vals.every(Boolean)) {
      let sub = expr;
      ids.forEach((id, k) => (sub = sub.replace(new RegExp(`(?<![\\w.])${id}(?![\\w])`, 'g'), `(${JSON.stringify(vals[k]!.value)})`)));
      try {
        exprA = { value: parseMatrixLiteral(sub), text: ex[1] };
      } catch (e) {
        record(conv, pending);
        return { kind: 'ask', question: `I could not compute ${ex[1]}: ${(e as Error).message}`, candidates: [] };
      }
    } else {
      record(conv, pending);
      const missingNames = ids.filter((_id, k) => !vals[k]);
      return {
        kind: 'ask',
        question: `${ex[1]} uses ${missingNames.join(', ')}, which I do not have. Please give ${missingNames.join(' and ')} (e.g. ${missingNames[0]} = [...]).`,
        candidates: [],
      };
    }
  }
  // "what if R = 10? where do the closed-loop poles go?" after an lqr: the design again with the new
  // weight (its result has the closed-loop poles), not the open loop's poles
  const POLE_DESIGNS = new Set(['lqr', 'dlqr', 'place', 'lqi', 'lqry', 'lqe', 'kalman']);
  const designFollowUp =
    !!tool &&
    ['poles_zeros', 'eig', 'damp', 'analyse'].includes(tool.name) &&
    !fromCall &&
    !opts.command &&
    !defined.length &&
    !!conv.lastCall &&
    POLE_DESIGNS.has(conv.lastCall.tool) &&
    [...scan.assigns.keys()].some((k) => !['A', 'B', 'C', 'D'].includes(k) && conv.lastCall!.args[k] !== undefined);
  // "closed loop" with an analysis tool: never the open loop silently
  // design tools, and the open-loop tools that judge the closed loop (Nyquist, margins, root locus, Bode)
  const DESIGN_TOOLS = new Set(['lqr', 'dlqr', 'place', 'lqe', 'kalman', 'care', 'dare', 'c2d', 'tf2ss', 'ss2tf', 'nyquist', 'margins', 'rlocus', 'freqresp']);
  if (
    tool &&
    !exprA &&
    !fromCall &&
    !opts.command &&
    /\bclosed[- ]?loop\b|\bunity(?:[- ]gain)?\s+(?:negative\s+)?feedback\b|\bunder\s+(?:unity\s+|negative\s+)*feedback\b|\bwith\s+(?:unity\s+|negative\s+)*feedback\b|\bin\s+feedback\b/i.test(
      text,
    ) &&
    !DESIGN_TOOLS.has(tool.name) &&
    !designFollowUp &&
    !/\bfeedback\s*\(/.test(text) &&
    // the system in use is itself a closed loop (T = feedback(…) of an earlier turn): "its closed-loop poles" are its poles
    !(!defined.length && conv.current !== undefined && conv.systems[conv.current]?.role === 'result' && /\bfeedback\(/.test(conv.systems[conv.current].text))
  ) {
    record(conv, pending);
    const hasK = scan.assigns.has('K') || !!conv.vars.K;
    const g =
      defined.find((d) => d.name && d.sys.kind === 'tf')?.name ??
      conv.systems.find((e) => e.name && e.sys.kind === 'tf' && new RegExp(`(?<![\\w.])${e.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`).test(text))
        ?.name;
    const candidates: Candidate[] = [];
    // a saved reg/lqg compensator: its loop with the plant it was designed for, with MATLAB's positive feedback
    const ci = conv.current !== undefined && conv.systems[conv.current].feedback ? conv.current : conv.systems.map((e) => !!e.feedback).lastIndexOf(true);
    const comp = ci >= 0 ? conv.systems[ci] : undefined;
    const plantName = comp?.feedback?.plant !== undefined ? conv.systems[comp.feedback.plant]?.name : undefined;
    if (comp?.name && plantName)
      candidates.push({
        label: `Close the loop of ${plantName} with the compensator ${comp.name} first, with positive feedback as MATLAB connects reg/lqg (u = −Kx̂ carries the sign): T = feedback(${plantName}, ${comp.name}, +1); then ask for its ${tool.name === 'freqresp' ? 'Bode plot' : tool.name}`,
        prompt: `T = feedback(${plantName}, ${comp.name}, +1)`,
      });
    if (hasK) candidates.push({ label: 'Closed-loop poles eig(A − BK) (u = −Kx)', prompt: 'eig(A-B*K)' });
    if (g)
      candidates.push({
        label: `Unity negative feedback of ${g}: T = ${g}/(1 + ${g})`,
        prompt: `${tool.name === 'freqresp' ? 'bode' : tool.name}(feedback(${g}, 1))`,
      });
    return {
      kind: 'ask',
      question: `You ask about the closed loop, and ${tool.name} would run on the open-loop model as written. ${candidates.length ? 'Which closed loop do you mean?' : 'Please give the closed-loop system (e.g. A − BK, or feedback(G, 1)).'}`,
      candidates,
    };
  }
  // conceptual questions go to a model, even when they name a tool
  const hasNumbers = defined.length > 0 || scan.assigns.size > 0 || toolCalls.length > 0;
  const ADVICE =
    /^\s*(?:why|how come|explain|how (?:would|should|could|can|do) (?:i|we|you)\b|what (?:would|should|could) (?:i|we)\b|is it (?:possible|better|ok|a good idea))/i;
  if (!opts.command && !fromCall && ((CONCEPTUAL.test(text) && !REFERS.test(text)) || ADVICE.test(text)) && !hasNumbers) {
    record(conv, pending);
    return { kind: 'none', reason: 'a question about concepts, not a computation on your numbers', problems };
  }

  // ---- follow-ups: no tool named, but arguments or a system, and a call to continue
  const extraGiven =
    [...scan.assigns.keys()].some((k) => !['A', 'B', 'C', 'D', 'num', 'den'].includes(k)) ||
    scan.samples.length > 0 ||
    !!scan.poles ||
    !!scan.method ||
    !!scan.t ||
    !!scan.w ||
    Object.keys(scan.specs).length > 0;
  let followUp = false;
  // "the lqr again with R = 5": the last call of that tool, on its system, is continued
  const again =
    tool && !fromCall && !defined.length && /\b(?:again|as before|like before|the (?:same|earlier|previous|first)\b)/i.test(text)
      ? conv.calls[tool.name]
      : undefined;
  if (again) {
    conv.lastCall = again;
    followUp = true;
  }
  // "try poles at -3 and -4 instead": a weak word ("poles") in a follow-up continues the last call
  if (tool && via === 'words' && !opts.command && (named[0]?.strength ?? 0) < 2 && conv.lastCall && FOLLOW_UP.test(text) && !defined.length && extraGiven)
    tool = undefined;
  if (designFollowUp) tool = undefined;
  const namesSystem = conv.systems.some((e) => e.name && new RegExp(`(?<![\\w.])${e.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w(=])`).test(text));
  if (
    !tool &&
    conv.lastCall &&
    (extraGiven || FOLLOW_UP.test(text) || (namesSystem && !defined.length && text.trim().split(/\s+/).length <= 4)) &&
    (FOLLOW_UP.test(text) || !defined.length)
  ) {
    tool = getTool(conv.lastCall.tool);
    plan = conv.lastCall.plan;
    followUp = true;
    via = 'follow-up';
  }

  if (!tool) {
    record(conv, pending);
    // "Discrete model, Ts = 0.1 s: A = …": the sample time belongs to the model defined (as ss(A, B, C, D, Ts))
    if (scan.samples.length === 1 && !scan.samples[0].unitless)
      for (const d of defined) if (d.sys.kind === 'ss' && d.sys.Ts === undefined) d.sys.Ts = scan.samples[0].Ts;
    if (defined.length || scan.assigns.size || scan.samples.length) {
      let rest = text;
      for (const d of [...scan.systems].sort((a, b) => b.text.length - a.text.length)) rest = rest.split(d.text).join(' ');
      for (const [, a] of scan.assigns) rest = rest.split(a.text.replace(/^(\S+) = /, '')).join(' ');
      for (const c of scan.calls) rest = rest.split(c.text).join(' ');
      for (const x of scan.samples) rest = rest.split(x.text).join(' ');
      const words = (rest.match(/[A-Za-z]{3,}/g) ?? []).filter(
        (w) => !/^(and|with|the|for|let|given|define|defined|this|that|plant|system|model|here|is|are|its|my|our|where|sys|num|den)$/i.test(w),
      );
      // a question or a request for something no tool computes; descriptions ("Longitudinal model, states [u w q]") are not
      const asks =
        /\?/.test(message) ||
        /\b(?:what|whats|what's|wat|which|how|find|compute|calculate|get|give|show|plot|determine|tell|evaluate|estimate|draw|sketch)\b/i.test(rest);
      const question =
        words.length >= 1 && asks
          ? rest
              .replace(/[=;,]+/g, ' ')
              .replace(/\s+/g, ' ')
              .trim()
          : undefined;
      if (question && !CONCEPTUAL.test(text)) {
        return {
          kind: 'none',
          reason: `no solver reads “${question}”`,
          problems,
          defined: defined.map((d) => ({
            label: d.name ?? (d.sys.kind === 'tf' ? 'the transfer function' : d.sys.tfm ? 'the transfer matrix' : '(A, B, C, D)'),
            sys: d.sys,
          })),
        };
      }
      return {
        kind: 'define',
        ...(question ? { question } : {}),
        fromSelectionOnly: !scan.assigns.size && defined.every((d) => d.origin.from === 'selection'),
        defined: defined.map((d) => ({
          label: d.name ?? (d.sys.kind === 'tf' ? 'the transfer function' : d.sys.tfm ? 'the transfer matrix' : '(A, B, C, D)'),
          sys: d.sys,
        })),
        notes: [...problems, ...[...scan.assigns.entries()].filter(([, a]) => a.error).map(([k, a]) => `${k}: ${a.error}`)],
      };
    }
    return { kind: 'none', reason: 'no computation is named', problems };
  }

  // ---- which system
  let sysVal: { sys: System; origin: Origin; label: string; index?: number; op?: PreCall } | undefined;
  let fromConversation = false;
  if (fromCall) {
    const i = fromCall.form.args.indexOf('sys');
    const v = i >= 0 ? fromCall.vals[i] : undefined;
    if (v?.kind === 'system') sysVal = { sys: v.sys, origin: v.origin, label: v.label, index: v.index, ...(v.op ? { op: v.op } : {}) };
  }
  if (!sysVal && !fromCall) {
    // systems mentioned by name in the words (not where they are defined)
    const mentioned = new Set<string>();
    const allNames = [...Object.keys(localSystems), ...conv.systems.map((s) => s.name).filter((n): n is string => !!n)];
    for (const n of allNames) {
      const re = new RegExp(`(?<![\\w.])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w(]|\\s*(?:\\(\\s*[sz]\\s*\\)\\s*)?=)`, 'g');
      if (re.test(text)) mentioned.add(n);
    }
    const turnRef = text.match(/\b(?:of|from|in)\s+turn\s+(\d+)\b/i);
    if (mentioned.size === 1) {
      const n = [...mentioned][0];
      const s = scope.system(n)!;
      const op = 'op' in s.entry ? s.entry.op : undefined;
      sysVal = { sys: s.entry.sys, origin: s.origin, label: n, index: s.index, ...(op ? { op } : {}) };
    } else if (mentioned.size > 1) {
      record(conv, pending);
      conv.lastCall = { tool: tool.name, args: {}, origins: {}, turn, ...(plan ? { plan } : {}) };
      return {
        kind: 'ask',
        question: `Which system: ${[...mentioned].join(' or ')}?`,
        candidates: [...mentioned].map((n) => ({ label: n, prompt: `${tool!.name === 'freqresp' ? 'bode' : tool!.name} of ${n}` })),
      };
    } else if (defined.length === 1) {
      sysVal = {
        sys: defined[0].sys,
        origin: defined[0].origin,
        label: defined[0].name ?? (defined[0].origin.from === 'selection' ? 'the selection' : 'this message'),
      };
    } else if (defined.length > 1) {
      record(conv, pending);
      return {
        kind: 'ask',
        question: `This message gives ${defined.length} systems (${defined.map((d) => d.name ?? d.text).join('; ')}). Which one should I use for ${tool.name}?`,
        candidates: defined.filter((d) => d.name).map((d) => ({ label: d.name!, prompt: `${tool!.name === 'freqresp' ? 'bode' : tool!.name} of ${d.name}` })),
      };
    } else if (turnRef) {
      const tn = Number(turnRef[1]);
      const inTurn = conv.systems.map((s, i) => [s, i] as const).filter(([s]) => s.turn === tn);
      const pick =
        inTurn.length === 1
          ? inTurn[0]
          : inTurn.find(([s]) => (/\bdiscret/i.test(text) ? s.role === 'result' : /\bcontinuous/i.test(text) ? s.role === 'given' : false));
      if (pick) sysVal = { sys: pick[0].sys, origin: { from: 'turn', turn: tn, text: systemLabel(pick[0]) }, label: systemLabel(pick[0]), index: pick[1] };
    }
    // "the first one", "the second plant", "the old one", "that one", "the first A": systems by order
    const numbered = text.match(/\b(?:joint|plant|system|model|loop|motor|axis|link)\s+(\d)\b/i);
    const ordRef = numbered
      ? ([numbered[0], ['first', 'second', 'third', 'fourth'][Number(numbered[1]) - 1] ?? 'none'] as unknown as RegExpMatchArray)
      : text.match(
          /\b(?:the\s+)?(first|second|third|1st|2nd|3rd|old|older|earlier|previous|other|new|newer|latest|last|same|that)\s+(?:one|plant|system|model|loop|transfer function|tf|A|joint|controller)\b|\b(?:for|to|of)\s+the\s+(first|second|third)\b(?!\s+(?:column|row|input|output|diagonal|order|kind))/i,
        );
    if (!sysVal && !defined.length && ordRef && conv.systems.length) {
      const word = (ordRef[1] ?? ordRef[2]).toLowerCase();
      const given = conv.systems.map((e, i) => [e, i] as const).filter(([e]) => e.role === 'given');
      const order = [...given].sort((a, b) => a[0].turn - b[0].turn || a[1] - b[1]);
      const nth = { first: 0, '1st': 0, second: 1, '2nd': 1, third: 2, '3rd': 2 }[word];
      let pick: readonly [SystemEntry, number] | undefined;
      if (nth !== undefined) pick = order[nth];
      else if (/^(old|older|earlier|previous|other)$/.test(word)) {
        // the system used (in a call) before the one in use; two such: ask
        const usedIdx = new Set(
          [...Object.values(conv.calls), ...(conv.lastCall ? [conv.lastCall] : [])]
            .map((c) => c.system)
            .filter((i): i is number => i !== undefined && i !== conv.current),
        );
        const cands = [...usedIdx];
        if (cands.length === 1) pick = [conv.systems[cands[0]], cands[0]] as const;
        else {
          record(conv, pending);
          return {
            kind: 'ask',
            question: `Which earlier system: ${cands.length ? cands.map((i) => systemLabel(conv.systems[i])).join(' or ') : 'I have no earlier one in use'}?`,
            candidates: cands
              .filter((i) => conv.systems[i].name)
              .map((i) => ({ label: systemLabel(conv.systems[i]), prompt: `${tool!.name === 'freqresp' ? 'bode' : tool!.name} of ${conv.systems[i].name}` })),
          };
        }
      } else if (/^(new|newer|latest|last)$/.test(word)) pick = order[order.length - 1];
      else if (conv.current !== undefined) pick = [conv.systems[conv.current], conv.current] as const;
      if (pick) {
        const [e, i] = pick;
        sysVal = inUse(e, i);
        fromConversation = true;
      }
    }
    const kindRef = text.match(/\b(?:back to |the |that )(continuous|discrete)(?:-time)? (?:plant|system|model|one|version)\b/i);
    if (!sysVal && !defined.length && kindRef) {
      const wantD = kindRef[1].toLowerCase() === 'discrete';
      for (let i = conv.systems.length - 1; i >= 0; i--) {
        const e = conv.systems[i];
        if (isDiscrete(e.sys) === wantD) {
          sysVal = inUse(e, i);
          fromConversation = true;
          break;
        }
      }
    }
    // a follow-up that continues the last call ("now 1 kHz" after a c2d) runs on that call's system,
    // not on the result it produced
    const lastSys = followUp && conv.lastCall?.system !== undefined ? conv.systems[conv.lastCall.system] : undefined;
    if (!sysVal && !defined.length && !again && lastSys) {
      const i = conv.lastCall!.system!;
      sysVal = inUse(lastSys, i);
      fromConversation = true;
    }
    if (!sysVal && !defined.length && !again) {
      // the system in use: the conversation's current one, unless the last turn left two
      // systems in scope that this tool can run on (a pair (A, B) has no margins)
      const fits = (i: number) => {
        const e = conv.systems[i];
        if (!e) return false;
        // c2d takes a continuous model, d2c and d2d a discrete one ("now with tustin" after a c2d: the continuous G)
        if (tool!.name === 'c2d' && isDiscrete(e.sys)) return false;
        if ((tool!.name === 'd2c' || tool!.name === 'd2d') && !isDiscrete(e.sys)) return false;
        if (e.sys.kind === 'tf') return toolAccepts(tool!, e.sys) !== 'no';
        const req = tool!.parameters.required ?? [];
        const p = tool!.parameters.properties;
        return (
          !!p.A &&
          (['B', 'C'] as const).every((k) => (!req.includes(k) && !(p.num && (k === 'C' || k === 'B')) ? true : e.sys.kind === 'ss' && e.sys[k] !== undefined))
        );
      };
      const allInScope = [...new Set([...(conv.current !== undefined ? [conv.current] : []), ...conv.recent])];
      const inScope = allInScope.filter(fits).length ? allInScope.filter(fits) : allInScope;
      if (inScope.length === 1) {
        const e = conv.systems[inScope[0]];
        sysVal = inUse(e, inScope[0]);
        fromConversation = true;
      } else if (inScope.length > 1) {
        record(conv, pending);
        // the question stays open: a next message naming one of them runs this tool on it
        conv.lastCall = { tool: tool.name, args: {}, origins: {}, turn, ...(plan ? { plan } : {}) };
        const tn = tool.name === 'freqresp' ? 'bode' : tool.name;
        return {
          kind: 'ask',
          question: `Which system do you mean: ${inScope.map((i) => systemLabel(conv.systems[i]) + (isDiscrete(conv.systems[i].sys) ? ' (discrete)' : ' (continuous)')).join(' or ')}?`,
          candidates: inScope.map((i) => {
            const e = conv.systems[i];
            return {
              label: systemLabel(e) + (isDiscrete(e.sys) ? ` (discrete, Ts = ${num2(e.sys.Ts ?? 1)} s)` : ' (continuous)'),
              prompt: e.name ? `${tn} of ${e.name}` : `${tn} of the ${isDiscrete(e.sys) ? 'discrete' : 'continuous'} model from turn ${e.turn}`,
            };
          }),
        };
      }
    }
  }

  // ---- discrete or continuous
  const sysDiscrete = sysVal ? isDiscrete(sysVal.sys) : false;
  const props0 = tool.parameters.properties;
  // a discrete design (dlqr, dare, dlyap) on a model of earlier turns that was never said to be discrete
  if (
    tool.words.continuous &&
    !sysDiscrete &&
    sysVal &&
    fromConversation &&
    sysVal.sys.kind === 'ss' &&
    !scan.samples.length &&
    !/\balready discrete\b/i.test(text) &&
    !saysDiscreteModel(text)
  ) {
    record(conv, pending);
    const c = getTool(tool.words.continuous)!;
    return {
      kind: 'ask',
      question: `${sysVal.label} was never said to be discrete. Is it (then ${tool.name} applies as it is), or is it continuous (then ${c.name}, or discretise it first with c2d)?`,
      candidates: [
        { label: `${tool.name}: the model is already discrete`, prompt: `${message} (already discrete)` },
        { label: `${c.name} on the continuous model`, prompt: message.replace(new RegExp(`\\b${tool.name}\\b`, 'i'), c.name) },
      ],
    };
  }
  const saysDiscrete = (/\b(?:discrete|digital|sampled|z-domain)\b/i.test(text) && !/\bdiscreti[sz]/i.test(text)) || STATE_EQ_DISCRETE.test(text);
  // a discrete design on a plant the message calls continuous: discretise first, or the continuous design?
  if (tool.words.continuous && /\bcontinuous\b/i.test(text) && followUp) tool = getTool(tool.words.continuous)!;
  else if (tool.words.continuous && /\bcontinuous\b/i.test(text) && !sysDiscrete && !(props0.Ts && scan.samples.length)) {
    record(conv, pending);
    const c = getTool(tool.words.continuous)!;
    return {
      kind: 'ask',
      question: `${tool.name} designs for a discrete model, and the message says the plant is continuous. Discretise it first (c2d needs Ts), or use ${c.name} on the continuous model?`,
      candidates: [
        { label: `${c.name} on the continuous model`, prompt: message, command: c.name },
        { label: 'Discretise first (c2d)', prompt: message, command: 'c2d' },
      ],
    };
  }
  const wantDiscrete = sysDiscrete || (saysDiscrete && !!tool.words.discrete);
  if (wantDiscrete && tool.words.discrete && !(fromCall && fromCall.form.args[0] === 'A' && !sysDiscrete)) tool = variantFor(tool, true);

  let props = tool.parameters.properties;
  let gFromB = false;
  const consumed: string[] = [];
  const args: Record<string, unknown> = {};
  const origins: Record<string, Origin> = {};
  const used = new Set<string>();
  const set = (k: string, v: unknown, o: Origin) => {
    args[k] = v;
    origins[k] = o;
  };

  // ---- the system's arguments
  if (sysVal) {
    const s = sysVal.sys;
    const acc = toolAccepts(tool, s);
    // a transfer matrix: as written for the tools that take one, else realised by a visible tf2ss first (reader/mimo.ts)
    const mimo = mimoSystemArgs(tool, s, sysVal.label);
    if (mimo && 'ask' in mimo) {
      record(conv, pending);
      return mimo.ask;
    }
    if (acc === 'no') {
      record(conv, pending);
      return {
        kind: 'ask',
        question: `${tool.name} needs a state-space model (A, B, …), and ${sysVal.label} is a transfer function. Realise it first?`,
        candidates: [{ label: 'State-space realisation (tf2ss)', prompt: `tf2ss of ${sysVal.label}` }],
      };
    }
    if (mimo) {
      for (const [k, v] of Object.entries(mimo.args)) set(k, v, sysVal.origin);
      if (mimo.pre) sysVal = { ...sysVal, op: mimo.pre };
    } else if (s.kind === 'tf') {
      set('num', s.num, sysVal.origin);
      set('den', s.den, sysVal.origin);
    } else {
      for (const k of SS) {
        if (s[k] !== undefined && props[k]) set(k, s[k], sysVal.origin);
        // a matrix of the message/selection overrides one piece (the user attached both)
      }
    }
    if (isDiscrete(s)) {
      if (props.Ts) {
        if (s.Ts !== undefined) set('Ts', s.Ts, sysVal.origin);
      }
    }
  }

  // ---- arguments from a call
  if (fromCall) {
    fromCall.form.args.forEach((p, i) => {
      const v = fromCall!.vals[i];
      if (!v || p === 'sys' || p === '2' || p === 'inf' || /^'.*'$/.test(p)) return;
      bindVal(p, v);
    });
    for (const [k, v] of Object.entries(fromCall.kw)) {
      const p = fromCall.form.keywords?.[k] ?? (props[k] ? k : Object.keys(props).find((q) => q.toLowerCase() === k.toLowerCase()));
      if (p) bindVal(p, v);
      else problems.push(`${k}= is not an argument of ${fromCall.call.raw}`);
    }
    if (fromCall.form.note) notes.push(fromCall.form.note);
    // MATLAB's balred(sys, r) matches the DC gain by default; python-control's ct.balred truncates (the tool's default)
    if (tool.name === 'balred' && args.method === undefined && !/^(?:ct|control|ctrl)\./i.test(fromCall.call.raw) && fromCall.call.fn === 'balred') {
      set('method', 'matchdc', { from: 'default', text: "MATLAB balred's default, matched DC gain (python-control's ct.balred truncates)" });
    }
    // python-control's ct.dlyap(A, Q, C) solves A X Qᵀ − X + C = 0; MATLAB's dlyap(A, B, C) (the tool's) A X B − X + C = 0
    if (tool.name === 'dsylvester' && /^(?:ct|control|ctrl)\./i.test(fromCall.call.raw) && Array.isArray(args.Bs)) {
      args.Bs = toRows(transpose(fromRows(args.Bs as Matrix)));
      notes.push("python-control's dlyap(A, Q, C) solves A X Qᵀ − X + C = 0: its Q enters transposed as B here (MATLAB's A X B − X + C = 0)");
    }
    // ct.modred(sys, [2]) counts states from 0 (python), MATLAB's modred(sys, 3) from 1, as the tool does
    if (tool.name === 'modred' && /^(?:ct|control|ctrl)\./i.test(fromCall.call.raw) && Array.isArray(args.elim)) {
      const zero = args.elim as number[];
      args.elim = zero.map((i) => i + 1);
      notes.push(`python-control counts states from 0: ELIM = [${zero.join(', ')}] are states ${(args.elim as number[]).join(', ')} counted from 1 as here`);
    }
    if (/^\s*'/.test(text.slice(fromCall.call.end)) && tool.name === 'place')
      notes.push('the transpose after the call gives the observer gain L = Kᵀ (here K of the dual system (Aᵀ, Cᵀ))');
    // kalman(sys, Qn, Rn) / lqe(sys, Qn, Rn): the noise enters where the inputs do (G = B)
    if (props.G && args.G === undefined && fromCall.form.args[0] === 'sys' && sysVal?.sys.kind === 'ss' && sysVal.sys.B) {
      set('G', sysVal.sys.B, sysVal.origin);
      gFromB = true;
      if (!fromCall.form.note) notes.push(`G taken as B of ${sysVal.label} (every input is process noise)`);
    }
  }
  function bindVal(p: string, v: ArgVal) {
    if (v.kind === 'system' || v.kind === 'error') return;
    // a transfer matrix's coefficient lists (tf2ss([[[1], [1, 1]]], …)) go to a parameter that takes them
    if (v.kind === 'tfcoeffs') {
      if ((props[p] as { items?: { anyOf?: unknown } } | undefined)?.items?.anyOf) set(p, v.value, v.origin);
      used.add(p);
      return;
    }
    if (v.kind === 'identity') {
      const I = identityFor(p, args);
      if (I) set(p, I, { from: 'message', text: `I (the ${I.length}x${I.length} identity)` });
      used.add(p);
      return;
    }
    if (p === 'method') {
      if (v.kind === 'string') set('method', v.value.toLowerCase() === 'bilinear' ? 'tustin' : v.value.toLowerCase(), v.origin);
      return;
    }
    if (p === 'poles') {
      const list =
        v.kind === 'poles' ? v.value : v.kind === 'number' ? [[v.value, 0] as Cx] : v.kind === 'matrix' ? flat(v.value)?.map((x) => [x, 0] as Cx) : undefined;
      if (list) set('poles', completeConjugates(list).values, v.origin);
      return;
    }
    const schema = props[p];
    if (!schema) return;
    // evalfr(G, 1+2i): one complex number for a parameter that is a point, as [re, im]
    if (v.kind === 'poles') {
      if (v.value.length === 1) set(p, v.value[0], v.origin);
      used.add(p);
      return;
    }
    if (v.kind === 'number')
      set(
        p,
        schema.type === 'number' ? v.value : schema.type === 'array' && (schema.items as { type?: string })?.type === 'number' ? [v.value] : [[v.value]],
        v.origin,
      );
    else if (v.kind === 'matrix')
      set(p, schema.type === 'array' && (schema.items as { type?: string })?.type === 'number' ? (flat(v.value) ?? v.value) : v.value, v.origin);
    else if (v.kind === 'string' && (schema.type === 'string' || schema.anyOf?.some((x) => x.type === 'string'))) set(p, v.value, v.origin);
    used.add(p);
  }

  // ---- named arguments in the message (and the selection)
  const aliases = { ...GENERIC_ALIASES, ...(tool.words.aliases ?? {}) };
  const assignSources: [Map<string, { value?: Matrix; error?: string; text: string }>, (t: string) => Origin][] = [
    ...(sel
      ? [
          [sel.assigns, (t: string) => ({ from: 'selection', text: t, label: opts.selection?.label }) as Origin] as [
            Map<string, { value?: Matrix; error?: string; text: string }>,
            (t: string) => Origin,
          ],
        ]
      : []),
    [scan.assigns, (t: string) => ({ from: 'message', text: t }) as Origin],
  ];
  const unused: string[] = [];
  for (const [assigns, mk] of assignSources) {
    for (const [name, a] of assigns) {
      if (['num', 'den', 'numerator', 'denominator'].includes(name)) continue;
      if (localSystems[name]) continue;
      // a gain written into a transfer-function expression (K/(s(s+2)) with K = 5) is used there
      if (scan.systems.some((d) => new RegExp(`(?<![\\w.])${name}(?![\\w(])`).test(d.text.replace(/^[^=]*=/, '')))) continue;
      let key = Object.keys(props).find((p) => p === name);
      // a lower-case name for a matrix (a = [...]) counts; a scalar c = 4 is a coefficient, not C
      const nonScalar = !!a.value && !(a.value.length === 1 && a.value[0]?.length === 1);
      key ??= nonScalar ? Object.keys(props).find((p) => p.toLowerCase() === name.toLowerCase() && !props[name]) : undefined;
      key ??= Object.keys(props).find((p) => aliases[p]?.includes(name) && !assigns.has(p));
      // B, C or D written without A extend the system in use ("with B=[0;1], is it controllable?")
      const extending =
        key !== undefined &&
        (SS as readonly string[]).includes(key) &&
        !scan.assigns.has('A') &&
        !sel?.assigns.has('A') &&
        !!sysVal &&
        sysVal.sys.kind === 'ss' &&
        (sysVal.origin.from === 'turn' || sysVal.origin.from === 'system') &&
        assigns === scan.assigns;
      if (extending && a.value) {
        set(key!, a.value, mk(a.text));
        used.add(key!);
        continue;
      }
      // an argument written in the call (place(A', C', p)) is not replaced by an assignment of the same name
      if (key && fromCall && used.has(key)) continue;
      if (!key || (SYS_PARAMS.has(key) && key !== 'Ts' && sysVal && sysVal.origin.from !== 'message' && sysVal.origin.from !== 'selection' && !followUp)) {
        if (!(SS as readonly string[]).includes(name) || !sysVal || (sysVal.sys.kind === 'ss' && !props[name])) {
          if (assigns === scan.assigns && !unused.includes(name) && !(sysVal?.sys.kind === 'tf' && (SS as readonly string[]).includes(name))) unused.push(name);
        }
        if (!key) continue;
      }
      // u = sin(2*t): a formula of t, read with the signal words below
      if (key === 'u' && a.error && props.signal) continue;
      if (a.error && key === 'poles') {
        const list = readNumberList(a.text.replace(/^[^=]*=\s*/, ''), 0);
        if (list) {
          set('poles', completeConjugates(list.values).values, mk(a.text));
          used.add(key);
          continue;
        }
      }
      if (a.error) {
        record(conv, pending);
        return { kind: 'ask', question: `I could not read ${name}: ${a.error}. Could you write it again?`, candidates: [] };
      }
      if (key === 'Ts' || (key === 't' && scan.t) || (key === 'w' && scan.w)) continue;
      if (SYS_PARAMS.has(key) && key !== 'Ts' && sysVal && sysVal.sys.kind === 'tf') {
        if (!unused.includes(name)) unused.push(name);
        continue;
      }
      if (SYS_PARAMS.has(key) && sysVal && sysVal.origin.from !== 'message' && sysVal.origin.from !== 'selection' && !followUp) continue;
      const schema = props[key];
      const v = a.value!;
      const o = mk(a.text);
      if (key === 'poles') {
        const f = flat(v);
        if (f) set('poles', completeConjugates(f.map((x) => [x, 0] as Cx)).values, o);
      } else if (schema.type === 'number') {
        const s = scalar(v);
        if (s !== undefined) set(key, s, o);
      } else if (schema.type === 'array' && (schema.items as { type?: string })?.type === 'number') set(key, flat(v) ?? v, o);
      else set(key, v, o);
      used.add(key);
    }
  }

  // ---- words: sample time, method, poles, specs, grids
  // "Ts = 0,01": a decimal comma or two values?
  const commaTs = scan.samples.find((x) => new RegExp(`${x.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*,\\s*\\d`).test(text) && x.unitless);
  if (commaTs) {
    record(conv, pending);
    return {
      kind: 'ask',
      question: `'${commaTs.text},…' : is the comma a decimal comma? Please write the sample time with a point and a unit (e.g. Ts = 0.01 s).`,
      candidates: [],
    };
  }
  if (scan.samples.length) {
    const s = scan.samples[scan.samples.length - 1];
    const distinct = [...new Set(scan.samples.map((x) => x.Ts))];
    if (distinct.length > 1) {
      record(conv, pending);
      return {
        kind: 'ask',
        question: `Two sample times are given (${scan.samples.map((x) => `'${x.text}'`).join(' and ')}). Which one?`,
        candidates: scan.samples.map((x) => ({ label: `Ts = ${num2(x.Ts)} s`, prompt: message.replace(scan.samples.find((y) => y !== x)!.text, '') })),
      };
    }
    if (s.unitless && s.Ts > 1) {
      record(conv, pending);
      const n = num2(s.Ts);
      const withUnit = (u: string) => message.replace(new RegExp(`(${s.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`), `$1 ${u}`);
      return {
        kind: 'ask',
        question: `Is the sample time ${n} seconds or ${n} milliseconds? ('${s.text}' has no unit, and ${n} s is unusually long.)`,
        candidates: [
          { label: `Ts = ${n} ms`, prompt: withUnit('ms') },
          { label: `Ts = ${n} s`, prompt: withUnit('s') },
        ],
      };
    }
    // a transfer function in s with a sample time: discretise first, or was the sample time meant otherwise?
    if (sysVal && sysVal.sys.kind === 'tf' && sysVal.sys.variable !== 'z' && !sysVal.sys.Ts && tool.name !== 'c2d' && !props.continuous) {
      record(conv, pending);
      return {
        kind: 'ask',
        question: `${sysVal.label === 'this message' ? 'The transfer function' : sysVal.label.replace(/^the/, 'The')} is continuous (in s), and '${s.text}' gives a sample time. Should I discretise it first (c2d, Ts = ${num2(s.Ts)} s), or compute ${tool.name} of the continuous system?`,
        candidates: [
          { label: `Discretise (c2d, Ts = ${num2(s.Ts)} s, zoh)`, prompt: message, command: 'c2d' },
          {
            label: `${tool.name} of the continuous system`,
            prompt:
              sysVal.origin.from === 'message'
                ? message.replace(s.text, ' ')
                : `${tool.name === 'freqresp' ? 'bode' : tool.name} of ${sysVal.label.replace(/^the /, 'the continuous ')}`,
          },
        ],
      };
    }
    // a continuous system from an earlier turn, now with a sample time: discretise it, or were the matrices discrete?
    const earlierContinuous =
      sysVal && (sysVal.origin.from === 'turn' || sysVal.origin.from === 'system') && !isDiscrete(sysVal.sys) && sysVal.sys.kind === 'ss';
    if (props.Ts && earlierContinuous && tool.name !== 'c2d' && !props.continuous) {
      record(conv, pending);
      return {
        kind: 'ask',
        question: `${sysVal!.label} was used as a continuous model. With Ts = ${num2(s.Ts)} s, should I discretise it first (c2d), or are its matrices already discrete?`,
        candidates: [
          { label: `Discretise ${sysVal!.label} (c2d, Ts = ${num2(s.Ts)} s)`, prompt: `discretise it with Ts = ${num2(s.Ts)}` },
          { label: 'The matrices are already discrete', prompt: `${message} (already discrete)` },
        ],
      };
    }
    if (props.Ts) set('Ts', s.Ts, { from: 'message', text: s.text });
    else if (sysVal && !isDiscrete(sysVal.sys) && tool.words.discrete === undefined && !tool.words.continuous) {
      notes.push(`Ts = ${num2(s.Ts)} s (from '${s.text}'): ${tool.name} does not depend on the sample time.`);
    } else if (!props.Ts && tool.words.discrete && getTool(tool.words.discrete)?.parameters.properties.Ts && !fromCall) {
      // a Kalman filter with a sample time is the discrete one (kalman takes Ts)
      tool = getTool(tool.words.discrete)!;
      props = tool.parameters.properties;
      set('Ts', s.Ts, { from: 'message', text: s.text });
    } else if (!props.Ts && tool.words.continuous && /\balready discrete\b/i.test(text)) {
      notes.push(`Ts = ${num2(s.Ts)} s (from '${s.text}'): A, B are taken as already discrete; ${tool.name} does not depend on Ts.`);
    } else if (!props.Ts && (tool.words.discrete || tool.words.continuous)) {
      record(conv, pending);
      const d = tool.words.discrete ? getTool(tool.words.discrete)! : tool;
      return {
        kind: 'ask',
        question: `'${s.text}' gives a sample time, but ${tool.name} has none. Are the matrices already discrete (x[k+1] = A x[k] + B u[k], so ${d.name} applies as given), or continuous, to be discretised with Ts = ${num2(s.Ts)} s first?`,
        candidates: [
          {
            label: `${d.name}: the matrices are already discrete`,
            prompt: `${message.replace(s.text, '')} (${d.name === 'kalman' ? `discrete, Ts=${num2(s.Ts)}` : 'already discrete'})`,
            command: d.name === 'kalman' ? 'kalman' : d.name,
          },
          { label: `Discretise first (c2d, Ts = ${num2(s.Ts)} s)`, prompt: message, command: 'c2d' },
        ],
      };
    } else if (!props.Ts) notes.push(`Ts = ${num2(s.Ts)} s (from '${s.text}'): ${tool.name} does not depend on the sample time.`);
  }
  // a reduction's "matched DC gain" is its own method (read below), not c2d's matched pole-zero
  const reductionMethod = (tool.name === 'balred' || tool.name === 'modred') && /\bmatch/i.test(scan.method?.text ?? '');
  if (scan.method && !reductionMethod) {
    if (tool.name === 'c2d' || props.method) {
      if (scan.method.unsupported) {
        record(conv, pending);
        return {
          kind: 'ask',
          question: `${tool.name} supports ${tool.name === 'c2d' ? 'zoh, foh, tustin (optionally prewarped at a frequency: "prewarp at 10 rad/s"), impulse (impulse invariant), matched, euler (forward) and backward_diff (backward Euler)' : (((props.method as { enum?: string[] }).enum ?? []) as string[]).join(', ')}; '${scan.method.text}' is not available. Use one of these instead?`,
          candidates: (tool.name === 'c2d'
            ? ['zoh', 'foh', 'tustin', 'matched']
            : (((props.method as { enum?: string[] }).enum ?? []) as string[]).slice(0, 4)
          ).map((m) => ({
            label: m,
            prompt: `${message.replace(scan.method!.text, '')} using ${m}`,
          })),
        };
      }
      if (args.method === undefined) set('method', scan.method.value, { from: 'message', text: scan.method.text });
      if (scan.method.prewarp !== undefined && args.prewarp === undefined) {
        if (props.prewarp) set('prewarp', scan.method.prewarp, { from: 'message', text: scan.method.prewarpText ?? scan.method.text });
        else unused.push(`prewarp '${scan.method.prewarpText}'`);
      }
    } else unused.push(`method '${scan.method.text}'`);
  }
  // a PID or lead/lag specification in words (reader/pid.ts): type, kind, pm, wc, Kv
  if (tool.name === 'pidtune' || tool.name === 'leadlag')
    for (const [k, v] of Object.entries(readPidSpec(text, tool.name, scan.specs)))
      if (v && args[k] === undefined) {
        set(k, v.value, { from: 'message', text: v.text });
        consumed.push(v.text);
        if (v.note) notes.push(v.note);
      }
  // actuator limits of a control allocation in words (reader/alloc.ts): ±1, |u| ≤ 1, between a and b
  if (tool.name === 'wls_alloc')
    for (const [k, v] of Object.entries(readAllocWords(text)))
      if (v && args[k] === undefined) {
        set(k, v.value, { from: 'message', text: v.text });
        consumed.push(v.text);
      }
  // pidtune designs for its time-domain targets when wc or pm is not written (solvers/secondorder.ts):
  // the reading line says what they become, by the same relations the tool uses
  if (tool.name === 'pidtune' && (args.wc === undefined || args.pm === undefined)) {
    const num = (k: string) => (typeof args[k] === 'number' ? (args[k] as number) : undefined);
    try {
      const ls = loopFromSpec(
        { overshoot_pct: num('overshoot_pct'), settling_time: num('settling_time'), rise_time: num('rise_time') },
        { pm: num('pm'), wc: num('wc'), pmDefault: 60 },
      );
      if (ls?.short.length) notes.push(`the design is set by the time-domain targets (second-order prototype, formulas below): ${ls.short.join('; ')}`);
    } catch {
      // a target no prototype has (overshoot ≥ 100 %): the tool says so
    }
  }
  // a model predictive control request in words (reader/mpc.ts): horizons, bounds, setpoint, steps, continuous
  if (tool.name === 'mpc') {
    const ask = readMpcArgs(text, message, args, set, consumed, notes, sysVal, fromCall?.form.names.includes('mpc') ?? false);
    if (ask) {
      record(conv, pending);
      return ask;
    }
  }
  let specCheck: SpecCheck | undefined;
  if (props.poles && args.poles === undefined) {
    // a follow-up of place that is only a list ("and -2±2j?", "faster: -4, -5, -6")
    if (!scan.poles && followUp) {
      const at = text.search(/[-+(\[{]?\s*[-+]?\d/);
      const list = at >= 0 ? readNumberList(text, at) : undefined;
      const filler =
        /^\s*(?:and|or|now|try|what about|how about|instead|faster|slower|then|ok|okay|maybe|with)?[\s,:]*(?:with\s+)?(?:(?:the\s+)?poles?\s*)?(?:at\s+)?$/i;
      if (
        list &&
        filler.test(text.slice(0, at)) &&
        !text
          .slice(list.end)
          .replace(/[\s?.!)]/g, '')
          .replace(/^instead$/i, '')
      ) {
        const c = completeConjugates(list.values);
        scan.poles = { values: c.values, text: list.text, added: c.added };
      }
    }
    // the poles a specification leaves open, written beside it ("the other pole at -20"): not the list
    const specs = Object.keys(scan.specs).length > 0;
    const others = specs ? otherPoles(text) : undefined;
    if (scan.poles && !others) {
      set('poles', scan.poles.values, { from: 'message', text: scan.poles.text });
      if (scan.poles.added.length) notes.push(`Added the conjugate ${renderValue(scan.poles.added)} (a real gain needs conjugate pairs).`);
    } else if (specs) {
      const sp = specPoles(scan.specs);
      const n = Array.isArray(args.A) ? (args.A as Matrix).length : undefined;
      // a plant of more than 2 states: the pair is dominant, the other n − 2 poles are written or asked
      const rest = n !== undefined && n > 2 && sp && 'poles' in sp ? restPoles(n - 2, others) : undefined;
      // a discrete plant: the specification's s-plane poles map to z = e^{sTs}; a sample time with
      // neither 'discrete' nor 'continuous' said is two readings, asked
      const sysTs = sysVal && isDiscrete(sysVal.sys) ? (sysVal.sys as { Ts?: number }).Ts : undefined;
      const msgTs = typeof args.Ts === 'number' && args.Ts > 0 ? args.Ts : undefined;
      const saysDiscrete = /\bdiscrete\b|\bz[- ]plane\b|\bz\s*=\s*e\s*\^|\bdigital\b/i.test(text) || STATE_EQ_DISCRETE.test(text);
      const saysContinuous = /\bcontinuous\b|\bs[- ]plane\b/i.test(text);
      const mapTs = sysTs ?? (saysDiscrete && !saysContinuous ? msgTs : undefined);
      if (sp && 'poles' in sp && mapTs === undefined && (msgTs !== undefined || saysDiscrete) && !saysContinuous) {
        record(conv, pending);
        const base = message.trim().replace(/[.?!\s]+$/, '');
        return msgTs !== undefined
          ? {
              kind: 'ask',
              question: `The specification gives s-plane poles ${renderValue(sp.poles, 'poles')} (${sp.formula}), and Ts = ${num2(msgTs)} s is given. Is the plant (A, B) discrete, so the poles map to the z-plane by z = e^{sTs}, or continuous, so they are placed as they are?`,
              candidates: [
                { label: `Discrete plant: place z = e^{sTs} (Ts = ${num2(msgTs)} s)`, prompt: `${base} (discrete plant)` },
                { label: 'Continuous plant: place the s-plane poles', prompt: `${base} (continuous plant)` },
              ],
            }
          : {
              kind: 'ask',
              question: `The plant is discrete: the specification's s-plane poles ${renderValue(sp.poles, 'poles')} map to the z-plane by z = e^{sTs}, which needs the sample time. What is Ts?`,
              candidates: [],
            };
      }
      if (sp && 'poles' in sp && saysContinuous && msgTs !== undefined && sysTs === undefined) {
        // a continuous plant: its s-plane poles are placed as they are, and Ts plays no part
        delete args.Ts;
        delete origins.Ts;
        notes.push(`Ts = ${num2(msgTs)} s is not used: the plant is continuous, so the poles are placed in the s-plane.`);
      }
      if (sp && 'poles' in sp && mapTs !== undefined) {
        const toZ = ([re, im]: number[]): [number, number] => [Math.exp(re * mapTs) * Math.cos(im * mapTs), Math.exp(re * mapTs) * Math.sin(im * mapTs)];
        sp.poles = sp.poles.map(toZ);
        if (rest?.values) rest.values = rest.values.map(toZ);
        sp.formula = `${sp.formula}, mapped to the z-plane by z = e^{sTs} with Ts = ${num2(mapTs)} s: ${renderValue(sp.poles, 'poles')}${rest?.values ? ' (the other poles mapped alike)' : ''}`;
        if (!('Ts' in args))
          set('Ts', mapTs, {
            from: 'system',
            name: sysVal!.label,
            turn: sysVal!.origin.from === 'turn' || sysVal!.origin.from === 'system' ? sysVal!.origin.turn : turn,
          });
        for (let i = notes.length - 1; i >= 0; i--) if (/does not depend on the sample time/.test(notes[i])) notes.splice(i, 1);
      }
      if (sp && 'poles' in sp && (n === 2 || rest?.values)) {
        const from = Object.values(scan.specs).map((x) => x!.text.trim());
        set('poles', [...sp.poles, ...(rest?.values ?? [])], { from: 'message', text: [...from, ...(others ? [others.text] : [])].join(', ') });
        if (others) consumed.push(others.text);
        // "zeta=0.7, wn=2" are assignments too: read as the specification, so used
        for (const nm of [...unused]) {
          const bare = (x: string) => x.replace(/\s+/g, '');
          const at = bare(scan.assigns.get(nm)?.text ?? '');
          if (at && from.some((t) => bare(t).includes(at) || at.includes(bare(t)))) unused.splice(unused.indexOf(nm), 1);
        }
        if (others && n === 2) notes.push(`${others.text} is not used: A has 2 states, so the dominant pair is every pole`);
        notes.push(`Poles from the specifications: ${sp.formula}${rest?.note ? `; ${rest.note}` : ''}.`);
        // the closed loop's step is then checked against what was written (agent/deterministic.ts specPlan)
        const sc = scan.specs;
        const targets: SpecCheck['targets'] = {
          ...(sc.overshoot ? { overshoot_pct: sc.overshoot.value * 100 } : {}),
          ...(sc.settling ? { settling_time: sc.settling.value } : {}),
          ...(sc.peakTime ? { peak_time: sc.peakTime.value } : {}),
          ...(sc.rise ? { rise_time: sc.rise.value } : {}),
          ...(sc.zeta ? { zeta: sc.zeta.value } : {}),
          ...(sc.wn ? { wn: sc.wn.value } : {}),
        };
        const Cm = sysVal?.sys.kind === 'ss' ? sysVal.sys.C : undefined;
        const Crow = Cm && Cm.length >= 1 && Cm[0].length === n ? [Cm[0]] : undefined;
        if (Cm && Crow && Cm.length > 1) notes.push(`C has ${Cm.length} outputs: the specification is checked on the first, y = C(1,:)x.`);
        if (!Array.isArray(args.B) || (args.B as Matrix)[0]?.length !== 1)
          notes.push('The specification check (the closed loop’s step) needs a single input; with several inputs, run stepinfo on the channel you mean.');
        else {
          specCheck = { targets, ...(Crow ? { C: Crow } : {}) };
          // C is used: the check measures its output
          if (Crow && unused.includes('C')) unused.splice(unused.indexOf('C'), 1);
        }
      } else if (sp && 'poles' in sp && n !== undefined && n > 2) {
        // the pair fixes 2 poles; the others are not guessed: candidates a few times faster than
        // the pair (each the request with its poles written, so the answer reads the specification again)
        record(conv, pending);
        const sigma = sp.poles[0][0];
        const k = n - 2;
        const many = (B: unknown) => Array.isArray(B) && (B as Matrix)[0]?.length > 1;
        const cands = [5, 10].map((f) => {
          const v = Number((f * sigma).toPrecision(3));
          // several inputs: a pole repeated more than rank(B) times cannot be placed, so spread them by 10 %
          const vals = Array.from({ length: k }, (_, i) => (many(args.B) ? Number((v * (1 + 0.1 * i)).toPrecision(3)) : v));
          const list = vals.length > 1 && vals.every((x) => x === vals[0]) ? `all at ${vals[0]}` : `at ${vals.join(', ')}`;
          const words = k === 1 ? `the other pole at ${vals[0]}` : `the other ${k} poles ${list}`;
          return {
            label: `${words[0].toUpperCase()}${words.slice(1)} (${f}× the dominant real part ${fmtNum(sigma)})`,
            prompt: `${message.trim().replace(/[.?!\s]+$/, '')}, ${words}`,
            base: message.trim().replace(/[.?!\s]+$/, ''),
          };
        });
        const given = others ? ` You gave ${others.values.length} (${others.text}); ${k} ${k === 1 ? 'is' : 'are'} needed.` : '';
        return {
          kind: 'ask',
          question: `The specifications fix the dominant pair ${renderValue(sp.poles, 'poles')} (${sp.formula}), but A has ${n} states: where should the other ${k} ${k === 1 ? 'pole' : 'poles'} go?${given} Usually a few times faster than the pair, so the pair dominates the response; or write them ("the other pole at -20").`,
          candidates: cands,
        };
      } else {
        record(conv, pending);
        const why = sp && 'reason' in sp ? sp.reason : 'the specifications need A to be given';
        return {
          kind: 'ask',
          question: `I cannot turn the specifications into poles: ${why}. Please give the poles (e.g. poles at -2±1j and -10).`,
          candidates: [],
        };
      }
    }
  } else if (scan.poles && !props.poles && !/poles?|eigen|roots/i.test(tool.name)) {
    // a reduction's numbers ("to a 2nd-order model") are its order, read below
    // zpk2tf/zpk2ss: the poles written as p are their argument p
    const asP = props.k !== undefined && args.p !== undefined;
    // a design specification read as such ("a phase margin of at least 50°", reader/pid.ts) is no list of poles
    const inSpec = consumed.some((c) => c.includes(scan.poles!.text.trim()));
    if (!['eig', 'poles_zeros', 'analyse', 'rlocus', 'lqr', 'dlqr'].includes(tool.name) && !props.order && !props.s && !asP && !inSpec)
      unused.push(`poles ${scan.poles.text}`);
  }
  // "c2d G at 1 kHz": a sampling rate written as a frequency
  if (tool.name === 'c2d' && args.Ts === undefined && scan.w?.value.length === 1 && /hz/i.test(scan.w.text))
    set('Ts', (2 * Math.PI) / scan.w.value[0], { from: 'message', text: scan.w.text });
  // "for 10 s" to a tool with a final time (lsim): the final time, the tool picks the step
  if (props.tfinal && args.t === undefined && args.tfinal === undefined && scan.t && /^(?:for|over|during|up to|until|to)\b/i.test(scan.t.text.trim())) {
    set('tfinal', scan.t.value[scan.t.value.length - 1], { from: 'message', text: scan.t.text });
    // "from 0 to 5 s": the start is the default one
    const from0 = text.match(/\bfrom\s+(?:t\s*=\s*)?0(?:\.0*)?\s*(?:s|sec|seconds?)?\s+(?=to\b)/i);
    if (from0) consumed.push(from0[0]);
  } else if (props.t && args.t === undefined && scan.t) set('t', scan.t.value, { from: 'message', text: scan.t.text });
  // the input of a simulation: a standard signal in words, or a formula of t
  if (props.signal && args.u === undefined && args.signal === undefined) {
    const sig = readSignal(text);
    if (sig && 'error' in sig) {
      record(conv, pending);
      return { kind: 'ask', question: `I could not read the input: ${sig.error}`, candidates: [] };
    }
    if (sig) {
      for (const [k, v] of Object.entries(sig.args)) if (args[k] === undefined && props[k]) set(k, v, sig.origins[k]);
      consumed.push(...sig.consumed);
      notes.push(...sig.notes);
    }
  }
  if (props.w && args.w === undefined && scan.w) set('w', scan.w.value, { from: 'message', text: scan.w.text });

  // "Q(1,1) shall be 100": one entry of a matrix of the last call
  const el = text.match(
    /\b([A-Z]\w{0,2})\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)\s*(?:=|:=|shall be|should be|becomes|is|to)\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)/i,
  );
  if (el && conv.lastCall && props[el[1]] && args[el[1]] === undefined && Array.isArray(conv.lastCall.args[el[1]])) {
    const M = (conv.lastCall.args[el[1]] as Matrix).map((r) => [...r]);
    const i = Number(el[2]) - 1,
      j = Number(el[3]) - 1;
    if (M[i] && j < M[i].length) {
      M[i][j] = Number(el[4]);
      set(el[1], M, { from: 'message', text: `${el[0].replace(/[.\s]+$/, '')} (in ${el[1]} of turn ${conv.lastCall.turn})` });
      consumed.push(el[0]);
    }
  }
  // ---- carry over: the same tool on the same system continues the last call
  const last = conv.lastCall;
  const sameSystem = sysVal && fromConversation && last && last.system === sysVal.index;
  // the same problem under another name (lqr then "the Riccati solution": care) keeps the weights
  const SAME_PROBLEM = [
    ['lqr', 'care'],
    ['dlqr', 'dare'],
  ];
  const related = !!last && SAME_PROBLEM.some((p) => p.includes(last.tool) && p.includes(tool!.name) && last.tool !== tool!.name);
  if (last && (followUp || (sameSystem && (last.tool === tool.name || related)))) {
    if (
      last.tool === tool.name ||
      getTool(last.tool)?.words.discrete === tool.name ||
      getTool(last.tool)?.words.continuous === tool.name ||
      (related && sameSystem)
    ) {
      for (const [k, v] of Object.entries(last.args)) {
        if (args[k] !== undefined || !props[k]) continue;
        // a message with its own system takes no matrices from earlier turns, except the weights of an
        // explicit follow-up ("and the discrete one with A=…, B=…") when their sizes fit the new system
        if (defined.length && !(FOLLOW_UP.test(text) && WEIGHTS.has(k) && weightFits(k, v, args))) continue;
        const was = last.origins[k];
        set(k, v, was?.from === 'default' ? was : { from: 'turn', turn: last.turn, text: describeOrigin(was) });
      }
    }
    if (!sysVal && last.system !== undefined && !defined.length) {
      const e = conv.systems[last.system];
      if (e) {
        sysVal = { sys: e.sys, origin: { from: 'turn', turn: last.turn, text: systemLabel(e) }, label: systemLabel(e), index: last.system };
        fromConversation = true;
      }
    }
  }

  // follow-up that changes only some matrices of the system ("now with A = ...")
  if (followUp && !sysVal && defined.length === 1 && last?.system !== undefined) {
    const base = conv.systems[last.system]?.sys;
    const d = defined[0];
    if (base?.kind === 'ss' && d.sys.kind === 'ss') {
      for (const k of SS)
        if (props[k] && args[k] === undefined && base[k] !== undefined && d.sys[k] === undefined)
          set(k, base[k], { from: 'turn', turn: last.turn, text: systemLabel(conv.systems[last.system]) });
    }
  }

  // evalfr's point: "at s = 1+1j", "s = 2"
  if (props.s && args.s === undefined) {
    const at = /\bs\s*=\s*/.exec(text);
    const list = at ? readNumberList(text, at.index + at[0].length) : undefined;
    if (list && list.values.length === 1) {
      set('s', list.values[0], { from: 'message', text: text.slice(at!.index, list.end).trim() });
      consumed.push(text.slice(at!.index, list.end));
    }
  }
  // "to order 2", "to 3 states", "a 2nd-order model": the order of a reduced model
  if (props.order && args.order === undefined) {
    const o = text.match(
      /\b(?:to|of|into)\s+(?:an?\s+|the\s+)?(?:order\s+(\d+)|(\d+)(?:st|nd|rd|th)?[- ]order\b|(\d+)\s+states?\b|(\d+)-state\b|(first|second|third|fourth|fifth|sixth)[- ]order\b)|\border\s*(?:=|:)\s*(\d+)\b/i,
    );
    const ORD: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6 };
    const v = o ? Number(o[1] ?? o[2] ?? o[3] ?? o[4] ?? (o[5] ? ORD[o[5].toLowerCase()] : undefined) ?? o[6]) : undefined;
    if (v !== undefined) {
      set('order', v, { from: 'message', text: o![0] });
      consumed.push(o![0]);
    }
  }
  // "with matched DC gain", "by truncation": the method of a reduction
  if ((tool.name === 'balred' || tool.name === 'modred') && args.method === undefined) {
    const m = text.match(
      /\bmatch(?:ed|ing)?\s+(?:the\s+)?(?:dc|steady[- ]state)(?:\s+gains?)?\b|\bmatchdc\b|\bresiduali[sz](?:e|ed|ation)\b|\b(truncat(?:e|ed|ion))\b(?!\s+of\b)/i,
    );
    if (m) set('method', m[1] ? 'truncate' : 'matchdc', { from: 'message', text: m[0] });
  }
  // "eliminate state 3", "eliminate states 3 and 4": modred's elim (1-based, as the tool counts)
  if (props.elim && args.elim === undefined) {
    const e = text.match(/\beliminat\w*\s+(?:the\s+)?states?\s+((?:x?\d+(?:\s*(?:,|and|&)\s*)?)+)/i);
    if (e) {
      set('elim', (e[1].match(/\d+/g) ?? []).map(Number), { from: 'message', text: e[0].trim() });
      consumed.push(e[0]);
    }
  }
  // "observability Gramian": gram's type, written in words
  if (tool.name === 'gram' && args.type === undefined) {
    const w = text.match(/\b(observab|controll?ab|reachab)\w*\s+gram+ians?\b/i);
    if (w) set('type', /^observ/i.test(w[1]) ? 'o' : 'c', { from: 'message', text: w[0] });
    if (/\bcholesky\b|\bfactor\b/i.test(text) && args.factor === undefined) set('factor', true, { from: 'message', text: 'Cholesky factor' });
  }
  // "a current estimator" / "the delayed (predictor) form": kalman's and lqg's type, written in words
  if (props.type && (tool.name === 'kalman' || tool.name === 'lqg') && args.type === undefined) {
    const w = text.match(
      /\b(current|delayed|predictor|filtered)[- ](?:form|estimator|estimate|kalman(?: filter)?|type)\b|\bx̂?\s*\[\s*[nk]\s*\|\s*[nk]\s*(-\s*1)?\s*\]/i,
    );
    if (w) set('type', /^(current|filtered)/i.test(w[1] ?? '') || (!w[1] && !w[2]) ? 'current' : 'delayed', { from: 'message', text: w[0] });
  }
  // Gramians: the controllability Gramian solves A W + W Aᵀ + B Bᵀ = 0, the observability one Aᵀ W + W A + Cᵀ C = 0
  if (tool.name === 'lyap' && args.Q === undefined && /gram(?:ian)?\b/i.test(text)) {
    const B = scope.matrix('B')?.value ?? (sysVal?.sys.kind === 'ss' ? sysVal.sys.B : undefined);
    const C = scope.matrix('C')?.value ?? (sysVal?.sys.kind === 'ss' ? sysVal.sys.C : undefined);
    const obs = /observab/i.test(text) || /\bgram\s*\([^)]*,\s*['"]o['"]/.test(text);
    if (obs && C && Array.isArray(args.A)) {
      set('A', toRows(transpose(fromRows(args.A as Matrix))), { from: 'message', text: 'Aᵀ (observability Gramian: Aᵀ W + W A + Cᵀ C = 0)' });
      set('Q', toRows(mulTN(fromRows(C), fromRows(C))), { from: 'message', text: 'Cᵀ C (observability Gramian)' });
    } else if (B && !obs) set('Q', toRows(mulNT(fromRows(B), fromRows(B))), { from: 'message', text: 'B Bᵀ (controllability Gramian: A W + W Aᵀ + B Bᵀ = 0)' });
    for (const k of ['B', 'C']) if (unused.includes(k)) unused.splice(unused.indexOf(k), 1);
  }
  if (transposeA && Array.isArray(args.A)) {
    set('A', toRows(transpose(fromRows(args.A as Matrix))), { from: 'message', text: 'Aᵀ (the equation Aᵀ P + P A + Q = 0 is lyap with Aᵀ)' });
  }
  // "the process noise enters through B": G = B
  if (props.G && args.G === undefined && /noise\s+(?:enters|comes in|acts)\s+(?:through|via|at|on)\s+(?:the\s+)?(?:input|inputs|B)\b/i.test(text)) {
    const B = scope.matrix('B')?.value ?? (sysVal?.sys.kind === 'ss' ? sysVal.sys.B : undefined);
    if (B) set('G', B, { from: 'message', text: 'G = B (the noise enters through B)' });
  }
  // weights written as the identity, sized by the system
  for (const [name, txt] of scan.identity) {
    const key = Object.keys(props).find((p) => p === name || aliases[p]?.includes(name));
    if (!key || args[key] !== undefined) continue;
    const I = identityFor(key, args);
    if (I) set(key, I, { from: 'message', text: txt });
  }
  // lqg's weights written as lqr's Q, R (N) and kalman's Qn, Rn (N): placed as the blocks of QXU and QWV
  if (tool.name === 'lqg') {
    const w = lqgWeights(scope, scan.identity, args);
    if (w.problem) {
      record(conv, pending);
      return { kind: 'ask', question: `The LQG weights do not fit the plant: ${w.problem}. Which weights should I use?`, candidates: [] };
    }
    for (const x of w.set) set(x.key, x.value, x.origin);
    for (const k of w.used) if (unused.includes(k)) unused.splice(unused.indexOf(k), 1);
  }
  // a parameter named exactly as a matrix the user assigned in an earlier turn (G = [...] then "kalman gain"),
  // when the system also comes from the conversation
  if (sysVal && (sysVal.origin.from === 'turn' || sysVal.origin.from === 'system') && !defined.length) {
    for (const k of tool.parameters.required ?? []) {
      if (args[k] !== undefined || SYS_PARAMS.has(k)) continue;
      const v = conv.vars[k];
      const sysTurn = sysVal.origin.from === 'turn' || sysVal.origin.from === 'system' ? sysVal.origin.turn : 0;
      if (v && v.turn >= sysTurn) set(k, props[k]?.type === 'number' ? scalar(v.value) : v.value, { from: 'turn', turn: v.turn, text: v.text });
    }
  }
  // kalman(sys, Qn, Rn) with G = B: Qn must match the inputs, else which inputs are noise is unclear
  if (Array.isArray(args.G) && args.Qn !== undefined && gFromB) {
    const q = Array.isArray(args.Qn) ? (args.Qn as Matrix).length : 1;
    const g = (args.G as Matrix)[0]?.length ?? 1;
    if (q !== g) {
      record(conv, pending);
      return {
        kind: 'ask',
        question: `G was taken as B, which has ${g} inputs, but Qn is ${q}x${q}. Which inputs carry the process noise? Give G (n x ${q}) or a ${g}x${g} Qn.`,
        candidates: [],
      };
    }
  }
  // c2d in a follow-up: a time written alone is the new sample time ("and 0.5 ms with tustin", "what about 200 µs")
  if (tool.name === 'c2d' && args.Ts === undefined && scan.t?.value.length === 1 && scan.t.value[0] > 0)
    set('Ts', scan.t.value[0], { from: 'message', text: scan.t.text });
  if (tool.name === 'c2d' && args.Ts === undefined) {
    const at = text.match(/\bat\s+((?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*(ms|[uµμ]s|s|sec|seconds?)(?![\w/])/i);
    const v = at ? timeQuantity(Number(at[1]), at[2]) : undefined;
    if (v) {
      set('Ts', v, { from: 'message', text: at![0] });
      consumed.push(at![0]);
    }
  }
  if (tool.name === 'c2d' && (args.Ts === undefined || origins.Ts?.from === 'turn') && (followUp || fromConversation) && !scan.samples.length) {
    // a time, or a sampling rate ("now 1 kHz")
    const q = text.match(/(?<![\w.])((?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*(ms|[uµμ]s|ns|s|sec|seconds?|[kKmM]?Hz)(?![\w/])/i);
    const f = q ? hertz(Number(q[1]), q[2]) : undefined;
    const v = q ? (f ? 1 / f : timeQuantity(Number(q[1]), q[2])) : undefined;
    if (v) {
      set('Ts', v, { from: 'message', text: q![0] });
      consumed.push(q![0]);
    }
  }
  // R = 0 (cheap control) has no LQR/Kalman solution: R must be positive definite
  for (const k of ['R', 'Rn']) {
    const v = args[k];
    const zero = typeof v === 'number' ? v === 0 : Array.isArray(v) && (v as unknown[]).flat(2).every((x) => x === 0);
    if (props[k] && v !== undefined && zero) {
      record(conv, pending);
      return {
        kind: 'ask',
        question: `${k} = 0 makes the problem singular (${tool.name} needs ${k} positive definite: cheap control is a limit, not a solution). Which ${k} > 0 should I use?`,
        candidates: [],
      };
    }
  }
  // margins, stepinfo, root locus and Nyquist are for one loop: a MIMO model needs a channel
  const tfmArg = sysVal?.sys.kind === 'ss' ? sysVal.sys.tfm : undefined;
  if (['margins', 'stepinfo', 'rlocus', 'nyquist'].includes(tool.name) && (Array.isArray(args.A) || tfmArg)) {
    const m = tfmArg ? tfmArg.num[0].length : Array.isArray(args.B) ? ((args.B as Matrix)[0]?.length ?? 1) : 1;
    const p = tfmArg ? tfmArg.num.length : Array.isArray(args.C) ? (args.C as Matrix).length : 1;
    if (m > 1 || p > 1) {
      record(conv, pending);
      return {
        kind: 'ask',
        question: `${tool.name} is for a single loop, and this model has ${m} input${m > 1 ? 's' : ''} and ${p} output${p > 1 ? 's' : ''}. Which input and output? (${tfmArg ? 'Give that entry of the transfer matrix as a transfer function.' : 'Give B as that column and C as that row.'})`,
        candidates: [],
      };
    }
  }
  // "c2d 1/(s+2) 0.1": a terse message whose one other number is the sample time
  if (tool.name === 'c2d' && args.Ts === undefined && text.trim().split(/\s+/).length <= 6) {
    const left = leftoverValues(scan, fromCall?.call.text);
    if (left.length === 1 && left[0].value > 0 && left[0].value <= 1) set('Ts', left[0].value, { from: 'message', text: String(left[0].value) });
  }
  // "evaluate G(s) at 5": s = 5 or ω = 5 rad/s?
  if (tool.name === 'freqresp' && args.w === undefined && /\b(?:evaluate|evaluated|value)\b/i.test(text)) {
    const at = text.match(/\bat\s+([-+]?(?:\d+\.?\d*|\.\d+))(?!\s*(?:rad|hz|khz|\d))/i);
    const left = at ? [{ value: Number(at[1]), around: at[0] }] : leftoverValues(scan, fromCall?.call.text);
    if (left.length === 1) {
      record(conv, pending);
      return {
        kind: 'ask',
        question: `At ${left[0].value}: the frequency ω = ${left[0].value} rad/s (G(j${left[0].value}), the frequency response), or the point s = ${left[0].value} (MATLAB's evalfr)? I compute the first.`,
        candidates: [
          {
            label: `G(jω) at ω = ${left[0].value} rad/s`,
            prompt: `${message.replace(new RegExp(`\\bat\\s+${String(left[0].value).replace('.', '\\.')}\\b`), '')} at ${left[0].value} rad/s`,
          },
          { label: `G(s) at the point s = ${left[0].value} (evalfr)`, prompt: message, command: 'evalfr' },
        ],
      };
    }
  }
  // ---- defaults and what is still missing
  if (exprA) {
    set('A', exprA.value, { from: 'message', text: exprA.text });
    for (const id of exprA.text.match(/[A-Z]/g) ?? []) if (unused.includes(id)) unused.splice(unused.indexOf(id), 1);
    for (const k of ['B', 'C', 'D'] as const)
      if (args[k] !== undefined && (tool.name === 'eig' || tool.name === 'poles_zeros' || tool.name === 'analyse')) {
        delete args[k];
        delete origins[k];
      }
  }
  // "eigs of [0 1; -2 -3]": a matrix written without a name, for a tool of A alone
  if (!sysVal && !args.A && props.A && (tool.parameters.required ?? []).filter((k) => (SS as readonly string[]).includes(k)).length === 1) {
    const bare = text.match(/(?<![=(,]\s*)(\[[^\[\]]*(?:\[[^\[\]]*\][^\[\]]*)*\])/);
    if (bare) {
      try {
        const v = parseMatrixLiteral(bare[1]);
        if (v.length > 0 && v.every((r) => r.length === v.length)) set('A', v, { from: 'message', text: bare[1] });
      } catch {
        /* not a matrix */
      }
    }
  }
  // a Gramian needs B (controllability) or C (observability): asked, never an error after the call
  if (tool.name === 'gram' && Array.isArray(args.A)) {
    const need = args.type === 'o' ? 'C' : 'B';
    if (args[need] === undefined) {
      record(conv, pending);
      return askMissing(tool, args, [need], message, conv, problems);
    }
  }
  const required = tool.parameters.required ?? [];
  const fromTf = Array.isArray(args.num) && Array.isArray(args.den);
  if (tool.name === 'c2d' && args.method === undefined) set('method', 'zoh', { from: 'default', text: 'zoh, the default' });
  if (
    fromTf &&
    sysVal &&
    isDiscrete(sysVal.sys) &&
    props.Ts &&
    args.Ts === undefined &&
    /(?<![\w.])(?:\d+\.?\d*|\.\d+)\s*(?:ms|[uµμ]s|s|sec|seconds?|[kKmM]?Hz)\b/.test(text)
  ) {
    record(conv, pending);
    return {
      kind: 'ask',
      question: `The transfer function is in z, and the message has a time or a rate I could not read as its sample time. What is Ts? (e.g. Ts = 10 ms)`,
      candidates: [],
    };
  }
  if (fromTf && sysVal && isDiscrete(sysVal.sys) && props.Ts && args.Ts === undefined) {
    set('Ts', 1, { from: 'default', text: 'Ts unspecified: 1 s, frequencies in rad/sample (as MATLAB with Ts = -1)' });
  }
  const planned = new Set(['t', 'w']);
  // tools that take (A, B, C, D) or num/den (margins, dcgain, …) need C when given a state-space model
  if (props.num && Array.isArray(args.A) && (args.B === undefined || (args.C === undefined && !tool.words.optionalC)) && !tool.words.poleOnly) {
    record(conv, pending);
    return askMissing(
      tool,
      args,
      ['B', 'C'].filter((k) => args[k] === undefined),
      message,
      conv,
      problems,
    );
  }
  const missing = required.filter((k) => args[k] === undefined && !planned.has(k) && !(fromTf && (SS as readonly string[]).includes(k)));
  // one of several arguments (the schema's anyOf of required groups: lsim takes u or signal): the first when none is given
  const groups = (tool.parameters.anyOf ?? []).map((g) => g.required ?? []).filter((g) => g.length);
  if (groups.length && !groups.some((g) => g.every((k) => args[k] !== undefined))) missing.push(groups[0].find((k) => args[k] === undefined)!);
  // a zero-pole-gain system written as z, p, k (zpk2tf, zpk2ss) is the system (reader/mimo.ts)
  const fromZpk = props.k !== undefined && args.k !== undefined;
  if (fromZpk) zpkArgsFromLiterals(args);
  if (!sysVal && !fromTf && !fromZpk && (props.A ? args.A === undefined : !(SS as readonly string[]).some((k) => args[k] !== undefined))) {
    record(conv, pending);
    if (!hasNumbers && !scan.samples.length && !scan.poles) return { kind: 'none', reason: `${tool.name} is named, but no system is given`, problems };
    return {
      kind: 'ask',
      question: `Which system should ${tool.name} use? Give it in the message (e.g. \`${tool.words.example}\`), or define it first.`,
      candidates: [],
    };
  }
  if (missing.length) {
    const q = askMissing(tool, args, missing, message, conv, problems);
    // the partial call stays: a next message that gives the missing arguments completes it
    record(conv, pending, { kind: 'call', tool: tool.name, args, origins, unused: [], notes: [], via, ...(plan ? { plan } : {}) }, sysVal);
    return q;
  }
  // a follow-up that brings nothing readable but a number ("and with 20?"): what is it?
  const withoutNames = conv.systems.reduce((t, e) => (e.name ? t.split(e.name).join(' ') : t), text);
  if (followUp && !Object.values(origins).some((o) => o.from === 'message') && /\d/.test(withoutNames)) {
    record(conv, pending);
    return {
      kind: 'ask',
      question: `I could not tell what '${text.trim()}' changes in the last ${tool.name} call. Please name the argument (e.g. R=10, Ts=0.05, poles at -3 and -4) or give the new system.`,
      candidates: [],
    };
  }
  if (fromCall?.form.map) {
    const mapped = fromCall.form.map(args);
    for (const k of Object.keys(mapped)) args[k] = mapped[k];
  }
  // MATLAB and python-control read a scalar 0 for D as zeros(p, m)
  if (scalar(args.D) === 0 && Array.isArray(args.B) && Array.isArray(args.C)) {
    const m = (args.B as Matrix)[0]?.length ?? 1,
      p = (args.C as Matrix).length;
    if (m > 1 || p > 1) args.D = Array.from({ length: p }, () => Array(m).fill(0));
  }
  if (args.poles !== undefined && Array.isArray(args.A) && (args.poles as unknown[]).length !== (args.A as Matrix).length) {
    record(conv, pending);
    const n = (args.A as Matrix).length,
      k = (args.poles as unknown[]).length;
    return {
      kind: 'ask',
      question: `A has ${n} states, so place needs ${n} poles; ${k} ${k === 1 ? 'is' : 'are'} given (${renderValue(args.poles, 'poles')}). Which ${n} poles?`,
      candidates: [],
    };
  }
  const extra = Object.keys(args).filter((k) => !props[k] && !(k === 'num' || k === 'den'));
  for (const k of extra) delete args[k];
  if (sysVal && sysVal.sys.kind === 'ss')
    for (const k of SS)
      if (
        sysVal.sys[k] !== undefined &&
        !props[k] &&
        sysVal.origin.from === 'message' &&
        !unused.includes(k) &&
        scan.assigns.has(k) &&
        !(k === 'C' && specCheck?.C)
      )
        unused.push(k);

  // names used inside a call's expressions (eig(A-B*K)) are used
  if (fromCall)
    for (const a of fromCall.call.args)
      for (const id of a.text.match(/[A-Za-z_]\w*/g) ?? []) {
        const i = unused.indexOf(id);
        if (i >= 0) unused.splice(i, 1);
      }
  // numbers in the message that nothing read are said, never silently dropped
  const leftover = leftoverNumbers(scan, fromCall?.call.text, consumed);
  if (leftover.length) notes.push(`Not read from your message: ${leftover.map((l) => `'…${l}'`).join(', ')} (say what it is, e.g. R=5, if it should count)`);
  // a call the message makes that could not be read (reg(sys, K, L) with K unknown) is never replaced
  // by another tool (the last call again, a tool the words suggest): that would answer another question
  if (unreadTools.size && !fromCall && !opts.command && !unreadTools.has(tool.name)) {
    record(conv, pending);
    return { kind: 'none', reason: `${[...unreadTools].join(' or ')} could not be read, and nothing else was asked`, problems };
  }
  // K = lqr(A, B, Q, R), [L, P] = lqe(…): the outputs the call's form returns are saved by name
  let saves: Record<string, string> | undefined;
  const returns = fromCall?.form.returns;
  if (returns)
    fromCall!.call.outputs.forEach((out, i) => {
      if (/^[A-Za-z_]\w*$/.test(out) && returns[i] && returns[i] !== 'poles') (saves ??= {})[out] = returns[i];
    });
  // "in Hz" asked of the answer (no number before it: "crossover at 1 Hz" is an input): said after the result
  const inHz = /\b(?:in|as|into)\s+(?:Hz|hertz)\b|\((?:in\s+)?Hz\)/i.exec(text);
  if (inHz) notes.push(`The frequencies are also given in Hz (f = ω/2π), from '${inHz[0]}'.`);
  // a design asked for in words runs as its playbook (agent/playbooks.ts); a call or a slash command is the one tool
  if (!plan && via === 'words' && playbookFor(tool.name)) plan = 'playbook';
  const reading: CallReading = {
    kind: 'call',
    tool: tool.name,
    args,
    origins,
    ...(plan ? { plan } : {}),
    unused,
    notes: [...scan.notes, ...notes, ...problems],
    system: sysVal?.label,
    via,
    ...(fromCall?.call.outputs.length === 1 && (RESULT_NAMES[tool.name] || CONVERSIONS.has(tool.name)) ? { output: fromCall.call.outputs[0] } : {}),
    ...(saves ? { saves } : {}),
    ...(sysVal?.op ? { pre: [sysVal.op] } : {}),
    ...(specCheck ? { spec: specCheck } : {}),
    ...(inHz ? { freqUnit: 'Hz' as const } : {}),
  };
  record(conv, pending, reading, sysVal);
  return reading;
}

/** the n poles a specification leaves open, from what was written: n values, or one value for all of them */
function restPoles(n: number, others: { values: Cx[]; text: string } | undefined): { values?: Cx[]; note?: string } {
  if (!others) return {};
  if (others.values.length === n) return { values: others.values, note: `the other ${n === 1 ? 'pole' : 'poles'} as written (${others.text})` };
  if (others.values.length === 1 && others.values[0][1] === 0)
    return { values: Array(n).fill(others.values[0]), note: `the other ${n} poles all at ${others.values[0][0]} as written (${others.text})` };
  return {};
}

/**
 * mpc's arguments from the words of the request (reader/mpc.ts), and its two decisions: whether
 * the plant is continuous (a transfer function in s, MATLAB's mpc(plant, …) of a continuous
 * plant, or the word "continuous"/x'; bare A, B are the discrete model x[k+1] = A x + B u, said),
 * and the sample time: a continuous plant without Ts is asked (never guessed); a discrete one
 * steps in samples (Ts = 1, said). Without x0 or a reference, a plant with as many outputs as
 * inputs tracks a unit setpoint (said); otherwise it is asked.
 */
function readMpcArgs(
  text: string,
  message: string,
  args: Record<string, unknown>,
  set: (k: string, v: unknown, o: Origin) => void,
  consumed: string[],
  notes: string[],
  sysVal: { sys: System; label: string } | undefined,
  matlabCall: boolean,
): AskReading | undefined {
  const spec = readMpcSpec(text);
  for (const [k, v] of Object.entries(spec))
    if (v && k !== 'tfinal' && k !== 'continuous' && args[k] === undefined) {
      set(k, v.value, { from: 'message', text: v.text });
      consumed.push(...v.text.split(', '));
    }
  const sys = sysVal?.sys;
  // no feedthrough (MATLAB's mpc refuses it too): a plant with D ≠ 0 is asked about, never dropped
  if (sys?.kind === 'ss' && sys.D?.some((row) => row.some((v) => v !== 0)))
    return {
      kind: 'ask',
      question: `${sysVal!.label} has a direct feedthrough D ≠ 0; MPC (as MATLAB's mpc) needs a plant without one (y = Cx). Should it use the plant with D = 0, or will you give a strictly proper model?`,
      candidates: [{ label: 'Use D = 0', prompt: `${message.trim().replace(/[?.!]+$/, '')} (with D = 0)` }],
    };
  const tfInS = sys?.kind === 'tf' && sys.variable !== 'z' && !sys.Ts;
  const ssContinuous = matlabCall && sys?.kind === 'ss' && !sys.Ts && !sys.discrete;
  if (args.continuous === undefined && (spec.continuous || tfInS || ssContinuous)) {
    set('continuous', true, {
      from: 'message',
      text: spec.continuous?.text ?? (tfInS ? `${sysVal!.label}, a transfer function in s` : `${sysVal!.label}, a continuous model in MATLAB's mpc`),
    });
    if (spec.continuous) consumed.push(spec.continuous.text);
  } else if (args.continuous === undefined && Array.isArray(args.A))
    notes.push("A, B are read as the discrete model x[k+1] = A x[k] + B u[k]; say 'continuous' to discretise them (zoh) at Ts.");
  if (args.N === undefined)
    return {
      kind: 'ask',
      question: `Which prediction horizon N (in steps) should the MPC use? (e.g. "${message.trim().replace(/[?.!]+$/, '')}, horizon 10")`,
      candidates: [10, 20].map((N) => ({ label: `N = ${N}`, prompt: `${message.trim().replace(/[?.!]+$/, '')}, horizon ${N}` })),
    };
  if (args.Ts === undefined) {
    if (args.continuous === true)
      return {
        kind: 'ask',
        question: `The plant is continuous, so the MPC needs the sample time Ts it runs at (the plant is discretised with a zero-order hold at Ts). What is Ts? (e.g. "${message.trim().replace(/[?.!]+$/, '')}, Ts = 0.1 s")`,
        candidates: [],
      };
    set('Ts', 1, { from: 'default', text: 'Ts unspecified: 1 s, time in samples of the discrete model' });
  }
  if (spec.tfinal && args.steps === undefined && typeof args.Ts === 'number') {
    const steps = Math.max(1, Math.round(spec.tfinal.value / args.Ts));
    set('steps', steps, { from: 'message', text: `${spec.tfinal.text} = ${steps} steps of Ts` });
    consumed.push(spec.tfinal.text);
  }
  // a list of bounds written for some components: one entry per component (null: none)
  const n = Array.isArray(args.A) ? (args.A as Matrix).length : Array.isArray(args.den) ? (args.den as number[]).length - 1 : undefined;
  const m = Array.isArray(args.B) ? ((args.B as Matrix)[0]?.length ?? 1) : 1;
  const p = Array.isArray(args.C) ? (args.C as Matrix).length : Array.isArray(args.num) ? 1 : n;
  const sizes: Record<string, number | undefined> = { u: m, du: m, x: n, y: p };
  for (const [k, len] of Object.entries(sizes))
    for (const side of ['min', 'max']) {
      const v = args[`${k}${side}`];
      if (Array.isArray(v) && len !== undefined && v.length < len) args[`${k}${side}`] = [...v, ...new Array(len - v.length).fill(null)];
    }
  if (args.x0 === undefined && args.r === undefined) {
    const hasOutputs = Array.isArray(args.C) || Array.isArray(args.num);
    if (hasOutputs && p === m)
      set('r', new Array(p).fill(1), { from: 'default', text: 'no x0 or reference given: a unit setpoint on each output, from x0 = 0' });
    else
      return {
        kind: 'ask',
        question: `From which initial state should the MPC start, or which reference should it track? Give x0 (e.g. x0 = [1; 0]) or a setpoint r.`,
        candidates: [],
      };
  }
  return undefined;
}

/** numbers no reader consumed, with a few words around each */
function leftoverNumbers(scan: Scan, callText?: string, extra: string[] = []): string[] {
  return leftoverValues(scan, callText, extra).map((v) => v.around);
}

/** the numbers no reader consumed, each with the words just before it */
function leftoverValues(scan: Scan, callText?: string, extra: string[] = []): { value: number; around: string }[] {
  let t = scan.text;
  // everything a reader consumed, longest first (an assignment's value may contain a call)
  const spans = [
    ...scan.systems.map((d) => d.text),
    callText,
    ...scan.calls.map((c) => c.text),
    ...[...scan.assigns.values()].map((a) => a.text.replace(/^(\S+) = /, '')),
    ...scan.samples.map((x) => x.text),
    scan.poles?.text,
    scan.method?.text,
    scan.method?.prewarpText,
    scan.t?.text,
    scan.w?.text,
    ...Object.values(scan.specs).map((v) => v?.text),
    ...extra,
  ].filter((x): x is string => !!x);
  for (const s of spans.sort((a, b) => b.length - a.length)) t = t.split(s).join(' ');
  // names with digits, powers, ordinals, percentages, turns and sizes are not values to apply
  t = t
    .replace(/[A-Za-z_]\w*\d\w*/g, ' ')
    .replace(/\^\s*-?\d+/g, ' ')
    .replace(/\b\d+(?:st|nd|rd|th)\b/gi, ' ')
    .replace(/\bturn\s+\d+/gi, ' ')
    .replace(/\b\d+\s*[-‐]?\s*(?:states?|inputs?|outputs?|order|dof|x\s*\d+|by\s*\d+|times?)\b/gi, ' ')
    .replace(/\d+\s*x\s*\d+/gi, ' ')
    .replace(/\(\s*\d+\s*\)/g, ' ')
    .replace(
      /\b(?:version|v|python|matlab|octave|scipy|step|figure|subplot|part|question|problem|exercise|example|chapter|section|eq\.?|equation)\s*\d[\d.]*/gi,
      ' ',
    )
    .replace(/\d+\s*%\s*(?:band|criterion|criteria)/gi, ' ');
  const out: { value: number; around: string }[] = [];
  const re = /(?<![\w.])[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?(?![\w.])/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(t))) {
    const from = t.lastIndexOf(' ', Math.max(0, m.index - 16));
    const around = t
      .slice(from < 0 ? 0 : from, m.index + m[0].length)
      .replace(/\s+/g, ' ')
      .trim();
    out.push({ value: Number(m[0]), around });
  }
  return out.slice(0, 3);
}

/** a system of the conversation as the one this call uses: named systems cite their name, others their turn */
function inUse(e: SystemEntry, index: number): { sys: System; origin: Origin; label: string; index: number } {
  return {
    sys: e.sys,
    origin: e.name ? { from: 'system', name: e.name, turn: e.turn } : { from: 'turn', turn: e.turn, text: systemLabel(e) },
    label: systemLabel(e),
    index,
  };
}

/** the identity a weight written as I stands for, sized by the argument it fills (Q, G: n; R, Qn: inputs; Rn: outputs) */
function identityFor(key: string, args: Record<string, unknown>): Matrix | undefined {
  const n = Array.isArray(args.A) ? (args.A as Matrix).length : undefined;
  const m = Array.isArray(args.B) ? (args.B as Matrix)[0]?.length : Array.isArray(args.G) ? (args.G as Matrix)[0]?.length : undefined;
  const p = Array.isArray(args.C) ? (args.C as Matrix).length : undefined;
  const size = key === 'Q' || key === 'G' ? n : key === 'R' || key === 'Qn' ? m : key === 'Rn' ? p : undefined;
  return size ? toRows(eye(size)) : undefined;
}

function askMissing(tool: ToolDef, args: Record<string, unknown>, missing: string[], message: string, conv: Conversation, problems: string[]): AskReading {
  const n = Array.isArray(args.A) ? (args.A as Matrix).length : undefined;
  const m = Array.isArray(args.B) && Array.isArray((args.B as Matrix)[0]) ? (args.B as Matrix)[0].length : undefined;
  const p = Array.isArray(args.C) ? (args.C as Matrix).length : undefined;
  // a tool without B (lqe, kalman) on the conversation's system: its B is the noise input G offered
  const cur = conv.current !== undefined ? conv.systems[conv.current]?.sys : undefined;
  const curB = cur?.kind === 'ss' && JSON.stringify(cur.A) === JSON.stringify(args.A) ? (cur as { B?: Matrix }).B : undefined;
  const B = Array.isArray(args.B) ? (args.B as Matrix) : curB;
  const suggest: Record<string, string | undefined> = {
    Q: n ? (n === 1 ? 'Q=1' : `Q=eye(${n})`) : undefined,
    R: m ? (m === 1 ? 'R=1' : `R=eye(${m})`) : undefined,
    C: n ? `C=eye(${n})` : undefined,
    Qn: 'Qn=1',
    Rn: p ? (p === 1 ? 'Rn=1' : `Rn=eye(${p})`) : undefined,
    G: B ? `G=B` : undefined,
    // lqg: the weights as lqr's and kalman's (reader/lqg.ts places them as the blocks of QXU and QWV)
    QXU: n && m ? `Q=eye(${n}), R=${m === 1 ? '1' : `eye(${m})`}` : undefined,
    QWV: n && p ? `Qn=eye(${n}), Rn=${p === 1 ? '1' : `eye(${p})`}` : undefined,
  };
  const defaults = missing.map((k) =>
    k === 'G' && B
      ? `G=${JSON.stringify(B)
          .replace(/\],\[/g, ';')
          .replace(/[\[\]]/g, '')
          .replace(/^/, '[')
          .replace(/$/, ']')}`
      : suggest[k],
  );
  const candidates: Candidate[] = [];
  if (defaults.every(Boolean))
    candidates.push({ label: `Use ${defaults.join(', ')}`, prompt: `${message.trim().replace(/[?.!]+$/, '')}, ${defaults.join(', ')}` });
  const last = conv.lastCall;
  if (last && missing.every((k) => last.args[k] !== undefined) && last.tool === tool.name) {
    candidates.push({
      label: `Use ${missing.join(', ')} from turn ${last.turn}`,
      prompt: `${message.trim().replace(/[?.!]+$/, '')}, same ${missing.join(' and ')} as before`,
    });
  }
  return {
    kind: 'ask',
    question: `${tool.name} needs ${missing.join(' and ')}${Object.keys(args).length ? ` (I have ${Object.keys(args).join(', ')})` : ''}. ${candidates.length ? 'Should I use the value below, or will you give it?' : `For example: \`${tool.words.example}\``}${problems.length ? ` (${problems.join('; ')})` : ''}`,
    candidates,
  };
}

function describeOrigin(o: Origin | undefined): string | undefined {
  if (!o) return undefined;
  return o.from === 'message' || o.from === 'selection' || o.from === 'default' ? o.text : o.from === 'system' ? o.name : o.text;
}

interface PendingRecord {
  turn: number;
  defined: { name?: string; sys: System; text: string; origin: Origin }[];
  scan: Scan;
  selection?: Scan;
  selectionLabel?: string;
}

/** records the turn: its definitions, the system in use, the call */
function record(conv: Conversation, p: PendingRecord, call?: CallReading, sys?: { sys: System; index?: number; label: string; origin: Origin }): void {
  if (sys && call && sys.sys.kind === 'ss' && sys.index !== undefined) {
    // the call changed matrices of the system in use ("with B=[0;1], is it controllable?"): a new system
    const e = conv.systems[sys.index];
    const changed = (['A', 'B', 'C', 'D'] as const).some(
      (k) => Array.isArray(call.args[k]) && JSON.stringify(call.args[k]) !== JSON.stringify((e?.sys as Record<string, unknown>)?.[k]),
    );
    if (changed) {
      const s: System = { kind: 'ss', A: (call.args.A ?? (e.sys as { A: Matrix }).A) as Matrix };
      for (const k of ['B', 'C', 'D'] as const) {
        const v = call.args[k] ?? (e.sys as Record<string, unknown>)[k];
        if (v !== undefined) s[k] = v as Matrix;
      }
      sys = { sys: s, label: sys.label, origin: sys.origin };
    }
  }
  conv.turn = p.turn;
  const recent: number[] = [];
  for (const [name, a] of p.scan.assigns) if (a.value && !['num', 'den'].includes(name)) conv.vars[name] = { value: a.value, turn: p.turn, text: a.text };
  const idx: number[] = [];
  for (const d of p.defined) {
    idx.push(conv.addSystem({ name: d.name, sys: d.sys, turn: p.turn, role: 'given', text: d.text }));
  }
  let used: number | undefined = sys?.index;
  // a call on matrices by name (place(A, B, p)) or a system extended by this message: that system is now in use
  if (call && !sys && Array.isArray(call.args.A)) {
    const s: System = { kind: 'ss', A: call.args.A as Matrix };
    for (const k of ['B', 'C', 'D'] as const) if (Array.isArray(call.args[k])) s[k] = call.args[k] as Matrix;
    sys = { sys: s, label: '(A, B) of this turn', origin: { from: 'message', text: '' } };
  }
  if (sys && used === undefined) {
    const k = p.defined.findIndex((d) => d.sys === sys.sys);
    used = k >= 0 ? idx[k] : conv.addSystem({ sys: sys.sys, turn: p.turn, role: 'given', text: sys.label });
  }
  if (call) {
    conv.current = used;
    conv.lastCall = { tool: call.tool, args: call.args, origins: call.origins, system: used, turn: p.turn, ...(call.plan ? { plan: call.plan } : {}) };
    conv.calls[call.tool] = conv.lastCall;
    const e = used !== undefined ? conv.systems[used] : undefined;
    if (e && e.sys.kind === 'ss' && getTool(call.tool)?.words.continuous && !e.sys.Ts) e.sys.discrete = true;
    if (used !== undefined) recent.push(used);
  } else if (idx.length) {
    conv.current = idx.length === 1 ? idx[0] : conv.current;
    // G1 in one message, G2 in the next, then "its step response": both are in scope
    if (conv.lastKind === 'define') recent.push(...conv.recent);
    recent.push(...idx);
    if (idx.length)
      conv.lastCall =
        conv.lastCall && conv.lastCall.system !== undefined && !idx.includes(conv.lastCall.system)
          ? { ...conv.lastCall, system: idx.length === 1 ? idx[0] : undefined }
          : conv.lastCall;
  } else if (conv.current !== undefined) recent.push(conv.current);
  conv.recent = [...new Set(recent)];
  conv.lastKind = call ? 'call' : idx.length ? 'define' : 'ask';
}

/** the name a result system gets when the request names none: c2d's sysd (Gd of G), feedback's T */
const RESULT_NAMES: Record<string, (base?: string) => string> = {
  c2d: (b) => (b ? `${b}d` : 'sysd'),
  d2c: (b) => (b ? `${b}c` : 'sysc'),
  d2d: (b) => (b ? `${b}r` : 'sysr'),
  feedback: () => 'T',
  series: () => 'Gser',
  parallel: () => 'Gpar',
  append: () => 'Gapp',
  connect: () => 'T',
  lft: () => 'T',
  minreal: (b) => (b ? `${b}min` : 'sysmin'),
  balreal: (b) => (b ? `${b}bal` : 'sysbal'),
  balred: (b) => (b ? `${b}red` : 'sysred'),
  modred: (b) => (b ? `${b}red` : 'sysred'),
  pade: (b) => (b ? `${b}p` : 'sysp'),
  thiran: () => 'Hd',
  // the observer-based compensators (MATLAB rsys = reg(sys, K, L), reg = lqg(sys, QXU, QWV)) and
  // the estimator (est = estim(sys, L)); reg's and lqg's are connected with positive feedback
  reg: () => 'rsys',
  lqg: () => 'rlqg',
  estim: () => 'est',
  linearize: () => 'linsys',
};

/** tools whose saved result is a compensator MATLAB connects with positive feedback: feedback(sys, C, +1) */
const POSITIVE_FEEDBACK = new Set(['reg', 'lqg']);

/** a result that is a system (c2d's Ad…Dd; A, B, C, D of feedback, minreal, balred…), as a conversation system */
function resultSystem(result: Record<string, unknown>): System | undefined {
  const d = Array.isArray(result.Ad);
  const [A, B, C, D] = (d ? ['Ad', 'Bd', 'Cd', 'Dd'] : ['A', 'B', 'C', 'D']).map((k) => result[k]);
  const Ts = typeof result.Ts === 'number' && result.Ts > 0 ? result.Ts : undefined;
  // a SISO result keeps its transfer function (what the user reads and later requests expect)
  if (Array.isArray(result.num) && Array.isArray(result.den) && typeof result.num[0] === 'number')
    return { kind: 'tf', num: polyStrip(result.num as number[]), den: polyStrip(result.den as number[]), ...(Ts ? { Ts, variable: 'z' as const } : {}) };
  if (!Array.isArray(A) || !Array.isArray(B) || !Array.isArray(C)) return undefined;
  return { kind: 'ss', A: A as Matrix, B: B as Matrix, C: C as Matrix, ...(Array.isArray(D) ? { D: D as Matrix } : {}), ...(Ts ? { Ts } : {}) };
}

/**
 * After a call ran: the matrices a pasted call assigned (`K = lqr(A, B, Q, R)`) become named
 * values later requests use (`reg(sys, K, L)`, `eig(A - B*K)`). Returns the names saved.
 */
export function recordOutputs(conv: Conversation, reading: CallReading, result: Record<string, unknown> | undefined): string[] {
  const saved: string[] = [];
  if (!result || !reading.saves) return saved;
  for (const [name, field] of Object.entries(reading.saves)) {
    const v = result[field];
    if (!isNumberMatrix(v)) continue;
    conv.vars[name] = { value: v, turn: conv.turn, text: `${name} = ${field === name ? '' : `${field} of `}${reading.tool}(…)` };
    saved.push(name);
  }
  return saved;
}

/**
 * After a call ran: a result that is a system (c2d's discrete model, a closed loop, a reduced
 * model) becomes a named system later turns can use, and the system in scope. Returns its
 * name (said in the answer), or undefined when the result is no system.
 */
export function recordResult(conv: Conversation, reading: CallReading, result: Record<string, unknown> | undefined, outputName?: string): string | undefined {
  const naming = RESULT_NAMES[reading.tool];
  // P = ss2tf(sys), Z = zpk(G) of a MIMO model: the converted system under the name given (reader/mimo.ts)
  const converted = result && !naming && reading.output && CONVERSIONS.has(reading.tool) ? conversionSystem(reading.tool, result) : undefined;
  if (converted) {
    const i = conv.addSystem({
      name: reading.output,
      sys: converted,
      turn: conv.turn,
      role: 'result',
      text: `${reading.output} = ${reading.system ? `${reading.tool}(${reading.system})` : `${reading.tool}(…)`}`,
    });
    conv.current = i;
    conv.recent = [i];
    return reading.output;
  }
  if (!result || !naming) return undefined;
  const sys = resultSystem(result);
  if (!sys) return undefined;
  const base = conv.current !== undefined ? conv.systems[conv.current] : undefined;
  // the same name again is a new entry (the newest is the one a name means; the old stays for "the first loop")
  const name = outputName ?? reading.output ?? naming(base?.name);
  const how =
    reading.tool === 'c2d'
      ? `c2d(…, ${num2(result.Ts as number)}, '${result.method}')`
      : reading.tool === 'linearize'
        ? `linearize(…, x = [${(result.x as number[]).map(num2).join('; ')}])`
        : (reading.system ?? `${reading.tool}(…)`);
  let feedback: SystemEntry['feedback'];
  if (POSITIVE_FEEDBACK.has(reading.tool)) {
    // the plant it was designed for: the system in use; an unnamed one is called sys so a closed loop can name it
    const plant = conv.current;
    if (plant !== undefined && !conv.systems[plant].name && conv.named('sys') === undefined) conv.systems[plant].name = 'sys';
    feedback = { sign: 1, ...(plant !== undefined ? { plant } : {}) };
  }
  const i = conv.addSystem({
    name,
    sys,
    turn: conv.turn,
    role: 'result',
    text: `${name} = ${how}${feedback ? ', a compensator for positive feedback (sign +1)' : ''}`,
    ...(feedback ? { feedback } : {}),
  });
  // c2d: both the continuous and the discrete model stay in scope; a closed loop or a reduced model is the system now in use
  if (reading.tool === 'c2d') conv.recent = [...new Set([...(conv.current !== undefined ? [conv.current] : []), i])];
  else {
    conv.current = i;
    conv.recent = [i];
  }
  return name;
}
