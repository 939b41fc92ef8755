/**
 * Reproducing code for MIMO transfer functions and zero-pole-gain models: MATLAB's cell
 * forms tf({…}, {…}) and zpk({…}, {…}, K), python-control's nested lists ct.tf([[…]], [[…]])
 * and ct.zpk (SISO; a MIMO zpk is written through np.poly, as python-control's zpk takes one
 * channel). The tools' code facets (xferfcn.ts, zpk.ts) and the system arguments
 * (interconnect.ts sysCode) write their systems with these.
 */
import type { Complex } from '../types.js';
import { verdictHolder, type Code } from './code.js';
import { complexNum, num, type CodeLanguage } from './literals.js';

const isNum = (x: unknown): x is number => typeof x === 'number';

/** one coefficient list: 1 or [1 1] (MATLAB), [1, 1] (Python) */
function coeffs(v: number[], lang: CodeLanguage): string {
  if (lang === 'matlab') return v.length === 1 ? num(v[0], lang) : `[${v.map((x) => num(x, lang)).join(' ')}]`;
  return `[${v.map((x) => num(x, lang)).join(', ')}]`;
}

/** a p x m grid of lists: MATLAB cell {a, b; c, d}, Python nested list [[a, b], [c, d]] */
function grid<T>(G: T[][], cell: (x: T) => string, lang: CodeLanguage): string {
  if (lang === 'matlab') return `{${G.map((row) => row.map(cell).join(', ')).join('; ')}}`;
  return `[${G.map((row) => `[${row.map(cell).join(', ')}]`).join(', ')}]`;
}

/** den as given: one shared list or a p x m matrix */
const denGrid = (numM: number[][][], den: unknown): number[][][] =>
  Array.isArray(den) && den.every(isNum) ? numM.map((r) => r.map(() => den as number[])) : (den as number[][][]);

/** tf({…}, {…}[, Ts]) or ct.tf([[…]], [[…]][, Ts]) of a p x m num/den */
export function tfMatrixExpr(numM: number[][][], den: unknown, lang: CodeLanguage, Ts = 0): string {
  const ts = Ts > 0 ? `, ${num(Ts, lang)}` : '';
  const d = denGrid(numM, den);
  const c = (x: number[]) => coeffs(x, lang);
  return `${lang === 'matlab' ? 'tf' : 'ct.tf'}(${grid(numM, c, lang)}, ${grid(d, c, lang)}${ts})`;
}

/** a list of roots (reals or [re, im] pairs) */
function roots(v: unknown, lang: CodeLanguage): string {
  const list = ((v ?? []) as (number | Complex)[]).map((x) => (isNum(x) ? ([x, 0] as Complex) : x));
  const items = list.map((z) => complexNum(z, lang));
  return lang === 'matlab' ? `[${items.join(' ')}]` : `[${items.join(', ')}]`;
}

/** zpk(z, p, k[, Ts]): SISO or MIMO (cells), as written in MATLAB / python-control */
export function zpkExpr(z: unknown, p: unknown, k: unknown, lang: CodeLanguage, Ts = 0): string {
  const ts = Ts > 0 ? `, ${num(Ts, lang)}` : '';
  const K = Array.isArray(k) && k.every((r) => Array.isArray(r)) ? (k as number[][]) : undefined;
  if (!K) {
    const kk = Array.isArray(k) ? (k[0] as number) : (k as number);
    return `${lang === 'matlab' ? 'zpk' : 'ct.zpk'}(${roots(z, lang)}, ${roots(p, lang)}, ${num(kk, lang)}${ts})`;
  }
  const cells = (v: unknown) =>
    v === undefined || v === null ? K.map((r) => r.map(() => [])) : K.length === 1 && K[0].length === 1 && !isGrid(v) ? [[v]] : (v as unknown[][]);
  if (lang === 'matlab') {
    const Km = `[${K.map((r) => r.map((x) => num(x, lang)).join(' ')).join('; ')}]`;
    return `zpk(${grid(cells(z), (x) => roots(x, lang), lang)}, ${grid(cells(p), (x) => roots(x, lang), lang)}, ${Km}${ts})`;
  }
  // python-control's zpk makes one channel: the MIMO model through its polynomials
  const Z = cells(z),
    P = cells(p);
  const numG = K.map((r, i) => r.map((kk, j) => `np.atleast_1d(${num(kk, lang)} * np.poly(${roots(Z[i][j], lang)})).real.tolist()`));
  const denG = K.map((r, i) => r.map((_, j) => `np.atleast_1d(np.poly(${roots(P[i][j], lang)})).real.tolist()`));
  return `ct.tf(${grid(numG, (x) => x, lang)}, ${grid(denG, (x) => x, lang)}${ts})`;
}

