/**
 * `npm run eval -- --model <engine> [--replicates N] [--only FAMILY] [--limit N] [--product]`
 *
 * Runs ControlBench (benchmarks/controlbench.jsonl) through the agent loop with an engine and
 * scores tool choice, arguments and numbers (scripts/evalScore.ts). Engines: `scripted` (a
 * reference engine that calls the expected tool and states its numbers: a self-test of the
 * harness, and what CI runs), a .gguf path (local model), `openai` (--url, --openai-model).
 * --product sends questions through the whole product path (deterministic first).
 * Writes test-results/eval-<engine>.md and .json.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { runAgentTurn } from '../src/core/agent/loop.js';
import { runTurn } from '../src/core/agent/turn.js';
import type { TurnEvent } from '../src/core/agent/events.js';
import { createEngine, disposeEngines, parseModelFlag } from '../src/core/engines/index.js';
import { ScriptedEngine } from '../src/core/engines/scripted.js';
import type { ChatMessage, Engine } from '../src/core/engines/types.js';
import { parseSource, scoreTurn, summarise, summaryTable, type Question, type Score } from './evalScore.js';

export function loadQuestions(path = 'benchmarks/controlbench.jsonl'): Question[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/** the value at a path like "K[0][1]" or "eigenvalues[0][0]" in a result */
function at(obj: unknown, path: string): unknown {
  let v: unknown = obj;
  for (const part of path.match(/[^.[\]]+/g) ?? []) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[/^\d+$/.test(part) ? Number(part) : part];
  }
  return v;
}

const DINT = {
  A: [
    [0, 1],
    [0, 0],
  ],
  B: [[0], [1]],
};
/** illustrative systems for example questions (double integrator, lightly damped oscillator) */
const ILLUSTRATIONS: Record<string, Record<string, unknown>> = {
  lqr: {
    ...DINT,
    Q: [
      [1, 0],
      [0, 1],
    ],
    R: [[1]],
  },
  place: {
    ...DINT,
    poles: [
      [-1, 0],
      [-2, 0],
    ],
  },
  kalman: { A: DINT.A, G: DINT.B, C: [[1, 0]], Qn: [[1]], Rn: [[0.1]] },
  analyse: {
    A: [
      [-1, 0],
      [0, -2],
    ],
    B: [[1], [1]],
    C: [[1, 0]],
  },
  hinfnorm: {
    A: [
      [0, 1],
      [-1, -0.05],
    ],
    B: [[0], [1]],
    C: [[1, 0]],
    D: [[0]],
  },
};

/**
 * A scripted engine that answers one question as a careful model would: it makes the calls
 * the expected numbers were computed with (each number's `source`), then states each number
 * from the matching tool result.
 */
export function referenceEngine(q: Question): Engine {
  if (q.expect.no_tool)
    return new ScriptedEngine([
      q.expect.out_of_scope ? 'That is outside control engineering, so I cannot help with it here.' : 'Conceptually: (an explanation without numbers).',
    ]);
  const sources = [
    ...new Set(
      [q.expect.source, ...(q.expect.sources ?? []), ...q.expect.numbers.map((n) => (n as { source?: string }).source)].filter((x): x is string => !!x),
    ),
  ];
  const calls = sources.map(parseSource).filter((c): c is { tool: string; args: Record<string, unknown> } => !!c);
  // an expected tool whose call no number came from (c2d before eig of the result)
  for (const t of q.expect.tools)
    if (q.expect.args && !calls.some((c) => c.tool === t)) {
      const base = calls.find((c) => Object.keys(q.expect.args!).every((k) => k in c.args));
      calls.unshift({ tool: t, args: { ...(base?.args ?? {}), ...q.expect.args } });
      sources.unshift('');
    }
  // "show me an example": the illustrative system a model is told to choose
  if (!calls.length && ILLUSTRATIONS[q.expect.tools[0]]) calls.push({ tool: q.expect.tools[0], args: ILLUSTRATIONS[q.expect.tools[0]] });
  if (!calls.length) return new ScriptedEngine(['I need more information.']);
  const text = calls.map((c) => `<tool_call>${JSON.stringify({ name: c.tool, arguments: c.args })}</tool_call>`).join(' ');
  return new ScriptedEngine([
    `Computing. ${text}`,
    (messages: readonly ChatMessage[]) => {
      const tools = messages
        .filter((m) => m.role === 'tool')
        .slice(-calls.length)
        .map((m) => JSON.parse(m.content));
      const refusal = tools.find((t) => t.error);
      if (refusal) return `The solver refuses: ${refusal.error}`;
      const stated = q.expect.numbers.map((n) => {
        const src = (n as { source?: string }).source;
        const k = Math.max(0, src ? sources.indexOf(src) : 0);
        const v = at(tools[k]?.result, (n as { path?: string }).path ?? n.name);
        return `${n.label ?? n.name}: ${typeof v === 'number' ? v : JSON.stringify(v)}`;
      });
      return `Results: ${stated.join('; ')}.`;
    },
  ]);
}

