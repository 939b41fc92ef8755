/**
 * Reading block diagrams joined by signal names and linear fractional transformations, as
 * pasted from MATLAB or python-control:
 *
 *   G.InputName = 'u'; G.OutputName = 'y';        (or G.u = 'u'; G.y = 'y';
 *   S = sumblk('e = r - y');                        tf(…, 'InputName', 'u', 'OutputName', 'y'))
 *   T = connect(G, C, S, 'r', 'y')                  (or {'r'}, {'y'}; sumblk inline)
 *
 *   P = ct.tf(1, [1, 0], inputs='u', outputs='y')
 *   sumblk = ct.summing_junction(inputs=['r', '-y'], output='e')
 *   T = ct.interconnect([P, C, sumblk], inplist='r', outlist='y')   (or inputs=/outputs=)
 *
 *   lft(P, K), lft(P, K, nu, ny), P.lft(K, nu=1, ny=1), ct.lft(P, K)
 *
 * The systems themselves are read by the reader (defined in this message or named from an
 * earlier turn, by the session rules); here only the names of their signals, the sums and the
 * call. What cannot be read is asked, naming what is missing; nothing is guessed.
 */
import { findCalls, type CallFound } from './calls.js';
import type { Conversation, Origin, System } from './conversation.js';
import type { CallReading, Reading, ReadOptions } from './read.js';
import type { Scope } from './values.js';
import { systemObject } from './interconnect.js';

export interface ConnectInput {
  text: string;
  conv: Conversation;
  opts: ReadOptions;
  scope: Scope;
  /** records the turn (read.ts's record), with the call when there is one */
  record: (call?: CallReading) => void;
}

/** a quoted string, a cell/list of them, or a bare name: the names it holds */
function namesOf(t: string | undefined): string[] | undefined {
  if (t === undefined) return undefined;
  const s = t.trim();
  const quoted = [...s.matchAll(/'([^']*)'|"([^"]*)"/g)].map((m) => (m[1] ?? m[2]).trim());
  if (quoted.length) return quoted;
  return undefined;
}

/** python-control element names u[0] are MATLAB's u(1) */
const matlabName = (n: string) => n.replace(/\[(\d+)\]$/, (_, k) => `(${Number(k) + 1})`);

/** the signal names given to systems in the text: X.InputName/X.u = …, constructor options, python keywords */
function signalNames(text: string, calls: CallFound[]): Map<string, { inputName?: string[]; outputName?: string[]; text: string[] }> {
  const out = new Map<string, { inputName?: string[]; outputName?: string[]; text: string[] }>();
  const put = (sys: string, key: 'inputName' | 'outputName', v: string[] | undefined, written: string) => {
    if (!v?.length) return;
    const e = out.get(sys) ?? { text: [] };
    e[key] = v.map(matlabName);
    e.text.push(written.trim());
    out.set(sys, e);
  };
  for (const m of text.matchAll(/(?<![\w.])([A-Za-z_]\w*)\.(InputName|OutputName|u|y)\s*=\s*(\{[^}]*\}|\[[^\]]*\]|'[^']*'|"[^"]*")/g))
    put(m[1], /^(?:InputName|u)$/.test(m[2]) ? 'inputName' : 'outputName', namesOf(m[3]), m[0]);
  for (const c of calls) {
    if (c.outputs.length !== 1) continue;
    // MATLAB tf(…, 'InputName', 'u', 'OutputName', 'y')
    c.args.forEach((a, i) => {
      const k = namesOf(a.text)?.[0]?.toLowerCase();
      if (!a.name && (k === 'inputname' || k === 'outputname') && c.args[i + 1])
        put(c.outputs[0], k === 'inputname' ? 'inputName' : 'outputName', namesOf(c.args[i + 1].text), `${a.text}, ${c.args[i + 1].text}`);
    });
    // python-control ct.tf(…, inputs='u', outputs='y'), ct.ss(…), ct.tf2io(…)
    if (c.fn !== 'summing_junction' && c.fn !== 'interconnect')
      for (const a of c.args)
        if (a.name === 'inputs' || a.name === 'outputs')
          put(c.outputs[0], a.name === 'inputs' ? 'inputName' : 'outputName', namesOf(a.text), `${a.name}=${a.text}`);
  }
  return out;
}

