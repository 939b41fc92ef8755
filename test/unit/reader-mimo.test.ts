/**
 * Reading MIMO transfer functions and zero-pole-gain models as users write them (reader/mimo.ts):
 * a matrix of transfer-function expressions (MATLAB's rules for a space between entries), MATLAB
 * cells in tf/zpk (literal, or names assigned in the message), python-control's nested lists;
 * shapes that read two ways are asked back; a state-space tool runs on the verified result of a
 * visible tf2ss pre-call; named conversions are saved. Expected entries are the polynomials the
 * notation denotes (MATLAB doc "tf": a MIMO model from cell arrays is the matrix of num{i,j}/den{i,j};
 * "zpk": each entry k(i,j)·Π(s − z{i,j})/Π(s − p{i,j})), and the realisation is checked by
 * evaluating the transfer matrix from those polynomials at test points (no value of the code
 * under test is an expected value).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Conversation, readTurn, executeReading, recordExecution, describeReading, type Reading } from '../../src/core/reader/index.js';
import { splitMatrixBody } from '../../src/core/reader/mimo.js';

type Call = Extract<Reading, { kind: 'call' }>;
const call = (r: Reading): Call => {
  assert.equal(r.kind, 'call', JSON.stringify(r));
  return r as Call;
};
const define = (r: Reading) => {
  assert.equal(r.kind, 'define', JSON.stringify(r));
  return r as Extract<Reading, { kind: 'define' }>;
};
const tfmOfReading = (r: Reading, i = 0) => {
  const s = define(r).defined[i].sys;
  assert.equal(s.kind, 'ss');
  assert.ok(s.kind === 'ss' && s.tfm, 'a transfer matrix is kept as written');
  return s as Extract<typeof s, { kind: 'ss' }> & { tfm: NonNullable<Extract<typeof s, { kind: 'ss' }>['tfm']> };
};

// ------------------------------------------------------------------ complex helpers (test only)
type Cx = [number, number];
const cmul = (a: Cx, b: Cx): Cx => [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];
const cdiv = (a: Cx, b: Cx): Cx => {
  const d = b[0] ** 2 + b[1] ** 2;
  return [(a[0] * b[0] + a[1] * b[1]) / d, (a[1] * b[0] - a[0] * b[1]) / d];
};
const polyval = (p: number[], s: Cx): Cx => p.reduce<Cx>((acc, c) => [cmul(acc, s)[0] + c, cmul(acc, s)[1]], [0, 0]);
/** C (sI − A)^-1 B + D by Cramer-free Gaussian elimination on complex numbers */
function ssAt(A: number[][], B: number[][], C: number[][], D: number[][], s: Cx): Cx[][] {
  const n = A.length,
    m = D[0].length;
  const M: Cx[][] = A.map((r, i) => [...r.map((a, j): Cx => [(i === j ? s[0] : 0) - a, i === j ? s[1] : 0]), ...B[i].map((b): Cx => [b, 0])]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.hypot(...M[r][c]) > Math.hypot(...M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = cdiv(M[r][c], M[c][c]);
      for (let k = 0; k < n + m; k++) {
        const x = cmul(f, M[c][k]);
        M[r][k] = [M[r][k][0] - x[0], M[r][k][1] - x[1]];
      }
    }
  }
  return D.map((row, i) =>
    row.map((d, j) => {
      let acc: Cx = [d, 0];
      for (let k = 0; k < n; k++) {
        const x = cmul([C[i][k], 0], cdiv(M[k][n + j], M[k][k]));
        acc = [acc[0] + x[0], acc[1] + x[1]];
      }
      return acc;
    }),
  );
}
const POINTS: Cx[] = [
  [0.5, 0],
  [-0.3, 1.7],
  [2, -0.8],
];
function assertRealises(r: Record<string, unknown>, num: number[][][], den: number[][][]) {
  for (const s of POINTS) {
    const G = ssAt(r.A as number[][], r.B as number[][], r.C as number[][], r.D as number[][], s);
    num.forEach((row, i) =>
      row.forEach((n, j) => {
        const want = cdiv(polyval(n, s), polyval(den[i][j], s));
        assert.ok(Math.hypot(want[0] - G[i][j][0], want[1] - G[i][j][1]) < 1e-9 * Math.max(1, Math.hypot(...want)), `G(${i + 1},${j + 1}) at ${s}`);
      }),
    );
  }
}

