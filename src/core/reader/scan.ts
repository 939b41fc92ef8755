/**
 * What a message contains, before any decision: matrices assigned by name, systems it defines
 * (transfer-function expressions, num/den, `ss(...)`, `tf(...)`, `zpk(...)`, SciPy tuples),
 * calls, sample times with units, a discretisation method, pole lists, design
 * specifications, time and frequency ranges, and what could not be read.
 */
import { findAssignments, isLiteralName } from '../parse/index.js';
import { parseMatrixLiteral } from '../parse/index.js';
import type { Matrix } from '../types.js';
import { findCalls, splitArgs, type CallFound } from './calls.js';
export const STATE_EQ_DISCRETE = /x\s*(?:\[\s*k\s*\+\s*1\s*\]|\(\s*k\s*\+\s*1\s*\))/i;
import type { System } from './conversation.js';
import { completeConjugates, findSampleTimes, findSpecs, readNumberList, timeQuantity, radPerSecond, type Cx, type Sample, type Specs } from './quantities.js';
import { findTfExpressions, parseTfExpression } from './tfexpr.js';
import { findTfMatrices, twoLevelTfAsk } from './mimo.js';

const NUMBER_WORDS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
};

export interface Assigned {
  value?: Matrix;
  error?: string;
  text: string;
}

export interface DefinedSystem {
  name?: string;
  sys: System;
  text: string;
  start: number;
}

export interface Scan {
  /** the message after small repairs (a `?` after a matrix, a `:` ending a clause) */
  text: string;
  assigns: Map<string, Assigned>;
  systems: DefinedSystem[];
  calls: CallFound[];
  samples: Sample[];
  method?: { value?: MethodName; unsupported?: string; text: string; prewarp?: number; prewarpText?: string };
  poles?: { values: Cx[]; text: string; added: Cx[] };
  specs: Specs;
  t?: { value: number[]; text: string };
  /** grids assigned to a name (T = np.linspace(0, 5, 11)), for calls that pass the name */
  grids: Map<string, number[]>;
  w?: { value: number[]; text: string };
  /** things recognised and not readable, said in the answer */
  problems: string[];
  /** weights given as the identity in words ("Q = I", "R is the identity"), sized by the reader */
  identity: Map<string, string>;
  /** readings of ambiguous notation, said in the answer */
  notes: string[];
  /** a transfer matrix whose entries read two ways ([1/(s+1) -1/(s+2)]): the message rewritten for each (reader/mimo.ts) */
  tfmAsk?: { text: string; candidates: { label: string; prompt: string }[] };
}

