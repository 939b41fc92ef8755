/**
 * Transfer matrices and zero-pole-gain models in answers: a MIMO transfer function as a LaTeX
 * matrix of fractions (math) or one line per entry (plain), and factored zpk forms as MATLAB
 * prints them (a complex pair as its real quadratic, repeated factors with a power).
 */
import type { Complex, Matrix } from '../types.js';
import { fmt, fmtEigenvalues, latexNum } from './format.js';
import { matrixBlock, type RenderOptions } from './markdown.js';
import { polyText } from './results.js';

type R = Record<string, any>;

const variable = (args: R) => (typeof args.Ts === 'number' && args.Ts > 0 ? 'z' : 's');

/** one entry as a fraction: LaTeX \frac or (num) / (den) */
function fraction(num: number[], den: number[], v: string, o: RenderOptions, latex: boolean): string {
  const n = polyText(num, v, o.digits, latex);
  if (den.length === 1 && den[0] === 1) return n;
  const d = polyText(den, v, o.digits, latex);
  if (latex) return `\\frac{${n}}{${d}}`;
  return `${num.filter((c) => c !== 0).length > 1 ? `(${n})` : n} / ${den.filter((c) => c !== 0).length > 1 ? `(${d})` : d}`;
}

/** a matrix of entries, each already written: LaTeX bmatrix or one line per entry */
function entryMatrix(name: string, cells: string[][], o: RenderOptions, cellsPlain: string[][]): string {
  if (o.math) return `$$\n${name} = \\begin{bmatrix} ${cells.map((r) => r.join(' & ')).join(' \\\\ ')} \\end{bmatrix}\n$$`;
  const lines = cellsPlain.flatMap((r, i) => r.map((c, j) => `${name.replace(/\(.*\)$/, '')}(${i + 1},${j + 1}) = ${c}`));
  return `\`\`\`text\n${lines.join('\n')}\n\`\`\``;
}

/** num/den p x m matrices as G(s) */
export function tfMatrixBlock(name: string, num: number[][][], den: number[][][], v: string, o: RenderOptions): string {
  return entryMatrix(
    `${name}(${v})`,
    num.map((row, i) => row.map((n, j) => fraction(n, den[i][j], v, o, true))),
    o,
    num.map((row, i) => row.map((n, j) => fraction(n, den[i][j], v, o, false))),
  );
}

export function renderTf2ssMimo(_args: R, r: R, o: RenderOptions): string {
  const p = r.D.length,
    m = r.D[0].length;
  const n = r.order as number;
  const full = r.order_full as number;
  const removed = (r.removed ?? []) as Complex[];
  const how =
    full === n
      ? `built column by column (each input's column realised in controllable canonical form over its common denominator, the ${m} blocks stacked); that realisation is already minimal`
      : `built column by column (each input's column in controllable canonical form over its common denominator: ${full} states), then reduced to ${n} by the controllability/observability staircase (removed ${removed.length === 1 ? 'the pole' : 'the poles'} ${fmtEigenvalues(removed, o.digits).join(', ')})`;
  return [
    `**A minimal state-space realisation** of the ${p}x${m} transfer matrix:`,
    tfMatrixBlock('G', r.num, r.den, 's', o),
    `**Order ${n}** (${n === 0 ? 'no states: a static gain y = Du' : `the McMillan degree: no realisation has fewer states`}); ${how}. MATLAB's ss(G) and python-control's ct.ss(G) may return more states; minreal(ss(G)) compares.`,
    ...['A', 'B', 'C', 'D'].filter((k) => (r[k] as Matrix).length && (r[k] as Matrix)[0].length).map((k) => matrixBlock(k, r[k], o)),
  ].join('\n\n');
}

export function renderSs2tfMimo(args: R, r: R, o: RenderOptions): string {
  const v = variable(args);
  return [
    `**Transfer matrix** (${r.outputs} outputs x ${r.inputs} inputs), each entry from its own channel's minimal realisation (common factors cancelled, as MATLAB's tf(sys) per entry):`,
    tfMatrixBlock('G', r.num, r.den, v, o),
    `**Characteristic polynomial** det(${v}I − A) = ${o.math ? `$${polyText(r.charpoly, v, o.digits, true)}$` : polyText(r.charpoly, v, o.digits)}; over it, the numerators are num_charpoly (MATLAB's ss2tf(A, B, C, D, iu), SciPy's ss2tf per input).`,
  ].join('\n\n');
}

