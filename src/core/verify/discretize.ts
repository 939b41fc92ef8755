/**
 * Independent checks of the conversions between continuous and discrete time (c2d's methods,
 * d2c, d2d) and of evalfr. They take routes the solvers do not:
 * - substitution methods (tustin with prewarp, euler, backward_diff; d2c tustin): the discrete
 *   transfer function at points z equals the continuous one at s(z), by dense complex solves;
 * - prewarp: the two frequency responses agree at the prewarp frequency;
 * - impulse invariance: the discrete pulse response equals Ts times samples of C e^{At} B
 *   (mathjs's exponential);
 * - matched: poles (and zeros) by the verifier's own eigensolver mapped by e^{s·Ts}, the
 *   low-frequency gain by evaluation near s = 0;
 * - d2c zoh: the exponential of the result's [A B; 0 0]·Ts (mathjs) gives [Ad Bd] back, where
 *   the solver took a matrix logarithm;
 * - d2d: the new model's augmented matrix to the power q equals the old one's to the power p
 *   for the ratio p/q (repeated products), where the solver took powers or a logarithm;
 * - evalfr: a dense complex solve (state space) or the factored form K·Π(s − z)/Π(s − p)
 *   (transfer function), where the solver used a Hessenberg solve or Horner's rule.
 */
import { Matrix as M } from 'ml-matrix';
import type { Complex, Matrix } from '../types.js';
import type { Check } from './index.js';
import { companion, evalSS, evalTF, verifySystem } from './systems.js';
import { check, froNorm, matchedDistances, safeEigenvalues, safeExpm, safeSingularValues, sci, strip } from './numeric.js';

type C = Complex;
type R = Record<string, any>;

const cabs = ([a, b]: C) => Math.hypot(a, b);
const cmul = ([a, b]: C, [c, d]: C): C => [a * c - b * d, a * d + b * c];
const cdiv = ([a, b]: C, [c, d]: C): C => {
  const q = c * c + d * d;
  return [(a * c + b * d) / q, (b * c - a * d) / q];
};
const cexp = ([a, b]: C): C => [Math.exp(a) * Math.cos(b), Math.exp(a) * Math.sin(b)];

const isTf = (a: R) => Array.isArray(a.num) && Array.isArray(a.den);

/**
 * The controllable canonical form of num/den (the form SciPy's tf2ss writes, so the solver's
 * matrices for a transfer function are in these coordinates): the verifier's own, from the
 * definition.
 */
function canonical(num: number[], den: number[]): { A: Matrix; B: Matrix; C: Matrix; D: Matrix } {
  const d0 = strip(den);
  const a = d0[0];
  const dn = d0.map((v) => v / a);
  const n = dn.length - 1;
  const nn = strip(num).map((v) => v / a);
  const np = [...new Array(Math.max(0, n + 1 - nn.length)).fill(0), ...nn];
  const d = np[0];
  const A = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === 0 ? -dn[j + 1] : i === j + 1 ? 1 : 0)));
  const B = Array.from({ length: n }, (_, i) => [i === 0 ? 1 : 0]);
  const Cm = n ? [Array.from({ length: n }, (_, j) => np[j + 1] - d * dn[j + 1])] : [[]];
  return { A, B, C: Cm, D: [[d]] };
}

/** the model of a call's arguments as (A, B, C, D) (num/den: the canonical form) */
function modelOf(a: R): { A: Matrix; B: Matrix; C: Matrix; D: Matrix } {
  if (isTf(a)) return canonical(a.num, a.den);
  const C0 = a.C as Matrix;
  const B0 = a.B as Matrix;
  const D = Array.isArray(a.D) && a.D.length ? (a.D as Matrix) : C0.map(() => (B0[0] ?? []).map(() => 0));
  return { A: a.A, B: B0, C: C0, D };
}

/** H at s, every entry, of a model given as num/den or (A, B, C, D) */
function hAt(sys: R, s: C): C[] {
  if (isTf(sys)) return [evalTF(sys.num, sys.den, s)];
  const m = modelOf(sys);
  if (!m.A.length) return m.D.flat().map((v) => [v, 0] as C);
  const h = evalSS(m.A, m.B, m.C, m.D, s);
  const re = h.re.to2DArray().flat(),
    im = h.im.to2DArray().flat();
  return re.map((x, i) => [x, im[i]] as C);
}

