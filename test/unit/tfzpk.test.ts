/**
 * MIMO transfer functions and zero-pole-gain models: tf2ss and ss2tf of MIMO models, zpk,
 * zpk2tf, zpk2ss, and such systems as arguments of the interconnection tools. References:
 * - MATLAB tf2ss documentation, its example b = [0 2 3; 1 2 1], a = [1 0.4 1]:
 *   A = [-0.4 -1; 1 0], B = [1; 0], C = [2 3; 1.6 0], D = [0; 1];
 * - MATLAB ss2tf documentation, its two-input example A = [0 1; -25 -4], B = [1 1; 0 1],
 *   C = eye(2), D = 0: ss2tf(…, 1) = [0 1 4; 0 0 −25]/[1 4 25], ss2tf(…, 2) = [0 1 5; 0 1 −25]/[1 4 25]
 *   (by hand: (sI − A)⁻¹ = [s+4 1; −25 s]/(s² + 4s + 25));
 * - MATLAB zpk documentation's MIMO example Z = {[], −5; [1−i 1+i], []}, P = {0, [−1 −1];
 *   [1 2 3], []}, K = [−1 3; 2 0]: H11 = −1/s, H12 = 3(s+5)/(s+1)², H21 = 2(s²−2s+2)/((s−1)(s−2)(s−3)),
 *   H22 = 0 (expanded by hand), McMillan degree 6 (every pole in one entry only);
 * - closed forms: [1/(s+1) 1/(s+1)] has McMillan degree 1; python-control's
 *   ct.tf([[[1], [1, 1]]], [[[1, 2], [1, 3]]]) = [1/(s+2) (s+1)/(s+3)], degree 2;
 * - test/fixtures/zpk/ref.py (NumPy/SciPy: zpk2tf, tf2zpk, ss2tf per input, ss2zpk per channel,
 *   values of transfer matrices at fixed points and their McMillan degree by a Hankel rank),
 *   stored output ref.json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { callTool } from '../../src/core/tools/runner.js';
import { renderToolResult } from '../../src/core/render/answer.js';
import { reproduce } from '../../src/core/codegen/index.js';
import { evalSS } from '../../src/core/verify/systems.js';
import { ControlError } from '../../src/core/errors.js';
import type { Complex } from '../../src/core/types.js';
import { sameSet } from './linalg-helpers.js';

type Case = { tool: string; args: Record<string, any>; expect: Record<string, any>; points?: Complex[] };
const ref = JSON.parse(readFileSync(new URL('../fixtures/zpk/ref.json', import.meta.url), 'utf8')) as Record<string, Case>;

const near = (a: number, b: number, tol: number, what: string) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
const nearList = (a: number[], b: number[], tol: number, what: string) => {
  assert.equal(a.length, b.length, `${what}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  a.forEach((x, i) => near(x, b[i], tol, `${what}[${i}]`));
};

/** C(sI − A)⁻¹B + D of a result against expected [re, im] grids at points */
function sameValues(r: Record<string, any>, pts: Complex[], want: Complex[][][], tol: number, what: string) {
  pts.forEach((s, k) => {
    const h = evalSS(r.A, r.B, r.C, r.D, s);
    want[k].forEach((row, i) =>
      row.forEach(([re, im], j) => {
        const sc = Math.max(1, Math.hypot(re, im));
        assert.ok(
          Math.hypot(h.re.get(i, j) - re, h.im.get(i, j) - im) <= tol * sc,
          `${what} at ${s} (${i + 1},${j + 1}): ${h.re.get(i, j)}+${h.im.get(i, j)}j vs ${re}+${im}j`,
        );
      }),
    );
  });
}

async function run(tool: string, args: Record<string, any>) {
  const { result, verification } = await callTool(tool, args);
  assert.equal(verification?.ok, true, `${tool}: ${JSON.stringify(verification?.checks)}`);
  return result as Record<string, any>;
}

