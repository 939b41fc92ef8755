#!/usr/bin/env node
// Checks benchmarks/controlbench.jsonl: the format, the family counts, the tool names against
// the tool table, and every expected number by re-running its `source` command
// (node dist/cli.js solve <tool> '<args>' --json) and comparing. Numbers with a `ref` (the
// design family) come from the independent design_ref.json instead: the stored value must be
// that file's, and the solver must agree with it within the number's rtol; each disagreement
// is reported with both values. Every scored number must also agree, within its rtol, with an
// independent value: reference.json (benchmarks/reference.py: numpy, scipy, python-control)
// or, for the design family, design_ref.json; a number without one fails. Items with `turns`
// are checked turn by turn. Run after `npm run build`:
//   node benchmarks/verify.mjs [file]
// Exit code 0 when every check passes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { CLI, ROOT, expectsOf, getPath, independentProblems, parseSource, questionsOf, relErr, solve } from './lib.mjs';

// the core families (each at least MIN_PER_FAMILY items); further families (multi-turn, typos,
// asked back, ...) may be added by name
const FAMILIES = ['analysis', 'lqr', 'placement', 'frequency', 'discretisation', 'estimation', 'design', 'concepts'];
const MIN_PER_FAMILY = 12;
const REF_FAMILIES = new Set(['design', 'followup', 'typos_units', 'ask_back', 'design_spec']);
const MIN_DESIGN = 30;
const MIN_TOTAL = 114;
const SAME = 1e-12; // the solvers are deterministic: a re-run must reproduce the stored value

const file = process.argv[2] ?? join(ROOT, 'benchmarks', 'controlbench.jsonl');
const table = JSON.parse(execFileSync(process.execPath, [CLI, 'tools', '--json'], { encoding: 'utf8' }));
const schemaOf = new Map(table.map((t) => [t.name, t.parameters]));

// the independent references by design key: design_ref.json (design family) and turns_ref.json (the conversation families)
const REF = { ...JSON.parse(readFileSync(join(ROOT, 'benchmarks', 'design_ref.json'), 'utf8')).values };
for (const [k, v] of Object.entries(JSON.parse(readFileSync(join(ROOT, 'benchmarks', 'turns_ref.json'), 'utf8')).values)) {
  if (REF[k]) throw new Error(`turns_ref.json and design_ref.json both define ${k}`);
  REF[k] = v;
}
const INDEPENDENT = JSON.parse(readFileSync(join(ROOT, 'benchmarks', 'reference.json'), 'utf8'));
const problems = [];
let refChecked = 0;
let refWorst = { err: 0, what: '' };
const cache = new Map();
function run(source) {
  if (!cache.has(source)) {
    const [tool, args] = parseSource(source);
    cache.set(source, solve(tool, args));
  }
  return cache.get(source);
}

const ids = new Set();
const counts = Object.fromEntries(FAMILIES.map((f) => [f, 0]));
let numbersChecked = 0;
let refusalsChecked = 0;
const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim());