/** worst relative difference of two lists of complex samples, floored at 1e-3 of the largest */
function worstRel(a: C[][], b: C[][]): number {
  const big = Math.max(1e-300, ...b.flat().map(cabs));
  let w = 0;
  a.forEach((row, i) =>
    row.forEach((z, j) => {
      const y = b[i][j];
      w = Math.max(w, cabs([z[0] - y[0], z[1] - y[1]]) / Math.max(cabs(y), 1e-3 * big));
    }),
  );
  return w;
}

/** points off the real axis on a circle of radius r (upper half plane) */
const circle = (r: number, k: number): C[] =>
  Array.from({ length: k }, (_, i) => [r * Math.cos((Math.PI * (i + 0.5)) / k), r * Math.sin((Math.PI * (i + 0.5)) / k)]);

const infNorm = (A: Matrix) => Math.max(1, ...A.map((r) => r.reduce((s, v) => s + Math.abs(v), 0)));

/** s(z) of a substitution method */
function substitution(method: string, Ts: number, prewarp: number | undefined): (z: C) => C {
  if (method === 'euler') return (z) => [(z[0] - 1) / Ts, z[1] / Ts];
  if (method === 'backward_diff')
    return (z) => {
      const q = cdiv([z[0] - 1, z[1]], z);
      return [q[0] / Ts, q[1] / Ts];
    };
  const c = prewarp !== undefined ? prewarp / Math.tan((prewarp * Ts) / 2) : 2 / Ts;
  return (z) => {
    const q = cdiv([z[0] - 1, z[1]], [z[0] + 1, z[1]]);
    return [c * q[0], c * q[1]];
  };
}

/** the discrete model of a result: its matrices, or num/den when those are all it has states for */
const resultDiscrete = (r: R, Ts: number): R => (isTf(r) ? { num: r.num, den: r.den, Ts } : { A: r.Ad, B: r.Bd, C: r.Cd, D: r.Dd, Ts });
const resultContinuous = (r: R): R => (isTf(r) ? { num: r.num, den: r.den } : { A: r.A, B: r.B, C: r.C, D: r.D });

/** num/den of a result against its own matrices, at 8 points: the two forms are one model */
function formsAgree(r: R, keys: [string, string, string, string], label: string): Check | undefined {
  if (!isTf(r) || !Array.isArray(r[keys[0]]) || !(r[keys[0]] as Matrix).length) return undefined;
  const m = { A: r[keys[0]], B: r[keys[1]], C: r[keys[2]], D: r[keys[3]] };
  const pts = circle(1.5 * infNorm(m.A), 8);
  const err = worstRel(
    pts.map((z) => [evalTF(r.num, r.den, z)]),
    pts.map((z) => hAt(m, z)),
  );
  return check('two forms', err, 1e-8, `num/den equals ${label} at 8 points`);
}

/** roots of a polynomial by the verifier's eigensolver */
function roots(p: number[]): C[] {
  const q = strip(p);
  if (q.length <= 1) return [];
  return safeEigenvalues(companion(q));
}

/** multiset distance of two root lists, relative to their size */
function rootDistance(a: C[], b: C[]): number {
  if (a.length !== b.length) return Infinity;
  if (!a.length) return 0;
  const scale = Math.max(1, ...[...a, ...b].map(cabs));
  return Math.max(...matchedDistances(a, b)) / scale;
}

/**
 * How far a polynomial is from the monic polynomial with these roots, coefficient by
 * coefficient, relative to the coefficients of ∏(z + |r|) (the size the roots allow). Unlike a
 * distance between root lists, this is well conditioned for clustered roots: the eigensolver's
 * roots of a cluster scatter by ε^(1/m), but they are the exact roots of a polynomial within ε
 * of the given one, and e^{s·Ts} maps such a scatter to one whose symmetric functions (the
 * coefficients) move by O(ε) only.
 */
