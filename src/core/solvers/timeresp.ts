/**
 * Time responses: step and impulse (continuous by exact discretisation of the dynamics, a
 * matrix-exponential recursion; discrete by the difference equation), and step-response
 * characteristics (stepinfo) with crossing times refined by root finding on the exact
 * response y(t) = yf - C e^{At} xf.
 */
import { ControlError } from '../errors.js';
import { tool, type ToolWords, BY_LOOKUP } from '../tools/types.js';
import { renderStepinfo, timeResponseRenderer, type SpecItem } from '../render/results.js';
import { fmt as fmtNum } from '../render/format.js';
import { GENERATORS } from '../codegen/code.js';
import { sisoPlots } from '../plot/specs.js';
import { vector } from '../tools/schema.js';
import type { Matrix } from '../types.js';
import { type Mat, EPS, add, blocks, block, clone, fromRows, luFactor, luSolve, mul, mulVec, normF, scale, toRows, zeros } from '../linalg/dense.js';
import { expm } from '../linalg/expm.js';
import { eigvalsSorted } from '../linalg/schur.js';
import { readSS, scaleGuard, ssProps, tsProp, type SS, requireSiso } from './_sys.js';

// ------------------------------------------------------------------ step / impulse

type Kind = 'step' | 'impulse';

function timeGrid(t: number[], name: string): void {
  if (!t.length) throw new ControlError(`${name}: t is empty; give the sample times, e.g. 0 to 10 in steps of 0.01.`);
  for (let k = 0; k < t.length; k++) {
    if (!Number.isFinite(t[k])) throw new ControlError(`${name}: t[${k + 1}] is not finite.`);
    if (t[k] < 0) throw new ControlError(`${name}: t[${k + 1}] = ${t[k]} is negative; the input starts at t = 0.`);
    if (k && t[k] < t[k - 1]) throw new ControlError(`${name}: t must be nondecreasing (t[${k + 1}] < t[${k}]).`);
  }
}

/**
 * Response to a unit step or impulse on every input: Y[k] is p x m (column j: input j).
 * Continuous: exact on any grid (one matrix exponential per distinct step length).
 * Discrete: t are sample instants k·Ts.
 */
