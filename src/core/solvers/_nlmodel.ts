/**
 * A nonlinear state-space model written as equations, shared by the nonlinear tools
 * (solvers/nonlinear.ts), their verifier and the request reader:
 *
 *   x1' = x2; x2' = -g/l*sin(x1) - b*x2 + u      (also dx1/dt = …, x1dot = …, x1_dot = …, ẋ1 = …)
 *   y = x1                                          (outputs optional: y, or y1, y2, …; default y = x)
 *   g = 9.81, l = 1                                 (parameters: here, or as the params argument)
 *
 * States are the names differentiated on the left, in the order written (x1, x2, … sorted by
 * their index); inputs are u or u1…um (or the names given as `inputs`); every other name must
 * be a parameter with a value, pi or e. Every right-hand side is read by the restricted mathjs
 * parser (parse/restrictedMath.ts) and the tree is walked here: only numbers, the model's names,
 * + − * / ^, parentheses and the elementary functions of FUNCTIONS are accepted, anything else
 * is a ControlError naming it; nothing is evaluated by mathjs. The walked tree is compiled into
 * plain closures. Jacobians are symbolic (mathjs `derivative` on the accepted tree, its result
 * walked by the same rules), so ∂f/∂x is exact; the verifier cross-checks them by finite
 * differences on its own evaluation of the equations.
 */
import { ControlError } from '../errors.js';
import { mathjs } from '../parse/literal.js';

export interface MNode {
  type: string;
  value?: unknown;
  name?: string;
  fn?: unknown;
  op?: string;
  args?: MNode[];
  content?: MNode;
  toString(o?: Record<string, unknown>): string;
}

/** the model as a tool takes it: equations (one string, `;` or new lines between, or a list), outputs, parameters */
export interface NlArgs {
  equations: string | string[];
  outputs?: string | string[];
  params?: Record<string, number>;
  inputs?: string[];
}

/** a compiled expression of the variable vector [x, u, params] */
type Fn = (v: Float64Array) => number;

export interface NlModel {
  states: string[];
  inputs: string[];
  /** output names (y, or y1…yp; the states themselves when no output is written) */
  outputs: string[];
  /** true when no output equation was given: y = x */
  outputsDefault: boolean;
  params: Record<string, number>;
  /** where each parameter's value came from: 'equations' (written among them) or 'params' */
  paramFrom: Record<string, 'equations' | 'params'>;
  /** right-hand sides as read (mathjs text, multiplication shown) */
  fText: string[];
  hText: string[];
  f(x: readonly number[], u: readonly number[]): number[];
  h(x: readonly number[], u: readonly number[]): number[];
  /** symbolic Jacobians ∂f/∂x, ∂f/∂u, ∂h/∂x, ∂h/∂u: text of each entry and its value at (x, u) */
  jacobians(): Jacobians;
}

export interface Jacobians {
  text: { A: string[][]; B: string[][]; C: string[][]; D: string[][] };
  at(x: readonly number[], u: readonly number[]): { A: number[][]; B: number[][]; C: number[][]; D: number[][] };
}

/** the most states and equations one model may have */
export const MAX_STATES = 20;
const MAX_EQ_CHARS = 4000;
const MAX_NODES = 2000;

/** MATLAB's mod/rem, half-away rounding (as parse/formula.ts) */
const mod = (x: number, y: number) => (y === 0 ? x : x - Math.floor(x / y) * y);

