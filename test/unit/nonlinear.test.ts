/**
 * Nonlinear models (issue 14 item 5): find_eqpt, linearize, nlsim (solvers/nonlinear.ts) and
 * their reader (reader/nonlinear.ts). References from outside our code:
 * - the pendulum's closed-form linearisations (x1' = x2, x2' = -g/l sin x1 - b x2 + u): about the
 *   down position A = [0 1; -g/l -b], upright A = [0 1; g/l -b], B = [0; 1] (Ogata, Modern Control
 *   Engineering, 5th ed., §3-10; Khalil, Nonlinear Systems, Ex. 1.2.1);
 * - test/fixtures/nonlinear/ref.py (sympy jacobians, scipy fsolve and DOP853 solve_ivp at
 *   rtol = atol = 1e-12, python-control 0.10.2 nlsys/find_eqpt/linearize), stored in ref.json;
 * - the torque equilibrium x1 = asin(u0·l/g) (closed form), Van der Pol's A = [0 1; -1 mu] at 0.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { findEqpt, linearize, lyapunovCheck, nlsim, rk45 } from '../../src/core/solvers/nonlinear.js';
import { readModel, splitEquations } from '../../src/core/solvers/_nlmodel.js';
import { eqptChecks, linearizeChecks, lyapunovChecks, nlsimChecks } from '../../src/core/verify/nonlinear.js';
import { Conversation, readTurn, executeReading, recordExecution } from '../../src/core/reader/index.js';
import { ControlError } from '../../src/core/errors.js';

const ref = JSON.parse(readFileSync(new URL('../fixtures/nonlinear/ref.json', import.meta.url), 'utf8'));
const PEND = { equations: "x1' = x2; x2' = -g/l*sin(x1) - b*x2 + u", params: { g: 9.81, l: 1, b: 0.1 } };
const close = (a: number[][], b: number[][], tol: number, what: string) =>
  a.forEach((r, i) => r.forEach((v, j) => assert.ok(Math.abs(v - b[i][j]) <= tol, `${what}(${i + 1},${j + 1}) = ${v}, expected ${b[i][j]}`)));
const allOk = (checks: { ok: boolean; detail: string }[]) => assert.ok(checks.length && checks.every((c) => c.ok), checks.map((c) => c.detail).join('; '));

test('linearize: the pendulum about down and upright is A = [0 1; ∓g/l −b], B = [0; 1] (closed form, sympy)', () => {
  for (const [pt, sign] of [
    [[0, 0], -1],
    [[Math.PI, 0], 1],
  ] as const) {
    const r = linearize({ ...PEND, x: [...pt] });
    close(
      r.A,
      [
        [0, 1],
        [sign * 9.81, -0.1],
      ],
      1e-12,
      'A',
    );
    close(r.B, [[0], [1]], 0, 'B');
    close(
      r.C,
      [
        [1, 0],
        [0, 1],
      ],
      0,
      'C',
    );
    assert.equal(r.equilibrium, true);
    allOk(linearizeChecks({ ...PEND, x: [...pt] }, r));
  }
  // a point that is no equilibrium: said, and A matches sympy's jacobian there
  const r = linearize({ ...PEND, x: ref.pendulum_tilted.x });
  close(r.A, ref.pendulum_tilted.A, 1e-12, 'A');
  assert.equal(r.equilibrium, false);
  assert.ok(Math.abs(r.dx[1] - (-9.81 * Math.sin(0.7) + 0.03)) < 1e-12);
  // python-control's finite-difference linearize agrees to its own step's accuracy
  close(linearize({ ...PEND, x: [Math.PI, 0] }).A, ref.pendulum_up_ct.A, 1e-6, 'A vs ct.linearize');
});

test('linearize: Van der Pol at the origin is A = [0 1; -1 mu]; symbolic entries are shown', () => {
  const a = { equations: "x1' = x2; x2' = mu*(1 - x1^2)*x2 - x1", params: { mu: 1 }, x: [0, 0] };
  const r = linearize(a);
  close(r.A, ref.vanderpol.A0, 1e-14, 'A');
  assert.deepEqual(r.B, [[], []]);
  assert.match(r.A_sym[1][0], /mu/);
  allOk(linearizeChecks(a, r));
});

test('find_eqpt: a constant torque u0 = 2 tilts the damped pendulum to asin(2/9.81) (closed form, fsolve, ct.find_eqpt)', () => {
  const a = { equations: "x1' = x2; x2' = -9.81*sin(x1) - 0.5*x2 + u", x0: [0, 0], u0: [2] };
  const r = findEqpt(a);
  assert.ok(Math.abs(r.x[0] - ref.torque_eq.closed_form_x1) < 1e-13, `${r.x[0]}`);
  assert.ok(Math.abs(r.x[0] - ref.torque_eq.x_ct[0]) < 1e-12);
  assert.ok(Math.abs(r.x[1]) < 1e-13);
  assert.equal(r.stability, 'stable');
  allOk(eqptChecks(a, r));
  // from near the top: the upright equilibrium pi - asin(2/9.81), unstable
  const up = findEqpt({ ...a, x0: [3, 0] });
  assert.ok(Math.abs(up.x[0] - (Math.PI - ref.torque_eq.closed_form_x1)) < 1e-12);
  assert.equal(up.stability, 'unstable');
});

test('find_eqpt: an output target solves for the input too (python-control find_eqpt with y0)', () => {
  const a = { ...PEND, outputs: 'y = x1', x0: [0.5, 0], y0: [0.5] };
  const r = findEqpt(a);
  assert.equal(r.unknowns, 'x and u');
  assert.ok(Math.abs(r.u[0] - ref.hold_target.u[0]) < 1e-12, `${r.u[0]}`);
  allOk(eqptChecks(a, r));
});

test('find_eqpt fails closed: no equilibrium, a singular Jacobian', () => {
  // x' = x^2 + 1 has no real root
  assert.throws(
    () => findEqpt({ equations: "x1' = x1^2 + 1", x0: [0.3] }),
    (e: unknown) => e instanceof ControlError && /no equilibrium is claimed/.test((e as Error).message),
  );
  assert.throws(() => findEqpt({ equations: "x1' = x2^2 + 1; x2' = x1^2", x0: [1, 0] }), /singular|no equilibrium/);
});

test('nlsim: RK45 agrees with scipy DOP853 at 1e-12 (Van der Pol, forced pendulum)', () => {
  const v = { equations: "x1' = x2; x2' = mu*(1 - x1^2)*x2 - x1", params: { mu: 1 }, x0: [2, 0], tfinal: 20, rtol: 1e-10, atol: 1e-12 };
  const r = nlsim(v);
  const xf = r.x[r.x.length - 1];
  assert.ok(Math.abs(xf[0] - ref.vanderpol.x_final[0]) < 1e-7 && Math.abs(xf[1] - ref.vanderpol.x_final[1]) < 1e-7, `${xf}`);
  allOk(nlsimChecks(v, r));
  const p = { ...PEND, x0: [0.5, 0], tfinal: 10, u: '0.5*sin(2*t)' };
  const q = nlsim(p);
  const qf = q.x[q.x.length - 1];
  // default tolerances (rtol 1e-6, atol 1e-9): within 1e-5 of the tight reference
  assert.ok(Math.abs(qf[0] - ref.pendulum_forced.x_final[0]) < 1e-5 && Math.abs(qf[1] - ref.pendulum_forced.x_final[1]) < 1e-5, `${qf}`);
  allOk(nlsimChecks(p, q));
  assert.equal(q.t[q.t.length - 1], 10);
});

test("rk45: the exact solution of x' = -x and the error control", () => {
  const r = rk45((_, x) => [-x[0]], [1], 5, { rtol: 1e-9, atol: 1e-12, maxStep: 1 });
  assert.ok(Math.abs(r.x[r.x.length - 1][0] - Math.exp(-5)) < 1e-10);
  // finite-time blow-up x' = x^2 from 1 at t = 1: refused, never a trajectory past it
  assert.throws(() => rk45((_, x) => [x[0] * x[0]], [1], 2, { rtol: 1e-6, atol: 1e-9, maxStep: 0.01 }), ControlError);
});

test('the model reader: forms of equations, parameters among them, refusals', () => {
  assert.deepEqual(splitEquations("x1' = x2, x2' = atan2(x1, 1) - x2"), ["x1' = x2", "x2' = atan2(x1, 1) - x2"]);
  const m = readModel({ equations: 'dx1/dt = x2; x2dot = -w^2*x1 + u1 + u2; w = 2*pi' });
  assert.deepEqual(m.states, ['x1', 'x2']);
  assert.deepEqual(m.inputs, ['u1', 'u2']);
  assert.ok(Math.abs(m.params.w - 2 * Math.PI) < 1e-15);
  assert.equal(m.paramFrom.w, 'equations');
  for (const bad of ["x1' = import('fs')", "x1' = q*x1", "x1' = x1 + t", "x1' = [1, 2]", "x1' = x1; x1' = 2", "x1' = 'a'"])
    assert.throws(() => readModel({ equations: bad }), ControlError, bad);
  // not differentiable: linearize says so
  assert.throws(() => linearize({ equations: "x1' = sign(x1)", x: [1] }), /no symbolic derivative/);
  // abs at 0: the derivative abs(x)/x is not finite there
  assert.throws(() => linearize({ equations: "x1' = abs(x1)", x: [0] }), /not finite/);
});

test('the reader: linearize, equilibria, simulate; parameters and the point are read or asked', () => {
  const conv = new Conversation();
  const r = readTurn(conv, "linearize x1' = x2; x2' = -g/l*sin(x1) - b*x2 + u with g = 9.81, l = 1, b = 0.1 about x = [pi; 0]");
  assert.equal(r.kind, 'call');
  if (r.kind !== 'call') return;
  assert.equal(r.tool, 'linearize');
  assert.deepEqual(r.args.params, { g: 9.81, l: 1, b: 0.1 });
  assert.deepEqual(r.args.x, [Math.PI, 0]);
  assert.ok(r.notes.some((n) => /g = 9.81, l = 1, b = 0.1/.test(n)));
  // no point: asked, never guessed
  const q = readTurn(new Conversation(), "linearize x1' = x2; x2' = -sin(x1)");
  assert.equal(q.kind, 'ask');
  // a parameter without a value: asked by name
  const k = readTurn(new Conversation(), "linearize x1' = x2; x2' = -k*x1 about x = [0; 0]");
  assert.ok(k.kind === 'ask' && /\bk\b/.test(k.question));
  const s = readTurn(new Conversation(), "simulate x1' = x2; x2' = -x1 + u with u = sin(2*t) from x0 = [0; 0] for 5 s");
  assert.ok(s.kind === 'call' && s.tool === 'nlsim' && s.args.u === 'sin(2*t)' && s.args.tfinal === 5);
  const e = readTurn(new Conversation(), "equilibria of x1' = x2, x2' = -sin(x1) - 0.5*x2");
  assert.ok(e.kind === 'call' && e.tool === 'find_eqpt' && Array.isArray(e.args.x0));
  // an equation ends where prose begins; an output target makes the input an unknown
  const t = readTurn(
    new Conversation(),
    "operating point of x1' = x2; x2' = -9.81*sin(x1) - 0.5*x2 + u with the output y = x1 held at y0 = 0.5, from x0 = [0.5; 0]",
  );
  assert.ok(t.kind === 'call' && t.tool === 'find_eqpt' && t.args.outputs === 'y = x1' && Array.isArray(t.args.y0), JSON.stringify(t));
  // linear state equations in matrix form stay a state-space model
  const l = readTurn(new Conversation(), "x' = [0 1; -2 -3]x + [0; 1]u, y = [1 0]x, step response");
  assert.ok(l.kind === 'call' && l.tool === 'step');
});

test("lyapunov_check: P from lyap of the linearisation (closed form), the region of attraction of x' = -x + x^3 (exact |x| < 1)", () => {
  // pendulum with g/l = 1, b = 1: A = [0 1; -1 -1], A'P + PA = -I has P = [1.5 0.5; 0.5 1] (checked by hand: A'P + PA = -I)
  const a = { equations: "x1' = x2; x2' = -sin(x1) - x2", x: [0, 0], radius: 2 };
  const r = lyapunovCheck(a);
  close(
    r.P,
    [
      [1.5, 0.5],
      [0.5, 1],
    ],
    1e-12,
    'P',
  );
  allOk(lyapunovChecks(a, r));
  // x' = -x + x^3: V = x²/2 (A = -1, Q = 1), V̇ = x²(x² − 1) < 0 exactly for 0 < |x| < 1, so the largest
  // level set is V < 1/2; the grid holds x = ±1, so the estimate is 5 % below it
  const b = { equations: "x1' = -x1 + x1^3", x: [0], radius: 2 };
  const s = lyapunovCheck(b);
  assert.ok(Math.abs(s.c - 0.95 * 0.5) < 1e-12, `${s.c}`);
  assert.equal(s.c_from, 'Vdot');
  allOk(lyapunovChecks(b, s));
  // refused: not an equilibrium, an unstable linearisation, an indefinite P
  assert.throws(() => lyapunovCheck({ ...a, x: [0.5, 0] }), /not an equilibrium/);
  assert.throws(() => lyapunovCheck({ equations: "x1' = x2; x2' = sin(x1) - x2", x: [0, 0] }), /not asymptotically stable/);
  assert.throws(
    () =>
      lyapunovCheck({
        ...a,
        P: [
          [1, 2],
          [2, 1],
        ],
      }),
    /not positive definite/,
  );
});

test("the linearisation is saved as linsys: 'lqr of it' and 'step of it' take its A, B", async () => {
  const conv = new Conversation();
  const r = readTurn(conv, "linearize x1' = x2; x2' = -g/l*sin(x1) - b*x2 + u with g = 9.81, l = 1, b = 0.1 about x = [pi; 0]");
  const calls = await executeReading(r);
  assert.equal(calls[0].error, undefined);
  recordExecution(conv, r, calls);
  assert.ok(conv.systems.some((s) => s.name === 'linsys'));
  const s = readTurn(conv, 'step of it');
  assert.ok(s.kind === 'call' && s.tool === 'step', JSON.stringify(s));
  if (s.kind !== 'call') return;
  close(
    s.args.A as number[][],
    [
      [0, 1],
      [9.81, -0.1],
    ],
    1e-12,
    'A',
  );
  assert.deepEqual(s.args.B, [[0], [1]]);
});
