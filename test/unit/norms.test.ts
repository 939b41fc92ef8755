import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runTool } from '../../src/core/tools/call.js';
import { verify } from '../../src/core/verify/index.js';
import { renderToolResult } from '../../src/core/render/answer.js';
import { reproduce } from '../../src/core/codegen/index.js';

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

// ------------------------------------------------------------------ L∞ and L2 of unstable models (issue 13)

type Norms = { h2: number; l2: number; hinf: number; fpeak: number; linf: number; fpeak_linf: number; unstable_poles: number; boundary_poles: number };
const both = (args: Record<string, unknown>) => ({ ...(runTool('h2norm', args) as Norms), ...(runTool('hinfnorm', args) as Norms) });

test('1/(s - 1): H2 and H-infinity norms infinite, L-infinity 1 at w = 0, L2 1/sqrt(2) (closed forms)', () => {
  // |G(jw)| = 1/sqrt(1 + w^2): its sup is 1 at w = 0; (1/2pi) ∫ dw/(1 + w^2) = 1/2
  const args = { A: [[1]], B: [[1]], C: [[1]], D: [[0]] };
  const r = both(args);
  assert.equal(r.hinf, Infinity);
  assert.equal(r.h2, Infinity);
  close(r.linf, 1, 1e-12);
  assert.equal(r.fpeak_linf, 0);
  close(r.l2, Math.SQRT1_2, 1e-12);
  assert.equal(r.unstable_poles, 1);
  assert.equal(r.boundary_poles, 0);
  const v = verify('hinfnorm', args, runTool('hinfnorm', args));
  assert.ok(v?.ok, JSON.stringify(v?.checks));
});

test('python-control sysnorm_test (values computed in MATLAB): 1/(1 - s) has L-infinity norm 1, continuous and ZOH-sampled at 0.1 s; H2 infinite', () => {
  // G2 = 1/(1 - s) = -1/(s - 1); ZOH at Ts: a = e^Ts, Gd(z) = -(a - 1)/(z - a) (its DC gain is G2(0) = 1)
  const c = both({ A: [[1]], B: [[1]], C: [[-1]], D: [[0]] });
  close(c.linf, 1.0, 1e-12);
  assert.equal(c.h2, Infinity);
  const a = Math.exp(0.1);
  const d = both({ A: [[a]], B: [[1]], C: [[-(a - 1)]], D: [[0]], Ts: 0.1 });
  close(d.linf, 1.0, 1e-12);
  assert.equal(d.h2, Infinity);
  assert.equal(d.hinf, Infinity);
});

test('L2 of (s + 2)/((s - 1)(s + 3)) by partial fractions: (3/4)/(s - 1) mirrored and (1/4)/(s + 3), L2² = (3/4)²/2 + (1/4)²/6', () => {
  // diagonal realisation of the partial fractions
  const r = both({
    A: [
      [1, 0],
      [0, -3],
    ],
    B: [[1], [1]],
    C: [[0.75, 0.25]],
    D: [[0]],
  });
  close(r.l2, Math.sqrt(0.75 ** 2 / 2 + 0.25 ** 2 / 6), 1e-12);
  assert.equal(r.h2, Infinity);
  assert.equal(r.unstable_poles, 1);
  // the same model in a non-diagonal realisation (a similarity T = [1 1; 1 2])
  const T = [
    [1, 1],
    [1, 2],
  ];
  const Ti = [
    [2, -1],
    [-1, 1],
  ];
  const mm = (X: number[][], Y: number[][]) => X.map((row) => Y[0].map((_, j) => row.reduce((s, v, k) => s + v * Y[k][j], 0)));
  const s = runTool('h2norm', {
    A: mm(
      mm(T, [
        [1, 0],
        [0, -3],
      ]),
      Ti,
    ),
    B: mm(T, [[1], [1]]),
    C: mm([[0.75, 0.25]], Ti),
  }) as Norms;
  close(s.l2, r.l2, 1e-12);
});

test('discrete 0.3 + 1/(z - 1.5): L-infinity 1.7 at w = 0, L2 0.7 (the Laurent series on the unit circle)', () => {
  // 1/(z - 1.5) = -(1/1.5) Σ (z/1.5)^k: the z^0 coefficient 0.3 - 2/3, then (2/3)^(k+1), k >= 1;
  // Σ squares = (0.3 - 2/3)² + (4/9)²/(1 - 4/9) = 0.49. |G(1)| = |0.3 - 2| = 1.7, |G(-1)| = 0.1
  const args = { A: [[1.5]], B: [[1]], C: [[1]], D: [[0.3]], Ts: 0.1 };
  const r = both(args);
  close(r.linf, 1.7, 1e-12);
  close(r.fpeak_linf, 0, 1e-9);
  close(r.l2, 0.7, 1e-12);
  assert.equal(r.unstable_poles, 1);
  for (const t of ['h2norm', 'hinfnorm']) {
    const v = verify(t, args, runTool(t, args));
    assert.ok(v?.ok, `${t}: ${JSON.stringify(v?.checks)}`);
  }
});

