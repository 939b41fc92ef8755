/**
 * Balancing of a general matrix, as LAPACK dgebal with job 'B': first permutations that
 * isolate eigenvalues (rows or columns with no off-diagonal entries in the active part),
 * then diagonal scaling by powers of 2 (exact, no rounding) that makes row and column norms
 * comparable. Written by hand: no maintained JS library balances (mathjs and ml-matrix do not).
 *
 *   B = D^-1 P' A P D,   with (P x)[perm[i]] = x[i] and D = diag(scale).
 * An invariant subspace V of B maps back to A as  V_A[perm[i], :] = scale[i] * V[i, :].
 * With `inputs` (an n x m matrix G, no permutation), each state's row norm includes its row of G
 * and G's rows are scaled with A's (D^-1 G): the state scaling of SLICOT TB01ID for (A, B).
 */
import { type Mat, clone, EPS, SAFMIN } from './dense.js';

export interface Balanced {
  B: Mat;
  perm: Int32Array;
  scale: Float64Array;
  ilo: number; // 0-based, first row of the active block
  ihi: number; // 0-based, last row of the active block
  /** D^-1 G when `inputs` G was given */
  inputs?: Mat;
}

export function balance(A: Mat, opts: { permute?: boolean; scale?: boolean; inputs?: Mat } = {}): Balanced {
  const G = opts.inputs ? clone(opts.inputs) : undefined;
  if (G && opts.permute !== false) throw new Error('balance: inputs need permute: false');
  const gd = G?.d,
    mg = G?.c ?? 0;
  const permute = opts.permute ?? true;
  const doScale = opts.scale ?? true;
  const n = A.r;
  const B = clone(A);
  const b = B.d;
  const perm = new Int32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  const scale = new Float64Array(n).fill(1);

  const swap = (j: number, m: number, k: number, l: number) => {
    // swap rows and columns j and m within the currently relevant range
    if (j === m) return;
    for (let i = 0; i <= l; i++) {
      const t = b[i * n + j];
      b[i * n + j] = b[i * n + m];
      b[i * n + m] = t;
    }
    for (let i = k; i < n; i++) {
      const t = b[j * n + i];
      b[j * n + i] = b[m * n + i];
      b[m * n + i] = t;
    }
    const t = perm[j];
    perm[j] = perm[m];
    perm[m] = t;
  };

  let k = 0,
    l = n - 1;
  if (permute && n > 0) {
    // rows isolating an eigenvalue: push them to the bottom
    let found = true;
    while (found && l >= 0) {
      found = false;
      for (let j = l; j >= 0; j--) {
        let isolated = true;
        for (let i = 0; i <= l; i++) {
          if (i !== j && b[j * n + i] !== 0) {
            isolated = false;
            break;
          }
        }
        if (isolated) {
          swap(j, l, k, l);
          if (l === 0) {
            l = -1;
            break;
          }
          l--;
          found = true;
          break;
        }
      }
    }
    // columns isolating an eigenvalue: push them to the top
    found = l >= 0;
    while (found) {
      found = false;
      for (let j = k; j <= l; j++) {
        let isolated = true;
        for (let i = k; i <= l; i++) {
          if (i !== j && b[i * n + j] !== 0) {
            isolated = false;
            break;
          }
        }
        if (isolated) {
          swap(j, k, k, l);
          k++;
          found = true;
          break;
        }
      }
    }
  }
  if (l < k) return { B, perm, scale, ilo: 0, ihi: -1, inputs: G };

  if (doScale) {
    const radix = 2;
    const sfmin1 = SAFMIN / (EPS * 0.5);
    const sfmax1 = 1 / sfmin1;
    const sfmin2 = sfmin1 * radix;
    const sfmax2 = 1 / sfmin2;
    let noconv = true;
    let sweeps = 0;
    while (noconv && sweeps++ < 100) {
      noconv = false;
      for (let i = k; i <= l; i++) {
        let c = 0,
          r = 0,
          ca = 0,
          ra = 0;
        for (let j = k; j <= l; j++) {
          const cv = b[j * n + i],
            rv = b[i * n + j];
          c += cv * cv;
          r += rv * rv;
        }
        c = Math.sqrt(c);
        r = Math.sqrt(r);
        for (let j = 0; j <= l; j++) ca = Math.max(ca, Math.abs(b[j * n + i]));
        for (let j = k; j < n; j++) ra = Math.max(ra, Math.abs(b[i * n + j]));
        if (gd) {
          let rg = 0;
          for (let j = 0; j < mg; j++) {
            const v = gd[i * mg + j];
            rg += v * v;
            ra = Math.max(ra, Math.abs(v));
          }
          r = Math.sqrt(r * r + rg);
        }
        if (c === 0 || r === 0) continue;
        let g = r / radix;
        let f = 1;
        const s = c + r;
        while (c < g && Math.max(f, c, ca) < sfmax2 && Math.min(r, g, ra) > sfmin2) {
          f *= radix;
          c *= radix;
          ca *= radix;
          r /= radix;
          g /= radix;
          ra /= radix;
        }
        g = c / radix;
        while (g >= r && Math.max(r, ra) < sfmax2 && Math.min(f, c, g, ca) > sfmin2) {
          f /= radix;
          c /= radix;
          g /= radix;
          ca /= radix;
          r *= radix;
          ra *= radix;
        }
        if (c + r >= 0.95 * s) continue;
        if (f < 1 && scale[i] < 1 && f * scale[i] <= sfmin1) continue;
        if (f > 1 && scale[i] > 1 && scale[i] >= sfmax1 / f) continue;
        const gi = 1 / f;
        scale[i] *= f;
        noconv = true;
        for (let j = k; j < n; j++) b[i * n + j] *= gi;
        for (let j = 0; j <= l; j++) b[j * n + i] *= f;
        if (gd) for (let j = 0; j < mg; j++) gd[i * mg + j] *= gi;
      }
    }
  }
  return { B, perm, scale, ilo: k, ihi: l, inputs: G };
}

/** maps rows of a basis of an invariant subspace of the balanced matrix back to A (in place into a new Mat) */
export function unbalanceVectors(bal: Balanced, V: Mat): Mat {
  const n = V.r,
    m = V.c;
  const out = { r: n, c: m, d: new Float64Array(n * m) };
  for (let i = 0; i < n; i++) {
    const s = bal.scale[i],
      dst = bal.perm[i] * m;
    for (let j = 0; j < m; j++) out.d[dst + j] = s * V.d[i * m + j];
  }
  return out;
}
