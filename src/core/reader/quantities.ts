/**
 * Numbers as people write them in a request: with units (mathjs units: "50 ms", "10 Hz",
 * "2 rad/s", "45 deg"), complex numbers ("-2±1j", "-1+1i", "-2 +/- 3j"), lists of poles
 * ("at -5 and -6", "[-1+2i, -1-2i]"), and design specifications (damping, natural frequency,
 * overshoot, settling time) turned into poles by the textbook second-order formulas.
 *
 * The list grammar is small and hand-written: items are numbers or complex numbers, separated
 * by commas, semicolons, spaces or "and", optionally in brackets. Unit conversion is mathjs's.
 */
import { unit } from 'mathjs';
import { prototypeRise } from '../solvers/secondorder.js';

const NUM = String.raw`[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?`;

/** a time in seconds from "50 ms", "0.05 s", "50ms", "100 us", "100 µs", "2 min" */
export function timeQuantity(value: number, u: string | undefined): number | undefined {
  if (!u) return undefined;
  const name = u
    .replace('µ', 'u')
    .replace('μ', 'u')
    .replace(/^(sec|secs|second|seconds)$/i, 's')
    .replace(/^(msec|millisecond|milliseconds)$/i, 'ms');
  try {
    const q = unit(value, name);
    if (!q.equalBase(unit(1, 's'))) return undefined;
    return q.toNumber('s');
  } catch {
    return undefined;
  }
}

/** a frequency in Hz ("10 Hz", "1 kHz") */
export function hertz(value: number, u: string | undefined): number | undefined {
  if (!u || !/hz$/i.test(u)) return undefined;
  try {
    return unit(value, u.replace(/hz$/i, 'Hz').replace(/^K/, 'k')).toNumber('Hz');
  } catch {
    return undefined;
  }
}

/** an angular frequency in rad/s from "2 rad/s", "10 Hz" (2π·10), "100 rpm" */
export function radPerSecond(value: number, u: string | undefined): number | undefined {
  if (!u) return undefined;
  const hz = hertz(value, u);
  if (hz !== undefined) return 2 * Math.PI * hz;
  if (/^rad\s*\/\s*s(ec)?$/i.test(u)) return value;
  return undefined;
}

export interface Sample {
  Ts: number;
  /** the words it was read from */
  text: string;
  /** a number written with no unit */
  unitless: boolean;
}

const TIME_UNIT = String.raw`(?:ms|msec|milliseconds?|[uµμ]s|ns|s|sec|secs|seconds?|min)`;
const FREQ_UNIT = String.raw`(?:[kKmM]?[hH]z)`;

/**
 * The sample time a message gives: "Ts = 50 ms", "Ts=0.1", "sample time of 0.05 s",
 * "sampled at 10 Hz", "sampling frequency 1 kHz", "fs = 100 Hz", "dt=0.01", "T = 0.1 s".
 */
