/**
 * Issue 14 item 2: a pole placement whose poles came from time-domain specifications is checked
 * against them (agent/deterministic.ts specPlan): the closed loop (A − BK, B·N, C) with the
 * reference gain N = 1/(C(−A + BK)⁻¹B) is measured by stepinfo, and each item is listed with
 * target, achieved and pass/fail. Expected values are hand closed forms of second-order and
 * third-order step responses (Ogata, Modern Control Engineering, 5th ed., §5-3: Mp =
 * e^(−πζ/√(1−ζ²)), tp = π/ωd; partial fractions for the third pole), never the code's output.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Conversation, readTurn, executeReading, type Reading } from '../../src/core/reader/index.js';
import { executePlan } from '../../src/core/agent/deterministic.js';
import { renderToolResult } from '../../src/core/render/answer.js';
import { verify } from '../../src/core/verify/index.js';

type Call = Extract<Reading, { kind: 'call' }>;
const call = (r: Reading): Call => {
  assert.equal(r.kind, 'call', JSON.stringify(r));
  return r as Call;
};
const close = (a: number, b: number, tol: number, what: string) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

// hand: ζ from 5 % overshoot, ωn from the 2 % settling formula ts = 4/(ζωn)
const L = Math.log(0.05);
const zeta = -L / Math.sqrt(Math.PI ** 2 + L * L);
const wn = 4 / (zeta * 2);

/** the last time a unit step of ωn²/(s² + 2ζωn s + ωn²) is 2 % off its final value, by the closed form on a fine grid */
function secondOrderSettling(z: number, w: number): number {
  const s = z * w,
    wd = w * Math.sqrt(1 - z * z);
  let last = 0;
  for (let t = 0; t < 20; t += 1e-5) if (Math.abs(Math.exp(-s * t) * (Math.cos(wd * t) + (s / wd) * Math.sin(wd * t))) > 0.02) last = t;
  return last;
}

test('double integrator placed for 5 % overshoot and 2 s settling: overshoot met exactly, the settling formula 4/(ζωn) misses by the exact response', async () => {
  const r = call(readTurn(new Conversation(), 'place the poles of A=[0 1; 0 0], B=[0;1] for 5% overshoot and 2 s settling time'));
  assert.deepEqual(r.spec, { targets: { overshoot_pct: 5, settling_time: 2 } });
  const calls = await executeReading(r);
  assert.deepEqual(
    calls.map((c) => [c.tool, c.error]),
    [
      ['place', undefined],
      ['dcgain', undefined],
      ['stepinfo', undefined],
    ],
  );
  const si = calls[2];
  // no C given: the first state (position); N = 1/(C(−A+BK)⁻¹B) = ωn² for K = [ωn², 2ζωn]
  assert.deepEqual(si.args.C, [[1, 0]]);
  close((si.args.B as number[][])[1][0], wn * wn, 1e-9 * wn * wn, 'N = ωn²');
  const res = si.result as Record<string, any>;
  close(res.final_value, 1, 1e-9, 'unit DC gain');
  // a pure second-order system without zeros: Mp = e^(−πζ/√(1−ζ²)) = 5 % exactly
  close(res.overshoot_pct, 100 * Math.exp((-Math.PI * zeta) / Math.sqrt(1 - zeta * zeta)), 1e-7, 'overshoot');
  close(res.overshoot_pct, 5, 1e-7, 'overshoot = the 5 % asked');
  const ts = secondOrderSettling(zeta, wn);
  close(res.settling_time, ts, 2e-5, 'exact 2 % settling time');
  assert.ok(ts > 2.05, `the envelope formula underestimates: ${ts}`);
  assert.deepEqual(
    res.spec.map((s: any) => [s.key, s.pass]),
    [
      ['overshoot_pct', true],
      ['settling_time', false],
    ],
  );
  const md = renderToolResult('stepinfo', si.args as Record<string, any>, res, verify('stepinfo', si.args as Record<string, any>, res), { math: false });
  assert.match(md, /\| overshoot \| ≤ 5 % \| 5 % \| ✔ pass \|/);
  assert.match(md, /\| settling time \(2 %\) \| ≤ 2 s \| 2\.0686\d* s \| ✘ fail \|/);
  assert.match(md, /misses its specification: settling time/);
  assert.match(md, /no C was given: the first state is measured/);
  assert.match(md, /N = 1\/\(C\(−A \+ BK\)⁻¹B\) = 8\.399/);
  assert.match(md, /each of 2 verdicts follows from the measured values/);
});

