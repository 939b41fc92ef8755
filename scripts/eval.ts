/**
 * `npm run eval -- [--model <path.gguf | openai>] [--engines scripted,no-model,model]
 *   [--replicates N] [--only FAMILY] [--limit N] [--product]`
 *
 * Runs ControlBench (benchmarks/controlbench.jsonl) with several engines side by side and
 * scores every turn (scripts/evalScore.ts, rules in benchmarks/README.md): `scripted` (a
 * reference engine that calls the expected tools and states their numbers: a self-test of the
 * harness), `no-model` (the product path without a model, runTurn with no engine: what most
 * users run), and with --model a local GGUF or `openai` (--url, --openai-model) engine, through
 * the agent loop or, with --product, through the whole product path (deterministic first).
 * Multi-turn items run their turns in one conversation. Writes test-results/eval-<engine>.md
 * and .json per engine, and eval-compare.md with the engines' per-family scores side by side.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { runAgentTurn } from '../src/core/agent/loop.js';
import { runTurn } from '../src/core/agent/turn.js';
import { eventsToMarkdown, type TurnEvent } from '../src/core/agent/events.js';
import { createEngine, disposeEngines, parseModelFlag } from '../src/core/engines/index.js';
import { ScriptedEngine } from '../src/core/engines/scripted.js';
import type { ChatMessage, Engine } from '../src/core/engines/types.js';
import { Conversation } from '../src/core/reader/index.js';
import {
  combineTurns,
  compareTable,
  parseSource,
  scoreOneTurn,
  summarise,
  summaryTable,
  turnsOf,
  type Expect,
  type Question,
  type Score,
  type Summary,
  type Turn,
  type TurnScore,
} from './evalScore.js';

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

/** what a careful model says to a turn that needs no tool: the required content, or a question back */
function referenceText(e: Expect): string {
  if (e.ask) return `Before I compute anything: could you give me the ${e.ask.missing_any[0]}?`;
  const c = e.content;
  const terms = [...(c?.all ?? []), ...(c?.any ?? []).map((g) => g[0])];
  return terms.length ? `Key points: ${terms.join('; ')}.` : 'Conceptually: (an explanation without numbers).';
}

/**
 * A scripted engine that answers one turn as a careful model would: it makes the calls the
 * expected numbers were computed with (each number's `source`), then states each number from
 * the matching tool result; a turn without tools gets the required content or the question back.
 * A self-test of the harness: it must score full marks.
 */
