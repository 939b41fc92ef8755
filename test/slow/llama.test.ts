/**
 * The llama engine with the REAL node-llama-cpp runtime on a tiny generated GGUF (no
 * download): load, streaming, cancellation, a function call parsed by node-llama-cpp,
 * prefix reuse measured with the sequence's token meter, think budget, prewarm + state file,
 * errors. Random weights talk nonsense, so a position-dependent token bias walks the model
 * through the chat format's markers where a test needs them (the tool-call prefix, <think>);
 * everything after that (grammar, parsing, KV cache) is node-llama-cpp's own.
 *
 * If the native binary cannot load, these tests fail: they never skip.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as NLC from 'node-llama-cpp';
import { writeTinyGguf } from '../fixtures/gguf.js';
import { LlamaEngine, resolveModel, type LlamaBias } from '../../src/core/engines/llama.js';
import { stripNulls, toChatFunctions, toGrammarSchema } from '../../src/core/engines/llamaFormat.js';
import type { ChatMessage, EngineEvent, EngineToolSpec, Usage } from '../../src/core/engines/types.js';
import { ControlError } from '../../src/core/errors.js';

const SYSTEM = 'You are a control engineering assistant. Use the tools for every number.';
const TOOLS: EngineToolSpec[] = [
  {
    name: 'set_mode',
    description: 'Sets the controller mode.',
    parameters: {
      type: 'object',
      properties: { mode: { type: 'string', enum: ['fast', 'slow'] }, verbose: { type: 'boolean', description: 'more output' } },
      required: ['mode'],
      additionalProperties: false,
    },
  },
];

let dir: string;
let modelPath: string;
let engine: LlamaEngine;
/** what the dynamic bias steers the random model towards */
let mode: 'text' | 'tool' | 'think' = 'text';
let ids: { toolPrefix: number[]; think: number; nl: number; banned: number[] };

function bias(position: number): LlamaBias[] {
  if (mode === 'tool') return position < ids.toolPrefix.length ? [{ token: ids.toolPrefix[position]!, bias: 30 }] : [];
  if (mode === 'think' && position === 0) return [{ token: ids.think, bias: 30 }];
  if (mode === 'think' && position === 1) return [{ token: ids.nl, bias: 30 }];
  // plain prose: no chat markers, and a few ordinary words so likely that the end-of-turn
  // token (which node-llama-cpp does not let anyone bias) is all but never sampled
  return [...ids.banned.map((token) => ({ token, bias: 'never' as const })), { text: 'the system is stable', bias: 15 }];
}

interface Timed {
  e: EngineEvent;
  t: number;
}
async function collect(it: AsyncIterable<EngineEvent>, onEvent?: (e: EngineEvent) => void): Promise<Timed[]> {
  const t0 = performance.now();
  const out: Timed[] = [];
  for await (const e of it) {
    out.push({ e, t: performance.now() - t0 });
    onEvent?.(e);
  }
  return out;
}
const usageOf = (ev: Timed[]): Usage => {
  const u = ev.find((x) => x.e.type === 'usage');
  assert.ok(u, 'every step ends with a usage event');
  return (u.e as { usage: Usage }).usage;
};
const texts = (ev: Timed[]) => ev.filter((x) => x.e.type === 'text').map((x) => (x.e as { text: string }).text);

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'control-llama-test-'));
  modelPath = writeTinyGguf({}, dir);
  engine = new LlamaEngine({
    modelPath,
    contextSize: 2048,
    maxParallelFunctionCalls: 1,
    sampling: { temperature: 0.7, seed: 7 },
    tokenBias: bias,
  });
  await engine.load();
  ids = {
    // QwenChatWrapper's function-call prefix (what node-llama-cpp watches for)
    toolPrefix: await engine.tokenize('<tool_call>\n{"name": "'),
    think: (await engine.tokenize('<think>'))[0]!,
    nl: (await engine.tokenize('\n'))[0]!,
    banned: (await Promise.all(['<tool_call>', '<think>', '</think>', '<|im_start|>'].map((t) => engine.tokenize(t)))).flat(),
  };
});