function polyFromRootsDistance(roots: C[], p: number[]): number {
  const q = strip(p);
  if (q.length - 1 !== roots.length) return Infinity;
  let ref: C[] = [[1, 0]];
  let size: number[] = [1];
  for (const r of roots) {
    const next: C[] = [...ref, [0, 0]];
    for (let i = 1; i < next.length; i++) next[i] = [next[i][0] - cmul(r, ref[i - 1])[0], next[i][1] - cmul(r, ref[i - 1])[1]];
    ref = next;
    const sz = [...size, 0];
    for (let i = 1; i < sz.length; i++) sz[i] += cabs(r) * size[i - 1];
    size = sz;
  }
  const lead = q[0];
  let err = 0;
  for (let i = 0; i < q.length; i++) err = Math.max(err, Math.hypot(q[i] / lead - ref[i][0], ref[i][1]) / Math.max(size[i], 1e-300));
  return err;
}

/**
 * The continuous SISO numerator from H(s)·den(s) at n + 1 points on a circle (an inverse DFT:
 * well conditioned there), for a state-space model whose zeros the matched check needs.
 */
function numeratorOf(sys: R, den: number[]): number[] {
  const n = den.length - 1;
  const rho = infNorm(sys.A);
  const N = n + 1;
  const vals: C[] = [];
  for (let k = 0; k < N; k++) {
    const th = (2 * Math.PI * (k + 0.25)) / N;
    const s: C = [rho * Math.cos(th), rho * Math.sin(th)];
    let d: C = [0, 0];
    for (const c of den) d = [d[0] * s[0] - d[1] * s[1] + c, d[0] * s[1] + d[1] * s[0]];
    vals.push(cmul(hAt(sys, s)[0], d));
  }
  // p(s) = Σ c_j s^j: c_j = (1/N) Σ_k p(s_k) e^{-ij θ_k} / ρ^j
  const coef: number[] = [];
  for (let j = 0; j <= n; j++) {
    let acc: C = [0, 0];
    for (let k = 0; k < N; k++) {
      const th = (2 * Math.PI * (k + 0.25)) / N;
      acc = [acc[0] + cmul(vals[k], [Math.cos(-j * th), Math.sin(-j * th)])[0], acc[1] + cmul(vals[k], [Math.cos(-j * th), Math.sin(-j * th)])[1]];
    }
    coef.push(acc[0] / N / rho ** j);
  }
  const hi = coef.reverse();
  const big = Math.max(...hi.map(Math.abs));
  // coefficients at rounding level of the largest are zeros of the degree
  let i = 0;
  while (i < hi.length - 1 && Math.abs(hi[i]) <= 1e-10 * big) i++;
  return hi.slice(i);
}

/** the continuous SISO (num, den) of a call's model, by the verifier's own routes */
function continuousTf(sys: R): { num: number[]; den: number[] } {
  if (isTf(sys)) return { num: strip(sys.num), den: strip(sys.den) };
  const ev = safeEigenvalues(sys.A);
  let den: C[] = [[1, 0]];
  for (const p of ev) {
    const next: C[] = [...den, [0, 0]];
    for (let i = 1; i < next.length; i++) next[i] = [next[i][0] - cmul(p, den[i - 1])[0], next[i][1] - cmul(p, den[i - 1])[1]];
    den = next;
  }
  const d = den.map((z) => z[0]);
  return { num: numeratorOf(sys, d), den: d };
}

/**
 * Matched pole-zero between a continuous (num, den) and a discrete (numd, dend): poles and
 * finite zeros by e^{s·Ts}, the extra discrete zeros at z = −1 (c2d: r − 1 of them), and the
 * low-frequency gain lim s^k G(s) = lim ((z − 1)/Ts)^k G_d(z) evaluated near s = 0.
 */
