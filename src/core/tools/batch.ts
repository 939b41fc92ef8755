/**
 * The oracle's JSONL problem format: one problem per line in, one result line per problem
 * out, never stopping at a bad one. Non-finite numbers are written as the strings
 * "Infinity", "-Infinity" and "NaN" (strict JSON has no literals for them).
 */
import { isControlError, quoteInput } from '../errors.js';
import type { Verification } from '../verify/index.js';
import { callTool, solverPool, VerificationFailed, type RunOptions } from './runner.js';

export interface Problem {
  /** as given: a string or a number (echoed unchanged); a line without one is named line-N */
  id: string | number;
  tool: string;
  args: Record<string, unknown>;
}

/** the verifier's verdict on a result, as machine output carries it */
export interface BatchVerdict {
  /** null: the tool has no independent check (said in checks), never a fake pass */
  ok: boolean | null;
  checks: string[];
}

export type BatchLine =
  { id: string | number; result: Record<string, unknown>; verification: BatchVerdict } | { id: string | number; error: string; verification?: BatchVerdict };

export interface BatchOptions extends RunOptions {
  /** problems solved at once (results are still written in input order); default: the pool's size */
  concurrency?: number;
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

/**
 * One problem through the verified call path: a result leaves only with the verifier's
 * passing verdict; a rejected one is an error line that carries the failed checks.
 */
export async function solveProblem(p: Problem, opts: RunOptions = {}): Promise<BatchLine> {
  try {
    const call = await callTool(p.tool, p.args, opts);
    return { id: p.id, result: encodeNonFinite(call.result) as Record<string, unknown>, verification: verdictOf(call.verification) };
  } catch (e) {
    if (e instanceof VerificationFailed) return { id: p.id, error: errorMessage(e), verification: verdictOf(e.verification) };
    return { id: p.id, error: errorMessage(e) };
  }
}

/** the verifier's verdict as machine output carries it: each check as "ok: ..." or "FAILED: ..." */
export function verdictOf(v: Verification | undefined): BatchVerdict {
  if (!v) return { ok: null, checks: ['not independently verified (no check for this tool)'] };
  return { ok: v.ok, checks: v.checks.map((c) => `${c.ok ? 'ok' : 'FAILED'}: ${c.detail}`) };
}

/** one output line per non-empty input line; a line that is not a problem gets an error line */
export async function solveJsonl(text: string, opts: BatchOptions = {}): Promise<BatchLine[]> {
  const out: BatchLine[] = [];
  for await (const l of solveJsonlLines(text, opts)) out.push(l);
  return out;
}

/** a problem line read, or the error line it gets */
function readLine(line: string, i: number): Problem | BatchLine {
  let p: any;
  try {
    p = JSON.parse(line);
  } catch (e) {
    return { id: `line-${i + 1}`, error: `line ${i + 1} is not JSON: ${quoteInput((e as Error).message)}` };
  }
  if (!p || typeof p !== 'object' || Array.isArray(p)) return { id: `line-${i + 1}`, error: `line ${i + 1} is not a problem object ({"id", "tool", "args"}).` };
  let id: string | number = `line-${i + 1}`;
  if (typeof p.id === 'string' || (typeof p.id === 'number' && Number.isFinite(p.id))) id = p.id;
  else if (p.id !== undefined)
    return { id, error: `line ${i + 1}: "id" must be a string or a number, not ${p.id === null ? 'null' : Array.isArray(p.id) ? 'an array' : typeof p.id}.` };
  if (typeof p.tool !== 'string' || !p.args || typeof p.args !== 'object' || Array.isArray(p.args))
    return { id, error: `line ${i + 1} needs "tool" (a string) and "args" (an object).` };
  return { id, tool: p.tool, args: p.args };
}

/**
 * One result per problem line, in input order, each yielded as soon as it and every line
 * before it are done, so a caller can write it at once: a later line that fails, hangs (it is
 * stopped at its time budget) or crashes its thread never costs the results before it. Up to
 * `concurrency` problems are solved at once on the solver threads. Lines end at \n, \r\n or a
 * lone \r (a file saved with old Mac line ends is still one problem per line).
 */
export async function* solveJsonlLines(text: string, opts: BatchOptions = {}): AsyncGenerator<BatchLine> {
  const lines = text.split(/\r\n|\r|\n/);
  const width = Math.max(1, opts.concurrency ?? solverPool().size);
  const inFlight: Promise<BatchLine>[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    const p = readLine(lines[i], i);
    inFlight.push('tool' in p ? solveProblem(p, opts) : Promise.resolve(p));
    if (inFlight.length >= width) yield await inFlight.shift()!;
  }
  while (inFlight.length) yield await inFlight.shift()!;
}
