/**
 * Matrix literals as people write them (MATLAB/Octave, NumPy, JSON), read into arrays of rows.
 *
 * How it works: our own tokenizer reads the text (it knows every position, MATLAB's
 * whitespace rules inside brackets, `'` transpose versus strings, `...` continuation, `%`/`#`
 * comments, `np.`/`numpy.` names, `dtype=` keywords, Python tuples) and writes an equivalent
 * expression for the mathjs parser, in which every bracket, function and constant is an
 * internal name (`__v3(__h3(1, -2), ...)`). mathjs parses that (operator precedence, unary
 * minus, `'`, `.*`, `^`, ...) and a small evaluator walks the tree, allowing only numbers,
 * arithmetic operators and the matrix constructors of the table below. Nothing of mathjs is
 * ever evaluated: no assignment, function definition, `import`, `evaluate`, `parse`,
 * `createUnit`, string, unit or object can run. In addition, the mathjs instance itself has
 * those functions disabled, as the mathjs security guide recommends for untrusted input.
 *
 * Semantics and choices:
 * - MATLAB brackets: `,` or whitespace separate entries, `;` or a newline separate rows,
 *   and blocks are concatenated (`[eye(2) zeros(2,1)]`). `[1 -2]` is two entries and
 *   `[1 - 2]` is one (-1), as in MATLAB.
 * - A bracket whose entries are all comma-separated bracketed lists (`[[0,1],[-2,-3]]`,
 *   JSON, Python) is a nested list: each inner list is a row. (MATLAB would concatenate
 *   them into one row; write `[0 1 -2 -3]` for that.) Inside `np.*(...)` every bracket is a
 *   Python list and whitespace/newlines never separate anything.
 * - A 1-D NumPy array (`np.array([1, 2])`, `np.zeros(3)`) becomes one row: [[1, 2]].
 *   A scalar becomes [[x]]. An empty result with no rows (`[]`, `zeros(0,3)`) is []; one
 *   with rows but no columns (`zeros(2,0)`) is two empty rows, [[], []].
 * - Inf and NaN parse (`Inf`, `np.inf`, `1/0`, `NaN`): the tool layer rejects non-finite
 *   entries with the argument's name (src/core/tools/call.ts), which says more than we can.
 * - Errors are ControlError('invalid') messages naming the problem and its position:
 *   "unknown function foo at column 1", "unexpected ')' at column 7",
 *   "rows 1 and 2 have different lengths (2 and 3) in [1 2; 3 4 5] at column 1".
 *   Columns (and lines, for multi-line text) are 1-based.
 */
import { ControlError } from '../errors.js';
import type { Matrix } from '../types.js';

// ------------------------------------------------------------------ restricted mathjs
/**
 * The restricted mathjs instance (restrictedMath.ts), loaded on the first literal read: a
 * synchronous `require` of our own module, so that tools called with plain JSON arrays
 * (`control solve`, MCP, batch) never pay for building mathjs. The bundler wraps the module
 * and mathjs so they run only then (the CLI's cliSolve.js loads it from its own bundle,
 * dist/restrictedMath.js); under tsx it is the .ts file.
 */
let restricted: typeof import('./restrictedMath.js') | undefined;
/** the restricted mathjs, built on first use (formula.ts reads signals of t with it too) */
export function mathjs(): typeof import('./restrictedMath.js') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose (see above); import() would make the reader asynchronous
  return (restricted ??= require('./restrictedMath.js') as typeof import('./restrictedMath.js'));
}
const mathParse = (expr: string): MNode => mathjs().mathParse(expr) as MNode;

/** the part of a mathjs node the evaluator looks at */
interface MNode {
  type: string;
  value?: unknown;
  name?: string;
  fn?: unknown;
  op?: string;
  implicit?: boolean;
  args?: MNode[];
  content?: MNode;
}

/** where the text sits in a document, for error positions (0-based, VS Code style) */
export interface Origin {
  line: number;
  character: number;
}

/** limits that keep a literal from allocating or recursing without bound */
const MAX_TEXT = 1_000_000;
const MAX_DEPTH = 100;
const MAX_ELEMENTS = 1_000_000;

// ------------------------------------------------------------------ positions
class Source {
  private readonly lineStarts: number[] = [0];
  constructor(
    readonly text: string,
    readonly origin?: Origin,
  ) {
    for (let i = 0; i < text.length; i++) if (text[i] === '\n') this.lineStarts.push(i + 1);
  }
  /** "column 7", or "line 2, column 3" for multi-line text or text placed in a document */
  at(pos: number): string {
    let l = 0;
    while (l + 1 < this.lineStarts.length && this.lineStarts[l + 1] <= pos) l++;
    let col = pos - this.lineStarts[l];
    let line = l;
    if (this.origin) {
      if (line === 0) col += this.origin.character;
      line += this.origin.line;
      return `line ${line + 1}, column ${col + 1}`;
    }
    return this.lineStarts.length > 1 ? `line ${line + 1}, column ${col + 1}` : `column ${col + 1}`;
  }
  snippet(pos: number, end: number): string {
    const s = this.text.slice(pos, end).replace(/\s+/g, ' ').trim();
    return s.length > 60 ? `${s.slice(0, 57)}...` : s;
  }
  err(message: string, pos?: number, code: 'invalid' | 'limit' = 'invalid', hint?: string): ControlError {
    const where = pos === undefined ? message : `${message} at ${this.at(pos)}`;
    return new ControlError(hint ? `${where} (${hint})` : where, code);
  }
}

// ------------------------------------------------------------------ tokens
type TokKind = 'num' | 'id' | 'op' | 'tr' | 'open' | 'close' | 'comma' | 'semi' | 'nl' | 'eq' | 'str';
interface Tok {
  kind: TokKind;
  text: string;
  pos: number;
  end: number;
  /** whitespace (or a continuation) directly before */
  sp: boolean;
}
interface Group {
  kind: 'group';
  open: Tok;
  close: Tok;
  items: Item[];
  sp: boolean;
  pos: number;
}
type Item = Tok | Group;

