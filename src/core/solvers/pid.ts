/**
 * PID tuning and lead/lag design to a crossover frequency and phase margin (issue 14, item 1).
 *
 * `pidtune` (MATLAB pidtune(G, type, wc, pidtuneOptions('PhaseMargin', pm)); python-control has
 * none): P, PI, PD, PID and PIDF (PID with derivative filter Tf) for a continuous SISO plant,
 * in parallel form C = Kp + Ki/s + Kd·s/(Tf·s + 1) and standard form
 * C = Kp·(1 + 1/(Ti·s) + Td·s/((Td/N)·s + 1)). The design is the loop-shaping one of the
 * textbooks (Åström and Hägglund, "Advanced PID Control", ch. on loop shaping; Franklin, Powell
 * and Emami-Naeini §6.7), solved exactly rather than tuned by a search:
 *
 *   C(jωc)·P(jωc) = 1·e^{j(−180° + PM)}   ⇔   |C(jωc)| = 1/|P(jωc)|,  ∠C(jωc) = −180° + PM − ∠P(jωc).
 *
 * The magnitude fixes the gain, the phase fixes the controller's shape: PI: Kp = M·cos φ,
 * Ki = −ωc·M·sin φ (φ in (−90°, 0)); PD: Kp = M·cos φ, Kd = M·sin φ/ωc (φ in (0, 90°)); PID with
 * the classic ratio Ti = r·Td (r = 4 by default): x = Td·ωc solves x − 1/(r·x) = tan φ, a quadratic
 * (φ in (−90°, 90°)); PIDF with Tf = Td/N: the same ratio, x on the rising branch of
 * ∠(1 + 1/(j·r·x) + j·x/(1 + j·x/N)) = φ by Brent. A phase the structure cannot give is said,
 * and the best it gives is designed instead: the nearest phase with the integral (derivative)
 * corner a decade from crossover (5.71° inside the range), never a made-up success. The closed
 * loop's poles, the margins of L = C·P (freqanalysis.ts stabilityMargins) and the step
 * characteristics of T = L/(1 + L) (timeresp.ts stepinfo) are then computed, and the
 * specification is listed item by item with pass or fail.
 *
 * Without ωc, MATLAB's pidtune picks a crossover by an unpublished rule ("balancing performance
 * and robustness"); here ωc is the first frequency at which the plant's phase leaves exactly
 * the phase the controller gives with its corners at the textbook places: PI: integral corner at
 * ωc/2 (Ti·ωc = 2, −26.6°), PD: derivative corner at ωc (Td·ωc = 1, +45°), PID/PIDF: Td·ωc = 1
 * with Ti = r·Td, P: 0°. A plant whose phase never falls that low (a first-order lag) takes its
 * fastest corner (largest |pole| or |zero|, 1 rad/s when it has none). So the gains differ from
 * MATLAB's where its crossover differs; given the same ωc, a PI's (two gains, two conditions)
 * are the same: MATLAB's own example 1/(s+1)³, PI at 0.5205 rad/s, PM 60°: Kp = 1.14, Ki = 0.454.
 *
 * `leadlag`: the classic lead (Ogata §7-11, Franklin–Powell §6.7) and lag (Ogata §7-12)
 * compensators to a phase-margin specification. Lead C(s) = K·(a·T·s + 1)/(T·s + 1), a > 1:
 * maximum lead φm = asin((a − 1)/(a + 1)) at ωm = 1/(T·√a), where it adds the gain √a; ωm is
 * put at the new crossover, where |K·P(jωm)| = 1/√a. Lag C(s) = K·(T·s + 1)/(β·T·s + 1), β > 1:
 * its zero a decade below the new crossover ωc (T = 10/ωc), β from |C·P(jωc)| = 1 exactly. The
 * textbooks add a safety angle (5°–12°) by eye; with `extra` given that is what is done, and
 * by default the angle is solved for so that the achieved phase margin is the target exactly.
 */
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import { fmt, fmtComplex } from '../render/format.js';
import type { RenderOptions } from '../render/markdown.js';
import { specTable, type SpecItem } from '../render/results.js';
import type { Complex } from '../types.js';
import { num as numberLiteral, vector as vectorLiteral } from '../codegen/literals.js';
import { specCheckCode, systemCode, verdictHolder } from '../codegen/code.js';
import type { PlotSpec } from '../plot/specs.js';
import { conv, polyadd, polyRoots, polyStrip } from '../linalg/poly.js';
import { ssProps, tfProps, tsProp, tf2ss, sortComplex, cplx } from './_sys.js';
import { goldenMin, readSiso, stabilityMargins, stableByPoles, type Siso } from './freqanalysis.js';
import { brent, stepinfo, stepSpecVerdicts, type StepInfo, type StepSpec } from './timeresp.js';
import { loopFromSpec, type LoopFromSpec } from './secondorder.js';

type R = Record<string, any>;
const DEG = Math.PI / 180;
/** the decade rule: a corner a decade from crossover gives atan(1/10) = 5.71° */
const DECADE = Math.atan(0.1);

export const PID_TYPES = ['P', 'PI', 'PD', 'PID', 'PIDF'] as const;
export type PidType = (typeof PID_TYPES)[number];

export interface PidGains {
  Kp: number;
  Ki: number;
  Kd: number;
  Tf: number;
}

/** the controller's transfer function (parallel form) */
export function pidTf(type: PidType, g: PidGains): { num: number[]; den: number[] } {
  switch (type) {
    case 'P':
      return { num: [g.Kp], den: [1] };
    case 'PI':
      return { num: [g.Kp, g.Ki], den: [1, 0] };
    case 'PD':
      return { num: [g.Kd, g.Kp], den: [1] };
    case 'PID':
      return { num: [g.Kd, g.Kp, g.Ki], den: [1, 0] };
    case 'PIDF':
      // Kp + Ki/s + Kd s/(Tf s + 1) over s(Tf s + 1)
      return { num: [g.Kp * g.Tf + g.Kd, g.Kp + g.Ki * g.Tf, g.Ki], den: [g.Tf, 1, 0] };
  }
}

const wrap = (a: number) => {
  let x = a % (2 * Math.PI);
  if (x > Math.PI) x -= 2 * Math.PI;
  if (x <= -Math.PI) x += 2 * Math.PI;
  return x;
};
const cabs = ([a, b]: Complex) => Math.hypot(a, b);
const carg = ([a, b]: Complex) => Math.atan2(b, a);

/** the PIDF shape 1 + 1/(j r x) + j x/(1 + j x/N) (standard form over Kp) at x = Td·ω */
function pidfShape(x: number, r: number, N: number): Complex {
  const q = 1 + (x * x) / (N * N);
  return [1 + (x * x) / N / q, x / q - 1 / (r * x)];
}

/** the largest phase the PIDF shape reaches, and where (on x = Td·ω) */
function pidfPeak(r: number, N: number): { x: number; phi: number } {
  const lo = Math.log(1e-6);
  const hi = Math.log(1e6 * N);
  const m = goldenMin((u) => -carg(pidfShape(Math.exp(u), r, N)), lo, hi);
  return { x: Math.exp(m.x), phi: -m.v };
}

/** the open range of controller phases (rad) a structure gives at one frequency */
function phaseRange(type: PidType, r: number, N: number): [number, number] {
  switch (type) {
    case 'P':
      return [0, 0];
    case 'PI':
      return [-Math.PI / 2, 0];
    case 'PD':
      return [0, Math.PI / 2];
    case 'PID':
      return [-Math.PI / 2, Math.PI / 2];
    case 'PIDF':
      return [-Math.PI / 2, pidfPeak(r, N).phi];
  }
}

