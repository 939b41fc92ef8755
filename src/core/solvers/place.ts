/**
 * Pole placement by state feedback u = -Kx, so that eig(A - BK) are the requested poles.
 * Single input: K is unique; it is computed in controller-Hessenberg coordinates (an
 * orthogonal staircase) as K = e_n' p(H) / (b1·h21·...·h(n,n-1)), which handles repeated
 * poles. Several inputs: the robust eigenvector method of Kautsky, Nichols and Van Dooren
 * (method 0, in complex arithmetic for conjugate pairs), then K = Z^-1 U0' (A - X Λ X^-1).
 * Uncontrollable (A, B) is refused, naming the modes that feedback cannot move.
 */
import { ControlError } from '../errors.js';
import type { ToolDef } from '../tools/types.js';
import type { Complex } from '../types.js';
import { complexList, matrix } from '../tools/schema.js';
import { checkMatrix, checkSquare } from '../tools/args.js';
import { eigenvalues } from './_eig.js';
import { EPS, add, copy, hessenberg, lu, luSolve, matmul, normFro, qrp, sub, transpose, zeros, type Mat } from './_dense.js';
import { cplx, sortComplex } from './_sys.js';

// ------------------------------------------------------------------ helpers

/** dimension of the controllable subspace (orthogonal staircase) and the uncontrollable block */
export function controllableDim(A: Mat, B: Mat): { nc: number; Auc: Mat } {
  const n = A.length;
  const tol = 1e2 * n * EPS * Math.max(normFro(A), normFro(B), 1e-300);
  let At = copy(A);
  let blk = copy(B); // current block to compress (rows nc..n-1)
  let nc = 0;
  while (nc < n) {
    const f = qrp(blk, undefined, tol);
    const r = f.rank;
    if (r === 0) break;
    // apply the orthogonal U (on rows/cols nc..n-1) to At
    const U = f.Q;
    const L = n - nc;
    const T = zeros(n, n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) T[i][j] = i === j ? 1 : 0;
    for (let i = 0; i < L; i++) for (let j = 0; j < L; j++) T[nc + i][nc + j] = U[i][j];
    At = matmul(matmul(transpose(T), At), T);
    const nn = nc + r;
    if (nn >= n) {
      nc = n;
      break;
    }
    blk = sub(At, nn, n, nc, nn);
    nc = nn;
  }
  return { nc, Auc: nc < n ? sub(At, nc, n, nc, n) : [] };
}

function parsePoles(raw: unknown[], n: number): Complex[] {
  const p: Complex[] = raw.map((v, i) => {
    if (typeof v === 'number') return [v, 0] as Complex;
    if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'number' && Number.isFinite(x))) return [v[0], v[1]] as Complex;
    throw new ControlError(`poles[${i + 1}] must be a number or an [re, im] pair.`);
  });
  if (p.length !== n)
    throw new ControlError(`place needs exactly ${n} poles (one per state of A), but ${p.length} were given.`);
  // conjugate pairs, made exact
  const used = new Array(n).fill(false);
  const out: Complex[] = [];
  for (let i = 0; i < n; i++) {
    if (used[i]) continue;
    used[i] = true;
    const [re, im] = p[i];
    const sc = Math.max(1, Math.hypot(re, im));
    if (Math.abs(im) <= 1e-14 * sc) {
      out.push([re, 0]);
      continue;
    }
    let partner = -1;
    let best = Infinity;
    for (let j = 0; j < n; j++) {
      if (used[j]) continue;
      const d = Math.hypot(p[j][0] - re, p[j][1] + im);
      if (d < best) ((best = d), (partner = j));
    }
    if (partner < 0 || best > 1e-9 * sc)
      throw new ControlError(
        `pole ${re} ${im >= 0 ? '+' : '-'} ${Math.abs(im)}i has no complex-conjugate partner; a real gain K needs conjugate pairs given in full.`,
      );
    used[partner] = true;
    const a = 0.5 * (re + p[partner][0]);
    const b = 0.5 * (Math.abs(im) + Math.abs(p[partner][1]));
    out.push([a, b], [a, -b]);
  }
  return out;
}

// ------------------------------------------------------------------ single input

