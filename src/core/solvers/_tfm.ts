/**
 * MIMO transfer functions and zero-pole-gain models as arguments (issue 13, "System objects"):
 * a p x m matrix of coefficient lists num/den (python-control's `ct.tf([[[1], [1, 1]]],
 * [[[1, 2], [1, 3]]])`, MATLAB's `tf({1, [1 1]}, {[1 2], [1 3]})`), and zeros, poles and gain
 * per channel (MATLAB `zpk(z, p, k)` with cells for MIMO). Reading with messages that name the
 * entry, the polynomials of a zpk channel, and the minimal realisation of a transfer matrix.
 * Imports only the kernel (the solvers' `_sys.ts` imports this for system arguments).
 */
import { ControlError } from '../errors.js';
import type { Complex, Matrix } from '../types.js';
import type { JsonSchema } from '../tools/types.js';
import { type Mat, toRows, zeros } from '../linalg/dense.js';
import { conv, polyFromRoots, polyPad, polyStrip } from '../linalg/poly.js';
import { minimalRealization } from '../linalg/staircase.js';

/** one channel's transfer function (leading zeros stripped, den not zero) */
export interface TfEntry {
  num: number[];
  den: number[];
}

/** a transfer matrix: p outputs (rows) x m inputs (columns) of num/den entries */
export interface TfMatrix {
  p: number;
  m: number;
  entries: TfEntry[][];
}

/** one channel as zeros, poles and gain: k·Π(s − zᵢ)/Π(s − pᵢ) */
export interface ZpkEntry {
  z: Complex[];
  p: Complex[];
  k: number;
}

export interface ZpkMatrix {
  p: number;
  m: number;
  entries: ZpkEntry[][];
}

/** most states (sum of the columns' denominator degrees) a transfer matrix may realise to */
export const TFM_MAX_N = 200;

// ------------------------------------------------------------------ schemas

/** num/den that take a SISO list or a p x m matrix of lists (call.ts coerces them like a vector: x-vector) */
export function tfCoeffs(which: 'num' | 'den'): JsonSchema {
  return {
    type: 'array',
    description:
      which === 'num'
        ? 'numerator coefficients, highest power first ([1, 2] for s + 2); MIMO: a p x m matrix of coefficient lists, e.g. [[[1], [1, 1]]] (python-control layout)'
        : 'denominator coefficients, highest power first; MIMO: a p x m matrix of coefficient lists, or one list shared by every entry',
    items: { anyOf: [{ type: 'number' }, { type: 'array', items: { type: 'array', items: { type: 'number' } } }] },
    'x-vector': true,
  };
}

const rootList: JsonSchema = { type: 'array', items: { anyOf: [{ type: 'number' }, { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 }] } };

/** z and p: a list of numbers or [re, im] pairs, or (MIMO) a p x m matrix of such lists */
export function zpkRoots(which: 'z' | 'p'): JsonSchema {
  return {
    type: 'array',
    description: `${which === 'z' ? 'zeros' : 'poles'}: a list of reals or [re, im] pairs (conjugate pairs in full); MIMO: a p x m matrix of such lists, e.g. [[[-1], []]]`,
    items: { anyOf: [{ type: 'number' }, { type: 'array', items: { anyOf: [{ type: 'number' }, rootList] } }] },
  };
}

export const zpkGain: JsonSchema = {
  type: ['number', 'array'],
  description: 'gain k: a number (SISO), or a p x m matrix of gains (MIMO)',
  items: { type: 'array', items: { type: 'number' } },
};

// ------------------------------------------------------------------ reading

const isNum = (x: unknown): x is number => typeof x === 'number';
const isNumList = (x: unknown): x is number[] => Array.isArray(x) && x.every(isNum);

/** true when v is a p x m matrix of coefficient lists (a list of rows whose entries are lists) */
export function isTfMatrixValue(v: unknown): boolean {
  return Array.isArray(v) && v.length > 0 && v.every((row) => Array.isArray(row) && row.length > 0 && row.every((e) => Array.isArray(e)));
}

const at = (i: number, j: number) => `(${i + 1},${j + 1})`;

