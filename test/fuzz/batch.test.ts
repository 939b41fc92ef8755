// Fuzz: `control batch` on thousands of generated lines (issue 11, item 7). Every tool of the
// table gets valid problems built from its JSON Schema (sizes 1-12; random, stable, unstable,
// singular, ill-conditioned, uncontrollable, zero, huge and tiny magnitudes; discrete with
// Ts) and hostile ones (wrong types, missing and extra arguments, MATLAB literals with hostile
// names, NaN/Infinity as strings, deep nesting, huge arrays, unicode), mixed with lines that
// are not problems, ids of every JSON type, and \n, \r\n and lone \r line ends. The batch runs
// in a real process with a 5 s budget per call, its output read as it streams.
//
// Asserted on every line: exactly one output line per non-empty input line, in order, with the
// input's id (or line-N); no "internal error"; a result only with a verification that passed
// (ok true) or that says there is no check (ok null); non-finite numbers only in the fields the
// tool declares (ToolDef.nonFinite); problems that are well posed by construction are solved;
// no line waits longer than the budget (plus slack) after the one before; peak RSS bounded.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOOLS } from '../../src/core/tools/table.js';
import type { ToolDef } from '../../src/core/tools/types.js';
import {
  anyId,
  benignArgs,
  buildCli,
  runCli,
  type RunResult,
  fuzzSeed,
  HOSTILE_NAMES,
  hostileText,
  kindOf,
  nest,
  Rng,
  unicodeText,
  validArgs,
  wrongValue,
  type Cli,
  removeTemps,
  tempDir,
} from './_fuzz.js';

const SEED = fuzzSeed('batch.test.ts');
const BUDGET_S = 5;
/** a line may wait this long after the one before: its own budget, a replaced thread, a busy machine */
const GAP_MS = (BUDGET_S + 6) * 1000;
const RSS_LIMIT = 2 * 1024 ** 3;

let cli: Cli;
before(async () => {
  cli = await buildCli();
});
after(removeTemps);

interface Case {
  /** the line's text, without its line end */
  text: string;
  category: string;
  tool?: string;
  /** well posed by construction: must be a result */
  benign?: boolean;
}

const TERMINATORS = ['\n', '\r\n', '\r'] as const;

/** an own property named `key`, even "__proto__" (an assignment would set the prototype) */
function put(o: Record<string, unknown>, key: string, v: unknown): void {
  Object.defineProperty(o, key, { value: v, enumerable: true, writable: true, configurable: true });
}

function problemLine(r: Rng, k: number, tool: string, args: unknown, extra: Record<string, unknown> = {}, anyIds = true): string {
  const o: Record<string, unknown> = {};
  if (anyIds && r.chance(0.25)) {
    const { id, raw } = anyId(r, k);
    if (raw !== undefined) {
      // a number JSON.stringify cannot write (above 2^53 exactly, or 1e400): put its text in
      const body = JSON.stringify({ tool, args, ...extra });
      return `{"id":${raw},${body.slice(1)}`;
    }
    if (id !== undefined) o.id = id;
  } else o.id = `c-${k}`;
  o.tool = tool;
  o.args = args;
  Object.assign(o, extra);
  return JSON.stringify(o);
}

