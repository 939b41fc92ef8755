/**
 * TypeScript port of the oracle checker (/work/shared/oracle/check.py): scores candidate
 * results against reference answers with the same metrics and the same pass/fail rules, so
 * that the project tests without python or ../shared. See test/fixtures/oracle and the
 * oracle README, "Comparison rules".
 *
 * This is the independent judge: its linear algebra is ml-matrix (LU solve, inverse, SVD,
 * eigenvalues), deliberately not our own kernel. Complex solves use the real embedding
 * [Re -Im; Im Re]. Python quirks that decide a verdict are kept: the built-in max/min keep
 * their first argument when a NaN is compared, numpy's max propagates NaN, `%` takes the
 * sign of the divisor, a missing field is a KeyError ("missing field"), and a shape or
 * singularity problem is "malformed".
 *
 *   node --import tsx test/oracle/check.ts problems.jsonl expected.jsonl results.jsonl [--tool NAME] [--verbose]
 *
 * prints a per-tool table and, as the last line, "N passed, M failed".
 */
import { readFileSync } from 'node:fs';
import { EigenvalueDecomposition, LuDecomposition, Matrix as MlMatrix, SingularValueDecomposition } from 'ml-matrix';

export const DEFAULT_RTOL = 1e-6;
const FLOOR = 1e-9;
const REL_FLOOR = 1e-9;
const RES_TOL = 1e-10;
const RES_PATH_MAX = 100;
const FPEAK_RTOL = 1e-4;
const TF_FLOOR = 1e-3;

export interface CheckResult {
  ok: boolean;
  err: number;
  note: string;
}

/** Python's KeyError: a field is missing (reported as "missing field") */
class KeyError extends Error {}
/** Python's ValueError/TypeError/IndexError/LinAlgError (reported as "malformed") */
class Malformed extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}
const malformed = (kind: string, msg: string) => new Malformed(kind, msg);