function matchedChecks(cont: { num: number[]; den: number[] }, disc: { num: number[]; den: number[] }, Ts: number, dropped: number | undefined): Check[] {
  const pc = roots(cont.den),
    zc = roots(cont.num);
  const pd = roots(disc.den),
    zd = roots(disc.num);
  const checks: Check[] = [];
  const mappedP = pc.map(([a, b]) => cexp([a * Ts, b * Ts]));
  // compared as polynomials: clustered poles (a multiple pole) scatter as roots but not as coefficients
  checks.push(
    check(
      'poles e^{p·Ts}',
      Math.min(rootDistance(mappedP, pd), polyFromRootsDistance(mappedP, disc.den)),
      1e-7,
      'the discrete denominator is ∏(z − e^{p·Ts}) over the continuous poles (independent eigensolver)',
    ),
  );
  const extra = dropped ?? zd.length - zc.length;
  const mappedZ = [...zc.map(([a, b]) => cexp([a * Ts, b * Ts])), ...Array.from({ length: Math.max(0, extra) }, () => [-1, 0] as C)];
  checks.push(
    check(
      'zeros e^{z·Ts}',
      extra < 0 ? Infinity : Math.min(rootDistance(mappedZ, zd), polyFromRootsDistance(mappedZ, disc.num)),
      1e-5,
      `the discrete zeros are e^{z·Ts} of the continuous zeros${extra > 0 ? ` and ${extra} at z = −1 (zeros at s = ∞)` : ''}`,
    ),
  );
  if (strip(cont.num).every((v) => v === 0) || strip(disc.num).every((v) => v === 0)) {
    const both = strip(cont.num).every((v) => v === 0) && strip(disc.num).every((v) => v === 0);
    checks.push({ name: 'gain', ok: both, detail: both ? 'both are zero' : 'one transfer function is zero and the other is not' });
    return checks;
  }
  // k = integrators: discrete poles at z = 1 less zeros there
  const near1 = (l: C[]) => l.filter((z) => cabs([z[0] - 1, z[1]]) <= 1e-6).length;
  const k = near1(pd) - near1(zd);
  const scales = [...pc, ...zc].map(cabs).filter((x) => x > 1e-9 / Ts);
  const s0 = 1e-7 * Math.min(1 / Ts, ...scales);
  const g = evalTF(cont.num, cont.den, [s0, 0]);
  const z0: C = [Math.exp(s0 * Ts), 0];
  const gd = evalTF(disc.num, disc.den, z0);
  const lhs = g[0] * s0 ** k;
  const rhs = gd[0] * ((z0[0] - 1) / Ts) ** k;
  const err = Math.abs(lhs - rhs) / Math.max(Math.abs(lhs), 1e-300);
  checks.push(check('low-frequency gain', err, 1e-4, `lim s^k·G(s) = lim ((z − 1)/Ts)^k·G_d(z) (k = ${k}), evaluated at s = ${sci(s0)}`));
  return checks;
}

/** the discrete pulse response equals Ts·C e^{A k Ts} B at k = 0..5 (impulse invariance) */
function impulseCheck(args: R, r: R): Check {
  const c = modelOf(args);
  const Ts = args.Ts as number;
  const n = c.A.length;
  if (!n) {
    const zero = (r.Dd as Matrix).every((row) => row.every((v) => v === 0));
    return { name: 'pulse response', ok: zero, detail: zero ? 'no states and D = 0: the pulse response is 0' : 'a static gain with D = 0 must stay 0' };
  }
  const Ad = new M(r.Ad),
    Bd = new M(r.Bd),
    Cd = new M(r.Cd),
    Dd = new M(r.Dd);
  const B = new M(c.B),
    Cm = new M(c.C);
  let worst = 0;
  let P = M.eye(n);
  let big = 0;
  const got: M[] = [],
    want: M[] = [];
  for (let k = 0; k <= 5; k++) {
    const E = safeExpm(c.A, k * Ts);
    if (!E) return { name: 'pulse response', ok: false, detail: 'e^{A·k·Ts} overflows: nothing to compare with' };
    want.push(Cm.mmul(new M(E)).mmul(B).mul(Ts));
    got.push(k === 0 ? Dd : Cd.mmul(P).mmul(Bd));
    if (k > 0) P = P.mmul(Ad);
    big = Math.max(big, froNorm(want[k]));
  }
  for (let k = 0; k <= 5; k++) worst = Math.max(worst, froNorm(got[k].clone().sub(want[k])) / Math.max(big, 1e-300));
  return check('pulse response', worst, 1e-9, 'the pulse response at k = 0..5 equals Ts·C e^{A·k·Ts} B (sampled continuous impulse response, times Ts)');
}