/** a transfer matrix from num/den in python-control's layout; den may be one list shared by all entries */
export function readTfMatrix(num: unknown, den: unknown, tool: string): TfMatrix {
  const layout = 'a p x m matrix of coefficient lists (python-control layout: [[[1], [1, 1]]] is the 1x2 row [1, s + 1])';
  if (!isTfMatrixValue(num))
    throw new ControlError(
      `${tool}: num is ${Array.isArray(num) && num.some((x) => Array.isArray(x)) ? 'a list of lists' : 'not'} ${layout}; give num as ${layout}, or as one coefficient list for a SISO transfer function.`,
    );
  const N = num as unknown[][][];
  const p = N.length,
    m = N[0].length;
  N.forEach((row, i) => {
    if (row.length !== m)
      throw new ControlError(
        `${tool}: row ${i + 1} of num has ${row.length} entries but row 1 has ${m}; num must be ${p}x${m} (one entry per output and input).`,
      );
  });
  let D: unknown[][];
  if (isNumList(den)) D = N.map((row) => row.map(() => den));
  else if (isTfMatrixValue(den)) {
    D = den as unknown[][];
    if (D.length !== p || D.some((row) => row.length !== m))
      throw new ControlError(
        `${tool}: den is ${D.length}x${D[0]?.length ?? 0} but num is ${p}x${m}; give one denominator per entry, or one list shared by every entry.`,
      );
  } else throw new ControlError(`${tool}: den must be ${layout} matching num (${p}x${m}), or one coefficient list shared by every entry.`);
  const entries = N.map((row, i) =>
    row.map((e, j) => {
      const d = D[i][j];
      if (!isNumList(e) || !isNumList(d))
        throw new ControlError(`${tool}: entry ${at(i, j)} of ${isNumList(e) ? 'den' : 'num'} must be a list of coefficients (numbers).`);
      for (const [k, v] of [
        ['num', e],
        ['den', d],
      ] as const)
        v.forEach((x, l) => {
          if (!Number.isFinite(x)) throw new ControlError(`${tool}: ${k}${at(i, j)}[${l + 1}] is ${x}: coefficients must be finite numbers.`);
        });
      const nn = polyStrip(e.length ? e : [0]);
      const dd = polyStrip(d.length ? d : [0]);
      if (dd.length === 1 && dd[0] === 0) throw new ControlError(`${tool}: den${at(i, j)} is zero: entry ${at(i, j)} of the transfer matrix is undefined.`);
      return { num: nn, den: dd };
    }),
  );
  return { p, m, entries };
}

/** the entries of a transfer matrix must be proper to have a state-space realisation */
export function requireProper(T: TfMatrix, tool: string): void {
  T.entries.forEach((row, i) =>
    row.forEach((e, j) => {
      if (isZero(e.num)) return;
      if (e.num.length > e.den.length)
        throw new ControlError(
          `${tool}: entry ${at(i, j)} is improper (numerator degree ${e.num.length - 1} above denominator degree ${e.den.length - 1}); a state-space model needs deg num <= deg den in every entry.`,
        );
    }),
  );
}

const isZero = (p: number[]) => p.every((v) => v === 0);

/** a root written as a real number or an [re, im] pair */
function readRoot(x: unknown, what: string): Complex {
  if (isNum(x)) return [x, 0];
  if (isNumList(x) && x.length === 2) return [x[0], x[1]];
  throw new ControlError(`${what} must be a real number or an [re, im] pair, not ${JSON.stringify(x)}.`);
}

/**
 * Complex roots of a real polynomial come in conjugate pairs. Each root with a nonzero
 * imaginary part must have its conjugate in the list (to 1e-8 relative, printed digits), else
 * the polynomial has complex coefficients: refused, naming the missing conjugate.
 */
export function checkConjugates(roots: Complex[], what: string): void {
  const left = roots.filter(([, im]) => im !== 0);
  const used = new Array(left.length).fill(false);
  for (let a = 0; a < left.length; a++) {
    if (used[a]) continue;
    const [re, im] = left[a];
    const tol = 1e-8 * Math.max(1, Math.hypot(re, im));
    let b = -1;
    for (let c = 0; c < left.length; c++)
      if (c !== a && !used[c] && Math.abs(left[c][0] - re) <= tol && Math.abs(left[c][1] + im) <= tol) {
        b = c;
        break;
      }
    if (b < 0)
      throw new ControlError(
        `${what}: ${fmtRoot(left[a])} has no conjugate ${fmtRoot([re, -im])} in the list; a system with real coefficients has complex ${what.includes('zero') ? 'zeros' : 'poles'} in conjugate pairs. Add [${re}, ${-im}] (or remove ${fmtRoot(left[a])}).`,
      );
    used[a] = used[b] = true;
  }
}

const fmtRoot = ([re, im]: Complex) => `${re} ${im < 0 ? '−' : '+'} ${Math.abs(im)}j`;

