/**
 * c2d's methods (impulse, matched, tustin with prewarp, euler, backward_diff), d2c, d2d,
 * evalfr and the matrix logarithm. References:
 * - MATLAB's printed results (MATLAB Answers 2175248 and 771363): c2d(tf(11,[1 1 0]),0.1,'matched')
 *   = (0.05237 z + 0.05237)/(z^2 - 1.905 z + 0.9048) (zpk gain 0.052339);
 *   c2d(tf(1,[1 0]),0.1,'impulse') = 0.1 z/(z - 1);
 * - closed forms (Franklin, Powell & Workman, Digital Control of Dynamic Systems, ch. 6): Tustin
 *   with prewarping s = (w/tan(wT/2))(z - 1)/(z + 1), forward and backward rectangular rules,
 *   the (modified) matched pole-zero equivalent of a/(s + a): (1 - e^{-aT})/(z - e^{-aT});
 * - test/fixtures/discretize/ref.py (SciPy cont2discrete with each method, scipy.linalg.logm,
 *   numpy solves for evalfr; its stored output ref.json).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { callTool } from '../../src/core/tools/runner.js';
import { logm } from '../../src/core/linalg/logm.js';
import { fromRows, toRows } from '../../src/core/linalg/dense.js';

const ref = JSON.parse(readFileSync(new URL('../fixtures/discretize/ref.json', import.meta.url), 'utf8'));

const maxDiff = (a: number[][], b: number[][]) => Math.max(0, ...a.flatMap((r, i) => r.map((v, j) => Math.abs(v - b[i][j]))));
const scaleOf = (b: number[][]) => Math.max(1, ...b.flat().map(Math.abs));
const closeM = (a: number[][], b: number[][], tol: number, what: string) =>
  assert.ok(maxDiff(a, b) <= tol * scaleOf(b), `${what}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
const closeV = (a: number[], b: number[], tol: number, what: string) => {
  assert.equal(a.length, b.length, `${what}: length ${a.length} vs ${b.length}`);
  closeM([a], [b], tol, what);
};
/** a discrete transfer function normalised to a monic denominator */
const monic = (num: number[], den: number[]) => ({ num: num.map((v) => v / den[0]), den: den.map((v) => v / den[0]) });

async function verified(tool: string, args: Record<string, unknown>) {
  const { result, verification } = await callTool(tool, args);
  assert.equal(verification?.ok, true, `${tool} ${JSON.stringify(args)}: ${JSON.stringify(verification?.checks)}`);
  return result;
}

test('c2d matched: MATLAB c2d(tf(11,[1 1 0]), 0.1, "matched") = (0.05237 z + 0.05237)/(z^2 - 1.905 z + 0.9048)', async () => {
  const r = await verified('c2d', { num: [11], den: [1, 1, 0], Ts: 0.1, method: 'matched' });
  assert.equal(r.method, 'matched');
  closeV(r.num, [0.05237, 0.05237], 5e-5, 'num');
  closeV(r.den, [1, -1.905, 0.9048], 5e-4, 'den');
  assert.ok(Math.abs(r.num[0] - 0.052339) < 5e-7, `zpk gain ${r.num[0]}`);
});

test('c2d matched of a/(s + a): (1 - e^{-aT})/(z - e^{-aT}) (relative degree 1: no zero at z = -1), DC gain 1', async () => {
  for (const [a, T] of [
    [5, 0.1],
    [0.3, 2],
  ]) {
    const r = await verified('c2d', { num: [a], den: [1, a], Ts: T, method: 'matched' });
    const e = Math.exp(-a * T);
    closeV(r.num, [1 - e], 1e-14, 'num');
    closeV(r.den, [1, -e], 1e-14, 'den');
  }
  // state-space input, SISO: the same transfer function, and a realisation of it
  const r = await verified('c2d', { A: [[-5]], B: [[1]], C: [[5]], Ts: 0.1, method: 'matched' });
  closeV(r.num, [1 - Math.exp(-0.5)], 1e-14, 'num from (A, B, C)');
});

