/**
 * Block diagrams joined by signal names (MATLAB `connect` with `sumblk`, python-control
 * `interconnect` with `summing_junction`) and the linear fractional transformation (MATLAB
 * `lft`, python-control `StateSpace.lft`).
 *
 * Both are one computation on the block algebra of interconnect.ts (no second kernel): the
 * blocks are appended (appendSS), the interconnection matrix K (block input i is driven by
 * block output j) closes the loop u = v + K·y by feedbackSS with the static gain K and sign +1,
 * the external inputs enter through a selection E (v = E·w) and the outputs are picked by F
 * (z = F·y, or straight from an input: z = H·w), and the result is made minimal by fromSs
 * (the one controllability staircase), each removed mode said with its reason.
 *
 * Conventions:
 * - connect: a signal is a name; it is driven exactly once, by one block output, one summing
 *   junction or as an external input. A block input takes the signal of its name (several
 *   block inputs may share one). A summing junction 'e = r - y' is a static block (MATLAB's
 *   sumblk, python-control's summing_junction with inputs ['r', '-y']); scalar signals (a
 *   block with several inputs named 'u' has MATLAB's u(1), u(2), …; sums are scalar).
 *   Unlike MATLAB (which leaves an undriven block input at zero) an input nobody drives is
 *   refused: it is almost always a misspelt name.
 * - lft(sys1, sys2, nu, ny) as MATLAB: the first nu outputs of sys2 drive the last nu inputs
 *   of sys1, the last ny outputs of sys1 drive the first ny inputs of sys2; the result maps
 *   [w1; w2] to [z1; z2] (the channels left over). form 'upper': F_u(sys1, sys2), the first nu
 *   inputs and first ny outputs of sys1 in the loop with sys2 (MATLAB lft(sys2, sys1, ny, nu)
 *   for a fully connected sys2). Defaults: nu = outputs of sys2, ny = inputs of sys2.
 */
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import type { JsonSchema } from '../tools/types.js';
import type { Complex } from '../types.js';
import { type Mat, EPS, add, eye, mul, rcondByInverse, zeros } from '../linalg/dense.js';
import { fmt } from '../render/format.js';
import type { RenderOptions } from '../render/markdown.js';
import type { Code } from '../codegen/code.js';
import { readSystemArgFull, systemArg } from './_sys.js';
import {
  type InterconnectResult,
  type Lti,
  type Named,
  appendSS,
  checkTotal,
  commonTs,
  dims,
  feedbackSS,
  fromSs,
  gainLti,
  list,
  matrices,
  resultExpect,
  resultPlots,
  sortedEigs,
  stability,
  sysCode,
  tfLine,
  toLti,
} from './interconnect.js';

export interface ConnectResult extends InterconnectResult {
  /** the names of the result's inputs and outputs, in order */
  input_names: string[];
  output_names: string[];
  /** the closed-loop poles of the whole interconnection (removed modes included) */
  poles: Complex[];
  /** block outputs that go nowhere (neither a block input nor an output), said */
  unused: string[];
}

const MAX_BLOCKS = 20;
const MAX_SUMS = 20;

// ------------------------------------------------------------------ names and sums

/** a signal name: r, y1, u_ref, x.y, u(2) or u[1] (MATLAB and python-control element names) */
const NAME = String.raw`[A-Za-z_][\w.]*(?:\(\d+\)|\[\d+\])?`;
const NAME_RE = new RegExp(`^${NAME}$`);

function checkName(v: unknown, where: string): string {
  if (typeof v !== 'string' || !NAME_RE.test(v.trim()))
    throw new ControlError(`connect: ${where} is ${JSON.stringify(v)}; a signal name is a word such as 'r', 'y1', 'u_ref' or an element 'u(2)'.`);
  return v.trim();
}

/** a name list as given: a string or a list of strings */
function nameList(v: unknown, where: string): string[] {
  const l = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(l) || !l.length) throw new ControlError(`connect: ${where} must be a signal name or a list of them, e.g. 'u' or ['u1', 'u2'].`);
  return l.map((x, i) => checkName(x, l.length > 1 ? `${where}[${i + 1}]` : where));
}

/**
 * The names of a block's k inputs or outputs: one per channel, or one name for all k
 * (MATLAB's vector name: 'u' on 2 inputs is u(1), u(2)).
 */
function channelNames(v: unknown, k: number, where: string, block: string): string[] {
  const l = nameList(v, where);
  if (l.length === k) return l;
  if (l.length === 1 && k > 1) return Array.from({ length: k }, (_, i) => `${l[0]}(${i + 1})`);
  throw new ControlError(
    `connect: ${block} has ${k} ${where.endsWith('inputName') ? 'input' : 'output'}(s) but ${where} gives ${l.length} names (${l.join(', ')}); give one name per channel, or one name for all of them (MATLAB's u(1), u(2), …).`,
  );
}

export interface SumJunction {
  output: string;
  terms: { name: string; sign: 1 | -1 }[];
  text: string;
}

