/** Editor commands: analyse a selection or a code-lens model in the chat; doctor; index. */
import * as vscode from 'vscode';
import { findAssignments } from '../core/parse/index.js';
import { runSelfTest } from '../core/doctor.js';
import { analyseQuery, findModels } from './codelens.js';
import { LM_VENDOR } from './lmProvider.js';

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

export async function doctor(log: vscode.LogOutputChannel): Promise<void> {
  const lines: string[] = [];
  const st = runSelfTest();
  lines.push(`${st.ok ? '✔' : '✘'} Solvers: ${st.detail}`);
  lines.push('✘ Language model: none configured. This version answers slash commands and well-formed requests without one.');
  lines.push('✘ Retrieval index: not available in this version.');
  const math = vscode.workspace.getConfiguration('chat.math').get<boolean>('enabled', false);
  lines.push(
    math
      ? '✔ Chat math rendering: on (chat.math.enabled)'
      : '• Chat math rendering: off; matrices are shown as aligned text. Fix: set "chat.math.enabled": true to see LaTeX.',
  );
  lines.push(`${vscode.workspace.isTrusted ? '✔' : '•'} Workspace trust: ${vscode.workspace.isTrusted ? 'trusted' : 'restricted mode (solvers still work; nothing from the workspace is executed)'}`);
  log.info('Doctor:\n' + lines.join('\n'));
  const choice = await vscode.window.showInformationMessage(
    st.ok ? 'Control Doctor: solvers pass their self-test. See the log for every check.' : `Control Doctor: solver self-test FAILED: ${st.detail}`,
    'Show Log',
  );
  if (choice === 'Show Log') log.show();
}
