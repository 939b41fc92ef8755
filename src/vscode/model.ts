/**
 * Which language model @control uses, from the settings: the model picked in the chat pane
 * (`vscode`), a local GGUF file (`local`, node-llama-cpp in the extension host), an
 * OpenAI-compatible server (`openai`), or none. Shown in the status bar; switched with
 * Control: Select Model. Fails closed: a configured model that cannot load is an error
 * with its fix, never a silent switch to another.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { createEngine, fallbackFrom, type EngineConfig } from '../core/engines/index.js';
import type { Fallback } from '../core/agent/route.js';
import type { Engine } from '../core/engines/types.js';
import { engineTools, SYSTEM_PROMPT } from '../core/agent/prompt.js';
import { LM_VENDOR, LOCAL_MODEL_ID } from './lmProvider.js';
import { VsCodeEngine } from './vscodeEngine.js';
import type { RetrievalService } from './retrieval.js';
import { DEFAULT_MODEL_SPEC } from '../core/engines/llama.js';
import { setting, updateSetting } from './settings.js';
import type { SettingValue } from './settingsTable.js';

export type Provider = SettingValue<'model.provider'>;

export function provider(): Provider {
  return setting('model.provider');
}

let storageDir: string | undefined;

/** where the local engine keeps its prefilled prompt prefix between sessions (set at activation) */
export function setStorageDir(dir: string): void {
  storageDir = dir;
}

export function engineConfig(): EngineConfig {
  switch (provider()) {
    case 'local': {
      const modelPath = setting('model.path');
      // one prefix state per model file: the engine checks the file and prefix hash before reuse
      const stateFile =
        storageDir && modelPath ? join(storageDir, `prefix-${createHash('sha1').update(modelPath).digest('hex').slice(0, 12)}.state`) : undefined;
      return { provider: 'local', modelPath, threads: os.availableParallelism(), stateFile };
    }
    case 'openai':
      return { provider: 'openai', baseUrl: setting('openai.url'), model: setting('openai.model') };
    default:
      return { provider: 'none' };
  }
}

/**
 * The engine for one chat request. `vscode` uses the model picked in the chat unless that
 * is our own deterministic provider (then there is no language model to use).
 */
export async function engineFor(request: vscode.ChatRequest | undefined): Promise<Engine | undefined> {
  const p = provider();
  const m = request?.model;
  // our local model picked in the chat pane: the local engine itself, not a round trip through vscode.lm
  if (m?.vendor === LM_VENDOR && m.id === LOCAL_MODEL_ID) return createEngine(engineConfig());
  if (p === 'vscode') {
    if (!m || m.vendor === LM_VENDOR) return undefined;
    return new VsCodeEngine(m);
  }
  return createEngine(engineConfig());
}

/**
 * The fallback offered, with consent, when the model fails a turn (control.model.fallback):
 * an OpenAI-compatible server, or the model picked in the chat; none when it would be the
 * model that just failed (the same server and model, or `vscode` twice) or when there is none.
 */
export function fallbackFor(request: vscode.ChatRequest | undefined): Fallback | undefined {
  const kind = setting('model.fallback');
  if (kind === 'openai') {
    const cfg: EngineConfig = {
      provider: 'openai',
      baseUrl: setting('model.fallbackUrl') || setting('openai.url'),
      model: setting('model.fallbackModel') || setting('openai.model'),
    };
    const main = engineConfig();
    if (main.provider === 'openai' && main.baseUrl === cfg.baseUrl && main.model === cfg.model) return undefined;
    return fallbackFrom(cfg);
  }
  if (kind === 'vscode') {
    const m = request?.model;
    // our own provider (the solvers, the local model) is no other model; the chat's model is the main one under `vscode`
    if (!m || m.vendor === LM_VENDOR || provider() === 'vscode') return undefined;
    const where = m.vendor === 'copilot' ? 'in VS Code (GitHub Copilot: leaves this machine)' : `in VS Code (runs where its provider, ${m.vendor}, runs it)`;
    return { name: `${m.name}, the model picked in the chat`, where, create: () => new VsCodeEngine(m) };
  }
  return undefined;
}

export function describeModel(): string {
  switch (provider()) {
    case 'local': {
      const path = setting('model.path');
      return path ? `local ${path.split(/[\\/]/).pop()}` : 'local (no file set)';
    }
    case 'openai':
      return `${setting('openai.model')} at ${setting('openai.url')}`;
    case 'vscode':
      return 'the model picked in the chat';
    default:
      return 'no language model';
  }
}

export function initStorage(context: vscode.ExtensionContext): void {
  const dir = join(context.globalStorageUri.fsPath, 'llama');
  try {
    mkdirSync(dir, { recursive: true });
    setStorageDir(dir);
  } catch {
    /* no persisted prefix: the engine prefills at start-up instead */
  }
}

export class ModelStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('control.status', vscode.StatusBarAlignment.Right, 100);
  private readonly sub: vscode.Disposable;
  constructor(private readonly retrieval: RetrievalService) {
    this.item.name = 'Control';
    this.item.command = 'control.selectModel';
    this.sub = retrieval.onDidChange(() => this.refresh());
    this.refresh();
    this.item.show();
  }
  refresh(state?: string): void {
    const model = describeModel();
    this.item.text = `$(pulse) control${state ? `: ${state}` : ''}`;
    void this.retrieval.describe().then((index) => {
      this.item.tooltip = new vscode.MarkdownString(
        `**@control**\n\nSolvers: ready (deterministic, verified)\n\nLanguage model: ${model}\n\nIndex: ${index}\n\nClick to select the model; run **Control: Doctor** to check everything.`,
      );
    });
  }
  dispose(): void {
    this.sub.dispose();
    this.item.dispose();
  }
}

