/**
 * Scores the deterministic request reader (src/core/reader/) on the request corpus
 * (test/fixtures/requests/: requests.jsonl, conversations.jsonl, expected.json from expected.py)
 * and on the held-out sets (holdout.jsonl, holdout-conversations.jsonl: written independently,
 * ids prefixed "ho-"; holdout2.jsonl, holdout2-conversations.jsonl: another author and voice,
 * ids prefixed "h2-"; holdout3.jsonl, holdout3-conversations.jsonl: yet other voices, ids prefixed
 * "h3-"), reported in one table with the held-out categories prefixed "holdout:", "holdout2:" and
 * "holdout3:" and a total line for each set.
 *
 * Per request or conversation turn:
 *   right  - a solvable expectation read as a call of an accepted tool, every expected argument
 *            equal, every other read argument a stated default, and the last executed call of
 *            that tool matching the SciPy reference values; or a define expectation read as define;
 *   asked  - the reader asked back ('ask') or gave up to a model ('none');
 *   wrong  - a call for an ask/model/define expectation, or a call with a wrong tool, argument or
 *            number (or an error when running it).
 * Assertions, over the corpus and all held-out sets together: no wrong reading; right >= 95 % of
 * the solvable expectations (tool+args and define); every ask/model expectation asked back or 'none'.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Conversation, readTurn, executeReading, recordExecution } from '../../src/core/reader/index.js';
import {
  acceptedTools,
  argEqual,
  compareValues,
  isAskOrModel,
  isCall,
  isDefine,
  loadCorpus,
  type Expect,
  type ExpectedEntry,
  type RequestSet,
} from '../unit/reader-corpus-score.js';

type Outcome = 'right' | 'asked' | 'wrong' | 'missed';

/** the reading as the reader's API states it */
type Reading =
  | { kind: 'call'; tool: string; args: Record<string, unknown>; origins: Record<string, { from: string; text?: string }> }
  | { kind: 'ask'; question: string; candidates: { label: string; prompt: string }[] }
  | { kind: 'define' }
  | { kind: 'none' };

interface ExecutedCall {
  tool: string;
  args: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: string;
  intermediate?: boolean;
}

type SetName = 'corpus' | 'holdout' | 'holdout2' | 'holdout3';

interface Scored {
  id: string;
  set: SetName;
  category: string;
  expect: Expect;
  outcome: Outcome;
  why?: string;
}

const { requests, conversations, holdout, holdout2, holdout3, expected } = loadCorpus();
const SETS: [SetName, RequestSet][] = [
  ['corpus', { requests, conversations }],
  ['holdout', holdout],
  ['holdout2', holdout2],
  ['holdout3', holdout3],
];
/** the table's category of a request: held-out categories are prefixed "holdout:" / "holdout2:" / "holdout3:" */
const categoryOf = (set: SetName, category: string) => (set === 'corpus' ? category : `${set}:${category}`);

function short(v: unknown, n = 160): string {
  const s = JSON.stringify(v);
  return s.length > n ? s.slice(0, n) + '…' : s;
}

function describe(r: Reading): string {
  if (r.kind === 'call') return `call ${r.tool} ${short(r.args)}`;
  if (r.kind === 'ask') return `ask "${r.question}"`;
  return r.kind;
}

