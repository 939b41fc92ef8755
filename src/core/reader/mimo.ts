/**
 * MIMO transfer functions and zero-pole-gain systems as a request writes them (issue 13):
 * - a matrix of transfer-function expressions: `G = [1/(s+1) 2/(s+2); 0 1/(s+3)]`,
 *   `G(s) = [1/(s+1), 1/(s+2)]` (MATLAB's rules for a space between entries);
 * - MATLAB cell arrays in `tf({1, [1 1]; 0, 2}, {[1 2], [1 3]; 1, [1 4]})` and
 *   `zpk({[], -1}, {[-2], [-3 -4]}, [1 2])`, also through names assigned in the message
 *   (`num = {…}; den = {…}; G = tf(num, den)`) or in an earlier turn;
 * - python-control's nested lists `ct.tf([[[1], [1, 1]]], [[[1, 2], [1, 3]]])`;
 * - the arguments of zpk2tf/zpk2ss read from MATLAB literals (z = [-1], p = [-2 -3], k = 5).
 *
 * How a transfer matrix is kept in the conversation (ARCHITECTURE.md): as a state-space
 * System (`kind: 'ss'`) holding the transfer matrix as written in `tfm`, with A, B, C, D its
 * minimal realisation by the same kernel tf2ss uses (solvers/_tfm.ts realiseTfMatrix). The
 * matrices are only the reading's view (sizes, the number of states for weights, interconnection
 * and connect sizes keep working unchanged); every tool runs either on the transfer matrix
 * itself (tf2ss, zpk, the interconnections) or on the verified result of a visible tf2ss
 * pre-call (read.ts), never on the reader's matrices. A 1x1 matrix is a SISO transfer function.
 *
 * Hand-written: these are the notations' own small grammars (cells, bracketed lists, MATLAB's
 * whitespace rule); each entry is read by the transfer-function parser (tfexpr.ts, mathjs).
 */
import { ControlError } from '../errors.js';
import { parseMatrixLiteral } from '../parse/index.js';
import { readTfMatrix, realiseTfMatrix } from '../solvers/_tfm.js';
import { polyFromRoots, polyStrip } from '../linalg/poly.js';
import { closingBracket } from './calls.js';
import type { System } from './conversation.js';
import type { ToolDef } from '../tools/types.js';
import type { PreCall } from '../agent/deterministic.js';
import { completeConjugates, readNumberList, type Cx } from './quantities.js';
import { parseTfExpression } from './tfexpr.js';

const isNum = (x: unknown): x is number => typeof x === 'number';

/** a MATLAB row vector of roots written as a literal ([[-2, -3]]) is the list [-2, -3]; k = [[5]] is 5 */
export function zpkArgsFromLiterals(args: Record<string, unknown>): void {
  for (const key of ['z', 'p']) {
    const v = args[key];
    if (Array.isArray(v) && v.length === 1 && Array.isArray(v[0]) && (v[0] as unknown[]).every(isNum)) args[key] = v[0];
    else if (Array.isArray(v) && v.length > 1 && v.every((r) => Array.isArray(r) && r.length === 1 && isNum(r[0])))
      args[key] = v.map((r) => (r as number[])[0]);
  }
  const k = args.k;
  if (Array.isArray(k) && k.length === 1 && Array.isArray(k[0]) && k[0].length === 1 && isNum(k[0][0])) args.k = k[0][0];
}

/** a transfer matrix as written: p x m coefficient lists (python-control's layout) */
export interface TfmValue {
  num: number[][][];
  den: number[][][];
}

/** the System kept for a transfer matrix (see the header): 1x1 is a SISO transfer function */
export function tfmSystem(num: number[][][], den: number[][][], opts: { Ts?: number; variable?: 's' | 'z' } = {}): System {
  const Ts = opts.Ts && opts.Ts > 0 ? opts.Ts : undefined;
  const variable = opts.variable ?? (Ts ? 'z' : 's');
  if (num.length === 1 && num[0].length === 1)
    return {
      kind: 'tf',
      num: polyStrip(num[0][0].length ? num[0][0] : [0]),
      den: polyStrip(den[0][0]),
      ...(Ts ? { Ts } : {}),
      ...(variable === 'z' ? { variable } : {}),
    };
  const T = readTfMatrix(num, den, 'the transfer matrix');
  const r = realiseTfMatrix(T, 'the transfer matrix');
  const n = r.A.length;
  const tfm = {
    num: T.entries.map((row) => row.map((e) => e.num)),
    den: T.entries.map((row) => row.map((e) => e.den)),
    ...(variable === 'z' ? { variable } : {}),
  };
  return {
    kind: 'ss',
    A: r.A,
    B: n ? r.B : [],
    C: n ? r.C : Array.from({ length: T.p }, () => []),
    D: r.D,
    ...(Ts ? { Ts } : {}),
    ...(variable === 'z' && !Ts ? { discrete: true } : {}),
    tfm,
  };
}

