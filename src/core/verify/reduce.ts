/**
 * Independent checks of the reduction tools (solvers/reduce.ts), by routes the solver does not
 * take. The solver solves Lyapunov equations by Bartels-Stewart on the real Schur form, factors
 * the Gramians (Cholesky) and takes an SVD of the product of the factors; here:
 *
 * - gram: the residual of the Lyapunov (Stein) equation with the reported W, its symmetry and
 *   semidefiniteness (the verifier's eigensolver), and for the factor RᵀR = W, R triangular;
 * - hsvd: the Gramians again, by a Cayley transform and the squared Smith iteration (a
 *   doubling sum of A_dᵏ Q A_dᵏᵀ, no Schur form), checked by their own residuals; then σi² as the
 *   eigenvalues of Wc·Wo (a nonsymmetric eigenproblem, EISPACK hqr), no SVD;
 * - balreal: both Gramians of the returned model equal diag(hsv) (residuals of its Lyapunov
 *   equations, nothing solved), T·Ti = I, A_b = T A Ti, and the transfer function unchanged at
 *   test points (a complex solve with the original A, or num/den by Horner);
 * - balred: the Hankel singular values as for hsvd; the error bound 2·Σ of the discarded σ
 *   recomputed; ‖G − Gr‖∞ on a frequency grid (refined at its peaks) at most that bound and
 *   at least σ_{r+1} (no model of order r comes closer); matchdc: G(0) = Gr(0);
 * - modred: truncate: the kept rows and columns; matchdc: the Schur complement of the
 *   eliminated block recomputed, and the DC gain kept where A is invertible.
 */
import { Matrix as M, inverse, solve } from 'ml-matrix';
import type { Complex, Matrix } from '../types.js';
import type { Check } from './index.js';
import { froNorm, safeEigenvalues, safeSingularValues, sci } from './numeric.js';
import { evalSS, evalTF, isDiscrete } from './systems.js';

const EPS = Number.EPSILON;

/** the model of the call as matrices: A, B, C, D, or num/den in controllable canonical form (written here) */
function modelOf(args: Record<string, any>): { A: Matrix; B: Matrix; C: Matrix; D: Matrix } {
  if (Array.isArray(args.num) && Array.isArray(args.den)) {
    let den = args.den as number[],
      num = args.num as number[];
    while (den.length > 1 && den[0] === 0) den = den.slice(1);
    while (num.length > 1 && num[0] === 0) num = num.slice(1);
    const n = den.length - 1;
    const a0 = den[0];
    const d = den.map((v) => v / a0);
    const b = [...new Array(Math.max(0, den.length - num.length)).fill(0), ...num].map((v) => v / a0);
    const D0 = b[0];
    const A = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === 0 ? -d[j + 1] : i === j + 1 ? 1 : 0)));
    const B = Array.from({ length: n }, (_, i) => [i === 0 ? 1 : 0]);
    const C = [Array.from({ length: n }, (_, j) => b[j + 1] - D0 * d[j + 1])];
    return { A, B, C, D: [[D0]] };
  }
  const A = args.A as Matrix,
    B = args.B as Matrix,
    C = args.C as Matrix;
  const D = Array.isArray(args.D) && args.D.length ? (args.D as Matrix) : C.map(() => (B[0] ?? []).map(() => 0));
  return { A, B, C, D };
}

/** G(s) of the call's model: num/den by Horner, else a complex solve */
function responseOf(args: Record<string, any>, s: Complex): { re: M; im: M } {
  if (Array.isArray(args.num) && Array.isArray(args.den)) {
    const [re, im] = evalTF(args.num, args.den, s);
    return { re: new M([[re]]), im: new M([[im]]) };
  }
  const m = modelOf(args);
  return evalSS(m.A, m.B, m.C, m.D, s);
}

/** σmax of the complex matrix X + jY: the largest singular value of [[X, −Y], [Y, X]] */
function sigmaMax(X: M, Y: M): number {
  const p = X.rows,
    m = X.columns;
  const big = new M(2 * p, 2 * m);
  for (let i = 0; i < p; i++)
    for (let j = 0; j < m; j++) {
      big.set(i, j, X.get(i, j));
      big.set(p + i, m + j, X.get(i, j));
      big.set(i, m + j, -Y.get(i, j));
      big.set(p + i, j, Y.get(i, j));
    }
  return safeSingularValues(big)[0] ?? 0;
}