/** small repairs that keep the matrix readers from losing a value */
export function repair(text: string): string {
  return (
    text
      .replace(/[−–]/g, '-')
      .replace(/[“”]/g, '"')
      .replace(/[‘’]/g, "'")
      .replace(/\u00a0/g, ' ')
      // "R=1?" / "B=[0;1]?" / "…[0 1]." : a question mark or full stop right after a value ends the sentence
      .replace(/([\]\)\d])\s*[?!]+(?=\s|$)/g, '$1 ')
      .replace(/(\])\.(?=\s|$)/g, '$1 ')
      // "with Ts=0.1: A=..." : a colon before an assignment ends a clause, it is not a MATLAB range
      // "B=[0;1]: I want …": a colon right after a value ends it
      .replace(/([\])\d])\s*:(?=\s)/g, '$1 ;')
      // "A = [0 1; 9.81 0] -- stable?" : a dash separator is not a minus
      .replace(/\s--+\s/g, ' ; ')
      // "… -> hinf norm", "=> margins": an arrow separates, it is not a minus
      .replace(/\s*(?:->|=>|→)\s*/g, ' ; ')
      // "A is [[0, 1], [-2, -3]] and B is [[0], [1]]": a matrix named in prose
      .replace(/\b([A-Z]\w{0,3})\s+(?:is|equals|are)\s+(?=[\[(])/g, '$1 = ')
      // "Ts = 0,01 s": a decimal comma right before a unit (in prose; never inside brackets)
      .replace(/(?<![\[\d,])(\d+),(\d+)(?=\s*(?:ms|s|sec|seconds?|[uµμ]s|Hz|kHz|rad\/s)\b)/g, '$1.$2')
      // "increase R to 10", "set Ts to 0.05", "R on 10" (a non-native 'auf'): a new value, said as an assignment
      .replace(
        /\b(?:increase|decrease|set|change|raise|lower|make|put)\s+(R|Q|N|Ts|Qn|Rn|Q_?\w*|R_?\w*)\s+(?:on|to|at|=)\s+([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)/gi,
        '$1 = $2',
      )
      // "minus six" -> -6 (number words after minus/negative)
      .replace(
        /\b(minus|negative)\s+(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty)\b/gi,
        (_m, _s, w: string) => '-' + NUMBER_WORDS[w.toLowerCase()],
      )
      // "minus 5" -> -5
      .replace(/\bminus\s+(?=\d)/gi, '-')
      // EYE(2), ZEROS(2,1) written in capitals
      .replace(/\b(EYE|ZEROS|ONES|DIAG)\s*\(/g, (m) => m.toLowerCase())
  );
}

/** the value of a linspace/logspace/range that people write for t and w */
export function gridValue(text: string): number[] | undefined {
  const t = text.trim();
  let m = t.match(/^(?:np\.|numpy\.)?(linspace|logspace)\s*\(([^)]*)\)$/i);
  if (m) {
    const a = splitArgs(m[2]).map((x) => Number(x.text.replace(/^num\s*=/, '')));
    if (a.length < 2 || a.slice(0, 2).some((x) => !Number.isFinite(x))) return undefined;
    const n = a.length > 2 && Number.isFinite(a[2]) ? Math.round(a[2]) : m[1].toLowerCase() === 'linspace' ? 100 : 50;
    if (n < 2 || n > 100000) return undefined;
    const out = Array.from({ length: n }, (_, k) => a[0] + ((a[1] - a[0]) * k) / (n - 1));
    return m[1].toLowerCase() === 'logspace' ? out.map((x) => 10 ** x) : out;
  }
  m = t.match(/^\[?\s*([-+]?[\d.]+(?:e[-+]?\d+)?)\s*:\s*([-+]?[\d.]+(?:e[-+]?\d+)?)\s*(?::\s*([-+]?[\d.]+(?:e[-+]?\d+)?))?\s*\]?$/i);
  if (m) {
    const a = Number(m[1]);
    const step = m[3] !== undefined ? Number(m[2]) : 1;
    const b = Number(m[3] ?? m[2]);
    if (!(step > 0) || b < a) return undefined;
    const n = Math.floor((b - a) / step + 1e-9) + 1;
    if (n > 100000) return undefined;
    return Array.from({ length: n }, (_, k) => Number((a + k * step).toPrecision(15)));
  }
  m = t.match(/^(?:np\.)?arange\s*\(([^)]*)\)$/);
  if (m) {
    const a = splitArgs(m[1]).map((x) => Number(x.text));
    if (a.length !== 3 || a.some((x) => !Number.isFinite(x)) || !(a[2] > 0)) return undefined;
    const n = Math.ceil((a[1] - a[0]) / a[2] - 1e-9);
    if (n < 1 || n > 100000) return undefined;
    return Array.from({ length: n }, (_, k) => Number((a[0] + k * a[2]).toPrecision(15)));
  }
  return undefined;
}

/** the discretisation methods the tools take (c2d; d2c takes zoh, tustin, matched) */
export type MethodName = 'zoh' | 'foh' | 'tustin' | 'impulse' | 'matched' | 'euler' | 'backward_diff';

const METHODS: [RegExp, MethodName][] = [
  [/\b(?:tustin|bilinear|trapezoid(?:al)?(?: rule)?)\b/i, 'tustin'],
  [/\b(?:zoh|zero[- ]order[- ]hold)\b/i, 'zoh'],
  [/\b(?:foh|first[- ]order[- ]hold|triangle[- ]hold)\b/i, 'foh'],
  [/\bmatched\b(?:[- ]pole[- ]zero)?|\bpole[- ]zero[- ]match(?:ing|ed)\b|\bmpz\b/i, 'matched'],
  [/\bimpulse[- ]invarian(?:t|ce)\b/i, 'impulse'],
  [/\bpre-?warp(?:ing|ed)?\b/i, 'tustin'],
  [/\bbackward[- ](?:euler|diff(?:erence)?)\b/i, 'backward_diff'],
  [/\bforward[- ](?:euler|diff(?:erence)?)\b|(?<!\bbackward[- ])\beuler\b/i, 'euler'],
];

/** the keyword values of python-control, SciPy and MATLAB, by method */
const METHOD_KEYWORDS: Record<string, MethodName> = {
  zoh: 'zoh',
  foh: 'foh',
  tustin: 'tustin',
  bilinear: 'tustin',
  trapezoid: 'tustin',
  prewarp: 'tustin',
  matched: 'matched',
  impulse: 'impulse',
  imp: 'impulse',
  euler: 'euler',
  forward_diff: 'euler',
  backward_diff: 'backward_diff',
};

/**
 * The prewarp frequency written with the method: "prewarp at 10 rad/s", "prewarped at 2 Hz",
 * "prewarp_frequency=10", "'PrewarpFrequency', 10" (rad/s when no unit is written, as MATLAB
 * and python-control take it).
 */
function findPrewarp(text: string): { value?: number; text: string } | undefined {
  const m =
    text.match(
      /\bpre-?warp(?:ing|ed)?(?:[ _-]?frequency)?\s*(?:[=:]|\bat\b|\bof\b|\bto\b)?\s*['"]?\s*,?\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*(rad\s*\/\s*s(?:ec)?|[kKmM]?[hH]z)?/i,
    ) ??
    // words between: "prewarped Tustin at 2 Hz" (then the 'at' is required)
    text.match(/\bpre-?warp(?:ing|ed)?(?:\s+[A-Za-z]+){1,3}?\s+(?:at|of)\s+([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*(rad\s*\/\s*s(?:ec)?|[kKmM]?[hH]z)?/i) ??
    text.match(/\bpre-?warp(?:ing|ed)?\b/i);
  if (!m) return undefined;
  if (m[1] === undefined) return { text: m[0] };
  const v = Number(m[1]);
  const w = m[2] ? radPerSecond(v, m[2].replace(/\s+/g, '')) : v;
  return { value: w, text: m[0].trim() };
}

/** the discretisation method written in the message (a keyword argument or a word), with a prewarp frequency */
export function findMethod(text: string): Scan['method'] {
  const kw = text.match(/\bmethod\s*=\s*['"]?([A-Za-z_-]+)['"]?/i) ?? text.match(/c2d\s*\([^)]*,\s*['"]([A-Za-z_-]+)['"]\s*\)/i);
  const pw = findPrewarp(text);
  const withPrewarp = (f: NonNullable<Scan['method']>): Scan['method'] => {
    if (!pw) return f;
    if (f.value !== 'tustin') return { unsupported: `${f.value ?? f.unsupported} with prewarping`, text: `${f.text}, ${pw.text}` };
    if (pw.value === undefined) return { unsupported: 'prewarping without a frequency', text: pw.text };
    return { ...f, prewarp: pw.value, prewarpText: pw.text };
  };
  const found: { value?: MethodName; unsupported?: string; text: string }[] = [];
  if (kw) {
    const v = kw[1].toLowerCase();
    if (METHOD_KEYWORDS[v]) return withPrewarp({ value: METHOD_KEYWORDS[v], text: kw[0] });
    return { unsupported: v, text: kw[0] };
  }
  for (const [re, v] of METHODS) {
    const m = text.match(re);
    if (m) found.push({ value: v, text: m[0] });
  }
  const values = [...new Set(found.map((f) => f.value))];
  if (values.length > 1) return { unsupported: values.join(' and '), text: found.map((f) => f.text).join(', ') };
  return found[0] ? withPrewarp(found[0]) : undefined;
}

const POLE_WORD = /\b(?:poles?|eigenvalues?|eigs|roots)\b|eig\s*\(\s*A\s*-\s*B\s*\*?\s*K\s*\)|(?<![\w.])p\s*=|\b(?:at|to)\b/gi;

/**
 * A pole list after a pole word ("poles", "eigenvalues", "p =", "at", "to"): the first list
 * within a few words after it ("poles of the closed loop should be -0.5±0.5i"), not crossing
 * another assignment or a matrix.
 */
export function findPoles(text: string): Scan['poles'] {
  let best: { values: Cx[]; text: string } | undefined;
  POLE_WORD.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = POLE_WORD.exec(text))) {
    const isAtTo = /^(at|to)$/i.test(m[0]);
    const from = m.index + m[0].length;
    const limit = Math.min(text.length, from + (isAtTo ? 8 : 48));
    let list: ReturnType<typeof readNumberList>;
    for (let i = from; i < limit; i++) {
      const c = text[i];
      if (c === '[' && /[=]\s*$/.test(text.slice(from, i)) === false && /^\[\s*[-+\d.]/.test(text.slice(i)) === false) break;
      if (/[;\n]/.test(c) || (c === '=' && i > from && !/^\s*(?:s\s*)?=\s*$/.test(text.slice(from, i + 1)) && !/s\s*=\s*$/.test(text.slice(from, i + 1))))
        break;
      if (!/[-+\d.\[{(−]/.test(c)) continue;
      // "P = tf(4, [1 2 0])": a call's arguments are no pole list
      if (c === '(' && /\w/.test(text[i - 1] ?? '')) break;
      if (/[\w.]/.test(text[i - 1] ?? '') && /\d/.test(c)) continue;
      // "poles for damping 0.7": the number belongs to another word
      if (/damping|zeta|ζ|frequency|overshoot|settling|time|sampl|gain|weight|order|states?\b|\bR\b|\bQ\b/i.test(text.slice(from, i))) break;
      list = readNumberList(text, i);
      break;
    }
    if (!list) continue;
    // "at 10 Hz", "to 0.1 s", "poles of 1/(s^2+…)": a quantity or an expression, not a pole
    const after = text.slice(list.end, list.end + 12);
    if (/^(?:\s*(?:hz|khz|rad|s\b|sec|ms|%|dB|deg|seconds?|x|\*|states?|\/)|[(^])/i.test(after)) continue;
    // a matrix ("eigs of [0 1 0; 0 0 1; …]") is not a list of poles
    if (/^\[[^\]]*;[^\]]*\]/.test(list.text) && /\d\s+[-+]?\d[^;\]]*;/.test(list.text)) continue;
    // "a double pole at -3", "both poles at -4": the value repeated
    const before = text.slice(Math.max(0, m.index - 30), from);
    const rep = /\b(double|both|two|repeated)\b/i.test(before) ? 2 : /\b(triple|three)\b/i.test(before) ? 3 : 1;
    if (rep > 1 && list.values.length === 1) list.values = Array(rep).fill(list.values[0]);
    if (!best || list.values.length > best.values.length) best = { values: list.values, text: text.slice(m.index, list.end).trim() };
  }
  if (!best) return undefined;
  const c = completeConjugates(best.values);
  return { values: c.values, text: best.text, added: c.added };
}

/** "for 10 s", "over 5 seconds", "t = 0:0.01:5", "up to t = 8", "from 0.1 to 100 rad/s", "between 1 and 10 Hz" */
function findGrids(text: string, assigns: Map<string, Assigned>): Pick<Scan, 't' | 'w' | 'grids'> {
  const out: Pick<Scan, 't' | 'w' | 'grids'> = { grids: new Map() };
  const NUM = String.raw`([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)`;
  let m = text.match(new RegExp(String.raw`\b(?:for|over|during|up to|until|to)\s+(?:t\s*=\s*)?(?:the\s+first\s+)?${NUM}\s*(ms|s|sec|secs|seconds?)\b`, 'i'));
  if (m) {
    const T = timeQuantity(Number(m[1]), m[2]);
    if (T && T > 0) out.t = { value: Array.from({ length: 401 }, (_, k) => (T * k) / 400), text: m[0] };
  }
  m = text.match(new RegExp(String.raw`\b(?:from|between)\s+${NUM}\s*(rad\s*/\s*s|[kK]?Hz)?\s+(?:to|up to|and)\s+${NUM}\s*(rad\s*/\s*s|[kK]?Hz)`, 'i'));
  if (m) {
    const u1 = (m[2] ?? m[4]).replace(/\s/g, '');
    const a = radPerSecond(Number(m[1]), u1);
    const b = radPerSecond(Number(m[3]), m[4].replace(/\s/g, ''));
    if (a && b && b > a && a > 0) {
      const la = Math.log10(a),
        lb = Math.log10(b);
      out.w = { value: Array.from({ length: 200 }, (_, k) => 10 ** (la + ((lb - la) * k) / 199)), text: m[0] };
    }
  }
  // w = logspace(...), t = 0:0.01:5, t = np.linspace(0, 5, 501): assignments the literal reader skips
  const re =
    /(?<![\w.])(t|T|time|tvec|w|omega|W|freqs|ω)\s*=\s*((?:np\.|numpy\.)?(?:linspace|logspace|arange)\s*\([^)]*\)|\[?\s*[-+\d.e]+\s*:\s*[-+\d.e]+(?:\s*:\s*[-+\d.e]+)?\s*\]?)/g;
  let g: RegExpExecArray | null;
  while ((g = re.exec(text))) {
    const v = gridValue(g[2]);
    if (!v) continue;
    const isT = /^(t|T|time|tvec)$/.test(g[1]);
    if (isT) out.t = { value: v, text: g[0] };
    else out.w = { value: v, text: g[0] };
    assigns.delete(g[1]);
    out.grids.set(g[1], v);
  }
  // points: "at 1 Hz and 10 Hz", "at w = 3 rad/s", "at t = 0, 0.5 s, 1 s", "at t = [0 250 500] ms"
  const pts = findPoints(text);
  if (pts.w && !out.w) out.w = pts.w;
  if (pts.t && !out.t) out.t = pts.t;
  return out;
}

const UNIT = String.raw`(?:rad\s*/\s*s(?:ec)?|[kKmM]?Hz|ms|s|sec|secs|seconds?)`;
const ITEM = new RegExp(String.raw`^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(${UNIT})?(?![\w/])`);

/** lists of time or frequency points written with units */
export function findPoints(text: string): Pick<Scan, 't' | 'w'> {
  const out: Pick<Scan, 't' | 'w'> = {};
  const anchor = /\b(?:at|for)\s+(?:(t|w|ω|omega|f|freq(?:uency)?|time)\s*=\s*)?|(?<![\w.])(t|w|ω|omega)\s*=\s*/gi;
  let m: RegExpExecArray | null;
  while ((m = anchor.exec(text))) {
    const v = (m[1] ?? m[2] ?? '').toLowerCase();
    if (/sampl\w*\s*$/i.test(text.slice(Math.max(0, m.index - 12), m.index))) continue;
    let i = m.index + m[0].length;
    let bracket = false;
    if (text[i] === '[') {
      bracket = true;
      i++;
    }
    const items: { x: number; u?: string }[] = [];
    for (;;) {
      const it = ITEM.exec(text.slice(i));
      if (!it) break;
      items.push({ x: Number(it[1]), u: it[2]?.replace(/\s/g, '') });
      i += it[0].length;
      const sep = /^\s*(?:,|;|and\b|&)?\s*(?:at\s+)?/.exec(text.slice(i))!;
      if (!ITEM.test(text.slice(i + sep[0].length))) break;
      i += sep[0].length;
    }
    if (!items.length) continue;
    if (/^\s*:/.test(text.slice(i))) continue; // a MATLAB range, read by findGrids
    if (bracket) {
      const close = /^\s*\]\s*/.exec(text.slice(i));
      if (!close) continue;
      i += close[0].length;
      const tail = new RegExp(String.raw`^(${UNIT})(?![\w/])`).exec(text.slice(i));
      if (tail) {
        for (const it of items) it.u ??= tail[1].replace(/\s/g, '');
        i += tail[0].length;
      }
    }
    // a unit at the end applies to the numbers written without one ("0, 100, 200 ms")
    const lastU = [...items].reverse().find((it) => it.u)?.u;
    const isFreq = (u?: string) => !!u && (/hz$/i.test(u) || /^rad/i.test(u));
    const isTime = (u?: string) => !!u && !isFreq(u);
    const kind =
      items.some((it) => isFreq(it.u)) || /^(w|ω|omega|f|freq|frequency)$/.test(v)
        ? 'w'
        : items.some((it) => isTime(it.u)) || /^(t|time)$/.test(v)
          ? 't'
          : undefined;
    if (!kind) continue;
    if (kind === 'w' && items.some((it) => isTime(it.u))) continue;
    if (kind === 't' && items.some((it) => isFreq(it.u))) continue;
    if (kind === 't' && !v && items.length === 1) continue; // "for 10 s" is a duration: findGrids reads it
    const values: number[] = [];
    for (const it of items) {
      const u = it.u ?? lastU;
      if (kind === 'w') {
        const w = u ? radPerSecond(it.x, u) : it.x;
        if (w === undefined) break;
        values.push(w);
      } else {
        const tt = u ? timeQuantity(it.x, u) : it.x;
        if (tt === undefined) break;
        values.push(tt);
      }
    }
    if (values.length !== items.length) continue;
    const src = text.slice(m.index, i).trim();
    if (kind === 'w' && !out.w) out.w = { value: values, text: src };
    if (kind === 't' && !out.t) out.t = { value: values, text: src };
  }
  return out;
}

/** the matrices of state equations written with literal matrices */
function stateEquations(text: string, assigns: Map<string, Assigned>): void {
  const MAT = String.raw`(\[[^\[\]]*(?:\[[^\[\]]*\][^\[\]]*)*\]|[-+]?\d+\.?\d*)`;
  const lhsX = String.raw`(?:x\s*'|ẋ|x_?dot|xdot|dx\s*/\s*dt|x\s*\[\s*k\s*\+\s*1\s*\]|x\s*\(\s*k\s*\+\s*1\s*\))(?:\s*\(t\))?`;
  const xv = String.raw`x(?:\s*\[\s*k\s*\]|\s*\(\s*[kt]\s*\))?`;
  const uv = String.raw`u(?:\s*\[\s*k\s*\]|\s*\(\s*[kt]\s*\))?`;
  const st = new RegExp(String.raw`${lhsX}\s*=\s*${MAT}\s*\*?\s*${xv}\s*\+\s*${MAT}\s*\*?\s*${uv}`, 'i').exec(text);
  const read = (name: string, lit: string) => {
    if (assigns.get(name)?.value) return;
    try {
      assigns.set(name, { value: parseMatrixLiteral(lit), text: `${name} = ${lit}` });
    } catch {
      /* not a matrix */
    }
  };
  if (st) {
    read('A', st[1]);
    read('B', st[2]);
  }
  const out = new RegExp(String.raw`(?<![\w.])y(?:\s*\[\s*k\s*\]|\s*\(\s*[kt]\s*\))?\s*=\s*${MAT}\s*\*?\s*${xv}(?:\s*\+\s*${MAT}\s*\*?\s*${uv})?`, 'i').exec(
    text,
  );
  if (out && st) {
    read('C', out[1]);
    if (out[2]) read('D', out[2]);
  }
}

/**
 * Assignments whose values use names assigned before them (`Q = C'*C`, `G = B`,
 * `B = np.array([[Ts**2/2], [Ts]])`): the names are replaced by their values and the result
 * is read by the same restricted literal reader, so nothing but numeric construction runs.
 */
function derivedAssignments(text: string, assigns: Map<string, Assigned>): void {
  const re = /(?<![\w.])([A-Za-z_]\w*)\s*=(?!=)\s*([^;\n%#]+)/g;
  for (let pass = 0; pass < 3; pass++) {
    let progress = false;
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) {
      const name = m[1];
      const expr = m[2].trim().replace(/[,.]$/, '');
      if (assigns.get(name)?.value || !expr) continue;
      const ids = expr.match(/(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*(?!\s*\()/g) ?? [];
      const refs = ids.filter((id) => !isLiteralName(id) && id !== 'T' && !/^(np|numpy)\./.test(id));
      if (!refs.length || !refs.every((id) => assigns.get(id)?.value)) continue;
      let sub = expr;
      for (const id of [...new Set(refs)].sort((a, b) => b.length - a.length)) {
        const v = assigns.get(id)!.value!;
        const lit = v.length === 1 && v[0].length === 1 ? `(${v[0][0]})` : `(${JSON.stringify(v)})`;
        sub = sub.replace(new RegExp(`(?<![\\w.])${id}(?![\\w(])`, 'g'), lit);
      }
      try {
        assigns.set(name, { value: parseMatrixLiteral(sub), text: `${name} = ${expr}` });
        progress = true;
      } catch {
        /* an expression we do not read (a product of unknowns, a call) */
      }
    }
    if (!progress) break;
  }
}

export function scanMessage(message: string): Scan {
  const notes: string[] = [];
  // MATLAB's display of a transfer function pasted back:
  //   G =\n\n      2 s + 6\n  -------------\n  s^2 + 6 s + 8\n\n  Sample time: 0.1 seconds\n  Discrete-time transfer function.
  let pasted = message.replace(
    /(?:^|\n)\s*([A-Za-z_]\w*)\s*=\s*\n(?:\s*\n)*[ \t]*([^\n]*[\dsz][^\n]*)\n[ \t]*-{3,}[ \t]*\n[ \t]*([^\n]+)\n((?:[ \t]*\n|[ \t]*(?:Sample time:[^\n]*|Continuous-time[^\n]*|Discrete-time[^\n]*|Model Properties[^\n]*)\n?)*)/gi,
    (_m, name: string, num: string, den: string, tail: string) => {
      const ts = tail.match(/Sample time:\s*([\d.eE+-]+)\s*seconds?/i);
      return `\n${name} = (${num.trim()})/(${den.trim()})${ts ? `, Ts = ${ts[1]} s` : ''}\n`;
    },
  );
  // MATLAB's display of a result pasted back ("K =\n\n    0.2361    0.2361\n"): a matrix assignment
  pasted = pasted.replace(
    /(?:^|\n)\s*([A-Za-z_]\w*)\s*=\s*\n\s*\n((?:[ \t]*[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?(?:[ \t]+[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)*[ \t]*\n?)+)/gi,
    (_m, name: string, body: string) => {
      const rows = body
        .trim()
        .split(/\n/)
        .map((r) => r.trim())
        .filter(Boolean);
      return `\n${name} = [${rows.join('; ')}]\n`;
    },
  );
  // "Q = diag(100, 1)" for a weight: the diagonal 100, 1 (MATLAB's diag(v, k) would put 100 on a superdiagonal, which is no weight)
  pasted = pasted.replace(/\b(Q|R|N|Qn|Rn|W|V|Qw|Rv)\s*=\s*diag\(\s*([-+]?[\d.eE+-]+(?:\s*,\s*[-+]?[\d.eE+-]+)+)\s*\)/g, (_m, name: string, list: string) => {
    notes.push(
      `${name} = diag(${list}) read as the diagonal matrix diag([${list}]) (in MATLAB, diag(v, k) would put v on the k-th diagonal, which is no weight matrix)`,
    );
    return `${name} = diag([${list}])`;
  });
  const text = repair(pasted);
  const problems: string[] = [];
  const assigns = new Map<string, Assigned>();
  for (const a of findAssignments(text)) assigns.set(a.name, { value: a.value, error: a.error, text: `${a.name} = ${a.valueText}` });
  // "A P A' - P + Q = 0": the right-hand side of an equation is not an assignment
  for (const [name] of [...assigns]) {
    if (
      /=\s*0$/.test(assigns.get(name)!.text) &&
      new RegExp(`[-+*/−]\\s*${name}\\s*=\\s*0(?![\\d.])`).test(text) &&
      !new RegExp(`(?:^|[\\s,;(])${name}\\s*=\\s*0(?![\\d.])`).test(text.replace(new RegExp(`[-+*/−]\\s*${name}\\s*=\\s*0`), ''))
    )
      assigns.delete(name);
  }
  // python tuple assignment: num, den = [1.0], [1.0, 0.6, 1.0]
  for (const m of text.matchAll(/(?:^|[;\n])\s*([A-Za-z_]\w*)\s*,\s*([A-Za-z_]\w*)\s*=(?!=)\s*([^\n;]+)/g)) {
    const parts = splitArgs(m[3].trim().replace(/^\(([\s\S]*)\)$/, '$1'));
    if (parts.length !== 2 || parts.some((p) => p.name)) continue;
    [m[1], m[2]].forEach((name, k) => {
      try {
        // the tuple is the whole statement: it wins over the partial `den = [1.0]` the literal finder saw
        assigns.set(name, { value: parseMatrixLiteral(parts[k].text), text: `${name} = ${parts[k].text}` });
      } catch {
        /* not literals */
      }
    });
  }
  // state equations: x' = [..]x + [..]u, ẋ = …, x_dot = …, x[k+1] = …, y = [..]x + [..]u
  stateEquations(text, assigns);
  derivedAssignments(text, assigns);
  // a JSON object of arguments: {"A": [[0,1],[-2,-3]], "B": [[0],[1]], ...}
  const t0 = text.trim();
  if (t0.startsWith('{') && t0.endsWith('}')) {
    try {
      const obj = JSON.parse(t0) as Record<string, unknown>;
      for (const [k, v] of Object.entries(obj)) {
        const m = typeof v === 'number' ? [[v]] : Array.isArray(v) ? (v.every((x) => typeof x === 'number') ? [v as number[]] : (v as number[][])) : undefined;
        if (m && /^[A-Za-z_]\w*$/.test(k)) assigns.set(k, { value: m, text: `${k} = ${JSON.stringify(v)}` });
      }
    } catch {
      /* not JSON: read as text */
    }
  }
  const systems: DefinedSystem[] = [];
  const scalars: Record<string, number> = {};
  for (const [k, a] of assigns)
    if (a.value?.length === 1 && a.value[0].length === 1 && /^[A-Za-z]\w*$/.test(k) && !/^(s|z|T_?s|dt|A|B|C|D|Q|R|N)$/.test(k)) scalars[k] = a.value[0][0];
  // the gain K of a root locus is the locus parameter: the transfer function is read with K = 1
  if (/\b(?:root[- ]?locus|rlocus|evans)\b/i.test(text))
    for (const k of ['K', 'k'])
      if (scalars[k] === undefined && new RegExp(`(?<![\\w.])${k}(?![\\w(])`).test(text)) {
        scalars[k] = 1;
        notes.push(`${k} is the root-locus gain: the transfer function is read with ${k} = 1 and the locus runs over the gain`);
      }
  const tfs = findTfExpressions(text, scalars);
  for (const f of tfs.found) {
    // a name assigned a matrix literal is a matrix, not a transfer function
    if (f.name && assigns.has(f.name) && assigns.get(f.name)!.value) continue;
    systems.push({
      name: f.name && !/^(s|z)$/.test(f.name) ? f.name : undefined,
      sys: { kind: 'tf', num: f.tf.num, den: f.tf.den, variable: f.tf.variable },
      text: f.text,
      start: f.start,
    });
  }
  for (const e of tfs.errors) problems.push(`${e.text}: ${e.message}`);
  // a matrix of transfer functions: G = [1/(s+1) 2/(s+2); 0 1/(s+3)] (reader/mimo.ts)
  let tfmAsk: Scan['tfmAsk'];
  for (const f of findTfMatrices(text)) {
    if (f.ambiguous) tfmAsk ??= { text: f.text, candidates: f.ambiguous.map((a) => ({ label: a.label, prompt: text.replace(f.text, a.text) })) };
    else if (f.error) problems.push(f.error);
    else if (f.sys) systems.push({ name: f.name, sys: f.sys, text: f.text, start: f.start });
  }
  const calls = findCalls(text);
  tfmAsk ??= twoLevelTfAsk(text, calls);
  const identity = new Map<string, string>();
  for (const m of text.matchAll(
    /(?<![\w.])(Q|R|Qn|Rn|W|V|N|G|Q_?w|R_?v)\s*(?:=|is|equals|as)\s*(?:an?\s+|the\s+)?(?:I|identity(?:\s+matrix)?|eye|unit matrix)(?![\w(])/g,
  )) {
    if (!assigns.get(m[1])?.value) identity.set(m[1], m[0]);
  }
  const samples = findSampleTimes(text);
  const grids = findGrids(text, assigns);
  // Ts written with a unit: the literal reader took only the number
  for (const k of [...assigns.keys()]) if (/^(T_?s|dt|Tsample|h)$/i.test(k) && samples.length) assigns.delete(k);
  return {
    text,
    assigns,
    systems,
    calls,
    samples,
    method: findMethod(text),
    poles: findPoles(text),
    specs: findSpecs(text),
    ...grids,
    problems,
    identity,
    notes,
    ...(tfmAsk ? { tfmAsk } : {}),
  };
}

export { parseMatrixLiteral, parseTfExpression };
