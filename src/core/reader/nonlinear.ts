/**
 * Nonlinear state equations in a request ("linearize x1' = x2; x2' = -g/l*sin(x1) - b*x2 + u
 * with g = 9.81, l = 1, b = 0.1 about x = [pi; 0]", "equilibria of …", "simulate … from
 * x0 = [0.5; 0] for 10 s"): the equations as written go to find_eqpt, linearize or nlsim
 * (solvers/nonlinear.ts) with their parameters, point, initial state, input and time span, each
 * with its origin. Linear equations in matrix form (x' = [..]x + [..]u) stay the scanner's
 * (A, B); these are equations per state. What a call needs and the message lacks (the point of a
 * linearisation, the initial state of a simulation, a parameter's value) is asked, never guessed.
 * A message naming a nonlinear tool without equations takes them from the last nonlinear call.
 */
import { readModel, derivativeName, splitEquations } from '../solvers/_nlmodel.js';
import { compileFormula } from '../parse/formula.js';
import type { Conversation, Origin } from './conversation.js';
import type { CallReading, Reading, ReadOptions } from './read.js';
import type { Scan } from './scan.js';

export interface NonlinearInput {
  message: string;
  text: string;
  scan: Scan;
  conv: Conversation;
  opts: ReadOptions;
  record: (call?: CallReading) => void;
}

export const NONLINEAR_TOOLS = ['find_eqpt', 'linearize', 'nlsim', 'lyapunov_check', 'cbf_filter'] as const;
type NlTool = (typeof NONLINEAR_TOOLS)[number];

/** the left-hand side of one state equation written per state: x1' =, dx1/dt =, x1dot =, ẋ1 = */
const LHS = String.raw`(?:(?<![\w.'])[A-Za-z_]\w*\s*'(?:\s*\(\s*t\s*\))?|(?<![\w.])d\s*\(?\s*[A-Za-z_]\w*\s*\)?\s*\/\s*dt|(?<![\w.])[A-Za-z_]\w*?_?dot\b|ẋ_?\w*)`;
/** where an equation's right-hand side ends: a clause after it */
const STOP = String.raw`(?=\s*[;\n]|\s*$|[?]|\.\s|\.$|,?\s+(?:with|about|around|at|from|for|where|when|starting|using|over|given|if|near|close\s+to|within|until|and\s+(?:u0?|x0?|y0?|simulate|linearize|find)\b|then)\b|,\s*(?:(?:and\s+)?${LHS}\s*=|(?:and\s+)?y\d*\s*=|with\b|where\b|[A-Za-z_]\w*\s*=\s*[-+\d.(]))`;

/**
 * A right-hand side without the prose after it: the expression ends before a word of three or more
 * letters that follows an operand with only a space between (no operator) and calls nothing:
 * "x1 held at y0 …" ends at x1; "-g/l * sin(x1)" and "- alpha*x2" are whole.
 */
function trimProse(rhs: string): string {
  const m = /(?<=[\w)\]])\s+[A-Za-z]{3,}\b(?!\s*\()/.exec(rhs);
  return m ? rhs.slice(0, m.index).trim() : rhs;
}