// ---------------------------------------------------------------- python semantics
/** Python's built-in max: keeps the current value unless an item compares greater (NaN never does) */
function pyMax(...xs: number[]): number {
  let m = xs[0];
  for (let i = 1; i < xs.length; i++) if (xs[i] > m) m = xs[i];
  return m;
}
function pyMin(...xs: number[]): number {
  let m = xs[0];
  for (let i = 1; i < xs.length; i++) if (xs[i] < m) m = xs[i];
  return m;
}
/** numpy's max: NaN propagates; empty raises */
function npMax(xs: ArrayLike<number>): number {
  if (xs.length === 0) throw malformed('ValueError', 'zero-size array to reduction operation maximum which has no identity');
  let m = -Infinity;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    if (Number.isNaN(x)) return NaN;
    if (x > m) m = x;
  }
  return m;
}
/** Python's int(round(x)): half to even; NaN and Inf cannot be converted */
function pyRound(x: number): number {
  if (!Number.isFinite(x)) throw malformed('ValueError', `cannot convert float ${x} to integer`);
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}
/** numpy/Python float modulo: the result has the sign of the divisor */
function pyMod(a: number, b: number): number {
  const r = a % b;
  return r !== 0 && r < 0 !== b < 0 ? r + b : r;
}
/** Python's format(x, '.Ne') */
export function pyExp(x: number, digits: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  const s = x.toExponential(digits);
  const [mant, exp] = s.split('e');
  const e = Number(exp);
  return `${mant}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

// ---------------------------------------------------------------- arrays
/** a float ndarray of 1 or 2 dimensions, row-major */
class Arr {
  constructor(
    readonly shape: number[],
    readonly data: number[],
  ) {}
  get size(): number {
    return this.data.length;
  }
  get rows(): number {
    return this.shape[0];
  }
  get cols(): number {
    return this.shape.length > 1 ? this.shape[1] : 1;
  }
  at(i: number, j: number): number {
    return this.data[i * this.shape[1] + j];
  }
  static zeros(r: number, c: number): Arr {
    return new Arr([r, c], new Array<number>(r * c).fill(0));
  }
  static eye(n: number): Arr {
    const a = Arr.zeros(n, n);
    for (let i = 0; i < n; i++) a.data[i * n + i] = 1;
    return a;
  }
}
const sameShape = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

const NONFINITE: Record<string, number> = {
  Infinity: Infinity,
  '-Infinity': -Infinity,
  NaN: NaN,
  inf: Infinity,
  '-inf': -Infinity,
  nan: NaN,
};

export function fnum(x: unknown): number {
  if (typeof x === 'string') {
    if (!(x in NONFINITE)) throw new KeyError(`'${x}'`);
    return NONFINITE[x];
  }
  if (x === null || x === undefined) return NaN;
  if (typeof x === 'number') return x;
  if (typeof x === 'boolean') return x ? 1 : 0;
  throw malformed('TypeError', `float() argument must be a string or a real number, not '${Array.isArray(x) ? 'list' : typeof x}'`);
}

function isList(x: unknown): x is unknown[] {
  return Array.isArray(x);
}

function arr(x: unknown): Arr {
  if (x === null || x === undefined) throw new KeyError("'missing'");
  if (typeof x === 'number' || typeof x === 'string' || typeof x === 'boolean') return new Arr([1, 1], [fnum(x)]);
  if (!isList(x)) throw malformed('TypeError', 'not a list');
  if (x.length === 0) return new Arr([0, 0], []);
  if (isList(x[0])) {
    const rows = x.map((row) => {
      if (!isList(row)) throw malformed('ValueError', 'inhomogeneous shape');
      return row.map(fnum);
    });
    const c = rows[0].length;
    if (rows.some((r) => r.length !== c)) throw malformed('ValueError', 'inhomogeneous shape');
    return new Arr([rows.length, c], rows.flat());
  }
  return new Arr([x.length], x.map(fnum));
}

function mat(x: unknown): Arr {
  const a = arr(x);
  return a.shape.length === 1 ? new Arr([1, a.shape[0]], a.data) : a;
}

type C = [number, number];

function cvec(x: unknown): C[] {
  if (x === null || x === undefined) throw new KeyError("'missing'");
  if (!isList(x)) throw malformed('TypeError', 'not iterable');
  return x.map((v): C => {
    if (isList(v)) {
      if (v.length < 2) throw malformed('IndexError', 'list index out of range');
      return [fnum(v[0]), fnum(v[1])];
    }
    return [fnum(v), 0];
  });
}

function get(d: Record<string, unknown>, k: string): unknown {
  if (!(k in d)) throw new KeyError(`'${k}'`);
  return d[k];
}
const pyLen = (x: unknown): number => {
  if (isList(x)) return x.length;
  if (typeof x === 'string') return x.length;
  if (x && typeof x === 'object') return Object.keys(x).length;
  throw malformed('TypeError', `object of type '${x === null ? 'NoneType' : typeof x}' has no len()`);
};

function ssFrom(d: Record<string, unknown>, m?: number, p?: number): [Arr, Arr, Arr, Arr] {
  const A = pyLen(get(d, 'A')) ? mat(d.A) : Arr.zeros(0, 0);
  const n = A.rows;
  const B = pyLen(get(d, 'B')) ? mat(d.B) : Arr.zeros(n, m || 1);
  const C = pyLen(get(d, 'C')) ? mat(d.C) : Arr.zeros(p || 1, n);
  const D = 'D' in d && d.D !== null && d.D !== undefined && pyLen(d.D) ? mat(d.D) : Arr.zeros(C.rows, B.cols);
  return [A, B, C, D];
}

// ---------------------------------------------------------------- real dense algebra
function mm(a: Arr, b: Arr): Arr {
  if (a.cols !== b.rows || a.shape.length !== 2 || b.shape.length !== 2) throw malformed('ValueError', `matmul: ${a.shape} and ${b.shape} do not match`);
  const r = a.rows;
  const c = b.cols;
  const k = a.cols;
  const out = Arr.zeros(r, c);
  for (let i = 0; i < r; i++)
    for (let l = 0; l < k; l++) {
      const x = a.data[i * k + l];
      if (x === 0) continue;
      for (let j = 0; j < c; j++) out.data[i * c + j] += x * b.data[l * c + j];
    }
  // numpy multiplies 0 * Inf into NaN; skipping zeros would hide it, so redo non-finite cases plainly
  if (a.data.some((x) => !Number.isFinite(x)) || b.data.some((x) => !Number.isFinite(x))) {
    for (let i = 0; i < r; i++)
      for (let j = 0; j < c; j++) {
        let s = 0;
        for (let l = 0; l < k; l++) s += a.data[i * k + l] * b.data[l * c + j];
        out.data[i * c + j] = s;
      }
  }
  return out;
}
function tr(a: Arr): Arr {
  if (a.shape.length === 1) return a;
  const r = a.rows;
  const c = a.cols;
  const out = Arr.zeros(c, r);
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) out.data[j * r + i] = a.data[i * c + j];
  return out;
}
/** element-wise a + s*b with numpy broadcasting of 2-D shapes */
function axpy(a: Arr, b: Arr, s: number): Arr {
  const r = bdim(a.rows, b.rows);
  const c = bdim(a.cols, b.cols);
  const out = Arr.zeros(r, c);
  for (let i = 0; i < r; i++)
    for (let j = 0; j < c; j++) out.data[i * c + j] = a.at(a.rows === 1 ? 0 : i, a.cols === 1 ? 0 : j) + s * b.at(b.rows === 1 ? 0 : i, b.cols === 1 ? 0 : j);
  return out;
}
function bdim(x: number, y: number): number {
  if (x === y) return x;
  if (x === 1) return y;
  if (y === 1) return x;
  throw malformed('ValueError', `operands could not be broadcast together (${x} and ${y})`);
}
const add = (...xs: Arr[]) => xs.reduce((s, x) => axpy(s, x, 1));
const sub = (a: Arr, b: Arr) => axpy(a, b, -1);
function norm(a: Arr): number {
  let s = 0;
  let big = 0;
  for (const x of a.data) big = Math.max(big, Math.abs(x));
  if (!Number.isFinite(big)) return big === Infinity ? Infinity : NaN;
  if (big === 0) return a.data.some((x) => Number.isNaN(x)) ? NaN : 0;
  for (const x of a.data) s += (x / big) * (x / big);
  return big * Math.sqrt(s);
}
const allFinite = (a: Arr) => a.data.every(Number.isFinite);
const toMl = (a: Arr) => new MlMatrix(Array.from({ length: a.rows }, (_, i) => a.data.slice(i * a.cols, (i + 1) * a.cols)));
const fromMl = (m: MlMatrix) => new Arr([m.rows, m.columns], m.to1DArray());

/** np.linalg.solve: square, non-singular (exact zero pivot), else LinAlgError */
function solve(a: Arr, b: Arr): Arr {
  if (a.shape.length !== 2 || a.rows !== a.cols) throw malformed('LinAlgError', 'Last 2 dimensions of the array must be square');
  if (b.rows !== a.rows) throw malformed('ValueError', 'solve: shapes do not match');
  if (a.rows === 0) return Arr.zeros(0, b.cols);
  const lu = new LuDecomposition(toMl(a));
  if (lu.isSingular()) throw malformed('LinAlgError', 'Singular matrix');
  return fromMl(lu.solve(toMl(b)));
}
function inv(a: Arr): Arr {
  return solve(a, Arr.eye(a.rows));
}
function eigvals(a: Arr): C[] {
  if (a.shape.length !== 2 || a.rows !== a.cols) throw malformed('LinAlgError', 'Last 2 dimensions of the array must be square');
  if (!allFinite(a)) throw malformed('LinAlgError', 'Array must not contain infs or NaNs');
  if (a.rows === 0) return [];
  const e = new EigenvalueDecomposition(toMl(a));
  return e.realEigenvalues.map((re, i): C => [re, e.imaginaryEigenvalues[i]]);
}

// ---------------------------------------------------------------- complex helpers
const cabs = (z: C) => Math.hypot(z[0], z[1]);
const csub = (a: C, b: C): C => [a[0] - b[0], a[1] - b[1]];
const cmul = (a: C, b: C): C => [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];
function cdiv(a: C, b: C): C {
  // numpy's (Smith's) complex division
  const [ar, ai] = a;
  const [br, bi] = b;
  if (Math.abs(br) >= Math.abs(bi)) {
    if (br === 0 && bi === 0) return [ar / 0, ai / 0];
    const rat = bi / br;
    const scl = 1 / (br + bi * rat);
    return [(ar + ai * rat) * scl, (ai - ar * rat) * scl];
  }
  const rat = br / bi;
  const scl = 1 / (bi + br * rat);
  return [(ar * rat + ai) * scl, (ai * rat - ar) * scl];
}
const cfinite = (z: C) => Number.isFinite(z[0]) && Number.isFinite(z[1]);

/** C (sI - A)^-1 B + D for complex s: a p x m complex matrix as [re, im] */
function freqEval(A: Arr, B: Arr, Cm: Arr, D: Arr, s: C): [Arr, Arr] {
  const n = A.rows;
  if (n === 0) return [D, Arr.zeros(D.rows, D.cols)];
  if (A.cols !== n) throw malformed('LinAlgError', 'Last 2 dimensions of the array must be square');
  // [sr I - A, -si I; si I, sr I - A] [xr; xi] = [B; 0]
  const M = Arr.zeros(2 * n, 2 * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const re = (i === j ? s[0] : 0) - A.at(i, j);
      const im = i === j ? s[1] : 0;
      M.data[i * 2 * n + j] = re;
      M.data[(i + n) * 2 * n + j + n] = re;
      M.data[i * 2 * n + j + n] = -im;
      M.data[(i + n) * 2 * n + j] = im;
    }
  if (B.rows !== n) throw malformed('ValueError', 'solve: shapes do not match');
  const rhs = Arr.zeros(2 * n, B.cols);
  for (let i = 0; i < n; i++) for (let j = 0; j < B.cols; j++) rhs.data[i * B.cols + j] = B.at(i, j);
  const X = solve(M, rhs);
  const Xr = new Arr([n, B.cols], X.data.slice(0, n * B.cols));
  const Xi = new Arr([n, B.cols], X.data.slice(n * B.cols));
  const Hr = add(mm(Cm, Xr), D);
  const Hi = add(mm(Cm, Xi), Arr.zeros(D.rows, D.cols));
  return [Hr, Hi];
}
/** flattens a complex matrix into a complex list */
const cflat = ([re, im]: [Arr, Arr]): C[] => re.data.map((x, i): C => [x, im.data[i]]);

function sigmaMax([re, im]: [Arr, Arr]): number {
  // singular values of H are those of [Re -Im; Im Re], each twice
  const r = re.rows;
  const c = re.cols;
  const M = Arr.zeros(2 * r, 2 * c);
  for (let i = 0; i < r; i++)
    for (let j = 0; j < c; j++) {
      M.data[i * 2 * c + j] = re.at(i, j);
      M.data[(i + r) * 2 * c + j + c] = re.at(i, j);
      M.data[i * 2 * c + j + c] = -im.at(i, j);
      M.data[(i + r) * 2 * c + j] = im.at(i, j);
    }
  if (!allFinite(M)) throw malformed('LinAlgError', 'SVD did not converge');
  if (M.size === 0) throw malformed('IndexError', 'index 0 is out of bounds');
  const svd = new SingularValueDecomposition(toMl(M), { computeLeftSingularVectors: false, computeRightSingularVectors: false });
  return Math.max(...svd.diagonal);
}

// ---------------------------------------------------------------- metrics
function relArr(c: Arr, e: Arr, floor = FLOOR, anySignInf = false): number {
  if (!sameShape(c.shape, e.shape)) {
    if (c.size === 0 && e.size === 0) return 0;
    if (c.size === e.size && c.shape.length + e.shape.length < 4) c = new Arr(e.shape, c.data);
    else return Infinity;
  }
  let anyFinite = false;
  for (let i = 0; i < e.size; i++) {
    const fe = Number.isFinite(e.data[i]);
    if (fe !== Number.isFinite(c.data[i])) return Infinity;
    if (fe) {
      anyFinite = true;
      continue;
    }
    const a = c.data[i];
    const b = e.data[i];
    if (Number.isNaN(b)) {
      if (!Number.isNaN(a)) return Infinity;
    } else if (Number.isNaN(a)) return Infinity;
    else if (!anySignInf && a !== b) return Infinity;
  }
  if (!anyFinite) return 0;
  const dc: number[] = [];
  const de: number[] = [];
  for (let i = 0; i < e.size; i++)
    if (Number.isFinite(e.data[i])) {
      dc.push(c.data[i] - e.data[i]);
      de.push(e.data[i]);
    }
  return norm(new Arr([dc.length], dc)) / pyMax(norm(new Arr([de.length], de)), floor);
}

function relScalar(c: unknown, e: unknown, floor = FLOOR, anySignInf = false): number {
  return relArr(new Arr([1], [fnum(c)]), new Arr([1], [fnum(e)]), floor, anySignInf);
}

/** minimum-cost perfect matching of a square cost matrix (Hungarian / Kuhn-Munkres, O(n^3)) */
export function hungarian(cost: number[][]): number[] {
  const n = cost.length;
  const u = new Array<number>(n + 1).fill(0);
  const v = new Array<number>(n + 1).fill(0);
  const p = new Array<number>(n + 1).fill(0); // p[j]: row matched to column j (1-based)
  const way = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    const minv = new Array<number>(n + 1).fill(Infinity);
    const used = new Array<boolean>(n + 1).fill(false);
    do {
      used[j0] = true;
      const i0 = p[j0];
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= n; j++) {
        if (used[j]) continue;
        const cur = cost[i0 - 1][j - 1] - u[i0] - v[j];
        if (cur < minv[j]) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      for (let j = 0; j <= n; j++) {
        if (used[j]) {
          u[p[j]] += delta;
          v[j] -= delta;
        } else minv[j] -= delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0);
  }
  const rowToCol = new Array<number>(n).fill(-1);
  for (let j = 1; j <= n; j++) if (p[j] > 0) rowToCol[p[j] - 1] = j - 1;
  return rowToCol;
}

function eigset(c: C[], e: C[], floor = FLOOR, scale?: number): number {
  if (c.length !== e.length) return Infinity;
  if (e.length === 0) return 0;
  if (!c.every(cfinite) || !e.every(cfinite)) return Infinity;
  const cost = c.map((x) => e.map((y) => cabs(csub(x, y))));
  const match = hungarian(cost);
  let worst = -Infinity;
  match.forEach((j, i) => {
    worst = Math.max(worst, cost[i][j]);
  });
  const sc = scale ?? npMax(e.map(cabs));
  return worst / pyMax(sc, floor);
}

/** np.roots: companion-matrix eigenvalues, with trailing zeros as roots at 0 */
function roots(p: number[]): C[] {
  let a = 0;
  while (a < p.length && p[a] === 0) a++;
  let b = p.length;
  while (b > a && p[b - 1] === 0) b--;
  const q = p.slice(a, b);
  const zeros = p.length - b;
  const out: C[] = [];
  const n = q.length - 1;
  if (n >= 1) {
    const M = Arr.zeros(n, n);
    for (let j = 0; j < n; j++) M.data[j] = -q[j + 1] / q[0];
    for (let i = 1; i < n; i++) M.data[i * n + i - 1] = 1;
    out.push(...eigvals(M));
  }
  for (let i = 0; i < zeros; i++) out.push([0, 0]);
  return out;
}

/** a polynomial as check.py's strip() sees it (1-D; a column is read as 1-D) */
function poly1d(p: Arr): number[] {
  if (p.shape.length === 2 && p.cols !== 1) throw malformed('ValueError', `polyval: a ${p.rows}x${p.cols} coefficient array does not broadcast`);
  return p.data;
}
function strip(p: number[]): number[] {
  const k = p.findIndex((x) => x !== 0);
  return k < 0 ? [0] : p.slice(k);
}
function polyval(p: number[], z: C): C {
  let y: C = [0, 0];
  for (const c of p) {
    const yz = cmul(y, z);
    y = [yz[0] + c, yz[1]];
  }
  return y;
}
function tfSamples(num: number[], den: number[], pts: C[]): C[] {
  const n = strip(num);
  const d = strip(den);
  return pts.map((z) => cdiv(polyval(n, z), polyval(d, z)));
}
function samplePoints(denE: number[], k = 24): C[] {
  const r = [1];
  const d = strip(denE);
  if (d.length > 1) r.push(npMax(roots(d).map(cabs)));
  const rad = 1.5 * pyMax(...r);
  return Array.from({ length: k }, (_, i): C => {
    const th = (Math.PI * (i + 0.5)) / k;
    return [rad * Math.cos(th), rad * Math.sin(th)];
  });
}

function pointwise(c: C[], e: C[], relFloor = REL_FLOOR): number {
  if (c.length !== e.length) return Infinity;
  if (e.length === 0) return 0;
  if (!c.every(cfinite)) return Infinity;
  const fl = pyMax(relFloor * npMax(e.map(cabs)), 1e-300);
  const ratios = c.map((x, i) => {
    const ae = cabs(e[i]);
    const den = Number.isNaN(ae) || Number.isNaN(fl) ? NaN : Math.max(ae, fl);
    return cabs(csub(x, e[i])) / den;
  });
  return npMax(ratios);
}

// ---------------------------------------------------------------- Riccati
function ricResidual(A: Arr, B: Arr, Q: Arr, R: Arr, S: Arr | null, X: Arr, discrete: boolean): number {
  const Sm = S ?? Arr.zeros(B.rows, B.cols);
  let terms: Arr[];
  let Res: Arr;
  const At = tr(A);
  const Bt = tr(B);
  if (discrete) {
    const G = add(R, mm(mm(Bt, X), B));
    const T = mm(add(mm(mm(At, X), B), Sm), solve(G, add(mm(mm(Bt, X), A), tr(Sm))));
    const AXA = mm(mm(At, X), A);
    terms = [AXA, X, T, Q];
    Res = add(sub(sub(AXA, X), T), Q);
  } else {
    const T = mm(add(mm(X, B), Sm), solve(R, add(mm(Bt, X), tr(Sm))));
    terms = [mm(At, X), mm(X, A), T, Q];
    Res = add(sub(add(mm(At, X), mm(X, A)), T), Q);
  }
  return (
    norm(Res) /
    pyMax(
      terms.reduce((s, t) => s + norm(t), 0),
      1e-300,
    )
  );
}

function ricGain(A: Arr, B: Arr, R: Arr, S: Arr | null, X: Arr, discrete: boolean): Arr {
  const Sm = S ?? Arr.zeros(B.rows, B.cols);
  const Bt = tr(B);
  if (discrete) return solve(add(R, mm(mm(Bt, X), B)), add(mm(mm(Bt, X), A), tr(Sm)));
  return solve(R, add(mm(Bt, X), tr(Sm)));
}

type RicData = [Arr, Arr, Arr, Arr, Arr | null, boolean, string, string, boolean];

function ricProblem(tool: string, a: Record<string, unknown>): RicData {
  const g = (k: string): Arr | null => (a[k] !== undefined && a[k] !== null ? mat(a[k]) : null);
  const need = (x: Arr | null): Arr => {
    if (!x) throw malformed('TypeError', "unsupported operand type(s): 'NoneType'");
    return x;
  };
  if (['care', 'dare', 'lqr', 'dlqr'].includes(tool)) {
    const disc = tool === 'dare' || tool === 'dlqr';
    return [need(g('A')), need(g('B')), need(g('Q')), need(g('R')), g('N'), disc, 'X', 'K', false];
  }
  const A = need(g('A'));
  const G = need(g('G'));
  const Cm = need(g('C'));
  const Qn = need(g('Qn'));
  const Rn = need(g('Rn'));
  const Ts = a.Ts;
  const disc = tool === 'kalman' && (typeof Ts === 'number' ? Ts : 0) > 0;
  return [tr(A), tr(Cm), mm(mm(G, Qn), tr(G)), Rn, null, disc, 'P', 'L', true];
}

function fmtErrs(errs: [string, number][]): string {
  return errs.map(([k, v]) => `${k}=${pyExp(v, 2)}`).join(' ');
}

function checkRiccati(tool: string, a: Record<string, unknown>, exp: Record<string, unknown>, cand: Record<string, unknown>, rtol: number): [number, string] {
  const [A_, B_, Q_, R_, S_, disc, xk, kk, trp] = ricProblem(tool, a);
  const Xc = mat(get(cand, xk));
  const Kc = mat(get(cand, kk));
  const Xe = mat(get(exp, xk));
  const Ke = mat(get(exp, kk));
  const pc = cvec(get(cand, 'poles'));
  const pe = cvec(get(exp, 'poles'));
  if (!sameShape(Xc.shape, Xe.shape) || !sameShape(Kc.shape, Ke.shape) || !allFinite(Xc) || !allFinite(Kc)) return [Infinity, 'shape/non-finite'];
  const errs: [string, number][] = [
    [xk, relArr(Xc, Xe)],
    [kk, relArr(Kc, Ke)],
    ['poles', eigset(pc, pe)],
  ];
  const extra = ['M', 'Z'].filter((k) => k in exp);
  for (const k of extra) {
    if (!(k in cand)) return [Infinity, `missing ${k}`];
    errs.push([k, relArr(mat(cand[k]), mat(exp[k]))]);
  }
  const res = ricResidual(A_, B_, Q_, R_, S_, Xc, disc);
  const fwd = pyMax(...errs.map((x) => x[1]));
  if (fwd <= rtol && res <= pyMax(rtol, RES_TOL)) return [fwd, ''];
  // residual path: the candidate is itself a (symmetric, stabilising, consistent) solution
  const Kg = trp ? tr(Kc) : Kc;
  const asym = norm(sub(Xc, tr(Xc))) / pyMax(norm(Xc), FLOOR);
  const Kx = ricGain(A_, B_, R_, S_, Xc, disc);
  const kcons = relArr(Kg, Kx);
  const cl = eigvals(sub(A_, mm(B_, Kg)));
  const stab = disc ? cl.every((z) => cabs(z) < 1) : cl.every((z) => z[0] < 0);
  const pcons = eigset(pc, cl);
  let okExtra = true;
  if (extra.length) {
    const Cc = tr(B_);
    const Rn = R_;
    const Mx = mm(mm(Xc, tr(Cc)), inv(add(mm(mm(Cc, Xc), tr(Cc)), Rn)));
    const Zx = sub(Xc, mm(mm(Mx, Cc), Xc));
    okExtra = relArr(mat(cand.M), Mx) <= 1e-8 && relArr(mat(cand.Z), Zx) <= 1e-8;
  }
  if (res <= RES_TOL && asym <= 1e-8 && kcons <= 1e-8 && stab && pcons <= 1e-6 && okExtra && fwd <= RES_PATH_MAX * rtol) return [fwd, 'passed via residual'];
  return [pyMax(fwd, res > RES_TOL ? Infinity : fwd), `fwd=${pyExp(fwd, 2)} res=${pyExp(res, 2)} ` + fmtErrs(errs)];
}

function checkLyap(tool: string, a: Record<string, unknown>, exp: Record<string, unknown>, cand: Record<string, unknown>, rtol: number): [number, string] {
  const A = mat(get(a, 'A'));
  const Q = mat(get(a, 'Q'));
  const Xc = mat(get(cand, 'X'));
  const Xe = mat(get(exp, 'X'));
  if (!sameShape(Xc.shape, Xe.shape) || !allFinite(Xc)) return [Infinity, 'shape/non-finite'];
  const fwd = relArr(Xc, Xe);
  let terms: Arr[];
  let Res: Arr;
  if (tool === 'lyap') {
    terms = [mm(A, Xc), mm(Xc, tr(A)), Q];
    Res = add(mm(A, Xc), mm(Xc, tr(A)), Q);
  } else {
    const AXA = mm(mm(A, Xc), tr(A));
    terms = [AXA, Xc, Q];
    Res = add(sub(AXA, Xc), Q);
  }
  const res =
    norm(Res) /
    pyMax(
      terms.reduce((s, t) => s + norm(t), 0),
      1e-300,
    );
  if (fwd <= rtol) return [fwd, ''];
  if (res <= RES_TOL && fwd <= RES_PATH_MAX * rtol) return [fwd, 'passed via residual'];
  return [Infinity, `fwd=${pyExp(fwd, 2)} res=${pyExp(res, 2)}`];
}

// ---------------------------------------------------------------- per tool
export interface ProblemLine {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  rtol?: number;
  [k: string]: unknown;
}
export type ResultLine = { id: string; result?: unknown; error?: unknown; [k: string]: unknown };

/** scores one problem: ok, the largest error on the rtol scale, and a note */
export function checkProblem(prob: ProblemLine, exp: ResultLine, cand: ResultLine | undefined | null): CheckResult {
  const tool = prob.tool;
  const a = prob.args;
  const rtol = prob.rtol === undefined ? DEFAULT_RTOL : Number(prob.rtol);
  if (cand === undefined || cand === null) return { ok: false, err: Infinity, note: 'missing result' };
  if ('error' in exp) {
    const has = 'error' in cand;
    return { ok: has, err: has ? 0 : Infinity, note: has ? '' : 'expected an error' };
  }
  if ('error' in cand) return { ok: false, err: Infinity, note: 'unexpected error: ' + String(cand.error).slice(0, 80) };
  const e = exp.result as Record<string, unknown>;
  const c = cand.result;
  if (!c || typeof c !== 'object' || Array.isArray(c)) return { ok: false, err: Infinity, note: 'no result object' };
  let err: number;
  let note: string;
  try {
    [err, note] = check(tool, a, e, c as Record<string, unknown>, rtol);
  } catch (ex) {
    if (ex instanceof KeyError) return { ok: false, err: Infinity, note: `missing field ${ex.message}` };
    if (ex instanceof Malformed) return { ok: false, err: Infinity, note: `malformed: ${ex.kind}: ${ex.message}` };
    // anything else (a JavaScript TypeError from a wrong type): malformed as well
    return { ok: false, err: Infinity, note: `malformed: ${(ex as Error).name}: ${(ex as Error).message}` };
  }
  if (note === 'passed via residual') return { ok: true, err, note };
  return { ok: err <= rtol, err, note };
}

function check(tool: string, a: Record<string, unknown>, e: Record<string, unknown>, c: Record<string, unknown>, rtol: number): [number, string] {
  switch (tool) {
    case 'eig':
      return [eigset(cvec(get(c, 'eigenvalues')), cvec(get(e, 'eigenvalues'))), ''];
    case 'ctrb_rank':
    case 'obsv_rank': {
      const rc = pyRound(fnum(get(c, 'rank')));
      const re = pyRound(fnum(get(e, 'rank')));
      if (rc !== re) return [Infinity, `rank ${JSON.stringify(c.rank)} != ${JSON.stringify(e.rank)}`];
      return [relArr(mat(get(c, 'matrix')), mat(get(e, 'matrix'))), ''];
    }
    case 'care':
    case 'dare':
    case 'lqr':
    case 'dlqr':
    case 'lqe':
    case 'kalman':
      return checkRiccati(tool, a, e, c, rtol);
    case 'lyap':
    case 'dlyap':
      return checkLyap(tool, a, e, c, rtol);
    case 'place': {
      const A = mat(get(a, 'A'));
      const B = mat(get(a, 'B'));
      const Kc = mat(get(c, 'K'));
      if (Kc.rows !== B.cols || Kc.cols !== A.rows || !allFinite(Kc)) return [Infinity, 'K shape/non-finite'];
      const target = cvec(get(a, 'poles'));
      let err = eigset(eigvals(sub(A, mm(B, Kc))), target);
      if (B.cols === 1) err = pyMax(err, relArr(Kc, mat(get(e, 'K'))));
      return [err, ''];
    }
    case 'c2d': {
      const [Ad, Bd, Cd, Dd] = ['Ad', 'Bd', 'Cd', 'Dd'].map((k) => mat(get(c, k)));
      const [Ae, Be, Ce, De] = ['Ad', 'Bd', 'Cd', 'De' in e ? 'De' : 'Dd'].map((k) => mat(get(e, k)));
      if (!sameShape(Ad.shape, Ae.shape) || !sameShape(Bd.shape, Be.shape) || !sameShape(Cd.shape, Ce.shape)) return [Infinity, 'shape'];
      const ev = eigvals(Ae);
      const rad = 1.25 * pyMax(1.0, ev.length ? npMax(ev.map(cabs)) : 1.0) + 0.1;
      const pts = Array.from({ length: 16 }, (_, i): C => {
        const th = (Math.PI * (i + 0.5)) / 16;
        return [rad * Math.cos(th), rad * Math.sin(th)];
      });
      const Hc = pts.map((z) => freqEval(Ad, Bd, Cd, Dd, z));
      const He = pts.map((z) => freqEval(Ae, Be, Ce, De, z));
      // pointwise() compares the raveled samples, as numpy's ravel() does
      const pw = pointwise(Hc.flatMap(cflat), He.flatMap(cflat), TF_FLOOR);
      return [pyMax(relArr(Ad, Ae), relArr(Dd, De), pw), ''];
    }
    case 'tf2ss':
    case 'ss2tf': {
      const numE = poly1d(arr(get(e, 'num')));
      const denE = poly1d(arr(get(e, 'den')));
      const pts = samplePoints(denE);
      const He = tfSamples(numE, denE, pts);
      let Hc: C[];
      if (tool === 'tf2ss') {
        const [A, B, Cm, D] = ssFrom(c, 1, 1);
        const n = A.rows;
        if (A.rows !== A.cols || B.rows !== n || B.cols !== 1 || Cm.rows !== 1 || Cm.cols !== n || D.rows !== 1 || D.cols !== 1 || D.shape.length !== 2)
          return [Infinity, 'realisation shapes'];
        Hc = pts.map((s) => {
          const [re, im] = freqEval(A, B, Cm, D, s);
          return [re.data[0], im.data[0]];
        });
      } else Hc = tfSamples(poly1d(arr(get(c, 'num'))), poly1d(arr(get(c, 'den'))), pts);
      return [pointwise(Hc, He, TF_FLOOR), ''];
    }
    case 'freqresp': {
      const Hc = cvec(get(c, 'H'));
      const He = cvec(get(e, 'H'));
      if (Hc.length !== He.length) return [Infinity, 'length'];
      const err = pointwise(Hc, He);
      const absE = He.map(cabs);
      const thr = REL_FLOOR * npMax(absE) * 1e3;
      const big = absE.map((x) => x > thr);
      const mc = arr(get(c, 'mag_db'));
      const me = arr(get(e, 'mag_db'));
      const pc = arr(get(c, 'phase_deg'));
      const pe = arr(get(e, 'phase_deg'));
      if (!sameShape(mc.shape, me.shape) || !sameShape(pc.shape, pe.shape)) return [Infinity, 'length'];
      const anyBig = big.some(Boolean);
      const masked = (x: Arr, f: (v: number, i: number) => number): number[] => {
        if (x.shape.length !== 1 || x.shape[0] !== big.length) throw malformed('IndexError', 'boolean index did not match indexed array');
        return x.data.map(f).filter((_, i) => big[i]);
      };
      const em = anyBig ? npMax(masked(mc, (v, i) => Math.abs(v - me.data[i]))) / (20 / Math.log(10)) : 0;
      const ep = anyBig ? (npMax(masked(pc, (v, i) => Math.abs(pyMod(v - pe.data[i] + 180, 360) - 180))) * Math.PI) / 180 : 0;
      return [pyMax(err, em, ep), ''];
    }
    case 'margins': {
      const fl: [string, number][] = [
        ['gm', 1e-6],
        ['gm_db', 1.0],
        ['pm_deg', 1.0],
        ['w_pc', 1e-6],
        ['w_gc', 1e-6],
      ];
      const errs = fl.map(([k, f]): [string, number] => [k, relScalar(get(c, k), get(e, k), f)]);
      const worst = pyMax(...errs.map((x) => x[1]));
      return [
        worst,
        errs
          .filter(([, v]) => v > rtol)
          .map(([k, v]) => `${k}=${pyExp(v, 1)}`)
          .join(' '),
      ];
    }
    case 'step':
    case 'impulse': {
      const yc = arr(get(c, 'y'));
      const ye = arr(get(e, 'y'));
      if (!sameShape(yc.shape, ye.shape)) return [Infinity, `length ${yc.size} != ${ye.size}`];
      if (!allFinite(yc)) return [Infinity, 'non-finite'];
      return [npMax(yc.data.map((x, i) => Math.abs(x - ye.data[i]))) / pyMax(npMax(ye.data.map(Math.abs)), FLOOR), ''];
    }
    case 'stepinfo': {
      const fl: [string, number][] = [
        ['rise_time', FLOOR],
        ['settling_time', FLOOR],
        ['overshoot_pct', 1e-3],
        ['peak', FLOOR],
        ['peak_time', FLOOR],
        ['final_value', FLOOR],
      ];
      const errs = fl.map(([k, f]): [string, number] => [k, relScalar(get(c, k), get(e, k), f)]);
      return [
        pyMax(...errs.map((x) => x[1])),
        errs
          .filter(([, v]) => v > rtol)
          .map(([k, v]) => `${k}=${pyExp(v, 1)}`)
          .join(' '),
      ];
    }
    case 'h2norm':
      return [relScalar(get(c, 'h2'), get(e, 'h2')), ''];
    case 'hinfnorm': {
      const err = relScalar(get(c, 'hinf'), get(e, 'hinf'));
      const fe = fnum(get(e, 'fpeak'));
      const fc = fnum(get(c, 'fpeak'));
      const he = fnum(get(e, 'hinf'));
      if (!Number.isFinite(he)) return [err, ''];
      let ef: number;
      if (Number.isFinite(fe) && Number.isFinite(fc)) ef = (Math.abs(fc - fe) / pyMax(Math.abs(fe), 1e-9)) * (rtol / FPEAK_RTOL);
      else if (isInf(fe) && isInf(fc)) ef = 0;
      else ef = Infinity;
      if (ef > rtol && Number.isFinite(fc) && fc >= 0) {
        // flat maximum: accept any frequency where the gain reaches the norm
        const [A, B, Cm, D] = ssFrom(a);
        const TsRaw = a.Ts;
        const Ts = TsRaw === undefined || TsRaw === null || TsRaw === 0 || TsRaw === false ? 0 : fnum(TsRaw);
        const s: C = Ts > 0 ? [Math.cos(fc * Ts), Math.sin(fc * Ts)] : [0, fc];
        const sg = sigmaMax(freqEval(A, B, Cm, D, s));
        ef = pyMin(ef, Math.abs(sg - he) / he);
      }
      return [pyMax(err, ef), ''];
    }
    case 'dcgain':
      return [relArr(mat(get(c, 'gain')), mat(get(e, 'gain')), FLOOR, true), ''];
    case 'poles_zeros': {
      let err = pyMax(eigset(cvec(get(c, 'poles')), cvec(get(e, 'poles'))), eigset(cvec(get(c, 'zeros')), cvec(get(e, 'zeros'))));
      if ('gain' in e) err = pyMax(err, relScalar(get(c, 'gain'), e.gain));
      return [err, ''];
    }
  }
  throw malformed('ValueError', `unknown tool ${tool}`);
}
const isInf = (x: number) => x === Infinity || x === -Infinity;

// ---------------------------------------------------------------- files and the table
export function parseJsonl<T>(text: string): T[] {
  return text
    .split(/\r?\n/)
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}
export function byId(lines: ResultLine[]): Map<string, ResultLine> {
  return new Map(lines.map((r) => [r.id, r]));
}

export interface ToolRow {
  tool: string;
  n: number;
  pass: number;
  fail: number;
  max: number;
  failed: { id: string; err: number; note: string }[];
}

/** scores a whole set; the rows follow the problems' tool order */
export function scoreAll(
  problems: ProblemLine[],
  expected: Map<string, ResultLine>,
  results: Map<string, ResultLine>,
  opts: { tool?: string; onProblem?: (p: ProblemLine, r: CheckResult) => void } = {},
): { rows: ToolRow[]; passed: number; failed: number } {
  const table = new Map<string, ToolRow>();
  for (const p of problems) {
    if (opts.tool && p.tool !== opts.tool) continue;
    const exp = expected.get(p.id);
    if (!exp) continue;
    const r = checkProblem(p, exp, results.get(p.id));
    let t = table.get(p.tool);
    if (!t) {
      t = { tool: p.tool, n: 0, pass: 0, fail: 0, max: 0, failed: [] };
      table.set(p.tool, t);
    }
    t.n++;
    if (r.ok) t.pass++;
    else {
      t.fail++;
      t.failed.push({ id: p.id, err: r.err, note: r.note });
    }
    if (!('error' in exp)) t.max = pyMax(t.max, Number.isNaN(r.err) ? Infinity : r.err);
    opts.onProblem?.(p, r);
  }
  const rows = [...table.values()];
  return { rows, passed: rows.reduce((s, t) => s + t.pass, 0), failed: rows.reduce((s, t) => s + t.fail, 0) };
}

function main(argv: string[]): void {
  const verbose = argv.includes('--verbose');
  let only: string | undefined;
  if (argv.includes('--tool')) only = argv[argv.indexOf('--tool') + 1];
  const pos = argv.filter((x, i) => !x.startsWith('--') && (i === 0 || argv[i - 1] !== '--tool'));
  const ppath = pos[0] ?? 'problems.jsonl';
  const epath = pos[1] ?? 'expected.jsonl';
  const rpath = pos[2] ?? 'results.jsonl';
  const probs = parseJsonl<ProblemLine>(readFileSync(ppath, 'utf8'));
  const exp = byId(parseJsonl<ResultLine>(readFileSync(epath, 'utf8')));
  let res = new Map<string, ResultLine>();
  try {
    res = byId(parseJsonl<ResultLine>(readFileSync(rpath, 'utf8')));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    console.log(`no candidate file ${rpath}`);
  }
  const out: string[] = [];
  const { rows, passed, failed } = scoreAll(probs, exp, res, {
    tool: only,
    onProblem: (p, r) => {
      if (verbose && (!r.ok || r.note)) out.push(`  ${r.ok ? 'note' : 'FAIL'} ${p.id}: err=${pyExp(r.err, 3)} ${r.note}`);
    },
  });
  for (const l of out) console.log(l);
  console.log(`${'tool'.padEnd(13)}${'problems'.padStart(9)}${'passed'.padStart(8)}${'failed'.padStart(8)}  ${'max rel err'.padStart(11)}`);
  for (const t of rows)
    console.log(`${t.tool.padEnd(13)}${String(t.n).padStart(9)}${String(t.pass).padStart(8)}${String(t.fail).padStart(8)}  ${pyExp(t.max, 2).padStart(11)}`);
  if (!verbose) {
    let shown = 0;
    for (const t of rows)
      for (const f of t.failed) {
        if (shown < 40) console.log(`  FAIL ${f.id}: err=${pyExp(f.err, 3)} ${f.note}`);
        shown++;
      }
    if (shown > 40) console.log(`  ... ${shown - 40} more failures`);
  }
  console.log(`${passed} passed, ${failed} failed`);
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) main(process.argv.slice(2));
