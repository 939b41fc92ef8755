// Retrieval in the real VS Code: Control: Rebuild Index indexes the workspace's note, and
// @control cites it (a clickable reference to notes.md) when asked about what it says.
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { writeTinyEmbedder } from '../../fixtures/onnx';
import { startHub } from '../../fixtures/hubServer';
import { test } from './harness';

export function registerRetrievalTests(): void {
  test('Control: Rebuild Index indexes the workspace note and @control /search cites it', async () => {
    const summary = await vscode.commands.executeCommand<{ filesIndexed: number; chunks: number; cancelled: boolean } | undefined>('control.rebuildIndex');
    assert.ok(summary, 'Rebuild Index returned no summary');
    assert.equal(summary.cancelled, false);
    assert.ok(summary.filesIndexed >= 3, `indexed ${summary.filesIndexed} files (notes.md, pendulum.m, motor.py expected)`);
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    const result = await vscode.commands.executeCommand<{ errorDetails?: { message: string }; metadata?: { references?: string[] } } | undefined>(
      'workbench.action.chat.open',
      { query: '@control /search LQR design for the cart-pole with Q = diag(10, 1, 100, 1)', modelSelector: { vendor: 'control' }, blockOnResponse: true },
    );
    assert.ok(result, 'the chat request never completed');
    assert.equal(result.errorDetails, undefined, JSON.stringify(result.errorDetails));
    const refs = result.metadata?.references ?? [];
    assert.ok(
      refs.some((u) => u.endsWith('/notes.md')),
      `cited: ${JSON.stringify(refs)}`,
    );
  }, 120_000);

  test('a question about sampling cites the right page of the workspace PDF', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    const result = await vscode.commands.executeCommand<
      { errorDetails?: { message: string }; metadata?: { references?: string[]; citations?: string[] } } | undefined
    >('workbench.action.chat.open', {
      query: '@control /search how fast should I sample to avoid aliasing',
      modelSelector: { vendor: 'control' },
      blockOnResponse: true,
    });
    assert.ok(result, 'the chat request never completed');
    const refs = result.metadata?.references ?? [];
    const cites = result.metadata?.citations ?? [];
    const i = refs.findIndex((u) => u.endsWith('/sampling-notes.pdf'));
    assert.ok(i >= 0, `cited: ${JSON.stringify(refs)}`);
    // the aliasing rule of thumb is on page 2, under the PDF's own title
    assert.equal(cites[i], 'Sampling notes for the pendulum rig, p. 2');
  }, 60_000);

  test('a large workspace is indexed on the lexical build thread inside the extension host, and searched', async () => {
    // ~4.5 MB of notes (over WORKER_MIN_BYTES), with words no control note uses, so the other
    // tests' searches are not disturbed; removed (and the index rebuilt) afterwards
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const dir = join(root, 'bulk-notes');
    const words = 'harbour lantern meadow orchard pebble quarry ribbon saddle thistle umbrella velvet willow'.split(' ');
    const letters = (i: number) => [...String(i)].map((d) => 'abcdefghij'[Number(d)]).join('');
    try {
      for (let i = 0; i < 700; i++) {
        const body = Array.from({ length: 1000 }, (_, k) => words[(i * 5 + k * 7) % words.length]).join(' ');
        mkdirSync(join(dir, `b${i % 7}`), { recursive: true });
        writeFileSync(join(dir, `b${i % 7}`, `bulk${i}.md`), `# Bulk ${i}\n\n${body} zq${letters(i)}.\n`);
      }
      const summary = await vscode.commands.executeCommand<{ filesIndexed: number; lexicalThread?: string; warnings?: string[] } | undefined>(
        'control.rebuildIndex',
      );
      assert.ok(summary, 'Rebuild Index returned no summary');
      assert.equal(summary.warnings, undefined, String(summary.warnings));
      assert.equal(summary.lexicalThread, 'worker');
      assert.ok(summary.filesIndexed >= 703, `indexed ${summary.filesIndexed}`);
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      const result = await vscode.commands.executeCommand<{ metadata?: { references?: string[] } } | undefined>('workbench.action.chat.open', {
        query: `@control /search zq${letters(523)}`,
        modelSelector: { vendor: 'control' },
        blockOnResponse: true,
      });
      const refs = result?.metadata?.references ?? [];
      assert.ok(
        refs.some((u) => u.endsWith('/bulk-notes/b5/bulk523.md')),
        `cited: ${JSON.stringify(refs)}`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await vscode.commands.executeCommand('control.rebuildIndex');
    }
  }, 180_000);

  test('Download Embedding Model asks first; with consent it fetches the model from the (local) hub, sets it, search turns hybrid and its gate is calibrated', async () => {
    // the hub is a local stand-in serving a tiny ONNX embedder with the default model's file names
    const tiny = writeTinyEmbedder();
    mkdirSync(join(tiny, 'served', 'onnx'), { recursive: true });
    for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json']) copyFileSync(join(tiny, f), join(tiny, 'served', f));
    copyFileSync(join(tiny, 'onnx', 'model.onnx'), join(tiny, 'served', 'onnx', 'model_quantized.onnx'));
    writeFileSync(join(tiny, 'served', 'special_tokens_map.json'), '{}');
    const files = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json', 'onnx/model_quantized.onnx'];
    const hub = await startHub('Xenova/bge-small-en-v1.5', join(tiny, 'served'), files);
    const cfg = () => vscode.workspace.getConfiguration('control');
    try {
      await cfg().update('embedder.mirror', hub.url, vscode.ConfigurationTarget.Global);
      // it asks first: the test host refuses to show dialogs and says what the dialog held,
      // and no request reached the hub
      await assert.rejects(
        Promise.resolve(vscode.commands.executeCommand('control.downloadEmbedder')),
        /refused to show dialog.*Download the embedding model bge-small-en-v1\.5 \(about 35 MB\) from 127\.0\.0\.1:\d+ into this extension's storage/s,
      );
      assert.equal(hub.log.length, 0, 'a request reached the hub without consent');
      assert.ok(!cfg().get('embedder.path'));
      const dest = await vscode.commands.executeCommand<string | undefined>('control.downloadEmbedder', { confirmed: true });
      assert.ok(dest, 'the download returned no folder (see the Control output)');
      assert.ok(dest.endsWith('bge-small-en-v1.5'), dest);
      assert.equal(cfg().get('embedder.path'), dest);
      assert.ok(
        hub.log.some((r) => r.path === '/cdn/onnx/model_quantized.onnx'),
        JSON.stringify(hub.log),
      );
      // the indexes reopen with the embedder and embed in the background: the status turns hybrid
      const api = vscode.extensions.getExtension('control-eng.control')!.exports as { indexState: () => Promise<string> };
      let state = '';
      for (const end = Date.now() + 90_000; Date.now() < end; await new Promise((r) => setTimeout(r, 500))) {
        state = await api.indexState();
        if (/hybrid, .*\(calibrated\)/.test(state)) break;
      }
      // every passage embedded, then the gate calibrated for the new model on its own
      assert.match(state, /hybrid, (\d+)\/\1 embedded, cosine gate -?\d\.\d\d \(calibrated\)/);
    } finally {
      await cfg().update('embedder.path', undefined, vscode.ConfigurationTarget.Global);
      await cfg().update('embedder.mirror', undefined, vscode.ConfigurationTarget.Global);
      await hub.close();
    }
  }, 150_000);
}