test('c2d impulse: MATLAB c2d(tf(1,[1 0]), 0.1, "impulse") = 0.1 z/(z - 1) (Ts scaling, as SciPy)', async () => {
  const r = await verified('c2d', { num: [1], den: [1, 0], Ts: 0.1, method: 'impulse' });
  closeV(r.num, [0.1, 0], 1e-15, 'num');
  closeV(r.den, [1, -1], 1e-15, 'den');
  await assert.rejects(callTool('c2d', { num: [1, 1], den: [1, 2], Ts: 0.1, method: 'impulse' }), /needs D = 0/);
});

test('c2d tustin with prewarp: 1/(s + 1) -> (z + 1)/((c + 1) z + 1 - c), c = w/tan(wT/2)', async () => {
  const w = 10,
    T = 0.1;
  const c = w / Math.tan((w * T) / 2);
  const r = await verified('c2d', { num: [1], den: [1, 1], Ts: T, method: 'tustin', prewarp: w });
  assert.equal(r.prewarp, w);
  const want = monic([1, 1], [c + 1, 1 - c]);
  closeV(r.num, want.num, 1e-14, 'num');
  closeV(r.den, want.den, 1e-14, 'den');
  // prewarp needs tustin: with the default method (zoh) it is refused, saying so
  await assert.rejects(callTool('c2d', { num: [1], den: [1, 1], Ts: T, prewarp: w }), /applies to the tustin method only, not zoh \(zoh is the default\)/);
});

test('c2d prewarp at or above the Nyquist frequency, or with another method, is refused naming prewarp', async () => {
  await assert.rejects(
    callTool('c2d', { num: [1], den: [1, 1], Ts: 0.1, method: 'tustin', prewarp: Math.PI / 0.1 }),
    /prewarp = 31.4159 rad\/s is at or above the Nyquist frequency/,
  );
  await assert.rejects(callTool('c2d', { num: [1], den: [1, 1], Ts: 0.1, method: 'tustin', prewarp: 50 }), /Nyquist/);
  await assert.rejects(callTool('c2d', { num: [1], den: [1, 1], Ts: 0.1, method: 'zoh', prewarp: 5 }), /prewarp .* applies to the tustin method only/);
});

test('c2d euler and backward_diff of 1/(s + a): Ts/(z - 1 + aTs) and Ts z/((1 + aTs) z - 1); python-control names accepted', async () => {
  const a = 2,
    T = 0.05;
  const f = await verified('c2d', { num: [1], den: [1, a], Ts: T, method: 'forward_diff' });
  assert.equal(f.method, 'euler');
  closeV(f.num, [0, T], 1e-15, 'euler num');
  closeV(f.den, [1, -1 + a * T], 1e-15, 'euler den');
  const b = await verified('c2d', { num: [1], den: [1, a], Ts: T, method: 'backward_diff' });
  const want = monic([T, 0], [1 + a * T, -1]);
  closeV(b.num, want.num, 1e-15, 'backward num');
  closeV(b.den, want.den, 1e-15, 'backward den');
});

test('c2d: every method against SciPy cont2discrete (ref.py), verified', async () => {
  for (const c of ref.c2d) {
    const method = c.args.method === 'bilinear' ? 'tustin' : c.args.method;
    const r = await verified('c2d', { ...c.args, method });
    for (const k of ['Ad', 'Bd', 'Cd', 'Dd']) closeM(r[k], c[k], 1e-10, `${method}${c.args.prewarp ? ' prewarp' : ''} ${k}`);
  }
});

test('c2d: zoh, foh and tustin results unchanged by the new methods (MATLAB c2d of 1/(s+1), Ts = 0.1, zoh: 0.09516/(z - 0.9048))', async () => {
  const r = await verified('c2d', { A: [[-1]], B: [[1]], C: [[1]], Ts: 0.1 });
  assert.equal(r.method, 'zoh');
  closeM(r.Ad, [[Math.exp(-0.1)]], 1e-15, 'Ad');
  closeM(r.Bd, [[1 - Math.exp(-0.1)]], 1e-15, 'Bd');
  assert.equal(r.num, undefined, 'a state-space call gives matrices only');
});

