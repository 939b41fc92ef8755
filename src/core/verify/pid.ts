/**
 * Independent checks of pidtune and leadlag (solvers/pid.ts). The solver solves the crossover
 * conditions on the plant's own response, takes margins from freqanalysis.ts, the closed-loop
 * poles from a companion matrix of the kernel and the step characteristics from timeresp.ts's
 * grid and Brent search. Here, from the reported gains alone:
 * - the controller is rebuilt from its parameters (Kp, Ki, Kd, Tf; or K, a, T) by MATLAB's
 *   formulas, and the standard form is recomputed from the parallel one;
 * - L(jω) = C(jω)·P(jω) is evaluated afresh (P by Horner, or by a dense complex solve of
 *   (jωI − A)x = B) at every reported crossover: |L| = 1 and PM = 180° + ∠L; the designed ωc of
 *   pidtune likewise; no crossover below the first is missed on a grid of the verifier's own;
 * - the closed-loop poles are the eigenvalues (ml-matrix, not the kernel's QR) of the companion
 *   matrix of the verifier's characteristic polynomial den_C·den_P + num_C·num_P (a state-space
 *   plant's polynomials from its eigenvalues and an interpolation of P·den on a circle);
 * - the step response of T by a matrix exponential (mathjs Padé) of an augmented realisation of
 *   the verifier's own: y at the reported peak and settling times, the 10 %/90 % times found
 *   by bisection on it, the final value T(0), the overshoot from the peak;
 * - each pass/fail in the specification agrees with the numbers (pidtune's time-domain targets by
 *   stepinfo's own verdict check, verify/systems.ts stepSpecCheck).
 */
import type { Complex, Matrix } from '../types.js';
import type { Check } from './index.js';
import { evalSS, evalTF, stepSpecCheck } from './systems.js';
import { check, matchedDistances, polyFromRoots, safeEigenvalues, safeExpm, strip } from './numeric.js';

type R = Record<string, any>;
type C = Complex;

const cabs = ([a, b]: C) => Math.hypot(a, b);
const cmul = ([a, b]: C, [c, d]: C): C => [a * c - b * d, a * d + b * c];

function pmul(a: number[], b: number[]): number[] {
  const out = new Array(a.length + b.length - 1).fill(0);
  a.forEach((x, i) => b.forEach((y, j) => (out[i + j] += x * y)));
  return out;
}

function padd(a: number[], b: number[]): number[] {
  const n = Math.max(a.length, b.length);
  const A = [...new Array(n - a.length).fill(0), ...a];
  const B = [...new Array(n - b.length).fill(0), ...b];
  return A.map((x, i) => x + B[i]);
}

function companionOf(p: number[]): Matrix {
  const n = p.length - 1;
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === 0 ? -p[j + 1] / p[0] : i === j + 1 ? 1 : 0)));
}

function rootsOf(p: number[]): C[] {
  const q = strip(p);
  return q.length > 1 ? safeEigenvalues(companionOf(q)) : [];
}

/** the plant's num/den: as given, or from A, B, C, D (den from eig(A), num = P·den interpolated at n + 1 points of a circle) */
function plantPolys(a: R): { num: number[]; den: number[] } {
  if (Array.isArray(a.num)) return { num: strip(a.num), den: strip(a.den) };
  const A = a.A as Matrix;
  const n = A.length;
  const D = Array.isArray(a.D) && a.D.length ? (a.D as Matrix) : [[0]];
  if (n === 0) return { num: [D[0][0]], den: [1] };
  const ev = safeEigenvalues(A);
  const den = polyFromRoots(ev);
  const rad = Math.max(1, ...ev.map(cabs)) * 1.5;
  const N = n + 1;
  const vals: C[] = [];
  for (let j = 0; j < N; j++) {
    const s: C = [rad * Math.cos((2 * Math.PI * j) / N + 0.3), rad * Math.sin((2 * Math.PI * j) / N + 0.3)];
    const h = evalSS(A, a.B, a.C, D, s);
    const P: C = [h.re.get(0, 0), h.im.get(0, 0)];
    vals.push(cmul(P, evalPoly(den, s)));
  }
  const vmax = Math.max(...vals.map(cabs));
  // c_k = (1/N) Σ_j v_j e^{−2πi jk/N} / (r e^{0.3i})^k
  const coef: number[] = [];
  for (let k = 0; k < N; k++) {
    let re = 0;
    let im = 0;
    for (let j = 0; j < N; j++) {
      const ang = (-2 * Math.PI * j * k) / N;
      const [x, y] = cmul(vals[j], [Math.cos(ang), Math.sin(ang)]);
      re += x;
      im += y;
    }
    const [x] = cmul([re / N, im / N], [Math.cos(-0.3 * k) / rad ** k, Math.sin(-0.3 * k) / rad ** k]);
    // a coefficient within the interpolation's rounding (ε·max|v|/rad^k) is 0: the leading ones of
    // a strictly proper plant came out 1e-17, a spurious closed-loop root at infinity
    coef.push(Math.abs(x) <= (1e3 * N * Number.EPSILON * vmax) / rad ** k ? 0 : x);
  }
  return { num: strip(coef.reverse()), den };
}