const isGroup = (it: Item | undefined): it is Group => it !== undefined && it.kind === 'group';
function isTok<K extends TokKind>(it: Item | undefined, kind?: K): it is Tok & { kind: K } {
  return it !== undefined && it.kind !== 'group' && (kind === undefined || it.kind === kind);
}

function endsOperand(it: Item | undefined): boolean {
  if (!it) return false;
  if (isGroup(it)) return true;
  return it.kind === 'num' || it.kind === 'id' || it.kind === 'tr' || it.kind === 'close';
}
function startsOperand(it: Item | undefined): boolean {
  if (!it) return false;
  return isGroup(it) || it.kind === 'num' || it.kind === 'id' || it.kind === 'str';
}

function tokenize(src: Source): Tok[] {
  const s = src.text;
  const toks: Tok[] = [];
  let sp = true;
  let i = 0;
  const push = (kind: TokKind, text: string, pos: number, end: number) => {
    toks.push({ kind, text, pos, end, sp });
    sp = false;
  };
  const last = () => toks[toks.length - 1];
  while (i < s.length) {
    const c = s[i];
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || c === '\u00a0') {
      sp = true;
      i++;
      continue;
    }
    if (c === '\n') {
      push('nl', '\n', i, i + 1);
      sp = true;
      i++;
      continue;
    }
    if (s.startsWith('...', i)) {
      // MATLAB continuation: the rest of the line is a comment, the line break is joined
      const nl = s.indexOf('\n', i);
      i = nl < 0 ? s.length : nl + 1;
      sp = true;
      continue;
    }
    if (c === '\\' && /^\\[ \t\r]*(\n|$)/.test(s.slice(i, i + 80))) {
      // Python explicit line joining
      const nl = s.indexOf('\n', i);
      i = nl < 0 ? s.length : nl + 1;
      sp = true;
      continue;
    }
    if (c === '%' || c === '#') {
      const nl = s.indexOf('\n', i);
      i = nl < 0 ? s.length : nl;
      sp = true;
      continue;
    }
    const num = /^(?:\d+(?:\.(?![.*/^'])\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(s.slice(i, i + 400));
    if (num && (/\d/.test(c) || c === '.')) {
      const end = i + num[0].length;
      if (/^[ijIJ](?![A-Za-z0-9_])/.test(s.slice(end, end + 2)))
        throw src.err(`complex number ${s.slice(i, end + 1)} is not supported`, i, 'invalid', 'only real matrices are supported');
      push('num', num[0], i, end);
      i = end;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i, i + 200))![0];
      // dotted names (np.array, numpy.zeros, math.pi), but not the .T attribute
      for (;;) {
        const d = /^\.([A-Za-z_][A-Za-z0-9_]*)/.exec(s.slice(i + m.length, i + m.length + 200));
        if (!d || d[1] === 'T') break;
        m += d[0];
      }
      push('id', m, i, i + m.length);
      i += m.length;
      continue;
    }
    const prevEnds = !sp && endsOperand(last()) && last()?.kind !== 'nl';
    if (c === "'" && prevEnds) {
      push('tr', "'", i, i + 1);
      i++;
      continue;
    }
    if (c === '.' && s[i + 1] === "'" && prevEnds) {
      push('tr', "'", i, i + 2);
      i += 2;
      continue;
    }
    if (c === '.' && s[i + 1] === 'T' && !/[A-Za-z0-9_]/.test(s[i + 2] ?? '') && prevEnds) {
      push('tr', "'", i, i + 2);
      i += 2;
      continue;
    }
    if (c === "'" || c === '"') {
      // a string: MATLAB doubles the quote inside; Python escapes with a backslash
      let j = i + 1;
      while (j < s.length && s[j] !== '\n') {
        if (s[j] === '\\' && c === '"') j += 2;
        else if (s[j] === c && s[j + 1] === c) j += 2;
        else if (s[j] === c) break;
        else j++;
      }
      if (s[j] !== c) throw src.err(`unterminated string`, i);
      push('str', s.slice(i, j + 1), i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === '.' && (s[i + 1] === '*' || s[i + 1] === '/' || s[i + 1] === '^')) {
      push('op', s.slice(i, i + 2), i, i + 2);
      i += 2;
      continue;
    }
    if (c === '*' && s[i + 1] === '*') {
      push('op', '^', i, i + 2);
      i += 2;
      continue;
    }
    if ('+-*/^'.includes(c)) {
      push('op', c, i, i + 1);
      i++;
      continue;
    }
    if (c === '@') {
      push('op', '*', i, i + 1); // Python's matrix product
      i++;
      continue;
    }
    if (c === '(' || c === '[') {
      push('open', c, i, i + 1);
      i++;
      continue;
    }
    if (c === ')' || c === ']') {
      push('close', c, i, i + 1);
      i++;
      continue;
    }
    if (c === ',') {
      push('comma', c, i, i + 1);
      i++;
      continue;
    }
    if (c === ';') {
      push('semi', c, i, i + 1);
      i++;
      continue;
    }
    if (c === '=' && s[i + 1] !== '=') {
      push('eq', c, i, i + 1);
      i++;
      continue;
    }
    if (c === ':') throw src.err(`ranges with ':' are not supported; write the entries out`, i);
    if (c === '\\') throw src.err(`the left division operator '\\' is not supported`, i);
    if (c === '=' || c === '<' || c === '>' || c === '!' || c === '~' || c === '&' || c === '|')
      throw src.err(`unexpected '${c}'`, i, 'invalid', 'comparisons and logic are not supported');
    throw src.err(`unexpected '${c}'`, i);
  }
  return toks;
}

function buildTree(src: Source, toks: Tok[]): Item[] {
  const root: Item[] = [];
  const stack: { open: Tok; items: Item[] }[] = [];
  let cur = root;
  for (const t of toks) {
    if (t.kind === 'open') {
      if (stack.length >= MAX_DEPTH) throw src.err(`brackets nested deeper than ${MAX_DEPTH}`, t.pos, 'limit');
      stack.push({ open: t, items: cur });
      cur = [];
    } else if (t.kind === 'close') {
      const top = stack.pop();
      if (!top) throw src.err(`unexpected '${t.text}'`, t.pos);
      const want = top.open.text === '(' ? ')' : ']';
      if (t.text !== want) throw src.err(`unexpected '${t.text}'`, t.pos, 'invalid', `the '${top.open.text}' at ${src.at(top.open.pos)} needs '${want}'`);
      const g: Group = { kind: 'group', open: top.open, close: t, items: cur, sp: top.open.sp, pos: top.open.pos };
      cur = top.items;
      cur.push(g);
    } else cur.push(t);
  }
  if (stack.length) {
    const o = stack[stack.length - 1].open;
    throw src.err(`unclosed '${o.text}'`, o.pos, 'invalid', `no matching '${o.text === '(' ? ')' : ']'}'`);
  }
  return root;
}

// ------------------------------------------------------------------ values
/** a 1-D array (NumPy list or tuple) */
class Vec {
  constructor(readonly a: number[]) {}
}
/** a 2-D matrix, rows x cols */
class Mat {
  constructor(
    readonly a: number[][],
    readonly r: number,
    readonly c: number,
  ) {}
  static of(a: number[][]): Mat {
    return new Mat(a, a.length, a.length ? a[0].length : 0);
  }
}
type V = number | Vec | Mat;

function toMat(v: V): Mat {
  if (typeof v === 'number') return new Mat([[v]], 1, 1);
  if (v instanceof Vec) return v.a.length ? new Mat([v.a.slice()], 1, v.a.length) : new Mat([], 0, 0);
  return v;
}
function sizeOf(v: V): string {
  const m = toMat(v);
  return `${m.r}x${m.c}`;
}
function isScalarLike(v: V): boolean {
  return typeof v === 'number' || (v instanceof Mat && v.r === 1 && v.c === 1) || (v instanceof Vec && v.a.length === 1);
}
function scalarOf(v: V): number {
  if (typeof v === 'number') return v;
  if (v instanceof Vec) return v.a[0];
  return v.a[0][0];
}
function mapV(v: V, f: (x: number) => number): V {
  if (typeof v === 'number') return f(v);
  if (v instanceof Vec) return new Vec(v.a.map(f));
  return new Mat(
    v.a.map((row) => row.map(f)),
    v.r,
    v.c,
  );
}
function fill(r: number, c: number, f: (i: number, j: number) => number): Mat {
  const a: number[][] = [];
  for (let i = 0; i < r; i++) {
    const row = new Array<number>(c);
    for (let j = 0; j < c; j++) row[j] = f(i, j);
    a.push(row);
  }
  return new Mat(a, r, c);
}
function transposeV(v: V): V {
  if (typeof v === 'number') return v;
  const m = toMat(v);
  return fill(m.c, m.r, (i, j) => m.a[j][i]);
}

// ------------------------------------------------------------------ the table of names
interface Ctx {
  src: Source;
  /** "eye at column 3": the call site, for messages */
  at: string;
  name: string;
}
type Fn = (args: V[], ctx: Ctx) => V;

function fail(ctx: Ctx, message: string, code: 'invalid' | 'limit' = 'invalid'): never {
  throw new ControlError(`${message}, in ${ctx.name}(...) at ${ctx.at}`, code);
}
function argCount(args: V[], ctx: Ctx, min: number, max: number): void {
  if (args.length < min || args.length > max)
    fail(ctx, `${ctx.name} takes ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? '' : 's'}, got ${args.length}`);
}
function dimension(v: V, ctx: Ctx): number {
  if (!isScalarLike(v)) fail(ctx, `a size must be a number, got a ${sizeOf(v)} matrix`);
  const n = scalarOf(v);
  if (!Number.isInteger(n) || n < 0) fail(ctx, `a size must be a non-negative integer, got ${n}`);
  if (n > MAX_ELEMENTS) fail(ctx, `size ${n} is too large`, 'limit');
  return n;
}
function checkElements(r: number, c: number, ctx: Ctx): void {
  if (r * c > MAX_ELEMENTS) fail(ctx, `${r}x${c} is too large (more than ${MAX_ELEMENTS} entries)`, 'limit');
}
/** MATLAB sizes: f() 1x1, f(n) nxn, f(m,n), f([m n]) */
function matlabSize(args: V[], ctx: Ctx): [number, number] {
  argCount(args, ctx, 0, 2);
  if (args.length === 0) return [1, 1];
  if (args.length === 2) return [dimension(args[0], ctx), dimension(args[1], ctx)];
  const a = args[0];
  if (isScalarLike(a)) {
    const n = dimension(a, ctx);
    return [n, n];
  }
  const m = toMat(a);
  if (m.r * m.c !== 2) fail(ctx, `a size vector must have 2 entries, got ${sizeOf(a)}`);
  const flat = m.a.flat();
  return [dimension(flat[0], ctx), dimension(flat[1], ctx)];
}
/** NumPy shapes: f(n) 1-D, f((m, n)) 2-D, f((n,)) 1-D */
function numpyShape(args: V[], ctx: Ctx): [number] | [number, number] {
  argCount(args, ctx, 1, 1);
  const a = args[0];
  if (typeof a === 'number') return [dimension(a, ctx)];
  const flat = toMat(a).a.flat();
  if (flat.length === 1 && a instanceof Vec) return [dimension(flat[0], ctx)];
  if (flat.length !== 2) fail(ctx, `only 1-D and 2-D shapes are supported, got ${flat.length} dimensions`);
  return [dimension(flat[0], ctx), dimension(flat[1], ctx)];
}
function constant(x: number): Fn {
  return (args, ctx) => {
    const [r, c] = matlabSize(args, ctx);
    checkElements(r, c, ctx);
    return fill(r, c, () => x);
  };
}
function npConstant(x: number): Fn {
  return (args, ctx) => {
    const sh = numpyShape(args, ctx);
    if (sh.length === 1) return new Vec(new Array<number>(sh[0]).fill(x));
    checkElements(sh[0], sh[1], ctx);
    return fill(sh[0], sh[1], () => x);
  };
}
function isVectorLike(v: V): boolean {
  if (v instanceof Vec) return true;
  const m = toMat(v);
  return m.r === 1 || m.c === 1;
}
function diagOf(v: V, k: number, ctx: Ctx, numpy: boolean): V {
  if (!Number.isInteger(k)) fail(ctx, `the diagonal offset must be an integer, got ${k}`);
  const makeFromVector = (d: number[]) => {
    const n = d.length + Math.abs(k);
    checkElements(n, n, ctx);
    return fill(n, n, (i, j) => (j - i === k ? d[k >= 0 ? i : j] : 0));
  };
  if (numpy ? !(v instanceof Mat) : isVectorLike(v)) return makeFromVector(toMat(v).a.flat());
  const m = toMat(v);
  const d: number[] = [];
  for (let i = Math.max(0, -k); i < m.r && i + k < m.c; i++) d.push(m.a[i][i + k]);
  return numpy ? new Vec(d) : fill(d.length, 1, (i) => d[i]);
}
function concat(parts: V[], horizontal: boolean, ctx: Ctx): Mat {
  const ms = parts.map(toMat).filter((m) => m.r * m.c > 0);
  if (!ms.length) return new Mat([], 0, 0);
  if (horizontal) {
    const r = ms[0].r;
    ms.forEach((m, i) => {
      if (m.r !== r) fail(ctx, `arguments 1 and ${i + 1} have different numbers of rows (${r} and ${m.r})`);
    });
    return Mat.of(ms[0].a.map((_, i) => ms.flatMap((m) => m.a[i])));
  }
  const c = ms[0].c;
  ms.forEach((m, i) => {
    if (m.c !== c) fail(ctx, `arguments 1 and ${i + 1} have different numbers of columns (${c} and ${m.c})`);
  });
  return Mat.of(ms.flatMap((m) => m.a.map((row) => row.slice())));
}
function elementwise(f: (x: number) => number, label: string): Fn {
  return (args, ctx) => {
    argCount(args, ctx, 1, 1);
    return mapV(args[0], (x) => {
      const y = f(x);
      if (Number.isNaN(y) && !Number.isNaN(x)) fail(ctx, `${label}(${x}) is not a real number (only real matrices are supported)`);
      return y;
    });
  };
}
const asIs: Fn = (args, ctx) => {
  argCount(args, ctx, 1, 1);
  return args[0];
};

/**
 * The functions a literal may call. Names are looked up only in these Maps (never on a plain
 * object, whose prototype would answer `constructor`, `toString`, `__proto__`, ...).
 */
const FUNCTIONS: ReadonlyMap<string, Fn> = new Map<string, Fn>(
  Object.entries({
    eye: (args, ctx) => {
      const [r, c] = matlabSize(args, ctx);
      checkElements(r, c, ctx);
      return fill(r, c, (i, j) => (i === j ? 1 : 0));
    },
    zeros: constant(0),
    ones: constant(1),
    diag: (args, ctx) => {
      argCount(args, ctx, 1, 2);
      return diagOf(args[0], args.length > 1 ? scalarOf(args[1]) : 0, ctx, false);
    },
    transpose: (args, ctx) => {
      argCount(args, ctx, 1, 1);
      return transposeV(args[0]);
    },
    horzcat: (args, ctx) => concat(args, true, ctx),
    vertcat: (args, ctx) => concat(args, false, ctx),
    blkdiag: (args) => {
      const ms = args.map(toMat);
      const r = ms.reduce((s, m) => s + m.r, 0);
      const c = ms.reduce((s, m) => s + m.c, 0);
      const out = fill(r, c, () => 0);
      let i0 = 0;
      let j0 = 0;
      for (const m of ms) {
        for (let i = 0; i < m.r; i++) for (let j = 0; j < m.c; j++) out.a[i0 + i][j0 + j] = m.a[i][j];
        i0 += m.r;
        j0 += m.c;
      }
      return out;
    },
    sqrt: elementwise(Math.sqrt, 'sqrt'),
    exp: elementwise(Math.exp, 'exp'),
    log: elementwise(Math.log, 'log'),
    log10: elementwise(Math.log10, 'log10'),
    abs: elementwise(Math.abs, 'abs'),
    sin: elementwise(Math.sin, 'sin'),
    cos: elementwise(Math.cos, 'cos'),
    tan: elementwise(Math.tan, 'tan'),
    'np.array': asIs,
    'np.asarray': asIs,
    'np.matrix': (args, ctx) => toMat(asIs(args, ctx)),
    'np.eye': (args, ctx) => {
      argCount(args, ctx, 1, 2);
      const r = dimension(args[0], ctx);
      const c = args.length > 1 ? dimension(args[1], ctx) : r;
      checkElements(r, c, ctx);
      return fill(r, c, (i, j) => (i === j ? 1 : 0));
    },
    'np.identity': (args, ctx) => {
      argCount(args, ctx, 1, 1);
      const n = dimension(args[0], ctx);
      checkElements(n, n, ctx);
      return fill(n, n, (i, j) => (i === j ? 1 : 0));
    },
    'np.zeros': npConstant(0),
    'np.ones': npConstant(1),
    'np.diag': (args, ctx) => {
      argCount(args, ctx, 1, 2);
      return diagOf(args[0], args.length > 1 ? scalarOf(args[1]) : 0, ctx, true);
    },
    'np.transpose': (args, ctx) => {
      argCount(args, ctx, 1, 1);
      return args[0] instanceof Vec ? args[0] : transposeV(args[0]);
    },
    'np.hstack': (args, ctx) => {
      argCount(args, ctx, 1, 1);
      return concat(listItems(args[0]), true, ctx);
    },
    'np.vstack': (args, ctx) => {
      argCount(args, ctx, 1, 1);
      return concat(listItems(args[0]), false, ctx);
    },
    'np.sqrt': elementwise(Math.sqrt, 'sqrt'),
    'np.exp': elementwise(Math.exp, 'exp'),
    'np.log': elementwise(Math.log, 'log'),
    'np.abs': elementwise(Math.abs, 'abs'),
    'np.sin': elementwise(Math.sin, 'sin'),
    'np.cos': elementwise(Math.cos, 'cos'),
    'math.sqrt': elementwise(Math.sqrt, 'sqrt'),
    'math.exp': elementwise(Math.exp, 'exp'),
  }),
);

/** np.hstack/vstack take a list of arrays; our list of 1-D rows comes back as a matrix */
function listItems(v: V): V[] {
  if (v instanceof Mat) return v.a.map((row) => new Vec(row));
  return [v];
}

const CONSTANTS: ReadonlyMap<string, number> = new Map<string, number>(
  Object.entries({
    pi: Math.PI,
    Inf: Infinity,
    inf: Infinity,
    NaN: NaN,
    nan: NaN,
    eps: Number.EPSILON,
    'np.pi': Math.PI,
    'np.e': Math.E,
    'np.inf': Infinity,
    'np.Inf': Infinity,
    'np.nan': NaN,
    'np.NaN': NaN,
    'math.pi': Math.PI,
    'math.e': Math.E,
    'math.inf': Infinity,
    'math.nan': NaN,
  }),
);

/** np.X and numpy.X are the same name */
function canonical(name: string): string {
  return name.startsWith('numpy.') ? `np.${name.slice(6)}` : name;
}
/** names whose arguments are Python: every bracket inside is a list */
const isNumpy = (name: string) => name.startsWith('np.');

/** every identifier a literal may use: for callers that want to tell literals from code */
export function isLiteralName(name: string): boolean {
  const c = canonical(name);
  return FUNCTIONS.has(c) || CONSTANTS.has(c) || c === 'dtype' || /^(np\.)?(float|float64|float32|int|int64|double)$/.test(c);
}

// ------------------------------------------------------------------ translation to mathjs
type Entry =
  | { kind: 'const'; value: number }
  | { kind: 'fn'; name: string; pos: number; fn: Fn }
  | { kind: 'matlab'; pos: number; end: number }
  | { kind: 'list'; pos: number; end: number };

class Emitter {
  out = '';
  /** original position of each output character */
  map: number[] = [];
  entries: Entry[] = [];
  constructor(readonly src: Source) {}

  put(s: string, pos: number): void {
    this.out += s;
    for (let i = 0; i < s.length; i++) this.map.push(pos);
  }
  entry(e: Entry): number {
    this.entries.push(e);
    return this.entries.length - 1;
  }

  /** a sequence where whitespace and newlines mean nothing (top level, parentheses, arguments, list entries) */
  seq(items: Item[], py: boolean): void {
    const src = this.src;
    let prev: Item | undefined;
    let any = false;
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      if (isTok(it, 'nl')) continue;
      if (endsOperand(prev) && startsOperand(it) && !(isTok(prev, 'id') && isGroup(it) && it.open.text === '(')) {
        throw src.err(`missing operator or comma before '${this.src.snippet(it.pos, isGroup(it) ? it.close.end : it.end)}'`, it.pos);
      }
      if (isGroup(it)) {
        if (it.open.text === '[') this.bracket(it, py);
        else if (isTok(prev, 'id')) {
          /* call arguments: emitted by the identifier */
        } else this.paren(it, py);
      } else {
        switch (it.kind) {
          case 'num':
            this.put(` ${it.text} `, it.pos);
            break;
          case 'id': {
            const next = items[i + 1];
            if (isGroup(next) && next.open.text === '(') this.call(it, next, py);
            else this.name(it);
            break;
          }
          case 'op':
            if (isTok(prev, 'op') && it.text !== '-' && it.text !== '+') throw src.err(`expected a value before '${it.text}'`, it.pos);
            this.put(` ${it.text} `, it.pos);
            break;
          case 'tr':
            if (!endsOperand(prev)) throw src.err(`unexpected transpose '`, it.pos);
            this.put(`'`, it.pos);
            break;
          case 'str':
            throw src.err(`strings are not allowed in a matrix value: ${this.src.snippet(it.pos, it.end)}`, it.pos);
          case 'eq':
            throw src.err(`unexpected '='`, it.pos, 'invalid', 'assignments are not allowed in a matrix value');
          case 'semi':
            throw src.err(`unexpected ';'`, it.pos);
          case 'comma':
            throw src.err(`unexpected ','`, it.pos);
          default:
            throw src.err(`unexpected '${it.text}'`, it.pos);
        }
      }
      prev = it;
      any = true;
    }
    if (!any) {
      const at = items.length ? items[0].pos : undefined;
      throw src.err('expected a value', at);
    }
    if (isTok(prev, 'op')) throw src.err(`expected a value after '${prev.text}'`, prev.pos);
  }

  name(t: Tok): void {
    const n = canonical(t.text);
    const value = CONSTANTS.get(n);
    if (value !== undefined) {
      const k = this.entry({ kind: 'const', value });
      this.put(` __i${k} `, t.pos);
      return;
    }
    if (FUNCTIONS.has(n)) throw this.src.err(`${t.text} needs arguments, as in ${t.text}(2)`, t.pos);
    throw this.src.err(`unknown name ${t.text}`, t.pos, 'invalid', HINT);
  }

  call(t: Tok, g: Group, py: boolean): void {
    const n = canonical(t.text);
    const fn = FUNCTIONS.get(n);
    if (!fn) throw this.src.err(`unknown function ${t.text}`, t.pos, 'invalid', HINT);
    const k = this.entry({ kind: 'fn', name: t.text, pos: t.pos, fn });
    const inner = py || isNumpy(n);
    this.put(` __i${k}(`, t.pos);
    const args = splitCommas(g.items, true).filter((a, i, all) => {
      const first = a.find((x) => !isTok(x, 'nl'));
      const second = a.filter((x) => !isTok(x, 'nl'))[1];
      if (isTok(first, 'id') && isTok(second, 'eq')) {
        if (first.text === 'dtype') return false;
        throw this.src.err(`keyword argument ${first.text}= is not supported`, first.pos, 'invalid', 'only dtype= is accepted, and ignored');
      }
      if (!a.some((x) => !isTok(x, 'nl'))) {
        if (i === all.length - 1 && i > 0 && inner) return false; // Python trailing comma
        if (all.length > 1) throw this.src.err(`missing argument of ${t.text}`, g.close.pos);
        return false; // f()
      }
      return true;
    });
    args.forEach((a, i) => {
      if (i) this.put(',', g.pos);
      this.seq(a, inner);
    });
    this.put(')', g.close.pos);
  }

  paren(g: Group, py: boolean): void {
    const parts = splitCommas(g.items, true);
    if (parts.length === 1) {
      this.put('(', g.pos);
      this.seq(parts[0], py);
      this.put(')', g.close.pos);
      return;
    }
    // a Python tuple: (2, 1), (3,)
    this.list(g, parts, true);
  }

  bracket(g: Group, py: boolean): void {
    if (py || listLike(g)) {
      for (const it of g.items)
        if (isTok(it, 'semi')) throw this.src.err(`unexpected ';' in a Python list`, it.pos, 'invalid', 'write rows as a list of lists');
      this.list(g, splitCommas(g.items, true), true);
      return;
    }
    const rows = splitMatlab(this.src, g);
    const k = this.entry({ kind: 'matlab', pos: g.pos, end: g.close.end });
    this.put(` __v${k}(`, g.pos);
    rows.forEach((row, i) => {
      if (i) this.put(',', g.pos);
      this.put(`__h${k}(`, g.pos);
      row.forEach((el, j) => {
        if (j) this.put(',', el[0].pos);
        this.seq(el, false);
      });
      this.put(')', g.close.pos);
    });
    this.put(')', g.close.pos);
  }

  list(g: Group, parts: Item[][], py: boolean): void {
    const nonEmpty = (a: Item[]) => a.some((x) => !isTok(x, 'nl'));
    if (parts.length > 1 && !nonEmpty(parts[parts.length - 1])) parts = parts.slice(0, -1); // trailing comma
    if (parts.length === 1 && !nonEmpty(parts[0])) parts = [];
    parts.forEach((p) => {
      if (!nonEmpty(p)) throw this.src.err(`missing entry before ','`, p[0]?.pos ?? g.close.pos);
    });
    const k = this.entry({ kind: 'list', pos: g.pos, end: g.close.end });
    this.put(` __i${k}(`, g.pos);
    parts.forEach((p, i) => {
      if (i) this.put(',', p[0].pos);
      this.seq(p, py);
    });
    this.put(')', g.close.pos);
  }
}

const HINT =
  "a matrix value may use numbers, + - * / ^ .* ./ .^ ', pi, Inf, NaN, eye, zeros, ones, diag, transpose, horzcat, vertcat, blkdiag, sqrt, exp, log, abs, sin, cos, np.array, np.eye, np.zeros, np.ones, np.diag";

/** splits at the commas of this level; with keepEmpty, empty parts are kept (to be judged by the caller) */
function splitCommas(items: Item[], keepEmpty: boolean): Item[][] {
  const parts: Item[][] = [[]];
  for (const it of items) {
    if (isTok(it, 'comma')) parts.push([]);
    else parts[parts.length - 1].push(it);
  }
  return keepEmpty ? parts : parts.filter((p) => p.length);
}

/** MATLAB: does whitespace before `it` start a new entry? (`[1 -2]` yes, `[1 - 2]` no) */
function startsEntry(it: Item, next: Item | undefined): boolean {
  if (!it.sp) return false;
  if (startsOperand(it)) return true;
  if (isTok(it, 'op') && (it.text === '-' || it.text === '+')) return next !== undefined && !next.sp && startsOperand(next);
  return false;
}

/** rows of entries of a MATLAB bracket */
function splitMatlab(src: Source, g: Group): Item[][][] {
  const rows: Item[][][] = [];
  let row: Item[][] = [];
  let entry: Item[] = [];
  let afterComma = false;
  const endRow = () => {
    if (entry.length) row.push(entry);
    if (row.length) rows.push(row);
    row = [];
    entry = [];
    afterComma = false;
  };
  const items = g.items;
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    if (isTok(it, 'comma')) {
      if (!entry.length) throw src.err(`missing entry before ','`, it.pos);
      row.push(entry);
      entry = [];
      afterComma = true;
    } else if (isTok(it, 'semi')) {
      if (afterComma && !entry.length) throw src.err(`missing entry before ';'`, it.pos);
      endRow();
    } else if (isTok(it, 'nl')) {
      const last = entry[entry.length - 1];
      if (isTok(last, 'op')) continue; // an operator at the end of a line continues it
      if (entry.length || row.length) endRow();
    } else {
      if (entry.length && endsOperand(entry[entry.length - 1]) && startsEntry(it, items[i + 1])) {
        row.push(entry);
        entry = [];
      }
      entry.push(it);
      afterComma = false;
    }
  }
  if (afterComma && !entry.length) throw src.err(`missing entry before '${g.close.text}'`, g.close.pos);
  endRow();
  return rows;
}