test('c2d and d2c of static gains: unchanged by every method', async () => {
  for (const method of ['zoh', 'foh', 'tustin', 'matched', 'euler', 'backward_diff']) {
    const r = await verified('c2d', { num: [3], den: [2], Ts: 0.1, method });
    closeV(monic(r.num, r.den).num, [1.5], 1e-15, `${method} static gain`);
  }
  const s = await verified('c2d', { A: [], B: [], C: [], D: [[2]], Ts: 0.1, method: 'euler' });
  assert.deepEqual(s.Dd, [[2]]);
  const d = await verified('d2c', { num: [3], den: [1], Ts: 0.1 });
  closeV(d.num, [3], 0, 'd2c static gain');
});

test('logm against scipy.linalg.logm (ref.py), and refused on the negative real axis', () => {
  for (const c of ref.logm) closeM(toRows(logm(fromRows(c.A))), c.logm, 1e-12, `logm ${c.A.length}x${c.A.length}`);
  assert.throws(
    () =>
      logm(
        fromRows([
          [-1, 0],
          [0, 2],
        ]),
      ),
    /real eigenvalue -1\.00000 on the negative real axis/,
  );
  assert.throws(
    () =>
      logm(
        fromRows([
          [0, 1],
          [0, 0],
        ]),
      ),
    /no real principal logarithm/,
  );
  assert.deepEqual(
    toRows(
      logm(
        fromRows([
          [1, 0],
          [0, 1],
        ]),
      ),
    ),
    [
      [0, 0],
      [0, 0],
    ],
  );
});

test('d2c zoh: the logm inverse gives back the continuous model (ref.py), verified by c2d through an exponential', async () => {
  for (const c of ref.d2c) {
    const r = await verified('d2c', c.args);
    assert.equal(r.method, 'zoh');
    closeM(r.A, c.A, 1e-9, 'A');
    closeM(r.B, c.B, 1e-9, 'B');
  }
});

test('d2c refuses a pole at z = 0 or on the negative real axis clearly (zoh), and a pole at z = -1 (tustin)', async () => {
  await assert.rejects(callTool('d2c', { num: [1], den: [1, 0], Ts: 0.1 }), /pole at z = 0 .*Use method 'tustin'/);
  await assert.rejects(callTool('d2c', { A: [[-0.5]], B: [[1]], C: [[1]], Ts: 0.1 }), /pole at z = -0\.500000 on the negative real axis/);
  await assert.rejects(callTool('d2c', { A: [[-1]], B: [[1]], C: [[1]], Ts: 0.1, method: 'tustin' }), /pole at z = −1/);
  await assert.rejects(callTool('d2c', { num: [1], den: [1, 0.5], Ts: 0.1, method: 'matched' }), /pole at z = -0\.500000 on the negative real axis/);
  // tustin converts the negative real pole: the bilinear map has no branch cut
  await verified('d2c', { A: [[-0.5]], B: [[1]], C: [[1]], Ts: 0.1, method: 'tustin' });
});

test('d2c inverts c2d: tustin (with prewarp) exactly, matched back to 11/(s^2 + s)', async () => {
  const A = [
    [0, 1],
    [-2, -3],
  ];
  const sys = { A, B: [[0], [1]], C: [[1, 0.5]], D: [[0.1]] };
  for (const prewarp of [undefined, 4]) {
    const d = await verified('c2d', { ...sys, Ts: 0.1, method: 'tustin', ...(prewarp ? { prewarp } : {}) });
    const c = await verified('d2c', { A: d.Ad, B: d.Bd, C: d.Cd, D: d.Dd, Ts: 0.1, method: 'tustin', ...(prewarp ? { prewarp } : {}) });
    for (const k of ['A', 'B', 'C', 'D'] as const) closeM(c[k], sys[k], 1e-12, `tustin${prewarp ? ' prewarp' : ''} ${k}`);
  }
  const m = await verified('d2c', {
    num: [0.05233942008022227, 0.05233942008022227],
    den: [1, -1.9048374180359595, 0.9048374180359595],
    Ts: 0.1,
    method: 'matched',
  });
  const mm = monic(m.num, m.den);
  closeV(mm.num, [11], 1e-9, 'num');
  closeV(mm.den, [1, 1, 0], 1e-9, 'den');
});