/** the nearest phase the structure gives with its corners at least a decade from the edges (PIDF's peak itself is usable) */
function clampPhase(type: PidType, phi: number, r: number, N: number): number {
  if (type === 'P') return 0;
  const [lo, hi] = phaseRange(type, r, N);
  if (phi > lo && phi < hi) return phi;
  const l = lo + DECADE;
  const h = type === 'PIDF' ? hi : hi - DECADE;
  return Math.min(Math.max(phi, l), h);
}

/** gains giving |C(jω)| = M and ∠C(jω) = φ (φ inside the structure's range), positive form */
function gainsFor(type: PidType, w: number, M: number, phi: number, r: number, N: number): PidGains {
  const c = Math.cos(phi);
  const s = Math.sin(phi);
  switch (type) {
    case 'P':
      return { Kp: M, Ki: 0, Kd: 0, Tf: 0 };
    case 'PI':
      return { Kp: M * c, Ki: -w * M * s, Kd: 0, Tf: 0 };
    case 'PD':
      return { Kp: M * c, Ki: 0, Kd: (M * s) / w, Tf: 0 };
    case 'PID': {
      // x − 1/(r x) = tan φ  ⇔  r x² − r tan φ x − 1 = 0, the positive root
      const t = Math.tan(phi);
      const x = (r * t + Math.sqrt(r * r * t * t + 4 * r)) / (2 * r);
      const Kp = M * c;
      return { Kp, Ki: Kp / ((r * x) / w), Kd: (Kp * x) / w, Tf: 0 };
    }
    case 'PIDF': {
      const pk = pidfPeak(r, N);
      const f = (x: number) => carg(pidfShape(x, r, N)) - phi;
      const x = Math.abs(phi - pk.phi) < 1e-12 ? pk.x : brent(f, 1e-9 * pk.x, pk.x, undefined, undefined, 1e-15 * pk.x);
      const Kp = M / cabs(pidfShape(x, r, N));
      const Td = x / w;
      return { Kp, Ki: Kp / (r * Td), Kd: Kp * Td, Tf: Td / N };
    }
  }
}

/** the controller's phase at crossover that the default ωc leaves room for (corners at the textbook places) */
function defaultPhase(type: PidType, r: number, N: number): number {
  switch (type) {
    case 'P':
      return 0;
    case 'PI':
      return -Math.atan(0.5);
    case 'PD':
      return Math.PI / 4;
    case 'PID':
      return Math.atan(1 - 1 / r);
    case 'PIDF':
      return carg(pidfShape(1, r, N));
  }
}

/** the magnitudes of the plant's nonzero poles and zeros (its corner frequencies) */
function corners(p: Siso): number[] {
  return [...polyRoots(p.den), ...polyRoots(p.num)].map(cabs).filter((v) => v > 0 && Number.isFinite(v));
}

/** sign of the plant's low-frequency gain: the ratio of the lowest-order nonzero coefficients */
function lowFreqSign(p: Siso): number {
  const last = (q: number[]) => {
    for (let i = q.length - 1; i >= 0; i--) if (q[i] !== 0) return q[i];
    return 1;
  };
  return Math.sign(last(p.num) / last(p.den)) || 1;
}

/** the unwrapped phase (rad) of σ·P on a log grid, starting from its low-frequency asymptote */
function unwrappedPhase(p: Siso, sigma: number, w: number[]): number[] {
  const out: number[] = [];
  let prev = 0;
  w.forEach((x, i) => {
    const [a, b] = p.H(x);
    let ph = Math.atan2(sigma * b, sigma * a);
    if (i === 0) {
      // the asymptote: −90° per integrator, the rest near 0 (wrap to the nearest multiple)
      const k = p.den.length - polyStrip(trimTrail(p.den)).length - (p.num.length - polyStrip(trimTrail(p.num)).length);
      const target = (-k * Math.PI) / 2;
      ph += 2 * Math.PI * Math.round((target - ph) / (2 * Math.PI));
    } else ph = prev + wrap(ph - prev);
    prev = ph;
    out.push(ph);
  });
  return out;
}

const trimTrail = (q: number[]) => {
  let e = q.length;
  while (e > 1 && q[e - 1] === 0) e--;
  return q.slice(0, e);
};

/** the first frequency where the unwrapped phase of σ·P falls to `target` (rad), or undefined */
function firstPhaseCrossing(p: Siso, sigma: number, target: number): number | undefined {
  const cs = corners(p);
  const lo = Math.log10(cs.length ? Math.min(...cs) : 1) - 4;
  const hi = Math.log10(cs.length ? Math.max(...cs) : 1) + 4;
  const Nw = 4000;
  const w = Array.from({ length: Nw }, (_, k) => 10 ** (lo + ((hi - lo) * k) / (Nw - 1)));
  const ph = unwrappedPhase(p, sigma, w);
  for (let k = 1; k < Nw; k++)
    if (ph[k - 1] > target && ph[k] <= target) {
      // refine on the wrapped phase about the bracket's value
      const base = ph[k - 1];
      const f = (x: number) => {
        const [a, b] = p.H(x);
        return base + wrap(Math.atan2(sigma * b, sigma * a) - base) - target;
      };
      return brent(f, w[k - 1], w[k], undefined, undefined, 1e-15 * w[k]);
    }
  return undefined;
}

export type { SpecItem };

/** the loop's report, with the closed loop's step characteristics as stepinfo gives them */
export interface LoopReport extends StepInfo {
  L: { num: number[]; den: number[] };
  /** the closed loop T = L/(1 + L) */
  Tcl: { num: number[]; den: number[] };
  poles: Complex[];
  stable: boolean;
  pm_at_wc: number;
  w_gc: number;
  w_gc_all: number[];
  pm_all: number[];
  pm: number;
  gm: number;
  gm_db: number;
  w_pc: number;
}

/** L = C·P, T = L/(1 + L): margins, closed-loop poles and step characteristics */
export function loopReport(C: { num: number[]; den: number[] }, p: Siso, wc: number, tool: string): LoopReport {
  const L = { num: polyStrip(conv(C.num, p.num)), den: polyStrip(conv(C.den, p.den)) };
  if (L.num.length > L.den.length)
    throw new ControlError(
      `${tool}: the loop C·P is improper (an ideal derivative on a plant with as many zeros as poles); use a filtered derivative (type 'PIDF') or a strictly proper plant.`,
    );
  const cl = polyStrip(polyadd(L.den, L.num));
  if (cl.length < L.den.length || cl.every((v) => v === 0))
    throw new ControlError(`${tool}: 1 + C·P vanishes at infinite frequency: the closed loop is ill-posed.`);
  const poles = sortComplex(polyRoots(cl).map(([a, b]) => cplx(a, b)));
  const stable = stableByPoles(poles, 0);
  const m = stabilityMargins(readSiso({ num: L.num, den: L.den }, tool));
  const Cw = evalPoly(C, wc);
  const Pw = p.H(wc);
  const Lw: Complex = [Cw[0] * Pw[0] - Cw[1] * Pw[1], Cw[0] * Pw[1] + Cw[1] * Pw[0]];
  let pmWc = 180 + carg(Lw) / DEG;
  if (pmWc > 180) pmWc -= 360;
  const Tcl = { num: L.num, den: cl };
  let step = { rise_time: NaN, settling_time: NaN, overshoot_pct: NaN, peak: NaN, peak_time: NaN, final_value: NaN };
  if (stable) {
    const r = tf2ss(Tcl.num, Tcl.den);
    step = stepinfo({ A: r.A, B: r.B, C: r.C, D: r.D, n: r.A.length, m: 1, p: 1, Ts: 0 });
  }
  return {
    L,
    Tcl,
    poles,
    stable,
    pm_at_wc: pmWc,
    w_gc: m.w_gc_all.length ? m.w_gc_all[0] : NaN,
    w_gc_all: m.w_gc_all,
    pm_all: m.pm_all,
    pm: m.pm_deg,
    gm: m.gm,
    gm_db: m.gm_db,
    w_pc: m.w_pc,
    ...step,
  };
}