function evalPoly(p: number[], s: C): C {
  let v: C = [0, 0];
  for (const c of p) v = [v[0] * s[0] - v[1] * s[1] + c, v[0] * s[1] + v[1] * s[0]];
  return v;
}

/** the plant at s: num/den by Horner, or A, B, C, D by a dense complex solve */
function plantAt(a: R, s: C): C {
  if (Array.isArray(a.num)) return evalTF(strip(a.num), strip(a.den), s);
  const A = a.A as Matrix;
  const D = Array.isArray(a.D) && a.D.length ? (a.D as Matrix) : [[0]];
  if (!A.length) return [D[0][0], 0];
  const h = evalSS(A, a.B, a.C, D, s);
  return [h.re.get(0, 0), h.im.get(0, 0)];
}

/** the controller rebuilt from its reported parameters */
function controllerOf(tool: string, r: R): { num: number[]; den: number[] } {
  if (tool === 'leadlag') {
    if (!(r.T > 0)) return { num: [r.K], den: [1] };
    return r.kind === 'lead' ? { num: [r.K * r.a * r.T, r.K], den: [r.T, 1] } : { num: [r.K * r.T, r.K], den: [r.a * r.T, 1] };
  }
  const { Kp, Ki, Kd, Tf } = r as { Kp: number; Ki: number; Kd: number; Tf: number };
  // MATLAB pid(Kp, Ki, Kd, Tf) = Kp + Ki/s + Kd·s/(Tf·s + 1) over the common denominator s(Tf·s + 1)
  // without integral action (P, PD) the common factor s is not a pole
  if (Ki === 0 && !(Tf > 0)) return { num: strip([Kd, Kp]), den: [1] };
  const num = padd(padd(pmul([Kp], pmul([1, 0], [Tf, 1])), pmul([Ki], [Tf, 1])), [Kd, 0, 0]);
  return { num: strip(num), den: strip([Tf, 1, 0]) };
}

function wrapDeg(x: number): number {
  let y = x % 360;
  if (y > 180) y -= 360;
  if (y <= -180) y += 360;
  return y;
}

/** the augmented realisation [A e1; 0 0] of num/den (controllable canonical) with its output row and feedthrough */
function stepModel(num: number[], den: number[]): { aug: Matrix; Crow: number[]; D: number; n: number } {
  const d0 = den[0];
  const dn = den.map((v) => v / d0);
  const n = dn.length - 1;
  const nn = [...new Array(dn.length - num.length).fill(0), ...num.map((v) => v / d0)];
  const D = nn[0];
  const Crow = Array.from({ length: n }, (_, j) => nn[j + 1] - D * dn[j + 1]);
  const aug: Matrix = Array.from({ length: n + 1 }, (_, i) =>
    Array.from({ length: n + 1 }, (_, j) => (i === n ? 0 : j === n ? (i === 0 ? 1 : 0) : i === 0 ? -dn[j + 1] : i === j + 1 ? 1 : 0)),
  );
  return { aug, Crow, D, n };
}

/** step response of num/den (proper) at time t from rest: the augmented matrix exponential */
function stepAt(num: number[], den: number[], t: number): number {
  const { aug, Crow, D, n } = stepModel(num, den);
  const E = safeExpm(aug, t);
  if (!E) return NaN;
  return D + Crow.reduce((s, c, j) => s + c * E[j][n], 0);
}

/** the step response on a uniform grid 0, h, 2h, … (one exponential of h, propagated) */
function stepGrid(num: number[], den: number[], h: number, N: number): number[] {
  const { aug, Crow, D, n } = stepModel(num, den);
  const E = safeExpm(aug, h);
  if (!E) return [];
  let z = [...new Array(n).fill(0), 1];
  const out: number[] = [];
  for (let k = 0; k <= N; k++) {
    out.push(D + Crow.reduce((s, c, j) => s + c * z[j], 0));
    z = E.map((row) => row.reduce((s, v, j) => s + v * z[j], 0));
  }
  return out;
}

