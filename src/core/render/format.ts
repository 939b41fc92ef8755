/**
 * Number formatting for display: 6 significant figures (full precision stays in machine
 * output), no "-0", exponents only where fixed notation would mislead.
 */
import type { Complex } from '../types.js';

export const DISPLAY_DIGITS = 6;

function stripZeros(s: string): string {
  // "1.50000" -> "1.5", "2.00000e-7" -> "2e-7"
  const [mant, exp] = s.split('e');
  let m = mant.includes('.') ? mant.replace(/0+$/, '').replace(/\.$/, '') : mant;
  if (m === '-0') m = '0';
  if (exp === undefined) return m;
  const e = Number(exp);
  return `${m}e${e < 0 ? '-' : '+'}${Math.abs(e)}`.replace('e+', 'e');
}

/** a real number to `digits` significant figures: 0.236068, -1.5, 3.2e-16, Inf, NaN */
export function fmt(x: number, digits = DISPLAY_DIGITS): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Inf';
  if (x === -Infinity) return '-Inf';
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e-4 && a < 10 ** digits) return stripZeros(x.toPrecision(digits));
  return stripZeros(x.toExponential(digits - 1));
}

/** a small magnitude such as a residual: one or two significant figures, 3.1e-16 */
export function fmtSmall(x: number): string {
  if (!Number.isFinite(x)) return fmt(x);
  if (x === 0) return '0';
  return stripZeros(x.toExponential(1));
}

/**
 * Treats an imaginary part below `tol` relative to the modulus as zero, so that an
 * eigenvalue computed as -2 + 1e-17j reads as -2.
 */
function isReal([re, im]: Complex, tol = 1e-12): boolean {
  return Math.abs(im) <= tol * Math.max(Math.hypot(re, im), 1e-300);
}

export function fmtComplex(z: Complex, digits = DISPLAY_DIGITS): string {
  const [re, im] = z;
  if (isReal(z)) return fmt(re, digits);
  const sign = im < 0 ? '-' : '+';
  const r = fmt(re, digits);
  return `${r === '0' ? '' : r + ' '}${r === '0' && sign === '+' ? '' : sign + (r === '0' ? '' : ' ')}${fmt(Math.abs(im), digits)}j`;
}

/**
 * A list of eigenvalues as text, conjugate pairs folded: "-0.25 ± 1.39192j, -2".
 * Expects conjugates adjacent or not; pairs them by value.
 */
export function fmtEigenvalues(list: Complex[], digits = DISPLAY_DIGITS): string[] {
  const used = new Array(list.length).fill(false);
  const out: string[] = [];
  for (let i = 0; i < list.length; i++) {
    if (used[i]) continue;
    used[i] = true;
    const z = list[i];
    if (isReal(z)) {
      out.push(fmt(z[0], digits));
      continue;
    }
    // look for the conjugate
    let j = -1;
    for (let k = i + 1; k < list.length; k++) {
      if (used[k]) continue;
      const w = list[k];
      const scale = Math.max(Math.hypot(z[0], z[1]), 1e-300);
      if (Math.abs(w[0] - z[0]) <= 1e-9 * scale && Math.abs(w[1] + z[1]) <= 1e-9 * scale) {
        j = k;
        break;
      }
    }
    if (j >= 0) {
      used[j] = true;
      const r = fmt(z[0], digits);
      out.push(`${r === '0' ? '' : r + ' '}± ${fmt(Math.abs(z[1]), digits)}j`);
    } else out.push(fmtComplex(z, digits));
  }
  return out;
}

/** LaTeX for a number: exponents as \times 10^{k} */
export function latexNum(x: number, digits = DISPLAY_DIGITS): string {
  const s = fmt(x, digits);
  if (s === 'Inf') return '\\infty';
  if (s === '-Inf') return '-\\infty';
  const m = /^(-?[\d.]+)e(-?\d+)$/.exec(s);
  return m ? `${m[1]} \\times 10^{${m[2]}}` : s;
}
