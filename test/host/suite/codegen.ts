// Reviewed writes in the real VS Code: reproducing code is inserted only after the Refactor
// Preview is accepted (and not at all when it is discarded), secrets and ignored files are
// refused, the design report's files appear only after acceptance; the walkthrough is
// contributed. Accept/Discard are driven by their commands (control.acceptProposal /
// control.discardProposal), which the diff editor's title-bar buttons run.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { reproduce } from '../../../src/core/codegen/index';
import { runTool } from '../../../src/core/tools/call';
import { verify } from '../../../src/core/verify/index';
import { test } from './harness';

const EXT_ID = 'control-eng.control';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function folder(): vscode.Uri {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'no workspace folder open');
  return f.uri;
}

function lqrPayload(language: 'matlab' | 'python') {
  const args = {
    A: [
      [0, 1],
      [-2, -3],
    ],
    B: [[0], [1]],
    Q: [
      [1, 0],
      [0, 1],
    ],
    R: [[1]],
  };
  const result = runTool('lqr', args);
  return { language, tool: 'lqr', code: reproduce({ tool: 'lqr', args, result, verification: verify('lqr', args, result) }, language) };
}

interface Outcome {
  status: string;
  uri?: string;
  reason?: string;
}

/** a command that waits for the Refactor Preview, with its promise's state visible */
function pending<T>(p: Thenable<T>): { done: () => boolean; value: () => T | undefined; error: () => unknown; promise: Promise<T> } {
  let settled = false;
  let value: T | undefined;
  let error: unknown;
  const promise = Promise.resolve(p).then(
    (v) => ((settled = true), (value = v)),
    (e) => {
      settled = true;
      error = e;
      throw e;
    },
  ) as Promise<T>;
  promise.catch(() => {});
  return { done: () => settled, value: () => value, error: () => error, promise };
}

function proposedDiffOpen(): boolean {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .some((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'control-proposed');
}

async function until(what: string, cond: () => boolean, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(100)) if (cond()) return;
  throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}

/** presses Accept (or Discard) until the waiting command settles */
async function answerPreview<T>(p: ReturnType<typeof pending<T>>, command: 'control.acceptProposal' | 'control.discardProposal'): Promise<T> {
  for (const end = Date.now() + 15_000; Date.now() < end && !p.done(); await sleep(250)) await vscode.commands.executeCommand(command);
  assert.ok(p.done(), `the command did not finish after ${command}`);
  return p.promise;
}