/** argument mutations from the schema: wrong type, missing, extra, literals, non-finite text, nesting */
function hostileArgs(r: Rng, tool: ToolDef, category: string): unknown {
  const props = tool.parameters.properties;
  const keys = Object.keys(props);
  const args = validArgs(r, tool);
  switch (category) {
    case 'wrong-type': {
      const key = r.pick(keys);
      put(args, key, wrongValue(r, props[key]));
      if (r.chance(0.3)) {
        const k2 = r.pick(keys);
        put(args, k2, wrongValue(r, props[k2]));
      }
      return args;
    }
    case 'missing': {
      const req = tool.parameters.required ?? [];
      if (req.length) delete args[r.pick(req)];
      else for (const k of Object.keys(args)) delete args[k];
      if (r.chance(0.2)) for (const k of Object.keys(args)) if (r.chance(0.5)) delete args[k];
      return args;
    }
    case 'extra': {
      const name = r.pick([...HOSTILE_NAMES, 'x', 'E', 'Ts2', '', 'a'.repeat(300), unicodeText(r), 'a.b', '$ref', 'A ', 'a']);
      const value = r.pick<unknown>([1, [[4]], { A: [[4]] }, { polluted: true }, null, 'x', validArgs(r, tool)]);
      put(args, name, value);
      if (name === '__proto__' && r.chance(0.5)) for (const k of tool.parameters.required ?? []) if (r.chance(0.5)) delete args[k];
      return args;
    }
    case 'proto': {
      // some arguments moved under "__proto__" (the hole where they were taken from the prototype)
      const moved: Record<string, unknown> = {};
      for (const k of Object.keys(args))
        if (r.chance(0.5)) {
          moved[k] = args[k];
          delete args[k];
        }
      put(args, r.chance(0.8) ? '__proto__' : r.pick(HOSTILE_NAMES), r.chance(0.9) ? moved : r.pick([null, [], 'x']));
      return args;
    }
    case 'literal': {
      // matrices and vectors as text: valid MATLAB/NumPy forms and hostile ones
      const key = r.pick(keys.filter((k) => kindOf(props[k]) !== 'number') as string[]) ?? keys[0];
      const v = args[key];
      const text = r.chance(0.4) && Array.isArray(v) ? matlab(v as unknown[]) : hostileText(r);
      put(args, key, text);
      return args;
    }
    case 'non-finite': {
      const key = r.pick(keys);
      const bad = r.pick(['NaN', 'Infinity', '-Infinity', 'nan', 'inf', '-inf', '1e999', '-1e999', 'Inf', '+Infinity']);
      const v = args[key];
      if (Array.isArray(v) && v.length && r.chance(0.7)) {
        const copy = JSON.parse(JSON.stringify(v)) as unknown[];
        const i = r.int(0, copy.length - 1);
        if (Array.isArray(copy[i]) && (copy[i] as unknown[]).length) (copy[i] as unknown[])[r.int(0, (copy[i] as unknown[]).length - 1)] = bad;
        else copy[i] = bad;
        put(args, key, copy);
      } else put(args, key, bad);
      return args;
    }
    case 'not-object':
      return r.pick<unknown>([null, [], [args], 'A=[1 2;3 4]', 1, true, hostileText(r)]);
    case 'unicode': {
      const key = r.pick(keys);
      put(args, r.chance(0.5) ? key : `${key}${unicodeText(r)}`, r.chance(0.5) ? unicodeText(r) : args[key]);
      return args;
    }
  }
  return args;
}

/** a matrix or vector as a MATLAB literal, full precision */
function matlab(v: unknown[]): string {
  const num = (x: unknown) =>
    typeof x === 'number' ? String(x) : Array.isArray(x) && x.length === 2 ? `${x[0]}${Number(x[1]) < 0 ? '-' : '+'}${Math.abs(Number(x[1]))}j` : String(x);
  if (v.every((x) => Array.isArray(x) && (x as unknown[]).every((y) => typeof y === 'number')))
    return `[${(v as number[][]).map((row) => row.map(num).join(' ')).join('; ')}]`;
  return `[${v.map(num).join(', ')}]`;
}

