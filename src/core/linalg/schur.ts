/**
 * Real Schur form A = Z T Z' with orthogonal Z and quasi-upper-triangular T (1x1 blocks for
 * real eigenvalues, standardised 2x2 blocks [a b; c a] with b*c < 0 for complex pairs), and
 * reordering of the diagonal blocks.
 *
 * Written by hand because no maintained JS library does this right: mathjs `schur` is an
 * unshifted QR without Hessenberg reduction that stops after 100 iterations, and ml-matrix
 * keeps the Schur form internal to its EVD (no vectors, no reordering). The code follows
 * LAPACK: dgehd2/dorghr (Householder Hessenberg), dlahqr (Francis double-shift QR with the
 * Ahues-Tisseur deflation test and exceptional shifts), dlanv2 (standardised 2x2 blocks),
 * and dtrexc/dlaexc-style swaps (via a small Sylvester solve) for reordering.
 */
import { type Mat, clone, eye, transpose, zeros, EPS, SAFMIN, reflectLeft, reflectRight, pow2Exponent, scalePow2InPlace } from './dense.js';
import { balance } from './balance.js';
import type { Complex } from '../types.js';
import { ControlError } from '../errors.js';

// ---------------------------------------------------------------- Hessenberg

/**
 * Householder reduction to upper Hessenberg form, in place on H; if Q is given, it is
 * post-multiplied by the transformations (start from I to get H = Q' A Q). With `qTransposed`,
 * Q holds Q' and is pre-multiplied instead (the same numbers, transposed: each reflector then
 * runs over contiguous rows).
 */
export function hessenbergInPlace(H: Mat, Q?: Mat, qTransposed = false): void {
  const n = H.r,
    h = H.d;
  const v = new Float64Array(n);
  const acc = new Float64Array(n);
  for (let k = 0; k < n - 2; k++) {
    // Householder vector for column k, rows k+1..n-1
    let alpha = h[(k + 1) * n + k];
    let xnorm = 0;
    let scl = 0;
    for (let i = k + 2; i < n; i++) scl = Math.max(scl, Math.abs(h[i * n + k]));
    if (scl === 0) continue;
    for (let i = k + 2; i < n; i++) {
      const t = h[i * n + k] / scl;
      xnorm += t * t;
    }
    xnorm = scl * Math.sqrt(xnorm);
    const beta = -Math.sign(alpha || 1) * Math.hypot(alpha, xnorm);
    const tau = (beta - alpha) / beta;
    const inv = 1 / (alpha - beta);
    v[k + 1] = 1;
    for (let i = k + 2; i < n; i++) v[i] = h[i * n + k] * inv;
    alpha = beta;
    // H := (I - tau v v') H  on rows k+1.., columns k..
    h[(k + 1) * n + k] = beta;
    for (let i = k + 2; i < n; i++) h[i * n + k] = 0;
    reflectLeft(h, n, k + 1, n, k + 1, n, v, tau, acc);
    // H := H (I - tau v v') on all rows, columns k+1..
    reflectRight(h, 0, n, n, k + 1, n, v, tau);
    if (Q) {
      if (qTransposed) reflectLeft(Q.d, Q.c, k + 1, n, 0, Q.c, v, tau, acc);
      else reflectRight(Q.d, 0, Q.c, Q.r, k + 1, n, v, tau);
    }
  }
}

// ---------------------------------------------------------------- dlanv2

export interface Lanv2 {
  a: number;
  b: number;
  c: number;
  d: number;
  rt1r: number;
  rt1i: number;
  rt2r: number;
  rt2i: number;
  cs: number;
  sn: number;
}

const sign = (a: number, b: number) => (b >= 0 || Object.is(b, 0) ? Math.abs(a) : -Math.abs(a));

/**
 * Schur factorisation of a real 2x2 nonsymmetric matrix in standardised form (LAPACK dlanv2):
 * [a b; c d] = [cs -sn; sn cs] [aa bb; cc dd] [cs sn; -sn cs], with cc = 0 (real eigenvalues)
 * or aa = dd and bb*cc < 0 (complex pair).
 */
export function lanv2(a: number, b: number, c: number, d: number): Lanv2 {
  const multpl = 4;
  let cs = 1,
    sn = 0;
  if (c === 0) {
    // already upper triangular
  } else if (b === 0) {
    cs = 0;
    sn = 1;
    const t = d;
    d = a;
    a = t;
    b = -c;
    c = 0;
  } else if (a - d === 0 && sign(1, b) !== sign(1, c)) {
    // standard complex block
  } else {
    const temp = a - d;
    let p = 0.5 * temp;
    const bcmax = Math.max(Math.abs(b), Math.abs(c));
    const bcmis = Math.min(Math.abs(b), Math.abs(c)) * sign(1, b) * sign(1, c);
    let scl = Math.max(Math.abs(p), bcmax);
    let z = (p / scl) * p + (bcmax / scl) * bcmis;
    if (z >= multpl * EPS) {
      // real eigenvalues
      z = p + sign(Math.sqrt(scl) * Math.sqrt(z), p);
      a = d + z;
      d = d - (bcmax / z) * bcmis;
      const tau = Math.hypot(c, z);
      cs = z / tau;
      sn = c / tau;
      b = b - c;
      c = 0;
    } else {
      // complex or nearly equal real eigenvalues: make the diagonal equal
      const sigma = b + c;
      scl = Math.max(Math.abs(temp), Math.abs(sigma));
      p = 0.5 * temp;
      let tau = Math.hypot(sigma, temp);
      cs = Math.sqrt(0.5 * (1 + Math.abs(sigma) / tau));
      sn = -(p / (tau * cs)) * sign(1, sigma);
      const aa = a * cs + b * sn;
      const bb = -a * sn + b * cs;
      const cc = c * cs + d * sn;
      const dd = -c * sn + d * cs;
      a = aa * cs + cc * sn;
      b = bb * cs + dd * sn;
      c = -aa * sn + cc * cs;
      d = -bb * sn + dd * cs;
      const t = 0.5 * (a + d);
      a = t;
      d = t;
      if (c !== 0) {
        if (b !== 0) {
          if (sign(1, b) === sign(1, c)) {
            // real eigenvalues after all: reduce to upper triangular
            const sab = Math.sqrt(Math.abs(b));
            const sac = Math.sqrt(Math.abs(c));
            p = sign(sab * sac, c);
            tau = 1 / Math.sqrt(Math.abs(b + c));
            a = t + p;
            d = t - p;
            b = b - c;
            c = 0;
            const cs1 = sab * tau;
            const sn1 = sac * tau;
            const t2 = cs * cs1 - sn * sn1;
            sn = cs * sn1 + sn * cs1;
            cs = t2;
          }
        } else {
          b = -c;
          c = 0;
          const t2 = cs;
          cs = -sn;
          sn = t2;
        }
      }
    }
  }
  const rt1r = a,
    rt2r = d;
  let rt1i = 0,
    rt2i = 0;
  if (c !== 0) {
    rt1i = Math.sqrt(Math.abs(b)) * Math.sqrt(Math.abs(c));
    rt2i = -rt1i;
  }
  return { a, b, c, d, rt1r, rt1i, rt2r, rt2i, cs, sn };
}

// ---------------------------------------------------------------- Francis QR (dlahqr)

/**
 * From this order on, the Schur form with T (or Z) runs laqr0 (aggressive early deflation,
 * multishift sweeps) instead of lahqr. Measured (bench/schur-time.ts, CPU time, realSchur of the
 * seeded random matrices): laqr0 slower at n = 100 (+15%), 130 (+4%) and 160 (+4%), faster at
 * 200 (-10%), 250 (-10%), 300 (-15%) and 500 (-26%). Eigenvalues alone (wantt = false: the
 * sweeps touch only the active block, so the deflation window's fixed cost weighs more) stay
 * with lahqr: laqr0 was slower there up to n = 250 and even at 300.
 */
const AED_MIN = 180;

/** which QR iteration: by order (auto), always aggressive early deflation (laqr0), always dlahqr (tests, benches) */
export type QrMethod = 'auto' | 'aed' | 'dlahqr';

/**
 * Francis double-shift QR on an upper Hessenberg H (in place), following LAPACK dlahqr with
 * wantt = true. If Z is given, it is post-multiplied by the orthogonal transformations; with
 * `zTransposed`, Z holds Z' and is pre-multiplied (the same numbers: each reflector then
 * updates three contiguous rows of Z' instead of three entries of every row of Z).
 * Returns the eigenvalues (wr, wi). Throws if the iteration fails to converge. `method`: from
 * order AED_MIN on (with T or Z) aggressive early deflation and multishift sweeps (laqr0, as
 * LAPACK dhseqr does from n = 75), below dlahqr; 'aed' / 'dlahqr' force one (tests, benches).
 */