function readRootList(v: unknown, what: string): Complex[] {
  if (!Array.isArray(v)) throw new ControlError(`${what} must be a list of numbers or [re, im] pairs.`);
  // a bare pair of numbers [a, b] is two real roots (MATLAB [-1 -2]); complex roots are [[re, im], ...]
  const list = v.map((x, i) => readRoot(x, `${what}[${i + 1}]`));
  checkConjugates(list, what);
  return list;
}

/** true when the lists of z/p are a p x m matrix (a list of rows of lists) */
const isRootMatrix = (v: unknown) =>
  Array.isArray(v) &&
  v.length > 0 &&
  v.every((row) => Array.isArray(row) && row.length > 0 && row.every((e) => Array.isArray(e) && e.every((x) => isNum(x) || isNumList(x))));

/**
 * zeros, poles, gain: SISO (k a number, z and p lists of reals or [re, im] pairs) or MIMO
 * (k a p x m matrix, z and p p x m matrices of such lists, as MATLAB's cells). A list of
 * pairs [[−1, 2], [−1, −2]] is one SISO list of complex roots; MIMO is told by k's shape.
 */
export function readZpk(zIn: unknown, pIn: unknown, kIn: unknown, tool: string): ZpkMatrix {
  // a list written as a one-column matrix ([[-2], [-3]], or [[-2]]) is that list; a one-row
  // [[a, b]] stays one complex root [re, im] (the reader flattens its one-row literals itself)
  const asList = (v: unknown) => (Array.isArray(v) && v.length && v.every((r) => isNumList(r) && r.length === 1) ? v.map((r) => (r as number[])[0]) : v);
  const gridGiven = isRootMatrix(zIn) || isRootMatrix(pIn);
  // a 1x1 gain matrix [[5]] beside plain lists is the SISO gain 5
  const k = !gridGiven && Array.isArray(kIn) && kIn.length === 1 && isNumList(kIn[0]) && kIn[0].length === 1 ? kIn[0][0] : kIn;
  const z = isNum(k) ? asList(zIn) : zIn,
    p = isNum(k) ? asList(pIn) : pIn;
  const kIsMatrix = Array.isArray(k) && k.every((r) => Array.isArray(r));
  const kk = Array.isArray(k) && !kIsMatrix && k.length === 1 && isNum(k[0]) ? k[0] : k;
  if (isNum(kk)) {
    if (!Number.isFinite(kk)) throw new ControlError(`${tool}: the gain k is ${kk}; it must be a finite number.`);
    const zz = readRootList(z ?? [], `${tool}: zeros z`);
    const pp = readRootList(p ?? [], `${tool}: poles p`);
    return { p: 1, m: 1, entries: [[{ z: zz, p: pp, k: kk }]] };
  }
  if (!kIsMatrix) throw new ControlError(`${tool}: the gain k must be a number (SISO) or a p x m matrix of gains (MIMO), not ${JSON.stringify(k)}.`);
  const K = k as unknown[][];
  const ny = K.length,
    nu = K[0]?.length ?? 0;
  if (!ny || !nu || K.some((r) => r.length !== nu || !r.every(isNum)))
    throw new ControlError(`${tool}: the gain matrix k must be p x m with one number per channel (rows of equal length).`);
  const grid = (v: unknown, name: 'z' | 'p'): unknown[][] => {
    if (v === undefined || v === null) return K.map((r) => r.map(() => []));
    // a 1x1 model written with a flat list
    if (ny === 1 && nu === 1 && Array.isArray(v) && !isRootMatrix(v)) return [[v]];
    if (!isRootMatrix(v) || (v as unknown[][]).length !== ny || (v as unknown[][]).some((r) => r.length !== nu))
      throw new ControlError(
        `${tool}: k is ${ny}x${nu}, so ${name} must be a ${ny}x${nu} matrix of lists of ${name === 'z' ? 'zeros' : 'poles'} (MATLAB {z11, z12; ...}); ${name}(i,j) lists channel (i,j)'s, [] for none.`,
      );
    return v as unknown[][];
  };
  const Z = grid(z, 'z'),
    P = grid(p, 'p');
  const entries = K.map((row, i) =>
    row.map((kv, j) => ({
      z: readRootList(Z[i][j], `${tool}: zeros z${at(i, j)}`),
      p: readRootList(P[i][j], `${tool}: poles p${at(i, j)}`),
      k: kv as number,
    })),
  );
  return { p: ny, m: nu, entries };
}

// ------------------------------------------------------------------ conversions

/** num = k·Π(s − zᵢ), den = Π(s − pᵢ) (real: conjugate pairs checked on reading); k = 0 is the zero channel */
export function zpkEntryToTf(e: ZpkEntry): TfEntry {
  const den = polyFromRoots(e.p);
  if (e.k === 0) return { num: [0], den };
  return { num: polyFromRoots(e.z).map((v) => v * e.k), den };
}

