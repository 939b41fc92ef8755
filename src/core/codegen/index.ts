/**
 * Code that reproduces a tool result: MATLAB (Control System Toolbox) and Python
 * (python-control + NumPy/SciPy), with every argument written out at full precision and a
 * comment holding our verified key result for comparison. Pure text; nothing is run.
 *
 * Conventions that differ between the tools are handled here, each once:
 * - Lyapunov: ours and MATLAB's `lyap(A, Q)` solve AX + XA' + Q = 0; SciPy's
 *   `solve_continuous_lyapunov(A, -Q)` solves AX + XA' = -Q (the same X).
 * - LQR: u = -Kx everywhere; MATLAB `[K, S, P] = lqr(...)`, python-control `K, S, E = ct.lqr(...)`.
 * - place: u = -Kx, eig(A - BK) = p in MATLAB and python-control alike.
 * - Discrete impulse: MATLAB and python-control (0.10) apply a pulse of area 1 (height 1/Ts);
 *   ours is a unit pulse, so their y is multiplied by Ts.
 * - Discrete Kalman: our L = A·M (the predictor gain) is MATLAB kalman's L and python-control's
 *   dlqe L; our M is MATLAB's innovation gain M (Mx).
 */
import { ControlError } from '../errors.js';
import type { Verification } from '../verify/index.js';
import { TOOLS } from '../tools/table.js';
import { hasFacet } from '../tools/types.js';
import { Code, header, verdictHolder, verdictLine } from './code.js';
import type { CodeLanguage } from './literals.js';

export type { CodeLanguage } from './literals.js';
export { matrix as matrixLiteral, vector as vectorLiteral, num as numberLiteral } from './literals.js';

export interface CodeRequest {
  tool: string;
  /** the validated arguments the tool ran with */
  args: Record<string, any>;
  /** the full-precision result (absent: the code still reproduces the call) */
  result?: Record<string, any>;
  verification?: Verification;
}

/** tools whose results have reproducing code (their `code` facet) */
export const CODEGEN_TOOLS: readonly string[] = TOOLS.filter((t) => hasFacet(t.code)).map((t) => t.name);

export function canReproduce(tool: string): boolean {
  return CODEGEN_TOOLS.includes(tool);
}

export const LANGUAGE_NAMES: Record<CodeLanguage, string> = { matlab: 'MATLAB', python: 'Python' };

/**
 * The code that reproduces one tool call in `lang`, ending with our result as comments.
 * Throws ControlError for a tool without a generator.
 */
export function reproduce(req: CodeRequest, lang: CodeLanguage): string {
  const def = TOOLS.find((t) => t.name === req.tool);
  if (!def) throw new ControlError(`There is no tool named ${req.tool}.`);
  if (!hasFacet(def.code))
    throw new ControlError(`There is no code generator for ${req.tool} (${def.code.none}); tools with one: ${CODEGEN_TOOLS.join(', ')}.`);
  const g = def.code;
  const code = new Code(lang);
  header(code, req.tool, g.title);
  g.gen(code, req.args, req.result);
  const verdict = verdictLine(req.verification, req.result !== undefined);
  const out = code.lines.map((l) => l.replace(`${code.c} ${verdictHolder}`, `${code.c} ${verdict}`));
  // the comparison comment as a labelled block: a blank line before it
  const at = out.findIndex((l) => l.startsWith(`${code.c} @control result`));
  if (at > 0) out.splice(at, 0, '');
  return out.join('\n') + '\n';
}

/** the literal forms, for tests and other writers */
export { vectorCode, gridCode } from './code.js';
