/**
 * Reading requests that take two or more systems: feedback, series, parallel, append (the
 * tools whose parameters are system objects `sys1`, `sys2`, `systems`). The single-system
 * reading in read.ts picks one system in use; here each operand is a system the message
 * defines or names (G, C, a transfer-function expression, a number as a static gain), in the
 * order written, and every operand's origin is said. Where the block diagram could be read
 * two ways (a controller and a plant "in a loop": in the forward path, or in the return
 * path?), the reader asks with both as buttons, never picks one.
 */
import type { ToolDef } from '../tools/types.js';
import { getTool } from '../tools/table.js';
import type { Matrix } from '../types.js';
import type { CallFound } from './calls.js';
import type { Conversation, Origin, System, SystemEntry } from './conversation.js';
import type { ArgVal, Scope } from './values.js';
import type { Candidate } from './read.js';

/** a tool whose arguments are systems (sys1/sys2, or a list `systems`) rather than one model */
export function takesSystems(tool: ToolDef | undefined): boolean {
  const p = tool?.parameters.properties;
  return !!p && (p.sys1 !== undefined || p.systems !== undefined);
}

interface Operand {
  /** a system, or a static gain (a number; a matrix for a MIMO gain) */
  value: System | number | Matrix;
  origin: Origin;
  label: string;
}

/** a system object as the interconnection tools take it: {A, B, C, D, Ts} or {num, den, Ts}, or a number */
export function systemObject(v: Operand['value']): { value: unknown } | { missing: string } {
  if (typeof v === 'number') return { value: v };
  if (Array.isArray(v)) return { value: { A: [], B: [], C: v.map(() => []), D: v } };
  if (v.kind === 'tf') return { value: { num: v.num, den: v.den, ...(v.Ts ? { Ts: v.Ts } : {}) } };
  // a MIMO transfer matrix (reader/mimo.ts): as written; the tools realise it minimal themselves
  if (v.tfm) return { value: { num: v.tfm.num, den: v.tfm.den, ...(v.Ts ? { Ts: v.Ts } : {}) } };
  const missing = (['B', 'C'] as const).filter((k) => v[k] === undefined);
  if (missing.length) return { missing: missing.join(' and ') };
  // ss(A, B, C, 0): MATLAB's scalar 0 is the zero D of every size
  const zeroD = v.D?.length === 1 && v.D[0].length === 1 && v.D[0][0] === 0 && (v.C!.length !== 1 || (v.B![0]?.length ?? 1) !== 1);
  return { value: { A: v.A, B: v.B, C: v.C, ...(v.D && !zeroD ? { D: v.D } : {}), ...(v.Ts ? { Ts: v.Ts } : {}) } };
}

export type InterconnectResult =
  | { kind: 'call'; args: Record<string, unknown>; origins: Record<string, Origin>; notes: string[]; label: string; output?: string }
  | { kind: 'ask'; question: string; candidates: Candidate[] };

export interface InterconnectInput {
  tool: ToolDef;
  message: string;
  text: string;
  conv: Conversation;
  scope: Scope;
  fromCall?: { call: CallFound; vals: ArgVal[]; kw: Record<string, ArgVal> };
  /** systems this message defines (named or not), in the order written */
  defined: { name?: string; sys: System; text: string; origin: Origin }[];
}

const SIGN_POSITIVE = /\bpositive(?:[- ]sign)?\s+feedback\b|\bsign\s*=\s*\+?1\b/i;

/** the name the result gets: `T = feedback(G, C)`, "call it T", "save it as L" */
function outputName(text: string, call?: CallFound): string | undefined {
  if (call?.outputs.length === 1) return call.outputs[0];
  const m = text.match(/\b(?:call|name|save|store|keep)\s+(?:it|this|that|the result|the closed loop|the loop)\s+(?:as\s+)?([A-Za-z]\w{0,15})\b/i);
  return m && !/^(?:as|the|a|an|it)$/i.test(m[1]) ? m[1] : undefined;
}

function operandOf(v: ArgVal, written: string): Operand | { error: string } {
  if (v.kind === 'system') return { value: v.sys, origin: v.origin, label: v.label };
  if (v.kind === 'number') return { value: v.value, origin: v.origin, label: String(v.value) };
  if (v.kind === 'matrix') {
    const m = v.value;
    if (m.length === 1 && m[0].length === 1) return { value: m[0][0], origin: v.origin, label: String(m[0][0]) };
    return { value: m, origin: v.origin, label: written };
  }
  if (v.kind === 'error') return { error: v.message };
  return { error: `${written} is not a system or a gain` };
}

