// ControlBench's conversation families (issue 15, item 2): `followup` (multi-turn conversations),
// `typos_units` (typos, units, mixed notation), `ask_back` (requests that must be asked back) and
// `design_spec` (design from a specification). Every expected number is read from
// turns_ref.json, written by the independent benchmarks/turns_ref.py (numpy, scipy,
// python-control, sympy); none is typed in here and none comes from our solver.
//
// Exports TURN_ITEMS (also the default export): ControlBench lines, ready for
// controlbench.jsonl, in the format of benchmarks/README.md:
//   single turn: {id, family, style, question, expect, reference?}
//   multi-turn:  {id, family, style, turns: [{question, expect}], reference?}
// Each expect has the README's fields (tools, any_tools, args, sources, numbers, no_tool) and,
// for a request that must be asked back, `ask: {missing_any: [terms]}` (no tool is called and
// the answer names one of the terms: what is missing or which reading is meant).
// Each number also carries `ref` (<key>.<name> in turns_ref.json's values) and, where our solver
// states it, `path` into the result of `source` (the call a correct answer makes in that turn).
// Turns of a conversation are sent in order in one session: a turn's args and sources include
// what earlier turns defined.
import { readFileSync } from 'node:fs';
import { sourceOf } from './lib.mjs';

const REF_FILE = 'turns_ref.json';
export const TURNS_REF = JSON.parse(readFileSync(new URL(`./${REF_FILE}`, import.meta.url), 'utf8')).values;
const RTOL = 1e-3;
/** a reference value, for a source command that continues from an earlier turn's result */
const R = (ref) => TURNS_REF[ref.split('.')[0]][ref.split('.')[1]];

const I2 = [[1, 0], [0, 1]];
const DI = [[0, 1], [0, 0]];
const DIB = [[0], [1]];
const A1 = [[0, 1], [-2, -3]];
const C1 = [[1, 0]];
const diag = (...v) => v.map((x, i) => v.map((_, j) => (i === j ? x : 0)));
/** MATLAB's tf2ss layout (controllable canonical form) for the sources of state-space-only tools;
 * only realisation-invariant numbers are scored on them */
const ccf = (num, den) => {
  const a = den.map((x) => x / den[0]);
  const n = a.length - 1;
  const b = [...Array(n + 1 - num.length).fill(0), ...num].map((x) => x / den[0]);
  const A = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === 0 ? -a[j + 1] : j === i - 1 ? 1 : 0)));
  return { A, B: Array.from({ length: n }, (_, i) => [i === 0 ? 1 : 0]), C: [b.slice(1).map((x, i) => x - b[0] * a[i + 1])], D: [[b[0]]] };
};
/** the dominant pair from damping ζ and natural frequency ωn, as [re, im] pairs */
const pair = (zeta, wn) => [[-zeta * wn, wn * Math.sqrt(1 - zeta ** 2)], [-zeta * wn, -wn * Math.sqrt(1 - zeta ** 2)]];
const zetaOfOvershoot = (Mp) => -Math.log(Mp) / Math.sqrt(Math.PI ** 2 + Math.log(Mp) ** 2);

// terms that only a real question about the system contains (the no-model help text names
// "transfer function" and "State-Space Model", so those cannot count)
const SYSTEM = ['which system', 'which plant', 'what system', 'what plant', 'no system', 'not defined', 'define the system', 'define it', 'define them', 'give the system', 'give the plant'];
/** a missing argument named by a letter: phrases that ask for it (a bare letter would also match
 * the examples in the no-model help text, "R=1") and words that describe it */
const missing = (x, words) => [`needs ${x}`, `need ${x}`, `missing ${x}`, `without ${x}`, `give ${x}`, `(or ${x}`, `${x} is missing`, `${x} is not given`, `value of ${x}`, `which ${x}`, `what ${x}`, ...words];
const TS = ['Ts', 'sample time', 'sampling time', 'sampling period', 'sample period', 'sampling rate', 'sampling frequency'];

/** one expected number: [ref "<key>.<name>", label, path (where our solver states it) | null, rtol?, call index?] */
const n = (ref, label, path = null, rtol = RTOL, call = 0) => ({ ref, label, path, rtol, call });

/**
 * A turn: question, and the expectation.
 *   tools, any: tool-choice expectation; args: what the question (with the conversation so far) fixes;
 *   calls: [[tool, args], ...] the calls a correct answer makes (their `sources`); nums: n(...) list;
 *   ask: terms for a request that must be asked back (no tool).
 */
const T = (question, e = {}) => ({ question, ...e });

const SPECS = [];
const conv = (family, style, key, turns) => SPECS.push({ family, style, key, turns });
const one = (family, style, key, turn) => SPECS.push({ family, style, key, turns: [turn], single: true });

