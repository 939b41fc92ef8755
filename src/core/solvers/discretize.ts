/**
 * Conversions between continuous and discrete time (MATLAB c2d, d2c, d2d; python-control
 * c2d/sample_system; SciPy cont2discrete): zero-order hold, first-order (triangle) hold,
 * Tustin (bilinear, optionally prewarped), impulse invariance, matched pole-zero, forward and
 * backward Euler; the zoh inverse through the matrix logarithm (linalg/logm.ts).
 */
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import { polyText } from '../render/results.js';
import { matrixBlock, type RenderOptions } from '../render/markdown.js';
import { fmt } from '../render/format.js';
import { systemCode, verdictHolder } from '../codegen/code.js';
import { num as numberLiteral } from '../codegen/literals.js';
import type { PlotSpec } from '../plot/specs.js';
import type { Complex, Matrix } from '../types.js';
import {
  type Mat,
  add,
  blocks,
  block,
  eye,
  fromRows,
  luFactor,
  luSolve,
  luSolveRight,
  mul,
  rcondByInverse,
  scale,
  toRows,
  zeros,
  EPS,
} from '../linalg/dense.js';
import { expm } from '../linalg/expm.js';
import { logm } from '../linalg/logm.js';
import { polyFromRoots, polyRoots, polyStrip } from '../linalg/poly.js';
import { eigenvalues } from './statesp.js';
import { ss2tf, tf2ss } from './xferfcn.js';
import { readTfOrSs, requireSiso, ssProps, tfProps, type SS, type TF } from './_sys.js';
import { isRows } from '../tools/args.js';

/** the discretisation methods, by their canonical names (MATLAB's, and SciPy's euler/backward_diff) */
export type C2dMethod = 'zoh' | 'foh' | 'tustin' | 'impulse' | 'matched' | 'euler' | 'backward_diff';

export const C2D_METHODS: readonly C2dMethod[] = ['zoh', 'foh', 'tustin', 'impulse', 'matched', 'euler', 'backward_diff'];

/** the names other tools use, each to its canonical method (SciPy 'bilinear', python-control 'forward_diff', MATLAB c2dm 'prewarp') */
export const METHOD_ALIASES: Record<string, C2dMethod> = {
  bilinear: 'tustin',
  prewarp: 'tustin',
  imp: 'impulse',
  'impulse-invariant': 'impulse',
  mpz: 'matched',
  forward_diff: 'euler',
  forward_euler: 'euler',
  backward_euler: 'backward_diff',
};

/** method as written -> canonical method, or a ControlError listing the methods */
export function canonicalMethod(m: unknown, tool: string, allowed: readonly string[]): C2dMethod {
  const v = String(m).toLowerCase();
  const c = (METHOD_ALIASES[v] ?? v) as C2dMethod;
  if (!allowed.includes(c)) throw new ControlError(`${tool}: method '${String(m)}' is not available; use one of ${allowed.join(', ')}.`);
  return c;
}

export interface DiscreteSS {
  Ad: Matrix;
  Bd: Matrix;
  Cd: Matrix;
  Dd: Matrix;
}

/** zero-order hold: [Ad Bd; 0 I] = expm([A B; 0 0]·Ts) */
export function c2dZoh(A: Mat, B: Mat, Ts: number): { Ad: Mat; Bd: Mat } {
  const n = A.r;
  const m = B.c;
  const M = scale(
    blocks([
      [A, B],
      [zeros(m, n), zeros(m, m)],
    ]),
    Ts,
  );
  const E = expm(M);
  return { Ad: block(E, 0, 0, n, n), Bd: block(E, 0, n, n, m) };
}

/**
 * The bilinear step T of Tustin: Ts, or with prewarping at w (rad/s) 2·tan(w·Ts/2)/w, so that
 * s = (2/T)(z − 1)/(z + 1) maps z = e^{jwTs} onto s = jw exactly (MATLAB c2dOptions
 * PrewarpFrequency, python-control prewarp_frequency). w must lie below the Nyquist
 * frequency π/Ts, where tan has its pole.
 */
export function tustinStep(Ts: number, prewarp: number | undefined, tool: string): number {
  if (prewarp === undefined) return Ts;
  if (!(prewarp > 0) || !Number.isFinite(prewarp)) throw new ControlError(`${tool}: prewarp must be a frequency > 0 in rad/s, not ${prewarp}.`);
  const nyq = Math.PI / Ts;
  if (prewarp >= nyq * (1 - 1e-12))
    throw new ControlError(
      `${tool}: prewarp = ${prewarp.toPrecision(6)} rad/s is at or above the Nyquist frequency π/Ts = ${nyq.toPrecision(6)} rad/s; a prewarp frequency must lie below it (sample faster, or prewarp at a lower frequency).`,
    );
  return (2 * Math.tan((prewarp * Ts) / 2)) / prewarp;
}

/** I − α·T·A must be invertible for the Tustin (α = 1/2) and backward-difference (α = 1) maps */
function shiftedFactor(A: Mat, alphaT: number, what: string) {
  const n = A.r;
  const M = add(eye(n), scale(A, alphaT), -1);
  const rc = rcondByInverse(M);
  if (!(rc > n * EPS * 10))
    throw new ControlError(
      `c2d ${what}: I - A·${what === 'tustin' ? 'Ts/2' : 'Ts'} is singular (reciprocal condition ${rc.toExponential(2)}): A has an eigenvalue at ${what === 'tustin' ? '2/Ts' : '1/Ts'} = ${(1 / alphaT).toPrecision(6)}, which this map sends to z = infinity. Use another Ts or method (zoh, foh).`,
      'infeasible',
    );
  return luFactor(M);
}

/**
 * Discretises a state-space model. zoh, foh, tustin (prewarp optional), impulse, euler
 * (forward difference), backward_diff; 'matched' works on poles and zeros (c2dMatched).
 * State scaling of tustin, euler and backward_diff follows SciPy's cont2discrete (gbt with
 * α = 1/2, 0, 1); the transfer functions are MATLAB's.
 */
