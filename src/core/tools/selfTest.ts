/**
 * The solvers inspect themselves: closed forms in three domains (LQR of the double
 * integrator, a Lyapunov equation, the margins of 2/(s+1)³), each solved through the verified
 * call path (callTool, on the solver thread, as every answer is computed) and compared with
 * the closed form. Asked by the Doctor (core/doctor.ts).
 */
import type { DoctorCheck, Surface } from '../inspection.js';
import { errorMessage } from './batch.js';
import { callTool, VerificationFailed } from './runner.js';

interface SelfTest {
  capability: string;
  tool: string;
  args: Record<string, unknown>;
  /** the largest deviation of the result from the closed form */
  error(r: Record<string, any>): number;
  tol: number;
  what: string;
}

const S3 = Math.sqrt(3);
const WGC = Math.sqrt(2 ** (2 / 3) - 1); // |2/(jω+1)³| = 1
const PM = 180 - (3 * Math.atan(WGC) * 180) / Math.PI;

const SELF_TESTS: SelfTest[] = [
  {
    capability: 'Solvers: LQR',
    tool: 'lqr',
    args: {
      A: [
        [0, 1],
        [0, 0],
      ],
      B: [[0], [1]],
      Q: [
        [1, 0],
        [0, 1],
      ],
      R: [[1]],
    },
    error: (r) => Math.max(Math.abs(r.K[0][0] - 1), Math.abs(r.K[0][1] - S3)),
    tol: 1e-12,
    what: 'LQR of the double integrator matches K = [1, √3]',
  },
  {
    capability: 'Solvers: Lyapunov',
    tool: 'lyap',
    args: {
      A: [
        [-1, 1],
        [0, -2],
      ],
      Q: [
        [1, 0],
        [0, 1],
      ],
    },
    error: (r) => {
      const ref = [
        [7 / 12, 1 / 12],
        [1 / 12, 1 / 4],
      ];
      return Math.max(...ref.flatMap((row, i) => row.map((x, j) => Math.abs(r.X[i][j] - x))));
    },
    tol: 1e-12,
    what: "A X + X A' + I = 0 for A = [-1 1; 0 -2] matches X = [7/12 1/12; 1/12 1/4]",
  },
  {
    capability: 'Solvers: margins',
    tool: 'margins',
    args: { num: [2], den: [1, 3, 3, 1] },
    error: (r) => Math.max(Math.abs(r.gm - 4), Math.abs(r.w_pc - S3), Math.abs(r.pm_deg - PM) / 180, Math.abs(r.w_gc - WGC)),
    tol: 1e-9,
    what: `margins of 2/(s+1)³ match GM = 4 at ω = √3 and PM = ${PM.toFixed(4)}° at ω = ${WGC.toFixed(4)}`,
  },
];

async function selfTest(t: SelfTest, surface: Surface): Promise<DoctorCheck> {
  const fix =
    surface === 'vscode'
      ? "Reinstall the @control extension; if this check still fails, report it with this report attached. Do not use this build's numbers meanwhile."
      : "Rebuild from a clean checkout (npm ci && npm run build); if this check still fails, report it with this output. Do not use this build's numbers meanwhile.";
  const t0 = performance.now();
  try {
    // the verified call path, on the solver thread, as every answer is computed
    const { result: r, verification: v } = await callTool(t.tool, t.args);
    const err = t.error(r);
    const ms = (performance.now() - t0).toFixed(1);
    if (!(err <= t.tol))
      return {
        capability: t.capability,
        status: 'fail',
        detail: `${t.what.replace(/ matches? .*/, '')}: off by ${err.toExponential(1)} from the closed form`,
        fix,
      };
    return {
      capability: t.capability,
      status: 'ok',
      detail: `${t.what} to ${err === 0 ? '0' : err.toExponential(0)}, ${v ? 'verified' : 'no verifier check'}, ${ms} ms`,
    };
  } catch (e) {
    if (e instanceof VerificationFailed)
      return {
        capability: t.capability,
        status: 'fail',
        detail: `${t.what.replace(/ matches? .*/, '')}: the verifier rejects the result: ${e.verification.checks
          .filter((c) => !c.ok)
          .map((c) => c.detail)
          .join('; ')}`,
        fix,
      };
    return { capability: t.capability, status: 'fail', detail: `${t.tool} threw: ${errorMessage(e)}`, fix };
  }
}

export async function solverChecks(surface: Surface = 'cli'): Promise<DoctorCheck[]> {
  const out: DoctorCheck[] = [];
  for (const t of SELF_TESTS) out.push(await selfTest(t, surface));
  return out;
}

/** the original single self-test (LQR closed form), kept for callers that want one line */
export async function runSelfTest(): Promise<{ ok: boolean; detail: string }> {
  const c = await selfTest(SELF_TESTS[0], 'cli');
  return { ok: c.status === 'ok', detail: c.detail };
}