test('tf2ss of MATLAB’s SIMO example equals its published A, B, C, D (the column form, already minimal)', async () => {
  const r = await run('tf2ss', { num: [[[0, 2, 3]], [[1, 2, 1]]], den: [1, 0.4, 1] });
  assert.deepEqual(r.A, [
    [-0.4, -1],
    [1, 0],
  ]);
  assert.deepEqual(r.B, [[1], [0]]);
  r.C.flat().forEach((v: number, i: number) => near(v, [2, 3, 1.6, 0][i], 1e-15, 'C'));
  assert.deepEqual(r.D, [[0], [1]]);
  assert.equal(r.order, 2);
});

test('tf2ss of a transfer matrix is minimal: [1/(s+1) 1/(s+1)] has order 1, python-control’s example order 2', async () => {
  const a = await run('tf2ss', {
    num: [[[1], [1]]],
    den: [
      [
        [1, 1],
        [1, 1],
      ],
    ],
  });
  assert.equal(a.order, 1);
  assert.equal(a.order_full, 2);
  sameSet(a.removed, [[-1, 0]], 1e-12, 'removed');
  const b = await run('tf2ss', {
    num: [[[1], [1, 1]]],
    den: [
      [
        [1, 2],
        [1, 3],
      ],
    ],
  });
  assert.equal(b.order, 2);
  const s: Complex = [0.5, 1];
  const h = evalSS(b.A, b.B, b.C, b.D, s);
  const g12 = [(1.5 * 3.5 + 1 * 1) / (3.5 ** 2 + 1), (1 * 3.5 - 1.5 * 1) / (3.5 ** 2 + 1)]; // (s+1)/(s+3)
  near(h.re.get(0, 1), g12[0], 1e-12, 'G12 re');
  near(h.im.get(0, 1), g12[1], 1e-12, 'G12 im');
});

test('a 1x1 matrix num/den gives the SISO result unchanged', async () => {
  const a = await run('tf2ss', { num: [[[1, 2]]], den: [[[1, 3, 2]]] });
  const b = await run('tf2ss', { num: [1, 2], den: [1, 3, 2] });
  assert.deepEqual(a, b);
});

test('ss2tf of MATLAB’s two-input example: num over det(sI − A) per input as published, entries cancelled', async () => {
  const r = await run('ss2tf', {
    A: [
      [0, 1],
      [-25, -4],
    ],
    B: [
      [1, 1],
      [0, 1],
    ],
    C: [
      [1, 0],
      [0, 1],
    ],
    D: [
      [0, 0],
      [0, 0],
    ],
  });
  nearList(r.charpoly, [1, 4, 25], 1e-13, 'charpoly');
  const want = [
    [
      [0, 1, 4],
      [0, 1, 5],
    ],
    [
      [0, 0, -25],
      [0, 1, -25],
    ],
  ];
  want.forEach((row, i) => row.forEach((w, j) => nearList(r.num_charpoly[i][j], w, 1e-13, `num_charpoly(${i + 1},${j + 1})`)));
  // entries: no common factor with s² + 4s + 25, so the same numerators, leading zeros stripped
  nearList(r.num[1][0], [-25], 1e-13, 'G21');
  nearList(r.den[1][0], [1, 4, 25], 1e-13, 'den21');
});

test('ss2tf cancels each entry’s own common factors (diagonal A: each entry first order)', async () => {
  const r = await run('ss2tf', {
    A: [
      [-1, 0],
      [0, -2],
    ],
    B: [
      [1, 0],
      [0, 1],
    ],
    C: [[1, 1]],
  });
  assert.deepEqual(r.den, [
    [
      [1, 1],
      [1, 2],
    ],
  ]);
  nearList(r.charpoly, [1, 3, 2], 1e-14, 'charpoly');
});