function check(name: string, ok: boolean, value: number, detail: string): Check {
  return { name, ok, value, detail };
}

// ------------------------------------------------------------------ Gramians by another route

/**
 * W with A W + W Aᵀ + Q = 0 (continuous) or A W Aᵀ − W + Q = 0 (discrete), A stable: the
 * continuous equation is first mapped to a Stein equation by the Cayley transform
 * A_d = (A − pI)⁻¹(A + pI), Q_d = 2p (A − pI)⁻¹ Q (A − pI)⁻ᵀ (p > 0, the geometric mean of the
 * eigenvalues' moduli); then W = Σ A_dᵏ Q_d A_dᵏᵀ by squared Smith (W ← W + A W Aᵀ, A ← A²).
 * null when it does not converge in 80 doublings (2⁸⁰ terms).
 */
export function smithGramian(A: Matrix, Q: Matrix, discrete: boolean): M | null {
  const n = A.length;
  let Ad = new M(A),
    W = new M(Q);
  if (!discrete) {
    const mods = safeEigenvalues(A).map(([re, im]) => Math.hypot(re, im));
    const lo = Math.max(Math.min(...mods), 1e-300),
      hi = Math.max(...mods, 1e-300);
    const p = Math.sqrt(lo * hi);
    const Am = new M(A).sub(M.eye(n).mul(p));
    const Minv = inverse(Am);
    Ad = Minv.mmul(new M(A).add(M.eye(n).mul(p)));
    W = Minv.mmul(new M(Q))
      .mmul(Minv.transpose())
      .mul(2 * p);
  }
  for (let k = 0; k < 80; k++) {
    const inc = Ad.mmul(W).mmul(Ad.transpose());
    W = W.add(inc);
    const ni = froNorm(inc),
      nw = froNorm(W);
    if (!Number.isFinite(nw)) return null;
    if (ni <= EPS * nw * 1e-2 || ni === 0) return W.add(W.transpose()).mul(0.5);
    Ad = Ad.mmul(Ad);
  }
  return null;
}

/** ‖A W + W Aᵀ + Q‖ (or ‖A W Aᵀ − W + Q‖) relative to the sizes of its terms */
function lyapResidual(A: M, W: M, Q: M, discrete: boolean): number {
  if (discrete) {
    const AWA = A.mmul(W).mmul(A.transpose());
    return froNorm(AWA.clone().sub(W).add(Q)) / Math.max(froNorm(AWA) + froNorm(W) + froNorm(Q), 1e-300);
  }
  const AW = A.mmul(W),
    WA = W.mmul(A.transpose());
  return froNorm(AW.clone().add(WA).add(Q)) / Math.max(froNorm(AW) + froNorm(WA) + froNorm(Q), 1e-300);
}

const tr = (X: Matrix): Matrix => (X[0] ?? []).map((_, j) => X.map((r) => r[j]));

/** the residual tolerance: 1e-8, or the rounding of the equation's own terms where ‖A‖·‖W‖ is far above them */
const residualTol = (n: number) => Math.max(1e-8, 100 * n * EPS);

/**
 * The Hankel singular values against √eig(Wc·Wo) with the verifier's own Gramians. σi² is
 * compared with the eigenvalue to 1e-8·‖Wc‖‖Wo‖ (normwise: the product's eigenvalues carry
 * errors of ε‖Wc‖‖Wo‖, so the smallest σ are only checked to that level, said in the detail).
 */
