// mpc (solvers/mpc.ts) and its QP kernel (linalg/qp.ts). References from outside our code:
// - test/fixtures/mpc/ref.py (cvxpy + Clarabel on each step's *sparse* optimal control problem,
//   scipy's DARE, dlqr gain and zoh discretisation; stored in ref.json): closed loops of the
//   saturated double integrator, the unconstrained case, a servo of G(s) = 1/(s(s+1)) at
//   Ts = 0.1, input rates with a control horizon, state bounds, a MIMO plant with output bounds
//   and a reference, and an infeasible problem;
// - the QP kernel on Nocedal & Wright, Numerical Optimization (2nd ed.), Example 16.4:
//   min (x1 − 1)² + (x2 − 2.5)² subject to five inequalities, x* = (1.4, 1.7), λ₁ = 0.8.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { callTool } from '../../src/core/tools/runner.js';
import { getTool } from '../../src/core/tools/table.js';
import { verify } from '../../src/core/verify/index.js';
import { qpFromRows, qpSolve } from '../../src/core/linalg/qp.js';
import { mpc } from '../../src/core/solvers/mpc.js';

const ref = JSON.parse(readFileSync(new URL('../fixtures/mpc/ref.json', import.meta.url), 'utf8')) as Record<string, any>;

const near = (a: number, b: number, tol: number, what: string) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
const sameMatrix = (got: number[][], want: number[][], tol: number, what: string) => {
  assert.equal(got.length, want.length, `${what}: rows`);
  want.forEach((row, i) => row.forEach((v, j) => near(got[i][j], v, tol, `${what}[${i}][${j}]`)));
};

async function verified(args: Record<string, unknown>) {
  const { result, verification } = await callTool('mpc', args);
  assert.equal(verification?.ok, true, JSON.stringify(verification?.checks.filter((c) => !c.ok)));
  return { result: result as Record<string, any>, checks: verification!.checks.map((c) => c.name) };
}

// ---------------------------------------------------------------- the QP kernel

test('the QP kernel solves Nocedal & Wright Example 16.4: x* = (1.4, 1.7), λ₁ = 0.8, the other multipliers 0', () => {
  const P = qpFromRows(
    [
      [2, 0],
      [0, 2],
    ],
    [
      [-1, 2],
      [1, 2],
      [1, -2],
      [-1, 0],
      [0, -1],
    ],
  )!;
  const s = qpSolve(P, [-2, -5], [2, 6, 2, 0, 0]);
  assert.ok(!('infeasible' in s));
  near(s.x[0], 1.4, 1e-14, 'x1');
  near(s.x[1], 1.7, 1e-14, 'x2');
  near(s.lambda[0], 0.8, 1e-14, 'λ1');
  assert.deepEqual(Array.from(s.lambda.slice(1)), [0, 0, 0, 0]);
});

test('the QP kernel names the constraint that cannot be met: x ≤ 0 and x ≥ 1', () => {
  const P = qpFromRows([[1]], [[1], [-1]])!;
  const s = qpSolve(P, [0], [0, -1]);
  assert.ok('infeasible' in s);
  assert.equal(s.constraint, 0);
  assert.deepEqual(s.active, [1]);
});

test('the QP kernel keeps a linearly dependent constraint out of the active set (x1 + x2 ≥ 2 written twice)', () => {
  const P = qpFromRows(
    [
      [1, 0],
      [0, 1],
    ],
    [
      [-1, -1],
      [-2, -2],
    ],
  )!;
  const s = qpSolve(P, [0, 0], [-2, -4]);
  assert.ok(!('infeasible' in s));
  near(s.x[0], 1, 1e-14, 'x1');
  near(s.x[1], 1, 1e-14, 'x2');
  assert.equal(s.active.length, 1);
  // stationarity x + G'λ = 0 whichever copy holds the multiplier
  near(s.x[0] - s.lambda[0] - 2 * s.lambda[1], 0, 1e-14, 'stationarity');
});

test('the QP kernel refuses an H that is not positive definite', () => {
  assert.equal(
    qpFromRows(
      [
        [1, 0],
        [0, 0],
      ],
      [],
    ),
    null,
  );
});

// ---------------------------------------------------------------- closed loops against cvxpy

