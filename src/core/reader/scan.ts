/**
 * What a message contains, before any decision: matrices assigned by name, systems it defines
 * (transfer-function expressions, num/den, `ss(...)`, `tf(...)`, `zpk(...)`, SciPy tuples),
 * calls, sample times with units, a discretisation method, pole lists, design
 * specifications, time and frequency ranges, and what could not be read.
 */
import { findAssignments } from '../parse/index.js';
import { parseMatrixLiteral } from '../parse/index.js';
import type { Matrix } from '../types.js';
import { findCalls, splitArgs, type CallFound } from './calls.js';
import type { System } from './conversation.js';
import { completeConjugates, findSampleTimes, findSpecs, readNumberList, timeQuantity, radPerSecond, type Cx, type Sample, type Specs } from './quantities.js';
import { findTfExpressions, parseTfExpression } from './tfexpr.js';

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
  method?: { value?: 'zoh' | 'foh' | 'tustin'; unsupported?: string; text: string };
  poles?: { values: Cx[]; text: string; added: Cx[] };
  specs: Specs;
  t?: { value: number[]; text: string };
  w?: { value: number[]; text: string };
  /** things recognised and not readable, said in the answer */
  problems: string[];
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
      // "with Ts=0.1: A=..." : a colon that ends a clause is a separator, not a MATLAB range
      .replace(/(\S)\s*:(?=\s)/g, '$1 ;')
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

/** polynomial coefficients (highest first) with the given roots, times k */
export function polyFromRoots(roots: Cx[], k = 1): number[] {
  let c: Cx[] = [[1, 0]];
  for (const [r, i] of roots) {
    const next: Cx[] = Array.from({ length: c.length + 1 }, () => [0, 0] as Cx);
    for (let j = 0; j < c.length; j++) {
      next[j][0] += c[j][0];
      next[j][1] += c[j][1];
      // - root * c[j] into next[j + 1]
      next[j + 1][0] -= r * c[j][0] - i * c[j][1];
      next[j + 1][1] -= r * c[j][1] + i * c[j][0];
    }
    c = next;
  }
  return c.map(([re]) => (Math.abs(re) < 1e-14 ? 0 : re * k));
}

const METHODS: [RegExp, 'zoh' | 'foh' | 'tustin' | string][] = [
  [/\b(?:tustin|bilinear|trapezoid(?:al)?(?: rule)?)\b/i, 'tustin'],
  [/\b(?:zoh|zero[- ]order[- ]hold)\b/i, 'zoh'],
  [/\b(?:foh|first[- ]order[- ]hold|triangle[- ]hold)\b/i, 'foh'],
  [/\bmatched\b(?:[- ]pole[- ]zero)?|\bmpz\b/i, 'matched'],
  [/\bimpulse[- ]invarian(?:t|ce)\b/i, 'impulse-invariant'],
  [/\bpre-?warp(?:ing|ed)?\b/i, 'prewarp'],
  [/\b(?:forward|backward)[- ](?:euler|diff(?:erence)?)\b|\beuler\b/i, 'euler'],
];

/** the discretisation method written in the message (a keyword argument or a word) */
export function findMethod(text: string): Scan['method'] {
  const kw = text.match(/\bmethod\s*=\s*['"]?([A-Za-z_-]+)['"]?/i) ?? text.match(/c2d\s*\([^)]*,\s*['"]([A-Za-z_-]+)['"]\s*\)/i);
  const found: { value?: 'zoh' | 'foh' | 'tustin'; unsupported?: string; text: string }[] = [];
  if (kw) {
    const v = kw[1].toLowerCase();
    const map: Record<string, 'zoh' | 'foh' | 'tustin'> = { zoh: 'zoh', foh: 'foh', tustin: 'tustin', bilinear: 'tustin', trapezoid: 'tustin' };
    if (map[v]) return { value: map[v], text: kw[0] };
    return { unsupported: v, text: kw[0] };
  }
  for (const [re, v] of METHODS) {
    const m = text.match(re);
    if (m) found.push(v === 'zoh' || v === 'foh' || v === 'tustin' ? { value: v, text: m[0] } : { unsupported: v, text: m[0] });
  }
  // "tustin with prewarping": the unsupported part must not be dropped
  const bad = found.find((f) => f.unsupported);
  if (bad) return bad;
  const values = [...new Set(found.map((f) => f.value))];
  if (values.length > 1) return { unsupported: values.join(' and '), text: found.map((f) => f.text).join(', ') };
  return found[0];
}

const POLE_ANCHOR = /\b(?:closed[- ]loop\s+)?(?:poles?|eigenvalues?|eigs?|roots|p|pdes|desired_poles)\b\s*(?:=|:)?\s*(?:(?:should|must|to|will)\s+)?(?:(?:be|are|is)\s+)?(?:(?:placed|located|put|moved|set)\s+)?(?:(?:at|to|in|of|@)\s+)?(?:s\s*=\s*)?|\b(?:place\s+(?:them|the poles|it|poles)?\s*|placed\s+|instead\s+)?(?:at|to)\s+(?:s\s*=\s*)?/gi;

/** a pole list after "poles", "at", "to", "p =" */
export function findPoles(text: string): Scan['poles'] {
  let best: { values: Cx[]; text: string } | undefined;
  POLE_ANCHOR.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = POLE_ANCHOR.exec(text))) {
    if (m[0].length === 0) {
      POLE_ANCHOR.lastIndex++;
      continue;
    }
    const list = readNumberList(text, m.index + m[0].length);
    if (!list) continue;
    // "at 10 Hz", "to 0.1 s": a quantity, not a pole
    const after = text.slice(list.end, list.end + 12);
    if (/^\s*(?:hz|khz|rad|s\b|sec|ms|%|dB|deg|seconds?)/i.test(after)) continue;
    // stable candidates only count as poles when they are all numbers and not Ts or a gain
    if (!best || list.values.length > best.values.length) best = { values: list.values, text: text.slice(m.index, list.end).trim() };
  }
  if (!best) return undefined;
  const c = completeConjugates(best.values);
  return { values: c.values, text: best.text, added: c.added };
}

