// Issue 11, first part: no hang on an overflowing matrix exponential, batch results one per
// problem line as each is solved, and lone carriage returns as line ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { solveJsonl, solveJsonlLines } from '../../src/core/tools/batch.js';
import { runTool } from '../../src/core/tools/call.js';

test('a time so large that t·A overflows is refused at once, never a hang', () => {
  const t0 = performance.now();
  // before: s = ceil(log2(Infinity)) squarings, a loop that never ended
  assert.throws(() => runTool('step', { A: [[-2]], B: [[1]], C: [[1]], t: [1e308] }), /matrix exponential .* cannot be computed/);
  // a finite t·‖A‖ needs at most 1024 squarings: c2d with Ts = 1e300 has its exact limit,
  // Ad = e^(−2Ts) = 0 and Bd = (1 − e^(−2Ts))/2 = 0.5 (closed form), at once
  const r = runTool('c2d', { A: [[-2]], B: [[1]], C: [[1]], Ts: 1e300 }) as { Ad: number[][]; Bd: number[][] };
  assert.equal(r.Ad[0][0], 0);
  assert.ok(Math.abs(r.Bd[0][0] - 0.5) <= 1e-15);
  assert.ok(performance.now() - t0 < 5000);
});

test('batch yields each result in input order, one per line', async () => {
  const text = ['{"id":"a","tool":"eig","args":{"A":[[0,1],[-2,-3]]}}', '{"id":"b","tool":"eig","args":{"A":[[1]]}}'].join('\n');
  const it = solveJsonlLines(text, { concurrency: 1 });
  const first = await it.next();
  assert.equal(first.done, false);
  assert.equal((first.value as { id: string }).id, 'a');
  const second = await it.next();
  assert.equal((second.value as { id: string }).id, 'b');
  assert.equal((await it.next()).done, true);
});

test('a lone carriage return ends a line: two problems stay two results', async () => {
  const text = '{"id":"a","tool":"eig","args":{"A":[[2]]}}\r{"id":"b","tool":"eig","args":{"A":[[3]]}}\r\n{"id":"c","tool":"eig","args":{"A":[[4]]}}';
  const out = await solveJsonl(text);
  assert.deepEqual(
    out.map((l) => l.id),
    ['a', 'b', 'c'],
  );
  // eig of a 1x1 matrix is its entry
  assert.deepEqual(
    out.map((l) => ('result' in l ? (l.result as { eigenvalues: number[][] }).eigenvalues[0][0] : NaN)),
    [2, 3, 4],
  );
});

test('limits that keep one call bounded: discrete steps, samples, transfer-function degree', () => {
  // before: a discrete step to t = 1e8 grew to 5 GB and died with a heap abort
  assert.throws(() => runTool('step', { A: [[0.5]], B: [[1]], C: [[1]], t: [1e8], Ts: 1 }), /1\.00e\+8 steps .* above the limit/);
  // before: rlocus of a degree-201 denominator ran for more than 600 s
  const den = [1, ...Array(201).fill(0)];
  assert.throws(() => runTool('rlocus', { num: [1], den }), /den has degree 201, above the size limit of 200/);
  // a degree within the limit still runs (1/(s+1): one pole at -1)
  assert.deepEqual((runTool('poles_zeros', { num: [1], den: [1, 1] }) as { poles: number[][] }).poles, [[-1, 0]]);
});

test('machine output fails closed: a result the verifier rejects leaves as an error with the failed check', async () => {
  // dlqr with an almost uncontrollable unstable mode (B = [1; 1e-17]): no stabilising gain can be
  // trusted (the mode at 1.2 is reached only through 1e-17); before, a gain left with exit 0
  const [bad] = await solveJsonl('{"id":"x","tool":"dlqr","args":{"A":[[1.1,0],[0,1.2]],"B":[[1],[1e-17]],"Q":[[1,0],[0,1]],"R":[[1]]}}');
  assert.ok('error' in bad, JSON.stringify(bad));
  assert.equal('result' in bad, false);
  // the textbook LQR (K = [√5 − 2, √5 − 2], turn.test.ts) passes every check and carries them
  const [good] = await solveJsonl('{"id":"y","tool":"lqr","args":{"A":[[0,1],[-2,-3]],"B":[[0],[1]],"Q":[[1,0],[0,1]],"R":[[1]]}}');
  assert.ok('result' in good && good.verification.ok === true, JSON.stringify(good));
  assert.ok(good.verification.checks.length >= 2 && good.verification.checks.every((c) => c.startsWith('ok: ')));
});