function evalPoly(t: { num: number[]; den: number[] }, w: number): Complex {
  const ev = (q: number[]): Complex => {
    let re = 0;
    let im = 0;
    for (const c of q) [re, im] = [re * 0 - im * w + c, re * w + im * 0];
    return [re, im];
  };
  const [nr, ni] = ev(t.num);
  const [dr, di] = ev(t.den);
  const d2 = dr * dr + di * di;
  return [(nr * dr + ni * di) / d2, (ni * dr - nr * di) / d2];
}

/** reads the plant: continuous SISO, tf or ss */
function readPlant(args: R, tool: string): Siso {
  const p = readSiso(args, tool);
  if (p.Ts > 0)
    throw new ControlError(
      `${tool} designs for a continuous plant; this one is discrete (Ts = ${p.Ts} s). Design on the continuous model (d2c) and discretise the controller with c2d (Tustin), or ask for the continuous design first.`,
    );
  if (p.num.every((v) => v === 0)) throw new ControlError(`${tool}: the plant is zero: no controller can shape its loop.`);
  return p;
}

function readPm(args: R, tool: string, def = 60): number {
  const pm = args.pm ?? def;
  if (typeof pm !== 'number' || !(pm > 0 && pm < 180))
    throw new ControlError(`${tool}: the phase margin pm must be in degrees, between 0 and 180 (default 60), not ${String(pm)}.`);
  return pm;
}

function readPositive(args: R, key: string, tool: string, what: string): number | undefined {
  const v = args[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v))
    throw new ControlError(`${tool}: ${key} (${what}) must be a positive number, not ${String(v)}.`);
  return v;
}

export interface PidResult extends LoopReport {
  type: PidType;
  Kp: number;
  Ki: number;
  Kd: number;
  Tf: number;
  /** standard form Kp·(1 + 1/(Ti s) + Td s/((Td/N) s + 1)) */
  standard: { Kp: number; Ti: number; Td: number; N: number };
  C: { num: number[]; den: number[] };
  wc: number;
  wc_source: 'given' | 'chosen' | 'fallback' | 'spec';
  pm_target: number;
  /** where the phase margin came from: the call, the time-domain targets (overshoot → ζ → PM), MATLAB's default 60° */
  pm_source: 'given' | 'spec' | 'default';
  /** the time-domain targets turned into PM and ωc by the second-order prototype, each step said */
  from_spec?: LoopFromSpec;
  ratio: number;
  status: 'exact' | 'exceeded' | 'short';
  phase_needed: number;
  phase_used: number;
  spec: SpecItem[];
  notes: string[];
}

/** pidtune's optional time-domain targets: maxima on the closed loop's unit step */
const TIME_TARGETS = [
  ['overshoot_pct', 'maximum overshoot in percent'],
  ['settling_time', 'maximum 2 % settling time in seconds'],
  ['rise_time', 'maximum 10–90 % rise time in seconds'],
] as const;

export function pidtune(args: R): PidResult {
  const tool = 'pidtune';
  const p = readPlant(args, tool);
  const type = (args.type ?? 'PID') as PidType;
  if (!PID_TYPES.includes(type)) throw new ControlError(`${tool}: type must be one of ${PID_TYPES.join(', ')}, not ${String(args.type)}.`);
  // time-domain targets (maxima): without wc or pm, they set them by the second-order prototype
  // (secondorder.ts loopFromSpec); either way they are checked on the closed loop's step
  const targets: StepSpec = {};
  for (const [k, what] of TIME_TARGETS) {
    const v = args[k];
    if (v === undefined || v === null) continue;
    // an overshoot target of 0 % ("no overshoot") is a target; a time target must be positive
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (v === 0 && k !== 'overshoot_pct') || (k === 'overshoot_pct' && v >= 100))
      throw new ControlError(`${tool}: ${k} (${what}) must be a ${k === 'overshoot_pct' ? 'number in [0, 100)' : 'positive number'}, not ${String(v)}.`);
    targets[k] = v;
  }
  const pmGiven = args.pm === undefined || args.pm === null ? undefined : readPm(args, tool);
  const wcGiven = readPositive(args, 'wc', tool, 'target crossover frequency in rad/s');
  const fromSpec = pmGiven === undefined || wcGiven === undefined ? loopFromSpec(targets, { pm: pmGiven, wc: wcGiven, pmDefault: 60 }) : undefined;
  const pmT = pmGiven ?? fromSpec?.pm ?? readPm(args, tool);
  const pmSource: PidResult['pm_source'] = pmGiven !== undefined ? 'given' : fromSpec?.pm !== undefined ? 'spec' : 'default';
  const r = readPositive(args, 'ratio', tool, 'Ti/Td') ?? 4;
  const N = readPositive(args, 'N', tool, 'derivative filter divisor, Tf = Td/N') ?? 10;
  const notes: string[] = [];
  let wc = wcGiven ?? fromSpec?.wc;
  let source: PidResult['wc_source'] = wcGiven !== undefined ? 'given' : wc !== undefined ? 'spec' : 'given';
  const s0 = lowFreqSign(p);
  if (wc === undefined) {
    const phi0 = defaultPhase(type, r, N);
    wc = firstPhaseCrossing(p, s0, -Math.PI + pmT * DEG - phi0);
    source = 'chosen';
    if (wc === undefined) {
      const cs = corners(p);
      wc = cs.length ? Math.max(...cs) : 1;
      source = 'fallback';
      notes.push(
        `The plant's phase never falls to ${fmt((-Math.PI + pmT * DEG - phi0) / DEG)}° (where this structure would meet the margin with its corners at the default places), so ωc is its fastest corner, ${fmt(wc)} rad/s${cs.length ? '' : ' (1 rad/s: it has no nonzero pole or zero)'}.`,
      );
    }
  }
  const Pw = p.H(wc);
  const Pm = cabs(Pw);
  if (!(Pm > 0) || !Number.isFinite(Pm))
    throw new ControlError(
      `${tool}: the plant's gain at ωc = ${fmt(wc)} rad/s is ${fmt(Pm)} (a pole or zero on the imaginary axis there); choose another crossover frequency.`,
    );
  const M = 1 / Pm;
  // the controller phase the phase margin asks for, with either sign of gain
  const need = wrap(-Math.PI + pmT * DEG - carg(Pw));
  const cands = [1, -1].map((sg) => {
    const want = wrap(sg > 0 ? need : need - Math.PI);
    const used = clampPhase(type, want, r, N);
    return { sg, want, used, dist: Math.abs(used - want) };
  });
  cands.sort((a, b) => a.dist - b.dist || (a.sg === s0 ? -1 : 1));
  // each sign's design; a stable loop is preferred, then the one nearer the specification
  const designs = cands.map((c) => {
    const g0 = gainsFor(type, wc!, M, c.used, r, N);
    const g: PidGains = { Kp: c.sg * g0.Kp, Ki: c.sg * g0.Ki, Kd: c.sg * g0.Kd, Tf: g0.Tf };
    for (const k of ['Kp', 'Ki', 'Kd'] as const) if (g[k] === 0) g[k] = 0;
    const C = pidTf(type, g);
    return { c, g, C, rep: loopReport(C, p, wc!, tool) };
  });
  const chosen = designs.find((d) => d.rep.stable && d.c.dist < 1e-12) ?? designs.find((d) => d.rep.stable) ?? designs[0];
  const { g, C, rep } = chosen;
  const pick = chosen.c;
  const st: PidResult['status'] = pick.dist < 1e-12 ? 'exact' : rep.pm_at_wc < pmT ? 'short' : 'exceeded';
  if (st !== 'exact') {
    const need_ = pick.want / DEG;
    const [lo, hi] = phaseRange(type, r, N).map((v) => v / DEG);
    notes.push(
      `At ωc = ${fmt(wc)} rad/s the plant's phase is ${fmt(carg(Pw) / DEG)}°, so a ${fmt(pmT)}° margin needs ${fmt(need_)}° from the controller; a ${type} gives ${type === 'P' ? 'only 0° (or 180° with a negative gain)' : `between ${fmt(lo)}° and ${fmt(hi)}°`}. ` +
        (st === 'short'
          ? `The ${fmt(pmT)}° margin cannot be met with this structure at this crossover: the design shown is the best it gives (${fmt(rep.pm_at_wc)}°${type === 'P' ? '' : ', its corner a decade from crossover'}). A lower ωc, a structure with more phase lead (PD, PID, PIDF) or a lead compensator (leadlag) meets it.`
          : `It gives more margin than asked (${fmt(rep.pm_at_wc)}°)${type === 'P' ? '' : ', its corner a decade from crossover'}; a higher ωc uses the margin for speed.`),
    );
  }
  if (pick.sg < 0) notes.push('The gains are negative: the plant needs a phase inversion at crossover (its gain there is negative in the sense of the loop).');
  const spec: SpecItem[] = [];
  const firstOk = Math.abs(rep.w_gc - wc) <= 1e-6 * wc;
  spec.push({
    item: 'crossover ωc (first 0 dB crossing)',
    target: source === 'given' ? `${fmt(wc)} rad/s` : source === 'spec' ? `${fmt(wc)} rad/s (from the speed targets)` : `${fmt(wc)} rad/s (chosen)`,
    achieved: Number.isNaN(rep.w_gc) ? 'none' : `${fmt(rep.w_gc)} rad/s`,
    pass: firstOk,
  });
  spec.push({
    item: 'phase margin at ωc',
    target: pmSource === 'spec' ? `${fmt(pmT)}° (from the overshoot)` : `${fmt(pmT)}°`,
    achieved: `${fmt(rep.pm_at_wc)}°`,
    pass: rep.pm_at_wc >= pmT - 1e-6,
  });
  if (rep.w_gc_all.length > 1)
    spec.push({ item: 'phase margin, every crossover', target: `≥ ${fmt(pmT)}°`, achieved: `${fmt(rep.pm)}° (smallest)`, pass: rep.pm >= pmT - 1e-6 });
  spec.push({ item: 'closed loop', target: 'stable', achieved: rep.stable ? 'stable' : 'unstable', pass: rep.stable });
  // the time-domain targets, checked on the closed loop's step as stepinfo with targets does;
  // an unstable loop has no step characteristics (NaN), so each target given is missed
  if (Object.keys(targets).length) spec.push(...stepSpecVerdicts(rep, targets));
  if (!rep.stable)
    notes.push(
      'The closed loop is unstable although |L(jωc)| = 1 with the margin shown: the Nyquist curve encircles −1 elsewhere (another crossover, or an unstable plant needing more gain). Choose another ωc or structure; this design must not be used.',
    );
  return {
    type,
    ...g,
    standard: {
      Kp: g.Kp,
      Ti: g.Ki === 0 ? Infinity : g.Kp / g.Ki,
      Td: g.Kp === 0 ? 0 : g.Kd / g.Kp,
      N: g.Tf > 0 ? g.Kd / g.Kp / g.Tf : Infinity,
    },
    C,
    wc,
    wc_source: source,
    pm_target: pmT,
    pm_source: pmSource,
    ...(fromSpec ? { from_spec: fromSpec } : {}),
    ratio: r,
    status: st,
    phase_needed: pick.want / DEG,
    phase_used: pick.used / DEG,
    ...rep,
    spec,
    notes,
  };
}

