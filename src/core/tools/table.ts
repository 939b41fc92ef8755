/**
 * The one tool table. Every tool is defined once, in the solver module of its domain
 * (one module per topic, as in python-control); this file only gathers them. Front ends and
 * engines derive their formats from `TOOLS` (see `call.ts` for validation and execution).
 */
import type { ToolDef } from './types.js';
import { tools as statesp } from '../solvers/statesp.js';
import { tools as lyapunov } from '../solvers/lyapunov.js';
import { tools as riccati } from '../solvers/riccati.js';
import { tools as statefbk } from '../solvers/statefbk.js';
import { tools as estimation } from '../solvers/estimation.js';
import { tools as place } from '../solvers/place.js';
import { tools as discretize } from '../solvers/discretize.js';
import { tools as xferfcn } from '../solvers/xferfcn.js';
import { tools as freq } from '../solvers/freq.js';
import { tools as timeresp } from '../solvers/timeresp.js';
import { tools as norms } from '../solvers/norms.js';
import { tools as analysis } from '../solvers/analysis.js';
import { tools as plotdata } from '../solvers/plotdata.js';
import { registerRunners } from '../solvers/registry.js';

export const TOOLS: readonly ToolDef[] = [
  ...statesp,
  ...lyapunov,
  ...riccati,
  ...statefbk,
  ...estimation,
  ...place,
  ...discretize,
  ...xferfcn,
  ...freq,
  ...timeresp,
  ...norms,
  ...analysis,
  ...plotdata,
];

const byName = new Map(TOOLS.map((t) => [t.name, t]));
if (byName.size !== TOOLS.length) throw new Error('duplicate tool name in the tool table');
registerRunners(TOOLS.map((t) => [t.name, t.run]));

export function getTool(name: string): ToolDef | undefined {
  return byName.get(name);
}
