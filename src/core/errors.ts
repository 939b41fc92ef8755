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

/** the most characters of a user's input an error message quotes */
export const QUOTE_MAX = 200;

/**
 * A user's input as an error message may quote it: as is up to `max` characters, else its
 * first `max` characters and its length ("abc… (1000000 characters)"), so an error never
 * echoes a megabyte back.
 */
export function quoteInput(text: string, max = QUOTE_MAX): string {
  if (text.length <= max) return text;
  // never cut a surrogate pair in half
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]) ? max - 1 : max;
  return `${text.slice(0, end)}… (${text.length} characters)`;
}
