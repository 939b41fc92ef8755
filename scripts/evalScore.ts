/**
 * Scoring of ControlBench answers (benchmarks/controlbench.jsonl, format and rules in
 * benchmarks/README.md): tool choice, argument correctness, the numbers an answer states, the
 * content of conceptual answers, refusals and questions back, for any engine. Pure functions
 * over a turn's events, so the harness itself is testable.
 *
 * The rules are strict on purpose (issue 15): a number earns credit only when a tool result of
 * that turn holds it (full precision, any path) and the answer states it with its sign, or the
 * answer writes out how it was derived from tool-result numbers; canned text (the no-model help
 * text) and the question itself are removed before anything is read; a conceptual answer earns
 * credit for the content it states, never for the absence of a tool call.
 */
import { prepareArgs } from '../src/core/tools/call.js';
import type { TurnEvent } from '../src/core/agent/events.js';
import { NO_MODEL_MESSAGE } from '../src/core/agent/turn.js';

export interface ExpectedNumber {
  name: string;
  label?: string;
  value: number;
  rtol: number;
  path?: string;
  source?: string;
  ref?: string;
}

/** key terms a conceptual (or out-of-scope) answer must state, case-insensitive */
export interface ContentExpectation {
  /** every one of these */
  all?: string[];
  /** from each group, at least one (synonyms, spellings) */
  any?: string[][];
  /** a cited passage is required too: a 'reference' event or a citation in the text */
  cite?: boolean;
}

export interface Expect {
  tools: string[];
  any_tools?: string[];
  args?: Record<string, unknown>;
  numbers: ExpectedNumber[];
  no_tool?: boolean;
  error?: boolean;
  out_of_scope?: boolean;
  source?: string;
  sources?: string[];
  /** refusal questions: the answer must contain one of these (case-insensitive) */
  reason_any?: string[];
  /** conceptual and out-of-scope questions: what the answer must say */
  content?: ContentExpectation;
  /** the right answer is a question back about one of these, with no tool call and no invented numbers */
  ask?: { missing_any: string[] };
}

export interface Turn {
  question: string;
  expect: Expect;
}

/** a single-turn item has question/expect; a conversation has turns */
export interface Question {
  id: string;
  family: string;
  style?: string;
  question?: string;
  expect?: Expect;
  turns?: Turn[];
  note?: string;
}

/** the turns of an item: one for a single-turn item */
export function turnsOf(q: Question): Turn[] {
  if (q.turns?.length) return q.turns;
  if (q.question === undefined || !q.expect) throw new Error(`${q.id}: neither question/expect nor turns`);
  return [{ question: q.question, expect: q.expect }];
}

export interface TurnScore {
  /** the expected tool (or an accepted alternative) was called; for no-tool and ask turns: none was */
  tool: boolean;
  /** the expected arguments were passed (null when the question fixes none) */
  args: boolean | null;
  /** fraction of expected numbers credited (tool result and stated, or derived; null when none are expected) */
  numbers: number | null;
  /** the same, counting only the model's own text (not the tool results' Markdown) */
  numbersInText: number | null;
  /** refusal questions: the refusal's reason reached the answer */
  refusal: boolean | null;
  /** conceptual and out-of-scope questions: fraction of the required content stated */
  content: number | null;
  /** questions that must be asked back: a question back, no tool, no invented numbers */
  ask: boolean | null;
  /** this turn's score in [0, 1] (rules in benchmarks/README.md) */
  score: number;
  /** every applicable criterion in full */
  pass: boolean;
  toolsCalled: string[];
}

export interface Score extends Omit<TurnScore, 'score' | 'pass' | 'toolsCalled'> {
  id: string;
  family: string;
  /** mean of the turns' scores */
  score: number;
  /** every turn passes */
  pass: boolean;
  turns: TurnScore[];
  toolsCalled: string[];
  ms: number;
}

