// The local engine's prefix reuse, measured: prompt tokens evaluated per step with and
// without a reused KV cache, and time to first token cold vs warm (prefix prewarmed).
//
//   node --import tsx bench/llama.ts                 # the tiny generated model (no download)
//   node --import tsx bench/llama.ts model.gguf      # any GGUF on disk as well
//   options: --tools eig,lqr,... (default: the tools the product offers a model, compact schemas),
//            --threads N
//
// Rows: turn 1 with a cold cache (system + tools + question all evaluated), turn 1 after
// prewarm (only the question), and a tool step (after the tool result) evaluated from a cold
// cache and with the cache the previous step left. With random weights the tiny model is
// steered into its tool call by a token bias; a real model is asked a question that needs a
// tool, and if it answers without one a call is supplied so the tool step can still be timed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTinyGguf } from '../test/fixtures/gguf.js';
import { LlamaEngine, type LlamaBias } from '../src/core/engines/llama.js';
import type { ChatMessage, EngineEvent, EngineToolSpec, ToolCallRequest, Usage } from '../src/core/engines/types.js';
import { engineTools, MODEL_TOOLS, SYSTEM_PROMPT } from '../src/core/agent/prompt.js';
import { runTool } from '../src/core/tools/call.js';

// the product's own fixed prefix: what a user's first turn really pays for
const SYSTEM = SYSTEM_PROMPT;
const QUESTION = 'What are the eigenvalues of A = [[0, 1], [-2, -3]]? Is the system stable?';

interface Step {
  usage: Usage;
  ttftMs: number;
  totalMs: number;
  calls: ToolCallRequest[];
  text: string;
}

async function step(engine: LlamaEngine, messages: ChatMessage[], tools: EngineToolSpec[], maxTokens: number): Promise<Step> {
  const t0 = performance.now();
  let ttft = NaN;
  let usage: Usage | undefined;
  const calls: ToolCallRequest[] = [];
  let text = '';
  for await (const e of engine.generate(messages, { tools, maxTokens }) as AsyncIterable<EngineEvent>) {
    if (e.type === 'first_token' && Number.isNaN(ttft)) ttft = performance.now() - t0;
    else if (e.type === 'text') text += e.text;
    else if (e.type === 'tool_call') calls.push(e.call);
    else if (e.type === 'usage') usage = e.usage;
  }
  return { usage: usage!, ttftMs: ttft, totalMs: performance.now() - t0, calls, text };
}

export interface LlamaBenchRow {
  model: string;
  row: string;
  promptTokens: number;
  evaluatedTokens: number;
  ttftMs: number;
}

