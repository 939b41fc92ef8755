/** Editor commands: analyse a selection or a code-lens model in the chat; doctor; index. */
import * as vscode from 'vscode';
import { findAssignments, findModels } from '../core/parse/index.js';
import { doctorMarkdown, doctorPassed, formatDoctorTable, runDoctor } from '../core/doctor.js';
import type { DoctorCheck } from '../core/inspection.js';
import { LM_TOOL_PREFIX } from '../core/mcp/manifest.js';
import { TOOLS } from '../core/tools/table.js';
import { analyseQuery } from './codelens.js';
import { LM_VENDOR } from './lmProvider.js';
import { engineConfig, provider } from './model.js';
import { setting } from './settings.js';

/**
 * Opens the chat pane with an @control query and submits it. Our own language model is
 * selected only when no other is available (the chat calls participants only with a
 * model selected; a Copilot user keeps the model they chose).
 */
export async function openChatWith(query: string): Promise<void> {
  const models = await vscode.lm.selectChatModels();
  const onlyOurs = models.every((m) => m.vendor === LM_VENDOR);
  await vscode.commands.executeCommand('workbench.action.chat.open', {
    query,
    isPartialQuery: false,
    mode: 'ask',
    ...(onlyOurs ? { modelSelector: { vendor: LM_VENDOR } } : {}),
  });
}

function origin(doc: vscode.TextDocument, from: number, to: number): string {
  const file = vscode.workspace.asRelativePath(doc.uri);
  return from === to ? `${file}:${from + 1}` : `${file}:${from + 1}-${to + 1}`;
}

export async function analyseSelection(log: vscode.LogOutputChannel): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showWarningMessage('Control: open a file and select the lines that assign A (and B, C, D).');
    return;
  }
  const doc = editor.document;
  const sel = editor.selection;
  const range = sel.isEmpty ? new vscode.Range(0, 0, doc.lineCount, 0) : new vscode.Range(sel.start, sel.end);
  const text = doc.getText(range);
  let found;
  try {
    found = findAssignments(text);
  } catch (e) {
    void vscode.window.showErrorMessage(`Control: ${(e as Error).message}`);
    return;
  }
  const bad = found.find((a) => a.error);
  if (bad) {
    void vscode.window.showErrorMessage(`Control: ${bad.name} could not be read: ${bad.error}`);
    return;
  }
  const byLetter = (l: string) => found.filter((a) => a.name === l).pop();
  const A = byLetter('A');
  if (!A) {
    void vscode.window.showWarningMessage(
      sel.isEmpty
        ? 'Control: no assignment A = <matrix> in this file. Select the lines that assign A (and B, C, D).'
        : 'Control: the selection has no assignment A = <matrix>. Select the lines that assign A (and B, C, D).',
    );
    return;
  }
  const members = ['A', 'B', 'C', 'D'].map(byLetter).filter((a) => a !== undefined);
  const query = analyseQuery(members, origin(doc, range.start.line, Math.max(range.start.line, range.end.line - (range.end.character === 0 ? 1 : 0))));
  log.info(`analyse selection: ${members.map((m) => m.name).join(', ')}`);
  await openChatWith(query);
}

export async function analyseAt(uri: vscode.Uri, line: number, log: vscode.LogOutputChannel): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const model = findModels(doc.getText()).find((f) => f.a.range.start.line === line);
  if (!model) {
    void vscode.window.showWarningMessage('Control: the model under this lens changed; no A = <matrix> with a B nearby is there any more.');
    return;
  }
  const first = Math.min(...model.members.map((m) => m.range.start.line));
  const last = Math.max(...model.members.map((m) => m.range.end.line));
  log.info(`analyse code lens at ${uri.toString()}:${line + 1}`);
  await openChatWith(analyseQuery(model.members, origin(doc, first, last)));
}

/** what *Control: Doctor* found; returned to the command's caller (the host tests read it) */
export interface DoctorReport {
  ok: boolean;
  checks: DoctorCheck[];
  markdown: string;
  /** the read-only report document (scheme control-doctor) shown in the Markdown preview */
  uri: string;
}

