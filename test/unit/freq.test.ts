import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runTool } from '../../src/core/tools/call.js';
import { ControlError } from '../../src/core/errors.js';

const close = (a: number, b: number, tol = 1e-10) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} != ${b}`);
type Mg = { gm: number; gm_db: number; pm_deg: number; w_pc: number; w_gc: number };

test('freqresp of 1/(s+1) is 1/(1 + jw), with magnitude in dB and phase -atan(w)', () => {
  const w = [0, 0.1, 1, 10, 100];
  const r = runTool('freqresp', { A: [[-1]], B: [[1]], C: [[1]], D: [[0]], w }) as { H: number[][]; mag_db: number[]; phase_deg: number[] };
  w.forEach((wk, k) => {
    close(r.H[k][0], 1 / (1 + wk * wk), 1e-14);
    close(r.H[k][1], -wk / (1 + wk * wk), 1e-14);
    close(r.mag_db[k], -10 * Math.log10(1 + wk * wk), 1e-12);
    close(r.phase_deg[k], (-Math.atan(wk) * 180) / Math.PI, 1e-12);
  });
});

test('freqresp unwraps the phase of a third-order lag past -180 degrees', () => {
  // 1/(s+1)^3: phase -3 atan(w), reaching -270
  const w = [0.5, 1, 2, 5, 20, 100];
  const r = runTool('freqresp', {
    A: [
      [-3, -3, -1],
      [1, 0, 0],
      [0, 1, 0],
    ],
    B: [[1], [0], [0]],
    C: [[0, 0, 1]],
    w,
  }) as { phase_deg: number[] };
  w.forEach((wk, k) => close(r.phase_deg[k], (-3 * Math.atan(wk) * 180) / Math.PI, 1e-10));
});

test('discrete freqresp evaluates H(e^{jwTs}): 1/(z - 0.5)', () => {
  const Ts = 0.1;
  const w = [0, 5, Math.PI / Ts];
  const r = runTool('freqresp', { A: [[0.5]], B: [[1]], C: [[1]], D: [[0]], w, Ts }) as { H: number[][] };
  w.forEach((wk, k) => {
    const zr = Math.cos(wk * Ts) - 0.5;
    const zi = Math.sin(wk * Ts);
    const d = zr * zr + zi * zi;
    close(r.H[k][0], zr / d, 1e-14);
    close(r.H[k][1], -zi / d, 1e-14);
  });
});

test('margins of 2/(s(s+1)(s+2)): gm = 3 at w = sqrt 2, pm from the exact gain crossover', () => {
  const r = runTool('margins', { num: [2], den: [1, 3, 2, 0] }) as Mg;
  close(r.gm, 3, 1e-12);
  close(r.gm_db, 20 * Math.log10(3), 1e-12);
  close(r.w_pc, Math.SQRT2, 1e-12);
  // gain crossover: w^2 (w^2 + 1)(w^2 + 4) = 4
  const w = r.w_gc;
  close(w * w * (w * w + 1) * (w * w + 4), 4, 1e-12);
  close(r.pm_deg, 180 - 90 - ((Math.atan(w) + Math.atan(w / 2)) * 180) / Math.PI, 1e-10);
});

test('margins of 4/(s+1)^3: gm = 2 at sqrt 3, wgc = sqrt(4^(2/3) - 1)', () => {
  const r = runTool('margins', { num: [4], den: [1, 3, 3, 1] }) as Mg;
  close(r.gm, 2, 1e-12);
  close(r.w_pc, Math.sqrt(3), 1e-12);
  const wgc = Math.sqrt(Math.pow(4, 2 / 3) - 1);
  close(r.w_gc, wgc, 1e-12);
  close(r.pm_deg, 180 - (3 * Math.atan(wgc) * 180) / Math.PI, 1e-10);
});

test('margins of a low-gain first-order loop: no crossovers at all', () => {
  const r = runTool('margins', { num: [0.5], den: [1, 1] }) as Mg;
  assert.equal(r.gm, Infinity);
  assert.equal(r.pm_deg, Infinity);
  assert.ok(Number.isNaN(r.w_pc));
  assert.ok(Number.isNaN(r.w_gc));
});

test('margins of an unstable closed loop are negative: 20/(s(s+1)(s+2))', () => {
  const r = runTool('margins', { num: [20], den: [1, 3, 2, 0] }) as Mg;
  close(r.gm, 0.3, 1e-12);
  assert.ok(r.pm_deg < 0);
});

test('discrete margins: the Nyquist point counts (L = 0.25/z: gm = 4 at pi/Ts, no gain crossover)', () => {
  const Ts = 0.5;
  const r = runTool('margins', { num: [0.25], den: [1, 0], Ts }) as Mg;
  close(r.gm, 4, 1e-12);
  close(r.w_pc, Math.PI / Ts, 1e-12);
  assert.equal(r.pm_deg, Infinity);
});

test('discrete margins of L = k/(z(z - 1)) match a direct evaluation', () => {
  const Ts = 1;
  const k = 0.5;
  const r = runTool('margins', { num: [k], den: [1, -1, 0], Ts }) as Mg;
  // phase crossover: L(e^{jt}) real negative; check the claim directly
  const t = r.w_pc * Ts;
  const zr = Math.cos(t),
    zi = Math.sin(t);
  // z(z - 1) = (zr^2 - zi^2 - zr) + j(2 zr zi - zi)
  const dr = zr * zr - zi * zi - zr;
  const di = 2 * zr * zi - zi;
  close(di / Math.hypot(dr, di), 0, 1e-9);
  assert.ok(dr < 0);
  close(r.gm, Math.hypot(dr, di) / k, 1e-10);
});

test('margins from a state-space loop equal those of its transfer function', () => {
  const ss = runTool('margins', {
    A: [
      [0, 1, 0],
      [0, 0, 1],
      [0, -2, -3],
    ],
    B: [[0], [0], [1]],
    C: [[2, 0, 0]],
    D: [[0]],
  }) as Mg;
  close(ss.gm, 3, 1e-10);
  close(ss.w_pc, Math.SQRT2, 1e-10);
});

test('margins refuses both or neither model forms', () => {
  assert.throws(() => runTool('margins', {}), ControlError);
  assert.throws(() => runTool('margins', { num: [1], den: [1, 1], A: [[-1]], B: [[1]], C: [[1]] }), ControlError);
});

test('margins: a negative DC gain is not a phase crossover at w = 0 (continuous and discrete)', () => {
  const c = runTool('margins', { num: [-0.5], den: [1, 1] }) as Mg;
  assert.equal(c.gm, Infinity);
  const d = runTool('margins', { num: [-0.5], den: [1, -0.5], Ts: 1 }) as Mg;
  // L(z) = -0.5/(z - 0.5): real negative only at z = 1 (excluded); at z = -1 L = 1/3 > 0
  assert.equal(d.gm, Infinity);
  assert.ok(Number.isNaN(d.w_pc));
});
