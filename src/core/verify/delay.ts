/**
 * Independent checks of the delay tools (solvers/delay.ts), by routes the solvers do not take:
 * - pade: the coefficients from the closed form with exact factorials (BigInt), where the solver
 *   used the ratio recurrence; the approximant matches e^{−sT} at points jω with ωT small within
 *   the Padé remainder bound m! n! / ((m+n)! (m+n+1)!) (ωT)^{m+n+1}; |H(jω)| = 1 (all-pass) at
 *   test points when numdeg = N; the denominator Hurwitz by the verifier's own eigensolver;
 *   with a system, the result's response equals the system's times the approximant's at test
 *   points (dense complex solves), and num/den agrees with A, B, C, D;
 * - thiran: the coefficients by the telescoped product
 *   a_k = (−1)^k C(N,k) Π_{j<k} (D−N+j)/(D+1+j) (the solver took the product over N+1 factors);
 *   the all-pass property |H(e^{jθ})| = 1 at test points; the group delay at DC equals tau/Ts
 *   (from the derivative of the polynomials); poles inside the unit circle; an integer number of
 *   samples is exactly z^−k.
 */
import type { Complex, Matrix } from '../types.js';
import type { Check } from './index.js';
import { companion, evalSS, evalTF, polyval } from './systems.js';
import { check, safeEigenvalues, sci } from './numeric.js';

type R = Record<string, any>;
type C = Complex;

const cabs = ([a, b]: C) => Math.hypot(a, b);

const fact = (k: number): bigint => {
  let f = 1n;
  for (let i = 2n; i <= BigInt(k); i++) f *= i;
  return f;
};

const gcd = (a: bigint, b: bigint): bigint => {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b) [a, b] = [b, a % b];
  return a;
};

/** p/q of two BigInts as a double: the fraction reduced first, then each rounded once (orders <= 20: factorials below 1e50) */
function ratio(p: bigint, q: bigint): number {
  const g = gcd(p, q) || 1n;
  return Number(p / g) / Number(q / g);
}

/** the Padé coefficients for T = 1 (coefficient of s^k, k ascending), exactly from the factorials */
function padeExact(m: number, n: number): { num: number[]; den: number[] } {
  const big = fact(m + n);
  const numK = Array.from({ length: m + 1 }, (_, k) => ratio((k % 2 ? -1n : 1n) * fact(m + n - k) * fact(m), big * fact(k) * fact(m - k)));
  const denK = Array.from({ length: n + 1 }, (_, k) => ratio(fact(m + n - k) * fact(n), big * fact(k) * fact(n - k)));
  return { num: numK, den: denK };
}

/** largest relative difference of two coefficient lists (highest power first), Infinity when the lengths differ */
function coefDiff(a: number[], b: number[]): number {
  if (a.length !== b.length) return Infinity;
  let worst = 0;
  a.forEach((x, i) => (worst = Math.max(worst, Math.abs(x - b[i]) / Math.max(Math.abs(b[i]), 1e-300))));
  return worst;
}

/** H at s of the call's system: p x m complex entries */
function systemAt(a: R, s: C): C[][] {
  if (Array.isArray(a.num) && Array.isArray(a.den)) return [[evalTF(a.num, a.den, s)]];
  const B = a.B as Matrix;
  const D = Array.isArray(a.D) && a.D.length ? (a.D as Matrix) : (a.C as Matrix).map(() => B[0].map(() => 0));
  const h = evalSS(a.A, B, a.C, D, s);
  return h.re.to2DArray().map((row, i) => row.map((x, j) => [x, h.im.get(i, j)] as C));
}