export function hqrInPlace(H: Mat, Z?: Mat, wantT = true, zTransposed = false, method: QrMethod = 'auto'): { wr: Float64Array; wi: Float64Array } {
  // without Schur vectors or T (eigenvalues only) the sweeps touch only the active block (dlahqr's wantt = false)
  const wantt = wantT || !!Z;
  const n = H.r;
  const wr = new Float64Array(n),
    wi = new Float64Array(n);
  const aed = method === 'aed' || (method === 'auto' && wantt && n >= AED_MIN);
  const info = aed ? laqr0(H, Z, wantt, zTransposed, wr, wi) : lahqr(H, Z, wantt, zTransposed, wr, wi);
  if (info)
    throw new ControlError(
      'The eigenvalue iteration (QR algorithm for the real Schur form) did not converge for this matrix, so no result is given; this is rare and usually means entries of wildly different magnitudes: rescale the units.',
      'numerical',
    );
  return { wr, wi };
}

/**
 * dlahqr (wantt, optional Z or Z'): the body of hqrInPlace, eigenvalues into wr, wi. Returns 0,
 * or on failure to converge i + 1 > 0 such that rows/columns 0..i are not yet reduced (the
 * eigenvalues i+1..n-1 are, and T is quasi-triangular there), as dlahqr's INFO.
 */
function lahqr(H: Mat, Z: Mat | undefined, wantt: boolean, zTransposed: boolean, wr: Float64Array, wi: Float64Array): number {
  const n = H.r,
    h = H.d;
  if (n === 0) return 0;
  if (n === 1) {
    wr[0] = h[0];
    wi[0] = 0;
    return 0;
  }
  const nz = Z ? Z.r : 0;
  const zc = Z ? Z.c : 0;
  const zd = Z ? Z.d : new Float64Array(0);
  const H_ = (i: number, j: number) => h[i * n + j];
  // clear out the trash below the subdiagonal
  for (let j = 0; j < n - 3; j++) {
    h[(j + 2) * n + j] = 0;
    h[(j + 3) * n + j] = 0;
  }
  if (n >= 3) h[(n - 1) * n + n - 3] = 0;
  const ulp = EPS;
  const smlnum = SAFMIN * (n / ulp);
  const itmax = 30 * Math.max(10, n);
  const kexsh = 10;
  let kdefl = 0;
  const v = new Float64Array(3);
  let i = n - 1;
  while (i >= 0) {
    let l = 0;
    let converged = false;
    for (let its = 0; its <= itmax; its++) {
      // look for a single small subdiagonal element
      let k: number;
      for (k = i; k > l; k--) {
        const hkk1 = Math.abs(H_(k, k - 1));
        if (hkk1 <= smlnum) break;
        let tst = Math.abs(H_(k - 1, k - 1)) + Math.abs(H_(k, k));
        if (tst === 0) {
          if (k - 2 >= 0) tst += Math.abs(H_(k - 1, k - 2));
          if (k + 1 <= n - 1) tst += Math.abs(H_(k + 1, k));
        }
        if (hkk1 <= ulp * tst) {
          const ab = Math.max(hkk1, Math.abs(H_(k - 1, k)));
          const ba = Math.min(hkk1, Math.abs(H_(k - 1, k)));
          const aa = Math.max(Math.abs(H_(k, k)), Math.abs(H_(k - 1, k - 1) - H_(k, k)));
          const bb = Math.min(Math.abs(H_(k, k)), Math.abs(H_(k - 1, k - 1) - H_(k, k)));
          const s = aa + ab;
          if (ba * (ab / s) <= Math.max(smlnum, ulp * (bb * (aa / s)))) break;
        }
      }
      l = k;
      if (l > 0) h[l * n + l - 1] = 0;
      if (l >= i - 1) {
        converged = true;
        break;
      }
      kdefl++;
      const i1 = wantt ? 0 : l;
      const i2 = wantt ? n - 1 : i;
      let h11: number, h12: number, h21: number, h22: number;
      if (kdefl % (2 * kexsh) === 0) {
        const s = Math.abs(H_(i, i - 1)) + Math.abs(H_(i - 1, i - 2));
        h11 = 0.75 * s + H_(i, i);
        h12 = -0.4375 * s;
        h21 = s;
        h22 = h11;
      } else if (kdefl % kexsh === 0) {
        const s = Math.abs(H_(l + 1, l)) + Math.abs(H_(l + 2, l + 1));
        h11 = 0.75 * s + H_(l, l);
        h12 = -0.4375 * s;
        h21 = s;
        h22 = h11;
      } else {
        h11 = H_(i - 1, i - 1);
        h21 = H_(i, i - 1);
        h12 = H_(i - 1, i);
        h22 = H_(i, i);
      }
      let rt1r = 0,
        rt1i = 0,
        rt2r = 0,
        rt2i = 0;
      {
        const s = Math.abs(h11) + Math.abs(h12) + Math.abs(h21) + Math.abs(h22);
        if (s !== 0) {
          h11 /= s;
          h21 /= s;
          h12 /= s;
          h22 /= s;
          const tr = (h11 + h22) / 2;
          const det = (h11 - tr) * (h22 - tr) - h12 * h21;
          const rtdisc = Math.sqrt(Math.abs(det));
          if (det >= 0) {
            rt1r = tr * s;
            rt2r = rt1r;
            rt1i = rtdisc * s;
            rt2i = -rt1i;
          } else {
            rt1r = tr + rtdisc;
            rt2r = tr - rtdisc;
            if (Math.abs(rt1r - h22) <= Math.abs(rt2r - h22)) {
              rt1r *= s;
              rt2r = rt1r;
            } else {
              rt2r *= s;
              rt1r = rt2r;
            }
            rt1i = rt2i = 0;
          }
        }
      }
      // look for two consecutive small subdiagonal elements
      let m: number;
      for (m = i - 2; m >= l; m--) {
        let h21s = H_(m + 1, m);
        let s = Math.abs(H_(m, m) - rt2r) + Math.abs(rt2i) + Math.abs(h21s);
        h21s = H_(m + 1, m) / s;
        v[0] = h21s * H_(m, m + 1) + (H_(m, m) - rt1r) * ((H_(m, m) - rt2r) / s) - rt1i * (rt2i / s);
        v[1] = h21s * (H_(m, m) + H_(m + 1, m + 1) - rt1r - rt2r);
        v[2] = h21s * H_(m + 2, m + 1);
        s = Math.abs(v[0]) + Math.abs(v[1]) + Math.abs(v[2]);
        v[0] /= s;
        v[1] /= s;
        v[2] /= s;
        if (m === l) break;
        const h00 = Math.abs(H_(m, m - 1)) * (Math.abs(v[1]) + Math.abs(v[2]));
        const h01 = Math.abs(v[0]) * (Math.abs(H_(m - 1, m - 1)) + Math.abs(H_(m, m)) + Math.abs(H_(m + 1, m + 1)));
        if (h00 <= ulp * h01) break;
      }
      // double-shift QR sweep
      doubleSweep(h, n, l, m, i, i1, i2, v, zd, zc, nz, zTransposed);
    }
    if (!converged) return i + 1;
    if (l === i) {
      wr[i] = h[i * n + i];
      wi[i] = 0;
    } else if (l === i - 1) {
      const r = lanv2(H_(i - 1, i - 1), H_(i - 1, i), H_(i, i - 1), H_(i, i));
      h[(i - 1) * n + i - 1] = r.a;
      h[(i - 1) * n + i] = r.b;
      h[i * n + i - 1] = r.c;
      h[i * n + i] = r.d;
      wr[i - 1] = r.rt1r;
      wi[i - 1] = r.rt1i;
      wr[i] = r.rt2r;
      wi[i] = r.rt2i;
      if (wantt) applyRot(H, Z, i - 1, r.cs, r.sn, i + 1, i - 1, zTransposed);
    }
    kdefl = 0;
    i = l - 1;
  }
  return 0;
}

// ---------------------------------------------------------------- aggressive early deflation (dlaqr0, dlaqr3)

/** dlaqr0's number of shifts per sweep for an active block of nh (LAPACK iparmq, ISPEC 15) */
function aedShiftCount(nh: number): number {
  let ns = 2;
  if (nh >= 30) ns = 4;
  if (nh >= 60) ns = 10;
  if (nh >= 150) ns = Math.max(10, Math.floor(nh / Math.round(Math.log2(nh))));
  if (nh >= 590) ns = 64;
  if (nh >= 3000) ns = 128;
  if (nh >= 6000) ns = 256;
  return Math.max(2, ns - (ns % 2));
}