test('zpk2tf and zpk2ss of MATLAB’s MIMO zpk example', async () => {
  const args = {
    z: [
      [[], [-5]],
      [
        [
          [1, -1],
          [1, 1],
        ],
        [],
      ],
    ],
    p: [
      [[0], [-1, -1]],
      [[1, 2, 3], []],
    ],
    k: [
      [-1, 3],
      [2, 0],
    ],
  };
  const t = await run('zpk2tf', args);
  nearList(t.num[0][0], [-1], 0, 'num11');
  nearList(t.den[0][0], [1, 0], 0, 'den11');
  nearList(t.num[0][1], [3, 15], 1e-15, 'num12');
  nearList(t.den[0][1], [1, 2, 1], 1e-15, 'den12');
  nearList(t.num[1][0], [2, -4, 4], 1e-15, 'num21');
  nearList(t.den[1][0], [1, -6, 11, -6], 1e-15, 'den21');
  nearList(t.num[1][1], [0], 0, 'num22');
  const s = await run('zpk2ss', args);
  assert.equal(s.order, 6);
  // back to zpk from the realisation: the channels' roots and gains
  const z = await run('zpk', { A: s.A, B: s.B, C: s.C, D: s.D });
  sameSet(
    z.p[1][0],
    [
      [1, 0],
      [2, 0],
      [3, 0],
    ],
    1e-8,
    'p21',
  );
  sameSet(
    z.z[1][0],
    [
      [1, -1],
      [1, 1],
    ],
    1e-8,
    'z21',
  );
  near(z.k[1][0], 2, 1e-10, 'k21');
  near(z.k[0][1], 3, 1e-10, 'k12');
  assert.equal(z.k[1][1], 0);
});

test('zpk refuses a complex root without its conjugate, naming it and the way out', async () => {
  await assert.rejects(
    () => callTool('zpk2tf', { z: [[-1, 2]], p: [-2, -3], k: 1 }),
    (e: unknown) => e instanceof ControlError && /no conjugate/.test(e.message) && /Add \[-1, -2\]/.test(e.message),
  );
  await assert.rejects(() => callTool('zpk2ss', { z: [-1, -2, -3], p: [-1], k: 1 }), /improper/);
  await assert.rejects(
    () =>
      callTool('tf2ss', {
        num: [[[1, 0, 0], [1]]],
        den: [
          [
            [1, 1],
            [1, 2],
          ],
        ],
      }),
    /entry \(1,1\) is improper/,
  );
});

test('zpk of a discrete transfer function keeps every root (no cancellation) and writes z', async () => {
  const r = await run('zpk', { num: [1, -0.5], den: [1, -1.5, 0.5], Ts: 0.1 });
  sameSet(r.z, [[0.5, 0]], 1e-14, 'z');
  sameSet(
    r.p,
    [
      [1, 0],
      [0.5, 0],
    ],
    1e-14,
    'p',
  );
  assert.equal(r.k, 1);
  const text = renderToolResult('zpk', { num: [1, -0.5], den: [1, -1.5, 0.5], Ts: 0.1 }, r, undefined, { math: false });
  assert.match(text, /G\(z\) = \(z − 0\.5\) \/ \(\(z − 0\.5\)\(z − 1\)\)/);
});

test('renderings: a transfer matrix as a LaTeX matrix of fractions, and as one line per entry', async () => {
  const args = {
    num: [[[1], [1, 1]]],
    den: [
      [
        [1, 2],
        [1, 3],
      ],
    ],
  };
  const r = await run('tf2ss', args);
  const math = renderToolResult('tf2ss', args, r, undefined, { math: true });
  assert.match(math, /\\begin\{bmatrix\} \\frac\{1\}\{s \+ 2\} & \\frac\{s \+ 1\}\{s \+ 3\} \\end\{bmatrix\}/);
  const plain = renderToolResult('tf2ss', args, r, undefined, { math: false });
  assert.match(plain, /G\(1,2\) = \(s \+ 1\) \/ \(s \+ 3\)/);
  assert.match(plain, /Order 2/);
  const m = reproduce({ tool: 'tf2ss', args, result: r }, 'matlab');
  assert.match(m, /tf\(\{1, \[1 1\]\}, \{\[1 2\], \[1 3\]\}\)/);
  const py = reproduce({ tool: 'tf2ss', args, result: r }, 'python');
  assert.match(py, /ct\.tf\(\[\[\[1\], \[1, 1\]\]\], \[\[\[1, 2\], \[1, 3\]\]\]\)/);
});