function hsvChecks(args: Record<string, any>, hsv: number[]): Check[] {
  const { A, B, C } = modelOf(args);
  const n = A.length;
  const disc = isDiscrete(args);
  if (n === 0) return [check('Hankel singular values', hsv.length === 0, 0, 'no states: no Hankel singular values')];
  const ev = safeEigenvalues(A);
  const unstable = ev.some(([re, im]) => (disc ? Math.hypot(re, im) >= 1 : re >= 0));
  if (unstable) return [check('stable', false, NaN, 'A is not stable by the independent eigensolver: the Gramians do not exist')];
  const BBt = new M(B).mmul(new M(B).transpose());
  const CtC = new M(C).transpose().mmul(new M(C));
  const Wc = smithGramian(A, BBt.to2DArray(), disc);
  const Wo = smithGramian(tr(A), CtC.to2DArray(), disc);
  if (!Wc || !Wo) return [check('Gramians', false, NaN, 'the squared Smith iteration did not converge (A too close to the stability boundary for this route)')];
  const rc = lyapResidual(new M(A), Wc, BBt, disc);
  const ro = lyapResidual(new M(tr(A)), Wo, CtC, disc);
  const rtol = residualTol(n);
  const checks: Check[] = [
    check(
      'Gramian residuals',
      rc <= rtol && ro <= rtol,
      Math.max(rc, ro),
      `the verifier's own Gramians (Cayley transform + squared Smith) solve both Lyapunov equations (residuals ${sci(rc)}, ${sci(ro)})`,
    ),
  ];
  const lam = safeEigenvalues(Wc.mmul(Wo).to2DArray())
    .map(([re]) => re)
    .sort((a, b) => b - a);
  const scale = froNorm(Wc) * froNorm(Wo);
  let worst = 0;
  const len = hsv.length === n;
  if (len) hsv.forEach((s, i) => (worst = Math.max(worst, Math.abs(s * s - lam[i]) / Math.max(scale, 1e-300))));
  const sorted = hsv.every((s, i) => s >= 0 && (i === 0 || hsv[i - 1] >= s));
  checks.push(
    check(
      'Hankel singular values',
      len && worst <= 1e-8 && sorted,
      worst,
      !len
        ? `${hsv.length} values for a model of ${n} states`
        : `σi² equal the eigenvalues of Wc·Wo (independent eigensolver) to ${sci(worst)} of ‖Wc‖‖Wo‖${sorted ? ', decreasing' : ', but NOT in decreasing order'}`,
    ),
  );
  return checks;
}

// ------------------------------------------------------------------ per tool

function gramChecks(args: Record<string, any>, r: Record<string, any>): Check[] {
  const A = args.A as Matrix;
  const n = A.length;
  const W = r.W as Matrix;
  if (n === 0) return [check('Gramian', Array.isArray(W) && W.length === 0, 0, 'no states: an empty Gramian')];
  const disc = isDiscrete(args);
  const c = (r.type ?? args.type ?? 'c') === 'c';
  const X = new M(c ? args.B : args.C);
  const Q = c ? X.mmul(X.transpose()) : X.transpose().mmul(X);
  const Am = c ? new M(A) : new M(tr(A));
  const w = new M(W);
  const res = lyapResidual(Am, w, Q, disc);
  const asym = froNorm(w.clone().sub(w.transpose())) / Math.max(froNorm(w), 1e-300);
  const ev = safeEigenvalues(W).map(([re]) => re);
  const minEv = Math.min(...ev);
  const nw = froNorm(w);
  const stable = safeEigenvalues(A).every(([re, im]) => (disc ? Math.hypot(re, im) < 1 : re < 0));
  const eq = c ? (disc ? 'A W Aᵀ − W + B Bᵀ = 0' : 'A W + W Aᵀ + B Bᵀ = 0') : disc ? 'Aᵀ W A − W + Cᵀ C = 0' : 'Aᵀ W + W A + Cᵀ C = 0';
  const checks: Check[] = [
    check('stable', stable, 0, stable ? 'A is stable (independent eigensolver): the Gramian exists' : 'A is NOT stable: a Gramian does not exist'),
    check('Lyapunov residual', res <= residualTol(n), res, `W solves ${eq} (residual ${sci(res)})`),
    check('W symmetric', asym <= 1e-10, asym, `W symmetric (asymmetry ${sci(asym)})`),
    check('W semidefinite', minEv >= -1e-10 * nw, minEv, `W positive semidefinite (smallest eigenvalue ${sci(minEv)}, ‖W‖ = ${sci(nw)})`),
  ];
  if (r.R) {
    const R = r.R as Matrix;
    const triangular = R.every((row, i) => row.every((v, j) => (j < i ? v === 0 : j === i ? v >= 0 : true)));
    const Rm = new M(R);
    const err = froNorm(Rm.transpose().mmul(Rm).sub(w)) / Math.max(nw, 1e-300);
    checks.push(
      check(
        'Cholesky factor',
        triangular && err <= 1e-9,
        err,
        `R upper triangular with a nonnegative diagonal${triangular ? '' : ' (it is NOT)'}, RᵀR = W to ${sci(err)}`,
      ),
    );
  }
  return checks;
}