after(async () => {
  await engine?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

test('loads the generated GGUF with the CPU build, all cores, the Qwen chat format', async () => {
  const info = await engine.load();
  assert.equal(info.chatWrapper, 'Qwen');
  assert.equal(info.threads, os.availableParallelism());
  assert.equal(info.contextSize, 2048);
  assert.ok(info.phasesMs.model < 5000, `tiny model loads fast (${info.phasesMs.model} ms)`);
  assert.equal(engine.id, 'llama');
  assert.match(engine.label, /tiny-qwen2-test \(local\)/);
});

test('streams text chunk by chunk, first_token first, usage last', async () => {
  mode = 'text';
  const ev = await collect(
    engine.generate(
      [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: 'Hello' },
      ],
      { tools: [], maxTokens: 16 },
    ),
  );
  assert.equal(ev[0]!.e.type, 'first_token');
  assert.equal(ev.at(-1)!.e.type, 'usage');
  const textEvents = ev.filter((x) => x.e.type === 'text');
  assert.ok(textEvents.length >= 2, `several text chunks (${textEvents.length})`);
  // really streamed: the first chunk arrived well before the step ended, not all at the end
  const first = textEvents[0]!.t;
  const last = ev.at(-1)!.t;
  assert.ok(first < last && new Set(textEvents.map((x) => x.t)).size > 1, `first chunk at ${first.toFixed(1)} ms, end at ${last.toFixed(1)} ms`);
  const u = usageOf(ev);
  assert.ok(u.outputTokens > 1 && u.outputTokens <= 16);
  assert.ok(u.promptTokens > 0);
});

test('a function call through the real engine comes out as a parsed tool_call, markup never as text', async () => {
  mode = 'tool';
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: 'Set the mode to fast.' },
  ];
  const ev = await collect(engine.generate(messages, { tools: TOOLS, maxTokens: 120 }));
  const calls = ev.filter((x) => x.e.type === 'tool_call').map((x) => (x.e as Extract<EngineEvent, { type: 'tool_call' }>).call);
  assert.equal(calls.length, 1, JSON.stringify(ev.map((x) => x.e)));
  const call = calls[0]!;
  assert.equal(call.name, 'set_mode');
  assert.equal(typeof call.arguments, 'object');
  const args = call.arguments as Record<string, unknown>;
  assert.ok(args.mode === 'fast' || args.mode === 'slow', JSON.stringify(args));
  // an optional argument is either given (boolean) or left out: never the grammar's null
  assert.ok(!('verbose' in args) || typeof args.verbose === 'boolean', JSON.stringify(args));
  for (const t of texts(ev)) assert.doesNotMatch(t, /tool_call|"name"/);
  assert.ok(ev.findIndex((x) => x.e.type === 'tool_call') < ev.findIndex((x) => x.e.type === 'usage'));

  // ---- the next tool step: only the tool result (and the turn markers) is evaluated
  mode = 'text';
  const step2: ChatMessage[] = [
    ...messages,
    { role: 'assistant', content: texts(ev).join(''), toolCalls: [call] },
    { role: 'tool', toolCallId: call.id, name: call.name, content: JSON.stringify({ mode: args.mode, ok: true }) },
  ];
  const warm = usageOf(await collect(engine.generate(step2, { tools: TOOLS, maxTokens: 3 })));
  await engine.resetCache();
  const cold = usageOf(await collect(engine.generate(step2, { tools: TOOLS, maxTokens: 3 })));
  assert.equal(warm.promptTokens, cold.promptTokens, 'the same prompt both times');
  assert.ok(cold.evaluatedTokens >= cold.promptTokens, `a cold cache evaluates the whole prompt (${cold.evaluatedTokens}/${cold.promptTokens})`);
  assert.ok(warm.evaluatedTokens * 5 < warm.promptTokens, `a warm tool step evaluates only its new tokens: ${warm.evaluatedTokens} of ${warm.promptTokens}`);
});

