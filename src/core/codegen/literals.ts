/**
 * Numbers, vectors and matrices written as MATLAB and NumPy literals at full precision:
 * `String(x)` is JavaScript's shortest round-trip form, so a literal read back (by MATLAB,
 * NumPy or our own parser) gives the same double.
 */
import type { Complex, Matrix } from '../types.js';

export type CodeLanguage = 'matlab' | 'python';

/** one double, exactly; non-finite as each language spells it */
export function num(x: number, lang: CodeLanguage): string {
  if (Number.isNaN(x)) return lang === 'matlab' ? 'NaN' : 'np.nan';
  if (x === Infinity) return lang === 'matlab' ? 'Inf' : 'np.inf';
  if (x === -Infinity) return lang === 'matlab' ? '-Inf' : '-np.inf';
  if (Object.is(x, -0)) return '0';
  return String(x);
}

/** a complex number [re, im]: -1+2i (MATLAB), (-1+2j) (Python) */
export function complexNum([re, im]: Complex, lang: CodeLanguage): string {
  if (im === 0) return num(re, lang);
  const unit = lang === 'matlab' ? 'i' : 'j';
  const body = `${re === 0 ? '' : num(re, lang)}${im < 0 ? '-' : re === 0 ? '' : '+'}${num(Math.abs(im), lang)}${unit}`;
  return lang === 'python' ? `(${body})` : body;
}

/** rows on one line when small, one row per line otherwise */
const oneLine = (M: Matrix) => M.length <= 4 && (M[0]?.length ?? 0) <= 6;

/** a matrix literal: [0 1; -2 -3] or np.array([[0, 1], [-2, -3]], dtype=float) */
export function matrix(M: Matrix, lang: CodeLanguage, indent = 4): string {
  if (lang === 'matlab') {
    if (!M.length) return '[]';
    const rows = M.map((r) => r.map((x) => num(x, lang)).join(' '));
    return oneLine(M) ? `[${rows.join('; ')}]` : `[${rows.join(';\n' + ' '.repeat(indent + 1))}]`;
  }
  if (!M.length) return 'np.zeros((0, 0))';
  const rows = M.map((r) => `[${r.map((x) => num(x, lang)).join(', ')}]`);
  const pad = ' '.repeat(indent + 10);
  return oneLine(M) ? `np.array([${rows.join(', ')}], dtype=float)` : `np.array([${rows.join(',\n' + pad)}], dtype=float)`;
}

/** a real row vector: [1 2 3] or np.array([1, 2, 3], dtype=float) */
export function vector(v: readonly number[], lang: CodeLanguage): string {
  const parts = v.map((x) => num(x, lang));
  const wrap = (sep: string) => {
    // long vectors break every 8 entries so the line stays readable
    const lines: string[] = [];
    for (let i = 0; i < parts.length; i += 8) lines.push(parts.slice(i, i + 8).join(sep));
    return lines.join(lang === 'matlab' ? ' ...\n    ' : ',\n    ');
  };
  return lang === 'matlab' ? `[${wrap(' ')}]` : `np.array([${wrap(', ')}], dtype=float)`;
}

/** a list of complex numbers: [-1+2i, -1-2i] or [(-1+2j), (-1-2j)] */
export function complexList(zs: readonly Complex[], lang: CodeLanguage): string {
  return `[${zs.map((z) => complexNum(z, lang)).join(', ')}]`;
}

/**
 * A grid written as the call that makes it when it is one (linspace/logspace to 1e-9
 * relative), else as a literal. Returns the expression.
 */
export function grid(v: readonly number[], lang: CodeLanguage): string {
  const n = v.length;
  const lib = lang === 'matlab' ? '' : 'np.';
  if (n >= 3) {
    const a = v[0],
      b = v[n - 1];
    const tol = 1e-9 * Math.max(Math.abs(a), Math.abs(b), 1e-300);
    if (v.every((x, i) => Math.abs(x - (a + ((b - a) * i) / (n - 1))) <= tol)) return `${lib}linspace(${num(a, lang)}, ${num(b, lang)}, ${n})`;
    if (a > 0 && b > 0) {
      const la = Math.log10(a),
        lb = Math.log10(b);
      if (v.every((x, i) => x > 0 && Math.abs(Math.log10(x) - (la + ((lb - la) * i) / (n - 1))) <= 1e-9 * Math.max(1, Math.abs(la), Math.abs(lb))))
        return `${lib}logspace(${num(la, lang)}, ${num(lb, lang)}, ${n})`;
    }
  }
  return vector(v, lang);
}
