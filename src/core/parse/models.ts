/**
 * State-space models in a source file (MATLAB/Octave .m, Python, a notebook cell): each
 * square `A = <matrix>` with a `B` nearby, and a `C` (then a `D`) when there is one. A family
 * shares a suffix: A/B/C/D, A1/B1, A_c/B_c, Ad/Bd/Cd/Dd. The editor puts its code lenses
 * ("Analyse", "Plot step") and its code-lens command on what this finds.
 *
 * Commented-out code is not a model: an assignment that starts after a line comment (`%` or
 * `#` outside a string) or inside a MATLAB block comment (`%{` ... `%}`, each alone on its
 * line) is left out, also as a B, C or D of a live A.
 */
import { findAssignments, type Assignment } from './assignments.js';

/** how many lines from A its B, C, D may stand */
const NEARBY_LINES = 40;

export interface ModelFamily {
  a: Assignment;
  members: Assignment[]; // A, B and the C, D found, in that order
  suffix: string;
}

function suffixOf(name: string, letter: string): string | undefined {
  return name.startsWith(letter) ? name.slice(letter.length) : undefined;
}

/** where a line comment starts in `line` (its length when there is none) */
function commentStart(line: string): number {
  let quote: string | undefined;
  let prev = ''; // last non-space character outside strings
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === '\\' && quote === '"')
        i++; // Python escape; MATLAB doubles the quote instead, which toggles twice
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '%' || c === '#') return i;
    if (c === '"') quote = c;
    // a quote after a value is MATLAB's transpose, elsewhere it opens a string
    else if (c === "'" && !/[\w)\]}.']/.test(prev)) quote = c;
    if (c !== ' ' && c !== '\t') prev = c;
  }
  return line.length;
}

/** for each line: the column where its code ends (a line comment or a block comment starts) */
function codeEnds(text: string): number[] {
  let depth = 0; // MATLAB block comments nest
  return text.split('\n').map((raw) => {
    const line = raw.replace(/\r$/, '');
    const t = line.trim();
    if (t === '%{') {
      depth++;
      return 0;
    }
    if (depth > 0) {
      if (t === '%}') depth--;
      return 0;
    }
    return commentStart(line);
  });
}

/** groups the matrix assignments of a text into state-space models */
export function findModels(text: string): ModelFamily[] {
  const ends = codeEnds(text);
  const live = (a: Assignment) => a.range.start.character < (ends[a.range.start.line] ?? Infinity);
  const all = findAssignments(text).filter((a) => a.value && !a.error && live(a));
  const out: ModelFamily[] = [];
  for (const a of all) {
    const suffix = suffixOf(a.name, 'A');
    if (suffix === undefined || !/^(_?[A-Za-z0-9]*)$/.test(suffix)) continue;
    if (a.value!.length === 0 || a.value!.length !== a.value![0].length) continue; // A must be square
    const near = (letter: string) => {
      const cands = all.filter((b) => b.name === letter + suffix && Math.abs(b.range.start.line - a.range.start.line) <= NEARBY_LINES);
      // the closest one; of two as close, the one written first
      cands.sort((x, y) => Math.abs(x.range.start.line - a.range.start.line) - Math.abs(y.range.start.line - a.range.start.line));
      return cands[0];
    };
    const b = near('B');
    if (!b) continue;
    const members = [a, b];
    const c = near('C');
    if (c) {
      members.push(c);
      const d = near('D');
      if (d) members.push(d);
    }
    out.push({ a, members, suffix });
  }
  return out;
}
