/**
 * Finds assignments of matrix literals in a document (MATLAB .m, Python, Markdown, plain
 * text) or a chat message: `A = [0 1; -2 -3];`, `A = np.array([[0, 1],\n [-2, -3]])`,
 * "design an LQR for A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1".
 *
 * Rules:
 * - An assignment is `name = value` where name is an identifier (dotted names such as
 *   `self.A` are kept whole) and `=` is not part of `==`, `<=`, `+=`, ... .
 * - The value runs to the end of the line, a `;` (which the range includes), or, at bracket
 *   depth 0, a `,`, a comment (`%`, `#`), a Markdown delimiter (backtick, `|`, `$`), a
 *   sentence end (`.` followed by a space or the end), or a word after a complete value
 *   ("B=[0;1] and ..."). Inside brackets and parentheses it may span lines; `...` and `\`
 *   continue a line.
 * - Only literals count: a value whose names are all matrix constructors or constants
 *   (eye, zeros, np.array, pi, dtype=..., see literal.ts) and which starts like a value.
 *   `x = foo(3)`, `y = a*b`, strings, ranges (`1:10`) and the like are skipped. A literal
 *   that fails to parse is returned with `error` (positions in document coordinates).
 */
import { isControlError } from '../errors.js';
import type { Matrix } from '../types.js';
import { isLiteralName, parseMatrixAt } from './literal.js';

export interface Position {
  line: number;
  character: number;
}

export interface Assignment {
  name: string;
  value?: Matrix;
  error?: string;
  /** covers `name = value` and a trailing `;` (0-based, VS Code style) */
  range: { start: Position; end: Position };
  /** the value as written (without the trailing `;`) */
  valueText: string;
}