// ------------------------------------------------------------------ lead / lag

export interface LeadLagResult extends LoopReport {
  kind: 'lead' | 'lag';
  /** loop gain K (from Kv, or given, or 1) */
  K: number;
  /** lead: a > 1 in K(aTs + 1)/(Ts + 1); lag: β > 1 in K(Ts + 1)/(βTs + 1) */
  a: number;
  T: number;
  zero: number;
  pole: number;
  /** maximum phase lead asin((a − 1)/(a + 1)) (lead), or the lag's phase at ωc (negative) */
  phi_deg: number;
  /** the new crossover frequency the design put the compensator at */
  wc: number;
  /** phase margin of K·P alone, and its crossover */
  pm_uncomp: number;
  w_gc_uncomp: number;
  pm_target: number;
  /** the safety angle: given (textbook), or solved for (exact) */
  extra: number;
  extra_source: 'given' | 'solved';
  C: { num: number[]; den: number[] };
  spec: SpecItem[];
  notes: string[];
}

/** |K P(jw)| and its phase (rad, unwrapped near −π for the crossings searched) */
function magPhase(p: Siso, K: number, w: number): { g: number; th: number } {
  const [a, b] = p.H(w);
  return { g: Math.abs(K) * Math.hypot(a, b), th: Math.atan2(Math.sign(K) * b, Math.sign(K) * a) };
}

/** the first frequency where |K P(jω)| falls through `level` (log grid over the plant's corners, refined) */
function firstGainCrossing(p: Siso, K: number, level: number): number | undefined {
  const cs = corners(p);
  const lo = Math.log10(cs.length ? Math.min(...cs) : 1) - 5;
  const hi = Math.log10(cs.length ? Math.max(...cs) : 1) + 5;
  const Nw = 4000;
  let prevW = 10 ** lo;
  let prevG = magPhase(p, K, prevW).g - level;
  for (let k = 1; k < Nw; k++) {
    const w = 10 ** (lo + ((hi - lo) * k) / (Nw - 1));
    const gv = magPhase(p, K, w).g - level;
    if (prevG > 0 && gv <= 0) return brent((x) => Math.log(magPhase(p, K, x).g / level), prevW, w, undefined, undefined, 1e-15 * w);
    prevW = w;
    prevG = gv;
  }
  return undefined;
}

function leadAt(p: Siso, K: number, phim: number): { a: number; wm: number; T: number; pm: number } | undefined {
  const a = (1 + Math.sin(phim)) / (1 - Math.sin(phim));
  const wm = firstGainCrossing(p, K, 1 / Math.sqrt(a));
  if (wm === undefined) return undefined;
  let pm = 180 + (magPhase(p, K, wm).th + phim) / DEG;
  pm = wrap(pm * DEG) / DEG;
  return { a, wm, T: 1 / (wm * Math.sqrt(a)), pm };
}

const MAX_LEAD = 75 * DEG;