/** the transfer matrix a system holds, when it is one */
export function tfmOf(sys: System): (TfmValue & { variable?: 's' | 'z' }) | undefined {
  return sys.kind === 'ss' && sys.tfm ? sys.tfm : undefined;
}

/** the tool takes a transfer matrix as num/den itself (tf2ss, zpk: solvers/_tfm.ts tfCoeffs) */
export function takesTfMatrix(tool: ToolDef): boolean {
  return !!(tool.parameters.properties.num as { items?: { anyOf?: unknown } } | undefined)?.items?.anyOf;
}

/**
 * The arguments a tool gets from a transfer matrix: num/den as written; a tool that does not take
 * a transfer matrix (eig, step, hinfnorm, sigma, …) runs on its realisation, made first by a
 * visible, verified tf2ss call (the pre-call; agent/deterministic.ts replaces num/den by its
 * A, B, C, D). ss2tf of a transfer matrix is asked back: it would give the matrix back.
 * undefined when the system is no transfer matrix.
 */
export function mimoSystemArgs(
  tool: ToolDef,
  sys: System,
  label: string,
): { args: Record<string, unknown>; pre?: PreCall } | { ask: { kind: 'ask'; question: string; candidates: { label: string; prompt: string }[] } } | undefined {
  const t = tfmOf(sys);
  if (!t) return undefined;
  const Ts = sys.Ts;
  const props = tool.parameters.properties;
  if (tool.name === 'ss2tf')
    return {
      ask: {
        kind: 'ask',
        question: `${label} is already a transfer function (a ${tfmSize(t)} transfer matrix): ss2tf would give it back. Do you want a state-space realisation of it, or its zeros, poles and gains?`,
        candidates: [
          { label: `State-space realisation (tf2ss(${label}))`, prompt: `tf2ss(${label})` },
          { label: `Zero-pole-gain form (zpk(${label}))`, prompt: `zpk(${label})` },
        ],
      },
    };
  const args: Record<string, unknown> = { num: t.num, den: t.den };
  if (takesTfMatrix(tool)) return { args: { ...args, ...(Ts && props.Ts ? { Ts } : {}) } };
  return { args, pre: { tool: 'tf2ss', args: { num: t.num, den: t.den }, text: `tf2ss(${label})` } };
}

/** "2x2 transfer matrix" */
export function tfmSize(t: TfmValue): string {
  return `${t.num.length}x${t.num[0].length}`;
}

// ------------------------------------------------------------------ a matrix of expressions

interface Split {
  rows: string[][];
  /** a space before a sign that MATLAB reads as a new entry ([1/(s+1) -1/(s+2)]): the two readings */
  ambiguous?: { separate: string; joined: string };
}

/** MATLAB's rules: `,` or a space separates entries, `;` or a new line rows; `a -b` is two entries, `a - b` and `a-b` one */
export function splitMatrixBody(body: string): Split {
  const rows: string[][] = [];
  let row: string[] = [];
  let cur = '';
  let depth = 0;
  let ambiguous: { at: number } | undefined;
  const flush = () => {
    if (cur.trim()) row.push(cur.trim());
    cur = '';
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    if (c === ')' || c === ']' || c === '}') depth--;
    if (depth === 0 && (c === ';' || c === '\n')) {
      flush();
      if (row.length) rows.push(row);
      row = [];
      continue;
    }
    if (depth === 0 && c === ',') {
      flush();
      continue;
    }
    if (depth === 0 && /[ \t]/.test(c)) {
      let j = i;
      while (j < body.length && /[ \t]/.test(body[j])) j++;
      const prev = cur.trim().slice(-1);
      const next = body[j] ?? '';
      const cont = !prev || /[-+*/^(]/.test(prev) || /[*/^)]/.test(next) || next === '' || next === ',' || next === ';';
      if (!cont && (next === '-' || next === '+')) {
        // "a - b" is one entry; "a -b" two (MATLAB), which a user may not mean: said and asked
        if (/[ \t]/.test(body[j + 1] ?? '')) {
          cur += ' ';
          i = j - 1;
          continue;
        }
        ambiguous ??= { at: i };
      }
      if (cont) {
        cur += ' ';
        i = j - 1;
        continue;
      }
      flush();
      i = j - 1;
      continue;
    }
    cur += c;
  }
  flush();
  if (row.length) rows.push(row);
  if (!ambiguous) return { rows };
  // the other reading: the sign joined to the entry before it
  const joined = body.slice(0, ambiguous.at) + ' ' + body.slice(ambiguous.at).replace(/^[ \t]+([-+])/, '$1 ');
  return { rows, ambiguous: { separate: body, joined } };
}