// digits glued to a name (x1, H2, log10) are part of the name, not a number
const NUM = /(?<![A-Za-z_\d.])-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g;

/** every number written in a text: 1.5, -2e-3, −0.25 (unicode minus), 1,234 is two numbers; not the 1 of x1 */
export function numbersIn(text: string): number[] {
  const out: number[] = [];
  for (const m of text.replace(/−/g, '-').matchAll(NUM)) {
    const x = Number(m[0]);
    if (Number.isFinite(x)) out.push(x);
  }
  return out;
}

/** every finite number in a result object, at any depth */
export function resultNumbers(v: unknown, out: number[] = []): number[] {
  if (typeof v === 'number') {
    if (Number.isFinite(v)) out.push(v);
  } else if (Array.isArray(v)) for (const x of v) resultNumbers(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) resultNumbers(x, out);
  return out;
}

/** fixed text the product prints whatever was asked: it earns nothing */
export const CANNED_TEXTS: readonly string[] = [NO_MODEL_MESSAGE];

/** the text with canned passages and verbatim copies of the question(s) removed */
export function withoutCanned(text: string, questions: readonly string[] = []): string {
  let t = text;
  for (const c of [...CANNED_TEXTS, ...questions.filter((q) => q.trim().length >= 8)]) t = t.split(c).join(' ');
  return t;
}

const near = (x: number, v: number, rtol: number) => Math.abs(x - v) <= Math.max(rtol * Math.abs(v), 1e-12);

/**
 * Numbers an answer derives in writing from tool-result numbers, e.g. "ωn = sqrt(2) = 1.41421",
 * "|−0.5| = 0.5", "2.5 / 0.5 = 5", "12.566 / (2π) = 2", "0.5 × 180/π = 28.6479",
 * "20 log10(2) = 6.0206": each operand must be a tool-result number (within rtol), and the
 * stated result must be the operation applied to the operands as written (within rtol).
 * Negation is not an operation. Returns the derived values.
 */
export function derivedNumbers(text: string, toolNums: readonly number[], rtol: number): number[] {
  const t = text.replace(/−/g, '-').replace(/[×·⋅]/g, '*').replace(/π/g, 'pi').replace(/√\s*/g, 'sqrt').replace(/≈|:=/g, '=');
  const N = String.raw`(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)`;
  const EQ = String.raw`\s*=\s*`;
  const fromTool = (x: number) => toolNums.some((r) => near(x, r, rtol));
  const out: number[] = [];
  const rules: [RegExp, (a: number, b: number) => number, number][] = [
    // [pattern, f(operands), operand count]
    [new RegExp(String.raw`sqrt\s*\(?\s*${N}\s*\)?${EQ}${N}`, 'g'), (a) => Math.sqrt(a), 1],
    [new RegExp(String.raw`(?:abs\s*\(\s*${N}\s*\)|\|\s*${N}\s*\|)${EQ}${N}`, 'g'), (a) => Math.abs(a), 1],
    [new RegExp(String.raw`20\s*\*?\s*log10\s*\(\s*${N}\s*\)${EQ}${N}`, 'g'), (a) => 20 * Math.log10(a), 1],
    [new RegExp(String.raw`${N}\s*/\s*\(?\s*2\s*\*?\s*pi\s*\)?${EQ}${N}`, 'g'), (a) => a / (2 * Math.PI), 1],
    [new RegExp(String.raw`(?:${N}\s*\*\s*2\s*\*?\s*pi|2\s*\*?\s*pi\s*\*\s*${N})${EQ}${N}`, 'g'), (a) => a * 2 * Math.PI, 1],
    [new RegExp(String.raw`${N}\s*\*\s*\(?\s*180\s*/\s*pi\s*\)?${EQ}${N}`, 'g'), (a) => (a * 180) / Math.PI, 1],
    [new RegExp(String.raw`${N}\s*\*\s*\(?\s*pi\s*/\s*180\s*\)?${EQ}${N}`, 'g'), (a) => (a * Math.PI) / 180, 1],
    [new RegExp(String.raw`${N}\s*\*\s*${N}${EQ}${N}`, 'g'), (a, b) => a * b, 2],
    [new RegExp(String.raw`${N}\s*/\s*${N}${EQ}${N}`, 'g'), (a, b) => a / b, 2],
  ];
  for (const [re, f, arity] of rules)
    for (const m of t.matchAll(re)) {
      const groups = m
        .slice(1)
        .filter((g) => g !== undefined)
        .map(Number);
      const z = groups.at(-1)!;
      const ops = groups.slice(0, arity);
      if (ops.length !== arity || !ops.every(fromTool)) continue;
      const want = f(ops[0], ops[1]);
      if (Number.isFinite(want) && near(z, want, rtol)) out.push(z);
    }
  return out;
}