/**
 * Moves the diagonal block of T starting at ifst up to start at ilst <= ifst by adjacent swaps
 * (dtrexc), updating V's columns. Returns the block's final start (> ilst if a swap was refused
 * because the eigenvalues are too close to separate). A 2x2 block that splits into two real
 * eigenvalues on the way is moved on as two 1x1 blocks.
 */
function moveBlockUp(T: Mat, V: Mat, ifst: number, ilst: number): number {
  const n = T.r,
    t = T.d;
  let here = ifst;
  const nbf = here + 1 < n && t[(here + 1) * n + here] !== 0 ? 2 : 1;
  while (here > ilst) {
    const nbnext = here - 2 >= 0 && t[(here - 1) * n + here - 2] !== 0 ? 2 : 1;
    if (!swapBlocks(T, V, here - nbnext, nbnext, nbf)) return here;
    here -= nbnext;
    if (nbf === 2 && t[(here + 1) * n + here] === 0) {
      const p = moveBlockUp(T, V, here, ilst);
      if (p === ilst) moveBlockUp(T, V, here + 1, ilst + 1);
      return p;
    }
  }
  return here;
}

/** Ahues-Tisseur test of dlahqr for the subdiagonal entry H(k, k-1), rows ktop..kbot */
function negligibleSubdiag(h: Float64Array, n: number, k: number, ktop: number, kbot: number, smlnum: number, ulp: number): boolean {
  const hkk1 = Math.abs(h[k * n + k - 1]);
  if (hkk1 <= smlnum) return true;
  const hkk = h[k * n + k],
    hk1k1 = h[(k - 1) * n + k - 1];
  let tst = Math.abs(hk1k1) + Math.abs(hkk);
  if (tst === 0) {
    if (k - 2 >= ktop) tst += Math.abs(h[(k - 1) * n + k - 2]);
    if (k + 1 <= kbot) tst += Math.abs(h[(k + 1) * n + k]);
  }
  if (hkk1 > ulp * tst) return false;
  const hk1k = Math.abs(h[(k - 1) * n + k]);
  const ab = Math.max(hkk1, hk1k),
    ba = Math.min(hkk1, hk1k);
  const aa = Math.max(Math.abs(hkk), Math.abs(hk1k1 - hkk)),
    bb = Math.min(Math.abs(hkk), Math.abs(hk1k1 - hkk));
  const s = aa + ab;
  return ba * (ab / s) <= Math.max(smlnum, ulp * (bb * (aa / s)));
}

/** X := X V on rows r0..r1-1, columns c0..c0+jw-1 of the row-major d (width w) */
function mulWindowRight(d: Float64Array, w: number, r0: number, r1: number, c0: number, V: Float64Array, jw: number, tmp: Float64Array): void {
  for (let r = r0; r < r1; r++) {
    const o = r * w + c0;
    tmp.fill(0, 0, jw);
    let k = 0;
    for (; k + 3 < jw; k += 4) {
      const x0 = d[o + k],
        x1 = d[o + k + 1],
        x2 = d[o + k + 2],
        x3 = d[o + k + 3];
      const v0 = k * jw,
        v1 = v0 + jw,
        v2 = v1 + jw,
        v3 = v2 + jw;
      for (let j = 0; j < jw; j++) tmp[j] += x0 * V[v0 + j] + x1 * V[v1 + j] + x2 * V[v2 + j] + x3 * V[v3 + j];
    }
    for (; k < jw; k++) {
      const x = d[o + k],
        vo = k * jw;
      for (let j = 0; j < jw; j++) tmp[j] += x * V[vo + j];
    }
    for (let j = 0; j < jw; j++) d[o + j] = tmp[j];
  }
}

/** X := V' X on rows r0..r0+jw-1, columns c0..c1-1 of the row-major d (width w) */
function mulWindowLeftT(d: Float64Array, w: number, r0: number, c0: number, c1: number, V: Float64Array, jw: number): void {
  const nc = c1 - c0;
  if (nc <= 0) return;
  const buf = new Float64Array(jw * nc);
  let k = 0;
  for (; k + 3 < jw; k += 4) {
    const x0 = (r0 + k) * w + c0,
      x1 = x0 + w,
      x2 = x1 + w,
      x3 = x2 + w;
    const v0 = k * jw,
      v1 = v0 + jw,
      v2 = v1 + jw,
      v3 = v2 + jw;
    for (let j = 0; j < jw; j++) {
      const a0 = V[v0 + j],
        a1 = V[v1 + j],
        a2 = V[v2 + j],
        a3 = V[v3 + j];
      const bo = j * nc;
      for (let c = 0; c < nc; c++) buf[bo + c] += a0 * d[x0 + c] + a1 * d[x1 + c] + a2 * d[x2 + c] + a3 * d[x3 + c];
    }
  }
  for (; k < jw; k++) {
    const ro = (r0 + k) * w + c0;
    for (let j = 0; j < jw; j++) {
      const vkj = V[k * jw + j];
      const bo = j * nc;
      for (let c = 0; c < nc; c++) buf[bo + c] += vkj * d[ro + c];
    }
  }
  for (let j = 0; j < jw; j++) {
    const ro = (r0 + j) * w + c0,
      bo = j * nc;
    for (let c = 0; c < nc; c++) d[ro + c] = buf[bo + c];
  }
}

/**
 * Aggressive early deflation (LAPACK dlaqr3) on the window of the last jw = min(nw, kbot-ktop+1)
 * rows of the active block ktop..kbot: the window's own Schur form T = V' W V (dlahqr), then the
 * spike s V(0, :) (s = H(kwtop, kwtop-1)) decides from the bottom which eigenvalues have
 * converged (|s V(0, j)| negligible next to the eigenvalue); those that have not are moved up
 * (dtrexc), sorted by decreasing magnitude, and the window is returned to Hessenberg form with
 * the spike reduced to one entry. Writes the deflated eigenvalues and the undeflated ones (the
 * next shifts) into wr, wi at kwtop..kbot. Returns ls (undeflated eigenvalues usable as shifts)
 * and ld (deflated: the active block ends at kbot - ld).
 */