/** the functions an equation may call: [arity, implementation]; sec…coth appear in derivatives */
const FUNCTIONS: Record<string, [number, (...a: number[]) => number]> = {
  sin: [1, Math.sin],
  cos: [1, Math.cos],
  tan: [1, Math.tan],
  asin: [1, Math.asin],
  acos: [1, Math.acos],
  atan: [1, Math.atan],
  atan2: [2, Math.atan2],
  sinh: [1, Math.sinh],
  cosh: [1, Math.cosh],
  tanh: [1, Math.tanh],
  exp: [1, Math.exp],
  log: [1, Math.log],
  log10: [1, Math.log10],
  sqrt: [1, Math.sqrt],
  abs: [1, Math.abs],
  sign: [1, Math.sign],
  min: [2, Math.min],
  max: [2, Math.max],
  mod: [2, mod],
  sec: [1, (x) => 1 / Math.cos(x)],
  csc: [1, (x) => 1 / Math.sin(x)],
  cot: [1, (x) => 1 / Math.tan(x)],
  sech: [1, (x) => 1 / Math.cosh(x)],
  csch: [1, (x) => 1 / Math.sinh(x)],
  coth: [1, (x) => 1 / Math.tanh(x)],
};
/** the functions a user may write (the derivative's sec…coth are accepted too, they are elementary) */
export const NL_FUNCTIONS = Object.keys(FUNCTIONS);

const OPERATORS: Record<string, (a: number, b: number) => number> = {
  add: (a, b) => a + b,
  subtract: (a, b) => a - b,
  multiply: (a, b) => a * b,
  divide: (a, b) => a / b,
  pow: (a, b) => Math.pow(a, b),
};
const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E };

const allowed = () =>
  `an equation may use the states, the inputs, parameters with values, numbers, pi, e, + - * / ^ and ${NL_FUNCTIONS.slice(0, 19).join(', ')}`;