test('series/feedback/append take a MIMO {num, den} and a {z, p, k}', async () => {
  const G = {
    num: [[[1], [1, 1]]],
    den: [
      [
        [1, 2],
        [1, 3],
      ],
    ],
  };
  const K = { z: [-1], p: [-4], k: 2 };
  const r = await run('series', { sys1: G, sys2: K });
  // 2(s+1)/(s+4) · [1/(s+2) (s+1)/(s+3)] at s = 1j
  const s: Complex = [0, 1];
  const h = evalSS(r.A, r.B, r.C, r.D, s);
  const div = (a: Complex, b: Complex): Complex => [
    (a[0] * b[0] + a[1] * b[1]) / (b[0] ** 2 + b[1] ** 2),
    (a[1] * b[0] - a[0] * b[1]) / (b[0] ** 2 + b[1] ** 2),
  ];
  const mul = (a: Complex, b: Complex): Complex => [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];
  const k = div([2, 2], [4, 1]);
  const w1 = mul(k, div([1, 0], [2, 1]));
  near(h.re.get(0, 0), w1[0], 1e-12, 'T11 re');
  near(h.im.get(0, 0), w1[1], 1e-12, 'T11 im');
  const f = await run('feedback', { sys1: K, sys2: 1 });
  // 2(s+1)/(s+4) in unity feedback: 2(s+1)/(3s+6) = (2/3)(s+1)/(s+2)
  nearList(f.den, [1, 2], 1e-12, 'closed-loop den');
  const a = await run('append', { systems: [G, K] });
  assert.equal(a.D.length, 2);
  assert.equal(a.D[0].length, 3);
});

for (const [name, c] of Object.entries(ref)) {
  test(`SciPy reference ${name} (${c.tool})`, async () => {
    const r = await run(c.tool, c.args);
    const e = c.expect;
    if (c.tool === 'zpk2tf') {
      if (Array.isArray(e.num[0]) && Array.isArray((e.num as any)[0][0]))
        e.num.forEach((row: number[][], i: number) =>
          row.forEach((n: number[], j: number) => {
            nearList(r.num[i][j], n, 1e-10, `${name} num(${i},${j})`);
            nearList(r.den[i][j], e.den[i][j], 1e-10, `${name} den(${i},${j})`);
          }),
        );
      else {
        nearList(r.num, e.num, 1e-10, `${name} num`);
        nearList(r.den, e.den, 1e-10, `${name} den`);
      }
    } else if (c.tool === 'zpk') {
      if (typeof e.k === 'number') {
        sameSet(r.z, e.z, 1e-7, `${name} z`);
        sameSet(r.p, e.p, 1e-8, `${name} p`);
        near(r.k, e.k, 1e-10, `${name} k`);
      } else
        (e.k as number[][]).forEach((row, i) =>
          row.forEach((k, j) => {
            sameSet(r.z[i][j], e.z[i][j], 1e-6, `${name} z(${i},${j})`);
            sameSet(r.p[i][j], e.p[i][j], 1e-8, `${name} p(${i},${j})`);
            near(r.k[i][j], k, 1e-8, `${name} k(${i},${j})`);
          }),
        );
    } else if (c.tool === 'ss2tf') {
      nearList(r.charpoly, e.charpoly, 1e-10, `${name} charpoly`);
      (e.num_charpoly as number[][][]).forEach((row, i) => row.forEach((n, j) => nearList(r.num_charpoly[i][j], n, 1e-9, `${name} num_charpoly(${i},${j})`)));
      // the cancelled entries against the model's values
      c.points!.forEach((s, k) =>
        (e.values[k] as Complex[][]).forEach((row, i) =>
          row.forEach(([re, im], j) => {
            const num = r.num[i][j] as number[],
              den = r.den[i][j] as number[];
            const pv = (p: number[]): Complex => p.reduce<Complex>((acc, a) => [acc[0] * s[0] - acc[1] * s[1] + a, acc[0] * s[1] + acc[1] * s[0]], [0, 0]);
            const [nr, ni] = pv(num),
              [dr, di] = pv(den);
            const t = dr * dr + di * di;
            near((nr * dr + ni * di) / t, re, 1e-9, `${name} G(${i},${j}) re`);
            near((ni * dr - nr * di) / t, im, 1e-9, `${name} G(${i},${j}) im`);
          }),
        ),
      );
    } else {
      assert.equal(r.order, e.order, `${name} order`);
      sameValues(r, c.points!, e.values, 1e-9, name);
    }
  });
}