// ------------------------------------------------------------------ notations

test('a matrix of transfer-function expressions: rows by ;, entries by space or comma, each entry its polynomials', () => {
  const s = tfmOfReading(readTurn(new Conversation(), 'G = [1/(s+1) 2/(s+2); 0 1/(s+3)]'));
  assert.deepEqual(s.tfm.num, [
    [[1], [2]],
    [[0], [1]],
  ]);
  assert.deepEqual(s.tfm.den, [
    [
      [1, 1],
      [1, 2],
    ],
    [[1], [1, 3]],
  ]);
  const r = tfmOfReading(readTurn(new Conversation(), 'G(s) = [1/(s+1), (s+3)/(s^2+3*s+2)]'));
  assert.deepEqual(r.tfm.num, [[[1], [1, 3]]]);
  assert.deepEqual(r.tfm.den, [
    [
      [1, 1],
      [1, 3, 2],
    ],
  ]);
  // (s+3)/((s+1)(s+2)) shares the pole −1 with 1/(s+1): the realisation is minimal (McMillan degree 2: the
  // row [1/(s+1), (s+3)/((s+1)(s+2))] over (s+1)(s+2))
  assert.equal(r.A.length, 2);
});

test("MATLAB's whitespace rule: 'a - b' and 'a-b' are one entry, 'a -b' two; the last reads two ways and is asked", () => {
  assert.deepEqual(splitMatrixBody('1/(s+1) - 1/(s+2), 1/s').rows, [['1/(s+1) - 1/(s+2)', '1/s']]);
  assert.deepEqual(splitMatrixBody('1/(s+1)-1/(s+2) 1/s').rows, [['1/(s+1)-1/(s+2)', '1/s']]);
  const conv = new Conversation();
  const r = readTurn(conv, 'G = [1/(s+1) -1/(s+2)]');
  assert.equal(r.kind, 'ask');
  const ask = r as Extract<Reading, { kind: 'ask' }>;
  assert.equal(ask.candidates.length, 2);
  // each button reads as its candidate: a 1x2 row, or the SISO difference 1/(s+1) − 1/(s+2) = 1/((s+1)(s+2))
  const row = tfmOfReading(readTurn(new Conversation(), ask.candidates[0].prompt));
  assert.deepEqual(row.tfm.num, [[[1], [-1]]]);
  const siso = define(readTurn(new Conversation(), ask.candidates[1].prompt)).defined[0].sys;
  assert.equal(siso.kind, 'tf');
  assert.ok(siso.kind === 'tf');
  const c = siso.num[0] / siso.den[0];
  assert.deepEqual(
    siso.den.map((x) => x / siso.den[0]),
    [1, 3, 2],
  );
  assert.deepEqual(
    siso.num.map((x) => x / siso.den[0]).filter((x) => x !== 0),
    [1],
  );
  assert.ok(Number.isFinite(c));
});

test('MATLAB cells: tf({…}, {…}) (doc "tf": entry (i,j) is num{i,j}/den{i,j}), a shared denominator, and names assigned in the message', () => {
  const s = tfmOfReading(readTurn(new Conversation(), 'H = tf({[1 -1]; [1 2]}, {[1 1]; [1 4 5]})'));
  assert.deepEqual(s.tfm.num, [[[1, -1]], [[1, 2]]]);
  assert.deepEqual(s.tfm.den, [[[1, 1]], [[1, 4, 5]]]);
  assert.equal(s.A.length, 3, 'McMillan degree 1 + 2 (no common pole)');
  const shared = tfmOfReading(readTurn(new Conversation(), 'G = tf({1, [1 1]}, [1 2])'));
  assert.deepEqual(shared.tfm.den, [
    [
      [1, 2],
      [1, 2],
    ],
  ]);
  assert.equal(shared.A.length, 1, 'one shared pole: a minimal realisation has one state');
  const named = tfmOfReading(readTurn(new Conversation(), 'num = {1, [1 1]; 0, 2}; den = {[1 2], [1 3]; 1, [1 4]};\nG = tf(num, den)'));
  assert.deepEqual(named.tfm.num, [
    [[1], [1, 1]],
    [[0], [2]],
  ]);
});

