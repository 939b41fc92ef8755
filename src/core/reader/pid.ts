/**
 * The design specification of a PID or lead/lag request written in words (issue 14, item 1):
 * "a PI controller with 60° phase margin at 2 rad/s", "tune a PIDF for a crossover of 5 rad/s",
 * "lead compensator for 50 degrees phase margin with Kv = 20". Read here: the controller type
 * (pidtune's type), lead or lag (leadlag's kind), the phase margin (pm, degrees), the crossover
 * frequency (wc, rad/s; a frequency in Hz is converted and said) and the velocity error constant
 * (Kv). Each value carries the text it came from, so read.ts marks those numbers as read and
 * the reading line cites them. Only forms tied to their words are read: a bare number is never
 * taken for a margin or a frequency.
 *
 * pidtune also takes time-domain targets written alongside (issue 14, item 2): the overshoot
 * and the 2 % settling time as the scanner already reads them for place (quantities.ts
 * findSpecs: "overshoot under 10 %", "settling time below 8 s"), and the 10–90 % rise time
 * ("rise time under 3 s", findRise, which place reads too). They are maxima, checked on the
 * closed loop's step; without wc or pm they set them (solvers/secondorder.ts).
 */
import type { Specs } from './quantities.js';

export interface SpecValue<T> {
  value: T;
  text: string;
  note?: string;
}

export interface PidSpec {
  type?: SpecValue<string>;
  kind?: SpecValue<'lead' | 'lag'>;
  pm?: SpecValue<number>;
  wc?: SpecValue<number>;
  Kv?: SpecValue<number>;
  overshoot_pct?: SpecValue<number>;
  settling_time?: SpecValue<number>;
  rise_time?: SpecValue<number>;
}

const NUM = String.raw`(\d+(?:\.\d+)?|\.\d+)`;
const DEGW = String.raw`(?:°|º|deg(?:rees?|s)?\b|degree\b)`;

/** the controller structure named: PIDF, PID, PI, PD, or P (only as "P controller" / "proportional controller") */
function readType(text: string): SpecValue<string> | undefined {
  const filt = /\bPID\b[^.?!]{0,30}\b(?:derivative filter|filtered derivative|filter on the derivative)|\bPIDF\b/i.exec(text);
  if (filt) return { value: 'PIDF', text: filt[0] };
  const m = /\b(PID|PI|PD)\b/.exec(text) ?? /\b(pid|pi|pd)(?=[\s-]+(?:controller|control\b|regulator|tuning|gains?|loop))/i.exec(text);
  if (m) return { value: m[1].toUpperCase(), text: m[0] };
  const words = /\bproportional[\s-]+(?:plus[\s-]+)?integral(?:[\s-]+(?:plus[\s-]+)?derivative)?\b|\bproportional[\s-]+(?:plus[\s-]+)?derivative\b/i.exec(text);
  if (words) {
    const w = words[0].toLowerCase();
    return { value: w.includes('integral') ? (w.includes('derivative') ? 'PID' : 'PI') : 'PD', text: words[0] };
  }
  const p = /\b(?:P|proportional)(?:[\s-]+only)?[\s-]+(?:controller|control\b|gain controller)/.exec(text);
  if (p) return { value: 'P', text: p[0] };
  return undefined;
}

function readPm(text: string): SpecValue<number> | undefined {
  const before = new RegExp(String.raw`${NUM}\s*${DEGW}\s*(?:of\s+)?(?:phase[\s-]+margin|PM)\b`, 'i').exec(text);
  if (before) return { value: Number(before[1]), text: before[0] };
  const after = new RegExp(
    String.raw`(?:phase[\s-]+margin|\bPM)(?:\s*(?:=|:|≥|>=|>)|\s+(?:of|is|be|should|must|to|at|least|above|over|greater|more|than|no|less|around|about|exceeds?|equal))*\s*${NUM}(?!\s*(?:rad|hz|r\/s|\d))\s*${DEGW}?`,
    'i',
  ).exec(text);
  if (after) return { value: Number(after[1]), text: after[0] };
  return undefined;
}