/** 'e = r - y', 'u = u1 + u2', 'e = -y + r' (MATLAB sumblk's expression) */
export function parseSum(text: unknown, where = 'sums'): SumJunction {
  if (typeof text !== 'string')
    throw new ControlError(`connect: ${where} is ${JSON.stringify(text)}; a summing junction is written 'e = r - y' (MATLAB sumblk's expression).`);
  const m = /^\s*([^=]+?)\s*=\s*(.+?)\s*$/.exec(text);
  const bad = () =>
    new ControlError(
      `connect: the summing junction '${text}' (${where}) is not of the form 'e = r - y': an output name, '=', then input names joined by + and − (MATLAB sumblk('e = r - y'), python-control summing_junction(inputs=['r', '-y'], output='e')).`,
    );
  if (!m || !NAME_RE.test(m[1])) throw bad();
  const terms: SumJunction['terms'] = [];
  const rhs = m[2].replace(/−/g, '-');
  const re = new RegExp(`\\s*([+-]?)\\s*(${NAME})\\s*`, 'y');
  let at = 0;
  while (at < rhs.length) {
    re.lastIndex = at;
    const t = re.exec(rhs);
    if (!t || (terms.length && !t[1])) throw bad();
    terms.push({ name: t[2], sign: t[1] === '-' ? -1 : 1 });
    at = re.lastIndex;
  }
  if (!terms.length) throw bad();
  const seen = new Set<string>();
  for (const t of terms) {
    if (t.name === m[1])
      throw new ControlError(`connect: the summing junction '${text}' has its output ${t.name} among its inputs: an algebraic loop with no block in it.`);
    if (seen.has(t.name)) throw new ControlError(`connect: the summing junction '${text}' names ${t.name} twice; write its gain as a block instead.`);
    seen.add(t.name);
  }
  return { output: m[1], terms, text: text.trim() };
}

// ------------------------------------------------------------------ the common closing step

/**
 * Strongly connected parts of the direct-feedthrough graph (edge j → i where W[i][j] ≠ 0):
 * the channels that lie on an algebraic loop (Tarjan's algorithm).
 */
function loopChannels(W: Mat): number[] {
  const n = W.r;
  const index = new Array(n).fill(-1),
    low = new Array(n).fill(0),
    on = new Array(n).fill(false);
  const stack: number[] = [];
  const out: number[] = [];
  let counter = 0;
  const visit = (v: number) => {
    index[v] = low[v] = counter++;
    stack.push(v);
    on[v] = true;
    for (let w = 0; w < n; w++) {
      if (W.d[w * n + v] === 0) continue; // v drives w
      if (index[w] < 0) {
        visit(w);
        low[v] = Math.min(low[v], low[w]);
      } else if (on[w]) low[v] = Math.min(low[v], index[w]);
    }
    if (low[v] === index[v]) {
      const comp: number[] = [];
      let w: number;
      do {
        w = stack.pop()!;
        on[w] = false;
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || W.d[v * n + v] !== 0) out.push(...comp);
    }
  };
  for (let v = 0; v < n; v++) if (index[v] < 0) visit(v);
  return out.sort((a, b) => a - b);
}

/**
 * Closes u = v + K·y around the appended blocks G and selects w -> z: v = E·w, z = F·y + H·w.
 * A singular algebraic loop (I − K·D singular) is refused by `singular(channels)`, naming the
 * block inputs on the loop.
 */
function closeLoop(G: Lti, K: Mat, E: Mat, F: Mat, H: Mat, singular: (channels: number[], rc: number) => ControlError): Lti {
  const M = K.r;
  if (M) {
    const W = mul(K, G.D);
    const rc = rcondByInverse(add(eye(M), W, -1));
    // the threshold of feedbackSS, so that what passes here passes there
    if (!(rc > 1e3 * Math.max(M, 1) * EPS)) throw singular(loopChannels(W), rc);
  }
  const all = (k: number) => Array.from({ length: k }, (_, i) => i);
  const cl = feedbackSS(G, gainLti(K), 1, all(dims(G).m), all(dims(G).p));
  return { A: cl.A, B: mul(cl.B, E), C: mul(F, cl.C), D: add(mul(mul(F, cl.D), E), H) };
}

/** a 0/1 matrix (r x c) with ones at the given (row, column) pairs */
function pattern(r: number, c: number, ones: [number, number][]): Mat {
  const S = zeros(r, c);
  for (const [i, j] of ones) S.d[i * c + j] = 1;
  return S;
}

/**
 * fromSs with the reasons split and, for a SISO result, num's round-off coefficients (below
 * 1e-14 of its largest: ss2tf of the closed loop leaves ~1e-16 where a structural zero is) set
 * to 0, so that T is not shown with a spurious s^n term
 */
