import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareArgs, runTool } from '../../src/core/tools/call.js';
import { verify } from '../../src/core/verify/index.js';
import { ControlError } from '../../src/core/errors.js';

type C = [number, number];
type RL = {
  k: number[];
  poles: C[][];
  open_loop_poles: C[];
  open_loop_zeros: C[];
  asymptotes: { centroid: number; angles_deg: number[] };
  breakaway: { s: C; k: number }[];
};
type NY = {
  w: number[];
  H: C[];
  detours: { pole: C; w: number; radius: number; H: C[] }[];
  encirclements: number;
  open_loop_unstable_poles: number;
  closed_loop_unstable_poles: number;
  w_max: number;
};

const close = (a: number, b: number, tol = 1e-10) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} != ${b}`);

function solveAndVerify<T>(tool: string, raw: Record<string, unknown>): T {
  const { tool: t, args } = prepareArgs(tool, raw);
  const r = t.run(args);
  const v = verify(tool, args, r);
  assert.ok(v, `${tool} has no verifier`);
  assert.ok(v.ok, `${tool} verification failed: ${JSON.stringify(v.checks)}`);
  return r as T;
}

test('rlocus of 1/(s(s+2)): poles -1 ± j·sqrt(k - 1) for k > 1, real pair below, breakaway at -1 with k = 1', () => {
  const r = solveAndVerify<RL>('rlocus', { num: [1], den: [1, 2, 0] });
  assert.equal(r.k[0], 0);
  assert.ok(r.k.length > 50, `only ${r.k.length} gains`);
  for (let i = 1; i < r.k.length; i++) assert.ok(r.k[i] > r.k[i - 1], 'gains ascend');
  r.k.forEach((k, i) => {
    const p = r.poles[i];
    assert.equal(p.length, 2);
    if (k > 1) {
      const im = Math.sqrt(k - 1);
      for (const z of p) {
        close(z[0], -1, 1e-9);
        close(Math.abs(z[1]), im, 1e-9);
      }
      assert.ok(p[0][1] * p[1][1] < 0 || im < 1e-6, 'the two branches are conjugates');
    } else {
      // s^2 + 2s + k: -1 ± sqrt(1 - k)
      const re = Math.sqrt(1 - k);
      const got = p.map((z) => z[0]).sort((a, b) => a - b);
      close(got[0], -1 - re, 1e-7);
      close(got[1], -1 + re, 1e-7);
    }
  });
  assert.deepEqual(r.open_loop_poles, [
    [-2, 0],
    [0, 0],
  ]);
  assert.deepEqual(r.open_loop_zeros, []);
  close(r.asymptotes.centroid, -1, 1e-14);
  assert.deepEqual(r.asymptotes.angles_deg, [90, -90]);
  assert.equal(r.breakaway.length, 1);
  close(r.breakaway[0].s[0], -1, 1e-12);
  close(r.breakaway[0].k, 1, 1e-12);
  assert.ok(r.k.includes(r.breakaway[0].k), 'the breakaway gain is on the grid');
  // far out along the asymptotes: |Im p| reaches 10 times the pole radius
  assert.ok(Math.abs(r.poles[r.poles.length - 1][0][1]) > 15);
});

test('rlocus branches are continuous: neighbouring gains move each branch by a small step', () => {
  const r = solveAndVerify<RL>('rlocus', { num: [1, 3], den: [1, 3, 2, 0] });
  // view radius: 10 × pole/zero radius 3 = 30, step limit 1 % of that; allow for bisection limits
  let worst = 0;
  for (let i = 1; i < r.k.length; i++)
    for (let j = 0; j < 3; j++) worst = Math.max(worst, Math.hypot(r.poles[i][j][0] - r.poles[i - 1][j][0], r.poles[i][j][1] - r.poles[i - 1][j][1]));
  assert.ok(worst <= 0.31, `largest branch step ${worst}`);
  // (s+3)/(s(s+1)(s+2)): n - m = 2, centroid (-3 + 3)/2 = 0
  close(r.asymptotes.centroid, 0, 1e-14);
  assert.deepEqual(r.asymptotes.angles_deg, [90, -90]);
  // breakaway between 0 and -1: d/ds[s(s+1)(s+2)/(s+3)] = 0 -> 2s^3 + 12s^2 + 18s + 6 = 0
  const b = r.breakaway.find((x) => x.s[0] < 0 && x.s[0] > -1);
  assert.ok(b, `breakaway ${JSON.stringify(r.breakaway)}`);
  const s = b.s[0];
  close(2 * s ** 3 + 12 * s ** 2 + 18 * s + 6, 0, 1e-10);
});

test('rlocus with given gains and from A, B, C, D (closed loop eig(A - kBC))', () => {
  const r = solveAndVerify<RL>('rlocus', {
    A: [
      [0, 1],
      [-2, -3],
    ],
    B: [[0], [1]],
    C: [[1, 0]],
    k: [0, 2, 10],
  });
  assert.deepEqual(r.k, [0, 2, 10]);
  // s^2 + 3s + 2 + k: k = 2 -> s^2 + 3s + 4 = 0 -> -1.5 ± j·sqrt(7)/2
  const p = r.poles[1];
  for (const z of p) {
    close(z[0], -1.5, 1e-12);
    close(Math.abs(z[1]), Math.sqrt(7) / 2, 1e-12);
  }
  // no spurious far zero from ss2tf rounding: 1/(s^2 + 3s + 2) has n - m = 2
  assert.deepEqual(r.open_loop_zeros, []);
  close(r.asymptotes.centroid, -1.5, 1e-12);
});

test('rlocus refuses improper and MIMO loops with a message', () => {
  assert.throws(
    () => runTool('rlocus', { num: [1, 0, 0], den: [1, 1] }),
    (e: unknown) => e instanceof ControlError && /improper/.test(e.message),
  );
  assert.throws(
    () => runTool('rlocus', { A: [[-1]], B: [[1, 1]], C: [[1]] }),
    (e: unknown) => e instanceof ControlError && /SISO/.test(e.message),
  );
  assert.throws(() => runTool('rlocus', { num: [1], den: [1, 1], k: [-1] }), ControlError);
});

test('nyquist of 1/(s+1) is the circle of radius 1/2 centred at 1/2, no encirclement', () => {
  const r = solveAndVerify<NY>('nyquist', { num: [1], den: [1, 1] });
  assert.ok(r.w.length > 100);
  for (let i = 1; i < r.w.length; i++) assert.ok(r.w[i] > r.w[i - 1], 'w ascends');
  close(r.w[0], -r.w[r.w.length - 1], 1e-15);
  r.H.forEach(([x, y], i) => {
    close(Math.hypot(x - 0.5, y), 0.5, 1e-12);
    const w = r.w[i];
    close(x, 1 / (1 + w * w), 1e-12);
    close(y, -w / (1 + w * w), 1e-12);
  });
  // symmetric halves: H(-jw) = conj H(jw)
  const n = r.w.length;
  for (let i = 0; i < n; i++) {
    close(r.H[i][0], r.H[n - 1 - i][0], 1e-15);
    close(r.H[i][1], -r.H[n - 1 - i][1], 1e-15);
  }
  assert.equal(r.encirclements, 0);
  assert.equal(r.open_loop_unstable_poles, 0);
  assert.equal(r.closed_loop_unstable_poles, 0);
  assert.deepEqual(r.detours, []);
});

test('nyquist counts encirclements: K/(s+1)^3 encircles -1 twice for K = 10 > 8, not for K = 4', () => {
  const hi = solveAndVerify<NY>('nyquist', { num: [10], den: [1, 3, 3, 1] });
  assert.equal(hi.encirclements, 2);
  assert.equal(hi.closed_loop_unstable_poles, 2);
  const lo = solveAndVerify<NY>('nyquist', { num: [4], den: [1, 3, 3, 1] });
  assert.equal(lo.encirclements, 0);
  // the curve crosses the negative real axis at -K/8 (w = sqrt(3))
  const i = lo.w.reduce((b, w, j) => (Math.abs(w - Math.sqrt(3)) < Math.abs(lo.w[b] - Math.sqrt(3)) ? j : b), 0);
  close(lo.w[i], Math.sqrt(3), 2e-2);
  close(lo.H[i][0], -0.5, 2e-2);
  assert.ok(Math.abs(lo.H[i][1]) < 2e-2);
});

test('nyquist of an unstable open loop 10/(s - 1): one counter-clockwise encirclement, stable closed loop', () => {
  const r = solveAndVerify<NY>('nyquist', { num: [10], den: [1, -1] });
  assert.equal(r.open_loop_unstable_poles, 1);
  assert.equal(r.encirclements, -1);
  assert.equal(r.closed_loop_unstable_poles, 0);
});

test('nyquist detours around imaginary-axis poles: 1/(s(s^2 + 1))', () => {
  const r = solveAndVerify<NY>('nyquist', { num: [1], den: [1, 0, 1, 0] });
  assert.deepEqual(
    r.detours.map((d) => d.w),
    [-1, 0, 1],
  );
  // on the indentation around s = 0, H ≈ 1/s: a large half circle of radius 1/ε
  const d0 = r.detours[1];
  close(Math.hypot(...d0.H[Math.floor(d0.H.length / 2)]), 1 / d0.radius, 1e-3);
  // s^3 + s + 1 has two roots in the right half plane
  assert.equal(r.closed_loop_unstable_poles, 2);
  assert.equal(r.encirclements, 2);
  // no sample lies on a pole
  assert.ok(r.H.every(([x, y]) => Number.isFinite(x) && Number.isFinite(y)));
});

test('nyquist in discrete time runs over |w| <= pi/Ts, from A, B, C, D too', () => {
  const r = solveAndVerify<NY>('nyquist', { A: [[0.5]], B: [[1]], C: [[0.5]], Ts: 0.1 });
  close(r.w_max, Math.PI / 0.1, 1e-12);
  // 0.5/(z - 0.5) at z = 1: 1, at z = -1: -1/3
  const i0 = r.w.indexOf(0);
  close(r.H[i0][0], 1, 1e-12);
  close(r.H[r.H.length - 1][0], -1 / 3, 1e-9);
  assert.equal(r.encirclements, 0);
});