// ═════════════════════════════ followup ═════════════════════════════
conv('followup', 'matlab', 'fu01', [
  T('A = [0 1; -2 -3]; B = [0; 1]. Design an LQR with Q = eye(2) and R = 1: what is K?', {
    tools: ['lqr'], any: ['lqr', 'care'], calls: [['lqr', { A: A1, B: DIB, Q: I2, R: [[1]] }]],
    nums: [n('fu01_t1.K00', 'K(1)', 'K[0][0]'), n('fu01_t1.K01', 'K(2)', 'K[0][1]')],
  }),
  T('What if R = 10? Where do the closed-loop poles go then?', {
    tools: ['lqr'], any: ['lqr', 'care'], calls: [['lqr', { A: A1, B: DIB, Q: I2, R: [[10]] }]],
    nums: [n('fu01_t2.K00', 'K(1)', 'K[0][0]'), n('fu01_t2.K01', 'K(2)', 'K[0][1]'), n('fu01_t2.p0_re', 'faster closed-loop pole', 'poles[0][0]'), n('fu01_t2.p1_re', 'slower closed-loop pole', 'poles[1][0]')],
  }),
  T('And with Q = diag([10 1]), keeping R = 10?', {
    tools: ['lqr'], any: ['lqr', 'care'], calls: [['lqr', { A: A1, B: DIB, Q: diag(10, 1), R: [[10]] }]],
    nums: [n('fu01_t3.K00', 'K(1)', 'K[0][0]'), n('fu01_t3.K01', 'K(2)', 'K[0][1]')],
  }),
]);
conv('followup', 'tf', 'fu02', [
  T('G(s) = 4/(s^2 + 2s + 4). What are the natural frequency and damping ratio of its poles?', {
    tools: ['damp'], any: ['damp', 'poles_zeros', 'analyse'], args: null, calls: [['damp', { num: [4], den: [1, 2, 4] }]],
    nums: [n('fu02_t1.wn', 'natural frequency (rad/s)', 'wn[0]'), n('fu02_t1.zeta', 'damping ratio', 'zeta[0]'), n('fu02_t1.im', 'damped frequency (imaginary part)', 'poles[1][1]')],
  }),
  T('Now the step response: overshoot, peak time and settling time?', {
    tools: ['stepinfo'], any: ['stepinfo', 'step'], calls: [['stepinfo', ccf([4], [1, 2, 4])]],
    nums: [n('fu02_t2.overshoot', 'overshoot (%)', 'overshoot_pct'), n('fu02_t2.peak_time', 'peak time (s)', 'peak_time'), n('fu02_t2.settling', 'settling time 2 % (s)', 'settling_time')],
  }),
  T('What if the damping term is 3s instead of 2s, i.e. s^2 + 3s + 4?', {
    tools: ['stepinfo'], any: ['stepinfo', 'step'], calls: [['stepinfo', ccf([4], [1, 3, 4])]],
    nums: [n('fu02_t3.overshoot', 'overshoot (%)', 'overshoot_pct'), n('fu02_t3.peak_time', 'peak time (s)', 'peak_time'), n('fu02_t3.settling', 'settling time 2 % (s)', 'settling_time')],
  }),
]);
conv('followup', 'tf', 'fu03', [
  T('Discretise G(s) = 1/(s + 2) with a zero-order hold at Ts = 0.1 s.', {
    tools: ['c2d'], calls: [['c2d', { num: [1], den: [1, 2], Ts: 0.1 }]],
    nums: [n('fu03_t1.num1', 'numerator coefficient', 'num[1]'), n('fu03_t1.pole', 'discrete pole z (H(z) = …/(z − p))', 'Ad[0][0]')],
  }),
  T('Use Tustin instead.', {
    tools: ['c2d'], calls: [['c2d', { num: [1], den: [1, 2], Ts: 0.1, method: 'tustin' }]],
    nums: [n('fu03_t2.num0', 'numerator z coefficient', 'num[0]'), n('fu03_t2.num1', 'numerator constant', 'num[1]'), n('fu03_t2.pole', 'discrete pole z (H(z) = …/(z − p))', 'Ad[0][0]')],
  }),
  T('And at 0.5 s?', {
    tools: ['c2d'], calls: [['c2d', { num: [1], den: [1, 2], Ts: 0.5, method: 'tustin' }]],
    nums: [n('fu03_t3.num0', 'numerator z coefficient', 'num[0]'), n('fu03_t3.num1', 'numerator constant', 'num[1]'), n('fu03_t3.pole', 'discrete pole z (H(z) = …/(z − p))', 'Ad[0][0]')],
  }),
]);
const L4 = [1, 6, 5, 0];
conv('followup', 'tf', 'fu04', [
  T('Open loop L(s) = 10/(s(s+1)(s+5)). What are the gain and phase margins?', {
    tools: ['margins'], any: ['margins', 'stability_margins'], calls: [['margins', { num: [10], den: L4 }]],
    nums: [n('fu04_t1.gm', 'gain margin (ratio)', 'gm'), n('fu04_t1.gm_db', 'gain margin (dB)', 'gm_db'), n('fu04_t1.pm', 'phase margin (deg)', 'pm_deg'), n('fu04_t1.wpc', 'phase crossover (rad/s)', 'w_pc'), n('fu04_t1.wgc', 'gain crossover (rad/s)', 'w_gc')],
  }),
  T('What if the gain is 20 instead of 10?', {
    tools: ['margins'], any: ['margins', 'stability_margins'], calls: [['margins', { num: [20], den: L4 }]],
    nums: [n('fu04_t2.gm', 'gain margin (ratio)', 'gm'), n('fu04_t2.pm', 'phase margin (deg)', 'pm_deg'), n('fu04_t2.wgc', 'gain crossover (rad/s)', 'w_gc')],
  }),
  T('Close the loop with unity negative feedback at that gain: where are the closed-loop poles?', {
    tools: ['feedback'], any: ['feedback', 'poles_zeros', 'damp'], args: null, calls: [['feedback', { sys1: { num: [20], den: L4 } }]],
    nums: [n('fu04_t3.p0_re', 'real closed-loop pole', 'poles[0][0]'), n('fu04_t3.p1_re', 'real part of the complex pair', 'poles[1][0]'), n('fu04_t3.p2_im', 'imaginary part of the complex pair', 'poles[2][1]')],
    note: 'the loop may be passed as a transfer function, a state-space model or the closed-loop polynomial: args are not scored',
  }),
]);
conv('followup', 'matlab', 'fu05', [
  T('Double integrator A = [0 1; 0 0], B = [0; 1], C = [1 0]. Place the state-feedback poles at -2 ± 2j.', {
    tools: ['place'], calls: [['place', { A: DI, B: DIB, poles: [[-2, 2], [-2, -2]] }]],
    nums: [n('fu05_t1.K00', 'K(1)', 'K[0][0]'), n('fu05_t1.K01', 'K(2)', 'K[0][1]')],
  }),
  T('Now an observer with its poles at -10 and -11.', {
    tools: ['place_observer'], any: ['place_observer', 'place'], args: { poles: [[-10, 0], [-11, 0]] },
    calls: [['place_observer', { A: DI, C: C1, poles: [[-10, 0], [-11, 0]] }]],
    nums: [n('fu05_t2.L00', 'L(1)', 'L[0][0]'), n('fu05_t2.L10', 'L(2)', 'L[1][0]')],
  }),
]);
conv('followup', 'matlab', 'fu06', [
  T('Two plants, both with B = [0; 1]: plant 1 has A = [0 1; -1 -1], plant 2 has A = [0 1; 2 -1]. LQR with Q = eye(2), R = 1 for plant 1 first.', {
    tools: ['lqr'], any: ['lqr', 'care'], calls: [['lqr', { A: [[0, 1], [-1, -1]], B: DIB, Q: I2, R: [[1]] }]],
    nums: [n('fu06_t1.K00', 'K(1)', 'K[0][0]'), n('fu06_t1.K01', 'K(2)', 'K[0][1]')],
  }),
  T('Same for the other plant.', {
    tools: ['lqr'], any: ['lqr', 'care'], calls: [['lqr', { A: [[0, 1], [2, -1]], B: DIB, Q: I2, R: [[1]] }]],
    nums: [n('fu06_t2.K00', 'K(1)', 'K[0][0]'), n('fu06_t2.K01', 'K(2)', 'K[0][1]')],
  }),
]);
conv('followup', 'matlab', 'fu07', [
  T("G = tf(5, [1 6 5]). What's its DC gain?", {
    tools: ['dcgain'], calls: [['dcgain', { num: [5], den: [1, 6, 5] }]],
    nums: [n('fu07_t1.dc', 'DC gain', 'gain[0][0]')],
  }),
  T('Gain in dB and phase at 2 rad/s?', {
    tools: ['freqresp'], any: ['freqresp', 'evalfr'], calls: [['freqresp', { ...ccf([5], [1, 6, 5]), w: [2] }]],
    nums: [n('fu07_t2.mag_db', 'gain at 2 rad/s (dB)', 'mag_db[0]'), n('fu07_t2.phase', 'phase at 2 rad/s (deg)', 'phase_deg[0]')],
  }),
  T('And its bandwidth?', {
    tools: ['bandwidth'], calls: [['bandwidth', { num: [5], den: [1, 6, 5] }]],
    nums: [n('fu07_t3.bw', 'bandwidth (rad/s, −3 dB)', 'bandwidth')],
  }),
]);
conv('followup', 'matlab', 'fu08', [
  T('A = [0 1; 0 0], B = [0; 1]. Discretise with ZOH at Ts = 0.1 s.', {
    tools: ['c2d'], args: { A: DI, B: DIB, Ts: 0.1 }, calls: [['c2d', { A: DI, B: DIB, C: I2, Ts: 0.1 }]],
    nums: [n('fu08_t1.Ad01', 'Ad(1,2)', 'Ad[0][1]'), n('fu08_t1.Bd00', 'Bd(1)', 'Bd[0][0]'), n('fu08_t1.Bd10', 'Bd(2)', 'Bd[1][0]')],
  }),
  T('Now a dlqr on that with Q = eye(2), R = 1.', {
    tools: ['dlqr'], any: ['dlqr', 'dare'], calls: [['dlqr', { A: [[1, 0.1], [0, 1]], B: [[0.005], [0.1]], Q: I2, R: [[1]] }]],
    nums: [n('fu08_t2.K00', 'K(1)', 'K[0][0]'), n('fu08_t2.K01', 'K(2)', 'K[0][1]')],
  }),
  T('And if I sample at Ts = 0.5 s instead?', {
    tools: ['c2d', 'dlqr'], any: ['dlqr', 'dare'], args: { A: [[1, 0.5], [0, 1]], B: [[0.125], [0.5]], Q: I2, R: [[1]] },
    calls: [['dlqr', { A: [[1, 0.5], [0, 1]], B: [[0.125], [0.5]], Q: I2, R: [[1]] }]],
    nums: [n('fu08_t3.K00', 'K(1)', 'K[0][0]'), n('fu08_t3.K01', 'K(2)', 'K[0][1]')],
  }),
]);
conv('followup', 'prose', 'fu09', [
  T("Mass-spring-damper x' = [0 1; -2 -3] x + [0; 1] w, y = [1 0] x + v, process noise variance 1, sensor noise variance 0.1. What is the steady-state Kalman gain?", {
    tools: ['kalman'], any: ['kalman', 'lqe'], calls: [['kalman', { A: A1, G: DIB, C: C1, Qn: [[1]], Rn: [[0.1]] }]],
    nums: [n('fu09_t1.L00', 'L(1)', 'L[0][0]'), n('fu09_t1.L10', 'L(2)', 'L[1][0]')],
  }),
  T('What if the sensor is ten times noisier?', {
    tools: ['kalman'], any: ['kalman', 'lqe'], calls: [['kalman', { A: A1, G: DIB, C: C1, Qn: [[1]], Rn: [[1]] }]],
    nums: [n('fu09_t2.L00', 'L(1)', 'L[0][0]'), n('fu09_t2.L10', 'L(2)', 'L[1][0]')],
  }),
]);
const P10 = { num: [3], den: [1, 4, 3] };
conv('followup', 'tf', 'fu10', [
  T('G(s) = 3/((s+1)(s+3)). Tune a PI for a 2 rad/s crossover.', {
    tools: ['pidtune'], calls: [['pidtune', { ...P10, type: 'PI', wc: 2 }]],
    nums: [n('fu10_t1.Kp', 'Kp', 'Kp'), n('fu10_t1.Ki', 'Ki', 'Ki')],
    note: "pidtune's default phase margin is 60° (MATLAB)",
  }),
  T('Make the phase margin 45 degrees instead.', {
    tools: ['pidtune'], calls: [['pidtune', { ...P10, type: 'PI', wc: 2, pm: 45 }]],
    nums: [n('fu10_t2.Kp', 'Kp', 'Kp'), n('fu10_t2.Ki', 'Ki', 'Ki')],
  }),
  T('And a PID with the same targets?', {
    tools: ['pidtune'], calls: [['pidtune', { ...P10, type: 'PID', wc: 2, pm: 45 }]],
    nums: [n('fu10_t3.Kp', 'Kp', 'Kp'), n('fu10_t3.Ki', 'Ki', 'Ki'), n('fu10_t3.Kd', 'Kd', 'Kd')],
  }),
]);
conv('followup', 'tf', 'fu11', [
  T('L(s) = 10/(s(s+1)). What phase margin does it have, and at which crossover?', {
    tools: ['margins'], any: ['margins', 'stability_margins'], calls: [['margins', { num: [10], den: [1, 1, 0] }]],
    nums: [n('fu11_t1.pm', 'phase margin (deg)', 'pm_deg'), n('fu11_t1.wgc', 'gain crossover (rad/s)', 'w_gc')],
  }),
  T('Add a lead compensator so the phase margin is exactly 50°, keeping the loop gain. Zero, pole and new crossover?', {
    tools: ['leadlag'], args: { num: [10], den: [1, 1, 0], pm: 50 }, calls: [['leadlag', { num: [10], den: [1, 1, 0], kind: 'lead', pm: 50 }]],
    nums: [n('fu11_t2.zero', 'lead zero (rad/s)', 'zero'), n('fu11_t2.pole', 'lead pole (rad/s)', 'pole'), n('fu11_t2.wc', 'new crossover (rad/s)', 'wc')],
  }),
]);
conv('followup', 'tf', 'fu12', [
  T('G(s) = 100/((s+1)(s+10)) in a unity feedback loop. Phase margin and crossover frequency?', {
    tools: ['margins'], any: ['margins', 'stability_margins'], calls: [['margins', { num: [100], den: [1, 11, 10] }]],
    nums: [n('fu12_t1.pm', 'phase margin (deg)', 'pm_deg'), n('fu12_t1.wgc', 'gain crossover (rad/s)', 'w_gc')],
  }),
  T("What's the resonant peak of the closed loop T = G/(1+G), i.e. its H-infinity norm, and at which frequency?", {
    tools: ['hinfnorm'], calls: [['hinfnorm', ccf([100], [1, 11, 110])]],
    nums: [n('fu12_t2.hinf', 'peak |T(jω)|', 'hinf'), n('fu12_t2.wpeak', 'peak frequency (rad/s)', 'fpeak')],
  }),
]);
conv('followup', 'prose', 'fu13', [
  T('First-order plant dx/dt = -0.5 x + u. Discretise it, sampled at 50 ms.', {
    tools: ['c2d'], args: { A: [[-0.5]], B: [[1]], Ts: 0.05 }, calls: [['c2d', { A: [[-0.5]], B: [[1]], C: [[1]], Ts: 0.05 }]],
    nums: [n('fu13_t1.Ad', 'Ad', 'Ad[0][0]'), n('fu13_t1.Bd', 'Bd', 'Bd[0][0]')],
  }),
  T('Now the discrete LQR on it with Q = 1 and R = 0.1.', {
    tools: ['dlqr'], any: ['dlqr', 'dare'], args: { Q: [[1]], R: [[0.1]] },
    calls: [['dlqr', { A: [[R('fu13_t1.Ad')]], B: [[R('fu13_t1.Bd')]], Q: [[1]], R: [[0.1]] }]],
    nums: [n('fu13_t2.K', 'K', 'K[0][0]'), n('fu13_t2.pole', 'closed-loop pole (z)', 'poles[0][0]')],
  }),
]);
const A14 = [[0, 1, 0], [0, 0, 1], [-6, -11, -6]];
const B3 = [[0], [0], [1]];
conv('followup', 'matlab', 'fu14', [
  T('A = [0 1 0; 0 0 1; -6 -11 -6], B = [0; 0; 1], C = [1 0 0]. Is it stable? Eigenvalues?', {
    tools: ['analyse'], any: ['analyse', 'eig'], args: { A: A14 }, calls: [['analyse', { A: A14, B: B3, C: [[1, 0, 0]] }]],
    nums: [n('fu14_t1.p0_re', 'eigenvalue', 'eigenvalues[0][0]'), n('fu14_t1.p1_re', 'eigenvalue', 'eigenvalues[1][0]'), n('fu14_t1.p2_re', 'eigenvalue', 'eigenvalues[2][0]')],
  }),
  T('Place the closed-loop poles at -2, -3 and -4.', {
    tools: ['place'], calls: [['place', { A: A14, B: B3, poles: [[-2, 0], [-3, 0], [-4, 0]] }]],
    nums: [n('fu14_t2.K00', 'K(1)', 'K[0][0]'), n('fu14_t2.K01', 'K(2)', 'K[0][1]'), n('fu14_t2.K02', 'K(3)', 'K[0][2]')],
  }),
  T("What's the DC gain from the input to y with that feedback, i.e. of (A - BK, B, C)?", {
    tools: ['dcgain'], calls: [['dcgain', { A: [[0, 1, 0], [0, 0, 1], [-24, -26, -9]], B: B3, C: [[1, 0, 0]] }]],
    nums: [n('fu14_t3.dc', 'closed-loop DC gain', 'gain[0][0]')],
  }),
]);
conv('followup', 'tf', 'fu15', [
  T('L(s) = 10/(s(s+2)). Phase margin and crossover?', {
    tools: ['margins'], any: ['margins', 'stability_margins'], calls: [['margins', { num: [10], den: [1, 2, 0] }]],
    nums: [n('fu15_t1.pm', 'phase margin (deg)', 'pm_deg'), n('fu15_t1.wgc', 'gain crossover (rad/s)', 'w_gc')],
  }),
  T('Discretise it with ZOH at 0.1 s.', {
    tools: ['c2d'], calls: [['c2d', { num: [10], den: [1, 2, 0], Ts: 0.1 }]],
    nums: [n('fu15_t2.num1', 'numerator z coefficient', 'num[1]'), n('fu15_t2.num2', 'numerator constant', 'num[2]'), n('fu15_t2.den2', 'denominator constant (the product of the poles 1 and e^{−0.2})', 'den[2]')],
  }),
  T('And the margins of the discrete loop?', {
    tools: ['margins'], any: ['margins', 'stability_margins'], args: { Ts: 0.1 },
    calls: [['margins', { num: [0, R('fu15_t2.num1'), R('fu15_t2.num2')], den: [1, R('fu15_t2.den1'), R('fu15_t2.den2')], Ts: 0.1 }]],
    nums: [n('fu15_t3.gm', 'gain margin (ratio)', 'gm'), n('fu15_t3.wpc', 'phase crossover (rad/s)', 'w_pc'), n('fu15_t3.pm', 'phase margin (deg)', 'pm_deg'), n('fu15_t3.wgc', 'gain crossover (rad/s)', 'w_gc')],
  }),
]);
const A16 = [[-1, 2], [0, -3]];
conv('followup', 'matlab', 'fu16', [
  T('A = [-1 2; 0 -3], B = [1; 1], C = [1 0]. What is the impulse response at t = 1 s?', {
    tools: ['impulse'], args: { A: A16, B: [[1], [1]], C: C1 }, calls: [['impulse', { A: A16, B: [[1], [1]], C: C1, t: [0, 1] }]],
    nums: [n('fu16_t1.y1', 'y(1)', 'y[1]')],
  }),
  T('And the step response at t = 1 s?', {
    tools: ['step'], args: { A: A16, B: [[1], [1]], C: C1 }, calls: [['step', { A: A16, B: [[1], [1]], C: C1, t: [0, 1] }]],
    nums: [n('fu16_t2.y1', 'y(1)', 'y[1]')],
  }),
]);
conv('followup', 'matlab', 'fu17', [
  T('A = [0 1; 0 -2], B = [0; 1], C = [1 0]. LQR with Q = diag([10 1]), R = 1?', {
    tools: ['lqr'], any: ['lqr', 'care'], calls: [['lqr', { A: [[0, 1], [0, -2]], B: DIB, Q: diag(10, 1), R: [[1]] }]],
    nums: [n('fu17_t1.K00', 'K(1)', 'K[0][0]'), n('fu17_t1.K01', 'K(2)', 'K[0][1]')],
  }),
  T('Now add integral action on y: lqi with Q = diag([10 1 50]), R = 1.', {
    tools: ['lqi'], calls: [['lqi', { A: [[0, 1], [0, -2]], B: DIB, C: C1, Q: diag(10, 1, 50), R: [[1]] }]],
    nums: [n('fu17_t2.K00', 'Kx(1)', 'K[0][0]'), n('fu17_t2.K01', 'Kx(2)', 'K[0][1]'), n('fu17_t2.K02', 'integral gain (lqi: ẋi = r − y)', 'K[0][2]')],
  }),
]);
conv('followup', 'tf', 'fu18', [
  T('Poles and zeros of G(s) = (s + 3)/(s^3 + 4s^2 + 6s + 4)?', {
    tools: ['poles_zeros'], any: ['poles_zeros', 'zpk', 'damp'], calls: [['poles_zeros', { num: [1, 3], den: [1, 4, 6, 4] }]],
    nums: [n('fu18_t1.zero', 'zero', 'zeros[0][0]'), n('fu18_t1.p0_re', 'real pole', 'poles[0][0]'), n('fu18_t1.p1_re', 'real part of the pair', 'poles[1][0]'), n('fu18_t1.p2_im', 'imaginary part of the pair', 'poles[2][1]')],
  }),
  T("What's its H2 norm?", {
    tools: ['h2norm'], calls: [['h2norm', ccf([1, 3], [1, 4, 6, 4])]],
    nums: [n('fu18_t2.h2', 'H2 norm', 'h2')],
  }),
]);
conv('followup', 'tf', 'fu19', [
  T('L(s) = K/(s(s+2)(s+4)). Up to which K is the unity-feedback loop stable?', {
    tools: ['margins'], any: ['margins', 'stability_margins', 'rlocus'], calls: [['margins', { num: [1], den: [1, 6, 8, 0] }]],
    nums: [n('fu19_t1.gm', 'largest stable K (gain margin at K = 1)', 'gm'), n('fu19_t1.wpc', 'oscillation frequency there (rad/s)', 'w_pc')],
  }),
  T('Take K = 10. Closed-loop step response: overshoot and settling time?', {
    tools: ['stepinfo'], any: ['stepinfo', 'step'], calls: [['stepinfo', ccf([10], [1, 6, 8, 10])]],
    nums: [n('fu19_t2.overshoot', 'overshoot (%)', 'overshoot_pct'), n('fu19_t2.settling', 'settling time 2 % (s)', 'settling_time')],
  }),
]);
conv('followup', 'matlab', 'fu20', [
  T('A = [0 1; 1 0], B = [0; 1]. Eigenvalues of the open loop?', {
    tools: ['eig'], any: ['eig', 'analyse', 'damp'], args: { A: [[0, 1], [1, 0]] }, calls: [['eig', { A: [[0, 1], [1, 0]] }]],
    nums: [n('fu20_t1.ev_unstable', 'unstable eigenvalue', 'eigenvalues[1][0]'), n('fu20_t1.ev_stable', 'stable eigenvalue', 'eigenvalues[0][0]')],
  }),
  T('Close the loop with K = [3 2] (u = -Kx). Closed-loop eigenvalues?', {
    tools: ['eig'], any: ['eig', 'analyse', 'damp'], args: { A: [[0, 1], [-2, -2]] }, calls: [['eig', { A: [[0, 1], [-2, -2]] }]],
    nums: [n('fu20_t2.p1_re', 'real part', 'eigenvalues[0][0]'), n('fu20_t2.p1_im', 'imaginary part', 'eigenvalues[1][1]')],
    note: 'A − BK = [0 1; −2 −2]',
  }),
  T('And with K = [5 4]?', {
    tools: ['eig'], any: ['eig', 'analyse', 'damp'], args: { A: [[0, 1], [-4, -4]] }, calls: [['eig', { A: [[0, 1], [-4, -4]] }]],
    nums: [n('fu20_t3.p', 'double eigenvalue', 'eigenvalues[0][0]')],
  }),
]);
const A21 = [[-1, 1], [0, -2]];
conv('followup', 'numpy', 'fu21', [
  T('A = np.array([[-1, 1], [0, -2]]), B = np.eye(2). K, S, E = ct.lqr(A, B, np.eye(2), np.eye(2)): what is K?', {
    tools: ['lqr'], any: ['lqr', 'care'], calls: [['lqr', { A: A21, B: I2, Q: I2, R: I2 }]],
    nums: ['K00', 'K01', 'K10', 'K11'].map((k) => n(`fu21_t1.${k}`, `K(${+k[1] + 1},${+k[2] + 1})`, `K[${k[1]}][${k[2]}]`)),
  }),
  T('Penalise the second input ten times more: R = np.diag([1, 10]).', {
    tools: ['lqr'], any: ['lqr', 'care'], calls: [['lqr', { A: A21, B: I2, Q: I2, R: diag(1, 10) }]],
    nums: ['K00', 'K01', 'K10', 'K11'].map((k) => n(`fu21_t2.${k}`, `K(${+k[1] + 1},${+k[2] + 1})`, `K[${k[1]}][${k[2]}]`)),
  }),
]);
conv('followup', 'tf', 'fu22', [
  T('G(s) = 1/(s + 2). Discretise it.', { ask: TS }),
  T('Ts = 0.1 s, zero-order hold.', {
    tools: ['c2d'], calls: [['c2d', { num: [1], den: [1, 2], Ts: 0.1, method: 'zoh' }]],
    nums: [n('fu03_t1.num1', 'numerator coefficient', 'num[1]'), n('fu03_t1.pole', 'discrete pole z (H(z) = …/(z − p))', 'Ad[0][0]')],
  }),
]);

