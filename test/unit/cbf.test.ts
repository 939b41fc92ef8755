/**
 * cbf_filter (solvers/cbf.ts), its verifier (verify/cbf.ts) and its reading (reader/nonlinear.ts).
 * References from outside our code:
 * - test/fixtures/cbf/ref.py: the closed-form CBF-QP filter of Ames et al. 2019 ("Control Barrier
 *   Functions: Theory and Applications", ECC, eq. (14)) written with numpy, the closed loop by
 *   scipy DOP853 at rtol = atol = 1e-12, stored in ref.json: a single integrator keeping out of the
 *   unit disc (obstacle avoidance) and the adaptive cruise control of Ames et al. 2019 §IV-A;
 * - a closed form: x' = u, h = 1 − x, u_nom = 1, α: x = t until h = 1/α, then ḣ = −α h exactly, so
 *   h(t) = e^(−t) from x0 = 0 with α = 1 and min h = e^(−tf) at tf.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cbfFilter } from '../../src/core/solvers/cbf.js';
import { cbfChecks } from '../../src/core/verify/cbf.js';
import { Conversation, readTurn } from '../../src/core/reader/index.js';
import { ControlError } from '../../src/core/errors.js';

const ref = JSON.parse(readFileSync(new URL('../fixtures/cbf/ref.json', import.meta.url), 'utf8')) as {
  name: string;
  min_h: number;
  t_min_h: number;
  x_final: number[];
  samples: { t: number; x: number[]; u: number[]; u_nom: number[] }[];
}[];
const allOk = (checks: { ok: boolean; detail: string }[]) =>
  assert.ok(
    checks.length && checks.every((c) => c.ok),
    checks
      .filter((c) => !c.ok)
      .map((c) => c.detail)
      .join('; '),
  );

const OBSTACLE = { equations: "x1' = u1; x2' = u2", barrier: 'x1^2 + x2^2 - 1', u_nom: ['2 - x1', '-x2'], x0: [-3, 0.5], tfinal: 10 };
const ACC = {
  equations: "x1' = -(f0 + f1*x1 + f2*x1^2)/m + u/m; x2' = v0 - x1",
  params: { m: 1650, f0: 0.1, f1: 5, f2: 0.25, v0: 13.89, Th: 1.8, vd: 24 },
  barrier: 'x2 - Th*x1',
  u_nom: '-m*(x1 - vd)',
  x0: [20, 100],
  tfinal: 20,
};

/** the reported trajectory at time s, by linear interpolation between the points (for the sample comparisons) */
function at(r: ReturnType<typeof cbfFilter>, s: number, key: 'x' | 'u'): number[] {
  const k = r.t.findIndex((t) => t >= s);
  if (r.t[k] === s) return r[key][k];
  const th = (s - r.t[k - 1]) / (r.t[k] - r.t[k - 1]);
  return r[key][k].map((v, i) => (1 - th) * r[key][k - 1][i] + th * v);
}

for (const [name, args] of [
  ['obstacle', OBSTACLE],
  ['acc', ACC],
] as const) {
  test(`cbf_filter ${name}: min h, the final state and u agree with SciPy's closed loop (ref.py), verified`, () => {
    const R = ref.find((e) => e.name === name)!;
    const r = cbfFilter(args);
    const scale = (v: number[]) => 1 + Math.max(...v.map(Math.abs));
    assert.ok(Math.abs(r.min_h - R.min_h) <= 1e-5 * (1 + Math.abs(R.min_h)), `min h ${r.min_h} vs ${R.min_h}`);
    assert.ok(Math.abs(r.t_min_h - R.t_min_h) <= 0.01 * args.tfinal, `t of min h ${r.t_min_h} vs ${R.t_min_h}`);
    r.x_final.forEach((v, i) => assert.ok(Math.abs(v - R.x_final[i]) <= 1e-6 * scale(R.x_final), `x_final ${r.x_final} vs ${R.x_final}`));
    assert.ok(r.invariant && r.min_h >= 0);
    // the filtered input at the reference's sample times: the filter is a function of x, so compare u(x_ref) through the reported points near it
    for (const s of R.samples) {
      const x = at(r, s.t, 'x');
      x.forEach((v, i) => assert.ok(Math.abs(v - s.x[i]) <= 1e-4 * scale(s.x), `x(${s.t}) ${x} vs ${s.x}`));
      const u = at(r, s.t, 'u');
      u.forEach((v, i) => assert.ok(Math.abs(v - s.u[i]) <= 1e-3 * scale(s.u), `u(${s.t}) ${u} vs ${s.u}`));
    }
    assert.ok(r.active_points > 0 && r.active_fraction > 0 && r.active_fraction < 1);
    allOk(cbfChecks(args, r));
  });
}