export function simulate(sys: SS, t: number[], kind: Kind): Matrix[] {
  const { n, m, p, Ts } = sys;
  const out: Matrix[] = [];
  // a static gain (n = 0) y = D u: the step response is D for every t >= 0. The impulse
  // response is D at k = 0, then 0 (discrete); continuous, it is D·δ(t), which samples
  // cannot hold: as for every model here (and python-control) the D·δ(t) term is left
  // out, so the samples are 0 and the tool says so (its caution)
  const staticGain = (k0: boolean) => (kind === 'step' || k0 ? sys.D.map((r) => r.slice()) : toRows(zeros(p, m)));
  const A = fromRows(sys.A),
    B = fromRows(sys.B),
    C = fromRows(sys.C),
    D = fromRows(sys.D);
  if (Ts > 0) {
    const idx = t.map((tk, i) => {
      const k = Math.round(tk / Ts);
      if (Math.abs(tk - k * Ts) > 1e-6 * Math.max(Ts, Math.abs(tk)))
        throw new ControlError(`t[${i + 1}] = ${tk} is not a multiple of Ts = ${Ts}; a discrete system has samples at t = k·Ts only.`);
      return k;
    });
    if (n === 0) return idx.map((k) => staticGain(k === 0));
    const K = Math.max(...idx);
    const Y: Mat[] = new Array(K + 1);
    // X[k] (n x m) is the state after k samples
    let X = zeros(n, m);
    if (kind === 'impulse') {
      Y[0] = clone(D);
      X = clone(B);
      for (let k = 1; k <= K; k++) {
        Y[k] = mul(C, X);
        X = mul(A, X);
      }
    } else {
      for (let k = 0; k <= K; k++) {
        Y[k] = add(mul(C, X), D);
        X = add(mul(A, X), B);
      }
    }
    for (const k of idx) out.push(toRows(Y[k]));
    return out;
  }
  if (n === 0) return t.map(() => staticGain(false));
  // continuous: z = [x; u] with u' = 0, one exponential per distinct step
  const cache = new Map<number, { Phi: Mat; Gam: Mat }>();
  const prop = (dt: number) => {
    let e = cache.get(dt);
    if (!e) {
      const E = expm(
        scale(
          blocks([
            [A, B],
            [zeros(m, n), zeros(m, m)],
          ]),
          dt,
        ),
      );
      e = { Phi: block(E, 0, 0, n, n), Gam: block(E, 0, n, n, m) };
      // decayed (‖e^{A·dt}‖ at rounding level, a stable A at a long step): Γ = A⁻¹(e^{A·dt} − I)B
      // is −A⁻¹B to rounding, and that solve is accurate where a thousand squarings of the
      // augmented matrix were not (t = 1e300 on a stiff model: the step's final value 2e-4 off)
      if (normF(e.Phi) <= EPS) {
        const f = luFactor(A);
        if (!f.singular) {
          const x = luSolve(f, B);
          if (x.d.every(Number.isFinite)) e.Gam = scale(x, -1);
        }
      }
      cache.set(dt, e);
    }
    return e;
  };
  // uniform grids: snap step lengths that differ by rounding only
  const h0 = t.length > 1 ? (t[t.length - 1] - t[0]) / (t.length - 1) : 0;
  const uniform = t.every((tk, k) => Math.abs(tk - (t[0] + k * h0)) <= 1e-9 * Math.max(1, Math.abs(tk)));
  let X: Mat;
  if (kind === 'step') {
    X = t[0] > 0 ? prop(t[0]).Gam : zeros(n, m);
  } else {
    X = t[0] > 0 ? mul(prop(t[0]).Phi, B) : clone(B);
  }
  for (let k = 0; k < t.length; k++) {
    if (k > 0) {
      const dt = uniform ? h0 : t[k] - t[k - 1];
      const { Phi, Gam } = prop(dt);
      X = kind === 'step' ? add(mul(Phi, X), Gam) : mul(Phi, X);
    }
    out.push(toRows(kind === 'step' ? add(mul(C, X), D) : mul(C, X)));
  }
  return out;
}

/**
 * An unstable system (or one with entries near 1e200) can grow past 1.8e308, the largest
 * double, within the time asked for: the samples from there on are Infinity or NaN, which is
 * no response. Refused, naming the first time that overflowed and the growth.
 */
function refuseOverflow(Y: Matrix[], t: number[], kind: Kind): void {
  const k = Y.findIndex((M) => M.some((r) => r.some((v) => !Number.isFinite(v))));
  if (k < 0) return;
  throw new ControlError(
    `The ${kind} response overflows: at t = ${t[k]} it exceeds 1.8e308 (the largest double), so the samples from there on are not numbers. ` +
      'The system grows too fast for this time span (an unstable pole, or entries of A, B, C of extreme size); ask for a shorter time span or rescale the model.',
    'numerical',
  );
}

function shapeY(sys: SS, Y: Matrix[]): unknown {
  if (sys.m === 1 && sys.p === 1) return Y.map((M) => M[0][0]);
  return Y;
}

// ------------------------------------------------------------------ stepinfo

/** time-domain design targets a step response is checked against (maxima, except ζ and ωn: minima) */
export interface StepSpec {
  overshoot_pct?: number;
  settling_time?: number;
  rise_time?: number;
  peak_time?: number;
  zeta?: number;
  wn?: number;
  note?: string;
}

/** one verdict: the measured value (null when the response does not show it) against its limit */
export interface StepSpecItem extends SpecItem {
  key: 'overshoot_pct' | 'settling_time' | 'rise_time' | 'peak_time' | 'zeta' | 'wn';
  limit: number;
  value: number | null;
}

/** relative slack of a verdict: a design placed exactly on its specification passes despite rounding */
export const SPEC_RTOL = 1e-6;

