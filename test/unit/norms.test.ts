import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runTool } from '../../src/core/tools/call.js';

const close = (a: number, b: number, tol = 1e-10) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} != ${b}`);

test('h2norm of 1/(s+a) is 1/sqrt(2a)', () => {
  for (const a of [1, 4, 0.1]) close((runTool('h2norm', { A: [[-a]], B: [[1]], C: [[1]], D: [[0]] }) as { h2: number }).h2, 1 / Math.sqrt(2 * a), 1e-12);
});

test('h2norm is infinite with feedthrough or an unstable / marginal pole', () => {
  assert.equal((runTool('h2norm', { A: [[-1]], B: [[1]], C: [[1]], D: [[1]] }) as { h2: number }).h2, Infinity);
  assert.equal(
    (
      runTool('h2norm', {
        A: [
          [0, 1],
          [0, 0],
        ],
        B: [[0], [1]],
        C: [[1, 0]],
      }) as { h2: number }
    ).h2,
    Infinity,
  );
  assert.equal((runTool('h2norm', { A: [[1.5]], B: [[1]], C: [[1]], Ts: 0.1 }) as { h2: number }).h2, Infinity);
});

test('discrete h2norm of 1/(z - a) + d: sqrt(1/(1 - a^2) + d^2)', () => {
  const a = 0.6;
  const d = 0.5;
  const r = runTool('h2norm', { A: [[a]], B: [[1]], C: [[1]], D: [[d]], Ts: 0.2 }) as { h2: number };
  close(r.h2, Math.sqrt(1 / (1 - a * a) + d * d), 1e-12);
});

test('hinfnorm of a resonant second-order system: 1/(2 zeta sqrt(1 - zeta^2)) at wn sqrt(1 - 2 zeta^2)', () => {
  for (const zeta of [0.05, 0.2, 0.001]) {
    const wn = 2;
    const r = runTool('hinfnorm', {
      A: [
        [0, 1],
        [-wn * wn, -2 * zeta * wn],
      ],
      B: [[0], [wn * wn]],
      C: [[1, 0]],
      D: [[0]],
    }) as { hinf: number; fpeak: number };
    close(r.hinf, 1 / (2 * zeta * Math.sqrt(1 - zeta * zeta)), 1e-9);
    close(r.fpeak, wn * Math.sqrt(1 - 2 * zeta * zeta), 1e-6);
  }
});

test('hinfnorm: peak at DC for 1/(s+1), at infinity for (2s+1)/(s+1), infinite for a pole on the axis', () => {
  const a = runTool('hinfnorm', { A: [[-1]], B: [[1]], C: [[1]], D: [[0]] }) as { hinf: number; fpeak: number };
  close(a.hinf, 1, 1e-12);
  assert.equal(a.fpeak, 0);
  const b = runTool('hinfnorm', { A: [[-1]], B: [[1]], C: [[-1]], D: [[2]] }) as { hinf: number; fpeak: number };
  close(b.hinf, 2, 1e-12);
  assert.equal(b.fpeak, Infinity);
  const c = runTool('hinfnorm', {
    A: [
      [0, 1],
      [0, 0],
    ],
    B: [[0], [1]],
    C: [[1, 0]],
  }) as { hinf: number };
  assert.equal(c.hinf, Infinity);
});

test('hinfnorm of a MIMO static-plus-dynamics system is the largest singular value at the peak', () => {
  // H(s) = diag(1/(s+1), 3/(s+2)): peak 1.5 at w = 0
  const r = runTool('hinfnorm', {
    A: [
      [-1, 0],
      [0, -2],
    ],
    B: [
      [1, 0],
      [0, 3],
    ],
    C: [
      [1, 0],
      [0, 1],
    ],
    D: [
      [0, 0],
      [0, 0],
    ],
  }) as { hinf: number; fpeak: number };
  close(r.hinf, 1.5, 1e-12);
  assert.equal(r.fpeak, 0);
});

test('discrete hinfnorm of 1/(z - a): 1/(1 - a) at w = 0 for a > 0, 1/(1 + a) at pi/Ts for a < 0', () => {
  const Ts = 0.1;
  const p = runTool('hinfnorm', { A: [[0.7]], B: [[1]], C: [[1]], D: [[0]], Ts }) as { hinf: number; fpeak: number };
  close(p.hinf, 1 / 0.3, 1e-10);
  close(p.fpeak, 0, 1e-9);
  const q = runTool('hinfnorm', { A: [[-0.7]], B: [[1]], C: [[1]], D: [[0]], Ts }) as { hinf: number; fpeak: number };
  close(q.hinf, 1 / 0.3, 1e-10);
  close(q.fpeak, Math.PI / Ts, 1e-9);
});

test('discrete hinfnorm of a lightly damped resonance equals the largest gain on a fine grid', () => {
  // z-domain second order: poles 0.95 e^{±j 0.4}
  const r0 = 0.95;
  const th = 0.4;
  const A = [
    [2 * r0 * Math.cos(th), -r0 * r0],
    [1, 0],
  ];
  const Ts = 0.05;
  const res = runTool('hinfnorm', { A, B: [[1], [0]], C: [[0, 1]], D: [[0]], Ts }) as { hinf: number; fpeak: number };
  let best = 0;
  for (let t = 0; t <= Math.PI; t += 1e-5) {
    // H = 1/(z^2 - a1 z - a2)
    const zr = Math.cos(2 * t) - A[0][0] * Math.cos(t) - A[0][1];
    const zi = Math.sin(2 * t) - A[0][0] * Math.sin(t);
    best = Math.max(best, 1 / Math.hypot(zr, zi));
  }
  assert.ok(res.hinf >= best * (1 - 1e-12));
  close(res.hinf, best, 1e-6);
  assert.ok(Math.abs(res.fpeak * Ts - th) < 0.05);
});