test('poles on the boundary: L-infinity and L2 infinite; continuous D != 0 makes only L2 infinite', () => {
  const axis = both({
    A: [
      [0, 1],
      [-1, 0],
    ],
    B: [[0], [1]],
    C: [[1, 0]],
  });
  assert.equal(axis.linf, Infinity);
  assert.equal(axis.l2, Infinity);
  assert.equal(axis.boundary_poles, 2);
  close(axis.fpeak_linf, 1, 1e-12);
  const circle = both({ A: [[-1]], B: [[1]], C: [[1]], Ts: 0.5 });
  assert.equal(circle.linf, Infinity);
  close(circle.fpeak_linf, Math.PI / 0.5, 1e-12);
  // s/(s - 1) = 1 + 1/(s - 1): |G(jw)| = w/sqrt(1 + w²) -> 1 as w -> infinity
  const d = both({ A: [[1]], B: [[1]], C: [[1]], D: [[1]] });
  assert.equal(d.l2, Infinity);
  close(d.linf, 1, 1e-12);
  assert.equal(d.fpeak_linf, Infinity);
});

test('stable models: the L norms equal the H norms', () => {
  const r = both({
    A: [
      [0, 1],
      [-4, -0.4],
    ],
    B: [[0], [4]],
    C: [[1, 0]],
  });
  assert.equal(r.linf, r.hinf);
  assert.equal(r.fpeak_linf, r.fpeak);
  assert.equal(r.l2, r.h2);
  assert.equal(r.unstable_poles, 0);
});

test('L-infinity and L2 norms of random unstable models agree with NumPy/SciPy (test/fixtures/norms/ref.py: dense sweep + refinement, quadrature)', () => {
  const ref = JSON.parse(readFileSync(new URL('../fixtures/norms/ref.json', import.meta.url), 'utf8')) as {
    cases: { args: Record<string, unknown>; unstable_poles: number; linf: number; fpeak_linf: number | 'Infinity'; l2: number | 'Infinity' }[];
  };
  assert.ok(ref.cases.length >= 10);
  for (const c of ref.cases) {
    const r = both(c.args);
    const what = JSON.stringify(c.args).slice(0, 60);
    assert.equal(r.unstable_poles, c.unstable_poles, what);
    assert.equal(r.hinf, Infinity, what);
    assert.equal(r.h2, Infinity, what);
    close(r.linf, c.linf, 1e-9);
    // the peak frequency: a flat maximum at w = 0 is found to about sqrt(eps) by a sweep
    const w = c.fpeak_linf === 'Infinity' ? Infinity : c.fpeak_linf;
    assert.ok(w === Infinity ? r.fpeak_linf === Infinity : Math.abs(r.fpeak_linf - w) <= 1e-5 * Math.max(1, w), `${what}: fpeak ${r.fpeak_linf} vs ${w}`);
    if (c.l2 === 'Infinity') assert.equal(r.l2, Infinity, what);
    else close(r.l2, c.l2, 1e-9);
    for (const t of ['h2norm', 'hinfnorm']) {
      const v = verify(t, c.args, runTool(t, c.args));
      assert.ok(v?.ok, `${t} ${what}: ${JSON.stringify(v?.checks.filter((k) => !k.ok))}`);
    }
  }
});

test('renderings say the H norm is infinite and give the L norm with its frequency; code names norm(sys, Inf) and the L2 integral', () => {
  const args = {
    A: [
      [0.2, 5],
      [-5, 0.2],
    ],
    B: [[0], [1]],
    C: [[1, 0]],
    D: [[0]],
  };
  for (const [tool, re] of [
    ['hinfnorm', /H∞ norm:\*\* ∞ \(the model is unstable: 2 poles in the right half-plane.*\*\*L∞ norm:\*\* 2\.5\d* \(.* dB\) at ω = 4\.99\d* rad\/s/],
    ['h2norm', /H2 norm:\*\* ∞ \(the model is unstable: 2 poles in the right half-plane.*\*\*L2 norm:\*\* \d/],
  ] as const) {
    const result = runTool(tool, args);
    const v = verify(tool, args, result);
    assert.ok(v?.ok);
    for (const math of [true, false]) assert.match(renderToolResult(tool, args, result, v, { math }), re);
    const m = reproduce({ tool, args, result, verification: v }, 'matlab');
    const p = reproduce({ tool, args, result, verification: v }, 'python');
    if (tool === 'hinfnorm') {
      assert.match(m, /\[linf, fpeak_linf\] = norm\(sys, Inf\)/);
      assert.match(p, /linfnorm/);
    } else {
      assert.match(m, /stabsep\(sys\)/);
      assert.match(p, /quad\(f, 0, np\.inf/);
    }
  }
  const disc = runTool('hinfnorm', { A: [[1.5]], B: [[1]], C: [[1]], Ts: 0.1 });
  assert.match(renderToolResult('hinfnorm', { A: [[1.5]], B: [[1]], C: [[1]], Ts: 0.1 }, disc, undefined, { math: false }), /1 pole outside the unit circle/);
});