/** one request or turn: read it (in its conversation), run it when it is a call, and judge it */
async function scoreTurn(
  conv: Conversation,
  set: SetName,
  id: string,
  category: string,
  turn: { text: string; command?: string; selection?: string; expect: Expect },
  ref: ExpectedEntry | undefined,
): Promise<Scored> {
  const base = { id, set, category, expect: turn.expect };
  let raw: ReturnType<typeof readTurn>;
  try {
    raw = readTurn(conv, turn.text, { command: turn.command, selection: turn.selection ? { text: turn.selection } : undefined });
  } catch (err) {
    return { ...base, outcome: 'wrong', why: `readTurn threw: ${(err as Error).message}` };
  }
  const r = raw as Reading;
  const e = turn.expect;
  if (isAskOrModel(e)) {
    if (r.kind === 'ask' || r.kind === 'none') return { ...base, outcome: 'asked' };
    if (r.kind === 'call') return { ...base, outcome: 'wrong', why: `expected ask/model, read ${describe(r)}` };
    return { ...base, outcome: 'missed', why: `expected ask/model, read ${describe(r)}` };
  }
  if (isDefine(e)) {
    if (r.kind === 'define') return { ...base, outcome: 'right' };
    if (r.kind === 'call') return { ...base, outcome: 'wrong', why: `expected define, read ${describe(r)}` };
    return { ...base, outcome: 'asked', why: `expected define, read ${describe(r)}` };
  }
  if (!isCall(e)) return { ...base, outcome: 'wrong', why: 'malformed expectation' };
  if (r.kind === 'ask' || r.kind === 'none') return { ...base, outcome: 'asked', why: describe(r) };
  if (r.kind !== 'call') return { ...base, outcome: 'wrong', why: `expected a call, read ${describe(r)}` };
  const tools = acceptedTools(e);
  if (!tools.includes(r.tool)) return { ...base, outcome: 'wrong', why: `tool: expected ${tools.join('|')}, read ${describe(r)}` };
  for (const [k, v] of Object.entries(e.args)) {
    if (!(k in r.args)) return { ...base, outcome: 'wrong', why: `argument ${k} missing; read ${describe(r)}` };
    if (!argEqual(k, v, r.args[k])) return { ...base, outcome: 'wrong', why: `argument ${k}: expected ${short(v)}, read ${short(r.args[k])}` };
  }
  for (const k of Object.keys(r.args)) {
    if (k in e.args) continue;
    const from = r.origins?.[k]?.from;
    if (from !== 'default') return { ...base, outcome: 'wrong', why: `argument ${k} = ${short(r.args[k])} (from ${from ?? '?'}) was not asked for` };
  }
  if (!ref) return { ...base, outcome: 'wrong', why: 'no reference values in expected.json' };
  let calls: ExecutedCall[];
  try {
    calls = (await executeReading(raw, {})) as ExecutedCall[];
  } catch (err) {
    return { ...base, outcome: 'wrong', why: `executeReading threw: ${(err as Error).message}` };
  }
  const last = [...calls].reverse().find((c) => c.tool === r.tool);
  // a result that is a system (a closed loop, a reduced or converted model, a pre-call's system) is
  // saved in the conversation under its name, as the chat turn does (agent/turn.ts), so later turns can use it
  recordExecution(conv, raw as Parameters<typeof recordExecution>[1], calls);
  if (!last) return { ...base, outcome: 'wrong', why: `no ${r.tool} call was executed (${calls.map((c) => c.tool).join(', ')})` };
  if (last.error || !last.result) return { ...base, outcome: 'wrong', why: `${r.tool} failed: ${last.error ?? 'no result'}` };
  const bad = compareValues(ref.values, last.args, last.result);
  if (bad.length) return { ...base, outcome: 'wrong', why: `numbers: ${bad.slice(0, 2).join('; ')}` };
  return { ...base, outcome: 'right' };
}

async function scoreAll(): Promise<Scored[]> {
  const out: Scored[] = [];
  for (const [set, { requests: qs, conversations: cs }] of SETS) {
    for (const q of qs) out.push(await scoreTurn(new Conversation(), set, q.id, categoryOf(set, q.category), q, expected[q.id]));
    for (const c of cs) {
      const conv = new Conversation();
      for (const [i, t] of c.turns.entries()) {
        const id = `${c.id}#${i}`;
        out.push(await scoreTurn(conv, set, id, categoryOf(set, `conv:${c.category}`), t, expected[id]));
      }
    }
  }
  return out;
}

