/**
 * Self-test of the solvers, for the Doctor: a problem whose answer is known in closed form
 * (the double integrator with Q = I, R = 1 has K = [1, √3]), solved through the tool table
 * and verified.
 */
import { prepareArgs } from './tools/call.js';
import { errorMessage } from './tools/batch.js';
import { verify } from './verify/index.js';

export function runSelfTest(): { ok: boolean; detail: string } {
  const t0 = performance.now();
  try {
    const { tool, args } = prepareArgs('lqr', { A: [[0, 1], [0, 0]], B: [[0], [1]], Q: [[1, 0], [0, 1]], R: [[1]] });
    const r = tool.run(args) as { K: number[][] };
    const v = verify('lqr', args, r);
    const err = Math.max(Math.abs(r.K[0][0] - 1), Math.abs(r.K[0][1] - Math.sqrt(3)));
    const ms = (performance.now() - t0).toFixed(1);
    if (err > 1e-12 || !v?.ok) return { ok: false, detail: `LQR of the double integrator off by ${err.toExponential(1)} (verification ${v?.ok ? 'passed' : 'failed'})` };
    return { ok: true, detail: `LQR of the double integrator matches K = [1, √3] to ${err.toExponential(0)}, verified, in ${ms} ms` };
  } catch (e) {
    return { ok: false, detail: errorMessage(e) };
  }
}
