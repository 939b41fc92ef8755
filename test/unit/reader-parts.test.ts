// The reader's small parts on their own: transfer-function expressions, units, pole lists,
// specifications, call syntax and the conversation's JSON form. Expected values are hand
// expansions and textbook figures (cited), not outputs of the code under test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTfExpression, findTfExpressions } from '../../src/core/reader/tfexpr.js';
import { findSampleTimes, readNumberList, specPoles, findSpecs, timeQuantity } from '../../src/core/reader/quantities.js';
import { findCalls } from '../../src/core/reader/calls.js';
import { repair } from '../../src/core/reader/scan.js';
import { Conversation, readTurn } from '../../src/core/reader/index.js';
import { editDistance } from '../../src/core/reader/lexicon.js';

test('transfer-function expressions expand as written (hand expansions)', () => {
  // s(s+1)(s+5) = s³ + 6s² + 5s
  assert.deepEqual(parseTfExpression('10/(s(s+1)(s+5))'), { num: [10], den: [1, 6, 5, 0], variable: 's' });
  // 5(s+1)² = 5s² + 10s + 5; (s+2)(s²+s+1) = s³ + 3s² + 3s + 2
  assert.deepEqual(parseTfExpression('5(s+1)²/((s+2)(s²+s+1))'), { num: [5, 10, 5], den: [1, 3, 3, 2], variable: 's' });
  // 0.5/(1 − 0.5 z⁻¹) = 0.5 z / (z − 0.5)
  assert.deepEqual(parseTfExpression('0.5/(1 - 0.5z^-1)'), { num: [0.5, 0], den: [1, -0.5], variable: 'z' });
  // a gain named in the message: K/(s(s+2)) with K = 5
  assert.deepEqual(parseTfExpression('K/(s(s+2))', undefined, { K: 5 }), { num: [5], den: [1, 2, 0], variable: 's' });
  assert.throws(() => parseTfExpression('e^(-2s)/(s+1)'), /delay/);
  assert.throws(() => parseTfExpression('1/(s+z)'), /mixes s and z/);
});

test('expressions are found named and bare, and never inside a matrix', () => {
  const f = findTfExpressions('margins of G(s) = 10/(s(s+1)(s+5)) please').found;
  assert.equal(f.length, 1);
  assert.equal(f[0].name, 'G');
  assert.equal(findTfExpressions('bode of (s+2)/(s^2+2s+5)').found[0].text, '(s+2)/(s^2+2s+5)');
  assert.equal(findTfExpressions('A = [0 1; -2 -3], B = [0; 1]').found.length, 0);
});

test('units: sample times in seconds (mathjs units)', () => {
  assert.equal(timeQuantity(50, 'ms'), 0.05);
  assert.ok(Math.abs(timeQuantity(100, 'µs')! - 1e-4) < 1e-18);
  const s = (t: string) => findSampleTimes(t).map((x) => [x.Ts, x.unitless]);
  assert.deepEqual(s('Ts = 50 ms'), [[0.05, false]]);
  assert.deepEqual(s('sampled at 10 Hz'), [[0.1, false]]);
  assert.deepEqual(s('a 20 kHz loop'), [[5e-5, false]]);
  assert.deepEqual(s('Ts=50'), [[50, true]]);
  assert.deepEqual(s('what if Ts was 10 ms'), [[0.01, false]]);
});

test('pole lists as people write them', () => {
  const r = (t: string) => readNumberList(t, 0)?.values;
  assert.deepEqual(r('-5 and -6'), [
    [-5, 0],
    [-6, 0],
  ]);
  assert.deepEqual(r('-2±1j'), [
    [-2, 1],
    [-2, -1],
  ]);
  assert.deepEqual(r('-1+1i, -1-1i'), [
    [-1, 1],
    [-1, -1],
  ]);
  assert.deepEqual(r('-3 ± j2'), [
    [-3, 2],
    [-3, -2],
  ]);
  assert.deepEqual(r('-2 +/- 3j'), [
    [-2, 3],
    [-2, -3],
  ]);
  assert.deepEqual(r('[-4, -2+2j, -2-2j]'), [
    [-4, 0],
    [-2, 2],
    [-2, -2],
  ]);
  // zpk poles to a denominator: (s + 1)(s + 2) = s² + 3s + 2; (s + 1 − j)(s + 1 + j) = s² + 2s + 2
  const den = (text: string) => {
    const r = readTurn(new Conversation(), text);
    return r.kind === 'call' ? r.args.den : r.kind;
  };
  assert.deepEqual(den('poles and zeros of zpk([], [-1 -2], 1)'), [1, 3, 2]);
  assert.deepEqual(den('poles and zeros of zpk([], [-1+1i, -1-1i], 1)'), [1, 2, 2]);
});