function report(scored: Scored[]): void {
  const cats = [...new Set(scored.map((s) => s.category))];
  const rows = cats.map((cat) => {
    const xs = scored.filter((s) => s.category === cat);
    const count = (o: Outcome) => xs.filter((s) => s.outcome === o).length;
    return [cat, xs.length, count('right'), count('asked'), count('wrong') + count('missed')];
  });
  const total = (name: string, xs: Scored[]) => [
    name,
    xs.length,
    ...(['right', 'asked'] as Outcome[]).map((o) => xs.filter((s) => s.outcome === o).length),
    xs.filter((s) => s.outcome === 'wrong' || s.outcome === 'missed').length,
  ];
  const tots = [
    total(
      'total (corpus)',
      scored.filter((s) => s.set === 'corpus'),
    ),
    total(
      'total (holdout)',
      scored.filter((s) => s.set === 'holdout'),
    ),
    total(
      'total (holdout2)',
      scored.filter((s) => s.set === 'holdout2'),
    ),
    total(
      'total (holdout3)',
      scored.filter((s) => s.set === 'holdout3'),
    ),
    total('total', scored),
  ];
  const head = ['category', 'n', 'read right', 'asked back', 'wrong'];
  const w = head.map((h, i) => Math.max(h.length, ...[...rows, ...tots].map((r) => String(r[i]).length)));
  const line = (r: (string | number)[]) => r.map((x, i) => (i ? String(x).padStart(w[i]) : String(x).padEnd(w[i]))).join('  ');
  console.log(['', line(head), ...rows.map(line), ...tots.map(line)].join('\n'));
  const rate = (label: string, xs: Scored[]) => {
    const solvable = xs.filter((s) => !isAskOrModel(s.expect));
    const right = solvable.filter((s) => s.outcome === 'right').length;
    return `solvable read right${label}: ${right}/${solvable.length} (${((100 * right) / Math.max(1, solvable.length)).toFixed(1)} %)`;
  };
  const sets: SetName[] = ['corpus', 'holdout', 'holdout2', 'holdout3'];
  console.log(
    [
      ...sets.map((set) =>
        rate(
          ` (${set})`,
          scored.filter((s) => s.set === set),
        ),
      ),
      rate('', scored),
    ].join('\n'),
  );
  const wrong = scored.filter((s) => s.outcome === 'wrong' || s.outcome === 'missed');
  if (wrong.length) console.log(['wrong:', ...wrong.map((s) => `  ${s.id}: ${s.why}`)].join('\n'));
  const asked = scored.filter((s) => !isAskOrModel(s.expect) && s.outcome === 'asked');
  if (asked.length) console.log(['asked back although solvable:', ...asked.map((s) => `  ${s.id}${s.why ? ': ' + s.why : ''}`)].join('\n'));
}

test('expected.json has reference numbers for every solvable expectation', () => {
  const missing: string[] = [];
  const check = (id: string, e: Expect) => {
    if (!isCall(e)) return;
    const ref = expected[id];
    if (!ref || !ref.values || !Object.keys(ref.values).length) missing.push(`${id}: no values`);
    else if (JSON.stringify(acceptedTools({ tool: ref.tool })) !== JSON.stringify(acceptedTools(e)))
      missing.push(`${id}: tool ${short(ref.tool)} != ${short(e.tool)}`);
  };
  for (const [, set] of SETS) {
    for (const q of set.requests) check(q.id, q.expect);
    for (const c of set.conversations) c.turns.forEach((t, i) => check(`${c.id}#${i}`, t.expect));
  }
  assert.deepEqual(missing, [], 'regenerate with: python3 test/fixtures/requests/expected.py');
  const ids = SETS.flatMap(([, set]) => [...set.requests.map((q) => q.id), ...set.conversations.map((c) => c.id)]);
  assert.equal(new Set(ids).size, ids.length, 'ids are unique');
});

test('the reader reads the corpus and the held-out sets: no wrong reading, >= 95 % right, ask/model asked back', async () => {
  const scored = await scoreAll();
  report(scored);
  const wrong = scored.filter((s) => s.outcome === 'wrong');
  assert.deepEqual(
    wrong.map((s) => `${s.id}: ${s.why}`),
    [],
    'wrong readings',
  );
  const solvable = scored.filter((s) => !isAskOrModel(s.expect));
  const right = solvable.filter((s) => s.outcome === 'right').length;
  assert.ok(right >= 0.95 * solvable.length, `read right ${right}/${solvable.length} < 95 %`);
  const unhandled = scored.filter((s) => isAskOrModel(s.expect) && s.outcome !== 'asked');
  assert.deepEqual(
    unhandled.map((s) => `${s.id}: ${s.why}`),
    [],
    'ask/model expectations must be asked back or left to a model',
  );
});
