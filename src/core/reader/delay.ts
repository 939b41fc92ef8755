/**
 * Reading time delays (issue 13): a transfer function or model written with a delay —
 * `exp(-0.5*s)/(s+1)`, `e^(-0.5s)/(s+1)`, `tf(1, [1 1], 'InputDelay', 0.5)` (or 'IODelay',
 * 'OutputDelay'), "1/(s+1) with a dead time of 0.5 s" — and the delay tools' own requests:
 * `pade(0.5, 3)`, "Padé approximation of a 0.5 s delay, order 3", `thiran(2.4, 1)`.
 *
 * A delay is never dropped and never approximated unasked: a request about a delayed system
 * (its step response, its margins) is asked back with the Padé approximations of order 3 and 5
 * as candidates, each a message that reads as `pade(<the system with its delay>, N)`; the
 * approximation then becomes the system in use. What is not read here (a delay in samples, a
 * computation delay plus something else, two delays) is left to read.ts's refusal.
 *
 * The delay-free part is read by the reader itself (readRequest on the message with the delay
 * taken out), so every way of writing a system works; that nested reading does not come back here.
 */
import { Conversation, type Origin } from './conversation.js';
import { findCalls } from './calls.js';
import { findSampleTimes, timeQuantity } from './quantities.js';
import type { CallReading, Reading, ReadOptions } from './read.js';
import type { Scope } from './values.js';
import { PADE_ADVISED_ORDER, runPade } from '../solvers/delay.js';

const NUM = String.raw`(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?`;
const MINUS = '[-−]';
/** the exponent of a delay: -0.5*s, -0.5s, -s*0.5, -s, -T*s (a name given a value in the message) */
const EXPONENT = String.raw`${MINUS}\s*(?:(${NUM}|[A-Za-zθτ]\w*)\s*\*?\s*s|s\s*(?:\*\s*(${NUM}|[A-Za-zθτ]\w*))?)`;
const EXP_FORMS = [
  new RegExp(String.raw`(?<![\w.])exp\s*\(\s*${EXPONENT}\s*\)`, 'g'),
  new RegExp(String.raw`(?<![\w.])e\s*\^\s*\(\s*${EXPONENT}\s*\)`, 'g'),
  new RegExp(String.raw`(?<![\w.])e\s*\^\s*\{\s*${EXPONENT}\s*\}`, 'g'),
  new RegExp(String.raw`(?<![\w.])e\s*\^\s*${MINUS}\s*(?:(${NUM})\s*\*?\s*)?s(?![\w.])`, 'g'),
];
const CTOR_DELAY = new RegExp(String.raw`\s*,\s*['"](InputDelay|OutputDelay|IODelay)['"]\s*,\s*(${NUM})`, 'gi');
const UNIT = String.raw`(ms|msec|milliseconds?|[uµμ]s|s|sec|secs|seconds?|min|minutes?)`;
const KIND = String.raw`(?:(input|output|transport|pure|time|io)[- ])?`;
const NOUN = String.raw`(?:dead[- ]?time|time[- ]delay|delay)`;
const WORD_FORMS = [
  // "with a dead time of 0.5 s", "delay T = 2 s", "a time delay of 0.5 seconds"
  new RegExp(
    String.raw`(?:,?\s*(?:with|and|has|having|plus|including)\s+)?(?:an?\s+|the\s+)?${KIND}${NOUN}\s*(?:of|=|:|is|equal to)?\s*(?:[A-Za-zθτ]\w*\s*=\s*)?(${NUM})\s*${UNIT}?(?![\w.])`,
    'gi',
  ),
  // "with a 12 s dead time", "a 0.5 s input delay"
  new RegExp(String.raw`(?:,?\s*(?:with|and|has|having|plus|including)\s+)?(?:an?\s+|the\s+)?(${NUM})[- ]?${UNIT}[- ]${KIND}${NOUN}(?![\w-])`, 'gi'),
];
/** delays this reader leaves alone: a margin, a delay in samples, a computation or PWM delay */
const NOT_A_DELAY =
  /\bdelay[- ]margin|\bno (?:time )?delay\b|\bsamples?\b[^.]*\bdelay|\bdelay\b[^.]*\bsamples?\b|\b(?:computation(?:al)?|processing|sampling|loop|pwm)\b/i;

