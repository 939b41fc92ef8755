/**
 * The two indexes @control searches: the bundled control notes (built once into global
 * storage, incrementally: unchanged notes are not re-read) and the workspace (in workspace
 * storage, built by Control: Rebuild Index and kept current by a file watcher). Lexical
 * search answers at once; with an embedder folder configured, dense indexing runs in the
 * background and search becomes hybrid as it completes.
 */
import * as vscode from 'vscode';
import { MultiRetriever, type Retriever } from '../core/agent/grounding.js';
import type { IndexStore } from '../core/retrieval/store.js';
import { NOTES_BUILD } from '../core/retrieval/sources.js';
import type { BuildSummary } from '../core/retrieval/types.js';
import { affectsSetting, setting, updateSetting } from './settings.js';

type Store = IndexStore;

export class RetrievalService implements vscode.Disposable {
  private corpus?: Promise<Store | undefined>;
  private workspace?: Promise<Store | undefined>;
  private readonly disposables: vscode.Disposable[] = [];
  private pending = new Set<string>();
  private timer?: NodeJS.Timeout;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    const queue = (uri: vscode.Uri) => this.queueUpdate(uri);
    watcher.onDidChange(queue, undefined, this.disposables);
    watcher.onDidCreate(queue, undefined, this.disposables);
    watcher.onDidDelete(queue, undefined, this.disposables);
    this.disposables.push(watcher, this.changed);
    // a new embedder (set by hand or by Download Embedding Model): reopen both indexes with it
    vscode.workspace.onDidChangeConfiguration(
      (e) => {
        if (affectsSetting(e, 'embedder.path')) void this.reopen();
      },
      undefined,
      this.disposables,
    );
  }

  /** close both indexes and open them again (with the embedder now configured); embedding resumes in the background */
  private async reopen(): Promise<void> {
    const [c, w] = [this.corpus, this.workspace];
    this.corpus = undefined;
    this.workspace = undefined;
    await Promise.all([c, w].map((p) => p?.then((s) => s?.close()).catch(() => undefined)));
    this.log.info(`embedder: ${this.embedderPath() ?? 'none'}; indexes reopened`);
    await Promise.all([this.corpusStore(), this.workspaceStore()]);
    this.changed.fire();
  }

  /**
   * Control: Download Embedding Model…: the default embedder, after a modal consent (skipped
   * only when a caller passes `{ confirmed: true }`: automation that already asked), with
   * progress and cancel; loaded once to check it, then set as control.embedder.path, which
   * reopens the indexes and starts background embedding.
   */
  async downloadEmbedder(opts: { confirmed?: boolean } = {}): Promise<string | undefined> {
    const { DEFAULT_EMBEDDER, DEFAULT_MIRROR, downloadEmbedder } = await import('../core/retrieval/embedderDownload.js');
    const mirror = setting('embedder.mirror') || process.env.HF_ENDPOINT || DEFAULT_MIRROR;
    if (!opts.confirmed) {
      const ok = await vscode.window.showWarningMessage(
        `Download the embedding model ${DEFAULT_EMBEDDER.name} (about ${DEFAULT_EMBEDDER.approxMB} MB) from ${new URL(mirror).host} into this extension's storage?`,
        {
          modal: true,
          detail:
            'It runs locally afterwards: passages and questions are embedded on this machine and never sent anywhere. Search becomes hybrid (lexical + dense) as background embedding completes.',
        },
        'Download',
      );
      if (ok !== 'Download') return undefined;
    }
    const dest = vscode.Uri.joinPath(this.context.globalStorageUri, 'embedders', DEFAULT_EMBEDDER.name).fsPath;
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Control: downloading ${DEFAULT_EMBEDDER.name}`, cancellable: true },
        async (progress, token) => {
          const ac = new AbortController();
          token.onCancellationRequested(() => ac.abort());
          let last = 0;
          const { dim } = await downloadEmbedder(DEFAULT_EMBEDDER, {
            dest,
            mirror,
            signal: ac.signal,
            onProgress: (p) => {
              const pct = p.total ? (100 * p.done) / p.total : 0;
              progress.report({ increment: Math.max(0, pct - last), message: `${(p.done / 1e6).toFixed(1)} of ${(p.total / 1e6).toFixed(1)} MB` });
              last = Math.max(last, pct);
            },
          });
          // downloadEmbedder loads the model once: a folder that does not load is never set
          this.log.info(`embedder downloaded: ${dest} (${dim} dimensions) from ${mirror}`);
        },
      );
    } catch (e) {
      const msg = (e as Error).message;
      if ((e as { code?: string }).code === 'cancelled') {
        void vscode.window.showInformationMessage('Control: download cancelled; run Download Embedding Model again to resume it.');
      } else {
        this.log.error(`embedder download failed: ${msg}`);
        void vscode.window.showErrorMessage(`Control: ${msg}`);
      }
      return undefined;
    }
    await updateSetting('embedder.path', dest, vscode.ConfigurationTarget.Global);
    void vscode.window.showInformationMessage(
      `Control: ${DEFAULT_EMBEDDER.name} is ready; passages are being embedded in the background and search turns hybrid as they are.`,
    );
    return dest;
  }

  private embedderPath(): string | undefined {
    return setting('embedder.path') || undefined;
  }

  private async openStore(dir: string, name: 'corpus' | 'workspace'): Promise<Store> {
    const { IndexStore } = await import('../core/retrieval/store.js');
    // repairs (a damaged manifest, snapshot or shard: rebuilt or dropped, see ARCHITECTURE.md
    // invariant 11) and build thread failures are logged as they happen, at open or later
    const onWarning = (w: string) => {
      this.log.warn(`index ${dir}: ${w}`);
      this.scheduleRepair(name);
    };
    const store = await IndexStore.open(dir, { embedder: this.embedderPath(), onWarning });
    const st = store.stats();
    if (st.embedderError) this.log.warn(`embedder: ${st.embedderError} (search stays lexical)`);
    return store;
  }

  private repairTimers: Partial<Record<'corpus' | 'workspace', NodeJS.Timeout>> = {};

  /** a repair said by an index (at open, or a damaged shard found by a search): re-read what it dropped once things are quiet */
  private scheduleRepair(name: 'corpus' | 'workspace'): void {
    clearTimeout(this.repairTimers[name]);
    this.repairTimers[name] = setTimeout(() => void this.repair(name), 2000);
  }

  /**
   * Files that left an index because their stored copy failed a check are re-read by a
   * build in the background (unchanged files cost a stat): the index is whole again without
   * waiting for Rebuild Index. The workspace index only when it has been built.
   */
  private async repair(name: 'corpus' | 'workspace'): Promise<void> {
    const store = await (name === 'corpus' ? this.corpus : this.workspace);
    const st = store?.stats();
    if (!store || !st?.reindexPending) return;
    const root = name === 'corpus' ? vscode.Uri.joinPath(this.context.extensionUri, 'corpus') : this.workspaceRoot();
    // built: it records its folder, or holds passages (a manifest repaired from the shards may no longer record it)
    if (!root || (name === 'workspace' && !st.root && !st.chunks)) return;
    try {
      const s = await store.build(root.fsPath, name === 'corpus' ? NOTES_BUILD : this.globs());
      this.log.info(`${name} index repaired: ${s.filesChanged} re-read, ${s.filesIndexed} files, ${s.chunks} chunks in ${s.ms} ms`);
      this.changed.fire();
      if (this.embedderPath()) void this.embedInBackground(store, name);
    } catch (e) {
      // a build already running (Rebuild Index) re-reads them too
      this.log.info(`${name} index repair not run now: ${(e as Error).message}`);
    }
  }

  /** the bundled notes: built in the background on first use, then only checked for changes */
  corpusStore(): Promise<Store | undefined> {
    this.corpus ??= (async () => {
      try {
        const dir = vscode.Uri.joinPath(this.context.globalStorageUri, 'corpus-index').fsPath;
        const store = await this.openStore(dir, 'corpus');
        const root = vscode.Uri.joinPath(this.context.extensionUri, 'corpus').fsPath;
        // built as the CLI builds its copy (core/retrieval/sources.ts): the same notes, the same options
        const s = await store.build(root, NOTES_BUILD);
        this.log.info(`corpus index: ${s.filesIndexed} notes, ${s.chunks} chunks (${s.filesChanged} re-read) in ${s.ms} ms`);
        if (this.embedderPath()) void this.embedInBackground(store, 'corpus');
        this.changed.fire();
        return store;
      } catch (e) {
        this.log.error(`corpus index unavailable: ${(e as Error).message}`);
        return undefined;
      }
    })();
    return this.corpus;
  }

  private workspaceRoot(): vscode.Uri | undefined {
    return vscode.workspace.workspaceFolders?.[0]?.uri;
  }

  /** the workspace index as it is on disk (opening it does not build it) */
  workspaceStore(): Promise<Store | undefined> {
    this.workspace ??= (async () => {
      const storage = this.context.storageUri;
      if (!storage || !this.workspaceRoot()) return undefined;
      try {
        const store = await this.openStore(vscode.Uri.joinPath(storage, 'index').fsPath, 'workspace');
        if (store.stats().reindexPending) this.scheduleRepair('workspace'); // found by an earlier session
        if (this.embedderPath() && store.stats().chunks) void this.embedInBackground(store, 'workspace');
        return store;
      } catch (e) {
        this.log.error(`workspace index unavailable: ${(e as Error).message}`);
        return undefined;
      }
    })();
    return this.workspace;
  }

  async retriever(): Promise<Retriever | undefined> {
    const sources: { name: string; root: string; store: Store }[] = [];
    const c = await this.corpusStore();
    if (c) sources.push({ name: 'corpus', root: vscode.Uri.joinPath(this.context.extensionUri, 'corpus').fsPath, store: c });
    const w = await this.workspaceStore();
    const root = this.workspaceRoot();
    if (w && root && w.stats().chunks) sources.push({ name: 'workspace', root: root.fsPath, store: w });
    return sources.length ? new MultiRetriever(sources) : undefined;
  }

  private globs(): { include?: string[]; exclude?: string[] } {
    const root = this.workspaceRoot();
    const include = setting('index.include', root);
    return { include: include.length ? [...include] : undefined, exclude: [...setting('index.exclude', root)] };
  }

  /** Control: Rebuild Index: progress with cancel, then a summary */
  async rebuild(): Promise<BuildSummary | undefined> {
    const root = this.workspaceRoot();
    if (!root || !this.context.storageUri) {
      void vscode.window.showWarningMessage('Control: open a folder first; the index covers the workspace (the bundled notes are always searched).');
      return undefined;
    }
    const store = await this.workspaceStore();
    if (!store) {
      void vscode.window.showErrorMessage('Control: the workspace index could not be opened; see the Control output.');
      return undefined;
    }
    const summary = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Control: indexing the workspace', cancellable: true },
      async (progress, token) => {
        const ac = new AbortController();
        token.onCancellationRequested(() => ac.abort());
        let last = 0;
        return store.build(root.fsPath, {
          ...this.globs(),
          signal: ac.signal,
          onProgress: (p) => {
            if (p.phase !== 'ingest' || !p.total) return;
            const pct = (100 * p.done) / p.total;
            progress.report({ increment: pct - last, message: `${p.done} of ${p.total} files${p.path ? `: ${p.path}` : ''}` });
            last = pct;
          },
        });
      },
    );
    this.log.info(
      `workspace index: ${summary.files} files, ${summary.filesIndexed} indexed, ${summary.filesSkipped} skipped, ${summary.chunks} chunks, ${summary.filesChanged} re-read, ${summary.ms} ms, lexical index built on the ${summary.lexicalThread === 'worker' ? 'build thread' : 'extension host thread'}${summary.cancelled ? ' (cancelled: a new build resumes)' : ''}`,
    );
    for (const s of summary.skipped.slice(0, 50)) this.log.info(`  skipped ${s.path}: ${s.reason}`);
    if (this.embedderPath()) void this.embedInBackground(store, 'workspace');
    this.changed.fire();
    void vscode.window.showInformationMessage(
      summary.cancelled
        ? `Control: indexing cancelled after ${summary.filesIndexed} files; run Rebuild Index again to resume.`
        : `Control: indexed ${summary.filesIndexed} of ${summary.files} files (${summary.chunks} passages, ${summary.filesSkipped} skipped) in ${(summary.ms / 1000).toFixed(1)} s.`,
    );
    return summary;
  }

  /**
   * Background embedding; when it completes on an index not yet calibrated for this
   * embedder, its cosine gate is calibrated (as Control: Calibrate Retrieval does), so a
   * new embedder never answers with a guessed threshold for longer than the embedding takes.
   */
  private async embedInBackground(store: Store, name: string): Promise<void> {
    await store.startEmbedding();
    const st = store.stats();
    if (st.mode === 'hybrid' && st.embedded === st.chunks && st.gate.kind === 'cosine' && !st.gate.calibrated) {
      try {
        const r = await store.calibrate();
        this.log.info(
          `${name} index: cosine gate calibrated for ${st.embedder}: ${r.threshold.toFixed(3)} (${r.separable ? 'separable' : 'overlapping'} probes)`,
        );
      } catch (e) {
        this.log.warn(`${name} index: calibration failed: ${(e as Error).message}`);
      }
    }
    this.changed.fire();
  }

  /** Control: Calibrate Retrieval: sets the cosine gate from in-domain and off-domain probes */
  async calibrate(): Promise<void> {
    const stores = [await this.corpusStore(), await this.workspaceStore()].filter((s): s is Store => !!s && s.stats().chunks > 0);
    if (!stores.some((s) => s.stats().mode === 'hybrid')) {
      void vscode.window.showWarningMessage(
        'Control: calibration needs an embedder (run Control: Download Embedding Model…, or set control.embedder.path to an ONNX embedding model folder); lexical search has no cosine gate to calibrate.',
      );
      return;
    }
    for (const s of stores) {
      const r = await s.calibrate();
      this.log.info(`calibrated ${s.dir}: ${JSON.stringify(r)}`);
    }
    void vscode.window.showInformationMessage('Control: retrieval calibrated (see the Control output for the thresholds).');
  }

  private queueUpdate(uri: vscode.Uri): void {
    const root = this.workspaceRoot();
    if (!root || uri.scheme !== 'file' || !uri.fsPath.startsWith(root.fsPath)) return;
    if (uri.fsPath.includes('/.git/') || uri.fsPath.includes('/node_modules/')) return;
    this.pending.add(uri.fsPath);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flushUpdates(), 1000);
  }

  private async flushUpdates(): Promise<void> {
    const paths = [...this.pending];
    this.pending.clear();
    const store = await this.workspaceStore();
    // only a built index is kept current; an unbuilt one waits for Rebuild Index
    if (!store || !store.stats().files || !paths.length) return;
    try {
      const r = await store.update(paths);
      if (r.indexed || r.removed) {
        this.log.info(`index update: ${r.indexed} re-indexed, ${r.removed} removed in ${r.ms} ms`);
        this.changed.fire();
      }
    } catch (e) {
      this.log.warn(`index update failed: ${(e as Error).message}`);
    }
  }

  /**
   * Runs `fn` with background embedding paused (a local model generating needs both cores),
   * and resumes it afterwards.
   */
  async pausedWhile<T>(fn: () => Promise<T>): Promise<T> {
    const corpus = await this.corpus;
    const stores = [corpus, await this.workspace].filter((x): x is Store => !!x);
    const paused = await Promise.all(stores.map((st) => st.pauseEmbedding()));
    try {
      return await fn();
    } finally {
      stores.forEach((st, i) => {
        if (paused[i]) void this.embedInBackground(st, st === corpus ? 'corpus' : 'workspace');
      });
    }
  }

  /** a short state for the status bar */
  async describe(): Promise<string> {
    const w = await this.workspaceStore();
    const st = w?.stats();
    if (!st || !st.chunks) return 'workspace not indexed (run Control: Rebuild Index); bundled notes searched';
    const dense =
      st.mode === 'hybrid'
        ? `hybrid, ${st.embedded}/${st.chunks} embedded, cosine gate ${st.gate.calibrated ? `${st.gate.threshold.toFixed(2)} (calibrated)` : 'not calibrated yet'}`
        : `lexical only (${this.embedderPath() ? 'embedding pending' : 'no embedder: Control: Download Embedding Model…'})`;
    return `${st.filesIndexed} files, ${st.chunks} passages (${dense})`;
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const t of Object.values(this.repairTimers)) clearTimeout(t);
    for (const d of this.disposables) d.dispose();
    void this.corpus?.then((s) => s?.close());
    void this.workspace?.then((s) => s?.close());
  }
}