// ------------------------------------------------------------------ zpk

const same = (a: Complex, b: Complex) => a[0] === b[0] && Math.abs(a[1]) === Math.abs(b[1]);

/** the factors of Π(v − rᵢ): real roots (v + a), 0 as v, a conjugate pair as (v² + bv + c); repeats as powers */
export function factorParts(roots: Complex[], v: string, o: RenderOptions, latex: boolean): string[] {
  const groups: { root: Complex; count: number }[] = [];
  for (const z of roots) {
    if (z[1] < 0) continue; // its conjugate writes the pair
    const g = groups.find((x) => same(x.root, z));
    if (g) g.count++;
    else groups.push({ root: z, count: 1 });
  }
  return groups.map(({ root: [re, im], count }) => {
    const poly = im !== 0 ? [1, -2 * re, re * re + im * im] : [1, -re];
    const f = poly.length === 2 && re === 0 ? v : `(${polyText(poly, v, o.digits, latex)})`;
    return count > 1 ? (latex ? `${f}^{${count}}` : `${f}^${count}`) : f;
  });
}

/** k·Π(v − z)/Π(v − p) as text, as MATLAB prints zpk: 5 (s + 1) / ((s + 2)(s + 3)) */
export function zpkText(z: Complex[], p: Complex[], k: number, v: string, o: RenderOptions, latex: boolean): string {
  if (k === 0) return '0';
  const zf = factorParts(z, v, o, latex),
    pf = factorParts(p, v, o, latex);
  const kt = latex ? latexNum(k, o.digits) : fmt(k, o.digits);
  const unwrap = (f: string[]) => (f.length === 1 && /^\([^()]*\)$/.test(f[0]) ? f[0].slice(1, -1) : f.join(latex ? ' ' : ''));
  const zt = zf.join(latex ? ' ' : '');
  const top = !zf.length ? kt : k === 1 ? (pf.length && latex ? unwrap(zf) : zt) : k === -1 ? `-${zt}` : `${kt} ${zt}`;
  if (!pf.length) return top;
  if (latex) return `\\frac{${top}}{${unwrap(pf)}}`;
  const den = pf.length === 1 ? pf[0] : `(${pf.join('')})`;
  return `${top} / ${den}`;
}

/** a zpk result (SISO z, p, k or MIMO matrices) as G(v) */
export function zpkBlock(r: R, v: string, o: RenderOptions): string {
  const mimo = Array.isArray(r.k);
  const Z = (mimo ? r.z : [[r.z]]) as Complex[][][],
    P = (mimo ? r.p : [[r.p]]) as Complex[][][],
    K = (mimo ? r.k : [[r.k]]) as number[][];
  if (!mimo) {
    const e = o.math
      ? `$$\nG(${v}) = ${zpkText(Z[0][0], P[0][0], K[0][0], v, o, true)}\n$$`
      : `\`G(${v}) = ${zpkText(Z[0][0], P[0][0], K[0][0], v, o, false)}\``;
    return e;
  }
  return entryMatrix(
    `G(${v})`,
    K.map((row, i) => row.map((k, j) => zpkText(Z[i][j], P[i][j], k, v, o, true))),
    o,
    K.map((row, i) => row.map((k, j) => zpkText(Z[i][j], P[i][j], k, v, o, false))),
  );
}

/** zeros, poles and gain listed per channel */
export function zpkLists(r: R, o: RenderOptions): string {
  const list = (zs: Complex[]) => (zs.length ? fmtEigenvalues(zs, o.digits).join(', ') : 'none');
  if (!Array.isArray(r.k)) return `**Zeros:** ${list(r.z)}\n\n**Poles:** ${list(r.p)}\n\n**Gain:** ${fmt(r.k, o.digits)}`;
  const rows = (r.k as number[][]).flatMap((row, i) =>
    row.map((k, j) => `| (${i + 1},${j + 1}) | ${list(r.z[i][j])} | ${list(r.p[i][j])} | ${fmt(k, o.digits)} |`),
  );
  return ['| channel (output, input) | zeros | poles | gain |', '|---|---|---|---|', ...rows].join('\n');
}
