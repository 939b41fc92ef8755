/**
 * Reviewed writes: a proposal is shown as a diff (the file as it is, beside the file as it
 * would be) with **Accept** and **Discard** in the diff editor's title bar and in a
 * notification. Nothing is written until Accept; then the change is applied as one
 * WorkspaceEdit (undoable). Closing the diff, Discard, or a newer proposal discards it.
 *
 * (VS Code's own Refactor Preview, `needsConfirmation` edits, shows such edits unchecked, so
 * its Apply writes nothing until each entry is ticked: a second, easy-to-miss step.)
 */
import * as vscode from 'vscode';

export const PROPOSED_SCHEME = 'control-proposed';
const CONTEXT_KEY = 'control.proposalPending';

export interface Proposal {
  /** the diff's left side (the current file, or an empty virtual document for a new file) */
  original: vscode.Uri;
  /** the text of the right side */
  proposed: string;
  /** a path for the right side's name (shown in the tab) */
  path: string;
  /** diff editor title */
  title: string;
  /** the notification's question, e.g. "Insert the Python code into motor.py?" */
  question: string;
  acceptLabel: string;
}

interface Pending {
  id: string;
  uri: vscode.Uri;
  resolve: (accepted: boolean) => void;
}

const contents = new Map<string, string>();
let seq = 0;
let pending: Pending | undefined;

function settle(accepted: boolean): boolean {
  const p = pending;
  if (!p) return false;
  pending = undefined;
  void vscode.commands.executeCommand('setContext', CONTEXT_KEY, false);
  p.resolve(accepted);
  return true;
}

function diffTabs(uri: vscode.Uri): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === uri.toString());
}

/** an empty virtual document: the left side of a diff for a file that does not exist yet */
export function emptyUri(path: string): vscode.Uri {
  return vscode.Uri.from({ scheme: PROPOSED_SCHEME, path, query: 'empty' });
}

/** shows the proposal and resolves true when the user accepts it, false otherwise */
export async function review(p: Proposal, log: vscode.LogOutputChannel): Promise<boolean> {
  if (pending) {
    log.info('a newer proposal replaces the one under review (discarded)');
    const old = pending.uri;
    settle(false);
    await closeTabs(old);
  }
  const id = String(++seq);
  contents.set(id, p.proposed);
  const uri = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: p.path, query: id });
  const decided = new Promise<boolean>((resolve) => (pending = { id, uri, resolve }));
  await vscode.commands.executeCommand('setContext', CONTEXT_KEY, true);
  await vscode.commands.executeCommand('vscode.diff', p.original, uri, p.title, { preview: false });
  // closing the diff without a decision is a discard
  const watch = vscode.window.tabGroups.onDidChangeTabs(() => {
    if (pending?.id === id && !diffTabs(uri).length) settle(false);
  });
  void vscode.window.showInformationMessage(p.question, p.acceptLabel, 'Discard').then((pick) => {
    if (pending?.id !== id) return;
    if (pick === p.acceptLabel) settle(true);
    else if (pick === 'Discard') settle(false);
  });
  try {
    return await decided;
  } finally {
    watch.dispose();
    contents.delete(id);
    await closeTabs(uri);
  }
}

async function closeTabs(uri: vscode.Uri): Promise<void> {
  const tabs = diffTabs(uri);
  if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
}

export function registerReview(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, {
      provideTextDocumentContent: (uri) => (uri.query === 'empty' ? '' : (contents.get(uri.query) ?? '')),
    }),
    // Accept/Discard: the diff editor's title bar, the notification, or the palette; they
    // return whether a proposal was waiting
    vscode.commands.registerCommand('control.acceptProposal', () => settle(true)),
    vscode.commands.registerCommand('control.discardProposal', () => settle(false)),
    { dispose: () => settle(false) },
  );
}