export function zpkToTfMatrix(Z: ZpkMatrix): TfMatrix {
  return { p: Z.p, m: Z.m, entries: Z.entries.map((row) => row.map(zpkEntryToTf)) };
}

/** den monic, num padded to den's length (a proper entry) */
function monicEntry(e: TfEntry): TfEntry {
  const a = e.den[0];
  return { num: polyPad(isZero(e.num) ? [0] : e.num.map((v) => v / a), e.den.length), den: e.den.map((v) => v / a) };
}

const samePoly = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

export interface TfmRealization {
  A: Matrix;
  B: Matrix;
  C: Matrix;
  D: Matrix;
  /** states of the column-wise realisation before the reduction */
  order_full: number;
  /** poles the reduction removed (unobservable or uncontrollable modes of the column-wise realisation), sorted */
  removed: Complex[];
}

/**
 * A minimal realisation of a proper transfer matrix. Column j is realised over the product
 * of its distinct denominators d_j (entries with the same monic denominator share it; no
 * polynomial lcm, whose root matching would need a tolerance) as a single-input
 * controllable-canonical block (A_j the companion of d_j, B_j = e1, row i of C_j the
 * numerator of G_ij·d_j less its feedthrough), the blocks stacked block-diagonally; the result
 * is then reduced by the kernel's minimal realisation (the one staircase, controllable then
 * observable part). When nothing is removed, the column-wise form is returned as built (it is
 * minimal and easier to read than the staircase's coordinates).
 */
export function realiseTfMatrix(T: TfMatrix, tool: string): TfmRealization {
  requireProper(T, tool);
  const { p, m } = T;
  const cols: { A: Mat; C: Mat; D: number[] }[] = [];
  let n = 0;
  for (let j = 0; j < m; j++) {
    const col = T.entries.map((row) => monicEntry(row[j]));
    const distinct: number[][] = [];
    for (const e of col) if (!isZero(e.num) && e.den.length > 1 && !distinct.some((d) => samePoly(d, e.den))) distinct.push(e.den);
    const dj = distinct.reduce((acc, d) => conv(acc, d), [1]);
    const k = dj.length - 1;
    n += k;
    if (n > TFM_MAX_N)
      throw new ControlError(
        `${tool}: the transfer matrix realises to more than ${TFM_MAX_N} states (the columns' denominators), above the size limit.`,
        'limit',
      );
    const A = zeros(k, k);
    for (let c = 0; c < k; c++) A.d[c] = -dj[c + 1];
    for (let r = 1; r < k; r++) A.d[r * k + r - 1] = 1;
    const C = zeros(p, k);
    const D = new Array(p).fill(0);
    col.forEach((e, i) => {
      if (isZero(e.num)) return;
      // G_ij = N/d with d one of the distinct factors: N·(d_j/d) over d_j
      const others = distinct.filter((d) => !samePoly(d, e.den)).reduce((acc, d) => conv(acc, d), [1]);
      const Nj = polyPad(conv(e.num, others), k + 1);
      D[i] = Nj[0];
      for (let c = 0; c < k; c++) C.d[i * k + c] = Nj[c + 1] - Nj[0] * dj[c + 1];
    });
    cols.push({ A, C, D });
  }
  const A = zeros(n, n),
    B = zeros(n, m),
    C = zeros(p, n),
    Dm = zeros(p, m);
  let o = 0;
  cols.forEach((c, j) => {
    const k = c.A.r;
    for (let r = 0; r < k; r++) for (let s = 0; s < k; s++) A.d[(o + r) * n + o + s] = c.A.d[r * k + s];
    if (k) B.d[o * m + j] = 1;
    for (let i = 0; i < p; i++) {
      for (let s = 0; s < k; s++) C.d[i * n + o + s] = c.C.d[i * k + s];
      Dm.d[i * m + j] = c.D[i];
    }
    o += k;
  });
  const full = { A, B, C, D: Dm };
  const red = minimalRealization(full);
  const removed = [...red.uncontrollable, ...red.unobservable].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out = removed.length ? red.sys : full;
  const rows = (M: Mat, r: number, c: number): Matrix => (r === 0 ? [] : c === 0 ? Array.from({ length: r }, () => []) : toRows(M));
  const nr = out.A.r;
  return { A: rows(out.A, nr, nr), B: rows(out.B, nr, m), C: rows(out.C, p, nr), D: toRows(out.D), order_full: n, removed };
}
