/**
 * Transfer functions written as expressions: `G(s) = 10/(s(s+1)(s+5))`, `(s+2)/(s^2+2s+5)`,
 * `H(z) = 0.1/(z-0.9)`, `5(s+1)²/((s+2)(s²+s+1))`. The mathjs parser reads the expression
 * (after implicit products such as `s(s+1)` and `)(` are made explicit, since mathjs would
 * read `s(...)` as a call) and `rationalize` expands it into numerator and denominator
 * polynomials. `s` or `z` decides continuous or discrete.
 */
import { parse, rationalize, type MathNode } from 'mathjs';
import { ControlError } from '../errors.js';

export interface TfValue {
  num: number[];
  den: number[];
  variable: 's' | 'z';
}

/** the expression in mathjs syntax */
export function normaliseExpression(expr: string): string {
  let e = expr
    .replace(/[−–—]/g, '-')
    .replace(/[·×⋅]/g, '*')
    .replace(/²/g, '^2')
    .replace(/³/g, '^3')
    .replace(/⁴/g, '^4')
    .replace(/\*\*/g, '^')
    .replace(/\s+/g, ' ')
    .trim();
  // s(…) and z(…) are products, not calls; so are )( and )s
  e = e.replace(/(?<![A-Za-z_])([sz])\s*\(/g, '$1*(');
  e = e.replace(/\)\s*\(/g, ')*(');
  e = e.replace(/\)\s*([sz\d])/g, ')*$1');
  // 2s, 0.5z -> 2*s (mathjs does this too, but a number before a parenthesis is clearer made explicit)
  e = e.replace(/(\d)\s*([sz])(?![A-Za-z_])/g, '$1*$2');
  e = e.replace(/(\d)\s*\(/g, '$1*(');
  // z^-1 forms: z^-k -> (1/z)^k, which rationalize reads
  e = e.replace(/([sz])\s*\^\s*\(\s*-\s*(\d+)\s*\)/g, '(1/$1)^$2').replace(/([sz])\s*\^\s*-\s*(\d+)/g, '(1/$1)^$2');
  return e;
}

function coefficients(node: MathNode, variable: string): number[] {
  const text = node.toString();
  // a constant: no variable in it
  if (!new RegExp(`(?<![A-Za-z_])${variable}(?![A-Za-z_])`).test(text)) {
    const v = Number(node.evaluate());
    if (!Number.isFinite(v)) throw new ControlError(`the expression ${text} is not a finite number`);
    return [v];
  }
  const r = rationalize(text, {}, true) as unknown as { coefficients: number[]; variables: string[] };
  const c = r.coefficients.map(Number);
  if (!c.length || c.some((x) => !Number.isFinite(x))) throw new ControlError(`cannot read the polynomial ${text}`);
  const out = c.slice().reverse();
  while (out.length > 1 && out[0] === 0) out.shift();
  return out;
}

/** a transfer-function expression in s or z -> num, den (highest power first, as expanded) */
export function parseTfExpression(expr: string, expected?: 's' | 'z', scalars: Record<string, number> = {}): TfValue {
  if (/\be\s*\^|\bexp\s*\(/i.test(expr))
    throw new ControlError(
      `a time delay (e^(−sT)) cannot be read as a rational transfer function; approximate it with a Padé approximation (pade) and write the rational result`,
    );
  let e = normaliseExpression(expr);
  // K/(s(s+4)) with K = 100 given in the message
  for (const [k, v] of Object.entries(scalars)) if (k !== 's' && k !== 'z') e = e.replace(new RegExp(`(?<![\\w.])${k}(?![\\w(])`, 'g'), `(${v})`);
  let node: MathNode;
  try {
    node = parse(e);
  } catch (err) {
    throw new ControlError(`cannot read the transfer function ${expr.trim()}: ${(err as Error).message}`);
  }
  const names = new Set<string>();
  node.traverse((n) => {
    if ((n as { isSymbolNode?: boolean }).isSymbolNode) names.add((n as unknown as { name: string }).name);
    if ((n as { isFunctionNode?: boolean }).isFunctionNode) names.add('()');
  });
  if (names.has('()')) throw new ControlError(`cannot read the transfer function ${expr.trim()}: only numbers, s or z, + − * / ^ and parentheses are allowed`);
  const vars = [...names];
  if (vars.some((v) => v !== 's' && v !== 'z'))
    throw new ControlError(`cannot read the transfer function ${expr.trim()}: unknown name ${vars.filter((v) => v !== 's' && v !== 'z').join(', ')}`);
  if (vars.length > 1) throw new ControlError(`the transfer function ${expr.trim()} mixes s and z`);
  const variable = (vars[0] ?? expected ?? 's') as 's' | 'z';
  let num: number[], den: number[];
  try {
    if (!vars.length) {
      num = [Number(node.evaluate())];
      den = [1];
    } else {
      const r = rationalize(e, {}, true) as unknown as { numerator: MathNode; denominator: MathNode | null };
      num = coefficients(r.numerator, variable);
      den = r.denominator ? coefficients(r.denominator, variable) : [1];
    }
  } catch (err) {
    if (err instanceof ControlError) throw err;
    throw new ControlError(`cannot expand the transfer function ${expr.trim()}: ${(err as Error).message}`);
  }
  if (den.every((x) => x === 0)) throw new ControlError(`the transfer function ${expr.trim()} has a zero denominator`);
  return { num, den, variable };
}

export interface TfFound {
  name?: string;
  tf: TfValue;
  /** the expression as written */
  text: string;
  start: number;
  end: number;
}

const TF_CHARS = /[\d.\s+\-−*/^()²³⁴·×sz]/;

/** how far an expression that starts at `i` runs (balanced, only expression characters) */
function expressionEnd(text: string, i: number, names: Set<string> = new Set()): number {
  let depth = 0;
  let j = i;
  let last = i;
  while (j < text.length) {
    const c = text[j];
    if (c === '\n' || c === ';' || c === '?' || c === '!') break;
    if (c === '.' && text[j + 1] === '.') break;
    if (c === ',' && depth === 0) break;
    if (c === '.' && depth === 0 && (j + 1 >= text.length || /\s/.test(text[j + 1])) && !/\d/.test(text[j - 1] ?? '')) break;
    if (c === '.' && depth === 0 && (j + 1 >= text.length || /\s/.test(text[j + 1]))) break;
    if (/[A-Za-z_]/.test(c)) {
      // s or z alone is the variable; e followed by a digit/sign after a digit is an exponent
      const word = text.slice(j).match(/^[A-Za-z_]+/)![0];
      if ((word === 's' || word === 'z' || names.has(word)) && !/[A-Za-z_]/.test(text[j - 1] ?? '')) {
        j += word.length;
        last = j;
        continue;
      }
      if (/^e[-+]?\d/i.test(text.slice(j)) && /\d/.test(text[j - 1] ?? '')) {
        j++;
        continue;
      }
      break;
    }
    if (!TF_CHARS.test(c)) break;
    if (c === '(') depth++;
    if (c === ')') {
      if (depth === 0) break;
      depth--;
    }
    j++;
    if (!/\s/.test(c)) last = j;
  }
  // unbalanced: cut back to the last balanced point
  let e = last;
  while (e > i && /[+\-*/^(\s−·×]/.test(text[e - 1])) e--;
  const s = text.slice(i, e);
  const open = (s.match(/\(/g) ?? []).length;
  const close = (s.match(/\)/g) ?? []).length;
  return open === close ? e : i;
}

/**
 * Transfer-function expressions in a message: named (`G(s) = …`, `H = …` with s or z in it)
 * or bare in prose ("margins of 10/(s(s+1)(s+5))"). Errors (a delay, an unknown name) are
 * returned so the reader can say what it could not read.
 */
export function findTfExpressions(text: string, scalars: Record<string, number> = {}): { found: TfFound[]; errors: { text: string; message: string }[] } {
  const names = new Set(Object.keys(scalars));
  const found: TfFound[] = [];
  const errors: { text: string; message: string }[] = [];
  const taken: [number, number][] = [];
  const overlaps = (a: number, b: number) => taken.some(([x, y]) => a < y && b > x);
  // named: G(s) = ..., H(z)=..., L = ... (the latter only when the value has s or z in it)
  const named = /(?<![\w.])([A-Za-z][A-Za-z0-9_]*)\s*(?:\(\s*([sz])\s*\))?\s*=\s*/g;
  let m: RegExpExecArray | null;
  while ((m = named.exec(text))) {
    const start = m.index + m[0].length;
    const delay = /^(?:[\d.\s*]*)(?:e\s*\^|exp\s*\()/i.test(text.slice(start));
    // "z = e^{sTs}": the definition of z (the pole mapping), not a system with a delay
    if (delay && !m[2] && /^[sz]$/.test(m[1])) continue;
    let end = expressionEnd(text, start, names);
    if (delay) {
      const lineEnd = text.slice(start).search(/[\n;,]/);
      end = lineEnd < 0 ? text.length : start + lineEnd;
    }
    const expr = text.slice(start, end);
    if (!m[2] && !/(?<![A-Za-z_])[sz](?![A-Za-z_])/.test(expr) && !delay) continue;
    if (!expr.trim()) continue;
    // a plain matrix or number literal is not a transfer function
    if (!m[2] && /^\s*[\[{]/.test(expr)) continue;
    try {
      if (names.has(m[1]) && !m[2]) continue;
      const tf = parseTfExpression(expr, m[2] as 's' | 'z' | undefined, scalars);
      found.push({ name: m[1], tf, text: text.slice(m.index, end).trim(), start: m.index, end });
      taken.push([m.index, end]);
    } catch (e) {
      errors.push({ text: text.slice(m.index, end).trim(), message: (e as Error).message });
      taken.push([m.index, end]);
    }
  }
  // bare: a run with a fraction and a standalone s or z
  const bare = /(?<![A-Za-z_\d.\])])(?=[-(\d.sz])/g;
  while ((m = bare.exec(text))) {
    const start = m.index;
    bare.lastIndex = start + 1; // the pattern is zero-width: always move on
    if (overlaps(start, start + 1)) continue;
    const end = expressionEnd(text, start);
    if (end <= start) continue;
    const expr = text.slice(start, end);
    if (!/\//.test(expr) || !/(?<![A-Za-z_])[sz](?![A-Za-z_])/.test(expr) || overlaps(start, end)) continue;
    // inside a matrix literal or a call's argument list: not a transfer function
    const before = text.slice(0, start);
    if ((before.match(/\[/g) ?? []).length > (before.match(/\]/g) ?? []).length) continue;
    try {
      const tf = parseTfExpression(expr);
      found.push({ tf, text: expr.trim(), start, end });
    } catch (e) {
      errors.push({ text: expr.trim(), message: (e as Error).message });
    }
    taken.push([start, end]);
    bare.lastIndex = end;
  }
  found.sort((a, b) => a.start - b.start);
  return { found, errors };
}
