// ControlBench's conversation families (benchmarks/questions_turns.mjs): the format the scorer
// relies on, the family sizes issue 15 asks for, tool names from the tool table, and every
// expected number equal to the independent reference benchmarks/turns_ref.json (written by
// benchmarks/turns_ref.py with numpy, scipy, python-control and sympy; never by our solver).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getTool } from '../../src/core/tools/table.js';
import { prepareArgs } from '../../src/core/tools/call.js';

interface Num {
  name: string;
  label: string;
  value: number;
  rtol: number;
  ref: string;
  path?: string;
  source?: string;
}
interface Expect {
  tools: string[];
  any_tools?: string[];
  args?: Record<string, unknown>;
  sources?: string[];
  numbers: Num[];
  no_tool: boolean;
  ask?: { missing_any: string[] };
}
interface Turn {
  question: string;
  expect: Expect;
}
interface Item {
  id: string;
  family: string;
  style: string;
  question?: string;
  expect?: Expect;
  turns?: Turn[];
  reference?: string;
}

let items: Item[] = [];
before(async () => {
  items = ((await import(pathToFileURL(resolve('benchmarks/questions_turns.mjs')).href)) as { TURN_ITEMS: Item[] }).TURN_ITEMS;
});
const refFile = JSON.parse(readFileSync('benchmarks/turns_ref.json', 'utf8')) as { generator: string; values: Record<string, Record<string, number>> };
const REF = refFile.values;
const turnsOf = (it: Item): Turn[] => it.turns ?? [{ question: it.question!, expect: it.expect! }];
const MIN: Record<string, number> = { followup: 20, typos_units: 15, ask_back: 12, design_spec: 10 };
const STYLES = new Set(['matlab', 'numpy', 'tf', 'prose']);

test('ids are unique and numbered per family; the four families have the sizes issue 15 asks for', () => {
  assert.equal(new Set(items.map((i) => i.id)).size, items.length);
  for (const it of items) {
    assert.match(it.id, new RegExp(`^${it.family}-\\d{3}$`), it.id);
    assert.ok(it.family in MIN, `${it.id}: unknown family`);
    assert.ok(STYLES.has(it.style), `${it.id}: style ${it.style}`);
  }
  for (const [f, min] of Object.entries(MIN)) {
    const n = items.filter((i) => i.family === f).length;
    assert.ok(n >= min, `${f}: ${n} < ${min}`);
  }
});

test('where controlbench.jsonl already holds these families, its numbers are the reference values too', () => {
  const lines = readFileSync('benchmarks/controlbench.jsonl', 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Item)
    .filter((l) => l.family in MIN);
  for (const it of lines)
    for (const t of turnsOf(it))
      for (const x of t.expect.numbers) {
        const [key, name] = x.ref.split('.');
        assert.ok(Math.abs(x.value - REF[key][name]) <= x.rtol * Math.abs(REF[key][name]), `${it.id} ${x.ref}`);
      }
});

test('follow-ups are conversations of 2 to 4 turns; the other families are single requests', () => {
  for (const it of items) {
    if (it.family === 'followup') {
      assert.ok(it.turns && it.turns.length >= 2 && it.turns.length <= 4, `${it.id}: ${it.turns?.length} turns`);
      assert.equal(it.question, undefined, it.id);
    } else {
      assert.equal(it.turns, undefined, it.id);
      assert.ok(it.question && it.expect, it.id);
    }
    for (const t of turnsOf(it)) assert.ok(t.question.trim().length > 0, it.id);
  }
});

test('every number is the independent reference value (turns_ref.json) within its rtol, signed and non-zero', () => {
  assert.equal(refFile.generator, 'benchmarks/turns_ref.py');
  let n = 0;
  for (const it of items)
    for (const [k, t] of turnsOf(it).entries()) {
      const names = t.expect.numbers.map((x) => x.name);
      assert.equal(new Set(names).size, names.length, `${it.id} turn ${k + 1}: duplicate number names`);
      for (const x of t.expect.numbers) {
        const [key, name] = x.ref.split('.');
        const ref = REF[key]?.[name];
        assert.equal(typeof ref, 'number', `${it.id}: ${x.ref} missing from turns_ref.json`);
        assert.ok(Number.isFinite(x.value) && x.value !== 0, `${it.id}: ${x.ref} = ${x.value}`);
        assert.ok(x.rtol > 0 && x.rtol <= 1e-2, `${it.id}: rtol ${x.rtol}`);
        assert.ok(Math.abs(x.value - ref) <= x.rtol * Math.abs(ref), `${it.id} ${x.ref}: ${x.value} vs reference ${ref}`);
        assert.ok(x.label.length > 0, `${it.id}: ${x.ref} without a label`);
        if (x.path) assert.ok(t.expect.sources?.includes(x.source!), `${it.id}: ${x.ref} names a source the turn does not make`);
        n++;
      }
    }
  assert.ok(n >= 150, `${n} numbers`);
});

