/**
 * The first-run walkthrough's one command of its own: open an example model. The workspace's
 * copy when it has one (examples/workspace is what the host tests open), else the example
 * shipped with the extension as an untitled document (nothing is written to disk).
 */
import * as vscode from 'vscode';

const EXAMPLES = ['pendulum.m', 'motor.py', 'notes.md'];

export async function openExample(context: vscode.ExtensionContext, name = 'pendulum.m'): Promise<string> {
  if (!EXAMPLES.includes(name)) name = 'pendulum.m';
  for (const f of vscode.workspace.workspaceFolders ?? []) {
    const uri = vscode.Uri.joinPath(f.uri, name);
    try {
      await vscode.workspace.fs.stat(uri);
      await vscode.window.showTextDocument(uri, { preview: false });
      return uri.toString();
    } catch {
      // not in this folder
    }
  }
  const bundled = vscode.Uri.joinPath(context.extensionUri, 'examples', 'workspace', name);
  const content = new TextDecoder().decode(await vscode.workspace.fs.readFile(bundled));
  const known = await vscode.languages.getLanguages();
  const language = name.endsWith('.py') ? 'python' : name.endsWith('.md') ? 'markdown' : known.includes('matlab') ? 'matlab' : 'plaintext';
  const doc = await vscode.workspace.openTextDocument({ language, content });
  await vscode.window.showTextDocument(doc, { preview: false });
  return doc.uri.toString();
}

export function registerWalkthrough(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.commands.registerCommand('control.openExample', (name?: string) => openExample(context, name)));
}
