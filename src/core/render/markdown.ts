/**
 * Markdown building blocks for answers. Two styles, chosen by the front end:
 * - `math: true`: `$$...$$` with `bmatrix` for matrices (VS Code chat with
 *   `chat.math.enabled`, KaTeX), a Markdown table for large matrices;
 * - `math: false`: aligned plain-text matrices in code blocks, which read well in a chat
 *   without math rendering and in a terminal; a Markdown table for large ones.
 */
import type { Complex, Matrix } from '../types.js';
import { fmt, fmtComplex, latexNum } from './format.js';

export interface RenderOptions {
  math: boolean;
  digits?: number;
}

/** matrices up to this size are shown inline (bmatrix or aligned text); larger as a table */
const INLINE_MAX_ROWS = 8;
const INLINE_MAX_COLS = 8;
/**
 * Tables up to this size are shown whole; a larger matrix shows its leading block and says
 * so. A chat answer is read, not parsed: 40,000 numbers of a 200x200 Riccati solution are
 * 1.1 MB of Markdown that VS Code's chat took 40 s to accept (blocking the extension host),
 * and no one reads them there; the whole matrix is in the reproducing code and `--json`.
 */
export const TABLE_MAX = 20;
const SHOWN = 6;

export function latexName(name: string): string {
  // A_cl -> A_{\mathrm{cl}}, Qn -> Q_n
  const m = /^([A-Za-z])_?([A-Za-z0-9]+)$/.exec(name);
  if (!m || name.length === 1) return name;
  return m[2].length === 1 ? `${m[1]}_${m[2]}` : `${m[1]}_{\\mathrm{${m[2]}}}`;
}

function table(M: Matrix, digits?: number): string {
  const cols = M[0]?.length ?? 0;
  const head = `| | ${Array.from({ length: cols }, (_, j) => `${j + 1}`).join(' | ')} |`;
  const sep = `|---|${'---:|'.repeat(cols)}`;
  const rows = M.map((r, i) => `| **${i + 1}** | ${r.map((v) => fmt(v, digits)).join(' | ')} |`);
  return [head, sep, ...rows].join('\n');
}

/** plain-text matrix, columns aligned, MATLAB-like */
export function textMatrix(M: Matrix, digits?: number): string {
  const cells = M.map((r) => r.map((v) => fmt(v, digits)));
  const cols = cells[0]?.length ?? 0;
  const w = Array.from({ length: cols }, (_, j) => Math.max(...cells.map((r) => r[j].length)));
  return cells.map((r) => r.map((c, j) => c.padStart(w[j])).join('  ')).join('\n');
}

export function latexMatrix(M: Matrix, digits?: number): string {
  return `\\begin{bmatrix} ${M.map((r) => r.map((v) => latexNum(v, digits)).join(' & ')).join(' \\\\ ')} \\end{bmatrix}`;
}

/** a named matrix as a Markdown block: "K = ..." */
export function matrixBlock(name: string, M: Matrix, o: RenderOptions): string {
  const rows = M.length;
  const cols = M[0]?.length ?? 0;
  // an empty matrix (a model with no states has A 0x0, B 0xm, C px0): a dash, in either style
  if (rows === 0 || cols === 0)
    return o.math ? `$$\n${latexName(name)} = [\\;]\\quad \\text{— empty (${rows}×${cols})}\n$$` : `\`${name} = [ ]\` — empty (${rows}×${cols})`;
  if (rows > TABLE_MAX || cols > TABLE_MAX) {
    const r = Math.min(rows, SHOWN);
    const c = Math.min(cols, SHOWN);
    const block = M.slice(0, r).map((row) => row.slice(0, c));
    let big = 0;
    for (const row of M) for (const v of row) big = Math.max(big, Math.abs(v));
    return [
      `**${name}** (${rows}x${cols}; rows 1–${r} and columns 1–${c} shown, largest |entry| ${fmt(big, o.digits)}):`,
      '',
      table(block, o.digits),
      '',
      `_The whole ${rows}x${cols} matrix is in the reproducing code (Insert MATLAB/Python code) and in \`control solve … --json\`._`,
    ].join('\n');
  }
  if (rows > INLINE_MAX_ROWS || cols > INLINE_MAX_COLS) return `**${name}** (${rows}x${cols}):\n\n${table(M, o.digits)}`;
  if (o.math) return `$$\n${latexName(name)} = ${latexMatrix(M, o.digits)}\n$$`;
  const body = textMatrix(M, o.digits);
  if (rows === 1 && cols <= 8) return `\`${name} = [ ${body} ]\``;
  return `${name} =\n\n\`\`\`text\n${body}\n\`\`\``;
}

export function complexListText(list: Complex[], digits?: number): string {
  return list.map((z) => fmtComplex(z, digits)).join(', ');
}

/** a small aligned table of facts: | label | value | */
export function factsTable(rows: [string, string][]): string {
  return ['| property | result |', '|---|---|', ...rows.map(([a, b]) => `| ${a} | ${b} |`)].join('\n');
}