/** test points: s = jω (continuous) or z = e^{jθ} (discrete), ω over the poles' range, and a point off the axis */
function testPoints(A: Matrix, disc: boolean, k = 7): Complex[] {
  const mods = A.length
    ? safeEigenvalues(A).map(([re, im]) =>
        disc ? Math.abs(Math.log(Math.max(Math.hypot(re, im), 1e-300))) + Math.abs(Math.atan2(im, re)) : Math.hypot(re, im),
      )
    : [1];
  const lo = Math.max(Math.min(...mods), 1e-6) / 10,
    hi = Math.max(...mods, 1e-6) * 10;
  const pts: Complex[] = [];
  for (let i = 0; i < k; i++) {
    const w = lo * (hi / lo) ** (i / (k - 1));
    pts.push(disc ? [Math.cos(Math.min(w, 3)), Math.sin(Math.min(w, 3))] : [0, w]);
  }
  pts.push(disc ? [1.7, 0.9] : [hi, hi]);
  return pts;
}

/** max over the points of ‖G1(s) − G2(s)‖ / max(‖G1(s)‖, scale) */
function sameResponse(args: Record<string, any>, red: { A: Matrix; B: Matrix; C: Matrix; D: Matrix }, pts: Complex[]): number {
  let worst = 0;
  let scale = 0;
  const pairs = pts.map((s) => {
    const g = responseOf(args, s);
    const h = evalSS(red.A, red.B, red.C, red.D, s);
    scale = Math.max(scale, sigmaMax(g.re, g.im));
    return { g, h };
  });
  for (const { g, h } of pairs) worst = Math.max(worst, sigmaMax(g.re.clone().sub(h.re), g.im.clone().sub(h.im)) / Math.max(scale, 1e-300));
  return worst;
}

function balrealChecks(args: Record<string, any>, r: Record<string, any>): Check[] {
  const hsv = r.hsv as number[];
  const checks = hsvChecks(args, hsv);
  // the balanced model's states: those whose σ is above rounding (the others are left out)
  const n = (r.A as Matrix).length;
  const left = hsv.slice(n);
  const tiny = left.every((s) => s <= hsv.length * EPS * (hsv[0] ?? 0));
  checks.push(
    check(
      'states kept',
      tiny && r.order === n,
      left.length,
      left.length ? `${left.length} states left out, each with σ zero to rounding${tiny ? '' : ' — but one is NOT'}` : 'all states kept',
    ),
  );
  if (n === 0) return checks;
  const disc = isDiscrete(args);
  const Ab = new M(r.A),
    Bb = new M(r.B),
    Cb = new M(r.C);
  const S = M.diag(hsv.slice(0, n));
  const rc = lyapResidual(Ab, S, Bb.mmul(Bb.transpose()), disc);
  const ro = lyapResidual(Ab.transpose(), S, Cb.transpose().mmul(Cb), disc);
  checks.push(
    check(
      'balanced Gramians',
      rc <= residualTol(n) && ro <= residualTol(n),
      Math.max(rc, ro),
      `both Gramians of the balanced model equal diag(hsv) (residuals ${sci(rc)}, ${sci(ro)})`,
    ),
  );
  const { A } = modelOf(args);
  const T = new M(r.T),
    Ti = new M(r.Ti);
  const ti = froNorm(T.mmul(Ti).sub(M.eye(n))) / Math.sqrt(n);
  const ab = froNorm(T.mmul(new M(A)).mmul(Ti).sub(Ab)) / Math.max(froNorm(Ab), 1e-300);
  checks.push(check('transformation', ti <= 1e-8 && ab <= 1e-8, Math.max(ti, ab), `T·Ti = I (${sci(ti)}) and T A Ti = A_b (${sci(ab)})`));
  const tf = sameResponse(args, { A: r.A, B: r.B, C: r.C, D: r.D }, testPoints(A, disc));
  checks.push(check('transfer function', tf <= 1e-8, tf, `the balanced model has the same frequency response at 8 test points (${sci(tf)})`));
  return checks;
}