export function c2d(sys: SS, Ts: number, method: C2dMethod, prewarp?: number): DiscreteSS {
  const { n } = sys;
  if (method === 'impulse' && sys.D.some((r) => r.some((v) => v !== 0)))
    throw new ControlError(
      "c2d impulse: the impulse-invariant method needs D = 0 (a strictly proper model): the impulse response of D u is D·δ(t), which has no samples to match. SciPy's cont2discrete refuses it too; use zoh or tustin, or discretise the strictly proper part.",
    );
  if (method === 'matched') throw new Error('c2d: matched works on the transfer function (c2dMatched)');
  // no states (a static gain): every method keeps y = D u; Ad, Bd, Cd are empty ([], as
  // tf2ss writes them) and Dd = D
  if (n === 0) return { Ad: [], Bd: [], Cd: [], Dd: sys.D.map((r) => r.slice()) };
  const A = fromRows(sys.A),
    B = fromRows(sys.B),
    C = fromRows(sys.C),
    D = fromRows(sys.D);
  const m = B.c;
  if (method === 'zoh') {
    const { Ad, Bd } = c2dZoh(A, B, Ts);
    return { Ad: toRows(Ad), Bd: toRows(Bd), Cd: toRows(C), Dd: toRows(D) };
  }
  if (method === 'foh') {
    // expm([A·Ts B·Ts 0; 0 0 I; 0 0 0]) (triangle hold; the state is shifted by the hold term)
    const M = blocks([
      [scale(A, Ts), scale(B, Ts), zeros(n, m)],
      [zeros(m, n), zeros(m, m), eye(m)],
      [zeros(m, n), zeros(m, m), zeros(m, m)],
    ]);
    const E = expm(M);
    const Phi = block(E, 0, 0, n, n);
    const G1 = block(E, 0, n, n, m);
    const G2 = block(E, 0, n + m, n, m);
    const Bd = add(add(G1, G2, -1), mul(Phi, G2));
    return { Ad: toRows(Phi), Bd: toRows(Bd), Cd: toRows(C), Dd: toRows(add(D, mul(C, G2))) };
  }
  if (method === 'impulse') {
    // H_d(z) = Ts·Σ_{k≥0} C e^{A k Ts} B z^-k (MATLAB's and SciPy's scaling): Ad = e^{A Ts},
    // Bd = Ad B Ts, Cd = C, Dd = C B Ts
    const Ad = expm(scale(A, Ts));
    const Bd = scale(mul(Ad, B), Ts);
    return { Ad: toRows(Ad), Bd: toRows(Bd), Cd: toRows(C), Dd: toRows(scale(mul(C, B), Ts)) };
  }
  if (method === 'euler') {
    // s = (z − 1)/Ts: Ad = I + A Ts, Bd = B Ts (SciPy gbt α = 0)
    return { Ad: toRows(add(eye(n), scale(A, Ts))), Bd: toRows(scale(B, Ts)), Cd: toRows(C), Dd: toRows(D) };
  }
  // tustin (α = 1/2, step T = Ts or prewarped) and backward_diff (α = 1): SciPy's gbt
  const T = method === 'tustin' ? tustinStep(Ts, prewarp, 'c2d') : Ts;
  const alpha = method === 'tustin' ? 0.5 : 1;
  const f = shiftedFactor(A, alpha * T, method);
  const Ad = luSolve(f, add(eye(n), scale(A, (1 - alpha) * T)));
  const Bd = luSolve(f, scale(B, T));
  const Cd = luSolveRight(f, C);
  const Dd = add(D, scale(mul(C, Bd), alpha));
  return { Ad: toRows(Ad), Bd: toRows(Bd), Cd: toRows(Cd), Dd: toRows(Dd) };
}

// ------------------------------------------------------------------ poles and zeros (matched)

type Cx = Complex;
const cmul = ([a, b]: Cx, [c, d]: Cx): Cx => [a * c - b * d, a * d + b * c];
const cdiv = ([a, b]: Cx, [c, d]: Cx): Cx => {
  const q = c * c + d * d;
  return [(a * c + b * d) / q, (b * c - a * d) / q];
};
const cexp = ([a, b]: Cx): Cx => {
  const r = Math.exp(a);
  return [b === 0 ? r : r * Math.cos(b), b === 0 ? 0 : r * Math.sin(b)];
};
const clog = ([a, b]: Cx): Cx => [Math.log(Math.hypot(a, b)), Math.atan2(b, a)];
const prod = (list: Cx[]): Cx => list.reduce((p, z) => cmul(p, z), [1, 0] as Cx);

/** a root this close to s = 0 (|s|·Ts) or z = 1 is taken as exactly there (an integrator) */
const AT_ORIGIN = 1e-9;
/** a discrete zero this close to z = −1 is a zero at s = ∞ (the ones c2d matched adds) */
const AT_MINUS_ONE = 1e-5;

/** the leading coefficient and roots of a polynomial (the zero polynomial: gain 0, no roots) */
function factor(p: number[]): { k: number; roots: Cx[] } {
  const q = polyStrip(p);
  return { k: q[0], roots: q.length > 1 ? polyRoots(q) : [] };
}

/** the real polynomial k·Π(x − r_i) */
const fromFactors = (k: number, roots: Cx[]): number[] => polyFromRoots(roots).map((c) => c * k);

/**
 * Matched pole-zero (MATLAB c2d 'matched', Franklin, Powell & Workman's modified matched
 * pole-zero method): poles and finite zeros map by z = e^{sTs}; of the r zeros at s = ∞
 * (r = relative degree), r − 1 go to z = −1 and one stays at infinity (a strictly proper model
 * keeps one sample of delay); the gain matches the low-frequency gain
 * lim s^k G(s) = lim ((z − 1)/Ts)^k G_d(z), k = (poles at 0) − (zeros at 0) (the DC gain for
 * k = 0). SISO. (python-control's 'matched' adds no zeros at z = −1.)
 */