function minimalResult(full: Lti, Ts: number, tool: string): InterconnectResult & { poles: Complex[] } {
  const poles = sortedEigs(full.A);
  const r = fromSs(full, Ts, { poles }, tool, true);
  if (r.num) {
    const big = Math.max(...r.num.map(Math.abs));
    r.num = r.num.map((c) => (Math.abs(c) <= 1e-14 * big ? 0 : c));
  }
  return { ...r, poles };
}

// ------------------------------------------------------------------ connect

interface Block {
  label: string;
  lti: Lti;
  inputs: string[];
  outputs: string[];
  /** a summing junction, by its expression */
  sum?: string;
}

const blockWord = (b: Block) => (b.sum ? `the summing junction '${b.sum}'` : b.label);

export function runConnect(args: Record<string, any>): ConnectResult {
  const tool = 'connect';
  const rawBlocks = args.blocks;
  if (!Array.isArray(rawBlocks) || !rawBlocks.length)
    throw new ControlError("connect needs blocks: a list of {sys, inputName, outputName}, e.g. [{sys: G, inputName: 'u', outputName: 'y'}].");
  if (rawBlocks.length > MAX_BLOCKS) throw new ControlError(`connect: ${rawBlocks.length} blocks, above the limit of ${MAX_BLOCKS}.`, 'limit');
  const rawSums = args.sums === undefined || args.sums === null ? [] : typeof args.sums === 'string' ? [args.sums] : args.sums;
  if (!Array.isArray(rawSums)) throw new ControlError("connect: sums must be a list of summing junctions such as 'e = r - y'.");
  if (rawSums.length > MAX_SUMS) throw new ControlError(`connect: ${rawSums.length} summing junctions, above the limit of ${MAX_SUMS}.`, 'limit');

  const named: Named[] = [];
  const blocks: Block[] = rawBlocks.map((b: unknown, i: number) => {
    const where = `blocks[${i + 1}]`;
    if (!b || typeof b !== 'object' || Array.isArray(b)) throw new ControlError(`connect: ${where} must be {sys, inputName, outputName}.`);
    const o = b as Record<string, unknown>;
    const extra = Object.keys(o).filter((k) => !['sys', 'inputName', 'outputName', 'name'].includes(k));
    if (extra.length)
      throw new ControlError(`connect: ${where} has no field ${extra.map((k) => `'${k}'`).join(', ')}; a block is {sys, inputName, outputName, name?}.`);
    const label = typeof o.name === 'string' && o.name.trim() ? `${o.name.trim()} (${where})` : where;
    if (o.sys === undefined) throw new ControlError(`connect: ${label} has no sys (the block's system).`);
    const sa = readSystemArgFull(o.sys, `${where}.sys`, tool);
    named.push({ name: label, sa });
    if (o.inputName === undefined || o.outputName === undefined)
      throw new ControlError(
        `connect: ${label} needs inputName and outputName (MATLAB sys.InputName/OutputName, python-control inputs=/outputs=): connect joins blocks by these names.`,
      );
    return {
      label,
      lti: toLti(sa.ss),
      inputs: channelNames(o.inputName, sa.ss.m, `${where}.inputName`, label),
      outputs: channelNames(o.outputName, sa.ss.p, `${where}.outputName`, label),
    };
  });
  const Ts = commonTs(named, tool);
  checkTotal(
    named.reduce((s, x) => s + x.sa.ss.n, 0),
    tool,
  );
  rawSums.forEach((t: unknown, i: number) => {
    const s = parseSum(t, `sums[${i + 1}]`);
    const D = zeros(1, s.terms.length);
    s.terms.forEach((x, j) => (D.d[j] = x.sign));
    blocks.push({ label: `sums[${i + 1}]`, lti: gainLti(D), inputs: s.terms.map((x) => x.name), outputs: [s.output], sum: s.text });
  });

  // every signal is driven once: by a block output (or a sum), or as an external input
  const driver = new Map<string, { block: Block; index: number }>();
  let P = 0;
  for (const b of blocks)
    b.outputs.forEach((name) => {
      const prev = driver.get(name);
      if (prev)
        throw new ControlError(
          `connect: signal '${name}' is driven twice: by ${blockWord(prev.block)} and by ${blockWord(b)}. Each signal has one source; to add two signals, name them apart and join them with a summing junction ('${name} = ${name}1 + ${name}2').`,
        );
      driver.set(name, { block: b, index: P++ });
    });
  const blockInputs = blocks.flatMap((b) => b.inputs);
  const M = blockInputs.length;
  // the external inputs and outputs; a vector name stands for its elements (u -> u(1), u(2))
  const expand = (name: string): string[] => {
    if (driver.has(name) || blockInputs.includes(name)) return [name];
    const els = [...new Set([...driver.keys(), ...blockInputs])].filter((s) => s.startsWith(`${name}(`) && /\(\d+\)$/.test(s));
    return els.length ? els.sort((a, b) => Number(a.slice(name.length + 1, -1)) - Number(b.slice(name.length + 1, -1))) : [name];
  };
  const inputs = nameList(args.inputs, 'inputs').flatMap(expand);
  const outputs = nameList(args.outputs, 'outputs').flatMap(expand);
  const seenIn = new Set<string>();
  for (const w of inputs) {
    if (seenIn.has(w)) throw new ControlError(`connect: input '${w}' is listed twice.`);
    seenIn.add(w);
    const d = driver.get(w);
    if (d)
      throw new ControlError(
        `connect: signal '${w}' is driven twice: it is an output of ${blockWord(d.block)} and also listed as an external input. To inject a signal there, add a summing junction ('${w}_in = ${w} + d') and feed the blocks from it.`,
      );
    if (!blockInputs.includes(w)) {
      const near = [...new Set(blockInputs)].filter((x) => !driver.has(x));
      throw new ControlError(
        `connect: input '${w}' drives nothing: no block or summing junction has an input named '${w}'${near.length ? ` (the undriven block inputs are ${near.map((x) => `'${x}'`).join(', ')})` : ''}.`,
      );
    }
  }
  for (const b of blocks)
    for (const u of b.inputs)
      if (!driver.has(u) && !seenIn.has(u))
        throw new ControlError(
          `connect: signal '${u}' (an input of ${blockWord(b)}) is unknown: no block or summing junction produces it and it is not among the inputs (${inputs.join(', ')}). Add the block that produces it, list it as an input, or correct the name.`,
        );
  for (const z of outputs)
    if (!driver.has(z) && !seenIn.has(z))
      throw new ControlError(
        `connect: output '${z}' is never produced: no block or summing junction has an output named '${z}' and it is not an input. The signals are ${[...driver.keys(), ...inputs].map((x) => `'${x}'`).join(', ')}.`,
      );

  // the matrices of the interconnection
  const G = appendSS(blocks.map((b) => b.lti));
  const kOnes: [number, number][] = [],
    eOnes: [number, number][] = [];
  blockInputs.forEach((u, i) => {
    const d = driver.get(u);
    if (d) kOnes.push([i, d.index]);
    else eOnes.push([i, inputs.indexOf(u)]);
  });
  const fOnes: [number, number][] = [],
    hOnes: [number, number][] = [];
  outputs.forEach((z, k) => {
    const d = driver.get(z);
    if (d) fOnes.push([k, d.index]);
    else hOnes.push([k, inputs.indexOf(z)]);
  });
  const K = pattern(M, P, kOnes);
  const full = closeLoop(G, K, pattern(M, inputs.length, eOnes), pattern(outputs.length, P, fOnes), pattern(outputs.length, inputs.length, hOnes), (ch, rc) => {
    const names = [...new Set(ch.map((i) => blockInputs[i]))];
    return new ControlError(
      `connect: the algebraic loop through ${names.map((x) => `'${x}'`).join(', ')} is singular: around it the direct feedthrough (the D of its blocks and sums) has loop gain 1, so I − D·K is singular (reciprocal condition ${rc.toExponential(2)}) and these signals are not determined. Change a sign or a gain, or put dynamics in the loop.`,
      'infeasible',
    );
  });
  const used = new Set([...blockInputs, ...outputs]);
  const unused = [...driver.keys()].filter((s) => !used.has(s));
  return { ...minimalResult(full, Ts, tool), input_names: inputs, output_names: outputs, unused };
}