export interface FoundDelay {
  /** seconds */
  T: number;
  /** where it acts: MATLAB's InputDelay/OutputDelay, or an I/O delay (a SISO transfer function) */
  at: 'input' | 'output' | 'io';
  /** as written */
  text: string;
}

/** a number, or a name given a scalar value in the message ("T = 0.5") */
function value(v: string, scope: Scope): number | undefined {
  if (new RegExp(`^${NUM}$`).test(v)) return Number(v);
  const m = scope.matrix(v);
  return m && m.value.length === 1 && m.value[0].length === 1 ? m.value[0][0] : undefined;
}

/** a signed number as written (−2), or a name given a scalar value in the message */
function numberOrName(t: string, scope: Scope): number | undefined {
  const x = t.trim().replace(/^−/, '-');
  return new RegExp(`^[-+]?${NUM}$`).test(x) ? Number(x) : value(x, scope);
}

/**
 * The delays a message writes and the message with them taken out (an exponential factor
 * becomes (1), a constructor's delay pair and a phrase are removed). `undefined` delays: none;
 * `unreadable`: a delay this reader does not take (left to read.ts).
 */
export function findDelays(text: string, scope: Scope): { delays: FoundDelay[]; rest: string; unreadable?: boolean } {
  const delays: FoundDelay[] = [];
  let rest = text;
  let unreadable = false;
  for (const re of EXP_FORMS)
    rest = rest.replace(re, (all: string, a?: string, b?: string) => {
      const v = a ?? b;
      const T = v === undefined ? 1 : value(v, scope);
      if (T === undefined) {
        unreadable = true;
        return all;
      }
      delays.push({ T, at: 'io', text: all });
      return '(1)';
    });
  rest = rest.replace(CTOR_DELAY, (all: string, kind: string, v: string) => {
    const k = kind.toLowerCase();
    delays.push({ T: Number(v), at: k === 'inputdelay' ? 'input' : k === 'outputdelay' ? 'output' : 'io', text: all.replace(/^\s*,\s*/, '') });
    return '';
  });
  if (!NOT_A_DELAY.test(rest))
    for (const re of WORD_FORMS)
      rest = rest.replace(re, (all: string, ...g: (string | undefined)[]) => {
        // the two forms hold (kind, number, unit) and (number, unit, kind)
        const [kind, v, u] = re === WORD_FORMS[0] ? [g[0], g[1], g[2]] : [g[2], g[0], g[1]];
        const T = u ? timeQuantity(Number(v), /^min/i.test(u) ? 'min' : u) : Number(v);
        if (T === undefined) {
          unreadable = true;
          return all;
        }
        delays.push({
          T,
          at: kind?.toLowerCase() === 'input' ? 'input' : kind?.toLowerCase() === 'output' ? 'output' : 'io',
          text: all.trim().replace(/^,\s*/, ''),
        });
        return ' ';
      });
  return { delays, rest, ...(unreadable ? { unreadable } : {}) };
}

/** "3rd-order", "order 3", "third-order", "N = 3", "n=5" */
function findOrder(text: string): { N: number; text: string } | undefined {
  const words: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10 };
  let m =
    text.match(/\b(\d+)(?:st|nd|rd|th)?[- ]order\b/i) ??
    text.match(/\border\s*(?:N\s*=\s*|of\s+|=\s*|:\s*)?(\d+)\b/i) ??
    text.match(/(?<![\w.])[Nn]\s*=\s*(\d+)\b/);
  if (m) return { N: Number(m[1]), text: m[0] };
  m = text.match(/\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)[- ]order\b/i);
  if (m) return { N: words[m[1].toLowerCase()], text: m[0] };
  return undefined;
}

const ordinal = (n: number) => `${n}${n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'}`;
const lit = (x: number) => String(Number(x.toPrecision(15)));
const vec = (v: number[]) => `[${v.map(lit).join(' ')}]`;
const mat = (M: number[][]) => `[${M.map((r) => r.map(lit).join(' ')).join('; ')}]`;