/** the left-hand side of a state equation: the state's name, or undefined */
export function derivativeName(lhs: string): string | undefined {
  const s = lhs.trim().replace(/\s*\(\s*t\s*\)\s*$/, '');
  let m = s.match(/^d\s*\(?\s*([A-Za-z_]\w*)\s*\)?\s*\/\s*dt$/);
  if (m) return m[1];
  m = s.match(/^([A-Za-z_]\w*?)\s*(?:\(\s*t\s*\))?\s*'$/) ?? s.match(/^([A-Za-z_]\w*?)_?dot$/i);
  if (m && m[1] && !/^d$/i.test(m[1])) return m[1];
  m = s.match(/^ẋ_?(\w*)$/);
  if (m) return `x${m[1]}`;
  m = s.match(/^\\dot\{?\s*([A-Za-z])\s*\}?_?\{?(\d*)\}?$/);
  if (m) return `${m[1]}${m[2]}`;
  return undefined;
}

/** one equation string split into its statements: `;` and new lines, and commas before another `name' =` */
export function splitEquations(text: string | string[]): string[] {
  const parts = (Array.isArray(text) ? text : [text]).flatMap((s) => s.split(/[;\n]/));
  const out: string[] = [];
  for (const p of parts) {
    // a top-level comma followed by another equation's left-hand side
    let depth = 0;
    let start = 0;
    for (let i = 0; i < p.length; i++) {
      const c = p[i];
      if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') depth--;
      else if (
        c === ',' &&
        depth === 0 &&
        /^\s*(?:and\s+)?(?:[A-Za-z_]\w*\s*'|d\s*\(?\s*[A-Za-z_]\w*\s*\)?\s*\/\s*dt|[A-Za-z_]\w*?_?dot|ẋ\w*|y\d*|[A-Za-z_]\w*)\s*=/.test(p.slice(i + 1))
      ) {
        out.push(p.slice(start, i));
        start = i + 1;
      }
    }
    out.push(p.slice(start));
  }
  return out.map((s) => s.trim().replace(/^and\s+/i, '')).filter(Boolean);
}

const sortByIndex = (names: string[]): string[] => {
  const m = names.map((n) => n.match(/^([A-Za-z_]+)(\d+)$/));
  if (names.length > 1 && m.every((x) => x && x[1] === m[0]![1])) return [...names].sort((a, b) => Number(a.match(/\d+$/)![0]) - Number(b.match(/\d+$/)![0]));
  return names;
};

function parseExpr(src: string, what: string): MNode {
  const text = src.trim();
  if (!text) throw new ControlError(`${what} has no right-hand side.`);
  try {
    return mathjs().mathParse(text) as MNode;
  } catch (e) {
    throw new ControlError(`${what}: cannot read "${text}" (${(e as Error).message}); ${allowed()}.`);
  }
}

/** every name a tree uses (symbols, not the functions it calls) */
function symbolsOf(nd: MNode, out = new Set<string>()): Set<string> {
  if (nd.type === 'SymbolNode') out.add(nd.name ?? '');
  if (nd.type === 'FunctionNode') for (const a of nd.args ?? []) symbolsOf(a, out);
  else {
    for (const a of nd.args ?? []) symbolsOf(a, out);
    if (nd.content) symbolsOf(nd.content, out);
  }
  return out;
}

/**
 * Compiles an accepted tree into a closure of the variable vector; refuses any other node.
 * `index` maps a name to its slot in the vector.
 */
function compile(root: MNode, index: Map<string, number>, what: string): Fn {
  let nodes = 0;
  const walk = (nd: MNode): Fn => {
    if (++nodes > MAX_NODES) throw new ControlError(`${what} has more than ${MAX_NODES} terms.`, 'limit');
    switch (nd.type) {
      case 'ConstantNode': {
        const v = nd.value;
        if (typeof v !== 'number' || !Number.isFinite(v)) throw new ControlError(`${what}: "${String(v)}" is not a finite number; ${allowed()}.`);
        return () => v;
      }
      case 'SymbolNode': {
        const name = nd.name ?? '';
        const k = index.get(name);
        if (k !== undefined) return (v) => v[k];
        if (Object.hasOwn(CONSTANTS, name)) {
          const c = CONSTANTS[name];
          return () => c;
        }
        throw new ControlError(`${what} uses "${name}", which is not a state, an input or a parameter with a value; ${allowed()}.`);
      }
      case 'ParenthesisNode':
        return walk(nd.content!);
      case 'OperatorNode': {
        const fn = String(nd.fn);
        const args = nd.args ?? [];
        if (fn === 'unaryMinus' && args.length === 1) {
          const a = walk(args[0]);
          return (v) => -a(v);
        }
        if (fn === 'unaryPlus' && args.length === 1) return walk(args[0]);
        if (!Object.hasOwn(OPERATORS, fn) || args.length !== 2) throw new ControlError(`${what}: the operator "${nd.op}" is not allowed; ${allowed()}.`);
        const op = OPERATORS[fn];
        const a = walk(args[0]);
        const b = walk(args[1]);
        return (v) => op(a(v), b(v));
      }
      case 'FunctionNode': {
        const f = nd.fn as MNode | undefined;
        const name = f?.type === 'SymbolNode' ? (f.name ?? '') : '';
        if (!name || !Object.hasOwn(FUNCTIONS, name)) throw new ControlError(`${what} calls "${name || '?'}", which is not allowed; ${allowed()}.`);
        const [arity, impl] = FUNCTIONS[name];
        const args = (nd.args ?? []).map(walk);
        if (args.length !== arity) throw new ControlError(`${what}: ${name} takes ${arity} argument${arity === 1 ? '' : 's'}, not ${args.length}.`);
        if (arity === 1) {
          const [a] = args;
          return (v) => impl(a(v));
        }
        const [a, b] = args;
        return (v) => impl(a(v), b(v));
      }
      default:
        throw new ControlError(
          `${what} contains ${nd.type
            .replace(/Node$/, '')
            .replace(/([a-z])([A-Z])/g, '$1 $2')
            .toLowerCase()} syntax, which is not allowed; ${allowed()}.`,
        );
    }
  };
  return walk(root);
}

/** a constant expression of numbers and parameters already known (g = 9.81, l = 2*0.5) */
function constantValue(node: MNode, params: Record<string, number>, what: string): number {
  const names = Object.keys(params);
  const f = compile(node, new Map(names.map((n, i) => [n, i])), what);
  const v = f(Float64Array.from(names.map((n) => params[n])));
  if (!Number.isFinite(v)) throw new ControlError(`${what} is not a finite number.`);
  return v;
}

const text = (n: MNode) => n.toString({ implicit: 'show', parenthesis: 'auto' });

/** reads a model; every error names what to change */
export function readModel(args: NlArgs): NlModel {
  const eqText = Array.isArray(args.equations) ? args.equations.join('; ') : args.equations;
  if (typeof eqText !== 'string' || !eqText.trim())
    throw new ControlError('Give the state equations, e.g. equations = "x1\' = x2; x2\' = -9.81*sin(x1) - 0.1*x2 + u".');
  if (eqText.length > MAX_EQ_CHARS) throw new ControlError(`The equations have ${eqText.length} characters, above the limit of ${MAX_EQ_CHARS}.`, 'limit');
  const stmts = [...splitEquations(args.equations), ...(args.outputs !== undefined ? splitEquations(args.outputs) : [])];
  const states: string[] = [];
  const rhs = new Map<string, MNode>();
  const outs: { name: string; node: MNode }[] = [];
  const params: Record<string, number> = {};
  const paramFrom: Record<string, 'equations' | 'params'> = {};
  const pending: { name: string; node: MNode; text: string }[] = [];
  for (const s of stmts) {
    const eq = s.indexOf('=');
    if (eq < 0 || s[eq + 1] === '=')
      throw new ControlError(`"${s}" is not an equation: write each as x1' = … (or dx1/dt = …, x1dot = …), y = …, or a parameter g = 9.81.`);
    const lhs = s.slice(0, eq).trim();
    const right = s.slice(eq + 1);
    const state = derivativeName(lhs);
    if (state) {
      if (rhs.has(state)) throw new ControlError(`${state} has two equations ("${lhs} = …" twice); give each state one.`);
      states.push(state);
      rhs.set(state, parseExpr(right, `The equation of ${lhs}`));
      continue;
    }
    if (!/^[A-Za-z_]\w*$/.test(lhs)) throw new ControlError(`"${lhs}" is not a state derivative (x1', dx1/dt, x1dot), an output (y, y1) or a parameter name.`);
    const node = parseExpr(right, `${lhs} = …`);
    if (/^y\d*$/.test(lhs)) outs.push({ name: lhs, node });
    else pending.push({ name: lhs, node, text: s });
  }
  if (!states.length)
    throw new ControlError("No state equation found: write each as x1' = … (or dx1/dt = …, x1dot = …), e.g. \"x1' = x2; x2' = -9.81*sin(x1) + u\".");
  if (states.length > MAX_STATES) throw new ControlError(`The model has ${states.length} states, above the limit of ${MAX_STATES}.`, 'limit');
  for (const [k, v] of Object.entries(args.params ?? {})) {
    if (!/^[A-Za-z_]\w*$/.test(k)) throw new ControlError(`The parameter name "${k}" is not a name.`);
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new ControlError(`The parameter ${k} must be a finite number.`);
    params[k] = v;
    paramFrom[k] = 'params';
  }
  // parameters written among the equations (g = 9.81, w = 2*pi); those given as arguments win, said by paramFrom
  for (let pass = 0; pass < 3 && pending.length; pass++)
    for (let i = pending.length - 1; i >= 0; i--) {
      const p = pending[i];
      const syms = [...symbolsOf(p.node)].filter((n) => !Object.hasOwn(CONSTANTS, n));
      if (!syms.every((n) => n in params)) continue;
      if (!(p.name in params)) {
        params[p.name] = constantValue(p.node, params, `The parameter ${p.name}`);
        paramFrom[p.name] = 'equations';
      }
      pending.splice(i, 1);
    }
  if (pending.length)
    throw new ControlError(
      `${pending.map((p) => `"${p.text}"`).join(', ')} ${pending.length > 1 ? 'are' : 'is'} neither a state equation, an output (y = …) nor a parameter with a number: give each parameter a value.`,
    );
  const sortedStates = sortByIndex(states);
  for (const s of sortedStates) if (s in params) throw new ControlError(`${s} is both a state and a parameter.`);
  // inputs: as given, else u or u1…um used anywhere
  const used = new Set<string>();
  for (const n of [...rhs.values(), ...outs.map((o) => o.node)]) symbolsOf(n, used);
  let inputs: string[];
  if (args.inputs?.length) {
    inputs = [...args.inputs];
    for (const n of inputs) if (!/^[A-Za-z_]\w*$/.test(n)) throw new ControlError(`The input name "${n}" is not a name.`);
  } else inputs = sortByIndex([...used].filter((n) => /^u\d*$/.test(n) && !(n in params) && !sortedStates.includes(n)));
  if (inputs.includes('u') && inputs.some((n) => n !== 'u'))
    throw new ControlError(`The equations use both u and ${inputs.find((n) => n !== 'u')}: name the inputs u1, u2, … or give them as inputs.`);
  if (used.has('t'))
    throw new ControlError(
      'The equations use t: time-varying models are not supported; write the time dependence as an input u and give u as a formula of t to nlsim.',
    );
  for (const n of inputs) if (sortedStates.includes(n)) throw new ControlError(`${n} is both a state and an input.`);
  // outputs
  let outputsDefault = false;
  if (!outs.length) outputsDefault = true;
  const outNames = outs.length ? sortByIndex(outs.map((o) => o.name)) : sortedStates.map((s) => s);
  if (new Set(outNames).size !== outNames.length) throw new ControlError('An output is given twice; give each output (y, y1, y2, …) one equation.');
  const outNodes: MNode[] = outs.length ? outNames.map((n) => outs.find((o) => o.name === n)!.node) : sortedStates.map((s) => mathjs().mathParse(s) as MNode);
  if (outNames.length > MAX_STATES) throw new ControlError(`The model has ${outNames.length} outputs, above the limit of ${MAX_STATES}.`, 'limit');
  // the variable vector: [x, u, params]
  const pnames = Object.keys(params);
  const index = new Map<string, number>();
  [...sortedStates, ...inputs, ...pnames].forEach((n, i) => {
    if (!index.has(n)) index.set(n, i);
  });
  const nx = sortedStates.length;
  const nu = inputs.length;
  const pv = pnames.map((n) => params[n]);
  const fNodes = sortedStates.map((s) => rhs.get(s)!);
  const fFns = fNodes.map((nd, i) => compile(nd, index, `The equation of ${sortedStates[i]}'`));
  const hFns = outNodes.map((nd, i) => compile(nd, index, `The output ${outNames[i]}`));
  const vec = (x: readonly number[], u: readonly number[]) => {
    if (x.length !== nx) throw new ControlError(`The state has ${nx} entries (${sortedStates.join(', ')}); ${x.length} were given.`);
    if (u.length !== nu)
      throw new ControlError(
        `The model has ${nu} input${nu === 1 ? '' : 's'}${nu ? ` (${inputs.join(', ')})` : ''}; ${u.length} value${u.length === 1 ? '' : 's'} were given.`,
      );
    return Float64Array.from([...x, ...u, ...pv]);
  };
  let jac: Jacobians | undefined;
  const model: NlModel = {
    states: sortedStates,
    inputs,
    outputs: outNames,
    outputsDefault,
    params,
    paramFrom,
    fText: fNodes.map(text),
    hText: outNodes.map(text),
    f: (x, u) => {
      const v = vec(x, u);
      return fFns.map((g) => g(v));
    },
    h: (x, u) => {
      const v = vec(x, u);
      return hFns.map((g) => g(v));
    },
    jacobians() {
      if (jac) return jac;
      const d = (nd: MNode, wrt: string, what: string): { text: string; fn: Fn } => {
        let r: MNode;
        try {
          r = mathjs().mathDerivative(nd, mathjs().mathParse(wrt), { simplify: true }) as MNode;
        } catch (e) {
          throw new ControlError(
            `${what} has no symbolic derivative (${(e as Error).message.replace(/ in derivative.*$/, '')}): sign, min, max, mod and atan2 are not differentiable here; rewrite the equation with differentiable functions.`,
          );
        }
        return { text: text(r), fn: compile(r, index, what) };
      };
      const block = (nodes: MNode[], rows: string[], cols: string[], sym: string) =>
        nodes.map((nd, i) => cols.map((c) => d(nd, c, `∂${rows[i]}/∂${c} (${sym})`)));
      const fx = block(
        fNodes,
        sortedStates.map((s) => `${s}'`),
        sortedStates,
        'A',
      );
      const fu = block(
        fNodes,
        sortedStates.map((s) => `${s}'`),
        inputs,
        'B',
      );
      const hx = block(outNodes, outNames, sortedStates, 'C');
      const hu = block(outNodes, outNames, inputs, 'D');
      const at = (blk: { fn: Fn }[][], v: Float64Array) => blk.map((row) => row.map((e) => e.fn(v)));
      jac = {
        text: {
          A: fx.map((r) => r.map((e) => e.text)),
          B: fu.map((r) => r.map((e) => e.text)),
          C: hx.map((r) => r.map((e) => e.text)),
          D: hu.map((r) => r.map((e) => e.text)),
        },
        at(x, u) {
          const v = vec(x, u);
          return { A: at(fx, v), B: at(fu, v), C: at(hx, v), D: at(hu, v) };
        },
      };
      return jac;
    },
  };
  return model;
}

/** the model's equations as one line each, for answers: x1' = …, y = … */
export function modelLines(m: NlModel): string[] {
  return [...m.states.map((s, i) => `${s}' = ${m.fText[i]}`), ...(m.outputsDefault ? [] : m.outputs.map((o, i) => `${o} = ${m.hText[i]}`))];
}

/** the parameters and where each came from, for answers */
export function paramLine(m: NlModel, fmt: (x: number) => string): string {
  const names = Object.keys(m.params);
  if (!names.length) return '';
  return names.map((n) => `${n} = ${fmt(m.params[n])}`).join(', ');
}

/**
 * An expression as MATLAB or Python (NumPy) writes it: mathjs's text with * shown; Python's
 * power is **, its functions np.*, its constants np.pi, np.e.
 */
export function exprCode(expr: string, lang: 'matlab' | 'python', rename: (name: string) => string = (n) => n): string {
  const node = mathjs().mathParse(expr) as MNode;
  let s = node.toString({
    implicit: 'show',
    parenthesis: 'auto',
    handler: (nd: MNode, opts: Record<string, unknown>) => {
      if (nd.type === 'SymbolNode' && !Object.hasOwn(CONSTANTS, nd.name ?? '')) return rename(nd.name ?? '');
      void opts;
      return undefined;
    },
  });
  if (lang === 'python') {
    s = s.replace(/\^/g, '**');
    s = s.replace(/(?<![\w.])(sin|cos|tan|sinh|cosh|tanh|exp|log|log10|sqrt|abs|sign|mod|minimum|maximum)\(/g, 'np.$1(');
    s = s
      .replace(/(?<![\w.])asin\(/g, 'np.arcsin(')
      .replace(/(?<![\w.])acos\(/g, 'np.arccos(')
      .replace(/(?<![\w.])atan\(/g, 'np.arctan(');
    s = s
      .replace(/(?<![\w.])atan2\(/g, 'np.arctan2(')
      .replace(/(?<![\w.])min\(/g, 'np.minimum(')
      .replace(/(?<![\w.])max\(/g, 'np.maximum(');
    s = s.replace(/(?<![\w.])pi(?![\w(])/g, 'np.pi').replace(/(?<![\w.\d])e(?![\w(])/g, 'np.e');
  } else {
    // element-wise MATLAB needs no change for scalars; mod, atan2, min, max exist
    s = s.replace(/(?<![\w.])e(?![\w(])/g, 'exp(1)');
  }
  return s;
}

/** a scalar expression of a model's states (and, when allowed, t), compiled with its symbolic gradient in x */
export interface ScalarExpr {
  text: string;
  /** ∂e/∂x_i as text */
  gradText: string[];
  at(x: readonly number[], t?: number): number;
  grad(x: readonly number[], t?: number): number[];
}

/**
 * Reads an expression of the model's states and parameters (and t when `allowT`) by the same
 * restricted parser and rules as the equations (inputs are refused: `what` names it), compiles
 * it and (with `withGrad`) its symbolic gradient ∂e/∂x; without, gradText is empty.
 */
export function scalarExpr(m: NlModel, src: string, what: string, allowT = false, withGrad = true): ScalarExpr {
  if (typeof src !== 'string' || !src.trim()) throw new ControlError(`${what} is missing: give it as an expression of ${m.states.join(', ')}.`);
  if (src.length > MAX_EQ_CHARS) throw new ControlError(`${what} has ${src.length} characters, above the limit of ${MAX_EQ_CHARS}.`, 'limit');
  const node = parseExpr(src, what);
  for (const n of symbolsOf(node))
    if (m.inputs.includes(n))
      throw new ControlError(`${what} uses the input ${n}; it must be a function of the state (${m.states.join(', ')})${allowT ? ' and t' : ''} only.`);
  const pnames = Object.keys(m.params);
  const index = new Map<string, number>();
  [...m.states, ...pnames, ...(allowT ? ['t'] : [])].forEach((n, i) => {
    if (!index.has(n)) index.set(n, i);
  });
  const pv = pnames.map((n) => m.params[n]);
  const vec = (x: readonly number[], t: number) => Float64Array.from([...x, ...pv, ...(allowT ? [t] : [])]);
  const fn = compile(node, index, what);
  const gs = (withGrad ? m.states : []).map((s) => {
    let r: MNode;
    try {
      r = mathjs().mathDerivative(node, mathjs().mathParse(s), { simplify: true }) as MNode;
    } catch (e) {
      throw new ControlError(
        `${what} has no symbolic derivative in ${s} (${(e as Error).message.replace(/ in derivative.*$/, '')}); write it with differentiable functions.`,
      );
    }
    return { text: text(r), fn: compile(r, index, `∂(${what})/∂${s}`) };
  });
  return {
    text: text(node),
    gradText: gs.map((g) => g.text),
    at: (x, t = 0) => fn(vec(x, t)),
    grad: (x, t = 0) => {
      const v = vec(x, t);
      return gs.map((g) => g.fn(v));
    },
  };
}

/**
 * Whether every state equation is affine in the inputs: each ∂²f_i/∂u_j∂u_k, taken symbolically
 * and simplified, is the constant 0. Returns the first equation that is not (with the pair), or
 * undefined when all are.
 */
export function nonAffineIn(m: NlModel): { state: string; text: string; wrt: [string, string]; d2: string } | undefined {
  for (let i = 0; i < m.states.length; i++) {
    const node = mathjs().mathParse(m.fText[i]) as MNode;
    for (let j = 0; j < m.inputs.length; j++)
      for (let k = j; k < m.inputs.length; k++) {
        let d2: MNode;
        try {
          const d1 = mathjs().mathDerivative(node, mathjs().mathParse(m.inputs[j]), { simplify: true }) as MNode;
          d2 = mathjs().mathDerivative(d1, mathjs().mathParse(m.inputs[k]), { simplify: true }) as MNode;
        } catch {
          return { state: m.states[i], text: m.fText[i], wrt: [m.inputs[j], m.inputs[k]], d2: 'not differentiable' };
        }
        if (!(d2.type === 'ConstantNode' && d2.value === 0)) return { state: m.states[i], text: m.fText[i], wrt: [m.inputs[j], m.inputs[k]], d2: text(d2) };
      }
  }
  return undefined;
}