function aggressiveDeflation(
  H: Mat,
  Z: Mat | undefined,
  wantt: boolean,
  zTransposed: boolean,
  ktop: number,
  kbot: number,
  nw: number,
  wr: Float64Array,
  wi: Float64Array,
  smlnum: number,
  ulp: number,
): { ls: number; ld: number } {
  const n = H.r,
    h = H.d;
  const jw = Math.min(nw, kbot - ktop + 1);
  const kwtop = kbot - jw + 1;
  let s = kwtop === ktop ? 0 : h[kwtop * n + kwtop - 1];
  if (kbot === kwtop) {
    wr[kwtop] = h[kwtop * n + kwtop];
    wi[kwtop] = 0;
    if (Math.abs(s) <= Math.max(smlnum, ulp * Math.abs(h[kwtop * n + kwtop]))) {
      if (kwtop > ktop) h[kwtop * n + kwtop - 1] = 0;
      return { ls: 0, ld: 1 };
    }
    return { ls: 1, ld: 0 };
  }
  // the window's Schur form T = V' W V
  const T = zeros(jw),
    t = T.d;
  for (let i = 0; i < jw; i++) for (let j = Math.max(0, i - 1); j < jw; j++) t[i * jw + j] = h[(kwtop + i) * n + kwtop + j];
  const sr = new Float64Array(jw),
    si = new Float64Array(jw);
  // V' accumulated (contiguous rows), then transposed
  const Vt = eye(jw);
  const infqr = lahqr(T, Vt, true, true, sr, si);
  const V = transpose(Vt),
    vd = V.d;
  for (let i = 2; i < jw; i++) for (let j = 0; j < i - 1; j++) t[i * jw + j] = 0;
  // deflation test on the spike, bottom up; what does not deflate moves up to ilst
  let ns = jw;
  let ilst = infqr;
  while (ilst < ns) {
    const bulge = ns >= 2 && t[(ns - 1) * jw + ns - 2] !== 0;
    if (!bulge) {
      let foo = Math.abs(t[(ns - 1) * jw + ns - 1]);
      if (foo === 0) foo = Math.abs(s);
      if (Math.abs(s * vd[ns - 1]) <= Math.max(smlnum, ulp * foo)) ns--;
      else ilst = moveBlockUp(T, V, ns - 1, ilst) + 1;
    } else {
      let foo = Math.abs(t[(ns - 1) * jw + ns - 1]) + Math.sqrt(Math.abs(t[(ns - 1) * jw + ns - 2])) * Math.sqrt(Math.abs(t[(ns - 2) * jw + ns - 1]));
      if (foo === 0) foo = Math.abs(s);
      if (Math.max(Math.abs(s * vd[ns - 1]), Math.abs(s * vd[ns - 2])) <= Math.max(smlnum, ulp * foo)) ns -= 2;
      else ilst = moveBlockUp(T, V, ns - 2, ilst) + 2;
    }
  }
  if (ns === 0) s = 0;
  if (ns < jw) {
    // sort the undeflated eigenvalues by decreasing magnitude (bubble sort by adjacent swaps)
    const blockEnd = (i: number, last: number) => (i === last || t[(i + 1) * jw + i] === 0 ? i + 1 : i + 2);
    const mag = (i: number, k: number) =>
      k === i + 1 ? Math.abs(t[i * jw + i]) : Math.abs(t[i * jw + i]) + Math.sqrt(Math.abs(t[(i + 1) * jw + i])) * Math.sqrt(Math.abs(t[i * jw + i + 1]));
    let sorted = false;
    let i = ns;
    while (!sorted) {
      sorted = true;
      const kend = i - 1;
      i = infqr;
      let k = blockEnd(i, ns - 1);
      while (k <= kend) {
        const evi = mag(i, k);
        const evk = mag(k, blockEnd(k, kend));
        if (evi >= evk) i = k;
        else {
          sorted = false;
          const nbi = k - i,
            nbk = blockEnd(k, kend) - k;
          i = swapBlocks(T, V, i, nbi, nbk) ? i + nbk : k;
        }
        k = blockEnd(i, kend);
      }
    }
  }
  // eigenvalues of the window (the undeflated ones are the next shifts)
  for (let i = jw - 1; i >= infqr;) {
    if (i === infqr || t[i * jw + i - 1] === 0) {
      wr[kwtop + i] = t[i * jw + i];
      wi[kwtop + i] = 0;
      i--;
    } else {
      const r = lanv2(t[(i - 1) * jw + i - 1], t[(i - 1) * jw + i], t[i * jw + i - 1], t[i * jw + i]);
      wr[kwtop + i - 1] = r.rt1r;
      wi[kwtop + i - 1] = r.rt1i;
      wr[kwtop + i] = r.rt2r;
      wi[kwtop + i] = r.rt2i;
      i -= 2;
    }
  }
  for (let i = 0; i < infqr; i++) {
    wr[kwtop + i] = t[i * jw + i];
    wi[kwtop + i] = 0;
  }
  if (ns < jw || s === 0) {
    const acc = new Float64Array(jw);
    if (ns > 1 && s !== 0) {
      // reflector taking the spike V(0, 0..ns-1) to a multiple of e1, then Hessenberg form of T(0..ns-1, 0..ns-1)
      const w = new Float64Array(jw);
      for (let j = 0; j < ns; j++) w[j] = vd[j];
      let xnorm = 0;
      for (let j = 1; j < ns; j++) xnorm = Math.hypot(xnorm, w[j]);
      if (xnorm !== 0) {
        const alpha = w[0];
        const beta = -sign(Math.hypot(alpha, xnorm), alpha);
        const tau = (beta - alpha) / beta;
        const sc = 1 / (alpha - beta);
        for (let j = 1; j < ns; j++) w[j] *= sc;
        w[0] = 1;
        reflectLeft(t, jw, 0, ns, 0, jw, w, tau, acc);
        reflectRight(t, 0, jw, ns, 0, ns, w, tau);
        reflectRight(vd, 0, jw, jw, 0, ns, w, tau);
      }
      for (let k = 0; k < ns - 2; k++) {
        let scl = 0;
        for (let i = k + 2; i < ns; i++) scl = Math.max(scl, Math.abs(t[i * jw + k]));
        if (scl === 0) continue;
        let xn = 0;
        for (let i = k + 2; i < ns; i++) {
          const q = t[i * jw + k] / scl;
          xn += q * q;
        }
        xn = scl * Math.sqrt(xn);
        const alpha = t[(k + 1) * jw + k];
        const beta = -Math.sign(alpha || 1) * Math.hypot(alpha, xn);
        const tau = (beta - alpha) / beta;
        const inv = 1 / (alpha - beta);
        w[k + 1] = 1;
        for (let i = k + 2; i < ns; i++) w[i] = t[i * jw + k] * inv;
        t[(k + 1) * jw + k] = beta;
        for (let i = k + 2; i < ns; i++) t[i * jw + k] = 0;
        reflectLeft(t, jw, k + 1, ns, k + 1, jw, w, tau, acc);
        reflectRight(t, 0, jw, ns, k + 1, ns, w, tau);
        reflectRight(vd, 0, jw, jw, k + 1, ns, w, tau);
      }
    }
    if (kwtop > 0) h[kwtop * n + kwtop - 1] = s === 0 ? 0 : s * vd[0];
    for (let i = 0; i < jw; i++) {
      const ho = (kwtop + i) * n + kwtop;
      for (let j = 0; j < i - 1; j++) h[ho + j] = 0;
      for (let j = Math.max(0, i - 1); j < jw; j++) h[ho + j] = t[i * jw + j];
    }
    // the rest of H and Z: columns kwtop..kbot times V, rows kwtop..kbot times V'
    mulWindowRight(h, n, wantt ? 0 : ktop, kwtop, kwtop, vd, jw, acc);
    if (wantt) mulWindowLeftT(h, n, kwtop, kbot + 1, n, vd, jw);
    if (Z) {
      if (zTransposed) mulWindowLeftT(Z.d, Z.c, kwtop, 0, Z.c, vd, jw);
      else mulWindowRight(Z.d, Z.c, 0, Z.r, kwtop, vd, jw, acc);
    }
  }
  return { ls: ns - infqr, ld: jw - ns };
}

/**
 * Real Schur form by the small-bulge multishift QR algorithm with aggressive early deflation
 * (LAPACK dlaqr0; n > 15): each step runs aggressiveDeflation on a window at the bottom of the
 * active block, and, unless it deflated enough, a sweep with the window's undeflated eigenvalues
 * as shifts: ns/2 double-shift bulges chased one after the other (the arithmetic of dlaqr5's
 * chain of bulges, applied without its level-3 blocking), deepest-going pair first. Same
 * arguments and result as lahqr.
 */
