/**
 * Shape checks shared by all solvers. Each throws a ControlError that names the argument and
 * the shapes involved, so a user sees "B has 3 rows but A is 2x2" rather than a stack trace.
 */
import { ControlError } from '../errors.js';
import type { Matrix } from '../types.js';

/** an array of rows (a matrix as JSON carries it; an empty one too): the shape, not the entries */
export const isRows = (v: unknown): v is Matrix => Array.isArray(v) && v.every((r) => Array.isArray(r));

/** a non-empty matrix of numbers: what a result field must be to be used as a matrix value */
export const isNumberMatrix = (v: unknown): v is Matrix =>
  Array.isArray(v) && v.length > 0 && v.every((r) => Array.isArray(r) && r.every((x) => typeof x === 'number'));

export function size(M: Matrix): [number, number] {
  return [M.length, M.length ? M[0].length : 0];
}

export function fmtSize(M: Matrix): string {
  const [r, c] = size(M);
  return `${r}x${c}`;
}

/** rows all the same length, every entry a finite number */
export function checkMatrix(M: unknown, name: string): Matrix {
  if (!Array.isArray(M)) throw new ControlError(`${name} must be a matrix (an array of rows).`);
  const rows = M as unknown[];
  let cols = -1;
  rows.forEach((row, i) => {
    if (!Array.isArray(row)) throw new ControlError(`${name}: row ${i + 1} is not an array.`);
    if (cols < 0) cols = row.length;
    else if (row.length !== cols) throw new ControlError(`${name}: row ${i + 1} has ${row.length} entries but row 1 has ${cols}.`);
    row.forEach((v, j) => {
      if (typeof v !== 'number' || !Number.isFinite(v))
        throw new ControlError(`${name}(${i + 1},${j + 1}) is ${typeof v === 'number' ? String(v) : JSON.stringify(v)}: every entry must be a finite number.`);
    });
  });
  return rows as Matrix;
}

/**
 * n for a square n x n matrix. An empty one (0x0, written [] or [[]]) is refused unless
 * `allowEmpty` (then 0): a model with no states is a static gain, and a design or an equation
 * in the states (lqr, care, lyap, place, ...) has nothing to work on.
 */
export function checkSquare(M: Matrix, name: string, allowEmpty = false): number {
  const [r, c] = size(M);
  if (r === 0 || (c === 0 && M.every((row) => row.length === 0))) {
    if (allowEmpty) return 0;
    if (name !== 'A') throw new ControlError(`${name} is empty (0x0).`);
    throw new ControlError(
      'A is 0x0: the model has no states (it is a static gain y = D u), so there is nothing to design or solve here. Tools that take (A, B, C, D), e.g. step, freqresp, dcgain or ss2tf, accept a static gain.',
    );
  }
  if (r !== c) throw new ControlError(`${name} must be square, but it is ${r}x${c}.`);
  return r;
}

export function checkRows(M: Matrix, n: number, name: string, against: string): void {
  if (M.length !== n) throw new ControlError(`${name} has ${M.length} rows but ${against} has ${n}; they must match.`);
}

export function checkCols(M: Matrix, n: number, name: string, against: string): void {
  const c = size(M)[1];
  if (c !== n) throw new ControlError(`${name} has ${c} columns but ${against} needs ${n}.`);
}

export function checkSymmetric(M: Matrix, name: string, rtol = 1e-10): void {
  const n = checkSquare(M, name);
  let scale = 0;
  for (const row of M) for (const v of row) scale = Math.max(scale, Math.abs(v));
  for (let i = 0; i < n; i++)
    for (let j = 0; j < i; j++)
      if (Math.abs(M[i][j] - M[j][i]) > rtol * Math.max(scale, 1e-300))
        throw new ControlError(`${name} must be symmetric, but ${name}(${i + 1},${j + 1}) = ${M[i][j]} and ${name}(${j + 1},${i + 1}) = ${M[j][i]}.`);
}