/**
 * Pass/fail per target from the measured characteristics. Damping and natural frequency are
 * not visible in a step response directly; they are read through the exact relations of a
 * second-order system without zeros (ζ = −ln Mp/√(π² + ln² Mp) from the overshoot Mp,
 * ωn = π/(tp·√(1 − ζ²)) from the peak time tp), so a pure second-order loop meets them
 * exactly and a third pole or a zero shows as a miss.
 */
export function stepSpecVerdicts(info: StepInfo, spec: StepSpec): StepSpecItem[] {
  const out: StepSpecItem[] = [];
  const f = (x: number) => fmtNum(x);
  const atMost = (key: StepSpecItem['key'], item: string, unit: string, value: number) => {
    const limit = spec[key]!;
    const shown = Number.isFinite(value) ? `${f(value)}${unit}` : value === Infinity ? '∞ (no overshoot)' : '–';
    out.push({
      key,
      item,
      target: `≤ ${f(limit)}${unit}`,
      achieved: shown,
      pass: value <= limit * (1 + SPEC_RTOL),
      limit,
      value: Number.isFinite(value) ? value : null,
    });
  };
  if (spec.overshoot_pct !== undefined) atMost('overshoot_pct', 'overshoot', ' %', info.overshoot_pct);
  if (spec.settling_time !== undefined) atMost('settling_time', 'settling time (2 %)', ' s', info.settling_time);
  if (spec.rise_time !== undefined) atMost('rise_time', 'rise time (10–90 %)', ' s', info.rise_time);
  // no overshoot: no peak time, and a peak-time target is missed
  if (spec.peak_time !== undefined) atMost('peak_time', 'peak time', ' s', info.peak_time);
  const Mp = info.overshoot_pct / 100;
  const zetaEq = Mp > 0 ? -Math.log(Mp) / Math.sqrt(Math.PI ** 2 + Math.log(Mp) ** 2) : 1;
  if (spec.zeta !== undefined) {
    const limit = spec.zeta;
    const achieved = Mp > 0 ? `${f(zetaEq)} (from the ${f(info.overshoot_pct)} % overshoot)` : '≥ 1 (no overshoot)';
    out.push({ key: 'zeta', item: 'damping ζ', target: `≥ ${f(limit)}`, achieved, pass: zetaEq >= Math.min(limit, 1) * (1 - SPEC_RTOL), limit, value: zetaEq });
  }
  if (spec.wn !== undefined) {
    const limit = spec.wn;
    const wnEq = Mp > 0 && Number.isFinite(info.peak_time) ? Math.PI / (info.peak_time * Math.sqrt(1 - zetaEq * zetaEq)) : null;
    out.push({
      key: 'wn',
      item: 'natural frequency ωn',
      target: `≥ ${f(limit)} rad/s`,
      achieved: wnEq === null ? '– (no overshoot, so no peak time to read ωn from)' : `${f(wnEq)} rad/s (from the peak time ${f(info.peak_time)} s)`,
      pass: wnEq !== null && wnEq >= limit * (1 - SPEC_RTOL),
      limit,
      value: wnEq,
    });
  }
  return out;
}

export interface StepInfo {
  rise_time: number;
  settling_time: number;
  overshoot_pct: number;
  peak: number;
  peak_time: number;
  final_value: number;
}

