/**
 * A formula in t (an input signal for a simulation: "sin(2*t)", "1 - exp(-t)",
 * "heaviside(t-1)") read by the restricted mathjs parser and compiled here into a plain
 * function of t. Nothing of mathjs is evaluated: the parse tree is walked and only numbers,
 * the names t, pi and e, arithmetic, comparisons (1 when true, 0 when false) and the
 * elementary functions of FUNCTIONS are allowed; anything else (assignments, other names,
 * strings, matrices, units, function definitions) is a ControlError naming it.
 *
 * The mathjs instance is loaded on first use, as literal.ts does, with the same specifier, so
 * the bundles that keep `./restrictedMath.js` external keep it external here too.
 */
import { ControlError } from '../errors.js';

// the one lazily built restricted mathjs (literal.ts): built only when a formula or a matrix literal is read
import { mathjs } from './literal.js';

interface MNode {
  type: string;
  value?: unknown;
  name?: string;
  fn?: unknown;
  op?: string;
  args?: MNode[];
  content?: MNode;
}

type F = (t: number) => number;

/** MATLAB's round: half away from zero (JavaScript's Math.round rounds half up) */
const roundHalfAway = (x: number) => Math.sign(x) * Math.round(Math.abs(x));
/** MATLAB's mod (sign of the divisor; mod(x, 0) = x) and rem (sign of the dividend; rem(x, 0) = NaN) */
const mod = (x: number, y: number) => (y === 0 ? x : x - Math.floor(x / y) * y);
const rem = (x: number, y: number) => x - Math.trunc(x / y) * y;

/** the functions a formula may call: [arity (-1: one or more), implementation, discontinuous] */
const FUNCTIONS: Record<string, [number, (...a: number[]) => number, boolean]> = {
  sin: [1, Math.sin, false],
  cos: [1, Math.cos, false],
  tan: [1, Math.tan, false],
  asin: [1, Math.asin, false],
  acos: [1, Math.acos, false],
  atan: [1, Math.atan, false],
  atan2: [2, Math.atan2, false],
  sinh: [1, Math.sinh, false],
  cosh: [1, Math.cosh, false],
  tanh: [1, Math.tanh, false],
  exp: [1, Math.exp, false],
  log: [1, Math.log, false],
  log10: [1, Math.log10, false],
  log2: [1, Math.log2, false],
  sqrt: [1, Math.sqrt, false],
  abs: [1, Math.abs, false],
  min: [-1, Math.min, false],
  max: [-1, Math.max, false],
  sign: [1, Math.sign, true],
  floor: [1, Math.floor, true],
  ceil: [1, Math.ceil, true],
  round: [1, roundHalfAway, true],
  mod: [2, mod, true],
  rem: [2, rem, true],
  // a unit step that is 1 from its switching time on (right-continuous: the value a zero-order
  // hold keeps from that sample); MATLAB's symbolic heaviside(0) is 1/2
  heaviside: [1, (x) => (x >= 0 ? 1 : 0), true],
  // MATLAB's square(x): period 2π, +1 on the first half period, −1 on the second
  square: [1, (x) => (mod(x, 2 * Math.PI) < Math.PI ? 1 : -1), true],
};

const OPERATORS: Record<string, [(a: number, b: number) => number, boolean]> = {
  add: [(a, b) => a + b, false],
  subtract: [(a, b) => a - b, false],
  multiply: [(a, b) => a * b, false],
  divide: [(a, b) => a / b, false],
  pow: [(a, b) => Math.pow(a, b), false],
  mod: [mod, true],
  larger: [(a, b) => (a > b ? 1 : 0), true],
  smaller: [(a, b) => (a < b ? 1 : 0), true],
  largerEq: [(a, b) => (a >= b ? 1 : 0), true],
  smallerEq: [(a, b) => (a <= b ? 1 : 0), true],
};

const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E };

export const FORMULA_FUNCTIONS = Object.keys(FUNCTIONS);

const MAX_FORMULA = 500;
const MAX_NODES = 500;

export interface Formula {
  /** the formula as given */
  text: string;
  f: F;
  /** it uses a function or comparison that jumps (heaviside, sign, floor, mod, <, ...) */
  discontinuous: boolean;
}

const allowed = () => `a formula of t may use t, numbers, pi, e, + - * / ^, comparisons (t > 1 is 1 or 0) and the functions ${FORMULA_FUNCTIONS.join(', ')}`;

