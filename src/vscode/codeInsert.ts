/**
 * "Insert MATLAB code" / "Insert Python code" under a chat result: the code that reproduces
 * the result (src/core/codegen) is shown as a diff of the target file with the code in place
 * (review.ts), and inserted, as a WorkspaceEdit, only when the user accepts it. Never into a secret, ignored or excluded file, nor a
 * file whose real path is outside the workspace (writeGuard.ts, asked again just before the
 * edit): those are refused with the reason.
 */
import * as vscode from 'vscode';
import { canReproduce, LANGUAGE_NAMES, reproduce, type CodeLanguage } from '../core/codegen/index.js';
import type { Verification } from '../core/verify/index.js';
import { prepareArgs } from '../core/tools/call.js';
import { registerReview, review } from './review.js';
import { writeRefusal } from './writeGuard.js';

export const INSERT_COMMAND = 'control.insertCode';

export interface InsertPayload {
  language: CodeLanguage;
  tool: string;
  code: string;
}

export interface InsertOutcome {
  status: 'applied' | 'discarded' | 'refused' | 'invalid';
  /** the document the code went (or would have gone) into */
  uri?: string;
  reason?: string;
}

/** the two buttons under a result that has reproducing code */
export function offerCode(
  stream: Pick<vscode.ChatResponseStream, 'button'>,
  tool: string,
  rawArgs: Record<string, unknown>,
  result: Record<string, unknown> | undefined,
  verification: Verification | undefined,
  log: vscode.LogOutputChannel,
): void {
  if (!result || !canReproduce(tool)) return;
  let args: Record<string, any>;
  try {
    args = prepareArgs(tool, rawArgs, { maxN: Number.MAX_SAFE_INTEGER }).args;
  } catch {
    args = rawArgs;
  }
  for (const language of ['matlab', 'python'] as const) {
    let code: string;
    try {
      code = reproduce({ tool, args, result, verification }, language);
    } catch (e) {
      log.warn(`no ${LANGUAGE_NAMES[language]} code for ${tool}: ${(e as Error).message}`);
      continue;
    }
    const payload: InsertPayload = { language, tool, code };
    stream.button({ command: INSERT_COMMAND, title: `Insert ${LANGUAGE_NAMES[language]} code`, arguments: [payload] });
  }
}

// ------------------------------------------------------------------ where the code may go

function matchesLanguage(doc: vscode.TextDocument, lang: CodeLanguage): boolean {
  const path = doc.uri.path.toLowerCase();
  if (lang === 'matlab') return ['matlab', 'octave'].includes(doc.languageId) || path.endsWith('.m');
  return doc.languageId === 'python' || path.endsWith('.py');
}

/** why @control must not write into this document, or undefined when it may (after review): the write guard on its real path */
export async function refusalReason(uri: vscode.Uri): Promise<string | undefined> {
  return writeRefusal(uri);
}

async function untitledFor(lang: CodeLanguage): Promise<vscode.TextDocument> {
  const known = await vscode.languages.getLanguages();
  const id = lang === 'python' ? 'python' : known.includes('matlab') ? 'matlab' : known.includes('octave') ? 'octave' : 'plaintext';
  return vscode.workspace.openTextDocument({ language: id, content: '' });
}

// ------------------------------------------------------------------ the reviewed edit

/** the text to insert so the code sits on its own lines at the position */
function framed(doc: vscode.TextDocument, pos: vscode.Position, code: string): string {
  const line = doc.lineAt(pos.line).text;
  const before = line.slice(0, pos.character);
  const after = line.slice(pos.character);
  let text = code.endsWith('\n') ? code : code + '\n';
  if (before.trim()) text = '\n' + text;
  else if (pos.line > 0 && doc.lineAt(pos.line - 1).text.trim()) text = '\n' + text;
  if (after.trim()) text = text + '\n';
  return text;
}

/**
 * Proposes the code at the cursor of the target (the given document, else the active editor
 * when its language matches, else a new untitled document) as a diff, and inserts it only
 * when the user accepts (review.ts).
 */