/** the chat model @control would use: another extension's (Copilot), or ours only */
async function vscodeModelCheck(): Promise<DoctorCheck> {
  const capability = 'Language model';
  let models: vscode.LanguageModelChat[] = [];
  try {
    models = await vscode.lm.selectChatModels();
  } catch (e) {
    return {
      capability,
      status: 'fail',
      detail: `the chat's models could not be listed: ${(e as Error).message}`,
      fix: 'Reload the window; if it persists, run Control: Select Model and choose a local model or a server.',
    };
  }
  const others = models.filter((m) => m.vendor !== LM_VENDOR);
  if (!others.length)
    return {
      capability,
      status: 'info',
      detail:
        "the chat pane's model (setting control.model.provider = vscode), but no other extension offers one: @control answers slash commands and well-formed requests with its solvers alone",
      fix: 'Optional: install GitHub Copilot Chat (or another model provider), or run Control: Select Model to use a local .gguf file or an OpenAI-compatible server.',
    };
  const names = [...new Set(others.map((m) => `${m.name} (${m.vendor})`))];
  return {
    capability,
    status: 'ok',
    detail: `the model picked in the chat pane; available: ${names.slice(0, 4).join(', ')}${names.length > 4 ? `, … (${names.length})` : ''}`,
  };
}

function vscodeChecks(): DoctorCheck[] {
  const out: DoctorCheck[] = [];
  const ours = vscode.lm.tools.filter((t) => t.name.startsWith(LM_TOOL_PREFIX));
  out.push(
    ours.length === TOOLS.length
      ? {
          capability: 'Language model tools',
          status: 'ok',
          detail: `${ours.length} solvers offered to Copilot agent mode and other participants (#control_lqr, …)`,
        }
      : {
          capability: 'Language model tools',
          status: 'fail',
          detail: `${ours.length} of ${TOOLS.length} tools registered in vscode.lm.tools`,
          fix: 'See the Control output channel for the registration error; reinstall the extension (its package.json must list every tool).',
        },
  );
  const math = vscode.workspace.getConfiguration('chat.math').get<boolean>('enabled', false);
  out.push(
    math
      ? { capability: 'Chat math rendering', status: 'ok', detail: 'on (chat.math.enabled): matrices are shown as LaTeX' }
      : {
          capability: 'Chat math rendering',
          status: 'info',
          detail: 'off: matrices are shown as aligned text',
          fix: 'Optional: set "chat.math.enabled": true in your settings to see LaTeX matrices.',
        },
  );
  out.push(
    vscode.workspace.isTrusted
      ? { capability: 'Workspace trust', status: 'ok', detail: 'trusted' }
      : {
          capability: 'Workspace trust',
          status: 'info',
          detail: 'restricted mode: the solvers still work (nothing from the workspace is executed); the workspace cannot choose the model provider',
          fix: 'Optional: Workspaces: Manage Workspace Trust, if you trust this folder.',
        },
  );
  return out;
}

/**
 * The Doctor's report is a read-only virtual document (scheme `control-doctor`), not an
 * untitled file: it is never dirty, so closing it never asks to save, and a re-run replaces
 * its text in place (the open preview refreshes) instead of opening another document. It is
 * shown in the Markdown preview: headings, bold fixes and wrapped lines read better than the
 * source, and nothing in it can be edited by mistake.
 */
export const DOCTOR_SCHEME = 'control-doctor';
const DOCTOR_URI = vscode.Uri.from({ scheme: DOCTOR_SCHEME, path: '/@control Doctor.md' });

class DoctorReportProvider implements vscode.TextDocumentContentProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  text = '# @control Doctor\n\nRun **Control: Doctor** to check every capability.\n';
  provideTextDocumentContent(): string {
    return this.text;
  }
  update(text: string): void {
    this.text = text;
    this.emitter.fire(DOCTOR_URI);
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

let reportProvider: DoctorReportProvider | undefined;

function previewTabs(): vscode.Tab[] {
  // the Markdown preview's tab carries no resource: it is found by its label
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(t.input.viewType) && t.label.includes('@control Doctor'));
}