/** Brent's root finder on [a, b] with f(a), f(b) of opposite signs (or zero) */
export function brent(f: (x: number) => number, a: number, b: number, fa = f(a), fb = f(b), xtol = 0): number {
  if (fa === 0) return a;
  if (fb === 0) return b;
  if (fa * fb > 0) return Math.abs(fa) < Math.abs(fb) ? a : b;
  let c = a;
  let fc = fa;
  let d = b - a;
  let e = d;
  for (let it = 0; it < 200; it++) {
    if (fb * fc > 0) {
      c = a;
      fc = fa;
      d = b - a;
      e = d;
    }
    if (Math.abs(fc) < Math.abs(fb)) {
      a = b;
      b = c;
      c = a;
      fa = fb;
      fb = fc;
      fc = fa;
    }
    const tol = 2 * EPS * Math.abs(b) + xtol / 2;
    const mm = 0.5 * (c - b);
    if (Math.abs(mm) <= tol || fb === 0) return b;
    if (Math.abs(e) >= tol && Math.abs(fa) > Math.abs(fb)) {
      let pp: number;
      let q: number;
      const s = fb / fa;
      if (a === c) {
        pp = 2 * mm * s;
        q = 1 - s;
      } else {
        const qq = fa / fc;
        const r = fb / fc;
        pp = s * (2 * mm * qq * (qq - r) - (b - a) * (r - 1));
        q = (qq - 1) * (r - 1) * (s - 1);
      }
      if (pp > 0) q = -q;
      else pp = -pp;
      if (2 * pp < Math.min(3 * mm * q - Math.abs(tol * q), Math.abs(e * q))) {
        e = d;
        d = pp / q;
      } else {
        d = mm;
        e = d;
      }
    } else {
      d = mm;
      e = d;
    }
    a = b;
    fa = fb;
    b += Math.abs(d) > tol ? d : mm > 0 ? tol : -tol;
    fb = f(b);
  }
  return b;
}

/**
 * Step-response characteristics of a stable continuous SISO system (definitions of the
 * oracle README: 10-90 % rise time, 2 % settling time, overshoot relative to |yf - y0|).
 */
