/**
 * The tool table as VS Code Language Model Tools (`vscode.lm.registerTool`), so Copilot agent
 * mode, any chat participant and any extension (`vscode.lm.invokeTool`) can call the verified
 * solvers instead of computing numbers themselves. One tool per table entry, named
 * `control_<tool>`; their static declarations in package.json (`languageModelTools`) are
 * generated from the same table by scripts/gen-manifest.ts. All logic is in the core
 * (`core/mcp/invoke.ts`, shared with the MCP server): validated call, solver, verifier.
 */
import * as vscode from 'vscode';
import { describeInvocation, invokeTool } from '../core/mcp/invoke.js';
import { lmToolName } from '../core/mcp/manifest.js';
import { TOOLS } from '../core/tools/table.js';
import { maxStates, solveTimeoutSeconds } from './render.js';

type Input = Record<string, unknown>;

export function registerLanguageModelTools(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  if (typeof vscode.lm?.registerTool !== 'function') {
    log.warn('this VS Code has no vscode.lm.registerTool: the solvers are not offered as language model tools');
    return;
  }
  let registered = 0;
  for (const t of TOOLS) {
    const name = lmToolName(t.name);
    const tool: vscode.LanguageModelTool<Input> = {
      prepareInvocation(options) {
        // read-only computations: no confirmation, just say what is being solved
        return { invocationMessage: describeInvocation(t.name, options.input) };
      },
      async invoke(options, token) {
        if (token.isCancellationRequested) throw new vscode.CancellationError();
        const t0 = performance.now();
        // cancelling the tool call ends its solver thread
        const ac = new AbortController();
        const sub = token.onCancellationRequested(() => ac.abort());
        // The result goes to a language model, not straight to the screen: aligned-text
        // matrices read unambiguously there (LaTeX would be for a renderer).
        const r = await invokeTool(t.name, options.input, { maxN: maxStates(), timeoutS: solveTimeoutSeconds(), signal: ac.signal, math: false }).finally(() =>
          sub.dispose(),
        );
        if (token.isCancellationRequested) throw new vscode.CancellationError();
        if (!r.ok) {
          log.info(`lm tool ${name}: refused: ${r.reason}`);
          // a thrown Error reaches the calling model as the tool's error text: it names the
          // problem and the way out, so the model can correct its arguments or explain
          throw new Error(`${t.name} refused: ${r.reason}`);
        }
        const v = r.structured.verification;
        log.info(
          `lm tool ${name}: ${v ? (v.ok ? 'verified' : 'VERIFICATION FAILED') : 'solved (no verifier check)'} in ${(performance.now() - t0).toFixed(1)} ms`,
        );
        return new vscode.LanguageModelToolResult([
          new vscode.LanguageModelTextPart(r.markdown),
          new vscode.LanguageModelTextPart(`Full-precision result (JSON; non-finite numbers as strings):\n${JSON.stringify(r.structured)}`),
        ]);
      },
    };
    try {
      context.subscriptions.push(vscode.lm.registerTool<Input>(name, tool));
      registered++;
    } catch (e) {
      // e.g. package.json and the table out of sync (test/unit/manifest.test.ts guards this)
      log.error(`language model tool ${name} could not be registered: ${(e as Error).message}`);
    }
  }
  log.info(`${registered} language model tools registered (control_<tool>)`);
}