function laqr0(H: Mat, Z: Mat | undefined, wantt: boolean, zTransposed: boolean, wr: Float64Array, wi: Float64Array): number {
  const n = H.r,
    h = H.d;
  if (n <= 15) return lahqr(H, Z, wantt, zTransposed, wr, wi);
  for (let i = 2; i < n; i++) for (let j = 0; j < i - 1; j++) h[i * n + j] = 0;
  const ulp = EPS;
  const smlnum = SAFMIN * (n / ulp);
  const KEXNW = 5,
    KEXSH = 6,
    NMIN = 75,
    NIBBLE = 14;
  const nsCount = aedShiftCount(n);
  const nwr = Math.min(n, Math.floor((n - 1) / 3), Math.max(2, n <= 500 ? nsCount : Math.floor((3 * nsCount) / 2)));
  let nsr = Math.min(nsCount, Math.floor((n - 3) / 6), n - 1);
  nsr = Math.max(2, nsr - (nsr % 2));
  const nwmax = Math.floor((n - 1) / 3);
  let nsmax = Math.floor((n - 3) / 6);
  nsmax -= nsmax % 2;
  let nw = nwmax;
  let ndfl = 1,
    ndec = -1;
  const itmax = 30 * Math.max(10, n);
  const zd = Z ? Z.d : new Float64Array(0),
    zc = Z ? Z.c : 0,
    nz = Z ? Z.r : 0;
  const v = new Float64Array(3);
  let kbot = n - 1;
  for (let it = 0; it < itmax; it++) {
    if (kbot < 0) {
      // no -0 on the subdiagonal (the blocks are read off by !== 0 alike, but callers may compare)
      for (let k = 1; k < n; k++) if (h[k * n + k - 1] === 0) h[k * n + k - 1] = 0;
      return 0;
    }
    let ktop = kbot;
    while (ktop > 0 && h[ktop * n + ktop - 1] !== 0) ktop--;
    const nh = kbot - ktop + 1;
    const nwupbd = Math.min(nh, nwmax);
    nw = ndfl < KEXNW ? Math.min(nwupbd, nwr) : Math.min(nwupbd, 2 * nw);
    if (nw < nwmax) {
      if (nw >= nh - 1) nw = nh;
      else {
        const kwtop = kbot - nw + 1;
        if (Math.abs(h[kwtop * n + kwtop - 1]) > Math.abs(h[(kwtop - 1) * n + kwtop - 2])) nw++;
      }
    }
    if (ndfl < KEXNW) ndec = -1;
    else if (ndec >= 0 || nw >= nwupbd) {
      ndec++;
      if (nw - ndec < 2) ndec = 0;
      nw -= ndec;
    }
    const { ls, ld } = aggressiveDeflation(H, Z, wantt, zTransposed, ktop, kbot, nw, wr, wi, smlnum, ulp);
    kbot -= ld;
    let ks = kbot - ls + 1;
    if (ld === 0 || (100 * ld <= nw * NIBBLE && kbot - ktop + 1 > Math.min(NMIN, nwmax))) {
      let ns = Math.min(nsmax, nsr, Math.max(2, kbot - ktop));
      ns -= ns % 2;
      if (ndfl % KEXSH === 0) {
        // exceptional shifts
        ks = kbot - ns + 1;
        for (let i = kbot; i >= Math.max(ks + 1, ktop + 2); i -= 2) {
          const ss = Math.abs(h[i * n + i - 1]) + Math.abs(h[(i - 1) * n + i - 2]);
          const aa = 0.75 * ss + h[i * n + i];
          const r = lanv2(aa, ss, -0.4375 * ss, aa);
          wr[i - 1] = r.rt1r;
          wi[i - 1] = r.rt1i;
          wr[i] = r.rt2r;
          wi[i] = r.rt2i;
        }
        if (ks === ktop) {
          wr[ks + 1] = h[(ks + 1) * n + ks + 1];
          wi[ks + 1] = 0;
          wr[ks] = wr[ks + 1];
          wi[ks] = wi[ks + 1];
        }
      } else {
        if (kbot - ks + 1 <= ns / 2) {
          // too few shifts from the window: the eigenvalues of the trailing ns x ns block
          ks = kbot - ns + 1;
          const W = zeros(ns);
          for (let i = 0; i < ns; i++) for (let j = 0; j < ns; j++) W.d[i * ns + j] = h[(ks + i) * n + ks + j];
          const swr = new Float64Array(ns),
            swi = new Float64Array(ns);
          const inf = lahqr(W, undefined, false, false, swr, swi);
          for (let i = inf; i < ns; i++) {
            wr[ks + i] = swr[i];
            wi[ks + i] = swi[i];
          }
          ks += inf;
          if (ks >= kbot) {
            const r = lanv2(h[(kbot - 1) * n + kbot - 1], h[(kbot - 1) * n + kbot], h[kbot * n + kbot - 1], h[kbot * n + kbot]);
            wr[kbot - 1] = r.rt1r;
            wi[kbot - 1] = r.rt1i;
            wr[kbot] = r.rt2r;
            wi[kbot] = r.rt2i;
            ks = kbot - 1;
          }
        }
        if (kbot - ks + 1 > ns) {
          // the smallest ones go last (used first)
          for (let k = kbot, sorted = false; k >= ks + 1 && !sorted; k--) {
            sorted = true;
            for (let i = ks; i < k; i++)
              if (Math.abs(wr[i]) + Math.abs(wi[i]) < Math.abs(wr[i + 1]) + Math.abs(wi[i + 1])) {
                sorted = false;
                let sw = wr[i];
                wr[i] = wr[i + 1];
                wr[i + 1] = sw;
                sw = wi[i];
                wi[i] = wi[i + 1];
                wi[i + 1] = sw;
              }
          }
        }
        // pairs of real shifts and complex conjugate pairs
        for (let i = kbot; i >= ks + 2; i -= 2)
          if (wi[i] !== -wi[i - 1]) {
            let sw = wr[i];
            wr[i] = wr[i - 1];
            wr[i - 1] = wr[i - 2];
            wr[i - 2] = sw;
            sw = wi[i];
            wi[i] = wi[i - 1];
            wi[i - 1] = wi[i - 2];
            wi[i - 2] = sw;
          }
      }
      if (kbot - ks + 1 === 2 && wi[kbot] === 0) {
        // two real shifts: use the one closer to H(kbot, kbot) twice
        if (Math.abs(wr[kbot] - h[kbot * n + kbot]) < Math.abs(wr[kbot - 1] - h[kbot * n + kbot])) wr[kbot - 1] = wr[kbot];
        else wr[kbot] = wr[kbot - 1];
      }
      ns = Math.min(ns, kbot - ks + 1);
      ns -= ns % 2;
      ks = kbot - ns + 1;
      // the sweep: one double-shift bulge per pair of shifts, the last pair first
      if (kbot - ktop + 1 >= 3) {
        const i1 = wantt ? 0 : ktop,
          i2 = wantt ? n - 1 : kbot;
        for (let j = kbot - 1; j >= ks; j -= 2) {
          const rt1r = wr[j],
            rt1i = wi[j],
            rt2r = wr[j + 1],
            rt2i = wi[j + 1];
          const m = ktop;
          let h21s = h[(m + 1) * n + m];
          let sc = Math.abs(h[m * n + m] - rt2r) + Math.abs(rt2i) + Math.abs(h21s);
          h21s /= sc;
          v[0] = h21s * h[m * n + m + 1] + (h[m * n + m] - rt1r) * ((h[m * n + m] - rt2r) / sc) - rt1i * (rt2i / sc);
          v[1] = h21s * (h[m * n + m] + h[(m + 1) * n + m + 1] - rt1r - rt2r);
          v[2] = h21s * h[(m + 2) * n + m + 1];
          sc = Math.abs(v[0]) + Math.abs(v[1]) + Math.abs(v[2]);
          if (sc === 0 || !Number.isFinite(sc)) continue;
          v[0] /= sc;
          v[1] /= sc;
          v[2] /= sc;
          doubleSweep(h, n, ktop, m, kbot, i1, i2, v, zd, zc, nz, zTransposed);
          // deflation behind the bulges: stop this sweep's remaining shifts if the block split
          let split = false;
          for (let k = kbot; k > ktop; k--)
            if (negligibleSubdiag(h, n, k, ktop, kbot, smlnum, ulp)) {
              h[k * n + k - 1] = 0;
              split = true;
            }
          if (split) break;
        }
      }
    }
    if (ld > 0) ndfl = 1;
    else ndfl++;
  }
  return kbot + 1;
}

/**
 * One Francis double-shift sweep (dlahqr's inner loop) on rows/columns m..i of H, the bulge
 * introduced by the reflector of v = (H - s1 I)(H - s2 I) e_m (first three entries, any scale,
 * in `v`, overwritten). Columns i1..i2 / rows i1.. of H are updated (the whole matrix for T,
 * the active block for eigenvalues only); l is the top of the active block (m > l: H(m, m-1) is
 * scaled along, as dlahqr). Z (or Z' with zTransposed) accumulates the reflectors.
 */