export function findSampleTimes(text: string): Sample[] {
  const out: Sample[] = [];
  const seen = new Set<number>();
  const push = (at: number, s: Sample) => {
    if (!seen.has(at)) {
      seen.add(at);
      out.push(s);
    }
  };
  const period = new RegExp(
    String.raw`(?<![\w.])(?:T_?s|T_?sample|dt|Tsamp|samp[a-z]{0,5}[ -](?:time|period|interval)|sample[ -]?rate[ -]period|period)\s*(?:=|:|of|is|was|were|becomes|equal to|equals|to)?\s*(?:=\s*)?(${NUM})\s*(${TIME_UNIT}|${FREQ_UNIT})?(?![\w/])`,
    'gi',
  );
  let m: RegExpExecArray | null;
  while ((m = period.exec(text))) {
    const v = Number(m[1]);
    const u = m[2];
    const hz = hertz(v, u);
    const s = hz !== undefined ? 1 / hz : u ? timeQuantity(v, u) : v;
    // "a square wave of period 4 s", "a sine input, period 2 s": the period of a signal, not a sample time
    if (/^period/i.test(m[0]) && /\b(?:wave|sine|sinus\w*|square|pulse|signal|input|oscillation)\b[^.;]{0,40}$/i.test(text.slice(0, m.index))) continue;
    // lower-case ts beside damping or overshoot is a settling time
    if (/^ts\b/.test(m[0]) && /damping|zeta|ζ|overshoot|\bM_?p\b|natural frequency|\bw_?n\b|ω_?n/i.test(text)) continue;
    if (s !== undefined) push(m.index, { Ts: s, text: m[0].trim(), unitless: !u });
  }
  // T = 0.1 s only with a time unit (a bare T is too common a name)
  const bareT = new RegExp(String.raw`(?<![\w.])T\s*=\s*(${NUM})\s*(${TIME_UNIT})(?![\w/])`, 'g');
  while ((m = bareT.exec(text))) {
    const s = timeQuantity(Number(m[1]), m[2]);
    if (s !== undefined) push(m.index, { Ts: s, text: m[0].trim(), unitless: false });
  }
  const rate = new RegExp(
    String.raw`(?:sampl(?:ed|ing)(?:\s+(?:rate|frequency))?|sample\s+rate|f_?s|rate)\s*(?:=|:|of|at|is)?\s*(?:at\s+)?(${NUM})\s*(${FREQ_UNIT})(?![\w/])`,
    'gi',
  );
  while ((m = rate.exec(text))) {
    const hz = hertz(Number(m[1]), m[2]);
    if (hz && hz > 0) push(m.index, { Ts: 1 / hz, text: m[0].trim(), unitless: false });
  }
  // "sampled at 100 ms", "sampling at 0.05 s": a time after 'at' is the period
  const sampledAt = new RegExp(String.raw`\bsampl(?:ed|ing)\s+at\s+(${NUM})\s*(${TIME_UNIT})(?![\w/])`, 'gi');
  while ((m = sampledAt.exec(text))) {
    const s = timeQuantity(Number(m[1]), m[2]);
    if (s !== undefined) push(m.index, { Ts: s, text: m[0].trim(), unitless: false });
  }
  // "sample G at 10 Hz", "sample it at 10" (a number without unit is asked about)
  const sampleAt = new RegExp(String.raw`\bsample\b[^.;]*?\bat\s+(${NUM})\s*(${TIME_UNIT}|${FREQ_UNIT})?(?![\w/])`, 'gi');
  while ((m = sampleAt.exec(text))) {
    const v = Number(m[1]);
    const hz = hertz(v, m[2]);
    const s = hz !== undefined ? 1 / hz : m[2] ? timeQuantity(v, m[2]) : v;
    if (s !== undefined) push(m.index, { Ts: s, text: m[0].trim(), unitless: !m[2] });
  }
  // "a 10 ms sample", "a 5 kHz loop", "runs every 2.5 ms"
  const adj = new RegExp(
    String.raw`(?<![\w.])(${NUM})\s*(${TIME_UNIT}|${FREQ_UNIT})\s+(?:sample|sampling|loop|control loop|controller|clock|tick|update rate)\b`,
    'gi',
  );
  while ((m = adj.exec(text))) {
    const v = Number(m[1]);
    const hz = hertz(v, m[2]);
    const s = hz !== undefined ? 1 / hz : timeQuantity(v, m[2]);
    if (s !== undefined) push(m.index, { Ts: s, text: m[0].trim(), unitless: false });
  }
  const runs = new RegExp(
    String.raw`\b(?:runs|executes|updates|executed|updated|called|ticks)\s+(?:every|each|at)\s+(${NUM})\s*(${TIME_UNIT}|${FREQ_UNIT})(?![\w/])`,
    'gi',
  );
  while ((m = runs.exec(text))) {
    const v = Number(m[1]);
    const hz = hertz(v, m[2]);
    const s = hz !== undefined ? 1 / hz : timeQuantity(v, m[2]);
    if (s !== undefined) push(m.index, { Ts: s, text: m[0].trim(), unitless: false });
  }
  // "sampled every 50 ms", "at 20 ms sampling", "with a 10 ms sample time"
  const every = new RegExp(String.raw`(?:every|each)\s+(${NUM})\s*(${TIME_UNIT})(?![\w/])`, 'gi');
  while ((m = every.exec(text))) {
    const s = timeQuantity(Number(m[1]), m[2]);
    if (s !== undefined && /sampl/i.test(text)) push(m.index, { Ts: s, text: m[0].trim(), unitless: false });
  }
  const before = new RegExp(
    String.raw`(?<![\w.])(${NUM})\s*(${TIME_UNIT}|${FREQ_UNIT})\s+(?:sample\s+time|sampling(?:\s+(?:time|period|rate|frequency))?|sample\s+period|sample\s+rate|period)`,
    'gi',
  );
  while ((m = before.exec(text))) {
    const v = Number(m[1]);
    const hz = hertz(v, m[2]);
    const s = hz !== undefined ? 1 / hz : timeQuantity(v, m[2]);
    if (s !== undefined) push(m.index, { Ts: s, text: m[0].trim(), unitless: false });
  }
  return out;
}