test('prefix reuse across turns: a second turn evaluates its own tokens only', async () => {
  mode = 'text';
  const turn1: ChatMessage[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: 'Is the system stable?' },
  ];
  const ev1 = await collect(engine.generate(turn1, { tools: TOOLS, maxTokens: 4 }));
  const turn2: ChatMessage[] = [...turn1, { role: 'assistant', content: texts(ev1).join('') }, { role: 'user', content: 'And controllable?' }];
  const u2 = usageOf(await collect(engine.generate(turn2, { tools: TOOLS, maxTokens: 2 })));
  assert.ok(u2.evaluatedTokens * 5 < u2.promptTokens, `${u2.evaluatedTokens} of ${u2.promptTokens}`);
});

test('an abort ends the stream promptly, and the engine serves the next step', async () => {
  mode = 'text';
  const ctl = new AbortController();
  let abortedAt = 0;
  const t0 = performance.now();
  const ev = await collect(engine.generate([{ role: 'user', content: 'Talk for a long time.' }], { tools: [], maxTokens: 1500, signal: ctl.signal }), (e) => {
    if (e.type === 'text' && !abortedAt) {
      abortedAt = performance.now();
      ctl.abort();
    }
  });
  const endedAfter = performance.now() - abortedAt;
  assert.ok(abortedAt > t0);
  assert.ok(endedAfter < 2000, `ended ${endedAfter.toFixed(0)} ms after the abort`);
  const u = usageOf(ev);
  assert.ok(u.outputTokens < 100, `stopped early (${u.outputTokens} tokens)`);

  // already aborted: nothing happens, nothing is thrown
  const none = await collect(engine.generate([{ role: 'user', content: 'x' }], { tools: [], signal: AbortSignal.abort() }));
  assert.deepEqual(none, []);

  // a consumer that stops iterating stops generation too
  for await (const e of engine.generate([{ role: 'user', content: 'Go on.' }], { tools: [], maxTokens: 1500 })) if (e.type === 'text') break;

  const next = await collect(engine.generate([{ role: 'user', content: 'Hi' }], { tools: [], maxTokens: 3 }));
  assert.ok(usageOf(next).outputTokens > 0);
});

test('think budget: node-llama-cpp closes <think> on overrun and the answer follows', async () => {
  mode = 'think';
  const ev = await collect(engine.generate([{ role: 'user', content: 'Think, then answer.' }], { tools: [], maxTokens: 20, thinkBudget: 5 }));
  const thinking = ev.filter((x) => x.e.type === 'thinking');
  assert.ok(thinking.length >= 1 && thinking.length <= 5, `${thinking.length} thinking chunks`);
  const lastThinking = ev.map((x) => x.e.type).lastIndexOf('thinking');
  const firstText = ev.findIndex((x) => x.e.type === 'text');
  assert.ok(firstText > lastThinking, 'the answer comes after the closed thought');
  for (const t of texts(ev)) assert.doesNotMatch(t, /think>/);
  mode = 'text';
});

test('prewarm evaluates the fixed prefix once; a state file restores it in a new process', async () => {
  const stateFile = join(dir, 'prefix.state');
  const a = new LlamaEngine({ modelPath, contextSize: 2048, stateFile });
  await a.prewarm(SYSTEM, TOOLS);
  const sa = await a.inspect();
  assert.ok(sa.contextTokens > 50 && sa.inputTokens === sa.contextTokens, JSON.stringify(sa));
  assert.ok(existsSync(stateFile) && existsSync(stateFile + '.json'));
  await a.prewarm(SYSTEM, TOOLS); // idempotent
  assert.equal((await a.inspect()).inputTokens, sa.inputTokens);
  await a.dispose();

  const b = new LlamaEngine({ modelPath, contextSize: 2048, stateFile, tokenBias: bias });
  await b.prewarm(SYSTEM, TOOLS);
  const sb = await b.inspect();
  assert.equal(sb.contextTokens, sa.contextTokens);
  assert.equal(sb.inputTokens, 0, 'loaded from disk, nothing evaluated');
  mode = 'text';
  const u = usageOf(
    await collect(
      b.generate(
        [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: 'Hi' },
        ],
        { tools: TOOLS, maxTokens: 2 },
      ),
    ),
  );
  assert.ok(u.evaluatedTokens <= u.promptTokens - sa.contextTokens + 1, `first turn pays only its own tokens: ${u.evaluatedTokens} of ${u.promptTokens}`);
  await b.dispose();

  // another prefix: the state file does not match and is not used
  const c = new LlamaEngine({ modelPath, contextSize: 2048, stateFile });
  await c.prewarm(SYSTEM + ' Be brief.', TOOLS);
  assert.ok((await c.inspect()).inputTokens > 0);
  await c.dispose();
});