/** a comma-only bracket with no MATLAB row or whitespace separators (newlines after commas allowed) */
function flatPython(g: Group): boolean {
  let prev: Item | undefined;
  let sawNl = false;
  for (let i = 0; i < g.items.length; i++) {
    const it = g.items[i];
    if (isTok(it, 'semi')) return false;
    if (isTok(it, 'nl')) {
      sawNl = true;
      continue;
    }
    if (isTok(it, 'comma')) {
      prev = it;
      sawNl = false;
      continue;
    }
    if (endsOperand(prev) && (sawNl || startsEntry(it, g.items[i + 1]))) return false;
    prev = it;
    sawNl = false;
  }
  return true;
}

/** a nested list: `[[0, 1], [-2, -3]]` (every entry a comma-only bracket, separated by commas) */
function listLike(g: Group): boolean {
  if (!flatPython(g)) return false;
  const parts = splitCommas(
    g.items.filter((x) => !isTok(x, 'nl')),
    false,
  );
  if (!parts.length) return false;
  return parts.every((p) => p.length === 1 && isGroup(p[0]) && p[0].open.text === '[' && (listLike(p[0]) || flatPython(p[0])));
}

// ------------------------------------------------------------------ evaluation
const OPERATORS = new Set(['add', 'subtract', 'multiply', 'divide', 'pow', 'dotMultiply', 'dotDivide', 'dotPow', 'unaryMinus', 'unaryPlus', 'ctranspose']);