export function stepinfo(sys: SS): StepInfo {
  const { C, D, n } = sys;
  if (n === 0)
    throw new ControlError(
      `stepinfo: the model has no states (a static gain D = ${D[0][0]}): its step response is the constant ${D[0][0]} for t >= 0, so it has no rise, overshoot or settling to measure (here they are measured from y(0) = D to the final value, which are equal).`,
      'infeasible',
    );
  const A = fromRows(sys.A);
  const ev = eigvalsSorted(A);
  const nrmA = Math.max(normF(A), 1e-300);
  let sigma = -Infinity;
  let wmax = 0;
  for (const [re, im] of ev) {
    sigma = Math.max(sigma, re);
    wmax = Math.max(wmax, Math.hypot(re, im));
  }
  if (!(sigma < -1e3 * EPS * nrmA))
    throw new ControlError(
      `stepinfo needs an asymptotically stable system (a finite final value), but A has a pole at ${ev
        .find(([r]) => r === sigma)!
        .map((v) => v.toPrecision(6))
        .join(' + i·')} (real part >= 0).`,
      'infeasible',
    );
  const xf = luSolve(luFactor(A), fromRows(sys.B)).d.map((v) => -v); // final state: -A^-1 B (B one column)
  const c = C[0];
  const d = D[0][0];
  const dot = (v: ArrayLike<number>) => c.reduce((s, ci, i) => s + ci * v[i], 0);
  const yf = d + dot(xf);
  const y0 = d;
  const range = Math.abs(yf - y0);
  if (!(range > 1e3 * EPS * Math.max(Math.abs(yf), Math.abs(y0), 1e-300)))
    throw new ControlError('stepinfo: the step response ends where it starts (final value = D), so rise and settling times are undefined.', 'infeasible');
  const sgn = Math.sign(yf - y0);
  // y(t) = yf - c z(t), z(t) = e^{At} xf; y'(t) = -c A z(t)
  const Cn = Math.sqrt(c.reduce((s, v) => s + v * v, 0));
  const band = 0.02 * range;
  // grid step: resolve the fastest dynamics, but keep the grid a manageable size
  let T = 10 / -sigma;
  const hOsc = Math.PI / (8 * Math.max(wmax, 1e-300));
  let h = Math.min(hOsc, T / 2000);
  const MAXN = 100000;
  if (T / h > MAXN / 4) h = T / (MAXN / 4);
  let Phi = expm(scale(A, h));
  const ts: number[] = [0];
  const Z: Float64Array[] = [xf.slice()];
  const ys: number[] = [y0];
  let z: Float64Array = xf.slice();
  // the grid ends where the response has settled; a response that stops being a number
  // (entries of A near 1e300 overflow in e^{Ah}) or never settles within 2^40 coarsenings
  // would run on forever: both are refused
  let rounds = 0;
  for (;;) {
    const k = ts.length;
    z = mulVec(Phi, z);
    ts.push(k * h);
    Z.push(z);
    ys.push(yf - dot(z));
    const tk = k * h;
    if (!z.every(Number.isFinite))
      throw new ControlError(
        `stepinfo: the step response overflowed (it is not a number from t = ${tk.toPrecision(3)} on), so its characteristics cannot be measured; the entries of A, B, C are too large or small for double precision: rescale the model.`,
        'numerical',
      );
    if (tk >= T) {
      // |y - yf| <= |c|·|z| stays far inside the band from here on
      const nz = Math.sqrt(z.reduce((s, v) => s + v * v, 0));
      if (Cn * nz <= 1e-3 * band) break;
      if (++rounds > 200)
        throw new ControlError(
          `stepinfo: the step response did not settle within t = ${tk.toPrecision(3)} (200 extensions of the time span), so its settling time cannot be measured.`,
          'numerical',
        );
      if (ts.length >= MAXN) {
        // coarsen: keep every other point and double the step
        const keep = (a: unknown[]) => a.filter((_, i) => i % 2 === 0);
        const ts2 = keep(ts) as number[];
        ts.length = 0;
        ts.push(...ts2);
        const Z2 = keep(Z) as Float64Array[];
        Z.length = 0;
        Z.push(...Z2);
        const y2 = keep(ys) as number[];
        ys.length = 0;
        ys.push(...y2);
        h *= 2;
        Phi = mul(Phi, Phi);
        z = Z[Z.length - 1];
        for (let i = 0; i < ts.length; i++) ts[i] = i * h;
      }
      T *= 1.5;
    }
  }
  const N = ts.length;
  // exact evaluation inside [ts[k], ts[k+1]]
  const zAt = (k: number, tau: number) => (tau === 0 ? Z[k] : mulVec(expm(scale(A, tau)), Z[k]));
  const yAt = (k: number, t: number) => yf - dot(zAt(k, t - ts[k]));
  const dyAt = (k: number, t: number) => -dot(mulVec(A, zAt(k, t - ts[k])));
  // first crossing of progress level q (fraction of the range)
  const crossUp = (q: number): number => {
    const level = q * range;
    const g = (k: number, t: number) => sgn * (yAt(k, t) - y0) - level;
    for (let k = 1; k < N; k++) {
      const gk = sgn * (ys[k] - y0) - level;
      if (gk >= 0) {
        const g0 = sgn * (ys[k - 1] - y0) - level;
        return brent((t) => g(k - 1, t), ts[k - 1], ts[k], g0, gk);
      }
    }
    return NaN;
  };
  const t10 = crossUp(0.1);
  const t90 = crossUp(0.9);
  // settling: last time |y - yf| = band
  let settling = 0;
  for (let k = N - 1; k >= 0; k--) {
    const e = Math.abs(ys[k] - yf);
    if (e >= band) {
      if (k === N - 1) {
        settling = ts[k];
        break;
      }
      const s = Math.sign(ys[k] - yf);
      const g = (t: number) => s * (yAt(k, t) - yf) - band;
      settling = brent(g, ts[k], ts[k + 1], e - band, s * (ys[k + 1] - yf) - band);
      break;
    }
  }
  // overshoot: maximum of sgn·(y - yf)
  let vmax = -Infinity;
  for (let k = 0; k < N; k++) vmax = Math.max(vmax, sgn * (ys[k] - yf));
  const OVER_TOL = 1e-9 * range;
  let overshoot = 0;
  let peak = Math.abs(yf);
  let peakTime = Infinity;
  if (vmax > OVER_TOL) {
    let best = -Infinity;
    for (let k = 1; k < N - 1; k++) {
      const v = sgn * (ys[k] - yf);
      if (v < sgn * (ys[k - 1] - yf) || v < sgn * (ys[k + 1] - yf)) continue;
      if (v < vmax - 0.05 * (vmax + range) && v < 0.999 * vmax) continue;
      // local maximum near ts[k]: root of sgn·y' in [ts[k-1], ts[k+1]]
      const dl = sgn * dyAt(k - 1, ts[k - 1]);
      const dr = sgn * dyAt(k, ts[k + 1]);
      let tp = ts[k];
      if (dl >= 0 && dr <= 0) {
        const dk = sgn * dyAt(k, ts[k]);
        if (dk >= 0) tp = brent((t) => sgn * dyAt(k, t), ts[k], ts[k + 1], dk, dr);
        else tp = brent((t) => sgn * dyAt(k - 1, t), ts[k - 1], ts[k], dl, dk);
      }
      const seg = tp >= ts[k] ? k : k - 1;
      const vp = sgn * (yAt(seg, tp) - yf);
      if (vp > best) {
        best = vp;
        peakTime = tp;
        peak = Math.abs(yAt(seg, tp));
      }
    }
    if (best === -Infinity) {
      // monotone approach from above at the grid end (should not happen for stable systems)
      best = vmax;
    }
    // the peak value from t itself, y = yf − c·e^{A·t}·xf with one exponential: the grid's
    // state was carried by k products with e^{Ah}, whose rounding grows with k (badly scaled
    // coordinates: the peak 1.4e-8 off a 40-digit value)
    if (Number.isFinite(peakTime)) {
      const ypk = yf - dot(mulVec(expm(scale(A, peakTime)), xf));
      if (Number.isFinite(ypk)) {
        peak = Math.abs(ypk);
        best = sgn * (ypk - yf);
      }
    }
    overshoot = (100 * best) / range;
  }
  void n;
  return {
    rise_time: t90 - t10,
    settling_time: settling,
    overshoot_pct: overshoot,
    peak,
    peak_time: peakTime,
    final_value: yf,
  };
}