/** a summing junction as MATLAB writes it: sumblk('e = r - y'); python-control's summing_junction(inputs=['r', '-y'], output='e') */
function sumOf(c: CallFound): string | undefined {
  if (c.fn === 'sumblk') {
    const n = namesOf(c.args[0]?.text);
    return n?.length === 1 && c.args.length === 1 ? n[0] : undefined;
  }
  if (c.fn === 'summing_junction') {
    const ins = namesOf(c.args.find((a) => a.name === 'inputs')?.text ?? c.args.find((a) => !a.name)?.text);
    const o = namesOf(c.args.find((a) => a.name === 'output')?.text) ?? ['y'];
    if (!ins?.length || o.length !== 1) return undefined;
    return `${matlabName(o[0])} = ${ins.map((x, i) => (x.startsWith('-') ? `- ${matlabName(x.slice(1))}` : `${i ? '+ ' : ''}${matlabName(x)}`)).join(' ')}`;
  }
  return undefined;
}

const origin = (t: string): Origin => ({ from: 'message', text: t });

function ask(inp: ConnectInput, question: string): Reading {
  inp.record();
  return { kind: 'ask', question, candidates: [] };
}

/** the system a name stands for, as a system object, and where it came from */
function systemNamed(name: string, scope: Scope): { value: unknown; origin: Origin; sys: System } | { missing: string } | undefined {
  const s = scope.system(name);
  if (!s) return undefined;
  const o = systemObject(s.entry.sys);
  if ('missing' in o) return { missing: o.missing };
  return { value: o.value, origin: s.origin, sys: s.entry.sys };
}

/** sizes (inputs, outputs) of a system as the reader holds it */
function ioSize(sys: System): [number, number] | undefined {
  if (sys.kind === 'tf') return [1, 1];
  const B = sys.B,
    C = sys.C;
  return B && C ? [B[0]?.length ?? 0, C.length] : undefined;
}