// ═════════════════════════════ typos_units ═════════════════════════════
one('typos_units', 'matlab', 'ty01', T('lqr fro A=[0 1;0 0], B=[0;1], Q=eye(2), R=1', {
  tools: ['lqr'], any: ['lqr', 'care'], calls: [['lqr', { A: DI, B: DIB, Q: I2, R: [[1]] }]],
  nums: [n('ty01.K00', 'K(1)', 'K[0][0]'), n('ty01.K01', 'K(2)', 'K[0][1]')],
}));
one('typos_units', 'prose', 'ty02', T('desing a state feedbak for A = [0 1; -2 -3], B = [0; 1] puting the poles at -4 and -5', {
  tools: ['place'], calls: [['place', { A: A1, B: DIB, poles: [[-4, 0], [-5, 0]] }]],
  nums: [n('ty02.K00', 'K(1)', 'K[0][0]'), n('ty02.K01', 'K(2)', 'K[0][1]')],
}));
one('typos_units', 'tf', 'ty03', T('bode plto of G(s) = 10/(s+10): magnitude and phase at w = 10 rad/s', {
  tools: ['freqresp'], any: ['freqresp', 'evalfr'], calls: [['freqresp', { ...ccf([10], [1, 10]), w: [10] }]],
  nums: [n('ty03.mag_db', 'magnitude (dB)', 'mag_db[0]'), n('ty03.phase', 'phase (deg)', 'phase_deg[0]')],
}));
one('typos_units', 'tf', 'ty04', T('discretise G(s) = 1/(s+1) sampled at 50 ms (zoh)', {
  tools: ['c2d'], calls: [['c2d', { num: [1], den: [1, 1], Ts: 0.05, method: 'zoh' }]],
  nums: [n('ty04.num1', 'numerator coefficient', 'num[1]'), n('ty04.pole', 'discrete pole z (H(z) = …/(z − p))', 'Ad[0][0]')],
}));
one('typos_units', 'matlab', 'ty05', T('c2d(ss(A,B,C,0), Ts) with A = [0 1; -4 -0.4], B = [0; 1], C = [1 0], Ts = 100 ms', {
  tools: ['c2d'], calls: [['c2d', { A: [[0, 1], [-4, -0.4]], B: DIB, C: C1, Ts: 0.1 }]],
  nums: [...['Ad00', 'Ad01', 'Ad10', 'Ad11'].map((k) => n(`ty05.${k}`, `Ad(${+k[2] + 1},${+k[3] + 1})`, `Ad[${k[2]}][${k[3]}]`)), n('ty05.Bd00', 'Bd(1)', 'Bd[0][0]'), n('ty05.Bd10', 'Bd(2)', 'Bd[1][0]')],
}));
one('typos_units', 'tf', 'ty06', T('PI for G(s) = 50/((s+5)(s+20)) with the crossover at 1 Hz and a phase margin of 45 deg', {
  tools: ['pidtune'], calls: [['pidtune', { num: [50], den: [1, 25, 100], type: 'PI', wc: 2 * Math.PI, pm: 45 }]],
  nums: [n('ty06.Kp', 'Kp', 'Kp'), n('ty06.Ki', 'Ki', 'Ki')],
  note: '1 Hz = 2π rad/s',
}));
{
  const z = zetaOfOvershoot(0.1);
  one('typos_units', 'prose', 'ty07', T('settling time 2 sec (2 %) and 10 % overshoot: place the poles for A = [0 1; 0 -2], B = [0; 1]', {
    tools: ['place'], args: { A: [[0, 1], [0, -2]], B: DIB }, calls: [['place', { A: [[0, 1], [0, -2]], B: DIB, poles: pair(z, 4 / (z * 2)) }]],
    nums: [n('ty07.re', 'pole real part', 'poles[0][0]'), n('ty07.im', 'pole imaginary part', 'poles[1][1]'), n('ty07.K00', 'K(1)', 'K[0][0]'), n('ty07.K01', 'K(2)', 'K[0][1]')],
    note: 'ζ = −ln Mp/√(π² + ln² Mp), ωn = 4/(ζ ts)',
  }));
}
one('typos_units', 'numpy', 'ty08', T('K, S, E = ct.dlqr(np.array([[1, 0.1], [0, 1]]), np.array([[0.005], [0.1]]), np.eye(2), np.array([[10]])) -- wat is K?', {
  tools: ['dlqr'], any: ['dlqr', 'dare'], calls: [['dlqr', { A: [[1, 0.1], [0, 1]], B: [[0.005], [0.1]], Q: I2, R: [[10]] }]],
  nums: [n('ty08.K00', 'K(1)', 'K[0][0]'), n('ty08.K01', 'K(2)', 'K[0][1]')],
}));
one('typos_units', 'prose', 'ty09', T('kalmn filter: A=[0 1;-1 -0.2], G=[0;1], C=[1 0], process noise var 0.5, measurment noise var 0.01 -> steady state gain?', {
  tools: ['kalman'], any: ['kalman', 'lqe'], calls: [['kalman', { A: [[0, 1], [-1, -0.2]], G: DIB, C: C1, Qn: [[0.5]], Rn: [[0.01]] }]],
  nums: [n('ty09.L00', 'L(1)', 'L[0][0]'), n('ty09.L10', 'L(2)', 'L[1][0]')],
}));
one('typos_units', 'tf', 'ty10', T('phase margn of L(s) = 2/(s(s+1)) in degrees, and the crossover in Hz?', {
  tools: ['margins'], any: ['margins', 'stability_margins'], calls: [['margins', { num: [2], den: [1, 1, 0] }]],
  nums: [n('ty10.pm', 'phase margin (deg)', 'pm_deg'), n('ty10.fgc', 'gain crossover (Hz)')],
  note: 'the crossover in Hz is ω_gc/2π: derived in the answer, not a field of the result',
}));
one('typos_units', 'numpy', 'ty11', T('eigen values of np.array([[0,1],[-5,-2]]) pls', {
  tools: ['eig'], any: ['eig', 'analyse', 'damp'], calls: [['eig', { A: [[0, 1], [-5, -2]] }]],
  nums: [n('ty11.p1_re', 'real part', 'eigenvalues[0][0]'), n('ty11.p1_im', 'imaginary part', 'eigenvalues[1][1]')],
}));
one('typos_units', 'matlab', 'ty12', T('stepinfo(tf(9,[1 3 9]))', {
  tools: ['stepinfo'], any: ['stepinfo', 'step'], calls: [['stepinfo', ccf([9], [1, 3, 9])]],
  nums: [n('ty12.overshoot', 'overshoot (%)', 'overshoot_pct'), n('ty12.settling', 'settling time (s)', 'settling_time'), n('ty12.rise', 'rise time (s)', 'rise_time')],
}));
one('typos_units', 'matlab', 'ty13', T('discretize the ss A=[-1 0;0 -2], B=[1;1], C=[1 1] with Ts = 0.2 sec using tustin', {
  tools: ['c2d'], calls: [['c2d', { A: [[-1, 0], [0, -2]], B: [[1], [1]], C: [[1, 1]], Ts: 0.2, method: 'tustin' }]],
  nums: [n('ty13.Ad00', 'Ad(1,1)', 'Ad[0][0]'), n('ty13.Ad11', 'Ad(2,2)', 'Ad[1][1]')],
  note: 'Tustin Bd/Cd depend on the state scaling convention (not scored); Ad does not',
}));
one('typos_units', 'tf', 'ty14', T('H inf norm of G(s)=1/(s^2+0.2s+1)?', {
  tools: ['hinfnorm'], calls: [['hinfnorm', ccf([1], [1, 0.2, 1])]],
  nums: [n('ty14.hinf', 'H∞ norm (resonant peak)', 'hinf')],
}));
one('typos_units', 'matlab', 'ty15', T('A = [0 1; 0 -1]; B = [0; 1]; Q = diag([100, 1]); R = 0.01;  % K = lqr(A,B,Q,R) ?', {
  tools: ['lqr'], any: ['lqr', 'care'], calls: [['lqr', { A: [[0, 1], [0, -1]], B: DIB, Q: diag(100, 1), R: [[0.01]] }]],
  nums: [n('ty15.K00', 'K(1)', 'K[0][0]'), n('ty15.K01', 'K(2)', 'K[0][1]')],
}));
one('typos_units', 'prose', 'ty16', T('natural freq and damping ratio of s^2 + 0.8s + 4 ?? (rad/s pls)', {
  tools: ['damp'], any: ['damp', 'poles_zeros', 'analyse'], args: null, calls: [['damp', { num: [1], den: [1, 0.8, 4] }]],
  nums: [n('ty16.wn', 'natural frequency (rad/s)', 'wn[0]'), n('ty16.zeta', 'damping ratio', 'zeta[0]')],
}));
one('typos_units', 'tf', 'ty17', T('gain margn in dB of G = 4/(s+1)^3, and at what frequency (rad/s)?', {
  tools: ['margins'], any: ['margins', 'stability_margins'], calls: [['margins', { num: [4], den: [1, 3, 3, 1] }]],
  nums: [n('ty17.gm_db', 'gain margin (dB)', 'gm_db'), n('ty17.wpc', 'phase crossover (rad/s)', 'w_pc')],
}));
one('typos_units', 'matlab', 'ty18', T('LQR for a motr: A = [0 1 0; 0 0 1; 0 0 -5], B = [0;0;5], Q = diag([1 0 0]), R = 1. gains pls', {
  tools: ['lqr'], any: ['lqr', 'care'], calls: [['lqr', { A: [[0, 1, 0], [0, 0, 1], [0, 0, -5]], B: [[0], [0], [5]], Q: diag(1, 0, 0), R: [[1]] }]],
  nums: ['K00', 'K01', 'K02'].map((k) => n(`ty18.${k}`, `K(${+k[2] + 1})`, `K[0][${k[2]}]`)),
}));

