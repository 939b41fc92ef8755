/**
 * *Control: Export Design Report*: the last turns of @control (kept in memory by the
 * participant) as control-reports/<date>-<topic>.{md,html,jsonl} in the workspace, written
 * through a WorkspaceEdit that needs confirmation (the Refactor Preview lists the three new
 * files with their contents; nothing is written until the user applies it). Each file goes
 * through the write guard (writeGuard.ts) before the proposal and again before the write:
 * a `control-reports` that is a link to outside the workspace or into a secret folder is refused.
 */
import * as vscode from 'vscode';
import { buildReport } from '../core/codegen/report.js';
import { TurnLog } from '../core/codegen/trace.js';
import { emptyUri, review } from './review.js';
import { writeRefusal } from './writeGuard.js';

/** the conversation's recent turns, recorded by the participant (participant.ts) */
export const turnLog = new TurnLog(20);

export const REPORT_DIR = 'control-reports';

export interface ReportOutcome {
  status: 'written' | 'discarded' | 'empty' | 'refused';
  /** the files, when written */
  files?: string[];
  reason?: string;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

export async function exportReport(log: vscode.LogOutputChannel): Promise<ReportOutcome> {
  const report = buildReport(turnLog.turns());
  if (!report) {
    void vscode.window.showInformationMessage(
      'Control: nothing to export yet. Ask @control in the chat (for example `@control /lqr ...`), then export the report.',
    );
    return { status: 'empty' };
  }
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  if (!folder) {
    const reason = 'no workspace folder is open to write control-reports/ into';
    void vscode.window.showWarningMessage(`Control: ${reason}. Open a folder and export again.`);
    return { status: 'refused', reason };
  }
  const dir = vscode.Uri.joinPath(folder.uri, REPORT_DIR);
  // never overwrite: a second export the same day gets -2, -3, ...
  let base = report.base;
  for (let i = 2; (await exists(vscode.Uri.joinPath(dir, `${base}.md`))) || (await exists(vscode.Uri.joinPath(dir, `${base}.html`))); i++)
    base = `${report.base}-${i}`;
  const files: [string, string][] = [
    [`${base}.md`, report.markdown],
    [`${base}.html`, report.html],
    [`${base}.jsonl`, report.jsonl],
  ];
  const uris = files.map(([name]) => vscode.Uri.joinPath(dir, name));
  // new files of fixed names in a folder of their own: a .gitignore-d control-reports/ is fine
  const guarded = (): string | undefined => uris.map((u) => writeRefusal(u, { allowIgnored: true })).find((r) => r !== undefined);
  const refuse = (reason: string): ReportOutcome => {
    log.warn(`design report refused: ${reason}`);
    void vscode.window.showWarningMessage(`Control: not writing the design report: ${reason}.`);
    return { status: 'refused', reason };
  };
  const refused = guarded();
  if (refused) return refuse(refused);
  log.info(`design report proposed: ${REPORT_DIR}/${base}.{md,html,jsonl} (${turnLog.turns().length} turns); waiting for review`);
  const accepted = await review(
    {
      original: emptyUri(`/${REPORT_DIR}/${base}.md`),
      proposed: report.markdown,
      path: `/${REPORT_DIR}/${base}.md`,
      title: `New ${REPORT_DIR}/${base}.md (+ .html, .jsonl) (Accept ✓ or Discard ✕ in the title bar)`,
      question: `Write the design report (${turnLog.turns().length} turns) to ${REPORT_DIR}/${base}.md, .html and .jsonl?`,
      acceptLabel: 'Write',
    },
    log,
  );
  if (!accepted) {
    log.info('design report discarded; nothing written');
    return { status: 'discarded' };
  }
  // asked again: a link may have been changed while the proposal was under review
  const late = guarded();
  if (late) return refuse(late);
  const edit = new vscode.WorkspaceEdit();
  files.forEach(([, text], i) => edit.createFile(uris[i], { overwrite: false, contents: new TextEncoder().encode(text) }));
  if (!(await vscode.workspace.applyEdit(edit))) {
    const reason = `VS Code did not create the files in ${REPORT_DIR}/ (do they exist already?)`;
    log.warn(reason);
    void vscode.window.showWarningMessage(`Control: ${reason}`);
    return { status: 'refused', reason };
  }
  log.info(`design report written: ${uris.map((u) => vscode.workspace.asRelativePath(u)).join(', ')}`);
  const md = uris[0];
  void vscode.window
    .showInformationMessage(`Control: design report written to ${REPORT_DIR}/${base}.md, .html and .jsonl.`, 'Open Markdown', 'Open HTML')
    .then(async (pick) => {
      if (pick === 'Open Markdown') await vscode.commands.executeCommand('markdown.showPreview', md);
      if (pick === 'Open HTML') await vscode.env.openExternal(uris[1]);
    });
  return { status: 'written', files: uris.map((u) => u.toString()) };
}

export function registerReport(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  context.subscriptions.push(vscode.commands.registerCommand('control.exportReport', () => exportReport(log)));
}
