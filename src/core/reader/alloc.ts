/**
 * Actuator limits of a control allocation request written in words (wls_alloc, issue 14 item 6):
 * "actuator limits ±1", "deflections limited to ±0.5 rad", "|u| ≤ 0.3", "each actuator between
 * −1 and 2", "rate limits ±2 per second", "previous command [0 0 0]". Limits written as
 * assignments (umin = [...], umax = [...]) are read as any argument; these are the forms
 * engineers write in prose. One number is the same limit for every actuator (the tool says so).
 * Only forms tied to their words are read: a bare number is never taken for a limit.
 */
import type { SpecValue } from './pid.js';

const NUM = String.raw`([-+−]?(?:\d+(?:\.\d+)?|\.\d+)(?:e[-+]?\d+)?)`;
const PM = String.raw`(?:±|\+\/-|\+-|plus or minus\s*)`;
const num = (s: string) => Number(s.replace('−', '-'));
/** a limit word: limit(s), saturat…, bound(s), range, deflection(s), travel */
const LIMIT = String.raw`(?:limit(?:s|ed)?|saturat\w*|bound(?:s|ed)?|range|deflections?|travel|constrained|within)`;

export interface AllocWords {
  umin?: SpecValue<number>;
  umax?: SpecValue<number>;
  rate_min?: SpecValue<number>;
  rate_max?: SpecValue<number>;
}

export function readAllocWords(text: string): AllocWords {
  const out: AllocWords = {};
  // rate limits first: their ± is not a position limit
  let rest = text;
  const rate =
    new RegExp(String.raw`\brate[\s-]+(?:${LIMIT})\s*(?:of|to|at|:|=)?\s*${PM}\s*${NUM}`, 'i').exec(rest) ??
    new RegExp(String.raw`\brates?\s+(?:of\s+)?(?:at most|below|up to|under|≤|<=)\s*${NUM}`, 'i').exec(rest);
  if (rate) {
    const r = Math.abs(num(rate[1]));
    out.rate_max = { value: r, text: rate[0] };
    out.rate_min = { value: -r, text: rate[0] };
    rest = rest.replace(rate[0], ' ');
  }
  const sym =
    new RegExp(String.raw`\b${LIMIT}\s*(?:of|to|at|:|=|are|is)?\s*${PM}\s*${NUM}`, 'i').exec(rest) ??
    new RegExp(String.raw`\|\s*u\w*\s*\|\s*(?:≤|<=|<|is at most|at most)\s*${NUM}`, 'i').exec(rest);
  if (sym) {
    const x = Math.abs(num(sym[1]));
    out.umin = { value: -x, text: sym[0] };
    out.umax = { value: x, text: sym[0] };
    return out;
  }
  const between = new RegExp(String.raw`\b(?:${LIMIT}|actuators?|each|every|all)\b[^.;]{0,25}?\bbetween\s+${NUM}\s*(?:and|to|…|\.\.)\s*${NUM}`, 'i').exec(rest);
  const fromTo = new RegExp(String.raw`\b${LIMIT}\s*(?:of|:|=)?\s*(?:from\s+)?${NUM}\s*(?:to|…|\.\.)\s*${NUM}`, 'i').exec(rest);
  const m = between ?? fromTo;
  if (m) {
    const a = num(m[1]),
      b = num(m[2]);
    out.umin = { value: Math.min(a, b), text: m[0] };
    out.umax = { value: Math.max(a, b), text: m[0] };
  }
  return out;
}