export interface TfmFound {
  name: string;
  sys?: System;
  text: string;
  start: number;
  end: number;
  error?: string;
  /** the message rewritten for each reading of an ambiguous space-sign ([a -b]: two entries or a − b) */
  ambiguous?: { label: string; text: string }[];
}

/**
 * `G = [1/(s+1) 2/(s+2); 0 1/(s+3)]`, `G(s) = [1/(s+1), 1/(s+2)]`: a bracketed matrix with s or z
 * in its entries, assigned to a name. Each entry is a transfer-function expression.
 */
export function findTfMatrices(text: string): TfmFound[] {
  const out: TfmFound[] = [];
  const re = /(?<![\w.])([A-Za-z][A-Za-z0-9_]*)\s*(?:\(\s*([sz])\s*\))?\s*=\s*\[/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const open = m.index + m[0].length - 1;
    const close = closingBracket(text, open);
    if (close < 0) continue;
    const body = text.slice(open + 1, close);
    // entries in s or z, and no nested matrix (a matrix literal of numbers is the matrix reader's)
    if (!/(?<![A-Za-z_])[sz](?![A-Za-z_])/.test(body) || /\[/.test(body)) continue;
    const found: TfmFound = { name: m[1], text: text.slice(m.index, close + 1), start: m.index, end: close + 1 };
    re.lastIndex = close + 1;
    const split = splitMatrixBody(body);
    if (split.ambiguous) {
      const head = text.slice(m.index, open + 1);
      found.ambiguous = [
        {
          label: `${head}${bodyWithCommas(split.rows)}] (entries separated, as MATLAB reads a space before a sign)`,
          text: `${head}${bodyWithCommas(split.rows)}]`,
        },
        { label: `${head}${split.ambiguous.joined.trim()}] (the sign joins the entries)`, text: `${head}${split.ambiguous.joined.trim()}]` },
      ];
      out.push(found);
      continue;
    }
    try {
      found.sys = tfmFromExpressions(split.rows, m[2] as 's' | 'z' | undefined);
    } catch (e) {
      found.error = `${found.text}: ${(e as Error).message}`;
    }
    out.push(found);
  }
  return out;
}

function bodyWithCommas(rows: string[][]): string {
  return rows.map((r) => r.join(', ')).join('; ');
}

/** the System of a matrix of transfer-function expressions */
export function tfmFromExpressions(rows: string[][], variable?: 's' | 'z'): System {
  const m = rows[0]?.length ?? 0;
  if (!m) throw new ControlError('the matrix is empty');
  rows.forEach((r, i) => {
    if (r.length !== m)
      throw new ControlError(`row ${i + 1} has ${r.length} entries but row 1 has ${m}: every row of a transfer matrix needs one entry per input`);
  });
  const vars = new Set<string>();
  const parsed = rows.map((r, i) =>
    r.map((e, j) => {
      try {
        const tf = parseTfExpression(e, variable);
        if (/(?<![A-Za-z_])[sz](?![A-Za-z_])/.test(e)) vars.add(tf.variable);
        return tf;
      } catch (err) {
        throw new ControlError(`entry (${i + 1},${j + 1}) ${e}: ${(err as Error).message}`);
      }
    }),
  );
  if (vars.size > 1) throw new ControlError('the entries mix s and z');
  const v = (variable ?? [...vars][0] ?? 's') as 's' | 'z';
  return tfmSystem(
    parsed.map((r) => r.map((e) => e.num)),
    parsed.map((r) => r.map((e) => e.den)),
    { variable: v },
  );
}

// ------------------------------------------------------------------ cells and nested lists

/** a MATLAB cell `{1, [1 1]; 0, 2}` -> rows of entry texts, or undefined when text is no cell */
function cellEntries(text: string): string[][] | undefined {
  const t = text.trim();
  if (!t.startsWith('{') || closingBracket(t, 0) !== t.length - 1) return undefined;
  return splitMatrixBody(t.slice(1, -1)).rows;
}

/** one cell entry: a number, [] or a vector of reals */
function cellVector(e: string): number[] {
  const v = e.trim() === '[]' ? [] : parseMatrixLiteral(e);
  if (!v.length) return [];
  if (v.length === 1) return v[0];
  if (v.every((r) => r.length === 1)) return v.map((r) => r[0]);
  throw new ControlError(`${e} is a matrix; each cell entry is one coefficient list`);
}

/** one cell entry of roots: reals or complex numbers (-1+2i) */
function cellRoots(e: string): Cx[] {
  const t = e.trim();
  if (t === '[]' || t === '') return [];
  try {
    return cellVector(t).map((x) => [x, 0] as Cx);
  } catch {
    const list = readNumberList(t, 0);
    if (list && list.end >= t.length - 1) return list.values;
    throw new ControlError(`cannot read the roots ${t}`);
  }
}

/** python's nested lists: [[[1], [1, 1]]] -> the value (numbers and lists), or undefined */
export function nestedList(text: string): unknown {
  const t = text
    .trim()
    .replace(/^(?:np\.|numpy\.)?array\s*\(([\s\S]*)\)$/, '$1')
    .replace(/\(/g, '[')
    .replace(/\)/g, ']')
    .replace(/,\s*\]/g, ']');
  if (!/^\[[\s\d.eE+\-,[\]]*\]$/.test(t)) return undefined;
  try {
    return JSON.parse(t.replace(/(?<![\d.])\.(\d)/g, '0.$1').replace(/(\d)\.(?!\d)/g, '$1'));
  } catch {
    return undefined;
  }
}

