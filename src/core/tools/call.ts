/**
 * The arguments of a tool call: coercion of loosely typed arguments (as a language model or a
 * user writes them), JSON Schema validation by ajv, and the size limits. `runner.ts` callTool
 * prepares every call here, then solves and verifies it on a solver thread.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { ControlError, quoteInput } from '../errors.js';
import { parseMatrixLiteral } from '../parse/index.js';
import type { JsonSchema, ToolDef } from './types.js';
import { getTool, TOOLS } from './table.js';

export interface CallOptions {
  /** largest state dimension (rows of any matrix argument) accepted; default 200 */
  maxN?: number;
}

export const DEFAULT_MAX_N = 200;

// validateSchema: false: our own schemas are not checked against the JSON Schema meta-schema at
// run time (compiling the meta-schema took ~30 ms of every CLI start, issue 12); every tool's
// schema is checked against it in test/unit/tool-schemas.test.ts instead
const ajv = new Ajv({ allErrors: false, strict: false, useDefaults: true, validateSchema: false });
const validators = new Map<string, ValidateFunction>();

function validator(tool: ToolDef): ValidateFunction {
  let v = validators.get(tool.name);
  if (!v) {
    v = ajv.compile(tool.parameters);
    validators.set(tool.name, v);
  }
  return v;
}

function isMatrixSchema(s: JsonSchema | undefined): boolean {
  const items = s?.items as JsonSchema | undefined;
  return s?.type === 'array' && items?.type === 'array';
}

/** a list of complex numbers ([re, im] pairs or reals): items are anyOf number | pair */
function isComplexListSchema(s: JsonSchema | undefined): boolean {
  const items = s?.items as JsonSchema | undefined;
  return s?.type === 'array' && Array.isArray(items?.anyOf) && s['x-vector'] !== true;
}

const NUM = String.raw`(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?`;

/**
 * Complex numbers as people and models write them: "-2+2j", "-2 - 2i", "3j", "-1", "-2±2j"
 * (a conjugate pair). Returns [re, im] pairs, or undefined when the text is not one.
 */
export function parseComplexText(text: string): [number, number][] | undefined {
  const t = text.replace(/\s+/g, '').replace(/−/g, '-').replace(/\*/g, '');
  const pm = new RegExp(`^([-+]?${NUM})?(?:\\+-|±)(${NUM})?[ij]$`).exec(t);
  if (pm) {
    const re = pm[1] ? Number(pm[1]) : 0;
    const im = pm[2] ? Number(pm[2]) : 1;
    return [
      [re, im],
      [re, -im],
    ];
  }
  const full = new RegExp(`^([-+]?${NUM})?(?:([-+])(${NUM})?[ij])?$`).exec(t);
  if (full && t !== '' && (full[1] !== undefined || full[2] !== undefined)) {
    const re = full[1] ? Number(full[1]) : 0;
    const im = full[2] ? (full[2] === '-' ? -1 : 1) * (full[3] ? Number(full[3]) : 1) : 0;
    return [[re, im]];
  }
  const pure = new RegExp(`^([-+]?)(${NUM})?[ij]$`).exec(t);
  if (pure) return [[0, (pure[1] === '-' ? -1 : 1) * (pure[2] ? Number(pure[2]) : 1)]];
  return undefined;
}

function coerceComplexList(v: unknown): unknown {
  if (typeof v === 'string') {
    const body = v.trim().replace(/^[[(]|[\])]$/g, '');
    const parts = body
      .split(/[,;]|\s{2,}|\s(?=[-+]?\d)(?<![-+±]\s)/)
      .map((p) => p.trim())
      .filter(Boolean);
    const out: [number, number][] = [];
    for (const p of parts) {
      const z = parseComplexText(p);
      if (!z) return v; // not a complex list: leave it for the validator to reject
      out.push(...z);
    }
    return out;
  }
  if (Array.isArray(v)) return v.flatMap((x) => (typeof x === 'string' ? (parseComplexText(x) ?? [x]) : [x]));
  return v;
}

function isVectorSchema(s: JsonSchema | undefined): boolean {
  const items = s?.items as JsonSchema | undefined;
  // x-vector: a coefficient list that may also be a MIMO matrix of lists (tf2ss, zpk: _tfm.ts tfCoeffs)
  return s?.type === 'array' && (items?.type === 'number' || s['x-vector'] === true);
}

/** a list of numbers (a row of a matrix written where a vector is expected) */
const numberRow = (r: unknown) => Array.isArray(r) && r.every((x) => typeof x === 'number');

/**
 * Makes loosely typed arguments fit the schema where the intent is unambiguous: a JSON or
 * MATLAB/NumPy literal in a string, a scalar where a matrix is expected (R = 1), a number in
 * a string. Anything else is left for the validator to reject with a clear message.
 */