// ------------------------------------------------------------------ tools

const tParam = vector('time samples, starting at 0 and uniformly spaced (for a discrete system, t = k·Ts)');

const RESP_WORDS: Record<Kind, ToolWords> = {
  step: {
    calls: [
      { names: ['step', 'step_response', 'stepplot', 'dstep'], args: ['sys', 't'], keywords: { T: 't', t: 't' } },
      { names: ['csim'], args: ['kind', 't', 'sys'], note: "csim('step', t, sys) (Scilab)" },
    ],
    phrases: ['step response', 'step', 'unit step', 'response to a step', 'step input', 'step resp', 'sprungantwort', 'réponse indicielle'],
    aliases: { t: ['T', 'time', 'tvec'] },
    example: '/step num=[1], den=[1 2 1]',
  },
  impulse: {
    calls: [{ names: ['impulse', 'impulse_response', 'impulseplot', 'dimpulse'], args: ['sys', 't'], keywords: { T: 't', t: 't' } }],
    phrases: ['impulse response', 'impulse', 'unit impulse'],
    aliases: { t: ['T', 'time', 'tvec'] },
    example: '/impulse num=[1], den=[1 2 1]',
  },
};

function respTool<K extends Kind>(kind: K) {
  return tool({
    name: kind,
    words: RESP_WORDS[kind],
    title: kind === 'step' ? 'Step response' : 'Impulse response',
    description:
      kind === 'step'
        ? 'Unit step response y(t) of (A, B, C, D) at the times t (continuous: exact sampling by the matrix exponential; discrete when Ts > 0: t = k·Ts). SISO: y is a list; MIMO: y[k] is a p x m matrix (column j: step on input j).'
        : 'Impulse response of (A, B, C, D) at the times t. Continuous: y(t) = C e^{At} B (D ignored). Discrete (Ts > 0): unit pulse, y[0] = D, y[k] = C A^(k-1) B, no 1/Ts scaling. SISO: y is a list; MIMO: y[k] is a p x m matrix.',
    parameters: {
      type: 'object',
      properties: { ...ssProps, t: tParam, ...tsProp },
      required: ['A', 'B', 'C', 't'],
      additionalProperties: false,
    },
    run(args) {
      const sys = readSS(args, kind);
      const t = args.t as number[];
      timeGrid(t, kind);
      const Y = simulate(sys, t, kind);
      refuseOverflow(Y, t, kind);
      const y = shapeY(sys, Y);
      if (kind === 'impulse' && sys.n === 0 && sys.Ts === 0 && sys.D.some((r) => r.some((v) => v !== 0)))
        return {
          y,
          t,
          caution:
            'The model has no states (a static gain D): its impulse response is D·δ(t), a Dirac impulse at t = 0 that samples cannot hold. As for every model here (D is ignored in the continuous impulse response, as python-control does), the samples are C e^{At} B = 0.',
        };
      return { y, t };
    },
    intro: null,
    render: timeResponseRenderer(kind),
    code: GENERATORS[kind],
    model: kind === 'step' ? 'offered' : BY_LOOKUP,
    plots: sisoPlots(kind),
  });
}

