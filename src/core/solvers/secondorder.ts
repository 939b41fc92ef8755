/**
 * Time-domain specifications turned into loop or pole targets by the second-order prototype
 * (issue 14, item 2): the loop L(s) = ωn²/(s(s + 2ζωn)), whose closed loop is
 * T(s) = ωn²/(s² + 2ζωn s + ωn²). Every relation used is stated where it is used, and the exact
 * one is preferred to the rule of thumb where both exist:
 *
 * - overshoot Mp (fraction) → ζ = −ln Mp/√(π² + ln² Mp)                 (exact for T)
 * - ζ → phase margin PM = atan(2ζ/√(√(1 + 4ζ⁴) − 2ζ²))                  (exact for L)
 *   and back: ζ = sin PM/(2√cos PM)                                       (its closed-form inverse)
 * - ωn, ζ → gain crossover ωc = ωn·√(√(1 + 4ζ⁴) − 2ζ²)                  (exact for L)
 * - 2 % settling time ts → ζωn ≥ 4/ts                                     (the textbook estimate
 *   ts ≈ 4/(ζωn), the envelope e^{−ζωn t} at 2 %; Ogata §5-3, Franklin–Powell–Emami-Naeini §3.4)
 * - 10–90 % rise time tr → ωn ≥ τr(ζ)/tr with τr(ζ) the prototype's rise time at ωn = 1, found
 *   exactly on its step response (FPE's tr ≈ 1.8/ωn is τr near ζ = 0.5)
 *
 * Used by pidtune (no wc or pm given: they come from here), by the reader for place (the
 * dominant pole pair) and for the reading line that says where the numbers came from.
 */
import { ControlError } from '../errors.js';
import { fmt } from '../render/format.js';
import { brent } from './timeresp.js';

const DEG = Math.PI / 180;

/** ζ of the prototype whose step overshoots by Mp (a fraction; 0 → ζ = 1) */
export function zetaFromOvershoot(mp: number): number {
  if (!(mp >= 0) || !(mp < 1))
    throw new ControlError(`An overshoot of ${fmt(mp * 100)} % gives no damping ratio in (0, 1]: give an overshoot in [0 %, 100 %).`);
  if (mp === 0) return 1;
  const L = Math.log(mp);
  return -L / Math.sqrt(Math.PI * Math.PI + L * L);
}

/** √(√(1 + 4ζ⁴) − 2ζ²): ωc/ωn of the prototype loop */
export function crossoverRatio(zeta: number): number {
  const z2 = zeta * zeta;
  // √(1 + 4ζ⁴) − 2ζ² = 1/(√(1 + 4ζ⁴) + 2ζ²), free of cancellation for large ζ
  return Math.sqrt(1 / (Math.sqrt(1 + 4 * z2 * z2) + 2 * z2));
}

/** the prototype loop's phase margin in degrees: atan(2ζ/√(√(1 + 4ζ⁴) − 2ζ²)) */
export function pmFromZeta(zeta: number): number {
  return Math.atan2(2 * zeta, crossoverRatio(zeta)) / DEG;
}

/** the prototype's ζ for a phase margin (degrees, in (0°, 90°)): ζ = sin PM/(2√cos PM) */
export function zetaFromPm(pmDeg: number): number {
  if (!(pmDeg > 0 && pmDeg < 90)) throw new ControlError(`A phase margin of ${fmt(pmDeg)}° has no second-order prototype (it needs 0° < PM < 90°).`);
  const p = pmDeg * DEG;
  return Math.sin(p) / (2 * Math.sqrt(Math.cos(p)));
}

/** the prototype's unit step at ωn = 1 */
export function prototypeStep(zeta: number, tau: number): number {
  if (zeta < 1) {
    const wd = Math.sqrt(1 - zeta * zeta);
    return 1 - Math.exp(-zeta * tau) * (Math.cos(wd * tau) + (zeta / wd) * Math.sin(wd * tau));
  }
  if (zeta === 1) return 1 - Math.exp(-tau) * (1 + tau);
  const q = Math.sqrt(zeta * zeta - 1);
  const r1 = -zeta + q;
  const r2 = -zeta - q;
  return 1 + (r2 * Math.exp(r1 * tau) - r1 * Math.exp(r2 * tau)) / (r1 - r2);
}

/** the prototype's 10 % and 90 % crossing times at ωn = 1 (ωn·t); their difference is its rise time */
export function prototypeRise(zeta: number): { t10: number; t90: number; tr: number } {
  if (!(zeta > 0)) throw new ControlError(`A rise time needs a damping ratio ζ > 0, not ${fmt(zeta)}.`);
  // before the first peak (ζ < 1: π/ωd) the step rises monotonically; overdamped, for ever
  let hi = zeta < 1 ? Math.PI / Math.sqrt(1 - zeta * zeta) : 4;
  while (prototypeStep(zeta, hi) < 0.9) hi *= 2;
  const at = (level: number) => brent((t) => prototypeStep(zeta, t) - level, 0, hi, undefined, undefined, 1e-15 * hi);
  const t10 = at(0.1);
  const t90 = at(0.9);
  return { t10, t90, tr: t90 - t10 };
}

/** time-domain targets (maxima) as pidtune and stepinfo take them */
export interface TimeTargets {
  overshoot_pct?: number;
  settling_time?: number;
  rise_time?: number;
}

