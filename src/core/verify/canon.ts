/**
 * Checks of the structure tools (solvers/canon.ts: ctrbf, obsvf, kalman_decomp, canon, ss2ss,
 * tzero), by routes the solvers do not take:
 * - a change of coordinates: the transfer function at three test points off the spectrum
 *   (dense complex solves, systems.ts evalSS) and the eigenvalues (the verifier's own EISPACK
 *   eigensolver) unchanged; the reported model equal to (T A T⁻¹, T B, C T⁻¹) recomputed here
 *   from T; T orthogonal where the tool says so; the zero blocks of the form zero to tolerance
 *   in T A Tᵀ recomputed here (not read from the answer); the counts of controllable and
 *   observable states by the Krylov/Arnoldi/PBH rank checks of rank.ts;
 * - tzero: the Rosenbrock matrix P(s) = [A − sI, B; C, D] loses rank below its normal rank
 *   (measured here at random points) at each reported zero, by an independent SVD (Golub-
 *   Kahan-Reinsch, numeric.ts) of its real 2x embedding; [A − sI, B] at each input-decoupling
 *   zero and [A − sI; C] at each output-decoupling zero likewise; for a square P of full normal
 *   rank, det P(s) / Π(s − zᵢ) is the same constant at three points (no zero missing or extra).
 * Imports no value from verify/index.ts (which imports this file).
 */
import { Matrix as M } from 'ml-matrix';
import type { Complex, Matrix } from '../types.js';
import type { Check } from './index.js';
import { evalSS } from './systems.js';
import { pairRankCheck } from './rank.js';
import { froNorm, matchedDistances, safeEigenvalues, safeSingularValues, sci } from './numeric.js';

type Args = Record<string, any>;
type Res = Record<string, any>;

const mat = (A: Matrix) => new M(A);
const fro = (A: Matrix | M) => froNorm(A);

function check(name: string, value: number, tol: number, detail: string): Check {
  return { name, ok: value <= tol, value, detail: `${detail} (${sci(value)}${tol !== 1e-9 ? `, at most ${sci(tol)}` : ''})` };
}

const dOf = (args: Args, p: number, m: number): Matrix =>
  Array.isArray(args.D) && args.D.length ? args.D : Array.from({ length: p }, () => new Array(m).fill(0));

/** condition number by the verifier's SVD */
function condition(T: Matrix): number {
  const sv = safeSingularValues(mat(T));
  const lo = sv[sv.length - 1];
  return lo > 0 ? sv[0] / lo : Infinity;
}

/** eigenvalue lists compared relative to max(‖A‖, |λ|) */
function eigDistance(a: Complex[], b: Complex[], norm: number): number {
  if (a.length !== b.length) return Infinity;
  let scale = Math.max(norm, 1e-300);
  for (const z of [...a, ...b]) scale = Math.max(scale, Math.hypot(z[0], z[1]));
  return Math.max(0, ...matchedDistances(a, b)) / scale;
}

/** σmin(A − λI)/‖A‖ of each λ, by the real 2n embedding: the backward error of a computed eigenvalue */
function backwardError(A: Matrix, list: Complex[]): number {
  const n = A.length;
  const nrm = Math.max(fro(A), 1e-300);
  let worst = 0;
  for (const [re, im] of list) {
    const big = embed(
      A.map((r, i) => r.map((v, j) => v - (i === j ? re : 0))),
      A.map((r, i) => r.map((_, j) => (i === j ? -im : 0))),
    );
    const sv = safeSingularValues(big);
    worst = Math.max(worst, sv[2 * n - 1] / nrm);
  }
  return worst;
}

/** the real 2x embedding [Re −Im; Im Re] of a complex matrix: each singular value twice */
function embed(Re: Matrix, Im: Matrix): M {
  const r = Re.length,
    c = Re[0]?.length ?? 0;
  const big = new M(2 * r, 2 * c);
  for (let i = 0; i < r; i++)
    for (let j = 0; j < c; j++) {
      big.set(i, j, Re[i][j]);
      big.set(r + i, c + j, Re[i][j]);
      big.set(i, c + j, -Im[i][j]);
      big.set(r + i, j, Im[i][j]);
    }
  return big;
}

