/**
 * The one place the analysis solvers get eigenvalues from: the kernel's balanced
 * Hessenberg + Francis QR (`eigenvalues` in statesp.ts), sorted by real then imaginary part.
 */
import type { Complex } from '../types.js';
import { eigenvalues as kernelEig } from './statesp.js';

export function eigenvalues(A: number[][]): Complex[] {
  return kernelEig(A);
}