/** lines that are not problems at all */
function junkLine(r: Rng, k: number): string {
  return r.pick<() => string>([
    () => 'this is not json',
    () => '{"id": "cut", "tool": "eig", "args": {"A": [[1',
    () => '42',
    () => '"a string"',
    () => 'null',
    () => 'true',
    () => '[]',
    () => `[{"id":"in-array-${k}","tool":"eig","args":{"A":[[1]]}}]`,
    () => '{}',
    () => `{"id":"no-args-${k}","tool":"eig"}`,
    () => `{"id":"no-tool-${k}","args":{"A":[[1]]}}`,
    () => `{"id":"tool-num-${k}","tool":7,"args":{}}`,
    () => `{"id":"dup-${k}","id":"dup2-${k}","tool":"eig","args":{"A":[[2]]}}`,
    () => `{"id":"nan-literal-${k}","tool":"eig","args":{"A":[[NaN]]}}`,
    () => `{"id":"inf-literal-${k}","tool":"eig","args":{"A":[[Infinity]]}}`,
    () => `{"id":"big-number-${k}","tool":"eig","args":{"A":[[1e400]]}}`,
    () => `{"id":"neg-zero-${k}","tool":"eig","args":{"A":[[-0]]}}`,
    () => `\ufeff{"id":"bom-${k}","tool":"eig","args":{"A":[[1]]}}`,
    () => `{"id":"trailing-${k}","tool":"eig","args":{"A":[[1]]}} trailing`,
    () => `{"id":"comma-${k}","tool":"eig","args":{"A":[[1]],}}`,
    () => `{'id':'single-quotes-${k}'}`,
    () => unicodeText(r) + ' ' + unicodeText(r),
    () => '\u0000\u0001\u0002',
    () => ']]]]}}}}',
    () => `{"id":"lone-surrogate-\\ud800-${k}","tool":"eig","args":{"A":[[1]]}}`,
  ])();
}

const TOOL_NAMES_HOSTILE = [
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'LQR',
  'lqr ',
  ' lqr',
  'lqr\u0000',
  'lqr\u200b',
  'ｌｑｒ',
  '',
  'eig;rm -rf /',
  '../eig',
  'Eig',
];

/** the whole input: every tool, every category, ids of every type */
function generate(r: Rng): Case[] {
  const cases: Case[] = [];
  const k = () => cases.length + 1;
  for (const tool of TOOLS) {
    for (let i = 0; i < 100; i++) cases.push({ text: problemLine(r, k(), tool.name, validArgs(r, tool)), category: 'valid', tool: tool.name });
    for (const [category, count] of [
      ['wrong-type', 30],
      ['missing', 10],
      ['extra', 12],
      ['literal', 20],
      ['non-finite', 10],
      ['not-object', 4],
      ['unicode', 6],
      ['proto', 6],
    ] as const)
      for (let i = 0; i < count; i++) cases.push({ text: problemLine(r, k(), tool.name, hostileArgs(r, tool, category)), category, tool: tool.name });
    for (let i = 0; i < 10; i++) {
      const args = benignArgs(r, tool.name);
      if (args) cases.push({ text: problemLine(r, k(), tool.name, args, {}, false), category: 'benign', tool: tool.name, benign: true });
    }
  }
  for (let i = 0; i < 120; i++) cases.push({ text: junkLine(r, k()), category: 'junk' });
  for (let i = 0; i < 40; i++) cases.push({ text: problemLine(r, k(), r.pick(TOOL_NAMES_HOSTILE), { A: [[1]] }), category: 'tool-name' });
  // nesting: shallow enough for any recursive reader (deeper nesting has its own test below)
  for (let i = 0; i < 20; i++) {
    const tool = r.pick(TOOLS);
    const key = r.pick(Object.keys(tool.parameters.properties));
    cases.push({
      text: problemLine(r, k(), tool.name, { ...validArgs(r, tool), [key]: nest(r.pick([1, [], 'x']), r.int(3, 500)) }),
      category: 'nesting',
      tool: tool.name,
    });
  }
  // huge arrays, within reason: near and above the sample limit, a matrix above the size limit
  const big = (len: number) => Array.from({ length: len }, (_, i) => i * 1e-3);
  cases.push({ text: problemLine(r, k(), 'step', { A: [[-1]], B: [[1]], C: [[1]], t: big(200_000) }), category: 'huge', tool: 'step' });
  cases.push({ text: problemLine(r, k(), 'freqresp', { A: [[-1]], B: [[1]], C: [[1]], w: big(1_000_001) }), category: 'huge', tool: 'freqresp' });
  cases.push({ text: problemLine(r, k(), 'eig', { A: Array.from({ length: 201 }, () => new Array(201).fill(1)) }), category: 'huge', tool: 'eig' });
  cases.push({ text: problemLine(r, k(), 'tf2ss', { num: [1], den: new Array(400).fill(1) }), category: 'huge', tool: 'tf2ss' });
  cases.push({ text: problemLine(r, k(), 'rlocus', { num: [1], den: [1, ...new Array(150).fill(0), 1], k: big(2000) }), category: 'huge', tool: 'rlocus' });
  cases.push({ text: problemLine(r, k(), 'step', { A: [[-2]], B: [[1]], C: [[1]], t: [1e308] }), category: 'huge', tool: 'step' });
  cases.push({ text: problemLine(r, k(), 'step', { A: [[0.5]], B: [[1]], C: [[1]], t: [1e8], Ts: 1 }), category: 'huge', tool: 'step' });
  cases.push({ text: problemLine(r, k(), 'c2d', { A: [[-1]], B: [[1]], C: [[1]], Ts: 1e300 }), category: 'huge', tool: 'c2d' });
  return cases;
}

