/**
 * The one error type the core throws for problems a user can act on: bad input, a problem
 * with no solution, a size limit. Its message is shown to the user as is, so it must say
 * what is wrong and, where there is one, the way out.
 */
export class ControlError extends Error {
  override readonly name = 'ControlError';
  constructor(
    message: string,
    /** machine-readable kind, for front ends that want to branch on it */
    readonly code: ControlErrorCode = 'invalid',
  ) {
    super(message);
  }
}

export type ControlErrorCode =
  | 'invalid' // malformed or inconsistent input (shapes, NaN/Inf, bad literal)
  | 'infeasible' // well-formed but no solution exists (not stabilisable, singular, ...)
  | 'numerical' // a solution may exist but cannot be computed reliably in double precision
  | 'limit' // exceeds a configured size limit
  | 'unsupported' // a capability that is not available (no model, ...)
  | 'cancelled'; // the user stopped it (what was done is kept where that is possible)

export function isControlError(e: unknown): e is ControlError {
  return e instanceof ControlError;
}