/** depth of a nested list (a number 0, [1, 2] 1, [[1], [1, 1]] 2) */
function depth(v: unknown): number {
  return Array.isArray(v) ? 1 + Math.max(0, ...v.map(depth)) : 0;
}

/** coefficient lists in the python-control layout (p x m lists): a cell or a depth-3 list; undefined otherwise */
export function tfCoeffsOf(text: string): number[][][] | { error: string } | { twoLevel: number[][] } | undefined {
  const cells = cellEntries(text);
  if (cells) {
    try {
      return cells.map((r) => r.map(cellVector));
    } catch (e) {
      return { error: `${text.trim()}: ${(e as Error).message}` };
    }
  }
  const v = nestedList(text);
  if (v === undefined) return undefined;
  const d = depth(v);
  if (d === 3 && (v as unknown[][]).every((r) => Array.isArray(r) && r.every((e) => Array.isArray(e) && e.every(isNum)))) return v as number[][][];
  // [[1], [1, 1]]: lists of lists of numbers with rows of different lengths cannot be a matrix: a row or a column of entries?
  if (d === 2 && (v as unknown[][]).every((r) => Array.isArray(r) && r.every(isNum))) {
    const rows = v as number[][];
    if (rows.length > 1 && rows.some((r) => r.length !== rows[0].length)) return { twoLevel: rows };
  }
  return undefined;
}

/** zeros or poles per channel: a cell of root lists */
export function rootCells(text: string): Cx[][][] | { error: string } | undefined {
  const cells = cellEntries(text);
  if (!cells) return undefined;
  try {
    return cells.map((r) => r.map(cellRoots));
  } catch (e) {
    return { error: `${text.trim()}: ${(e as Error).message}` };
  }
}

/** k·Π(s − z) over Π(s − p) per channel (conjugates completed; round-off below 1e-14 dropped) */
export function zpkCellsToTf(Z: Cx[][][], P: Cx[][][], K: number[][]): TfmValue {
  const poly = (roots: Cx[], k = 1) => polyFromRoots(completeConjugates(roots).values).map((c) => (Math.abs(c) < 1e-14 ? 0 : c * k));
  const p = Z.length,
    m = Z[0]?.length ?? 0;
  if (P.length !== p || P.some((r) => r.length !== m))
    throw new ControlError(`the zeros are ${p}x${m} but the poles ${P.length}x${P[0]?.length ?? 0}: one list of each per channel`);
  if (K.length !== p || K.some((r) => r.length !== m))
    throw new ControlError(`the gains are ${K.length}x${K[0]?.length ?? 0} but the zeros and poles ${p}x${m}`);
  return {
    num: Z.map((r, i) => r.map((z, j) => (K[i][j] === 0 ? [0] : poly(z, K[i][j])))),
    den: P.map((r) => r.map((pp) => poly(pp))),
  };
}

