/**
 * Deterministic damage to a results file, to validate the checker port: both the Python
 * checker and check.ts must fail the same problems (see validate.ts and
 * test/slow/checker.test.ts).
 *
 * Each line gets one mode, chosen by a seeded generator:
 *   keep, rel (every number scaled by 1 ± 1e-4), rel1 (one number), tiny (every number
 *   scaled by 1 ± 1e-10), edge (every number scaled by 1 ± 1e-6, at the tolerance), flip (the sign of one nonzero number), drop (the line is removed),
 *   error (the result is replaced by an error), nan (one number becomes null/NaN),
 *   inf (one number becomes "Infinity"), field (one field is removed).
 * An expected error line gets keep, drop, or a made-up result.
 */
import type { ResultLine } from './check.js';
import { mulberry32 as rng } from '../fixtures/rng.js';

export { rng };

export const MODES = ['keep', 'rel', 'rel1', 'tiny', 'edge', 'flip', 'drop', 'error', 'nan', 'inf', 'field'] as const;
export type Mode = (typeof MODES)[number] | 'result';

/** paths to the numeric leaves of a value */
function leaves(v: unknown, path: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (typeof v === 'number') out.push(path);
  else if (Array.isArray(v)) v.forEach((x, i) => leaves(x, [...path, i], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) leaves(x, [...path, k], out);
  return out;
}
function setAt(root: any, path: (string | number)[], f: (x: number) => unknown): void {
  let o = root;
  for (let i = 0; i < path.length - 1; i++) o = o[path[i]];
  o[path[path.length - 1]] = f(o[path[path.length - 1]]);
}
function mapNumbers(v: unknown, f: (x: number) => number): unknown {
  if (typeof v === 'number') return f(v);
  if (Array.isArray(v)) return v.map((x) => mapNumbers(x, f));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapNumbers(x, f)]));
  return v;
}

export interface Perturbed {
  lines: ResultLine[];
  modes: Map<string, Mode>;
}

export function perturb(expected: ResultLine[], seed: number): Perturbed {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const sign = () => (r() < 0.5 ? -1 : 1);
  const lines: ResultLine[] = [];
  const modes = new Map<string, Mode>();
  for (const line of expected) {
    const copy = JSON.parse(JSON.stringify(line)) as ResultLine;
    if ('error' in copy) {
      const m = pick(['keep', 'drop', 'result'] as const);
      modes.set(copy.id, m);
      if (m === 'drop') continue;
      lines.push(m === 'result' ? { id: copy.id, result: { X: [[1]] } } : copy);
      continue;
    }
    let m: Mode = pick(MODES);
    const res = copy.result as Record<string, unknown>;
    const ls = leaves(res);
    const nonzero = ls.filter((p) => {
      let o: any = res;
      for (const k of p) o = o[k];
      return o !== 0;
    });
    // check.py itself crashes (uncaught OverflowError in int(round(inf))) on rank = "Infinity"
    const infable = ls.filter((p) => p[0] !== 'rank');
    if ((m === 'rel1' || m === 'nan') && !ls.length) m = 'keep';
    if (m === 'inf' && !infable.length) m = 'keep';
    if (m === 'flip' && !nonzero.length) m = 'keep';
    if (m === 'field' && !Object.keys(res).length) m = 'keep';
    modes.set(copy.id, m);
    switch (m) {
      case 'drop':
        continue;
      case 'error':
        lines.push({ id: copy.id, error: 'perturbed: refused' });
        continue;
      case 'rel':
        copy.result = mapNumbers(res, (x) => x * (1 + 1e-4 * sign()));
        break;
      case 'tiny':
        copy.result = mapNumbers(res, (x) => x * (1 + 1e-10 * sign()));
        break;
      case 'edge':
        // errors right at the default tolerance: verdicts that hinge on rounding
        copy.result = mapNumbers(res, (x) => x * (1 + 1e-6 * sign()));
        break;
      case 'rel1':
        setAt(res, pick(ls), (x) => (x as number) * (1 + 1e-4 * sign()) + (x === 0 ? 1e-4 : 0));
        break;
      case 'flip':
        setAt(res, pick(nonzero), (x) => -(x as number));
        break;
      case 'nan':
        setAt(res, pick(ls), () => null);
        break;
      case 'inf':
        setAt(res, pick(infable), () => 'Infinity');
        break;
      case 'field':
        delete res[pick(Object.keys(res))];
        break;
    }
    lines.push(copy);
  }
  return { lines, modes };
}

export const toJsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