// ------------------------------------------------------------------ lft

function readCount(v: unknown, what: string, max: number, def: number, hint: string): number {
  if (v === undefined || v === null) {
    if (def > max) throw new ControlError(`lft: ${hint}`);
    return def;
  }
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max)
    throw new ControlError(`lft: ${what} is ${JSON.stringify(v)}; it must be a whole number from 0 to ${max}.`);
  return v;
}

export function runLft(args: Record<string, any>): ConnectResult & { nu: number; ny: number; form: 'lower' | 'upper' } {
  const tool = 'lft';
  const form = args.form === undefined || args.form === null ? 'lower' : args.form;
  if (form !== 'lower' && form !== 'upper') throw new ControlError(`lft: form must be 'lower' or 'upper', not ${JSON.stringify(form)}.`);
  const a: Named = { name: 'sys1', sa: readSystemArgFull(args.sys1, 'sys1', tool) };
  const b: Named = { name: 'sys2', sa: readSystemArgFull(args.sys2, 'sys2', tool) };
  const Ts = commonTs([a, b], tool);
  checkTotal(a.sa.ss.n + b.sa.ss.n, tool);
  const s1 = toLti(a.sa.ss),
    s2 = toLti(b.sa.ss);
  const d1 = dims(s1),
    d2 = dims(s2);
  const sizes = `sys1 has ${d1.m} input(s) and ${d1.p} output(s), sys2 ${d2.m} and ${d2.p}`;
  const nu = readCount(
    args.nu,
    'nu',
    Math.min(d1.m, d2.p),
    d2.p,
    `sys2 has ${d2.p} output(s) to drive inputs of sys1, which has only ${d1.m} (${sizes}); give nu and ny.`,
  );
  const ny = readCount(
    args.ny,
    'ny',
    Math.min(d1.p, d2.m),
    d2.m,
    `sys2 has ${d2.m} input(s) to take outputs of sys1, which has only ${d1.p} (${sizes}); give nu and ny.`,
  );
  if (form === 'upper' && (nu !== d2.p || ny !== d2.m))
    throw new ControlError(
      `lft: the upper form F_u(sys1, sys2) closes every channel of sys2 (it has ${d2.m} input(s) and ${d2.p} output(s)), so nu = ${d2.p} and ny = ${d2.m}; for a partly connected sys2 use the lower form (MATLAB lft(sys2, sys1, ny, nu)).`,
    );
  // appended [sys1; sys2]: inputs u1 (m1) then u2 (m2), outputs y1 (p1) then y2 (p2)
  const kOnes: [number, number][] = [];
  const lower = form === 'lower';
  // sys2's outputs into sys1's inputs: lower, first nu outputs -> last nu inputs; upper, last nu -> first nu
  for (let k = 0; k < nu; k++) kOnes.push(lower ? [d1.m - nu + k, d1.p + k] : [k, d1.p + d2.p - nu + k]);
  // sys1's outputs into sys2's inputs: lower, last ny -> first ny; upper, first ny -> last ny
  for (let k = 0; k < ny; k++) kOnes.push(lower ? [d1.m + k, d1.p - ny + k] : [d1.m + d2.m - ny + k, k]);
  const freeIn = lower
    ? [...Array.from({ length: d1.m - nu }, (_, i) => i), ...Array.from({ length: d2.m - ny }, (_, i) => d1.m + ny + i)]
    : [...Array.from({ length: d2.m - ny }, (_, i) => d1.m + i), ...Array.from({ length: d1.m - nu }, (_, i) => nu + i)];
  const freeOut = lower
    ? [...Array.from({ length: d1.p - ny }, (_, i) => i), ...Array.from({ length: d2.p - nu }, (_, i) => d1.p + nu + i)]
    : [...Array.from({ length: d2.p - nu }, (_, i) => d1.p + i), ...Array.from({ length: d1.p - ny }, (_, i) => ny + i)];
  if (!freeIn.length || !freeOut.length)
    throw new ControlError(
      `lft: with nu = ${nu} and ny = ${ny} every ${freeIn.length ? 'output' : 'input'} is inside the loop, so the result has no ${freeIn.length ? 'outputs' : 'inputs'} (${sizes}).`,
    );
  const M = d1.m + d2.m,
    P = d1.p + d2.p;
  const G = appendSS([s1, s2]);
  const full = closeLoop(
    G,
    pattern(M, P, kOnes),
    pattern(
      M,
      freeIn.length,
      freeIn.map((i, k) => [i, k]),
    ),
    pattern(
      freeOut.length,
      P,
      freeOut.map((j, k) => [k, j]),
    ),
    zeros(freeOut.length, freeIn.length),
    (_, rc) =>
      new ControlError(
        `lft: the interconnection is not well-posed: I − D22·DK is singular (reciprocal condition ${rc.toExponential(2)}), where D22 is the feedthrough of sys1 from its ${nu} loop input(s) to its ${ny} loop output(s) and DK that of sys2 around the loop; the loop signals are not determined. Change a gain or add dynamics to sys1's D22 or sys2's D.`,
        'infeasible',
      ),
  );
  const chIn = (i: number) => (i < d1.m ? `sys1 input ${i + 1}` : `sys2 input ${i - d1.m + 1}`);
  const chOut = (j: number) => (j < d1.p ? `sys1 output ${j + 1}` : `sys2 output ${j - d1.p + 1}`);
  return { ...minimalResult(full, Ts, tool), input_names: freeIn.map(chIn), output_names: freeOut.map(chOut), unused: [], nu, ny, form };
}