function doubleSweep(
  h: Float64Array,
  n: number,
  l: number,
  m: number,
  i: number,
  i1: number,
  i2: number,
  v: Float64Array,
  zd: Float64Array,
  zc: number,
  nz: number,
  zTransposed: boolean,
): void {
  const H_ = (r: number, c: number) => h[r * n + c];
  for (let k2 = m; k2 <= i - 1; k2++) {
    const nr = Math.min(3, i - k2 + 1);
    if (k2 > m) {
      v[0] = H_(k2, k2 - 1);
      v[1] = H_(k2 + 1, k2 - 1);
      if (nr === 3) v[2] = H_(k2 + 2, k2 - 1);
    }
    // dlarfg(nr, v[0], v[1..])
    let t1 = 0;
    {
      const alpha = v[0];
      const xnorm = nr === 3 ? Math.hypot(v[1], v[2]) : Math.abs(v[1]);
      if (xnorm !== 0) {
        const beta = -sign(Math.hypot(alpha, xnorm), alpha);
        t1 = (beta - alpha) / beta;
        const sc = 1 / (alpha - beta);
        v[1] *= sc;
        if (nr === 3) v[2] *= sc;
        v[0] = beta;
      }
    }
    if (k2 > m) {
      h[k2 * n + k2 - 1] = v[0];
      h[(k2 + 1) * n + k2 - 1] = 0;
      if (k2 < i - 1) h[(k2 + 2) * n + k2 - 1] = 0;
    } else if (m > l) {
      h[k2 * n + k2 - 1] *= 1 - t1;
    }
    const v2 = v[1];
    const t2 = t1 * v2;
    if (nr === 3) {
      const v3 = v[2];
      const t3 = t1 * v3;
      const r0 = k2 * n,
        r1 = (k2 + 1) * n,
        r2 = (k2 + 2) * n;
      for (let j = k2; j <= i2; j++) {
        const sum = h[r0 + j] + v2 * h[r1 + j] + v3 * h[r2 + j];
        h[r0 + j] -= sum * t1;
        h[r1 + j] -= sum * t2;
        h[r2 + j] -= sum * t3;
      }
      const jmax = Math.min(k2 + 3, i);
      for (let j = i1; j <= jmax; j++) {
        const o = j * n + k2;
        const sum = h[o] + v2 * h[o + 1] + v3 * h[o + 2];
        h[o] -= sum * t1;
        h[o + 1] -= sum * t2;
        h[o + 2] -= sum * t3;
      }
      if (zTransposed) {
        const z0 = k2 * zc,
          z1 = z0 + zc,
          z2 = z1 + zc;
        for (let j = 0; j < zc; j++) {
          const sum = zd[z0 + j] + v2 * zd[z1 + j] + v3 * zd[z2 + j];
          zd[z0 + j] -= sum * t1;
          zd[z1 + j] -= sum * t2;
          zd[z2 + j] -= sum * t3;
        }
      } else
        for (let j = 0; j < nz; j++) {
          const o = j * zc + k2;
          const sum = zd[o] + v2 * zd[o + 1] + v3 * zd[o + 2];
          zd[o] -= sum * t1;
          zd[o + 1] -= sum * t2;
          zd[o + 2] -= sum * t3;
        }
    } else if (nr === 2) {
      const r0 = k2 * n,
        r1 = (k2 + 1) * n;
      for (let j = k2; j <= i2; j++) {
        const sum = h[r0 + j] + v2 * h[r1 + j];
        h[r0 + j] -= sum * t1;
        h[r1 + j] -= sum * t2;
      }
      for (let j = i1; j <= i; j++) {
        const o = j * n + k2;
        const sum = h[o] + v2 * h[o + 1];
        h[o] -= sum * t1;
        h[o + 1] -= sum * t2;
      }
      if (zTransposed) {
        const z0 = k2 * zc,
          z1 = z0 + zc;
        for (let j = 0; j < zc; j++) {
          const sum = zd[z0 + j] + v2 * zd[z1 + j];
          zd[z0 + j] -= sum * t1;
          zd[z1 + j] -= sum * t2;
        }
      } else
        for (let j = 0; j < nz; j++) {
          const o = j * zc + k2;
          const sum = zd[o] + v2 * zd[o + 1];
          zd[o] -= sum * t1;
          zd[o + 1] -= sum * t2;
        }
    }
  }
}

/**
 * Applies the plane rotation of a standardised 2x2 block at rows/cols (p, p+1):
 * rows p, p+1 of columns colFrom..n-1, columns p, p+1 of rows 0..rowTo-1, and Z's columns.
 */
function applyRot(H: Mat, Z: Mat | undefined, p: number, cs: number, sn: number, colFrom: number, rowTo: number, zTransposed = false): void {
  const n = H.r,
    h = H.d;
  for (let j = colFrom; j < n; j++) {
    const x = h[p * n + j],
      y = h[(p + 1) * n + j];
    h[p * n + j] = cs * x + sn * y;
    h[(p + 1) * n + j] = cs * y - sn * x;
  }
  for (let j = 0; j < rowTo; j++) {
    const x = h[j * n + p],
      y = h[j * n + p + 1];
    h[j * n + p] = cs * x + sn * y;
    h[j * n + p + 1] = cs * y - sn * x;
  }
  if (Z && zTransposed) {
    const zc = Z.c,
      zd = Z.d,
      z0 = p * zc,
      z1 = z0 + zc;
    for (let j = 0; j < zc; j++) {
      const x = zd[z0 + j],
        y = zd[z1 + j];
      zd[z0 + j] = cs * x + sn * y;
      zd[z1 + j] = cs * y - sn * x;
    }
  } else if (Z) {
    const zc = Z.c,
      zd = Z.d;
    for (let j = 0; j < Z.r; j++) {
      const x = zd[j * zc + p],
        y = zd[j * zc + p + 1];
      zd[j * zc + p] = cs * x + sn * y;
      zd[j * zc + p + 1] = cs * y - sn * x;
    }
  }
}

// ---------------------------------------------------------------- Schur form

export interface RealSchur {
  /** quasi-upper-triangular Schur factor */
  T: Mat;
  /** orthogonal Schur vectors: A = Z T Z' */
  Z: Mat;
  wr: Float64Array;
  wi: Float64Array;
}

/** real Schur form A = Z T Z' (no balancing: Z stays orthogonal) */
export function realSchur(A: Mat, method: QrMethod = 'auto'): RealSchur {
  const k = pow2Exponent(A);
  const T = clone(A);
  if (k) scalePow2InPlace(T.d, -k);
  // Z' is accumulated (every update a contiguous row), then transposed once
  const Zt = eye(A.r);
  hessenbergInPlace(T, Zt, true);
  const { wr, wi } = hqrInPlace(T, Zt, true, true, method);
  if (k) for (const d of [T.d, wr, wi]) scalePow2InPlace(d, k);
  return { T, Z: transpose(Zt), wr, wi };
}

/** eigenvalues of a real square matrix (balanced Hessenberg QR), unsorted */
export function eigvalsRaw(A: Mat, doBalance = true, method: QrMethod = 'auto'): { wr: Float64Array; wi: Float64Array } {
  const k = pow2Exponent(A);
  let As = A;
  if (k) {
    As = clone(A);
    scalePow2InPlace(As.d, -k);
  }
  const H = doBalance ? balance(As).B : clone(As);
  hessenbergInPlace(H);
  const ev = hqrInPlace(H, undefined, false, false, method);
  if (k) for (const d of [ev.wr, ev.wi]) scalePow2InPlace(d, k);
  return ev;
}