class Evaluator {
  constructor(
    readonly src: Source,
    readonly entries: Entry[],
  ) {}

  ctxOf(e: { pos: number; end?: number }, name: string): Ctx {
    return { src: this.src, at: this.src.at(e.pos), name };
  }

  eval(node: MNode): V {
    switch (node.type) {
      case 'ConstantNode':
        if (typeof node.value !== 'number') throw new ControlError('only numbers are allowed in a matrix value');
        return node.value;
      case 'ParenthesisNode':
        return this.eval(node.content!);
      case 'SymbolNode': {
        const e = this.lookup(node.name);
        if (e?.kind !== 'const') throw new ControlError(`unknown name in a matrix value`);
        return e.value;
      }
      case 'OperatorNode':
        return this.operator(node);
      case 'FunctionNode':
        return this.func(node);
      default:
        throw new ControlError(`${node.type} is not allowed in a matrix value`);
    }
  }

  lookup(name: string | undefined): Entry | undefined {
    const m = /^__[ivh](\d+)$/.exec(name ?? '');
    return m ? this.entries[Number(m[1])] : undefined;
  }

  func(node: MNode): V {
    const fnNode = node.fn as MNode | undefined;
    if (!fnNode || fnNode.type !== 'SymbolNode') throw new ControlError('only plain function calls are allowed in a matrix value');
    const name = fnNode.name!;
    const e = this.lookup(name);
    if (!e) throw new ControlError(`unknown function in a matrix value`);
    const args = (node.args ?? []).map((a) => this.eval(a));
    if (e.kind === 'fn') return e.fn(args, this.ctxOf(e, e.name));
    if (e.kind === 'list') return this.list(args, e);
    if (e.kind === 'matlab') return name.startsWith('__h') ? this.hcat(args, e) : this.vcat(args, e);
    throw new ControlError('a constant is not a function');
  }