/** three test points on a circle well outside the spectrum (|s| ≥ 1.3‖A‖F + 1), off the real axis */
function testPoints(A: Matrix, discrete: boolean): Complex[] {
  void discrete;
  const R = 1.3 * fro(A) + 1;
  return [0.37, 1.21, 2.53].map((t) => [R * Math.cos(t), R * Math.sin(t)] as Complex);
}

/**
 * The reported (Ar, Br, Cr, Dr) is (A, B, C, D) in other coordinates: its transfer function
 * at three points and its eigenvalues are those of the model; with T given (z = T x), also
 * Ar·T = T·A, Br = T·B, Cr·T = C, recomputed here.
 */
function similarityChecks(
  args: Args,
  red: { A: Matrix; B: Matrix; C: Matrix; D?: Matrix },
  T: Matrix | undefined,
  kappa: number,
  label = 'the model',
): Check[] {
  const A = args.A as Matrix,
    B = args.B as Matrix,
    C = args.C as Matrix;
  const n = A.length,
    m = B[0].length,
    p = C.length;
  const D = dOf(args, p, m);
  const tol = Math.max(1e-9, 1e3 * n * Number.EPSILON * kappa);
  const checks: Check[] = [];
  // transfer function at test points
  let worst = 0;
  for (const s of testPoints(A, typeof args.Ts === 'number' && args.Ts > 0)) {
    const g = evalSS(A, B, C, D, s);
    const h = evalSS(red.A, red.B, red.C, red.D ?? D, s);
    const diff = fro(g.re.clone().sub(h.re)) + fro(g.im.clone().sub(h.im));
    // relative to |G(s)| or its bound ‖D‖ + ‖B‖‖C‖/(|s| − ‖A‖) (a G that vanishes, as with C a left eigenvector, has no size of its own)
    const bound = fro(D) + (fro(B) * fro(C)) / Math.max(Math.hypot(s[0], s[1]) - fro(A), 1e-300);
    const scale = Math.max(fro(g.re) + fro(g.im), bound, 1e-300);
    worst = Math.max(worst, diff / scale);
  }
  checks.push(check('transfer function', worst, tol, `the transfer function of ${label} equals the original's at three test points (dense complex solves)`));
  // eigenvalues
  if (red.A.length === n) {
    const e0 = safeEigenvalues(A);
    const e1 = safeEigenvalues(red.A);
    const d = eigDistance(e0, e1, fro(A));
    if (d <= 1e-6 * Math.max(1, kappa * 1e-4))
      checks.push(check('eigenvalues', d, 1e-6 * Math.max(1, kappa * 1e-4), 'the eigenvalues are unchanged (independent eigensolver on both)'));
    else {
      // multiple or defective eigenvalues: the two eigensolvers may differ by ε^(1/k); each of A's must then be an exact eigenvalue of a nearby Ar
      const be = backwardError(red.A, e0);
      checks.push({
        name: 'eigenvalues',
        ok: be <= 1e-10 * Math.max(1, kappa) && d <= 1e-2,
        value: be,
        detail: `eigenvalues ill-conditioned (the lists differ by ${sci(d)}); each eigenvalue of A is one of the new A to backward error ${sci(be)}`,
      });
    }
  }
  if (T) {
    const t = mat(T);
    const tn = Math.max(fro(t), 1e-300);
    const rA =
      fro(
        mat(red.A)
          .mmul(t)
          .sub(t.mmul(mat(A))),
      ) / Math.max(tn * fro(A), 1e-300);
    const rB = fro(mat(red.B).sub(t.mmul(mat(B)))) / Math.max(tn * fro(B), 1e-300);
    const rC = fro(mat(red.C).mmul(t).sub(mat(C))) / Math.max(fro(C), fro(red.C) * tn, 1e-300);
    checks.push(
      check('T consistent', Math.max(rA, fro(B) ? rB : 0, fro(C) ? rC : 0), tol, 'A·T = T·A, B = T·B and C·T = C for the new model and T, recomputed'),
    );
  }
  return checks;
}

function orthogonalCheck(T: Matrix): Check {
  const t = mat(T);
  const err = fro(t.mmul(t.transpose()).sub(M.eye(T.length)));
  return check('T orthogonal', err, 1e-12 * Math.max(1, T.length), 'T·Tᵀ = I');
}