// ═════════════════════════════ ask_back ═════════════════════════════
// no tool call; the answer asks for the missing datum or the intended reading (one of the terms)
one('ask_back', 'matlab', 'ab01', T('Design an LQR for A = [0 1; 0 0], B = [0; 1] with Q = eye(2).', { ask: missing('R', ['input weight', 'control weight', 'control effort']) }));
one('ask_back', 'tf', 'ab02', T('Discretise G(s) = 1/(s+1) with a zero-order hold.', { ask: TS }));
one('ask_back', 'matlab', 'ab03', T('Place the poles of A = [0 1; 0 0], B = [0; 1].', { ask: ['poles', 'pole locations', 'where'] }));
one('ask_back', 'prose', 'ab04', T('What are the gain and phase margins of the system?', { ask: SYSTEM }));
one('ask_back', 'matlab', 'ab05', T('Kalman filter for A = [0 1; -2 -3], G = [0; 1], C = [1 0] with process noise variance 1.', {
  ask: ['Rn', 'measurement noise', 'sensor noise', 'noise covariance', 'noise variance'],
}));
one('ask_back', 'matlab', 'ab06', T("c2d(ss(A, B, C, 0), 'tustin') with A = [0 1; -2 -3], B = [0; 1], C = [1 0]", { ask: TS }));
one('ask_back', 'matlab', 'ab07', T('lqr(A, B, Q, R) with A = [0 1; 0 0], B = [0; 1], Q = diag(10, 1), R = 1', {
  ask: ['diag([10 1])', 'diag([10, 1])', 'superdiagonal', 'off-diagonal', 'not symmetric', 'positive semidefinite'],
  note: "in MATLAB diag(10, 1) is [0 10; 0 0] (10 on the first superdiagonal), not a valid LQR weight; the engineer most likely meant diag([10 1]): ask which",
}));
one('ask_back', 'tf', 'ab08', T('G(s) = 1/s+1: step response please', {
  ask: ['1/(s+1)', '1/(s + 1)', '1/s + 1', '(1/s) + 1', 'parenthes', 'brackets'],
  note: 'two readings: 1/s + 1 = (s + 1)/s (improper step response with an integrator) or 1/(s + 1)',
}));
one('ask_back', 'prose', 'ab09', T('Step response of the plant, please.', { ask: SYSTEM }));
one('ask_back', 'prose', 'ab10', T('Design a lead compensator for G(s) = 1/(s(s+1)).', {
  ask: ['which phase margin', 'what phase margin', 'which crossover', 'what crossover', 'specification', 'Kv', 'velocity constant', 'steady-state error', 'requirement', 'target'],
}));
one('ask_back', 'matlab', 'ab11', T('dlqr for A = [1 0.1; 0 1], B = [0; 0.1], R = 1', { ask: missing('Q', ['state weight']) }));
one('ask_back', 'matlab', 'ab12', T('Observer with poles at -10 and -12 for A = [0 1; -2 -3].', {
  ask: missing('C', ['output matrix', 'measured', 'measurement', 'sensor']),
}));
one('ask_back', 'prose', 'ab13', T('Close the loop with K = [1 2] and give me the closed-loop poles.', { ask: SYSTEM }));
one('ask_back', 'prose', 'ab14', T('Discretise A = [0 1; 0 0], B = [0; 1], sampled at 10.', {
  ask: ['ms', 'seconds', 'unit', 'Hz', '10 s'],
  note: 'a bare 10 may be a period (10 ms? 10 s?) or a rate (10 Hz): ask',
}));
one('ask_back', 'matlab', 'ab15', T('K = lqr(A, B, eye(3), 1) with A = [0 1; -2 -3], B = [0; 1]', {
  ask: ['3×3', '3x3', '2×2', '2x2', 'dimension', 'size', '2 states', 'two states'],
}));
one('ask_back', 'prose', 'ab16', T('Place the poles at -1, -2 and -3 for A = [0 1; -2 -3], B = [0; 1].', {
  ask: ['two poles', '2 poles', 'three poles', '3 poles', 'two states', '2 states', 'how many'],
}));
one('ask_back', 'matlab', 'ab17', T('Kalman filter for A = [0 1; -2 -3], C = [1 0], G(s) = 1/(s+1), Qn = 1, Rn = 0.1.', {
  ask: ['noise input', 'noise matrix', 'disturbance input', 'which G', 'G matrix', 'G as a matrix'],
  note: "kalman's G is the process-noise input matrix (n × 1 here); a transfer function G(s) cannot be it: ask what G is",
}));

