/**
 * Compaction keeps the local engine's KV cache (agent/compact.ts), measured with the REAL
 * node-llama-cpp runtime on the generated tiny GGUF (test/fixtures/gguf.ts, no download): a
 * 13-turn design session (each earlier turn run for real by the deterministic path) goes
 * through the agent loop with the product's fixed prefix, its history compacted past 2,200
 * estimated tokens. The engine reports per step the prompt's tokens and those it evaluated
 * (the rest came from its cache). Chunked folds (the product): on the two turns after a fold
 * only the newest turn is evaluated. The naive policy (as many recent turns as fit, re-folded
 * every turn) re-evaluates the summary and the tail on those turns. bench/compaction.ts
 * prints the whole table. If the native binary cannot load, this fails: it never skips.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTinyGguf } from '../fixtures/gguf.js';
import { sessionTurns } from '../fixtures/conversation.js';
import { measureConversation, proseEngine, type TurnUsage } from '../fixtures/compactionRun.js';
import type { LlamaEngine } from '../../src/core/engines/llama.js';

const TURNS = 13;
const MAX_TOKENS = 2200;

let dir: string;
let engine: LlamaEngine;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'control-compaction-test-'));
  engine = await proseEngine(writeTinyGguf({}, dir), 8192);
});
after(async () => {
  await engine?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const show = (rows: TurnUsage[]) => rows.map((r) => `${r.turn}: ${r.evaluatedTokens}/${r.promptTokens}${r.refolded ? ` fold ${r.folded}` : ''}`).join(', ');

test('after a fold, the next two turns evaluate only their own tokens; re-folding every turn loses the cache', async (t) => {
  const turns = await sessionTurns(TURNS);
  const chunked = await measureConversation(engine, turns, { maxTokens: MAX_TOKENS });
  const sliding = await measureConversation(engine, turns, { maxTokens: MAX_TOKENS, policy: 'sliding' });
  t.diagnostic(`chunked (evaluated/prompt): ${show(chunked)}`);
  t.diagnostic(`sliding (evaluated/prompt): ${show(sliding)}`);

  // the first turn from a cold cache evaluates all of its prompt (the meter is honest)
  assert.equal(chunked[0]!.evaluatedTokens, chunked[0]!.promptTokens);
  const fold = chunked.findIndex((r) => r.refolded);
  assert.ok(fold > 0 && fold + 2 < TURNS, `a fold within the session (${show(chunked)})`);
  // the fold turn pays for its summary and tail once
  assert.ok(chunked[fold]!.evaluatedTokens > chunked[fold]!.promptTokens / 3, show(chunked));
  for (const r of [chunked[fold + 1]!, chunked[fold + 2]!]) {
    assert.ok(!r.refolded && r.folded === chunked[fold]!.folded, `turn ${r.turn} keeps the fold`);
    assert.ok(r.evaluatedTokens * 4 < r.promptTokens, `turn ${r.turn}: ${r.evaluatedTokens} of ${r.promptTokens} evaluated`);
  }
  // the naive policy on the same turns: the fold moves, the summary and the tail are evaluated again
  const after = (rows: TurnUsage[]) => rows.slice(fold + 1).reduce((s, r) => s + r.evaluatedTokens, 0);
  const moved = sliding.slice(fold + 1).filter((r) => r.refolded).length;
  assert.ok(moved >= (TURNS - fold - 1) / 2, `sliding re-folded on ${moved} of ${TURNS - fold - 1} turns`);
  assert.ok(after(sliding) > 2 * after(chunked), `tokens evaluated after the first fold: sliding ${after(sliding)}, chunked ${after(chunked)}`);
});