/** largest |entry| of the block rows r0..r1−1, columns c0..c1−1 of X, relative to `scale` */
function blockNorm(X: M, r0: number, r1: number, c0: number, c1: number, scale: number): number {
  let s = 0;
  for (let i = r0; i < r1; i++) for (let j = c0; j < c1; j++) s = Math.max(s, Math.abs(X.get(i, j)));
  return s / Math.max(scale, 1e-300);
}

/** the structural zero blocks, in T A Tᵀ, T B and C Tᵀ recomputed here */
function zeroBlocksCheck(
  args: Args,
  T: Matrix,
  blocksA: [number, number, number, number][],
  rowsB: [number, number] | null,
  colsC: [number, number] | null,
  what: string,
): Check {
  const t = mat(T);
  const A = mat(args.A),
    B = mat(args.B),
    C = mat(args.C);
  const At = t.mmul(A).mmul(t.transpose());
  const Bt = t.mmul(B);
  const Ct = C.mmul(t.transpose());
  const n = args.A.length;
  const tol = Math.max(n * n, 10) * Number.EPSILON * 10;
  let worst = 0;
  for (const [r0, r1, c0, c1] of blocksA) worst = Math.max(worst, blockNorm(At, r0, r1, c0, c1, fro(A)));
  if (rowsB) worst = Math.max(worst, blockNorm(Bt, rowsB[0], rowsB[1], 0, Bt.columns, fro(B) || 1));
  if (colsC) worst = Math.max(worst, blockNorm(Ct, 0, Ct.rows, colsC[0], colsC[1], fro(C) || 1));
  return check('zero blocks', worst, tol, `${what} are zero in T·A·Tᵀ, T·B, C·Tᵀ recomputed from T (relative to ‖A‖, ‖B‖, ‖C‖)`);
}

function eigenvaluesOf(Ablock: Matrix, reported: Complex[], what: string): Check {
  if (!Ablock.length) return { name: what, ok: reported.length === 0, detail: reported.length ? `${what}: listed, but the block is empty` : `${what}: none` };
  const d = eigDistance(safeEigenvalues(Ablock), reported, fro(Ablock));
  if (d <= 1e-6) return check(what, d, 1e-6, `${what} are the eigenvalues of their block (independent eigensolver)`);
  const be = backwardError(Ablock, reported);
  return { name: what, ok: be <= 1e-10 && d <= 1e-2, value: be, detail: `${what}: ill-conditioned (${sci(d)}), backward error ${sci(be)}` };
}

const sub = (X: Matrix, r0: number, nr: number, c0: number, nc: number): Matrix => X.slice(r0, r0 + nr).map((r) => r.slice(c0, c0 + nc));

// ------------------------------------------------------------------ ctrbf / obsvf

export function staircaseChecks(args: Args, r: Res, tool: string): Check[] {
  const ctrb = tool === 'ctrbf';
  const n = (args.A as Matrix).length;
  const kept = (ctrb ? r.nc : r.no) as number;
  const nu = n - kept;
  const checks: Check[] = [orthogonalCheck(r.T), ...similarityChecks(args, { A: r.Abar, B: r.Bbar, C: r.Cbar }, r.T, 1, 'the staircase form')];
  checks.push(
    ctrb
      ? zeroBlocksCheck(args, r.T, [[0, nu, nu, n]], [0, nu], null, 'the block above Ac (rows of Auc, columns of Ac) and the uncontrollable rows of B')
      : zeroBlocksCheck(args, r.T, [[nu, n, 0, nu]], null, [0, nu], 'the block below Ano (rows of Ao, columns of Ano) and the unobservable columns of C'),
  );
  const rk = pairRankCheck(args.A, ctrb ? args.B : args.C, !ctrb, kept);
  checks.push({ ...rk, name: ctrb ? 'controllable states' : 'observable states', detail: `${ctrb ? 'controllability' : 'observability'} ${rk.detail}` });
  const k = r.k as number[];
  const kOk = k.length === n && k.reduce((s, v) => s + v, 0) === kept && k.every((v, i) => i === 0 || v <= k[i - 1]);
  checks.push({
    name: 'k',
    ok: kOk,
    detail: kOk ? `k has n = ${n} entries, non-increasing, summing to ${kept}` : `k = [${k.join(' ')}] is not n non-increasing block sizes summing to ${kept}`,
  });
  checks.push(
    eigenvaluesOf(sub(r.Abar, 0, nu, 0, nu), (ctrb ? r.uncontrollable : r.unobservable) as Complex[], ctrb ? 'uncontrollable modes' : 'unobservable modes'),
  );
  return checks;
}