/** sorts eigenvalues by real part, then imaginary part */
export function sortComplex(list: Complex[]): Complex[] {
  return list.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

export function eigvalsSorted(A: Mat): Complex[] {
  const { wr, wi } = eigvalsRaw(A);
  const out: Complex[] = [];
  for (let i = 0; i < wr.length; i++) out.push([wr[i], wi[i]]);
  return sortComplex(out);
}

/** sizes of the diagonal blocks of a quasi-triangular T: starts[k], sizes[k] */
export function schurBlocks(T: Mat): { start: number[]; size: number[] } {
  const n = T.r;
  const start: number[] = [],
    size: number[] = [];
  for (let i = 0; i < n;) {
    const two = i + 1 < n && T.d[(i + 1) * n + i] !== 0;
    start.push(i);
    size.push(two ? 2 : 1);
    i += two ? 2 : 1;
  }
  return { start, size };
}

// ---------------------------------------------------------------- reordering

/**
 * Solves the small Sylvester equation T11 X - X T22 = S (p x q, p, q <= 2) by Gaussian
 * elimination with complete pivoting on its Kronecker form (at most 4x4), as LAPACK dlasy2.
 * Perturbs tiny pivots (the blocks being swapped then have nearly equal eigenvalues).
 */
// scratch buffers for the block swaps (blocks are at most 2x2, so all of these are tiny);
// reused to keep the O(n^2) swaps of a reordering from allocating
const SY_M = new Float64Array(16),
  SY_R = new Float64Array(4);
const SW_D = new Float64Array(16),
  SW_T11 = new Float64Array(4),
  SW_T22 = new Float64Array(4),
  SW_S12 = new Float64Array(4);
const SW_X = new Float64Array(4),
  SW_W = new Float64Array(8),
  SW_Q = new Float64Array(16),
  SW_V = new Float64Array(4);
const SW_TMP = new Float64Array(16),
  SW_D2 = new Float64Array(16);
const CP_COL = new Int32Array(4),
  CP_Y = new Float64Array(4);

function smallSylvester(t11: Float64Array, p: number, t22: Float64Array, q: number, s: Float64Array, x: Float64Array, sgn: number, tiny: number): void {
  // unknown x[i*q + j]; equation (i,j): sum_k t11[i,k] x[k,j] + sgn * sum_l x[i,l] t22[l,j] = s[i,j]
  const N = p * q;
  const M = SY_M.fill(0, 0, N * N);
  const rhs = SY_R;
  for (let i = 0; i < p; i++)
    for (let j = 0; j < q; j++) {
      const row = i * q + j;
      rhs[row] = s[i * q + j];
      for (let k = 0; k < p; k++) M[row * N + k * q + j] += t11[i * p + k];
      for (let l = 0; l < q; l++) M[row * N + i * q + l] += sgn * t22[l * q + j];
    }
  solveCompletePivot(M, rhs, N, tiny);
  for (let k = 0; k < N; k++) x[k] = rhs[k];
}

/**
 * In-place solve of the N x N system M y = rhs (result in rhs) by Gaussian elimination with
 * complete pivoting; pivots below `tiny` are replaced by `tiny` (LAPACK dlasy2's smin).
 * Returns the smallest pivot magnitude met (before perturbation).
 */
export function solveCompletePivot(M: Float64Array, rhs: Float64Array, N: number, tiny: number): number {
  const colp = N <= 4 ? CP_COL : new Int32Array(N);
  for (let i = 0; i < N; i++) colp[i] = i;
  let minPiv = Infinity;
  for (let k = 0; k < N; k++) {
    let bi = k,
      bj = k,
      best = -1;
    for (let i = k; i < N; i++)
      for (let j = k; j < N; j++) {
        const a = Math.abs(M[i * N + j]);
        if (a > best) {
          best = a;
          bi = i;
          bj = j;
        }
      }
    if (bi !== k) {
      for (let j = 0; j < N; j++) {
        const t = M[k * N + j];
        M[k * N + j] = M[bi * N + j];
        M[bi * N + j] = t;
      }
      const t = rhs[k];
      rhs[k] = rhs[bi];
      rhs[bi] = t;
    }
    if (bj !== k) {
      for (let i = 0; i < N; i++) {
        const t = M[i * N + k];
        M[i * N + k] = M[i * N + bj];
        M[i * N + bj] = t;
      }
      const t = colp[k];
      colp[k] = colp[bj];
      colp[bj] = t;
    }
    minPiv = Math.min(minPiv, Math.abs(M[k * N + k]));
    if (Math.abs(M[k * N + k]) < tiny) M[k * N + k] = M[k * N + k] < 0 ? -tiny : tiny;
    const pk = M[k * N + k];
    for (let i = k + 1; i < N; i++) {
      const l = (M[i * N + k] /= pk);
      if (l === 0) continue;
      for (let j = k + 1; j < N; j++) M[i * N + j] -= l * M[k * N + j];
      rhs[i] -= l * rhs[k];
    }
  }
  const y = N <= 4 ? CP_Y : new Float64Array(N);
  for (let i = N - 1; i >= 0; i--) {
    let s = rhs[i];
    for (let j = i + 1; j < N; j++) s -= M[i * N + j] * y[j];
    y[i] = s / M[i * N + i];
  }
  for (let i = 0; i < N; i++) rhs[colp[i]] = y[i];
  return minPiv;
}

/** X := Q' X on rows j1..j1+nb-1, columns c0..c1-1 of the row-major d (width w); Q is nb x nb, nb = 3 or 4 */
function smallOrthLeftT(d: Float64Array, w: number, j1: number, nb: number, c0: number, c1: number, Q: Float64Array): void {
  const o0 = j1 * w,
    o1 = o0 + w,
    o2 = o1 + w;
  if (nb === 3) {
    const q00 = Q[0],
      q01 = Q[1],
      q02 = Q[2],
      q10 = Q[3],
      q11 = Q[4],
      q12 = Q[5],
      q20 = Q[6],
      q21 = Q[7],
      q22 = Q[8];
    for (let j = c0; j < c1; j++) {
      const x0 = d[o0 + j],
        x1 = d[o1 + j],
        x2 = d[o2 + j];
      d[o0 + j] = q00 * x0 + q10 * x1 + q20 * x2;
      d[o1 + j] = q01 * x0 + q11 * x1 + q21 * x2;
      d[o2 + j] = q02 * x0 + q12 * x1 + q22 * x2;
    }
  } else {
    const o3 = o2 + w;
    const q00 = Q[0],
      q01 = Q[1],
      q02 = Q[2],
      q03 = Q[3],
      q10 = Q[4],
      q11 = Q[5],
      q12 = Q[6],
      q13 = Q[7];
    const q20 = Q[8],
      q21 = Q[9],
      q22 = Q[10],
      q23 = Q[11],
      q30 = Q[12],
      q31 = Q[13],
      q32 = Q[14],
      q33 = Q[15];
    for (let j = c0; j < c1; j++) {
      const x0 = d[o0 + j],
        x1 = d[o1 + j],
        x2 = d[o2 + j],
        x3 = d[o3 + j];
      d[o0 + j] = q00 * x0 + q10 * x1 + q20 * x2 + q30 * x3;
      d[o1 + j] = q01 * x0 + q11 * x1 + q21 * x2 + q31 * x3;
      d[o2 + j] = q02 * x0 + q12 * x1 + q22 * x2 + q32 * x3;
      d[o3 + j] = q03 * x0 + q13 * x1 + q23 * x2 + q33 * x3;
    }
  }
}

/** X := X Q on rows r0..r1-1, columns j1..j1+nb-1 of the row-major d (width w); Q is nb x nb, nb = 3 or 4 */
function smallOrthRight(d: Float64Array, w: number, r0: number, r1: number, j1: number, nb: number, Q: Float64Array): void {
  if (nb === 3) {
    const q00 = Q[0],
      q01 = Q[1],
      q02 = Q[2],
      q10 = Q[3],
      q11 = Q[4],
      q12 = Q[5],
      q20 = Q[6],
      q21 = Q[7],
      q22 = Q[8];
    for (let i = r0; i < r1; i++) {
      const o = i * w + j1;
      const x0 = d[o],
        x1 = d[o + 1],
        x2 = d[o + 2];
      d[o] = x0 * q00 + x1 * q10 + x2 * q20;
      d[o + 1] = x0 * q01 + x1 * q11 + x2 * q21;
      d[o + 2] = x0 * q02 + x1 * q12 + x2 * q22;
    }
  } else {
    const q00 = Q[0],
      q01 = Q[1],
      q02 = Q[2],
      q03 = Q[3],
      q10 = Q[4],
      q11 = Q[5],
      q12 = Q[6],
      q13 = Q[7];
    const q20 = Q[8],
      q21 = Q[9],
      q22 = Q[10],
      q23 = Q[11],
      q30 = Q[12],
      q31 = Q[13],
      q32 = Q[14],
      q33 = Q[15];
    for (let i = r0; i < r1; i++) {
      const o = i * w + j1;
      const x0 = d[o],
        x1 = d[o + 1],
        x2 = d[o + 2],
        x3 = d[o + 3];
      d[o] = x0 * q00 + x1 * q10 + x2 * q20 + x3 * q30;
      d[o + 1] = x0 * q01 + x1 * q11 + x2 * q21 + x3 * q31;
      d[o + 2] = x0 * q02 + x1 * q12 + x2 * q22 + x3 * q32;
      d[o + 3] = x0 * q03 + x1 * q13 + x2 * q23 + x3 * q33;
    }
  }
}

/**
 * Swaps the adjacent diagonal blocks of T starting at j1 (sizes n1 and n2), updating Z.
 * As LAPACK dlaexc: for two 1x1 blocks a single Givens rotation; otherwise solve
 * T11 X - X T22 = T12, take the orthogonal Q of the QR factorisation of [X; I] (whose span is
 * the invariant subspace of T22's eigenvalues), apply Q' T Q, zero the lower-left block and
 * re-standardise the 2x2 blocks. Returns false (and leaves T unchanged) if the swap would be
 * too inaccurate (eigenvalues too close).
 */
export function swapBlocks(T: Mat, Z: Mat | undefined, j1: number, n1: number, n2: number): boolean {
  const n = T.r,
    t = T.d;
  if (n1 === 1 && n2 === 1) {
    const j2 = j1 + 1;
    const t11 = t[j1 * n + j1],
      t22 = t[j2 * n + j2];
    // rotation that annihilates the (2,1) entry after swapping: dlartg(T12, t22 - t11)
    const f = t[j1 * n + j2],
      g = t22 - t11;
    const r = Math.hypot(f, g);
    if (r === 0) return true;
    const cs = f / r,
      sn = g / r;
    // rows j1, j2 from column j2+1 on; columns j1, j2 for rows < j1
    for (let j = j2 + 1; j < n; j++) {
      const x = t[j1 * n + j],
        y = t[j2 * n + j];
      t[j1 * n + j] = cs * x + sn * y;
      t[j2 * n + j] = cs * y - sn * x;
    }
    for (let i = 0; i < j1; i++) {
      const x = t[i * n + j1],
        y = t[i * n + j2];
      t[i * n + j1] = cs * x + sn * y;
      t[i * n + j2] = cs * y - sn * x;
    }
    t[j1 * n + j1] = t22;
    t[j2 * n + j2] = t11;
    if (Z) {
      const zc = Z.c,
        zd = Z.d;
      for (let i = 0; i < Z.r; i++) {
        const x = zd[i * zc + j1],
          y = zd[i * zc + j2];
        zd[i * zc + j1] = cs * x + sn * y;
        zd[i * zc + j2] = cs * y - sn * x;
      }
    }
    return true;
  }
  const nb = n1 + n2;
  // local copy of the nb x nb diagonal window
  const D = SW_D;
  for (let i = 0; i < nb; i++) for (let j = 0; j < nb; j++) D[i * nb + j] = t[(j1 + i) * n + j1 + j];
  let dnorm = 0;
  for (let k = 0; k < nb * nb; k++) dnorm = Math.max(dnorm, Math.abs(D[k]));
  const smin = Math.max(EPS * dnorm, SAFMIN);
  const t11 = SW_T11,
    t22 = SW_T22,
    s12 = SW_S12;
  for (let i = 0; i < n1; i++) for (let j = 0; j < n1; j++) t11[i * n1 + j] = D[i * nb + j];
  for (let i = 0; i < n2; i++) for (let j = 0; j < n2; j++) t22[i * n2 + j] = D[(n1 + i) * nb + n1 + j];
  for (let i = 0; i < n1; i++) for (let j = 0; j < n2; j++) s12[i * n2 + j] = D[i * nb + n1 + j];
  const X = SW_X;
  // T11 X - X T22 = T12
  smallSylvester(t11, n1, t22, n2, s12, X, -1, smin);
  // W = [X; I] (nb x n2) ; Householder QR -> full Q (nb x nb)
  const W = SW_W.fill(0);
  for (let i = 0; i < n1; i++) for (let j = 0; j < n2; j++) W[i * n2 + j] = -X[i * n2 + j];
  for (let j = 0; j < n2; j++) W[(n1 + j) * n2 + j] = 1;
  const Q = SW_Q.fill(0);
  for (let i = 0; i < nb; i++) Q[i * nb + i] = 1;
  const vv = SW_V;
  for (let k = 0; k < n2; k++) {
    let alpha = W[k * n2 + k];
    let xn = 0;
    for (let i = k + 1; i < nb; i++) xn = Math.hypot(xn, W[i * n2 + k]);
    if (xn === 0) continue;
    const beta = -sign(Math.hypot(alpha, xn), alpha);
    const tau = (beta - alpha) / beta;
    vv.fill(0);
    vv[k] = 1;
    for (let i = k + 1; i < nb; i++) vv[i] = W[i * n2 + k] / (alpha - beta);
    alpha = beta;
    // W := (I - tau v v') W
    for (let j = k; j < n2; j++) {
      let s = 0;
      for (let i = k; i < nb; i++) s += vv[i] * W[i * n2 + j];
      s *= tau;
      for (let i = k; i < nb; i++) W[i * n2 + j] -= s * vv[i];
    }
    // Q := Q (I - tau v v')
    for (let i = 0; i < nb; i++) {
      let s = 0;
      for (let j = k; j < nb; j++) s += Q[i * nb + j] * vv[j];
      s *= tau;
      for (let j = k; j < nb; j++) Q[i * nb + j] -= s * vv[j];
    }
  }
  // D' = Q' D Q
  const tmp = SW_TMP;
  for (let i = 0; i < nb; i++)
    for (let j = 0; j < nb; j++) {
      let s = 0;
      for (let k = 0; k < nb; k++) s += Q[k * nb + i] * D[k * nb + j];
      tmp[i * nb + j] = s;
    }
  const D2 = SW_D2;
  for (let i = 0; i < nb; i++)
    for (let j = 0; j < nb; j++) {
      let s = 0;
      for (let k = 0; k < nb; k++) s += tmp[i * nb + k] * Q[k * nb + j];
      D2[i * nb + j] = s;
    }
  // check the lower-left n1 x n2 ... block (rows n2.., cols 0..n2-1) is negligible
  let lowerleft = 0;
  for (let i = n2; i < nb; i++) for (let j = 0; j < n2; j++) lowerleft = Math.max(lowerleft, Math.abs(D2[i * nb + j]));
  const thresh = Math.max(10 * EPS * dnorm, SAFMIN);
  if (lowerleft > thresh) return false;
  // accept: apply Q to the full T and Z
  // rows j1..j1+nb-1: T[rows, :] = Q' T[rows, :]   (columns j1+nb.. ; the window is set from D2)
  smallOrthLeftT(t, n, j1, nb, j1 + nb, n, Q);
  smallOrthRight(t, n, 0, j1, j1, nb, Q);
  for (let i = 0; i < nb; i++) for (let j = 0; j < nb; j++) t[(j1 + i) * n + j1 + j] = D2[i * nb + j];
  for (let i = n2; i < nb; i++) for (let j = 0; j < n2; j++) t[(j1 + i) * n + j1 + j] = 0;
  if (Z) smallOrthRight(Z.d, Z.c, 0, Z.r, j1, nb, Q);
  // re-standardise the new blocks: sizes n2 (at j1) and n1 (at j1+n2)
  if (n2 === 2) standardize(T, Z, j1);
  else t[(j1 + 1) * n + j1] = 0;
  if (n1 === 2) standardize(T, Z, j1 + n2);
  else if (j1 + n2 + 1 < n && n1 === 1) {
    /* the 1x1 at j1+n2 has a zero below it already (it is the last row of the window or T's structure) */
  }
  return true;
}

/** re-standardises the 2x2 diagonal block at p (dlanv2 + rotation of the rest of T and Z) */
export function standardize(T: Mat, Z: Mat | undefined, p: number): void {
  const n = T.r,
    t = T.d;
  const r = lanv2(t[p * n + p], t[p * n + p + 1], t[(p + 1) * n + p], t[(p + 1) * n + p + 1]);
  t[p * n + p] = r.a;
  t[p * n + p + 1] = r.b;
  t[(p + 1) * n + p] = r.c;
  t[(p + 1) * n + p + 1] = r.d;
  applyRot(T, Z, p, r.cs, r.sn, p + 2, p);
}

/**
 * Reorders the real Schur form so that the eigenvalues for which `select(re, im)` is true
 * come first (LAPACK dtrsen's ordering by repeated adjacent swaps, dtrexc). Complex pairs are
 * selected together (the predicate is evaluated on the pair's first eigenvalue). Updates T, Z
 * in place and returns the number of selected eigenvalues (the dimension of the invariant
 * subspace spanned by the first columns of Z). Throws if a swap fails.
 */
export function reorderSchur(T: Mat, Z: Mat | undefined, select: (re: number, im: number) => boolean): number {
  const n = T.r,
    t = T.d;
  let ks = 0; // next position for a selected block
  let k = 0;
  while (k < n) {
    const two = k + 1 < n && t[(k + 1) * n + k] !== 0;
    const sz = two ? 2 : 1;
    const re = t[k * n + k];
    const im = two ? Math.sqrt(Math.abs(t[k * n + k + 1])) * Math.sqrt(Math.abs(t[(k + 1) * n + k])) : 0;
    if (select(re, im)) {
      // move block at k down to ks by successive swaps with the preceding block
      let here = k;
      while (here > ks) {
        // size of the block just above `here`
        const prevTwo = here - 2 >= ks && t[(here - 1) * n + here - 2] !== 0;
        const psz = prevTwo ? 2 : 1;
        const ok = swapBlocks(T, Z, here - psz, psz, sz);
        if (!ok) throw new Error('Schur reordering failed: eigenvalues too close to separate');
        here -= psz;
      }
      ks += sz;
    }
    k += sz;
  }
  return ks;
}

/** eigenvalues read off a quasi-triangular T */
export function schurEigenvalues(T: Mat): Complex[] {
  const n = T.r,
    t = T.d;
  const out: Complex[] = [];
  for (let k = 0; k < n;) {
    if (k + 1 < n && t[(k + 1) * n + k] !== 0) {
      const im = Math.sqrt(Math.abs(t[k * n + k + 1])) * Math.sqrt(Math.abs(t[(k + 1) * n + k]));
      out.push([t[k * n + k], im], [t[(k + 1) * n + k + 1], -im]);
      k += 2;
    } else {
      out.push([t[k * n + k], 0]);
      k++;
    }
  }
  return out;
}

export { zeros };
