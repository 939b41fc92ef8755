// Issue 11: the solver threads of the one verified call path (tools/runner.ts). Solvers run on
// solver threads under a time and a heap budget and the caller's cancellation; a thread over
// budget or dead is replaced; the calling thread stays free; concurrent turns keep their own
// call ids. Fail-closed results and argument checks: test/unit/runner.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ControlError } from '../../src/core/errors.js';
import { callTool, SolverPool } from '../../src/core/tools/runner.js';
import { solveJsonl } from '../../src/core/tools/batch.js';

const tmp = mkdtempSync(join(tmpdir(), 'control-runner-'));

/** a thread script standing in for the solver thread: behaves as `body` says on each job */
function fakeWorker(name: string, body: string): string {
  const f = join(tmp, `${name}.js`);
  writeFileSync(
    f,
    `const { parentPort } = require('node:worker_threads');\nparentPort.postMessage({ ready: true });\nparentPort.on('message', (job) => {\n${body}\n});\n`,
  );
  return f;
}

// A = -2I + superdiagonal ones, n = 200: a care that takes seconds on a solver thread
const n = 200;
const BIG = {
  A: Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? -2 : j === i + 1 ? 1 : 0))),
  B: Array.from({ length: n }, () => [1]),
  Q: Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))),
  R: [[1]],
};

test('a call over its time budget is stopped with a message naming the tool, the size and the setting; the next call gets a fresh thread', async () => {
  await assert.rejects(callTool('care', BIG, { timeoutS: 0.05 }), (e: unknown) => {
    assert.ok(e instanceof ControlError);
    assert.equal(e.code, 'limit');
    assert.match(e.message, /^care \(200 states, 1 input\) did not finish within its time budget of 50 ms/);
    assert.match(e.message, /control\.solveTimeoutSeconds/);
    assert.match(e.message, /--timeout/);
    return true;
  });
  // the textbook LQR (K = [√5 − 2, √5 − 2]) on the replacement thread
  const r = await callTool('lqr', {
    A: [
      [0, 1],
      [-2, -3],
    ],
    B: [[0], [1]],
    Q: [
      [1, 0],
      [0, 1],
    ],
    R: [[1]],
  });
  const k = Math.sqrt(5) - 2;
  assert.ok(Math.abs(r.result.K[0][0] - k) < 1e-12 && Math.abs(r.result.K[0][1] - k) < 1e-12, JSON.stringify(r.result.K));
  assert.equal(r.verification?.ok, true);
});

test('cancelling a call ends it at once (the solver thread is terminated), with code cancelled', async () => {
  const ac = new AbortController();
  const t0 = performance.now();
  setTimeout(() => ac.abort(), 100);
  await assert.rejects(
    callTool('care', BIG, { signal: ac.signal }),
    (e: unknown) =>
      e instanceof ControlError &&
      e.code === 'cancelled' &&
      /^care \(200 states, 1 input\) was cancelled before it finished; nothing was computed\.$/.test(e.message),
  );
  // not after the solve finished: the rejection came well before a 200-state care could end
  const ms = performance.now() - t0;
  const solo = performance.now();
  await callTool('care', BIG);
  const full = performance.now() - solo;
  assert.ok(ms < full / 2, `cancel took ${ms.toFixed(0)} ms, the whole solve ${full.toFixed(0)} ms`);
  // an already-aborted signal never starts the call
  await assert.rejects(callTool('eig', { A: [[1]] }, { signal: AbortSignal.abort() }), /was cancelled before it finished/);
});

test('the calling thread stays free while a solver thread computes', async () => {
  const pool = new SolverPool({
    size: 1,
    file: fakeWorker(
      'busy',
      'const end = Date.now() + 1500; while (Date.now() < end) {} parentPort.postMessage({ id: job.id, ok: true, result: {}, ms: 1500 });',
    ),
  });
  let ticks = 0;
  const timer = setInterval(() => ticks++, 50);
  await pool.run('eig', {}, { verify: false, timeoutS: 10, what: 'busy' });
  clearInterval(timer);
  await pool.close();
  // 1.5 s of solving; a blocked event loop would tick once at most
  assert.ok(ticks >= 10, `only ${ticks} timer ticks during 1.5 s of solving`);
});