// ------------------------------------------------------------------ Kalman decomposition

export function kalmanChecks(args: Args, r: Res): Check[] {
  const n = (args.A as Matrix).length;
  const parts = r.parts as { part: string; n: number; first: number; eigenvalues: Complex[] }[];
  const get = (name: string) => parts.find((p) => p.part === name)!;
  const [cuo, co, ucuo, uco] = ['cō', 'co', 'c̄ō', 'c̄o'].map(get);
  const sizes = [cuo, co, ucuo, uco];
  const layoutOk = sizes.reduce((s, p) => (p && p.first === s ? s + p.n : NaN), 0) === n;
  const checks: Check[] = [
    {
      name: 'layout',
      ok: layoutOk,
      detail: layoutOk ? 'the parts cō, co, c̄ō, c̄o follow one another and cover the n states' : 'the parts do not tile the states in the order cō, co, c̄ō, c̄o',
    },
  ];
  if (!layoutOk) return checks;
  checks.push(orthogonalCheck(r.T), ...similarityChecks(args, { A: r.A, B: r.B, C: r.C }, r.T, 1, 'the decomposition'));
  const nc = cuo.n + co.n;
  // block upper triangular on the four parts; B zero on c̄ō, c̄o; C zero on cō
  const below: [number, number, number, number][] = [];
  for (let bi = 1; bi < 4; bi++) if (sizes[bi].n && sizes[bi].first > 0) below.push([sizes[bi].first, sizes[bi].first + sizes[bi].n, 0, sizes[bi].first]);
  checks.push(
    zeroBlocksCheck(args, r.T, below, [nc, n], [0, cuo.n], 'the blocks below the diagonal of the four parts, B on the uncontrollable parts and C on cō'),
  );
  const rc = pairRankCheck(args.A, args.B, false, nc);
  checks.push({ ...rc, name: 'controllable states', detail: `controllability ${rc.detail}` });
  const ro = pairRankCheck(args.A, args.C, true, co.n + uco.n);
  checks.push({ ...ro, name: 'observable states', detail: `observability ${ro.detail}` });
  for (const p of sizes) checks.push(eigenvaluesOf(sub(r.A, p.first, p.n, p.first, p.n), p.eigenvalues, `eigenvalues of ${p.part}`));
  // the co part alone has the model's transfer function, and is minimal
  const mn = r.minimal as { A: Matrix; B: Matrix; C: Matrix; D: Matrix };
  if (mn.A.length) {
    checks.push(...similarityChecks(args, mn, undefined, 1, 'the co part').filter((c) => c.name === 'transfer function'));
    const a = pairRankCheck(mn.A, mn.B, false, mn.A.length),
      b = pairRankCheck(mn.A, mn.C, true, mn.A.length);
    checks.push(
      { ...a, name: 'co controllable', detail: `co part: controllability ${a.detail}` },
      { ...b, name: 'co observable', detail: `co part: observability ${b.detail}` },
    );
  }
  return checks;
}

// ------------------------------------------------------------------ canon, ss2ss