export function padeChecks(args: R, r: R): Check[] {
  const T = args.T as number;
  const n = r.N as number;
  const m = r.numdeg as number;
  const checks: Check[] = [];
  if (n !== args.N) checks.push({ name: 'order', ok: false, detail: `the result has order ${n}, the call asked for ${args.N}` });
  const pn = r.padeNum as number[],
    pd = r.padeDen as number[];
  if (T === 0) {
    checks.push({ name: 'no delay', ok: coefDiff(pn, [1]) === 0 && coefDiff(pd, [1]) === 0, detail: 'T = 0: the approximant is 1/1' });
    return [...checks, ...systemChecks(args, r, pn, pd, T)];
  }
  // 1. the closed form with exact factorials, scaled by T^k and made monic
  const ex = padeExact(m, n);
  const num = ex.num.map((c, k) => c * T ** k);
  const den = ex.den.map((c, k) => c * T ** k);
  const lead = den[n];
  const refNum = num.map((c) => c / lead).reverse(),
    refDen = den.map((c) => c / lead).reverse();
  const cd = Math.max(coefDiff(pn, refNum), coefDiff(pd, refDen));
  checks.push(check('coefficients', cd, 1e-11, 'coefficients equal the closed form (2N−k)!N!/((2N)!k!(N−k)!)(∓T)^k, exact factorials'));
  // 2. e^{−jωT} matched within the Padé remainder at small ωT
  const c0 = ratio(fact(m) * fact(n), fact(m + n) * fact(m + n + 1));
  let worst = 0;
  for (const x of [0.05, 0.2, 0.5]) {
    const h = evalTF(pn, pd, [0, x / T]);
    const e: C = [Math.cos(x), -Math.sin(x)];
    const err = cabs([h[0] - e[0], h[1] - e[1]]);
    const bound = 3 * c0 * x ** (m + n + 1) + 1e-12;
    worst = Math.max(worst, err / bound);
  }
  checks.push(check('matches the delay', worst, 1, `|H(jω) − e^(−jωT)| within the Padé remainder bound at ωT = 0.05, 0.2, 0.5 (worst ratio to the bound)`));
  // 3. all-pass
  if (m === n) {
    let dev = 0;
    for (const x of [0.3, 1, 3, 10, 30]) dev = Math.max(dev, Math.abs(cabs(evalTF(pn, pd, [0, x / T])) - 1));
    checks.push(check('all-pass', dev, 1e-9, '|H(jω)| = 1 at ωT = 0.3, 1, 3, 10, 30'));
  }
  // 4. Hurwitz denominator
  const poles = safeEigenvalues(companion(pd));
  const maxRe = Math.max(...poles.map((p) => p[0]));
  checks.push({
    name: 'stable',
    ok: maxRe < 0,
    value: maxRe,
    detail: `the approximant's poles (independent eigensolver) in the left half-plane, largest real part ${sci(maxRe)}`,
  });
  return [...checks, ...systemChecks(args, r, pn, pd, T)];
}

/** with a system: the result's response equals G(s)·R(s) at test points, and num/den agrees with A, B, C, D */
function systemChecks(args: R, r: R, pn: number[], pd: number[], T: number): Check[] {
  const hasSys = Array.isArray(args.num) || Array.isArray(args.A);
  if (!hasSys) {
    // the approximant alone is num/den
    const same = Array.isArray(r.num) && coefDiff(r.num, pn) === 0 && coefDiff(r.den, pd) === 0;
    return [{ name: 'result', ok: same, detail: same ? 'num/den is the approximant' : 'num/den is not the approximant' }];
  }
  const w0 = T > 0 ? 1 / T : 1;
  const pts: C[] = [
    [0, 0.37 * w0],
    [0, 1.3 * w0],
    [0.21 * w0, 2.9 * w0],
    [-0.05 * w0, 7.1 * w0],
  ];
  let worst = 0,
    worstTf = 0;
  const hasSS = Array.isArray(r.A) && r.A.length > 0;
  for (const s of pts) {
    const G = systemAt(args, s);
    const Rs = evalTF(pn, pd, s);
    const want = G.map((row) => row.map(([a, b]) => [a * Rs[0] - b * Rs[1], a * Rs[1] + b * Rs[0]] as C));
    const scale = Math.max(1e-300, ...want.flat().map(cabs));
    if (hasSS || (Array.isArray(r.A) && Array.isArray(r.D))) {
      const got = systemAt({ A: r.A, B: r.B, C: r.C, D: r.D }, s);
      if (got.length !== want.length || got[0].length !== want[0].length)
        return [{ name: 'size', ok: false, detail: 'the result has another number of inputs or outputs' }];
      got.forEach((row, i) => row.forEach((g, j) => (worst = Math.max(worst, cabs([g[0] - want[i][j][0], g[1] - want[i][j][1]]) / scale))));
    }
    if (Array.isArray(r.num) && Array.isArray(r.den)) {
      const g = evalTF(r.num, r.den, s);
      worstTf = Math.max(worstTf, cabs([g[0] - want[0][0][0], g[1] - want[0][0][1]]) / scale);
    }
  }
  const out: Check[] = [check('series with the delay', worst, 1e-8, 'C(sI − A)⁻¹B + D equals G(s)·R(s) at four test points (dense complex solves)')];
  if (Array.isArray(r.num)) out.push(check('transfer function', worstTf, 1e-8, 'num/den equals G(s)·R(s) at the test points'));
  return out;
}