export async function selectModel(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Promise<void> {
  type Item = vscode.QuickPickItem & { id: Provider | 'file' | 'download' };
  const current = provider();
  const items: Item[] = [
    {
      id: 'vscode',
      label: 'Model picked in the chat',
      description: current === 'vscode' ? 'current' : '',
      detail: 'Copilot or any model registered in VS Code; data goes where that model runs.',
    },
    {
      id: 'download',
      label: `Download the default local model…`,
      detail: `${DEFAULT_MODEL_SPEC} (about 2.5 GB) into VS Code's storage for this extension, then run it locally.`,
    },
    {
      id: 'file',
      label: 'Local GGUF file…',
      description: current === 'local' ? 'current' : '',
      detail: 'A model file on this machine, run by node-llama-cpp inside VS Code: nothing leaves the machine.',
    },
    {
      id: 'openai',
      label: 'OpenAI-compatible server…',
      description: current === 'openai' ? 'current' : '',
      detail: 'llama.cpp server, vLLM, Ollama… at a URL you give.',
    },
    {
      id: 'none',
      label: 'None: solvers only',
      description: current === 'none' ? 'current' : '',
      detail: 'Slash commands and well-formed requests still work.',
    },
  ];
  const pick = await vscode.window.showQuickPick(items, { title: 'Control: Select Model', placeHolder: 'Which language model should @control use?' });
  if (!pick) return;
  if (pick.id === 'download') {
    const path = await downloadDefaultModel(context, log);
    if (!path) return;
    await updateSetting('model.path', path, vscode.ConfigurationTarget.Global);
    await updateSetting('model.provider', 'local', vscode.ConfigurationTarget.Global);
  } else if (pick.id === 'file') {
    const uri = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'GGUF model': ['gguf'] }, title: 'Choose a .gguf model file' });
    if (!uri?.[0]) return;
    await updateSetting('model.path', uri[0].fsPath, vscode.ConfigurationTarget.Global);
    await updateSetting('model.provider', 'local', vscode.ConfigurationTarget.Global);
  } else if (pick.id === 'openai') {
    const url = await vscode.window.showInputBox({
      title: 'Server URL',
      value: setting('openai.url') || 'http://127.0.0.1:8080/v1',
      prompt: 'Base URL of an OpenAI-compatible server, including /v1',
    });
    if (!url) return;
    const model = await vscode.window.showInputBox({
      title: 'Model name',
      value: setting('openai.model') || 'default',
      prompt: 'The model name the server expects',
    });
    if (!model) return;
    await updateSetting('openai.url', url, vscode.ConfigurationTarget.Global);
    await updateSetting('openai.model', model, vscode.ConfigurationTarget.Global);
    await updateSetting('model.provider', 'openai', vscode.ConfigurationTarget.Global);
  } else {
    await updateSetting('model.provider', pick.id, vscode.ConfigurationTarget.Global);
  }
  log.info(`model: ${describeModel()}`);
  void prewarm(log);
  void context;
}

/**
 * Downloads the default model on the user's explicit consent, with progress and cancel.
 * Nothing is downloaded without the modal confirmation.
 */
async function downloadDefaultModel(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Promise<string | undefined> {
  const ok = await vscode.window.showWarningMessage(
    `Download ${DEFAULT_MODEL_SPEC} (about 2.5 GB) from Hugging Face into this extension's storage?`,
    { modal: true, detail: 'It runs locally afterwards: your questions never leave this machine.' },
    'Download',
  );
  if (ok !== 'Download') return undefined;
  const directory = vscode.Uri.joinPath(context.globalStorageUri, 'models').fsPath;
  const { resolveModel } = await import('../core/engines/llama.js'); // node-llama-cpp itself loads lazily inside
  try {
    return await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Control: downloading the local model', cancellable: true },
      async (progress, token) => {
        const ac = new AbortController();
        token.onCancellationRequested(() => ac.abort());
        let last = 0;
        return resolveModel(DEFAULT_MODEL_SPEC, {
          directory,
          download: true,
          signal: ac.signal,
          onProgress: ({ totalSize, downloadedSize }) => {
            const pct = totalSize ? (100 * downloadedSize) / totalSize : 0;
            progress.report({ increment: pct - last, message: `${(downloadedSize / 1e9).toFixed(2)} of ${(totalSize / 1e9).toFixed(2)} GB` });
            last = pct;
          },
        });
      },
    );
  } catch (e) {
    log.error(`model download failed: ${(e as Error).message}`);
    void vscode.window.showErrorMessage(`Control: ${(e as Error).message}`);
    return undefined;
  }
}

/** evaluates the fixed prefix in the background so the first question pays only its own tokens */
export async function prewarm(log: vscode.LogOutputChannel): Promise<void> {
  if (provider() !== 'local') return;
  try {
    const engine = await createEngine(engineConfig());
    if (!engine?.prewarm) return;
    const t0 = performance.now();
    await engine.prewarm(SYSTEM_PROMPT, engineTools());
    log.info(`prewarmed ${engine.label} in ${(performance.now() - t0).toFixed(0)} ms`);
  } catch (e) {
    log.warn(`prewarm failed: ${(e as Error).message}`);
  }
}
