/**
 * What a subsystem's self-inspection returns, for the Doctor (`doctor.ts`, which asks each
 * subsystem in turn: tools/selfTest.ts, engines/inspect.ts, retrieval/inspect.ts) and VS Code's
 * own checks (src/vscode/commands.ts). Types and one helper only, and it imports nothing
 * (test/unit/architecture.test.ts), so every subsystem can import it without a cycle.
 */

/** ✔ works; ✘ configured or needed but broken (the Doctor exits 1); • a note (not configured, optional) */
export type CheckStatus = 'ok' | 'fail' | 'info';

export interface DoctorCheck {
  capability: string;
  status: CheckStatus;
  detail: string;
  /** what to do, exactly; present on every failure and on notes with a way forward */
  fix?: string;
}

/** where the fixes point: settings and commands in VS Code, flags in the terminal */
export type Surface = 'cli' | 'vscode';

/**
 * How to inspect, shared by every subsystem's checks. What to inspect (the model
 * configuration, the embedder and index folders) is the Doctor's `DoctorOptions`, which adds
 * it; a check takes its subject as its own argument.
 */
export interface InspectOptions {
  surface?: Surface;
  /** the bundled notes (root: the corpus/ folder, undefined when missing) and their index folder */
  notes?: { root: string | undefined; index: string };
  /** a folder from which node_modules is searched for node-llama-cpp (default: this module's folder) */
  packageRoot?: string;
  /** time the OpenAI-compatible server gets to answer /models (default 2000 ms) */
  timeoutMs?: number;
  /** for tests */
  fetch?: typeof fetch;
  /** for tests: the Node.js version to judge (default process.versions.node) */
  nodeVersion?: string;
}

/** the fix for where the user is: a setting or command in VS Code, a flag in the terminal */
export function fixFor(surface: Surface, vscode: string, cli: string): string {
  return surface === 'vscode' ? vscode : cli;
}
