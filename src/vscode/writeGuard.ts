/**
 * The one door for files @control writes in VS Code (code insert, report export, plot
 * export): the core write guard (src/core/codegen/guard.ts) on the file's real path, with
 * the open workspace folders as roots and each folder's `files.exclude`. Callers ask before
 * proposing a write and again just before writing (a link can change while a proposal is
 * under review).
 */
import * as vscode from 'vscode';
import { checkWrite } from '../core/codegen/guard.js';

/** why @control must not write `uri`, or undefined when it may; an untitled document is not a file and may always be written */
export function writeRefusal(uri: vscode.Uri, opts: { allowIgnored?: boolean } = {}): string | undefined {
  if (uri.scheme === 'untitled') return undefined;
  if (uri.scheme !== 'file') return `${uri.toString()} is not a file on this machine (${uri.scheme}:)`;
  const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  if (!roots.length) return `${uri.fsPath} is outside the workspace: no folder is open, and @control writes only inside the workspace folders`;
  const v = checkWrite(uri.fsPath, {
    roots,
    allowIgnored: opts.allowIgnored,
    exclude: (root) => vscode.workspace.getConfiguration('files', vscode.Uri.file(root)).get<Record<string, unknown>>('exclude'),
  });
  return v.ok ? undefined : v.reason;
}