// ------------------------------------------------------------------ rendering

function removedText(r: ConnectResult, o: RenderOptions): string {
  const parts: string[] = [];
  if (r.uncontrollable?.length) parts.push(`${list(r.uncontrollable, o)} not reachable from the inputs (uncontrollable)`);
  if (r.unobservable?.length) parts.push(`${list(r.unobservable, o)} not seen at the outputs (unobservable)`);
  return parts.length ? `removed ${parts.join('; ')}` : 'nothing to remove';
}

function renderResult(head: string[], r: ConnectResult, o: RenderOptions, what: string): string {
  const out = [...head];
  if (r.num && r.den) out.push(tfLine('T', r.num, r.den, r.Ts, o));
  out.push(`**Inputs:** ${r.input_names.join(', ')}. **Outputs:** ${r.output_names.join(', ')}.`);
  out.push(...matrices(r, o));
  if (r.Ts > 0) out.push(`Discrete time, Ts = ${fmt(r.Ts)} s.`);
  out.push(
    `**Minimal realisation:** ${r.A.length} state${r.A.length === 1 ? '' : 's'} of the ${r.order_full} of the interconnection; ${removedText(r, o)}. ${what} may return the ${r.order_full}-state interconnection; apply minreal to compare.`,
  );
  out.push(`**Poles of the whole interconnection** (removed modes included): ${list(r.poles, o)} — ${stability(r.poles, r.Ts)}.`);
  const hidden = r.removed.filter((p) => (r.Ts > 0 ? Math.hypot(p[0], p[1]) >= 1 : p[0] >= 0));
  if (hidden.length)
    out.push(
      `**Caution:** the removed mode${hidden.length === 1 ? '' : 's'} ${list(hidden, o)} ${hidden.length === 1 ? 'is' : 'are'} not stable: the result looks stable but the interconnection is not internally stable.`,
    );
  if (r.unused.length) out.push(`Signals produced but used nowhere: ${r.unused.join(', ')} (their blocks' modes are unobservable from the outputs chosen).`);
  return out.join('\n\n');
}