/** "for 10 s", "over 5 seconds", "t = 0:0.01:5", "up to t = 8", "from 0.1 to 100 rad/s" */
function findGrids(text: string, assigns: Map<string, Assigned>): Pick<Scan, 't' | 'w'> {
  const out: Pick<Scan, 't' | 'w'> = {};
  const NUM = String.raw`([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)`;
  let m = text.match(new RegExp(String.raw`\b(?:for|over|during|up to|until|to)\s+(?:t\s*=\s*)?(?:the\s+first\s+)?${NUM}\s*(ms|s|sec|secs|seconds?)\b`, 'i'));
  if (m) {
    const T = timeQuantity(Number(m[1]), m[2]);
    if (T && T > 0) out.t = { value: Array.from({ length: 401 }, (_, k) => (T * k) / 400), text: m[0] };
  }
  m = text.match(new RegExp(String.raw`\bfrom\s+${NUM}\s*(rad\s*/\s*s|[kK]?Hz)?\s+(?:to|up to|and)\s+${NUM}\s*(rad\s*/\s*s|[kK]?Hz)`, 'i'));
  if (m) {
    const u1 = (m[2] ?? m[4]).replace(/\s/g, '');
    const a = radPerSecond(Number(m[1]), u1);
    const b = radPerSecond(Number(m[3]), m[4].replace(/\s/g, ''));
    if (a && b && b > a && a > 0) {
      const la = Math.log10(a), lb = Math.log10(b);
      out.w = { value: Array.from({ length: 200 }, (_, k) => 10 ** (la + ((lb - la) * k) / 199)), text: m[0] };
    }
  }
  // w = logspace(...), t = 0:0.01:5, t = np.linspace(0, 5, 501): assignments the literal reader skips
  const re = /(?<![\w.])(t|T|time|tvec|w|omega|W|freqs|ω)\s*=\s*((?:np\.|numpy\.)?(?:linspace|logspace|arange)\s*\([^)]*\)|\[?\s*[-+\d.e]+\s*:\s*[-+\d.e]+(?:\s*:\s*[-+\d.e]+)?\s*\]?)/g;
  let g: RegExpExecArray | null;
  while ((g = re.exec(text))) {
    const v = gridValue(g[2]);
    if (!v) continue;
    const isT = /^(t|T|time|tvec)$/.test(g[1]);
    if (isT) out.t = { value: v, text: g[0] };
    else out.w = { value: v, text: g[0] };
    assigns.delete(g[1]);
  }
  // a single frequency "at 10 rad/s" / "at 5 Hz" for a frequency response
  if (!out.w) {
    const one = text.match(new RegExp(String.raw`\bat\s+(?:ω\s*=\s*|w\s*=\s*)?${NUM}\s*(rad\s*/\s*s|[kK]?Hz)\b`, 'i'));
    if (one && !/sampl/i.test(text.slice(Math.max(0, (one.index ?? 0) - 20), one.index))) {
      const w = radPerSecond(Number(one[1]), one[2].replace(/\s/g, ''));
      if (w !== undefined && w >= 0) out.w = { value: [w], text: one[0] };
    }
  }
  return out;
}

export function scanMessage(message: string): Scan {
  const text = repair(message);
  const problems: string[] = [];
  const assigns = new Map<string, Assigned>();
  for (const a of findAssignments(text)) assigns.set(a.name, { value: a.value, error: a.error, text: `${a.name} = ${a.valueText}` });
  const systems: DefinedSystem[] = [];
  const tfs = findTfExpressions(text);
  for (const f of tfs.found) {
    // a name assigned a matrix literal is a matrix, not a transfer function
    if (f.name && assigns.has(f.name) && assigns.get(f.name)!.value) continue;
    systems.push({ name: f.name && !/^(s|z)$/.test(f.name) ? f.name : undefined, sys: { kind: 'tf', num: f.tf.num, den: f.tf.den, variable: f.tf.variable }, text: f.text, start: f.start });
  }
  for (const e of tfs.errors) problems.push(`${e.text}: ${e.message}`);
  const calls = findCalls(text);
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
  };
}

export { parseMatrixLiteral, parseTfExpression };