export function c2dMatched(numIn: number[], denIn: number[], Ts: number): { num: number[]; den: number[] } {
  const N = factor(numIn),
    Dn = factor(denIn);
  if (N.roots.length > Dn.roots.length)
    throw new ControlError(`c2d matched: improper transfer function (numerator degree ${N.roots.length} > denominator degree ${Dn.roots.length}).`);
  const snap = (r: Cx): Cx => (Math.hypot(r[0], r[1]) * Ts <= AT_ORIGIN ? [0, 0] : r);
  const zs = N.roots.map(snap),
    ps = Dn.roots.map(snap);
  const isZero = (r: Cx) => r[0] === 0 && r[1] === 0;
  const zd = zs.map((z) => (isZero(z) ? ([1, 0] as Cx) : cexp([z[0] * Ts, z[1] * Ts])));
  const pd = ps.map((p) => (isZero(p) ? ([1, 0] as Cx) : cexp([p[0] * Ts, p[1] * Ts])));
  const rel = ps.length - zs.length;
  for (let i = 0; i < rel - 1; i++) zd.push([-1, 0]);
  const den = polyFromRoots(pd);
  if (N.k === 0) return { num: [0], den };
  const k = ps.filter(isZero).length - zs.filter(isZero).length;
  // lim s^k G(s) = K Π(−z)/Π(−p) over the nonzero roots
  const g0 = cdiv(
    cmul([N.k / Dn.k, 0], prod(zs.filter((z) => !isZero(z)).map(([a, b]) => [-a, -b] as Cx))),
    prod(ps.filter((p) => !isZero(p)).map(([a, b]) => [-a, -b] as Cx)),
  );
  // lim ((z − 1)/Ts)^k G_d(z) = Kd Ts^−k Π(1 − zd)/Π(1 − pd) over the roots ≠ 1
  const one = (r: Cx) => r[0] === 1 && r[1] === 0;
  const d0 = cdiv(prod(zd.filter((z) => !one(z)).map(([a, b]) => [1 - a, -b] as Cx)), prod(pd.filter((p) => !one(p)).map(([a, b]) => [1 - a, -b] as Cx)));
  const Kd = cdiv(g0, d0)[0] * Ts ** k;
  return { num: fromFactors(Kd, zd), den };
}

/**
 * The inverse of c2dMatched (MATLAB d2c 'matched'): poles and zeros map by s = ln(z)/Ts, zeros
 * at z = −1 go to s = ∞, the low-frequency gain is matched. A pole or zero at z = 0 or on the
 * negative real axis has no continuous counterpart and is refused.
 */
export function d2cMatched(numIn: number[], denIn: number[], Ts: number): { num: number[]; den: number[] } {
  const N = factor(numIn),
    Dn = factor(denIn);
  if (N.roots.length > Dn.roots.length)
    throw new ControlError(`d2c matched: improper transfer function (numerator degree ${N.roots.length} > denominator degree ${Dn.roots.length}).`);
  const snap = (r: Cx): Cx => (Math.hypot(r[0] - 1, r[1]) <= AT_ORIGIN ? [1, 0] : r);
  const zd = N.roots.map(snap),
    pd = Dn.roots.map(snap);
  const negReal = (r: Cx) => Math.abs(r[1]) <= 1e-12 * Math.max(1, Math.hypot(r[0], r[1])) && r[0] <= 1e-12;
  for (const p of pd)
    if (negReal(p))
      throw new ControlError(
        `d2c matched: the model has a pole at z = ${fmtC(p)}${p[0] < -1e-12 ? ' on the negative real axis' : ''}; s = ln(z)/Ts has no real continuous counterpart there. Use method 'tustin'.`,
        'infeasible',
      );
  const minusOne = (z: Cx) => Math.hypot(z[0] + 1, z[1]) <= AT_MINUS_ONE;
  for (const z of zd)
    if (negReal(z) && !minusOne(z))
      throw new ControlError(
        `d2c matched: the model has a zero at z = ${fmtC(z)}${z[0] < -1e-12 ? ' on the negative real axis' : ''}; s = ln(z)/Ts has no real continuous counterpart there (only zeros at z = −1 map, to s = ∞). Use method 'tustin'.`,
        'infeasible',
      );
  const one = (r: Cx) => r[0] === 1 && r[1] === 0;
  const toS = (z: Cx): Cx => (one(z) ? [0, 0] : (([a, b]) => [a / Ts, b / Ts] as Cx)(clog(z)));
  const zs = zd.filter((z) => !minusOne(z)).map(toS);
  const ps = pd.map(toS);
  const den = polyFromRoots(ps);
  if (N.k === 0) return { num: [0], den };
  const isZero = (r: Cx) => r[0] === 0 && r[1] === 0;
  const k = pd.filter(one).length - zd.filter(one).length;
  const d0 = cmul(
    [(N.k / Dn.k) * Ts ** -k, 0],
    cdiv(prod(zd.filter((z) => !one(z)).map(([a, b]) => [1 - a, -b] as Cx)), prod(pd.filter((p) => !one(p)).map(([a, b]) => [1 - a, -b] as Cx))),
  );
  const g = cdiv(prod(zs.filter((z) => !isZero(z)).map(([a, b]) => [-a, -b] as Cx)), prod(ps.filter((p) => !isZero(p)).map(([a, b]) => [-a, -b] as Cx)));
  const K = cdiv(d0, g)[0];
  return { num: fromFactors(K, zs), den };
}

const fmtC = ([a, b]: Cx) => (b === 0 ? a.toPrecision(6) : `${a.toPrecision(6)} ${b < 0 ? '−' : '+'} ${Math.abs(b).toPrecision(6)}j`);

// ------------------------------------------------------------------ discrete to continuous

/**
 * The discrete poles that bar the zero-order-hold inverse: a real eigenvalue of Ad at 0 (to
 * working precision) or on the negative real axis, where e^{A·Ts} = Ad has no real solution A.
 */
function zohObstruction(Ad: Matrix): string | undefined {
  const ev = eigenvalues(Ad);
  const nrm = Math.max(1e-300, ...Ad.map((r) => r.reduce((s, v) => s + Math.abs(v), 0)));
  for (const [re, im] of ev) {
    if (Math.abs(im) > 1e-12 * Math.max(1, Math.hypot(re, im))) continue;
    if (Math.abs(re) <= 1e3 * EPS * nrm) return 'a pole at z = 0 (a pure delay: e^{A·Ts} is never singular)';
    if (re < 0) return `a pole at z = ${re.toPrecision(6)} on the negative real axis (e^{a·Ts} of a real a is never negative)`;
  }
  return undefined;
}