/** one complex number "-2+1j", "-1 - 1i", "3j", "-2±1j" (both), "2 +/- 3i" (both) */
export type Cx = [number, number];

const CX_ITEM = new RegExp(
  String.raw`(${NUM})?\s*(?:(±|\+\s*/\s*-|\+-|[-+])\s*(?:[ij]\s*\*?\s*(\d+\.?\d*|\.\d+)(?![\d.])|(\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+)?\s*\*?\s*([ij])(?![a-z]))|([ij])\s*\*?\s*(\d+\.?\d*|\.\d+)(?![\d.]))?`,
  'y',
);

/**
 * A list of real or complex numbers, written as people write poles: "-5 and -6",
 * "-1, -2 and -3", "[-1+2i -1-2i]", "-2±1j", "(-1 ± 2j)". Returns undefined when the text at
 * `from` does not start such a list. `end` is where it stops.
 */
export function readNumberList(text: string, from: number): { values: Cx[]; end: number; text: string } | undefined {
  let i = from;
  const values: Cx[] = [];
  const skip = (re: RegExp) => {
    re.lastIndex = i;
    const m = re.exec(text);
    if (m) i += m[0].length;
    return !!m;
  };
  skip(/\s*/y);
  const open = text[i];
  let close: string | undefined;
  if (open === '[' || open === '(' || open === '{') {
    close = open === '[' ? ']' : open === '(' ? ')' : '}';
    i++;
  }
  let lastEnd = i;
  for (;;) {
    skip(/\s*/y);
    // "at s = -4 and s = -5": each item may repeat the variable
    if (values.length) skip(/s\s*=\s*/y);
    const item = readComplex(text, i);
    if (!item) break;
    values.push(...item.values);
    i = item.end;
    lastEnd = i;
    // separators: , ; and "and" (with spaces), or just spaces before another number
    const save = i;
    if (!skip(/\s*(?:,|;)?\s*(?:and\s+|&\s*)?/y) || i === save) {
      // nothing: a list ends unless a number follows directly after spaces
    }
    if (!/^[-+.\d(]/.test(text.slice(i, i + 1)) && !/^[ij]\d/.test(text.slice(i, i + 2)) && !/^s\s*=\s*[-+.\d]/.test(text.slice(i))) {
      i = lastEnd;
      break;
    }
  }
  if (!values.length) return undefined;
  if (close) {
    const j = text.slice(i).search(/\S/);
    if (j >= 0 && text[i + j] === close) i = i + j + 1;
    else if (close === ')') i = lastEnd; // "(-1 ± 2j)" is written as one item mostly
  } else i = lastEnd;
  return { values, end: i, text: text.slice(from, i).trim() };
}

/** one item of a list (two for a ±) */
export function readComplex(text: string, from: number): { values: Cx[]; end: number } | undefined {
  let paren = false;
  let i = from;
  if (text[i] === '(' && /^\(\s*[-+]?[\d.]/.test(text.slice(i))) {
    paren = true;
    i++;
  }
  CX_ITEM.lastIndex = i;
  const m = CX_ITEM.exec(text);
  if (!m || !m[0].trim()) return undefined;
  const [all, re, sign, imUnitFirst, imAbs0, , unitFirst, imAfterUnit] = m;
  const imAbs = imUnitFirst ?? imAbs0;
  if (re === undefined && sign === undefined && unitFirst === undefined) return undefined;
  let end = i + all.length;
  // a trailing space consumed without an imaginary part belongs to the separator
  while (end > i && /\s/.test(text[end - 1])) end--;
  if (paren) {
    const j = text.slice(end).search(/\S/);
    if (j >= 0 && text[end + j] === ')') end = end + j + 1;
    else return undefined;
  }
  const r = re !== undefined ? Number(re) : 0;
  if (sign === undefined && unitFirst === undefined) return { values: [[r, 0]], end };
  if (unitFirst !== undefined) return { values: [[r, Number(imAfterUnit)]], end };
  const im = imAbs !== undefined ? Number(imAbs) : 1;
  if (sign === '±' || sign.replace(/\s/g, '') === '+/-' || sign === '+-')
    return {
      values: [
        [r, im],
        [r, -im],
      ],
      end,
    };
  if (re === undefined && sign === '-') return { values: [[0, -im]], end };
  return { values: [[r, sign === '-' ? -im : im]], end };
}

/** complex values of a list, each conjugate present once per pair; missing conjugates returned separately */
export function completeConjugates(values: Cx[]): { values: Cx[]; added: Cx[] } {
  const out = [...values];
  const added: Cx[] = [];
  const used = new Set<number>();
  for (let i = 0; i < values.length; i++) {
    const [re, im] = values[i];
    if (im === 0 || used.has(i)) continue;
    const j = values.findIndex((v, k) => k !== i && !used.has(k) && v[0] === re && v[1] === -im);
    if (j >= 0) {
      used.add(i);
      used.add(j);
    } else {
      added.push([re, -im]);
      out.push([re, -im]);
      used.add(i);
    }
  }
  return { values: out, added };
}

export interface Specs {
  zeta?: { value: number; text: string };
  wn?: { value: number; text: string };
  overshoot?: { value: number; text: string };
  settling?: { value: number; text: string };
  peakTime?: { value: number; text: string };
  /** the 10–90 % rise time */
  rise?: { value: number; text: string };
}

/** "rise time under 3 s", "10–90 % rise time of at most 2.5 s", "a rise time below 800 ms" */
export function findRise(text: string): { value: number; text: string } | undefined {
  const num = String.raw`(\d+(?:\.\d+)?|\.\d+)`;
  const unit = String.raw`(?:(ms|msec|milliseconds?|s|secs?|seconds?|min)\b)?`;
  const cmp = String.raw`(?:\s*(?:=|:|of|is|<=|≤|<|under|below|less\s+than|at\s+most|no\s+more\s+than|not\s+exceeding|within|max(?:imum)?)?\s*)*?`;
  const m = new RegExp(String.raw`(?:\b10\s*[-–]\s*90\s*%\s*)?\brise[\s-]*time(?:\s*\(\s*10\s*[-–]\s*90\s*%\s*\))?${cmp}${num}\s*${unit}`, 'i').exec(text);
  if (!m) return undefined;
  const v = Number(m[1]);
  const t = m[2] ? timeQuantity(v, m[2]) : v;
  return t === undefined ? undefined : { value: t, text: m[0] };
}

/** second-order design specifications in a message */
export function findSpecs(text: string): Specs {
  const s: Specs = {};
  let m: RegExpMatchArray | null;
  const cmp = String.raw`(?:\s*(?:=|:|of|is|<=|≤|<|>=|≥|>|under|below|less than|at most|no more than|not exceeding|within|around|about|approximately|≈|~|\(2\s*%\s*(?:band|criterion)?\))?\s*)*?`;
  if (/\bcritically[- ]damped\b/i.test(text)) s.zeta = { value: 1, text: 'critically damped' };
  if ((m = text.match(new RegExp(String.raw`(?:damping(?:\s+ratio)?|zeta|ζ)${cmp}(${NUM})(?!\s*(?:rad|hz|s\b))`, 'i'))))
    s.zeta = { value: Number(m[1]), text: m[0] };
  if (
    (m = text.match(
      new RegExp(String.raw`(?:natural\s+frequency|undamped\s+natural\s+frequency|w_?n|ω_?n|omega_?n)${cmp}(${NUM})\s*(rad\s*/\s*s(?:ec)?|[kK]?Hz)?`, 'i'),
    ))
  ) {
    const v = Number(m[1]);
    const w = m[2] ? radPerSecond(v, m[2].replace(/\s/g, '')) : v;
    if (w !== undefined) s.wn = { value: w, text: m[0] };
  }
  if ((m = text.match(new RegExp(String.raw`(?:(?:percent\s+)?overshoot|\bM_?p|\bPO)${cmp}(${NUM})\s*(%|percent)?`, 'i')))) {
    const v = Number(m[1]);
    s.overshoot = { value: m[2] ? v / 100 : v > 1 ? v / 100 : v, text: m[0] };
  } else if ((m = text.match(new RegExp(String.raw`(${NUM})\s*(?:%|percent)\s+(?:max(?:imum)?\s+)?overshoot`, 'i')))) {
    s.overshoot = { value: Number(m[1]) / 100, text: m[0] };
  }
  const anySpec = /damping|zeta|ζ|overshoot|\bM_?p\b|natural frequency|\bw_?n\b|ω_?n/i.test(text);
  if (
    (m =
      text.match(
        new RegExp(
          String.raw`(?:settling\s+time|settling|${anySpec ? String.raw`\bts\b|` : ''}t_?s(?:ettle)?\s*\(2\s*%\))${cmp}(${NUM})\s*(${TIME_UNIT})?`,
          'i',
        ),
      ) ?? text.match(new RegExp(String.raw`(${NUM})\s*(${TIME_UNIT})\s+settling(?:\s+time)?`, 'i')))
  ) {
    const v = Number(m[1]);
    const t = m[2] ? timeQuantity(v, m[2]) : v;
    if (t !== undefined) s.settling = { value: t, text: m[0] };
  }
  const rise = findRise(text);
  if (rise) s.rise = rise;
  if ((m = text.match(new RegExp(String.raw`peak\s+time${cmp}(${NUM})\s*(${TIME_UNIT})?`, 'i')))) {
    const v = Number(m[1]);
    const t = m[2] ? timeQuantity(v, m[2]) : v;
    if (t !== undefined) s.peakTime = { value: t, text: m[0] };
  }
  return s;
}

/**
 * Dominant second-order poles from specifications, with the formulas used:
 * ζ from overshoot Mp: ζ = −ln Mp / √(π² + ln² Mp); ζωn from the 2 % settling time: 4/ts;
 * ωn√(1−ζ²) from the peak time: π/tp. Returns undefined with the reason when they do not fix
 * a pair.
 */
export function specPoles(sp: Specs): { poles: Cx[]; formula: string } | { reason: string } | undefined {
  const given = Object.keys(sp).length;
  if (!given) return undefined;
  let zeta = sp.zeta?.value;
  const parts: string[] = [];
  if (zeta === undefined && sp.overshoot) {
    const L = Math.log(sp.overshoot.value);
    zeta = -L / Math.sqrt(Math.PI ** 2 + L * L);
    parts.push(`ζ = −ln(${sp.overshoot.value})/√(π² + ln²(${sp.overshoot.value})) = ${zeta.toPrecision(6)} from the overshoot`);
  }
  let wn = sp.wn?.value;
  if (wn === undefined && sp.settling && zeta !== undefined) {
    wn = 4 / (zeta * sp.settling.value);
    parts.push(`ωn = 4/(ζ·ts) = ${wn.toPrecision(6)} rad/s from the 2 % settling time`);
  }
  // the 10–90 % rise time: the prototype's, exact for ζ (ωn·tr = τr(ζ)); with a settling time too, the faster ωn
  if (sp.rise && zeta !== undefined && zeta > 0 && sp.wn === undefined) {
    const tau = prototypeRise(zeta).tr;
    const w = tau / sp.rise.value;
    parts.push(
      `ωn = τr(ζ)/tr = ${tau.toPrecision(6)}/${sp.rise.value} = ${w.toPrecision(6)} rad/s from the 10–90 % rise time (τr the second-order step's exact rise time at ωn = 1)${wn !== undefined ? `; the faster of the two, ${Math.max(wn, w).toPrecision(6)} rad/s, is used` : ''}`,
    );
    wn = wn === undefined ? w : Math.max(wn, w);
  }
  if (wn === undefined && sp.peakTime && zeta !== undefined && zeta < 1) {
    wn = Math.PI / (sp.peakTime.value * Math.sqrt(1 - zeta * zeta));
    parts.push(`ωn = π/(tp·√(1−ζ²)) = ${wn.toPrecision(6)} rad/s from the peak time`);
  }
  if (zeta === undefined || wn === undefined)
    return { reason: 'the specifications give only one of damping and speed; a pole pair needs both (e.g. overshoot and settling time, or ζ and ωn)' };
  if (!(zeta > 0) || !(wn > 0)) return { reason: `ζ = ${zeta} and ωn = ${wn} do not give stable poles` };
  const re = -zeta * wn;
  if (zeta >= 1) {
    const d = wn * Math.sqrt(zeta * zeta - 1);
    return {
      poles: [
        [re + d, 0],
        [re - d, 0],
      ],
      formula: [...parts, `s = −ζωn ± ωn√(ζ²−1)`].join('; '),
    };
  }
  const im = wn * Math.sqrt(1 - zeta * zeta);
  return {
    poles: [
      [re, im],
      [re, -im],
    ],
    formula: [...parts, `s = −ζωn ± jωn√(1−ζ²) with ζ = ${Number(zeta.toPrecision(6))}, ωn = ${Number(wn.toPrecision(6))} rad/s`].join('; '),
  };
}

/**
 * The poles a specification leaves open, as written beside it: "the other pole at -20",
 * "remaining poles at -10 and -12", "the third pole at -15", "non-dominant poles at -20".
 * The dominant pair comes from the specifications (specPoles); these are the rest.
 */
export function otherPoles(text: string): { values: Cx[]; text: string } | undefined {
  const m = new RegExp(
    String.raw`\b(?:(?:the|all|its)\s+)?(?:other|remaining|rest\s+of\s+the|third|fourth|fifth|non-?dominant|extra|additional|fast(?:er)?)\s+(?:(?:two|three|\d)\s+)?(?:closed[- ]loop\s+)?(?:poles?|eigenvalues?)\b(?:\s+(?:placed|put|go|goes|should\s+be|are|is|set))?\s*(?:at|to|=|:|in)?\s*`,
    'i',
  ).exec(text);
  if (!m) return undefined;
  const list = readNumberList(text, m.index + m[0].length);
  if (!list) return undefined;
  // "at -20 rad/s", "at 5 Hz": a quantity, not a pole
  if (/^\s*(?:hz|khz|rad|s\b|sec|ms|%|dB|deg|seconds?)/i.test(text.slice(list.end, list.end + 8))) return undefined;
  return { values: completeConjugates(list.values).values, text: text.slice(m.index, list.end).trim() };
}
