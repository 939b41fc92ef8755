/**
 * Function-call syntax in a message: MATLAB/Octave (`K = lqr(A,B,Q,R)`, `[K,S,e] = lqr(sys,Q,R);`,
 * `c2d(sys,0.1,'tustin')`), python-control (`ct.lqr(A, B, Q, R)`, `control.c2d(sys, 0.1,
 * method='tustin')`, `sys.sample(0.1)`) and SciPy (`scipy.linalg.solve_continuous_are(a, b, q, r)`).
 *
 * Hand-written: a call is a name, a balanced argument list split at top-level commas, and an
 * optional left-hand side; the argument values themselves are read by the matrix-literal
 * parser (restricted mathjs), the transfer-function parser or the number-list reader. A
 * grammar generator would add a build step for these ~100 lines and still need those readers.
 */

export interface CallArg {
  /** keyword (python `method='tustin'`), absent for a positional argument */
  name?: string;
  text: string;
}

export interface CallFound {
  /** the name as written: `ct.lqr`, `scipy.linalg.solve_continuous_are`, `sys.sample` */
  raw: string;
  /** the last segment, lower case: `lqr` */
  fn: string;
  /** `sys` in `sys.sample(0.1)` (a prefix that is not a module name) */
  receiver?: string;
  args: CallArg[];
  /** names on the left of `=`: `K` in `K = lqr(...)`, `K, S, E` in `K, S, E = ct.lqr(...)` */
  outputs: string[];
  start: number;
  end: number;
  text: string;
}

/** module prefixes that are not objects: ct.lqr, control.matlab.lqr, scipy.linalg.*, np.linalg.* */
const MODULES = new Set(['ct', 'control', 'ctrl', 'matlab', 'cm', 'scipy', 'linalg', 'la', 'sla', 'signal', 'sig', 'np', 'numpy', 'sp', 'sc', 'sg']);

/** where the bracket that opens at `open` closes (strings and nested brackets respected), or -1 */
export function closingBracket(text: string, open: number): number {
  const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
  const stack: string[] = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || (c === "'" && !/[\w)\].']/.test(text[i - 1] ?? ''))) {
      const close = text.indexOf(c, i + 1);
      if (close < 0) return -1;
      i = close;
      continue;
    }
    if (pairs[c]) stack.push(pairs[c]);
    else if (c === ')' || c === ']' || c === '}') {
      if (stack.pop() !== c) return -1;
      if (!stack.length) return i;
    }
  }
  return -1;
}

/** splits an argument list at top-level commas */
export function splitArgs(inner: string): CallArg[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '"' || (c === "'" && !/[\w)\].']/.test(inner[i - 1] ?? ''))) {
      const close = inner.indexOf(c, i + 1);
      if (close >= 0) {
        cur += inner.slice(i, close + 1);
        i = close;
        continue;
      }
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    if (c === ')' || c === ']' || c === '}') depth--;
    if (c === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  if (cur.trim() || parts.length) parts.push(cur);
  return parts
    .map((p) => p.trim())
    .filter((p, k, all) => p || k < all.length - 1)
    .map((p) => {
      const kw = p.match(/^([A-Za-z_]\w*)\s*=(?!=)\s*([\s\S]*)$/);
      return kw ? { name: kw[1], text: kw[2].trim() } : { text: p };
    });
}

/** every call `name(...)` in the text, outer calls before the calls nested in them */
export function findCalls(text: string): CallFound[] {
  const out: CallFound[] = [];
  const re = /(?<![\w.])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\s*\(/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const open = m.index + m[0].length - 1;
    const close = closingBracket(text, open);
    if (close < 0) continue;
    const raw = m[1];
    const segs = raw.split('.');
    const fn = segs[segs.length - 1].toLowerCase();
    let receiver: string | undefined;
    if (segs.length > 1) {
      const prefix = segs.slice(0, -1);
      if (!prefix.every((s) => MODULES.has(s.toLowerCase()))) receiver = prefix.join('.');
    }
    // the left-hand side of this statement: `K = `, `[K,S,e] = `, `K, S, E = `
    const lineStart = Math.max(text.lastIndexOf('\n', m.index - 1), text.lastIndexOf(';', m.index - 1)) + 1;
    const before = text.slice(lineStart, m.index);
    let outputs: string[] = [];
    const lhs = before.match(/(?:^|[\s>:])\[?\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_~]\w*)*)\s*\]?\s*=\s*$/);
    if (lhs) outputs = lhs[1].split(',').map((s) => s.trim());
    // "tf2ss (2s+1)/(s^2+4s+3)": a parenthesis followed by an operator is part of an expression
    if (/\s/.test(text.slice(m.index + m[1].length, open)) && /^\s*[/*^]/.test(text.slice(close + 1))) continue;
    out.push({
      raw,
      fn,
      receiver,
      args: splitArgs(text.slice(open + 1, close)),
      outputs,
      start: m.index,
      end: close + 1,
      text: text.slice(m.index, close + 1),
    });
  }
  return out;
}