  where(e: { pos: number; end: number }): string {
    return `in ${this.src.snippet(e.pos, e.end)} at ${this.src.at(e.pos)}`;
  }

  hcat(args: V[], e: { pos: number; end: number }): V {
    if (args.length === 1 && typeof args[0] === 'number') return args[0];
    const ms = args.map(toMat).filter((m) => m.r * m.c > 0);
    if (!ms.length) return new Mat([], 0, 0);
    const r = ms[0].r;
    ms.forEach((m, j) => {
      if (m.r !== r) throw new ControlError(`entries 1 and ${j + 1} of a row have different heights (${r} and ${m.r} rows) ${this.where(e)}`);
    });
    const c = ms.reduce((s, m) => s + m.c, 0);
    if (r * c > MAX_ELEMENTS) throw new ControlError(`a matrix of ${r}x${c} is too large ${this.where(e)}`, 'limit');
    return new Mat(
      ms[0].a.map((_, i) => ms.flatMap((m) => m.a[i])),
      r,
      c,
    );
  }

  vcat(rows: V[], e: { pos: number; end: number }): V {
    if (rows.length === 1) return rows[0];
    const ms = rows.map(toMat);
    let first = -1;
    ms.forEach((m, i) => {
      if (m.r * m.c === 0) return;
      if (first < 0) first = i;
      else if (m.c !== ms[first].c)
        throw new ControlError(`rows ${first + 1} and ${i + 1} have different lengths (${ms[first].c} and ${m.c}) ${this.where(e)}`);
    });
    const kept = ms.filter((m) => m.r * m.c > 0);
    if (!kept.length) return new Mat([], 0, 0);
    const r = kept.reduce((s, m) => s + m.r, 0);
    if (r * kept[0].c > MAX_ELEMENTS) throw new ControlError(`a matrix of ${r}x${kept[0].c} is too large ${this.where(e)}`, 'limit');
    return Mat.of(kept.flatMap((m) => m.a.map((row) => row.slice())));
  }