/** "the 3rd-order Padé approximation", "pade approximant of order 5", "Padé's" */
const PADE_PHRASE =
  /\b(?:(?:with|using|by|via|through)\s+)?(?:an?\s+|the\s+)?(?:\d+(?:st|nd|rd|th)?|first|second|third|fourth|fifth)?[- ]?(?:order\s+)?pad[eé](?!\w)(?:'s)?\s*(?:approximation|approximant)?(?:\s+(?:of\s+)?(?:the\s+)?delay)?(?:\s+of\s+order\s+\d+)?/gi;

/**
 * The reading of the delay-free text as a request of its own (the order words taken out): a
 * call of another tool named in the message (step, bode, margins…), else undefined (a bare
 * system or a pade request).
 */
function readOuter(
  text: string,
  orderText: string | undefined,
  conv: Conversation,
  opts: ReadOptions,
  read: (m: string, c: Conversation, o: ReadOptions) => Reading,
): CallReading | undefined {
  const t = orderText ? text.replace(orderText, ' ').replace(/,\s*(?=,|$)/g, '') : text;
  const copy = Conversation.fromJSON(JSON.parse(JSON.stringify(conv.toJSON())));
  nested = true;
  let r: Reading;
  try {
    r = read(t, copy, opts);
  } finally {
    nested = false;
  }
  if (r.kind !== 'call' || r.tool === 'pade' || r.tool === 'thiran' || r.via === 'follow-up' || r.pre?.length) return undefined;
  return r;
}

/** the delay-free system of a nested reading: its arguments (num/den or A, B, C, D) and origins */
interface DelayFree {
  args: Record<string, unknown>;
  origins: Record<string, Origin>;
  label?: string;
}

let nested = false;

/** the system a (delay-free) text gives, read by the reader itself; undefined when none or not one continuous system */
function readSystem(
  text: string,
  conv: Conversation,
  opts: ReadOptions,
  read: (m: string, c: Conversation, o: ReadOptions) => Reading,
): DelayFree | undefined | 'discrete' {
  const copy = Conversation.fromJSON(JSON.parse(JSON.stringify(conv.toJSON())));
  nested = true;
  let r: Reading;
  try {
    r = read(text, copy, { ...opts, command: 'poles_zeros' });
  } finally {
    nested = false;
  }
  if (r.kind !== 'call') return undefined;
  const a = r.args;
  if (typeof a.Ts === 'number' && a.Ts > 0) return 'discrete';
  const keys =
    Array.isArray(a.num) && Array.isArray(a.den) ? ['num', 'den'] : Array.isArray(a.A) && Array.isArray(a.B) && Array.isArray(a.C) ? ['A', 'B', 'C', 'D'] : [];
  if (!keys.length) return undefined;
  // a system written in this message (or the selection), or one the message names: never the system merely in use
  const o = r.origins[keys[0]];
  const named = o?.from === 'system' && new RegExp(`(?<![\\w.])${o.name}(?![\\w(])`).test(text);
  if (!(o?.from === 'message' || o?.from === 'selection' || named)) return undefined;
  const args: Record<string, unknown> = {};
  const origins: Record<string, Origin> = {};
  for (const k of keys)
    if (a[k] !== undefined) {
      args[k] = a[k];
      if (r.origins[k]) origins[k] = r.origins[k];
    }
  return { args, origins, label: r.system };
}

/** `tf([1], [1 1], 'IODelay', 0.5)` / `ss(A, B, C, D, 'InputDelay', 0.5)`: the system with its delay as MATLAB writes it */
function delayedText(sys: Record<string, unknown>, d: { T: number; at: FoundDelay['at'] }): string {
  const kw = d.at === 'input' ? 'InputDelay' : d.at === 'output' ? 'OutputDelay' : Array.isArray(sys.num) ? 'IODelay' : 'InputDelay';
  if (Array.isArray(sys.num)) return `tf(${vec(sys.num as number[])}, ${vec(sys.den as number[])}, '${kw}', ${lit(d.T)})`;
  const B = sys.B as number[][];
  const D = (sys.D as number[][] | undefined) ?? (sys.C as number[][]).map(() => B[0].map(() => 0));
  return `ss(${mat(sys.A as number[][])}, ${mat(B)}, ${mat(sys.C as number[][])}, ${mat(D)}, '${kw}', ${lit(d.T)})`;
}

function orderCandidates(make: (N: number) => string): { label: string; prompt: string }[] {
  return [3, 5].map((N) => ({ label: `with a ${ordinal(N)}-order Padé approximation`, prompt: make(N) }));
}

export interface DelayInput {
  message: string;
  /** the scanned (repaired) text */
  text: string;
  conv: Conversation;
  opts: ReadOptions;
  scope: Scope;
  /** readRequest, for the delay-free part */
  read: (m: string, c: Conversation, o: ReadOptions) => Reading;
  /** records the turn (read.ts's record), with the call when there is one */
  record: (call?: CallReading) => void;
}

/**
 * A reading of a message that writes a delay or asks for pade/thiran, or undefined (read.ts
 * goes on: no delay, or one this reader leaves to its refusal).
 */
export function readDelay(inp: DelayInput): Reading | undefined {
  if (nested) return undefined;
  const { text, conv, opts, scope } = inp;
  const cmd = opts.command?.toLowerCase();
  const calls = findCalls(text);
  const padeCall = calls.find((c) => c.fn === 'pade');
  const thiranCall = calls.find((c) => c.fn === 'thiran');
  const wantsThiran = cmd === 'thiran' || !!thiranCall || (!cmd && /\bthiran\b|\bfractional[- ]delay\b/i.test(text));
  const padeWords = /\bpad[eé](?!\w)/i.test(text);
  const wantsPade = !wantsThiran && (cmd === 'pade' || !!padeCall || (!cmd && padeWords));
  const found = findDelays(padeCall ? (padeCall.args[0]?.text ?? '') : text, scope);
  if (found.unreadable) return undefined;
  if (!wantsPade && !wantsThiran && !found.delays.length) return undefined;
  if (found.delays.length > 1) return undefined;
  const delay = found.delays[0];
  const origin = (t: string): Origin => ({ from: 'message', text: t });

  if (wantsThiran)
    return readThiran(
      inp,
      thiranCall?.args.map((a) => a.text),
      delay,
    );

  // the delay-free system: the first argument of pade(...), else the message with the delay taken out
  let sysText = found.rest;
  if (padeWords && !padeCall) sysText = sysText.replace(PADE_PHRASE, ' ');
  const sys = padeCall && padeCall.args[0] && new RegExp(`^${NUM}$`).test(padeCall.args[0].text.trim()) ? undefined : readSystem(sysText, conv, opts, inp.read);
  if (sys === 'discrete') return undefined;

  // another tool asked of the delayed system ("bode of e^(-0.5s)/(s+1) with a 3rd-order Padé
  // approximation", or /step with a delayed model): that tool, run on the approximation, which a
  // pade pre-call computes first (verified, shown, saved); the request's other arguments stay
  const outer = delay && sys && !padeCall && cmd !== 'pade' ? readOuter(sysText, findOrder(text)?.text, conv, opts, inp.read) : undefined;

  if (outer && delay && sys) {
    const order = padeWords ? findOrder(text) : undefined;
    if (!order) {
      // never drop the delay, never pick an order: ask, each candidate the message with its order
      inp.record();
      const where = delay.at === 'input' ? 'an input delay' : delay.at === 'output' ? 'an output delay' : 'a time delay';
      const base = inp.message.trim().replace(/[.?!]+$/, '');
      return {
        kind: 'ask',
        question:
          `The system has ${where} of ${lit(delay.T)} s (written ${delay.text}), which the solvers take only as a rational model: replace e^(−${lit(delay.T)}s) by a Padé approximation? ` +
          `Pick an order (higher is closer in phase over a wider band; MATLAB advises N ≤ ${PADE_ADVISED_ORDER}); ${outer.plan ?? outer.tool} then runs on the approximated system, which stays in use.`,
        candidates: [3, 5].map((N) => ({
          label: `with a ${ordinal(N)}-order Padé approximation`,
          prompt: padeWords ? `${base}, order ${N}` : `${base} with a ${ordinal(N)}-order Padé approximation`,
          ...(opts.command ? { command: opts.command } : {}),
        })),
      };
    }
    const padeArgs: Record<string, unknown> = { T: delay.T, N: order.N, ...sys.args };
    if (Array.isArray(sys.args.A) && delay.at !== 'io') padeArgs.delayAt = delay.at;
    const padeText = `pade(${delayedText(sys.args, delay)}, ${order.N})`;
    // the reading's view of the system the tool runs on (what the corpus and a plan see); the
    // pade pre-call's verified result replaces it when the plan runs. An order pade refuses
    // keeps the delay-free view: the pre-call then fails with pade's message and nothing runs after it
    let view: Record<string, unknown> | undefined;
    try {
      const p = runPade(padeArgs);
      view = Array.isArray(sys.args.num) ? { num: p.num, den: p.den } : { A: p.A, B: p.B, C: p.C, D: p.D };
    } catch {
      view = undefined;
    }
    const args = { ...outer.args };
    if (view) {
      for (const k of ['num', 'den', 'A', 'B', 'C', 'D']) delete args[k];
      Object.assign(args, view);
    }
    const origins = { ...outer.origins };
    for (const k of Object.keys(origins)) if (['num', 'den', 'A', 'B', 'C', 'D'].includes(k)) delete origins[k];
    for (const k of ['num', 'den', 'A', 'B', 'C', 'D']) if (k in args) origins[k] = origin(`${delay.text}, ${order.text}`);
    const call: CallReading = {
      ...outer,
      args,
      origins,
      notes: [
        ...outer.notes,
        ...(Array.isArray(sys.args.A) && delay.at === 'io'
          ? ['the delay is taken at the input (MATLAB\'s InputDelay); say "output delay" for the output']
          : []),
      ],
      pre: [...(outer.pre ?? []), { tool: 'pade', args: padeArgs, text: padeText }],
    };
    inp.record(call);
    return call;
  }

  if (!wantsPade) {
    // a delayed system in another request: ask, never drop the delay, never pick an order
    if (!delay || !sys) return undefined;
    inp.record();
    const where = delay.at === 'input' ? 'an input delay' : delay.at === 'output' ? 'an output delay' : 'a time delay';
    return {
      kind: 'ask',
      question:
        `The system has ${where} of ${lit(delay.T)} s (written ${delay.text}), which the solvers take only as a rational model: replace e^(−${lit(delay.T)}s) by a Padé approximation? ` +
        `Pick an order (higher is closer in phase over a wider band; MATLAB advises N ≤ ${PADE_ADVISED_ORDER}); the approximated system is then in use for the step response, Bode plot or margins.`,
      candidates: orderCandidates((N) => `pade(${delayedText(sys.args, delay)}, ${N})`),
    };
  }

  // pade: T, N, numdeg from the call, the words, or assignments
  const args: Record<string, unknown> = {};
  const origins: Record<string, Origin> = {};
  const notes: string[] = [];
  const pos = padeCall?.args.filter((a) => !a.name) ?? [];
  const kw = Object.fromEntries((padeCall?.args ?? []).filter((a) => a.name).map((a) => [a.name!.toLowerCase(), a.text.trim()]));
  const num = (t: string | undefined) => (t === undefined ? undefined : numberOrName(t, scope));
  if (delay) {
    args.T = delay.T;
    origins.T = origin(delay.text);
  } else if (pos[0] && num(pos[0].text) !== undefined) {
    args.T = num(pos[0].text);
    origins.T = origin(pos[0].text);
  } else {
    const a = new RegExp(String.raw`(?<![\w.])(?:T|Td|tau|theta|delay)\s*=\s*(${NUM}|[A-Za-z]\w*)(?:\s*(ms|s|sec|seconds?|min)(?![\w]))?`).exec(text);
    const v = a ? num(a[1]) : undefined;
    if (v !== undefined) {
      args.T = a![2] ? timeQuantity(v, /^min/.test(a![2]) ? 'min' : a![2]) : v;
      origins.T = origin(a![0]);
    }
  }
  const Ntext = pos[1]?.text ?? kw.n;
  if (Ntext !== undefined && num(Ntext) !== undefined) {
    args.N = num(Ntext);
    origins.N = origin(Ntext);
  } else {
    const o = findOrder(text);
    if (o) {
      args.N = o.N;
      origins.N = origin(o.text);
    }
  }
  const nd = pos[2]?.text ?? kw.numdeg;
  if (nd !== undefined && num(nd) !== undefined) {
    args.numdeg = num(nd);
    origins.numdeg = origin(nd);
  }
  if (sys) {
    Object.assign(args, sys.args);
    Object.assign(origins, sys.origins);
    if (delay?.at === 'output' && Array.isArray(sys.args.A)) {
      args.delayAt = 'output';
      origins.delayAt = origin(delay.text);
    } else if (delay?.at === 'input' && Array.isArray(sys.args.A)) {
      args.delayAt = 'input';
      origins.delayAt = origin(delay.text);
    } else if (Array.isArray(sys.args.A) && delay) notes.push(`the delay is taken at the input (MATLAB's InputDelay); say "output delay" for the output`);
  }
  if (args.T === undefined) {
    inp.record();
    return {
      kind: 'ask',
      question: `Which delay should the Padé approximation replace? Give T in seconds, e.g. \`pade(0.5, 3)\` (e^(−0.5s), order 3)${sys ? ", or write the system with its delay: `tf(1, [1 1], 'IODelay', 0.5)`" : ''}.`,
      candidates: [],
    };
  }
  if (args.N === undefined) {
    inp.record();
    const base = sys ? delayedText(sys.args, delay ?? { T: args.T as number, at: 'io' }) : lit(args.T as number);
    return {
      kind: 'ask',
      question: `Which order should the Padé approximation of the ${lit(args.T as number)} s delay have? (Higher is closer in phase over a wider band; MATLAB advises N ≤ ${PADE_ADVISED_ORDER}.)`,
      candidates: orderCandidates((N) => `pade(${base}, ${N})`),
    };
  }
  const call: CallReading = {
    kind: 'call',
    tool: 'pade',
    args,
    origins,
    unused: [],
    notes,
    ...(sys?.label ? { system: sys.label } : {}),
    via: cmd === 'pade' ? 'command' : padeCall ? 'call' : 'words',
    ...(padeCall?.outputs.length === 1 ? { output: padeCall.outputs[0] } : {}),
  };
  inp.record(call);
  return call;
}

function readThiran(inp: DelayInput, callArgs: string[] | undefined, delay: FoundDelay | undefined): Reading {
  const { text, scope } = inp;
  const args: Record<string, unknown> = {};
  const origins: Record<string, Origin> = {};
  const num = (t: string | undefined) => (t === undefined ? undefined : numberOrName(t, scope));
  const pos = callArgs ?? [];
  // "a fractional delay of 0.35 s" (read.ts's phrases leave out delays near 'sampling')
  const words = new RegExp(String.raw`\bdelay\s*(?:of|=|:|is)?\s*(${NUM})\s*(ms|s|sec|seconds?)?(?![\w.])`, 'i').exec(text);
  const sample = findSampleTimes(text).find((x) => !x.unitless) ?? findSampleTimes(text)[0];
  if (pos[0] !== undefined && num(pos[0]) !== undefined) {
    args.tau = num(pos[0]);
    origins.tau = { from: 'message', text: pos[0] };
  } else if (delay) {
    args.tau = delay.T;
    origins.tau = { from: 'message', text: delay.text };
  } else if (words) {
    args.tau = timeQuantity(Number(words[1]), words[2] ?? 's');
    origins.tau = { from: 'message', text: words[0] };
  } else {
    const a = new RegExp(String.raw`(?<![\w.])(?:tau|Td|delay)\s*=\s*(${NUM}|[A-Za-z]\w*)(?:\s*(ms|s|sec|seconds?)(?![\w]))?`).exec(text);
    if (a && num(a[1]) !== undefined) {
      args.tau = a[2] ? timeQuantity(num(a[1])!, a[2]) : num(a[1]);
      origins.tau = { from: 'message', text: a[0] };
    }
  }
  if (pos[1] !== undefined && num(pos[1]) !== undefined) {
    args.Ts = num(pos[1]);
    origins.Ts = { from: 'message', text: pos[1] };
  } else if (sample) {
    args.Ts = sample.Ts;
    origins.Ts = { from: 'message', text: sample.text };
  } else {
    const a = new RegExp(
      String.raw`(?<![\w.])(?:T_?s|dt|sample time|sampling time|sampling period|sample period)\s*(?:=|of|:|is)?\s*(${NUM}|[A-Za-z]\w*)(?:\s*(ms|s|sec|seconds?)(?![\w]))?`,
      'i',
    ).exec(text);
    if (a && num(a[1]) !== undefined) {
      args.Ts = a[2] ? timeQuantity(num(a[1])!, a[2]) : num(a[1]);
      origins.Ts = { from: 'message', text: a[0] };
    }
  }
  const missing = ['tau', 'Ts'].filter((k) => args[k] === undefined);
  if (missing.length) {
    inp.record();
    return {
      kind: 'ask',
      question: `The Thiran filter needs ${missing.map((k) => (k === 'tau' ? 'the delay tau (s)' : 'the sample time Ts (s)')).join(' and ')}: e.g. \`thiran(2.4, 1)\` (a 2.4 s delay sampled at 1 s).`,
      candidates: [],
    };
  }
  const call: CallReading = {
    kind: 'call',
    tool: 'thiran',
    args,
    origins,
    unused: [],
    notes: [],
    via: inp.opts.command?.toLowerCase() === 'thiran' ? 'command' : callArgs ? 'call' : 'words',
  };
  inp.record(call);
  return call;
}