export function pidChecks(a: R, r: R, tool = 'pidtune'): Check[] {
  const checks: Check[] = [];
  const P = plantPolys(a);
  const Cc = controllerOf(tool, r);
  const L = (w: number): C => cmul(evalTF(Cc.num, Cc.den, [0, w]), plantAt(a, [0, w]));
  if (tool === 'pidtune') {
    const st = r.standard;
    const rel = (x: number, y: number) => (x === y ? 0 : Math.abs(x - y) / Math.max(Math.abs(y), 1e-300));
    const e = Math.max(
      rel(st.Kp, r.Kp),
      r.Ki === 0 ? (st.Ti === Infinity ? 0 : 1) : rel(st.Ti, r.Kp / r.Ki),
      r.Kp === 0 ? 0 : rel(st.Td, r.Kd / r.Kp),
      r.Tf > 0 ? rel(st.N, r.Kd / r.Kp / r.Tf) : st.N === Infinity ? 0 : 1,
    );
    checks.push(check('standard form', e, 1e-12, 'Ti = Kp/Ki, Td = Kd/Kp, N = Td/Tf recomputed from the parallel gains'));
    const h = L(r.wc);
    let pm = wrapDeg(180 + (Math.atan2(h[1], h[0]) * 180) / Math.PI);
    if (pm === -180) pm = 180;
    checks.push(
      check(
        'design crossover',
        Math.max(Math.abs(cabs(h) - 1), Math.abs(pm - r.pm_at_wc) / 180),
        1e-8,
        `|L(jωc)| = 1 and 180° + ∠L(jωc) = ${r.pm_at_wc.toFixed(4)}° at ωc = ${r.wc}`,
      ),
    );
  }
  let err = 0;
  (r.w_gc_all as number[]).forEach((w, i) => {
    const h = L(w);
    const pm = wrapDeg(180 + (Math.atan2(h[1], h[0]) * 180) / Math.PI);
    err = Math.max(err, Math.abs(cabs(h) - 1), Math.abs(wrapDeg(pm - r.pm_all[i])) / 180);
  });
  checks.push(check('crossovers', err, 1e-7, `${r.w_gc_all.length} crossover(s) with |L| = 1 and PM = 180° + ∠L`));
  // none missing below the first: |L| − 1 keeps its sign on a grid of the verifier's below it
  const sc = [...rootsOf(P.den), ...rootsOf(P.num), ...rootsOf(Cc.num), ...rootsOf(Cc.den)].map(cabs).filter((v) => v > 0 && Number.isFinite(v));
  const lo = Math.log10(sc.length ? Math.min(...sc) : 1) - 5;
  const hi = Math.log10(sc.length ? Math.max(...sc) : 1) + 5;
  const first = r.w_gc_all.length ? r.w_gc_all[0] : Infinity;
  let missed = 0;
  let prev = NaN;
  for (let k = 0; k < 3000; k++) {
    const w = 10 ** (lo + ((hi - lo) * k) / 2999);
    if (w >= first * (1 - 1e-6)) break;
    const v = Math.sign(cabs(L(w)) - 1);
    if (Number.isFinite(prev) && v !== prev && v !== 0) missed++;
    prev = v;
  }
  checks.push({
    name: 'first crossover',
    ok: missed === 0,
    detail: missed
      ? `|L| crosses 1 ${missed} time(s) below the reported first crossover`
      : 'no crossing of |L| = 1 below the first reported, on the verifier grid',
  });
  // closed-loop poles
  const charp = strip(padd(pmul(Cc.den, P.den), pmul(Cc.num, P.num)));
  const poles = rootsOf(charp);
  const scale = Math.max(1, ...poles.map(cabs));
  const dist = poles.length === r.poles.length ? Math.max(0, ...matchedDistances(poles, r.poles)) / scale : Infinity;
  checks.push(check('closed-loop poles', dist, 1e-6, `${poles.length} roots of den_C·den_P + num_C·num_P by the verifier's eigensolver`));
  const stable = poles.every(([re]) => re < -1e-12 * scale);
  checks.push({ name: 'stability', ok: stable === r.stable, detail: `closed loop ${stable ? 'stable' : 'unstable'} by those poles` });
  // step characteristics by the verifier's own exponential
  if (r.stable && Number.isFinite(r.settling_time)) {
    const numT = strip(pmul(Cc.num, P.num));
    const y = (t: number) => stepAt(numT, charp, t);
    const yf = numT[numT.length - 1] / charp[charp.length - 1];
    const y0 = numT.length === charp.length ? numT[0] / charp[0] : 0;
    const span = Math.abs(yf - y0);
    const sgn = Math.sign(yf - y0);
    const eF = Math.abs(yf - r.final_value) / Math.max(Math.abs(yf), 1e-300);
    // the peak is MATLAB stepinfo's: the largest |y| (a plant of negative gain steps down, to −14.8
    // with Peak 14.8); a response that never overshoots peaks at t = ∞, its final value
    const yPk = Number.isFinite(r.peak_time) ? y(r.peak_time) : yf;
    const ePk = Math.abs(Math.abs(yPk) - r.peak) / Math.max(Math.abs(r.peak), 1e-300);
    const eOs = Math.abs(Math.max(0, (sgn * (yPk - yf) * 100) / span) - r.overshoot_pct) / 100;
    const eTs = r.settling_time > 0 ? Math.abs(Math.abs(y(r.settling_time) - yf) - 0.02 * span) / span : 0;
    // the 10 % and 90 % times: the first crossing on a grid fine against the fastest pole, then bisection
    const tEnd = Math.max(Number.isFinite(r.peak_time) ? r.peak_time : 0, r.settling_time) * 1.2 || 1;
    const rho = Math.max(1e-300, ...poles.map(cabs));
    const N = Math.min(400000, Math.max(2000, Math.ceil((tEnd * rho) / 0.25)));
    const h = tEnd / N;
    const ys = stepGrid(numT, charp, h, N);
    const cross = (q: number) => {
      const g = (t: number) => sgn * (y(t) - y0) - q * span;
      for (let k = 1; k < ys.length; k++)
        if (sgn * (ys[k] - y0) - q * span >= 0) {
          let [l, u] = [(k - 1) * h, k * h];
          for (let i = 0; i < 60; i++) {
            const m = (l + u) / 2;
            if (g(m) >= 0) u = m;
            else l = m;
          }
          return (l + u) / 2;
        }
      return NaN;
    };
    const rise = cross(0.9) - cross(0.1);
    const eR = Math.abs(rise - r.rise_time) / Math.max(r.rise_time, 1e-300);
    checks.push(
      check(
        'step response',
        Math.max(eF, ePk, eOs, eTs, eR),
        1e-6,
        'final value T(0), y(t_peak) = peak, overshoot, |y(t_s) − y_f| = 2 %, 10–90 % rise by bisection on an independent matrix exponential',
      ),
    );
  }
  // the specification's verdicts follow from the numbers
  const target = r.pm_target as number;
  const pmItem = (r.spec as R[]).find((s) => s.item.startsWith('phase margin'));
  const stItem = (r.spec as R[]).find((s) => s.item === 'closed loop');
  const pmVal = tool === 'pidtune' ? r.pm_at_wc : r.pm;
  const verdictOk = (!pmItem || pmItem.pass === pmVal >= target - 1e-6) && (!stItem || stItem.pass === stable);
  checks.push({
    name: 'specification',
    ok: verdictOk,
    detail: verdictOk ? 'each pass/fail agrees with the recomputed margin and stability' : 'a pass/fail disagrees with the numbers',
  });
  // pidtune's time-domain targets: the verdicts recomputed from the (checked) step characteristics
  // by stepinfo's check; an unstable loop has none (NaN), so every target must show as missed
  if (tool === 'pidtune') {
    const targets = Object.fromEntries(['overshoot_pct', 'settling_time', 'rise_time'].filter((k) => typeof a[k] === 'number').map((k) => [k, a[k] as number]));
    const timeItems = (r.spec as R[]).filter((s) => typeof s.key === 'string');
    if (Object.keys(targets).length || timeItems.length) checks.push(stepSpecCheck(targets, { ...r, spec: timeItems }));
    if (r.from_spec) checks.push(...fromSpecChecks(a, r));
  }
  return checks;
}