  /** a Python list: numbers make a 1-D array, 1-D arrays (or rows) make the rows of a matrix */
  list(items: V[], e: { pos: number; end: number }): V {
    if (items.every((x) => typeof x === 'number')) return new Vec(items as number[]);
    const rows: number[][] = [];
    items.forEach((x, i) => {
      if (typeof x === 'number') throw new ControlError(`a list mixes numbers and lists (entry ${i + 1} is a number) ${this.where(e)}`);
      if (x instanceof Mat && x.r > 1)
        throw new ControlError(`entry ${i + 1} is a ${x.r}x${x.c} matrix: only 1-D and 2-D arrays are supported ${this.where(e)}`);
      rows.push(x instanceof Vec ? x.a.slice() : (x.a[0] ?? []).slice());
    });
    for (let i = 1; i < rows.length; i++)
      if (rows[i].length !== rows[0].length)
        throw new ControlError(`rows 1 and ${i + 1} have different lengths (${rows[0].length} and ${rows[i].length}) ${this.where(e)}`);
    if (rows.length * (rows[0]?.length ?? 0) > MAX_ELEMENTS) throw new ControlError(`the list is too large ${this.where(e)}`, 'limit');
    return Mat.of(rows);
  }

  operator(node: MNode): V {
    const fn = node.fn as string;
    if (node.implicit || !OPERATORS.has(fn)) throw new ControlError(`the operator ${node.op} is not allowed in a matrix value`);
    const args = (node.args ?? []).map((a) => this.eval(a));
    const op = node.op ?? fn;
    switch (fn) {
      case 'unaryMinus':
        return mapV(args[0], (x) => -x);
      case 'unaryPlus':
        return args[0];
      case 'ctranspose':
        return transposeV(args[0]);
      case 'add':
        return binary(args[0], args[1], (x, y) => x + y, op);
      case 'subtract':
        return binary(args[0], args[1], (x, y) => x - y, op);
      case 'dotMultiply':
        return binary(args[0], args[1], (x, y) => x * y, op);
      case 'dotDivide':
        return binary(args[0], args[1], (x, y) => x / y, op);
      case 'dotPow':
        return binary(args[0], args[1], checkedPow, op);
      case 'multiply':
        return product(args[0], args[1]);
      case 'divide':
        return quotient(args[0], args[1]);
      case 'pow':
        return power(args[0], args[1]);
    }
    throw new ControlError(`the operator ${op} is not allowed in a matrix value`);
  }
}