for (const name of ['di_sat', 'di_free', 'tf_servo', 'di_rates', 'di_states', 'mimo']) {
  test(`mpc ${name}: the receding-horizon closed loop equals cvxpy's (ref.py), verified`, async () => {
    const R = ref[name];
    const { result, checks } = await verified(R.args);
    // Clarabel's tolerances (1e-12 gap) bound the agreement of the moves
    sameMatrix(result.u, R.u, 1e-6, `${name} u`);
    sameMatrix(result.x, R.x, 1e-6, `${name} x`);
    R.qp_cost.forEach((J: number, k: number) => near(result.qp_cost[k], J, 1e-7, `${name} QP cost at step ${k}`));
    sameMatrix(result.P, R.P, 1e-9, `${name} P (DARE)`);
    sameMatrix(result.K, R.K, 1e-9, `${name} K (dlqr)`);
    R.xs.forEach((v: number, i: number) => near(result.xs[i], v, 1e-9, `${name} xs`));
    R.us.forEach((v: number, i: number) => near(result.us[i], v, 1e-9, `${name} us`));
    for (const c of ['KKT stationarity', 'primal feasibility', 'complementary slackness', 'closed loop re-simulated']) assert.ok(checks.includes(c), c);
  });
}

test('the saturated double integrator: the first move is the bound u = −1 (dlqr would ask for −2.17) and the constraint activity says so', async () => {
  const { result } = await verified(ref.di_sat.args);
  near(result.u0[0], -1, 1e-12, 'u0');
  assert.deepEqual(
    result.activity.map((a: any) => a.constraint),
    ['u1 ≥ -1'],
  );
  assert.deepEqual(result.activity[0].first_move_steps, [0]);
  assert.equal(result.unconstrained_throughout, false);
});

test('unconstrained MPC with the DARE terminal weight is dlqr: u = −Kx at every step (K from scipy)', async () => {
  const R = ref.di_free;
  const { result, checks } = await verified(R.args);
  assert.ok(checks.includes('unconstrained move = dlqr'));
  result.x.slice(0, -1).forEach((x: number[], k: number) => near(result.u[k][0], -(R.K[0][0] * x[0] + R.K[0][1] * x[1]), 1e-12, `u[${k}]`));
  assert.equal(result.unconstrained_throughout, true);
});

test('a continuous transfer function is realised (tf2ss) and discretised by zoh at Ts, as scipy cont2discrete', async () => {
  const R = ref.tf_servo;
  const { result, checks } = await verified(R.args);
  assert.equal(result.discretised, true);
  sameMatrix(result.model.A, R.Ad, 1e-12, 'Ad');
  sameMatrix(result.model.B, R.Bd, 1e-12, 'Bd');
  assert.ok(checks.includes('zoh discretisation') && checks.includes('realisation'));
  // the servo settles at the setpoint
  near(result.y[result.y.length - 1][0], 1, 1e-2, 'y(end)');
});

test('an infeasible QP is a ControlError naming the step and the constraint (cvxpy: infeasible at step 0)', async () => {
  assert.equal(ref.infeasible.infeasible_step, 0);
  await assert.rejects(callTool('mpc', ref.infeasible.args), (e: Error) => {
    assert.match(e.message, /QP at step 0 .* is infeasible: x1 ≤ 4 at prediction step j = 1 cannot be met/);
    assert.match(e.message, /hard/);
    return true;
  });
});

test('mpc asks for what it needs and refuses what it cannot do, with a message to act on', async () => {
  const DI = {
    A: [
      [1, 1],
      [0, 1],
    ],
    B: [[0.5], [1]],
  };
  const fails = async (args: Record<string, unknown>, re: RegExp) => assert.rejects(callTool('mpc', args), (e: Error) => (assert.match(e.message, re), true));
  await fails({ ...DI, N: 5, x0: [1, 0] }, /Ts/);
  await fails({ ...DI, Ts: 1, N: 5 }, /x0 .* or a reference r/);
  await fails({ ...DI, C: [[1, 0]], D: [[1]], Ts: 1, N: 5, x0: [1, 0] }, /has no argument D/);
  await fails({ num: [1, 1], den: [1, 2], Ts: 1, N: 5, r: [1] }, /strictly proper/);
  await fails({ ...DI, Ts: 1, N: 5, x0: [1, 0], umin: 1, umax: -1 }, /umin\(1\) = 1 is above umax\(1\) = -1/);
  await fails({ ...DI, Ts: 1, N: 5, x0: [1, 0], Nc: 6 }, /Nc/);
  await fails({ ...DI, Ts: 1, N: 5, x0: [1, 0], ymax: 1 }, /no C is given/);
  await fails(
    {
      ...DI,
      Ts: 1,
      N: 2,
      x0: [1, 0],
      Q: [
        [0, 0],
        [0, 0],
      ],
      R: [[0]],
      P: [
        [0, 0],
        [0, 0],
      ],
    },
    /not positive definite/,
  );
  await fails(
    {
      ...DI,
      C: [
        [1, 0],
        [0, 1],
      ],
      Ts: 1,
      N: 5,
      r: [1, 1],
    },
    /not a reachable steady state/,
  );
});