test('damping 0.7 and natural frequency 2 rad/s on a double integrator: both met exactly, read from the overshoot and peak time', async () => {
  const r = call(readTurn(new Conversation(), 'place the poles of A=[0 1; 0 0], B=[0;1] for damping 0.7, natural frequency 2 rad/s'));
  const calls = await executeReading(r);
  const res = calls.find((c) => c.tool === 'stepinfo')!.result as Record<string, any>;
  // hand: Mp = e^(−0.7π/√0.51) = 4.59879 %, tp = π/(2√0.51) = 2.19951 s
  close(res.overshoot_pct, 100 * Math.exp((-0.7 * Math.PI) / Math.sqrt(0.51)), 1e-7, 'overshoot');
  close(res.peak_time, Math.PI / (2 * Math.sqrt(0.51)), 1e-8, 'peak time');
  const items = Object.fromEntries(res.spec.map((s: any) => [s.key, s]));
  assert.equal(items.zeta.pass, true);
  assert.equal(items.wn.pass, true);
  close(items.zeta.value, 0.7, 1e-8, 'ζ read back');
  close(items.wn.value, 2, 1e-8, 'ωn read back');
});

test('a third pole at −1 spoils the second-order design: settling time fails, named in the answer', async () => {
  // triple integrator, the 5 %/2 s pair plus a slow real pole at −1
  const sigma = zeta * wn,
    wd = wn * Math.sqrt(1 - zeta * zeta);
  const a = {
    A: [
      [0, 1, 0],
      [0, 0, 1],
      [0, 0, 0],
    ],
    B: [[0], [0], [1]],
    poles: [
      [-sigma, wd],
      [-sigma, -wd],
      [-1, 0],
    ],
  };
  const out: Record<string, any>[] = [];
  for await (const ev of executePlan('place', a, undefined, {}, [], { targets: { overshoot_pct: 5, settling_time: 2 } })) {
    assert.notEqual(ev.kind, 'failed', JSON.stringify(ev));
    if (ev.kind === 'done') out.push({ tool: ev.step.tool, args: ev.call.args, result: ev.call.result, verification: ev.call.verification });
  }
  const si = out.find((c) => c.tool === 'stepinfo')!;
  // hand: T(s) = ωn²/((s + 1)(s² + 2σs + ωn²)) (unit DC gain); the residue of T(s)/s at −1 is
  // ωn²/(−1·(1 − 2σ + ωn²)), so the slow term r·e^(−t) leaves the 2 % band at t = ln(|r|/0.02)
  const rSlow = (wn * wn) / (1 - 2 * sigma + wn * wn);
  close(si.result.settling_time, Math.log(rSlow / 0.02), 0.02, 'settling set by the third pole');
  const items = Object.fromEntries(si.result.spec.map((s: any) => [s.key, s]));
  assert.equal(items.settling_time.pass, false);
  assert.equal(items.overshoot_pct.pass, true, 'the slow pole removes the overshoot');
  const md = renderToolResult('stepinfo', si.args, si.result, si.verification, { math: false });
  assert.match(md, /✘ The design misses its specification: settling time \(2 %\)\./);
});

test('the verifier rejects verdicts that do not follow from the numbers', () => {
  const args = { A: [[-1]], B: [[1]], C: [[1]], spec: { settling_time: 1 } };
  // first order 1/(s+1): ts = ln 50 = 3.912 s, so a pass would be wrong
  const result = { rise_time: Math.log(9), settling_time: Math.log(50), overshoot_pct: 0, peak: 1, peak_time: Infinity, final_value: 1 };
  const good = verify('stepinfo', args, {
    ...result,
    spec: [{ key: 'settling_time', item: 's', target: '', achieved: '', pass: false, limit: 1, value: Math.log(50) }],
  });
  const bad = verify('stepinfo', args, {
    ...result,
    spec: [{ key: 'settling_time', item: 's', target: '', achieved: '', pass: true, limit: 1, value: Math.log(50) }],
  });
  assert.equal(good?.ok, true, JSON.stringify(good));
  assert.equal(bad?.ok, false, JSON.stringify(bad));
  assert.ok(bad?.checks.some((c) => c.name === 'specification verdicts' && !c.ok));
});