async function showReport(markdown: string, log: vscode.LogOutputChannel, context?: vscode.ExtensionContext): Promise<vscode.Uri> {
  if (!reportProvider) {
    reportProvider = new DoctorReportProvider();
    const reg = vscode.workspace.registerTextDocumentContentProvider(DOCTOR_SCHEME, reportProvider);
    context?.subscriptions.push(reg, reportProvider);
  }
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === DOCTOR_URI.toString());
  reportProvider.update(markdown);
  const doc = await vscode.workspace.openTextDocument(DOCTOR_URI);
  // an open document takes the new text once VS Code asks the provider again: wait for it
  if (open) for (let i = 0; i < 40 && doc.getText() !== markdown; i++) await new Promise((r) => setTimeout(r, 50));
  const tabs = previewTabs();
  // the preview already showing (it refreshes with the document): leave it where the user put it
  if (tabs.some((t) => t.isActive && t.group.isActive) || (tabs.length && tabs.every((t) => t.isActive))) return DOCTOR_URI;
  try {
    await vscode.commands.executeCommand('markdown.showPreview', DOCTOR_URI);
    // a preview hidden behind other tabs or in another group: one report, in front
    const now = previewTabs();
    const stale = now.filter((t) => !(t.isActive && t.group.isActive));
    if (stale.length && stale.length < now.length) await vscode.window.tabGroups.close(stale);
  } catch (e) {
    // no Markdown preview (the built-in extension disabled): the read-only source reads well too
    log.warn(`Doctor: Markdown preview unavailable (${(e as Error).message}); showing the report as text`);
    await vscode.window.showTextDocument(doc, { preview: true });
  }
  return DOCTOR_URI;
}

/**
 * *Control: Doctor*: the core's checks (solvers, model, native runtime, embedder, index,
 * Node.js) plus VS Code's own (the chat model, language model tools, chat math, workspace
 * trust), written to the Control output channel and shown as a read-only Markdown preview.
 */
export async function doctor(log: vscode.LogOutputChannel, context?: vscode.ExtensionContext): Promise<DoctorReport> {
  const p = provider();
  const embedder = setting('embedder.path') || undefined;
  const o = { surface: 'vscode' as const };
  const core = await runDoctor({
    ...o,
    model: p === 'vscode' ? undefined : engineConfig(),
    embedder,
    // where retrieval.ts keeps them: the workspace index in workspace storage, the bundled
    // notes' index in global storage (always searched, as by `control ask "/search ..."`)
    index: context?.storageUri && vscode.workspace.workspaceFolders?.length ? vscode.Uri.joinPath(context.storageUri, 'index').fsPath : undefined,
    notes: context
      ? { root: vscode.Uri.joinPath(context.extensionUri, 'corpus').fsPath, index: vscode.Uri.joinPath(context.globalStorageUri, 'corpus-index').fsPath }
      : undefined,
  });
  // the chat pane's model is VS Code's to report: in the model's place, before the runtime
  if (p === 'vscode')
    core.splice(
      Math.max(
        0,
        core.findIndex((c) => c.capability === 'Local model runtime'),
      ),
      0,
      await vscodeModelCheck(),
    );
  const checks = [...core, ...vscodeChecks()];
  const ok = doctorPassed(checks);
  log.info(`Doctor:\n${formatDoctorTable(checks)}`);
  const markdown = doctorMarkdown(checks, undefined, new Date());
  const uri = await showReport(markdown, log, context);
  if (!ok) {
    const failed = checks.filter((c) => c.status === 'fail');
    // not awaited: the report is already open; the command must not wait for a click
    void vscode.window.showWarningMessage(
      `Control Doctor: ${failed.length} check${failed.length > 1 ? 's' : ''} failed (${failed.map((c) => c.capability).join(', ')}). The report shows each fix.`,
    );
  }
  return { ok, checks, markdown, uri: uri.toString() };
}