function patternCheck(form: string, A: Matrix, B: Matrix, C: Matrix): Check {
  const n = A.length;
  let bad = 0;
  const want = (v: number, w: number) => (bad = Math.max(bad, Math.abs(v - w)));
  if (form === 'modal') {
    for (let i = 0; i < n;) {
      const two = i + 1 < n && A[i + 1][i] !== 0;
      const sz = two ? 2 : 1;
      for (let r = i; r < i + sz; r++) for (let c = 0; c < n; c++) if (c < i || c >= i + sz) want(A[r][c], 0);
      if (two) {
        want(A[i][i], A[i + 1][i + 1]);
        want(A[i][i + 1], -A[i + 1][i]);
        if (!(A[i][i + 1] > 0)) bad = Infinity;
      }
      i += sz;
    }
  } else {
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        if (form === 'companion' && j === n - 1) continue;
        if (form === 'reachable' && i === 0) continue;
        if (form === 'observable' && j === 0) continue;
        const one = form === 'observable' ? j === i + 1 : i === j + 1;
        want(A[i][j], one ? 1 : 0);
      }
    if (form === 'companion' || form === 'reachable') B.forEach((row, i) => want(row[0], i === 0 ? 1 : 0));
    else C[0].forEach((v, j) => want(v, j === 0 ? 1 : 0));
  }
  const what: Record<string, string> = {
    modal: 'A is block diagonal with 1x1 blocks and [σ ω; −ω σ] blocks (ω > 0)',
    companion: 'A has ones below the diagonal and zeros elsewhere outside its last column; B(:, 1) = e1',
    reachable: 'A has ones below the diagonal and zeros elsewhere outside its first row; B = e1',
    observable: 'A has ones above the diagonal and zeros elsewhere outside its first column; C = e1ᵀ',
  };
  return { name: 'form', ok: bad === 0, value: bad, detail: bad === 0 ? what[form] : `not the ${form} form (an entry off by ${sci(bad)})` };
}

export function canonChecks(args: Args, r: Res): Check[] {
  // from a transfer function the model is its tf2ss realisation, rebuilt here (controllable canonical form, as SciPy)
  let sys = args;
  if (Array.isArray(args.num)) {
    const den = (args.den as number[]).slice();
    while (den.length > 1 && den[0] === 0) den.shift();
    const num = (args.num as number[]).slice();
    while (num.length > 1 && num[0] === 0) num.shift();
    const a0 = den[0];
    const dn = den.map((v) => v / a0);
    const nn = [...new Array(dn.length - num.length).fill(0), ...num.map((v) => v / a0)];
    const n = dn.length - 1;
    const A = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === 0 ? -dn[j + 1] : i === j + 1 ? 1 : 0)));
    const d = nn[0];
    sys = { A, B: A.map((_, i) => [i === 0 ? 1 : 0]), C: [A.map((_, j) => nn[j + 1] - d * dn[j + 1])], D: [[d]], Ts: args.Ts };
  }
  const kappa = condition(r.T);
  return [
    patternCheck(r.form, r.A, r.B, r.C),
    ...similarityChecks(sys, { A: r.A, B: r.B, C: r.C, D: r.D }, r.T, kappa, `the ${r.form} form`),
    check('cond(T)', Math.abs(kappa - r.cond) / kappa, 1e-6, `cond(T) = ${sci(kappa)} by an independent SVD agrees`),
  ];
}

export function ss2ssChecks(args: Args, r: Res): Check[] {
  const kappa = condition(args.T);
  return [
    ...similarityChecks(args, { A: r.A, B: r.B, C: r.C, D: r.D }, args.T, kappa, 'the transformed model'),
    check('cond(T)', Math.abs(kappa - r.cond) / kappa, 1e-6, `cond(T) = ${sci(kappa)} by an independent SVD agrees`),
  ];
}

// ------------------------------------------------------------------ tzero

/** the Rosenbrock matrix [A − sI, B; C, D] at complex s, as real and imaginary parts */
function rosenbrock(A: Matrix, B: Matrix, C: Matrix, D: Matrix, [sr, si]: Complex): { Re: Matrix; Im: Matrix } {
  const n = A.length;
  const Re = [...A.map((row, i) => [...row.map((v, j) => v - (i === j ? sr : 0)), ...B[i]]), ...C.map((row, i) => [...row, ...D[i]])];
  const Im = Re.map((row, i) => row.map((_, j) => (i < n && i === j ? -si : 0)));
  return { Re, Im };
}

/** rank of a complex matrix by the SVD of its embedding (each singular value twice) */
function complexRank(Re: Matrix, Im: Matrix): { rank: number; sv: number[] } {
  const sv = safeSingularValues(embed(Re, Im));
  const tol = Math.max(Re.length, Re[0].length) * 2 * Number.EPSILON * (sv[0] ?? 0) * 10;
  return { rank: Math.round(sv.filter((x) => x > tol).length / 2), sv };
}