const isGrid = (v: unknown) =>
  Array.isArray(v) && v.length > 0 && v.every((r) => Array.isArray(r) && r.every((e) => Array.isArray(e) && e.every((x) => isNum(x) || Array.isArray(x))));

export function tf2ssMimoCode(code: Code, a: Record<string, any>, r: Record<string, any> | undefined): void {
  const M = code.lang === 'matlab';
  code.assign('G', tfMatrixExpr(a.num, a.den, code.lang));
  if (M) code.assign('sys', 'minreal(ss(G))').line('[A, B, C, D] = ssdata(sys);');
  else
    code
      .comment('ct.ss of a MIMO transfer function needs slycot (pip install slycot)')
      .assign('sys', 'ct.minreal(ct.ss(G), verbose=False)')
      .line('A, B, C, D = sys.A, sys.B, sys.C, sys.D');
  code.comment('realisations are unique only up to a change of state coordinates; compare the order and the transfer functions');
  if (r) code.comment(verdictHolder).expect('order', r.order).expect('A', r.A).expect('B', r.B).expect('C', r.C).expect('D', r.D);
}

export function ss2tfMimoCode(code: Code, _a: Record<string, any>, r: Record<string, any> | undefined, writeSystem: (code: Code) => void): void {
  const M = code.lang === 'matlab';
  writeSystem(code);
  if (M) code.assign('G', 'minreal(tf(sys))').comment('each entry with its common factors cancelled').line('cp = poly(A)');
  else
    code
      .comment('ct.tf of a MIMO state-space model needs slycot (pip install slycot)')
      .assign('G', 'ct.minreal(ct.tf(sys), verbose=False)')
      .line('cp = np.poly(A)');
  if (r) code.comment(verdictHolder).expect('charpoly', r.charpoly).comment('  G: see the chat answer for the entries');
}

export function zpkCode(code: Code, a: Record<string, any>, r: Record<string, any> | undefined, writeSystem: (code: Code) => void): void {
  const M = code.lang === 'matlab';
  const ss = !Array.isArray(a.num);
  writeSystem(code);
  if (M) {
    // a state-space channel from its own minimal realisation: minreal cancels each channel's hidden modes
    code.assign('Gz', ss ? 'minreal(zpk(sys))' : 'zpk(sys)').line('[z, p, k] = zpkdata(Gz)');
  } else {
    code.line('for i in range(sys.noutputs):').line('    for j in range(sys.ninputs):');
    code.line(ss ? "        g = ct.minreal(ct.tf(sys[i, j]), verbose=False)   # the channel's own minimal form" : '        g = ct.tf(sys[i, j])');
    code.line('        print(i + 1, j + 1, g.zeros(), g.poles(), g.num[0][0][0] / g.den[0][0][0])   # zeros, poles, gain');
  }
  if (r) code.comment(verdictHolder).expect('k', r.k).comment('  z, p: see the chat answer');
}

export function zpk2Code(code: Code, a: Record<string, any>, r: Record<string, any> | undefined, to: 'tf' | 'ss'): void {
  const M = code.lang === 'matlab';
  const Ts = typeof a.Ts === 'number' && a.Ts > 0 ? a.Ts : 0;
  code.assign('G', zpkExpr(a.z, a.p, a.k, code.lang, Ts));
  if (to === 'tf') {
    code.assign('G', M ? 'tf(G)' : 'ct.tf(G)');
    if (M) code.line('[num, den] = tfdata(G)');
    if (r && Array.isArray(r.num) && r.num.every(isNum)) code.comment(verdictHolder).expect('num', r.num).expect('den', r.den);
    else if (r) code.comment(verdictHolder).comment('  num, den: see the chat answer for the entries');
  } else {
    if (M) code.assign('sys', 'minreal(ss(G))').line('[A, B, C, D] = ssdata(sys);');
    else code.assign('sys', 'ct.minreal(ct.ss(G), verbose=False)').line('A, B, C, D = sys.A, sys.B, sys.C, sys.D');
    code.comment('realisations are unique only up to a change of state coordinates; compare the transfer functions');
    if (r) code.comment(verdictHolder).expect('A', r.A).expect('B', r.B).expect('C', r.C).expect('D', r.D);
  }
}