/** the text assigned to a name in the message (`num = {…}`, `num = [[[…]]]`), balanced */
export function assignedText(msg: string, name: string): string | undefined {
  const re = new RegExp(`(?<![\\w.])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*=(?!=)\\s*([{\\[])`, 'g');
  let m: RegExpExecArray | null;
  let found: string | undefined;
  while ((m = re.exec(msg))) {
    const open = m.index + m[0].length - 1;
    const close = closingBracket(msg, open);
    if (close > open) found = msg.slice(open, close + 1);
  }
  return found;
}

/**
 * python-control's `tf([[1], [1, 1]], [[1, 2], [1, 3]])`: two levels of lists are neither a SISO
 * transfer function nor the p x m layout (three levels); a row (1 output, 2 inputs) or a column
 * (2 outputs, 1 input)? Asked with both rewritten (never guessed).
 */
export function twoLevelTfAsk(
  text: string,
  calls: { fn: string; args: { name?: string; text: string }[]; text: string }[],
): { text: string; candidates: { label: string; prompt: string }[] } | undefined {
  for (const c of calls) {
    if (!/^(?:tf|transferfunction|tf2ss)$/.test(c.fn)) continue;
    const pos = c.args.filter((a) => !a.name);
    if (pos.length < 2) continue;
    const num = tfCoeffsOf(pos[0].text);
    if (!num || !('twoLevel' in num)) continue;
    const items = (v: unknown[]) => v.map((x) => JSON.stringify(x).replace(/,/g, ', '));
    const den = nestedList(pos[1].text);
    const denItems = Array.isArray(den) && depth(den) === 2 ? items(den as unknown[]) : undefined;
    const n = items(num.twoLevel);
    const call = (a: string, b: string) => c.text.replace(pos[0].text, a).replace(pos[1].text, b);
    const row = call(`[[${n.join(', ')}]]`, denItems ? `[[${denItems.join(', ')}]]` : pos[1].text);
    const col = call(`[${n.map((x) => `[${x}]`).join(', ')}]`, denItems ? `[${denItems.map((x) => `[${x}]`).join(', ')}]` : pos[1].text);
    return {
      text: c.text,
      candidates: [
        { label: `A row: 1 output, ${n.length} inputs (${row})`, prompt: text.replace(c.text, row) },
        { label: `A column: ${n.length} outputs, 1 input (${col})`, prompt: text.replace(c.text, col) },
      ],
    };
  }
  return undefined;
}

/** the conversions whose result is the same system in another form: saved when the user names it (`P = ss2tf(sys)`) */
export const CONVERSIONS = new Set(['tf2ss', 'ss2tf', 'zpk', 'zpk2tf', 'zpk2ss']);

/**
 * A conversion's MIMO result as a conversation system (SISO results are left as they were):
 * tf2ss/zpk2ss's A, B, C, D; ss2tf/zpk2tf's p x m num/den, and zpk's z, p, k, as transfer matrices.
 */
export function conversionSystem(tool: string, r: Record<string, unknown>): System | undefined {
  const Ts = typeof r.Ts === 'number' && r.Ts > 0 ? r.Ts : undefined;
  const mimoTf = Array.isArray(r.num) && Array.isArray(r.num[0]);
  if ((tool === 'tf2ss' || tool === 'zpk2ss') && Array.isArray(r.A) && Array.isArray(r.B) && Array.isArray(r.C)) {
    const m = (r.B as number[][])[0]?.length ?? (r.D as number[][] | undefined)?.[0]?.length ?? 1;
    const p = (r.C as number[][]).length;
    if (m === 1 && p === 1) return undefined;
    return {
      kind: 'ss',
      A: r.A as number[][],
      B: r.B as number[][],
      C: r.C as number[][],
      ...(Array.isArray(r.D) ? { D: r.D as number[][] } : {}),
      ...(Ts ? { Ts } : {}),
    };
  }
  if ((tool === 'ss2tf' || tool === 'zpk2tf') && mimoTf) return tfmSystem(r.num as number[][][], r.den as number[][][], { Ts });
  if (tool === 'zpk' && Array.isArray(r.k) && Array.isArray(r.k[0])) {
    const T = zpkCellsToTf(r.z as Cx[][][], r.p as Cx[][][], r.k as number[][]);
    return tfmSystem(T.num, T.den, { Ts });
  }
  return undefined;
}
