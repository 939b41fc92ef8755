/**
 * The solver thread (bundled as dist/solveWorker.js; started by `runner.ts`). It receives a
 * tool name and arguments already validated on the calling thread, runs the solver and the
 * independent verifier, and posts the result back. Nothing here decides what is shown: the
 * runner applies the fail-closed rules. A solve that hangs or runs out of memory is the
 * runner's to end (it terminates this thread and starts another).
 */
import { parentPort } from 'node:worker_threads';
import { isControlError } from '../errors.js';
import { verify } from '../verify/index.js';
import { getTool } from './table.js';

export interface SolveJob {
  id: number;
  tool: string;
  args: Record<string, unknown>;
  verify: boolean;
}

export type SolveReply =
  | { id: number; ok: true; result: Record<string, unknown>; verification?: ReturnType<typeof verify>; verifyError?: string; ms: number }
  | { id: number; ok: false; message: string; code?: string; control: boolean };

function handle(job: SolveJob): SolveReply {
  const t0 = performance.now();
  const tool = getTool(job.tool);
  if (!tool) return { id: job.id, ok: false, message: `There is no tool "${job.tool}".`, control: true, code: 'invalid' };
  let result: Record<string, unknown>;
  try {
    result = tool.run(job.args);
  } catch (e) {
    if (isControlError(e)) return { id: job.id, ok: false, message: e.message, code: e.code, control: true };
    return { id: job.id, ok: false, message: e instanceof Error ? e.message : String(e), control: false };
  }
  if (!job.verify) return { id: job.id, ok: true, result, ms: performance.now() - t0 };
  try {
    return { id: job.id, ok: true, result, verification: verify(job.tool, job.args, result), ms: performance.now() - t0 };
  } catch (e) {
    // a check that cannot run is a failed check, said by the runner; never a lost result
    return { id: job.id, ok: true, result, verifyError: e instanceof Error ? e.message : String(e), ms: performance.now() - t0 };
  }
}

parentPort?.on('message', (job: SolveJob) => parentPort!.postMessage(handle(job)));
// loaded: a call's time budget counts from here, not from the thread's start-up
parentPort?.postMessage({ ready: true });
