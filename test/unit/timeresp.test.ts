import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runTool } from '../../src/core/tools/call.js';
import { ControlError } from '../../src/core/errors.js';

const close = (a: number, b: number, tol = 1e-10) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} != ${b}`);
const grid = (n: number, h: number) => Array.from({ length: n }, (_, k) => k * h);

test('step of the first-order lag 1/(s+1) is 1 - e^{-t}', () => {
  const t = grid(201, 0.05);
  const { y } = runTool('step', { A: [[-1]], B: [[1]], C: [[1]], D: [[0]], t }) as { y: number[] };
  assert.equal(y.length, t.length);
  t.forEach((tk, k) => close(y[k], 1 - Math.exp(-tk), 1e-13));
});

test('step of the double integrator is t^2/2 and impulse is t', () => {
  const t = grid(51, 0.1);
  const sys = {
    A: [
      [0, 1],
      [0, 0],
    ],
    B: [[0], [1]],
    C: [[1, 0]],
    D: [[0]],
  };
  const s = runTool('step', { ...sys, t }) as { y: number[] };
  const i = runTool('impulse', { ...sys, t }) as { y: number[] };
  t.forEach((tk, k) => {
    close(s.y[k], (tk * tk) / 2, 1e-12);
    close(i.y[k], tk, 1e-12);
  });
});

test('continuous impulse ignores D: 2/(s+3) + 5 gives 2 e^{-3t}', () => {
  const t = grid(41, 0.025);
  const { y } = runTool('impulse', { A: [[-3]], B: [[1]], C: [[2]], D: [[5]], t }) as { y: number[] };
  t.forEach((tk, k) => close(y[k], 2 * Math.exp(-3 * tk), 1e-13));
});

test('discrete impulse is the unit pulse response: y0 = D, yk = C A^(k-1) B', () => {
  const Ts = 0.1;
  const t = grid(8, Ts);
  const { y } = runTool('impulse', { A: [[0.5]], B: [[2]], C: [[3]], D: [[0.25]], t, Ts }) as { y: number[] };
  close(y[0], 0.25);
  for (let k = 1; k < t.length; k++) close(y[k], 6 * Math.pow(0.5, k - 1), 1e-14);
  const s = runTool('step', { A: [[0.5]], B: [[2]], C: [[3]], D: [[0.25]], t, Ts }) as { y: number[] };
  // step: y_k = D + 6 (1 - 0.5^k)/(1 - 0.5)
  for (let k = 0; k < t.length; k++) close(s.y[k], 0.25 + 12 * (1 - Math.pow(0.5, k)), 1e-14);
});

test('MIMO step returns one p x m matrix per sample', () => {
  const { y } = runTool('step', {
    A: [
      [-1, 0],
      [0, -2],
    ],
    B: [
      [1, 0],
      [0, 1],
    ],
    C: [
      [1, 0],
      [0, 1],
      [1, 1],
    ],
    t: [0, 1],
  }) as { y: number[][][] };
  assert.equal(y.length, 2);
  assert.equal(y[1].length, 3);
  assert.equal(y[1][0].length, 2);
  close(y[1][0][0], 1 - Math.exp(-1), 1e-13);
  close(y[1][2][1], (1 - Math.exp(-2)) / 2, 1e-13);
});

test('stepinfo of 2/(s+1): rise ln 9, settling ln 50, no overshoot', () => {
  const r = runTool('stepinfo', { A: [[-1]], B: [[1]], C: [[2]], D: [[0]] }) as Record<string, number>;
  close(r.rise_time, Math.log(9), 1e-9);
  close(r.settling_time, Math.log(50), 1e-9);
  assert.equal(r.overshoot_pct, 0);
  assert.equal(r.peak, 2);
  assert.equal(r.peak_time, Infinity);
  close(r.final_value, 2, 1e-14);
});

test('stepinfo of an underdamped second-order system matches the closed forms', () => {
  const zeta = 0.3;
  const wn = 2;
  const r = runTool('stepinfo', {
    A: [
      [0, 1],
      [-wn * wn, -2 * zeta * wn],
    ],
    B: [[0], [wn * wn]],
    C: [[1, 0]],
    D: [[0]],
  }) as Record<string, number>;
  const wd = wn * Math.sqrt(1 - zeta * zeta);
  const os = Math.exp((-Math.PI * zeta) / Math.sqrt(1 - zeta * zeta));
  close(r.overshoot_pct, 100 * os, 1e-9);
  close(r.peak_time, Math.PI / wd, 1e-9);
  close(r.peak, 1 + os, 1e-10);
  close(r.final_value, 1, 1e-14);
  // the settling time is a point where |y - 1| = 0.02 exactly
  const y = (t: number) => 1 - Math.exp(-zeta * wn * t) * (Math.cos(wd * t) + ((zeta * wn) / wd) * Math.sin(wd * t));
  close(Math.abs(y(r.settling_time) - 1), 0.02, 1e-9);
  // and the envelope never exceeds the band afterwards (within numerical slack)
  for (let t = r.settling_time + 1e-6; t < r.settling_time + 20; t += 0.01) assert.ok(Math.abs(y(t) - 1) <= 0.02 + 1e-9);
});

test('stepinfo with a negative gain measures against |yf - y0|', () => {
  const zeta = 0.5;
  const r = runTool('stepinfo', {
    A: [
      [0, 1],
      [-1, -2 * zeta],
    ],
    B: [[0], [1]],
    C: [[-2, 0]],
    D: [[0]],
  }) as Record<string, number>;
  close(r.final_value, -2, 1e-14);
  close(r.overshoot_pct, 100 * Math.exp((-Math.PI * zeta) / Math.sqrt(1 - zeta * zeta)), 1e-9);
  assert.ok(r.peak > 2);
});

test('stepinfo refuses unstable and marginally stable systems', () => {
  assert.throws(
    () =>
      runTool('stepinfo', {
        A: [
          [0, 1],
          [0, 0],
        ],
        B: [[0], [1]],
        C: [[1, 0]],
      }),
    (e: unknown) => e instanceof ControlError && /stable/.test(e.message),
  );
  assert.throws(() => runTool('stepinfo', { A: [[1]], B: [[1]], C: [[1]] }), ControlError);
});

test('step rejects a time vector that goes backwards, and off-grid discrete times', () => {
  assert.throws(() => runTool('step', { A: [[-1]], B: [[1]], C: [[1]], t: [0, 1, 0.5] }), ControlError);
  assert.throws(() => runTool('step', { A: [[0.5]], B: [[1]], C: [[1]], t: [0, 0.15], Ts: 0.1 }), ControlError);
});

test('a MIMO step is verified channel by channel (it was "not independently verified"); a wrong sample is rejected', async () => {
  const { callTool } = await import('../../src/core/tools/runner.js');
  const { verify } = await import('../../src/core/verify/index.js');
  // A = [0 1; −2 −3], B = [0; 1], C = I: by partial fractions the states' step responses are
  // x1 = 1/2 − e^(−t) + e^(−2t)/2 and x2 = e^(−t) − e^(−2t)
  const args = {
    A: [
      [0, 1],
      [-2, -3],
    ],
    B: [[0], [1]],
    C: [
      [1, 0],
      [0, 1],
    ],
    t: [0, 0.5, 1, 2, 4],
  };
  const { result, verification } = await callTool('step', args);
  assert.equal(verification?.ok, true);
  const y = result.y as number[][][];
  args.t.forEach((t, k) => {
    assert.ok(Math.abs(y[k][0][0] - (0.5 - Math.exp(-t) + Math.exp(-2 * t) / 2)) < 1e-12, `x1(${t})`);
    assert.ok(Math.abs(y[k][1][0] - (Math.exp(-t) - Math.exp(-2 * t))) < 1e-12, `x2(${t})`);
  });
  const bad = { ...result, y: y.map((yk, k) => (k === 2 ? [[yk[0][0]], [yk[1][0] + 1e-3]] : yk)) };
  const v = verify('step', { ...args, D: [[0], [0]] }, bad);
  assert.equal(v?.ok, false);
});
