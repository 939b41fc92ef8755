// A tiny test runner for inside the extension host (no mocha: nothing to configure, and its
// output is exactly what test/host/run.mjs parses).
//
// Each result is printed as one line through the host's console (the workbench forwards it to
// the page's codeAutomationLog) and all results are written as JSON to
// $CONTROL_HOST_RESULTS (set by run.mjs on the code-server process, inherited by the
// extension host), which is what run.mjs counts.
import { renameSync, writeFileSync } from 'node:fs';

export interface TestResult {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
}

interface TestCase {
  name: string;
  fn: () => Promise<void> | void;
  timeoutMs: number;
}

const tests: TestCase[] = [];

export function test(name: string, fn: () => Promise<void> | void, timeoutMs = 30_000): void {
  tests.push({ name, fn, timeoutMs });
}

function withTimeout<T>(p: Promise<T>, ms: number, name: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${name}`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

function describeError(e: unknown): string {
  if (e instanceof Error) {
    // node:assert's message already carries actual/expected; keep the first stack frame that
    // points into the suite so the failing line is visible.
    const frame = e.stack?.split('\n').find((l) => l.includes('/suite/')) ?? '';
    return `${e.message}${frame ? `\n    ${frame.trim()}` : ''}`;
  }
  return String(e);
}

export async function runAll(): Promise<TestResult[]> {
  const results: TestResult[] = [];
  // run.mjs --only REGEX: a subset while working on one feature
  const only = process.env.CONTROL_HOST_ONLY ? new RegExp(process.env.CONTROL_HOST_ONLY, 'i') : undefined;
  for (const t of tests) {
    if (only && !only.test(t.name)) continue;
    const t0 = Date.now();
    try {
      await withTimeout(Promise.resolve().then(t.fn), t.timeoutMs, t.name);
      results.push({ name: t.name, ok: true, ms: Date.now() - t0 });
      console.log(`[suite] ok   ${t.name} (${Date.now() - t0} ms)`);
    } catch (e) {
      const error = describeError(e);
      results.push({ name: t.name, ok: false, ms: Date.now() - t0, error });
      console.log(`[suite] FAIL ${t.name}: ${error}`);
    }
  }
  const out = process.env.CONTROL_HOST_RESULTS;
  if (out) {
    writeFileSync(`${out}.tmp`, JSON.stringify(results, null, 2));
    renameSync(`${out}.tmp`, out); // run.mjs polls for it: never let it see half a file
  }
  return results;
}