/** the file: lines joined by \n, \r\n or lone \r, with blank and whitespace-only lines between */
function layout(r: Rng, cases: Case[]): { text: string; expected: { id: unknown; c: Case }[] } {
  let text = '';
  let lineNo = 0;
  let prev = '';
  const expected: { id: unknown; c: Case }[] = [];
  const emit = (content: string) => {
    // a lone \r followed by a line that starts with \n would be read as one \r\n: avoid it
    let term: string = r.weighted([
      [85, TERMINATORS[0]],
      [8, TERMINATORS[1]],
      [7, TERMINATORS[2]],
    ] as const);
    if (prev === '\r' && content === '' && term === '\n') term = '\r\n';
    text += content + term;
    prev = term;
    lineNo++;
  };
  for (const c of cases) {
    if (r.chance(0.03)) emit(r.pick(['', '   ', '\t \t']));
    emit(c.text);
    // a line of nothing but white space (Unicode's too: U+2028, U+FEFF) is blank: no output
    if (c.text.trim() !== '') expected.push({ id: expectedId(c.text, lineNo), c });
  }
  return { text, expected };
}

/** the id the spec says a line's output carries: its own when a string or a finite number, else line-N */
function expectedId(text: string, lineNo: number): unknown {
  let p: unknown;
  try {
    p = JSON.parse(text);
  } catch {
    return `line-${lineNo}`;
  }
  if (!p || typeof p !== 'object' || Array.isArray(p)) return `line-${lineNo}`;
  const id = (p as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : `line-${lineNo}`;
}

const clip = (s: string, n = 240) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

/** the top-level result fields holding "NaN"/"Infinity"/"-Infinity" (batch writes non-finite numbers so) */
function nonFiniteFields(result: Record<string, unknown>): string[] {
  const has = (v: unknown): boolean =>
    typeof v === 'string'
      ? v === 'NaN' || v === 'Infinity' || v === '-Infinity'
      : Array.isArray(v)
        ? v.some(has)
        : v && typeof v === 'object'
          ? Object.values(v).some(has)
          : false;
  return Object.entries(result)
    .filter(([, v]) => has(v))
    .map(([k]) => k);
}

interface Outcome {
  c: Case;
  /** the output line */
  text: string;
  line: { id: unknown; result?: Record<string, unknown>; error?: string; verification?: { ok: unknown; checks: unknown } };
}

/** the one batch run every property below is checked on */
let batch: { cases: number; run: RunResult; outcomes: Outcome[]; expected: { id: unknown; c: Case }[]; ctx: string } | undefined;

async function theBatch(): Promise<NonNullable<typeof batch>> {
  if (batch) return batch;
  const r = new Rng(SEED, 1);
  const cases = generate(r);
  const { text, expected } = layout(r, cases);
  const dir = tempDir('control-fuzz-batch-');
  const inp = join(dir, 'in.jsonl');
  writeFileSync(inp, text);
  const outFile = join(dir, 'out.jsonl');
  // to a file, as documented; stdout through a pipe has its own test below
  const run = await runCli(cli, ['batch', '--in', inp, '--out', outFile, '--timeout', String(BUDGET_S)], { deadlineMs: 200_000, watch: outFile });
  const ctx = `FUZZ_SEED=${SEED}; rerun with FUZZ_KEEP=1 to keep the input, ${inp}`;
  console.log(
    `# batch: ${expected.length} lines in ${(run.ms / 1000).toFixed(1)} s, peak RSS ${run.maxRss === undefined ? '?' : (run.maxRss / 1024 ** 2).toFixed(0)} MB; ${run.stderr.trim().split('\n').pop()}`,
  );
  const out = run.lines.filter((l) => l.text !== '');
  const outcomes = out.slice(0, expected.length).map((l, i) => ({ c: expected[i].c, text: l.text, line: JSON.parse(l.text) as Outcome['line'] }));
  const byCategory: Record<string, { n: number; results: number; timeouts: number }> = {};
  for (const o of outcomes) {
    const cat = (byCategory[o.c.category] ??= { n: 0, results: 0, timeouts: 0 });
    cat.n++;
    if ('result' in o.line) cat.results++;
    if (/time budget/.test(o.line.error ?? '')) cat.timeouts++;
  }
  console.log(
    `# batch by category: ${Object.entries(byCategory)
      .map(([k, v]) => `${k} ${v.n} (${v.results} solved${v.timeouts ? `, ${v.timeouts} at the time budget` : ''})`)
      .join(', ')}`,
  );
  batch = { cases: cases.length, run, outcomes, expected, ctx };
  return batch;
}

const where = (o: Outcome) => `[${o.c.category}${o.c.tool ? ` ${o.c.tool}` : ''}] ${clip(o.c.text)} -> ${clip(o.text)}`;

/** fails listing the first offenders (all are printed) */
function none(list: Outcome[], what: string, ctx: string, why: (o: Outcome) => string = where): void {
  if (list.length) console.log(`# batch: ${list.length} lines: ${what}:\n#   ${list.slice(0, 20).map(why).join('\n#   ')}`);
  assert.deepEqual(list.slice(0, 6).map(why), [], `${list.length} lines: ${what} (${ctx})`);
}

test('batch fuzz: >= 5,000 generated lines, every tool of the table, each answered by exactly one line, in order, with its id', async () => {
  const { run, outcomes, expected, ctx } = await theBatch();
  assert.ok(expected.length >= 5000, `only ${expected.length} lines generated`);
  const tools = new Set(expected.map((e) => e.c.tool));
  for (const t of TOOLS) assert.ok(tools.has(t.name), `no line for ${t.name}`);
  assert.equal(run.killed, false, `the batch did not finish within 200 s (${ctx})`);
  assert.equal(run.code, 0, `exit ${run.code} ${run.signal ?? ''}: ${clip(run.stderr, 2000)} (${ctx})`);
  assert.equal(run.lines.filter((l) => l.text !== '').length, expected.length, `output lines for ${expected.length} problems (${ctx})`);
  const wrongId = outcomes.filter((o, i) => JSON.stringify(o.line.id) !== JSON.stringify(expected[i].id));
  none(wrongId, "another id than the input line's", ctx, (o) => `expected ${JSON.stringify(expected[outcomes.indexOf(o)].id)}: ${where(o)}`);
  none(
    outcomes.filter((o) => !('result' in o.line) && !(typeof o.line.error === 'string' && o.line.error.length > 0)),
    'neither a result nor an error',
    ctx,
  );
});

test('batch fuzz: no output says "internal error"', async () => {
  const { outcomes, ctx } = await theBatch();
  none(
    outcomes.filter((o) => /internal error/i.test(o.text)),
    'internal error',
    ctx,
  );
});

test('batch fuzz: every result carries a verification that passed (ok true) or says there is no check (ok null)', async () => {
  const { outcomes, ctx } = await theBatch();
  const results = outcomes.filter((o) => 'result' in o.line);
  const ok = results.filter((o) => o.line.verification?.ok === true).length;
  console.log(`# batch: ${results.length} results: ${ok} verified ok, ${results.length - ok} ok null or other`);
  none(
    results.filter((o) => !(o.line.verification?.ok === true || o.line.verification?.ok === null) || !Array.isArray(o.line.verification?.checks)),
    'a result without a passing verification',
    ctx,
  );
});

test('batch fuzz: non-finite numbers only in the fields the tool declares (ToolDef.nonFinite)', async () => {
  const { outcomes, ctx } = await theBatch();
  const bad = outcomes.filter((o) => {
    if (!('result' in o.line)) return false;
    const name = o.c.tool ?? (JSON.parse(o.c.text) as { tool?: unknown }).tool;
    const tool = TOOLS.find((t) => t.name === name);
    if (!tool) return true; // a result for a line whose tool is not in the table
    const allowed = new Set(tool.nonFinite ?? []);
    return nonFiniteFields(o.line.result!).some((f) => !allowed.has(f));
  });
  none(bad, 'non-finite numbers outside nonFinite', ctx);
});

test('batch fuzz: problems well posed by construction are solved (a program that refuses everything fails here)', async () => {
  const { outcomes, ctx } = await theBatch();
  const benign = outcomes.filter((o) => o.c.benign);
  assert.ok(benign.length >= 100, `${benign.length} benign problems`);
  none(
    benign.filter((o) => !('result' in o.line)),
    'a well-posed problem refused',
    ctx,
  );
});

test('batch fuzz: no valid problem of 12 states or fewer runs into the time budget (that is a loop, not work)', async () => {
  const { outcomes, ctx } = await theBatch();
  none(
    outcomes.filter((o) => (o.c.category === 'valid' || o.c.benign) && /time budget/.test(o.line.error ?? '')),
    `a small valid problem stopped at the ${BUDGET_S} s budget`,
    ctx,
    (o) => clip(o.c.text, 600),
  );
});

test('batch fuzz: each line is written within its time budget (plus slack) of the one before, the whole batch within a bound from the budget, peak RSS bounded', async () => {
  const { run, ctx, expected } = await theBatch();
  const out = run.lines.filter((l) => l.text !== '');
  let worst = { gap: 0, at: 0 };
  for (let i = 0; i < out.length; i++) {
    const gap = out[i].at - (i ? out[i - 1].at : 0);
    if (gap > worst.gap) worst = { gap, at: i };
  }
  console.log(
    `# batch: longest wait between output lines ${(worst.gap / 1000).toFixed(2)} s (line ${worst.at + 1}); whole batch ${(run.ms / 1000).toFixed(1)} s; peak RSS ${((run.maxRss ?? 0) / 1024 ** 2).toFixed(0)} MB`,
  );
  // the first line also waits for the process to start
  assert.ok(
    worst.gap <= GAP_MS + (worst.at === 0 ? 5000 : 0),
    `output line ${worst.at + 1} came ${(worst.gap / 1000).toFixed(1)} s after the one before (budget ${BUDGET_S} s): ${clip(expected[worst.at]?.c.text ?? '')} (${ctx})`,
  );
  // the whole batch: start-up, each line stopped at its budget, and a small cost per line
  const stopped = (await theBatch()).outcomes.filter((o) => /time budget/.test(o.line.error ?? '')).length;
  const bound = 10_000 + stopped * (BUDGET_S * 1000 + 2000) + out.length * 20;
  assert.ok(
    run.ms <= bound,
    `the batch took ${(run.ms / 1000).toFixed(1)} s, above ${(bound / 1000).toFixed(1)} s (10 s + ${stopped} lines at the ${BUDGET_S} s budget + 20 ms a line) (${ctx})`,
  );
  assert.ok(run.maxRss !== undefined, 'the process did not report its peak memory');
  assert.ok(run.maxRss! <= RSS_LIMIT, `peak RSS ${(run.maxRss! / 1024 ** 2).toFixed(0)} MB above ${RSS_LIMIT / 1024 ** 2} MB (${ctx})`);
});

test('batch to stdout through a slow pipe: every line arrives and the exit is 0 (a reader slower than the solver is normal)', async () => {
  // 200 problems of 5,000 samples (about 100 kB of output each) while the reader stops for 2 s:
  // the pipe fills, and a writer must wait for it, never lose or cut a line
  const t = Array.from({ length: 5000 }, (_, i) => i * 1e-3);
  const input = Array.from({ length: 200 }, (_, i) => JSON.stringify({ id: i, tool: 'step', args: { A: [[-1]], B: [[1]], C: [[1]], t } })).join('\n') + '\n';
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [cli.cli, 'batch', '--timeout', String(BUDGET_S)], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, XDG_CACHE_HOME: cli.cache },
  });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stdout.pause();
  setTimeout(() => child.stdout.resume(), 2000);
  child.stdin.end(input);
  const code = await new Promise<number | null>((res) => child.on('close', (c) => res(c)));
  const lines = out.split('\n').filter(Boolean);
  const unreadable = lines.filter((l) => {
    try {
      JSON.parse(l);
      return false;
    } catch {
      return true;
    }
  });
  assert.equal(code, 0, `exit ${code}: ${clip(err, 600)}`);
  assert.equal(unreadable.length, 0, `${unreadable.length} cut or merged lines, e.g. ${clip(unreadable[0] ?? '')}`);
  assert.deepEqual(
    lines.map((l) => JSON.parse(l).id),
    Array.from({ length: 200 }, (_, i) => i),
  );
});