/** the largest ‖G(jω) − Gr(jω)‖ over a grid refined at its peaks (ω = 0 and ∞ included; discrete: θ in [0, π]) */
function hinfError(args: Record<string, any>, red: { A: Matrix; B: Matrix; C: Matrix; D: Matrix }): number {
  const { A } = modelOf(args);
  const disc = isDiscrete(args);
  const n = A.length;
  const at = (w: number): number => {
    const s: Complex = disc ? [Math.cos(w), Math.sin(w)] : [0, w];
    const g = responseOf(args, s),
      h = evalSS(red.A, red.B, red.C, red.D, s);
    return sigmaMax(g.re.clone().sub(h.re), g.im.clone().sub(h.im));
  };
  const mods = safeEigenvalues(A)
    .concat(red.A.length ? safeEigenvalues(red.A) : [])
    .map(([re, im]) => (disc ? Math.hypot(Math.log(Math.max(Math.hypot(re, im), 1e-300)), Math.atan2(im, re)) : Math.hypot(re, im)));
  let lo = Math.max(Math.min(...mods), 1e-12) / 100,
    hi = Math.max(...mods) * 100;
  if (disc) hi = Math.PI;
  lo = Math.min(lo, hi / 10);
  const k = n > 60 ? 80 : 240;
  const ws = Array.from({ length: k }, (_, i) => lo * (hi / lo) ** (i / (k - 1)));
  const vals = ws.map(at);
  let best = Math.max(...vals, at(0));
  if (!disc) {
    // ω → ∞: D − Dr
    const dd = new M(modelOf(args).D).sub(new M(red.D));
    best = Math.max(best, sigmaMax(dd, M.zeros(dd.rows, dd.columns)));
  } else best = Math.max(best, at(Math.PI));
  // golden-section refinement on log ω around the three largest local maxima
  const peaks = vals
    .map((v, i) => ({ v, i }))
    .filter(({ i }) => (i === 0 || vals[i - 1] <= vals[i]) && (i === k - 1 || vals[i + 1] <= vals[i]))
    .sort((a, b) => b.v - a.v)
    .slice(0, 3);
  const g = (Math.sqrt(5) - 1) / 2;
  for (const { i } of peaks) {
    let a = Math.log(ws[Math.max(0, i - 1)]),
      b = Math.log(ws[Math.min(k - 1, i + 1)]);
    let x1 = b - g * (b - a),
      x2 = a + g * (b - a);
    let f1 = at(Math.exp(x1)),
      f2 = at(Math.exp(x2));
    for (let it = 0; it < 40; it++) {
      if (f1 >= f2) {
        b = x2;
        x2 = x1;
        f2 = f1;
        x1 = b - g * (b - a);
        f1 = at(Math.exp(x1));
      } else {
        a = x1;
        x1 = x2;
        f1 = f2;
        x2 = a + g * (b - a);
        f2 = at(Math.exp(x2));
      }
    }
    best = Math.max(best, f1, f2);
  }
  return best;
}

/** G(0) (continuous) or G(1) (discrete) of a model, or undefined when A (or I − A) is singular */
function dcOf(A: Matrix, B: Matrix, C: Matrix, D: Matrix, disc: boolean): M | undefined {
  const n = A.length;
  if (!n) return new M(D);
  const Ms = disc ? M.eye(n).sub(new M(A)) : new M(A).mul(-1);
  const sv = safeSingularValues(Ms);
  if (!(sv[sv.length - 1] > 1e3 * n * EPS * sv[0])) return undefined;
  return new M(C).mmul(solve(Ms, new M(B))).add(new M(D));
}

function dcCheck(args: Record<string, any>, r: Record<string, any>): Check {
  const disc = isDiscrete(args);
  const full = modelOf(args);
  const g = dcOf(full.A, full.B, full.C, full.D, disc);
  const h = dcOf(r.A, r.B, r.C, r.D, disc);
  if (!g)
    return check(
      'DC gain kept',
      true,
      0,
      `the full model's DC gain is not finite (a pole at ${disc ? 'z = 1' : 's = 0'}), so only the Schur complement above is checked`,
    );
  if (!h) return check('DC gain kept', false, Infinity, "the reduced model's DC gain is not finite where the full model's is");
  const err = froNorm(g.clone().sub(h)) / Math.max(froNorm(g), 1e-300);
  const ok = err <= 1e-8 || froNorm(g.clone().sub(h)) <= 1e-12;
  return check('DC gain kept', ok, err, `the reduced model's DC gain equals the full model's (${sci(err)})`);
}