test('cbf_filter: x′ = u toward h = 1 − x follows the closed form h = e^(−t); α = 2 gives 0.5·e^(−2(t − 0.5))', () => {
  const r = cbfFilter({ equations: "x' = u", barrier: '1 - x', u_nom: 1, x0: [0], tfinal: 5 });
  assert.ok(Math.abs(r.min_h - Math.exp(-5)) <= 1e-9, `${r.min_h}`);
  assert.equal(r.t_min_h, 5);
  assert.ok(Math.abs(r.max_deviation - (1 - Math.exp(-5))) <= 1e-9);
  allOk(cbfChecks({ equations: "x' = u", barrier: '1 - x', u_nom: 1, x0: [0], tfinal: 5 }, r));
  const r2 = cbfFilter({ equations: "x' = u", barrier: '1 - x', u_nom: 1, alpha: 2, x0: [0], tfinal: 5 });
  assert.ok(Math.abs(r2.min_h - 0.5 * Math.exp(-9)) <= 1e-9, `${r2.min_h}`);
  // active from t = 0.5 on: the share is 0.9 of the run
  assert.ok(Math.abs(r2.active_fraction - 0.9) <= 0.01, `${r2.active_fraction}`);
});

test('cbf_filter fails closed: input not affine, x0 unsafe, Lgh = 0 where the constraint is violated (relative degree 2)', () => {
  assert.throws(
    () => cbfFilter({ equations: "x1' = x2; x2' = u^2", barrier: '1 - x1', u_nom: 1, x0: [0, 0] }),
    (e: unknown) => e instanceof ControlError && /x2' = u \^ 2 is not affine/.test(e.message),
  );
  assert.throws(
    () => cbfFilter({ equations: "x' = u", barrier: '1 - x', u_nom: 1, x0: [2] }),
    (e: unknown) => e instanceof ControlError && /outside the safe set/.test(e.message),
  );
  assert.throws(
    () => cbfFilter({ equations: "x1' = x2; x2' = u", barrier: '1 - x1', u_nom: '-x1 - x2 + 2', x0: [0, 0] }),
    (e: unknown) => e instanceof ControlError && /At t = 0\.5\d* s .*Lgh = 0.*relative degree/.test(e.message),
  );
  assert.throws(() => cbfFilter({ equations: "x' = -x", barrier: '1 - x', u_nom: 1, x0: [0] }), /no input/);
  assert.throws(() => cbfFilter({ equations: "x' = u", barrier: '1 - u', u_nom: 1, x0: [0] }), /uses the input u/);
});

test('the verifier rejects a tampered input and a tampered trajectory', () => {
  const r = cbfFilter(OBSTACLE);
  const k = r.active.findIndex(Boolean);
  const u = r.u.map((v) => [...v]);
  u[k][0] += 1e-3;
  assert.ok(cbfChecks(OBSTACLE, { ...r, u }).some((c) => !c.ok && /KKT/.test(c.name)));
  const x = r.x.map((v) => [...v]);
  x[100][1] += 1e-4;
  assert.ok(cbfChecks(OBSTACLE, { ...r, x }).some((c) => !c.ok));
  assert.ok(cbfChecks(OBSTACLE, { ...r, invariant: false }).some((c) => !c.ok && c.name === 'invariance verdict'));
});

test('reader: a CBF request reads the barrier, the nominal controller, α, x0 and tfinal; a missing x0 is asked', () => {
  const r = readTurn(
    new Conversation(),
    "CBF safety filter for x1' = u1; x2' = u2 with barrier h = x1^2 + x2^2 - 1 and nominal u = [2 - x1; -x2] from x0 = [-3; 0.5] for 10 s",
  );
  assert.equal(r.kind, 'call');
  if (r.kind !== 'call') return;
  assert.equal(r.tool, 'cbf_filter');
  assert.deepEqual(r.args, { equations: "x1' = u1; x2' = u2", barrier: 'x1^2 + x2^2 - 1', u_nom: ['2 - x1', '-x2'], x0: [-3, 0.5], tfinal: 10 });
  const a = readTurn(new Conversation(), "control barrier function for x' = u with h = 1 - x, nominal controller u = 1, alpha = 2, from x0 = 0 for 5 s");
  assert.ok(a.kind === 'call' && a.args.alpha === 2 && a.args.barrier === '1 - x' && a.args.u_nom === '1');
  const q = readTurn(new Conversation(), "safety filter for x' = u with barrier h = 1 - x and nominal u = 1");
  assert.equal(q.kind, 'ask');
});