async function collect(gen: AsyncGenerator<TurnEvent>): Promise<TurnEvent[]> {
  const out: TurnEvent[] = [];
  for await (const e of gen) out.push(e);
  return out;
}

export async function runEval(
  questions: readonly Question[],
  engineFor: (q: Question) => Engine | undefined,
  opts: { replicates?: number; product?: boolean; onScore?: (s: Score) => void } = {},
): Promise<Score[]> {
  const scores: Score[] = [];
  for (let r = 0; r < (opts.replicates ?? 1); r++) {
    for (const q of questions) {
      const engine = engineFor(q);
      const t0 = performance.now();
      const events = opts.product || !engine ? await collect(runTurn({ prompt: q.question }, { engine })) : await collect(runAgentTurn(engine, q.question));
      const s = scoreTurn(q, events, performance.now() - t0);
      scores.push(s);
      opts.onScore?.(s);
    }
  }
  return scores;
}

async function main(argv: string[]): Promise<void> {
  const flag = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const model = flag('--model') ?? 'scripted';
  const replicates = Number(flag('--replicates') ?? 1);
  const only = flag('--only');
  const limit = Number(flag('--limit') ?? Infinity);
  let qs = loadQuestions();
  if (only) qs = qs.filter((q) => q.family === only);
  qs = qs.slice(0, limit);
  let shared: Engine | undefined;
  if (model !== 'scripted') shared = await createEngine(parseModelFlag(model, process.env, { url: flag('--url'), openaiModel: flag('--openai-model') }));
  const t0 = performance.now();
  const scores = await runEval(qs, (q) => (model === 'scripted' ? referenceEngine(q) : shared), {
    replicates,
    product: argv.includes('--product'),
    onScore: (s) =>
      process.stderr.write(
        `${s.tool ? '✔' : '✘'} ${s.id} tools=[${s.toolsCalled.join(',')}] args=${s.args} numbers=${s.numbers?.toFixed(2) ?? '–'} ${s.ms.toFixed(0)} ms\n`,
      ),
  });
  await disposeEngines();
  const table = summaryTable(summarise(scores));
  const name = model.endsWith('.gguf') ? basename(model, '.gguf') : model;
  const md = `# ControlBench: ${name}\n\n${qs.length} questions × ${replicates} replicate(s), ${argv.includes('--product') ? 'product path (deterministic first)' : 'agent loop'}, ${((performance.now() - t0) / 1000).toFixed(1)} s, ${new Date().toISOString()}.\n\n${table}\n`;
  mkdirSync('test-results', { recursive: true });
  writeFileSync(join('test-results', `eval-${name}.md`), md);
  writeFileSync(join('test-results', `eval-${name}.json`), JSON.stringify(scores, null, 1));
  console.log(md);
}

if (process.argv[1] && /eval\.ts$/.test(process.argv[1])) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
}