function close(a: unknown, b: unknown, rtol = 1e-9): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= rtol * Math.max(1, Math.abs(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => close(x, b[i], rtol));
  return a === b;
}

/** poles as a set: order does not matter */
function sameArg(key: string, got: unknown, want: unknown): boolean {
  if (key === 'poles' && Array.isArray(got) && Array.isArray(want)) {
    const norm = (v: unknown[]) => v.map((p) => (typeof p === 'number' ? [p, 0] : p) as number[]).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    return close(norm(got), norm(want));
  }
  return close(got, want);
}

/** a term in a text: case-insensitive; terms of up to 3 characters as whole words */
export function hasTerm(text: string, term: string): boolean {
  const t = term.toLowerCase();
  if (t.length > 3) return text.toLowerCase().includes(t);
  const esc = t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${esc}(?![\\p{L}\\p{N}])`, 'iu').test(text);
}

/** fraction of the content requirements a text meets (each `all` term and each `any` group counts one) */
export function contentScore(text: string, c: ContentExpectation, cited: boolean): number {
  const checks = [...(c.all ?? []).map((t) => hasTerm(text, t)), ...(c.any ?? []).map((g) => g.some((t) => hasTerm(text, t)))];
  if (c.cite) checks.push(cited);
  return checks.length ? checks.filter(Boolean).length / checks.length : 0;
}

type Ev<T extends TurnEvent['type']> = Extract<TurnEvent, { type: T }>;

/**
 * Scores one turn. `earlier` are the questions of the conversation before this turn (numbers
 * in them are not invented when an answer repeats them).
 */
export function scoreOneTurn(turn: Turn, events: readonly TurnEvent[], earlier: readonly string[] = []): TurnScore {
  const e = turn.expect;
  const calls = events.filter((x): x is Ev<'tool_call'> => x.type === 'tool_call');
  const results = events.filter((x): x is Ev<'tool_result'> => x.type === 'tool_result');
  const asks = events.filter((x): x is Ev<'ask'> => x.type === 'ask');
  const toolsCalled = calls.map((c) => c.tool);
  const accepted = new Set([...e.tools, ...(e.any_tools ?? [])]);
  const any = e.any_tools ?? [];
  const called = new Set(toolsCalled);
  const noTool = !!e.no_tool || !!e.ask;
  const tool = noTool
    ? calls.length === 0
    : e.tools.filter((t) => !any.includes(t)).every((t) => called.has(t)) && (!any.length || any.some((t) => called.has(t)));

  let args: boolean | null = null;
  if (e.args && Object.keys(e.args).length) {
    const want = e.args;
    args = calls.some((c) => {
      if (!accepted.has(c.tool)) return false;
      let got: Record<string, unknown>;
      try {
        got = prepareArgs(c.tool, c.args).args;
      } catch {
        return false;
      }
      // the expected arguments coerced the same way (R = 1 -> [[1]]) where they form a whole call
      let expected: Record<string, unknown>;
      try {
        expected = prepareArgs(c.tool, want).args;
      } catch {
        expected = want;
      }
      return Object.keys(want).every((k) => k in got && sameArg(k, got[k], expected[k] ?? want[k]));
    });
  }

  const questions = [...earlier, turn.question];
  const modelText = withoutCanned(
    events
      .filter((x) => x.type === 'text')
      .map((x) => (x as { text: string }).text)
      .join(''),
    questions,
  );
  const shown = modelText + '\n' + results.map((r) => r.markdown).join('\n');

  let numbers: number | null = null;
  let numbersInText: number | null = null;
  if (e.numbers.length) {
    const toolNums = results.flatMap((r) => resultNumbers(r.result));
    const statedShown = numbersIn(shown);
    const statedOwn = numbersIn(modelText);
    const credited = (stated: number[], n: ExpectedNumber) =>
      (toolNums.some((r) => near(r, n.value, n.rtol)) && stated.some((x) => near(x, n.value, n.rtol))) ||
      derivedNumbers(modelText, toolNums, n.rtol).some((x) => near(x, n.value, n.rtol));
    numbers = e.numbers.filter((n) => credited(statedShown, n)).length / e.numbers.length;
    numbersInText = e.numbers.filter((n) => credited(statedOwn, n)).length / e.numbers.length;
  }
  const refusal = e.error
    ? e.reason_any?.length
      ? e.reason_any.some((r) => shown.toLowerCase().includes(r.toLowerCase()))
      : results.some((r) => r.error !== undefined)
    : null;

  const cited = events.some((x) => x.type === 'reference') || /\[\d+\]|\]\((?:https?|file):/.test(modelText);
  const content = e.content ? contentScore(modelText, e.content, cited) : null;

  let ask: boolean | null = null;
  if (e.ask) {
    const terms = e.ask.missing_any;
    const asked = asks.length > 0 || modelText.split(/(?<=[.?!])\s+/).some((s) => s.trim().endsWith('?') && terms.some((t) => hasTerm(s, t)));
    // numbers the model wrote that no question of the conversation contains are invented
    const given = questions.flatMap(numbersIn);
    const invented = numbersIn(modelText).some((x) => !given.some((g) => near(x, g, 1e-9)));
    ask = asked && calls.length === 0 && !invented;
  }

  // the turn's score: a gate for no-tool and question-back turns, else the mean of the criteria
  let score: number;
  let pass: boolean;
  if (e.ask) {
    score = ask ? 1 : 0;
    pass = !!ask;
  } else if (e.no_tool) {
    score = tool ? (content ?? 0) : 0;
    pass = score === 1;
  } else {
    const parts = [
      tool ? 1 : 0,
      ...(args === null ? [] : [args ? 1 : 0]),
      ...(numbers === null ? [] : [numbers]),
      ...(refusal === null ? [] : [refusal ? 1 : 0]),
    ];
    score = parts.reduce((a, b) => a + b, 0) / parts.length;
    pass = parts.every((p) => p === 1);
  }
  return { tool, args, numbers, numbersInText, refusal, content, ask, score, pass, toolsCalled };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const meanOf = (ts: readonly TurnScore[], k: 'numbers' | 'numbersInText' | 'content') => mean(ts.filter((t) => t[k] !== null).map((t) => t[k]!));
const allOf = (ts: readonly TurnScore[], k: 'args' | 'refusal' | 'ask') => {
  const xs = ts.filter((t) => t[k] !== null);
  return xs.length ? xs.every((t) => t[k]) : null;
};

/** an item's score from its turns' scores: the mean, and a pass when every turn passes */
export function combineTurns(q: Question, turns: readonly TurnScore[], ms = 0): Score {
  return {
    id: q.id,
    family: q.family,
    score: mean(turns.map((t) => t.score)) ?? 0,
    pass: turns.every((t) => t.pass),
    tool: turns.every((t) => t.tool),
    args: allOf(turns, 'args'),
    numbers: meanOf(turns, 'numbers'),
    numbersInText: meanOf(turns, 'numbersInText'),
    refusal: allOf(turns, 'refusal'),
    content: meanOf(turns, 'content'),
    ask: allOf(turns, 'ask'),
    turns: [...turns],
    toolsCalled: turns.flatMap((t) => t.toolsCalled),
    ms,
  };
}

/** scores a single-turn item (the events of its one turn) */
export function scoreTurn(q: Question, events: readonly TurnEvent[], ms = 0): Score {
  const [turn] = turnsOf(q);
  return combineTurns(q, [scoreOneTurn(turn, events)], ms);
}

export interface Summary {
  family: string;
  n: number;
  score: number;
  pass: number;
  tool: number;
  args: number | null;
  numbers: number | null;
  numbersInText: number | null;
  refusal: number | null;
  content: number | null;
  ask: number | null;
}

export function summarise(scores: readonly Score[]): Summary[] {
  const fams = [...new Set(scores.map((s) => s.family))];
  const frac = (ss: readonly Score[], k: 'args' | 'refusal' | 'ask') => mean(ss.filter((s) => s[k] !== null).map((s) => (s[k] ? 1 : 0)));
  const row = (family: string, ss: readonly Score[]): Summary => ({
    family,
    n: ss.length,
    score: mean(ss.map((s) => s.score)) ?? 0,
    pass: mean(ss.map((s) => (s.pass ? 1 : 0))) ?? 0,
    tool: mean(ss.map((s) => (s.tool ? 1 : 0))) ?? 0,
    args: frac(ss, 'args'),
    numbers: mean(ss.filter((s) => s.numbers !== null).map((s) => s.numbers!)),
    numbersInText: mean(ss.filter((s) => s.numbersInText !== null).map((s) => s.numbersInText!)),
    refusal: frac(ss, 'refusal'),
    content: mean(ss.filter((s) => s.content !== null).map((s) => s.content!)),
    ask: frac(ss, 'ask'),
  });
  return [
    ...fams.map((f) =>
      row(
        f,
        scores.filter((s) => s.family === f),
      ),
    ),
    row('all', scores),
  ];
}

const pct = (x: number | null) => (x === null ? '–' : `${(100 * x).toFixed(1)} %`);

export function summaryTable(rows: readonly Summary[]): string {
  return [
    '| family | items | score | pass | tool choice | arguments | numbers (answer) | numbers (model text) | refusals explained | content | asked back |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.family} | ${r.n} | ${pct(r.score)} | ${pct(r.pass)} | ${pct(r.tool)} | ${pct(r.args)} | ${pct(r.numbers)} | ${pct(r.numbersInText)} | ${pct(r.refusal)} | ${pct(r.content)} | ${pct(r.ask)} |`,
    ),
  ].join('\n');
}

/** engines side by side: per family, each engine's score and pass rate */
export function compareTable(engines: readonly { name: string; rows: readonly Summary[] }[]): string {
  const fams = [...new Set(engines.flatMap((e) => e.rows.map((r) => r.family)))];
  return [
    `| family | items | ${engines.map((e) => `${e.name} score | ${e.name} pass`).join(' | ')} |`,
    `|---|---:|${engines.map(() => '---:|---:').join('|')}|`,
    ...fams.map((f) => {
      const rs = engines.map((e) => e.rows.find((r) => r.family === f));
      return `| ${f} | ${rs.find(Boolean)?.n ?? 0} | ${rs.map((r) => `${pct(r?.score ?? null)} | ${pct(r?.pass ?? null)}`).join(' | ')} |`;
    }),
  ].join('\n');
}

/** `control solve <tool> '<json>'` -> the call it names (for the scripted reference engine) */
export function parseSource(source: string | undefined): { tool: string; args: Record<string, unknown> } | undefined {
  const m = source ? /control solve (\w+) '(.*)'$/s.exec(source.trim()) : null;
  if (!m) return undefined;
  try {
    return { tool: m[1], args: JSON.parse(m[2]) };
  } catch {
    return undefined;
  }
}
