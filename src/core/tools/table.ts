/**
 * The one tool table. Every tool is one typed object holding all its facets (tools/types.ts),
 * defined once in the solver module of its domain (one module per topic, as in
 * python-control); this file only gathers them. Front ends and
 * engines derive their formats from `TOOLS` (see `call.ts` for validation and execution).
 */
import type { ToolDef } from './types.js';
import { tools as statesp } from '../solvers/statesp.js';
import { tools as lyapunov } from '../solvers/lyapunov.js';
import { tools as matrixeq } from '../solvers/matrixeq.js';
import { tools as riccati } from '../solvers/riccati.js';
import { tools as statefbk } from '../solvers/statefbk.js';
import { tools as estimation } from '../solvers/estimation.js';
import { tools as lqfamily } from '../solvers/lqfamily.js';
import { tools as place } from '../solvers/place.js';
import { tools as discretize } from '../solvers/discretize.js';
import { tools as xferfcn } from '../solvers/xferfcn.js';
import { tools as zpk } from '../solvers/zpk.js';
import { tools as freq } from '../solvers/freq.js';
import { tools as freqanalysis } from '../solvers/freqanalysis.js';
import { tools as diskmargin } from '../solvers/diskmargin.js';
import { tools as timeresp } from '../solvers/timeresp.js';
import { tools as norms } from '../solvers/norms.js';
import { tools as analysis } from '../solvers/analysis.js';
import { tools as plotdata } from '../solvers/plotdata.js';
import { tools as lti } from '../solvers/lti.js';
import { tools as evalfr } from '../solvers/evalfr.js';
import { tools as interconnect } from '../solvers/interconnect.js';
import { tools as connect } from '../solvers/connect.js';
import { tools as simulate } from '../solvers/simulate.js';
import { tools as reduce } from '../solvers/reduce.js';
import { tools as canon } from '../solvers/canon.js';
import { tools as delay } from '../solvers/delay.js';
import { tools as pid } from '../solvers/pid.js';
import { tools as alloc } from '../solvers/alloc.js';
import { tools as nonlinear } from '../solvers/nonlinear.js';
import { tools as mpc } from '../solvers/mpc.js';
import { tools as cbf } from '../solvers/cbf.js';

/** every tool, each one typed object (tools/types.ts); the order is the order front ends list them */
const ALL = [
  ...statesp,
  ...lyapunov,
  ...matrixeq,
  ...riccati,
  ...statefbk,
  ...estimation,
  ...lqfamily,
  ...place,
  ...discretize,
  ...xferfcn,
  ...zpk,
  ...freq,
  ...freqanalysis,
  ...diskmargin,
  ...timeresp,
  ...norms,
  ...analysis,
  ...plotdata,
  ...lti,
  ...evalfr,
  ...interconnect,
  ...connect,
  ...simulate,
  ...reduce,
  ...canon,
  ...delay,
  ...pid,
  ...alloc,
  ...nonlinear,
  ...mpc,
  ...cbf,
];

/** the name of a tool in the table: per-tool maps kept apart (the verifier's) are checked against it */
export type ToolName = (typeof ALL)[number]['name'];

export const TOOLS: readonly ToolDef[] = ALL;

const byName = new Map(TOOLS.map((t) => [t.name, t]));
if (byName.size !== TOOLS.length) throw new Error('duplicate tool name in the tool table');

export function getTool(name: string): ToolDef | undefined {
  return byName.get(name);
}