function readWc(text: string): SpecValue<number> | undefined {
  const unit = String.raw`(rad\s*/\s*s(?:ec)?|rad\/second|radians?\s+per\s+second|hz)`;
  const lead = String.raw`(?:(?:gain\s+)?crossover(?:\s+frequency)?|bandwidth|ω_?c|w_?c|wc|omega_?c)\s*(?:of|=|:|at|near|around)?\s*`;
  const m =
    new RegExp(String.raw`${lead}${NUM}\s*${unit}?`, 'i').exec(text) ??
    new RegExp(String.raw`\b(?:at|crossing\s+(?:over\s+)?at|crossover\s+at)\s+${NUM}\s*${unit}`, 'i').exec(text) ??
    // "a 0.5 rad/s crossover", "a 2 Hz bandwidth": the quantity before the word
    new RegExp(String.raw`(?<![\w.])${NUM}\s*${unit}\s+(?:(?:gain\s+)?crossover|bandwidth)\b`, 'i').exec(text);
  if (!m || (m[2] === undefined && !/crossover|ω|wc|w_c|omega/i.test(m[0]))) return undefined;
  const v = Number(m[1]);
  if (m[2] && /hz/i.test(m[2])) return { value: 2 * Math.PI * v, text: m[0], note: `${v} Hz read as ωc = 2π·${v} = ${(2 * Math.PI * v).toPrecision(6)} rad/s` };
  return { value: v, text: m[0] };
}

function readKv(text: string): SpecValue<number> | undefined {
  const m =
    new RegExp(String.raw`\bK_?v\s*(?:=|of|:)\s*${NUM}`, 'i').exec(text) ??
    new RegExp(String.raw`\bvelocity(?:\s+error)?\s+constant\s*(?:of|=|:)?\s*(?:K_?v\s*=\s*)?${NUM}`, 'i').exec(text);
  return m ? { value: Number(m[1]), text: m[0] } : undefined;
}

function readKind(text: string): SpecValue<'lead' | 'lag'> | undefined {
  const lag = /\b(?:phase[\s-]+)?lag\b(?![\s-]*lead)/i.exec(text);
  const lead = /\b(?:phase[\s-]+)?lead\b(?![\s-]*lag)/i.exec(text);
  if (lead && !lag) return { value: 'lead', text: lead[0] };
  if (lag && !lead) return { value: 'lag', text: lag[0] };
  return undefined;
}

/** pidtune's time-domain targets: overshoot, settling and rise time as the scanner reads them (quantities.ts findSpecs) */
function readTimeTargets(specs: Specs): PidSpec {
  const out: PidSpec = {};
  // the scanner keeps the overshoot as a fraction; in percent, to 12 digits (0.07·100 is 7.000000000000001)
  if (specs.overshoot) out.overshoot_pct = { value: Number((specs.overshoot.value * 100).toPrecision(12)), text: specs.overshoot.text };
  if (specs.settling) out.settling_time = { value: specs.settling.value, text: specs.settling.text };
  if (specs.rise) out.rise_time = { value: specs.rise.value, text: specs.rise.text };
  return out;
}

/** the specification of a pidtune or leadlag request, as written (specs: the scanner's time-domain ones) */
export function readPidSpec(text: string, tool: 'pidtune' | 'leadlag', specs?: Specs): PidSpec {
  const out: PidSpec = {};
  const pm = readPm(text);
  if (pm) out.pm = pm;
  const wc = readWc(text);
  if (wc) out.wc = wc;
  if (tool === 'pidtune') {
    const t = readType(text);
    if (t) out.type = t;
    if (specs) Object.assign(out, readTimeTargets(specs));
  } else {
    const k = readKind(text);
    if (k) out.kind = k;
    const kv = readKv(text);
    if (kv) out.Kv = kv;
  }
  return out;
}