function placeSiso(A: Mat, b: number[], poles: Complex[]): number[] {
  const n = A.length;
  const { H, Q, b0 } = hessenberg(A, b);
  // v' = e_n' p(H), scaled along the way by 1/(b0 h21 ... h(n,n-1))
  let v = new Array(n).fill(0);
  v[n - 1] = 1;
  const vHfull = (x: number[]) => {
    const y = new Array(n).fill(0);
    for (let i = 0; i < n; i++) {
      const xi = x[i];
      if (xi === 0) continue;
      const Hi = H[i];
      for (let j = Math.max(0, i - 1); j < n; j++) y[j] += xi * Hi[j];
    }
    return y;
  };
  const divisors = [b0!, ...Array.from({ length: n - 1 }, (_, i) => H[i + 1][i])];
  let di = 0;
  const scaleNext = (x: number[]) => {
    if (di < divisors.length) {
      const d = divisors[di++];
      return x.map((t) => t / d);
    }
    return x;
  };
  for (let k = 0; k < n; k++) {
    const [re, im] = poles[k];
    if (im === 0) {
      const y = vHfull(v);
      v = scaleNext(y.map((t, j) => t - re * v[j]));
    } else {
      // conjugate pair: v'(H^2 - 2 re H + |p|^2 I)
      const y1 = vHfull(v);
      const y2 = vHfull(y1);
      const m2 = re * re + im * im;
      v = scaleNext(scaleNext(y2.map((t, j) => t - 2 * re * y1[j] + m2 * v[j])));
      k++; // the partner
    }
  }
  while (di < divisors.length) v = scaleNext(v);
  // back to the original coordinates: K = k~' Q'
  const K = new Array(n).fill(0);
  for (let j = 0; j < n; j++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += v[i] * Q[j][i];
    K[j] = s;
  }
  return K;
}

// ------------------------------------------------------------------ several inputs (KNV0)

interface CM {
  re: Mat;
  im: Mat;
}

/** complex Householder QR of A (L x c): returns the full unitary Q (L x L) */
function cqrQ(A: CM): CM {
  const L = A.re.length;
  const c = L ? A.re[0].length : 0;
  const Rr = copy(A.re);
  const Ri = copy(A.im);
  const Qr: Mat = zeros(L, L);
  const Qi: Mat = zeros(L, L);
  for (let i = 0; i < L; i++) Qr[i][i] = 1;
  for (let k = 0; k < Math.min(c, L - 1); k++) {
    let nx = 0;
    for (let i = k; i < L; i++) nx += Rr[i][k] * Rr[i][k] + Ri[i][k] * Ri[i][k];
    nx = Math.sqrt(nx);
    if (nx === 0) continue;
    const x0r = Rr[k][k];
    const x0i = Ri[k][k];
    const a0 = Math.hypot(x0r, x0i);
    const pr = a0 ? x0r / a0 : 1;
    const pi = a0 ? x0i / a0 : 0;
    // v = x + e^{i arg x0} |x| e1
    const vr: number[] = [];
    const vi: number[] = [];
    for (let i = k; i < L; i++) {
      vr.push(Rr[i][k]);
      vi.push(Ri[i][k]);
    }
    vr[0] += pr * nx;
    vi[0] += pi * nx;
    let vv = 0;
    for (let i = 0; i < vr.length; i++) vv += vr[i] * vr[i] + vi[i] * vi[i];
    if (vv === 0) continue;
    const beta = 2 / vv;
    // R <- R - beta v (v^H R)
    for (let j = k; j < c; j++) {
      let sr = 0;
      let si = 0;
      for (let i = 0; i < vr.length; i++) {
        const rr = Rr[k + i][j];
        const ri = Ri[k + i][j];
        sr += vr[i] * rr + vi[i] * ri;
        si += vr[i] * ri - vi[i] * rr;
      }
      sr *= beta;
      si *= beta;
      for (let i = 0; i < vr.length; i++) {
        Rr[k + i][j] -= vr[i] * sr - vi[i] * si;
        Ri[k + i][j] -= vr[i] * si + vi[i] * sr;
      }
    }
    // Q <- Q - beta (Q v) v^H
    for (let i = 0; i < L; i++) {
      let sr = 0;
      let si = 0;
      for (let l = 0; l < vr.length; l++) {
        const qr = Qr[i][k + l];
        const qi = Qi[i][k + l];
        sr += qr * vr[l] - qi * vi[l];
        si += qr * vi[l] + qi * vr[l];
      }
      sr *= beta;
      si *= beta;
      for (let l = 0; l < vr.length; l++) {
        // (s) * conj(v_l)
        Qr[i][k + l] -= sr * vr[l] + si * vi[l];
        Qi[i][k + l] -= si * vr[l] - sr * vi[l];
      }
    }
  }
  return { re: Qr, im: Qi };
}