test('bounds: null (or ±Infinity in a direct call) means no bound on that component', () => {
  const a = {
    A: [
      [1, 1],
      [0, 1],
    ],
    B: [[0.5], [1]],
    Ts: 1,
    N: 10,
    x0: [5, 0],
    steps: 5,
  };
  const free = mpc(a);
  const nulls = mpc({ ...a, xmax: [null, null], umin: [-Infinity] });
  assert.deepEqual(nulls.u, free.u);
  assert.deepEqual(nulls.constrained, []);
});

// ---------------------------------------------------------------- the verifier rejects wrong results

test('the verifier rejects a non-optimal plan, a negative multiplier, a wrong applied input and a missing active bound', async () => {
  const args = ref.di_rates.args;
  const { result } = await verified(args);
  const tamper = (f: (r: any) => void) => {
    const r = structuredClone(result);
    f(r);
    return verify('mpc', args, r)!;
  };
  const failed = (v: ReturnType<typeof tamper>) => v.checks.filter((c) => !c.ok).map((c) => c.name);
  // a plan moved off the optimum (feasible, but not stationary)
  assert.ok(failed(tamper((r) => (r.plans[5][2][0] += 1e-3))).includes('KKT stationarity'));
  // a multiplier of the wrong sign
  const k = result.active.findIndex((a: unknown[]) => a.length);
  assert.ok(failed(tamper((r) => (r.active[k][0].lambda = -1))).includes('dual feasibility'));
  // an applied input that is not the plan's first move
  assert.ok(failed(tamper((r) => (r.u[3][0] += 1e-3))).includes('receding horizon'));
  // a multiplier dropped: stationarity no longer holds
  assert.ok(failed(tamper((r) => (r.active[k] = []))).includes('KKT stationarity'));
  // a cost misreported
  assert.ok(failed(tamper((r) => (r.cost *= 1.01))).includes('costs'));
});

test('render in both forms: constraint activity, first move, the trajectory table; no NaN', async () => {
  const def = getTool('mpc')!;
  for (const args of [ref.di_sat.args, ref.di_free.args, ref.tf_servo.args, ref.mimo.args]) {
    const { result } = await verified(args);
    for (const math of [true, false]) {
      const md = def.render(args, result, { math });
      assert.match(md, /First move/);
      assert.match(md, /Constraint activity/);
      assert.match(md, /Closed loop/);
      assert.doesNotMatch(md, /NaN|undefined/);
    }
  }
  const { result } = await verified(ref.di_sat.args);
  assert.match(def.render(ref.di_sat.args, result, { math: false }), /\| u1 ≥ -1 \| 0 \| 0 \|/);
});

test('the MPC plot: states, inputs and their bounds from the verified call, the active steps marked', async () => {
  const { buildPlot } = await import('../../src/core/plot/data.js');
  const p = await buildPlot({ kind: 'mpc', args: ref.di_states.args });
  assert.equal(p.verification[0].tool, 'mpc');
  assert.equal(p.verification[0].ok, true);
  const d = p.data as any;
  assert.equal(d.x.length, 31);
  assert.equal(d.u.length, 30);
  assert.deepEqual(d.ubounds, { min: [-0.1], max: [0.1] });
  assert.deepEqual(d.xbounds, { min: [-6, -1], max: [6, 1] });
  assert.equal(d.active.length, 30);
  assert.ok(d.active[0]);
});

test('the reader: bounds, horizons, setpoint and steps as engineers write them (reader/mpc.ts)', async () => {
  const { readMpcSpec } = await import('../../src/core/reader/mpc.js');
  const v = (t: string) => Object.fromEntries(Object.entries(readMpcSpec(t)).map(([k, x]) => [k, x!.value]));
  assert.deepEqual(v('horizon 10, |u| <= 1'), { N: 10, umin: -1, umax: 1 });
  assert.deepEqual(v('input between -2 and 2'), { umin: -2, umax: 2 });
  assert.deepEqual(v('prediction horizon 20 and control horizon 5, -2 <= u <= 2, |du| <= 0.5, x2 >= -1, |x1| ≤ 10, setpoint 1, for 40 steps'), {
    Nc: 5,
    N: 20,
    umin: -2,
    umax: 2,
    dumin: -0.5,
    dumax: 0.5,
    xmin: [-10, -1],
    xmax: [10],
    r: [1],
    steps: 40,
  });
  assert.deepEqual(v('input limited to ±3, the output y at most 1.2, 15-step horizon, continuous plant'), {
    N: 15,
    umin: -3,
    umax: 3,
    ymax: 1.2,
    continuous: true,
  });
  assert.deepEqual(v('u in [0, 5], simulate for 4 s'), { umin: 0, umax: 5, tfinal: 4 });
});