/** the continuous (A, B, C, D) whose zero-order-hold discretisation is (Ad, Bd, Cd, Dd): [A B; 0 0] = logm([Ad Bd; 0 I])/Ts */
export function d2cZoh(sys: SS, Ts: number, tool = 'd2c'): { A: Matrix; B: Matrix; C: Matrix; D: Matrix } {
  const { n, m } = sys;
  if (n === 0) return { A: [], B: [], C: sys.C.map(() => []), D: sys.D.map((r) => r.slice()) };
  const bad = zohObstruction(sys.A);
  if (bad)
    throw new ControlError(
      `${tool} zoh: the discrete model has ${bad}, so no continuous model sampled with a zero-order hold gives it (the zoh inverse needs a real matrix logarithm of Ad). ${tool === 'd2c' ? "Use method 'tustin'." : 'Resample by an integer factor of Ts (a matrix power, no logarithm needed), or convert with d2c tustin and c2d.'}`,
      'infeasible',
    );
  const M = blocks([
    [fromRows(sys.A), fromRows(sys.B)],
    [zeros(m, n), eye(m)],
  ]);
  const L = scale(logm(M), 1 / Ts);
  return { A: toRows(block(L, 0, 0, n, n)), B: toRows(block(L, 0, n, n, m)), C: sys.C.map((r) => r.slice()), D: sys.D.map((r) => r.slice()) };
}

/**
 * The inverse of c2d tustin (SciPy's state scaling): with T the bilinear step (Ts or
 * prewarped) and W = (Ad + I)⁻¹: A = (2/T)·W(Ad − I), B = (2/T)·W·Bd, C = 2·Cd·W,
 * D = Dd − Cd·W·Bd.
 */
export function d2cTustin(sys: SS, Ts: number, prewarp?: number): { A: Matrix; B: Matrix; C: Matrix; D: Matrix } {
  const { n } = sys;
  if (n === 0) return { A: [], B: [], C: sys.C.map(() => []), D: sys.D.map((r) => r.slice()) };
  const T = tustinStep(Ts, prewarp, 'd2c');
  const Ad = fromRows(sys.A),
    Bd = fromRows(sys.B),
    Cd = fromRows(sys.C),
    Dd = fromRows(sys.D);
  const P = add(Ad, eye(n));
  const rc = rcondByInverse(P);
  if (!(rc > n * EPS * 10))
    throw new ControlError(
      `d2c tustin: Ad + I is singular (reciprocal condition ${rc.toExponential(2)}): the model has a pole at z = −1, which the bilinear map sends to s = infinity. Use method 'zoh' or 'matched'.`,
      'infeasible',
    );
  const f = luFactor(P);
  const WB = luSolve(f, Bd);
  const A = scale(luSolve(f, add(Ad, eye(n), -1)), 2 / T);
  const B = scale(WB, 2 / T);
  const C = scale(luSolveRight(f, Cd), 2);
  const D = add(Dd, mul(Cd, WB), -1);
  return { A: toRows(A), B: toRows(B), C: toRows(C), D: toRows(D) };
}

/** M^k for an integer k ≥ 1 by repeated squaring */
function matPow(M: Mat, k: number): Mat {
  let R: Mat | undefined;
  let P = M;
  for (let e = k; e > 0; e = Math.floor(e / 2)) {
    if (e % 2) R = R ? mul(R, P) : P;
    if (e > 1) P = mul(P, P);
  }
  return R!;
}

/** the most a resampling may multiply the sample time by */
export const MAX_RESAMPLE_RATIO = 1e6;

/**
 * Resamples a discrete model to the sample time Ts2 with a zero-order hold (MATLAB d2d, its
 * default method): [Ad2 Bd2; 0 I] = [Ad Bd; 0 I]^(Ts2/Ts). An integer ratio is a matrix power
 * (any Ad); another ratio goes through the matrix logarithm (refused as d2c zoh refuses).
 */
export function d2dZoh(sys: SS, Ts: number, Ts2: number): DiscreteSS & { integer: boolean } {
  const { n, m } = sys;
  const ratio = Ts2 / Ts;
  if (!(ratio <= MAX_RESAMPLE_RATIO && ratio >= 1 / MAX_RESAMPLE_RATIO))
    throw new ControlError(`d2d: Ts2/Ts = ${ratio.toPrecision(6)}; the new sample time must be within a factor ${MAX_RESAMPLE_RATIO} of Ts.`, 'limit');
  const N = Math.round(ratio);
  const integer = N >= 1 && Math.abs(ratio - N) <= 1e-9 * ratio;
  if (n === 0) return { Ad: [], Bd: [], Cd: sys.C.map(() => []), Dd: sys.D.map((r) => r.slice()), integer };
  const M = blocks([
    [fromRows(sys.A), fromRows(sys.B)],
    [zeros(m, n), eye(m)],
  ]);
  let P: Mat;
  if (integer) P = matPow(M, N);
  else {
    const c = d2cZoh(sys, Ts, 'd2d');
    const Mc = blocks([
      [fromRows(c.A), fromRows(c.B)],
      [zeros(m, n), zeros(m, m)],
    ]);
    P = expm(scale(Mc, Ts2));
  }
  return { Ad: toRows(block(P, 0, 0, n, n)), Bd: toRows(block(P, 0, n, n, m)), Cd: sys.C.map((r) => r.slice()), Dd: sys.D.map((r) => r.slice()), integer };
}

// ------------------------------------------------------------------ the tools' shared parts

/** a transfer function given as num/den: its SciPy tf2ss realisation (SISO) */
function realiseTf(tf: TF): SS {
  const r = tf2ss(tf.num, tf.den);
  const n = r.A.length;
  return { A: r.A, B: r.B, C: n ? r.C : [[]], D: r.D, n, m: 1, p: 1, Ts: tf.Ts };
}

/** the SISO transfer function of a model given either way */
function tfOf(tf: TF | undefined, ss: SS | undefined, tool: string): { num: number[]; den: number[] } {
  if (tf) return { num: tf.num, den: tf.den };
  requireSiso(ss!, `${tool} matched`);
  return ss2tf(ss!.A, ss!.B, ss!.C, ss!.D);
}

/** the model as the plots facet and the reader take it: the result's matrices (or num/den) with its Ts */
function resultModel(r: Record<string, any> | undefined, keys: [string, string, string, string], Ts: number | undefined): Record<string, unknown> | undefined {
  if (!r) return undefined;
  const out: Record<string, unknown> = {};
  if (Array.isArray(r.num) && Array.isArray(r.den)) Object.assign(out, { num: r.num, den: r.den });
  else if (isRows(r[keys[0]]) && r[keys[0]].length) ['A', 'B', 'C', 'D'].forEach((k, i) => (out[k] = r[keys[i]]));
  else return undefined;
  if (Ts) out.Ts = Ts;
  return out;
}

