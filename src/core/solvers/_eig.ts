/**
 * The one place the analysis solvers get eigenvalues from (switches to the kernel's
 * `eigenvalues` once it exists).
 */
export { eigenvaluesShim as eigenvalues } from './_eig_shim.js';