export async function benchModel(
  modelPath: string,
  opts: { tiny: boolean; tools: EngineToolSpec[]; threads?: number },
): Promise<{ rows: LlamaBenchRow[]; notes: string[] }> {
  let forceCall = false;
  let prefix: number[] = [];
  const bias = (position: number): LlamaBias[] => (forceCall && position < prefix.length ? [{ token: prefix[position]!, bias: 30 }] : []);
  const engine = new LlamaEngine({
    modelPath,
    contextSize: opts.tiny ? 32768 : 8192,
    maxParallelFunctionCalls: 1,
    sampling: { temperature: 0.7, seed: 1 },
    ...(opts.threads ? { threads: opts.threads } : {}),
    ...(opts.tiny ? { tokenBias: bias } : {}),
  });
  const info = await engine.load();
  const name = modelPath.split('/').pop()!;
  const notes = [
    `${name}: loaded in ${info.loadMs} ms (${JSON.stringify(info.phasesMs)}), chat format ${info.chatWrapper}, ${info.threads} threads, context ${info.contextSize}`,
  ];
  prefix = await engine.tokenize('<tool_call>\n{"name": "');
  const { tools } = opts;
  const turn: ChatMessage[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: QUESTION },
  ];
  const rows: LlamaBenchRow[] = [];
  const add = (row: string, s: Step) =>
    rows.push({ model: name, row, promptTokens: s.usage.promptTokens, evaluatedTokens: s.usage.evaluatedTokens, ttftMs: s.ttftMs });

  // turn 1, cold: nothing cached
  await engine.resetCache();
  add('turn 1, cold cache', await step(engine, turn, tools, 4));

  // turn 1 after prewarm (what a user's first question costs once activation prefilled)
  await engine.resetCache();
  const tp = performance.now();
  await engine.prewarm(SYSTEM, tools);
  const prefixTokens = (await engine.inspect()).contextTokens;
  notes.push(`${name}: prewarm of system prompt + ${tools.length} tool schemas = ${prefixTokens} tokens in ${Math.round(performance.now() - tp)} ms`);
  add('turn 1, prefix prewarmed', await step(engine, turn, tools, 4));
  // the same turn again, generating until the model calls a tool
  forceCall = opts.tiny;
  const s1 = await step(engine, turn, tools, opts.tiny ? 200 : 256);
  forceCall = false;

  // the tool step: after the call and its result
  let calls = s1.calls;
  if (calls.length === 0) {
    notes.push(`${name}: the model answered without a tool call; a call to eig was supplied to time the tool step`);
    calls = [
      {
        id: 'bench-1',
        name: 'eig',
        arguments: {
          A: [
            [0, 1],
            [-2, -3],
          ],
        },
      },
    ];
  }
  const results: ChatMessage[] = calls.map((c) => {
    let content: string;
    try {
      content = JSON.stringify(runTool(c.name, typeof c.arguments === 'string' ? {} : c.arguments));
    } catch (e) {
      content = JSON.stringify({ error: (e as Error).message });
    }
    return { role: 'tool', toolCallId: c.id, name: c.name, content };
  });
  const step2: ChatMessage[] = [...turn, { role: 'assistant', content: s1.text, toolCalls: calls }, ...results];
  const warm = await step(engine, step2, tools, 4);
  await engine.resetCache();
  const cold = await step(engine, step2, tools, 4);
  add('tool step, no reuse (cold cache)', cold);
  add('tool step, prefix reused', warm);
  await engine.dispose();
  return { rows, notes };
}

function table(rows: LlamaBenchRow[]): string {
  const head = '| model | step | prompt tokens | evaluated | re-evaluated | TTFT ms |';
  const sep = '|---|---|---:|---:|---:|---:|';
  const lines = rows.map(
    (r) =>
      `| ${r.model} | ${r.row} | ${r.promptTokens} | ${r.evaluatedTokens} | ${((100 * r.evaluatedTokens) / Math.max(1, r.promptTokens)).toFixed(1)}% | ${r.ttftMs.toFixed(0)} |`,
  );
  return [head, sep, ...lines].join('\n');
}

/** runs the bench; `argv`: GGUF paths and options; returns the Markdown table and notes */
export async function runLlamaBench(argv: string[]): Promise<string> {
  const args = [...argv];
  const opt = (name: string) => {
    const i = args.indexOf(name);
    if (i < 0) return undefined;
    const v = args[i + 1];
    args.splice(i, 2);
    return v;
  };
  // default: the compact schemas of the tools the product offers a model
  const names = opt('--tools');
  const threads = opt('--threads');
  const tools: EngineToolSpec[] = engineTools(names ? names.split(',') : MODEL_TOOLS);
  const dir = mkdtempSync(join(tmpdir(), 'control-llama-bench-'));
  try {
    const all: LlamaBenchRow[] = [];
    const notes: string[] = [];
    const models: [string, boolean][] = [[writeTinyGguf({}, dir), true], ...args.map((p): [string, boolean] => [p, false])];
    for (const [path, tiny] of models) {
      const r = await benchModel(path, { tiny, tools, ...(threads ? { threads: Number(threads) } : {}) });
      all.push(...r.rows);
      notes.push(...r.notes);
    }
    return `${table(all)}\n\n${notes.map((n) => `- ${n}`).join('\n')}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(await runLlamaBench(process.argv.slice(2)));
}

if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
