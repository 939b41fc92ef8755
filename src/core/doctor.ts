/**
 * The Doctor: asks each subsystem to inspect itself and, for each capability that does not
 * work, says the exact fix. Shared by `control doctor` (src/cliDoctor.ts) and *Control: Doctor*
 * (src/vscode/commands.ts, which adds the VS Code-only checks). No vscode import.
 *
 * Each subsystem's checks live next to its code and return the `DoctorCheck` of
 * core/inspection.ts: the solvers' closed-form self-tests (tools/selfTest.ts), the language
 * model and node-llama-cpp's native binary (engines/inspect.ts), the embedder folder, the
 * bundled notes and the workspace index (retrieval/inspect.ts). This module holds the order
 * they are asked in, the Node.js version (the host, no subsystem's), and the two reports: the
 * terminal table and VS Code's Markdown. Nothing here loads a model or writes anything.
 */
import type { EngineConfig } from './engines/index.js';
import { llamaRuntimeCheck, modelCheck } from './engines/inspect.js';
import { fixFor, type CheckStatus, type DoctorCheck, type InspectOptions } from './inspection.js';
import { embedderCheck, indexCheck, notesCheck } from './retrieval/inspect.js';
import { solverChecks } from './tools/selfTest.js';

export type { CheckStatus, DoctorCheck, InspectOptions, Surface } from './inspection.js';
export { llamaRuntimeCheck, modelCheck } from './engines/inspect.js';
export { embedderCheck, indexCheck, notesCheck, NOTES_CAPABILITY, WORKSPACE_INDEX_CAPABILITY } from './retrieval/inspect.js';
export { runSelfTest, solverChecks } from './tools/selfTest.js';

/** what the Doctor inspects (the model, the embedder and index folders) and how */
export interface DoctorOptions extends InspectOptions {
  /** the language model configuration; undefined: checked by the caller (VS Code's own model) */
  model?: EngineConfig;
  /** an embedder model folder (config.json, tokenizer.json, onnx/model.onnx); undefined: not configured */
  embedder?: string;
  /** the workspace retrieval index folder; undefined: no location given */
  index?: string;
}

export const SYMBOL: Record<CheckStatus, string> = { ok: '✔', fail: '✘', info: '•' };

// --------------------------------------------------------------------------- node

export function nodeCheck(o: InspectOptions = {}): DoctorCheck {
  const v = o.nodeVersion ?? process.versions.node;
  const major = Number(v.split('.')[0]);
  if (major >= 20) return { capability: 'Node.js', status: 'ok', detail: `${v} (20 or newer needed)` };
  return {
    capability: 'Node.js',
    status: 'fail',
    detail: `${v}: @control needs Node.js 20 or newer`,
    fix: fixFor(
      o.surface ?? 'cli',
      'Update VS Code (its extension host brings its own Node.js).',
      'Install Node.js 20 or newer (e.g. nvm install 20) and run control with it.',
    ),
  };
}

// --------------------------------------------------------------------------- all

/** every core check, each subsystem asked in turn, in report order */
export async function runDoctor(o: DoctorOptions = {}): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [...(await solverChecks(o.surface))];
  const m = await modelCheck(o.model, o);
  if (m) checks.push(m);
  checks.push(llamaRuntimeCheck(o, o.model?.provider === 'local'));
  checks.push(embedderCheck(o.embedder, o));
  if (o.notes) checks.push(notesCheck(o.notes.root, o.notes.index, o));
  checks.push(indexCheck(o.index, o));
  checks.push(nodeCheck(o));
  return checks;
}

export const doctorPassed = (checks: DoctorCheck[]): boolean => checks.every((c) => c.status !== 'fail');

/** the terminal table: ✔/✘/•, capability, detail, and the fix on the line below */
export function formatDoctorTable(checks: DoctorCheck[]): string {
  const w = Math.max(...checks.map((c) => c.capability.length), 10);
  const lines: string[] = [];
  for (const c of checks) {
    lines.push(`${SYMBOL[c.status]} ${c.capability.padEnd(w)}  ${c.detail}`);
    if (c.fix) lines.push(`  ${' '.repeat(w)}  ${c.status === 'fail' ? 'fix' : 'hint'}: ${c.fix}`);
  }
  const failed = checks.filter((c) => c.status === 'fail').length;
  lines.push('');
  lines.push(failed ? `${failed} check${failed > 1 ? 's' : ''} failed.` : 'All checks passed.');
  return lines.join('\n');
}

/** one line of Markdown text: no line breaks, no accidental table or heading syntax */
const inline = (s: string) => s.replace(/\r?\n/g, ' ').replace(/^([#>|])/, '\\$1');

/**
 * The Markdown report (VS Code's preview). One block per check, never a table: a fix is a
 * sentence or two with paths and commands, and a table column of them is cut off or squeezed
 * in a narrow preview. Failures come first, each with its fix on its own line; then notes with
 * their hints; then what works, one line each. `when` stamps the run (a re-run visibly refreshes).
 */
export function doctorMarkdown(checks: DoctorCheck[], title = '@control Doctor', when?: Date): string {
  const failed = checks.filter((c) => c.status === 'fail');
  const notes = checks.filter((c) => c.status === 'info');
  const working = checks.filter((c) => c.status === 'ok');
  const stamp = when ? ` Checked ${when.toISOString().replace('T', ' ').slice(0, 19)} UTC.` : '';
  const out = [
    `# ${title}`,
    '',
    (failed.length ? `**${failed.length} check${failed.length > 1 ? 's' : ''} failed.** Each failure names its fix below.` : '**All checks passed.**') + stamp,
    '',
  ];
  const block = (c: DoctorCheck, label: string) => {
    out.push(`### ${SYMBOL[c.status]} ${inline(c.capability)}`, '', inline(c.detail), '');
    if (c.fix) out.push(`**${label}:** ${inline(c.fix)}`, '');
  };
  if (failed.length) {
    out.push('## Needs fixing', '');
    for (const c of failed) block(c, 'Fix');
  }
  if (notes.length) {
    out.push('## Notes', '');
    for (const c of notes) block(c, 'Hint');
  }
  if (working.length) {
    out.push('## Working', '');
    for (const c of working) out.push(`- ${SYMBOL.ok} **${inline(c.capability)}**: ${inline(c.detail)}`);
    out.push('');
  }
  out.push('✔ works · ✘ broken (fix it as shown) · • note', '');
  return out.join('\n');
}