export function c2dChecks(args: R, r: R): Check[] {
  const Ts = args.Ts as number;
  const method = (r.method ?? args.method ?? 'zoh') as string;
  const prewarp = (r.prewarp ?? args.prewarp) as number | undefined;
  const checks: Check[] = [];
  const cont = isTf(args) ? { num: args.num, den: args.den } : modelOf(args);
  if (method === 'matched') {
    const disc = { num: r.num as number[], den: r.den as number[] };
    const ct = continuousTf(cont);
    const rel = strip(ct.den).length - strip(ct.num).length;
    checks.push(...matchedChecks(ct, disc, Ts, strip(ct.num).every((v) => v === 0) ? undefined : Math.max(0, rel - 1)));
  } else if ((method === 'zoh' || method === 'foh' || method === 'tustin') && prewarp === undefined) {
    // the existing checks (e^{A·Ts}, the bilinear map) on the model in the solver's coordinates
    const ssArgs = { ...modelOf(args), Ts, method };
    checks.push(...(verifySystem('c2d', ssArgs, r) ?? []));
  } else if (method === 'impulse') checks.push(impulseCheck(args, r));
  else {
    const sOf = substitution(method, Ts, prewarp);
    const d = resultDiscrete(r, Ts);
    const pts = circle(1.5 * Math.max(1, ...(isTf(d) ? [2] : [infNorm(d.A.length ? d.A : [[1]])])), 8).map(([a, b]): C => [a + 0.01, b]);
    const err = worstRel(
      pts.map((z) => hAt(d, z)),
      pts.map((z) => hAt(cont, sOf(z))),
    );
    const what = method === 'euler' ? 's = (z − 1)/Ts' : method === 'backward_diff' ? 's = (z − 1)/(Ts·z)' : 's = (w/tan(w·Ts/2))·(z − 1)/(z + 1)';
    checks.push(check('substitution', err, 1e-8, `H_d(z) = H(${what}) at 8 points`));
    if (prewarp !== undefined) {
      const w = prewarp;
      const e = worstRel([hAt(d, [Math.cos(w * Ts), Math.sin(w * Ts)])], [hAt(cont, [0, w])]);
      checks.push(check('prewarp frequency', e, 1e-8, `H_d(e^{j·w·Ts}) = H(j·w) at the prewarp frequency w = ${w} rad/s`));
    }
  }
  const f = formsAgree(r, ['Ad', 'Bd', 'Cd', 'Dd'], 'Cd(zI − Ad)⁻¹Bd + Dd');
  if (f) checks.push(f);
  return checks;
}