export function thiranChecks(args: R, r: R): Check[] {
  const D = args.tau / args.Ts;
  const num = r.num as number[],
    den = r.den as number[];
  const k = Math.round(D);
  if (r.integer) {
    const exact =
      Math.abs(D - k) <= 1e-9 * Math.max(1, D) &&
      num.length === 1 &&
      num[0] === 1 &&
      den.length === k + 1 &&
      den[0] === 1 &&
      den.slice(1).every((x) => x === 0);
    return [{ name: 'whole samples', ok: exact && r.order === k, detail: `tau/Ts = ${D} is ${k} samples: H(z) = z^−${k}` }];
  }
  const N = Math.ceil(D);
  const checks: Check[] = [];
  // 1. the coefficients by the telescoped product
  const a = [1];
  let binom = 1;
  for (let j = 1; j <= N; j++) {
    binom = (binom * (N - j + 1)) / j;
    let p = 1;
    for (let i = 0; i < j; i++) p *= (D - N + i) / (D + 1 + i);
    a.push((j % 2 ? -1 : 1) * binom * p);
  }
  const scale = Math.max(...a.map(Math.abs));
  const cd = den.length === a.length ? Math.max(...a.map((x, i) => Math.abs(den[i] - x))) / scale : Infinity;
  checks.push(check('coefficients', cd, 1e-10, `denominator equals a_k = (−1)^k C(N,k) Π_{j<k} (D−N+j)/(D+1+j), N = ${N}`));
  checks.push({ name: 'order', ok: r.order === N && den.length === N + 1, detail: `order ceil(tau/Ts) = ${N}` });
  // 2. all-pass
  let dev = 0;
  for (const th of [0.1, 0.7, 1.9, 3]) dev = Math.max(dev, Math.abs(cabs(evalTF(num, den, [Math.cos(th), Math.sin(th)])) - 1));
  checks.push(check('all-pass', dev, 1e-9, '|H(e^{jθ})| = 1 at θ = 0.1, 0.7, 1.9, 3'));
  // 3. group delay at DC: τ = −Re(z B'/B − z A'/A) at z = 1 = Σ k·(A-part) … from the derivatives
  const der = (p: number[]) => p.slice(0, -1).map((c, i) => c * (p.length - 1 - i));
  const at1 = (p: number[]) => polyval(p, [1, 0])[0];
  const gd = -(at1(der(num)) / at1(num) - at1(der(den)) / at1(den));
  checks.push(check('group delay', Math.abs(gd - D) / Math.max(1, D), 1e-9, `group delay at DC = tau/Ts = ${D.toPrecision(6)} samples`));
  // 4. poles inside the unit circle
  const poles = safeEigenvalues(companion(den));
  const rho = Math.max(0, ...poles.map(cabs));
  checks.push({
    name: 'stable',
    ok: rho < 1,
    value: rho,
    detail: `poles inside the unit circle (independent eigensolver), largest |z| = ${rho.toPrecision(6)}`,
  });
  return checks;
}