export function leadlag(args: R): LeadLagResult {
  const tool = 'leadlag';
  const p = readPlant(args, tool);
  const kind = (args.kind ?? 'lead') as 'lead' | 'lag';
  if (kind !== 'lead' && kind !== 'lag') throw new ControlError(`${tool}: kind is 'lead' or 'lag', not ${String(args.kind)}.`);
  const pmT = readPm(args, tool, 50);
  const notes: string[] = [];
  let K = 1;
  if (args.Kv !== undefined && args.K !== undefined) throw new ControlError(`${tool}: give the loop gain K or the velocity error constant Kv, not both.`);
  if (args.Kv !== undefined) {
    const Kv = readPositive(args, 'Kv', tool, 'velocity error constant, 1/s')!;
    // Kv = lim s·K·P(s): P must have exactly one integrator
    const den = trimTrail(polyStrip(p.den));
    const ints = polyStrip(p.den).length - den.length;
    if (ints !== 1)
      throw new ControlError(`${tool}: Kv = lim s·K·P(s) needs a plant with one integrator (this one has ${ints}); give the loop gain K instead.`);
    const num = polyStrip(p.num);
    const lim = num[num.length - 1] / den[den.length - 1];
    if (lim === 0) throw new ControlError(`${tool}: the plant has a zero at s = 0, so Kv is 0 for every gain; give K instead.`);
    K = Kv / lim;
  } else if (args.K !== undefined) {
    K = args.K;
    if (typeof K !== 'number' || !Number.isFinite(K) || K === 0) throw new ControlError(`${tool}: K must be a nonzero number, not ${String(args.K)}.`);
  }
  const extraGiven = args.extra !== undefined && args.extra !== null;
  if (extraGiven && (typeof args.extra !== 'number' || !(args.extra >= 0 && args.extra < 60)))
    throw new ControlError(`${tool}: extra (the safety angle in degrees) must be between 0 and 60, not ${String(args.extra)}.`);
  const zr = readPositive(args, 'r', tool, 'ratio of the new crossover to the lag zero') ?? 10;
  if (kind === 'lag' && zr <= 1) throw new ControlError(`${tool}: r must be above 1 (the lag zero below the crossover; 10 is the usual decade).`);
  const wcGiven = readPositive(args, 'wc', tool, 'the new crossover frequency in rad/s');
  if (wcGiven !== undefined && (args.K !== undefined || args.Kv !== undefined))
    throw new ControlError(
      `${tool}: give the crossover wc or the gain (K or Kv), not both: with wc the lead's gain is what puts the crossover there (|K·P(jωc)|·√a = 1).`,
    );
  if (wcGiven !== undefined && kind === 'lag')
    throw new ControlError(`${tool}: a crossover wc is taken by the lead design; a lag's crossover follows from the phase margin (give K or Kv instead).`);
  if (wcGiven !== undefined && extraGiven)
    throw new ControlError(`${tool}: with a crossover wc given the lead is exact; the safety angle extra does not apply.`);
  if (wcGiven !== undefined) {
    // the maximum lead at the given crossover: φm = PM − (180° + ∠P(jωc)), K from |K·P(jωc)|·√a = 1
    const { g, th } = magPhase(p, 1, wcGiven);
    const pmP = wrap(Math.PI + th) / DEG;
    const want = pmT - pmP;
    const phim = Math.min(Math.max(want, 0), 75) * DEG;
    const aa = (1 + Math.sin(phim)) / (1 - Math.sin(phim));
    const T = phim > 0 ? 1 / (wcGiven * Math.sqrt(aa)) : 0;
    K = 1 / (g * Math.sqrt(aa));
    const C = phim > 0 ? { num: [K * aa * T, K], den: [T, 1] } : { num: [K], den: [1] };
    if (want <= 0)
      notes.push(
        `At ωc = ${fmt(wcGiven)} rad/s the plant alone leaves a ${fmt(pmP)}° margin (target ${fmt(pmT)}°): no lead is needed, the compensator is the gain K.`,
      );
    if (want > 75)
      notes.push(
        `A ${fmt(pmT)}° margin at ${fmt(wcGiven)} rad/s needs ${fmt(want)}° of lead, more than one stage gives (75° here): the best single stage is shown; use two stages or a lower crossover.`,
      );
    const rep = loopReport(C, p, wcGiven, tool);
    return {
      kind,
      K,
      a: aa,
      T,
      zero: T > 0 ? 1 / (aa * T) : NaN,
      pole: T > 0 ? 1 / T : NaN,
      phi_deg: phim / DEG,
      wc: wcGiven,
      pm_uncomp: pmP,
      w_gc_uncomp: NaN,
      pm_target: pmT,
      extra: 0,
      extra_source: 'solved',
      C,
      ...rep,
      spec: [
        { item: 'crossover ωc', target: `${fmt(wcGiven)} rad/s`, achieved: `${fmt(rep.w_gc)} rad/s`, pass: Math.abs(rep.w_gc - wcGiven) <= 1e-6 * wcGiven },
        { item: 'phase margin', target: `${fmt(pmT)}°`, achieved: `${fmt(rep.pm)}°`, pass: rep.pm >= pmT - 1e-6 },
        { item: 'closed loop', target: 'stable', achieved: rep.stable ? 'stable' : 'unstable', pass: rep.stable },
      ],
      notes,
    };
  }
  const w0 = firstGainCrossing(p, K, 1);
  const pm0 = w0 === undefined ? Infinity : wrap(180 * DEG + magPhase(p, K, w0).th) / DEG;
  let a = 1;
  let T = 0;
  let wc = w0 ?? NaN;
  let extra = extraGiven ? args.extra : 0;
  let phi = 0;
  let C: { num: number[]; den: number[] };
  if (kind === 'lead') {
    if (w0 === undefined) throw new ControlError(`${tool}: |K·P(jω)| never crosses 1, so there is no crossover to add lead at; raise K.`);
    if (pm0 >= pmT && !extraGiven) {
      notes.push(`K·P already has a ${fmt(pm0)}° phase margin (target ${fmt(pmT)}°): no lead is needed; the compensator is the gain K.`);
      C = { num: [K], den: [1] };
    } else {
      let d: ReturnType<typeof leadAt>;
      if (extraGiven) {
        phi = (pmT - pm0 + extra) * DEG;
        if (!(phi > 0 && phi < MAX_LEAD))
          throw new ControlError(
            `${tool}: the textbook lead ${fmt(phi / DEG)}° (${fmt(pmT)}° − ${fmt(pm0)}° + ${fmt(extra)}°) is outside what one lead stage gives (0° to 75°); ${phi <= 0 ? 'no lead is needed' : 'use two stages or a lower K'}.`,
          );
        d = leadAt(p, K, phi);
      } else {
        // solve for φm so that the achieved margin is the target exactly
        const f = (x: number) => {
          const r = leadAt(p, K, x);
          return r ? r.pm - pmT : NaN;
        };
        const grid = Array.from({ length: 150 }, (_, k) => ((k + 1) / 150) * MAX_LEAD);
        const vals = grid.map(f);
        let root: number | undefined;
        for (let k = 1; k < grid.length; k++)
          if (vals[k - 1] < 0 && vals[k] >= 0) {
            root = brent(f, grid[k - 1], grid[k], vals[k - 1], vals[k], 1e-15);
            break;
          }
        if (root === undefined) {
          let best = 0;
          vals.forEach((v, k) => {
            if (Number.isFinite(v) && !(v <= vals[best])) best = k;
          });
          root = grid[best];
          notes.push(
            `One lead stage cannot reach a ${fmt(pmT)}° margin on this loop (at most ${fmt(pmT + vals[best])}° with up to 75° of lead): the best single stage is shown; use two stages, a lower K, or a PID.`,
          );
        }
        phi = root;
        d = leadAt(p, K, phi);
        extra = phi / DEG - (pmT - pm0);
      }
      if (!d) throw new ControlError(`${tool}: no crossover found for the lead design.`);
      a = d.a;
      T = d.T;
      wc = d.wm;
      C = { num: [K * a * T, K], den: [T, 1] };
    }
  } else {
    // lag: zero at ωc/r, β from |C P(jωc)| = 1 exactly
    const lagAt = (w: number) => {
      const { g, th } = magPhase(p, K, w);
      if (!(g > 1)) return undefined;
      const beta = Math.sqrt(g * g * (1 + zr * zr) - 1) / zr;
      const ph = Math.atan(zr) - Math.atan(zr * beta);
      return { beta, pm: wrap(Math.PI + th + ph) / DEG, ph };
    };
    if (pm0 >= pmT && !extraGiven) {
      notes.push(`K·P already has a ${fmt(pm0)}° phase margin (target ${fmt(pmT)}°): no lag is needed; the compensator is the gain K.`);
      C = { num: [K], den: [1] };
    } else {
      let w: number | undefined;
      if (extraGiven) w = firstPhaseCrossingK(p, K, (-180 + pmT + extra) * DEG);
      else {
        // the highest crossover (below K·P's own) whose lag-compensated margin is the target
        const hiW = w0 ?? 1;
        const Nw = 2000;
        const ws = Array.from({ length: Nw }, (_, k) => hiW * 10 ** (-6 + (6 * k) / (Nw - 1)));
        const f = (x: number) => {
          const r = lagAt(x);
          return r ? r.pm - pmT : NaN;
        };
        const vals = ws.map(f);
        for (let k = Nw - 1; k >= 1; k--)
          if (vals[k - 1] >= 0 && vals[k] < 0) {
            w = brent(f, ws[k - 1], ws[k], vals[k - 1], vals[k], 1e-15 * ws[k]);
            break;
          }
      }
      const d = w === undefined ? undefined : lagAt(w);
      if (w === undefined || !d)
        throw new ControlError(
          `${tool}: no crossover below K·P's own gives a ${fmt(pmT)}° margin with a lag (the plant's phase never leaves that much room where its gain is above 1); use a lead compensator or a lower target.`,
        );
      wc = w;
      a = d.beta;
      T = zr / w;
      phi = d.ph;
      // the lag's cost at ωc: ∠K·P(jωc) = −180° + PM + extra
      if (!extraGiven) extra = 180 + magPhase(p, K, w).th / DEG - pmT;
      C = { num: [K * T, K], den: [a * T, 1] };
    }
  }
  const rep = loopReport(C, p, Number.isFinite(wc) ? wc : 1, tool);
  const spec: SpecItem[] = [
    { item: 'phase margin', target: `${fmt(pmT)}°`, achieved: `${fmt(rep.pm)}°`, pass: rep.pm >= pmT - 1e-6 },
    { item: 'closed loop', target: 'stable', achieved: rep.stable ? 'stable' : 'unstable', pass: rep.stable },
  ];
  if (args.Kv !== undefined)
    spec.unshift({ item: 'velocity constant Kv', target: `${fmt(args.Kv)} 1/s`, achieved: `${fmt(args.Kv)} 1/s (K = ${fmt(K)})`, pass: true });
  return {
    kind,
    K,
    a,
    T,
    zero: T > 0 ? (kind === 'lead' ? 1 / (a * T) : 1 / T) : NaN,
    pole: T > 0 ? (kind === 'lead' ? 1 / T : 1 / (a * T)) : NaN,
    phi_deg: kind === 'lead' ? Math.asin((a - 1) / (a + 1)) / DEG : phi / DEG,
    wc,
    pm_uncomp: pm0,
    w_gc_uncomp: w0 ?? NaN,
    pm_target: pmT,
    extra,
    extra_source: extraGiven ? 'given' : 'solved',
    C,
    ...rep,
    spec,
    notes,
  };
}