for (const [i, text] of lines.entries()) {
  let q;
  try {
    q = JSON.parse(text);
  } catch (e) {
    problems.push(`line ${i + 1}: not JSON (${e.message})`);
    continue;
  }
  const fail = (msg) => problems.push(`${q.id ?? `line ${i + 1}`}: ${msg}`);
  if (typeof q.id !== 'string' || ids.has(q.id)) fail('missing or duplicate id');
  ids.add(q.id);
  if (typeof q.family !== 'string' || !/^[a-z][a-z0-9_-]*$/.test(q.family)) fail(`bad family ${q.family}`);
  else counts[q.family] = (counts[q.family] ?? 0) + 1;
  if (!q.id.startsWith(`${q.family}-`)) fail('id does not start with the family');
  if (q.turns !== undefined && (!Array.isArray(q.turns) || !q.turns.length || q.question !== undefined || q.expect !== undefined))
    fail('turns must be a non-empty list, and then question/expect are per turn');
  const asked = questionsOf(q);
  for (const [t, e] of expectsOf(q).entries()) {
    const question = asked[t];
    if (typeof question !== 'string' || !question.trim()) fail('empty question');
    if (!e || !Array.isArray(e.tools) || !Array.isArray(e.numbers) || typeof e.no_tool !== 'boolean') {
      fail('expect needs tools[], numbers[] and no_tool');
      continue;
    }
    // content: what a no-tool answer must state; an echo of the question must not satisfy it
    if (e.no_tool && !e.ask && !(e.content?.all?.length || e.content?.any?.length)) fail('a no-tool question needs content terms');
    for (const term of [...(e.content?.all ?? []), ...(e.content?.any ?? []).flat(), ...(e.ask?.missing_any ?? [])])
      if (typeof term !== 'string' || !term.trim()) fail(`empty content term`);
      else if (!e.ask && asked.slice(0, t + 1).some((x) => x.toLowerCase().includes(term.toLowerCase()))) fail(`content term '${term}' occurs in the question`);
    if (e.ask && (!e.ask.missing_any?.length || e.tools.length || e.numbers.length)) fail('ask needs missing_any, and no tools or numbers');

    // tools
    for (const t of [...e.tools, ...(e.any_tools ?? [])]) if (!schemaOf.has(t)) fail(`unknown tool ${t}`);
    if (e.any_tools && !e.any_tools.some((t) => e.tools.includes(t)))
      fail('any_tools must contain at least one of tools (the alternatives of one slot)');
    if (e.no_tool && (e.tools.length || e.numbers.length || e.args)) fail('no_tool with tools, numbers or args');
    if (!e.no_tool && !e.ask && !e.tools.length) fail('no tools and not no_tool');

    // args: every key must belong to one expected tool's schema, and match a recorded source
    if (e.args) {
      const accepted = [...new Set([...e.tools, ...(e.any_tools ?? [])])];
      const fits = accepted.filter((t) => Object.keys(e.args).every((k) => k in (schemaOf.get(t)?.properties ?? {})));
      if (!fits.length) fail(`args ${Object.keys(e.args)} fit no expected tool's schema`);
      const matches = (e.sources ?? []).some((s) => {
        const [tool, args] = parseSource(s);
        return accepted.includes(tool) && Object.entries(e.args).every(([k, v]) => JSON.stringify(args[k]) === JSON.stringify(v));
      });
      if (!matches) fail('args do not match any recorded source command');
    }

    // every recorded command must still run (results are compared below, through the numbers)
    for (const s of e.sources ?? []) {
      const out = run(s);
      if ('error' in out && s !== e.source) fail(`source refused: ${out.error}`);
    }

    // numbers: re-run the source, read the path, compare
    for (const n of e.numbers) {
      // a number the answer must derive from a tool's (the crossover in Hz): no path to re-run, its
      // independent value (ref) is checked below with the others
      if (typeof n.name === 'string' && n.path === undefined && n.ref !== undefined && n.source === undefined) continue;
      if (typeof n.name !== 'string' || typeof n.path !== 'string' || typeof n.source !== 'string') {
        fail(`number without name, path or source`);
        continue;
      }
      if (!(n.rtol > 0 && n.rtol < 0.1)) fail(`${n.name}: rtol ${n.rtol} out of range`);
      if (!Number.isFinite(n.value) || n.value === 0) fail(`${n.name}: value ${n.value} must be finite and non-zero`);
      if (!(e.sources ?? []).includes(n.source)) fail(`${n.name}: source not listed in expect.sources`);
      const out = run(n.source);
      if ('error' in out) {
        fail(`${n.name}: source refused: ${out.error}`);
        continue;
      }
      const v = getPath(out.result, n.path);
      numbersChecked++;
      if (n.ref !== undefined) {
        // independent reference: the stored value is design_ref.json's; the solver must agree within rtol
        const [design, key] = n.ref.split('.');
        if (REF[design]?.[key] !== n.value) fail(`${n.name}: stored ${n.value} is not the independent reference's ${n.ref} (${REF[design]?.[key]})`);
        refChecked++;
        const err = typeof v === 'number' ? relErr(v, n.value) : Infinity;
        if (err > refWorst.err) refWorst = { err, what: `${q.id} ${n.name}` };
        if (!(err <= n.rtol)) fail(`${n.name}: the solver gives ${v}, the independent reference (${n.ref}) ${n.value}: disagreement, rel. ${err.toExponential(2)} > ${n.rtol}`);
      } else if (typeof v !== 'number' || relErr(v, n.value) > SAME) fail(`${n.name}: stored ${n.value}, solver now gives ${v}`);
    }

    // refusals
    if (e.error) {
      if (typeof e.source !== 'string') fail('error without source');
      else {
        const out = run(e.source);
        refusalsChecked++;
        if (!(e.sources ?? []).includes(e.source)) fail('refusing source not listed in expect.sources');
        if (!('error' in out)) fail('expected a refusal, the solver now returns a result');
        else if (out.error !== e.error_message) fail(`refusal message changed: ${out.error}`);
      }
    }
  }
}

const total = lines.length;
for (const f of FAMILIES) if ((counts[f] ?? 0) < MIN_PER_FAMILY) problems.push(`family ${f}: ${counts[f]} < ${MIN_PER_FAMILY}`);
if (counts.design < MIN_DESIGN) problems.push(`family design: ${counts.design} < ${MIN_DESIGN}`);
const items = lines.map((l) => JSON.parse(l));
for (const q of items) {
  if (q.family === 'design' && q.expect && !q.expect.error && !q.expect.numbers.every((n) => n.ref)) problems.push(`${q.id}: a design number without an independent ref`);
  // refs name design_ref.json (design) or turns_ref.json (the conversation families); the others are in reference.json
  if (!REF_FAMILIES.has(q.family) && expectsOf(q).some((e) => e.numbers.some((n) => n.ref))) problems.push(`${q.id}: ref outside the families with their own reference`);
}
// every scored number against its independent value (reference.json, design_ref.json)
const ind = independentProblems(items, INDEPENDENT.values, REF);
problems.push(...ind.problems);
if (total < MIN_TOTAL) problems.push(`${total} questions < ${MIN_TOTAL}`);

console.log(`${total} questions`, counts);
console.log(`${numbersChecked} numbers re-run against ${cache.size} source commands; ${refusalsChecked} refusals re-checked`);
console.log(`${ind.checked} numbers against their independent values (reference.json, design_ref.json): largest relative difference ${ind.worst.err.toExponential(2)} (${ind.worst.what})`);
console.log(`${refChecked} numbers with a ref against design_ref.json/turns_ref.json: largest relative difference ${refWorst.err.toExponential(2)} (${refWorst.what})`);
if (problems.length) {
  console.error(`${problems.length} problem(s):\n` + problems.join('\n'));
  process.exit(1);
}
console.log('all checks pass');