export function coerceArgs(tool: ToolDef, raw: Record<string, unknown>): Record<string, unknown> {
  // a null-prototype object: a key "__proto__" (JSON.parse makes it an own property) stays a
  // key the validator rejects, instead of replacing the prototype so that args.A is read
  // through it; and a key is looked up among the tool's own properties only
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries(raw)) {
    const s = Object.hasOwn(tool.parameters.properties, key) ? tool.parameters.properties[key] : undefined;
    let v = value;
    if (isComplexListSchema(s)) {
      out[key] = coerceComplexList(v);
      continue;
    }
    if (typeof v === 'string' && s) {
      const text = v.trim();
      // another library's name for an allowed value (SciPy's 'bilinear' for 'tustin'): schema keyword x-aliases
      const aliases = s['x-aliases'] as Record<string, string> | undefined;
      if (aliases && Object.hasOwn(aliases, text.toLowerCase())) v = aliases[text.toLowerCase()];
      if (s.type === 'number' || s.type === 'integer') {
        const x = Number(text);
        if (text !== '' && Number.isFinite(x)) v = x;
      } else if (s.type === 'array') {
        v = parseMatrixLiteral(text);
        if (isVectorSchema(s) && Array.isArray(v) && v.length === 1 && Array.isArray(v[0])) v = v[0];
        else if (isVectorSchema(s) && Array.isArray(v) && v.every((r) => Array.isArray(r) && r.length === 1)) v = (v as number[][]).map((r) => r[0]);
      }
    }
    if (isMatrixSchema(s)) {
      if (typeof v === 'number') v = [[v]];
      else if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number')) {
        // a flat list where a matrix is expected: one row (the model wrote [1, 2] for a 1x2)
        v = [v];
      }
    }
    if (isVectorSchema(s) && typeof v === 'number') v = [v];
    // a list written as a one-row or one-column matrix ([[1, 2]] for num)
    if (isVectorSchema(s) && Array.isArray(v) && v.length > 0 && v.every(numberRow)) {
      const rows = v as unknown[][];
      if (rows.length === 1) v = rows[0];
      else if (rows.every((r) => r.length === 1)) v = rows.map((r) => r[0]);
    }
    out[key] = v;
  }
  return out;
}

function describeAjvError(tool: ToolDef, e: ErrorObject): string {
  const path = e.instancePath
    .split('/')
    .filter(Boolean)
    .map((p, i) => (i === 0 ? p : `[${Number(p) + 1}]`))
    .join('');
  if (e.keyword === 'required' && e.schemaPath.startsWith('#/anyOf/'))
    // one of several arguments (lsim: u or signal)
    return `${tool.name} needs one of ${(tool.parameters.anyOf ?? []).map((g) => (g.required ?? []).join(' and ')).join(' or ')}.`;
  if (e.keyword === 'required') return `${tool.name} needs argument ${(e.params as { missingProperty: string }).missingProperty}.`;
  if (e.keyword === 'additionalProperties')
    return `${tool.name} has no argument ${quoteInput((e.params as { additionalProperty: string }).additionalProperty)}; its arguments are ${Object.keys(tool.parameters.properties).join(', ')}.`;
  if (e.keyword === 'enum') return `${path} must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}.`;
  return `${path || 'arguments'} ${e.message ?? 'is invalid'}.`;
}

/** deepest nesting an argument may have: a list of complex pairs in a list is 3 */
const MAX_DEPTH = 4;

/**
 * Every number finite, and no nesting deeper than any argument has (iterative: a value nested
 * 5,000 deep overflowed the stack of the recursive walk and came out as "internal error").
 */