/** the first frequency where ∠(K P) falls to `target` (rad) */
function firstPhaseCrossingK(p: Siso, K: number, target: number): number | undefined {
  return firstPhaseCrossing(p, Math.sign(K), target);
}

// ------------------------------------------------------------------ rendering

const show = (x: number, o: RenderOptions) => (Number.isNaN(x) ? '–' : x === Infinity ? '∞' : x === -Infinity ? '−∞' : fmt(x, o.digits));

function loopLines(r: LoopReport, o: RenderOptions): string[] {
  const f = (x: number) => show(x, o);
  const out: string[] = [];
  const gcs = r.w_gc_all.map((w, i) => `${f(w)} rad/s (PM ${f(r.pm_all[i])}°)`).join(', ');
  out.push(
    `**Margins of L = C·P:** gain crossover${r.w_gc_all.length > 1 ? 's' : ''} ${gcs || 'none'}; gain margin ${f(r.gm)} (${f(r.gm_db)} dB)${Number.isFinite(r.w_pc) ? ` at ${f(r.w_pc)} rad/s` : ' (the phase never crosses −180°)'}.`,
  );
  out.push(`**Closed loop** T = L/(1 + L): ${r.stable ? 'stable' : '**unstable**'}, poles ${r.poles.map((z) => fmtComplex(z, o.digits)).join(', ')}.`);
  if (r.stable)
    out.push(
      `**Step response of T:** rise time (10–90 %) ${f(r.rise_time)} s, settling time (2 %) ${f(r.settling_time)} s, overshoot ${f(r.overshoot_pct)} %, peak ${f(r.peak)} at ${f(r.peak_time)} s, final value ${f(r.final_value)}.`,
    );
  else out.push('No step characteristics: the closed loop is unstable.');
  return out;
}

const TYPE_FORM: Record<PidType, string> = {
  P: 'Kp',
  PI: 'Kp + Ki/s',
  PD: 'Kp + Kd·s',
  PID: 'Kp + Ki/s + Kd·s',
  PIDF: 'Kp + Ki/s + Kd·s/(Tf·s + 1)',
};

function renderPid(_args: R, r: PidResult, o: RenderOptions): string {
  const f = (x: number) => show(x, o);
  const parts: string[] = [];
  const form = o.math ? `$C(s) = ${TYPE_FORM[r.type].replace(/·/g, ' ')}$` : `C(s) = ${TYPE_FORM[r.type]}`;
  parts.push(`**${r.type} controller**, ${form}:`);
  parts.push(
    [
      '| form | Kp | Ki | Kd | Tf |',
      '|---|---:|---:|---:|---:|',
      `| parallel (pid) | ${f(r.Kp)} | ${f(r.Ki)} | ${f(r.Kd)} | ${f(r.Tf)} |`,
      '| **standard (pidstd)** | **Kp** | **Ti** | **Td** | **N** |',
      `| Kp·(1 + 1/(Ti·s) + Td·s/((Td/N)·s + 1)) | ${f(r.standard.Kp)} | ${f(r.standard.Ti)} | ${f(r.standard.Td)} | ${f(r.standard.N)} |`,
    ].join('\n'),
  );
  const src =
    r.wc_source === 'given'
      ? 'as given'
      : r.wc_source === 'spec'
        ? 'from the speed targets, below'
        : r.wc_source === 'chosen'
          ? `chosen: the first frequency where the plant's phase leaves the ${fmt(r.pm_target)}° margin to the controller's phase with its corners at the textbook places`
          : "chosen: the plant's fastest corner";
  parts.push(
    `**Design:** crossover ωc = ${f(r.wc)} rad/s (${src}); at ωc the controller gives ${f(r.phase_used)}° (needed ${f(r.phase_needed)}°) and the gain 1/|P(jωc)|${r.type === 'PID' || r.type === 'PIDF' ? `; Ti = ${fmt(r.ratio)}·Td` : ''}${r.type === 'PIDF' ? `, Tf = Td/N` : ''}.`,
  );
  if (r.from_spec?.lines.length)
    parts.push(
      `**From the time-domain targets** (the second-order prototype L = ωn²/(s(s + 2ζωn)), whose closed loop has exactly these characteristics; a ${r.type} loop only approximates it, so the step is checked below): ${r.from_spec.lines.join('; ')}.`,
    );
  parts.push(specTable(r.spec));
  const missed = r.spec.filter((s) => !s.pass).map((s) => s.item);
  if (missed.length) parts.push(`✘ The design misses its specification: ${missed.join(', ')}.`);
  parts.push(...loopLines(r, o));
  for (const n of r.notes) parts.push(`**Note:** ${n}`);
  parts.push(
    "MATLAB's pidtune picks its crossover and shapes the controller by an unpublished rule; this design solves the magnitude and phase conditions at ωc exactly (PID: Ti = 4·Td; PIDF: N = 10). Given the same ωc, a PI is the same as MATLAB's; the crossover it picks by default, and PID gains, can differ.",
  );
  return parts.join('\n\n');
}