export function d2cChecks(args: R, r: R): Check[] {
  const Ts = args.Ts as number;
  const method = (r.method ?? args.method ?? 'zoh') as string;
  const checks: Check[] = [];
  const disc = isTf(args) ? { num: args.num, den: args.den } : modelOf(args);
  if (method === 'matched') {
    const dt = continuousTfDiscrete(disc);
    checks.push(...matchedChecks({ num: r.num, den: r.den }, dt, Ts, undefined));
  } else if (method === 'zoh') {
    const d = modelOf(disc);
    const n = d.A.length;
    if (!n) checks.push(check('static gain', worstRel([hAt({ A: r.A, B: r.B, C: r.C, D: r.D }, [1, 0])], [hAt(d, [1, 0])]), 0, 'no states: D unchanged'));
    else {
      const m = d.B[0].length;
      const Aug = [...(r.A as Matrix).map((row, i) => [...row, ...(r.B as Matrix)[i]]), ...Array.from({ length: m }, () => new Array(n + m).fill(0))];
      const E = safeExpm(Aug, Ts);
      const want = new M(d.A.map((row, i) => [...row, ...d.B[i]]));
      const got = E ? new M(E.slice(0, n)) : null;
      const err = got ? froNorm(got.sub(want)) / Math.max(froNorm(want), 1e-300) : Infinity;
      checks.push(check('c2d zoh gives the model back', err, 1e-9, '[Ad Bd] equals the top of e^{[A B; 0 0]·Ts} of the result (an independent exponential)'));
      const same = JSON.stringify(r.C) === JSON.stringify(d.C) && JSON.stringify(r.D) === JSON.stringify(d.D);
      checks.push({ name: 'C, D', ok: same, detail: same ? 'C and D are unchanged (a zero-order hold does not change them)' : 'C and D must equal Cd and Dd' });
    }
  } else {
    const sOf = substitution('tustin', Ts, r.prewarp);
    const c = resultContinuous(r);
    const pts = circle(1.5, 8).map(([a, b]): C => [a + 0.01, b]);
    const err = worstRel(
      pts.map((z) => hAt(c, sOf(z))),
      pts.map((z) => hAt(disc, z)),
    );
    checks.push(check('bilinear map', err, 1e-8, 'H(s(z)) = H_d(z) at 8 points, s = c·(z − 1)/(z + 1)'));
  }
  const f = formsAgree(r, ['A', 'B', 'C', 'D'], 'C(sI − A)⁻¹B + D');
  if (f) checks.push(f);
  return checks;
}

/** the discrete SISO (num, den) of a d2c argument (its transfer function, or its matrices') */
function continuousTfDiscrete(disc: R): { num: number[]; den: number[] } {
  return continuousTf(disc);
}

/** p/q ≈ x with q ≤ 64 (continued fractions), or undefined */
function rational(x: number): [number, number] | undefined {
  for (let q = 1; q <= 64; q++) {
    const p = Math.round(x * q);
    if (p >= 1 && Math.abs(p / q - x) <= 1e-12 * x) return [p, q];
  }
  return undefined;
}

function power(A: M, k: number): M {
  let R = M.eye(A.rows);
  for (let i = 0; i < k; i++) R = R.mmul(A);
  return R;
}

export function d2dChecks(args: R, r: R): Check[] {
  const d = modelOf(args);
  const n = d.A.length;
  if (!n) return [check('static gain', worstRel([hAt(resultDiscrete(r, r.Ts), [1, 0])], [hAt(d, [1, 0])]), 0, 'no states: D unchanged')];
  const m = d.B[0].length;
  const aug = (A: Matrix, B: Matrix) =>
    new M([...A.map((row, i) => [...row, ...B[i]]), ...Array.from({ length: m }, (_, i) => Array.from({ length: n + m }, (_, j) => (j === n + i ? 1 : 0)))]);
  const M1 = aug(d.A, d.B),
    M2 = aug(r.Ad, r.Bd);
  const pq = rational((args.newTs as number) / (args.Ts as number));
  const checks: Check[] = [];
  if (pq && pq[0] <= 1000) {
    const [p, q] = pq;
    const lhs = power(M2, q),
      rhs = power(M1, p);
    const err = froNorm(lhs.clone().sub(rhs)) / Math.max(froNorm(rhs), 1e-300);
    checks.push(
      check(
        'powers',
        err,
        1e-8 * Math.max(p, q),
        q === 1
          ? `[Ad2 Bd2; 0 I] equals [Ad Bd; 0 I]^${p} (repeated products)`
          : `[Ad2 Bd2; 0 I]^${q} equals [Ad Bd; 0 I]^${p} (Ts2/Ts = ${p}/${q}, repeated products)`,
      ),
    );
  } else {
    // an irrational-looking ratio: the two augmented matrices commute and the eigenvalues map by λ^(Ts2/Ts)
    const c = froNorm(M1.mmul(M2).sub(M2.mmul(M1))) / Math.max(froNorm(M1) * froNorm(M2), 1e-300);
    checks.push(check('commute', c, 1e-10, 'the new and old augmented matrices commute (functions of one generator)'));
    const ratio = (args.newTs as number) / (args.Ts as number);
    const mapped = safeEigenvalues(d.A).map(([a, b]): C => {
      const lr = Math.log(Math.hypot(a, b)) * ratio,
        th = Math.atan2(b, a) * ratio;
      return [Math.exp(lr) * Math.cos(th), Math.exp(lr) * Math.sin(th)];
    });
    checks.push(check('poles', rootDistance(mapped, safeEigenvalues(r.Ad)), 1e-7, 'the new poles are λ^(Ts2/Ts) of the old'));
  }
  const diff = (X: Matrix, Y: Matrix) => (X.length !== Y.length ? Infinity : Math.max(0, ...X.flatMap((row, i) => row.map((v, j) => Math.abs(v - Y[i][j])))));
  const cd = Math.max(diff(r.Cd, d.C), diff(r.Dd, d.D)) / Math.max(1, ...d.C.flat().map(Math.abs), ...d.D.flat().map(Math.abs));
  checks.push(check('C, D', cd, 1e-14, 'C and D unchanged (a zero-order hold does not change them)'));
  const f = formsAgree(r, ['Ad', 'Bd', 'Cd', 'Dd'], 'Cd(zI − Ad)⁻¹Bd + Dd');
  if (f) checks.push(f);
  return checks;
}