/** inverse of a complex n x n matrix (via the real 2n x 2n embedding) */
function cinv(X: CM): CM {
  const n = X.re.length;
  const M = zeros(2 * n, 2 * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      M[i][j] = X.re[i][j];
      M[i][n + j] = -X.im[i][j];
      M[n + i][j] = X.im[i][j];
      M[n + i][n + j] = X.re[i][j];
    }
  const f = lu(M);
  if (f.minPivot === 0) throw new ControlError('place: the closed-loop eigenvector matrix became singular.', 'numerical');
  const rhs = zeros(2 * n, n);
  for (let i = 0; i < n; i++) rhs[i][i] = 1;
  const Y = luSolve(f, rhs);
  return { re: Y.slice(0, n), im: Y.slice(n) };
}

function placeMulti(A: Mat, B: Mat, poles: Complex[]): Mat {
  const n = A.length;
  const m = B[0].length;
  const fb = qrp(B, undefined, 1e2 * Math.max(n, m) * EPS * Math.max(normFro(B), 1e-300));
  const r = fb.rank;
  // B P = Q R  ->  B = U0 Z with U0 = Q(:, 1:r), Z = R(1:r, :) P'
  const U0 = fb.Q.map((row) => row.slice(0, r));
  const U1 = fb.Q.map((row) => row.slice(r));
  const Z = zeros(r, m);
  for (let i = 0; i < r; i++) for (let j = 0; j < m; j++) Z[i][fb.perm[j]] = fb.R[i][j];
  // multiplicities
  for (let i = 0; i < n; i++) {
    let k = 0;
    for (let j = 0; j < n; j++)
      if (Math.hypot(poles[j][0] - poles[i][0], poles[j][1] - poles[i][1]) <= 1e-12 * Math.max(1, Math.hypot(...poles[i]))) k++;
    if (k > r)
      throw new ControlError(
        `place: the pole ${poles[i][0]}${poles[i][1] ? ` ${poles[i][1] > 0 ? '+' : '-'} ${Math.abs(poles[i][1])}i` : ''} is repeated ${k} times but rank(B) = ${r}; with several inputs the robust (eigenvector) method can assign a pole at most rank(B) times. Spread the repeated poles slightly (e.g. -2, -2.01, -1.99).`,
        'infeasible',
      );
  }
  const U1t = transpose(U1);
  const U1tA = matmul(U1t, A);
  // allowed eigenvector subspaces S_j = null(U1'(A - p_j I)), orthonormal bases (n x r, complex)
  const S: CM[] = poles.map(([pr, pi]) => {
    if (n - r === 0) {
      const I = zeros(n, n);
      for (let i = 0; i < n; i++) I[i][i] = 1;
      return { re: I, im: zeros(n, n) };
    }
    // M = U1'A - p U1' ; we need QR of M^H (n x (n-r))
    const Mh: CM = { re: zeros(n, n - r), im: zeros(n, n - r) };
    for (let i = 0; i < n - r; i++)
      for (let j = 0; j < n; j++) {
        const mr = U1tA[i][j] - pr * U1t[i][j];
        const mi = -pi * U1t[i][j];
        Mh.re[j][i] = mr;
        Mh.im[j][i] = -mi;
      }
    const Q = cqrQ(Mh);
    return { re: Q.re.map((row) => row.slice(n - r)), im: Q.im.map((row) => row.slice(n - r)) };
  });
  // initial eigenvectors: deterministic combinations in each subspace
  const X: CM = { re: zeros(n, n), im: zeros(n, n) };
  const setCol = (j: number, xr: number[], xi: number[]) => {
    for (let i = 0; i < n; i++) {
      X.re[i][j] = xr[i];
      X.im[i][j] = xi[i];
    }
  };
  const project = (Sj: CM, yr: number[], yi: number[]): [number[], number[]] => {
    // S S^H y
    const cr = new Array(r).fill(0);
    const ci = new Array(r).fill(0);
    for (let k = 0; k < r; k++)
      for (let i = 0; i < n; i++) {
        cr[k] += Sj.re[i][k] * yr[i] + Sj.im[i][k] * yi[i];
        ci[k] += Sj.re[i][k] * yi[i] - Sj.im[i][k] * yr[i];
      }
    const xr = new Array(n).fill(0);
    const xi = new Array(n).fill(0);
    for (let i = 0; i < n; i++)
      for (let k = 0; k < r; k++) {
        xr[i] += Sj.re[i][k] * cr[k] - Sj.im[i][k] * ci[k];
        xi[i] += Sj.re[i][k] * ci[k] + Sj.im[i][k] * cr[k];
      }
    return [xr, xi];
  };
  const normalize = (xr: number[], xi: number[]): [number[], number[]] | null => {
    let s = 0;
    for (let i = 0; i < n; i++) s += xr[i] * xr[i] + xi[i] * xi[i];
    s = Math.sqrt(s);
    if (!(s > 1e-300)) return null;
    return [xr.map((v) => v / s), xi.map((v) => v / s)];
  };
  const isPairHead = (j: number) => poles[j][1] > 0;
  const partnerOf = (j: number) => j + 1; // parsePoles puts (a + bi, a - bi) next to each other
  for (let j = 0; j < n; j++) {
    if (poles[j][1] < 0) continue;
    const g = Array.from({ length: r }, (_, k) => Math.sin(1.3 * (j + 1) * (k + 1) + 0.7) + 0.1 * (k + 1));
    const xr = new Array(n).fill(0);
    const xi = new Array(n).fill(0);
    for (let i = 0; i < n; i++)
      for (let k = 0; k < r; k++) {
        xr[i] += S[j].re[i][k] * g[k];
        xi[i] += S[j].im[i][k] * g[k];
      }
    const v = normalize(xr, xi)!;
    setCol(j, v[0], v[1]);
    if (isPairHead(j)) setCol(partnerOf(j), v[0], v[1].map((t) => -t));
  }
  // KNV method 0 sweeps: x_j <- P_j (column j of X^-H), normalised. X^-1 is kept up to date
  // by Sherman-Morrison rank-one updates (recomputed at the start of each sweep).
  let Xi = cinv(X);
  const replaceCol = (j: number, xr: number[], xi: number[]): number => {
    // X <- X + u e_j', u = x_new - x_old; returns |1 + (X^-1 u)_j| = |det ratio|
    const ur = xr.map((v, i) => v - X.re[i][j]);
    const ui = xi.map((v, i) => v - X.im[i][j]);
    const wr = new Array(n).fill(0);
    const wi = new Array(n).fill(0);
    for (let i = 0; i < n; i++) {
      let sr = 0;
      let si = 0;
      const Rr = Xi.re[i];
      const Ri = Xi.im[i];
      for (let k = 0; k < n; k++) {
        sr += Rr[k] * ur[k] - Ri[k] * ui[k];
        si += Rr[k] * ui[k] + Ri[k] * ur[k];
      }
      wr[i] = sr;
      wi[i] = si;
    }
    const dr = 1 + wr[j];
    const di = wi[j];
    const dd = dr * dr + di * di;
    setCol(j, xr, xi);
    if (!(dd > 1e-24)) {
      Xi = cinv(X);
      return Math.sqrt(dd);
    }
    // f = w / d
    const fr = wr.map((v, i) => (v * dr + wi[i] * di) / dd);
    const fi = wi.map((v, i) => (wi[i] * dr - v * di) / dd);
    const rowR = Xi.re[j].slice();
    const rowI = Xi.im[j].slice();
    for (let i = 0; i < n; i++) {
      const a = fr[i];
      const b = fi[i];
      if (a === 0 && b === 0) continue;
      const Rr = Xi.re[i];
      const Ri = Xi.im[i];
      for (let k = 0; k < n; k++) {
        Rr[k] -= a * rowR[k] - b * rowI[k];
        Ri[k] -= a * rowI[k] + b * rowR[k];
      }
    }
    return Math.sqrt(dd);
  };
  for (let sweep = 0; sweep < 5; sweep++) {
    if (sweep) Xi = cinv(X);
    let logGain = 0;
    for (let j = 0; j < n; j++) {
      if (poles[j][1] < 0) continue;
      // column j of X^-H = conj(row j of X^-1)
      const yr = Xi.re[j].slice();
      const yi = Xi.im[j].map((t) => -t);
      const [pr, pi] = project(S[j], yr, yi);
      const v = normalize(pr, pi);
      if (!v) continue;
      logGain += Math.log(replaceCol(j, v[0], v[1]));
      if (isPairHead(j)) logGain += Math.log(replaceCol(partnerOf(j), v[0], v[1].map((t) => -t)));
    }
    // |det X| grew by exp(logGain) this sweep; stop when it no longer changes
    if (Math.abs(logGain) < 1e-2) break;
  }
  // K~ = U0' (A - X Λ X^-1), K = Z^-1 K~ (least-norm when Z is wide)
  Xi = cinv(X);
  const XL: CM = { re: zeros(n, n), im: zeros(n, n) };
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const [pr, pi] = poles[j];
      XL.re[i][j] = X.re[i][j] * pr - X.im[i][j] * pi;
      XL.im[i][j] = X.re[i][j] * pi + X.im[i][j] * pr;
    }
  const M = zeros(n, n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += XL.re[i][k] * Xi.re[k][j] - XL.im[i][k] * Xi.im[k][j];
      M[i][j] = s;
    }
  const Kt = matmul(transpose(U0), add(A, M, -1)); // r x n
  if (r === m) {
    const fz = lu(Z);
    return luSolve(fz, Kt);
  }
  // Z' (Z Z')^-1 K~
  const Zt = transpose(Z);
  return matmul(Zt, luSolve(lu(matmul(Z, Zt)), Kt));
}