function renderConnect(args: Record<string, any>, r: ConnectResult, o: RenderOptions): string {
  const blocks = (args.blocks as Record<string, any>[]).map((b, i) => {
    const ins = typeof b.inputName === 'string' ? b.inputName : (b.inputName as string[]).join(', ');
    const outs = typeof b.outputName === 'string' ? b.outputName : (b.outputName as string[]).join(', ');
    return `${typeof b.name === 'string' && b.name ? b.name : `block ${i + 1}`}: ${ins} → ${outs}`;
  });
  const sums = (typeof args.sums === 'string' ? [args.sums] : ((args.sums ?? []) as string[])).map((s) => `${s.replace(/\s*-\s*/g, ' − ').trim()}`);
  const head = [
    `**Block diagram joined by signal names** (MATLAB connect, python-control interconnect): ${blocks.join('; ')}${sums.length ? `; summing junction${sums.length > 1 ? 's' : ''} ${sums.join(', ')}` : ''}. From ${r.input_names.join(', ')} to ${r.output_names.join(', ')}.`,
  ];
  return renderResult(head, r, o, "MATLAB's connect and python-control's interconnect");
}

function renderLft(args: Record<string, any>, r: ConnectResult & { nu: number; ny: number; form: string }, o: RenderOptions): string {
  const head =
    r.form === 'upper'
      ? `**Upper linear fractional transformation** F_u(sys1, sys2) = P22 + P21·Δ·(I − P11·Δ)⁻¹·P12: the first ${r.nu} input(s) of sys1 driven by sys2's outputs, its first ${r.ny} output(s) into sys2 (MATLAB lft(sys2, sys1, ${r.ny}, ${r.nu})).`
      : `**Lower linear fractional transformation** F_l(sys1, sys2) = P11 + P12·K·(I − P22·K)⁻¹·P21: the first ${r.nu} output(s) of sys2 drive the last ${r.nu} input(s) of sys1, its last ${r.ny} output(s) drive sys2 (MATLAB lft(sys1, sys2, ${r.nu}, ${r.ny}), python-control sys1.lft(sys2, nu=${r.nu}, ny=${r.ny})).`;
  void args;
  return renderResult([head, 'Well-posed: I − D22·DK is invertible.'], r, o, "MATLAB's lft and python-control's lft");
}

// ------------------------------------------------------------------ code

const q = (s: string, lang: 'matlab' | 'python') => (lang === 'matlab' ? `'${s}'` : `'${s.replace(/\((\d+)\)$/, (_, k) => `[${Number(k) - 1}]`)}'`);
const names = (l: string[], lang: 'matlab' | 'python') =>
  lang === 'matlab' ? `{${l.map((s) => q(s, lang)).join(', ')}}` : `[${l.map((s) => q(s, lang)).join(', ')}]`;
const asList = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? (v as string[]) : []);
/** a number as a static gain system, so that it can carry names */
const asSys = (v: unknown) => (typeof v === 'number' ? { A: [], D: [[v]] } : v);

function tsOf(systems: unknown[]): number {
  for (const v of systems)
    if (v && typeof v === 'object' && typeof (v as { Ts?: unknown }).Ts === 'number' && (v as { Ts: number }).Ts > 0) return (v as { Ts: number }).Ts;
  return 0;
}

