/**
 * Code lenses over state-space models in MATLAB/Octave and Python files (and notebook
 * cells): above each `A = <matrix>` with a matching `B` nearby, "Analyse (A, B[, C, D])".
 * A family shares a suffix: A/B/C/D, A1/B1, A_c/B_c, Ad/Bd/Cd/Dd.
 */
import * as vscode from 'vscode';
import { findAssignments, type Assignment } from '../core/parse/index.js';

/** how many lines from A its B, C, D may stand */
const NEARBY_LINES = 40;

export interface ModelFamily {
  a: Assignment;
  members: Assignment[]; // A, B and the C, D found, in that order
  suffix: string;
}

function suffixOf(name: string, letter: string): string | undefined {
  return name.startsWith(letter) ? name.slice(letter.length) : undefined;
}

/** groups the matrix assignments of a text into state-space models */
export function findModels(text: string): ModelFamily[] {
  const all = findAssignments(text).filter((a) => a.value && !a.error);
  const out: ModelFamily[] = [];
  for (const a of all) {
    const suffix = suffixOf(a.name, 'A');
    if (suffix === undefined || !/^(_?[A-Za-z0-9]*)$/.test(suffix)) continue;
    if (a.value!.length === 0 || a.value!.length !== a.value![0].length) continue; // A must be square
    const near = (letter: string) => {
      const cands = all.filter((b) => b.name === letter + suffix && Math.abs(b.range.start.line - a.range.start.line) <= NEARBY_LINES);
      // the closest one, preferring those after A
      cands.sort((x, y) => Math.abs(x.range.start.line - a.range.start.line) - Math.abs(y.range.start.line - a.range.start.line));
      return cands[0];
    };
    const b = near('B');
    if (!b) continue;
    const members = [a, b];
    const c = near('C');
    if (c) {
      members.push(c);
      const d = near('D');
      if (d) members.push(d);
    }
    out.push({ a, members, suffix });
  }
  return out;
}

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
    if (!vscode.workspace.getConfiguration('control', doc).get<boolean>('codeLens.enabled', true)) return [];
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
