/**
 * Scoring of ControlBench answers (benchmarks/controlbench.jsonl, format in
 * benchmarks/README.md): tool choice, argument correctness and the numbers an answer states,
 * for any engine. Pure functions over a turn's events, so the harness itself is testable.
 */
import { prepareArgs } from '../src/core/tools/call.js';
import type { TurnEvent } from '../src/core/agent/events.js';

export interface ExpectedNumber {
  name: string;
  label?: string;
  value: number;
  rtol: number;
}

export interface Question {
  id: string;
  family: string;
  question: string;
  expect: {
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
  };
}

export interface Score {
  id: string;
  family: string;
  /** the expected tool (or an accepted alternative) was called; for no-tool questions: none was */
  tool: boolean;
  /** the expected arguments were passed (null when the question fixes none) */
  args: boolean | null;
  /** fraction of expected numbers stated in the visible answer (null when none are expected) */
  numbers: number | null;
  /** fraction stated by the model in its own text (stricter) */
  numbersInText: number | null;
  /** refusal questions: the refusal reached the answer */
  refusal: boolean | null;
  toolsCalled: string[];
  ms: number;
}

/** every number written in a text: 1.5, -2e-3, −0.25 (unicode minus), 1,234 is two numbers */
export function numbersIn(text: string): number[] {
  const out: number[] = [];
  for (const m of text.replace(/−/g, '-').matchAll(/-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g)) {
    const x = Number(m[0]);
    if (Number.isFinite(x)) out.push(x);
  }
  return out;
}

function mentions(found: number[], n: ExpectedNumber): boolean {
  const tol = Math.max(n.rtol * Math.abs(n.value), 1e-9);
  // a sign may be carried by words ("± 1.39j", "decays at rate 2"): accept the magnitude too
  return found.some((x) => Math.abs(x - n.value) <= tol || Math.abs(Math.abs(x) - Math.abs(n.value)) <= tol);
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

export function scoreTurn(q: Question, events: readonly TurnEvent[], ms = 0): Score {
  const calls = events.filter((e): e is Extract<TurnEvent, { type: 'tool_call' }> => e.type === 'tool_call');
  const results = events.filter((e): e is Extract<TurnEvent, { type: 'tool_result' }> => e.type === 'tool_result');
  const toolsCalled = calls.map((c) => c.tool);
  const accepted = new Set([...q.expect.tools, ...(q.expect.any_tools ?? [])]);
  // every required tool outside the interchangeable group, and one of the group
  const any = q.expect.any_tools ?? [];
  const called = new Set(toolsCalled);
  const tool = q.expect.no_tool
    ? calls.length === 0
    : q.expect.tools.filter((t) => !any.includes(t)).every((t) => called.has(t)) && (!any.length || any.some((t) => called.has(t)));

  let args: boolean | null = null;
  if (q.expect.args && Object.keys(q.expect.args).length) {
    const want = q.expect.args;
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

  const modelText = events
    .filter((e) => e.type === 'text')
    .map((e) => (e as { text: string }).text)
    .join('');
  const visible = modelText + '\n' + results.map((r) => r.markdown).join('\n');
  let numbers: number | null = null;
  let numbersInText: number | null = null;
  if (q.expect.numbers.length) {
    const all = numbersIn(visible);
    const own = numbersIn(modelText);
    numbers = q.expect.numbers.filter((n) => mentions(all, n)).length / q.expect.numbers.length;
    numbersInText = q.expect.numbers.filter((n) => mentions(own, n)).length / q.expect.numbers.length;
  }
  const refusal = q.expect.error
    ? q.expect.reason_any?.length
      ? q.expect.reason_any.some((r) => visible.toLowerCase().includes(r.toLowerCase()))
      : results.some((r) => r.error !== undefined)
    : null;
  return { id: q.id, family: q.family, tool, args, numbers, numbersInText, refusal, toolsCalled, ms };
}

export interface Summary {
  family: string;
  n: number;
  tool: number;
  args: number | null;
  numbers: number | null;
  numbersInText: number | null;
  refusal: number | null;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

export function summarise(scores: readonly Score[]): Summary[] {
  const fams = [...new Set(scores.map((s) => s.family))];
  const row = (family: string, ss: readonly Score[]): Summary => ({
    family,
    n: ss.length,
    tool: mean(ss.map((s) => (s.tool ? 1 : 0)))!,
    args: mean(ss.filter((s) => s.args !== null).map((s) => (s.args ? 1 : 0))),
    numbers: mean(ss.filter((s) => s.numbers !== null).map((s) => s.numbers!)),
    numbersInText: mean(ss.filter((s) => s.numbersInText !== null).map((s) => s.numbersInText!)),
    refusal: mean(ss.filter((s) => s.refusal !== null).map((s) => (s.refusal ? 1 : 0))),
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

export function summaryTable(rows: readonly Summary[]): string {
  const pct = (x: number | null) => (x === null ? '–' : `${(100 * x).toFixed(1)} %`);
  return [
    '| family | answers | tool choice | arguments | numbers (answer) | numbers (model text) | refusals explained |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.family} | ${r.n} | ${pct(r.tool)} | ${pct(r.args)} | ${pct(r.numbers)} | ${pct(r.numbersInText)} | ${pct(r.refusal)} |`),
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