// ------------------------------------------------------------------ public

export interface PlaceResult {
  K: Mat;
  poles: Complex[];
  Acl: Mat;
}

export function place(A: Mat, B: Mat, polesIn: unknown[]): PlaceResult {
  const n = A.length;
  const m = B[0].length;
  const poles = parsePoles(polesIn, n);
  const { nc, Auc } = controllableDim(A, B);
  if (nc < n) {
    const unc = eigenvalues(Auc)
      .map(([re, im]) => (im === 0 ? re.toPrecision(6) : `${re.toPrecision(6)} ${im > 0 ? '+' : '-'} ${Math.abs(im).toPrecision(6)}i`))
      .join(', ');
    throw new ControlError(
      `place: (A, B) is not controllable: only ${nc} of ${n} poles can be assigned; the uncontrollable mode(s) at ${unc} do not move under any state feedback.`,
      'infeasible',
    );
  }
  let K: Mat;
  if (m === 1 || qrp(B).rank === 1) {
    // single effective input: K unique
    if (m === 1) K = [placeSiso(A, B.map((r) => r[0]), poles)];
    else {
      // rank-one B = b z': place with b, K = z k' / |z|^2 ... use the first compressed direction
      const f = qrp(B);
      const b = f.Q.map((row) => row[0] * f.R[0][0]);
      const zrow = new Array(m).fill(0);
      for (let j = 0; j < m; j++) zrow[f.perm[j]] = f.R[0][j] / f.R[0][0];
      const k = placeSiso(A, b, poles);
      const zz = zrow.reduce((s, v) => s + v * v, 0);
      K = zrow.map((zj) => k.map((kv) => (zj * kv) / zz));
    }
  } else {
    K = placeMulti(A, B, poles);
  }
  const Acl = add(A, matmul(B, K), -1);
  const achieved = sortComplex(eigenvalues(Acl).map(([re, im]) => cplx(re, im)));
  return { K, poles: achieved, Acl };
}