/** what the targets ask of the loop, each step said */
export interface LoopFromSpec {
  /** the prototype's ζ (none when nothing is translated: wc and pm both given) */
  zeta?: number;
  /** where ζ came from */
  zeta_from?: 'overshoot' | 'pm';
  /** the slowest ωn the speed targets allow (none given: undefined) */
  wn?: number;
  /** the phase margin (degrees) the overshoot asks, when pm was not given */
  pm?: number;
  /** the crossover (rad/s) the speed asks, when wc was not given */
  wc?: number;
  /** the prototype's 10 % and 90 % times at ωn = 1 (when a rise time was given) */
  rise?: { t10: number; t90: number };
  /** each translation with its formula, as the answer says it */
  lines: string[];
  /** the same, numbers only, for the reading line ("from overshoot ≤ 10 %: ζ ≥ 0.5912 → PM 58.59°") */
  short: string[];
}

/**
 * The phase margin and crossover the time-domain targets ask of the loop, by the prototype:
 * PM from the overshoot's ζ (unless pm is given; then ζ comes from that pm, and without either
 * from the default pm), ωn from the settling and rise times (the larger), ωc from ωn and ζ
 * (unless wc is given). Returns undefined when no target is given.
 */
export function loopFromSpec(t: TimeTargets, given: { pm?: number; wc?: number; pmDefault: number }): LoopFromSpec | undefined {
  if (t.overshoot_pct === undefined && t.settling_time === undefined && t.rise_time === undefined) return undefined;
  const f = (x: number) => fmt(x, 4);
  const lines: string[] = [];
  const short: string[] = [];
  let zeta: number | undefined;
  let zetaFrom: LoopFromSpec['zeta_from'];
  let pm: number | undefined;
  const speedGiven = t.settling_time !== undefined || t.rise_time !== undefined;
  if (t.overshoot_pct !== undefined && given.pm === undefined) {
    zeta = zetaFromOvershoot(t.overshoot_pct / 100);
    zetaFrom = 'overshoot';
    pm = pmFromZeta(zeta);
    lines.push(
      t.overshoot_pct === 0
        ? `from overshoot ≤ 0 %: ζ ≥ 1 → PM = atan(2ζ/√(√(1+4ζ⁴) − 2ζ²)) = ${f(pm)}°`
        : `from overshoot ≤ ${f(t.overshoot_pct)} %: ζ ≥ −ln(Mp)/√(π² + ln² Mp) = ${f(zeta)} → PM = atan(2ζ/√(√(1+4ζ⁴) − 2ζ²)) = ${f(pm)}°`,
    );
    short.push(`from overshoot ≤ ${f(t.overshoot_pct)} %: ζ ≥ ${f(zeta)} → PM ${f(pm)}°`);
  } else if (speedGiven && given.wc === undefined) {
    // the speed targets need a ζ: the prototype's for the phase margin the design uses
    const p = given.pm ?? given.pmDefault;
    zeta = zetaFromPm(p);
    zetaFrom = 'pm';
    lines.push(`ζ = sin PM/(2√cos PM) = ${f(zeta)} from the ${given.pm === undefined ? 'default ' : ''}phase margin ${f(p)}°`);
    short.push(`ζ = ${f(zeta)} from the ${given.pm === undefined ? 'default ' : ''}PM ${f(p)}°`);
  }
  let wn: number | undefined;
  const speed: string[] = [];
  const speedShort: string[] = [];
  if (zeta === undefined) {
    if (speedGiven)
      short.push(
        `${[t.settling_time !== undefined ? 'settling time' : '', t.rise_time !== undefined ? 'rise time' : ''].filter(Boolean).join(' and ')}: ωc as given, so checked only`,
      );
    if (speedGiven) lines.push(short[short.length - 1]);
  } else if (t.settling_time !== undefined) {
    const w = 4 / (zeta * t.settling_time);
    speed.push(`settling time ≤ ${f(t.settling_time)} s (2 %, ts ≈ 4/(ζωn)): ωn ≥ 4/(ζ·ts) = ${f(w)} rad/s`);
    speedShort.push(`settling time ≤ ${f(t.settling_time)} s: ωn ≥ ${f(w)} rad/s`);
    wn = w;
  }
  let rise: LoopFromSpec['rise'];
  if (zeta !== undefined && t.rise_time !== undefined) {
    const r = prototypeRise(zeta);
    rise = { t10: r.t10, t90: r.t90 };
    const w = r.tr / t.rise_time;
    speedShort.push(`rise time ≤ ${f(t.rise_time)} s: ωn ≥ ${f(w)} rad/s`);
    speed.push(`rise time ≤ ${f(t.rise_time)} s (10–90 %, exact for the prototype: ωn·tr = ${f(r.tr)} at ζ = ${f(zeta)}): ωn ≥ ${f(w)} rad/s`);
    wn = wn === undefined ? w : Math.max(wn, w);
  }
  let wc: number | undefined;
  if (wn !== undefined && zeta !== undefined && given.wc === undefined) {
    wc = wn * crossoverRatio(zeta);
    lines.push(`from ${speed.join(' and ')}${speed.length > 1 ? ` (the larger, ${f(wn)} rad/s)` : ''} → ωc = ωn·√(√(1+4ζ⁴) − 2ζ²) = ${f(wc)} rad/s`);
    short.push(`from ${speedShort.join(' and ')} → ωc ${f(wc)} rad/s`);
  } else if (speed.length) {
    lines.push(`${speed.join('; ')} (ωc as given, so checked only)`);
    short.push(`${speedShort.join('; ')} (ωc as given, so checked only)`);
  }
  if (t.overshoot_pct !== undefined && given.pm !== undefined) {
    lines.push(`overshoot ≤ ${f(t.overshoot_pct)} %: PM as given, so checked only`);
    short.push(lines[lines.length - 1]);
  }
  return {
    ...(zeta !== undefined ? { zeta, zeta_from: zetaFrom } : {}),
    ...(wn !== undefined ? { wn } : {}),
    ...(pm !== undefined ? { pm } : {}),
    ...(wc !== undefined ? { wc } : {}),
    ...(rise ? { rise } : {}),
    lines,
    short,
  };
}
