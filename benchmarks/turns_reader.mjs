#!/usr/bin/env node
// Measures the deterministic reader (no model) on the conversation families: every turn goes
// through `node dist/cli.js ask "<turn>" --session <file> --json`, one session file per item,
// and is scored strictly: the expected tools (one of any_tools), the expected args (coerced as
// the tool table does), every expected number in the answer with its sign within its rtol, and
// for a turn that must be asked back, no tool call and one of its terms in the answer (a term of
// one or two letters as a word). An item passes when all its turns do. This is a yardstick for
// the reader, not the ControlBench scorer (scripts/evalScore.ts).
// Run after `npm run build` (about 5 minutes):
//   node --import tsx benchmarks/turns_reader.mjs [id-prefix]   -> test-results/turns-reader.json
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareArgs } from '../src/core/tools/call.ts';
import { numbersIn } from '../scripts/evalScore.ts';
import { TURN_ITEMS } from './questions_turns.mjs';
import { CLI, ROOT } from './lib.mjs';

const close = (a, b, rtol = 1e-9) => {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= rtol * Math.max(1, Math.abs(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => close(x, b[i], rtol));
  if (a && b && typeof a === 'object' && typeof b === 'object') return Object.keys(b).every((k) => close(a[k], b[k], rtol));
  return a === b;
};
const poleSet = (v) => v.map((p) => (typeof p === 'number' ? [p, 0] : p)).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
const sameArg = (key, got, want) => (key === 'poles' && Array.isArray(got) && Array.isArray(want) ? close(poleSet(got), poleSet(want)) : close(got, want));
const coerced = (tool, args) => {
  try {
    return prepareArgs(tool, args).args;
  } catch {
    return undefined;
  }
};

function ask(question, session) {
  try {
    return JSON.parse(execFileSync(process.execPath, [CLI, 'ask', question, '--session', session, '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  } catch (e) {
    try {
      return JSON.parse(e.stdout); // a refusal exits 1 with the answer on stdout
    } catch {
      return { answer: `(crashed) ${e.stderr || e.message}`, calls: [] };
    }
  }
}

function score(e, r) {
  const called = new Set(r.calls.map((c) => c.tool));
  const any = e.any_tools ?? [];
  const tool = e.no_tool
    ? r.calls.length === 0
    : e.tools.filter((x) => !any.includes(x)).every((x) => called.has(x)) && (!any.length || any.some((x) => called.has(x)));
  let args = null;
  if (e.args) {
    const accepted = new Set([...e.tools, ...any]);
    args = r.calls.some((c) => {
      const got = accepted.has(c.tool) && coerced(c.tool, c.args);
      if (!got) return false;
      const want = coerced(c.tool, e.args) ?? e.args;
      return Object.keys(e.args).every((k) => k in got && sameArg(k, got[k], want[k] ?? e.args[k]));
    });
  }
  const found = numbersIn(r.answer);
  const missing = e.numbers.filter((x) => !found.some((v) => Math.abs(v - x.value) <= x.rtol * Math.abs(x.value))).map((x) => x.ref);
  const lower = r.answer.toLowerCase();
  const asked = e.ask
    ? e.ask.missing_any.some((w) => (w.length <= 2 ? new RegExp(`\\b${w}\\b`).test(r.answer) : lower.includes(w.toLowerCase())))
    : null;
  return { pass: tool && args !== false && missing.length === 0 && asked !== false, tool, args, missing, asked };
}

const only = process.argv[2];
const dir = join(tmpdir(), `turns-reader-${process.pid}`);
mkdirSync(dir, { recursive: true });
const out = [];
for (const item of TURN_ITEMS) {
  if (only && !item.id.startsWith(only)) continue;
  const session = join(dir, `${item.id}.json`);
  rmSync(session, { force: true });
  const turns = (item.turns ?? [{ question: item.question, expect: item.expect }]).map((t) => {
    const r = ask(t.question, session);
    return { question: t.question, ...score(t.expect, r), calls: r.calls.map((c) => c.tool), answer: r.answer.slice(0, 400) };
  });
  const pass = turns.every((t) => t.pass);
  out.push({ id: item.id, family: item.family, pass, turns });
  const what = (t) => (t.pass ? 'ok' : `[tool ${t.tool} args ${t.args} missing ${t.missing.length} asked ${t.asked} calls ${t.calls.join(',') || '-'}]`);
  process.stderr.write(`${pass ? '✔' : '✘'} ${item.id} ${turns.map(what).join(' | ')}\n`);
}
rmSync(dir, { recursive: true, force: true });
mkdirSync(join(ROOT, 'test-results'), { recursive: true });
writeFileSync(join(ROOT, 'test-results', 'turns-reader.json'), JSON.stringify(out, null, 1));
for (const f of [...new Set(out.map((x) => x.family))]) {
  const items = out.filter((x) => x.family === f);
  const turns = items.flatMap((x) => x.turns);
  console.log(`${f}: ${items.filter((x) => x.pass).length}/${items.length} items, ${turns.filter((x) => x.pass).length}/${turns.length} turns`);
}