test('specifications to poles by the textbook formulas', () => {
  // Ogata, Modern Control Engineering, 5th ed., eq. 5-21: Mp = exp(−ζπ/√(1−ζ²)); 5 % gives ζ ≈ 0.690
  const sp = specPoles(findSpecs('overshoot under 5 % and settling time 2 s'));
  assert.ok(sp && 'poles' in sp);
  const [[re, im]] = sp.poles;
  const zeta = -re / Math.hypot(re, im);
  assert.ok(Math.abs(zeta - 0.6901) < 1e-4, `ζ = ${zeta}`);
  // 2 % settling time ts = 4/(ζωn): the real part is −4/ts = −2
  assert.ok(Math.abs(re + 2) < 1e-12);
  // ζ = 0.7, ωn = 2: −1.4 ± 1.428286j
  const p = specPoles(findSpecs('damping 0.7 and natural frequency 2 rad/s'));
  assert.ok(p && 'poles' in p);
  assert.ok(Math.abs(p.poles[0][0] + 1.4) < 1e-12 && Math.abs(p.poles[0][1] - 2 * Math.sqrt(1 - 0.49)) < 1e-12);
});

test('call syntax: name, arguments, left-hand side, receiver', () => {
  const [c] = findCalls('[K,S,e] = lqr(sys, Q, R);');
  assert.equal(c.fn, 'lqr');
  assert.deepEqual(c.outputs, ['K', 'S', 'e']);
  assert.deepEqual(
    c.args.map((a) => a.text),
    ['sys', 'Q', 'R'],
  );
  const [d] = findCalls("sysd = control.c2d(sys, 0.1, method='tustin')");
  assert.equal(d.receiver, undefined);
  assert.deepEqual(d.args[2], { name: 'method', text: "'tustin'" });
  assert.equal(findCalls('sys.sample(0.1)')[0].receiver, 'sys');
  // "tf2ss (2s+1)/(s^2+4s+3)" is an expression, not a call
  assert.equal(findCalls('tf2ss (2s+1)/(s^2+4s+3)').length, 0);
});

test('repairs keep what a user wrote: a ? after a matrix, a clause colon, minus in words', () => {
  assert.equal(repair('R=1?'), 'R=1 ');
  assert.match(repair('with Ts=0.1: A=[1 0.1; 0 1]'), /Ts=0\.1 ; A=/);
  assert.equal(repair('at minus 5'), 'at -5');
  assert.equal(repair('at minus six'), 'at -6');
});

test('typo tolerance: edit distance with transpositions', () => {
  assert.equal(editDistance('controlability', 'controllability'), 1);
  assert.equal(editDistance('stpe', 'step'), 1);
  assert.equal(editDistance('obsevability', 'observability'), 1);
});

test('the conversation survives its JSON form (chat metadata, --session files)', () => {
  const a = new Conversation();
  readTurn(a, 'G1 = tf([1],[1 1]) and G2 = tf([1],[1 2])');
  const b = Conversation.fromJSON(JSON.parse(JSON.stringify(a.toJSON())));
  const r = readTurn(b, 'margins of G2');
  assert.equal(r.kind, 'call');
  assert.deepEqual(r.kind === 'call' && r.args, { num: [1], den: [1, 2] });
  // garbage in a session file is a new conversation, not a crash
  assert.equal(Conversation.fromJSON({ turn: 'x', systems: 7 } as never).systems.length, 0);
});