function modelPlots(keys: [string, string, string, string], tsOf: (a: Record<string, any>, r: Record<string, any>) => number | undefined) {
  return (args: Record<string, any>, r: Record<string, any> | undefined): PlotSpec[] => {
    const sys = resultModel(r, keys, r ? tsOf(args, r) : undefined);
    if (!sys) return [];
    return [
      { kind: 'step', args: sys, title: 'Plot step response of the result' },
      { kind: 'bode', args: sys, title: 'Plot Bode of the result' },
    ];
  };
}

const prewarpProp = {
  prewarp: {
    type: 'number',
    exclusiveMinimum: 0,
    description:
      'Tustin prewarp frequency in rad/s (MATLAB c2dOptions PrewarpFrequency, python-control prewarp_frequency): the response matches exactly there; below the Nyquist frequency π/Ts',
  },
};

/** "Tustin (bilinear), prewarped at 10 rad/s" */
function methodText(method: string, prewarp: number | undefined): string {
  const names: Record<string, string> = {
    zoh: 'zero-order hold (zoh)',
    foh: 'first-order (triangle) hold (foh)',
    tustin: 'Tustin (bilinear)',
    impulse: 'impulse invariance (impulse)',
    matched: 'matched pole-zero (matched)',
    euler: 'forward Euler (euler)',
    backward_diff: 'backward Euler (backward_diff)',
  };
  return `${names[method] ?? method}${prewarp !== undefined ? `, prewarped at ${fmt(prewarp)} rad/s` : ''}`;
}

const METHOD_NOTES: Record<string, string> = {
  impulse:
    'Impulse invariance with MATLAB’s and SciPy’s scaling: H_d(z) = Ts·Σ h(kTs) z^−k, so the pulse response is Ts times the samples of the continuous impulse response (MATLAB’s impulse() of the discrete model divides by Ts again).',
  matched:
    'Matched pole-zero as MATLAB: poles and zeros mapped by z = e^{s·Ts}, all but one zero at infinity placed at z = −1, the low-frequency gain matched (python-control’s matched adds no zeros at z = −1).',
  euler: 'Forward Euler: s = (z − 1)/Ts (SciPy’s euler, python-control’s forward_diff).',
  backward_diff: 'Backward Euler: s = (z − 1)/(Ts·z) (SciPy’s and python-control’s backward_diff).',
};

function tfLine(label: string, r: Record<string, any>, v: string, o: RenderOptions): string[] {
  return Array.isArray(r.num) && Array.isArray(r.den) ? [`**${label}:** (${polyText(r.num, v, o.digits)}) / (${polyText(r.den, v, o.digits)})`] : [];
}

function renderC2d(args: Record<string, any>, r: Record<string, any>, o: RenderOptions): string {
  const head = `**Discretised with ${r.method === 'zoh' || r.method === 'foh' || (r.method === 'tustin' && r.prewarp === undefined) ? r.method : methodText(r.method, r.prewarp)}, Ts = ${fmt(args.Ts)} s:**`;
  const note = METHOD_NOTES[r.method] ? [METHOD_NOTES[r.method]] : [];
  if (isRows(r.Ad) && !r.Ad.length && !Array.isArray(r.num))
    return [
      `${head.slice(0, -3)}:** the model has no states (0 states, a static gain), so Ad, Bd and Cd are empty and it is the same in discrete time:`,
      matrixBlock('Dd', r.Dd, o),
    ].join('\n\n');
  const mats = Array.isArray(args.num) || !isRows(r.Ad) ? [] : ['Ad', 'Bd', 'Cd', 'Dd'].map((k) => matrixBlock(k, r[k], o));
  return [head, ...tfLine('H(z)', r, 'z', o), ...mats, ...note].join('\n\n');
}

const PY_METHOD: Record<string, string> = { tustin: 'bilinear', euler: 'euler', backward_diff: 'backward_diff' };