const ASSIGN = /(?<![\w.@'"\]\)])([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)[ \t]*=(?!=)/g;

const isOperandEnd = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_)\]'.]/.test(c);
const isOperandStart = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_([."]/.test(c);

interface Extent {
  end: number;
  /** where a trailing `;` ends, if there is one */
  semiEnd?: number;
  /** the value cannot be a literal (a range, a string, ...) */
  skip?: boolean;
}

/** where the value that starts at `start` ends */
function valueExtent(text: string, start: number): Extent {
  const n = text.length;
  let depth = 0;
  let i = start;
  let lastSig: string | undefined; // last non-space character at depth 0
  let firstLineEnd = text.indexOf('\n', start);
  if (firstLineEnd < 0) firstLineEnd = n;
  const skipLine = (from: number) => {
    const nl = text.indexOf('\n', from);
    return nl < 0 ? n : nl + 1;
  };
  while (i < n) {
    const c = text[i];
    if (text.startsWith('...', i)) {
      i = skipLine(i);
      continue;
    }
    if (c === '\\' && /^\\[ \t\r]*(\n|$)/.test(text.slice(i, i + 40))) {
      i = skipLine(i);
      continue;
    }
    if (depth > 0) {
      if (c === '\n') {
        // a blank line inside brackets: the bracket is not closed, keep the first line
        const rest = text.slice(i + 1, skipLine(i + 1));
        if (!rest.trim()) return { end: trimEnd(text, start, firstLineEnd) };
        i++;
        continue;
      }
      if (c === '%' || c === '#') {
        const nl = text.indexOf('\n', i);
        i = nl < 0 ? n : nl;
        continue;
      }
      if (c === '"' || (c === "'" && !isOperandEnd(text[i - 1]))) {
        const close = text.indexOf(c, i + 1);
        const nl = text.indexOf('\n', i + 1);
        if (close < 0 || (nl >= 0 && close > nl)) return { end: trimEnd(text, start, firstLineEnd) };
        i = close + 1;
        continue;
      }
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') depth--;
      if (depth === 0) lastSig = c;
      i++;
      continue;
    }
    // depth 0
    if (c === '\n' || c === '\r') break;
    if (c === ';') {
      return { end: trimEnd(text, start, i), semiEnd: i + 1 };
    }
    if (c === ',' || c === '%' || c === '#' || c === '`' || c === '|' || c === '$' || c === '=') break;
    if (c === ':') return { end: i, skip: true };
    // a dash as punctuation ends the value: "R=10 - where do the poles go", "Q = eye(2) — and R?"
    // (an en or em dash is never an operator; a hyphen only when words follow it, not "2 - t")
    if (c === '—' || c === '–') break;
    if (c === '-' && /\s/.test(text[i - 1] ?? '') && /^-\s+[A-Za-z]{3,}\s+[A-Za-z]/.test(text.slice(i, i + 40))) break;
    if (c === '.' && (i + 1 >= n || /\s/.test(text[i + 1]))) break;
    if (c === '"' || (c === "'" && !(isOperandEnd(text[i - 1]) && i > start))) {
      if (i === start) return { end: i, skip: true };
      break;
    }
    if (c === ' ' || c === '\t') {
      let j = i;
      while (j < n && (text[j] === ' ' || text[j] === '\t')) j++;
      if (isOperandEnd(lastSig) && isOperandStart(text[j]) && !text.startsWith('...', j)) break;
      i = j;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') break;
    lastSig = c;
    i++;
  }
  if (depth > 0) return { end: trimEnd(text, start, Math.min(i, firstLineEnd)) };
  return { end: trimEnd(text, start, i) };
}

function trimEnd(text: string, start: number, end: number): number {
  while (end > start && /\s/.test(text[end - 1])) end--;
  return end;
}

/** true when the value is written only with numbers and the names a literal may use */
function looksLikeLiteral(v: string): boolean {
  if (!v.trim()) return false;
  if (!/^[\s\w.\[\]()+\-*/^'@,;=%#"\\]*$/.test(v)) return false;
  if (!/^\s*([\[(+\-.\d]|[A-Za-z_])/.test(v)) return false;
  // strings only as dtype values
  const noDtype = v.replace(/\bdtype\s*=\s*(['"][^'"\n]*['"]|[A-Za-z_][\w.]*)/g, '');
  const noComments = noDtype.replace(/[%#][^\n]*/g, '');
  if (/"/.test(noComments)) return false;
  if (/(^|[\s(\[,;=*+\-/^])'/.test(noComments)) return false; // a quote that opens a string
  if (/=/.test(noComments)) return false;
  // numbers (a complex one such as 2i is kept: the parser explains that it is not supported)
  const words = noComments.match(/(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[ij]?(?!\w)|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*/g) ?? [];
  let sawValue = false;
  for (const w of words) {
    if (/^[\d.]/.test(w)) {
      sawValue = true;
      continue;
    }
    if (w === 'T' || isLiteralName(w)) {
      sawValue = true;
      continue;
    }
    return false;
  }
  return sawValue || /\[\s*\]/.test(noComments);
}

class Lines {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    for (let i = 0; i < text.length; i++) if (text[i] === '\n') this.starts.push(i + 1);
  }
  pos(offset: number): Position {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - this.starts[lo] };
  }
}

/** every matrix-literal assignment in `text`, in order */
export function findAssignments(text: string): Assignment[] {
  const out: Assignment[] = [];
  const lines = new Lines(text);
  ASSIGN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ASSIGN.exec(text))) {
    const nameStart = m.index;
    let vStart = m.index + m[0].length;
    while (vStart < text.length && (text[vStart] === ' ' || text[vStart] === '\t')) vStart++;
    const ext = valueExtent(text, vStart);
    const valueText = text.slice(vStart, ext.end);
    if (ext.skip || !looksLikeLiteral(valueText)) continue;
    const end = ext.semiEnd ?? ext.end;
    const a: Assignment = {
      name: m[1],
      range: { start: lines.pos(nameStart), end: lines.pos(end) },
      valueText,
    };
    try {
      a.value = parseMatrixAt(valueText, lines.pos(vStart));
    } catch (e) {
      a.error = isControlError(e) ? e.message : `cannot read this matrix: ${(e as Error).message ?? String(e)}`;
    }
    out.push(a);
    ASSIGN.lastIndex = Math.max(end, ASSIGN.lastIndex);
  }
  return out;
}
