// Placeholder until the matrix-literal parser lands (being written now); keeps the build green.
import { ControlError } from '../errors.js';
import type { Matrix } from '../types.js';

export function parseMatrixLiteral(text: string): Matrix {
  try {
    const v = JSON.parse(text);
    if (typeof v === 'number') return [[v]];
    return v as Matrix;
  } catch {
    throw new ControlError(`cannot read a matrix from ${JSON.stringify(text)}`);
  }
}
