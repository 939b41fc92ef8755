/**
 * The input of a simulation as a message writes it: a standard signal in words ("a ramp",
 * "a sine of 2 rad/s", "a square wave with period 4 s", "signal='pulse'"), its amplitude and
 * period, or a formula of t (`u = sin(2*t)`, "the response to 1 - exp(-t)"). Read for the
 * tools that take `signal`/`u` (lsim); every number read is returned as consumed, so none is
 * reported as unread, and a formula is checked by the same restricted parser the solver uses.
 */
import { compileFormula } from '../parse/formula.js';
import type { Origin } from './conversation.js';

export interface SignalReading {
  args: Record<string, unknown>;
  origins: Record<string, Origin>;
  /** text spans read (their numbers are not "unread") */
  consumed: string[];
  notes: string[];
}

const NUM = String.raw`([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)`;

const WORDS: [RegExp, string][] = [
  [/\bsignal\s*=\s*['"]?(step|ramp|sine|sin|square|pulse)\b['"]?/i, ''],
  [/\b(?:unit[- ])?ramp\b/i, 'ramp'],
  [/\bsquare[- ]wave\b/i, 'square'],
  [/\bpulse(?:[- ]train)?\b/i, 'pulse'],
  [/\bsin(?:e|usoid(?:al)?)?(?:[- ]wave)?\b(?!\s*\()/i, 'sine'],
  [/\b(?:unit[- ])?step(?:[- ]input)?\b/i, 'step'],
];

/** a formula of t (the message's `u = …`, `u(t) = …`, or "to/input <formula>") checked by the solver's parser */
function formulaIn(text: string): { formula: string; span: string } | { error: string } | undefined {
  const assigned = text.match(/\bu\s*(?:\(\s*t\s*\))?\s*=\s*([^,;\n]+?)\s*(?=$|[,;\n]|\s+(?:for|over|from|during|until|with|and)\b)/i);
  const prose = text.match(
    /\b(?:to|input|by)\s+((?:[-+(\d.]|\b(?:sin|cos|exp|abs|sqrt|heaviside|sign|t)\b)[^,;\n]*?\bt\b[^,;\n]*?)\s*(?=$|[,;?\n]|\s+(?:for|over|from|during|until|with|and)\b)/i,
  );
  const m = assigned ?? prose;
  if (!m) return undefined;
  const formula = m[1].trim().replace(/[.]$/, '');
  // samples written as a list are u's samples, not a formula
  if (/^\[/.test(formula) || !/(?<![A-Za-z_])t(?![A-Za-z_])/.test(formula)) return undefined;
  try {
    compileFormula(formula, 'u');
    return { formula, span: m[0] };
  } catch (e) {
    return assigned ? { error: (e as Error).message } : undefined;
  }
}

function quantity(v: number, unit: string | undefined): number {
  return unit && /^ms$/i.test(unit) ? v / 1000 : v;
}

/** the simulation input the message gives, or an error about the formula it writes */
export function readSignal(text: string): SignalReading | { error: string } | undefined {
  const args: Record<string, unknown> = {};
  const origins: Record<string, Origin> = {};
  const consumed: string[] = [];
  const notes: string[] = [];
  const f = formulaIn(text);
  if (f && 'error' in f) return { error: f.error };
  if (f) {
    args.u = f.formula;
    origins.u = { from: 'message', text: f.span.trim() };
    consumed.push(f.span);
    return { args, origins, consumed, notes };
  }
  for (const [re, name] of WORDS) {
    const m = text.match(re);
    if (!m) continue;
    const sig = name || m[1].toLowerCase();
    args.signal = sig === 'sin' ? 'sine' : sig;
    origins.signal = { from: 'message', text: m[0] };
    break;
  }
  if (!args.signal) return undefined;
  const amp = text.match(new RegExp(String.raw`\b(?:amplitude|slope|height|magnitude)\s*(?:of\s+|=\s*|:\s*)?${NUM}`, 'i'));
  if (amp) {
    args.amplitude = Number(amp[1]);
    origins.amplitude = { from: 'message', text: amp[0] };
    consumed.push(amp[0]);
  }
  const per = text.match(new RegExp(String.raw`\bperiod\s*(?:of\s+|=\s*|:\s*)?${NUM}\s*(ms|s|sec|seconds?)?\b`, 'i'));
  if (per) {
    args.period = quantity(Number(per[1]), per[2]);
    origins.period = { from: 'message', text: per[0] };
    consumed.push(per[0]);
  } else {
    // a frequency: ω in rad/s or f in Hz (the period is 2π/ω or 1/f)
    const fr = text.match(new RegExp(String.raw`${NUM}\s*(rad\s*/\s*s|Hz)\b`, 'i'));
    if (fr && Number(fr[1]) > 0) {
      const v = Number(fr[1]);
      args.period = /hz/i.test(fr[2]) ? 1 / v : (2 * Math.PI) / v;
      origins.period = { from: 'message', text: fr[0] };
      consumed.push(fr[0]);
      notes.push(`period ${/hz/i.test(fr[2]) ? `1/${v}` : `2π/${v}`} = ${Number((args.period as number).toPrecision(6))} s from '${fr[0]}'`);
    }
  }
  return { args, origins, consumed, notes };
}
