/**
 * Issue 14 item 2: pidtune designed for time-domain targets. Without wc or pm, the overshoot
 * sets the phase margin and the settling/rise time the crossover through the second-order
 * prototype L = ωn²/(s(s + 2ζωn)) (solvers/secondorder.ts), then the closed loop's step is
 * checked against every target.
 *
 * References, none from the code under test:
 * - test/fixtures/pid/spec_ref.py (SciPy, stored in spec_ref.json): the prototype's crossover and
 *   phase margin by brentq on |L(jω)| = 1, its overshoot and 10–90 % rise time by
 *   scipy.signal.step; for five designed loops the PM and ωc so found, the gains by ref.py's
 *   loop-shaping formulas, and the closed loop's step characteristics and verdicts by SciPy.
 * - Nise, Control Systems Engineering (6th ed.), §10.10, eq. (10.73): Φm = tan⁻¹(2ζ/√(−2ζ² + √(1 + 4ζ⁴)));
 *   its lag/lead examples read ζ = 0.456 (20 % overshoot) as Φm = 48.1° and ζ = 0.6 as 59.2°.
 * - Ogata, Modern Control Engineering (5th ed.), §5-3: Mp = e^(−πζ/√(1−ζ²)), so 10 % is ζ = 0.591.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pidtune, tools as pidTools } from '../../src/core/solvers/pid.js';
import { crossoverRatio, loopFromSpec, pmFromZeta, prototypeRise, zetaFromOvershoot, zetaFromPm } from '../../src/core/solvers/secondorder.js';
import { pidChecks } from '../../src/core/verify/pid.js';
import { callTool } from '../../src/core/tools/runner.js';
import { Conversation, describeReading, readTurn, type Reading } from '../../src/core/reader/index.js';

const ref = JSON.parse(readFileSync(new URL('../fixtures/pid/spec_ref.json', import.meta.url), 'utf8')) as {
  prototypes: Record<string, any>[];
  cases: Record<string, any>[];
};
const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
const close = (a: number, b: number, tol: number, what: string) => assert.ok(rel(a, b) <= tol, `${what}: ${a} vs ${b} (${rel(a, b)})`);

test('the second-order prototype: ζ, phase margin, crossover ratio and rise time against SciPy and the textbooks', () => {
  for (const p of ref.prototypes) {
    const z = p.overshoot_target !== undefined ? zetaFromOvershoot(p.overshoot_target / 100) : zetaFromPm(p.pm_target);
    close(z, p.zeta, 1e-12, 'ζ');
    close(pmFromZeta(z), p.pm, 1e-12, 'PM');
    close(crossoverRatio(z), p.wc_over_wn, 1e-12, 'ωc/ωn');
    // SciPy's rise time is interpolated on a 5e-5 grid
    close(prototypeRise(z).tr, p.rise, 1e-6, 'ωn·tr');
    if (p.overshoot_target !== undefined) close(p.overshoot_pct, p.overshoot_target, 1e-8, 'SciPy simulates the overshoot the formula gives');
  }
  // Nise: ζ = 0.456 ↔ 48.1°, ζ = 0.6 ↔ 59.2°; Ogata: 10 % overshoot ↔ ζ = 0.591
  // (Nise's figures are read to 0.1°: 48.16° and 59.19° exactly)
  assert.ok(Math.abs(pmFromZeta(0.456) - 48.1) < 0.1 && Math.abs(pmFromZeta(0.6) - 59.2) < 0.05, `${pmFromZeta(0.456)}, ${pmFromZeta(0.6)}`);
  assert.equal(zetaFromOvershoot(0.1).toFixed(3), '0.591');
  // the closed-form inverse: ζ = sin PM/(2√cos PM) undoes PM(ζ)
  for (const z of [0.2, 0.5, 0.9, 1.5]) close(zetaFromPm(pmFromZeta(z)), z, 1e-12, `ζ = ${z} round trip`);
  assert.throws(() => zetaFromPm(95), /0° < PM < 90°/);
  assert.throws(() => zetaFromOvershoot(1), /\[0 %, 100 %\)/);
});

test('what is translated and what is only checked: given pm and wc win, the default 60° gives ζ for a speed target', () => {
  const both = loopFromSpec({ overshoot_pct: 10, settling_time: 5 }, { pmDefault: 60 })!;
  close(both.pm!, ref.prototypes[1].pm, 1e-12, 'PM from 10 %');
  close(both.wc!, (4 / (ref.prototypes[1].zeta * 5)) * ref.prototypes[1].wc_over_wn, 1e-12, 'ωc from 5 s');
  assert.deepEqual(both.short, ['from overshoot ≤ 10 %: ζ ≥ 0.5912 → PM 58.59°', 'from settling time ≤ 5 s: ωn ≥ 1.353 rad/s → ωc 0.9769 rad/s']);
  const pmGiven = loopFromSpec({ overshoot_pct: 10, settling_time: 5 }, { pm: 45, pmDefault: 60 })!;
  assert.equal(pmGiven.pm, undefined);
  assert.equal(pmGiven.zeta_from, 'pm');
  assert.match(pmGiven.lines.join(' '), /overshoot ≤ 10 %: PM as given, so checked only/);
  const wcGiven = loopFromSpec({ settling_time: 5 }, { wc: 1, pmDefault: 60 })!;
  assert.deepEqual([wcGiven.wc, wcGiven.zeta, wcGiven.short], [undefined, undefined, ['settling time: ωc as given, so checked only']]);
  assert.equal(loopFromSpec({}, { pmDefault: 60 }), undefined);
});

test('pidtune from targets alone: five loops against SciPy (gains, crossover, margin, step characteristics and each verdict)', () => {
  const pid = pidTools.find((t) => t.name === 'pidtune')!;
  for (const c of ref.cases) {
    const a = { ...c.plant, type: c.type, ...c.targets };
    const r = pidtune(a);
    const what = `${c.type} ${JSON.stringify(c.targets)}`;
    // a rise-time target goes through SciPy's grid-interpolated prototype rise time (1e-6 above)
    const tol = 'rise_time' in c.targets ? 1e-6 : 1e-12;
    close(r.pm_target, c.pm, 1e-12, `${what} PM`);
    close(r.wc, c.wc, tol, `${what} ωc`);
    assert.equal(r.wc_source, 'spec');
    assert.equal(r.pm_source, 'overshoot_pct' in c.targets ? 'spec' : 'default');
    for (const k of ['Kp', 'Ki', 'Kd'] as const) if (c.gains[k] !== 0) close(r[k], c.gains[k], Math.max(tol, 1e-9), `${what} ${k}`);
    // SciPy's step is grid-limited (ref.py): 1e-3 relative
    for (const k of ['overshoot_pct', 'settling_time', 'rise_time'] as const) close(r[k], c.achieved.step[k], 1e-3, `${what} ${k}`);
    for (const [k, pass] of Object.entries(c.verdict)) assert.equal(r.spec.find((s) => (s as { key?: string }).key === k)!.pass, pass, `${what} ${k}`);
    for (const x of pidChecks(a, r, 'pidtune')) assert.ok(x.ok, `${what} ${x.name}: ${x.detail}`);
    const md = pid.render(a, r as unknown as Record<string, unknown>, { digits: 6 } as never);
    assert.match(md, /\*\*From the time-domain targets\*\* \(the second-order prototype/);
    const missed = Object.entries(c.verdict).filter(([, p]) => !p);
    if (missed.length) assert.match(md, /✘ The design misses its specification: /);
    else assert.doesNotMatch(md, /misses its specification/);
  }
});

test('the verifier catches a translation or a design that does not follow it', () => {
  const a = { num: [1], den: [1, 2, 1], type: 'PI', overshoot_pct: 10, settling_time: 5 };
  const r = pidtune(a);
  const bad = (fs: Record<string, unknown>, name: string) =>
    assert.ok(
      pidChecks(a, { ...r, from_spec: { ...r.from_spec, ...fs } }, 'pidtune').some((c) => c.name === name && !c.ok),
      name,
    );
  bad({ zeta: 0.6 }, 'ζ from the overshoot');
  bad({ pm: 60 }, 'PM from ζ');
  bad({ wn: 1.2 }, 'ωn from the speed targets');
  bad({ wc: 1.0 }, 'ωc from ωn');
  assert.ok(pidChecks(a, { ...r, wc: 0.9 }, 'pidtune').some((c) => c.name === 'design at that ωc' && !c.ok));
});

test('a tool call with only targets designs (MCP, a model, control solve): verified, not refused', async () => {
  const v = await callTool('pidtune', { num: [1], den: [1, 2, 1], type: 'PI', overshoot_pct: 10, settling_time: 5 });
  assert.equal(v.verification?.ok, true, JSON.stringify(v.verification));
  const r = v.result as Record<string, any>;
  close(r.wc, ref.cases[1].wc, 1e-12, 'ωc');
  close(r.Kp, ref.cases[1].gains.Kp, 1e-9, 'Kp');
  assert.deepEqual(
    r.spec.filter((s: any) => s.key).map((s: any) => [s.key, s.pass]),
    [
      ['overshoot_pct', true],
      ['settling_time', false],
    ],
  );
});

test('the reader: a PI for G with overshoot and settling targets reads as pidtune with the targets, and the reading line says where ωc and PM come from', () => {
  const conv = new Conversation();
  const r: Reading = readTurn(conv, 'a PI controller for G(s) = 1/(s+1)^2 with overshoot under 10 % and settling time under 5 s');
  assert.equal(r.kind, 'call', JSON.stringify(r));
  if (r.kind !== 'call') return;
  assert.equal(r.tool, 'pidtune');
  assert.deepEqual({ ...r.args }, { num: [1], den: [1, 2, 1], type: 'PI', overshoot_pct: 10, settling_time: 5 });
  const line = describeReading(r);
  assert.match(line, /from overshoot ≤ 10 %: ζ ≥ 0\.5912 → PM 58\.59°; from settling time ≤ 5 s: ωn ≥ 1\.353 rad\/s → ωc 0\.9769 rad\/s/);
  // with the margin written, the overshoot is only checked, and the line says so
  const s = readTurn(new Conversation(), 'a PI controller with 45° phase margin for G(s) = 1/(s+1)^2 with overshoot under 10 % and settling time under 5 s');
  assert.equal(s.kind, 'call');
  if (s.kind !== 'call') return;
  assert.equal(s.args.pm, 45);
  assert.match(
    describeReading(s),
    /ζ = 0\.4204 from the PM 45°; from settling time ≤ 5 s: ωn ≥ 1\.903 rad\/s → ωc 1\.6 rad\/s; overshoot ≤ 10 %: PM as given, so checked only/,
  );
});

test('reproducing code re-checks the specification in MATLAB and python-control: stepinfo/step_info of T, one comparison per target, the translation in comments', async () => {
  const { reproduce } = await import('../../src/core/codegen/index.js');
  const a = { num: [1], den: [1, 2, 1], type: 'PI', overshoot_pct: 10, settling_time: 5 };
  const v = await callTool('pidtune', a);
  const req = { tool: 'pidtune', args: v.args, result: v.result, verification: v.verification };
  const m = reproduce(req, 'matlab');
  assert.match(m, /^S = stepinfo\(T, 'RiseTimeLimits', \[0\.1 0\.9\], 'SettlingTimeThreshold', 0\.02\)$/m);
  assert.match(m, /^spec_met = \[S\.Overshoot <= 10, S\.SettlingTime <= 5\]$/m);
  // the verdicts SciPy gives for this loop (spec_ref.json case 1: overshoot met, settling missed)
  assert.deepEqual(ref.cases[1].verdict, { overshoot_pct: true, settling_time: false });
  assert.match(m, /^% {3}overshoot <= 10 % \[pass\]$/m);
  assert.match(m, /^% {3}settling time \(2 %\) <= 5 s \[FAIL\]$/m);
  assert.match(m, /^% {3}from overshoot ≤ 10 %: ζ ≥ .* = 58\.59°$/m);
  // MATLAB's own pidtune for comparison is called with the PM the targets set, not the default 60
  assert.match(m, /pidtuneOptions\('PhaseMargin', 58\.593068264963\d*\)/);
  const p = reproduce(req, 'python');
  assert.match(p, /^S = ct\.step_info\(T, SettlingTimeThreshold=0\.02, RiseTimeLimits=\(0\.1, 0\.9\)\)$/m);
  assert.match(p, /^spec_met = \[S\['Overshoot'\] <= 10, S\['SettlingTime'\] <= 5\]$/m);
  // without targets, no specification lines
  const w = await callTool('pidtune', { num: [1], den: [1, 2, 1], type: 'PI', wc: 1 });
  assert.doesNotMatch(reproduce({ tool: 'pidtune', args: w.args, result: w.result, verification: w.verification }, 'matlab'), /spec_met/);
});