/** log det of a square complex matrix (Gaussian elimination, partial pivoting): [log|det|, arg det] */
function logDet(Re: Matrix, Im: Matrix): Complex {
  const n = Re.length;
  const a = Re.map((r) => r.slice()),
    b = Im.map((r) => r.slice());
  let lg = 0,
    arg = 0;
  for (let k = 0; k < n; k++) {
    let p = k,
      big = -1;
    for (let i = k; i < n; i++) {
      const v = Math.hypot(a[i][k], b[i][k]);
      if (v > big) {
        big = v;
        p = i;
      }
    }
    if (big === 0) return [-Infinity, 0];
    if (p !== k) {
      [a[p], a[k]] = [a[k], a[p]];
      [b[p], b[k]] = [b[k], b[p]];
      arg += Math.PI;
    }
    const pr = a[k][k],
      pi = b[k][k];
    lg += Math.log(Math.hypot(pr, pi));
    arg += Math.atan2(pi, pr);
    const d = pr * pr + pi * pi;
    for (let i = k + 1; i < n; i++) {
      // l = M(i,k) / pivot
      const lr = (a[i][k] * pr + b[i][k] * pi) / d,
        li = (b[i][k] * pr - a[i][k] * pi) / d;
      if (lr === 0 && li === 0) continue;
      for (let j = k; j < n; j++) {
        a[i][j] -= lr * a[k][j] - li * b[k][j];
        b[i][j] -= lr * b[k][j] + li * a[k][j];
      }
    }
  }
  return [lg, arg];
}

const sample = <T>(xs: T[], k: number): T[] => (xs.length <= k ? xs : Array.from({ length: k }, (_, i) => xs[Math.floor((i * xs.length) / k)]));