function readConnectCall(inp: ConnectInput, call: CallFound, calls: CallFound[]): Reading {
  const { text, scope } = inp;
  const python = call.fn === 'interconnect';
  const sums = new Map<string, string>();
  for (const c of calls) {
    const s = sumOf(c);
    if (s && c.outputs.length === 1) sums.set(c.outputs[0], s);
  }
  const names = signalNames(text, calls);
  const args: Record<string, unknown> = {};
  const origins: Record<string, Origin> = {};
  let blockTexts: string[];
  let inText: string | undefined, outText: string | undefined;
  if (python) {
    const first = call.args.find((a) => !a.name)?.text.trim() ?? '';
    blockTexts = /^\[.*\]$/s.test(first)
      ? first
          .slice(1, -1)
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean)
      : [];
    const kw = (k: string[]) => call.args.find((a) => a.name && k.includes(a.name))?.text;
    inText = kw(['inplist', 'inputs']) ?? call.args.filter((a) => !a.name)[2]?.text;
    outText = kw(['outlist', 'outputs']) ?? call.args.filter((a) => !a.name)[3]?.text;
  } else {
    const pos = call.args.filter((a) => !a.name);
    if (pos.length < 3)
      return ask(
        inp,
        `connect(sys1, …, sysN, inputs, outputs) needs the blocks and then the external inputs and outputs by name, e.g. \`T = connect(G, C, sumblk('e = r - y'), 'r', 'y')\`.`,
      );
    blockTexts = pos.slice(0, -2).map((a) => a.text.trim());
    inText = pos[pos.length - 2].text;
    outText = pos[pos.length - 1].text;
  }
  const inputs = namesOf(inText)?.map(matlabName);
  const outputs = namesOf(outText)?.map(matlabName);
  if (!blockTexts.length || !inputs?.length || !outputs?.length)
    return ask(
      inp,
      `I could not read the blocks and the input and output names of ${call.text}. Write it as MATLAB \`T = connect(G, C, S, 'r', 'y')\` or python-control \`ct.interconnect([G, C, S], inplist=['r'], outlist=['y'])\`.`,
    );
  const blocks: Record<string, unknown>[] = [];
  const from: string[] = [];
  const sumList: string[] = [];
  const notes: string[] = [];
  for (const b of blockTexts) {
    // an inline sumblk('e = r - y') / summing_junction(…)
    const inline = findCalls(b).find((c) => c.start === 0 && c.end === b.length);
    const s = inline ? sumOf(inline) : sums.get(b);
    if (s !== undefined) {
      sumList.push(s);
      continue;
    }
    if (!/^[A-Za-z_]\w*$/.test(b))
      return ask(inp, `${b} in ${call.text} is not a system name or a summing junction; define it first (e.g. \`C = tf([2 1], [1 0])\`) and name its signals.`);
    const sys = systemNamed(b, scope);
    if (!sys) {
      // G = ss(…, 'InputName', 'u'): the model reader does not take a constructor with name options
      const ctor = calls.find((c) => c.outputs.length === 1 && c.outputs[0] === b && c.args.some((a) => /^['"](?:Input|Output)Name['"]$/i.test(a.text.trim())));
      return ask(
        inp,
        ctor
          ? `I read a model and its signal names from separate statements: write \`${b} = ${ctor.raw}(…)\` without the 'InputName'/'OutputName' options, then \`${b}.InputName = …; ${b}.OutputName = …;\`.`
          : `${b} in ${call.text} is not defined: give its model first (e.g. \`${b} = tf(1, [1 1])\`), with its signal names.`,
      );
    }
    if ('missing' in sys) return ask(inp, `${b} has no ${sys.missing}: connect needs whole models. Please give ${sys.missing} of ${b}.`);
    const n = names.get(b);
    const missing = [!n?.inputName && (python ? 'inputs=' : 'InputName'), !n?.outputName && (python ? 'outputs=' : 'OutputName')].filter(Boolean);
    if (missing.length)
      return ask(
        inp,
        `connect joins blocks by signal names, and ${b} has no ${missing.join(' or ')} here. Give them in the same message, e.g. ${
          python ? `\`${b} = ct.tf(…, inputs='u', outputs='y')\`` : `\`${b}.InputName = 'u'; ${b}.OutputName = 'y';\``
        }.`,
      );
    const io = ioSize(sys.sys);
    blocks.push({
      sys: sys.value,
      inputName: n!.inputName!.length === 1 ? n!.inputName![0] : n!.inputName,
      outputName: n!.outputName!.length === 1 ? n!.outputName![0] : n!.outputName,
      name: b,
    });
    if (sys.origin.from !== 'message') from.push(`${b} from ${sys.origin.from === 'system' ? `turn ${sys.origin.turn}` : 'the selection'}`);
    if (io && n!.inputName!.length === 1 && io[0] > 1)
      notes.push(`${b}'s ${io[0]} inputs are ${n!.inputName![0]}(1) … ${n!.inputName![0]}(${io[0]}) (MATLAB's vector names)`);
  }
  if (!blocks.length) return ask(inp, `${call.text} connects no systems, only summing junctions; name the blocks with their models.`);
  args.blocks = blocks;
  origins.blocks = origin(
    blocks.map((b) => `${b.name}: ${[b.inputName].flat().join(', ')} → ${[b.outputName].flat().join(', ')}`).join('; ') +
      (from.length ? ` (${from.join(', ')})` : ''),
  );
  if (sumList.length) {
    args.sums = sumList;
    origins.sums = origin(sumList.join('; '));
  }
  args.inputs = inputs.length === 1 ? inputs[0] : inputs;
  args.outputs = outputs.length === 1 ? outputs[0] : outputs;
  origins.inputs = origin(inText!.trim());
  origins.outputs = origin(outText!.trim());
  if (python) notes.push("python-control's interconnect, read as MATLAB's connect (the same name-based rules)");
  const reading: CallReading = {
    kind: 'call',
    tool: 'connect',
    args,
    origins,
    unused: [],
    notes,
    system: `connect(${blockTexts.join(', ')})`,
    via: inp.opts.command ? 'command' : 'call',
    ...(call.outputs.length === 1 ? { output: call.outputs[0] } : {}),
  };
  inp.record(reading);
  return reading;
}

function readLftCall(inp: ConnectInput, call: CallFound): Reading {
  const { scope } = inp;
  const pos = call.args.filter((a) => !a.name).map((a) => a.text.trim());
  const kw = Object.fromEntries(call.args.filter((a) => a.name).map((a) => [a.name!, a.text.trim()]));
  // P.lft(K, nu, ny): the receiver is the first system
  const sysTexts = call.receiver ? [call.receiver, pos[0]] : [pos[0], pos[1]];
  const counts = call.receiver ? pos.slice(1) : pos.slice(2);
  if (sysTexts.some((t) => !t)) return ask(inp, 'lft needs two systems: `lft(P, K)` (K closing the last inputs and outputs of P) or `lft(P, K, nu, ny)`.');
  const args: Record<string, unknown> = {};
  const origins: Record<string, Origin> = {};
  const got: { value: unknown; sys: System; origin: Origin }[] = [];
  for (const t of sysTexts) {
    const num = Number(t);
    if (/^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i.test(t)) {
      got.push({ value: num, sys: { kind: 'tf', num: [num], den: [1] }, origin: origin(t) });
      continue;
    }
    const s = /^[A-Za-z_]\w*$/.test(t) ? systemNamed(t, scope) : undefined;
    // a name given a number or a matrix (K = 10, K = [1 0; 0 2]): a static gain
    const m = !s && /^[A-Za-z_]\w*$/.test(t) ? scope.matrix(t) : undefined;
    if (m) {
      const v = m.value.length === 1 && m.value[0].length === 1 ? m.value[0][0] : { A: [], D: m.value };
      got.push({
        value: v,
        sys: typeof v === 'number' ? { kind: 'tf', num: [v], den: [1] } : { kind: 'ss', A: [], B: [], C: m.value.map(() => []), D: m.value },
        origin: m.origin,
      });
      continue;
    }
    if (!s) return ask(inp, `${t} in ${call.text} is not a defined system: give its model first (e.g. \`${t} = ss(A, B, C, D)\`).`);
    if ('missing' in s) return ask(inp, `${t} has no ${s.missing}: lft needs whole models. Please give ${s.missing} of ${t}.`);
    got.push(s);
  }
  const nuT = counts[0] ?? kw.nu,
    nyT = counts[1] ?? kw.ny;
  const notes: string[] = [];
  let [a, b] = got;
  let [la, lb] = sysTexts;
  if (nuT === undefined && nyT === undefined && !call.receiver && call.fn === 'lft') {
    // MATLAB lft(sys1, sys2): the lower LFT when sys2 is the smaller, the upper one when sys1 is
    const sa = ioSize(a.sys),
      sb = ioSize(b.sys);
    if (sa && sb && sa[0] < sb[0] && sa[1] < sb[1] && !/\bct\.|control\./.test(call.raw)) {
      [a, b] = [b, a];
      [la, lb] = [lb, la];
      args.form = 'upper';
      origins.form = origin(`${call.text}: ${sysTexts[0]} is the smaller system`);
      notes.push(`MATLAB's lft(${sysTexts[0]}, ${sysTexts[1]}) with the smaller system first is the upper LFT F_u(${sysTexts[1]}, ${sysTexts[0]})`);
    } else if (!(sa && sb && sb[0] < sa[0] && sb[1] < sa[1]) && sa && sb)
      notes.push(`${sysTexts[1]} closes ${sb[1]} input(s) and ${sb[0]} output(s) of ${sysTexts[0]} (MATLAB's default nu, ny)`);
  }
  args.sys1 = a.value;
  args.sys2 = b.value;
  origins.sys1 = a.origin;
  origins.sys2 = b.origin;
  for (const [k, t] of [
    ['nu', nuT],
    ['ny', nyT],
  ] as const)
    if (t !== undefined) {
      if (!/^\d+$/.test(t)) return ask(inp, `${k} = ${t} in ${call.text} is not a whole number of channels.`);
      args[k] = Number(t);
      origins[k] = origin(t);
    }
  const reading: CallReading = {
    kind: 'call',
    tool: 'lft',
    args,
    origins,
    unused: [],
    notes,
    system: `lft(${la}, ${lb})`,
    via: inp.opts.command ? 'command' : 'call',
    ...(call.outputs.length === 1 ? { output: call.outputs[0] } : {}),
  };
  inp.record(reading);
  return reading;
}

/**
 * A reading of a message that calls connect/interconnect or lft (or defines a sum with
 * sumblk/summing_junction and then connects), or undefined: read.ts goes on.
 */
export function readConnect(inp: ConnectInput): Reading | undefined {
  const cmd = inp.opts.command?.toLowerCase();
  if (cmd && cmd !== 'connect' && cmd !== 'lft') return undefined;
  const calls = findCalls(inp.text);
  const top = calls.filter((c) => !calls.some((o) => o !== c && o.start < c.start && o.end >= c.end));
  const connects = top.filter((c) => c.fn === 'connect' || c.fn === 'interconnect');
  const lfts = top.filter((c) => c.fn === 'lft');
  if (cmd !== 'lft' && connects.length === 1 && !lfts.length) return readConnectCall(inp, connects[0], calls);
  if (cmd !== 'connect' && lfts.length === 1 && !connects.length) return readLftCall(inp, lfts[0]);
  if (connects.length + lfts.length > 1)
    return ask(
      inp,
      `This message has ${connects.length + lfts.length} interconnection calls (${[...connects, ...lfts].map((c) => c.text).join('; ')}). Which one should I compute?`,
    );
  if (cmd === 'connect' || (!cmd && calls.some((c) => c.fn === 'sumblk' || c.fn === 'summing_junction')))
    return ask(
      inp,
      "Which block diagram should I connect? Name each block's signals and call connect, e.g. `G.InputName = 'u'; G.OutputName = 'y'; C.InputName = 'e'; C.OutputName = 'u'; S = sumblk('e = r - y'); T = connect(G, C, S, 'r', 'y')`.",
    );
  if (cmd === 'lft') return ask(inp, 'Which systems should lft connect? e.g. `lft(P, K)` with P and K defined, or `lft(P, K, nu, ny)`.');
  return undefined;
}
