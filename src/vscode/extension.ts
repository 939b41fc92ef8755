/**
 * The extension entry: wires the core to VS Code. Small and flat on purpose (rust-analyzer's
 * editors/code is the model): all logic lives in src/core, which never imports vscode.
 */
import { configureSolverPool, solverPool } from '../core/tools/runner.js';
import { solveMemoryMB } from './render.js';
import * as vscode from 'vscode';
import { disposeEngines } from '../core/engines/index.js';
import { analyseAt, analyseSelection, doctor } from './commands.js';
import { ModelLensProvider } from './codelens.js';
import { registerLanguageModelProvider } from './lmProvider.js';
import { registerLanguageModelTools } from './lmTools.js';
import { registerParticipant } from './participant.js';
import { registerPlots } from './plots.js';
import { registerCodeInsert } from './codeInsert.js';
import { registerReport } from './report.js';
import { registerWalkthrough } from './walkthrough.js';
import { initStorage, ModelStatus, prewarm, selectModel } from './model.js';
import { RetrievalService } from './retrieval.js';
import { registerMcpServer } from './mcp.js';
import { affectsSetting } from './settings.js';

/** what the extension exposes to other extensions and tests */
export interface ControlApi {
  /** ms from the bundle starting to load to the end of activate(), and of activate() alone */
  activation: { totalMs: number; activateMs: number };
  /** the workspace index's state as the status bar shows it (files, passages, lexical or hybrid) */
  indexState: () => Promise<string>;
}

export function activate(context: vscode.ExtensionContext): ControlApi {
  const t0 = performance.now();
  const log = vscode.window.createOutputChannel('Control', { log: true });
  context.subscriptions.push(log);

  const retrieval = new RetrievalService(context, log);
  context.subscriptions.push(retrieval);
  registerLanguageModelProvider(context, log);
  registerMcpServer(context, String(context.extension.packageJSON.version ?? '0'));
  registerParticipant(context, log, retrieval);
  registerLanguageModelTools(context, log);
  registerPlots(context, log);
  registerCodeInsert(context, log);
  registerReport(context, log);
  registerWalkthrough(context);

  const lenses = new ModelLensProvider();
  const selector: vscode.DocumentSelector = [{ language: 'matlab' }, { language: 'octave' }, { language: 'python' }, { pattern: '**/*.m' }];
  context.subscriptions.push(
    vscode.languages.registerCodeLensProvider(selector, lenses),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsSetting(e, 'codeLens')) lenses.refresh();
    }),
    vscode.commands.registerCommand('control.analyseSelection', () => analyseSelection(log)),
    vscode.commands.registerCommand('control.analyseAt', (uri: vscode.Uri, line: number) => analyseAt(uri, line, log)),
    vscode.commands.registerCommand('control.doctor', () => doctor(log, context)),
    vscode.commands.registerCommand('control.rebuildIndex', () => retrieval.rebuild()),
    vscode.commands.registerCommand('control.calibrateRetrieval', () => retrieval.calibrate()),
    vscode.commands.registerCommand('control.downloadEmbedder', (opts?: { confirmed?: boolean }) => retrieval.downloadEmbedder(opts)),
  );

  // solver threads: their heap budget from the settings (a change starts a fresh pool)
  configureSolverPool({ memoryMb: solveMemoryMB() });
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsSetting(e, 'solveMemoryMB')) configureSolverPool({ memoryMb: solveMemoryMB() });
    }),
  );

  initStorage(context);
  const status = new ModelStatus(retrieval);
  context.subscriptions.push(
    status,
    vscode.commands.registerCommand('control.selectModel', () => selectModel(context, log)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsSetting(e, 'model') || affectsSetting(e, 'openai')) status.refresh();
    }),
  );
  // the local model's fixed prefix and the bundled notes' index are prepared in the
  // background, after start-up settles
  const warm = setTimeout(() => {
    void prewarm(log);
    void retrieval.corpusStore();
  }, 5000);
  context.subscriptions.push({ dispose: () => clearTimeout(warm) });

  const end = performance.now();
  const loadStart = (globalThis as { __controlLoadStart?: number }).__controlLoadStart ?? t0;
  const activation = { totalMs: Math.round((end - loadStart) * 10) / 10, activateMs: Math.round((end - t0) * 10) / 10 };
  log.info(`activated in ${activation.activateMs} ms (${activation.totalMs} ms including loading the bundle)`);
  return { activation, indexState: () => retrieval.describe() };
}

export async function deactivate(): Promise<void> {
  await solverPool().close();
  await disposeEngines();
}