test('d2d: an integer ratio is the matrix power (any poles), another through the logarithm; the result is at newTs', async () => {
  const sys = {
    A: [
      [0.9, 0.1],
      [0, 0.8],
    ],
    B: [[0], [0.1]],
    C: [[1, 0]],
  };
  const r = await verified('d2d', { ...sys, Ts: 0.1, newTs: 0.3 });
  assert.equal(r.Ts, 0.3);
  closeM(
    r.Ad,
    [
      [0.729, 0.217],
      [0, 0.512],
    ],
    1e-15,
    'Ad^3',
  );
  // the same model resampled through d2c then c2d (zoh both ways) equals d2d's
  const c = await verified('d2c', { ...sys, Ts: 0.1 });
  const back = await verified('c2d', { ...c, Ts: 0.25 });
  const r2 = await verified('d2d', { ...sys, Ts: 0.1, newTs: 0.25 });
  closeM(r2.Ad, back.Ad, 1e-12, 'Ad');
  closeM(r2.Bd, back.Bd, 1e-12, 'Bd');
  // a negative real pole: doubling the sample time is fine, a non-integer ratio is refused
  await verified('d2d', { A: [[-0.5]], B: [[1]], C: [[1]], Ts: 0.1, newTs: 0.2 });
  await assert.rejects(callTool('d2d', { A: [[-0.5]], B: [[1]], C: [[1]], Ts: 0.1, newTs: 0.15 }), /negative real axis.*integer factor/);
});

test('evalfr against numpy (ref.py): state space, transfer functions, a discrete model', async () => {
  for (const c of ref.evalfr) {
    const r = await verified('evalfr', c.args);
    closeM(r.value.flat(), c.value.flat(), 1e-12, `evalfr ${JSON.stringify(c.args).slice(0, 60)}`);
    if (c.value.length === 1 && c.value[0].length === 1) {
      const [a, b] = c.value[0][0];
      assert.ok(Math.abs(r.magnitude - Math.hypot(a, b)) <= 1e-12 * Math.hypot(a, b));
      assert.ok(Math.abs(r.phaseDeg - (Math.atan2(b, a) * 180) / Math.PI) <= 1e-10);
    } else assert.equal(r.magnitude, undefined, 'MIMO: no magnitude');
  }
});

test('evalfr: a real point, a point on a pole refused, a static gain', async () => {
  const r = await verified('evalfr', { num: [1], den: [1, 1], s: 1 });
  assert.deepEqual(r.value, [[[0.5, 0]]]);
  assert.equal(r.phaseDeg, 0);
  await assert.rejects(callTool('evalfr', { num: [1], den: [1, 1], s: -1 }), /s = -1 is a root of den \(a pole/);
  await assert.rejects(
    callTool('evalfr', {
      A: [
        [0, 1],
        [-2, -3],
      ],
      B: [[0], [1]],
      C: [[1, 0]],
      s: [-1, 0],
    }),
    /is an eigenvalue of A/,
  );
  await assert.rejects(callTool('evalfr', { num: [1], den: [1, -0.5], Ts: 0.1, s: 0.5 }), /z = 0\.5 is a root of den/);
  const g = await verified('evalfr', { A: [], B: [], C: [], D: [[2, 3]], s: [0, 1] });
  assert.deepEqual(g.value, [
    [
      [2, 0],
      [3, 0],
    ],
  ]);
});

test('matched c2d of a multiple pole, 1/(s+1)^8: the result is (z − e^{−Ts})^8 and is verified (poles compared as coefficients, not as scattered roots)', async () => {
  const den = [1, 8, 28, 56, 70, 56, 28, 8, 1];
  const Ts = 0.1;
  const { result, verification } = await callTool('c2d', { num: [1], den, Ts, method: 'matched' });
  assert.equal(verification?.ok, true, JSON.stringify(verification?.checks));
  // (z − a)^8 = Σ C(8, k) (−a)^k z^(8−k), a = e^(−Ts): the binomial theorem
  const a = Math.exp(-Ts);
  const binom = (n: number, k: number): number => (k === 0 ? 1 : (binom(n, k - 1) * (n - k + 1)) / k);
  const d = result.den as number[];
  for (let k = 0; k <= 8; k++) assert.ok(Math.abs(d[k] / d[0] - binom(8, k) * (-a) ** k) < 1e-12 * binom(8, k), `den[${k}] = ${d[k] / d[0]}`);
});