function checkedPow(x: number, y: number): number {
  const z = Math.pow(x, y);
  if (Number.isNaN(z) && !Number.isNaN(x) && !Number.isNaN(y)) throw new ControlError(`${x}^${y} is not a real number (only real matrices are supported)`);
  return z;
}

function binary(a: V, b: V, f: (x: number, y: number) => number, op: string): V {
  if (typeof a === 'number' && typeof b === 'number') return f(a, b);
  const sa = isScalarLike(a);
  const sb = isScalarLike(b);
  if (sa && sb) {
    const z = f(scalarOf(a), scalarOf(b));
    if (a instanceof Mat || b instanceof Mat) return new Mat([[z]], 1, 1);
    return new Vec([z]);
  }
  if (sa) {
    const x = scalarOf(a);
    return mapV(b, (y) => f(x, y));
  }
  if (sb) {
    const y = scalarOf(b);
    return mapV(a, (x) => f(x, y));
  }
  if (a instanceof Vec && b instanceof Vec && a.a.length === b.a.length) return new Vec(a.a.map((x, i) => f(x, b.a[i])));
  const ma = toMat(a);
  const mb = toMat(b);
  if (ma.r !== mb.r || ma.c !== mb.c) throw new ControlError(`sizes ${ma.r}x${ma.c} and ${mb.r}x${mb.c} do not match for '${op}'`);
  return fill(ma.r, ma.c, (i, j) => f(ma.a[i][j], mb.a[i][j]));
}