export function tzeroChecks(args: Args, r: Res): Check[] {
  // a static gain (A 0x0): P(s) = D, constant, so no zeros; the normal rank is rank D (SVD of D)
  if (!(args.A as Matrix).length) {
    const D = args.D as Matrix;
    const nr = complexRank(
      D,
      D.map((row) => row.map(() => 0)),
    ).rank;
    const none = ['zeros', 'transmission', 'input_decoupling', 'output_decoupling', 'system_zeros'].every((k) => (r[k] as unknown[]).length === 0);
    return [
      { name: 'normal rank', ok: nr === r.normal_rank, value: nr, detail: `normal rank of P(s) = D is rank D = ${nr} (independent SVD)` },
      { name: 'zeros', ok: none, detail: none ? 'no zeros of any kind listed: P(s) = D is constant' : 'zeros listed for a constant P(s) = D' },
    ];
  }
  const A = args.A as Matrix,
    B = args.B as Matrix,
    C = args.C as Matrix;
  const n = A.length,
    m = B[0].length,
    p = C.length;
  const D = dOf(args, p, m);
  const checks: Check[] = [];
  // normal rank: the largest rank at three points
  // at the model's own scale (a model whose entries are all 1e-8 has its zeros near 1e-8: points
  // near 1 made A − sI swamp B and C, and the rank came out one short)
  const a = fro(A) > 0 ? fro(A) : 1;
  const pts: Complex[] = [
    [0.61 * a, 0.83 * a],
    [-0.37 * a, 1.9 * a],
    [1.13 * a, -0.29 * a],
  ];
  const nr = Math.max(...pts.map((s) => complexRank(rosenbrock(A, B, C, D, s).Re, rosenbrock(A, B, C, D, s).Im).rank));
  checks.push({
    name: 'normal rank',
    ok: nr === r.normal_rank,
    value: nr,
    detail: `normal rank of P(s) ${nr} (the largest rank at three points, independent SVD)${nr === r.normal_rank ? '' : `, not ${r.normal_rank}`}`,
  });
  const norm = Math.max(fro(A) + fro(B) + fro(C) + fro(D), 1e-300);
  // rank loss of P at each invariant and transmission zero: σ_nr(P(z)) small (index 2nr − 1 in the embedding)
  const zs = [...(r.zeros as Complex[]), ...(r.transmission as Complex[])];
  let worst = 0;
  for (const z of sample(zs, 16)) {
    const P = rosenbrock(A, B, C, D, z);
    const sv = safeSingularValues(embed(P.Re, P.Im));
    worst = Math.max(worst, (sv[2 * nr - 1] ?? 0) / (norm + Math.hypot(z[0], z[1])));
  }
  checks.push(
    zs.length
      ? check(
          'zeros',
          worst,
          1e-8,
          `P(s) = [A − sI, B; C, D] loses rank below ${nr} at each invariant and transmission zero (its ${nr}-th singular value, independent SVD)`,
        )
      : { name: 'zeros', ok: true, detail: 'no invariant or transmission zeros listed' },
  );
  // decoupling zeros: PBH rank loss of [A − sI, B] and [A − sI; C]
  const pbh = (list: Complex[], input: boolean): number => {
    let w = 0;
    for (const z of sample(list, 16)) {
      const Re = input
        ? A.map((row, i) => [...row.map((v, j) => v - (i === j ? z[0] : 0)), ...B[i]])
        : [...A.map((row, i) => row.map((v, j) => v - (i === j ? z[0] : 0))), ...C];
      const Im = Re.map((row, i) => row.map((_, j) => (i < n && i === j ? -z[1] : 0)));
      const sv = safeSingularValues(embed(Re, Im));
      w = Math.max(w, (sv[2 * n - 1] ?? 0) / (norm + Math.hypot(z[0], z[1])));
    }
    return w;
  };
  const idz = r.input_decoupling as Complex[],
    odz = r.output_decoupling as Complex[];
  checks.push(check('input-decoupling zeros', pbh(idz, true), 1e-8, '[A − sI, B] loses rank at each input-decoupling zero'));
  checks.push(check('output-decoupling zeros', pbh(odz, false), 1e-8, '[A − sI; C] loses rank at each output-decoupling zero'));
  const rc = pairRankCheck(A, B, false, n - idz.length);
  checks.push({ ...rc, name: 'count of input-decoupling zeros', detail: `controllability ${rc.detail} (n minus the input-decoupling zeros)` });
  const ro = pairRankCheck(A, C, true, n - odz.length);
  checks.push({ ...ro, name: 'count of output-decoupling zeros', detail: `observability ${ro.detail} (n minus the output-decoupling zeros)` });
  // square P of full normal rank: det P(s) = c·Π(s − zᵢ), so the ratio is one constant at three points
  if (m === p && nr === n + m) {
    const list = r.zeros as Complex[];
    const ratios = testPoints(A, false).map((s) => {
      const P = rosenbrock(A, B, C, D, s);
      const [lg, arg] = logDet(P.Re, P.Im);
      let l = lg,
        a = arg;
      for (const z of list) {
        l -= Math.log(Math.hypot(s[0] - z[0], s[1] - z[1]));
        a -= Math.atan2(s[1] - z[1], s[0] - z[0]);
      }
      return [l, a] as Complex;
    });
    let dev = 0;
    for (const [l, a] of ratios.slice(1)) {
      const dl = l - ratios[0][0],
        da = a - ratios[0][1];
      dev = Math.max(dev, Math.hypot(Math.exp(dl) * Math.cos(da) - 1, Math.exp(dl) * Math.sin(da)));
    }
    checks.push(
      check(
        'all zeros',
        dev,
        1e-6,
        `det P(s) / Π(s − zᵢ) is one constant at three test points: the ${list.length} zeros are all the finite zeros of the square system matrix`,
      ),
    );
    const sysOk = (r.system_zeros as Complex[]).length === list.length;
    checks.push({
      name: 'system zeros',
      ok: sysOk,
      detail: sysOk
        ? 'square P(s) of full normal rank: as many system zeros as invariant zeros (MacFarlane-Karcanias)'
        : `${(r.system_zeros as Complex[]).length} system zeros but ${list.length} invariant zeros, for a square P(s) of full normal rank`,
    });
  }
  const d = eigDistance(safeEigenvalues(A), r.poles as Complex[], fro(A));
  checks.push(
    d <= 1e-6
      ? check('poles', d, 1e-6, 'the poles are the eigenvalues of A (independent eigensolver)')
      : { name: 'poles', ok: backwardError(A, r.poles) <= 1e-10, value: d, detail: `poles ill-conditioned (${sci(d)}); backward error checked` },
  );
  return checks;
}