test('every tool named exists in the tool table, and every source is a valid call', () => {
  for (const it of items)
    for (const [k, t] of turnsOf(it).entries()) {
      const e = t.expect;
      for (const name of [...e.tools, ...(e.any_tools ?? [])]) assert.ok(getTool(name), `${it.id} turn ${k + 1}: no tool ${name}`);
      if (e.any_tools)
        assert.ok(
          e.any_tools.some((x) => e.tools.includes(x)),
          `${it.id}: any_tools shares no name with tools`,
        );
      for (const s of e.sources ?? []) {
        const m = /^control solve (\w+) '(.*)'$/s.exec(s);
        assert.ok(m, `${it.id}: not a source command: ${s}`);
        assert.doesNotThrow(() => prepareArgs(m[1], JSON.parse(m[2])), `${it.id}: ${s}`);
      }
      if (e.args) {
        const accepted = [...e.tools, ...(e.any_tools ?? [])];
        const props = new Set(accepted.flatMap((name) => Object.keys(getTool(name)!.parameters.properties)));
        for (const key of Object.keys(e.args)) assert.ok(props.has(key), `${it.id}: argument ${key} belongs to none of ${accepted.join(', ')}`);
      }
    }
});

test('requests that must be asked back expect no tool and name what to ask about', () => {
  let asks = 0;
  for (const it of items)
    for (const t of turnsOf(it)) {
      const e = t.expect;
      if (!e.ask) {
        assert.ok(e.tools.length > 0 && !e.no_tool, `${it.id}: a turn without tools and without ask`);
        continue;
      }
      asks++;
      assert.deepEqual(e.tools, [], it.id);
      assert.deepEqual(e.numbers, [], it.id);
      assert.equal(e.no_tool, true, it.id);
      assert.ok(e.ask.missing_any.length > 0 && e.ask.missing_any.every((w) => typeof w === 'string' && w.trim().length > 0), it.id);
    }
  const family = items.filter((i) => i.family === 'ask_back');
  assert.ok(
    family.every((i) => i.expect!.ask),
    'every ask_back item asks back',
  );
  assert.ok(asks > family.length, 'an ask-back also happens inside a conversation');
});

test('the reference file agrees with closed forms derived by hand (so turns_ref.json is not trusted blindly)', () => {
  const near = (key: string, want: number, tol = 1e-9) => {
    const [k, n] = key.split('.');
    assert.ok(Math.abs(REF[k][n] - want) <= tol * Math.max(1, Math.abs(want)), `${key}: ${REF[k][n]} vs ${want}`);
  };
  // double integrator, u = -Kx at -2 ± 2j: s² + K2 s + K1 = s² + 4s + 8
  near('fu05_t1.K00', 8);
  near('fu05_t1.K01', 4);
  // observer on the double integrator at -10, -11: s² + L1 s + L2 = s² + 21s + 110
  near('fu05_t2.L00', 21);
  near('fu05_t2.L10', 110);
  // companion form: (s+2)(s+3)(s+4) = s³ + 9s² + 26s + 24 against s³ + 6s² + 11s + 6; closed-loop DC gain 1/24
  near('fu14_t2.K00', 18);
  near('fu14_t2.K01', 15);
  near('fu14_t2.K02', 3);
  near('fu14_t3.dc', 1 / 24);
  // Routh on s³ + 6s² + 8s + K: K = 48 at ω = √8
  near('fu19_t1.gm', 48, 1e-7);
  near('fu19_t1.wpc', Math.sqrt(8), 1e-7);
  // LQR on the double integrator, Q = I, R = 1: K = [1, √3]
  near('ty01.K00', 1);
  near('ty01.K01', Math.sqrt(3));
  // ZOH pole e^{-aT}; Tustin pole (1 - aT/2)/(1 + aT/2)
  near('fu03_t1.pole', Math.exp(-0.2));
  near('fu03_t3.pole', 1 / 3);
  near('ty13.Ad00', 0.9 / 1.1);
  near('ty13.Ad11', 0.8 / 1.2);
  // resonant peak of 1/(s² + 2ζs + 1), ζ = 0.1: 1/(2ζ√(1 − ζ²))
  near('ty14.hinf', 1 / (2 * 0.1 * Math.sqrt(1 - 0.01)), 1e-8);
  // impulse response of A = [-1 2; 0 -3], B = [1; 1], C = [1 0]: 2e^{-t} - e^{-3t}
  near('fu16_t1.y1', 2 * Math.exp(-1) - Math.exp(-3));
  // observer 4x faster on A = [0 1; -2 -3]: s² + (3 + L1)s + (2 + 3L1 + L2) = s² + 16s + 128
  near('ds08.L00', 13);
  near('ds08.L10', 87);
  // u = -Kx on A = [0 1; 0 -1], B = [0; 2], double pole at -5: s² + (1 + 2K2)s + 2K1 = (s + 5)²
  near('ds11.K00', 12.5);
  near('ds11.K01', 4.5);
  // A − BK = [0 1; −2 −2] for K = [3 2]: −1 ± j (u = −Kx, MATLAB's sign)
  near('fu20_t2.p1_re', -1);
  near('fu20_t2.p1_im', 1);
});
