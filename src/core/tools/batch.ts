/**
 * The oracle's JSONL problem format: one problem per line in, one result line per problem
 * out, never stopping at a bad one. Non-finite numbers are written as the strings
 * "Infinity", "-Infinity" and "NaN" (strict JSON has no literals for them).
 */
import { isControlError } from '../errors.js';
import { runTool, type CallOptions } from './call.js';

export interface Problem {
  id: string;
  tool: string;
  args: Record<string, unknown>;
}

export type BatchLine = { id: string; result: Record<string, unknown> } | { id: string; error: string };

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

export function solveProblem(p: Problem, opts: CallOptions = {}): BatchLine {
  try {
    return { id: p.id, result: encodeNonFinite(runTool(p.tool, p.args, opts)) as Record<string, unknown> };
  } catch (e) {
    return { id: p.id, error: errorMessage(e) };
  }
}

/** one output line per non-empty input line; a line that is not a problem gets an error line */
export function solveJsonl(text: string, opts: CallOptions = {}): BatchLine[] {
  return [...solveJsonlLines(text, opts)];
}

/**
 * One result per problem line, as each is solved, so a caller can write it at once: a later
 * line that fails or takes long never costs the results before it. Lines end at \n, \r\n or
 * a lone \r (a file saved with old Mac line ends is still one problem per line).
 */
export function* solveJsonlLines(text: string, opts: CallOptions = {}): Generator<BatchLine> {
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