export function referenceEngine(q: Question, turn: Turn = turnsOf(q)[0]): Engine {
  const e = turn.expect;
  if (e.no_tool || e.ask) return new ScriptedEngine([referenceText(e)]);
  const sources = [...new Set([e.source, ...(e.sources ?? []), ...e.numbers.map((n) => n.source)].filter((x): x is string => !!x))];
  const calls = sources.map(parseSource).filter((c): c is { tool: string; args: Record<string, unknown> } => !!c);
  // an expected tool whose call no number came from (c2d before eig of the result)
  for (const t of e.tools)
    if (e.args && !calls.some((c) => c.tool === t)) {
      const base = calls.find((c) => Object.keys(e.args!).every((k) => k in c.args));
      calls.unshift({ tool: t, args: { ...(base?.args ?? {}), ...e.args } });
      sources.unshift('');
    }
  // "show me an example": the illustrative system a model is told to choose
  if (!calls.length && ILLUSTRATIONS[e.tools[0]]) calls.push({ tool: e.tools[0], args: ILLUSTRATIONS[e.tools[0]] });
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
      const stated = e.numbers.map((n) => {
        const k = Math.max(0, n.source ? sources.indexOf(n.source) : 0);
        const v = at(tools[k]?.result, n.path ?? n.name);
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

/** the engine for one turn of an item; undefined: the no-model product path */
export type EngineFor = (q: Question, turn: Turn, index: number) => Engine | undefined;

/**
 * Runs every item, its turns in one conversation (the reader's Conversation through runTurn,
 * and for a model the earlier turns as history, as the chat passes them), and scores each turn.
 * Without an engine (or with `product`) a turn goes through the whole product path, runTurn,
 * deterministic reader first; with an engine and no `product`, through the agent loop alone.
 */
export async function runEval(
  questions: readonly Question[],
  engineFor: EngineFor,
  opts: { replicates?: number; product?: boolean; onScore?: (s: Score) => void } = {},
): Promise<Score[]> {
  const scores: Score[] = [];
  for (let r = 0; r < (opts.replicates ?? 1); r++) {
    for (const q of questions) {
      const t0 = performance.now();
      const conversation = new Conversation();
      const history: ChatMessage[] = [];
      const turnScores: TurnScore[] = [];
      const asked: string[] = [];
      for (const [i, turn] of turnsOf(q).entries()) {
        const engine = engineFor(q, turn, i);
        const agent = { history: history.slice(-8) };
        const events =
          opts.product || !engine
            ? await collect(runTurn({ prompt: turn.question, conversation }, { engine, agent }))
            : await collect(runAgentTurn(engine, turn.question, agent));
        turnScores.push(scoreOneTurn(turn, events, asked));
        asked.push(turn.question);
        const answer = eventsToMarkdown(events);
        history.push({ role: 'user', content: turn.question }, { role: 'assistant', content: answer.length > 4000 ? answer.slice(0, 4000) + '…' : answer });
      }
      const s = combineTurns(q, turnScores, performance.now() - t0);
      scores.push(s);
      opts.onScore?.(s);
    }
  }
  return scores;
}

/** the items of one family (--only), at most `limit` of them */
export function filterQuestions(qs: Question[], only?: string, limit = Infinity): Question[] {
  return (only ? qs.filter((q) => q.family === only) : qs).slice(0, limit);
}

async function main(argv: string[]): Promise<void> {
  const flag = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const model = flag('--model');
  const replicates = Number(flag('--replicates') ?? 1);
  const product = argv.includes('--product');
  const qs = filterQuestions(loadQuestions(), flag('--only'), Number(flag('--limit') ?? Infinity));
  // the engines side by side: the scripted reference, the no-model product path, and a model when configured
  const names = (flag('--engines') ?? (model && model !== 'scripted' ? 'scripted,no-model,model' : 'scripted,no-model')).split(',');
  const results: { name: string; rows: Summary[] }[] = [];
  mkdirSync('test-results', { recursive: true });
  for (const which of names) {
    let engineFor: EngineFor;
    let name = which;
    let how = 'agent loop';
    if (which === 'scripted') engineFor = referenceEngine;
    else if (which === 'no-model') {
      engineFor = () => undefined;
      how = 'product path without a model (the deterministic reader)';
    } else {
      if (!model) throw new Error('--engines model needs --model <path.gguf | openai>');
      const shared = await createEngine(parseModelFlag(model, process.env, { url: flag('--url'), openaiModel: flag('--openai-model') }));
      engineFor = () => shared;
      name = model.endsWith('.gguf') ? basename(model, '.gguf') : model;
      how = product ? 'product path (deterministic first, the model for the rest)' : 'agent loop';
    }
    const t0 = performance.now();
    const scores = await runEval(qs, engineFor, {
      replicates: which === 'model' ? replicates : 1,
      product: which === 'model' && product,
      onScore: (s) =>
        process.stderr.write(
          `[${name}] ${s.pass ? '✔' : '✘'} ${s.id} score=${s.score.toFixed(2)} tools=[${s.toolsCalled.join(',')}] args=${s.args} numbers=${s.numbers?.toFixed(2) ?? '–'} ${s.ms.toFixed(0)} ms\n`,
        ),
    });
    const rows = summarise(scores);
    results.push({ name, rows });
    const md = `# ControlBench: ${name}\n\n${qs.length} items, ${how}, ${((performance.now() - t0) / 1000).toFixed(1)} s, ${new Date().toISOString()}.\n\n${summaryTable(rows)}\n`;
    writeFileSync(join('test-results', `eval-${name}.md`), md);
    writeFileSync(join('test-results', `eval-${name}.json`), JSON.stringify(scores, null, 1));
    console.log(md);
  }
  await disposeEngines();
  const cmp = `# ControlBench: engines side by side\n\n${qs.length} items; score = mean per-turn score (benchmarks/README.md), pass = every criterion of every turn.\n\n${compareTable(results)}\n`;
  writeFileSync(join('test-results', 'eval-compare.md'), cmp);
  console.log(cmp);
}

if (process.argv[1] && /eval\.ts$/.test(process.argv[1])) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
}