test('clear errors: missing model, not a GGUF file, unresolved hf: model without consent', async () => {
  const missing = join(dir, 'nope.gguf');
  const e1 = new LlamaEngine({ modelPath: missing });
  await assert.rejects(
    async () => {
      for await (const _ of e1.generate([{ role: 'user', content: 'hi' }], { tools: [] }));
    },
    (e: unknown) =>
      e instanceof ControlError && e.code === 'unsupported' && e.message === `no model file at ${missing}: set control.model.path or run Control: Select Model`,
  );
  const junk = join(dir, 'junk.gguf');
  writeFileSync(junk, 'not a model at all');
  await assert.rejects(new LlamaEngine({ modelPath: junk }).load(), (e: unknown) => e instanceof ControlError && /not a GGUF model file/.test(e.message));

  assert.equal(await resolveModel(modelPath, { directory: dir }), modelPath);
  await assert.rejects(
    resolveModel('hf:someone/some-model-GGUF:Q4_K_M', { directory: dir }),
    (e: unknown) => e instanceof ControlError && e.code === 'unsupported' && /Select Model/.test(e.message),
  );
});

test('tool schemas: optional arguments nullable, anyOf -> oneOf, unenforceable keywords dropped', () => {
  const s = toGrammarSchema({
    type: 'object',
    properties: {
      A: { type: 'array', description: 'matrix', items: { type: 'array', items: { type: 'number' } } },
      Ts: { type: 'number', minimum: 0, description: 'sample time' },
      p: { type: 'array', items: { anyOf: [{ type: 'number' }, { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 }] } },
    },
    required: ['A'],
    additionalProperties: false,
  }) as Record<string, any>;
  assert.deepEqual(s.properties.A, { description: 'matrix', type: 'array', items: { type: 'array', items: { type: 'number' } } });
  assert.deepEqual(s.properties.Ts, { description: 'sample time', oneOf: [{ type: 'number' }, { type: 'null' }] });
  assert.deepEqual(s.properties.p.oneOf[0].items, {
    oneOf: [{ type: 'number' }, { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 }],
  });
  assert.deepEqual(stripNulls({ A: [[1]], Ts: null, p: null }, { type: 'object', required: ['A'], properties: {} }), { A: [[1]] });
});

test('every tool of the tool table compiles to a node-llama-cpp grammar', async () => {
  const { TOOLS: table } = await import('../../src/core/tools/table.js');
  const lib: typeof NLC = await import('node-llama-cpp');
  const llama = await lib.getLlama({ gpu: false, maxThreads: os.availableParallelism() });
  const fns = toChatFunctions(table.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })));
  for (const [name, f] of Object.entries(fns)) {
    await assert.doesNotReject(llama.createGrammarForJsonSchema(f.params as any), name);
  }
});

test("the lookup tools compile too; use_tool's grammar takes any tool's arguments", async () => {
  const { LOOKUP_TOOLS } = await import('../../src/core/agent/prompt.js');
  const lib: typeof NLC = await import('node-llama-cpp');
  const llama = await lib.getLlama({ gpu: false, maxThreads: os.availableParallelism() });
  const fns = toChatFunctions(LOOKUP_TOOLS);
  const use = await llama.createGrammarForJsonSchema(fns.use_tool!.params as any);
  const args = {
    name: 'c2d',
    arguments: {
      A: [
        [0, 1],
        [-2, -3],
      ],
      B: [[0], [1]],
      C: [[1, 0]],
      Ts: 0.1,
      method: 'zoh',
    },
  };
  assert.deepEqual(use.parse(JSON.stringify(args)), args);
  const more = await llama.createGrammarForJsonSchema(fns.more_tools!.params as any);
  assert.deepEqual(more.parse('{"query": "Kalman filter"}'), { query: 'Kalman filter' });
});
