/**
 * Real polynomials as coefficient arrays, highest power first (MATLAB/NumPy order).
 * Roots come from the eigenvalues of a balanced companion matrix.
 */
import type { Complex } from '../types.js';
import { zeros } from './dense.js';
import { eigvalsSorted } from './schur.js';

/** drops leading zeros; the zero polynomial becomes [0] */
export function polyStrip(p: number[]): number[] {
  let i = 0;
  while (i < p.length - 1 && p[i] === 0) i++;
  return p.slice(i);
}

export function polyRoots(p: number[]): Complex[] {
  const q = polyStrip(p);
  if (q.length <= 1) return [];
  // trailing zeros are roots at 0
  let nz = 0;
  while (nz < q.length - 1 && q[q.length - 1 - nz] === 0) nz++;
  const c = q.slice(0, q.length - nz);
  const n = c.length - 1;
  const out: Complex[] = [];
  if (n >= 1) {
    const C = zeros(n, n);
    for (let j = 0; j < n; j++) C.d[j] = -c[j + 1] / c[0];
    for (let i = 1; i < n; i++) C.d[i * n + i - 1] = 1;
    out.push(...eigvalsSorted(C));
  }
  for (let i = 0; i < nz; i++) out.push([0, 0]);
  return out;
}

/** monic real polynomial with the given roots (conjugate pairs expected; imaginary parts of the result dropped) */
export function polyFromRoots(roots: Complex[]): number[] {
  let re = [1];
  let im = [0];
  for (const [a, b] of roots) {
    const nr = new Array(re.length + 1).fill(0);
    const ni = new Array(re.length + 1).fill(0);
    for (let k = 0; k < re.length; k++) {
      nr[k] += re[k];
      ni[k] += im[k];
      // - (a + ib) * (re + i im)
      nr[k + 1] -= a * re[k] - b * im[k];
      ni[k + 1] -= a * im[k] + b * re[k];
    }
    re = nr;
    im = ni;
  }
  return re;
}

export function polyval(p: number[], x: number): number {
  let s = 0;
  for (const c of p) s = s * x + c;
  return s;
}

/** p(x) for complex x = xr + i xi */
export function polyvalC(p: number[], xr: number, xi: number): Complex {
  let sr = 0;
  let si = 0;
  for (const c of p) {
    const t = sr * xr - si * xi + c;
    si = sr * xi + si * xr;
    sr = t;
  }
  return [sr, si];
}

export function conv(a: number[], b: number[]): number[] {
  const out = new Array(a.length + b.length - 1).fill(0);
  for (let i = 0; i < a.length; i++) for (let j = 0; j < b.length; j++) out[i + j] += a[i] * b[j];
  return out;
}

export function polyder(p: number[]): number[] {
  const n = p.length - 1;
  if (n <= 0) return [0];
  return p.slice(0, n).map((c, i) => c * (n - i));
}

/** a + b with right alignment (different lengths allowed) */
export function polyadd(a: number[], b: number[], beta = 1): number[] {
  const n = Math.max(a.length, b.length);
  const out = new Array(n).fill(0);
  for (let i = 0; i < a.length; i++) out[n - a.length + i] += a[i];
  for (let i = 0; i < b.length; i++) out[n - b.length + i] += beta * b[i];
  return out;
}

/** left-pads with zeros to length n */
export function polyPad(p: number[], n: number): number[] {
  return p.length >= n ? p.slice() : [...new Array(n - p.length).fill(0), ...p];
}