test('zpk of a model with a Jordan block at 0 (found by the verifier probe): verified, zeros as SciPy ss2zpk gives them, the double pole at 0 within its √ε conditioning', async () => {
  // SciPy: scipy.signal.ss2zpk(A, B[:, [0]], C, D[:, [0]]) → z = −1.64820, −0.07503 ± 0.29410j; p = 0.54399, 0, 0
  const c = await callTool('zpk', {
    A: [
      [0, -0.408, 0],
      [0, 0, 0],
      [-0.944, 0.6678291503197037, 0.5439928124342364],
    ],
    B: [[-0.008911965909649548], [-0.947965662537675], [-0.902424418598626]],
    C: [[0.9662549736114044, -1.274576001454267, -0.9167002694734017]],
    D: [[0.8653610533961151]],
  });
  assert.equal(c.verification?.ok, true, JSON.stringify(c.verification));
  const r = c.result as { z: Complex[]; p: Complex[]; k: number };
  sameSet(
    r.z,
    [
      [-1.64819982, 0],
      [-0.0750309, 0.29410132],
      [-0.0750309, -0.29410132],
    ],
    1e-7,
    'zeros',
  );
  sameSet(
    r.p,
    [
      [0.54399281, 0],
      [0, 0],
      [0, 0],
    ],
    1e-7,
    'poles',
  );
  near(r.k, 0.8653610533961151, 1e-12, 'k');
});

test("tf2ss of a 2x2 matrix of order-8 entries (the bench's): the degree-30 realisation verifies although its Hankel matrix is too ill-conditioned to show rank 30; one state more is still refused", async () => {
  const { mulberry32 } = await import('../fixtures/rng.js');
  const mulP = (a: number[], b: number[]) => {
    const r = new Array(a.length + b.length - 1).fill(0);
    a.forEach((x, i) => b.forEach((y, j) => (r[i + j] += x * y)));
    return r;
  };
  // seeded stable entries of orders 8 and 7 (real poles and conjugate pairs), as bench/newtools.ts tfProblem
  const entry = (order: number) => {
    const u = mulberry32(7000 + order);
    let den = [1];
    let k = 0;
    while (k < order) {
      if (order - k >= 2 && u() < 0.6) {
        const re = -(0.3 + 2.7 * u()),
          im = 0.3 + 2.7 * u();
        den = mulP(den, [1, -2 * re, re * re + im * im]);
        k += 2;
      } else {
        den = mulP(den, [1, 0.2 + 3 * u()]);
        k += 1;
      }
    }
    const num = Array.from({ length: order }, () => 2 * u() - 1);
    num[0] = 0.5 + Math.abs(num[0]);
    return { num, den };
  };
  const a = entry(8),
    b = entry(7);
  const args = {
    num: [
      [a.num, b.num],
      [b.num, a.num],
    ],
    den: [
      [a.den, b.den],
      [b.den, a.den],
    ],
  };
  const c = await callTool('tf2ss', args);
  // [[a, b], [b, a]] = T·diag(a + b, a − b)·T⁻¹: McMillan degree 2·(8 + 7) = 30 (by hand, generic entries)
  assert.equal((c.result!.A as number[][]).length, 30);
  assert.equal(c.verification?.ok, true, JSON.stringify(c.verification));
  // the same realisation with an uncontrollable state appended: not minimal, refused
  const r = c.result as Record<string, any>;
  const A = r.A.map((row: number[]) => [...row, 0]);
  A.push([...new Array(30).fill(0), -1]);
  const bad = { ...r, A, B: [...r.B, [0, 0]], C: r.C.map((row: number[]) => [...row, 1]), order: 31 };
  const { verify } = await import('../../src/core/verify/index.js');
  assert.equal(verify('tf2ss', args, bad)?.ok, false);
});