test('MATLAB zpk cells (doc "zpk": k(i,j)·Π(s − z)/Π(s − p)); SISO zpk(z, p, k) stays a transfer function', () => {
  const s = tfmOfReading(readTurn(new Conversation(), 'Z = zpk({[],-1},{[-2],[-3 -4]},[1 2])'));
  assert.deepEqual(s.tfm.num, [[[1], [2, 2]]]);
  assert.deepEqual(s.tfm.den, [
    [
      [1, 2],
      [1, 7, 12],
    ],
  ]);
  const d = define(readTurn(new Conversation(), 'ct.zpk([-1], [-2, -3], 5)'));
  assert.deepEqual(d.defined[0].sys, { kind: 'tf', num: [5, 5], den: [1, 5, 6] });
  assert.deepEqual(d.notes, [], 'the constructor is read, not reported unreadable');
});

test("python-control's nested lists; two levels read two ways (a row or a column) and are asked", () => {
  const s = tfmOfReading(readTurn(new Conversation(), 'sys = ct.tf([[[1], [1, 1]]], [[[1, 2], [1, 3]]])'));
  assert.deepEqual(s.tfm.num, [[[1], [1, 1]]]);
  const r = readTurn(new Conversation(), 'sys = ct.tf([[1], [1, 1]], [[1, 2], [1, 3]])');
  assert.equal(r.kind, 'ask');
  const [row, col] = (r as Extract<Reading, { kind: 'ask' }>).candidates;
  assert.deepEqual(tfmOfReading(readTurn(new Conversation(), row.prompt)).tfm.num, [[[1], [1, 1]]]);
  assert.deepEqual(tfmOfReading(readTurn(new Conversation(), col.prompt)).tfm.num, [[[1]], [[1, 1]]]);
});

test('an improper entry is said, never dropped silently', () => {
  const r = readTurn(new Conversation(), 'G = [s^2/(s+1) 1/(s+2)]');
  assert.notEqual(r.kind, 'call');
  const said = JSON.stringify(r);
  assert.match(said, /improper|degree/i);
});

// ------------------------------------------------------------------ tools on a transfer matrix

test('a state-space tool on a transfer matrix: tf2ss runs first, visibly, and the tool on its verified realisation', async () => {
  const conv = new Conversation();
  readTurn(conv, 'G = [1/(s+1) 2/(s+2); 0 1/(s+3)]');
  for (const [msg, tool] of [
    ['step of G', 'step'],
    ['hinfnorm(G)', 'hinfnorm'],
    ['sigma(G)', 'sigma'],
  ] as const) {
    const r = call(readTurn(conv, msg));
    assert.equal(r.tool, tool);
    assert.deepEqual(
      r.pre?.map((p) => p.tool),
      ['tf2ss'],
    );
    assert.match(describeReading(r), new RegExp(`^Computed \`tf2ss\\(G\\)\`, then \`${tool}\\(A, B, C, D`));
    const calls = await executeReading(r, {});
    assert.deepEqual(
      calls.slice(0, 2).map((c) => c.tool),
      ['tf2ss', tool],
    );
    const pre = calls[0];
    assert.ok(pre.result && !calls[1].error, JSON.stringify(calls.map((c) => c.error)));
    assertRealises(
      pre.result,
      [
        [[1], [2]],
        [[0], [1]],
      ],
      [
        [
          [1, 1],
          [1, 2],
        ],
        [[1], [1, 3]],
      ],
    );
    // the tool ran on the pre-call's matrices, not on the reader's
    assert.deepEqual(calls[1].args.A, pre.result.A);
    recordExecution(conv, r, calls);
  }
  // H∞ of the triangular matrix: its peak singular value is at ω = 0, σ̄(G(0)) = σ̄([1 1; 0 1/3]); numpy:
  // np.linalg.svd([[1, 1], [0, 1/3]])[1][0] = 1.434258545910665, and a 200001-point sweep of σ̄(G(jω)) peaks there
  const h = await executeReading(call(readTurn(conv, 'hinfnorm(G)')), {});
  assert.ok(Math.abs((h[1].result!.hinf as number) - 1.434258545910665) < 1e-9);
});