export const tools: ToolDef[] = [
  {
    name: 'place',
    words: {
      calls: [
        { names: ['place', 'acker', 'place_poles', 'ppol'], args: ['A', 'B', 'poles'], keywords: { poles: 'poles', p: 'poles' } },
        { names: ['place'], args: ['sys', 'poles'], note: 'place(sys, p) (ControlSystems.jl) places the poles of (A, B) of sys' },
      ],
      phrases: ['pole placement', 'place poles', 'place the poles', 'place', 'pole assignment', 'assign poles', 'ackermann', 'state feedback gain', 'closed-loop poles at', 'closed loop poles at'],
      aliases: { poles: ['p', 'P', 'desired_poles', 'pdes', 'pd', 'eigs'] },
      example: '/place A=[0 1; 0 0], B=[0;1], poles=[-1 -2]',
    },
    brief: 'Gain K (u = -Kx) with eig(A - BK) at the given poles.',
    title: 'Pole placement',
    description:
      'State-feedback gain K (u = -Kx) such that eig(A - BK) are the requested poles. Single input: the unique K (repeated poles allowed). Several inputs: robust eigenvector assignment (Kautsky-Nichols-Van Dooren); a pole may be repeated at most rank(B) times. Refuses uncontrollable (A, B). Returns K, the achieved poles and the closed-loop matrix Acl = A - BK.',
    parameters: {
      type: 'object',
      properties: {
        A: matrix('state matrix A (n x n)'),
        B: matrix('input matrix B (n x m)'),
        poles: complexList('the n desired closed-loop poles'),
      },
      required: ['A', 'B', 'poles'],
      additionalProperties: false,
    },
    run(args) {
      const A = checkMatrix(args.A, 'A');
      const n = checkSquare(A, 'A');
      const B = checkMatrix(args.B, 'B');
      if (B.length !== n) throw new ControlError(`B has ${B.length} rows but A is ${n}x${n}; B must have ${n} rows.`);
      if (!B[0]?.length) throw new ControlError('B has no columns: place needs at least one input.');
      if (!Array.isArray(args.poles)) throw new ControlError('poles must be a list of numbers or [re, im] pairs.');
      const r = place(A, B, args.poles);
      return { K: r.K, poles: r.poles, Acl: r.Acl };
    },
  },
];