export async function insertCode(payload: InsertPayload, log: vscode.LogOutputChannel, target?: vscode.Uri): Promise<InsertOutcome> {
  if (!payload || (payload.language !== 'matlab' && payload.language !== 'python') || typeof payload.code !== 'string' || !payload.code.trim())
    return { status: 'invalid', reason: 'no code to insert' };
  const name = LANGUAGE_NAMES[payload.language];

  let doc: vscode.TextDocument | undefined;
  let pos: vscode.Position | undefined;
  const active = vscode.window.activeTextEditor;
  if (target) {
    const reason = await refusalReason(target);
    if (reason) return refuse(reason, target, log);
    doc = await vscode.workspace.openTextDocument(target);
    const ed = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === target.toString());
    pos = ed?.selection.active ?? new vscode.Position(doc.lineCount - 1, doc.lineAt(doc.lineCount - 1).text.length);
  } else if (active) {
    // the active editor is checked first, whatever its language: the user is looking at it
    const reason = await refusalReason(active.document.uri);
    if (reason && active.document.uri.scheme === 'file') return refuse(reason, active.document.uri, log);
    if (!reason && matchesLanguage(active.document, payload.language)) {
      doc = active.document;
      pos = active.selection.active;
    }
  }
  if (!doc) {
    doc = await untitledFor(payload.language);
    await vscode.window.showTextDocument(doc, { preview: false });
    pos = new vscode.Position(0, 0);
  }
  pos = doc.validatePosition(pos!);

  const text = framed(doc, pos, payload.code);
  const version = doc.version;
  const offset = doc.offsetAt(pos);
  const before = doc.getText();
  const where = doc.isUntitled ? doc.uri.path : vscode.workspace.asRelativePath(doc.uri);
  log.info(`proposed ${name} code for ${payload.tool} in ${doc.uri.toString()} at ${pos.line + 1}:${pos.character + 1}; waiting for review`);
  const accepted = await review(
    {
      original: doc.uri,
      proposed: before.slice(0, offset) + text + before.slice(offset),
      path: doc.uri.path || '/untitled',
      title: `${where} ↔ with @control's ${name} code (Accept ✓ or Discard ✕ in the title bar)`,
      question: `Insert the ${name} code for ${payload.tool} shown in the diff into ${where} at line ${pos.line + 1}?`,
      acceptLabel: 'Insert',
    },
    log,
  );
  if (!accepted) {
    log.info(`${name} code for ${payload.tool} discarded; ${doc.uri.toString()} unchanged`);
    return { status: 'discarded', uri: doc.uri.toString() };
  }
  if (doc.version !== version) {
    // fail closed: what was reviewed is no longer what would be written
    const reason = `${where} changed while the proposal was under review; nothing was inserted. Click the button again.`;
    void vscode.window.showWarningMessage(`Control: ${reason}`);
    return { status: 'discarded', uri: doc.uri.toString(), reason };
  }
  // asked again: a link may have been changed while the proposal was under review
  const late = writeRefusal(doc.uri);
  if (late) return refuse(late, doc.uri, log);
  const edit = new vscode.WorkspaceEdit();
  edit.insert(doc.uri, pos, text);
  if (!(await vscode.workspace.applyEdit(edit))) {
    const reason = `VS Code did not apply the edit to ${where}`;
    log.warn(reason);
    return { status: 'discarded', uri: doc.uri.toString(), reason };
  }
  log.info(`inserted ${name} code into ${doc.uri.toString()} (accepted after review)`);
  const ed = await vscode.window.showTextDocument(doc, { preview: false });
  const end = doc.positionAt(offset + text.length);
  ed.selection = new vscode.Selection(pos, end);
  ed.revealRange(new vscode.Range(pos, end));
  return { status: 'applied', uri: doc.uri.toString() };
}

function refuse(reason: string, uri: vscode.Uri, log: vscode.LogOutputChannel): InsertOutcome {
  log.warn(`insert refused: ${reason}`);
  void vscode.window.showWarningMessage(
    `Control: not inserting code here: ${reason}. Open a MATLAB or Python file of the workspace (or no editor, for a new untitled one) and try again.`,
  );
  return { status: 'refused', uri: uri.toString(), reason };
}

export function registerCodeInsert(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  registerReview(context);
  context.subscriptions.push(
    vscode.commands.registerCommand(INSERT_COMMAND, (payload: InsertPayload, target?: vscode.Uri | string) =>
      insertCode(payload, log, typeof target === 'string' ? vscode.Uri.parse(target) : target),
    ),
  );
}
