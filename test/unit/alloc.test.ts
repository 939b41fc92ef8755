/**
 * Control allocation (solvers/alloc.ts: wls_alloc) through the verified call path. References:
 * - test/fixtures/alloc/ref.py (scipy.optimize.lsq_linear, method 'bvls', on QCAT's stacked
 *   problem [√γ Wv B; Wu] u ≈ [√γ Wv v; Wu ud] within the limits; cvxpy for the least
 *   ‖Wv(Bu − v)‖ within the limits, which decides attainability); stored in ref.json;
 * - closed forms: one actuator past its limit (u at the limit, error Bu − v by hand); the
 *   unconstrained weighted least-squares solution u = (BᵀB + I/γ)⁻¹Bᵀv when no limit binds,
 *   computed here with this file's own elimination;
 * - QCAT's conventions (Härkegård, "Efficient active set algorithms for solving constrained
 *   least squares problems in aircraft control allocation", CDC 2002): W = −1/+1/0, γ = 1e6
 *   default, rate limits as max(umin, u_prev + Ts·rate_min).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { callTool } from '../../src/core/tools/runner.js';
import { getTool } from '../../src/core/tools/table.js';
import { CHECKS } from '../../src/core/verify/index.js';
import { ControlError } from '../../src/core/errors.js';

const ref = JSON.parse(readFileSync(new URL('../fixtures/alloc/ref.json', import.meta.url), 'utf8')) as Record<string, any>;

async function verified(args: Record<string, unknown>) {
  const { result, verification } = await callTool('wls_alloc', args);
  assert.equal(verification?.ok, true, JSON.stringify(verification?.checks.filter((c) => !c.ok)));
  return result as Record<string, any>;
}

for (const [name, c] of Object.entries(ref)) {
  test(`wls_alloc agrees with scipy lsq_linear (bvls) on the stacked problem: ${name}`, async () => {
    const r = await verified(c.args);
    const scale = Math.max(1, ...c.umax_eff.map(Math.abs), ...c.umin_eff.map(Math.abs));
    r.u.forEach((x: number, j: number) => assert.ok(Math.abs(x - c.u[j]) <= 1e-8 * scale, `u${j + 1}: ${x} vs ${c.u[j]}`));
    assert.deepEqual(r.W, c.W, 'working set');
    assert.deepEqual(
      r.saturated,
      c.W.flatMap((w: number, j: number) => (w !== 0 ? [j + 1] : [])),
    );
    r.umin_eff.forEach((x: number, j: number) => assert.ok(Math.abs(x - c.umin_eff[j]) <= 1e-15 * scale));
    r.umax_eff.forEach((x: number, j: number) => assert.ok(Math.abs(x - c.umax_eff[j]) <= 1e-15 * scale));
    r.achieved.forEach((x: number, i: number) => assert.ok(Math.abs(x - c.achieved[i]) <= 1e-7 * Math.max(1, Math.abs(c.achieved[i]))));
    assert.equal(r.attainable, c.attainable, 'attainable');
    // cvxpy's interior-point tolerance is about 1e-9 absolute on the least error
    if (c.attainable) assert.ok(r.closest_error <= 1e-9, `closest ${r.closest_error}`);
    else assert.ok(Math.abs(r.closest_error - c.closest_error) <= 1e-6 * c.closest_error, `closest ${r.closest_error} vs ${c.closest_error}`);
    assert.ok(r.iterations >= 1 && r.iterations <= 2 * r.u.length + 2, `iterations ${r.iterations}`);
  });
}

test('one actuator past its limit: u at the limit, achieved 2·0.25, error −0.5, not attainable (by hand)', async () => {
  const r = await verified({ B: [[2]], v: [1], umin: [-0.25], umax: [0.25] });
  assert.deepEqual(r.u, [0.25]);
  assert.deepEqual(r.W, [1]);
  assert.deepEqual(r.achieved, [0.5]);
  assert.deepEqual(r.error, [-0.5]);
  assert.equal(r.attainable, false);
  assert.ok(Math.abs(r.closest_error - 0.5) < 1e-15);
});

test('no limit binding: u = (BᵀB + I/γ)⁻¹Bᵀv, the unconstrained weighted least squares (this file’s elimination)', async () => {
  const B = [
    [1, 2, 0, -1],
    [0, 1, 1, 1],
  ];
  const v = [0.3, -0.2];
  const gamma = 100;
  // normal equations (BᵀB + I/γ) u = Bᵀv, by Gauss-Jordan
  const m = 4;
  const M = Array.from({ length: m }, (_, i) => [
    ...Array.from({ length: m }, (_, j) => B[0][i] * B[0][j] + B[1][i] * B[1][j] + (i === j ? 1 / gamma : 0)),
    B[0][i] * v[0] + B[1][i] * v[1],
  ]);
  for (let c = 0; c < m; c++) {
    let p = c;
    for (let i = c + 1; i < m; i++) if (Math.abs(M[i][c]) > Math.abs(M[p][c])) p = i;
    [M[c], M[p]] = [M[p], M[c]];
    for (let i = 0; i < m; i++)
      if (i !== c) {
        const f = M[i][c] / M[c][c];
        for (let j = c; j <= m; j++) M[i][j] -= f * M[c][j];
      }
  }
  const want = M.map((row, i) => row[m] / row[i]);
  const r = await verified({ B, v, umin: -10, umax: 10, gamma });
  r.u.forEach((x: number, j: number) => assert.ok(Math.abs(x - want[j]) < 1e-13, `u${j + 1}: ${x} vs ${want[j]}`));
  assert.deepEqual(r.W, [0, 0, 0, 0]);
  assert.equal(r.attainable, true);
  assert.equal(r.iterations, 1);
});

test('scalar limits apply to every actuator and the answer says so; rate limits are said with their formula', async () => {
  const args = {
    B: [
      [1, 1, 0],
      [0, 1, 1],
    ],
    v: [1, 0.5],
    umin: -1,
    umax: 1,
    u_prev: [0, 0.1, 0],
    rate_max: 2,
    Ts: 0.1,
  };
  const r = await verified(args);
  assert.deepEqual(r.umax_eff, [0.2, 0.30000000000000004, 0.2]);
  assert.deepEqual(r.umin_eff, [-0.2, -0.1, -0.2]);
  const md = getTool('wls_alloc')!.render(args, r, { math: false });
  assert.match(md, /umin = -1 for every actuator/);
  assert.match(md, /rate_min = −rate_max/);
  assert.match(md, /max\(umin, u_prev \+ Ts·rate_min\)/);
  assert.match(md, /v is not attainable/);
  assert.match(md, /umax_eff/);
});

test('the answer shows achieved against demanded per component and names the saturated actuators; math form too', async () => {
  const c = ref.aircraft_unattainable;
  const r = await verified(c.args);
  for (const math of [true, false]) {
    const md = getTool('wls_alloc')!.render(c.args, r, { math });
    assert.match(md, /\| v1 \| 6 \| /);
    assert.match(md, /demanded v \| achieved Bu \| error Bu − v/);
    assert.match(md, /Saturated: u1 \(lower\), u2 \(lower\), u3 \(upper\), u4 \(upper\)/);
    if (math) assert.match(md, /\$\\min_u/);
    assert.ok(!/NaN|undefined/.test(md));
  }
  const md = getTool('wls_alloc')!.render(ref.attainable.args, await verified(ref.attainable.args), { math: false });
  assert.match(md, /v is attainable/);
  assert.match(md, /sls_alloc/);
});

test('the verifier rejects a non-optimal u, a u outside its limits and a false attainability claim', async () => {
  const c = ref.aircraft;
  const r = await verified(c.args);
  const bad = (res: Record<string, any>) =>
    CHECKS.wls_alloc(c.args, res)
      .filter((k) => !k.ok)
      .map((k) => k.name);
  // a feasible but not optimal u (moved within its limits), achieved recomputed consistently
  const u = r.u.map((x: number, j: number) => (j === 0 ? x + 0.01 : x));
  const achieved = c.args.B.map((row: number[]) => row.reduce((s: number, b: number, j: number) => s + b * u[j], 0));
  assert.deepEqual(bad({ ...r, u, achieved, error: achieved.map((x: number, i: number) => x - c.args.v[i]) }), ['KKT conditions']);
  assert.ok(bad({ ...r, u: r.u.map((x: number, j: number) => (j === 2 ? 0.6 : x)) }).includes('within the limits'));
  assert.deepEqual(bad({ ...r, attainable: false }), ['attainability']);
  assert.deepEqual(bad({ ...r, achieved: r.achieved.map((x: number) => x + 1e-3) }), ['achieved virtual control']);
});

test('ill-posed requests are refused with what to fix', async () => {
  const B = [
    [1, 1, 0],
    [0, 1, 1],
  ];
  const refused = async (args: Record<string, unknown>, re: RegExp) =>
    assert.rejects(callTool('wls_alloc', args), (e: unknown) => e instanceof ControlError && re.test(e.message));
  await refused({ B, v: [1], umin: -1, umax: 1 }, /v has 1 entries but B has 2 rows/);
  await refused({ B, v: [1, 0], umin: [-1, -1], umax: 1 }, /umin has 2 entries but B has 3 columns/);
  await refused({ B, v: [1, 0], umin: [-1, 2, -1], umax: 1 }, /actuator 2: umin = 2 is above umax = 1/);
  await refused({ B, v: [1, 0], umin: -1, umax: 1, rate_max: 1 }, /need the previous command u_prev and the sample time Ts/);
  await refused({ B, v: [1, 0], umin: -1, umax: 1, u_prev: [0, 0, 0] }, /u_prev is used only with rate limits/);
  await refused({ B, v: [1, 0], umin: -1, umax: 1, u_prev: [3, 0, 0], rate_max: 1, Ts: 0.1 }, /actuator 1: the rate limits from u_prev = 3/);
  await refused({ B, v: [1, 0], umin: -1, umax: 1, Wu: [[1, 2]] }, /Wu is 1x2 but must be 3x3/);
});

test('a weight given as its diagonal is read as diag(...) and said', async () => {
  const r = await verified({
    B: [
      [1, 1, 0],
      [0, 1, 1],
    ],
    v: [1, 0.5],
    umin: -1,
    umax: 1,
    Wu: [[1, 2, 3]],
  });
  assert.match(r.notes.join(' '), /Wu given as 3 entries: read as diag\(1, 2, 3\)/);
  const full = await verified({
    B: [
      [1, 1, 0],
      [0, 1, 1],
    ],
    v: [1, 0.5],
    umin: -1,
    umax: 1,
    Wu: [
      [1, 0, 0],
      [0, 2, 0],
      [0, 0, 3],
    ],
  });
  assert.deepEqual(r.u, full.u);
});

test('the reproducing code calls QCAT wls_alloc (MATLAB) and scipy lsq_linear on the stacked problem (Python)', async () => {
  const { reproduce } = await import('../../src/core/codegen/index.js');
  const c = ref.rate;
  const { result, verification } = await callTool('wls_alloc', c.args);
  const call = { tool: 'wls_alloc', args: c.args, result, verification } as any;
  const m = reproduce(call, 'matlab');
  assert.match(m, /\[u, W, iter\] = wls_alloc\(B, v, umin, umax, Wv, Wu, ud, gam\);/);
  assert.match(m, /umin = max\(umin, u_prev \+ Ts\*rate_min\);/);
  assert.match(m, /lsqlin/);
  const p = reproduce(call, 'python');
  assert.match(p, /lsq_linear\(A, b, bounds=\(umin, umax\), method='bvls'/);
  assert.match(p, /umax = np.minimum\(umax, u_prev \+ Ts \* rate_max\)/);
});