// ═════════════════════════════ design_spec ═════════════════════════════
const A3 = [[0, 1, 0], [0, 0, 1], [-1, -3, -3]];
one('design_spec', 'matlab', 'ds01', T('A = [0 1 0; 0 0 1; -1 -3 -3], B = [0; 0; 1]. I want the dominant closed-loop pair at ζ = 0.6, ωn = 3 rad/s and the third pole at -15. State-feedback gain?', {
  tools: ['place'], args: { A: A3, B: B3, poles: [...pair(0.6, 3), [-15, 0]] }, calls: [['place', { A: A3, B: B3, poles: [...pair(0.6, 3), [-15, 0]] }]],
  nums: ['K00', 'K01', 'K02'].map((k) => n(`ds01.${k}`, `K(${+k[2] + 1})`, `K[0][${k[2]}]`)),
}));
{
  const A = [[0, 1, 0], [0, 0, 1], [0, -4, -5]];
  const p = pair(0.707, 2);
  one('design_spec', 'prose', 'ds02', T("Third-order plant A = [0 1 0; 0 0 1; 0 -4 -5], B = [0; 0; 2]: state feedback with a dominant pair of damping 0.707 and natural frequency 2 rad/s, and the third pole five times further left than the pair's real part.", {
    tools: ['place'], args: { A, B: [[0], [0], [2]] }, calls: [['place', { A, B: [[0], [0], [2]], poles: [...p, [5 * p[0][0], 0]] }]],
    nums: [n('ds02.third', 'third pole', 'poles[0][0]'), ...['K00', 'K01', 'K02'].map((k) => n(`ds02.${k}`, `K(${+k[2] + 1})`, `K[0][${k[2]}]`))],
  }));
}
one('design_spec', 'tf', 'ds03', T('G(s) = 2/(s+2)^2. PI controller with a 55° phase margin at a 1.5 rad/s crossover.', {
  tools: ['pidtune'], calls: [['pidtune', { num: [2], den: [1, 4, 4], type: 'PI', wc: 1.5, pm: 55 }]],
  nums: [n('ds03.Kp', 'Kp', 'Kp'), n('ds03.Ki', 'Ki', 'Ki')],
}));
one('design_spec', 'tf', 'ds04', T('PD for G(s) = 1/(s(s+4)): crossover 8 rad/s, phase margin 60°.', {
  tools: ['pidtune'], calls: [['pidtune', { num: [1], den: [1, 4, 0], type: 'PD', wc: 8, pm: 60 }]],
  nums: [n('ds04.Kp', 'Kp', 'Kp'), n('ds04.Kd', 'Kd', 'Kd')],
}));
one('design_spec', 'tf', 'ds05', T('G(s) = 5/(s(s+1)(0.1s+1)). One lead stage for exactly 45° of phase margin, loop gain unchanged. Zero, pole and the new crossover?', {
  tools: ['leadlag'], args: { num: [5], den: [0.1, 1.1, 1, 0], pm: 45 }, calls: [['leadlag', { num: [5], den: [0.1, 1.1, 1, 0], kind: 'lead', pm: 45 }]],
  nums: [n('ds05.zero', 'lead zero (rad/s)', 'zero'), n('ds05.pole', 'lead pole (rad/s)', 'pole'), n('ds05.wc', 'new crossover (rad/s)', 'wc')],
}));
one('design_spec', 'tf', 'ds06', T('G(s) = 1/((s+1)(s+2)) needs a position error constant of 20 (loop gain 40) and a 45° phase margin: design a lag with its zero a decade below the new crossover. Crossover, lag zero and pole?', {
  tools: ['leadlag'], args: { num: [1], den: [1, 3, 2], kind: 'lag', K: 40, pm: 45 }, calls: [['leadlag', { num: [1], den: [1, 3, 2], kind: 'lag', K: 40, pm: 45 }]],
  nums: [n('ds06.wc', 'new crossover (rad/s)', 'wc'), n('ds06.zero', 'lag zero (rad/s)', 'zero'), n('ds06.pole', 'lag pole (rad/s)', 'pole')],
}));
{
  const s = pair(0.7, 5);
  const z = s.map(([re, im]) => [Math.exp(re * 0.1) * Math.cos(im * 0.1), Math.exp(re * 0.1) * Math.sin(im * 0.1)]);
  one('design_spec', 'matlab', 'ds07', T('Discrete plant A = [1 0.1; 0 1], B = [0.005; 0.1], Ts = 0.1 s. I want the closed loop to behave like ζ = 0.7, ωn = 5 rad/s (poles mapped by z = e^{sTs}). Which z-plane poles, and what K?', {
    tools: ['place'], args: { A: [[1, 0.1], [0, 1]], B: [[0.005], [0.1]] }, calls: [['place', { A: [[1, 0.1], [0, 1]], B: [[0.005], [0.1]], poles: z }]],
    nums: [n('ds07.z_re', 'pole real part (z)', 'poles[0][0]'), n('ds07.z_im', 'pole imaginary part (z)', 'poles[1][1]'), n('ds07.K00', 'K(1)', 'K[0][0]'), n('ds07.K01', 'K(2)', 'K[0][1]')],
  }));
}
one('design_spec', 'prose', 'ds08', T('State feedback puts the controller poles at -2 ± 2j on A = [0 1; -2 -3], measured output C = [1 0]. Make the observer four times faster than the controller. Observer gain L?', {
  tools: ['place_observer'], any: ['place_observer', 'place'], args: { poles: [[-8, 8], [-8, -8]] }, calls: [['place_observer', { A: A1, C: C1, poles: [[-8, 8], [-8, -8]] }]],
  nums: [n('ds08.L00', 'L(1)', 'L[0][0]'), n('ds08.L10', 'L(2)', 'L[1][0]')],
  note: 'four times faster: the poles scaled by 4, −8 ± 8j',
}));
one('design_spec', 'tf', 'ds09', T('PID (ideal, Ti = 4 Td) for G(s) = 1/(s+1)^3 with a 0.8 rad/s crossover and at most 10 % overshoot, taking the phase margin from the second-order prototype.', {
  tools: ['pidtune'], args: { num: [1], den: [1, 3, 3, 1], type: 'PID', wc: 0.8 }, calls: [['pidtune', { num: [1], den: [1, 3, 3, 1], type: 'PID', wc: 0.8, overshoot_pct: 10 }]],
  nums: [n('ds09.pm', 'phase margin from 10 % overshoot (deg)', 'pm'), n('ds09.Kp', 'Kp', 'Kp'), n('ds09.Ki', 'Ki', 'Ki'), n('ds09.Kd', 'Kd', 'Kd')],
  note: 'ζ = −ln Mp/√(π² + ln² Mp), PM = atan(2ζ/√(√(1+4ζ⁴) − 2ζ²))',
}));
one('design_spec', 'prose', 'ds10', T('Plant 1/(s+1). I need a PI controller for at most 5 % overshoot and a 4 s settling time (2 %). Which crossover and phase margin does that mean, and which gains?', {
  tools: ['pidtune'], args: { num: [1], den: [1, 1], type: 'PI' }, calls: [['pidtune', { num: [1], den: [1, 1], type: 'PI', overshoot_pct: 5, settling_time: 4 }]],
  nums: [n('ds10.wc', 'crossover (rad/s)', 'wc'), n('ds10.pm', 'phase margin (deg)', 'pm'), n('ds10.Kp', 'Kp', 'Kp'), n('ds10.Ki', 'Ki', 'Ki')],
  note: 'second-order prototype: ζ from the overshoot, ζωn = 4/ts, ωc = ωn√(√(1+4ζ⁴) − 2ζ²), PM = atan(2ζ/√(√(1+4ζ⁴) − 2ζ²))',
}));
one('design_spec', 'prose', 'ds11', T("x' = [0 1; 0 -1] x + [0; 2] u: put both closed-loop poles at -5 (critically damped). K?", {
  tools: ['place'], calls: [['place', { A: [[0, 1], [0, -1]], B: [[0], [2]], poles: [[-5, 0], [-5, 0]] }]],
  nums: [n('ds11.K00', 'K(1)', 'K[0][0]'), n('ds11.K01', 'K(2)', 'K[0][1]')],
}));
one('design_spec', 'tf', 'ds12', T('G(s) = 1/(s(s+2)): crossover at 4 rad/s with a 50° phase margin, one lead stage with its maximum phase at the crossover. Gain, lead angle, zero and pole?', {
  tools: ['leadlag'], args: { num: [1], den: [1, 2, 0], wc: 4, pm: 50 }, calls: [['leadlag', { num: [1], den: [1, 2, 0], kind: 'lead', wc: 4, pm: 50 }]],
  nums: [n('ds12.K', 'gain K', 'K'), n('ds12.phi', 'maximum lead (deg)', 'phi_deg'), n('ds12.zero', 'lead zero (rad/s)', 'zero'), n('ds12.pole', 'lead pole (rad/s)', 'pole')],
}));