test('tf2ss and zpk take the transfer matrix as written; ss2tf and single-loop tools are asked back with buttons', () => {
  const conv = new Conversation();
  readTurn(conv, 'G = [1/(s+1) 2/(s+2); 0 1/(s+3)]');
  for (const msg of ['tf2ss(G)', 'zpk(G)']) {
    const r = call(readTurn(conv, msg));
    assert.equal(r.pre, undefined);
    assert.deepEqual(r.args.num, [
      [[1], [2]],
      [[0], [1]],
    ]);
  }
  const back = readTurn(conv, 'ss2tf(G)');
  assert.equal(back.kind, 'ask');
  assert.deepEqual(
    (back as Extract<Reading, { kind: 'ask' }>).candidates.map((c) => c.prompt),
    ['tf2ss(G)', 'zpk(G)'],
  );
  const m = readTurn(conv, 'margins of G');
  assert.equal(m.kind, 'ask');
  assert.match((m as Extract<Reading, { kind: 'ask' }>).question, /2 inputs and 2 outputs/);
});

test('an interconnection takes the transfer matrix as {num, den}', () => {
  const conv = new Conversation();
  readTurn(conv, 'G = [1/(s+1) 2/(s+2); 0 1/(s+3)]');
  const r = call(readTurn(conv, 'T = feedback(G, eye(2))'));
  assert.deepEqual((r.args.sys1 as { num: unknown }).num, [
    [[1], [2]],
    [[0], [1]],
  ]);
});

test('a named conversion of a MIMO model is saved under its name: P = ss2tf(sys), then step of P', async () => {
  const conv = new Conversation();
  readTurn(conv, 'sys = ss([-1 0; 0 -2], [1 0; 0 1], [1 1], [0 0])');
  const r = call(readTurn(conv, 'P = ss2tf(sys)'));
  recordExecution(conv, r, await executeReading(r, {}));
  const i = conv.named('P');
  assert.ok(i !== undefined);
  const P = conv.systems[i!].sys;
  assert.ok(P.kind === 'ss' && P.tfm);
  // C(sI − A)^-1 B of the diagonal model: [1/(s+1), 1/(s+2)]
  assert.deepEqual(P.tfm.num, [[[1], [1]]]);
  assert.deepEqual(P.tfm.den, [
    [
      [1, 1],
      [1, 2],
    ],
  ]);
  const s = call(readTurn(conv, 'step of P'));
  assert.match(describeReading(s), /^Computed `tf2ss\(P\)`, then `step\(/);
});

test('a discrete transfer matrix keeps its sample time through the tf2ss pre-call', async () => {
  const conv = new Conversation();
  readTurn(conv, 'G(z) = [0.1/(z-0.9), 0.2/(z-0.5)] with Ts = 0.1 s');
  const r = call(readTurn(conv, 'step of G'));
  const calls = await executeReading(r, {});
  const step = calls.find((c) => c.tool === 'step')!;
  assert.equal(step.args.Ts, 0.1);
  // y[1] = C B = [0.1, 0.2] (the first sample after the step of each input)
  assert.deepEqual((step.result!.y as number[][][])[1][0], [0.1, 0.2]);
});

test('SISO is unchanged: a 1x1 matrix or a 1x1 cell is a transfer function', () => {
  assert.deepEqual(define(readTurn(new Conversation(), 'G = tf({[1 2]}, {[1 3 2]})')).defined[0].sys, { kind: 'tf', num: [1, 2], den: [1, 3, 2] });
  const r = call(readTurn(new Conversation(), 'step(tf([1 2], [1 3 2]))'));
  assert.equal(r.pre, undefined);
  assert.deepEqual(
    [r.args.num, r.args.den],
    [
      [1, 2],
      [1, 3, 2],
    ],
  );
});