// ------------------------------------------------------------------ reproductions of what the fuzz found
// Each is the smallest input found for a defect; they fail until it is fixed (kept red on purpose).

const SUBNORMAL_7 = [
  [2.071e-320, 1.714e-321, -2.5e-321, 2.04e-321, 8.94e-322, -5.43e-321, -1.146e-321],
  [1.956e-321, 2.2564e-320, 5e-324, -2.72e-321, 3.56e-322, -6.5e-322, 2.27e-322],
  [-4.6e-321, 6.63e-321, 1.8073e-320, -4.29e-321, 1.08e-321, 4.605e-321, 2.693e-321],
  [-1.393e-321, -3.56e-322, -3.384e-321, 1.5934e-320, -6.897e-321, 3.394e-321, -3.85e-322],
  [2.82e-321, 3.06e-321, -7.3e-322, -1.364e-321, 2.154e-320, 4.55e-322, -3.65e-321],
  [2.11e-321, -3.08e-321, 4.4e-322, -5.48e-321, 2.505e-321, 1.5346e-320, 3.05e-321],
  [2.37e-322, 2.73e-321, -5.217e-321, -3.893e-321, 1.56e-321, 4.284e-321, 1.5405e-320],
];

const REPRO: Record<string, { tool: string; args: unknown }> = {
  proto: { tool: 'step', args: JSON.parse('{"A":[[-1]],"B":[[1]],"C":[[1]],"__proto__":{"t":[1,2]}}') },
  skew3: {
    tool: 'eig',
    args: {
      A: [
        [0, 1, 2],
        [-1, 0, 3],
        [-2, -3, 0],
      ],
    },
  },
  subnormal: { tool: 'eig', args: { A: SUBNORMAL_7 } },
  hinfHuge: {
    tool: 'hinfnorm',
    args: {
      A: [
        [-2.8, 0.5],
        [0.2, -2.4],
      ],
      B: [
        [-1e300, 4e299],
        [-1.5e300, 1.5e300],
      ],
      C: [
        [-0.15, -0.11],
        [1.3, -0.75],
      ],
      D: [
        [-0.8, -0.87],
        [0.49, 0.51],
      ],
    },
  },
  analyseSubnormal: {
    tool: 'analyse',
    args: {
      A: [
        [-1.3947e-320, 2.105e-321, -1.851e-320, 1.2757e-320],
        [2.9466e-320, 3.13e-321, -5.133e-321, -1.7307e-320],
        [2.2e-321, -6.334e-321, 6.146e-321, -1.3187e-320],
        [1.194e-320, 1.589e-320, -1.486e-320, 5.88e-321],
      ],
    },
  },
};