function balredChecks(args: Record<string, any>, r: Record<string, any>): Check[] {
  const hsv = r.hsv as number[];
  const order = r.order as number;
  const checks = hsvChecks(args, hsv);
  const ordOk = Array.isArray(r.A) && r.A.length === order && order >= 1 && order < hsv.length;
  checks.push(check('order', ordOk, r.A?.length ?? 0, `the reduced model has ${r.A?.length ?? 0} states (order ${order} asked)`));
  if (!ordOk) return checks;
  const tail = 2 * hsv.slice(order).reduce((s, x) => s + x, 0);
  const bErr = Math.abs(tail - r.errorBound) / Math.max(tail, 1e-300);
  checks.push(check('error bound', bErr <= 1e-12 || tail === r.errorBound, bErr, `errorBound = 2·Σ σ after ${order} = ${sci(tail)}`));
  const err = hinfError(args, r as { A: Matrix; B: Matrix; C: Matrix; D: Matrix });
  const scale = Math.max(hsv[0] ?? 0, 1e-300);
  const upOk = err <= tail * (1 + 1e-6) + 1e-9 * scale;
  // σ below about √ε·σ1 carry no relative accuracy (the Gramians' products lose it: a cancelled
  // pole-zero pair shows up as σ ≈ 1e-9·σ1, not 0), so the lower bound only holds above that level
  const lowOk = err >= hsv[order] * (1 - 1e-3) - 1e-7 * scale;
  checks.push(
    check(
      '‖G − Gr‖∞',
      upOk && lowOk,
      err,
      `the largest error over a refined frequency grid, ${sci(err)}, lies between σ${order + 1} = ${sci(hsv[order])} and the bound ${sci(tail)}${upOk ? '' : ' — ABOVE the bound'}${lowOk ? '' : ' — BELOW σr+1, which no model of this order can beat'}`,
    ),
  );
  if (r.method === 'matchdc') checks.push(dcCheck(args, r));
  return checks;
}

function modredChecks(args: Record<string, any>, r: Record<string, any>): Check[] {
  const A = args.A as Matrix,
    B = args.B as Matrix,
    C = args.C as Matrix;
  const D = modelOf(args).D;
  const n = A.length;
  const elim = ((r.elim ?? args.elim) as number[]).map((e) => e - 1);
  const keep = Array.from({ length: n }, (_, i) => i).filter((i) => !elim.includes(i));
  const sub = (X: Matrix, rows: number[], cols: number[]) => rows.map((i) => cols.map((j) => X[i][j]));
  const allCols = (X: Matrix) => Array.from({ length: X[0]?.length ?? 0 }, (_, j) => j);
  const A11 = new M(sub(A, keep, keep)),
    B1 = new M(sub(B, keep, allCols(B))),
    C1 = new M(
      sub(
        C,
        C.map((_, i) => i),
        keep,
      ),
    ),
    Dm = new M(D);
  let want: M[];
  if (r.method === 'truncate') want = [A11, B1, C1, Dm];
  else {
    const A12 = new M(sub(A, keep, elim)),
      A21 = new M(sub(A, elim, keep)),
      A22 = new M(sub(A, elim, elim)),
      B2 = new M(sub(B, elim, allCols(B))),
      C2 = new M(
        sub(
          C,
          C.map((_, i) => i),
          elim,
        ),
      );
    // x2 = −A22⁻¹(A21 x1 + B2 u) (continuous) or (I − A22)⁻¹(A21 x1 + B2 u) (discrete)
    const Mx = isDiscrete(args) ? M.eye(elim.length).sub(A22) : A22.clone().mul(-1);
    const X = solve(Mx, A21),
      Y = solve(Mx, B2);
    want = [A11.clone().add(A12.mmul(X)), B1.clone().add(A12.mmul(Y)), C1.clone().add(C2.mmul(X)), Dm.clone().add(C2.mmul(Y))];
  }
  let worst = 0;
  ['A', 'B', 'C', 'D'].forEach((k, i) => {
    const got = new M(r[k] as Matrix);
    worst = Math.max(worst, froNorm(got.sub(want[i])) / Math.max(froNorm(want[i]), 1));
  });
  const checks = [
    check(
      'reduced matrices',
      worst <= 1e-9,
      worst,
      r.method === 'truncate'
        ? `the reduced matrices are the kept rows and columns of A, B, C (${sci(worst)})`
        : `the reduced matrices equal the Schur complement of the eliminated block, recomputed (${sci(worst)})`,
    ),
  ];
  if (r.method === 'matchdc') checks.push(dcCheck(args, r));
  return checks;
}

/** the checks of one reduction tool's result */
export function verifyReduce(tool: string, args: Record<string, any>, r: Record<string, any>): Check[] {
  switch (tool) {
    case 'gram':
      return gramChecks(args, r);
    case 'hsvd':
      return hsvChecks(args, r.hsv);
    case 'balreal':
      return balrealChecks(args, r);
    case 'balred':
      return balredChecks(args, r);
    case 'modred':
      return modredChecks(args, r);
  }
  throw new Error(`no reduction check for ${tool}`);
}