export function evalfrChecks(args: R, r: R): Check[] {
  const pt = Array.isArray(args.s) && Array.isArray(args.s[0]) ? args.s[0] : args.s;
  const s: C = typeof pt === 'number' ? [pt, 0] : [pt[0], pt[1] ?? 0];
  let want: C[];
  let how: string;
  let kappa = 1;
  if (isTf(args)) {
    // the factored form K·Π(s − z)/Π(s − p), roots by the verifier's eigensolver
    const num = strip(args.num),
      den = strip(args.den);
    let h: C = [num[0] / den[0], 0];
    for (const z of roots(num)) h = cmul(h, [s[0] - z[0], s[1] - z[1]]);
    for (const p of roots(den)) h = cdiv(h, [s[0] - p[0], s[1] - p[1]]);
    want = [h];
    how = 'K·Π(s − z)/Π(s − p), roots by an independent eigensolver';
  } else {
    want = hAt(args, s);
    how = 'a dense complex solve of (sI − A)X = B';
    // both solves lose about κ(sI − A)·ε of relative accuracy: a badly scaled A (entries from 1e-5
    // to 6e4) at a point near its spectrum is no wrong answer at 1e-8
    const A = args.A as Matrix;
    const n = A.length;
    if (n) {
      const big = Array.from({ length: 2 * n }, (_, i) =>
        Array.from({ length: 2 * n }, (_, j) => {
          const [r, c] = [i % n, j % n];
          const re = (r === c ? s[0] : 0) - A[r][c];
          const im = r === c ? s[1] : 0;
          return i < n === j < n ? re : i < n ? -im : im;
        }),
      );
      const sv = safeSingularValues(big);
      kappa = sv.length ? sv[0] / Math.max(sv[sv.length - 1], 1e-300) : 1;
    }
  }
  const got = (r.value as C[][]).flat();
  const checks: Check[] = [];
  if (got.length !== want.length) return [{ name: 'value', ok: false, detail: `value has ${got.length} entries, the model ${want.length}` }];
  // the factored form near a root loses relative accuracy by the roots' conditioning: 1e-7
  const tol = isTf(args) ? 1e-7 : Math.max(1e-9, 100 * Math.max(1, (args.A as Matrix).length) * Number.EPSILON * kappa);
  checks.push(check('value', worstRel([got], [want]), tol, `H at the point by ${how}${tol > 1e-9 ? ` (κ(sI − A) = ${sci(kappa)})` : ''}`));
  if (r.magnitude !== undefined) {
    const [a, b] = got[0];
    const e = Math.abs(r.magnitude - Math.hypot(a, b)) / Math.max(Math.hypot(a, b), 1e-300);
    let dp = Math.abs(r.phaseDeg - (Math.atan2(b, a) * 180) / Math.PI);
    dp = Math.min(dp, Math.abs(dp - 360));
    checks.push(check('magnitude and phase', Math.max(e, dp / 360), 1e-12, 'magnitude and phase of the value'));
  }
  return checks;
}