export function registerCodegenTests(): void {
  test('the walkthrough "Get started with @control" is contributed, its media are packaged, it opens', async () => {
    const ext = vscode.extensions.getExtension(EXT_ID)!;
    const w = (ext.packageJSON.contributes.walkthroughs ?? []).find((x: { id: string }) => x.id === 'getStarted');
    assert.ok(w, `no walkthrough getStarted: ${JSON.stringify(ext.packageJSON.contributes.walkthroughs)}`);
    assert.equal(w.title, 'Get started with @control');
    const ids = w.steps.map((s: { id: string }) => s.id);
    assert.deepEqual(ids, ['openExample', 'askLqr', 'codeLens', 'selectModel', 'doctor']);
    for (const s of w.steps) {
      const media = vscode.Uri.joinPath(ext.extensionUri, s.media.markdown);
      await vscode.workspace.fs.stat(media); // throws when missing
      assert.ok(/\]\(command:/.test(s.description), `step ${s.id} has no button`);
    }
    const ask = w.steps.find((s: { id: string }) => s.id === 'askLqr');
    assert.match(decodeURIComponent(ask.description), /command:workbench\.action\.chat\.open\?\[\{"query": ?"@control \/lqr /);
    const all = new Set(await vscode.commands.getCommands(true));
    for (const c of ['control.openExample', 'control.exportReport', 'control.insertCode', 'control.acceptProposal', 'control.discardProposal'])
      assert.ok(all.has(c), `${c} not registered`);
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${EXT_ID}#getStarted`, false);
    const opened = await vscode.commands.executeCommand<string>('control.openExample', 'pendulum.m');
    assert.match(opened, /pendulum\.m$/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Insert Python code: the file is unchanged until the preview is accepted, then holds the code at the cursor', async () => {
    const file = join(folder().fsPath, 'insert_target.py');
    const original = 'import numpy as np\n\nx = 1\n';
    writeFileSync(file, original);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(3, 0, 3, 0); // the empty last line
    const payload = lqrPayload('python');
    const p = pending(vscode.commands.executeCommand<Outcome>('control.insertCode', payload));
    await until('the diff of the proposed insert', proposedDiffOpen);
    await sleep(500);
    assert.equal(p.done(), false, `the command finished without review: ${JSON.stringify(p.value() ?? p.error())}`);
    assert.equal(doc.getText(), original, 'the document changed before the preview was accepted');
    assert.equal(readFileSync(file, 'utf8'), original, 'the file changed before the preview was accepted');
    const out = await answerPreview(p, 'control.acceptProposal');
    assert.equal(out.status, 'applied', JSON.stringify(out));
    assert.equal(out.uri, doc.uri.toString());
    const text = doc.getText();
    assert.ok(text.startsWith(original), `the code is not at the cursor (end of file):\n${text}`);
    assert.match(text, /^K, S, E = ct\.lqr\(A, B, Q, R\)/m);
    assert.match(text, /^A = np\.array\(\[\[0, 1\], \[-2, -3\]\], dtype=float\)$/m);
    await doc.save();
    assert.equal(readFileSync(file, 'utf8'), text, 'saved after acceptance');
    await until('the proposal diff to close', () => !proposedDiffOpen());
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }, 60_000);

  test('Insert MATLAB code: discarding the preview leaves the file as it was', async () => {
    const file = join(folder().fsPath, 'insert_target.m');
    const original = 'A = [0 1; -2 -3];\n';
    writeFileSync(file, original);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc);
    const p = pending(vscode.commands.executeCommand<Outcome>('control.insertCode', lqrPayload('matlab')));
    await until('the diff of the proposed insert', proposedDiffOpen);
    await sleep(300);
    const out = await answerPreview(p, 'control.discardProposal');
    assert.equal(out.status, 'discarded', JSON.stringify(out));
    assert.equal(doc.getText(), original);
    assert.equal(doc.isDirty, false);
    assert.equal(readFileSync(file, 'utf8'), original);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }, 60_000);

  test('Insert code with no editor open: a new untitled document, filled only after acceptance', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const p = pending(vscode.commands.executeCommand<Outcome>('control.insertCode', lqrPayload('python')));
    await until('the diff of the proposed insert', proposedDiffOpen);
    const untitled = vscode.workspace.textDocuments.find((d) => d.isUntitled && d.languageId === 'python');
    assert.ok(untitled, 'no untitled Python document');
    assert.equal(untitled.getText(), '');
    const out = await answerPreview(p, 'control.acceptProposal');
    assert.equal(out.status, 'applied', JSON.stringify(out));
    assert.equal(out.uri, untitled.uri.toString());
    assert.match(untitled.getText(), /^import control as ct$/m);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }, 60_000);

  test('Insert code is refused for .env, keys, .gitignore-d and files.exclude-d files and files outside the workspace', async () => {
    const root = folder().fsPath;
    const env = join(root, '.env');
    writeFileSync(env, 'SECRET=1\n');
    mkdirSync(join(root, 'build'), { recursive: true });
    writeFileSync(join(root, '.gitignore'), 'build/\n');
    writeFileSync(join(root, 'build', 'gen.py'), 'x = 1\n');
    const outside = join(tmpdir(), `control-outside-${Date.now()}.py`);
    writeFileSync(outside, 'x = 1\n');
    // the active editor is .env: refused although the language does not match
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(env)));
    const r = await vscode.commands.executeCommand<Outcome>('control.insertCode', lqrPayload('python'));
    assert.equal(r.status, 'refused', JSON.stringify(r));
    assert.match(r.reason ?? '', /\.env is an environment file/);
    assert.equal(readFileSync(env, 'utf8'), 'SECRET=1\n');
    assert.equal(proposedDiffOpen(), false, 'a refused insert opened a diff');
    const cases: [string, RegExp][] = [
      [join(root, 'id_rsa.key'), /key/],
      [join(root, 'build', 'gen.py'), /ignored by the workspace's \.gitignore/],
      [outside, /outside the workspace/],
    ];
    writeFileSync(cases[0][0], 'k\n');
    for (const [path, why] of cases) {
      const o = await vscode.commands.executeCommand<Outcome>('control.insertCode', lqrPayload('python'), vscode.Uri.file(path).toString());
      assert.equal(o.status, 'refused', `${path}: ${JSON.stringify(o)}`);
      assert.match(o.reason ?? '', why);
    }
    const cfg = vscode.workspace.getConfiguration('files');
    await cfg.update('exclude', { '**/hidden': true }, vscode.ConfigurationTarget.Workspace);
    try {
      mkdirSync(join(root, 'hidden'), { recursive: true });
      writeFileSync(join(root, 'hidden', 'a.py'), 'x = 1\n');
      const o = await vscode.commands.executeCommand<Outcome>(
        'control.insertCode',
        lqrPayload('python'),
        vscode.Uri.file(join(root, 'hidden', 'a.py')).toString(),
      );
      assert.equal(o.status, 'refused', JSON.stringify(o));
      assert.match(o.reason ?? '', /files\.exclude/);
    } finally {
      await cfg.update('exclude', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }, 60_000);

  test('Export Design Report: control-reports/<date>-lqr.{md,html,jsonl} appear only after the preview is accepted', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    const chat = await vscode.commands.executeCommand<{ errorDetails?: { message: string } } | undefined>('workbench.action.chat.open', {
      query: '@control /lqr A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1',
      modelSelector: { vendor: 'control' },
      blockOnResponse: true,
    });
    assert.equal(chat?.errorDetails, undefined, JSON.stringify(chat?.errorDetails));
    const dir = join(folder().fsPath, 'control-reports');
    const p = pending(vscode.commands.executeCommand<{ status: string; files?: string[] }>('control.exportReport'));
    await until('the diff of the proposed report', proposedDiffOpen);
    await sleep(500);
    assert.equal(p.done(), false, `the export finished without review: ${JSON.stringify(p.value() ?? p.error())}`);
    assert.equal(existsSync(dir), false, 'control-reports/ exists before the preview was accepted');
    const out = await answerPreview(p, 'control.acceptProposal');
    assert.equal(out.status, 'written', JSON.stringify(out));
    const files = out.files!.map((u) => vscode.Uri.parse(u).fsPath);
    assert.deepEqual(
      files.map((f) => f.slice(-5).replace(/^.*\./, '')),
      ['md', 'html', 'jsonl'],
    );
    for (const f of files) assert.match(f, /control-reports\/\d{4}-\d\d-\d\d-[a-z0-9-]+\.(md|html|jsonl)$/);
    const md = readFileSync(files[0], 'utf8');
    assert.match(md, /^# Control design report/);
    assert.match(md, /```matlab\nA = \[0 1; -2 -3\];/);
    assert.match(md, /✔ Riccati residual/);
    const html = readFileSync(files[1], 'utf8');
    assert.match(html, /<table class="matrix"><tr><td>0\.236068<\/td><td>0\.236068<\/td><\/tr><\/table>/);
    assert.doesNotMatch(html, /<script|<link/);
    const events = readFileSync(files[2], 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const lqr = events.find((e) => e.type === 'tool_result' && e.tool === 'lqr');
    assert.ok(lqr && Math.abs(lqr.result.K[0][0] - (Math.sqrt(5) - 2)) < 1e-12, `no lqr result in the trace: ${JSON.stringify(events.slice(0, 3))}`);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }, 90_000);

  test('the write guard decides on real paths: inserts through links and `..` to outside, and a report folder linked outside, are refused', async () => {
    const root = folder().fsPath;
    const outside = mkdtempSync(join(tmpdir(), 'control-outside-'));
    writeFileSync(join(outside, 'victim.py'), 'x = 1\n');
    mkdirSync(join(outside, 'dir'), { recursive: true });
    symlinkSync(join(outside, 'victim.py'), join(root, 'link_out.py'));
    symlinkSync('.env', join(root, 'link_env.py'));
    symlinkSync(join(outside, 'dir'), join(root, 'linkdir'));
    if (!existsSync(join(root, '.env'))) writeFileSync(join(root, '.env'), 'SECRET=1\n');
    try {
      const cases: [string, RegExp][] = [
        [join(root, 'link_out.py'), /outside the workspace \(its real path is .*victim\.py\)/],
        [join(root, 'link_env.py'), /\.env is an environment file/],
        [join(root, 'linkdir', 'new.py'), /outside the workspace/],
        [`${root}/linkdir/../victim.py`, /outside the workspace/],
        [join(root, '.vscode', 'tasks.json'), /VS Code's workspace configuration/],
        [join(root, 'prod.env'), /environment file/],
      ];
      for (const [path, why] of cases) {
        const o = await vscode.commands.executeCommand<Outcome>('control.insertCode', lqrPayload('python'), vscode.Uri.file(path).toString());
        assert.equal(o.status, 'refused', `${path}: ${JSON.stringify(o)}`);
        assert.match(o.reason ?? '', why, path);
        assert.equal(proposedDiffOpen(), false, `a refused insert opened a diff (${path})`);
      }
      assert.equal(readFileSync(join(outside, 'victim.py'), 'utf8'), 'x = 1\n');
      // the report export: control-reports/ a link to outside
      const reports = join(root, 'control-reports');
      const kept = existsSync(reports) ? `${reports}-kept-${Date.now()}` : undefined;
      if (kept) renameSync(reports, kept);
      symlinkSync(join(outside, 'dir'), reports);
      try {
        const r = await vscode.commands.executeCommand<{ status: string; reason?: string }>('control.exportReport');
        if (r.status !== 'empty') {
          assert.equal(r.status, 'refused', JSON.stringify(r));
          assert.match(r.reason ?? '', /outside the workspace/);
        }
        assert.equal(proposedDiffOpen(), false, 'a refused export opened a diff');
        assert.deepEqual(readdirSync(join(outside, 'dir')), [], 'the report was written outside the workspace');
      } finally {
        rmSync(reports, { force: true });
        if (kept) renameSync(kept, reports);
      }
    } finally {
      for (const l of ['link_out.py', 'link_env.py', 'linkdir']) rmSync(join(root, l), { force: true });
      rmSync(outside, { recursive: true, force: true });
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  }, 60_000);
}