/** the equations written in a message (state equations per state, then y = … outputs), or undefined */
export function findEquations(text: string): { equations: string[]; outputs: string[]; spans: string[] } | undefined {
  const eqRe = new RegExp(String.raw`(${LHS})\s*=(?!=)\s*([^;\n]+?)${STOP}`, 'g');
  const equations: string[] = [];
  const spans: string[] = [];
  for (const m of text.matchAll(eqRe)) {
    const name = derivativeName(m[1]);
    // matrix-form state equations (x' = [0 1; -2 -3]x + [0; 1]u, x' = Ax + Bu) are the scanner's
    if (/^\s*\[/.test(m[2]) || /(?<![\w.])[A-Z]\w*\s*\*?\s*x\b/.test(m[2])) return undefined;
    const rhs = trimProse(m[2].trim());
    if (!name || !rhs) continue;
    equations.push(`${m[1].trim()} = ${rhs}`);
    spans.push(m[0]);
  }
  if (!equations.length) return undefined;
  // outputs written with them: y = x1, y1 = …, y2 = …
  const outputs: string[] = [];
  const outRe = new RegExp(String.raw`(?<![\w.])(y\d*)\s*=(?!=)\s*([^;\n]+?)${STOP}`, 'g');
  for (const m of text.matchAll(outRe)) {
    const rhs = trimProse(m[2].trim());
    if (/\[/.test(rhs) || /^[-+\d.\s]+$/.test(rhs)) continue;
    outputs.push(`${m[1]} = ${rhs}`);
    spans.push(m[0]);
  }
  return { equations, outputs, spans };
}

const origin = (text: string): Origin => ({ from: 'message', text });

/** where an expression written after "barrier h =" or "nominal u =" ends */
const EXPR_END = String.raw`(?=\s*$|\s*[,;\n]|\.\s|\.$|\s+(?:and|with|from|for|where|over|until|starting|alpha|gamma)\b)`;

/**
 * cbf_filter's own arguments: the barrier ("barrier h = 1 - x1", "h(x) = …", "safe set x1^2 + x2^2 - 1 >= 0"),
 * the nominal controller ("nominal u = -x1 - x2", "u_nom = [2 - x1; -x2]", "nominal controller u = …"),
 * α ("alpha = 2", "gamma = 2"), x0 (asked when missing) and tfinal (default 10 s, said). Parameters used
 * only in the barrier or the nominal law take their values from the message.
 */
function readCbf(
  message: string,
  model: ReturnType<typeof readModel>,
  scan: Scan,
  params: Record<string, number>,
  ask: (q: string, extra: string[]) => Reading,
  zeros: string,
): { kind: 'args'; args: Record<string, unknown>; origins: Record<string, Origin>; notes: string[] } | { kind: 'reading'; reading: Reading } {
  const args: Record<string, unknown> = {};
  const origins: Record<string, Origin> = {};
  const notes: string[] = [];
  // the first "barrier h = …" / "h(x) = …" whose expression is no equation ("barrier function: x1' = …" is not one)
  const b =
    [
      ...message.matchAll(new RegExp(String.raw`\b(?:barrier(?:\s+function)?(?:\s+h)?|(?<![\w.])h\s*(?:\(\s*x\s*\))?)\s*(?:=|:)\s*(.+?)${EXPR_END}`, 'gi')),
    ].find((mm) => !/[=']/.test(mm[1])) ?? new RegExp(String.raw`\bsafe\s+set\s+(?:is\s+)?\{?\s*(?:x\s*:\s*)?(.+?)\s*(?:>=|≥)\s*0\s*\}?`, 'i').exec(message);
  if (!b) return { kind: 'reading', reading: ask(`Which barrier h(x)? The safe set is h ≥ 0, e.g. barrier h = 1 - ${model.states[0]}.`, []) };
  args.barrier = b[1].trim();
  origins.barrier = origin(b[0].trim());
  const nm = new RegExp(
    String.raw`\b(?:u_?nom|u_?des|k_?nom|nominal(?:\s+(?:controller|control\s+law|control|input|law|feedback))?(?:\s+u\d*)?)\s*(?:\(\s*x\s*(?:,\s*t\s*)?\))?\s*(?:=|:|is)\s*(\[[^\]]*\]|.+?)${EXPR_END}`,
    'i',
  ).exec(message);
  if (!nm) return { kind: 'reading', reading: ask(`Which nominal controller u_nom(x, t)? e.g. nominal u = -${model.states.join(' - ')}.`, []) };
  const raw = nm[1].trim();
  const list = /^\[/.test(raw)
    ? raw
        .slice(1, -1)
        .split(/[;,]/)
        .map((e) => e.trim())
        .filter(Boolean)
    : [raw];
  args.u_nom = list.length === 1 ? list[0] : list;
  origins.u_nom = origin(nm[0].trim());
  // names the barrier or the nominal law uses that are neither states nor parameters yet
  for (const id of `${args.barrier} ${list.join(' ')}`.match(/(?<![\w.])[A-Za-z_]\w*\b(?!\s*\()/g) ?? []) {
    if (model.states.includes(id) || /^(?:pi|e|t)$/.test(id) || id in params) continue;
    const a = scan.assigns.get(id);
    if (a?.value && a.value.length === 1 && a.value[0].length === 1) params[id] = a.value[0][0];
    else return { kind: 'reading', reading: ask(`The barrier or the nominal controller uses ${id}, which has no value. What is it? e.g. "${id} = 1".`, []) };
  }
  const al = scan.assigns.get('alpha') ?? scan.assigns.get('gamma');
  const alw = message.match(/\bclass[- ]?k\s+(?:gain|function)\s*(?:α|alpha)?\s*(?:=|of)?\s*(\d+(?:\.\d+)?)/i);
  if (al?.value && al.value.length === 1 && al.value[0].length === 1) {
    args.alpha = al.value[0][0];
    origins.alpha = origin(al.text);
  } else if (alw) {
    args.alpha = Number(alw[1]);
    origins.alpha = origin(alw[0]);
  } else notes.push('α = 1 (default; α(h) = α·h).');
  const x0 = scan.assigns.get('x0') ?? scan.assigns.get('X0');
  if (!x0?.value)
    return { kind: 'reading', reading: ask(`From which initial state (inside the safe set, h(x0) ≥ 0)? e.g. x0 = ${zeros}.`, [`from x0 = ${zeros}`]) };
  args.x0 = x0.value.flat();
  origins.x0 = origin(x0.text);
  const tf = scan.assigns.get('tfinal') ?? scan.assigns.get('Tf') ?? scan.assigns.get('tf') ?? scan.assigns.get('T');
  if (tf?.value && tf.value.length === 1 && tf.value[0].length === 1 && tf.value[0][0] > 0) {
    args.tfinal = tf.value[0][0];
    origins.tfinal = origin(tf.text);
  } else if (scan.t && scan.t.value.length > 1) {
    args.tfinal = scan.t.value[scan.t.value.length - 1];
    origins.tfinal = origin(scan.t.text);
  } else notes.push('t = 0 to 10 s (default).');
  return { kind: 'args', args, origins, notes };
}
const flatVals = (v: number[][]) => v.flat();

function whichTool(text: string, command: string | undefined): NlTool | undefined {
  const c = command?.toLowerCase();
  if (c === 'find_eqpt' || c === 'equilibrium' || c === 'find_operating_point') return 'find_eqpt';
  if (c === 'linearize' || c === 'linearise') return 'linearize';
  if (c === 'nlsim' || c === 'simulate') return 'nlsim';
  if (c === 'lyapunov_check') return 'lyapunov_check';
  if (c === 'cbf_filter' || c === 'cbf') return 'cbf_filter';
  if (c) return undefined;
  if (/\b(?:cbf|cbf-qp|control barrier|barrier functions?|safety filter|safety-critical)\b/i.test(text)) return 'cbf_filter';
  if (/\b(?:lyapunov|regions? of attraction|domains? of attraction|basins? of attraction)\b/i.test(text)) return 'lyapunov_check';
  if (/\blineari[sz]/i.test(text) || /\bjacobian\b/i.test(text)) return 'linearize';
  if (/\b(?:equilibri|operating points?\b|fixed points?\b|trim point|find_eqpt|find_operating_point|fsolve)/i.test(text)) return 'find_eqpt';
  if (/\b(?:simulat|trajector|integrate|nlsim|ode45|solve_ivp|input_output_response|response|plot|phase portrait)/i.test(text)) return 'nlsim';
  return undefined;
}

/** a reading of a message that writes nonlinear state equations (or names a nonlinear tool after one), else undefined */
export function readNonlinear(inp: NonlinearInput): Reading | undefined {
  const { text, scan, conv, opts } = inp;
  const found = findEquations(text);
  const tool = whichTool(text, opts.command);
  const args: Record<string, unknown> = {};
  const origins: Record<string, Origin> = {};
  const notes: string[] = [];
  if (found) {
    args.equations = found.equations.join('; ');
    origins.equations = origin(found.equations.join('; '));
    if (found.outputs.length) {
      args.outputs = found.outputs.join('; ');
      origins.outputs = origin(found.outputs.join('; '));
    }
  } else {
    // no equations: a nonlinear tool named explicitly after a nonlinear call takes that model
    if (!tool || (!opts.command && !/\b(?:lineari[sz]|equilibri|nonlinear|find_eqpt|nlsim|regions? of attraction)/i.test(text))) return undefined;
    const prev = NONLINEAR_TOOLS.map((t) => conv.calls[t])
      .filter(Boolean)
      .sort((a, b) => b.turn - a.turn)[0];
    if (!prev) {
      if (!opts.command) return undefined;
      inp.record();
      return {
        kind: 'ask',
        question: `Which model? Write its state equations, e.g. "x1' = x2; x2' = -9.81*sin(x1) - 0.1*x2 + u", with the values of its parameters.`,
        candidates: [],
      };
    }
    for (const k of ['equations', 'outputs', 'params', 'inputs'])
      if (prev.args[k] !== undefined) {
        args[k] = prev.args[k];
        origins[k] = { from: 'turn', turn: prev.turn, text: k === 'equations' ? String(prev.args[k]) : undefined };
      }
  }
  // parameters: the free names of the equations, their values from the message (name = number) or an earlier call
  const given = (args.params as Record<string, number> | undefined) ?? {};
  const params: Record<string, number> = { ...given };
  const missing: string[] = [];
  let model;
  for (let pass = 0; pass < 2; pass++) {
    try {
      model = readModel({ equations: args.equations as string, outputs: args.outputs as string | undefined, params });
      break;
    } catch (e) {
      const msg = (e as Error).message;
      const m = msg.match(/uses "([A-Za-z_]\w*)", which is not a state/);
      if (!m) {
        inp.record();
        return { kind: 'none', reason: `the equations cannot be read: ${msg}`, problems: [msg] };
      }
      // every free name at once
      const names = new Set<string>();
      for (const eq of splitEquations([args.equations as string, ...(args.outputs ? [args.outputs as string] : [])])) {
        const rhs = eq.slice(eq.indexOf('=') + 1);
        for (const id of rhs.match(/(?<![\w.])[A-Za-z_]\w*\b(?!\s*\()/g) ?? []) names.add(id);
      }
      const states = splitEquations(args.equations as string)
        .map((eq) => derivativeName(eq.slice(0, eq.indexOf('='))))
        .filter(Boolean) as string[];
      for (const id of names) {
        if (states.includes(id) || /^(?:u\d*|pi|e|t)$/.test(id) || id in params) continue;
        const a = scan.assigns.get(id);
        if (a?.value && a.value.length === 1 && a.value[0].length === 1) {
          params[id] = a.value[0][0];
          origins[`params.${id}`] = origin(a.text);
        } else if (conv.vars[id] && conv.vars[id].value.length === 1 && conv.vars[id].value[0].length === 1) {
          params[id] = conv.vars[id].value[0][0];
          origins[`params.${id}`] = { from: 'turn', turn: conv.vars[id].turn, text: conv.vars[id].text };
        } else missing.push(id);
      }
      if (missing.length) break;
    }
  }
  if (missing.length) {
    inp.record();
    return {
      kind: 'ask',
      question: `The equations use ${missing.join(', ')}, which ${missing.length > 1 ? 'have' : 'has'} no value. What ${missing.length > 1 ? 'are they' : 'is it'}? e.g. "${missing.map((n) => `${n} = 1`).join(', ')}".`,
      candidates: [],
    };
  }
  if (!model) return undefined;
  if (Object.keys(params).length) {
    args.params = params;
    // shown in the call as {g: 9.81, l: 1}; where the values came from is said in the notes
    if (!origins.params)
      origins.params = origin(
        `{${Object.entries(params)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ')}}`,
      );
    for (const k of Object.keys(origins)) if (k.startsWith('params.')) delete origins[k];
  }
  const n = model.states.length;
  const m = model.inputs.length;
  const vecOf = (...names: string[]): { v: number[]; text: string } | undefined => {
    for (const nm of names) {
      const a = scan.assigns.get(nm);
      if (a?.value) return { v: flatVals(a.value), text: a.text };
    }
    return undefined;
  };
  // a point written per state: x1 = pi, x2 = 0
  const perState = (): { v: number[]; text: string } | undefined => {
    const vals = model!.states.map((s) => scan.assigns.get(s));
    if (!vals.every((a) => a?.value && a.value.length === 1 && a.value[0].length === 1)) return undefined;
    return { v: vals.map((a) => a!.value![0][0]), text: vals.map((a) => a!.text).join(', ') };
  };
  const input = (): { v: unknown; text: string } | undefined => {
    const u = vecOf(...(m > 1 ? ['u', 'u0', 'ue'] : ['u', 'u0', 'ue']));
    if (u) return u;
    return undefined;
  };
  const ask = (question: string, extra: string[]): Reading => {
    inp.record();
    const base = inp.message.trim().replace(/[.?]$/, '');
    return { kind: 'ask', question, candidates: extra.map((e) => ({ label: e, prompt: `${base} ${e}` })) };
  };
  const zeros = `[${new Array(n).fill(0).join('; ')}]`;
  if (!tool) {
    inp.record();
    const base = inp.message.trim();
    return {
      kind: 'ask',
      question: 'These are nonlinear state equations. What should I compute: an equilibrium, a linearisation about a point, or a simulation?',
      candidates: [
        { label: 'equilibrium (find_eqpt)', prompt: `equilibrium of ${base}` },
        { label: 'linearize about x = 0 (linearize)', prompt: `linearize ${base} about x = ${zeros}` },
        { label: 'simulate from x0 (nlsim)', prompt: `simulate ${base}` },
      ],
    };
  }
  if (tool === 'find_eqpt') {
    const g = vecOf('x0', 'xguess', 'x_guess', 'guess', 'xe', 'x') ?? perState();
    if (g) {
      args.x0 = g.v;
      origins.x0 = origin(g.text);
    } else {
      args.x0 = new Array(n).fill(0);
      origins.x0 = { from: 'default', text: 'initial guess x0 = 0' };
      notes.push('initial guess x0 = 0 (default); another guess may find another equilibrium');
    }
    const y0 = vecOf('y0', 'yref', 'y_target');
    if (y0) {
      args.y0 = y0.v;
      origins.y0 = origin(y0.text);
    }
    const u = input();
    if (u && m) {
      args.u0 = u.v;
      origins.u0 = origin(u.text);
    } else if (m && !y0) notes.push(`input ${model.inputs.join(', ')} = 0 (default).`);
  } else if (tool === 'linearize') {
    const p = vecOf('x', 'x0', 'xe', 'xeq', 'x_eq', 'xop') ?? perState();
    if (!p) return ask(`About which point should I linearize? Give the state, e.g. x = ${zeros}, or ask for the equilibria first.`, [`about x = ${zeros}`]);
    args.x = p.v;
    origins.x = origin(p.text);
    const u = input();
    if (u && m) {
      args.u = u.v;
      origins.u = origin(u.text);
    } else if (m) notes.push(`input ${model.inputs.join(', ')} = 0 at the point (default).`);
  } else if (tool === 'lyapunov_check') {
    const p = vecOf('x', 'xe', 'xeq', 'x_eq', 'x0') ?? perState();
    if (p) {
      args.x = p.v;
      origins.x = origin(p.text);
    } else if (/\b(?:at|about|around|of)\s+the\s+origin\b/i.test(text)) {
      args.x = new Array(n).fill(0);
      origins.x = origin('the origin');
    } else return ask(`At which equilibrium? Give it, e.g. x = ${zeros} (find_eqpt finds one).`, [`about x = ${zeros}`]);
    const u = input();
    if (u && m) {
      args.u = u.v;
      origins.u = origin(u.text);
    } else if (m) notes.push(`input ${model.inputs.join(', ')} = 0 (default).`);
    const P = scan.assigns.get('P');
    if (P?.value && P.value.length === n) {
      args.P = P.value;
      origins.P = origin(P.text);
    }
    const Q = scan.assigns.get('Q');
    if (!args.P && Q?.value && Q.value.length === n) {
      args.Q = Q.value;
      origins.Q = origin(Q.text);
    }
    const rad =
      text.match(/\b(?:radius|box(?: of)?(?: half-width)?|half-width)\s*(?:=|of|:)?\s*(\d+(?:\.\d+)?)/i) ??
      text.match(/\|\s*x\s*\|\s*(?:<=|≤|<)\s*(\d+(?:\.\d+)?)/);
    if (rad && Number(rad[1]) > 0) {
      args.radius = Number(rad[1]);
      origins.radius = origin(rad[0]);
    } else notes.push('sampled box |x − xe| ≤ 1 (default radius).');
  } else if (tool === 'cbf_filter') {
    const r = readCbf(inp.message, model, scan, params, ask, zeros);
    if (r.kind !== 'args') return r.reading;
    Object.assign(args, r.args);
    Object.assign(origins, r.origins);
    notes.push(...r.notes);
    if (Object.keys(params).length) args.params = params;
  } else {
    const x0 = vecOf('x0', 'X0', 'x_0', 'xinit');
    if (!x0) return ask(`From which initial state should I simulate? e.g. x0 = ${zeros}.`, [`from x0 = ${zeros}`]);
    args.x0 = x0.v;
    origins.x0 = origin(x0.text);
    const f = inp.message.match(/(?<![\w.])u\s*(?:\(\s*t\s*\))?\s*=\s*([^,;\n]*\bt\b[^,;\n]*?)\s*(?=$|[,;\n]|\s+(?:for|over|from|until|with|and)\b)/i);
    if (f && m) {
      try {
        compileFormula(f[1], 'u');
        args.u = f[1].trim();
        origins.u = origin(f[0].trim());
      } catch (e) {
        inp.record();
        return { kind: 'none', reason: (e as Error).message, problems: [(e as Error).message] };
      }
    } else {
      const u = input();
      if (u && m) {
        args.u = (u.v as number[]).length === 1 ? (u.v as number[])[0] : u.v;
        origins.u = origin(u.text);
      } else if (m) notes.push(`input ${model.inputs.join(', ')} = 0 (default).`);
    }
    const tf = vecOf('tfinal', 'Tf', 'tf', 'T', 'tend');
    if (tf && tf.v.length === 1 && tf.v[0] > 0) {
      args.tfinal = tf.v[0];
      origins.tfinal = origin(tf.text);
    } else if (scan.t && scan.t.value.length > 1) {
      args.tfinal = scan.t.value[scan.t.value.length - 1];
      origins.tfinal = origin(scan.t.text);
    } else notes.push('t = 0 to 10 s (default).');
  }
  const paramNote = Object.keys(params).length
    ? `parameters ${Object.entries(params)
        .map(([k, v]) => `${k} = ${v}`)
        .join(', ')}${found ? ' from the message' : ' from the earlier call'}`
    : '';
  if (paramNote) notes.unshift(paramNote);
  if (model.outputsDefault && tool === 'linearize') notes.push('no output written: y = x (C = I).');
  const reading: CallReading = {
    kind: 'call',
    tool,
    args,
    origins,
    unused: [],
    notes,
    via: opts.command ? 'command' : 'words',
    system: `x' = f(x, u): ${model.states.map((s, i) => `${s}' = ${model.fText[i]}`).join('; ')}`,
  };
  inp.record(reading);
  return reading;
}
