#!/usr/bin/env node
// Builds benchmarks/controlbench.jsonl from questions.mjs: every expected number is read from
// the solver's --json output (node dist/cli.js solve <tool> '<args>' --json), never typed in;
// except the design family's, which are read from design_ref.json (written by the independent
// design_ref.py), the solver's value at the same path being only compared and reported.
// Run after `npm run build`:  node benchmarks/build.mjs
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { QUESTIONS } from './questions.mjs';
import { CLI, ROOT, getPath, relErr, solve, sourceOf } from './lib.mjs';

// benchmarks/questions_turns.mjs (optional): further items, each in the file's own shape
// ({family, style, question, expect} or {family, style, turns: [{question, expect}]}, with an
// optional id and note), their expected values from their own independent script. Its first
// exported array is taken, and its items are appended as written.
const TURNS_FILE = join(ROOT, 'benchmarks', 'questions_turns.mjs');
let EXTRA = [];
if (existsSync(TURNS_FILE)) {
  const mod = await import(pathToFileURL(TURNS_FILE).href);
  EXTRA = Object.values(mod).find(Array.isArray) ?? [];
}

const DEFAULT_RTOL = 1e-3;
const toolNames = new Set(
  JSON.parse(execFileSync(process.execPath, [CLI, 'tools', '--json'], { encoding: 'utf8' })).map((t) => t.name),
);

const REF_FILE = 'design_ref.json';
const REF = JSON.parse(readFileSync(join(ROOT, 'benchmarks', REF_FILE), 'utf8')).values;
const disagreements = [];

const counters = new Map();
const lines = [];
const problems = [];

for (const q of QUESTIONS) {
  const n = (counters.get(q.family) ?? 0) + 1;
  counters.set(q.family, n);
  const id = `${q.family}-${String(n).padStart(3, '0')}`;
  const fail = (msg) => problems.push(`${id}: ${msg}`);

  const tools = q.tools ?? [];
  for (const t of [...tools, ...(q.any_tools ?? [])]) if (!toolNames.has(t)) fail(`unknown tool ${t}`);

  // run the sources in order
  const results = {};
  const sources = {};
  const srcTools = {};
  const srcArgs = {};
  const srcLabels = {};
  let errorMessage;
  for (const [key, tool, argsOrFn, srcLabel] of q.src ?? []) {
    const args = typeof argsOrFn === 'function' ? argsOrFn(results) : argsOrFn;
    const out = solve(tool, args);
    sources[key] = sourceOf(tool, args);
    srcTools[key] = tool;
    srcArgs[key] = args;
    srcLabels[key] = srcLabel ?? tool;
    if (key === 'error') {
      if (!('error' in out)) fail(`expected a refusal from ${tool}, got a result`);
      errorMessage = out.error;
    } else if ('error' in out) {
      fail(`${tool} refused: ${out.error}`);
    } else {
      results[key] = out.result;
    }
  }

  // args the question fixes
  let args;
  if (q.args === null || !q.src) args = undefined;
  else if (q.args && !Array.isArray(q.args)) args = q.args;
  else {
    const accepted = new Set([...tools, ...(q.any_tools ?? [])]);
    const key = q.argsFrom ?? Object.keys(srcTools).find((k) => accepted.has(srcTools[k]));
    if (!key) fail('no source for a listed tool to take args from');
    else {
      const all = srcArgs[key];
      args = Array.isArray(q.args) ? Object.fromEntries(q.args.map((k) => [k, all[k]])) : all;
    }
  }

  // numbers
  const multi = new Set((q.nums ?? []).map((x) => x[0])).size > 1;
  if (q.ref !== undefined && !REF[q.ref]) fail(`no design ${q.ref} in ${REF_FILE} (run python3 benchmarks/design_ref.py)`);
  const numbers = (q.nums ?? []).map(([key, path, label, rtolOrRef, rtolRef]) => {
    // design family: [key, path, label, name in design_ref.json, rtol?]; the others: [key, path, label, rtol?]
    const refName = q.ref !== undefined ? rtolOrRef : undefined;
    const rtol = (q.ref !== undefined ? rtolRef : rtolOrRef) ?? DEFAULT_RTOL;
    const solverValue = getPath(results[key], path);
    if (typeof solverValue !== 'number' || !Number.isFinite(solverValue)) fail(`${key}:${path} is not a finite number (${solverValue})`);
    let value = solverValue;
    if (refName !== undefined) {
      value = REF[q.ref]?.[refName];
      if (typeof value !== 'number') fail(`${REF_FILE}: ${q.ref}.${refName} missing`);
      else if (typeof solverValue === 'number' && relErr(solverValue, value) > rtol)
        disagreements.push(`${id} ${path}: independent ${value}, solver ${solverValue} (rel. ${relErr(solverValue, value).toExponential(2)})`);
    }
    if (value === 0) fail(`${key}:${path} is zero (a relative tolerance cannot score it)`);
    const n = {
      name: multi ? `${srcLabels[key]}.${path}` : path,
      label,
      value,
      rtol,
      path,
      source: sources[key],
    };
    if (refName !== undefined) n.ref = `${q.ref}.${refName}`;
    return n;
  });

  const names = numbers.map((x) => x.name);
  if (new Set(names).size !== names.length) fail(`duplicate number names: ${names.join(', ')}`);

  const expect = { tools };
  if (q.any_tools) expect.any_tools = q.any_tools;
  if (args) expect.args = args;
  if (q.src) expect.sources = Object.values(sources);
  expect.numbers = numbers;
  expect.no_tool = !!q.no_tool;
  if (q.out_of_scope) expect.out_of_scope = true;
  if (q.content) expect.content = q.content;
  if (q.ask) expect.ask = q.ask;
  if (q.no_tool && !q.content) fail('a no-tool question needs content (what a correct answer states)');
  if (q.error) {
    expect.error = true;
    expect.source = sources.error; // also in expect.sources
    expect.error_message = errorMessage;
    if (!q.reason_any?.length) fail('error question without reason_any');
    else {
      expect.reason_any = q.reason_any;
      if (!q.reason_any.some((r) => errorMessage?.toLowerCase().includes(r.toLowerCase())))
        fail(`no reason_any substring occurs in the solver's own message: ${errorMessage}`);
    }
  }
  const line = { id, family: q.family, style: q.style, question: q.question, expect };
  if (q.ref !== undefined) line.reference = `benchmarks/${REF_FILE}#${q.ref}`;
  if (q.note) line.note = q.note;
  lines.push(line);
}

for (const q of EXTRA) {
  const n = (counters.get(q.family) ?? 0) + 1;
  counters.set(q.family, n);
  const id = q.id ?? `${q.family}-${String(n).padStart(3, '0')}`;
  if (!q.turns && !(q.question && q.expect)) problems.push(`${id} (questions_turns.mjs): needs question/expect or turns`);
  const line = { id, family: q.family, style: q.style };
  if (q.turns) line.turns = q.turns;
  else Object.assign(line, { question: q.question, expect: q.expect });
  for (const k of ['reference', 'note']) if (q[k] !== undefined) line[k] = q[k];
  lines.push(line);
}

if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
writeFileSync(join(ROOT, 'benchmarks', 'controlbench.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
console.log(`wrote ${lines.length} questions:`, Object.fromEntries(counters));
// a disagreement is a finding about the solver (or the reference), not something to edit away
if (disagreements.length) console.log(`the solver disagrees with ${REF_FILE} on ${disagreements.length} number(s):\n` + disagreements.join('\n'));