function connectCode(code: Code, a: Record<string, any>, r: ConnectResult | undefined): void {
  const M = code.lang === 'matlab';
  const blocks = a.blocks as Record<string, any>[];
  const Ts = tsOf(blocks.map((b) => b.sys));
  const sysNames: string[] = [];
  blocks.forEach((b, i) => {
    const n = `sys${i + 1}`;
    sysNames.push(n);
    sysCode(code, n, asSys(b.sys), Ts);
    if (typeof b.name === 'string' && b.name) code.comment(`${n} is ${b.name}`);
    const ins = asList(b.inputName),
      outs = asList(b.outputName);
    if (M) code.line(`${n}.InputName = ${names(ins, 'matlab')}; ${n}.OutputName = ${names(outs, 'matlab')};`);
    else code.assign(n, `ct.ss(${n}, inputs=${names(ins, 'python')}, outputs=${names(outs, 'python')})`);
  });
  const sums = typeof a.sums === 'string' ? [a.sums] : ((a.sums ?? []) as string[]);
  sums.forEach((s, i) => {
    const n = `S${i + 1}`;
    sysNames.push(n);
    const j = parseSum(s);
    const expr = j.terms.map((t, k) => (k ? ` ${t.sign < 0 ? '-' : '+'} ${t.name}` : `${t.sign < 0 ? '-' : ''}${t.name}`)).join('');
    // a sum is a static gain: it takes the blocks' sample time in MATLAB and python-control alike
    if (M) code.assign(n, `sumblk('${j.output} = ${expr}')`);
    else
      code.assign(
        n,
        `ct.summing_junction(inputs=[${j.terms.map((t) => q(`${t.sign < 0 ? '-' : ''}${t.name}`, 'python')).join(', ')}], output=${q(j.output, 'python')})`,
      );
  });
  const ins = asList(a.inputs),
    outs = asList(a.outputs);
  if (M) code.assign('T', `connect(${sysNames.join(', ')}, ${names(ins, 'matlab')}, ${names(outs, 'matlab')})`);
  else code.assign('T', `ct.interconnect([${sysNames.join(', ')}], inplist=${names(ins, 'python')}, outlist=${names(outs, 'python')})`);
  code.assign('T', M ? 'minreal(T)' : 'ct.minreal(T, verbose=False)').comment('our result is minimal; connect/interconnect may keep more states');
  code.line(
    M
      ? 'p = pole(connect(' + sysNames.join(', ') + `, ${names(ins, 'matlab')}, ${names(outs, 'matlab')}))   % poles of the whole interconnection`
      : 'p = T.poles()',
  );
  resultExpect(code, r, true);
}

function lftCode(code: Code, a: Record<string, any>, r: (ConnectResult & { nu: number; ny: number; form: string }) | undefined): void {
  const M = code.lang === 'matlab';
  const Ts = tsOf([a.sys1, a.sys2]);
  sysCode(code, 'sys1', asSys(a.sys1), Ts);
  sysCode(code, 'sys2', asSys(a.sys2), Ts);
  const nu = r?.nu ?? a.nu,
    ny = r?.ny ?? a.ny;
  const upper = (r?.form ?? a.form) === 'upper';
  const counts = nu !== undefined && ny !== undefined;
  if (M) {
    if (upper)
      code.assign('T', `lft(sys2, sys1${counts ? `, ${ny}, ${nu}` : ''})`).comment('the upper LFT F_u(sys1, sys2): MATLAB puts the upper system first');
    else code.assign('T', `lft(sys1, sys2${counts ? `, ${nu}, ${ny}` : ''})`);
  } else {
    code.line('sys1 = ct.ss(sys1); sys2 = ct.ss(sys2)');
    if (upper) {
      code.comment("python-control's lft is the lower one: F_u(P, D) = F_l(P with its input and output blocks swapped, D)");
      code.line(`nu, ny = ${nu}, ${ny}`);
      code.line('pin = np.r_[nu:sys1.ninputs, 0:nu]; pout = np.r_[ny:sys1.noutputs, 0:ny]');
      code.line('P = ct.ss(sys1.A, sys1.B[:, pin], sys1.C[pout, :], sys1.D[np.ix_(pout, pin)], sys1.dt)');
      code.line('T = P.lft(sys2, nu=nu, ny=ny)');
    } else code.line(`T = sys1.lft(sys2${counts ? `, nu=${nu}, ny=${ny}` : ''})`);
  }
  code.assign('T', M ? 'minreal(T)' : 'ct.minreal(T, verbose=False)').comment('our result is minimal; lft returns the full interconnection');
  resultExpect(code, r, true);
}

// ------------------------------------------------------------------ the tools

const nameListSchema = (what: string): JsonSchema => ({
  type: ['string', 'array'],
  items: { type: 'string' },
  description: `${what}: a signal name or a list of names`,
});

const countProp = (what: string): JsonSchema => ({ type: 'integer', minimum: 0, description: what });