let repro: Map<string, { error?: string; result?: unknown; ms: number }> | undefined;

async function reproRun(): Promise<NonNullable<typeof repro>> {
  if (repro) return repro;
  const dir = tempDir('control-fuzz-repro-');
  const inp = join(dir, 'in.jsonl');
  const out = join(dir, 'out.jsonl');
  // the deep line as text: JSON.stringify of 5,000 levels overflows this thread's stack too
  const deep = `{"id":"deep","tool":"eig","args":{"A":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
  writeFileSync(inp, [deep, ...Object.entries(REPRO).map(([id, p]) => JSON.stringify({ id, ...p }))].join('\n') + '\n');
  const run = await runCli(cli, ['batch', '--in', inp, '--out', out, '--timeout', String(BUDGET_S)], { deadlineMs: 120_000, watch: out });
  repro = new Map();
  let prev = 0;
  for (const l of run.lines.filter((x) => x.text)) {
    const j = JSON.parse(l.text) as { id: string; error?: string; result?: unknown };
    repro.set(j.id, { ...j, ms: l.at - prev });
    prev = l.at;
  }
  return repro;
}

test('found by the fuzz: an argument nested 5,000 arrays deep is refused with a clear error, not "internal error: Maximum call stack size exceeded"', async () => {
  const r = (await reproRun()).get('deep');
  assert.ok(r?.error, JSON.stringify(r));
  assert.doesNotMatch(r.error!, /internal error/);
});

test('found by the fuzz: arguments under "__proto__" ({"A","B","C", "__proto__": {"t": [1, 2]}}) are refused by name, not "internal error: Cannot read properties of undefined"', async () => {
  const r = (await reproRun()).get('proto');
  assert.ok(r?.error, JSON.stringify(r));
  assert.doesNotMatch(r.error!, /internal error/);
});

test('found by the fuzz: eig of the 3x3 skew-symmetric [[0,1,2],[-1,0,3],[-2,-3,0]] (eigenvalues 0, ±i√14) answers at once instead of running into the time budget', async () => {
  const r = (await reproRun()).get('skew3');
  assert.ok(r && 'result' in r, `no result: ${JSON.stringify(r)}`);
  const ev = (r.result as { eigenvalues: [number, number][] }).eigenvalues
    .map(([re, im]) => [Math.round(re * 1e9) / 1e9 + 0, Math.round(im * 1e9) / 1e9 + 0])
    .sort((a, b) => a[1] - b[1]);
  const w = Math.round(Math.sqrt(14) * 1e9) / 1e9;
  assert.deepEqual(ev, [
    [0, -w],
    [0, 0],
    [0, w],
  ]);
});

test('found by the fuzz: eig of a 7x7 matrix of subnormal numbers is a result or a clear refusal, never "internal error"', async () => {
  const r = (await reproRun()).get('subnormal');
  assert.ok(r, 'no line');
  assert.doesNotMatch(JSON.stringify(r), /internal error/);
  assert.doesNotMatch(r.error ?? '', /time budget/, 'a 7x7 eigenvalue problem ran into the time budget');
});

test('found by the fuzz: analyse of a 4x4 matrix of subnormal numbers answers or refuses at once (its SVD in defectiveOnBoundary looped until the budget)', async () => {
  const r = (await reproRun()).get('analyseSubnormal');
  assert.ok(r, 'no line');
  assert.doesNotMatch(r.error ?? '', /time budget/, JSON.stringify(r));
  assert.doesNotMatch(JSON.stringify(r), /internal error/);
});

test('found by the fuzz: hinfnorm of a stable 2x2 model with B near 1e300 and D != 0 is a result or a clear refusal, not "internal error: Cannot read properties of undefined (reading \'0\')" (ml-matrix EVD on an overflowed matrix in sigmaMax)', async () => {
  const r = (await reproRun()).get('hinfHuge');
  assert.ok(r, 'no line');
  assert.doesNotMatch(JSON.stringify(r), /internal error/);
});
