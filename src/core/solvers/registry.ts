/**
 * Late-bound access to other tools' solvers, for composite tools (`analyse`) that are
 * themselves part of the table: avoids an import cycle through `tools/table.ts`.
 */
import { ControlError } from '../errors.js';

type Runner = (args: Record<string, any>) => Record<string, unknown>;
const runners = new Map<string, Runner>();

export function registerRunners(entries: Iterable<[string, Runner]>): void {
  for (const [k, v] of entries) runners.set(k, v);
}

export function getToolRunner(name: string): Runner {
  const r = runners.get(name);
  if (!r) throw new ControlError(`the ${name} solver is not available in this build`, 'unsupported');
  return r;
}