function renderLeadLag(_args: R, r: LeadLagResult, o: RenderOptions): string {
  const f = (x: number) => show(x, o);
  const parts: string[] = [];
  if (r.T === 0) parts.push(`**No ${r.kind} needed:** C(s) = K = ${f(r.K)}.`);
  else if (r.kind === 'lead')
    parts.push(
      `**Lead compensator** C(s) = K·(a·T·s + 1)/(T·s + 1) = ${f(r.K * r.a)}·(s + ${f(r.zero)})/(s + ${f(r.pole)}), with K = ${f(r.K)}, a = ${f(r.a)}, T = ${f(r.T)} s: maximum lead φm = asin((a − 1)/(a + 1)) = ${f(r.phi_deg)}° at ωm = 1/(T·√a) = ${f(r.wc)} rad/s, placed at the new crossover (|K·P(jωm)| = 1/√a).`,
    );
  else
    parts.push(
      `**Lag compensator** C(s) = K·(T·s + 1)/(β·T·s + 1) = ${f(r.K / r.a)}·(s + ${f(r.zero)})/(s + ${f(r.pole)}), with K = ${f(r.K)}, β = ${f(r.a)}, T = ${f(r.T)} s: zero at ωc/${fmt(r.T * r.wc)}, new crossover ωc = ${f(r.wc)} rad/s where the lag costs ${f(-r.phi_deg)}° and β brings |C·P| to 1.`,
    );
  parts.push(
    `**Uncompensated** K·P: phase margin ${f(r.pm_uncomp)}° at ${f(r.w_gc_uncomp)} rad/s. Safety angle ${f(r.extra)}° (${r.extra_source === 'given' ? 'as given: the textbook method' : 'solved for so that the margin is the target exactly; the textbooks add 5°–12° by eye'}).`,
  );
  parts.push(specTable(r.spec));
  parts.push(...loopLines(r, o));
  for (const n of r.notes) parts.push(`**Note:** ${n}`);
  return parts.join('\n\n');
}

// ------------------------------------------------------------------ code

function controllerCode(code: { lang: string; assign(n: string, e: string): unknown }, C: { num: number[]; den: number[] }): void {
  const lang = code.lang as 'matlab' | 'python';
  code.assign('C', `${lang === 'matlab' ? 'tf' : 'ct.tf'}(${vectorLiteral(C.num, lang)}, ${vectorLiteral(C.den, lang)})`);
}

function loopCheckCode(code: import('../codegen/code.js').Code, a?: R, r?: R): void {
  loopStepCode(code);
  // the time-domain targets, re-checked on T's step (pidtune); with their translation when it set PM or ωc
  if (a && ['overshoot_pct', 'settling_time', 'rise_time'].some((k) => typeof a[k] === 'number')) {
    if (r?.from_spec?.lines?.length) code.comment(`PM and wc from the targets (second-order prototype):\n  ${(r.from_spec.lines as string[]).join('\n  ')}`);
    specCheckCode(code, a, r?.spec);
  }
}

function loopStepCode(code: import('../codegen/code.js').Code): void {
  if (code.lang === 'matlab') {
    code.assign('L', 'C*G');
    code.line('[Gm, Pm, Wcg, Wcp] = margin(L)   % Pm at the crossover Wcp');
    code.assign('T', 'feedback(L, 1)');
    code.line('p = pole(T)');
    code.line("S = stepinfo(T, 'RiseTimeLimits', [0.1 0.9], 'SettlingTimeThreshold', 0.02)");
  } else {
    code.assign('L', 'C * G');
    code.line('gm, pm, wcg, wcp = ct.margin(L)   # pm at the crossover wcp');
    code.assign('T', 'ct.feedback(L, 1)');
    code.line('p = ct.poles(T)');
    code.line('S = ct.step_info(T, SettlingTimeThreshold=0.02, RiseTimeLimits=(0.1, 0.9))');
  }
}

const pidPlotsFacet = (_args: R, r: R | undefined): PlotSpec[] => {
  if (!r?.L || !r?.Tcl) return [];
  const out: PlotSpec[] = [{ kind: 'bode', args: { num: r.L.num, den: r.L.den }, title: 'Plot Bode of the loop L = C·P' }];
  if (r.stable) out.push({ kind: 'step', args: { num: r.Tcl.num, den: r.Tcl.den }, title: 'Plot closed-loop step response' });
  return out;
};

const plantProps = { ...tfProps, ...ssProps, ...tsProp };
const LOOP_NONFINITE = ['gm', 'gm_db', 'w_pc', 'w_gc', 'pm', 'rise_time', 'settling_time', 'overshoot_pct', 'peak', 'peak_time', 'final_value'];