/** reads a formula in t; `arg` names the argument in messages */
export function compileFormula(text: string, arg = 'u'): Formula {
  const src = text.trim();
  if (!src) throw new ControlError(`${arg} is an empty formula; give a formula of t such as "sin(2*t)", or samples.`);
  if (src.length > MAX_FORMULA) throw new ControlError(`${arg}: the formula has ${src.length} characters, above the limit of ${MAX_FORMULA}.`, 'limit');
  let root: MNode;
  try {
    root = mathjs().mathParse(src) as MNode;
  } catch (e) {
    throw new ControlError(`${arg}: cannot read the formula "${src}" (${(e as Error).message}); ${allowed()}.`);
  }
  let nodes = 0;
  let discontinuous = false;
  const walk = (nd: MNode): F => {
    if (++nodes > MAX_NODES) throw new ControlError(`${arg}: the formula has more than ${MAX_NODES} terms.`, 'limit');
    switch (nd.type) {
      case 'ConstantNode': {
        const v = nd.value;
        if (typeof v !== 'number' || !Number.isFinite(v)) throw new ControlError(`${arg}: "${String(v)}" in the formula is not a finite number; ${allowed()}.`);
        return () => v;
      }
      case 'SymbolNode': {
        const name = nd.name ?? '';
        if (name === 't') return (t) => t;
        if (Object.hasOwn(CONSTANTS, name)) {
          const v = CONSTANTS[name];
          return () => v;
        }
        throw new ControlError(`${arg}: the formula uses the name "${name}", which is not t; ${allowed()}.`);
      }
      case 'ParenthesisNode':
        return walk(nd.content!);
      case 'OperatorNode': {
        const fn = String(nd.fn);
        const args = nd.args ?? [];
        if (fn === 'unaryMinus' && args.length === 1) {
          const a = walk(args[0]);
          return (t) => -a(t);
        }
        if (fn === 'unaryPlus' && args.length === 1) return walk(args[0]);
        if (!Object.hasOwn(OPERATORS, fn) || args.length !== 2)
          throw new ControlError(`${arg}: the operator "${nd.op}" is not allowed in a formula; ${allowed()}.`);
        const [op, jumps] = OPERATORS[fn];
        discontinuous ||= jumps;
        const a = walk(args[0]);
        const b = walk(args[1]);
        return (t) => op(a(t), b(t));
      }
      case 'FunctionNode': {
        const fnNode = nd.fn as MNode | undefined;
        const name = fnNode?.type === 'SymbolNode' ? (fnNode.name ?? '') : '';
        if (!name || !Object.hasOwn(FUNCTIONS, name)) throw new ControlError(`${arg}: the formula calls "${name || '?'}", which is not allowed; ${allowed()}.`);
        const [arity, impl, jumps] = FUNCTIONS[name];
        const args = (nd.args ?? []).map(walk);
        if (arity === -1 ? args.length < 1 : args.length !== arity)
          throw new ControlError(
            `${arg}: ${name} takes ${arity === -1 ? 'one or more arguments' : `${arity} argument${arity === 1 ? '' : 's'}`}, not ${args.length}.`,
          );
        discontinuous ||= jumps;
        if (args.length === 1) {
          const [a] = args;
          return (t) => impl(a(t));
        }
        if (args.length === 2) {
          const [a, b] = args;
          return (t) => impl(a(t), b(t));
        }
        return (t) => impl(...args.map((g) => g(t)));
      }
      default:
        throw new ControlError(
          `${arg}: the formula "${src}" contains ${nd.type
            .replace(/Node$/, '')
            .replace(/([a-z])([A-Z])/g, '$1 $2')
            .toLowerCase()} syntax, which is not allowed; ${allowed()}.`,
        );
    }
  };
  const f = walk(root);
  return { text: src, f, discontinuous };
}

/**
 * The same formula evaluated by mathjs itself (the parse tree's own compile, with the few
 * functions mathjs lacks given in its scope): a route of its own beside compileFormula's, for
 * the verifier. Only for a formula compileFormula accepted (it checked every node).
 */
export function mathjsFormula(text: string): (t: number) => number {
  compileFormula(text);
  const node = mathjs().mathParse(text.trim()) as { compile(): { evaluate(scope: Map<string, unknown> | Record<string, unknown>): unknown } };
  const code = node.compile();
  const scope = {
    heaviside: (x: number) => (x >= 0 ? 1 : 0),
    square: (x: number) => (((x % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI) < Math.PI ? 1 : -1),
    rem: (x: number, y: number) => x % y,
  };
  return (t: number) => {
    const v = code.evaluate({ ...scope, t });
    return typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : NaN;
  };
}
