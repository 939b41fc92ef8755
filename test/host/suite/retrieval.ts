// Retrieval in the real VS Code: Control: Rebuild Index indexes the workspace's note, and
// @control cites it (a clickable reference to notes.md) when asked about what it says.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
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
    assert.ok(refs.some((u) => u.endsWith('/notes.md')), `cited: ${JSON.stringify(refs)}`);
  }, 120_000);

  test('a question about sampling cites the right page of the workspace PDF', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    const result = await vscode.commands.executeCommand<{ errorDetails?: { message: string }; metadata?: { references?: string[]; citations?: string[] } } | undefined>(
      'workbench.action.chat.open',
      { query: '@control /search how fast should I sample to avoid aliasing', modelSelector: { vendor: 'control' }, blockOnResponse: true },
    );
    assert.ok(result, 'the chat request never completed');
    const refs = result.metadata?.references ?? [];
    const cites = result.metadata?.citations ?? [];
    const i = refs.findIndex((u) => u.endsWith('/sampling-notes.pdf'));
    assert.ok(i >= 0, `cited: ${JSON.stringify(refs)}`);
    // the aliasing rule of thumb is on page 2, under the PDF's own title
    assert.equal(cites[i], 'Sampling notes for the pendulum rig, p. 2');
  }, 60_000);
}