// ───────────────────────────── assembly ─────────────────────────────
/** resolves the specs into ControlBench lines; throws on a missing reference value */
function build() {
  const counters = new Map();
  return SPECS.map((s) => {
    const k = (counters.get(s.family) ?? 0) + 1;
    counters.set(s.family, k);
    const id = `${s.family}-${String(k).padStart(3, '0')}`;
    const turns = s.turns.map((t) => {
      let expect;
      if (t.ask) {
        expect = { tools: [], numbers: [], no_tool: true, ask: { missing_any: t.ask } };
      } else {
        const calls = t.calls ?? [];
        const sources = calls.map(([tool, a]) => sourceOf(tool, a));
        const accepted = new Set([...(t.tools ?? []), ...(t.any ?? [])]);
        let args = t.args;
        if (args === undefined) {
          const c = calls.find(([tool]) => accepted.has(tool));
          // a state-space-only tool on a transfer function: the realisation is the model's choice
          const tfGiven = /[GL]\(s\)|tf\(/.test(s.turns.map((x) => x.question).join(' '));
          if (c && !(tfGiven && 'A' in c[1] && !('num' in c[1]))) args = c[1];
        }
        const multi = calls.length > 1;
        const numbers = (t.nums ?? []).map((x) => {
          const [key, name] = x.ref.split('.');
          const value = TURNS_REF[key]?.[name];
          if (typeof value !== 'number' || !Number.isFinite(value) || value === 0)
            throw new Error(`${id}: ${REF_FILE} has no usable ${x.ref} (run python3 benchmarks/turns_ref.py)`);
          const out = { name: x.path ? (multi ? `${calls[x.call][0]}.${x.path}` : x.path) : name, label: x.label, value, rtol: x.rtol, ref: x.ref };
          if (x.path) {
            out.path = x.path;
            out.source = sources[x.call];
          }
          return out;
        });
        expect = { tools: t.tools ?? [] };
        if (t.any) expect.any_tools = t.any;
        if (args) expect.args = args; // null: the question fixes no args a scorer could compare
        if (sources.length) expect.sources = sources;
        expect.numbers = numbers;
        expect.no_tool = false;
      }
      const turn = { question: t.question, expect };
      if (t.note) turn.note = t.note;
      return turn;
    });
    const reference = `benchmarks/${REF_FILE}#${s.key}`;
    if (s.single) {
      const { question, expect, note } = turns[0];
      const line = { id, family: s.family, style: s.style, question, expect };
      if (!expect.no_tool) line.reference = reference;
      if (note) line.note = note;
      return line;
    }
    return { id, family: s.family, style: s.style, turns, reference };
  });
}

export const TURN_ITEMS = build();
export default TURN_ITEMS;