export const tools = [
  tool({
    name: 'connect',
    words: {
      calls: [
        { names: ['connect'], args: ['blocks', 'inputs', 'outputs'] },
        { names: ['interconnect'], args: ['blocks'], keywords: { inplist: 'inputs', outlist: 'outputs' } },
      ],
      phrases: ['sumblk', 'summing junction', 'connect by signal names', 'connect by name', 'interconnect by signal names', 'block diagram by signal names'],
      example:
        "G = tf(1, [1 1]); G.InputName = 'u'; G.OutputName = 'y'; C = tf([2 1], [1 0]); C.InputName = 'e'; C.OutputName = 'u'; S = sumblk('e = r - y'); T = connect(G, C, S, 'r', 'y')",
      // "connect" is an everyday word ("connect in series"): the tool by its call or phrases only
      name: 'call-only',
    },
    title: 'Connect blocks by signal names',
    brief: 'Block diagram from named signals and sums: inputs/outputs by name.',
    description:
      "Builds a block diagram by signal names (MATLAB connect(sys1, sys2, sumblk('e = r - y'), 'r', 'y'), python-control interconnect([...], inplist, outlist) with summing_junction): blocks is a list of {sys, inputName, outputName, name?} (sys a number, {A, B, C, D?, Ts?} or {num, den, Ts?}; one name per input/output, or one name for all as MATLAB's u(1), u(2)); sums are summing junctions written 'e = r - y'; inputs and outputs are the external signals by name. A block input takes the signal of its name; each signal is driven once. Refused with the signal named: an unknown signal, a signal driven twice, an input that drives nothing, an output never produced, a singular algebraic loop. Returns A, B, C, D of a minimal realisation (num/den when SISO), input_names/output_names, poles of the whole interconnection, and the removed modes (uncontrollable: not reachable from the inputs; unobservable: not seen at the outputs).",
    parameters: {
      type: 'object',
      properties: {
        blocks: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_BLOCKS,
          items: {
            type: 'object',
            properties: {
              sys: systemArg("the block's system"),
              inputName: nameListSchema('the names of its inputs (MATLAB InputName, python-control inputs=)'),
              outputName: nameListSchema('the names of its outputs (MATLAB OutputName, python-control outputs=)'),
              name: { type: 'string', description: 'the block by name (G, C), for messages and code' },
            },
            required: ['sys', 'inputName', 'outputName'],
          },
          description: `the blocks (at most ${MAX_BLOCKS})`,
        },
        sums: {
          type: 'array',
          maxItems: MAX_SUMS,
          items: { type: 'string' },
          description: "summing junctions, each 'out = a + b - c' (MATLAB sumblk's expression)",
        },
        inputs: nameListSchema('the external inputs, by signal name'),
        outputs: nameListSchema('the outputs, by signal name'),
      },
      required: ['blocks', 'inputs', 'outputs'],
      additionalProperties: false,
    },
    run: runConnect,
    intro: null,
    render: renderConnect,
    code: { title: 'block diagram joined by signal names', gen: connectCode },
    model: BY_LOOKUP,
    plots: resultPlots,
  }),
  tool({
    name: 'lft',
    words: {
      calls: [{ names: ['lft'], args: ['sys1', 'sys2', 'nu', 'ny'], keywords: { nu: 'nu', ny: 'ny' } }],
      phrases: ['linear fractional transformation', 'linear fractional transform', 'lower lft', 'upper lft', 'redheffer star product', 'star product'],
      example: 'lft(P, K) with P = ss([0 1; 0 -1], [0 0; 0 1], [1 0; -1 0], [0 0; 1 0]) and K = 10',
    },
    title: 'Linear fractional transformation',
    brief: 'Lower LFT F_l(P, K) (or upper): P with K closing nu inputs / ny outputs.',
    description:
      "Linear fractional transformation as MATLAB lft(sys1, sys2, nu, ny): the first nu outputs of sys2 drive the last nu inputs of sys1 and the last ny outputs of sys1 drive the first ny inputs of sys2; the result maps the remaining inputs [w1; w2] to the remaining outputs [z1; z2]. With sys1 = P = [P11 P12; P21 P22] and sys2 = K fully connected this is the lower LFT F_l(P, K) = P11 + P12·K·(I − P22·K)⁻¹·P21 (python-control sys1.lft(sys2, nu, ny)). form 'upper': F_u(P, Δ) = P22 + P21·Δ·(I − P11·Δ)⁻¹·P12, Δ closing the first inputs/outputs of P. Defaults nu = outputs of sys2, ny = inputs of sys2. Refused when not well-posed (I − D22·DK singular). Returns a minimal realisation, poles of the whole interconnection and the removed modes.",
    parameters: {
      type: 'object',
      properties: {
        sys1: systemArg('the plant P (inputs [w; u], outputs [z; y])'),
        sys2: systemArg('the system closing the loop: the controller K (lower) or the uncertainty Δ (upper)'),
        nu: countProp('number of inputs of sys1 driven by sys2 (default: the outputs of sys2)'),
        ny: countProp('number of outputs of sys1 fed to sys2 (default: the inputs of sys2)'),
        form: {
          type: 'string',
          enum: ['lower', 'upper'],
          default: 'lower',
          description: "'lower' (default): K closes the last channels of P; 'upper': Δ closes the first ones",
        },
      },
      required: ['sys1', 'sys2'],
      additionalProperties: false,
    },
    run: runLft,
    intro: null,
    render: renderLft,
    code: { title: 'linear fractional transformation', gen: lftCode },
    model: BY_LOOKUP,
    plots: resultPlots,
  }),
];