const isSisoTf = (o: Operand) => typeof o.value === 'number' || (!Array.isArray(o.value) && o.value.kind === 'tf');

/** systems named in the words, in the order they first appear (definitions count where they are written) */
function mentioned(text: string, input: InterconnectInput): Operand[] {
  const found: { at: number; op: Operand }[] = [];
  const names = new Set<string>([
    ...input.defined.map((d) => d.name).filter((n): n is string => !!n),
    ...input.conv.systems.map((s) => s.name).filter((n): n is string => !!n),
  ]);
  for (const n of names) {
    const re = new RegExp(`(?<![\\w.])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`);
    const m = re.exec(text);
    if (!m) continue;
    const s = input.scope.system(n);
    if (s) found.push({ at: m.index, op: { value: s.entry.sys, origin: s.origin, label: n } });
  }
  // a static gain written in words ("with a gain of 5", "a proportional gain K = 2"): an operand, never dropped
  const gain = /\b(?:a\s+)?(?:static\s+|proportional\s+|controller\s+)?gain\s+(?:of\s+|K\s*=\s*|=\s*)?([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)(?![\w.])/i.exec(
    text,
  );
  if (gain) found.push({ at: gain.index, op: { value: Number(gain[1]), origin: { from: 'message', text: gain[0].trim() }, label: gain[1] } });
  // systems the message writes without a name (a transfer-function expression)
  for (const d of input.defined)
    if (!d.name) {
      const at = text.indexOf(d.text);
      found.push({ at: at < 0 ? text.length : at, op: { value: d.sys, origin: d.origin, label: d.text } });
    }
  return found.sort((a, b) => a.at - b.at).map((f) => f.op);
}

function callOperands(input: InterconnectInput): { ops: Operand[]; kw: Record<string, ArgVal> } | { error: string } {
  const c = input.fromCall!;
  const ops: Operand[] = [];
  const positional = c.call.args.filter((a) => !a.name);
  // feedback(sys1, sys2, feedin, feedout[, sign]): the channel lists are no operands
  const kw = { ...c.kw };
  let vals = c.vals;
  if (vals.length >= 4) {
    kw.feedin ??= vals[2];
    kw.feedout ??= vals[3];
    if (vals[4]) kw.sign ??= vals[4];
    vals = vals.slice(0, 2);
  }
  for (let i = 0; i < vals.length; i++) {
    const o = operandOf(vals[i], positional[i]?.text ?? '');
    if ('error' in o) {
      // feedback(G, C, +1): a trailing number is the sign, not a system
      if (i >= 2) break;
      return { error: o.error };
    }
    ops.push(o);
  }
  return { ops, kw };
}

export function readInterconnect(input: InterconnectInput): InterconnectResult {
  const { tool, text } = input;
  const props = tool.parameters.properties;
  const notes: string[] = [];
  const args: Record<string, unknown> = {};
  const origins: Record<string, Origin> = {};
  let ops: Operand[];
  let sign: { value: number; origin: Origin } | undefined;
  let rolesKnown = false;
  if (input.fromCall) {
    const r = callOperands(input);
    if ('error' in r) return { kind: 'ask', question: `I could not read ${input.fromCall.call.text}: ${r.error}.`, candidates: [] };
    ops = r.ops;
    // feedback(G, H, +1) / parallel(G, H, -1): a third positional number is the sign (MATLAB)
    if (props.sign && (tool.name === 'feedback' || tool.name === 'parallel') && ops.length === 3 && typeof ops[2].value === 'number') {
      sign = { value: ops[2].value, origin: ops[2].origin };
      ops = ops.slice(0, 2);
    }
    const kwSign = r.kw.sign;
    if (kwSign?.kind === 'number') sign = { value: kwSign.value, origin: kwSign.origin };
    const comp = tool.name === 'feedback' && ops.length === 2 ? compensatorEntry(ops[1], input.conv) : undefined;
    if (comp && (sign?.value ?? -1) !== 1)
      notes.push(
        `${comp.op.label} is a reg/lqg compensator, which MATLAB connects with positive feedback (feedback(sys, ${comp.op.label}, +1)); this call's sign ${sign ? sign.value : '−1 (the default)'} is not the designed loop`,
      );
    for (const k of ['feedin', 'feedout'] as const) {
      const v = r.kw[k];
      if (v && props[k] && (v.kind === 'matrix' || v.kind === 'number')) {
        args[k] = v.kind === 'number' ? [v.value] : v.value.flat();
        origins[k] = v.origin;
      }
    }
  } else {
    ops = mentioned(text, input);
    // "and in parallel?" after series(G1, G2): the same operands, another connection
    const last = input.conv.lastCall;
    if (!ops.length && last && last.tool !== tool.name && takesSystems(getTool(last.tool)) && !input.defined.length) {
      const reused = Object.keys(last.args).filter((k) => (k === 'sys1' || k === 'sys2' || k === 'systems') && props[k]);
      if (reused.length && (props.systems ? !!last.args.systems : !!last.args.sys1)) {
        for (const k of reused) {
          args[k] = last.args[k];
          origins[k] = last.origins[k] ?? { from: 'turn', turn: last.turn, text: `${k} of ${last.tool}` };
        }
        if (SIGN_POSITIVE.test(text) && props.sign) {
          args.sign = 1;
          origins.sign = { from: 'message', text: 'positive feedback' };
        }
        return {
          kind: 'call',
          args,
          origins,
          notes: [`the systems of the ${last.tool} of turn ${last.turn}`],
          label: `${tool.name}(the systems of turn ${last.turn})`,
          output: outputName(text),
        };
      }
    }
    if (!ops.length && input.conv.current !== undefined) {
      const e = input.conv.systems[input.conv.current];
      ops = [
        {
          value: e.sys,
          origin: e.name ? { from: 'system', name: e.name, turn: e.turn } : { from: 'turn', turn: e.turn, text: e.text },
          label: e.name ?? `the system of turn ${e.turn}`,
        },
      ];
    }
    if (SIGN_POSITIVE.test(text) && props.sign) sign = { value: 1, origin: { from: 'message', text: 'positive feedback' } };
    // a reg/lqg compensator (saved with MATLAB's positive-feedback convention) closed in words: with
    // the plant it was designed for, sign +1, said; "negative feedback" written is kept, with a caution
    if (tool.name === 'feedback') {
      const comp = ops.map((o) => compensatorEntry(o, input.conv)).find((c) => !!c);
      if (comp) {
        const plantEntry = comp.entry.feedback!.plant !== undefined ? input.conv.systems[comp.entry.feedback!.plant] : undefined;
        if (ops.length === 1 && plantEntry)
          ops = [
            {
              value: plantEntry.sys,
              origin: plantEntry.name
                ? { from: 'system', name: plantEntry.name, turn: plantEntry.turn }
                : { from: 'turn', turn: plantEntry.turn, text: plantEntry.text },
              label: plantEntry.name ?? `the plant of turn ${plantEntry.turn}`,
            },
            comp.op,
          ];
        else if (ops.length === 2) ops = [ops.find((o) => o !== comp.op)!, comp.op];
        if (ops.length === 2) {
          if (/\bnegative\s+feedback\b|\bsign\s*=\s*-\s*1\b/i.test(text))
            notes.push(
              `${comp.op.label} was designed for positive feedback (MATLAB's feedback(sys, ${comp.op.label}, +1)); with the negative feedback written this is not the designed loop`,
            );
          else {
            sign = {
              value: 1,
              origin: {
                from: 'default',
                text: `${comp.op.label} is a reg/lqg compensator: MATLAB connects it with positive feedback, feedback(sys, ${comp.op.label}, +1)`,
              },
            };
            // the two roles are known: the plant forward, the compensator in the return path
            rolesKnown = true;
          }
        }
      }
    }
  }
  if (!ops.length)
    return {
      kind: 'ask',
      question: `Which systems should ${tool.name} connect? Define them first or give them here, e.g. \`${tool.words.example}\`.`,
      candidates: [],
    };

  const names = ops.map((o) => o.label);
  let order: Operand[] = ops;
  if (tool.name === 'diskmargin_io') {
    const dm = diskmarginOperands(input, ops, args, origins, notes);
    if ('ask' in dm) return dm.ask;
    order = dm.order;
  } else if (tool.name === 'feedback') {
    if (ops.length === 1) {
      args.sys2 = 1;
      origins.sys2 = { from: 'default', text: 'unity feedback, sys2 = 1' };
    } else if (ops.length === 2 && !input.fromCall && !rolesKnown) {
      const [x, y] = ops;
      // "G with the sensor H in the feedback path": the operand written last before the phrase
      // (or right after "sensor") is in the return path; otherwise ask
      const esc = (o: Operand) => o.label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const path = /\b(?:in|on)\s+the\s+(?:feedback|return|measurement)\s+path\b/i.exec(text);
      const lastBefore = (o: Operand) => {
        if (!path) return -1;
        let at = -1;
        for (const m of text.slice(0, path.index).matchAll(new RegExp(`(?<![\\w.])${esc(o)}(?![\\w])`, 'g'))) at = m.index!;
        return at;
      };
      const sensor = (o: Operand) => new RegExp(`\\b(?:sensor|measurement)\\s+(?:dynamics\\s+)?${esc(o)}(?![\\w])`).test(text);
      const inReturn = (o: Operand, other: Operand) => sensor(o) || (!!path && lastBefore(o) > lastBefore(other));
      if (inReturn(y, x)) order = [x, y];
      else if (inReturn(x, y)) order = [y, x];
      else {
        const tfs = isSisoTf(x) && isSisoTf(y);
        const candidates: Candidate[] = [];
        if (tfs)
          candidates.push({
            label: `${y.label} and ${x.label} in series, unity negative feedback: T = ${x.label}·${y.label}/(1 + ${x.label}·${y.label})`,
            prompt: `feedback(${x.label}*${y.label}, 1)`,
          });
        candidates.push({
          label: `${x.label} forward, ${y.label} in the feedback path: T = ${x.label}/(1 + ${x.label}·${y.label})`,
          prompt: `feedback(${x.label}, ${y.label})`,
        });
        candidates.push({
          label: `${y.label} forward, ${x.label} in the feedback path: T = ${y.label}/(1 + ${y.label}·${x.label})`,
          prompt: `feedback(${y.label}, ${x.label})`,
        });
        if (!tfs)
          candidates.push({ label: `${y.label} then ${x.label} in series first (series(${y.label}, ${x.label}))`, prompt: `series(${y.label}, ${x.label})` });
        return { kind: 'ask', question: `How are ${x.label} and ${y.label} connected in the loop?`, candidates };
      }
    } else if (ops.length > 2) {
      return {
        kind: 'ask',
        question: `feedback connects two systems (forward path, return path), and this names ${ops.length}: ${names.join(', ')}. Which two, e.g. feedback(${names[0]}*${names[1]}, ${names[2]})?`,
        candidates: [],
      };
    }
  } else if (tool.name === 'series' || tool.name === 'parallel') {
    if (ops.length !== 2)
      return {
        kind: 'ask',
        question: `${tool.name} connects two systems, and this ${ops.length < 2 ? `names only ${names.join('')}` : `names ${ops.length}: ${names.join(', ')}`}. Which two?`,
        candidates: [],
      };
    if (tool.name === 'series' && !input.fromCall) {
      const [x, y] = ops;
      const reversed = new RegExp(
        `(?<![\\w.])${x.label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])[^.;]{0,20}\\b(?:after|preceded by|fed by|driven by)\\b`,
      ).test(text);
      if (reversed) order = [y, x];
      if (!(isSisoTf(x) && isSisoTf(y)) && !reversed && !/\b(?:followed by|then|into|feeds?|drives?)\b/i.test(text))
        return {
          kind: 'ask',
          question: `Which comes first in the signal path (for systems with several inputs or outputs the order matters)?`,
          candidates: [
            { label: `${x.label} first, then ${y.label}: ${y.label}·${x.label}`, prompt: `series(${x.label}, ${y.label})` },
            { label: `${y.label} first, then ${x.label}: ${x.label}·${y.label}`, prompt: `series(${y.label}, ${x.label})` },
          ],
        };
      if (isSisoTf(x) && isSisoTf(y) && !reversed) notes.push('for SISO transfer functions the order of a series connection does not change the result');
    }
  }

  // operands -> system objects
  const keys = order.map((_, i) => `sys${i + 1}`);
  const objs: unknown[] = [];
  for (let i = 0; i < order.length; i++) {
    const o = systemObject(order[i].value);
    if ('missing' in o)
      return {
        kind: 'ask',
        question: `${order[i].label} has no ${o.missing}: ${tool.name} needs whole models (A, B, C, D or a transfer function). Please give ${o.missing} of ${order[i].label}.`,
        candidates: [],
      };
    objs.push(o.value);
    if (!props.systems) origins[keys[i]] = order[i].origin;
  }
  if (props.systems) {
    args.systems = objs;
    // one origin for the list: each operand by its name
    origins.systems = { from: 'message', text: order.map((o) => o.label).join(', ') };
  } else objs.forEach((v, i) => (args[keys[i]] = v));
  if (sign && props.sign) {
    args.sign = sign.value;
    origins.sign = sign.origin;
    if (tool.name === 'feedback' && sign.value === 1) notes.push('positive feedback (sign = +1): T = G/(1 − G·H)');
  }
  const shown = tool.name === 'feedback' && ops.length === 1 ? [order[0].label, '1'] : order.map((o) => o.label);
  return { kind: 'call', args, origins, notes, label: `${tool.name}(${shown.join(', ')})`, output: outputName(text, input.fromCall?.call) };
}

/** the conversation's entry of an operand that is a saved reg/lqg compensator (positive feedback) */
function compensatorEntry(op: Operand, conv: InterconnectInput['conv']): { op: Operand; entry: SystemEntry } | undefined {
  const o = op.origin;
  if (o.from !== 'system') return undefined;
  const entry = conv.systems.find((e) => e.name === o.name && e.turn === o.turn && e.feedback);
  return entry ? { op, entry } : undefined;
}

const PLANT_NAME = /^(?:P|G|Gp|Pl|plant|sys|H)\d*$/i;
const CONTROLLER_NAME = /^(?:C|K|Kc|Cs|Gc|ctrl|controller)\d*$/i;

/**
 * diskmargin(P, C[, sigma]): the plant first, the controller second (u = −C·y). Written as a call
 * the order is the call's; in words the names say the roles (P, G: plant; C, K: controller),
 * otherwise both orders are asked. A third number of the call, sigma = …, or "skew …" is the skew.
 */
function diskmarginOperands(
  input: InterconnectInput,
  ops: Operand[],
  args: Record<string, unknown>,
  origins: Record<string, Origin>,
  notes: string[],
): { order: Operand[] } | { ask: InterconnectResult } {
  const c = input.fromCall;
  let list = ops;
  let sigma: { value: number; origin: Origin } | undefined;
  if (c && list.length === 3 && typeof list[2].value === 'number') {
    sigma = { value: list[2].value, origin: list[2].origin };
    list = list.slice(0, 2);
  }
  const kw = c?.kw.sigma ?? c?.kw.skew;
  if (kw?.kind === 'number') sigma = { value: kw.value, origin: kw.origin };
  if (!c) {
    const m = /\b(?:sigma|skew|σ)\s*(?:=|of|:)?\s*([-+]?(?:\d+\.?\d*|\.\d+))(?![\w.])/i.exec(input.text);
    if (m) sigma = { value: Number(m[1]), origin: { from: 'message', text: m[0].trim() } };
  }
  if (sigma) {
    args.sigma = sigma.value;
    origins.sigma = sigma.origin;
  }
  // "with controller K = 2": a controller given as a number in the words is the second operand
  if (!c && list.length === 1) {
    const g = /\b(C|K|Kc|Gc)\s*=\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)(?![\w.])/.exec(input.text);
    if (g && g[1] !== list[0].label) list = [...list, { value: Number(g[2]), origin: { from: 'message', text: g[0] }, label: g[1] }];
  }
  if (list.length !== 2)
    return {
      ask: {
        kind: 'ask',
        question: `diskmargin(P, C) takes a plant P and its controller C (u = −C·y), and this ${list.length < 2 ? `names only ${list.map((o) => o.label).join('')}` : `names ${list.length}: ${list.map((o) => o.label).join(', ')}`}. Which are the plant and the controller? For one loop transfer L use diskmargin(L).`,
        candidates: [],
      },
    };
  if (c) return { order: list };
  const [x, y] = list;
  const role = (o: Operand) => (PLANT_NAME.test(o.label) ? 'plant' : CONTROLLER_NAME.test(o.label) ? 'controller' : undefined);
  const byName = (plant: Operand, ctrl: Operand) => {
    notes.push(`${plant.label} is the plant (sys1) and ${ctrl.label} the controller (sys2), u = −${ctrl.label}·y, by their names`);
    return { order: [plant, ctrl] };
  };
  if (role(x) === 'plant' && role(y) !== 'plant') return byName(x, y);
  if (role(y) === 'plant' && role(x) !== 'plant') return byName(y, x);
  if (role(x) === 'controller' && role(y) !== 'controller') return byName(y, x);
  if (role(y) === 'controller' && role(x) !== 'controller') return byName(x, y);
  return {
    ask: {
      kind: 'ask',
      question: `Which of ${x.label} and ${y.label} is the plant and which the controller (u = −C·y)?`,
      candidates: [
        { label: `${x.label} the plant, ${y.label} the controller`, prompt: `diskmargin(${x.label}, ${y.label})` },
        { label: `${y.label} the plant, ${x.label} the controller`, prompt: `diskmargin(${y.label}, ${x.label})` },
      ],
    },
  };
}
