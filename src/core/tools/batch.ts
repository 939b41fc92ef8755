/**
 * The oracle's JSONL problem format: one problem per line in, one result line per problem
 * out, never stopping at a bad one. Non-finite numbers are written as the strings
 * "Infinity", "-Infinity" and "NaN" (strict JSON has no literals for them).
 */
import { isControlError } from '../errors.js';
import { prepareArgs, type CallOptions } from './call.js';
import { verify } from '../verify/index.js';

export interface Problem {
  id: string;
  tool: string;
  args: Record<string, unknown>;
}

/** the verifier's verdict on a result, as machine output carries it */
export interface BatchVerdict {
  ok: boolean;
  checks: string[];
}

export type BatchLine = { id: string; result: Record<string, unknown>; verification?: BatchVerdict } | { id: string; error: string };

export interface BatchOptions extends CallOptions {
  /** run the independent verifier and put its verdict beside the result (the CLI does) */
  verify?: boolean;
}

/** replaces non-finite numbers by their oracle strings, recursively */
export function encodeNonFinite(v: unknown): unknown {
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return 'NaN';
    if (v === Infinity) return 'Infinity';
    if (v === -Infinity) return '-Infinity';
    return v;
  }
  if (Array.isArray(v)) return v.map(encodeNonFinite);
  if (v && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = encodeNonFinite(x);
    return o;
  }
  return v;
}

/** the inverse, for reading oracle data: "Infinity" etc. become numbers */
export function decodeNonFinite(v: unknown): unknown {
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  if (v === 'NaN' || v === null) return NaN;
  if (Array.isArray(v)) return v.map(decodeNonFinite);
  if (v && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = decodeNonFinite(x);
    return o;
  }
  return v;
}

export function errorMessage(e: unknown): string {
  if (isControlError(e)) return e.message;
  if (e instanceof Error) return `internal error: ${e.message}`;
  return `internal error: ${String(e)}`;
}

export function solveProblem(p: Problem, opts: BatchOptions = {}): BatchLine {
  let args: Record<string, unknown>;
  let result: Record<string, unknown>;
  try {
    const prepared = prepareArgs(p.tool, p.args, opts);
    args = prepared.args;
    result = prepared.tool.run(args);
  } catch (e) {
    return { id: p.id, error: errorMessage(e) };
  }
  const line: BatchLine = { id: p.id, result: encodeNonFinite(result) as Record<string, unknown> };
  if (opts.verify) line.verification = verdictOf(p.tool, args, result);
  return line;
}

/** the verifier's verdict, never a throw: a check that cannot run is a failed check, said */
export function verdictOf(tool: string, args: Record<string, unknown>, result: Record<string, unknown>): BatchVerdict {
  try {
    const v = verify(tool, args, result);
    if (!v) return { ok: false, checks: ['not independently verified (no check for this tool)'] };
    return { ok: v.ok, checks: v.checks.map((c) => `${c.ok ? 'ok' : 'FAILED'}: ${c.detail}`) };
  } catch (e) {
    return { ok: false, checks: [`the verifier could not check this result: ${errorMessage(e)}`] };
  }
}

/** one output line per non-empty input line; a line that is not a problem gets an error line */
export function solveJsonl(text: string, opts: BatchOptions = {}): BatchLine[] {
  return [...solveJsonlLines(text, opts)];
}

/**
 * One result per problem line, as each is solved, so a caller can write it at once: a later
 * line that fails or takes long never costs the results before it. Lines end at \n, \r\n or
 * a lone \r (a file saved with old Mac line ends is still one problem per line).
 */
export function* solveJsonlLines(text: string, opts: BatchOptions = {}): Generator<BatchLine> {
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim()) continue;
    let p: Problem;
    try {
      p = JSON.parse(line);
    } catch (e) {
      yield { id: `line-${i + 1}`, error: `line ${i + 1} is not JSON: ${(e as Error).message}` };
      continue;
    }
    const id = typeof p?.id === 'string' ? p.id : `line-${i + 1}`;
    if (typeof p?.tool !== 'string' || !p.args || typeof p.args !== 'object') {
      yield { id, error: `line ${i + 1} needs "tool" (a string) and "args" (an object).` };
      continue;
    }
    yield solveProblem({ ...p, id }, opts);
  }
}