export const tools = [
  tool({
    name: 'pidtune',
    nonFinite: [...LOOP_NONFINITE, 'standard'],
    words: {
      calls: [{ names: ['pidtune'], args: ['sys', 'type', 'wc'] }],
      phrases: [
        'pidtune',
        'tune a pid',
        'tune a pi',
        'tune the pid',
        'pid tuning',
        'tune pid',
        'design a pid',
        'design a pi controller',
        'pi controller',
        'pid controller',
        'pd controller',
        'pidf controller',
        'p controller',
        'proportional-integral controller',
        'proportional integral controller',
        'proportional-integral-derivative',
        'pid with derivative filter',
        // "a PI for G(s) = …", "PID for the motor": the structure named with its plant (bare 'pi for' is left out: 2*pi for …)
        'a pi for',
        'a pd for',
        'a pid for',
        'pid for',
        'pidf for',
      ],
      aliases: { pm: ['PhaseMargin', 'phase_margin', 'PM'], wc: ['crossover', 'wc', 'omega_c'] },
      example: '/pidtune num=[1], den=[1 3 3 1], type=PI, wc=0.5205',
    },
    brief:
      'Tune a P/PI/PD/PID/PIDF controller for a SISO plant to a crossover wc and phase margin pm (default 60), or to overshoot/settling/rise-time targets.',
    title: 'PID tuning to a crossover and phase margin',
    description:
      "PID tuning of a continuous SISO plant (num/den or A, B, C, D), as MATLAB pidtune(G, type, wc, pidtuneOptions('PhaseMargin', pm)): type P, PI, PD, PID (ideal derivative) or PIDF (derivative filter Tf = Td/N); wc the target gain crossover (rad/s; chosen from the plant's phase when omitted); pm the phase margin in degrees (default 60). " +
      'Solves |C(jwc)P(jwc)| = 1 and 180° + ∠C(jwc)P(jwc) = pm exactly (PID/PIDF: Ti = ratio·Td, ratio 4; N 10), or says the structure cannot and gives the best it can. ' +
      'Returns the gains in parallel form (Kp, Ki, Kd, Tf; C = Kp + Ki/s + Kd s/(Tf s + 1)) and standard form (Kp, Ti, Td, N), the margins of L = C·P, the closed-loop poles, stability and step characteristics, and the specification with pass/fail per item. ' +
      "Optional time-domain targets overshoot_pct, settling_time (2 %) and rise_time (10–90 %), all maxima: without pm, the overshoot sets it (ζ of the second-order prototype, PM = atan(2ζ/√(√(1+4ζ⁴) − 2ζ²))); without wc, the settling time (ζωn = 4/ts) and rise time (the prototype's exact 10–90 % time) set ωn and ωc = ωn√(√(1+4ζ⁴) − 2ζ²); every target is then checked on the closed-loop step with pass/fail.",
    parameters: {
      type: 'object',
      properties: {
        ...plantProps,
        type: {
          type: 'string',
          enum: [...PID_TYPES],
          default: 'PID',
          description: "controller type: 'P', 'PI', 'PD', 'PID' (ideal derivative) or 'PIDF' (filtered); default PID",
        },
        wc: { type: 'number', exclusiveMinimum: 0, description: 'target gain crossover frequency in rad/s; chosen from the plant when omitted' },
        pm: { type: 'number', exclusiveMinimum: 0, description: 'target phase margin in degrees (default 60, as MATLAB)' },
        ratio: { type: 'number', exclusiveMinimum: 0, description: 'PID/PIDF: Ti/Td (default 4)' },
        N: { type: 'number', exclusiveMinimum: 0, description: 'PIDF: derivative filter divisor, Tf = Td/N (default 10)' },
        overshoot_pct: {
          type: 'number',
          minimum: 0,
          description: 'optional target: maximum overshoot of the closed-loop step in percent (sets pm when pm is omitted; checked, pass/fail)',
        },
        settling_time: {
          type: 'number',
          exclusiveMinimum: 0,
          description: 'optional target: maximum 2 % settling time of the closed-loop step in s (sets wc when wc is omitted; checked)',
        },
        rise_time: {
          type: 'number',
          exclusiveMinimum: 0,
          description: 'optional target: maximum 10–90 % rise time of the closed-loop step in s (sets wc when wc is omitted; checked)',
        },
      },
      required: [],
      additionalProperties: false,
    },
    run: (args) => pidtune(args) as unknown as R,
    intro:
      '**PID tuning.** The controller C is chosen so that the loop L = C·P crosses 0 dB at ωc with the phase margin asked: |C(jωc)| = 1/|P(jωc)| and ∠C(jωc) = −180° + PM − ∠P(jωc), solved exactly for the structure; then the closed loop is checked.',
    render: renderPid as unknown as (a: R, r: R, o: RenderOptions) => string,
    code: {
      title: 'a PID controller to a crossover and phase margin, and its loop checked',
      gen(code, a, r) {
        systemCode(code, a, 'G');
        const M = code.lang === 'matlab';
        const type = (a.type ?? 'PID') as string;
        const pmT = numberLiteral((r as PidResult | undefined)?.pm_target ?? a.pm ?? 60, code.lang);
        if (r) {
          const g = r as PidResult;
          const lit = (x: number) => numberLiteral(x, code.lang);
          if (M) {
            code.assign('C', `pid(${lit(g.Kp)}, ${lit(g.Ki)}, ${lit(g.Kd)}, ${lit(g.Tf)})`);
            code.line('Cstd = pidstd(C)   % standard form: Kp, Ti, Td, N');
          } else {
            code.comment(`python-control has no pidtune: the ${type} controller Kp + Ki/s + Kd s/(Tf s + 1) as a transfer function`);
            controllerCode(code, g.C);
          }
          loopCheckCode(code, a, g as unknown as R);
          if (M)
            code.comment(
              `MATLAB's own tuner, for comparison (its rule differs; the same wc gives the same PI):\n  Cm = pidtune(G, '${type}', ${lit(g.wc)}, pidtuneOptions('PhaseMargin', ${pmT}))`,
            );
          code
            .comment(verdictHolder)
            .expect('Kp', g.Kp)
            .expect('Ki', g.Ki)
            .expect('Kd', g.Kd)
            .expect('Tf', g.Tf)
            .expect('wc', g.wc)
            .expect('pm at wc', g.pm_at_wc);
        } else if (M) code.line(`C = pidtune(G, '${type}'${a.wc ? `, ${numberLiteral(a.wc, code.lang)}` : ''}, pidtuneOptions('PhaseMargin', ${pmT}))`);
        else code.comment('python-control has no pidtune');
      },
    },
    model: BY_LOOKUP,
    plots: pidPlotsFacet,
  }),
  tool({
    name: 'leadlag',
    nonFinite: [...LOOP_NONFINITE, 'zero', 'pole', 'pm_uncomp', 'w_gc_uncomp', 'wc'],
    words: {
      calls: [{ names: ['leadlag'], args: ['sys', 'kind', 'pm'] }],
      phrases: [
        'lead compensator',
        'lag compensator',
        'phase lead compensator',
        'phase lag compensator',
        'lead-lag compensator',
        'lead network',
        'lag network',
        'lead compensation',
        'lag compensation',
      ],
      aliases: { pm: ['PhaseMargin', 'phase_margin', 'PM'] },
      example: '/leadlag num=[4], den=[1 2 0], kind=lead, pm=50, Kv=20',
    },
    brief: 'Lead or lag compensator to a phase-margin specification (classic Bode method), optional Kv.',
    title: 'Lead/lag compensator to a phase margin',
    description:
      'Classic lead or lag compensator design (Ogata; Franklin, Powell and Emami-Naeini) for a continuous SISO plant (num/den or A, B, C, D) to a phase margin pm in degrees (default 50). K: the loop gain, or Kv (velocity error constant, plant with one integrator) to set it. ' +
      'Lead C = K(aTs + 1)/(Ts + 1): max lead asin((a − 1)/(a + 1)) at the new crossover 1/(T√a). Lag C = K(Ts + 1)/(βTs + 1): zero at wc/r (r = 10), β from |CP(jwc)| = 1. ' +
      'wc (lead only, instead of K/Kv): the maximum lead is placed at that crossover and K set by it. extra: the textbook safety angle in degrees; omitted, it is solved so the achieved margin is pm exactly. Returns C, a (or β), T, zero, pole, the margins of L = C·P, closed-loop poles, step characteristics and the specification with pass/fail.',
    parameters: {
      type: 'object',
      properties: {
        ...plantProps,
        kind: {
          type: 'string',
          enum: ['lead', 'lag'],
          default: 'lead',
          description: "'lead' (adds phase at a higher crossover) or 'lag' (lowers the crossover); default lead",
        },
        pm: { type: 'number', exclusiveMinimum: 0, description: 'target phase margin in degrees (default 50)' },
        K: { type: 'number', description: 'loop gain K (default 1)' },
        Kv: { type: 'number', exclusiveMinimum: 0, description: 'velocity error constant lim s·K·P(s) in 1/s (sets K)' },
        extra: { type: 'number', minimum: 0, description: 'safety angle in degrees (textbook: 5 to 12); omitted: solved for the exact margin' },
        r: { type: 'number', exclusiveMinimum: 1, description: 'lag: the new crossover over the lag zero (default 10)' },
        wc: {
          type: 'number',
          exclusiveMinimum: 0,
          description: 'lead: the new crossover in rad/s (the maximum lead placed there, K from it); instead of K or Kv',
        },
      },
      required: [],
      additionalProperties: false,
    },
    run: (args) => leadlag(args) as unknown as R,
    intro:
      '**Lead/lag compensation.** A lead adds its maximum phase φm = asin((a − 1)/(a + 1)) at the new crossover; a lag lowers the crossover to where the plant has the phase margin, costing a few degrees at its zero a decade below.',
    render: renderLeadLag as unknown as (a: R, r: R, o: RenderOptions) => string,
    code: {
      title: 'a lead/lag compensator to a phase margin, and its loop checked',
      gen(code, a, r) {
        systemCode(code, a, 'G');
        if (r) {
          const g = r as LeadLagResult;
          code.comment(
            `${g.kind} compensator ${g.kind === 'lead' ? 'K(aTs + 1)/(Ts + 1)' : 'K(Ts + 1)/(bTs + 1)'}: K = ${fmt(g.K, 10)}, ${g.kind === 'lead' ? 'a' : 'b'} = ${fmt(g.a, 10)}, T = ${fmt(g.T, 10)}`,
          );
          controllerCode(code, g.C);
          loopCheckCode(code);
          code.comment(verdictHolder).expect('zero', g.zero).expect('pole', g.pole).expect('pm', g.pm).expect('wc', g.w_gc);
        } else code.comment('no design: the call was refused');
      },
    },
    model: BY_LOOKUP,
    plots: pidPlotsFacet,
  }),
];