test('a thread that runs out of its heap budget, or exits, is a clear error and is replaced', async () => {
  const hog = new SolverPool({ size: 1, memoryMb: 64, file: fakeWorker('hog', 'const keep = []; for (;;) keep.push(new Array(1e5).fill(Math.random()));') });
  await assert.rejects(
    hog.run('lqr', {}, { verify: false, timeoutS: 60, what: 'lqr (3 states)' }),
    /^ControlError: lqr \(3 states\) stopped: it ran out of its memory budget of 64 MB \(setting control\.solveMemoryMB\)/,
  );
  await hog.close();
  let calls = 0;
  const crash = new SolverPool({
    size: 1,
    file: fakeWorker('crash', 'if (job.args.crash) process.exit(3); parentPort.postMessage({ id: job.id, ok: true, result: { x: 1 }, ms: 0 });'),
  });
  await assert.rejects(crash.run('eig', { crash: true }, { verify: false, timeoutS: 10, what: 'eig' }), /eig stopped: the solver thread exited \(code 3\)/);
  const r = await crash.run('eig', {}, { verify: false, timeoutS: 10, what: 'eig' });
  calls++;
  assert.deepEqual(r.result, { x: 1 });
  assert.equal(crash.started, 2, 'the dead thread was replaced by a new one');
  await crash.close();
  assert.equal(calls, 1);
});

test('batch: a line over its budget is an error line; the others are solved, in input order', async () => {
  const lines = [
    { id: 'a', tool: 'eig', args: { A: [[2]] } },
    { id: 'slow', tool: 'care', args: BIG },
    { id: 7, tool: 'eig', args: { A: [[3]] } },
    { id: { x: 1 }, tool: 'eig', args: { A: [[4]] } },
  ].map((l) => JSON.stringify(l));
  const out = await solveJsonl(lines.join('\n'), { timeoutS: 0.05, concurrency: 2 });
  assert.deepEqual(
    out.map((l) => l.id),
    ['a', 'slow', 7, 'line-4'],
  );
  assert.ok('result' in out[0] && 'result' in out[2]);
  assert.ok('error' in out[1] && /did not finish within its time budget/.test(out[1].error), JSON.stringify(out[1]));
  assert.ok('error' in out[3] && /"id" must be a string or a number/.test(out[3].error));
});

test('two turns at once: each result carries the id of its own call (solves are awaited, turns interleave)', async () => {
  const { runTurn } = await import('../../src/core/agent/turn.js');
  const collect = async (prompt: string, command: string) => {
    const events = [];
    for await (const e of runTurn({ prompt, command })) events.push(e);
    return events;
  };
  const [a, b] = await Promise.all([
    collect('A = -2*eye(120) + diag(ones(119,1),1), B = ones(120,1), Q = eye(120), R = 1', 'care'),
    collect('A=[0 1; -2 -3]', 'eig'),
  ]);
  for (const events of [a, b]) {
    const calls = events.filter((e) => e.type === 'tool_call').map((e) => (e as { id: string }).id);
    const results = events.filter((e) => e.type === 'tool_result').map((e) => (e as { id: string }).id);
    assert.equal(calls.length, 1);
    assert.deepEqual(results, calls);
  }
  // eig of the companion matrix: -1 and -2
  const r = b.find((e) => e.type === 'tool_result') as unknown as { result: { eigenvalues: number[][] } };
  assert.deepEqual(
    r.result.eigenvalues.map(([re]) => Math.round(re * 1e9) / 1e9).sort((x, y) => x - y),
    [-2, -1],
  );
});
