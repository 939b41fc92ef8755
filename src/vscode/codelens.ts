/**
 * Code lenses over state-space models in MATLAB/Octave and Python files (and notebook
 * cells): above each `A = <matrix>` with a matching `B` nearby, "Analyse (A, B[, C, D])".
 * Which assignments form a model is decided in the core (`findModels`, core/parse/models.ts).
 */
import * as vscode from 'vscode';
import { findModels, type Assignment, type ModelFamily } from '../core/parse/index.js';
import { setting } from './settings.js';

/** MATLAB-style literal at full precision, e.g. [0 1; -2 -3] */
export function matlabLiteral(M: number[][]): string {
  if (M.length === 1 && M[0].length === 1) return String(M[0][0]);
  return `[${M.map((r) => r.map((v) => String(v)).join(' ')).join('; ')}]`;
}

/** the chat query that analyses a model: "/analyse A=[...], B=[...]" */
export function analyseQuery(members: Assignment[], origin: string): string {
  const parts = members.map((m) => `${m.name.slice(0, 1)}=${matlabLiteral(m.value!)}`);
  return `@control /analyse ${parts.join(', ')} (from ${origin})`;
}

export class ModelLensProvider implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (!setting('codeLens.enabled', doc)) return [];
    let models: ModelFamily[];
    try {
      models = findModels(doc.getText());
    } catch {
      return [];
    }
    return models.flatMap((f) => {
      const start = new vscode.Position(f.a.range.start.line, f.a.range.start.character);
      const names = f.members.map((m) => m.name).join(', ');
      const lenses = [
        new vscode.CodeLens(new vscode.Range(start, start), {
          title: `Analyse (${names})`,
          tooltip: `@control: eigenvalues, stability, controllability and observability of (${names})`,
          command: 'control.analyseAt',
          arguments: [doc.uri, f.a.range.start.line],
        }),
      ];
      if (f.members.length >= 3) {
        // with an output C: the step response, computed by the solvers and drawn in a webview
        const args: Record<string, unknown> = {};
        for (const m of f.members) args[m.name.slice(0, 1)] = m.value;
        lenses.push(
          new vscode.CodeLens(new vscode.Range(start, start), {
            title: 'Plot step',
            tooltip: `@control: step response of (${names}) with rise, settling and peak marked`,
            command: 'control.plot',
            arguments: [{ kind: 'step', args, origin: `${vscode.workspace.asRelativePath(doc.uri)}:${f.a.range.start.line + 1}` }],
          }),
        );
      }
      return lenses;
    });
  }
}