function checkFinite(value: unknown, path: string): void {
  // the common case first, without a path string per entry (40,000 of them for a 200 x 200
  // matrix); only an argument that fails is walked again for the message naming the entry
  if (finiteShallow(value, 0)) return;
  const stack: [unknown, string, number][] = [[value, path, 0]];
  while (stack.length) {
    const [v, p, depth] = stack.pop()!;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new ControlError(`${p} is ${v}: every entry must be a finite number.`);
    } else if (Array.isArray(v)) {
      if (depth >= MAX_DEPTH) throw new ControlError(`${path} is nested ${MAX_DEPTH + 1} or more levels deep; a matrix is a list of rows of numbers.`);
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${p}[${i + 1}]`, depth + 1]);
    }
  }
}

/** true when every number in v is finite and no list is nested MAX_DEPTH deep (no messages) */
function finiteShallow(v: unknown, depth: number): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (!Array.isArray(v)) return true;
  if (depth >= MAX_DEPTH) return false;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x === 'number') {
      if (!Number.isFinite(x)) return false;
    } else if (!finiteShallow(x, depth + 1)) return false;
  }
  return true;
}

/** most time or frequency samples, and most steps of a discrete simulation, one call may ask for */
export const MAX_SAMPLES = 1_000_000;
export const MAX_DISCRETE_STEPS = 10_000_000;

function checkLimit(tool: ToolDef, args: Record<string, unknown>, maxN: number): void {
  // a transfer function of degree d is a model of d states
  for (const k of ['num', 'den']) {
    const v = args[k];
    // a MIMO transfer matrix (p x m lists): each entry's degree, and its size
    if (Array.isArray(v) && v.some((r) => Array.isArray(r))) {
      for (const row of v) {
        if (!Array.isArray(row)) continue;
        if (row.length > maxN)
          throw new ControlError(
            `${k} has ${row.length} columns, above the size limit of ${maxN} (setting control.maxStates, or --max-n on the command line).`,
            'limit',
          );
        for (const e of row)
          if (Array.isArray(e) && e.length - 1 > maxN)
            throw new ControlError(
              `an entry of ${k} has degree ${e.length - 1}, above the size limit of ${maxN} states (setting control.maxStates, or --max-n on the command line).`,
              'limit',
            );
      }
    }
    if (Array.isArray(v) && v.length - 1 > maxN)
      throw new ControlError(
        `${k} has degree ${v.length - 1}, above the size limit of ${maxN} states (setting control.maxStates, or --max-n on the command line).`,
        'limit',
      );
  }
  for (const k of ['t', 'w', 'k', 'u']) {
    const v = args[k];
    if (Array.isArray(v) && v.length > MAX_SAMPLES) throw new ControlError(`${k} has ${v.length} samples, above the limit of ${MAX_SAMPLES}.`, 'limit');
  }
  // a simulation's grid from its end time: tfinal/dt (or tfinal/Ts) samples, each one step
  if (typeof args.tfinal === 'number') {
    const Ts = typeof args.Ts === 'number' && args.Ts > 0 ? args.Ts : undefined;
    const h = Ts ?? (typeof args.dt === 'number' ? args.dt : undefined);
    if (h !== undefined && args.tfinal / h + 1 > MAX_SAMPLES)
      throw new ControlError(
        `tfinal = ${args.tfinal} s in steps of ${Ts ? `Ts = ${h}` : `dt = ${h}`} s is ${(args.tfinal / h).toExponential(2)} samples, above the limit of ${MAX_SAMPLES}; ask for a shorter time span${Ts ? '' : ' or a larger dt'}.`,
        'limit',
      );
  }
  // a discrete response runs one step per sample period up to the last time asked
  const Ts = args.Ts;
  if (typeof Ts === 'number' && Ts > 0 && Array.isArray(args.t)) {
    const tmax = Math.max(0, ...(args.t as number[]));
    if (tmax / Ts > MAX_DISCRETE_STEPS)
      throw new ControlError(
        `t reaches ${tmax} s, which is ${(tmax / Ts).toExponential(2)} steps of Ts = ${Ts} s, above the limit of ${MAX_DISCRETE_STEPS} steps; ask for a shorter time span.`,
        'limit',
      );
  }
  for (const [k, v] of Object.entries(args)) {
    if (!Object.hasOwn(tool.parameters.properties, k) || !isMatrixSchema(tool.parameters.properties[k]) || !Array.isArray(v)) continue;
    const rows = v.length;
    const cols = Array.isArray(v[0]) ? v[0].length : 0;
    if (Math.max(rows, cols) > maxN)
      throw new ControlError(`${k} is ${rows}x${cols}, above the size limit of ${maxN} (setting control.maxStates, or --max-n on the command line).`, 'limit');
  }
}

/** validated, coerced arguments of a tool; throws ControlError naming the first problem */
export function prepareArgs(name: string, raw: Record<string, unknown>, opts: CallOptions = {}): { tool: ToolDef; args: Record<string, any> } {
  const tool = getTool(name);
  if (!tool) throw new ControlError(`There is no tool "${quoteInput(name)}". Tools: ${TOOLS.map((t) => t.name).join(', ')}.`);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ControlError(`${name} takes an object of named arguments.`);
  const args = coerceArgs(tool, raw);
  for (const [k, v] of Object.entries(args)) checkFinite(v, k);
  const v = validator(tool);
  if (!v(args)) throw new ControlError(describeAjvError(tool, v.errors![0]));
  checkLimit(tool, args, opts.maxN ?? DEFAULT_MAX_N);
  return { tool, args };
}

/**
 * Runs a tool on raw arguments on this thread, unverified and unbounded in time: for the
 * solvers' own unit tests only. Every front end runs tools through `callTool` (runner.ts).
 */
export function runTool(name: string, raw: Record<string, unknown>, opts: CallOptions = {}): Record<string, unknown> {
  const { tool, args } = prepareArgs(name, raw, opts);
  return tool.run(args);
}