/**
 * pidtune's translation of time-domain targets into PM and ωc, recomputed on the second-order
 * prototype by another route than the closed forms the solver uses: the prototype loop
 * L(jω) = 1/(jω(jω + 2ζ)) at ωn = 1 evaluated (its crossover found by bisection on |L|, then its
 * phase margin), the overshoot e^{−πζ/√(1−ζ²)} of the reported ζ, the 2 % envelope ζωn·ts = 4, the
 * prototype's step by a matrix exponential at the reported 10 % and 90 % times; and the design used
 * the PM and ωc so found.
 */
function fromSpecChecks(a: R, r: R): Check[] {
  const fs = r.from_spec as R;
  const out: Check[] = [];
  const z = fs.zeta as number | undefined;
  if (typeof z !== 'number')
    return [{ name: 'targets → PM, ωc', ok: fs.pm === undefined && fs.wc === undefined, detail: 'nothing translated without a damping ratio' }];
  const Lmag = (w: number) => 1 / (w * Math.hypot(w, 2 * z));
  let lo = 1e-6;
  let hi = 1e3;
  for (let k = 0; k < 200; k++) {
    const mid = Math.sqrt(lo * hi);
    if (Lmag(mid) > 1) lo = mid;
    else hi = mid;
  }
  const rho = Math.sqrt(lo * hi);
  // ∠L(jρ) = −90° − atan(ρ/(2ζ)), so PM = 90° − atan(ρ/(2ζ))
  const pmProto = 90 - (Math.atan2(rho, 2 * z) * 180) / Math.PI;
  if (fs.zeta_from === 'overshoot') {
    const os = typeof a.overshoot_pct === 'number' ? (a.overshoot_pct as number) : NaN;
    const mp = z >= 1 ? 0 : 100 * Math.exp((-Math.PI * z) / Math.sqrt(1 - z * z));
    out.push(check('ζ from the overshoot', Math.abs(mp - os) / Math.max(1, os), 1e-9, `the prototype with ζ = ${z} overshoots ${mp} % (target ${os} %)`));
    out.push(check('PM from ζ', Math.abs(pmProto - fs.pm) / 90, 1e-9, `the prototype loop crosses 0 dB at ${rho}·ωn with phase margin ${pmProto}°`));
    out.push(check('design at that PM', Math.abs(r.pm_target - fs.pm) / 90, 1e-12, 'the design used the phase margin so found'));
  } else {
    const pmUsed = typeof a.pm === 'number' ? (a.pm as number) : 60;
    out.push(check('ζ from the PM', Math.abs(pmProto - pmUsed) / 90, 1e-9, `the prototype with ζ = ${z} has phase margin ${pmProto}°`));
  }
  if (typeof fs.wn === 'number') {
    const needs: number[] = [];
    if (typeof a.settling_time === 'number') needs.push(4 / (z * (a.settling_time as number)));
    if (typeof a.rise_time === 'number') {
      const ok = fs.rise && protoStep(z, fs.rise.t10) !== null;
      if (ok) {
        const e = Math.max(Math.abs(protoStep(z, fs.rise.t10)! - 0.1), Math.abs(protoStep(z, fs.rise.t90)! - 0.9));
        out.push(check('prototype rise time', e, 1e-9, `the prototype's step at ωn·t = ${fs.rise.t10} and ${fs.rise.t90} is 10 % and 90 %`));
        needs.push((fs.rise.t90 - fs.rise.t10) / (a.rise_time as number));
      } else out.push({ name: 'prototype rise time', ok: false, detail: 'no 10 %/90 % times reported' });
    }
    const need = Math.max(...needs);
    out.push(check('ωn from the speed targets', Math.abs(fs.wn - need) / need, 1e-9, `the slowest ωn the settling/rise targets allow is ${need} rad/s`));
    if (typeof fs.wc === 'number') {
      out.push(check('ωc from ωn', Math.abs(fs.wc - rho * fs.wn) / fs.wc, 1e-9, `the prototype crosses 0 dB at ωc = ${rho * fs.wn} rad/s`));
      out.push(check('design at that ωc', Math.abs(r.wc - fs.wc) / fs.wc, 1e-12, 'the design used the crossover so found'));
    }
  }
  return out;
}

/** the prototype 1/(s² + 2ζs + 1)'s unit step at τ by a matrix exponential: x(τ) = A⁻¹(e^{Aτ} − I)B */
function protoStep(z: number, tau: number): number | null {
  const E = safeExpm(
    [
      [0, 1],
      [-1, -2 * z],
    ],
    tau,
  );
  if (!E) return null;
  // A⁻¹ = [[−2ζ, −1], [1, 0]]; (e^{Aτ} − I)B is the second column of e^{Aτ} minus [0; 1]
  const v0 = E[0][1];
  const v1 = E[1][1] - 1;
  return -2 * z * v0 - v1;
}

export const leadLagChecks = (a: R, r: R): Check[] => pidChecks(a, r, 'leadlag');