export const tools = [
  tool({
    name: 'c2d',
    words: {
      calls: [
        {
          names: ['c2d', 'sample_system', 'sample', 'dscr'],
          args: ['sys', 'Ts', 'method'],
          keywords: { method: 'method', Ts: 'Ts', dt: 'Ts', prewarp_frequency: 'prewarp' },
        },
        { names: ['cont2discrete'], args: ['sys', 'Ts', 'method'], keywords: { method: 'method', dt: 'Ts' } },
      ],
      phrases: [
        'c2d',
        'discretize',
        'discretise',
        'discretization',
        'discretisation',
        'discrete equivalent',
        'convert to discrete',
        'sampled-data model',
        'discrete-time model',
        'zero-order hold equivalent',
        'tustin',
        'bilinear',
        'zoh',
        'zero-order hold',
        'foh',
        'first-order hold',
        'sample the plant',
        'matched pole-zero',
        'pole-zero matching',
        'impulse invariance',
        'impulse-invariant',
        'forward euler',
        'backward euler',
        'prewarp',
        'prewarping',
      ],
      weak: ['sample', 'sampled'],
      aliases: { Ts: ['T', 'dt', 'ts', 'Tsample', 'h'], prewarp: ['prewarp_frequency', 'PrewarpFrequency', 'wc', 'w0'] },
      example: '/c2d A=[0 1; -2 -3], B=[0;1], C=[1 0], Ts=0.1',
    },
    brief: 'Discretise (A, B, C, D) or num/den with sample time Ts (method: zoh default).',
    title: 'Continuous to discrete conversion',
    description:
      'Discretises a continuous model, state space (A, B, C, D) or transfer function (num, den), with sample time Ts. method: "zoh" (zero-order hold, default), "foh" (triangle first-order hold), "tustin" (bilinear; with prewarp = w rad/s the response matches exactly at w, which must lie below π/Ts), "impulse" (impulse invariance, MATLAB/SciPy scaling H_d(z) = Ts·Z{h(kTs)}; needs D = 0), "matched" (matched pole-zero as MATLAB, SISO), "euler" (forward difference s = (z−1)/Ts) or "backward_diff" (s = (z−1)/(Ts z)); SciPy\'s "bilinear" and python-control\'s "forward_diff" are accepted. ' +
      "Returns Ad, Bd, Cd, Dd (for num/den: of the SciPy tf2ss realisation) and, for num/den or matched, the discrete num, den; method (the one used). Tustin, euler and backward_diff state scaling follows SciPy (Bd = (I − αA·T)⁻¹B·T, Cd = C(I − αA·T)⁻¹); the transfer functions are MATLAB's.",
    parameters: {
      type: 'object',
      properties: {
        ...ssProps,
        ...tfProps,
        Ts: { type: 'number', description: 'sample time in seconds (> 0)', exclusiveMinimum: 0 },
        method: {
          type: 'string',
          enum: [...C2D_METHODS],
          // SciPy's 'bilinear', python-control's 'forward_diff', MATLAB c2dm's 'prewarp': accepted, mapped
          // by tools/call.ts before validation (kept out of the enum, which a model reads in its prefix)
          'x-aliases': METHOD_ALIASES,
          default: 'zoh',
          description: 'discretisation method (default zoh; prewarp needs tustin)',
        },
        ...prewarpProp,
      },
      required: ['Ts'],
      additionalProperties: false,
    },
    run(args) {
      const Ts = args.Ts as number;
      if (!(Ts > 0)) throw new ControlError('c2d needs a sample time Ts > 0.');
      // a subnormal double has fewer than 53 significant bits, and 1/Ts (tustin's 2/Ts, the verifier's frequencies) overflows
      if (Ts < 2.2250738585072014e-308)
        throw new ControlError(
          `c2d: Ts = ${Ts} is below the smallest normal double (2.2e-308); rescale the time unit so the sample time is nearer 1.`,
          'numerical',
        );
      const method = canonicalMethod(args.method ?? (args.prewarp !== undefined ? 'tustin' : 'zoh'), 'c2d', C2D_METHODS);
      const prewarp = args.prewarp as number | undefined;
      if (prewarp !== undefined && method !== 'tustin')
        throw new ControlError(
          `c2d: prewarp (${prewarp} rad/s) applies to the tustin method only, not ${method}${method === 'zoh' ? ' (zoh is the default)' : ''}; give method 'tustin' (MATLAB: c2dOptions('Method', 'tustin', 'PrewarpFrequency', w)) or drop prewarp.`,
        );
      const { tf, ss } = readTfOrSs({ ...args, Ts: undefined }, 'c2d');
      const extra = { Ts, method, ...(prewarp !== undefined ? { prewarp } : {}) };
      if (method === 'matched') {
        const t = tfOf(tf, ss, 'c2d');
        const r = c2dMatched(t.num, t.den, Ts);
        const z = realiseTf({ ...r, Ts });
        return { Ad: z.A, Bd: z.B, Cd: z.n ? z.C : [], Dd: z.D, num: r.num, den: r.den, ...extra };
      }
      const sys = ss ?? realiseTf(tf!);
      const r = c2d(sys, Ts, method, prewarp);
      if (!tf) return { Ad: r.Ad, Bd: r.Bd, Cd: r.Cd, Dd: r.Dd, ...extra };
      const t = ss2tf(r.Ad, r.Bd, r.Cd.length ? r.Cd : [[]], r.Dd);
      return { Ad: r.Ad, Bd: r.Bd, Cd: r.Cd, Dd: r.Dd, num: t.num, den: t.den, ...extra };
    },
    intro: null,
    render: renderC2d,
    code: {
      title: 'continuous to discrete conversion',
      gen(code, a, r) {
        const M = code.lang === 'matlab';
        systemCode(code, { ...a, Ts: undefined }, 'sysc');
        const method = (r?.method ?? a.method ?? (a.prewarp !== undefined ? 'tustin' : 'zoh')) as string;
        code.assign('Ts', numberLiteral(a.Ts, code.lang));
        const w = a.prewarp as number | undefined;
        if (M) {
          if (w !== undefined) {
            code.line(`opt = c2dOptions('Method', 'tustin', 'PrewarpFrequency', ${numberLiteral(w, code.lang)});`);
            code.line('sysd = c2d(sysc, Ts, opt);');
          } else if (method === 'euler' || method === 'backward_diff') {
            // MATLAB's c2d has no Euler methods: the substitution written out on a state-space form (SciPy's scaling)
            code.comment(`MATLAB's c2d has no ${method}: s = ${method === 'euler' ? '(z - 1)/Ts' : '(z - 1)/(Ts*z)'} on the state-space form`);
            code.line('[a, b, c, d] = ssdata(ss(sysc));  I = eye(size(a));');
            if (method === 'euler') code.line('sysd = ss(I + a*Ts, b*Ts, c, d, Ts);');
            else code.line('F = I - a*Ts;  sysd = ss(F \\ I, F \\ (b*Ts), c / F, d + c / F * b*Ts, Ts);');
          } else code.line(`sysd = c2d(sysc, Ts, '${method}');`);
          code.line(Array.isArray(a.num) ? "[numd, dend] = tfdata(sysd, 'v');" : '[Ad, Bd, Cd, Dd] = ssdata(sysd);');
        } else {
          const pm = PY_METHOD[method] ?? method;
          code.line(`sysd = ct.c2d(sysc, Ts, method='${pm}'${w !== undefined ? `, prewarp_frequency=${numberLiteral(w, code.lang)}` : ''})`);
          code.line(Array.isArray(a.num) ? 'numd, dend = sysd.num[0][0], sysd.den[0][0]' : 'Ad, Bd, Cd, Dd = sysd.A, sysd.B, sysd.C, sysd.D');
          if (method === 'matched')
            code.comment("python-control's matched adds no zeros at z = -1 and matches the gain differently: compare with MATLAB, or check poles e^{p Ts}");
        }
        if (method !== 'zoh')
          code.comment(
            `${method}: the state coordinates may differ from ours by a similarity transform (ours follow SciPy); compare the transfer functions, ${M ? 'tf(sysd)' : 'ct.ss2tf(sysd)'}.`,
          );
        if (r) {
          code.comment(verdictHolder);
          if (Array.isArray(r.num)) code.expect('numd', r.num).expect('dend', r.den);
          if (!Array.isArray(a.num)) code.expect('Ad', r.Ad).expect('Bd', r.Bd).expect('Cd', r.Cd).expect('Dd', r.Dd);
        }
      },
    },
    model: BY_LOOKUP,
    plots: modelPlots(['Ad', 'Bd', 'Cd', 'Dd'], (a) => a.Ts),
  }),
  tool({
    name: 'd2c',
    words: {
      calls: [{ names: ['d2c', 'undiscretize'], args: ['sys', 'method'], keywords: { method: 'method', prewarp_frequency: 'prewarp' } }],
      phrases: [
        'd2c',
        'discrete to continuous',
        'convert to continuous',
        'continuous equivalent',
        'continuous-time equivalent',
        'back to continuous time',
        'back to continuous',
        'convert back to continuous',
        'undiscretize',
        'undiscretise',
      ],
      aliases: { prewarp: ['prewarp_frequency', 'PrewarpFrequency'] },
      example: '/d2c A=[0.9 0.1; 0 0.8], B=[0;0.1], C=[1 0], Ts=0.1',
    },
    brief: 'Continuous model whose discretisation (zoh, tustin or matched, sample time Ts) is the given discrete model.',
    title: 'Discrete to continuous conversion',
    description:
      'Converts a discrete model (A, B, C, D or num/den with its sample time Ts > 0) to continuous time, the inverse of c2d. method: "zoh" (default: [A B; 0 0] = logm([Ad Bd; 0 I])/Ts, as MATLAB d2c; refused when the model has a pole at z = 0 or on the negative real axis, which no zero-order-hold sampling produces), "tustin" (inverse bilinear, optional prewarp in rad/s; refused with a pole at z = −1) or "matched" (SISO: s = ln(z)/Ts, zeros at z = −1 to infinity, low-frequency gain matched). ' +
      'Returns the continuous A, B, C, D (for num/den or matched also num, den in s) and method.',
    parameters: {
      type: 'object',
      properties: {
        ...ssProps,
        ...tfProps,
        Ts: { type: 'number', description: "the discrete model's sample time in seconds (> 0)", exclusiveMinimum: 0 },
        method: {
          type: 'string',
          enum: ['zoh', 'tustin', 'matched'],
          'x-aliases': { bilinear: 'tustin', prewarp: 'tustin', mpz: 'matched' },
          default: 'zoh',
          description: 'conversion method (default zoh; prewarp needs tustin)',
        },
        ...prewarpProp,
      },
      required: ['Ts'],
      additionalProperties: false,
    },
    run(args) {
      const Ts = args.Ts as number;
      if (!(Ts > 0)) throw new ControlError('d2c needs the sample time Ts > 0 of the discrete model.');
      const method = canonicalMethod(args.method ?? (args.prewarp !== undefined ? 'tustin' : 'zoh'), 'd2c', ['zoh', 'tustin', 'matched']);
      const prewarp = args.prewarp as number | undefined;
      if (prewarp !== undefined && method !== 'tustin')
        throw new ControlError(
          `d2c: prewarp (${prewarp} rad/s) applies to the tustin method only, not ${method}${method === 'zoh' ? ' (zoh is the default)' : ''}; give method 'tustin' (MATLAB: d2cOptions('Method', 'tustin', 'PrewarpFrequency', w)) or drop prewarp.`,
        );
      const { tf, ss } = readTfOrSs({ ...args, Ts: undefined }, 'd2c');
      const extra = { method, ...(prewarp !== undefined ? { prewarp } : {}) };
      if (method === 'matched') {
        const t = tfOf(tf, ss, 'd2c');
        const r = d2cMatched(t.num, t.den, Ts);
        const c = realiseTf({ ...r, Ts: 0 });
        return { A: c.A, B: c.B, C: c.n ? c.C : [], D: c.D, num: r.num, den: r.den, ...extra };
      }
      const sys = ss ?? realiseTf(tf!);
      const r = method === 'zoh' ? d2cZoh(sys, Ts) : d2cTustin(sys, Ts, prewarp);
      if (!tf) return { ...r, ...extra };
      const t = ss2tf(r.A, r.B, r.C.length && r.C[0].length ? r.C : [[]], r.D);
      return { ...r, C: r.A.length ? r.C : [], num: t.num, den: t.den, ...extra };
    },
    intro: null,
    render(args, r, o) {
      const head = `**Continuous equivalent by ${methodText(r.method, r.prewarp)}** of the model sampled at Ts = ${fmt(args.Ts)} s:`;
      const note =
        r.method === 'zoh'
          ? ['Sampling it with a zero-order hold at Ts gives the discrete model back (c2d(…, Ts, "zoh")).']
          : r.method === 'matched'
            ? ['Poles and zeros mapped by s = ln(z)/Ts, zeros at z = −1 taken to infinity, the low-frequency gain matched (MATLAB d2c matched).']
            : [];
      if (isRows(r.A) && !r.A.length && !Array.isArray(r.num))
        return [head, 'no states (a static gain): it is the same in continuous time.', matrixBlock('D', r.D, o)].join('\n\n');
      const mats = Array.isArray(args.num) ? [] : ['A', 'B', 'C', 'D'].map((k) => matrixBlock(k, r[k], o));
      return [head, ...tfLine('H(s)', r, 's', o), ...mats, ...note].join('\n\n');
    },
    code: {
      title: 'discrete to continuous conversion',
      gen(code, a, r) {
        const M = code.lang === 'matlab';
        systemCode(code, a, 'sysd');
        const method = (r?.method ?? a.method ?? (a.prewarp !== undefined ? 'tustin' : 'zoh')) as string;
        const w = a.prewarp as number | undefined;
        if (M) {
          if (w !== undefined) code.line(`sysc = d2c(sysd, d2cOptions('Method', 'tustin', 'PrewarpFrequency', ${numberLiteral(w, code.lang)}));`);
          else code.line(`sysc = d2c(sysd, '${method}');`);
          code.line(Array.isArray(a.num) ? "[numc, denc] = tfdata(sysc, 'v');" : '[Ac, Bc, Cc, Dc] = ssdata(sysc);');
        } else {
          // python-control has no d2c: the zoh inverse through SciPy's logm, the others written out
          code.line('from scipy.linalg import logm');
          code.line('A, B, C, D = sysd.A, sysd.B, sysd.C, sysd.D');
          code.line('n, m = B.shape');
          code.line('Ts = sysd.dt');
          if (method === 'zoh') {
            code.line('L = logm(np.block([[A, B], [np.zeros((m, n)), np.eye(m)]])).real / Ts   # [Ac Bc; 0 0]');
            code.line('Ac, Bc, Cc, Dc = L[:n, :n], L[:n, n:], C, D');
          } else if (method === 'tustin') {
            code.line(
              `T = ${w !== undefined ? `2 * np.tan(${numberLiteral(w, code.lang)} * Ts / 2) / ${numberLiteral(w, code.lang)}` : 'Ts'}   # the bilinear step${w !== undefined ? ' (prewarped)' : ''}`,
            );
            code.line('W = np.linalg.inv(A + np.eye(n))');
            code.line('Ac, Bc, Cc, Dc = 2 / T * W @ (A - np.eye(n)), 2 / T * W @ B, 2 * C @ W, D - C @ W @ B');
          } else {
            code.comment('matched: s = ln(z)/Ts for poles and zeros (zeros at z = -1 dropped), low-frequency gain matched');
            code.line('Ac, Bc, Cc, Dc = None, None, None, None   # see MATLAB d2c(sysd, "matched")');
          }
          code.line('sysc = ct.ss(Ac, Bc, Cc, Dc)' + (method === 'matched' ? '   # not reproduced in python-control' : ''));
        }
        if (r) {
          code.comment(verdictHolder);
          if (Array.isArray(r.num)) code.expect('numc', r.num).expect('denc', r.den);
          if (!Array.isArray(a.num)) code.expect('Ac', r.A).expect('Bc', r.B).expect('Cc', r.C).expect('Dc', r.D);
        }
      },
    },
    model: BY_LOOKUP,
    plots: modelPlots(['A', 'B', 'C', 'D'], () => undefined),
  }),
  tool({
    name: 'd2d',
    words: {
      calls: [{ names: ['d2d'], args: ['sys', 'newTs', 'method'] }],
      phrases: ['d2d', 'resample the model', 'resample the discrete model', 'resample the system'],
      aliases: { newTs: ['Ts2', 'Tsnew', 'Ts_new', 'T2'] },
      example: '/d2d A=[0.9 0.1; 0 0.8], B=[0;0.1], C=[1 0], Ts=0.1, newTs=0.3',
    },
    brief: 'Resample a discrete model (sample time Ts) to the sample time newTs with a zero-order hold.',
    title: 'Resampling a discrete model',
    description:
      'Resamples a discrete model (A, B, C, D or num/den, sample time Ts) to the new sample time newTs with a zero-order hold, as MATLAB d2d(sys, newTs): [A2 B2; 0 I] = [Ad Bd; 0 I]^(newTs/Ts). ' +
      'An integer ratio newTs/Ts is a matrix power (any model); another ratio goes through the matrix logarithm and is refused, as d2c zoh, for a pole at z = 0 or on the negative real axis. Returns Ad, Bd, Cd, Dd (num, den for num/den), Ts = newTs, method "zoh", ratio = newTs/Ts.',
    parameters: {
      type: 'object',
      properties: {
        ...ssProps,
        ...tfProps,
        Ts: { type: 'number', description: "the model's sample time in seconds (> 0)", exclusiveMinimum: 0 },
        newTs: { type: 'number', description: 'the new sample time in seconds (> 0)', exclusiveMinimum: 0 },
        method: { type: 'string', enum: ['zoh'], default: 'zoh', description: 'zoh (the only method)' },
      },
      required: ['Ts', 'newTs'],
      additionalProperties: false,
    },
    run(args) {
      const Ts = args.Ts as number,
        Ts2 = args.newTs as number;
      if (!(Ts > 0)) throw new ControlError('d2d needs the sample time Ts > 0 of the discrete model.');
      if (!(Ts2 > 0)) throw new ControlError('d2d needs the new sample time newTs > 0.');
      const { tf, ss } = readTfOrSs({ ...args, Ts: undefined }, 'd2d');
      const sys = ss ?? realiseTf(tf!);
      const r = d2dZoh(sys, Ts, Ts2);
      const out = { Ad: r.Ad, Bd: r.Bd, Cd: r.Cd, Dd: r.Dd, Ts: Ts2, method: 'zoh', ratio: Ts2 / Ts };
      if (!tf) return out;
      const t = ss2tf(r.Ad, r.Bd, r.Cd.length && r.Cd[0].length ? r.Cd : [[]], r.Dd);
      return { ...out, Cd: r.Ad.length ? r.Cd : [], num: t.num, den: t.den };
    },
    intro: null,
    render(args, r, o) {
      const head = `**Resampled from Ts = ${fmt(args.Ts)} s to Ts = ${fmt(r.Ts)} s** (zero-order hold, ${Number.isInteger(Math.round(r.ratio * 1e9) / 1e9) ? `${fmt(r.ratio)} steps per new step: a matrix power` : `ratio ${fmt(r.ratio)}: through the matrix logarithm`}):`;
      if (isRows(r.Ad) && !r.Ad.length && !Array.isArray(r.num))
        return [head, 'no states (a static gain): unchanged.', matrixBlock('Dd', r.Dd, o)].join('\n\n');
      const mats = Array.isArray(args.num) ? [] : ['Ad', 'Bd', 'Cd', 'Dd'].map((k) => matrixBlock(k, r[k], o));
      return [head, ...tfLine('H(z)', r, 'z', o), ...mats].join('\n\n');
    },
    code: {
      title: 'resampling a discrete model (zero-order hold)',
      gen(code, a, r) {
        const M = code.lang === 'matlab';
        systemCode(code, a, 'sysd');
        code.assign('Ts2', numberLiteral(a.newTs, code.lang));
        if (M) {
          code.line("sys2 = d2d(sysd, Ts2, 'zoh');");
          code.line(Array.isArray(a.num) ? "[num2, den2] = tfdata(sys2, 'v');" : '[Ad, Bd, Cd, Dd] = ssdata(sys2);');
        } else {
          // python-control has no d2d: [Ad Bd; 0 I]^(Ts2/Ts) through SciPy's fractional_matrix_power
          code.line('from scipy.linalg import fractional_matrix_power');
          code.line('A, B, C, D = sysd.A, sysd.B, sysd.C, sysd.D');
          code.line('n, m = B.shape');
          code.line('P = fractional_matrix_power(np.block([[A, B], [np.zeros((m, n)), np.eye(m)]]), Ts2 / sysd.dt).real');
          code.line('sys2 = ct.ss(P[:n, :n], P[:n, n:], C, D, Ts2)');
          code.line('Ad, Bd, Cd, Dd = sys2.A, sys2.B, sys2.C, sys2.D');
        }
        if (r) {
          code.comment(verdictHolder);
          if (Array.isArray(r.num)) code.expect('num2', r.num).expect('den2', r.den);
          if (!Array.isArray(a.num)) code.expect('Ad', r.Ad).expect('Bd', r.Bd).expect('Cd', r.Cd).expect('Dd', r.Dd);
        }
      },
    },
    model: BY_LOOKUP,
    plots: modelPlots(['Ad', 'Bd', 'Cd', 'Dd'], (_a, r) => r.Ts),
  }),
];