function product(a: V, b: V): V {
  if (isScalarLike(a) || isScalarLike(b)) return binary(a, b, (x, y) => x * y, '*');
  const ma = toMat(a);
  const mb = toMat(b);
  if (ma.c !== mb.r) throw new ControlError(`inner sizes do not match for '*': ${ma.r}x${ma.c} times ${mb.r}x${mb.c}`);
  if (ma.r * mb.c > MAX_ELEMENTS) throw new ControlError(`a product of ${ma.r}x${mb.c} is too large`, 'limit');
  return Mat.of(mathjs().restrictedMath.multiply(ma.a, mb.a) as number[][]);
}

function quotient(a: V, b: V): V {
  if (isScalarLike(b)) return binary(a, b, (x, y) => x / y, '/');
  const ma = toMat(a);
  const mb = toMat(b);
  if (mb.r !== mb.c || ma.c !== mb.r) throw new ControlError(`cannot divide a ${ma.r}x${ma.c} by a ${mb.r}x${mb.c} matrix (use ./ for entry-wise division)`);
  try {
    return Mat.of(mathjs().restrictedMath.divide(ma.a, mb.a) as number[][]);
  } catch {
    throw new ControlError(`cannot divide by a singular ${mb.r}x${mb.c} matrix`);
  }
}

function power(a: V, b: V): V {
  if (isScalarLike(a) && isScalarLike(b)) return binary(a, b, checkedPow, '^');
  if (!isScalarLike(b)) throw new ControlError(`the exponent of '^' must be a number, got a ${sizeOf(b)} matrix (use .^ for entry-wise powers)`);
  const m = toMat(a);
  const k = scalarOf(b);
  if (m.r !== m.c) throw new ControlError(`'^' needs a square matrix, got ${m.r}x${m.c} (use .^ for entry-wise powers)`);
  if (!Number.isInteger(k) || k < 0 || k > 1e6) throw new ControlError(`a matrix power needs a non-negative integer exponent, got ${k}`);
  return Mat.of(mathjs().restrictedMath.pow(m.a, k) as number[][]);
}

// ------------------------------------------------------------------ entry points
function finish(v: V): Matrix {
  const m = toMat(v);
  if (m.r === 0) return [];
  // p x 0 (C of a model with no states, zeros(p,0)) keeps its p empty rows; a 0 x m matrix
  // cannot be written as rows at all and is [] (its column count comes from elsewhere)
  if (m.c === 0) return Array.from({ length: m.r }, () => []);
  for (const row of m.a) for (const x of row) if (typeof x !== 'number') throw new ControlError('a matrix value must contain only real numbers');
  return m.a;
}

/** the mathjs syntax error message, in our words */
function describeMathjsError(msg: string): string {
  const m = msg.replace(/\s*\(char \d+\)\s*$/, '');
  if (/^Value expected/.test(m)) return 'expected a value';
  if (/^Unexpected end of expression/.test(m)) return 'unexpected end of the value';
  if (/^Unexpected operator (.*)/.test(m)) return `unexpected operator ${/^Unexpected operator (.*)/.exec(m)![1]}`;
  return m.charAt(0).toLowerCase() + m.slice(1);
}

/** reads one matrix value; `origin` places the text in a document for error positions */
export function parseMatrixAt(text: string, origin?: Origin): Matrix {
  if (typeof text !== 'string') throw new ControlError('a matrix literal must be text');
  const src = new Source(text, origin);
  if (text.length > MAX_TEXT) throw src.err(`the matrix text is too long (${text.length} characters)`, undefined, 'limit');
  let toks = tokenize(src);
  // a trailing ';' (MATLAB statement end) and surrounding newlines are not part of the value
  const dropNl = () => {
    while (toks.length && toks[toks.length - 1].kind === 'nl') toks = toks.slice(0, -1);
  };
  dropNl();
  if (toks.length && toks[toks.length - 1].kind === 'semi') toks = toks.slice(0, -1);
  dropNl();
  if (!toks.some((t) => t.kind !== 'nl')) throw src.err('no matrix value (the text is empty)');
  const tree = buildTree(src, toks);
  const em = new Emitter(src);
  em.seq(tree, false);
  let node: MNode;
  try {
    node = mathParse(em.out);
  } catch (e) {
    const ch = (e as { char?: number }).char;
    const msg = describeMathjsError((e as Error).message ?? String(e));
    if (typeof ch === 'number') {
      const idx = Math.min(Math.max(ch - 1, 0), em.map.length - 1);
      const pos = em.map[idx] ?? text.length;
      throw src.err(pos < text.length ? `${msg} before '${text[pos]}'` : msg, pos);
    }
    throw src.err(msg);
  }
  return finish(new Evaluator(src, em.entries).eval(node));
}

/**
 * Reads one matrix value written in MATLAB/Octave, NumPy or JSON syntax (see the module
 * comment) into an array of rows; a scalar becomes [[x]]. Throws ControlError naming the
 * problem and its position.
 */
export function parseMatrixLiteral(text: string): Matrix {
  return parseMatrixAt(text);
}