export const tools = [
  respTool('step'),
  respTool('impulse'),
  tool({
    name: 'stepinfo',
    // no overshoot: the peak is the final value, reached as t -> Infinity
    nonFinite: ['peak_time'],
    words: {
      calls: [{ names: ['stepinfo', 'step_info'], args: ['sys'] }],
      phrases: [
        'stepinfo',
        'step info',
        'overshoot',
        'settling time',
        'rise time',
        'peak time',
        'step characteristics',
        'step-response characteristics',
        'überschwingweite',
        'überschwingen',
        'ausregelzeit',
        'anstiegszeit',
        'dépassement',
        'temps de montée',
        'temps de réponse',
      ],
      example: '/stepinfo A=[0 1; -2 -3], B=[0;1], C=[1 0]',
    },
    brief: 'Rise time, settling time, overshoot, peak, final value of the step response of (A, B, C, D).',
    title: 'Step-response characteristics',
    description:
      'Rise time (10-90 %), settling time (last time |y - yf| = 2 % of |yf - y0|), overshoot in percent of |yf - y0|, peak |y| and peak time, and final value of the unit step response of a stable continuous SISO system (A, B, C, D). All times are exact crossing times (root finding on the exact response). Without overshoot, peak = |yf| and peak_time = Infinity.',
    parameters: {
      type: 'object',
      properties: {
        ...ssProps,
        spec: {
          type: 'object',
          description:
            'Optional design targets, each checked with pass/fail: overshoot_pct, settling_time, rise_time, peak_time (maxima); zeta and wn (minima, measured through the exact second-order relations: ζ from the overshoot, ωn from the peak time). note: how the system was formed (shown).',
          properties: {
            overshoot_pct: { type: 'number', minimum: 0 },
            settling_time: { type: 'number', exclusiveMinimum: 0 },
            rise_time: { type: 'number', exclusiveMinimum: 0 },
            peak_time: { type: 'number', exclusiveMinimum: 0 },
            zeta: { type: 'number', exclusiveMinimum: 0 },
            wn: { type: 'number', exclusiveMinimum: 0 },
            note: { type: 'string' },
          },
          additionalProperties: false,
        },
      },
      required: ['A', 'B', 'C'],
      additionalProperties: false,
    },
    run(args) {
      const sys = readSS(args, 'stepinfo');
      scaleGuard(sys, 'stepinfo');
      requireSiso(sys, 'stepinfo');
      if (sys.Ts > 0) throw new ControlError('stepinfo is implemented for continuous-time systems only.', 'unsupported');
      const info = stepinfo(sys);
      return args.spec ? { ...info, spec: stepSpecVerdicts(info, args.spec as StepSpec) } : { ...info };
    },
    intro: null,
    render: renderStepinfo,
    code: GENERATORS.stepinfo,
    model: BY_LOOKUP,
    plots: sisoPlots('step'),
  }),
];
